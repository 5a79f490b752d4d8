// ONNX's own backend node tests (Debian's libonnx-testdata) for the Conv, pooling,
// normalisation and ReduceMean lowerings, run on the 910B in f32 without the graph runtime:
// node_cases.py turns each test's model and test_data_set_0 into a text case at build time;
// here the node is checked and run, and every output compared under ONNX's defaults
// (|got - want| <= 1e-7 + 1e-3 |want|). Tests of what the lowerings do not handle (3-D, uint8,
// MaxPool's Indices, training mode) must be refused by check(), naming the node.
#include <gtest/gtest.h>
#include <fstream>
#include <sstream>
#include "tests/onnx/op_harness.h"
#include "tests/support/error_of.h"

#ifndef NPUVP_ONNX_NODE_CASES
#error "NPUVP_ONNX_NODE_CASES (the folder node_cases.py writes) must be defined"
#endif

namespace node_data_test {
using namespace npuvp::testing;
namespace onnx = npuvp::onnx;

struct Tensor {
  std::string name;
  onnx::DType type = onnx::DType::Float;
  std::vector<int64_t> shape;
  std::vector<double> values;
  bool omitted = false;
};

struct Case {
  onnx::Node node;
  std::vector<Tensor> inputs, outputs;
};

Case read_case(const std::string& test) {
  const std::string path = std::string(NPUVP_ONNX_NODE_CASES) + "/" + test + ".txt";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("missing case file " + path);
  Case c;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string kind;
    s >> kind;
    if (kind == "op") {
      s >> c.node.op_type;
    } else if (kind == "attr") {
      std::string name, type;
      s >> name >> type;
      if (type == "int") { int64_t v; s >> v; c.node.attributes[name] = v; }
      else if (type == "float") { double v; s >> v; c.node.attributes[name] = float(v); }
      else if (type == "string") { std::string v; s >> v; c.node.attributes[name] = v; }
      else if (type == "ints") { std::vector<int64_t> v; int64_t x; while (s >> x) v.push_back(x); c.node.attributes[name] = v; }
    } else if (kind == "input" || kind == "output") {
      Tensor t;
      std::string type = "float";
      s >> t.name;
      if (kind == "input") s >> type;
      if (type == "none") t.omitted = true;
      if (type == "int64") t.type = onnx::DType::Int64;
      if (type == "other") t.type = onnx::DType::UInt8;
      size_t rank = 0;
      s >> rank;
      t.shape.resize(rank);
      for (auto& d : t.shape) s >> d;
      double v;
      while (s >> v) t.values.push_back(v);
      (kind == "input" ? c.inputs : c.outputs).push_back(t);
    }
  }
  c.node.name = test;
  c.node.source = test + "/model.onnx: node '" + test + "' (" + c.node.op_type + ")";
  for (const auto& t : c.inputs) c.node.inputs.push_back(t.omitted ? "" : t.name);
  for (const auto& t : c.outputs) c.node.outputs.push_back(t.name);
  return c;
}

void register_all() {
  onnx::register_conv_ops();
  onnx::register_pool_ops();
  onnx::register_norm_ops();
  onnx::register_reduce_ops();
}

std::vector<onnx::TensorDesc> descs(const std::vector<Tensor>& ts) {
  std::vector<onnx::TensorDesc> d;
  for (const auto& t : ts) d.push_back(t.omitted ? onnx::TensorDesc{} : onnx::TensorDesc{t.name, t.type, t.shape});
  return d;
}

class NodeData : public ::testing::TestWithParam<const char*> {};

TEST_P(NodeData, PassesOnThe910B) {
  const Case c = read_case(GetParam());
  npuvp::Device& dev = make_device({}, "ascend910b");
  register_all();
  const onnx::OpLowering* op = onnx::find_op(c.node.op_type);
  ASSERT_NE(op, nullptr);
  op->check(c.node, descs(c.inputs), descs(c.outputs));
  std::vector<onnx::GmTensor> ins(c.inputs.size()), outs(c.outputs.size());
  onnx::OpContext ctx{dev, c.node, {}, {}, onnx::Precision::Fp32, {}, {}};
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const Tensor& t = c.inputs[i];
    if (t.omitted) { ctx.inputs.push_back(nullptr); continue; }
    ins[i].desc = {t.name, t.type, t.shape};
    ins[i].data = dev.malloc(ins[i].desc.bytes() + 64);
    for (size_t k = 0; k < t.values.size(); ++k) {
      if (t.type == onnx::DType::Int64) static_cast<int64_t*>(ins[i].data)[k] = int64_t(t.values[k]);
      else static_cast<float*>(ins[i].data)[k] = float(t.values[k]);
    }
    ins[i].constant = true;
    ctx.inputs.push_back(&ins[i]);
  }
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    outs[i].desc = {c.outputs[i].name, onnx::DType::Float, c.outputs[i].shape};
    outs[i].data = dev.malloc(outs[i].desc.bytes() + 64);
    ctx.outputs.push_back(&outs[i]);
  }
  op->run(ctx);
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    const float* got = static_cast<const float*>(outs[i].data);
    const auto& want = c.outputs[i].values;
    for (size_t k = 0; k < want.size(); ++k) {
      ASSERT_LE(std::fabs(double(got[k]) - want[k]), 1e-7 + 1e-3 * std::fabs(want[k]))
          << "output " << c.outputs[i].name << " element " << k << ": " << got[k] << " vs " << want[k];
    }
  }
}

class NodeDataRefused : public ::testing::TestWithParam<const char*> {};

TEST_P(NodeDataRefused, IsRefusedBeforeRunning) {
  const Case c = read_case(GetParam());
  register_all();
  const std::string text = error_of([&] { onnx::find_op(c.node.op_type)->check(c.node, descs(c.inputs), descs(c.outputs)); });
  EXPECT_NE(text.find("node '" + std::string(GetParam()) + "' (" + c.node.op_type + ")"), std::string::npos) << text;
}

std::string name_of(const ::testing::TestParamInfo<const char*>& info) { return info.param; }

INSTANTIATE_TEST_SUITE_P(
    Onnx, NodeData,
    ::testing::Values("test_averagepool_1d_default", "test_averagepool_2d_ceil", "test_averagepool_2d_default",
                      "test_averagepool_2d_pads", "test_averagepool_2d_pads_count_include_pad",
                      "test_averagepool_2d_precomputed_pads", "test_averagepool_2d_precomputed_pads_count_include_pad",
                      "test_averagepool_2d_precomputed_same_upper", "test_averagepool_2d_precomputed_strides",
                      "test_averagepool_2d_same_lower", "test_averagepool_2d_same_upper", "test_averagepool_2d_strides",
                      "test_basic_conv_with_padding", "test_basic_conv_without_padding", "test_batchnorm_epsilon",
                      "test_batchnorm_example", "test_conv_with_autopad_same",
                      "test_conv_with_strides_and_asymmetric_padding", "test_conv_with_strides_no_padding",
                      "test_conv_with_strides_padding", "test_globalaveragepool", "test_globalaveragepool_precomputed",
                      "test_layer_normalization_2d_axis0", "test_layer_normalization_2d_axis1",
                      "test_layer_normalization_2d_axis_negative_1", "test_layer_normalization_2d_axis_negative_2",
                      "test_layer_normalization_3d_axis0_epsilon", "test_layer_normalization_3d_axis1_epsilon",
                      "test_layer_normalization_3d_axis2_epsilon", "test_layer_normalization_3d_axis_negative_1_epsilon",
                      "test_layer_normalization_3d_axis_negative_2_epsilon",
                      "test_layer_normalization_3d_axis_negative_3_epsilon", "test_layer_normalization_4d_axis0",
                      "test_layer_normalization_4d_axis1", "test_layer_normalization_4d_axis2",
                      "test_layer_normalization_4d_axis3", "test_layer_normalization_4d_axis_negative_1",
                      "test_layer_normalization_4d_axis_negative_2", "test_layer_normalization_4d_axis_negative_3",
                      "test_layer_normalization_4d_axis_negative_4", "test_layer_normalization_default_axis",
                      "test_maxpool_1d_default", "test_maxpool_2d_ceil", "test_maxpool_2d_default",
                      "test_maxpool_2d_dilations", "test_maxpool_2d_pads", "test_maxpool_2d_precomputed_pads",
                      "test_maxpool_2d_precomputed_same_upper", "test_maxpool_2d_precomputed_strides",
                      "test_maxpool_2d_same_lower", "test_maxpool_2d_same_upper", "test_maxpool_2d_strides",
                      "test_reduce_mean_default_axes_keepdims_example", "test_reduce_mean_default_axes_keepdims_random",
                      "test_reduce_mean_do_not_keepdims_example", "test_reduce_mean_do_not_keepdims_random",
                      "test_reduce_mean_keepdims_example", "test_reduce_mean_keepdims_random",
                      "test_reduce_mean_negative_axes_keepdims_example",
                      "test_reduce_mean_negative_axes_keepdims_random"),
    name_of);

INSTANTIATE_TEST_SUITE_P(Onnx, NodeDataRefused,
                         ::testing::Values("test_averagepool_3d_default", "test_maxpool_3d_default", "test_maxpool_2d_uint8",
                                           "test_maxpool_with_argmax_2d_precomputed_pads",
                                           "test_batchnorm_example_training_mode"),
                         name_of);

}  // namespace node_data_test
