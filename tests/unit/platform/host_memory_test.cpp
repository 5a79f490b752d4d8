// The host memory estimate a platform is checked against before it is built (issue 29,
// platforms/host_memory.h): linear in the core count on a ring, the mesh's route table
// quadratic and named, and a configuration over the limit refused with the parameter.
#include <gtest/gtest.h>

#include <string>

#include "platforms/host_memory.h"
#include "tlm/log.h"

namespace host_memory_test {
using npuvp::platform::AscendSocShape;
using npuvp::platform::estimate_host_memory;

AscendSocShape ascend910b(unsigned ai_cores) {
  AscendSocShape s;
  s.cores = ai_cores * 3;  // AIC + 2 AIV
  s.l2_slices = 24;
  s.l2_size = 192ull << 20;
  s.l2_line_bytes = 512;
  s.dram_controllers = 4;
  return s;
}

TEST(HostMemoryEstimate, RingGrowsLinearlyWithTheCoreCount) {
  const double e24 = double(estimate_host_memory(ascend910b(24)).bytes);
  const double e192 = double(estimate_host_memory(ascend910b(192)).bytes);
  const double e1024 = double(estimate_host_memory(ascend910b(1024)).bytes);
  // The increments per core are equal (no quadratic term): 1024 - 192 cores cost
  // (1024 - 192) / (192 - 24) times what 192 - 24 do, within the slice term's rounding.
  EXPECT_NEAR((e1024 - e192) / (e192 - e24), (1024.0 - 192) / (192 - 24), 0.01);
  EXPECT_EQ(estimate_host_memory(ascend910b(1024)).driver, "platform.cores");
  EXPECT_LT(e1024, 8.0 * (1ull << 30));  // 1024 AI Cores fit a 16 GiB machine
}

TEST(HostMemoryEstimate, MeshRouteTableIsQuadraticAndNamed) {
  AscendSocShape s = ascend910b(1024);
  s.mesh = true;
  const auto e = estimate_host_memory(s);
  EXPECT_EQ(e.driver, "interconnect.topology=mesh");
  s.cores /= 2;
  EXPECT_GT(double(e.driver_bytes) / double(estimate_host_memory(s).driver_bytes), 4.0);  // (2x)^2 x longer routes
}

TEST(HostMemoryEstimate, OverTheLimitIsRefusedNamingTheParameter) {
  try {
    npuvp::platform::require_host_memory_for_model(ascend910b(1024), 64ull << 20);
    FAIL() << "a 1024-core model fitted 64 MiB";
  } catch (const std::exception& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("platform.cores"), std::string::npos) << what;
    EXPECT_NE(what.find("sim.host_memory_limit"), std::string::npos) << what;
    EXPECT_NE(what.find("needs about"), std::string::npos) << what;  // the estimate itself
    EXPECT_NE(what.find("64 MiB"), std::string::npos) << what;       // and the limit it exceeds
  }
  EXPECT_NO_THROW(npuvp::platform::require_host_memory_for_model(ascend910b(24), 1ull << 30));
}
}  // namespace host_memory_test
