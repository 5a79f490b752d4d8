// What the benchmarks share.
#pragma once
#include <cstdint>
#include <string>
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

}  // namespace npuvp::bench
