// The M pipe's choice of cube (core.cube.impl = model | rtl | lockstep). The "RTL" here is a
// C++ engine registered for the test, so these run in every build, with or without
// Verilator; the Verilated cube itself is tested in tests/cosim.
#include <gtest/gtest.h>

#include <cstring>

#include "models/aicore/ai_core.h"
#include "models/aicore/mmad_engine.h"
#include "tests/support/device_fixture.h"
#include "tlm/stats.h"

namespace cube_path_test {
using namespace npuvp::aicore;
using npuvp::Stats;

// The model's result with one element spoiled (bit 0 of C fractal (m1 = 1, n1 = 2), row 3,
// col 5), and a fixed cycle count.
class SpoilOne : public MmadEngine {
 public:
  static constexpr uint64_t kCycles = 1000;
  std::string supports(const Mmad& op) const override {
    return op.c_type == DType::F32 ? "" : "takes f32 C only";
  }
  uint64_t run(const Mmad& op, const uint8_t* l0a, const uint8_t* l0b, uint8_t* l0c,
               const uint8_t* bt) override {
    CubeUnit::Params p;
    p.a2_types = true;
    CubeUnit(p).execute(op, l0a, l0b, l0c, bt);
    const uint32_t M1 = (op.m + 15) / 16;
    l0c[op.c + (2 * M1 + 1) * 1024 + (3 * 16 + 5) * 4] ^= 1;
    return kCycles;
  }
};

void register_spoil_one() {
  register_rtl_cube("spoil_one", [](const RtlCubeOptions&) { return std::make_unique<SpoilOne>(); });
}

// 48 x 48 x 32 f16 -> f32 with every A and B element 1.0: every C element is 32.
Mmad ones_mmad(AiCore& core) {
  uint8_t* a = core.buffer(MemSpace::L0A)->data();
  uint8_t* b = core.buffer(MemSpace::L0B)->data();
  const uint16_t one = 0x3c00;
  for (size_t x = 0; x < 3 * 2 * 256; ++x) std::memcpy(a + 2 * x, &one, 2);
  for (size_t x = 0; x < 2 * 3 * 256; ++x) std::memcpy(b + 2 * x, &one, 2);
  Mmad op;
  op.m = op.n = 48;
  op.k = 32;
  return op;
}

std::string run_ones(npuvp::Device& dev, float* c00 = nullptr) {
  return npuvp::testing::kernel_error(dev, 1, [&] {
    AiCore& core = *AiCore::current();
    core.issue(ones_mmad(core));
    core.barrier_all();
    if (c00) std::memcpy(c00, core.buffer(MemSpace::L0C)->data(), 4);
  });
}

// The error building the platform with `overrides` and running an empty kernel ("" if none).
std::string config_error(const std::vector<std::string>& overrides) {
  try {
    npuvp::testing::make_device(overrides, "core910b").launch("empty", 1, [] {});
  } catch (const std::exception& e) {
    return npuvp::error_text(e);
  }
  return {};
}

TEST(CubePathTest, LockstepReportsTheFirstMismatchAndStops) {
  register_spoil_one();
  auto& dev = npuvp::testing::make_device({"core.cube.impl=lockstep", "cosim.rtl=spoil_one"}, "core910b");
  const std::string error = run_ones(dev);
  EXPECT_NE(error.find("lockstep mismatch in Mmad #1 of this core (Mmad.f32.f16xf16"), std::string::npos) << error;
  EXPECT_NE(error.find("m=48 n=48 k=32"), std::string::npos) << error;
  EXPECT_NE(error.find("L0C fractal (m1=1, n1=2) at L0C:0x1c00, element (row 3, col 5) = C[19][37]"),
            std::string::npos) << error;
  EXPECT_NE(error.find("model 0x42000000 (32), RTL spoil_one 0x42000001"), std::string::npos) << error;
  EXPECT_NE(error.find("1 of 2304 elements differ. Stopping."), std::string::npos) << error;
  EXPECT_NE(error.find("core0 @ "), std::string::npos) << error;  // block and simulated time
  EXPECT_EQ(Stats::global().value("core0.M.cube.rtl_mmads"), 1u);
  RecordProperty("error", error);
}

TEST(CubePathTest, LockstepKeepsTheModelsTimeAndData) {
  // An engine that agrees: the model's result and time stand, the RTL's cycles are counted.
  register_rtl_cube("agree", [](const RtlCubeOptions&) {
    struct Agree : MmadEngine {
      std::string supports(const Mmad&) const override { return {}; }
      uint64_t run(const Mmad& op, const uint8_t* a, const uint8_t* b, uint8_t* c, const uint8_t* bt) override {
        CubeUnit::Params p;
        p.a2_types = true;
        CubeUnit(p).execute(op, a, b, c, bt);
        return 777;
      }
    };
    return std::make_unique<Agree>();
  });
  auto& dev = npuvp::testing::make_device({"core.cube.impl=lockstep", "cosim.rtl=agree"}, "core910b");
  float c00 = 0;
  EXPECT_EQ(run_ones(dev, &c00), "");
  EXPECT_EQ(c00, 32.0f);
  EXPECT_EQ(Stats::global().value("core0.M.cube.rtl_cycles"), 777u);
  const uint64_t model = Stats::global().value("core0.M.cube.model_cycles");
  EXPECT_EQ(model, 2u + 3 * 3 * 2);  // head_cycles + M1 * N1 * K1 steps at 1 per cycle
  EXPECT_EQ(Stats::global().value("core0.M.busy_cycles"), model);
}

TEST(CubePathTest, RtlTakesTheEnginesResultAndCycles) {
  register_spoil_one();
  auto& dev = npuvp::testing::make_device({"core.cube.impl=rtl", "cosim.rtl=spoil_one"}, "core910b");
  float c00 = 0;
  EXPECT_EQ(run_ones(dev, &c00), "");
  EXPECT_EQ(c00, 32.0f);
  EXPECT_EQ(Stats::global().value("core0.M.busy_cycles"), SpoilOne::kCycles);
  EXPECT_EQ(Stats::global().value("core0.M.cube.rtl_cycles"), SpoilOne::kCycles);
}

TEST(CubePathTest, RtlRefusesWhatTheEngineCannotRun) {
  register_spoil_one();
  auto& dev = npuvp::testing::make_device({"core.cube.impl=rtl", "cosim.rtl=spoil_one"}, "core910b");
  const std::string error = npuvp::testing::kernel_error(dev, 1, [&] {
    Mmad op;
    op.m = op.n = op.k = 16;
    op.a_type = op.b_type = DType::S8;
    op.c_type = DType::S32;
    AiCore::current()->issue(op);
  });
  EXPECT_NE(error.find("core.cube.impl=rtl: the RTL cube spoil_one takes f32 C only"), std::string::npos) << error;
}

TEST(CubePathTest, UnknownRtlCube) {
  const std::string error = config_error({"core.cube.impl=rtl", "cosim.rtl=no_such_cube"});
  if (have_verilator()) {
    EXPECT_NE(error.find("cosim.rtl=no_such_cube: no such RTL cube (this build has: npuvp_cube, "
                         "npuvp_cube_truncate)"), std::string::npos) << error;
  } else {
    EXPECT_NE(error.find("core.cube.impl=rtl needs the RTL cube no_such_cube, but this build has no "
                         "Verilator co-simulation"), std::string::npos) << error;
  }
}

// Asking for an RTL cube this build cannot provide is a configuration error: without
// Verilator any RTL, with it an unregistered name.
TEST(CubePathTest, RtlThatIsNotThereIsAClearError) {
  if (have_verilator()) {
    const std::string error = config_error({"core.cube.impl=rtl", "cosim.rtl=no_such_cube"});
    EXPECT_NE(error.find("cosim.rtl=no_such_cube: no such RTL cube (this build has: "), std::string::npos) << error;
    return;
  }
  const std::string error = config_error({"core.cube.impl=rtl"});
  EXPECT_NE(error.find("core.cube.impl=rtl needs the RTL cube npuvp_cube, but this build has no "
                       "Verilator co-simulation (install verilator and configure with "
                       "-DNPUVP_WITH_VERILATOR=ON)"), std::string::npos) << error;
}

TEST(CubePathTest, ImplMustBeKnown) {
  const std::string error = config_error({"core.cube.impl=verilog"});
  EXPECT_NE(error.find("core.cube.impl must be model, rtl or lockstep, got 'verilog'"), std::string::npos) << error;
}

}  // namespace cube_path_test
