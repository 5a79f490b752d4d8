#include "platforms/mncore2/cli.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "models/mncore/vsm.h"
#include "platforms/mncore2/vsm_config.h"
#include "sw/kernels/mncore2/samples.h"
#include "sw/runtime/device.h"
#include "tlm/config.h"
#include "tlm/log.h"

namespace npuvp::mncore {

namespace {

constexpr const char* kDefaultPlatform = "mncore2";

std::string platform_or_default(const std::string& platform) {
  return platform.empty() ? kDefaultPlatform : platform;
}

// The old assembly dialect (*.s, *.asm) is gone: MN-Core 2 programs are VSM.
bool is_old_assembly(const std::string& kernel) {
  auto ends = [&](const char* suffix) {
    const std::string s(suffix);
    return kernel.size() > s.size() && kernel.compare(kernel.size() - s.size(), s.size(), s) == 0;
  };
  return ends(".s") || ends(".asm");
}

std::string percent(double part, double whole) { return whole > 0 ? fmt::format("{:.1f}%", 100.0 * part / whole) : "-"; }

void print_summary(const vsm::Shape& sh, const kernels::SampleResult& r, double wall) {
  const double cycle_s = 1e-6 / sh.clock_mhz;
  const vsm::RunStats& s = r.run;
  fmt::print("simulated: {} cycles ({:.3f} us at {} MHz), {} instruction steps (the challenge's score), {} cycles "
             "stalled in wait, {} in block transfers   wall: {:.3f} s\n",
             s.cycles, s.cycles * cycle_s * 1e6, sh.clock_mhz, r.steps, s.stall_cycles - s.transfer_stall_cycles,
             s.transfer_stall_cycles, wall);
  fmt::print("  instructions: {} ALU, {} MAU, {} L1BM, {} L2BM, {} MV; {} MAU multiply-accumulates\n", s.alu, s.mau,
             s.l1bm, s.l2bm, s.mv, s.macs);
  // The board's half peak (docs/platforms.md): every MAB does 16 x 16 multiply-accumulates per cycle.
  const double peak = double(sh.pes() / sh.pe_per_mab) * 256 * 2 * sh.clock_mhz * 1e6;
  const double rate = s.cycles ? r.flops / (s.cycles * cycle_s) : 0.0;
  const std::string text = rate >= 1e12 ? fmt::format("{:.1f} TFLOPS", rate / 1e12) : fmt::format("{:.1f} GFLOPS", rate / 1e9);
  if (r.flops > 0) {
    fmt::print("throughput: {} ({} of the {:.1f} TFLOPS half peak)\n", text, percent(rate, peak), peak / 1e12);
  }
}

}  // namespace

bool is_mncore2_platform(const std::string& platform) {
  std::string path;
  try {
    path = resolve_platform(platform);
  } catch (const std::exception&) {
    return false;  // not ours to report
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) Config::global().load_file(path);  // raises: names the directory
  std::ifstream in(path);
  const nlohmann::json config = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  // A file that is no valid JSON is nobody's platform: report why (its syntax error, a
  // directory), rather than let an MN-Core kernel name read as an unknown Ascend kernel.
  if (config.is_discarded()) Config::global().load_file(path);
  return config.is_object() && config.contains("mncore2");
}

bool cli_handles(const std::string& kernel, const std::string& platform) {
  if (!platform.empty()) return is_mncore2_platform(platform);
  return kernels::find_sample(kernel) != nullptr || is_old_assembly(kernel);
}

int cli_run(const std::string& kernel, const std::string& platform, const std::vector<std::string>& sets,
            const std::string& trace, const std::string& stats, uint32_t blocks) {
  if (is_old_assembly(kernel)) {
    fmt::print(stderr, "npuvp: '{}': MN-Core 2 programs are written in VSM (PFN's assembly language, *.vsm; "
               "docs/mncore2-isa.md); the old assembly dialect was removed\n", kernel);
    return 2;
  }
  const kernels::Sample* sample = kernels::find_sample(kernel);
  if (!sample) {
    std::string names;
    for (const auto& s : kernels::samples()) names += " " + s.name;
    fmt::print(stderr, "npuvp: unknown kernel '{}' for the MN-Core 2 platform; its kernels:{}\n", kernel, names);
    return 2;
  }
  if (blocks != 0) {
    fmt::print(stderr, "npuvp: --blocks is an Ascend option; MN-Core 2 kernels use every PE\n");
    return 2;
  }
  if (!trace.empty()) {
    fmt::print(stderr, "npuvp: --trace is not available for MN-Core 2 VSM programs (the step machine has no "
               "SystemC timeline); --stats writes the run's counts\n");
    return 2;
  }
  const std::string name = platform_or_default(platform);
  const vsm::Shape shape = vsm_shape_from_config(name, sets);
  vsm::Machine machine(shape);
  fmt::print("npuvp: platform {} ({} groups x {} L2B x {} L1B x {} MAB x {} PE = {} PEs at {} MHz), kernel {}: {}\n",
             name, shape.groups, shape.l2b_per_group, shape.l1b_per_l2b, shape.mab_per_l1b, shape.pe_per_mab,
             shape.pes(), shape.clock_mhz, sample->name, sample->description);
  const auto wall0 = std::chrono::steady_clock::now();
  const kernels::SampleResult result = sample->run(machine);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  fmt::print("result: {} ({})\n", result.passed ? "PASS" : "FAIL", result.detail);
  print_summary(shape, result, wall);
  if (!stats.empty()) {
    const vsm::RunStats& s = result.run;
    const nlohmann::json j = {{"mncore2.vsm.steps", s.steps},     {"mncore2.vsm.instruction_steps", result.steps},
                              {"mncore2.vsm.cycles", s.cycles},   {"mncore2.vsm.stall_cycles", s.stall_cycles},
                              {"mncore2.vsm.transfer_stall_cycles", s.transfer_stall_cycles},
                              {"mncore2.vsm.alu", s.alu},         {"mncore2.vsm.mau", s.mau},
                              {"mncore2.vsm.l1bm", s.l1bm},       {"mncore2.vsm.l2bm", s.l2bm},
                              {"mncore2.vsm.mv", s.mv},           {"mncore2.vsm.macs", s.macs}};
    std::ofstream out(stats);
    if (!out) raise("stats", "cannot write statistics to '{}'", stats);
    out << j.dump(2) << "\n";
    fmt::print("stats: {}\n", stats);
  }
  return result.passed ? 0 : 1;
}

int cli_info(const std::string& platform, const std::vector<std::string>& sets) {
  const vsm::Shape shape = vsm_shape_from_config(platform, sets);
  fmt::print("platform {} ({}): {} PEs\n", platform, resolve_platform(platform), shape.pes());
  for (const auto& p : Config::global().parameters()) {
    fmt::print("  {:<36} {:<16} {:<14} {}\n", p.key, p.value.dump(), p.source, p.description);
  }
  return 0;
}

void cli_list_samples() {
  fmt::print("MN-Core 2 kernels (platform mncore2; `npuvp run <file>.vsm` runs your own VSM program):\n");
  for (const auto& s : kernels::samples()) fmt::print("  {:<12} {}\n", s.name, s.description);
}

}  // namespace npuvp::mncore
