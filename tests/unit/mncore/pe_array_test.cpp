// ALU instructions over every PE: lanes and widths, masks and identity values for
// divergence, one step per instruction, and the errors a bad operand gives.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "tests/support/mncore_board.h"
#include "tlm/log.h"
#include "tests/support/error_of.h"

namespace npuvp::mncore {
namespace {

// An MN-Core half for a value that is exactly representable (no rounding): an independent
// encoder for test data, from the format's definition (1-6-9, bias 31).
uint16_t exact_half(double v) {
  if (v == 0) return std::signbit(v) ? 0x8000 : 0;
  int e = 0;
  const double m = std::frexp(std::fabs(v), &e);  // v = m 2^e, m in [0.5, 1)
  const double frac = (m * 2 - 1) * 512;           // 9 fraction bits
  EXPECT_EQ(frac, std::floor(frac)) << v << " is not exact in half";
  return static_cast<uint16_t>((v < 0 ? 0x8000 : 0) | ((e - 1 + 31) << 9) | static_cast<unsigned>(frac));
}

using npuvp::testing::error_of;

class MncoreAlu : public ::testing::Test {
 protected:
  void SetUp() override { board = test::make_board(); }
  unsigned pes() const { return board->topology().pes(); }
  void put(Mem m, unsigned pe, unsigned sw, uint32_t v) { board->debug_write(m, pe, sw * 4ull, &v, 4); }
  uint32_t get(Mem m, unsigned pe, unsigned sw) {
    uint32_t v = 0;
    board->debug_read(m, pe, sw * 4ull, &v, 4);
    return v;
  }
  std::unique_ptr<Board> board;
};

TEST_F(MncoreAlu, HalfAddOverEveryLaneOfEveryPe) {
  // LW access = 4 halves per PE; PE p lane i holds p + i/4 and 2*i.
  for (unsigned p = 0; p < pes(); ++p) {
    for (unsigned i = 0; i < 4; ++i) {
      const uint32_t a = exact_half(p + i / 4.0), b = exact_half(2.0 * i);
      const uint32_t sw = i / 2, shift = 16 * (i % 2);
      put(Mem::LM0, p, sw, (get(Mem::LM0, p, sw) & ~(0xFFFFu << shift)) | (a << shift));
      put(Mem::LM1, p, 8 + sw, (get(Mem::LM1, p, 8 + sw) & ~(0xFFFFu << shift)) | (b << shift));
    }
  }
  const BoardRun& r = test::run(*board, "fadd.h $lm0 $ln8 $lr2");
  for (unsigned p = 0; p < pes(); ++p) {
    for (unsigned i = 0; i < 4; ++i) {
      const uint32_t got = (get(Mem::GRF0, p, 2 + i / 2) >> (16 * (i % 2))) & 0xFFFF;
      ASSERT_EQ(got, exact_half(p + i / 4.0 + 2.0 * i)) << "PE " << p << " lane " << i;
    }
  }
  EXPECT_EQ(r.cycles, 4u);  // one instruction, one 4-cycle step
  EXPECT_EQ(r.alu_instructions, 1u);
}

TEST_F(MncoreAlu, ImmediatesAndFloatFormats) {
  test::run(*board,
            "fadd.f $lm0 2.5 $lm0\n"     // 0 + 2.5 in both single lanes
            "fmul.f $lm0 -4 $lm2\n"      // an integer immediate in a float op is its value
            "fadd.d $lm8 0.125 $lm4\n"   // double, from a zero LW
            "fsub.h $m6 1 $m6\n"         // two half lanes of one SW
            "fmax.h $m6 -0.5 $m7\n");
  for (unsigned p : {0u, pes() - 1}) {
    EXPECT_EQ(get(Mem::LM0, p, 0), 0x40200000u);  // 2.5f
    EXPECT_EQ(get(Mem::LM0, p, 1), 0x40200000u);
    EXPECT_EQ(get(Mem::LM0, p, 2), 0xC1200000u);  // -10.0f
    EXPECT_EQ(get(Mem::LM0, p, 4), 0u);           // 0.125 as a double: 0x3FC0000000000000
    EXPECT_EQ(get(Mem::LM0, p, 5), 0x3FC00000u);
    const uint32_t minus_one = exact_half(-1.0), minus_half = exact_half(-0.5);
    EXPECT_EQ(get(Mem::LM0, p, 6), minus_one | (minus_one << 16));
    EXPECT_EQ(get(Mem::LM0, p, 7), minus_half | (minus_half << 16));
  }
}

TEST_F(MncoreAlu, ConversionRoundsAndKeepsTheLaneCount) {
  // Two singles per PE: 1 + 2^-10 + 2^-11 (3/4 of a half ulp: rounds up to 1 + 2^-9) and 3.0.
  for (unsigned p = 0; p < pes(); ++p) {
    put(Mem::GRF1, p, 0, 0x3F803000u);
    put(Mem::GRF1, p, 1, 0x40400000u);
  }
  test::run(*board, "fcvt.f.h $ls0 $m0\nfcvt.h.d $m0 $lls4");
  EXPECT_EQ(get(Mem::LM0, 9, 0), 0x3E01u | (uint32_t(exact_half(3.0)) << 16));
  EXPECT_EQ(get(Mem::GRF1, 9, 4), 0u);  // 1 + 2^-9 as a double: 0x3FF0080000000000
  EXPECT_EQ(get(Mem::GRF1, 9, 5), 0x3FF00800u);
  EXPECT_EQ(get(Mem::GRF1, 9, 7), 0x40080000u);  // 3.0
}

TEST_F(MncoreAlu, IntegerAndLogicOps) {
  for (unsigned p = 0; p < pes(); ++p) put(Mem::LM1, p, 0, p);
  test::run(*board,
            "iadd $n0 0x7fffffff $n1\n"
            "isub $n0 1 $n2\n"
            "shl $n0 4 $n3\n"
            "shr $n3 2 $n4\n"
            "xor $n0 0xff $n5\n"
            "and $n5 0xf0 $n6\n"
            "or $n6 1 $n7\n");
  for (unsigned p = 0; p < pes(); ++p) {
    EXPECT_EQ(get(Mem::LM1, p, 1), 0x7fffffffu + p);  // wraps past INT_MAX
    EXPECT_EQ(get(Mem::LM1, p, 2), p - 1u);            // PE 0: 0xffffffff
    EXPECT_EQ(get(Mem::LM1, p, 3), p << 4);
    EXPECT_EQ(get(Mem::LM1, p, 4), p << 2);
    EXPECT_EQ(get(Mem::LM1, p, 5), p ^ 0xffu);
    EXPECT_EQ(get(Mem::LM1, p, 6), (p ^ 0xffu) & 0xf0u);
    EXPECT_EQ(get(Mem::LM1, p, 7), ((p ^ 0xffu) & 0xf0u) | 1u);
  }
}

TEST_F(MncoreAlu, IdentityValuesTellEveryPeWhereItIs) {
  test::run(*board,
            "mov $groupid $m0\nmov $l2bid $m1\nmov $l1bid $m2\nmov $mabid $m3\nmov $peid $m4\nmov $peindex $m5");
  // small_board(): 2 groups x 2 L2B x 2 L1B x 2 MAB x 4 PE, flat index Group-major.
  for (unsigned p = 0; p < pes(); ++p) {
    EXPECT_EQ(get(Mem::LM0, p, 0), p / 32);
    EXPECT_EQ(get(Mem::LM0, p, 1), p / 16 % 2);
    EXPECT_EQ(get(Mem::LM0, p, 2), p / 8 % 2);
    EXPECT_EQ(get(Mem::LM0, p, 3), p / 4 % 2);
    EXPECT_EQ(get(Mem::LM0, p, 4), p % 4);
    EXPECT_EQ(get(Mem::LM0, p, 5), p);
  }
}

TEST_F(MncoreAlu, MasksMakePesDiverge) {
  for (unsigned p = 0; p < pes(); ++p) put(Mem::LM0, p, 0, 100);
  test::run(*board,
            "icmp.eq $peid 2 $mk1\n"          // PE 2 of every MAB
            "mov 7 $m0 ?$mk1\n"
            "icmp.lt $peindex 10 $mk2\n"
            "iadd $m0 1 $m0 ?!$mk2\n"         // every PE from index 10 on
            "icmp.ge $groupid 1 $mk3\n");
  for (unsigned p = 0; p < pes(); ++p) {
    const uint32_t want = (p % 4 == 2 ? 7u : 100u) + (p >= 10 ? 1u : 0u);
    EXPECT_EQ(get(Mem::LM0, p, 0), want) << "PE " << p;
    EXPECT_EQ(board->pes().mask(3)[p], p >= 32 ? 1 : 0) << "PE " << p;
  }
}

TEST_F(MncoreAlu, FloatComparesAreByValue) {
  for (unsigned p = 0; p < pes(); ++p) put(Mem::GRF0, p, 0, exact_half(double(p) - 32.0));
  test::run(*board, "fcmp.lt.h $r0 0 $mk0\nfcmp.eq.h $r0 -0.0 $mk1\nfcmp.ge.h $r0 31 $mk2");
  for (unsigned p = 0; p < pes(); ++p) {
    EXPECT_EQ(board->pes().mask(0)[p], p < 32 ? 1 : 0);
    EXPECT_EQ(board->pes().mask(1)[p], p == 32 ? 1 : 0);  // +0 == -0
    EXPECT_EQ(board->pes().mask(2)[p], p >= 63 ? 1 : 0);
  }
}

TEST_F(MncoreAlu, EveryInstructionIsOneStep) {
  std::string program;
  for (int i = 0; i < 25; ++i) program += "iadd $r0 1 $r0\n";
  program += "nop\n";
  const BoardRun& r = test::run(*board, program);
  EXPECT_EQ(r.cycles, 26u * 4);
  EXPECT_EQ(r.instructions, 26u);
  EXPECT_EQ(get(Mem::GRF0, 17, 0), 25u);
}

TEST_F(MncoreAlu, OutOfRangeOperandNamesInstructionAndTime) {
  // small_board(): LM0 = 512 LW = 1024 SW. Two steps (8 cycles of 1333 ps) have passed.
  const std::string e = error_of([&] { test::run(*board, "nop\nnop\nmov $lm1022 $lm1024\n"); });
  EXPECT_NE(e.find("mncore2.sequencer @ 10.664 ns: test.s line 3 `mov $lm1022 $lm1024`"), std::string::npos) << e;
  EXPECT_NE(e.find("LM0 address 1024 + 8 bytes is beyond its 1024 SW"), std::string::npos) << e;
}

TEST_F(MncoreAlu, MisalignedAndMissingMaskAreErrors) {
  EXPECT_NE(error_of([&] { test::run(*board, "mov $lr3 $lr4"); }).find("GRF0 address 3 is not LW aligned"),
            std::string::npos);
}

TEST_F(MncoreAlu, MissingMaskRegisterIsAnError) {
  EXPECT_NE(error_of([&] { test::run(*board, "mov 1 $r0 ?$mk9"); }).find("predicate $mk9 does not exist"),
            std::string::npos);
}

}  // namespace
}  // namespace npuvp::mncore
