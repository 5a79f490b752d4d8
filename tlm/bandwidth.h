// A bandwidth resource: a link, a port or a memory channel that serves one transfer at a time.
// It keeps the time it is next free, so a transfer that starts while it is busy queues behind
// the earlier ones. Because it works on (start time, bytes) rather than on a process per
// cycle, it stays correct under temporal decoupling: initiators pass their local time.
#pragma once
#include <algorithm>
#include <cstdint>
#include <systemc>

namespace npuvp {

class BandwidthResource {
 public:
  // bytes_per_second <= 0 means unlimited.
  explicit BandwidthResource(double bytes_per_second = 0) { set_bandwidth(bytes_per_second); }

  void set_bandwidth(double bytes_per_second) {
    ps_per_byte_ = bytes_per_second > 0 ? 1e12 / bytes_per_second : 0.0;
  }
  double bytes_per_second() const { return ps_per_byte_ > 0 ? 1e12 / ps_per_byte_ : 0.0; }

  // Time `bytes` occupy the resource.
  sc_core::sc_time occupancy(uint64_t bytes) const {
    return sc_core::sc_time(ps_per_byte_ * static_cast<double>(bytes), sc_core::SC_PS);
  }

  // Reserves the resource for `bytes` starting no earlier than `start`; returns when the
  // transfer has gone through.
  sc_core::sc_time reserve(const sc_core::sc_time& start, uint64_t bytes) {
    sc_core::sc_time begin = std::max(start, next_free_);
    sc_core::sc_time end = begin + occupancy(bytes);
    busy_ += end - begin;
    next_free_ = end;
    return end;
  }

  sc_core::sc_time next_free() const { return next_free_; }
  sc_core::sc_time busy_time() const { return busy_; }
  void reset() { next_free_ = sc_core::SC_ZERO_TIME; busy_ = sc_core::SC_ZERO_TIME; }

 private:
  double ps_per_byte_ = 0;
  sc_core::sc_time next_free_ = sc_core::SC_ZERO_TIME;
  sc_core::sc_time busy_ = sc_core::SC_ZERO_TIME;
};

}  // namespace npuvp
