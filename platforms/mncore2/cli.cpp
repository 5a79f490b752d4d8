#include "platforms/mncore2/cli.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "models/mncore/assembler.h"
#include "platforms/mncore2/board.h"
#include "sw/kernels/mncore2/samples.h"
#include "sw/runtime/device.h"
#include "tlm/config.h"
#include "tlm/log.h"
#include "tlm/stats.h"
#include "tlm/tracer.h"

namespace npuvp::mncore {

namespace {

constexpr const char* kDefaultPlatform = "mncore2";

std::string platform_or_default(const std::string& platform) {
  return platform.empty() ? kDefaultPlatform : platform;
}

std::unique_ptr<Board> build(const std::string& platform, const std::vector<std::string>& sets) {
  Config& c = Config::global();
  c.load_file(resolve_platform(platform));
  for (const auto& kv : sets) c.set_override(kv);
  auto board = std::make_unique<Board>("mncore2");
  c.check_unused();  // every user key must have been declared by the board
  board->finish_elaboration();
  return board;
}

// A user's own program: an assembly file, run as one phase (no data in, no check).
bool is_assembly(const std::string& kernel) {
  auto ends = [&](const char* suffix) {
    const std::string s(suffix);
    return kernel.size() > s.size() && kernel.compare(kernel.size() - s.size(), s.size(), s) == 0;
  };
  return ends(".s") || ends(".asm");
}

kernels::SampleResult run_assembly(Board& board, const std::string& path) {
  std::ifstream in(path);
  if (!in) raise("npuvp", "cannot read assembly file '{}'", path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Host host(board);
  host.begin("program");
  const BoardRun& r = host.run(text, path);
  host.end();
  kernels::SampleResult result;
  result.passed = true;
  result.detail = fmt::format("ran {} instructions; the program's results are in the board's memories", r.instructions);
  result.phases = host.phases();
  result.flops = 2.0 * double(r.macs);  // the MAU's work; ALU lanes are not counted
  result.compute_phase = "program";
  result.on_chip_phases = {"program"};
  return result;
}

std::string percent(double part, double whole) { return whole > 0 ? fmt::format("{:.1f}%", 100.0 * part / whole) : "-"; }

void print_summary(const Board& board, const kernels::SampleResult& r, double wall) {
  const Topology& t = board.topology();
  const double cycle_s = 1e-6 / t.clock_mhz;
  const double mac_per_cycle = double(t.pes()) * t.mau_k * t.mau_n / t.cycles_per_step;
  uint64_t total = 0;
  for (const Phase& p : r.phases) total += p.cycles;
  fmt::print("simulated: {} cycles ({:.3f} us at {} MHz)   wall: {:.3f} s\n", total, total * cycle_s * 1e6, t.clock_mhz,
             wall);
  fmt::print("  {:<28}{:>10}{:>11}{:>9}{:>9}{:>9}{:>8}\n", "phase", "cycles", "us", "PE busy", "MAU", "stalled",
             "instr");
  for (const Phase& p : r.phases) {
    fmt::print("  {:<28}{:>10}{:>11.3f}{:>9}{:>9}{:>9}{:>8}\n", p.name, p.cycles, p.cycles * cycle_s * 1e6,
               percent(double(p.work.pe_steps) * t.cycles_per_step, double(p.cycles)),
               percent(double(p.work.macs), mac_per_cycle * double(p.cycles)),
               percent(double(p.work.stall_cycles), double(p.cycles)), p.work.instructions);
  }
  const double peak = board.peak_half_flops();
  auto rate = [&](uint64_t cycles) { return cycles ? r.flops / (cycles * cycle_s) : 0.0; };
  auto text = [](double flops) {
    return flops >= 1e12 ? fmt::format("{:.1f} TFLOPS", flops / 1e12) : fmt::format("{:.1f} GFLOPS", flops / 1e9);
  };
  uint64_t compute = 0, on_chip = 0;
  for (const Phase& p : r.phases) {
    if (p.name == r.compute_phase) compute += p.cycles;
    for (const auto& name : r.on_chip_phases) {
      if (p.name == name) on_chip += p.cycles;
    }
  }
  if (r.flops > 0) fmt::print("throughput: {} in '{}' ({} of the {:.1f} TFLOPS half peak); on chip, DRAM to DRAM: {} ({}); with the "
             "host: {}\n",
             text(rate(compute)), r.compute_phase, percent(rate(compute), peak), peak / 1e12, text(rate(on_chip)),
             percent(rate(on_chip), peak), text(rate(total)));

  BoardRun all;
  for (const Phase& p : r.phases) all += p.work;
  const Stats& st = Stats::global();
  fmt::print("  {:<32}{:>14}{:>14}{:>13}\n", "bytes per level (all nodes)", "down", "up", "busy cycles");
  fmt::print("  {:<32}{:>14}{:>14}{:>13}\n", "host <-> PDM (PCIe, Group 0)", st.value("mncore2.pcie.bytes_to_device"),
             st.value("mncore2.pcie.bytes_to_host"), "-");
  const char* names[kEngines] = {"PDM <-> DRAM (top level)", "DRAM <-> L2BM (Data Engines)", "L2BM <-> L1BM",
                                 "L1BM <-> PE memories"};
  for (unsigned e = 0; e < kEngines; ++e) {
    fmt::print("  {:<32}{:>14}{:>14}{:>13}\n", names[e], all.engines[e].bytes_down, all.engines[e].bytes_up,
               all.engines[e].busy_cycles);
  }
  fmt::print("PE work: {} ALU, {} mmacc, {} mwload instructions; {} transfers; {} MAU multiply-accumulates\n",
             all.alu_instructions, all.mmacc_instructions, all.mwload_instructions, all.transfer_instructions, all.macs);
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
  return kernels::find_sample(kernel) != nullptr || is_assembly(kernel);
}

int cli_run(const std::string& kernel, const std::string& platform, const std::vector<std::string>& sets,
            const std::string& trace, const std::string& stats, uint32_t blocks) {
  const kernels::Sample* sample = kernels::find_sample(kernel);
  if (!sample && !is_assembly(kernel)) {
    std::string names;
    for (const auto& s : kernels::samples()) names += " " + s.name;
    fmt::print(stderr, "npuvp: unknown kernel '{}' for the MN-Core 2 platform; its kernels:{}\n", kernel, names);
    return 2;
  }
  if (blocks != 0) {
    fmt::print(stderr, "npuvp: --blocks is an Ascend option; MN-Core 2 kernels use every PE\n");
    return 2;
  }
  const std::string name = platform_or_default(platform);
  auto board = build(name, sets);
  if (!trace.empty()) Tracer::global().open(trace);
  fmt::print("npuvp: platform {} ({} at {} MHz), {}\n", name, board->topology().describe(),
             board->topology().clock_mhz,
             sample ? fmt::format("kernel {}: {}", sample->name, sample->description) : "program " + kernel);
  const auto wall0 = std::chrono::steady_clock::now();
  const kernels::SampleResult result = sample ? sample->run(*board) : run_assembly(*board, kernel);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  fmt::print("result: {} ({})\n", result.passed ? "PASS" : "FAIL", result.detail);
  print_summary(*board, result, wall);
  if (!trace.empty()) {
    Tracer::global().close();
    fmt::print("trace: {} (open in ui.perfetto.dev)\n", trace);
  }
  if (!stats.empty()) {
    Stats::global().write_json(stats);
    fmt::print("stats: {}\n", stats);
  }
  return result.passed ? 0 : 1;
}

int cli_info(const std::string& platform, const std::vector<std::string>& sets) {
  auto board = build(platform, sets);
  fmt::print("platform {} ({}): {}\n", platform, resolve_platform(platform), board->topology().describe());
  for (const auto& p : Config::global().parameters()) {
    fmt::print("  {:<36} {:<16} {:<14} {}\n", p.key, p.value.dump(), p.source, p.description);
  }
  return 0;
}

void cli_list_samples() {
  fmt::print("MN-Core 2 kernels (platform mncore2; `npuvp run <file>.s` runs your own assembly):\n");
  for (const auto& s : kernels::samples()) fmt::print("  {:<12} {}\n", s.name, s.description);
}

}  // namespace npuvp::mncore
