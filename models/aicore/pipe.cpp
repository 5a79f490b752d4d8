#include "models/aicore/pipe.h"

#include <algorithm>
#include <cmath>

#include "tlm/tracer.h"

namespace npuvp::aicore {

PipeUnit::PipeUnit(sc_core::sc_module_name name, Pipe kind, unsigned depth, const std::string& stats_prefix,
                   int trace_track, sc_core::sc_time cycle)
    : sc_module(name),
      busy_cycles(Stats::global().counter(stats_prefix + ".busy_cycles", "cycles",
                                          "cycles the pipe executed instructions")),
      instructions(Stats::global().counter(stats_prefix + ".instructions", "instructions")),
      flag_wait_cycles(Stats::global().counter(stats_prefix + ".stall.flag_cycles", "cycles",
                                               "cycles blocked in WaitFlag")),
      memory_stall_cycles(Stats::global().counter(stats_prefix + ".stall.memory_cycles", "cycles",
                                                  "cycles instructions waited on the memory system beyond their own work")),
      bytes(Stats::global().counter(stats_prefix + ".bytes", "bytes", "bytes moved")),
      burst_instructions(Stats::global().counter(stats_prefix + ".burst_instructions", "instructions",
                                                 "instructions whose memory requests went out with others' "
                                                 "(core.mte.burst_bytes)")),
      kind_(kind),
      depth_(depth),
      queue_(std::max(depth, 1u)),
      trace_track_(trace_track),
      cycle_(cycle),
      stats_prefix_(stats_prefix),
      tracer_(Tracer::global()) {}

std::string PipeUnit::state() const {
  if (queue_.empty()) return "idle";
  if (in_flight_ == 0 && !blocked_) return "queued";
  return "running " + describe(queue_.front().instr);
}

Counter& PipeUnit::class_counter(const Instruction& instr) {
  const uint32_t cls = instr_class(instr);
  // A pipe runs a handful of classes: a linear scan is cheaper than any map.
  for (const auto& [known, counter] : by_class_) {
    if (known == cls) return *counter;
  }
  Counter& c = Stats::global().counter(stats_prefix_ + ".instr." + instr_name(instr), "instructions");
  by_class_.emplace_back(cls, &c);
  return c;
}

namespace {
// llround(t / cycle), by integer division when t is a whole number of cycles (the usual case;
// exactly what the floating-point division gives then, for times below 2^53 ticks).
uint64_t cycles_in(const sc_core::sc_time& t, const sc_core::sc_time& cycle) {
  const uint64_t ticks = t.value(), per_cycle = cycle.value();
  // No stall and one-cycle flags are most instructions: no 64-bit division for them.
  if (ticks == 0) return 0;
  if (ticks == per_cycle) return 1;
  if (ticks < (uint64_t(1) << 53) && ticks % per_cycle == 0) return ticks / per_cycle;
  return static_cast<uint64_t>(std::llround(t / cycle));
}
}  // namespace

void PipeUnit::record(const Instruction& instr, const ExecResult& result, const sc_core::sc_time& start,
                      const sc_core::sc_time& end) {
  bytes += result.bytes;
  memory_stall_cycles += cycles_in(result.memory_stall, cycle_);
  const sc_core::sc_time took = end - start;
  const uint64_t cycles = cycles_in(took, cycle_);
  if (std::holds_alternative<WaitFlag>(instr)) {
    flag_wait_cycles += cycles;
  } else {
    busy_cycles += cycles;
  }
  ++instructions;
  ++class_counter(instr);
  if (tracer_.enabled()) {
    tracer_.slice(trace_track_, instr_name(instr), start, took, nlohmann::json{{"instr", describe(instr)}});
  }
}

}  // namespace npuvp::aicore
