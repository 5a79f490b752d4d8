// The minimal platform: N coupled AI Cores, an address router and GM (SPEC.md §1.3, reduced).
// Every number comes from the configuration (platforms/configs/<name>.json + overrides).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include <systemc>
#include "models/aicore/ai_core.h"
#include "tlm/memory.h"
#include "tlm/router.h"

namespace npuvp::platform {

class CoupledSoc : public sc_core::sc_module {
 public:
  struct Params {
    std::string name = "minimal";
    unsigned cores = 8;
    uint64_t gm_base = 0x1'0000'0000ull;
    uint64_t gm_size = 64ull << 30;
    double gm_latency_ns = 100;
    double gm_bandwidth_gbps = 1200;  // GB/s (10^9 bytes per second)
  };
  static Params params_from_config();

  explicit CoupledSoc(sc_core::sc_module_name name);

  const Params& params() const { return params_; }
  unsigned num_cores() const { return static_cast<unsigned>(cores_.size()); }
  aicore::AiCore& core(unsigned i) { return *cores_.at(i); }
  Memory& gm() { return gm_; }
  Router& router() { return router_; }

  // Runs `task` on every core to completion (blocks are handed to cores as they free up).
  // Raises a deadlock report if the simulation stalls before every block has finished.
  // Returns the simulated time the kernel took.
  sc_core::sc_time run(aicore::Task& task);

 private:
  Params params_;
  Router router_;
  Memory gm_;
  std::vector<std::unique_ptr<aicore::AiCore>> cores_;
};

}  // namespace npuvp::platform
