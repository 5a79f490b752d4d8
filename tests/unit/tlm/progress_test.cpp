#include "tlm/progress.h"

#include <gtest/gtest.h>
#include <limits>
#include <string>

namespace progress_test {

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

TEST(ProgressLineTest, UpdatePrintsOnlyWhenALineIsDue) {
  testing::internal::CaptureStderr();
  int asked = 0;
  auto text = [&asked] {
    ++asked;
    return std::string("kernel: 1/8 blocks done");
  };
  {
    ProgressLine line(0);
    line.update(text);  // due at once
    line.update(text);  // the next is a second away: not printed, not even formatted
  }
  const std::string out = testing::internal::GetCapturedStderr();
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(out.rfind("\rnpuvp: kernel: 1/8 blocks done, wall 0.0 s", 0), 0u) << out;
  EXPECT_EQ(out.find('\r', 1), std::string::npos) << out;  // one line
}

// The last line shows where the work ended, not where it was a second before.
TEST(ProgressLineTest, FinishPrintsTheFinalStateOverAPrintedLine) {
  testing::internal::CaptureStderr();
  {
    ProgressLine line(0);
    line.print("copy: 40% done");
    line.finish([] { return std::string("copy: 100% done"); });
  }
  const std::string out = testing::internal::GetCapturedStderr();
  const size_t last = out.rfind('\r');
  ASSERT_NE(last, std::string::npos) << out;
  EXPECT_EQ(out.compare(last, 30, "\rnpuvp: copy: 100% done, wall "), 0) << out;
  EXPECT_EQ(out.back(), '\n');
}

TEST(ProgressLineTest, FinishPrintsNothingWhenNoLineWasPrinted) {
  testing::internal::CaptureStderr();
  bool asked = false;
  {
    ProgressLine line(3600);
    line.finish([&asked] {
      asked = true;
      return std::string("done");
    });
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_FALSE(asked);  // the text is not even formatted
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

}  // namespace progress_test
