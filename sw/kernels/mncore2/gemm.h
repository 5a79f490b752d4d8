// Half-precision GEMM on the MAUs: C (M x N, single) = A (M x K, half) x B (K x N, half).
//
// Mapping (docs/platforms.md): L1B l owns P*R rows of A (PE q of every MAB holds rows
// q*R .. q*R+R-1 of them, all of K); MAB m owns output columns m*Nm .. m*Nm+Nm-1 and holds
// those columns of B, its PEs each supplying K/P of the rows of every weight tile. So
// M = L1Bs * P * R, N = MABs per L1B * Nm, and every PE computes an R x Nm block of C.
// A and B go down the tree in K pieces, double-buffered in L2BM and L1BM so the three
// engines overlap; C comes back up in pieces of Rs rows, double-buffered the same way.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/mncore/topology.h"
#include "sw/kernels/mncore2/samples.h"

namespace npuvp::mncore::kernels {

struct GemmShape {
  unsigned rows_per_pe = 16;    // R
  unsigned k = 512;             // K
  unsigned k_piece = 32;        // K per trip down the tree (a multiple of mncore2.mau.k)
  unsigned c_rows_piece = 4;    // rows of C per trip up the tree
};

class GemmPlan {
 public:
  // Raises an error naming the memory that is too small if the shape does not fit.
  GemmPlan(const Topology& t, const GemmShape& shape);

  unsigned m() const { return m_; }
  unsigned n() const { return n_; }
  unsigned k() const { return s_.k; }

  std::string load_program() const;     // DRAM -> LM0 (A), LM1 (B)
  std::string compute_program() const;  // zero the accumulators, mwload / mmacc over K
  std::string store_program() const;    // GRF0 (C) -> DRAM

  // Host layouts: A (row-major M x K) as each Group's DRAM image at dram_a(); B (row-major
  // K x N) as the image every Group holds at dram_b(); C back from each Group's image.
  std::vector<std::vector<uint64_t>> pack_a(const std::vector<uint16_t>& a) const;
  std::vector<uint64_t> pack_b(const std::vector<uint16_t>& b) const;
  std::vector<uint32_t> unpack_c(const std::vector<std::vector<uint64_t>>& per_group) const;
  uint64_t dram_a() const { return 0; }
  uint64_t dram_b() const { return a_group_ * pieces_; }
  uint64_t dram_c() const { return dram_b() + b_piece_ * pieces_; }
  uint64_t c_group_lw() const { return c_group_ * c_pieces_; }

 private:
  std::string load_down(unsigned piece) const;   // DRAM -> L2BM
  std::string load_across(unsigned piece) const; // L2BM -> L1BM
  std::string load_in(unsigned piece) const;     // L1BM -> PE memories
  std::string store_up(unsigned piece, unsigned level) const;  // level 0: PE -> L1BM, 1: -> L2BM, 2: -> DRAM
  Topology t_;
  GemmShape s_;
  unsigned m_ = 0, n_ = 0, pieces_ = 0, tiles_per_piece_ = 0, c_pieces_ = 0;
  // Sizes in LW.
  uint64_t a_pe_ = 0, a_l1b_ = 0, a_l2b_ = 0, a_group_ = 0;
  uint64_t b_pe_ = 0, b_piece_ = 0;
  uint64_t c_pe_ = 0, c_l1b_ = 0, c_l2b_ = 0, c_group_ = 0;
};

// The numeric contract of mmacc, applied to whole matrices: for every (i, j), starting at
// +0, acc = acc + A[i][k] * B[k][j] for k = 0, 1, ..., each addition rounded to MN-Core
// single (nearest-even, flush below the minimum normal, +inf for inf - inf and 0 * inf).
std::vector<uint32_t> gemm_reference(const std::vector<uint16_t>& a, const std::vector<uint16_t>& b, unsigned m,
                                     unsigned n, unsigned k);

SampleResult run_gemm(Board& board, const GemmShape& shape, uint32_t seed = 1);

}  // namespace npuvp::mncore::kernels
