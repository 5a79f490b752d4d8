/* clamp_custom: y = min(max(x, lo), hi) over 4 blocks of 250 floats each. A block's slice is
 * 1000 bytes, not a multiple of 32, so it moves with DataCopyPad both ways. */
#include "kernel_operator.h"

constexpr uint32_t BLOCK_LENGTH = 250;
constexpr uint32_t ALIGNED_LENGTH = 256;  // 32-byte multiple that holds a slice in UB

class KernelClamp {
public:
    __aicore__ inline KernelClamp() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, float lo, float hi)
    {
        lo_ = lo;
        hi_ = hi;
        xGm.SetGlobalBuffer((__gm__ float *)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ float *)y + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, 1, ALIGNED_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueueY, 1, ALIGNED_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopyExtParams copyParams{1, BLOCK_LENGTH * sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{true, 0, 6, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm, copyParams, padParams);
        inQueueX.EnQue(xLocal);

        xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::Maxs(yLocal, xLocal, lo_, ALIGNED_LENGTH);
        AscendC::Mins(yLocal, yLocal, hi_, ALIGNED_LENGTH);
        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);

        yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopyPad(yGm, yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueY;
    AscendC::GlobalTensor<float> xGm, yGm;
    float lo_ = 0.0f;
    float hi_ = 0.0f;
};

extern "C" __global__ __aicore__ void clamp_custom(GM_ADDR x, GM_ADDR y, float lo, float hi)
{
    KernelClamp op;
    op.Init(x, y, lo, hi);
    op.Process();
}
