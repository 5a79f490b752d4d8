#include "tlm/progress.h"

#include <gtest/gtest.h>
#include <limits>

namespace {

using npuvp::ProgressLine;

TEST(ProgressLineTest, SilentUntilDueThenOncePerSecondAndEnded) {
  testing::internal::CaptureStderr();
  {
    ProgressLine line(0);
    EXPECT_TRUE(line.due());
    line.print("kernel: 3/8 blocks done");
    EXPECT_FALSE(line.due());  // the next line a second later
  }
  const std::string out = testing::internal::GetCapturedStderr();
  EXPECT_EQ(out.rfind("\rnpuvp: kernel: 3/8 blocks done, wall 0.0 s", 0), 0u) << out;
  EXPECT_EQ(out.back(), '\n');  // ended once the work is done
}

TEST(ProgressLineTest, ALineNeverPrintedIsNeverEnded) {
  testing::internal::CaptureStderr();
  { ProgressLine line(3600); }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

// sim.progress_seconds is only checked to be >= 0: a huge or non-number value means never,
// not an overflowed deadline that is due at once.
TEST(ProgressLineTest, AHugeOrNanDelayIsNeverDue) {
  for (double after : {1e30, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    ProgressLine line(after);
    EXPECT_FALSE(line.due()) << after;
  }
  ProgressLine negative(-1);  // as 0
  EXPECT_TRUE(negative.due());
}

}  // namespace
