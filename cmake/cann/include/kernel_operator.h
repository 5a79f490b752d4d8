// CANN's kernel API header at CANN's path: npuvp's Ascend C kernel API. The include root
// <prefix>/include/npuvp must be on the include path too (the CMake targets carry it).
#pragma once
#include "npuvp/sw/ascendc/kernel_operator.h"
