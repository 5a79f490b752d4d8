// conv2d on one A2 core and on one coupled 910 core, bit for bit against the numeric contract
// (sw/kernels/conv2d_reference.h): the img2col matrix (zeros for padding and for channels >= c)
// times the formatted weights, accumulated in increasing k with one rounding per addition; the
// bias starts the sum on A2 (BiasTable) and is added to it on 910 (vector unit); then ReLU.
#include <gtest/gtest.h>
#include "sw/kernels/conv2d.h"
#include "sw/kernels/conv2d_reference.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/matmul_reference.h"
#include "tlm/stats.h"

namespace conv2d_test {
using npuvp::kernels::Conv2dShape;

enum class Core { A2, Coupled910 };

void check_conv2d(Core core, Conv2dShape s, bool relu) {
  auto& dev = npuvp::testing::make_device({}, core == Core::A2 ? "core910b" : "core910");
  const uint32_t P = s.out_h() * s.out_w(), coutp = (s.cout + 15) / 16 * 16;
  auto x = npuvp::testing::random_halves(size_t(s.c) * s.h * s.w, 31);
  auto w = npuvp::testing::random_halves(size_t(s.cout) * s.c * s.kh * s.kw, 32);
  auto bias = npuvp::testing::random_vector<float>(coutp, 33, -1, 1);
  auto wf = npuvp::kernels::conv2d_format_weights(w, s);
  half *gx = npuvp::testing::to_gm(x), *gw = npuvp::testing::to_gm(wf);
  float* gb = npuvp::testing::to_gm(bias);
  auto* gy = static_cast<float*>(AscendC::GmAlloc(size_t(P) * s.cout * 4));
  auto* ws = core == Core::A2 ? nullptr
                              : static_cast<uint8_t*>(AscendC::GmAlloc(npuvp::kernels::conv2d_910_workspace_bytes(s)));
  dev.launch("conv2d", 1, [&] {
    auto px = reinterpret_cast<GM_ADDR>(gx), pw = reinterpret_cast<GM_ADDR>(gw);
    auto pb = reinterpret_cast<GM_ADDR>(gb), py = reinterpret_cast<GM_ADDR>(gy);
    if (core == Core::A2) {
      npuvp::kernels::conv2d_a2(px, pw, pb, py, s, relu);
    } else {
      npuvp::kernels::conv2d_910(px, pw, pb, py, ws, s, relu);
    }
  });
  const auto want = npuvp::kernels::conv2d_reference(
      x, wf, bias, s, relu,
      core == Core::A2 ? npuvp::kernels::ConvBias::StartsTheSum : npuvp::kernels::ConvBias::AddedToTheSum);
  const long bad = npuvp::testing::first_mismatch(gy, want);
  EXPECT_EQ(bad, -1) << "position " << bad / long(s.cout) << " channel " << bad % long(s.cout) << ": "
                     << gy[bad < 0 ? 0 : bad] << " vs " << want[bad < 0 ? 0 : bad];
  EXPECT_GT(npuvp::Stats::global().value("core0.M.instructions"), 0u);
}

Conv2dShape shape(uint32_t c, uint32_t h, uint32_t w, uint32_t cout, uint32_t k, uint32_t stride, uint32_t pad,
                  uint32_t dilation) {
  Conv2dShape s;
  s.c = c; s.h = h; s.w = w; s.cout = cout; s.kh = s.kw = k; s.stride = stride; s.pad = pad; s.dilation = dilation;
  return s;
}

// The shapes, each run on both products.
Conv2dShape c3_8x8_cout16_3x3_pad1() { return shape(3, 8, 8, 16, 3, 1, 1, 1); }
Conv2dShape c20_7x9_cout24_3x3_stride2() { return shape(20, 7, 9, 24, 3, 2, 1, 1); }
Conv2dShape c16_12x12_cout32_3x3_dilation2() { return shape(16, 12, 12, 32, 3, 1, 2, 2); }  // two tiles
Conv2dShape c5_6x6_cout7_1x1() { return shape(5, 6, 6, 7, 1, 1, 0, 1); }
Conv2dShape c3_8x8_cout16_1x1_pad1() { return shape(3, 8, 8, 16, 1, 1, 1, 1); }  // the border is bias only
Conv2dShape c3_8x8_cout16_1x3() { Conv2dShape s = shape(3, 8, 8, 16, 1, 1, 0, 1); s.kw = 3; return s; }
// Odd everything and several tiles (C1 = 3: K = 432; 64 positions a tile on A2, 32 on 910).
Conv2dShape c35_11x13_cout21_3x3_pad1() { return shape(35, 11, 13, 21, 3, 1, 1, 1); }

TEST(Conv2dA2, C3_8x8_Cout16_3x3_Pad1_Relu) { check_conv2d(Core::A2, c3_8x8_cout16_3x3_pad1(), true); }
TEST(Conv2dA2, C20_7x9_Cout24_3x3_Stride2_Relu) { check_conv2d(Core::A2, c20_7x9_cout24_3x3_stride2(), true); }
TEST(Conv2dA2, C16_12x12_Cout32_3x3_Dilation2_TwoTiles) { check_conv2d(Core::A2, c16_12x12_cout32_3x3_dilation2(), false); }
TEST(Conv2dA2, C5_6x6_Cout7_1x1_NoRelu) { check_conv2d(Core::A2, c5_6x6_cout7_1x1(), false); }
TEST(Conv2dA2, C3_8x8_Cout16_1x1_Pad1_BiasOnTheBorder) { check_conv2d(Core::A2, c3_8x8_cout16_1x1_pad1(), false); }
TEST(Conv2dA2, C3_8x8_Cout16_1x3) { check_conv2d(Core::A2, c3_8x8_cout16_1x3(), false); }
TEST(Conv2dA2, C35_11x13_Cout21_3x3_Pad1_Relu_ManyTiles) { check_conv2d(Core::A2, c35_11x13_cout21_3x3_pad1(), true); }

TEST(Conv2d910, C3_8x8_Cout16_3x3_Pad1_Relu) { check_conv2d(Core::Coupled910, c3_8x8_cout16_3x3_pad1(), true); }
TEST(Conv2d910, C20_7x9_Cout24_3x3_Stride2_Relu) { check_conv2d(Core::Coupled910, c20_7x9_cout24_3x3_stride2(), true); }
TEST(Conv2d910, C16_12x12_Cout32_3x3_Dilation2_TwoTiles) {
  check_conv2d(Core::Coupled910, c16_12x12_cout32_3x3_dilation2(), false);
}
TEST(Conv2d910, C5_6x6_Cout7_1x1_NoRelu) { check_conv2d(Core::Coupled910, c5_6x6_cout7_1x1(), false); }
TEST(Conv2d910, C3_8x8_Cout16_1x1_Pad1_BiasOnTheBorder) { check_conv2d(Core::Coupled910, c3_8x8_cout16_1x1_pad1(), false); }
TEST(Conv2d910, C3_8x8_Cout16_1x3) { check_conv2d(Core::Coupled910, c3_8x8_cout16_1x3(), false); }
TEST(Conv2d910, C35_11x13_Cout21_3x3_Pad1_Relu_ManyTiles) {
  check_conv2d(Core::Coupled910, c35_11x13_cout21_3x3_pad1(), true);
}
}  // namespace conv2d_test
