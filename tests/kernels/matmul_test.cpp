// The single-core matmul kernel, bit for bit against the numeric contract, at shapes that
// are and are not multiples of the fractal and of the kernel's tiles.
#include <gtest/gtest.h>
#include "sw/kernels/matmul.h"
#include "tests/support/device_fixture.h"
#include "tests/support/matmul_reference.h"
#include "tikicpulib.h"
#include "tlm/stats.h"

namespace {
using npuvp::kernels::MatmulShape;

template <class CT>
void check_matmul_a2(uint32_t m, uint32_t n, uint32_t k) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  auto a = npuvp::testing::random_halves(size_t(m) * k, 1);
  auto b = npuvp::testing::random_halves(size_t(k) * n, 2);
  auto* ga = static_cast<half*>(AscendC::GmAlloc(a.size() * 2));
  auto* gb = static_cast<half*>(AscendC::GmAlloc(b.size() * 2));
  auto* gc = static_cast<CT*>(AscendC::GmAlloc(size_t(m) * n * sizeof(CT)));
  std::memcpy(ga, a.data(), a.size() * 2);
  std::memcpy(gb, b.data(), b.size() * 2);
  dev.launch("matmul", 1, [&] {
    npuvp::kernels::matmul_a2<CT>(reinterpret_cast<GM_ADDR>(ga), reinterpret_cast<GM_ADDR>(gb),
                                  reinterpret_cast<GM_ADDR>(gc), MatmulShape{m, n, k});
  });
  const auto want = npuvp::testing::matmul_reference(a, b, m, n, k);
  const long bad = npuvp::testing::first_mismatch(gc, want);
  EXPECT_EQ(bad, -1) << "C[" << bad / long(n) << "][" << bad % long(n) << "] = " << double(gc[bad < 0 ? 0 : bad])
                     << ", want " << (bad < 0 ? 0.0 : double(static_cast<CT>(want[bad])));
  EXPECT_GT(npuvp::Stats::global().value("core0.M.instructions"), 0u);
}

TEST(MatmulA2, F32Out_16x16x16) { check_matmul_a2<float>(16, 16, 16); }
TEST(MatmulA2, F32Out_1x1x1) { check_matmul_a2<float>(1, 1, 1); }
TEST(MatmulA2, F32Out_17x33x50) { check_matmul_a2<float>(17, 33, 50); }
TEST(MatmulA2, F32Out_128x128x128) { check_matmul_a2<float>(128, 128, 128); }
TEST(MatmulA2, F32Out_200x130x300) { check_matmul_a2<float>(200, 130, 300); }
TEST(MatmulA2, F32Out_64x300x520) { check_matmul_a2<float>(64, 300, 520); }
TEST(MatmulA2, F16Out_17x33x50) { check_matmul_a2<half>(17, 33, 50); }
TEST(MatmulA2, F16Out_256x144x272) { check_matmul_a2<half>(256, 144, 272); }
}  // namespace
