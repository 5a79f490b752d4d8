// Verilator's user hooks (compiled with VL_USER_FINISH, VL_USER_STOP, VL_USER_FATAL): by
// default $finish twice exits the process, and $stop, $error, $fatal and Verilator's internal
// fatal errors abort it. Here none of them ends the process: $finish/$stop/$error/$fatal are
// recorded and the transactor (verilated_cube.h) raises an RtlError after the eval that hit
// them; a fatal error throws RtlError out of the eval (the model is then not used again).
#include <fmt/format.h>
#include <verilated.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "rtl_cosim/rtl_cube.h"

namespace {
thread_local std::string t_last_line;  // the last complete line Verilator printed
thread_local std::string t_partial;    // text after the last newline
thread_local std::string t_stop;       // what stopped the RTL, until taken

std::string where(const char* filename, int linenum) {
  std::string file = filename ? filename : "";
  const size_t slash = file.find_last_of('/');
  if (slash != std::string::npos) file = file.substr(slash + 1);
  return file.empty() ? std::string("(unknown)") : fmt::format("{}:{}", file, linenum);
}

void record(std::string what) {
  if (!t_last_line.empty()) what += fmt::format(" (the RTL printed: \"{}\")", t_last_line);
  if (t_stop.empty()) t_stop = std::move(what);
}
}  // namespace

void npuvp_cosim_vl_printf(const char* format, ...) {
  char buffer[1024];
  va_list args;
  va_start(args, format);
  const int n = std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  if (n < 0) return;
  std::fputs(buffer, stdout);
  t_partial += buffer;
  for (size_t nl; (nl = t_partial.find('\n')) != std::string::npos;) {
    if (nl > 0) t_last_line = t_partial.substr(0, nl);
    t_partial.erase(0, nl + 1);
  }
}

void vl_finish(const char* filename, int linenum, const char* /*hier*/) VL_MT_UNSAFE {
  Verilated::threadContextp()->gotFinish(true);
  record(fmt::format("the RTL called $finish at {}", where(filename, linenum)));
}

void vl_stop(const char* filename, int linenum, const char* /*hier*/) VL_MT_UNSAFE {
  Verilated::threadContextp()->gotError(true);
  Verilated::threadContextp()->gotFinish(true);
  record(fmt::format("the RTL stopped ($stop, $error or $fatal) at {}", where(filename, linenum)));
}

void vl_fatal(const char* filename, int linenum, const char* /*hier*/, const char* msg) VL_MT_UNSAFE {
  Verilated::threadContextp()->gotError(true);
  Verilated::threadContextp()->gotFinish(true);
  throw npuvp::cosim::RtlError(
      fmt::format("Verilator fatal error at {}: {}", where(filename, linenum), msg ? msg : ""));
}

namespace npuvp::cosim::detail {

namespace {
std::map<const void*, std::function<void()>>& exit_closers() {
  static std::map<const void*, std::function<void()>> closers;
  return closers;
}
void run_exit_closers() {
  auto& closers = exit_closers();
  while (!closers.empty()) {
    auto close = std::move(closers.begin()->second);
    closers.erase(closers.begin());
    close();
  }
}
}  // namespace

void close_at_exit(const void* owner, std::function<void()> close) {
  auto& closers = exit_closers();  // constructed first: destroyed after the handler has run
  static const bool installed = [] { return std::atexit(run_exit_closers) == 0; }();
  (void)installed;
  closers[owner] = std::move(close);
}

void forget_at_exit(const void* owner) { exit_closers().erase(owner); }

std::string take_rtl_stop() {
  std::string s;
  s.swap(t_stop);
  return s;
}

std::vector<std::string> exercise_verilator_hooks() {
  std::vector<std::string> seen;
  t_last_line.clear();
  vl_finish("hooks_test.sv", 1, "");
  vl_finish("hooks_test.sv", 2, "");  // the default exits the process here
  seen.push_back(take_rtl_stop());
  vl_stop("hooks_test.sv", 3, "");    // the default aborts here (fatalOnError)
  seen.push_back(take_rtl_stop());
  try {
    vl_fatal("hooks_test.sv", 4, "", "test");  // the default aborts here
    seen.push_back("vl_fatal returned");
  } catch (const RtlError& e) {
    seen.push_back(e.what());
  }
  return seen;
}

}  // namespace npuvp::cosim::detail
