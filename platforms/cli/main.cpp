// npuvp: run sample kernels on a virtual platform, list platforms, show their parameters.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fmt/format.h>
#include <cerrno>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <unistd.h>

#include "models/check/sanitizer.h"
#include "platforms/ascend_soc.h"
#include "platforms/cli/python_cli.h"
#include "platforms/mncore2/cli.h"
#include "platforms/mncore2/vsm_cli.h"
#include "platforms/run_summary.h"
#include "sw/kernels/image_pipeline.h"
#include "sw/kernels/samples.h"
#include "sw/onnx/onnx_cli.h"
#include "sw/tik/tik_cli.h"
#include "sw/runtime/device.h"
#include "tlm/config.h"
#include "tlm/interrupt.h"
#include "tlm/log.h"
#include "tlm/output_file.h"
#include "tlm/stats.h"
#include "tlm/tracer.h"

namespace {

using npuvp::Stats;

int run_command(const std::string& kernel, const std::string& platform, std::vector<std::string> sets,
                const std::string& mode, const std::string& trace, const std::string& stats, uint32_t blocks,
                uint32_t scale) {
  const auto* sample = npuvp::kernels::find_sample(kernel);
  if (!sample) {
    std::string names;
    for (const auto& s : npuvp::kernels::samples()) names += " " + s.name;
    fmt::print(stderr, "npuvp: unknown kernel '{}'; built-in kernels:{}\n", kernel, names);
    return 2;
  }
  if (!mode.empty()) sets.push_back("sim.mode=" + mode);
  npuvp::Device::configure(platform.empty() ? sample->platform : platform, sets);
  if (!trace.empty()) npuvp::Tracer::global().open(trace);
  auto& dev = npuvp::Device::instance();
  auto& soc = dev.soc();
  fmt::print("npuvp: platform {} ({} at {} MHz), kernel {}: {}\n", soc.params().name, soc.describe_cores(),
             soc.core(0).params().clock_mhz, sample->name, sample->description);
  const npuvp::kernels::SampleResult result = sample->run({blocks, scale});
  // perf mode has no data to check (the sample says so); a sample that cannot run there still fails.
  const bool perf = soc.params().mode == npuvp::SimMode::Perf;
  fmt::print("result: {} ({})\n", !result.passed ? "FAIL" : perf ? "NOT CHECKED" : "PASS", result.detail);
  npuvp::platform::finish_run(soc, dev.total_wall_seconds(), trace, stats);
  return result.passed ? 0 : 1;
}

int info_command(const std::string& platform, const std::vector<std::string>& sets) {
  npuvp::Device::configure(platform, sets);
  npuvp::Device::instance();  // elaboration declares every parameter
  fmt::print("platform {} ({})\n", platform, npuvp::resolve_platform(platform));
  for (const auto& p : npuvp::Config::global().parameters()) {
    const std::string range = p.lo.is_null() ? "" : fmt::format(" [range {} .. {}]", p.lo.dump(), p.hi.dump());
    fmt::print("  {:<34} {:<16} {:<14} {}{}\n", p.key, p.value.dump(), p.source, p.description, range);
  }
  return 0;
}

// After an error or an interrupt: the trace of what ran is closed (a valid file) and the
// statistics so far are written, each as far as it can be; what fails is reported, not thrown.
void finish_outputs(const std::string& trace, const std::string& stats, bool stats_failed) {
  if (!trace.empty() && npuvp::Tracer::global().enabled()) {
    try {
      npuvp::Tracer::global().close();
      fmt::print(stderr, "npuvp: trace of what ran: {}\n", trace);
    } catch (const std::exception& e) {
      fmt::print(stderr, "npuvp: error: {}\n", npuvp::error_text(e));
    }
  }
  if (!stats.empty() && !stats_failed) {
    try {
      Stats::global().write_json(stats);
      fmt::print(stderr, "npuvp: statistics so far: {}\n", stats);
    } catch (const std::exception& e) {
      fmt::print(stderr, "npuvp: error: {}\n", npuvp::error_text(e));
    }
  }
}

// A closed stderr (`2>&-`) must not end the run on the first message: it goes to /dev/null.
void keep_stderr_open() {
  if (fcntl(STDERR_FILENO, F_GETFD) != -1 || errno != EBADF) return;
  const int null = open("/dev/null", O_WRONLY);
  if (null >= 0 && null != STDERR_FILENO) {
    dup2(null, STDERR_FILENO);
    close(null);
  }
}

}  // namespace

int main(int argc, char** argv) {
  npuvp::cli::exec_python_subcommand(argc, argv);  // sweep, plot, run --plot: the Python package's
  CLI::App app{"npuvp: SystemC/TLM-2.0 virtual platforms for AI accelerators"};
  app.require_subcommand(1);
  app.footer("Python subcommands (docs/exploring.md): npuvp sweep STUDY.json --results FILE.sqlite [--cluster tcp://HOST:PORT] "
             "[--jobs N]; npuvp sweep --results FILE.sqlite --export csv; npuvp plot RESULTS --x P --y M [--hue P] "
             "[--facet P] --out FILE.png|svg; npuvp run ... --plot DIR");

  std::string kernel, platform, trace, stats, mode, data_dir, out_dir, checks, input, precision;
  std::vector<std::string> sets;
  uint32_t blocks = 0;
  uint32_t scale = 1;

  auto* run = app.add_subcommand("run", "run a built-in sample kernel and check its result");
  run->add_option("kernel", kernel, "sample kernel (see `npuvp list`), or a TIK kernel_meta/<name>.json")->required();
  run->add_option("input", input, "image_pipeline: the JPEG image (default: a generated picture)");
  run->add_option("--data", data_dir, "TIK kernel: folder of its inputs as <name>.npy; ONNX model: input_N.pb, "
                  "output_N.pb (ONNX's backend-test layout)");
  run->add_option("--precision", precision, "ONNX model: fp32 (default) or fp16")
      ->check(CLI::IsMember({"fp32", "fp16"}));
  run->add_option("--out", out_dir, "TIK kernel: folder for its outputs as <name>.npy (default: --data)");
  run->add_option("-p,--platform", platform, "platform name or config file (default: the kernel's own)");
  run->add_option("-s,--set", sets, "override a parameter: key=value (repeatable)");
  run->add_option("-m,--mode", mode, "functional (data, no time), timed (default) or perf (time, no data)")
      ->check(CLI::IsMember({"functional", "timed", "perf"}));
  run->add_option("--trace", trace, "write a Chrome/Perfetto trace JSON");
  run->add_option("--check", checks, "sanitizer checks: race,memory,init,sync or all (docs/sanitizer.md)");
  run->add_option("--stats", stats, "write all statistics as JSON");
  run->add_option("--blocks", blocks, "blockDim (default: the sample's)")->check(CLI::Range(1, 65535));
  run->add_option("--scale", scale, "problem size multiplier (default 1; fixed-shape samples ignore it)")
      ->check(CLI::Range(1, 64));

  // MN-Core 2 assembly (VSM): the emulator's dump file, and the challenge's judge.
  std::string dump, testcase, answer;
  run->add_option("-d,--dump", dump, "VSM programs: write the `d get` lines to this file (default: stdout)");
  auto* judge = app.add_subcommand("judge", "judge an MN-Core Challenge answer (VSM) against its test case");
  judge->add_option("testcase", testcase, "test case .vsm (inputs, answer marker, expected outputs)")->required();
  judge->add_option("answer", answer, "answer .vsm")->required();
  judge->add_option("-p,--platform", platform, "MN-Core 2 platform (default mncore2)");
  judge->add_option("-s,--set", sets, "override an mncore2.* parameter: key=value (repeatable)");

  auto* list = app.add_subcommand("list", "list platforms and sample kernels");

  auto* info = app.add_subcommand("info", "print every parameter of a platform with its value and source");
  info->add_option("platform", platform, "platform name or config file (default: minimal)");
  info->add_option("-s,--set", sets, "override a parameter: key=value (repeatable)");

  keep_stderr_open();
  CLI11_PARSE(app, argc, argv);
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  npuvp::print_warnings_as_one_line();
  npuvp::catch_interrupts();
  int status = 0;
  bool outputs_checked = false;
  try {
    if (!stats.empty() && !trace.empty() && npuvp::OutputFile::same_file(stats, trace)) {
      npuvp::raise("cli", "--stats and --trace name the same file '{}': give each its own path", stats);
    }
    // The statistics are written when the run ends: a path that cannot be written fails now,
    // not after a long run (checked without creating or changing the file).
    if (!stats.empty()) npuvp::OutputFile::check_writable(stats, "stats", "statistics");
    outputs_checked = true;  // from here on, an error still writes what ran
    // --check: the check.* keys (the sanitizer reports and sets the exit status at exit).
    if (*run && !checks.empty()) {
      const npuvp::check::Options o = npuvp::check::parse_checks(checks);
      for (auto [on, key] : {std::pair{o.race, "race"}, {o.memory, "memory"}, {o.init, "init"}, {o.sync, "sync"}}) {
        if (on) sets.push_back(fmt::format("check.{}=true", key));
      }
    }
    const bool mncore_run = *run && (npuvp::mncore::is_vsm_file(kernel) || npuvp::mncore::cli_handles(kernel, platform));
    if (mncore_run && !mode.empty()) {  // the step machine has one level of detail: refused, not ignored
      fmt::print(stderr, "npuvp: --mode is an Ascend option; the MN-Core 2 step machine always moves data and "
                 "counts cycles\n");
      return 2;
    }
    if (*run && npuvp::mncore::is_vsm_file(kernel)) {
      if (!stats.empty() || blocks != 0) {
        npuvp::raise("npuvp", "--stats and --blocks do not apply to VSM programs (the dump is -d)");
      }
      status = npuvp::mncore::vsm_run(kernel, platform, sets, dump, trace);
    } else if (*judge) {
      status = npuvp::mncore::vsm_judge(testcase, answer, platform, sets);
    } else if (*run && npuvp::mncore::cli_handles(kernel, platform)) {
      status = npuvp::mncore::cli_run(kernel, platform, sets, trace, stats, blocks);
    } else if (*info && !platform.empty() && npuvp::mncore::is_mncore2_platform(platform)) {
      status = npuvp::mncore::cli_info(platform, sets);
    } else if (*run && kernel == "image_pipeline") {  // issue 28: DVPP -> AI Core -> AI CPU
      status = npuvp::kernels::image_pipeline_command(input, platform, sets, mode, trace, stats);
    } else if (*run && npuvp::onnx::cli_handles(kernel)) {  // issue 26: ONNX models
      status = npuvp::onnx::cli_run(kernel, data_dir, platform, sets, mode, precision, trace, stats);
    } else if (*run && npuvp::tik::cli_handles(kernel)) {
      status = npuvp::tik::cli_run(kernel, data_dir, out_dir, platform, sets, mode, trace, stats);
    } else if (*run) {
      status = run_command(kernel, platform, sets, mode, trace, stats, blocks, scale);
    } else if (*info) {
      status = info_command(platform.empty() ? "minimal" : platform, sets);
    } else if (*list) {
      fmt::print("platforms:\n");
      for (const auto& p : npuvp::available_platforms()) fmt::print("  {}\n", p);
      fmt::print("sample kernels:\n");
      for (const auto& s : npuvp::kernels::samples()) fmt::print("  {:<12} {}\n", s.name, s.description);
      fmt::print("  {:<12} {}\n", "image_pipeline",
                 "JPEG -> DVPP JPEGD + VPC -> AI Core normalise + small CNN -> AI CPU top-5 (IMAGE.jpg optional)");
      npuvp::mncore::cli_list_samples();
    }
    // A signal that came where no run loop polled (host-side work): the run finished anyway.
    npuvp::stop_if_interrupted("cli");
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "npuvp: error: {}\n", npuvp::error_text(e));
    // (Not the statistics again if writing them was what failed.)
    if (outputs_checked) finish_outputs(trace, stats, npuvp::error_text(e).rfind("stats @", 0) == 0);
    const int signal = npuvp::interrupted();
    return signal ? npuvp::interrupted_exit_status(signal) : 1;
  }
  return status;
}
