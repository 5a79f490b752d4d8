// ReduceMean (https://onnx.ai/onnx/operators/onnx__ReduceMean.html): axes as an attribute
// (opset < 18) or as the second input (opset 18), keepdims, noop_with_empty_axes. Contiguous
// axes merge into one; other axes are reduced one run at a time through GM scratch.
//
// The kernel (run_row_mean) takes x as [outer][count][inner]:
//  - inner > 1: a unit is (outer index, a chunk of inner); its count rows come into UB in
//    chunks (one DataCopyPad of rows) and the vector unit adds them row by row;
//  - inner == 1: a unit is a batch of rows; each chunk of the rows comes into UB row-major and
//    a Gather turns it column-major ([element][row]), so again one Add per element position
//    sums every row of the batch at once (the table is built on the host).
// Then a Muls by 1/count and one store per unit.
#include <algorithm>
#include <cstring>
#include <numeric>
#include "kernel_operator.h"
#include "sw/onnx/ops_support.h"
#include "sw/onnx/ops_vision.h"
#include "sw/onnx/row_mean.h"
#include "sw/onnx/vector_io.h"
#include "tlm/log.h"

namespace npuvp::onnx {

using namespace AscendC;

namespace {

inline uint64_t round_up(uint64_t a, uint64_t b) { return (a + b - 1) / b * b; }

struct MeanPlan {
  uint64_t outer = 1, count = 1, inner = 1;
  bool separated = true;
  uint32_t rows = 1;   // inner == 1: rows per unit; else: inner elements per unit
  uint32_t chunk = 1;  // count elements (inner == 1) or count rows (inner > 1) per load
  uint64_t units = 0;
  uint32_t rows_pitch() const { return uint32_t(round_up(rows, 8)); }
  uint32_t chunk_pitch() const { return uint32_t(round_up(chunk, 8)); }
  // inner == 1: [chunk][rows_pitch] gather offsets into the [rows][chunk_pitch] load.
  std::vector<uint32_t> table;
};

void mean_kernel(const MeanPlan& m, GM_ADDR x, GM_ADDR table, GM_ADDR y) {
  TPipe pipe;
  const bool transpose = m.inner == 1;
  TBuf<TPosition::VECCALC> load_buf, tile_buf, table_buf, acc_buf;
  const uint32_t load_elems = transpose ? m.rows * m.chunk_pitch() : m.chunk * m.rows_pitch();
  pipe.InitBuffer(load_buf, load_elems * 4);
  pipe.InitBuffer(acc_buf, m.rows_pitch() * 4);
  GlobalTensor<float> xg, yg;
  GlobalTensor<uint32_t> tg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), m.outer * m.count * m.inner);
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), m.outer * m.inner);
  if (transpose) {
    pipe.InitBuffer(tile_buf, uint32_t(m.table.size()) * 4);
    pipe.InitBuffer(table_buf, uint32_t(m.table.size()) * 4);
    tg.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(table), m.table.size());
    DataCopy(table_buf.Get<uint32_t>(), tg, uint32_t(m.table.size()));
  }
  LocalTensor<float> buf = load_buf.Get<float>(), acc = acc_buf.Get<float>();
  const uint64_t blocks = GetBlockNum(), block = GetBlockIdx();
  SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
  SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
  for (uint64_t u = block * m.units / blocks; u < (block + 1) * m.units / blocks; ++u) {
    // The unit's rows (or inner elements) and where they start.
    uint64_t in0, out0;
    uint32_t width;
    if (transpose) {
      in0 = u * m.rows * m.count;
      out0 = u * m.rows;
      width = uint32_t(std::min<uint64_t>(m.rows, m.outer - u * m.rows));
    } else {
      const uint64_t per_outer = (m.inner + m.rows - 1) / m.rows;
      const uint64_t o = u / per_outer, i0 = u % per_outer * m.rows;
      in0 = o * m.count * m.inner + i0;
      out0 = o * m.inner + i0;
      width = uint32_t(std::min<uint64_t>(m.rows, m.inner - i0));
    }
    for (uint64_t r0 = 0; r0 < m.count; r0 += m.chunk) {
      const uint32_t rc = uint32_t(std::min<uint64_t>(m.chunk, m.count - r0));
      WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
      if (transpose) {
        // width rows of rc elements, each row at chunk_pitch in UB.
        if (m.separated) {
          DataCopyPad(buf, xg[in0 + r0], DataCopyExtParams(static_cast<uint16_t>(width), rc * 4, (uint32_t(m.count) - rc) * 4, (m.chunk_pitch() * 4 - uint32_t(round_up(rc * 4, 32))) / 32, 0),
                      DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
        } else {
          for (uint32_t i = 0; i < width; ++i) load_run(buf[i * m.chunk_pitch()], xg[in0 + i * m.count + r0], rc, false);
        }
      } else {
        // rc rows of width elements, each at rows_pitch in UB.
        if (m.separated) {
          DataCopyPad(buf, xg[in0 + r0 * m.inner], DataCopyExtParams(static_cast<uint16_t>(rc), width * 4, (uint32_t(m.inner) - width) * 4, (m.rows_pitch() * 4 - uint32_t(round_up(width * 4, 32))) / 32, 0),
                      DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
        } else {
          for (uint32_t i = 0; i < rc; ++i) load_run(buf[i * m.rows_pitch()], xg[in0 + (r0 + i) * m.inner], width, false);
        }
      }
      SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
      WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
      if (r0 == 0) WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
      LocalTensor<float> rows = buf;
      if (transpose) {
        rows = tile_buf.Get<float>();
        Gather(rows, buf, table_buf.Get<uint32_t>(), 0, uint32_t(m.table.size()));
      }
      const int32_t n = static_cast<int32_t>(m.rows_pitch());
      for (uint32_t r = 0; r < rc; ++r) {
        if (r0 == 0 && r == 0) {
          Adds(acc, rows, 0.0f, n);
        } else {
          Add(acc, acc, rows[r * m.rows_pitch()], n);
        }
      }
      SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    }
    Muls(acc, acc, float(1.0 / double(m.count)), static_cast<int32_t>(m.rows_pitch()));
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    store_run(yg[out0], acc, width, m.separated);
    SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
  }
  WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
  WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
}

constexpr uint64_t kUbBudget = 150 * 1024;

}  // namespace

void run_row_mean(OpContext& ctx, const void* x, void* y, uint64_t outer, uint64_t count, uint64_t inner) {
  const Cores cores = cores_of(ctx.device);
  MeanPlan m;
  m.outer = outer;
  m.count = count;
  m.inner = inner;
  m.separated = cores.separated;
  if (inner == 1) {
    m.chunk = uint32_t(std::min<uint64_t>(count, 1024));
    m.rows = uint32_t(std::min<uint64_t>(outer, 64));
    auto bytes = [&] { return uint64_t(m.rows) * m.chunk_pitch() * 4 + uint64_t(m.chunk) * m.rows_pitch() * 8 + m.rows_pitch() * 4; };
    while (bytes() > kUbBudget && m.rows > 8) m.rows = std::max<uint32_t>(8, m.rows / 2);
    while (bytes() > kUbBudget && m.chunk > 8) m.chunk /= 2;
    m.units = (outer + m.rows - 1) / m.rows;
    m.table.assign(size_t(m.chunk) * m.rows_pitch(), 0);
    for (uint32_t r = 0; r < m.chunk; ++r) {
      for (uint32_t i = 0; i < m.rows; ++i) m.table[size_t(r) * m.rows_pitch() + i] = (i * m.chunk_pitch() + r) * 4;
    }
  } else {
    m.rows = uint32_t(std::min<uint64_t>(inner, 4096));
    m.chunk = uint32_t(std::max<uint64_t>(1, std::min<uint64_t>(count, (kUbBudget - m.rows_pitch() * 4) / (m.rows_pitch() * 4))));
    m.units = outer * ((inner + m.rows - 1) / m.rows);
  }
  void* table = ctx.scratch(std::max<size_t>(m.table.size(), 8) * 4);
  if (!m.table.empty()) std::memcpy(table, m.table.data(), m.table.size() * 4);
  auto gx = reinterpret_cast<GM_ADDR>(const_cast<void*>(x)), gt = reinterpret_cast<GM_ADDR>(table);
  auto gy = reinterpret_cast<GM_ADDR>(y);
  LayerLaunch launch;
  launch.report = ctx.device.launch(ctx.node.name + ".mean", cores.vector, [&] { mean_kernel(m, gx, gt, gy); });
  launch.flops = double(outer) * count * inner;
  launch.bytes = 4.0 * (double(outer) * count * inner + double(outer) * inner);
  launch.unit = "vector";
  ctx.launches.push_back(launch);
}

namespace {

// The axes to reduce, sorted and non-negative; empty with noop_with_empty_axes = copy.
std::vector<int64_t> reduce_axes(const Node& node, const std::vector<TensorDesc>& in, const std::vector<const GmTensor*>* data) {
  const int64_t rank = int64_t(in[0].shape.size());
  std::vector<int64_t> axes;
  if (node.has("axes")) {
    axes = node.attr_ints("axes");
  } else if (in.size() > 1 && !in[1].name.empty()) {
    if (in[1].type != DType::Int64) raise(node.source, "input 'axes' must be int64");
    if (data) {
      const GmTensor* t = (*data)[1];
      const auto* v = static_cast<const int64_t*>(t->data);
      axes.assign(v, v + t->desc.elements());
    } else if (in[1].elements() < 0) {
      raise(node.source, "input 'axes' has an unknown shape");
    }
  }
  for (int64_t& a : axes) {
    if (a < -rank || a >= rank) raise(node.source, "axis {} is out of range for rank {}", a, rank);
    if (a < 0) a += rank;
  }
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

void check_reduce_mean(const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>&) {
  allow_only(node, {"axes", "keepdims", "noop_with_empty_axes"});
  require_float(node, in, 0, "data");
  reduce_axes(node, in, nullptr);
}

void run_reduce_mean(OpContext& ctx) {
  const Node& node = ctx.node;
  std::vector<TensorDesc> in;
  for (const GmTensor* t : ctx.inputs) in.push_back(t ? t->desc : TensorDesc{});
  std::vector<int64_t> axes = reduce_axes(node, in, &ctx.inputs);
  const auto& shape = in[0].shape;
  const int64_t rank = int64_t(shape.size());
  if (axes.empty()) {
    if (node.attr_int("noop_with_empty_axes", 0) != 0) {
      ctx.device.memcpy(ctx.outputs[0]->data, ctx.inputs[0]->data, in[0].bytes(), Device::Copy::DeviceToDevice);
      return;
    }
    axes.resize(size_t(rank));
    std::iota(axes.begin(), axes.end(), 0);
  }
  // Runs of consecutive axes, reduced from the last run to the first (each keeps the others'
  // positions valid); all but the last run write to scratch.
  std::vector<std::pair<int64_t, int64_t>> runs;  // [first, last]
  for (int64_t a : axes) {
    if (!runs.empty() && runs.back().second + 1 == a) {
      runs.back().second = a;
    } else {
      runs.push_back({a, a});
    }
  }
  std::vector<int64_t> cur = shape;
  const void* src = ctx.inputs[0]->data;
  for (size_t i = runs.size(); i-- > 0;) {
    uint64_t outer = 1, count = 1, inner = 1;
    for (int64_t d = 0; d < rank; ++d) {
      if (d < runs[i].first) outer *= uint64_t(cur[size_t(d)]);
      else if (d <= runs[i].second) count *= uint64_t(cur[size_t(d)]);
      else inner *= uint64_t(cur[size_t(d)]);
    }
    void* dst = i == 0 ? ctx.outputs[0]->data : ctx.scratch(outer * inner * 4);
    run_row_mean(ctx, src, dst, outer, count, inner);
    for (int64_t d = runs[i].first; d <= runs[i].second; ++d) cur[size_t(d)] = 1;
    src = dst;
  }
}

}  // namespace

void register_reduce_ops() {
  register_op(simple_lowering("ReduceMean", check_reduce_mean, run_reduce_mean));
}

}  // namespace npuvp::onnx
