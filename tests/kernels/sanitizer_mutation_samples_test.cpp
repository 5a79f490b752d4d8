// The sanitizer's mutation test over the hand-written flags of the sample kernels
// (sw/kernels: matmul on the A2 core, matmul_int8 and conv2d on the A2 core and the coupled
// 910, prefix_sum; the coupled 910's matmul has queue flags only):
// each SetFlag/WaitFlag pair block 0 writes by hand (not TQue's, which
// sanitizer_samples_test.cpp covers on the elementwise sample) is dropped in turn, through
// the test knob sw/ascendc/sync_mutation.h, and the run must show it: a race, or a deadlock.
// A removal that shows neither must be one of the explained kinds:
//  - its WaitFlag was never reached (nothing waited on that SetFlag, so it ordered nothing);
//  - the unmutated run's sanitizer noted that WaitFlag as ordering nothing (everything it
//    orders is ordered already, by program order of a pipe and the flags around it);
//  - its pipe touched no memory after that WaitFlag before every pipe drained (a PipeBarrier
//    <PIPE_ALL> or the block's end: a kernel's trailing wait, which only clears the flag);
//  - it orders the scalar unit against a pipe, which automatic synchronisation
//    (core.auto_sync, on by default as in CANN) does again before each GetValue/SetValue.
// Whatever the outcome, a wrong answer must come with a reported race.
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>
#include <nlohmann/json.hpp>
#include "kernel_operator.h"
#include "models/check/sanitizer.h"
#include "sw/ascendc/sync_mutation.h"
#include "sw/kernels/samples.h"
#include "tests/support/child_process.h"
#include "tests/support/device_fixture.h"

namespace sanitizer_mutation_samples_test {

using nlohmann::json;
using npuvp::check::Sanitizer;
namespace mutation = npuvp::ascendc::mutation;

// One child: `sample` on `platform` (functional mode, every check), recording block 0's flag
// pairs when `record`, else with `drop` removed.
json run(const std::string& sample, const std::string& platform, bool record, const mutation::FlagPair& drop) {
  return npuvp::testing::in_child_process([&] {
    npuvp::testing::make_device({"check.race=true", "check.sync=true", "check.sites=false", "sim.mode=functional"},
                                platform);
    const auto* s = npuvp::kernels::find_sample(sample);
    if (!s) return json{{"missing", sample}};
    if (record) {
      mutation::record(true);
    } else {
      mutation::drop(drop);
    }
    json out{{"deadlock", false}, {"passed", false}};
    try {
      out["passed"] = s->run(npuvp::kernels::SampleArgs(1, 1)).passed;
    } catch (const std::exception& e) {
      out["error"] = npuvp::error_text(e);
      out["deadlock"] = out["error"].get<std::string>().find("deadlock") != std::string::npos;
    }
    json pairs = json::array();
    for (const auto& p : mutation::recorded()) pairs.push_back({int(p.src), int(p.dst), p.id, p.occurrence, p.queue});
    json races = json::array(), notes = json::array();
    for (const auto& f : Sanitizer::active()->findings()) {
      if (f.kind == "race") races.push_back(f.text);
      if (f.kind == "sync" && !f.error) notes.push_back(f.text);
    }
    json drain_only = json::array();
    for (const auto& w : Sanitizer::active()->drain_only_waits()) {
      if (w[1] == 0) drain_only.push_back({w[2], w[3], w[4], w[5]});  // block 0's
    }
    Sanitizer::active()->clear_findings();
    out["drain_only"] = drain_only;
    out["pairs"] = pairs;
    out["races"] = races;
    out["notes"] = notes;
    out["wait_reached"] = mutation::dropped_wait();
    return out;
  });
}

std::string flag_text(const mutation::FlagPair& p) {
  return std::string("<") + npuvp::aicore::pipe_name(p.src) + "_" + npuvp::aicore::pipe_name(p.dst) + ">(" +
         std::to_string(p.id) + ")";
}

class SanitizerMutationOfSamples : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(SanitizerMutationOfSamples, EveryHandWrittenPairDroppedIsReportedOrExplained) {
  const std::string sample = GetParam().first, platform = GetParam().second;
  const json intact = run(sample, platform, true, {});
  ASSERT_FALSE(intact.contains("error")) << intact.dump(1);
  ASSERT_TRUE(intact["passed"].get<bool>());
  ASSERT_TRUE(intact["races"].empty()) << intact["races"].dump(1);
  // The hand-written pairs: of each (src, dst, id) the first two occurrences and the last (a
  // loop's first iterations and its tail are where a dropped flag differs).
  std::map<std::tuple<int, int, uint32_t>, uint32_t> last;
  for (const auto& p : intact["pairs"]) {
    if (p[4].get<bool>()) continue;
    last[{p[0].get<int>(), p[1].get<int>(), p[2].get<uint32_t>()}] = p[3].get<uint32_t>();
  }
  ASSERT_FALSE(last.empty()) << "no hand-written flag in block 0 of " << sample;
  int reported = 0, tried = 0;
  for (const auto& [key, top] : last) {
    std::set<uint32_t> occurrences = {0, std::min<uint32_t>(1, top), top};
    for (uint32_t occurrence : occurrences) {
      mutation::FlagPair p;
      p.src = npuvp::aicore::Pipe(std::get<0>(key));
      p.dst = npuvp::aicore::Pipe(std::get<1>(key));
      p.id = std::get<2>(key);
      p.occurrence = occurrence;
      const json r = run(sample, platform, false, p);
      const std::string what = "SetFlag/WaitFlag" + flag_text(p) + " #" + std::to_string(occurrence);
      SCOPED_TRACE(sample + " on " + platform + " without " + what + ": " + r.dump());
      ++tried;
      const bool race = !r["races"].empty(), deadlock = r["deadlock"].get<bool>();
      if (!r["passed"].get<bool>() && !deadlock) {
        EXPECT_TRUE(race) << "a wrong answer with no race reported";
      }
      if (race || deadlock) {
        ++reported;
        continue;
      }
      bool noted = false;
      for (const auto& n : intact["notes"]) noted |= n.get<std::string>().find("WaitFlag" + flag_text(p)) != std::string::npos;
      const bool scalar = p.src == npuvp::aicore::Pipe::S || p.dst == npuvp::aicore::Pipe::S;
      bool trailing = false;
      for (const auto& w : intact["drain_only"]) {
        trailing |= w == json{int(p.src), int(p.dst), p.id, p.occurrence};
      }
      EXPECT_TRUE(!r["wait_reached"].get<bool>() || noted || trailing || scalar)
          << "silent, yet its WaitFlag was reached, ordered something, and is not a scalar sync";
    }
  }
  EXPECT_GT(tried, 0);
  std::printf("%s on %s: %d of %d removals reported as a race or a deadlock\n", sample.c_str(), platform.c_str(),
              reported, tried);
}

INSTANTIATE_TEST_SUITE_P(
    HandWritten, SanitizerMutationOfSamples,
    ::testing::Values(std::pair{"matmul", "core910b"},
                      std::pair{"matmul_int8", "core910"}, std::pair{"conv2d", "core910b"},
                      std::pair{"conv2d", "core910"}, std::pair{"prefix_sum", "minimal"}),
    [](const auto& info) { return std::string(info.param.first) + "_" + info.param.second; });

}  // namespace sanitizer_mutation_samples_test
