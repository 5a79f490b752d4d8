// vadd_custom: z = x + y on half vectors. Each of the 8 blocks owns a contiguous slice and
// streams it through UB in tiles, two buffers per queue so copies and additions overlap.
#include "kernel_operator.h"

namespace {
constexpr uint32_t kTotal = 8 * 4096;  // elements of x, y and z
constexpr uint32_t kBlocks = 8;
constexpr uint32_t kPerBlock = kTotal / kBlocks;
constexpr uint32_t kTile = 512;  // elements per tile
constexpr int32_t kBuffers = 2;
}  // namespace

class VaddKernel {
 public:
  __aicore__ inline VaddKernel() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    const uint32_t offset = kPerBlock * AscendC::GetBlockIdx();
    x_.SetGlobalBuffer((__gm__ half*)x + offset, kPerBlock);
    y_.SetGlobalBuffer((__gm__ half*)y + offset, kPerBlock);
    z_.SetGlobalBuffer((__gm__ half*)z + offset, kPerBlock);
    pipe_.InitBuffer(in_x_, kBuffers, kTile * sizeof(half));
    pipe_.InitBuffer(in_y_, kBuffers, kTile * sizeof(half));
    pipe_.InitBuffer(out_z_, kBuffers, kTile * sizeof(half));
  }
  __aicore__ inline void Run() {
    for (uint32_t t = 0; t < kPerBlock / kTile; ++t) {
      Load(t);
      Add();
      Store(t);
    }
  }

 private:
  __aicore__ inline void Load(uint32_t t) {
    AscendC::LocalTensor<half> x = in_x_.AllocTensor<half>();
    AscendC::LocalTensor<half> y = in_y_.AllocTensor<half>();
    AscendC::DataCopy(x, x_[t * kTile], kTile);
    AscendC::DataCopy(y, y_[t * kTile], kTile);
    in_x_.EnQue(x);
    in_y_.EnQue(y);
  }
  __aicore__ inline void Add() {
    AscendC::LocalTensor<half> x = in_x_.DeQue<half>();
    AscendC::LocalTensor<half> y = in_y_.DeQue<half>();
    AscendC::LocalTensor<half> z = out_z_.AllocTensor<half>();
    AscendC::Add(z, x, y, kTile);
    out_z_.EnQue<half>(z);
    in_x_.FreeTensor(x);
    in_y_.FreeTensor(y);
  }
  __aicore__ inline void Store(uint32_t t) {
    AscendC::LocalTensor<half> z = out_z_.DeQue<half>();
    AscendC::DataCopy(z_[t * kTile], z, kTile);
    out_z_.FreeTensor(z);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::QuePosition::VECIN, kBuffers> in_x_, in_y_;
  AscendC::TQue<AscendC::QuePosition::VECOUT, kBuffers> out_z_;
  AscendC::GlobalTensor<half> x_, y_, z_;
};

extern "C" __global__ __aicore__ void vadd_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  VaddKernel op;
  op.Init(x, y, z);
  op.Run();
}
