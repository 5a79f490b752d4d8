// The MN-Core 2 samples end to end (host -> PDM -> DRAM -> ... -> PEs and back), checked bit
// for bit against plain C++ references, and the GEMM's timing against its analytic step count.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "models/numerics/mncore_float.h"
#include "sw/kernels/mncore2/gemm.h"
#include "sw/kernels/mncore2/samples.h"
#include "tests/support/mncore_board.h"
#include "tlm/log.h"

namespace npuvp::mncore {
namespace {

using kernels::GemmShape;

const Phase& phase(const kernels::SampleResult& r, const std::string& name) {
  for (const Phase& p : r.phases) {
    if (p.name == name) return p;
  }
  throw std::runtime_error("no phase " + name);
}

TEST(MncoreSamples, ElementwiseOnTheFullBoard) {
  auto board = test::make_board({});
  const auto r = kernels::run_elementwise(*board, 64);
  EXPECT_TRUE(r.passed) << r.detail;
  // Three instructions per 8 halves, one step each.
  EXPECT_EQ(phase(r, "compute").cycles, 3u * 64 / 8 * 4);
  EXPECT_EQ(phase(r, "compute").work.alu_instructions, 24u);
}

TEST(MncoreSamples, ElementwiseOnASmallBoard) {
  auto board = test::make_board();
  EXPECT_TRUE(kernels::run_elementwise(*board, 16).passed);
}

TEST(MncoreSamples, TreeSumReducesTheWholeBoardAndBroadcastsBack) {
  auto board = test::make_board({});
  const auto r = kernels::run_tree_sum(*board, 8);
  EXPECT_TRUE(r.passed) << r.detail;
  // Every level reduced once and broadcast once.
  const BoardRun& w = phase(r, "reduce up, broadcast down").work;
  for (unsigned e = 0; e < kEngines; ++e) EXPECT_EQ(w.engines[e].transfers, 2u) << engine_name(Engine(e));
}

TEST(MncoreSamples, TreeSumOnAnUnevenTree) {
  auto board = test::make_board({{"mncore2.groups", "3"}, {"mncore2.l2b_per_group", "1"}, {"mncore2.l1b_per_l2b", "3"},
                                 {"mncore2.mab_per_l1b", "5"}, {"mncore2.pe_per_mab", "2"}, {"mncore2.mau.k", "16"},
                                 {"mncore2.dram.size_lw", "1Mi"}});
  const auto r = kernels::run_tree_sum(*board, 6);
  EXPECT_TRUE(r.passed) << r.detail;
}

TEST(MncoreSamples, GemmOnASmallBoard) {
  auto board = test::make_board();
  GemmShape s;
  s.rows_per_pe = 4;
  s.k = 64;
  s.k_piece = 32;
  s.c_rows_piece = 2;
  const auto r = kernels::run_gemm(*board, s, 5);
  EXPECT_TRUE(r.passed) << r.detail;
  EXPECT_EQ(r.flops, 2.0 * (8 * 4 * 4) * (2 * 16) * 64);  // M = 8 L1B x 4 PE x 4 rows, N = 2 MAB x 16
}

TEST(MncoreSamples, GemmOnTheFullBoardMatchesTheContractAndItsStepCount) {
  auto board = test::make_board({});
  GemmShape s;
  s.rows_per_pe = 8;
  s.k = 128;
  s.k_piece = 32;
  s.c_rows_piece = 2;
  const auto r = kernels::run_gemm(*board, s, 9);
  ASSERT_TRUE(r.passed) << r.detail;
  const Topology& t = board->topology();
  // Steps: zero R x N/4 accumulators, then per k tile one mwload and R mmacc.
  const uint64_t tiles = s.k / t.mau_k;
  const uint64_t steps = uint64_t(s.rows_per_pe) * t.mau_n / 4 + tiles * (t.mau_wload_steps + s.rows_per_pe);
  const Phase& compute = phase(r, "compute");
  EXPECT_EQ(compute.cycles, steps * t.cycles_per_step);
  EXPECT_EQ(compute.work.macs, uint64_t(t.pes()) * s.rows_per_pe * s.k * t.mau_n);
  EXPECT_EQ(compute.work.stall_cycles, 0u);
}

TEST(MncoreSamples, GemmLoadIsBoundByTheDataEnginesNotTheCompute) {
  GemmShape s;
  s.rows_per_pe = 4;
  s.k = 256;
  s.k_piece = 32;
  s.c_rows_piece = 4;
  auto slow = kernels::run_gemm(*test::make_board({}), s, 2);
  ASSERT_TRUE(slow.passed) << slow.detail;
  // A second board in this process would elaborate twice; compare with the analytic bound of
  // the Data Engines instead: each piece moves A (dist to the L2Bs) and B (bcast) through
  // every Group's 16 LW/cycle port.
  Topology t;
  t = Topology::from_config();
  const double a_group = double(t.l2b_per_group * t.l1b_per_l2b * t.pe_per_mab) * s.rows_per_pe * s.k_piece / 4;
  const double b_piece = double(s.k_piece) * t.mab_per_l1b * t.mau_n / 4;
  const double pieces = s.k / s.k_piece;
  const double engine_cycles = pieces * ((a_group + b_piece) / t.dram_link.lw_per_cycle + 2 * t.dram_link.latency_cycles);
  const double load = double(phase(slow, "load DRAM -> LM").cycles);
  EXPECT_GE(load, engine_cycles);
  // The other levels overlap the Data Engines; what is left is filling and draining the
  // pipeline (one L2B and one L1B step).
  EXPECT_LT(load, engine_cycles * 1.25) << "the other levels overlap the Data Engines";
  EXPECT_GT(load, 4.0 * phase(slow, "compute").cycles);
}

TEST(MncoreSamples, GemmShapeThatDoesNotFitIsAClearError) {
  auto board = test::make_board();
  GemmShape s;
  s.rows_per_pe = 64;  // 64 rows x 16 singles = 512 LW of accumulators; A fits LM0 with K = 32
  s.k = 32;
  s.k_piece = 32;
  s.c_rows_piece = 8;
  try {
    kernels::run_gemm(*board, s);
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(error_text(e).find("the accumulators (rows per PE x N per MAU, singles) needs 512 LW of GRF0 but it "
                                 "has 64 LW"), std::string::npos) << error_text(e);
  }
}

// The reference itself: a hand-checked case where the contract's order and rounding show.
TEST(MncoreSamples, GemmReferenceFollowsTheContract) {
  // 1 x 1 x 4: a = [1, 2^-10, 2^-10, 1], b = [2^20, 1, 1, -2^20]: the running sum
  // 2^20 + 2^-10 rounds back to 2^20 in single (24 bits), twice, then 2^20 - 2^20 = +0.
  const uint16_t one = 0x3E00, tiny = half_from_double(std::ldexp(1.0, -10));
  const uint16_t big = half_from_double(std::ldexp(1.0, 20)), minus_big = half_from_double(-std::ldexp(1.0, 20));
  const auto c = kernels::gemm_reference({one, tiny, tiny, one}, {big, one, one, minus_big}, 1, 1, 4);
  EXPECT_EQ(c.at(0), 0u);
  // inf * 0 -> +inf, and it stays.
  const auto d = kernels::gemm_reference({0x7E00, one}, {0x0000, one}, 1, 1, 2);
  EXPECT_EQ(d.at(0), 0x7F800000u);
}

}  // namespace
}  // namespace npuvp::mncore
