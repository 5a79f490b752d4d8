// The kernel body runs natively on its core's scalar thread, a SystemC coroutine with a stack of
// core.scalar.stack_size bytes and a guard page below it. A kernel that needs more stack faults
// there (or just below, when its frame skips the guard page); StackGuard turns that SIGSEGV into
// a clear error naming the core and the parameter, and exits with status 1 like every other
// error. Faults anywhere else keep their previous handling.
#pragma once
#include <cstdint>
#include <string>

namespace npuvp::aicore {

class StackGuard {
 public:
  // Smallest core.scalar.stack_size accepted: below it even the kernel API's own frames and
  // SystemC's coroutine start-up do not fit.
  static constexpr uint64_t kMinimumSize = 64 * 1024;

  // `block` names the core in the message; `size` is the configured stack size.
  StackGuard(std::string block, uint64_t size);
  ~StackGuard();
  StackGuard(const StackGuard&) = delete;
  StackGuard& operator=(const StackGuard&) = delete;

  // Called first thing on the scalar thread: `top` is an address near the top of its stack.
  // Installs the SIGSEGV handler (once per process) and starts watching this stack.
  void watch(const void* top);

  // Whether `fault` lies where an overflow of a stack with this top and size faults: from the
  // guard page down to kSlack below it (a frame larger than the stack skips the guard page).
  static bool is_overflow(uintptr_t top, uint64_t size, uintptr_t fault);
  static constexpr uint64_t kSlack = 4ull << 20;

 private:
  std::string block_;
  uint64_t size_;
  int slot_ = -1;  // in the handler's table
};

}  // namespace npuvp::aicore
