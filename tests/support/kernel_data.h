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

// A GmAlloc'd copy of `v` (simulated GM is host-visible).
template <class T>
T* to_gm(const std::vector<T>& v) {
  auto* p = static_cast<T*>(AscendC::GmAlloc(v.size() * sizeof(T)));
  std::memcpy(p, v.data(), v.size() * sizeof(T));
  return p;
}

template <class T>
bool same_bits(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

}  // namespace npuvp::testing
