// Graph rewrites before a run (sw/onnx/graph_fusion.h): a BatchNormalization after a Conv is
// folded into the Conv's weights and bias, the graph's result stays within ONNX's float32
// tolerance of a double reference; a Conv output read elsewhere is not folded. Also the
// target check: float32 Conv on a chip without an f32 cube is refused before anything runs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <cmath>
#include <cstring>
#include <vector>

#include "platforms/ascend_soc.h"
#include "sw/onnx/graph_fusion.h"
#include "sw/onnx/graph_runtime.h"
#include "sw/onnx/model_loader.h"
#include "sw/runtime/device.h"
#include "tlm/stats.h"
#include "tests/onnx/op_harness.h"
#include "tests/support/error_of.h"

namespace graph_fusion_test {
using ::testing::HasSubstr;
using npuvp::Device;
using namespace npuvp::onnx;

// X 1xCxHxW, W MxCx3x3, pads 1: Y 1xMxHxW. Small by default; the K-split case has 128 input
// channels (K = 1153: 19 f32 steps of 64) and one 128 x 128 tile for the 24 AICs.
struct Dims {
  int64_t c = 3, m = 4, h = 6, w = 6;
};

HostTensor floats(const std::string& name, std::vector<int64_t> shape, const std::vector<float>& v) {
  HostTensor h;
  h.desc = TensorDesc{name, DType::Float, std::move(shape)};
  h.bytes.assign(reinterpret_cast<const char*>(v.data()), v.size() * 4);
  return h;
}

Node node(const std::string& name, const std::string& op, std::vector<std::string> in, std::vector<std::string> out) {
  Node n;
  n.name = name;
  n.op_type = op;
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  n.source = "hand-made.onnx: node '" + name + "' (" + op + ")";
  n.opset = 17;
  return n;
}

struct ConvBn {
  Dims d;
  Model model;
  std::vector<float> x, w, b, scale, shift, mean, var;
};

// x -> Conv(W, B, pads 1) -> c -> BatchNormalization -> y; with `c_also_output`, c is a graph
// output too (so it must not disappear).
ConvBn conv_bn(bool c_also_output = false, Dims d = {}) {
  ConvBn g;
  g.d = d;
  const int64_t kC = d.c, kM = d.m, kH = d.h, kW = d.w;
  using npuvp::testing::random_floats;
  g.x = random_floats(kC * kH * kW, 1);
  g.w = random_floats(kM * kC * 9, 2);
  g.b = random_floats(kM, 3);
  g.scale = random_floats(kM, 4, 0.5f, 2.0f);
  g.shift = random_floats(kM, 5);
  g.mean = random_floats(kM, 6);
  g.var = random_floats(kM, 7, 0.1f, 3.0f);
  Model& m = g.model;
  m.file = "hand-made.onnx";
  m.opset = 17;
  m.tensors["x"] = TensorDesc{"x", DType::Float, {1, kC, kH, kW}};
  m.tensors["c"] = TensorDesc{"c", DType::Float, {1, kM, kH, kW}};
  m.tensors["y"] = TensorDesc{"y", DType::Float, {1, kM, kH, kW}};
  for (HostTensor h : {floats("W", {kM, kC, 3, 3}, g.w), floats("B", {kM}, g.b), floats("scale", {kM}, g.scale),
                       floats("shift", {kM}, g.shift), floats("mean", {kM}, g.mean), floats("var", {kM}, g.var)}) {
    m.tensors[h.desc.name] = h.desc;
    m.initializers[h.desc.name] = h;
  }
  Node conv = node("conv", "Conv", {"x", "W", "B"}, {"c"});
  conv.attributes["pads"] = std::vector<int64_t>{1, 1, 1, 1};
  Node bn = node("bn", "BatchNormalization", {"c", "scale", "shift", "mean", "var"}, {"y"});
  bn.attributes["epsilon"] = 1e-3f;
  m.nodes = {conv, bn};
  m.inputs = {"x"};
  m.outputs = {"y"};
  if (c_also_output) m.outputs.push_back("c");
  return g;
}

// Conv + BatchNormalization in double, and the sum of |terms| of each output (for the bound
// of f32 rounding where the sum cancels).
void reference(const ConvBn& g, std::vector<double>& y, std::vector<double>& magnitude) {
  const int64_t kC = g.d.c, kM = g.d.m, kH = g.d.h, kW = g.d.w;
  y.assign(kM * kH * kW, 0.0);
  magnitude.assign(kM * kH * kW, 0.0);
  for (int64_t m = 0; m < kM; ++m) {
    const double s = double(g.scale[m]) / std::sqrt(double(g.var[m]) + double(1e-3f));
    for (int64_t oh = 0; oh < kH; ++oh) {
      for (int64_t ow = 0; ow < kW; ++ow) {
        double acc = g.b[m], mag = std::fabs(double(g.b[m]));
        for (int64_t c = 0; c < kC; ++c) {
          for (int64_t i = 0; i < 3; ++i) {
            for (int64_t j = 0; j < 3; ++j) {
              const int64_t h = oh + i - 1, w = ow + j - 1;
              if (h < 0 || h >= kH || w < 0 || w >= kW) continue;
              const double t = double(g.x[(c * kH + h) * kW + w]) * double(g.w[((m * kC + c) * 3 + i) * 3 + j]);
              acc += t;
              mag += std::fabs(t);
            }
          }
        }
        const size_t at = size_t((m * kH + oh) * kW + ow);
        y[at] = (acc - double(g.mean[m])) * s + double(g.shift[m]);
        magnitude[at] = (mag + std::fabs(double(g.mean[m]))) * std::fabs(s) + std::fabs(double(g.shift[m]));
      }
    }
  }
}

// Runs the folded graph on the configured device and checks it against the double reference:
// ONNX's float32 tolerance, plus f32 rounding of the K-term sum where it cancels.
void expect_matches_reference(const ConvBn& g) {
  const int64_t kC = g.d.c, kM = g.d.m, kH = g.d.h, kW = g.d.w;
  HostTensor x = floats("x", {1, kC, kH, kW}, g.x);
  const GraphResult r = run_model(g.model, {x}, Precision::Fp32);
  ASSERT_EQ(r.outputs.size(), 1u);
  ASSERT_EQ(r.outputs[0].bytes.size(), size_t(kM * kH * kW) * 4);
  std::vector<double> want, magnitude;
  reference(g, want, magnitude);
  const auto* got = reinterpret_cast<const float*>(r.outputs[0].bytes.data());
  const double terms = double(kC * 9 + 2);
  for (size_t i = 0; i < want.size(); ++i) {
    const double slack = 1e-7 + 1e-3 * std::fabs(want[i]) + terms * std::ldexp(magnitude[i], -24);
    EXPECT_LE(std::fabs(double(got[i]) - want[i]), slack) << "output " << i;
  }
  ASSERT_EQ(r.layers.size(), 1u);
  EXPECT_EQ(r.layers[0].op_type, "Conv");
}

TEST(OnnxGraphFusionTest, BatchNormalizationAfterConvIsFoldedAndTheResultHolds) {
  Device::configure("ascend910b", {"sim.mode=functional"});
  ConvBn g = conv_bn();
  const FusionReport report = fuse_graph(g.model);
  EXPECT_EQ(report.batchnorms_folded, 1u);
  ASSERT_EQ(g.model.nodes.size(), 1u);
  const Node& conv = g.model.nodes[0];
  EXPECT_EQ(conv.name, "conv");
  EXPECT_EQ(conv.outputs, std::vector<std::string>{"y"});
  EXPECT_EQ(g.model.tensors.count("c"), 0u) << "the intermediate value is gone";
  // Only the folded weights and bias stay initializers: nothing unused is copied to GM.
  ASSERT_EQ(g.model.initializers.size(), 2u);
  EXPECT_EQ(g.model.initializers.count(conv.inputs[1]), 1u);
  EXPECT_EQ(g.model.initializers.count(conv.inputs[2]), 1u);
  EXPECT_EQ(conv.inputs[1], "W") << "only this Conv reads W: folded in place";
  EXPECT_EQ(g.model.initializers.count("scale"), 0u);

  expect_matches_reference(g);
}

// Few output tiles, long K: the A2 GEMM cuts K into slices added into Y atomically (timed
// mode, so the slices' adds land in simulated order); the sum must still hold.
TEST(OnnxGraphFusionTest, AKSplitConvOnThe910BAddsItsSlicesIntoY) {
  Device::configure("ascend910b", {"sim.mode=timed"});
  Dims d;
  d.c = 128;
  d.m = 32;
  d.h = d.w = 7;
  ConvBn g = conv_bn(false, d);
  ASSERT_EQ(fuse_graph(g.model).batchnorms_folded, 1u);
  expect_matches_reference(g);
  // K = 1153 is 19 steps of 64: 4 slices of at least 4 steps, on 4 AICs, each adding the
  // whole 32 x 49 tile into Y atomically.
  auto& soc = Device::instance().soc();
  unsigned adders = 0;
  uint64_t atomic_bytes = 0;
  for (unsigned i = 0; i < soc.num_cores(); ++i) {
    const uint64_t b = npuvp::Stats::global().value(std::string(soc.core(i).basename()) + ".gm.atomic_bytes");
    adders += b > 0;
    atomic_bytes += b;
  }
  EXPECT_EQ(adders, 4u);
  EXPECT_EQ(atomic_bytes, 4u * uint64_t(d.m * d.h * d.w) * 4);
}

TEST(OnnxGraphFusionTest, AConvOutputReadElsewhereIsNotFolded) {
  ConvBn g = conv_bn(/*c_also_output=*/true);
  EXPECT_EQ(fuse_graph(g.model).batchnorms_folded, 0u);
  EXPECT_EQ(g.model.nodes.size(), 2u);
  EXPECT_EQ(g.model.initializers.size(), 6u);

  ConvBn t = conv_bn();
  t.model.nodes[1].attributes["training_mode"] = int64_t(1);  // refused later by its own check
  EXPECT_EQ(fuse_graph(t.model).batchnorms_folded, 0u);
  EXPECT_EQ(t.model.nodes.size(), 2u);
}

TEST(OnnxGraphFusionTest, Float32ConvOnAChipWithoutAnF32CubeIsRefusedBeforeAnythingRuns) {
  Device::configure("ascend910");
  ConvBn g = conv_bn();
  check_model(g.model);  // the structure is fine
  const Target target = device_target(Precision::Fp32);
  EXPECT_FALSE(target.f32_cube);
  const std::string error = npuvp::testing::error_of([&] { check_model(g.model, &target); });
  EXPECT_THAT(error, HasSubstr("node 'conv' (Conv)"));
  EXPECT_THAT(error, HasSubstr("precision float32"));
  EXPECT_THAT(error, HasSubstr("run with --precision fp16"));
  EXPECT_EQ(Device::instance().soc().host_bridge().copies(), 0u) << "nothing was copied";
  const Target fp16 = device_target(Precision::Fp16);
  check_model(g.model, &fp16);  // fp16 Conv is fine on the 910
  // No folding on a coupled chip (its padded K makes the bias column cost more than BN).
  EXPECT_EQ(fuse_graph(g.model, fp16).batchnorms_folded, 0u);
  EXPECT_EQ(g.model.nodes.size(), 2u);
}

}  // namespace graph_fusion_test
