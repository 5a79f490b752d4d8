// Logging and errors, all through sc_report_handler so users configure them one way.
#pragma once
#include <string>
#include <string_view>
#include <fmt/format.h>
#include <systemc>

namespace npuvp {

// SystemC message type used for every npuvp report.
inline constexpr const char* kReportType = "npuvp";

// Current simulated time as text ("1234 ns"), for messages.
std::string sim_time_text();

// Reports an error through sc_report_handler (which throws sc_core::sc_report by default).
// The text names the block and the simulated time: "<block> @ <time>: <message>".
[[noreturn]] void raise_error(std::string_view block, std::string_view message);

// Informational and warning messages; verbosity follows sc_report_handler's settings.
void log_info(std::string_view block, std::string_view message,
              int verbosity = sc_core::SC_MEDIUM);
void log_warning(std::string_view block, std::string_view message);

template <class... Args>
[[noreturn]] void raise(std::string_view block, fmt::format_string<Args...> f, Args&&... args) {
  raise_error(block, fmt::format(f, std::forward<Args>(args)...));
}

template <class... Args>
void info(std::string_view block, fmt::format_string<Args...> f, Args&&... args) {
  log_info(block, fmt::format(f, std::forward<Args>(args)...));
}

template <class... Args>
void warning(std::string_view block, fmt::format_string<Args...> f, Args&&... args) {
  log_warning(block, fmt::format(f, std::forward<Args>(args)...));
}

// For command-line programs: warnings print as one line, "npuvp: warning: <block> @ <time>:
// <message>", without SystemC's "In file:" line; everything else keeps SystemC's handling.
void print_warnings_as_one_line();

// The message part of a report or exception, without SystemC's "In file:" decoration.
std::string error_text(const std::exception& e);

}  // namespace npuvp
