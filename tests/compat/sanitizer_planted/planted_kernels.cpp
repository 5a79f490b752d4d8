// Ten vector kernels a user might write, each z = f(x, y) on float vectors of kBlocks
// slices: eight carry one planted bug each (the kind the sanitizer must report in brackets),
// two are correct double-buffered kernels the sanitizer must leave silent.
//   planted_no_enque       a tile read by Add while MTE2 may still fill it: the tensors go
//                          from AllocTensor straight to Add, without EnQue/DeQue    [race]
//   planted_early_free     inputs freed before the Add that reads them, so a later copy
//                          may refill the buffer while V still reads it              [race]
//   planted_stencil_tail   z[i] = x[i] + x[i + 8]: the last tile reads 8 floats past
//                          the host's allocation                             [out-of-bounds]
//   planted_no_init        a running sum whose accumulator is never zeroed   [uninitialized]
//   planted_shared_output  every block writes its result to the first slice of z [race]
//   planted_wrong_barrier  hand-written: a PipeBarrier<PIPE_V> where the copy needs an
//                          MTE2 -> V flag                                          [race]
//   planted_pingpong_no_wait  hand-written ping-pong whose copies never wait for V to
//                          finish with the slot they refill                       [race]
//   planted_overlap_block  each block's output reaches one 32-byte block into its
//                          neighbour's slice                                       [race]
//   correct_queues         z = 2x + y, TQue with two buffers per queue
//   correct_flags          z = 2x + y, two UB slots per tensor ordered by hand-written
//                          SetFlag/WaitFlag
#include "kernel_operator.h"

namespace {
constexpr uint32_t kBlocks = 4;
constexpr uint32_t kPerBlock = 2048;  // floats per block
constexpr uint32_t kTile = 256;       // floats per tile (1 KiB)
constexpr uint32_t kTiles = kPerBlock / kTile;
constexpr uint32_t kHalo = 8;  // the stencil's reach, one 32-byte block
}  // namespace

// The queue-based kernels' common shape: x, y in, z out, `buffers` buffers per queue.
class QueueKernel {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, int32_t buffers, uint32_t in_elems,
                              bool offset_z = true) {
    const uint32_t at = kPerBlock * AscendC::GetBlockIdx();
    x_.SetGlobalBuffer((__gm__ float*)x + at, kPerBlock);
    y_.SetGlobalBuffer((__gm__ float*)y + at, kPerBlock);
    z_.SetGlobalBuffer((__gm__ float*)z + (offset_z ? at : 0), kPerBlock);
    pipe_.InitBuffer(in_x_, buffers, in_elems * sizeof(float));
    pipe_.InitBuffer(in_y_, buffers, kTile * sizeof(float));
    pipe_.InitBuffer(out_z_, buffers, kTile * sizeof(float));
  }
  __aicore__ inline void Store(uint32_t t) {
    AscendC::LocalTensor<float> z = out_z_.DeQue<float>();
    AscendC::DataCopy(z_[t * kTile], z, kTile);
    out_z_.FreeTensor(z);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::QuePosition::VECIN, 2> in_x_, in_y_;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 2> out_z_;
  AscendC::GlobalTensor<float> x_, y_, z_;
};

extern "C" __global__ __aicore__ void planted_no_enque(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  QueueKernel k;
  k.Init(x, y, z, 1, kTile);
  for (uint32_t t = 0; t < kTiles; ++t) {
    AscendC::LocalTensor<float> xl = k.in_x_.AllocTensor<float>();
    AscendC::LocalTensor<float> yl = k.in_y_.AllocTensor<float>();
    AscendC::DataCopy(xl, k.x_[t * kTile], kTile);
    AscendC::DataCopy(yl, k.y_[t * kTile], kTile);
    // BUG: no EnQue/DeQue between the copies and their reader.
    AscendC::LocalTensor<float> zl = k.out_z_.AllocTensor<float>();
    AscendC::Add(zl, xl, yl, kTile);
    k.out_z_.EnQue(zl);
    k.in_x_.FreeTensor(xl);
    k.in_y_.FreeTensor(yl);
    k.Store(t);
  }
}

extern "C" __global__ __aicore__ void planted_early_free(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  QueueKernel k;
  k.Init(x, y, z, 2, kTile);
  for (uint32_t t = 0; t < kTiles; ++t) {
    AscendC::LocalTensor<float> xl = k.in_x_.AllocTensor<float>();
    AscendC::LocalTensor<float> yl = k.in_y_.AllocTensor<float>();
    AscendC::DataCopy(xl, k.x_[t * kTile], kTile);
    AscendC::DataCopy(yl, k.y_[t * kTile], kTile);
    k.in_x_.EnQue(xl);
    k.in_y_.EnQue(yl);
    xl = k.in_x_.DeQue<float>();
    yl = k.in_y_.DeQue<float>();
    // BUG: the buffers go back to MTE2 before the Add below has read them.
    k.in_x_.FreeTensor(xl);
    k.in_y_.FreeTensor(yl);
    AscendC::LocalTensor<float> zl = k.out_z_.AllocTensor<float>();
    AscendC::Add(zl, xl, yl, kTile);
    k.out_z_.EnQue(zl);
    k.Store(t);
  }
}

extern "C" __global__ __aicore__ void planted_stencil_tail(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  (void)y;
  QueueKernel k;
  k.Init(x, y, z, 2, kTile + kHalo);
  for (uint32_t t = 0; t < kTiles; ++t) {
    AscendC::LocalTensor<float> xl = k.in_x_.AllocTensor<float>();
    // BUG: the last block's last tile reaches kHalo floats past the end of x.
    AscendC::DataCopy(xl, k.x_[t * kTile], kTile + kHalo);
    k.in_x_.EnQue(xl);
    xl = k.in_x_.DeQue<float>();
    AscendC::LocalTensor<float> zl = k.out_z_.AllocTensor<float>();
    AscendC::Add(zl, xl, xl[kHalo], kTile);
    k.out_z_.EnQue(zl);
    k.in_x_.FreeTensor(xl);
    k.Store(t);
  }
}

extern "C" __global__ __aicore__ void planted_no_init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  QueueKernel k;
  k.Init(x, y, z, 2, kTile);
  AscendC::TBuf<AscendC::TPosition::VECCALC> sum_buf;
  k.pipe_.InitBuffer(sum_buf, kTile * sizeof(float));
  AscendC::LocalTensor<float> sum = sum_buf.Get<float>();
  // BUG: no Duplicate(sum, 0.0f, kTile) before the first Add into it.
  for (uint32_t t = 0; t < kTiles; ++t) {
    AscendC::LocalTensor<float> xl = k.in_x_.AllocTensor<float>();
    AscendC::DataCopy(xl, k.x_[t * kTile], kTile);
    k.in_x_.EnQue(xl);
    xl = k.in_x_.DeQue<float>();
    AscendC::Add(sum, sum, xl, kTile);
    k.in_x_.FreeTensor(xl);
  }
  AscendC::LocalTensor<float> zl = k.out_z_.AllocTensor<float>();
  AscendC::Adds(zl, sum, 0.0f, kTile);
  k.out_z_.EnQue(zl);
  k.Store(0);
}

// z = 2x + y through queues; `offset_z` false is planted_shared_output's bug.
__aicore__ inline void two_x_plus_y(GM_ADDR x, GM_ADDR y, GM_ADDR z, bool offset_z) {
  QueueKernel k;
  k.Init(x, y, z, 2, kTile, offset_z);
  for (uint32_t t = 0; t < kTiles; ++t) {
    AscendC::LocalTensor<float> xl = k.in_x_.AllocTensor<float>();
    AscendC::LocalTensor<float> yl = k.in_y_.AllocTensor<float>();
    AscendC::DataCopy(xl, k.x_[t * kTile], kTile);
    AscendC::DataCopy(yl, k.y_[t * kTile], kTile);
    k.in_x_.EnQue(xl);
    k.in_y_.EnQue(yl);
    xl = k.in_x_.DeQue<float>();
    yl = k.in_y_.DeQue<float>();
    AscendC::LocalTensor<float> zl = k.out_z_.AllocTensor<float>();
    AscendC::Muls(zl, xl, 2.0f, kTile);
    AscendC::Add(zl, zl, yl, kTile);
    k.out_z_.EnQue(zl);
    k.in_x_.FreeTensor(xl);
    k.in_y_.FreeTensor(yl);
    k.Store(t);
  }
}

extern "C" __global__ __aicore__ void planted_shared_output(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  // BUG: z is not offset by the block: every block writes z[0, kPerBlock).
  two_x_plus_y(x, y, z, false);
}

extern "C" __global__ __aicore__ void correct_queues(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  two_x_plus_y(x, y, z, true);
}

extern "C" __global__ __aicore__ void correct_flags(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  const uint32_t at = kPerBlock * AscendC::GetBlockIdx();
  AscendC::GlobalTensor<float> xg, yg, zg;
  xg.SetGlobalBuffer((__gm__ float*)x + at, kPerBlock);
  yg.SetGlobalBuffer((__gm__ float*)y + at, kPerBlock);
  zg.SetGlobalBuffer((__gm__ float*)z + at, kPerBlock);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> xb, yb, zb;
  pipe.InitBuffer(xb, 2 * kTile * sizeof(float));
  pipe.InitBuffer(yb, 2 * kTile * sizeof(float));
  pipe.InitBuffer(zb, 2 * kTile * sizeof(float));
  // Slot s of each buffer uses event id s of every flag.
  for (uint32_t t = 0; t < kTiles; ++t) {
    const uint32_t s = t % 2;
    const auto id = static_cast<event_t>(s);
    AscendC::LocalTensor<float> xl = xb.Get<float>()[s * kTile];
    AscendC::LocalTensor<float> yl = yb.Get<float>()[s * kTile];
    AscendC::LocalTensor<float> zl = zb.Get<float>()[s * kTile];
    if (t >= 2) AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(id);  // V is done with tile t - 2's inputs
    AscendC::DataCopy(xl, xg[t * kTile], kTile);
    AscendC::DataCopy(yl, yg[t * kTile], kTile);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(id);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(id);
    if (t >= 2) AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(id);  // MTE3 has stored tile t - 2
    AscendC::Muls(zl, xl, 2.0f, kTile);
    AscendC::Add(zl, zl, yl, kTile);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(id);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(id);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(id);
    AscendC::DataCopy(zg[t * kTile], zl, kTile);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(id);
  }
  // The last two tiles' flags: wait them so none is left set when the kernel ends.
  for (uint32_t t = kTiles - 2; t < kTiles; ++t) {
    const auto id = static_cast<event_t>(t % 2);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(id);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(id);
  }
}

extern "C" __global__ __aicore__ void planted_wrong_barrier(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  (void)y;
  const uint32_t at = kPerBlock * AscendC::GetBlockIdx();
  AscendC::GlobalTensor<float> xg, zg;
  xg.SetGlobalBuffer((__gm__ float*)x + at, kPerBlock);
  zg.SetGlobalBuffer((__gm__ float*)z + at, kPerBlock);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kTile * sizeof(float));
  AscendC::LocalTensor<float> l = buf.Get<float>();
  for (uint32_t t = 0; t < kTiles; ++t) {
    AscendC::DataCopy(l, xg[t * kTile], kTile);
    AscendC::PipeBarrier<PIPE_V>();  // BUG: orders V after V, not after the copy
    AscendC::Muls(l, l, 2.0f, kTile);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zg[t * kTile], l, kTile);
    AscendC::PipeBarrier<PIPE_ALL>();
  }
}

extern "C" __global__ __aicore__ void planted_pingpong_no_wait(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  (void)y;
  const uint32_t at = kPerBlock * AscendC::GetBlockIdx();
  AscendC::GlobalTensor<float> xg, zg;
  xg.SetGlobalBuffer((__gm__ float*)x + at, kPerBlock);
  zg.SetGlobalBuffer((__gm__ float*)z + at, kPerBlock);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> xb, zb;
  pipe.InitBuffer(xb, 2 * kTile * sizeof(float));
  pipe.InitBuffer(zb, 2 * kTile * sizeof(float));
  for (uint32_t t = 0; t < kTiles; ++t) {
    const uint32_t s = t % 2;
    const auto id = static_cast<event_t>(s);
    AscendC::LocalTensor<float> xl = xb.Get<float>()[s * kTile];
    AscendC::LocalTensor<float> zl = zb.Get<float>()[s * kTile];
    // BUG: no WaitFlag<V_MTE2> here: tile t - 2's Muls may still read this slot.
    AscendC::DataCopy(xl, xg[t * kTile], kTile);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(id);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(id);
    if (t >= 2) AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(id);
    AscendC::Muls(zl, xl, 2.0f, kTile);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(id);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(id);
    AscendC::DataCopy(zg[t * kTile], zl, kTile);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(id);
  }
  for (uint32_t t = kTiles - 2; t < kTiles; ++t) {
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(static_cast<event_t>(t % 2));
  }
}

extern "C" __global__ __aicore__ void planted_overlap_block(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  (void)y;
  const uint32_t block = AscendC::GetBlockIdx();
  if (block + 1 == kBlocks) return;  // the last block stays out: its overlap would leave z
  AscendC::GlobalTensor<float> xg, zg;
  xg.SetGlobalBuffer((__gm__ float*)x + kPerBlock * block, kPerBlock + kHalo);
  zg.SetGlobalBuffer((__gm__ float*)z + kPerBlock * block, kPerBlock + kHalo);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, (kPerBlock + kHalo) * sizeof(float));
  AscendC::LocalTensor<float> l = buf.Get<float>();
  AscendC::DataCopy(l, xg, kPerBlock + kHalo);  // x has the room: the last block stays out
  AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
  // BUG: kPerBlock + kHalo floats out: the first 32 bytes of the next block's slice.
  AscendC::DataCopy(zg, l, kPerBlock + kHalo);
}
