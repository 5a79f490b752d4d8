// Sanitized builds tell ASan of every SystemC coroutine switch (tlm/asan_coroutines.cpp). The
// sign that they do: after an exception unwinds frames on the main stack (sc_start rethrowing a
// thread's error, or any throw on main once a thread has run), no red zone of the dead frames is
// left poisoned. Where ASan followed the wrong stack it skips that clean-up ("ignoring requested
// __asan_handle_no_return") and these tests find the stale poison. Without ASan they skip.
#include <gtest/gtest.h>
#include <systemc>

#include <cstdint>
#include <cstring>
#include <stdexcept>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>

namespace asan_coroutines_test {

struct Thrower : sc_core::sc_module {
  SC_HAS_PROCESS(Thrower);
  explicit Thrower(sc_core::sc_module_name name) : sc_module(name) {
    SC_THREAD(ends_early);
    SC_THREAD(throws_late);
  }
  void ends_early() { wait(1, sc_core::SC_NS); }  // leaves through the package's abort()
  void throws_late() {
    wait(5, sc_core::SC_NS);
    throw std::runtime_error("a thread's error");
  }
};

struct Waiter : sc_core::sc_module {
  SC_HAS_PROCESS(Waiter);
  explicit Waiter(sc_core::sc_module_name name) : sc_module(name) { SC_THREAD(waits); }
  void waits() {
    for (;;) wait(1, sc_core::SC_NS);  // never ends: main is resumed by a yield
  }
};

// Instrumented frames with red zones between the test and the throw.
__attribute__((noinline)) void start_with_locals(const sc_core::sc_time* until) {
  volatile char locals[256];
  std::memset(const_cast<char*>(locals), 1, sizeof locals);
  if (until) {
    sc_core::sc_start(*until);
  } else {
    sc_core::sc_start();
  }
}

__attribute__((noinline)) void throw_with_locals() {
  volatile char locals[256];
  std::memset(const_cast<char*>(locals), 1, sizeof locals);
  throw std::runtime_error("on the main stack");
}

// The first poisoned byte in the 16 KiB below this frame, where the dead frames were; 0 if none.
// Not instrumented, so that this frame itself poisons nothing.
__attribute__((noinline, no_sanitize_address)) uintptr_t stale_poison_below() {
  const auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  return reinterpret_cast<uintptr_t>(__asan_region_is_poisoned(reinterpret_cast<void*>(here - 16384), 16384));
}

TEST(AsanCoroutinesTest, ThreadErrorRethrownOnMainLeavesNoStalePoison) {
  Thrower top("top");
  EXPECT_THROW(start_with_locals(nullptr), std::exception);
  EXPECT_EQ(stale_poison_below(), 0u);
}

TEST(AsanCoroutinesTest, ThrowOnMainAfterThreadsRanLeavesNoStalePoison) {
  Waiter top("top");
  const sc_core::sc_time until(3, sc_core::SC_NS);
  start_with_locals(&until);  // the thread ran; back on main by a yield
  EXPECT_THROW(throw_with_locals(), std::runtime_error);
  EXPECT_EQ(stale_poison_below(), 0u);
}

}  // namespace asan_coroutines_test

#else

TEST(AsanCoroutinesTest, ThreadErrorRethrownOnMainLeavesNoStalePoison) { GTEST_SKIP() << "not an ASan build"; }
TEST(AsanCoroutinesTest, ThrowOnMainAfterThreadsRanLeavesNoStalePoison) { GTEST_SKIP() << "not an ASan build"; }

#endif
