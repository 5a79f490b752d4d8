// BatchNormalization (inference), LayerNormalization and ReduceMean lowerings
// (sw/onnx/ops_norm.cpp, ops_reduce.cpp) against plain double references of ONNX's
// definitions, under ONNX's float32 tolerance. Shapes and attributes follow ONNX's backend
// node tests (test_batchnorm_*, test_layer_normalization_*, test_reduce_mean_*) plus larger
// rows with tails that are not a multiple of a 32 B block.
#include <gtest/gtest.h>
#include "tests/onnx/op_harness.h"
#include "tests/support/error_of.h"

namespace norm_ops_test {
using npuvp::onnx::AttributeValue;
using namespace npuvp::testing;
using Ints = std::vector<int64_t>;

void check_batchnorm(const char* platform, Ints shape, float epsilon) {
  make_device({}, platform);
  npuvp::onnx::register_norm_ops();
  const int64_t C = shape[1], plane = elements(shape) / (shape[0] * C);
  const auto x = random_floats(size_t(elements(shape)), 1, -3, 3);
  const auto scale = random_floats(size_t(C), 2), bias = random_floats(size_t(C), 3);
  const auto mean = random_floats(size_t(C), 4), var = random_floats(size_t(C), 5, 0.1f, 2);
  std::vector<double> want;
  for (size_t i = 0; i < x.size(); ++i) {
    const size_t c = size_t(int64_t(i) / plane % C);
    want.push_back((x[i] - double(mean[c])) / std::sqrt(double(var[c]) + epsilon) * scale[c] + bias[c]);
  }
  const auto node = make_node("BatchNormalization", 5, {{"epsilon", epsilon}});
  const OpRun got = run_op(node, {{"X", shape, x}, {"s", {C}, scale}, {"b", {C}, bias}, {"m", {C}, mean}, {"v", {C}, var}}, shape);
  const long bad = first_outside(got.output, want);
  EXPECT_EQ(bad, -1) << "element " << bad << ": " << got.output[size_t(std::max(bad, 0L))] << " vs " << want[size_t(std::max(bad, 0L))];
}

TEST(NormOps910B, BatchNormExample) { check_batchnorm("ascend910b", {2, 3, 4, 5}, 1e-5f); }
TEST(NormOps910B, BatchNormEpsilon) { check_batchnorm("ascend910b", {2, 3, 4, 5}, 1e-2f); }
TEST(NormOps910B, BatchNormLargePlanes) { check_batchnorm("ascend910b", {2, 37, 97, 89}, 1e-5f); }
TEST(NormOps310P, BatchNormOddPlane) { check_batchnorm("ascend310p", {2, 5, 7, 9}, 1e-5f); }

void check_layernorm(const char* platform, Ints shape, int64_t axis, float epsilon, bool bias) {
  make_device({}, platform);
  npuvp::onnx::register_norm_ops();
  const int64_t rank = int64_t(shape.size()), a = axis < 0 ? axis + rank : axis;
  int64_t rows = 1, len = 1;
  for (int64_t i = 0; i < rank; ++i) (i < a ? rows : len) *= shape[size_t(i)];
  Ints norm_shape(shape.begin() + a, shape.end());
  const auto x = random_floats(size_t(elements(shape)), 11, -3, 3);
  const auto gamma = random_floats(size_t(len), 12), beta = random_floats(size_t(len), 13);
  std::vector<double> want;
  for (int64_t r = 0; r < rows; ++r) {
    double mean = 0, var = 0;
    for (int64_t i = 0; i < len; ++i) mean += x[size_t(r * len + i)];
    mean /= double(len);
    for (int64_t i = 0; i < len; ++i) var += (x[size_t(r * len + i)] - mean) * (x[size_t(r * len + i)] - mean);
    var /= double(len);
    for (int64_t i = 0; i < len; ++i) {
      want.push_back((x[size_t(r * len + i)] - mean) / std::sqrt(var + epsilon) * gamma[size_t(i)] + (bias ? beta[size_t(i)] : 0.0));
    }
  }
  std::map<std::string, AttributeValue> attrs = {{"axis", axis}, {"epsilon", epsilon}};
  std::vector<OpInput> inputs = {{"X", shape, x}, {"W", norm_shape, gamma}};
  if (bias) inputs.push_back({"B", norm_shape, beta});
  const OpRun got = run_op(make_node("LayerNormalization", inputs.size(), attrs), inputs, shape);
  const long bad = first_outside(got.output, want);
  EXPECT_EQ(bad, -1) << "element " << bad << ": " << got.output[size_t(std::max(bad, 0L))] << " vs " << want[size_t(std::max(bad, 0L))];
}

TEST(NormOps910B, LayerNorm4dAxis0) { check_layernorm("ascend910b", {2, 3, 4, 5}, 0, 1e-5f, true); }
TEST(NormOps910B, LayerNorm4dAxis2) { check_layernorm("ascend910b", {2, 3, 4, 5}, 2, 1e-5f, true); }
TEST(NormOps910B, LayerNorm4dAxisNegative1) { check_layernorm("ascend910b", {2, 3, 4, 5}, -1, 1e-5f, true); }
TEST(NormOps910B, LayerNorm3dEpsilonNoBias) { check_layernorm("ascend910b", {2, 3, 5}, 1, 1e-1f, false); }
TEST(NormOps910B, LayerNormBertRows) { check_layernorm("ascend910b", {1, 50, 768}, -1, 1e-12f, true); }
TEST(NormOps310P, LayerNormOddRows) { check_layernorm("ascend310p", {3, 7, 13}, -1, 1e-5f, true); }

void check_reduce_mean(const char* platform, Ints shape, Ints axes, bool keepdims, bool axes_as_input) {
  make_device({}, platform);
  npuvp::onnx::register_reduce_ops();
  const auto x = random_floats(size_t(elements(shape)), 21, -3, 3);
  const int64_t rank = int64_t(shape.size());
  std::vector<bool> reduced(size_t(rank), axes.empty());
  for (int64_t a : axes) reduced[size_t(a < 0 ? a + rank : a)] = true;
  Ints out_shape, kept;
  for (int64_t i = 0; i < rank; ++i) {
    if (!reduced[size_t(i)]) out_shape.push_back(shape[size_t(i)]);
    else if (keepdims) out_shape.push_back(1);
    kept.push_back(reduced[size_t(i)] ? 1 : shape[size_t(i)]);
  }
  std::vector<double> sum(size_t(elements(kept)), 0.0);
  const double count = double(elements(shape)) / double(elements(kept));
  for (int64_t i = 0; i < elements(shape); ++i) {
    int64_t rest = i, o = 0, stride = 1;
    std::vector<int64_t> idx(static_cast<size_t>(rank), 0);
    for (int64_t d = rank - 1; d >= 0; --d) { idx[size_t(d)] = rest % shape[size_t(d)]; rest /= shape[size_t(d)]; }
    for (int64_t d = rank - 1; d >= 0; --d) { o += (reduced[size_t(d)] ? 0 : idx[size_t(d)]) * stride; stride *= kept[size_t(d)]; }
    sum[size_t(o)] += x[size_t(i)];
  }
  for (double& s : sum) s /= count;
  std::map<std::string, AttributeValue> attrs = {{"keepdims", int64_t(keepdims)}};
  if (!axes_as_input && !axes.empty()) attrs["axes"] = axes;
  std::vector<OpInput> inputs = {{"data", shape, x}};
  npuvp::onnx::Node node = make_node("ReduceMean", 1, attrs);
  if (axes_as_input) {
    // The axes tensor is int64: the harness copies floats, so store its bytes as such.
    std::vector<float> raw(axes.size() * 2);
    std::memcpy(raw.data(), axes.data(), axes.size() * 8);
    inputs.push_back({"axes", {int64_t(axes.size())}, raw});
    node.inputs.push_back("axes");
  }
  const OpRun got = run_op(node, inputs, out_shape, npuvp::onnx::Precision::Fp32, {npuvp::onnx::DType::Float, npuvp::onnx::DType::Int64});
  const long bad = first_outside(got.output, sum);
  EXPECT_EQ(bad, -1) << "element " << bad << ": " << got.output[size_t(std::max(bad, 0L))] << " vs " << sum[size_t(std::max(bad, 0L))];
}

TEST(ReduceOps910B, MeanKeepdimsAxis1) { check_reduce_mean("ascend910b", {3, 2, 2}, {1}, true, false); }
TEST(ReduceOps910B, MeanDoNotKeepdims) { check_reduce_mean("ascend910b", {3, 2, 2}, {1}, false, false); }
TEST(ReduceOps910B, MeanDefaultAxes) { check_reduce_mean("ascend910b", {3, 2, 2}, {}, true, false); }
TEST(ReduceOps910B, MeanNegativeAxes) { check_reduce_mean("ascend910b", {3, 2, 2}, {-2}, true, false); }
TEST(ReduceOps910B, MeanAxesAsInputOpset18) { check_reduce_mean("ascend910b", {3, 2, 2}, {1}, true, true); }
TEST(ReduceOps910B, MeanLastAxisLongRows) { check_reduce_mean("ascend910b", {70, 3001}, {1}, false, false); }
TEST(ReduceOps910B, MeanMiddleAxisWideInner) { check_reduce_mean("ascend910b", {3, 50, 4099}, {1}, true, false); }
TEST(ReduceOps910B, MeanSeparateAxes) { check_reduce_mean("ascend910b", {4, 5, 6, 7}, {0, 2}, true, false); }
TEST(ReduceOps310P, MeanLastTwoAxes) { check_reduce_mean("ascend310p", {5, 9, 13}, {1, 2}, false, false); }

TEST(NormOps, RefusesTrainingMode) {
  npuvp::onnx::register_norm_ops();
  const auto node = make_node("BatchNormalization", 5, {{"training_mode", int64_t(1)}});
  const std::string text = error_of([&] { npuvp::onnx::find_op("BatchNormalization")->check(node, {}, {}); });
  EXPECT_NE(text.find("node 'n0' (BatchNormalization)"), std::string::npos) << text;
  EXPECT_NE(text.find("'training_mode'"), std::string::npos) << text;
}

// Small planes: several per unit (one copy in and out for all of them).
TEST(NormOps910B, BatchNormManySmallPlanes) { check_batchnorm("ascend910b", {2, 300, 3, 5}, 1e-5f); }
TEST(NormOps310P, BatchNormManySmallPlanes) { check_batchnorm("ascend310p", {1, 70, 7, 7}, 1e-5f); }
}  // namespace norm_ops_test
