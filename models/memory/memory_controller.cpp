#include "models/memory/memory_controller.h"

#include <algorithm>
#include <fmt/format.h>

#include "models/interconnect/address_hash.h"
#include "tlm/extensions.h"
#include "tlm/log.h"
#include "tlm/sim_time.h"
#include "tlm/tracer.h"

namespace npuvp::memory {

namespace {
const sc_core::sc_time kTraceWindow(1, sc_core::SC_US);
}

MemoryController::MemoryController(sc_core::sc_module_name name, const Params& params)
    : sc_module(name),
      upstream("upstream"),
      downstream("downstream"),
      params_(params),
      latency_(params.latency_ns, sc_core::SC_NS),
      bytes_read_(Stats::global().counter(std::string(this->name()) + ".bytes_read", "bytes")),
      bytes_written_(Stats::global().counter(std::string(this->name()) + ".bytes_written", "bytes")),
      interleave_(std::max<uint64_t>(params.interleave_bytes, 1)),  // checked below
      controllers_(std::max(params.controllers, 1u)),
      // The controller was chosen from the granule index; the channel comes from the rest.
      channel_of_(params.channels, interconnect::HashLevel::Channel) {
  if (params.channels < 1 || params.controllers < 1 || params.interleave_bytes == 0) {
    raise(this->name(), "channels, controllers and interleave must be positive");
  }
  if (params.channel_gbps <= 0 || params.latency_ns < 0) {
    raise(this->name(), "channel bandwidth must be positive and latency not negative");
  }
  for (unsigned c = 0; c < params.channels; ++c) {
    channels_.emplace_back(params.channel_gbps * 1e9);
    channel_share_.push_back(0);
    touched_.push_back(0);
    channel_bytes_.push_back(&Stats::global().counter(fmt::format("{}.channel{}.bytes", this->name(), c), "bytes"));
  }
  upstream.register_b_transport(this, &MemoryController::b_transport);
  upstream.register_get_direct_mem_ptr(this, &MemoryController::get_direct_mem_ptr);
  upstream.register_transport_dbg(this, &MemoryController::transport_dbg);
}

void MemoryController::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  // Atomic writes are combined by an L2 home node; a controller has no unit for them.
  const AtomicExtension* atomic = nullptr;
  tx.get_extension(atomic);
  if (atomic && atomic->op != AtomicExtension::Op::None) {
    tx.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  const uint64_t address = tx.get_address(), length = tx.get_data_length();
  // Each channel serves its share of the bytes as one booking.
  const interconnect::HashedTargets channel_of = channel_of_;  // locals: the loop keeps them in registers
  const interconnect::Divisor interleave = interleave_, controllers = controllers_;
  const uint64_t base = params_.base, granule_bytes = interleave.value();
  uint64_t* const share = channel_share_.data();  // local: the loop keeps its state in registers
  unsigned* const touched = touched_.data();
  unsigned touched_count = 0;
  bool outside = false;
  for_each_span(tx, [&](uint64_t a, uint64_t n) {
    if (a < base) {
      outside = true;
      return;
    }
    // Offsets from base; a span (a fill's granule) usually lies in one granule.
    for (uint64_t at = a - base, end = at + n; at < end;) {
      const uint64_t granule = interleave.divide(at);
      const uint64_t piece = std::min(end, (granule + 1) * granule_bytes) - at;
      const unsigned c = channel_of(controllers.divide(granule));
      if (share[c] == 0) touched[touched_count++] = c;
      share[c] += piece;  // piece > 0
      at += piece;
    }
  });
  if (outside) {
    for (unsigned i = 0; i < touched_count; ++i) share[touched[i]] = 0;
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  // In SystemC time units: building an sc_time is a library call, and this is every fill's path.
  const uint64_t now = sim_time().value(), start = now + delay.value();
  uint64_t end_ticks = start;
  for (unsigned i = 0; i < touched_count; ++i) {
    const unsigned c = touched[i];
    end_ticks = std::max(end_ticks, channels_[c].reserve_ticks(now, start, share[c]));
    *channel_bytes_[c] += share[c];
    share[c] = 0;
  }
  (tx.is_write() ? bytes_written_ : bytes_read_) += length;
  if (Tracer::global().enabled()) trace_bandwidth(sc_core::sc_time::from_value(end_ticks), length);
  if (moves_data(tx)) {
    tx.set_address(address - params_.base);
    sc_core::sc_time ignored = sc_core::SC_ZERO_TIME;  // the backing store is untimed
    downstream->b_transport(tx, ignored);
    tx.set_address(address);
    if (tx.is_response_error()) return;
  }
  delay = sc_core::sc_time::from_value(end_ticks - now) + latency_;
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
}

void MemoryController::trace_bandwidth(const sc_core::sc_time& at, uint64_t bytes) {
  while (at >= window_start_ + kTraceWindow) {
    Tracer::global().counter(basename(), "GB/s", window_start_, double(window_bytes_) / (kTraceWindow.to_seconds() * 1e9));
    window_start_ += kTraceWindow;
    window_bytes_ = 0;
  }
  window_bytes_ += bytes;
}

bool MemoryController::get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
  const uint64_t address = tx.get_address();
  if (address < params_.base) return false;
  tx.set_address(address - params_.base);
  const bool ok = downstream->get_direct_mem_ptr(tx, dmi);
  tx.set_address(address);
  if (ok) {
    dmi.set_start_address(dmi.get_start_address() + params_.base);
    dmi.set_end_address(dmi.get_end_address() + params_.base);
  }
  return ok;
}

unsigned MemoryController::transport_dbg(tlm::tlm_generic_payload& tx) {
  const uint64_t address = tx.get_address();
  if (address < params_.base) return 0;
  tx.set_address(address - params_.base);
  const unsigned n = downstream->transport_dbg(tx);
  tx.set_address(address);
  return n;
}

}  // namespace npuvp::memory
