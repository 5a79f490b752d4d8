// The host tiling functions of the lib/ APIs, as tiling/tiling_api.h includes them.
#pragma once
#include "sw/ascendc/lib/activation/softmax_tiling.h"
#include "sw/ascendc/lib/normalization/layernorm_tiling.h"
#include "sw/ascendc/lib/normalization/rmsnorm_tiling.h"
#include "sw/ascendc/lib/activation/gelu_tiling.h"
#include "sw/ascendc/lib/sort/topk_tiling.h"
#include "sw/ascendc/lib/pad/broadcast_tiling.h"
#include "sw/ascendc/lib/pad/pad_tiling.h"
#include "sw/ascendc/lib/transpose/confusion_transpose_tiling.h"
#include "sw/ascendc/lib/reduce/reduce_xor_sum_tiling.h"
// issue 23 (new-user projects): Sum / Mean, DropOut, Silu / Swish temporary sizes.
#include "sw/ascendc/lib/reduce/sum_tiling.h"
#include "sw/ascendc/lib/filter/dropout_tiling.h"
#include "sw/ascendc/lib/activation/silu_tiling.h"
// issue 23 (Sort on the 310P): Sort / Concat temporary sizes.
#include "sw/ascendc/lib/sort/sort_tiling_intf.h"
