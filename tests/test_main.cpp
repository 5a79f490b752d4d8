// Test entry point. SystemC warnings inside a test are test failures; errors keep their
// default action (throw), so a test either expects them or fails on the exception.
#include <gtest/gtest.h>
#include <cstdlib>
#include <systemc>

namespace {
void fail_on_warning(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  if (report.get_severity() == sc_core::SC_WARNING) {
    ADD_FAILURE() << "SystemC warning: " << report.get_msg_type() << ": " << report.get_msg();
  }
  sc_core::sc_report_handler::default_handler(report, actions);
}
}  // namespace

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  ::testing::InitGoogleTest(&argc, argv);
  sc_core::sc_report_handler::set_handler(fail_on_warning);
  return RUN_ALL_TESTS();
}
