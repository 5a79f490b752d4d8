/* Host of topk_custom: the tiling from CANN's tiling API (GetTopKMaxMinTmpSize,
 * TopKTilingFunc), then input/input_x.bin -> output/output_values.bin, output_indices.bin. */
#include "data_utils.h"
#include "topk_custom_tiling.h"
#include "tiling/tiling_api.h"
#if __has_include("tiling/platform/platform_ascendc.h")
#include "tiling/platform/platform_ascendc.h"
#define TOPK_CUSTOM_HAS_PLATFORM 1
#endif
#ifndef __CCE_KT_TEST__
#include "acl/acl.h"
#include "aclrtlaunch_topk_custom.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void topk_custom(GM_ADDR x, GM_ADDR values, GM_ADDR indices, GM_ADDR tiling);
#endif

constexpr uint32_t ROWS = 16;
constexpr int32_t INNER = 96;
constexpr int32_t VALID = 90;
constexpr int32_t K = 8;
constexpr uint32_t BLOCK_DIM = 8;

static bool ComputeTiling(TopkCustomTilingData &tiling)
{
#ifdef TOPK_CUSTOM_HAS_PLATFORM
    const auto &platform = *platform_ascendc::PlatformAscendCManager::GetInstance();
#else
    struct NoPlatform {} platform;  // the TopK sizes do not depend on the chip
#endif
    tiling.rowsPerCore = ROWS / BLOCK_DIM;
    tiling.inner = INNER;
    tiling.n = VALID;
    tiling.k = K;
    tiling.kValues = (K + 7) / 8 * 8;
    tiling.kIndices = (K + 7) / 8 * 8;
    uint32_t maxTmp = 0, minTmp = 0;
    if (!AscendC::GetTopKMaxMinTmpSize(platform, INNER, tiling.rowsPerCore, false, false, AscendC::TopKMode::TOPK_NORMAL,
                                       true, sizeof(float), maxTmp, minTmp)) {
        return false;
    }
    tiling.tmpBytes = minTmp;
    optiling::TopkTiling topkTiling;
    if (!AscendC::TopKTilingFunc(platform, INNER, tiling.rowsPerCore, K, sizeof(float), false,
                                 AscendC::TopKMode::TOPK_NORMAL, true, topkTiling)) {
        return false;
    }
    topkTiling.SaveToBuffer(&tiling.topkTiling, sizeof(tiling.topkTiling));
    printf("topk_custom: tmp buffer %u bytes, %d merge rounds\n", tiling.tmpBytes, topkTiling.get_mrgSortRepeat());
    return true;
}

int32_t main(int32_t argc, char *argv[])
{
    (void)argc;
    (void)argv;
    TopkCustomTilingData tilingData;
    if (!ComputeTiling(tilingData)) {
        printf("topk_custom: the tiling functions refused the shape\n");
        return 1;
    }
    size_t xSize = ROWS * INNER * sizeof(float);
    size_t valueSize = ROWS * tilingData.kValues * sizeof(float);
    size_t indexSize = ROWS * tilingData.kIndices * sizeof(int32_t);
    size_t tilingSize = sizeof(TopkCustomTilingData);
    size_t fileSize = 0;
#ifdef __CCE_KT_TEST__
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(xSize);
    uint8_t *values = (uint8_t *)AscendC::GmAlloc(valueSize);
    uint8_t *indices = (uint8_t *)AscendC::GmAlloc(indexSize);
    uint8_t *tiling = (uint8_t *)AscendC::GmAlloc(tilingSize);
    ReadFile("./input/input_x.bin", fileSize, x, xSize);
    memcpy(tiling, &tilingData, tilingSize);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(topk_custom, BLOCK_DIM, x, values, indices, tiling);
    WriteFile("./output/output_values.bin", values, valueSize);
    WriteFile("./output/output_indices.bin", indices, indexSize);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)values);
    AscendC::GmFree((void *)indices);
    AscendC::GmFree((void *)tiling);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    uint8_t *xHost, *valueHost, *indexHost;
    uint8_t *xDevice, *valueDevice, *indexDevice, *tilingDevice;
    CHECK_ACL(aclrtMallocHost((void **)(&xHost), xSize));
    CHECK_ACL(aclrtMallocHost((void **)(&valueHost), valueSize));
    CHECK_ACL(aclrtMallocHost((void **)(&indexHost), indexSize));
    CHECK_ACL(aclrtMalloc((void **)&xDevice, xSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&valueDevice, valueSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&indexDevice, indexSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&tilingDevice, tilingSize, ACL_MEM_MALLOC_HUGE_FIRST));
    ReadFile("./input/input_x.bin", fileSize, xHost, xSize);
    CHECK_ACL(aclrtMemcpy(xDevice, xSize, xHost, xSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tilingDevice, tilingSize, &tilingData, tilingSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ACLRT_LAUNCH_KERNEL(topk_custom)(BLOCK_DIM, stream, xDevice, valueDevice, indexDevice, tilingDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(valueHost, valueSize, valueDevice, valueSize, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_ACL(aclrtMemcpy(indexHost, indexSize, indexDevice, indexSize, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_values.bin", valueHost, valueSize);
    WriteFile("./output/output_indices.bin", indexHost, indexSize);
    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(valueDevice));
    CHECK_ACL(aclrtFree(indexDevice));
    CHECK_ACL(aclrtFree(tilingDevice));
    CHECK_ACL(aclrtFreeHost(xHost));
    CHECK_ACL(aclrtFreeHost(valueHost));
    CHECK_ACL(aclrtFreeHost(indexHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    printf("topk_custom: ran on %s\n", aclrtGetSocName());
    return 0;
}
