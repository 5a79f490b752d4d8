// The floor under every timed figure: what SystemC itself charges for a thread that waits for
// simulated time, with nothing else to do (no model). A pipe instruction costs the platform
// about 1.4 such waits (docs/performance.md), so this, next to BM_Matmul1024_1core/2 in the
// same run, says how much of a launch is the kernel's scheduling rather than npuvp's model.
//
// `processes` threads each wait 100 000 times; every wait ends at its own simulated time
// (the threads' periods differ), so each is one SystemC time step, as most of a launch's are.
// In a forked child: SystemC elaborates once per process.
#include <benchmark/benchmark.h>

#include <chrono>
#include <string>
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <systemc>

#include "tests/support/child_process.h"

namespace {

constexpr int kWaits = 100000;

void BM_SystemCTimedWait(benchmark::State& state) {
  const int processes = static_cast<int>(state.range(0));
  double walls = 0;
  for (auto _ : state) {
    const nlohmann::json r = npuvp::testing::run_in_child([&] {
      for (int p = 0; p < processes; ++p) {
        // Periods of 1000 + p ps: no two threads wake at the same time.
        const sc_core::sc_time period(1000.0 + p, sc_core::SC_PS);
        sc_core::sc_spawn([period] {
          for (int k = 0; k < kWaits; ++k) sc_core::wait(period);
        });
      }
      const auto start = std::chrono::steady_clock::now();
      sc_core::sc_start();
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return nlohmann::json{{"wall", wall}};
    });
    if (r.contains("error")) {
      state.SkipWithError(r["error"].get<std::string>().c_str());
      return;
    }
    const double wall = r["wall"].get<double>();
    state.SetIterationTime(wall);
    walls += wall;
  }
  state.counters["ns_per_wait"] = walls * 1e9 / (double(kWaits) * processes * double(state.iterations()));
}
BENCHMARK(BM_SystemCTimedWait)->Arg(1)->Arg(8)->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);

}  // namespace
