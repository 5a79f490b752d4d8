#include "tlm/progress.h"

#include <algorithm>
#include <cstdio>

namespace npuvp {

ProgressLine::ProgressLine(double after_seconds) : start_(clock::now()), next_(clock::time_point::max()) {
  // Longer than a year (or not a number) is never: the clock's count would overflow.
  if (after_seconds < 365 * 24 * 3600.0) {
    const std::chrono::duration<double> after(std::max(after_seconds, 0.0));
    next_ = start_ + std::chrono::duration_cast<clock::duration>(after);
  }
}

ProgressLine::~ProgressLine() {
  if (printed_) std::fprintf(stderr, "\n");
}

double ProgressLine::wall_seconds() const { return std::chrono::duration<double>(clock::now() - start_).count(); }

void ProgressLine::print(const std::string& what) {
  // Spaces after the text: the line it overwrites may have been longer.
  std::fprintf(stderr, "\rnpuvp: %s, wall %.1f s   ", what.c_str(), wall_seconds());
  std::fflush(stderr);
  printed_ = true;
  next_ = clock::now() + std::chrono::seconds(1);
}

}  // namespace npuvp
