// The SoC class was generalised to coupled and separated chips: see ascend_soc.h.
#pragma once
#include "platforms/ascend_soc.h"

namespace npuvp::platform {
using CoupledSoc = AscendSoc;
}  // namespace npuvp::platform
