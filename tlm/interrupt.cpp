#include "tlm/interrupt.h"

#include <signal.h>

#include <atomic>
#include <cstring>
#include "tlm/log.h"

namespace npuvp {

namespace {

std::atomic<int> g_signal{0};

void on_interrupt(int signal) {
  g_signal.store(signal);
  // The next one is not caught: a run that does not reach a poll can still be stopped.
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(signal, &action, nullptr);
}

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return "a signal";
  }
}

}  // namespace

void catch_interrupts() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) sigaction(signal, &action, nullptr);
}

int interrupted() { return g_signal.load(std::memory_order_relaxed); }

void stop_if_interrupted(const char* block) {
  if (const int signal = interrupted()) {
    raise(block, "interrupted by {}: the run stopped at simulated time {}; the trace and statistics hold what "
          "ran until then", signal_name(signal), sim_time_text());
  }
}

}  // namespace npuvp
