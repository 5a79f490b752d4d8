// Helpers the vision/normalisation lowerings share: refusing what they do not handle (before
// anything runs), and how many blocks of which core type a launch gets on the platform.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>
#include "sw/onnx/onnx_op.h"

namespace npuvp::onnx {

// Refuses an attribute the lowering does not know.
void allow_only(const Node& node, std::initializer_list<const char*> attributes);
// Refuses input `index` unless it is float32 (the model type every lowering here takes).
void require_float(const Node& node, const std::vector<TensorDesc>& inputs, size_t index, const char* what);

struct Cores {
  bool separated = false;
  uint32_t cube = 1;    // blocks of a cube kernel (AICs, or the AI Cores of a coupled chip)
  uint32_t vector = 1;  // blocks of a vector kernel (AIVs, or the AI Cores)
  uint32_t ub_bytes = 192 * 1024;
};
Cores cores_of(Device& device);

// A lowering with only a check and a run (output_bound and check_target left empty), named
// field by field rather than by aggregate initialisation, which would leave the others to
// -Wmissing-field-initializers.
inline OpLowering simple_lowering(const char* op_type, decltype(OpLowering::check) check, decltype(OpLowering::run) run) {
  OpLowering l;
  l.op_type = op_type;
  l.check = std::move(check);
  l.run = std::move(run);
  return l;
}

// GM bytes of a tensor as the runtime passed it.
inline double tensor_bytes(const GmTensor* t) { return t ? double(t->desc.bytes()) : 0.0; }

}  // namespace npuvp::onnx
