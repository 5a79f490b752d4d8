// The current simulated time, read inline: sc_time_stamp() is a call into the SystemC
// library, and the models read the time on every instruction and every memory transaction.
#pragma once
#include <systemc>

namespace npuvp {

inline sc_core::sc_time sim_time() { return sc_core::sc_get_curr_simcontext()->time_stamp(); }

}  // namespace npuvp
