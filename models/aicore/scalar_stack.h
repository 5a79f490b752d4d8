// The kernel body runs natively on its core's scalar thread, a SystemC coroutine with a stack of
// core.scalar.stack_size bytes and a guard page below it. StackGuard turns what a native kernel
// can do wrong into errors: a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL, abort()'s SIGABRT) while
// the body runs on this stack jumps back to the scalar thread (`arm`'s recovery point), which
// reports it as an error naming core, block, time and the last instruction; a stack overflow
// (a fault from the guard page down to a stack's size below it; kernels are built with
// -fstack-clash-protection so even a huge frame touches the guard page first) names
// core.scalar.stack_size. The watchdog (sim.watchdog_seconds) ends a body that runs that long
// in host time without issuing an instruction or advancing simulated time the same way.
// Faults anywhere else keep their previous handling.
#pragma once
#include <csetjmp>
#include <atomic>
#include <cstdint>
#include <string>

namespace npuvp::aicore {

class StackGuard {
 public:
  // Smallest core.scalar.stack_size accepted: below it even the kernel API's own frames and
  // SystemC's coroutine start-up do not fit.
  static constexpr uint64_t kMinimumSize = 64 * 1024;
  // Largest accepted: each core maps its stack in host memory.
  static constexpr uint64_t kMaximumSize = 1ull << 30;

  // `block` names the core in the message; `size` is the configured stack size.
  StackGuard(std::string block, uint64_t size);
  ~StackGuard();
  StackGuard(const StackGuard&) = delete;
  StackGuard& operator=(const StackGuard&) = delete;

  // Called first thing on the scalar thread: `top` is an address near the top of its stack.
  // Installs the signal handlers (once per process) and starts watching this stack.
  void watch(const void* top);

  // The kernel body runs between arm and disarm: a fault on this stack meanwhile (or the
  // watchdog) siglongjmps to `recovery` with value 1; fault_text() then says what happened.
  void arm(sigjmp_buf* recovery);
  void disarm();
  std::string fault_text() const;

  // Whether `fault` lies where an overflow of a stack with this top and size faults: from the
  // guard page down to the stack's own size (at least kSlack) below it.
  static bool is_overflow(uintptr_t top, uint64_t size, uintptr_t fault);
  static constexpr uint64_t kSlack = 4ull << 20;

  // sim.watchdog_seconds: host seconds a body may run without progress (0: no watchdog).
  static void set_watchdog_seconds(double seconds);
  // Called where a kernel makes progress (an instruction issued, scalar time charged).
  static void progress() noexcept { progress_.store(progress_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
  static uint64_t progress_count() noexcept { return progress_.load(std::memory_order_relaxed); }

 private:
  static std::atomic<uint64_t> progress_;
  std::string block_;
  uint64_t size_;
  int slot_ = -1;  // in the handler's table
};

}  // namespace npuvp::aicore
