// The contract between the ONNX graph runtime and its operator lowerings (issue 26).
// The runtime (loader, shape inference, GM tensors, the per-layer table) hands each node to
// the lowering registered for its op type; a lowering checks the node before anything runs
// and, at run time, launches Ascend C kernels on the device that read the inputs from GM and
// write the outputs to GM. Nothing here depends on ONNX's protobuf types, so lowerings are
// written and tested without the loader.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <variant>
#include <vector>
#include "sw/runtime/device.h"

namespace npuvp::onnx {

// Element types a tensor in GM may have (ONNX TensorProto.DataType names).
enum class DType { Float, Float16, Int64, Int32, Int8, UInt8, Bool };
size_t dtype_bytes(DType type);
const char* dtype_name(DType type);

// Where the arithmetic is done: f32 where the chip computes it (the 910B's cube and vector),
// or f16 kernels with f32 accumulation (--precision fp16, every chip). Graph inputs and
// outputs stay in the model's types; an fp16 run converts at the graph's edges.
enum class Precision { Fp32, Fp16 };

struct TensorDesc {
  std::string name;
  DType type = DType::Float;
  std::vector<int64_t> shape;  // static after shape inference
  int64_t elements() const;
  size_t bytes() const { return size_t(elements()) * dtype_bytes(type); }
};

// A tensor living in simulated GM (Device::malloc); `data` is the host-visible GM pointer.
// `constant` holds an initializer's values on the host too, for lowerings that need them
// while planning (Reshape's shape, Slice's starts, Gather's indices).
struct GmTensor {
  TensorDesc desc;
  void* data = nullptr;
  bool constant = false;
};

using AttributeValue = std::variant<int64_t, float, std::string, std::vector<int64_t>,
                                    std::vector<float>, std::vector<std::string>>;

// One graph node with its attributes; `source` is "model.onnx: node 'name' (Op)" for errors.
struct Node {
  std::string name, op_type, domain;
  std::vector<std::string> inputs, outputs;  // "" for an omitted optional input
  std::map<std::string, AttributeValue> attributes;
  std::string source;
  int64_t opset = 0;  // the model's opset of the node's domain (Softmax's axis rules change at 13)

  bool has(const std::string& attribute) const { return attributes.count(attribute) != 0; }
  int64_t attr_int(const std::string& attribute, int64_t fallback) const;
  float attr_float(const std::string& attribute, float fallback) const;
  std::string attr_string(const std::string& attribute, const std::string& fallback) const;
  std::vector<int64_t> attr_ints(const std::string& attribute, std::vector<int64_t> fallback = {}) const;
};

// What one launch of a lowering did, for the per-layer table: the work it represents and
// what the device reported.
struct LayerLaunch {
  RunReport report;
  double flops = 0;       // arithmetic operations (a multiply-add counts 2)
  double bytes = 0;       // GM bytes the kernel must move at least (inputs + outputs)
  const char* unit = "vector";  // "cube" or "vector": which unit bounds it at best; "aicpu": ran
                                // on the AI CPU (issue 28), outside the AI Cores' roofline
};

struct OpContext {
  Device& device;
  const Node& node;
  std::vector<const GmTensor*> inputs;  // nullptr for an omitted optional input
  std::vector<GmTensor*> outputs;       // allocated by the runtime with inferred shapes
  Precision precision = Precision::Fp32;
  std::vector<LayerLaunch> launches;    // appended by the lowering, one per kernel launch
  // GM scratch that lives until the node has run (freed by the runtime afterwards).
  void* scratch(size_t bytes);
  std::vector<void*> scratch_blocks;
};

// What the configured chip and the run's precision allow, for the checks that depend on them.
struct Target {
  Precision precision = Precision::Fp32;
  bool f32_cube = true;  // the cube multiplies f32 (the A2 cores: 910B)
  std::string chip;      // the platform's name, for messages
};

// Errors go through npuvp::raise with the node's `source` as the block:
// "model.onnx: node 'conv1' (Conv) @ 0 s: attribute 'auto_pad' = 'VALID' is not supported".
struct OpLowering {
  std::string op_type;
  // Refuses, before anything runs, a node whose attributes, types or shapes the lowering does
  // not handle; the message names the node, its op type and the attribute.
  std::function<void(const Node&, const std::vector<TensorDesc>& inputs,
                     const std::vector<TensorDesc>& outputs)> check;
  std::function<void(OpContext&)> run;
  // Only for an output whose size depends on the values (NonMaxSuppression's selected indices;
  // ONNX shape inference leaves a dimension unknown, -1 here): its largest shape. The runtime
  // allocates that much (for every output of the node) and run() sets each output's desc.shape
  // to what it wrote.
  std::function<std::vector<int64_t>(const Node&, const std::vector<TensorDesc>& inputs, size_t output)>
      output_bound;
  // Optional: refuses, once the chip and precision are known and before anything runs, what
  // the chip cannot compute (float32 Conv without an f32 cube).
  std::function<void(const Node&, const std::vector<TensorDesc>& inputs, const Target& target)> check_target;
};

// The registry. Each topic file (ops_elementwise.cpp, ops_conv.cpp, ...) defines
// `void register_<topic>_ops()` calling register_op for its op types; builtin_ops.cpp calls
// every one of them the first time find_op is used (explicit calls, not static registrars,
// because an object in libnpuvp.a that nothing references would be dropped by the linker).
void register_op(OpLowering lowering);
// The lowering of `op_type`; for an op type with none but an AI CPU kernel of the same name
// (soc::AicpuRegistry), the AI CPU fallback (issue 28), which launches that kernel with
//   tensors: the node's inputs' GM addresses then its outputs' (0 for an omitted one),
//   ints:    for each input then each output, its rank then its dimensions (0 alone for an
//            omitted one), then the node's integer attributes in attribute-name order,
//   floats:  the node's float attributes in attribute-name order,
//   blocks:  the kernel's own count.
// Outputs need static shapes; other attribute kinds are refused.
const OpLowering* find_op(const std::string& op_type);
std::vector<std::string> registered_ops();
std::vector<std::string> aicpu_kernel_names();  // what the fallback can run (ops_aicpu.cpp)

}  // namespace npuvp::onnx
