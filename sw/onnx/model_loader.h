// Reads an ONNX model (Debian's libonnx and protobuf), runs ONNX's shape inference and turns
// the graph into the runtime's types (sw/onnx/onnx_op.h): nodes with their attributes, every
// tensor with a static shape, initializers as bytes. Also reads and writes the TensorProto
// files of ONNX's backend-test layout (input_N.pb, output_N.pb). Errors name the file (and the
// node); nothing here knows about the device.
#pragma once
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include "sw/onnx/onnx_op.h"

namespace npuvp::onnx {

// A tensor's values on the host: its description and its bytes (little-endian, dense), read
// through data() and size() (or copy_to). They are either owned, in `bytes`, or held elsewhere: a large
// initializer's raw_data stays where it is in the mapped model file (a model's weights are
// most of its bytes, and copying them out cost a quarter of loading one), and folded weights
// live in a buffer of their own; `keeper` keeps that storage alive.
struct HostTensor {
  TensorDesc desc;
  std::string bytes;                   // owned bytes (when `external` is null)
  const char* external = nullptr;      // else the bytes are here, `external_size` of them
  size_t external_size = 0;
  std::shared_ptr<const void> keeper;  // owns what `external` points into
  // Or the bytes are made on demand, desc.bytes() of them into `out` (BatchNormalization
  // folded into weights still in the model file); data() is then null: use copy_to.
  std::function<void(char* out)> make;

  const char* data() const { return external ? external : make ? nullptr : bytes.data(); }
  size_t size() const { return external ? external_size : make ? desc.bytes() : bytes.size(); }
  void copy_to(char* out) const {
    if (make) {
      make(out);
    } else if (size() > 0) {
      std::memcpy(out, data(), size());
    }
  }
};

struct Model {
  std::string file;
  int64_t opset = 0;                          // of the default domain
  std::vector<Node> nodes;                    // in topological order
  std::map<std::string, TensorDesc> tensors;  // every value: inputs, initializers, results
  std::map<std::string, HostTensor> initializers;  // Constant nodes' values included
  std::vector<std::string> inputs;            // graph inputs that are not initializers
  std::vector<std::string> outputs;
};

// Inputs whose values decide shapes (Reshape's shape, Slice's starts, Gather's indices): the
// non-float inputs given with --data are bound as constants before shape inference, as the
// backend tests feed them. Float inputs in `feeds` fix symbolic dimensions of the inputs.
Model load_model(const std::string& path, const std::map<std::string, HostTensor>& feeds = {});
// The same, parsing the file once when the feeds depend on the graph's input names (input_N.pb
// is the N-th input that is not an initializer): `read_feeds` gets those names in order and
// returns the feeds, which must outlive the call.
using FeedReader =
    std::function<const std::map<std::string, HostTensor>&(const std::vector<std::string>& input_names)>;
Model load_model(const std::string& path, const FeedReader& read_feeds);

// The graph inputs' names in order, read without shape inference (to map input_N.pb files).
std::vector<std::string> model_input_names(const std::string& path);

// TensorProto files (ONNX's backend-test data): raw_data or the typed fields.
HostTensor read_tensor_file(const std::string& path);
void write_tensor_file(const std::string& path, const HostTensor& tensor);

}  // namespace npuvp::onnx
