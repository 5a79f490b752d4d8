// The seam between CANN's kernel-launch forms and the ACL runtime: the build step
// (cmake/cann/ascendc.cmake) rewrites `kernel<<<blockDim, l2ctrl, stream>>>(args...)` and
// generates `aclrtlaunch_<kernel>(blockDim, stream, args...)` as calls of launch_kernel.
// Only plain C types and std::function cross here: callers may be built with
// -D_GLIBCXX_USE_CXX11_ABI=0, as CANN's samples build their host code.
#pragma once
#include <cstdint>
#include <functional>

namespace npuvp::acl {
// Runs `body` (the kernel call with its arguments bound) as kernel `name` on `block_dim`
// blocks of the virtual device, in order on `stream` (nullptr: the default stream).
// Returns an ACL error code (0: ACL_SUCCESS); on failure aclGetRecentErrMsg() says why.
uint32_t launch_kernel(void* stream, const char* name, uint32_t block_dim,
                       const std::function<void()>& body);
// The same for a kernel whose file uses the high-level Matmul in mixed mode (issue 23): with
// no declared kernel type it runs as KERNEL_TYPE_MIX_AIC_1_2 on a separated chip.
uint32_t launch_kernel_as(void* stream, const char* name, uint32_t block_dim, const std::function<void()>& body,
                          bool mixed_matmul);
}  // namespace npuvp::acl
