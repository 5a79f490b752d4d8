// Host program of vadd_custom: reads input/x.bin and input/y.bin, runs the kernel on 8
// blocks and writes output/z.bin. The CPU-debug branch runs it through tikicpulib, the
// other through the ACL runtime.
#include "data_utils.h"
#ifndef __CCE_KT_TEST__
#include "acl/acl.h"
#include "aclrtlaunch_vadd_custom.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void vadd_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z);
#endif

int32_t main(int32_t argc, char* argv[]) {
  (void)argc;
  (void)argv;
  const uint32_t blockDim = 8;
  const size_t bytes = 8 * 4096 * sizeof(uint16_t);
  const char* soc = nullptr;  // the chip that ran the kernel (the harness checks it)
#ifdef __CCE_KT_TEST__
  uint8_t* x = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  uint8_t* y = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  uint8_t* z = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  if (!ReadFile("./input/x.bin", bytes, x) || !ReadFile("./input/y.bin", bytes, y)) return 1;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(vadd_custom, blockDim, x, y, z);
  soc = aclrtGetSocName();
  if (!WriteFile("./output/z.bin", z, bytes)) return 1;
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
#else
  CHECK_ACL(aclInit(nullptr));
  const int32_t deviceId = 0;
  CHECK_ACL(aclrtSetDevice(deviceId));
  aclrtContext context;
  CHECK_ACL(aclrtCreateContext(&context, deviceId));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));

  void *xHost, *yHost, *zHost, *xDevice, *yDevice, *zDevice;
  CHECK_ACL(aclrtMallocHost(&xHost, bytes));
  CHECK_ACL(aclrtMallocHost(&yHost, bytes));
  CHECK_ACL(aclrtMallocHost(&zHost, bytes));
  CHECK_ACL(aclrtMalloc(&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&zDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  if (!ReadFile("./input/x.bin", bytes, xHost) || !ReadFile("./input/y.bin", bytes, yHost)) return 1;
  CHECK_ACL(aclrtMemcpy(xDevice, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(yDevice, bytes, yHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  CHECK_ACL(ACLRT_LAUNCH_KERNEL(vadd_custom)(blockDim, stream, xDevice, yDevice, zDevice));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  soc = aclrtGetSocName();

  CHECK_ACL(aclrtMemcpy(zHost, bytes, zDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  if (!WriteFile("./output/z.bin", zHost, bytes)) return 1;
  CHECK_ACL(aclrtFree(xDevice));
  CHECK_ACL(aclrtFree(yDevice));
  CHECK_ACL(aclrtFree(zDevice));
  CHECK_ACL(aclrtFreeHost(xHost));
  CHECK_ACL(aclrtFreeHost(yHost));
  CHECK_ACL(aclrtFreeHost(zHost));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtDestroyContext(context));
  CHECK_ACL(aclrtResetDevice(deviceId));
  CHECK_ACL(aclFinalize());
#endif
  std::printf("vadd_launch: ran on %s\n", soc ? soc : "(unknown)");
  return 0;
}
