// Test entry point. SystemC warnings inside a test are test failures; errors keep their
// default action (throw), so a test either expects them or fails on the exception.
#include <gtest/gtest.h>
#include <cstdlib>
#include <systemc>
#include "sw/runtime/device.h"

namespace {
void fail_on_warning(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  if (report.get_severity() == sc_core::SC_WARNING) {
    ADD_FAILURE() << "SystemC warning: " << report.get_msg_type() << ": " << report.get_msg();
  }
  sc_core::sc_report_handler::default_handler(report, actions);
}

// A test's GM buffers live as long as the test: what its host code left allocated is freed
// when it ends, so the sanitizer's leak check at exit (NPUVP_CHECK=all) reports only what a
// test checks itself (tests/kernels/sanitizer_test.cpp calls finish() before it ends).
class FreeGmAtTestEnd : public ::testing::EmptyTestEventListener {
  void OnTestEnd(const ::testing::TestInfo&) override {
    if (!npuvp::Device::built()) return;
    npuvp::Device& device = npuvp::Device::instance();
    for (void* p : device.live_allocations()) device.free(p);
  }
};
}  // namespace

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  ::testing::InitGoogleTest(&argc, argv);
  sc_core::sc_report_handler::set_handler(fail_on_warning);
  ::testing::UnitTest::GetInstance()->listeners().Append(new FreeGmAtTestEnd);
  return RUN_ALL_TESTS();
}
