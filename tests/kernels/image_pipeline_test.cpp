// The end-to-end image application (sw/kernels/image_pipeline.h, issue 28): JPEGD -> VPC ->
// AI Core normalise + CNN -> AI CPU top-5 on one stream, on 310P and on 910B; its logits are
// bit-exact against the host reference and every engine shows in the timeline.
#include <gtest/gtest.h>
#include <set>
#include <string>

#include "platforms/ascend_soc.h"
#include "sw/kernels/image_pipeline.h"
#include "sw/runtime/device.h"
#include "tlm/tracer.h"

namespace image_pipeline_test {
using npuvp::kernels::ImagePipelineResult;

void expect_pipeline(const ImagePipelineResult& r) {
  ASSERT_TRUE(r.checked);
  EXPECT_TRUE(r.passed) << r.detail;
  ASSERT_EQ(r.top5.size(), 5u);
  std::set<std::string> engines;
  sc_core::sc_time end = sc_core::SC_ZERO_TIME;
  for (const auto& s : r.stages) {
    engines.insert(s.engine);
    EXPECT_GE(s.start, end) << s.name << " started before the stage before it ended (one stream, in order)";
    EXPECT_GT(s.took, sc_core::SC_ZERO_TIME) << s.name;
    end = s.start + s.took;
  }
  EXPECT_EQ(engines, (std::set<std::string>{"AI CPU", "AI Core", "DVPP", "PCIe"}));
}

TEST(ImagePipelineTest, RunsOn310P) {
  npuvp::Device::configure("ascend310p");
  const auto r = npuvp::kernels::run_image_pipeline(npuvp::kernels::make_sample_jpeg(320, 240));
  expect_pipeline(r);
  EXPECT_EQ(r.width, 320u);
}

TEST(ImagePipelineTest, RunsOn910BWithATrace) {
  npuvp::Device::configure("ascend910b");
  const std::string trace = ::testing::TempDir() + "image_pipeline_trace.json";
  npuvp::Tracer::global().open(trace);
  const auto r = npuvp::kernels::run_image_pipeline(npuvp::kernels::make_sample_jpeg(301, 199));  // odd sizes
  npuvp::Tracer::global().close();
  expect_pipeline(r);
  FILE* f = std::fopen(trace.c_str(), "r");
  ASSERT_NE(f, nullptr);
  std::string text;
  char buf[65536];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
  std::fclose(f);
  for (const char* track : {"\"dvpp\"", "\"JPEGD\"", "\"VPC\"", "\"aicpu\"", "\"aicpu0\"", "\"TopK\""}) {
    EXPECT_NE(text.find(track), std::string::npos) << track << " is not in the trace";
  }
}

}  // namespace image_pipeline_test
