/*
 * C = LeakyReLU(A B + bias) as CANN's MatmulLeakyRelu sample writes it (mixed mode): every AIV
 * runs the Matmul of its block of C; Iterate / GetTensorC bring each 64 x 64 base block into
 * its UB (the AIC of its AI Core does the cube work), the AIV applies LeakyReLU and copies the
 * block out. The tiling is the host's, followed by the float alpha. Like the sample, the kernel
 * declares no type: the sim route runs it mixed because it uses the Matmul (as CANN's compiler
 * infers), the CPU-debug host says SetKernelMode(KernelMode::MIX_MODE).
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

template <typename aType, typename bType, typename cType, typename biasType>
class MatmulLeakyKernel {
public:
    __aicore__ inline MatmulLeakyKernel() {};
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace, GM_ADDR tilingGm,
                                AscendC::TPipe *pipe);
    __aicore__ inline void Process(AscendC::TPipe *pipe);

    Matmul<MatmulType<AscendC::TPosition::GM, CubeFormat::ND, aType>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, bType>,
           MatmulType<AscendC::TPosition::VECIN, CubeFormat::ND, cType>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, biasType>> matmulObj;
    TCubeTiling tiling;

private:
    __aicore__ inline void CopyOut(uint32_t count);

    AscendC::GlobalTensor<aType> aGlobal;
    AscendC::GlobalTensor<bType> bGlobal;
    AscendC::GlobalTensor<cType> cGlobal;
    AscendC::GlobalTensor<biasType> biasGlobal;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> reluOutQueue_;
    AscendC::LocalTensor<cType> reluOutLocal;
    float alpha = 0;
    int tailM = 0;
    int tailN = 0;
    uint64_t offsetC = 0;
};

template <typename aType, typename bType, typename cType, typename biasType>
__aicore__ inline void MatmulLeakyKernel<aType, bType, cType, biasType>::Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
    GM_ADDR c, GM_ADDR workspace, GM_ADDR tilingGm, AscendC::TPipe *pipe)
{
    auto tiling32 = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
    uint32_t *ptr = reinterpret_cast<uint32_t *>(&tiling);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); i++) {
        ptr[i] = tiling32[i];
    }
    alpha = *reinterpret_cast<__gm__ float *>(tilingGm + sizeof(TCubeTiling));
    AscendC::SetSysWorkspace(workspace);
    aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ aType *>(a), uint64_t(tiling.M) * tiling.Ka);
    bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ bType *>(b), uint64_t(tiling.Kb) * tiling.N);
    cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ cType *>(c), uint64_t(tiling.M) * tiling.N);
    biasGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ biasType *>(bias), tiling.N);
    (void)pipe;
}

template <typename aType, typename bType, typename cType, typename biasType>
__aicore__ inline void MatmulLeakyKernel<aType, bType, cType, biasType>::Process(AscendC::TPipe *pipe)
{
    const uint32_t block = AscendC::GetBlockIdx();
    if (block >= static_cast<uint32_t>(tiling.usedCoreNum)) {
        return;
    }
    pipe->InitBuffer(reluOutQueue_, 1, tiling.baseM * tiling.baseN * sizeof(cType));
    const uint32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    const uint32_t mIdx = block % mBlocks;
    const uint32_t nIdx = block / mBlocks;
    tailM = AscendC::Std::min(tiling.singleCoreM, tiling.M - static_cast<int>(mIdx) * tiling.singleCoreM);
    tailN = AscendC::Std::min(tiling.singleCoreN, tiling.N - static_cast<int>(nIdx) * tiling.singleCoreN);
    offsetC = uint64_t(mIdx) * tiling.singleCoreM * tiling.N + uint64_t(nIdx) * tiling.singleCoreN;
    matmulObj.SetTensorA(aGlobal[uint64_t(mIdx) * tiling.singleCoreM * tiling.Ka]);
    matmulObj.SetTensorB(bGlobal[uint64_t(nIdx) * tiling.singleCoreN]);
    matmulObj.SetBias(biasGlobal[uint64_t(nIdx) * tiling.singleCoreN]);
    matmulObj.SetTail(tailM, tailN);
    uint32_t count = 0;
    while (matmulObj.template Iterate<true>()) {
        reluOutLocal = reluOutQueue_.AllocTensor<cType>();
        matmulObj.template GetTensorC<true>(reluOutLocal, false, true);
        AscendC::LeakyRelu(reluOutLocal, reluOutLocal, static_cast<cType>(alpha), tiling.baseM * tiling.baseN);
        reluOutQueue_.EnQue(reluOutLocal);
        CopyOut(count);
        count++;
    }
    matmulObj.End();
}

template <typename aType, typename bType, typename cType, typename biasType>
__aicore__ inline void MatmulLeakyKernel<aType, bType, cType, biasType>::CopyOut(uint32_t count)
{
    // Blocks come along M first (the tiling's iterateOrder 0).
    const uint32_t roundM = (tailM + tiling.baseM - 1) / tiling.baseM;
    const uint32_t m0 = count % roundM * tiling.baseM;
    const uint32_t n0 = count / roundM * tiling.baseN;
    const uint32_t rows = AscendC::Std::min(static_cast<uint32_t>(tiling.baseM), tailM - m0);
    const uint32_t cols = AscendC::Std::min(static_cast<uint32_t>(tiling.baseN), tailN - n0);
    reluOutLocal = reluOutQueue_.DeQue<cType>();
    for (uint32_t r = 0; r < rows; ++r) {
        AscendC::DataCopy(cGlobal[offsetC + uint64_t(m0 + r) * tiling.N + n0], reluOutLocal[r * tiling.baseN], cols);
    }
    reluOutQueue_.FreeTensor(reluOutLocal);
}

extern "C" __global__ __aicore__ void matmul_leakyrelu_mix(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                           GM_ADDR workspace, GM_ADDR tilingGm)
{
    MatmulLeakyKernel<half, half, float, float> matmulLeakyKernel;
    AscendC::TPipe pipe;
    matmulLeakyKernel.Init(a, b, bias, c, workspace, tilingGm, &pipe);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), matmulLeakyKernel.matmulObj, &matmulLeakyKernel.tiling);
    matmulLeakyKernel.Process(&pipe);
}
