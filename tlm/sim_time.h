// The current simulated time, read inline: sc_time_stamp() is a call into the SystemC
// library, and the models read the time on every instruction and every memory transaction.
#pragma once
#include <algorithm>
#include <systemc>

namespace npuvp {

inline sc_core::sc_time sim_time() { return sc_core::sc_get_curr_simcontext()->time_stamp(); }

// Runs the simulation for about `slice` (the loops that report progress or wait for a copy
// run in slices), stopping early when nothing is left to do. A slice reaches at least the
// next event: with nothing due before its end, sc_start would return without moving time,
// and the caller's loop would spin (at a slow clock the next event can be far ahead).
inline void run_slice(const sc_core::sc_time& slice) {
  sc_core::sc_start(std::max(slice, sc_core::sc_time_to_pending_activity()), sc_core::SC_EXIT_ON_STARVATION);
}

}  // namespace npuvp
