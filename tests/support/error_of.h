// The text of the npuvp error a piece of code raises, for tests of error messages.
#pragma once
#include <exception>
#include <string>
#include <gtest/gtest.h>
#include "tlm/log.h"

namespace npuvp::testing {

// Runs `f`, which must raise, and returns the error's text (block @ time: message); a run
// that raises nothing is a test failure.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return error_text(e);
  }
  ADD_FAILURE() << "no error raised";
  return "";
}

}  // namespace npuvp::testing
