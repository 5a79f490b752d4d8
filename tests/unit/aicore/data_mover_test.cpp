// DataMover::check: paths, pipes, block limits, local ranges and GM element alignment.
#include <gtest/gtest.h>
#include "models/aicore/data_mover.h"

namespace data_mover_test {
using namespace npuvp::aicore;

struct MoverFixture : ::testing::Test {
  LocalBuffer ub{MemSpace::UB, 4096, 32};
  DataMover mover{Product::Ascend910, DataMover::Params{}, [this](MemSpace s) { return s == MemSpace::UB ? &ub : nullptr; },
                  [](tlm::tlm_command, DataMover::GmSpans&) { return sc_core::SC_ZERO_TIME; }};
  DataMove gm_to_ub() {
    DataMove m;
    m.pipe = Pipe::MTE2;
    m.src = {MemSpace::GM, 0x1000};
    m.dst = {MemSpace::UB, 0};
    m.elem_size = 2;
    return m;
  }
};

TEST_F(MoverFixture, LegalPathsAndTheirPipes) {
  EXPECT_EQ(copy_pipe(Product::Ascend910, MemSpace::GM, MemSpace::UB), Pipe::MTE2);
  EXPECT_EQ(copy_pipe(Product::Ascend910, MemSpace::UB, MemSpace::GM), Pipe::MTE3);
  EXPECT_EQ(copy_pipe(Product::Ascend910, MemSpace::UB, MemSpace::UB), Pipe::V);
  EXPECT_EQ(copy_pipe(Product::Ascend910, MemSpace::GM, MemSpace::L1), Pipe::MTE2);
  EXPECT_FALSE(copy_pipe(Product::Ascend910, MemSpace::UB, MemSpace::L1).has_value());   // inference and A2 only
  EXPECT_EQ(copy_pipe(Product::Ascend310P, MemSpace::UB, MemSpace::L1), Pipe::MTE3);
  EXPECT_EQ(copy_pipe(Product::Ascend910B, MemSpace::L1, MemSpace::BT), Pipe::MTE1);
  EXPECT_FALSE(copy_pipe(Product::Ascend910B, MemSpace::L0C, MemSpace::UB).has_value());  // A2: Fixpipe instead
  EXPECT_EQ(copy_pipe(Product::Ascend910, MemSpace::L0C, MemSpace::UB), Pipe::V);
  EXPECT_TRUE(mover.check(gm_to_ub(), Pipe::MTE2).empty());
}

TEST_F(MoverFixture, WrongPipeForThePath) {
  DataMove m = gm_to_ub();
  m.pipe = Pipe::MTE3;
  EXPECT_EQ(mover.check(m, m.pipe), "DataCopy GM->UB runs on pipe MTE2, not MTE3");
  m.pipe = Pipe::MTE2;
  m.src_type = DType::F16;
  m.dst_type = DType::F32;
  EXPECT_EQ(mover.check(m, m.pipe), "DataCopy GM->UB cannot convert f16 to f32");
}

TEST_F(MoverFixture, BlockLimits) {
  DataMove m = gm_to_ub();
  m.block_count = 4096;
  EXPECT_EQ(mover.check(m, m.pipe), "blockCount 4096 out of range [1, 4095]");
  m.block_count = 1;
  m.block_len = 0;
  EXPECT_EQ(mover.check(m, m.pipe), "blockLen 0 out of range [1, 65535]");
}

// The extent includes the gaps: 4 blocks of 1 unit with gap g span 3 * (1 + g) + 1 units,
// against a UB of 4096 B = 128 units.
TEST_F(MoverFixture, DestinationExtentCountsGaps) {
  DataMove m = gm_to_ub();
  m.block_count = 4;
  m.dst_gap = 42;  // 130 units
  EXPECT_NE(mover.check(m, m.pipe).find("exceeds UB size"), std::string::npos);
  m.dst_gap = 41;  // 127 units: fits
  EXPECT_TRUE(mover.check(m, m.pipe).empty());
}

TEST_F(MoverFixture, AlignmentRules) {
  DataMove m = gm_to_ub();
  m.dst.addr = 16;
  EXPECT_EQ(mover.check(m, m.pipe), "dst address UB:0x10 is not 32 B aligned");
  m = gm_to_ub();
  m.src.addr = 0x1001;
  EXPECT_EQ(mover.check(m, m.pipe), "src GM address 0x1001 is not aligned to the element size 2 B");
}
}  // namespace data_mover_test
