#include "tlm/bandwidth.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>

using sc_core::SC_NS;
using sc_core::SC_US;
using sc_core::sc_time;

TEST(BandwidthTest, UnlimitedTakesNoTime) {
  npuvp::BandwidthResource r;
  EXPECT_EQ(r.bytes_per_second(), 0.0);
  EXPECT_EQ(r.occupancy(1 << 20), sc_core::SC_ZERO_TIME);
  EXPECT_EQ(r.reserve(sc_time(5, SC_NS), 4096), sc_time(5, SC_NS));
}

TEST(BandwidthTest, OccupancyFollowsBandwidth) {
  npuvp::BandwidthResource r(1e9);  // 1 byte per ns
  EXPECT_DOUBLE_EQ(r.bytes_per_second(), 1e9);
  EXPECT_EQ(r.occupancy(1024), sc_time(1024, SC_NS));
  r.set_bandwidth(2e9);
  EXPECT_EQ(r.occupancy(1024), sc_time(512, SC_NS));
}

TEST(BandwidthTest, ReserveQueuesBehindEarlierTransfers) {
  npuvp::BandwidthResource r(1e9);
  EXPECT_EQ(r.reserve(sc_core::SC_ZERO_TIME, 1000), sc_time(1, SC_US));
  // Starts while busy: waits for the first transfer.
  EXPECT_EQ(r.reserve(sc_core::SC_ZERO_TIME, 1000), sc_time(2, SC_US));
  EXPECT_EQ(r.reserve(sc_time(1500, SC_NS), 500), sc_time(2500, SC_NS));
  // Starts after an idle gap: no queueing, and the gap is not busy time.
  EXPECT_EQ(r.reserve(sc_time(5, SC_US), 1000), sc_time(6, SC_US));
  EXPECT_EQ(r.next_free(), sc_time(6, SC_US));
  EXPECT_EQ(r.busy_time(), sc_time(3500, SC_NS));

  r.reset();
  EXPECT_EQ(r.next_free(), sc_core::SC_ZERO_TIME);
  EXPECT_EQ(r.busy_time(), sc_core::SC_ZERO_TIME);
  EXPECT_EQ(r.reserve(sc_core::SC_ZERO_TIME, 1000), sc_time(1, SC_US));
}

namespace bandwidth_test {

// The booking rule of tlm/bandwidth.h written plainly: every slot's booked time in a map,
// nothing forgotten but what lies before `now`'s slot, no skip pointers, no ring.
class PlainSlots {
 public:
  explicit PlainSlots(double bytes_per_second) {
    ticks_per_byte_ = 1e12 / bytes_per_second * double(sc_time(1, sc_core::SC_PS).value());
    while (shift_ < npuvp::BandwidthResource::kMaxSlotShift &&
           (uint64_t(2) << shift_) <= ticks(npuvp::BandwidthResource::kSlotBytes))
      ++shift_;
  }
  uint64_t reserve(uint64_t now, uint64_t start, uint64_t bytes) {
    base_ = std::max(base_, now >> shift_);
    uint64_t slot = start >> shift_;
    if (slot < base_) {
      slot = base_;
      start = base_ << shift_;
    }
    const uint64_t length = uint64_t(1) << shift_;
    uint64_t left = ticks(bytes);
    uint64_t offset = start - (slot << shift_);
    for (;; ++slot, offset = 0) {
      uint64_t& used = used_[slot];
      const uint64_t floor = std::max(used, offset);
      const uint64_t take = std::min(length - floor, left);
      used += take;
      if (take == left) return (slot << shift_) + floor + left;
      left -= take;
    }
  }

 private:
  uint64_t ticks(uint64_t bytes) const { return static_cast<uint64_t>(ticks_per_byte_ * double(bytes) + 0.5); }
  double ticks_per_byte_ = 0;
  unsigned shift_ = 0;
  uint64_t base_ = 0;
  std::map<uint64_t, uint64_t> used_;
};

// The resource's ring of slots, its skip pointers over full runs, its fast path for clear
// slots and its forgetting of the past give what the plain rule gives, booking for booking:
// bookings out of order, overlapping and far apart, idle stretches longer than the ring,
// transfers from a few bytes to hundreds of slots.
TEST(BandwidthTest, BookingsMatchThePlainSlotRule) {
  for (double bytes_per_second : {256e9, 37.5e9, 1e9, 1e5}) {
    npuvp::BandwidthResource resource(bytes_per_second);
    PlainSlots plain(bytes_per_second);
    std::mt19937_64 random(7);
    const uint64_t tick = sc_time(1, sc_core::SC_NS).value();
    const double ticks_per_byte = double(resource.occupancy_ticks(1 << 20)) / double(1 << 20);
    uint64_t now = 0;
    for (int i = 0; i < 20000; ++i) {
      const unsigned kind = random() % 100;
      const uint64_t bytes = kind < 98 ? 1 + random() % 4096 : 1 + random() % (1 << 18);
      const uint64_t start = now + (kind < 10 ? 0 : random() % (2000 * tick));
      // Time moves on by 0-2.5 times the booking's occupancy (a busy resource, at times
      // behind), now and then by a long idle stretch.
      if (kind == 50) now += (1 + random() % 4000) * 1000 * tick;
      ASSERT_EQ(resource.reserve_ticks(now, start, bytes), plain.reserve(now, start, bytes))
          << "booking " << i << " at " << bytes_per_second << " B/s";
      now += static_cast<uint64_t>(double(bytes) * ticks_per_byte * double(random() % 250) / 100);
    }
  }
}
}  // namespace bandwidth_test
