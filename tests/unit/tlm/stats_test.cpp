#include "tlm/stats.h"

#include <gtest/gtest.h>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <systemc>
#include "tlm/log.h"

namespace stats_test {

using npuvp::Stats;
using json = nlohmann::json;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(StatsTest, CounterIsCreatedOnceAndKeepsItsAddress) {
  Stats stats;
  npuvp::Counter& c = stats.counter("dma.bytes", "", "");
  c += 5;
  ++c;
  npuvp::Counter& again = stats.counter("dma.bytes", "bytes", "bytes moved");
  EXPECT_EQ(&c, &again);
  EXPECT_EQ(again.value, 6u);
  EXPECT_EQ(again.name, "dma.bytes");
  // The first non-empty unit and description stick.
  EXPECT_EQ(again.unit, "bytes");
  EXPECT_EQ(again.description, "bytes moved");
  stats.counter("dma.bytes", "words", "other");
  EXPECT_EQ(c.unit, "bytes");

  EXPECT_EQ(stats.find("dma.bytes"), &c);
  EXPECT_EQ(stats.find("dma"), nullptr);
  EXPECT_EQ(stats.value("dma.bytes"), 6u);
  EXPECT_EQ(stats.value("absent"), 0u);
}

TEST(StatsTest, ResetZeroesAndClearForgets) {
  Stats stats;
  stats.counter("a") += 3;
  stats.counter("b") += 4;
  stats.reset();
  EXPECT_EQ(stats.counters().size(), 2u);
  EXPECT_EQ(stats.value("a"), 0u);
  EXPECT_EQ(stats.value("b"), 0u);
  stats.clear();
  EXPECT_TRUE(stats.counters().empty());
  EXPECT_EQ(stats.find("a"), nullptr);
}

TEST(StatsTest, JsonNestsByDots) {
  Stats stats;
  stats.counter("core0.pipe.V.busy_cycles") += 123;
  stats.counter("core0.pipe.M.busy_cycles") += 45;
  stats.counter("core0.instructions") += 9;
  stats.counter("dram.bytes_read") += 64;
  const json expected = {
      {"core0", {{"pipe", {{"V", {{"busy_cycles", 123}}}, {"M", {{"busy_cycles", 45}}}}},
                 {"instructions", 9}}},
      {"dram", {{"bytes_read", 64}}}};
  EXPECT_EQ(stats.to_json(), expected) << stats.to_json().dump(2);
}

TEST(StatsTest, JsonPutsALeafThatIsAlsoAPrefixUnderValue) {
  Stats stats;
  stats.counter("dma") += 3;
  stats.counter("dma.bytes") += 64;
  stats.counter("dma.q.depth") += 2;
  const json expected = {{"dma", {{"value", 3}, {"bytes", 64}, {"q", {{"depth", 2}}}}}};
  EXPECT_EQ(stats.to_json(), expected) << stats.to_json().dump(2);
  EXPECT_EQ(Stats().to_json(), json::object());
}

TEST(StatsTest, TableHasAlignedColumns) {
  Stats stats;
  stats.counter("core0.instructions", "instructions") += 7;
  stats.counter("dram.bytes_read", "bytes") += 123456;
  stats.counter("x") += 42;  // no unit
  const auto lines = lines_of(stats.to_table());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "core0.instructions       7  instructions");
  EXPECT_EQ(lines[1], "dram.bytes_read     123456  bytes");
  EXPECT_EQ(lines[2], "x                       42");
  EXPECT_EQ(Stats().to_table(), "");
}

TEST(StatsTest, WriteJsonRoundTripsAndNamesAnUnwritablePath) {
  Stats stats;
  stats.counter("a.b", "bytes") += 11;
  const std::string path = ::testing::TempDir() + "npuvp_stats_test.json";
  stats.write_json(path);
  std::ifstream in(path);
  const json back = json::parse(in);
  EXPECT_EQ(back, stats.to_json());

  const std::string bad = "/nonexistent-dir/stats.json";
  try {
    stats.write_json(bad);
    ADD_FAILURE() << "no error";
  } catch (const sc_core::sc_report& e) {
    EXPECT_NE(npuvp::error_text(e).find(bad), std::string::npos) << npuvp::error_text(e);
  }
}

TEST(StatsTest, GlobalIsOneInstance) {
  EXPECT_EQ(&Stats::global(), &Stats::global());
  Stats::global().clear();
  Stats::global().counter("g") += 1;
  EXPECT_EQ(Stats::global().value("g"), 1u);
}

TEST(StatsTest, ReadsRunTheFlushesFirst) {
  Stats stats;
  npuvp::Counter& c = stats.counter("noc.link.bytes", "bytes");
  uint64_t aside = 0;  // counted elsewhere, moved in by the flush
  int owner = 0;
  stats.add_flush(&owner, [&] {
    c += aside;
    aside = 0;
  });
  aside = 5;
  EXPECT_EQ(stats.value("noc.link.bytes"), 5u);
  aside = 2;
  EXPECT_EQ(stats.find("noc.link.bytes")->value, 7u);
  aside = 1;
  EXPECT_EQ(stats.to_json()["noc"]["link"]["bytes"], 8u);
  aside = 1;
  EXPECT_NE(stats.to_table().find(" 9"), std::string::npos);
  aside = 1;
  EXPECT_EQ(stats.counters().at("noc.link.bytes")->value, 10u);
  aside = 3;
  stats.reset();  // what was aside is counted, then zeroed with the rest
  EXPECT_EQ(stats.value("noc.link.bytes"), 0u);
  stats.remove_flush(&owner);
  aside = 4;
  EXPECT_EQ(stats.value("noc.link.bytes"), 0u);
  stats.add_flush(&owner, [&] { ADD_FAILURE() << "flush after clear"; });
  stats.clear();  // the counters are gone, and the flushes with them
  EXPECT_EQ(stats.value("noc.link.bytes"), 0u);
}
}  // namespace stats_test
