// One slice of the SoC's L2 cache (a CHI home node): set-associative, write-back,
// write-allocate, LRU. It times accesses (hit latency, line fills and write-backs sent
// downstream as timing-only transactions, the slice's own port bandwidth) and keeps hit and
// miss counts per slice and per initiator. Functional data passes through: bytes are read
// and written in the memory behind the slice (via DMI), so data is always correct.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include "models/memory/cache_tags.h"
#include "tlm/bandwidth.h"
#include "tlm/extensions.h"
#include "tlm/stats.h"

namespace npuvp::memory {

class L2Slice : public sc_core::sc_module {
 public:
  struct Params {
    CacheTags::Geometry geometry;  // this slice's share of the L2
    double clock_mhz = 1000;
    unsigned hit_cycles = 24;        // tag and data array access
    double bytes_per_cycle = 128;    // the slice's data port
    // The slice's read-modify-write unit for atomic writes (AtomicExtension): how many bytes
    // it combines per cycle. An atomic write also waits for its lines (it needs the old data)
    // and crosses the data port twice (read, then write).
    double atomic_bytes_per_cycle = 32;
    // The names the per-initiator counters use ("l2.by_initiator.<name>.hits"); initiators
    // outside the list are "core<id>" (or "other" for -1).
    std::vector<std::string> initiator_names;
  };

  tlm_utils::simple_target_socket<L2Slice> upstream;      // from the interconnect
  tlm_utils::simple_initiator_socket<L2Slice> downstream;  // misses and write-backs

  L2Slice(sc_core::sc_module_name name, const Params& params);

  const CacheTags& tags() const { return tags_; }
  uint64_t hits() const { return hits_.value; }
  uint64_t misses() const { return misses_.value; }
  uint64_t fills() const { return fills_.value; }  // misses less whole-line write misses (no fill)

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  unsigned transport_dbg(tlm::tlm_generic_payload& tx);
  // A timing-only transfer of whole lines downstream, starting at `start`; returns when it
  // is done.
  sc_core::sc_time transfer(tlm::tlm_command cmd, SpanListExtension& lines, sc_core::sc_time start, int initiator);
  // A lookup of the line at `line` (of a span [address, end)) past way 0: counts it and
  // lists its fill and write-back. Returns whether it hit. Out of line, so that the loop over
  // a transaction's lines keeps its way-0 hits free of calls.
  bool lookup_beyond_way0(uint64_t line, uint64_t address, uint64_t end, bool write);
  // Moves the payload's bytes in the memory behind the slice; an atomic write combines them
  // with the bytes there (models/memory/atomic_rmw.h).
  void move_data(tlm::tlm_generic_payload& tx, const AtomicExtension* atomic);
  uint8_t* memory_behind(uint64_t address, uint64_t length);  // DMI into it, or nullptr
  // The per-initiator hit or miss counter (inline once it exists: looked up on every access).
  Counter& initiator_counter(int initiator, bool hit) {
    const size_t at = size_t(std::max(initiator, -1) + 1) * 2 + (hit ? 1 : 0);  // -1 ("other") first
    if (at < per_initiator_.size() && per_initiator_[at]) return *per_initiator_[at];
    return new_initiator_counter(initiator, hit, at);
  }
  Counter& new_initiator_counter(int initiator, bool hit, size_t at);

  Params params_;
  CacheTags tags_;
  sc_core::sc_time cycle_;
  sc_core::sc_time hit_time_;
  BandwidthResource port_;
  BandwidthResource atomic_unit_;
  tlm::tlm_dmi dmi_;
  bool have_dmi_ = false;
  Counter& hits_;
  Counter& misses_;
  Counter& writebacks_;
  Counter& fills_;
  Counter& atomic_bytes_;
  std::vector<Counter*> per_initiator_;  // by (initiator + 1) * 2 + hit
  static constexpr size_t kPrefetchSpans = 32;  // how many rows ahead b_transport prefetches tags
  bool prefetch_tags_ = true;                   // whether it does (host speed only)
  // The lines one lookup fills and writes back (reused: b_transport is not re-entered).
  SpanListExtension fills_scratch_, writebacks_scratch_;
  tlm::tlm_generic_payload fill_tx_, writeback_tx_;
};

}  // namespace npuvp::memory
