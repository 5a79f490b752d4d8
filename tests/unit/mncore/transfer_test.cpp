// Transfers at every level in every mode (broadcast, distribute, collect, reduce; copy at
// the top), their timing per the link parameters, overlap with PE work, and the hazard
// check that makes "data moves at the start" indistinguishable from hardware.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "tests/support/mncore_board.h"
#include "tlm/log.h"
#include "tests/support/error_of.h"

namespace npuvp::mncore {
namespace {

using npuvp::testing::error_of;

uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

class MncoreTransfer : public ::testing::Test {
 protected:
  void SetUp() override { board = test::make_board(); }
  // LW `i` of memory m in node `node` (PE memories: LW i = SW 2i, 2i+1).
  void put(Mem m, unsigned node, uint64_t lw, uint64_t v) { board->debug_write(m, node, lw * 8, &v, 8); }
  uint64_t get(Mem m, unsigned node, uint64_t lw) {
    uint64_t v = 0;
    board->debug_read(m, node, lw * 8, &v, 8);
    return v;
  }
  // A recognisable LW: which node, which word.
  static uint64_t tag(unsigned node, uint64_t lw) { return (uint64_t(node) << 32) | (lw + 1); }
  void fill(Mem m, uint64_t first, uint64_t count) {
    for (unsigned node = 0; node < board->nodes(m); ++node) {
      for (uint64_t i = 0; i < count; ++i) put(m, node, first + i, tag(node, first + i));
    }
  }
  std::unique_ptr<Board> board;
  // small_board(): 2 groups x 2 L2B x 2 L1B x 2 MAB x 4 PE.
  const unsigned groups = 2, l2b = 2, l1b = 2, mab = 2, pe = 4;
};

TEST_F(MncoreTransfer, DramToL2bmBroadcastAndDistribute) {
  fill(Mem::DRAM, 0, 64);
  test::run(*board, "bcast $d0 $lc0 4\ndist $d16 $lc8 3\nwait");
  for (unsigned g = 0; g < groups; ++g) {
    for (unsigned j = 0; j < l2b; ++j) {
      const unsigned node = g * l2b + j;
      for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(get(Mem::L2BM, node, i), tag(g, i));
      for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(get(Mem::L2BM, node, 8 + i), tag(g, 16 + 3 * j + i));
    }
  }
}

TEST_F(MncoreTransfer, L2bmToDramCollectAndReduce) {
  fill(Mem::L2BM, 0, 8);
  // Singles for the reduction: L2B n holds n + 0.5 and -2n in its two lanes of LW 20.
  for (unsigned n = 0; n < groups * l2b; ++n) put(Mem::L2BM, n, 20, fbits(n + 0.5f) | (uint64_t(fbits(-2.0f * n)) << 32));
  test::run(*board, "coll $lc2 $d100 3\nred.f $lc20 $d200 1\nwait");
  for (unsigned g = 0; g < groups; ++g) {
    for (unsigned j = 0; j < l2b; ++j) {
      for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(get(Mem::DRAM, g, 100 + 3 * j + i), tag(g * l2b + j, 2 + i));
    }
    const float lo = (2 * g + 0.5f) + (2 * g + 1 + 0.5f), hi = -2.0f * (2 * g) + -2.0f * (2 * g + 1);
    EXPECT_EQ(get(Mem::DRAM, g, 200), fbits(lo) | (uint64_t(fbits(hi)) << 32));
  }
}

TEST_F(MncoreTransfer, L2bmAndL1bmAllModes) {
  fill(Mem::L2BM, 0, 16);
  fill(Mem::L1BM, 100, 4);
  for (unsigned n = 0; n < board->nodes(Mem::L1BM); ++n) {
    const double d = 0.25 * n;  // doubles, exact sums
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    put(Mem::L1BM, n, 200, bits);
  }
  test::run(*board, "bcast $lc0 $lb0 2\ndist $lc4 $lb10 2\ncoll $lb100 $lc40 4\nred.d $lb200 $lc60 1\nwait");
  for (unsigned parent = 0; parent < groups * l2b; ++parent) {
    double sum = 0;
    for (unsigned j = 0; j < l1b; ++j) {
      const unsigned node = parent * l1b + j;
      EXPECT_EQ(get(Mem::L1BM, node, 0), tag(parent, 0));
      EXPECT_EQ(get(Mem::L1BM, node, 1), tag(parent, 1));
      EXPECT_EQ(get(Mem::L1BM, node, 10), tag(parent, 4 + 2 * j));
      EXPECT_EQ(get(Mem::L1BM, node, 11), tag(parent, 5 + 2 * j));
      for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(get(Mem::L2BM, parent, 40 + 4 * j + i), tag(node, 100 + i));
      sum += 0.25 * node;
    }
    uint64_t want;
    std::memcpy(&want, &sum, 8);
    EXPECT_EQ(get(Mem::L2BM, parent, 60), want);
  }
}

TEST_F(MncoreTransfer, L1bmToPeModesPerLevel) {
  fill(Mem::L1BM, 0, 64);
  // LW counts: 2 per block. Block index = digits of the distributing levels (MAB, PE).
  test::run(*board,
            "bcast $lb0 $lm0 2\n"       // every PE: blocks 0
            "bcast.dist $lb0 $lm4 2\n"  // PE q of every MAB: block q
            "dist.bcast $lb0 $lm8 2\n"  // every PE of MAB m: block m
            "dist $lb0 $ln0 2\n"        // PE (m, q): block m*4 + q
            "wait");
  for (unsigned l = 0; l < board->nodes(Mem::L1BM); ++l) {
    for (unsigned m = 0; m < mab; ++m) {
      for (unsigned q = 0; q < pe; ++q) {
        const unsigned p = l * mab * pe + m * pe + q;
        for (unsigned i = 0; i < 2; ++i) {
          EXPECT_EQ(get(Mem::LM0, p, 0 + i), tag(l, i));
          EXPECT_EQ(get(Mem::LM0, p, 2 + i), tag(l, 2 * q + i));
          EXPECT_EQ(get(Mem::LM0, p, 4 + i), tag(l, 2 * m + i));
          EXPECT_EQ(get(Mem::LM1, p, 0 + i), tag(l, 2 * (m * pe + q) + i));
        }
      }
    }
  }
}

TEST_F(MncoreTransfer, PeToL1bmCollectAndReducePerLevel) {
  // Each PE's GRF1 LW 0: two singles, p and 1/(p+1) (inexact: the order of the sums shows).
  const unsigned n = board->topology().pes();
  std::vector<float> a(n), b(n);
  for (unsigned p = 0; p < n; ++p) {
    a[p] = float(p);
    b[p] = 1.0f / float(p + 1);
    put(Mem::GRF1, p, 0, fbits(a[p]) | (uint64_t(fbits(b[p])) << 32));
    put(Mem::GRF1, p, 1, tag(p, 1));
  }
  test::run(*board,
            "coll $lls2 $lb0 1\n"       // block (m, q) <- PE (m, q)
            "red.f $ls0 $lb16 1\n"      // sum over PEs in each MAB, then over MABs
            "red.coll.f $ls0 $lb20 1\n" // block q <- sum over MABs of PE (m, q)
            "coll.red.f $ls0 $lb30 1\n" // block m <- sum over PEs of MAB m
            "wait");
  for (unsigned l = 0; l < board->nodes(Mem::L1BM); ++l) {
    const unsigned first = l * mab * pe;
    auto lw = [&](float x, float y) { return fbits(x) | (uint64_t(fbits(y)) << 32); };
    for (unsigned c = 0; c < mab * pe; ++c) EXPECT_EQ(get(Mem::L1BM, l, c), tag(first + c, 1));
    // red.red: ((pe0 + pe1) + pe2) + pe3 within each MAB, then MAB 0 + MAB 1.
    float total_a = 0, total_b = 0;
    for (unsigned m = 0; m < mab; ++m) {
      float sa = a[first + m * pe], sb = b[first + m * pe];
      for (unsigned q = 1; q < pe; ++q) {
        sa += a[first + m * pe + q];
        sb += b[first + m * pe + q];
      }
      if (m == 0) {
        total_a = sa;
        total_b = sb;
      } else {
        total_a += sa;
        total_b += sb;
      }
      EXPECT_EQ(get(Mem::L1BM, l, 30 + m), lw(sa, sb)) << "coll.red, MAB " << m;
    }
    EXPECT_EQ(get(Mem::L1BM, l, 16), lw(total_a, total_b));
    for (unsigned q = 0; q < pe; ++q) {
      const float sa = a[first + q] + a[first + pe + q], sb = b[first + q] + b[first + pe + q];
      EXPECT_EQ(get(Mem::L1BM, l, 20 + q), lw(sa, sb)) << "red.coll, PE " << q;
    }
  }
}

TEST_F(MncoreTransfer, HalfReductionRoundsPerAddition) {
  // Four PEs per MAB: 1, 2^-10, 2^-10, 2^-10 (halves). Sequentially each 1 + 2^-10 is a tie
  // that rounds back to 1, so the sum stays 1.0; summing the small ones first would give
  // 1 + 2^-9 (0x3E01). Only MAB 0's PEs hold data, the rest are zero.
  const uint64_t one = 0x3E00, tiny = 0x3E00 - (10u << 9);  // 2^-10
  for (unsigned l = 0; l < board->nodes(Mem::L1BM); ++l) {
    const unsigned first = l * mab * pe;
    put(Mem::LM1, first + 0, 0, one);
    for (unsigned q = 1; q < pe; ++q) put(Mem::LM1, first + q, 0, tiny);
  }
  test::run(*board, "red.h $ln0 $lb0 1\nwait");
  EXPECT_EQ(get(Mem::L1BM, 0, 0) & 0xFFFF, 0x3E00u);
  EXPECT_EQ(get(Mem::L1BM, 3, 0) & 0xFFFF, 0x3E00u);
}

TEST_F(MncoreTransfer, PdmLevelCopyBroadcastDistributeCollectReduce) {
  fill(Mem::PDM, 0, 16);
  fill(Mem::DRAM, 500, 4);
  for (unsigned g = 0; g < groups; ++g) put(Mem::DRAM, g, 600, fbits(1.5f * (g + 1)));
  test::run(*board,
            "copy $p0 $d0 2\n"      // each Group's own PDM -> its DRAM
            "bcast $p4 $d10 2\n"    // Group 0's PDM -> every Group's DRAM
            "dist $p8 $d20 2\n"     // block g -> Group g
            "coll $d500 $p100 4\n"  // Group g -> block g of Group 0's PDM
            "red.f $d600 $p200 1\n"
            "wait");
  for (unsigned g = 0; g < groups; ++g) {
    for (unsigned i = 0; i < 2; ++i) {
      EXPECT_EQ(get(Mem::DRAM, g, i), tag(g, i));
      EXPECT_EQ(get(Mem::DRAM, g, 10 + i), tag(0, 4 + i));
      EXPECT_EQ(get(Mem::DRAM, g, 20 + i), tag(0, 8 + 2 * g + i));
    }
    for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(get(Mem::PDM, 0, 100 + 4 * g + i), tag(g, 500 + i));
  }
  EXPECT_EQ(get(Mem::PDM, 0, 200) & 0xFFFFFFFFu, fbits(1.5f + 3.0f));
  EXPECT_EQ(get(Mem::PDM, 1, 100), 0u) << "only Group 0's PDM is the root";
}

TEST_F(MncoreTransfer, TimeIsLatencyPlusLinkWords) {
  const Topology& t = board->topology();
  // L2B level, 64 LW: bcast sends 64 LW down each L2B's port, dist sends one block per L1B.
  const BoardRun& b = test::run(*board, "bcast $lc0 $lb0 64\nwait");
  EXPECT_EQ(b.cycles, t.l2b_link.latency_cycles + uint64_t(std::ceil(64 / t.l2b_link.lw_per_cycle)));
  const BoardRun& d = test::run(*board, "dist $lc0 $lb0 64\nwait");
  EXPECT_EQ(d.cycles, t.l2b_link.latency_cycles + uint64_t(std::ceil(l1b * 64 / t.l2b_link.lw_per_cycle)));
  // L1B level, dist.dist over 8 PEs of 16 LW each.
  const BoardRun& p = test::run(*board, "dist $lb0 $lm0 16\nwait");
  EXPECT_EQ(p.cycles, t.l1b_link.latency_cycles + uint64_t(std::ceil(mab * pe * 16 / t.l1b_link.lw_per_cycle)));
  EXPECT_EQ(p.engines[unsigned(Engine::L1b)].bytes_down, uint64_t(board->nodes(Mem::L1BM)) * mab * pe * 16 * 8);
  EXPECT_EQ(p.engines[unsigned(Engine::L1b)].transfers, 1u);
}

TEST(MncoreTransferDram, SlowDramSetsTheDataEngineTime) {
  auto overrides = test::small_board();
  overrides["mncore2.dram.bandwidth_gbps"] = "6";
  overrides["mncore2.dram.latency_ns"] = "100";
  auto board = test::make_board(overrides);
  const BoardRun& r = test::run(*board, "bcast $d0 $lc0 64\nwait");
  // 512 bytes at 6 GB/s plus 100 ns, against 32 + 4 cycles of link time.
  const double want_ns = 512 / 6.0 + 100;
  EXPECT_NEAR(double(r.cycles), want_ns * 0.75, 1.0);
  // Doubling the DRAM bandwidth cuts the DRAM part in half.
  const BoardRun& again = test::run(*board, "bcast $d0 $lc0 128\nwait");
  EXPECT_NEAR(double(again.cycles), (1024 / 6.0 + 100) * 0.75, 1.0);
}

TEST_F(MncoreTransfer, TransfersOverlapPeWork) {
  const Topology& t = board->topology();
  const uint64_t transfer = t.l2b_link.latency_cycles + uint64_t(std::ceil(l1b * 512 / t.l2b_link.lw_per_cycle));
  std::string program = "dist $lc0 $lb0 512\n";
  for (int i = 0; i < 10; ++i) program += "iadd $r0 1 $r0\n";
  program += "wait l2b\n";
  const BoardRun& r = test::run(*board, program);
  ASSERT_GT(transfer, 11u * 4);
  EXPECT_EQ(r.cycles, transfer);  // the ten ALU steps hide under the transfer
  EXPECT_EQ(r.stall_cycles, transfer - 11 * 4);
}

TEST_F(MncoreTransfer, TouchingAnUnfinishedTransfersDataIsAnError) {
  const std::string e = error_of([&] { test::run(*board, "bcast $lb0 $lm0 16\nfadd.h $lm8 1 $lm8"); });
  EXPECT_NE(e.find("test.s line 2 `fadd.h $lm8 1 $lm8`: reads LM0 bytes [32, 40) while the transfer at line 1"),
            std::string::npos) << e;
  EXPECT_NE(e.find("insert `wait l1b`"), std::string::npos) << e;
}

TEST_F(MncoreTransfer, EnginesAreOrderedOnlyByWait) {
  // The L2B engine writes L1BM 0..16 while the L1B engine would read it: rejected.
  const std::string e = error_of([&] { test::run(*board, "bcast $lc0 $lb0 16\nbcast $lb8 $lm0 4"); });
  EXPECT_NE(e.find("reads L1BM bytes [64, 96) while the transfer at line 1 `bcast $lc0 $lb0 16` (engine l2b"),
            std::string::npos) << e;
}

TEST_F(MncoreTransfer, WaitingMakesTheSameProgramLegal) {
  fill(Mem::L2BM, 0, 16);
  test::run(*board, "bcast $lc0 $lb0 16\nwait l2b\nbcast $lb8 $lm0 4\nwait l1b\nfadd.h $lm0 0 $lm8");
  EXPECT_EQ(get(Mem::LM0, 63, 0), tag(board->nodes(Mem::L2BM) - 1, 8));
}

TEST_F(MncoreTransfer, OutOfRangeTransferIsAnError) {
  // small_board(): L1BM = 2 Ki LW; 8 blocks of 300 LW do not fit.
  const std::string e = error_of([&] { test::run(*board, "nop\ndist $lb0 $lm0 300"); });
  EXPECT_NE(e.find("mncore2.sequencer @ "), std::string::npos) << e;
  EXPECT_NE(e.find("test.s line 2 `dist $lb0 $lm0 300`: '$lb0': dist 8 blocks of 300 LW from address 0 ends at "
                   "byte 19200, beyond the L1BM's 16384 bytes"), std::string::npos) << e;
}

TEST(MncoreTransferQueue, AFullQueueStallsTheSequencer) {
  auto overrides = test::small_board();
  overrides["mncore2.engine.queue_depth"] = "1";
  auto board = test::make_board(overrides);
  const Topology& t = board->topology();
  const uint64_t each = t.l2b_link.latency_cycles + uint64_t(std::ceil(2 * 256 / t.l2b_link.lw_per_cycle));
  const BoardRun& r = test::run(*board, "dist $lc0 $lb0 256\ndist $lc0 $lb512 256\ndist $lc0 $lb1024 256\nwait");
  EXPECT_EQ(r.cycles, 3 * each);  // back to back on one engine
  EXPECT_GT(r.stall_cycles, 0u);
  EXPECT_EQ(r.engines[unsigned(Engine::L2b)].busy_cycles, 3 * each);
}

}  // namespace
}  // namespace npuvp::mncore
