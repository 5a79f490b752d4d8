/*
 * C = LeakyReLU(A B + bias) in the mixed (AIC + 2 AIVs) shape of CANN's bare-mix samples:
 * on each AIC the high-level Matmul computes the block's rectangle of A B + bias into C in
 * GM, then flags its two AIVs, which apply LeakyReLU to half of the rectangle's rows each.
 * The tiling is the host's (MultiCoreMatmulTiling), followed by the float alpha.
 */
#define ASCENDC_CUBE_ONLY  // the Matmul runs on the AIC itself, as in the bare-mix samples
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

constexpr uint16_t CUBE_DONE = 3;

__aicore__ inline void CopyTiling(TCubeTiling *tiling, float &alpha, GM_ADDR tilingGm)
{
    uint32_t *ptr = reinterpret_cast<uint32_t *>(tiling);
    auto tiling32 = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); i++, ptr++) {
        *ptr = *(tiling32 + i);
    }
    alpha = *reinterpret_cast<__gm__ float *>(tilingGm + sizeof(TCubeTiling));
}

extern "C" __global__ __aicore__ void matmul_leakyrelu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                              GM_ADDR workspace, GM_ADDR tilingGm)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    AscendC::SetSysWorkspace(workspace);
    TCubeTiling tiling;
    float alpha = 0;
    CopyTiling(&tiling, alpha, tilingGm);

    // This block's rectangle of C (blocks count AICs; an AIV's index is 2 * block + sub-block).
    const uint32_t block = ASCEND_IS_AIC ? AscendC::GetBlockIdx() : AscendC::GetBlockIdx() / AscendC::GetSubBlockNum();
    const uint32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    const uint32_t mIdx = block % mBlocks;
    const uint32_t nIdx = block / mBlocks;
    const int tailM = AscendC::Std::min(tiling.singleCoreM, tiling.M - static_cast<int>(mIdx) * tiling.singleCoreM);
    const int tailN = AscendC::Std::min(tiling.singleCoreN, tiling.N - static_cast<int>(nIdx) * tiling.singleCoreN);
    const uint64_t offsetC = uint64_t(mIdx) * tiling.singleCoreM * tiling.N + uint64_t(nIdx) * tiling.singleCoreN;
    AscendC::GlobalTensor<float> cGlobal;
    cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), uint64_t(tiling.M) * tiling.N);

    if ASCEND_IS_AIC {
        if (block < static_cast<uint32_t>(tiling.usedCoreNum)) {
            AscendC::GlobalTensor<half> aGlobal, bGlobal;
            AscendC::GlobalTensor<float> biasGlobal;
            aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), uint64_t(tiling.M) * tiling.Ka);
            bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), uint64_t(tiling.Kb) * tiling.N);
            biasGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias), tiling.N);
            AscendC::TPipe pipe;
            Matmul<MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                   MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                   MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>,
                   MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>, CFG_MDL> mm;
            REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
            mm.SetOrgShape(tiling.M, tiling.N, tiling.Ka, tiling.Kb);
            mm.SetTensorA(aGlobal[uint64_t(mIdx) * tiling.singleCoreM * tiling.Ka]);
            mm.SetTensorB(bGlobal[uint64_t(nIdx) * tiling.singleCoreN]);
            mm.SetBias(biasGlobal[uint64_t(nIdx) * tiling.singleCoreN]);
            mm.SetTail(tailM, tailN);
            mm.IterateAll(cGlobal[offsetC]);
            mm.End();
        }
        AscendC::CrossCoreSetFlag<2, PIPE_FIX>(CUBE_DONE);  // after the last Fixpipe to GM
    }
    if ASCEND_IS_AIV {
        AscendC::CrossCoreWaitFlag(CUBE_DONE);
        if (block >= static_cast<uint32_t>(tiling.usedCoreNum)) {
            return;
        }
        const int half = (tailM + 1) / 2;
        const int row0 = static_cast<int>(AscendC::GetSubBlockIdx()) * half;
        const int rows = AscendC::Std::min(half, tailM - row0);
        AscendC::TPipe pipe;
        AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueue;
        AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQueue;
        pipe.InitBuffer(inQueue, 2, tiling.singleCoreN * sizeof(float));
        pipe.InitBuffer(outQueue, 2, tiling.singleCoreN * sizeof(float));
        for (int r = row0; r < row0 + rows; ++r) {
            AscendC::LocalTensor<float> in = inQueue.AllocTensor<float>();
            AscendC::DataCopy(in, cGlobal[offsetC + uint64_t(r) * tiling.N], tailN);
            inQueue.EnQue(in);
            in = inQueue.DeQue<float>();
            AscendC::LocalTensor<float> out = outQueue.AllocTensor<float>();
            AscendC::LeakyRelu(out, in, alpha, tailN);
            outQueue.EnQue(out);
            inQueue.FreeTensor(in);
            out = outQueue.DeQue<float>();
            AscendC::DataCopy(cGlobal[offsetC + uint64_t(r) * tiling.N], out, tailN);
            outQueue.FreeTensor(out);
        }
    }
}
