// The ACL runtime (acl/acl.h) on the virtual device, through its public C API: copies,
// memset, misuse and its error codes, events in simulated time, kernel launches on streams.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"
#include "platforms/ascend_soc.h"
#include "sw/runtime/acl/kernel_launch.h"
#include "sw/runtime/device.h"
#include "tests/support/raw_tensors.h"

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z);

namespace acl_runtime_test {
using ::testing::HasSubstr;
using npuvp::Device;

// aclInit + aclrtSetDevice(0) on `platform`.
void open_device(const std::string& platform = "minimal") {
  Device::configure(platform);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

std::string recent_error() {
  const char* m = aclGetRecentErrMsg();
  return m ? m : "";
}

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = uint8_t(seed + i * 7 + (i >> 8));
  return v;
}

uint64_t bridge_bytes(npuvp::soc::HostBridge::Direction d) { return Device::instance().soc().host_bridge().bytes(d); }

// The add sample's shape: 8 blocks of 2048 halves.
constexpr size_t kAddElements = 8 * 2048;
constexpr size_t kAddBytes = kAddElements * sizeof(uint16_t);

struct AddBuffers {
  void* x = nullptr;
  void* y = nullptr;
  void* z = nullptr;
  std::vector<uint16_t> hx, hy;  // small integers: every sum is exact in fp16
};

AddBuffers make_add_inputs() {
  AddBuffers b;
  b.hx.resize(kAddElements);
  b.hy.resize(kAddElements);
  for (size_t i = 0; i < kAddElements; ++i) {
    b.hx[i] = aclFloatToFloat16(float(int(i % 97) - 40));
    b.hy[i] = aclFloatToFloat16(float(int(i % 13) * 3));
  }
  EXPECT_EQ(aclrtMalloc(&b.x, kAddBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&b.y, kAddBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&b.z, kAddBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  return b;
}

uint32_t launch_add(aclrtStream stream, const AddBuffers& b) {
  auto* x = static_cast<uint8_t*>(b.x);
  auto* y = static_cast<uint8_t*>(b.y);
  auto* z = static_cast<uint8_t*>(b.z);
  return npuvp::acl::launch_kernel(stream, "add_custom", 8, [=] { add_custom(x, y, z); });
}

void expect_add_result(const AddBuffers& b, const std::vector<uint16_t>& z) {
  for (size_t i = 0; i < kAddElements; ++i) {
    const float want = aclFloat16ToFloat(b.hx[i]) + aclFloat16ToFloat(b.hy[i]);
    ASSERT_EQ(aclFloat16ToFloat(z[i]), want) << "element " << i;
  }
}

// --- Copies and memset ------------------------------------------------------------------

TEST(AclRuntime, CopiesRoundTripBytesInEveryKind) {
  open_device();
  constexpr size_t n = 3000;  // not a multiple of any alignment
  const auto src = pattern(n, 11);
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, n), ACL_SUCCESS);
  void *d1 = nullptr, *d2 = nullptr;
  ASSERT_EQ(aclrtMalloc(&d1, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&d2, n, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  const uint64_t h2d0 = bridge_bytes(npuvp::soc::HostBridge::Direction::HostToDevice);
  const uint64_t d2h0 = bridge_bytes(npuvp::soc::HostBridge::Direction::DeviceToHost);

  ASSERT_EQ(aclrtMemcpy(pinned, n, src.data(), n, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(d1, n, pinned, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(d2, n, d1, n, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  std::vector<uint8_t> back(n, 0);
  ASSERT_EQ(aclrtMemcpy(back.data(), n, d2, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(back, src);
  EXPECT_EQ(std::memcmp(pinned, src.data(), n), 0);
  // Host<->device copies cross the PCIe host bridge, which counts them.
  EXPECT_EQ(bridge_bytes(npuvp::soc::HostBridge::Direction::HostToDevice) - h2d0, n);
  EXPECT_EQ(bridge_bytes(npuvp::soc::HostBridge::Direction::DeviceToHost) - d2h0, n);

  // ACL_MEMCPY_DEFAULT finds the direction from the pointers.
  const auto other = pattern(n, 99);
  ASSERT_EQ(aclrtMemcpy(d1, n, other.data(), n, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(d2, n, d1, n, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(back.data(), n, d2, n, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  EXPECT_EQ(back, other);
  EXPECT_EQ(bridge_bytes(npuvp::soc::HostBridge::Direction::HostToDevice) - h2d0, 2 * n);

  EXPECT_EQ(aclrtFree(d1), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(d2), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(AclRuntime, CopiesInsideAnAllocationAtAnOffset) {
  open_device();
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const auto src = pattern(100, 5);
  auto* at = static_cast<uint8_t*>(d) + 900;  // the last 100 bytes
  ASSERT_EQ(aclrtMemcpy(at, 100, src.data(), 100, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  std::vector<uint8_t> back(100);
  ASSERT_EQ(aclrtMemcpy(back.data(), 100, at, 100, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(back, src);
}

TEST(AclRuntime, MemsetFillsTheBytesAskedAndNoMore) {
  open_device();
  constexpr size_t n = 1024;
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(d, n, 0x11, n), ACL_SUCCESS);
  // Only the low byte of the value is written, as memset does.
  ASSERT_EQ(aclrtMemset(static_cast<uint8_t*>(d) + 100, n - 100, 0x1A5, 200), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(static_cast<uint8_t*>(d) + 1000, 24, 0x7f, 24, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  std::vector<uint8_t> back(n);
  ASSERT_EQ(aclrtMemcpy(back.data(), n, d, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (size_t i = 0; i < n; ++i) {
    const uint8_t want = i >= 1000 ? 0x7f : (i >= 100 && i < 300) ? 0xa5 : 0x11;
    ASSERT_EQ(back[i], want) << "byte " << i;
  }
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

// --- Misuse: the documented code and a message that names the problem ---------------------

TEST(AclRuntime, CopyFromAnUnknownDevicePointerIsRefused) {
  open_device();
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 512, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(d), ACL_SUCCESS);
  std::vector<uint8_t> host(64);
  EXPECT_EQ(aclrtMemcpy(host.data(), 64, d, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  const std::string e = recent_error();
  EXPECT_THAT(e, HasSubstr("aclrtMemcpy"));
  EXPECT_THAT(e, HasSubstr("source"));
  EXPECT_THAT(e, HasSubstr("aclrtMalloc did not return"));
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);  // reading the message clears it
}

TEST(AclRuntime, CopyPastTheEndOfAnAllocationIsRefused) {
  open_device();
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<uint8_t> host(2000);
  // 1000 bytes from offset 100: 100 bytes too many (GM behind it is not this allocation's).
  EXPECT_EQ(aclrtMemcpy(static_cast<uint8_t*>(d) + 100, 1000, host.data(), 1000, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);
  const std::string e = recent_error();
  EXPECT_THAT(e, HasSubstr("destination"));
  EXPECT_THAT(e, HasSubstr("runs 100 bytes past the end of its aclrtMalloc allocation of 1000 bytes"));
  // The host side is checked too when it is aclrtMallocHost memory.
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 300), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(d, 1000, pinned, 400, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(recent_error(), HasSubstr("source range"));
  EXPECT_EQ(aclrtMemcpy(d, 1000, pinned, 300, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

TEST(AclRuntime, CountAboveDestMaxIsRefused) {
  open_device();
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 1024, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<uint8_t> host(1024, 3);
  EXPECT_EQ(aclrtMemcpy(d, 512, host.data(), 1024, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(recent_error(), HasSubstr("count 1024 bytes is more than destMax 512 bytes"));
  EXPECT_EQ(aclrtMemset(d, 16, 0, 32), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(recent_error(), HasSubstr("count 32 bytes is more than maxCount 16 bytes"));
}

TEST(AclRuntime, KindThatDoesNotMatchThePointersIsRefused) {
  open_device();
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<uint8_t> host(256), other(256);
  EXPECT_EQ(aclrtMemcpy(host.data(), 256, other.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(recent_error(), HasSubstr("kind ACL_MEMCPY_HOST_TO_DEVICE needs the destination in device memory"));
  EXPECT_EQ(aclrtMemcpy(host.data(), 256, d, 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(recent_error(), HasSubstr("needs the source in host memory"));
  EXPECT_EQ(aclrtMemcpy(d, 256, host.data(), 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(recent_error(), HasSubstr("kind ACL_MEMCPY_DEVICE_TO_HOST needs the source in device memory"));
  EXPECT_EQ(aclrtMemcpy(d, 256, host.data(), 256, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(recent_error(), HasSubstr("kind ACL_MEMCPY_HOST_TO_HOST needs the destination in host memory"));
  EXPECT_EQ(aclrtMemcpy(host.data(), 256, d, 256, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(recent_error(), HasSubstr("needs the destination in device memory"));
  EXPECT_EQ(aclrtMemcpy(d, 256, host.data(), 256, static_cast<aclrtMemcpyKind>(42)), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(recent_error(), HasSubstr("kind 42 is not an aclrtMemcpyKind"));
  // Nothing was copied by the refused calls.
  std::vector<uint8_t> zero(256, 0);
  EXPECT_EQ(host, zero);
}

TEST(AclRuntime, NullPointersAreInvalidParameters) {
  open_device();
  std::vector<uint8_t> host(16);
  EXPECT_EQ(aclrtMemcpy(nullptr, 16, host.data(), 16, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(recent_error(), HasSubstr("destination is a null pointer"));
  EXPECT_EQ(aclrtMalloc(nullptr, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  void* d = nullptr;
  EXPECT_EQ(aclrtMalloc(&d, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(recent_error(), HasSubstr("size is 0"));
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST(AclRuntime, FreeingWhatWasNotAllocatedIsRefused) {
  open_device();
  int local = 0;
  EXPECT_EQ(aclrtFree(&local), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(recent_error(), HasSubstr("is not the start of memory aclrtMalloc returned"));
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(d), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(d), ACL_ERROR_RT_PARAM_INVALID);  // twice
  EXPECT_EQ(aclrtFreeHost(&local), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(recent_error(), HasSubstr("aclrtMallocHost"));
}

TEST(AclRuntime, CallsBeforeInitAndSetDeviceAreRefused) {
  Device::configure("minimal");
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
  EXPECT_THAT(recent_error(), HasSubstr("aclInit has not been called"));
  EXPECT_EQ(aclFinalize(), ACL_ERROR_UNINITIALIZE);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  void* d = nullptr;
  EXPECT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_THAT(recent_error(), HasSubstr("call aclrtSetDevice"));
  aclrtStream stream = nullptr;
  EXPECT_EQ(aclrtCreateStream(&stream), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(aclrtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_THAT(recent_error(), HasSubstr("device 1 does not exist"));
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  // The device's memory went with the reset, and there is no context any more.
  EXPECT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
}

TEST(AclRuntime, DeviceQueries) {
  open_device();
  uint32_t count = 0;
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 1u);
  int32_t id = -1;
  EXPECT_EQ(aclrtGetDevice(&id), ACL_SUCCESS);
  EXPECT_EQ(id, 0);
  aclrtRunMode mode = ACL_DEVICE;
  EXPECT_EQ(aclrtGetRunMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_HOST);
  size_t free = 0, total = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total), ACL_SUCCESS);
  EXPECT_EQ(total, Device::instance().soc().gm().size());
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  size_t free_after = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total), ACL_SUCCESS);
  EXPECT_EQ(free - free_after, size_t(1) << 20);
  EXPECT_STREQ(aclrtGetSocName(), "Ascend910A");  // minimal models a 910
  EXPECT_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN), ACL_SUCCESS);
  aclrtFloatOverflowMode sat = ACL_RT_OVERFLOW_MODE_UNDEF;
  EXPECT_EQ(aclrtGetDeviceSatMode(&sat), ACL_SUCCESS);
  EXPECT_EQ(sat, ACL_RT_OVERFLOW_MODE_INFNAN);
}

TEST(AclRuntime, SocNameOf910B) {
  open_device("ascend910b");
  EXPECT_STREQ(aclrtGetSocName(), "Ascend910B1");
}

TEST(AclRuntime, SocNameIsTheOneTheProjectWasBuiltFor) {
  setenv("NPUVP_SOC_VERSION", "Ascend310P1", 1);
  open_device("ascend310p");
  EXPECT_STREQ(aclrtGetSocName(), "Ascend310P1");
}

TEST(AclRuntime, ContextsAreCurrentPerThreadAndOwnTheirStreams) {
  open_device();
  aclrtContext device_context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&device_context), ACL_SUCCESS);
  aclrtContext mine = nullptr;
  ASSERT_EQ(aclrtCreateContext(&mine, 0), ACL_SUCCESS);
  aclrtContext current = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS);
  EXPECT_EQ(current, mine);  // a new context becomes current
  EXPECT_NE(mine, device_context);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(device_context), ACL_ERROR_INVALID_PARAM);  // aclrtResetDevice's to release
  EXPECT_THAT(recent_error(), HasSubstr("default context"));
  ASSERT_EQ(aclrtDestroyContext(mine), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_CONTEXT_NULL);  // no current context now
  ASSERT_EQ(aclrtSetCurrentContext(device_context), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_PARAM_INVALID);  // it went with its context
  EXPECT_THAT(recent_error(), HasSubstr("is not a live stream"));
  // Another thread starts without a current context, and may share this one.
  std::thread other([device_context] {
    aclrtContext c = nullptr;
    EXPECT_EQ(aclrtGetCurrentContext(&c), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_NE(aclGetRecentErrMsg(), nullptr);  // its own messages
    EXPECT_EQ(aclrtSetCurrentContext(device_context), ACL_SUCCESS);
    void* d = nullptr;
    EXPECT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
  });
  other.join();
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);  // the other thread's error is not this thread's
}

TEST(AclRuntime, EverySetDeviceNeedsItsReset) {
  open_device();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);  // twice
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemset(d, 64, 0, 64), ACL_SUCCESS);  // still in use
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemset(d, 64, 0, 64), ACL_ERROR_RT_PARAM_INVALID);  // released by the last reset
  EXPECT_THAT(recent_error(), HasSubstr("aclrtMalloc did not return"));
}

// --- Kernels, streams and events -----------------------------------------------------------

TEST(AclRuntime, KernelLaunchComputesTheRightResult) {
  open_device();
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  AddBuffers b = make_add_inputs();
  ASSERT_EQ(aclrtMemcpy(b.x, kAddBytes, b.hx.data(), kAddBytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(b.y, kAddBytes, b.hy.data(), kAddBytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(launch_add(stream, b), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  std::vector<uint16_t> z(kAddElements);
  ASSERT_EQ(aclrtMemcpy(z.data(), kAddBytes, b.z, kAddBytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  expect_add_result(b, z);
  EXPECT_EQ(Device::instance().last_run().kernel, "add_custom");
  EXPECT_EQ(Device::instance().last_run().block_dim, 8u);
}

// The lifecycle of CANN's kernel-launch samples' main(), every call checked.
TEST(AclRuntime, SampleShapedHostProgramRunsCleanly) {
  Device::configure("minimal");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  AddBuffers b = make_add_inputs();
  void *xHost = nullptr, *yHost = nullptr, *zHost = nullptr;
  ASSERT_EQ(aclrtMallocHost(&xHost, kAddBytes), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&yHost, kAddBytes), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&zHost, kAddBytes), ACL_SUCCESS);
  std::memcpy(xHost, b.hx.data(), kAddBytes);
  std::memcpy(yHost, b.hy.data(), kAddBytes);
  ASSERT_EQ(aclrtMemcpy(b.x, kAddBytes, xHost, kAddBytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(b.y, kAddBytes, yHost, kAddBytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(launch_add(stream, b), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(zHost, kAddBytes, b.z, kAddBytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  std::vector<uint16_t> z(kAddElements);
  std::memcpy(z.data(), zHost, kAddBytes);
  expect_add_result(b, z);
  for (void* d : {b.x, b.y, b.z}) EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
  for (void* h : {xHost, yHost, zHost}) EXPECT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);  // nothing failed on the way
}

TEST(AclRuntime, WorkOnAStreamRunsInIssueOrder) {
  open_device();
  aclrtStream a = nullptr, b_stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&a), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&b_stream), ACL_SUCCESS);
  AddBuffers b = make_add_inputs();
  // Inputs, the kernel and the read-back all queued before any synchronize: each step must
  // see the one before it.
  ASSERT_EQ(aclrtMemsetAsync(b.z, kAddBytes, 0xff, kAddBytes, a), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(b.x, kAddBytes, b.hx.data(), kAddBytes, ACL_MEMCPY_HOST_TO_DEVICE, a), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(b.y, kAddBytes, b.hy.data(), kAddBytes, ACL_MEMCPY_HOST_TO_DEVICE, a), ACL_SUCCESS);
  ASSERT_EQ(launch_add(a, b), ACL_SUCCESS);
  std::vector<uint16_t> z(kAddElements, 0);
  ASSERT_EQ(aclrtMemcpyAsync(z.data(), kAddBytes, b.z, kAddBytes, ACL_MEMCPY_DEVICE_TO_HOST, a), ACL_SUCCESS);
  // A later write of x on another stream does not reach back into stream a's finished work.
  std::vector<uint16_t> zeros(kAddElements, 0);
  ASSERT_EQ(aclrtMemcpyAsync(b.x, kAddBytes, zeros.data(), kAddBytes, ACL_MEMCPY_HOST_TO_DEVICE, b_stream),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(a), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(b_stream), ACL_SUCCESS);
  expect_add_result(b, z);
  // Asynchronous host-to-host copies are not supported (aclrtMemcpyAsync.md).
  EXPECT_EQ(aclrtMemcpyAsync(z.data(), 2, zeros.data(), 2, ACL_MEMCPY_HOST_TO_HOST, a),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

TEST(AclRuntime, EventsMeasureSimulatedTime) {
  open_device();
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  aclrtEvent start = nullptr, copied = nullptr, computed = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&start), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEventWithFlag(&copied, ACL_EVENT_TIME_LINE), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEventExWithFlag(&computed, ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC), ACL_SUCCESS);
  float ms = 0;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, start, copied), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
  EXPECT_THAT(recent_error(), HasSubstr("has not been recorded"));

  AddBuffers b = make_add_inputs();
  ASSERT_EQ(aclrtRecordEvent(start, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(b.x, kAddBytes, b.hx.data(), kAddBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(b.y, kAddBytes, b.hy.data(), kAddBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(copied, stream), ACL_SUCCESS);
  ASSERT_EQ(launch_add(stream, b), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(computed, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(computed), ACL_SUCCESS);
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  EXPECT_EQ(aclrtQueryEventStatus(computed, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);

  float copy_ms = 0, kernel_ms = 0, total_ms = 0;
  ASSERT_EQ(aclrtEventElapsedTime(&copy_ms, start, copied), ACL_SUCCESS);
  ASSERT_EQ(aclrtEventElapsedTime(&kernel_ms, copied, computed), ACL_SUCCESS);
  ASSERT_EQ(aclrtEventElapsedTime(&total_ms, start, computed), ACL_SUCCESS);
  EXPECT_GT(copy_ms, 0.f);  // two 32 KiB copies over PCIe take simulated time
  // The launch's interval is the kernel's simulated time (float ms of a double second).
  const double kernel_s = Device::instance().last_run().sim_time.to_seconds();
  EXPECT_GT(kernel_s, 0);
  EXPECT_NEAR(kernel_ms, kernel_s * 1e3, kernel_s * 1e3 * 1e-5);
  EXPECT_NEAR(total_ms, copy_ms + kernel_ms, total_ms * 1e-5);
  // Copying 32 KiB takes at least its bytes at the bridge's bandwidth.
  const double gbps = Device::instance().soc().host_bridge().params().gbps;
  EXPECT_GE(copy_ms * 1e-3, 2 * kAddBytes / (gbps * 1e9));
  EXPECT_EQ(aclrtDestroyEvent(start), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(start), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(AclRuntime, KernelErrorBecomesAnErrorCodeAndAMessage) {
  open_device();
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  const uint32_t r = npuvp::acl::launch_kernel(stream, "misaligned", 1, [] {
    auto a = npuvp::testing::ub_at<half>(0, 128);
    AscendC::Add(a[3], a, a, 128);  // 6 bytes in: not 32 B aligned
  });
  EXPECT_EQ(r, uint32_t(ACL_ERROR_RT_AICORE_EXCEPTION));
  const std::string e = recent_error();
  EXPECT_THAT(e, HasSubstr("kernel 'misaligned'"));
  EXPECT_THAT(e, HasSubstr("not 32 B aligned"));
  // The stream reports it at synchronize, as CANN reports a kernel's exception.
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_THAT(recent_error(), HasSubstr("not 32 B aligned"));
  // The simulation stopped there: later device work is refused, saying why.
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<uint8_t> host(64);
  EXPECT_EQ(aclrtMemcpy(d, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_THAT(recent_error(), HasSubstr("stopped at an earlier kernel error"));
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_ERROR_RT_AICORE_EXCEPTION);
}

TEST(AclRuntime, LaunchChecksItsArguments) {
  open_device();
  int not_a_stream = 0;
  EXPECT_EQ(npuvp::acl::launch_kernel(&not_a_stream, "k", 1, [] {}), uint32_t(ACL_ERROR_RT_PARAM_INVALID));
  EXPECT_THAT(recent_error(), HasSubstr("is not a live stream"));
  EXPECT_EQ(npuvp::acl::launch_kernel(nullptr, "k", 0, [] {}), uint32_t(ACL_ERROR_RT_PARAM_INVALID));
  EXPECT_THAT(recent_error(), HasSubstr("blockDim 0 is outside [1, 65535]"));
}

// --- Helpers without a device ------------------------------------------------------------

// The value of a finite half, computed independently of any conversion routine.
double half_value(uint16_t h) {
  const int exp = (h >> 10) & 0x1f;
  const int man = h & 0x3ff;
  const double magnitude = exp == 0 ? std::ldexp(double(man), -24) : std::ldexp(double(1024 + man), exp - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

TEST(AclFloat16, WideningIsExactForEveryHalf) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float f = aclFloat16ToFloat(uint16_t(h));
    const int exp = (h >> 10) & 0x1f;
    if (exp == 0x1f) {
      if (h & 0x3ff) {
        ASSERT_TRUE(std::isnan(f)) << std::hex << h;
      } else {
        ASSERT_TRUE(std::isinf(f)) << std::hex << h;
      }
      ASSERT_EQ(std::signbit(f), (h & 0x8000) != 0) << std::hex << h;
      continue;
    }
    ASSERT_EQ(double(f), half_value(uint16_t(h))) << std::hex << h;
    ASSERT_EQ(std::signbit(f), (h & 0x8000) != 0) << std::hex << h;  // -0 stays -0
  }
}

TEST(AclFloat16, NarrowingRoundsToNearestEven) {
  // Every finite half round-trips; between two neighbours, the midpoint goes to the one with
  // the even significand and anything off the midpoint to the nearer one.
  for (uint32_t sign : {0u, 0x8000u}) {
    for (uint32_t m = 0; m < 0x7c00; ++m) {
      const uint16_t h = uint16_t(sign | m);
      ASSERT_EQ(aclFloatToFloat16(aclFloat16ToFloat(h)), h) << std::hex << h;
      const uint16_t next = uint16_t(h + 1);  // toward larger magnitude; 0x7c00 is infinity
      const double lo = half_value(h);
      const double hi = (next & 0x7fff) == 0x7c00 ? (sign ? -65536.0 : 65536.0) : half_value(next);
      const float mid = float((lo + hi) / 2);  // exact: a half midpoint needs 12 significant bits
      ASSERT_EQ(double(mid), (lo + hi) / 2);
      const uint16_t even = (h & 1) ? next : h;
      ASSERT_EQ(aclFloatToFloat16(mid), even) << "midpoint after " << std::hex << h;
      ASSERT_EQ(aclFloatToFloat16(std::nextafter(mid, float(lo))), h) << "below the midpoint after " << std::hex << h;
      ASSERT_EQ(aclFloatToFloat16(std::nextafter(mid, float(hi))), next) << "above the midpoint after " << std::hex << h;
    }
  }
  EXPECT_EQ(aclFloatToFloat16(1e10f), 0x7c00);  // overflow to infinity
  EXPECT_EQ(aclFloatToFloat16(-1e10f), 0xfc00);
  EXPECT_EQ(aclFloatToFloat16(1e-10f), 0x0000);  // below half the smallest subnormal
  const uint16_t nan = aclFloatToFloat16(std::nanf(""));
  EXPECT_EQ(nan & 0x7c00, 0x7c00);
  EXPECT_NE(nan & 0x3ff, 0);
}

TEST(AclBase, DataTypeSizes) {
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_BF16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT8), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_UINT8), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT32), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_UINT32), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_DOUBLE), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_BOOL), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX128), 16u);
  EXPECT_EQ(aclDataTypeSize(ACL_DT_UNDEFINED), 0u);
  // CANN's values, which host code writes as numbers too.
  EXPECT_EQ(int(ACL_BF16), 27);
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, 107000);
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, 100000);
  EXPECT_EQ(int(ACL_MEMCPY_DEFAULT), 4);
}

}  // namespace acl_runtime_test
