// Scaffolding for unit tests of memory-system blocks: a TLM initiator whose `script` runs in
// its SC_THREAD and reaches the target through `socket`, and the pieces every test bench of
// blocks needs.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include "tlm/extensions.h"
#include "tlm/memory.h"
#include "tlm/stats.h"

namespace npuvp::testing {

struct Initiator : sc_core::sc_module {
  SC_HAS_PROCESS(Initiator);
  tlm_utils::simple_initiator_socket<Initiator> socket;
  std::function<void(Initiator&)> script;

  explicit Initiator(sc_core::sc_module_name name) : sc_module(name), socket("socket") { SC_THREAD(run); }
  void run() {
    if (script) script(*this);
  }

  // One b_transport; `delay` is in and out.
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t address, void* data, unsigned length,
                                  sc_core::sc_time& delay) {
    tlm::tlm_generic_payload tx;
    prepare(tx, cmd, address, static_cast<unsigned char*>(data), length);
    socket->b_transport(tx, delay);
    return tx.get_response_status();
  }
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t address, void* data, unsigned length) {
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    return access(cmd, address, data, length, delay);
  }
  // A timing-only span-list transaction (tlm/extensions.h) from initiator `id`; `bounds`,
  // if given, is the range it claims holds every span (SpanListExtension::bounded).
  tlm::tlm_response_status spans(tlm::tlm_command cmd, const std::vector<AddressSpan>& list, sc_core::sc_time& delay,
                                 int id = 0, const AddressSpan* bounds = nullptr) {
    SpanListExtension ext;
    ext.spans = list;
    if (bounds) {
      ext.bounded = true;
      ext.low = bounds->address;
      ext.high = bounds->address + bounds->length;
    }
    InitiatorExtension who(id, -1, /*data=*/false);
    tlm::tlm_generic_payload tx;
    prepare(tx, cmd, list.front().address, nullptr, ext.bytes());
    tx.set_extension(&ext);
    tx.set_extension(&who);
    socket->b_transport(tx, delay);
    tx.clear_extension(&ext);
    tx.clear_extension(&who);
    return tx.get_response_status();
  }
  unsigned debug(tlm::tlm_command cmd, uint64_t address, void* data, unsigned length) {
    tlm::tlm_generic_payload tx;
    prepare(tx, cmd, address, static_cast<unsigned char*>(data), length);
    return socket->transport_dbg(tx);
  }
};

// A test bench's first member: it clears the statistics before the blocks after it register
// their counters (clearing later would leave them holding dead counters).
struct FreshStats {
  FreshStats() { Stats::global().clear(); }
};

// A backing memory that takes no time, so a bench measures only the block under test.
inline Memory::Params untimed_memory(uint64_t size) {
  Memory::Params p;
  p.size = size;
  p.latency = sc_core::SC_ZERO_TIME;
  return p;
}

}  // namespace npuvp::testing
