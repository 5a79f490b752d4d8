/*
 * Host tiling of matmul_leakyrelu_invocation, in the form of CANN's kernel-launch sample: a
 * MultiCoreMatmulTiling on the current platform (no platform argument), two cores, fixed
 * 256 x 128 base blocks (SetFixSplit), M first (FIRSTM), bias on; the bytes of the optiling
 * struct.
 */
#include <cstdlib>
#include <iostream>

#include "tiling/tiling_api.h"

using namespace matmul_tiling;

uint8_t *GenerateTiling(int32_t M, int32_t N, int32_t K, uint32_t &tilingSize)
{
    const int32_t usedCoreNum = 2;
    optiling::TCubeTiling tilingData;
    tilingData.set_usedCoreNum(usedCoreNum);
    MultiCoreMatmulTiling tilingApi;
    tilingApi.SetDim(usedCoreNum);
    tilingApi.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
    tilingApi.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
    tilingApi.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    tilingApi.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    tilingApi.SetOrgShape(M, N, K);
    tilingApi.SetShape(M, N, K);
    tilingApi.SetBias(true);
    tilingApi.SetTraverse(MatrixTraverse::FIRSTM);
    tilingApi.SetFixSplit(256, 128, -1);
    tilingApi.SetBufferSpace(-1, -1, -1);
    if (tilingApi.GetTiling(tilingData) == -1) {
        std::cerr << "gen tiling failed" << std::endl;
        return nullptr;
    }
    tilingData.set_stepM(1);
    tilingData.set_stepN(1);
    tilingSize = tilingData.GetDataSize();
    uint8_t *buf = static_cast<uint8_t *>(std::malloc(tilingSize));
    tilingData.SaveToBuffer(buf, tilingSize);
    std::cout << "tiling: " << tilingData.get_usedCoreNum() << " cores of " << tilingData.get_singleCoreM() << " x "
              << tilingData.get_singleCoreN() << ", base " << tilingData.get_baseM() << " x "
              << tilingData.get_baseN() << " x " << tilingData.get_baseK() << std::endl;
    return buf;
}
