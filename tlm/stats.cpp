#include "tlm/stats.h"

#include <algorithm>
#include <fstream>
#include <string>
#include <fmt/format.h>
#include "tlm/log.h"
#include "tlm/output_file.h"

namespace npuvp {

Stats& Stats::global() {
  // Never destroyed, so that a block destroyed at exit after the function statics (the
  // device, held in a namespace-scope unique_ptr) can still remove its flush.
  static Stats* const stats = new Stats;
  return *stats;
}

Counter& Stats::counter(const std::string& name, const std::string& unit,
                        const std::string& description) {
  flush();
  auto& slot = counters_[name];
  if (!slot) {
    slot = std::make_unique<Counter>();
    slot->name = name;
  }
  // Whoever registers first may not know the unit; the first non-empty one wins.
  if (slot->unit.empty()) slot->unit = unit;
  if (slot->description.empty()) slot->description = description;
  return *slot;
}

const Counter* Stats::find(const std::string& name) const {
  flush();
  const auto it = counters_.find(name);
  return it == counters_.end() ? nullptr : it->second.get();
}

uint64_t Stats::value(const std::string& name) const {
  const Counter* c = find(name);
  return c ? c->value : 0;
}

void Stats::reset() {
  flush();
  for (auto& [name, c] : counters_) c->value = 0;
}

void Stats::clear() {
  counters_.clear();
  flushes_.clear();  // their owners' counters are gone
}

void Stats::add_flush(const void* owner, std::function<void()> flush) {
  remove_flush(owner);
  flushes_.emplace_back(owner, std::move(flush));
}

void Stats::remove_flush(const void* owner) {
  flushes_.erase(std::remove_if(flushes_.begin(), flushes_.end(), [&](const auto& f) { return f.first == owner; }),
                 flushes_.end());
}

void Stats::flush() const {
  for (const auto& f : flushes_) f.second();
}

// Each dot in a name opens a nested object. A name that is both a counter and the prefix of
// other counters ("dma" and "dma.bytes") cannot be a number and an object at once: its own
// value goes under the key "value" of the object ({"dma":{"value":3,"bytes":64}}). A counter
// literally named "<prefix>.value" would then share that slot; names avoid that.
nlohmann::json Stats::to_json() const {
  flush();
  nlohmann::json root = nlohmann::json::object();
  for (const auto& [name, c] : counters_) {
    nlohmann::json* node = &root;
    size_t begin = 0;
    while (true) {
      const size_t dot = name.find('.', begin);
      const std::string part = name.substr(begin, dot == std::string::npos ? dot : dot - begin);
      nlohmann::json& child = (*node)[part];
      if (dot == std::string::npos) {
        if (child.is_object()) {
          child["value"] = c->value;
        } else {
          child = c->value;
        }
        break;
      }
      if (child.is_number()) child = nlohmann::json{{"value", child}};  // leaf becomes prefix
      if (child.is_null()) child = nlohmann::json::object();
      node = &child;
      begin = dot + 1;
    }
  }
  return root;
}

std::string Stats::to_table() const {
  flush();
  size_t name_width = 0;
  size_t value_width = 0;
  for (const auto& [name, c] : counters_) {
    name_width = std::max(name_width, name.size());
    value_width = std::max(value_width, std::to_string(c->value).size());
  }
  std::string out;
  for (const auto& [name, c] : counters_) {
    std::string line = fmt::format("{:<{}}  {:>{}}", name, name_width, c->value, value_width);
    if (!c->unit.empty()) line += "  " + c->unit;
    out += line + "\n";
  }
  return out;
}

void Stats::write_json(const std::string& path) const {
  OutputFile out(path, "stats", "statistics");  // whole or not at all; write errors raise
  out.write(to_json().dump(2) + "\n");
  out.commit();
}

}  // namespace npuvp
