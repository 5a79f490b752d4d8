/* softmax_custom: y = softmax(x) over the valid 77 of each 80-element half row, 32 rows on
 * 8 blocks, with the high-level SoftMax API and a tiling computed on the host by
 * SoftMaxTilingFunc. The row max and sum come back too ([rows, 8] float each). */
#include "kernel_operator.h"
#include "softmax_custom_tiling.h"
using namespace AscendC;

class KernelSoftmax {
public:
    __aicore__ inline KernelSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR sum, GM_ADDR max, const SoftmaxCustomTilingData &t)
    {
        tiling = t;
        const uint32_t elems = tiling.rowsPerCore * tiling.cols;
        const uint32_t stats = tiling.rowsPerCore * 8;
        xGm.SetGlobalBuffer((__gm__ half *)x + GetBlockIdx() * elems, elems);
        yGm.SetGlobalBuffer((__gm__ half *)y + GetBlockIdx() * elems, elems);
        sumGm.SetGlobalBuffer((__gm__ float *)sum + GetBlockIdx() * stats, stats);
        maxGm.SetGlobalBuffer((__gm__ float *)max + GetBlockIdx() * stats, stats);
        pipe.InitBuffer(inQueueX, 1, elems * sizeof(half));
        pipe.InitBuffer(outQueueY, 1, elems * sizeof(half));
        pipe.InitBuffer(outQueueStats, 1, 2 * stats * sizeof(float));
        pipe.InitBuffer(tmpBuf, tiling.tmpBytes);
    }
    __aicore__ inline void Process()
    {
        const uint32_t elems = tiling.rowsPerCore * tiling.cols;
        const uint32_t stats = tiling.rowsPerCore * 8;
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        DataCopy(xLocal, xGm, elems);
        inQueueX.EnQue(xLocal);

        xLocal = inQueueX.DeQue<half>();
        LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        LocalTensor<float> statLocal = outQueueStats.AllocTensor<float>();
        SoftMaxShapeInfo shape = {tiling.rowsPerCore, tiling.cols, tiling.rowsPerCore, tiling.validCols};
        SoftMax<half>(yLocal, statLocal, statLocal[stats], xLocal, tmpBuf.Get<uint8_t>(), tiling.softmaxTiling, shape);
        outQueueY.EnQue<half>(yLocal);
        outQueueStats.EnQue<float>(statLocal);
        inQueueX.FreeTensor(xLocal);

        yLocal = outQueueY.DeQue<half>();
        DataCopy(yGm, yLocal, elems);
        outQueueY.FreeTensor(yLocal);
        statLocal = outQueueStats.DeQue<float>();
        DataCopy(sumGm, statLocal, stats);
        DataCopy(maxGm, statLocal[stats], stats);
        outQueueStats.FreeTensor(statLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueueX;
    TQue<QuePosition::VECOUT, 1> outQueueY, outQueueStats;
    TBuf<QuePosition::VECCALC> tmpBuf;
    GlobalTensor<half> xGm, yGm;
    GlobalTensor<float> sumGm, maxGm;
    SoftmaxCustomTilingData tiling;
};

__aicore__ inline void CopyTiling(SoftmaxCustomTilingData *tiling, GM_ADDR tilingGm)
{
    GlobalTensor<uint32_t> words;
    words.SetGlobalBuffer((__gm__ uint32_t *)tilingGm, sizeof(SoftmaxCustomTilingData) / sizeof(uint32_t));
    uint32_t *dst = reinterpret_cast<uint32_t *>(tiling);
    for (uint32_t i = 0; i < sizeof(SoftmaxCustomTilingData) / sizeof(uint32_t); i++) {
        dst[i] = words.GetValue(i);
    }
}

extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR sum, GM_ADDR max,
                                                     GM_ADDR tilingGm)
{
    SoftmaxCustomTilingData tiling;
    CopyTiling(&tiling, tilingGm);
    KernelSoftmax op;
    op.Init(x, y, sum, max, tiling);
    op.Process();
}
