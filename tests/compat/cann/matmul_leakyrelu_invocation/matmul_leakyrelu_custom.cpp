/*
 * C = LeakyReLU(A B + bias) in the shape of CANN's MatmulLeakyRelu kernel-launch sample: the
 * kernel declares no type and the host does not call SetKernelMode, so on the 910B each AIV of
 * the one launched AI Core runs the Matmul of its block of C (the AIC does the cube work, CANN's
 * mixed mode); on the 310P each of the two AI Cores runs its own. Iterate / GetTensorC bring
 * each 256 x 128 base block into UB (VECIN), LeakyRelu runs in place, and one strided DataCopy
 * puts the block at its place in C. The 310P build hands the Matmul a UB workspace
 * (SetLocalWorkspace), as the sample does there; the kernel never calls SetSysWorkspace.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename aType, typename bType, typename cType, typename biasType>
class MatmulLeakyReluKernel {
public:
    __aicore__ inline MatmulLeakyReluKernel() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace, GM_ADDR tilingGm,
                                TPipe *pipe)
    {
        auto src = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
        auto dst = reinterpret_cast<uint32_t *>(&tiling);
        for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) {
            dst[i] = src[i];
        }
        // This block's rectangle of C: blocks walk along M first.
        const uint32_t mBlocks = Ceil(tiling.M, tiling.singleCoreM);
        const uint32_t mIdx = GetBlockIdx() % mBlocks;
        const uint32_t nIdx = GetBlockIdx() / mBlocks;
        aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ aType *>(a), uint64_t(tiling.M) * tiling.Ka);
        bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ bType *>(b), uint64_t(tiling.Kb) * tiling.N);
        cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ cType *>(c), uint64_t(tiling.M) * tiling.N);
        biasGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ biasType *>(bias), tiling.N);
        aGlobal = aGlobal[uint64_t(mIdx) * tiling.singleCoreM * tiling.Ka];
        bGlobal = bGlobal[uint64_t(nIdx) * tiling.singleCoreN];
        cGlobal = cGlobal[uint64_t(mIdx) * tiling.singleCoreM * tiling.N + uint64_t(nIdx) * tiling.singleCoreN];
        biasGlobal = biasGlobal[uint64_t(nIdx) * tiling.singleCoreN];
        pipe->InitBuffer(outQueue, 1, tiling.baseM * tiling.baseN * sizeof(cType));
        // Like CANN's older kernel-launch samples, no SetSysWorkspace: the mixed Matmul finds
        // its system workspace itself.
        (void)workspace;
    }

    __aicore__ inline void Process(TPipe *pipe)
    {
#ifdef CUSTOM_ASCEND310P
        TBuf<> formatBuf;
        pipe->InitBuffer(formatBuf, tiling.baseM * tiling.baseN * sizeof(cType));
        matmulObj.SetLocalWorkspace(formatBuf.Get<uint8_t>(tiling.baseM * tiling.baseN * sizeof(cType)));
#else
        (void)pipe;
#endif
        matmulObj.SetTensorA(aGlobal);
        matmulObj.SetTensorB(bGlobal);
        matmulObj.SetBias(biasGlobal);
        uint32_t round = 0;
        while (matmulObj.template Iterate<true>()) {
            LocalTensor<cType> block = outQueue.AllocTensor<cType>();
            matmulObj.template GetTensorC<true>(block, false, true);
            LeakyRelu(block, block, static_cast<cType>(0.001), tiling.baseM * tiling.baseN);
            outQueue.EnQue(block);
            CopyOut(round++);
        }
        matmulObj.End();
    }

    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, aType>, MatmulType<TPosition::GM, CubeFormat::ND, bType>,
           MatmulType<TPosition::VECIN, CubeFormat::ND, cType>, MatmulType<TPosition::GM, CubeFormat::ND, biasType>>
        matmulObj;
    TCubeTiling tiling;

private:
    __aicore__ inline void CopyOut(uint32_t round)
    {
        // Whole base blocks (the shape is a multiple of them), along M first.
        const uint32_t blocksM = tiling.singleCoreM / tiling.baseM;
        const uint64_t at = uint64_t(round % blocksM) * tiling.baseM * tiling.N + round / blocksM * tiling.baseN;
        LocalTensor<cType> block = outQueue.DeQue<cType>();
        DataCopyParams params;
        params.blockCount = static_cast<uint16_t>(tiling.baseM);
        params.blockLen = static_cast<uint16_t>(tiling.baseN * sizeof(cType) / 32);
        params.srcStride = 0;
        params.dstStride = static_cast<uint16_t>((tiling.N - tiling.baseN) * sizeof(cType) / 32);
        DataCopy(cGlobal[at], block, params);
        outQueue.FreeTensor(block);
    }

    GlobalTensor<aType> aGlobal;
    GlobalTensor<bType> bGlobal;
    GlobalTensor<cType> cGlobal;
    GlobalTensor<biasType> biasGlobal;
    TQue<QuePosition::VECOUT, 1> outQueue;
};

extern "C" __global__ __aicore__ void matmul_leakyrelu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    MatmulLeakyReluKernel<half, half, float, float> op;
    TPipe pipe;
    op.Init(a, b, bias, c, workspace, tiling, &pipe);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.matmulObj, &op.tiling);
    op.Process(&pipe);
}
