// The sanitizer's shadow memory (models/check/shadow.h) against a plain per-byte model: after
// any series of updates, every byte holds exactly the accesses recorded over it, in order;
// an update visits [begin, end) as whole segments in address order, across page boundaries
// and holes. No simulation: a few thousand updates over three 4 KiB pages, milliseconds.
#include <gtest/gtest.h>
#include <cstdint>
#include <memory>
#include <random>
#include <tuple>
#include <vector>
#include "models/check/shadow.h"

namespace sanitizer_shadow_test {
using npuvp::check::Access;
using npuvp::check::AccessList;
using npuvp::check::Shadow;

Access tagged(uint32_t tag) { return Access{tag, 0, tag, 0, false, false}; }

// The (begin, end) of each segment an update of [b, e) visits, recording `tag` in each.
std::vector<std::pair<uint64_t, uint64_t>> update(Shadow& shadow, uint64_t b, uint64_t e, uint32_t tag) {
  std::vector<std::pair<uint64_t, uint64_t>> visited;
  shadow.update(b, e, [&](uint64_t sb, uint64_t se, AccessList& acc) {
    visited.emplace_back(sb, se);
    acc.push_back(tagged(tag));
  });
  return visited;
}

std::vector<uint32_t> tags_at(const Shadow& shadow, uint64_t byte) {
  std::vector<uint32_t> tags;
  shadow.find(byte, byte + 1, [&](uint64_t sb, uint64_t se, const AccessList& acc) {
    EXPECT_TRUE(sb <= byte && byte < se) << byte;
    for (const Access& a : acc) tags.push_back(a.event);
    return false;
  });
  return tags;
}

using Segments = std::vector<std::pair<uint64_t, uint64_t>>;

TEST(SanitizerShadow, AnUpdateVisitsItsRangeAsWholeSegmentsInAddressOrder) {
  Shadow shadow;
  EXPECT_EQ(update(shadow, 10, 20, 1), (Segments{{10, 20}}));
  EXPECT_EQ(update(shadow, 30, 40, 2), (Segments{{30, 40}}));
  // Holes become segments; the ends split the segments they fall inside.
  EXPECT_EQ(update(shadow, 0, 35, 3), (Segments{{0, 10}, {10, 20}, {20, 30}, {30, 35}}));
  EXPECT_EQ(tags_at(shadow, 34), (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(tags_at(shadow, 35), (std::vector<uint32_t>{2}));
  EXPECT_TRUE(tags_at(shadow, 40).empty());
  // Across a page boundary (4 KiB): split there, still in order.
  EXPECT_EQ(update(shadow, 4000, 4200, 4), (Segments{{4000, 4096}, {4096, 4200}}));
  // find stops when its callback says so.
  int calls = 0;
  EXPECT_TRUE(shadow.find(0, 5000, [&](uint64_t, uint64_t, const AccessList&) { return ++calls == 2; }));
  EXPECT_EQ(calls, 2);
  shadow.clear();
  EXPECT_TRUE(tags_at(shadow, 15).empty());
  EXPECT_FALSE(shadow.find(0, 1 << 20, [](uint64_t, uint64_t, const AccessList&) { return true; }));
  EXPECT_EQ(update(shadow, 5, 6, 5), (Segments{{5, 6}}));
}

// A core's shadows are copied when the vector of cores grows: the copy stands alone.
TEST(SanitizerShadow, ACopyKeepsItsAccessesWhenTheOriginalIsGone) {
  auto original = std::make_unique<Shadow>();
  update(*original, 100, 200, 1);
  update(*original, 8000, 8100, 2);
  Shadow copy = *original;
  original.reset();
  EXPECT_EQ(tags_at(copy, 150), (std::vector<uint32_t>{1}));
  EXPECT_EQ(update(copy, 8050, 8200, 3), (Segments{{8050, 8100}, {8100, 8192}, {8192, 8200}}));
  EXPECT_EQ(tags_at(copy, 8060), (std::vector<uint32_t>{2, 3}));
  copy.clear();
  EXPECT_TRUE(tags_at(copy, 8060).empty());
}

// Random updates of mixed sizes and alignments (so segments of one page have many sizes and
// the interpolated first probe often misses) against a per-byte list of tags.
TEST(SanitizerShadow, EveryByteHoldsWhatWasRecordedOverIt) {
  constexpr uint64_t kBase = 0x1'0000'0000ull + 4096 - 700, kBytes = 3 * 4096;
  std::mt19937 rng(7);
  Shadow shadow;
  std::vector<std::vector<uint32_t>> model(kBytes);
  for (uint32_t tag = 1; tag <= 3000; ++tag) {
    const uint64_t size = rng() % 4 == 0 ? 1 + rng() % 600 : 32 * (1 + rng() % 4);
    const uint64_t at = rng() % (kBytes - size);
    uint64_t expected_begin = kBase + at;
    for (const auto& [sb, se] : update(shadow, kBase + at, kBase + at + size, tag)) {
      ASSERT_EQ(sb, expected_begin) << "tag " << tag;  // contiguous, ascending, inside the range
      ASSERT_LT(sb, se);
      expected_begin = se;
    }
    ASSERT_EQ(expected_begin, kBase + at + size);
    for (uint64_t i = at; i < at + size; ++i) model[i].push_back(tag);
    if (tag % 1000 == 0) {
      for (uint64_t i = 0; i < kBytes; ++i) ASSERT_EQ(tags_at(shadow, kBase + i), model[i]) << "byte " << i;
    }
  }
}

}  // namespace sanitizer_shadow_test
