// Tests that run a wrong kernel on purpose (a sync left out to show the wrong answer, a
// deadlock, an access the model stops with an error) make findings when the whole suite runs
// with NPUVP_CHECK=all (docs/sanitizer.md, "Tests"). Such a test calls expect_planted() after
// the kernel with the kinds its bug must produce: each must have been reported (when its
// check is on), and the findings are then forgotten, so the process exits 0 (the exit's leak
// check has run by then). Without the sanitizer it does nothing.
#pragma once
#include <cstring>
#include <initializer_list>
#include <gtest/gtest.h>
#include "models/check/sanitizer.h"

namespace npuvp::testing {

inline void expect_planted(std::initializer_list<const char*> kinds) {
  check::Sanitizer* san = check::Sanitizer::active();
  if (!san) return;
  // A launch that stopped with an error has not printed its findings yet: finish() does, and
  // runs the leak check (the test's GM is still allocated: forgotten below with the rest).
  san->finish();
  const check::Options& on = san->options();
  for (const char* kind : kinds) {
    const bool checked = std::strcmp(kind, "race") == 0            ? on.race
                         : std::strcmp(kind, "uninitialized") == 0 ? on.init
                         : std::strcmp(kind, "sync") == 0          ? on.sync
                                                                   : on.memory;
    if (checked) {
      EXPECT_GT(san->count(kind), 0u) << "the planted bug was not reported as " << kind;
    }
  }
  san->clear_findings();
}

}  // namespace npuvp::testing
