/*
 * Host of matmul_leakyrelu_invocation, in the form of CANN's MatmulLeakyRelu kernel-launch
 * sample: one AI Core on the 910B (its two AIVs take a block of C each), two on the 310P; no
 * SetKernelMode on the CPU-debug route. input/x1_gm.bin (A, M x K half), input/x2_gm.bin (B,
 * K x N half), input/bias.bin (N float) -> output/output.bin (M x N float).
 */
#include <cstring>

#include "data_utils.h"
#include "tiling/platform/platform_ascendc.h"
#ifndef __CCE_KT_TEST__
#include "acl/acl.h"
#include "aclrtlaunch_matmul_leakyrelu_custom.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void matmul_leakyrelu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                              GM_ADDR workspace, GM_ADDR tiling);
#endif

extern uint8_t *GenerateTiling(int32_t M, int32_t N, int32_t K, uint32_t &tilingSize);

int32_t main(int32_t argc, char *argv[])
{
    (void)argc;
    (void)argv;
    const int32_t M = 512, N = 384, K = 192;
    const size_t aSize = size_t(M) * K * sizeof(uint16_t), bSize = size_t(K) * N * sizeof(uint16_t);
    const size_t biasSize = size_t(N) * sizeof(float), cSize = size_t(M) * N * sizeof(float);
#ifdef CUSTOM_ASCEND310P
    const uint32_t blockDim = 2;
#else
    const uint32_t blockDim = 1;
#endif
    uint32_t tilingSize = 0;
    uint8_t *tilingHost = GenerateTiling(M, N, K, tilingSize);
    if (tilingHost == nullptr) return 1;
    const size_t workspaceSize = platform_ascendc::PlatformAscendCManager::GetInstance()->GetLibApiWorkSpaceSize();
#ifdef __CCE_KT_TEST__
    uint8_t *a = (uint8_t *)AscendC::GmAlloc(aSize);
    uint8_t *b = (uint8_t *)AscendC::GmAlloc(bSize);
    uint8_t *bias = (uint8_t *)AscendC::GmAlloc(biasSize);
    uint8_t *c = (uint8_t *)AscendC::GmAlloc(cSize);
    uint8_t *workspace = (uint8_t *)AscendC::GmAlloc(workspaceSize);
    uint8_t *tiling = (uint8_t *)AscendC::GmAlloc(tilingSize);
    if (!ReadFile("./input/x1_gm.bin", aSize, a)) return 1;
    if (!ReadFile("./input/x2_gm.bin", bSize, b)) return 1;
    if (!ReadFile("./input/bias.bin", biasSize, bias)) return 1;
    std::memcpy(tiling, tilingHost, tilingSize);
    ICPU_RUN_KF(matmul_leakyrelu_custom, blockDim, a, b, bias, c, workspace, tiling);
    if (!WriteFile("./output/output.bin", c, cSize)) return 1;
    AscendC::GmFree((void *)a);
    AscendC::GmFree((void *)b);
    AscendC::GmFree((void *)bias);
    AscendC::GmFree((void *)c);
    AscendC::GmFree((void *)workspace);
    AscendC::GmFree((void *)tiling);
#else
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    uint8_t *aHost, *bHost, *biasHost, *cHost;
    uint8_t *aDevice, *bDevice, *biasDevice, *cDevice, *workspaceDevice, *tilingDevice;
    CHECK_ACL(aclrtMallocHost((void **)(&aHost), aSize));
    CHECK_ACL(aclrtMallocHost((void **)(&bHost), bSize));
    CHECK_ACL(aclrtMallocHost((void **)(&biasHost), biasSize));
    CHECK_ACL(aclrtMallocHost((void **)(&cHost), cSize));
    CHECK_ACL(aclrtMalloc((void **)&aDevice, aSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&bDevice, bSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&biasDevice, biasSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&cDevice, cSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&workspaceDevice, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&tilingDevice, tilingSize, ACL_MEM_MALLOC_HUGE_FIRST));
    if (!ReadFile("./input/x1_gm.bin", aSize, aHost)) return 1;
    if (!ReadFile("./input/x2_gm.bin", bSize, bHost)) return 1;
    if (!ReadFile("./input/bias.bin", biasSize, biasHost)) return 1;
    CHECK_ACL(aclrtMemcpy(aDevice, aSize, aHost, aSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(bDevice, bSize, bHost, bSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(biasDevice, biasSize, biasHost, biasSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tilingDevice, tilingSize, tilingHost, tilingSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ACLRT_LAUNCH_KERNEL(matmul_leakyrelu_custom)(blockDim, stream, aDevice, bDevice, biasDevice, cDevice,
                                                 workspaceDevice, tilingDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(cHost, cSize, cDevice, cSize, ACL_MEMCPY_DEVICE_TO_HOST));
    if (!WriteFile("./output/output.bin", cHost, cSize)) return 1;
    CHECK_ACL(aclrtFree(aDevice));
    CHECK_ACL(aclrtFree(bDevice));
    CHECK_ACL(aclrtFree(biasDevice));
    CHECK_ACL(aclrtFree(cDevice));
    CHECK_ACL(aclrtFree(workspaceDevice));
    CHECK_ACL(aclrtFree(tilingDevice));
    CHECK_ACL(aclrtFreeHost(aHost));
    CHECK_ACL(aclrtFreeHost(bHost));
    CHECK_ACL(aclrtFreeHost(biasHost));
    CHECK_ACL(aclrtFreeHost(cHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
#endif
    std::free(tilingHost);
    std::printf("matmul_leakyrelu_invocation: %u blocks, ran on %s\n", blockDim, aclrtGetSocName());
    return 0;
}
