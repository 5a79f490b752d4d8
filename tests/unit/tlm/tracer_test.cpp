#include "tlm/tracer.h"

#include <gtest/gtest.h>
#include <fstream>
#include <string>
#include <vector>
#include "tlm/log.h"

namespace tracer_test {

using npuvp::Tracer;
using json = nlohmann::json;
using sc_core::SC_NS;
using sc_core::SC_US;
using sc_core::sc_time;

std::string temp_path(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "npuvp_" + info->name() + "_" + name;
}

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);  // throws (failing the test) if the file is not valid JSON
}

std::vector<json> events_with(const json& trace, const std::string& ph) {
  std::vector<json> out;
  for (const auto& e : trace) {
    if (e.at("ph") == ph) out.push_back(e);
  }
  return out;
}

// The args of the metadata event `what` for (pid, tid); null if absent.
json metadata(const json& trace, const std::string& what, int pid, int tid = 0) {
  for (const auto& e : trace) {
    if (e.at("ph") == "M" && e.at("name") == what && e.at("pid") == pid &&
        (tid == 0 || e.value("tid", 0) == tid)) {
      return e.at("args");
    }
  }
  return nullptr;
}

TEST(TracerTest, WritesChromeTraceEventJson) {
  const std::string path = temp_path("trace.json");
  Tracer tracer;
  tracer.open(path);
  EXPECT_TRUE(tracer.enabled());
  const int mte2 = tracer.track("core0", "MTE2");
  const int vec = tracer.track("core0", "V");
  const int other = tracer.track("core1", "MTE2");
  EXPECT_EQ(tracer.track("core0", "V"), vec);  // stable
  tracer.slice(vec, "vadd", sc_time(1500, SC_NS), sc_time(250, SC_NS), {{"n", 8}});
  tracer.slice(mte2, "copy_gm_to_ub", sc_core::SC_ZERO_TIME, sc_time(1, SC_US));
  tracer.slice(other, "copy", sc_time(3, SC_US), sc_time(1, SC_NS), json::object());
  tracer.counter("dram", "bandwidth", sc_time(2, SC_US), 3.5);
  const size_t written = tracer.events_written();
  tracer.close();
  EXPECT_FALSE(tracer.enabled());

  const json trace = read_json(path);
  ASSERT_TRUE(trace.is_array());
  EXPECT_EQ(trace.size(), written);

  const auto slices = events_with(trace, "X");
  ASSERT_EQ(slices.size(), 3u);
  EXPECT_EQ(slices[0].at("name"), "vadd");
  EXPECT_EQ(slices[0].at("pid"), 1);
  EXPECT_EQ(slices[0].at("tid"), 2);
  EXPECT_DOUBLE_EQ(slices[0].at("ts").get<double>(), 1.5);    // microseconds
  EXPECT_DOUBLE_EQ(slices[0].at("dur").get<double>(), 0.25);
  EXPECT_EQ(slices[0].at("args"), json({{"n", 8}}));
  EXPECT_EQ(slices[1].at("pid"), 1);
  EXPECT_EQ(slices[1].at("tid"), 1);
  EXPECT_DOUBLE_EQ(slices[1].at("ts").get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(slices[1].at("dur").get<double>(), 1.0);
  EXPECT_FALSE(slices[1].contains("args"));  // no args, no key
  EXPECT_EQ(slices[2].at("pid"), 2);
  EXPECT_EQ(slices[2].at("tid"), 1);
  EXPECT_DOUBLE_EQ(slices[2].at("dur").get<double>(), 0.001);
  EXPECT_FALSE(slices[2].contains("args"));

  const auto counters = events_with(trace, "C");
  ASSERT_EQ(counters.size(), 1u);
  EXPECT_EQ(counters[0].at("name"), "bandwidth");
  EXPECT_EQ(counters[0].at("pid"), 3);
  EXPECT_DOUBLE_EQ(counters[0].at("ts").get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(counters[0].at("args").at("value").get<double>(), 3.5);

  EXPECT_EQ(metadata(trace, "process_name", 1), json({{"name", "core0"}}));
  EXPECT_EQ(metadata(trace, "process_name", 2), json({{"name", "core1"}}));
  EXPECT_EQ(metadata(trace, "process_name", 3), json({{"name", "dram"}}));
  EXPECT_EQ(metadata(trace, "thread_name", 1, 1), json({{"name", "MTE2"}}));
  EXPECT_EQ(metadata(trace, "thread_name", 1, 2), json({{"name", "V"}}));
  EXPECT_EQ(metadata(trace, "thread_name", 2, 1), json({{"name", "MTE2"}}));
  EXPECT_EQ(metadata(trace, "thread_sort_index", 1, 2), json({{"sort_index", 2}}));
}

TEST(TracerTest, StreamsWithTheDocumentedFraming) {
  const std::string path = temp_path("frame.json");
  Tracer tracer;
  tracer.open(path);
  tracer.counter("p", "c", sc_core::SC_ZERO_TIME, 1);
  tracer.close();
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.rfind("[\n", 0), 0u) << text;
  EXPECT_EQ(text.substr(text.size() - 3), "\n]\n") << text;
  EXPECT_NE(text.find("},\n{"), std::string::npos) << text;  // metadata, then the counter
}

TEST(TracerTest, DisabledCallsAreNoOps) {
  Tracer tracer;
  EXPECT_FALSE(tracer.enabled());
  const int a = tracer.track("core0", "S");
  const int b = tracer.track("core0", "V");
  EXPECT_NE(a, b);
  tracer.slice(a, "x", sc_core::SC_ZERO_TIME, sc_time(1, SC_NS));
  tracer.slice(12345, "unknown track, but disabled", sc_core::SC_ZERO_TIME, sc_time(1, SC_NS));
  tracer.counter("dram", "bw", sc_core::SC_ZERO_TIME, 1.0);
  tracer.close();
  EXPECT_EQ(tracer.events_written(), 0u);
}

TEST(TracerTest, TracksCreatedBeforeOpenAreStillNamed) {
  const std::string path = temp_path("late.json");
  Tracer tracer;
  const int t = tracer.track("core7", "MTE3");
  tracer.open(path);
  tracer.slice(t, "store", sc_time(2, SC_NS), sc_time(2, SC_NS));
  tracer.close();
  const json trace = read_json(path);
  EXPECT_EQ(metadata(trace, "process_name", 1), json({{"name", "core7"}}));
  EXPECT_EQ(metadata(trace, "thread_name", 1, 1), json({{"name", "MTE3"}}));
  ASSERT_EQ(events_with(trace, "X").size(), 1u);
}

TEST(TracerTest, OpenWhileOpenFinishesThePreviousFile) {
  const std::string first = temp_path("first.json");
  const std::string second = temp_path("second.json");
  Tracer tracer;
  tracer.open(first);
  const int t = tracer.track("core0", "V");
  tracer.slice(t, "a", sc_core::SC_ZERO_TIME, sc_time(1, SC_NS));
  tracer.open(second);
  tracer.slice(t, "b", sc_core::SC_ZERO_TIME, sc_time(1, SC_NS));
  tracer.close();

  const json one = read_json(first);
  const json two = read_json(second);
  ASSERT_EQ(events_with(one, "X").size(), 1u);
  ASSERT_EQ(events_with(two, "X").size(), 1u);
  EXPECT_EQ(events_with(one, "X")[0].at("name"), "a");
  EXPECT_EQ(events_with(two, "X")[0].at("name"), "b");
  EXPECT_EQ(metadata(two, "thread_name", 1, 1), json({{"name", "V"}}));
}

TEST(TracerTest, EmptyTraceIsValidJson) {
  const std::string path = temp_path("empty.json");
  {
    Tracer tracer;
    tracer.open(path);
  }  // the destructor closes
  EXPECT_EQ(read_json(path), json::array());
}

TEST(TracerTest, OpenFailureNamesThePath) {
  Tracer tracer;
  const std::string bad = "/nonexistent-dir/trace.json";
  try {
    tracer.open(bad);
    ADD_FAILURE() << "no error";
  } catch (const sc_core::sc_report& e) {
    EXPECT_NE(npuvp::error_text(e).find(bad), std::string::npos) << npuvp::error_text(e);
  }
  EXPECT_FALSE(tracer.enabled());
  EXPECT_EQ(&Tracer::global(), &Tracer::global());
}
}  // namespace tracer_test
