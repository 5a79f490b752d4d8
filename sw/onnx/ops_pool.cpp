// MaxPool, AveragePool (https://onnx.ai/onnx/operators/onnx__MaxPool.html,
// onnx__AveragePool.html) and GlobalAveragePool, 1-D and 2-D, on the vector unit.
//
// MaxPool / AveragePool: the window gather (window_gather.h) builds a job's tile tap-major,
// [tap][channel][position], so the reduction over the taps is one Max or Add per tap over the
// whole tile; padding taps read -inf (max) or 0 (average). AveragePool then multiplies by the
// reciprocal of each position's divisor, a host-computed row per job shape (count_include_pad:
// taps inside the padded input, else inside the input; ceil_mode's extra windows are cut at the
// padded input's end, as ONNX's reference does).
// GlobalAveragePool: the mean of each (image, channel) plane (ops_reduce.cpp's row mean).
#include <algorithm>
#include <cstring>
#include <map>
#include "kernel_operator.h"
#include "sw/onnx/ops_support.h"
#include "sw/onnx/ops_vision.h"
#include "sw/onnx/row_mean.h"
#include "sw/onnx/vector_io.h"
#include "sw/onnx/window_attrs.h"
#include "sw/onnx/window_gather.h"
#include "tlm/log.h"

namespace npuvp::onnx {

using namespace AscendC;

namespace {
namespace ops_pool_cpp {  // named after the file: unity batches share anonymous namespaces

constexpr uint32_t kUbBudget = 160 * 1024;
inline uint32_t round_up(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

enum class PoolKind { Max, Average };

struct PoolPlan {
  GatherPlan gather;
  PoolKind kind = PoolKind::Max;
  std::vector<uint32_t> divisor_of_job;  // AveragePool: index of the job's reciprocal row
  std::vector<float> divisors;           // rows of cc * posP reciprocals, each `divisor_entries` long
  uint32_t divisor_entries = 0;
};

uint32_t pos_pitch(uint32_t tw) { return round_up(tw, 8); }

// Tap-major tiles: [tap][channel][position], positions rounded to 8.
GatherLayout pool_layout(uint32_t taps, GatherSlot pad) {
  GatherLayout layout;
  layout.tile_elements = [taps](uint32_t tw, uint32_t cc) { return taps * cc * pos_pitch(tw); };
  layout.index = [](uint32_t p, uint32_t j, uint32_t t, uint32_t tw, uint32_t cc) { return (t * cc + j) * pos_pitch(tw) + p; };
  layout.pad = pad;
  return layout;
}

void pool_kernel(const PoolPlan& pp, GM_ADDR x, GM_ADDR tables, GM_ADDR divisors, GM_ADDR y) {
  const GatherPlan& plan = pp.gather;
  const WindowGeometry& g = plan.g;
  TPipe pipe;
  WindowGatherer gatherer(plan, x, tables, pipe);
  TBuf<TPosition::VECCALC> tile_buf, acc_buf, div_buf;
  pipe.InitBuffer(tile_buf, plan.table_entries * 4);
  const uint32_t acc_entries = plan.cc * pos_pitch(plan.tw);
  pipe.InitBuffer(acc_buf, acc_entries * 4);
  if (pp.kind == PoolKind::Average) pipe.InitBuffer(div_buf, pp.divisor_entries * 4);
  GlobalTensor<float> out, div;
  out.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), uint64_t(g.n) * g.c * g.oh * g.ow);
  div.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(divisors), pp.divisors.size());
  LocalTensor<float> tile = tile_buf.Get<float>(), acc = acc_buf.Get<float>();
  const uint64_t jobs = plan.jobs.size(), blocks = GetBlockNum(), block = GetBlockIdx();
  SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
  SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
  for (uint64_t i = block * jobs / blocks; i < (block + 1) * jobs / blocks; ++i) {
    const GatherJob& job = plan.jobs[i];
    const uint32_t posp = pos_pitch(job.tw), slice = job.cc * posp, taps = g.taps();
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
    gatherer.load(job);
    if (pp.kind == PoolKind::Average) {
      DataCopy(div_buf.Get<float>(), div[uint64_t(pp.divisor_of_job[i]) * pp.divisor_entries], pp.divisor_entries);
    }
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
    gatherer.gather(tile);
    if (taps == 1) {
      Adds(acc, tile, 0.0f, static_cast<int32_t>(slice));
    } else {
      for (uint32_t t = 1; t < taps; ++t) {
        const LocalTensor<float> a = t == 1 ? tile : acc;
        if (pp.kind == PoolKind::Max) {
          Max(acc, a, tile[t * slice], static_cast<int32_t>(slice));
        } else {
          Add(acc, a, tile[t * slice], static_cast<int32_t>(slice));
        }
      }
    }
    if (pp.kind == PoolKind::Average) Mul(acc, acc, div_buf.Get<float>(), static_cast<int32_t>(slice));
    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    const uint64_t first = ((uint64_t(job.image) * g.c + job.channel) * g.oh + job.oh) * g.ow + job.ow0;
    if (plan.separated) {
      DataCopyExtParams cp(static_cast<uint16_t>(job.cc), job.tw * 4, (posp * 4 - round_up(job.tw * 4, 32)) / 32,
                           (g.oh * g.ow - job.tw) * 4, 0);
      DataCopyPad(out[first], acc, cp);
    } else {
      for (uint32_t j = 0; j < job.cc; ++j) store_run(out[first + uint64_t(j) * g.oh * g.ow], acc[j * posp], job.tw, false);
    }
    SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
  }
  WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
  WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
}

std::vector<int64_t> kernel_of(const Node& node) {
  if (!node.has("kernel_shape")) raise(node.source, "attribute 'kernel_shape' is required");
  return node.attr_ints("kernel_shape");
}

void check_pool(const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>& out) {
  const bool max = node.op_type == "MaxPool";
  if (max) {
    allow_only(node, {"auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads", "storage_order", "strides"});
    if (out.size() > 1 && !out[1].name.empty()) raise(node.source, "output 'Indices' of MaxPool is not supported");
  } else {
    allow_only(node, {"auto_pad", "ceil_mode", "count_include_pad", "dilations", "kernel_shape", "pads", "strides"});
  }
  require_float(node, in, 0, "X");
  const WindowGeometry g = window_geometry(node, in[0].shape, kernel_of(node), true, node.attr_int("ceil_mode", 0) != 0);
  if (!window_gather_fits(g, pool_layout(g.taps(), GatherSlot::Zero), 1, 12, kUbBudget)) {
    raise(node.source, "the window ({} x {}) over an input row of {} does not fit the vector unit's buffer", g.kh, g.kw, g.w);
  }
  if (!out.empty() && !out[0].shape.empty() && out[0].elements() != int64_t(g.n) * g.c * g.oh * g.ow) {
    raise(node.source, "output Y has {} elements, the attributes give {}", out[0].elements(), int64_t(g.n) * g.c * g.oh * g.ow);
  }
}

// The divisor of AveragePool at output (oh, ow): taps inside the input, or inside the padded
// input with count_include_pad.
float average_divisor(const WindowGeometry& g, bool include_pad, uint32_t oh, uint32_t ow) {
  auto count = [&](int64_t o, uint32_t k, uint32_t s, uint32_t d, int64_t begin, int64_t size, int64_t end_pad) {
    int64_t n = 0;
    for (uint32_t i = 0; i < k; ++i) {
      const int64_t at = o * s - begin + int64_t(i) * d;
      n += include_pad ? (at >= -begin && at < size + end_pad) : (at >= 0 && at < size);
    }
    return n;
  };
  return float(count(oh, g.kh, g.sh, g.dh, g.pad_top, g.h, g.pad_bottom) * count(ow, g.kw, g.sw, g.dw, g.pad_left, g.w, g.pad_right));
}

void run_pool(OpContext& ctx) {
  const Node& node = ctx.node;
  const Cores cores = cores_of(ctx.device);
  PoolPlan pp;
  pp.kind = node.op_type == "MaxPool" ? PoolKind::Max : PoolKind::Average;
  GatherPlan& plan = pp.gather;
  plan.g = window_geometry(node, ctx.inputs[0]->desc.shape, kernel_of(node), true, node.attr_int("ceil_mode", 0) != 0);
  plan.group_channels = plan.g.c;
  plan.separated = cores.separated;
  const uint32_t taps = plan.g.taps();
  const GatherLayout layout = pool_layout(taps, pp.kind == PoolKind::Max ? GatherSlot::NegInf : GatherSlot::Zero);
  // Besides the table: the tile, and the accumulator and divisors (at most a tile each).
  if (!plan_window_gather(plan, layout, 12, kUbBudget)) {
    raise(node.source, "the window ({} x {}) over a row of {} does not fit the vector unit's buffer", plan.g.kh, plan.g.kw, plan.g.w);
  }
  if (pp.kind == PoolKind::Average) {
    const bool include_pad = node.attr_int("count_include_pad", 0) != 0;
    pp.divisor_entries = plan.cc * pos_pitch(plan.tw);
    std::map<std::vector<float>, uint32_t> known;
    for (const GatherJob& job : plan.jobs) {
      std::vector<float> row(pp.divisor_entries, 0.0f);
      for (uint32_t j = 0; j < job.cc; ++j) {
        for (uint32_t p = 0; p < job.tw; ++p) {
          row[j * pos_pitch(job.tw) + p] = 1.0f / average_divisor(plan.g, include_pad, job.oh, job.ow0 + p);
        }
      }
      auto it = known.find(row);
      if (it == known.end()) {
        it = known.emplace(row, uint32_t(known.size())).first;
        pp.divisors.insert(pp.divisors.end(), row.begin(), row.end());
      }
      pp.divisor_of_job.push_back(it->second);
    }
  }
  const std::vector<uint32_t> tables = flatten_tables(plan);
  void* gm_tables = ctx.scratch(tables.size() * 4);
  std::memcpy(gm_tables, tables.data(), tables.size() * 4);
  void* gm_div = ctx.scratch(std::max<size_t>(pp.divisors.size(), 8) * 4);
  if (!pp.divisors.empty()) std::memcpy(gm_div, pp.divisors.data(), pp.divisors.size() * 4);
  auto gx = reinterpret_cast<GM_ADDR>(ctx.inputs[0]->data), gt = reinterpret_cast<GM_ADDR>(gm_tables);
  auto gd = reinterpret_cast<GM_ADDR>(gm_div), gy = reinterpret_cast<GM_ADDR>(ctx.outputs[0]->data);
  LayerLaunch launch;
  launch.report = ctx.device.launch(node.name + "." + node.op_type, cores.vector, [&] { pool_kernel(pp, gx, gt, gd, gy); });
  launch.flops = double(ctx.outputs[0]->desc.elements()) * taps;
  launch.bytes = tensor_bytes(ctx.inputs[0]) + tensor_bytes(ctx.outputs[0]);
  launch.unit = "vector";
  ctx.launches.push_back(launch);
}

void check_global_average(const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>&) {
  allow_only(node, {});
  require_float(node, in, 0, "X");
  if (in[0].shape.size() < 3) raise(node.source, "input X has rank {}; GlobalAveragePool needs N, C and spatial axes", in[0].shape.size());
}

void run_global_average(OpContext& ctx) {
  const auto& shape = ctx.inputs[0]->desc.shape;
  uint64_t rows = uint64_t(shape[0]) * shape[1], len = 1;
  for (size_t i = 2; i < shape.size(); ++i) len *= uint64_t(shape[i]);
  run_row_mean(ctx, ctx.inputs[0]->data, ctx.outputs[0]->data, rows, len, 1);
}

}  // namespace ops_pool_cpp
}  // namespace

void register_pool_ops() {
  register_op(simple_lowering("MaxPool", ops_pool_cpp::check_pool, ops_pool_cpp::run_pool));
  register_op(simple_lowering("AveragePool", ops_pool_cpp::check_pool, ops_pool_cpp::run_pool));
  register_op(simple_lowering("GlobalAveragePool", ops_pool_cpp::check_global_average, ops_pool_cpp::run_global_average));
}

}  // namespace npuvp::onnx
