/*
 * Host tiling of matmul_leakyrelu_custom, as CANN's matmul samples compute it: the platform
 * of the chip the program runs on, MultiCoreMatmulTiling over its cube cores, the bytes of the
 * optiling struct followed by the float alpha.
 */
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
    tilingApi.SetDim(ascendcPlatform->GetCoreNumAic());
    tilingApi.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16, false);
    tilingApi.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16, false);
    tilingApi.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tilingApi.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tilingApi.SetShape(M, N, K);
    tilingApi.SetOrgShape(M, N, K);
    tilingApi.SetBias(true);
    tilingApi.SetBufferSpace(-1, -1, -1);

    optiling::TCubeTiling tilingData;
    if (tilingApi.GetTiling(tilingData) == -1) {
        std::cerr << "gen tiling failed" << std::endl;
        return nullptr;
    }
    blockDim = static_cast<uint32_t>(tilingData.get_usedCoreNum());
    workspaceSize = ascendcPlatform->GetLibApiWorkSpaceSize();

    const size_t tilingSize = tilingData.GetDataSize();
    uint8_t *buf = static_cast<uint8_t *>(std::malloc(tilingSize + sizeof(float)));
    tilingData.SaveToBuffer(buf, tilingSize);
    std::memcpy(buf + tilingSize, &alpha, sizeof(float));
    return buf;
}
