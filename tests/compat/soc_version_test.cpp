// CANN's SoC names -> npuvp platforms (sw/runtime/soc_version.h), and the same table in the
// CMake drop-ins (cmake/cann/npuvp_cann.cmake.in), which must agree name for name.
#include "sw/runtime/soc_version.h"

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <gtest/gtest.h>

namespace npuvp::runtime {
namespace {

TEST(SocVersion, NamesOfEachChipFamilyAnyCase) {
  EXPECT_STREQ(platform_for_soc("Ascend910A"), "ascend910");
  EXPECT_STREQ(platform_for_soc("Ascend910B"), "ascend910");  // the first 910, not the A2
  EXPECT_STREQ(platform_for_soc("Ascend910PremiumA"), "ascend910");
  EXPECT_STREQ(platform_for_soc("Ascend910B3"), "ascend910b");
  EXPECT_STREQ(platform_for_soc("ascend910b4-1"), "ascend910b");
  EXPECT_STREQ(platform_for_soc("ASCEND310P3"), "ascend310p");
  EXPECT_EQ(platform_for_soc("Ascend310B1"), nullptr);  // not modelled
  EXPECT_EQ(platform_for_soc("Ascend910B9"), nullptr);
  EXPECT_EQ(platform_for_soc(""), nullptr);
  EXPECT_EQ(platform_for_soc(nullptr), nullptr);
}

TEST(SocVersion, SetDefaultSocChoosesThePlatformAndPublishesTheName) {
  unsetenv("NPUVP_SOC_VERSION");
  EXPECT_EQ(default_soc_platform(), nullptr);
  EXPECT_FALSE(set_default_soc("Ascend999"));
  EXPECT_EQ(default_soc_platform(), nullptr);
  EXPECT_TRUE(set_default_soc("Ascend310P1"));
  EXPECT_STREQ(default_soc_platform(), "ascend310p");
  EXPECT_STREQ(std::getenv("NPUVP_SOC_VERSION"), "Ascend310P1");
  // A value the user set is kept.
  setenv("NPUVP_SOC_VERSION", "Ascend310P3", 1);
  EXPECT_TRUE(set_default_soc("Ascend910B1"));
  EXPECT_STREQ(default_soc_platform(), "ascend910b");
  EXPECT_STREQ(std::getenv("NPUVP_SOC_VERSION"), "Ascend310P3");
}

TEST(SocVersion, TheCMakeTableAgrees) {
  std::ifstream in(NPUVP_CANN_CMAKE);
  ASSERT_TRUE(in) << NPUVP_CANN_CMAKE;
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  // "platform|aicore|arch|Name Name ..." per family.
  const std::regex family("\"(ascend[0-9a-z]+)\\|([0-9]+)\\|([0-9]+)\\|([A-Za-z0-9 -]+)\"");
  int families = 0, names = 0;
  for (std::sregex_iterator it(s.begin(), s.end(), family), end; it != end; ++it, ++families) {
    const std::string platform = (*it)[1];
    std::istringstream list((*it)[4]);
    for (std::string name; list >> name; ++names) {
      const char* p = platform_for_soc(name.c_str());
      EXPECT_TRUE(p != nullptr && platform == p) << name << " is " << platform << " in CMake, "
                                                 << (p ? p : "unknown") << " in C++";
    }
  }
  EXPECT_EQ(families, 3);
  EXPECT_EQ(names, 17);
}

}  // namespace
}  // namespace npuvp::runtime
