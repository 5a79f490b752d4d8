#include "sw/onnx/onnx_op.h"

#include <algorithm>
#include <mutex>
#include "tlm/log.h"

namespace npuvp::onnx {

size_t dtype_bytes(DType type) {
  switch (type) {
    case DType::Float: case DType::Int32: return 4;
    case DType::Float16: return 2;
    case DType::Int64: return 8;
    case DType::Int8: case DType::UInt8: case DType::Bool: return 1;
  }
  return 0;
}

const char* dtype_name(DType type) {
  switch (type) {
    case DType::Float: return "float32";
    case DType::Float16: return "float16";
    case DType::Int64: return "int64";
    case DType::Int32: return "int32";
    case DType::Int8: return "int8";
    case DType::UInt8: return "uint8";
    case DType::Bool: return "bool";
  }
  return "?";
}

int64_t TensorDesc::elements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

namespace {
template <typename T>
const T* attribute_as(const Node& node, const std::string& attribute) {
  auto it = node.attributes.find(attribute);
  if (it == node.attributes.end()) return nullptr;
  if (const T* value = std::get_if<T>(&it->second)) return value;
  raise(node.source, "attribute '{}' has the wrong type", attribute);
}
}  // namespace

int64_t Node::attr_int(const std::string& attribute, int64_t fallback) const {
  const int64_t* value = attribute_as<int64_t>(*this, attribute);
  return value ? *value : fallback;
}

float Node::attr_float(const std::string& attribute, float fallback) const {
  const float* value = attribute_as<float>(*this, attribute);
  return value ? *value : fallback;
}

std::string Node::attr_string(const std::string& attribute, const std::string& fallback) const {
  const std::string* value = attribute_as<std::string>(*this, attribute);
  return value ? *value : fallback;
}

std::vector<int64_t> Node::attr_ints(const std::string& attribute, std::vector<int64_t> fallback) const {
  const std::vector<int64_t>* value = attribute_as<std::vector<int64_t>>(*this, attribute);
  return value ? *value : fallback;
}

void* OpContext::scratch(size_t bytes) {
  void* block = device.malloc(std::max<size_t>(bytes, 1));
  scratch_blocks.push_back(block);
  return block;
}

namespace {
std::map<std::string, OpLowering>& registry() {
  static std::map<std::string, OpLowering> ops;
  return ops;
}
}  // namespace

void register_builtin_ops();  // builtin_ops.cpp
bool has_aicpu_kernel(const std::string& op_type);   // ops_aicpu.cpp
OpLowering aicpu_fallback(const std::string& op_type);  // ops_aicpu.cpp

void register_op(OpLowering lowering) {
  std::string type = lowering.op_type;
  registry()[type] = std::move(lowering);
}

static void ensure_builtins() {
  static std::once_flag once;
  std::call_once(once, [] { register_builtin_ops(); });
}

const OpLowering* find_op(const std::string& op_type) {
  ensure_builtins();
  auto it = registry().find(op_type);
  if (it != registry().end()) return &it->second;
  // No AI Core lowering: an AI CPU kernel of that name runs it (kept apart from the registry,
  // so registered_ops() lists only the lowerings).
  static std::map<std::string, OpLowering> fallbacks;
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  auto fb = fallbacks.find(op_type);
  if (fb != fallbacks.end()) return &fb->second;
  if (!has_aicpu_kernel(op_type)) return nullptr;
  return &fallbacks.emplace(op_type, aicpu_fallback(op_type)).first->second;
}

std::vector<std::string> registered_ops() {
  ensure_builtins();
  std::vector<std::string> names;
  for (const auto& [name, lowering] : registry()) names.push_back(name);
  return names;
}

}  // namespace npuvp::onnx
