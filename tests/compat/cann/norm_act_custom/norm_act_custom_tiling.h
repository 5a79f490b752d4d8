/* The tiling norm_act_custom's host computes (CANN's TILING_DATA macros, with the lib APIs'
 * tilings as struct fields) and its kernel reads back with GET_TILING_DATA. */
#ifndef NORM_ACT_CUSTOM_TILING_H
#define NORM_ACT_CUSTOM_TILING_H
#include "register/tilingdata_base.h"
#include "kernel_tiling/kernel_tiling.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(NormActCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
TILING_DATA_FIELD_DEF(uint32_t, hLength);
TILING_DATA_FIELD_DEF(uint32_t, layerNormTmp);
TILING_DATA_FIELD_DEF(uint32_t, rmsNormTmp);
TILING_DATA_FIELD_DEF(uint32_t, geluTmp);
TILING_DATA_FIELD_DEF(uint32_t, meanTmp);
TILING_DATA_FIELD_DEF(float, epsilon);
TILING_DATA_FIELD_DEF_STRUCT(LayerNormTiling, layerNormTiling);
TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, rmsNormTiling);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(NormActCustom, NormActCustomTilingData)
}  // namespace optiling
#endif
