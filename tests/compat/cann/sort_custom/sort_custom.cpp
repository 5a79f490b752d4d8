/* sort_custom: each block sorts its 160 half scores (descending) with their uint32 indices,
 * through the high-level Concat -> Sort<half, true> -> Extract chain. The sorted buffer is
 * GetSortLen<half>(n) elements, which is the chip's layout: (score, index) records on the A2,
 * region proposals on the 310P. */
#include "kernel_operator.h"
#include "sort_custom_tiling.h"
using namespace AscendC;

class KernelSort {
public:
    __aicore__ inline KernelSort() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR index, GM_ADDR values, GM_ADDR indices,
                                uint32_t n, uint32_t concatTmpBytes, uint32_t sortTmpBytes)
    {
        count = n;
        xGm.SetGlobalBuffer((__gm__ half *)x + GetBlockIdx() * n, n);
        indexGm.SetGlobalBuffer((__gm__ uint32_t *)index + GetBlockIdx() * n, n);
        valueGm.SetGlobalBuffer((__gm__ half *)values + GetBlockIdx() * n, n);
        outIndexGm.SetGlobalBuffer((__gm__ uint32_t *)indices + GetBlockIdx() * n, n);
        pipe.InitBuffer(inQueueX, 1, n * sizeof(half));
        pipe.InitBuffer(inQueueIndex, 1, n * sizeof(uint32_t));
        pipe.InitBuffer(outQueueValue, 1, n * sizeof(half));
        pipe.InitBuffer(outQueueIndex, 1, n * sizeof(uint32_t));
        pipe.InitBuffer(sortedBuf, GetSortLen<half>(n) * sizeof(half));
        // The A2 needs no Concat buffer (GetConcatTmpSize says 0); give the TBuf 32 B then.
        pipe.InitBuffer(concatBuf, concatTmpBytes > 0 ? concatTmpBytes : 32);
        pipe.InitBuffer(sortTmpBuf, sortTmpBytes);
    }
    __aicore__ inline void Process(uint32_t concatRepeat, uint32_t sortRepeat)
    {
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        LocalTensor<uint32_t> idxLocal = inQueueIndex.AllocTensor<uint32_t>();
        DataCopy(xLocal, xGm, count);
        DataCopy(idxLocal, indexGm, count);
        inQueueX.EnQue(xLocal);
        inQueueIndex.EnQue(idxLocal);

        xLocal = inQueueX.DeQue<half>();
        idxLocal = inQueueIndex.DeQue<uint32_t>();
        LocalTensor<half> valueLocal = outQueueValue.AllocTensor<half>();
        LocalTensor<uint32_t> outIdxLocal = outQueueIndex.AllocTensor<uint32_t>();
        LocalTensor<half> sortedLocal = sortedBuf.Get<half>();
        LocalTensor<half> sortTmp = sortTmpBuf.Get<half>();
        LocalTensor<half> concatLocal;
        Concat(concatLocal, xLocal, concatBuf.Get<half>(), concatRepeat);
        Sort<half, true>(sortedLocal, concatLocal, idxLocal, sortTmp, sortRepeat);
        Extract(valueLocal, outIdxLocal, sortedLocal, sortRepeat);
        outQueueValue.EnQue<half>(valueLocal);
        outQueueIndex.EnQue<uint32_t>(outIdxLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueIndex.FreeTensor(idxLocal);

        valueLocal = outQueueValue.DeQue<half>();
        DataCopy(valueGm, valueLocal, count);
        outQueueValue.FreeTensor(valueLocal);
        outIdxLocal = outQueueIndex.DeQue<uint32_t>();
        DataCopy(outIndexGm, outIdxLocal, count);
        outQueueIndex.FreeTensor(outIdxLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueueX, inQueueIndex;
    TQue<QuePosition::VECOUT, 1> outQueueValue, outQueueIndex;
    TBuf<QuePosition::VECCALC> sortedBuf, concatBuf, sortTmpBuf;
    GlobalTensor<half> xGm, valueGm;
    GlobalTensor<uint32_t> indexGm, outIndexGm;
    uint32_t count = 0;
};

extern "C" __global__ __aicore__ void sort_custom(GM_ADDR x, GM_ADDR index, GM_ADDR values, GM_ADDR indices,
                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    GET_TILING_DATA(t, tiling);
    KernelSort op;
    op.Init(x, index, values, indices, t.elemsPerCore, t.concatTmpBytes, t.sortTmpBytes);
    op.Process(t.concatRepeat, t.sortRepeat);
}
