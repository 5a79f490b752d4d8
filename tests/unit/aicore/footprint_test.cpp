// The bytes an instruction may touch (automatic synchronisation's test), and the event ids the
// model keeps for its own flags.
#include <gtest/gtest.h>
#include "models/aicore/event_sync.h"
#include "models/aicore/footprint.h"

namespace footprint_test {
using namespace npuvp::aicore;

constexpr bool kWrites = false, kReadsToo = true;

// Two blocks of 64 B, 32 B apart: the source spans [0x100, 0x1a0) of GM, the destination
// (gap 0) [0x40, 0xc0) of UB.
DataMove gm_to_ub() {
  DataMove m;
  m.pipe = Pipe::MTE2;
  m.src = {MemSpace::GM, 0x100};
  m.dst = {MemSpace::UB, 0x40};
  m.block_count = 2;
  m.block_len = 2;
  m.src_gap = 1;
  return m;
}

TEST(Footprint, DataMoveWritesItsDestinationAndReadsItsSource) {
  const Instruction m = gm_to_ub();
  EXPECT_TRUE(touches(m, MemSpace::UB, 0xbc, 0xc0, kWrites));    // last byte written
  EXPECT_FALSE(touches(m, MemSpace::UB, 0xc0, 0xc4, kReadsToo));  // just past it
  EXPECT_FALSE(touches(m, MemSpace::UB, 0x3c, 0x40, kReadsToo));  // just before it
  EXPECT_FALSE(touches(m, MemSpace::GM, 0x100, 0x104, kWrites));  // read only
  EXPECT_TRUE(touches(m, MemSpace::GM, 0x19c, 0x1a0, kReadsToo));
  EXPECT_FALSE(touches(m, MemSpace::GM, 0x1a0, 0x1a4, kReadsToo));
  EXPECT_TRUE(touches(m, MemSpace::GM, 0x140, 0x144, kReadsToo));  // the gap counts (one range)
  EXPECT_FALSE(touches(m, MemSpace::L1, 0x40, 0x44, kReadsToo));  // another space
}

TEST(Footprint, VectorOpsTouchTheirOperandsInUb) {
  VectorOp add;  // f16, one full repeat: 256 B per operand
  add.op = VecOp::Add;
  add.dst = 0x1000;
  add.src0 = 0x2000;
  add.src1 = 0x3000;
  const Instruction v = add;
  EXPECT_TRUE(touches(v, MemSpace::UB, 0x10fe, 0x1100, kWrites));
  EXPECT_FALSE(touches(v, MemSpace::UB, 0x1100, 0x1102, kReadsToo));
  EXPECT_FALSE(touches(v, MemSpace::UB, 0x2000, 0x2002, kWrites));
  EXPECT_TRUE(touches(v, MemSpace::UB, 0x30fe, 0x3100, kReadsToo));
  EXPECT_FALSE(touches(v, MemSpace::GM, 0x1000, 0x1002, kReadsToo));

  VectorOp sum;  // count-form ReduceSum of 64 floats: one result at dst
  sum.op = VecOp::ReduceSum;
  sum.dtype = DType::F32;
  sum.dst = 0x400;
  sum.src0 = 0x800;
  sum.counter_mode = true;
  sum.mask_lo = 64;
  EXPECT_TRUE(touches(sum, MemSpace::UB, 0x400, 0x404, kWrites));
  EXPECT_FALSE(touches(sum, MemSpace::UB, 0x404, 0x408, kReadsToo));

  VectorOp none = add;  // nothing enabled: nothing touched
  none.repeat = 0;
  EXPECT_FALSE(touches(none, MemSpace::UB, 0x1000, 0x1002, kReadsToo));
}

TEST(Footprint, GatherMayReadAnyUbByte) {
  VectorOp g;
  g.op = VecOp::Gather;
  g.dtype = DType::F32;
  g.dst = 0x1000;
  g.src0 = 0x2000;
  g.src1 = 0x3000;
  EXPECT_TRUE(touches(g, MemSpace::UB, 0x3ff00, 0x3ff04, kReadsToo));  // its offsets are data
  EXPECT_FALSE(touches(g, MemSpace::UB, 0x3ff00, 0x3ff04, kWrites));
}

TEST(Footprint, FlagsTouchNothing) {
  for (const Instruction& i : {Instruction{SetFlag{}}, Instruction{WaitFlag{}}, Instruction{Barrier{}}}) {
    EXPECT_FALSE(touches(i, MemSpace::UB, 0, ~0ull, kReadsToo));
  }
}

// The model's own ids (automatic synchronisation's flags) count like the kernel's but lie past
// every id a kernel may name.
TEST(Footprint, ModelFlagIdsArePastTheKernelsAndApart) {
  EventSync sync(4, 1);
  EXPECT_EQ(sync.event_ids(), 4u);
  EXPECT_EQ(sync.check(4), "event id 4 out of range [0, 3]");
  sync.set(Pipe::V, Pipe::S, 4);
  EXPECT_TRUE(sync.is_set(Pipe::V, Pipe::S, 4));
  EXPECT_FALSE(sync.is_set(Pipe::V, Pipe::S, 3));
  EXPECT_FALSE(sync.is_set(Pipe::V, Pipe::MTE3, 0));
  sync.take(Pipe::V, Pipe::S, 4);
  EXPECT_FALSE(sync.is_set(Pipe::V, Pipe::S, 4));
}

}  // namespace footprint_test
