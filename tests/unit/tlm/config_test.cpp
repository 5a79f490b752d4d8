#include "tlm/config.h"

#include <gtest/gtest.h>
#include <cstdint>
#include <fstream>
#include <string>
#include <systemc>
#include "tlm/log.h"
#include "tests/support/error_of.h"

namespace config_test {

using npuvp::Config;
using json = nlohmann::json;

using npuvp::testing::error_of;

std::string temp_path(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "npuvp_" + info->name() + "_" + name;
}

TEST(ConfigTest, FlattensNestedObjectsIntoDottedKeys) {
  Config cfg;
  cfg.load_json({{"core", {{"ub", {{"size", 1024}}}, {"count", 2}}},
                 {"name", "demo"},
                 {"shape", {1, 2, 3}}},
                "a.json");
  EXPECT_TRUE(cfg.has_user_value("core.ub.size"));
  EXPECT_TRUE(cfg.has_user_value("core.count"));
  EXPECT_TRUE(cfg.has_user_value("shape"));  // arrays are leaves
  EXPECT_FALSE(cfg.has_user_value("core"));
  EXPECT_FALSE(cfg.has_user_value("core.ub"));
  EXPECT_EQ(cfg.get<unsigned long>("core.ub.size", 0, "UB size"), 1024u);
  EXPECT_EQ(cfg.get<int>("core.count", 1, "cores"), 2);
  EXPECT_EQ(cfg.get<std::string>("name", "", "name"), "demo");
  EXPECT_EQ(cfg.get<int>("absent", 7, "not given"), 7);
}

TEST(ConfigTest, LaterValuesOverrideEarlierOnes) {
  Config cfg;
  cfg.load_json({{"core", {{"count", 2}}}}, "a.json");
  cfg.load_json({{"core", {{"count", 4}}}}, "b.json");
  EXPECT_EQ(cfg.get<int>("core.count", 1, ""), 4);
  cfg.set_override("core.count=8");
  EXPECT_EQ(cfg.get<int>("core.count", 1, ""), 8);
}

TEST(ConfigTest, TopLevelMustBeAnObject) {
  Config cfg;
  const std::string text = error_of([&] { cfg.load_json(json::array({1, 2}), "list.json"); });
  EXPECT_NE(text.find("list.json"), std::string::npos) << text;
  EXPECT_NE(text.find("object"), std::string::npos) << text;
}

TEST(ConfigTest, LoadFileReadsJsonAndNamesTheFileOnErrors) {
  Config cfg;
  const std::string good = temp_path("good.json");
  std::ofstream(good) << R"({"dram": {"latency_ns": 80, "dmi": false}})";
  cfg.load_file(good);
  EXPECT_EQ(cfg.get<int>("dram.latency_ns", 100, ""), 80);
  EXPECT_FALSE(cfg.get<bool>("dram.dmi", true, ""));
  EXPECT_EQ(cfg.parameters().front().source, good);

  const std::string missing = temp_path("missing.json");
  std::string text = error_of([&] { cfg.load_file(missing); });
  EXPECT_NE(text.find(missing), std::string::npos) << text;

  const std::string bad = temp_path("bad.json");
  std::ofstream(bad) << R"({"dram": {"latency_ns": 80,}})";
  text = error_of([&] { cfg.load_file(bad); });
  EXPECT_NE(text.find(bad), std::string::npos) << text;
  EXPECT_NE(text.find("parse error"), std::string::npos) << text;  // nlohmann's message
}

TEST(ConfigTest, OverrideValuesParseAsJsonElseString) {
  Config cfg;
  cfg.set_override("a=5");
  cfg.set_override("b=true");
  cfg.set_override("c=hello");
  cfg.set_override("d=\"quoted\"");
  cfg.set_override("e=1.5");
  cfg.set_override(" f =[1,2]");
  cfg.set_override("g=x=y");
  cfg.set_override("h=");
  cfg.set_override("i=/tmp/out.json");
  EXPECT_EQ(cfg.get<int>("a", 0, ""), 5);
  EXPECT_TRUE(cfg.get<bool>("b", false, ""));
  EXPECT_EQ(cfg.get<std::string>("c", "", ""), "hello");
  EXPECT_EQ(cfg.get<std::string>("d", "", ""), "quoted");
  EXPECT_DOUBLE_EQ(cfg.get<double>("e", 0.0, ""), 1.5);
  EXPECT_TRUE(cfg.has_user_value("f"));
  EXPECT_EQ(cfg.get<std::string>("g", "", ""), "x=y");
  EXPECT_EQ(cfg.get<std::string>("h", "default", ""), "");
  EXPECT_EQ(cfg.get<std::string>("i", "", ""), "/tmp/out.json");
  EXPECT_EQ(cfg.parameters().front().source, "command line");

  const std::string text = error_of([&] { cfg.set_override("no_equals_sign"); });
  EXPECT_NE(text.find("no_equals_sign"), std::string::npos) << text;
  EXPECT_NE(text.find("key=value"), std::string::npos) << text;
}

TEST(ConfigTest, UnsignedAcceptsSizeSuffixes) {
  Config cfg;
  const std::pair<const char*, uint64_t> cases[] = {
      {"64KiB", 64ull << 10}, {"64K", 64ull << 10},  {"1MiB", 1ull << 20}, {"1M", 1ull << 20},
      {"4GiB", 4ull << 30},   {"4G", 4ull << 30},    {"1TiB", 1ull << 40}, {"256KiB", 256ull << 10},
      {"512B", 512},          {"4096", 4096},        {"2KB", 2048},        {"3Mi", 3ull << 20},
  };
  for (const auto& [text, expected] : cases) {
    cfg.set("size", text, "test");
    EXPECT_EQ(cfg.get<unsigned long long>("size", 0, ""), expected) << text;
  }
  cfg.set("size", "256KiB", "test");
  EXPECT_EQ(cfg.get<unsigned>("size", 0u, ""), 256u << 10);
  // Sizes are for unsigned types only.
  EXPECT_THROW(cfg.get<long>("size", 0, ""), sc_core::sc_report);
  // Fits uint64 but not unsigned (32 bits).
  cfg.set("size", "4GiB", "test");
  EXPECT_THROW(cfg.get<unsigned>("size", 0u, ""), sc_core::sc_report);
  for (const char* bad : {"", "KiB", "12XB", "1.5GiB", "-1K", "64 KiBB", "99999999999T"}) {
    cfg.set("size", bad, "test");
    EXPECT_THROW(cfg.get<unsigned long>("size", 0, ""), sc_core::sc_report) << bad;
  }
}

TEST(ConfigTest, WrongTypeErrorNamesKeyValueAndSource) {
  Config cfg;
  cfg.set_override("core.ub.size=abc");
  const std::string text = error_of([&] { cfg.get<unsigned long>("core.ub.size", 0, ""); });
  EXPECT_NE(text.find("config @ "), std::string::npos) << text;
  EXPECT_NE(text.find("config key 'core.ub.size': expected an unsigned integer (or a size like "
                      "\"256KiB\" or hex like \"0x1000\"), got \"abc\" (from command line)"),
            std::string::npos)
      << text;
}

TEST(ConfigTest, TypeAndRangeRules) {
  Config cfg;
  cfg.set("neg", -1, "t.json");
  cfg.set("big", 3000000000ull, "t.json");
  cfg.set("one", 1, "t.json");
  cfg.set("half", 1.5, "t.json");
  cfg.set("str", "x", "t.json");
  cfg.set("flag", true, "t.json");

  EXPECT_EQ(cfg.get<int>("neg", 0, ""), -1);
  EXPECT_EQ(cfg.get<long long>("big", 0, ""), 3000000000ll);
  EXPECT_EQ(cfg.get<unsigned>("big", 0u, ""), 3000000000u);
  EXPECT_DOUBLE_EQ(cfg.get<double>("one", 0.0, ""), 1.0);  // any number is a double
  EXPECT_DOUBLE_EQ(cfg.get<double>("half", 0.0, ""), 1.5);

  const std::string neg = error_of([&] { cfg.get<unsigned>("neg", 0u, ""); });
  EXPECT_NE(neg.find("'neg'"), std::string::npos) << neg;
  EXPECT_NE(neg.find("(from t.json)"), std::string::npos) << neg;
  EXPECT_THROW(cfg.get<unsigned long long>("neg", 0, ""), sc_core::sc_report);
  EXPECT_THROW(cfg.get<int>("big", 0, ""), sc_core::sc_report);
  EXPECT_THROW(cfg.get<int>("half", 0, ""), sc_core::sc_report);   // integers must be integers
  EXPECT_THROW(cfg.get<bool>("one", false, ""), sc_core::sc_report);  // no 0/1 booleans
  EXPECT_THROW(cfg.get<std::string>("one", "", ""), sc_core::sc_report);
  EXPECT_THROW(cfg.get<int>("str", 0, ""), sc_core::sc_report);
  EXPECT_THROW(cfg.get<double>("flag", 0.0, ""), sc_core::sc_report);
  EXPECT_TRUE(cfg.get<bool>("flag", false, ""));
}

TEST(ConfigTest, UnknownKeyErrorSuggestsNearestDeclaredKey) {
  Config cfg;
  cfg.load_json({{"core", {{"ub", {{"szie", 1}}}}}}, "x.json");
  cfg.set_override("dram.latncy=3");
  cfg.get<unsigned long>("core.ub.size", 1024, "UB size");
  cfg.get<unsigned long>("core.l1.size", 1024, "L1 size");
  cfg.get<int>("dram.latency", 100, "DRAM latency");
  const std::string text = error_of([&] { cfg.check_unused(); });
  EXPECT_NE(text.find("unknown config key 'core.ub.szie' (from x.json); did you mean "
                      "'core.ub.size'?"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("unknown config key 'dram.latncy' (from command line); did you mean "
                      "'dram.latency'?"),
            std::string::npos)
      << text;
}

TEST(ConfigTest, CheckUnusedPassesWhenEveryKeyIsDeclared) {
  Config cfg;
  cfg.set_override("core.count=2");
  EXPECT_THROW(cfg.check_unused(), sc_core::sc_report);
  cfg.get<int>("core.count", 1, "cores");
  EXPECT_NO_THROW(cfg.check_unused());
}

TEST(ConfigTest, ParametersRecordValuesAndSourcesSortedByKey) {
  Config cfg;
  cfg.load_json({{"b", {{"size", "1MiB"}}}}, "plat.json");
  cfg.set_override("c.flag=true");
  cfg.get<bool>("c.flag", false, "a flag");
  cfg.get<unsigned long>("b.size", 4096, "a size");
  cfg.get<int>("a.count", 3, "a count");

  const auto params = cfg.parameters();
  ASSERT_EQ(params.size(), 3u);
  EXPECT_EQ(params[0].key, "a.count");
  EXPECT_EQ(params[0].value, json(3));
  EXPECT_EQ(params[0].fallback, json(3));
  EXPECT_EQ(params[0].source, "default");
  EXPECT_EQ(params[0].description, "a count");
  EXPECT_EQ(params[1].key, "b.size");
  EXPECT_EQ(params[1].value, json(1ull << 20));  // the converted value, not the size string
  EXPECT_EQ(params[1].fallback, json(4096));
  EXPECT_EQ(params[1].source, "plat.json");
  EXPECT_EQ(params[2].key, "c.flag");
  EXPECT_EQ(params[2].source, "command line");
}

TEST(ConfigTest, DeclaringTwiceReturnsTheSameValue) {
  Config cfg;
  cfg.set_override("core.freq_mhz=1500");
  EXPECT_EQ(cfg.get<int>("core.freq_mhz", 1000, "clock"), 1500);
  EXPECT_EQ(cfg.get<int>("core.freq_mhz", 1000, "clock"), 1500);
  EXPECT_EQ(cfg.get<int>("core.cores", 2, "cores"), 2);
  EXPECT_EQ(cfg.get<int>("core.cores", 2, "cores"), 2);
  EXPECT_EQ(cfg.parameters().size(), 2u);
}

TEST(ConfigTest, GlobalIsOneInstanceAndClearForgets) {
  Config& g = Config::global();
  EXPECT_EQ(&g, &Config::global());
  g.clear();
  g.set_override("x=1");
  g.get<int>("y", 0, "");
  EXPECT_TRUE(g.has_user_value("x"));
  g.clear();
  EXPECT_FALSE(g.has_user_value("x"));
  EXPECT_TRUE(g.parameters().empty());
  EXPECT_NO_THROW(g.check_unused());
}

TEST(ConfigTest, HexValuesForAddresses) {
  npuvp::Config c;
  c.set_override("gm.base=0x1_0000_0000");
  c.set_override("x.mask=\"0xFF\"");
  EXPECT_EQ(c.get<uint64_t>("gm.base", 0, "base"), 0x100000000ull);
  EXPECT_EQ(c.get<unsigned>("x.mask", 0, "mask"), 255u);
  c.set_override("bad=0xZZ");
  EXPECT_THROW(c.get<uint64_t>("bad", 0, "bad"), std::exception);
}
}  // namespace config_test
