// SIGINT, SIGTERM and SIGHUP during a run (npuvp's command line installs this; a library user's
// program keeps its own handling): the handler only records the signal; the run loops poll
// `interrupted()` between time slices and end the run with an error naming the simulated time
// reached, so the trace and statistics of what ran are written and closed. A second signal
// ends the process at once.
#pragma once

namespace npuvp {

// Installs the handlers for SIGINT, SIGTERM and SIGHUP.
void catch_interrupts();
// The signal that asked the run to stop, or 0.
int interrupted();
// Raises "interrupted by <signal> at simulated time <t>" if a signal came; for run loops.
void stop_if_interrupted(const char* block);
// The exit status a shell gives a process that signal ended: 128 + signal.
inline int interrupted_exit_status(int signal) { return 128 + signal; }

}  // namespace npuvp
