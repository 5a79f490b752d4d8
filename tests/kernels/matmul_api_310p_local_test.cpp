// The high-level Matmul's GetTensorC into a local (VECIN) tensor on the Atlas inference AI Core
// (ascend310p), the MatmulLeakyRelu sample's form there: each block's C lands in UB as ND
// baseM x baseN, with or without the UB the kernel lends by SetLocalWorkspace (CANN's 310P
// workspace for C's format change; the sample gives exactly one C block, after its own
// baseM x baseN output queue, so UB would not hold a drain buffer of the Matmul's own).
// Bit for bit against the cube contract (exact f16 products added in f32 in increasing k,
// from the bias), with an M tail.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <type_traits>
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/matmul_reference.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

// CANN declares the formats and configs at global scope (kernels write CubeFormat::ND and
// CFG_NORM unqualified, without a using-directive) and AscendC::Ceil with the Matmul.
static_assert(std::is_same<decltype(CubeFormat::ND), AscendC::CubeFormat>::value, "one CubeFormat");
static_assert(CFG_NORM.doNorm && AscendC::CFG_NORM.doNorm && !matmul::CFG_MDL.doNorm, "CFG_NORM / CFG_MDL");
static_assert(!GetMDLConfig().doNorm && GetNormalConfig().doNorm, "the config builders at global scope");

namespace matmul_api_310p_local_test {
using namespace AscendC;

TEST(MatmulApiNames, CeilAndKernelConstants) {
  EXPECT_EQ(Ceil(300, 256), 2);
  EXPECT_EQ(CeilAlign(300u, 256u), 512u);
  EXPECT_EQ(DEFAULT_C0_SIZE, 32);
  // Without __CCE_AICORE__ (this test), the A2's buffers.
  EXPECT_EQ(TOTAL_VEC_LOCAL_SIZE, 184 * 1024);
  EXPECT_EQ(TOTAL_L0C_SIZE, 128u * 1024);
}

void check_local_c(bool lend_workspace, int32_t base_m) {
  auto& dev = npuvp::testing::make_device({}, "ascend310p");
  const uint32_t m = 300, n = 256, k = 96;  // base_m x 128 (SetFixSplit): an M tail
  matmul_tiling::MultiCoreMatmulTiling api;
  api.SetDim(1);
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  api.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  api.SetShape(m, n, k);
  api.SetOrgShape(m, n, k);
  api.SetBias(true);
  api.SetFixSplit(base_m, 128, -1);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  ASSERT_EQ(t.baseM, base_m);
  ASSERT_EQ(t.baseN, 128);
  const auto a = npuvp::testing::random_halves(size_t(m) * k, 31);
  const auto b = npuvp::testing::random_halves(size_t(k) * n, 32);
  const auto bias = npuvp::testing::random_vector<float>(n, 33, -4, 4);
  half* ga = npuvp::testing::to_gm(a);
  half* gb = npuvp::testing::to_gm(b);
  float* gbias = npuvp::testing::to_gm(bias);
  auto* gc = static_cast<float*>(AscendC::GmAlloc(size_t(m) * n * sizeof(float)));
  dev.launch("matmul_local_c", 1, [&] {
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::VECIN, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    TQue<TPosition::VECOUT, 1> out;
    pipe.InitBuffer(out, 1, t.baseM * t.baseN * sizeof(float));
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    TBuf<> formatBuf;
    if (lend_workspace) {
      pipe.InitBuffer(formatBuf, t.baseM * t.baseN * sizeof(float));
      mm.SetLocalWorkspace(formatBuf.Get<uint8_t>());
    }
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(ga), size_t(m) * k);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(gb), size_t(k) * n);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gbias), n);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gc), size_t(m) * n);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.SetBias(biasGm);
    const uint32_t blocks_m = (m + t.baseM - 1) / t.baseM;
    uint32_t round = 0;
    while (mm.template Iterate<true>()) {
      LocalTensor<float> block = out.AllocTensor<float>();
      mm.template GetTensorC<true>(block, false, true);
      out.EnQue(block);
      block = out.DeQue<float>();
      const uint32_t m0 = round % blocks_m * t.baseM, n0 = round / blocks_m * t.baseN;  // along M first
      const uint32_t rows = std::min<uint32_t>(t.baseM, m - m0);
      for (uint32_t r = 0; r < rows; ++r) DataCopy(cGm[size_t(m0 + r) * n + n0], block[r * t.baseN], t.baseN);
      out.FreeTensor(block);
      ++round;
    }
    mm.End();
  });
  std::vector<float> got(size_t(m) * n);
  std::memcpy(got.data(), gc, got.size() * sizeof(float));
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      float acc = bias[j];
      for (uint32_t kk = 0; kk < k; ++kk) acc += float(a[size_t(i) * k + kk]) * float(b[size_t(kk) * n + j]);
      ASSERT_TRUE(npuvp::testing::same_bits(got[size_t(i) * n + j], acc)) << "C[" << i << "][" << j << "]";
    }
  }
}

// The sample's budget: a 256 x 128 f32 output queue and the same lent, half of UB each.
TEST(MatmulApi310pLocalC, WithLocalWorkspace) { check_local_c(true, 256); }
// No workspace: the Matmul takes its drain buffers from the pipe (two 128 x 128 M blocks).
TEST(MatmulApi310pLocalC, OwnDrainBuffer) { check_local_c(false, 128); }

}  // namespace matmul_api_310p_local_test
