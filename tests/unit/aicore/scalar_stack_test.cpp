// Which faults StackGuard reports as a kernel stack overflow: from just above the bottom of the
// stack (its measured top is a little below the real one) down to kSlack below it; nothing
// inside the rest of the stack, nothing far away.
#include <gtest/gtest.h>
#include "models/aicore/scalar_stack.h"

namespace scalar_stack_test {
using npuvp::aicore::StackGuard;

constexpr uintptr_t kTop = uintptr_t(0x7f0000000000);
constexpr uint64_t kSize = 1 << 20;

TEST(StackGuard, GuardPageBelowTheStackIsAnOverflow) {
  EXPECT_TRUE(StackGuard::is_overflow(kTop, kSize, kTop - kSize - 1));
  EXPECT_TRUE(StackGuard::is_overflow(kTop, kSize, kTop - kSize - 4096));
  EXPECT_TRUE(StackGuard::is_overflow(kTop, kSize, kTop - kSize + 100));  // the real bottom is a little lower
}

TEST(StackGuard, AFrameThatSkipsTheGuardPageIsAnOverflowUpToTheSlack) {
  EXPECT_TRUE(StackGuard::is_overflow(kTop, kSize, kTop - kSize - StackGuard::kSlack));
  EXPECT_FALSE(StackGuard::is_overflow(kTop, kSize, kTop - kSize - StackGuard::kSlack - 1));
}

TEST(StackGuard, OtherFaultsAreNot) {
  EXPECT_FALSE(StackGuard::is_overflow(kTop, kSize, 0));                  // a null pointer
  EXPECT_FALSE(StackGuard::is_overflow(kTop, kSize, kTop - kSize / 2));   // inside the stack
  EXPECT_FALSE(StackGuard::is_overflow(kTop, kSize, kTop + 64));          // above it
  EXPECT_FALSE(StackGuard::is_overflow(kSize / 2, kSize, 0));             // a top below the size
}
}  // namespace scalar_stack_test
