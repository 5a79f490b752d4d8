#include "tlm/log.h"

#include <stdexcept>
#include <string>

namespace npuvp {

std::string sim_time_text() {
  // SystemC writes a time in the largest unit that holds it whole, so any clock that is not
  // a whole number of ns (1.8 GHz, 750 MHz) gives "2598188 ps"; those read better in ns.
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const std::string text = now.to_string();
  if (text.size() > 3 && text.compare(text.size() - 3, 3, " ps") == 0 && now >= sc_core::sc_time(1, sc_core::SC_NS)) {
    return fmt::format("{:.3f} ns", now.to_seconds() * 1e9);
  }
  return text;
}

void raise_error(std::string_view block, std::string_view message) {
  const std::string text = fmt::format("{} @ {}: {}", block, sim_time_text(), message);
  SC_REPORT_ERROR(kReportType, text.c_str());
  // Only reached if the user changed the error action or handler so that it does not throw;
  // callers rely on raise_error never returning.
  throw std::runtime_error(text);
}

void log_info(std::string_view block, std::string_view message, int verbosity) {
  const std::string text = fmt::format("{} @ {}: {}", block, sim_time_text(), message);
  SC_REPORT_INFO_VERB(kReportType, text.c_str(), verbosity);
}

void log_warning(std::string_view block, std::string_view message) {
  const std::string text = fmt::format("{} @ {}: {}", block, sim_time_text(), message);
  SC_REPORT_WARNING(kReportType, text.c_str());
}

void print_warnings_as_one_line() {
  sc_core::sc_report_handler::set_handler([](const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
    if (report.get_severity() == sc_core::SC_WARNING && std::string_view(report.get_msg_type()) == kReportType &&
        (actions & sc_core::SC_DISPLAY)) {
      fmt::print(stderr, "npuvp: warning: {}\n", report.get_msg());
      sc_core::sc_report_handler::default_handler(report, actions & ~(sc_core::SC_DISPLAY | sc_core::SC_LOG));
      return;
    }
    sc_core::sc_report_handler::default_handler(report, actions);
  });
}

std::string error_text(const std::exception& e) {
  // sc_report::what() adds severity, type and "In file:" lines; get_msg() is the bare text.
  if (const auto* report = dynamic_cast<const sc_core::sc_report*>(&e)) {
    const std::string message = report->get_msg();
    if (std::string_view(report->get_msg_type()) == kReportType) return message;
    // SystemC's own: its message type says what went wrong (the message may be empty).
    return message.empty() ? fmt::format("SystemC: {}", report->get_msg_type())
                           : fmt::format("SystemC: {}: {}", report->get_msg_type(), message);
  }
  const std::string what = e.what();
  return what.empty() ? "an error with no message (an exception of the host program)" : what;
}

}  // namespace npuvp
