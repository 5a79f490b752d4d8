// The classic Ascend C vector kernel shape: each block takes its slice of the input, splits
// it into tiles, and double-buffers the tiles through VECIN/VECOUT queues so that MTE2
// (copy in), V (compute) and MTE3 (copy out) overlap.
#pragma once
#include "kernel_operator.h"

namespace npuvp::kernels {

using namespace AscendC;

// Compute is a callable (LocalTensor<T> z, LocalTensor<T> x, LocalTensor<T> y, int32_t n)
// that issues the vector instruction(s) of the kernel. Unary kernels ignore y. Buffers is
// 2 (double buffering) in every sample; 1 exists to show what double buffering buys.
template <class T, int Inputs, class ComputeOp, int32_t Buffers = 2>
class KernelElementwise {
 public:
  static constexpr int32_t kBufferNum = Buffers;

  KernelElementwise(ComputeOp compute, int32_t block_length, int32_t tile_num)
      : compute_(compute), block_length_(block_length), tile_num_(tile_num),
        tile_length_(block_length / tile_num / kBufferNum) {}

  void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    const int64_t offset = int64_t(block_length_) * GetBlockIdx();
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + offset, block_length_);
    if (Inputs == 2) yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + offset, block_length_);
    zGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z) + offset, block_length_);
    pipe.InitBuffer(inQueueX, kBufferNum, tile_length_ * sizeof(T));
    if (Inputs == 2) pipe.InitBuffer(inQueueY, kBufferNum, tile_length_ * sizeof(T));
    pipe.InitBuffer(outQueueZ, kBufferNum, tile_length_ * sizeof(T));
  }

  void Process() {
    const int32_t loops = tile_num_ * kBufferNum;
    for (int32_t i = 0; i < loops; ++i) {
      CopyIn(i);
      Compute(i);
      CopyOut(i);
    }
  }

 private:
  void CopyIn(int32_t progress) {
    LocalTensor<T> xLocal = inQueueX.template AllocTensor<T>();
    DataCopy(xLocal, xGm[progress * tile_length_], tile_length_);
    inQueueX.EnQue(xLocal);
    if (Inputs == 2) {
      LocalTensor<T> yLocal = inQueueY.template AllocTensor<T>();
      DataCopy(yLocal, yGm[progress * tile_length_], tile_length_);
      inQueueY.EnQue(yLocal);
    }
  }

  void Compute(int32_t) {
    LocalTensor<T> xLocal = inQueueX.template DeQue<T>();
    LocalTensor<T> yLocal = xLocal;
    if (Inputs == 2) yLocal = inQueueY.template DeQue<T>();
    LocalTensor<T> zLocal = outQueueZ.template AllocTensor<T>();
    compute_(zLocal, xLocal, yLocal, tile_length_);
    outQueueZ.EnQue(zLocal);
    inQueueX.FreeTensor(xLocal);
    if (Inputs == 2) inQueueY.FreeTensor(yLocal);
  }

  void CopyOut(int32_t progress) {
    LocalTensor<T> zLocal = outQueueZ.template DeQue<T>();
    DataCopy(zGm[progress * tile_length_], zLocal, tile_length_);
    outQueueZ.FreeTensor(zLocal);
  }

  ComputeOp compute_;
  int32_t block_length_, tile_num_, tile_length_;
  TPipe pipe;
  TQue<QuePosition::VECIN, kBufferNum> inQueueX, inQueueY;
  TQue<QuePosition::VECOUT, kBufferNum> outQueueZ;
  GlobalTensor<T> xGm, yGm, zGm;
};

}  // namespace npuvp::kernels
