// Helpers for tests that run kernels on a device. Each test runs in its own process, so each
// may configure the process's device once.
#pragma once
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <functional>
#include <regex>
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

// Matches a kernel error as every one must read: "soc.core0 @ <simulated time>: <instruction>
// ...: ...<reason>...", i.e. the block, then the simulated time, then the instruction (its text
// starts with `instruction`), and somewhere after it the reason.
MATCHER_P2(IsKernelError, instruction, reason,
           std::string(negation ? "is not" : "is") + " an error of soc.core0 at a simulated time naming '" +
               std::string(instruction) + "' and '" + std::string(reason) + "'") {
  static const std::regex head(R"(^soc\.core0 @ [0-9]+(\.[0-9]+)? (s|ms|us|ns|ps|fs): )");
  const std::string text = arg;
  std::smatch m;
  if (!std::regex_search(text, m, head)) {
    *result_listener << "does not start with 'soc.core0 @ <time>: '";
    return false;
  }
  const std::string rest = text.substr(size_t(m.length(0)));
  if (rest.rfind(instruction, 0) != 0) {
    *result_listener << "does not name the instruction right after the time";
    return false;
  }
  if (rest.find(reason) == std::string::npos) {
    *result_listener << "does not give the reason";
    return false;
  }
  return true;
}

}  // namespace npuvp::testing
