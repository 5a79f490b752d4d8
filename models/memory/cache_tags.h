// The tag store of a set-associative, write-back, write-allocate cache with LRU replacement.
// It holds no data: npuvp's caches model time, and functional data passes through to memory.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace npuvp::memory {

class CacheTags {
 public:
  struct Geometry {
    uint64_t size = 0;          // bytes of data the cache holds
    uint32_t line_bytes = 128;  // power of two
    uint32_t ways = 16;
    // Address-interleaved slices: runs of `interleave_lines` lines go to the `slices` slices
    // (interconnect/address_hash.h); a slice numbers its own runs densely (run / slices), so
    // every set is used.
    uint32_t slices = 1;
    uint32_t interleave_lines = 1;
  };
  struct Access {
    bool hit = false;
    bool evicted_dirty = false;  // the access evicted a dirty line, which must be written back
    uint64_t victim_line = 0;    // its line address (valid when evicted_dirty)
  };

  // Line numbers (address / line size) the tags can hold are below this (2^31 - 1).
  static constexpr uint64_t kLineLimit = 0x7fffffffu;

  // Raises (naming `block`) unless size, line and ways give a whole power-of-two set count.
  CacheTags(const Geometry& g, const char* block);

  // Not copyable: way0_ points into first_.
  CacheTags(const CacheTags&) = delete;
  CacheTags& operator=(const CacheTags&) = delete;

  uint32_t sets() const { return static_cast<uint32_t>(sets_); }
  const Geometry& geometry() const { return geometry_; }
  // Looks up the line holding `address`; on a miss allocates it (LRU victim). `write` marks
  // the line dirty. Inline up to a hit in way 0, the usual case in a large L2.
  Access access(uint64_t address, bool write) {
    if (hit_in_way0(address, write)) return Access{true, false, 0};
    return access_beyond_way0(address, write);
  }
  // access()'s first step: true if `address`'s line is in way 0 of its set (a hit, and a
  // write marks it dirty); otherwise nothing changes.
  bool hit_in_way0(uint64_t address, bool write) { return way0_.hit(address, write); }
  // hit_in_way0 as a value to copy into a local: what it reads (the set arithmetic and way
  // 0's array) then stays in registers across a loop over many lines, where members are
  // read again after every call the loop makes. Valid while the tags live (way 0's array
  // never moves).
  class Way0 {
   public:
    bool hit(uint64_t address, bool write) const {
      const uint64_t line = address >> line_shift_;
      if (line >= kLineLimit) return false;  // access_beyond_way0 reports it
      uint32_t& first = first_[set_of(line)];  // way 0, the most recently used
      if ((first & kTagBits) != static_cast<uint32_t>(line) + 1) return false;
      if (write) first |= kDirtyBit;  // a read hit stores nothing
      return true;
    }
    // The set of line number `line`: runs of `run` lines go to the slices in turn, and a
    // slice numbers its own runs densely (run / slices), so every set is used.
    uint32_t set_of(uint64_t line) const {
      if (run_shift_ >= 0) {  // powers of two (the usual case): no divisions on this hot path
        return static_cast<uint32_t>((((line >> stride_shift_) << run_shift_) | (line & run_mask_)) & set_mask_);
      }
      return static_cast<uint32_t>((line / stride_ * run_ + line % run_) & set_mask_);
    }

   private:
    friend class CacheTags;
    uint32_t* first_ = nullptr;  // way 0 of every set
    uint64_t line_shift_ = 0;
    uint64_t set_mask_ = 0;  // sets - 1
    uint64_t run_ = 1, stride_ = 1;  // lines per run, and run x slices
    // With power-of-two runs and slices: log2(run), log2(run x slices), run - 1; else -1.
    int64_t run_shift_ = -1;
    int64_t stride_shift_ = 0;
    uint64_t run_mask_ = 0;
  };
  const Way0& way0() const { return way0_; }
  // The rest of access() once hit_in_way0 said no: out of line, so that a lookup loop that
  // calls hit_in_way0 inline makes no call for the common case.
  Access access_beyond_way0(uint64_t address, bool write);
  bool contains(uint64_t address) const;
  // Asks the host to bring the ways of `address`'s set that a lookup would read into its
  // cache (a hint; no effect on the model). Way 0 of every set is a small array that stays in
  // the host's cache; the other ways are not, and a busy set's lookups (a large working set)
  // otherwise wait on the host's memory. So they are fetched (their first two host lines)
  // unless way 0 is empty or already holds the line.
  void prefetch(uint64_t address) const {
    const uint64_t line = address >> way0_.line_shift_;
    const size_t set = way0_.set_of(line);
    const uint32_t first_tag = first_[set] & kTagBits;
    if (first_tag == 0 || first_tag == static_cast<uint32_t>(line) + 1 || rest_.empty()) return;
    const uint32_t* rest = &rest_[set * (geometry_.ways - 1)];
    prefetch_host_line(rest);
    if (geometry_.ways > 17) prefetch_host_line(rest + 16);
  }
  // How many lookups read past way 0 so far (host-side: tells whether prefetch() pays).
  uint64_t deep_lookups() const { return deep_lookups_; }
  void invalidate_all();

 private:
  // A way is one 32-bit word: the line number + 1 in the low 31 bits (0: invalid) and the
  // dirty mark in the top bit, so 16 ways share a 64 B host line (a 32-core run's tags then
  // fit the host's L2). Addresses must stay below 2^31 lines (256 GiB with 128 B lines).
  static constexpr uint32_t kDirtyBit = 0x80000000u, kTagBits = 0x7fffffffu;
  static_assert(kLineLimit == kTagBits, "a tag is a line number + 1 in the tag bits");
  std::string block_;  // for errors
  Geometry geometry_;
  uint64_t sets_ = 0;
  Way0 way0_;  // the set arithmetic, and way 0's array (first_)
  // Each way holds its line's tag and dirty mark (kTagBits, kDirtyBit). A set's ways
  // are kept in order of last use, most recent first (a recency stack): a line used moves
  // to way 0, a new line enters there, and when every way is valid the last one, the least
  // recently used, goes. That is LRU exactly, without ages, and a line used again soon
  // (another core reading the same tile) is found in way 0. Lines are never invalidated one
  // by one, so the valid ways are a prefix and a lookup stops at the first invalid one.
  // Way 0 of every set lives in first_, set after set, and ways 1.. in rest_, a block per
  // set: way 0 is what most lookups read, and first_ holds 16 sets' per 64 B host line.
  uint32_t way(size_t set, uint32_t w) const {
    return w == 0 ? first_[set] : rest_[set * (geometry_.ways - 1) + (w - 1)];
  }
  // __builtin_prefetch, kept: GCC 12 silently drops a prefetch whose address is computed
  // under a branch (as set_of's is), so the address is first pinned in a register.
  static void prefetch_host_line(const void* p) {
    asm volatile("" : "+r"(p));
    __builtin_prefetch(p);
  }
  uint64_t deep_lookups_ = 0;
  std::vector<uint32_t> first_;  // sets x way 0
  std::vector<uint32_t> rest_;   // sets x (ways - 1)
};

}  // namespace npuvp::memory
