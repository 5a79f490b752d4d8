#include <gtest/gtest.h>
#include "models/aicore/event_sync.h"

namespace event_sync_test {
using npuvp::aicore::EventSync;
using npuvp::aicore::Pipe;

TEST(EventSyncTest, IdRangeFollowsParameter) {
  EventSync four(4);
  EXPECT_TRUE(four.check(3).empty());
  EXPECT_EQ(four.check(4), "event id 4 out of range [0, 3]");
}

// A flag is named by source, destination and id: setting one leaves the others clear, and
// taking it consumes the set.
TEST(EventSyncTest, TakeConsumesOnlyItsOwnFlag) {
  EventSync sync(8);
  sync.set(Pipe::MTE2, Pipe::V, 1);
  sync.set(Pipe::MTE3, Pipe::V, 2);
  EXPECT_FALSE(sync.is_set(Pipe::MTE2, Pipe::V, 2));
  sync.set(Pipe::MTE2, Pipe::V, 2);
  EXPECT_TRUE(sync.is_set(Pipe::MTE2, Pipe::V, 2));
  sync.take(Pipe::MTE2, Pipe::V, 2);
  EXPECT_FALSE(sync.is_set(Pipe::MTE2, Pipe::V, 2));
  EXPECT_TRUE(sync.is_set(Pipe::MTE2, Pipe::V, 1));
  EXPECT_TRUE(sync.is_set(Pipe::MTE3, Pipe::V, 2));
  sync.reset();
  EXPECT_FALSE(sync.is_set(Pipe::MTE2, Pipe::V, 1));
}

TEST(EventSyncTest, SetTwiceCountsTwice) {
  EventSync s(8);
  s.set(Pipe::V, Pipe::MTE3, 0);
  s.set(Pipe::V, Pipe::MTE3, 0);
  s.take(Pipe::V, Pipe::MTE3, 0);
  EXPECT_TRUE(s.is_set(Pipe::V, Pipe::MTE3, 0));
  s.take(Pipe::V, Pipe::MTE3, 0);
  EXPECT_FALSE(s.is_set(Pipe::V, Pipe::MTE3, 0));
}
}  // namespace event_sync_test
