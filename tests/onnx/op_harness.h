// Runs one ONNX operator lowering on a device without the loader: Node and GmTensors built by
// hand, inputs copied into simulated GM, the registered lowering checked and run.
#pragma once
#include <gtest/gtest.h>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>
#include "sw/onnx/onnx_op.h"
#include "sw/onnx/ops_vision.h"
#include "sw/runtime/device.h"
#include "tests/support/device_fixture.h"

namespace npuvp::testing {

struct OpInput {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<float> values;  // empty: an omitted optional input
};

inline std::vector<float> random_floats(size_t n, uint32_t seed, float lo = -1, float hi = 1) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(gen);
  return v;
}

inline int64_t elements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

inline onnx::Node make_node(const std::string& op, size_t inputs, std::map<std::string, onnx::AttributeValue> attrs,
                            std::vector<std::string> input_names = {}) {
  onnx::Node node;
  node.name = "n0";
  node.op_type = op;
  node.attributes = std::move(attrs);
  for (size_t i = 0; i < inputs; ++i) node.inputs.push_back(i < input_names.size() ? input_names[i] : "in" + std::to_string(i));
  node.outputs = {"out0"};
  node.source = "test.onnx: node 'n0' (" + op + ")";
  return node;
}

struct OpRun {
  std::vector<float> output;
  std::vector<onnx::LayerLaunch> launches;
};

// Checks and runs `node` on the configured device; the output has `out_shape`.
inline OpRun run_op(const onnx::Node& node, const std::vector<OpInput>& inputs, const std::vector<int64_t>& out_shape,
                    onnx::Precision precision = onnx::Precision::Fp32, std::vector<onnx::DType> types = {}) {
  Device& dev = Device::instance();
  const onnx::OpLowering* op = onnx::find_op(node.op_type);
  EXPECT_NE(op, nullptr);
  std::vector<onnx::GmTensor> tensors(inputs.size());
  std::vector<onnx::TensorDesc> in_descs, out_descs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].values.empty()) {
      in_descs.push_back({});
      continue;
    }
    tensors[i].desc.name = inputs[i].name.empty() ? "in" + std::to_string(i) : inputs[i].name;
    tensors[i].desc.shape = inputs[i].shape;
    if (i < types.size()) tensors[i].desc.type = types[i];
    tensors[i].data = dev.malloc(inputs[i].values.size() * 4);
    std::memcpy(tensors[i].data, inputs[i].values.data(), inputs[i].values.size() * 4);
    in_descs.push_back(tensors[i].desc);
  }
  onnx::GmTensor out;
  out.desc.name = "out0";
  out.desc.shape = out_shape;
  out.data = dev.malloc(size_t(elements(out_shape)) * 4 + 64);
  out_descs.push_back(out.desc);
  op->check(node, in_descs, out_descs);
  onnx::OpContext ctx{dev, node, {}, {&out}, precision, {}, {}};
  for (size_t i = 0; i < inputs.size(); ++i) ctx.inputs.push_back(inputs[i].values.empty() ? nullptr : &tensors[i]);
  op->run(ctx);
  OpRun r;
  r.output.resize(size_t(elements(out_shape)));
  std::memcpy(r.output.data(), out.data, r.output.size() * 4);
  r.launches = ctx.launches;
  return r;
}

// ONNX's backend-test tolerance for float32: |got - want| <= atol + rtol * |want|, plus
// `slack[i]` (0 unless the caller states why, e.g. fp16 operands).
inline long first_outside(const std::vector<float>& got, const std::vector<double>& want,
                          const std::vector<double>& slack = {}, double atol = 1e-7, double rtol = 1e-3) {
  if (got.size() != want.size()) return 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double tol = atol + rtol * std::fabs(want[i]) + (slack.empty() ? 0.0 : slack[i]);
    if (!(std::fabs(double(got[i]) - want[i]) <= tol)) return long(i);
  }
  return -1;
}

}  // namespace npuvp::testing
