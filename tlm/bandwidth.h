// A bandwidth resource: a link, a port or a memory channel that serves one transfer at a time.
// It books transfers into free intervals of its time line, so a transfer that starts while it
// is busy waits for the next gap long enough to hold it. Because it works on (start time,
// bytes) rather than on a process per cycle, it stays correct under temporal decoupling:
// initiators book at their local times, which arrive out of order; a late booking for an
// early time fills a gap instead of queueing behind bookings made for the future.
#pragma once
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <systemc>

namespace npuvp {

class BandwidthResource {
 public:
  // bytes_per_second <= 0 means unlimited.
  explicit BandwidthResource(double bytes_per_second = 0) { set_bandwidth(bytes_per_second); }

  void set_bandwidth(double bytes_per_second) {
    ps_per_byte_ = bytes_per_second > 0 ? 1e12 / bytes_per_second : 0.0;
    ticks_per_byte_ = ps_per_byte_ * (sc_core::sc_time(1, sc_core::SC_PS).value());
  }
  double bytes_per_second() const { return ps_per_byte_ > 0 ? 1e12 / ps_per_byte_ : 0.0; }

  // Time `bytes` occupy the resource (built from the raw value: constructing an sc_time
  // from a double and a unit is costly, and this is on every transaction's path).
  sc_core::sc_time occupancy(uint64_t bytes) const {
    return sc_core::sc_time::from_value(ticks(bytes));
  }

  // Books the resource for `bytes` in the first gap that starts no earlier than `start`;
  // returns when the transfer has gone through.
  sc_core::sc_time reserve(const sc_core::sc_time& start, uint64_t bytes) {
    const uint64_t length = ticks(bytes);
    uint64_t begin = start.value();
    if (length == 0) return start;
    forget_before(sc_core::sc_time_stamp().value());
    auto it = busy_.upper_bound(begin);
    if (it != busy_.begin()) {
      auto prev = std::prev(it);
      if (prev->second > begin) begin = prev->second;
    }
    while (it != busy_.end() && it->first < begin + length) {
      begin = std::max(begin, it->second);
      ++it;
    }
    insert(begin, begin + length);
    busy_total_ += length;
    next_free_ = std::max(next_free_, begin + length);
    return sc_core::sc_time::from_value(begin + length);
  }

  // The end of the latest booking.
  sc_core::sc_time next_free() const { return sc_core::sc_time::from_value(next_free_); }
  sc_core::sc_time busy_time() const { return sc_core::sc_time::from_value(busy_total_); }
  void reset() {
    busy_.clear();
    next_free_ = busy_total_ = 0;
  }

 private:
  // Bookings that ended before `now` can no longer be hit: nobody books in the past.
  void forget_before(uint64_t now) {
    while (!busy_.empty() && busy_.begin()->second <= now) busy_.erase(busy_.begin());
  }
  // Adds [begin, end), merging with touching neighbours so streams stay one interval.
  void insert(uint64_t begin, uint64_t end) {
    auto next = busy_.lower_bound(begin);
    if (next != busy_.end() && next->first == end) {
      end = next->second;
      next = busy_.erase(next);
    }
    if (next != busy_.begin()) {
      auto prev = std::prev(next);
      if (prev->second == begin) {
        prev->second = end;
        return;
      }
    }
    busy_.emplace_hint(next, begin, end);
  }

  uint64_t ticks(uint64_t bytes) const {
    return static_cast<uint64_t>(ticks_per_byte_ * static_cast<double>(bytes) + 0.5);
  }

  double ps_per_byte_ = 0;
  double ticks_per_byte_ = 0;  // in SystemC time resolution units
  std::map<uint64_t, uint64_t> busy_;  // begin -> end, in SystemC time units
  uint64_t next_free_ = 0;
  uint64_t busy_total_ = 0;
};

}  // namespace npuvp
