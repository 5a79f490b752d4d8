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

// Why `text` is not a kernel error as every one must read: "soc.<core> @ <simulated time>:
// <instruction> ...: ...<reason>...", i.e. the block, then the simulated time, then the
// instruction (its text starts with `instruction`), and somewhere after it the reason.
// Empty if it is one.
inline std::string kernel_error_mismatch(const std::string& text, const std::string& core,
                                         const std::string& instruction, const std::string& reason) {
  const std::regex head("^soc\\." + core + R"( @ [0-9]+(\.[0-9]+)? (s|ms|us|ns|ps|fs): )");
  std::smatch m;
  if (!std::regex_search(text, m, head)) return "does not start with 'soc." + core + " @ <time>: '";
  const std::string rest = text.substr(size_t(m.length(0)));
  if (rest.rfind(instruction, 0) != 0) return "does not name the instruction right after the time";
  if (rest.find(reason) == std::string::npos) return "does not give the reason";
  return {};
}

// A kernel error of soc.core0 (see kernel_error_mismatch).
MATCHER_P2(IsKernelError, instruction, reason,
           std::string(negation ? "is not" : "is") + " an error of soc.core0 at a simulated time naming '" +
               std::string(instruction) + "' and '" + std::string(reason) + "'") {
  const std::string why = kernel_error_mismatch(arg, "core0", instruction, reason);
  *result_listener << why;
  return why.empty();
}

// A kernel error of soc.<core> (aic0, aiv3, vcore1, ...).
MATCHER_P3(IsCoreError, core, instruction, reason,
           std::string(negation ? "is not" : "is") + " an error of soc." + std::string(core) +
               " at a simulated time naming '" + std::string(instruction) + "' and '" + std::string(reason) + "'") {
  const std::string why = kernel_error_mismatch(arg, core, instruction, reason);
  *result_listener << why;
  return why.empty();
}

}  // namespace npuvp::testing
