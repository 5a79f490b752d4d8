#include "sw/onnx/graph_fusion.h"

#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <set>
#include <vector>
#include <fmt/format.h>

#include "tlm/host_mapping.h"

namespace npuvp::onnx {

namespace {

// A float32 initializer's values, read wherever they lie: raw_data left in the mapped model
// file is where protobuf put it, at any byte offset (a float* there would be misaligned).
struct Floats {
  const char* bytes = nullptr;
  float operator[](int64_t i) const {
    float v;
    std::memcpy(&v, bytes + size_t(i) * sizeof v, sizeof v);
    return v;
  }
  explicit operator bool() const { return bytes != nullptr; }
};

// A float32 initializer's values, or none.
Floats constant_floats(const Model& m, const std::string& name, int64_t elements) {
  if (name.empty()) return {};
  auto it = m.initializers.find(name);
  if (it == m.initializers.end() || it->second.desc.type != DType::Float) return {};
  if (it->second.desc.elements() != elements || it->second.size() != size_t(elements) * 4) return {};
  return {it->second.data()};
}

std::string unused_name(const Model& m, const std::string& base) {
  std::string name = base;
  for (int i = 2; m.tensors.count(name); ++i) name = fmt::format("{}_{}", base, i);
  return name;
}

// Storage for `elements` floats that the fold writes: owned by the tensor it returns a
// pointer into. Large ones get a buffer of their own in huge pages (tlm/host_mapping.h): a
// network's folded weights are most of its bytes, and filling fresh memory page by page cost
// as much as the fold's arithmetic.
float* fresh_floats(HostTensor& h, int64_t elements) {
  const size_t bytes = size_t(elements) * 4;
  if (bytes < (size_t(1) << 20)) {
    h.bytes.resize(bytes);
    h.external = nullptr;
    h.keeper.reset();
    return reinterpret_cast<float*>(&h.bytes[0]);
  }
  auto buffer = std::make_shared<HostMapping>(bytes, /*huge_pages=*/true);
  if (!buffer->data()) throw std::bad_alloc();
  h.bytes.clear();
  h.external = reinterpret_cast<const char*>(buffer->data());
  h.external_size = bytes;
  h.keeper = buffer;
  return reinterpret_cast<float*>(buffer->data());
}

// Folds `bn` (reading conv's only output) into `conv`; false if it does not qualify. W and B
// are rewritten in place when this Conv is their only reader and their bytes are owned (no
// copy of the weights); W still in the model file is folded on its way to GM; when another
// node reads them the folded values are new initializers.
bool fold_batchnorm(Model& m, Node& conv, const Node& bn, const std::map<std::string, size_t>& readers) {
  if (bn.attr_int("training_mode", 0) != 0 || bn.attr_int("spatial", 1) != 1) return false;
  for (const auto& [name, value] : bn.attributes) {
    if (name != "epsilon" && name != "momentum" && name != "training_mode" && name != "spatial") return false;
  }
  for (size_t i = 1; i < bn.outputs.size(); ++i) {
    if (!bn.outputs[i].empty()) return false;  // training statistics
  }
  if (bn.inputs.size() != 5 || conv.inputs.size() < 2 || conv.outputs.size() != 1) return false;
  const TensorDesc& w = m.tensors.at(conv.inputs[1]);
  if (w.shape.size() < 3) return false;
  const int64_t channels = w.shape[0], per_channel = w.elements() / channels;
  const TensorDesc& y = m.tensors.at(conv.outputs[0]);
  if (y.shape.size() < 2 || y.shape[1] != channels) return false;
  const Floats weights = constant_floats(m, conv.inputs[1], w.elements());
  const bool has_bias = conv.inputs.size() > 2 && !conv.inputs[2].empty();
  const Floats bias = has_bias ? constant_floats(m, conv.inputs[2], channels) : Floats{};
  const Floats scale = constant_floats(m, bn.inputs[1], channels);
  const Floats shift = constant_floats(m, bn.inputs[2], channels);
  const Floats mean = constant_floats(m, bn.inputs[3], channels);
  const Floats var = constant_floats(m, bn.inputs[4], channels);
  if (!weights || (has_bias && !bias) || !scale || !shift || !mean || !var) return false;

  // ONNX BatchNormalization: y = (x - mean) / sqrt(var + epsilon) * scale + B
  // (https://onnx.ai/onnx/operators/onnx__BatchNormalization.html), x = conv(X, W) + bias.
  const double epsilon = bn.attr_float("epsilon", 1e-5f);
  std::vector<double> factor(static_cast<size_t>(channels));
  for (int64_t c = 0; c < channels; ++c) factor[size_t(c)] = double(scale[c]) / std::sqrt(double(var[c]) + epsilon);
  // Where folded values go: the tensor itself when only this Conv reads it, else a new
  // initializer (named after the Conv).
  auto target = [&](const std::string& name, const TensorDesc& desc, const char* suffix) -> std::string {
    auto r = readers.find(name);
    if (!name.empty() && r != readers.end() && r->second == 1) return name;
    HostTensor h;
    h.desc = desc;
    h.desc.name = unused_name(m, conv.name + suffix);
    m.tensors[h.desc.name] = h.desc;
    const std::string fresh = h.desc.name;
    m.initializers[fresh] = std::move(h);
    return fresh;
  };
  const std::string b_name =
      target(has_bias ? conv.inputs[2] : std::string(), TensorDesc{"", DType::Float, {channels}}, ".B_bn_folded");
  {
    const std::shared_ptr<const void> bias_storage = has_bias ? m.initializers.at(conv.inputs[2]).keeper : nullptr;
    HostTensor& b_out = m.initializers.at(b_name);
    const bool in_place = has_bias && b_name == conv.inputs[2] && !b_out.external;
    float* fb = in_place ? reinterpret_cast<float*>(&b_out.bytes[0]) : fresh_floats(b_out, channels);
    for (int64_t c = 0; c < channels; ++c) {
      fb[c] = float(((has_bias ? double(bias[c]) : 0.0) - double(mean[c])) * factor[size_t(c)] + double(shift[c]));
    }
  }
  const HostTensor& w_in = m.initializers.at(conv.inputs[1]);
  const std::string w_name = target(conv.inputs[1], w, ".W_bn_folded");
  HostTensor& w_out = m.initializers.at(w_name);
  if (w_in.external) {
    // Weights still in the model file are folded when they are copied to GM (HostTensor::make),
    // into a buffer reused for every tensor: a network's folded weights never all sit in host
    // memory, which a virtualised host fills slowly. The file stays mapped meanwhile.
    auto fold = [keeper = w_in.keeper, weights, factor, per_channel](char* out) {
      auto* fw = reinterpret_cast<float*>(out);
      for (size_t c = 0; c < factor.size(); ++c) {
        const size_t at = c * size_t(per_channel);
        for (int64_t i = 0; i < per_channel; ++i) fw[at + i] = float(double(weights[at + i]) * factor[c]);
      }
    };
    w_out.bytes.clear();
    w_out.external = nullptr;
    w_out.external_size = 0;
    w_out.keeper.reset();
    w_out.make = std::move(fold);
  } else {
    // Owned bytes: in place when this Conv is the only reader.
    float* fw = w_name == conv.inputs[1] ? reinterpret_cast<float*>(&w_out.bytes[0]) : fresh_floats(w_out, w.elements());
    for (int64_t c = 0; c < channels; ++c) {
      for (int64_t i = 0; i < per_channel; ++i) {
        fw[c * per_channel + i] = float(double(weights[c * per_channel + i]) * factor[size_t(c)]);
      }
    }
  }
  m.tensors.erase(conv.outputs[0]);  // the intermediate value disappears
  conv.inputs.resize(3);
  conv.inputs[1] = w_name;
  conv.inputs[2] = b_name;
  conv.outputs[0] = bn.outputs[0];
  return true;
}

}  // namespace

FusionReport fuse_graph(Model& m, const Target& target) {
  FusionReport report;
  if (!target.f32_cube) return report;  // see graph_fusion.h: not on the coupled chips
  std::map<std::string, size_t> readers;  // value -> how many node inputs read it
  for (const Node& n : m.nodes) {
    for (const auto& in : n.inputs) {
      if (!in.empty()) ++readers[in];
    }
  }
  const std::set<std::string> graph_outputs(m.outputs.begin(), m.outputs.end());
  std::map<std::string, size_t> producer;  // value -> index of the node writing it
  for (size_t i = 0; i < m.nodes.size(); ++i) {
    for (const auto& out : m.nodes[i].outputs) {
      if (!out.empty()) producer[out] = i;
    }
  }
  std::vector<bool> removed(m.nodes.size(), false);
  for (size_t i = 0; i < m.nodes.size(); ++i) {
    const Node& bn = m.nodes[i];
    if (bn.op_type != "BatchNormalization" || bn.inputs.empty()) continue;
    const std::string& x = bn.inputs[0];
    auto p = producer.find(x);
    if (p == producer.end() || removed[p->second]) continue;
    Node& conv = m.nodes[p->second];
    if (conv.op_type != "Conv" || readers[x] != 1 || graph_outputs.count(x)) continue;
    if (fold_batchnorm(m, conv, bn, readers)) {
      removed[i] = true;
      ++report.batchnorms_folded;
    }
  }
  if (report.batchnorms_folded == 0) return report;
  std::vector<Node> kept;
  for (size_t i = 0; i < m.nodes.size(); ++i) {
    if (!removed[i]) kept.push_back(std::move(m.nodes[i]));
  }
  m.nodes = std::move(kept);
  // Initializers nobody reads any more (the original W, B and the BatchNormalizations'
  // parameters) are not placed in GM.
  std::set<std::string> read(m.outputs.begin(), m.outputs.end());
  for (const Node& n : m.nodes) read.insert(n.inputs.begin(), n.inputs.end());
  for (auto it = m.initializers.begin(); it != m.initializers.end();) {
    if (read.count(it->first)) {
      ++it;
      continue;
    }
    m.tensors.erase(it->first);
    it = m.initializers.erase(it);
  }
  return report;
}

}  // namespace npuvp::onnx
