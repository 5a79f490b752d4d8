// The MN-Core 2 samples, written in VSM, on the step machine: results checked bit for bit
// against plain C++ references (inside the samples), and their step counts and timing
// against what the step model says they must take.
#include <gtest/gtest.h>

#include <string>

#include "models/mncore/vsm.h"
#include "sw/kernels/mncore2/samples.h"
#include "tests/support/error_of.h"

namespace npuvp::mncore {
namespace mncore2_samples_test {

using npuvp::testing::error_of;

TEST(MncoreSamples, ElementwiseOnTheFullBoard) {
  vsm::Machine m;
  const auto r = kernels::run_elementwise(m, 64);
  EXPECT_TRUE(r.passed) << r.detail;
  // 8 singles per fvmul/fvadd pair; the ALU's fmax shares the next group's fvmul step.
  EXPECT_EQ(r.steps, 2u * 64 / 8 + 1);
  EXPECT_EQ(r.run.cycles, r.steps * 4);
  EXPECT_EQ(r.run.mau, 16u);
  EXPECT_EQ(r.run.alu, 8u);
}

TEST(MncoreSamples, ElementwiseOnASmallBoard) {
  vsm::Shape s;
  s.groups = 1;
  s.l2b_per_group = 1;
  s.l1b_per_l2b = 2;
  vsm::Machine m(s);
  EXPECT_TRUE(kernels::run_elementwise(m, 16).passed);
}

TEST(MncoreSamples, ElementwiseSizeThatDoesNotFitIsAClearError) {
  vsm::Shape s;
  s.groups = 1;
  s.l2b_per_group = 1;
  s.l1b_per_l2b = 1;
  s.grf_lw = 16;
  vsm::Machine m(s);
  EXPECT_NE(error_of([&] { kernels::run_elementwise(m, 64); }).find("do not fit"), std::string::npos);
  EXPECT_NE(error_of([&] { kernels::run_elementwise(m, 12); }).find("multiple of 8"), std::string::npos);
}

TEST(MncoreSamples, TreeSumReducesTheWholeBoardAndBroadcastsBack) {
  vsm::Machine m;
  const auto r = kernels::run_tree_sum(m);
  EXPECT_TRUE(r.passed) << r.detail;
  EXPECT_EQ(r.run.mv, 2u);
  EXPECT_EQ(r.run.l1bm, 5u);
  EXPECT_EQ(r.run.l2bm, 2u);
  // The two MV transfers are waited for: their time is the stall beyond the issued steps.
  EXPECT_GT(r.run.stall_cycles, 0u);
  EXPECT_EQ(r.run.cycles, r.run.steps * 4 + r.run.stall_cycles);
}

TEST(MncoreSamples, TreeSumOnAnotherTree) {
  vsm::Shape s;
  s.groups = 3;
  s.l2b_per_group = 1;
  s.l1b_per_l2b = 3;
  vsm::Machine m(s);
  const auto r = kernels::run_tree_sum(m);
  EXPECT_TRUE(r.passed) << r.detail;
}

TEST(MncoreSamples, TreeSumWaitsLongerOnASlowerDataEngine) {
  vsm::Shape fast, slow;
  slow.mv_lw_per_cycle = 1;
  slow.mv_latency_cycles = 100;
  vsm::Machine a(fast), b(slow);
  const auto ra = kernels::run_tree_sum(a), rb = kernels::run_tree_sum(b);
  EXPECT_TRUE(ra.passed && rb.passed);
  EXPECT_EQ(ra.steps, rb.steps);
  EXPECT_GT(rb.run.stall_cycles, ra.run.stall_cycles);
}

TEST(MncoreSamples, GemmOnTheFullBoardRunsAtTheMauRate) {
  vsm::Machine m;
  const unsigned steps = 16;
  const auto r = kernels::run_gemm(m, steps);
  EXPECT_TRUE(r.passed) << r.detail;
  // Two hmwrite steps, then one hmmul step per 4 rows: 1024 MABs x 256 MACs per cycle.
  EXPECT_EQ(r.steps, steps + 2u);
  EXPECT_EQ(r.run.cycles, (steps + 2u) * 4);
  EXPECT_EQ(r.run.macs, 1024ull * 256 * 4 * steps);
  EXPECT_EQ(r.flops, 2.0 * double(r.run.macs));
}

TEST(MncoreSamples, GemmThatDoesNotFitIsAClearError) {
  vsm::Shape s;
  s.groups = 1;
  s.l2b_per_group = 1;
  s.l1b_per_l2b = 1;
  s.lm_lw = 64;
  vsm::Machine m(s);
  EXPECT_NE(error_of([&] { kernels::run_gemm(m, 9); }).find("9 steps need 72 LW of LM0"), std::string::npos);
  EXPECT_TRUE(kernels::run_gemm(m, 8).passed);
}

}  // namespace mncore2_samples_test
}  // namespace npuvp::mncore
