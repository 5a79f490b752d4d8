// Which of `targets` (L2 slices, memory controllers, channels) serves granule `index` of the
// address space. Plain modulo would send power-of-two strides — the rows of a matrix — to a
// few targets only; folding the higher index bits in with XOR spreads them, as SoC address
// hashes do. For a power-of-two count, every aligned run of `targets` granules still maps to
// all targets exactly once (the fold only permutes the low bits), so `index / targets` is a
// dense per-target numbering (a cache slice's set index uses it).
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

 private:
  uint64_t divisor_;
  int shift_;  // log2(divisor), or -1
};

// The XOR of `value`'s chunks of `bits` bits (the low `bits` of the result are what counts).
inline uint64_t fold_chunks(uint64_t value, unsigned bits) {
  uint64_t folded = 0;
  for (uint64_t rest = value; rest != 0; rest >>= bits) folded ^= rest;
  return folded;
}

inline unsigned hashed_target(uint64_t index, unsigned targets) {
  if (targets <= 1) return 0;
  if ((targets & (targets - 1)) != 0) return static_cast<unsigned>(index % targets);
  return static_cast<unsigned>(fold_chunks(index, static_cast<unsigned>(__builtin_ctz(targets))) & (targets - 1));
}

// hashed_target over runs of consecutive indices (the granules of a transaction's spans):
// for a power-of-two count the hash is index ^ fold(index >> bits), and the fold of the high
// bits changes only once every `targets` indices, so it is kept between calls.
class HashedTargets {
 public:
  explicit HashedTargets(unsigned targets)
      : targets_(targets), pow2_(targets > 1 && (targets & (targets - 1)) == 0),
        bits_(pow2_ ? static_cast<unsigned>(__builtin_ctz(targets)) : 0) {}
  unsigned operator()(uint64_t index) {
    if (!pow2_) return hashed_target(index, targets_);
    const uint64_t high = index >> bits_;
    if (high != high_) {
      high_ = high;
      fold_ = fold_chunks(high, bits_);
    }
    return static_cast<unsigned>((index ^ fold_) & (targets_ - 1));
  }

 private:
  unsigned targets_;
  bool pow2_;
  unsigned bits_;
  uint64_t high_ = 0, fold_ = 0;  // fold(0) = 0
};

}  // namespace npuvp::interconnect
