// The built-in sample kernels, end to end, compared bit for bit with their references.
#include <gtest/gtest.h>
#include "sw/kernels/samples.h"
#include "tests/support/device_fixture.h"
#include "tlm/stats.h"

namespace samples_test {
using npuvp::kernels::find_sample;

void expect_passes(const char* name, uint32_t blocks, const char* platform = "minimal") {
  npuvp::testing::make_device({}, platform);
  const auto* s = find_sample(name);
  ASSERT_NE(s, nullptr);
  auto r = s->run(blocks);
  EXPECT_TRUE(r.passed) << r.detail;
}

TEST(SampleKernels, AddHalfOnEightCores) { expect_passes("add", 0); }
TEST(SampleKernels, MulFloat) { expect_passes("mul", 0); }
TEST(SampleKernels, ReluHalf) { expect_passes("relu", 0); }
TEST(SampleKernels, ScalarPrefixSumWithGetValueSetValue) { expect_passes("prefix_sum", 0); }

// The cube samples pick the variant of the platform's product.
TEST(SampleKernels, MatmulOnA2) { expect_passes("matmul", 0, "core910b"); }
TEST(SampleKernels, MatmulOn910) { expect_passes("matmul", 0, "core910"); }
TEST(SampleKernels, MatmulInt8OnA2) { expect_passes("matmul_int8", 0, "core910b"); }
TEST(SampleKernels, MatmulInt8On910) { expect_passes("matmul_int8", 0, "core910"); }
TEST(SampleKernels, Conv2dOnA2) { expect_passes("conv2d", 0, "core910b"); }
TEST(SampleKernels, Conv2dOn910) { expect_passes("conv2d", 0, "core910"); }

// More blocks than cores: the platform hands blocks to cores as they free up.
TEST(SampleKernels, BlockDimLargerThanCoreCount) {
  npuvp::testing::make_device({"platform.cores=3"});
  auto r = find_sample("add")->run(11);
  EXPECT_TRUE(r.passed) << r.detail;
  uint64_t blocks = 0;
  for (int i = 0; i < 3; ++i) blocks += npuvp::Stats::global().value("core" + std::to_string(i) + ".blocks");
  EXPECT_EQ(blocks, 11u);
  EXPECT_GE(npuvp::Stats::global().value("core0.blocks"), 3u);
}

// All eight cores did work and the pipes overlapped: the kernel took less simulated time than
// the sum of the busy time of its pipes on one core.
TEST(SampleKernels, PipesOverlapInDoubleBufferedAdd) {
  auto& dev = npuvp::testing::make_device();
  auto r = find_sample("add")->run(0);
  ASSERT_TRUE(r.passed) << r.detail;
  const auto& st = npuvp::Stats::global();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(st.value("core" + std::to_string(i) + ".blocks"), 1u);
  const uint64_t sum = st.value("core0.MTE2.busy_cycles") + st.value("core0.V.busy_cycles") +
                       st.value("core0.MTE3.busy_cycles");
  EXPECT_LT(dev.last_run().cycles, sum);
  EXPECT_GT(st.value("core0.V.instructions"), 0u);
}
}  // namespace samples_test
