// Issue 23, deliverable 3: our matmuls keep the cube busy. The coupled 910/310P kernel on NZ
// operands (matmul_910_nz) bit for bit against the numeric contract at odd shapes and several
// blocks; the host tilings' choices; and, in perf mode (time only, so large shapes stay
// fast), f16 4096^3 on every cube core at >= 75 % of the analytic cube peak on the 910B, the
// 910 and the 310P. Each timed run is its own child process (tests/support/child_process.h).
#include <gtest/gtest.h>

#include <cstring>
#include <fmt/format.h>
#include "models/aicore/product.h"
#include "platforms/ascend_soc.h"
#include "sw/kernels/matmul.h"
#include "sw/kernels/matmul_910_nz.h"
#include "tests/support/child_process.h"
#include "tests/support/device_fixture.h"
#include "tests/support/matmul_reference.h"
#include "tikicpulib.h"

namespace matmul_efficiency_test {
using npuvp::kernels::MatmulNzTiling;
using npuvp::kernels::MatmulShape;
using nlohmann::json;

npuvp::LaunchOptions cube_kernel() {
  npuvp::LaunchOptions o;
  o.kernel_type = npuvp::aicore::KernelType::AicOnly;
  return o;
}

uint64_t l2_bytes() { return npuvp::Device::instance().soc().params().l2_size; }

// matmul_910_nz of m x n x k on `blocks` blocks of `platform`: the host formats A and B to NZ,
// takes C back from NZ, and compares it bit for bit with the contract. `tile` 0: the host
// tiling's choice; 128 or 256: that tile edge, in waves of as many tiles as blocks.
template <class CT>
void check_matmul_910_nz(const char* platform, uint32_t m, uint32_t n, uint32_t k, uint32_t blocks,
                         uint32_t tile = 0) {
  auto& dev = npuvp::testing::make_device({}, platform);
  const auto a = npuvp::testing::random_halves(size_t(m) * k, 7);
  const auto b = npuvp::testing::random_halves(size_t(k) * n, 8);
  const auto a_nz = npuvp::kernels::nd_to_nz(a.data(), m, k);
  const auto b_nz = npuvp::kernels::nd_to_nz(b.data(), k, n);
  auto* ga = static_cast<_Float16*>(AscendC::GmAlloc(a_nz.size() * 2));
  auto* gb = static_cast<_Float16*>(AscendC::GmAlloc(b_nz.size() * 2));
  auto* gc = static_cast<CT*>(AscendC::GmAlloc(npuvp::kernels::nz_elems(m, n) * sizeof(CT)));
  std::memcpy(ga, a_nz.data(), a_nz.size() * 2);
  std::memcpy(gb, b_nz.data(), b_nz.size() * 2);
  const MatmulShape shape{m, n, k};
  MatmulNzTiling tiling = npuvp::kernels::matmul_910_nz_tiling(shape, blocks, l2_bytes());
  if (tile != 0) tiling = {1, blocks, tile};
  dev.launch("matmul_nz", blocks, [&] {
    npuvp::kernels::matmul_910_nz<CT>(reinterpret_cast<GM_ADDR>(ga), reinterpret_cast<GM_ADDR>(gb),
                                      reinterpret_cast<GM_ADDR>(gc), shape, tiling);
  }, cube_kernel());
  const auto c = npuvp::kernels::nz_to_nd(gc, m, n);
  const auto want = npuvp::testing::matmul_reference(a, b, m, n, k);
  const long bad = npuvp::testing::first_mismatch(c.data(), want);
  EXPECT_EQ(bad, -1) << "C[" << bad / long(n) << "][" << bad % long(n) << "] = " << double(c[bad < 0 ? 0 : bad])
                     << ", want " << (bad < 0 ? 0.0 : double(static_cast<CT>(want[bad])));
}

TEST(Matmul910Nz, F32Out_1x1x1) { check_matmul_910_nz<float>("core910", 1, 1, 1, 1); }
TEST(Matmul910Nz, F32Out_17x33x50) { check_matmul_910_nz<float>("core910", 17, 33, 50, 1); }
// Tails in every dimension: whole tiles and partial ones, K one L1 block and a ragged one; with
// the tiling's 128 x 128 blocks (two in L0C) and with 256 x 256 ones (L0C full).
TEST(Matmul910Nz, F32Out_300x270x290) { check_matmul_910_nz<float>("core910", 300, 270, 290, 1); }
TEST(Matmul910Nz, F32Out_300x270x290_Tile256) { check_matmul_910_nz<float>("core910", 300, 270, 290, 1, 256); }
TEST(Matmul910Nz, F16Out_144x150x272) { check_matmul_910_nz<_Float16>("core910", 144, 150, 272, 1); }
TEST(Matmul910Nz, F16Out_144x150x272_Tile256) { check_matmul_910_nz<_Float16>("core910", 144, 150, 272, 1, 256); }
// Several blocks in waves, some idle at the edge; the 310P's cores run the same kernel.
TEST(Matmul910Nz, F32Out_530x780x300_On910With5Blocks) {
  check_matmul_910_nz<float>("ascend910", 530, 780, 300, 5);
}
TEST(Matmul910Nz, F32Out_530x780x300_On910With5BlocksTile256) {
  check_matmul_910_nz<float>("ascend910", 530, 780, 300, 5, 256);
}
TEST(Matmul910Nz, F16Out_520x513x130_On310PWith8Blocks) {
  check_matmul_910_nz<_Float16>("ascend310p", 520, 513, 130, 8);
}

TEST(Matmul910NzTiling, WavesGiveEveryBlockTheSameTilesAndKeepABandInL2) {
  // 4096^3: 16 x 16 tiles of 256; 32 blocks in waves of 32 tiles, 8 each.
  const MatmulNzTiling t = npuvp::kernels::matmul_910_nz_tiling({4096, 4096, 4096}, 32, 32ull << 20);
  EXPECT_EQ(t.wave_rows * t.wave_cols, 32u);
  EXPECT_EQ(16 % t.wave_rows, 0u);
  EXPECT_EQ(16 % t.wave_cols, 0u);
  // A's band of wave_rows tiles (2 MiB per tile row at K = 4096) fits a quarter of the L2.
  EXPECT_LE(t.wave_rows * (2ull << 20), (32ull << 20) / 4);
  EXPECT_EQ(t.tile, 256u);
  // 1024^3: 16 blocks of 256 would idle half of 32 cores; 64 of 128 give each core two.
  const MatmulNzTiling small = npuvp::kernels::matmul_910_nz_tiling({1024, 1024, 1024}, 32, 32ull << 20);
  EXPECT_EQ(small.tile, 128u);
  EXPECT_EQ(small.wave_rows * small.wave_cols, 32u);
}

TEST(MatmulA2Tiling, WideBlocksForLargeGemmsNarrowWhenTilesAreFew) {
  EXPECT_EQ(npuvp::kernels::matmul_a2_base_n({4096, 4096, 4096}, 24, 512 * 1024), 256u);
  // One tile row over 24 AICs: 128-wide tiles give each AIC one.
  EXPECT_EQ(npuvp::kernels::matmul_a2_base_n({121, 3067, 320}, 24, 512 * 1024), 128u);
}

// matmul_a2's 128 x 256 blocks (one fills L0C) with tails in M, N and K, bit for bit.
TEST(MatmulA2Wide, F32Out_250x500x4000) {
  const uint32_t m = 250, n = 500, k = 4000;
  ASSERT_EQ(npuvp::kernels::matmul_a2_base_n({m, n, k}, 1, 512 * 1024), 256u);
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const auto a = npuvp::testing::random_halves(size_t(m) * k, 3);
  const auto b = npuvp::testing::random_halves(size_t(k) * n, 4);
  auto* ga = static_cast<_Float16*>(AscendC::GmAlloc(a.size() * 2));
  auto* gb = static_cast<_Float16*>(AscendC::GmAlloc(b.size() * 2));
  auto* gc = static_cast<float*>(AscendC::GmAlloc(size_t(m) * n * 4));
  std::memcpy(ga, a.data(), a.size() * 2);
  std::memcpy(gb, b.data(), b.size() * 2);
  dev.launch("matmul", 1, [&] {
    npuvp::kernels::matmul_a2<float>(reinterpret_cast<GM_ADDR>(ga), reinterpret_cast<GM_ADDR>(gb),
                                     reinterpret_cast<GM_ADDR>(gc), {m, n, k});
  });
  const auto want = npuvp::testing::matmul_reference(a, b, m, n, k);
  EXPECT_EQ(npuvp::testing::first_mismatch(gc, want), -1);
}

// ---- Efficiency (perf mode) ----

// f16 m x n x k (f32 out) on every cube core of `platform`, perf mode: the kernel's cycles and
// the analytic peak's (one 16x16x16 fractal per cycle per core).
json gemm_run(const std::string& platform, uint32_t edge) {
  auto& dev = npuvp::testing::make_device({"sim.mode=perf"}, platform);
  auto& soc = dev.soc();
  uint32_t cube_cores = 0;
  for (unsigned i = 0; i < soc.num_cores(); ++i) cube_cores += soc.core(i).core_kind() != npuvp::aicore::CoreKind::Aiv;
  const bool a2 = npuvp::aicore::is_a2(soc.core(0).product());
  const MatmulShape shape{edge, edge, edge};
  auto* a = static_cast<uint8_t*>(AscendC::GmAlloc(npuvp::kernels::nz_elems(edge, edge) * 2));
  auto* b = static_cast<uint8_t*>(AscendC::GmAlloc(npuvp::kernels::nz_elems(edge, edge) * 2));
  auto* c = static_cast<uint8_t*>(AscendC::GmAlloc(npuvp::kernels::nz_elems(edge, edge) * 4));
  const MatmulNzTiling tiling = npuvp::kernels::matmul_910_nz_tiling(shape, cube_cores, l2_bytes());
  const auto& r = dev.launch("gemm", cube_cores, [&] {
    if (a2) {
      npuvp::kernels::matmul_a2<float>(a, b, c, shape);
    } else {
      npuvp::kernels::matmul_910_nz<float>(a, b, c, shape, tiling);
    }
  }, cube_kernel());
  const double fractals = double(edge / 16) * (edge / 16) * (edge / 16);
  return {{"cycles", r.cycles}, {"peak_cycles", fractals / cube_cores}, {"cores", cube_cores}};
}

void expect_gemm_efficiency(const std::string& platform, uint32_t edge, double at_least) {
  const json r = npuvp::testing::in_child_process([&] { return gemm_run(platform, edge); });
  const double efficiency = r["peak_cycles"].get<double>() / r["cycles"].get<double>();
  std::printf("%s f16 %u^3 on %d cube cores (perf): %.0f cycles, peak %.0f: %.1f %% of cube peak\n", platform.c_str(),
              edge, r["cores"].get<int>(), r["cycles"].get<double>(), r["peak_cycles"].get<double>(),
              100 * efficiency);
  EXPECT_GE(efficiency, at_least);
  EXPECT_LE(efficiency, 1.0);  // nothing beats the cube's own rate
}

TEST(MatmulEfficiency, Gemm4096On910BReaches75PercentOfCubePeak) { expect_gemm_efficiency("ascend910b", 4096, 0.75); }
TEST(MatmulEfficiency, Gemm4096On910Reaches75PercentOfCubePeak) { expect_gemm_efficiency("ascend910", 4096, 0.75); }
TEST(MatmulEfficiency, Gemm4096On310PReaches75PercentOfCubePeak) { expect_gemm_efficiency("ascend310p", 4096, 0.75); }

}  // namespace matmul_efficiency_test
