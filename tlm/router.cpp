#include "tlm/router.h"

#include <algorithm>
#include <limits>
#include "tlm/log.h"

namespace npuvp {

namespace {

uint64_t last_address(const Router::Range& r) { return r.base + (r.size - 1); }

// Bytes an access actually touches: a streaming burst repeats its first `width` bytes.
uint64_t footprint(const tlm::tlm_generic_payload& tx) {
  const uint64_t length = tx.get_data_length();
  const unsigned width = tx.get_streaming_width();
  return width != 0 && width < length ? width : length;
}

}  // namespace

Router::Router(sc_core::sc_module_name name)
    : sc_core::sc_module(name),
      target_socket("target_socket"),
      initiator_socket("initiator_socket") {
  target_socket.register_b_transport(this, &Router::b_transport);
  target_socket.register_get_direct_mem_ptr(this, &Router::get_direct_mem_ptr);
  target_socket.register_transport_dbg(this, &Router::transport_dbg);
  initiator_socket.register_invalidate_direct_mem_ptr(this, &Router::invalidate_direct_mem_ptr);
}

void Router::map(const std::string& name, uint64_t base, uint64_t size, unsigned target) {
  if (size == 0) raise(this->name(), "range '{}' at {:#x} has zero size", name, base);
  // A range may end exactly at 2^64, so compare last addresses rather than ends.
  if (size - 1 > std::numeric_limits<uint64_t>::max() - base) {
    raise(this->name(), "range '{}' [{:#x}, +{:#x}) runs past the end of the address space",
          name, base, size);
  }
  const Range range{name, base, size, target};
  for (const Range& r : ranges_) {
    if (base <= last_address(r) && r.base <= last_address(range)) {
      raise(this->name(), "range '{}' [{:#x}, {:#x}] overlaps range '{}' [{:#x}, {:#x}]", name,
            base, last_address(range), r.name, r.base, last_address(r));
    }
  }
  // Kept sorted by base for the binary search in decode().
  const auto at = std::upper_bound(ranges_.begin(), ranges_.end(), base,
                                   [](uint64_t b, const Range& r) { return b < r.base; });
  ranges_.insert(at, range);
}

const Router::Range* Router::decode(uint64_t address) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), address,
                             [](uint64_t a, const Range& r) { return a < r.base; });
  if (it == ranges_.begin()) return nullptr;
  --it;
  return address - it->base < it->size ? &*it : nullptr;
}

void Router::b_transport(int from, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  const uint64_t address = tx.get_address();
  const Range* r = decode(address);
  if (!r || footprint(tx) > r->size - (address - r->base)) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (r->target >= initiator_socket.size()) {
    raise(name(), "range '{}' maps to target {}, but only {} targets are bound", r->name,
          r->target, initiator_socket.size());
  }
  tx.set_address(address - r->base);
  initiator_socket[r->target]->b_transport(tx, delay);
  tx.set_address(address);
}

bool Router::get_direct_mem_ptr(int from, tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
  const uint64_t address = tx.get_address();
  const Range* r = decode(address);
  if (!r || r->target >= initiator_socket.size()) return false;
  tx.set_address(address - r->base);
  bool granted = initiator_socket[r->target]->get_direct_mem_ptr(tx, dmi);
  tx.set_address(address);

  // The target answers in local addresses; clip to the range, then make them global. The
  // start never needs clipping (local addresses begin at 0), so the pointer stays valid.
  const uint64_t start = dmi.get_start_address();
  const uint64_t end = std::min<uint64_t>(dmi.get_end_address(), r->size - 1);
  if (start > end) {
    dmi.init();
    return false;
  }
  dmi.set_start_address(r->base + start);
  dmi.set_end_address(r->base + end);
  return granted;
}

unsigned Router::transport_dbg(int from, tlm::tlm_generic_payload& tx) {
  const uint64_t address = tx.get_address();
  const Range* r = decode(address);
  if (!r || r->target >= initiator_socket.size()) return 0;
  const unsigned length = tx.get_data_length();
  const uint64_t room = r->size - (address - r->base);
  tx.set_address(address - r->base);
  tx.set_data_length(static_cast<unsigned>(std::min<uint64_t>(length, room)));
  const unsigned done = initiator_socket[r->target]->transport_dbg(tx);
  tx.set_address(address);
  tx.set_data_length(length);
  return done;
}

void Router::invalidate_direct_mem_ptr(int target, sc_dt::uint64 start, sc_dt::uint64 end) {
  for (const Range& r : ranges_) {
    if (r.target != static_cast<unsigned>(target) || start > r.size - 1) continue;
    const uint64_t global_start = r.base + start;
    const uint64_t global_end = r.base + std::min<uint64_t>(end, r.size - 1);
    for (unsigned i = 0; i < target_socket.size(); ++i) {
      target_socket[i]->invalidate_direct_mem_ptr(global_start, global_end);
    }
  }
}

}  // namespace npuvp
