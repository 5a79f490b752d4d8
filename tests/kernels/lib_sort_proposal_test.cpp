// Sort's companions (Concat, Extract, the lib MrgSort) on the A2 and the 310P AI Core, Sort's
// region-proposal form on the 310P, the basic region-proposal APIs (ProposalConcat /
// ProposalExtract / RpSort16 / MrgSort4) and the host's GetSortTmpSize / GetConcatTmpSize,
// against plain references: a stable sort by score, descending (equal scores keep their input
// order), the caller's uint32 indices carried along. Scores are multiples of 0.25 (ties occur).
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <numeric>
#include "lib/kernel_api.h"
#include "tiling/tiling_api.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/lib_harness.h"

namespace lib_sort_proposal_test {

using npuvp::testing::UbOperand;
using npuvp::testing::same_bits;

template <class T>
std::vector<T> quantised(size_t n, uint32_t seed) {
  auto v = npuvp::testing::random_vector<float>(n, seed, -8, 8);
  std::vector<T> q(n);
  for (size_t i = 0; i < n; ++i) q[i] = static_cast<T>(std::round(v[i] * 4) / 4);
  return q;
}

template <class T>
std::vector<uint32_t> stable_order(const std::vector<T>& v, size_t first, size_t n) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return float(v[first + a]) > float(v[first + b]); });
  return order;
}

// Concat -> Sort -> Extract as the samples chain them: values and indices out, per group of
// `group` elements (n when full) sorted descending.
template <class T, bool full>
void check_chain(const char* chip, uint32_t n) {
  auto& dev = npuvp::testing::make_device({}, chip);
  const bool a2 = std::string(chip) == "core910b";
  const auto x = quantised<T>(n, 83);
  std::vector<uint32_t> idx(n);
  for (uint32_t i = 0; i < n; ++i) idx[i] = 0x10000u * (i % 3) + 7 * i;  // high bits used too
  const size_t sorted_bytes = a2 ? n * 8 : n * 8 * sizeof(T);
  std::vector<UbOperand> ops = {UbOperand::of(x), UbOperand::of(idx), UbOperand::zeros(n * 8 * sizeof(T)),
                                UbOperand::zeros(sorted_bytes), UbOperand::zeros(sorted_bytes),
                                UbOperand::zeros(n * sizeof(T)), UbOperand::zeros(n * 4)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    AscendC::LocalTensor<T> concat;
    AscendC::Concat(concat, ub[0].ReinterpretCast<T>(), ub[2].ReinterpretCast<T>(), int32_t(n / 16));
    AscendC::LocalTensor<T> tmp = ub[4].ReinterpretCast<T>();
    const int32_t repeat = int32_t(a2 ? n / 32 : n / 16);
    AscendC::Sort<T, full>(ub[3].ReinterpretCast<T>(), concat, ub[1].ReinterpretCast<uint32_t>(), tmp, repeat);
    AscendC::Extract(ub[5].ReinterpretCast<T>(), ub[6].ReinterpretCast<uint32_t>(), ub[3].ReinterpretCast<T>(), repeat);
  });
  const auto values = ops[5].as<T>(n);
  const auto indices = ops[6].as<uint32_t>(n);
  const uint32_t group = full ? n : (a2 ? 32 : 16);
  for (uint32_t g = 0; g < n; g += group) {
    const auto order = stable_order(x, g, group);
    for (uint32_t i = 0; i < group; ++i) {
      const uint32_t src = g + order[i];
      ASSERT_TRUE(same_bits(values[g + i], x[src])) << chip << " element " << g + i;
      ASSERT_EQ(indices[g + i], idx[src]) << chip << " element " << g + i;
    }
  }
}

TEST(LibSortChain, FullHalf_310P) { check_chain<half, true>("ascend310p", 160); }
TEST(LibSortChain, FullFloat_310P) { check_chain<float, true>("ascend310p", 96); }
TEST(LibSortChain, Per16Half_310P) { check_chain<half, false>("ascend310p", 64); }
TEST(LibSortChain, FullHalf_A2) { check_chain<half, true>("core910b", 128); }
TEST(LibSortChain, FullFloat_A2) { check_chain<float, true>("core910b", 96); }

// The lib MrgSort on the 310P: four sorted proposal queues of unequal length merged, and with
// isExhaustedSuspension the merge stops at the first queue to run out (sortedNum says where).
template <bool exhausted>
void check_mrgsort_310p() {
  auto& dev = npuvp::testing::make_device({}, "ascend310p");
  const uint16_t lens[4] = {16, 5, 9, 12};
  const uint32_t n = 16 + 5 + 9 + 12;
  auto x = quantised<float>(n, 91);
  uint32_t at = 0;
  for (int q = 0; q < 4; ++q) {  // each queue sorted descending
    std::sort(x.begin() + at, x.begin() + at + lens[q], [](float a, float b) { return a > b; });
    at += lens[q];
  }
  std::vector<float> proposals(n * 8, 0.0f);
  for (uint32_t i = 0; i < n; ++i) proposals[i * 8 + 4] = x[i], proposals[i * 8 + 5] = float(i);  // label: origin
  std::vector<UbOperand> ops = {UbOperand::of(proposals), UbOperand::zeros(n * 32), UbOperand::zeros(32)};
  uint32_t sorted[4] = {0, 0, 0, 0};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    const AscendC::LocalTensor<float> p = ub[0].ReinterpretCast<float>();
    AscendC::MrgSortSrcList<float> list(p, p[16 * 8], p[21 * 8], p[30 * 8]);
    AscendC::MrgSort<float, exhausted>(ub[1].ReinterpretCast<float>(), list, lens, sorted, 15, 1);
  });
  const auto got = ops[1].as<float>(n * 8);
  // Reference: repeatedly the queue with the highest head, the lower queue on a tie.
  uint32_t taken[4] = {0, 0, 0, 0}, start[4] = {0, 16, 21, 30}, out = 0;
  for (;;) {
    int best = -1;
    bool empty = false;
    for (int q = 0; q < 4; ++q) {
      if (taken[q] == lens[q]) {
        empty = true;
        continue;
      }
      if (best < 0 || x[start[q] + taken[q]] > x[start[best] + taken[best]]) best = q;
    }
    if (best < 0 || (exhausted && empty)) break;
    const uint32_t src = start[best] + taken[best]++;
    ASSERT_EQ(got[out * 8 + 4], x[src]) << "proposal " << out;
    ASSERT_EQ(got[out * 8 + 5], float(src)) << "proposal " << out;
    ++out;
  }
  if (exhausted) {
    for (int q = 0; q < 4; ++q) EXPECT_EQ(sorted[q], taken[q]) << "queue " << q;
    EXPECT_LT(out, n);
  } else {
    EXPECT_EQ(out, n);
  }
}

TEST(LibMrgSort, AllQueues_310P) { check_mrgsort_310p<false>(); }
TEST(LibMrgSort, ExhaustedSuspension_310P) { check_mrgsort_310p<true>(); }

// The basic APIs on the 910 (half): ProposalConcat into the score field, RpSort16 per 16,
// ProposalExtract of the sorted scores.
TEST(ProposalApis, ConcatSortExtractHalf_910) {
  auto& dev = npuvp::testing::make_device({}, "core910");
  const uint32_t n = 48;
  const auto x = quantised<half>(n, 97);
  std::vector<UbOperand> ops = {UbOperand::of(x), UbOperand::zeros(n * 16), UbOperand::zeros(n * 16),
                                UbOperand::zeros(n * 2)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    AscendC::ProposalConcat(ub[1].ReinterpretCast<half>(), ub[0].ReinterpretCast<half>(), 3, 4);
    AscendC::RpSort16(ub[2].ReinterpretCast<half>(), ub[1].ReinterpretCast<half>(), 3);
    AscendC::ProposalExtract(ub[3].ReinterpretCast<half>(), ub[2].ReinterpretCast<half>(), 3, 4);
  });
  const auto got = ops[3].as<half>(n);
  for (uint32_t g = 0; g < n; g += 16) {
    const auto order = stable_order(x, g, 16);
    for (uint32_t i = 0; i < 16; ++i) ASSERT_TRUE(same_bits(got[g + i], x[g + order[i]])) << "element " << g + i;
  }
}

// Where CANN documents no such API, a clear error naming it.
TEST(ProposalApis, FloatOn910IsAnError) {
  auto& dev = npuvp::testing::make_device({}, "core910");
  const std::string err = npuvp::testing::kernel_error(dev, 1, [] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, 4096);
    ProposalConcat(a.Get<float>(), a.Get<float>()[512], 1, 4);
  });
  EXPECT_THAT(err, npuvp::testing::IsKernelError("ProposalConcat", "(float) exists on the Atlas inference AI Core"));
}
TEST(LibSortErrors, SortNotOn910) {
  auto& dev = npuvp::testing::make_device({}, "core910");
  const std::string err = npuvp::testing::kernel_error(dev, 1, [] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, 8192);
    LocalTensor<half> tmp = a.Get<half>();
    Sort<half, true>(a.Get<half>(), a.Get<half>()[1024], a.Get<uint32_t>()[1536], tmp, 1);
  });
  EXPECT_THAT(err, npuvp::testing::IsKernelError("Sort", "Sort exists on the A2 products and the Atlas inference AI Core"));
}

TEST(SortTiling, TmpSizes) {
  auto& dev = npuvp::testing::make_device({}, "ascend310p");
  (void)dev;
  auto* p = platform_ascendc::PlatformAscendCManager::GetInstance();
  EXPECT_EQ(AscendC::GetConcatTmpSize(*p, 128, 2), 128u * 8 * 2);
  EXPECT_EQ(AscendC::GetSortTmpSize(*p, 128, 4), 128u * 8 * 4);
}
TEST(SortTiling, TmpSizesA2) {
  auto& dev = npuvp::testing::make_device({}, "ascend910b");
  (void)dev;
  auto* p = platform_ascendc::PlatformAscendCManager::GetInstance();
  EXPECT_EQ(AscendC::GetConcatTmpSize(*p, 128, 2), 0u);
  EXPECT_EQ(AscendC::GetSortTmpSize(*p, 128, 2), 128u * 8);
}

}  // namespace lib_sort_proposal_test
