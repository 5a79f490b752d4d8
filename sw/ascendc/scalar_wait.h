// Waiting of a kernel's scalar thread for other cores (SyncAll, the Matmul client/server
// channel): one definition, shared by the files that wait.
#pragma once
#include <systemc>
#include "models/aicore/ai_core.h"

namespace npuvp::ascendc {

// Blocks `c` until `ready()`, looking again at each `event`. The pipes drain and the scalar
// unit catches up with SystemC time first, so scalar_wait_event yields nowhere but in its wait
// and no notification after the look is lost.
template <class Ready>
void wait_until(aicore::AiCore& c, const sc_core::sc_event& event, const char* state, Ready&& ready) {
  c.barrier_all();
  c.scalar_sync();
  while (!ready()) c.scalar_wait_event(event, state);
}

}  // namespace npuvp::ascendc
