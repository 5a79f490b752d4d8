// One pipe of an AI Core (V, MTE2, MTE3, ...): a bounded in-order instruction queue drained
// by one SC_THREAD. The pipe only sequences and times; what an instruction does is the
// core's business (PipeExecutor).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>
#include <systemc>
#include "models/aicore/condition_event.h"
#include "models/aicore/isa.h"
#include "tlm/stats.h"

namespace npuvp {
class Tracer;
}

namespace npuvp::aicore {

// What executing one instruction did, for the pipe's statistics.
struct ExecResult {
  uint64_t bytes = 0;                                   // bytes moved
  sc_core::sc_time memory_stall = sc_core::SC_ZERO_TIME;  // time beyond compute spent on memory
};

// An instruction waiting in a pipe's queue.
struct QueuedInstruction {
  Instruction instr;
  sc_core::sc_time issue_time;  // when the scalar unit issued it (may be ahead of now)
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
  void push_back(Instruction&& instr, const sc_core::sc_time& issue_time) {
    QueuedInstruction& slot = slots_[wrap(head_ + size_)];
    slot.instr = std::move(instr);
    slot.issue_time = issue_time;
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

class PipeExecutor {
 public:
  virtual ~PipeExecutor() = default;
  // Runs `instr` on `pipe` in that pipe's thread; may wait.
  virtual ExecResult execute(Pipe pipe, const Instruction& instr) = 0;
  // How many instructions from the front of `queue` (>= 1) run together as one burst when
  // the first starts now; execute_burst runs them.
  virtual size_t burst_length(Pipe pipe, const InstructionQueue& queue) = 0;
  // Runs instrs[0, n); results[i] and ends[i] (when it finished) per instruction.
  virtual void execute_burst(Pipe pipe, const Instruction* const* instrs, size_t n, ExecResult* results,
                             sc_core::sc_time* ends) = 0;
  virtual void pipe_became_idle() = 0;
};

class PipeUnit : public sc_core::sc_module {
 public:
  using Entry = QueuedInstruction;

  PipeUnit(sc_core::sc_module_name name, Pipe kind, unsigned depth, PipeExecutor& executor,
           const std::string& stats_prefix, int trace_track, sc_core::sc_time cycle);

  Pipe pipe_kind() const { return kind_; }
  bool full() const { return queue_.size() >= depth_; }
  bool idle() const { return queue_.empty() && !running_; }
  size_t queued() const { return queue_.size(); }
  void push(Instruction&& instr, const sc_core::sc_time& issue_time);
  // The scalar unit waits on it while the queue is full.
  ConditionEvent& not_full_event() { return not_full_; }

  // What the pipe is doing now, for deadlock reports ("idle", "running WaitFlag<...>").
  std::string state() const;
  const Instruction* current() const { return running_ ? &queue_.front().instr : nullptr; }

  Counter& busy_cycles;
  Counter& instructions;
  Counter& flag_wait_cycles;
  Counter& memory_stall_cycles;
  Counter& bytes;
  Counter& burst_instructions;  // instructions that ran together with others (bursts)

 private:
  void run();
  // Counts and traces one executed instruction that ran from `start` to `end`.
  void record(const Instruction& instr, const ExecResult& result, const sc_core::sc_time& start,
              const sc_core::sc_time& end);
  Counter& class_counter(const Instruction& instr);  // "core0.V.instr.Add.f32"

  Pipe kind_;
  unsigned depth_;
  PipeExecutor& executor_;
  InstructionQueue queue_;
  bool running_ = false;
  sc_core::sc_event not_empty_;
  ConditionEvent not_full_;
  int trace_track_;
  sc_core::sc_time cycle_;
  std::string stats_prefix_;
  Tracer& tracer_;
  std::vector<std::pair<uint32_t, Counter*>> by_class_;  // instr_class -> its counter
  // A burst's members and their outcomes (reused).
  std::vector<const Instruction*> burst_;
  std::vector<ExecResult> burst_results_;
  std::vector<sc_core::sc_time> burst_ends_;
};

}  // namespace npuvp::aicore
