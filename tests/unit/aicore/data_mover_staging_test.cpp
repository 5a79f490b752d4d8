// DataMover's staging areas hold a transfer's bytes packed (issue 26, speed): a strided GM read
// (Nd2Nz of several matrices, LoadData 2D of spaced fractals) and an ND Fixpipe to strided GM
// rows must write exactly what the layout transform writes when it reads or writes GM
// directly, byte for byte, and nothing else.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "models/aicore/data_mover.h"
#include "models/aicore/layout.h"

namespace data_mover_staging_test {
using namespace npuvp::aicore;

constexpr uint64_t kGmBase = 0x10000;

struct StagingFixture : ::testing::Test {
  std::vector<uint8_t> gm = std::vector<uint8_t>(16384);
  LocalBuffer l1{MemSpace::L1, 16384, 32};
  LocalBuffer l0c{MemSpace::L0C, 16384, 32};
  std::vector<uint64_t> span_addresses;  // every span the mover sent, in order
  DataMover mover{Product::Ascend910B, DataMover::Params{},
                  [this](MemSpace s) -> LocalBuffer* {
                    if (s == MemSpace::L1) return &l1;
                    if (s == MemSpace::L0C) return &l0c;
                    return nullptr;
                  },
                  [this](tlm::tlm_command cmd, DataMover::GmSpans& spans) {
                    // A memory that serves each span from or into the host vector.
                    for (size_t i = 0; i < spans.list.spans.size(); ++i) {
                      const npuvp::AddressSpan& s = spans.list.spans[i];
                      span_addresses.push_back(s.address);
                      uint8_t* at = gm.data() + (s.address - kGmBase);
                      if (cmd == tlm::TLM_READ_COMMAND) {
                        std::memcpy(spans.where(i), at, s.length);
                      } else {
                        std::memcpy(at, spans.where(i), s.length);
                      }
                    }
                    return sc_core::SC_ZERO_TIME;
                  }};

  StagingFixture() {
    std::mt19937 rng(26);
    for (auto& b : gm) b = static_cast<uint8_t>(rng());
    // Finite floats in L0C (Fixpipe's ReLU compares them), a fixed pattern in L1.
    for (uint64_t i = 0; i < l0c.size() / 4; ++i) {
      const float v = static_cast<float>(int(rng() % 2001) - 1000) / 8.0f;
      std::memcpy(l0c.data() + i * 4, &v, 4);
    }
    std::memset(l1.data(), 0xab, l1.size());
  }
  void run(const Instruction& instr) {
    mover.start(instr, sc_core::sc_time(1, sc_core::SC_NS));
    mover.complete(instr);
  }
  layout::ConstView gm_view() const { return {gm.data(), kGmBase, gm.size()}; }
};

TEST_F(StagingFixture, Nd2NzOfSeveralStridedMatricesMatchesTheTransformFromGm) {
  Nd2Nz op;
  op.src = {MemSpace::GM, kGmBase + 12};
  op.dst = {MemSpace::L1, 64};
  op.dtype = DType::F32;
  op.nd_num = 3;
  op.n_value = 5;
  op.d_value = 11;  // 44 B: a whole block and a partial one, zero-padded
  op.src_d_value = 13;
  op.src_nd_matrix_stride = 80;
  op.dst_nz_c0_stride = 8;
  op.dst_nz_n_stride = 1;
  op.dst_nz_matrix_stride = 16 * 8 * 2;
  std::vector<uint8_t> want(l1.data(), l1.data() + l1.size());
  layout::nd2nz(op, gm_view(), {want.data(), 0, want.size()});
  run(op);
  EXPECT_EQ(0, std::memcmp(want.data(), l1.data(), want.size()));
  EXPECT_EQ(span_addresses.size(), 15u);  // one span per row: the gaps are not read
}

TEST_F(StagingFixture, LoadData2DOfSpacedFractalsFromGmMatchesTheTransform) {
  LoadData2D op;
  op.pipe = Pipe::MTE2;
  op.src = {MemSpace::GM, kGmBase + 512};
  op.dst = {MemSpace::L1, 0};
  op.dtype = DType::F16;
  op.start_index = 1;
  op.repeat = 4;
  op.src_stride = 3;
  op.dst_gap = 1;
  op.transpose = true;
  std::vector<uint8_t> want(l1.data(), l1.data() + l1.size());
  layout::load2d(op, gm_view(), {want.data(), 0, want.size()});
  run(op);
  EXPECT_EQ(0, std::memcmp(want.data(), l1.data(), want.size()));
}

TEST_F(StagingFixture, NdFixpipeToStridedRowsWritesOnlyTheRows) {
  Fixpipe op;
  op.dst = {MemSpace::GM, kGmBase + 256};
  op.src = 0;
  op.m_size = 20;
  op.n_size = 24;  // a whole column of 16 and a partial one of 8
  op.src_stride = 32;
  op.dst_stride = 40;  // 16 elements of GM between rows stay as they were
  op.relu = true;
  std::vector<uint8_t> want = gm;
  layout::fixpipe(op, {l0c.data(), 0, l0c.size()}, {want.data(), kGmBase, want.size()});
  run(op);
  EXPECT_EQ(want, gm);
  EXPECT_EQ(span_addresses.size(), 20u);
  EXPECT_EQ(span_addresses.back(), kGmBase + 256 + 19 * 40 * 4);
}

}  // namespace data_mover_staging_test
