// The single-core matmul, written as an Ascend C programmer writes one: TPipe and TQues for
// every level, so the pipes overlap (MTE2 fetches the next L1 block while MTE1 feeds L0 and
// the cube computes; FixPipe drains one L0C tile while the next accumulates).
//
// Layouts (models/aicore/isa.h): A and B arrive in L1 as NZ by Nd2Nz (fractal (r1, c1) of a
// tile with R1 fractal rows at (c1 * R1 + r1) * 512, row-major inside). LoadData2D gathers
// A's fractals into L0A's ZZ order, and B's — transposed — into L0B's ZN order.
#include "sw/kernels/matmul.h"
#include "sw/kernels/matmul_tile.h"

#include <algorithm>

namespace npuvp::kernels {

using namespace AscendC;

namespace {
using namespace matmul_tile;

template <class CT>
class KernelMatmul {
 public:
  KernelMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, MatmulShape s) : s_(s) {
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), uint64_t(s.m) * s.k);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), uint64_t(s.k) * s.n);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(c), uint64_t(s.m) * s.n);
    pipe.InitBuffer(qA1, kBuffers, kBaseM * kBlockK * sizeof(half));
    pipe.InitBuffer(qB1, kBuffers, kBlockK * kBaseN * sizeof(half));
    pipe.InitBuffer(qA2, kBuffers, kBaseM * kBaseK * sizeof(half));
    pipe.InitBuffer(qB2, kBuffers, kBaseK * kBaseN * sizeof(half));
    pipe.InitBuffer(qCO1, kBuffers, kBaseM * kBaseN * sizeof(float));
  }

  void Process() {
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

 private:
  // GM -> L1, ND -> NZ: A block m x k (row stride K), B block k x n (row stride N).
  void CopyIn(uint32_t m0, uint32_t n0, uint32_t k0, uint32_t m, uint32_t n, uint32_t k) {
    LocalTensor<half> a1 = qA1.AllocTensor<half>();
    DataCopy(a1, aGm[uint64_t(m0) * s_.k + k0],
             Nd2NzParams(1, m, k, 0, s_.k, round_up(m, kFractal), 1, 0));
    qA1.EnQue(a1);
    LocalTensor<half> b1 = qB1.AllocTensor<half>();
    DataCopy(b1, bGm[uint64_t(k0) * s_.n + n0],
             Nd2NzParams(1, k, n, 0, s_.n, round_up(k, kFractal), 1, 0));
    qB1.EnQue(b1);
  }

  // L0C NZ -> GM ND, converting to CT.
  void CopyOut(uint32_t m0, uint32_t n0, uint32_t m, uint32_t n) {
    LocalTensor<float> c = qCO1.DeQue<float>();
    FixpipeParamsV220 p;
    p.mSize = m;
    p.nSize = n;
    p.srcStride = round_up(m, kFractal);
    p.dstStride = s_.n;
    p.quantPre = std::is_same<CT, half>::value ? F322F16 : NoQuant;
    Fixpipe(cGm[uint64_t(m0) * s_.n + n0], c, p);
    qCO1.FreeTensor(c);
  }

  MatmulShape s_;
  TPipe pipe;
  TQue<TPosition::A1, kBuffers> qA1;
  TQue<TPosition::B1, kBuffers> qB1;
  TQue<TPosition::A2, kBuffers> qA2;
  TQue<TPosition::B2, kBuffers> qB2;
  TQue<TPosition::CO1, kBuffers> qCO1;
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<CT> cGm;
};
}  // namespace

// int8: one L0 tile per L1 block (K0 = 32 elements per 32 B block).
class KernelMatmulInt8 {
 public:
  KernelMatmulInt8(GM_ADDR a, GM_ADDR bt, GM_ADDR c, MatmulShape s) : s_(s) {
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(a), uint64_t(s.m) * s.k);
    btGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(bt), uint64_t(s.n) * s.k);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(c), uint64_t(s.m) * s.n);
    pipe.InitBuffer(qA1, kBuffers, kBaseM * kBlockK);
    pipe.InitBuffer(qB1, kBuffers, kBlockK * kBaseN);
    pipe.InitBuffer(qA2, kBuffers, kBaseM * kBlockK);
    pipe.InitBuffer(qB2, kBuffers, kBlockK * kBaseN);
    pipe.InitBuffer(qCO1, kBuffers, kBaseM * kBaseN * sizeof(int32_t));
  }

  void Process() {
    for (uint32_t m0 = 0; m0 < s_.m; m0 += kBaseM) {
      for (uint32_t n0 = 0; n0 < s_.n; n0 += kBaseN) {
        const uint32_t m = std::min(kBaseM, s_.m - m0), n = std::min(kBaseN, s_.n - n0);
        LocalTensor<int32_t> c = qCO1.AllocTensor<int32_t>();
        for (uint32_t k0 = 0; k0 < s_.k; k0 += kBlockK) {
          const uint32_t k = std::min(kBlockK, s_.k - k0);
          LocalTensor<int8_t> a1 = qA1.AllocTensor<int8_t>();
          DataCopy(a1, aGm[uint64_t(m0) * s_.k + k0], Nd2NzParams(1, m, k, 0, s_.k, round_up(m, kFractal), 1, 0));
          qA1.EnQue(a1);
          LocalTensor<int8_t> b1 = qB1.AllocTensor<int8_t>();
          DataCopy(b1, btGm[uint64_t(n0) * s_.k + k0], Nd2NzParams(1, n, k, 0, s_.k, round_up(n, kFractal), 1, 0));
          qB1.EnQue(b1);
          matmul_tile::multiply_int8_from_l1(c, qA1, qB1, qA2, qB2, m, n, k, k0 == 0);
        }
        qCO1.EnQue(c);
        c = qCO1.DeQue<int32_t>();
        FixpipeParamsV220 p;
        p.mSize = m;
        p.nSize = n;
        p.srcStride = round_up(m, kFractal);
        p.dstStride = s_.n;
        Fixpipe(cGm[uint64_t(m0) * s_.n + n0], c, p);
        qCO1.FreeTensor(c);
      }
    }
  }

 private:
  MatmulShape s_;
  TPipe pipe;
  TQue<TPosition::A1, kBuffers> qA1;
  TQue<TPosition::B1, kBuffers> qB1;
  TQue<TPosition::A2, kBuffers> qA2;
  TQue<TPosition::B2, kBuffers> qB2;
  TQue<TPosition::CO1, kBuffers> qCO1;
  GlobalTensor<int8_t> aGm, btGm;
  GlobalTensor<int32_t> cGm;
};

void matmul_int8_a2(GM_ADDR a, GM_ADDR bt, GM_ADDR c, MatmulShape shape) {
  KernelMatmulInt8 op(a, bt, c, shape);
  op.Process();
}

template <class CT>
void matmul_a2(GM_ADDR a, GM_ADDR b, GM_ADDR c, MatmulShape shape) {
  KernelMatmul<CT> op(a, b, c, shape);
  op.Process();
}

template void matmul_a2<float>(GM_ADDR, GM_ADDR, GM_ADDR, MatmulShape);
template void matmul_a2<half>(GM_ADDR, GM_ADDR, GM_ADDR, MatmulShape);

}  // namespace npuvp::kernels
