// Host program for add_custom in the Ascend C CPU-debug style: allocate GM, fill the inputs,
// launch the kernel with ICPU_RUN_KF, check the result. On npuvp the kernel runs on the
// simulated AI Cores of the platform chosen by $NPUVP_PLATFORM (default "minimal").
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "tikicpulib.h"

// The kernel, defined in add_custom.cpp.
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z);

namespace {

// Must match add_custom.cpp.
constexpr uint32_t TOTAL_LENGTH = 8 * 2048;
constexpr uint32_t USE_CORE_NUM = 8;

// Deterministic inputs in [-100, 100): a linear congruential generator with a fixed seed.
void fill(half* data, uint32_t n, uint32_t seed) {
  uint32_t state = seed;
  for (uint32_t i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    const float unit = static_cast<float>(state >> 8) / static_cast<float>(1u << 24);  // [0, 1)
    data[i] = static_cast<half>(unit * 200.0f - 100.0f);
  }
}

uint16_t bits(half v) {
  uint16_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

}  // namespace

int main() {
  const size_t bytes = TOTAL_LENGTH * sizeof(half);
  uint8_t* x = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  uint8_t* y = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  uint8_t* z = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  half* xs = reinterpret_cast<half*>(x);
  half* ys = reinterpret_cast<half*>(y);
  half* zs = reinterpret_cast<half*>(z);
  fill(xs, TOTAL_LENGTH, 1);
  fill(ys, TOTAL_LENGTH, 2);
  std::memset(z, 0, bytes);

  AscendC::SetKernelMode(AscendC::KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_custom, USE_CORE_NUM, x, y, z);  // returns when every block has finished

  int status = 0;
  for (uint32_t i = 0; i < TOTAL_LENGTH; ++i) {
    const half want = static_cast<half>(static_cast<float>(xs[i]) + static_cast<float>(ys[i]));
    if (bits(zs[i]) != bits(want)) {
      std::printf("add_custom: FAIL at element %u: %g + %g gave 0x%04x (%g), want 0x%04x (%g)\n", i,
                  static_cast<double>(xs[i]), static_cast<double>(ys[i]), bits(zs[i]),
                  static_cast<double>(zs[i]), bits(want), static_cast<double>(want));
      status = 1;
      break;
    }
  }
  if (status == 0) std::printf("add_custom: PASS (%u elements)\n", TOTAL_LENGTH);

  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return status;
}
