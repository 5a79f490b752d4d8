#include "sw/runtime/mncore2_host.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "models/mncore/assembler.h"
#include "tlm/log.h"
#include "tlm/stats.h"

namespace npuvp::mncore {

namespace {
uint64_t pcie_bytes() {
  return Stats::global().value("mncore2.pcie.bytes_to_device") + Stats::global().value("mncore2.pcie.bytes_to_host");
}
}  // namespace

void Host::begin(const std::string& phase) {
  if (open_) end();
  phases_.push_back(Phase{phase, 0, {}, 0});
  phase_start_ = sc_core::sc_time_stamp();
  pcie_at_start_ = pcie_bytes();
  open_ = true;
}

void Host::end() {
  if (!open_) return;
  Phase& p = phases_.back();
  const sc_core::sc_time cycle(board_.topology().cycle_ns(), sc_core::SC_NS);
  p.cycles = static_cast<uint64_t>(std::llround((sc_core::sc_time_stamp() - phase_start_) / cycle));
  p.pcie_bytes = pcie_bytes() - pcie_at_start_;
  open_ = false;
}

const BoardRun& Host::run(const std::string& text, const std::string& name) {
  const BoardRun& r = board_.run(assemble_or_raise(text, name));
  if (open_) phases_.back().work += r;
  return r;
}

uint64_t Host::pdm_chunk(uint64_t blocks) const {
  const MemorySpec& pdm = board_.topology().mem[static_cast<unsigned>(Mem::PDM)];
  const uint64_t chunk = pdm.size_bytes() / 8 / blocks;
  if (chunk == 0) {
    raise("host", "Group 0's PDM ({} LW) cannot stage one LW for each of {} Groups", pdm.size_lw, blocks);
  }
  return chunk;
}

void Host::to_dram(const std::vector<std::vector<uint64_t>>& per_group, uint64_t dram_lw) {
  const unsigned groups = board_.topology().groups;
  if (per_group.size() != groups) raise("host", "to_dram: {} blocks for {} Groups", per_group.size(), groups);
  const uint64_t count = per_group.front().size();
  for (const auto& g : per_group) {
    if (g.size() != count) raise("host", "to_dram: every Group needs the same number of words");
  }
  const uint64_t chunk = pdm_chunk(groups);
  for (uint64_t done = 0; done < count; done += chunk) {
    const uint64_t n = std::min(chunk, count - done);
    for (unsigned g = 0; g < groups; ++g) board_.host_write(g * n, per_group[g].data() + done, n * 8);
    run(fmt::format("dist $p0 $d{} {}\nwait pdm\n", dram_lw + done, n), "host.to_dram");
  }
}

void Host::to_every_dram(const std::vector<uint64_t>& words, uint64_t dram_lw) {
  const uint64_t chunk = pdm_chunk(1);
  for (uint64_t done = 0; done < words.size(); done += chunk) {
    const uint64_t n = std::min<uint64_t>(chunk, words.size() - done);
    board_.host_write(0, words.data() + done, n * 8);
    run(fmt::format("bcast $p0 $d{} {}\nwait pdm\n", dram_lw + done, n), "host.to_every_dram");
  }
}

std::vector<std::vector<uint64_t>> Host::from_dram(uint64_t dram_lw, uint64_t count) {
  const unsigned groups = board_.topology().groups;
  std::vector<std::vector<uint64_t>> out(groups, std::vector<uint64_t>(count));
  const uint64_t chunk = pdm_chunk(groups);
  for (uint64_t done = 0; done < count; done += chunk) {
    const uint64_t n = std::min(chunk, count - done);
    run(fmt::format("coll $d{} $p0 {}\nwait pdm\n", dram_lw + done, n), "host.from_dram");
    for (unsigned g = 0; g < groups; ++g) board_.host_read(g * n, out[g].data() + done, n * 8);
  }
  return out;
}

std::vector<uint64_t> pack_halves(const std::vector<uint16_t>& halves) {
  std::vector<uint64_t> words((halves.size() + 3) / 4, 0);
  for (size_t i = 0; i < halves.size(); ++i) words[i / 4] |= uint64_t(halves[i]) << (16 * (i % 4));
  return words;
}

std::vector<uint16_t> unpack_halves(const std::vector<uint64_t>& words) {
  std::vector<uint16_t> halves(words.size() * 4);
  for (size_t i = 0; i < halves.size(); ++i) halves[i] = static_cast<uint16_t>(words[i / 4] >> (16 * (i % 4)));
  return halves;
}

std::vector<uint64_t> pack_singles(const std::vector<uint32_t>& singles) {
  std::vector<uint64_t> words((singles.size() + 1) / 2, 0);
  for (size_t i = 0; i < singles.size(); ++i) words[i / 2] |= uint64_t(singles[i]) << (32 * (i % 2));
  return words;
}

std::vector<uint32_t> unpack_singles(const std::vector<uint64_t>& words) {
  std::vector<uint32_t> singles(words.size() * 2);
  for (size_t i = 0; i < singles.size(); ++i) singles[i] = static_cast<uint32_t>(words[i / 2] >> (32 * (i % 2)));
  return singles;
}

}  // namespace npuvp::mncore
