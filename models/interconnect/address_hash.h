// Which of `targets` (L2 slices, memory controllers, channels) serves granule `index` of the
// address space. Plain modulo would send power-of-two strides — the rows of a matrix — to a
// few targets only; mixing the higher index bits into the low ones spreads them, as SoC
// address hashes do. For a power-of-two count, every aligned run of `targets` granules still
// maps to all targets exactly once (the mix only permutes the low bits), so `index / targets`
// is a dense per-target numbering (a cache slice's set index uses it).
#pragma once
#include <cstdint>

namespace npuvp::interconnect {

// x / divisor for a divisor fixed over a loop (an interleave, a target count): a shift when
// it is a power of two (the usual case, on paths that divide for every span or piece), a
// division otherwise. The divisor must not be 0.
class Divisor {
 public:
  explicit Divisor(uint64_t divisor)
      : divisor_(divisor), shift_((divisor & (divisor - 1)) == 0 ? __builtin_ctzll(divisor) : -1) {}
  uint64_t value() const { return divisor_; }
  uint64_t divide(uint64_t x) const { return shift_ >= 0 ? x >> shift_ : x / divisor_; }
  int shift() const { return shift_; }  // log2(divisor), or -1 when it is not a power of two

 private:
  uint64_t divisor_;
  int shift_;  // log2(divisor), or -1
};

// Which level of the memory system a hash picks targets for. Each level mixes the high index
// bits with its own multiplier: were they all one function of the address (as one XOR fold at
// every level was), the lines of one L2 slice would reach only some of the memory channels
// (with 8 slices, 4 controllers and 8 channels: 8 of the 32), and a fill would queue on a
// few channels while the others idle. Independent levels spread every slice's lines over
// every controller and channel.
enum class HashLevel : unsigned { Home = 0, Controller = 1, Channel = 2 };

// Odd 64-bit multipliers (splitmix64's and xxHash's primes), one per HashLevel.
inline constexpr uint64_t kHashMultipliers[] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull};

// For a power-of-two count (2^bits targets) the target is the low index bits XOR a
// multiplicative hash of the others: the high bits pick a permutation of the targets, so a
// power-of-two stride (the rows of a matrix) still spreads, and every aligned run of
// `targets` granules reaches each target once. Other counts use plain modulo.
class HashedTargets {
 public:
  HashedTargets(unsigned targets, HashLevel level)
      : targets_(targets), pow2_(targets > 1 && (targets & (targets - 1)) == 0),
        bits_(pow2_ ? static_cast<unsigned>(__builtin_ctz(targets)) : 0),
        multiplier_(kHashMultipliers[static_cast<unsigned>(level)]) {}
  unsigned operator()(uint64_t index) const {
    if (!pow2_) return targets_ <= 1 ? 0 : static_cast<unsigned>(index % targets_);
    return mix(index, bits_, multiplier_);
  }
  bool power_of_two() const { return pow2_; }

  // The same for a power-of-two count, with no test per call: a loop that hashes every span
  // chooses between the two forms once.
  class PowerOfTwo {
   public:
    explicit PowerOfTwo(const HashedTargets& h) : bits_(h.bits_), multiplier_(h.multiplier_) {}
    unsigned operator()(uint64_t index) const { return mix(index, bits_, multiplier_); }

   private:
    unsigned bits_;
    uint64_t multiplier_;
  };

 private:
  static unsigned mix(uint64_t index, unsigned bits, uint64_t multiplier) {
    const uint64_t high = ((index >> bits) * multiplier) >> (64 - bits);
    return static_cast<unsigned>((index ^ high) & ((uint64_t(1) << bits) - 1));
  }

  unsigned targets_;
  bool pow2_;
  unsigned bits_;
  uint64_t multiplier_;
};

inline unsigned hashed_target(uint64_t index, unsigned targets, HashLevel level) {
  return HashedTargets(targets, level)(index);
}

}  // namespace npuvp::interconnect
