#include "models/mncore/topology.h"

#include <algorithm>
#include <fmt/format.h>

#include "tlm/config.h"
#include "tlm/log.h"

namespace npuvp::mncore {

namespace {

constexpr const char* kBlock = "config";

struct MemoryDefault {
  Mem mem;
  const char* key;   // mncore2.<key>.size_lw / .address_unit
  uint64_t size_lw;
  const char* unit;
  const char* what;
};

// SPEC.md §2 capacities and address units.
constexpr MemoryDefault kMemoryDefaults[] = {
    {Mem::LM0, "lm0", 2048, "SW", "LM0 (local memory side 0) of each PE"},
    {Mem::LM1, "lm1", 2048, "SW", "LM1 (local memory side 1) of each PE"},
    {Mem::GRF0, "grf0", 256, "SW", "GRF0 (register file side 0) of each PE"},
    {Mem::GRF1, "grf1", 256, "SW", "GRF1 (register file side 1) of each PE"},
    {Mem::L1BM, "l1bm", 8192, "LW", "L1BM of each L1B"},
    {Mem::L2BM, "l2bm", 32768, "LW", "L2BM of each L2B"},
    {Mem::DRAM, "dram", 512ull << 20, "LW", "DRAM of each Group (4 GiB)"},
    {Mem::PDM, "pdm", 512ull << 10, "LW", "PDM of each Group (4 MiB)"},
};

// A count of units: at least one, at most `limit`.
unsigned count(const char* key, unsigned fallback, const char* what, unsigned limit) {
  return Config::global().get_in<unsigned>(key, fallback, 1u, limit, what);
}

LinkSpec link(const std::string& prefix, const LinkSpec& fallback, const std::string& what) {
  LinkSpec s;
  s.lw_per_cycle = Config::global().get_in(prefix + ".lw_per_cycle", fallback.lw_per_cycle, Config::kPerCycle,
                                           "LW per cycle through " + what + ", each direction");
  s.latency_cycles = Config::global().get_in<unsigned>(prefix + ".latency_cycles", fallback.latency_cycles, 0u,
                                                       unsigned(Config::kMaxCycles),
                                                       "fixed cycles every transfer over " + what + " costs");
  return s;
}

}  // namespace

const char* mem_name(Mem m) {
  static const char* const names[] = {"LM0", "LM1", "GRF0", "GRF1", "L1BM", "L2BM", "DRAM", "PDM"};
  return names[static_cast<unsigned>(m)];
}

const char* mem_key(Mem m) {
  for (const MemoryDefault& d : kMemoryDefaults) {
    if (d.mem == m) return d.key;
  }
  return "?";
}

const char* mem_operand(Mem m) {
  static const char* const names[] = {"m", "n", "r", "s", "lb", "lc", "d", "p"};
  return names[static_cast<unsigned>(m)];
}

Topology Topology::from_config() {
  Config& c = Config::global();
  Topology t;
  t.groups = count("mncore2.groups", t.groups, "Groups on the board", 64);
  t.l2b_per_group = count("mncore2.l2b_per_group", t.l2b_per_group, "L2Bs in each Group", 64);
  t.l1b_per_l2b = count("mncore2.l1b_per_l2b", t.l1b_per_l2b, "L1Bs in each L2B", 64);
  t.mab_per_l1b = count("mncore2.mab_per_l1b", t.mab_per_l1b, "MABs in each L1B", 256);
  t.pe_per_mab = count("mncore2.pe_per_mab", t.pe_per_mab, "PEs in each MAB", 64);
  if (t.pes() > (1u << 20)) raise(kBlock, "mncore2: {} PEs is more than the model's limit of 2^20", t.pes());

  for (const MemoryDefault& d : kMemoryDefaults) {
    MemorySpec& m = t.mem[static_cast<unsigned>(d.mem)];
    const std::string prefix = std::string("mncore2.") + d.key;
    m.size_lw = c.get<uint64_t>(prefix + ".size_lw", d.size_lw, std::string("capacity in LW of the ") + d.what);
    if (m.size_lw == 0) raise(kBlock, "config key '{}.size_lw' must be positive", prefix);
    // Sanity limits: a PE memory is held for every PE; a transfer block must fit a TLM payload.
    const uint64_t limit = is_pe_memory(d.mem) ? (1ull << 20) : (1ull << 33);
    if (m.size_lw > limit) {
      raise(kBlock, "config key '{}.size_lw': {} LW is more than the model's limit of {} LW", prefix, m.size_lw, limit);
    }
    const std::string unit = c.get<std::string>(prefix + ".address_unit", d.unit,
                                                std::string("unit of addresses in the ") + d.what + ": LW or SW");
    if (unit == "LW") {
      m.unit_bytes = 8;
    } else if (unit == "SW") {
      m.unit_bytes = 4;
    } else {
      raise(kBlock, "config key '{}.address_unit': expected \"LW\" or \"SW\", got \"{}\"", prefix, unit);
    }
  }

  t.clock_mhz = c.get_in("mncore2.clock_mhz", t.clock_mhz, Config::kClockMhz, "board clock in MHz");
  t.cycles_per_step = count("mncore2.pe.cycles_per_step", t.cycles_per_step,
                            "cycles of one PE instruction step", 1024);
  t.mask_registers = count("mncore2.pe.mask_registers", t.mask_registers, "per-PE mask registers ($mk0..)", 64);
  t.mau_k = count("mncore2.mau.k", t.mau_k, "MAU: halves of A per PE per mmacc (the dot-product length)", 1024);
  t.mau_n = count("mncore2.mau.n", t.mau_n, "MAU: output columns per PE per mmacc", 1024);
  t.mau_wload_steps = count("mncore2.mau.wload_steps", t.mau_wload_steps,
                            "steps one mwload (weight-register fill) takes", 1024);
  if (t.mau_k % t.pe_per_mab != 0) {
    raise(kBlock, "mncore2.mau.k ({}) must be a multiple of mncore2.pe_per_mab ({}): each PE fills an equal share "
          "of the weight rows", t.mau_k, t.pe_per_mab);
  }
  if (t.mau_k % 4 != 0 || t.mau_n % 2 != 0) {
    raise(kBlock, "mncore2.mau.k ({}) must be a multiple of 4 and mncore2.mau.n ({}) of 2: operands are whole LW",
          t.mau_k, t.mau_n);
  }

  t.pcie_gbps = c.get_in("mncore2.pcie.bandwidth_gbps", t.pcie_gbps, Config::kGbps,
                         "host <-> PDM (Group 0) over PCIe, GB/s");
  t.pcie_latency_ns = c.get_in("mncore2.pcie.latency_ns", t.pcie_latency_ns, Config::kLatencyNs,
                               "PCIe transfer latency in ns");
  // VSM (docs/mncore2-isa.md): MV words between Groups take pdm.*, inside one data_engine.*;
  // l2b.* and l1b.* time the L2BM and L1BM instructions (l2bmd, l1bmd: 64 LW per cycle).
  t.pdm_link = link("mncore2.pdm", {8, 32}, "the paths between Groups (PDM/DRAM of one Group <-> another Group)");
  t.dram_link = link("mncore2.data_engine", {16, 32}, "each Group's Data Engine (DRAM <-> L2BM)");
  t.l2b_link = link("mncore2.l2b", {64, 8}, "each L2B's port (L2BM <-> L1BM)");
  t.l1b_link = link("mncore2.l1b", {64, 4}, "each L1B's port (L1BM <-> PE memories)");
  t.dram_gbps = c.get_in("mncore2.dram.bandwidth_gbps", t.dram_gbps, Config::kGbps, "each Group's DRAM bandwidth, GB/s");
  t.dram_latency_ns = c.get_in("mncore2.dram.latency_ns", t.dram_latency_ns, Config::kLatencyNs,
                               "DRAM access latency in ns");
  t.engine_queue_depth = count("mncore2.engine.queue_depth", t.engine_queue_depth,
                               "transfers each engine queues before the sequencer stalls", 4096);
  return t;
}

Topology::PeId Topology::pe_id(unsigned pe) const {
  PeId id;
  id.pe = pe % pe_per_mab;
  unsigned rest = pe / pe_per_mab;
  id.mab = rest % mab_per_l1b;
  rest /= mab_per_l1b;
  id.l1b = rest % l1b_per_l2b;
  rest /= l1b_per_l2b;
  id.l2b = rest % l2b_per_group;
  id.group = rest / l2b_per_group;
  return id;
}

std::string Topology::describe() const {
  return fmt::format("{} groups x {} L2B x {} L1B x {} MAB x {} PE = {} PEs", groups, l2b_per_group, l1b_per_l2b,
                     mab_per_l1b, pe_per_mab, pes());
}

uint64_t next_power_of_two(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

AddressMap::AddressMap(const Topology& t) {
  uint64_t largest_pe = 0;
  for (unsigned m = 0; m < kPeMemories; ++m) largest_pe = std::max(largest_pe, t.mem[m].size_bytes());
  pe_memory_window = next_power_of_two(largest_pe);
  pe_window = kPeMemories * pe_memory_window;
  const auto size = [&](Mem m) { return t.mem[static_cast<unsigned>(m)].size_bytes(); };
  // Each window: [own memory | children], both halves a power of two.
  l1b_children = next_power_of_two(std::max(size(Mem::L1BM), uint64_t(t.pes_per_l1b()) * pe_window));
  l1b_window = 2 * l1b_children;
  l2b_children = next_power_of_two(std::max(size(Mem::L2BM), uint64_t(t.l1b_per_l2b) * l1b_window));
  l2b_window = 2 * l2b_children;
  const uint64_t slot =
      next_power_of_two(std::max({size(Mem::DRAM), size(Mem::PDM), uint64_t(t.l2b_per_group) * l2b_window}));
  group_pdm = slot;
  group_children = 2 * slot;
  group_window = 4 * slot;
}

uint64_t AddressMap::l1b_base(unsigned l2_flat, unsigned l1, const Topology& t) const {
  return l2b_base(l2_flat / t.l2b_per_group, l2_flat % t.l2b_per_group) + l2b_children + l1 * l1b_window;
}

uint64_t AddressMap::pe_base(unsigned l1_flat, unsigned pe_in_l1b, const Topology& t) const {
  return l1b_base(l1_flat / t.l1b_per_l2b, l1_flat % t.l1b_per_l2b, t) + l1b_children + pe_in_l1b * pe_window;
}

}  // namespace npuvp::mncore
