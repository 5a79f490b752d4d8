/* Host of confusion_transpose_custom: the tilings from CANN's tiling API
 * (GetConfusionTransposeMaxMinTmpSize, GetConfusionTransposeTilingInfo), then
 * input/input_heads.bin, input_plane.bin -> output/output_heads.bin, output_plane.bin. */
#include <vector>
#include "data_utils.h"
#include "confusion_transpose_custom_tiling.h"
#include "tiling/tiling_api.h"
#ifndef __CCE_KT_TEST__
#include "acl/acl.h"
#include "aclrtlaunch_confusion_transpose_custom.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void confusion_transpose_custom(GM_ADDR heads, GM_ADDR plane, GM_ADDR headsOut,
                                                                 GM_ADDR planeOut, GM_ADDR tiling);
#endif

constexpr uint32_t BATCH = 2;  // one batch per block
constexpr uint32_t HEADS = 2;
constexpr uint32_t SEQ = 64;
constexpr uint32_t HEAD_DIM = 32;
constexpr uint32_t PLANE_ROWS = 48;
constexpr uint32_t PLANE_COLS = 80;

static bool ComputeTiling(ConfusionTransposeCustomTilingData &tiling)
{
    tiling.heads = HEADS;
    tiling.seq = SEQ;
    tiling.headDim = HEAD_DIM;
    tiling.planeRows = PLANE_ROWS;
    tiling.planeCols = PLANE_COLS;
    std::vector<int64_t> headShape = {1, HEADS, SEQ, HEAD_DIM};
    uint32_t maxTmp = 0, minTmp = 0;
    AscendC::GetConfusionTransposeMaxMinTmpSize(ge::Shape(headShape), sizeof(uint16_t), 1, maxTmp, minTmp);
    if (minTmp == 0) {
        return false;
    }
    tiling.tmpBytes = minTmp;  // the least: several passes
    optiling::ConfusionTransposeTiling headTiling;
    AscendC::GetConfusionTransposeTilingInfo(ge::Shape(headShape), minTmp, sizeof(uint16_t), 1, headTiling);
    headTiling.SaveToBuffer(&tiling.headTiling, sizeof(tiling.headTiling));
    std::vector<int64_t> planeShape = {PLANE_ROWS, PLANE_COLS};
    optiling::ConfusionTransposeTiling planeTiling;
    AscendC::GetConfusionTransposeTilingInfo(ge::Shape(planeShape), 0, sizeof(float), 7, planeTiling);
    planeTiling.SaveToBuffer(&tiling.planeTiling, sizeof(tiling.planeTiling));
    printf("confusion_transpose_custom: tmp buffer %u bytes (max %u)\n", minTmp, maxTmp);
    return true;
}

int32_t main(int32_t argc, char *argv[])
{
    (void)argc;
    (void)argv;
    ConfusionTransposeCustomTilingData tilingData;
    if (!ComputeTiling(tilingData)) {
        printf("confusion_transpose_custom: the tiling functions refused the shape\n");
        return 1;
    }
    size_t headSize = BATCH * HEADS * SEQ * HEAD_DIM * sizeof(uint16_t);
    size_t planeSize = BATCH * PLANE_ROWS * PLANE_COLS * sizeof(float);
    size_t tilingSize = sizeof(ConfusionTransposeCustomTilingData);
    size_t fileSize = 0;
#ifdef __CCE_KT_TEST__
    uint8_t *heads = (uint8_t *)AscendC::GmAlloc(headSize);
    uint8_t *plane = (uint8_t *)AscendC::GmAlloc(planeSize);
    uint8_t *headsOut = (uint8_t *)AscendC::GmAlloc(headSize);
    uint8_t *planeOut = (uint8_t *)AscendC::GmAlloc(planeSize);
    uint8_t *tiling = (uint8_t *)AscendC::GmAlloc(tilingSize);
    ReadFile("./input/input_heads.bin", fileSize, heads, headSize);
    ReadFile("./input/input_plane.bin", fileSize, plane, planeSize);
    memcpy(tiling, &tilingData, tilingSize);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(confusion_transpose_custom, BATCH, heads, plane, headsOut, planeOut, tiling);
    WriteFile("./output/output_heads.bin", headsOut, headSize);
    WriteFile("./output/output_plane.bin", planeOut, planeSize);
    AscendC::GmFree((void *)heads);
    AscendC::GmFree((void *)plane);
    AscendC::GmFree((void *)headsOut);
    AscendC::GmFree((void *)planeOut);
    AscendC::GmFree((void *)tiling);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    uint8_t *headsHost, *planeHost;
    uint8_t *headsDevice, *planeDevice, *headsOutDevice, *planeOutDevice, *tilingDevice;
    CHECK_ACL(aclrtMallocHost((void **)(&headsHost), headSize));
    CHECK_ACL(aclrtMallocHost((void **)(&planeHost), planeSize));
    CHECK_ACL(aclrtMalloc((void **)&headsDevice, headSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&planeDevice, planeSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&headsOutDevice, headSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&planeOutDevice, planeSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&tilingDevice, tilingSize, ACL_MEM_MALLOC_HUGE_FIRST));
    ReadFile("./input/input_heads.bin", fileSize, headsHost, headSize);
    ReadFile("./input/input_plane.bin", fileSize, planeHost, planeSize);
    CHECK_ACL(aclrtMemcpy(headsDevice, headSize, headsHost, headSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(planeDevice, planeSize, planeHost, planeSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tilingDevice, tilingSize, &tilingData, tilingSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ACLRT_LAUNCH_KERNEL(confusion_transpose_custom)(BATCH, stream, headsDevice, planeDevice, headsOutDevice,
                                                    planeOutDevice, tilingDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(headsHost, headSize, headsOutDevice, headSize, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_ACL(aclrtMemcpy(planeHost, planeSize, planeOutDevice, planeSize, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_heads.bin", headsHost, headSize);
    WriteFile("./output/output_plane.bin", planeHost, planeSize);
    CHECK_ACL(aclrtFree(headsDevice));
    CHECK_ACL(aclrtFree(planeDevice));
    CHECK_ACL(aclrtFree(headsOutDevice));
    CHECK_ACL(aclrtFree(planeOutDevice));
    CHECK_ACL(aclrtFree(tilingDevice));
    CHECK_ACL(aclrtFreeHost(headsHost));
    CHECK_ACL(aclrtFreeHost(planeHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    printf("confusion_transpose_custom: ran on %s\n", aclrtGetSocName());
    return 0;
}
