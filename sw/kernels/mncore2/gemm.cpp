#include "sw/kernels/mncore2/gemm.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <random>

#include "models/numerics/mncore_float.h"
#include "tlm/log.h"

namespace npuvp::mncore::kernels {

namespace {

constexpr const char* kBlock = "gemm";

uint64_t capacity_lw(const Topology& t, Mem m) { return t.mem[static_cast<unsigned>(m)].size_bytes() / 8; }

}  // namespace

GemmPlan::GemmPlan(const Topology& t, const GemmShape& s) : t_(t), s_(s) {
  const unsigned km = t.mau_k, nm = t.mau_n, p = t.pe_per_mab;
  if (s.rows_per_pe == 0 || s.k == 0 || s.k_piece == 0 || s.c_rows_piece == 0) {
    raise(kBlock, "every size of the shape must be positive");
  }
  if (s.k_piece % km != 0 || s.k % s.k_piece != 0) {
    raise(kBlock, "K piece {} must be a multiple of mncore2.mau.k ({}) and divide K ({})", s.k_piece, km, s.k);
  }
  if (s.rows_per_pe % s.c_rows_piece != 0) {
    raise(kBlock, "C rows per piece ({}) must divide the rows per PE ({})", s.c_rows_piece, s.rows_per_pe);
  }
  if ((uint64_t(s.rows_per_pe) * s.k_piece) % 4 != 0 || (uint64_t(s.c_rows_piece) * nm) % 2 != 0 ||
      (uint64_t(km / p) * nm) % 4 != 0) {
    raise(kBlock, "the shape does not split into whole LW");
  }
  m_ = t.l1bs() * p * s.rows_per_pe;
  n_ = t.mab_per_l1b * nm;
  pieces_ = s.k / s.k_piece;
  tiles_per_piece_ = s.k_piece / km;
  c_pieces_ = s.rows_per_pe / s.c_rows_piece;

  a_pe_ = uint64_t(s.rows_per_pe) * s.k_piece / 4;
  a_l1b_ = p * a_pe_;
  a_l2b_ = t.l1b_per_l2b * a_l1b_;
  a_group_ = t.l2b_per_group * a_l2b_;
  b_pe_ = uint64_t(tiles_per_piece_) * (km / p) * nm / 4;
  b_piece_ = uint64_t(t.mab_per_l1b) * p * b_pe_;
  c_pe_ = uint64_t(s.c_rows_piece) * nm / 2;
  c_l1b_ = uint64_t(t.mab_per_l1b) * p * c_pe_;
  c_l2b_ = t.l1b_per_l2b * c_l1b_;
  c_group_ = t.l2b_per_group * c_l2b_;

  auto need = [&](Mem mem, uint64_t lw, const char* what, const char* hint) {
    if (lw > capacity_lw(t, mem)) {
      raise(kBlock, "{} needs {} LW of {} but it has {} LW; {}", what, lw, mem_name(mem), capacity_lw(t, mem), hint);
    }
  };
  need(Mem::LM0, pieces_ * a_pe_, "A (rows per PE x K halves)", "use fewer rows per PE or a smaller K");
  need(Mem::LM1, pieces_ * b_pe_, "B (the PE's share of its MAB's columns)", "use a smaller K");
  need(Mem::GRF0, uint64_t(s.rows_per_pe) * nm / 2, "the accumulators (rows per PE x N per MAU, singles)",
       "use fewer rows per PE");
  need(Mem::L1BM, 2 * (a_l1b_ + b_piece_), "two K pieces of A and B", "use a smaller K piece");
  need(Mem::L1BM, 2 * c_l1b_, "two pieces of C", "use fewer C rows per piece");
  need(Mem::L2BM, 2 * (a_l2b_ + b_piece_), "two K pieces of A and B", "use a smaller K piece");
  need(Mem::L2BM, 2 * c_l2b_, "two pieces of C", "use fewer C rows per piece");
  need(Mem::DRAM, dram_c() + c_group_lw(), "A, B and C", "use a smaller problem");
}

// Buffers: L2BM [A0 B0 | A1 B1], L1BM [A0 B0 | A1 B1]; piece q uses buffer q % 2.
std::string GemmPlan::load_down(unsigned q) const {
  const uint64_t buf = (q % 2) * (a_l2b_ + b_piece_);
  return fmt::format("dist $d{} $lc{} {}\nbcast $d{} $lc{} {}\n", dram_a() + q * a_group_, buf, a_l2b_,
                     dram_b() + q * b_piece_, buf + a_l2b_, b_piece_);
}

std::string GemmPlan::load_across(unsigned q) const {
  const uint64_t from = (q % 2) * (a_l2b_ + b_piece_), to = (q % 2) * (a_l1b_ + b_piece_);
  return fmt::format("dist $lc{} $lb{} {}\nbcast $lc{} $lb{} {}\n", from, to, a_l1b_, from + a_l2b_, to + a_l1b_,
                     b_piece_);
}

std::string GemmPlan::load_in(unsigned q) const {
  const uint64_t from = (q % 2) * (a_l1b_ + b_piece_);
  // A: the same P blocks to every MAB, block q' to PE q'. B: block (m, q') to PE q' of MAB m.
  return fmt::format("bcast.dist $lb{} $lm{} {}\ndist $lb{} $ln{} {}\n", from, q * a_pe_ * 2, a_pe_, from + a_l1b_,
                     q * b_pe_ * 2, b_pe_);
}

std::string GemmPlan::load_program() const {
  // Piece q goes DRAM -> L2BM (D), L2BM -> L1BM (L), L1BM -> LM (P); the three engines run
  // D(q+2), L(q+1) and P(q) at once. The waits free exactly the buffer the next step writes.
  std::string out = "# A and B down the tree, double-buffered in L2BM and L1BM\n";
  out += load_down(0) + "wait dram\n" + load_across(0);
  if (pieces_ > 1) out += load_down(1);
  for (unsigned q = 0; q < pieces_; ++q) {
    out += fmt::format("# piece {}\nwait l2b\nwait l1b\n", q);
    out += load_in(q);
    if (q + 1 < pieces_) out += "wait dram\n" + load_across(q + 1);
    if (q + 2 < pieces_) out += load_down(q + 2);
  }
  out += "wait\n";
  return out;
}

std::string GemmPlan::compute_program() const {
  const unsigned km = t_.mau_k, nm = t_.mau_n, p = t_.pe_per_mab;
  std::string out = "# zero the accumulators (GRF0, row r at SW r*N)\n";
  for (unsigned r = 0; r < s_.rows_per_pe; ++r) {
    for (unsigned j = 0; j < nm; j += 4) out += fmt::format("mov 0 $llr{}\n", r * nm + j);
  }
  for (unsigned tile = 0; tile < s_.k / km; ++tile) {
    const unsigned q = tile / tiles_per_piece_, tt = tile % tiles_per_piece_;
    out += fmt::format("# k = {}..{}\nmwload $ln{}\n", tile * km, tile * km + km - 1,
                       q * b_pe_ * 2 + uint64_t(tt) * (km / p) * nm / 2);
    for (unsigned r = 0; r < s_.rows_per_pe; ++r) {
      out += fmt::format("mmacc.h $lm{} $lr{}\n", q * a_pe_ * 2 + uint64_t(r) * s_.k_piece / 2 + tt * km / 2, r * nm);
    }
  }
  return out;
}

std::string GemmPlan::store_up(unsigned s, unsigned level) const {
  // Buffers: L1BM [C0 | C1], L2BM [C0 | C1]; piece s uses buffer s % 2.
  const uint64_t l1 = (s % 2) * c_l1b_, l2 = (s % 2) * c_l2b_;
  switch (level) {
    case 0: return fmt::format("coll $lr{} $lb{} {}\n", uint64_t(s) * s_.c_rows_piece * t_.mau_n, l1, c_pe_);
    case 1: return fmt::format("coll $lb{} $lc{} {}\n", l1, l2, c_l1b_);
    default: return fmt::format("coll $lc{} $d{} {}\n", l2, dram_c() + s * c_group_, c_l2b_);
  }
}

std::string GemmPlan::store_program() const {
  // Piece s of C goes PE -> L1BM (level 0), L1BM -> L2BM (1), L2BM -> DRAM (2); the three
  // engines overlap as in the load.
  std::string out = "# C up the tree, Rs rows at a time, double-buffered in L1BM and L2BM\n";
  out += store_up(0, 0) + "wait l1b\n" + store_up(0, 1);
  if (c_pieces_ > 1) out += store_up(1, 0);
  for (unsigned s = 0; s < c_pieces_; ++s) {
    out += fmt::format("# piece {}\nwait l2b\nwait dram\n", s);
    out += store_up(s, 2);
    if (s + 1 < c_pieces_) out += "wait l1b\n" + store_up(s + 1, 1);
    if (s + 2 < c_pieces_) out += store_up(s + 2, 0);
  }
  out += "wait\n";
  return out;
}

std::vector<std::vector<uint64_t>> GemmPlan::pack_a(const std::vector<uint16_t>& a) const {
  const unsigned p = t_.pe_per_mab, r_count = s_.rows_per_pe, kp = s_.k_piece;
  std::vector<std::vector<uint64_t>> out;
  for (unsigned g = 0; g < t_.groups; ++g) {
    // [piece][l2b][l1b][pe][row][k in piece]
    std::vector<uint16_t> halves;
    halves.reserve(a_group_ * pieces_ * 4);
    for (unsigned q = 0; q < pieces_; ++q) {
      for (unsigned l2 = 0; l2 < t_.l2b_per_group; ++l2) {
        for (unsigned l1 = 0; l1 < t_.l1b_per_l2b; ++l1) {
          const uint64_t l1b = (uint64_t(g) * t_.l2b_per_group + l2) * t_.l1b_per_l2b + l1;
          for (unsigned pe = 0; pe < p; ++pe) {
            for (unsigned r = 0; r < r_count; ++r) {
              const uint64_t row = l1b * p * r_count + pe * r_count + r;
              const uint16_t* src = &a[row * s_.k + uint64_t(q) * kp];
              halves.insert(halves.end(), src, src + kp);
            }
          }
        }
      }
    }
    out.push_back(pack_halves(halves));
  }
  return out;
}

std::vector<uint64_t> GemmPlan::pack_b(const std::vector<uint16_t>& b) const {
  const unsigned km = t_.mau_k, nm = t_.mau_n, p = t_.pe_per_mab, rows = km / p;
  // [piece][mab][pe][tile in piece][row of the PE's share][column]
  std::vector<uint16_t> halves;
  halves.reserve(b_piece_ * pieces_ * 4);
  for (unsigned q = 0; q < pieces_; ++q) {
    for (unsigned m = 0; m < t_.mab_per_l1b; ++m) {
      for (unsigned pe = 0; pe < p; ++pe) {
        for (unsigned tt = 0; tt < tiles_per_piece_; ++tt) {
          for (unsigned rr = 0; rr < rows; ++rr) {
            const uint64_t k = uint64_t(q) * s_.k_piece + tt * km + pe * rows + rr;
            const uint16_t* src = &b[k * n_ + uint64_t(m) * nm];
            halves.insert(halves.end(), src, src + nm);
          }
        }
      }
    }
  }
  return pack_halves(halves);
}

std::vector<uint32_t> GemmPlan::unpack_c(const std::vector<std::vector<uint64_t>>& per_group) const {
  const unsigned nm = t_.mau_n, p = t_.pe_per_mab, rs = s_.c_rows_piece;
  std::vector<uint32_t> c(uint64_t(m_) * n_);
  for (unsigned g = 0; g < t_.groups; ++g) {
    const std::vector<uint32_t> singles = unpack_singles(per_group[g]);
    uint64_t i = 0;  // [piece][l2b][l1b][mab][pe][row][column]
    for (unsigned s = 0; s < c_pieces_; ++s) {
      for (unsigned l2 = 0; l2 < t_.l2b_per_group; ++l2) {
        for (unsigned l1 = 0; l1 < t_.l1b_per_l2b; ++l1) {
          const uint64_t l1b = (uint64_t(g) * t_.l2b_per_group + l2) * t_.l1b_per_l2b + l1;
          for (unsigned m = 0; m < t_.mab_per_l1b; ++m) {
            for (unsigned pe = 0; pe < p; ++pe) {
              for (unsigned rr = 0; rr < rs; ++rr) {
                const uint64_t row = l1b * p * s_.rows_per_pe + pe * s_.rows_per_pe + uint64_t(s) * rs + rr;
                for (unsigned col = 0; col < nm; ++col) c[row * n_ + uint64_t(m) * nm + col] = singles[i++];
              }
            }
          }
        }
      }
    }
  }
  return c;
}

std::vector<uint32_t> gemm_reference(const std::vector<uint16_t>& a, const std::vector<uint16_t>& b, unsigned m,
                                     unsigned n, unsigned k) {
  // Halves as IEEE floats (exact). Row i of C accumulates over k in order, a whole row of
  // accumulators at a time (each element still sees k = 0, 1, ... in sequence).
  std::vector<float> af(a.size()), bf(b.size());
  for (size_t i = 0; i < a.size(); ++i) af[i] = static_cast<float>(half_to_double(a[i]));
  for (size_t i = 0; i < b.size(); ++i) bf[i] = static_cast<float>(half_to_double(b[i]));
  std::vector<uint32_t> c(uint64_t(m) * n);
  std::vector<float> acc(n);
  for (unsigned i = 0; i < m; ++i) {
    std::fill(acc.begin(), acc.end(), 0.0f);
    for (unsigned kk = 0; kk < k; ++kk) {
      const float x = af[uint64_t(i) * k + kk];
      const float* row = &bf[uint64_t(kk) * n];
      for (unsigned j = 0; j < n; ++j) {
        // The product of two halves is exact in float, and the sum rounds once to nearest-even
        // as IEEE single; then the MN-Core rules: a subnormal sum (always exact here) is ±0,
        // NaN (inf - inf, 0 * inf) is +inf.
        float s = acc[j] + x * row[j];
        if (std::isnan(s)) s = HUGE_VALF;
        if (std::fpclassify(s) == FP_SUBNORMAL) s = std::copysign(0.0f, s);
        acc[j] = s;
      }
    }
    std::memcpy(&c[uint64_t(i) * n], acc.data(), uint64_t(n) * 4);
  }
  return c;
}

SampleResult run_gemm(Board& board, const GemmShape& shape, uint32_t seed) {
  const GemmPlan plan(board.topology(), shape);
  const unsigned m = plan.m(), n = plan.n(), k = plan.k();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> values(-2.0, 2.0);
  std::vector<uint16_t> a(uint64_t(m) * k), b(uint64_t(k) * n);
  for (auto& x : a) x = half_from_double(values(rng));
  for (auto& x : b) x = half_from_double(values(rng));

  Host host(board);
  host.begin("host -> DRAM");
  host.to_dram(plan.pack_a(a), plan.dram_a());
  host.to_every_dram(plan.pack_b(b), plan.dram_b());
  host.begin("load DRAM -> LM");
  host.run(plan.load_program(), "gemm.load");
  host.begin("compute");
  host.run(plan.compute_program(), "gemm.compute");
  host.begin("store LM -> DRAM");
  host.run(plan.store_program(), "gemm.store");
  host.begin("DRAM -> host");
  const std::vector<uint32_t> c = plan.unpack_c(host.from_dram(plan.dram_c(), plan.c_group_lw()));
  host.end();

  const std::vector<uint32_t> want = gemm_reference(a, b, m, n, k);
  SampleResult result;
  result.phases = host.phases();
  result.flops = 2.0 * m * n * k;
  result.compute_phase = "compute";
  result.on_chip_phases = {"load DRAM -> LM", "compute", "store LM -> DRAM"};
  for (size_t i = 0; i < want.size(); ++i) {
    if (c[i] != want[i]) {
      result.detail = fmt::format("C[{}][{}]: got 0x{:08x} ({}), want 0x{:08x} ({})", i / n, i % n, c[i],
                                  to_string(FloatFormat::Single, c[i]), want[i], to_string(FloatFormat::Single, want[i]));
      return result;
    }
  }
  result.passed = true;
  result.detail = fmt::format("{} x {} x {}: {} elements of C match the reference bit for bit", m, n, k, want.size());
  return result;
}

}  // namespace npuvp::mncore::kernels
