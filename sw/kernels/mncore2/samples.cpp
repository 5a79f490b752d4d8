#include "sw/kernels/mncore2/samples.h"

#include <algorithm>
#include <fmt/format.h>
#include <random>

#include "models/numerics/mncore_float.h"
#include "tlm/log.h"

namespace npuvp::mncore::kernels {

namespace {

using vsm::Space;

// One 32-bit word at SW address `sw` of a PE memory; `$m0` is the upper half of `$lm0`.
uint32_t get_sw(const vsm::Machine& m, Space space, unsigned pe, uint32_t sw) {
  const uint64_t lw = m.read_lw(space, pe, sw & ~1u);
  return sw % 2 ? uint32_t(lw) : uint32_t(lw >> 32);
}
void set_sw(vsm::Machine& m, Space space, unsigned pe, uint32_t sw, uint32_t value) {
  const uint64_t lw = m.read_lw(space, pe, sw & ~1u);
  m.write_lw(space, pe, sw & ~1u,
             sw % 2 ? (lw & 0xFFFFFFFF00000000ull) | value : (lw & 0xFFFFFFFFull) | (uint64_t(value) << 32));
}

// Parses and runs `program`, filling the result's step and cycle counts.
void run_program(vsm::Machine& m, const std::string& name, SampleResult& r) {
  const vsm::Program p = vsm::parse(r.program, name);
  std::string dump;
  m.run(p, dump);
  r.steps = p.steps();
  r.run = m.stats();
}

}  // namespace

SampleResult run_elementwise(vsm::Machine& m, unsigned singles_per_pe) {
  const vsm::Shape& sh = m.shape();
  const unsigned e = singles_per_pe;
  if (e == 0 || e % 8 != 0) raise("elementwise", "singles per PE ({}) must be a positive multiple of 8", e);
  if (e > 2 * sh.lm_lw || e > 2 * sh.grf_lw || sh.grf_lw < 16) {
    raise("elementwise", "{} singles per PE do not fit LM0/LM1 ({} LW) and GRF1 ({} LW) with 16 LW of GRF0", e,
          sh.lm_lw, sh.grf_lw);
  }
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> values(-4.0, 4.0);
  const unsigned n = sh.pes();
  std::vector<uint32_t> x(size_t(n) * e), y(x.size());
  for (auto& v : x) v = single_from_double(values(rng));
  for (auto& v : y) v = single_from_double(values(rng));
  for (unsigned pe = 0; pe < n; ++pe) {
    for (unsigned i = 0; i < e; ++i) {
      set_sw(m, Space::LM0, pe, i, x[size_t(pe) * e + i]);
      set_sw(m, Space::LM1, pe, i, y[size_t(pe) * e + i]);
    }
  }
  // 8 singles (4 LW per operand, one per cycle) per group of steps: x*y and x+y on the MAU
  // into GRF0 (two buffers), the larger one by the ALU into GRF1. The ALU's fmax of group j
  // shares a step with the MAU's fvmul of group j+1: 2 steps per 8 singles, plus one.
  SampleResult r;
  auto fmax = [](unsigned j) { return fmt::format("fmax $lr{0}v $lr{1}v $ls{2}v", (j % 2) * 16, (j % 2) * 16 + 8, 8 * j); };
  const unsigned groups = e / 8;
  r.program = "# z = max(x*y, x+y): x in LM0, y in LM1, z in GRF1 (singles)\n";
  for (unsigned j = 0; j < groups; ++j) {
    r.program += fmt::format("fvmul $lm{0}v $ln{0}v $lr{1}v{2}\nfvadd $lm{0}v $ln{0}v $lr{3}v\n", 8 * j, (j % 2) * 16,
                             j ? " ; " + fmax(j - 1) : "", (j % 2) * 16 + 8);
  }
  r.program += fmax(groups - 1) + "\n";
  run_program(m, "elementwise.vsm", r);
  r.flops = 3.0 * double(x.size());
  for (unsigned pe = 0; pe < n; ++pe) {
    for (unsigned i = 0; i < e; ++i) {
      const size_t k = size_t(pe) * e + i;
      const uint64_t want =
          max(FloatFormat::Single, mul(FloatFormat::Single, x[k], y[k]), add(FloatFormat::Single, x[k], y[k]));
      const uint32_t got = get_sw(m, Space::GRF1, pe, i);
      if (got != want) {
        r.detail = fmt::format("PE {} element {}: got {}, want {} (x {}, y {})", pe, i, to_string(FloatFormat::Single, got),
                               to_string(FloatFormat::Single, want), to_string(FloatFormat::Single, x[k]),
                               to_string(FloatFormat::Single, y[k]));
        return r;
      }
    }
  }
  r.passed = true;
  r.detail = fmt::format("{} PEs x {} singles: z = max(x*y, x+y) matches the reference bit for bit", n, e);
  return r;
}

SampleResult run_tree_sum(vsm::Machine& m) {
  const vsm::Shape& sh = m.shape();
  const unsigned n = sh.pes(), v = 8;  // 8 singles: 4 LW, one per cycle of a step
  std::vector<uint32_t> x(size_t(n) * v);
  for (unsigned p = 0; p < n; ++p) {
    for (unsigned i = 0; i < v; ++i) {
      x[size_t(p) * v + i] = single_from_float(1.0f / float(1 + p % 97 + 3 * i));  // inexact: the order shows
      set_sw(m, Space::LM0, p, i, x[size_t(p) * v + i]);
    }
  }
  SampleResult r;
  r.program =
      "# Up the tree: over the MABs of each L1B (lb[4c+q] = the sum of PE position q's long word c),\n"
      "# the L1Bs of each L2B, then every L2B into group 0's PDM.\n"
      "l1bmrffadd $lm0v $lb0\nl2bmrffadd $lb0 $lc0\nmvrffadd/n64i1 $lc0 $p0@0\nnop ; wait i1\n"
      "# Down: to every L2BM, L1BM and PE (long word 4k+c of GRF0 = position c's sum of word k)\n"
      "mvb/n64i2 $p0@0 $lc0\nnop ; wait i2\nl2bmb $lc0 $lb0\n"
      "l1bmp $lb0 $lr0v\nl1bmp $lb4 $lr8v\nl1bmp $lb8 $lr16v\nl1bmp $lb12 $lr24v\n"
      "# The four positions' sums added in each PE: the totals to LM1\n"
      "fvadd $lr[0,8,16,24] $lr[2,10,18,26] $lr32v\nfvadd $lr32v $lr[4,12,20,28] $lr40v\n"
      "fvadd $lr40v $lr[6,14,22,30] $ln0v\n";
  run_program(m, "tree_sum.vsm", r);
  r.flops = double(n - 1) * v;

  // Reference: the tree's order, one rounding per addition. For each PE position q: the MABs
  // of an L1B in order, the L1Bs of an L2B, the L2Bs of the board; then the positions 0..3.
  const unsigned per_l1b = sh.mab_per_l1b * sh.pe_per_mab, per_l2b = sh.l1b_per_l2b * per_l1b;
  auto add_f = [](uint32_t a, uint32_t b) { return uint32_t(add(FloatFormat::Single, a, b)); };
  for (unsigned i = 0; i < v; ++i) {
    uint32_t total = 0;
    for (unsigned q = 0; q < sh.pe_per_mab; ++q) {
      uint32_t board = 0;
      for (unsigned l2 = 0; l2 < sh.l2bs(); ++l2) {
        uint32_t l2sum = 0;
        for (unsigned b = 0; b < sh.l1b_per_l2b; ++b) {
          uint32_t l1sum = 0;
          for (unsigned mab = 0; mab < sh.mab_per_l1b; ++mab) {
            const uint32_t xi = x[size_t(l2 * per_l2b + b * per_l1b + mab * sh.pe_per_mab + q) * v + i];
            l1sum = mab ? add_f(l1sum, xi) : xi;
          }
          l2sum = b ? add_f(l2sum, l1sum) : l1sum;
        }
        board = l2 ? add_f(board, l2sum) : l2sum;
      }
      total = q ? add_f(total, board) : board;
    }
    for (unsigned p = 0; p < n; ++p) {
      const uint32_t got = get_sw(m, Space::LM1, p, i);
      if (got != total) {
        r.detail = fmt::format("PE {} total {}: got {}, want {}", p, i, to_string(FloatFormat::Single, got),
                               to_string(FloatFormat::Single, total));
        return r;
      }
    }
  }
  r.passed = true;
  r.detail = fmt::format("{} sums of {} PEs reduced up the tree match the reference bit for bit, and all {} PEs got "
                         "them back", v, n, n);
  return r;
}

SampleResult run_gemm(vsm::Machine& m, unsigned steps) {
  const vsm::Shape& sh = m.shape();
  if (steps == 0 || uint64_t(steps) * 8 > sh.lm_lw || sh.grf_lw < 16) {
    raise("gemm", "{} steps need {} LW of LM0 and LM1 and 16 LW of GRF0 (LM {} LW, GRF {} LW)", steps,
          uint64_t(steps) * 8, sh.lm_lw, sh.grf_lw);
  }
  const unsigned n = sh.pes(), mabs = n / sh.pe_per_mab, rows = 4 * steps;
  // Multiples of 1/8 in [-2, 2]: every product and sum is exact in single, so the result does
  // not depend on the order the MAU adds in.
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> eighths(-16, 16);
  auto half = [&] { return uint16_t(half_from_double(eighths(rng) / 8.0)); };
  std::vector<uint16_t> w(size_t(mabs) * 256), xs(size_t(mabs) * rows * 16);
  for (auto& h : w) h = half();
  for (auto& h : xs) h = half();
  auto lw_of = [](const uint16_t* h) {  // four halves, the first in the upper bits
    return (uint64_t(h[0]) << 48) | (uint64_t(h[1]) << 32) | (uint64_t(h[2]) << 16) | h[3];
  };
  for (unsigned pe = 0; pe < n; ++pe) {
    const unsigned mab = pe / 4, p = pe % 4;
    for (unsigned row = 0; row < 16; ++row) m.write_lw(Space::GRF0, pe, 2 * row, lw_of(&w[(size_t(mab) * 16 + row) * 16 + 4 * p]));
    for (unsigned row = 0; row < rows; ++row) {
      m.write_lw(Space::LM0, pe, 2 * row, lw_of(&xs[(size_t(mab) * rows + row) * 16 + 4 * p]));
    }
  }
  SampleResult r;
  r.program =
      "# Y = X W^T on every MAB: W (16 x 16 halves, GRF0) into the matrix register x; each hmmul\n"
      "# multiplies one 16-half row of X per cycle (one long word of LM0 from each of the MAB's\n"
      "# 4 PEs) by W: 16 singles out, PE p getting columns 4p..4p+3 in two long words of LM1.\n"
      "hmwrite $llr0v $llx0\nhmwrite $llr16v $llx8\n";
  for (unsigned s = 0; s < steps; ++s) r.program += fmt::format("hmmul $lx $lm{}v $lln{}v\n", 8 * s, 16 * s);
  run_program(m, "gemm.vsm", r);
  r.flops = 2.0 * double(r.run.macs);
  for (unsigned mab = 0; mab < mabs; ++mab) {
    for (unsigned row = 0; row < rows; ++row) {
      const uint16_t* xr = &xs[(size_t(mab) * rows + row) * 16];
      for (unsigned j = 0; j < 16; ++j) {
        double sum = 0;
        for (unsigned i = 0; i < 16; ++i) sum += half_to_double(w[(size_t(mab) * 16 + j) * 16 + i]) * half_to_double(xr[i]);
        const uint32_t want = single_from_double(sum);
        const uint32_t got = get_sw(m, Space::LM1, mab * 4 + j / 4, 4 * row + j % 4);
        if (got != want) {
          r.detail = fmt::format("MAB {} row {} column {}: got {}, want {}", mab, row, j,
                                 to_string(FloatFormat::Single, got), sum);
          return r;
        }
      }
    }
  }
  r.passed = true;
  r.detail = fmt::format("{} MABs x {} rows of 16 halves times their 16 x 16 W match the reference bit for bit", mabs,
                         rows);
  return r;
}

const std::vector<Sample>& samples() {
  static const std::vector<Sample> all = {
      {"elementwise", "z = max(x*y, x+y) over single vectors in every PE (MAU fvmul/fvadd, ALU fmax)",
       [](vsm::Machine& m) { return run_elementwise(m, 64); }},
      {"tree_sum", "per-PE single vectors summed up the whole tree (MAB..L2B, MV into PDM) and broadcast back to every PE",
       [](vsm::Machine& m) { return run_tree_sum(m); }},
      {"gemm", "Y = X W^T on every MAB's MAU (hmmul), half in, single out, at the MAU's peak rate",
       [](vsm::Machine& m) { return run_gemm(m, std::min(256u, m.shape().lm_lw / 8)); }},
  };
  return all;
}

const Sample* find_sample(const std::string& name) {
  for (const auto& s : samples()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace npuvp::mncore::kernels
