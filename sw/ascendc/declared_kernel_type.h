// The kernel type a kernel body declares (KERNEL_TASK_TYPE_DEFAULT), as the host finds it.
#pragma once
#include <functional>
#include "models/aicore/kernel_type.h"

namespace npuvp::ascendc {
// Runs `body` natively, outside the simulation, up to its first kernel API call or its
// KERNEL_TASK_TYPE_DEFAULT, whichever comes first; returns the declared type (Default if none).
// Kernels declare their type first, before touching any data, as Ascend C kernels do.
aicore::KernelType declared_kernel_type(const std::function<void()>& body);
}  // namespace npuvp::ascendc
