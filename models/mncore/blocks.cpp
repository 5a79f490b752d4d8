#include "models/mncore/blocks.h"

#include <fmt/format.h>

#include "tlm/log.h"

namespace npuvp::mncore {

namespace {

// On-chip memories: timing belongs to the transfer levels (links), so the targets add none.
Memory::Params on_chip(const Topology& t, Mem m) {
  Memory::Params p;
  p.size = t.mem[static_cast<unsigned>(m)].size_bytes();
  p.latency = sc_core::SC_ZERO_TIME;
  p.bandwidth = 0;
  return p;
}

Memory::Params dram_params(const Topology& t) {
  Memory::Params p;
  p.size = t.mem[static_cast<unsigned>(Mem::DRAM)].size_bytes();
  p.latency = sc_core::sc_time(t.dram_latency_ns, sc_core::SC_NS);
  p.bandwidth = t.dram_gbps * 1e9;
  return p;
}

}  // namespace

PeMemoryPort::PeMemoryPort(sc_core::sc_module_name name, PeArray& pes, const AddressMap& map, unsigned first_pe,
                           unsigned count)
    : sc_module(name),
      socket("socket"),
      pes_(pes),
      map_(map),
      first_pe_(first_pe),
      count_(count),
      bytes_read_(Stats::global().counter(std::string(this->name()) + ".bytes_read", "bytes",
                                          "bytes read from the PE memories of this L1B")),
      bytes_written_(Stats::global().counter(std::string(this->name()) + ".bytes_written", "bytes",
                                             "bytes written to the PE memories of this L1B")) {
  socket.register_b_transport(this, &PeMemoryPort::b_transport);
  socket.register_transport_dbg(this, &PeMemoryPort::transport_dbg);
}

bool PeMemoryPort::access(tlm::tlm_generic_payload& tx) {
  const uint64_t address = tx.get_address();
  const uint64_t length = tx.get_data_length();
  const uint64_t pe = address / map_.pe_window;
  const uint64_t within = address % map_.pe_window;
  const unsigned memory = static_cast<unsigned>(within / map_.pe_memory_window);
  const uint64_t offset = within % map_.pe_memory_window;
  if (pe >= count_ || memory >= kPeMemories) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  const Mem m = static_cast<Mem>(memory);
  const uint64_t size = pes_.topology().mem[memory].size_bytes();
  if (offset > size || length > size - offset) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (offset % 4 != 0 || length % 4 != 0 || tx.get_byte_enable_ptr() != nullptr) {
    tx.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);  // the port moves whole SW
    return false;
  }
  if (tx.is_read()) {
    pes_.read(m, first_pe_ + static_cast<unsigned>(pe), offset, tx.get_data_ptr(), length);
  } else if (tx.is_write()) {
    pes_.write(m, first_pe_ + static_cast<unsigned>(pe), offset, tx.get_data_ptr(), length);
  }
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void PeMemoryPort::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time&) {
  if (access(tx)) {
    if (tx.is_read()) bytes_read_ += tx.get_data_length();
    if (tx.is_write()) bytes_written_ += tx.get_data_length();
  }
}

unsigned PeMemoryPort::transport_dbg(tlm::tlm_generic_payload& tx) {
  return access(tx) ? tx.get_data_length() : 0;
}

Mab::Mab(sc_core::sc_module_name name, const Topology& t, unsigned first_pe) : sc_module(name) {
  for (unsigned q = 0; q < t.pe_per_mab; ++q) {
    pes.push_back(std::make_unique<Pe>(fmt::format("pe{}", q).c_str(), first_pe + q));
  }
}

L1b::L1b(sc_core::sc_module_name name, const Topology& t, const AddressMap& map, PeArray& pes, unsigned first_pe)
    : sc_module(name),
      bus("bus"),
      l1bm("l1bm", on_chip(t, Mem::L1BM)),
      pe_port("pe_port", pes, map, first_pe, t.pes_per_l1b()) {
  for (unsigned m = 0; m < t.mab_per_l1b; ++m) {
    mabs.push_back(std::make_unique<Mab>(fmt::format("mab{}", m).c_str(), t, first_pe + m * t.pe_per_mab));
  }
  bus.initiator_socket.bind(l1bm.socket);
  bus.initiator_socket.bind(pe_port.socket);
  bus.map("l1bm", 0, l1bm.size(), 0);
  bus.map("pe", map.l1b_children, uint64_t(t.pes_per_l1b()) * map.pe_window, 1);
}

L2b::L2b(sc_core::sc_module_name name, const Topology& t, const AddressMap& map, PeArray& pes, unsigned first_pe)
    : sc_module(name), bus("bus"), l2bm("l2bm", on_chip(t, Mem::L2BM)) {
  bus.initiator_socket.bind(l2bm.socket);
  bus.map("l2bm", 0, l2bm.size(), 0);
  for (unsigned j = 0; j < t.l1b_per_l2b; ++j) {
    l1bs.push_back(std::make_unique<L1b>(fmt::format("l1b{}", j).c_str(), t, map, pes, first_pe + j * t.pes_per_l1b()));
    bus.initiator_socket.bind(l1bs.back()->bus.target_socket);
    bus.map(fmt::format("l1b{}", j), map.l2b_children + j * map.l1b_window, map.l1b_window, j + 1);
  }
}

Group::Group(sc_core::sc_module_name name, const Topology& t, const AddressMap& map, PeArray& pes, unsigned first_pe)
    : sc_module(name),
      bus("bus"),
      dram("dram", dram_params(t)),
      pdm("pdm", on_chip(t, Mem::PDM)) {
  bus.initiator_socket.bind(dram.socket);
  bus.initiator_socket.bind(pdm.socket);
  bus.map("dram", 0, dram.size(), 0);
  bus.map("pdm", map.group_pdm, pdm.size(), 1);
  const unsigned pes_per_l2b = t.l1b_per_l2b * t.pes_per_l1b();
  for (unsigned j = 0; j < t.l2b_per_group; ++j) {
    l2bs.push_back(std::make_unique<L2b>(fmt::format("l2b{}", j).c_str(), t, map, pes, first_pe + j * pes_per_l2b));
    bus.initiator_socket.bind(l2bs.back()->bus.target_socket);
    bus.map(fmt::format("l2b{}", j), map.group_children + j * map.l2b_window, map.l2b_window, j + 2);
  }
}

}  // namespace npuvp::mncore
