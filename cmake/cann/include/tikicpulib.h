// CANN's CPU-debug host header at CANN's path: npuvp's (GmAlloc, ICPU_RUN_KF, ...). The
// include root <prefix>/include/npuvp must be on the include path too (the CMake targets
// carry it).
#pragma once
#include "npuvp/sw/runtime/tikicpulib.h"
