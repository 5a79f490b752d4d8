// A bandwidth resource: a link, a port or a memory channel that moves a fixed number of bytes
// per second. Its time line is cut into slots of 1-2 KiB's transfer time; a slot holds at
// most that many bytes, and a transfer takes the free room of the slots from its start on, so
// one that starts while the resource is busy waits for room. Because it books (start time,
// bytes) rather than running a process per cycle, it stays correct under temporal decoupling:
// initiators book at their local times, which arrive out of order, and a late booking for an
// early time uses the room left in early slots instead of queueing behind bookings made for
// the future. A booking costs one step per slot it touches, however busy the resource is.
//
// Within a slot the bytes are taken as packed from the slot's start: a transfer ends at
// max(its start, the slot's bytes before it) + its bytes, so ordering inside one slot is
// approximate by at most one slot's time (a few cycles on a link).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>
#include <systemc>
#include "tlm/sim_time.h"

namespace npuvp {

class BandwidthResource {
 public:
  // Most bytes per slot (a slot is the largest power of two of time units that carries at
  // most this many): small enough that a slot is a few cycles of a link or channel, large
  // enough that a typical transfer touches one or two slots.
  static constexpr uint64_t kSlotBytes = 2048;

  // bytes_per_second <= 0 means unlimited.
  explicit BandwidthResource(double bytes_per_second = 0) { set_bandwidth(bytes_per_second); }

  void set_bandwidth(double bytes_per_second) {
    ps_per_byte_ = bytes_per_second > 0 ? 1e12 / bytes_per_second : 0.0;
    ticks_per_byte_ = ps_per_byte_ * double(sc_core::sc_time(1, sc_core::SC_PS).value());
    // A power of two of time units (so slot numbers are shifts, not divisions), holding
    // between kSlotBytes / 2 and kSlotBytes.
    slot_shift_ = 0;
    while ((uint64_t(2) << slot_shift_) <= ticks(kSlotBytes)) ++slot_shift_;
    bytes_per_tick_ = ticks_per_byte_ > 0 ? 1.0 / ticks_per_byte_ : 0.0;
    slot_bytes_ = double(uint64_t(1) << slot_shift_) * bytes_per_tick_;
    slots_per_byte_ = slot_bytes_ > 0 ? 1.0 / slot_bytes_ : 0.0;
    reset();
  }
  double bytes_per_second() const { return ps_per_byte_ > 0 ? 1e12 / ps_per_byte_ : 0.0; }

  // Time `bytes` occupy the resource (built from the raw value: constructing an sc_time
  // from a double and a unit is costly, and this is on every transaction's path).
  sc_core::sc_time occupancy(uint64_t bytes) const { return sc_core::sc_time::from_value(ticks(bytes)); }
  uint64_t occupancy_ticks(uint64_t bytes) const { return ticks(bytes); }

  // Books `bytes` from `start` on; returns when the transfer has gone through.
  sc_core::sc_time reserve(const sc_core::sc_time& start, uint64_t bytes) {
    return sc_core::sc_time::from_value(reserve_ticks(sim_time().value(), start.value(), bytes));
  }
  // The same in SystemC time units; `now` is the current simulated time (nobody books before
  // it, so earlier slots are forgotten).
  uint64_t reserve_ticks(uint64_t now, uint64_t start, uint64_t bytes) {
    return reserve_ticks(now, start, bytes, ticks(bytes));
  }
  // The same, for a caller that has the booking's occupancy_ticks(bytes) at hand.
  uint64_t reserve_ticks(uint64_t now, uint64_t start, uint64_t bytes, uint64_t occupancy) {
    if (ticks_per_byte_ == 0 || bytes == 0) return start;
    forget_before(now);
    uint64_t slot = start >> slot_shift_;
    if (slot < base_) {  // before the forgotten past: book from the oldest slot kept
      slot = base_;
      start = base_ << slot_shift_;
    }
    double left = double(bytes);
    double offset = double(start - (slot << slot_shift_)) * bytes_per_tick_;  // bytes' worth of time into the slot
    uint64_t end = start;
    for (;; ++slot, offset = 0) {
      if (slot >= limit_) {  // nothing booked from here on
        end = lay_clear(slot, offset, left);
        break;
      }
      const uint64_t open = next_open(slot);
      if (open != slot) {  // skip a run of full slots
        slot = open;
        offset = 0;
      }
      float& used = slot_used(slot);
      const double floor = std::max(double(used), offset);
      const double room = slot_bytes_ - floor;
      const double take = std::min(room, left);
      if (take > kFullSlack) used = float(double(used) + take);
      if (used >= slot_bytes_ - kFullSlack) slots_[slot & mask_].skip = 1;
      if (room >= left) {
        end = (slot << slot_shift_) + static_cast<uint64_t>((floor + left) * ticks_per_byte_ + 0.5);
        break;
      }
      if (take > kFullSlack) left -= take;
    }
    busy_total_ += occupancy;
    next_free_ = std::max(next_free_, end);
    return end;
  }

  // The end of the latest booking.
  sc_core::sc_time next_free() const { return sc_core::sc_time::from_value(next_free_); }
  sc_core::sc_time busy_time() const { return sc_core::sc_time::from_value(busy_total_); }
  void reset() {
    slots_.clear();
    mask_ = 0;
    base_ = limit_ = 0;
    next_free_ = busy_total_ = 0;
  }

 private:
  // A slot's booked bytes, and 0 while it has room, else how far ahead to look for room;
  // together, so a booking touches one host cache line per slot.
  struct Slot {
    float used = 0.0f;
    uint32_t skip = 0;
  };
  // The bytes booked in `slot` (>= base_); the window grows to hold it.
  float& slot_used(uint64_t slot) {
    if (slot >= limit_) {
      if (slot >= base_ + slots_.size()) grow(slot);
      clear(limit_, slot + 1);
      limit_ = slot + 1;
    }
    return slots_[slot & mask_].used;
  }
  // Clears slots [from, to) (from >= limit_): the ring's places past limit_ still hold what
  // slots forgotten long ago left there, and are cleared only when the window reaches them.
  void clear(uint64_t from, uint64_t to) {
    if (to <= from) return;
    const size_t at = from & mask_, count = to - from;
    const size_t first = std::min(count, slots_.size() - at);
    std::fill_n(slots_.begin() + at, first, Slot{});
    std::fill_n(slots_.begin(), count - first, Slot{});
  }
  // The first slot at or after `slot` that has room: full slots point ahead (skip > 0),
  // and the pointers are shortened on the way, so a long run of full slots (a congested
  // link's backlog) is crossed in a step or two.
  uint64_t next_open(uint64_t slot) {
    uint64_t open = slot;
    while (open < limit_ && slots_[open & mask_].skip != 0) open += slots_[open & mask_].skip;
    while (slot < open && slot < limit_) {
      const uint64_t next = slot + slots_[slot & mask_].skip;
      slots_[slot & mask_].skip = static_cast<uint32_t>(open - slot);
      slot = next;
    }
    return open;
  }
  // The rest of a booking from `slot` on, where no slot is booked yet: the same steps as
  // reserve_ticks' loop (so the same result), without the lookups; every slot it reaches is
  // written whole (the ring's places past limit_ are not clear). Returns the booking's end.
  uint64_t lay_clear(uint64_t slot, double offset, double left) {
    // The last slot it can reach, for the ring's size only (so a margin of a slot for the
    // rounding of the product, which is cheaper than dividing, changes no result).
    const uint64_t last = slot + static_cast<uint64_t>((offset + left) * slots_per_byte_) + 2;
    if (last >= base_ + slots_.size()) grow(last);
    clear(limit_, slot);
    if (offset != 0) {  // a first slot entered part way
      const double room = slot_bytes_ - offset;
      if (room >= left) return lay_last(slot, offset, left);
      lay_part(slots_[slot & mask_], room);
      if (room > kFullSlack) left -= room;
      ++slot;
    }
    // Whole slots, simply full (the loop's steps give the same), each pointing to the last
    // slot so that a later booking crosses the run in one step. Their number comes from the
    // same subtractions the loop makes, so `left` ends exactly as there.
    uint64_t whole = 0;
    for (; left > slot_bytes_; ++whole) left -= slot_bytes_;
    lay_full(slot, whole);
    return lay_last(slot + whole, 0, left);
  }
  // lay_clear's `count` whole slots from `slot` on, written as the one or two stretches of
  // the ring they occupy (no index wrapping per slot: a large booking lays dozens).
  void lay_full(uint64_t slot, uint64_t count) {
    const float full = float(slot_bytes_);
    const size_t at = slot & mask_;
    const size_t first = std::min<size_t>(count, slots_.size() - at);
    Slot* stretch = slots_.data() + at;
    for (size_t i = 0; i < first; ++i) stretch[i] = Slot{full, static_cast<uint32_t>(count - i)};
    Slot* ring = slots_.data();  // the run goes on from the ring's start
    for (size_t i = first; i < count; ++i) ring[i - first] = Slot{full, static_cast<uint32_t>(count - i)};
  }
  // lay_clear's last slot, where the booking's `left` bytes fit from `offset` on.
  uint64_t lay_last(uint64_t slot, double offset, double left) {
    lay_part(slots_[slot & mask_], left);
    limit_ = std::max(limit_, slot + 1);
    return (slot << slot_shift_) + static_cast<uint64_t>((offset + left) * ticks_per_byte_ + 0.5);
  }
  // A clear slot given `take` bytes (as reserve_ticks' loop books them).
  void lay_part(Slot& s, double take) const {
    s.used = take > kFullSlack ? float(take) : 0.0f;
    s.skip = s.used >= slot_bytes_ - kFullSlack ? 1 : 0;
  }
  // The slots live in a power-of-two ring indexed by slot number; slots from limit_ on are
  // clear (their places in the ring are cleared when the window reaches them). Growing
  // re-lays the kept slots [base_, limit_) into a larger ring.
  void grow(uint64_t slot) {
    size_t size = std::max<size_t>(64, slots_.size());
    while (slot >= base_ + size) size *= 2;
    std::vector<Slot> slots(size);
    for (uint64_t s = base_; s < limit_; ++s) slots[s & (size - 1)] = slots_[s & mask_];
    slots_.swap(slots);
    mask_ = size - 1;
  }
  // Slots that ended before `now` can no longer be booked (nobody books in the past): the
  // window moves on, and their places in the ring are reused (cleared when reached).
  void forget_before(uint64_t now) {
    const uint64_t slot_now = now >> slot_shift_;
    if (slot_now <= base_) return;
    base_ = slot_now;
    limit_ = std::max(limit_, base_);
  }

  uint64_t ticks(uint64_t bytes) const {
    return static_cast<uint64_t>(ticks_per_byte_ * static_cast<double>(bytes) + 0.5);
  }

  // Those a booking reads first (the resource spans two host cache lines).
  double ticks_per_byte_ = 0;  // in SystemC time resolution units
  double bytes_per_tick_ = 0;
  unsigned slot_shift_ = 0;  // a slot is 2^slot_shift_ time units
  double slot_bytes_ = 0;
  double slots_per_byte_ = 0;  // 1 / slot_bytes_
  std::vector<Slot> slots_;  // at slot & mask_
  uint64_t mask_ = 0;
  uint64_t base_ = 0;   // the oldest slot kept
  uint64_t limit_ = 0;  // one past the newest slot touched
  static constexpr double kFullSlack = 1e-3;  // bytes of room that count as none
  uint64_t next_free_ = 0;
  uint64_t busy_total_ = 0;
  double ps_per_byte_ = 0;
};

}  // namespace npuvp
