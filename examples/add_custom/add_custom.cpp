// add_custom: z = x + y over half-precision vectors, written as an Ascend C vector kernel.
//
// The input is split evenly over USE_CORE_NUM blocks. Each block walks its slice in
// TILE_NUM * BUFFER_NUM tiles; with two buffers per queue, the copy-in of one tile (MTE2),
// the addition of the previous one (V) and the copy-out of the one before (MTE3) overlap.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t TOTAL_LENGTH = 8 * 2048;                            // elements in x, y and z
constexpr int32_t USE_CORE_NUM = 8;                                   // blocks the kernel runs on
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;         // elements per block
constexpr int32_t TILE_NUM = 8;                                       // tiles per block and buffer
constexpr int32_t BUFFER_NUM = 2;                                     // double buffering
constexpr int32_t TILE_LENGTH = BLOCK_LENGTH / TILE_NUM / BUFFER_NUM;  // elements per tile

class KernelAdd {
 public:
  __aicore__ inline KernelAdd() {}

  // Points the global tensors at this block's slice and carves the queues out of UB.
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    const int64_t start = BLOCK_LENGTH * GetBlockIdx();
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + start, BLOCK_LENGTH);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y) + start, BLOCK_LENGTH);
    zGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z) + start, BLOCK_LENGTH);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(half));
  }

  __aicore__ inline void Process() {
    const int32_t tiles = TILE_NUM * BUFFER_NUM;
    for (int32_t tile = 0; tile < tiles; ++tile) {
      CopyIn(tile);
      Compute(tile);
      CopyOut(tile);
    }
  }

 private:
  // GM -> UB (MTE2): one tile of x and one of y into the VECIN queues.
  __aicore__ inline void CopyIn(int32_t tile) {
    LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
    LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
    DataCopy(xLocal, xGm[tile * TILE_LENGTH], TILE_LENGTH);
    DataCopy(yLocal, yGm[tile * TILE_LENGTH], TILE_LENGTH);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }

  // UB -> UB (V): z = x + y, the result into the VECOUT queue.
  __aicore__ inline void Compute(int32_t) {
    LocalTensor<half> xLocal = inQueueX.DeQue<half>();
    LocalTensor<half> yLocal = inQueueY.DeQue<half>();
    LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
    Add(zLocal, xLocal, yLocal, TILE_LENGTH);
    outQueueZ.EnQue<half>(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }

  // UB -> GM (MTE3): the tile of z back to global memory.
  __aicore__ inline void CopyOut(int32_t tile) {
    LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
    DataCopy(zGm[tile * TILE_LENGTH], zLocal, TILE_LENGTH);
    outQueueZ.FreeTensor(zLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  GlobalTensor<half> xGm, yGm, zGm;
};

// The kernel entry point: every block runs this with its own GetBlockIdx().
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelAdd op;
  op.Init(x, y, z);
  op.Process();
}
