/* scale_by_max_custom: y = x / max(x) over 8 blocks of 512 floats. Phase 1: each block's
 * maximum goes to a GM workspace; SyncAll; phase 2: every block reads all maxima. */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BLOCKS = 8;
constexpr int32_t BLOCK_LENGTH = 512;
constexpr int32_t SLOT = 8;  // floats per block's slot in the workspace (32 bytes)

class KernelScaleByMax {
public:
    __aicore__ inline KernelScaleByMax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR maxima, GM_ADDR syncWorkspace)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * BLOCK_LENGTH, BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * BLOCK_LENGTH, BLOCK_LENGTH);
        maxGm.SetGlobalBuffer((__gm__ float *)maxima, BLOCKS * SLOT);
        syncGm.SetGlobalBuffer((__gm__ int32_t *)syncWorkspace, BLOCKS * 8);
        pipe.InitBuffer(inQueue, 1, BLOCK_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueue, 1, BLOCK_LENGTH * sizeof(float));
        pipe.InitBuffer(calcBuf, BLOCK_LENGTH * sizeof(float));
        pipe.InitBuffer(maxBuf, 32);
        pipe.InitBuffer(syncBuf, BLOCKS * 32);
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        DataCopy(x, xGm, BLOCK_LENGTH);
        inQueue.EnQue(x);
        x = inQueue.DeQue<float>();

        LocalTensor<float> blockMax = maxBuf.Get<float>();
        LocalTensor<float> work = calcBuf.Get<float>();
        ReduceMax<float>(blockMax, x, work, BLOCK_LENGTH);
        maxGm.SetValue(GetBlockIdx() * SLOT, blockMax.GetValue(0));
        DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(maxGm[GetBlockIdx() * SLOT]);

        LocalTensor<int32_t> syncLocal = syncBuf.Get<int32_t>();
        SyncAll(syncGm, syncLocal);

        float globalMax = 0.0f;
        for (int32_t b = 0; b < BLOCKS; ++b) {
            DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(maxGm[b * SLOT]);
            float m = maxGm.GetValue(b * SLOT);
            globalMax = m > globalMax ? m : globalMax;
        }
        LocalTensor<float> y = outQueue.AllocTensor<float>();
        Muls(y, x, 1.0f / globalMax, BLOCK_LENGTH);
        outQueue.EnQue<float>(y);
        inQueue.FreeTensor(x);
        y = outQueue.DeQue<float>();
        DataCopy(yGm, y, BLOCK_LENGTH);
        outQueue.FreeTensor(y);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    TBuf<QuePosition::VECCALC> calcBuf, maxBuf, syncBuf;
    GlobalTensor<float> xGm, yGm, maxGm;
    GlobalTensor<int32_t> syncGm;
};

extern "C" __global__ __aicore__ void scale_by_max_custom(GM_ADDR x, GM_ADDR y, GM_ADDR maxima, GM_ADDR syncWorkspace)
{
    KernelScaleByMax op;
    op.Init(x, y, maxima, syncWorkspace);
    op.Process();
}
