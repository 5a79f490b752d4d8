/*
 * Host tiling of matmul_leakyrelu_mix, as CANN's MatmulLeakyRelu sample computes it: the
 * platform of the chip, MultiCoreMatmulTiling over vector cores (each AIV runs the Matmul of
 * its block; its AIC does the cube work), C delivered to the AIV's UB (VECIN), 64 x 64 base
 * blocks so each AIV takes several; the bytes of the optiling struct, then the float alpha.
 */
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

uint8_t *GenerateTiling(const char *socVersion, int32_t M, int32_t N, int32_t K, float alpha, uint32_t &blockDim,
                        size_t &workspaceSize)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendCManager::GetInstance(socVersion);
    if (ascendcPlatform == nullptr) {
        std::cerr << "no platform for " << socVersion << std::endl;
        return nullptr;
    }
    MultiCoreMatmulTiling tilingApi(*ascendcPlatform);
    tilingApi.SetDim(std::min<uint32_t>(8, ascendcPlatform->GetCoreNumAiv()));
    tilingApi.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16, false);
    tilingApi.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16, false);
    tilingApi.SetCType(TPosition::VECIN, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tilingApi.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tilingApi.SetShape(M, N, K);
    tilingApi.SetOrgShape(M, N, K);
    tilingApi.SetBias(true);
    tilingApi.SetBufferSpace(-1, -1, -1);
    tilingApi.SetFixSplit(64, 64, -1);

    optiling::TCubeTiling tilingData;
    if (tilingApi.GetTiling(tilingData) == -1) {
        std::cerr << "gen tiling failed" << std::endl;
        return nullptr;
    }
    // One block is an AIC and its two AIVs.
    blockDim = ascendcPlatform->CalcTschBlockDim(tilingData.get_usedCoreNum(), ascendcPlatform->GetCoreNumAic(),
                                                 ascendcPlatform->GetCoreNumAiv());
    workspaceSize = ascendcPlatform->GetLibApiWorkSpaceSize();

    const size_t tilingSize = tilingData.GetDataSize();
    uint8_t *buf = static_cast<uint8_t *>(std::malloc(tilingSize + sizeof(float)));
    tilingData.SaveToBuffer(buf, tilingSize);
    std::memcpy(buf + tilingSize, &alpha, sizeof(float));
    return buf;
}
