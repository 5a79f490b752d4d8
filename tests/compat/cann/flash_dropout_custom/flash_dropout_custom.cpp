/* flash_dropout_custom: the online softmax of rows of 2 x 64 floats in two SoftmaxFlashV2 steps
 * (the second with isUpdate), then DropOut (byte mask) of the second step's exponentials. */
#include "kernel_operator.h"
#include "flash_dropout_custom_tiling.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void flash_dropout_custom(GM_ADDR x, GM_ADDR mask, GM_ADDR e1, GM_ADDR e2,
                                                           GM_ADDR stats, GM_ADDR drop, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const uint32_t rows = t.rowsPerCore, k = t.chunk, block = GetBlockIdx();
    GlobalTensor<float> xGm, e1Gm, e2Gm, statGm, dropGm;
    GlobalTensor<uint8_t> maskGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + block * rows * 2 * k, rows * 2 * k);
    maskGm.SetGlobalBuffer((__gm__ uint8_t *)mask + block * rows * k, rows * k);
    e1Gm.SetGlobalBuffer((__gm__ float *)e1 + block * rows * k, rows * k);
    e2Gm.SetGlobalBuffer((__gm__ float *)e2 + block * rows * k, rows * k);
    dropGm.SetGlobalBuffer((__gm__ float *)drop + block * rows * k, rows * k);
    statGm.SetGlobalBuffer((__gm__ float *)stats + block * 4 * rows * 8, 4 * rows * 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, outBuf, statBuf, maskBuf, tmpBuf;
    pipe.InitBuffer(inBuf, 2 * rows * k * sizeof(float));
    pipe.InitBuffer(outBuf, 3 * rows * k * sizeof(float));
    pipe.InitBuffer(statBuf, 5 * rows * 8 * sizeof(float));
    pipe.InitBuffer(maskBuf, rows * k);
    pipe.InitBuffer(tmpBuf, t.tmpBytes);
    LocalTensor<float> in = inBuf.Get<float>(), out = outBuf.Get<float>(), st = statBuf.Get<float>();
    LocalTensor<float> x1 = in, x2 = in[rows * k];
    LocalTensor<float> o1 = out, o2 = out[rows * k], od = out[2 * rows * k];
    LocalTensor<float> sum = st, max = st[rows * 8], expMax = st[2 * rows * 8], sum1 = st[3 * rows * 8],
                       max1 = st[4 * rows * 8];
    LocalTensor<uint8_t> m = maskBuf.Get<uint8_t>(), tmp = tmpBuf.Get<uint8_t>();
    // The two column halves of the rows, each as a [rows, k] tile.
    DataCopyParams half{static_cast<uint16_t>(rows), static_cast<uint16_t>(k * sizeof(float) / 32),
                        static_cast<uint16_t>(k * sizeof(float) / 32), 0};
    DataCopy(x1, xGm, half);
    DataCopy(x2, xGm[k], half);
    DataCopy(m, maskGm, rows * k);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    SoftMaxShapeInfo shape = {rows, k, rows, k};
    SoftmaxFlashV2<float, false>(o1, sum1, max1, x1, expMax, sum1, max1, tmp, t.firstTiling, shape);
    SoftmaxFlashV2<float, true>(o2, sum, max, x2, expMax, sum1, max1, tmp, t.updateTiling, shape);
    DropOutShapeInfo info;
    info.firstAxis = rows;
    info.srcLastAxis = k;
    info.maskLastAxis = k;
    DropOut(od, o2, m, tmp, t.keepProb, info);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(e1Gm, o1, rows * k);
    DataCopy(e2Gm, o2, rows * k);
    DataCopy(dropGm, od, rows * k);
    DataCopy(statGm, st, 4 * rows * 8);  // sum, max, expMax, first-step sum
}
