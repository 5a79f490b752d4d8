// MatMul (numpy semantics: batched, broadcasting batch dimensions, 1-D operands) and Gemm
// (alpha, beta, transA, transB, C broadcast to M x N). Three paths:
//  - float32 on the A2 cores (910B): the cube in f32 (cube_f32.cpp, Mmad with f32 operands,
//    f32 accumulation) on B transposed into GM scratch (Gemm with transB takes B as it is);
//  - --precision fp16 (every chip): a vector kernel rounds A and B to f16 in GM scratch,
//    sw/kernels' tiled matmul (matmul_a2 on the A2 cores, matmul_910 on coupled ones)
//    multiplies them on every cube core with f32 accumulation into Y;
//  - float32 on chips without an f32 cube (910, 310P): the vector unit, each work item one
//    row of Y and a tile of its columns, Y[i, :] += A[i, k] * B[k, :] with Axpy over chunks of
//    B's rows (f32 products and sums, in increasing k).
// Gemm's alpha and beta C are then an elementwise pass over Y on the cube paths.
#include "platforms/ascend_soc.h"
#include "sw/kernels/matmul.h"
#include "sw/onnx/cube_f32.h"
#include "sw/onnx/onnx_kernels.h"
#include "sw/runtime/device.h"
#include "tlm/log.h"

namespace npuvp::onnx {

using namespace AscendC;

namespace {
namespace ops_matmul_cpp {  // named after the file: unity batches share anonymous namespaces

constexpr int64_t kTile = 2048;        // Y columns per work item
constexpr int64_t kSlotFloats = 8192;  // B rows per chunk: kSlotFloats / padded width

struct GemmPlan {
  int64_t m = 0, n = 0, k = 0;
  std::vector<int64_t> a_offsets, b_offsets;  // per output batch, elements
  int64_t a_row = 0, a_col = 0;               // A element (i, k) at a_offset + i a_row + k a_col
  float alpha = 1, beta = 0;
  bool has_c = false;
  int64_t c_row = 0, c_col = 0;               // C element (i, j) at i c_row + j c_col
};

void gemm_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR y, const GemmPlan& p, bool pad) {
  GlobalTensor<float> aGm, bGm, cGm, yGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a));
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(b));
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
  TPipe pipe;
  TQue<TPosition::VECIN, 2> bQueue;
  TQue<TPosition::VECIN, 1> cQueue;
  TQue<TPosition::VECOUT, 1> yQueue;
  pipe.InitBuffer(bQueue, 2, kSlotFloats * 4);
  pipe.InitBuffer(cQueue, 1, kTile * 4);
  pipe.InitBuffer(yQueue, 1, kTile * 4);
  const int64_t tiles = (p.n + kTile - 1) / kTile;
  const int64_t batches = int64_t(p.a_offsets.size());
  const uint64_t items = uint64_t(batches * p.m * tiles);
  const uint64_t blocks = uint64_t(GetBlockNum()), blk = uint64_t(GetBlockIdx());
  const uint64_t per = items / blocks, extra = items % blocks;
  const uint64_t first = blk * per + std::min(blk, extra), end = first + per + (blk < extra ? 1 : 0);
  for (uint64_t item = first; item < end; ++item) {
    const int64_t t = int64_t(item) % tiles, i = int64_t(item) / tiles % p.m, batch = int64_t(item) / tiles / p.m;
    const int64_t j0 = t * kTile, w = std::min(kTile, p.n - j0), padded = (w + 7) / 8 * 8;
    const int64_t rows_per_chunk = std::min<int64_t>(kSlotFloats / padded, 4095);
    LocalTensor<float> acc = yQueue.AllocTensor<float>();
    Duplicate(acc, 0.0f, int32_t(w));
    for (int64_t k0 = 0; k0 < p.k; k0 += rows_per_chunk) {
      const int64_t rows = std::min(rows_per_chunk, p.k - k0);
      LocalTensor<float> bl = bQueue.AllocTensor<float>();
      const int64_t b_row0 = p.b_offsets[size_t(batch)] + k0 * p.n + j0;
      if (pad) {  // `rows` rows of w, n apart in GM, each padded to 32 B in UB
        DataCopyPad(bl, bGm[uint64_t(b_row0)],
                    DataCopyExtParams(uint16_t(rows), uint32_t(w * 4), uint32_t((p.n - w) * 4), 0, 0),
                    DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
      } else {
        for (int64_t r = 0; r < rows; ++r) copy_in(bl[uint32_t(r * padded)], bGm[uint64_t(b_row0 + r * p.n)], w, pad);
      }
      bQueue.EnQue(bl);
      bl = bQueue.DeQue<float>();
      for (int64_t kk = 0; kk < rows; ++kk) {
        const float av = aGm.GetValue(uint64_t(p.a_offsets[size_t(batch)] + i * p.a_row + (k0 + kk) * p.a_col));
        Axpy(acc, bl[uint32_t(kk * padded)], av, int32_t(w));
      }
      bQueue.FreeTensor(bl);
    }
    if (p.alpha != 1.0f) Muls(acc, acc, p.alpha, int32_t(w));
    if (p.has_c && p.beta != 0.0f) {
      LocalTensor<float> cl = cQueue.AllocTensor<float>();
      if (p.c_col == 1) {
        copy_in(cl, cGm[uint64_t(i * p.c_row + j0)], w, pad);
      } else {
        Duplicate(cl, cGm.GetValue(uint64_t(i * p.c_row)), int32_t(w));
      }
      cQueue.EnQue(cl);
      cl = cQueue.DeQue<float>();
      Axpy(acc, cl, p.beta, int32_t(w));
      cQueue.FreeTensor(cl);
    }
    yQueue.EnQue(acc);
    acc = yQueue.DeQue<float>();
    copy_out(yGm[uint64_t((batch * p.m + i) * p.n + j0)], acc, w, pad);
    yQueue.FreeTensor(acc);
  }
}

void launch_gemm(OpContext& ctx, const GemmPlan& p, const void* a, const void* b, const void* c, void* y,
                 double bytes) {
  const int64_t batches = int64_t(p.a_offsets.size());
  if (batches * p.m * p.n == 0) return;
  const uint64_t items = uint64_t(batches * p.m * ((p.n + kTile - 1) / kTile));
  auto pa = reinterpret_cast<GM_ADDR>(const_cast<void*>(a)), pb = reinterpret_cast<GM_ADDR>(const_cast<void*>(b));
  auto pc = reinterpret_cast<GM_ADDR>(const_cast<void*>(c)), py = reinterpret_cast<GM_ADDR>(y);
  const bool pad = has_data_copy_pad();
  if (p.k == 0) {  // an empty sum: Y = beta C (or 0)
    GemmPlan q = p;
    q.k = 0;
    launch_vector(ctx, ctx.node.op_type, items, 0, bytes, [=] { gemm_kernel(pa, pb, pc, py, q, pad); });
    return;
  }
  launch_vector(ctx, ctx.node.op_type, items, 2.0 * double(batches * p.m * p.n * p.k), bytes,
                [=] { gemm_kernel(pa, pb, pc, py, p, pad); });
}

// ---- fp16: f16 operands on the cube, f32 accumulation.

constexpr int64_t kCastTile = 4096;

// dst[i] = (half)src[i], round to nearest even (Cast f32 -> f16, CAST_RINT).
void cast_half_kernel(GM_ADDR src, GM_ADDR dst, int64_t count, bool pad) {
  GlobalTensor<float> srcGm;
  GlobalTensor<half> dstGm;
  srcGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(src));
  dstGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(dst));
  TPipe pipe;
  TQue<TPosition::VECIN, 2> inQueue;
  TQue<TPosition::VECOUT, 2> outQueue;
  pipe.InitBuffer(inQueue, 2, kCastTile * sizeof(float));
  pipe.InitBuffer(outQueue, 2, kCastTile * sizeof(half));
  const uint64_t items = uint64_t((count + kCastTile - 1) / kCastTile);
  const uint64_t blocks = uint64_t(GetBlockNum()), b = uint64_t(GetBlockIdx());
  const uint64_t per = items / blocks, extra = items % blocks;
  const uint64_t first = b * per + std::min(b, extra), end = first + per + (b < extra ? 1 : 0);
  for (uint64_t item = first; item < end; ++item) {
    const int64_t offset = int64_t(item) * kCastTile, n = std::min(kCastTile, count - offset);
    LocalTensor<float> x = inQueue.AllocTensor<float>();
    copy_in(x, srcGm[uint64_t(offset)], n, pad);
    inQueue.EnQue(x);
    x = inQueue.DeQue<float>();
    LocalTensor<half> h = outQueue.AllocTensor<half>();
    Cast(h, x, RoundMode::CAST_RINT, uint32_t((n + 63) / 64 * 64));
    inQueue.FreeTensor(x);
    outQueue.EnQue(h);
    h = outQueue.DeQue<half>();
    copy_out(dstGm[uint64_t(offset)], h, n, pad);
    outQueue.FreeTensor(h);
  }
}

void* to_half(OpContext& ctx, const void* src, int64_t count) {
  void* dst = ctx.scratch(size_t(count) * 2);
  if (count == 0) return dst;
  auto ps = reinterpret_cast<GM_ADDR>(const_cast<void*>(src)), pd = reinterpret_cast<GM_ADDR>(dst);
  const bool pad = has_data_copy_pad();
  launch_vector(ctx, "Cast.f16", uint64_t((count + kCastTile - 1) / kCastTile), double(count), double(count) * 6,
                [=] { cast_half_kernel(ps, pd, count, pad); });
  return dst;
}

uint32_t cube_core_count() {
  auto& soc = Device::instance().soc();
  uint32_t n = 0;
  for (unsigned i = 0; i < soc.num_cores(); ++i) n += soc.core(i).core_kind() != aicore::CoreKind::Aiv;
  return std::max<uint32_t>(n, 1);
}

// Y (f32, M x N) = A16 (M x K) x B16 (K x N) on every cube core.
void cube_matmul(OpContext& ctx, const void* a16, const void* b16, void* y, int64_t m, int64_t n, int64_t k) {
  if (m * n == 0) return;
  const kernels::MatmulShape shape{uint32_t(m), uint32_t(n), uint32_t(k)};
  const uint32_t blocks = cube_core_count();
  const bool a2 = aicore::is_a2(Device::instance().soc().core(0).product());
  void* workspace = a2 ? nullptr : ctx.scratch(kernels::matmul_910_workspace_bytes(shape, blocks));
  auto pa = reinterpret_cast<GM_ADDR>(const_cast<void*>(a16)), pb = reinterpret_cast<GM_ADDR>(const_cast<void*>(b16));
  auto py = reinterpret_cast<GM_ADDR>(y), pw = reinterpret_cast<GM_ADDR>(workspace);
  LaunchOptions options;
  options.kernel_type = aicore::KernelType::AicOnly;
  LayerLaunch l;
  l.report = ctx.device.launch(ctx.node.op_type + ".cube", blocks, [=] {
    if (a2) {
      kernels::matmul_a2<float>(pa, pb, py, shape);
    } else {
      kernels::matmul_910<float>(pa, pb, py, pw, shape);
    }
  }, options);
  l.flops = 2.0 * double(m) * double(n) * double(k);
  l.bytes = double(m * k + k * n) * 2 + double(m * n) * 4;
  l.unit = "cube";
  ctx.launches.push_back(l);
}

// ---- f32 on the A2 cube (cube_f32.cpp): Bt is B transposed.
bool f32_cube() { return aicore::is_a2(Device::instance().soc().core(0).product()); }

void cube_matmul_f32(OpContext& ctx, const void* a, const void* bt, void* y, int64_t m, int64_t n, int64_t k) {
  if (m * n == 0) return;
  auto pa = reinterpret_cast<GM_ADDR>(const_cast<void*>(a)), pb = reinterpret_cast<GM_ADDR>(const_cast<void*>(bt));
  auto py = reinterpret_cast<GM_ADDR>(y);
  const uint64_t tiles = uint64_t((m + 127) / 128) * uint64_t((n + 127) / 128);
  LaunchOptions options;
  options.kernel_type = aicore::KernelType::AicOnly;
  LayerLaunch l;
  l.report = ctx.device.launch(ctx.node.op_type + ".cube", uint32_t(std::min<uint64_t>(cube_core_count(), tiles)),
                               [=] { npuvp::onnx::cube_matmul_f32(pa, pb, py, uint32_t(m), uint32_t(n), uint32_t(k)); },
                               options);
  l.flops = 2.0 * double(m) * double(n) * double(k);
  l.bytes = double(m * k + k * n + m * n) * 4;
  l.unit = "cube";
  ctx.launches.push_back(l);
}

// B (rows x cols, f32) transposed into scratch.
void* transposed(OpContext& ctx, const void* b, int64_t rows, int64_t cols, const char* kernel) {
  void* bt = ctx.scratch(size_t(rows * cols) * 4);
  CopyView view;
  view.shape = {cols, rows};
  view.strides = {1, cols};
  strided_copy(ctx, kernel, b, bt, 4, view);
  return bt;
}

void run_matmul(OpContext& ctx) {
  const GmTensor& a = *ctx.inputs[0];
  const GmTensor& b = *ctx.inputs[1];
  std::vector<int64_t> as = a.desc.shape, bs = b.desc.shape;
  if (as.size() == 1) as.insert(as.begin(), 1);  // [K] -> [1, K]
  if (bs.size() == 1) bs.push_back(1);           // [K] -> [K, 1]
  GemmPlan p;
  p.m = as[as.size() - 2];
  p.k = as.back();
  p.n = bs.back();
  if (bs[bs.size() - 2] != p.k) raise(ctx.node.source, "inner dimensions differ: {} and {}", p.k, bs[bs.size() - 2]);
  const std::vector<int64_t> a_batch(as.begin(), as.end() - 2), b_batch(bs.begin(), bs.end() - 2);
  const std::vector<int64_t> batch = broadcast_shapes(ctx.node, a_batch, b_batch);
  std::vector<int64_t> a_strides = broadcast_strides(a_batch, batch), b_strides = broadcast_strides(b_batch, batch);
  int64_t batches = 1;
  for (int64_t d : batch) batches *= d;
  for (int64_t index = 0; index < batches; ++index) {
    int64_t rest = index, ao = 0, bo = 0;
    for (int d = int(batch.size()) - 1; d >= 0; --d) {
      const int64_t i = rest % batch[size_t(d)];
      rest /= batch[size_t(d)];
      ao += i * a_strides[size_t(d)];
      bo += i * b_strides[size_t(d)];
    }
    p.a_offsets.push_back(ao * p.m * p.k);
    p.b_offsets.push_back(bo * p.k * p.n);
  }
  if (ctx.precision == Precision::Fp16 && p.k > 0) {
    const char* a16 = static_cast<const char*>(to_half(ctx, a.data, a.desc.elements()));
    const char* b16 = static_cast<const char*>(to_half(ctx, b.data, b.desc.elements()));
    float* y = static_cast<float*>(ctx.outputs[0]->data);
    for (size_t batch = 0; batch < p.a_offsets.size(); ++batch) {
      cube_matmul(ctx, a16 + p.a_offsets[batch] * 2, b16 + p.b_offsets[batch] * 2, y + int64_t(batch) * p.m * p.n,
                  p.m, p.n, p.k);
    }
    return;
  }
  if (ctx.precision == Precision::Fp32 && f32_cube() && p.k > 0) {
    // Bt: every K x N matrix of B transposed to N x K.
    const int64_t b_matrices = b.desc.elements() / (p.k * p.n);
    void* bt = ctx.scratch(size_t(b.desc.elements()) * 4);
    if (b.constant) {
      // A weight: transposed on the host before the run, as an offline compiler formats weights.
      const float* src = static_cast<const float*>(b.data);
      float* dst = static_cast<float*>(bt);
      for (int64_t mat = 0; mat < b_matrices; ++mat)
        for (int64_t row = 0; row < p.k; ++row)
          for (int64_t col = 0; col < p.n; ++col)
            dst[(mat * p.n + col) * p.k + row] = src[(mat * p.k + row) * p.n + col];
    } else {
      CopyView view;
      view.shape = {b_matrices, p.n, p.k};
      view.strides = {p.k * p.n, 1, p.n};
      strided_copy(ctx, "MatMul.transB", b.data, bt, 4, view);
    }
    const char* a32 = static_cast<const char*>(a.data);
    const char* bt32 = static_cast<const char*>(bt);
    float* y = static_cast<float*>(ctx.outputs[0]->data);
    for (size_t batch = 0; batch < p.a_offsets.size(); ++batch) {
      cube_matmul_f32(ctx, a32 + p.a_offsets[batch] * 4, bt32 + p.b_offsets[batch] * 4, y + int64_t(batch) * p.m * p.n,
                      p.m, p.n, p.k);
    }
    return;
  }
  p.a_row = p.k;
  p.a_col = 1;
  launch_gemm(ctx, p, a.data, b.data, nullptr, ctx.outputs[0]->data,
              double(a.desc.bytes() + b.desc.bytes() + ctx.outputs[0]->desc.bytes()));
}

// Gemm on the cube: fp16 (f16 operands) or, on the A2 cores, f32; then alpha and beta C.
void run_gemm_cube(OpContext& ctx, const GemmPlan& p, bool trans_a, bool trans_b, const GmTensor* c) {
  const void* a = ctx.inputs[0]->data;
  const void* b = ctx.inputs[1]->data;
  if (trans_a) a = transposed(ctx, a, p.k, p.m, "Gemm.transA");  // A' = A^T, M x K
  GmTensor& y = *ctx.outputs[0];
  if (ctx.precision == Precision::Fp16) {
    if (trans_b && ctx.inputs[1]->constant) {
      // A weight: transposed on the host before the run, as CANN's offline compiler formats
      // weights (a strided copy of N x K single elements is scalar work on the 910/310P).
      float* bt = static_cast<float*>(ctx.scratch(size_t(p.k * p.n) * 4));
      const float* src = static_cast<const float*>(b);
      for (int64_t row = 0; row < p.n; ++row)
        for (int64_t col = 0; col < p.k; ++col) bt[col * p.n + row] = src[row * p.k + col];
      b = bt;
    } else if (trans_b) {
      b = transposed(ctx, b, p.n, p.k, "Gemm.transB");  // B' = B^T, K x N
    }
    cube_matmul(ctx, to_half(ctx, a, p.m * p.k), to_half(ctx, b, p.k * p.n), y.data, p.m, p.n, p.k);
  } else {
    // The f32 kernel takes Bt (N x K): transB's B as it is, else B transposed.
    if (!trans_b) b = transposed(ctx, b, p.k, p.n, "Gemm.transB");
    cube_matmul_f32(ctx, a, b, y.data, p.m, p.n, p.k);
  }
  const float alpha = p.alpha, beta = p.beta;
  const bool with_c = c && beta != 0.0f;
  if (alpha == 1.0f && !with_c) return;
  // Y = alpha Y (+ beta C, broadcast), in place: each tile is read before it is written.
  std::vector<const GmTensor*> ins{&y};
  if (with_c) ins.push_back(c);
  elementwise(ctx, "Gemm.epilogue", ins, y, with_c ? 3 : 1,
              [alpha, beta, with_c](const LocalTensor<float>& z, const LocalTensor<float>& x0,
                                    const LocalTensor<float>& x1, const LocalTensor<float>&, int32_t n) {
                Muls(z, x0, alpha, n);
                if (with_c) Axpy(z, x1, beta, n);
              });
}

void run_gemm(OpContext& ctx) {
  const Node& node = ctx.node;
  const GmTensor& a = *ctx.inputs[0];
  const GmTensor& b = *ctx.inputs[1];
  const GmTensor* c = ctx.inputs.size() > 2 ? ctx.inputs[2] : nullptr;
  const bool trans_a = node.attr_int("transA", 0) != 0, trans_b = node.attr_int("transB", 0) != 0;
  GemmPlan p;
  p.m = trans_a ? a.desc.shape[1] : a.desc.shape[0];
  p.k = trans_a ? a.desc.shape[0] : a.desc.shape[1];
  p.n = trans_b ? b.desc.shape[0] : b.desc.shape[1];
  p.alpha = node.attr_float("alpha", 1.0f);
  p.beta = node.attr_float("beta", 1.0f);
  p.a_offsets = {0};
  p.b_offsets = {0};
  p.a_row = trans_a ? 1 : p.k;
  p.a_col = trans_a ? p.m : 1;
  if ((ctx.precision == Precision::Fp16 || f32_cube()) && p.k > 0) {
    run_gemm_cube(ctx, p, trans_a, trans_b, c);
    return;
  }
  const void* b_data = b.data;
  if (trans_b) {  // B' = B^T, K x N, into scratch
    void* bt = ctx.scratch(size_t(p.k * p.n) * 4);
    CopyView view;
    view.shape = {p.k, p.n};
    view.strides = {1, p.k};
    strided_copy(ctx, "Gemm.transB", b.data, bt, 4, view);
    b_data = bt;
  }
  double bytes = double(a.desc.bytes() + b.desc.bytes() + ctx.outputs[0]->desc.bytes());
  if (c) {
    p.has_c = true;
    const std::vector<int64_t> s = broadcast_strides(c->desc.shape, {p.m, p.n});
    p.c_row = s[0];
    p.c_col = s[1];
    bytes += double(c->desc.bytes());
  }
  launch_gemm(ctx, p, a.data, b_data, c ? c->data : nullptr, ctx.outputs[0]->data, bytes);
}

}  // namespace ops_matmul_cpp
}  // namespace

void register_matmul_ops() {
  OpLowering matmul;
  matmul.op_type = "MatMul";
  matmul.check = [](const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>& out) {
    allow_attributes(node, {});
    if (in.size() != 2 || out.size() != 1) raise(node.source, "expects 2 inputs and 1 output");
    require_float(node, in, out, {0, 1});
    if (in[0].shape.empty() || in[1].shape.empty()) raise(node.source, "MatMul of a scalar is not defined");
  };
  matmul.run = ops_matmul_cpp::run_matmul;
  register_op(matmul);

  OpLowering gemm;
  gemm.op_type = "Gemm";
  gemm.check = [](const Node& node, const std::vector<TensorDesc>& in, const std::vector<TensorDesc>& out) {
    allow_attributes(node, {"alpha", "beta", "transA", "transB", "broadcast"});
    if (in.size() < 2 || in.size() > 3 || out.size() != 1) raise(node.source, "expects 2 or 3 inputs and 1 output");
    require_float(node, in, out, {0, 1, 2});
    if (in[0].shape.size() != 2 || in[1].shape.size() != 2) raise(node.source, "A and B must be 2-D");
    if (in.size() == 3 && !in[2].name.empty() && in[2].shape.size() > 2) raise(node.source, "C must be at most 2-D");
  };
  gemm.run = ops_matmul_cpp::run_gemm;
  register_op(gemm);
}

}  // namespace npuvp::onnx
