// The sanitizer's cost (models/check/sanitizer.h, docs/sanitizer.md): the same timed launch
// with every check on (check.race, .memory, .init, .sync) over without, on the 1024^3 f16
// matmul on one A2 core and the 8-core half add. Each iteration runs an unchecked and a
// checked child back to back, in alternating order, and the ratio is of the summed walls, so
// the machine's drift stays out of it. Target: checked_over_timed <= 2.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "bench/bench_support.h"
#include "sw/kernels/elementwise.h"
#include "sw/kernels/matmul.h"
#include "sw/runtime/device.h"
#include "tests/support/child_process.h"
#include "tikicpulib.h"

namespace {

using nlohmann::json;

const std::vector<std::string> kChecks = {"check.race=true", "check.memory=true", "check.init=true",
                                          "check.sync=true"};

std::vector<std::string> with_checks(std::vector<std::string> settings, bool checked) {
  if (checked) settings.insert(settings.end(), kChecks.begin(), kChecks.end());
  return settings;
}

// Wall seconds of one 1024^3 f16 matmul launch (f16 out) on one A2 core, timed mode.
json matmul_child(bool checked) {
  return npuvp::testing::run_in_child([&] {
    npuvp::Device::configure("core910b", with_checks({"sim.mode=timed", "platform.cores=1", "l2.slices=8"}, checked));
    auto& dev = npuvp::Device::instance();
    const uint32_t n = 1024;
    const size_t elems = size_t(n) * n;
    auto* a = static_cast<half*>(AscendC::GmAlloc(elems * 2));
    auto* b = static_cast<half*>(AscendC::GmAlloc(elems * 2));
    auto* c = static_cast<half*>(AscendC::GmAlloc(elems * 2));
    for (size_t i = 0; i < elems; ++i) {
      a[i] = half(float(i % 17) / 8 - 1);
      b[i] = half(float(i % 13) / 8 - 1);
    }
    json r = npuvp::bench::launch_figures(dev.launch("matmul", 1, [&] {
      npuvp::kernels::matmul_a2<half>(reinterpret_cast<GM_ADDR>(a), reinterpret_cast<GM_ADDR>(b),
                                      reinterpret_cast<GM_ADDR>(c), {n, n, n});
    }));
    AscendC::GmFree(a);
    AscendC::GmFree(b);
    AscendC::GmFree(c);
    return r;
  });
}

struct AddOp {
  template <class T>
  void operator()(const AscendC::LocalTensor<T>& z, const AscendC::LocalTensor<T>& x, const AscendC::LocalTensor<T>& y,
                  int32_t n) const {
    AscendC::Add(z, x, y, n);
  }
};

// Wall seconds of one 8-core half add of 2^21 elements (8 tiles x 2 buffers per core), timed.
json add_child(bool checked) {
  return npuvp::testing::run_in_child([&] {
    npuvp::Device::configure("minimal", with_checks({"sim.mode=timed"}, checked));
    auto& dev = npuvp::Device::instance();
    constexpr int32_t cores = 8, tiles = 8;
    const size_t n = size_t(1) << 21;
    const int32_t block_length = int32_t(n / cores);
    auto* x = static_cast<half*>(AscendC::GmAlloc(n * 2));
    auto* y = static_cast<half*>(AscendC::GmAlloc(n * 2));
    auto* z = static_cast<half*>(AscendC::GmAlloc(n * 2));
    for (size_t i = 0; i < n; ++i) x[i] = y[i] = half(float(i % 1000) * 0.25f);
    json r = npuvp::bench::launch_figures(dev.launch("add", cores, [&] {
      npuvp::kernels::KernelElementwise<half, 2, AddOp> op(AddOp{}, block_length, tiles);
      op.Init(reinterpret_cast<GM_ADDR>(x), reinterpret_cast<GM_ADDR>(y), reinterpret_cast<GM_ADDR>(z));
      op.Process();
    }));
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(z);
    return r;
  });
}

template <class Child>
void checked_over_timed(benchmark::State& state, Child child) {
  double plain = 0, checked = 0;
  bool checked_first = false;
  for (auto _ : state) {
    json p, c;
    if (checked_first) c = child(true);
    p = child(false);
    if (!checked_first) c = child(true);
    for (const json* r : {&p, &c}) {
      if (r->contains("error")) {
        state.SkipWithError((*r)["error"].get<std::string>().c_str());
        return;
      }
    }
    plain += p["wall"].get<double>();
    checked += c["wall"].get<double>();
    state.SetIterationTime(c["wall"].get<double>());
    checked_first = !checked_first;
  }
  state.counters["timed_ms"] = 1e3 * plain / double(state.iterations());
  state.counters["checked_over_timed"] = checked / plain;
}

void BM_Matmul1024_1core_CheckedOverTimed(benchmark::State& state) { checked_over_timed(state, matmul_child); }
BENCHMARK(BM_Matmul1024_1core_CheckedOverTimed)->UseManualTime()->Iterations(4)->Unit(benchmark::kMillisecond);

void BM_Add_8core_CheckedOverTimed(benchmark::State& state) { checked_over_timed(state, add_child); }
BENCHMARK(BM_Add_8core_CheckedOverTimed)->UseManualTime()->Iterations(4)->Unit(benchmark::kMillisecond);

}  // namespace
