// A progress line on stderr for work that runs long (a launch, a sample's reference check at
// a large --scale): silent for the first `after_seconds` of wall time (sim.progress_seconds),
// then rewritten in place at most once a second, and ended with a newline once the work is
// done. One mechanism for every long phase, so they all read alike:
//   npuvp: matmul_custom: 3/24 blocks done, simulated 399.971 us, wall 3.6 s
#pragma once
#include <chrono>
#include <string>

namespace npuvp {

class ProgressLine {
 public:
  explicit ProgressLine(double after_seconds);
  ~ProgressLine();  // ends the line, if one was printed
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Whether a line is due now (cheap: call it as often as the work allows).
  bool due() const { return clock::now() >= next_; }
  // Prints "npuvp: <what>, wall <s> s" over the previous line; the next is due in a second.
  void print(const std::string& what);
  // print(text()) if a line is due: `text` is formatted only then.
  template <class Text>
  void update(Text&& text) {
    if (due()) print(text());
  }
  // Once the work is done: if a line was printed, prints `text()` (the final state) over it,
  // so the last line shows where the work ended (100 %, every block), not where it was up to
  // a second before. `text` is only called then.
  template <class Text>
  void finish(Text&& text) {
    if (printed_) print(text());
  }

 private:
  using clock = std::chrono::steady_clock;
  double wall_seconds() const;
  clock::time_point start_, next_;
  bool printed_ = false;
};

}  // namespace npuvp
