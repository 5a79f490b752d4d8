#include "models/memory/l2_cache.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>

#include "models/memory/atomic_rmw.h"
#include "tlm/extensions.h"
#include "tlm/log.h"
#include "tlm/sim_time.h"

namespace npuvp::memory {

L2Slice::L2Slice(sc_core::sc_module_name name, const Params& params)
    : sc_module(name),
      upstream("upstream"),
      downstream("downstream"),
      params_(params),
      tags_(params.geometry, this->name()),
      cycle_(1e6 / params.clock_mhz, sc_core::SC_PS),
      hit_time_(cycle_ * double(params.hit_cycles)),
      port_(params.bytes_per_cycle * params.clock_mhz * 1e6),
      atomic_unit_(params.atomic_bytes_per_cycle * params.clock_mhz * 1e6),
      hits_(Stats::global().counter(std::string(this->name()) + ".hits", "lines", "line lookups that hit")),
      misses_(Stats::global().counter(std::string(this->name()) + ".misses", "lines", "line lookups that missed")),
      writebacks_(Stats::global().counter(std::string(this->name()) + ".writebacks", "lines",
                                          "dirty lines written back on eviction")),
      fills_(Stats::global().counter(std::string(this->name()) + ".fills", "lines", "lines read from memory")),
      atomic_bytes_(Stats::global().counter(std::string(this->name()) + ".atomic_bytes", "bytes",
                                            "bytes combined by atomic writes (read-modify-write)")) {
  if (params.clock_mhz <= 0 || params.bytes_per_cycle <= 0 || params.atomic_bytes_per_cycle <= 0) {
    raise(this->name(), "clock, port width and atomic unit width must be positive");
  }
  upstream.register_b_transport(this, &L2Slice::b_transport);
  upstream.register_get_direct_mem_ptr(this, &L2Slice::get_direct_mem_ptr);
  upstream.register_transport_dbg(this, &L2Slice::transport_dbg);
}

Counter& L2Slice::new_initiator_counter(int initiator, bool hit, size_t at) {
  initiator = std::max(initiator, -1);
  if (at >= per_initiator_.size()) per_initiator_.resize(at + 1, nullptr);
  // Summed over slices: "l2.by_initiator.core3.hits".
  const std::string who = initiator < 0                                        ? std::string("other")
                          : size_t(initiator) < params_.initiator_names.size() ? params_.initiator_names[initiator]
                                                                               : fmt::format("core{}", initiator);
  per_initiator_[at] = &Stats::global().counter(fmt::format("l2.by_initiator.{}.{}", who, hit ? "hits" : "misses"), "lines");
  return *per_initiator_[at];
}

sc_core::sc_time L2Slice::transfer(tlm::tlm_command cmd, SpanListExtension& lines, sc_core::sc_time start,
                                   int initiator) {
  tlm::tlm_generic_payload& tx = cmd == tlm::TLM_READ_COMMAND ? fill_tx_ : writeback_tx_;  // reused (allocation)
  InitiatorExtension ext(initiator, -1, /*data=*/false);
  prepare(tx, cmd, lines.spans.front().address, nullptr, lines.bytes());
  const sc_core::sc_time now = sim_time();
  sc_core::sc_time d = start - now;
  {
    BorrowedExtension<InitiatorExtension> with_initiator(tx, &ext);
    BorrowedExtension<SpanListExtension> with_lines(tx, lines.spans.size() > 1 ? &lines : nullptr);
    downstream->b_transport(tx, d);
  }
  if (tx.is_response_error()) {
    raise(name(), "line {} of 0x{:x} failed downstream: {}", cmd == tlm::TLM_READ_COMMAND ? "fill" : "write-back",
          lines.spans.front().address, tx.get_response_string());
  }
  return now + d;
}

void L2Slice::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  if (!tx.is_read() && !tx.is_write()) {
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  const InitiatorExtension* ext = nullptr;
  tx.get_extension(ext);
  const int initiator = ext ? ext->initiator : -1;
  const bool write = tx.is_write();
  const AtomicExtension* atomic = nullptr;
  if (write) tx.get_extension(atomic);
  if (atomic && atomic->op == AtomicExtension::Op::None) atomic = nullptr;
  const uint64_t line_bytes = params_.geometry.line_bytes;
  const sc_core::sc_time now = sim_time();
  const sc_core::sc_time start = now + delay;
  const sc_core::sc_time lookup = start + hit_time_;
  sc_core::sc_time ready = lookup;
  // The missing lines are filled by one downstream transaction (consecutive lines as one
  // span); evicted dirty lines go back in another, posted: it costs memory bandwidth, not
  // the requester's time. Both leave after the lookup.
  fills_scratch_.spans.clear();
  writebacks_scratch_.spans.clear();
  Counter& initiator_hits = initiator_counter(initiator, true);
  Counter& initiator_misses = initiator_counter(initiator, false);
  // The spans: the span list's, or the payload's one range.
  const SpanListExtension* list = nullptr;
  tx.get_extension(list);
  const AddressSpan whole{tx.get_address(), tx.get_data_length()};
  const AddressSpan* spans = list ? list->spans.data() : &whole;
  const size_t count = list ? list->spans.size() : 1;
  // The tag sets of a span list's rows lie far apart in host memory: fetching the next
  // rows' sets while this one is looked up hides most of the host's cache misses. That pays
  // only while lookups read past way 0 (a working set that fills the sets), so it is on when
  // a quarter of the previous transaction's lookups did.
  const bool prefetch = prefetch_tags_;
  const uint64_t deep_before = tags_.deep_lookups();
  if (prefetch) {
    for (size_t i = 0; i < std::min(kPrefetchSpans, count); ++i) tags_.prefetch(spans[i].address);
  }
  const uint64_t line_mask = ~(line_bytes - 1);  // a power of two (CacheTags)
  const CacheTags::Way0 way0 = tags_.way0();     // a local: stays in registers across the calls below
  uint64_t hits = 0, misses = 0;  // counted here, added once
  for (size_t i = 0; i < count; ++i) {
    if (prefetch && i + kPrefetchSpans < count) tags_.prefetch(spans[i + kPrefetchSpans].address);
    const uint64_t address = spans[i].address, end = address + spans[i].length;
    // An atomic write needs every line's old bytes, even a line it covers whole.
    const uint64_t covered_end = atomic ? address : end;
    for (uint64_t line = address & line_mask; line < end; line += line_bytes) {
      const bool hit = way0.hit(line, write) || lookup_beyond_way0(line, address, covered_end, write);
      ++(hit ? hits : misses);
    }
  }
  prefetch_tags_ = (tags_.deep_lookups() - deep_before) * 4 >= hits + misses;
  hits_ += hits;
  initiator_hits += hits;
  misses_ += misses;
  initiator_misses += misses;
  if (!writebacks_scratch_.spans.empty()) transfer(tlm::TLM_WRITE_COMMAND, writebacks_scratch_, lookup, initiator);
  if (!fills_scratch_.spans.empty()) {
    // A read waits for its lines. A write is posted: the slice takes the bytes into its
    // buffer and completes it; merging them into a partly written line needs that line from
    // memory, which costs DRAM and ring bandwidth but not the writer's time.
    const sc_core::sc_time filled = transfer(tlm::TLM_READ_COMMAND, fills_scratch_, lookup, initiator);
    if (!write || atomic) ready = std::max(ready, filled);
  }
  sc_core::sc_time done = std::max(ready, port_.reserve(lookup, tx.get_data_length()));
  if (atomic) {
    // Read-modify-write: once the old bytes are there, the unit combines them and they cross
    // the data port again; requests to the slice queue on both, whichever core sent them.
    const uint64_t bytes = tx.get_data_length();
    atomic_bytes_ += bytes;
    done = std::max(port_.reserve(ready, bytes), atomic_unit_.reserve(ready, bytes));
  }
  if (moves_data(ext)) move_data(tx, atomic);
  delay = done - now;
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool L2Slice::lookup_beyond_way0(uint64_t line, uint64_t address, uint64_t end, bool write) {
  const uint64_t line_bytes = params_.geometry.line_bytes;
  const CacheTags::Access a = tags_.access_beyond_way0(line, write);
  if (a.hit) return true;
  if (a.evicted_dirty) {
    ++writebacks_;
    writebacks_scratch_.add(a.victim_line, line_bytes);
  }
  // A write that covers the whole line needs no fill.
  if (write && address <= line && end >= line + line_bytes) return false;
  ++fills_;
  fills_scratch_.add(line, line_bytes);
  return false;
}

uint8_t* L2Slice::memory_behind(uint64_t address, uint64_t length) {
  if (!have_dmi_ || address < dmi_.get_start_address() || address + length - 1 > dmi_.get_end_address()) {
    tlm::tlm_generic_payload probe;
    probe.set_address(address);
    probe.set_command(tlm::TLM_READ_COMMAND);
    have_dmi_ = downstream->get_direct_mem_ptr(probe, dmi_) && dmi_.is_read_write_allowed() &&
                address >= dmi_.get_start_address() && address + length - 1 <= dmi_.get_end_address();
  }
  return have_dmi_ ? dmi_.get_dmi_ptr() + (address - dmi_.get_start_address()) : nullptr;
}

void L2Slice::move_data(tlm::tlm_generic_payload& tx, const AtomicExtension* atomic) {
  const uint64_t address = tx.get_address(), length = tx.get_data_length();
  if (uint8_t* mem = memory_behind(address, length)) {
    if (atomic) {
      atomic_combine(*atomic, mem, tx.get_data_ptr(), length);
    } else if (tx.is_read()) {
      std::memcpy(tx.get_data_ptr(), mem, length);
    } else {
      std::memcpy(mem, tx.get_data_ptr(), length);
    }
    return;
  }
  auto debug = [&](tlm::tlm_command cmd, uint8_t* data) {
    tlm::tlm_generic_payload d;
    prepare(d, cmd, address, data, length);
    if (downstream->transport_dbg(d) != length) {
      raise(name(), "cannot reach the data of 0x{:x} ({} bytes) behind the cache", address, length);
    }
  };
  if (!atomic) {
    debug(tx.get_command(), tx.get_data_ptr());
    return;
  }
  std::vector<uint8_t> old(length);  // no DMI: read, combine, write back
  debug(tlm::TLM_READ_COMMAND, old.data());
  atomic_combine(*atomic, old.data(), tx.get_data_ptr(), length);
  debug(tlm::TLM_WRITE_COMMAND, old.data());
}

bool L2Slice::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) {
  return false;  // DMI would bypass the cache's timing
}

unsigned L2Slice::transport_dbg(tlm::tlm_generic_payload& tx) { return downstream->transport_dbg(tx); }

}  // namespace npuvp::memory
