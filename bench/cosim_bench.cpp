// RTL co-simulation speed (builds with Verilator only): how many RTL clock cycles per second
// the Verilated cube runs, and the wall time of the same matmul on the cube model and on the
// RTL, side by side in one run.
//
// "The same matmul" is the cube work of the `npuvp run matmul` sample (256 x 192 x 320, f16 ->
// f32 on one A2 core): the 20 Mmads its kernel issues (128 x 128 L0C tiles, k in steps of 64,
// 3840 fractal steps), run here directly on L0 buffers, without the rest of the platform.
// The whole kernel (with MTE, FixPipe, SystemC) is compared by `npuvp run matmul --set
// core.cube.impl=model|rtl` (docs/performance.md).
#if NPUVP_HAVE_VERILATOR
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "models/aicore/cube_unit.h"
#include "rtl_cosim/rtl_cube.h"

namespace {
using namespace npuvp::aicore;

constexpr uint32_t kM = 256, kN = 192, kK = 320;  // the sample's shape
constexpr uint32_t kBaseM = 128, kBaseN = 128, kBaseK = 64;

struct L0 {
  std::vector<uint8_t> a, b, c;
  L0() : a(64 * 1024), b(64 * 1024), c(128 * 1024) {
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
    for (size_t x = 0; x + 2 <= a.size(); x += 2) {
      const _Float16 va = static_cast<_Float16>(dist(rng)), vb = static_cast<_Float16>(dist(rng));
      std::memcpy(&a[x], &va, 2);
      std::memcpy(&b[x], &vb, 2);
    }
  }
};

// The sample kernel's Mmads, in its order.
std::vector<Mmad> sample_matmul_mmads() {
  std::vector<Mmad> ops;
  for (uint32_t m0 = 0; m0 < kM; m0 += kBaseM) {
    for (uint32_t n0 = 0; n0 < kN; n0 += kBaseN) {
      for (uint32_t k0 = 0; k0 < kK; k0 += kBaseK) {
        Mmad op;
        op.m = std::min(kBaseM, kM - m0);
        op.n = std::min(kBaseN, kN - n0);
        op.k = std::min(kBaseK, kK - k0);
        op.init_c = k0 == 0;
        ops.push_back(op);
      }
    }
  }
  return ops;
}

CubeUnit::Params a2() {
  CubeUnit::Params p;
  p.a2_types = true;
  return p;
}

void BM_SampleMatmulCube_Model(benchmark::State& state) {
  L0 l0;
  const CubeUnit cube(a2());
  const auto ops = sample_matmul_mmads();
  for (auto _ : state) {
    for (const Mmad& op : ops) cube.execute(op, l0.a.data(), l0.b.data(), l0.c.data(), nullptr);
    benchmark::ClobberMemory();
  }
  state.counters["mmads"] = double(ops.size());
}
BENCHMARK(BM_SampleMatmulCube_Model)->Unit(benchmark::kMillisecond);

void BM_SampleMatmulCube_Rtl(benchmark::State& state) {
  L0 l0;
  auto rtl = npuvp::cosim::make_rtl_cube("npuvp_cube");
  const auto ops = sample_matmul_mmads();
  uint64_t cycles = 0;
  for (auto _ : state) {
    for (const Mmad& op : ops) cycles += rtl->run(op, l0.a.data(), l0.b.data(), l0.c.data(), nullptr);
    benchmark::ClobberMemory();
  }
  state.counters["rtl_cycles"] = double(cycles) / double(state.iterations());
  state.counters["cycles_per_s"] = benchmark::Counter(double(cycles), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SampleMatmulCube_Rtl)->Unit(benchmark::kMillisecond);

// Both in one iteration: the ratio RTL / model wall time, and the RTL's cycles per second.
void BM_SampleMatmulCube_RtlOverModel(benchmark::State& state) {
  L0 model_l0, rtl_l0;
  const CubeUnit cube(a2());
  auto rtl = npuvp::cosim::make_rtl_cube("npuvp_cube");
  const auto ops = sample_matmul_mmads();
  double model_s = 0, rtl_s = 0;
  uint64_t cycles = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    for (const Mmad& op : ops) cube.execute(op, model_l0.a.data(), model_l0.b.data(), model_l0.c.data(), nullptr);
    const auto t1 = std::chrono::steady_clock::now();
    for (const Mmad& op : ops) cycles += rtl->run(op, rtl_l0.a.data(), rtl_l0.b.data(), rtl_l0.c.data(), nullptr);
    const auto t2 = std::chrono::steady_clock::now();
    model_s += std::chrono::duration<double>(t1 - t0).count();
    rtl_s += std::chrono::duration<double>(t2 - t1).count();
  }
  if (model_l0.c != rtl_l0.c) state.SkipWithError("RTL and model results differ");
  state.counters["model_ms"] = 1e3 * model_s / double(state.iterations());
  state.counters["rtl_ms"] = 1e3 * rtl_s / double(state.iterations());
  state.counters["rtl_over_model"] = rtl_s / model_s;
  state.counters["rtl_cycles_per_s"] = double(cycles) / rtl_s;
}
BENCHMARK(BM_SampleMatmulCube_RtlOverModel)->Unit(benchmark::kMillisecond)->Iterations(3);

// Raw RTL speed: back-to-back steps of one long output fractal chain (f16) or int8 steps.
void BM_RtlCubeCycles(benchmark::State& state) {
  const bool f16 = state.range(0) == 0;
  L0 l0;
  auto rtl = npuvp::cosim::make_rtl_cube("npuvp_cube");
  Mmad op;
  op.m = op.n = 64;
  op.k = f16 ? 256 : 512;  // 4 x 4 x 16 = 256 steps either way
  if (!f16) {
    op.a_type = op.b_type = DType::S8;
    op.c_type = DType::S32;
  }
  uint64_t cycles = 0;
  for (auto _ : state) cycles += rtl->run(op, l0.a.data(), l0.b.data(), l0.c.data(), nullptr);
  state.counters["cycles_per_s"] = benchmark::Counter(double(cycles), benchmark::Counter::kIsRate);
  state.SetLabel(f16 ? "f16 x f16 -> f32" : "s8 x s8 -> s32");
}
BENCHMARK(BM_RtlCubeCycles)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
#endif  // NPUVP_HAVE_VERILATOR
