#include "models/interconnect/address_hash.h"

#include <gtest/gtest.h>
#include <cstdint>
#include <vector>

namespace address_hash_test {

using npuvp::interconnect::Divisor;
using npuvp::interconnect::HashLevel;
using npuvp::interconnect::hashed_target;
using npuvp::interconnect::HashedTargets;

// Every index maps to one of the targets, for any count and level, from runs of consecutive
// indices to large ones.
TEST(AddressHashTest, EveryIndexMapsToATarget) {
  for (HashLevel level : {HashLevel::Home, HashLevel::Controller, HashLevel::Channel}) {
    for (unsigned targets : {1u, 2u, 3u, 4u, 6u, 8u, 16u, 24u, 32u}) {
      const HashedTargets hash(targets, level);
      std::vector<uint64_t> indices;
      for (uint64_t i = 0; i < 300; ++i) indices.push_back(i);
      for (uint64_t i = 0; i < 300; ++i) indices.push_back((i * 7919) % 100000);
      for (uint64_t i = 0; i < 100; ++i) indices.push_back((uint64_t(1) << 40) + i * 33);
      indices.push_back(~uint64_t(0));
      for (uint64_t index : indices) ASSERT_LT(hash(index), targets) << "targets " << targets << " index " << index;
    }
  }
}

// For a power-of-two count, every aligned run of `targets` granules reaches each target once
// (a cache slice numbers its lines densely because of this).
TEST(AddressHashTest, EveryAlignedRunReachesEveryTargetOnce) {
  for (unsigned targets : {2u, 4u, 8u, 16u}) {
    for (uint64_t run : {uint64_t(0), uint64_t(1), uint64_t(77), uint64_t(1) << 30}) {
      for (HashLevel level : {HashLevel::Home, HashLevel::Controller, HashLevel::Channel}) {
        std::vector<int> seen(targets, 0);
        for (uint64_t i = 0; i < targets; ++i) ++seen[hashed_target(run * targets + i, targets, level)];
        for (unsigned t = 0; t < targets; ++t) EXPECT_EQ(seen[t], 1) << targets << " targets, run " << run;
      }
    }
  }
}

// Rows of a matrix are power-of-two strides apart; plain modulo would send them all to one
// target, the hash spreads them (about evenly, at every level and stride).
TEST(AddressHashTest, PowerOfTwoStridesAreSpread) {
  for (HashLevel level : {HashLevel::Home, HashLevel::Controller, HashLevel::Channel}) {
    for (uint64_t stride : {uint64_t(8), uint64_t(16), uint64_t(1) << 10, uint64_t(1) << 20}) {
      std::vector<int> seen(8, 0);
      for (uint64_t row = 0; row < 256; ++row) ++seen[hashed_target(row * stride, 8, level)];
      for (int count : seen) EXPECT_GT(count, 16) << "stride " << stride;
    }
  }
}

// The levels hash independently. With one hash at every level (as an XOR fold was), the
// lines of one L2 slice reached only 8 of 32 (controller, channel) pairs: here each slice's
// lines, 512 B granules over 8 slices, 256 B granules over 4 controllers and 8 channels each,
// must reach all 32 about evenly.
TEST(AddressHashTest, EachSlicesLinesSpreadOverEveryControllerAndChannel) {
  constexpr unsigned kSlices = 8, kControllers = 4, kChannels = 8;
  std::vector<std::vector<int>> seen(kSlices, std::vector<int>(kControllers * kChannels, 0));
  for (uint64_t line = 0; line < (uint64_t(1) << 16); ++line) {  // 32 MiB of 512 B lines
    const unsigned slice = hashed_target(line, kSlices, HashLevel::Home);
    for (uint64_t granule : {2 * line, 2 * line + 1}) {
      const unsigned controller = hashed_target(granule, kControllers, HashLevel::Controller);
      const unsigned channel = hashed_target(granule / kControllers, kChannels, HashLevel::Channel);
      ++seen[slice][controller * kChannels + channel];
    }
  }
  const int even = (1 << 17) / int(kSlices * kControllers * kChannels);
  for (unsigned s = 0; s < kSlices; ++s) {
    for (unsigned p = 0; p < kControllers * kChannels; ++p) {
      EXPECT_GT(seen[s][p], even / 2) << "slice " << s << ", controller " << p / kChannels << ", channel " << p % kChannels;
      EXPECT_LT(seen[s][p], even * 2) << "slice " << s << ", controller " << p / kChannels << ", channel " << p % kChannels;
    }
  }
}

// Shifting for powers of two and dividing otherwise give the plain quotient.
TEST(AddressHashTest, DivisorDividesByPowersOfTwoAndOthers) {
  for (uint64_t d : {1ull, 2ull, 3ull, 128ull, 192ull, 256ull, 1000ull}) {
    const Divisor divisor(d);
    EXPECT_EQ(divisor.value(), d);
    for (uint64_t x : {0ull, 1ull, 127ull, 128ull, 4095ull, 65537ull, ~0ull}) EXPECT_EQ(divisor.divide(x), x / d) << x << " / " << d;
  }
}

}  // namespace address_hash_test
