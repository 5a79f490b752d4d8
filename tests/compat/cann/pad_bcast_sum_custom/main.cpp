/* Host of pad_bcast_sum_custom: the tilings from CANN's tiling API (GetPadMaxMinTmpSize,
 * PadTilingFunc, GetUnPadMaxMinTmpSize, UnPadTilingFunc, GetBroadCastMaxMinTmpSize,
 * GetSumMaxMinTmpSize, GetMeanMaxMinTmpSize) in a TILING_DATA class, then input/ -> output/. */
#include <algorithm>
#include <vector>
#include "data_utils.h"
#include "pad_bcast_sum_custom_tiling.h"
#include "tiling/tiling_api.h"
#include "tiling/platform/platform_ascendc.h"
#ifndef __CCE_KT_TEST__
#include "acl/acl.h"
#include "aclrtlaunch_pad_bcast_sum_custom.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void pad_bcast_sum_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR sum,
                                                           GM_ADDR tiling);
#endif

constexpr uint32_t ROWS = 32;
constexpr uint32_t WIDTH = 30;
constexpr uint32_t PADDED = 32;
constexpr uint32_t BLOCK_DIM = 4;
constexpr uint32_t ROWS_PER_CORE = ROWS / BLOCK_DIM;

static bool ComputeTiling(optiling::PadBcastSumTilingData &tiling)
{
    auto platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    tiling.set_rowsPerCore(ROWS_PER_CORE);
    tiling.set_width(WIDTH);
    tiling.set_paddedWidth(PADDED);
    uint32_t maxTmp = 0, minTmp = 0, tmp = 0;
    ge::Shape xShape({ROWS_PER_CORE, WIDTH});
    AscendC::GetPadMaxMinTmpSize(xShape, sizeof(float), maxTmp, minTmp);
    tmp = std::max(tmp, maxTmp);
    AscendC::PadTilingFunc(xShape, xShape, maxTmp, sizeof(float), tiling.padTiling);
    ge::Shape pShape({ROWS_PER_CORE, PADDED});
    AscendC::GetUnPadMaxMinTmpSize(*platform, pShape, sizeof(float), maxTmp, minTmp);
    tmp = std::max(tmp, maxTmp);
    AscendC::UnPadTilingFunc(pShape, maxTmp, sizeof(float), tiling.unPadTiling);
    ge::Shape rowShape({1, PADDED});
    AscendC::GetBroadCastMaxMinTmpSize(*platform, rowShape, pShape, sizeof(float), false, maxTmp, minTmp);
    tmp = std::max(tmp, maxTmp);
    AscendC::GetSumMaxMinTmpSize(WIDTH, sizeof(float), false, maxTmp, minTmp);
    tmp = std::max(tmp, minTmp);
    AscendC::GetMeanMaxMinTmpSize(WIDTH, sizeof(float), sizeof(float), false, maxTmp, minTmp);
    tmp = std::max(tmp, minTmp);
    if (tiling.padTiling.get_heightTiling() == 0 || tiling.unPadTiling.get_srcHeight() == 0) return false;
    tiling.set_tmpBytes((tmp + 31) / 32 * 32);
    printf("pad_bcast_sum_custom: tmp buffer %u bytes\n", tiling.get_tmpBytes());
    return true;
}

int32_t main(int32_t argc, char *argv[])
{
    (void)argc;
    (void)argv;
    optiling::PadBcastSumTilingData tilingData;
    if (!ComputeTiling(tilingData)) {
        printf("pad_bcast_sum_custom: the tiling functions refused the shape\n");
        return 1;
    }
    const size_t xSize = ROWS * WIDTH * sizeof(float);
    const size_t biasSize = PADDED * sizeof(float);
    const size_t sumSize = ROWS * sizeof(float);
    const size_t tilingSize = tilingData.GetDataSize();
    std::vector<uint8_t> tilingBytes(tilingSize);
    tilingData.SaveToBuffer(tilingBytes.data(), tilingSize);
    size_t fileSize = 0;
#ifdef __CCE_KT_TEST__
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(xSize);
    uint8_t *bias = (uint8_t *)AscendC::GmAlloc(biasSize);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(xSize);
    uint8_t *sum = (uint8_t *)AscendC::GmAlloc(sumSize);
    uint8_t *tiling = (uint8_t *)AscendC::GmAlloc(tilingSize);
    ReadFile("./input/input_x.bin", fileSize, x, xSize);
    ReadFile("./input/input_bias.bin", fileSize, bias, biasSize);
    memcpy(tiling, tilingBytes.data(), tilingSize);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(pad_bcast_sum_custom, BLOCK_DIM, x, bias, y, sum, tiling);
    WriteFile("./output/output_y.bin", y, xSize);
    WriteFile("./output/output_sum.bin", sum, sumSize);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)bias);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)sum);
    AscendC::GmFree((void *)tiling);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    uint8_t *host = nullptr;
    CHECK_ACL(aclrtMallocHost((void **)(&host), xSize));
    uint8_t *xDevice, *biasDevice, *yDevice, *sumDevice, *tilingDevice;
    CHECK_ACL(aclrtMalloc((void **)&xDevice, xSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&biasDevice, biasSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&yDevice, xSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&sumDevice, sumSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&tilingDevice, tilingSize, ACL_MEM_MALLOC_HUGE_FIRST));
    ReadFile("./input/input_x.bin", fileSize, host, xSize);
    CHECK_ACL(aclrtMemcpy(xDevice, xSize, host, xSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ReadFile("./input/input_bias.bin", fileSize, host, biasSize);
    CHECK_ACL(aclrtMemcpy(biasDevice, biasSize, host, biasSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tilingDevice, tilingSize, tilingBytes.data(), tilingSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ACLRT_LAUNCH_KERNEL(pad_bcast_sum_custom)(BLOCK_DIM, stream, xDevice, biasDevice, yDevice, sumDevice, tilingDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(host, xSize, yDevice, xSize, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_y.bin", host, xSize);
    CHECK_ACL(aclrtMemcpy(host, sumSize, sumDevice, sumSize, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_sum.bin", host, sumSize);
    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(biasDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(sumDevice));
    CHECK_ACL(aclrtFree(tilingDevice));
    CHECK_ACL(aclrtFreeHost(host));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    printf("pad_bcast_sum_custom: ran on %s\n", aclrtGetSocName());
    return 0;
}
