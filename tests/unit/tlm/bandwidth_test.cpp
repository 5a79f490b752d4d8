#include "tlm/bandwidth.h"

#include <gtest/gtest.h>

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
