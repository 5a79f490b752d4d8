// The RTL cube inside a platform: the matmul kernels with core.cube.impl=rtl (bit for bit
// against the numeric contract, and with the model's timing), lockstep with the good and with
// the deliberately broken RTL, and the waveform option.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "models/aicore/ai_core.h"
#include "sw/kernels/matmul.h"
#include "tests/support/device_fixture.h"
#include "tests/support/matmul_reference.h"
#include "tikicpulib.h"
#include "tlm/stats.h"

namespace {
using npuvp::Stats;
using npuvp::kernels::MatmulShape;

// Runs the A2 f16 matmul (C of type CT) and returns the index of the first element that
// differs from the contract's reference (-1 if none); throws what the platform raised.
template <class CT>
long matmul_a2(npuvp::Device& dev, uint32_t m, uint32_t n, uint32_t k) {
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
  return npuvp::testing::first_mismatch(gc, npuvp::testing::matmul_reference(a, b, m, n, k));
}

// Every Mmad ran on the RTL, and the RTL's cycles were the model's cost (summed over the
// Mmads; each Mmad's equality is CubeRtl.TimingAgreesWithTheModelsParameters). With
// impl=rtl the M pipe waits the RTL's cycles, so the kernel keeps the model's timing.
void expect_rtl_ran_with_model_timing() {
  const uint64_t mmads = Stats::global().value("core0.M.cube.rtl_mmads");
  EXPECT_GT(mmads, 0u);
  EXPECT_EQ(Stats::global().value("core0.M.cube.rtl_cycles"),
            Stats::global().value("core0.M.cube.model_cycles"));
}

TEST(CosimMatmul, A2F32OutOnTheRtl) {
  auto& dev = npuvp::testing::make_device({"core.cube.impl=rtl"}, "core910b");
  EXPECT_EQ(matmul_a2<float>(dev, 17, 33, 50), -1);
  EXPECT_EQ(matmul_a2<float>(dev, 128, 128, 128), -1);
  expect_rtl_ran_with_model_timing();
}

TEST(CosimMatmul, A2F16OutOnTheRtl) {
  auto& dev = npuvp::testing::make_device({"core.cube.impl=rtl"}, "core910b");
  EXPECT_EQ(matmul_a2<half>(dev, 64, 80, 200), -1);
  expect_rtl_ran_with_model_timing();
}

TEST(CosimMatmul, A2Int8OnTheRtl) {
  auto& dev = npuvp::testing::make_device({"core.cube.impl=rtl"}, "core910b");
  const uint32_t m = 19, n = 45, k = 70;
  std::mt19937 gen(7);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int8_t> a(size_t(m) * k), bt(size_t(n) * k);
  for (auto& x : a) x = int8_t(d(gen));
  for (auto& x : bt) x = int8_t(d(gen));
  auto* ga = static_cast<int8_t*>(AscendC::GmAlloc(a.size()));
  auto* gb = static_cast<int8_t*>(AscendC::GmAlloc(bt.size()));
  auto* gc = static_cast<int32_t*>(AscendC::GmAlloc(size_t(m) * n * 4));
  std::memcpy(ga, a.data(), a.size());
  std::memcpy(gb, bt.data(), bt.size());
  dev.launch("matmul_int8", 1, [&] {
    npuvp::kernels::matmul_int8_a2(reinterpret_cast<GM_ADDR>(ga), reinterpret_cast<GM_ADDR>(gb),
                                   reinterpret_cast<GM_ADDR>(gc), MatmulShape{m, n, k});
  });
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      int32_t want = 0;
      for (uint32_t kk = 0; kk < k; ++kk) want += int32_t(a[size_t(i) * k + kk]) * int32_t(bt[size_t(j) * k + kk]);
      ASSERT_EQ(gc[size_t(i) * n + j], want) << i << "," << j;
    }
  }
  expect_rtl_ran_with_model_timing();
}

TEST(CosimMatmul, Coupled910OnTheRtl) {
  auto& dev = npuvp::testing::make_device({"core.cube.impl=rtl"}, "core910");
  const uint32_t m = 40, n = 50, k = 60;
  auto a = npuvp::testing::random_halves(size_t(m) * k, 3);
  auto b = npuvp::testing::random_halves(size_t(k) * n, 4);
  auto* ga = static_cast<half*>(AscendC::GmAlloc(a.size() * 2));
  auto* gb = static_cast<half*>(AscendC::GmAlloc(b.size() * 2));
  auto* gc = static_cast<float*>(AscendC::GmAlloc(size_t(m) * n * 4));
  const MatmulShape shape{m, n, k};
  auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(npuvp::kernels::matmul_910_workspace_bytes(shape, 1)));
  std::memcpy(ga, a.data(), a.size() * 2);
  std::memcpy(gb, b.data(), b.size() * 2);
  dev.launch("matmul", 1, [&] {
    npuvp::kernels::matmul_910<float>(reinterpret_cast<GM_ADDR>(ga), reinterpret_cast<GM_ADDR>(gb),
                                      reinterpret_cast<GM_ADDR>(gc), ws, shape);
  });
  EXPECT_EQ(npuvp::testing::first_mismatch(gc, npuvp::testing::matmul_reference(a, b, m, n, k)), -1);
  expect_rtl_ran_with_model_timing();
}

TEST(CosimLockstep, GoodRtlAgreesOnEveryMmad) {
  auto& dev = npuvp::testing::make_device({"core.cube.impl=lockstep"}, "core910b");
  EXPECT_EQ(matmul_a2<float>(dev, 96, 64, 160), -1);
  expect_rtl_ran_with_model_timing();
}

TEST(CosimLockstep, TruncatingRtlIsCaughtAtTheFirstMismatch) {
  auto& dev = npuvp::testing::make_device(
      {"core.cube.impl=lockstep", "cosim.rtl=npuvp_cube_truncate"}, "core910b");
  std::string error;
  try {
    matmul_a2<float>(dev, 96, 64, 160);
  } catch (const std::exception& e) {
    error = npuvp::error_text(e);
  }
  RecordProperty("error", error);
  ASSERT_NE(error, "") << "the broken RTL went unnoticed";
  EXPECT_EQ(error.rfind("soc.core0 @ ", 0), 0u) << error;  // block and simulated time
  EXPECT_NE(error.find("lockstep mismatch in Mmad #1 of this core (Mmad.f32.f16xf16 "), std::string::npos) << error;
  EXPECT_NE(error.find("L0C fractal (m1=0, n1=0) at L0C:0x0, element (row "), std::string::npos) << error;
  EXPECT_NE(error.find("Stopping."), std::string::npos) << error;
  // Both values in hex; they differ by a few rounding steps. (Which one is larger depends on
  // the data: a sum truncated toward zero early can end larger in magnitude after later
  // products of the other sign, so the direction is not asserted.)
  uint32_t model = 0, rtl = 0;
  const size_t at_model = error.find("model 0x"), at_rtl = error.find("RTL npuvp_cube_truncate 0x");
  ASSERT_NE(at_model, std::string::npos) << error;
  ASSERT_NE(at_rtl, std::string::npos) << error;
  ASSERT_EQ(std::sscanf(error.c_str() + at_model, "model 0x%" SCNx32, &model), 1);
  ASSERT_EQ(std::sscanf(error.c_str() + at_rtl, "RTL npuvp_cube_truncate 0x%" SCNx32, &rtl), 1);
  EXPECT_NE(model, rtl);
  EXPECT_EQ(model >> 31, rtl >> 31);
  const uint32_t model_mag = model & 0x7fffffffu, rtl_mag = rtl & 0x7fffffffu;
  EXPECT_LE(model_mag > rtl_mag ? model_mag - rtl_mag : rtl_mag - model_mag, 16u) << std::hex << model << " " << rtl;
  // It stopped there: one Mmad ran on the RTL.
  EXPECT_EQ(Stats::global().value("core0.M.cube.rtl_mmads"), 1u);
}

TEST(CosimErrors, F16OutputMmadIsRefusedByTheRtl) {
  // The coupled 910's cube can write f16 to L0C; the RTL cube only f32/s32.
  auto& dev = npuvp::testing::make_device({"core.cube.impl=rtl"}, "core910");
  const std::string error = npuvp::testing::kernel_error(dev, 1, [] {
    npuvp::aicore::Mmad op;
    op.m = op.n = op.k = 16;
    op.c_type = npuvp::aicore::DType::F16;
    npuvp::aicore::AiCore::current()->issue(op);
  });
  EXPECT_NE(error.find("Mmad.f16.f16xf16"), std::string::npos) << error;
  EXPECT_NE(error.find("core.cube.impl=rtl: the RTL cube npuvp_cube runs f16 x f16 -> f32 and "
                       "s8/u8 x s8 -> s32 only, not f16 x f16 -> f16"), std::string::npos) << error;
}

TEST(CosimWaveform, VcdFromTheConfig) {
  const std::string path = ::testing::TempDir() + "npuvp_cosim_matmul.vcd";
  std::remove(path.c_str());
  auto& dev = npuvp::testing::make_device({"core.cube.impl=rtl", "cosim.vcd=" + path}, "core910b");
  EXPECT_EQ(matmul_a2<float>(dev, 16, 16, 32), -1);
  std::ifstream f(path);
  ASSERT_TRUE(f.good()) << path;
  std::stringstream text;
  text << f.rdbuf();
  EXPECT_NE(text.str().find("$enddefinitions"), std::string::npos);
  EXPECT_NE(text.str().find(" out_valid "), std::string::npos);
}

}  // namespace
