// Simulation speed of whole kernels on whole platforms, next to single-thread OpenBLAS sgemm
// of the same shape (mmad_bench.cpp's BM_OpenBLAS_sgemm/1024, same run).
//
// SystemC elaborates once per process and a platform's mode is fixed at elaboration, so each
// measurement runs in a forked child (tests/support/child_process.h) that builds its device,
// times only the kernel launch, and reports back; the benchmark uses that as manual time.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_support.h"
#include "sw/kernels/matmul.h"
#include "sw/runtime/device.h"
#include "tests/support/child_process.h"
#include "tikicpulib.h"
#include "tlm/stats.h"

namespace {

using nlohmann::json;

// What the measured launch finds.
enum class Before {
  Nothing,      // the first launch of the process: empty L2, cold host
  SameLaunch,   // after the same launch: its operands in the L2, the host warm
  OtherMatmul,  // after a launch on other operands: the L2 fills again, the host warm
};

// f16 matmul (f16 out) of n^3 on `cores` A2 cores; returns wall seconds of the launch,
// simulated cycles and pipe instructions executed.
json matmul_child(const std::string& mode, uint32_t n, unsigned cores, Before before = Before::Nothing) {
  return npuvp::testing::run_in_child([&] {
    std::vector<std::string> settings = {"sim.mode=" + mode, "platform.cores=" + std::to_string(cores),
                                         "l2.slices=" + std::to_string(cores <= 8 ? 8 : 16)};
    // NPUVP_BENCH_SET="key=value key=value" adds settings: under valgrind, which cannot
    // reserve the 64 GiB GM mapping, "gm.size=1073741824" lets the run go ahead.
    if (const char* extra = std::getenv("NPUVP_BENCH_SET")) {
      std::istringstream words(extra);
      for (std::string word; words >> word;) settings.push_back(word);
    }
    npuvp::Device::configure("core910b", settings);
    auto& dev = npuvp::Device::instance();
    const size_t elems = size_t(n) * n;
    struct Operands {
      half *a, *b, *c;
    };
    auto operands = [&] {
      Operands o{static_cast<half*>(AscendC::GmAlloc(elems * 2)), static_cast<half*>(AscendC::GmAlloc(elems * 2)),
                 static_cast<half*>(AscendC::GmAlloc(elems * 2))};
      for (size_t i = 0; i < elems; ++i) {
        o.a[i] = half(float(i % 17) / 8 - 1);
        o.b[i] = half(float(i % 13) / 8 - 1);
      }
      return o;
    };
    const Operands first = operands();
    const Operands measured = before == Before::OtherMatmul ? operands() : first;
    auto matmul_on = [&](const Operands& o) {
      return [&] {
        npuvp::kernels::matmul_a2<half>(reinterpret_cast<GM_ADDR>(o.a), reinterpret_cast<GM_ADDR>(o.b),
                                        reinterpret_cast<GM_ADDR>(o.c), {n, n, n});
      };
    };
    // NPUVP_BENCH_PROFILE_LAUNCHES=N launches N - 1 more times first (warm L2), so a
    // profiler sees more than one launch's worth of the model; the figures are the last's.
    const char* profile = std::getenv("NPUVP_BENCH_PROFILE_LAUNCHES");
    for (int extra = (before == Before::Nothing ? 0 : 1) + (profile ? std::atoi(profile) - 1 : 0); extra > 0;
         --extra) {
      dev.launch("matmul", cores, matmul_on(first));
    }
    npuvp::Stats::global().reset();  // the counters (pipe instructions) of the measured launch alone
    return npuvp::bench::launch_figures(dev.launch("matmul", cores, matmul_on(measured)));
  });
}

void run(benchmark::State& state, const std::string& mode, uint32_t n, unsigned cores, Before before = Before::Nothing) {
  const json r = npuvp::bench::run_children(state, [&] { return matmul_child(mode, n, cores, before); });
  if (!r.empty()) state.counters["GFLOPS"] = 2.0 * double(n) * n * n / r["wall"].get<double>() / 1e9;
}

void BM_Matmul1024_1core(benchmark::State& state) {
  static const char* modes[] = {"functional", "timed", "perf"};
  run(state, modes[state.range(0)], 1024, 1);
  state.SetLabel(modes[state.range(0)]);
}
BENCHMARK(BM_Matmul1024_1core)->Arg(0)->Arg(1)->Arg(2)->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);

// The same perf launch after one before it (warm L2 and host): a kernel in a sequence of
// launches. The first launch (BM_Matmul1024_1core/2) also simulates filling the L2 from HBM.
void BM_Matmul1024_1core_perf_warm(benchmark::State& state) { run(state, "perf", 1024, 1, Before::SameLaunch); }
BENCHMARK(BM_Matmul1024_1core_perf_warm)->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);

// A perf launch on operands the L2 has never held, after a launch on others: it fills the
// L2 as a first launch does, on a host that has run the model before (a layer in a network).
void BM_Matmul1024_1core_perf_new_operands(benchmark::State& state) {
  run(state, "perf", 1024, 1, Before::OtherMatmul);
}
BENCHMARK(BM_Matmul1024_1core_perf_new_operands)->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);

// Timing's cost as one figure: each iteration runs a functional and a timed child back to
// back (in alternating order, so neither always runs on a warmer host), and the ratio is of
// the summed walls. Pairing keeps the machine's drift out of the ratio, which two separate
// benchmarks minutes apart do not.
void BM_Matmul1024_1core_TimedOverFunctional(benchmark::State& state) {
  double functional = 0, timed = 0;
  bool timed_first = false;
  for (auto _ : state) {
    json f, t;
    if (timed_first) t = matmul_child("timed", 1024, 1);
    f = matmul_child("functional", 1024, 1);
    if (!timed_first) t = matmul_child("timed", 1024, 1);
    for (const json* r : {&f, &t}) {
      if (r->contains("error")) {
        state.SkipWithError((*r)["error"].get<std::string>().c_str());
        return;
      }
    }
    functional += f["wall"].get<double>();
    timed += t["wall"].get<double>();
    state.SetIterationTime(t["wall"].get<double>());
    timed_first = !timed_first;
  }
  state.counters["functional_ms"] = 1e3 * functional / double(state.iterations());
  state.counters["timed_over_functional"] = timed / functional;
}
BENCHMARK(BM_Matmul1024_1core_TimedOverFunctional)->UseManualTime()->Iterations(6)->Unit(benchmark::kMillisecond);

void BM_Matmul4096_32core_perf(benchmark::State& state) { run(state, "perf", 4096, 32); }
BENCHMARK(BM_Matmul4096_32core_perf)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
