#include "models/memory/cache_tags.h"

#include <gtest/gtest.h>
#include <gmock/gmock.h>
#include "tests/support/error_of.h"

namespace cache_tags_test {

using npuvp::memory::CacheTags;

// 4 sets x 4 ways of 128 B lines, one slice: lines line, line + 4, line + 8, ... share a set.
CacheTags::Geometry small() {
  CacheTags::Geometry g;
  g.size = 4 * 4 * 128;
  g.line_bytes = 128;
  g.ways = 4;
  return g;
}
constexpr uint64_t kSetStride = 4 * 128;  // bytes between lines of the same set

TEST(CacheTagsTest, MissAllocatesThenHits) {
  CacheTags tags(small(), "l2");
  EXPECT_EQ(tags.sets(), 4u);
  EXPECT_FALSE(tags.access(0x1000, false).hit);
  EXPECT_TRUE(tags.contains(0x1000));
  EXPECT_TRUE(tags.contains(0x1000 + 127));  // the same line
  EXPECT_TRUE(tags.access(0x1040, false).hit);
  EXPECT_FALSE(tags.contains(0x1080));
}

TEST(CacheTagsTest, FillsEveryWayBeforeEvicting) {
  CacheTags tags(small(), "l2");
  for (uint64_t i = 0; i < 4; ++i) EXPECT_FALSE(tags.access(i * kSetStride, false).hit);
  for (uint64_t i = 0; i < 4; ++i) EXPECT_TRUE(tags.contains(i * kSetStride)) << i;
}

TEST(CacheTagsTest, EvictsTheLeastRecentlyUsedLine) {
  CacheTags tags(small(), "l2");
  for (uint64_t i = 0; i < 4; ++i) tags.access(i * kSetStride, false);
  tags.access(0, false);  // line 0 becomes the most recent: line 1 is now the oldest
  tags.access(2 * kSetStride, false);
  EXPECT_FALSE(tags.access(4 * kSetStride, false).hit);
  EXPECT_FALSE(tags.contains(1 * kSetStride));
  for (uint64_t i : {0, 2, 3, 4}) EXPECT_TRUE(tags.contains(i * kSetStride)) << i;
}

TEST(CacheTagsTest, ADirtyVictimIsReportedWithItsAddress) {
  CacheTags tags(small(), "l2");
  tags.access(0, true);  // written: dirty
  for (uint64_t i = 1; i < 4; ++i) tags.access(i * kSetStride, false);
  const CacheTags::Access a = tags.access(4 * kSetStride, false);
  EXPECT_FALSE(a.hit);
  EXPECT_TRUE(a.evicted_dirty);
  EXPECT_EQ(a.victim_line, 0u);
  // The next victim (line 1) was only read: nothing to write back.
  EXPECT_FALSE(tags.access(5 * kSetStride, false).evicted_dirty);
}

TEST(CacheTagsTest, AWriteHitMakesTheLineDirty) {
  CacheTags tags(small(), "l2");
  tags.access(0, false);
  tags.access(0, true);
  for (uint64_t i = 1; i < 4; ++i) tags.access(i * kSetStride, false);
  EXPECT_TRUE(tags.access(4 * kSetStride, false).evicted_dirty);
}

TEST(CacheTagsTest, InvalidateAllEmptiesEverySet) {
  CacheTags tags(small(), "l2");
  for (uint64_t i = 0; i < 16; ++i) tags.access(i * 128, true);
  tags.invalidate_all();
  for (uint64_t i = 0; i < 16; ++i) EXPECT_FALSE(tags.contains(i * 128)) << i;
  EXPECT_FALSE(tags.access(0, false).evicted_dirty);
}

// Uses at every depth of the set (hits in ways 1..3 as well as way 0) decide the victims:
// always the line used least recently.
TEST(CacheTagsTest, TheOrderOfUsesDecidesTheVictims) {
  CacheTags tags(small(), "l2");
  for (uint64_t i = 0; i < 4; ++i) tags.access(i * kSetStride, false);
  for (uint64_t i : {2, 0, 3, 1, 2, 0}) EXPECT_TRUE(tags.access(i * kSetStride, false).hit);  // 3, then 1, oldest
  tags.access(4 * kSetStride, false);
  EXPECT_FALSE(tags.contains(3 * kSetStride));
  tags.access(5 * kSetStride, false);
  EXPECT_FALSE(tags.contains(1 * kSetStride));
  for (uint64_t i : {0, 2, 4, 5}) EXPECT_TRUE(tags.contains(i * kSetStride)) << "line " << i;
}

// A written line stays dirty while other lines' uses move it about in its set, and a read
// hit does not clean it.
TEST(CacheTagsTest, ALineKeepsItsDirtyMarkWhenItMoves) {
  CacheTags tags(small(), "l2");
  tags.access(0, true);
  tags.access(1 * kSetStride, false);
  tags.access(2 * kSetStride, false);
  EXPECT_TRUE(tags.access(0, false).hit);  // read again: the most recent, still dirty
  for (uint64_t i : {3, 4, 5}) EXPECT_FALSE(tags.access(i * kSetStride, false).evicted_dirty) << i;
  const CacheTags::Access a = tags.access(6 * kSetStride, false);
  EXPECT_TRUE(a.evicted_dirty);
  EXPECT_EQ(a.victim_line, 0u);
}

// A slice of an interleaved cache numbers its own lines densely: lines of other slices do
// not take its sets, so a run of the slice's own lines fills every set once.
TEST(CacheTagsTest, AnInterleavedSliceUsesEverySet) {
  CacheTags::Geometry g = small();
  g.slices = 4;
  g.interleave_lines = 2;
  CacheTags tags(g, "l2");
  // This slice's lines: runs of 2 lines, every 4 runs (lines 0,1, 8,9, 16,17, ...). 16 of
  // them fill its 4 sets x 4 ways exactly, so all 16 stay ...
  auto own = [](uint64_t i) { return ((i / 2) * 8 + i % 2) * 128; };
  for (uint64_t i = 0; i < 16; ++i) tags.access(own(i), false);
  for (uint64_t i = 0; i < 16; ++i) EXPECT_TRUE(tags.contains(own(i))) << i;
  // ... and the 17th takes a way from the oldest line of its set.
  tags.access(own(16), false);
  EXPECT_FALSE(tags.contains(own(0)));
}

TEST(CacheTagsTest, BadGeometryNamesTheBlock) {
  CacheTags::Geometry g = small();
  g.line_bytes = 96;
  EXPECT_THAT(npuvp::testing::error_of([&] { CacheTags tags(g, "l2_3"); }),
              ::testing::AllOf(::testing::HasSubstr("l2_3"), ::testing::HasSubstr("96")));
  g = small();
  g.size = 3 * 4 * 128;  // 3 sets
  EXPECT_THAT(npuvp::testing::error_of([&] { CacheTags tags(g, "l2_3"); }),
              ::testing::HasSubstr("power-of-two number of sets"));
}

}  // namespace cache_tags_test
