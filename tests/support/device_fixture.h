// Helpers for tests that run kernels on a device. Each test runs in its own process, so each
// may configure the process's device once.
#pragma once
#include <gtest/gtest.h>
#include <functional>
#include <string>
#include <vector>
#include "sw/runtime/device.h"
#include "tlm/log.h"

namespace npuvp::testing {

inline Device& make_device(const std::vector<std::string>& overrides = {},
                           const std::string& platform = "minimal") {
  Device::configure(platform, overrides);
  return Device::instance();
}

// Runs `body` as a kernel and returns the error text it raised ("" if none).
inline std::string kernel_error(Device& dev, uint32_t blocks, std::function<void()> body) {
  try {
    dev.launch("test_kernel", blocks, std::move(body));
  } catch (const std::exception& e) {
    return error_text(e);
  }
  return {};
}

}  // namespace npuvp::testing
