// CANN's tiling/tiling_api.h: the host tiling functions of the high-level APIs.
#pragma once
// The lib/ APIs' host tiling (SoftMax family, LayerNorm, RmsNorm, ...; h23lib).
#include "lib/lib_tiling_api.h"
