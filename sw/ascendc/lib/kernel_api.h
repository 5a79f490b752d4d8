// The high-level lib/ APIs a kernel gets from kernel_operator.h, as CANN's lib/kernel_api.h
// includes them; each header is also reachable at CANN's path (lib/activation/softmax.h, ...),
// since sw/ascendc is on the include path. docs/writing-kernels.md "High-level lib APIs".
#pragma once
#include "sw/ascendc/lib/activation/softmax.h"
#include "sw/ascendc/lib/activation/simplesoftmax.h"
#include "sw/ascendc/lib/activation/softmaxflash.h"
#include "sw/ascendc/lib/activation/softmaxflashv2.h"
#include "sw/ascendc/lib/normalization/layernorm.h"
#include "sw/ascendc/lib/normalization/rmsnorm.h"
#include "sw/ascendc/lib/activation/gelu.h"
#include "sw/ascendc/lib/activation/silu.h"
#include "sw/ascendc/lib/activation/swish.h"
#include "sw/ascendc/lib/sort/sort.h"
#include "sw/ascendc/lib/sort/topk.h"
#include "sw/ascendc/lib/reduce/sum.h"
#include "sw/ascendc/lib/reduce/mean.h"
#include "sw/ascendc/lib/reduce/reduce_xor_sum.h"
#include "sw/ascendc/lib/pad/broadcast.h"
#include "sw/ascendc/lib/pad/pad.h"
#include "sw/ascendc/lib/filter/dropout.h"
#include "sw/ascendc/lib/transpose/confusion_transpose.h"
