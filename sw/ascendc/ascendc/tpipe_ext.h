// The rest of the TPipe framework and static tensor programming:
//  - GetTPipePtr(): the core's TPipe (set when it is constructed).
//  - TQueBind<src, dst, depth>: a queue between two positions, with the implicit flags of its
//    producer and consumer pipes (GM->X and X->GM as TQue<X>; VECIN->VECOUT: MTE2 writes the
//    buffer, MTE3 reads it, for copy-through kernels; A1->A2, B1->B2, C1->C2, CO1->CO2 as
//    TQue of the second or CO1). Its memory is at src (dst when src is GM).
//  - TBufPool<pos, bufIDSize>: a region of one memory carved out by TPipe::InitBufPool (or by
//    another pool), optionally sharing another pool's memory; queues and buffers are then
//    initialised from the pool. Reset() waits for the pool's pending frees, so a pool sharing
//    its memory can be used next.
//  - LocalMemAllocator<Hardware>: hands out LocalTensors from address 0 of one memory, in
//    order, without queues (the kernel writes its own flags).
//  - InitSocState(): atomics off, vector mask normal mode and all ones.
// References (the Ascend C devkit, docs/zh/api/SIMD-API/基础API/): 资源管理/Pipe和Que框架/
// (GetTPipePtr.md, TPipe/FetchEventID.md, AllocEventID.md, ReleaseEventID.md, InitBufPool.md,
// TQueBind/, TBufPool/), 资源管理/内存管理/LocalMemAllocator/, 工具接口/系统初始化/InitSocState.md.
#pragma once
#include <cstdint>
#include <optional>
#include <utility>
#include "sw/ascendc/ascendc/pipe.h"

namespace npuvp::ascendc {
// The pipes of a TQueBind<src, dst> and the position its memory is at; raises for a pair not modelled.
std::pair<std::optional<std::pair<aicore::Pipe, aicore::Pipe>>, AscendC::TPosition> bind_pipes(AscendC::TPosition src,
                                                                                                AscendC::TPosition dst);
// A pool's byte range inside its memory, checked against what it has left.
uint64_t pool_take(const char* api, AscendC::TPosition pos, uint64_t base, uint64_t size, uint64_t& used, uint64_t len);
void pool_share_check(const char* api, AscendC::TPosition pos, AscendC::TPosition share_pos, uint64_t len,
                      uint64_t share_size);
// LocalMemAllocator: the next `bytes` of memory `space` from `cursor` on (32 B aligned).
uint64_t allocator_take(aicore::MemSpace memory, aicore::MemSpace wanted, uint64_t& cursor, uint64_t bytes,
                        const char* api);
void init_soc_state();
aicore::Product current_product();
[[noreturn]] void pool_fail(const char* api, const char* why);
}  // namespace npuvp::ascendc

namespace AscendC {

TPipe* GetTPipePtr();
inline void InitSocState() { npuvp::ascendc::init_soc_state(); }

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
 public:
  static constexpr TPosition position() { return src == TPosition::GM ? dst : src; }
  template <class T>
  LocalTensor<T> AllocTensor() {
    int b = state_.alloc("TQueBind::AllocTensor");
    return LocalTensor<T>(position(), state_.address(b), state_.length() / sizeof(T), b);
  }
  template <class T>
  bool EnQue(const LocalTensor<T>& tensor) {
    state_.enque(tensor.buffer_id(), "TQueBind::EnQue");
    return true;
  }
  template <class T>
  LocalTensor<T> DeQue() {
    int b = state_.deque("TQueBind::DeQue");
    return LocalTensor<T>(position(), state_.address(b), state_.length() / sizeof(T), b);
  }
  template <class T>
  void FreeTensor(LocalTensor<T>& tensor) {
    state_.free(tensor.buffer_id(), "TQueBind::FreeTensor");
  }
  bool HasTensorInQue() const { return state_.has_queued(); }

  // TPipe::InitBuffer(que, num, len): memory from the pipe.
  void init_from(TPipe& pipe, uint8_t num, uint32_t len) {
    const uint64_t slot = (uint64_t(len) + 31) / 32 * 32;
    const uint64_t base = num >= 1 && len > 0 ? pipe.allocate(position(), slot * num, "TPipe::InitBuffer") : 0;
    init_at(pipe, num, len, base, "TPipe::InitBuffer");
  }
  void init_at(TPipe& pipe, uint8_t num, uint32_t len, uint64_t base, const char* api) {
    pipe.init_queue_in(state_, position(), depth, num, len, base, npuvp::ascendc::bind_pipes(src, dst).first, api);
  }
  npuvp::ascendc::QueueState& state() { return state_; }

 private:
  npuvp::ascendc::QueueState state_;
};

template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool {
 public:
  static constexpr TPosition position() { return pos; }

  // A queue or a buffer from this pool's memory.
  template <TPosition qpos, int32_t depth>
  bool InitBuffer(TQue<qpos, depth>& que, uint8_t num, uint32_t len) {
    check_same_memory(qpos);
    const uint64_t base = take(queue_bytes(num, len), "TBufPool::InitBuffer");
    pipe_->init_queue_in(que.state(), qpos, depth, num, len, base,
                         npuvp::ascendc::queue_pipes(qpos, npuvp::ascendc::current_product()), "TBufPool::InitBuffer");
    remember(que.state());
    return true;
  }
  template <TPosition s, TPosition d, int32_t depth, auto m>
  bool InitBuffer(TQueBind<s, d, depth, m>& que, uint8_t num, uint32_t len) {
    check_same_memory(que.position());
    que.init_at(*pipe_, num, len, take(queue_bytes(num, len), "TBufPool::InitBuffer"), "TBufPool::InitBuffer");
    remember(que.state());
    return true;
  }
  template <TPosition bpos>
  bool InitBuffer(TBuf<bpos>& buf, uint32_t len) {
    check_same_memory(bpos);
    buf.init(take(len, "TBufPool::InitBuffer"), len);
    return true;
  }
  // A smaller pool inside this one, or one sharing `share`'s memory.
  template <class P>
  bool InitBufPool(P& pool, uint32_t len) {
    check_same_memory(P::position());
    const uint32_t aligned = (len + 31) / 32 * 32;
    pool.init_pool(pipe_, take(aligned, "TBufPool::InitBufPool"), aligned);
    return true;
  }
  template <class P, class S>
  bool InitBufPool(P& pool, uint32_t len, S& share) {
    pool.init_shared(pipe_, len, share, "TBufPool::InitBufPool");
    return true;
  }
  // Ends the pool's pending events (its queues' frees), keeping its buffers.
  void Reset() {
    for (uint32_t i = 0; i < queue_count_; ++i) queues_[i]->drain();
  }

  // ---- set up by TPipe::InitBufPool / TBufPool::InitBufPool
  void init_pool(TPipe* pipe, uint64_t base, uint64_t size) {
    pipe_ = pipe;
    base_ = base;
    size_ = size;
    used_ = 0;
    queue_count_ = 0;
  }
  template <class S>
  void init_shared(TPipe* pipe, uint32_t len, S& share, const char* api) {
    npuvp::ascendc::pool_share_check(api, pos, S::position(), len, share.size());
    init_pool(pipe, share.base(), (len + 31) / 32 * 32);
  }
  uint64_t base() const { return base_; }
  uint64_t size() const { return size_; }

 private:
  static uint64_t queue_bytes(uint8_t num, uint32_t len) { return (uint64_t(len) + 31) / 32 * 32 * num; }
  uint64_t take(uint64_t len, const char* api) {
    return npuvp::ascendc::pool_take(api, pos, base_, size_, used_, len);
  }
  void check_same_memory(TPosition other) const {
    if (npuvp::ascendc::position_space(other) != npuvp::ascendc::position_space(pos)) {
      npuvp::ascendc::pool_share_check("TBufPool::InitBuffer", pos, other, 0, size_);
    }
  }
  void remember(npuvp::ascendc::QueueState& q) {
    if (queue_count_ >= bufIDSize) npuvp::ascendc::pool_fail("TBufPool::InitBuffer", "more queues than the pool's bufIDSize");
    queues_[queue_count_++] = &q;
  }

  TPipe* pipe_ = nullptr;
  uint64_t base_ = 0, size_ = 0, used_ = 0;
  npuvp::ascendc::QueueState* queues_[bufIDSize] = {};
  uint32_t queue_count_ = 0;
};

enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
 public:
  static constexpr TPosition default_position() {
    switch (hard) {
      case Hardware::L1: return TPosition::A1;
      case Hardware::L0A: return TPosition::A2;
      case Hardware::L0B: return TPosition::B2;
      case Hardware::L0C: return TPosition::CO1;
      case Hardware::BIAS: return TPosition::C2;
      case Hardware::FIXBUF: return TPosition::C2PIPE2GM;
      default: return TPosition::VECCALC;
    }
  }
  static_assert(hard != Hardware::GM && hard != Hardware::MAX, "LocalMemAllocator works on a local memory");

  template <class DataType, uint32_t tileSize>
  LocalTensor<DataType> Alloc() { return Alloc<default_position(), DataType>(tileSize); }
  template <TPosition pos, class DataType, uint32_t tileSize>
  LocalTensor<DataType> Alloc() { return Alloc<pos, DataType>(tileSize); }
  template <class DataType>
  LocalTensor<DataType> Alloc(uint32_t tileSize) { return Alloc<default_position(), DataType>(tileSize); }
  template <TPosition pos, class DataType>
  LocalTensor<DataType> Alloc(uint32_t tileSize) {
    const uint64_t addr = npuvp::ascendc::allocator_take(npuvp::ascendc::position_space(default_position()),
                                                         npuvp::ascendc::position_space(pos), cursor_,
                                                         uint64_t(tileSize) * sizeof(DataType), "LocalMemAllocator::Alloc");
    return LocalTensor<DataType>(pos, addr, tileSize);
  }
  uint32_t GetCurAddr() const { return static_cast<uint32_t>(cursor_); }

 private:
  uint64_t cursor_ = 0;
};

}  // namespace AscendC
