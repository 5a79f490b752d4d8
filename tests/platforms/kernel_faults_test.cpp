// Issue 29: what a native kernel body can do wrong beyond the ISA's limits (a bad pointer,
// abort(), a division by zero, an exception, an endless loop, a frame larger than its stack, a
// launch from inside a kernel) ends the launch with an error naming core, block, simulated time
// and the last instruction issued; host allocations larger than GM are refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include "acl/acl.h"
#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tests/support/raw_tensors.h"
#include "tikicpulib.h"

using namespace AscendC;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using npuvp::testing::kernel_error;
using npuvp::testing::make_device;
using npuvp::testing::ub_at;

namespace kernel_faults_test {

// One instruction, so the report has a last instruction to show.
void issue_one_adds() {
  auto a = ub_at<float>(0, 64);
  Adds(a, a, 1.0f, 64);
}

// "<core> block <n> @ <time>: <what> ... (last instruction: Adds.f32 ...)"
const char* const kHead = R"(soc\.core0 block 0 @ [0-9.]+ (s|ms|us|ns|ps): )";

volatile int g_zero = 0;
int* volatile g_null = nullptr;

// These tests are about the signal the processor raises. In a sanitized build (NPUVP_SANITIZE=ON)
// UBSan's null and division checks would report the statement and stop the process before it
// runs, so UBSan is off for these two one-statement functions (GCC 12 ignores the narrower
// no_sanitize("null") on a store); ASan still covers them.
__attribute__((no_sanitize("undefined"), noinline)) void store_through_null() { *g_null = 1; }
__attribute__((no_sanitize("undefined"), noinline)) void divide_by_zero() { g_zero = 7 / g_zero; }

TEST(KernelFaults, NullDereferenceIsAnErrorNamingCoreBlockTimeAndLastInstruction) {
  auto& dev = make_device({"platform.cores=1"});
  const std::string e = kernel_error(dev, 1, [] {
    issue_one_adds();
    store_through_null();
  });
  EXPECT_THAT(e, MatchesRegex(std::string(kHead) + "segmentation fault .* at address 0x0 in the kernel body "
                                                   R"(\(last instruction: Adds\.f32 .*\))"));
}

TEST(KernelFaults, IntegerDivisionByZeroIsAnError) {
  auto& dev = make_device({"platform.cores=1"});
  const std::string e = kernel_error(dev, 1, [] {
    issue_one_adds();
    divide_by_zero();
  });
  EXPECT_THAT(e, MatchesRegex(std::string(kHead) + R"(integer division by zero \(SIGFPE\) in the kernel body .*)"));
}

TEST(KernelFaults, AbortIsAnError) {
  auto& dev = make_device({"platform.cores=1"});
  const std::string e = kernel_error(dev, 1, [] {
    issue_one_adds();
    std::abort();
  });
  EXPECT_THAT(e, MatchesRegex(std::string(kHead) + R"(abort\(\) \(SIGABRT.*\) in the kernel body \(last instruction: Adds.*)"));
}

TEST(KernelFaults, IllegalInstructionIsAnError) {
  auto& dev = make_device({"platform.cores=1"});
  const std::string e = kernel_error(dev, 1, [] { __builtin_trap(); });
  EXPECT_THAT(e, MatchesRegex(std::string(kHead) + R"(illegal instruction \(SIGILL\) in the kernel body \(last instruction: none issued\))"));
}

TEST(KernelFaults, ExceptionEscapingTheKernelNamesCoreAndTime) {
  auto& dev = make_device({"platform.cores=1"});
  const std::string e = kernel_error(dev, 1, [] {
    issue_one_adds();
    throw std::runtime_error("tiling data is inconsistent");
  });
  EXPECT_THAT(e, MatchesRegex(std::string(kHead) +
                              "the kernel body threw a C\\+\\+ exception: tiling data is inconsistent .*"));
}

TEST(KernelFaults, FaultInALaterBlockNamesThatBlock) {
  auto& dev = make_device({"platform.cores=1"});
  const std::string e = kernel_error(dev, 3, [] {
    issue_one_adds();
    if (GetBlockIdx() == 2) store_through_null();
  });
  EXPECT_THAT(e, MatchesRegex(R"(soc\.core0 block 2 @ .*segmentation fault.*)"));
}

TEST(KernelFaults, EndlessLoopEndsByTheWatchdog) {
  auto& dev = make_device({"platform.cores=1", "sim.watchdog_seconds=0.5"});
  const std::string e = kernel_error(dev, 1, [] {
    issue_one_adds();
    for (;;) g_zero = g_zero + 0;  // no instruction, no simulated time
  });
  EXPECT_THAT(e, MatchesRegex(std::string(kHead) + "watchdog: the kernel body ran for 0.5 s of host time without "
                                                   "issuing an instruction.*sim\\.watchdog_seconds.*"));
}

TEST(KernelFaults, WatchdogLeavesAKernelThatMakesProgressAlone) {
  auto& dev = make_device({"platform.cores=1", "sim.watchdog_seconds=0.25", "sim.mode=functional"});
  // About a second of host time, issuing all along.
  const std::string e = kernel_error(dev, 1, [] {
    for (int i = 0; i < 20000; ++i) issue_one_adds();
  });
  EXPECT_EQ(e, "");
}

// A frame much larger than the stack (12 MiB on 1 MiB): kernels are built with
// -fstack-clash-protection, so the frame's first touch is the guard page, not another stack.
template <size_t N>
int64_t touch_bottom_first() {
  volatile uint8_t big[N];
  big[0] = 1;
  int64_t sum = 0;
  for (size_t i = 0; i < N; i += 4096) sum += big[i];
  return sum;
}

TEST(KernelFaults, HugeStackFrameIsAStackOverflowNamingTheParameter) {
  auto& dev = make_device({"platform.cores=2", "core.scalar.stack_size=1MiB"});
  int64_t sum = 0;
  const std::string e = kernel_error(dev, 2, [&] { sum += touch_bottom_first<12u << 20>(); });
  EXPECT_THAT(e, MatchesRegex(R"(soc\.core[01] block [01] @ .*: the kernel body overflowed its stack: .* )"
                              R"(core\.scalar\.stack_size = 1048576 bytes.*)"));
}

TEST(KernelFaults, NestedLaunchIsAClearError) {
  auto& dev = make_device({"platform.cores=1"});
  const std::string e = kernel_error(dev, 1, [&] { dev.launch("inner", 1, [] {}); });
  EXPECT_THAT(e, HasSubstr("kernel 'inner' launched from inside a running kernel (a nested ICPU_RUN_KF"));
}

void inner_kernel() {}
void outer_kernel() { ICPU_RUN_KF(inner_kernel, 1); }

TEST(KernelFaults, NestedIcpuRunKfExitsWithTheClearError) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        make_device({"platform.cores=1"});
        ICPU_RUN_KF(outer_kernel, 1);
      },
      ::testing::ExitedWithCode(1), "launched from inside a running kernel");
}

TEST(KernelFaults, DeviceMallocRefusesSizesThatOverflowOrExceedGm) {
  auto& dev = make_device({"gm.size=1GiB"});
  for (size_t bytes : {SIZE_MAX, SIZE_MAX - 100, size_t(1) << 40, (size_t(1) << 30) + 1}) {
    try {
      void* p = dev.malloc(bytes);
      ADD_FAILURE() << "malloc(" << bytes << ") returned " << p;
    } catch (const std::exception& e) {
      EXPECT_THAT(npuvp::error_text(e), HasSubstr("more than the whole GM (1073741824 bytes, gm.size)")) << bytes;
    }
  }
  EXPECT_NE(dev.malloc(size_t(1) << 30), nullptr);  // exactly GM still fits
}

TEST(KernelFaults, GmAllocOfAnImpossibleSizeExits) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        make_device();
        void* p = AscendC::GmAlloc(SIZE_MAX - 100);
        std::fprintf(stderr, "GmAlloc returned %p\n", p);
        std::exit(0);
      },
      ::testing::ExitedWithCode(1), "cannot allocate 18446744073709551515 bytes: more than the whole GM");
}

// aclrtMalloc of more than GM (or a size whose rounding would wrap) fails with
// ACL_ERROR_RT_MEMORY_ALLOCATION, the code CANN documents for a failed device allocation,
// and leaves *devPtr alone.

TEST(KernelFaults, AclrtMallocRefusesSizesBeyondGm) {
  npuvp::Device::configure("minimal", {"gm.size=1GiB"});
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  for (size_t bytes : {SIZE_MAX, SIZE_MAX - 100, (size_t(1) << 30) + 1}) {
    void* p = reinterpret_cast<void*>(0x1234);
    EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION) << bytes;
    EXPECT_EQ(p, reinterpret_cast<void*>(0x1234));
    EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("more than the whole GM"));
  }
}
}  // namespace kernel_faults_test
