// The sanitizer over the project's own kernels: every built-in sample runs with every check
// on and no error-kind finding; and the mutation test: the sample elementwise kernel
// (sw/kernels/elementwise.h, what `npuvp run add` runs) with each of its queue syncs removed,
// one at a time, is reported as a race exactly when the removal lets two accesses to the
// same bytes go unordered.
#include <gtest/gtest.h>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>
#include "kernel_operator.h"
#include "models/check/sanitizer.h"
#include "sw/ascendc/sync_mutation.h"
#include "sw/kernels/elementwise.h"
#include "sw/kernels/samples.h"
#include "tests/support/child_process.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tikicpulib.h"

namespace sanitizer_samples_test {

using nlohmann::json;
using npuvp::check::Sanitizer;
namespace mutation = npuvp::ascendc::mutation;

const std::vector<std::string> kAllChecks = {"check.race=true", "check.memory=true", "check.init=true",
                                             "check.sync=true"};

// ---- every sample, every check: no error-kind finding ----

json run_sample(const std::string& name, const std::string& platform) {
  return npuvp::testing::in_child_process([&] {
    npuvp::testing::make_device(kAllChecks, platform);
    const auto* sample = npuvp::kernels::find_sample(name);
    if (!sample) return json{{"missing", name}};
    const auto result = sample->run(0);
    Sanitizer* s = Sanitizer::active();
    s->finish();  // leaks too
    json errors = json::array();
    for (const auto& f : s->findings()) {
      if (f.error) errors.push_back(f.kind + ": " + f.text);
    }
    return json{{"passed", result.passed}, {"errors", errors}};
  });
}

class SanitizerOnSamples : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(SanitizerOnSamples, NoErrors) {
  const json r = run_sample(GetParam().first, GetParam().second);
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_TRUE(r["passed"].get<bool>());
  EXPECT_EQ(r["errors"].size(), 0u) << r["errors"].dump(1);
}

INSTANTIATE_TEST_SUITE_P(
    All, SanitizerOnSamples,
    ::testing::Values(std::pair{"add", "minimal"}, std::pair{"mul", "minimal"}, std::pair{"relu", "minimal"},
                      std::pair{"prefix_sum", "minimal"}, std::pair{"matmul", "core910b"},
                      std::pair{"matmul", "core910"}, std::pair{"matmul_softmax", "ascend910b"},
                      std::pair{"matmul_int8", "core910b"}, std::pair{"matmul_int8", "core910"},
                      std::pair{"conv2d", "core910b"}, std::pair{"conv2d", "core910"}),
    [](const auto& info) { return std::string(info.param.first) + "_" + info.param.second; });

// ---- the mutation test ----

struct AddOp {
  void operator()(const AscendC::LocalTensor<half>& z, const AscendC::LocalTensor<half>& x,
                  const AscendC::LocalTensor<half>& y, int32_t n) const {
    AscendC::Add(z, x, y, n);
  }
};

constexpr int32_t kTiles = 2;   // tile_num: 2 tiles x 2 buffers = 4 loop iterations per block
constexpr int32_t kLoops = 4;
constexpr int32_t kBlockLength = 4 * 128;

// One child: the sample add kernel on two blocks, functional mode (no time: the findings are
// the ordering's), with `drop` removed from block 0 (or recording the pairs when `record`).
json run_add(bool record, const mutation::FlagPair& drop) {
  return npuvp::testing::in_child_process([&] {
    // No file:line in these reports (reading the debug information takes a second per child).
    std::vector<std::string> sets = {"check.race=true", "check.sites=false", "sim.mode=functional"};
    auto& dev = npuvp::testing::make_device(sets);
    const size_t n = size_t(kBlockLength) * 2;
    std::vector<half> x(n), y(n);
    for (size_t i = 0; i < n; ++i) x[i] = half(float(i % 11)), y[i] = half(float(i % 7));
    half* gx = npuvp::testing::to_gm(x);
    half* gy = npuvp::testing::to_gm(y);
    half* gz = static_cast<half*>(AscendC::GmAlloc(n * 2));
    if (record) {
      mutation::record(true);
    } else {
      mutation::drop(drop);
    }
    std::string error = npuvp::testing::kernel_error(dev, 2, [&] {
      npuvp::kernels::KernelElementwise<half, 2, AddOp> op(AddOp{}, kBlockLength, kTiles);
      op.Init(reinterpret_cast<GM_ADDR>(gx), reinterpret_cast<GM_ADDR>(gy), reinterpret_cast<GM_ADDR>(gz));
      op.Process();
    });
    json pairs = json::array();
    for (const auto& p : mutation::recorded()) {
      pairs.push_back({int(p.src), int(p.dst), p.id, p.occurrence, p.queue});
    }
    bool right = error.empty();
    for (size_t i = 0; i < n && right; ++i) right = float(gz[i]) == float(i % 11 + i % 7);
    Sanitizer* s = Sanitizer::active();
    json races = json::array();
    for (const auto& f : s->findings()) {
      if (f.kind == "race") races.push_back(f.text);
    }
    return json{{"pairs", pairs}, {"races", races}, {"deadlock", error.find("deadlock") != std::string::npos},
                {"kernel_error", error}, {"right", right}};
  });
}

// What removing the sync pair that the j-th SetFlag of block 0 belongs to does. Each loop
// iteration i (buffer b = i % 2) sets, in program order: x's EnQue (MTE2 -> V), y's EnQue
// (MTE2 -> V), z's EnQue (V -> MTE3), x's FreeTensor (V -> MTE2), y's FreeTensor (V -> MTE2),
// z's FreeTensor (MTE3 -> V); a FreeTensor's flag is waited by the AllocTensor of the same
// buffer two iterations later, if there is one.
struct Expectation {
  bool race;
  const char* why;
};
Expectation expected(int j) {
  const int i = j / 6, kind = j % 6;
  const bool waited_later = i + 2 < kLoops;
  switch (kind) {
    case 0:
      return {false, "x's EnQue: y's EnQue flag is set on MTE2 after y's copy, which follows x's copy, and V waits "
                     "for it before Add: Add still reads x's tile after it landed"};
    case 1: return {true, "y's EnQue: nothing else orders y's copy before the Add that reads it (RAW)"};
    case 2: return {true, "z's EnQue: the only V -> MTE3 flag; MTE3 may copy z out before Add wrote it (RAW)"};
    case 3:
      if (!waited_later) return {false, "x's last FreeTensor: no later AllocTensor waits for it, nothing to order"};
      return {true, "x's FreeTensor: y's free flag is waited only after x's next copy, so the copy two iterations "
                    "on may overwrite x's tile while Add reads it (WAR)"};
    case 4:
      if (!waited_later) return {false, "y's last FreeTensor: no later AllocTensor waits for it, nothing to order"};
      return {false, "y's FreeTensor: x's free flag (set after the same Add) is waited on MTE2 before x's next copy, "
                     "which precedes y's next copy"};
    default:
      if (!waited_later) return {false, "z's last FreeTensor: no later AllocTensor waits for it, nothing to order"};
      return {true, "z's FreeTensor: the only MTE3 -> V flag; Add two iterations on may overwrite z's tile while "
                    "MTE3 copies it out (WAR)"};
  }
}

TEST(SanitizerMutation, EverySyncOfTheSampleAddRemovedInTurn) {
  const json recorded = run_add(true, {});
  ASSERT_TRUE(recorded["races"].empty()) << recorded.dump(1);
  ASSERT_TRUE(recorded["right"].get<bool>());
  const json& pairs = recorded["pairs"];
  ASSERT_EQ(pairs.size(), size_t(6 * kLoops)) << pairs.dump();
  int races = 0;
  for (size_t j = 0; j < pairs.size(); ++j) {
    mutation::FlagPair p;
    p.src = npuvp::aicore::Pipe(pairs[j][0].get<int>());
    p.dst = npuvp::aicore::Pipe(pairs[j][1].get<int>());
    p.id = pairs[j][2];
    p.occurrence = pairs[j][3];
    ASSERT_TRUE(pairs[j][4].get<bool>());  // every one of these is a queue's
    const json r = run_add(false, p);
    const Expectation e = expected(int(j));
    SCOPED_TRACE("removed pair " + std::to_string(j) + " (iteration " + std::to_string(j / 6) + "): " + e.why);
    // Removing a pair never deadlocks: its SetFlag and its WaitFlag go together.
    EXPECT_FALSE(r["deadlock"].get<bool>()) << r["kernel_error"];
    EXPECT_EQ(!r["races"].empty(), e.race) << r["races"].dump(1);
    // Whatever this run's order did, a wrong answer is always among the reported races.
    if (!r["right"].get<bool>()) {
      EXPECT_FALSE(r["races"].empty());
    }
    races += !r["races"].empty();
  }
  EXPECT_GT(races, 0);
}

}  // namespace sanitizer_samples_test
