// DataMover with DataCopyPad moves (byte lengths, padding): the block geometry, check()'s
// limits, and the bytes a GM -> UB and a UB -> GM move leave behind, against a GM held in a
// host vector.
#include <gtest/gtest.h>
#include <cstring>
#include <vector>
#include "models/aicore/data_mover.h"

namespace data_mover_pad_test {
using namespace npuvp::aicore;

struct PadFixture : ::testing::Test {
  static constexpr uint64_t kGmBase = 0x10000;
  std::vector<uint8_t> gm = std::vector<uint8_t>(4096);
  LocalBuffer ub{MemSpace::UB, 4096, 32};
  DataMover mover{Product::Ascend910B, DataMover::Params{},
                  [this](MemSpace s) { return s == MemSpace::UB ? &ub : nullptr; },
                  [this](tlm::tlm_command cmd, DataMover::GmSpans& spans) {
                    for (size_t i = 0; i < spans.list.spans.size(); ++i) {
                      const npuvp::AddressSpan& s = spans.list.spans[i];
                      uint8_t* host = gm.data() + (s.address - kGmBase);
                      if (cmd == tlm::TLM_READ_COMMAND) std::memcpy(spans.where(i), host, s.length);
                      else std::memcpy(host, spans.where(i), s.length);
                    }
                    return sc_core::SC_ZERO_TIME;
                  }};
  PadFixture() {
    for (size_t i = 0; i < gm.size(); ++i) gm[i] = static_cast<uint8_t>(i * 7 + 1);
    std::memset(ub.data(), 0xEE, ub.size());
  }
  DataMove pad(MemSpace src, MemSpace dst) {
    DataMove m;
    m.pipe = src == MemSpace::GM ? Pipe::MTE2 : Pipe::MTE3;
    m.src = {src, src == MemSpace::GM ? kGmBase : 0};
    m.dst = {dst, dst == MemSpace::GM ? kGmBase : 0};
    m.unit = 1;
    m.pad = true;
    m.elem_size = 2;
    return m;
  }
  void run(const DataMove& m) {
    const sc_core::sc_time cycle(1, sc_core::SC_NS);
    mover.start(m, cycle);
    mover.complete(m);
  }
};

TEST_F(PadFixture, BlockGeometryInBytes) {
  DataMove m = pad(MemSpace::GM, MemSpace::UB);
  m.block_len = 14;
  m.src_gap = 6;  // bytes
  m.dst_gap = 2;  // 32 B units
  m.pad_left = 4;
  m.pad_right = 2;
  EXPECT_EQ(move_src_block(m), 14u);
  EXPECT_EQ(move_src_pitch(m), 20u);
  EXPECT_EQ(move_dst_block(m), 32u);        // 4 + 14 + 2 rounded up
  EXPECT_EQ(move_dst_pitch(m), 32u + 64u);  // and two 32 B units
  DataMove out = pad(MemSpace::UB, MemSpace::GM);
  out.block_len = 40;
  out.src_gap = 1;
  out.dst_gap = 3;
  EXPECT_EQ(move_src_pitch(out), 64u + 32u);
  EXPECT_EQ(move_dst_pitch(out), 43u);
  EXPECT_EQ(move_dst_block(out), 40u);
}

TEST_F(PadFixture, CheckLimits) {
  DataMove m = pad(MemSpace::GM, MemSpace::UB);
  m.block_len = 14;
  m.src.addr = kGmBase + 1;  // any GM byte
  EXPECT_EQ(mover.check(m, m.pipe), "");
  m.block_len = 15;
  EXPECT_EQ(mover.check(m, m.pipe), "blockLen 15 B is not a whole number of 2 B elements");
  m.block_len = 2097152;
  EXPECT_EQ(mover.check(m, m.pipe), "blockLen 2097152 B out of range [1, 2097151]");
  m.block_len = 14;
  m.pad_right = 34;
  EXPECT_EQ(mover.check(m, m.pipe), "leftPadding 0 B / rightPadding 34 B: each must be at most 32 B");
  m.pad_right = 0;
  m.block_count = 129;  // 129 blocks of 32 B in a 4096 B UB
  EXPECT_NE(mover.check(m, m.pipe).find("UB"), std::string::npos);
  DataMove local = pad(MemSpace::UB, MemSpace::UB);
  local.pipe = Pipe::V;
  local.block_len = 32;
  EXPECT_EQ(mover.check(local, local.pipe), "DataCopyPad UB->UB is not supported (GM->UB and UB->GM are)");
  DataMover old{Product::Ascend310P, DataMover::Params{}, [this](MemSpace) { return &ub; },
                [](tlm::tlm_command, DataMover::GmSpans&) { return sc_core::SC_ZERO_TIME; }};
  m.block_count = 1;
  EXPECT_EQ(old.check(m, m.pipe), "DataCopyPad is not supported on ascend310p");
}

TEST_F(PadFixture, GmToUbPadsEachBlock) {
  DataMove m = pad(MemSpace::GM, MemSpace::UB);
  m.block_count = 2;
  m.block_len = 6;  // 3 elements
  m.src_gap = 2;
  m.dst_gap = 1;
  m.pad_left = 2;
  m.pad_right = 4;
  m.pad_value = 0xBEEF;
  run(m);
  for (int b = 0; b < 2; ++b) {
    const uint8_t* block = ub.data() + b * 64;
    for (int i = 0; i < 32; i += 2) {
      const bool data = i >= 2 && i < 8;
      const uint8_t lo = data ? gm[b * 8 + i - 2] : 0xEF, hi = data ? gm[b * 8 + i - 1] : 0xBE;
      EXPECT_EQ(block[i], lo) << b << " " << i;
      EXPECT_EQ(block[i + 1], hi) << b << " " << i;
    }
    for (int i = 32; i < 64; ++i) EXPECT_EQ(block[i], 0xEE) << "gap " << b << " " << i;
  }
}

TEST_F(PadFixture, UbToGmWritesOnlyTheData) {
  for (size_t i = 0; i < ub.size(); ++i) ub.data()[i] = static_cast<uint8_t>(i * 3);
  const std::vector<uint8_t> before = gm;
  DataMove m = pad(MemSpace::UB, MemSpace::GM);
  m.block_count = 3;
  m.block_len = 10;
  m.src_gap = 1;  // UB blocks 64 B apart
  m.dst_gap = 5;  // GM blocks 15 B apart
  run(m);
  std::vector<uint8_t> want = before;
  for (int b = 0; b < 3; ++b) std::memcpy(want.data() + b * 15, ub.data() + b * 64, 10);
  EXPECT_EQ(gm, want);
}
}  // namespace data_mover_pad_test
