/* Host of sort_custom: the tiling from the platform (GetSocVersion picks the sort layout's
 * repeat counts) and CANN's sort tiling functions (GetConcatTmpSize, GetSortTmpSize), then
 * input/input_x.bin, input_index.bin -> output/output_values.bin, output_indices.bin. */
#include "data_utils.h"
#include "sort_custom_tiling.h"
#include "tiling/tiling_api.h"
#include "tiling/platform/platform_ascendc.h"
#ifndef __CCE_KT_TEST__
#include "acl/acl.h"
#include "aclrtlaunch_sort_custom.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void sort_custom(GM_ADDR x, GM_ADDR index, GM_ADDR values, GM_ADDR indices,
                                                  GM_ADDR workspace, GM_ADDR tiling);
#endif

constexpr uint32_t BLOCK_DIM = 4;
constexpr uint32_t ELEMS_PER_CORE = 160;

static void ComputeTiling(optiling::SortCustomTilingData &tiling)
{
    const auto &platform = *platform_ascendc::PlatformAscendCManager::GetInstance();
    const bool a2 = platform.GetSocVersion() == platform_ascendc::SocVersion::ASCEND910B;
    tiling.set_elemsPerCore(ELEMS_PER_CORE);
    tiling.set_concatRepeat(ELEMS_PER_CORE / 16);
    tiling.set_sortRepeat(ELEMS_PER_CORE / (a2 ? 32 : 16));
    tiling.set_concatTmpBytes(AscendC::GetConcatTmpSize(platform, ELEMS_PER_CORE, sizeof(uint16_t)));
    tiling.set_sortTmpBytes(AscendC::GetSortTmpSize(platform, ELEMS_PER_CORE, sizeof(uint16_t)));
    printf("sort_custom: %s layout, concat tmp %u bytes, sort tmp %u bytes\n", a2 ? "record" : "region proposal",
           tiling.get_concatTmpBytes(), tiling.get_sortTmpBytes());
}

int32_t main(int32_t argc, char *argv[])
{
    (void)argc;
    (void)argv;
    optiling::SortCustomTilingData tilingData;
    ComputeTiling(tilingData);
    size_t tilingSize = tilingData.GetDataSize();
    uint8_t *tilingBuf = (uint8_t *)malloc(tilingSize);
    tilingData.SaveToBuffer(tilingBuf, tilingSize);
    size_t xSize = BLOCK_DIM * ELEMS_PER_CORE * sizeof(uint16_t);
    size_t indexSize = BLOCK_DIM * ELEMS_PER_CORE * sizeof(uint32_t);
    size_t fileSize = 0;
#ifdef __CCE_KT_TEST__
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(xSize);
    uint8_t *index = (uint8_t *)AscendC::GmAlloc(indexSize);
    uint8_t *values = (uint8_t *)AscendC::GmAlloc(xSize);
    uint8_t *indices = (uint8_t *)AscendC::GmAlloc(indexSize);
    uint8_t *workspace = (uint8_t *)AscendC::GmAlloc(1024);
    uint8_t *tiling = (uint8_t *)AscendC::GmAlloc(tilingSize);
    ReadFile("./input/input_x.bin", fileSize, x, xSize);
    ReadFile("./input/input_index.bin", fileSize, index, indexSize);
    memcpy(tiling, tilingBuf, tilingSize);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(sort_custom, BLOCK_DIM, x, index, values, indices, workspace, tiling);
    WriteFile("./output/output_values.bin", values, xSize);
    WriteFile("./output/output_indices.bin", indices, indexSize);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)index);
    AscendC::GmFree((void *)values);
    AscendC::GmFree((void *)indices);
    AscendC::GmFree((void *)workspace);
    AscendC::GmFree((void *)tiling);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    uint8_t *xHost, *indexHost, *valueHost, *indicesHost;
    uint8_t *xDevice, *indexDevice, *valueDevice, *indicesDevice, *workspaceDevice, *tilingDevice;
    CHECK_ACL(aclrtMallocHost((void **)(&xHost), xSize));
    CHECK_ACL(aclrtMallocHost((void **)(&indexHost), indexSize));
    CHECK_ACL(aclrtMallocHost((void **)(&valueHost), xSize));
    CHECK_ACL(aclrtMallocHost((void **)(&indicesHost), indexSize));
    CHECK_ACL(aclrtMalloc((void **)&xDevice, xSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&indexDevice, indexSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&valueDevice, xSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&indicesDevice, indexSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&workspaceDevice, 1024, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&tilingDevice, tilingSize, ACL_MEM_MALLOC_HUGE_FIRST));
    ReadFile("./input/input_x.bin", fileSize, xHost, xSize);
    ReadFile("./input/input_index.bin", fileSize, indexHost, indexSize);
    CHECK_ACL(aclrtMemcpy(xDevice, xSize, xHost, xSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(indexDevice, indexSize, indexHost, indexSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tilingDevice, tilingSize, tilingBuf, tilingSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ACLRT_LAUNCH_KERNEL(sort_custom)(BLOCK_DIM, stream, xDevice, indexDevice, valueDevice, indicesDevice,
                                     workspaceDevice, tilingDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(valueHost, xSize, valueDevice, xSize, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_ACL(aclrtMemcpy(indicesHost, indexSize, indicesDevice, indexSize, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_values.bin", valueHost, xSize);
    WriteFile("./output/output_indices.bin", indicesHost, indexSize);
    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(indexDevice));
    CHECK_ACL(aclrtFree(valueDevice));
    CHECK_ACL(aclrtFree(indicesDevice));
    CHECK_ACL(aclrtFree(workspaceDevice));
    CHECK_ACL(aclrtFree(tilingDevice));
    CHECK_ACL(aclrtFreeHost(xHost));
    CHECK_ACL(aclrtFreeHost(indexHost));
    CHECK_ACL(aclrtFreeHost(valueHost));
    CHECK_ACL(aclrtFreeHost(indicesHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    free(tilingBuf);
    printf("sort_custom: ran on %s\n", aclrtGetSocName());
    return 0;
}
