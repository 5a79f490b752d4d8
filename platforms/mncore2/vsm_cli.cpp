#include "platforms/mncore2/vsm_cli.h"

#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <iterator>

#include "models/mncore/vsm.h"
#include "platforms/mncore2/cli.h"
#include "platforms/mncore2/vsm_config.h"
#include "tlm/log.h"
#include "tlm/progress.h"
#include "tlm/tracer.h"

namespace npuvp::mncore {

namespace {

std::string read_text(const std::string& path, const char* what) {
  std::ifstream in(path);
  if (!in) raise("npuvp", "cannot read {} '{}'", what, path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// VSM programs run on the MN-Core 2 board's shape (vsm::Shape, the values of mncore2.json).
void check_platform(const std::string& platform) {
  if (!platform.empty() && !is_mncore2_platform(platform)) {
    raise("npuvp", "VSM programs run on an MN-Core 2 platform (--platform mncore2), not on '{}'", platform);
  }
}

}  // namespace

bool is_vsm_file(const std::string& kernel) {
  return kernel.size() > 4 && kernel.compare(kernel.size() - 4, 4, ".vsm") == 0;
}

// The trace track of an instruction: one thread per unit of the PE instruction stream.
const char* unit_track(vsm::Unit u) {
  switch (u) {
    case vsm::Unit::Alu: return "ALU";
    case vsm::Unit::MauCalc: case vsm::Unit::MauWrite: case vsm::Unit::MauRead: return "MAU";
    case vsm::Unit::L1bm: case vsm::Unit::L1bmTurn: case vsm::Unit::L1bmTurnRead: return "L1BM";
    case vsm::Unit::L2bm: return "L2BM";
    case vsm::Unit::Mv: return "MV";
    case vsm::Unit::Wait: return "wait";
    default: return "nop";
  }
}

int vsm_run(const std::string& path, const std::string& platform, const std::vector<std::string>& sets,
            const std::string& dump, const std::string& trace) {
  check_platform(platform);
  const vsm::Shape shape = vsm_shape_from_config(platform, sets);
  const vsm::Program program = vsm::parse(read_text(path, "VSM program"), path);
  vsm::Machine machine(shape);
  // --trace: a Perfetto slice per instruction on its unit's track, in simulated time (the
  // clock turns cycles into seconds); a progress line once the run takes long.
  Tracer& tracer = Tracer::global();
  if (!trace.empty()) tracer.open(trace);
  const double ns_per_cycle = 1e3 / shape.clock_mhz;
  const uint64_t total = program.steps();
  ProgressLine progress(2.0);
  uint64_t issued = 0;
  machine.observe([&](const vsm::Statement& st, uint64_t first, uint64_t end) {
    issued += st.repeat;
    progress.update([&] { return fmt::format("{}: step {} of {} ({:.0f}%)", path, issued, total, 100.0 * double(issued) / double(total)); });
    if (!tracer.enabled()) return;
    const sc_core::sc_time start(double(first) * ns_per_cycle, sc_core::SC_NS);
    const sc_core::sc_time length(double(end - first) * ns_per_cycle, sc_core::SC_NS);
    for (const auto& in : st.instrs) {
      tracer.slice(tracer.track("mncore2", unit_track(in.unit)), in.text, start, length, {{"line", st.line}});
    }
  });
  std::string lines;
  machine.run(program, lines);
  progress.finish([&] { return fmt::format("{}: step {} of {} (100%)", path, issued, total); });
  if (tracer.enabled()) tracer.close();
  if (dump.empty()) {
    fmt::print("{}", lines);
  } else {
    std::ofstream out(dump);
    if (!out) raise("npuvp", "cannot write the dump to '{}'", dump);
    out << lines;
  }
  std::fflush(stdout);
  const vsm::RunStats& s = machine.stats();
  fmt::print(stderr, "npuvp: {}: {} steps ({} instruction steps, nops included), {} cycles ({} stalled in wait, {} in "
             "block transfers longer than their step) at {} cycles per step\n",
             path, s.steps, program.steps(), s.cycles, s.stall_cycles - s.transfer_stall_cycles, s.transfer_stall_cycles,
             machine.shape().cycles_per_step);
  if (s.macs) {
    // The MAU's matrix work against the board's half peak (docs/platforms.md): every MAB does
    // 16 x 16 multiply-accumulates per cycle at the clock (mncore2.clock_mhz).
    const vsm::Shape& sh = machine.shape();
    const double clock_hz = sh.clock_mhz * 1e6;
    const double peak = double(sh.pes() / sh.pe_per_mab) * 256 * 2 * clock_hz;
    const double flops = 2.0 * double(s.macs) / (double(s.cycles) / clock_hz);
    fmt::print(stderr, "npuvp: MAU: {} multiply-accumulates; {:.1f} TFLOPS over the run ({:.1f}% of the {:.1f} TFLOPS half peak)\n",
               s.macs, flops / 1e12, 100.0 * flops / peak, peak / 1e12);
  }
  return 0;
}

int vsm_judge(const std::string& testcase, const std::string& answer, const std::string& platform,
              const std::vector<std::string>& sets) {
  check_platform(platform);
  const vsm::Shape shape = vsm_shape_from_config(platform, sets);
  const vsm::JudgeResult r =
      vsm::judge(read_text(testcase, "test case"), testcase, read_text(answer, "answer"), answer, shape);
  fmt::print("{}\n", r.message);
  return r.accepted ? 0 : 1;
}

}  // namespace npuvp::mncore
