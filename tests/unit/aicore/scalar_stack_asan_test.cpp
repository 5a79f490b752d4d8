// A kernel fault jumps from the signal stack back to the scalar thread (StackGuard). Under ASan
// the dead kernel frames between the fault and the recovery point must not stay poisoned, or the
// error message built next on that stack is reported as a stack-buffer-overflow. Without ASan
// the test skips.
#include "models/aicore/scalar_stack.h"

#include <gtest/gtest.h>
#include <systemc>

#include <csetjmp>
#include <cstdint>
#include <cstring>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>

namespace scalar_stack_asan_test {

using npuvp::aicore::StackGuard;

// The first poisoned byte in the 16 KiB below this frame, where the dead frames were; 0 if none.
__attribute__((noinline, no_sanitize_address)) uintptr_t stale_poison_below() {
  const auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  return reinterpret_cast<uintptr_t>(__asan_region_is_poisoned(reinterpret_cast<void*>(here - 16384), 16384));
}

volatile int* volatile null_pointer = nullptr;

// The fault itself. UBSan (on with ASan in NPUVP_SANITIZE builds) would report the null load and
// stop the process before it runs, so it is off for this one statement; ASan still covers it.
__attribute__((no_sanitize("undefined"), noinline)) int load_through_null() { return *null_pointer; }

// Instrumented frames with red zones, the innermost of which faults.
__attribute__((noinline)) int faulting_body(int depth) {
  volatile char locals[512];
  std::memset(const_cast<char*>(locals), depth, sizeof locals);
  if (depth == 0) return load_through_null();
  return faulting_body(depth - 1) + locals[7];
}

__attribute__((noinline)) std::string run_body(StackGuard& guard) {
  sigjmp_buf recovery;
  if (sigsetjmp(recovery, 1) != 0) return guard.fault_text();
  guard.arm(&recovery);
  faulting_body(8);
  guard.disarm();
  return {};
}

struct Core : sc_core::sc_module {
  SC_HAS_PROCESS(Core);
  static constexpr uint64_t kStack = 1 << 20;
  StackGuard guard{"core0", kStack};
  std::string fault;
  uintptr_t stale = 1;
  explicit Core(sc_core::sc_module_name name) : sc_module(name) {
    SC_THREAD(run);
    set_stack_size(kStack);
  }
  void run() {
    const char top = 0;
    guard.watch(&top);
    wait(1, sc_core::SC_NS);
    fault = run_body(guard);
    stale = stale_poison_below();
  }
};

TEST(ScalarStackAsanTest, FaultRecoveryLeavesNoStalePoison) {
  Core core("core");
  sc_core::sc_start();
  EXPECT_NE(core.fault.find("SIGSEGV"), std::string::npos) << core.fault;
  EXPECT_EQ(core.stale, 0u);
}

}  // namespace scalar_stack_asan_test

#else

TEST(ScalarStackAsanTest, FaultRecoveryLeavesNoStalePoison) { GTEST_SKIP() << "not an ASan build"; }

#endif
