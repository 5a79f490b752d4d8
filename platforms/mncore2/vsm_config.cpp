#include "platforms/mncore2/vsm_config.h"

#include <utility>

#include "models/mncore/topology.h"
#include "platforms/host_memory.h"
#include "sw/runtime/device.h"
#include "tlm/config.h"
#include "tlm/log.h"

namespace npuvp::mncore {

namespace {

// Keys of mncore2.json that the step machine has no use for: each names why. A user who sets
// one gets an error rather than a run that ignored it.
struct NotApplicable {
  const char* prefix;
  const char* why;
};
constexpr NotApplicable kNotApplicable[] = {
    {"mncore2.pcie.", "the host's data enter by `d set` (no PCIe transfers in a VSM program)"},
    {"mncore2.dram.bandwidth_gbps", "MV transfers run at mncore2.data_engine.* (inside a Group) and mncore2.pdm.* (between Groups)"},
    {"mncore2.dram.latency_ns", "MV transfers start after mncore2.data_engine.latency_cycles (and mncore2.pdm.latency_cycles between Groups)"},
    {"mncore2.l2b.latency_cycles", "the next step reads an L2BM transfer's words (no latency); its time is mncore2.l2b.lw_per_cycle"},
    {"mncore2.l1b.latency_cycles", "the next step reads an L1BM transfer's words (no latency; LM writes follow the LM port rule); its time is mncore2.l1b.lw_per_cycle"},
    {"mncore2.engine.", "VSM transfers are synchronised by tags and `wait`, not queues"},
    {"mncore2.pe.mask_registers", "VSM has the 16 mask register entries $omr0..15"},
    {"mncore2.mau.", "the MAU's matrix registers are 16 x 16 in VSM"},
};

// A transfer rate the step machine counts in whole long words per cycle.
unsigned whole_rate(double value, const char* key) {
  if (value < 1 || value != double(unsigned(value))) {
    raise("config", "config key '{}' = {} does not fit VSM programs: transfers move whole long words, at least 1 per cycle",
          key, value);
  }
  return unsigned(value);
}

unsigned fixed(unsigned value, unsigned want, const char* key, const char* why) {
  if (value != want) raise("config", "config key '{}' = {} does not fit VSM programs: it must be {} ({})", key, value, want, why);
  return value;
}

// The step machine addresses L1BM, L2BM and PDM in 32-bit LW counts (the topology allows
// larger memories for the other models).
uint32_t addressable_lw(const Topology& t, Mem mem) {
  const uint64_t lw = t.mem[unsigned(mem)].size_lw;
  if (lw > UINT32_MAX) {
    raise("config", "config key 'mncore2.{}.size_lw' = {} does not fit VSM programs: they address at most 2^32 - 1 LW",
          mem_key(mem), lw);
  }
  return uint32_t(lw);
}

// Issue 29: the step machine holds every PE memory, L1BM, L2BM and PDM whole (DRAM only as
// written), so a size that would exhaust the host is refused before anything is allocated,
// naming the key behind the largest part.
platform::HostMemoryEstimate vsm_host_memory(const vsm::Shape& s) {
  const uint64_t pes = s.pes();
  const std::pair<const char*, uint64_t> parts[] = {
      {"mncore2.lm0.size_lw", pes * s.lm_lw * 2 * 8},  // LM0 and LM1
      {"mncore2.grf0.size_lw", pes * s.grf_lw * 2 * 8},
      {"mncore2.l1bm.size_lw", uint64_t(s.l1bs()) * s.l1bm_lw * 8},
      {"mncore2.l2bm.size_lw", uint64_t(s.l2bs()) * s.l2bm_lw * 8},
      {"mncore2.pdm.size_lw", uint64_t(s.groups) * s.pdm_lw * 8},
  };
  platform::HostMemoryEstimate e;
  e.bytes = platform::kHostBytesBase;
  for (const auto& [key, bytes] : parts) {
    e.bytes += bytes;
    if (bytes > e.driver_bytes) e.driver = key, e.driver_bytes = bytes;
  }
  return e;
}

}  // namespace

vsm::Shape vsm_shape_from_config(const std::string& platform, const std::vector<std::string>& sets) {
  Config& c = Config::global();
  c.load_file(resolve_platform(platform.empty() ? "mncore2" : platform));
  for (const auto& kv : sets) c.set_override(kv);
  const Topology t = Topology::from_config();  // declares and checks every mncore2.* key
  const uint64_t host_memory_limit =
      c.get<uint64_t>("sim.host_memory_limit", 0,
                      "host memory the model may take, in bytes (0: 3/4 of the machine's available memory)");
  c.check_unused();
  for (const auto& p : c.parameters()) {
    if (p.source != "command line") continue;
    for (const NotApplicable& n : kNotApplicable) {
      if (p.key.compare(0, std::char_traits<char>::length(n.prefix), n.prefix) == 0) {
        raise("config", "config key '{}' does not apply to VSM programs: {}", p.key, n.why);
      }
    }
  }
  for (unsigned m = 0; m < kMemories; ++m) {
    const Mem mem = static_cast<Mem>(m);
    const unsigned want = is_pe_memory(mem) ? 4 : 8;
    if (t.mem[m].unit_bytes != want) {
      raise("config", "config key 'mncore2.{}.address_unit' does not fit VSM programs: {} is addressed in {}", mem_key(mem),
            mem_name(mem), want == 4 ? "SW" : "LW");
    }
  }
  vsm::Shape s;
  s.groups = t.groups;
  s.l2b_per_group = t.l2b_per_group;
  s.l1b_per_l2b = t.l1b_per_l2b;
  // The L1BM and MAU instructions' layouts name a MAB's 4 PEs and an L1B's 16 MABs.
  s.mab_per_l1b = fixed(t.mab_per_l1b, 16, "mncore2.mab_per_l1b", "the L1BM instructions' layouts");
  s.pe_per_mab = fixed(t.pe_per_mab, 4, "mncore2.pe_per_mab", "the MAU's matrix registers and msl/msr");
  s.cycles_per_step = fixed(t.cycles_per_step, 4, "mncore2.pe.cycles_per_step", "a VSM step is 4 cycles");
  const uint64_t lm = t.mem[unsigned(Mem::LM0)].size_lw, grf = t.mem[unsigned(Mem::GRF0)].size_lw;
  if (t.mem[unsigned(Mem::LM1)].size_lw != lm || t.mem[unsigned(Mem::GRF1)].size_lw != grf) {
    raise("config", "VSM programs need LM0 and LM1 ({} and {} LW), GRF0 and GRF1 ({} and {} LW) of one size each", lm,
          t.mem[unsigned(Mem::LM1)].size_lw, grf, t.mem[unsigned(Mem::GRF1)].size_lw);
  }
  s.lm_lw = uint32_t(lm);
  s.grf_lw = uint32_t(grf);
  s.l1bm_lw = addressable_lw(t, Mem::L1BM);
  s.l2bm_lw = addressable_lw(t, Mem::L2BM);
  s.pdm_lw = addressable_lw(t, Mem::PDM);
  s.dram_lw = t.mem[unsigned(Mem::DRAM)].size_lw;
  s.clock_mhz = t.clock_mhz;
  s.mv_lw_per_cycle = whole_rate(t.dram_link.lw_per_cycle, "mncore2.data_engine.lw_per_cycle");
  s.mv_latency_cycles = t.dram_link.latency_cycles;
  s.mv_cross_lw_per_cycle = whole_rate(t.pdm_link.lw_per_cycle, "mncore2.pdm.lw_per_cycle");
  s.mv_cross_latency_cycles = t.pdm_link.latency_cycles;
  s.l2b_lw_per_cycle = whole_rate(t.l2b_link.lw_per_cycle, "mncore2.l2b.lw_per_cycle");
  s.l1b_lw_per_cycle = whole_rate(t.l1b_link.lw_per_cycle, "mncore2.l1b.lw_per_cycle");
  platform::require_host_memory(vsm_host_memory(s), host_memory_limit);
  return s;
}

}  // namespace npuvp::mncore
