// The high-level Matmul on the Atlas inference AI Core (ascend310p, coupled: no Fixpipe, no
// BiasTable): C drains L0C -> UB -> GM and the bias is broadcast into L0C from UB. Bit for bit
// against a plain reference of the cube contract (exact f16 products accumulated in f32 in
// increasing k, from the bias) at odd M and K, N tails of whole 32 B (no DataCopyPad on the
// 310P), bias, transposed B, f16 C, several
// cores; Iterate/GetTensorC; and the 4096^3 efficiency through the API in perf mode.
#include <gtest/gtest.h>

#include <cstring>
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/matmul_reference.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

namespace matmul_api_coupled_test {
using namespace AscendC;

struct Case {
  uint32_t m, n, k;
  bool trans_b = false, bias = false;
  int cores = 1;
};

uint32_t ceiling(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

TCubeTiling host_tiling(const Case& c, matmul_tiling::DataType out) {
  matmul_tiling::MultiCoreMatmulTiling api;  // the process's platform
  EXPECT_EQ(api.SetDim(c.cores), 0);
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16,
               c.trans_b);
  api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, out);
  api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  api.SetShape(c.m, c.n, c.k);
  api.SetOrgShape(c.m, c.n, c.k);
  api.SetBias(c.bias);
  TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0);
  return t;
}

std::vector<float> reference(const std::vector<_Float16>& a, const std::vector<_Float16>& b,
                             const std::vector<float>& bias, const Case& c) {
  std::vector<float> out(size_t(c.m) * c.n);
  for (uint32_t i = 0; i < c.m; ++i) {
    for (uint32_t j = 0; j < c.n; ++j) {
      float acc = c.bias ? bias[j] : 0.0f;
      for (uint32_t kk = 0; kk < c.k; ++kk) acc += float(a[size_t(i) * c.k + kk]) * float(b[size_t(kk) * c.n + j]);
      out[size_t(i) * c.n + j] = acc;
    }
  }
  return out;
}

// CANN's MatmulCustom kernel shape: each block its singleCoreM x singleCoreN rectangle of C,
// by IterateAll, or block by block with Iterate / GetTensorC.
template <class CT, bool TB, const MatmulConfig& CFG>
void check(const Case& c, bool iterate) {
  auto& dev = npuvp::testing::make_device({"platform.cores=" + std::to_string(c.cores)}, "ascend310p");
  const TCubeTiling t = host_tiling(c, std::is_same<CT, half>::value ? matmul_tiling::DataType::DT_FLOAT16
                                                                      : matmul_tiling::DataType::DT_FLOAT);
  ASSERT_GE(t.usedCoreNum, 1);
  ASSERT_LE(t.usedCoreNum, c.cores);
  const auto a = npuvp::testing::random_halves(size_t(c.m) * c.k, 21);
  const auto b = npuvp::testing::random_halves(size_t(c.k) * c.n, 22);
  const auto bias = npuvp::testing::random_vector<float>(c.n, 23, -4, 4);
  std::vector<_Float16> b_stored(b.size());
  for (uint32_t r = 0; r < c.k; ++r) {
    for (uint32_t col = 0; col < c.n; ++col) {
      b_stored[TB ? size_t(col) * c.k + r : size_t(r) * c.n + col] = b[size_t(r) * c.n + col];
    }
  }
  half* ga = npuvp::testing::to_gm(a);
  half* gb = npuvp::testing::to_gm(b_stored);
  float* gbias = npuvp::testing::to_gm(bias);
  auto* gc = static_cast<CT*>(AscendC::GmAlloc(size_t(c.m) * c.n * sizeof(CT)));
  dev.launch("matmul_custom", t.usedCoreNum, [&] {
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<CT> cGm;
    GlobalTensor<float> biasGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(ga), uint64_t(t.M) * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(gb), uint64_t(t.Kb) * t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(gc), uint64_t(t.M) * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gbias), t.N);
    const uint32_t blocks_m = ceiling(t.M, t.singleCoreM);
    const uint32_t bm = GetBlockIdx() % blocks_m, bn = GetBlockIdx() / blocks_m;
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half, TB>,
           MatmulType<TPosition::GM, CubeFormat::ND, CT>, MatmulType<TPosition::GM, CubeFormat::ND, float>, CFG>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetOrgShape(t.M, t.N, t.Ka, t.Kb);
    mm.SetTensorA(aGm[uint64_t(bm) * t.Ka * t.singleCoreM]);
    mm.SetTensorB(bGm[TB ? uint64_t(bn) * t.Kb * t.singleCoreN : bn * t.singleCoreN], TB);
    if (t.isBias) mm.SetBias(biasGm[bn * t.singleCoreN]);
    mm.SetTail(std::min<int>(t.singleCoreM, t.M - int(bm * t.singleCoreM)),
               std::min<int>(t.singleCoreN, t.N - int(bn * t.singleCoreN)));
    GlobalTensor<CT> mine = cGm[uint64_t(bm) * t.N * t.singleCoreM + bn * t.singleCoreN];
    if (iterate) {
      while (mm.Iterate()) mm.GetTensorC(mine);
    } else {
      mm.IterateAll(mine);
    }
    mm.End();
  });
  const auto want = reference(a, b, bias, c);
  const long bad = npuvp::testing::first_mismatch(gc, want);
  EXPECT_EQ(bad, -1) << "C[" << bad / long(c.n) << "][" << bad % long(c.n) << "] = " << double(gc[bad < 0 ? 0 : bad])
                     << ", want " << (bad < 0 ? 0.0 : double(static_cast<CT>(want[bad])));
}

TEST(MatmulApi310p, F32Out_17x40x50) { check<float, false, CFG_NORM>({17, 40, 50}, false); }
TEST(MatmulApi310p, Bias_200x136x300) { check<float, false, CFG_NORM>({200, 136, 300, false, true}, false); }
TEST(MatmulApi310p, F16Out_144x48x72) { check<half, false, CFG_NORM>({144, 48, 72}, false); }
TEST(MatmulApi310p, TransposedB_Bias_70x56x90) { check<float, true, CFG_NORM>({70, 56, 90, true, true}, false); }
TEST(MatmulApi310p, MdlTransposedB_64x72x700) { check<float, true, CFG_MDL>({64, 72, 700, true}, false); }
TEST(MatmulApi310p, Iterate_Bias_300x296x40) { check<float, false, CFG_NORM>({300, 296, 40, false, true}, true); }
TEST(MatmulApi310p, FourCores_Bias_300x264x130) { check<float, false, CFG_NORM>({300, 264, 130, false, true, 4}, false); }

// 4096^3 f16 -> f32 through the API on all 8 cores, perf mode, as a fraction of cube peak.
TEST(MatmulApi310pEfficiency, Ascend310p_4096) {
  constexpr uint32_t size = 4096;
  auto& dev = npuvp::testing::make_device({"sim.mode=perf"}, "ascend310p");
  auto* p = platform_ascendc::PlatformAscendCManager::GetInstance();
  const uint32_t cores = p->GetCoreNumAic();
  matmul_tiling::MultiCoreMatmulTiling api(*p);
  api.SetDim(static_cast<int32_t>(cores));
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  api.SetShape(size, size, size);
  api.SetOrgShape(size, size, size);
  api.SetTraverse(matmul_tiling::MatrixTraverse::FIRSTN);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  const uint64_t elems = uint64_t(size) * size;
  auto* a = AscendC::GmAlloc(elems * 2);
  auto* b = AscendC::GmAlloc(elems * 2);
  auto* c = AscendC::GmAlloc(elems * 4);
  const auto& r = dev.launch("matmul_api", t.usedCoreNum, [&] {
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), elems);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), elems);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), elems);
    const uint32_t blocks_m = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    const uint32_t bm = GetBlockIdx() % blocks_m, bn = GetBlockIdx() / blocks_m;
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>, CFG_MDL>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(aGm[uint64_t(bm) * t.singleCoreM * t.Ka]);
    mm.SetTensorB(bGm[uint64_t(bn) * t.singleCoreN]);
    mm.SetTail(std::min<int>(t.singleCoreM, t.M - int(bm * t.singleCoreM)),
               std::min<int>(t.singleCoreN, t.N - int(bn * t.singleCoreN)));
    mm.IterateAll(cGm[uint64_t(bm) * t.singleCoreM * t.N + bn * t.singleCoreN]);
    mm.End();
  });
  const double peak_cycles = double(size / 16) * (size / 16) * (size / 16) / cores;
  const double fraction = peak_cycles / double(r.cycles);
  std::printf("ascend310p: %u^3 on %u of %u cores (base %d x %d x %d, singleCore %d x %d): %llu cycles, %.1f %% of "
              "cube peak\n",
              size, t.usedCoreNum, cores, t.baseM, t.baseN, t.baseK, t.singleCoreM, t.singleCoreN,
              static_cast<unsigned long long>(r.cycles), 100 * fraction);
  EXPECT_GE(fraction, 0.75);
}

}  // namespace matmul_api_coupled_test
