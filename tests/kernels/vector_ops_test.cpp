// The rest of the vector ISA end to end: kernels copy inputs from GM into UB, run the new
// Ascend C vector APIs (count and mask/repeat forms, the mask register, the CMPMASK register)
// and copy the results back; every result is compared bit for bit with a host reference
// written from docs/vector-isa.md. Each TEST runs in its own process (ctest).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "kernel_operator.h"
#include "models/aicore/ai_core.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/raw_tensors.h"
#include "tikicpulib.h"

using namespace AscendC;
using ::testing::AllOf;
using ::testing::HasSubstr;
using npuvp::testing::IsKernelError;
using npuvp::testing::kernel_error;
using npuvp::testing::make_device;
using npuvp::testing::ub_at;

namespace vector_ops_test {

// ---- Host side.

using npuvp::testing::to_gm;
template <class T>
T* gm_filled(size_t n, T value) { return to_gm(std::vector<T>(n, value)); }

template <class T>
std::vector<T> random_values(size_t n, uint32_t seed, float lo = -8, float hi = 8) {
  return npuvp::testing::random_vector<T>(n, seed, lo, hi);
}

template <class T>
uint32_t bits(T x) {
  uint32_t b = 0;
  std::memcpy(&b, &x, sizeof(T));
  return b;
}
uint16_t hbits(half x) { return static_cast<uint16_t>(bits(x)); }
half hfrom(uint16_t b) {
  half h;
  std::memcpy(&h, &b, 2);
  return h;
}

// One GM buffer copied into UB at `ub` before the body (in) and/or back after it (out).
struct Region {
  uint32_t ub;
  void* gm;
  uint32_t bytes;  // a multiple of 32
  bool in, out;
};
Region in(uint32_t ub, void* gm, uint32_t bytes) { return {ub, gm, bytes, true, false}; }
Region out(uint32_t ub, void* gm, uint32_t bytes) { return {ub, gm, bytes, true, true}; }  // prefilled

// Runs one block: GM -> UB for every region, body(UB), UB -> GM for the out regions.
void run_ub(npuvp::Device& dev, const std::vector<Region>& regions,
            const std::function<void(const LocalTensor<uint8_t>&)>& body, uint32_t ub_bytes = 128 * 1024) {
  dev.launch("vector_isa", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, ub_bytes);
    const LocalTensor<uint8_t> ub = buf.Get<uint8_t>();
    for (const Region& r : regions) {
      GlobalTensor<uint8_t> g;
      g.SetGlobalBuffer(static_cast<uint8_t*>(r.gm), r.bytes);
      if (r.in) DataCopy(ub[r.ub], g, r.bytes);
    }
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    body(ub);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    for (const Region& r : regions) {
      GlobalTensor<uint8_t> g;
      g.SetGlobalBuffer(static_cast<uint8_t*>(r.gm), r.bytes);
      if (r.out) DataCopy(g, ub[r.ub], r.bytes);
    }
  });
}

template <class T>
LocalTensor<T> at(const LocalTensor<uint8_t>& ub, uint32_t offset) {
  return ub[offset].template ReinterpretCast<T>();
}

// f32 -> f16 in a rounding mode, saturating finite overflow (docs/vector-isa.md): the two
// halves around x, then the mode's choice between them.
uint16_t next_half(uint16_t h, bool up) {
  if ((h & 0x7fff) == 0) return up ? 0x0001 : 0x8001;
  const bool neg = h & 0x8000;
  return static_cast<uint16_t>(up != neg ? h + 1 : h - 1);
}
uint16_t host_f32_to_f16(float x, RoundMode m) {
  if (std::isnan(x) || std::isinf(x)) return hbits(static_cast<half>(x));
  if (std::fabs(x) > 65504.0f) return x > 0 ? 0x7bff : 0xfbff;
  const uint16_t h0 = hbits(static_cast<half>(x));  // nearest, ties to even
  const float v0 = static_cast<float>(hfrom(h0));
  if (v0 == x || m == RoundMode::CAST_RINT || m == RoundMode::CAST_NONE) return h0;
  const uint16_t lo = v0 < x ? h0 : next_half(h0, false);
  const uint16_t hi = v0 < x ? next_half(h0, true) : h0;
  const double dlo = double(x) - double(static_cast<float>(hfrom(lo)));
  const double dhi = double(static_cast<float>(hfrom(hi))) - double(x);
  switch (m) {
    case RoundMode::CAST_FLOOR: return lo;
    case RoundMode::CAST_CEIL: return hi;
    case RoundMode::CAST_TRUNC: return x > 0 ? lo : hi;
    case RoundMode::CAST_ROUND: return dlo < dhi ? lo : dhi < dlo ? hi : (x > 0 ? hi : lo);
    case RoundMode::CAST_ODD: return (lo & 1) ? lo : hi;
    default: return h0;
  }
}
int32_t host_f32_to_s32(float x, RoundMode m) {
  if (std::isnan(x)) return 0;
  double r;
  switch (m) {
    case RoundMode::CAST_FLOOR: r = std::floor(x); break;
    case RoundMode::CAST_CEIL: r = std::ceil(x); break;
    case RoundMode::CAST_ROUND: r = std::round(x); break;
    case RoundMode::CAST_TRUNC: r = std::trunc(x); break;
    default: r = std::nearbyint(x); break;
  }
  if (r <= INT32_MIN) return INT32_MIN;
  if (r >= INT32_MAX) return INT32_MAX;
  return static_cast<int32_t>(r);
}

// Sum contract: adjacent-pair trees padded with -0; f16 additions round to half and
// saturate finite overflow at 65504.
template <class T>
float host_add(float a, float b) {
  const float s = a + b;
  if constexpr (std::is_same_v<T, half>) {
    const float h = static_cast<float>(static_cast<half>(s));
    return std::isinf(h) && std::isfinite(a) && std::isfinite(b) ? std::copysign(65504.0f, s) : h;
  }
  return s;
}
template <class T>
float host_tree(std::vector<float> v) {
  size_t n = 1;
  while (n < v.size()) n *= 2;
  v.resize(n, -0.0f);
  for (; n > 1; n /= 2) {
    for (size_t i = 0; i < n / 2; ++i) v[i] = host_add<T>(v[2 * i], v[2 * i + 1]);
  }
  return v[0];
}
// ReduceSum over `count` elements: tree within each repeat; repeats in order (count form)
// or by a tree (mask form).
template <class T>
float host_reduce_sum(const std::vector<T>& x, size_t count, bool count_form) {
  const size_t epr = 256 / sizeof(T);
  std::vector<float> partial;
  for (size_t r = 0; r * epr < count; ++r) {
    std::vector<float> lanes(epr, -0.0f);
    for (size_t i = 0; i < epr && r * epr + i < count; ++i) lanes[i] = static_cast<float>(x[r * epr + i]);
    partial.push_back(host_tree<T>(lanes));
  }
  if (!count_form) return host_tree<T>(partial);
  float s = partial[0];
  for (size_t k = 1; k < partial.size(); ++k) s = host_add<T>(s, partial[k]);
  return s;
}

// ---- Cast

TEST(VectorIsaKernels, CastFloatToHalfInEveryRoundingMode) {
  auto& dev = make_device();
  const int n = 1024;
  std::vector<float> x = random_values<float>(n, 1, -3, 3);
  for (int i = 0; i < 64; ++i) x[i] = std::ldexp(static_cast<float>(i % 7) - 3.1f, i / 4 - 20);  // subnormals
  x[100] = 70000.0f;
  x[101] = -1e30f;
  x[102] = 65520.0f;
  x[103] = std::numeric_limits<float>::infinity();
  const RoundMode modes[] = {RoundMode::CAST_NONE,  RoundMode::CAST_RINT,  RoundMode::CAST_FLOOR,
                             RoundMode::CAST_CEIL,  RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC,
                             RoundMode::CAST_ODD};
  float* gx = to_gm(x);
  std::vector<uint16_t*> gy;
  std::vector<Region> regions = {in(0, gx, n * 4)};
  for (int m = 0; m < 7; ++m) {
    gy.push_back(gm_filled<uint16_t>(n, 0xdead));
    regions.push_back(out(4 * n + m * 2 * n, gy.back(), 2 * n));
  }
  run_ub(dev, regions, [&](const LocalTensor<uint8_t>& ub) {
    for (int m = 0; m < 7; ++m) Cast(at<half>(ub, 4 * n + m * 2 * n), at<float>(ub, 0), modes[m], n);
  });
  for (int m = 0; m < 7; ++m) {
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(gy[m][i], host_f32_to_f16(x[i], modes[m])) << "mode " << m << " element " << i << " x=" << x[i];
    }
  }
}

TEST(VectorIsaKernels, CastFloatToInt32AndBack) {
  auto& dev = make_device();
  const int n = 640;
  std::vector<float> x = random_values<float>(n, 2, -1000, 1000);
  for (int i = 0; i < 16; ++i) x[i] = static_cast<float>(i) - 7.5f;  // ties
  x[20] = 3e9f;
  x[21] = -3e9f;
  x[22] = std::numeric_limits<float>::quiet_NaN();
  const RoundMode modes[] = {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                             RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC};
  float* gx = to_gm(x);
  std::vector<int32_t*> gi;
  std::vector<Region> regions = {in(0, gx, n * 4)};
  for (int m = 0; m < 5; ++m) {
    gi.push_back(gm_filled<int32_t>(n, 7));
    regions.push_back(out(4 * n * (m + 1), gi.back(), 4 * n));
  }
  float* gback = gm_filled<float>(n, 0.0f);
  regions.push_back(out(4 * n * 6, gback, 4 * n));
  run_ub(dev, regions, [&](const LocalTensor<uint8_t>& ub) {
    for (int m = 0; m < 5; ++m) Cast(at<int32_t>(ub, 4 * n * (m + 1)), at<float>(ub, 0), modes[m], n);
    PipeBarrier<PIPE_V>();
    Cast(at<float>(ub, 4 * n * 6), at<int32_t>(ub, 4 * n * 4), RoundMode::CAST_RINT, n);  // from ROUND
  });
  for (int m = 0; m < 5; ++m) {
    for (int i = 0; i < n; ++i) ASSERT_EQ(gi[m][i], host_f32_to_s32(x[i], modes[m])) << m << " " << i;
  }
  for (int i = 0; i < n; ++i) ASSERT_EQ(bits(gback[i]), bits(static_cast<float>(gi[3][i]))) << i;
}

// The mask/repeat form with Ascend C's usual strides for widening and narrowing casts: the
// 16-bit side advances 4 blocks (64 elements) per repeat.
TEST(VectorIsaKernels, CastMaskFormWithHalfWidthStrides) {
  auto& dev = make_device();
  const int n = 256;
  std::vector<half> x = random_values<half>(n, 3, -100, 100);
  half* gx = to_gm(x);
  float* gwide = gm_filled<float>(n, -1.0f);
  uint16_t* gnarrow = gm_filled<uint16_t>(n, 0xdead);
  uint8_t* gbytes = gm_filled<uint8_t>(n, 0xee);
  float* gcount = gm_filled<float>(n, -1.0f);
  run_ub(dev, {in(0, gx, 2 * n), out(0x1000, gwide, 4 * n), out(0x2000, gnarrow, 2 * n), out(0x3000, gbytes, n),
               out(0x4000, gcount, 4 * n)},
         [&](const LocalTensor<uint8_t>& ub) {
           Cast(at<float>(ub, 0x4000), at<half>(ub, 0), RoundMode::CAST_NONE, n - 10);  // count form
           Cast(at<float>(ub, 0x1000), at<half>(ub, 0), RoundMode::CAST_NONE, 64, 4, UnaryRepeatParams(1, 1, 8, 4));
           PipeBarrier<PIPE_V>();
           Cast(at<half>(ub, 0x2000), at<float>(ub, 0x1000), RoundMode::CAST_ODD, 64, 4, UnaryRepeatParams(1, 1, 4, 8));
           // half -> uint8: 128 elements per repeat, the byte side in 4 blocks; only 100 enabled.
           Cast(at<uint8_t>(ub, 0x3000), at<half>(ub, 0), RoundMode::CAST_TRUNC, 100, 2, UnaryRepeatParams(1, 1, 4, 8));
         });
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(bits(gwide[i]), bits(static_cast<float>(x[i]))) << i;
    ASSERT_EQ(bits(gcount[i]), bits(i < n - 10 ? static_cast<float>(x[i]) : -1.0f)) << i;
    ASSERT_EQ(gnarrow[i], hbits(x[i])) << i;  // exact both ways
    const float t = std::trunc(static_cast<float>(x[i]));
    const uint8_t want = (i % 128) < 100 ? static_cast<uint8_t>(t < 0 ? 0 : t > 255 ? 255 : t) : 0xee;
    ASSERT_EQ(gbytes[i], want) << i;
  }
}

// ---- Compare and Select

TEST(VectorIsaKernels, CompareThenSelectInEveryMode) {
  auto& dev = make_device();
  const int n = 256;  // two half repeats
  std::vector<half> a = random_values<half>(n, 4, -4, 4), b = random_values<half>(n, 5, -4, 4);
  for (int i = 0; i < n; i += 5) b[i] = a[i];  // equal pairs
  half *ga = to_gm(a), *gb = to_gm(b);
  uint8_t* gbits = gm_filled<uint8_t>(64, 0xaa);
  half *g2 = gm_filled<half>(n, half(9)), *g1 = gm_filled<half>(n, half(9)), *g0 = gm_filled<half>(n, half(9));
  uint8_t* gscal = gm_filled<uint8_t>(64, 0xaa);
  run_ub(dev, {in(0, ga, 2 * n), in(0x1000, gb, 2 * n), out(0x2000, gbits, 64), out(0x3000, g2, 2 * n),
               out(0x4000, g1, 2 * n), out(0x5000, g0, 2 * n), out(0x6000, gscal, 64)},
         [&](const LocalTensor<uint8_t>& ub) {
           auto A = at<half>(ub, 0), B = at<half>(ub, 0x1000);
           auto bitsT = at<uint8_t>(ub, 0x2000);
           Compare(bitsT, A, B, CMPMODE::LE, n);
           CompareScalar(at<uint8_t>(ub, 0x6000), A, 0.5f, CMPMODE::GT, n);
           PipeBarrier<PIPE_V>();
           Select(at<half>(ub, 0x3000), bitsT, A, B, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
           Select(at<half>(ub, 0x4000), bitsT, A, half(-7), SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
           Select(at<half>(ub, 0x5000), bitsT, A, B, SELMODE::VSEL_CMPMASK_SPR, n);
         });
  for (int i = 0; i < n; ++i) {
    const bool le = static_cast<float>(a[i]) <= static_cast<float>(b[i]);
    ASSERT_EQ((gbits[i / 8] >> (i % 8)) & 1, le) << i;
    ASSERT_EQ((gscal[i / 8] >> (i % 8)) & 1, static_cast<float>(a[i]) > 0.5f) << i;
    ASSERT_EQ(hbits(g2[i]), hbits(le ? a[i] : b[i])) << i;
    ASSERT_EQ(hbits(g1[i]), hbits(le ? a[i] : half(-7))) << i;
    // Mode 0: the first 128 bits select in every repeat.
    const bool le0 = (gbits[(i % 128) / 8] >> (i % 8)) & 1;
    ASSERT_EQ(hbits(g0[i]), hbits(le0 ? a[i] : b[i])) << i;
  }
  for (int k = 32; k < 64; ++k) ASSERT_EQ(gbits[k], 0xaa) << "only 16 B per half repeat";
}

TEST(VectorIsaKernels, CompareIntoTheCmpMaskRegisterAndSelectWithIt) {
  auto& dev = make_device();
  const int n = 128;  // two float repeats
  std::vector<float> a = random_values<float>(n, 6), b = random_values<float>(n, 7);
  float *ga = to_gm(a), *gb = to_gm(b), *gd = gm_filled<float>(n, 42.0f);
  uint8_t* greg = gm_filled<uint8_t>(32, 0xaa);
  run_ub(dev, {in(0, ga, 4 * n), in(0x1000, gb, 4 * n), out(0x2000, gd, 4 * n), out(0x3000, greg, 32)},
         [&](const LocalTensor<uint8_t>& ub) {
           auto A = at<float>(ub, 0), B = at<float>(ub, 0x1000);
           Compare(A, B, CMPMODE::GT, 64, BinaryRepeatParams());  // one repeat into CMPMASK
           PipeBarrier<PIPE_V>();
           GetCmpMask(at<uint8_t>(ub, 0x3000));
           SetVectorMask<float>(0, 0xffffffffull);  // the register-form Select uses the mask register
           Select<float, SELMODE::VSEL_CMPMASK_SPR>(at<float>(ub, 0x2000), A, B, 2, BinaryRepeatParams());
           ResetMask();
         });
  uint64_t want_reg = 0;
  for (int i = 0; i < 64; ++i) want_reg |= static_cast<uint64_t>(a[i] > b[i]) << i;
  uint64_t got_reg;
  std::memcpy(&got_reg, greg, 8);
  EXPECT_EQ(got_reg, want_reg);
  for (int k = 8; k < 16; ++k) EXPECT_EQ(greg[k], 0) << "upper register bits are 0 after an f32 compare";
  for (int i = 0; i < n; ++i) {
    const int lane = i % 64;
    const float want = lane < 32 ? ((want_reg >> lane) & 1 ? a[i] : b[i]) : 42.0f;
    ASSERT_EQ(bits(gd[i]), bits(want)) << i;
  }
}

// ---- Reductions

TEST(VectorIsaKernels, ReduceSumMaxMinCountAndMaskForms) {
  auto& dev = make_device();
  const int n = 1000;  // 15 full float repeats and 40 elements
  std::vector<float> x = random_values<float>(n, 8, -100, 100);
  x[777] = 250.0f;
  x[123] = -250.0f;
  std::vector<half> hx = random_values<half>(n, 9, -60, 60);
  hx[901] = half(100);
  hx.resize(1008, half(0));  // whole 32 B blocks for DataCopy
  float* gx = to_gm(x);
  half* ghx = to_gm(hx);
  float* gout = gm_filled<float>(32, 0.0f);
  half* ghout = gm_filled<half>(64, half(0));
  run_ub(dev, {in(0, gx, 4000), in(0x1000, ghx, 2016), out(0x2000, gout, 128), out(0x3000, ghout, 128)},
         [&](const LocalTensor<uint8_t>& ub) {
           auto X = at<float>(ub, 0);
           auto H = at<half>(ub, 0x1000);
           auto work = at<float>(ub, 0x8000);
           ReduceSum(at<float>(ub, 0x2000), X, work, n);
           ReduceMax(at<float>(ub, 0x2008), X, work, n, true);
           ReduceMin(at<float>(ub, 0x2010), X, work, n, true);
           ReduceSum(at<float>(ub, 0x2018), X, work, 64, 4, 8);  // mask form: 4 repeats, tree
           ReduceSum(at<half>(ub, 0x3000), H, at<half>(ub, 0x8000), n);
           ReduceMax(at<half>(ub, 0x3004), H, at<half>(ub, 0x8000), n, true);
           ReduceMin(at<half>(ub, 0x3008), H, at<half>(ub, 0x8000), n, false);
         });
  EXPECT_EQ(bits(gout[0]), bits(host_reduce_sum(x, n, true)));
  EXPECT_EQ(gout[2], 250.0f);
  EXPECT_EQ(bits(gout[3]), 777u);  // the index as uint32 bits
  EXPECT_EQ(gout[4], -250.0f);
  EXPECT_EQ(bits(gout[5]), 123u);
  EXPECT_EQ(bits(gout[6]), bits(host_reduce_sum(x, 256, false)));
  EXPECT_EQ(hbits(ghout[0]), hbits(static_cast<half>(host_reduce_sum(hx, n, true))));
  EXPECT_EQ(hbits(ghout[2]), hbits(half(100)));
  EXPECT_EQ(hbits(ghout[3]), 901);  // the index as uint16 bits
  float mn = 1e9f;
  for (int i = 0; i < n; ++i) mn = std::min(mn, static_cast<float>(hx[i]));
  EXPECT_EQ(hbits(ghout[4]), hbits(static_cast<half>(mn)));
  EXPECT_EQ(hbits(ghout[5]), 0) << "calIndex false: no index written";
}

TEST(VectorIsaKernels, WholeAndBlockReductions) {
  auto& dev = make_device();
  const int n = 512;
  std::vector<float> x = random_values<float>(n, 10, -50, 50);
  std::vector<half> hx = random_values<half>(n, 11, -50, 50);
  float* gx = to_gm(x);
  half* ghx = to_gm(hx);
  half* gws = gm_filled<half>(16, half(0));
  float* gwm = gm_filled<float>(32, -1.0f);
  float* gbs = gm_filled<float>(64, 0.0f);
  half* gbm = gm_filled<half>(32, half(0));
  run_ub(dev, {in(0, gx, 4 * n), in(0x1000, ghx, 2 * n), out(0x2000, gws, 32), out(0x3000, gwm, 128),
               out(0x4000, gbs, 256), out(0x5000, gbm, 64)},
         [&](const LocalTensor<uint8_t>& ub) {
           auto X = at<float>(ub, 0);
           auto H = at<half>(ub, 0x1000);
           WholeReduceSum(at<half>(ub, 0x2000), H, 128, 4, 1, 1, 8);
           WholeReduceMax(at<float>(ub, 0x3000), X, 64, 4, 1, 1, 8);  // value, index; stride in records
           WholeReduceMin(at<float>(ub, 0x3040), X, 40, 4, 2, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);
           BlockReduceSum(at<float>(ub, 0x4000), X, 8, 64, 1, 1, 8);
           BlockReduceMax(at<half>(ub, 0x5000), H, 2, 128, 1, 1, 8);
         });
  for (int r = 0; r < 4; ++r) {
    std::vector<float> lanes(hx.begin() + 128 * r, hx.begin() + 128 * (r + 1));
    EXPECT_EQ(hbits(gws[r]), hbits(static_cast<half>(host_tree<half>(lanes)))) << r;
    auto mx = std::max_element(x.begin() + 64 * r, x.begin() + 64 * (r + 1));
    EXPECT_EQ(gwm[2 * r], *mx) << r;
    EXPECT_EQ(bits(gwm[2 * r + 1]), static_cast<uint32_t>(mx - (x.begin() + 64 * r))) << r;
    auto mn = std::min_element(x.begin() + 64 * r, x.begin() + 64 * r + 40);
    EXPECT_EQ(bits(gwm[16 + 4 * r]), static_cast<uint32_t>(mn - (x.begin() + 64 * r))) << r;
    EXPECT_EQ(gwm[16 + 4 * r + 1], *mn) << r;
    EXPECT_EQ(gwm[16 + 4 * r + 2], -1.0f) << "dstRepStride 2: a gap of one record";
  }
  for (int k = 0; k < 64; ++k) {
    std::vector<float> lanes(x.begin() + 8 * k, x.begin() + 8 * (k + 1));
    EXPECT_EQ(bits(gbs[k]), bits(host_tree<float>(lanes))) << k;
  }
  for (int k = 0; k < 16; ++k) {
    float mx = -1e9f;
    for (int j = 0; j < 16; ++j) mx = std::max(mx, static_cast<float>(hx[16 * k + j]));
    EXPECT_EQ(hbits(gbm[k]), hbits(static_cast<half>(mx))) << k;
  }
}

// ---- Data rearrangement

TEST(VectorIsaKernels, BrcbTransposeGather) {
  auto& dev = make_device();
  std::vector<float> s(16);
  for (int i = 0; i < 16; ++i) s[i] = static_cast<float>(i) * 1.5f;
  std::vector<half> m(256);
  for (int i = 0; i < 256; ++i) m[i] = static_cast<half>(i);
  const int n = 200;
  std::vector<int32_t> data(256);
  std::vector<uint32_t> offsets(n);
  std::mt19937 rng(12);
  for (int i = 0; i < 256; ++i) data[i] = 1000 + i;
  for (int i = 0; i < n; ++i) offsets[i] = 4 * (rng() % 240);  // plus srcBaseAddr 64 B: < 256
  float *gs = to_gm(s), *gb = gm_filled<float>(128, 0.0f);
  half *gm = to_gm(m), *gt = gm_filled<half>(256, half(0));
  int32_t *gd = to_gm(data), *gg = gm_filled<int32_t>(256, -1);
  uint32_t* go = to_gm(offsets);
  run_ub(dev, {in(0, gs, 64), out(0x1000, gb, 512), in(0x2000, gm, 512), out(0x3000, gt, 512),
               in(0x4000, gd, 1024), in(0x5000, go, 800), out(0x6000, gg, 1024)},
         [&](const LocalTensor<uint8_t>& ub) {
           Brcb(at<float>(ub, 0x1000), at<float>(ub, 0), 2, BrcbRepeatParams(1, 8));
           Transpose(at<half>(ub, 0x3000), at<half>(ub, 0x2000));
           Gather(at<int32_t>(ub, 0x6000), at<int32_t>(ub, 0x4000), at<uint32_t>(ub, 0x5000), 64, n);
         });
  for (int i = 0; i < 128; ++i) ASSERT_EQ(gb[i], s[i / 8]) << i;
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) ASSERT_EQ(hbits(gt[i * 16 + j]), hbits(m[j * 16 + i])) << i << "," << j;
  }
  for (int i = 0; i < 256; ++i) ASSERT_EQ(gg[i], i < n ? data[16 + offsets[i] / 4] : -1) << i;
}

// ---- Elementwise math and bitwise

TEST(VectorIsaKernels, LnSqrtRsqrtReciprocalLeakyRelu) {
  auto& dev = make_device();
  const int n = 320;
  std::vector<float> x = random_values<float>(n, 13, -4, 40);
  x[0] = 0.0f;
  x[1] = -0.0f;
  std::vector<half> hx = random_values<half>(n, 14, -4, 40);
  float* gx = to_gm(x);
  half* ghx = to_gm(hx);
  std::vector<float*> gf;
  std::vector<half*> gh;
  std::vector<Region> regions = {in(0, gx, 4 * n), in(0x1000, ghx, 2 * n)};
  for (int k = 0; k < 5; ++k) {
    gf.push_back(gm_filled<float>(n, 0.0f));
    regions.push_back(out(0x2000 + 0x800 * k, gf.back(), 4 * n));
    gh.push_back(gm_filled<half>(n, half(0)));
    regions.push_back(out(0x6000 + 0x400 * k, gh.back(), 2 * n));
  }
  run_ub(dev, regions, [&](const LocalTensor<uint8_t>& ub) {
    auto X = at<float>(ub, 0);
    auto H = at<half>(ub, 0x1000);
    Ln(at<float>(ub, 0x2000), X, n);
    Sqrt(at<float>(ub, 0x2800), X, n);
    Rsqrt(at<float>(ub, 0x3000), X, n);
    Reciprocal(at<float>(ub, 0x3800), X, n);
    LeakyRelu(at<float>(ub, 0x4000), X, 0.125f, n);
    Ln(at<half>(ub, 0x6000), H, n);
    Sqrt(at<half>(ub, 0x6400), H, n);
    Rsqrt(at<half>(ub, 0x6800), H, n);
    Reciprocal(at<half>(ub, 0x6c00), H, n);
    LeakyRelu(at<half>(ub, 0x7000), H, half(0.3f), 128, 2, UnaryRepeatParams());  // 256 of 320
  });
  auto rsqrt = [](float v) { return static_cast<float>(1.0 / std::sqrt(static_cast<double>(v))); };
  for (int i = 0; i < n; ++i) {
    const float v = x[i];
    ASSERT_EQ(bits(gf[0][i]), bits(std::log(v))) << i;
    ASSERT_EQ(bits(gf[1][i]), bits(std::sqrt(v))) << i;
    ASSERT_EQ(bits(gf[2][i]), bits(rsqrt(v))) << i;
    ASSERT_EQ(bits(gf[3][i]), bits(1.0f / v)) << i;
    ASSERT_EQ(bits(gf[4][i]), bits(v >= 0 ? v : v * 0.125f)) << i;
    const float w = static_cast<float>(hx[i]);
    ASSERT_EQ(hbits(gh[0][i]), hbits(static_cast<half>(std::log(w)))) << i;
    ASSERT_EQ(hbits(gh[1][i]), hbits(static_cast<half>(std::sqrt(w)))) << i;
    ASSERT_EQ(hbits(gh[2][i]), hbits(static_cast<half>(rsqrt(w)))) << i;
    ASSERT_EQ(hbits(gh[3][i]), hbits(static_cast<half>(1.0f / w))) << i;
    const float alpha = static_cast<float>(half(0.3f));
    ASSERT_EQ(hbits(gh[4][i]), i < 256 ? hbits(static_cast<half>(w >= 0 ? w : w * alpha)) : 0) << i;
  }
  EXPECT_EQ(gf[0][0], -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::signbit(gf[1][1]));  // sqrt(-0) = -0
  EXPECT_EQ(gf[2][1], -std::numeric_limits<float>::infinity());
}

TEST(VectorIsaKernels, NotAndOrOn16BitIntegers) {
  auto& dev = make_device();
  const int n = 256;
  std::vector<uint16_t> a(n), b(n);
  std::mt19937 rng(15);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<uint16_t>(rng());
    b[i] = static_cast<uint16_t>(rng());
  }
  uint16_t *ga = to_gm(a), *gb = to_gm(b);
  uint16_t *gn = gm_filled<uint16_t>(n, 0), *gand = gm_filled<uint16_t>(n, 0), *gor = gm_filled<uint16_t>(n, 0);
  run_ub(dev, {in(0, ga, 2 * n), in(0x1000, gb, 2 * n), out(0x2000, gn, 2 * n), out(0x3000, gand, 2 * n),
               out(0x4000, gor, 2 * n)},
         [&](const LocalTensor<uint8_t>& ub) {
           Not(at<uint16_t>(ub, 0x2000), at<uint16_t>(ub, 0), n);
           And(at<int16_t>(ub, 0x3000), at<int16_t>(ub, 0), at<int16_t>(ub, 0x1000), n);
           Or(at<uint16_t>(ub, 0x4000), at<uint16_t>(ub, 0), at<uint16_t>(ub, 0x1000), 128, 2,
              BinaryRepeatParams());
         });
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(gn[i], static_cast<uint16_t>(~a[i])) << i;
    ASSERT_EQ(gand[i], a[i] & b[i]) << i;
    ASSERT_EQ(gor[i], a[i] | b[i]) << i;
  }
}

// ---- The mask register

TEST(VectorIsaKernels, CounterModeWithIsSetMaskFalseOverMoreThan255Repeats) {
  auto& dev = make_device();
  const int n = 16400;  // 257 float repeats: the API splits the run in two instructions
  std::vector<float> a = random_values<float>(n + 64, 16), b = random_values<float>(n + 64, 17);
  float *ga = to_gm(a), *gb = to_gm(b), *gc = gm_filled<float>(n + 64, 5.0f);
  const uint32_t bytes = 4 * (n + 64);
  run_ub(dev, {in(0, ga, bytes), in(bytes, gb, bytes), out(2 * bytes, gc, bytes)},
         [&](const LocalTensor<uint8_t>& ub) {
           SetMaskCount();
           SetVectorMask<float, MaskMode::COUNTER>(n);
           Add<float, false>(at<float>(ub, 2 * bytes), at<float>(ub, 0), at<float>(ub, bytes), MASK_PLACEHOLDER, 1,
                             BinaryRepeatParams());
           SetMaskNorm();
           ResetMask();
         },
         3 * bytes);
  for (int i = 0; i < n + 64; ++i) ASSERT_EQ(gc[i], i < n ? a[i] + b[i] : 5.0f) << i;
}

TEST(VectorIsaKernels, NormalModeRegisterMaskAndCountFormsResettingIt) {
  auto& dev = make_device();
  const int n = 256;
  std::vector<half> x = random_values<half>(n, 18);
  half* gx = to_gm(x);
  half *g1 = gm_filled<half>(n, half(0)), *g2 = gm_filled<half>(n, half(0)), *g3 = gm_filled<half>(n, half(0));
  run_ub(dev, {in(0, gx, 2 * n), out(0x1000, g1, 2 * n), out(0x2000, g2, 2 * n), out(0x3000, g3, 2 * n)},
         [&](const LocalTensor<uint8_t>& ub) {
           auto X = at<half>(ub, 0);
           // Normal mode, bit-wise register mask: elements 0..7 and 64 of every repeat.
           SetVectorMask<half>(1, 0xff);
           Muls<half, false>(at<half>(ub, 0x1000), X, half(2), MASK_PLACEHOLDER, 2, UnaryRepeatParams());
           // isSetMask = true in Counter mode: the mask argument is the element count.
           SetMaskCount();
           Adds(at<half>(ub, 0x2000), X, half(1), 200, 1, UnaryRepeatParams());
           // A count form leaves Normal mode and a full mask behind, as in Ascend C.
           Adds(at<half>(ub, 0x3000), X, half(1), 1);
           Adds<half, false>(at<half>(ub, 0x3000), X, half(3), MASK_PLACEHOLDER, 2, UnaryRepeatParams());
         });
  for (int i = 0; i < n; ++i) {
    const int lane = i % 128;
    const float v = static_cast<float>(x[i]);
    ASSERT_EQ(hbits(g1[i]), lane < 8 || lane == 64 ? hbits(static_cast<half>(v * 2)) : 0) << i;
    ASSERT_EQ(hbits(g2[i]), i < 200 ? hbits(static_cast<half>(v + 1)) : 0) << i;
    ASSERT_EQ(hbits(g3[i]), hbits(static_cast<half>(v + 3))) << i;
  }
}

// A vector instruction's cost is a fixed head plus its repeats, reductions a round more.
TEST(VectorIsaKernels, OneReductionCallIsCheaperThanManyWholeReduces) {
  auto& dev = make_device();
  std::vector<float> x = random_values<float>(64 * 32, 19);
  float* gx = to_gm(x);
  uint64_t one = 0, many = 0;
  dev.launch("cost", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * 1024);
    auto ub = buf.Get<uint8_t>();
    GlobalTensor<uint8_t> gin;
    gin.SetGlobalBuffer(reinterpret_cast<uint8_t*>(gx));
    DataCopy(ub, gin, 8192);
    PipeBarrier<PIPE_ALL>();
    // The kernel's clock: the scalar unit's time (it runs ahead of SystemC's).
    auto now = [] { return npuvp::aicore::AiCore::current()->scalar_time(); };
    const auto t0 = now();
    ReduceSum(at<float>(ub, 0x4000), at<float>(ub, 0), at<float>(ub, 0x5000), 64 * 32);
    PipeBarrier<PIPE_ALL>();
    const auto t1 = now();
    for (int r = 0; r < 32; ++r) WholeReduceSum(at<float>(ub, 0x4000 + 4 * r), at<float>(ub, 256 * r), 64, 1, 1, 1, 8);
    PipeBarrier<PIPE_ALL>();
    const auto t2 = now();
    one = static_cast<uint64_t>((t1 - t0).to_seconds() * 1e12);
    many = static_cast<uint64_t>((t2 - t1).to_seconds() * 1e12);
  });
  EXPECT_LT(one, many);
}

// ---- Errors

TEST(VectorIsaKernels, ErrorCastIllegalPair) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] { Cast(ub_at<uint16_t>(0, 128), ub_at<half>(256, 128), RoundMode::CAST_NONE, 128); });
  EXPECT_THAT(e, IsKernelError("Cast.f16", "Cast does not support f16->u16"));
}

TEST(VectorIsaKernels, ErrorCastRoundingModeNotLegalForThePair) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] { Cast(ub_at<float>(0, 64), ub_at<half>(256, 64), RoundMode::CAST_FLOOR, 64); });
  EXPECT_THAT(e, IsKernelError("Cast.f16", "Cast f16->f32 does not support CAST_FLOOR"));
}

TEST(VectorIsaKernels, ErrorGatherOffsetOutOfUb) {
  auto& dev = make_device();
  std::vector<uint32_t> offsets(64, 0);
  offsets[5] = 300 * 1024;  // past a 256 KiB UB
  uint32_t* go = to_gm(offsets);
  std::string e = kernel_error(dev, 1, [&] {
    auto off = ub_at<uint32_t>(0x1000, 64);
    GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer(go, 64);
    DataCopy(off, g, 64);
    PipeBarrier<PIPE_ALL>();
    Gather(ub_at<float>(0, 64), ub_at<float>(0x2000, 64), off, 0, 64);
    PipeBarrier<PIPE_ALL>();
  });
  EXPECT_THAT(e, IsKernelError("Gather.f32", "offset[5] = 0x4b000"));
  EXPECT_THAT(e, HasSubstr("beyond UB size 0x40000"));
}

TEST(VectorIsaKernels, ErrorTransposeMisaligned) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] { Transpose(ub_at<half>(0x1010, 256), ub_at<half>(0, 256)); });
  EXPECT_THAT(e, IsKernelError("Transpose.f16", "dst address 0x1010 not 32 B aligned"));
}

TEST(VectorIsaKernels, ErrorCompareCountNotWholeRepeats) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] {
    Compare(ub_at<uint8_t>(0x4000, 32), ub_at<half>(0, 100), ub_at<half>(0x1000, 100), CMPMODE::EQ, 100);
  });
  EXPECT_THAT(e, IsKernelError("Compare", "count 100 of f16 is not a whole number of 256 B repeats"));
}

TEST(VectorIsaKernels, ErrorSelectModeDoesNotFitTheForm) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] {
    Select(ub_at<float>(0, 64), ub_at<uint8_t>(0x4000, 32), ub_at<float>(0x1000, 64), 1.0f,
           SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
  });
  EXPECT_THAT(e, IsKernelError("Select", "a scalar src1 needs SELMODE::VSEL_TENSOR_SCALAR_MODE"));
}

TEST(VectorIsaKernels, ErrorReduceMaxHalfIndexWouldOverflow) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] {
    ReduceMax(ub_at<half>(0, 2), ub_at<half>(0x100, 70000), ub_at<half>(0, 2), 70000, true);
  });
  EXPECT_THAT(e, IsKernelError("ReduceMax.f16", "an index above 65535 does not fit the 16-bit index slot"));
}

}  // namespace vector_ops_test
