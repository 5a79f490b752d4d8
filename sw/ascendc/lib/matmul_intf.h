// CANN's kernel-side high-level Matmul (lib/matmul_intf.h): the Matmul object, its types and
// configs, REGIST_MATMUL_OBJ and the system workspace. See lib/matmul/matmul.h.
#pragma once
#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "sw/ascendc/lib/matmul/matmul.h"
