// What the benchmarks share.
#pragma once
#include <benchmark/benchmark.h>
#include <cstdint>
#include <string>
#include <nlohmann/json.hpp>
#include "sw/runtime/device.h"
#include "tlm/stats.h"

namespace npuvp::bench {

// Instructions the pipes executed in the last run: every "coreN.<pipe>.instructions" except
// the scalar unit's "coreN.S.instructions" (the same instructions, counted at issue).
inline uint64_t pipe_instructions() {
  auto ends_with = [](const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
  };
  uint64_t instructions = 0;
  for (const auto& [name, counter] : Stats::global().counters()) {
    if (ends_with(name, ".instructions") && !ends_with(name, ".S.instructions")) instructions += counter->value;
  }
  return instructions;
}

// What a measuring child reports of its launch.
inline nlohmann::json launch_figures(const RunReport& run) {
  return {{"wall", run.wall_seconds}, {"cycles", run.cycles}, {"instructions", pipe_instructions()}};
}

// Runs the benchmark's iterations, each a measurement `child` makes in a forked child and
// returns as {"wall": seconds, "cycles": ..., "instructions": ...}; the wall time is the
// iteration's time. Sets the sim_cycles and instr_per_s counters from the last one and
// returns it (empty after an error, which skips the benchmark).
template <class Child>
nlohmann::json run_children(benchmark::State& state, Child child) {
  nlohmann::json r;
  for (auto _ : state) {
    r = child();
    if (r.contains("error")) {
      state.SkipWithError(r["error"].get<std::string>().c_str());
      return {};
    }
    state.SetIterationTime(r["wall"].get<double>());
  }
  state.counters["sim_cycles"] = r["cycles"].get<double>();
  state.counters["instr_per_s"] = r["instructions"].get<double>() / r["wall"].get<double>();
  return r;
}

}  // namespace npuvp::bench
