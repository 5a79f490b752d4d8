/* pad_bcast_sum_custom: rows of 30 floats (not 32 B aligned) on 4 blocks:
 *   p   = Pad(x) to 32 columns (pad value 0) + Broadcast(bias [1, 32] -> [rows, 32])
 *   sum = Sum of the 30 valid columns of each row of p
 *   y   = UnPad(p - Broadcast(Mean(p) [rows, 1] -> [rows, 32])) back to 30 columns
 * with the Pad / UnPad tilings and every temporary size computed on the host. */
#include "kernel_operator.h"
#include "pad_bcast_sum_custom_tiling.h"
using namespace AscendC;

class KernelPadBcastSum {
public:
    __aicore__ inline KernelPadBcastSum() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR sum,
                                const optiling::PadBcastSumTilingData &t)
    {
        rows = t.rowsPerCore;
        width = t.width;
        padded = t.paddedWidth;
        const uint32_t block = GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float *)x + block * rows * width, rows * width);
        yGm.SetGlobalBuffer((__gm__ float *)y + block * rows * width, rows * width);
        biasGm.SetGlobalBuffer((__gm__ float *)bias, padded);
        sumGm.SetGlobalBuffer((__gm__ float *)sum + block * rows, rows);
        pipe.InitBuffer(inQueue, 1, (rows * width + padded) * sizeof(float));
        pipe.InitBuffer(outQueue, 1, (rows * width + rows) * sizeof(float));
        pipe.InitBuffer(workBuf, (2 * rows * padded + (rows + 7) / 8 * 8) * sizeof(float));  // p, b, the row means
        pipe.InitBuffer(tmpBuf, t.tmpBytes);
    }
    __aicore__ inline void Process(optiling::PadBcastSumTilingData &t)
    {
        LocalTensor<float> in = inQueue.AllocTensor<float>();
        DataCopy(in, xGm, rows * width);
        DataCopy(in[rows * width], biasGm, padded);
        inQueue.EnQue(in);
        in = inQueue.DeQue<float>();
        LocalTensor<float> x = in, bias = in[rows * width];

        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> p = work, b = work[rows * padded], mean = work[2 * rows * padded];
        LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        LocalTensor<float> y = out, sum = out[rows * width];

        PadParams padParams(0, static_cast<uint16_t>(padded - width), 0);
        Pad(p, x, padParams, tmp, t.padTiling);
        const uint32_t fullShape[2] = {rows, padded};
        const uint32_t rowShape[2] = {1, padded};
        const uint32_t colShape[2] = {rows, 1};
        Broadcast<float, 2, 0>(b, bias, fullShape, rowShape, tmp);
        Add(p, p, b, rows * padded);

        SumParams sumParams;
        sumParams.outter = rows;
        sumParams.inner = padded;
        sumParams.n = width;
        Sum(sum, p, tmp, sumParams);
        MeanParams meanParams;
        meanParams.outter = rows;
        meanParams.inner = padded;
        meanParams.n = width;
        Mean(mean, p, tmp, meanParams);
        Broadcast<float, 2, 1>(b, mean, fullShape, colShape);
        Sub(p, p, b, rows * padded);

        UnPadParams unPadParams(0, static_cast<uint16_t>(padded - width));
        UnPad(y, p, unPadParams, tmp, t.unPadTiling);
        outQueue.EnQue(out);
        inQueue.FreeTensor(in);

        out = outQueue.DeQue<float>();
        DataCopy(yGm, out, rows * width);
        DataCopy(sumGm, out[rows * width], rows);
        outQueue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    TBuf<QuePosition::VECCALC> workBuf, tmpBuf;
    GlobalTensor<float> xGm, biasGm, yGm, sumGm;
    uint32_t rows = 0, width = 0, padded = 0;
};

extern "C" __global__ __aicore__ void pad_bcast_sum_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR sum,
                                                           GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelPadBcastSum op;
    op.Init(x, bias, y, sum, tilingData);
    op.Process(tilingData);
}
