// The debug APIs (issue 22): printf / PRINTF output (captured) with its block, core and
// simulated-time prefix and its conversions, ASSERT failures as kernel errors and as a
// non-zero exit of a CPU-debug program, DumpTensor / DumpAccChkPoint output. One scenario
// per TEST (one process each).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/raw_tensors.h"
#include "tikicpulib.h"

using namespace AscendC;
using ::testing::HasSubstr;
using npuvp::testing::IsKernelError;
using npuvp::testing::kernel_error;
using npuvp::testing::make_device;
using npuvp::testing::to_gm;
using npuvp::testing::ub_at;

namespace debug_api_test {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A printed line without its "[block N soc.<core> @ <time>] " prefix; "" if it has none.
const std::regex kPrefix(R"(^\[block ([0-9]+) soc\.([a-z]+[0-9]+) @ ([0-9.]+) (s|ms|us|ns|ps|fs)\] )");
std::string body_of(const std::string& line) {
  std::smatch m;
  if (!std::regex_search(line, m, kPrefix)) return "";
  return line.substr(size_t(m.length(0)));
}
double time_ns_of(const std::string& line) {
  std::smatch m;
  if (!std::regex_search(line, m, kPrefix)) return -1;
  const double v = std::stod(m[3].str());
  const std::string u = m[4].str();
  return u == "s" ? v * 1e9 : u == "ms" ? v * 1e6 : u == "us" ? v * 1e3 : u == "ns" ? v : u == "ps" ? v * 1e-3 : v * 1e-6;
}

TEST(DebugApi, PrintfPrefixesEachLineWithBlockCoreAndSimulatedTime) {
  auto& dev = make_device();
  ::testing::internal::CaptureStdout();
  dev.launch("hello", 2, [] {
    AscendC::printf("block %d of %d\n", static_cast<int32_t>(GetBlockIdx()), static_cast<int32_t>(GetBlockNum()));
    PRINTF("second line, then a third\nthird\n");
  });
  const std::vector<std::string> lines = lines_of(::testing::internal::GetCapturedStdout());
  int seen[2] = {0, 0};
  for (const std::string& line : lines) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(line, m, kPrefix)) << line;
    const int block = std::stoi(m[1].str());
    ASSERT_TRUE(block == 0 || block == 1) << line;
    const std::string body = body_of(line);
    const int k = seen[block]++;
    const std::string want[3] = {"block " + std::to_string(block) + " of 2", "second line, then a third", "third"};
    ASSERT_LT(k, 3) << line;
    EXPECT_EQ(body, want[k]);
  }
  EXPECT_EQ(seen[0], 3);
  EXPECT_EQ(seen[1], 3);
}

TEST(DebugApi, PrintfConversionsMatchTheHostPrintf) {
  auto& dev = make_device();
  const int8_t small = -2;
  const half h = half(1.5f);
  ::testing::internal::CaptureStdout();
  dev.launch("formats", 1, [&] {
    AscendC::printf("%d|%i|%5d|%-4d|%u|%x|%X|%lld|%llu\n", -7, 42, 3, 9, 7u, 255, 0xabcu, -1ll, 18446744073709551615ull);
    AscendC::printf("%f|%.2f|%8.3f|%e|%g|%f\n", 3.14f, 2.0, -1.25f, 1e-5, 0.5, h);
    AscendC::printf("%s|%10s|%c|%%|%x|%u\n", "abc", "right", 'z', small, small);
    AscendC::printf("no args: %d %s\n");
    AscendC::printf("bool %d %u\n", true, false);
  });
  const std::vector<std::string> lines = lines_of(::testing::internal::GetCapturedStdout());
  ASSERT_EQ(lines.size(), 5u);
  char want[512];
  std::snprintf(want, sizeof want, "%d|%i|%5d|%-4d|%u|%x|%X|%lld|%llu", -7, 42, 3, 9, 7u, 255, 0xabcu, -1ll, 18446744073709551615ull);
  EXPECT_EQ(body_of(lines[0]), want);
  std::snprintf(want, sizeof want, "%f|%.2f|%8.3f|%e|%g|%f", 3.14f, 2.0, -1.25f, 1e-5, 0.5, 1.5);
  EXPECT_EQ(body_of(lines[1]), want);
  // An int8 shown in hex or unsigned keeps its own 8 bits (as the CPU domain shows int32).
  EXPECT_EQ(body_of(lines[2]), "abc|     right|z|%|fe|254");
  EXPECT_EQ(body_of(lines[3]), "no args: %d %s");
  EXPECT_EQ(body_of(lines[4]), "bool 1 0");
}

TEST(DebugApi, PrintfTimeIsTheScalarUnitsSimulatedTime) {
  auto& dev = make_device();
  ::testing::internal::CaptureStdout();
  dev.launch("times", 1, [] {
    AscendC::printf("before\n");
    Duplicate(ub_at<float>(0, 64 * 200), 1.0f, 64 * 200);
    PipeBarrier<PIPE_ALL>();
    AscendC::printf("after\n");
  });
  const std::vector<std::string> lines = lines_of(::testing::internal::GetCapturedStdout());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_GT(time_ns_of(lines[1]), time_ns_of(lines[0]) + 100) << "200 repeats of vector work lie between";
}

TEST(DebugApi, AssertFailingIsAKernelErrorWithFileLineConditionAndMessage) {
  auto& dev = make_device();
  int line = 0;
  std::string e = kernel_error(dev, 1, [&] {
    const int32_t flag = 3;
    line = __LINE__ + 1;
    ASSERT(flag == 4, "flag is %d, expected %s", flag, "4");
  });
  EXPECT_THAT(e, IsKernelError("ASSERT", "Assertion `flag == 4' failed. flag is 3, expected 4"));
  EXPECT_THAT(e, HasSubstr("block 0: "));
  EXPECT_THAT(e, HasSubstr(std::string("debug_api_test.cpp:") + std::to_string(line) + ":"));
}

TEST(DebugApi, AscendcAssertWithoutMessageNamesTheCondition) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 2, [&] {
    const int64_t idx = GetBlockIdx();
    ascendc_assert(idx < (1), "");
  });
  EXPECT_THAT(e, HasSubstr("ascendc_assert: block 1: "));
  EXPECT_THAT(e, HasSubstr("Assertion `idx < (1)' failed."));
}

TEST(DebugApi, AssertHoldingDoesNothing) {
  auto& dev = make_device();
  int evaluated = 0;
  std::string e = kernel_error(dev, 1, [&] {
    ASSERT(GetBlockNum() == 1);
    ASSERT(++evaluated == 1, "message %d", 1);
  });
  EXPECT_EQ(e, "");
  EXPECT_EQ(evaluated, 1);
}

// The CPU-debug runner (ICPU_RUN_KF) prints a kernel error and exits with status 1.
void failing_kernel(GM_ADDR) { ASSERT(GetBlockIdx() > 5, "block %d is too small", static_cast<int32_t>(GetBlockIdx())); }

TEST(DebugApi, AssertFailingExitsTheCpuDebugProgramNonZero) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    npuvp::Device::configure("minimal", {});
    uint8_t* x = static_cast<uint8_t*>(AscendC::GmAlloc(64));
    ICPU_RUN_KF(failing_kernel, 1, x);
    _exit(0);  // not reached: the runner exits
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, size_t(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << out;
  EXPECT_NE(WEXITSTATUS(status), 0) << out;
  EXPECT_THAT(out, HasSubstr("ASSERT: block 0: "));
  EXPECT_THAT(out, HasSubstr("Assertion `GetBlockIdx() > 5' failed. block 0 is too small"));
}

TEST(DebugApi, PrintfOutsideAKernelPrintsPlainly) {
  ::testing::internal::CaptureStdout();
  AscendC::printf("host %d\n", 5);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "host 5\n");
}

TEST(DebugApi, AssertFailingOutsideAKernelAborts) {
  EXPECT_DEATH(ASSERT(1 + 1 == 3, "arithmetic %s", "broke"), "\\[ASSERT\\] .*debug_api_test.cpp:[0-9]+: Assertion `1 \\+ 1 == 3' failed. arithmetic broke");
}

TEST(DebugApi, DumpTensorPrintsHeaderAndValuesAfterThePendingVectorWork) {
  auto& dev = make_device();
  ::testing::internal::CaptureStdout();
  dev.launch("dump", 1, [] {
    auto t = ub_at<half>(0x200, 128);
    Duplicate(t, half(2.5f), 128);
    Duplicate(t, half(-1.0f), 3);
    DumpTensor(t, 5, 4);  // no sync: DumpTensor waits for the pipes itself
  });
  const std::vector<std::string> lines = lines_of(::testing::internal::GetCapturedStdout());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(body_of(lines[0]), "DumpTensor: desc=5, addr=0x200, data_type=float16, position=UB, dump_size=4");
  EXPECT_EQ(body_of(lines[1]), "[-1.000000, -1.000000, -1.000000, 2.500000]");
}

TEST(DebugApi, DumpTensorOfGlobalIntegersWithAShapeLongerThanTheData) {
  auto& dev = make_device();
  int32_t* g = to_gm(std::vector<int32_t>{1, -2, 3, -4, 5, -6, 7, -8, 9, -10});
  ::testing::internal::CaptureStdout();
  dev.launch("dump_gm", 1, [&] {
    GlobalTensor<int32_t> t;
    t.SetGlobalBuffer(g, 10);
    const uint32_t shape[] = {3, 4};
    DumpTensor(t, 7, 10, ShapeInfo(2, shape));
  });
  const std::vector<std::string> lines = lines_of(::testing::internal::GetCapturedStdout());
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_THAT(body_of(lines[0]), ::testing::MatchesRegex("DumpTensor: desc=7, addr=0x[0-9a-f]+, data_type=int32, "
                                                          "position=GM, dump_size=10"));
  EXPECT_EQ(body_of(lines[1]), "shape is [3, 4], dumpSize is 10, data is not enough.");
  EXPECT_EQ(body_of(lines[2]), "[[1,-2,3,-4],");
  EXPECT_EQ(body_of(lines[3]), "[5,-6,7,-8],");
  EXPECT_EQ(body_of(lines[4]), "[9,-10,-,-]]");
}

TEST(DebugApi, DumpTensorWithAShapeShorterThanTheData) {
  auto& dev = make_device();
  ::testing::internal::CaptureStdout();
  dev.launch("dump_shape", 1, [] {
    auto t = ub_at<float>(0, 64);
    Duplicate(t, 0.5f, 64);
    const uint32_t shape[] = {2, 2};
    DumpTensor(t, 1, 6, ShapeInfo(2, shape));
  });
  const std::vector<std::string> lines = lines_of(::testing::internal::GetCapturedStdout());
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(body_of(lines[1]), "shape is [2, 2], dumpSize is 6, dumpSize is greater than shapeSize.");
  EXPECT_EQ(body_of(lines[2]), "[[0.500000,0.500000],");
  EXPECT_EQ(body_of(lines[3]), "[0.500000,0.500000]]");
}

TEST(DebugApi, DumpAccChkPointStartsAtTheOffset) {
  auto& dev = make_device();
  std::vector<uint16_t> v(64);
  for (int i = 0; i < 64; ++i) v[i] = uint16_t(i);
  uint16_t* g = to_gm(v);
  ::testing::internal::CaptureStdout();
  dev.launch("chk", 1, [&] {
    auto t = ub_at<uint16_t>(0x100, 64);
    GlobalTensor<uint16_t> gt;
    gt.SetGlobalBuffer(g, 64);
    DataCopy(t, gt, 64);
    DumpAccChkPoint(t, 56, 16, 5);
  });
  const std::vector<std::string> lines = lines_of(::testing::internal::GetCapturedStdout());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(body_of(lines[0]), "DumpTensor: desc=56, addr=0x120, data_type=uint16, position=UB, dump_size=5");
  EXPECT_EQ(body_of(lines[1]), "[16, 17, 18, 19, 20]");
}

TEST(DebugApi, ErrorDumpTensorOfL0A) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] {
    DumpTensor(npuvp::testing::local_at<half>(TPosition::A2, 0, 16), 1, 16);
  });
  EXPECT_THAT(e, IsKernelError("DumpTensor", "a tensor in L0A cannot be dumped"));
}

TEST(DebugApi, ErrorDumpTensorPastTheBuffer) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] { DumpTensor(ub_at<float>(256 * 1024 - 64, 64), 1, 64); });
  EXPECT_THAT(e, IsKernelError("DumpTensor", "tensor"));
}

}  // namespace debug_api_test
