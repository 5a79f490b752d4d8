#include "sw/cann/launch_syntax.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

namespace npuvp::cann {

LaunchSyntaxError::LaunchSyntaxError(const std::string& file, int line, const std::string& why)
    : std::runtime_error(file + ":" + std::to_string(line) + ": error: " + why), file_(file), line_(line) {}

namespace {

// One token of the code the compiler sees (comments, whitespace and preprocessor lines are
// not tokens). Punctuation is one character per token: `<<<` is three '<' tokens whose
// text is contiguous, so `a << <b` and `<<<` stay apart.
struct Token {
  enum class Kind { Ident, Number, Literal, Punct };
  Kind kind;
  size_t begin, end;
  int line;
};

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

class Scanner {
 public:
  Scanner(const std::string& text, const std::string& path) : s_(text), path_(path) {}

  std::vector<Token> run() {
    bool line_start = true;  // only whitespace and comments so far on this line
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '\n') {
        ++line_, ++i_, line_start = true;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++i_;
      } else if (c == '\\' && i_ + 1 < s_.size() && (s_[i_ + 1] == '\n' || s_[i_ + 1] == '\r')) {
        i_ += 1;  // a line continuation; the newline is counted next
      } else if (starts("//")) {
        skip_line_comment();
      } else if (starts("/*")) {
        skip_block_comment();
      } else if (c == '#' && line_start) {
        skip_directive();
      } else {
        line_start = false;
        lex_token();
      }
    }
    return std::move(tokens_);
  }

 private:
  bool starts(const char* p) const { return s_.compare(i_, std::char_traits<char>::length(p), p) == 0; }
  [[noreturn]] void fail(int line, const std::string& why) const { throw LaunchSyntaxError(path_, line, why); }

  void skip_line_comment() {
    // A backslash at the end of the line continues the comment, as in the preprocessor.
    while (i_ < s_.size() && s_[i_] != '\n') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size() && s_[i_ + 1] == '\n') ++line_, ++i_;
      ++i_;
    }
  }
  void skip_block_comment() {
    const int first = line_;
    i_ += 2;
    while (i_ < s_.size() && !starts("*/")) {
      if (s_[i_] == '\n') ++line_;
      ++i_;
    }
    if (i_ >= s_.size()) fail(first, "unterminated /* comment");
    i_ += 2;
  }
  // A preprocessor line, continuations and comments included: the translator leaves it alone.
  void skip_directive() {
    while (i_ < s_.size() && s_[i_] != '\n') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size() && (s_[i_ + 1] == '\n' || s_[i_ + 1] == '\r')) {
        const size_t newline = s_.find('\n', i_);
        i_ = newline == std::string::npos ? s_.size() : newline + 1;
        ++line_;
      } else if (starts("/*")) {
        skip_block_comment();
      } else if (starts("//")) {
        skip_line_comment();
      } else if (s_[i_] == '"' || s_[i_] == '\'') {
        quoted(s_[i_]);
      } else {
        ++i_;
      }
    }
  }
  // A "..." or '...' literal from i_ (at the quote); leaves i_ after the closing quote.
  void quoted(char quote) {
    const int first = line_;
    ++i_;
    while (i_ < s_.size() && s_[i_] != quote) {
      if (s_[i_] == '\n') fail(first, std::string("unterminated ") + (quote == '"' ? "string" : "character") + " literal");
      if (s_[i_] == '\\') ++i_;
      if (i_ < s_.size() && s_[i_] == '\n') ++line_;
      ++i_;
    }
    if (i_ >= s_.size()) fail(first, "unterminated literal");
    ++i_;
  }
  // R"delim( ... )delim" from i_ (at the quote).
  void raw_string() {
    const int first = line_;
    const size_t open = s_.find('(', i_);
    if (open == std::string::npos || open - i_ > 17) fail(first, "malformed raw string literal");
    const std::string close = ")" + s_.substr(i_ + 1, open - i_ - 1) + "\"";
    const size_t end = s_.find(close, open);
    if (end == std::string::npos) fail(first, "unterminated raw string literal");
    line_ += static_cast<int>(std::count(s_.begin() + i_, s_.begin() + end, '\n'));
    i_ = end + close.size();
  }
  void push(Token::Kind kind, size_t begin, int line) { tokens_.push_back({kind, begin, i_, line}); }

  void lex_token() {
    const size_t begin = i_;
    const int line = line_;
    const char c = s_[i_];
    if (ident_start(c)) {
      while (i_ < s_.size() && ident_char(s_[i_])) ++i_;
      const std::string word = s_.substr(begin, i_ - begin);
      if (i_ < s_.size() && s_[i_] == '"' && (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR")) {
        raw_string();
        return push(Token::Kind::Literal, begin, line);
      }
      if (i_ < s_.size() && (s_[i_] == '"' || s_[i_] == '\'') &&
          (word == "u8" || word == "u" || word == "U" || word == "L")) {
        quoted(s_[i_]);
        return push(Token::Kind::Literal, begin, line);
      }
      return push(Token::Kind::Ident, begin, line);
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_ + 1])))) {
      // A pp-number: digits, letters, '.', exponent signs and the digit separator '.
      ++i_;
      while (i_ < s_.size()) {
        const char d = s_[i_];
        if (ident_char(d) || d == '.') {
          ++i_;
        } else if ((d == '+' || d == '-') && std::strchr("eEpP", s_[i_ - 1])) {
          ++i_;
        } else if (d == '\'' && i_ + 1 < s_.size() && ident_char(s_[i_ + 1])) {
          i_ += 2;
        } else {
          break;
        }
      }
      return push(Token::Kind::Number, begin, line);
    }
    if (c == '"' || c == '\'') {
      quoted(c);
      return push(Token::Kind::Literal, begin, line);
    }
    ++i_;
    push(Token::Kind::Punct, begin, line);
  }

  const std::string& s_;
  const std::string& path_;
  size_t i_ = 0;
  int line_ = 1;
  std::vector<Token> tokens_;
};

// Words a scalar kernel parameter's type may be made of.
const std::set<std::string>& scalar_words() {
  static const std::set<std::string> words = {
      "const",    "volatile", "unsigned", "signed",   "int",      "long",      "short",     "char",
      "bool",     "float",    "double",   "half",     "bfloat16_t", "size_t",  "ssize_t",   "int8_t",
      "int16_t",  "int32_t",  "int64_t",  "uint8_t",  "uint16_t", "uint32_t",  "uint64_t",  "intptr_t",
      "uintptr_t", "float16_t", "float32_t", "std"};
  return words;
}

class Translator {
 public:
  Translator(const std::string& text, const std::string& path)
      : s_(text), path_(path), t_(Scanner(text, path).run()) {}

  Translation run() {
    Translation out;
    find_kernels(out.kernels);
    std::string& src = out.source;
    src += "// Translated by npuvp from " + path_ + " (the CANN sim route): <<<>>> launches are\n";
    src += "// npuvp::acl::launch_chevrons calls, and aclrtlaunch_<kernel> are defined at the end.\n";
    src += "#include \"sw/cann/launch_chevrons.h\"\n";
    src += "#line 1 \"" + escaped(path_) + "\"\n";
    size_t copied = 0;
    for (size_t i = 0; i + 2 < t_.size(); ++i) {
      if (!is_chevron(i, '<')) continue;
      if (i > 0 && text(i - 1) == "operator") continue;  // operator<< <T>(...)
      const Launch l = launch_at(i);
      src.append(s_, copied, t_[l.callee].begin - copied);
      src += rewrite(l);
      copied = t_[l.close].end;
      i = l.close;
      ++out.launches;
    }
    src.append(s_, copied, std::string::npos);
    if (!src.empty() && src.back() != '\n') src += '\n';
    append_launch_functions(out.kernels, src);
    return out;
  }

 private:
  struct Launch {
    size_t callee;   // first token of the kernel name
    size_t open;     // the first '<' of <<<
    size_t shut;     // the first '>' of >>>
    size_t paren;    // '(' of the arguments
    size_t close;    // ')' of the arguments
    std::vector<std::pair<size_t, size_t>> config;  // token ranges of blockDim, l2ctrl, stream
  };

  std::string text(size_t i) const { return s_.substr(t_[i].begin, t_[i].end - t_[i].begin); }
  bool punct(size_t i, char c) const { return i < t_.size() && t_[i].kind == Token::Kind::Punct && s_[t_[i].begin] == c; }
  bool adjacent(size_t i) const { return t_[i].end == t_[i + 1].begin; }
  bool is_chevron(size_t i, char c) const {
    return i + 2 < t_.size() && punct(i, c) && punct(i + 1, c) && punct(i + 2, c) && adjacent(i) && adjacent(i + 1);
  }
  [[noreturn]] void fail(size_t token, const std::string& why) const {
    throw LaunchSyntaxError(path_, t_[std::min(token, t_.size() - 1)].line, why);
  }
  static std::string escaped(const std::string& s) {
    std::string out;
    for (char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out;
  }
  // The tokens [first, last) as one line: a space only where two words would merge.
  std::string joined(size_t first, size_t last) const {
    std::string out;
    for (size_t i = first; i < last; ++i) {
      const bool word = t_[i].kind == Token::Kind::Ident || t_[i].kind == Token::Kind::Number;
      if (!out.empty() && word && (ident_char(out.back()))) out += ' ';
      out += text(i);
    }
    return out;
  }
  // The token after the bracket opened at `open` ( ( [ { or <: angles only when `angles`),
  // i.e. the index of its closing partner; fails at the end of the file.
  size_t matching(size_t open, bool angles, const std::string& what) const {
    std::vector<char> stack;
    for (size_t i = open; i < t_.size(); ++i) {
      if (t_[i].kind != Token::Kind::Punct) continue;
      const char c = s_[t_[i].begin];
      if (c == '(' || c == '[' || c == '{' || (angles && c == '<')) {
        stack.push_back(c);
      } else if (c == ')' || c == ']' || c == '}' || (angles && c == '>')) {
        const char want = c == ')' ? '(' : c == ']' ? '[' : c == '}' ? '{' : '<';
        if (stack.empty() || stack.back() != want) fail(i, std::string("unbalanced '") + c + "' in " + what);
        stack.pop_back();
        if (stack.empty()) return i;
      }
    }
    fail(open, std::string("no closing bracket for ") + what);
  }

  Launch launch_at(size_t open) const {
    Launch l{};
    l.open = open;
    // The kernel: a name, perhaps qualified (ns::k) and with template arguments (k<half>).
    if (open == 0) fail(open, "a kernel launch '<<<' without a kernel name before it");
    size_t j = open - 1;
    if (punct(j, '>')) {
      int depth = 0;
      for (;; --j) {
        if (punct(j, '>')) ++depth;
        if (punct(j, '<')) --depth;
        if (depth == 0 || j == 0) break;
      }
      if (depth != 0 || j == 0) fail(open, "cannot find the start of the kernel's template arguments before '<<<'");
      --j;
    }
    if (t_[j].kind != Token::Kind::Ident) {
      fail(open, "a kernel launch '<<<' must follow the kernel's name (found '" + text(j) + "')");
    }
    while (j >= 2 && punct(j - 1, ':') && punct(j - 2, ':') && adjacent(j - 2)) {
      if (j >= 3 && t_[j - 3].kind == Token::Kind::Ident) {
        j -= 3;
      } else {
        j -= 2;  // ::k
        break;
      }
    }
    l.callee = j;
    // <<<blockDim, l2ctrl, stream>>>: the first '>>>' outside brackets closes it.
    std::vector<char> stack;
    size_t k = open + 3;
    size_t arg_begin = k;
    for (;; ++k) {
      if (k >= t_.size()) fail(open, "no '>>>' closes this kernel launch's '<<<'");
      if (stack.empty() && is_chevron(k, '>')) break;
      if (t_[k].kind != Token::Kind::Punct) continue;
      const char c = s_[t_[k].begin];
      if (c == '(' || c == '[' || c == '{') stack.push_back(c);
      if (c == ')' || c == ']' || c == '}') {
        if (stack.empty()) fail(k, std::string("unbalanced '") + c + "' in the launch configuration <<<...>>>");
        stack.pop_back();
      }
      if (c == ';' && stack.empty()) fail(open, "no '>>>' closes this kernel launch's '<<<' before ';'");
      if (c == ',' && stack.empty()) {
        l.config.emplace_back(arg_begin, k);
        arg_begin = k + 1;
      }
    }
    l.config.emplace_back(arg_begin, k);
    l.shut = k;
    for (const auto& [first, last] : l.config) {
      if (first == last) fail(open, "an empty argument in the launch configuration <<<blockDim, l2ctrl, stream>>>");
    }
    if (l.config.size() != 3) {
      fail(open, "the launch configuration takes 3 arguments <<<blockDim, l2ctrl, stream>>>, found " +
                     std::to_string(l.config.size()));
    }
    l.paren = k + 3;
    if (!punct(l.paren, '(')) fail(k, "the kernel launch '<<<...>>>' must be followed by its arguments '(...)'");
    l.close = matching(l.paren, false, "the kernel launch's arguments");
    return l;
  }

  // Every piece of the original text is kept, in order where it can be, so the line count
  // (and with it every later line number) does not change:
  //   callee G1 <<< cfg >>> G2 ( args )
  //   ::npuvp::acl::launch_chevrons("callee", G1 cfg, callee G2, args)
  std::string rewrite(const Launch& l) const {
    auto span = [&](size_t begin, size_t end) { return s_.substr(begin, end - begin); };
    const std::string callee = span(t_[l.callee].begin, t_[l.open - 1].end);
    std::string r = "::npuvp::acl::launch_chevrons(\"" + escaped(joined(l.callee, l.open)) + "\", ";
    r += span(t_[l.open - 1].end, t_[l.open].begin);      // G1
    r += span(t_[l.open + 2].end, t_[l.shut].begin);      // cfg
    r += ", " + callee;
    r += span(t_[l.shut + 2].end, t_[l.paren].begin);     // G2
    if (l.close > l.paren + 1) r += ", ";
    r += span(t_[l.paren].end, t_[l.close].begin);        // args
    r += ")";
    return r;
  }

  void find_kernels(std::vector<KernelDecl>& kernels) const {
    std::set<std::string> seen;
    for (size_t i = 0; i < t_.size(); ++i) {
      if (t_[i].kind != Token::Kind::Ident || text(i) != "__global__") continue;
      KernelDecl k;
      k.line = t_[i].line;
      k.is_template = after_template(i);
      // Up to the parameter list; a variable or anything else is not a kernel.
      size_t p = i + 1;
      while (p < t_.size() && !punct(p, '(') && !punct(p, ';') && !punct(p, '{') && !punct(p, '=')) ++p;
      if (!punct(p, '(') || t_[p - 1].kind != Token::Kind::Ident || p - 1 == i) continue;
      k.name = text(p - 1);
      const size_t close = matching(p, false, "the parameter list of kernel " + k.name);
      size_t after = close + 1;
      while (after < t_.size() && !punct(after, '{') && !punct(after, ';')) ++after;
      if (!punct(after, '{')) continue;  // a declaration: defined elsewhere
      parse_params(p + 1, close, k);
      if (seen.insert(k.name).second) kernels.push_back(std::move(k));
    }
  }
  // `template <...> [extern "C"] __global__`: skips the specifiers back to a closing '>'.
  bool after_template(size_t global) const {
    size_t j = global;
    while (j > 0) {
      --j;
      const std::string w = text(j);
      if (w == "extern" || w == "\"C\"" || w == "__aicore__" || w == "inline" || w == "static") continue;
      return punct(j, '>');
    }
    return false;
  }
  void parse_params(size_t first, size_t last, KernelDecl& k) const {
    std::vector<std::pair<size_t, size_t>> ranges;
    int depth = 0;
    size_t begin = first;
    for (size_t i = first; i < last; ++i) {
      if (t_[i].kind != Token::Kind::Punct) continue;
      const char c = s_[t_[i].begin];
      if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
      if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
      if (c == ',' && depth == 0) {
        ranges.emplace_back(begin, i);
        begin = i + 1;
      }
    }
    ranges.emplace_back(begin, last);
    if (ranges.size() == 1 && (first == last || (last == first + 1 && text(first) == "void"))) return;
    for (auto [b, e] : ranges) {
      for (size_t i = b; i < e; ++i) {
        if (punct(i, '=')) e = i;  // a default argument
      }
      if (b == e) fail(b, "an empty parameter in kernel " + k.name + "'s parameter list");
      KernelParam p;
      const bool named = e - b >= 2 && t_[e - 1].kind == Token::Kind::Ident && !scalar_words().count(text(e - 1));
      if (named) {
        p.name = text(e - 1);
        --e;
      } else {
        p.name = "arg" + std::to_string(k.params.size());
      }
      p.type = joined(b, e);
      bool scalar = true, pointer = false;
      for (size_t i = b; i < e; ++i) {
        const std::string w = text(i);
        if (punct(i, '*') || w == "GM_ADDR" || w == "__gm__") pointer = true;
        if (t_[i].kind == Token::Kind::Ident && !scalar_words().count(w)) scalar = false;
      }
      p.kind = pointer ? KernelParam::Kind::Pointer : scalar ? KernelParam::Kind::Scalar : KernelParam::Kind::Struct;
      if (p.kind == KernelParam::Kind::Struct && !p.type.empty() && p.type.back() == '&') p.type.pop_back();
      k.params.push_back(std::move(p));
    }
  }

  // aclrtlaunch_<kernel>: arguments converted back to the kernel's parameter types (GM
  // pointers from void*, structures copied from the host's at launch) and launched on the
  // stream, as the launch header generated for the host declares it.
  void append_launch_functions(const std::vector<KernelDecl>& kernels, std::string& src) const {
    int generated = 0;
    for (const auto& k : kernels) {
      if (k.is_template) continue;
      if (generated++ == 0) src += "#line 1 \"aclrtlaunch functions for " + escaped(path_) + "\"\n";
      std::string params, args;
      for (const auto& p : k.params) {
        const std::string name = "npuvp_" + p.name;
        switch (p.kind) {
          case KernelParam::Kind::Pointer:
            params += ", void* " + name;
            args += ", (" + p.type + ")" + name;
            break;
          case KernelParam::Kind::Scalar:
            params += ", " + p.type + " " + name;
            args += ", " + name;
            break;
          case KernelParam::Kind::Struct:
            params += ", " + p.type + "* " + name;
            args += ", *" + name;
            break;
        }
      }
      src += "extern \"C\" uint32_t aclrtlaunch_" + k.name + "(uint32_t npuvp_block_dim, void* npuvp_stream" + params +
             ") {\n  return ::npuvp::acl::launch_chevrons(\"" + k.name +
             "\", npuvp_block_dim, nullptr, npuvp_stream, " + k.name + args + ");\n}\n";
    }
  }

  const std::string& s_;
  const std::string& path_;
  std::vector<Token> t_;
};

}  // namespace

Translation translate(const std::string& text, const std::string& path) { return Translator(text, path).run(); }

std::string launch_header(const KernelDecl& k) {
  std::string guard = "NPUVP_ACLRTLAUNCH_" + k.name + "_H";
  std::transform(guard.begin(), guard.end(), guard.begin(), [](unsigned char c) { return std::toupper(c); });
  std::string params;
  for (const auto& p : k.params) {
    // The host's parameter names must not collide with blockDim and stream.
    const std::string name = (p.name == "blockDim" || p.name == "stream") ? p.name + "_" : p.name;
    switch (p.kind) {
      case KernelParam::Kind::Pointer: params += ", void* " + name; break;
      case KernelParam::Kind::Scalar: params += ", " + p.type + " " + name; break;
      case KernelParam::Kind::Struct: params += ", " + p.type + "* " + name; break;
    }
  }
  return "// Generated by npuvp: the host's launch function for kernel " + k.name + " (sim route).\n"
         "#ifndef " + guard + "\n#define " + guard + "\n#include <stdint.h>\n#include \"acl/acl_base.h\"\n\n"
         "#ifndef ACLRT_LAUNCH_KERNEL\n#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func\n#endif\n\n"
         "extern \"C\" uint32_t aclrtlaunch_" + k.name + "(uint32_t blockDim, aclrtStream stream" + params + ");\n"
         "#endif\n";
}

}  // namespace npuvp::cann
