// The MN-Core 2 number formats against the seed's table 7.2 (one test per row and format),
// an independent formula for every half, and the contract's rounding, overflow, underflow
// and NaN replacement (docs/mncore2-isa.md, "Numbers").
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <ostream>
#include <string>

#include "models/numerics/mncore_float.h"

namespace npuvp::mncore {
namespace numerics_test {

// One row of table 7.2 for one format: the bit pattern, and either an exact value or the
// table's printed real value ("%g" with 6 significant digits).
struct TableRow {
  const char* row;
  FloatFormat format;
  uint64_t bits;
  double exact;          // NaN when the table only prints a rounded real value
  const char* printed;   // nullptr when `exact` is given
};

std::string print_g(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

const double kNoExact = std::numeric_limits<double>::quiet_NaN();

void PrintTo(const TableRow& r, std::ostream* os) { *os << r.row << " " << info(r.format).name; }

class SeedTable : public ::testing::TestWithParam<TableRow> {};

TEST_P(SeedTable, BitsDecodeToTheValueAndTheValueEncodesToTheBits) {
  const TableRow& r = GetParam();
  const double value = to_double(r.format, r.bits);
  if (r.printed) {
    EXPECT_EQ(print_g(value), r.printed);
  } else {
    EXPECT_EQ(value, r.exact);
    EXPECT_EQ(std::signbit(value), std::signbit(r.exact)) << "sign of zero";
  }
  EXPECT_EQ(from_double(r.format, value), r.bits) << std::hex << "encode(" << value << ")";
}

INSTANTIATE_TEST_SUITE_P(
    Table72, SeedTable,
    ::testing::Values(
        TableRow{"plus_zero", FloatFormat::Half, 0x0000, 0.0, nullptr},
        TableRow{"plus_zero", FloatFormat::Single, 0x00000000, 0.0, nullptr},
        TableRow{"plus_zero", FloatFormat::Double, 0x0000000000000000, 0.0, nullptr},
        TableRow{"minus_zero", FloatFormat::Half, 0x8000, -0.0, nullptr},
        TableRow{"minus_zero", FloatFormat::Single, 0x80000000, -0.0, nullptr},
        TableRow{"minus_zero", FloatFormat::Double, 0x8000000000000000, -0.0, nullptr},
        TableRow{"plus_one", FloatFormat::Half, 0x3E00, 1.0, nullptr},
        TableRow{"plus_one", FloatFormat::Single, 0x3F800000, 1.0, nullptr},
        TableRow{"plus_one", FloatFormat::Double, 0x3FF0000000000000, 1.0, nullptr},
        TableRow{"max_normal", FloatFormat::Half, 0x7DFF, kNoExact, "4.29077e+09"},
        TableRow{"max_normal", FloatFormat::Single, 0x7F7FFFFF, kNoExact, "3.40282e+38"},
        TableRow{"max_normal", FloatFormat::Double, 0x7FEFFFFFFFFFFFFF, kNoExact, "1.79769e+308"},
        TableRow{"min_normal", FloatFormat::Half, 0x0200, kNoExact, "9.31323e-10"},
        TableRow{"min_normal", FloatFormat::Single, 0x00800000, kNoExact, "1.17549e-38"},
        TableRow{"min_normal", FloatFormat::Double, 0x0010000000000000, kNoExact, "2.22507e-308"},
        TableRow{"plus_inf", FloatFormat::Half, 0x7E00, HUGE_VAL, nullptr},
        TableRow{"plus_inf", FloatFormat::Single, 0x7F800000, HUGE_VAL, nullptr},
        TableRow{"plus_inf", FloatFormat::Double, 0x7FF0000000000000, HUGE_VAL, nullptr}),
    [](const ::testing::TestParamInfo<TableRow>& p) {
      return std::string(p.param.row) + "_" + npuvp::mncore::info(p.param.format).name;
    });

TEST(MncoreFloat, FormatLayoutsAreTable71) {
  EXPECT_EQ(kHalfInfo.exponent_bits, 6u);
  EXPECT_EQ(kHalfInfo.mantissa_bits, 9u);
  EXPECT_EQ(kHalfInfo.bias, 31);
  EXPECT_EQ(kSingleInfo.exponent_bits, 8u);
  EXPECT_EQ(kSingleInfo.mantissa_bits, 23u);
  EXPECT_EQ(kDoubleInfo.exponent_bits, 11u);
  EXPECT_EQ(kDoubleInfo.mantissa_bits, 52u);
}

// (-1)^s (1 + m/512) 2^(e-31) for normal e; ±0 for e = 0 and ±inf for e = 63 whatever m.
double half_formula(uint32_t h) {
  const int s = (h >> 15) & 1, e = (h >> 9) & 63, m = h & 511;
  const double sign = s ? -1.0 : 1.0;
  if (e == 0) return sign * 0.0;
  if (e == 63) return sign * HUGE_VAL;
  return sign * std::ldexp(1.0 + m / 512.0, e - 31);
}

TEST(MncoreFloat, EveryHalfDecodesAsTheFormulaAndRoundTrips) {
  for (uint32_t h = 0; h < 65536; ++h) {
    const double want = half_formula(h);
    const double got = half_to_double(static_cast<uint16_t>(h));
    ASSERT_EQ(got, want) << std::hex << "0x" << h;
    ASSERT_EQ(std::signbit(got), std::signbit(want)) << std::hex << "0x" << h;
    ASSERT_EQ(static_cast<double>(half_to_float(static_cast<uint16_t>(h))), want) << std::hex << "0x" << h;
    // Canonical encoding: a zero or infinity exponent comes back with a zero mantissa.
    const uint32_t e = (h >> 9) & 63;
    const uint32_t canonical = (e == 0 || e == 63) ? (h & 0xFE00) : h;
    ASSERT_EQ(half_from_double(got), canonical) << std::hex << "0x" << h;
  }
}

TEST(MncoreFloat, ZeroExponentIsZeroAndAllOnesIsInfinityWhateverTheMantissa) {
  EXPECT_EQ(half_to_double(0x0001), 0.0);
  EXPECT_TRUE(std::signbit(half_to_double(0x81FF)));
  EXPECT_EQ(half_to_double(0x81FF), 0.0);
  EXPECT_EQ(half_to_double(0x7E01), HUGE_VAL);
  EXPECT_EQ(half_to_double(0xFFFF), -HUGE_VAL);
  EXPECT_EQ(single_to_double(0x007FFFFF), 0.0);   // an IEEE subnormal pattern
  EXPECT_EQ(single_to_double(0x7FC00000), HUGE_VAL);  // an IEEE NaN pattern
  EXPECT_EQ(single_to_double(0xFFC00001), -HUGE_VAL);
  EXPECT_EQ(double_to_ieee(0x000FFFFFFFFFFFFF), 0.0);
  EXPECT_EQ(double_to_ieee(0x7FF8000000000000), HUGE_VAL);
}

TEST(MncoreFloat, HalfRoundsToNearestEven) {
  const double one = 1.0, ulp = std::ldexp(1.0, -9);
  EXPECT_EQ(half_from_double(one + ulp / 2), 0x3E00);                  // tie, 1.0 is even
  EXPECT_EQ(half_from_double(one + 3 * ulp / 2), 0x3E02);              // tie, up to even
  EXPECT_EQ(half_from_double(one + ulp / 2 + std::ldexp(1.0, -40)), 0x3E01);
  EXPECT_EQ(half_from_double(one + ulp / 2 - std::ldexp(1.0, -40)), 0x3E00);
  EXPECT_EQ(half_from_double(-(one + 3 * ulp / 2)), 0xBE02);
  // A carry out of the mantissa moves to the next binade: just under 2 rounds to 2.0.
  EXPECT_EQ(half_from_double(2.0 - std::ldexp(1.0, -12)), 0x4000);
}

TEST(MncoreFloat, OverflowGoesToInfinity) {
  const double max = half_to_double(kHalfMax);  // 2^32 - 2^22
  const double half_ulp = std::ldexp(1.0, 21);
  EXPECT_EQ(max, std::ldexp(1.0, 32) - std::ldexp(1.0, 22));
  EXPECT_EQ(half_from_double(max + half_ulp - 1), kHalfMax);
  EXPECT_EQ(half_from_double(max + half_ulp), kHalfInf);  // tie: max's mantissa is odd
  EXPECT_EQ(half_from_double(-1e30), 0xFE00);
  EXPECT_EQ(single_from_double(std::ldexp(1.0, 128)), kSingleInf);
  EXPECT_EQ(single_from_double(-std::ldexp(1.0, 200)), 0xFF800000u);
  EXPECT_EQ(mul(FloatFormat::Half, 0x7DFF, 0x4000), kHalfInf);  // max * 2
  EXPECT_EQ(add(FloatFormat::Double, 0x7FEFFFFFFFFFFFFF, 0x7FEFFFFFFFFFFFFF), kDoubleInf);
}

TEST(MncoreFloat, UnderflowGoesToSignedZeroAfterRounding) {
  const double min = std::ldexp(1.0, -30);
  EXPECT_EQ(half_from_double(min / 2), 0x0000);
  EXPECT_EQ(half_from_double(-min / 2), 0x8000);
  // Below the minimum normal but rounding (unbounded exponent, 10 bits) up to it: kept.
  EXPECT_EQ(half_from_double(min - std::ldexp(1.0, -42)), kHalfMinNormal);
  EXPECT_EQ(half_from_double(min - std::ldexp(1.0, -41)), kHalfMinNormal);  // tie to even
  EXPECT_EQ(half_from_double(min - std::ldexp(1.0, -41) - std::ldexp(1.0, -60)), 0x0000);
  // (1 - 2^-10) * 2^-30 is exact at 10 bits and below the minimum: zero, not rounded up.
  EXPECT_EQ(mul(FloatFormat::Half, 0x3DFF, kHalfMinNormal), 0x0000);
  EXPECT_EQ(mul(FloatFormat::Half, 0xBDFF, kHalfMinNormal), 0x8000);
  // IEEE single subnormals from the host become ±0.
  EXPECT_EQ(single_from_float(std::numeric_limits<float>::denorm_min()), 0u);
  EXPECT_EQ(single_from_float(-std::numeric_limits<float>::denorm_min()), 0x80000000u);
  // Double: (1 - 2^-53) * 2^-1022 = 2^-1022 - 2^-1075. IEEE's gradual underflow rounds it to
  // 2^-1022; the contract rounds at 53 bits with an unbounded exponent (exact) and flushes.
  EXPECT_EQ(mul(FloatFormat::Double, 0x3FEFFFFFFFFFFFFF, 0x0010000000000000), 0u);
  EXPECT_EQ(std::ldexp(1.0 - std::ldexp(1.0, -53), -1022), std::ldexp(1.0, -1022))
      << "IEEE really does round this one up";
  EXPECT_EQ(sub(FloatFormat::Double, 0x0018000000000000, 0x0010000000000000 | 0x0008000000000001), 0x8000000000000000u);
}

TEST(MncoreFloat, WhereIeeeGivesNanTheResultIsPlusInfinity) {
  for (FloatFormat f : {FloatFormat::Half, FloatFormat::Single, FloatFormat::Double}) {
    const uint64_t inf = from_double(f, HUGE_VAL), minus_inf = from_double(f, -HUGE_VAL);
    const uint64_t zero = from_double(f, 0.0), minus_zero = from_double(f, -0.0);
    const uint64_t pos_inf = from_double(f, HUGE_VAL);
    SCOPED_TRACE(info(f).name);
    EXPECT_EQ(sub(f, inf, inf), pos_inf);               // inf - inf
    EXPECT_EQ(add(f, minus_inf, inf), pos_inf);         // -inf + inf
    EXPECT_EQ(sub(f, minus_inf, minus_inf), pos_inf);
    EXPECT_EQ(mul(f, zero, inf), pos_inf);              // 0 * inf
    EXPECT_EQ(mul(f, minus_zero, inf), pos_inf);        // sign does not matter
    EXPECT_EQ(mul(f, minus_inf, zero), pos_inf);
    EXPECT_EQ(div(f, zero, zero), pos_inf);             // 0 / 0
    EXPECT_EQ(div(f, minus_inf, inf), pos_inf);         // inf / inf
    EXPECT_EQ(from_double(f, std::nan("")), pos_inf);   // a NaN from the host
    EXPECT_EQ(from_double(f, -std::nan("")), pos_inf);
    // Not NaN in IEEE either: the ordinary rules.
    EXPECT_EQ(div(f, from_double(f, -1.0), zero), minus_inf);
    EXPECT_EQ(div(f, from_double(f, 1.0), inf), zero);
    EXPECT_EQ(add(f, inf, from_double(f, -3.0)), inf);
  }
  EXPECT_EQ(single_from_float(std::numeric_limits<float>::quiet_NaN()), kSingleInf);
}

TEST(MncoreFloat, ArithmeticIsCorrectlyRounded) {
  // 1 + 2^-10 is a tie at half precision: even (1.0) wins.
  EXPECT_EQ(add(FloatFormat::Half, kHalfOne, half_from_double(std::ldexp(1.0, -10))), kHalfOne);
  // 3 * (1 + 2^-9) = 3 + 3 * 2^-9: in [2,4) the ulp is 2^-8, so 3 + 1.5 * 2^-8 -> 3 + 2^-7.
  EXPECT_EQ(half_to_double(static_cast<uint16_t>(mul(FloatFormat::Half, half_from_double(3.0), 0x3E01))),
            3.0 + std::ldexp(1.0, -7));
  // Single: 1/3 rounds as IEEE single does.
  EXPECT_EQ(div(FloatFormat::Single, single_from_float(1.0f), single_from_float(3.0f)),
            single_from_float(1.0f / 3.0f));
  EXPECT_EQ(sub(FloatFormat::Single, single_from_float(2.5f), single_from_float(2.5f)), 0u);  // +0
  EXPECT_EQ(add(FloatFormat::Half, 0x8000, 0x8000), 0x8000u);  // -0 + -0 = -0
}

TEST(MncoreFloat, MaxMinAndComparisons) {
  const auto h = [](double v) { return static_cast<uint64_t>(half_from_double(v)); };
  EXPECT_EQ(max(FloatFormat::Half, h(-2), h(1)), h(1));
  EXPECT_EQ(min(FloatFormat::Half, h(-2), h(1)), h(-2));
  EXPECT_EQ(max(FloatFormat::Half, h(0.0), h(-0.0)), 0x0000u);
  EXPECT_EQ(min(FloatFormat::Half, h(0.0), h(-0.0)), 0x8000u);
  EXPECT_EQ(max(FloatFormat::Half, 0x7E05, h(1)), kHalfInf);  // canonical infinity
  EXPECT_TRUE(less(FloatFormat::Half, h(1), kHalfInf));
  EXPECT_TRUE(equal(FloatFormat::Half, 0x0000, 0x8000));
  EXPECT_TRUE(equal(FloatFormat::Half, 0x0001, 0x0000));  // both are +0
}

TEST(MncoreFloat, ConversionsBetweenFormats) {
  EXPECT_EQ(convert(FloatFormat::Half, FloatFormat::Single, kHalfOne), 0x3F800000u);
  EXPECT_EQ(convert(FloatFormat::Half, FloatFormat::Double, kHalfMax),
            double_bits(std::ldexp(1.0, 32) - std::ldexp(1.0, 22)));
  EXPECT_EQ(convert(FloatFormat::Single, FloatFormat::Half, single_from_float(1e10f)), kHalfInf);
  EXPECT_EQ(convert(FloatFormat::Single, FloatFormat::Half, single_from_float(1e-10f)), 0u);
  EXPECT_EQ(convert(FloatFormat::Double, FloatFormat::Single, double_bits(1e39)), kSingleInf);
  EXPECT_EQ(convert(FloatFormat::Single, FloatFormat::Half, 0x3F801000u), 0x3E00u);  // 1 + 2^-11
  EXPECT_EQ(to_string(FloatFormat::Half, kHalfInf), "+inf");
  EXPECT_EQ(to_string(FloatFormat::Half, 0x8000), "-0");
  EXPECT_EQ(to_string(FloatFormat::Half, 0x3F00), "1.5");
  EXPECT_EQ(to_string(FloatFormat::Half, 0x4000), "2");
}

}  // namespace numerics_test
}  // namespace npuvp::mncore
