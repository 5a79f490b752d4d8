// Multi-core kernels on coupled 910 cores (issue 5): the f16 matmul tiled over blocks, bit for
// bit against the numeric contract at odd shapes and block counts (including more blocks than
// tiles and more blocks than cores), and the elementwise samples over every core of the
// 32-core Ascend 910, with blockDim equal to and above the core count.
#include <gtest/gtest.h>
#include <fmt/format.h>
#include "platforms/coupled_soc.h"
#include "sw/kernels/matmul.h"
#include "sw/kernels/samples.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/matmul_reference.h"
#include "tikicpulib.h"
#include "tlm/stats.h"

namespace multicore_test {
using npuvp::Device;
using npuvp::kernels::MatmulShape;

constexpr unsigned kCores = 4;

// C = A x B on `blocks` blocks of a 4-core coupled 910, compared bit for bit; the inputs go
// in and C comes back over PCIe (the host bridge), as a host program does it.
template <class CT>
void check_matmul_910(uint32_t m, uint32_t n, uint32_t k, uint32_t blocks) {
  auto& dev = npuvp::testing::make_device({fmt::format("platform.cores={}", kCores)}, "core910");
  auto a = npuvp::testing::random_halves(size_t(m) * k, 5);
  auto b = npuvp::testing::random_halves(size_t(k) * n, 6);
  auto* ga = static_cast<half*>(AscendC::GmAlloc((a.size() * 2 + 31) / 32 * 32 + 32));  // padded as aclrtMalloc pads: the 910's rows are read in whole blocks
  auto* gb = static_cast<half*>(AscendC::GmAlloc((b.size() * 2 + 31) / 32 * 32 + 32));
  auto* gc = static_cast<CT*>(AscendC::GmAlloc(size_t(m) * n * sizeof(CT)));
  dev.memcpy(ga, a.data(), a.size() * 2, Device::Copy::HostToDevice);
  dev.memcpy(gb, b.data(), b.size() * 2, Device::Copy::HostToDevice);
  const MatmulShape shape{m, n, k};
  auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(npuvp::kernels::matmul_910_workspace_bytes(shape, blocks)));
  dev.launch("matmul", blocks, [&] {
    npuvp::kernels::matmul_910<CT>(reinterpret_cast<GM_ADDR>(ga), reinterpret_cast<GM_ADDR>(gb),
                                   reinterpret_cast<GM_ADDR>(gc), ws, shape);
  });
  std::vector<CT> c(size_t(m) * n);
  dev.memcpy(c.data(), gc, c.size() * sizeof(CT), Device::Copy::DeviceToHost);
  const auto want = npuvp::testing::matmul_reference(a, b, m, n, k);
  const long bad = npuvp::testing::first_mismatch(c.data(), want);
  EXPECT_EQ(bad, -1) << "C[" << bad / long(n) << "][" << bad % long(n) << "] = " << double(c[bad < 0 ? 0 : bad])
                     << ", want " << (bad < 0 ? 0.0 : double(static_cast<CT>(want[bad])));
  // Every block that has a share of C ran the cube: as many cores as rectangles (up to the
  // core count) issued Mmads.
  const auto grid = npuvp::kernels::matmul_910_tile_grid(shape, blocks);
  const unsigned busy_blocks = grid.rows * grid.cols;
  unsigned cores_with_mmad = 0;
  for (unsigned i = 0; i < kCores; ++i) {
    if (npuvp::Stats::global().value(fmt::format("core{}.M.instructions", i)) > 0) ++cores_with_mmad;
  }
  EXPECT_EQ(cores_with_mmad, std::min(busy_blocks, kCores));
  EXPECT_EQ(npuvp::Stats::global().value("host_bridge.h2d_bytes"), (a.size() + b.size()) * 2);
  EXPECT_EQ(npuvp::Stats::global().value("host_bridge.d2h_bytes"), c.size() * sizeof(CT));
}

// Fewer tiles than blocks (one tile, three blocks; two idle).
TEST(Matmul910MultiCore, F32Out_17x33x50_3Blocks) { check_matmul_910<float>(17, 33, 50, 3); }
// One block does the whole odd shape through the multi-block code path.
TEST(Matmul910MultiCore, F32Out_200x130x300_1Block) { check_matmul_910<float>(200, 130, 300, 1); }
// Ragged tiles on both edges, K and N not multiples of 16, blocks = cores.
TEST(Matmul910MultiCore, F32Out_300x260x70_4Blocks) { check_matmul_910<float>(300, 260, 70, 4); }
// More blocks than cores (7 on 4 cores) and an uneven grid.
TEST(Matmul910MultiCore, F32Out_257x385x33_7Blocks) { check_matmul_910<float>(257, 385, 33, 7); }
// Three blocks over a 3 x 2 tile grid: bands of unequal size.
TEST(Matmul910MultiCore, F16Out_270x150x272_3Blocks) { check_matmul_910<half>(270, 150, 272, 3); }
// Aligned shape: no padding pass at all (Ap is A, Cp is C), four blocks.
TEST(Matmul910MultiCore, F32Out_256x256x64_4Blocks) { check_matmul_910<float>(256, 256, 64, 4); }
// N a multiple of 16, K not: only A is padded, the cube writes C directly.
TEST(Matmul910MultiCore, F16Out_130x272x45_7Blocks) { check_matmul_910<half>(130, 272, 45, 7); }
// K a multiple of 16, N not: only B is padded and C unpadded.
TEST(Matmul910MultiCore, F32Out_140x131x64_4Blocks) { check_matmul_910<float>(140, 131, 64, 4); }

// K too deep for B's panel to stay in L1 (3601 > 14 K blocks of 256): B blocks stream per K step.
TEST(Matmul910MultiCore, F32Out_40x150x3601_3Blocks) { check_matmul_910<float>(40, 150, 3601, 3); }

TEST(Matmul910MultiCore, TileGridUsesEveryBlockWhenTheTilesAllow) {
  // 2048^3: 16 x 16 tiles; 32 blocks take rectangles of 8 tiles each, one tile column wide
  // (B's panel is read once per block).
  auto g = npuvp::kernels::matmul_910_tile_grid({2048, 2048, 2048}, 32);
  EXPECT_EQ(g.rows, 2u);
  EXPECT_EQ(g.cols, 16u);
  // One tile: one block, whatever the block count.
  g = npuvp::kernels::matmul_910_tile_grid({17, 33, 50}, 7);
  EXPECT_EQ(g.rows * g.cols, 1u);
  // A single row of 5 tiles on 3 blocks: 1 x 3, the busiest block has 2 tiles.
  g = npuvp::kernels::matmul_910_tile_grid({100, 600, 16}, 3);
  EXPECT_EQ(g.rows, 1u);
  EXPECT_EQ(g.cols, 3u);
}

// ---- Vector samples over every core of the Ascend 910 ----

void expect_sample_passes(const char* name, uint32_t blocks) {
  npuvp::testing::make_device({}, "ascend910");
  const auto* sample = npuvp::kernels::find_sample(name);
  ASSERT_NE(sample, nullptr);
  const auto r = sample->run(blocks);
  EXPECT_TRUE(r.passed) << r.detail;
  // Every core ran at least one block.
  for (unsigned i = 0; i < 32; ++i) EXPECT_GE(npuvp::Stats::global().value(fmt::format("core{}.blocks", i)), 1u) << i;
  EXPECT_GT(npuvp::Stats::global().value("host_bridge.h2d_bytes"), 0u);
}

TEST(VectorMultiCore, AddOnAll32CoresOf910) { expect_sample_passes("add", 32); }
TEST(VectorMultiCore, AddWithMoreBlocksThanCores) { expect_sample_passes("add", 45); }
TEST(VectorMultiCore, MulOnAll32CoresOf910) { expect_sample_passes("mul", 32); }
TEST(VectorMultiCore, ReluWithMoreBlocksThanCores) { expect_sample_passes("relu", 70); }
TEST(VectorMultiCore, SampleDefaultIsOneBlockPerCore) { expect_sample_passes("add", 0); }

TEST(Matmul910MultiCore, SampleUsesEveryCoreOf910) { expect_sample_passes("matmul", 0); }

}  // namespace multicore_test
