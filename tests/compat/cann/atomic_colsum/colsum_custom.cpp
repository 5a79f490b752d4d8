/* colsum_custom: y[c] = sum over 24 rows of x[r, c], 512 columns of float. Each of the 8
 * blocks adds its 3 rows into the same y with atomic adds in GM; the host zeroes y first. */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t TOTAL_ROWS = 24;
constexpr int32_t COLS = 512;
constexpr int32_t BLOCKS = 8;
constexpr int32_t ROWS_PER_BLOCK = TOTAL_ROWS / BLOCKS;

class KernelColSum {
public:
    __aicore__ inline KernelColSum() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * ROWS_PER_BLOCK * COLS, ROWS_PER_BLOCK * COLS);
        yGm.SetGlobalBuffer((__gm__ float *)y, COLS);
        pipe.InitBuffer(inQueue, 2, COLS * sizeof(float));
        pipe.InitBuffer(outQueue, 2, COLS * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (int32_t r = 0; r < ROWS_PER_BLOCK; ++r) {
            LocalTensor<float> in = inQueue.AllocTensor<float>();
            DataCopy(in, xGm[r * COLS], COLS);
            inQueue.EnQue(in);
            in = inQueue.DeQue<float>();
            LocalTensor<float> out = outQueue.AllocTensor<float>();
            Muls(out, in, 1.0f, COLS);
            outQueue.EnQue<float>(out);
            inQueue.FreeTensor(in);
            out = outQueue.DeQue<float>();
            SetAtomicAdd<float>();
            DataCopy(yGm, out, COLS);
            SetAtomicNone();
            outQueue.FreeTensor(out);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQueue;
    TQue<QuePosition::VECOUT, 2> outQueue;
    GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void colsum_custom(GM_ADDR x, GM_ADDR y)
{
    KernelColSum op;
    op.Init(x, y);
    op.Process();
}
