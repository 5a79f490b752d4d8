// Issue 29, the audit's worst cases in more shapes than kernel_faults_test.cpp's: a stack
// overrun at several depths (many small frames, a frame just past the stack, the audit's 12 MiB
// on the default 8 MiB stack, a frame hundreds of times the stack), a kernel that spins before
// issuing anything or in a later block, and GmAlloc of sizes that cannot be GM. Each ends in an
// error naming core, block and time (or, for GmAlloc, exit 1 with the reason), never a signal.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tests/support/raw_tensors.h"
#include "tikicpulib.h"

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using npuvp::testing::kernel_error;
using npuvp::testing::make_device;

namespace kernel_faults_depths_test {

// "<core> block <n> @ <time>: the kernel body overflowed its stack: ... core.scalar.stack_size = S bytes"
std::string overflow_of(uint64_t stack_bytes) {
  return R"(soc\.core[0-9]+ block [0-9]+ @ [0-9.]+ (s|ms|us|ns|ps): the kernel body overflowed its stack: .*)"
         R"(core\.scalar\.stack_size = )" +
         std::to_string(stack_bytes) + " bytes.*";
}

// One frame of N bytes, touched from its far end first (as -fstack-clash-protection probes it).
template <size_t N>
__attribute__((noinline)) int64_t frame_of() {
  volatile uint8_t big[N];
  big[0] = 1;
  int64_t sum = 0;
  for (size_t i = 0; i < N; i += 4096) sum += big[i];
  return sum;
}

// `depth` nested calls of about 1 KiB each.
__attribute__((noinline)) int64_t recurse(int64_t depth) {
  volatile uint8_t frame[1024];
  frame[0] = static_cast<uint8_t>(depth);
  if (depth <= 0) return frame[0];
  return recurse(depth - 1) + frame[0];
}

volatile int64_t g_sink = 0;
volatile int g_spin = 0;

TEST(KernelFaultDepths, ManySmallFramesOverflowingTheStackAreAClearError) {
  auto& dev = make_device({"platform.cores=1", "core.scalar.stack_size=1MiB"});
  const std::string e = kernel_error(dev, 1, [] { g_sink = recurse(100000); });  // ~100 MiB of frames
  EXPECT_THAT(e, MatchesRegex(overflow_of(1u << 20)));
}

TEST(KernelFaultDepths, SmallFramesWithinTheStackRun) {
  auto& dev = make_device({"platform.cores=1", "core.scalar.stack_size=1MiB"});
  EXPECT_EQ(kernel_error(dev, 1, [] { g_sink = recurse(200); }), "");  // ~200 KiB
}

TEST(KernelFaultDepths, FrameJustPastTheStackIsAClearError) {
  auto& dev = make_device({"platform.cores=1", "core.scalar.stack_size=1MiB"});
  const std::string e = kernel_error(dev, 1, [] { g_sink = frame_of<(1u << 20) + (256u << 10)>(); });
  EXPECT_THAT(e, MatchesRegex(overflow_of(1u << 20)));
}

TEST(KernelFaultDepths, TwelveMiBOnTheDefaultStackIsAClearError) {
  auto& dev = make_device({"platform.cores=1"});
  const std::string e = kernel_error(dev, 1, [] { g_sink = frame_of<12u << 20>(); });
  EXPECT_THAT(e, MatchesRegex(overflow_of(8u << 20)));
}

TEST(KernelFaultDepths, FrameHundredsOfTimesTheStackIsAClearError) {
  auto& dev = make_device({"platform.cores=1", "core.scalar.stack_size=1MiB"});
  const std::string e = kernel_error(dev, 1, [] { g_sink = frame_of<512u << 20>(); });
  EXPECT_THAT(e, MatchesRegex(overflow_of(1u << 20)));
}

TEST(KernelFaultDepths, SpinBeforeAnyInstructionEndsByTheWatchdog) {
  auto& dev = make_device({"platform.cores=1", "sim.watchdog_seconds=0.5"});
  const std::string e = kernel_error(dev, 1, [] {
    for (;;) g_spin = g_spin + 0;
  });
  EXPECT_THAT(e, MatchesRegex(R"(soc\.core0 block 0 @ [0-9.]+ (s|ms|us|ns|ps): watchdog: .*sim\.watchdog_seconds.*)"
                              R"(\(last instruction: none issued\).*)"));
}

TEST(KernelFaultDepths, SpinInALaterBlockNamesThatBlock) {
  auto& dev = make_device({"platform.cores=4", "sim.watchdog_seconds=0.5"});
  const std::string e = kernel_error(dev, 4, [] {
    if (AscendC::GetBlockIdx() == 3) {
      for (;;) g_spin = g_spin + 0;
    }
  });
  EXPECT_THAT(e, MatchesRegex(R"(soc\.core[0-9]+ block 3 @ .*watchdog: .*)"));
}

// GmAlloc has no error return: sizes that cannot be GM end the program with the reason.
void gm_alloc_exits(size_t bytes) {
  make_device({"gm.size=1GiB"});
  void* p = AscendC::GmAlloc(bytes);
  std::fprintf(stderr, "GmAlloc returned %p\n", p);
  std::exit(0);
}

TEST(KernelFaultDepths, GmAllocOfSizeMaxExits) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(gm_alloc_exits(SIZE_MAX), ::testing::ExitedWithCode(1),
              "cannot allocate 18446744073709551615 bytes: more than the whole GM");
}

TEST(KernelFaultDepths, GmAllocOfOneByteMoreThanGmExits) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(gm_alloc_exits((size_t(1) << 30) + 1), ::testing::ExitedWithCode(1),
              "cannot allocate 1073741825 bytes: more than the whole GM");
}

TEST(KernelFaultDepths, GmAllocOfAllOfGmTwiceExits) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        make_device({"gm.size=1GiB"});
        AscendC::GmAlloc(size_t(1) << 30);
        void* p = AscendC::GmAlloc(512);
        std::fprintf(stderr, "GmAlloc returned %p\n", p);
        std::exit(0);
      },
      ::testing::ExitedWithCode(1), "GM exhausted: cannot allocate 512 bytes");
}

}  // namespace kernel_faults_depths_test
