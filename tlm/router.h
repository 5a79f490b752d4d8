// Address router: initiators bind to `target_socket`, targets to `initiator_socket`; each
// mapped range forwards with the address made relative to the range's base. Unmapped
// addresses get TLM_ADDRESS_ERROR_RESPONSE. DMI requests and invalidations are forwarded with
// the address translated both ways; transport_dbg is forwarded too.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

namespace npuvp {

class Router : public sc_core::sc_module {
 public:
  struct Range {
    std::string name;
    uint64_t base;
    uint64_t size;
    unsigned target;  // index of the initiator_socket binding, in binding order
  };

  tlm_utils::multi_passthrough_target_socket<Router> target_socket;
  tlm_utils::multi_passthrough_initiator_socket<Router> initiator_socket;

  explicit Router(sc_core::sc_module_name name);

  // Maps [base, base+size) to the target bound as number `target`; overlapping ranges are an
  // error naming both.
  void map(const std::string& name, uint64_t base, uint64_t size, unsigned target);
  const std::vector<Range>& ranges() const { return ranges_; }
  // The range holding `address`, or nullptr.
  const Range* decode(uint64_t address) const;

 private:
  void b_transport(int from, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(int from, tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  unsigned transport_dbg(int from, tlm::tlm_generic_payload& tx);
  void invalidate_direct_mem_ptr(int target, sc_dt::uint64 start, sc_dt::uint64 end);

  std::vector<Range> ranges_;
};

}  // namespace npuvp
