// The half and bfloat16 helpers against integer-only references: the hardware conversion
// path (F16C when built with it) must be bit-exact, for every half and a large float sample.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "models/numerics/bfloat16.h"
#include "models/numerics/fp16.h"

#if defined(__F16C__)
#include <immintrin.h>
#endif

namespace npuvp {
namespace fp16_test {

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// The floats a narrowing test should look at: every half midpoint, one float ulp either side
// of it, and the halves themselves, both signs.
std::vector<float> half_boundary_floats() {
  std::vector<float> out;
  for (uint32_t h = 0; h < 0x7c00; ++h) {  // every finite non-negative half
    const float a = f16_to_f32_reference(static_cast<uint16_t>(h));
    const float b = f16_to_f32_reference(static_cast<uint16_t>(h + 1));  // 0x7c00 is +inf
    // Midpoint: exact in float (12 significant bits). Above 65504 the "next" is infinity;
    // use the value 65520 the rounding boundary to infinity sits at.
    const float mid = h == 0x7bff ? 65520.0f : (a + b) / 2;
    for (float f : {a, mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e30f)}) {
      out.push_back(f);
      out.push_back(-f);
    }
  }
  return out;
}

TEST(Fp16Test, EveryHalfWidensExactlyAsTheReference) {
  std::vector<_Float16> halves(65536);
  for (uint32_t h = 0; h < 65536; ++h) halves[h] = f16_from_bits(static_cast<uint16_t>(h));
  std::vector<float> bulk(65536);
  f16_to_f32(halves.data(), bulk.data(), halves.size());
  for (uint32_t h = 0; h < 65536; ++h) {
    const uint32_t want = bits_of(f16_to_f32_reference(static_cast<uint16_t>(h)));
    ASSERT_EQ(bits_of(static_cast<float>(halves[h])), want) << std::hex << "half 0x" << h;
    ASSERT_EQ(bits_of(bulk[h]), want) << std::hex << "half 0x" << h;
  }
}

TEST(Fp16Test, ReferenceWideningKnownValues) {
  EXPECT_EQ(f16_to_f32_reference(0x3c00), 1.0f);
  EXPECT_EQ(f16_to_f32_reference(0xc000), -2.0f);
  EXPECT_EQ(f16_to_f32_reference(0x7bff), 65504.0f);
  EXPECT_EQ(f16_to_f32_reference(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_EQ(f16_to_f32_reference(0x03ff), std::ldexp(1023.0f, -24));
  EXPECT_EQ(f16_to_f32_reference(0x0400), std::ldexp(1.0f, -14));  // smallest normal
  EXPECT_EQ(bits_of(f16_to_f32_reference(0x8000)), 0x80000000u);
  EXPECT_EQ(bits_of(f16_to_f32_reference(0x7c00)), 0x7f800000u);
  EXPECT_EQ(bits_of(f16_to_f32_reference(0xfc00)), 0xff800000u);
  EXPECT_EQ(bits_of(f16_to_f32_reference(0x7c01)), 0x7fc02000u);  // sNaN -> qNaN, payload kept
  EXPECT_EQ(bits_of(f16_to_f32_reference(0xfe00)), 0xffc00000u);
}

TEST(Fp16Test, NarrowingMatchesReferenceAtEveryMidpoint) {
  const std::vector<float> in = half_boundary_floats();
  std::vector<_Float16> bulk(in.size());
  f32_to_f16(in.data(), bulk.data(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const uint16_t want = f32_to_f16_reference(in[i]);
    ASSERT_EQ(f16_bits(static_cast<_Float16>(in[i])), want)
        << std::hex << "float 0x" << bits_of(in[i]);
    ASSERT_EQ(f16_bits(bulk[i]), want) << std::hex << "float 0x" << bits_of(in[i]);
  }
}

TEST(Fp16Test, NarrowingMatchesReferenceOnRandomFloats) {
  std::mt19937 rng(20240601);
  std::uniform_int_distribution<uint32_t> any_bits;
  // Exponents around half's range: subnormal halves, normals, overflow.
  std::uniform_int_distribution<uint32_t> exp_near(90, 150);
  std::vector<float> in;
  for (int i = 0; i < 1 << 20; ++i) {
    in.push_back(float_of(any_bits(rng)));  // anything: NaNs, float subnormals, huge values
    const uint32_t u = any_bits(rng);
    in.push_back(float_of((u & 0x807fffffu) | (exp_near(rng) << 23)));
  }
  std::vector<_Float16> bulk(in.size());
  f32_to_f16(in.data(), bulk.data(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const uint16_t want = f32_to_f16_reference(in[i]);
    ASSERT_EQ(f16_bits(static_cast<_Float16>(in[i])), want)
        << std::hex << "float 0x" << bits_of(in[i]);
    ASSERT_EQ(f16_bits(bulk[i]), want) << std::hex << "float 0x" << bits_of(in[i]);
  }
}

TEST(Fp16Test, ReferenceNarrowingKnownValues) {
  EXPECT_EQ(f32_to_f16_reference(1.0f), 0x3c00);
  EXPECT_EQ(f32_to_f16_reference(-0.0f), 0x8000);
  EXPECT_EQ(f32_to_f16_reference(65504.0f), 0x7bff);
  EXPECT_EQ(f32_to_f16_reference(65519.996f), 0x7bff);  // just below the boundary
  EXPECT_EQ(f32_to_f16_reference(65520.0f), 0x7c00);    // tie, rounds to even = infinity
  EXPECT_EQ(f32_to_f16_reference(1e10f), 0x7c00);
  EXPECT_EQ(f32_to_f16_reference(-1e10f), 0xfc00);
  EXPECT_EQ(f32_to_f16_reference(2049.0f), 0x6800);  // tie between 2048 and 2050 -> 2048
  EXPECT_EQ(f32_to_f16_reference(2051.0f), 0x6802);  // tie between 2050 and 2052 -> 2052
  EXPECT_EQ(f32_to_f16_reference(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(f32_to_f16_reference(std::ldexp(1.0f, -25)), 0x0000);  // tie -> even (0)
  EXPECT_EQ(f32_to_f16_reference(std::nextafter(std::ldexp(1.0f, -25), 1.0f)), 0x0001);
  EXPECT_EQ(f32_to_f16_reference(std::ldexp(3.0f, -25)), 0x0002);  // 1.5 units -> 2
  EXPECT_EQ(f32_to_f16_reference(std::ldexp(1023.5f, -24)), 0x0400);  // carry into normal
  EXPECT_EQ(f32_to_f16_reference(std::numeric_limits<float>::denorm_min()), 0x0000);
  EXPECT_EQ(f32_to_f16_reference(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(f32_to_f16_reference(float_of(0x7f800001u)), 0x7e00);  // sNaN -> quiet
  EXPECT_EQ(f32_to_f16_reference(float_of(0xffc00000u)), 0xfe00);  // sign kept
  EXPECT_EQ(f32_to_f16_reference(float_of(0x7fc02000u)), 0x7e01);  // top payload kept
}

TEST(Fp16Test, BulkConvertersEqualScalarCastsForEveryLengthAndOffset) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> bits;
  std::vector<float> f(64);
  std::vector<_Float16> h(64);
  for (auto& x : f) x = float_of((bits(rng) & 0x807fffffu) | ((100 + bits(rng) % 50) << 23));
  for (auto& x : h) x = f16_from_bits(static_cast<uint16_t>(bits(rng)));
  for (size_t off = 0; off < 8; ++off) {
    for (size_t n = 0; n + off <= 40; ++n) {
      std::vector<float> wide(n + 1, -7.0f);
      std::vector<_Float16> narrow(n + 1, f16_from_bits(0x1234));
      f16_to_f32(h.data() + off, wide.data(), n);
      f32_to_f16(f.data() + off, narrow.data(), n);
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(bits_of(wide[i]), bits_of(static_cast<float>(h[off + i])));
        ASSERT_EQ(f16_bits(narrow[i]), f16_bits(static_cast<_Float16>(f[off + i])));
      }
      EXPECT_EQ(wide[n], -7.0f) << "wrote past the end";
      EXPECT_EQ(f16_bits(narrow[n]), 0x1234) << "wrote past the end";
    }
  }
}

TEST(Fp16Test, ConversionPathMatchesBuild) {
#if defined(__F16C__)
  // Built with F16C: the bulk converters must be the vcvtph2ps/vcvtps2ph instructions; compare
  // them to the intrinsics directly, including a NaN and a round-to-even tie.
  EXPECT_TRUE(kF16cEnabled);
  alignas(32) const float in[8] = {1.0f, 2049.0f, -65520.0f, std::ldexp(1.0f, -25),
                                   float_of(0x7fc02000u), -0.0f, 3.14159f, 1e-6f};
  alignas(16) uint16_t direct[8];
  _mm_store_si128(reinterpret_cast<__m128i*>(direct),
                  _mm256_cvtps_ph(_mm256_load_ps(in), _MM_FROUND_TO_NEAREST_INT));
  _Float16 bulk[8];
  f32_to_f16(in, bulk, 8);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(f16_bits(bulk[i]), direct[i]) << i;
    EXPECT_EQ(direct[i], f32_to_f16_reference(in[i])) << i;
  }
  alignas(32) float wide[8];
  _mm256_store_ps(wide, _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(direct))));
  float bulk_wide[8];
  f16_to_f32(bulk, bulk_wide, 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(bits_of(bulk_wide[i]), bits_of(wide[i])) << i;
#else
  // No F16C: the scalar software fallback is in use and must still equal the reference.
  EXPECT_FALSE(kF16cEnabled);
  for (uint32_t h = 0; h < 65536; h += 7) {
    const _Float16 in = f16_from_bits(static_cast<uint16_t>(h));
    float f;
    f16_to_f32(&in, &f, 1);
    ASSERT_EQ(bits_of(f), bits_of(f16_to_f32_reference(static_cast<uint16_t>(h))));
    // Opaque copy: without it GCC folds (_Float16)(float)x back to x (it assumes no
    // signalling NaNs) and the sNaN would come back unquieted.
    volatile float opaque = f;
    const float g = opaque;
    _Float16 back;
    f32_to_f16(&g, &back, 1);
    ASSERT_EQ(f16_bits(back), f32_to_f16_reference(g));
  }
#endif
}

TEST(Fp16Test, BitsRoundTrip) {
  for (uint32_t h = 0; h < 65536; ++h) {
    ASSERT_EQ(f16_bits(f16_from_bits(static_cast<uint16_t>(h))), h);
  }
}

// ---- bfloat16

// Independent RNE: pick the nearer of the two bf16 neighbours in double, ties to even.
uint16_t bf16_reference(float f) {
  const uint32_t u = bits_of(f);
  if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x40);
  const uint32_t down = u & 0xffff0000u;
  if (down == u) return static_cast<uint16_t>(u >> 16);
  const uint32_t up = down + 0x10000u;  // magnitude-wise next; 0x7f7f.. -> 0x7f80 = inf
  const double x = std::fabs(static_cast<double>(f));
  const double lo = std::fabs(static_cast<double>(float_of(down)));
  // The value just past FLT_MAX's bf16 neighbour is infinity; its "distance" uses 2^128.
  const double hi = (up & 0x7fffffffu) == 0x7f800000u ? std::ldexp(1.0, 128)
                                                       : std::fabs(static_cast<double>(float_of(up)));
  const double dl = x - lo, dh = hi - x;
  if (dl < dh) return static_cast<uint16_t>(down >> 16);
  if (dh < dl) return static_cast<uint16_t>(up >> 16);
  return static_cast<uint16_t>(((down >> 16) & 1) ? up >> 16 : down >> 16);
}

TEST(Bfloat16Test, LayoutAndDefaults) {
  static_assert(sizeof(bfloat16_t) == 2);
  static_assert(std::is_trivially_copyable_v<bfloat16_t>);
  EXPECT_EQ(bfloat16_t().bits, 0);
  EXPECT_EQ(bfloat16_t::from_bits(0x3f80).bits, 0x3f80);
  EXPECT_EQ(static_cast<float>(bfloat16_t::from_bits(0x3f80)), 1.0f);
  bfloat16_t x = 1.5f;  // implicit from float
  EXPECT_EQ(x.bits, 0x3fc0);
  EXPECT_EQ(static_cast<float>(x), 1.5f);
}

TEST(Bfloat16Test, RoundsToNearestEven) {
  EXPECT_EQ(bfloat16_t(float_of(0x3f808000u)).bits, 0x3f80);  // tie, even below
  EXPECT_EQ(bfloat16_t(float_of(0x3f818000u)).bits, 0x3f82);  // tie, even above
  EXPECT_EQ(bfloat16_t(float_of(0x3f808001u)).bits, 0x3f81);  // just above the tie
  EXPECT_EQ(bfloat16_t(float_of(0x3f807fffu)).bits, 0x3f80);  // just below the tie
  EXPECT_EQ(bfloat16_t(float_of(0xbf818000u)).bits, 0xbf82);  // negative tie
  EXPECT_EQ(bfloat16_t(float_of(0x3f7fffffu)).bits, 0x3f80);  // carry into the exponent
  EXPECT_EQ(bfloat16_t(float_of(0x00008000u)).bits, 0x0000);  // subnormal tie -> 0
  EXPECT_EQ(bfloat16_t(float_of(0x00018000u)).bits, 0x0002);
}

TEST(Bfloat16Test, InfinityOverflowAndNaN) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(bfloat16_t(inf).bits, 0x7f80);
  EXPECT_EQ(bfloat16_t(-inf).bits, 0xff80);
  EXPECT_EQ(bfloat16_t(std::numeric_limits<float>::max()).bits, 0x7f80);  // rounds up to inf
  EXPECT_EQ(bfloat16_t(float_of(0x7f7f7fffu)).bits, 0x7f7f);             // largest finite
  EXPECT_EQ(bfloat16_t(float_of(0x7f800001u)).bits, 0x7fc0);  // sNaN, payload only below: quiet
  EXPECT_EQ(bfloat16_t(float_of(0xff800001u)).bits, 0xffc0);  // sign kept
  EXPECT_EQ(bfloat16_t(float_of(0x7fa50000u)).bits, 0x7fe5);  // top payload kept, quieted
  EXPECT_TRUE(std::isnan(static_cast<float>(bfloat16_t(std::nanf("")))));
}

TEST(Bfloat16Test, ComparesByValue) {
  EXPECT_TRUE(bfloat16_t(0.0f) == bfloat16_t(-0.0f));
  EXPECT_FALSE(bfloat16_t(0.0f) != bfloat16_t(-0.0f));
  const bfloat16_t nan = bfloat16_t::from_bits(0x7fc0);
  EXPECT_FALSE(nan == nan);
  EXPECT_TRUE(nan != nan);
  EXPECT_TRUE(bfloat16_t(2.0f) == 2.0f);
  EXPECT_TRUE(2.0 == bfloat16_t(2.0f));
  EXPECT_TRUE(bfloat16_t(2.0f) != 3);
  EXPECT_TRUE(bfloat16_t(1.0f) < bfloat16_t(2.0f));  // through operator float
}

TEST(Bfloat16Test, EveryPatternWidensExactlyAndRoundTrips) {
  for (uint32_t b = 0; b < 65536; ++b) {
    const bfloat16_t x = bfloat16_t::from_bits(static_cast<uint16_t>(b));
    const float f = x;
    ASSERT_EQ(bits_of(f), b << 16);
    const bool nan = (b & 0x7f80) == 0x7f80 && (b & 0x7f) != 0;
    ASSERT_EQ(bfloat16_t(f).bits, nan ? (b | 0x40) : b) << std::hex << b;
  }
}

TEST(Bfloat16Test, RandomFloatsMatchIndependentReference) {
  std::mt19937 rng(99);
  std::uniform_int_distribution<uint32_t> bits;
  for (int i = 0; i < 1 << 20; ++i) {
    uint32_t u = bits(rng);
    if (i & 1) u = (u & 0xffff0000u) | (i & 2 ? 0x8000u : 0x7fffu + (u & 2));  // near ties
    const float f = float_of(u);
    ASSERT_EQ(bfloat16_t(f).bits, bf16_reference(f)) << std::hex << u;
  }
}

}  // namespace fp16_test
}  // namespace npuvp
