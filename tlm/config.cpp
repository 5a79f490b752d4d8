#include "tlm/config.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <set>
#include <type_traits>
#include "tlm/log.h"

namespace npuvp {

namespace {

constexpr const char* kBlock = "config";

std::string source_text(const std::string& source) {
  return source == "default" ? std::string("(default)") : "(from " + source + ")";
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

// User text in messages is shortened: a 5 MB token is reported, not echoed.
constexpr size_t kShownChars = 120;
std::string shown(const std::string& text, size_t limit = kShownChars) {
  if (text.size() <= limit) return text;
  return fmt::format("{}... ({} characters)", text.substr(0, limit), text.size());
}
std::string shown(const nlohmann::json& value) {
  return shown(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

// Parses configuration JSON: at most Config::kMaxDepth levels of objects and arrays (deeper
// input is no configuration, and would make every later walk of it deep), and no key twice
// in one object (the second silently winning hides a mistake). Returns a discarded value and
// sets `problem` on either; `allow_syntax_errors` returns a discarded value for bad syntax
// with `problem` empty (overrides that are plain strings), else the syntax error is the problem.
nlohmann::json parse_config_json(const std::string& text, bool allow_syntax_errors, std::string* problem) {
  struct Refused {};
  std::vector<std::set<std::string>> keys;  // of each object being parsed
  auto check = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (depth > Config::kMaxDepth) {
      *problem = fmt::format("nested more than {} levels deep (objects and arrays)", Config::kMaxDepth);
      throw Refused{};
    }
    if (event == Event::object_start) keys.emplace_back();
    if (event == Event::object_end && !keys.empty()) keys.pop_back();
    if (event == Event::key && !keys.empty() && !keys.back().insert(parsed.get<std::string>()).second) {
      *problem = fmt::format("key '{}' appears twice in one object", shown(parsed.get<std::string>()));
      throw Refused{};
    }
    return true;
  };
  problem->clear();
  try {
    return nlohmann::json::parse(text, check, /*allow_exceptions=*/!allow_syntax_errors);
  } catch (const Refused&) {
  } catch (const nlohmann::json::exception& e) {
    *problem = shown(std::string(e.what()), 400);  // the parser's message quotes the token it read
    if (problem->empty()) *problem = "not valid JSON";
  }
  return nlohmann::json(nlohmann::json::value_t::discarded);
}

// Adds every leaf of `object` under `prefix` to `out`; arrays and scalars are leaves. An
// explicit stack, not recursion: the depth is bounded at parse time, but no input should
// decide how deep the host stack goes.
void flatten(const nlohmann::json& object, const std::string& prefix,
             std::vector<std::pair<std::string, nlohmann::json>>& out) {
  std::vector<std::pair<const nlohmann::json*, std::string>> pending{{&object, prefix}};
  while (!pending.empty()) {
    auto [node, path] = std::move(pending.back());
    pending.pop_back();
    for (auto it = node->cbegin(); it != node->cend(); ++it) {
      std::string key = path.empty() ? it.key() : path + "." + it.key();
      if (it.value().is_object()) {
        pending.emplace_back(&it.value(), std::move(key));
      } else {
        out.emplace_back(std::move(key), it.value());
      }
    }
  }
}

// Parses "64KiB", "1M", "512B", "4096", "0x1000": K/Ki = 2^10, M/Mi = 2^20, G/Gi = 2^30, T/Ti = 2^40,
// an optional trailing 'B'. Binary multiples only: memory sizes are never decimal here.
std::optional<uint64_t> parse_size(const std::string& text) {
  const std::string s = trim(text);
  size_t i = 0;
  uint64_t number = 0;
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  // Addresses are written in hex: "0x100000000" (digits may be grouped with '_').
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    bool any = false;
    for (i = 2; i < s.size(); ++i) {
      if (s[i] == '_') continue;
      if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
      if (number > (kMax >> 4)) return std::nullopt;
      number = number * 16 + static_cast<uint64_t>(std::isdigit(static_cast<unsigned char>(s[i]))
                                                        ? s[i] - '0'
                                                        : std::tolower(static_cast<unsigned char>(s[i])) - 'a' + 10);
      any = true;
    }
    return any ? std::optional<uint64_t>(number) : std::nullopt;
  }
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    const uint64_t digit = static_cast<uint64_t>(s[i] - '0');
    if (number > (kMax - digit) / 10) return std::nullopt;
    number = number * 10 + digit;
    ++i;
  }
  if (i == 0) return std::nullopt;
  std::string suffix = trim(s.substr(i));
  if (!suffix.empty() && suffix.back() == 'B') suffix.pop_back();
  if (suffix.size() == 2 && suffix[1] == 'i') suffix.pop_back();
  unsigned shift = 0;
  if (suffix.empty()) {
    shift = 0;
  } else if (suffix.size() == 1) {
    switch (std::toupper(static_cast<unsigned char>(suffix[0]))) {
      case 'K': shift = 10; break;
      case 'M': shift = 20; break;
      case 'G': shift = 30; break;
      case 'T': shift = 40; break;
      default: return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  if (number > (kMax >> shift)) return std::nullopt;
  return number << shift;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

[[noreturn]] void type_error(const std::string& key, const nlohmann::json& value,
                             const std::string& source, const char* expected) {
  raise(kBlock, "config key '{}': expected {}, got {} {}", key, expected, shown(value), source_text(source));
}

}  // namespace

void config_out_of_range(const std::string& key, const nlohmann::json& value, const nlohmann::json& lo,
                         const nlohmann::json& hi, const std::string& source) {
  // An integer given for a real-valued parameter is shown as the real it means ("0.0").
  const bool real = lo.is_number_float() && (value.is_number_integer() || value.is_number_unsigned());
  raise(kBlock, "config key '{}': {} is out of range [{}, {}] {}", key, shown(real ? nlohmann::json(value.get<double>()) : value),
        lo.dump(), hi.dump(), source_text(source));
}

bool config_number_outside(const nlohmann::json& value, long double lo, long double hi) {
  long double v = 0;
  if (value.is_number_unsigned()) {
    v = static_cast<long double>(value.get<uint64_t>());
  } else if (value.is_number_integer()) {
    v = static_cast<long double>(value.get<int64_t>());
  } else if (value.is_number_float()) {
    v = static_cast<long double>(value.get<double>());
  } else if (value.is_string()) {
    const auto size = parse_size(value.get<std::string>());
    if (!size) return false;
    v = static_cast<long double>(*size);
  } else {
    return false;
  }
  return !(v >= lo && v <= hi);
}

namespace {

template <class T>
T integer_as(const std::string& key, const nlohmann::json& value, const std::string& source) {
  constexpr bool kUnsigned = std::is_unsigned_v<T>;
  const char* expected =
      kUnsigned ? "an unsigned integer (or a size like \"256KiB\" or hex like \"0x1000\")" : "an integer";
  auto out_of_range = [&]() {
    raise(kBlock, "config key '{}': {} is out of range [{}, {}] {}", key, shown(value),
          std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), source_text(source));
  };

  if (value.is_number_unsigned()) {
    const auto v = value.get<uint64_t>();
    if (v > static_cast<uint64_t>(std::numeric_limits<T>::max())) out_of_range();
    return static_cast<T>(v);
  }
  if (value.is_number_integer()) {  // negative (non-negative integers are number_unsigned)
    const auto v = value.get<int64_t>();
    if constexpr (kUnsigned) {
      if (v < 0) out_of_range();
      if (static_cast<uint64_t>(v) > static_cast<uint64_t>(std::numeric_limits<T>::max())) {
        out_of_range();
      }
    } else {
      if (v < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
          v > static_cast<int64_t>(std::numeric_limits<T>::max())) {
        out_of_range();
      }
    }
    return static_cast<T>(v);
  }
  if constexpr (kUnsigned) {
    if (value.is_string()) {
      const auto size = parse_size(value.get<std::string>());
      if (!size) type_error(key, value, source, expected);
      if (*size > static_cast<uint64_t>(std::numeric_limits<T>::max())) out_of_range();
      return static_cast<T>(*size);
    }
  }
  type_error(key, value, source, expected);
}

}  // namespace

Config& Config::global() {
  static Config config;
  return config;
}

void Config::load_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    raise(kBlock, "config file '{}' is a directory, not a JSON file", shown(path));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) raise(kBlock, "cannot open config file '{}': {}", shown(path), std::strerror(errno));
  std::string text;
  try {
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::exception&) {
    in.setstate(std::ios::badbit);
  }
  if (in.bad()) raise(kBlock, "cannot read config file '{}': {}", shown(path), std::strerror(errno));
  std::string problem;
  const nlohmann::json object = parse_config_json(text, /*allow_syntax_errors=*/false, &problem);
  if (!problem.empty()) raise(kBlock, "config file '{}': {}", shown(path), problem);
  load_json(object, path);
}

void Config::load_json(const nlohmann::json& object, const std::string& source) {
  if (!object.is_object()) {
    raise(kBlock, "config {}: the top level must be a JSON object, got {}", source_text(source),
          object.type_name());
  }
  std::vector<std::pair<std::string, nlohmann::json>> leaves;
  flatten(object, "", leaves);
  for (auto& [key, value] : leaves) set(key, std::move(value), source);
}

void Config::set_override(const std::string& key_equals_value, const std::string& source) {
  const auto eq = key_equals_value.find('=');
  if (eq == std::string::npos) {
    raise(kBlock, "override '{}' {}: expected key=value", shown(key_equals_value), source_text(source));
  }
  const std::string key = trim(key_equals_value.substr(0, eq));
  const std::string text = key_equals_value.substr(eq + 1);
  std::string problem;
  nlohmann::json value = parse_config_json(text, /*allow_syntax_errors=*/true, &problem);
  if (!problem.empty()) raise(kBlock, "override '{}' {}: the value is {}", shown(key), source_text(source), problem);
  if (value.is_discarded()) value = text;  // not JSON: a plain string such as a path
  set(key, std::move(value), source);
}

void Config::set(const std::string& key, nlohmann::json value, const std::string& source) {
  if (key.empty()) raise(kBlock, "empty config key {}", source_text(source));
  user_[key] = UserValue{std::move(value), source};
}

nlohmann::json Config::lookup(const std::string& key, const nlohmann::json& fallback,
                              const std::string& description, std::string* source) {
  const auto user = user_.find(key);
  const bool from_user = user != user_.end();
  nlohmann::json value = from_user ? user->second.value : fallback;
  std::string from = from_user ? user->second.source : "default";

  // The first declaration's default and description stay; the effective value follows
  // later sets. A declared key counts as used for check_unused().
  auto [it, inserted] = declared_.try_emplace(key);
  Parameter& p = it->second;
  if (inserted) {
    p.key = key;
    p.fallback = fallback;
  }
  if (p.description.empty()) p.description = description;
  p.value = value;
  p.source = from;

  if (source) *source = std::move(from);
  return value;
}

bool Config::has_user_value(const std::string& key) const { return user_.count(key) != 0; }

void Config::check_unused() const {
  // The "did you mean" search is bounded: the first kReported unknown keys, each no longer
  // than kSuggestChars (beyond that no known key is near), get one.
  constexpr size_t kReported = 20, kSuggestChars = 100;
  std::vector<std::string> problems;
  size_t unknown = 0;
  for (const auto& [key, user] : user_) {
    if (declared_.count(key)) continue;
    if (++unknown > kReported) continue;
    std::string text = fmt::format("unknown config key '{}' {}", shown(key), source_text(user.source));
    const std::string* nearest = nullptr;
    size_t best = std::numeric_limits<size_t>::max();
    for (const auto& [known, parameter] : declared_) {
      if (key.size() > kSuggestChars) break;
      const size_t d = edit_distance(key, known);
      if (d < best) {
        best = d;
        nearest = &known;
      }
    }
    if (nearest) text += fmt::format("; did you mean '{}'?", *nearest);
    problems.push_back(std::move(text));
  }
  if (problems.empty()) return;
  std::string message = problems.front();
  for (size_t i = 1; i < problems.size(); ++i) message += "\n" + problems[i];
  if (unknown > kReported) message += fmt::format("\n... and {} more unknown keys", unknown - kReported);
  raise_error(kBlock, message);
}

std::vector<Config::Parameter> Config::parameters() const {
  std::vector<Parameter> out;
  out.reserve(declared_.size());
  for (const auto& [key, parameter] : declared_) out.push_back(parameter);  // map: sorted
  return out;
}

void Config::clear() {
  user_.clear();
  declared_.clear();
}

template <class T>
T config_value_as(const std::string& key, const nlohmann::json& value, const std::string& source) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!value.is_boolean()) type_error(key, value, source, "a boolean (true or false)");
    return value.get<bool>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!value.is_string()) type_error(key, value, source, "a string");
    return value.get<std::string>();
  } else if constexpr (std::is_same_v<T, double>) {
    if (!value.is_number()) type_error(key, value, source, "a number");
    return value.get<double>();
  } else {
    static_assert(std::is_integral_v<T>, "config values are bool, integers, double or string");
    return integer_as<T>(key, value, source);
  }
}

template bool config_value_as<bool>(const std::string&, const nlohmann::json&, const std::string&);
template int config_value_as<int>(const std::string&, const nlohmann::json&, const std::string&);
template unsigned config_value_as<unsigned>(const std::string&, const nlohmann::json&, const std::string&);
template long config_value_as<long>(const std::string&, const nlohmann::json&, const std::string&);
template unsigned long config_value_as<unsigned long>(const std::string&, const nlohmann::json&, const std::string&);
template long long config_value_as<long long>(const std::string&, const nlohmann::json&, const std::string&);
template unsigned long long config_value_as<unsigned long long>(const std::string&, const nlohmann::json&, const std::string&);
template double config_value_as<double>(const std::string&, const nlohmann::json&, const std::string&);
template std::string config_value_as<std::string>(const std::string&, const nlohmann::json&, const std::string&);

}  // namespace npuvp
