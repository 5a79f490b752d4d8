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
#include <vector>
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
    // Intervals are sorted and disjoint; most bookings land at or near the end.
    auto it = std::upper_bound(busy_.begin() + head_, busy_.end(), begin,
                               [](uint64_t t, const Interval& i) { return t < i.begin; });
    if (it != busy_.begin() + head_ && std::prev(it)->end > begin) begin = std::prev(it)->end;
    // A gap that fits is looked for among the next kMaxGapsScanned bookings; past them the
    // transfer goes after the last booking (bounds the cost on a heavily booked link).
    for (unsigned scanned = 0; it != busy_.end() && it->begin < begin + length; ++scanned) {
      if (scanned == kMaxGapsScanned) {
        begin = busy_.back().end;
        it = busy_.end();
        break;
      }
      begin = std::max(begin, it->end);
      ++it;
    }
    insert(it, begin, begin + length);
    busy_total_ += length;
    next_free_ = std::max(next_free_, begin + length);
    return sc_core::sc_time::from_value(begin + length);
  }

  // The end of the latest booking.
  sc_core::sc_time next_free() const { return sc_core::sc_time::from_value(next_free_); }
  sc_core::sc_time busy_time() const { return sc_core::sc_time::from_value(busy_total_); }
  void reset() {
    busy_.clear();
    head_ = 0;
    next_free_ = busy_total_ = 0;
  }

 private:
  struct Interval {
    uint64_t begin, end;
  };
  using Iterator = std::vector<Interval>::iterator;

  // Bookings that ended before `now` can no longer be hit: nobody books in the past. They are
  // skipped by advancing head_, and dropped in bulk once they are half the vector.
  void forget_before(uint64_t now) {
    while (head_ < busy_.size() && busy_[head_].end <= now) ++head_;
    if (head_ > 64 && head_ * 2 > busy_.size()) {
      busy_.erase(busy_.begin(), busy_.begin() + static_cast<long>(head_));
      head_ = 0;
    }
  }
  // Adds [begin, end) before `next`, merging with touching neighbours so streams stay one
  // interval.
  void insert(Iterator next, uint64_t begin, uint64_t end) {
    const bool joins_prev = next != busy_.begin() + static_cast<long>(head_) && std::prev(next)->end == begin;
    const bool joins_next = next != busy_.end() && next->begin == end;
    if (joins_prev && joins_next) {
      std::prev(next)->end = next->end;
      busy_.erase(next);
    } else if (joins_prev) {
      std::prev(next)->end = end;
    } else if (joins_next) {
      next->begin = begin;
    } else {
      busy_.insert(next, Interval{begin, end});
    }
  }

  uint64_t ticks(uint64_t bytes) const {
    return static_cast<uint64_t>(ticks_per_byte_ * static_cast<double>(bytes) + 0.5);
  }

  static constexpr unsigned kMaxGapsScanned = 32;

  double ps_per_byte_ = 0;
  double ticks_per_byte_ = 0;  // in SystemC time resolution units
  std::vector<Interval> busy_;  // sorted, disjoint, in SystemC time units; [0, head_) are past
  size_t head_ = 0;
  uint64_t next_free_ = 0;
  uint64_t busy_total_ = 0;
};

}  // namespace npuvp
