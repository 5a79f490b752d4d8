// securec.h (CANN's libc_sec): the bounded copies and their return codes.
#include <gtest/gtest.h>
#include <cstring>
#include <string>
#include "securec.h"

namespace securec_test {

TEST(Securec, MemcpyCopiesWithinBounds) {
  char dst[8] = "xxxxxxx";
  EXPECT_EQ(memcpy_s(dst, sizeof dst, "abc", 3), EOK);
  EXPECT_EQ(std::string(dst, 4), "abcx");
  EXPECT_EQ(memcpy_s(dst, sizeof dst, "abc", 0), EOK);  // nothing to copy
}

TEST(Securec, MemcpyErrorsClearTheDestination) {
  char dst[8] = "xxxxxxx";
  const char src[16] = "0123456789";
  EXPECT_EQ(memcpy_s(dst, sizeof dst, src, 9), ERANGE_AND_RESET);  // count > destMax
  EXPECT_EQ(std::string(dst, 8), std::string(8, '\0'));
  std::memcpy(dst, "xxxxxxx", 8);
  EXPECT_EQ(memcpy_s(dst, sizeof dst, nullptr, 4), EINVAL_AND_RESET);
  EXPECT_EQ(dst[0], '\0');
  std::memcpy(dst, "xxxxxxx", 8);
  EXPECT_EQ(memcpy_s(dst, sizeof dst, dst + 2, 4), EOVERLAP_AND_RESET);
  EXPECT_EQ(dst[0], '\0');
  // A destination that cannot be written: an error, nothing touched.
  EXPECT_EQ(memcpy_s(nullptr, 8, src, 4), EINVAL);
  std::memcpy(dst, "xxxxxxx", 8);
  EXPECT_EQ(memcpy_s(dst, 0, src, 0), ERANGE);
  EXPECT_EQ(dst[0], 'x');
}

TEST(Securec, MemmoveAllowsOverlap) {
  char buf[8] = "abcdefg";
  EXPECT_EQ(memmove_s(buf + 1, 7, buf, 5), EOK);
  EXPECT_EQ(std::string(buf), "aabcdeg");
}

TEST(Securec, MemsetFillsAtMostDestMax) {
  char dst[8] = "xxxxxxx";
  EXPECT_EQ(memset_s(dst, sizeof dst, 'a', 3), EOK);
  EXPECT_EQ(std::string(dst), "aaaxxxx");
  EXPECT_EQ(memset_s(dst, 4, 'b', 6), ERANGE_AND_RESET);  // fills destMax bytes, then reports
  EXPECT_EQ(std::string(dst), "bbbbxxx");
  EXPECT_EQ(memset_s(nullptr, 4, 0, 4), EINVAL);
}

TEST(Securec, StringCopiesNeedRoomForTheTerminator) {
  char dst[4] = "xyz";
  EXPECT_EQ(strcpy_s(dst, sizeof dst, "abc"), EOK);
  EXPECT_STREQ(dst, "abc");
  EXPECT_EQ(strcpy_s(dst, sizeof dst, "abcd"), ERANGE_AND_RESET);
  EXPECT_STREQ(dst, "");
  EXPECT_EQ(strncpy_s(dst, sizeof dst, "abcdef", 2), EOK);
  EXPECT_STREQ(dst, "ab");
  EXPECT_EQ(strcat_s(dst, sizeof dst, "c"), EOK);
  EXPECT_STREQ(dst, "abc");
  EXPECT_EQ(strcat_s(dst, sizeof dst, "d"), ERANGE_AND_RESET);
  EXPECT_STREQ(dst, "");
}

TEST(Securec, FormattedWritesReportTruncation) {
  char dst[8];
  EXPECT_EQ(sprintf_s(dst, sizeof dst, "%d-%s", 12, "ab"), 5);
  EXPECT_STREQ(dst, "12-ab");
  EXPECT_EQ(sprintf_s(dst, sizeof dst, "%s", "too long!"), -1);
  EXPECT_STREQ(dst, "");
  // snprintf_s with count < destMax truncates to count characters and says so.
  EXPECT_EQ(snprintf_s(dst, sizeof dst, 3, "%s", "abcdef"), -1);
  EXPECT_STREQ(dst, "abc");
  EXPECT_EQ(snprintf_s(dst, sizeof dst, sizeof dst - 1, "%s", "abc"), 3);
  EXPECT_STREQ(dst, "abc");
}

}  // namespace securec_test
