// The ONNX graph runtime's AI CPU fallback (issue 28): an op type with no AI Core lowering but
// an AI CPU kernel of the same name runs that kernel with the argument convention of
// sw/onnx/onnx_op.h, and the per-layer table says it ran on the AI CPU.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <algorithm>
#include <cstring>
#include <vector>

#include "models/soc/aicpu.h"
#include "sw/onnx/graph_runtime.h"
#include "sw/onnx/model_loader.h"
#include "sw/runtime/device.h"
#include "tests/support/error_of.h"

namespace aicpu_fallback_test {
using ::testing::HasSubstr;
using npuvp::Device;
using namespace npuvp::onnx;

// y = x * scale + offset, elementwise; checks the convention's ints and floats as it goes.
void scale_offset(npuvp::soc::AicpuContext& ctx) {
  const auto& a = ctx.args();
  // tensors {x, y}; ints {rank x, dims x..., rank y, dims y..., offset}; floats {scale}
  if (a.tensors.size() != 2 || a.ints.size() != 7 || a.floats.size() != 1) ctx.fail("unexpected argument layout");
  const int64_t n = a.ints[1] * a.ints[2];
  const float* x = ctx.input<float>(a.tensors[0], uint64_t(n));
  float* y = ctx.output<float>(a.tensors[1], uint64_t(n));
  ctx.charge(npuvp::soc::AicpuOpClass::Arithmetic, double(n));
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] * float(a.floats[0]) + float(a.ints[6]);
}

Model scale_offset_model(const std::string& op) {
  Model m;
  m.file = "hand-made.onnx";
  m.opset = 17;
  m.tensors["x"] = TensorDesc{"x", DType::Float, {2, 3}};
  m.tensors["y"] = TensorDesc{"y", DType::Float, {2, 3}};
  Node node;
  node.name = "so";
  node.op_type = op;
  node.inputs = {"x"};
  node.outputs = {"y"};
  node.attributes["scale"] = 2.5f;
  node.attributes["offset"] = int64_t(3);
  node.source = "hand-made.onnx: node 'so' (" + op + ")";
  node.opset = 17;
  m.nodes.push_back(node);
  m.inputs = {"x"};
  m.outputs = {"y"};
  return m;
}

TEST(OnnxAicpuFallbackTest, AnOpWithOnlyAnAiCpuKernelRunsOnTheAiCpu) {
  Device::configure("ascend910b");
  npuvp::soc::AicpuRegistry::global().add({"NpuvpTestScaleOffset", "test", scale_offset, nullptr});
  ASSERT_NE(find_op("NpuvpTestScaleOffset"), nullptr);
  const Model m = scale_offset_model("NpuvpTestScaleOffset");
  HostTensor x;
  x.desc = m.tensors.at("x");
  const std::vector<float> values = {1, -2, 0.5f, 4, 8, -16};
  x.bytes.resize(values.size() * 4);
  std::memcpy(x.bytes.data(), values.data(), x.bytes.size());
  const GraphResult r = run_model(m, {x}, Precision::Fp32);
  ASSERT_EQ(r.outputs.size(), 1u);
  const auto* y = reinterpret_cast<const float*>(r.outputs[0].bytes.data());
  for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(y[i], values[i] * 2.5f + 3.0f) << i;
  ASSERT_EQ(r.layers.size(), 1u);
  EXPECT_EQ(r.layers[0].unit, "aicpu");
  EXPECT_EQ(r.layers[0].bound, "aicpu");
  EXPECT_GT(r.layers[0].seconds, 0.0) << "the AI CPU's time is the layer's";
  EXPECT_THAT(layer_table(r.layers), HasSubstr("aicpu"));
  // The AI Core lowerings are listed apart from it.
  const auto ops = registered_ops();
  EXPECT_EQ(std::count(ops.begin(), ops.end(), "NpuvpTestScaleOffset"), 0);
}

TEST(OnnxAicpuFallbackTest, AnOpWithNeitherIsRefusedNamingBoth) {
  Device::configure("ascend910b");
  const Model m = scale_offset_model("NpuvpNoSuchOp");
  const std::string error = npuvp::testing::error_of([&] { check_model(m); });
  EXPECT_THAT(error, HasSubstr("node 'so' (NpuvpNoSuchOp)"));
  EXPECT_THAT(error, HasSubstr("op type 'NpuvpNoSuchOp' is not supported"));
  EXPECT_THAT(error, HasSubstr("on the AI CPU: "));
  EXPECT_THAT(error, HasSubstr("TopK"));
}

}  // namespace aicpu_fallback_test
