// int8 matmul on a coupled Ascend 910 core: C[M][N] (s32) = A[M][K] (s8) * Bt[N][K]^T (s8).
// The matmul_910 recipe (cube_910.h) with K0 = 32 elements per 32 B block:
//   1. pad:    A -> Ap[M][Kp], Bt -> Btp[N][Kp] in GM (Kp = K rounded up to 32), row by row
//              through UB. The pad of an int8 row can be an odd number of bytes, so it is zeroed
//              by an And with a byte mask seen as u16 lanes (cube_910.h), not by a Duplicate;
//   2. cube:   strided DataCopy builds A's and Bt's NZ tiles in L1; Bt's NZ fractals are L0B's
//              ZN fractals, so LoadData2D moves them in one go (matmul_tile.h, shared with A2);
//              Mmad accumulates s32 over K in L0C; L0C -> UB in matrix mode (s32 stays s32),
//              then UB -> Cp[M][Np] (Np = N rounded up to 16);
//   3. unpad:  Cp -> C row by row, whole 32 B blocks by DataCopy and the rest by scalar stores.
#include <algorithm>

#include "sw/kernels/cube_910.h"
#include "sw/kernels/matmul.h"
#include "sw/kernels/matmul_tile.h"

namespace npuvp::kernels {

using namespace AscendC;

namespace {
namespace matmul_int8_910_cpp {  // named after the file: unity batches share anonymous namespaces
using namespace matmul_tile;
using cube_910::RowCopier;

constexpr uint32_t kK0 = 32;  // int8 elements per 32 B block

class KernelMatmulInt8_910 {
 public:
  KernelMatmulInt8_910(GM_ADDR a, GM_ADDR bt, GM_ADDR c, GM_ADDR ws, MatmulShape s)
      : s_(s), kp_(round_up(s.k, kK0)), np_(round_up(s.n, kFractal)) {
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(a), uint64_t(s.m) * s.k);
    btGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(bt), uint64_t(s.n) * s.k);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(c), uint64_t(s.m) * s.n);
    auto* w = reinterpret_cast<__gm__ uint8_t*>(ws);
    apGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(w), uint64_t(s.m) * kp_);
    btpGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(w + uint64_t(s.m) * kp_), uint64_t(s.n) * kp_);
    // Kp is a multiple of 32, so Cp starts 32 B aligned.
    cpGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(w + uint64_t(s.m + s.n) * kp_), uint64_t(s.m) * np_);
  }

  void Process() {
    {
      TPipe pipe;
      RowCopier<int8_t> rows(pipe, kp_);
      for (uint32_t i = 0; i < s_.m; ++i) rows.Pad(apGm[uint64_t(i) * kp_], aGm[uint64_t(i) * s_.k], s_.k, kp_);
      for (uint32_t j = 0; j < s_.n; ++j) rows.Pad(btpGm[uint64_t(j) * kp_], btGm[uint64_t(j) * s_.k], s_.k, kp_);
    }
    PipeBarrier<PIPE_ALL>();  // the padded copies are in GM before the cube path reads them
    Cube();
    PipeBarrier<PIPE_ALL>();
    TPipe pipe;
    RowCopier<int32_t> rows(pipe, np_);
    for (uint32_t i = 0; i < s_.m; ++i) rows.Unpad(cGm[uint64_t(i) * s_.n], cpGm[uint64_t(i) * np_], s_.n, np_);
  }

 private:
  void Cube() {
    TPipe pipe;
    pipe.InitBuffer(qA1, kBuffers, kBaseM * kBlockK);
    pipe.InitBuffer(qB1, kBuffers, kBlockK * kBaseN);
    pipe.InitBuffer(qA2, kBuffers, kBaseM * kBlockK);
    pipe.InitBuffer(qB2, kBuffers, kBlockK * kBaseN);
    pipe.InitBuffer(qCO1, kBuffers, kBaseM * kBaseN * sizeof(int32_t));
    pipe.InitBuffer(qCO2, kBuffers, kBaseM * kBaseN * sizeof(int32_t));
    for (uint32_t m0 = 0; m0 < s_.m; m0 += kBaseM) {
      for (uint32_t n0 = 0; n0 < s_.n; n0 += kBaseN) {
        const uint32_t m = std::min(kBaseM, s_.m - m0), n = std::min(kBaseN, s_.n - n0);
        LocalTensor<int32_t> c = qCO1.AllocTensor<int32_t>();
        for (uint32_t k0 = 0; k0 < s_.k; k0 += kBlockK) {
          const uint32_t k = std::min(kBlockK, s_.k - k0);
          LocalTensor<int8_t> a1 = qA1.AllocTensor<int8_t>();
          cube_910::copy_nz_tile(a1, apGm[uint64_t(m0) * kp_ + k0], m, k, kp_);
          qA1.EnQue(a1);
          LocalTensor<int8_t> b1 = qB1.AllocTensor<int8_t>();
          cube_910::copy_nz_tile(b1, btpGm[uint64_t(n0) * kp_ + k0], n, k, kp_);
          qB1.EnQue(b1);
          multiply_int8_from_l1(c, qA1, qB1, qA2, qB2, m, n, k, k0 == 0);
        }
        qCO1.EnQue(c);
        cube_910::drain_l0c_tile<int32_t, int32_t>(qCO1, qCO2, cpGm[uint64_t(m0) * np_ + n0], np_, m, n);
      }
    }
  }

  MatmulShape s_;
  uint32_t kp_, np_;
  TQue<TPosition::A1, kBuffers> qA1;
  TQue<TPosition::B1, kBuffers> qB1;
  TQue<TPosition::A2, kBuffers> qA2;
  TQue<TPosition::B2, kBuffers> qB2;
  TQue<TPosition::CO1, kBuffers> qCO1;
  TQue<TPosition::CO2, kBuffers> qCO2;
  GlobalTensor<int8_t> aGm, btGm, apGm, btpGm;
  GlobalTensor<int32_t> cGm, cpGm;
};
}  // namespace matmul_int8_910_cpp
}  // namespace

uint64_t matmul_int8_910_workspace_bytes(MatmulShape s) {
  // Ap and Btp in s8, Cp in s32, plus one 32 B block of over-read slack.
  return uint64_t(s.m + s.n) * matmul_int8_910_cpp::round_up(s.k, matmul_int8_910_cpp::kK0) + uint64_t(s.m) * matmul_int8_910_cpp::round_up(s.n, matmul_int8_910_cpp::kFractal) * 4 + 64;
}

void matmul_int8_910(GM_ADDR a, GM_ADDR bt, GM_ADDR c, GM_ADDR workspace, MatmulShape shape) {
  matmul_int8_910_cpp::KernelMatmulInt8_910 op(a, bt, c, workspace, shape);
  op.Process();
}

}  // namespace npuvp::kernels
