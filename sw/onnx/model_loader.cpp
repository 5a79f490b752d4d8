#include "sw/onnx/model_loader.h"

#include <algorithm>
#include <cstring>
#include <climits>
#include <fstream>
#include <memory>
#include <set>
#include <fmt/format.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>
// After ONNX's headers: <sys/mman.h> defines MAP_TYPE, an enumerator of onnx/defs/parser.h.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tlm/log.h"

namespace npuvp::onnx {

namespace pb = ::onnx;

namespace {

// A file's bytes mapped read-only (a 100 MB model is parsed straight from the page cache,
// without a copy into a string first).
class MappedFile {
 public:
  MappedFile(const std::string& path, const char* what) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) raise(path, "cannot open the {}", what);
    struct stat st;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      raise(path, "cannot read the {} (not a regular file)", what);
    }
    size_ = size_t(st.st_size);
    if (size_ > 0) {
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      if (p == MAP_FAILED) {
        ::close(fd);
        raise(path, "cannot map the {} into memory", what);
      }
      data_ = p;
    }
    ::close(fd);
  }
  ~MappedFile() {
    if (data_) ::munmap(data_, size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  const void* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

// Parses a whole file as `message`; false if it does not parse (or is larger than protobuf's
// 2 GB limit for one buffer).
bool parse_file(const std::string& path, const char* what, google::protobuf::MessageLite& message) {
  const MappedFile file(path, what);
  if (file.size() == 0 || file.size() > size_t(INT_MAX)) return false;
  return message.ParseFromArray(file.data(), int(file.size()));
}

// ---- Large initializers' raw_data left in the mapped file ----
//
// protobuf copies every bytes field out of the buffer it parses. For a model that is its
// weights, 100 MB for ResNet-50, copied into freshly allocated memory. So before parsing, one
// pass over the protobuf wire format (https://protobuf.dev/programming-guides/encoding/)
// writes the model again without the raw_data of large initializers (ModelProto.graph = 7,
// GraphProto.initializer = 5, TensorProto.raw_data = 9, from onnx/onnx.proto) and notes
// where each one lies in the file. Small ones (shape inputs that shape inference reads) stay.
constexpr size_t kLeaveInFileBytes = 64 * 1024;

struct RawSpan {
  const char* data = nullptr;  // nullptr: the initializer keeps its raw_data (if any)
  size_t size = 0;
};

class WireReader {
 public:
  WireReader(const char* begin, const char* end) : p_(begin), end_(end) {}
  bool done() const { return p_ == end_; }
  const char* at() const { return p_; }
  bool varint(uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64 && p_ < end_; shift += 7) {
      const auto byte = static_cast<uint8_t>(*p_++);
      *v |= uint64_t(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return true;
    }
    return false;
  }
  // One field: its number, wire type and, for a length-delimited one, its payload.
  bool field(uint32_t* number, uint32_t* wire_type, const char** payload, size_t* length) {
    uint64_t tag;
    if (!varint(&tag)) return false;
    *number = uint32_t(tag >> 3);
    *wire_type = uint32_t(tag & 7);
    *payload = nullptr;
    *length = 0;
    uint64_t v;
    switch (*wire_type) {
      case 0: return varint(&v);
      case 1: return skip(8);
      case 5: return skip(4);
      case 2:
        if (!varint(&v) || v > uint64_t(end_ - p_)) return false;
        *payload = p_;
        *length = size_t(v);
        p_ += v;
        return true;
      default: return false;  // groups: ONNX uses none
    }
  }

 private:
  bool skip(size_t n) {
    if (size_t(end_ - p_) < n) return false;
    p_ += n;
    return true;
  }
  const char* p_;
  const char* end_;
};

void put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(char(uint8_t(v) | 0x80));
    v >>= 7;
  }
  out.push_back(char(v));
}

void put_length_delimited(std::string& out, uint32_t number, const std::string& payload) {
  put_varint(out, uint64_t(number) << 3 | 2);
  put_varint(out, payload.size());
  out += payload;
}

// `message` again without the large raw_data of the fields on `path` (field numbers, outermost
// first; the last one is raw_data); each message at the path's end adds its span to `spans`.
// False if the bytes are not well-formed protobuf (the real parse then says so).
bool strip_raw(const char* begin, const char* end, const uint32_t* path, size_t depth, std::string& out,
               std::vector<RawSpan>& spans) {
  WireReader in(begin, end);
  RawSpan span;
  while (!in.done()) {
    const char* field_begin = in.at();
    uint32_t number, wire_type;
    const char* payload;
    size_t length;
    if (!in.field(&number, &wire_type, &payload, &length)) return false;
    if (wire_type == 2 && number == path[0]) {
      if (depth == 1) {  // raw_data: the last occurrence counts, as in a parse
        span = length >= kLeaveInFileBytes ? RawSpan{payload, length} : RawSpan{};
        if (!span.data) out.append(field_begin, in.at());
        continue;
      }
      std::string inner;
      if (!strip_raw(payload, payload + length, path + 1, depth - 1, inner, spans)) return false;
      put_length_delimited(out, number, inner);
      continue;
    }
    out.append(field_begin, in.at());
  }
  if (depth == 1) spans.push_back(span);
  return true;
}

// The model file, parsed with its large initializers' raw_data left in the mapped file:
// `spans[i]` is where initializer i's lies (in graph.initializer() order), while `file` lives.
bool parse_model_file(const MappedFile& file, pb::ModelProto& model, std::vector<RawSpan>& spans) {
  if (file.size() == 0 || file.size() > size_t(INT_MAX)) return false;
  const char* bytes = static_cast<const char*>(file.data());
  static const uint32_t kPath[] = {7, 5, 9};  // graph, initializer, raw_data
  std::string stripped;
  spans.clear();
  if (!strip_raw(bytes, bytes + file.size(), kPath, 3, stripped, spans)) {
    spans.clear();
    return model.ParseFromArray(bytes, int(file.size()));
  }
  return model.ParseFromString(stripped);
}

bool dtype_of(int32_t elem_type, DType* type) {
  switch (elem_type) {
    case pb::TensorProto::FLOAT: *type = DType::Float; return true;
    case pb::TensorProto::FLOAT16: *type = DType::Float16; return true;
    case pb::TensorProto::INT64: *type = DType::Int64; return true;
    case pb::TensorProto::INT32: *type = DType::Int32; return true;
    case pb::TensorProto::INT8: *type = DType::Int8; return true;
    case pb::TensorProto::UINT8: *type = DType::UInt8; return true;
    case pb::TensorProto::BOOL: *type = DType::Bool; return true;
    default: return false;
  }
}

int32_t elem_type_of(DType type) {
  switch (type) {
    case DType::Float: return pb::TensorProto::FLOAT;
    case DType::Float16: return pb::TensorProto::FLOAT16;
    case DType::Int64: return pb::TensorProto::INT64;
    case DType::Int32: return pb::TensorProto::INT32;
    case DType::Int8: return pb::TensorProto::INT8;
    case DType::UInt8: return pb::TensorProto::UINT8;
    case DType::Bool: return pb::TensorProto::BOOL;
  }
  return pb::TensorProto::UNDEFINED;
}

DType checked_dtype(int32_t elem_type, const std::string& where, const std::string& tensor) {
  DType type;
  if (!dtype_of(elem_type, &type)) {
    const char* name = pb::TensorProto::DataType_IsValid(elem_type)
                           ? pb::TensorProto::DataType_Name(pb::TensorProto::DataType(elem_type)).c_str()
                           : "unknown";
    raise(where, "tensor '{}' has element type {} ({}), which the runtime does not support", tensor, name, elem_type);
  }
  return type;
}

// A TensorProto's values as dense little-endian bytes (raw_data, else the typed field).
// raw_data is moved out of `t` (left empty) rather than copied; `in_file` is raw_data left
// in the mapped model file, which `file` keeps alive.
HostTensor host_tensor(pb::TensorProto& t, const std::string& where, const RawSpan& in_file = {},
                       const std::shared_ptr<const void>& file = nullptr) {
  HostTensor h;
  h.desc.name = t.name();
  h.desc.type = checked_dtype(t.data_type(), where, t.name());
  for (int64_t d : t.dims()) h.desc.shape.push_back(d);
  if (t.data_location() == pb::TensorProto::EXTERNAL) {
    raise(where, "tensor '{}' keeps its data in an external file, which the runtime does not read", t.name());
  }
  const size_t bytes = h.desc.bytes();
  if (in_file.data) {
    if (in_file.size != bytes) {
      raise(where, "tensor '{}' ({} {}): raw_data holds {} bytes, the shape needs {}", t.name(),
            dtype_name(h.desc.type), fmt::join(h.desc.shape, "x"), in_file.size, bytes);
    }
    h.external = in_file.data;
    h.external_size = in_file.size;
    h.keeper = file;
    return h;
  }
  if (t.has_raw_data()) {
    if (t.raw_data().size() != bytes) {
      raise(where, "tensor '{}' ({} {}): raw_data holds {} bytes, the shape needs {}", t.name(),
            dtype_name(h.desc.type), fmt::join(h.desc.shape, "x"), t.raw_data().size(), bytes);
    }
    h.bytes = std::move(*t.mutable_raw_data());
    return h;
  }
  h.bytes.resize(bytes);
  const int64_t n = h.desc.elements();
  auto count_check = [&](int64_t have) {
    if (have != n) raise(where, "tensor '{}' holds {} values, its shape needs {}", t.name(), have, n);
  };
  switch (h.desc.type) {
    case DType::Float:
      count_check(t.float_data_size());
      std::memcpy(h.bytes.data(), t.float_data().data(), bytes);
      break;
    case DType::Int64:
      count_check(t.int64_data_size());
      std::memcpy(h.bytes.data(), t.int64_data().data(), bytes);
      break;
    default:  // int32, int8, uint8, bool and float16's bits all travel in int32_data
      count_check(t.int32_data_size());
      for (int64_t i = 0; i < n; ++i) {
        const int32_t v = t.int32_data(int(i));
        std::memcpy(h.bytes.data() + i * dtype_bytes(h.desc.type), &v, dtype_bytes(h.desc.type));
      }
  }
  return h;
}

pb::ModelProto parse_model(const std::string& path) {
  pb::ModelProto model;
  if (!parse_file(path, "model", model)) {
    raise(path, "not a valid ONNX model (the protobuf does not parse: a truncated or damaged file?)");
  }
  if (!model.has_graph() || model.graph().node_size() == 0) raise(path, "the model has no graph nodes");
  return model;
}

std::string node_source(const std::string& file, const pb::NodeProto& n, int index) {
  return n.name().empty() ? fmt::format("{}: node #{} ({})", file, index, n.op_type())
                          : fmt::format("{}: node '{}' ({})", file, n.name(), n.op_type());
}

AttributeValue attribute_value(const pb::AttributeProto& a, const std::string& where) {
  switch (a.type()) {
    case pb::AttributeProto::INT: return a.i();
    case pb::AttributeProto::FLOAT: return a.f();
    case pb::AttributeProto::STRING: return a.s();
    case pb::AttributeProto::INTS: return std::vector<int64_t>(a.ints().begin(), a.ints().end());
    case pb::AttributeProto::FLOATS: return std::vector<float>(a.floats().begin(), a.floats().end());
    case pb::AttributeProto::STRINGS: return std::vector<std::string>(a.strings().begin(), a.strings().end());
    default:
      raise(where, "attribute '{}' is of type {}, which the runtime does not support", a.name(),
            pb::AttributeProto::AttributeType_Name(a.type()));
  }
}

// A Constant node's value as an initializer.
HostTensor constant_value(const pb::NodeProto& n, const std::string& where) {
  if (n.attribute_size() != 1) raise(where, "a Constant needs exactly one value attribute");
  const pb::AttributeProto& a = n.attribute(0);
  HostTensor h;
  if (a.name() == "value") {
    pb::TensorProto value = a.t();
    h = host_tensor(value, where);
  } else if (a.name() == "value_float" || a.name() == "value_floats") {
    std::vector<float> v = a.name() == "value_float" ? std::vector<float>{a.f()}
                                                     : std::vector<float>(a.floats().begin(), a.floats().end());
    h.desc.type = DType::Float;
    if (a.name() == "value_floats") h.desc.shape = {int64_t(v.size())};
    h.bytes.resize(v.size() * 4);
    std::memcpy(h.bytes.data(), v.data(), h.bytes.size());
  } else if (a.name() == "value_int" || a.name() == "value_ints") {
    std::vector<int64_t> v = a.name() == "value_int" ? std::vector<int64_t>{a.i()}
                                                     : std::vector<int64_t>(a.ints().begin(), a.ints().end());
    h.desc.type = DType::Int64;
    if (a.name() == "value_ints") h.desc.shape = {int64_t(v.size())};
    h.bytes.resize(v.size() * 8);
    std::memcpy(h.bytes.data(), v.data(), h.bytes.size());
  } else {
    raise(where, "attribute '{}' is not supported", a.name());
  }
  h.desc.name = n.output(0);
  return h;
}

bool static_shape(const pb::TypeProto& type, std::vector<int64_t>* shape) {
  if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return false;
  shape->clear();
  for (const auto& d : type.tensor_type().shape().dim()) {
    if (!d.has_dim_value()) return false;
    shape->push_back(d.dim_value());
  }
  return true;
}

// A shape of known rank with -1 for each unknown dimension (a data-dependent output size).
bool ranked_shape(const pb::TypeProto& type, std::vector<int64_t>* shape) {
  if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return false;
  shape->clear();
  for (const auto& d : type.tensor_type().shape().dim()) shape->push_back(d.has_dim_value() ? d.dim_value() : -1);
  return true;
}

bool has_unknown_dim(const TensorDesc& t) {
  return std::any_of(t.shape.begin(), t.shape.end(), [](int64_t d) { return d < 0; });
}

}  // namespace

namespace {

std::vector<std::string> input_names(const pb::ModelProto& model) {
  std::set<std::string> initialized;
  for (const auto& t : model.graph().initializer()) initialized.insert(t.name());
  std::vector<std::string> names;
  for (const auto& in : model.graph().input()) {
    if (!initialized.count(in.name())) names.push_back(in.name());
  }
  return names;
}

}  // namespace

std::vector<std::string> model_input_names(const std::string& path) { return input_names(parse_model(path)); }

Model load_model(const std::string& path, const std::map<std::string, HostTensor>& feeds) {
  return load_model(path, [&feeds](const std::vector<std::string>&) -> const std::map<std::string, HostTensor>& {
    return feeds;
  });
}

Model load_model(const std::string& path, const FeedReader& read_feeds) {
  auto file = std::make_shared<const MappedFile>(path, "model");
  pb::ModelProto proto;
  std::vector<RawSpan> in_file;  // by initializer
  if (!parse_model_file(*file, proto, in_file)) {
    raise(path, "not a valid ONNX model (the protobuf does not parse: a truncated or damaged file?)");
  }
  if (!proto.has_graph() || proto.graph().node_size() == 0) raise(path, "the model has no graph nodes");
  const std::map<std::string, HostTensor>& feeds = read_feeds(input_names(proto));
  Model m;
  m.file = path;
  bool default_domain = false;
  for (const auto& op : proto.opset_import()) {
    if (op.domain().empty() || op.domain() == "ai.onnx") {
      m.opset = op.version();
      default_domain = true;
    }
  }
  if (!default_domain) raise(path, "the model imports no opset of the default ONNX domain");
  pb::GraphProto& graph = *proto.mutable_graph();

  // Inputs given with values that decide shapes become constants; the others fix symbolic
  // dimensions from their data.
  std::set<std::string> initialized;
  for (const auto& t : graph.initializer()) initialized.insert(t.name());
  for (auto& in : *graph.mutable_input()) {
    auto feed = feeds.find(in.name());
    if (feed == feeds.end() || initialized.count(in.name())) continue;
    const HostTensor& h = feed->second;
    if (h.desc.type != DType::Float && h.desc.type != DType::Float16) {
      pb::TensorProto* t = graph.add_initializer();
      t->set_name(in.name());
      t->set_data_type(elem_type_of(h.desc.type));
      for (int64_t d : h.desc.shape) t->add_dims(d);
      t->set_raw_data(h.bytes.data(), h.bytes.size());
      initialized.insert(in.name());
    } else if (in.type().has_tensor_type()) {
      auto* shape = in.mutable_type()->mutable_tensor_type()->mutable_shape();
      shape->clear_dim();
      for (int64_t d : h.desc.shape) shape->add_dim()->set_dim_value(d);
    }
  }

  try {
    pb::shape_inference::InferShapes(proto, pb::OpSchemaRegistry::Instance(),
                                     pb::ShapeInferenceOptions(/*check_type=*/true, /*error_mode=*/1));
  } catch (const std::exception& e) {
    raise(path, "ONNX shape inference failed: {}", e.what());
  }

  // Types and shapes of every value.
  auto add_value = [&](const pb::ValueInfoProto& v) {
    TensorDesc d;
    d.name = v.name();
    if (!v.type().has_tensor_type()) return;
    DType type;
    if (!dtype_of(v.type().tensor_type().elem_type(), &type)) return;  // reported where it is used
    d.type = type;
    if (!static_shape(v.type(), &d.shape) && !ranked_shape(v.type(), &d.shape)) return;
    // Unknown dimensions are kept as -1: the graph runtime accepts them only on outputs
    // whose lowering bounds them (NonMaxSuppression) and refuses them everywhere else.
    m.tensors[d.name] = d;
  };
  for (const auto& v : graph.input()) add_value(v);
  for (const auto& v : graph.value_info()) add_value(v);
  for (const auto& v : graph.output()) add_value(v);
  for (int i = 0; i < graph.initializer_size(); ++i) {  // after shape inference: their bytes move out
    pb::TensorProto& t = *graph.mutable_initializer(i);
    // Those added above for feeds come after the file's, and have no span.
    HostTensor h = size_t(i) < in_file.size() ? host_tensor(t, path, in_file[size_t(i)], file) : host_tensor(t, path);
    m.tensors[t.name()] = h.desc;
    m.initializers[t.name()] = std::move(h);
  }
  for (const auto& in : graph.input()) {
    if (m.initializers.count(in.name())) continue;
    if (!m.tensors.count(in.name()) || has_unknown_dim(m.tensors[in.name()])) {
      std::vector<int64_t> shape;
      if (in.type().has_tensor_type()) {
        checked_dtype(in.type().tensor_type().elem_type(), path, in.name());
      }
      raise(path, "graph input '{}' has no static shape (symbolic or unknown dimensions): give its data with "
            "--data so that its shape is known", in.name());
    }
    m.inputs.push_back(in.name());
  }

  std::set<std::string> available(m.inputs.begin(), m.inputs.end());
  for (const auto& [name, value] : m.initializers) available.insert(name);
  int index = 0;
  for (const auto& n : graph.node()) {
    const std::string where = node_source(path, n, index++);
    if (!(n.domain().empty() || n.domain() == "ai.onnx")) {
      raise(where, "operator domain '{}' is not supported (only the default ONNX domain)", n.domain());
    }
    if (n.op_type() == "Constant") {
      HostTensor h = constant_value(n, where);
      m.tensors[h.desc.name] = h.desc;
      available.insert(h.desc.name);
      m.initializers[h.desc.name] = std::move(h);
      continue;
    }
    Node node;
    node.name = n.name().empty() ? fmt::format("#{}", index - 1) : n.name();
    node.op_type = n.op_type();
    node.domain = n.domain();
    node.source = where;
    node.opset = m.opset;
    for (const auto& a : n.attribute()) node.attributes[a.name()] = attribute_value(a, where);
    for (const auto& in : n.input()) {
      if (!in.empty() && !available.count(in)) {
        raise(where, "input '{}' is neither a graph input, an initializer nor an earlier node's output", in);
      }
      if (!in.empty() && !m.tensors.count(in)) {
        raise(where, "input '{}' has no static shape after ONNX shape inference", in);
      }
      node.inputs.push_back(in);
    }
    for (const auto& out : n.output()) {
      if (!out.empty() && !m.tensors.count(out)) {
        raise(where, "output '{}' has no static shape or supported type after ONNX shape inference", out);
      }
      node.outputs.push_back(out);
      if (!out.empty()) available.insert(out);
    }
    m.nodes.push_back(std::move(node));
  }
  for (const auto& out : graph.output()) {
    if (!available.count(out.name())) raise(path, "graph output '{}' is produced by no node", out.name());
    if (!m.tensors.count(out.name())) raise(path, "graph output '{}' has no static shape", out.name());
    m.outputs.push_back(out.name());
  }
  return m;
}

HostTensor read_tensor_file(const std::string& path) {
  pb::TensorProto t;
  if (!parse_file(path, "tensor file", t)) raise(path, "not a valid ONNX TensorProto file");
  return host_tensor(t, path);
}

void write_tensor_file(const std::string& path, const HostTensor& tensor) {
  pb::TensorProto t;
  t.set_name(tensor.desc.name);
  t.set_data_type(elem_type_of(tensor.desc.type));
  for (int64_t d : tensor.desc.shape) t.add_dims(d);
  t.set_raw_data(tensor.bytes.data(), tensor.bytes.size());
  std::ofstream out(path, std::ios::binary);
  if (!out || !t.SerializeToOstream(&out)) raise(path, "cannot write the tensor file");
}

}  // namespace npuvp::onnx
