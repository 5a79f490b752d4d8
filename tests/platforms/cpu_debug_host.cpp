// A host program in the Ascend C CPU-debug style, for testing how the runtime reports errors
// to such programs: it prints a line, allocates GM, and launches the add sample kernel.
#include <cstdio>
#include <cstring>
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z);

int main() {
  std::printf("host: starting\n");  // must survive an error exit (stdout is flushed)
  constexpr size_t bytes = 8 * 2048 * sizeof(half);
  auto* x = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  auto* y = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  auto* z = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  std::memset(x, 0, bytes);
  std::memset(y, 0, bytes);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_custom, 8, x, y, z);
  std::printf("host: done\n");
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return 0;
}
