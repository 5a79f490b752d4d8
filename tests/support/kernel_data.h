// Test data for kernel tests: deterministic random vectors and copies into simulated GM.
#pragma once
#include <cstring>
#include <random>
#include <vector>
#include "tikicpulib.h"

namespace npuvp::testing {

template <class T>
std::vector<T> random_vector(size_t n, uint32_t seed, float lo = -8, float hi = 8) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(d(gen));
  return v;
}

// A GmAlloc'd copy of `v` (simulated GM is host-visible), padded as aclrtMalloc pads (whole
// 32 B blocks, plus 32 B) and asking for the padding: kernels read a tensor's ragged end in
// whole-block DataCopys, and every byte they touch must be the host's for the sanitizer's
// bounds (NPUVP_CHECK=memory; docs/sanitizer.md).
template <class T>
T* to_gm(const std::vector<T>& v) {
  auto* p = static_cast<T*>(AscendC::GmAlloc((v.size() * sizeof(T) + 31) / 32 * 32 + 32));
  std::memcpy(p, v.data(), v.size() * sizeof(T));
  return p;
}

template <class T>
bool same_bits(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

}  // namespace npuvp::testing
