// A Da Vinci SoC (SPEC.md §1.3), coupled (910, 310P) or separated (910B): the AI Cores, the
// task scheduler that dispatches blocks to them, and the memory system behind them — a
// CHI-style ring (or mesh) joining the cores, the L2 slices (home nodes) and the HBM/DDR
// controllers (subordinate nodes) — over one backing store for GM. Every number comes from
// the configuration (platforms/configs/<name>.json + overrides).
//   coupled:   platform.cores coupled AI Cores (core<i>), plus platform.vector_cores AIV-like
//              Vector Cores (vcore<i>, 310P);
//   separated: platform.cores AI Cores, each one AIC (aic<i>) and platform.aiv_per_core AIVs
//              (aiv<j>, j = i * aiv_per_core + sub-block).
// Every core is a requester stop on the ring, each AI Core's cores side by side.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include <systemc>
#include "models/aicore/ai_core.h"
#include "models/interconnect/chi_interconnect.h"
#include "models/memory/l2_cache.h"
#include "models/memory/memory_controller.h"
#include "models/soc/host_bridge.h"
#include "models/soc/cross_core_sync.h"
#include "models/soc/task_scheduler.h"
#include "tlm/memory.h"
#include "tlm/router.h"
#include "tlm/sim_mode.h"

namespace npuvp::soc {
class AiCpu;  // models/soc/aicpu.h (issue 28)
class Dvpp;   // models/soc/dvpp.h
}  // namespace npuvp::soc

namespace npuvp::platform {

class AscendSoc : public sc_core::sc_module {
 public:
  struct Params {
    std::string name = "minimal";
    bool separated = false;     // platform.architecture: coupled or separated
    unsigned cores = 8;         // AI Cores
    unsigned aiv_per_core = 2;  // separated: AIVs per AI Core (AIC:AIV = 1:2)
    unsigned vector_cores = 0;  // coupled: extra Vector Cores (310P)
    SimMode mode = SimMode::Timed;
    double progress_seconds = 3;  // sim.progress_seconds: wall time before a progress line
    double watchdog_seconds = 120;  // sim.watchdog_seconds: see aicore::StackGuard (0: off)
    uint64_t host_memory_limit = 0;  // sim.host_memory_limit: bytes a sample may use (0: 3/4 of RAM)
    uint64_t gm_base = 0x1'0000'0000ull;
    uint64_t gm_size = 64ull << 30;
    // L2 (SPEC.md §1.3): the whole cache, split into address-interleaved slices.
    unsigned l2_slices = 8;  // 0: no L2
    uint64_t l2_size = 32ull << 20;
    unsigned l2_line_bytes = 128;
    unsigned l2_ways = 16;
    unsigned l2_hit_cycles = 24;
    double l2_bytes_per_cycle = 128;  // per slice
    double l2_atomic_bytes_per_cycle = 32;  // per slice: its read-modify-write unit
    uint64_t l2_interleave_bytes = 0;  // 0: one line
    // Memory: controllers x channels, interleaved.
    unsigned dram_controllers = 4;
    unsigned dram_channels = 8;
    double dram_channel_gbps = 37.5;
    double dram_latency_ns = 100;
    uint64_t dram_interleave_bytes = 256;
    interconnect::ChiInterconnect::Params interconnect;
  };
  static Params params_from_config();

  explicit AscendSoc(sc_core::sc_module_name name);
  ~AscendSoc() override;

  const Params& params() const { return params_; }
  unsigned num_cores() const { return static_cast<unsigned>(cores_.size()); }
  // Every core in id order: coupled AI Cores then Vector Cores, or AICs then AIVs.
  aicore::AiCore& core(unsigned i) { return *cores_.at(i); }
  bool separated() const { return params_.separated; }
  // "24 AI Cores (24 AIC + 48 AIV)", "8 AI Cores + 7 Vector Cores", "32 AI Cores".
  std::string describe_cores() const;
  soc::TaskScheduler& scheduler() { return *scheduler_; }
  soc::CrossCoreSync* cross_core() { return cross_core_.get(); }
  Memory& gm() { return gm_; }  // the backing store of GM (addressed from 0)
  interconnect::ChiInterconnect& interconnect() { return *noc_; }
  unsigned num_l2_slices() const { return static_cast<unsigned>(l2_.size()); }
  memory::L2Slice& l2_slice(unsigned i) { return *l2_.at(i); }
  unsigned num_memory_controllers() const { return static_cast<unsigned>(dram_.size()); }
  memory::MemoryController& memory_controller(unsigned i) { return *dram_.at(i); }
  soc::HostBridge& host_bridge() { return *host_bridge_; }  // PCIe DMA for host copies
  // Issue 28: the AI CPUs (aicpu.*) and the DVPP media engines (dvpp.*), ring requesters
  // (include models/soc/aicpu.h or dvpp.h to use them).
  soc::AiCpu& aicpu() { return *aicpu_; }
  soc::Dvpp& dvpp() { return *dvpp_; }
  double dram_peak_bytes_per_second() const;
  // Peak cube throughput of all cores with a cube (f16 MAC/s x 2).
  double peak_flops() const;

  // Runs `task` to completion (the task scheduler hands blocks to cores as they free up).
  // Raises a deadlock report if the simulation stalls before every block has finished.
  // Prints a progress line to stderr on runs longer than a few seconds of wall time.
  // Returns the simulated time the kernel took.
  sc_core::sc_time run(aicore::Task& task);

  // What the memory system did during the last launch only (host copies before and after it
  // travel the same L2 and DRAM, and must not count as the kernel's traffic).
  struct LaunchTraffic {
    uint64_t dram_bytes = 0;
    uint64_t l2_hits = 0, l2_lookups = 0;
    std::vector<sc_core::sc_time> link_busy;  // by link channel (ChiInterconnect::link_busy_times)
    // Issue 29: lines the L2 filled from DRAM (a whole-line write miss takes none), and the
    // time from the launch's start until its DRAM transfers end: write-backs and the fills
    // of partly written lines are posted, so they can end after the kernel.
    uint64_t l2_fills = 0;
    sc_core::sc_time dram_busy = sc_core::SC_ZERO_TIME;
  };
  const LaunchTraffic& last_launch_traffic() const { return last_launch_; }
  // Counters since the platform was built: every launch and every host copy.
  LaunchTraffic traffic_so_far() const;

 private:
  void build_cores();
  void place_stops();

  Params params_;
  Memory gm_;
  Router backing_router_;  // the controllers share the backing store
  std::unique_ptr<interconnect::ChiInterconnect> noc_;
  std::vector<std::unique_ptr<aicore::AiCore>> cores_;
  std::vector<int> core_group_;  // the AI Core each core belongs to (its ring neighbourhood)
  std::unique_ptr<soc::CrossCoreSync> cross_core_;
  std::unique_ptr<soc::TaskScheduler> scheduler_;
  std::vector<std::unique_ptr<memory::L2Slice>> l2_;
  std::vector<std::unique_ptr<memory::MemoryController>> dram_;
  std::unique_ptr<soc::HostBridge> host_bridge_;
  std::unique_ptr<soc::AiCpu> aicpu_;  // issue 28
  std::unique_ptr<soc::Dvpp> dvpp_;
  LaunchTraffic last_launch_;
};

}  // namespace npuvp::platform
