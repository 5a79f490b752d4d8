#include "sw/onnx/ops_support.h"

#include <algorithm>
#include "platforms/ascend_soc.h"
#include "tlm/log.h"

namespace npuvp::onnx {

void allow_only(const Node& node, std::initializer_list<const char*> attributes) {
  for (const auto& [name, value] : node.attributes) {
    if (std::none_of(attributes.begin(), attributes.end(), [&](const char* a) { return name == a; })) {
      raise(node.source, "attribute '{}' of {} is not supported", name, node.op_type);
    }
  }
}

void require_float(const Node& node, const std::vector<TensorDesc>& inputs, size_t index, const char* what) {
  if (index >= inputs.size()) raise(node.source, "{} needs input '{}'", node.op_type, what);
  if (inputs[index].type != DType::Float) {
    raise(node.source, "input '{}' of {} is {}; only float32 is supported", what, node.op_type,
          dtype_name(inputs[index].type));
  }
}

Cores cores_of(Device& device) {
  const auto& p = device.soc().params();
  Cores c;
  c.separated = p.separated;
  c.cube = p.cores;
  c.vector = p.separated ? p.cores * p.aiv_per_core : p.cores;
  // The smallest UB of the products (the 910B AIV's 192 KiB) keeps one plan valid everywhere.
  c.ub_bytes = 192 * 1024;
  return c;
}

}  // namespace npuvp::onnx
