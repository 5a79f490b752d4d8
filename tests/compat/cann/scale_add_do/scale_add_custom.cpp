// scale_add_custom: z = x * scale + y on half vectors, the work split as the host's tiling
// says. Launched through the older wrapper form, scale_add_do, with the <<<>>> syntax.
#include "kernel_operator.h"
#include "scale_add_tiling.h"

using namespace AscendC;

class ScaleAdd {
 public:
  __aicore__ inline ScaleAdd() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const ScaleAddTiling& tiling) {
    perBlock_ = tiling.totalLength / GetBlockNum();
    tile_ = tiling.tileLength;
    scale_ = static_cast<half>(tiling.scale);
    const uint32_t first = perBlock_ * GetBlockIdx();
    xGm_.SetGlobalBuffer((__gm__ half*)x + first, perBlock_);
    yGm_.SetGlobalBuffer((__gm__ half*)y + first, perBlock_);
    zGm_.SetGlobalBuffer((__gm__ half*)z + first, perBlock_);
    pipe_.InitBuffer(inX_, 2, tile_ * sizeof(half));
    pipe_.InitBuffer(inY_, 2, tile_ * sizeof(half));
    pipe_.InitBuffer(outZ_, 2, tile_ * sizeof(half));
  }
  __aicore__ inline void Process() {
    const uint32_t tiles = perBlock_ / tile_;
    for (uint32_t t = 0; t < tiles; t++) {
      CopyIn(t);
      Compute();
      CopyOut(t);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t t) {
    LocalTensor<half> x = inX_.AllocTensor<half>();
    LocalTensor<half> y = inY_.AllocTensor<half>();
    DataCopy(x, xGm_[t * tile_], tile_);
    DataCopy(y, yGm_[t * tile_], tile_);
    inX_.EnQue(x);
    inY_.EnQue(y);
  }
  __aicore__ inline void Compute() {
    LocalTensor<half> x = inX_.DeQue<half>();
    LocalTensor<half> y = inY_.DeQue<half>();
    LocalTensor<half> z = outZ_.AllocTensor<half>();
    Muls(x, x, scale_, tile_);  // x * scale, in place
    PipeBarrier<PIPE_V>();
    Add(z, x, y, tile_);
    outZ_.EnQue<half>(z);
    inX_.FreeTensor(x);
    inY_.FreeTensor(y);
  }
  __aicore__ inline void CopyOut(uint32_t t) {
    LocalTensor<half> z = outZ_.DeQue<half>();
    DataCopy(zGm_[t * tile_], z, tile_);
    outZ_.FreeTensor(z);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, 2> inX_, inY_;
  TQue<QuePosition::VECOUT, 2> outZ_;
  GlobalTensor<half> xGm_, yGm_, zGm_;
  uint32_t perBlock_ = 0;
  uint32_t tile_ = 0;
  half scale_;
};

extern "C" __global__ __aicore__ void scale_add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, ScaleAddTiling tiling)
{
    ScaleAdd op;
    op.Init(x, y, z, tiling);
    op.Process();
}

#ifndef __CCE_KT_TEST__
// The host's entry point on the device route: blockDim blocks on `stream`.
void scale_add_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x, uint8_t* y, uint8_t* z,
                  ScaleAddTiling tiling)
{
    scale_add_custom<<<blockDim, l2ctrl, stream>>>(
        x, y, z,   // GM buffers
        tiling);   /* by value */
}
#endif
