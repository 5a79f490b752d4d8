#include "sw/kernels/matmul_reference.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <thread>

namespace npuvp::kernels {

namespace {
// Products this large run on every host core (about a second on one core and up).
constexpr uint64_t kThreadedMacs = uint64_t(1) << 30;
}  // namespace

// f16 inputs: exact products, f32 accumulation in increasing k with round-to-nearest-even
// after every addition. Computed a few rows at a time, k outer and j inner: every element of
// C still adds its products in increasing k, one rounding per addition, but the inner loop
// runs along a row of B (contiguous, so the host vectorises it: see CMakeLists.txt) and each row of B read serves
// several rows of C. A product of two f16 values is exact in f32, so a fused multiply-add,
// if the compiler makes one, rounds as a multiply and an add do.
std::vector<float> matmul_reference(const std::vector<_Float16>& a, const std::vector<_Float16>& b, uint32_t m,
                                    uint32_t n, uint32_t k, const ReferenceRun& run) {
  constexpr uint32_t kRows = 8;
  const std::vector<float> bf(b.begin(), b.end());  // f16 -> f32 once (exact)
  std::vector<float> c(size_t(m) * n, 0.0f);
  auto rows_from = [&](uint32_t i0) {
    const uint32_t rows = std::min(kRows, m - i0);
    for (uint32_t kk = 0; kk < k; ++kk) {
      const float* const b_row = &bf[size_t(kk) * n];
      for (uint32_t i = i0; i < i0 + rows; ++i) {
        const float aik = float(a[size_t(i) * k + kk]);
        float* const c_row = &c[size_t(i) * n];
        for (uint32_t j = 0; j < n; ++j) c_row[j] += aik * b_row[j];
      }
    }
  };
  // Groups of rows go to the threads in turn; the calling thread works too, and reports.
  const uint32_t groups = (m + kRows - 1) / kRows;
  unsigned threads = run.threads;
  if (threads == 0) threads = uint64_t(m) * n * k >= kThreadedMacs ? std::thread::hardware_concurrency() : 1;
  threads = std::max(1u, std::min<unsigned>(threads, groups));
  std::atomic<uint32_t> next{0}, done{0};
  auto work = [&](bool reports) {
    for (uint32_t g; (g = next.fetch_add(1)) < groups;) {
      rows_from(g * kRows);
      const uint32_t finished = done.fetch_add(1) + 1;
      if (reports && run.progress) run.progress(double(finished) / groups);
    }
  };
  std::vector<std::thread> helpers;
  for (unsigned t = 1; t < threads; ++t) helpers.emplace_back(work, false);
  work(true);
  for (std::thread& h : helpers) h.join();
  if (run.progress) run.progress(1.0);
  // A NaN's sign and payload follow which operand the host's add took it from, and so the
  // compiler's flags (vectorised or not, sanitizers): every NaN is pinned to the positive
  // quiet NaN, so the reference's bits are the same in every build.
  const float canonical_nan = std::numeric_limits<float>::quiet_NaN();
  for (float& x : c) x = x != x ? canonical_nan : x;
  return c;
}

}  // namespace npuvp::kernels
