// The VSM step machine's shape from the MN-Core 2 configuration (mncore2.json and --set):
// the SPEC.md §2 defaults, the keys that apply, and the ones refused with a clear error.
#include <gtest/gtest.h>

#include <string>

#include "platforms/mncore2/vsm_config.h"
#include "tests/support/error_of.h"
#include "tlm/config.h"

namespace npuvp::mncore {
namespace mncore2_vsm_config_test {

using npuvp::testing::error_of;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(MncoreVsmConfig, DefaultsAreSpecSection2) {
  const vsm::Shape s = vsm_shape_from_config("mncore2", {});
  EXPECT_EQ(s.pes(), 4096u);
  EXPECT_EQ(s.l1bs(), 64u);
  EXPECT_EQ(s.l2bs(), 8u);
  // LW: LM0/LM1 2 Ki, GRF 256, L1BM 8 Ki, L2BM 32 Ki, PDM 512 Ki, DRAM 512 Mi.
  EXPECT_EQ(s.lm_lw, 2048u);
  EXPECT_EQ(s.grf_lw, 256u);
  EXPECT_EQ(s.l1bm_lw, 8192u);
  EXPECT_EQ(s.l2bm_lw, 32768u);
  EXPECT_EQ(s.pdm_lw, 512u * 1024);
  EXPECT_EQ(s.dram_lw, 512ull * 1024 * 1024);
  EXPECT_EQ(s.cycles_per_step, 4u);
  EXPECT_EQ(s.clock_mhz, 750.0);
  EXPECT_EQ(s.mv_lw_per_cycle, 16u);
  EXPECT_EQ(s.mv_latency_cycles, 32u);
  EXPECT_EQ(s.mv_cross_lw_per_cycle, 8u);
  EXPECT_EQ(s.l2b_lw_per_cycle, 64u);
  EXPECT_EQ(s.l1b_lw_per_cycle, 64u);
}

TEST(MncoreVsmConfig, TransferRatesPerLevelAreParameters) {
  const vsm::Shape s = vsm_shape_from_config(
      "mncore2", {"mncore2.l1b.lw_per_cycle=32", "mncore2.l2b.lw_per_cycle=16", "mncore2.pdm.lw_per_cycle=4",
                  "mncore2.pdm.latency_cycles=9"});
  EXPECT_EQ(s.l1b_lw_per_cycle, 32u);
  EXPECT_EQ(s.l2b_lw_per_cycle, 16u);
  EXPECT_EQ(s.mv_cross_lw_per_cycle, 4u);
  EXPECT_EQ(s.mv_cross_latency_cycles, 9u);
  EXPECT_TRUE(contains(error_of([] { vsm_shape_from_config("mncore2", {"mncore2.l2b.lw_per_cycle=2.5"}); }),
                       "transfers move whole long words"));
}

TEST(MncoreVsmConfig, CountsCapacitiesClockAndDataEngineAreParameters) {
  const vsm::Shape s = vsm_shape_from_config(
      "mncore2", {"mncore2.groups=1", "mncore2.l2b_per_group=3", "mncore2.l1b_per_l2b=2", "mncore2.lm0.size_lw=64",
                  "mncore2.lm1.size_lw=64", "mncore2.l1bm.size_lw=100", "mncore2.clock_mhz=500",
                  "mncore2.data_engine.lw_per_cycle=4", "mncore2.data_engine.latency_cycles=7"});
  EXPECT_EQ(s.pes(), 1u * 3 * 2 * 16 * 4);
  EXPECT_EQ(s.lm_lw, 64u);
  EXPECT_EQ(s.l1bm_lw, 100u);
  EXPECT_EQ(s.clock_mhz, 500.0);
  EXPECT_EQ(s.mv_lw_per_cycle, 4u);
  EXPECT_EQ(s.mv_latency_cycles, 7u);
}

TEST(MncoreVsmConfig, KeysTheStepModelDoesNotUseAreRefused) {
  EXPECT_TRUE(contains(error_of([] { vsm_shape_from_config("mncore2", {"mncore2.l1b.latency_cycles=2"}); }),
                       "config key 'mncore2.l1b.latency_cycles' does not apply to VSM programs"));
}

TEST(MncoreVsmConfig, PcieKeysAreRefused) {
  EXPECT_TRUE(contains(error_of([] { vsm_shape_from_config("mncore2", {"mncore2.pcie.bandwidth_gbps=1"}); }),
                       "does not apply to VSM programs"));
}

TEST(MncoreVsmConfig, LayoutsFixedByTheInstructionsAreRefused) {
  EXPECT_TRUE(contains(error_of([] { vsm_shape_from_config("mncore2", {"mncore2.pe_per_mab=2"}); }),
                       "config key 'mncore2.pe_per_mab' = 2 does not fit VSM programs: it must be 4"));
}

TEST(MncoreVsmConfig, UnequalLmSizesAreRefused) {
  EXPECT_TRUE(contains(error_of([] { vsm_shape_from_config("mncore2", {"mncore2.lm0.size_lw=64"}); }),
                       "LM0 and LM1 (64 and 2048 LW)"));
}

TEST(MncoreVsmConfig, UnknownKeyIsAnError) {
  EXPECT_TRUE(contains(error_of([] { vsm_shape_from_config("mncore2", {"mncore2.l1bm.size_wl=1"}); }),
                       "unknown config key 'mncore2.l1bm.size_wl'"));
}

TEST(MncoreVsmConfig, BadValueNamesTheKey) {
  EXPECT_TRUE(contains(error_of([] { vsm_shape_from_config("mncore2", {"mncore2.lm0.address_unit=HW"}); }),
                       "config key 'mncore2.lm0.address_unit': expected \"LW\" or \"SW\""));
}

TEST(MncoreVsmConfig, ASmallerLmIsTheMachinesCapacity) {
  const vsm::Shape s = vsm_shape_from_config("mncore2", {"mncore2.lm0.size_lw=64", "mncore2.lm1.size_lw=64",
                                                         "mncore2.groups=1", "mncore2.l2b_per_group=1",
                                                         "mncore2.l1b_per_l2b=1"});
  vsm::Machine m(s);
  std::string dump;
  EXPECT_TRUE(contains(error_of([&] { m.run(vsm::parse("linc $lm128 $ln0\n", "cap.vsm"), dump); }), "cap.vsm line 1"));
}

}  // namespace mncore2_vsm_config_test
}  // namespace npuvp::mncore
