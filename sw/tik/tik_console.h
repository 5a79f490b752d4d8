// The stepping console of tikdb.start_debug(interactive=True): before each statement block 0
// runs, the interpreter asks it whether to stop; stopped, it reads commands (a plain prompt)
// until one resumes the run. Commands follow the TIK debugger's (CANN "TIK debugging" pages):
//   n / next        run the next statement (a loop or branch whole)
//   s / step        run to the next statement, entering loop and branch bodies
//   c / continue    run to the next breakpoint (or the end)
//   b / break [FILE:]LINE   stop before the statements of that line; clear [FILE:]LINE
//   p / print NAME  a Scalar's value or a tensor's elements (pending instructions finish first)
//   w / where       the statement about to run
//   q / quit        stop the run (an error "tikdb: quit")
#pragma once
#include <cstdio>
#include <functional>
#include <set>
#include <string>

namespace npuvp::tik {

class Console {
 public:
  // `print(name)` answers "p NAME" ("" when there is no such tensor or Scalar).
  Console(std::FILE* in, std::FILE* out) : in_(in), out_(out) {}

  // Before a statement at `loc` ("op.py:31"), `depth` levels deep in the tree, naming `what`.
  // Returns false when the user quit.
  bool before(const std::string& loc, int depth, const char* what,
              const std::function<std::string(const std::string&)>& print);

 private:
  enum class Mode { Step, Next, Continue };
  bool at_breakpoint(const std::string& loc) const;
  std::FILE* in_;
  std::FILE* out_;
  Mode mode_ = Mode::Step;
  int next_depth_ = 0;
  std::set<std::string> breaks_;  // "file:line" or "line"
};

}  // namespace npuvp::tik
