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

// f16 matmul (f16 out) of n^3 on `cores` A2 cores; returns wall seconds of the launch,
// simulated cycles and pipe instructions executed. With launches_before > 0 the measured
// launch is not the first: the L2 holds what the ones before left, and the host's caches
// are warm.
json matmul_child(const std::string& mode, uint32_t n, unsigned cores, int launches_before = 0) {
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
    auto* a = static_cast<half*>(AscendC::GmAlloc(elems * 2));
    auto* b = static_cast<half*>(AscendC::GmAlloc(elems * 2));
    auto* c = static_cast<half*>(AscendC::GmAlloc(elems * 2));
    for (size_t i = 0; i < elems; ++i) {
      a[i] = half(float(i % 17) / 8 - 1);
      b[i] = half(float(i % 13) / 8 - 1);
    }
    auto matmul = [&] {
      npuvp::kernels::matmul_a2<half>(reinterpret_cast<GM_ADDR>(a), reinterpret_cast<GM_ADDR>(b),
                                      reinterpret_cast<GM_ADDR>(c), {n, n, n});
    };
    // NPUVP_BENCH_PROFILE_LAUNCHES=N launches N - 1 more times first (warm L2), so a
    // profiler sees more than one launch's worth of the model; the figures are the last's.
    const char* profile = std::getenv("NPUVP_BENCH_PROFILE_LAUNCHES");
    for (int extra = launches_before + (profile ? std::atoi(profile) - 1 : 0); extra > 0; --extra) {
      dev.launch("matmul", cores, matmul);
    }
    npuvp::Stats::global().reset();  // the counters (pipe instructions) of the measured launch alone
    return npuvp::bench::launch_figures(dev.launch("matmul", cores, matmul));
  });
}

void run(benchmark::State& state, const std::string& mode, uint32_t n, unsigned cores, int launches_before = 0) {
  const json r = npuvp::bench::run_children(state, [&] { return matmul_child(mode, n, cores, launches_before); });
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
void BM_Matmul1024_1core_perf_warm(benchmark::State& state) { run(state, "perf", 1024, 1, 1); }
BENCHMARK(BM_Matmul1024_1core_perf_warm)->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);

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
