#include "models/memory/cache_tags.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "tlm/log.h"

namespace npuvp::memory {

namespace {
bool power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }
}  // namespace

CacheTags::CacheTags(const Geometry& g, const char* block) : block_(block), geometry_(g) {
  if (!power_of_two(g.line_bytes) || g.line_bytes < 32) {
    raise(block, "line size {} B is not a power of two of at least 32 B", g.line_bytes);
  }
  if (g.ways < 1) raise(block, "a cache needs at least one way");
  const uint64_t lines = g.size / g.line_bytes;
  if (g.size % (uint64_t(g.line_bytes) * g.ways) != 0 || lines < g.ways || !power_of_two(lines / g.ways)) {
    raise(block, "size {} B with {} B lines and {} ways does not give a power-of-two number of sets",
          g.size, g.line_bytes, g.ways);
  }
  if (g.slices < 1 || g.interleave_lines < 1) raise(block, "slices and interleave lines must be at least 1");
  sets_ = static_cast<uint32_t>(lines / g.ways);
  while ((1u << line_shift_) < g.line_bytes) ++line_shift_;
  if (power_of_two(g.interleave_lines) && power_of_two(g.slices)) {
    run_shift_ = __builtin_ctzll(g.interleave_lines);
    stride_shift_ = run_shift_ + __builtin_ctzll(g.slices);
    run_mask_ = g.interleave_lines - 1;
  }
  first_.assign(size_t(sets_) * 2, 0);
  rest_.assign(size_t(sets_) * (g.ways - 1) * 2, 0);
}

void CacheTags::renormalise() {
  // LRU compares ages only within a set, so each set's ages are replaced by their ranks
  // (1 = oldest): the order is kept exactly, and the clock restarts above every rank.
  std::vector<std::pair<uint32_t, uint32_t>> order;  // (age, way)
  for (size_t set = 0; set < sets_; ++set) {
    order.clear();
    for (uint32_t w = 0; w < geometry_.ways && way(set, w)[0] != 0; ++w) order.emplace_back(way(set, w)[1] >> 1, w);
    std::sort(order.begin(), order.end());
    for (uint32_t rank = 0; rank < order.size(); ++rank) {
      uint32_t* entry = way(set, order[rank].second);
      entry[1] = ((rank + 1) << 1) | (entry[1] & 1);
    }
  }
  clock_ = geometry_.ways;
}

void CacheTags::beyond_tag_range(uint64_t address) const {
  raise(block_, "address 0x{:x} is beyond the tag range (2^32 lines)", address);
}

CacheTags::Access CacheTags::access_other_ways(size_t set, uint32_t tag, uint32_t dirty) {
  ++deep_lookups_;
  const uint32_t ways = geometry_.ways;
  uint32_t* entry = &first_[set * 2];  // way 0 (not `tag`, access() checked)
  uint32_t w = 0;
  if (entry[0] != 0) {
    // Ways 1.. of the set, (tag, meta) pairs one after another.
    uint32_t* rest = ways > 1 ? &rest_[set * (ways - 1) * 2] : nullptr;
    for (w = 1; w < ways; ++w) {
      entry = rest + (w - 1) * 2;
      if (entry[0] == tag) {
        entry[1] = (clock_ << 1) | (entry[1] & 1) | dirty;
        return Access{true, false, 0};
      }
      if (entry[0] == 0) break;  // the first invalid way: a miss, allocated here
    }
  }
  Access a;
  if (w == ways) {  // every way valid: the least recently used one goes
    w = 0;
    for (uint32_t v = 1; v < ways; ++v) {
      if ((way(set, v)[1] >> 1) < (way(set, w)[1] >> 1)) w = v;
    }
    const uint32_t* victim = way(set, w);
    if (victim[1] & 1) {
      a.evicted_dirty = true;
      a.victim_line = uint64_t(victim[0] - 1) << line_shift_;
    }
    entry = way(set, w);
  }
  entry[0] = tag;
  entry[1] = (clock_ << 1) | dirty;
  return a;
}

bool CacheTags::contains(uint64_t address) const {
  const uint64_t line = address >> line_shift_;
  if (line >= kInvalid) return false;
  const size_t set = set_of(line);
  for (uint32_t w = 0; w < geometry_.ways; ++w) {
    const uint32_t tag = way(set, w)[0];
    if (tag == 0) return false;
    if (tag == static_cast<uint32_t>(line) + 1) return true;
  }
  return false;
}

void CacheTags::invalidate_all() {
  std::fill(first_.begin(), first_.end(), 0);
  std::fill(rest_.begin(), rest_.end(), 0);
  clock_ = 0;
}

}  // namespace npuvp::memory
