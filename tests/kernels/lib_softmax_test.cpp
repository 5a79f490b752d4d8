// The SoftMax family of lib/ (SoftMax, SimpleSoftMax, SoftmaxFlash, SoftmaxFlashV2) and its
// host tiling, bit for bit against a plain reference of the documented algorithm under the
// model's numeric contract (docs/vector-isa.md §3): half widened to float exactly, x - max,
// libm expf, the count-form ReduceSum (a tree per 64 elements, then the repeats in order),
// IEEE division, one rounding to half at the end.
#include <gtest/gtest.h>
#include <cmath>
#include "lib/activation/softmax_tiling.h"
#include "lib/kernel_api.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/lib_harness.h"
#include "tests/support/reduce_reference.h"

namespace lib_softmax_test {

using npuvp::testing::UbOperand;
using npuvp::testing::same_bits;

enum class Kind { Softmax, Simple, Flash, FlashV2 };

template <class T, class U>
struct Result {
  std::vector<T> y;
  std::vector<U> sum, max, expMax;
};

template <class U>
constexpr uint32_t block() {
  return 32 / sizeof(U);
}

// The documented algorithm per row, in float.
template <class T, class U, class E = U>
Result<T, U> reference(Kind kind, bool update, const std::vector<T>& x, uint32_t m, uint32_t k, uint32_t valid,
                       const std::vector<U>& inMax, const std::vector<U>& inSum) {
  Result<T, U> r;
  r.y.resize(size_t(m) * k);
  r.sum.resize(size_t(m) * block<U>());
  r.max.resize(size_t(m) * block<U>());
  r.expMax.resize(size_t(m) * block<E>());
  std::vector<float> row(k);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < k; ++j) row[j] = float(x[size_t(i) * k + j]);
    float mx, sum, ex = 0;
    const float im = float(inMax.empty() ? U(0) : inMax[size_t(i) * block<U>()]);
    const float is = float(inSum.empty() ? U(0) : inSum[size_t(i) * block<U>()]);
    if (kind == Kind::Simple) {
      mx = im;
    } else {
      mx = row[0];
      for (uint32_t j = 1; j < valid; ++j) mx = std::max(mx, row[j]);
      if (update) mx = std::max(mx, im);
    }
    for (uint32_t j = 0; j < k; ++j) {
      volatile float d = row[j] - mx;
      row[j] = std::exp(float(d));
    }
    if (kind == Kind::Simple) {
      sum = is;
    } else {
      sum = npuvp::testing::reduce_sum_count_form(row.data(), valid);
      if (update) {
        volatile float d = im - mx;
        ex = std::exp(float(d));
        volatile float p = ex * is;
        volatile float s = float(p) + sum;
        sum = s;
        if (kind == Kind::Flash) {
          volatile float q = float(p) / sum;
          ex = q;
        }
      }
    }
    for (uint32_t j = 0; j < k; ++j) {
      if (kind != Kind::FlashV2) {
        volatile float q = row[j] / sum;
        row[j] = q;
      }
      r.y[size_t(i) * k + j] = static_cast<T>(row[j]);
    }
    for (uint32_t b = 0; b < block<U>(); ++b) {
      r.max[size_t(i) * block<U>() + b] = static_cast<U>(mx);
      r.sum[size_t(i) * block<U>() + b] = static_cast<U>(sum);
    }
    for (uint32_t b = 0; b < block<E>(); ++b) r.expMax[size_t(i) * block<E>() + b] = static_cast<U>(ex);
  }
  return r;
}

template <class T>
void expect_same(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_TRUE(same_bits(got[i], want[i])) << what << "[" << i << "]: " << float(got[i]) << " vs " << float(want[i]);
  }
}

optiling::SoftMaxTiling host_tiling(uint32_t m, uint32_t k, uint32_t typeSize, uint32_t workspace) {
  optiling::SoftMaxTiling t;
  AscendC::SoftMaxTilingFunc(ge::Shape({int64_t(m), int64_t(k)}), typeSize, workspace, t);
  return t;
}

SoftMaxTiling kernel_tiling(const optiling::SoftMaxTiling& host) {
  SoftMaxTiling t;
  host.SaveToBuffer(&t, sizeof t);
  return t;
}

// SoftMax with max/sum outputs: T data, U statistics.
template <class T, class U>
void check_softmax(const std::string& platform, uint32_t m, uint32_t k, uint32_t valid, uint32_t tmpRows) {
  auto& dev = npuvp::testing::make_device({}, platform);
  const auto x = npuvp::testing::random_vector<T>(size_t(m) * k, 11, -6, 6);
  const uint32_t tmpBytes = tmpRows * npuvp::lib_tiling::softmax_row_bytes(k, sizeof(T));
  const auto tiling = kernel_tiling(host_tiling(m, k, sizeof(T), tmpBytes));
  std::vector<UbOperand> ops = {UbOperand::of(x), UbOperand::zeros(size_t(m) * k * sizeof(T)),
                                UbOperand::zeros(size_t(m) * 32), UbOperand::zeros(size_t(m) * 32),
                                UbOperand::zeros(tmpBytes)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    AscendC::SoftMaxShapeInfo shape{m, k, m, valid};
    AscendC::SoftMax<T>(ub[1].ReinterpretCast<T>(), ub[2].ReinterpretCast<U>(), ub[3].ReinterpretCast<U>(),
                        ub[0].ReinterpretCast<T>(), ub[4], tiling, shape);
  });
  const auto want = reference<T, U>(Kind::Softmax, false, x, m, k, valid, {}, {});
  expect_same(ops[1].as<T>(size_t(m) * k), want.y, "y");
  expect_same(ops[2].as<U>(size_t(m) * block<U>()), want.sum, "sum");
  expect_same(ops[3].as<U>(size_t(m) * block<U>()), want.max, "max");
}

TEST(LibSoftMax, FloatOddRowsValidTail_A2) { check_softmax<float, float>("core910b", 7, 72, 67, 3); }
TEST(LibSoftMax, FloatOneRowPerPass_910) { check_softmax<float, float>("core910", 5, 200, 200, 1); }
TEST(LibSoftMax, HalfStatsInHalf_A2) { check_softmax<half, half>("core910b", 9, 48, 45, 4); }
TEST(LibSoftMax, HalfStatsInFloat_310P) { check_softmax<half, float>("ascend310p", 6, 160, 130, 6); }
TEST(LibSoftMax, HalfLongRows_A2) { check_softmax<half, float>("core910b", 3, 1024, 1000, 2); }

// The form without max/sum and without a sharedTmpBuffer (the pipe's free UB is the buffer).
TEST(LibSoftMax, NoStatsFrameworkBuffer) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const uint32_t m = 4, k = 64;
  const auto x = npuvp::testing::random_vector<float>(size_t(m) * k, 3, -20, 20);
  const auto tiling = kernel_tiling(host_tiling(m, k, 4, 65536));
  std::vector<UbOperand> ops = {UbOperand::of(x), UbOperand::zeros(size_t(m) * k * 4)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    AscendC::SoftMax<float>(ub[1].ReinterpretCast<float>(), ub[0].ReinterpretCast<float>(), tiling);
  });
  const auto want = reference<float, float>(Kind::Softmax, false, x, m, k, k, {}, {});
  expect_same(ops[1].as<float>(size_t(m) * k), want.y, "y");
}

template <class U>
std::vector<U> stat_blocks(uint32_t m, uint32_t seed, float lo, float hi) {
  auto v = npuvp::testing::random_vector<float>(m, seed, lo, hi);
  std::vector<U> b(size_t(m) * block<U>());
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < block<U>(); ++j) b[size_t(i) * block<U>() + j] = static_cast<U>(v[i]);
  return b;
}

template <class T, class U>
void check_simple(const std::string& platform, uint32_t m, uint32_t k, uint32_t valid) {
  auto& dev = npuvp::testing::make_device({}, platform);
  const auto x = npuvp::testing::random_vector<T>(size_t(m) * k, 5, -4, 4);
  const auto inMax = stat_blocks<U>(m, 6, 3, 4);
  const auto inSum = stat_blocks<U>(m, 7, 10, 40);
  const uint32_t tmpBytes = 2 * npuvp::lib_tiling::softmax_row_bytes(k, sizeof(T));
  const auto tiling = kernel_tiling(host_tiling(m, k, sizeof(T), tmpBytes));
  std::vector<UbOperand> ops = {UbOperand::of(x), UbOperand::zeros(size_t(m) * k * sizeof(T)), UbOperand::of(inSum),
                                UbOperand::of(inMax), UbOperand::zeros(tmpBytes)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    AscendC::SoftMaxShapeInfo shape{m, k, m, valid};
    AscendC::SimpleSoftMax<T>(ub[1].ReinterpretCast<T>(), ub[2].ReinterpretCast<U>(), ub[3].ReinterpretCast<U>(),
                              ub[0].ReinterpretCast<T>(), ub[4], tiling, shape);
  });
  const auto want = reference<T, U>(Kind::Simple, false, x, m, k, valid, inMax, inSum);
  expect_same(ops[1].as<T>(size_t(m) * k), want.y, "y");
}

TEST(LibSimpleSoftMax, Float_A2) { check_simple<float, float>("core910b", 5, 40, 33); }
TEST(LibSimpleSoftMax, HalfFloatStats_310P) { check_simple<half, float>("ascend310p", 3, 32, 32); }

// SoftmaxFlash / SoftmaxFlashV2 with the update: the running max and sum of earlier blocks.
template <class T, class U, class E>
void check_flash(Kind kind, bool update, const std::string& platform, uint32_t m, uint32_t k, uint32_t valid) {
  auto& dev = npuvp::testing::make_device({}, platform);
  const auto x = npuvp::testing::random_vector<T>(size_t(m) * k, 21, -5, 5);
  // Half the rows' earlier max is above this block's, half below.
  const auto inMax = stat_blocks<U>(m, 22, 2, 7);
  const auto inSum = stat_blocks<U>(m, 23, 1, 30);
  const uint32_t tmpBytes = m * npuvp::lib_tiling::softmax_row_bytes(k, sizeof(T));
  const auto tiling = kernel_tiling(host_tiling(m, k, sizeof(T), tmpBytes));
  std::vector<UbOperand> ops = {UbOperand::of(x),
                                UbOperand::zeros(size_t(m) * k * sizeof(T)),
                                UbOperand::zeros(size_t(m) * 32),
                                UbOperand::zeros(size_t(m) * 32),
                                UbOperand::zeros(size_t(m) * 32),
                                UbOperand::of(inSum),
                                UbOperand::of(inMax),
                                UbOperand::zeros(tmpBytes)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    AscendC::SoftMaxShapeInfo shape{m, k, m, valid};
    const auto dst = ub[1].ReinterpretCast<T>();
    const auto sum = ub[2].ReinterpretCast<U>();
    const auto max = ub[3].ReinterpretCast<U>();
    const auto src = ub[0].ReinterpretCast<T>();
    const auto expMax = ub[4].ReinterpretCast<E>();
    const auto is = ub[5].ReinterpretCast<U>();
    const auto im = ub[6].ReinterpretCast<U>();
    if (kind == Kind::Flash) {
      AscendC::SoftmaxFlash<T>(dst, sum, max, src, expMax, is, im, ub[7], tiling, update, shape);
    } else if (update) {
      AscendC::SoftmaxFlashV2<T, true>(dst, sum, max, src, expMax, is, im, ub[7], tiling, shape);
    } else {
      AscendC::SoftmaxFlashV2<T, false>(dst, sum, max, src, expMax, is, im, ub[7], tiling, shape);
    }
  });
  const auto want = reference<T, U, E>(kind, update, x, m, k, valid, inMax, inSum);
  expect_same(ops[1].as<T>(size_t(m) * k), want.y, "y");
  expect_same(ops[2].as<U>(size_t(m) * block<U>()), want.sum, "sum");
  expect_same(ops[3].as<U>(size_t(m) * block<U>()), want.max, "max");
  if (update) {
    const auto got = ops[4].as<E>(size_t(m) * block<E>());
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_TRUE(same_bits(got[i], static_cast<E>(want.expMax[i]))) << "expMax[" << i << "]";
    }
  }
}

TEST(LibSoftmaxFlashV2, FloatUpdate_A2) { check_flash<float, float, float>(Kind::FlashV2, true, "core910b", 6, 136, 130); }
TEST(LibSoftmaxFlashV2, FloatNoUpdate_A2) { check_flash<float, float, float>(Kind::FlashV2, false, "core910b", 3, 64, 64); }
TEST(LibSoftmaxFlashV2, HalfFloatStatsUpdate_A2) { check_flash<half, float, half>(Kind::FlashV2, true, "core910b", 5, 80, 77); }
TEST(LibSoftmaxFlashV2, HalfUpdate_310P) { check_flash<half, half, half>(Kind::FlashV2, true, "ascend310p", 4, 32, 20); }
TEST(LibSoftmaxFlash, FloatUpdate_A2) { check_flash<float, float, float>(Kind::Flash, true, "core910b", 5, 96, 90); }
TEST(LibSoftmaxFlash, HalfNoUpdate_910) { check_flash<half, half, half>(Kind::Flash, false, "core910", 3, 64, 64); }

// Errors: a row not padded to 32 B, a temporary buffer smaller than one row needs.
TEST(LibSoftMaxErrors, UnalignedRow) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const std::string err = npuvp::testing::kernel_error(dev, 1, [] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 4096);
    pipe.InitBuffer(b, 8192);
    SoftMaxTiling tiling{};
    SoftMaxShapeInfo shape{4, 20, 4, 20};
    SoftMax<float>(a.Get<float>(), a.Get<float>(), b.Get<uint8_t>(), tiling, shape);
  });
  EXPECT_THAT(err, npuvp::testing::IsKernelError("SoftMax", "srcK = 20 elements is not 32 B aligned"));
}

TEST(LibSoftMaxErrors, TmpBufferTooSmall) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const std::string err = npuvp::testing::kernel_error(dev, 1, [] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 4096);
    pipe.InitBuffer(b, 256);
    SoftMaxTiling tiling{};
    SoftMaxShapeInfo shape{4, 64, 4, 64};
    SoftMax<float>(a.Get<float>(), a.Get<float>(), b.Get<uint8_t>(), tiling, shape);
  });
  EXPECT_THAT(err, npuvp::testing::IsKernelError("SoftMax", "the temporary buffer holds 256 bytes, at least 640"));
}

// The host side: sizes and the tiling's fields.
TEST(LibSoftMaxTiling, TmpSizesAndSplit) {
  const ge::Shape shape({2, 5, 64});  // m = 10 rows of 64
  EXPECT_EQ(AscendC::GetSoftMaxMinTmpSize(shape, 4, false), 4u * (96 + 64));
  EXPECT_EQ(AscendC::GetSoftMaxMaxTmpSize(shape, 4, false), 10u * 4 * (96 + 64));
  EXPECT_EQ(AscendC::GetSoftMaxMinTmpSize(shape, 2, false), 4u * (96 + 128));
  optiling::SoftMaxTiling t;
  AscendC::SoftMaxTilingFunc(shape, 4, 3 * 4 * (96 + 64) + 100, t);
  EXPECT_EQ(t.get_srcM(), 10u);
  EXPECT_EQ(t.get_srcK(), 64u);
  EXPECT_EQ(t.get_splitM(), 3u);
  EXPECT_EQ(t.get_rangeM(), 3u);
  EXPECT_EQ(t.get_tailM(), 1u);
  EXPECT_EQ(t.get_outMaxK(), 8u);
  EXPECT_EQ(t.get_reduceSize(), 24u);
  EXPECT_EQ(t.GetDataSize(), 64u);
}

}  // namespace lib_softmax_test
