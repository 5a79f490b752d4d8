// ConfusionTranspose of lib/ (the seven scenarios of CANN's page): every destination element
// compared bit for bit with a plain reference that walks the logical tensor [B, N, S, H/N] (or
// [H, W]) and places each element by the layouts' definitions; several passes when the
// temporary buffer is small; the host tiling sizes; the shape errors.
#include <gtest/gtest.h>
#include "lib/transpose/confusion_transpose.h"
#include "lib/transpose/confusion_transpose_tiling.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/lib_harness.h"
#include "register/tilingdata_base.h"

// A tiling class as op projects declare one: the kernel reads it with GET_TILING_DATA and so
// holds the host form of ConfusionTransposeTiling, which the API takes as the kernel form.
namespace optiling {
BEGIN_TILING_DATA_DEF(CtTestTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF_STRUCT(ConfusionTransposeTiling, ct);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace lib_confusion_transpose_test {

using npuvp::testing::UbOperand;
using npuvp::testing::same_bits;

// Offset of element (r, c) in an NZ matrix with `rows` rows: 16-column blocks, each rows x 16.
uint32_t nz_at(uint32_t rows, uint32_t r, uint32_t c) { return (c / 16) * rows * 16 + r * 16 + c % 16; }

// The expected destination: for each logical element (b, n, s, d) of [B, N, S, hn], its place in
// the source and in the destination layout of `type`.
template <class T>
std::vector<T> reference(uint32_t type, uint32_t B, uint32_t N, uint32_t S, uint32_t hn, const std::vector<T>& src) {
  std::vector<T> dst(src.size());
  const uint32_t H = N * hn;
  if (type == 7) {  // src [S = H rows, hn = W cols] -> [W, H]
    for (uint32_t h = 0; h < S; ++h)
      for (uint32_t w = 0; w < hn; ++w) dst[w * S + h] = src[h * hn + w];
    return dst;
  }
  for (uint32_t b = 0; b < B; ++b)
    for (uint32_t n = 0; n < N; ++n)
      for (uint32_t s = 0; s < S; ++s)
        for (uint32_t d = 0; d < hn; ++d) {
          const uint32_t c = n * hn + d;  // column of the merged [S, H] view
          // Source: scenarios 3 and 4 read B NZ matrices [S, H], the others B*N NZ [S, hn].
          const uint32_t from = (type == 3 || type == 4) ? b * S * H + nz_at(S, s, c)
                                                         : (b * N + n) * S * hn + nz_at(S, s, d);
          uint32_t to = 0;
          switch (type) {
            case 1: to = ((b * S + s) * N + n) * hn + d; break;            // ND [B, S, N, hn]
            case 2: to = (b * S + s) * N * hn + nz_at(N, n, d); break;     // NZ [N, hn] per (b, s)
            case 3: to = (b * N + n) * S * hn + nz_at(S, s, d); break;     // NZ [S, hn] per (b, n)
            case 4: to = ((b * N + n) * S + s) * hn + d; break;            // ND [B, N, S, hn]
            case 5: to = (b * S + s) * H + c; break;                       // ND [B, S, H]
            case 6: to = b * S * H + nz_at(S, s, c); break;                // NZ [S, H] per b
          }
          dst[to] = src[from];
        }
  return dst;
}

// `tmpBytes` 0: the tiling's maximum (one pass).
template <class T>
void check(const std::string& platform, uint32_t type, std::vector<int64_t> shape, uint32_t tmpBytes) {
  auto& dev = npuvp::testing::make_device({}, platform);
  uint32_t maxTmp = 0, minTmp = 0;
  AscendC::GetConfusionTransposeMaxMinTmpSize(ge::Shape(shape), sizeof(T), type, maxTmp, minTmp);
  ASSERT_GT(minTmp, 0u);
  if (tmpBytes == 0) tmpBytes = maxTmp;
  ASSERT_GE(tmpBytes, minTmp);
  optiling::ConfusionTransposeTiling hostTiling;
  AscendC::GetConfusionTransposeTilingInfo(ge::Shape(shape), tmpBytes, sizeof(T), type, hostTiling);
  ConfusionTransposeTiling tiling;
  hostTiling.SaveToBuffer(&tiling, sizeof tiling);
  uint32_t B = 1, N = 1, S = 0, hn = 0;
  if (type == 7) {
    S = uint32_t(shape[0]);
    hn = uint32_t(shape[1]);
  } else {
    B = uint32_t(shape[0]), N = uint32_t(shape[1]), S = uint32_t(shape[2]), hn = uint32_t(shape[3]);
  }
  const uint32_t total = B * N * S * hn;
  const auto src = npuvp::testing::random_vector<T>(total, 31 + type, -100, 100);
  std::vector<UbOperand> ops = {UbOperand::of(src), UbOperand::zeros(total * sizeof(T)), UbOperand::zeros(tmpBytes)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    AscendC::ConfusionTranspose(ub[1].ReinterpretCast<T>(), ub[0].ReinterpretCast<T>(), ub[2],
                                static_cast<AscendC::TransposeType>(type), tiling);
  });
  const auto got = ops[1].as<T>(total);
  const auto want = reference(type, B, N, S, hn, src);
  for (uint32_t i = 0; i < total; ++i) ASSERT_TRUE(same_bits(got[i], want[i])) << "dst[" << i << "]";
}

TEST(LibConfusionTranspose, NZ2ND_0213_Half_A2) { check<half>("core910b", 1, {1, 2, 64, 32}, 0); }
TEST(LibConfusionTranspose, NZ2ND_0213_FloatPasses_A2) { check<float>("core910b", 1, {2, 3, 48, 16}, 1024); }
TEST(LibConfusionTranspose, NZ2NZ_0213_Half_A2) { check<half>("core910b", 2, {2, 16, 16, 32}, 0); }
TEST(LibConfusionTranspose, NZ2NZ_0213_OddN_Int16_310P) { check<int16_t>("ascend310p", 2, {1, 3, 32, 48}, 0); }
TEST(LibConfusionTranspose, NZ2NZ_WithN_Float_A2) { check<float>("core910b", 3, {2, 2, 32, 32}, 0); }
TEST(LibConfusionTranspose, NZ2ND_WithN_HalfPasses_A2) { check<half>("core910b", 4, {2, 4, 16, 16}, 1088); }
TEST(LibConfusionTranspose, NZ2ND_WithoutN_Int32_310P) { check<int32_t>("ascend310p", 5, {1, 3, 48, 32}, 0); }
TEST(LibConfusionTranspose, NZ2NZ_WithoutN_Half_A2) { check<half>("core910b", 6, {2, 2, 16, 48}, 0); }
TEST(LibConfusionTranspose, ND2ND_Only_Float_A2) { check<float>("core910b", 7, {32, 48}, 0); }
TEST(LibConfusionTranspose, ND2ND_Only_HalfPasses_310P) { check<half>("ascend310p", 7, {64, 80}, 2048); }

TEST(LibConfusionTranspose, TilingFromGetTilingData_A2) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const uint32_t h = 32, w = 16;
  optiling::CtTestTilingData host;
  host.set_rows(h);
  AscendC::GetConfusionTransposeTilingInfo(ge::Shape({h, w}), 0, sizeof(float), 7, host.ct);
  std::vector<uint8_t> bytes(host.GetDataSize());
  host.SaveToBuffer(bytes.data(), bytes.size());
  const auto src = npuvp::testing::random_vector<float>(h * w, 5, -9, 9);
  std::vector<UbOperand> ops = {UbOperand::of(src), UbOperand::zeros(h * w * 4), UbOperand::zeros(h * w * 4)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    GET_TILING_DATA_WITH_STRUCT(optiling::CtTestTilingData, td, bytes.data());
    AscendC::ConfusionTranspose(ub[1].ReinterpretCast<float>(), ub[0].ReinterpretCast<float>(), ub[2],
                                AscendC::TransposeType::TRANSPOSE_ND2ND_ONLY, td.ct);
  });
  const auto got = ops[1].as<float>(h * w);
  for (uint32_t r = 0; r < h; ++r)
    for (uint32_t c = 0; c < w; ++c) ASSERT_TRUE(same_bits(got[c * h + r], src[r * w + c])) << r << "," << c;
}

// As CANN's own kernels write it: the tiling computed in the kernel from a ShapeInfo, the
// temporary buffer the UB left free (PopStackBuffer, and the form without sharedTmpBuffer).
TEST(LibConfusionTranspose, KernelSideTilingAndStackBuffer_A2) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const uint32_t B = 1, N = 2, S = 32, hn = 32, total = B * N * S * hn;
  const auto src = npuvp::testing::random_vector<half>(total, 9, -9, 9);
  std::vector<UbOperand> ops = {UbOperand::of(src), UbOperand::zeros(total * 2)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    using namespace AscendC;
    uint32_t oriShape[] = {B, N, S, hn};
    uint32_t nzShape[] = {B, N, hn / 16, S / 16, 16, 16};
    ShapeInfo info(6, nzShape, 4, oriShape, DataFormat::NZ);
    LocalTensor<half> stack;
    ASSERT_TRUE(PopStackBuffer<half>(stack));
    ConfusionTransposeTiling tiling;
    GetConfusionTransposeTilingInfo(info, stack.GetSize() * 2, sizeof(half), 1, tiling);
    ConfusionTranspose(ub[1].ReinterpretCast<half>(), ub[0].ReinterpretCast<half>(),
                       TransposeType::TRANSPOSE_NZ2ND_0213, tiling);
  });
  const auto got = ops[1].as<half>(total);
  const auto want = reference(1, B, N, S, hn, src);
  for (uint32_t i = 0; i < total; ++i) ASSERT_TRUE(same_bits(got[i], want[i])) << "dst[" << i << "]";
}

TEST(LibConfusionTransposeErrors, HeadNotMultipleOf16) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const std::string err = npuvp::testing::kernel_error(dev, 1, [] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 8192);
    pipe.InitBuffer(b, 8192);
    optiling::ConfusionTransposeTiling host;
    GetConfusionTransposeTilingInfo(ge::Shape({1, 2, 16, 24}), 4096, 2, 1, host);
    ConfusionTransposeTiling t;
    host.SaveToBuffer(&t, sizeof t);
    ConfusionTranspose(b.Get<half>(), a.Get<half>(), TransposeType::TRANSPOSE_NZ2ND_0213, t);
  });
  EXPECT_THAT(err, npuvp::testing::IsKernelError("ConfusionTranspose", "H/N = 24 is not a multiple of 16"));
}

TEST(LibConfusionTransposeErrors, TilingForAnotherScenario) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const std::string err = npuvp::testing::kernel_error(dev, 1, [] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 8192);
    pipe.InitBuffer(b, 8192);
    optiling::ConfusionTransposeTiling host;
    GetConfusionTransposeTilingInfo(ge::Shape({32, 32}), 4096, 2, 7, host);
    ConfusionTransposeTiling t;
    host.SaveToBuffer(&t, sizeof t);
    ConfusionTranspose(b.Get<half>(), a.Get<half>(), TransposeType::TRANSPOSE_NZ2ND_0213, t);
  });
  EXPECT_THAT(err, npuvp::testing::IsKernelError("ConfusionTranspose", "the tiling was made for scenario 7"));
}

TEST(LibConfusionTransposeTiling, Sizes) {
  uint32_t maxV = 0, minV = 0;
  AscendC::GetConfusionTransposeMaxMinTmpSize(ge::Shape({1, 2, 64, 32}), 2, 1, maxV, minV);
  EXPECT_EQ(minV, 256u * 4);
  EXPECT_EQ(maxV, 4096u * 4);
  AscendC::GetTransposeMaxMinTmpSize(ge::Shape({16, 16}), 4, 7, maxV, minV);
  EXPECT_EQ(minV, 256u * 4);
  EXPECT_EQ(maxV, 256u * 4);
  AscendC::GetConfusionTransposeMaxMinTmpSize(ge::Shape({16, 16}), 4, 1, maxV, minV);  // scenario 1 wants 4 dims
  EXPECT_EQ(maxV, 0u);
  optiling::ConfusionTransposeTiling t;
  AscendC::GetConfusionTransposeTilingInfo(ge::Shape({2, 3, 16, 32}), 1000, 2, 5, t);
  EXPECT_EQ(t.get_param0(), 2u);
  EXPECT_EQ(t.get_param3(), 32u);
  EXPECT_EQ(t.get_param4(), 5u);
  EXPECT_EQ(t.get_param5(), 240u);  // 1000 B of offsets: 250 elements, in 16s
  EXPECT_EQ(t.get_param6(), 2u * 3 * 16 * 32);
}

}  // namespace lib_confusion_transpose_test
