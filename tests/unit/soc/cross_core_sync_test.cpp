// The cross-core flag counters on their own: which counters each mode counts up, and when.
#include <gtest/gtest.h>
#include <systemc>
#include "models/soc/cross_core_sync.h"

namespace cross_core_sync_test {
using npuvp::aicore::CoreKind;
using npuvp::soc::CrossCoreSync;

// Two AI Cores: aic0, aic1 (cores 0, 1) and aiv0..aiv3 (cores 2..5; aiv0, aiv1 in AI Core 0).
CrossCoreSync two_ai_cores(CrossCoreSync::Params p = {}) {
  std::vector<CrossCoreSync::Seat> seats = {
      {"soc.aic0", CoreKind::Aic, 0, 0}, {"soc.aic1", CoreKind::Aic, 1, 0}, {"soc.aiv0", CoreKind::Aiv, 0, 0},
      {"soc.aiv1", CoreKind::Aiv, 0, 1}, {"soc.aiv2", CoreKind::Aiv, 1, 0}, {"soc.aiv3", CoreKind::Aiv, 1, 1}};
  CrossCoreSync sync(p, seats);
  sync.begin_launch(std::vector<bool>(6, true));
  return sync;
}

std::vector<unsigned> counters(const CrossCoreSync& sync, uint32_t id) {
  std::vector<unsigned> v;
  for (int c = 0; c < 6; ++c) v.push_back(sync.counter(c, id));
  return v;
}

TEST(CrossCoreSyncTest, Mode2AicSetCountsUpItsAivs) {
  auto sync = two_ai_cores();
  EXPECT_EQ(sync.set(0, 2, 3), "");
  EXPECT_EQ(counters(sync, 3), (std::vector<unsigned>{0, 0, 1, 1, 0, 0}));
  EXPECT_EQ(counters(sync, 2), std::vector<unsigned>(6, 0)) << "another id counted up";
}

TEST(CrossCoreSyncTest, Mode2CountsUpTheAicOnceBothAivsHaveSet) {
  auto sync = two_ai_cores();
  EXPECT_EQ(sync.set(2, 2, 1), "");
  EXPECT_EQ(sync.set(2, 2, 1), "");  // aiv0 twice: still waiting for aiv1
  EXPECT_EQ(sync.counter(0, 1), 0u);
  EXPECT_EQ(sync.set(3, 2, 1), "");
  EXPECT_EQ(sync.counter(0, 1), 1u);
  EXPECT_EQ(sync.set(3, 2, 1), "");  // pairs with aiv0's second set
  EXPECT_EQ(counters(sync, 1), (std::vector<unsigned>{2, 0, 0, 0, 0, 0}));
}

TEST(CrossCoreSyncTest, Mode1CountsUpBothAivsOfOneAiCore) {
  auto sync = two_ai_cores();
  EXPECT_EQ(sync.set(4, 1, 0), "");
  EXPECT_EQ(counters(sync, 0), std::vector<unsigned>(6, 0));
  EXPECT_EQ(sync.set(5, 1, 0), "");
  EXPECT_EQ(counters(sync, 0), (std::vector<unsigned>{0, 0, 0, 0, 1, 1}));
}

TEST(CrossCoreSyncTest, Mode0WaitsForEveryCoreOfTheKindInTheLaunch) {
  auto sync = two_ai_cores();
  for (int c : {2, 3, 4}) EXPECT_EQ(sync.set(c, 0, 7), "");
  EXPECT_EQ(counters(sync, 7), std::vector<unsigned>(6, 0));
  EXPECT_EQ(sync.set(5, 0, 7), "");
  EXPECT_EQ(counters(sync, 7), (std::vector<unsigned>{0, 0, 1, 1, 1, 1}));
  // Cores outside the launch take no part.
  sync.begin_launch({true, false, true, true, true, true});
  EXPECT_EQ(counters(sync, 7), std::vector<unsigned>(6, 0)) << "a new launch starts at 0";
  EXPECT_EQ(sync.set(0, 0, 7), "");
  EXPECT_EQ(counters(sync, 7), (std::vector<unsigned>{1, 0, 0, 0, 0, 0}));
}

TEST(CrossCoreSyncTest, LimitsAreParameters) {
  CrossCoreSync::Params p;
  p.flag_ids = 4;
  p.counter_limit = 2;
  auto sync = two_ai_cores(p);
  EXPECT_EQ(sync.check_set(2, 1, 4), "flag id 4 out of range [0, 3]");
  EXPECT_EQ(sync.check_wait(2, 4), "flag id 4 out of range [0, 3]");
  EXPECT_EQ(sync.check_set(2, 3, 0), "mode 3 out of range [0, 2]");
  EXPECT_EQ(sync.check_set(0, 1, 0), "mode 1 synchronises the AIVs of one AI Core; an AIC takes no part");
  EXPECT_EQ(sync.set(0, 2, 0), "");
  EXPECT_EQ(sync.set(0, 2, 0), "");
  EXPECT_EQ(sync.set(0, 2, 0), "the flag 0 counter of soc.aiv0 is already at its limit of 2 pending sets "
                               "(more CrossCoreSetFlag than CrossCoreWaitFlag)");
  EXPECT_EQ(counters(sync, 0), (std::vector<unsigned>{0, 0, 2, 2, 0, 0})) << "a refused set changed a counter";
}

// A waiting core wakes on its counted_up event until its counter is above 0, then counts it
// down (as AiCore::run_pipes does).
struct WaitingAiv : sc_core::sc_module {
  CrossCoreSync sync = two_ai_cores();
  sc_core::sc_time woke;
  SC_CTOR(WaitingAiv) {
    SC_THREAD(aiv);
    SC_THREAD(aic);
  }
  void aiv() {
    while (!sync.is_set(2, 5)) wait(sync.counted_up(2));
    sync.take(2, 5);
    woke = sc_core::sc_time_stamp();
  }
  void aic() {
    wait(5, sc_core::SC_NS);
    sync.set(0, 2, 4);  // another id: no wake-up
    wait(5, sc_core::SC_NS);
    sync.set(0, 2, 5);
  }
};

TEST(CrossCoreSyncTest, WaitBlocksUntilTheCounterIsAboveZero) {
  WaitingAiv top("top");
  sc_core::sc_start();
  EXPECT_EQ(top.woke, sc_core::sc_time(10, sc_core::SC_NS));
  EXPECT_EQ(top.sync.counter(2, 5), 0u);  // consumed
  EXPECT_EQ(top.sync.counter(3, 5), 1u);  // aiv1 never waited
}

}  // namespace cross_core_sync_test
