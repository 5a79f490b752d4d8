// Conv (https://onnx.ai/onnx/operators/onnx__Conv.html), 1-D and 2-D, every attribute: pads,
// strides, dilations, group (depthwise included), bias, auto_pad, kernel_shape.
//
// Lowering: im2col + one GEMM per (image, group) on the cube, two launches per node.
//  1. A vector kernel (every AIV / AI Core) gathers the im2col matrix into GM with the window
//     gather (window_gather.h): row per output position on A2 (the Bt operand, K contiguous:
//     its ND->NZ copy is already L0B's ZN layout, for f32 as for f16), row per K on a coupled
//     chip (matmul_910's B). A column of ones follows the taps when there is a bias, so the
//     bias rides in the GEMM as one more K (its weight column holds B).
//  2. The cube: Y[co][p] = W[co][k] x Xcol[k][p] straight into NCHW Y. On A2 our own GEMM
//     (f32 x f32 or f16 x f16 -> f32, Fixpipe NZ -> ND); on a coupled chip matmul_910 (f16).
// The weights (and bias column) are formatted on the host into scratch GM, as CANN's offline
// compiler formats weights before a model runs.
#include <algorithm>
#include <cstring>
#include <map>
#include "kernel_operator.h"
#include "sw/kernels/matmul.h"
#include "sw/onnx/ops_support.h"
#include "sw/onnx/ops_vision.h"
#include "sw/onnx/vector_io.h"
#include "sw/onnx/window_attrs.h"
#include "sw/onnx/window_gather.h"
#include "tlm/log.h"

namespace npuvp::onnx {

using namespace AscendC;

namespace {
namespace ops_conv_cpp {  // named after the file: unity batches share anonymous namespaces

constexpr uint32_t kUbBudget = 160 * 1024;
inline uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
inline uint32_t round_up(uint32_t a, uint32_t b) { return ceil_div(a, b) * b; }

struct ConvShape {
  WindowGeometry g;
  uint32_t groups = 1, cg = 1, m = 1, mg = 1;  // input channels per group; output channels (total, per group)
  bool bias = false;
  uint32_t k_splits = 1;  // A2 GEMM: K cut into this many slices, added into Y atomically
  uint32_t k() const { return cg * g.taps(); }
  uint32_t k1() const { return k() + (bias ? 1 : 0); }  // GEMM K: the taps, then the bias column
  uint32_t p() const { return g.oh * g.ow; }
};

ConvShape conv_shape(const Node& node, const std::vector<int64_t>& x, const std::vector<int64_t>& w, bool bias) {
  if (w.size() != x.size()) raise(node.source, "W has rank {}, X has rank {}", w.size(), x.size());
  std::vector<int64_t> kernel(w.begin() + 2, w.end());
  if (node.has("kernel_shape") && node.attr_ints("kernel_shape") != kernel) {
    raise(node.source, "attribute 'kernel_shape' does not match W's shape");
  }
  ConvShape s;
  s.g = window_geometry(node, x, kernel, true, false);
  const int64_t group = node.attr_int("group", 1);
  if (group < 1 || x[1] % group != 0 || w[0] % group != 0 || w[1] * group != x[1]) {
    raise(node.source, "attribute 'group' = {} does not fit X's {} and W's {} channels", group, x[1], w[1]);
  }
  s.groups = uint32_t(group);
  s.cg = uint32_t(w[1]);
  s.m = uint32_t(w[0]);
  s.mg = s.m / s.groups;
  s.bias = bias;
  return s;
}

// ---- the GEMM on A2: C[M][N] (f32) = A[M][K] x Bt[N][K]^T, for every (image, group).

constexpr uint32_t kBaseM = 128, kBaseN = 128, kFractal = 16;
constexpr int32_t kBuffers = 2;

// GM -> L1 of a rows x cols block of T (row stride `stride` elements) as bands of 16 rows,
// band b holding fractals (b, k1) consecutively: L0A's ZZ order once copied as a whole.
template <class T>
void copy_banded(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t rows, uint32_t cols, uint32_t stride) {
  constexpr uint32_t k0 = 32 / sizeof(T);
  const uint32_t band_elems = kFractal * round_up(cols, k0), full = rows / kFractal, rest = rows % kFractal;
  if (full > 0 && uint64_t(kFractal) * stride <= 65535) {
    DataCopy(dst, src, Nd2NzParams(full, kFractal, cols, kFractal * stride, stride, kFractal, 1, band_elems));
  } else {
    for (uint32_t b = 0; b < full; ++b) {
      DataCopy(dst[b * band_elems], src[uint64_t(b) * kFractal * stride],
               Nd2NzParams(1, kFractal, cols, 0, stride, kFractal, 1, 0));
    }
  }
  if (rest > 0) {
    DataCopy(dst[full * band_elems], src[uint64_t(full) * kFractal * stride],
             Nd2NzParams(1, rest, cols, 0, stride, kFractal, 1, 0));
  }
}

template <class T>
class ConvGemmA2 {
 public:
  // K per step: an L0A / L0B buffer of 32 KB (two of them ping-pong).
  static constexpr uint32_t kStepK = 32 * 1024 / (kBaseM * sizeof(T));

  ConvGemmA2(GM_ADDR w, GM_ADDR xcol, GM_ADDR y, const ConvShape& s) : s_(s) {
    const uint64_t problems = uint64_t(s.g.n) * s.groups;
    wGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(w), uint64_t(s.m) * s.k1());
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(xcol), problems * s.p() * s.k1());
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), uint64_t(s.g.n) * s.m * s.p());
    pipe.InitBuffer(qA1, kBuffers, kBaseM * kStepK * sizeof(T));
    pipe.InitBuffer(qB1, kBuffers, kBaseN * kStepK * sizeof(T));
    pipe.InitBuffer(qA2, kBuffers, kBaseM * kStepK * sizeof(T));
    pipe.InitBuffer(qB2, kBuffers, kBaseN * kStepK * sizeof(T));
    pipe.InitBuffer(qCO1, kBuffers, kBaseM * kBaseN * sizeof(float));
  }

  // Output tiles of 128 x 128 over every (image, group).
  static uint64_t tiles(const ConvShape& s) {
    return uint64_t(ceil_div(s.mg, kBaseM)) * ceil_div(s.p(), kBaseN) * s.g.n * s.groups;
  }
  // K slices per tile: when the tiles are fewer than the cube cores (the late, 7 x 7 and
  // 14 x 14 layers of a batch-1 CNN: 4 tiles of a 512-channel layer for 24 AICs, each walking
  // K = 4609 alone), K is cut so that every core has work; each slice is at least
  // kMinSliceSteps steps, and the slices' partial sums are added into Y (zeroed beforehand by
  // the im2col launch) by Fixpipe with SetAtomicAdd.
  static constexpr uint32_t kMinSliceSteps = 4;
  static uint32_t k_splits(const ConvShape& s, uint32_t cube_cores) {
    const uint64_t t = tiles(s);
    if (t >= cube_cores) return 1;
    const uint32_t steps = ceil_div(s.k1(), kStepK);
    const uint32_t by_cores = uint32_t(cube_cores / t), by_steps = steps / kMinSliceSteps;
    return std::max<uint32_t>(1, std::min(by_cores, by_steps));
  }

  void Process() {
    const uint32_t tiles_m = ceil_div(s_.mg, kBaseM);
    const uint64_t per_problem = uint64_t(tiles_m) * ceil_div(s_.p(), kBaseN);
    const uint32_t splits = s_.k_splits, k1 = s_.k1(), p = s_.p();
    const uint32_t slice_k = ceil_div(ceil_div(k1, kStepK), splits) * kStepK;
    const uint64_t total = tiles(s_) * splits;
    const uint64_t blocks = GetBlockNum(), block = GetBlockIdx();
    const uint64_t first = block * total / blocks, last = (block + 1) * total / blocks;
    for (uint64_t u = first; u < last; ++u) {
      const uint64_t t = u / splits;
      const uint32_t k_begin = uint32_t(u % splits) * slice_k, k_end = std::min(k1, k_begin + slice_k);
      if (k_begin >= k_end) continue;
      const uint64_t problem = t / per_problem;
      const uint32_t tile = uint32_t(t % per_problem);
      const uint32_t image = uint32_t(problem / s_.groups), group = uint32_t(problem % s_.groups);
      // Column-major over tiles: consecutive tiles of a block share the Bt rows.
      const uint32_t m0 = tile % tiles_m * kBaseM, n0 = tile / tiles_m * kBaseN;
      const uint32_t m = std::min(kBaseM, s_.mg - m0), n = std::min(kBaseN, p - n0);
      const GlobalTensor<T> a = wGm[(uint64_t(group) * s_.mg + m0) * k1];
      const GlobalTensor<T> bt = xGm[(problem * p + n0) * k1];
      LocalTensor<float> c = qCO1.AllocTensor<float>();
      for (uint32_t k0 = k_begin; k0 < k_end; k0 += kStepK) {
        const uint32_t kk = std::min(kStepK, k_end - k0);
        LocalTensor<T> a1 = qA1.AllocTensor<T>();
        copy_banded(a1, a[k0], m, kk, k1);
        qA1.EnQue(a1);
        LocalTensor<T> b1 = qB1.AllocTensor<T>();
        DataCopy(b1, bt[k0], Nd2NzParams(1, n, kk, 0, k1, round_up(n, kFractal), 1, 0));
        qB1.EnQue(b1);
        Multiply(c, m, n, kk, k0 == k_begin);
      }
      qCO1.EnQue(c);
      c = qCO1.DeQue<float>();
      FixpipeParamsV220 fp;
      fp.mSize = m;
      fp.nSize = n;
      fp.srcStride = round_up(m, kFractal);
      fp.dstStride = p;
      if (splits > 1) SetAtomicAdd<float>();
      Fixpipe(yGm[(uint64_t(image) * s_.m + uint64_t(group) * s_.mg + m0) * p + n0], c, fp);
      if (splits > 1) SetAtomicNone();
      qCO1.FreeTensor(c);
    }
  }

 private:
  // One K step: A's bands are ZZ already and Bt's NZ is ZN, so each goes to L0 in one LoadData.
  void Multiply(LocalTensor<float>& c, uint32_t m, uint32_t n, uint32_t k, bool first) {
    constexpr uint32_t k0 = 32 / sizeof(T);
    const uint32_t fractals_a = ceil_div(m, kFractal) * ceil_div(k, k0);
    const uint32_t fractals_b = ceil_div(n, kFractal) * ceil_div(k, k0);
    LocalTensor<T> a1 = qA1.DeQue<T>();
    LocalTensor<T> b1 = qB1.DeQue<T>();
    LocalTensor<T> a2 = qA2.AllocTensor<T>();
    LoadData(a2, a1, LoadData2DParams(0, static_cast<uint8_t>(fractals_a), 1, 0, 0, false, 0));
    qA2.EnQue(a2);
    LocalTensor<T> b2 = qB2.AllocTensor<T>();
    LoadData(b2, b1, LoadData2DParams(0, static_cast<uint8_t>(fractals_b), 1, 0, 0, false, 0));
    qB2.EnQue(b2);
    a2 = qA2.DeQue<T>();
    b2 = qB2.DeQue<T>();
    MmadParams mp;
    mp.m = static_cast<uint16_t>(m);
    mp.n = static_cast<uint16_t>(n);
    mp.k = static_cast<uint16_t>(k);
    mp.cmatrixInitVal = first;
    Mmad(c, a2, b2, mp);
    qA2.FreeTensor(a2);
    qB2.FreeTensor(b2);
    qA1.FreeTensor(a1);
    qB1.FreeTensor(b1);
  }

  TPipe pipe;
  ConvShape s_;
  TQue<TPosition::A1, kBuffers> qA1;
  TQue<TPosition::B1, kBuffers> qB1;
  TQue<TPosition::A2, kBuffers> qA2;
  TQue<TPosition::B2, kBuffers> qB2;
  TQue<TPosition::CO1, kBuffers> qCO1;
  GlobalTensor<T> wGm, xGm;
  GlobalTensor<float> yGm;
};

// ---- the depthwise layout (see run_depthwise): [tap][channel][position].
uint32_t dw_pitch(uint32_t tw) { return round_up(tw, 8); }

GatherLayout depthwise_layout(uint32_t taps) {
  GatherLayout layout;
  layout.tile_elements = [taps](uint32_t tw, uint32_t cc) { return taps * cc * dw_pitch(tw); };
  layout.index = [](uint32_t p, uint32_t j, uint32_t t, uint32_t tw, uint32_t cc) { return (t * cc + j) * dw_pitch(tw) + p; };
  return layout;
}

// ---- the im2col gather (vector).

// Row per output position (A2): KcP = the job's K columns (+ the bias column) rounded to 16.
uint32_t pos_major_pitch(uint32_t cc, uint32_t taps) { return round_up(cc * taps + 1, 16); }

GatherLayout im2col_layout(const ConvShape& s, bool position_major) {
  GatherLayout l;
  const uint32_t taps = s.g.taps();
  const bool bias = s.bias;
  if (position_major) {
    l.tile_elements = [taps](uint32_t tw, uint32_t cc) { return tw * pos_major_pitch(cc, taps); };
    l.index = [taps](uint32_t p, uint32_t j, uint32_t t, uint32_t, uint32_t cc) {
      return p * pos_major_pitch(cc, taps) + j * taps + t;
    };
    l.extra = [taps, bias](uint32_t tw, uint32_t cc, bool last, std::vector<uint32_t>& table, uint32_t slots) {
      if (!bias || !last) return;
      for (uint32_t p = 0; p < tw; ++p) table[p * pos_major_pitch(cc, taps) + cc * taps] = slots + uint32_t(GatherSlot::One);
    };
  } else {
    // Row per K (coupled): cc * taps (+1) rows of the job's positions rounded to 16.
    l.tile_elements = [taps](uint32_t tw, uint32_t cc) { return (cc * taps + 1) * round_up(tw, 16); };
    l.index = [taps](uint32_t p, uint32_t j, uint32_t t, uint32_t tw, uint32_t) {
      return (j * taps + t) * round_up(tw, 16) + p;
    };
    l.extra = [taps, bias](uint32_t tw, uint32_t cc, bool last, std::vector<uint32_t>& table, uint32_t slots) {
      if (!bias || !last) return;
      for (uint32_t p = 0; p < tw; ++p) table[cc * taps * round_up(tw, 16) + p] = slots + uint32_t(GatherSlot::One);
    };
  }
  return l;
}

// Gathers every job's tile and writes it to xcol as T: [image, group][P][K1] when
// position_major, else [image, group][K1][P].
// With `zero_y` (the A2 GEMM's K slices add into Y), each block first clears its share of Y's
// `y_elements` floats, before its gathers (the GEMM launch runs after this one).
template <class T>
void im2col_kernel(const GatherPlan& plan, const ConvShape& s, bool position_major, GM_ADDR x, GM_ADDR tables,
                   GM_ADDR xcol, GM_ADDR zero_y = nullptr, uint64_t y_elements = 0) {
  TPipe pipe;
  WindowGatherer gatherer(plan, x, tables, pipe);
  TBuf<TPosition::VECCALC> tile_buf, cast_buf;
  pipe.InitBuffer(tile_buf, plan.table_entries * 4);
  if (!std::is_same<T, float>::value) pipe.InitBuffer(cast_buf, plan.table_entries * sizeof(T));
  LocalTensor<float> tile = tile_buf.Get<float>();
  if (zero_y) {
    GlobalTensor<float> y;
    y.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(zero_y), y_elements);
    const uint64_t blocks = GetBlockNum(), block = GetBlockIdx();
    const uint64_t begin = block * y_elements / blocks, end = (block + 1) * y_elements / blocks;
    const uint32_t chunk = plan.table_entries;
    Duplicate(tile, 0.0f, static_cast<int32_t>(chunk));
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    for (uint64_t at = begin; at < end; at += chunk) {
      const uint32_t n = uint32_t(std::min<uint64_t>(chunk, end - at));
      DataCopyPad(y[at], tile, DataCopyExtParams(1, n * 4, 0, 0, 0));
    }
    PipeBarrier<PIPE_ALL>();  // the zeros are out of UB before the tile is reused
  }
  GlobalTensor<T> out;
  const uint32_t k1 = s.k1(), p = s.p(), taps = s.g.taps();
  out.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(xcol), uint64_t(s.g.n) * s.groups * p * k1);
  const uint64_t jobs = plan.jobs.size(), blocks = GetBlockNum(), block = GetBlockIdx();
  SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
  SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
  for (uint64_t i = block * jobs / blocks; i < (block + 1) * jobs / blocks; ++i) {
    const GatherJob& job = plan.jobs[i];
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
    gatherer.load(job);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
    gatherer.gather(tile);
    LocalTensor<T> result;
    if constexpr (std::is_same<T, float>::value) {
      result = tile;
    } else {
      result = cast_buf.Get<T>();
      Cast(result, tile, RoundMode::CAST_RINT, plan.table_entries);
    }
    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    const bool last = job.channel + job.cc == s.cg;
    const uint32_t columns = job.cc * taps + (last && s.bias ? 1 : 0);
    const uint64_t problem = uint64_t(job.image) * s.groups + job.group;
    const uint32_t pos = job.oh * s.g.ow + job.ow0;
    if (position_major) {
      const uint32_t len = columns * sizeof(T), pitch = pos_major_pitch(job.cc, taps) * sizeof(T);
      DataCopyExtParams cp(static_cast<uint16_t>(job.tw), len, (pitch - round_up(len, 32)) / 32, (k1 * sizeof(T)) - len, 0);
      DataCopyPad(out[(problem * p + pos) * k1 + job.channel * taps], result, cp);
    } else {
      // Coupled: Xcol is [K1][OH][OWp] (OWp = OW rounded to 16) and a job starts at a
      // multiple of 16 columns, so its rows are whole aligned blocks (DataCopy, no DataCopyPad).
      const uint32_t owp = round_up(s.g.ow, 16), len = round_up(job.tw, 16), pp = s.g.oh * owp;
      DataCopyParams cp(static_cast<uint16_t>(columns), static_cast<uint16_t>(len * sizeof(T) / 32), 0,
                        static_cast<uint16_t>((pp - len) * sizeof(T) / 32));
      DataCopy(out[(problem * k1 + job.channel * taps) * pp + job.oh * owp + job.ow0], result, cp);
    }
    SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
  }
  WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
  WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
}

// Coupled chips: rows of `width` floats out of rows padded to `pitch` (a multiple of 16).
// Each block copies its own run of rows in order; a row's copy is whole 32 B blocks and may
// run into the next row's first elements, which the next copy (MTE3 is in order) rewrites,
// except for the block's last row, whose tail the scalar unit stores.
void unpad_rows_kernel(GM_ADDR src, GM_ADDR dst, uint64_t rows, uint32_t pitch, uint32_t width) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  const uint32_t batch = std::max<uint32_t>(1, std::min<uint32_t>(255, 96 * 1024 / (pitch * 4)));
  pipe.InitBuffer(buf, batch * pitch * 4);
  GlobalTensor<float> in, out;
  in.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(src), rows * pitch);
  out.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dst), rows * width);
  LocalTensor<float> rows_ub = buf.Get<float>();
  const uint64_t blocks = GetBlockNum(), block = GetBlockIdx();
  const uint64_t first = block * rows / blocks, last = (block + 1) * rows / blocks;
  for (uint64_t r0 = first; r0 < last; r0 += batch) {
    const uint32_t n = uint32_t(std::min<uint64_t>(batch, last - r0));
    PipeBarrier<PIPE_ALL>();  // the previous batch is out of UB
    DataCopy(rows_ub, in[r0 * pitch], n * pitch);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    for (uint32_t i = 0; i < n; ++i) {
      const bool block_end = r0 + i + 1 == last;
      store_run(out[(r0 + i) * width], rows_ub[i * pitch], block_end ? width : round_up(width, 8), false);
    }
  }
}

// ---- host side

std::vector<TensorDesc> descs(const OpContext& ctx) {
  std::vector<TensorDesc> d;
  for (const GmTensor* t : ctx.inputs) d.push_back(t ? t->desc : TensorDesc{});
  return d;
}

template <class T>
void format_weights(T* dst, const float* w, const float* bias, const ConvShape& s) {
  const uint32_t k = s.k(), k1 = s.k1();
  for (uint32_t co = 0; co < s.m; ++co) {
    for (uint32_t i = 0; i < k; ++i) dst[uint64_t(co) * k1 + i] = static_cast<T>(w[uint64_t(co) * k + i]);
    if (s.bias) dst[uint64_t(co) * k1 + k] = static_cast<T>(bias[co]);
  }
}

template <class T>
void run_conv(OpContext& ctx, const ConvShape& s, const Cores& cores) {
  const Node& node = ctx.node;
  const bool position_major = cores.separated;
  GatherPlan plan;
  plan.g = s.g;
  plan.groups = s.groups;
  plan.group_channels = s.cg;
  plan.separated = cores.separated;
  plan.tw_multiple = position_major ? 1 : 16;
  const GatherLayout layout = im2col_layout(s, position_major);
  if (!plan_window_gather(plan, layout, 4 + sizeof(T), kUbBudget)) {
    raise(node.source, "the window ({} x {} taps over a row of {}) does not fit the vector unit's buffer", s.g.kh,
          s.g.kw, s.g.w);
  }
  const std::vector<uint32_t> tables = flatten_tables(plan);
  void* gm_tables = ctx.scratch(tables.size() * 4);
  std::memcpy(gm_tables, tables.data(), tables.size() * 4);

  const uint64_t problems = uint64_t(s.g.n) * s.groups;
  // GEMM columns: the output positions, on a coupled chip with each row padded to 16.
  const uint32_t owp = position_major ? s.g.ow : round_up(s.g.ow, 16), columns = s.g.oh * owp;
  const uint64_t xcol_elems = problems * columns * s.k1();
  void* xcol = ctx.scratch(xcol_elems * sizeof(T));
  T* weights = static_cast<T*>(ctx.scratch(uint64_t(s.m) * s.k1() * sizeof(T)));
  const GmTensor* b = ctx.inputs.size() > 2 ? ctx.inputs[2] : nullptr;
  format_weights(weights, static_cast<const float*>(ctx.inputs[1]->data),
                 b ? static_cast<const float*>(b->data) : nullptr, s);

  auto gx = reinterpret_cast<GM_ADDR>(ctx.inputs[0]->data), gt = reinterpret_cast<GM_ADDR>(gm_tables);
  auto gcol = reinterpret_cast<GM_ADDR>(xcol), gw = reinterpret_cast<GM_ADDR>(weights);
  auto gy = reinterpret_cast<GM_ADDR>(ctx.outputs[0]->data);

  ConvShape sk = s;
  if (cores.separated) sk.k_splits = ConvGemmA2<T>::k_splits(s, cores.cube);
  const uint64_t y_elements = sk.k_splits > 1 ? uint64_t(s.g.n) * s.m * s.p() : 0;

  LayerLaunch gather;
  gather.report = ctx.device.launch(node.name + ".im2col", cores.vector, [&] {
    im2col_kernel<T>(plan, s, position_major, gx, gt, gcol, y_elements ? gy : nullptr, y_elements);
  });
  gather.bytes = tensor_bytes(ctx.inputs[0]) + double(xcol_elems) * sizeof(T) + double(y_elements) * 4;
  gather.unit = "vector";
  ctx.launches.push_back(gather);

  LayerLaunch gemm;
  gemm.flops = 2.0 * s.g.n * s.m * double(s.p()) * s.k();
  gemm.bytes = double(s.m) * s.k1() * sizeof(T) + double(xcol_elems) * sizeof(T) + tensor_bytes(ctx.outputs[0]);
  gemm.unit = "cube";
  if (cores.separated) {
    LaunchOptions options;
    options.kernel_type = aicore::KernelType::AicOnly;
    gemm.report = ctx.device.launch(node.name + ".gemm", cores.cube, [&] {
      ConvGemmA2<T> op(gw, gcol, gy, sk);
      op.Process();
    }, options);
    ctx.launches.push_back(gemm);
    return;
  }
  // Coupled: matmul_910 per (image, group); C's rows are Y's channels of the group, in rows
  // padded to OWp unless OW is a multiple of 16 (then C is Y itself).
  kernels::MatmulShape ms;
  ms.m = s.mg;
  ms.n = columns;
  ms.k = s.k1();
  void* workspace = ctx.scratch(kernels::matmul_910_workspace_bytes(ms, cores.cube));
  auto gws = reinterpret_cast<GM_ADDR>(workspace);
  const bool padded = owp != s.g.ow;
  auto gc = padded ? reinterpret_cast<GM_ADDR>(ctx.scratch(uint64_t(s.g.n) * s.m * columns * 4)) : gy;
  for (uint64_t problem = 0; problem < problems; ++problem) {
    const uint64_t image = problem / s.groups, group = problem % s.groups;
    GM_ADDR a = gw + uint64_t(group) * s.mg * s.k1() * sizeof(T);
    GM_ADDR bm = gcol + problem * s.k1() * columns * sizeof(T);
    GM_ADDR c = gc + (image * s.m + group * s.mg) * columns * sizeof(float);
    LayerLaunch part = gemm;
    part.flops = gemm.flops / double(problems);
    part.bytes = gemm.bytes / double(problems);
    part.report = ctx.device.launch(node.name + ".gemm", cores.cube, [&] {
      kernels::matmul_910<float>(a, bm, c, gws, ms);
    });
    ctx.launches.push_back(part);
  }
  if (!padded) return;
  LayerLaunch unpad;
  unpad.bytes = double(s.g.n) * s.m * (columns + s.p()) * 4.0;
  unpad.unit = "vector";
  unpad.report = ctx.device.launch(node.name + ".unpad", cores.vector, [&] {
    unpad_rows_kernel(gc, gy, uint64_t(s.g.n) * s.m * s.g.oh, owp, s.g.ow);
  });
  ctx.launches.push_back(unpad);
}

void check_conv(const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>& out) {
  allow_only(node, {"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"});
  require_float(node, in, 0, "X");
  require_float(node, in, 1, "W");
  const bool bias = in.size() > 2 && !in[2].name.empty();
  if (bias) {
    require_float(node, in, 2, "B");
    if (in[2].shape.size() != 1 || in[2].shape[0] != in[1].shape[0]) raise(node.source, "input B's shape does not match W's output channels");
  }
  const ConvShape s = conv_shape(node, in[0].shape, in[1].shape, bias);
  if (!out.empty() && !out[0].shape.empty()) {
    const int64_t want = int64_t(s.g.n) * s.m * s.p();
    if (out[0].elements() != want) raise(node.source, "output Y has {} elements, the attributes give {}", out[0].elements(), want);
  }
  if (s.k1() > 65535) raise(node.source, "K = {} (input channels per group x taps) is larger than 65535", s.k1());
  // The im2col gather's smallest job must fit UB in either layout (and the depthwise one).
  const bool fits = window_gather_fits(s.g, im2col_layout(s, true), 1, 4 + 4, kUbBudget) &&
                    window_gather_fits(s.g, im2col_layout(s, false), 16, 4 + 2, kUbBudget) &&
                    window_gather_fits(s.g, depthwise_layout(s.g.taps()), 1, 12, kUbBudget);
  if (!fits) {
    raise(node.source, "the window ({} x {}, dilations {} x {}) over an input row of {} does not fit the vector unit's "
          "buffer", s.g.kh, s.g.kw, s.g.dh, s.g.dw, s.g.w);
  }
}

// ---- depthwise (group = C = M) on the vector unit: the window gather tap-major
// ([tap][channel][position], as the pools), one Mul by a weight tile of the same layout (each
// channel's tap weight repeated over the positions), one Add per tap, one Add of the bias.

struct DepthwisePlan {
  GatherPlan gather;
  std::vector<float> weights;              // per weight tile: taps * cc * pitch, then cc * pitch of bias
  std::vector<uint32_t> weights_of_job;    // the job's weight tile
  uint32_t tile_entries = 0;               // floats per weight tile (with the bias rows)
};

void depthwise_kernel(const DepthwisePlan& dp, GM_ADDR x, GM_ADDR tables, GM_ADDR weights, GM_ADDR y) {
  const GatherPlan& plan = dp.gather;
  const WindowGeometry& g = plan.g;
  TPipe pipe;
  WindowGatherer gatherer(plan, x, tables, pipe);
  TBuf<TPosition::VECCALC> tile_buf, weight_buf, acc_buf;
  pipe.InitBuffer(tile_buf, plan.table_entries * 4);
  pipe.InitBuffer(weight_buf, dp.tile_entries * 4);
  pipe.InitBuffer(acc_buf, plan.cc * dw_pitch(plan.tw) * 4);
  GlobalTensor<float> out, wg;
  out.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), uint64_t(g.n) * g.c * g.oh * g.ow);
  wg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(weights), dp.weights.size());
  LocalTensor<float> tile = tile_buf.Get<float>(), wt = weight_buf.Get<float>(), acc = acc_buf.Get<float>();
  const uint64_t jobs = plan.jobs.size(), blocks = GetBlockNum(), block = GetBlockIdx();
  uint32_t loaded = ~0u;
  SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
  SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
  for (uint64_t i = block * jobs / blocks; i < (block + 1) * jobs / blocks; ++i) {
    const GatherJob& job = plan.jobs[i];
    const uint32_t pitch = dw_pitch(job.tw), slice = job.cc * pitch, taps = g.taps();
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
    gatherer.load(job);
    if (dp.weights_of_job[i] != loaded) {
      loaded = dp.weights_of_job[i];
      DataCopy(wt, wg[uint64_t(loaded) * dp.tile_entries], dp.tile_entries);
    }
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
    gatherer.gather(tile);
    Mul(tile, tile, wt, static_cast<int32_t>(taps * slice));
    Add(acc, tile, wt[taps * slice], static_cast<int32_t>(slice));  // tap 0 + the bias rows
    for (uint32_t t = 1; t < taps; ++t) Add(acc, acc, tile[t * slice], static_cast<int32_t>(slice));
    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    const uint64_t first = ((uint64_t(job.image) * g.c + job.channel) * g.oh + job.oh) * g.ow + job.ow0;
    if (plan.separated) {
      DataCopyExtParams cp(static_cast<uint16_t>(job.cc), job.tw * 4, (pitch * 4 - round_up(job.tw * 4, 32)) / 32,
                           (g.oh * g.ow - job.tw) * 4, 0);
      DataCopyPad(out[first], acc, cp);
    } else {
      for (uint32_t j = 0; j < job.cc; ++j) store_run(out[first + uint64_t(j) * g.oh * g.ow], acc[j * pitch], job.tw, false);
    }
    SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
  }
  WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
  WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
}

void run_depthwise(OpContext& ctx, const ConvShape& s, const Cores& cores) {
  const Node& node = ctx.node;
  DepthwisePlan dp;
  GatherPlan& plan = dp.gather;
  plan.g = s.g;
  plan.group_channels = s.g.c;  // channels are independent: jobs take any run of them
  plan.separated = cores.separated;
  const uint32_t taps = s.g.taps();
  const GatherLayout layout = depthwise_layout(taps);
  // Besides the table: the tile and the weight tile (a tile each), the accumulator.
  if (!plan_window_gather(plan, layout, 12, kUbBudget)) {
    raise(node.source, "the window ({} x {}) over a row of {} does not fit the vector unit's buffer", s.g.kh, s.g.kw, s.g.w);
  }
  dp.tile_entries = (taps + 1) * plan.cc * dw_pitch(plan.tw);
  const float* w = static_cast<const float*>(ctx.inputs[1]->data);
  const GmTensor* b = ctx.inputs.size() > 2 ? ctx.inputs[2] : nullptr;
  const float* bias = b ? static_cast<const float*>(b->data) : nullptr;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> known;  // (first channel, columns) -> tile
  for (const GatherJob& job : plan.jobs) {
    const auto key = std::make_pair(job.channel, job.tw);
    auto it = known.find(key);
    if (it == known.end()) {
      it = known.emplace(key, uint32_t(known.size())).first;
      std::vector<float> tile(dp.tile_entries, 0.0f);
      const uint32_t pitch = dw_pitch(job.tw), slice = job.cc * pitch;
      for (uint32_t j = 0; j < job.cc; ++j) {
        for (uint32_t p = 0; p < pitch; ++p) {
          for (uint32_t t = 0; t < taps; ++t) tile[t * slice + j * pitch + p] = w[uint64_t(job.channel + j) * taps + t];
          tile[taps * slice + j * pitch + p] = bias ? bias[job.channel + j] : 0.0f;
        }
      }
      dp.weights.insert(dp.weights.end(), tile.begin(), tile.end());
    }
    dp.weights_of_job.push_back(it->second);
  }
  const std::vector<uint32_t> tables = flatten_tables(plan);
  void* gm_tables = ctx.scratch(tables.size() * 4);
  std::memcpy(gm_tables, tables.data(), tables.size() * 4);
  void* gm_weights = ctx.scratch(dp.weights.size() * 4);
  std::memcpy(gm_weights, dp.weights.data(), dp.weights.size() * 4);
  auto gx = reinterpret_cast<GM_ADDR>(ctx.inputs[0]->data), gt = reinterpret_cast<GM_ADDR>(gm_tables);
  auto gw = reinterpret_cast<GM_ADDR>(gm_weights), gy = reinterpret_cast<GM_ADDR>(ctx.outputs[0]->data);
  LayerLaunch launch;
  launch.report = ctx.device.launch(node.name + ".depthwise", cores.vector, [&] { depthwise_kernel(dp, gx, gt, gw, gy); });
  launch.flops = 2.0 * double(ctx.outputs[0]->desc.elements()) * taps;
  launch.bytes = tensor_bytes(ctx.inputs[0]) + tensor_bytes(ctx.inputs[1]) + tensor_bytes(ctx.outputs[0]);
  launch.unit = "vector";
  ctx.launches.push_back(launch);
}

void run(OpContext& ctx) {
  const Cores cores = cores_of(ctx.device);
  const std::vector<TensorDesc> in = descs(ctx);
  const bool bias = ctx.inputs.size() > 2 && ctx.inputs[2] != nullptr;
  const ConvShape s = conv_shape(ctx.node, in[0].shape, in[1].shape, bias);
  // Depthwise: one input and one output channel per group; the vector unit, in f32 on every chip.
  if (s.groups > 1 && s.cg == 1 && s.mg == 1) {
    run_depthwise(ctx, s, cores);
    return;
  }
  if (ctx.precision == Precision::Fp32) {
    if (!cores.separated) {  // check_target refuses this before anything runs
      raise(ctx.node.source, "this chip's cube has no float32 Mmad: run Conv with --precision fp16");
    }
    run_conv<float>(ctx, s, cores);
  } else {
    run_conv<half>(ctx, s, cores);
  }
}

}  // namespace ops_conv_cpp
}  // namespace

// Float32 Conv runs on the cube with f32 operands (Mmad f32), which only the A2 cores have;
// depthwise Conv runs on the vector unit and needs none.
void check_conv_target(const Node& node, const std::vector<TensorDesc>& in, const Target& target) {
  if (target.precision != Precision::Fp32 || target.f32_cube) return;
  const bool bias = in.size() > 2 && !in[2].name.empty();
  const ops_conv_cpp::ConvShape s = ops_conv_cpp::conv_shape(node, in[0].shape, in[1].shape, bias);
  if (s.groups > 1 && s.cg == 1 && s.mg == 1) return;
  raise(node.source, "precision float32: Conv runs on the cube, and {}'s cube has no float32 Mmad (f16 operands "
        "only): run with --precision fp16", target.chip);
}

void register_conv_ops() {
  register_op(OpLowering{"Conv", ops_conv_cpp::check_conv, ops_conv_cpp::run, nullptr, check_conv_target});
}

}  // namespace npuvp::onnx
