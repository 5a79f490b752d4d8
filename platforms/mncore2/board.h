// The MN-Core 2 board (SPEC.md §2): four Groups under a board bus, the PE array and MAUs as
// data-parallel units, one transfer engine per tree level, and the sequencer that issues
// the host-supplied instruction stream to all PEs at once (one PE instruction per step).
// Every number comes from the configuration (platforms/configs/mncore2.json, "mncore2.*").
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/mncore/blocks.h"
#include "models/mncore/isa.h"
#include "models/mncore/mau.h"
#include "models/mncore/pe_array.h"
#include "models/mncore/topology.h"
#include "models/mncore/transfer.h"
#include "tlm/router.h"
#include "tlm/stats.h"

namespace npuvp::mncore {

// What one program run did (deltas of the board's counters over the run).
struct BoardRun {
  std::string program;
  sc_core::sc_time sim_time;
  uint64_t cycles = 0;
  double wall_seconds = 0;
  uint64_t instructions = 0;
  uint64_t alu_instructions = 0;    // mov, arithmetic, logic, fcvt, compares
  uint64_t mmacc_instructions = 0;
  uint64_t mwload_instructions = 0;
  uint64_t transfer_instructions = 0;
  uint64_t pe_steps = 0;            // steps the PEs were busy (ALU, MAU, weight loads)
  uint64_t issue_cycles = 0;        // cycles the sequencer spent issuing instructions
  uint64_t stall_cycles = 0;        // cycles it waited for engines (wait, full queue)
  uint64_t macs = 0;                // MAU multiply-accumulates over all PEs
  struct Engine {
    uint64_t transfers = 0, busy_cycles = 0, bytes_down = 0, bytes_up = 0;
  };
  std::array<Engine, kEngines> engines{};

  // Sums the counts of two runs (for a phase made of several programs); the program name
  // and times are the caller's business.
  BoardRun& operator+=(const BoardRun& other);
};

class Board : public sc_core::sc_module {
 public:
  explicit Board(sc_core::sc_module_name name = "mncore2");
  ~Board() override;
  SC_HAS_PROCESS(Board);

  const Topology& topology() const { return t_; }
  const AddressMap& address_map() const { return map_; }
  PeArray& pes() { return pes_; }
  MauArray& mau() { return mau_; }
  Group& group(unsigned g) { return *groups_.at(g); }
  L2b& l2b(unsigned flat);
  L1b& l1b(unsigned flat);
  TransferEngine& engine(Engine e) { return *engines_.at(static_cast<unsigned>(e)); }
  Router& bus() { return bus_; }
  // Nodes that hold memory `m`: Groups for DRAM/PDM, L2Bs, L1Bs, or PEs.
  unsigned nodes(Mem m) const;

  // Host <-> PDM of Group 0 over PCIe; advances simulated time by the transfer's duration.
  void host_write(uint64_t pdm_lw_address, const void* data, uint64_t bytes);
  void host_read(uint64_t pdm_lw_address, void* data, uint64_t bytes);
  // Untimed backdoor into any node's memory through the board bus (test setup and checks).
  void debug_write(Mem m, unsigned node, uint64_t byte_offset, const void* data, uint64_t bytes);
  void debug_read(Mem m, unsigned node, uint64_t byte_offset, void* data, uint64_t bytes);
  // Board-bus byte address of `byte_offset` in node `node`'s memory `m`.
  uint64_t bus_address(Mem m, unsigned node, uint64_t byte_offset) const;

  // Runs the program to completion (every engine drained); raises on any fault.
  const BoardRun& run(const Program& program);
  const BoardRun& last_run() const { return last_; }

  // Ends elaboration (sc_start for zero time) if nothing has yet; the other calls do it too.
  void finish_elaboration();

  // Peak MAU throughput in FLOP/s (2 per multiply-accumulate): MABs x K x N per step.
  double peak_half_flops() const;

 private:
  void sequencer();
  void issue(const Program& p, const Instruction& in);
  void step(unsigned steps, const Instruction& in);
  void stall_until_idle(unsigned engine_mask);
  std::vector<Footprint> pe_footprint(const Instruction& in) const;
  void check_hazards(const Instruction& in, const std::vector<Footprint>& touches, int own_engine) const;
  void pcie(tlm::tlm_command command, uint64_t pdm_lw_address, void* data, uint64_t bytes);
  void debug(tlm::tlm_command command, Mem m, unsigned node, uint64_t byte_offset, void* data, uint64_t bytes);

  const Topology t_;
  const AddressMap map_;
  PeArray pes_;
  MauArray mau_;
  Router bus_;
  std::vector<std::unique_ptr<Group>> groups_;
  std::vector<std::unique_ptr<TransferEngine>> engines_;
  tlm_utils::simple_initiator_socket<Board> host_socket_;
  const sc_core::sc_time cycle_;

  const Program* program_ = nullptr;
  bool finished_ = true;
  bool pending_ = false;
  sc_core::sc_event start_;
  BoardRun last_;
  int track_ = -1;

  Counter& instructions_;
  Counter& alu_instructions_;
  Counter& mmacc_instructions_;
  Counter& mwload_instructions_;
  Counter& transfer_instructions_;
  Counter& pe_steps_;
  Counter& issue_cycles_;
  Counter& stall_cycles_;
  Counter& macs_;
  Counter& pcie_to_device_;
  Counter& pcie_to_host_;
};

}  // namespace npuvp::mncore
