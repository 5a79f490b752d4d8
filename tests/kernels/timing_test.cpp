// Timing that architects can trust (issue 4): relations between runs and ratios to the
// roofline, never wall-clock. Each configuration runs in its own child process.
#include <gtest/gtest.h>
#include <cstring>
#include "sw/kernels/matmul.h"
#include "tests/support/child_process.h"
#include "tests/support/device_fixture.h"
#include "tikicpulib.h"
#include "tlm/stats.h"

namespace {
using npuvp::Stats;
using nlohmann::json;

// Single-core f16 matmul on the A2 core; returns cycles and the cube's busy share.
json matmul_a2_run(std::vector<std::string> overrides, uint32_t m, uint32_t n, uint32_t k) {
  auto& dev = npuvp::testing::make_device(overrides, "core910b");
  auto* a = static_cast<half*>(AscendC::GmAlloc(size_t(m) * k * 2));
  auto* b = static_cast<half*>(AscendC::GmAlloc(size_t(k) * n * 2));
  auto* c = static_cast<half*>(AscendC::GmAlloc(size_t(m) * n * 2));
  const auto& r = dev.launch("matmul", 1, [&] {
    npuvp::kernels::matmul_a2<half>(reinterpret_cast<GM_ADDR>(a), reinterpret_cast<GM_ADDR>(b),
                                    reinterpret_cast<GM_ADDR>(c), {m, n, k});
  });
  const double busy = double(Stats::global().value("core0.M.busy_cycles"));
  return {{"cycles", r.cycles},
          {"cube_busy", busy / double(r.cycles)},
          {"mte2_busy", double(Stats::global().value("core0.MTE2.busy_cycles")) / double(r.cycles)},
          {"mte1_busy", double(Stats::global().value("core0.MTE1.busy_cycles")) / double(r.cycles)},
          {"fix_busy", double(Stats::global().value("core0.FIX.busy_cycles")) / double(r.cycles)},
          {"stats", Stats::global().to_json()}};
}

TEST(Timing, DoubleBufferedMatmulKeepsTheCubeBusy) {
  const json r = npuvp::testing::in_child_process([] { return matmul_a2_run({"sim.mode=perf"}, 1024, 1024, 1024); });
  std::printf("cycles %s cube %.3f mte2 %.3f mte1 %.3f fix %.3f\n", r["cycles"].dump().c_str(), r["cube_busy"].get<double>(),
              r["mte2_busy"].get<double>(), r["mte1_busy"].get<double>(), r["fix_busy"].get<double>());
  if (getenv("NPUVP_DUMP")) std::printf("%s\n", r["stats"].dump(1).c_str());
  EXPECT_GE(r["cube_busy"].get<double>(), 0.85);
}

}  // namespace
