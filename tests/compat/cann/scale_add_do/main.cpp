// Host program of scale_add_custom: input/x.bin, input/y.bin and the tiling in
// input/tiling.bin; output/z.bin. The ACL branch calls the kernel file's scale_add_do, then
// launches the kernel again through its generated launch header (the tiling by pointer) and
// checks that both launches wrote the same bytes.
#include "data_utils.h"
#include "scale_add_tiling.h"
#ifndef __CCE_KT_TEST__
#include "acl/acl.h"
#include "aclrtlaunch_scale_add_custom.h"
#include <cstring>
extern void scale_add_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x, uint8_t* y, uint8_t* z,
                         ScaleAddTiling tiling);
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void scale_add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, ScaleAddTiling tiling);
#endif

int32_t main(int32_t argc, char* argv[]) {
  (void)argc;
  (void)argv;
  const uint32_t blockDim = 4;
  ScaleAddTiling tiling;
  if (!ReadFile("./input/tiling.bin", sizeof(tiling), &tiling)) return 1;
  const size_t bytes = tiling.totalLength * sizeof(uint16_t);
  const char* soc = nullptr;
#ifdef __CCE_KT_TEST__
  uint8_t* x = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  uint8_t* y = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  uint8_t* z = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  if (!ReadFile("./input/x.bin", bytes, x) || !ReadFile("./input/y.bin", bytes, y)) return 1;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(scale_add_custom, blockDim, x, y, z, tiling);
  soc = aclrtGetSocName();
  if (!WriteFile("./output/z.bin", z, bytes)) return 1;
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
#else
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));
  uint8_t *xHost, *yHost, *zHost, *xDevice, *yDevice, *zDevice;
  CHECK_ACL(aclrtMallocHost(reinterpret_cast<void**>(&xHost), bytes));
  CHECK_ACL(aclrtMallocHost(reinterpret_cast<void**>(&yHost), bytes));
  CHECK_ACL(aclrtMallocHost(reinterpret_cast<void**>(&zHost), bytes));
  CHECK_ACL(aclrtMalloc(reinterpret_cast<void**>(&xDevice), bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(reinterpret_cast<void**>(&yDevice), bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(reinterpret_cast<void**>(&zDevice), bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  if (!ReadFile("./input/x.bin", bytes, xHost) || !ReadFile("./input/y.bin", bytes, yHost)) return 1;
  CHECK_ACL(aclrtMemcpy(xDevice, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(yDevice, bytes, yHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  scale_add_do(blockDim, nullptr, stream, xDevice, yDevice, zDevice, tiling);
  CHECK_ACL(aclrtSynchronizeStream(stream));
  soc = aclrtGetSocName();

  CHECK_ACL(aclrtMemcpy(zHost, bytes, zDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  if (!WriteFile("./output/z.bin", zHost, bytes)) return 1;

  uint8_t *again, *againHost;
  CHECK_ACL(aclrtMalloc(reinterpret_cast<void**>(&again), bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMallocHost(reinterpret_cast<void**>(&againHost), bytes));
  CHECK_ACL(ACLRT_LAUNCH_KERNEL(scale_add_custom)(blockDim, stream, xDevice, yDevice, again, &tiling));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  CHECK_ACL(aclrtMemcpy(againHost, bytes, again, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  if (std::memcmp(againHost, zHost, bytes) != 0) {
    std::fprintf(stderr, "the launch through aclrtlaunch_scale_add_custom wrote other results\n");
    return 1;
  }
  CHECK_ACL(aclrtFree(again));
  CHECK_ACL(aclrtFreeHost(againHost));
  CHECK_ACL(aclrtFree(xDevice));
  CHECK_ACL(aclrtFree(yDevice));
  CHECK_ACL(aclrtFree(zDevice));
  CHECK_ACL(aclrtFreeHost(xHost));
  CHECK_ACL(aclrtFreeHost(yHost));
  CHECK_ACL(aclrtFreeHost(zHost));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
#endif
  std::printf("scale_add_do: ran on %s\n", soc ? soc : "(unknown)");
  return 0;
}
