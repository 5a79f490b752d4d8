// DataMover::check: paths, pipes, block limits, local ranges and GM element alignment.
#include <gtest/gtest.h>
#include "models/aicore/data_mover.h"

namespace {
using namespace npuvp::aicore;

struct MoverFixture : ::testing::Test {
  LocalBuffer ub{MemSpace::UB, 4096, 32};
  DataMover mover{DataMover::Params{}, [this](MemSpace s) { return s == MemSpace::UB ? &ub : nullptr; },
                  [](tlm::tlm_command, uint64_t, uint8_t*, uint32_t) { return sc_core::SC_ZERO_TIME; }};
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
  EXPECT_EQ(DataMover::path_pipe(MemSpace::GM, MemSpace::UB), Pipe::MTE2);
  EXPECT_EQ(DataMover::path_pipe(MemSpace::UB, MemSpace::GM), Pipe::MTE3);
  EXPECT_EQ(DataMover::path_pipe(MemSpace::UB, MemSpace::UB), Pipe::V);
  EXPECT_FALSE(DataMover::path_pipe(MemSpace::GM, MemSpace::L1).has_value());
  EXPECT_TRUE(mover.check(gm_to_ub()).empty());
}

TEST_F(MoverFixture, WrongPipeForThePath) {
  DataMove m = gm_to_ub();
  m.pipe = Pipe::MTE3;
  EXPECT_EQ(mover.check(m), "DataCopy GM->UB runs on pipe MTE2, not MTE3");
}

TEST_F(MoverFixture, BlockLimits) {
  DataMove m = gm_to_ub();
  m.block_count = 4096;
  EXPECT_EQ(mover.check(m), "blockCount 4096 out of range [1, 4095]");
  m.block_count = 1;
  m.block_len = 0;
  EXPECT_EQ(mover.check(m), "blockLen 0 out of range [1, 65535]");
}

// The extent includes the gaps: 4 blocks of 1 unit with gap g span 3 * (1 + g) + 1 units,
// against a UB of 4096 B = 128 units.
TEST_F(MoverFixture, DestinationExtentCountsGaps) {
  DataMove m = gm_to_ub();
  m.block_count = 4;
  m.dst_gap = 42;  // 130 units
  EXPECT_NE(mover.check(m).find("exceeds UB size"), std::string::npos);
  m.dst_gap = 41;  // 127 units: fits
  EXPECT_TRUE(mover.check(m).empty());
}

TEST_F(MoverFixture, AlignmentRules) {
  DataMove m = gm_to_ub();
  m.dst.addr = 16;
  EXPECT_EQ(mover.check(m), "dst address UB:0x10 is not 32 B aligned");
  m = gm_to_ub();
  m.src.addr = 0x1001;
  EXPECT_EQ(mover.check(m), "src GM address 0x1001 is not aligned to the element size 2 B");
}
}  // namespace
