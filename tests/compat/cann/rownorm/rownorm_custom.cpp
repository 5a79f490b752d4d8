/* rownorm_custom: y[r, :] = x[r, :] / sum(x[r, :]) for 16 rows of 256 floats.
 * Each of the 8 blocks owns two rows. The row sum comes back to the scalar unit with
 * GetValue right after ReduceSum, as the published reduction samples do. */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t ROWS = 16;
constexpr int32_t COLS = 256;
constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t ROWS_PER_CORE = ROWS / USE_CORE_NUM;
constexpr int32_t BUFFER_NUM = 2;

class KernelRowNorm {
public:
    __aicore__ inline KernelRowNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * ROWS_PER_CORE * COLS, ROWS_PER_CORE * COLS);
        yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * ROWS_PER_CORE * COLS, ROWS_PER_CORE * COLS);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, COLS * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, COLS * sizeof(float));
        pipe.InitBuffer(sumBuf, 32);
        pipe.InitBuffer(workBuf, COLS * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < ROWS_PER_CORE; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm[progress * COLS], COLS);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(int32_t progress)
    {
        (void)progress;
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        LocalTensor<float> sumLocal = sumBuf.Get<float>();
        LocalTensor<float> workLocal = workBuf.Get<float>();
        ReduceSum<float>(sumLocal, xLocal, workLocal, COLS);
        float rowSum = sumLocal.GetValue(0);
        Muls(yLocal, xLocal, 1.0f / rowSum, COLS);
        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        DataCopy(yGm[progress * COLS], yLocal, COLS);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    TBuf<QuePosition::VECCALC> sumBuf, workBuf;
    GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void rownorm_custom(GM_ADDR x, GM_ADDR y)
{
    KernelRowNorm op;
    op.Init(x, y);
    op.Process();
}
