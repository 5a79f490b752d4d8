// Bit views of floats for bit-exact comparisons in tests.
#pragma once
#include <cstdint>
#include <cstring>

namespace npuvp::testing {

inline uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float ffrom(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

}  // namespace npuvp::testing
