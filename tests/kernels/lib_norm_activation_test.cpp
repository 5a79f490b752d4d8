// LayerNorm, RmsNorm, Gelu, FasterGelu, Silu and Swish of lib/ and their host tiling, bit for
// bit against plain references of the documented formulas under the model's numeric contract
// (docs/vector-isa.md §3: float steps, libm expf, IEEE sqrt and division, the count-form
// ReduceSum's order; half widened exactly and rounded once).
#include <gtest/gtest.h>
#include <cmath>
#include "lib/kernel_api.h"
#include "tiling/tiling_api.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/lib_harness.h"
#include "tests/support/reduce_reference.h"

namespace lib_norm_activation_test {

using npuvp::testing::UbOperand;
using npuvp::testing::same_bits;

template <class T>
void expect_same(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_TRUE(same_bits(got[i], want[i])) << what << "[" << i << "]: " << float(got[i]) << " vs " << float(want[i]);
  }
}

template <class K, class H>
K kernel_form(const H& host) {
  K k;
  host.SaveToBuffer(&k, sizeof k);
  return k;
}

// ---- LayerNorm ----
template <class T>
void check_layernorm(const std::string& platform, uint32_t b, uint32_t s, uint32_t h) {
  auto& dev = npuvp::testing::make_device({}, platform);
  const uint32_t rows = b * s;
  const auto x = npuvp::testing::random_vector<T>(size_t(rows) * h, 31, -3, 5);
  const auto gamma = npuvp::testing::random_vector<T>(h, 32, 0.5, 1.5);
  const auto beta = npuvp::testing::random_vector<T>(h, 33, -1, 1);
  const ge::Shape shape({int64_t(b), int64_t(s), int64_t(h)});
  uint32_t maxTmp = 0, minTmp = 0;
  AscendC::GetLayerNormMaxMinTmpSize(shape, sizeof(T), false, maxTmp, minTmp);
  ASSERT_EQ(maxTmp, minTmp);
  optiling::LayerNormTiling host;
  AscendC::GetLayerNormNDTilingInfo(shape, minTmp, sizeof(T), false, host);
  LayerNormTiling tiling = kernel_form<LayerNormTiling>(host);
  const T eps = static_cast<T>(1e-5f);
  std::vector<UbOperand> ops = {UbOperand::of(x),
                                UbOperand::of(gamma),
                                UbOperand::of(beta),
                                UbOperand::zeros(x.size() * sizeof(T)),
                                UbOperand::zeros(rows * sizeof(T)),
                                UbOperand::zeros(rows * sizeof(T)),
                                UbOperand::zeros(minTmp)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    AscendC::LayerNorm<T>(ub[3].ReinterpretCast<T>(), ub[4].ReinterpretCast<T>(), ub[5].ReinterpretCast<T>(),
                          ub[0].ReinterpretCast<T>(), ub[1].ReinterpretCast<T>(), ub[2].ReinterpretCast<T>(), ub[6],
                          eps, tiling);
  });
  const float rec = 1.0f / float(h);
  std::vector<T> y(x.size()), mean(rows), var(rows);
  std::vector<float> row(h), d(h), sq(h);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t j = 0; j < h; ++j) row[j] = float(x[size_t(r) * h + j]);
    volatile float m = npuvp::testing::reduce_sum_count_form(row.data(), h) * rec;
    for (uint32_t j = 0; j < h; ++j) {
      volatile float dj = row[j] + (-float(m));
      d[j] = dj;
      volatile float s2 = d[j] * d[j];
      sq[j] = s2;
    }
    volatile float v = npuvp::testing::reduce_sum_count_form(sq.data(), h) * rec;
    volatile float ve = float(v) + float(eps);
    const float sd = std::sqrt(float(ve));
    for (uint32_t j = 0; j < h; ++j) {
      volatile float q = d[j] / sd;
      volatile float g = float(q) * float(gamma[j]);
      volatile float o = float(g) + float(beta[j]);
      y[size_t(r) * h + j] = static_cast<T>(float(o));
    }
    mean[r] = static_cast<T>(float(m));
    var[r] = static_cast<T>(float(v));
  }
  expect_same(ops[3].as<T>(x.size()), y, "y");
  expect_same(ops[4].as<T>(rows), mean, "mean");
  expect_same(ops[5].as<T>(rows), var, "variance");
}

TEST(LibLayerNorm, Float_2x3x72_A2) { check_layernorm<float>("core910b", 2, 3, 72); }
TEST(LibLayerNorm, Half_1x5x48_310P) { check_layernorm<half>("ascend310p", 1, 5, 48); }
TEST(LibLayerNorm, Float_1x1x200_910) { check_layernorm<float>("core910", 1, 1, 200); }

TEST(LibLayerNormErrors, TmpBufferTooSmall) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const std::string err = npuvp::testing::kernel_error(dev, 1, [] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, t;
    pipe.InitBuffer(a, 4096);
    pipe.InitBuffer(t, 64);
    LayerNormTiling tiling{};
    tiling.bLength = 1;
    tiling.sLength = 2;
    tiling.hLength = 64;
    tiling.originalHLength = 64;
    const auto v = a.Get<float>();
    LayerNorm<float>(v, v, v, v, v, v, t.Get<uint8_t>(), 1e-5f, tiling);
  });
  EXPECT_THAT(err, npuvp::testing::IsKernelError("LayerNorm", "the temporary buffer holds 64 bytes"));
}

// ---- RmsNorm ----
template <class T>
void check_rmsnorm(const std::string& platform, uint32_t b, uint32_t s, uint32_t h, uint32_t h0) {
  auto& dev = npuvp::testing::make_device({}, platform);
  const uint32_t rows = b * s;
  const auto x = npuvp::testing::random_vector<T>(size_t(rows) * h, 41, -4, 4);
  const auto gamma = npuvp::testing::random_vector<T>(h, 42, 0.5, 1.5);
  const ge::Shape shape({int64_t(b), int64_t(s), int64_t(h)});
  const ge::Shape origin({int64_t(b), int64_t(s), int64_t(h0)});
  uint32_t maxTmp = 0, minTmp = 0;
  ASSERT_TRUE(AscendC::GetRmsNormMaxMinTmpSize(shape, sizeof(T), maxTmp, minTmp));
  optiling::RmsNormTiling host;
  ASSERT_TRUE(AscendC::GetRmsNormTilingInfo(shape, origin, minTmp, sizeof(T), host));
  EXPECT_FALSE(AscendC::GetRmsNormTilingInfo(shape, origin, minTmp - 32, sizeof(T), host));
  const RmsNormTiling tiling = kernel_form<RmsNormTiling>(host);
  const T eps = static_cast<T>(1e-6f);
  std::vector<UbOperand> ops = {UbOperand::of(x), UbOperand::of(gamma), UbOperand::zeros(x.size() * sizeof(T)),
                                UbOperand::zeros(minTmp)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    AscendC::RmsNorm<T>(ub[2].ReinterpretCast<T>(), ub[0].ReinterpretCast<T>(), ub[1].ReinterpretCast<T>(), ub[3],
                        eps, tiling);
  });
  const float rec = 1.0f / float(h0);
  std::vector<T> y(x.size());
  std::vector<float> sq(h);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t j = 0; j < h; ++j) {
      const float v = float(x[size_t(r) * h + j]);
      volatile float s2 = v * v;
      sq[j] = s2;
    }
    volatile float ms = npuvp::testing::reduce_sum_count_form(sq.data(), h0) * rec;
    volatile float me = float(ms) + float(eps);
    const float rms = std::sqrt(float(me));
    for (uint32_t j = 0; j < h; ++j) {
      volatile float q = float(x[size_t(r) * h + j]) / rms;
      volatile float o = float(q) * float(gamma[j]);
      y[size_t(r) * h + j] = static_cast<T>(float(o));
    }
  }
  expect_same(ops[2].as<T>(x.size()), y, "y");
}

TEST(LibRmsNorm, Float_2x2x40_valid37_A2) { check_rmsnorm<float>("core910b", 2, 2, 40, 37); }
TEST(LibRmsNorm, Half_1x3x64_valid50_310P) { check_rmsnorm<half>("ascend310p", 1, 3, 64, 50); }

// ---- Gelu, FasterGelu, Silu, Swish ----
enum class Act { Gelu, FasterGelu, Silu, Swish };

template <class T>
std::vector<T> gate_reference(Act act, const std::vector<T>& x, float beta) {
  std::vector<T> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const float v = float(x[i]);
    volatile float z;
    if (act == Act::Gelu) {
      volatile float c = v * v;
      c = float(c) * v;
      c = float(c) * 0.044715f;
      c = float(c) + v;
      z = float(c) * -1.59576912f;
    } else {
      z = v * (act == Act::FasterGelu ? -1.702f : (act == Act::Silu ? -1.0f : -beta));
    }
    volatile float e = std::exp(float(z));
    volatile float den = float(e) + 1.0f;
    volatile float q = v / float(den);
    y[i] = static_cast<T>(float(q));
  }
  return y;
}

template <class T>
void check_gate(Act act, const std::string& platform, uint32_t n, uint32_t tmpBytes) {
  auto& dev = npuvp::testing::make_device({}, platform);
  const auto x = npuvp::testing::random_vector<T>(n, 51, -6, 6);
  const float beta = 1.25f;
  std::vector<UbOperand> ops = {UbOperand::of(x), UbOperand::zeros(n * sizeof(T))};
  if (tmpBytes) ops.push_back(UbOperand::zeros(tmpBytes));  // Silu and Swish take none
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    const auto dst = ub[1].ReinterpretCast<T>();
    const auto src = ub[0].ReinterpretCast<T>();
    switch (act) {
      case Act::Gelu: AscendC::Gelu<T>(dst, src, ub[2], n); break;
      case Act::FasterGelu: AscendC::FasterGelu<T>(dst, src, ub[2], n); break;
      case Act::Silu: AscendC::Silu<T>(dst, src, n); break;
      case Act::Swish: AscendC::Swish<T>(dst, src, n, static_cast<T>(beta)); break;
    }
  });
  expect_same(ops[1].as<T>(n), gate_reference(act, x, float(static_cast<T>(beta))), "y");
}

// Chunks smaller than the data: the 200 / 1000 elements run in several passes.
TEST(LibGelu, FloatChunked_A2) { check_gate<float>(Act::Gelu, "core910b", 200, 256); }
TEST(LibGelu, Half_310P) { check_gate<half>(Act::Gelu, "ascend310p", 1000, 1024); }
TEST(LibFasterGelu, Float_910) { check_gate<float>(Act::FasterGelu, "core910", 333, 4096); }
TEST(LibFasterGelu, HalfChunked_A2) { check_gate<half>(Act::FasterGelu, "core910b", 300, 512); }
TEST(LibSilu, Float_A2) { check_gate<float>(Act::Silu, "core910b", 130, 0); }
TEST(LibSilu, Half_910) { check_gate<half>(Act::Silu, "core910", 96, 0); }
TEST(LibSwish, Float_A2) { check_gate<float>(Act::Swish, "core910b", 77, 0); }
TEST(LibSwish, Half_310P) { check_gate<half>(Act::Swish, "ascend310p", 64, 0); }

// ---- Sum, Mean ----
template <class T>
void check_row_sums(bool mean, const std::string& platform, uint32_t outter, uint32_t inner, uint32_t n) {
  auto& dev = npuvp::testing::make_device({}, platform);
  const auto x = npuvp::testing::random_vector<T>(size_t(outter) * inner, 81, -10, 10);
  const uint32_t tmpBytes = npuvp::lib_tiling::row_reduce_tmp_bytes(outter, inner, sizeof(T));
  std::vector<UbOperand> ops = {UbOperand::of(x), UbOperand::zeros(outter * sizeof(T)), UbOperand::zeros(tmpBytes)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    if (mean) {
      AscendC::MeanParams p;
      p.outter = outter;
      p.inner = inner;
      p.n = n;
      AscendC::Mean<T>(ub[1].ReinterpretCast<T>(), ub[0].ReinterpretCast<T>(), ub[2], p);
    } else {
      AscendC::SumParams p;
      p.outter = outter;
      p.inner = inner;
      p.n = n;
      AscendC::Sum<T>(ub[1].ReinterpretCast<T>(), ub[0].ReinterpretCast<T>(), ub[2], p);
    }
  });
  std::vector<T> want(outter);
  std::vector<float> row(inner);
  for (uint32_t r = 0; r < outter; ++r) {
    for (uint32_t j = 0; j < inner; ++j) row[j] = float(x[size_t(r) * inner + j]);
    volatile float s = npuvp::testing::reduce_sum_count_form(row.data(), n);
    if (mean) s = float(s) / float(n);
    want[r] = static_cast<T>(float(s));
  }
  expect_same(ops[1].as<T>(outter), want, mean ? "mean" : "sum");
}

TEST(LibSum, Float_5x136_n130_A2) { check_row_sums<float>(false, "core910b", 5, 136, 130); }
TEST(LibSum, Half_3x48_n33_310P) { check_row_sums<half>(false, "ascend310p", 3, 48, 33); }
TEST(LibMean, Float_9x16_n16_910) { check_row_sums<float>(true, "core910", 9, 16, 16); }
TEST(LibMean, Half_2x272_n270_A2) { check_row_sums<half>(true, "core910b", 2, 272, 270); }

TEST(LibSumErrors, UnalignedInner) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const std::string err = npuvp::testing::kernel_error(dev, 1, [] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, 4096);
    SumParams p;
    p.outter = 2;
    p.inner = 10;
    p.n = 10;
    Sum<float>(a.Get<float>(), a.Get<float>(), a.Get<uint8_t>(), p);
  });
  EXPECT_THAT(err, npuvp::testing::IsKernelError("Sum", "inner must be 32 B aligned"));
}

TEST(LibGeluTiling, TmpSizes) {
  uint32_t maxV = 0, minV = 0;
  AscendC::GetGeluMaxMinTmpSize(ge::Shape({4, 100}), 2, maxV, minV);
  EXPECT_EQ(minV, 512u);
  EXPECT_EQ(maxV, 7u * 512);
  AscendC::GetGeluMaxMinTmpSize(ge::Shape({64}), 4, maxV, minV);
  EXPECT_EQ(minV, 256u);
  EXPECT_EQ(maxV, 256u);
}

}  // namespace lib_norm_activation_test
