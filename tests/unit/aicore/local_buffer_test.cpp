#include <gtest/gtest.h>
#include "models/aicore/local_buffer.h"

namespace local_buffer_test {
using npuvp::aicore::LocalBuffer;
using npuvp::aicore::MemSpace;

TEST(LocalBufferTest, SizeAlignmentAndRange) {
  LocalBuffer ub(MemSpace::UB, 256 * 1024, 32);
  EXPECT_EQ(ub.size(), 256u * 1024);
  EXPECT_STREQ(ub.name(), "UB");
  EXPECT_TRUE(ub.check(0, 256 * 1024, "dst").empty());
  EXPECT_TRUE(ub.check(256 * 1024 - 32, 32, "dst").empty());
  EXPECT_EQ(ub.check(16, 32, "dst"), "dst address UB:0x10 is not 32 B aligned");
  EXPECT_NE(ub.check(256 * 1024 - 32, 64, "src").find("exceeds UB size 0x40000"), std::string::npos);
  EXPECT_NE(ub.check(~0ull - 31, 64, "src").find("exceeds"), std::string::npos);  // no overflow
  EXPECT_TRUE(ub.check_range(2, 2, "element").empty());
}

TEST(LocalBufferTest, StartsZeroed) {
  LocalBuffer l0a(MemSpace::L0A, 64 * 1024, 512);
  for (size_t i = 0; i < l0a.size(); i += 4096) ASSERT_EQ(l0a.data()[i], 0);
  EXPECT_EQ(l0a.alignment(), 512u);
}
}  // namespace local_buffer_test
