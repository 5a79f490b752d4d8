// The event-sync module: the flags that order pipes (SetFlag / WaitFlag, SPEC.md §1.7).
// A flag is named by (source pipe, destination pipe, event id). Setting counts up and a wait
// consumes one, so a flag set twice before its wait is not lost. The core sets and takes
// flags as it runs its pipes in simulated-time order; a WaitFlag whose flag is not set yet
// does not start (AiCore::run_pipes).
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "models/aicore/isa.h"

namespace npuvp::aicore {

class EventSync {
 public:
  // Ids [0, event_ids) are the kernel's; `model_ids` more per flag are the model's own (the
  // flags automatic synchronisation inserts), beyond any id a kernel may name.
  explicit EventSync(unsigned event_ids, unsigned model_ids = 0)
      : event_ids_(event_ids), ids_(event_ids + model_ids) {
    reset();
  }

  unsigned event_ids() const { return event_ids_; }
  // Empty if the id is legal for a kernel; else the reason.
  std::string check(uint32_t id) const;

  void set(Pipe src, Pipe dst, uint32_t id) { ++counts_[index(src, dst, id)]; }
  bool is_set(Pipe src, Pipe dst, uint32_t id) const { return count(src, dst, id) > 0; }
  // Consumes one set of a flag that is set.
  void take(Pipe src, Pipe dst, uint32_t id) { --counts_[index(src, dst, id)]; }
  // Clears every flag (a new task block starts with all flags clear).
  void reset();

 private:
  unsigned index(Pipe src, Pipe dst, uint32_t id) const {
    return (static_cast<unsigned>(src) * kNumPipes + static_cast<unsigned>(dst)) * ids_ + id;
  }
  unsigned count(Pipe src, Pipe dst, uint32_t id) const { return counts_[index(src, dst, id)]; }

  unsigned event_ids_;
  unsigned ids_;  // the kernel's and the model's
  std::vector<unsigned> counts_;
};

}  // namespace npuvp::aicore
