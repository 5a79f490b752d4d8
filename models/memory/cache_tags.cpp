#include "models/memory/cache_tags.h"

#include <algorithm>
#include <cstring>
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
  sets_ = lines / g.ways;
  first_.assign(size_t(sets_), 0);
  rest_.assign(size_t(sets_) * (g.ways - 1), 0);
  Way0& w = way0_;
  w.first_ = first_.data();
  while ((uint64_t(1) << w.line_shift_) < g.line_bytes) ++w.line_shift_;
  w.set_mask_ = sets_ - 1;
  w.run_ = g.interleave_lines;
  w.stride_ = uint64_t(g.interleave_lines) * g.slices;
  if (power_of_two(g.interleave_lines) && power_of_two(g.slices)) {
    w.run_shift_ = __builtin_ctzll(g.interleave_lines);
    w.stride_shift_ = w.run_shift_ + __builtin_ctzll(g.slices);
    w.run_mask_ = g.interleave_lines - 1;
  }
}

// Past way 0: a hit in ways 1.., or a miss (into the first invalid way's place, or the last
// way's, the LRU victim); either way the line then moves to way 0.
CacheTags::Access CacheTags::access_beyond_way0(uint64_t address, bool write) {
  const uint64_t line = address >> way0_.line_shift_;
  if (line >= kLineLimit) raise(block_, "address 0x{:x} is beyond the tag range (2^31 lines)", address);
  const uint32_t tag = static_cast<uint32_t>(line) + 1, dirty = write ? kDirtyBit : 0;
  const size_t set = way0_.set_of(line);
  ++deep_lookups_;
  const uint32_t ways = geometry_.ways;
  uint32_t& first = first_[set];  // way 0 (not `tag`: hit_in_way0 checked)
  uint32_t* rest = ways > 1 ? &rest_[set * (ways - 1)] : nullptr;  // ways 1.., in a row
  Access a;
  // Where the line is, or where it goes: its way on a hit, else the first invalid way, else
  // the last way (the least recently used line, evicted).
  uint32_t w = 0;
  uint32_t entry = tag | dirty;
  if (first != 0) {
    for (w = 1; w < ways; ++w) {
      const uint32_t e = rest[w - 1];
      if ((e & kTagBits) == tag) {
        a.hit = true;
        entry |= e & kDirtyBit;
        break;
      }
      if (e == 0) break;
    }
    if (w == ways) {
      w = ways - 1;
      const uint32_t victim = w == 0 ? first : rest[w - 1];
      if ((victim & kDirtyBit) != 0) {
        a.evicted_dirty = true;
        a.victim_line = uint64_t((victim & kTagBits) - 1) << way0_.line_shift_;
      }
    }
  }
  // Ways 0 .. w-1 move down one place and the line takes way 0.
  if (w > 0) {
    if (w > 1) std::memmove(rest + 1, rest, size_t(w - 1) * sizeof(uint32_t));
    rest[0] = first;
  }
  first = entry;
  return a;
}

bool CacheTags::contains(uint64_t address) const {
  const uint64_t line = address >> way0_.line_shift_;
  if (line >= kLineLimit) return false;
  const size_t set = way0_.set_of(line);
  for (uint32_t w = 0; w < geometry_.ways; ++w) {
    const uint32_t tag = way(set, w) & kTagBits;
    if (tag == 0) return false;
    if (tag == static_cast<uint32_t>(line) + 1) return true;
  }
  return false;
}

void CacheTags::invalidate_all() {
  std::fill(first_.begin(), first_.end(), 0);
  std::fill(rest_.begin(), rest_.end(), 0);
}

}  // namespace npuvp::memory
