// The MN-Core 2 tree as SystemC modules (SPEC.md §2): Group -> L2B -> L1B -> MAB -> PE.
// Each level owns its memory and a router (its "bus") that maps the memory and the
// children's buses, so a transaction from the board bus walks down the tree by address.
// PEs hold no state of their own: their memories are slices of the board's PeArray,
// reached over TLM through their L1B's PeMemoryPort.
#pragma once
#include <memory>
#include <vector>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "models/mncore/pe_array.h"
#include "models/mncore/topology.h"
#include "tlm/memory.h"
#include "tlm/router.h"
#include "tlm/stats.h"

namespace npuvp::mncore {

// The memories (LM0, LM1, GRF0, GRF1) of one L1B's PEs as a TLM target. Local address =
// pe * pe_window + memory * pe_memory_window + byte offset; whole SW only. No DMI: the
// words are spread over the structure-of-arrays, so every access copies.
class PeMemoryPort : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<PeMemoryPort> socket;
  PeMemoryPort(sc_core::sc_module_name name, PeArray& pes, const AddressMap& map, unsigned first_pe, unsigned count);

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& tx);
  bool access(tlm::tlm_generic_payload& tx);
  PeArray& pes_;
  const AddressMap map_;
  const unsigned first_pe_, count_;
  Counter& bytes_read_;
  Counter& bytes_written_;
};

// A PE: ALU, LM0/LM1, GRF0/GRF1. Its state lives in the PeArray at `index`.
class Pe : public sc_core::sc_module {
 public:
  Pe(sc_core::sc_module_name name, unsigned index) : sc_module(name), index_(index) {}
  unsigned index() const { return index_; }  // flat PE number on the board

 private:
  unsigned index_;
};

// A MAB: a MAU shared by its PEs (the MAU's state is in the board's MauArray).
class Mab : public sc_core::sc_module {
 public:
  Mab(sc_core::sc_module_name name, const Topology& t, unsigned first_pe);
  std::vector<std::unique_ptr<Pe>> pes;
};

class L1b : public sc_core::sc_module {
 public:
  L1b(sc_core::sc_module_name name, const Topology& t, const AddressMap& map, PeArray& pes, unsigned first_pe);
  Router bus;
  Memory l1bm;
  PeMemoryPort pe_port;
  std::vector<std::unique_ptr<Mab>> mabs;
};

class L2b : public sc_core::sc_module {
 public:
  L2b(sc_core::sc_module_name name, const Topology& t, const AddressMap& map, PeArray& pes, unsigned first_pe);
  Router bus;
  Memory l2bm;
  std::vector<std::unique_ptr<L1b>> l1bs;
};

// A Group: DRAM, PDM and two L2Bs; its Data Engine is modelled board-wide (the four act in
// lockstep) by the transfer engines, which reach this Group through its bus.
class Group : public sc_core::sc_module {
 public:
  Group(sc_core::sc_module_name name, const Topology& t, const AddressMap& map, PeArray& pes, unsigned first_pe);
  Router bus;
  Memory dram;
  Memory pdm;
  std::vector<std::unique_ptr<L2b>> l2bs;
};

}  // namespace npuvp::mncore
