// One pipe of an AI Core (V, MTE2, MTE3, ...): a bounded in-order instruction queue, the
// time the pipe is free from, and its statistics. The pipe only holds and counts; its core
// runs the instructions of all its pipes in simulated-time order (AiCore::run_pipes).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>
#include <systemc>
#include "models/aicore/isa.h"
#include "tlm/extensions.h"
#include "tlm/stats.h"

namespace npuvp {
class Tracer;
}

namespace npuvp::aicore {

// What starting one instruction found: how long it takes, and for the pipe's statistics.
struct ExecResult {
  uint64_t bytes = 0;                                   // bytes moved
  sc_core::sc_time memory_stall = sc_core::SC_ZERO_TIME;  // time beyond compute spent on memory
  sc_core::sc_time duration = sc_core::SC_ZERO_TIME;      // from its start to its completion
};

// An instruction waiting in a pipe's queue.
struct QueuedInstruction {
  Instruction instr;
  sc_core::sc_time issue_time;  // when the scalar unit issued it (may be ahead of now)
  // The core's atomic mode when it was issued (SetAtomicAdd ...): its GM writes carry it.
  AtomicExtension atomic;
};

// A pipe's queue: a FIFO of fixed capacity (the pipe's depth; the scalar unit never pushes
// onto a full queue). A ring of slots allocates nothing per instruction, and an entry stays
// in its slot until popped (a burst holds pointers to its members while the queue grows).
class InstructionQueue {
 public:
  explicit InstructionQueue(size_t capacity) : slots_(capacity) {}
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  QueuedInstruction& front() { return slots_[head_]; }
  const QueuedInstruction& front() const { return slots_[head_]; }
  const QueuedInstruction& operator[](size_t i) const { return slots_[wrap(head_ + i)]; }
  void push_back(Instruction&& instr, const sc_core::sc_time& issue_time, const AtomicExtension& atomic = {}) {
    QueuedInstruction& slot = slots_[wrap(head_ + size_)];
    slot.instr = std::move(instr);
    slot.issue_time = issue_time;
    slot.atomic.op = atomic.op;
    slot.atomic.type = atomic.type;
    ++size_;
  }
  void pop_front(size_t n) {
    head_ = wrap(head_ + n);
    size_ -= n;
  }

 private:
  size_t wrap(size_t i) const { return i >= slots_.size() ? i - slots_.size() : i; }
  std::vector<QueuedInstruction> slots_;
  size_t head_ = 0, size_ = 0;
};

class PipeUnit : public sc_core::sc_module {
 public:
  PipeUnit(sc_core::sc_module_name name, Pipe kind, unsigned depth, const std::string& stats_prefix,
           int trace_track, sc_core::sc_time cycle);

  Pipe pipe_kind() const { return kind_; }
  // An instruction holds its queue slot until it completes.
  bool full() const { return queue_.size() >= depth_; }
  bool idle() const { return queue_.empty(); }
  size_t queued() const { return queue_.size(); }
  void push(Instruction&& instr, const sc_core::sc_time& issue_time, const AtomicExtension& atomic = {}) {
    queue_.push_back(std::move(instr), issue_time, atomic);
  }
  const InstructionQueue& queue() const { return queue_; }
  const QueuedInstruction& front() const { return queue_.front(); }

  // The front `n` instructions have started and complete together at `end` (n > 1: a burst).
  void started(size_t n, const sc_core::sc_time& end) {
    in_flight_ = n;
    completes_at_ = end;
    blocked_ = false;
  }
  size_t in_flight() const { return in_flight_; }  // 0: nothing started
  const sc_core::sc_time& completes_at() const { return completes_at_; }
  // Pops what completed; the pipe is free from its completion on.
  void completed() {
    queue_.pop_front(in_flight_);
    in_flight_ = 0;
    free_at_ = completes_at_;
  }
  const sc_core::sc_time& free_at() const { return free_at_; }
  // The front instruction waits for a flag (for state(); started() clears it).
  void mark_blocked() { blocked_ = true; }

  // What the pipe is doing now, for deadlock reports ("idle", "running WaitFlag<...>").
  std::string state() const;

  // Counts and traces one instruction that ran from `start` to `end`.
  void record(const Instruction& instr, const ExecResult& result, const sc_core::sc_time& start,
              const sc_core::sc_time& end);

  Counter& busy_cycles;
  Counter& instructions;
  Counter& flag_wait_cycles;
  Counter& memory_stall_cycles;
  Counter& bytes;
  Counter& burst_instructions;  // instructions that ran together with others (bursts)

 private:
  Counter& class_counter(const Instruction& instr);  // "core0.V.instr.Add.f32"

  Pipe kind_;
  unsigned depth_;
  InstructionQueue queue_;
  size_t in_flight_ = 0;
  bool blocked_ = false;
  sc_core::sc_time completes_at_ = sc_core::SC_ZERO_TIME;
  sc_core::sc_time free_at_ = sc_core::SC_ZERO_TIME;
  int trace_track_;
  sc_core::sc_time cycle_;
  std::string stats_prefix_;
  Tracer& tracer_;
  std::vector<std::pair<uint32_t, Counter*>> by_class_;  // instr_class -> its counter
};

}  // namespace npuvp::aicore
