// Transfer engines: one per tree level (PDM <-> DRAM at the top, each Group's Data Engine
// for DRAM <-> L2BM, each L2B's port for L2BM <-> L1BM, each L1B's port for L1BM <-> PE
// memories). All nodes of a level execute a transfer in lockstep (SIMD), so one engine
// models them all: it walks every parent node and moves its blocks over the board bus with
// b_transport, and charges the time of the slowest node.
//
// Semantics (docs/mncore2-isa.md, "Transfers"): data moves when the transfer starts; the
// engine is then busy for its duration. The board's hazard check rejects any program that
// could tell the difference (touching a range an unfinished transfer reads or writes).
// Timing per node: latency + ceil(link LW / LW per cycle), or the memory's own time if longer
// (DRAM bandwidth and latency come back through b_transport).
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/mncore/isa.h"
#include "models/mncore/topology.h"
#include "tlm/stats.h"

namespace npuvp::mncore {

// A byte range every node of one memory kind has touched by an instruction (SIMD: the
// same range in every node).
struct Footprint {
  Mem mem;
  uint64_t begin, end;  // bytes within one node's memory
  bool write;
};
bool conflicts(const Footprint& a, const Footprint& b);

struct TransferJob {
  const Program* program = nullptr;
  const Instruction* instruction = nullptr;
  std::vector<Footprint> footprint;
  sc_core::sc_time issued;
};

class TransferEngine : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<TransferEngine> socket;  // to the board bus

  TransferEngine(sc_core::sc_module_name name, Engine kind, const Topology& t, const AddressMap& map);
  SC_HAS_PROCESS(TransferEngine);

  Engine engine_kind() const { return kind_; }
  // Checks a transfer's addresses against the capacities and alignment and returns what it
  // touches; throws PeFault with the reason.
  std::vector<Footprint> plan(const Instruction& in) const;

  bool full() const { return queue_.size() >= depth_; }
  bool idle() const { return queue_.empty() && !running_; }
  void push(TransferJob job);
  // Notified whenever a job starts or finishes.
  const sc_core::sc_event& changed() const { return changed_; }
  // Every queued or running job, oldest first.
  void for_each_in_flight(const std::function<void(const TransferJob&, const sc_core::sc_time& busy_until)>& f) const;

  // Cycles a transfer occupies its link per parent node (without memory time): for tests
  // and for the documentation's timing formula.
  uint64_t link_cycles(const Instruction& in) const;

 private:
  struct Level;  // the shape of the tree level this engine moves across
  Level level(const Instruction& in) const;
  void thread();
  sc_core::sc_time move(const TransferJob& job);
  uint64_t address(Mem m, unsigned node, uint64_t byte_offset) const;
  sc_core::sc_time transact(tlm::tlm_command command, uint64_t address, uint8_t* data, uint64_t bytes,
                            const TransferJob& job);

  const Engine kind_;
  const Topology t_;
  const AddressMap map_;
  const LinkSpec link_;
  const unsigned depth_;
  std::deque<TransferJob> queue_;
  std::optional<TransferJob> running_;
  sc_core::sc_time running_until_;
  sc_core::sc_event pushed_, changed_;
  int track_ = -1;
  Counter& transfers_;
  Counter& busy_cycles_;
  Counter& bytes_down_;
  Counter& bytes_up_;
};

}  // namespace npuvp::mncore
