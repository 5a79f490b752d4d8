// ONNX operators that run on the AI CPU (issue 28): TopK, ArgMax and NonMaxSuppression are not
// matrix-shaped, so, as on the Ascend SoC, they run as AI CPU kernels (models/soc/aicpu_kernels.h)
// launched through Device::launch_aicpu, in order with the AI Core kernels of the graph. Their
// launches are unit "aicpu" in the per-layer table. Semantics: onnx.ai/onnx/operators
// (onnx__TopK.html, onnx__ArgMax.html, onnx__NonMaxSuppression.html).
//
// Also the generic fallback: an op type with no lowering here but an AI CPU kernel of the same
// name in soc::AicpuRegistry runs that kernel with the convention documented in onnx_op.h.
#include <algorithm>
#include <cmath>
#include <limits>
#include <fmt/format.h>

#include "models/soc/aicpu.h"
#include "platforms/ascend_soc.h"
#include "sw/onnx/onnx_op.h"
#include "tlm/log.h"

namespace npuvp::onnx {

namespace {

int64_t product(const std::vector<int64_t>& shape, size_t first, size_t last) {
  int64_t p = 1;
  for (size_t i = first; i < last; ++i) p *= shape[i];
  return p;
}

int64_t normalised_axis(const Node& node, int64_t axis, size_t rank) {
  const int64_t r = int64_t(rank);
  if (axis < -r || axis >= r) raise(node.source, "attribute 'axis' = {} is outside [{}, {}]", axis, -r, r - 1);
  return axis < 0 ? axis + r : axis;
}

void need_float(const Node& node, const TensorDesc& t, const char* what) {
  if (t.type != DType::Float) {
    raise(node.source, "input '{}' ({}) is {}: the AI CPU kernel takes float32", t.name, what, dtype_name(t.type));
  }
}

uint64_t address(OpContext& ctx, const GmTensor* t) { return t ? ctx.device.device_address(t->data) : 0; }

// How many AI CPU blocks for `rows` independent rows: one per AI CPU core at most.
uint32_t row_blocks(OpContext& ctx, int64_t rows) {
  const int64_t cores = std::max<int64_t>(1, ctx.device.soc().aicpu().ai_cores());
  return uint32_t(std::max<int64_t>(1, std::min(rows, cores)));
}

// Launches `kernel` and records it for the per-layer table: no AI Core flops; the bytes are
// the tensors it reads and writes.
void launch(OpContext& ctx, const char* kernel, const soc::AicpuArgs& args, uint32_t blocks) {
  LayerLaunch l;
  l.report = ctx.device.launch_aicpu(kernel, args, blocks);
  l.unit = "aicpu";
  for (const GmTensor* t : ctx.inputs) l.bytes += t ? double(t->desc.bytes()) : 0.0;
  for (const GmTensor* t : ctx.outputs) l.bytes += t ? double(t->desc.bytes()) : 0.0;
  ctx.launches.push_back(l);
}

void check_topk(const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>& out) {
  need_float(node, in.at(0), "X");
  if (in.at(0).shape.empty()) raise(node.source, "input X is a scalar: TopK needs at least one axis");
  normalised_axis(node, node.attr_int("axis", -1), in[0].shape.size());
  if (out.size() < 2 || out[1].type != DType::Int64) raise(node.source, "TopK needs its Values and Indices outputs");
}

void run_topk(OpContext& ctx) {
  const Node& node = ctx.node;
  const auto& shape = ctx.inputs[0]->desc.shape;
  const size_t axis = size_t(normalised_axis(node, node.attr_int("axis", -1), shape.size()));
  const int64_t outer = product(shape, 0, axis), n = shape[axis], inner = product(shape, axis + 1, shape.size());
  // k: the Values output's extent along the axis (shape inference read the K input or attribute).
  const int64_t k = ctx.outputs[0]->desc.shape.at(axis);
  if (outer * inner == 0 || k == 0) return;
  soc::AicpuArgs args;
  args.tensors = {address(ctx, ctx.inputs[0]), address(ctx, ctx.outputs[0]), address(ctx, ctx.outputs[1])};
  args.ints = {outer, n, k, node.attr_int("largest", 1), node.attr_int("sorted", 1), inner};
  launch(ctx, "TopK", args, row_blocks(ctx, outer));
}

void check_argmax(const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>&) {
  need_float(node, in.at(0), "data");
  if (in[0].shape.empty()) raise(node.source, "input data is a scalar: ArgMax needs at least one axis");
  normalised_axis(node, node.attr_int("axis", 0), in[0].shape.size());
}

void run_argmax(OpContext& ctx) {
  const Node& node = ctx.node;
  const auto& shape = ctx.inputs[0]->desc.shape;
  const size_t axis = size_t(normalised_axis(node, node.attr_int("axis", 0), shape.size()));
  const int64_t outer = product(shape, 0, axis), n = shape[axis], inner = product(shape, axis + 1, shape.size());
  if (outer * inner == 0) return;
  soc::AicpuArgs args;
  args.tensors = {address(ctx, ctx.inputs[0]), address(ctx, ctx.outputs[0])};
  args.ints = {outer, n, node.attr_int("select_last_index", 0), inner};
  launch(ctx, "ArgMax", args, row_blocks(ctx, outer));
}

void check_nms(const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>&) {
  need_float(node, in.at(0), "boxes");
  need_float(node, in.at(1), "scores");
  if (in[0].shape.size() != 3 || in[0].shape[2] != 4 || in[1].shape.size() != 3 || in[1].shape[0] != in[0].shape[0] ||
      in[1].shape[2] != in[0].shape[1]) {
    raise(node.source, "boxes [{}] and scores [{}] must be [batches, spatial, 4] and [batches, classes, spatial]",
          fmt::join(in[0].shape, ","), fmt::join(in[1].shape, ","));
  }
  const char* names[] = {"max_output_boxes_per_class", "iou_threshold", "score_threshold"};
  for (size_t i = 2; i < in.size() && i < 5; ++i) {
    if (in[i].name.empty()) continue;
    const DType want = i == 2 ? DType::Int64 : DType::Float;
    if (in[i].type != want || in[i].elements() != 1) {
      raise(node.source, "input {} must be one {}, it is {} [{}]", names[i - 2], dtype_name(want),
            dtype_name(in[i].type), fmt::join(in[i].shape, ","));
    }
  }
}

// selected_indices is [num_selected, 3]: at most one row per (batch, class, box).
std::vector<int64_t> nms_bound(const Node&, const std::vector<TensorDesc>& in, size_t) {
  return {in.at(1).shape.at(0) * in[1].shape.at(1) * in[1].shape.at(2), 3};
}

void run_nms(OpContext& ctx) {
  const auto& boxes = ctx.inputs[0]->desc.shape;
  const auto& scores = ctx.inputs[1]->desc.shape;
  const int64_t batches = boxes[0], spatial = boxes[1], classes = scores[1];
  auto optional = [&](size_t i) -> const GmTensor* { return ctx.inputs.size() > i ? ctx.inputs[i] : nullptr; };
  int64_t* count = static_cast<int64_t*>(ctx.scratch(sizeof(int64_t)));
  soc::AicpuArgs args;
  args.tensors = {address(ctx, ctx.inputs[0]), address(ctx, ctx.inputs[1]), address(ctx, ctx.outputs[0]),
                  ctx.device.device_address(count), address(ctx, optional(2)), address(ctx, optional(3)),
                  address(ctx, optional(4))};
  // Omitted inputs take ONNX's defaults: no boxes (max 0), IoU threshold 0, no score threshold.
  args.ints = {batches, classes, spatial, optional(2) ? spatial : 0, ctx.node.attr_int("center_point_box", 0)};
  args.floats = {0.0, -std::numeric_limits<double>::infinity()};
  launch(ctx, "NonMaxSuppression", args, 1);
  // The host reads the count back (as CANN's dynamic-shape outputs do) and sizes the output.
  int64_t selected = 0;
  ctx.device.memcpy(&selected, count, sizeof(selected), Device::Copy::DeviceToHost);
  ctx.outputs[0]->desc.shape = {selected, 3};
}

// The generic fallback's argument convention (onnx_op.h).
void check_fallback(const Node& node, const std::vector<TensorDesc>&, const std::vector<TensorDesc>& out) {
  for (const TensorDesc& t : out) {
    for (int64_t d : t.shape) {
      if (d < 0) raise(node.source, "output '{}' has no static shape: the AI CPU fallback needs one", t.name);
    }
  }
  for (const auto& [name, value] : node.attributes) {
    if (!std::holds_alternative<int64_t>(value) && !std::holds_alternative<float>(value)) {
      raise(node.source, "attribute '{}' is not a single integer or float: the AI CPU fallback passes only those",
            name);
    }
  }
}

void run_fallback(OpContext& ctx) {
  soc::AicpuArgs args;
  for (const GmTensor* t : ctx.inputs) args.tensors.push_back(address(ctx, t));
  for (const GmTensor* t : ctx.outputs) args.tensors.push_back(address(ctx, t));
  auto shapes = [&](const std::vector<const GmTensor*>& tensors) {
    for (const GmTensor* t : tensors) {
      args.ints.push_back(t ? int64_t(t->desc.shape.size()) : 0);
      if (t) args.ints.insert(args.ints.end(), t->desc.shape.begin(), t->desc.shape.end());
    }
  };
  shapes(ctx.inputs);
  shapes(std::vector<const GmTensor*>(ctx.outputs.begin(), ctx.outputs.end()));
  for (const auto& [name, value] : ctx.node.attributes) {  // std::map: in name order
    if (const auto* i = std::get_if<int64_t>(&value)) args.ints.push_back(*i);
    if (const auto* f = std::get_if<float>(&value)) args.floats.push_back(double(*f));
  }
  launch(ctx, ctx.node.op_type.c_str(), args, 0);
}

}  // namespace

void register_aicpu_ops() {
  register_op({"TopK", check_topk, run_topk, nullptr, nullptr});
  register_op({"ArgMax", check_argmax, run_argmax, nullptr, nullptr});
  register_op({"NonMaxSuppression", check_nms, run_nms, nms_bound, nullptr});
}

bool has_aicpu_kernel(const std::string& op_type) { return soc::AicpuRegistry::global().find(op_type) != nullptr; }

std::vector<std::string> aicpu_kernel_names() { return soc::AicpuRegistry::global().names(); }

OpLowering aicpu_fallback(const std::string& op_type) { return {op_type, check_fallback, run_fallback, nullptr, nullptr}; }

}  // namespace npuvp::onnx
