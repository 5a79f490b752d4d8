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

namespace npuvp::ascendc {

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
  void Reset();
  void Destroy() { Reset(); }

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
  uint32_t event_ids_used_[static_cast<int>(HardEvent::MAX)] = {};
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
