// Platform configuration: JSON files plus `key=value` overrides. Blocks declare the
// parameters they own (key, default, description); a key given by the user that no block
// declares is an error naming the key, and so is a value of the wrong type.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

namespace npuvp {

class Config {
 public:
  struct Parameter {
    std::string key;
    nlohmann::json value;     // effective value
    nlohmann::json fallback;  // the block's default
    std::string source;       // "default", a file path, or "command line"
    std::string description;
    nlohmann::json lo, hi;    // the range get_in checks (null: none declared)
  };

  // The process-wide configuration (SystemC elaborates once per process).
  static Config& global();

  // Nested JSON objects are flattened into dotted keys: {"core":{"ub":{"size":1}}} gives
  // "core.ub.size". Later loads and sets override earlier ones.
  void load_file(const std::string& path);
  void load_json(const nlohmann::json& object, const std::string& source);
  // "key=value": the value is parsed as JSON (numbers, booleans, arrays), else taken as a string.
  void set_override(const std::string& key_equals_value, const std::string& source = "command line");
  void set(const std::string& key, nlohmann::json value, const std::string& source);

  // Declares a parameter and returns its effective value. T may be bool, any integer type,
  // double or std::string. Unsigned integers also accept size strings ("64KiB", "4GiB", "1M").
  // Declaring the same key twice returns the same value (several cores share one key).
  template <class T>
  T get(const std::string& key, const T& fallback, const std::string& description);

  // get() for a number that must lie in [lo, hi] (a clock, a rate, a latency: outside such
  // a range a value is a mistake, and one that SystemC's time could not hold). Raises naming
  // the key, the range and where the value came from.
  template <class T>
  T get_in(const std::string& key, const T& fallback, const T& lo, const T& hi, const std::string& description);
  // The same for a rate or a time, in one of the ranges below.
  struct Range {
    double lo, hi;
  };
  double get_in(const std::string& key, double fallback, Range range, const std::string& description) {
    return get_in<double>(key, fallback, range.lo, range.hi, description);
  }
  // The ranges the models' rate and time parameters share: wide enough for any "what if",
  // narrow enough that a cycle is at least SystemC's 1 ps and a latency fits its time.
  static constexpr Range kClockMhz{1e-3, 1e5};
  static constexpr Range kPerCycle{1e-3, 1e6};  // bytes, repeats, fractal steps per cycle
  static constexpr Range kGbps{1e-3, 1e6};
  static constexpr Range kLatencyNs{0, 1e6};
  static constexpr Range kQuantumNs{1e-3, 1e9};
  // ... and the integer ones (get_in<T> with these bounds).
  static constexpr uint64_t kMaxCycles = 100000;           // a fixed latency or cost, in cycles
  static constexpr uint64_t kMaxBufferBytes = 64ull << 20;  // one of an AI Core's local buffers
  static constexpr unsigned kMaxUnits = 1024;              // slices, controllers, channels, ways
  // Deepest nesting of objects and arrays a config file or override value may have.
  static constexpr int kMaxDepth = 64;

  bool has_user_value(const std::string& key) const;

  // Errors (through raise) if a user-given key was never declared; names the nearest known key.
  void check_unused() const;

  // Every declared parameter, sorted by key (for `npuvp info`).
  std::vector<Parameter> parameters() const;

  // Forgets everything (tests).
  void clear();

 private:
  struct UserValue {
    nlohmann::json value;
    std::string source;
  };
  nlohmann::json lookup(const std::string& key, const nlohmann::json& fallback,
                        const std::string& description, std::string* source);
  std::map<std::string, UserValue> user_;
  std::map<std::string, Parameter> declared_;
};

// Converts and range-checks one JSON value; raises an error naming key and source on mismatch.
template <class T>
T config_value_as(const std::string& key, const nlohmann::json& value, const std::string& source);

template <class T>
T Config::get(const std::string& key, const T& fallback, const std::string& description) {
  std::string source;
  nlohmann::json v = lookup(key, nlohmann::json(fallback), description, &source);
  T result = config_value_as<T>(key, v, source);
  declared_[key].value = nlohmann::json(result);  // show "256KiB" as the bytes it means
  return result;
}

// The error get_in raises.
[[noreturn]] void config_out_of_range(const std::string& key, const nlohmann::json& value, const nlohmann::json& lo,
                                      const nlohmann::json& hi, const std::string& source);
// Whether a JSON number (or size string) lies outside [lo, hi]; false for anything else, whose
// type the conversion then reports.
bool config_number_outside(const nlohmann::json& value, long double lo, long double hi);

template <class T>
T Config::get_in(const std::string& key, const T& fallback, const T& lo, const T& hi, const std::string& description) {
  // The parameter's own range is checked on the value as given, before it is converted: a
  // value outside the type's range (-1 for an unsigned) is out of this range too, and the
  // message should quote this one.
  std::string source;
  const nlohmann::json given = lookup(key, nlohmann::json(fallback), description, &source);
  if (config_number_outside(given, static_cast<long double>(lo), static_cast<long double>(hi))) {
    config_out_of_range(key, given, lo, hi, source);
  }
  const T value = get<T>(key, fallback, description);
  if (!(value >= lo && value <= hi)) config_out_of_range(key, value, lo, hi, declared_[key].source);
  declared_[key].lo = lo;  // `npuvp info` shows it; scripts/param-fuzz.sh tries its ends
  declared_[key].hi = hi;
  return value;
}

extern template bool config_value_as<bool>(const std::string&, const nlohmann::json&, const std::string&);
extern template int config_value_as<int>(const std::string&, const nlohmann::json&, const std::string&);
extern template unsigned config_value_as<unsigned>(const std::string&, const nlohmann::json&, const std::string&);
extern template long config_value_as<long>(const std::string&, const nlohmann::json&, const std::string&);
extern template unsigned long config_value_as<unsigned long>(const std::string&, const nlohmann::json&, const std::string&);
extern template long long config_value_as<long long>(const std::string&, const nlohmann::json&, const std::string&);
extern template unsigned long long config_value_as<unsigned long long>(const std::string&, const nlohmann::json&, const std::string&);
extern template double config_value_as<double>(const std::string&, const nlohmann::json&, const std::string&);
extern template std::string config_value_as<std::string>(const std::string&, const nlohmann::json&, const std::string&);

}  // namespace npuvp
