// VSM text -> statements. One line is one step (4 cycles); `a ; b` issues several instructions
// in that step. Every token is understood or is an error with its line and column: nothing is
// dropped. Grammar and sources: docs/mncore2-isa.md.
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <regex>
#include <set>

#include "models/mncore/vsm.h"
#include "models/numerics/mncore_float.h"

namespace npuvp::mncore {

AssemblyError::AssemblyError(std::string source, unsigned line, unsigned column, const std::string& message)
    : std::runtime_error(fmt::format("{} line {}, column {}: {}", source, line, column, message)),
      source_(std::move(source)),
      line_(line),
      column_(column),
      message_(message) {}

}  // namespace npuvp::mncore

namespace npuvp::mncore::vsm {

uint64_t Program::steps() const {
  uint64_t n = 0;
  for (const auto& s : statements) {
    if (s.kind == Statement::Kind::Step) n += s.repeat;
  }
  return n;
}

namespace {

struct Token {
  std::string text;
  unsigned column;  // 1-based
};

const std::set<std::string> kAluOps = {"passa", "inc", "dec", "add", "sub", "and", "or", "xor", "not", "lnot",
                                       "lsl", "lsr", "bsl", "bsr", "max", "min", "packbit", "ftoi", "floor",
                                       "relu", "relu0", "relu1", "relu2", "relu3", "lrelud", "lreluo", "ilrelud", "bfn"};
// Which precisions each ALU operation accepts (manual 3.6, as summarised in docs/mncore2-isa.md).
const char* alu_precisions(const std::string& op) {
  if (op == "passa" || op == "max" || op == "min" || op == "packbit") return "dfhlis";
  if (op == "ftoi" || op == "floor" || op.compare(0, 4, "relu") == 0 || op == "lrelud" || op == "lreluo" || op == "ilrelud") return "dfh";
  if (op == "bfn") return "dfgh";
  return "lis";  // integer operations
}
const std::set<std::string> kRrn = {"dfadd", "ffadd", "hfadd", "dmax", "fmax", "hmax", "dmin", "fmin", "hmin",
                                    "liadd", "iiadd", "siadd", "land", "iand", "sand", "lor", "ior", "sor",
                                    "lband", "iband", "sband", "lbor", "ibor", "sbor"};

class LineParser {
 public:
  LineParser(const std::string& source, unsigned line) : source_(source), line_(line) {}

  [[noreturn]] void fail(unsigned column, const std::string& message) const {
    throw AssemblyError(source_, line_, column, message);
  }

  // Splits `text` (columns offset by `base`) into whitespace-separated tokens; commas inside
  // [] stay in their token, elsewhere they separate too.
  std::vector<Token> tokens(const std::string& text, unsigned base) const {
    std::vector<Token> out;
    size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && (std::isspace(static_cast<unsigned char>(text[i])) || text[i] == ',')) ++i;
      if (i >= text.size()) break;
      size_t start = i;
      int depth = 0;
      bool quote = false;
      while (i < text.size()) {
        char c = text[i];
        if (c == '"') quote = !quote;
        if (!quote) {
          if (c == '[') ++depth;
          if (c == ']') --depth;
          if (depth == 0 && (std::isspace(static_cast<unsigned char>(c)) || c == ',')) break;
        }
        ++i;
      }
      out.push_back({text.substr(start, i - start), base + unsigned(start) + 1});
    }
    return out;
  }

  static bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  }

  uint32_t number(const std::string& s, unsigned column, const char* what) const {
    if (!all_digits(s)) fail(column, fmt::format("expected {} (a decimal number), found '{}'", what, s));
    unsigned long long v = std::strtoull(s.c_str(), nullptr, 10);
    if (v > 0xFFFFFFFFull) fail(column, fmt::format("{} {} is out of range", what, s));
    return uint32_t(v);
  }

  // A literal: 12, -3, 0x1F, i"-5", ui"7", f"1.5", h"1.5", d"2".
  bool literal(const Token& t, Operand& o) const {
    const std::string& s = t.text;
    static const std::regex quoted(R"(^(ui|i|us|s|f|h|d)\"([^\"]*)\"$)");
    std::smatch m;
    o.space = Space::Immediate;
    o.column = t.column;
    o.text = s;
    if (std::regex_match(s, m, quoted)) {
      const std::string kind = m[1], body = m[2];
      char* end = nullptr;
      errno = 0;
      if (kind == "i" || kind == "ui" || kind == "s" || kind == "us") {
        // Decimal, 0x.. or 0b.. (public answers write bit patterns as i"0b0111").
        const bool neg = !body.empty() && body[0] == '-';
        const std::string digits = neg ? body.substr(1) : body;
        const bool bin = digits.size() > 2 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B');
        long long v = std::strtoll(bin ? digits.c_str() + 2 : digits.c_str(), &end, bin ? 2 : 0);
        if (digits.empty() || *end || errno || (!digits.empty() && digits[0] == '-')) fail(t.column, fmt::format("'{}': not an integer", s));
        if (neg) v = -v;
        const bool word = kind == "i" || kind == "ui", is_signed = kind == "i" || kind == "s";
        if (word && is_signed && (v < INT32_MIN || v > INT32_MAX) && !(bin && v <= int64_t(UINT32_MAX) && v >= 0)) {
          fail(t.column, fmt::format("'{}' does not fit a signed 32-bit word", s));
        }
        if (word && !is_signed && (v < 0 || v > int64_t(UINT32_MAX))) fail(t.column, fmt::format("'{}' does not fit an unsigned 32-bit word", s));
        if (!word && is_signed && (v < INT16_MIN || v > 0xFFFF)) fail(t.column, fmt::format("'{}' does not fit a 16-bit half word", s));
        if (!word && !is_signed && (v < 0 || v > 0xFFFF)) fail(t.column, fmt::format("'{}' does not fit an unsigned 16-bit half word", s));
        // A 16-bit payload (s"..", us"..") fills both halves of the word, as h"..".
        o.imm = word ? uint32_t(v) : ((uint32_t(v) & 0xFFFF) << 16) | (uint32_t(v) & 0xFFFF);
      } else {
        double v = std::strtod(body.c_str(), &end);
        if (body.empty() || *end) fail(t.column, fmt::format("'{}': not a number", s));
        if (kind == "f") {
          o.imm = single_from_double(v);
        } else if (kind == "h") {
          const uint32_t h = half_from_double(v);
          o.imm = (h << 16) | h;  // a half payload fills both halves of the word
        } else {
          fail(t.column, fmt::format("'{}': a double does not fit the 32-bit immediate payload; use an f\"..\" or two words", s));
        }
      }
      o.imm_is_word = true;
      return true;
    }
    static const std::regex integer(R"(^-?(0[xX][0-9a-fA-F]+|[0-9]+)$)");
    if (std::regex_match(s, integer)) {
      errno = 0;
      long long v = std::strtoll(s.c_str(), nullptr, 0);
      if (errno) fail(t.column, fmt::format("'{}' is out of range", s));
      o.imm = uint64_t(v);
      return true;
    }
    return false;
  }

  // `/1000`, `/ll0110`, `/$imr3`, `/$llimr3` after a destination.
  void write_mask(const std::string& m, unsigned column, Operand& o) const {
    static const std::regex fixed(R"(^(ll)?([01]{4})$)"), reg(R"(^\$(ll)?imr([0-9]+)$)");
    std::smatch x;
    o.has_mask = true;
    if (std::regex_match(m, x, fixed)) {
      const std::string bits = x[2];
      for (unsigned c = 0; c < 4; ++c) o.mask_bits[c] = bits[c] == '1' ? 0xF : 0;
      return;
    }
    if (std::regex_match(m, x, reg)) {
      const uint32_t e = number(x[2], column, "mask register entry");
      if (e < 1 || e > 31) fail(column, fmt::format("'/{}': mask register entries are 1 to 31", m));
      o.mask_omr = int(e);
      return;
    }
    fail(column, fmt::format("unknown write mask '/{}' (expected /1010, /$imrN or /$llimrN)", m));
  }

  // A register or memory operand of a PE instruction (source or destination).
  Operand operand(const Token& t, bool destination) const {
    Operand o;
    o.column = t.column;
    o.text = t.text;
    std::string s = t.text;
    if (destination) {
      const size_t slash = s.find('/');
      if (slash != std::string::npos) {
        write_mask(s.substr(slash + 1), t.column + unsigned(slash) + 1, o);
        s = s.substr(0, slash);
      }
    }
    if (!destination && !s.empty() && s[0] != '$' && literal(Token{s, t.column}, o)) return o;  // 12, -3, i"..."
    if (!s.empty() && s[0] == '-') {
      o.negate = true;
      s = s.substr(1);
    }
    if (s.empty() || s[0] != '$') {
      if (!destination && !o.negate && literal(t, o)) return o;
      if (!destination && o.negate && literal(Token{s, t.column + 1}, o)) {
        fail(t.column, fmt::format("'{}': write a negative literal as -N, not as a negated operand", t.text));
      }
      fail(t.column, fmt::format("unknown operand '{}'", t.text));
    }
    const std::string name = s.substr(1);
    static const std::pair<const char*, Space> fwd[] = {
        {"aluf", Space::Aluf}, {"mauf", Space::Mauf}, {"lbf", Space::Lbf}, {"mreadf", Space::Mreadf}, {"nowrite", Space::NoWrite}};
    for (const auto& f : fwd) {
      const size_t fl = std::strlen(f.first);
      if (!destination && name.size() == fl + 1 && name.compare(0, fl, f.first) == 0 && (name[fl] == 'e' || name[fl] == 'r') &&
          f.second != Space::NoWrite) {
        o.space = f.second;
        o.convert = name[fl];
        return o;
      }
      if (name == f.first) {
        o.space = f.second;
        if (destination != (o.space == Space::NoWrite)) {
          fail(t.column, fmt::format("'{}' cannot be a {}", t.text, destination ? "destination" : "source"));
        }
        return o;
      }
    }
    static const std::pair<const char*, Ident> ids[] = {{"peid", Ident::PeId},   {"subpeid", Ident::SubPeId},
                                                        {"mabid", Ident::MabId}, {"l1bid", Ident::L1bId},
                                                        {"l2bid", Ident::L2bId}, {"msb1", Ident::Msb1}};
    for (const auto& f : ids) {
      if (name == f.first) {
        if (destination) fail(t.column, fmt::format("'{}' is read-only", t.text));
        o.space = Space::Identity;
        o.ident = f.second;
        return o;
      }
    }
    std::smatch m;
    static const std::regex omr(R"(^omr([0-9]+)$)");
    if (std::regex_match(name, m, omr)) {
      if (!destination) fail(t.column, "mask registers are read through a write mask (/$imrN), not as a source");
      const uint32_t e = number(m[1], t.column + 4, "mask register entry");
      if (e < 1 || e > 15) fail(t.column, fmt::format("'{}': only entries 1 to 15 can be written", t.text));
      o.space = Space::Omr;
      o.omr = e;
      return o;
    }
    // $[l]mb, $[l]nb: the LM base address registers (M 4.7, 4.9), written only.
    static const std::regex bar(R"(^(l)?([mn])b$)");
    if (std::regex_match(name, m, bar)) {
      if (!destination) fail(t.column, fmt::format("'{}': a base address register is written, not read", t.text));
      o.space = m[2] == "m" ? Space::LmBar : Space::LnBar;
      o.width_sw = m[1].length() ? 2 : 1;
      return o;
    }
    static const std::regex treg(R"(^(ll|l)?t$)");
    if (std::regex_match(name, m, treg)) {
      o.space = Space::T;
      return o;
    }
    static const std::regex mat(R"(^(ll|l)([xy])([0-9]*)$)");
    if (std::regex_match(name, m, mat)) {
      o.space = m[2] == "x" ? Space::MatX : Space::MatY;
      o.width_sw = m[1] == "ll" ? 4 : 2;
      o.address = m[3].length() ? number(m[3], t.column, "matrix register row") : 0;
      return o;
    }
    static const std::regex lbi(R"(^(ll|l)?bi$)");
    if (std::regex_match(name, m, lbi)) {
      o.space = Space::L1BM;
      o.turnaround = true;
      o.width_sw = m[1] == "ll" ? 4 : 2;
      return o;
    }
    static const std::regex blk(R"(^(ll|l)b([0-9]+)v?$)");
    if (std::regex_match(name, m, blk)) {
      o.space = Space::L1BM;
      o.width_sw = m[1] == "ll" ? 4 : 2;
      o.address = number(m[2], t.column, "L1BM address");
      return o;
    }
    static const std::regex l2(R"(^lc([0-9]+)v?$)");
    if (std::regex_match(name, m, l2)) {
      o.space = Space::L2BM;
      o.width_sw = 2;
      o.address = number(m[1], t.column, "L2BM address");
      return o;
    }
    // PE memories: $[l|ll](m|n|r|s)(<addr>[v[<k>]] | [a,b,c,d] | t[<addr>[v[<k>]]])
    static const std::regex pe(R"(^(ll|l)?([mnrs])(t?)([0-9]+|\[[^\]]*\])?(v([0-9]*))?(j([0-9]))?(.*)$)");
    if (std::regex_match(name, m, pe)) {
      const std::string rest = m[9];
      if (!rest.empty()) {
        const unsigned col = t.column + unsigned(t.text.size() - rest.size());
        if (rest[0] == 'j') fail(col, fmt::format("'{}': j takes one digit, the last PE (0 to 3) whose address moves", t.text));
        if ((rest == "r" || rest == "e") && !destination) {
          o.convert = rest[0];
        } else {
          fail(col, fmt::format("unexpected '{}' in operand '{}'", rest, t.text));
        }
      }
      const char mem = m[2].str()[0];
      o.space = mem == 'm' ? Space::LM0 : mem == 'n' ? Space::LM1 : mem == 'r' ? Space::GRF0 : Space::GRF1;
      o.width_sw = m[1] == "ll" ? 4 : m[1] == "l" ? 2 : 1;
      o.t_indirect = m[3].length() > 0;
      if (o.t_indirect && o.space != Space::LM0) fail(t.column, fmt::format("'{}': T-register indirection exists for LM0 only", t.text));
      const std::string addr = m[4];
      if (addr.empty() && !o.t_indirect) fail(t.column, fmt::format("'{}' needs an address", t.text));
      if (!addr.empty() && addr[0] == '[') {
        if (m[5].length()) fail(t.column, fmt::format("'{}': a flat address list takes no v", t.text));
        std::vector<Token> parts = tokens(addr.substr(1, addr.size() - 2), t.column + unsigned(t.text.find('[')));
        if (parts.size() != 4) fail(t.column, fmt::format("'{}': a flat address list has one address per cycle (4)", t.text));
        for (unsigned c = 0; c < 4; ++c) o.flat_addr[c] = number(parts[c].text, parts[c].column, "address");
        o.flat = true;
      } else if (!addr.empty()) {
        o.address = number(addr, t.column, "address");
      }
      // `v` advances by the operand's width; `v<k>` by k SW addresses whatever the width
      // (public answers interleave `$ln0v4`/`$ln2v4` outputs and read `$lln0v8` as ln0,8,16,24).
      if (m[5].length()) o.stride = m[6].length() ? number(m[6], t.column, "address increment") : o.width_sw;
      if (m[7].length()) {
        if (o.t_indirect) fail(t.column, fmt::format("'{}': t and j cannot be combined", t.text));
        o.madpe = int(number(m[8], t.column, "MAB address modification"));
        if (o.madpe > 3) fail(t.column, fmt::format("'{}': j<k> names a PE of the MAB, 0 to 3", t.text));
      }
      auto check_align = [&](uint32_t a) {
        if (a % o.width_sw) {
          fail(t.column, fmt::format("'{}': a {} access needs an address that is a multiple of {}", t.text,
                                     o.width_sw == 2 ? "long-word" : "double-long-word", o.width_sw));
        }
      };
      if (o.flat) {
        for (uint32_t a : o.flat_addr) check_align(a);
      } else {
        check_align(o.address);
        check_align(o.stride);  // every cycle's address stays aligned
      }
      return o;
    }
    if (name.size() && (name[0] == 'd' || name[0] == 'p')) {
      fail(t.column, fmt::format("'{}': DRAM and PDM are reached by MV instructions only", t.text));
    }
    fail(t.column, fmt::format("unknown operand '{}' (memories: $m $n $r $s with l/ll, $t, $lb, $lc, $lx $ly; "
                               "paths: $aluf $mauf $lbf $mreadf; ids: $peid $subpeid $mabid $l1bid $l2bid)",
                               t.text));
  }

  // An operand of an MV instruction: $p<a>[@g], $d<a>[@g], $lc<a>[@g.l | @.l].
  Operand mv_operand(const Token& t) const {
    static const std::regex re(R"(^\$(p|d|lc)([0-9]+)v?(@([0-9]*)(\.([0-9]+))?)?$)");
    std::smatch m;
    if (!std::regex_match(t.text, m, re)) fail(t.column, fmt::format("unknown MV operand '{}' (expected $p<a>, $d<a> or $lc<a>, each with an optional @group[.l2b])", t.text));
    Operand o;
    o.column = t.column;
    o.text = t.text;
    o.space = m[1] == "p" ? Space::PDM : m[1] == "d" ? Space::DRAM : Space::L2BM;
    o.width_sw = 2;
    o.address = number(m[2], t.column, "address");
    if (m[4].length()) o.node = int(number(m[4], t.column, "group"));
    if (m[6].length()) {
      if (o.space != Space::L2BM) fail(t.column, fmt::format("'{}': only L2BM operands name an L2B", t.text));
      o.node_l2b = int(number(m[6], t.column, "L2B"));
    }
    return o;
  }

  // An L1B set (M 3.6.7.1): `<b0>/<immode>` takes L1B b when b & ~immode == b0 & ~immode (of
  // 3 bits); `<b0>` is `<b0>/0`; `[b,c,..]` lists them and must be one of those sets.
  void l1b_set(const std::string& spec, unsigned column, Instr& in) const {
    auto set_of = [](unsigned b0, unsigned immode) {
      uint8_t set = 0;
      for (unsigned b = 0; b < 8; ++b) {
        if ((b & ~immode & 7u) == (b0 & ~immode & 7u)) set = uint8_t(set | 1u << b);
      }
      return set;
    };
    if (spec[0] == '[' || spec.find(',') != std::string::npos) {
      const bool bracket = spec[0] == '[';
      if (bracket && spec.back() != ']') fail(column, fmt::format("'@{}': an L1B list is [b,c,...]", spec));
      uint8_t set = 0;
      for (const Token& t : tokens(bracket ? spec.substr(1, spec.size() - 2) : spec, column)) {
        const uint32_t b = number(t.text, t.column, "L1B");
        if (b > 7) fail(t.column, fmt::format("L1B {} does not exist (0 to 7)", b));
        set = uint8_t(set | 1u << b);
      }
      for (unsigned i = 0; i < 8; ++i) {
        for (unsigned b0 = 0; b0 < 8; ++b0) {
          if (set_of(b0, i) == set) {
            in.l1bset = set;
            in.immode = i;
            return;
          }
        }
      }
      fail(column, fmt::format("'@{}': not an L1B set the hardware can select (M 3.6.7.1, table 3.7)", spec));
    }
    const size_t slash = spec.find('/');
    const uint32_t b0 = number(spec.substr(0, slash), column, "L1B");
    const uint32_t immode = slash == std::string::npos ? 0 : number(spec.substr(slash + 1), column + unsigned(slash) + 1, "immode");
    if (b0 > 7 || immode > 7) fail(column, fmt::format("'@{}': the L1B and immode are 0 to 7", spec));
    in.l1bset = set_of(b0, immode);
    in.immode = immode;
  }

  void expect_count(const Instr& in, const std::vector<Token>& args, size_t lo, size_t hi, const char* shape) const {
    if (args.size() < lo || args.size() > hi) fail(in.column, fmt::format("'{}' takes {}", in.text, shape));
  }

  // One instruction of a step.
  Instr instruction(const std::string& text, unsigned base) const {
    std::vector<Token> tk = tokens(text, base);
    // An L2BM instruction's L1B list may be written without brackets (M 3.6.7.6's example
    // `l2bmrdfadd@0,4`): its commas belong to the opcode.
    const size_t head_end = text.find_first_of(" \t");
    if (text.compare(0, 4, "l2bm") == 0 && text.substr(0, head_end).find(',') != std::string::npos) {
      tk = head_end == std::string::npos ? std::vector<Token>{} : tokens(text.substr(head_end), base + unsigned(head_end));
      tk.insert(tk.begin(), Token{text.substr(0, head_end), base + 1});
    }
    Instr in;
    in.column = tk[0].column;
    in.text = text;
    std::string head = tk[0].text;
    std::vector<Token> args(tk.begin() + 1, tk.end());
    std::smatch m;
    // `<op>/<mask>`: a zero-flush mask on the opcode; `hbfn/<n>`: the block's mantissa length.
    std::string head_option;
    const size_t slash = head.find('/');
    // (mv.../<options> and an L2BM instruction's L1B set @<l1b>/<immode> keep their slash.)
    if (slash != std::string::npos && head.compare(0, 2, "mv") != 0 && !(head.compare(0, 4, "l2bm") == 0 && head.find('@') < slash)) {
      head_option = head.substr(slash + 1);
      head = head.substr(0, slash);
      if (head_option.size() == 1 && std::isdigit(static_cast<unsigned char>(head_option[0]))) {
        if (head != "hbfn") fail(in.column, fmt::format("'{}': /<mantissa length> belongs to hbfn", tk[0].text));
        in.bfn_mant = unsigned(head_option[0] - '0');
        if (in.bfn_mant < 6) fail(in.column, fmt::format("'{}': hbfn keeps 6 to 9 mantissa bits", tk[0].text));
      } else {
        write_mask(head_option, in.column + unsigned(slash) + 1, in.zero_flush);
      }
    }
    auto no_zero_flush = [&]() {
      if (in.zero_flush.has_mask) fail(in.column, fmt::format("'{}': this instruction takes no zero-flush mask", tk[0].text));
    };

    if (head == "nop") {
      no_zero_flush();
      if (!args.empty()) fail(args[0].column, "nop takes no operands");
      in.unit = Unit::Nop;
      return in;
    }
    if (head == "noforward") {
      in.unit = Unit::NoForward;
      return in;
    }
    if (head == "wait") {
      no_zero_flush();
      if (args.size() != 1) fail(in.column, "wait takes one tag (wait i01)");
      static const std::regex tag(R"(^i?([0-9a-fA-F]+)$)");
      if (!std::regex_match(args[0].text, m, tag)) fail(args[0].column, fmt::format("'{}': expected a tag such as i01", args[0].text));
      in.unit = Unit::Wait;
      in.tag = unsigned(std::strtoul(m[1].str().c_str(), nullptr, 16));
      if (in.tag == 0) fail(args[0].column, "wait: tag 0 is not a tag");
      return in;
    }
    // MV instructions: mv<mode>/n<size>[i<tag>] <src> <dst>
    // The options after '/' come in any order: n<size> (decimal), i<tag> (hex), p<priority>.
    static const std::regex mv(R"(^mv(p|b|b2|b4|d|r[a-z]+|r2[a-z]+|r4[a-z]+)/((n[0-9]+|i[0-9a-fA-F]+|p[0-3])+)$)");
    if (std::regex_match(head, m, mv)) {
      in.unit = Unit::Mv;
      const std::string kind = m[1];
      if (kind[0] == 'r') {
        const bool wide = kind.size() > 1 && (kind[1] == '2' || kind[1] == '4');
        in.op = wide ? "mvr" + kind.substr(1, 1) : "mvr";
        in.rrn = kind.substr(wide ? 2 : 1);
        if (!kRrn.count(in.rrn)) fail(in.column, fmt::format("'{}': unknown reduction '{}'", head, in.rrn));
      } else {
        in.op = "mv" + kind;
      }
      static const std::regex opt(R"((n)([0-9]+)|(i)([0-9a-fA-F]+)|(p)([0-3]))");
      const std::string opts = m[2];
      bool sized = false;
      for (auto it = std::sregex_iterator(opts.begin(), opts.end(), opt); it != std::sregex_iterator(); ++it) {
        const std::smatch& o = *it;
        if (o[1].length()) {
          in.size = number(o[2], in.column, "transfer size");
          sized = true;
        } else if (o[3].length()) {
          in.tag = unsigned(std::strtoul(o[4].str().c_str(), nullptr, 16));
        }
      }
      if (!sized) fail(in.column, fmt::format("'{}': an MV instruction needs its size n<long words>", head));
      if (in.size == 0 || in.size % 64) fail(in.column, fmt::format("'{}': the size must be a positive multiple of 64 long words", head));
      expect_count(in, args, 2, 2, "a source and a destination");
      in.src.push_back(mv_operand(args[0]));
      in.dst.push_back(mv_operand(args[1]));
      return in;
    }
    if (head.compare(0, 2, "mv") == 0) fail(in.column, fmt::format("unknown MV instruction '{}' (mvp, mvb, mvb2, mvb4, mvd, mvr<op>, mvr2<op>, mvr4<op> with /n<size>[i<tag>])", head));

    // L2BM instructions.
    static const std::regex l2(R"(^l2bm(b|d|i|r2[a-z]+|r[a-z]+)?(@(.+))?$)");
    if (std::regex_match(head, m, l2)) {
      no_zero_flush();
      in.unit = Unit::L2bm;
      const std::string kind = m[1];
      const bool pairs = kind.compare(0, 2, "r2") == 0;
      in.op = kind.empty() ? "l2bm@" : pairs ? "l2bmr2" : kind[0] == 'r' ? "l2bmr" : "l2bm" + kind;
      if (pairs) {
        // L1BM -> L2BM combine-reduce (M 3.6.7.7): every L1B takes part, no set.
        in.rrn = kind.substr(2);
        if (!kRrn.count(in.rrn)) fail(in.column, fmt::format("'{}': unknown reduction '{}'", head, in.rrn));
        if (m[3].length()) fail(in.column, fmt::format("'{}': l2bmr2 reads every L1B; it takes no L1B set", head));
        expect_count(in, args, 2, 2, "a source and a destination ($lb<a> $lc<b>)");
        in.src.push_back(operand(args[0], false));
        in.dst.push_back(operand(args[1], true));
        if (in.src[0].space != Space::L1BM || in.src[0].turnaround || in.dst[0].space != Space::L2BM) {
          fail(in.column, fmt::format("'{}': l2bmr2 moves $lb to $lc", text));
        }
        if (in.src[0].address % 16) fail(in.src[0].column, fmt::format("'{}': l2bmr2 reads from a multiple of 16 long words", in.src[0].text));
        if (in.dst[0].address % 64) fail(in.dst[0].column, fmt::format("'{}': l2bmr2 writes to a multiple of 64 long words", in.dst[0].text));
        return in;
      }
      if (in.op == "l2bmr") {
        in.rrn = kind.substr(1);
        if (!kRrn.count(in.rrn)) fail(in.column, fmt::format("'{}': unknown reduction '{}'", head, in.rrn));
      }
      if (m[3].length()) l1b_set(m[3], in.column + unsigned(head.find('@')) + 1, in);
      if (in.op == "l2bm@") {
        if (!m[3].length() || (in.l1bset & (in.l1bset - 1))) fail(in.column, "l2bm@<l1b> names the one L1B it collects from");
        for (int b = 0; b < 8; ++b) {
          if (in.l1bset == 1u << b) in.at = b;
        }
      }
      if (in.op == "l2bmi") {
        // L1BM -> L1BM through the L2B (M 3.6.7.9): the set names the sources, immode the groups.
        if (!m[3].length() || m[3].str()[0] == '[' || m[3].str().find(',') != std::string::npos) {
          fail(in.column, fmt::format("'{}': l2bmi takes its sources as @<l1b>/<immode>", head));
        }
        if (in.immode == 7) fail(in.column, fmt::format("'{}': l2bmi's immode is 0 to 6 (7 would send every L1B to itself)", head));
        expect_count(in, args, 2, 2, "a source and a destination ($lb<a> $lb<b>)");
        in.src.push_back(operand(args[0], false));
        in.dst.push_back(operand(args[1], true));
        for (const Operand* o : {&in.src[0], &in.dst[0]}) {
          if (o->space != Space::L1BM || o->turnaround) fail(o->column, fmt::format("'{}': l2bmi moves $lb to $lb", o->text));
          if (o->address % 16) fail(o->column, fmt::format("'{}': l2bmi addresses are multiples of 16 long words", o->text));
        }
        return in;
      }
      expect_count(in, args, 2, 2, "a source and a destination");
      in.src.push_back(operand(args[0], false));
      in.dst.push_back(operand(args[1], true));
      const bool down = in.src[0].space == Space::L2BM;
      const Space want_src = down ? Space::L2BM : Space::L1BM, want_dst = down ? Space::L1BM : Space::L2BM;
      if (in.src[0].space != want_src || in.dst[0].space != want_dst ||
          (down && (in.op == "l2bm@" || in.op == "l2bmr")) || (!down && in.op == "l2bmb")) {
        fail(in.column, fmt::format("'{}': operands must be $lc -> $lb (l2bmb, l2bmd) or $lb -> $lc (l2bmd, l2bm@, l2bmr)", text));
      }
      return in;
    }
    // L1BM instructions.
    static const std::regex l1(R"(^l1bm(p|m|m4|d|r[a-z]+|r4[a-z]+)([+-][0-9]+)?(@([0-9]+))?$)");
    if (std::regex_match(head, m, l1)) {
      in.unit = Unit::L1bm;
      std::string kind = m[1];
      if (m[2].length()) {
        if (kind != "d") fail(in.column, fmt::format("'{}': a MAB shift (+k, -k) exists for l1bmd only", head));
        in.shift = std::atoi(m[2].str().c_str());
      }
      if (kind[0] == 'r') {
        const bool four = kind.size() > 1 && kind[1] == '4';
        in.rrn = kind.substr(four ? 2 : 1);
        if (!kRrn.count(in.rrn)) fail(in.column, fmt::format("'{}': unknown reduction '{}'", head, in.rrn));
        kind = four ? "r4" : "r";
      }
      in.op = "l1bm" + kind;
      if (m[4].length()) in.at = int(number(m[4], in.column, "MAB"));
      expect_count(in, args, 2, 5, "a source and one or more destinations");
      in.src.push_back(operand(args[0], false));
      for (size_t i = 1; i < args.size(); ++i) in.dst.push_back(operand(args[i], true));
      // Through the turnaround register ($lbi) an L1BM instruction is of its own issue group.
      // The turnaround pair: writing it (PE -> $lbi) and reading it ($lbi -> PE) may issue in
      // one step, next to one ordinary L1BM transfer (M 7.1.1's packed example; public answers
      // pair `l1bmm $lbi ..; l1bmr.. .. $lbi`): the read sees the contents the step found.
      if (in.dst[0].turnaround) in.unit = Unit::L1bmTurn;
      if (in.src[0].turnaround) in.unit = Unit::L1bmTurnRead;
      const bool down = in.src[0].space == Space::L1BM;
      if (down) {
        if ((kind != "p" && kind != "m" && kind != "m4" && kind != "d") || in.at >= 0) {
          fail(in.column, fmt::format("'{}': $lb -> PE is l1bmp, l1bmm, l1bmm4 or l1bmd", text));
        }
        for (const auto& d : in.dst) {
          if (d.space != Space::LM0 && d.space != Space::LM1 && d.space != Space::GRF0 && d.space != Space::GRF1 &&
              d.space != Space::T && d.space != Space::NoWrite) {
            fail(d.column, fmt::format("'{}': the destination of an L1BM -> PE transfer is a PE memory", d.text));
          }
        }
      } else {
        if (in.dst.size() != 1 || in.dst[0].space != Space::L1BM) fail(in.column, fmt::format("'{}': PE -> L1BM has one $lb destination", text));
        if (kind == "p") fail(in.column, "l1bmp has no PE -> L1BM direction");
        if ((kind == "m" || kind == "m4") && in.at < 0) fail(in.column, fmt::format("'{}': PE -> L1BM is l1bmm@<mab>", text));
        if (in.dst[0].has_mask) fail(in.dst[0].column, "a write mask applies to PE memories, not to L1BM");
      }
      if (in.at >= 16) fail(in.column, fmt::format("'{}': MABs are 0 to 15", head));
      return in;
    }

    // MAU: [dfgh]v(fma|mul|add|passa)[u|d][r], [dfgh]m(fma|mul)[u|d], [dfgh]m(write|read)
    static const std::regex mau(R"(^([dfgh])(v|m)(fma|mul|add|passa|write|read)([ud])?(r)?$)");
    if (std::regex_match(head, m, mau)) {
      in.prec = m[1].str()[0];
      const std::string kind = m[2], op = m[3];
      if (m[5].length()) {
        if (m[2] == "m") fail(in.column, fmt::format("'{}': output precision reduction (r) of matrix operations is not modelled", head));
        in.reduce_output = true;
      }
      if (m[4].length()) in.half = m[4].str()[0];
      if (kind == "v" && (op == "write" || op == "read")) fail(in.column, fmt::format("unknown instruction '{}'", head));
      if (kind == "m" && (op == "add" || op == "passa")) fail(in.column, fmt::format("unknown instruction '{}'", head));
      if (in.prec == 'g' && kind == "v") fail(in.column, fmt::format("'{}': vector operations have no g precision", head));
      const bool needs_half = in.prec == 'd' && (op == "fma" || op == "mul");
      // The double vector product is enabled for elements 0,1 or 2,3 only, the other pair's
      // product term being 0 (the manual's vector FMA mode, as scrapbox.io/mncore quotes it):
      // a four-wide dvfma has no hardware meaning, so u or d is required.
      if (needs_half && !in.half) {
        fail(in.column, fmt::format("'{}' needs u or d: the MAU enables the double product for PEs 0,1 (u) or 2,3 (d) only; "
                                    "a full product is two steps, {}u ... $nowrite then {}d ... $mauf ...",
                                    head, head, head == "dvmul" ? "dvfma" : head));
      }
      if (!needs_half && in.half) fail(in.column, fmt::format("unknown instruction '{}'", head));
      in.op = kind + op;
      in.unit = op == "write" ? Unit::MauWrite : op == "read" ? Unit::MauRead : Unit::MauCalc;
      if (kind == "m") return matrix(in, args, op);
      const size_t inputs = op == "fma" ? 3 : op == "passa" ? 1 : 2;
      expect_count(in, args, inputs + 1, inputs + 4, fmt::format("{} source(s) and one or more destinations", inputs).c_str());
      for (size_t i = 0; i < args.size(); ++i) {
        Operand o = operand(args[i], i >= inputs);
        if (i < inputs && o.space == Space::Identity) fail(o.column, "identities are ALU inputs only");
        if (i < inputs && o.space == Space::Mreadf) fail(o.column, "$mreadf is an ALU input only");
        (i < inputs ? in.src : in.dst).push_back(o);
      }
      return in;
    }

    // ALU: zero, imm[u], msl/msr, [u][dfghlis]<op>
    in.unit = Unit::Alu;
    size_t inputs = 0;
    if (head == "zero") {
      inputs = 0;
      in.op = "zero";
    } else if (head == "imm" || head == "immu") {
      in.op = head;
      inputs = 1;
    } else if (head == "msl" || head == "msr") {
      in.op = head;
      inputs = 1;
    } else {
      static const std::regex alu(R"(^(u)?([dfghlis])([a-z0-9]+)$)");
      if (!std::regex_match(head, m, alu) || !kAluOps.count(m[3])) {
        fail(in.column, fmt::format("unknown instruction '{}'", head));
      }
      in.is_unsigned = m[1].length() > 0;
      in.prec = m[2].str()[0];
      in.op = m[3];
      if (!std::strchr(alu_precisions(in.op), in.prec)) {
        fail(in.column, fmt::format("'{}': {} takes the precisions {}", head, in.op, alu_precisions(in.op)));
      }
      static const std::set<std::string> unary = {"passa", "inc", "dec", "not", "lnot", "ftoi", "floor", "bfn"};
      inputs = unary.count(in.op) ? 1 : 2;
    }
    expect_count(in, args, inputs + 1, inputs + 4, fmt::format("{} source(s) and one or more destinations", inputs).c_str());
    for (size_t i = 0; i < args.size(); ++i) {
      Operand o = operand(args[i], i >= inputs);
      if (i < inputs) {
        if (o.space == Space::Identity && i != 0) fail(o.column, "identities are the ALU's first input only");
        if (o.space == Space::Mreadf && i != 0) fail(o.column, "$mreadf is the ALU's first input only");
        if (o.negate) fail(o.column, "input negation is a MAU option; ALU inputs cannot be negated");
        if ((in.op == "imm" || in.op == "immu") && o.space != Space::Immediate) fail(o.column, "imm takes a literal payload");
        if (o.space == Space::Immediate && in.op != "imm" && in.op != "immu") check_immediate_width(in, o);
        if (o.space == Space::Immediate && (in.op == "imm" || in.op == "immu") && !o.imm_is_word && o.imm > 0xFFFFFFFFull &&
            int64_t(o.imm) < INT32_MIN) {
          fail(o.column, fmt::format("'{}' does not fit the 32-bit immediate payload", o.text));
        }
      }
      (i < inputs ? in.src : in.dst).push_back(o);
    }
    return in;
  }

  // Matrix-register instructions: <p>mwrite src $lx<a>, dmread $lx<a> dst.., <p>mmul $lx x dst..,
  // <p>mfma $lx x y dst.. (M 7.5-7.7).
  Instr matrix(Instr& in, const std::vector<Token>& args, const std::string& op) const {
    auto is_matrix = [](const Operand& o) { return o.space == Space::MatX || o.space == Space::MatY; };
    if (op == "write") {
      expect_count(in, args, 2, 2, "a source and a matrix register ($lx<row>, $ly<row>)");
      in.src.push_back(operand(args[0], false));
      in.dst.push_back(operand(args[1], true));
      if (!is_matrix(in.dst[0]) || is_matrix(in.src[0])) fail(in.dst[0].column, fmt::format("'{}' writes a PE value to $lx or $ly", in.text));
      if (in.dst[0].has_mask) fail(in.dst[0].column, "mwrite takes no write mask");
      if (in.dst[0].width_sw == 4 && in.prec != 'h') fail(in.dst[0].column, "two rows per cycle ($llx) are hmwrite's only");
      if (in.dst[0].width_sw == 4 && in.dst[0].address % 2) fail(in.dst[0].column, "$llx<row> needs an even row");
      return in;
    }
    const size_t inputs = op == "read" ? 1 : op == "mul" ? 2 : 3;
    expect_count(in, args, inputs + 1, inputs + 4, fmt::format("{} source(s) and one or more destinations", inputs).c_str());
    if (op == "read" && in.prec == 'h' && args[0].text.compare(0, 4, "$llx") != 0 && args[0].text.compare(0, 4, "$lly") != 0) {
      fail(args[0].column, "hmread reads two columns per cycle: $llx<column> or $lly<column>");
    }
    for (size_t i = 0; i < args.size(); ++i) {
      Operand o = operand(args[i], i >= inputs);
      if (i == 0 && !is_matrix(o)) fail(o.column, fmt::format("'{}': the first operand of {} is $lx or $ly", o.text, in.text));
      if (i > 0 && is_matrix(o)) fail(o.column, fmt::format("'{}': one matrix register per instruction", o.text));
      (i < inputs ? in.src : in.dst).push_back(o);
    }
    return in;
  }

  // A bare literal as an ALU input fills every lane of the op's precision: it must fit that lane.
  void check_immediate_width(const Instr& in, const Operand& o) const {
    if (o.imm_is_word) return;  // i"..": a 32-bit word, replicated
    const unsigned bits = in.prec == 'l' || in.prec == 'd' ? 64 : in.prec == 's' || in.prec == 'h' ? 16 : 32;
    if (std::strchr("dfgh", in.prec)) fail(o.column, fmt::format("'{}': a float instruction takes a float literal f\"..\"/h\"..\"", o.text));
    if (bits == 64) return;
    const int64_t v = int64_t(o.imm);
    const int64_t lo = in.is_unsigned ? 0 : -(int64_t(1) << (bits - 1));
    const int64_t hi = in.is_unsigned ? (int64_t(1) << bits) - 1 : (int64_t(1) << (bits - 1)) - 1;
    if (v < lo || v > hi) {
      fail(o.column, fmt::format("'{}' does not fit the {}-bit {} lanes of '{}'", o.text, bits,
                                 in.is_unsigned ? "unsigned" : "signed", in.text));
    }
  }

  // The location suffix of a debug operand: n<g> c<l2b> b<l1b> m<mab> p<pe>, each optional.
  void location(const std::string& s, unsigned column, Debug& d, unsigned deepest) const {
    static const char levels[] = "ncbmp";
    size_t i = 0;
    int last = -1;
    while (i < s.size()) {
      const char* lv = std::strchr(levels, s[i]);
      if (!lv) fail(column + unsigned(i), fmt::format("unexpected '{}' in a location (n<group> c<l2b> b<l1b> m<mab> p<pe>)", s[i]));
      const int level = int(lv - levels);
      if (level <= last) fail(column + unsigned(i), "location levels go n, c, b, m, p in this order");
      if (unsigned(level) > deepest) fail(column + unsigned(i), fmt::format("'{}': this memory has no level '{}'", s, s[i]));
      size_t j = i + 1;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      d.where[level] = int(number(s.substr(i + 1, j - i - 1), column + unsigned(i), "location index"));
      last = level;
      i = j;
    }
  }

  Debug debug(const std::vector<Token>& tk) const {
    Debug d;
    // d set <mem><loc> <count> <payload> | d get[d|f|h] <mem><loc> <count>
    if (tk.size() < 2) fail(tk[0].column, "d needs set, get, getd, getf or geth");
    const std::string& verb = tk[1].text;
    if (verb == "set") {
      d.set = true;
    } else if (verb == "get" || verb == "getd" || verb == "getf" || verb == "geth") {
      d.type = verb.size() == 4 ? verb[3] : 0;
    } else {
      fail(tk[1].column, fmt::format("unknown debug statement 'd {}' (set, get, getd, getf, geth)", verb));
    }
    const size_t want = d.set ? 5 : 4;
    if (tk.size() != want) fail(tk[0].column, d.set ? "d set <memory><location> <long words> <hex payload>" : "d get <memory><location> <long words>");
    const Token& t = tk[2];
    static const std::regex pe(R"(^\$(ll|l)?([mnrs])([0-9]+)([a-z].*)?$)"), treg(R"(^\$(ll|l)?t([a-z].*)?$)"),
        omr(R"(^\$omr([0-9]+)([a-z].*)?$)"), blk(R"(^\$(lb|lc|p|d)([0-9]+)([a-z].*)?$)");
    std::smatch m;
    std::string loc;
    unsigned deepest = 4;
    Operand& o = d.target;
    o.column = t.column;
    o.text = t.text;
    if (std::regex_match(t.text, m, pe)) {
      const char mem = m[2].str()[0];
      o.space = mem == 'm' ? Space::LM0 : mem == 'n' ? Space::LM1 : mem == 'r' ? Space::GRF0 : Space::GRF1;
      // Long words ($lm0) or single words ($m1: count and payload in words, assumed as the
      // public programs that use it need; no ll).
      if (m[1] == "ll") fail(t.column, fmt::format("'{}': d set/get address PE memories in long words ($lm) or words ($m)", t.text));
      o.width_sw = m[1] == "l" ? 2 : 1;
      o.address = number(m[3], t.column, "address");
      if (o.address % o.width_sw) fail(t.column, fmt::format("'{}': a long-word address is even", t.text));
      if (o.width_sw == 1 && d.type == 'd') fail(tk[1].column, fmt::format("'{}': a double is a long word: d getd $l..", t.text));
      loc = m[4];
    } else if (std::regex_match(t.text, m, treg)) {
      o.space = Space::T;
      loc = m[2];
    } else if (std::regex_match(t.text, m, omr)) {
      o.space = Space::Omr;
      o.omr = number(m[1], t.column, "mask register entry");
      if (o.omr > 31) fail(t.column, "mask register entries are 0 to 31");
      if (d.set) fail(t.column, "mask registers are written by ALU and MAU instructions, not by d set");
      loc = m[2];
    } else if (std::regex_match(t.text, m, blk)) {
      const std::string k = m[1];
      o.space = k == "lb" ? Space::L1BM : k == "lc" ? Space::L2BM : k == "p" ? Space::PDM : Space::DRAM;
      deepest = k == "lb" ? 2 : k == "lc" ? 1 : 0;
      o.address = number(m[2], t.column, "address");
      loc = m[3];
    } else {
      fail(t.column, fmt::format("'{}': d set/get take $lm $ln $lr $ls $t $omr $lb $lc $p or $d with a location", t.text));
    }
    const unsigned loc_col = t.column + unsigned(t.text.size() - loc.size());
    location(loc, loc_col, d, deepest);
    d.count = number(tk[3].text, tk[3].column, "word count");
    if (d.count == 0) fail(tk[3].column, "the word count is at least 1");
    if (d.set) payload(tk[4], d);
    return d;
  }

  void payload(const Token& t, Debug& d) const {
    std::string hex;
    for (char c : t.text) {
      if (c == 'l' || c == '_') continue;
      if (!std::isxdigit(static_cast<unsigned char>(c))) fail(t.column, fmt::format("'{}': the payload is hexadecimal long words", t.text));
      hex += c;
    }
    const unsigned digits = d.target.width_sw == 1 ? 8 : 16;  // a word or a long word each
    if (hex.size() != uint64_t(digits) * d.count) {
      fail(t.column, fmt::format("the payload has {} hex digits; {} {} need {}", hex.size(), d.count,
                                 digits == 8 ? "words" : "long words", digits * d.count));
    }
    for (uint32_t i = 0; i < d.count; ++i) d.payload.push_back(std::strtoull(hex.substr(size_t(digits) * i, digits).c_str(), nullptr, 16));
  }

  MaskControl mask_control(const std::vector<Token>& tk) const {
    MaskControl mc;
    const std::string& head = tk[0].text;
    static const std::regex re(R"(^mask(ll|l)?([rstmnk]*)$)");
    std::smatch m;
    if (!std::regex_match(head, m, re)) fail(tk[0].column, fmt::format("unknown instruction '{}'", head));
    const std::string kinds = m[2];
    if (kinds.empty()) mc.kinds = 0x3F;
    for (char c : kinds) {
      const int bit = std::strchr("mnrstk", c) - "mnrstk";
      mc.kinds |= uint8_t(1u << bit);
    }
    if (tk.size() != 2) fail(tk[0].column, fmt::format("{} takes one mask register entry", head));
    mc.entry = number(tk[1].text, tk[1].column, "mask register entry");
    if (mc.entry > 31) fail(tk[1].column, "mask register entries are 0 to 31");
    return mc;
  }

  // Returns false for a blank or comment-only line.
  bool statement(const std::string& raw, Statement& st) const {
    // The comment starts at '#' outside quotes.
    std::string text = raw;
    bool quote = false;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '"') quote = !quote;
      if (!quote && text[i] == '#') {
        text.resize(i);
        break;
      }
    }
    size_t b = 0;
    while (b < text.size() && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
    size_t e = text.size();
    while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
    if (b == e) return false;
    st.line = line_;
    st.text = text.substr(b, e - b);
    std::vector<Token> tk = tokens(text, 0);
    if (tk[0].text == "d") {
      st.kind = Statement::Kind::Debug;
      st.debug = debug(tk);
      return true;
    }
    if (tk[0].text.compare(0, 4, "mask") == 0 && tk[0].text.find(';') == std::string::npos &&
        text.find(';') == std::string::npos) {
      st.kind = Statement::Kind::Mask;
      st.mask = mask_control(tk);
      return true;
    }
    if (tk[0].text == "quit") {  // the assembler ignores the rest of the file (M 5.1)
      st.kind = Statement::Kind::Quit;
      return true;
    }
    // The loader's lines (assemble3 --loader output, as SDK samples and test cases carry them):
    // `r <group> <LW address, hex> <LW count, hex> <payload>` puts words into DRAM before the
    // run (a d set on DRAM); `c ...` is a host command for the board's DMA, which this model
    // has no use for: accepted and skipped (its tag's wait completes at once).
    if (tk[0].text == "r" || tk[0].text == "c") {
      st.kind = Statement::Kind::Debug;
      if (tk[0].text == "c") {
        st.kind = Statement::Kind::Host;
        return true;
      }
      if (tk.size() != 5) fail(tk[0].column, "r <group> <address (hex)> <count (hex)> <hex payload>");
      Debug& d = st.debug;
      d.set = true;
      d.target.space = Space::DRAM;
      d.target.column = tk[0].column;
      d.target.text = "$d" + tk[2].text;
      d.where[0] = int(number(tk[1].text, tk[1].column, "group"));
      char* end = nullptr;
      d.target.address = uint32_t(std::strtoul(tk[2].text.c_str(), &end, 16));
      if (*end) fail(tk[2].column, fmt::format("'{}': a hexadecimal DRAM address", tk[2].text));
      d.count = uint32_t(std::strtoul(tk[3].text.c_str(), &end, 16));
      if (*end || d.count == 0) fail(tk[3].column, fmt::format("'{}': a hexadecimal long-word count", tk[3].text));
      payload(tk[4], d);
      return true;
    }
    // nop/N: N steps of nothing.
    static const std::regex nopn(R"(^nop/([0-9]+)$)");
    std::smatch m;
    if (tk.size() == 1 && std::regex_match(tk[0].text, m, nopn)) {
      st.repeat = number(m[1], tk[0].column + 4, "nop count");
      if (st.repeat == 0) fail(tk[0].column, "nop/0 is no step at all");
      Instr nop;
      nop.unit = Unit::Nop;
      nop.column = tk[0].column;
      nop.text = tk[0].text;
      st.instrs.push_back(nop);
      return true;
    }
    // The step: instructions separated by ';' (an empty one after a trailing ';' is allowed).
    size_t start = 0;
    while (start <= text.size()) {
      size_t semi = text.find(';', start);
      if (semi == std::string::npos) semi = text.size();
      const std::string part = text.substr(start, semi - start);
      if (part.find_first_not_of(" \t\r") != std::string::npos) {
        const size_t lead = part.find_first_not_of(" \t\r");
        std::string body = part.substr(lead);
        while (!body.empty() && std::isspace(static_cast<unsigned char>(body.back()))) body.pop_back();
        if (std::regex_match(body, m, nopn)) fail(unsigned(start + lead) + 1, "nop/N is a line of its own");
        if (body.compare(0, 4, "mask") == 0) fail(unsigned(start + lead) + 1, "a mask control statement is a line of its own");
        if (body.size() > 1 && body[0] == 'd' && std::isspace(static_cast<unsigned char>(body[1]))) {
          fail(unsigned(start + lead) + 1, "a debug statement (d set/get) is a line of its own");
        }
        st.instrs.push_back(instruction(body, unsigned(start + lead)));
      } else if (semi < text.size() || start == 0) {
        fail(unsigned(start) + 1, "empty instruction between ';'");
      }
      start = semi + 1;
    }
    check_step(st);
    return true;
  }

  // The issue rules of one step (manual 3.6.4, as docs/mncore2-isa.md lists them).
  void check_step(const Statement& st) const {
    unsigned count[12] = {};
    const Instr* first[12] = {};
    unsigned mau = 0;
    char mau_prec = 0;
    bool has_imm = false, lm0 = false;
    for (const auto& in : st.instrs) {
      const unsigned u = unsigned(in.unit);
      if (count[u]++ && in.unit != Unit::MauCalc && in.unit != Unit::MauWrite && in.unit != Unit::MauRead) {
        fail(in.column, fmt::format("'{}' and '{}' use the same unit in one step", first[u]->text, in.text));
      }
      if (in.unit == Unit::MauCalc || in.unit == Unit::MauWrite || in.unit == Unit::MauRead) {
        if (count[u] > 1) fail(in.column, fmt::format("'{}' and '{}' use the same MAU function in one step", first[u]->text, in.text));
        if (++mau > 2) fail(in.column, "at most two MAU instructions issue in one step");
        if (mau_prec && mau_prec != in.prec) fail(in.column, "MAU instructions in one step use one precision");
        mau_prec = in.prec;
      }
      if (!first[u]) first[u] = &in;
      if (in.op == "imm" || in.op == "immu") has_imm = true;
      for (const auto* list : {&in.src, &in.dst}) {
        for (const auto& o : *list) lm0 |= o.space == Space::LM0;
      }
    }
    if (count[unsigned(Unit::Nop)] && st.instrs.size() > count[unsigned(Unit::Nop)] + count[unsigned(Unit::Wait)]) {
      fail(first[unsigned(Unit::Nop)]->column, "nop issues alone (or with wait only)");
    }
    if (count[unsigned(Unit::Wait)] && st.instrs.size() == 1) {
      fail(first[unsigned(Unit::Wait)]->column, "wait is issued together with another instruction (nop; wait i01)");
    }
    if (count[unsigned(Unit::Mv)] && st.instrs.size() > 1) {
      fail(first[unsigned(Unit::Mv)]->column, "an MV instruction is a line of its own");
    }
    if (has_imm && lm0) fail(st.instrs[0].column, "imm cannot issue in a step that accesses LM0");
    int seen[2] = {0, 0};
    for (const auto& in : st.instrs) {
      for (const auto* list : {&in.src, &in.dst}) {
        for (const auto& o : *list) {
          if ((o.space == Space::MatX || o.space == Space::MatY) && seen[o.space == Space::MatY]++) {
            fail(o.column, fmt::format("'{}': a matrix register appears once per step", o.text));
          }
        }
      }
    }
    for (const auto& in : st.instrs) {
      for (const auto& d : in.dst) {
        if (d.space == Space::NoWrite && in.dst.size() > 1) fail(d.column, "$nowrite is the only destination when used");
      }
    }
  }

 private:
  const std::string& source_;
  unsigned line_;
};

}  // namespace

Program parse(const std::string& text, const std::string& name) {
  Program p;
  p.name = name;
  unsigned line = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    ++line;
    std::string raw = text.substr(pos, nl - pos);
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    Statement st;
    if (LineParser(name, line).statement(raw, st)) {
      if (st.kind == Statement::Kind::Quit) break;
      if (st.kind != Statement::Kind::Host) p.statements.push_back(std::move(st));
    }
    pos = nl + 1;
  }
  return p;
}

}  // namespace npuvp::mncore::vsm
