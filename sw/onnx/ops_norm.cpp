// BatchNormalization in inference form (https://onnx.ai/onnx/operators/onnx__BatchNormalization.html)
// and LayerNormalization (opset 17, onnx__LayerNormalization.html), on the vector unit in f32.
//
// BatchNormalization: y = (x - mean[c]) * (scale[c] / sqrt(var[c] + epsilon)) + B[c]. Every
// block computes the per-channel factor from the four C vectors in UB (Adds, Sqrt, Div), then
// takes (image, channel, chunk of the plane) units: Adds, Muls, Adds with the channel's values.
// LayerNormalization: per row of the axes from `axis` on, ONNX's f32 recipe: mean = sum / L,
// d = x - mean, var = sum(d * d) / L, y = d * (1 / sqrt(var + epsilon)) * Scale + B; the sums
// by ReduceSum, the row's mean and 1 / sqrt read by the scalar unit; the optional Mean and
// InvStdDev outputs are stored by it too.
#include <algorithm>
#include <cmath>
#include "kernel_operator.h"
#include "sw/onnx/ops_support.h"
#include "sw/onnx/ops_vision.h"
#include "sw/onnx/vector_io.h"
#include "tlm/log.h"

namespace npuvp::onnx {

using namespace AscendC;

namespace {
namespace ops_norm_cpp {  // named after the file: unity batches share anonymous namespaces

inline uint32_t round_up(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }
constexpr uint32_t kChunk = 8192;  // plane elements per BatchNormalization unit

struct BnShape {
  uint32_t n = 1, c = 1;
  uint64_t plane = 1;
  float epsilon = 1e-5f;
  bool separated = true;
};

void batchnorm_kernel(const BnShape& s, GM_ADDR x, GM_ADDR scale, GM_ADDR bias, GM_ADDR mean, GM_ADDR var, GM_ADDR y) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> params_buf, data_buf;
  const uint32_t cp = round_up(s.c, 8);
  pipe.InitBuffer(params_buf, 4 * cp * 4);
  pipe.InitBuffer(data_buf, kChunk * 4);
  GlobalTensor<float> xg, yg, sg, bg, mg, vg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), uint64_t(s.n) * s.c * s.plane);
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), uint64_t(s.n) * s.c * s.plane);
  sg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(scale), s.c);
  bg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), s.c);
  mg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(mean), s.c);
  vg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(var), s.c);
  LocalTensor<float> params = params_buf.Get<float>();
  LocalTensor<float> factor = params, shift = params[cp], means = params[2 * cp], work = params[3 * cp];
  load_run(factor, sg, s.c, s.separated);
  load_run(shift, bg, s.c, s.separated);
  load_run(means, mg, s.c, s.separated);
  load_run(work, vg, s.c, s.separated);
  SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
  Adds(work, work, s.epsilon, static_cast<int32_t>(s.c));
  Sqrt(work, work, static_cast<int32_t>(s.c));
  Div(factor, factor, work, static_cast<int32_t>(s.c));
  SetFlag<HardEvent::V_S>(EVENT_ID0);
  WaitFlag<HardEvent::V_S>(EVENT_ID0);

  // A unit is a chunk of one plane, or (small planes) as many whole planes as fit a chunk:
  // one copy in and out for all of them, three vector ops per plane.
  const uint64_t planes = uint64_t(s.n) * s.c;
  const uint64_t chunks = (s.plane + kChunk - 1) / kChunk;
  const uint64_t per_unit = s.plane * 8 <= kChunk ? kChunk / round_up(uint32_t(s.plane), 8) : 1;
  const uint64_t units = per_unit > 1 ? (planes + per_unit - 1) / per_unit : planes * chunks;
  const uint64_t blocks = GetBlockNum(), block = GetBlockIdx();
  LocalTensor<float> data = data_buf.Get<float>();
  SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
  SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
  for (uint64_t u = block * units / blocks; u < (block + 1) * units / blocks; ++u) {
    uint64_t plane_index, first, count;
    uint32_t len;
    if (per_unit > 1) {
      plane_index = u * per_unit;
      count = std::min<uint64_t>(per_unit, planes - plane_index);
      first = 0;
      len = uint32_t(count * s.plane);
    } else {
      plane_index = u / chunks;
      count = 1;
      first = u % chunks * kChunk;
      len = uint32_t(std::min<uint64_t>(kChunk, s.plane - first));
    }
    const uint64_t at = plane_index * s.plane + first;
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
    if (count == 1) {
      load_run(data, xg[at], len, s.separated);
    } else {
      // Each plane at a 32 B boundary in UB (round_up(plane, 8) apart) for the vector ops.
      const uint32_t pitch = round_up(uint32_t(s.plane), 8);
      if (s.separated) {
        DataCopyPad(data, xg[at], DataCopyExtParams(static_cast<uint16_t>(count), uint32_t(s.plane) * 4, 0,
                                                    (pitch * 4 - round_up(uint32_t(s.plane) * 4, 32)) / 32, 0),
                    DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
      } else {
        for (uint64_t i = 0; i < count; ++i) load_run(data[uint32_t(i) * pitch], xg[at + i * s.plane], uint32_t(s.plane), false);
      }
    }
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    const uint32_t pitch = count == 1 ? 0 : round_up(uint32_t(s.plane), 8);
    for (uint64_t i = 0; i < count; ++i) {
      const uint32_t channel = uint32_t((plane_index + i) % s.c);
      LocalTensor<float> d = data[uint32_t(i) * pitch];
      const int32_t n = static_cast<int32_t>(round_up(count == 1 ? len : uint32_t(s.plane), 8));
      Adds(d, d, -means.GetValue(channel), n);
      Muls(d, d, factor.GetValue(channel), n);
      Adds(d, d, shift.GetValue(channel), n);
    }
    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    if (count == 1) {
      store_run(yg[at], data, len, s.separated);
    } else if (s.separated) {
      DataCopyPad(yg[at], data, DataCopyExtParams(static_cast<uint16_t>(count), uint32_t(s.plane) * 4,
                                                  (pitch * 4 - round_up(uint32_t(s.plane) * 4, 32)) / 32, 0, 0));
    } else {
      for (uint64_t i = 0; i < count; ++i) store_run(yg[at + i * s.plane], data[uint32_t(i) * pitch], uint32_t(s.plane), false);
    }
    SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
  }
  WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
  WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
}

void check_batchnorm(const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>& out) {
  allow_only(node, {"epsilon", "momentum", "training_mode", "spatial"});
  if (node.attr_int("training_mode", 0) != 0) raise(node.source, "attribute 'training_mode' = 1 is not supported (inference only)");
  if (node.attr_int("spatial", 1) != 1) raise(node.source, "attribute 'spatial' = 0 is not supported");
  for (size_t i = 1; i < out.size(); ++i) {
    if (!out[i].name.empty()) raise(node.source, "output '{}' (training statistics) is not supported", out[i].name);
  }
  const char* names[] = {"X", "scale", "B", "input_mean", "input_var"};
  for (size_t i = 0; i < 5; ++i) require_float(node, in, i, names[i]);
  if (in[0].shape.size() < 2) raise(node.source, "input X has rank {}; BatchNormalization needs N and C", in[0].shape.size());
  for (size_t i = 1; i < 5; ++i) {
    if (in[i].elements() != in[0].shape[1]) raise(node.source, "input '{}' has {} values for {} channels", names[i], in[i].elements(), in[0].shape[1]);
  }
  if (in[0].shape[1] > 8192) raise(node.source, "{} channels: at most 8192 are supported", in[0].shape[1]);
}

void run_batchnorm(OpContext& ctx) {
  const auto& shape = ctx.inputs[0]->desc.shape;
  BnShape s;
  s.n = uint32_t(shape[0]);
  s.c = uint32_t(shape[1]);
  for (size_t i = 2; i < shape.size(); ++i) s.plane *= uint64_t(shape[i]);
  s.epsilon = ctx.node.attr_float("epsilon", 1e-5f);
  const Cores cores = cores_of(ctx.device);
  s.separated = cores.separated;
  auto p = [&](size_t i) { return reinterpret_cast<GM_ADDR>(ctx.inputs[i]->data); };
  auto gy = reinterpret_cast<GM_ADDR>(ctx.outputs[0]->data);
  LayerLaunch launch;
  launch.report = ctx.device.launch(ctx.node.name + ".BatchNormalization", cores.vector,
                                    [&] { batchnorm_kernel(s, p(0), p(1), p(2), p(3), p(4), gy); });
  launch.flops = 3.0 * double(ctx.inputs[0]->desc.elements());
  launch.bytes = tensor_bytes(ctx.inputs[0]) + tensor_bytes(ctx.outputs[0]);
  launch.unit = "vector";
  ctx.launches.push_back(launch);
}

// ---- LayerNormalization

struct LnShape {
  uint64_t rows = 1;
  uint32_t len = 1;
  float epsilon = 1e-5f;
  bool bias = false, mean_out = false, rstd_out = false, separated = true;
};

void layernorm_kernel(const LnShape& s, GM_ADDR x, GM_ADDR scale, GM_ADDR bias, GM_ADDR y, GM_ADDR mean_out,
                      GM_ADDR rstd_out) {
  TPipe pipe;
  const uint32_t lp = round_up(s.len, 8);
  TBuf<TPosition::VECCALC> row_buf, sq_buf, gamma_buf, beta_buf, sum_buf, work_buf;
  pipe.InitBuffer(row_buf, lp * 4);
  pipe.InitBuffer(sq_buf, lp * 4);
  pipe.InitBuffer(gamma_buf, lp * 4);
  pipe.InitBuffer(beta_buf, lp * 4);
  pipe.InitBuffer(sum_buf, 32);
  pipe.InitBuffer(work_buf, lp * 4);
  GlobalTensor<float> xg, yg, gg, bg, mg, rg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), s.rows * s.len);
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), s.rows * s.len);
  gg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(scale), s.len);
  if (s.bias) bg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), s.len);
  if (s.mean_out) mg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(mean_out), s.rows);
  if (s.rstd_out) rg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(rstd_out), s.rows);
  LocalTensor<float> row = row_buf.Get<float>(), sq = sq_buf.Get<float>(), gamma = gamma_buf.Get<float>();
  LocalTensor<float> beta = beta_buf.Get<float>(), sum = sum_buf.Get<float>(), work = work_buf.Get<float>();
  load_run(gamma, gg, s.len, s.separated);
  if (s.bias) load_run(beta, bg, s.len, s.separated);
  const int32_t n = static_cast<int32_t>(s.len);
  const uint64_t blocks = GetBlockNum(), block = GetBlockIdx();
  SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
  SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
  for (uint64_t r = block * s.rows / blocks; r < (block + 1) * s.rows / blocks; ++r) {
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
    load_run(row, xg[r * s.len], s.len, s.separated);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    ReduceSum(sum, row, work, n);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    const float mean = sum.GetValue(0) / float(s.len);
    SetFlag<HardEvent::S_V>(EVENT_ID0);
    WaitFlag<HardEvent::S_V>(EVENT_ID0);
    Adds(row, row, -mean, n);
    Mul(sq, row, row, n);
    ReduceSum(sum, sq, work, n);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    const float rstd = 1.0f / std::sqrt(sum.GetValue(0) / float(s.len) + s.epsilon);
    SetFlag<HardEvent::S_V>(EVENT_ID0);
    WaitFlag<HardEvent::S_V>(EVENT_ID0);
    Muls(row, row, rstd, n);
    Mul(row, row, gamma, n);
    if (s.bias) Add(row, row, beta, n);
    if (s.mean_out) mg.SetValue(r, mean);
    if (s.rstd_out) rg.SetValue(r, rstd);
    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    store_run(yg[r * s.len], row, s.len, s.separated);
    SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
  }
  WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
  WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
}

int64_t ln_axis(const Node& node, size_t rank) {
  int64_t axis = node.attr_int("axis", -1);
  if (axis < -int64_t(rank) || axis >= int64_t(rank)) raise(node.source, "attribute 'axis' = {} is out of range for rank {}", axis, rank);
  return axis < 0 ? axis + int64_t(rank) : axis;
}

constexpr int64_t kMaxLayerNormLength = 6144;  // six row-sized f32 buffers in UB

void check_layernorm(const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>&) {
  allow_only(node, {"axis", "epsilon", "stash_type"});
  if (node.attr_int("stash_type", 1) != 1) raise(node.source, "attribute 'stash_type' other than 1 (float32) is not supported");
  require_float(node, in, 0, "X");
  require_float(node, in, 1, "Scale");
  const int64_t axis = ln_axis(node, in[0].shape.size());
  int64_t len = 1;
  for (size_t i = size_t(axis); i < in[0].shape.size(); ++i) len *= in[0].shape[i];
  if (len > kMaxLayerNormLength) raise(node.source, "normalised length {} is more than {}", len, kMaxLayerNormLength);
  if (in[1].elements() != len) raise(node.source, "input 'Scale' has {} values, the normalised axes {} (broadcasting Scale is not supported)", in[1].elements(), len);
  if (in.size() > 2 && !in[2].name.empty()) {
    require_float(node, in, 2, "B");
    if (in[2].elements() != len) raise(node.source, "input 'B' has {} values, the normalised axes {} (broadcasting B is not supported)", in[2].elements(), len);
  }
}

void run_layernorm(OpContext& ctx) {
  const auto& shape = ctx.inputs[0]->desc.shape;
  const int64_t axis = ln_axis(ctx.node, shape.size());
  LnShape s;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (int64_t(i) < axis) s.rows *= uint64_t(shape[i]);
    else s.len *= uint32_t(shape[i]);
  }
  s.epsilon = ctx.node.attr_float("epsilon", 1e-5f);
  s.bias = ctx.inputs.size() > 2 && ctx.inputs[2];
  s.mean_out = ctx.outputs.size() > 1 && ctx.outputs[1];
  s.rstd_out = ctx.outputs.size() > 2 && ctx.outputs[2];
  const Cores cores = cores_of(ctx.device);
  s.separated = cores.separated;
  auto gx = reinterpret_cast<GM_ADDR>(ctx.inputs[0]->data), gs = reinterpret_cast<GM_ADDR>(ctx.inputs[1]->data);
  auto gb = s.bias ? reinterpret_cast<GM_ADDR>(ctx.inputs[2]->data) : nullptr;
  auto gy = reinterpret_cast<GM_ADDR>(ctx.outputs[0]->data);
  auto gm = s.mean_out ? reinterpret_cast<GM_ADDR>(ctx.outputs[1]->data) : nullptr;
  auto gr = s.rstd_out ? reinterpret_cast<GM_ADDR>(ctx.outputs[2]->data) : nullptr;
  LayerLaunch launch;
  launch.report = ctx.device.launch(ctx.node.name + ".LayerNormalization", cores.vector,
                                    [&] { layernorm_kernel(s, gx, gs, gb, gy, gm, gr); });
  launch.flops = 8.0 * double(ctx.inputs[0]->desc.elements());
  launch.bytes = 2 * tensor_bytes(ctx.inputs[0]);
  launch.unit = "vector";
  ctx.launches.push_back(launch);
}

}  // namespace ops_norm_cpp
}  // namespace

void register_norm_ops() {
  register_op(simple_lowering("BatchNormalization", ops_norm_cpp::check_batchnorm, ops_norm_cpp::run_batchnorm));
  register_op(simple_lowering("LayerNormalization", ops_norm_cpp::check_layernorm, ops_norm_cpp::run_layernorm));
}

}  // namespace npuvp::onnx
