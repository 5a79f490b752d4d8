// IEEE binary16 ("half", fp16) helpers. The model's half type is the compiler's _Float16
// (g++ 12, x86-64). When the build machine has F16C (cmake/NpuvpCompilerFlags.cmake adds
// -mf16c -mavx2 -mfma), conversions go through vcvtph2ps/vcvtps2ph, which are exact and
// round to nearest-even; otherwise they are plain casts (libgcc's soft-fp, also RNE).
//
// The *_reference converters use integer operations only. They define the numeric contract
// independently of the compiler and the CPU, and the tests prove the fast path equal to them
// for every half and a large sample of floats.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__F16C__)
#include <immintrin.h>
#endif

namespace npuvp {

// True when this translation unit was compiled with the F16C conversion instructions.
#if defined(__F16C__)
inline constexpr bool kF16cEnabled = true;
#else
inline constexpr bool kF16cEnabled = false;
#endif

inline uint16_t f16_bits(_Float16 h) {
  uint16_t bits;
  std::memcpy(&bits, &h, sizeof bits);
  return bits;
}

inline _Float16 f16_from_bits(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, sizeof h);
  return h;
}

// Exact widening. NaNs become quiet NaNs (quiet bit set) keeping sign and payload, as
// vcvtph2ps does.
inline float f16_to_f32_reference(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t man = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = man == 0 ? (sign | 0x7f800000u) : (sign | 0x7fc00000u | (man << 13));
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (man << 13);  // rebias 15 -> 127
  } else if (man == 0) {
    bits = sign;  // +-0
  } else {
    // Subnormal half (man * 2^-24): normalise; 113 is float's biased exponent of 2^-14,
    // and each shift until bit 10 (the implicit one) is set halves the scale.
    uint32_t e = 113;
    while ((man & 0x400u) == 0) {
      man <<= 1;
      --e;
    }
    bits = sign | (e << 23) | ((man & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Narrowing with round-to-nearest-even, gradual underflow to half subnormals, overflow to
// infinity. NaN becomes a quiet NaN keeping the sign and the top 9 payload bits, as
// vcvtps2ph does.
inline uint16_t f32_to_f16_reference(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  const uint32_t sign = (u >> 16) & 0x8000u;
  const uint32_t exp = (u >> 23) & 0xffu;
  const uint32_t man = u & 0x7fffffu;
  if (exp == 0xff) {
    return static_cast<uint16_t>(man == 0 ? (sign | 0x7c00u) : (sign | 0x7e00u | (man >> 13)));
  }
  if (exp >= 143) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 2^16: beyond 65504+ulp/2
  if (exp >= 113) {
    // Normal half: keep 10 mantissa bits, round on the 13 dropped; a carry out of the
    // mantissa correctly bumps the exponent (up to infinity).
    uint32_t r = sign | ((exp - 112u) << 10) | (man >> 13);
    const uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;
    return static_cast<uint16_t>(r);
  }
  // Below 2^-14: half subnormal (unit 2^-24) or zero. Float subnormals (exp 0) are < 2^-126
  // and always round to zero, as do values below 2^-25 (shift > 24).
  if (exp == 0) return static_cast<uint16_t>(sign);
  const uint32_t m = man | 0x800000u;  // 24-bit significand, value m * 2^(exp-150)
  const uint32_t shift = 126u - exp;   // >= 14
  if (shift > 24) return static_cast<uint16_t>(sign);
  uint32_t q = m >> shift;
  const uint32_t rem = m & ((1u << shift) - 1u);
  const uint32_t halfway = 1u << (shift - 1);
  if (rem > halfway || (rem == halfway && (q & 1u))) ++q;  // a carry gives the min normal
  return static_cast<uint16_t>(sign | q);
}

// Bulk conversions, 8 lanes at a time through F16C. The tail goes through a padded buffer
// so that every element takes the same instruction path.
inline void f16_to_f32(const _Float16* in, float* out, size_t n) {
#if defined(__F16C__)
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(h));
  }
  if (i < n) {
    uint16_t tmp_in[8] = {};
    float tmp_out[8];
    std::memcpy(tmp_in, in + i, (n - i) * sizeof(_Float16));
    _mm256_storeu_ps(tmp_out,
                     _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(tmp_in))));
    std::memcpy(out + i, tmp_out, (n - i) * sizeof(float));
  }
#else
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<float>(in[i]);
#endif
}

inline void f32_to_f16(const float* in, _Float16* out, size_t n) {
#if defined(__F16C__)
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), h);
  }
  if (i < n) {
    float tmp_in[8] = {};
    uint16_t tmp_out[8];
    std::memcpy(tmp_in, in + i, (n - i) * sizeof(float));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(tmp_out),
                     _mm256_cvtps_ph(_mm256_loadu_ps(tmp_in), _MM_FROUND_TO_NEAREST_INT));
    std::memcpy(out + i, tmp_out, (n - i) * sizeof(_Float16));
  }
#else
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<_Float16>(in[i]);
#endif
}

}  // namespace npuvp
