#include "tlm/log.h"

#include <stdexcept>
#include <string>

namespace npuvp {

std::string sim_time_text() { return sc_core::sc_time_stamp().to_string(); }

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

std::string error_text(const std::exception& e) {
  // sc_report::what() adds severity, type and "In file:" lines; get_msg() is the bare text.
  if (const auto* report = dynamic_cast<const sc_core::sc_report*>(&e)) return report->get_msg();
  return e.what();
}

}  // namespace npuvp
