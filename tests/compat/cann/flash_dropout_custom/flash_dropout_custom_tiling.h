/* The tiling flash_dropout_custom's host computes (TILING_DATA macros; the two SoftmaxFlashV2
 * steps' SoftMaxTiling as struct fields), read by the kernel with GET_TILING_DATA. */
#ifndef FLASH_DROPOUT_CUSTOM_TILING_H
#define FLASH_DROPOUT_CUSTOM_TILING_H
#include "register/tilingdata_base.h"
#include "kernel_tiling/kernel_tiling.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(FlashDropoutTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
TILING_DATA_FIELD_DEF(uint32_t, chunk);      // columns per FlashV2 step
TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
TILING_DATA_FIELD_DEF(float, keepProb);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, firstTiling);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, updateTiling);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(FlashDropoutCustom, FlashDropoutTilingData)
}  // namespace optiling
#endif
