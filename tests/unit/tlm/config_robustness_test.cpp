// Issue 29: configuration input that used to crash, mislead or hang is a clear error: deeply
// nested files and values, duplicate keys, a directory given as a file, huge tokens, many
// unknown keys, and range errors that quote the parameter's own range.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include "tests/support/error_of.h"
#include "tlm/config.h"

namespace config_robustness_test {

using npuvp::Config;
using npuvp::testing::error_of;
using ::testing::HasSubstr;
using ::testing::Not;

std::string temp_file(const std::string& name, const std::string& text) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string path = ::testing::TempDir() + "npuvp_" + info->name() + "_" + name;
  std::ofstream(path) << text;
  return path;
}

std::string nested(size_t depth, const std::string& open, const std::string& close, const std::string& leaf) {
  std::string text;
  for (size_t i = 0; i < depth; ++i) text += open;
  text += leaf;
  for (size_t i = 0; i < depth; ++i) text += close;
  return text;
}

TEST(ConfigRobustness, DeeplyNestedFileIsAnErrorNotACrash) {
  Config cfg;
  const std::string path = temp_file("deep.json", nested(100000, "{\"a\":", "}", "1"));
  EXPECT_THAT(error_of([&] { cfg.load_file(path); }), HasSubstr("nested more than 64 levels deep"));
}

TEST(ConfigRobustness, DeeplyNestedArrayValueOfAKnownKeyIsAnError) {
  Config cfg;
  const std::string path = temp_file("deep_array.json", "{\"core\":{\"event_ids\":" + nested(100000, "[", "]", "1") + "}}");
  EXPECT_THAT(error_of([&] { cfg.load_file(path); }), HasSubstr("nested more than 64 levels deep"));
  EXPECT_THAT(error_of([&] { cfg.set_override("core.event_ids=" + nested(100000, "[", "]", "")); }),
              HasSubstr("override 'core.event_ids' (from command line): the value is nested more than 64 levels"));
}

TEST(ConfigRobustness, NestingUpToTheLimitStillLoads) {
  Config cfg;
  cfg.load_file(temp_file("ok.json", nested(Config::kMaxDepth - 1, "{\"a\":", "}", "1")));
  std::string key = "a";
  for (int i = 1; i < Config::kMaxDepth - 1; ++i) key += ".a";
  EXPECT_EQ(cfg.get<int>(key, 0, "deep"), 1);
}

TEST(ConfigRobustness, DuplicateKeyIsAnError) {
  Config cfg;
  const std::string path = temp_file("dup.json", R"({"core": {"event_ids": 4, "event_ids": 8}})");
  EXPECT_THAT(error_of([&] { cfg.load_file(path); }), HasSubstr("key 'event_ids' appears twice in one object"));
}

TEST(ConfigRobustness, SameKeyInDifferentObjectsIsFine) {
  Config cfg;
  cfg.load_file(temp_file("twice.json", R"({"a": {"size": 1}, "b": {"size": 2}})"));
  EXPECT_EQ(cfg.get<int>("a.size", 0, ""), 1);
  EXPECT_EQ(cfg.get<int>("b.size", 0, ""), 2);
}

TEST(ConfigRobustness, DirectoryIsNamedClearly) {
  Config cfg;
  const std::string dir = ::testing::TempDir() + "npuvp_config_dir";
  ::mkdir(dir.c_str(), 0700);
  EXPECT_THAT(error_of([&] { cfg.load_file(dir); }), HasSubstr("is a directory, not a JSON file"));
}

TEST(ConfigRobustness, MissingFileNamesTheReason) {
  Config cfg;
  EXPECT_THAT(error_of([&] { cfg.load_file("/nonexistent/npuvp.json"); }),
              HasSubstr("cannot open config file '/nonexistent/npuvp.json': No such file or directory"));
}

TEST(ConfigRobustness, HugeTokensAreShortenedInMessages) {
  Config cfg;
  const std::string huge(5 << 20, 'x');
  cfg.set_override("core.event_ids=" + huge);
  const std::string type = error_of([&] { cfg.get<unsigned>("core.event_ids", 8, "ids"); });
  EXPECT_LT(type.size(), 600u);
  EXPECT_THAT(type, HasSubstr("... (5242882 characters)"));  // the JSON string has its quotes
  Config other;
  other.set_override(huge + "=1");
  const std::string unknown = error_of([&] { other.check_unused(); });
  EXPECT_LT(unknown.size(), 600u);
  const std::string path = temp_file("huge.json", "{\"a\": " + huge + "}");
  const std::string syntax = error_of([&] { Config().load_file(path); });
  EXPECT_LT(syntax.size(), 800u);
  EXPECT_THAT(syntax, HasSubstr("syntax error"));
}

TEST(ConfigRobustness, ManyLongUnknownKeysAreReportedQuickly) {
  Config cfg;
  for (int i = 0; i < 2000; ++i) cfg.set_override(std::string(20000, char('a' + i % 26)) + std::to_string(i) + "=1");
  for (int i = 0; i < 300; ++i) cfg.get<int>("known.key" + std::to_string(i), 0, "");
  const auto start = std::chrono::steady_clock::now();
  const std::string e = error_of([&] { cfg.check_unused(); });
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
  EXPECT_THAT(e, HasSubstr("... and 1980 more unknown keys"));
  EXPECT_LT(e.size(), 20000u);
}

TEST(ConfigRobustness, RangeErrorQuotesTheParametersRangeNotTheTypes) {
  Config cfg;
  cfg.set_override("core.event_ids=-1");
  EXPECT_THAT(error_of([&] { cfg.get_in<unsigned>("core.event_ids", 8u, 1u, 16u, "ids"); }),
              HasSubstr("config key 'core.event_ids': -1 is out of range [1, 16]"));
  Config big;
  big.set_override("core.event_ids=99999999999999999999");
  const std::string e = error_of([&] { big.get_in<unsigned>("core.event_ids", 8u, 1u, 16u, "ids"); });
  EXPECT_THAT(e, HasSubstr("is out of range [1, 16]"));
  EXPECT_THAT(e, Not(HasSubstr("4294967295")));
  Config size;
  size.set_override("l2.size=64GiB");
  EXPECT_THAT(error_of([&] { size.get_in<unsigned>("l2.size", 1u, 0u, 1u << 30, "l2"); }),
              HasSubstr("\"64GiB\" is out of range [0, 1073741824]"));
}

TEST(ConfigRobustness, WrongTypeInsideTheRangeStillNamesTheType) {
  Config cfg;
  cfg.set_override("core.event_ids=true");
  EXPECT_THAT(error_of([&] { cfg.get_in<unsigned>("core.event_ids", 8u, 1u, 16u, "ids"); }),
              HasSubstr("expected an unsigned integer"));
}

}  // namespace config_robustness_test
