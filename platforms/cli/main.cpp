// npuvp: run sample kernels on a virtual platform, list platforms, show their parameters.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fmt/format.h>
#include <map>

#include "platforms/coupled_soc.h"
#include "platforms/mncore2/cli.h"
#include "sw/kernels/samples.h"
#include "sw/runtime/device.h"
#include "tlm/config.h"
#include "tlm/log.h"
#include "tlm/stats.h"
#include "tlm/tracer.h"

namespace {

using npuvp::Stats;

// Per-core, per-pipe busy share of the kernel's cycles, and bytes moved.
void print_summary(const npuvp::RunReport& run, npuvp::platform::CoupledSoc& soc) {
  const auto& p = soc.params();
  const double clock = soc.core(0).params().clock_mhz;
  fmt::print("simulated: {} cycles ({:.3f} us at {} MHz)   wall: {:.3f} s\n", run.cycles,
             run.sim_time.to_seconds() * 1e6, clock, run.wall_seconds);
  std::vector<std::string> pipes;
  for (const char* pipe : {"MTE2", "MTE1", "M", "V", "MTE3", "FIX"}) {
    if (Stats::global().find(fmt::format("core0.{}.busy_cycles", pipe))) pipes.emplace_back(pipe);
  }
  fmt::print("pipe busy, % of kernel cycles:\n  {:<8}", "core");
  for (const auto& pipe : pipes) fmt::print("{:>8}", pipe);
  fmt::print("{:>10}\n", "blocks");
  for (unsigned i = 0; i < p.cores; ++i) {
    const std::string core = fmt::format("core{}", i);
    fmt::print("  {:<8}", core);
    for (const auto& pipe : pipes) {
      const uint64_t busy = Stats::global().value(fmt::format("{}.{}.busy_cycles", core, pipe));
      fmt::print("{:>7.1f}%", run.cycles ? 100.0 * double(busy) / double(run.cycles) : 0.0);
    }
    fmt::print("{:>10}\n", Stats::global().value(core + ".blocks"));
  }
  const uint64_t rd = Stats::global().value("soc.gm.bytes_read");
  const uint64_t wr = Stats::global().value("soc.gm.bytes_written");
  const double secs = run.sim_time.to_seconds();
  fmt::print("GM traffic: {} bytes read, {} bytes written ({:.1f} GB/s achieved of {} GB/s)\n", rd, wr,
             secs > 0 ? double(rd + wr) / secs / 1e9 : 0.0, p.gm_bandwidth_gbps);
}

int run_command(const std::string& kernel, const std::string& platform, const std::vector<std::string>& sets,
                const std::string& trace, const std::string& stats, uint32_t blocks) {
  const auto* sample = npuvp::kernels::find_sample(kernel);
  if (!sample) {
    std::string names;
    for (const auto& s : npuvp::kernels::samples()) names += " " + s.name;
    fmt::print(stderr, "npuvp: unknown kernel '{}'; built-in kernels:{}\n", kernel, names);
    return 2;
  }
  npuvp::Device::configure(platform.empty() ? sample->platform : platform, sets);
  if (!trace.empty()) npuvp::Tracer::global().open(trace);
  auto& dev = npuvp::Device::instance();
  auto& soc = dev.soc();
  fmt::print("npuvp: platform {} ({} cores at {} MHz), kernel {}: {}\n", soc.params().name, soc.num_cores(),
             soc.core(0).params().clock_mhz, sample->name, sample->description);
  const npuvp::kernels::SampleResult result = sample->run(blocks);
  fmt::print("result: {} ({})\n", result.passed ? "PASS" : "FAIL", result.detail);
  print_summary(dev.last_run(), soc);
  if (!trace.empty()) {
    npuvp::Tracer::global().close();
    fmt::print("trace: {} (open in ui.perfetto.dev)\n", trace);
  }
  if (!stats.empty()) {
    Stats::global().write_json(stats);
    fmt::print("stats: {}\n", stats);
  }
  return result.passed ? 0 : 1;
}

int info_command(const std::string& platform, const std::vector<std::string>& sets) {
  npuvp::Device::configure(platform, sets);
  npuvp::Device::instance();  // elaboration declares every parameter
  fmt::print("platform {} ({})\n", platform, npuvp::resolve_platform(platform));
  for (const auto& p : npuvp::Config::global().parameters()) {
    fmt::print("  {:<32} {:<16} {:<14} {}\n", p.key, p.value.dump(), p.source, p.description);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"npuvp: SystemC/TLM-2.0 virtual platforms for AI accelerators"};
  app.require_subcommand(1);

  std::string kernel, platform, trace, stats;
  std::vector<std::string> sets;
  uint32_t blocks = 0;

  auto* run = app.add_subcommand("run", "run a built-in sample kernel and check its result");
  run->add_option("kernel", kernel, "sample kernel (see `npuvp list`)")->required();
  run->add_option("-p,--platform", platform, "platform name or config file (default: the kernel's own)");
  run->add_option("-s,--set", sets, "override a parameter: key=value (repeatable)");
  run->add_option("--trace", trace, "write a Chrome/Perfetto trace JSON");
  run->add_option("--stats", stats, "write all statistics as JSON");
  run->add_option("--blocks", blocks, "blockDim (default: the sample's)")->check(CLI::Range(1, 65535));

  auto* list = app.add_subcommand("list", "list platforms and sample kernels");

  auto* info = app.add_subcommand("info", "print every parameter of a platform with its value and source");
  info->add_option("platform", platform, "platform name or config file (default: minimal)");
  info->add_option("-s,--set", sets, "override a parameter: key=value (repeatable)");

  CLI11_PARSE(app, argc, argv);
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  try {
    if (*run && npuvp::mncore::cli_handles(kernel, platform)) {
      return npuvp::mncore::cli_run(kernel, platform, sets, trace, stats, blocks);
    }
    if (*info && !platform.empty() && npuvp::mncore::is_mncore2_platform(platform)) {
      return npuvp::mncore::cli_info(platform, sets);
    }
    if (*run) return run_command(kernel, platform, sets, trace, stats, blocks);
    if (*info) return info_command(platform.empty() ? "minimal" : platform, sets);
    if (*list) {
      fmt::print("platforms:\n");
      for (const auto& p : npuvp::available_platforms()) fmt::print("  {}\n", p);
      fmt::print("sample kernels:\n");
      for (const auto& s : npuvp::kernels::samples()) fmt::print("  {:<12} {}\n", s.name, s.description);
      npuvp::mncore::cli_list_samples();
      return 0;
    }
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "npuvp: error: {}\n", npuvp::error_text(e));
    return 1;
  }
  return 0;
}
