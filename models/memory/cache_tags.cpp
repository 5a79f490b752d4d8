#include "models/memory/cache_tags.h"

#include "tlm/log.h"

namespace npuvp::memory {

namespace {
bool power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }
}  // namespace

CacheTags::CacheTags(const Geometry& g, const char* block) : geometry_(g) {
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
  ways_.resize(size_t(sets_) * g.ways);
}

uint32_t CacheTags::set_of(uint64_t line) const {
  const uint64_t run = geometry_.interleave_lines, local = line / (run * geometry_.slices) * run + line % run;
  return static_cast<uint32_t>(local & (sets_ - 1));
}

CacheTags::Access CacheTags::access(uint64_t address, bool write) {
  const uint64_t line = address >> line_shift_;
  Way* base = &ways_[size_t(set_of(line)) * geometry_.ways];
  ++clock_;
  Way* victim = base;
  for (uint32_t w = 0; w < geometry_.ways; ++w) {
    Way& way = base[w];
    if (way.valid && way.line == line) {
      way.last_use = clock_;
      way.dirty = way.dirty || write;
      return Access{true, false, 0};
    }
    // Prefer an invalid way, else the least recently used one.
    if (!way.valid) {
      if (victim->valid) victim = &way;
    } else if (victim->valid && way.last_use < victim->last_use) {
      victim = &way;
    }
  }
  Access a;
  if (victim->valid && victim->dirty) {
    a.evicted_dirty = true;
    a.victim_line = victim->line << line_shift_;
  }
  *victim = Way{line, clock_, true, write};
  return a;
}

bool CacheTags::contains(uint64_t address) const {
  const uint64_t line = address >> line_shift_;
  const Way* base = &ways_[size_t(set_of(line)) * geometry_.ways];
  for (uint32_t w = 0; w < geometry_.ways; ++w) {
    if (base[w].valid && base[w].line == line) return true;
  }
  return false;
}

void CacheTags::invalidate_all() {
  for (Way& w : ways_) w = Way{};
}

}  // namespace npuvp::memory
