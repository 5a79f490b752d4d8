/* norm_act_custom: two normalize-then-activate paths of a transformer block over float rows
 * of H on 4 blocks, all with tilings computed on the host:
 *   y   = Gelu(LayerNorm(x) * gamma + beta)   (+ the row mean and variance)
 *   z   = Silu(RmsNorm(x) * gamma)
 *   avg = Mean(z) over each row
 */
#include "kernel_operator.h"
#include "norm_act_custom_tiling.h"
using namespace AscendC;

class KernelNormAct {
public:
    __aicore__ inline KernelNormAct() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean, GM_ADDR var,
                                GM_ADDR z, GM_ADDR avg, const optiling::NormActCustomTilingData &t)
    {
        rows = t.rowsPerCore;
        h = t.hLength;
        const uint32_t elems = rows * h;
        const uint32_t block = GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float *)x + block * elems, elems);
        yGm.SetGlobalBuffer((__gm__ float *)y + block * elems, elems);
        zGm.SetGlobalBuffer((__gm__ float *)z + block * elems, elems);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma, h);
        betaGm.SetGlobalBuffer((__gm__ float *)beta, h);
        // The per-row results go out 8 floats (32 B) per block of rows.
        meanGm.SetGlobalBuffer((__gm__ float *)mean + block * RowsAligned(), RowsAligned());
        varGm.SetGlobalBuffer((__gm__ float *)var + block * RowsAligned(), RowsAligned());
        avgGm.SetGlobalBuffer((__gm__ float *)avg + block * RowsAligned(), RowsAligned());
        pipe.InitBuffer(inQueue, 1, (elems + 2 * h) * sizeof(float));
        pipe.InitBuffer(outQueue, 1, 2 * elems * sizeof(float));
        pipe.InitBuffer(statQueue, 1, 3 * RowsAligned() * sizeof(float));
        uint32_t tmp = t.layerNormTmp;
        if (t.rmsNormTmp > tmp) tmp = t.rmsNormTmp;
        if (t.geluTmp > tmp) tmp = t.geluTmp;
        if (t.meanTmp > tmp) tmp = t.meanTmp;
        pipe.InitBuffer(tmpBuf, tmp);
    }
    __aicore__ inline void Process(optiling::NormActCustomTilingData &t)
    {
        const uint32_t elems = rows * h;
        LocalTensor<float> in = inQueue.AllocTensor<float>();
        DataCopy(in, xGm, elems);
        DataCopy(in[elems], gammaGm, h);
        DataCopy(in[elems + h], betaGm, h);
        inQueue.EnQue(in);
        in = inQueue.DeQue<float>();
        LocalTensor<float> x = in, gamma = in[elems], beta = in[elems + h];

        LocalTensor<float> out = outQueue.AllocTensor<float>();
        LocalTensor<float> stat = statQueue.AllocTensor<float>();
        LocalTensor<float> y = out, z = out[elems];
        LocalTensor<float> mean = stat, var = stat[RowsAligned()], avg = stat[2 * RowsAligned()];
        LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();

        LayerNorm<float, false>(y, mean, var, x, gamma, beta, tmp, t.epsilon, t.layerNormTiling);
        Gelu<float>(y, y, tmp, elems);
        RmsNorm<float, false>(z, x, gamma, tmp, t.epsilon, t.rmsNormTiling);
        Silu<float>(z, z, elems);
        MeanParams meanParams;
        meanParams.outter = rows;
        meanParams.inner = h;
        meanParams.n = h;
        Mean<float>(avg, z, tmp, meanParams);
        outQueue.EnQue(out);
        statQueue.EnQue(stat);
        inQueue.FreeTensor(in);

        out = outQueue.DeQue<float>();
        stat = statQueue.DeQue<float>();
        DataCopy(yGm, out, elems);
        DataCopy(zGm, out[elems], elems);
        DataCopy(meanGm, stat, RowsAligned());
        DataCopy(varGm, stat[RowsAligned()], RowsAligned());
        DataCopy(avgGm, stat[2 * RowsAligned()], RowsAligned());
        outQueue.FreeTensor(out);
        statQueue.FreeTensor(stat);
    }

private:
    __aicore__ inline uint32_t RowsAligned() const { return (rows + 7) / 8 * 8; }
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue, statQueue;
    TBuf<QuePosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm, gammaGm, betaGm, yGm, zGm, meanGm, varGm, avgGm;
    uint32_t rows = 0, h = 0;
};

extern "C" __global__ __aicore__ void norm_act_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                      GM_ADDR mean, GM_ADDR var, GM_ADDR z, GM_ADDR avg,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelNormAct op;
    op.Init(x, gamma, beta, y, mean, var, z, avg, tilingData);
    op.Process(tilingData);
}
