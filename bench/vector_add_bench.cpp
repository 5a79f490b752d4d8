// Simulation speed of a double-buffered vector kernel, side by side with the same arithmetic
// as a plain native loop in the same run. Compare the items_per_second columns: their ratio is
// the cost of simulating (timed mode, real data, 8 cores) over computing directly.
#include <benchmark/benchmark.h>
#include <cstring>
#include <vector>

#include "bench/bench_support.h"
#include "sw/kernels/elementwise.h"
#include "sw/runtime/device.h"
#include "sw/runtime/tikicpulib.h"
#include "tests/support/child_process.h"
#include "tlm/stats.h"

namespace {
constexpr int32_t kCores = 8;
constexpr int32_t kTileNum = 8;

struct AddOp {
  template <class T>
  void operator()(const AscendC::LocalTensor<T>& z, const AscendC::LocalTensor<T>& x,
                  const AscendC::LocalTensor<T>& y, int32_t n) const {
    AscendC::Add(z, x, y, n);
  }
};

// The kernel's GM buffers and one launch's body: x + y into z, `block_length` per core.
struct AddKernel {
  explicit AddKernel(int32_t block_length)
      : block_length(block_length), n(size_t(block_length) * kCores),
        x(static_cast<half*>(AscendC::GmAlloc(n * 2))), y(static_cast<half*>(AscendC::GmAlloc(n * 2))),
        z(static_cast<half*>(AscendC::GmAlloc(n * 2))) {}
  ~AddKernel() {
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(z);
  }
  AddKernel(const AddKernel&) = delete;
  AddKernel& operator=(const AddKernel&) = delete;
  void operator()() const {
    npuvp::kernels::KernelElementwise<half, 2, AddOp> op(AddOp{}, block_length, kTileNum);
    op.Init(reinterpret_cast<GM_ADDR>(x), reinterpret_cast<GM_ADDR>(y), reinterpret_cast<GM_ADDR>(z));
    op.Process();
  }

  int32_t block_length;
  size_t n;
  half *x, *y, *z;
};

void BM_SimulatedAdd(benchmark::State& state) {
  npuvp::Device& dev = npuvp::Device::instance();
  const AddKernel add(static_cast<int32_t>(state.range(0)) / kCores);
  const size_t n = add.n;
  for (size_t i = 0; i < n; ++i) add.x[i] = add.y[i] = half(float(i % 1000) * 0.25f);
  uint64_t cycles = 0, instructions = 0;
  for (auto _ : state) {
    npuvp::Stats::global().reset();
    dev.launch("add", kCores, [&] { add(); });
    cycles = dev.last_run().cycles;
    instructions = npuvp::bench::pipe_instructions();
  }
  if (add.z[n - 1] != half(float((n - 1) % 1000) * 0.5f)) state.SkipWithError("wrong result");
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(n));
  state.counters["sim_cycles"] = double(cycles);
  state.counters["instr_per_s"] =
      benchmark::Counter(double(instructions) * double(state.iterations()), benchmark::Counter::kIsRate);
}

// The same kernel in perf mode (time only), in a forked child: a mode is fixed at elaboration.
void BM_SimulatedAdd_perf(benchmark::State& state) {
  const int32_t block_length = static_cast<int32_t>(state.range(0)) / kCores;
  npuvp::bench::run_children(state, [&] {
    return npuvp::testing::run_in_child([&] {
      npuvp::Device::configure("minimal", {"sim.mode=perf"});
      npuvp::Device& dev = npuvp::Device::instance();
      const AddKernel add(block_length);
      // The last of several launches, as BM_SimulatedAdd's repeated runs: warm L2, warm host
      // pages and caches.
      for (int warm = 0; warm < 20; ++warm) dev.launch("add", kCores, [&] { add(); });
      npuvp::Stats::global().reset();
      const auto& run = dev.launch("add", kCores, [&] { add(); });
      return npuvp::bench::launch_figures(run);
    });
  });
}

void BM_NativeAdd(benchmark::State& state) {
  const size_t n = size_t(state.range(0));
  std::vector<half> x(n), y(n), z(n);
  for (size_t i = 0; i < n; ++i) x[i] = y[i] = half(float(i % 1000) * 0.25f);
  for (auto _ : state) {
    for (size_t i = 0; i < n; ++i) z[i] = half(float(x[i]) + float(y[i]));
    benchmark::DoNotOptimize(z.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(n));
}

// The forked ones first: a child cannot configure a device its parent has already built.
BENCHMARK(BM_SimulatedAdd_perf)
    ->Arg(1 << 17)
    ->Arg(1 << 21)
    ->UseManualTime()
    ->Iterations(5)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SimulatedAdd)->Arg(1 << 17)->Arg(1 << 21)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NativeAdd)->Arg(1 << 17)->Arg(1 << 21)->Unit(benchmark::kMillisecond);
}  // namespace
