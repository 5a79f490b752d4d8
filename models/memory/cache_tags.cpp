#include "models/memory/cache_tags.h"

#include <algorithm>

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
  tags_.assign(size_t(sets_) * g.ways, 0);
  meta_.assign(tags_.size(), 0);
}

CacheTags::Access CacheTags::access(uint64_t address, bool write) {
  const uint64_t line = address >> line_shift_;
  if (line >= kInvalid) raise(block_, "address 0x{:x} is beyond the tag range (2^32 lines)", address);
  const uint32_t tag = static_cast<uint32_t>(line) + 1;
  const size_t base = size_t(set_of(line)) * geometry_.ways;
  const uint32_t* tags = &tags_[base];
  ++clock_;
  // The usual 16 ways are compared at once (no early exit, so the loop vectorises): a tag
  // is in at most one way.
  if (geometry_.ways == 16) {
    uint32_t found = 0;
    for (uint32_t w = 0; w < 16; ++w) found |= uint32_t(tags[w] == tag) << w;
    if (found != 0) {
      const uint32_t w = static_cast<uint32_t>(__builtin_ctz(found));
      meta_[base + w] = (clock_ << 1) | (meta_[base + w] & 1) | (write ? 1 : 0);
      return Access{true, false, 0};
    }
  } else {
    for (uint32_t w = 0; w < geometry_.ways; ++w) {
      if (tags[w] == tag) {
        meta_[base + w] = (clock_ << 1) | (meta_[base + w] & 1) | (write ? 1 : 0);
        return Access{true, false, 0};
      }
    }
  }
  // Prefer an invalid way, else the least recently used one.
  size_t victim = base;
  for (uint32_t w = 0; w < geometry_.ways; ++w) {
    if (tags[w] == 0) {
      victim = base + w;
      break;
    }
    if ((meta_[base + w] >> 1) < (meta_[victim] >> 1)) victim = base + w;
  }
  Access a;
  if (tags_[victim] != 0 && (meta_[victim] & 1)) {
    a.evicted_dirty = true;
    a.victim_line = uint64_t(tags_[victim] - 1) << line_shift_;
  }
  tags_[victim] = tag;
  meta_[victim] = (clock_ << 1) | (write ? 1 : 0);
  return a;
}

bool CacheTags::contains(uint64_t address) const {
  const uint64_t line = address >> line_shift_;
  if (line >= kInvalid) return false;
  const size_t base = size_t(set_of(line)) * geometry_.ways;
  for (uint32_t w = 0; w < geometry_.ways; ++w) {
    if (tags_[base + w] == static_cast<uint32_t>(line) + 1) return true;
  }
  return false;
}

void CacheTags::invalidate_all() {
  std::fill(tags_.begin(), tags_.end(), 0);
  std::fill(meta_.begin(), meta_.end(), 0);
}

}  // namespace npuvp::memory
