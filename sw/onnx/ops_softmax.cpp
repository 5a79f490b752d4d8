// Softmax (issue 26), f32 on the vector unit: y = exp(x - max) / sum(exp(x - max)) along the
// axis. Opset 13 normalises along the one axis (default -1); opsets 1-12 coerce the input to
// 2-D at `axis` (default 1) and normalise each row of the flattened trailing dimensions
// (onnx.ai/onnx/operators/onnx__Softmax.html, "Changelog" of versions 11 and 13).
// The view is [outer, A, inner]: inner == 1 takes one row per work item with ReduceMax /
// ReduceSum; inner > 1 takes A slices of a tile of inner at once and reduces across them
// with elementwise Max / Add.
#include "sw/onnx/onnx_kernels.h"
#include "tlm/log.h"

namespace npuvp::onnx {

using namespace AscendC;

namespace {

constexpr int64_t kSlotFloats = 8192;  // 32 KiB of UB per slot

void softmax_kernel(GM_ADDR x, GM_ADDR y, int64_t outer, int64_t axis_len, int64_t inner, bool pad) {
  GlobalTensor<float> xGm, yGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
  TPipe pipe;
  TQue<TPosition::VECIN, 1> inQueue;
  TQue<TPosition::VECOUT, 1> outQueue;
  TBuf<TPosition::VECCALC> calc;
  pipe.InitBuffer(inQueue, 1, kSlotFloats * 4);
  pipe.InitBuffer(outQueue, 1, kSlotFloats * 4);
  pipe.InitBuffer(calc, 2 * kSlotFloats * 4);
  const LocalTensor<float> c = calc.Get<float>();
  const int64_t width = inner == 1 ? 1 : std::min<int64_t>(inner, kSlotFloats / axis_len / 8 * 8);
  const int64_t padded = (width + 7) / 8 * 8;  // each slice starts 32 B aligned in UB
  const int64_t tiles = (inner + width - 1) / width;
  const uint64_t items = uint64_t(outer * tiles);
  const uint64_t blocks = uint64_t(GetBlockNum()), b = uint64_t(GetBlockIdx());
  const uint64_t per = items / blocks, extra = items % blocks;
  const uint64_t first = b * per + std::min(b, extra), end = first + per + (b < extra ? 1 : 0);
  for (uint64_t item = first; item < end; ++item) {
    const int64_t o = int64_t(item) / tiles, t = int64_t(item) % tiles;
    const int64_t base = o * axis_len * inner + t * width;
    const int64_t w = std::min(width, inner - t * width);
    LocalTensor<float> xl = inQueue.AllocTensor<float>();
    if (inner == 1) {
      copy_in(xl, xGm[uint64_t(base)], axis_len, pad);
    } else if (!pad) {
      for (int64_t a = 0; a < axis_len; ++a) copy_in(xl[uint32_t(a * padded)], xGm[uint64_t(base + a * inner)], w, pad);
    } else {  // A rows of w elements, inner apart in GM, padded apart in UB
      DataCopyPad(xl, xGm[uint64_t(base)],
                  DataCopyExtParams(uint16_t(axis_len), uint32_t(w * 4), uint32_t((inner - w) * 4),
                                    uint32_t((padded - (w + 7) / 8 * 8) / 8), 0),
                  DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
    }
    inQueue.EnQue(xl);
    xl = inQueue.DeQue<float>();
    LocalTensor<float> yl = outQueue.AllocTensor<float>();
    if (inner == 1) {
      const int32_t n = int32_t(axis_len);
      ReduceMax(c, xl, c[uint32_t(kSlotFloats)], n);
      const float max = c.GetValue(0);
      Adds(yl, xl, -max, n);
      Exp(yl, yl, n);
      ReduceSum(c, yl, c[uint32_t(kSlotFloats)], n);
      const float sum = c.GetValue(0);
      Duplicate(c, sum, n);
      Div(yl, yl, c, n);
    } else {
      const int32_t n = int32_t(w);
      const LocalTensor<float> m = c, s = c[uint32_t(kSlotFloats)];
      Adds(m, xl, 0.0f, n);
      for (int64_t a = 1; a < axis_len; ++a) Max(m, m, xl[uint32_t(a * padded)], n);
      Duplicate(s, 0.0f, n);
      for (int64_t a = 0; a < axis_len; ++a) {
        const LocalTensor<float> row = yl[uint32_t(a * padded)];
        Sub(row, xl[uint32_t(a * padded)], m, n);
        Exp(row, row, n);
        Add(s, s, row, n);
      }
      for (int64_t a = 0; a < axis_len; ++a) Div(yl[uint32_t(a * padded)], yl[uint32_t(a * padded)], s, n);
    }
    inQueue.FreeTensor(xl);
    outQueue.EnQue(yl);
    yl = outQueue.DeQue<float>();
    if (inner == 1) {
      copy_out(yGm[uint64_t(base)], yl, axis_len, pad);
    } else if (!pad) {
      for (int64_t a = 0; a < axis_len; ++a) copy_out(yGm[uint64_t(base + a * inner)], yl[uint32_t(a * padded)], w, pad);
    } else {
      DataCopyPad(yGm[uint64_t(base)], yl,
                  DataCopyExtParams(uint16_t(axis_len), uint32_t(w * 4), uint32_t((padded - (w + 7) / 8 * 8) / 8),
                                    uint32_t((inner - w) * 4), 0));
    }
    outQueue.FreeTensor(yl);
  }
}

struct SoftmaxView {
  int64_t outer = 1, axis_len = 1, inner = 1;
};

SoftmaxView softmax_view(const Node& node, const std::vector<int64_t>& shape) {
  const int64_t rank = int64_t(shape.size());
  const bool opset13 = node.opset == 0 || node.opset >= 13;
  const int64_t axis = normalized_axis(node, "axis", node.attr_int("axis", opset13 ? -1 : 1), rank);
  SoftmaxView v;
  for (int64_t d = 0; d < axis; ++d) v.outer *= shape[size_t(d)];
  if (opset13) {
    v.axis_len = shape[size_t(axis)];
    for (int64_t d = axis + 1; d < rank; ++d) v.inner *= shape[size_t(d)];
  } else {
    for (int64_t d = axis; d < rank; ++d) v.axis_len *= shape[size_t(d)];
  }
  return v;
}

}  // namespace

void register_softmax_ops() {
  OpLowering softmax;
  softmax.op_type = "Softmax";
  softmax.check = [](const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>& out) {
    allow_attributes(node, {"axis"});
    if (in.size() != 1 || out.size() != 1) raise(node.source, "expects 1 input and 1 output");
    require_float(node, in, out, {0});
    const SoftmaxView v = softmax_view(node, in[0].shape);
    const int64_t limit = v.inner == 1 ? kSlotFloats : kSlotFloats / 8;
    if (v.axis_len > limit) {
      raise(node.source, "the softmax axis has {} elements; this lowering takes at most {} (one UB slot)",
            v.axis_len, limit);
    }
  };
  softmax.run = [](OpContext& ctx) {
    const GmTensor& in = *ctx.inputs[0];
    if (in.desc.elements() == 0) return;
    const SoftmaxView v = softmax_view(ctx.node, in.desc.shape);
    const int64_t width = v.inner == 1 ? 1 : std::min<int64_t>(v.inner, kSlotFloats / v.axis_len / 8 * 8);
    const uint64_t items = uint64_t(v.outer * ((v.inner + width - 1) / width));
    auto px = reinterpret_cast<GM_ADDR>(in.data), py = reinterpret_cast<GM_ADDR>(ctx.outputs[0]->data);
    const bool pad = has_data_copy_pad();
    launch_vector(ctx, "Softmax", items, 5.0 * double(in.desc.elements()), 2.0 * double(in.desc.bytes()),
                  [=] { softmax_kernel(px, py, v.outer, v.axis_len, v.inner, pad); });
  };
  register_op(softmax);
}

}  // namespace npuvp::onnx
