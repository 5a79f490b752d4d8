// The MN-Core Challenge's judge on this model: the answer goes where the test case's marker
// line is, the test case's `d set` lines give the inputs, and every `d get` after the output
// marker carries `# expect=[..] / Dtype @[index],.. [atol=..] [rtol=..]`. The score is what
// the challenge scores: the answer's instruction steps, nops included.
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <regex>

#include "models/mncore/vsm.h"
#include "models/numerics/mncore_float.h"
#include "tlm/log.h"

namespace npuvp::mncore::vsm {

namespace {

struct Expectation {
  unsigned line = 0;
  std::string dtype;
  std::vector<std::string> values;
  std::string indices;
  double atol = 0, rtol = 0;
};

// The value of element `k` (0 = most significant) of a hex payload in `dtype`.
double element(const std::string& hex, const std::string& dtype, unsigned k, bool& ok) {
  unsigned bits;
  if (dtype == "Long" || dtype == "ULong" || dtype == "Double") {
    bits = 64;
  } else if (dtype == "Int" || dtype == "UInt" || dtype == "Float") {
    bits = 32;
  } else if (dtype == "Short" || dtype == "UShort" || dtype == "Half") {
    bits = 16;
  } else if (dtype == "Byte" || dtype == "UByte") {
    bits = 8;
  } else {
    ok = false;
    return 0;
  }
  const unsigned digits = bits / 4;
  if ((k + 1) * digits > hex.size()) {
    ok = false;
    return 0;
  }
  const uint64_t u = std::strtoull(hex.substr(k * digits, digits).c_str(), nullptr, 16);
  ok = true;
  if (dtype == "Double") return mncore::to_double(FloatFormat::Double, u);
  if (dtype == "Float") return mncore::to_double(FloatFormat::Single, u);
  if (dtype == "Half") return mncore::to_double(FloatFormat::Half, u);
  if (dtype[0] == 'U') return double(u);
  const uint64_t sign = 1ull << (bits - 1);
  return double(int64_t(bits == 64 ? u : (u ^ sign) - sign));
}

double parse_value(const std::string& s) {
  if (s == "inf") return INFINITY;
  if (s == "-inf") return -INFINITY;
  return std::strtod(s.c_str(), nullptr);
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    out.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return out;
}

Program parse_part(const std::vector<std::string>& lines, size_t from, size_t to, const std::string& name) {
  // Blank lines keep the file's line numbers in messages.
  std::string text;
  for (size_t i = 0; i < to; ++i) text += (i >= from ? lines[i] : std::string()) + "\n";
  Program p = parse(text, name);
  for (auto& st : p.statements) st.file = name;
  return p;
}

}  // namespace

JudgeResult judge(const std::string& testcase, const std::string& testcase_name, const std::string& answer,
                  const std::string& answer_name, const Shape& shape) {
  const std::vector<std::string> lines = split_lines(testcase);
  size_t here = lines.size(), output = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string l = lines[i];
    while (!l.empty() && (l.back() == '\r' || l.back() == ' ')) l.pop_back();
    if (l == kAnswerMarker && here == lines.size()) here = i;
    // The output marker: "# ======= Output =======" or, in the challenge's own test cases,
    // "# ======= Out(0): <layout> / <dtype> =======".
    if (here != lines.size() && i > here && output == lines.size() &&
        (l == kOutputMarker || l.compare(0, 14, "# ======= Out(") == 0)) {
      output = i;
    }
  }
  if (here == lines.size()) raise("judge", "{}: no line '{}' marks where the answer goes", testcase_name, kAnswerMarker);
  if (output == lines.size()) {
    raise("judge", "{}: no output marker ('{}' or '# ======= Out(0): ...') after the answer marker", testcase_name, kOutputMarker);
  }

  Program input = parse_part(lines, 0, here, testcase_name);
  Program middle = parse_part(lines, here + 1, output, testcase_name);
  Program out = parse_part(lines, output + 1, lines.size(), testcase_name);
  // The challenge's judge drops everything from '#' or '!' to the end of an answer's line.
  std::string cleaned;
  for (const std::string& line : split_lines(answer)) {
    bool quote = false;
    size_t cut = line.size();
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '"') quote = !quote;
      if (!quote && line[i] == '!') {
        cut = i;
        break;
      }
    }
    cleaned += line.substr(0, cut) + "\n";
  }
  Program ans = parse(cleaned, answer_name);
  for (auto& st : ans.statements) st.file = answer_name;

  JudgeResult r;
  r.score = ans.steps();
  // As in the challenge, the answer's own debug statements do not count and do not run:
  // inputs come from the test case only.
  Program run;
  run.name = testcase_name;
  for (auto* part : {&input, &ans, &middle}) {
    for (auto& st : part->statements) {
      if (part == &ans && st.kind == Statement::Kind::Debug) continue;
      run.statements.push_back(st);
    }
  }

  // Expectations: every `d get` of the output part with its `# expect=` (or `# values=`) comment.
  static const std::regex expect(R"(#\s*\w+=\[([^\]]*)\]\s*/\s*(\w+)\s*@(\S+)(\s+atol=(\S+))?(\s+rtol=(\S+))?)");
  std::vector<Expectation> expects;
  for (size_t i = output + 1; i < lines.size(); ++i) {
    std::smatch m;
    if (lines[i].find("d get") == std::string::npos) continue;
    if (!std::regex_search(lines[i], m, expect)) {
      raise("judge", "{} line {}: a `d get` of the output part has no `# expect=[..] / Dtype @..` comment", testcase_name, i + 1);
    }
    Expectation e;
    e.line = unsigned(i + 1);
    std::string vals = m[1];
    size_t p = 0;
    while (p < vals.size()) {
      size_t q = vals.find(',', p);
      if (q == std::string::npos) q = vals.size();
      std::string v = vals.substr(p, q - p);
      v.erase(0, v.find_first_not_of(" '\""));
      v.erase(v.find_last_not_of(" '\"") + 1);
      if (!v.empty()) e.values.push_back(v);
      p = q + 1;
    }
    e.dtype = m[2];
    e.indices = m[3];
    if (m[5].length()) e.atol = std::strtod(m[5].str().c_str(), nullptr);
    if (m[7].length()) e.rtol = std::strtod(m[7].str().c_str(), nullptr);
    expects.push_back(e);
  }
  if (expects.empty()) raise("judge", "{}: the output part has no `d get` with an expectation", testcase_name);

  Machine machine(shape);
  std::string user_dump;
  machine.run(run, user_dump);
  r.cycles = machine.stats().cycles;

  size_t next = 0;
  for (const auto& st : out.statements) {
    if (st.kind != Statement::Kind::Debug || st.debug.set) {
      raise("judge", "{} line {}: the output part holds `d get` lines only", testcase_name, st.line);
    }
    Program one;
    one.name = testcase_name;
    one.statements.push_back(st);
    std::string dump;
    machine.run(one, dump);
    const Expectation* e = nullptr;
    for (; next < expects.size(); ++next) {
      if (expects[next].line == st.line) {
        e = &expects[next++];
        break;
      }
    }
    if (!e) continue;
    // The payload: the hex digits of the line's "(0x..., 0x...)" part, most significant first.
    const size_t open = dump.rfind("(0x");
    if (open == std::string::npos) raise("judge", "{} line {}: use d getd, getf or geth for a checked value", testcase_name, st.line);
    std::string hex;
    for (size_t i = open + 1; i < dump.size() && dump[i] != ')'; ++i) {
      if (dump.compare(i, 2, "0x") == 0) {
        ++i;
        continue;
      }
      if (std::isxdigit(static_cast<unsigned char>(dump[i]))) hex += dump[i];
    }
    for (unsigned k = 0; k < e->values.size(); ++k) {
      bool ok = false;
      const double actual = element(hex, e->dtype, k, ok);
      if (!ok) raise("judge", "{} line {}: cannot read element {} as {} from '{}'", testcase_name, st.line, k, e->dtype, hex);
      const double want = parse_value(e->values[k]);
      const double err = std::fabs(actual - want);
      const bool same = actual == want || (std::isnan(err) == false && (err <= e->atol || err <= e->rtol * std::fabs(want)));
      ++r.values_checked;
      if (!same) {
        r.accepted = false;
        r.message = fmt::format("WRONG ANSWER: {} line {} (`{}`, element {} of {}): got {}, expected {} (atol={}, rtol={})",
                                testcase_name, st.line, st.text, k, e->indices, fmt::format("{:.17g}", actual), e->values[k],
                                e->atol, e->rtol);
        return r;
      }
    }
  }
  r.accepted = true;
  r.message = fmt::format("ACCEPTED score={} (instruction steps, nops included)   npuvp: {} cycles ({} values checked)",
                          r.score, r.cycles, r.values_checked);
  return r;
}

}  // namespace npuvp::mncore::vsm
