#include <gtest/gtest.h>
#include "models/aicore/isa.h"

namespace isa_test {
using namespace npuvp::aicore;

TEST(IsaTest, PipeOfEachInstruction) {
  EXPECT_EQ(pipe_of(DataMove{Pipe::MTE3, {}, {}}), Pipe::MTE3);
  EXPECT_EQ(pipe_of(VectorOp{}), Pipe::V);
  EXPECT_EQ(pipe_of(SetFlag{Pipe::MTE2, Pipe::V, 0}), Pipe::MTE2);  // runs on the source
  EXPECT_EQ(pipe_of(WaitFlag{Pipe::MTE2, Pipe::V, 0}), Pipe::V);    // runs on the destination
  EXPECT_EQ(pipe_of(Barrier{Pipe::MTE3}), Pipe::MTE3);
}

TEST(IsaTest, DescribeNamesOperandsAndParameters) {
  DataMove m;
  m.dst = {MemSpace::UB, 0x100};
  m.src = {MemSpace::GM, 0x100000000};
  m.block_count = 4;
  m.block_len = 2;
  m.src_gap = 1;
  EXPECT_EQ(describe(m), "DataCopy UB:0x100 <- GM:0x100000000 blockCount=4 blockLen=2 srcGap=1 dstGap=0 unit=32B");
  VectorOp v;
  v.op = VecOp::Adds;
  v.dtype = DType::F32;
  v.scalar = 2.5;
  v.counter_mode = true;
  v.mask_lo = 100;
  EXPECT_EQ(instr_name(v), "Adds.f32");
  EXPECT_NE(describe(v).find("scalar=2.5"), std::string::npos);
  EXPECT_NE(describe(v).find("count=100"), std::string::npos);
  EXPECT_EQ(describe(WaitFlag{Pipe::V, Pipe::MTE3, 1}), "WaitFlag<V_MTE3>(1)");
  EXPECT_EQ(describe(Barrier{Pipe::V}), "PipeBarrier<PIPE_V>");
}

TEST(IsaTest, DtypeSizes) {
  EXPECT_EQ(dtype_size(DType::F16), 2u);
  EXPECT_EQ(dtype_size(DType::BF16), 2u);
  EXPECT_EQ(dtype_size(DType::F32), 4u);
  EXPECT_EQ(dtype_size(DType::S8), 1u);
  EXPECT_STREQ(dtype_name(DType::S32), "s32");
}
}  // namespace isa_test
