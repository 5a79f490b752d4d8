// A bandwidth resource: a link, a port or a memory channel that moves a fixed number of bytes
// per second. Its time line is cut into slots of 1-2 KiB's transfer time; a slot holds at
// most its length of transfer time, and a transfer takes the free room of the slots from its
// start on, so one that starts while the resource is busy waits for room. Because it books
// (start time, duration) rather than running a process per cycle, it stays correct under
// temporal decoupling: initiators book at their local times, which arrive out of order, and a
// late booking for an early time uses the room left in early slots instead of queueing behind
// bookings made for the future. A booking costs one step per slot it touches, however busy
// the resource is.
//
// Everything is counted in SystemC time units (a transfer's duration is its bytes' time,
// rounded once to a unit), so the bookings are exact integer arithmetic. Within a slot the
// booked time is packed from the slot's start: a transfer ends at max(its start, the slot's
// booked time before it) + its duration, so ordering inside one slot is approximate by at
// most one slot's time (a few cycles on a link).
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
  // A slot's booked time is kept in 32 bits, so a slot is at most 2^31 time units (at 1 ps
  // resolution, only a resource slower than 1 MB/s has slots of fewer than kSlotBytes / 2).
  static constexpr unsigned kMaxSlotShift = 31;
  // Most slots kept: the window from the oldest booking that may still be revised to the
  // newest. Host memory is then bounded however far ahead of simulated time bookings land (a
  // slow link delays a request by seconds, and the fast resource behind it is booked that far
  // ahead); a booking for a time older than the window's start is booked from its start,
  // like one for a time already forgotten. 2^16 slots of 8 B: 512 KiB per resource at most, a
  // window of 128 MiB of transfers at the resource's rate.
  static constexpr uint64_t kMaxSlots = uint64_t(1) << 16;

  // bytes_per_second <= 0 means unlimited.
  explicit BandwidthResource(double bytes_per_second = 0) { set_bandwidth(bytes_per_second); }

  void set_bandwidth(double bytes_per_second) {
    ps_per_byte_ = bytes_per_second > 0 ? 1e12 / bytes_per_second : 0.0;
    ticks_per_byte_ = ps_per_byte_ * double(sc_core::sc_time(1, sc_core::SC_PS).value());
    // A power of two of time units (so slot numbers are shifts, not divisions), holding
    // between kSlotBytes / 2 and kSlotBytes.
    slot_shift_ = 0;
    while (slot_shift_ < kMaxSlotShift && (uint64_t(2) << slot_shift_) <= ticks(kSlotBytes)) ++slot_shift_;
    slot_ticks_ = uint64_t(1) << slot_shift_;
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
    return reserve_occupancy(now, start, ticks(bytes));
  }
  // The same for a caller that has the booking's occupancy_ticks(bytes) at hand (0 for no
  // bytes or an unlimited resource: it takes no time).
  uint64_t reserve_occupancy(uint64_t now, uint64_t start, uint64_t occupancy) {
    if (occupancy == 0) return start;
    forget_before(now);
    uint64_t slot = start >> slot_shift_;
    if (slot < base_) {  // before the forgotten past: book from the oldest slot kept
      slot = base_;
      start = base_ << slot_shift_;
    }
    if (slot < hole_end_) fill_hole_from(slot);  // it may reach the hole's slots from `slot` on
    uint64_t left = occupancy;
    uint64_t offset = start & (slot_ticks_ - 1);  // time into the slot
    uint64_t end;
    for (;;) {
      if (slot >= limit_) {  // nothing booked from here on
        end = lay_clear(slot, offset, left);
        break;
      }
      const uint64_t open = next_open(slot);
      if (open != slot) {  // skip a run of full slots
        slot = open;
        offset = 0;
        continue;
      }
      Slot& s = slots_[slot & mask_];
      const uint64_t floor = std::max<uint64_t>(s.used, offset);
      const uint64_t take = std::min(slot_ticks_ - floor, left);  // > 0: the slot is open, offset < its length
      s.used += static_cast<uint32_t>(take);
      if (s.used == slot_ticks_) s.skip = 1;
      if (take == left) {
        end = (slot << slot_shift_) + floor + left;
        break;
      }
      left -= take;
      ++slot;
      offset = 0;
    }
    busy_total_ += occupancy;
    next_free_ = std::max(next_free_, end);
    return end;
  }

  // The end of the latest booking.
  sc_core::sc_time next_free() const { return sc_core::sc_time::from_value(next_free_); }
  sc_core::sc_time busy_time() const { return sc_core::sc_time::from_value(busy_total_); }
  size_t slots_kept() const { return slots_.size(); }  // host memory: at most kMaxSlots
  void reset() {
    slots_.clear();
    mask_ = 0;
    base_ = limit_ = 0;
    hole_begin_ = hole_end_ = 0;
    next_free_ = busy_total_ = 0;
  }

 private:
  // A slot's booked time units, and 0 while it has room, else how far ahead to look for
  // room; together, so a booking touches one host cache line per slot.
  struct Slot {
    uint32_t used = 0;
    uint32_t skip = 0;
  };
  // Clears slots [from, to): their places in the ring may still hold what slots forgotten
  // long ago left there.
  void clear(uint64_t from, uint64_t to) {
    if (to <= from) return;
    const size_t at = from & mask_, count = to - from;
    const size_t first = std::min(count, slots_.size() - at);
    std::fill_n(slots_.begin() + at, first, Slot{});
    std::fill_n(slots_.begin(), count - first, Slot{});
  }
  // The hole: slots [hole_begin_, hole_end_) that a booking past limit_ skipped. They are
  // clear, but their places in the ring are cleared only when a booking may reach them; on
  // an idle resource the window usually moves past them first, and they never are.
  void fill_hole() {
    if (hole_end_ > base_) clear(std::max(hole_begin_, base_), hole_end_);
    hole_begin_ = hole_end_ = 0;
  }
  // Clears only the hole's slots from `slot` on (a booking walks forward from its start, so
  // it cannot reach earlier ones); the rest stays a hole. A booking a little before the
  // newest one then clears a few slots, not the whole stretch skipped before it.
  void fill_hole_from(uint64_t slot) {
    const uint64_t from = std::max({slot, hole_begin_, base_});
    if (from <= std::max(hole_begin_, base_)) {
      fill_hole();
      return;
    }
    clear(from, hole_end_);
    hole_end_ = from;
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
  // reserve_occupancy's loop (so the same result), without the lookups; every slot it reaches is
  // written whole (the ring's places past limit_ are not clear). Returns the booking's end.
  // Inlined into its one caller: three bookings in four end here, and a call's register
  // saves and restores were an eighth of a booking's host instructions.
  __attribute__((always_inline)) uint64_t lay_clear(uint64_t slot, uint64_t offset, uint64_t left) {
    const uint64_t last = slot + ((offset + left - 1) >> slot_shift_);
    if (last >= base_ + slots_.size()) grow(last);  // may move base_ on (a full window)
    if (slot < base_) {  // a booking longer than the window: its first slots are forgotten at once
      left -= ((base_ - slot) << slot_shift_) - offset;
      slot = base_;
      offset = 0;
    }
    if (slot > limit_) {  // the slots skipped become the hole (an earlier hole is cleared first)
      fill_hole();
      hole_begin_ = limit_;
      hole_end_ = slot;
    }
    if (offset != 0) {  // a first slot entered part way
      const uint64_t room = slot_ticks_ - offset;
      if (room >= left) return lay_last(slot, offset, left);
      slots_[slot & mask_] = Slot{static_cast<uint32_t>(room), 0};  // room < the slot's length
      left -= room;
      ++slot;
    }
    // Whole slots, simply full, each pointing to the last slot so that a later booking
    // crosses the run in one step; the last slot takes the rest (1 to a slot's length).
    const uint64_t whole = (left - 1) >> slot_shift_;
    lay_full(slot, whole);
    return lay_last(slot + whole, 0, left - (whole << slot_shift_));
  }
  // lay_clear's `count` whole slots from `slot` on, written as the one or two stretches of
  // the ring they occupy (no index wrapping per slot: a large booking lays dozens).
  void lay_full(uint64_t slot, uint64_t count) {
    const auto full = static_cast<uint32_t>(slot_ticks_);
    const size_t at = slot & mask_;
    const size_t first = std::min<size_t>(count, slots_.size() - at);
    Slot* stretch = slots_.data() + at;
    for (size_t i = 0; i < first; ++i) stretch[i] = Slot{full, static_cast<uint32_t>(count - i)};
    Slot* ring = slots_.data();  // the run goes on from the ring's start
    for (size_t i = first; i < count; ++i) ring[i - first] = Slot{full, static_cast<uint32_t>(count - i)};
  }
  // lay_clear's last slot, where the booking's `left` time units fit from `offset` on
  // (packed from the slot's start, as reserve_occupancy's loop books them).
  uint64_t lay_last(uint64_t slot, uint64_t offset, uint64_t left) {
    slots_[slot & mask_] = Slot{static_cast<uint32_t>(left), left == slot_ticks_ ? 1u : 0u};
    limit_ = std::max(limit_, slot + 1);
    return (slot << slot_shift_) + offset + left;
  }
  // The slots live in a power-of-two ring indexed by slot number; slots from limit_ on, and
  // the hole's, are clear whatever their places in the ring hold (lay_clear writes every
  // place it books, fill_hole clears the hole's). Growing re-lays the kept slots
  // [base_, limit_) into a larger ring.
  void grow(uint64_t slot) {
    size_t size = std::max<size_t>(64, slots_.size());
    while (slot >= base_ + size && size < kMaxSlots) size *= 2;
    if (slot >= base_ + size) {  // the window at its largest: the oldest slots are forgotten
      base_ = slot + 1 - size;
      limit_ = std::max(limit_, base_);
    }
    if (size == slots_.size()) return;
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
  unsigned slot_shift_ = 0;    // a slot is 2^slot_shift_ time units
  uint64_t slot_ticks_ = 1;
  std::vector<Slot> slots_;  // at slot & mask_
  uint64_t mask_ = 0;
  uint64_t base_ = 0;   // the oldest slot kept
  uint64_t limit_ = 0;  // one past the newest slot touched
  uint64_t hole_begin_ = 0, hole_end_ = 0;  // see fill_hole()
  uint64_t next_free_ = 0;
  uint64_t busy_total_ = 0;
  double ps_per_byte_ = 0;
};

}  // namespace npuvp
