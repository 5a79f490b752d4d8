// CANN's host tiling API (tiling/tiling_api.h): the tiling classes and functions of the
// high-level kernel APIs. One header per API topic; each adds its one include line here.
#pragma once
#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/matmul/matmul_tiling.h"
// The lib/ APIs' host tiling (SoftMax family, LayerNorm, RmsNorm, TopK, ...).
#include "lib/lib_tiling_api.h"
