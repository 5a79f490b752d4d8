// The short table `npuvp run` prints after a kernel: time, pipe utilisation per core,
// achieved throughput against the platform's peaks, and the memory system's figures.
#pragma once
#include <string>
#include <systemc>

namespace npuvp::platform {

class AscendSoc;

struct RunFigures {
  double seconds = 0;             // simulated
  double cube_flops = 0;          // achieved, 2 x MAC / s
  double cube_peak_flops = 0;
  // Over dram_seconds: the kernel's time, or longer when its posted write-backs and fills
  // end after it (issue 29), so the rate never exceeds the channels' peak.
  double dram_bytes_per_second = 0;
  double dram_seconds = 0;
  uint64_t dram_bytes = 0;
  double dram_peak_bytes_per_second = 0;
  double l2_hit_rate = 0;         // over every slice; 0 when there were no lookups
  uint64_t l2_misses = 0, l2_fills = 0;  // misses that took no fill were whole-line writes
  double max_link_utilisation = 0;
  std::string busiest_link;
  // Host copies through the PCIe host bridge: bytes each way and the rate while copying.
  uint64_t pcie_h2d_bytes = 0, pcie_d2h_bytes = 0, pcie_copies = 0;
  double pcie_h2d_bytes_per_second = 0, pcie_d2h_bytes_per_second = 0;
  double pcie_peak_bytes_per_second = 0;  // per direction
};

// Figures for the last launch, which took `elapsed`: its cube work (counters must have been
// reset before it) and its own memory traffic (AscendSoc::last_launch_traffic).
RunFigures run_figures(AscendSoc& soc, const sc_core::sc_time& elapsed);
std::string run_summary(AscendSoc& soc, const sc_core::sc_time& elapsed, double wall_seconds);

// Closes the trace and writes the stats file (either path may be empty), naming each on stdout.
void write_run_outputs(const std::string& trace, const std::string& stats);

// The end of a successful `npuvp run` on an Ascend platform: the summary over the kernels' time
// (the time now less the host copies', which get a line of their own), then write_run_outputs.
void finish_run(AscendSoc& soc, double wall_seconds, const std::string& trace, const std::string& stats);

}  // namespace npuvp::platform
