// The Ascend C kernel API, as npuvp runs it: a kernel written for Ascend C includes this
// header and runs natively as an AI Core's scalar thread on the virtual platform. Every API
// call becomes an instruction (models/aicore/isa.h) in the queue of the pipe that executes it.
#pragma once
#include "sw/ascendc/ascendc/types.h"
#include "sw/ascendc/ascendc/tensor.h"
#include "sw/ascendc/ascendc/pipe.h"
#include "sw/ascendc/ascendc/data_copy.h"
#include "sw/ascendc/ascendc/data_copy_pad.h"
#include "sw/ascendc/ascendc/vector.h"
#include "sw/ascendc/ascendc/vector_basic.h"
#include "sw/ascendc/ascendc/sync.h"
#include "sw/ascendc/ascendc/cube.h"
#include "sw/ascendc/ascendc/separated.h"
#include "sw/ascendc/ascendc/cache.h"
// SOC_VERSION of the CANN build flows (NPUVP_SOC_VERSION): the chip the program runs on.
#include "sw/runtime/soc_version.h"
#include "sw/ascendc/ascendc/atomic.h"
#include "sw/ascendc/ascendc/sync_all.h"
#include "sw/ascendc/ascendc/tpipe_ext.h"
#include "sw/ascendc/ascendc/reduce.h"
#include "sw/ascendc/ascendc/debug.h"
#include "sw/ascendc/ascendc/kernel_names.h"
#include "sw/ascendc/ascendc/list_tensor.h"
#include "sw/ascendc/ascendc/std.h"
#include "sw/ascendc/ascendc/sort.h"
#include "sw/ascendc/ascendc/broadcast_mm.h"
#include "sw/ascendc/lib/kernel_api.h"
#include "sw/ascendc/ascendc/kernel_utils.h"  // issue 23: DEFAULT_C0_SIZE & co
