// The MAU: the weight-register layout, mmacc against a reference of the numeric contract
// (sequential k, MN-Core single rounding per addition, flush to zero, +inf for NaN), masks,
// and its cost.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "models/numerics/mncore_float.h"
#include "tests/support/mncore_board.h"
#include "tlm/log.h"

namespace npuvp::mncore {
namespace {

class MncoreMau : public ::testing::Test {
 protected:
  void SetUp() override {
    board = test::make_board();
    n = board->topology().pes();
    k = board->topology().mau_k;
    cols = board->topology().mau_n;
    per_mab = board->topology().pe_per_mab;
  }
  void put_half(Mem m, unsigned pe, uint64_t sw_base, unsigned i, uint16_t h) {
    uint32_t w = 0;
    board->debug_read(m, pe, (sw_base + i / 2) * 4, &w, 4);
    const unsigned shift = 16 * (i % 2);
    w = (w & ~(0xFFFFu << shift)) | (uint32_t(h) << shift);
    board->debug_write(m, pe, (sw_base + i / 2) * 4, &w, 4);
  }
  uint32_t get_sw(Mem m, unsigned pe, uint64_t sw) {
    uint32_t w = 0;
    board->debug_read(m, pe, sw * 4, &w, 4);
    return w;
  }
  void put_sw(Mem m, unsigned pe, uint64_t sw, uint32_t v) { board->debug_write(m, pe, sw * 4, &v, 4); }

  std::unique_ptr<Board> board;
  unsigned n = 0, k = 0, cols = 0, per_mab = 0;
};

TEST_F(MncoreMau, WeightRowsComeFromThePesOfTheMab) {
  // PE q of a MAB supplies rows q*K/P .. from consecutive halves at its operand.
  const unsigned rows = k / per_mab;
  for (unsigned p = 0; p < n; ++p) {
    for (unsigned i = 0; i < rows * cols; ++i) put_half(Mem::LM1, p, 8, i, static_cast<uint16_t>(p * 256 + i));
  }
  const BoardRun& r = test::run(*board, "mwload $ln8");
  for (unsigned m = 0; m < n / per_mab; ++m) {
    for (unsigned kk = 0; kk < k; ++kk) {
      for (unsigned c = 0; c < cols; ++c) {
        const unsigned pe = m * per_mab + kk / rows;
        ASSERT_EQ(board->mau().weight(m, kk, c), static_cast<uint16_t>(pe * 256 + (kk % rows) * cols + c))
            << "MAB " << m << " W[" << kk << "][" << c << "]";
      }
    }
  }
  EXPECT_EQ(r.cycles, uint64_t(board->topology().mau_wload_steps) * board->topology().cycles_per_step);
}

// Random MN-Core halves over the whole exponent range, with zeros and infinities mixed in.
uint16_t random_half(std::mt19937& rng) {
  const uint32_t r = rng();
  switch (r % 16) {
    case 0: return 0x0000;
    case 1: return 0x7E00 | (r & 0x8000);  // ±inf
    case 2: return static_cast<uint16_t>(((r >> 8) & 0x8000) | (1u << 9) | ((r >> 4) & 0x1FF));  // tiny
    case 3: return static_cast<uint16_t>(((r >> 8) & 0x8000) | (62u << 9) | ((r >> 4) & 0x1FF));  // huge
    default: {
      const uint32_t e = 24 + (r >> 4) % 15;  // values around 2^-7 .. 2^7
      return static_cast<uint16_t>(((r >> 8) & 0x8000) | (e << 9) | ((r >> 16) & 0x1FF));
    }
  }
}

// The contract, from the definition: acc = round_single(acc + a*w) for k = 0, 1, ...
// (the product is exact in double and single; the sum in double then rounded once to MN
// single is the correctly rounded sum).
uint32_t reference_dot(uint32_t acc, const std::vector<uint16_t>& a, const std::vector<uint16_t>& w_column) {
  for (size_t i = 0; i < a.size(); ++i) {
    const double product = half_to_double(a[i]) * half_to_double(w_column[i]);
    acc = single_from_double(single_to_double(acc) + product);
  }
  return acc;
}

TEST_F(MncoreMau, MultiplyAccumulateMatchesTheContractBitForBit) {
  std::mt19937 rng(7);
  // W tile per MAB (via mwload from LM0 at SW 0), A per PE at LM0 SW 64, acc per PE at GRF1 SW 32.
  const unsigned rows = k / per_mab;
  std::vector<uint16_t> w(uint64_t(n / per_mab) * k * cols), a(uint64_t(n) * k);
  std::vector<uint32_t> acc(uint64_t(n) * cols);
  for (unsigned m = 0; m < n / per_mab; ++m) {
    for (unsigned kk = 0; kk < k; ++kk) {
      for (unsigned c = 0; c < cols; ++c) {
        const uint16_t h = random_half(rng);
        w[(uint64_t(m) * k + kk) * cols + c] = h;
        put_half(Mem::LM0, m * per_mab + kk / rows, 0, (kk % rows) * cols + c, h);
      }
    }
  }
  for (unsigned p = 0; p < n; ++p) {
    for (unsigned kk = 0; kk < k; ++kk) {
      a[uint64_t(p) * k + kk] = random_half(rng);
      put_half(Mem::LM0, p, 64, kk, a[uint64_t(p) * k + kk]);
    }
    for (unsigned c = 0; c < cols; ++c) {
      // Accumulators: ordinary singles, an occasional infinity, and non-canonical patterns
      // (zero exponent with a mantissa) that must read as zero.
      uint32_t s = single_from_double((double(rng() % 2001) - 1000.0) / 64.0);
      if (c == 3) s = 0x00000123u;
      if (c == 5 && p % 7 == 0) s = 0xFF800000u;
      acc[uint64_t(p) * cols + c] = s;
      put_sw(Mem::GRF1, p, 32 + c, s);
    }
  }
  const BoardRun& r = test::run(*board, "mwload $lm0\nmmacc.h $lm64 $ls32\nmmacc.h $lm64 $ls32");
  uint64_t checked = 0, infinities = 0, zeros = 0;
  for (unsigned p = 0; p < n; ++p) {
    const unsigned m = p / per_mab;
    std::vector<uint16_t> ap(a.begin() + uint64_t(p) * k, a.begin() + uint64_t(p + 1) * k);
    for (unsigned c = 0; c < cols; ++c) {
      std::vector<uint16_t> wc(k);
      for (unsigned kk = 0; kk < k; ++kk) wc[kk] = w[(uint64_t(m) * k + kk) * cols + c];
      const uint32_t once = reference_dot(acc[uint64_t(p) * cols + c], ap, wc);
      const uint32_t want = reference_dot(once, ap, wc);  // the program runs mmacc twice
      ASSERT_EQ(get_sw(Mem::GRF1, p, 32 + c), want) << "PE " << p << " column " << c;
      ++checked;
      infinities += (want & 0x7F800000u) == 0x7F800000u;
      zeros += (want & 0x7FFFFFFFu) == 0;
    }
  }
  EXPECT_EQ(checked, uint64_t(n) * cols);
  EXPECT_GT(infinities, 0u);  // the special cases really were exercised
  EXPECT_EQ(r.macs, 2ull * n * k * cols);
  EXPECT_EQ(r.mmacc_instructions, 2u);
}

TEST_F(MncoreMau, NanCasesGivePlusInfinity) {
  // A = [inf, 0, ...], W column 0 = [0, ...]: inf * 0 -> +inf. Column 1: [1, ...] with A[0] = inf
  // and an accumulator of -inf: -inf + inf -> +inf.
  for (unsigned p = 0; p < n; ++p) {
    put_half(Mem::LM0, p, 64, 0, 0xFE00);  // -inf
    put_sw(Mem::GRF0, p, 1, 0x7F800000u);  // acc[1] = +inf
  }
  const unsigned rows = k / per_mab;
  for (unsigned m = 0; m < n / per_mab; ++m) put_half(Mem::LM0, m * per_mab, 0, 0 * rows * cols + 1, 0x3E00);  // W[0][1] = 1
  test::run(*board, "mwload $lm0\nmmacc.h $lm64 $lr0");
  for (unsigned p = 0; p < n; ++p) {
    EXPECT_EQ(get_sw(Mem::GRF0, p, 0), 0x7F800000u) << "-inf * 0";
    EXPECT_EQ(get_sw(Mem::GRF0, p, 1), 0x7F800000u) << "+inf + (-inf * 1)";
  }
}

TEST_F(MncoreMau, MaskedPesKeepTheirAccumulators) {
  for (unsigned p = 0; p < n; ++p) {
    put_half(Mem::LM0, p, 64, 0, 0x3E00);  // a[0] = 1
    for (unsigned c = 0; c < cols; ++c) put_sw(Mem::GRF0, p, c, 0x40000000u);  // 2.0
  }
  for (unsigned m = 0; m < n / per_mab; ++m) {
    for (unsigned c = 0; c < cols; ++c) put_half(Mem::LM0, m * per_mab, 0, c, 0x3F00);  // W[0][c] = 1.5
  }
  test::run(*board, "mwload $lm0\nicmp.lt $peid 2 $mk0\nmmacc.h $lm64 $lr0 ?$mk0");
  for (unsigned p = 0; p < n; ++p) {
    EXPECT_EQ(get_sw(Mem::GRF0, p, 7), p % per_mab < 2 ? 0x40600000u : 0x40000000u) << "PE " << p;  // 3.5 or 2.0
  }
}

TEST_F(MncoreMau, WeightLoadCannotBePredicated) {
  try {
    test::run(*board, "mwload $lm0 ?$mk0");
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(error_text(e).find("mwload fills a MAB's shared weight register and cannot be predicated"),
              std::string::npos);
  }
}

TEST_F(MncoreMau, OperandsMustFit) {
  // small_board(): GRF0 = 64 LW = 128 SW; the accumulator run is N = 16 SW.
  try {
    test::run(*board, "mmacc.h $lm0 $lr120");
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(error_text(e).find("GRF0 address 120 + 64 bytes is beyond its 128 SW"), std::string::npos)
        << error_text(e);
  }
}

}  // namespace
}  // namespace npuvp::mncore
