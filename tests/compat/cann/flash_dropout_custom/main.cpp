/* Host of flash_dropout_custom: SoftMaxFlashV2TilingFunc for both steps, the FlashV2 and DropOut
 * temporary sizes, in a TILING_DATA class. */
#include <algorithm>
#include <vector>
#include "data_utils.h"
#include "flash_dropout_custom_tiling.h"
#include "tiling/tiling_api.h"
#ifndef __CCE_KT_TEST__
#include "acl/acl.h"
#include "aclrtlaunch_flash_dropout_custom.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void flash_dropout_custom(GM_ADDR x, GM_ADDR mask, GM_ADDR e1, GM_ADDR e2,
                                                           GM_ADDR stats, GM_ADDR drop, GM_ADDR tiling);
#endif
constexpr uint32_t ROWS = 32, K = 64, BLOCK_DIM = 4, RPC = ROWS / BLOCK_DIM;

int32_t main(int32_t, char *[])
{
    optiling::FlashDropoutTilingData t;
    t.set_rowsPerCore(RPC);
    t.set_chunk(K);
    t.set_keepProb(0.8f);
    ge::Shape shape({RPC, K});
    uint32_t tmp = AscendC::GetSoftMaxFlashV2MaxTmpSize(shape, sizeof(float), sizeof(float), true);
    AscendC::SoftMaxFlashV2TilingFunc(shape, sizeof(float), sizeof(float), tmp, t.firstTiling, false);
    AscendC::SoftMaxFlashV2TilingFunc(shape, sizeof(float), sizeof(float), tmp, t.updateTiling, true);
    uint32_t dmax = 0, dmin = 0;
    AscendC::GetDropOutMaxMinTmpSize(shape, sizeof(float), false, dmax, dmin);
    t.set_tmpBytes(std::max(tmp, dmax));
    printf("flash_dropout_custom: tmp %u bytes\n", t.get_tmpBytes());
    const size_t xSize = ROWS * 2 * K * 4, mSize = ROWS * K, eSize = ROWS * K * 4, sSize = ROWS * 4 * 8 * 4;
    const size_t tSize = t.GetDataSize();
    std::vector<uint8_t> tb(tSize);
    t.SaveToBuffer(tb.data(), tSize);
    size_t fs = 0;
#ifdef __CCE_KT_TEST__
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(xSize), *m = (uint8_t *)AscendC::GmAlloc(mSize);
    uint8_t *e1 = (uint8_t *)AscendC::GmAlloc(eSize), *e2 = (uint8_t *)AscendC::GmAlloc(eSize);
    uint8_t *st = (uint8_t *)AscendC::GmAlloc(sSize), *dr = (uint8_t *)AscendC::GmAlloc(eSize);
    uint8_t *tg = (uint8_t *)AscendC::GmAlloc(tSize);
    ReadFile("./input/input_x.bin", fs, x, xSize);
    ReadFile("./input/input_mask.bin", fs, m, mSize);
    memcpy(tg, tb.data(), tSize);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(flash_dropout_custom, BLOCK_DIM, x, m, e1, e2, st, dr, tg);
    WriteFile("./output/output_e1.bin", e1, eSize);
    WriteFile("./output/output_e2.bin", e2, eSize);
    WriteFile("./output/output_stats.bin", st, sSize);
    WriteFile("./output/output_drop.bin", dr, eSize);
#else
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    std::vector<uint8_t> host(xSize);
    uint8_t *x, *m, *e1, *e2, *st, *dr, *tg;
    CHECK_ACL(aclrtMalloc((void **)&x, xSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&m, mSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&e1, eSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&e2, eSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&st, sSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&dr, eSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&tg, tSize, ACL_MEM_MALLOC_HUGE_FIRST));
    ReadFile("./input/input_x.bin", fs, host.data(), xSize);
    CHECK_ACL(aclrtMemcpy(x, xSize, host.data(), xSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ReadFile("./input/input_mask.bin", fs, host.data(), mSize);
    CHECK_ACL(aclrtMemcpy(m, mSize, host.data(), mSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tg, tSize, tb.data(), tSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ACLRT_LAUNCH_KERNEL(flash_dropout_custom)(BLOCK_DIM, stream, x, m, e1, e2, st, dr, tg);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const char *names[] = {"./output/output_e1.bin", "./output/output_e2.bin", "./output/output_stats.bin",
                           "./output/output_drop.bin"};
    uint8_t *dev[] = {e1, e2, st, dr};
    const size_t sizes[] = {eSize, eSize, sSize, eSize};
    for (int i = 0; i < 4; i++) {
        CHECK_ACL(aclrtMemcpy(host.data(), sizes[i], dev[i], sizes[i], ACL_MEMCPY_DEVICE_TO_HOST));
        WriteFile(names[i], host.data(), sizes[i]);
    }
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
#endif
    printf("flash_dropout_custom: ran on %s\n", aclrtGetSocName());
    return 0;
}
