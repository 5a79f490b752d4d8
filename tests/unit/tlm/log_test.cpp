#include "tlm/log.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace log_test {

struct Recorded {
  sc_core::sc_severity severity;
  std::string type;
  std::string msg;
};
std::vector<Recorded> recorded;

void record(const sc_core::sc_report& report, const sc_core::sc_actions&) {
  recorded.push_back({report.get_severity(), report.get_msg_type(), report.get_msg()});
}

TEST(LogTest, RaiseErrorThrowsReportNamingBlockAndTime) {
  try {
    npuvp::raise_error("dma", "descriptor out of range");
    FAIL() << "raise_error returned";
  } catch (const sc_core::sc_report& e) {
    EXPECT_EQ(e.get_severity(), sc_core::SC_ERROR);
    EXPECT_STREQ(e.get_msg_type(), npuvp::kReportType);
    EXPECT_STREQ(e.get_msg(), "dma @ 0 s: descriptor out of range");
    EXPECT_EQ(npuvp::error_text(e), "dma @ 0 s: descriptor out of range");
    // what() carries SystemC's decoration; error_text strips it.
    EXPECT_NE(std::string(e.what()), npuvp::error_text(e));
  }
}

// Times that are not whole ns (clocks like 1.8 GHz) print in ns with ps decimals, not as a
// long run of ps; whole units stay as SystemC writes them.
TEST(LogTest, OddTimesPrintInNanoseconds) {
  sc_core::sc_start(sc_core::sc_time(999, sc_core::SC_PS));
  EXPECT_EQ(npuvp::sim_time_text(), "999 ps");
  sc_core::sc_start(sc_core::sc_time(2597189, sc_core::SC_PS));
  EXPECT_EQ(npuvp::sim_time_text(), "2598.188 ns");
  sc_core::sc_start(sc_core::sc_time(1812, sc_core::SC_PS));
  EXPECT_EQ(npuvp::sim_time_text(), "2600 ns");
}

TEST(LogTest, MessageCarriesSimulatedTime) {
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_NS));
  EXPECT_EQ(npuvp::sim_time_text(), "10 ns");
  try {
    npuvp::raise("core3", "bad opcode {:#x}", 0x2a);
    FAIL() << "raise returned";
  } catch (const sc_core::sc_report& e) {
    EXPECT_EQ(npuvp::error_text(e), "core3 @ 10 ns: bad opcode 0x2a");
  }
}

TEST(LogTest, RaiseNeverReturnsEvenIfErrorsDoNotThrow) {
  const sc_core::sc_actions old =
      sc_core::sc_report_handler::set_actions(npuvp::kReportType, sc_core::SC_ERROR,
                                              sc_core::SC_DO_NOTHING);
  EXPECT_THROW(npuvp::raise_error("blk", "oops"), std::runtime_error);
  sc_core::sc_report_handler::set_actions(npuvp::kReportType, sc_core::SC_ERROR, old);
  EXPECT_THROW(npuvp::raise_error("blk", "oops"), sc_core::sc_report);
}

TEST(LogTest, ErrorTextOfPlainException) {
  EXPECT_EQ(npuvp::error_text(std::runtime_error("plain")), "plain");
}

TEST(LogTest, InfoAndWarningGoThroughReportHandler) {
  recorded.clear();
  const auto previous = sc_core::sc_report_handler::set_handler(record);
  npuvp::log_info("blk", "hello");
  npuvp::info("blk", "n={}", 3);
  npuvp::log_info("blk", "too verbose", sc_core::SC_DEBUG);  // above the default SC_MEDIUM
  npuvp::log_warning("blk", "careful");
  sc_core::sc_report_handler::set_handler(previous);

  ASSERT_EQ(recorded.size(), 3u);
  EXPECT_EQ(recorded[0].severity, sc_core::SC_INFO);
  EXPECT_EQ(recorded[0].type, npuvp::kReportType);
  EXPECT_EQ(recorded[0].msg, "blk @ 0 s: hello");
  EXPECT_EQ(recorded[1].msg, "blk @ 0 s: n=3");
  EXPECT_EQ(recorded[2].severity, sc_core::SC_WARNING);
  EXPECT_EQ(recorded[2].msg, "blk @ 0 s: careful");
}

// A report SystemC itself raises (its own message type, often with no message) still says
// what went wrong, not an empty "error: ".
TEST(LogTest, ErrorTextOfASystemCReportNamesItsType) {
  try {
    SC_REPORT_ERROR("/OSCI/SystemC/sc_time", "");
    FAIL() << "no throw";
  } catch (const sc_core::sc_report& e) {
    EXPECT_EQ(npuvp::error_text(e), "SystemC: /OSCI/SystemC/sc_time");
  }
  try {
    SC_REPORT_ERROR("/OSCI/SystemC/sc_time", "value too large");
    FAIL() << "no throw";
  } catch (const sc_core::sc_report& e) {
    EXPECT_EQ(npuvp::error_text(e), "SystemC: /OSCI/SystemC/sc_time: value too large");
  }
  EXPECT_EQ(npuvp::error_text(std::runtime_error("")), "an error with no message (an exception of the host program)");
}
}  // namespace log_test
