/* Host of norm_act_custom: the tilings from CANN's tiling API (GetLayerNormMaxMinTmpSize,
 * GetLayerNormNDTilingInfo, GetRmsNormMaxMinTmpSize, GetRmsNormTilingInfo, GetGeluMaxMinTmpSize,
 * GetSiluTmpSize, GetMeanMaxMinTmpSize) in a TILING_DATA class, then input/ -> output/. */
#include <vector>
#include "data_utils.h"
#include "norm_act_custom_tiling.h"
#include "tiling/tiling_api.h"
#ifndef __CCE_KT_TEST__
#include "acl/acl.h"
#include "aclrtlaunch_norm_act_custom.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void norm_act_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                      GM_ADDR mean, GM_ADDR var, GM_ADDR z, GM_ADDR avg,
                                                      GM_ADDR tiling);
#endif

constexpr uint32_t ROWS = 32;
constexpr uint32_t H = 64;
constexpr uint32_t BLOCK_DIM = 4;
constexpr uint32_t ROWS_PER_CORE = ROWS / BLOCK_DIM;
constexpr uint32_t STAT_PER_CORE = (ROWS_PER_CORE + 7) / 8 * 8;

static bool ComputeTiling(optiling::NormActCustomTilingData &tiling)
{
    tiling.set_rowsPerCore(ROWS_PER_CORE);
    tiling.set_hLength(H);
    tiling.set_epsilon(1e-5f);
    ge::Shape shape({1, ROWS_PER_CORE, H});
    uint32_t maxTmp = 0, minTmp = 0;
    AscendC::GetLayerNormMaxMinTmpSize(shape, sizeof(float), false, maxTmp, minTmp);
    tiling.set_layerNormTmp(minTmp);
    AscendC::GetLayerNormNDTilingInfo(shape, minTmp, sizeof(float), false, tiling.layerNormTiling);
    if (!AscendC::GetRmsNormMaxMinTmpSize(shape, sizeof(float), maxTmp, minTmp)) return false;
    tiling.set_rmsNormTmp(minTmp);
    if (!AscendC::GetRmsNormTilingInfo(shape, shape, minTmp, sizeof(float), tiling.rmsNormTiling)) return false;
    ge::Shape flat({ROWS_PER_CORE * H});
    AscendC::GetGeluMaxMinTmpSize(flat, sizeof(float), maxTmp, minTmp);
    tiling.set_geluTmp(maxTmp);
    AscendC::GetSiluTmpSize(flat, sizeof(float), false, maxTmp, minTmp);  // 0: Silu takes no buffer
    if (minTmp != 0) return false;
    AscendC::GetMeanMaxMinTmpSize(H, sizeof(float), sizeof(float), false, maxTmp, minTmp);
    tiling.set_meanTmp(minTmp);
    printf("norm_act_custom: tmp bytes LayerNorm %u, RmsNorm %u, Gelu %u, Mean %u\n", tiling.get_layerNormTmp(),
           tiling.get_rmsNormTmp(), tiling.get_geluTmp(), tiling.get_meanTmp());
    return true;
}

int32_t main(int32_t argc, char *argv[])
{
    (void)argc;
    (void)argv;
    optiling::NormActCustomTilingData tilingData;
    if (!ComputeTiling(tilingData)) {
        printf("norm_act_custom: the tiling functions refused the shape\n");
        return 1;
    }
    const size_t xSize = ROWS * H * sizeof(float);
    const size_t rowSize = H * sizeof(float);
    const size_t statSize = BLOCK_DIM * STAT_PER_CORE * sizeof(float);
    const size_t tilingSize = tilingData.GetDataSize();
    std::vector<uint8_t> tilingBytes(tilingSize);
    tilingData.SaveToBuffer(tilingBytes.data(), tilingSize);
    const char *outNames[] = {"./output/output_y.bin", "./output/output_mean.bin", "./output/output_var.bin",
                              "./output/output_z.bin", "./output/output_avg.bin"};
    const size_t outSizes[] = {xSize, statSize, statSize, xSize, statSize};
    size_t fileSize = 0;
#ifdef __CCE_KT_TEST__
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(xSize);
    uint8_t *gamma = (uint8_t *)AscendC::GmAlloc(rowSize);
    uint8_t *beta = (uint8_t *)AscendC::GmAlloc(rowSize);
    uint8_t *outs[5];
    for (int i = 0; i < 5; i++) outs[i] = (uint8_t *)AscendC::GmAlloc(outSizes[i]);
    uint8_t *tiling = (uint8_t *)AscendC::GmAlloc(tilingSize);
    ReadFile("./input/input_x.bin", fileSize, x, xSize);
    ReadFile("./input/input_gamma.bin", fileSize, gamma, rowSize);
    ReadFile("./input/input_beta.bin", fileSize, beta, rowSize);
    memcpy(tiling, tilingBytes.data(), tilingSize);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(norm_act_custom, BLOCK_DIM, x, gamma, beta, outs[0], outs[1], outs[2], outs[3], outs[4], tiling);
    for (int i = 0; i < 5; i++) {
        WriteFile(outNames[i], outs[i], outSizes[i]);
        AscendC::GmFree((void *)outs[i]);
    }
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)gamma);
    AscendC::GmFree((void *)beta);
    AscendC::GmFree((void *)tiling);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    uint8_t *host = nullptr;
    CHECK_ACL(aclrtMallocHost((void **)(&host), xSize));
    uint8_t *xDevice, *gammaDevice, *betaDevice, *tilingDevice, *outs[5];
    CHECK_ACL(aclrtMalloc((void **)&xDevice, xSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&gammaDevice, rowSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&betaDevice, rowSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&tilingDevice, tilingSize, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int i = 0; i < 5; i++) CHECK_ACL(aclrtMalloc((void **)&outs[i], outSizes[i], ACL_MEM_MALLOC_HUGE_FIRST));
    ReadFile("./input/input_x.bin", fileSize, host, xSize);
    CHECK_ACL(aclrtMemcpy(xDevice, xSize, host, xSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ReadFile("./input/input_gamma.bin", fileSize, host, rowSize);
    CHECK_ACL(aclrtMemcpy(gammaDevice, rowSize, host, rowSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ReadFile("./input/input_beta.bin", fileSize, host, rowSize);
    CHECK_ACL(aclrtMemcpy(betaDevice, rowSize, host, rowSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tilingDevice, tilingSize, tilingBytes.data(), tilingSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ACLRT_LAUNCH_KERNEL(norm_act_custom)(BLOCK_DIM, stream, xDevice, gammaDevice, betaDevice, outs[0], outs[1],
                                         outs[2], outs[3], outs[4], tilingDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    for (int i = 0; i < 5; i++) {
        CHECK_ACL(aclrtMemcpy(host, outSizes[i], outs[i], outSizes[i], ACL_MEMCPY_DEVICE_TO_HOST));
        WriteFile(outNames[i], host, outSizes[i]);
        CHECK_ACL(aclrtFree(outs[i]));
    }
    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(gammaDevice));
    CHECK_ACL(aclrtFree(betaDevice));
    CHECK_ACL(aclrtFree(tilingDevice));
    CHECK_ACL(aclrtFreeHost(host));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    printf("norm_act_custom: ran on %s\n", aclrtGetSocName());
    return 0;
}
