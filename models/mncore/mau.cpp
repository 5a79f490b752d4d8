#include "models/mncore/mau.h"

#include <fmt/format.h>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "models/numerics/mncore_float.h"

namespace npuvp::mncore {

MauArray::MauArray(PeArray& pes)
    : pes_(pes),
      n_(pes.size()),
      k_(pes.topology().mau_k),
      cols_(pes.topology().mau_n),
      pe_per_mab_(pes.topology().pe_per_mab),
      w_(uint64_t(k_) * cols_ * n_, 0.0f),
      w_bits_(uint64_t(pes.topology().mabs()) * k_ * cols_, 0),
      a_(uint64_t(k_) * n_),
      acc_(uint64_t(pes.topology().mau_n) * n_) {}

namespace {

// An operand covering `sw` SW words from `o`'s address, for the range check.
Operand spanning(const Operand& o, unsigned sw) {
  Operand wide = o;
  wide.width_sw = sw;
  return wide;
}

// Half `i` of PE p in a run of SW words starting at `first`.
inline uint16_t half_at(const PeArray& pes, Mem m, uint64_t first, unsigned i, unsigned p) {
  return static_cast<uint16_t>(pes.words(m, first + i / 2)[p] >> (16 * (i % 2)));
}

}  // namespace

void MauArray::load_weights(const Instruction& in) {
  const Operand& src = in.sources.at(0);
  const unsigned rows = k_ / pe_per_mab_;  // weight rows each PE supplies
  const unsigned halves = rows * cols_;
  pes_.check(spanning(src, (halves + 1) / 2));
  const uint64_t first = pes_.sw_of(src.mem, src.address);
  for (unsigned p = 0; p < n_; ++p) {
    const unsigned mab = p / pe_per_mab_, q = p % pe_per_mab_;
    for (unsigned r = 0; r < rows; ++r) {
      const unsigned k = q * rows + r;
      for (unsigned c = 0; c < cols_; ++c) {
        w_bits_[(uint64_t(mab) * k_ + k) * cols_ + c] = half_at(pes_, src.mem, first, r * cols_ + c, p);
      }
    }
  }
  // Every PE of a MAB sees the same tile; expanding it per PE keeps the mmacc loop contiguous.
  for (unsigned k = 0; k < k_; ++k) {
    for (unsigned c = 0; c < cols_; ++c) {
      float* w = &w_[(uint64_t(k) * cols_ + c) * n_];
      for (unsigned p = 0; p < n_; ++p) {
        w[p] = half_to_float(w_bits_[(uint64_t(p / pe_per_mab_) * k_ + k) * cols_ + c]);
      }
    }
  }
}

uint16_t MauArray::weight(unsigned mab, unsigned k, unsigned n) const {
  return w_bits_.at((uint64_t(mab) * k_ + k) * cols_ + n);
}

uint64_t MauArray::multiply_accumulate(const Instruction& in) {
  const Operand& a = in.sources.at(0);
  const Operand& acc = in.dest;
  pes_.check(spanning(a, k_ / 2));
  pes_.check(spanning(acc, cols_));
  const uint8_t* enable = pes_.enabled(in);
  unsigned active = n_;
  if (enable) {
    active = 0;
    for (unsigned p = 0; p < n_; ++p) active += enable[p];
  }

  // A as floats, k-major (exact: every MN half is an IEEE float).
  const uint64_t a_first = pes_.sw_of(a.mem, a.address);
  for (unsigned k = 0; k < k_; ++k) {
    const uint32_t* words = pes_.words(a.mem, a_first + k / 2);
    const unsigned shift = 16 * (k % 2);
    float* out = &a_[uint64_t(k) * n_];
    for (unsigned p = 0; p < n_; ++p) out[p] = half_to_float(static_cast<uint16_t>(words[p] >> shift));
  }

  // Accumulators as IEEE floats, column-major: a zero or all-ones exponent reads as ±0 / ±inf.
  const uint64_t acc_first = pes_.sw_of(acc.mem, acc.address);
  for (unsigned c = 0; c < cols_; ++c) {
    const uint32_t* words = pes_.words(acc.mem, acc_first + c);
    float* out = &acc_[uint64_t(c) * n_];
    for (unsigned p = 0; p < n_; ++p) {
      uint32_t u = words[p];
      const uint32_t e = u & 0x7F800000u;
      u = e == 0 ? (u & 0x80000000u) : e == 0x7F800000u ? (u & 0xFF800000u) : u;
      out[p] = float_from_bits(u);
    }
  }

  // The product is exact in float; the sum rounds once (IEEE RNE). Then the contract: a
  // subnormal sum (exact, as both terms are multiples of 2^-149) flushes to ±0, and a NaN
  // (inf - inf, 0 * inf) becomes +inf. A block of PEs at a time, so its A stays in cache
  // across the columns.
  unsigned first_scalar = 0;
#if defined(__AVX2__)
  const __m256i exponent = _mm256_set1_epi32(0x7F800000);
  const __m256i sign = _mm256_set1_epi32(static_cast<int>(0x80000000u));
  const __m256 infinity = _mm256_castsi256_ps(exponent);
  auto step = [&](__m256 sum, __m256 av, __m256 wv) {
    __m256 r = _mm256_add_ps(sum, _mm256_mul_ps(av, wv));
    const __m256i bits = _mm256_castps_si256(r);
    const __m256i tiny = _mm256_cmpeq_epi32(_mm256_and_si256(bits, exponent), _mm256_setzero_si256());
    r = _mm256_castsi256_ps(_mm256_blendv_epi8(bits, _mm256_and_si256(bits, sign), tiny));
    return _mm256_blendv_ps(r, infinity, _mm256_cmp_ps(r, r, _CMP_UNORD_Q));
  };
  // Four columns at once: four independent chains of additions hide each other's latency.
  const unsigned cols4 = cols_ - cols_ % 4;
  for (; first_scalar + 8 <= n_; first_scalar += 8) {
    const unsigned p = first_scalar;
    for (unsigned c = 0; c < cols4; c += 4) {
      float* out[4];
      __m256 sum[4];
      for (unsigned j = 0; j < 4; ++j) {
        out[j] = &acc_[uint64_t(c + j) * n_ + p];
        sum[j] = _mm256_loadu_ps(out[j]);
      }
      for (unsigned k = 0; k < k_; ++k) {
        const __m256 av = _mm256_loadu_ps(&a_[uint64_t(k) * n_ + p]);
        const float* w = &w_[(uint64_t(k) * cols_ + c) * n_ + p];
        for (unsigned j = 0; j < 4; ++j) sum[j] = step(sum[j], av, _mm256_loadu_ps(w + uint64_t(j) * n_));
      }
      for (unsigned j = 0; j < 4; ++j) _mm256_storeu_ps(out[j], sum[j]);
    }
    for (unsigned c = cols4; c < cols_; ++c) {
      __m256 sum = _mm256_loadu_ps(&acc_[uint64_t(c) * n_ + p]);
      for (unsigned k = 0; k < k_; ++k) {
        sum = step(sum, _mm256_loadu_ps(&a_[uint64_t(k) * n_ + p]),
                   _mm256_loadu_ps(&w_[(uint64_t(k) * cols_ + c) * n_ + p]));
      }
      _mm256_storeu_ps(&acc_[uint64_t(c) * n_ + p], sum);
    }
  }
#endif
  for (unsigned p = first_scalar; p < n_; ++p) {
    for (unsigned c = 0; c < cols_; ++c) {
      float s = acc_[uint64_t(c) * n_ + p];
      for (unsigned k = 0; k < k_; ++k) {
        const float r = s + a_[uint64_t(k) * n_ + p] * w_[(uint64_t(k) * cols_ + c) * n_ + p];
        uint32_t u = float_bits(r);
        u = (u & 0x7F800000u) == 0 ? (u & 0x80000000u) : u;
        u = r != r ? 0x7F800000u : u;
        s = float_from_bits(u);
      }
      acc_[uint64_t(c) * n_ + p] = s;
    }
  }

  for (unsigned c = 0; c < cols_; ++c) {
    uint32_t* words = pes_.words(acc.mem, acc_first + c);
    const float* sums = &acc_[uint64_t(c) * n_];
    for (unsigned p = 0; p < n_; ++p) {
      if (!enable || enable[p]) words[p] = float_bits(sums[p]);
    }
  }
  return uint64_t(active) * k_ * cols_;
}

}  // namespace npuvp::mncore
