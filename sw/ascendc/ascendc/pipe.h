// TPipe, TQue and TBuf: buffer management with the implicit flags the hardware needs.
//
// A queue between a producer pipe and a consumer pipe (VECIN: MTE2 -> V, VECOUT: V -> MTE3)
// gives every buffer its own event id for each direction, and emits:
//   AllocTensor  WaitFlag<consumer_producer>(id) if the consumer freed this buffer before
//   EnQue        SetFlag<producer_consumer>(id)
//   DeQue        WaitFlag<producer_consumer>(id)
//   FreeTensor   SetFlag<consumer_producer>(id)
// so data is never read before it is written, nor overwritten before it is read.
#pragma once
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>
#include <vector>
#include "sw/ascendc/ascendc/tensor.h"
#include "models/aicore/product.h"

namespace AscendC {
class TPipe;
}

namespace npuvp::ascendc {

// The current core's TPipe, for GetTPipePtr (the last one constructed and still alive).
void register_pipe(AscendC::TPipe* pipe);
void unregister_pipe(AscendC::TPipe* pipe);

// The producer and consumer pipes of a queue at `pos`, or nothing (no implicit flags).
std::optional<std::pair<aicore::Pipe, aicore::Pipe>> queue_pipes(AscendC::TPosition pos, aicore::Product product);

class QueueState {
 public:
  void init(AscendC::TPosition pos, unsigned depth, uint8_t num, uint32_t len, uint64_t base);
  void set_ids(int buffer, uint32_t producer_consumer_id, uint32_t consumer_producer_id) {
    buffers_[buffer].pc_id = producer_consumer_id;
    buffers_[buffer].cp_id = consumer_producer_id;
  }
  // Returns the buffer index, emitting the flags described above.
  int alloc(const char* api);
  void enque(int buffer, const char* api);
  int deque(const char* api);
  void free(int buffer, const char* api);
  uint64_t address(int buffer) const { return base_ + uint64_t(buffer) * len_; }
  uint32_t length() const { return len_; }
  AscendC::TPosition position() const { return pos_; }
  bool has_queued() const { return !queued_.empty(); }
  // The pipes whose flags guard the buffers, when not those of position() (TQueBind).
  void set_pipes(std::optional<std::pair<aicore::Pipe, aicore::Pipe>> pipes);
  // Waits for the consumer's pending frees (TBufPool::Reset: the pool's memory may be reused).
  void drain();

 private:
  struct Buffer {
    bool in_use = false;
    bool freed_by_consumer = false;  // a consumer->producer flag is pending for it
    uint32_t pc_id = 0, cp_id = 0;   // event ids for the two directions
  };
  AscendC::TPosition pos_ = AscendC::TPosition::VECCALC;
  aicore::Pipe producer_ = aicore::Pipe::V, consumer_ = aicore::Pipe::V;
  bool synchronised_ = false;
  uint64_t base_ = 0;
  uint32_t len_ = 0;
  unsigned depth_ = 0;
  std::vector<Buffer> buffers_;
  std::deque<int> queued_;
  unsigned next_ = 0;
};

}  // namespace npuvp::ascendc

namespace AscendC {

template <TPosition pos, int32_t depth>
class TQue;
class TBuf_base;

class TPipe {
 public:
  TPipe();
  ~TPipe();
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  template <TPosition pos, int32_t depth>
  bool InitBuffer(TQue<pos, depth>& que, uint8_t num, uint32_t len) {
    init_queue(que.state_, pos, depth, num, len);
    return true;
  }
  template <class B>
  bool InitBuffer(B& buf, uint32_t len) {
    buf.init(allocate(buf.position(), len, "InitBuffer(TBuf)"), len);
    return true;
  }
  // Any other queue (TQueBind): it asks init_queue_in for its memory and event ids.
  template <class Q>
  bool InitBuffer(Q& que, uint8_t num, uint32_t len) {
    que.init_from(*this, num, len);
    return true;
  }
  void Reset();
  void Destroy() { Reset(); }

  // Event ids of a HardEvent (sw/ascendc/ascendc/tpipe_ext.h): Fetch names a free one without
  // taking it, Alloc takes it until ReleaseEventID; queues take theirs at InitBuffer.
  template <HardEvent evt>
  TEventID FetchEventID() { return fetch_event_id(evt); }
  TEventID FetchEventID(HardEvent evt) { return fetch_event_id(evt); }
  template <HardEvent evt>
  TEventID AllocEventID() { return alloc_event_id(evt); }
  template <HardEvent evt>
  void ReleaseEventID(TEventID id) { release_event_id(evt, id); }
  TEventID fetch_event_id(HardEvent e);
  TEventID alloc_event_id(HardEvent e);
  void release_event_id(HardEvent e, TEventID id);

  // A TBufPool carved from this pipe's memory, or sharing another pool's (tpipe_ext.h).
  template <class P>
  bool InitBufPool(P& pool, uint32_t len) {
    const uint32_t aligned = (len + 31) / 32 * 32;
    pool.init_pool(this, allocate(P::position(), aligned, "TPipe::InitBufPool"), aligned);
    return true;
  }
  template <class P, class S>
  bool InitBufPool(P& pool, uint32_t len, S& share) {
    pool.init_shared(this, len, share, "TPipe::InitBufPool");
    return true;
  }
  // A queue of `num` buffers of `len` bytes at `base` (memory the caller reserved), its
  // flags on `pipes` (none: unsynchronised).
  void init_queue_in(npuvp::ascendc::QueueState& q, TPosition pos, int32_t depth, uint8_t num, uint32_t len,
                     uint64_t base, std::optional<std::pair<npuvp::aicore::Pipe, npuvp::aicore::Pipe>> pipes,
                     const char* api);

  // Reserves `len` bytes of the memory behind `pos`; returns the byte address.
  uint64_t allocate(TPosition pos, uint64_t len, const char* api);
  // Bytes of the memory behind `pos` not yet given to a queue or buffer (npuvp extension:
  // lets a kernel size its tiles from the platform's buffers instead of constants).
  uint64_t FreeBytes(TPosition pos) const;
  uint32_t next_event_id(HardEvent e);

 private:
  void init_queue(npuvp::ascendc::QueueState& q, TPosition pos, int32_t depth, uint8_t num,
                  uint32_t len);
  uint64_t used_[8] = {};  // bytes allocated per memory space
  // Per HardEvent, a bit per event id: taken by a queue, or by AllocEventID.
  uint64_t event_ids_used_[static_cast<int>(HardEvent::MAX)] = {};
  uint64_t event_ids_allocated_[static_cast<int>(HardEvent::MAX)] = {};
};

template <TPosition pos, int32_t depth = 1>
class TQue {
 public:
  template <class T>
  LocalTensor<T> AllocTensor() {
    int b = state_.alloc("TQue::AllocTensor");
    return LocalTensor<T>(pos, state_.address(b), state_.length() / sizeof(T), b);
  }
  template <class T>
  bool EnQue(const LocalTensor<T>& tensor) {
    state_.enque(tensor.buffer_id(), "TQue::EnQue");
    return true;
  }
  template <class T>
  LocalTensor<T> DeQue() {
    int b = state_.deque("TQue::DeQue");
    return LocalTensor<T>(pos, state_.address(b), state_.length() / sizeof(T), b);
  }
  template <class T>
  void FreeTensor(LocalTensor<T>& tensor) {
    state_.free(tensor.buffer_id(), "TQue::FreeTensor");
  }
  bool HasTensorInQue() const { return state_.has_queued(); }
  npuvp::ascendc::QueueState& state() { return state_; }  // TBufPool initialises it

 private:
  friend class TPipe;
  npuvp::ascendc::QueueState state_;
};

// A plain buffer without queue semantics (VECCALC scratch space).
template <TPosition pos = TPosition::VECCALC>
class TBuf {
 public:
  template <class T>
  LocalTensor<T> Get() const { return LocalTensor<T>(pos, addr_, len_ / sizeof(T)); }
  template <class T>
  LocalTensor<T> Get(uint32_t elements) const { return LocalTensor<T>(pos, addr_, elements); }
  static constexpr TPosition position() { return pos; }
  void init(uint64_t addr, uint32_t len) { addr_ = addr; len_ = len; }

 private:
  uint64_t addr_ = 0;
  uint32_t len_ = 0;
};

}  // namespace AscendC
