#include "models/mncore/assembler.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <map>

#include "tlm/log.h"

namespace npuvp::mncore {

AssemblyError::AssemblyError(std::string source, unsigned line, unsigned column, const std::string& message)
    : std::runtime_error(fmt::format("{} line {}, column {}: {}", source, line, column, message)),
      source_(std::move(source)),
      line_(line),
      column_(column),
      message_(message) {}

namespace {

struct Token {
  std::string text;
  unsigned column;  // 1-based
};

class LineParser {
 public:
  LineParser(const std::string& source, unsigned line, const std::string& text)
      : source_(source), line_(line), text_(text) {}

  // Returns false for a blank or comment-only line.
  bool parse(Instruction& out);

 private:
  [[noreturn]] void fail(unsigned column, const std::string& message) const {
    throw AssemblyError(source_, line_, column, message);
  }

  std::vector<Token> tokenize() const;
  Operand operand(const Token& t) const;
  LaneType float_type(const std::string& suffix, unsigned column) const;
  void expect_operands(const Instruction& in, size_t n, const Token& mnemonic) const;
  void check_alu(Instruction& in, const Token& mnemonic) const;
  void parse_transfer(Instruction& in, const std::vector<std::string>& parts, const Token& mnemonic) const;

  const std::string& source_;
  unsigned line_;
  const std::string& text_;
  std::vector<unsigned> part_columns_;  // column of each '.'-separated part of the mnemonic
};

std::vector<Token> LineParser::tokenize() const {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < text_.size()) {
    const char c = text_[i];
    if (c == '#' || c == ';') break;  // comment to the end of the line
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < text_.size() && !std::isspace(static_cast<unsigned char>(text_[i])) && text_[i] != ',' &&
           text_[i] != '#' && text_[i] != ';') {
      ++i;
    }
    tokens.push_back({text_.substr(start, i - start), static_cast<unsigned>(start + 1)});
  }
  return tokens;
}

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

Operand LineParser::operand(const Token& t) const {
  Operand o;
  o.column = t.column;
  o.text = t.text;
  const std::string& s = t.text;
  if (s[0] == '$') {
    const std::string body = s.substr(1);
    static const std::map<std::string, Identity> identities = {
        {"groupid", Identity::Group}, {"l2bid", Identity::L2B}, {"l1bid", Identity::L1B},
        {"mabid", Identity::MAB},     {"peid", Identity::PE},   {"peindex", Identity::Index}};
    if (auto it = identities.find(body); it != identities.end()) {
      o.kind = Operand::Kind::Identity;
      o.identity = it->second;
      return o;
    }
    size_t letters = 0;
    while (letters < body.size() && std::isalpha(static_cast<unsigned char>(body[letters]))) ++letters;
    const std::string name = body.substr(0, letters);
    const std::string number = body.substr(letters);
    static const std::map<std::string, Mem> block = {
        {"lb", Mem::L1BM}, {"lc", Mem::L2BM}, {"d", Mem::DRAM}, {"p", Mem::PDM}};
    static const std::map<char, Mem> pe = {{'m', Mem::LM0}, {'n', Mem::LM1}, {'r', Mem::GRF0}, {'s', Mem::GRF1}};
    bool known = false;
    if (name == "mk") {
      o.kind = Operand::Kind::Mask;
      known = true;
    } else if (auto b = block.find(name); b != block.end()) {
      o.kind = Operand::Kind::Memory;
      o.mem = b->second;
      o.width_sw = 2;
      known = true;
    } else if (!name.empty()) {
      size_t prefix = 0;
      while (prefix < name.size() - 1 && prefix < 2 && name[prefix] == 'l') ++prefix;
      if (name.size() == prefix + 1 && pe.count(name.back())) {
        o.kind = Operand::Kind::Memory;
        o.mem = pe.at(name.back());
        o.width_sw = prefix == 0 ? 1 : prefix == 1 ? 2 : 4;
        known = true;
      }
    }
    if (!known) {
      fail(t.column, fmt::format("unknown operand '{}' (memories: $m $n $r $s with an optional l/ll prefix, "
                                 "$lb $lc $d $p; masks $mk<n>; identities $groupid $l2bid $l1bid $mabid $peid "
                                 "$peindex)", s));
    }
    if (!all_digits(number)) {
      fail(t.column + 1 + static_cast<unsigned>(letters),
           fmt::format("operand '{}' needs a decimal {} after '${}'", s,
                       o.kind == Operand::Kind::Mask ? "register number" : "address", name));
    }
    errno = 0;
    const unsigned long long v = std::strtoull(number.c_str(), nullptr, 10);
    if (errno == ERANGE || v > (1ull << 48)) {
      fail(t.column + 1 + static_cast<unsigned>(letters), fmt::format("address {} is too large", number));
    }
    if (o.kind == Operand::Kind::Mask) {
      if (v > 1024) fail(t.column + 1 + static_cast<unsigned>(letters), fmt::format("mask register {} does not exist", v));
      o.mask = static_cast<unsigned>(v);
    } else {
      o.address = v;
    }
    return o;
  }
  // Numbers: integers (decimal or 0x hex, optional sign) or floats (with '.', an exponent, or inf).
  const char* begin = s.c_str();
  char* end = nullptr;
  errno = 0;
  const long long i = std::strtoll(begin, &end, 0);
  if (*end == '\0' && errno != ERANGE) {
    o.kind = Operand::Kind::IntImmediate;
    o.int_value = i;
    o.float_value = static_cast<double>(i);
    return o;
  }
  errno = 0;
  const double d = std::strtod(begin, &end);
  if (*end == '\0' && !std::isnan(d)) {
    o.kind = Operand::Kind::FloatImmediate;
    o.float_value = d;
    return o;
  }
  fail(t.column, fmt::format("cannot read operand '{}': expected $<memory><address>, $mk<n>, an identity or a number", s));
}

LaneType LineParser::float_type(const std::string& suffix, unsigned column) const {
  if (suffix == "h") return LaneType::Half;
  if (suffix == "f") return LaneType::Single;
  if (suffix == "d") return LaneType::Double;
  fail(column, fmt::format("unknown float type '.{}' (h = half, f = single, d = double)", suffix));
}

void LineParser::expect_operands(const Instruction& in, size_t n, const Token& mnemonic) const {
  const size_t have = in.sources.size() + (in.dest.kind != Operand::Kind::None ? 1 : 0);
  if (have != n) {
    fail(mnemonic.column, fmt::format("'{}' takes {} operand{}, got {}", mnemonic.text, n, n == 1 ? "" : "s", have));
  }
}

bool is_pe_memory_operand(const Operand& o) { return o.kind == Operand::Kind::Memory && is_pe_memory(o.mem); }

// ALU operands: sources are PE memories, immediates or identities; the destination a PE
// memory; every memory operand has the same width, which immediates and identities adopt.
void LineParser::check_alu(Instruction& in, const Token& mnemonic) const {
  const bool is_float = in.op == Op::FAdd || in.op == Op::FSub || in.op == Op::FMul || in.op == Op::FMax ||
                        in.op == Op::FMin || in.op == Op::FCmp;
  unsigned width = 0;
  std::vector<Operand*> all;
  for (auto& s : in.sources) all.push_back(&s);
  if (in.op != Op::FCmp && in.op != Op::ICmp) all.push_back(&in.dest);
  for (Operand* o : all) {
    if (o->kind == Operand::Kind::Memory) {
      if (!is_pe_memory(o->mem)) {
        fail(o->column, fmt::format("'{}' is {}: PE instructions use PE memories ($m $n $r $s); move block "
                                    "memories with a transfer", o->text, mem_name(o->mem)));
      }
      if (width == 0) {
        width = o->width_sw;
      } else if (o->width_sw != width) {
        fail(o->column, fmt::format("'{}' is {} SW wide but the instruction's other operands are {} SW: use the "
                                    "same l/ll prefix on every operand", o->text, o->width_sw, width));
      }
    } else if (o->kind == Operand::Kind::Mask) {
      fail(o->column, fmt::format("mask register '{}' can only be the destination of fcmp/icmp or a ?predicate", o->text));
    } else if (o->kind == Operand::Kind::FloatImmediate && !is_float && in.op != Op::Mov) {
      fail(o->column, fmt::format("'{}' is a float; '{}' works on 32-bit integers", o->text, mnemonic.text));
    }
  }
  if (in.op != Op::FCmp && in.op != Op::ICmp && !is_pe_memory_operand(in.dest)) {
    fail(in.dest.column, fmt::format("destination '{}' must be a PE memory ($m $n $r $s)", in.dest.text));
  }
  if (width == 0) width = 1;
  if (in.type == LaneType::Double && width < 2) {
    fail(mnemonic.column, fmt::format("'{}' works on 64-bit doubles: its operands need the l or ll prefix", mnemonic.text));
  }
  for (Operand* o : all) {
    if (o->kind != Operand::Kind::Memory) o->width_sw = width;
  }
  if (in.op == Op::Mov) {
    for (const auto& s : in.sources) {
      if (s.kind == Operand::Kind::FloatImmediate) {
        fail(s.column, "mov copies bits: give an integer pattern (e.g. 0x3e00), or use fadd with 0 to load a float");
      }
    }
  }
}

void LineParser::parse_transfer(Instruction& in, const std::vector<std::string>& parts, const Token& mnemonic) const {
  in.op = Op::Transfer;
  std::vector<Mode> modes;
  LaneType type = LaneType::None;
  unsigned type_column = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    if (p == "copy") modes.push_back(Mode::Copy);
    else if (p == "bcast") modes.push_back(Mode::Bcast);
    else if (p == "dist") modes.push_back(Mode::Dist);
    else if (p == "coll") modes.push_back(Mode::Coll);
    else if (p == "red") modes.push_back(Mode::Red);
    else if (i == parts.size() - 1 && i > 0) {
      type = float_type(p, part_columns_[i]);
      type_column = part_columns_[i];
    } else {
      fail(part_columns_[i], fmt::format("unknown transfer mode '{}' (bcast, dist, coll, red, copy)", p));
    }
  }
  if (in.sources.size() != 3) {
    fail(mnemonic.column, fmt::format("a transfer takes 3 operands (source, destination, LW count), got {}",
                                      in.sources.size()));
  }
  const Operand src = in.sources[0], dst = in.sources[1], count = in.sources[2];
  in.sources = {src};
  in.dest = dst;
  for (const Operand* o : {&src, &dst}) {
    if (o->kind != Operand::Kind::Memory) fail(o->column, fmt::format("'{}' is not a memory", o->text));
    if (is_pe_memory(o->mem) && o->width_sw < 2) {
      fail(o->column, fmt::format("transfers move whole LW: write '$l{}' (or '$ll{}') for a PE memory",
                                  o->text.substr(1), o->text.substr(1)));
    }
  }
  if (count.kind != Operand::Kind::IntImmediate || count.int_value < 1) {
    fail(count.column, fmt::format("the LW count '{}' must be a positive integer", count.text));
  }
  in.count_lw = static_cast<uint64_t>(count.int_value);

  // The path decides the engine, the direction and how many tree levels the modes cover.
  const Mem s = src.mem, d = dst.mem;
  bool down = true;
  unsigned levels = 1;
  if (s == Mem::PDM && d == Mem::DRAM) {
    in.engine = Engine::Pdm;
  } else if (s == Mem::DRAM && d == Mem::PDM) {
    in.engine = Engine::Pdm;
    down = false;
  } else if (s == Mem::DRAM && d == Mem::L2BM) {
    in.engine = Engine::Dram;
  } else if (s == Mem::L2BM && d == Mem::DRAM) {
    in.engine = Engine::Dram;
    down = false;
  } else if (s == Mem::L2BM && d == Mem::L1BM) {
    in.engine = Engine::L2b;
  } else if (s == Mem::L1BM && d == Mem::L2BM) {
    in.engine = Engine::L2b;
    down = false;
  } else if (s == Mem::L1BM && is_pe_memory(d)) {
    in.engine = Engine::L1b;
    levels = 2;
  } else if (is_pe_memory(s) && d == Mem::L1BM) {
    in.engine = Engine::L1b;
    levels = 2;
    down = false;
  } else {
    fail(src.column, fmt::format("no transfer path from {} to {} (paths: PDM<->DRAM, DRAM<->L2BM, L2BM<->L1BM, "
                                 "L1BM<->LM0/LM1/GRF0/GRF1)", mem_name(s), mem_name(d)));
  }
  if (modes.size() > levels) {
    fail(part_columns_[levels], fmt::format("{} -> {} crosses {} tree level{}; '{}' gives {} modes", mem_name(s),
                                            mem_name(d), levels, levels == 1 ? "" : "s", mnemonic.text, modes.size()));
  }
  if (modes.size() < levels) modes.resize(levels, modes.front());
  bool any_red = false;
  for (size_t i = 0; i < modes.size(); ++i) {
    const Mode m = modes[i];
    const bool copy_ok = in.engine == Engine::Pdm;
    const bool ok = m == Mode::Copy ? copy_ok : down ? (m == Mode::Bcast || m == Mode::Dist)
                                                     : (m == Mode::Coll || m == Mode::Red);
    if (!ok) {
      fail(part_columns_[std::min(i, parts.size() - 1)],
           fmt::format("'{}' cannot move {} -> {}: {}", mode_name(m), mem_name(s), mem_name(d),
                       m == Mode::Copy ? "copy is PDM <-> DRAM within a Group"
                       : down          ? "down the tree the modes are bcast and dist"
                                       : "up the tree the modes are coll and red"));
    }
    any_red = any_red || m == Mode::Red;
    in.modes[i] = m;
  }
  in.mode_levels = levels;
  if (any_red && type == LaneType::None) {
    fail(mnemonic.column + static_cast<unsigned>(mnemonic.text.size()),
         fmt::format("'{}' reduces: give the number format, e.g. '{}.f'", mnemonic.text, mnemonic.text));
  }
  if (!any_red && type != LaneType::None) {
    fail(type_column, "a float type only applies to reductions (red)");
  }
  in.type = type;
}

bool LineParser::parse(Instruction& in) {
  std::vector<Token> tokens = tokenize();
  if (tokens.empty()) return false;
  const Token mnemonic = tokens.front();
  tokens.erase(tokens.begin());

  // Mnemonic parts: "fcmp.lt.h" -> fcmp, lt, h.
  std::vector<std::string> parts;
  part_columns_.clear();
  {
    size_t start = 0;
    while (true) {
      const size_t dot = mnemonic.text.find('.', start);
      parts.push_back(mnemonic.text.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
      part_columns_.push_back(mnemonic.column + static_cast<unsigned>(start));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].empty()) fail(part_columns_[i], fmt::format("empty part in '{}'", mnemonic.text));
  }
  const std::string base = parts.front();
  const std::vector<std::string> suffixes(parts.begin() + 1, parts.end());

  // A trailing ?$mkN / ?!$mkN predicates the instruction.
  if (!tokens.empty() && tokens.back().text[0] == '?') {
    const Token p = tokens.back();
    tokens.pop_back();
    const bool negated = p.text.size() > 1 && p.text[1] == '!';
    const Token reg{p.text.substr(negated ? 2 : 1), p.column + (negated ? 2u : 1u)};
    if (reg.text.empty()) fail(p.column, "a predicate is ?$mk<n> or ?!$mk<n>");
    const Operand m = operand(reg);
    if (m.kind != Operand::Kind::Mask) fail(reg.column, fmt::format("predicate '{}' must be a mask register $mk<n>", reg.text));
    in.predicate = static_cast<int>(m.mask);
    in.predicate_negated = negated;
  }
  for (const Token& t : tokens) {
    if (t.text[0] == '?') fail(t.column, "the ?predicate must be the last operand");
  }

  if (base == "wait") {
    in.op = Op::Wait;
    if (!suffixes.empty()) fail(part_columns_[1], "wait takes engine names as operands: wait [pdm] [dram] [l2b] [l1b]");
    for (const Token& t : tokens) {
      bool found = false;
      for (unsigned e = 0; e < kEngines; ++e) {
        if (t.text == engine_name(static_cast<Engine>(e))) {
          in.wait_mask |= 1u << e;
          found = true;
        }
      }
      if (!found) fail(t.column, fmt::format("unknown engine '{}' (pdm, dram, l2b, l1b)", t.text));
    }
    if (in.wait_mask == 0) in.wait_mask = (1u << kEngines) - 1;
    if (in.predicate >= 0) fail(mnemonic.column, "wait cannot be predicated: it is not a PE instruction");
    return true;
  }

  for (const Token& t : tokens) in.sources.push_back(operand(t));

  static const std::map<std::string, Op> float_ops = {
      {"fadd", Op::FAdd}, {"fsub", Op::FSub}, {"fmul", Op::FMul}, {"fmax", Op::FMax}, {"fmin", Op::FMin}};
  static const std::map<std::string, Op> int_ops = {{"iadd", Op::IAdd}, {"isub", Op::ISub}, {"and", Op::And},
                                                    {"or", Op::Or},     {"xor", Op::Xor},   {"shl", Op::Shl},
                                                    {"shr", Op::Shr}};
  static const std::map<std::string, Cmp> conditions = {{"eq", Cmp::Eq}, {"ne", Cmp::Ne}, {"lt", Cmp::Lt},
                                                        {"le", Cmp::Le}, {"gt", Cmp::Gt}, {"ge", Cmp::Ge}};
  auto no_suffix = [&]() {
    if (!suffixes.empty()) fail(part_columns_[1], fmt::format("'{}' takes no suffix", base));
  };
  auto take_dest = [&](size_t n) {
    expect_operands(in, n, mnemonic);
    in.dest = in.sources.back();
    in.sources.pop_back();
  };
  auto condition = [&](const std::string& s, unsigned column) {
    auto it = conditions.find(s);
    if (it == conditions.end()) fail(column, fmt::format("unknown condition '{}' (eq ne lt le gt ge)", s));
    return it->second;
  };

  if (base == "nop") {
    no_suffix();
    expect_operands(in, 0, mnemonic);
    in.op = Op::Nop;
  } else if (base == "mov") {
    no_suffix();
    in.op = Op::Mov;
    take_dest(2);
    check_alu(in, mnemonic);
  } else if (auto f = float_ops.find(base); f != float_ops.end()) {
    in.op = f->second;
    if (suffixes.size() != 1) fail(mnemonic.column, fmt::format("'{}' needs a type: {}.h, {}.f or {}.d", base, base, base, base));
    in.type = float_type(suffixes[0], part_columns_[1]);
    take_dest(3);
    check_alu(in, mnemonic);
  } else if (base == "fcvt") {
    in.op = Op::FCvt;
    if (suffixes.size() != 2) fail(mnemonic.column, "fcvt needs source and destination types, e.g. fcvt.f.h");
    in.type = float_type(suffixes[0], part_columns_[1]);
    in.type_to = float_type(suffixes[1], part_columns_[2]);
    if (in.type == in.type_to) fail(part_columns_[2], "fcvt between the same type; use mov");
    take_dest(2);
    const Operand& s = in.sources[0];
    if (!is_pe_memory_operand(s)) fail(s.column, fmt::format("fcvt source '{}' must be a PE memory", s.text));
    if (!is_pe_memory_operand(in.dest)) fail(in.dest.column, fmt::format("fcvt destination '{}' must be a PE memory", in.dest.text));
    // Same number of lanes on both sides.
    const unsigned src_lanes = s.width_sw * 32 / lane_bits(in.type);
    const unsigned dst_lanes = in.dest.width_sw * 32 / lane_bits(in.type_to);
    if (src_lanes == 0 || src_lanes != dst_lanes) {
      fail(in.dest.column, fmt::format("fcvt.{}.{}: '{}' holds {} {} values but '{}' holds {}; pick prefixes so both "
                                       "sides hold the same number", suffixes[0], suffixes[1], s.text, src_lanes,
                                       info(float_format(in.type)).name,
                                       in.dest.text, dst_lanes));
    }
  } else if (auto i = int_ops.find(base); i != int_ops.end()) {
    no_suffix();
    in.op = i->second;
    in.type = LaneType::Int;
    take_dest(3);
    check_alu(in, mnemonic);
  } else if (base == "fcmp" || base == "icmp") {
    const bool is_float = base == "fcmp";
    in.op = is_float ? Op::FCmp : Op::ICmp;
    if (suffixes.size() != (is_float ? 2u : 1u)) {
      fail(mnemonic.column, is_float ? "fcmp needs a condition and a type, e.g. fcmp.lt.h"
                                     : "icmp needs a condition, e.g. icmp.eq");
    }
    in.cmp = condition(suffixes[0], part_columns_[1]);
    in.type = is_float ? float_type(suffixes[1], part_columns_[2]) : LaneType::Int;
    take_dest(3);
    if (in.dest.kind != Operand::Kind::Mask) {
      fail(in.dest.column, fmt::format("the destination of {} is a mask register $mk<n>, not '{}'", base, in.dest.text));
    }
    check_alu(in, mnemonic);
  } else if (base == "mwload") {
    no_suffix();
    in.op = Op::MWLoad;
    expect_operands(in, 1, mnemonic);
    const Operand& s = in.sources[0];
    if (!is_pe_memory_operand(s) || s.width_sw != 2) {
      fail(s.column, fmt::format("mwload reads LW from each PE: its operand is $lm/$ln/$lr/$ls<address>, not '{}'", s.text));
    }
  } else if (base == "mmacc") {
    in.op = Op::MMAcc;
    if (suffixes.size() != 1 || suffixes[0] != "h") {
      fail(mnemonic.column, "the MAU multiplies halves: write mmacc.h");
    }
    in.type = LaneType::Half;
    take_dest(2);
    for (const Operand* o : {&in.sources[0], &in.dest}) {
      if (!is_pe_memory_operand(*o) || o->width_sw != 2) {
        fail(o->column, fmt::format("mmacc streams LW: '{}' must be $lm/$ln/$lr/$ls<address>", o->text));
      }
    }
  } else if (base == "bcast" || base == "dist" || base == "coll" || base == "red" || base == "copy") {
    parse_transfer(in, parts, mnemonic);
    if (in.predicate >= 0) fail(mnemonic.column, "transfers cannot be predicated: masks gate PE instructions");
  } else {
    fail(mnemonic.column, fmt::format("unknown instruction '{}'", base));
  }
  if (in.predicate >= 0 && in.op == Op::Nop) fail(mnemonic.column, "nop cannot be predicated");
  return true;
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

}  // namespace

Program assemble(const std::string& text, const std::string& name) {
  Program program;
  program.name = name;
  size_t start = 0;
  unsigned line = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string content = text.substr(start, end - start);
    ++line;
    Instruction in;
    LineParser parser(name, line, content);
    if (parser.parse(in)) {
      in.line = line;
      std::string code = content.substr(0, content.find_first_of("#;"));
      in.text = trim(code);
      program.instructions.push_back(std::move(in));
    }
    if (end == text.size()) break;
    start = end + 1;
  }
  return program;
}

Program assemble_or_raise(const std::string& text, const std::string& name) {
  std::string message;
  try {
    return assemble(text, name);
  } catch (const AssemblyError& e) {
    message = e.what();
  }
  raise("assembler", "{}", message);  // outside the handler: the report is not thrown from a catch
}

}  // namespace npuvp::mncore
