// conv2d on one A2 core, bit for bit against the numeric contract: the img2col matrix (zeros
// for padding and for channels >= c) times the formatted weights, accumulated in increasing k
// from the bias with one rounding per addition, then ReLU.
#include <gtest/gtest.h>
#include "sw/kernels/conv2d.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/matmul_reference.h"

namespace {
using npuvp::kernels::Conv2dShape;

void check_conv2d(Conv2dShape s, bool relu) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const uint32_t K = s.k(), P = s.out_h() * s.out_w(), coutp = (s.cout + 15) / 16 * 16;
  auto x = npuvp::testing::random_halves(size_t(s.c) * s.h * s.w, 31);
  auto w = npuvp::testing::random_halves(size_t(s.cout) * s.c * s.kh * s.kw, 32);
  auto bias = npuvp::testing::random_vector<float>(coutp, 33, -1, 1);
  // The fractal-ready weight format: [cout][(c1, kh, kw, c0)].
  std::vector<_Float16> wf(size_t(s.cout) * K, _Float16(0));
  for (uint32_t co = 0; co < s.cout; ++co)
    for (uint32_t c = 0; c < s.c; ++c)
      for (uint32_t i = 0; i < s.kh; ++i)
        for (uint32_t j = 0; j < s.kw; ++j)
          wf[size_t(co) * K + ((c / 16 * s.kh + i) * s.kw + j) * 16 + c % 16] =
              w[((size_t(co) * s.c + c) * s.kh + i) * s.kw + j];
  half *gx = npuvp::testing::to_gm(x), *gw = npuvp::testing::to_gm(wf);
  float* gb = npuvp::testing::to_gm(bias);
  auto* gy = static_cast<float*>(AscendC::GmAlloc(size_t(P) * s.cout * 4));
  dev.launch("conv2d", 1, [&] {
    npuvp::kernels::conv2d_a2(reinterpret_cast<GM_ADDR>(gx), reinterpret_cast<GM_ADDR>(gw),
                              reinterpret_cast<GM_ADDR>(gb), reinterpret_cast<GM_ADDR>(gy), s, relu);
  });
  for (uint32_t p = 0; p < P; ++p) {
    const int ho = int(p / s.out_w()), wo = int(p % s.out_w());
    for (uint32_t co = 0; co < s.cout; ++co) {
      float acc = bias[co];
      for (uint32_t q = 0; q < K; ++q) {
        const uint32_t c0 = q % 16, kw = q / 16 % s.kw, kh = q / 16 / s.kw % s.kh, c1 = q / 16 / s.kw / s.kh;
        const uint32_t c = c1 * 16 + c0;
        const int hin = ho * int(s.stride) - int(s.pad) + int(kh * s.dilation);
        const int win = wo * int(s.stride) - int(s.pad) + int(kw * s.dilation);
        const bool inside = c < s.c && hin >= 0 && hin < int(s.h) && win >= 0 && win < int(s.w);
        const float a = inside ? float(x[(size_t(c) * s.h + hin) * s.w + win]) : 0.0f;
        volatile float sum = acc + a * float(wf[size_t(co) * K + q]);  // the product is exact
        acc = sum;
      }
      const float want = relu ? (acc > 0 ? acc : 0.0f) : acc;
      ASSERT_TRUE(npuvp::testing::same_bits(gy[size_t(p) * s.cout + co], want))
          << "position " << p << " channel " << co << ": " << gy[size_t(p) * s.cout + co] << " vs " << want;
    }
  }
}

Conv2dShape shape(uint32_t c, uint32_t h, uint32_t w, uint32_t cout, uint32_t k, uint32_t stride, uint32_t pad,
                  uint32_t dilation) {
  Conv2dShape s;
  s.c = c; s.h = h; s.w = w; s.cout = cout; s.kh = s.kw = k; s.stride = stride; s.pad = pad; s.dilation = dilation;
  return s;
}

TEST(Conv2dA2, C3_8x8_Cout16_3x3_Pad1_Relu) { check_conv2d(shape(3, 8, 8, 16, 3, 1, 1, 1), true); }
TEST(Conv2dA2, C20_7x9_Cout24_3x3_Stride2_Relu) { check_conv2d(shape(20, 7, 9, 24, 3, 2, 1, 1), true); }
TEST(Conv2dA2, C16_12x12_Cout32_3x3_Dilation2_TwoTiles) { check_conv2d(shape(16, 12, 12, 32, 3, 1, 2, 2), false); }
TEST(Conv2dA2, C5_6x6_Cout7_1x1_NoRelu) { check_conv2d(shape(5, 6, 6, 7, 1, 1, 0, 1), false); }
}  // namespace
namespace {
// Padding only, and a 1 x 3 kernel: h and w walk differently.
TEST(Conv2dA2, C3_8x8_Cout16_1x1_Pad1_BiasOnTheBorder) { check_conv2d(shape(3, 8, 8, 16, 1, 1, 1, 1), false); }
TEST(Conv2dA2, C3_8x8_Cout16_1x3) { Conv2dShape s = shape(3, 8, 8, 16, 1, 1, 0, 1); s.kw = 3; check_conv2d(s, false); }
}  // namespace
