// The single-core matmul kernel, bit for bit against the numeric contract, at shapes that
// are and are not multiples of the fractal and of the kernel's tiles.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include "sw/kernels/matmul.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/matmul_reference.h"
#include "tikicpulib.h"
#include "tlm/stats.h"

namespace matmul_test {
using npuvp::kernels::MatmulShape;

enum class Core { A2, Coupled910 };

// Runs the f16 matmul of `core`'s kind on its single-core platform and compares C bit for bit
// with the numeric contract.
template <class CT>
void check_matmul(Core core, uint32_t m, uint32_t n, uint32_t k, uint32_t seed) {
  auto& dev = npuvp::testing::make_device({}, core == Core::A2 ? "core910b" : "core910");
  auto a = npuvp::testing::random_halves(size_t(m) * k, seed);
  auto b = npuvp::testing::random_halves(size_t(k) * n, seed + 1);
  auto* ga = static_cast<half*>(AscendC::GmAlloc((a.size() * 2 + 31) / 32 * 32 + 32));  // padded as aclrtMalloc pads: the 910's rows are read in whole blocks
  auto* gb = static_cast<half*>(AscendC::GmAlloc((b.size() * 2 + 31) / 32 * 32 + 32));
  auto* gc = static_cast<CT*>(AscendC::GmAlloc(size_t(m) * n * sizeof(CT)));
  std::memcpy(ga, a.data(), a.size() * 2);
  std::memcpy(gb, b.data(), b.size() * 2);
  const MatmulShape shape{m, n, k};
  auto* ws = core == Core::A2 ? nullptr
                              : static_cast<uint8_t*>(AscendC::GmAlloc(npuvp::kernels::matmul_910_workspace_bytes(shape, 1)));
  dev.launch("matmul", 1, [&] {
    auto pa = reinterpret_cast<GM_ADDR>(ga), pb = reinterpret_cast<GM_ADDR>(gb), pc = reinterpret_cast<GM_ADDR>(gc);
    if (core == Core::A2) {
      npuvp::kernels::matmul_a2<CT>(pa, pb, pc, shape);
    } else {
      npuvp::kernels::matmul_910<CT>(pa, pb, pc, ws, shape);
    }
  });
  const auto want = npuvp::testing::matmul_reference(a, b, m, n, k);
  const long bad = npuvp::testing::first_mismatch(gc, want);
  EXPECT_EQ(bad, -1) << "C[" << bad / long(n) << "][" << bad % long(n) << "] = " << double(gc[bad < 0 ? 0 : bad])
                     << ", want " << (bad < 0 ? 0.0 : double(static_cast<CT>(want[bad])));
  EXPECT_GT(npuvp::Stats::global().value("core0.M.instructions"), 0u);
}

template <class CT>
void check_matmul_a2(uint32_t m, uint32_t n, uint32_t k) { check_matmul<CT>(Core::A2, m, n, k, 1); }

TEST(MatmulA2, F32Out_16x16x16) { check_matmul_a2<float>(16, 16, 16); }
TEST(MatmulA2, F32Out_1x1x1) { check_matmul_a2<float>(1, 1, 1); }
TEST(MatmulA2, F32Out_17x33x50) { check_matmul_a2<float>(17, 33, 50); }
TEST(MatmulA2, F32Out_128x128x128) { check_matmul_a2<float>(128, 128, 128); }
TEST(MatmulA2, F32Out_200x130x300) { check_matmul_a2<float>(200, 130, 300); }
TEST(MatmulA2, F32Out_64x300x520) { check_matmul_a2<float>(64, 300, 520); }
TEST(MatmulA2, F16Out_17x33x50) { check_matmul_a2<half>(17, 33, 50); }
TEST(MatmulA2, F16Out_256x144x272) { check_matmul_a2<half>(256, 144, 272); }

// int8 x int8 -> int32, exact with two's-complement wrap; B given transposed.
void check_matmul_int8(Core core, uint32_t m, uint32_t n, uint32_t k) {
  auto& dev = npuvp::testing::make_device({}, core == Core::A2 ? "core910b" : "core910");
  std::mt19937 gen(7);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int8_t> a(size_t(m) * k), bt(size_t(n) * k);
  for (auto& x : a) x = int8_t(d(gen));
  for (auto& x : bt) x = int8_t(d(gen));
  int8_t *ga = npuvp::testing::to_gm(a), *gb = npuvp::testing::to_gm(bt);
  auto* gc = static_cast<int32_t*>(AscendC::GmAlloc(size_t(m) * n * 4));
  const MatmulShape shape{m, n, k};
  auto* ws = core == Core::A2
                 ? nullptr
                 : static_cast<uint8_t*>(AscendC::GmAlloc(npuvp::kernels::matmul_int8_910_workspace_bytes(shape)));
  dev.launch("matmul_int8", 1, [&] {
    auto pa = reinterpret_cast<GM_ADDR>(ga), pb = reinterpret_cast<GM_ADDR>(gb), pc = reinterpret_cast<GM_ADDR>(gc);
    if (core == Core::A2) {
      npuvp::kernels::matmul_int8_a2(pa, pb, pc, shape);
    } else {
      npuvp::kernels::matmul_int8_910(pa, pb, pc, ws, shape);
    }
  });
  const auto want = npuvp::kernels::matmul_int8_reference(a, bt, m, n, k);
  const long bad = npuvp::testing::first_mismatch(gc, want);
  EXPECT_EQ(bad, -1) << "C[" << bad / long(n) << "][" << bad % long(n) << "] = " << gc[bad < 0 ? 0 : bad]
                     << ", want " << want[bad < 0 ? 0 : bad];
  EXPECT_GT(npuvp::Stats::global().value("core0.M.instructions"), 0u);
}
void check_matmul_int8_a2(uint32_t m, uint32_t n, uint32_t k) { check_matmul_int8(Core::A2, m, n, k); }
TEST(MatmulA2, Int8_32x32x32) { check_matmul_int8_a2(32, 32, 32); }
TEST(MatmulA2, Int8_19x45x70) { check_matmul_int8_a2(19, 45, 70); }
TEST(MatmulA2, Int8_130x140x600) { check_matmul_int8_a2(130, 140, 600); }
TEST(MatmulA2, Int8_16x16x64) { check_matmul_int8_a2(16, 16, 64); }
TEST(MatmulA2, Int8_16x16x40) { check_matmul_int8_a2(16, 16, 40); }
TEST(MatmulA2, Int8_32x16x32) { check_matmul_int8_a2(32, 16, 32); }

// Coupled 910: K padded to whole 32 B blocks (odd pad lengths included), s32 out of L0C
// through UB in matrix mode, unpadded rows with scalar tails.
void check_matmul_int8_910(uint32_t m, uint32_t n, uint32_t k) { check_matmul_int8(Core::Coupled910, m, n, k); }
TEST(MatmulInt8_910, Int8_32x32x32) { check_matmul_int8_910(32, 32, 32); }
TEST(MatmulInt8_910, Int8_1x1x1) { check_matmul_int8_910(1, 1, 1); }
TEST(MatmulInt8_910, Int8_19x45x70) { check_matmul_int8_910(19, 45, 70); }
TEST(MatmulInt8_910, Int8_16x16x40) { check_matmul_int8_910(16, 16, 40); }
TEST(MatmulInt8_910, Int8_33x17x31) { check_matmul_int8_910(33, 17, 31); }
TEST(MatmulInt8_910, Int8_130x140x600) { check_matmul_int8_910(130, 140, 600); }

// Coupled 910: padding pre-pass, strided NZ copies, matrix-mode L0C -> UB, unpadding post-pass.
template <class CT>
void check_matmul_910(uint32_t m, uint32_t n, uint32_t k) { check_matmul<CT>(Core::Coupled910, m, n, k, 3); }
TEST(Matmul910, F32Out_16x16x16) { check_matmul_910<float>(16, 16, 16); }
TEST(Matmul910, F32Out_1x1x1) { check_matmul_910<float>(1, 1, 1); }
TEST(Matmul910, F32Out_17x33x50) { check_matmul_910<float>(17, 33, 50); }
TEST(Matmul910, F32Out_200x130x300) { check_matmul_910<float>(200, 130, 300); }
TEST(Matmul910, F16Out_17x33x50) { check_matmul_910<half>(17, 33, 50); }
TEST(Matmul910, F16Out_144x150x272) { check_matmul_910<half>(144, 150, 272); }

// The reference computes row blocks with k outer; it must give, bit for bit, what the
// contract's definition gives: each element's products summed in increasing k, one rounding
// per addition. Checked at a shape that leaves a partial row block, on values that overflow,
// cancel, are infinite, NaN, subnormal and signed zeros.
TEST(MatmulReference, EqualsTheContractsDefinition) {
  const uint32_t m = 19, n = 37, k = 45;
  auto a = npuvp::testing::random_halves(size_t(m) * k, 5, -60000, 60000);
  auto b = npuvp::testing::random_halves(size_t(k) * n, 6, -4, 4);
  const float inf = std::numeric_limits<float>::infinity();  // (no numeric_limits<_Float16> here)
  const _Float16 specials[] = {_Float16(0.0f), _Float16(-0.0f), _Float16(1e-7f), _Float16(-6e-8f),
                               _Float16(inf), _Float16(-inf), _Float16(std::numeric_limits<float>::quiet_NaN())};
  for (size_t i = 0; i < a.size(); i += 29) a[i] = specials[i % 7];
  for (size_t i = 3; i < b.size(); i += 31) b[i] = specials[i % 7];
  const auto c = npuvp::testing::matmul_reference(a, b, m, n, k);
  size_t nonfinite = 0;
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (uint32_t kk = 0; kk < k; ++kk) {
        volatile float sum = acc + float(a[size_t(i) * k + kk]) * float(b[size_t(kk) * n + j]);
        acc = sum;
      }
      nonfinite += !std::isfinite(acc);
      if (std::isnan(acc)) acc = std::numeric_limits<float>::quiet_NaN();  // pinned (issue 29)
      ASSERT_TRUE(npuvp::testing::same_bits(c[size_t(i) * n + j], acc)) << "C[" << i << "][" << j << "]";
    }
  }
  EXPECT_GT(nonfinite, 0u);  // the specials reached some sums
  EXPECT_LT(nonfinite, size_t(m) * n);
}

// On several host threads (the samples' checks at a large --scale) the reference gives the
// same bits as on one, with ragged row groups and more threads than some shapes have groups,
// and it reports its progress from the calling thread, rising to 1.
TEST(MatmulReference, ThreadsGiveTheSameBitsAndReportProgress) {
  for (const uint32_t m : {61u, 8u, 3u}) {
    const uint32_t n = 37, k = 45;
    const auto a = npuvp::testing::random_halves(size_t(m) * k, 7);
    const auto b = npuvp::testing::random_halves(size_t(k) * n, 8);
    npuvp::kernels::ReferenceRun one;
    one.threads = 1;
    const auto want = npuvp::testing::matmul_reference(a, b, m, n, k, one);
    for (const unsigned threads : {2u, 3u, 16u}) {
      npuvp::kernels::ReferenceRun run;
      run.threads = threads;
      std::vector<double> reported;
      run.progress = [&](double done) { reported.push_back(done); };
      const auto got = npuvp::testing::matmul_reference(a, b, m, n, k, run);
      ASSERT_EQ(got.size(), want.size());
      EXPECT_EQ(std::memcmp(got.data(), want.data(), want.size() * sizeof(float)), 0)
          << m << " rows on " << threads << " threads";
      ASSERT_FALSE(reported.empty());
      for (size_t i = 1; i < reported.size(); ++i) EXPECT_GE(reported[i], reported[i - 1]);
      EXPECT_GT(reported.front(), 0.0);
      EXPECT_EQ(reported.back(), 1.0);
    }
  }
}
}  // namespace matmul_test
