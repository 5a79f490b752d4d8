// MN-Core 2 board parameters (SPEC.md §2): the tree's fan-outs, every memory's capacity and
// address unit, the clock and the timing of each level. Read once from the configuration
// (keys "mncore2.*"); nothing here is a constant of the model.
#pragma once
#include <cstdint>
#include <string>

namespace npuvp::mncore {

// Every memory a program can name. The PE memories come first (they live in the PE array).
enum class Mem : uint8_t { LM0, LM1, GRF0, GRF1, L1BM, L2BM, DRAM, PDM };
inline constexpr unsigned kPeMemories = 4;
inline constexpr unsigned kMemories = 8;
inline bool is_pe_memory(Mem m) { return static_cast<unsigned>(m) < kPeMemories; }
const char* mem_name(Mem m);       // "LM0", "L1BM", ...
const char* mem_operand(Mem m);    // "m", "lb", "d", ... (the assembly spelling)
const char* mem_key(Mem m);        // "lm0", "pdm", ... (its keys: mncore2.<key>.size_lw)

// One memory kind: capacity and the unit its addresses count in.
struct MemorySpec {
  uint64_t size_lw = 0;      // capacity in LW (64-bit words)
  unsigned unit_bytes = 8;   // 8 = LW addressing, 4 = SW addressing
  uint64_t size_bytes() const { return size_lw * 8; }
  uint64_t size_units() const { return size_bytes() / unit_bytes; }
};

// Bandwidth and fixed latency of one transfer level (parent <-> children link).
struct LinkSpec {
  double lw_per_cycle = 16;      // LW per cycle through the parent's port, each direction
  unsigned latency_cycles = 0;   // fixed start-up cost of every transfer
};

struct Topology {
  // Fan-outs.
  unsigned groups = 4;
  unsigned l2b_per_group = 2;
  unsigned l1b_per_l2b = 8;
  unsigned mab_per_l1b = 16;
  unsigned pe_per_mab = 4;

  MemorySpec mem[kMemories];

  double clock_mhz = 750;
  unsigned cycles_per_step = 4;   // one PE instruction per step
  unsigned mask_registers = 4;

  // MAU: one mmacc per step multiplies a K-vector (per PE) by the MAB's K x N weight tile.
  unsigned mau_k = 16;
  unsigned mau_n = 16;
  unsigned mau_wload_steps = 4;   // steps for the PEs to fill the weight register

  // Transfer levels, root first.
  double pcie_gbps = 25;          // host <-> PDM of Group 0 (GB/s)
  double pcie_latency_ns = 1000;
  LinkSpec pdm_link;              // PDM(group 0) <-> DRAM of every group (top level)
  LinkSpec dram_link;             // DRAM <-> L2BM, per Group (the Data Engine)
  LinkSpec l2b_link;              // L2BM <-> L1BM, per L2B
  LinkSpec l1b_link;              // L1BM <-> PE memories, per L1B
  double dram_gbps = 128;         // each Group's DRAM (GB/s)
  double dram_latency_ns = 100;
  unsigned engine_queue_depth = 16;

  // Reads every "mncore2.*" key (declaring it with its SPEC default) and checks the values;
  // a bad value is an error naming the key.
  static Topology from_config();

  // Derived counts.
  unsigned l2bs() const { return groups * l2b_per_group; }
  unsigned l1bs() const { return l2bs() * l1b_per_l2b; }
  unsigned mabs() const { return l1bs() * mab_per_l1b; }
  unsigned pes() const { return mabs() * pe_per_mab; }
  unsigned pes_per_l1b() const { return mab_per_l1b * pe_per_mab; }
  double cycle_ns() const { return 1000.0 / clock_mhz; }

  // Where PE `pe` (flat index, Group-major) sits in the tree.
  struct PeId {
    unsigned group, l2b, l1b, mab, pe;  // each within its parent
  };
  PeId pe_id(unsigned pe) const;
  std::string describe() const;  // "4 groups x 2 L2B x 8 L1B x 16 MAB x 4 PE = 4096 PEs"
};

// Byte addresses of every memory on the board bus. Each level's window is a power of two
// holding its own memory and its children's windows, so the routers decode by range.
struct AddressMap {
  explicit AddressMap(const Topology& t);
  uint64_t pe_memory_window = 0;   // one PE memory (LM0, LM1, GRF0 or GRF1)
  uint64_t pe_window = 0;          // one PE: its four memories
  uint64_t l1b_window = 0, l1b_children = 0;    // children (PEs) start at l1b_children
  uint64_t l2b_window = 0, l2b_children = 0;
  uint64_t group_window = 0, group_pdm = 0, group_children = 0;

  uint64_t group_base(unsigned g) const { return g * group_window; }
  uint64_t l2b_base(unsigned g, unsigned l2) const { return group_base(g) + group_children + l2 * l2b_window; }
  uint64_t l1b_base(unsigned l2_flat, unsigned l1, const Topology& t) const;
  uint64_t pe_base(unsigned l1_flat, unsigned pe_in_l1b, const Topology& t) const;
  uint64_t board_size(const Topology& t) const { return t.groups * group_window; }
};

uint64_t next_power_of_two(uint64_t v);

}  // namespace npuvp::mncore
