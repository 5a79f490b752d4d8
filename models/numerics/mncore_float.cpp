#include "models/numerics/mncore_float.h"

#include <cmath>
#include <fmt/format.h>

namespace npuvp::mncore {

namespace {

constexpr uint64_t bit_mask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

uint64_t sign_bit(const FormatInfo& f) { return 1ull << (f.total_bits - 1); }
uint64_t exponent_all_ones(const FormatInfo& f) { return bit_mask(f.exponent_bits) << f.mantissa_bits; }
uint64_t positive_infinity(const FormatInfo& f) { return exponent_all_ones(f); }

// Value of a format's bit pattern; exact in double for all three formats.
double decode(const FormatInfo& f, uint64_t bits) {
  const bool negative = (bits & sign_bit(f)) != 0;
  const uint64_t exponent = (bits >> f.mantissa_bits) & bit_mask(f.exponent_bits);
  const uint64_t mantissa = bits & bit_mask(f.mantissa_bits);
  if (exponent == 0) return negative ? -0.0 : 0.0;
  if (exponent == bit_mask(f.exponent_bits)) return negative ? -HUGE_VAL : HUGE_VAL;
  // Rebias into double and widen the fraction: exact, the double has room for all of it.
  const uint64_t e = exponent - static_cast<uint64_t>(f.bias) + 1023;
  const uint64_t frac = mantissa << (52 - f.mantissa_bits);
  return double_from_bits((negative ? 1ull << 63 : 0) | (e << 52) | frac);
}

// Rounds an IEEE double to the format: nearest-even at the format's precision with an
// unbounded exponent, then ±0 below the minimum normal and ±inf above the maximum. NaN is
// +inf (the contract's replacement for every NaN). An IEEE subnormal input is below every
// format's minimum normal (double's included), so it is ±0.
uint64_t encode(const FormatInfo& f, double x) {
  const uint64_t u = double_bits(x);
  const uint64_t out_sign = (u >> 63) ? sign_bit(f) : 0;
  const uint64_t exponent = (u >> 52) & 0x7FF;
  const uint64_t fraction = u & bit_mask(52);
  if (exponent == 0x7FF) return fraction ? positive_infinity(f) : (out_sign | exponent_all_ones(f));
  if (exponent == 0) return out_sign;
  uint64_t significand = (1ull << 52) | fraction;  // 53 bits, leading one at bit 52
  int unbiased = static_cast<int>(exponent) - 1023;
  const unsigned drop = 52 - f.mantissa_bits;
  if (drop > 0) {
    const uint64_t kept = significand >> drop;
    const uint64_t rest = significand & bit_mask(drop);
    const uint64_t halfway = 1ull << (drop - 1);
    uint64_t rounded = kept + ((rest > halfway || (rest == halfway && (kept & 1))) ? 1 : 0);
    if (rounded >> (f.mantissa_bits + 1)) {  // carried into a new leading bit: 1.11..1 -> 10.0
      rounded >>= 1;
      ++unbiased;
    }
    significand = rounded;
  }
  const int biased = unbiased + f.bias;
  if (biased < 1) return out_sign;                                                  // underflow
  if (biased >= static_cast<int>(bit_mask(f.exponent_bits))) return out_sign | exponent_all_ones(f);  // overflow
  return out_sign | (static_cast<uint64_t>(biased) << f.mantissa_bits) | (significand & bit_mask(f.mantissa_bits));
}

bool is_zero(const FormatInfo& f, uint64_t bits) {
  return ((bits >> f.mantissa_bits) & bit_mask(f.exponent_bits)) == 0;
}
bool is_negative(const FormatInfo& f, uint64_t bits) { return (bits & sign_bit(f)) != 0; }

// Double-format product or quotient of two finite non-zero values, rounded once with an
// unbounded exponent: the operation runs on the fractions in [0.5, 1) (no underflow or
// overflow possible there), and the exponent is applied afterwards exactly or not at all.
double scaled(double a, double b, bool divide) {
  int ea = 0, eb = 0, ep = 0;
  const double ma = std::frexp(a, &ea);
  const double mb = std::frexp(b, &eb);
  const double p = divide ? ma / mb : ma * mb;
  const double pm = std::frexp(p, &ep);  // p == pm * 2^ep, pm in [0.5, 1)
  const long total = static_cast<long>(ep) + (divide ? ea - eb : ea + eb);
  // pm * 2^total is normal in double iff total - 1 is in [-1022, 1023].
  if (total - 1 < -1022) return std::copysign(0.0, p);
  if (total - 1 > 1023) return std::copysign(HUGE_VAL, p);
  return std::ldexp(pm, static_cast<int>(total));
}

}  // namespace

double half_to_double(uint16_t h) { return decode(kHalfInfo, h); }
float single_to_float(uint32_t s) { return static_cast<float>(decode(kSingleInfo, s)); }
double single_to_double(uint32_t s) { return decode(kSingleInfo, s); }
double double_to_ieee(uint64_t d) { return decode(kDoubleInfo, d); }

uint16_t half_from_double(double x) { return static_cast<uint16_t>(encode(kHalfInfo, x)); }
uint32_t single_from_double(double x) { return static_cast<uint32_t>(encode(kSingleInfo, x)); }
uint64_t double_from_ieee(double x) { return encode(kDoubleInfo, x); }
uint32_t single_from_float(float x) { return single_from_double(static_cast<double>(x)); }

double to_double(FloatFormat f, uint64_t bits) { return decode(info(f), bits); }
uint64_t from_double(FloatFormat f, double x) { return encode(info(f), x); }

uint64_t add(FloatFormat f, uint64_t a, uint64_t b) {
  // Double: an exact sum of two normals that lands below the minimum normal is a multiple of
  // 2^-1074, so IEEE computes it exactly and encode() flushes it; rounding is IEEE's.
  return encode(info(f), to_double(f, a) + to_double(f, b));
}

uint64_t sub(FloatFormat f, uint64_t a, uint64_t b) {
  return encode(info(f), to_double(f, a) - to_double(f, b));
}

uint64_t mul(FloatFormat f, uint64_t a, uint64_t b) {
  const double x = to_double(f, a), y = to_double(f, b);
  if (f == FloatFormat::Double && std::isfinite(x) && std::isfinite(y) && x != 0 && y != 0) {
    return encode(kDoubleInfo, scaled(x, y, false));
  }
  return encode(info(f), x * y);  // exact for half and single; specials for double
}

uint64_t div(FloatFormat f, uint64_t a, uint64_t b) {
  const double x = to_double(f, a), y = to_double(f, b);
  if (f == FloatFormat::Double && std::isfinite(x) && std::isfinite(y) && x != 0 && y != 0) {
    return encode(kDoubleInfo, scaled(x, y, true));
  }
  return encode(info(f), x / y);
}

bool less(FloatFormat f, uint64_t a, uint64_t b) { return to_double(f, a) < to_double(f, b); }
bool equal(FloatFormat f, uint64_t a, uint64_t b) { return to_double(f, a) == to_double(f, b); }

uint64_t max(FloatFormat f, uint64_t a, uint64_t b) {
  const FormatInfo& fi = info(f);
  if (is_zero(fi, a) && is_zero(fi, b)) {
    return (is_negative(fi, a) && is_negative(fi, b)) ? sign_bit(fi) : 0;
  }
  return encode(fi, less(f, a, b) ? to_double(f, b) : to_double(f, a));
}

uint64_t min(FloatFormat f, uint64_t a, uint64_t b) {
  const FormatInfo& fi = info(f);
  if (is_zero(fi, a) && is_zero(fi, b)) {
    return (is_negative(fi, a) || is_negative(fi, b)) ? sign_bit(fi) : 0;
  }
  return encode(fi, less(f, b, a) ? to_double(f, b) : to_double(f, a));
}

uint64_t convert(FloatFormat from, FloatFormat to, uint64_t bits) {
  return encode(info(to), to_double(from, bits));
}

std::string to_string(FloatFormat f, uint64_t bits) {
  const double v = to_double(f, bits);
  if (std::isinf(v)) return v > 0 ? "+inf" : "-inf";
  if (v == 0) return std::signbit(v) ? "-0" : "0";
  return fmt::format("{}", v);
}

}  // namespace npuvp::mncore
