// bfloat16: the top 16 bits of an IEEE binary32 (1 sign, 8 exponent, 7 mantissa bits).
// A storage type: arithmetic happens in float; conversion from float rounds to nearest-even,
// keeps infinities, and turns NaN into a quiet NaN with the same sign (and top payload bits).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace npuvp {

struct bfloat16_t {
  uint16_t bits = 0;

  bfloat16_t() = default;
  // Implicit on purpose: kernels write `bfloat16_t x = 1.5f;` like a built-in type.
  bfloat16_t(float f) : bits(round_from_float(f)) {}  // NOLINT(google-explicit-constructor)

  static bfloat16_t from_bits(uint16_t b) {
    bfloat16_t r;
    r.bits = b;
    return r;
  }

  operator float() const {  // NOLINT(google-explicit-constructor): exact widening
    const uint32_t u = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  }

  // Value comparison as float: +0 == -0, NaN != anything (itself included).
  friend bool operator==(bfloat16_t a, bfloat16_t b) {
    return static_cast<float>(a) == static_cast<float>(b);
  }
  friend bool operator!=(bfloat16_t a, bfloat16_t b) { return !(a == b); }
  // Mixed with a built-in number: exact-match templates, so `x == 1.0f` is not ambiguous
  // between this class's operator and the built-in one reached through operator float.
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  friend bool operator==(bfloat16_t a, T b) { return static_cast<float>(a) == b; }
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  friend bool operator==(T a, bfloat16_t b) { return a == static_cast<float>(b); }
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  friend bool operator!=(bfloat16_t a, T b) { return !(a == b); }
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  friend bool operator!=(T a, bfloat16_t b) { return !(a == b); }

 private:
  static uint16_t round_from_float(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu) != 0) {
      return static_cast<uint16_t>((u >> 16) | 0x0040u);  // quiet NaN, sign and payload kept
    }
    // Round to nearest-even on the 16 dropped bits: add 0x7fff plus the lowest kept bit.
    // A carry correctly moves into the exponent, up to infinity.
    const uint32_t lsb = (u >> 16) & 1u;
    return static_cast<uint16_t>((u + 0x7fffu + lsb) >> 16);
  }
};

static_assert(sizeof(bfloat16_t) == 2, "bfloat16_t must be 2 bytes");
static_assert(std::is_trivially_copyable_v<bfloat16_t>, "bfloat16_t must be trivially copyable");

}  // namespace npuvp
