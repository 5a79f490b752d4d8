#include <gtest/gtest.h>
#include <systemc>
#include "models/aicore/event_sync.h"

namespace {
using npuvp::aicore::EventSync;
using npuvp::aicore::Pipe;

TEST(EventSyncTest, IdRangeFollowsParameter) {
  EventSync four(4);
  EXPECT_TRUE(four.check(3).empty());
  EXPECT_EQ(four.check(4), "event id 4 out of range [0, 3]");
}

// A waiter blocks until the flag is set, then consumes it; flags of other pipes don't wake it.
struct Waiter : sc_core::sc_module {
  EventSync sync{8};
  sc_core::sc_time woke;
  SC_CTOR(Waiter) {
    SC_THREAD(wait_side);
    SC_THREAD(set_side);
  }
  void wait_side() {
    sync.wait(Pipe::MTE2, Pipe::V, 2);
    woke = sc_core::sc_time_stamp();
  }
  void set_side() {
    wait(5, sc_core::SC_NS);
    sync.set(Pipe::MTE2, Pipe::V, 1);  // another id: no wake-up
    wait(5, sc_core::SC_NS);
    sync.set(Pipe::MTE3, Pipe::V, 2);  // another source pipe: no wake-up
    wait(5, sc_core::SC_NS);
    sync.set(Pipe::MTE2, Pipe::V, 2);
  }
};

TEST(EventSyncTest, WaitBlocksUntilItsFlagIsSetAndConsumesIt) {
  Waiter w("w");
  sc_core::sc_start();
  EXPECT_EQ(w.woke, sc_core::sc_time(15, sc_core::SC_NS));
  EXPECT_FALSE(w.sync.is_set(Pipe::MTE2, Pipe::V, 2));
  EXPECT_TRUE(w.sync.is_set(Pipe::MTE2, Pipe::V, 1));
  EXPECT_TRUE(w.sync.is_set(Pipe::MTE3, Pipe::V, 2));
  w.sync.reset();
  EXPECT_FALSE(w.sync.is_set(Pipe::MTE2, Pipe::V, 1));
}

TEST(EventSyncTest, SetTwiceCountsTwice) {
  EventSync s(8);
  s.set(Pipe::V, Pipe::MTE3, 0);
  s.set(Pipe::V, Pipe::MTE3, 0);
  EXPECT_TRUE(s.is_set(Pipe::V, Pipe::MTE3, 0));
}
}  // namespace
