// Named counters every block registers; dumped as JSON and as a readable table.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>

namespace npuvp {

// A block may count on a hot path into something cheaper than its counters and move the
// counts in later (Stats::add_flush); reads through Stats see them moved, a Counter held by
// reference and read directly may not.
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
  // Forgets every counter and every flush.
  void clear();

  // `flush` moves counts that `owner` keeps aside into its counters. Every read here (and
  // counter(), reset()) runs the flushes first, so nothing read through Stats is short; the
  // owner removes its flush before it goes.
  void add_flush(const void* owner, std::function<void()> flush);
  void remove_flush(const void* owner);
  void flush() const;

  // Nested by the dots of the names: {"core3":{"pipe":{"V":{"busy_cycles":123}}}}.
  nlohmann::json to_json() const;
  // One line per counter: name, value, unit; aligned columns.
  std::string to_table() const;
  void write_json(const std::string& path) const;

  const std::map<std::string, std::unique_ptr<Counter>>& counters() const {
    flush();
    return counters_;
  }

 private:
  std::map<std::string, std::unique_ptr<Counter>> counters_;
  std::vector<std::pair<const void*, std::function<void()>>> flushes_;
};

}  // namespace npuvp
