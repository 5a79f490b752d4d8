/* topk_custom: the 8 largest of the valid 90 of each 96-float row, with their indices, for
 * 16 rows on 8 blocks, through the high-level TopK API with a tiling from TopKTilingFunc
 * (910B: TopK sorts with Sort32 and MrgSort). */
#include "kernel_operator.h"
#include "topk_custom_tiling.h"
using namespace AscendC;

class KernelTopk {
public:
    __aicore__ inline KernelTopk() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR values, GM_ADDR indices, const TopkCustomTilingData &t)
    {
        tiling = t;
        const uint32_t elems = tiling.rowsPerCore * tiling.inner;
        xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * elems, elems);
        valueGm.SetGlobalBuffer((__gm__ float *)values + GetBlockIdx() * tiling.rowsPerCore * tiling.kValues,
                                tiling.rowsPerCore * tiling.kValues);
        indexGm.SetGlobalBuffer((__gm__ int32_t *)indices + GetBlockIdx() * tiling.rowsPerCore * tiling.kIndices,
                                tiling.rowsPerCore * tiling.kIndices);
        pipe.InitBuffer(inQueueX, 1, elems * sizeof(float));
        pipe.InitBuffer(outQueueValue, 1, tiling.rowsPerCore * tiling.kValues * sizeof(float));
        pipe.InitBuffer(outQueueIndex, 1, tiling.rowsPerCore * tiling.kIndices * sizeof(int32_t));
        pipe.InitBuffer(srcIndexBuf, 32);
        pipe.InitBuffer(finishBuf, 32);
        pipe.InitBuffer(tmpBuf, tiling.tmpBytes);
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm, tiling.rowsPerCore * tiling.inner);
        inQueueX.EnQue(xLocal);

        xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> valueLocal = outQueueValue.AllocTensor<float>();
        LocalTensor<int32_t> indexLocal = outQueueIndex.AllocTensor<int32_t>();
        TopKInfo info;
        info.outter = tiling.rowsPerCore;
        info.inner = tiling.inner;
        info.n = tiling.n;
        TopK<float>(valueLocal, indexLocal, xLocal, srcIndexBuf.Get<int32_t>(), finishBuf.Get<bool>(),
                    tmpBuf.Get<uint8_t>(), tiling.k, tiling.topkTiling, info, true);
        outQueueValue.EnQue<float>(valueLocal);
        outQueueIndex.EnQue<int32_t>(indexLocal);
        inQueueX.FreeTensor(xLocal);

        valueLocal = outQueueValue.DeQue<float>();
        DataCopy(valueGm, valueLocal, tiling.rowsPerCore * tiling.kValues);
        outQueueValue.FreeTensor(valueLocal);
        indexLocal = outQueueIndex.DeQue<int32_t>();
        DataCopy(indexGm, indexLocal, tiling.rowsPerCore * tiling.kIndices);
        outQueueIndex.FreeTensor(indexLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueueX;
    TQue<QuePosition::VECOUT, 1> outQueueValue, outQueueIndex;
    TBuf<QuePosition::VECCALC> srcIndexBuf, finishBuf, tmpBuf;
    GlobalTensor<float> xGm, valueGm;
    GlobalTensor<int32_t> indexGm;
    TopkCustomTilingData tiling;
};

__aicore__ inline void CopyTiling(TopkCustomTilingData *tiling, GM_ADDR tilingGm)
{
    GlobalTensor<uint32_t> words;
    words.SetGlobalBuffer((__gm__ uint32_t *)tilingGm, sizeof(TopkCustomTilingData) / sizeof(uint32_t));
    uint32_t *dst = reinterpret_cast<uint32_t *>(tiling);
    for (uint32_t i = 0; i < sizeof(TopkCustomTilingData) / sizeof(uint32_t); i++) {
        dst[i] = words.GetValue(i);
    }
}

extern "C" __global__ __aicore__ void topk_custom(GM_ADDR x, GM_ADDR values, GM_ADDR indices, GM_ADDR tilingGm)
{
    TopkCustomTilingData tiling;
    CopyTiling(&tiling, tilingGm);
    KernelTopk op;
    op.Init(x, values, indices, tiling);
    op.Process();
}
