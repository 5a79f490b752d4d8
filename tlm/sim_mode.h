// How much a run simulates (DESIGN.md "Timing"): every block reads the same `sim.mode` key.
#pragma once
#include <string>

namespace npuvp {

enum class SimMode {
  Functional,  // data only: instructions take no simulated time, memory is reached directly
  Timed,       // data and time (default)
  Perf,        // time only: data movement and arithmetic are skipped; same cycles as timed
};

// `sim.mode` from the global Config (declares the key); an unknown name is an error.
SimMode sim_mode_from_config();
SimMode sim_mode_from_name(const std::string& name);  // raises on an unknown name
const char* sim_mode_name(SimMode mode);

}  // namespace npuvp
