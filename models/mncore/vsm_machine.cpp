// The VSM step machine: every statement of a parsed program on every PE of the board, four
// cycles per step, with the emulator's debug statements and dump lines. Semantics and the
// assumptions where public material is silent: docs/mncore2-isa.md ("VSM").
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <map>
#include <unordered_map>

#include "models/mncore/vsm.h"
#include "models/numerics/mncore_float.h"
#include "tlm/log.h"

namespace npuvp::mncore::vsm {

namespace {

// One cycle of the datapath: two long words, `hi` the more significant ($m0 is the upper half
// of $lm0, $lm0 the upper long word of $llm0).
struct V {
  uint64_t hi = 0, lo = 0;
};

uint32_t sw_of(const V& v, unsigned k) {
  const uint64_t w = k < 2 ? v.hi : v.lo;
  return (k % 2) == 0 ? uint32_t(w >> 32) : uint32_t(w);
}
void set_sw(V& v, unsigned k, uint32_t x) {
  uint64_t& w = k < 2 ? v.hi : v.lo;
  if (k % 2 == 0) {
    w = (w & 0xFFFFFFFFull) | (uint64_t(x) << 32);
  } else {
    w = (w & ~0xFFFFFFFFull) | x;
  }
}

unsigned lane_bits(char prec) {
  switch (prec) {
    case 'l': case 'd': return 64;
    case 's': case 'h': return 16;
    default: return 32;  // i f g
  }
}
uint64_t lane_mask(unsigned bits) { return bits == 64 ? ~0ull : (1ull << bits) - 1; }
// Lane j (0 = most significant) of a long word.
uint64_t lane(uint64_t w, unsigned bits, unsigned j) { return (w >> (64 - bits * (j + 1))) & lane_mask(bits); }
void set_lane(uint64_t& w, unsigned bits, unsigned j, uint64_t x) {
  const unsigned shift = 64 - bits * (j + 1);
  w = (w & ~(lane_mask(bits) << shift)) | ((x & lane_mask(bits)) << shift);
}
int64_t sign_extend(uint64_t x, unsigned bits) {
  if (bits == 64) return int64_t(x);
  const uint64_t m = 1ull << (bits - 1);
  return int64_t((x ^ m) - m);
}
// Replicates a lane value over a long word.
uint64_t fill(uint64_t x, unsigned bits) {
  uint64_t w = 0;
  for (unsigned j = 0; j < 64 / bits; ++j) set_lane(w, bits, j, x);
  return w;
}
FloatFormat format_of(char prec) {
  return prec == 'd' ? FloatFormat::Double : prec == 'h' ? FloatFormat::Half : FloatFormat::Single;
}
// The flag nibble for lane j of n lanes set to `flag` (a long-word result spans the 4 bits,
// each of two words 2 bits, each of four halves 1 bit).
uint8_t flag_bits(unsigned lanes, unsigned j, bool flag) {
  if (!flag) return 0;
  const unsigned per = 4 / lanes;
  return uint8_t(((1u << per) - 1) << (4 - per * (j + 1)));
}

constexpr uint32_t kLbiLw = 256;  // 4 cycles x 64 LW: the widest L1BM step (l1bmd)

struct Level {
  unsigned g, c, b, m, p;
};

}  // namespace

struct Machine::State {
  unsigned n = 0;
  uint32_t lm_sw = 0, grf_sw = 0;
  std::unique_ptr<uint32_t[], void (*)(void*)> mem[4] = {{nullptr, std::free}, {nullptr, std::free}, {nullptr, std::free}, {nullptr, std::free}};
  std::vector<V> t;                          // [pe][cycle]
  std::vector<uint32_t> bar;                 // [pe][LM0, LM1]: base address registers (SW)
  std::vector<std::array<uint8_t, 4>> omr;   // [pe][entry 0..15] cycle nibbles
  std::vector<V> fwd[4];                     // aluf mauf lbf mreadf: [pe][cycle]
  std::vector<uint64_t> mat;                 // [mab][plane x/y][row 0..15][pe]: one LW per PE and row
  std::vector<uint64_t> l1bm, l2bm, pdm;
  std::vector<uint64_t> lbi;                 // [l1b][kLbiLw]: the turnaround registers
  std::vector<std::unordered_map<uint64_t, uint64_t>> dram;
  uint8_t default_mask[6] = {};              // mask control: LM0 LM1 GRF0 GRF1 T Omr
  int64_t lm_written[2] = {-100, -100};      // step of the last PE write to LM0, LM1
  std::map<unsigned, uint64_t> tag_done;     // MV tag -> cycle its transfers finish
  uint64_t step = 0;                         // steps issued
  uint64_t cycle = 0;

  uint32_t* words(Space s) { return mem[unsigned(s) - unsigned(Space::LM0)].get(); }
  uint32_t size_sw(Space s) const { return s == Space::LM0 || s == Space::LM1 ? lm_sw : grf_sw; }
};

Machine::Machine(const Shape& shape) : shape_(shape), s_(new State) {
  if (!shape.mv_lw_per_cycle || !shape.mv_cross_lw_per_cycle || !shape.l2b_lw_per_cycle || !shape.l1b_lw_per_cycle) {
    raise("mncore2.vsm", "transfer rates must be at least 1 LW per cycle (MV {} and {} between Groups, L2B {}, L1B {})",
          shape.mv_lw_per_cycle, shape.mv_cross_lw_per_cycle, shape.l2b_lw_per_cycle, shape.l1b_lw_per_cycle);
  }
  State& s = *s_;
  s.n = shape.pes();
  s.lm_sw = shape.lm_lw * 2;
  s.grf_sw = shape.grf_lw * 2;
  for (unsigned i = 0; i < 4; ++i) {
    const uint64_t words = uint64_t(s.n) * (i < 2 ? s.lm_sw : s.grf_sw);
    s.mem[i].reset(static_cast<uint32_t*>(std::calloc(words, 4)));  // pages committed on first touch
    if (!s.mem[i]) raise("mncore2.vsm", "cannot allocate {} MiB of PE memory", words * 4 >> 20);
  }
  s.t.assign(size_t(s.n) * 4, V{});
  s.bar.assign(size_t(s.n) * 2, 0);
  s.omr.assign(size_t(s.n) * 16, std::array<uint8_t, 4>{});
  for (auto& f : s.fwd) f.assign(size_t(s.n) * 4, V{});
  s.mat.assign(size_t(s.n / shape.pe_per_mab) * 2 * 16 * shape.pe_per_mab, 0);
  s.l1bm.assign(size_t(shape.l1bs()) * shape.l1bm_lw, 0);
  s.lbi.assign(size_t(shape.l1bs()) * kLbiLw, 0);
  s.l2bm.assign(size_t(shape.l2bs()) * shape.l2bm_lw, 0);
  s.pdm.assign(size_t(shape.groups) * shape.pdm_lw, 0);
  s.dram.resize(shape.groups);
}

Machine::~Machine() = default;

uint64_t Machine::read_lw(Space space, unsigned pe, uint32_t sw) const {
  State& s = *s_;
  const uint32_t* w = s.words(space) + size_t(pe) * s.size_sw(space);
  return (uint64_t(w[sw]) << 32) | w[sw + 1];
}
void Machine::write_lw(Space space, unsigned pe, uint32_t sw, uint64_t value) {
  State& s = *s_;
  uint32_t* w = s.words(space) + size_t(pe) * s.size_sw(space);
  w[sw] = uint32_t(value >> 32);
  w[sw + 1] = uint32_t(value);
}

namespace {

// Everything one run needs: the machine's state, the program and the statement at hand.
class Runner {
 public:
  Runner(const Shape& shape, Machine::State& s, RunStats& stats, const Program& p, std::string& dump,
         const Machine::StepObserver& observer)
      : sh_(shape), s_(s), stats_(stats), p_(p), dump_(dump), observer_(observer) {}

  void run() {
    for (const Statement& st : p_.statements) {
      st_ = &st;
      switch (st.kind) {
        case Statement::Kind::Debug:
          debug(st.debug);
          break;
        case Statement::Kind::Mask:
          for (unsigned k = 0; k < 6; ++k) {
            if (st.mask.kinds & (1u << k)) s_.default_mask[k] = uint8_t(st.mask.entry);
          }
          break;
        case Statement::Kind::Step: {
          const uint64_t first = s_.cycle;
          for (unsigned r = 0; r < st.repeat; ++r) step(st);
          if (observer_) observer_(st, first, s_.cycle);
          break;
        }
        case Statement::Kind::Quit:
        case Statement::Kind::Host:
          break;
      }
    }
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    raise("mncore2.vsm", "{} line {} `{}` (step {}, cycle {}): {}", st_->file.empty() ? p_.name : st_->file, st_->line, st_->text, s_.step, s_.cycle, message);
  }

  // ------------------------------------------------------------------ positions
  Level level(unsigned pe) const {
    Level l;
    l.p = pe % sh_.pe_per_mab;
    pe /= sh_.pe_per_mab;
    l.m = pe % sh_.mab_per_l1b;
    pe /= sh_.mab_per_l1b;
    l.b = pe % sh_.l1b_per_l2b;
    pe /= sh_.l1b_per_l2b;
    l.c = pe % sh_.l2b_per_group;
    l.g = pe / sh_.l2b_per_group;
    return l;
  }
  unsigned pes_per_l1b() const { return sh_.mab_per_l1b * sh_.pe_per_mab; }
  unsigned l1b_of(unsigned pe) const { return pe / pes_per_l1b(); }

  // ------------------------------------------------------------------ operands
  uint32_t pe_address(const Operand& o, unsigned pe, unsigned c) const {
    uint32_t a = o.flat ? o.flat_addr[c] : o.address + o.stride * c;
    if (o.madpe >= 0 && pe % sh_.pe_per_mab <= unsigned(o.madpe)) a += o.width_sw;  // j<k>
    if (o.space == Space::LM0 || o.space == Space::LM1) a += s_.bar[size_t(pe) * 2 + (o.space == Space::LM1)];  // M 3.3
    if (o.t_indirect) {
      a += uint32_t(s_.t[size_t(pe) * 4 + c].hi) & 0xFFF;
      a -= a % o.width_sw;  // an unaligned run-time address is truncated
    }
    const uint32_t size = s_.size_sw(o.space);
    // Addresses wrap around the memory (M 3.2: a stride or T offset that runs past the end
    // comes back at 0, as SDK samples rely on); an address written in the program that is
    // itself past the end is an error, not a silent wrap (docs/mncore2-isa.md).
    const uint32_t written = o.flat ? o.flat_addr[c] : o.address;
    if (uint64_t(written) + o.width_sw > size) {
      fail(fmt::format("'{}': address {} (cycle {}) is beyond the memory ({} words)", o.text, written, c, size));
    }
    return a % size;
  }

  V read(const Operand& o, unsigned pe, unsigned c, char prec) const {
    const V v = read_raw(o, pe, c, prec);
    return o.convert ? convert(o.convert, v, prec) : v;
  }

  // Input precision conversion (M 7.5, 7.8): `r` rounds the 4 singles of the 2 LW to 4 halves
  // packed into the upper LW (the lower LW reads 0); `e` widens the upper LW exactly: its 4
  // halves to 4 singles (its 2 singles to 2 doubles for a double op) over the 2 LW.
  static V convert(char how, const V& v, char prec) {
    V r;
    if (how == 'r') {
      for (unsigned j = 0; j < 4; ++j) {
        const uint64_t x = lane(j < 2 ? v.hi : v.lo, 32, j % 2);
        set_lane(r.hi, 16, j, mncore::from_double(FloatFormat::Half, mncore::to_double(FloatFormat::Single, x)));
      }
      return r;
    }
    if (prec == 'd') {
      r.hi = mncore::from_double(FloatFormat::Double, mncore::to_double(FloatFormat::Single, lane(v.hi, 32, 0)));
      r.lo = mncore::from_double(FloatFormat::Double, mncore::to_double(FloatFormat::Single, lane(v.hi, 32, 1)));
      return r;
    }
    for (unsigned j = 0; j < 4; ++j) {
      const uint64_t x = mncore::from_double(FloatFormat::Single, mncore::to_double(FloatFormat::Half, lane(v.hi, 16, j)));
      set_lane(j < 2 ? r.hi : r.lo, 32, j % 2, x);
    }
    return r;
  }

  V read_raw(const Operand& o, unsigned pe, unsigned c, char prec) const {
    V v;
    switch (o.space) {
      case Space::LM0: case Space::LM1: case Space::GRF0: case Space::GRF1: {
        const uint32_t* w = const_cast<Machine::State&>(s_).words(o.space) + size_t(pe) * s_.size_sw(o.space);
        const uint32_t a = pe_address(o, pe, c);
        for (unsigned k = 0; k < o.width_sw; ++k) set_sw(v, k, w[(a + k) % s_.size_sw(o.space)]);
        break;
      }
      case Space::T:
        v = s_.t[size_t(pe) * 4 + c];
        break;
      case Space::Aluf: case Space::Mauf: case Space::Lbf: case Space::Mreadf:
        v = s_.fwd[unsigned(o.space) - unsigned(Space::Aluf)][size_t(pe) * 4 + c];
        break;
      case Space::Identity: {
        const Level l = level(pe);
        uint64_t x = 0;
        switch (o.ident) {
          case Ident::PeId: x = l.m * sh_.pe_per_mab + l.p; break;
          case Ident::SubPeId: x = l.p; break;
          case Ident::MabId: x = l.m; break;
          case Ident::L1bId: x = l.b; break;
          case Ident::L2bId: x = l.g * sh_.l2b_per_group + l.c; break;
          case Ident::Msb1: x = 1ull << (lane_bits(prec) - 1); break;
        }
        v.hi = v.lo = fill(x, lane_bits(prec));
        break;
      }
      case Space::Immediate:
        if (o.imm_is_word) {
          v.hi = v.lo = (o.imm << 32) | o.imm;  // xxxx
        } else {
          v.hi = v.lo = fill(o.imm & lane_mask(lane_bits(prec)), lane_bits(prec));
        }
        break;
      default:
        fail(fmt::format("'{}' cannot be read here", o.text));
    }
    return v;
  }

  uint8_t omr_nibble(unsigned entry, unsigned pe, unsigned c) const {
    if (entry == 0) return 0xF;
    if (entry >= 16) return ((entry - 16) >> (3 - c)) & 1 ? 0xF : 0;  // fixed cycle patterns
    return s_.omr[size_t(pe) * 16 + entry][c];
  }
  uint8_t write_enable(const Operand& o, unsigned pe, unsigned c) const {
    if (o.has_mask) return o.mask_omr >= 0 ? omr_nibble(unsigned(o.mask_omr), pe, c) : o.mask_bits[c];
    static const Space kinds[6] = {Space::LM0, Space::LM1, Space::GRF0, Space::GRF1, Space::T, Space::Omr};
    for (unsigned k = 0; k < 6; ++k) {
      if (kinds[k] == o.space) return omr_nibble(s_.default_mask[k], pe, c);
    }
    if (o.space == Space::LmBar || o.space == Space::LnBar) return omr_nibble(s_.default_mask[o.space == Space::LnBar], pe, c);
    return 0xF;
  }

  // A write, applied after every instruction of the step has read its inputs.
  struct Pending {
    const Operand* o;
    unsigned pe, c;
    V v;
    uint8_t flags;
  };
  void commit(const Pending& w) {
    const Operand& o = *w.o;
    const uint8_t en = write_enable(o, w.pe, w.c);
    switch (o.space) {
      case Space::LM0: case Space::LM1: case Space::GRF0: case Space::GRF1: {
        uint32_t* mem = s_.words(o.space) + size_t(w.pe) * s_.size_sw(o.space);
        const uint32_t a = pe_address(o, w.pe, w.c);
        for (unsigned k = 0; k < o.width_sw; ++k) {
          if (en & (1u << (3 - k * 4 / o.width_sw))) mem[(a + k) % s_.size_sw(o.space)] = sw_of(w.v, k);
        }
        break;
      }
      case Space::T: {
        V& t = s_.t[size_t(w.pe) * 4 + w.c];
        for (unsigned k = 0; k < 4; ++k) {
          if (en & (1u << (3 - k))) set_sw(t, k, sw_of(w.v, k));
        }
        break;
      }
      case Space::Omr: {
        uint8_t& e = s_.omr[size_t(w.pe) * 16 + o.omr][w.c];
        e = uint8_t((e & ~en) | (w.flags & en));
        break;
      }
      case Space::LmBar: case Space::LnBar:
        // The low 12 bits of the most significant word (M 4.7).
        if (en & 0x8) s_.bar[size_t(w.pe) * 2 + (o.space == Space::LnBar)] = sw_of(w.v, 0) & 0xFFF;
        break;
      case Space::NoWrite:
        break;
      default:
        fail(fmt::format("'{}' cannot be written here", o.text));
    }
  }

  // ------------------------------------------------------------------ the step
  struct Output {
    const Instr* in;
    std::vector<V> v;          // [pe][cycle]
    std::vector<uint8_t> f;    // flags [pe][cycle]; 0xFF: the op makes none
    int fwd = -1;              // forwarding path it updates
  };

  void lm_rules(const Statement& st) {
    // LM0/LM1 take one read or one write per step; a write is readable two steps later
    // (tutorial: "only for LM, reads are not possible for 2 steps after writing").
    for (unsigned k = 0; k < 2; ++k) {
      const Space lm = k ? Space::LM1 : Space::LM0;
      const Operand* r = nullptr;
      const Operand* w = nullptr;
      for (const auto& in : st.instrs) {
        for (const auto& o : in.src) {
          if (o.space == lm) r = &o;
        }
        for (const auto& o : in.dst) {
          if (o.space == lm) w = &o;
        }
      }
      if (r && int64_t(s_.step) - s_.lm_written[k] <= 2) {
        fail(fmt::format("'{}' reads LM{} {} step(s) after a write to it; LM is readable from the third step after "
                         "a write: insert nop",
                         r->text, k, int64_t(s_.step) - s_.lm_written[k]));
      }
      if (r && w) {
        for (unsigned c = 0; c < 4; ++c) {
          if (r->t_indirect || w->t_indirect || pe_address(*r, 0, c) != pe_address(*w, 0, c) || r->width_sw != w->width_sw) {
            fail(fmt::format("LM{} is read ('{}') and written ('{}') in one step at different addresses; LM takes "
                             "one access per cycle",
                             k, r->text, w->text));
          }
        }
      }
      if (w) s_.lm_written[k] = int64_t(s_.step);
    }
    // Two instructions may not write the same PE memory in one step.
    for (size_t i = 0; i < st.instrs.size(); ++i) {
      for (size_t j = i + 1; j < st.instrs.size(); ++j) {
        for (const auto& a : st.instrs[i].dst) {
          for (const auto& b : st.instrs[j].dst) {
            if (a.space == b.space && a.space != Space::NoWrite && a.space != Space::L1BM &&
                (a.space != Space::Omr || a.omr == b.omr)) {
              fail(fmt::format("'{}' and '{}' both write {} in one step", st.instrs[i].text, st.instrs[j].text, a.text));
            }
          }
        }
      }
    }
  }

  void step(const Statement& st) {
    const Instr& first = st.instrs[0];
    if (first.unit == Unit::Nop) {
      for (const auto& in : st.instrs) {
        if (in.unit == Unit::Wait) wait(in);
      }
      advance();
      return;
    }
    for (const auto& in : st.instrs) {
      for (const auto* list : {&in.src, &in.dst}) {
        for (const auto& o : *list) check_written(o);
      }
    }
    if (first.unit == Unit::Mv) {
      mv(first);
      advance();
      return;
    }
    lm_rules(st);
    std::vector<Output> outs;
    std::vector<std::vector<std::pair<size_t, uint64_t>>> mwrites;  // matrix register cells
    bool forward = true;
    uint64_t transfer_cycles = 0;  // the step's L1BM / L2BM transfer at its port's rate
    // Instructions that write the turnaround register run after those that read it: a read
    // sees the register as the step found it.
    std::vector<const Instr*> order;
    for (const auto& in : st.instrs) {
      if (in.unit != Unit::L1bmTurn) order.push_back(&in);
    }
    for (const auto& in : st.instrs) {
      if (in.unit == Unit::L1bmTurn) order.push_back(&in);
    }
    for (const Instr* inp : order) {
      const Instr& in = *inp;
      switch (in.unit) {
        case Unit::Alu: outs.push_back(alu(in)); ++stats_.alu; break;
        case Unit::MauCalc:
          outs.push_back(in.op == "mmul" || in.op == "mfma" ? matmul(in) : mau(in));
          ++stats_.mau;
          break;
        case Unit::MauWrite: mwrites.push_back(mwrite(in)); ++stats_.mau; break;
        case Unit::MauRead: outs.push_back(mread(in)); ++stats_.mau; break;
        case Unit::L1bmTurn:
        case Unit::L1bmTurnRead:
        case Unit::L1bm: {
          Output o = l1bm(in);
          if (o.in) outs.push_back(std::move(o));
          ++stats_.l1bm;
          // The turnaround register is its own issue group, off the L1B's port.
          if (in.unit == Unit::L1bm) transfer_cycles = std::max(transfer_cycles, l1bm_cycles(in));
          break;
        }
        case Unit::L2bm:
          l2bm(in);
          ++stats_.l2bm;
          transfer_cycles = std::max(transfer_cycles, l2bm_cycles(in));
          break;
        case Unit::NoForward: forward = false; break;
        case Unit::Wait: break;
        default: fail(fmt::format("'{}' is not modelled", in.text));
      }
    }
    for (auto& out : outs) {
      if (out.in->zero_flush.has_mask) zero_flush(out);
    }
    for (const auto& out : outs) {
      for (const auto& d : out.in->dst) {
        if (d.space == Space::Omr && out.f.empty()) fail(fmt::format("'{}' makes no mask flags to write to {}", out.in->text, d.text));
      }
      for (unsigned pe = 0; pe < s_.n; ++pe) {
        for (unsigned c = 0; c < 4; ++c) {
          const size_t i = size_t(pe) * 4 + c;
          for (const auto& d : out.in->dst) commit({&d, pe, c, out.v[i], out.f.empty() ? uint8_t(0) : out.f[i]});
        }
      }
    }
    for (const auto& w : mwrites) {
      for (const auto& cell : w) s_.mat[cell.first] = cell.second;
    }
    if (forward) {
      for (const auto& out : outs) {
        if (out.fwd >= 0) s_.fwd[out.fwd] = out.v;
      }
    }
    // A transfer slower than the step holds the step stream until it is done: the next step
    // may read what it moved (assumed: the model has no port queue).
    if (transfer_cycles > sh_.cycles_per_step) {
      const uint64_t stall = transfer_cycles - sh_.cycles_per_step;
      stats_.stall_cycles += stall;
      stats_.transfer_stall_cycles += stall;
      s_.cycle += stall;
    }
    for (const auto& in : st.instrs) {
      if (in.unit == Unit::Wait) wait(in);
    }
    advance();
  }

  static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

  // Cycles an L1BM instruction occupies its L1B's port: the long words one L1B's port moves in
  // the step at mncore2.l1b.lw_per_cycle. l1bmd moves 64 LW per cycle (one per PE; the
  // manual's figure, quoted by docs/mncore2-isa.md), the others what their layouts name:
  // l1bmp w LW per cycle, l1bmm/l1bmr one MAB's worth, l1bmm4/l1bmr4 four MABs' worth.
  uint64_t l1bm_cycles(const Instr& in) const {
    const bool down = in.src[0].space == Space::L1BM;
    const uint64_t w = (down ? in.src[0] : in.dst[0]).width_sw / 2;
    const uint64_t P = sh_.pe_per_mab;
    uint64_t per_cycle = pes_per_l1b();  // l1bmd
    if (in.op == "l1bmp") per_cycle = w;
    if (in.op == "l1bmm" || in.op == "l1bmr") per_cycle = P * w;
    if (in.op == "l1bmm4" || in.op == "l1bmr4") per_cycle = 4 * P * w;
    return ceil_div(per_cycle * 4, sh_.l1b_lw_per_cycle);
  }

  // Cycles an L2BM instruction occupies its L2B's port at mncore2.l2b.lw_per_cycle: l2bmd and
  // l2bmr2 move 256 LW per step over the port's full width, l2bmb, l2bm@, l2bmr and l2bmi 64
  // LW at 16 LW per cycle (M 3.6.7.9 for l2bmi), a quarter of it: the ratio the manual gives
  // (64 and 256 LW per step).
  uint64_t l2bm_cycles(const Instr& in) const {
    const bool wide = in.op == "l2bmd" || in.op == "l2bmr2";
    return ceil_div(wide ? 256 : 64 * 4, sh_.l2b_lw_per_cycle);
  }

  // The zero-flush mask of an opcode: result word k of the 2-LW datapath becomes 0 where bit
  // 3 - k of the cycle's mask nibble is 0; the mask flags stay those of the unflushed result
  // (M 7.5). Written and forwarded alike.
  void zero_flush(Output& out) const {
    // The words gated are those of the destination's width, as a write mask gates them: word k
    // of w by bit 3 - 4k/w (a long-word destination: bits 3 and 1).
    unsigned w = 4;
    for (const auto& d : out.in->dst) {
      if (d.width_sw) {
        w = d.width_sw;
        break;
      }
    }
    for (unsigned pe = 0; pe < s_.n; ++pe) {
      for (unsigned c = 0; c < 4; ++c) {
        const uint8_t keep = write_enable(out.in->zero_flush, pe, c);
        V& v = out.v[size_t(pe) * 4 + c];
        for (unsigned k = 0; k < w; ++k) {
          if (!(keep & (1u << (3 - 4 * k / w)))) set_sw(v, k, 0);
        }
      }
    }
  }

  void advance() {
    ++s_.step;
    ++stats_.steps;
    s_.cycle += sh_.cycles_per_step;
  }

  void wait(const Instr& in) {
    auto it = s_.tag_done.find(in.tag);
    // No transfer of this program carries the tag (a host DMA's tag, as the SDK's samples wait
    // for at their start): nothing is outstanding, so the wait completes at once (assumed).
    if (it == s_.tag_done.end()) return;
    const uint64_t issue_end = s_.cycle + sh_.cycles_per_step;
    if (it->second > issue_end) {
      const uint64_t stall = it->second - issue_end;
      stats_.stall_cycles += stall;
      s_.cycle += stall;
    }
  }

  // ------------------------------------------------------------------ ALU
  Output alu(const Instr& in) {
    Output out;
    out.in = &in;
    out.fwd = 0;
    out.v.resize(size_t(s_.n) * 4);
    const bool flags = !(in.op == "zero" || in.op == "imm" || in.op == "immu" || in.op == "msl" || in.op == "msr" ||
                         in.op == "floor" || in.op == "ftoi" || in.op == "bfn");
    if (flags) out.f.resize(size_t(s_.n) * 4);
    const char prec = in.prec ? in.prec : 'l';
    const unsigned bits = lane_bits(prec), lanes = 64 / bits;
    const bool is_float = prec == 'd' || prec == 'f' || prec == 'h';
    const FloatFormat ff = format_of(prec);
    for (unsigned pe = 0; pe < s_.n; ++pe) {
      for (unsigned c = 0; c < 4; ++c) {
        const size_t i = size_t(pe) * 4 + c;
        V r;
        uint8_t f = 0;
        if (in.op == "zero") {
          out.v[i] = r;
          continue;
        }
        if (in.op == "bfn") {
          out.v[i] = block_float(in, pe, c);
          continue;
        }
        if (in.op == "msl" || in.op == "msr") {
          // PE-circular shift inside the MAB: msl moves PE q's value to PE q+1.
          const unsigned q = pe % sh_.pe_per_mab, base = pe - q, P = sh_.pe_per_mab;
          const unsigned from = base + (in.op == "msl" ? (q + P - 1) % P : (q + 1) % P);
          V x = read(in.src[0], from, c, prec);
          r.hi = x.hi;
          r.lo = read(in.src[0], pe, c, prec).lo;
          out.v[i] = r;
          continue;
        }
        const V x = read(in.src[0], pe, c, prec);
        if (in.op == "imm") {
          out.v[i] = x;
          continue;
        }
        if (in.op == "immu") {
          r.hi = r.lo = x.hi & 0xFFFFFFFF00000000ull;  // xoxo
          out.v[i] = r;
          continue;
        }
        const V y = in.src.size() > 1 ? read(in.src[1], pe, c, prec) : V{};
        r.lo = x.lo;
        if (in.op == "passa") {
          r = x;
          f = x.hi == 0 ? 0xF : 0;
        } else if (in.op == "and" || in.op == "or" || in.op == "xor" || in.op == "not") {
          auto op = [&](uint64_t a, uint64_t b) {
            return in.op == "and" ? a & b : in.op == "or" ? a | b : in.op == "xor" ? a ^ b : ~a;
          };
          r.hi = op(x.hi, y.hi);
          r.lo = op(x.lo, y.lo);
          for (unsigned j = 0; j < lanes; ++j) f |= flag_bits(lanes, j, lane(r.hi, bits, j) == 0);
        } else {
          for (unsigned j = 0; j < lanes; ++j) {
            const uint64_t a = lane(x.hi, bits, j), b = lane(y.hi, bits, j);
            uint64_t res = 0;
            bool flag = false;
            lane_op(in, prec, bits, is_float, ff, a, b, res, flag);
            set_lane(r.hi, bits, j, res);
            f |= flag_bits(lanes, j, flag);
          }
        }
        out.v[i] = r;
        if (flags) out.f[i] = f;
      }
    }
    return out;
  }

  // <p>bfn: block floating point (M 9.6.3) over the block the MAU's inner product reads in one
  // cycle: d, the MAB's 4 doubles; h, its 16 halves; g, its 8 singles; f, 4 singles (the 4
  // upper ones and the 4 lower ones are two blocks, assumed from fmmul's even columns). The
  // common exponent is the block's largest (+1 when that element's mantissa is all ones; for
  // hbfn/<n>, + 9 - n), every element is rounded to nearest even on that exponent's grid of
  // the format's mantissa length (g: 18 bits), an all-zero exponent gives a zero and an
  // infinite largest element infinities. The result is written as an ordinary number of the
  // same value: the block-float bit encoding is not public, the values the MAU reads are.
  V block_float(const Instr& in, unsigned pe, unsigned c) {
    const char p = in.prec;
    const FloatFormat ff = format_of(p);
    const unsigned bits = lane_bits(p), per = 64 / bits;
    const unsigned full = p == 'd' ? 52 : p == 'h' ? 9 : 23;
    const unsigned mant = p == 'g' ? 18 : p == 'h' && in.bfn_mant ? in.bfn_mant : full;
    const unsigned base = pe - pe % sh_.pe_per_mab;
    auto block = [&](unsigned k) { return p == 'f' ? k % 2 : 0u; };  // f: the lanes of one parity
    int emaxs[2] = {INT32_MIN, INT32_MIN};
    bool infs[2] = {false, false}, bumps[2] = {false, false};
    for (unsigned q = 0; q < sh_.pe_per_mab; ++q) {
      const V v = read(in.src[0], base + q, c, p);
      for (unsigned k = 0; k < per; ++k) {
        const uint64_t b = lane(v.hi, bits, k);
        const double x = mncore::to_double(ff, b);
        int& emax = emaxs[block(k)];
        bool& bump = bumps[block(k)];
        if (x == 0) continue;
        if (std::isinf(x)) {
          infs[block(k)] = true;
          continue;
        }
        const int e = std::ilogb(x);
        const bool ones = (b & lane_mask(full)) == lane_mask(full);
        if (e > emax || (e == emax && ones)) {
          bump = e > emax ? ones : bump || ones;
          emax = e;
        }
      }
    }
    const V v = read(in.src[0], pe, c, p);
    V r;
    r.lo = v.lo;
    for (unsigned k = 0; k < per; ++k) {
      const double x = mncore::to_double(ff, lane(v.hi, bits, k));
      const int emax = emaxs[block(k)];
      const bool bump = bumps[block(k)];
      double y;
      if (infs[block(k)]) {
        y = std::signbit(x) ? -INFINITY : INFINITY;
      } else if (x == 0 || emax == INT32_MIN) {
        y = std::signbit(x) ? -0.0 : 0.0;
      } else {
        const int common = emax + (bump ? 1 : 0) + int(full == 9 ? 9 - mant : 0);
        const int grid = common - int(mant);
        y = std::ldexp(std::nearbyint(std::ldexp(x, -grid)), grid);
        if (y == 0) y = std::signbit(x) ? -0.0 : 0.0;
      }
      set_lane(r.hi, bits, k, mncore::from_double(ff, y));
    }
    return r;
  }

  void lane_op(const Instr& in, char prec, unsigned bits, bool is_float, FloatFormat ff, uint64_t a, uint64_t b,
               uint64_t& res, bool& flag) const {
    const uint64_t m = lane_mask(bits), msb = 1ull << (bits - 1);
    const std::string& op = in.op;
    if (op == "inc" || op == "dec" || op == "add" || op == "sub") {
      const uint64_t bb = op == "inc" || op == "dec" ? 1 : b;
      const bool minus = op == "dec" || op == "sub";
      res = (minus ? a - bb : a + bb) & m;
      flag = in.is_unsigned ? (minus ? a >= bb : res >= a) : (res & msb) == 0;
    } else if (op == "lnot") {
      res = a == 0 ? 1 : 0;
      flag = res == 0;
    } else if (op == "lsl" || op == "lsr" || op == "bsl" || op == "bsr") {
      const unsigned sh = unsigned(b & (bits - 1));
      if (op == "lsl") {
        res = (a << sh) & m;
      } else if (op == "lsr") {
        res = in.is_unsigned ? a >> sh : uint64_t(sign_extend(a, bits) >> sh) & m;
      } else if (op == "bsl") {
        res = sh ? ((a << sh) | (a >> (bits - sh))) & m : a;
      } else {
        res = sh ? ((a >> sh) | (a << (bits - sh))) & m : a;
      }
      flag = res == 0;
    } else if (op == "max" || op == "min") {
      bool x_wins, same;
      if (is_float) {
        same = mncore::equal(ff, a, b);
        x_wins = op == "max" ? !mncore::less(ff, a, b) : !mncore::less(ff, b, a);  // both zero: x
      } else if (in.is_unsigned) {
        same = a == b;
        x_wins = op == "max" ? a >= b : a <= b;
      } else {
        same = a == b;
        x_wins = op == "max" ? sign_extend(a, bits) >= sign_extend(b, bits) : sign_extend(a, bits) <= sign_extend(b, bits);
      }
      res = x_wins ? a : b;
      flag = x_wins || same;
    } else if (op == "packbit") {
      res = ((a << 1) | (b >> (bits - 1))) & m;
      flag = (b & msb) == 0;
    } else if (op == "ftoi" || op == "floor") {
      const double v = mncore::to_double(ff, a);
      if (op == "floor") {
        res = mncore::from_double(ff, std::isinf(v) ? v : std::floor(v));
      } else {
        const double t = std::trunc(in.is_unsigned ? std::fabs(v) : v);
        const double hi = in.is_unsigned ? std::ldexp(1.0, int(bits)) - 1 : std::ldexp(1.0, int(bits) - 1) - 1;
        const double lo = in.is_unsigned ? 0 : -std::ldexp(1.0, int(bits) - 1);
        const double cl = std::min(std::max(t, lo), hi);
        res = in.is_unsigned ? uint64_t(cl) & m : uint64_t(int64_t(cl)) & m;
      }
    } else if (op.compare(0, 4, "relu") == 0 || op == "lrelud" || op == "lreluo" || op == "ilrelud") {
      const unsigned which = op.size() == 5 && op[4] >= '1' && op[4] <= '3' ? unsigned(op[4] - '0') : 0;
      flag = ((a >> (bits - 1 - which)) & 1) == 0;
      if (op == "ilrelud") {
        res = flag ? b : mncore::mul(ff, b, mncore::from_double(ff, 2.0));  // y with its exponent one up (M 7.8)
      } else if (op == "lrelud" || op == "lreluo") {
        res = flag ? b : mncore::mul(ff, b, mncore::from_double(ff, op == "lrelud" ? 0.5 : 0.125));
      } else {
        res = flag ? b : msb;  // -0
      }
    } else {
      fail(fmt::format("'{}{}' is not modelled", prec, op));
    }
  }

  // ------------------------------------------------------------------ MAU vector mode
  // x*y + z in the MAU: one rounding to the output format, then the output normalisation
  // (a zero result is +0). A zero product stays zero even against an infinity, and
  // inf - inf gives +inf (docs/mncore2-isa.md, assumptions).
  static uint64_t mau_fma(FloatFormat in_f, FloatFormat z_f, FloatFormat out_f, uint64_t x, uint64_t y, uint64_t z, bool has_y,
                          bool has_z, bool nx, bool ny, bool nz) {
    double a = mncore::to_double(in_f, x), b = has_y ? mncore::to_double(in_f, y) : 1.0;
    double c = has_z ? mncore::to_double(z_f, z) : 0.0;
    if (nx) a = -a;
    if (ny) b = -b;
    if (nz) c = -c;
    double r;
    if (a == 0 || b == 0) {
      const double p = std::signbit(a) != std::signbit(b) ? -0.0 : 0.0;
      r = has_z ? c + p : p;
    } else if (std::isinf(a) || std::isinf(b) || std::isinf(c)) {
      const double p = a * b;
      r = std::isinf(p) && std::isinf(c) && std::signbit(p) != std::signbit(c) ? INFINITY : p + c;
    } else {
      r = has_z ? std::fma(a, b, c) : a * b;
    }
    uint64_t out = mncore::from_double(out_f, r);
    if (mncore::to_double(out_f, out) == 0) out = 0;  // normalised zero: +0
    return out;
  }

  Output mau(const Instr& in) {
    Output out;
    out.in = &in;
    out.fwd = 1;
    out.v.resize(size_t(s_.n) * 4);
    out.f.resize(size_t(s_.n) * 4);
    const std::string& op = in.op;  // vfma vmul vadd vpassa
    const bool fma = op == "vfma", add = op == "vadd";
    for (const auto& o : in.src) {
      if (o.space == Space::Immediate && !o.imm_is_word) fail(fmt::format("'{}': a MAU input literal is f\"..\" or h\"..\"", o.text));
    }
    for (unsigned pe = 0; pe < s_.n; ++pe) {
      const unsigned q = pe % sh_.pe_per_mab;
      for (unsigned c = 0; c < 4; ++c) {
        const size_t i = size_t(pe) * 4 + c;
        const V x = read(in.src[0], pe, c, in.prec);
        const V y = in.src.size() > 1 ? read(in.src[1], pe, c, in.prec) : V{};
        const V z = in.src.size() > 2 ? read(in.src[2], pe, c, in.prec) : V{};
        const bool nx = in.src[0].negate, ny = in.src.size() > 1 && in.src[1].negate, nz = in.src.size() > 2 && in.src[2].negate;
        // The results in the op's output format (d: double, f and h: single), or with `r`
        // rounded straight to the next narrower one (M 9.5.3), packed from the top of the datapath.
        const unsigned n = in.prec == 'd' ? 1 : in.prec == 'f' ? 2 : 4;
        const FloatFormat in_f = format_of(in.prec);
        const FloatFormat base_f = in.prec == 'd' ? FloatFormat::Double : FloatFormat::Single;
        const FloatFormat out_f = !in.reduce_output ? base_f : base_f == FloatFormat::Double ? FloatFormat::Single : FloatFormat::Half;
        const unsigned out_bits = out_f == FloatFormat::Double ? 64 : out_f == FloatFormat::Single ? 32 : 16;
        const unsigned in_bits = lane_bits(in.prec), base_bits = base_f == FloatFormat::Double ? 64 : 32;
        auto base_lane = [&](const V& v, unsigned j) {  // lane j of an addend in the base format
          const unsigned per = 64 / base_bits;
          return lane(j < per ? v.hi : v.lo, base_bits, j % per);
        };
        // dv(fma|mul)u: the products of PEs 0 and 1, dv(fma|mul)d: of PEs 2 and 3; the other
        // pair passes its addend through (0 for mul).
        const bool computes = !in.half || (in.half == 'u') == (q < 2);
        V r;
        uint8_t f = 0;
        for (unsigned j = 0; j < n; ++j) {
          const uint64_t a = lane(x.hi, in_bits, j), b = lane(y.hi, in_bits, j);
          uint64_t res;
          if (!computes) {
            res = fma ? mau_fma(in_f, base_f, out_f, 0, 0, base_lane(z, j), true, true, false, false, nz) : 0;
          } else if (add) {  // x * 1 + y, y in the base format
            res = mau_fma(in_f, base_f, out_f, a, 0, base_lane(y, j), false, true, nx, false, ny);
          } else {
            res = mau_fma(in_f, base_f, out_f, a, b, base_lane(z, j), op != "vpassa", fma, nx, ny, nz);
          }
          const unsigned per = 64 / out_bits;
          set_lane(j < per ? r.hi : r.lo, out_bits, j % per, res);
          f |= flag_bits(n, j, (res >> (out_bits - 1)) == 0);
        }
        out.v[i] = r;
        out.f[i] = f;
      }
    }
    return out;
  }

  // ------------------------------------------------------------------ MAU matrix mode
  // The MAB's matrix registers: plane x or y, 16 rows, each row one LW from each of the 4 PEs
  // (a double row: 4 doubles, a half row: 16 halves). Docs: docs/mncore2-isa.md.
  size_t mat_index(unsigned mab, Space plane, unsigned row, unsigned p) const {
    return ((size_t(mab) * 2 + (plane == Space::MatY)) * 16 + row) * sh_.pe_per_mab + p;
  }

  // <p>mwrite src $lx<a>: in cycle c, row a+c (two rows a+2c, a+2c+1 for $llx) takes every PE's value.
  std::vector<std::pair<size_t, uint64_t>> mwrite(const Instr& in) {
    const Operand& m = in.dst[0];
    const unsigned rows = m.width_sw == 4 ? 2 : 1;
    if (m.address + 4 * rows > 16) fail(fmt::format("'{}': rows {} to {} are beyond the 16 rows of a matrix register", m.text, m.address, m.address + 4 * rows - 1));
    std::vector<std::pair<size_t, uint64_t>> cells;
    for (unsigned pe = 0; pe < s_.n; ++pe) {
      const unsigned mab = pe / sh_.pe_per_mab, p = pe % sh_.pe_per_mab;
      for (unsigned c = 0; c < 4; ++c) {
        const V v = read(in.src[0], pe, c, in.prec);
        cells.push_back({mat_index(mab, m.space, m.address + rows * c, p), v.hi});
        if (rows == 2) cells.push_back({mat_index(mab, m.space, m.address + 2 * c + 1, p), v.lo});
      }
    }
    return cells;
  }

  // dmread $lx<a> dst: the transpose: in cycle c, PE p gets row a+p's element c.
  Output mread(const Instr& in) {
    Output out;
    out.in = &in;
    out.fwd = 3;
    out.v.resize(size_t(s_.n) * 4);
    const Operand& m = in.src[0];
    if (in.prec == 'h') {
      // hmread $llx<a>: cycle c reads columns a+2c and a+2c+1; PE p gets their rows 4p..4p+3
      // (one LW each): the transpose of hmwrite's layout, two instructions for the matrix.
      if (m.address % 2 || m.address + 8 > 16) fail(fmt::format("'{}': columns {} to {} (an even start, at most 15)", m.text, m.address, m.address + 7));
      for (unsigned pe = 0; pe < s_.n; ++pe) {
        const unsigned mab = pe / sh_.pe_per_mab, p = pe % sh_.pe_per_mab;
        for (unsigned c = 0; c < 4; ++c) {
          V v;
          for (unsigned h = 0; h < 2; ++h) {
            const unsigned col = m.address + 2 * c + h;
            uint64_t w = 0;
            for (unsigned k = 0; k < 4; ++k) set_lane(w, 16, k, lane(s_.mat[mat_index(mab, m.space, 4 * p + k, col / 4)], 16, col % 4));
            (h ? v.lo : v.hi) = w;
          }
          out.v[size_t(pe) * 4 + c] = v;
        }
      }
      return out;
    }
    if (in.prec == 'f' || in.prec == 'g') {
      // fmread/gmread $lx<a>: an 8 x 8 single matrix (rows as fmwrite wrote them, element k of
      // a row = PE k/2's upper or lower single); cycle c reads column a+c, PE p getting rows
      // 2p and 2p+1 (the public 8 x 8 Matrix-Square answer checks this with gmmul).
      if (m.address + 4 > 8) fail(fmt::format("'{}': columns {} to {} are beyond the 8 columns of a single matrix", m.text, m.address, m.address + 3));
      for (unsigned pe = 0; pe < s_.n; ++pe) {
        const unsigned mab = pe / sh_.pe_per_mab, p = pe % sh_.pe_per_mab;
        for (unsigned c = 0; c < 4; ++c) {
          const unsigned col = m.address + c;
          V v;
          for (unsigned h = 0; h < 2; ++h) set_lane(v.hi, 32, h, lane(s_.mat[mat_index(mab, m.space, 2 * p + h, col / 2)], 32, col % 2));
          out.v[size_t(pe) * 4 + c] = v;
        }
      }
      return out;
    }
    if (m.address + sh_.pe_per_mab > 16) fail(fmt::format("'{}': rows beyond the matrix register", m.text));
    for (unsigned pe = 0; pe < s_.n; ++pe) {
      const unsigned mab = pe / sh_.pe_per_mab, p = pe % sh_.pe_per_mab;
      for (unsigned c = 0; c < 4; ++c) out.v[size_t(pe) * 4 + c].hi = s_.mat[mat_index(mab, m.space, m.address + p, c)];
    }
    return out;
  }

  // <p>mmul $lx x dst / <p>mfma $lx x y dst: per cycle, the MAB's vector x (one LW per PE)
  // times the matrix: out[j] = sum_i X[j][i] x[i] (+ y[j]). The inner sum is formed in
  // extended precision and rounded once with the addend (M 9.7: no rounding inside the sum);
  // block floating point is not modelled, so inputs are ordinary numbers.
  Output matmul(const Instr& in) {
    Output out;
    out.in = &in;
    out.fwd = 1;
    out.v.resize(size_t(s_.n) * 4);
    out.f.resize(size_t(s_.n) * 4);
    const Operand& m = in.src[0];
    const bool fma = in.op == "mfma", half = in.prec == 'h';
    if (in.prec == 'f' || in.prec == 'g') return matmul_single(in, out);
    const unsigned P = sh_.pe_per_mab, n = half ? 16 : 4;
    if (m.address + n > 16) fail(fmt::format("'{}': rows beyond the matrix register", m.text));
    const FloatFormat in_f = half ? FloatFormat::Half : FloatFormat::Double;
    const FloatFormat out_f = half ? FloatFormat::Single : FloatFormat::Double;
    std::vector<long double> x(n);
    for (unsigned mab = 0; mab < s_.n / P; ++mab) {
      for (unsigned c = 0; c < 4; ++c) {
        for (unsigned p = 0; p < P; ++p) {
          const V v = read(in.src[1], mab * P + p, c, in.prec);
          for (unsigned k = 0; k < n / P; ++k) {
            double e = mncore::to_double(in_f, half ? lane(v.hi, 16, k) : v.hi);
            x[p * (n / P) + k] = in.src[1].negate ? -e : e;
          }
        }
        for (unsigned p = 0; p < P; ++p) {
          const unsigned pe = mab * P + p;
          const V y = fma ? read(in.src[2], pe, c, in.prec) : V{};
          V r;
          uint8_t f = 0;
          for (unsigned k = 0; k < n / P; ++k) {
            const unsigned j = p * (n / P) + k;  // output element j lands on PE p
            const uint64_t ybits = half ? lane(k < 2 ? y.hi : y.lo, 32, k % 2) : y.hi;
            double addend = fma ? mncore::to_double(out_f, ybits) : 0.0;
            if (fma && in.src[2].negate) addend = -addend;
            uint64_t res;
            const bool computes = half || (in.half == 'u') == (p < 2);
            if (!computes) {
              res = fma ? mncore::from_double(out_f, addend) : 0;  // the other pair passes the addend
            } else {
              long double sum = 0;
              bool inf = false;
              for (unsigned i = 0; i < n; ++i) {
                const uint64_t wbits = s_.mat[mat_index(mab, m.space, m.address + j, i / (n / P))];
                const double w = mncore::to_double(in_f, half ? lane(wbits, 16, i % (n / P)) : wbits);
                if (w == 0 || x[i] == 0) continue;  // a zero product stays zero
                sum += (long double)w * x[i];
                inf |= std::isinf(w) || std::isinf(double(x[i]));
              }
              double total = double(sum + addend);
              if (std::isnan(total)) total = INFINITY;
              (void)inf;
              res = mncore::from_double(out_f, total);
              if (mncore::to_double(out_f, res) == 0) res = 0;
            }
            if (half) {
              set_lane(k < 2 ? r.hi : r.lo, 32, k % 2, res);
              f |= flag_bits(4, k, (res >> 31) == 0);
            } else {
              r.hi = res;
              f = flag_bits(1, 0, (res >> 63) == 0);
            }
          }
          out.v[size_t(pe) * 4 + c] = r;
          out.f[size_t(pe) * 4 + c] = f;
        }
      }
    }
    stats_.macs += uint64_t(s_.n / P) * 4 * (half ? 256 : 8);
    return out;
  }

  // gmmul/gmfma (pseudo-single, 8 x 8) and fmmul/fmfma (single, 8 x 4: the even columns, M
  // 2.5.3): per cycle the MAB's 8 singles x (PE k/2's upper or lower single) times the 8-row
  // matrix: out[j] = sum_k X[j][k] x[k] (+ y[j]) over k = 0..7 (g) or the even k (f, assumed:
  // the upper single of each PE); PE j/2 gets out[j] in its upper (even j) or lower single.
  // The sum is formed in extended precision and rounded once with the addend (M 9.7).
  Output matmul_single(const Instr& in, Output& out) {
    const Operand& m = in.src[0];
    const unsigned P = sh_.pe_per_mab;
    const bool fma = in.op == "mfma", pseudo = in.prec == 'g';
    if (m.address + 8 > 16) fail(fmt::format("'{}': rows beyond the matrix register", m.text));
    const FloatFormat sf = FloatFormat::Single;
    std::vector<long double> x(8);
    for (unsigned mab = 0; mab < s_.n / P; ++mab) {
      for (unsigned c = 0; c < 4; ++c) {
        for (unsigned k = 0; k < 8; ++k) {
          const V v = read(in.src[1], mab * P + k / 2, c, in.prec);
          const double e = mncore::to_double(sf, lane(v.hi, 32, k % 2));
          x[k] = in.src[1].negate ? -e : e;
        }
        for (unsigned p = 0; p < P; ++p) {
          const unsigned pe = mab * P + p;
          const V y = fma ? read(in.src[2], pe, c, in.prec) : V{};
          V r;
          r.lo = 0;
          uint8_t f = 0;
          for (unsigned h = 0; h < 2; ++h) {
            const unsigned j = 2 * p + h;
            double addend = fma ? mncore::to_double(sf, lane(y.hi, 32, h)) : 0.0;
            if (fma && in.src[2].negate) addend = -addend;
            long double sum = 0;
            for (unsigned k = 0; k < 8; k += pseudo ? 1 : 2) {
              const double w = mncore::to_double(sf, lane(s_.mat[mat_index(mab, m.space, m.address + j, k / 2)], 32, k % 2));
              if (w == 0 || x[k] == 0) continue;  // a zero product stays zero
              sum += (long double)w * x[k];
            }
            double total = double(sum + addend);
            if (std::isnan(total)) total = INFINITY;
            uint64_t res = mncore::from_double(sf, total);
            if (mncore::to_double(sf, res) == 0) res = 0;
            set_lane(r.hi, 32, h, res);
            f |= flag_bits(2, h, (res >> 31) == 0);
          }
          out.v[size_t(pe) * 4 + c] = r;
          out.f[size_t(pe) * 4 + c] = f;
        }
      }
    }
    stats_.macs += uint64_t(s_.n / P) * 4 * (pseudo ? 64 : 32);
    return out;
  }

  // ------------------------------------------------------------------ reductions (RRN)
  // Combines two long words lane by lane. Floating sums round once per addition, in
  // increasing child order; max/min compare sign-magnitude integers (docs/mncore2-isa.md).
  uint64_t combine(const std::string& rrn, uint64_t a, uint64_t b) const {
    const char p = rrn[0];
    const std::string op = rrn.substr(1);
    const unsigned bits = lane_bits(p), lanes = 64 / bits;
    uint64_t r = 0;
    for (unsigned j = 0; j < lanes; ++j) {
      const uint64_t x = lane(a, bits, j), y = lane(b, bits, j);
      uint64_t v;
      if (op == "fadd") {
        v = mncore::add(format_of(p), x, y);
        if (mncore::to_double(format_of(p), v) == 0) v = 0;
      } else if (op == "max" || op == "min") {
        const uint64_t msb = 1ull << (bits - 1);
        auto key = [&](uint64_t u) { return (u & msb) ? -int64_t(u & ~msb) - 1 : int64_t(u); };  // +0 > -0
        const bool x_big = key(x) >= key(y);
        v = (op == "max") == x_big ? x : y;
      } else if (op == "iadd") {
        v = (x + y) & lane_mask(bits);
      } else if (op == "band") {  // bitwise
        v = x & y;
      } else if (op == "bor") {
        v = x | y;
      } else if (op == "and") {  // logical: 1 when every input is nonzero (a public Contains answer relies on it)
        v = x != 0 && y != 0 ? 1 : 0;
      } else {
        v = x != 0 || y != 0 ? 1 : 0;
      }
      set_lane(r, bits, j, v);
    }
    return r;
  }

  // ------------------------------------------------------------------ L1BM <-> PE
  // Block memory addresses past the configured capacity are errors, not a wrap.
  // The address an instruction names must lie inside; the words it moves from there on wrap
  // around the memory (M 3.2).
  uint64_t in_range(const char* memory, uint64_t a, uint64_t size) const {
    (void)memory;
    return a % size;
  }
  void check_written(const Operand& o) const {
    uint64_t size = 0;
    const char* memory = "";
    switch (o.space) {
      case Space::L1BM: if (o.turnaround) return; size = sh_.l1bm_lw; memory = "L1BM"; break;
      case Space::L2BM: size = sh_.l2bm_lw; memory = "L2BM"; break;
      case Space::PDM: size = sh_.pdm_lw; memory = "PDM"; break;
      case Space::DRAM: size = sh_.dram_lw; memory = "DRAM"; break;
      default: return;
    }
    if (o.address >= size) fail(fmt::format("{} address {} is beyond the memory ({} long words)", memory, o.address, size));
  }
  uint64_t& lb(unsigned l1b, uint64_t a) { return s_.l1bm[size_t(l1b) * sh_.l1bm_lw + in_range("L1BM", a, sh_.l1bm_lw)]; }
  // The turnaround register $lbi: one step of an L1BM transfer (up to 64 LW per cycle).
  uint64_t& lbi(unsigned l1b, uint64_t a) { return s_.lbi[size_t(l1b) * kLbiLw + a % kLbiLw]; }
  uint64_t& lb_or_lbi(const Operand& o, unsigned l1b, uint64_t a) { return o.turnaround ? lbi(l1b, a) : lb(l1b, a); }
  uint64_t& lc(unsigned l2b, uint64_t a) { return s_.l2bm[size_t(l2b) * sh_.l2bm_lw + in_range("L2BM", a, sh_.l2bm_lw)]; }

  // The L1BM long word that PE (m, q) of the L1B exchanges in cycle c (per LW of the block,
  // w = 1 or 2 long words per PE per cycle). Layouts: docs/mncore2-isa.md.
  uint64_t l1b_index(const Instr& in, unsigned m, unsigned q, unsigned c, unsigned w) const {
    const uint64_t a = in.src[0].space == Space::L1BM ? in.src[0].address : in.dst[0].address;
    const unsigned P = sh_.pe_per_mab;
    if (in.op == "l1bmp") return a + uint64_t(c) * w;
    if (in.op == "l1bmm" || in.op == "l1bmr") return a + (uint64_t(c) * P + q) * w;
    if (in.op == "l1bmm4" || in.op == "l1bmr4") return a + (uint64_t(c) * 4 * P + (m / 4) * P + q) * w;
    // l1bmd: 64 long words per cycle; l1bmd+k: MAB m takes MAB (m+k)'s share, wrapping
    // around the L1B's MABs (assumed: the SDK's notes say only "the MAB to the right/left").
    const int M = int(sh_.mab_per_l1b);
    const unsigned ms = unsigned(((int(m) + in.shift) % M + M) % M);
    return a + uint64_t(c) * pes_per_l1b() + ms * P + q;
  }

  Output l1bm(const Instr& in) {
    Output out;
    const bool down = in.src[0].space == Space::L1BM;
    const unsigned w = (down ? in.src[0] : in.dst[0]).width_sw / 2;  // $lb: 1, $llb: 2
    if (in.op == "l1bmd" && w != 1) fail("l1bmd moves one long word per PE per cycle ($lb, not $llb)");
    if (down) {
      out.in = &in;
      out.fwd = 2;
      out.v.resize(size_t(s_.n) * 4);
      for (unsigned pe = 0; pe < s_.n; ++pe) {
        const unsigned lpe = pe % pes_per_l1b(), m = lpe / sh_.pe_per_mab, q = lpe % sh_.pe_per_mab;
        for (unsigned c = 0; c < 4; ++c) {
          const uint64_t idx = l1b_index(in, m, q, c, w);
          V v;
          v.hi = lb_or_lbi(in.src[0], l1b_of(pe), idx);
          if (w == 2) v.lo = lb_or_lbi(in.src[0], l1b_of(pe), idx + 1);
          out.v[size_t(pe) * 4 + c] = v;
        }
      }
      return out;
    }
    // PE -> L1BM: collect (l1bmm@, l1bmm4@, l1bmd) or reduce over MABs (l1bmr, l1bmr4).
    const Operand& src = in.src[0];
    if (src.space == Space::Immediate || src.space == Space::Identity) fail("a PE -> L1BM transfer reads a PE memory");
    const bool reduce = in.op == "l1bmr" || in.op == "l1bmr4";
    for (unsigned l1b = 0; l1b < sh_.l1bs(); ++l1b) {
      std::map<uint64_t, std::pair<uint64_t, bool>> acc;  // index -> value, set
      for (unsigned m = 0; m < sh_.mab_per_l1b; ++m) {
        if (in.op == "l1bmm" && int(m) != in.at) continue;              // l1bmm@m: MAB m only
        if (in.op == "l1bmm4" && m % 4 != unsigned(in.at) % 4) continue;  // l1bmm4@k: MABs 4j+k
        for (unsigned q = 0; q < sh_.pe_per_mab; ++q) {
          const unsigned pe = l1b * pes_per_l1b() + m * sh_.pe_per_mab + q;
          for (unsigned c = 0; c < 4; ++c) {
            const V v = read(src, pe, c, 'l');
            for (unsigned k = 0; k < w; ++k) {
              const uint64_t idx = l1b_index(in, m, q, c, w) + k;
              const uint64_t x = k ? v.lo : v.hi;
              auto& slot = acc[idx];
              slot.first = reduce && slot.second ? combine(in.rrn, slot.first, x) : x;
              slot.second = true;
            }
          }
        }
      }
      for (const auto& kv : acc) lb_or_lbi(in.dst[0], l1b, kv.first) = kv.second.first;
    }
    out.in = nullptr;
    return out;
  }

  // ------------------------------------------------------------------ L2BM <-> L1BM
  // L1B i belongs to the instruction's L1B set (no @: all of them, however many the board has).
  static bool in_set(const Instr& in, unsigned i) { return in.l1bset == 0xFF || (i < 8 && (in.l1bset >> i & 1)); }

  void l2bm(const Instr& in) {
    const uint64_t a = in.src[0].address, b = in.dst[0].address;
    const unsigned L = sh_.l1b_per_l2b;
    for (unsigned l2 = 0; l2 < sh_.l2bs(); ++l2) {
      if (in.op == "l2bmr2") {
        // Combine-reduce (M 3.6.7.7): per cycle c, 16 LW at a + 16c of every L1B; L1Bs 2j and
        // 2j+1 are reduced into words 16j.. of the 64 written at b + 64c.
        if (L != 8) fail(fmt::format("l2bmr2 pairs the 8 L1Bs of an L2B; this board has {}", L));
        for (uint64_t c = 0; c < 4; ++c) {
          for (unsigned j = 0; j < L / 2; ++j) {
            for (uint64_t k = 0; k < 16; ++k) {
              const uint64_t x = lb(l2 * L + 2 * j, a + 16 * c + k), y = lb(l2 * L + 2 * j + 1, a + 16 * c + k);
              lc(l2, b + 64 * c + 16 * j + k) = combine(in.rrn, x, y);
            }
          }
        }
      } else if (in.op == "l2bmi") {  // L1BM -> L1BM (M 3.6.7.9): all reads first, then the writes
        std::vector<std::pair<unsigned, std::vector<uint64_t>>> sent;
        for (unsigned i = 0; i < L; ++i) {
          if (!in_set(in, i)) continue;
          std::vector<uint64_t> data(64);
          for (uint64_t k = 0; k < 64; ++k) data[k] = lb(l2 * L + i, a + k);
          sent.push_back({i, std::move(data)});
        }
        for (const auto& from : sent) {
          for (unsigned i = 0; i < L; ++i) {
            if ((i & in.immode) != (from.first & in.immode)) continue;
            for (uint64_t k = 0; k < 64; ++k) lb(l2 * L + i, b + k) = from.second[k];
          }
        }
      } else if (in.op == "l2bmb") {  // broadcast 64 long words to the L1Bs (@set: those of the set)
        for (unsigned i = 0; i < L; ++i) {
          if (!in_set(in, i)) continue;
          for (uint64_t k = 0; k < 64; ++k) lb(l2 * L + i, b + k) = lc(l2, a + k);
        }
      } else if (in.op == "l2bmd" && in.src[0].space == Space::L2BM) {  // distribute: 8 LW per L1B per cycle
        for (unsigned i = 0; i < L; ++i) {
          if (!in_set(in, i)) continue;
          for (unsigned c = 0; c < 4; ++c) {
            for (unsigned k = 0; k < 8; ++k) lb(l2 * L + i, b + 8 * c + k) = lc(l2, a + 64 * c + 8 * i + k);
          }
        }
      } else if (in.op == "l2bmd") {  // collect
        for (unsigned i = 0; i < L; ++i) {
          for (unsigned c = 0; c < 4; ++c) {
            for (unsigned k = 0; k < 8; ++k) lc(l2, b + 64 * c + 8 * i + k) = lb(l2 * L + i, a + 8 * c + k);
          }
        }
      } else if (in.op == "l2bm@") {
        if (unsigned(in.at) >= L) fail(fmt::format("L1B {} does not exist (0 to {})", in.at, L - 1));
        for (uint64_t k = 0; k < 64; ++k) lc(l2, b + k) = lb(l2 * L + unsigned(in.at), a + k);
      } else {  // l2bmr[@set]: reduce the L1Bs of the set, in increasing order (M 3.6.7.6)
        for (uint64_t k = 0; k < 64; ++k) {
          bool first = true;
          uint64_t acc = 0;
          for (unsigned i = 0; i < L; ++i) {
            if (!in_set(in, i)) continue;
            acc = first ? lb(l2 * L + i, a + k) : combine(in.rrn, acc, lb(l2 * L + i, a + k));
            first = false;
          }
          lc(l2, b + k) = acc;
        }
      }
    }
  }

  // ------------------------------------------------------------------ MV (PDM, DRAM <-> L2BM)
  struct Node {
    Space space;
    unsigned index;  // group, or L2B (group-major)
  };
  std::vector<Node> nodes(const Operand& o) const {
    std::vector<Node> out;
    if (o.node >= 0 && unsigned(o.node) >= sh_.groups) fail(fmt::format("'{}': group {} does not exist", o.text, o.node));
    if (o.space == Space::L2BM) {
      if (o.node_l2b >= 0 && unsigned(o.node_l2b) >= sh_.l2b_per_group) fail(fmt::format("'{}': L2B {} does not exist", o.text, o.node_l2b));
      for (unsigned g = 0; g < sh_.groups; ++g) {
        for (unsigned l = 0; l < sh_.l2b_per_group; ++l) {
          if ((o.node < 0 || unsigned(o.node) == g) && (o.node_l2b < 0 || unsigned(o.node_l2b) == l)) {
            out.push_back({o.space, g * sh_.l2b_per_group + l});
          }
        }
      }
    } else {
      for (unsigned g = 0; g < sh_.groups; ++g) {
        if (o.node < 0 || unsigned(o.node) == g) out.push_back({o.space, g});
      }
    }
    return out;
  }
  uint64_t get(const Node& n, uint64_t a) {
    if (n.space == Space::PDM) return s_.pdm[size_t(n.index) * sh_.pdm_lw + in_range("PDM", a, sh_.pdm_lw)];
    if (n.space == Space::L2BM) return lc(n.index, a);
    auto it = s_.dram[n.index].find(in_range("DRAM", a, sh_.dram_lw));
    return it == s_.dram[n.index].end() ? 0 : it->second;
  }
  void put(const Node& n, uint64_t a, uint64_t v) {
    if (n.space == Space::PDM) {
      s_.pdm[size_t(n.index) * sh_.pdm_lw + in_range("PDM", a, sh_.pdm_lw)] = v;
    } else if (n.space == Space::L2BM) {
      lc(n.index, a) = v;
    } else {
      s_.dram[n.index][in_range("DRAM", a, sh_.dram_lw)] = v;
    }
  }

  void mv(const Instr& in) {
    ++stats_.mv;
    const Operand &so = in.src[0], &dop = in.dst[0];
    if (so.space != Space::L2BM && dop.space != Space::L2BM && in.op != "mvp" && in.op != "mvd") {
      fail("MV broadcasts and reductions have an L2BM side");
    }
    std::vector<Node> src = nodes(so), dst = nodes(dop);
    // The L2B's group of a node (L2BM nodes are numbered group * l2b_per_group + l2b).
    auto group_of = [&](const Node& n) { return n.space == Space::L2BM ? n.index / sh_.l2b_per_group : n.index; };
    const unsigned G = sh_.groups, C = sh_.l2b_per_group;
    // Per 64-LW unit on the L2BM side, each Group's DRAM holds 64 / groups LW per L2B number.
    const uint64_t share = 64 / G;
    // Whether words move between Groups (timing: Shape::mv_cross_*), and how many LW each
    // Group's side moves there.
    bool cross = false;
    uint64_t cross_words = in.size;
    auto crosses = [&](const std::vector<Node>& a, const std::vector<Node>& b) {
      for (const Node& x : a) {
        for (const Node& y : b) {
          if (group_of(x) != group_of(y)) return true;
        }
      }
      return false;
    };
    auto whole_board = [&](const char* shape) {
      if (64 % G) fail(fmt::format("{}: a 64-long-word unit does not split over {} groups", in.op, G));
      if (so.node >= 0 || dop.node >= 0 || so.node_l2b >= 0 || dop.node_l2b >= 0) {
        fail(fmt::format("{} moves between every Group and every L2BM ({}): its operands take no @", in.op, shape));
      }
    };
    if (in.op == "mvb4") {
      // DRAM -> L2BM distribute-broadcast (M 3.5.8.16): per 64-LW unit u, L2B number l of every
      // Group gets 64 / groups LW from each Group's DRAM, in Group order: Group g's words
      // d + (64·C/G)·u + (64/G)·l + k land at L2BM word b + 64u + (64/G)·g + k.
      whole_board("$d<a> $lc<b>");
      if (so.space != Space::DRAM || dop.space != Space::L2BM) fail("mvb4 moves DRAM ($d) to L2BM ($lc)");
      cross = G > 1;
      cross_words = in.size / 64 * share * C;  // each Group's DRAM side (M 3.5.8.16: 8 LW/cycle there)
      for (uint64_t u = 0; u < in.size / 64; ++u) {
        for (unsigned l = 0; l < C; ++l) {
          std::vector<uint64_t> row(64);
          for (unsigned g = 0; g < G; ++g) {
            for (uint64_t k = 0; k < share; ++k) row[g * share + k] = get({Space::DRAM, g}, so.address + u * share * C + l * share + k);
          }
          for (unsigned g = 0; g < G; ++g) {
            for (uint64_t k = 0; k < 64; ++k) put({Space::L2BM, g * C + l}, dop.address + 64 * u + k, row[k]);
          }
        }
      }
    } else if (in.op == "mvr4") {
      // L2BM -> DRAM combine-reduce (M 3.5.8.17): per unit u, L2B number l's 64 LW reduced over
      // the Groups, split in Group order: Group g's DRAM gets its 64 / groups LW at
      // d + (64·C/G)·u + (64/G)·l.
      whole_board("$lc<a> $d<b>");
      if (so.space != Space::L2BM || dop.space != Space::DRAM) fail("mvr4 moves L2BM ($lc) to DRAM ($d)");
      cross = G > 1;
      cross_words = in.size / 64 * share * C;
      for (uint64_t u = 0; u < in.size / 64; ++u) {
        for (unsigned l = 0; l < C; ++l) {
          std::vector<uint64_t> row(64);
          for (uint64_t k = 0; k < 64; ++k) {
            uint64_t acc = get({Space::L2BM, l}, so.address + 64 * u + k);
            for (unsigned g = 1; g < G; ++g) acc = combine(in.rrn, acc, get({Space::L2BM, g * C + l}, so.address + 64 * u + k));
            row[k] = acc;
          }
          for (unsigned g = 0; g < G; ++g) {
            for (uint64_t k = 0; k < share; ++k) put({Space::DRAM, g}, dop.address + u * share * C + l * share + k, row[g * share + k]);
          }
        }
      }
    } else if (in.op == "mvr" && so.space == Space::L2BM && so.node < 0 && so.node_l2b < 0 && dop.space != Space::L2BM &&
               dop.node < 0) {
      // Every L2BM reduced into every Group's DRAM (or PDM) (M 3.5.8.21): per unit u, the 64 LW
      // reduced over all L2Bs are split in Group order, Group g's share at d + (64/G)·u.
      whole_board("$lc<a> $d<b>");
      cross = G > 1;
      cross_words = in.size / 64 * share;
      for (uint64_t u = 0; u < in.size / 64; ++u) {
        for (uint64_t k = 0; k < 64; ++k) {
          uint64_t acc = get(src[0], so.address + 64 * u + k);
          for (size_t i = 1; i < src.size(); ++i) acc = combine(in.rrn, acc, get(src[i], so.address + 64 * u + k));
          put(dst[k / share], dop.address + share * u + k % share, acc);
        }
      }
    } else if (in.op == "mvd") {
      // Distribute one node over several (or collect several into one) in 16-LW chunks: the
      // one node's words 16N·t + 16i + k are node i's words 16t + k (N nodes). The chunk is
      // the 16 LW per node the manual gives for the board-wide MV modes (M 3.5.8.16, 3.5.8.17,
      // 3.5.8.21); an accepted count_up answer lays L2BM -> PDM concatenation out this way.
      const bool spread = src.size() == 1;
      const std::vector<Node>& many = spread ? dst : src;
      if (many.empty() || (!spread && dst.size() != 1)) {
        fail(fmt::format("mvd distributes one node over many or collects many into one: '{}' names {} node(s), '{}' {}",
                         so.text, src.size(), dop.text, dst.size()));
      }
      cross = crosses(spread ? src : dst, many);
      const uint64_t round = 16 * many.size();
      if (in.size % round) fail(fmt::format("mvd: {} long words are not whole 16-long-word chunks for {} nodes", in.size, many.size()));
      for (uint64_t t = 0; t < in.size / round; ++t) {
        for (size_t i = 0; i < many.size(); ++i) {
          for (uint64_t k = 0; k < 16; ++k) {
            const uint64_t one = round * t + 16 * i + k, each = 16 * t + k;
            if (spread) {
              put(many[i], dop.address + each, get(src[0], so.address + one));
            } else {
              put(dst[0], dop.address + one, get(many[i], so.address + each));
            }
          }
        }
      }
    } else if (in.op == "mvb2" || in.op == "mvr2") {
      // Inside each group: mvb2 copies the group's source to its L2BMs, mvr2 reduces the
      // group's L2BMs into its destination (M 6.5, 6.8).
      const std::vector<Node>& one = in.op == "mvb2" ? src : dst;
      const std::vector<Node>& two = in.op == "mvb2" ? dst : src;
      for (const Node& n : one) {
        std::vector<Node> mine;
        for (const Node& m : two) {
          if (group_of(m) == group_of(n)) mine.push_back(m);
        }
        for (uint64_t k = 0; k < in.size; ++k) {
          if (in.op == "mvb2") {
            const uint64_t v = get(n, so.address + k);
            for (const Node& m : mine) put(m, dop.address + k, v);
          } else if (!mine.empty()) {
            uint64_t acc = get(mine[0], so.address + k);
            for (size_t i = 1; i < mine.size(); ++i) acc = combine(in.rrn, acc, get(mine[i], so.address + k));
            put(n, dop.address + k, acc);
          }
        }
      }
    } else if (in.op == "mvp") {
      // Group-parallel copies between a Group memory (PDM, DRAM) and an L2BM named without
      // @: each Group pairs with its L2B 0 (assumed; a public sample's expected dump agrees).
      auto l2b0 = [&](const std::vector<Node>& l2, const std::vector<Node>& grp) {
        std::vector<Node> out;
        for (const Node& n : l2) {
          if (n.index % sh_.l2b_per_group == 0) out.push_back(n);
        }
        return out.size() == grp.size() ? out : l2;
      };
      if (src.size() != dst.size() && so.space == Space::L2BM && so.node < 0 && dop.space != Space::L2BM) src = l2b0(src, dst);
      if (src.size() != dst.size() && dop.space == Space::L2BM && dop.node < 0 && so.space != Space::L2BM) dst = l2b0(dst, src);
      if (src.size() != dst.size()) {
        fail(fmt::format("mvp copies node to node: '{}' names {} node(s), '{}' {}; name them with @group[.l2b]", so.text,
                         src.size(), dop.text, dst.size()));
      }
      for (size_t i = 0; i < src.size(); ++i) {
        cross = cross || group_of(src[i]) != group_of(dst[i]);
        for (uint64_t k = 0; k < in.size; ++k) put(dst[i], dop.address + k, get(src[i], so.address + k));
      }
    } else if (in.op == "mvb") {
      if (src.size() != 1) fail(fmt::format("mvb broadcasts from one node: give '{}' an @group", so.text));
      cross = crosses(src, dst);
      std::vector<uint64_t> data(in.size);
      for (uint64_t k = 0; k < in.size; ++k) data[k] = get(src[0], so.address + k);
      for (const auto& d : dst) {
        for (uint64_t k = 0; k < in.size; ++k) put(d, dop.address + k, data[k]);
      }
    } else {  // mvr<op>: reduce the source nodes into one
      if (dst.size() != 1) fail(fmt::format("a reduction writes one node: give '{}' an @group", dop.text));
      cross = crosses(src, dst);
      for (uint64_t k = 0; k < in.size; ++k) {
        uint64_t acc = get(src[0], so.address + k);
        for (size_t i = 1; i < src.size(); ++i) acc = combine(in.rrn, acc, get(src[i], so.address + k));
        put(dst[0], dop.address + k, acc);
      }
    }
    // The data moves now; the transfer occupies its path for its duration, which `wait` on
    // its tag observes. Inside a Group: the Data Engine (Shape::mv_*); between Groups the
    // words pass both the Data Engine and the inter-Group path (Shape::mv_cross_*): the
    // slower of the two and the longer start-up (assumed).
    uint64_t cycles = sh_.mv_latency_cycles + ceil_div(in.size, sh_.mv_lw_per_cycle);
    if (cross) {
      cycles = std::max(sh_.mv_latency_cycles, sh_.mv_cross_latency_cycles) +
               std::max(ceil_div(in.size, sh_.mv_lw_per_cycle), ceil_div(cross_words, sh_.mv_cross_lw_per_cycle));
    }
    const uint64_t done = s_.cycle + sh_.cycles_per_step + cycles;
    if (in.tag) {
      uint64_t& t = s_.tag_done[in.tag];
      t = std::max(t, done);
    }
  }

  // ------------------------------------------------------------------ d set / d get
  template <class F>
  void each_location(const Debug& d, unsigned deepest, F f) {
    const unsigned counts[5] = {sh_.groups, sh_.l2b_per_group, sh_.l1b_per_l2b, sh_.mab_per_l1b, sh_.pe_per_mab};
    for (unsigned l = 0; l <= deepest; ++l) {
      if (d.where[l] >= 0 && unsigned(d.where[l]) >= counts[l]) {
        fail(fmt::format("location index {}{} is out of range (0 to {})", "ncbmp"[l], d.where[l], counts[l] - 1));
      }
    }
    unsigned idx[5] = {0, 0, 0, 0, 0};
    std::function<void(unsigned)> rec = [&](unsigned l) {
      if (l > deepest) {
        f(idx);
        return;
      }
      for (unsigned i = 0; i < counts[l]; ++i) {
        if (d.where[l] >= 0 && unsigned(d.where[l]) != i) continue;
        idx[l] = i;
        rec(l + 1);
      }
    };
    rec(0);
  }

  static std::string value_text(double v) { return fmt::format("{:g}", v); }

  void print(const Debug& d, const std::string& name, const std::string& where, uint64_t addr, uint64_t v) {
    std::string body;
    if (d.type == 'd') {
      body = fmt::format("({}) (0x{:016x})", value_text(mncore::to_double(FloatFormat::Double, v)), v);
    } else if (d.type == 'f') {
      const uint32_t a = uint32_t(v >> 32), b = uint32_t(v);
      body = fmt::format("({}, {}) (0x{:08x}, 0x{:08x})", value_text(mncore::to_double(FloatFormat::Single, a)),
                         value_text(mncore::to_double(FloatFormat::Single, b)), a, b);
    } else if (d.type == 'h') {
      uint16_t h[4];
      for (unsigned j = 0; j < 4; ++j) h[j] = uint16_t(lane(v, 16, j));
      body = fmt::format("({}, {}, {}, {}) (0x{:04x}, 0x{:04x}, 0x{:04x}, 0x{:04x})",
                         value_text(mncore::to_double(FloatFormat::Half, h[0])), value_text(mncore::to_double(FloatFormat::Half, h[1])),
                         value_text(mncore::to_double(FloatFormat::Half, h[2])), value_text(mncore::to_double(FloatFormat::Half, h[3])),
                         h[0], h[1], h[2], h[3]);
    } else {
      const double f = mncore::to_double(FloatFormat::Double, v);  // MN-Core's reading: no subnormals
      body = fmt::format("(f:{}, i:{{{{0x{:X},0x{:X}}},{{0x{:X},0x{:X}}}}}, v:0x{:X})", value_text(f), lane(v, 16, 0), lane(v, 16, 1),
                         lane(v, 16, 2), lane(v, 16, 3), v);
    }
    dump_ += fmt::format("DEBUG-{}({},{}):{} #{}\n", name, where, addr, body, echo(d));
  }

  // The statement the dump line quotes. The emulator names the T register `$lt` there
  // whatever the program wrote (T1: `d get $tn0c0b0m0p0 4` prints `#d get $ltn0c0b0m0p0 4`).
  std::string echo(const Debug& d) const {
    const std::string& text = st_->text;
    if (d.target.space != Space::T) return text;
    const size_t at = text.find(d.target.text);
    if (at == std::string::npos) return text;
    const size_t t = d.target.text.find('t');
    return text.substr(0, at) + "$lt" + d.target.text.substr(t + 1) + text.substr(at + d.target.text.size());
  }

  // d get of a single word ($m, $n, $r, $s): the long word's forms narrowed to one word
  // (assumed; the public material shows only long-word dumps).
  void print_word(const Debug& d, const char* name, const std::string& where, uint32_t addr, uint32_t w) {
    const uint16_t h0 = uint16_t(w >> 16), h1 = uint16_t(w);
    std::string body;
    if (d.type == 'f') {
      body = fmt::format("({}) (0x{:08x})", value_text(mncore::to_double(FloatFormat::Single, w)), w);
    } else if (d.type == 'h') {
      body = fmt::format("({}, {}) (0x{:04x}, 0x{:04x})", value_text(mncore::to_double(FloatFormat::Half, h0)),
                         value_text(mncore::to_double(FloatFormat::Half, h1)), h0, h1);
    } else {
      body = fmt::format("(f:{}, i:{{0x{:X},0x{:X}}}, v:0x{:X})", value_text(mncore::to_double(FloatFormat::Single, w)), h0, h1, w);
    }
    dump_ += fmt::format("DEBUG-{}({},{}):{} #{}\n", name, where, addr, body, st_->text);
  }

  void debug(const Debug& d) {
    const Space sp = d.target.space;
    const bool pe_level = sp == Space::LM0 || sp == Space::LM1 || sp == Space::GRF0 || sp == Space::GRF1 || sp == Space::T || sp == Space::Omr;
    const unsigned deepest = pe_level ? 4 : sp == Space::L1BM ? 2 : sp == Space::L2BM ? 1 : 0;
    const char* name = sp == Space::LM0 ? "LM0" : sp == Space::LM1 ? "LM1" : sp == Space::GRF0 ? "GREG0" : sp == Space::GRF1 ? "GREG1"
                     : sp == Space::T ? "TREG" : sp == Space::Omr ? "OMR" : sp == Space::L1BM ? "L1BM" : sp == Space::L2BM ? "L2BM"
                     : sp == Space::PDM ? "PDM" : "DRAM";
    if (d.type && d.type != 'd' && d.type != 'f' && d.type != 'h') fail("d get takes d, f or h");
    each_location(d, deepest, [&](const unsigned* idx) {
      std::string where;
      for (unsigned l = 0; l <= deepest; ++l) where += fmt::format("{}{}", "ncbmp"[l], idx[l]);
      const unsigned pe = ((((idx[0] * sh_.l2b_per_group + idx[1]) * sh_.l1b_per_l2b + idx[2]) * sh_.mab_per_l1b + idx[3]) * sh_.pe_per_mab + idx[4]);
      const unsigned l1b = (idx[0] * sh_.l2b_per_group + idx[1]) * sh_.l1b_per_l2b + idx[2];
      const unsigned l2b = idx[0] * sh_.l2b_per_group + idx[1];
      for (uint32_t i = 0; i < d.count; ++i) {
        uint64_t* cell = nullptr;
        uint64_t tmp = 0, addr = 0;
        if (sp == Space::Omr) {
          if (d.set) fail("mask registers are not set by d set");
          for (unsigned c = 0; c < 4; ++c) {
            const unsigned e = d.target.omr + i;
            if (e > 31) fail("mask register entries end at 31");
            dump_ += fmt::format("DEBUG-OMR({},{}):Mask{{{}}} #{}\n", where, e, omr_nibble(e, pe, c), st_->text);
          }
          continue;
        }
        if (sp == Space::T) {
          if (i >= 8) fail("the T register holds 8 long words");
          V& t = s_.t[size_t(pe) * 4 + i % 4];
          cell = i < 4 ? &t.hi : &t.lo;
          addr = i;
        } else if (pe_level && d.target.width_sw == 1) {
          const uint32_t sw = d.target.address + i;
          if (sw >= s_.size_sw(sp)) fail(fmt::format("'{}': address {} is beyond the memory ({} words)", d.target.text, sw, s_.size_sw(sp)));
          uint32_t& word = s_.words(sp)[size_t(pe) * s_.size_sw(sp) + sw];
          if (d.set) {
            word = uint32_t(d.payload[i]);
          } else {
            print_word(d, name, where, sw, word);
          }
          continue;
        } else if (pe_level) {
          const uint32_t sw = d.target.address + 2 * i;
          if (sw + 1 >= s_.size_sw(sp)) fail(fmt::format("'{}': address {} is beyond the memory ({} words)", d.target.text, sw, s_.size_sw(sp)));
          tmp = (uint64_t(s_.words(sp)[size_t(pe) * s_.size_sw(sp) + sw]) << 32) | s_.words(sp)[size_t(pe) * s_.size_sw(sp) + sw + 1];
          addr = sw;
          if (d.set) {
            s_.words(sp)[size_t(pe) * s_.size_sw(sp) + sw] = uint32_t(d.payload[i] >> 32);
            s_.words(sp)[size_t(pe) * s_.size_sw(sp) + sw + 1] = uint32_t(d.payload[i]);
            continue;
          }
          print(d, name, where, addr, tmp);
          continue;
        } else {
          addr = d.target.address + i;
          const uint64_t size = sp == Space::L1BM ? sh_.l1bm_lw : sp == Space::L2BM ? sh_.l2bm_lw : sp == Space::PDM ? sh_.pdm_lw : sh_.dram_lw;
          if (addr >= size) fail(fmt::format("'{}': address {} is beyond the memory ({} long words)", d.target.text, addr, size));
          const Node n{sp, sp == Space::L1BM ? l1b : sp == Space::L2BM ? l2b : idx[0]};
          if (sp == Space::L1BM) {
            cell = &lb(l1b, addr);
          } else if (d.set) {
            put(n, addr, d.payload[i]);
            continue;
          } else {
            tmp = get(n, addr);
            cell = &tmp;
          }
        }
        if (d.set) {
          *cell = d.payload[i];
        } else {
          print(d, name, where, addr, *cell);
        }
      }
    });
  }

  const Shape& sh_;
  Machine::State& s_;
  RunStats& stats_;
  const Program& p_;
  std::string& dump_;
  const Machine::StepObserver& observer_;
  const Statement* st_ = nullptr;
};

}  // namespace

void Machine::run(const Program& program, std::string& dump) {
  Runner(shape_, *s_, stats_, program, dump, observer_).run();
  stats_.cycles = s_->cycle;
}

}  // namespace npuvp::mncore::vsm
