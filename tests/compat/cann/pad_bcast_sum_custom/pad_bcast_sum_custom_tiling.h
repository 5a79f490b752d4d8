/* The tiling pad_bcast_sum_custom's host computes (CANN's TILING_DATA macros, with the Pad and
 * UnPad tilings as struct fields) and its kernel reads back with GET_TILING_DATA. */
#ifndef PAD_BCAST_SUM_CUSTOM_TILING_H
#define PAD_BCAST_SUM_CUSTOM_TILING_H
#include "register/tilingdata_base.h"
#include "kernel_tiling/kernel_tiling.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PadBcastSumTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
TILING_DATA_FIELD_DEF(uint32_t, width);        // the valid columns of x
TILING_DATA_FIELD_DEF(uint32_t, paddedWidth);  // width padded to 32 B
TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);     // the largest temporary any step asks for
TILING_DATA_FIELD_DEF_STRUCT(PadTiling, padTiling);
TILING_DATA_FIELD_DEF_STRUCT(UnPadTiling, unPadTiling);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(PadBcastSumCustom, PadBcastSumTilingData)
}  // namespace optiling
#endif
