/* The tiling sort_custom's host computes (TILING_DATA macros), read by the kernel with
 * GET_TILING_DATA: the elements each block sorts, the repeat counts of the chip's sort layout
 * and the temporary buffers GetConcatTmpSize / GetSortTmpSize asked for. */
#ifndef SORT_CUSTOM_TILING_H
#define SORT_CUSTOM_TILING_H
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(SortCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, elemsPerCore);
TILING_DATA_FIELD_DEF(uint32_t, concatRepeat);   // 16 scores per repeat
TILING_DATA_FIELD_DEF(uint32_t, sortRepeat);     // A2: 32 per repeat; region proposals: 16
TILING_DATA_FIELD_DEF(uint32_t, concatTmpBytes);
TILING_DATA_FIELD_DEF(uint32_t, sortTmpBytes);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SortCustom, SortCustomTilingData)
}  // namespace optiling
#endif
