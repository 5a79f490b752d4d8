// A memory target (GM, DRAM, PDM...). The backing store is one lazily-committed anonymous
// mapping: a 64 GiB memory costs nothing until its pages are touched, and it is contiguous,
// so DMI hands out the whole range and host code can read and write it directly.
#pragma once
#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include "tlm/bandwidth.h"
#include "tlm/host_mapping.h"
#include "tlm/stats.h"

namespace npuvp {

class Memory : public sc_core::sc_module {
 public:
  struct Params {
    uint64_t size = 1ull << 30;
    sc_core::sc_time latency = sc_core::sc_time(100, sc_core::SC_NS);  // per access
    double bandwidth = 0;  // bytes per second; 0 = unlimited
    bool dmi = true;
    bool huge_pages = false;  // back it with transparent huge pages (tlm/host_mapping.h)
  };

  tlm_utils::simple_target_socket<Memory> socket;

  Memory(sc_core::sc_module_name name, const Params& params);

  uint64_t size() const { return params_.size; }
  uint8_t* data() { return storage_.data(); }  // host view of the whole memory
  const Params& params() const { return params_; }
  BandwidthResource& port() { return port_; }

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  unsigned transport_dbg(tlm::tlm_generic_payload& tx);
  // Checks range and byte enables; sets the response status; true if the access may go on.
  bool check(tlm::tlm_generic_payload& tx);

  Params params_;
  HostMapping storage_;
  BandwidthResource port_;
  Counter& bytes_read_;
  Counter& bytes_written_;
  Counter& transactions_;
};

}  // namespace npuvp
