/* confusion_transpose_custom: per block (one batch each) two layout changes through the
 * high-level ConfusionTranspose API with tilings from GetConfusionTransposeTilingInfo:
 *   - attention heads: NZ [N, H/N / 16, S / 16, 16, 16] -> ND [S, N, H/N] (TRANSPOSE_NZ2ND_0213,
 *     with a shared temporary buffer);
 *   - a plain [rows, cols] plane -> [cols, rows] (TRANSPOSE_ND2ND_ONLY, the temporary buffer
 *     taken from the UB the pipe left free). */
#include "kernel_operator.h"
#include "confusion_transpose_custom_tiling.h"
using namespace AscendC;

class KernelConfusionTranspose {
public:
    __aicore__ inline KernelConfusionTranspose() {}
    __aicore__ inline void Init(GM_ADDR heads, GM_ADDR plane, GM_ADDR headsOut, GM_ADDR planeOut,
                                const ConfusionTransposeCustomTilingData &t)
    {
        tiling = t;
        headElems = tiling.heads * tiling.seq * tiling.headDim;
        planeElems = tiling.planeRows * tiling.planeCols;
        headsGm.SetGlobalBuffer((__gm__ half *)heads + GetBlockIdx() * headElems, headElems);
        headsOutGm.SetGlobalBuffer((__gm__ half *)headsOut + GetBlockIdx() * headElems, headElems);
        planeGm.SetGlobalBuffer((__gm__ float *)plane + GetBlockIdx() * planeElems, planeElems);
        planeOutGm.SetGlobalBuffer((__gm__ float *)planeOut + GetBlockIdx() * planeElems, planeElems);
        pipe.InitBuffer(inQueue, 1, headElems * sizeof(half));
        pipe.InitBuffer(outQueue, 1, headElems * sizeof(half));
        pipe.InitBuffer(planeInQueue, 1, planeElems * sizeof(float));
        pipe.InitBuffer(planeOutQueue, 1, planeElems * sizeof(float));
        pipe.InitBuffer(tmpBuf, tiling.tmpBytes);
    }
    __aicore__ inline void Process()
    {
        LocalTensor<half> src = inQueue.AllocTensor<half>();
        DataCopy(src, headsGm, headElems);
        inQueue.EnQue(src);
        src = inQueue.DeQue<half>();
        LocalTensor<half> dst = outQueue.AllocTensor<half>();
        ConfusionTranspose(dst, src, tmpBuf.Get<uint8_t>(), TransposeType::TRANSPOSE_NZ2ND_0213, tiling.headTiling);
        outQueue.EnQue(dst);
        inQueue.FreeTensor(src);
        dst = outQueue.DeQue<half>();
        DataCopy(headsOutGm, dst, headElems);
        outQueue.FreeTensor(dst);

        LocalTensor<float> planeIn = planeInQueue.AllocTensor<float>();
        DataCopy(planeIn, planeGm, planeElems);
        planeInQueue.EnQue(planeIn);
        planeIn = planeInQueue.DeQue<float>();
        LocalTensor<float> planeOut = planeOutQueue.AllocTensor<float>();
        ConfusionTranspose(planeOut, planeIn, TransposeType::TRANSPOSE_ND2ND_ONLY, tiling.planeTiling);
        planeOutQueue.EnQue(planeOut);
        planeInQueue.FreeTensor(planeIn);
        planeOut = planeOutQueue.DeQue<float>();
        DataCopy(planeOutGm, planeOut, planeElems);
        planeOutQueue.FreeTensor(planeOut);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue, planeInQueue;
    TQue<QuePosition::VECOUT, 1> outQueue, planeOutQueue;
    TBuf<QuePosition::VECCALC> tmpBuf;
    GlobalTensor<half> headsGm, headsOutGm;
    GlobalTensor<float> planeGm, planeOutGm;
    ConfusionTransposeCustomTilingData tiling;
    uint32_t headElems = 0;
    uint32_t planeElems = 0;
};

__aicore__ inline void CopyTiling(ConfusionTransposeCustomTilingData *tiling, GM_ADDR tilingGm)
{
    GlobalTensor<uint32_t> words;
    const uint32_t count = sizeof(ConfusionTransposeCustomTilingData) / sizeof(uint32_t);
    words.SetGlobalBuffer((__gm__ uint32_t *)tilingGm, count);
    uint32_t *dst = reinterpret_cast<uint32_t *>(tiling);
    for (uint32_t i = 0; i < count; i++) {
        dst[i] = words.GetValue(i);
    }
}

extern "C" __global__ __aicore__ void confusion_transpose_custom(GM_ADDR heads, GM_ADDR plane, GM_ADDR headsOut,
                                                                 GM_ADDR planeOut, GM_ADDR tilingGm)
{
    ConfusionTransposeCustomTilingData tiling;
    CopyTiling(&tiling, tilingGm);
    KernelConfusionTranspose op;
    op.Init(heads, plane, headsOut, planeOut, tiling);
    op.Process();
}
