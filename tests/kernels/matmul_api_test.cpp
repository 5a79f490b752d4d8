// The high-level Matmul (lib/matmul_intf.h) with host tiling (tiling/tiling_api.h), written as
// CANN's MatmulCustom sample writes it (CalcGMOffset, SetOrgShape, SetTensorA/B, SetTail,
// IterateAll), bit for bit against a plain reference of the cube contract: exact f16 products
// accumulated in f32 in increasing k, from the bias. Odd shapes (M/N/K tails, K not a multiple
// of baseK or of the L1 depth), bias, transposed A and B, f16 and int8, NORM and MDL, one and
// several cores; the platform queries; the errors.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/matmul_reference.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

// A tiling class as CANN's op projects declare one (register/tilingdata_base.h).
namespace optiling {
BEGIN_TILING_DATA_DEF(AddCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint16_t, tileNum);
TILING_DATA_FIELD_DEF_ARR(int32_t, 3, shape);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)
}  // namespace optiling

namespace matmul_api_test {
using namespace AscendC;

struct Case {
  uint32_t m, n, k;
  bool trans_a = false, trans_b = false, bias = false;
  int cores = 1;
};

uint32_t ceiling(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// The sample's kernel: each block takes its singleCoreM x singleCoreN rectangle of C.
template <class AT, class CT, bool TA, bool TB, const MatmulConfig& CFG>
void matmul_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const TCubeTiling& tiling, bool trans_a,
                   bool trans_b) {
  using BiasT = std::conditional_t<std::is_same<AT, int8_t>::value, int32_t, float>;
  GlobalTensor<AT> aGm, bGm;
  GlobalTensor<CT> cGm;
  GlobalTensor<BiasT> biasGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ AT*>(a), uint64_t(tiling.M) * tiling.Ka);
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ AT*>(b), uint64_t(tiling.Kb) * tiling.N);
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(c), uint64_t(tiling.M) * tiling.N);
  biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ BiasT*>(bias), tiling.N);
  const uint32_t blocks_m = ceiling(tiling.M, tiling.singleCoreM);
  const uint32_t bm = GetBlockIdx() % blocks_m, bn = GetBlockIdx() / blocks_m;
  const uint64_t offset_a = trans_a ? bm * tiling.singleCoreM : uint64_t(bm) * tiling.Ka * tiling.singleCoreM;
  const uint64_t offset_b = trans_b ? uint64_t(bn) * tiling.Kb * tiling.singleCoreN : bn * tiling.singleCoreN;
  const uint64_t offset_c = uint64_t(bm) * tiling.N * tiling.singleCoreM + bn * tiling.singleCoreN;
  const int tail_m = std::min<int>(tiling.singleCoreM, tiling.M - int(bm * tiling.singleCoreM));
  const int tail_n = std::min<int>(tiling.singleCoreN, tiling.N - int(bn * tiling.singleCoreN));
  TPipe pipe;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, AT, TA>, MatmulType<TPosition::GM, CubeFormat::ND, AT, TB>,
         MatmulType<TPosition::GM, CubeFormat::ND, CT>, MatmulType<TPosition::GM, CubeFormat::ND, BiasT>, CFG>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  if (GetBlockIdx() >= tiling.usedCoreNum) return;
  mm.SetOrgShape(tiling.M, tiling.N, tiling.Ka, tiling.Kb);
  mm.SetTensorA(aGm[offset_a], trans_a);
  mm.SetTensorB(bGm[offset_b], trans_b);
  if (tiling.isBias) mm.SetBias(biasGm[bn * tiling.singleCoreN]);
  mm.SetTail(tail_m, tail_n);
  mm.IterateAll(cGm[offset_c]);
  mm.End();
}

// The platform: one A2 core (core910b), or an ascend910b with `cores` AICs.
npuvp::Device& device_for(const Case& c) {
  if (c.cores == 1) return npuvp::testing::make_device({}, "core910b");
  return npuvp::testing::make_device({"platform.cores=" + std::to_string(c.cores)}, "ascend910b");
}

TCubeTiling host_tiling(const Case& c, matmul_tiling::DataType in, matmul_tiling::DataType out) {
  matmul_tiling::MultiCoreMatmulTiling api;  // the process's platform
  EXPECT_EQ(api.SetDim(c.cores), 0);
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, in, c.trans_a);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, in, c.trans_b);
  api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, out);
  api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, in == matmul_tiling::DataType::DT_INT8 ? matmul_tiling::DataType::DT_INT32 : matmul_tiling::DataType::DT_FLOAT);
  api.SetShape(c.m, c.n, c.k);
  api.SetOrgShape(c.m, c.n, c.k);
  api.SetBias(c.bias);
  api.SetBufferSpace(-1, -1, -1);
  optiling::TCubeTiling host;
  EXPECT_EQ(api.GetTiling(host), 0);
  std::vector<uint8_t> bytes(host.GetDataSize());
  EXPECT_TRUE(host.SaveToBuffer(bytes.data(), bytes.size()));
  TCubeTiling t;
  EXPECT_EQ(bytes.size(), sizeof(t));
  std::memcpy(&t, bytes.data(), sizeof(t));
  return t;
}

// f16: C = A B (+ bias), f32 accumulation in increasing k; A, B as logical row-major arrays.
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

template <class T>
std::vector<T> transposed(const std::vector<T>& v, uint32_t rows, uint32_t cols) {
  std::vector<T> t(v.size());
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) t[size_t(c) * rows + r] = v[size_t(r) * cols + c];
  }
  return t;
}

template <class CT, bool TA, bool TB, const MatmulConfig& CFG = CFG_NORM>
void check_f16(const Case& c) {
  npuvp::Device& dev = device_for(c);
  const TCubeTiling tiling = host_tiling(c, matmul_tiling::DataType::DT_FLOAT16,
                                         std::is_same<CT, half>::value ? matmul_tiling::DataType::DT_FLOAT16
                                                                       : matmul_tiling::DataType::DT_FLOAT);
  ASSERT_GE(tiling.usedCoreNum, 1);
  ASSERT_LE(tiling.usedCoreNum, c.cores);
  const auto a = npuvp::testing::random_halves(size_t(c.m) * c.k, 11);
  const auto b = npuvp::testing::random_halves(size_t(c.k) * c.n, 12);
  const auto bias = npuvp::testing::random_vector<float>(c.n, 13, -4, 4);
  half* ga = npuvp::testing::to_gm(c.trans_a ? transposed(a, c.m, c.k) : a);
  half* gb = npuvp::testing::to_gm(c.trans_b ? transposed(b, c.k, c.n) : b);
  float* gbias = npuvp::testing::to_gm(bias);
  auto* gc = static_cast<CT*>(AscendC::GmAlloc(size_t(c.m) * c.n * sizeof(CT)));
  npuvp::LaunchOptions options;
  if (c.cores > 1) options.kernel_type = npuvp::aicore::KernelType::AicOnly;
  dev.launch("matmul_custom", tiling.usedCoreNum, [&] {
    matmul_kernel<half, CT, TA, TB, CFG>(reinterpret_cast<GM_ADDR>(ga), reinterpret_cast<GM_ADDR>(gb),
                                         reinterpret_cast<GM_ADDR>(gbias), reinterpret_cast<GM_ADDR>(gc), tiling,
                                         c.trans_a, c.trans_b);
  }, options);
  const auto want = reference(a, b, bias, c);
  const long bad = npuvp::testing::first_mismatch(gc, want);
  EXPECT_EQ(bad, -1) << "C[" << bad / long(c.n) << "][" << bad % long(c.n) << "] = " << double(gc[bad < 0 ? 0 : bad])
                     << ", want " << (bad < 0 ? 0.0 : double(static_cast<CT>(want[bad])));
}

// One core: tails in M, N and K, K over several L1 loads and K steps.
TEST(MatmulApi, F32Out_17x33x50) { check_f16<float, false, false>({17, 33, 50}); }
TEST(MatmulApi, F32Out_200x130x300_Bias) { check_f16<float, false, false>({200, 130, 300, false, false, true}); }
TEST(MatmulApi, F16Out_144x40x72) { check_f16<half, false, false>({144, 40, 72}); }
TEST(MatmulApi, TransposedA_70x50x90) { check_f16<float, true, false>({70, 50, 90, true, false}); }
TEST(MatmulApi, TransposedB_70x50x90_Bias) { check_f16<float, false, true>({70, 50, 90, false, true, true}); }
TEST(MatmulApi, TransposedAB_33x140x200) { check_f16<float, true, true>({33, 140, 200, true, true}); }
TEST(MatmulApi, Mdl_150x140x1000_Bias) { check_f16<float, false, false, CFG_MDL>({150, 140, 1000, false, false, true}); }
TEST(MatmulApi, MdlTransposedB_64x64x700) { check_f16<float, false, true, CFG_MDL>({64, 64, 700, false, true}); }
// Several AICs of an ascend910b, each its rectangle, with tails on the edge cores.
TEST(MatmulApi, FourCores_300x270x130_Bias) { check_f16<float, false, false>({300, 270, 130, false, false, true, 4}); }
TEST(MatmulApi, FourCoresTransposedA_260x100x64) { check_f16<half, true, false, CFG_MDL>({260, 100, 64, true, false, false, 4}); }

// int8 x int8 -> int32 (B stored transposed), exact.
TEST(MatmulApi, Int8_40x48x100) {
  const Case c{40, 48, 100, false, true, false};
  npuvp::Device& dev = device_for(c);
  const TCubeTiling tiling = host_tiling(c, matmul_tiling::DataType::DT_INT8, matmul_tiling::DataType::DT_INT32);
  std::mt19937 gen(3);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int8_t> a(size_t(c.m) * c.k), bt(size_t(c.n) * c.k);
  for (auto& x : a) x = int8_t(d(gen));
  for (auto& x : bt) x = int8_t(d(gen));
  int8_t *ga = npuvp::testing::to_gm(a), *gb = npuvp::testing::to_gm(bt);
  auto* gc = static_cast<int32_t*>(AscendC::GmAlloc(size_t(c.m) * c.n * 4));
  dev.launch("matmul_int8", 1, [&] {
    matmul_kernel<int8_t, int32_t, false, true, CFG_NORM>(reinterpret_cast<GM_ADDR>(ga), reinterpret_cast<GM_ADDR>(gb),
                                                          nullptr, reinterpret_cast<GM_ADDR>(gc), tiling, false, true);
  });
  for (uint32_t i = 0; i < c.m; ++i) {
    for (uint32_t j = 0; j < c.n; ++j) {
      int32_t want = 0;
      for (uint32_t kk = 0; kk < c.k; ++kk) want += int32_t(a[size_t(i) * c.k + kk]) * int32_t(bt[size_t(j) * c.k + kk]);
      ASSERT_EQ(gc[size_t(i) * c.n + j], want) << "C[" << i << "][" << j << "]";
    }
  }
}

// Iterate / GetTensorC one block at a time equals IterateAll, in either iterate order.
TEST(MatmulApi, IterateGetTensorC) {
  const Case c{100, 90, 40};
  npuvp::Device& dev = device_for(c);
  TCubeTiling tiling = host_tiling(c, matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT);
  tiling.baseM = 32, tiling.baseN = 48;  // several blocks
  const auto a = npuvp::testing::random_halves(size_t(c.m) * c.k, 5);
  const auto b = npuvp::testing::random_halves(size_t(c.k) * c.n, 6);
  half *ga = npuvp::testing::to_gm(a), *gb = npuvp::testing::to_gm(b);
  auto* gc = static_cast<float*>(AscendC::GmAlloc(size_t(c.m) * c.n * 4));
  uint32_t blocks = 0;
  dev.launch("matmul_iterate", 1, [&] {
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(ga), a.size());
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(gb), b.size());
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gc), size_t(c.m) * c.n);
    TPipe pipe;
    matmul::Matmul<matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    while (mm.Iterate()) {
      mm.GetTensorC(cGm);
      ++blocks;
    }
    mm.End();
  });
  EXPECT_EQ(blocks, ceiling(c.m, 32) * ceiling(c.n, 48));
  const auto want = reference(a, b, {}, c);
  EXPECT_EQ(npuvp::testing::first_mismatch(gc, want), -1);
}

// CANN's mixed mode, as the MatmulLeakyRelu sample writes it: every AIV runs the Matmul of its
// block (usedCoreNum counts AIVs), GetTensorC brings each base block into its UB, the AIV
// applies LeakyReLU and writes the block out; the AIC of each AI Core does the cube work.
TEST(MatmulApi, MixedAivCallsItsAic) {
  const Case c{200, 96, 72, false, false, true, 2};
  auto& dev = npuvp::testing::make_device({"platform.cores=2"}, "ascend910b");
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
  matmul_tiling::MultiCoreMatmulTiling api(*platform);
  api.SetDim(static_cast<int32_t>(platform->GetCoreNumAiv()));
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  api.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  api.SetShape(c.m, c.n, c.k);
  api.SetOrgShape(c.m, c.n, c.k);
  api.SetBias(true);
  api.SetFixSplit(64, 48, -1);  // several blocks per AIV, with M tails
  TCubeTiling tiling;
  ASSERT_EQ(api.GetTiling(tiling), 0);
  ASSERT_EQ(tiling.iterateOrder, 0);
  ASSERT_GT(tiling.usedCoreNum, 2);
  const float alpha = 0.25f;
  const auto a = npuvp::testing::random_halves(size_t(c.m) * c.k, 21);
  const auto b = npuvp::testing::random_halves(size_t(c.k) * c.n, 22);
  const auto bias = npuvp::testing::random_vector<float>(c.n, 23, -4, 4);
  half *ga = npuvp::testing::to_gm(a), *gb = npuvp::testing::to_gm(b);
  float* gbias = npuvp::testing::to_gm(bias);
  auto* gc = static_cast<float*>(AscendC::GmAlloc(size_t(c.m) * c.n * 4));
  auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(platform->GetLibApiWorkSpaceSize()));
  npuvp::LaunchOptions options;
  options.kernel_type = npuvp::aicore::KernelType::Mix1To2;
  const uint32_t blocks = (tiling.usedCoreNum + 1) / 2;
  dev.launch("matmul_leakyrelu", blocks, [&] {
    SetSysWorkspace(ws);
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm, biasGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(ga), a.size());
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(gb), b.size());
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gc), size_t(c.m) * c.n);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gbias), c.n);
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::VECIN, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    // From here on only the AIVs run (the AIC served and returned).
    TQue<TPosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(outQueue, 1, tiling.baseM * tiling.baseN * sizeof(float));
    const uint32_t block = GetBlockIdx();
    if (block >= uint32_t(tiling.usedCoreNum)) return;
    const uint32_t blocks_m = ceiling(tiling.M, tiling.singleCoreM);
    const uint32_t bm = block % blocks_m, bn = block / blocks_m;
    const int tail_m = std::min<int>(tiling.singleCoreM, tiling.M - int(bm * tiling.singleCoreM));
    const int tail_n = std::min<int>(tiling.singleCoreN, tiling.N - int(bn * tiling.singleCoreN));
    const uint64_t offset_c = uint64_t(bm) * tiling.N * tiling.singleCoreM + bn * tiling.singleCoreN;
    mm.SetTensorA(aGm[uint64_t(bm) * tiling.Ka * tiling.singleCoreM]);
    mm.SetTensorB(bGm[bn * tiling.singleCoreN]);
    mm.SetBias(biasGm[bn * tiling.singleCoreN]);
    mm.SetTail(tail_m, tail_n);
    const uint32_t round_m = ceiling(tail_m, tiling.baseM);
    uint32_t count = 0;
    while (mm.Iterate()) {
      LocalTensor<float> out = outQueue.AllocTensor<float>();
      mm.GetTensorC(out);
      LeakyRelu(out, out, alpha, tiling.baseM * tiling.baseN);
      outQueue.EnQue(out);
      out = outQueue.DeQue<float>();
      const uint32_t m0 = count % round_m * tiling.baseM, n0 = count / round_m * tiling.baseN;
      const uint32_t rows = std::min<uint32_t>(tiling.baseM, tail_m - m0);
      const uint32_t cols = std::min<uint32_t>(tiling.baseN, tail_n - n0);
      for (uint32_t r = 0; r < rows; ++r) {
        DataCopy(cGm[offset_c + uint64_t(m0 + r) * tiling.N + n0], out[r * tiling.baseN], cols);
      }
      outQueue.FreeTensor(out);
      ++count;
    }
    mm.End();
  }, options);
  auto want = reference(a, b, bias, c);
  for (float& x : want) x = x >= 0 ? x : x * alpha;
  const long bad = npuvp::testing::first_mismatch(gc, want);
  EXPECT_EQ(bad, -1) << "C[" << bad / long(c.n) << "][" << bad % long(c.n) << "] = " << gc[bad < 0 ? 0 : bad]
                     << ", want " << (bad < 0 ? 0.0f : want[bad]);
}

// The tiling fails (-1) without types or shape, and with a bias wider than the BiasTable.
TEST(MatmulTiling, FailsWithoutTypesOrShape) {
  npuvp::testing::make_device({}, "ascend910b");
  optiling::TCubeTiling t;
  matmul_tiling::MultiCoreMatmulTiling no_types;
  no_types.SetDim(2);
  no_types.SetShape(64, 64, 64);
  EXPECT_EQ(no_types.GetTiling(t), -1);
  matmul_tiling::MatmulApiTiling no_shape;
  no_shape.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  no_shape.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  no_shape.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  EXPECT_EQ(no_shape.GetTiling(t), -1);
  no_shape.SetShape(64, 64, 64);
  EXPECT_EQ(no_shape.GetTiling(t), 0);
  no_shape.SetFixSplit(16, 512, -1);  // baseN 512: 1 KiB BiasTable holds 256 floats
  no_shape.SetBias(true);
  EXPECT_EQ(no_shape.GetTiling(t), -1);
}

// The tiles fit the chip's buffers and 4096^3 uses every core with full base blocks.
TEST(MatmulTiling, FitsBuffersAndUsesAllCores) {
  npuvp::testing::make_device({}, "ascend910b");
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
  ASSERT_NE(platform, nullptr);
  matmul_tiling::MultiCoreMatmulTiling api(*platform);
  api.SetDim(static_cast<int32_t>(platform->GetCoreNumAic()));
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  api.SetShape(4096, 4096, 4096);
  api.SetOrgShape(4096, 4096, 4096);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  uint64_t l1 = 0, l0a = 0, l0c = 0;
  platform->GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1);
  platform->GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, l0a);
  platform->GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c);
  // 128 x 256: 96 GM bytes per cube cycle at peak, within MTE2's 110 (128 x 128 needs 128).
  EXPECT_EQ(t.baseM, 128);
  EXPECT_EQ(t.baseN, 256);
  EXPECT_EQ(t.iterateOrder, 0);  // CANN's default: along M first
  EXPECT_LE(uint64_t(t.baseM) * t.baseK * 2 * 2, l0a);
  EXPECT_LE(uint64_t(t.baseN) * t.baseK * 2 * 2, l0a);  // L0B is L0A's size
  EXPECT_LE(uint64_t(t.shareL1Size), l1);
  EXPECT_LE(uint64_t(t.shareL0CSize), l0c);
  EXPECT_EQ(t.usedCoreNum, 24);
  int32_t dim = 0, m_dim = 0, n_dim = 0;
  ASSERT_EQ(api.GetCoreNum(dim, m_dim, n_dim), 0);
  EXPECT_EQ(dim, t.usedCoreNum);
}

// The platform queries answer from the configured platform, overrides included.
TEST(PlatformAscendC, AnswersFromTheConfiguredPlatform) {
  npuvp::testing::make_device({"platform.cores=4", "core.ub.size=128KiB"}, "ascend910b");
  auto* p = platform_ascendc::PlatformAscendCManager::GetInstance();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->GetCoreNumAic(), 4u);
  EXPECT_EQ(p->GetCoreNumAiv(), 8u);
  EXPECT_EQ(p->GetCoreNum(), 8u);
  EXPECT_EQ(p->GetSocVersion(), platform_ascendc::SocVersion::ASCEND910B);
  uint64_t ub = 0, l0b = 0;
  p->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  p->GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, l0b);
  EXPECT_EQ(ub, 128u * 1024);
  EXPECT_EQ(l0b, 64u * 1024);
  EXPECT_EQ(p->GetLibApiWorkSpaceSize(), 16u * 1024 * 1024);
  uint64_t hbm_bw = 0;
  p->GetCoreMemBw(platform_ascendc::CoreMemType::HBM, hbm_bw);
  EXPECT_GT(hbm_bw, 0u);
}

TEST(PlatformAscendC, CoupledChip) {
  npuvp::testing::make_device({}, "ascend310p");
  auto* p = platform_ascendc::PlatformAscendCManager::GetInstance();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->GetCoreNumAic(), 8u);
  EXPECT_EQ(p->GetCoreNumAiv(), 8u);
  EXPECT_EQ(p->GetCoreNumVector(), 7u);
  EXPECT_EQ(p->GetSocVersion(), platform_ascendc::SocVersion::ASCEND310P);
}

// A Matmul on an AIV is an error naming the core and the call.
TEST(MatmulApi, OnAivIsAnError) {
  auto& dev = npuvp::testing::make_device({"platform.cores=1"}, "ascend910b");
  TCubeTiling tiling = host_tiling({64, 64, 64}, matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT);
  const std::string err = npuvp::testing::kernel_error(dev, 1, [&] {
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  });
  EXPECT_THAT(err, npuvp::testing::IsCoreError("aiv0", "Matmul::Init", "has no cube"));
}

// CANN documents no Matmul on the Atlas training series (910): Init says so, naming the core.
// (The 310P's Matmul: matmul_api_coupled_test.cpp.)
TEST(MatmulApi, CoupledChipIsAClearError) {
  auto& dev = npuvp::testing::make_device({"platform.cores=1"}, "ascend910");
  TCubeTiling tiling = host_tiling({64, 64, 64}, matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT);
  const std::string err = npuvp::testing::kernel_error(dev, 1, [&] {
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  });
  EXPECT_THAT(err, npuvp::testing::IsKernelError("Matmul::Init", "not supported on ascend910"));
}

// set_/get_ accessors, SaveToBuffer's bytes, and GET_TILING_DATA reading them back.
TEST(TilingData, SaveToBufferAndGetTilingData) {
  optiling::AddCustomTilingData host;
  host.set_totalLength(8 * 2048);
  host.set_tileNum(8);
  const int32_t shape[3] = {2, 3, 5};
  host.set_shape(shape);
  host.set_scale(0.5f);
  host.mm.set_baseM(128);
  host.get_mm().set_N(77);
  EXPECT_EQ(host.get_totalLength(), 8u * 2048);
  EXPECT_EQ(host.get_shape()[2], 5);
  std::vector<uint8_t> buf(host.GetDataSize());
  EXPECT_FALSE(host.SaveToBuffer(buf.data(), buf.size() - 1));
  ASSERT_TRUE(host.SaveToBuffer(buf.data(), buf.size()));
  GET_TILING_DATA(tilingData, buf.data());
  EXPECT_EQ(tilingData.totalLength, 8u * 2048);
  EXPECT_EQ(tilingData.tileNum, 8);
  EXPECT_EQ(tilingData.shape[1], 3);
  EXPECT_EQ(tilingData.scale, 0.5f);
  EXPECT_EQ(tilingData.mm.baseM, 128);
  EXPECT_EQ(tilingData.mm.N, 77);
  GET_TILING_DATA_WITH_STRUCT(optiling::AddCustomTilingData, named, buf.data());
  EXPECT_EQ(named.get_tileNum(), 8);
}

// The system workspace: per core, the user part after GetLibApiWorkSpaceSize bytes.
TEST(MatmulApi, SysWorkspace) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(17u << 20));
  GM_ADDR seen = nullptr, user = nullptr;
  dev.launch("ws", 1, [&] {
    SetSysWorkspace(ws);
    seen = GetSysWorkSpacePtr();
    user = GetUserWorkspace(ws);
  });
  EXPECT_EQ(seen, ws);
  EXPECT_EQ(user, ws + (16u << 20));
}

}  // namespace matmul_api_test
