// Conv lowering (sw/onnx/ops_conv.cpp) on the 910B in f32 and on the 310P in fp16, against a
// plain double-accumulation reference of ONNX's Conv, under ONNX's float32 tolerance
// (|got - want| <= 1e-7 + 1e-3 |want|) plus, for outputs where the sum cancels, the bound of
// f32 accumulation in K order: K * 2^-24 * sum |x w| (an output near 0 from large products
// cannot be within 1e-3 of itself in any f32 arithmetic, numpy's included). fp16 adds the operands' rounding: each of x and w is
// rounded to f16 (relative error <= 2^-11), so a sum moves by at most about
// 2^-10 * sum |x w|; the slack is 1.5 times that (the f32 accumulation adds far less).
#include <gtest/gtest.h>
#include "tests/onnx/op_harness.h"
#include "tests/support/error_of.h"

namespace conv_ops_test {
using npuvp::onnx::AttributeValue;
using npuvp::onnx::Precision;
using namespace npuvp::testing;

struct ConvCase {
  std::vector<int64_t> x, w;  // NCHW / MCkk (or rank 3 for 1-D)
  std::map<std::string, AttributeValue> attrs;
  bool bias = false;
};

// Reference: direct convolution in double, with the geometry computed independently here.
struct Ref {
  std::vector<double> y, magnitude;
  std::vector<int64_t> shape;
};

Ref reference(const ConvCase& c, const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& b) {
  const bool one_d = c.x.size() == 3;
  const int64_t N = c.x[0], C = c.x[1], H = one_d ? 1 : c.x[2], W = c.x.back();
  const int64_t M = c.w[0], CG = c.w[1], KH = one_d ? 1 : c.w[2], KW = c.w.back();
  auto get = [&](const char* n, std::vector<int64_t> d) {
    auto it = c.attrs.find(n);
    return it == c.attrs.end() ? d : std::get<std::vector<int64_t>>(it->second);
  };
  const size_t sp = one_d ? 1 : 2;
  auto st = get("strides", std::vector<int64_t>(sp, 1)), di = get("dilations", std::vector<int64_t>(sp, 1));
  auto pads = get("pads", std::vector<int64_t>(2 * sp, 0));
  const int64_t G = c.attrs.count("group") ? std::get<int64_t>(c.attrs.at("group")) : 1;
  std::string ap = c.attrs.count("auto_pad") ? std::get<std::string>(c.attrs.at("auto_pad")) : "NOTSET";
  const int64_t sh = one_d ? 1 : st[0], sw = st.back(), dh = one_d ? 1 : di[0], dw = di.back();
  int64_t pt = one_d ? 0 : pads[0], pl = pads[sp - 1], pb = one_d ? 0 : pads[2], pr = pads[2 * sp - 1];
  int64_t OH, OW;
  auto same = [&](int64_t in, int64_t k, int64_t s, int64_t d, int64_t& lo, int64_t& hi, int64_t& o) {
    o = (in + s - 1) / s;
    const int64_t total = std::max<int64_t>(0, (o - 1) * s + (k - 1) * d + 1 - in);
    lo = ap == "SAME_UPPER" ? total / 2 : total - total / 2;
    hi = total - lo;
  };
  if (ap == "SAME_UPPER" || ap == "SAME_LOWER") {
    same(H, KH, sh, dh, pt, pb, OH);
    same(W, KW, sw, dw, pl, pr, OW);
    if (one_d) { pt = pb = 0; OH = 1; }
  } else {
    if (ap == "VALID") pt = pl = pb = pr = 0;
    OH = (H + pt + pb - (KH - 1) * dh - 1) / sh + 1;
    OW = (W + pl + pr - (KW - 1) * dw - 1) / sw + 1;
  }
  Ref r;
  r.shape = one_d ? std::vector<int64_t>{N, M, OW} : std::vector<int64_t>{N, M, OH, OW};
  r.y.assign(size_t(N * M * OH * OW), 0);
  r.magnitude.assign(r.y.size(), 0);
  const int64_t MG = M / G;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          double acc = b.empty() ? 0.0 : b[m], mag = std::fabs(acc);
          const int64_t g = m / MG;
          for (int64_t cg = 0; cg < CG; ++cg)
            for (int64_t i = 0; i < KH; ++i)
              for (int64_t j = 0; j < KW; ++j) {
                const int64_t ih = oh * sh - pt + i * dh, iw = ow * sw - pl + j * dw;
                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                const double p = double(x[((n * C + g * CG + cg) * H + ih) * W + iw]) * w[((m * CG + cg) * KH + i) * KW + j];
                acc += p;
                mag += std::fabs(p);
              }
          const size_t o = size_t(((n * M + m) * OH + oh) * OW + ow);
          r.y[o] = acc;
          r.magnitude[o] = mag;
        }
  return r;
}

void check(const char* platform, Precision precision, const ConvCase& c) {
  make_device({}, platform);
  npuvp::onnx::register_conv_ops();
  const auto x = random_floats(size_t(elements(c.x)), 1);
  const auto w = random_floats(size_t(elements(c.w)), 2);
  const auto b = c.bias ? random_floats(size_t(c.w[0]), 3) : std::vector<float>{};
  const Ref want = reference(c, x, w, b);
  std::vector<OpInput> inputs = {{"X", c.x, x}, {"W", c.w, w}};
  if (c.bias) inputs.push_back({"B", {c.w[0]}, b});
  const auto node = make_node("Conv", inputs.size(), c.attrs);
  const OpRun got = run_op(node, inputs, want.shape, precision);
  std::vector<double> slack;
  const double k = double(elements(c.w)) / double(c.w[0]) + 1;
  for (double m : want.magnitude) slack.push_back(precision == Precision::Fp16 ? 1.5 * m / 1024.0 : k * m / 16777216.0);
  const long bad = first_outside(got.output, want.y, slack);
  EXPECT_EQ(bad, -1) << "element " << bad << ": " << got.output[size_t(std::max(bad, 0L))] << " vs "
                     << want.y[size_t(std::max(bad, 0L))];
  // The multiply-adds are the cube's (the vector unit's for a depthwise conv): those launches
  // carry every flop.
  const bool depthwise = c.w[1] == 1 && c.attrs.count("group") && std::get<int64_t>(c.attrs.at("group")) == c.w[0];
  double flops = 0;
  for (const auto& l : got.launches) flops += std::string(l.unit) == (depthwise ? "vector" : "cube") ? l.flops : 0;
  EXPECT_DOUBLE_EQ(flops, 2.0 * double(want.y.size()) * double(elements(c.w) / c.w[0]));
}

using Ints = std::vector<int64_t>;
ConvCase pad1_3x3() { return {{1, 3, 8, 8}, {16, 3, 3, 3}, {{"pads", Ints{1, 1, 1, 1}}}, true}; }
ConvCase stride2_odd() { return {{2, 20, 7, 9}, {24, 20, 3, 3}, {{"pads", Ints{1, 1, 1, 1}}, {"strides", Ints{2, 2}}}, true}; }
ConvCase dilation2() { return {{1, 16, 12, 12}, {32, 16, 3, 3}, {{"pads", Ints{2, 2, 2, 2}}, {"dilations", Ints{2, 2}}}, false}; }
ConvCase asymmetric_pads() { return {{1, 5, 7, 6}, {7, 5, 3, 2}, {{"pads", Ints{0, 1, 2, 0}}, {"strides", Ints{1, 2}}}, false}; }
ConvCase groups2() { return {{1, 8, 9, 9}, {12, 4, 3, 3}, {{"group", int64_t(2)}, {"pads", Ints{1, 1, 1, 1}}}, true}; }
ConvCase depthwise() { return {{1, 8, 10, 10}, {8, 1, 3, 3}, {{"group", int64_t(8)}, {"pads", Ints{1, 1, 1, 1}}, {"strides", Ints{2, 2}}}, true}; }
ConvCase same_upper() { return {{1, 3, 7, 7}, {4, 3, 3, 3}, {{"auto_pad", std::string("SAME_UPPER")}, {"strides", Ints{2, 2}}}, false}; }
ConvCase same_lower() { return {{1, 3, 8, 8}, {4, 3, 4, 4}, {{"auto_pad", std::string("SAME_LOWER")}}, false}; }
ConvCase valid() { return {{1, 2, 9, 7}, {3, 2, 3, 3}, {{"auto_pad", std::string("VALID")}, {"strides", Ints{2, 2}}}, true}; }
ConvCase conv_1d() { return {{2, 4, 20}, {6, 4, 5}, {{"pads", Ints{2, 1}}, {"strides", Ints{2}}}, true}; }
// Several GEMM tiles in M (130 > 128), N (15 x 15 = 225 > 128) and K steps (40 x 9 > 64).
ConvCase many_tiles() { return {{1, 40, 15, 15}, {130, 40, 3, 3}, {{"pads", Ints{1, 1, 1, 1}}}, true}; }
ConvCase stem_7x7() { return {{1, 3, 32, 32}, {16, 3, 7, 7}, {{"pads", Ints{3, 3, 3, 3}}, {"strides", Ints{2, 2}}}, false}; }

TEST(ConvOps910B, Pad1_3x3_Bias) { check("ascend910b", Precision::Fp32, pad1_3x3()); }
TEST(ConvOps910B, Stride2_OddShape_Batch2) { check("ascend910b", Precision::Fp32, stride2_odd()); }
TEST(ConvOps910B, Dilation2) { check("ascend910b", Precision::Fp32, dilation2()); }
TEST(ConvOps910B, AsymmetricPads_Kernel3x2) { check("ascend910b", Precision::Fp32, asymmetric_pads()); }
TEST(ConvOps910B, Groups2) { check("ascend910b", Precision::Fp32, groups2()); }
TEST(ConvOps910B, Depthwise_Stride2) { check("ascend910b", Precision::Fp32, depthwise()); }
TEST(ConvOps910B, AutoPadSameUpper) { check("ascend910b", Precision::Fp32, same_upper()); }
TEST(ConvOps910B, AutoPadSameLower_EvenKernel) { check("ascend910b", Precision::Fp32, same_lower()); }
TEST(ConvOps910B, AutoPadValid) { check("ascend910b", Precision::Fp32, valid()); }
TEST(ConvOps910B, Conv1D) { check("ascend910b", Precision::Fp32, conv_1d()); }
TEST(ConvOps910B, ManyTiles) { check("ascend910b", Precision::Fp32, many_tiles()); }
TEST(ConvOps910B, Stem7x7Stride2) { check("ascend910b", Precision::Fp32, stem_7x7()); }
TEST(ConvOps910B, Fp16_ManyTiles) { check("ascend910b", Precision::Fp16, many_tiles()); }
TEST(ConvOps310P, Fp16_Pad1_3x3_Bias) { check("ascend310p", Precision::Fp16, pad1_3x3()); }
TEST(ConvOps310P, Fp16_Stride2_OddShape_Batch2) { check("ascend310p", Precision::Fp16, stride2_odd()); }
TEST(ConvOps310P, Fp16_Groups2) { check("ascend310p", Precision::Fp16, groups2()); }
TEST(ConvOps310P, Fp16_ManyTiles) { check("ascend310p", Precision::Fp16, many_tiles()); }

TEST(ConvOps, RefusesAnUnknownAttributeBeforeRunning) {
  npuvp::onnx::register_conv_ops();
  const auto node = make_node("Conv", 2, {{"weird", int64_t(1)}});
  const std::string text = error_of([&] {
    npuvp::onnx::find_op("Conv")->check(node, {{"X", npuvp::onnx::DType::Float, {1, 1, 4, 4}}, {"W", npuvp::onnx::DType::Float, {1, 1, 3, 3}}}, {});
  });
  EXPECT_NE(text.find("node 'n0' (Conv)"), std::string::npos) << text;
  EXPECT_NE(text.find("'weird'"), std::string::npos) << text;
}

TEST(ConvOps, Refuses3D) {
  npuvp::onnx::register_conv_ops();
  const auto node = make_node("Conv", 2, {});
  const std::string text = error_of([&] {
    npuvp::onnx::find_op("Conv")->check(node, {{"X", npuvp::onnx::DType::Float, {1, 1, 4, 4, 4}}, {"W", npuvp::onnx::DType::Float, {1, 1, 3, 3, 3}}}, {});
  });
  EXPECT_NE(text.find("rank 5"), std::string::npos) << text;
}

TEST(ConvOps, RefusesAutoPadUnknown) {
  npuvp::onnx::register_conv_ops();
  const auto node = make_node("Conv", 2, {{"auto_pad", std::string("SAME")}});
  const std::string text = error_of([&] {
    npuvp::onnx::find_op("Conv")->check(node, {{"X", npuvp::onnx::DType::Float, {1, 1, 4, 4}}, {"W", npuvp::onnx::DType::Float, {1, 1, 3, 3}}}, {});
  });
  EXPECT_NE(text.find("'auto_pad' = 'SAME'"), std::string::npos) << text;
}

// The coupled 910: the same path as the 310P (aligned im2col rows, matmul_910, unpad).
TEST(ConvOps910, Fp16_Stride2_OddShape_Batch2) { check("ascend910", Precision::Fp16, stride2_odd()); }
TEST(ConvOps910, Fp16_Conv1D) { check("ascend910", Precision::Fp16, conv_1d()); }
// Depthwise on the vector unit: wide rows (several column tiles), dilation, no bias, the 310P.
ConvCase depthwise_wide() { return {{1, 40, 9, 130}, {40, 1, 3, 3}, {{"group", int64_t(40)}, {"pads", Ints{2, 2, 2, 2}}, {"dilations", Ints{2, 2}}}, false}; }
ConvCase depthwise_1d() { return {{2, 6, 33}, {6, 1, 5}, {{"group", int64_t(6)}, {"pads", Ints{2, 2}}}, true}; }
TEST(ConvOps910B, DepthwiseWideDilated) { check("ascend910b", Precision::Fp32, depthwise_wide()); }
TEST(ConvOps910B, Depthwise1D) { check("ascend910b", Precision::Fp32, depthwise_1d()); }
TEST(ConvOps310P, DepthwiseStride2) { check("ascend310p", Precision::Fp16, depthwise()); }

TEST(ConvOps, RefusesAWindowTooWideForUbBeforeRunning) {
  npuvp::onnx::register_conv_ops();
  const auto node = make_node("Conv", 2, {});
  const std::string text = error_of([&] {
    npuvp::onnx::find_op("Conv")->check(node, {{"X", npuvp::onnx::DType::Float, {1, 1, 3, 40000}}, {"W", npuvp::onnx::DType::Float, {1, 1, 3, 3}}}, {});
  });
  EXPECT_NE(text.find("node 'n0' (Conv)"), std::string::npos) << text;
  EXPECT_NE(text.find("does not fit the vector unit's buffer"), std::string::npos) << text;
}

// The 310P cube has no f32 Mmad: an f32 Conv is an error naming the node and the way out.
TEST(ConvOps310P, Fp32IsRefusedWithAHint) {
  const std::string text = error_of([&] { check("ascend310p", Precision::Fp32, pad1_3x3()); });
  EXPECT_NE(text.find("node 'n0' (Conv)"), std::string::npos) << text;
  EXPECT_NE(text.find("--precision fp16"), std::string::npos) << text;
}
}  // namespace conv_ops_test
