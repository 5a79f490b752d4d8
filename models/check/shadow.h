// The sanitizer's shadow of one memory (GM, or a core's UB, L1, L0A ...): for every byte
// touched since it was last cleared, the accesses recorded there (models/check/sanitizer.cpp
// decides which to keep and which race). Run-length encoded as segments, byte ranges sharing
// one access list, kept per 4 KiB page of the memory in a vector sorted by address: finding a
// byte is a hash of its page number and a search among that page's segments. One
// ordered tree of all segments made every lookup a descent through the whole memory's: a
// 2048^3 matmul on 32 coupled 910 cores leaves about 786 k segments of 32 B in GM and looks
// up about 5.5 M spans (docs/performance.md, "The sanitizer's cost").
//
// Segments never cross a page boundary. Splitting one there changes no byte's list, and
// segments are visited in address order either way, so what the sanitizer finds and how it
// names a range does not depend on the page size.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "models/check/recycled.h"

namespace npuvp::check {

// An access recorded in a shadow memory.
struct Access {
  uint32_t stream;
  uint32_t clock;  // the stream's clock at the access
  uint32_t event;  // index into the launch's event log
  uint32_t site;
  bool write, atomic;
};
// Access lists come from recycled slabs (models/check/recycled.h): no malloc per segment.
using AccessList = std::vector<Access, Recycled<Access>>;

class Shadow {
 public:
  // fn(begin, end, const AccessList&) for each segment overlapping [b, e), in address order,
  // until fn returns true; true if it did.
  template <class Fn>
  bool find(uint64_t b, uint64_t e, Fn&& fn) const {
    for (uint64_t number = b >> kPageBits; b < e; b = ++number << kPageBits) {
      const int64_t at = page_index(number);
      if (at < 0) continue;
      const Page& p = pages_[size_t(at)];
      const Segments& segs = p.segs;
      for (size_t i = first_ending_after(p, b); i < segs.size() && segs[i].begin < e; ++i) {
        if (fn(segs[i].begin, segs[i].end, segs[i].acc)) return true;
      }
    }
    return false;
  }

  // Makes [b, e) whole segments (splits those its ends fall inside, fills holes with empty
  // ones) and calls fn(begin, end, AccessList&) for each, in address order.
  template <class Fn>
  void update(uint64_t b, uint64_t e, Fn&& fn) {
    while (b < e) {
      const uint64_t number = b >> kPageBits, stop = std::min(e, (number + 1) << kPageBits);
      Page& page = page_to_fill(number);
      size_t i = first_ending_after(page, b);
      Segments& p = page.segs;
      for (uint64_t pos = b; pos < stop; ++i) {
        if (i == p.size() || p[i].begin > pos) {
          p.insert(p.begin() + ptrdiff_t(i), Segment{pos, i == p.size() ? stop : std::min(stop, p[i].begin), {}});
        } else if (p[i].begin < pos) {
          split(p, i, pos);
          ++i;
        }
        if (p[i].end > stop) split(p, i, stop);
        fn(p[i].begin, p[i].end, p[i].acc);
        pos = p[i].end;
      }
      b = stop;
    }
  }

  // Forgets every access (the pages' storage stays for the next launch or block).
  void clear() {
    for (uint32_t i : used_) {
      pages_[i].segs.clear();
    }
    used_.clear();
  }

 private:
  static constexpr unsigned kPageBits = 12;
  struct Segment {
    uint64_t begin, end;
    AccessList acc;
  };
  using Segments = std::vector<Segment>;
  struct Page {
    Segments segs;  // sorted, disjoint
  };

  // The first segment ending after `at`. A strided copy visits a different page with every
  // row, each cold in the cache, so probes cost misses: first look where `at` would be if the
  // page's segments had one size (a copy's blocks often do), then bisect the side it is on.
  static size_t first_ending_after(const Page& page, uint64_t at) {
    const Segments& p = page.segs;
    auto ends_after = [&](size_t from, size_t to) {
      return size_t(std::partition_point(p.begin() + ptrdiff_t(from), p.begin() + ptrdiff_t(to),
                                         [&](const Segment& s) { return s.end <= at; }) -
                    p.begin());
    };
    if (p.empty() || at < p.front().begin) return 0;
    const uint64_t lo = p.front().begin, hi = p.back().end;  // what the page's segments cover
    if (at >= hi) return p.size();
    const size_t guess = size_t((at - lo) * p.size() / (hi - lo));
    if (p[guess].end <= at) return ends_after(guess + 1, p.size());
    if (guess == 0 || p[guess - 1].end <= at) return guess;
    return ends_after(0, guess - 1);
  }
  // Segment i becomes [begin, at) and [at, end), both with its accesses.
  static void split(Segments& p, size_t i, uint64_t at) {
    Segment tail{at, p[i].end, p[i].acc};
    p[i].end = at;
    p.insert(p.begin() + ptrdiff_t(i) + 1, std::move(tail));
  }
  // Pages are named by their index in pages_, not by address: a Shadow is copied and moved
  // with the core that holds it (a vector of cores grows).
  int64_t page_index(uint64_t number) const {
    if (number == last_number_) return last_;
    auto it = index_.find(number);
    if (it == index_.end()) return -1;
    last_number_ = number, last_ = it->second;
    return last_;
  }
  Page& page_to_fill(uint64_t number) {
    int64_t at = page_index(number);
    if (at < 0) {
      at = int64_t(pages_.size());
      pages_.emplace_back();
      index_.emplace(number, uint32_t(at));
      last_number_ = number, last_ = at;
    }
    Page& p = pages_[size_t(at)];
    if (p.segs.empty()) used_.push_back(uint32_t(at));
    return p;
  }

  std::vector<Page> pages_;                        // every page touched so far
  std::unordered_map<uint64_t, uint32_t> index_;   // page number -> index in pages_
  std::vector<uint32_t> used_;                     // pages holding segments
  mutable uint64_t last_number_ = ~0ull;           // the last page found (strided copies revisit it)
  mutable int64_t last_ = -1;
};

}  // namespace npuvp::check
