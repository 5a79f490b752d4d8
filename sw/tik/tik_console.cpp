#include "sw/tik/tik_console.h"

#include <cstring>
#include <sstream>
#include <vector>

namespace npuvp::tik {

bool Console::at_breakpoint(const std::string& loc) const {
  if (breaks_.count(loc)) return true;
  const size_t colon = loc.rfind(':');
  return colon != std::string::npos && breaks_.count(loc.substr(colon + 1));
}

bool Console::before(const std::string& loc, int depth, const char* what,
                     const std::function<std::string(const std::string&)>& print) {
  const bool stop = mode_ == Mode::Step || (mode_ == Mode::Next && depth <= next_depth_) || at_breakpoint(loc);
  if (!stop) return true;
  std::fprintf(out_, "tikdb: %s %s\n", loc.c_str(), what);
  char line[1024];
  for (;;) {
    std::fputs("(tikdb) ", out_);
    std::fflush(out_);
    if (!std::fgets(line, sizeof line, in_)) {  // end of input: run to the end
      mode_ = Mode::Continue;
      breaks_.clear();
      return true;
    }
    std::istringstream words(line);
    std::string cmd, arg;
    words >> cmd >> arg;
    if (cmd.empty() || cmd == "n" || cmd == "next") {
      mode_ = Mode::Next;
      next_depth_ = depth;
      return true;
    }
    if (cmd == "s" || cmd == "step") {
      mode_ = Mode::Step;
      return true;
    }
    if (cmd == "c" || cmd == "continue") {
      mode_ = Mode::Continue;
      return true;
    }
    if (cmd == "q" || cmd == "quit" || cmd == "exit") return false;
    if ((cmd == "b" || cmd == "break") && !arg.empty()) {
      breaks_.insert(arg);
      std::fprintf(out_, "  breakpoint at %s\n", arg.c_str());
    } else if (cmd == "clear" && !arg.empty()) {
      std::fprintf(out_, "  %s\n", breaks_.erase(arg) ? "cleared" : "no such breakpoint");
    } else if ((cmd == "p" || cmd == "print") && !arg.empty()) {
      const std::string text = print(arg);
      std::fprintf(out_, "  %s\n", text.empty() ? ("no tensor or Scalar named " + arg).c_str() : text.c_str());
    } else if (cmd == "w" || cmd == "where") {
      std::fprintf(out_, "  %s %s\n", loc.c_str(), what);
    } else {
      std::fprintf(out_, "  commands: n(ext), s(tep), c(ontinue), b(reak) [FILE:]LINE, clear [FILE:]LINE, "
                         "p(rint) NAME, w(here), q(uit)\n");
    }
  }
}

}  // namespace npuvp::tik
