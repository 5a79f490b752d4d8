// Functional Mmad throughput (the cube unit's execute(), the simulator's hot path for matrix
// kernels) side by side with single-threaded OpenBLAS sgemm on the same m = n = k, in the same
// run. Compare the GFLOPS counters (2 * MAC per second); items_per_second counts MACs.
//
// The L0 buffers are plain byte arrays here, as large as the shape needs (1024^3 does not fit
// a real L0A): CubeUnit takes raw pointers, and check() is called with those sizes.
//
// OpenBLAS chooses its kernel from the CPU model when the library loads; a CPU newer than the
// library (e.g. 0.3.21 on Sapphire/Emerald Rapids) silently gets the SSE3 "Prescott" kernel.
// The benchmark label shows the kernel in use. For a fair comparison on such a machine run
// with OPENBLAS_CORETYPE=SkylakeX (AVX-512) or Haswell (AVX2) in the environment.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "models/aicore/cube_unit.h"

#if NPUVP_BENCH_OPENBLAS
#include <cblas.h>
// Declared here too: the cblas.h found may be another BLAS's header.
extern "C" void openblas_set_num_threads(int num_threads);
extern "C" char* openblas_get_corename(void);
#endif

namespace {

double gflop(int64_t n) { return 2.0 * double(n) * double(n) * double(n) / 1e9; }

void BM_Mmad_f16f32(benchmark::State& state) {
  using namespace npuvp::aicore;
  const uint32_t n = static_cast<uint32_t>(state.range(0));
  Mmad op;
  op.m = op.n = op.k = n;
  op.a_type = op.b_type = DType::F16;
  op.c_type = DType::F32;
  // f16 fractals hold 16 x 16 elements, so A and B take n * n halves and C n * n floats
  // (n a multiple of 16 here).
  std::vector<uint8_t> l0a(size_t(n) * n * 2), l0b(size_t(n) * n * 2), l0c(size_t(n) * n * 4);
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (size_t i = 0; i < size_t(n) * n; ++i) {
    const _Float16 a = static_cast<_Float16>(dist(rng)), b = static_cast<_Float16>(dist(rng));
    std::memcpy(&l0a[2 * i], &a, 2);
    std::memcpy(&l0b[2 * i], &b, 2);
  }
  const CubeUnit cube;
  const std::string why = cube.check(op, l0a.size(), l0b.size(), l0c.size(), 0);
  if (!why.empty()) {
    state.SkipWithError(why.c_str());
    return;
  }
  for (auto _ : state) {
    cube.execute(op, l0a.data(), l0b.data(), l0c.data(), nullptr);
    benchmark::DoNotOptimize(l0c.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(n) * n * n);
  state.counters["GFLOPS"] =
      benchmark::Counter(gflop(n) * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Mmad_f16f32)->Arg(128)->Arg(1024)->Unit(benchmark::kMicrosecond);

#if NPUVP_BENCH_OPENBLAS
void BM_OpenBLAS_sgemm(benchmark::State& state) {
  openblas_set_num_threads(1);
  const int n = static_cast<int>(state.range(0));
  std::vector<float> a(size_t(n) * n), b(size_t(n) * n), c(size_t(n) * n);
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (auto& x : a) x = dist(rng);
  for (auto& x : b) x = dist(rng);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(),
                n, 0.0f, c.data(), n);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(n) * n * n);
  state.counters["GFLOPS"] =
      benchmark::Counter(gflop(n) * double(state.iterations()), benchmark::Counter::kIsRate);
  state.SetLabel(std::string("OpenBLAS kernel ") + openblas_get_corename());
}
BENCHMARK(BM_OpenBLAS_sgemm)->Arg(128)->Arg(1024)->Unit(benchmark::kMicrosecond);
#endif

}  // namespace
