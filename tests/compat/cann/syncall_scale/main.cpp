/* Host of scale_by_max_custom: input/input_x.bin -> output/output_y.bin. */
#include "data_utils.h"
#ifndef __CCE_KT_TEST__
#include "acl/acl.h"
#include "aclrtlaunch_scale_by_max_custom.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void scale_by_max_custom(GM_ADDR x, GM_ADDR y, GM_ADDR maxima, GM_ADDR syncWorkspace);
#endif

int32_t main(int32_t argc, char *argv[])
{
    (void)argc;
    (void)argv;
    uint32_t blockDim = 8;
    size_t byteSize = 8 * 512 * sizeof(float);
    size_t workspaceSize = 8 * 32;
    size_t fileSize = 0;
#ifdef __CCE_KT_TEST__
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(byteSize);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(byteSize);
    uint8_t *maxima = (uint8_t *)AscendC::GmAlloc(workspaceSize);
    uint8_t *sync = (uint8_t *)AscendC::GmAlloc(workspaceSize);
    memset(sync, 0, workspaceSize);
    ReadFile("./input/input_x.bin", fileSize, x, byteSize);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(scale_by_max_custom, blockDim, x, y, maxima, sync);
    WriteFile("./output/output_y.bin", y, byteSize);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)maxima);
    AscendC::GmFree((void *)sync);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    uint8_t *xHost, *yHost, *xDevice, *yDevice, *maximaDevice, *syncDevice;
    CHECK_ACL(aclrtMallocHost((void **)(&xHost), byteSize));
    CHECK_ACL(aclrtMallocHost((void **)(&yHost), byteSize));
    CHECK_ACL(aclrtMalloc((void **)&xDevice, byteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&yDevice, byteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&maximaDevice, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&syncDevice, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemset(syncDevice, workspaceSize, 0, workspaceSize));
    ReadFile("./input/input_x.bin", fileSize, xHost, byteSize);
    CHECK_ACL(aclrtMemcpy(xDevice, byteSize, xHost, byteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ACLRT_LAUNCH_KERNEL(scale_by_max_custom)(blockDim, stream, xDevice, yDevice, maximaDevice, syncDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(yHost, byteSize, yDevice, byteSize, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_y.bin", yHost, byteSize);
    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(maximaDevice));
    CHECK_ACL(aclrtFree(syncDevice));
    CHECK_ACL(aclrtFreeHost(xHost));
    CHECK_ACL(aclrtFreeHost(yHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    printf("syncall_scale: ran on %s\n", aclrtGetSocName());
    return 0;
}
