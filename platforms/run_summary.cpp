#include "platforms/run_summary.h"

#include <algorithm>
#include <tuple>
#include <utility>
#include <fmt/format.h>

#include "platforms/ascend_soc.h"
#include "tlm/stats.h"
#include "tlm/tracer.h"

namespace npuvp::platform {

RunFigures run_figures(AscendSoc& soc, const sc_core::sc_time& elapsed) {
  const Stats& stats = Stats::global();
  RunFigures f;
  f.seconds = elapsed.to_seconds();
  uint64_t macs = 0;
  for (unsigned i = 0; i < soc.num_cores(); ++i) macs += stats.value(fmt::format("{}.M.macs", soc.core(i).basename()));
  // The last launch's own traffic: host copies around it use the same L2 and DRAM.
  const AscendSoc::LaunchTraffic& traffic = soc.last_launch_traffic();
  const uint64_t dram = traffic.dram_bytes, hits = traffic.l2_hits, lookups = traffic.l2_lookups;
  f.dram_bytes = dram;
  f.dram_seconds = std::max(f.seconds, traffic.dram_busy.to_seconds());
  if (f.seconds > 0) f.cube_flops = 2.0 * double(macs) / f.seconds;
  if (f.dram_seconds > 0) f.dram_bytes_per_second = double(dram) / f.dram_seconds;
  f.l2_misses = lookups - hits;
  f.l2_fills = traffic.l2_fills;
  f.cube_peak_flops = soc.peak_flops();
  f.dram_peak_bytes_per_second = soc.dram_peak_bytes_per_second();
  f.l2_hit_rate = lookups ? double(hits) / double(lookups) : 0.0;
  // The launch's own link traffic: host copies before it cross the ring too.
  f.max_link_utilisation = soc.interconnect().busiest_channel(traffic.link_busy, elapsed, &f.busiest_link);
  using Direction = soc::HostBridge::Direction;
  const soc::HostBridge& pcie = soc.host_bridge();
  f.pcie_h2d_bytes = pcie.bytes(Direction::HostToDevice);
  f.pcie_d2h_bytes = pcie.bytes(Direction::DeviceToHost);
  f.pcie_copies = pcie.copies();
  for (auto [d, bytes, rate] : {std::tuple{Direction::HostToDevice, f.pcie_h2d_bytes, &f.pcie_h2d_bytes_per_second},
                                std::tuple{Direction::DeviceToHost, f.pcie_d2h_bytes, &f.pcie_d2h_bytes_per_second}}) {
    const double busy = pcie.busy_time(d).to_seconds();
    *rate = busy > 0 ? double(bytes) / busy : 0.0;
  }
  f.pcie_peak_bytes_per_second = pcie.bytes_per_second();
  return f;
}

std::string run_summary(AscendSoc& soc, const sc_core::sc_time& elapsed, double wall_seconds) {
  const Stats& stats = Stats::global();
  const double clock = soc.core(0).params().clock_mhz;
  const uint64_t cycles = static_cast<uint64_t>(elapsed / soc.core(0).cycle());
  std::string out = fmt::format("simulated: {} cycles ({:.3f} us at {} MHz, {} mode)   wall: {:.3f} s\n", cycles,
                                elapsed.to_seconds() * 1e6, clock, sim_mode_name(soc.params().mode), wall_seconds);
  std::vector<std::string> pipes;
  for (const char* pipe : {"MTE2", "MTE1", "M", "V", "MTE3", "FIX"}) {
    for (unsigned i = 0; i < soc.num_cores(); ++i) {  // separated: the AICs and AIVs have different pipes
      if (stats.find(fmt::format("{}.{}.busy_cycles", soc.core(i).basename(), pipe))) {
        pipes.emplace_back(pipe);
        break;
      }
    }
  }
  out += fmt::format("pipe busy, % of kernel cycles:\n  {:<8}", "core");
  for (const auto& pipe : pipes) out += fmt::format("{:>8}", pipe);
  out += fmt::format("{:>10}\n", "blocks");
  // Long core lists are cut: the first cores that ran blocks show the pattern (on a separated
  // chip a vector kernel leaves the AICs idle), the stats JSON has them all.
  std::vector<unsigned> listed;
  for (unsigned i = 0; i < soc.num_cores(); ++i) {
    if (soc.num_cores() <= 16 || stats.value(std::string(soc.core(i).basename()) + ".blocks") > 0) listed.push_back(i);
  }
  if (listed.empty()) listed.push_back(0);
  // On a separated chip each AIC is followed by its AIVs, so a cut list of a mixed kernel
  // still shows both kinds (core ids run over the AICs, then the AIVs).
  if (soc.separated()) {
    const unsigned aics = soc.params().cores, per = soc.params().aiv_per_core;
    auto ai_core_order = [&](unsigned id) {
      return id < aics ? std::pair{id, 0u} : std::pair{(id - aics) / per, 1 + (id - aics) % per};
    };
    std::stable_sort(listed.begin(), listed.end(),
                     [&](unsigned a, unsigned b) { return ai_core_order(a) < ai_core_order(b); });
  }
  const unsigned shown = soc.num_cores() <= 16 ? soc.num_cores() : std::min<unsigned>(8, unsigned(listed.size()));
  for (unsigned n = 0; n < shown; ++n) {
    const std::string core = soc.core(listed[n]).basename();
    out += fmt::format("  {:<8}", core);
    for (const auto& pipe : pipes) {
      if (!stats.find(fmt::format("{}.{}.busy_cycles", core, pipe))) {
        out += fmt::format("{:>8}", "-");  // this core has no such pipe
        continue;
      }
      const uint64_t busy = stats.value(fmt::format("{}.{}.busy_cycles", core, pipe));
      out += fmt::format("{:>7.1f}%", cycles ? 100.0 * double(busy) / double(cycles) : 0.0);
    }
    out += fmt::format("{:>10}\n", stats.value(core + ".blocks"));
  }
  if (shown < soc.num_cores()) out += fmt::format("  ... {} more cores (see --stats)\n", soc.num_cores() - shown);
  // Automatic synchronisation's counters exist only on cores where it inserted a sync.
  uint64_t auto_syncs = 0, auto_sync_cycles = 0;
  for (unsigned i = 0; i < soc.num_cores(); ++i) {
    const std::string core = soc.core(i).basename();
    auto_syncs += stats.value(core + ".S.auto_sync.syncs");
    auto_sync_cycles += stats.value(core + ".S.auto_sync.cycles");
  }
  if (auto_syncs > 0) {
    out += fmt::format("auto sync: {} SetFlag/WaitFlag pairs inserted before scalar GetValue/SetValue, {} scalar "
                       "cycles (core.auto_sync)\n", auto_syncs, auto_sync_cycles);
  }
  const RunFigures f = run_figures(soc, elapsed);
  out += fmt::format("cube: {:.2f} TFLOPS achieved of {:.2f} peak ({:.1f}%)\n", f.cube_flops / 1e12,
                     f.cube_peak_flops / 1e12, f.cube_peak_flops > 0 ? 100 * f.cube_flops / f.cube_peak_flops : 0.0);
  out += fmt::format("DRAM: {:.1f} GB/s achieved of {:.1f} GB/s peak ({:.1f}%)\n", f.dram_bytes_per_second / 1e9,
                     f.dram_peak_bytes_per_second / 1e9,
                     f.dram_peak_bytes_per_second > 0 ? 100 * f.dram_bytes_per_second / f.dram_peak_bytes_per_second : 0.0);
  if (f.dram_seconds > f.seconds) {  // (python/npuvp/api.py reads the MB and us)
    out.pop_back();
    out += fmt::format("; {:.3f} MB in {:.3f} us: posted write-backs and line fills end {:.3f} us after the kernel\n",
                       double(f.dram_bytes) / 1e6, f.dram_seconds * 1e6, (f.dram_seconds - f.seconds) * 1e6);
  }
  if (soc.num_l2_slices() > 0) {
    out += fmt::format("L2: {:.1f}% hit rate", 100 * f.l2_hit_rate);
    // A write miss that covers its whole line allocates it without reading DRAM; its bytes
    // reach DRAM when the dirty line is evicted (issue 29: "misses but no DRAM traffic").
    if (f.l2_misses > f.l2_fills) {
      out += fmt::format("; {} of {} misses were whole-line writes (no fill: DRAM sees them on eviction)",
                         f.l2_misses - f.l2_fills, f.l2_misses);
    }
    // Host copies write whole lines too (their chunks cover many lines): the stats count
    // those misses with the launch's, so say where the rest come from.
    const AscendSoc::LaunchTraffic all = soc.traffic_so_far();
    const uint64_t other_misses = (all.l2_lookups - all.l2_hits) - f.l2_misses, other_fills = all.l2_fills - f.l2_fills;
    if (other_misses > other_fills) {
      out += fmt::format("; outside this launch (host copies, earlier launches) {} of {} misses were whole-line writes",
                         other_misses - other_fills, other_misses);
    }
    out += "\n";
  }
  out += fmt::format("{}: busiest link {} at {:.1f}% utilisation\n", soc.interconnect().topology().kind(),
                     f.busiest_link.empty() ? "-" : f.busiest_link, 100 * f.max_link_utilisation);
  if (f.pcie_copies > 0) {
    using Direction = soc::HostBridge::Direction;
    const double copy_seconds = (soc.host_bridge().busy_time(Direction::HostToDevice) +
                                 soc.host_bridge().busy_time(Direction::DeviceToHost)).to_seconds();
    out += fmt::format("PCIe: {} host copies in {:.3f} us (outside the kernel time above); to device {:.2f} MB at "
                       "{:.1f} GB/s, to host {:.2f} MB at {:.1f} GB/s (link {:.1f} GB/s each way)\n",
                       f.pcie_copies, copy_seconds * 1e6, double(f.pcie_h2d_bytes) / 1e6,
                       f.pcie_h2d_bytes_per_second / 1e9, double(f.pcie_d2h_bytes) / 1e6,
                       f.pcie_d2h_bytes_per_second / 1e9, f.pcie_peak_bytes_per_second / 1e9);
  }
  return out;
}

void write_run_outputs(const std::string& trace, const std::string& stats) {
  if (!trace.empty()) {
    Tracer::global().close();
    fmt::print("trace: {} (open in ui.perfetto.dev)\n", trace);
  }
  if (!stats.empty()) {
    Stats::global().write_json(stats);
    fmt::print("stats: {}\n", stats);
  }
}

void finish_run(AscendSoc& soc, double wall_seconds, const std::string& trace, const std::string& stats) {
  using Direction = soc::HostBridge::Direction;
  const sc_core::sc_time copies =
      soc.host_bridge().busy_time(Direction::HostToDevice) + soc.host_bridge().busy_time(Direction::DeviceToHost);
  fmt::print("{}", run_summary(soc, sc_core::sc_time_stamp() - copies, wall_seconds));
  write_run_outputs(trace, stats);
}

}  // namespace npuvp::platform
