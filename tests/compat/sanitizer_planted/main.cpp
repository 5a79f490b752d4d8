// Host program of the planted-bug kernels: `ascendc_kernels_bbit <kernel>` runs one of them
// on 4 blocks over x, y (made here) and z, then checks z = 2x + y for the correct kernels
// ("result: PASS" or "result: FAIL"). The CPU-debug branch runs it through tikicpulib, the
// other through the ACL runtime.
#include <cstdio>
#include <cstring>
#include <vector>
#ifndef __CCE_KT_TEST__
#include "acl/acl.h"
#include "aclrtlaunch_correct_flags.h"
#include "aclrtlaunch_correct_queues.h"
#include "aclrtlaunch_planted_early_free.h"
#include "aclrtlaunch_planted_no_enque.h"
#include "aclrtlaunch_planted_no_init.h"
#include "aclrtlaunch_planted_overlap_block.h"
#include "aclrtlaunch_planted_pingpong_no_wait.h"
#include "aclrtlaunch_planted_shared_output.h"
#include "aclrtlaunch_planted_stencil_tail.h"
#include "aclrtlaunch_planted_wrong_barrier.h"
#else
#include "tikicpulib.h"
#define KERNEL(name) extern "C" __global__ __aicore__ void name(GM_ADDR x, GM_ADDR y, GM_ADDR z);
KERNEL(planted_no_enque)
KERNEL(planted_early_free)
KERNEL(planted_stencil_tail)
KERNEL(planted_no_init)
KERNEL(planted_shared_output)
KERNEL(planted_wrong_barrier)
KERNEL(planted_pingpong_no_wait)
KERNEL(planted_overlap_block)
KERNEL(correct_queues)
KERNEL(correct_flags)
#undef KERNEL
#endif

#define CHECK_ACL(call)                                                                          \
  do {                                                                                           \
    if ((call) != 0) {                                                                           \
      std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #call);                    \
      return 1;                                                                                  \
    }                                                                                            \
  } while (0)

int32_t main(int32_t argc, char* argv[]) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <kernel>\n", argv[0]);
    return 2;
  }
  const char* name = argv[1];
  const uint32_t blockDim = 4;
  const size_t n = 4 * 2048, bytes = n * sizeof(float);
  std::vector<float> x(n), y(n), z(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = float(i % 97) * 0.25f;
    y[i] = float(i % 13) - 6.0f;
  }
#ifdef __CCE_KT_TEST__
  auto* xd = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  auto* yd = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  auto* zd = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  std::memcpy(xd, x.data(), bytes);
  std::memcpy(yd, y.data(), bytes);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
#define RUN(kernel) \
  if (std::strcmp(name, #kernel) == 0) {                 \
    ICPU_RUN_KF(kernel, blockDim, xd, yd, zd);            \
  } else
  RUN(planted_no_enque) RUN(planted_early_free) RUN(planted_stencil_tail) RUN(planted_no_init)
  RUN(planted_shared_output) RUN(planted_wrong_barrier) RUN(planted_pingpong_no_wait) RUN(planted_overlap_block)
  RUN(correct_queues) RUN(correct_flags) {
    std::fprintf(stderr, "unknown kernel %s\n", name);
    return 2;
  }
#undef RUN
  std::memcpy(z.data(), zd, bytes);
  AscendC::GmFree(xd);
  AscendC::GmFree(yd);
  AscendC::GmFree(zd);
#else
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));
  void *xd, *yd, *zd;
  CHECK_ACL(aclrtMalloc(&xd, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&yd, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&zd, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemcpy(xd, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(yd, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemset(zd, bytes, 0, bytes));
#define RUN(kernel) \
  if (std::strcmp(name, #kernel) == 0) {                                          \
    CHECK_ACL(ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, xd, yd, zd));          \
  } else
  RUN(planted_no_enque) RUN(planted_early_free) RUN(planted_stencil_tail) RUN(planted_no_init)
  RUN(planted_shared_output) RUN(planted_wrong_barrier) RUN(planted_pingpong_no_wait) RUN(planted_overlap_block)
  RUN(correct_queues) RUN(correct_flags) {
    std::fprintf(stderr, "unknown kernel %s\n", name);
    return 2;
  }
#undef RUN
  CHECK_ACL(aclrtSynchronizeStream(stream));
  CHECK_ACL(aclrtMemcpy(z.data(), bytes, zd, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  CHECK_ACL(aclrtFree(xd));
  CHECK_ACL(aclrtFree(yd));
  CHECK_ACL(aclrtFree(zd));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
#endif
  if (std::strncmp(name, "correct_", 8) == 0) {
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i) wrong += z[i] != 2.0f * x[i] + y[i];
    std::printf("%s: result: %s (%zu of %zu wrong)\n", name, wrong ? "FAIL" : "PASS", wrong, n);
    return wrong ? 1 : 0;
  }
  std::printf("%s: ran\n", name);
  return 0;
}
