/* Host of softmax_custom: the tiling from CANN's tiling API (SoftMaxTilingFunc,
 * GetSoftMaxMaxTmpSize), then input/input_x.bin -> output/output_y.bin (and the row sums and
 * maxima, output/output_sum.bin, output/output_max.bin). */
#include "data_utils.h"
#include "softmax_custom_tiling.h"
#include "tiling/tiling_api.h"
#ifndef __CCE_KT_TEST__
#include "acl/acl.h"
#include "aclrtlaunch_softmax_custom.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR sum, GM_ADDR max, GM_ADDR tiling);
#endif

constexpr uint32_t ROWS = 32;
constexpr uint32_t COLS = 80;
constexpr uint32_t VALID_COLS = 77;
constexpr uint32_t BLOCK_DIM = 8;

static void ComputeTiling(SoftmaxCustomTilingData &tiling)
{
    tiling.rowsPerCore = ROWS / BLOCK_DIM;
    tiling.cols = COLS;
    tiling.validCols = VALID_COLS;
    ge::Shape tileShape({tiling.rowsPerCore, COLS});
    const uint32_t minTmp = AscendC::GetSoftMaxMinTmpSize(tileShape, sizeof(uint16_t), false);
    const uint32_t maxTmp = AscendC::GetSoftMaxMaxTmpSize(tileShape, sizeof(uint16_t), false);
    tiling.tmpBytes = maxTmp;
    optiling::SoftMaxTiling softmaxTiling;
    AscendC::SoftMaxTilingFunc(tileShape, sizeof(uint16_t), tiling.tmpBytes, softmaxTiling);
    softmaxTiling.SaveToBuffer(&tiling.softmaxTiling, sizeof(tiling.softmaxTiling));
    printf("softmax_custom: tmp buffer %u..%u bytes, %u rows per pass\n", minTmp, maxTmp, softmaxTiling.get_splitM());
}

int32_t main(int32_t argc, char *argv[])
{
    (void)argc;
    (void)argv;
    SoftmaxCustomTilingData tilingData;
    ComputeTiling(tilingData);
    size_t xSize = ROWS * COLS * sizeof(uint16_t);
    size_t statSize = ROWS * 8 * sizeof(float);
    size_t tilingSize = sizeof(SoftmaxCustomTilingData);
    size_t fileSize = 0;
#ifdef __CCE_KT_TEST__
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(xSize);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(xSize);
    uint8_t *sum = (uint8_t *)AscendC::GmAlloc(statSize);
    uint8_t *max = (uint8_t *)AscendC::GmAlloc(statSize);
    uint8_t *tiling = (uint8_t *)AscendC::GmAlloc(tilingSize);
    ReadFile("./input/input_x.bin", fileSize, x, xSize);
    memcpy(tiling, &tilingData, tilingSize);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(softmax_custom, BLOCK_DIM, x, y, sum, max, tiling);
    WriteFile("./output/output_y.bin", y, xSize);
    WriteFile("./output/output_sum.bin", sum, statSize);
    WriteFile("./output/output_max.bin", max, statSize);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)sum);
    AscendC::GmFree((void *)max);
    AscendC::GmFree((void *)tiling);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    uint8_t *xHost, *yHost, *sumHost, *maxHost;
    uint8_t *xDevice, *yDevice, *sumDevice, *maxDevice, *tilingDevice;
    CHECK_ACL(aclrtMallocHost((void **)(&xHost), xSize));
    CHECK_ACL(aclrtMallocHost((void **)(&yHost), xSize));
    CHECK_ACL(aclrtMallocHost((void **)(&sumHost), statSize));
    CHECK_ACL(aclrtMallocHost((void **)(&maxHost), statSize));
    CHECK_ACL(aclrtMalloc((void **)&xDevice, xSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&yDevice, xSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&sumDevice, statSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&maxDevice, statSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&tilingDevice, tilingSize, ACL_MEM_MALLOC_HUGE_FIRST));
    ReadFile("./input/input_x.bin", fileSize, xHost, xSize);
    CHECK_ACL(aclrtMemcpy(xDevice, xSize, xHost, xSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tilingDevice, tilingSize, &tilingData, tilingSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ACLRT_LAUNCH_KERNEL(softmax_custom)(BLOCK_DIM, stream, xDevice, yDevice, sumDevice, maxDevice, tilingDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(yHost, xSize, yDevice, xSize, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_ACL(aclrtMemcpy(sumHost, statSize, sumDevice, statSize, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_ACL(aclrtMemcpy(maxHost, statSize, maxDevice, statSize, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_y.bin", yHost, xSize);
    WriteFile("./output/output_sum.bin", sumHost, statSize);
    WriteFile("./output/output_max.bin", maxHost, statSize);
    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(sumDevice));
    CHECK_ACL(aclrtFree(maxDevice));
    CHECK_ACL(aclrtFree(tilingDevice));
    CHECK_ACL(aclrtFreeHost(xHost));
    CHECK_ACL(aclrtFreeHost(yHost));
    CHECK_ACL(aclrtFreeHost(sumHost));
    CHECK_ACL(aclrtFreeHost(maxHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    printf("softmax_custom: ran on %s\n", aclrtGetSocName());
    return 0;
}
