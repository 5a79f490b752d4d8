// Time of VSM transfers per level (docs/mncore2-isa.md, "Configuration and timing"): an L1BM or
// L2BM instruction occupies its block's port for its words at mncore2.l1b/l2b.lw_per_cycle and
// stretches its step when that is longer than the step; an MV transfer's tag completes after
// the latency and its words at the Data Engine's rate inside a Group, the inter-Group rate
// between Groups. Relations only: twice the words, twice the time; twice the rate, half of it.
#include <gtest/gtest.h>

#include <string>

#include "models/mncore/vsm.h"
#include "tests/support/error_of.h"

namespace npuvp::mncore::vsm {
namespace vsm_transfer_timing_test {

using npuvp::testing::error_of;

// A small board with two Groups (MV between Groups) and the 8 L1Bs per L2B l2bmr2 pairs.
Shape small() {
  Shape s;
  s.groups = 2;
  s.l2b_per_group = 1;
  s.l1b_per_l2b = 8;
  return s;
}

RunStats run(const std::string& text, const Shape& shape) {
  Machine m(shape);
  std::string dump;
  m.run(parse(text, "t.vsm"), dump);
  return m.stats();
}
uint64_t cycles(const std::string& text, const Shape& shape) { return run(text, shape).cycles; }

Shape with_l1b(unsigned rate) {
  Shape s = small();
  s.l1b_lw_per_cycle = rate;
  return s;
}
Shape with_l2b(unsigned rate) {
  Shape s = small();
  s.l2b_lw_per_cycle = rate;
  return s;
}

TEST(VsmTransferTiming, DocumentedRatesFitOneStepEach) {
  // l1bmd 64 LW per cycle, l2bmd 256 LW and l2bmb 64 LW per step: each is one 4-cycle step.
  const std::string text = "l1bmd $lb0 $lr0v\nl1bmd $lr0v $lb256\nl2bmd $lc0 $lb0\nl2bmd $lb0 $lc256\n"
                           "l2bmb $lc0 $lb512\nl2bmr2dfadd $lb0 $lc1024\nl1bmm4 $lb0 $lr0v\n";
  const RunStats s = run(text, small());
  EXPECT_EQ(s.steps, 7u);
  EXPECT_EQ(s.cycles, 7u * 4);
  EXPECT_EQ(s.transfer_stall_cycles, 0u);
}

TEST(VsmTransferTiming, L1bmTimeGrowsWithItsWords) {
  // At 1 LW per cycle: l1bmm moves 16 LW per L1B (a MAB's 4 PEs x 4 cycles), l1bmm4 64, l1bmd 256.
  const Shape s = with_l1b(1);
  const uint64_t mab = cycles("l1bmm $lb0 $lr0v\n", s), four = cycles("l1bmm4 $lb0 $lr0v\n", s),
                 all = cycles("l1bmd $lb0 $lr0v\n", s);
  EXPECT_EQ(mab, 16u);
  EXPECT_EQ(four, 4 * mab);
  EXPECT_EQ(all, 4 * four);
  // Two LW per PE and cycle ($llb) are twice the words of one.
  EXPECT_EQ(cycles("l1bmm $llb0 $llr0v\n", s), 2 * mab);
}

TEST(VsmTransferTiming, TwiceTheL1bRateHalvesTheTime) {
  const std::string text = "l1bmd $lb0 $lr0v\nl1bmd $lr0v $lb256\n";
  const uint64_t slow = cycles(text, with_l1b(8)), fast = cycles(text, with_l1b(16));
  EXPECT_EQ(slow, 2u * 256 / 8);
  EXPECT_EQ(fast * 2, slow);
}

TEST(VsmTransferTiming, L2bmdMovesFourTimesTheWordsOfL2bmbInTheSameTime) {
  // The manual's figures: l2bmd 256 LW per step, l2bmb 64. At any port rate they take the
  // same time, so l2bmd's words per cycle are four times l2bmb's.
  for (unsigned rate : {4u, 16u}) {
    const Shape s = with_l2b(rate);
    const uint64_t b = cycles("l2bmb $lc0 $lb0\n", s), d = cycles("l2bmd $lc0 $lb0\n", s);
    EXPECT_EQ(b, 256u / rate);
    EXPECT_EQ(d, b);
    EXPECT_EQ(256.0 / double(d), 4 * (64.0 / double(b)));
  }
}

TEST(VsmTransferTiming, TwiceTheL2bRateHalvesTheTime) {
  const std::string text = "l2bmb $lc0 $lb0\nl2bmr2dfadd $lb0 $lc256\nl2bmrdfadd $lb0 $lc512\n";
  const uint64_t slow = cycles(text, with_l2b(2)), fast = cycles(text, with_l2b(4));
  EXPECT_EQ(fast * 2, slow);
  const RunStats r = run(text, with_l2b(4));
  EXPECT_EQ(r.transfer_stall_cycles, r.cycles - r.steps * 4);
  EXPECT_EQ(r.stall_cycles, r.transfer_stall_cycles);
}

TEST(VsmTransferTiming, AStretchedStepDelaysWhatFollowsButNotTheScore) {
  // The step after a slow l2bmb issues when the transfer is done: the dump is the same, the
  // step count is the same, the cycles grow by the transfer's excess.
  const std::string text = "d set $lc0n0c0 1 0000000000000007\nl2bmb $lc0 $lb0\nl1bmp $lb0 $lr0v\nnop/2\n"
                           "d get $lr0n0c0b3m2p1 1\n";
  Machine fast(small()), slow(with_l2b(1));
  std::string a, b;
  fast.run(parse(text, "t.vsm"), a);
  slow.run(parse(text, "t.vsm"), b);
  EXPECT_EQ(a, b);
  EXPECT_NE(a.find("v:0x7"), std::string::npos) << a;
  EXPECT_EQ(fast.stats().steps, slow.stats().steps);
  EXPECT_EQ(slow.stats().cycles - fast.stats().cycles, 256u - 4);
}

// Cycles from the MV's issue to the end of the `wait` on its tag.
uint64_t mv_time(const std::string& mv, const Shape& s) { return cycles(mv + "\nnop ; wait i1\n", s) - 4; }

Shape no_latency() {
  Shape s = small();
  s.mv_latency_cycles = 0;
  s.mv_cross_latency_cycles = 0;
  return s;
}

TEST(VsmTransferTiming, MvTimeGrowsWithItsWordsAndTheWaitWaitsForIt) {
  const Shape s = no_latency();
  const uint64_t one = mv_time("mvp/n256i1 $p0@0 $lc0@0.0", s), two = mv_time("mvp/n512i1 $p0@0 $lc0@0.0", s);
  EXPECT_EQ(one, 256u / 16);
  EXPECT_EQ(two, 2 * one);
  // The latency adds once.
  Shape late = s;
  late.mv_latency_cycles = 32;
  EXPECT_EQ(mv_time("mvp/n256i1 $p0@0 $lc0@0.0", late), one + 32);
}

TEST(VsmTransferTiming, MvBetweenGroupsRunsAtTheInterGroupRate) {
  // M 3.5.8.4: PDM -> L2BM at 16 LW per cycle inside a Group, 8 between Groups.
  const Shape s = no_latency();
  const uint64_t inside = mv_time("mvp/n256i1 $p0@0 $lc0@0.0", s), between = mv_time("mvp/n256i1 $p0@0 $lc0@1.0", s);
  EXPECT_EQ(between, 2 * inside);
  // A broadcast that reaches another Group is between Groups; mvb2 stays inside each.
  EXPECT_EQ(mv_time("mvb/n256i1 $p0@0 $lc0", s), between);
  EXPECT_EQ(mv_time("mvb2/n256i1 $p0 $lc0", s), inside);
  // Twice the inter-Group rate: the Data Engine's rate is then the slower one.
  Shape wide = s;
  wide.mv_cross_lw_per_cycle = 16;
  EXPECT_EQ(mv_time("mvp/n256i1 $p0@0 $lc0@1.0", wide), inside);
}

TEST(VsmTransferTiming, Mvb4MovesHalfItsWordsPerGroupAtTheInterGroupRate) {
  // M 3.5.8.16: 8 LW per cycle on the DRAM side (each Group's DRAM gives 32 of every 64 LW on
  // a 4-Group, 2-L2B board) and 16 on the L2BM side: the same time, size / 16 cycles.
  Shape s;
  s.mv_latency_cycles = 0;
  s.mv_cross_latency_cycles = 0;
  EXPECT_EQ(mv_time("mvb4/n256i1 $d0 $lc0", s), 256u / 16);
  s.mv_cross_lw_per_cycle = 4;
  EXPECT_EQ(mv_time("mvb4/n256i1 $d0 $lc0", s), 128u / 4);
}

TEST(VsmTransferTiming, AZeroRateIsAClearError) {
  Shape s = small();
  s.l2b_lw_per_cycle = 0;
  EXPECT_NE(error_of([&] { Machine m(s); }).find("at least 1 LW per cycle"), std::string::npos);
}

}  // namespace vsm_transfer_timing_test
}  // namespace npuvp::mncore::vsm
