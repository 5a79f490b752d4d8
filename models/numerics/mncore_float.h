// MN-Core 2 floating-point formats (SPEC.md §2, seed 003 table 7.1/7.2): half 1-6-9 with
// bias 31, single 1-8-23 and double 1-11-52 in the IEEE layouts. None of them has denormals
// or NaN: an all-zeros exponent is ±0 whatever the mantissa, an all-ones exponent is ±inf.
//
// The numeric contract of this model (docs/mncore2-isa.md, "Numbers"):
//  - Rounding is to nearest, ties to even, at the format's precision with an unbounded
//    exponent range; a rounded result below the minimum normal becomes zero of the same sign
//    (underflow to ±0), above the maximum it becomes infinity of the same sign.
//  - Where IEEE 754 would produce NaN (inf - inf, 0 * inf, 0 / 0, inf / inf, or a NaN
//    input from the host) the result is +inf. It is the one pattern that keeps "this value
//    is invalid" visible downstream without a NaN encoding.
//  - Exact zero results follow IEEE sign rules (x - x = +0, -0 + -0 = -0).
// Everything here is integer bit manipulation plus IEEE double arithmetic, so it is the
// reference the fast paths (MAU, ALU loops) are tested against.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>

namespace npuvp::mncore {

enum class FloatFormat { Half, Single, Double };

struct FormatInfo {
  const char* name;
  unsigned total_bits;
  unsigned exponent_bits;
  unsigned mantissa_bits;  // stored fraction bits
  int bias;
};

constexpr FormatInfo kHalfInfo{"half", 16, 6, 9, 31};
constexpr FormatInfo kSingleInfo{"single", 32, 8, 23, 127};
constexpr FormatInfo kDoubleInfo{"double", 64, 11, 52, 1023};

constexpr const FormatInfo& info(FloatFormat f) {
  return f == FloatFormat::Half ? kHalfInfo : f == FloatFormat::Single ? kSingleInfo : kDoubleInfo;
}

// Named bit patterns (table 7.2).
constexpr uint16_t kHalfOne = 0x3E00;
constexpr uint16_t kHalfMax = 0x7DFF;
constexpr uint16_t kHalfMinNormal = 0x0200;
constexpr uint16_t kHalfInf = 0x7E00;
constexpr uint32_t kSingleInf = 0x7F800000u;
constexpr uint64_t kDoubleInf = 0x7FF0000000000000ull;

inline uint64_t double_bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}
inline double double_from_bits(uint64_t u) {
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}
inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline float float_from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// ---- Decoding: every MN-Core value is exactly an IEEE double (and half/single an IEEE float).

// Value of an MN-Core half; exact.
double half_to_double(uint16_t h);
// Value of an MN-Core single as an IEEE float / double; exact. Zero and infinity exponents
// read as ±0 and ±inf whatever the mantissa.
float single_to_float(uint32_t s);
double single_to_double(uint32_t s);
// Value of an MN-Core double as an IEEE double; exact.
double double_to_ieee(uint64_t d);

// Fast exact half -> IEEE float (used by the MAU's inner loops; tested against half_to_double).
inline float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 9) & 0x3Fu;
  const uint32_t man = h & 0x1FFu;
  uint32_t bits;
  if (exp == 0) {
    bits = sign;
  } else if (exp == 0x3F) {
    bits = sign | 0x7F800000u;
  } else {
    bits = sign | ((exp + (127 - 31)) << 23) | (man << 14);  // rebias 31 -> 127
  }
  return float_from_bits(bits);
}

// ---- Encoding: IEEE double -> MN-Core format with the contract's rounding (RNE, unbounded
// exponent, then flush to ±0 / overflow to ±inf; NaN -> +inf).
uint16_t half_from_double(double x);
uint32_t single_from_double(double x);
uint64_t double_from_ieee(double x);  // IEEE subnormal -> ±0, NaN -> +inf, else same bits
// IEEE single -> MN single: subnormal -> ±0, NaN -> +inf, else the same bits.
uint32_t single_from_float(float x);

// Generic forms over the three formats; bits travel in a uint64_t.
double to_double(FloatFormat f, uint64_t bits);
uint64_t from_double(FloatFormat f, double x);

// ---- Arithmetic, correctly rounded per the contract. Half and single operands are exact in
// double and double has more than 2p+2 bits for both, so computing in double and rounding
// once to the target is the same as rounding the exact result once. Double results are
// rounded with an unbounded exponent (by scaling), then flushed.
uint64_t add(FloatFormat f, uint64_t a, uint64_t b);
uint64_t sub(FloatFormat f, uint64_t a, uint64_t b);
uint64_t mul(FloatFormat f, uint64_t a, uint64_t b);
uint64_t div(FloatFormat f, uint64_t a, uint64_t b);
// Larger / smaller by value; max(+0, -0) = +0, min(+0, -0) = -0; results are canonical
// (a zero or infinity exponent comes out with a zero mantissa).
uint64_t max(FloatFormat f, uint64_t a, uint64_t b);
uint64_t min(FloatFormat f, uint64_t a, uint64_t b);
// Ordered comparison by value (±0 equal, +inf greater than everything else).
bool less(FloatFormat f, uint64_t a, uint64_t b);
bool equal(FloatFormat f, uint64_t a, uint64_t b);
// Format conversion with the contract's rounding.
uint64_t convert(FloatFormat from, FloatFormat to, uint64_t bits);

// Readable value for messages ("1.5", "+inf", "-0").
std::string to_string(FloatFormat f, uint64_t bits);

}  // namespace npuvp::mncore
