#include "models/aicore/pipe.h"

#include <cmath>

#include "tlm/tracer.h"

namespace npuvp::aicore {

PipeUnit::PipeUnit(sc_core::sc_module_name name, Pipe kind, unsigned depth,
                   PipeExecutor& executor, const std::string& stats_prefix, int trace_track,
                   sc_core::sc_time cycle)
    : sc_module(name),
      busy_cycles(Stats::global().counter(stats_prefix + ".busy_cycles", "cycles",
                                          "cycles the pipe executed instructions")),
      instructions(Stats::global().counter(stats_prefix + ".instructions", "instructions")),
      flag_wait_cycles(Stats::global().counter(stats_prefix + ".stall.flag_cycles", "cycles",
                                               "cycles blocked in WaitFlag")),
      memory_stall_cycles(Stats::global().counter(stats_prefix + ".stall.memory_cycles", "cycles",
                                                  "cycles instructions waited on the memory system beyond their own work")),
      bytes(Stats::global().counter(stats_prefix + ".bytes", "bytes", "bytes moved")),
      kind_(kind),
      depth_(depth),
      executor_(executor),
      trace_track_(trace_track),
      cycle_(cycle),
      stats_prefix_(stats_prefix) {
  SC_HAS_PROCESS(PipeUnit);
  SC_THREAD(run);
}

void PipeUnit::push(Instruction instr, const sc_core::sc_time& issue_time) {
  queue_.push_back(Entry{std::move(instr), issue_time});
  // Only an empty queue can have the pipe waiting for it (a notification costs a delta cycle).
  if (queue_.size() == 1) not_empty_.notify(sc_core::SC_ZERO_TIME);
}

std::string PipeUnit::state() const {
  if (!running_) return queue_.empty() ? "idle" : "queued";
  return "running " + describe(queue_.front().instr);
}

Counter& PipeUnit::class_counter(const Instruction& instr) {
  Counter*& c = by_class_[instr_class(instr)];
  if (!c) c = &Stats::global().counter(stats_prefix_ + ".instr." + instr_name(instr), "instructions");
  return *c;
}

void PipeUnit::run() {
  Tracer& tracer = Tracer::global();
  for (;;) {
    while (queue_.empty()) wait(not_empty_);
    Entry& e = queue_.front();
    if (e.issue_time > sc_core::sc_time_stamp()) wait(e.issue_time - sc_core::sc_time_stamp());
    running_ = true;
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    const ExecResult result = executor_.execute(kind_, e.instr);
    bytes += result.bytes;
    memory_stall_cycles += static_cast<uint64_t>(std::llround(result.memory_stall / cycle_));
    const sc_core::sc_time took = sc_core::sc_time_stamp() - start;
    const uint64_t cycles = static_cast<uint64_t>(std::llround(took / cycle_));
    if (std::holds_alternative<WaitFlag>(e.instr)) {
      flag_wait_cycles += cycles;
    } else {
      busy_cycles += cycles;
    }
    ++instructions;
    ++class_counter(e.instr);
    if (tracer.enabled()) {
      tracer.slice(trace_track_, instr_name(e.instr), start, took,
                   nlohmann::json{{"instr", describe(e.instr)}});
    }
    running_ = false;
    const bool was_full = full();
    queue_.pop_front();
    if (was_full) not_full_.notify(sc_core::SC_ZERO_TIME);  // only a full queue has the scalar unit waiting
    if (queue_.empty()) executor_.pipe_became_idle();
  }
}

}  // namespace npuvp::aicore
