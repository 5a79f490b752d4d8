// The MAUs of every MAB (one per MAB), as one data-parallel unit.
//
// Numeric contract (docs/mncore2-isa.md, "MAU"): `mmacc.h a acc` computes, for every PE and
// every output column n < N,
//     acc[n] = (...((acc[n] + a[0]*W[0][n]) + a[1]*W[1][n]) + ...) + a[K-1]*W[K-1][n]
// where a is K halves from the PE's memory, W is the MAB's K x N half weight tile and acc is
// N singles. Products of halves are exact in single (20 significant bits, exponents within
// single's range); each addition rounds to nearest-even in MN-Core single and flushes a
// result below the minimum normal to ±0; inf - inf and 0 * inf give +inf. Increasing k, one
// rounding per addition: the order a GEMM reference must follow to match bit for bit.
#pragma once
#include <cstdint>
#include <vector>

#include "models/mncore/isa.h"
#include "models/mncore/pe_array.h"

namespace npuvp::mncore {

class MauArray {
 public:
  explicit MauArray(PeArray& pes);

  // mwload: each PE q of a MAB supplies weight rows [q*K/P, (q+1)*K/P), N halves each, from
  // consecutive memory starting at the operand. Throws PeFault on a bad operand.
  void load_weights(const Instruction& in);
  // mmacc.h: as above; returns the multiply-accumulates done (enabled PEs x K x N).
  uint64_t multiply_accumulate(const Instruction& in);

  // Weight W[k][n] of MAB `mab` as loaded (half bits), for tests.
  uint16_t weight(unsigned mab, unsigned k, unsigned n) const;

 private:
  PeArray& pes_;
  const unsigned n_, k_, cols_, pe_per_mab_;
  // W expanded to every PE, as IEEE floats (exact): w_[(k * cols + n) * PEs + p].
  std::vector<float> w_;
  std::vector<uint16_t> w_bits_;  // per MAB, k-major: [(mab * K + k) * N + n]
  std::vector<float> a_, acc_;
};

}  // namespace npuvp::mncore
