// Named counters every block registers; dumped as JSON and as a readable table.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <nlohmann/json.hpp>

namespace npuvp {

struct Counter {
  std::string name;  // dotted: "core3.pipe.V.busy_cycles"
  std::string unit;  // "cycles", "bytes", "instructions", ...
  std::string description;
  uint64_t value = 0;
  Counter& operator+=(uint64_t v) { value += v; return *this; }
  Counter& operator++() { ++value; return *this; }
};

class Stats {
 public:
  static Stats& global();

  // Returns the counter, creating it on first use; the reference stays valid until clear().
  Counter& counter(const std::string& name, const std::string& unit = "",
                   const std::string& description = "");
  const Counter* find(const std::string& name) const;
  uint64_t value(const std::string& name) const;  // 0 if absent

  // Sets every counter back to zero (keeps them registered).
  void reset();
  void clear();

  // Nested by the dots of the names: {"core3":{"pipe":{"V":{"busy_cycles":123}}}}.
  nlohmann::json to_json() const;
  // One line per counter: name, value, unit; aligned columns.
  std::string to_table() const;
  void write_json(const std::string& path) const;

  const std::map<std::string, std::unique_ptr<Counter>>& counters() const { return counters_; }

 private:
  std::map<std::string, std::unique_ptr<Counter>> counters_;
};

}  // namespace npuvp
