// What a translated `kernel<<<blockDim, l2ctrl, stream>>>(args...)` calls (the sim route,
// sw/cann/launch_syntax.h): the arguments are converted to the kernel's parameter types and
// copied at the launch, as a device launch copies them, then the kernel runs on the stream.
#pragma once
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "sw/runtime/acl/kernel_launch.h"

namespace npuvp::acl {
// Whether this kernel file uses the high-level Matmul in mixed mode: lib/matmul_intf.h
// (without ASCENDC_CUBE_ONLY) declares a better match, found when a launch is instantiated.
// The tag's type has internal linkage, so each kernel file has its own instantiations.
namespace {
struct ThisKernelFile {};
}  // namespace
template <class File>
struct KernelFileTag {};
constexpr bool uses_mixed_matmul(const void*) { return false; }

// l2ctrl is reserved in CANN (always nullptr in its samples) and unused here.
template <typename File = ThisKernelFile, typename... Params, typename... Args>
uint32_t launch_chevrons(const char* name, uint32_t block_dim, void* /*l2ctrl*/, void* stream,
                         void (*kernel)(Params...), Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "the kernel launch passes the wrong number of arguments");
  std::tuple<std::decay_t<Params>...> bound{std::forward<Args>(args)...};
  const bool mixed_matmul = uses_mixed_matmul(static_cast<KernelFileTag<File>*>(nullptr));
  return launch_kernel_as(stream, name, block_dim, [kernel, bound]() { std::apply(kernel, bound); }, mixed_matmul);
}
}  // namespace npuvp::acl
