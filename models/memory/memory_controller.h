// An HBM/DDR memory controller (a CHI subordinate node): `channels` channels, each a
// bandwidth resource with an access latency, chosen by address interleave. The bytes live in
// one backing memory shared by every controller of the SoC (`downstream`, addressed from 0).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include "models/interconnect/address_hash.h"
#include "tlm/bandwidth.h"
#include "tlm/stats.h"

namespace npuvp::memory {

class MemoryController : public sc_core::sc_module {
 public:
  struct Params {
    unsigned channels = 8;
    double channel_gbps = 37.5;        // GB/s (10^9 B/s) per channel
    double latency_ns = 100;           // access latency on top of the transfer
    uint64_t base = 0;                 // device address of the memory's byte 0
    uint64_t interleave_bytes = 256;   // consecutive bytes per controller, then per channel
    unsigned controllers = 1;          // how many controllers share the address space
  };

  tlm_utils::simple_target_socket<MemoryController> upstream;
  tlm_utils::simple_initiator_socket<MemoryController> downstream;

  MemoryController(sc_core::sc_module_name name, const Params& params);

  const Params& params() const { return params_; }
  double peak_bytes_per_second() const { return params_.channel_gbps * 1e9 * params_.channels; }
  uint64_t bytes() const { return bytes_read_.value + bytes_written_.value; }
  // When the last transfer booked on any channel ends (posted write-backs and fills may end
  // after the kernel that caused them).
  sc_core::sc_time busy_until() const {
    sc_core::sc_time end = sc_core::SC_ZERO_TIME;
    for (const BandwidthResource& c : channels_) end = std::max(end, c.next_free());
    return end;
  }

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  unsigned transport_dbg(tlm::tlm_generic_payload& tx);
  void trace_bandwidth(const sc_core::sc_time& at, uint64_t bytes);

  Params params_;
  sc_core::sc_time latency_;
  std::vector<BandwidthResource> channels_;
  Counter& bytes_read_;
  Counter& bytes_written_;
  std::vector<Counter*> channel_bytes_;
  std::vector<uint64_t> channel_share_;  // bytes per channel of the transaction under way (0 between them)
  std::vector<unsigned> touched_;         // the channels it reaches, in the order reached (a few of many)
  // The address split, fixed by the parameters.
  interconnect::Divisor interleave_, controllers_;
  interconnect::HashedTargets channel_of_;
  // Counter track in the trace: bytes per window, emitted when a window closes.
  sc_core::sc_time window_start_ = sc_core::SC_ZERO_TIME;
  uint64_t window_bytes_ = 0;
};

}  // namespace npuvp::memory
