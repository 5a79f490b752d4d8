// CANN's kernel_tiling/kernel_tiling.h: the tiling structures kernels receive.
#pragma once
// The lib/ APIs' structures (SoftMaxTiling, LayerNormTiling, RmsNormTiling; h23lib).
#include "lib/lib_tiling_data.h"
