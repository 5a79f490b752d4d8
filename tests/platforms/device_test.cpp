// npuvp::Device: the GM allocator and host copies.
#include <gtest/gtest.h>
#include <cstring>
#include "tests/support/device_fixture.h"

namespace device_test {
using npuvp::Device;

TEST(DeviceTest, AllocationsAreAlignedDisjointAndReused) {
  auto& dev = npuvp::testing::make_device({"gm.size=1MiB"});
  auto* a = static_cast<uint8_t*>(dev.malloc(100));
  auto* b = static_cast<uint8_t*>(dev.malloc(1000));
  EXPECT_EQ(dev.device_address(a) % 512, 0u);
  EXPECT_EQ(dev.device_address(b) % 512, 0u);
  EXPECT_GE(b - a, 512);
  dev.free(a);
  auto* c = static_cast<uint8_t*>(dev.malloc(512));
  EXPECT_EQ(c, a);  // first fit reuses the freed block
  dev.free(b);
  dev.free(c);
  // Everything freed and coalesced: the whole GM is one block again.
  auto* all = dev.malloc(1 << 20);
  EXPECT_EQ(all, a);
  dev.free(all);
}

TEST(DeviceTest, ExhaustedGmIsAnError) {
  auto& dev = npuvp::testing::make_device({"gm.size=1MiB"});
  try {
    dev.malloc((1 << 20) + 1);
    FAIL();
  } catch (const std::exception& e) {
    EXPECT_NE(npuvp::error_text(e).find("GM exhausted"), std::string::npos);
  }
}

TEST(DeviceTest, FreeOfForeignPointerIsAnError) {
  auto& dev = npuvp::testing::make_device();
  int local = 0;
  EXPECT_THROW(dev.free(&local), std::exception);
}

TEST(DeviceTest, MemcpyChecksTheDeviceSide) {
  auto& dev = npuvp::testing::make_device();
  auto* g = static_cast<uint8_t*>(dev.malloc(64));
  uint8_t host[64];
  for (int i = 0; i < 64; ++i) host[i] = uint8_t(i);
  dev.memcpy(g, host, 64, Device::Copy::HostToDevice);
  uint8_t back[64] = {};
  dev.memcpy(back, g, 64, Device::Copy::DeviceToHost);
  EXPECT_EQ(std::memcmp(back, host, 64), 0);
  EXPECT_THROW(dev.memcpy(back, host, 64, Device::Copy::HostToDevice), std::exception);
}
}  // namespace device_test
