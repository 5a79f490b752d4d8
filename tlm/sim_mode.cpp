#include "tlm/sim_mode.h"

#include "tlm/config.h"
#include "tlm/log.h"

namespace npuvp {

SimMode sim_mode_from_name(const std::string& name) {
  if (name == "functional") return SimMode::Functional;
  if (name == "timed") return SimMode::Timed;
  if (name == "perf") return SimMode::Perf;
  raise("config", "sim.mode '{}' is not one of functional, timed, perf", name);
}

const char* sim_mode_name(SimMode mode) {
  switch (mode) {
    case SimMode::Functional: return "functional";
    case SimMode::Timed: return "timed";
    case SimMode::Perf: return "perf";
  }
  return "?";
}

SimMode sim_mode_from_config() {
  return sim_mode_from_name(Config::global().get<std::string>(
      "sim.mode", "timed", "functional (data, no time), timed (data and time) or perf (time, no data)"));
}

}  // namespace npuvp
