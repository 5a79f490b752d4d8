// CANN's kernel-side tiling structs (kernel_tiling/kernel_tiling.h): plain structs whose bytes
// are what the host's optiling classes (register/tilingdata_base.h) save, field for field.
// One header per API topic; each adds its structs here with one include line.
#pragma once
#include "kernel_tiling/matmul_tiling_data.h"
// The lib/ APIs' structures (SoftMaxTiling, LayerNormTiling, RmsNormTiling, ...).
#include "lib/lib_tiling_data.h"
