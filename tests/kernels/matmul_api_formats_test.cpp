// The high-level Matmul with NZ-format A and B in GM and an ND_ALIGN C (asc-devkit MatmulType:
// A, B ND or NZ; C ND, NZ or ND_ALIGN), bit for bit against the cube contract's reference (exact
// f16 products accumulated in f32 in increasing k, from the bias). NZ here: the stored matrix
// [R, C] as [C / 16, R rounded up to 16, 16], the pad zero. Odd shapes with M, N and K tails,
// several L1 loads, transposed B; on one A2 core and on the 310P (C drained through UB).
#include <gtest/gtest.h>

#include <cstring>
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/matmul_reference.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

namespace matmul_api_formats_test {
using namespace AscendC;

// The row-major [rows, cols] matrix v in NZ: bands of 16 columns, each rows16 x 16, pad zero.
std::vector<_Float16> to_nz(const std::vector<_Float16>& v, uint32_t rows, uint32_t cols) {
  const uint32_t rows16 = (rows + 15) / 16 * 16, cols16 = (cols + 15) / 16 * 16;
  std::vector<_Float16> out(size_t(rows16) * cols16, _Float16(0));
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < cols; ++c) out[(size_t(c / 16) * rows16 + r) * 16 + c % 16] = v[size_t(r) * cols + c];
  return out;
}

template <class T>
std::vector<T> transposed(const std::vector<T>& v, uint32_t rows, uint32_t cols) {
  std::vector<T> t(v.size());
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < cols; ++c) t[size_t(c) * rows + r] = v[size_t(r) * cols + c];
  return t;
}

struct Case {
  uint32_t m, n, k;
  bool bias;
};

TCubeTiling host_tiling(const Case& c, matmul_tiling::CubeFormat af, matmul_tiling::CubeFormat bf,
                        matmul_tiling::CubeFormat cf, bool trans_b) {
  matmul_tiling::MultiCoreMatmulTiling api;
  EXPECT_EQ(api.SetDim(1), 0);
  api.SetAType(matmul_tiling::TPosition::GM, af, matmul_tiling::DataType::DT_FLOAT16);
  api.SetBType(matmul_tiling::TPosition::GM, bf, matmul_tiling::DataType::DT_FLOAT16, trans_b);
  api.SetCType(matmul_tiling::TPosition::GM, cf, matmul_tiling::DataType::DT_FLOAT);
  api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  api.SetShape(c.m, c.n, c.k);
  api.SetOrgShape(c.m, c.n, c.k);
  api.SetBias(c.bias);
  api.SetFixSplit(32, 32, 32);  // several blocks, K steps and L1 loads at these small shapes
  TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0);
  return t;
}

template <CubeFormat AF, CubeFormat BF, CubeFormat CF, bool TB>
void check(const std::string& platform, const Case& c) {
  auto& dev = npuvp::testing::make_device({}, platform);
  constexpr auto host_format = [](CubeFormat f) {
    return f == CubeFormat::NZ ? matmul_tiling::CubeFormat::NZ
                               : f == CubeFormat::ND_ALIGN ? matmul_tiling::CubeFormat::ND_ALIGN
                                                           : matmul_tiling::CubeFormat::ND;
  };
  const TCubeTiling tiling = host_tiling(c, host_format(AF), host_format(BF), host_format(CF), TB);
  const auto a = npuvp::testing::random_halves(size_t(c.m) * c.k, 51);
  const auto b = npuvp::testing::random_halves(size_t(c.k) * c.n, 52);
  const auto bias = npuvp::testing::random_vector<float>(c.n, 53, -4, 4);
  const auto a_stored = AF == CubeFormat::NZ ? to_nz(a, c.m, c.k) : a;
  const auto b_rows = TB ? transposed(b, c.k, c.n) : b;
  const auto b_stored = BF == CubeFormat::NZ ? (TB ? to_nz(b_rows, c.n, c.k) : to_nz(b_rows, c.k, c.n)) : b_rows;
  half *ga = npuvp::testing::to_gm(a_stored), *gb = npuvp::testing::to_gm(b_stored);
  float* gbias = npuvp::testing::to_gm(bias);
  const uint32_t pitch = CF == CubeFormat::ND_ALIGN ? (c.n + 7) / 8 * 8 : c.n;
  std::vector<float> sentinel(size_t(c.m) * pitch, -1234.5f);
  float* gc = npuvp::testing::to_gm(sentinel);
  dev.launch("matmul_formats", 1, [&] {
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm, biasGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(ga), a_stored.size());
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(gb), b_stored.size());
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gc), sentinel.size());
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gbias), c.n);
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, AF, half>, MatmulType<TPosition::GM, BF, half, TB>,
           MatmulType<TPosition::GM, CF, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm, TB);
    if (c.bias) mm.SetBias(biasGm);
    mm.IterateAll(cGm);
    mm.End();
  });
  for (uint32_t i = 0; i < c.m; ++i)
    for (uint32_t j = 0; j < c.n; ++j) {
      float acc = c.bias ? bias[j] : 0.0f;
      for (uint32_t kk = 0; kk < c.k; ++kk) acc += float(a[size_t(i) * c.k + kk]) * float(b[size_t(kk) * c.n + j]);
      const float got = gc[size_t(i) * pitch + j];
      ASSERT_EQ(std::memcmp(&got, &acc, 4), 0) << "C[" << i << "][" << j << "] = " << got << ", want " << acc;
    }
}

TEST(MatmulApiFormats, NzA_NzB_Bias_A2) {
  check<CubeFormat::NZ, CubeFormat::NZ, CubeFormat::ND, false>("core910b", {50, 40, 70, true});
}
TEST(MatmulApiFormats, NzA_NzTransposedB_A2) {
  check<CubeFormat::NZ, CubeFormat::NZ, CubeFormat::ND, true>("core910b", {33, 48, 90, false});
}
TEST(MatmulApiFormats, NdA_NzB_NdAlignC_A2) {
  check<CubeFormat::ND, CubeFormat::NZ, CubeFormat::ND_ALIGN, false>("core910b", {40, 21, 64, true});
}
TEST(MatmulApiFormats, NzA_NzB_NdAlignC_310P) {
  check<CubeFormat::NZ, CubeFormat::NZ, CubeFormat::ND_ALIGN, false>("ascend310p", {40, 21, 50, true});
}

// GetTensorC(gm, 0, enSequentialWrite = true): each block at the address given, rows baseN
// apart, not at its place in C. Blocks along M first (iterateOrder 0), M and N tails.
TEST(MatmulApiFormats, SequentialWriteBlocks_A2) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const Case c{50, 40, 30, false};
  const TCubeTiling tiling = host_tiling(c, matmul_tiling::CubeFormat::ND, matmul_tiling::CubeFormat::ND,
                                         matmul_tiling::CubeFormat::ND, false);
  ASSERT_EQ(tiling.baseM, 32);
  ASSERT_EQ(tiling.baseN, 32);
  const auto a = npuvp::testing::random_halves(size_t(c.m) * c.k, 61);
  const auto b = npuvp::testing::random_halves(size_t(c.k) * c.n, 62);
  half *ga = npuvp::testing::to_gm(a), *gb = npuvp::testing::to_gm(b);
  const uint32_t blockElems = 32 * 32, blocks = 4;
  std::vector<float> sentinel(size_t(blockElems) * blocks, -1234.5f);
  float* gc = npuvp::testing::to_gm(sentinel);
  dev.launch("matmul_sequential", 1, [&] {
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(ga), a.size());
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(gb), b.size());
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gc), sentinel.size());
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    uint32_t i = 0;
    while (mm.Iterate()) mm.GetTensorC(cGm[blockElems * i++], 0, true);
    mm.End();
  });
  for (uint32_t blk = 0; blk < blocks; ++blk) {
    const uint32_t m0 = blk % 2 * 32, n0 = blk / 2 * 32;
    for (uint32_t r = 0; r < 32; ++r)
      for (uint32_t j = 0; j < 32; ++j) {
        float want = -1234.5f;
        if (m0 + r < c.m && n0 + j < c.n) {
          want = 0.0f;
          for (uint32_t kk = 0; kk < c.k; ++kk)
            want += float(a[size_t(m0 + r) * c.k + kk]) * float(b[size_t(kk) * c.n + n0 + j]);
        }
        const float got = gc[size_t(blk) * blockElems + r * 32 + j];
        ASSERT_EQ(std::memcmp(&got, &want, 4), 0) << "block " << blk << " [" << r << "][" << j << "] = " << got
                                                  << ", want " << want;
      }
  }
}

TEST(MatmulApiFormats, NzCIsAClearError) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const TCubeTiling tiling = host_tiling({32, 32, 32, false}, matmul_tiling::CubeFormat::ND,
                                         matmul_tiling::CubeFormat::ND, matmul_tiling::CubeFormat::ND, false);
  const std::string err = npuvp::testing::kernel_error(dev, 1, [&] {
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::NZ, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  });
  EXPECT_NE(err.find("an NZ-format C is not"), std::string::npos) << err;
}

}  // namespace matmul_api_formats_test
