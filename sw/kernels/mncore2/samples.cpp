#include "sw/kernels/mncore2/samples.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <fmt/format.h>
#include <random>

#include "models/numerics/mncore_float.h"
#include "sw/kernels/mncore2/gemm.h"
#include "tlm/log.h"

namespace npuvp::mncore::kernels {

namespace {

uint64_t capacity_lw(const Topology& t, Mem m) { return t.mem[static_cast<unsigned>(m)].size_bytes() / 8; }

// Per-PE blocks of `lw` LW, laid out in each Group's DRAM at `dram` in PE order, go to every
// PE's memory `pe_mem` (an assembly spelling such as "lm") at SW address `sw`: `dist` at
// every level.
std::string scatter(const Topology& t, uint64_t dram, uint64_t lw, const char* pe_mem, uint64_t sw) {
  const uint64_t per_l1b = uint64_t(t.pes_per_l1b()) * lw, per_l2b = t.l1b_per_l2b * per_l1b;
  if (per_l2b > capacity_lw(t, Mem::L2BM) || per_l1b > capacity_lw(t, Mem::L1BM)) {
    raise("samples", "{} LW per PE do not fit one pass through L2BM ({} LW) and L1BM ({} LW)", lw,
          capacity_lw(t, Mem::L2BM), capacity_lw(t, Mem::L1BM));
  }
  return fmt::format("dist $d{} $lc0 {}\nwait dram\ndist $lc0 $lb0 {}\nwait l2b\ndist $lb0 ${}{} {}\nwait l1b\n", dram,
                     per_l2b, per_l1b, pe_mem, sw, lw);
}

// The reverse: `coll` at every level, into each Group's DRAM at `dram` in PE order.
std::string gather(const Topology& t, const char* pe_mem, uint64_t sw, uint64_t lw, uint64_t dram) {
  const uint64_t per_l1b = uint64_t(t.pes_per_l1b()) * lw, per_l2b = t.l1b_per_l2b * per_l1b;
  return fmt::format("coll ${}{} $lb0 {}\nwait l1b\ncoll $lb0 $lc0 {}\nwait l2b\ncoll $lc0 $d{} {}\nwait dram\n", pe_mem,
                     sw, lw, per_l1b, dram, per_l2b);
}

// Splits PE-ordered words (lw per PE) into the Groups' DRAM images.
std::vector<std::vector<uint64_t>> by_group(const Topology& t, const std::vector<uint64_t>& words) {
  const uint64_t per_group = words.size() / t.groups;
  std::vector<std::vector<uint64_t>> out;
  for (unsigned g = 0; g < t.groups; ++g) {
    out.emplace_back(words.begin() + g * per_group, words.begin() + (g + 1) * per_group);
  }
  return out;
}

std::vector<uint64_t> joined(const std::vector<std::vector<uint64_t>>& per_group) {
  std::vector<uint64_t> out;
  for (const auto& g : per_group) out.insert(out.end(), g.begin(), g.end());
  return out;
}

}  // namespace

SampleResult run_elementwise(Board& board, unsigned halves_per_pe) {
  const Topology& t = board.topology();
  const unsigned e = halves_per_pe;
  if (e == 0 || e % 8 != 0) raise("elementwise", "halves per PE ({}) must be a positive multiple of 8", e);
  if (uint64_t(e) > capacity_lw(t, Mem::LM0) * 2) raise("elementwise", "{} halves of x and z do not fit LM0", e);
  const uint64_t lw = e / 4, total = uint64_t(t.pes()) * e;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> values(-4.0, 4.0);
  std::vector<uint16_t> x(total), y(total);
  for (auto& v : x) v = half_from_double(values(rng));
  for (auto& v : y) v = half_from_double(values(rng));

  // x -> LM0 [0, e/2) SW, y -> LM1 [0, e/2), z = max(x*y, x+y) -> LM0 [e/2, e).
  const uint64_t dram_x = 0, dram_y = total / 4 / t.groups, dram_z = 2 * dram_y;
  Host host(board);
  host.begin("host -> DRAM");
  host.to_dram(by_group(t, pack_halves(x)), dram_x);
  host.to_dram(by_group(t, pack_halves(y)), dram_y);
  host.begin("load DRAM -> LM");
  host.run(scatter(t, dram_x, lw, "lm", 0) + scatter(t, dram_y, lw, "ln", 0), "elementwise.load");
  host.begin("compute");
  std::string program;
  for (unsigned w = 0; w < e / 8; ++w) {  // 8 halves (two LW) per instruction and PE
    program += fmt::format("fmul.h $llm{0} $lln{0} $llr0\nfadd.h $llm{0} $lln{0} $llr4\nfmax.h $llr0 $llr4 $llm{1}\n",
                           4 * w, e / 2 + 4 * w);
  }
  host.run(program, "elementwise.compute");
  host.begin("store LM -> DRAM");
  host.run(gather(t, "lm", e / 2, lw, dram_z), "elementwise.store");
  host.begin("DRAM -> host");
  const std::vector<uint16_t> z = unpack_halves(joined(host.from_dram(dram_z, total / 4 / t.groups)));
  host.end();

  SampleResult r;
  r.phases = host.phases();
  r.flops = 3.0 * double(total);
  r.compute_phase = "compute";
  r.on_chip_phases = {"load DRAM -> LM", "compute", "store LM -> DRAM"};
  for (uint64_t i = 0; i < total; ++i) {
    const uint64_t want = max(FloatFormat::Half, mul(FloatFormat::Half, x[i], y[i]), add(FloatFormat::Half, x[i], y[i]));
    if (z[i] != want) {
      r.detail = fmt::format("PE {} element {}: got 0x{:04x}, want 0x{:04x} (x {}, y {})", i / e, i % e, z[i], want,
                             to_string(FloatFormat::Half, x[i]), to_string(FloatFormat::Half, y[i]));
      return r;
    }
  }
  r.passed = true;
  r.detail = fmt::format("{} PEs x {} halves: z = max(x*y, x+y) matches the reference bit for bit", t.pes(), e);
  return r;
}

SampleResult run_tree_sum(Board& board, unsigned singles_per_pe) {
  const Topology& t = board.topology();
  const unsigned v = singles_per_pe;
  if (v == 0 || v % 2 != 0) raise("tree_sum", "singles per PE ({}) must be a positive even number", v);
  const uint64_t lw = v / 2, n = t.pes();
  std::vector<float> x(n * v);
  for (uint64_t p = 0; p < n; ++p) {
    for (unsigned i = 0; i < v; ++i) x[p * v + i] = 1.0f / float(1 + p % 97 + 3 * i);  // inexact: order shows
  }
  std::vector<uint32_t> bits(x.size());
  for (size_t i = 0; i < x.size(); ++i) bits[i] = single_from_float(x[i]);

  // Each PE's vector at LM0 SW 0; the total comes back to LM0 SW v.
  const uint64_t dram_in = 0, dram_sum = n * lw / t.groups, dram_back = dram_sum + lw, dram_out = dram_back + lw;
  Host host(board);
  host.begin("host -> DRAM");
  host.to_dram(by_group(t, pack_singles(bits)), dram_in);
  host.begin("load DRAM -> LM");
  host.run(scatter(t, dram_in, lw, "lm", 0), "tree_sum.load");
  host.begin("reduce up, broadcast down");
  host.run(fmt::format("# PE -> L1BM -> L2BM -> DRAM -> PDM of Group 0: sums at every level\n"
                       "red.f $lm0 $lb0 {0}\nwait l1b\nred.f $lb0 $lc0 {0}\nwait l2b\nred.f $lc0 $d{1} {0}\nwait dram\n"
                       "red.f $d{1} $p0 {0}\nwait pdm\n"
                       "# and the total back to every PE\n"
                       "bcast $p0 $d{2} {0}\nwait pdm\nbcast $d{2} $lc0 {0}\nwait dram\nbcast $lc0 $lb0 {0}\nwait l2b\n"
                       "bcast $lb0 $lm{3} {0}\nwait l1b\n",
                       lw, dram_sum, dram_back, v),
           "tree_sum.reduce");
  host.begin("store LM -> DRAM");
  host.run(gather(t, "lm", v, lw, dram_out), "tree_sum.store");
  host.begin("DRAM -> host");
  std::vector<uint64_t> total_words(lw);
  board.host_read(0, total_words.data(), lw * 8);  // the total is still in Group 0's PDM
  const std::vector<uint32_t> copies = unpack_singles(joined(host.from_dram(dram_out, n * lw / t.groups)));
  host.end();

  // Reference: the tree's order. Within a MAB the PEs in order, then the MABs of an L1B, the
  // L1Bs of an L2B, the L2Bs of a Group, the Groups; one float rounding per addition.
  std::vector<float> want(v);
  for (unsigned i = 0; i < v; ++i) {
    uint64_t p = 0;
    auto sum_over = [](unsigned count, const std::function<float()>& next) {
      float s = next();
      for (unsigned k = 1; k < count; ++k) s += next();
      return s;
    };
    want[i] = sum_over(t.groups, [&] {
      return sum_over(t.l2b_per_group, [&] {
        return sum_over(t.l1b_per_l2b, [&] {
          return sum_over(t.mab_per_l1b, [&] { return sum_over(t.pe_per_mab, [&] { return x[(p++) * v + i]; }); });
        });
      });
    });
  }

  SampleResult r;
  r.phases = host.phases();
  r.flops = double(n - 1) * v;
  r.compute_phase = "reduce up, broadcast down";
  r.on_chip_phases = {"load DRAM -> LM", "reduce up, broadcast down", "store LM -> DRAM"};
  const std::vector<uint32_t> totals = unpack_singles(total_words);
  for (unsigned i = 0; i < v; ++i) {
    uint32_t w;
    std::memcpy(&w, &want[i], 4);
    if (totals[i] != w) {
      r.detail = fmt::format("total {} in Group 0's PDM: got {}, want {}", i, to_string(FloatFormat::Single, totals[i]),
                             want[i]);
      return r;
    }
    for (uint64_t p = 0; p < n; ++p) {
      if (copies[p * v + i] != w) {
        r.detail = fmt::format("PE {} copy of total {}: got {}, want {}", p, i,
                               to_string(FloatFormat::Single, copies[p * v + i]), want[i]);
        return r;
      }
    }
  }
  r.passed = true;
  r.detail = fmt::format("{} sums of {} PEs reduced up the tree match the reference bit for bit, and all {} PEs got "
                         "them back", v, n, n);
  return r;
}

namespace {

// The default GEMM shape for the configured board: as many rows per PE as LM0, GRF0 and the
// C pieces allow, with K = 512.
GemmShape default_gemm(const Topology& t) {
  GemmShape s;
  s.k = 512;
  s.k_piece = 2 * t.mau_k;
  s.rows_per_pe = 16;
  s.c_rows_piece = 4;
  while (s.rows_per_pe > 1 && uint64_t(s.rows_per_pe) * s.k / 4 > capacity_lw(t, Mem::LM0)) s.rows_per_pe /= 2;
  if (s.c_rows_piece > s.rows_per_pe) s.c_rows_piece = s.rows_per_pe;
  return s;
}

}  // namespace

const std::vector<Sample>& samples() {
  static const std::vector<Sample> all = {
      {"elementwise", "z = max(x*y, x+y) over half vectors in every PE, through DRAM and back",
       [](Board& b) { return run_elementwise(b, 64); }},
      {"tree_sum", "per-PE single vectors summed up the whole tree (PE..Group) and broadcast back to every PE",
       [](Board& b) { return run_tree_sum(b, 8); }},
      {"gemm", "C = A B on the MAUs, half in, single out, A and B from DRAM, C back to DRAM",
       [](Board& b) { return run_gemm(b, default_gemm(b.topology())); }},
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
