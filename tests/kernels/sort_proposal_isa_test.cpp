// The Ascend C region-proposal APIs issue the vector unit's RpSort16 / MrgSort4 /
// ProposalConcat / ProposalExtract (the instructions TIK lowers to), so they share its checks:
// MrgSort4.md's repeatTimes range and conditions, validBit, alignment; and its order: NaN
// above every number, equal scores in input order, through the full Sort's MrgSort4 rounds.
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include "lib/kernel_api.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/lib_harness.h"

namespace sort_proposal_isa_test {

using npuvp::testing::UbOperand;
using npuvp::testing::same_bits;

// Full Sort of float proposals on the 310P (RpSort16, then MrgSort4 rounds of 16 -> 64 -> 128):
// NaN scores first in input order, then the numbers descending, ties in input order, each
// index carried along in the label.
TEST(ProposalIsa, FullSortFloatNaNAndTies_310P) {
  auto& dev = npuvp::testing::make_device({}, "ascend310p");
  const uint32_t n = 112;  // 7 runs of 16: merges of 4 + 3, then 2 queues
  std::vector<float> x(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = float(int(i * 37 % 11) - 5) * 0.5f;  // many ties
  x[9] = x[70] = x[101] = std::numeric_limits<float>::quiet_NaN();
  std::vector<uint32_t> idx(n);
  for (uint32_t i = 0; i < n; ++i) idx[i] = 0x12340000u + i;
  std::vector<UbOperand> ops = {UbOperand::of(x), UbOperand::of(idx), UbOperand::zeros(n * 32),
                                UbOperand::zeros(n * 32), UbOperand::zeros(n * 32), UbOperand::zeros(n * 4),
                                UbOperand::zeros(n * 4)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    AscendC::LocalTensor<float> concat;
    AscendC::Concat(concat, ub[0].ReinterpretCast<float>(), ub[2].ReinterpretCast<float>(), int32_t(n / 16));
    AscendC::LocalTensor<float> tmp = ub[4].ReinterpretCast<float>();
    AscendC::Sort<float, true>(ub[3].ReinterpretCast<float>(), concat, ub[1].ReinterpretCast<uint32_t>(), tmp,
                               int32_t(n / 16));
    AscendC::Extract(ub[5].ReinterpretCast<float>(), ub[6].ReinterpretCast<uint32_t>(), ub[3].ReinterpretCast<float>(),
                     int32_t(n / 16));
  });
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (std::isnan(x[a]) || std::isnan(x[b])) return std::isnan(x[a]) && !std::isnan(x[b]);
    return x[a] > x[b];
  });
  const auto values = ops[5].as<float>(n);
  const auto indices = ops[6].as<uint32_t>(n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_TRUE(same_bits(values[i], x[order[i]])) << "element " << i;
    ASSERT_EQ(indices[i], idx[order[i]]) << "element " << i;
  }
}

std::string mrgsort4_error(const AscendC::MrgSort4Info& info) {
  auto& dev = npuvp::testing::make_device({}, "ascend310p");
  return npuvp::testing::kernel_error(dev, 1, [info] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, 16384);
    const LocalTensor<half> p = a.Get<half>();
    MrgSortSrcList<half> list(p, p[16 * 8], p[32 * 8], p[48 * 8]);
    MrgSort4(p[4096], list, info);
  });
}

// MrgSort4.md: repeatTimes in [1, 255].
TEST(ProposalIsa, MrgSort4RepeatZeroIsAnError) {
  const uint16_t lens[4] = {16, 16, 16, 16};
  EXPECT_THAT(mrgsort4_error(AscendC::MrgSort4Info(lens, false, 15, 0)),
              npuvp::testing::IsKernelError("MrgSort4", "repeatTimes must be in [1, 255]"));
}

// MrgSort4.md: repeats need four queues of one length stored back to back, no suspension.
TEST(ProposalIsa, MrgSort4RepeatNeedsFourEqualQueues) {
  const uint16_t lens[4] = {16, 16, 0, 0};
  EXPECT_THAT(mrgsort4_error(AscendC::MrgSort4Info(lens, false, 3, 2)),
              npuvp::testing::IsKernelError("MrgSort4", "repeatTimes 2 needs four queues"));
}

// MrgSort4.md: validBit 3, 7 or 15 (the model's check, as for TIK's vmrgsort4).
TEST(ProposalIsa, MrgSort4ValidBitIsChecked) {
  const uint16_t lens[4] = {16, 16, 16, 16};
  EXPECT_THAT(mrgsort4_error(AscendC::MrgSort4Info(lens, false, 5, 1)),
              npuvp::testing::IsKernelError("MrgSort4", "validBit 5 is not 3, 7 or 15"));
}

// RpSort16.md: operands 32 B aligned (half proposals are 16 B, so proposal 1 is not).
TEST(ProposalIsa, RpSort16Alignment) {
  auto& dev = npuvp::testing::make_device({}, "core910");
  const std::string err = npuvp::testing::kernel_error(dev, 1, [] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, 8192);
    const LocalTensor<half> p = a.Get<half>();
    RpSort16(p[1024], p[8], 1);
  });
  EXPECT_THAT(err, npuvp::testing::IsKernelError("RpSort16", "not 32 B aligned"));
}

}  // namespace sort_proposal_isa_test
