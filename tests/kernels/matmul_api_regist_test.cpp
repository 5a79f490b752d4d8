// REGIST_MATMUL_OBJ inside a helper that returns a value (CANN kernels often register their
// Matmul objects in an Init that returns a status): in a mixed launch the AIC serves its AIVs
// and leaves the kernel body there, as CANN's `return` would; the AIVs go on. Checked: the
// result bit for bit against the cube contract, and that no AIC ran the code after the helper.
#include <gtest/gtest.h>

#include <atomic>
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/matmul_reference.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

namespace matmul_api_regist_test {
using namespace AscendC;

using MM = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
                  MatmulType<TPosition::GM, CubeFormat::ND, float>>;

// Returns the number of the block, after registering (only AIVs come back from it in a mixed launch).
int32_t RegisterMatmul(TPipe& pipe, MM& mm, const TCubeTiling* tiling) {
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, tiling);
  return static_cast<int32_t>(GetBlockIdx());
}

TEST(MatmulApiRegist, InsideAFunctionReturningAValue) {
  const uint32_t m = 96, n = 64, k = 80;
  auto& dev = npuvp::testing::make_device({"platform.cores=1"}, "ascend910b");
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
  matmul_tiling::MultiCoreMatmulTiling api(*platform);
  api.SetDim(2);
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  api.SetShape(m, n, k);
  api.SetOrgShape(m, n, k);
  api.SetBias(false);
  TCubeTiling tiling;
  ASSERT_EQ(api.GetTiling(tiling), 0);
  const auto a = npuvp::testing::random_halves(size_t(m) * k, 41);
  const auto b = npuvp::testing::random_halves(size_t(k) * n, 42);
  half *ga = npuvp::testing::to_gm(a), *gb = npuvp::testing::to_gm(b);
  auto* gc = static_cast<float*>(AscendC::GmAlloc(size_t(m) * n * 4));
  auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(platform->GetLibApiWorkSpaceSize()));
  std::atomic<int> past_register{0}, aic_past_register{0};
  npuvp::LaunchOptions options;
  options.kernel_type = npuvp::aicore::KernelType::Mix1To2;
  dev.launch("matmul_regist", 1, [&] {
    SetSysWorkspace(ws);
    TPipe pipe;
    MM mm;
    const int32_t block = RegisterMatmul(pipe, mm, &tiling);
    ++past_register;
    if (g_coreType == AscendC::AIC) ++aic_past_register;
    // One AIV computes all of C (the other only ends its Matmul).
    if (block == 0 && GetSubBlockIdx() == 0) {
      GlobalTensor<half> aGm, bGm;
      GlobalTensor<float> cGm;
      aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(ga), a.size());
      bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(gb), b.size());
      cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gc), size_t(m) * n);
      mm.SetTensorA(aGm);
      mm.SetTensorB(bGm);
      mm.SetTail(m, n, k);
      mm.IterateAll(cGm);
    }
    mm.End();
  }, options);
  EXPECT_EQ(past_register.load(), 2) << "the two AIVs return from the helper, the AIC does not";
  EXPECT_EQ(aic_past_register.load(), 0);
  std::vector<float> want(size_t(m) * n);
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (uint32_t kk = 0; kk < k; ++kk) acc += float(a[size_t(i) * k + kk]) * float(b[size_t(kk) * n + j]);
      want[size_t(i) * n + j] = acc;
    }
  EXPECT_EQ(npuvp::testing::first_mismatch(gc, want), -1);
}

}  // namespace matmul_api_regist_test
