// The single-core matmul for a coupled Ascend 910 core, which has neither ND2NZ nor FixPipe:
//   1. pad:    A[M][K] -> Ap[M][Kp], B[K][N] -> Bp[K][Np] in GM (Kp, Np multiples of 16), by
//              the vector unit: a row comes into UB, the tail of its last 16-element block is
//              zeroed with a bit-masked Duplicate, and it goes back out;
//   2. cube:   strided DataCopy builds NZ tiles in L1 (one 32 B block per row per column of
//              fractals), LoadData2D feeds L0A/L0B as on A2, Mmad accumulates over K in L0C;
//              L0C -> UB in matrix mode (f32, or converted to f16), then UB -> Cp[M][Np] with
//              one 16-element row block per DataCopy block;
//   3. unpad:  Cp -> C[M][N] row by row, whole 32 B blocks by DataCopy and the rest of each
//              row by scalar stores.
#include <algorithm>
#include <type_traits>

#include "sw/kernels/matmul.h"
#include "sw/kernels/matmul_tile.h"

namespace npuvp::kernels {

using namespace AscendC;

namespace {
using namespace matmul_tile;

// Step 1 and 3 helpers run on one UB buffer with explicit flags, row by row.
template <class T>
class RowCopier {
 public:
  RowCopier(TPipe& pipe, uint32_t max_elems) { pipe.InitBuffer(buf_, round_up(max_elems, 16) * sizeof(T)); }

  // dst row (dst_len = src_len rounded up to 16) = src row, zero-padded.
  void Pad(const GlobalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t src_len, uint32_t dst_len) {
    LocalTensor<T> row = buf_.Get<T>();
    Reuse();
    DataCopy(row, src, dst_len);  // reads up to 15 elements past the row: they are zeroed below
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    const uint32_t tail = src_len % 16, last = dst_len - 16;
    if (tail != 0) {
      // Zero lanes tail..15 of the last 16-element block (16 x 2 B or 16 x 4 B: lanes as elements).
      uint64_t mask[2] = {0xffffull & ~((1ull << tail) - 1), 0};
      Duplicate(row[last], T(0), mask, 1, 1, 8);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(dst, row, dst_len);
  }

  // dst row (len elements) = first len elements of src row (src_len elements, 16-multiple).
  void Unpad(const GlobalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t len, uint32_t src_len) {
    LocalTensor<T> row = buf_.Get<T>();
    Reuse();
    DataCopy(row, src, src_len);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    constexpr uint32_t per_block = 32 / sizeof(T);
    const uint32_t whole = len / per_block * per_block;
    if (whole > 0) DataCopy(dst, row, whole);
    if (whole < len) {
      SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
      WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
      for (uint32_t j = whole; j < len; ++j) {
        GlobalTensor<T> out = dst;
        out.SetValue(j, row.GetValue(j));
      }
    }
  }

 private:
  // The previous row's copy-out must finish before UB is overwritten.
  void Reuse() {
    if (used_) {
      SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
      WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    }
    used_ = true;
  }
  TBuf<TPosition::VECCALC> buf_;
  bool used_ = false;
};

template <class CT>
class KernelMatmul910 {
 public:
  KernelMatmul910(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR ws, MatmulShape s)
      : s_(s), kp_(round_up(s.k, 16)), np_(round_up(s.n, 16)) {
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), uint64_t(s.m) * s.k);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), uint64_t(s.k) * s.n);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(c), uint64_t(s.m) * s.n);
    auto* w = reinterpret_cast<__gm__ uint8_t*>(ws);
    apGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(w), uint64_t(s.m) * kp_);
    bpGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(w + uint64_t(s.m) * kp_ * 2), uint64_t(s.k) * np_);
    cpGm.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(w + (uint64_t(s.m) * kp_ + uint64_t(s.k) * np_) * 2),
                         uint64_t(s.m) * np_);
  }

  void Process() {
    {
      TPipe pipe;
      RowCopier<half> rows(pipe, std::max(kp_, np_));
      for (uint32_t i = 0; i < s_.m; ++i) rows.Pad(apGm[uint64_t(i) * kp_], aGm[uint64_t(i) * s_.k], s_.k, kp_);
      for (uint32_t i = 0; i < s_.k; ++i) rows.Pad(bpGm[uint64_t(i) * np_], bGm[uint64_t(i) * s_.n], s_.n, np_);
    }
    PipeBarrier<PIPE_ALL>();  // the padded copies are in GM before the cube reads them
    Cube();
    PipeBarrier<PIPE_ALL>();
    TPipe pipe;
    RowCopier<CT> rows(pipe, np_);
    for (uint32_t i = 0; i < s_.m; ++i) rows.Unpad(cGm[uint64_t(i) * s_.n], cpGm[uint64_t(i) * np_], s_.n, np_);
  }

 private:
  void Cube() {
    TPipe pipe;
    pipe.InitBuffer(qA1, kBuffers, kBaseM * kBlockK * sizeof(half));
    pipe.InitBuffer(qB1, kBuffers, kBlockK * kBaseN * sizeof(half));
    pipe.InitBuffer(qA2, kBuffers, kBaseM * kBaseK * sizeof(half));
    pipe.InitBuffer(qB2, kBuffers, kBaseK * kBaseN * sizeof(half));
    pipe.InitBuffer(qCO1, kBuffers, kBaseM * kBaseN * sizeof(float));
    pipe.InitBuffer(qCO2, kBuffers, kBaseM * kBaseN * sizeof(CT));
    for (uint32_t m0 = 0; m0 < s_.m; m0 += kBaseM) {
      for (uint32_t n0 = 0; n0 < s_.n; n0 += kBaseN) {
        const uint32_t m = std::min(kBaseM, s_.m - m0), n = std::min(kBaseN, s_.n - n0);
        LocalTensor<float> c = qCO1.AllocTensor<float>();
        for (uint32_t k0 = 0; k0 < s_.k; k0 += kBlockK) {
          const uint32_t k = std::min(kBlockK, s_.k - k0);
          CopyIn(m0, n0, k0, m, n, k);
          matmul_tile::multiply_from_l1(c, qA1, qB1, qA2, qB2, m, n, k, k0 == 0);
        }
        qCO1.EnQue(c);
        CopyOut(m0, n0, m, n);
      }
    }
  }

  // Padded GM -> L1 NZ: column of fractals j is one DataCopy of `rows` 32 B blocks.
  void CopyIn(uint32_t m0, uint32_t n0, uint32_t k0, uint32_t m, uint32_t n, uint32_t k) {
    LocalTensor<half> a1 = qA1.AllocTensor<half>();
    const uint32_t ma = round_up(m, kFractal), kb = round_up(k, kFractal);
    for (uint32_t j = 0; j < ceil_div(k, kFractal); ++j) {
      DataCopy(a1[j * ma * kFractal], apGm[uint64_t(m0) * kp_ + k0 + j * kFractal],
               DataCopyParams(static_cast<uint16_t>(m), 1, static_cast<uint16_t>(kp_ / kFractal - 1), 0));
    }
    qA1.EnQue(a1);
    LocalTensor<half> b1 = qB1.AllocTensor<half>();
    for (uint32_t j = 0; j < ceil_div(n, kFractal); ++j) {
      DataCopy(b1[j * kb * kFractal], bpGm[uint64_t(k0) * np_ + n0 + j * kFractal],
               DataCopyParams(static_cast<uint16_t>(k), 1, static_cast<uint16_t>(np_ / kFractal - 1), 0));
    }
    qB1.EnQue(b1);
  }

  // L0C -> UB (matrix mode, converting to CT) -> Cp: each fractal column is `m` row blocks of
  // 16 elements, written one row of Cp apart.
  void CopyOut(uint32_t m0, uint32_t n0, uint32_t m, uint32_t n) {
    const uint32_t m1 = ceil_div(m, kFractal), n1 = ceil_div(n, kFractal);
    LocalTensor<float> c = qCO1.DeQue<float>();
    LocalTensor<CT> u = qCO2.AllocTensor<CT>();
    DataCopyEnhancedParams matrix;
    matrix.blockMode = BlockMode::BLOCK_MODE_MATRIX;
    DataCopy(u, c, DataCopyParams(1, static_cast<uint16_t>(m1 * n1), 0, 0), matrix);
    qCO2.EnQue(u);
    qCO1.FreeTensor(c);
    u = qCO2.DeQue<CT>();
    constexpr uint32_t row_units = kFractal * sizeof(CT) / 32;  // 32 B units per 16-element row
    for (uint32_t j = 0; j < n1; ++j) {
      DataCopy(cpGm[uint64_t(m0) * np_ + n0 + j * kFractal], u[j * m1 * 256],
               DataCopyParams(static_cast<uint16_t>(m), row_units, 0,
                              static_cast<uint16_t>(np_ * sizeof(CT) / 32 - row_units)));
    }
    qCO2.FreeTensor(u);
  }

  MatmulShape s_;
  uint32_t kp_, np_;
  TQue<TPosition::A1, kBuffers> qA1;
  TQue<TPosition::B1, kBuffers> qB1;
  TQue<TPosition::A2, kBuffers> qA2;
  TQue<TPosition::B2, kBuffers> qB2;
  TQue<TPosition::CO1, kBuffers> qCO1;
  TQue<TPosition::CO2, kBuffers> qCO2;
  GlobalTensor<half> aGm, bGm, apGm, bpGm;
  GlobalTensor<CT> cGm, cpGm;
};
}  // namespace

uint64_t matmul_910_workspace_bytes(MatmulShape s) {
  // Ap and Bp in f16, Cp in f32 (the larger output), plus one 32 B block of over-read slack.
  return (uint64_t(s.m) * round_up(s.k, 16) + uint64_t(s.k) * round_up(s.n, 16)) * 2 +
         uint64_t(s.m) * round_up(s.n, 16) * 4 + 64;
}

template <class CT>
void matmul_910(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, MatmulShape shape) {
  KernelMatmul910<CT> op(a, b, c, workspace, shape);
  op.Process();
}

template void matmul_910<float>(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, MatmulShape);
template void matmul_910<half>(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, MatmulShape);

}  // namespace npuvp::kernels
