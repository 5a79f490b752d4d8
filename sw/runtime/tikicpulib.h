// The Ascend C CPU-debug host API (GmAlloc, GmFree, SetKernelMode, ICPU_RUN_KF), running the
// kernel on the npuvp virtual platform instead of on CPU threads.
#pragma once
#include <cstddef>
#include <functional>
#include "sw/ascendc/kernel_operator.h"

namespace npuvp::runtime {
// Runs the kernel; on a kernel error prints it and exits the process with status 1.
void run_kernel(const char* name, uint32_t block_dim, const std::function<void()>& body);
void set_kernel_mode(AscendC::KernelMode mode);
}  // namespace npuvp::runtime

namespace AscendC {
void* GmAlloc(size_t size);
void GmFree(void* ptr);
inline void SetKernelMode(KernelMode mode) { npuvp::runtime::set_kernel_mode(mode); }
}  // namespace AscendC

// CPU-debug host programs name the mode unqualified: SetKernelMode(KernelMode::AIV_MODE).
using AscendC::KernelMode;

#define ICPU_RUN_KF(func, blockdim, ...) \
  ::npuvp::runtime::run_kernel(#func, (blockdim), [&]() { func(__VA_ARGS__); })
