// Data-movement lowerings (issue 26): Transpose, Reshape, Flatten, Concat, Split, Slice and
// Gather, any element type. Each is an N-d view copied by the strided-copy kernel
// (sw/onnx/onnx_kernels.h), except Gather, whose indices are data its own kernel reads.
// Output shapes come from ONNX's shape inference; the lowerings only place the bytes.
#include "sw/onnx/onnx_kernels.h"
#include "tlm/log.h"

namespace npuvp::onnx {

using namespace AscendC;

namespace {

void check_io(const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>& out,
              size_t min_inputs, size_t max_inputs) {
  if (in.size() < min_inputs || in.size() > max_inputs || out.empty()) {
    raise(node.source, "expects {} to {} inputs, has {}", min_inputs, max_inputs, in.size());
  }
  for (const auto& o : out) {
    if (!o.name.empty() && o.type != in[0].type) {
      raise(node.source, "output '{}' is {}, its input {}", o.name, dtype_name(o.type), dtype_name(in[0].type));
    }
  }
}

// Reshape and Flatten keep the bytes in order: one contiguous copy.
void contiguous_copy(OpContext& ctx) {
  const GmTensor& in = *ctx.inputs[0];
  GmTensor& out = *ctx.outputs[0];
  CopyView view;
  view.shape = {in.desc.elements()};
  view.strides = {1};
  strided_copy(ctx, ctx.node.op_type.c_str(), in.data, out.data, dtype_bytes(in.desc.type), view);
}

// The Slice parameters from inputs (opset >= 10) or attributes (opset 1).
struct SliceSpec {
  std::vector<int64_t> starts, ends, axes, steps;
};

SliceSpec slice_spec(const OpContext& ctx) {
  SliceSpec s;
  const Node& node = ctx.node;
  if (ctx.inputs.size() >= 3) {
    s.starts = constant_ints(node, ctx.inputs[1], "starts");
    s.ends = constant_ints(node, ctx.inputs[2], "ends");
    if (ctx.inputs.size() > 3 && ctx.inputs[3]) s.axes = constant_ints(node, ctx.inputs[3], "axes");
    if (ctx.inputs.size() > 4 && ctx.inputs[4]) s.steps = constant_ints(node, ctx.inputs[4], "steps");
  } else {
    s.starts = node.attr_ints("starts");
    s.ends = node.attr_ints("ends");
    s.axes = node.attr_ints("axes");
  }
  const int64_t rank = int64_t(ctx.inputs[0]->desc.shape.size());
  if (s.axes.empty()) {
    for (size_t i = 0; i < s.starts.size(); ++i) s.axes.push_back(int64_t(i));
  }
  if (s.steps.empty()) s.steps.assign(s.starts.size(), 1);
  for (auto& a : s.axes) a = normalized_axis(node, "axes", a, rank);
  return s;
}

void run_slice(OpContext& ctx) {
  const GmTensor& in = *ctx.inputs[0];
  const SliceSpec s = slice_spec(ctx);
  const std::vector<int64_t> in_strides = strides_of(in.desc.shape);
  CopyView view;
  view.shape = ctx.outputs[0]->desc.shape;
  view.strides = in_strides;
  for (size_t i = 0; i < s.axes.size(); ++i) {
    const int64_t axis = s.axes[i], dim = in.desc.shape[size_t(axis)], step = s.steps.at(i);
    if (step == 0) raise(ctx.node.source, "steps[{}] is 0", i);
    int64_t start = s.starts.at(i);
    if (start < 0) start += dim;
    // ONNX Slice: starts clamp to [0, dim] for positive steps, [0, dim - 1] for negative ones.
    start = step > 0 ? std::clamp<int64_t>(start, 0, dim) : std::clamp<int64_t>(start, 0, dim - 1);
    view.base += start * in_strides[size_t(axis)];
    view.strides[size_t(axis)] = in_strides[size_t(axis)] * step;
  }
  strided_copy(ctx, "Slice", in.data, ctx.outputs[0]->data, dtype_bytes(in.desc.type), view);
}

// Gather along `axis`: out[o, j, i] = data[o, idx[j], i] over (outer, indices, inner); each
// work item copies one inner run, reading its index from GM (negative indices count from the
// end; one out of range is an error naming the node).
template <class T>
void gather_kernel(GM_ADDR data, GM_ADDR indices, bool idx64, GM_ADDR out, int64_t outer, int64_t axis_dim,
                   int64_t count, int64_t inner, const std::string& source, bool pad) {
  GlobalTensor<T> dataGm, outGm;
  dataGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(data));
  outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out));
  GlobalTensor<int64_t> idx64Gm;
  GlobalTensor<int32_t> idx32Gm;
  idx64Gm.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(indices));
  idx32Gm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(indices));
  TPipe pipe;
  constexpr uint32_t kSlot = 32 * 1024;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 2> queue;
  pipe.InitBuffer(queue, 2, kSlot);
  const int64_t chunk = kSlot / sizeof(T), chunks = (inner + chunk - 1) / chunk;
  const uint64_t items = uint64_t(outer * count * chunks);
  const uint64_t blocks = uint64_t(GetBlockNum()), b = uint64_t(GetBlockIdx());
  const uint64_t per = items / blocks, extra = items % blocks;
  const uint64_t first = b * per + std::min(b, extra), end = first + per + (b < extra ? 1 : 0);
  for (uint64_t item = first; item < end; ++item) {
    const int64_t c = int64_t(item) % chunks, j = int64_t(item) / chunks % count, o = int64_t(item) / chunks / count;
    int64_t index = idx64 ? idx64Gm.GetValue(uint64_t(j)) : idx32Gm.GetValue(uint64_t(j));
    if (index < 0) index += axis_dim;
    if (index < 0 || index >= axis_dim) raise(source, "index {} (indices[{}]) is out of range [0, {})", index, j, axis_dim);
    const int64_t n = std::min(chunk, inner - c * chunk);
    LocalTensor<T> t = queue.template AllocTensor<T>();
    copy_in(t, dataGm[uint64_t((o * axis_dim + index) * inner + c * chunk)], n, pad);
    queue.EnQue(t);
    t = queue.template DeQue<T>();
    copy_out(outGm[uint64_t((o * count + j) * inner + c * chunk)], t, n, pad);
    queue.FreeTensor(t);
  }
}

void run_gather(OpContext& ctx) {
  const GmTensor& data = *ctx.inputs[0];
  const GmTensor& indices = *ctx.inputs[1];
  const int64_t rank = int64_t(data.desc.shape.size());
  const int64_t axis = normalized_axis(ctx.node, "axis", ctx.node.attr_int("axis", 0), rank);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= data.desc.shape[size_t(d)];
  for (int64_t d = axis + 1; d < rank; ++d) inner *= data.desc.shape[size_t(d)];
  const int64_t axis_dim = data.desc.shape[size_t(axis)], count = indices.desc.elements();
  if (ctx.outputs[0]->desc.elements() == 0) return;
  const size_t elem = dtype_bytes(data.desc.type);
  const int64_t chunk = int64_t(32 * 1024 / elem);
  const uint64_t items = uint64_t(outer * count * ((inner + chunk - 1) / chunk));
  auto pd = reinterpret_cast<GM_ADDR>(data.data), pi = reinterpret_cast<GM_ADDR>(indices.data);
  auto po = reinterpret_cast<GM_ADDR>(ctx.outputs[0]->data);
  const bool idx64 = indices.desc.type == DType::Int64;
  const std::string source = ctx.node.source;
  const bool pad = has_data_copy_pad();
  launch_vector(ctx, "Gather", items, 0, 2.0 * double(ctx.outputs[0]->desc.bytes()) + double(indices.desc.bytes()), [=] {
    switch (elem) {
      case 1: gather_kernel<uint8_t>(pd, pi, idx64, po, outer, axis_dim, count, inner, source, pad); break;
      case 2: gather_kernel<int16_t>(pd, pi, idx64, po, outer, axis_dim, count, inner, source, pad); break;
      case 4: gather_kernel<float>(pd, pi, idx64, po, outer, axis_dim, count, inner, source, pad); break;
      default: gather_kernel<int64_t>(pd, pi, idx64, po, outer, axis_dim, count, inner, source, pad); break;
    }
  });
}

}  // namespace

void register_shape_ops() {
  OpLowering reshape;
  reshape.op_type = "Reshape";
  reshape.check = [](const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>& out) {
    allow_attributes(node, {"allowzero"});
    check_io(node, in, out, 2, 2);
  };
  reshape.run = contiguous_copy;
  register_op(reshape);

  OpLowering flatten;
  flatten.op_type = "Flatten";
  flatten.check = [](const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>& out) {
    allow_attributes(node, {"axis"});
    check_io(node, in, out, 1, 1);
  };
  flatten.run = contiguous_copy;
  register_op(flatten);

  OpLowering transpose;
  transpose.op_type = "Transpose";
  transpose.check = [](const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>& out) {
    allow_attributes(node, {"perm"});
    check_io(node, in, out, 1, 1);
  };
  transpose.run = [](OpContext& ctx) {
    const GmTensor& in = *ctx.inputs[0];
    const size_t rank = in.desc.shape.size();
    std::vector<int64_t> perm = ctx.node.attr_ints("perm");
    if (perm.empty()) {
      for (size_t i = 0; i < rank; ++i) perm.push_back(int64_t(rank - 1 - i));
    }
    const std::vector<int64_t> in_strides = strides_of(in.desc.shape);
    CopyView view;
    view.shape = ctx.outputs[0]->desc.shape;
    for (int64_t p : perm) view.strides.push_back(in_strides.at(size_t(p)));
    strided_copy(ctx, "Transpose", in.data, ctx.outputs[0]->data, dtype_bytes(in.desc.type), view);
  };
  register_op(transpose);

  OpLowering concat;
  concat.op_type = "Concat";
  concat.check = [](const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>& out) {
    allow_attributes(node, {"axis"});
    check_io(node, in, out, 1, 1u << 20);
  };
  concat.run = [](OpContext& ctx) {
    GmTensor& out = *ctx.outputs[0];
    const int64_t rank = int64_t(out.desc.shape.size());
    const int64_t axis = normalized_axis(ctx.node, "axis", ctx.node.attr_int("axis", 0), rank);
    const std::vector<int64_t> out_strides = strides_of(out.desc.shape);
    int64_t offset = 0;
    for (const GmTensor* in : ctx.inputs) {
      CopyView view;
      view.shape = in->desc.shape;
      view.strides = strides_of(in->desc.shape);
      view.out_strides = out_strides;
      view.out_base = offset * out_strides[size_t(axis)];
      strided_copy(ctx, "Concat", in->data, out.data, dtype_bytes(in->desc.type), view);
      offset += in->desc.shape[size_t(axis)];
    }
  };
  register_op(concat);

  OpLowering split;
  split.op_type = "Split";
  split.check = [](const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>& out) {
    allow_attributes(node, {"axis", "split", "num_outputs"});
    check_io(node, in, out, 1, 2);
  };
  split.run = [](OpContext& ctx) {
    const GmTensor& in = *ctx.inputs[0];
    const int64_t rank = int64_t(in.desc.shape.size());
    const int64_t axis = normalized_axis(ctx.node, "axis", ctx.node.attr_int("axis", 0), rank);
    const std::vector<int64_t> in_strides = strides_of(in.desc.shape);
    int64_t offset = 0;
    for (GmTensor* out : ctx.outputs) {
      if (!out) continue;
      CopyView view;
      view.shape = out->desc.shape;
      view.strides = in_strides;
      view.base = offset * in_strides[size_t(axis)];
      strided_copy(ctx, "Split", in.data, out->data, dtype_bytes(in.desc.type), view);
      offset += out->desc.shape[size_t(axis)];
    }
  };
  register_op(split);

  OpLowering slice;
  slice.op_type = "Slice";
  slice.check = [](const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>& out) {
    allow_attributes(node, {"starts", "ends", "axes"});
    check_io(node, in, out, 1, 5);
  };
  slice.run = run_slice;
  register_op(slice);

  OpLowering gather;
  gather.op_type = "Gather";
  gather.check = [](const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>& out) {
    allow_attributes(node, {"axis"});
    check_io(node, in, out, 2, 2);
    if (in[1].type != DType::Int64 && in[1].type != DType::Int32) {
      raise(node.source, "indices '{}' are {}: int64 or int32 expected", in[1].name, dtype_name(in[1].type));
    }
  };
  gather.run = run_gather;
  register_op(gather);
}

}  // namespace npuvp::onnx
