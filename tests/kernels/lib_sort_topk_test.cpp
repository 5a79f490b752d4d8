// Sort (full and per-32 forms) and TopK of lib/ (A2) and TopK's host tiling, against plain
// references: a stable sort by score, descending (ties keep the lower index first), records of
// (score, uint32 index); TopK's k values and indices per row, largest or smallest first.
// The scores are multiples of 0.25, so ties occur.
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <numeric>
#include "lib/kernel_api.h"
#include "tiling/tiling_api.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/lib_harness.h"

namespace lib_sort_topk_test {

using npuvp::testing::UbOperand;
using npuvp::testing::same_bits;

template <class T>
std::vector<T> quantised(size_t n, uint32_t seed) {
  auto v = npuvp::testing::random_vector<float>(n, seed, -8, 8);
  std::vector<T> q(n);
  for (size_t i = 0; i < n; ++i) q[i] = static_cast<T>(std::round(v[i] * 4) / 4);
  return q;
}

// Indices 0..n-1 ordered as the sort orders them.
template <class T>
std::vector<uint32_t> stable_order(const std::vector<T>& v, size_t first, size_t n, bool largest) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return largest ? float(v[first + a]) > float(v[first + b]) : float(v[first + a]) < float(v[first + b]);
  });
  return order;
}

template <class T, bool full>
void check_sort(int32_t repeat) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const uint32_t n = 32u * uint32_t(repeat);
  const auto x = quantised<T>(n, 61);
  std::vector<uint32_t> idx(n);
  for (uint32_t i = 0; i < n; ++i) idx[i] = 1000 + 3 * i;  // indices the caller chose
  std::vector<UbOperand> ops = {UbOperand::of(x), UbOperand::of(idx), UbOperand::zeros(n * 8),
                                UbOperand::zeros(n * 8)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    AscendC::LocalTensor<T> tmp = ub[3].ReinterpretCast<T>();
    AscendC::Sort<T, full>(ub[2].ReinterpretCast<T>(), ub[0].ReinterpretCast<T>(), ub[1].ReinterpretCast<uint32_t>(),
                           tmp, repeat);
  });
  const auto got = ops[2].bytes;
  const uint32_t group = full ? n : 32;
  for (uint32_t g = 0; g < n; g += group) {
    const auto order = stable_order(x, g, group, true);
    for (uint32_t i = 0; i < group; ++i) {
      const uint32_t src = g + order[i];
      T score;
      uint32_t index;
      std::memcpy(&score, &got[size_t(g + i) * 8], sizeof(T));
      std::memcpy(&index, &got[size_t(g + i) * 8 + 4], 4);
      ASSERT_TRUE(same_bits(score, x[src])) << "record " << g + i << ": " << float(score) << " vs " << float(x[src]);
      ASSERT_EQ(index, idx[src]) << "record " << g + i;
    }
  }
}

TEST(LibSort, FullFloat_7Groups) { check_sort<float, true>(7); }
TEST(LibSort, FullHalf_20Groups) { check_sort<half, true>(20); }
TEST(LibSort, PerGroupFloat) { check_sort<float, false>(3); }

template <class T, bool initIndex>
void check_topk(int32_t outter, int32_t inner, int32_t n, int32_t k, bool largest, const char* chip = "core910b") {
  auto& dev = npuvp::testing::make_device({}, chip);
  const auto x = quantised<T>(size_t(outter) * inner, 71);
  std::vector<int32_t> srcIdx(size_t(outter) * inner);
  for (size_t i = 0; i < srcIdx.size(); ++i) srcIdx[i] = int32_t(7 * i + 5);
  struct Platform {} platform;
  uint32_t maxTmp = 0, minTmp = 0;
  ASSERT_TRUE(AscendC::GetTopKMaxMinTmpSize(platform, inner, outter, false, initIndex, AscendC::TopKMode::TOPK_NORMAL,
                                            largest, sizeof(T), maxTmp, minTmp));
  optiling::TopkTiling host;
  ASSERT_TRUE(AscendC::TopKTilingFunc(platform, inner, outter, k, sizeof(T), initIndex, AscendC::TopKMode::TOPK_NORMAL,
                                      largest, host));
  TopkTiling tiling;
  host.SaveToBuffer(&tiling, sizeof tiling);
  // Values padded to 32 B, indices to 8 int32.
  const int32_t kv = sizeof(T) == 2 ? host.get_kAlignTwoBytes() : host.get_kAlignFourBytes();
  const int32_t ki = host.get_kAlignFourBytes();
  std::vector<UbOperand> ops = {UbOperand::of(x), UbOperand::of(srcIdx), UbOperand::zeros(size_t(outter) * kv * sizeof(T)),
                                UbOperand::zeros(size_t(outter) * ki * 4), UbOperand::zeros(32), UbOperand::zeros(minTmp)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    AscendC::TopKInfo info;
    info.outter = outter;
    info.inner = inner;
    info.n = n;
    AscendC::TopK<T, initIndex>(ub[2].ReinterpretCast<T>(), ub[3].ReinterpretCast<int32_t>(), ub[0].ReinterpretCast<T>(),
                                ub[1].ReinterpretCast<int32_t>(), ub[4].ReinterpretCast<bool>(), ub[5], k, tiling, info,
                                largest);
  });
  const auto values = ops[2].as<T>(size_t(outter) * kv);
  const auto indices = ops[3].as<int32_t>(size_t(outter) * ki);
  for (int32_t r = 0; r < outter; ++r) {
    const auto order = stable_order(x, size_t(r) * inner, size_t(n), largest);
    for (int32_t i = 0; i < k; ++i) {
      const size_t src = size_t(r) * inner + order[i];
      const int32_t wantIndex = initIndex ? srcIdx[src] : int32_t(order[i]);
      ASSERT_TRUE(same_bits(values[size_t(r) * kv + i], x[src])) << "row " << r << " value " << i;
      ASSERT_EQ(indices[size_t(r) * ki + i], wantIndex) << "row " << r << " index " << i;
    }
  }
}

TEST(LibTopK, FloatLargestTail_3x96_n90_k5) { check_topk<float, false>(3, 96, 90, 5, true); }
TEST(LibTopK, HalfSmallest_2x160_k17) { check_topk<half, false>(2, 160, 160, 17, false); }
TEST(LibTopK, FloatInitIndex_4x32_n20_k20) { check_topk<float, true>(4, 32, 20, 20, true); }
TEST(LibTopK, HalfLargest_1x512_k33) { check_topk<half, false>(1, 512, 509, 33, true); }
// The 310P: the same selection on the scalar unit (lib/sort/topk_scalar.h).
TEST(LibTopK, FloatLargestTail_3x96_n90_k5_310P) { check_topk<float, false>(3, 96, 90, 5, true, "ascend310p"); }
TEST(LibTopK, HalfSmallestInitIndex_2x64_n50_k9_310P) { check_topk<half, true>(2, 64, 50, 9, false, "ascend310p"); }

TEST(LibTopKErrors, NotOnCoupled910) {
  auto& dev = npuvp::testing::make_device({}, "core910");
  const std::string err = npuvp::testing::kernel_error(dev, 1, [] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, 8192);
    TopkTiling tiling{};
    TopKInfo info;
    info.inner = 32;
    info.n = 32;
    TopK<float>(a.Get<float>(), a.Get<int32_t>(), a.Get<float>(), a.Get<int32_t>(), a.Get<bool>(), a.Get<uint8_t>(), 4,
                tiling, info);
  });
  EXPECT_THAT(err, npuvp::testing::IsKernelError("TopK", "TopK exists on the A2 products"));
}

TEST(LibTopKErrors, KLargerThanN) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const std::string err = npuvp::testing::kernel_error(dev, 1, [] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, 8192);
    TopkTiling tiling{};
    TopKInfo info;
    info.inner = 64;
    info.n = 40;
    TopK<float>(a.Get<float>(), a.Get<int32_t>(), a.Get<float>(), a.Get<int32_t>(), a.Get<bool>(), a.Get<uint8_t>(), 41,
                tiling, info);
  });
  EXPECT_THAT(err, npuvp::testing::IsKernelError("TopK", "k = 41 must be in [1, n = 40]"));
}

}  // namespace lib_sort_topk_test
