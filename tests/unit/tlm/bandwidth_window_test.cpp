// Issue 29: a bandwidth resource's host memory is bounded however far ahead of simulated
// time it is booked (a slow link in front of a fast L2 slice books it seconds ahead), and a
// booking longer than the window still ends where its bytes' time says.
#include <gtest/gtest.h>
#include "tlm/bandwidth.h"

namespace bandwidth_window_test {

using npuvp::BandwidthResource;

TEST(BandwidthWindow, BookingsFarAheadKeepAtMostTheWindow) {
  BandwidthResource r(128e9);  // an L2 slice: a slot is 16 ns
  const uint64_t second = sc_core::sc_time(1, sc_core::SC_SEC).value();
  uint64_t last_end = 0;
  for (uint64_t i = 0; i < 10000; ++i) {
    const uint64_t start = i * (second / 10000);  // 1 s of simulated time ahead of now = 0
    last_end = r.reserve_ticks(0, start, 64);
    EXPECT_EQ(last_end, start + r.occupancy_ticks(64)) << i;  // an idle resource: no wait
    if (last_end != start + r.occupancy_ticks(64)) break;
  }
  EXPECT_LE(r.slots_kept(), BandwidthResource::kMaxSlots);  // was a ring of 1 s / 16 ns slots (500 MB)
}

TEST(BandwidthWindow, BookingLongerThanTheWindowEndsAtItsBytesTime) {
  BandwidthResource r(1e9);
  const uint64_t bytes = uint64_t(1) << 30;  // 2^19 slots of 2 KiB: longer than the window
  const uint64_t end = r.reserve_ticks(0, 1000, bytes);
  EXPECT_EQ(end, 1000 + r.occupancy_ticks(bytes));
  EXPECT_LE(r.slots_kept(), BandwidthResource::kMaxSlots);
  // The next booking waits behind it.
  EXPECT_EQ(r.reserve_ticks(0, 0, 2048), end + r.occupancy_ticks(2048));
}

TEST(BandwidthWindow, WithinTheWindowNothingChanges) {
  // Back-to-back bookings a little ahead of now: each waits for the one before.
  BandwidthResource r(10e9);
  uint64_t end = 0;
  for (int i = 0; i < 1000; ++i) end = r.reserve_ticks(0, 0, 4096);
  EXPECT_EQ(end, 1000 * r.occupancy_ticks(4096));
}

}  // namespace bandwidth_window_test
