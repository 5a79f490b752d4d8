// The event-sync module: the flags that order pipes (SetFlag / WaitFlag, SPEC.md §1.7).
// A flag is named by (source pipe, destination pipe, event id). Setting counts up and a wait
// consumes one, so a flag set twice before its wait is not lost.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>
#include "models/aicore/condition_event.h"
#include "models/aicore/isa.h"

namespace npuvp::aicore {

class EventSync {
 public:
  explicit EventSync(unsigned event_ids) : event_ids_(event_ids) { reset(); }

  unsigned event_ids() const { return event_ids_; }
  // Empty if the id is legal; else the reason.
  std::string check(uint32_t id) const;

  void set(Pipe src, Pipe dst, uint32_t id);
  // Blocks the calling SystemC thread until the flag is set, then consumes it.
  void wait(Pipe src, Pipe dst, uint32_t id);
  bool is_set(Pipe src, Pipe dst, uint32_t id) const { return count(src, dst, id) > 0; }
  // Clears every flag (a new task block starts with all flags clear).
  void reset();

 private:
  unsigned index(Pipe src, Pipe dst, uint32_t id) const {
    return (static_cast<unsigned>(src) * kNumPipes + static_cast<unsigned>(dst)) * event_ids_ + id;
  }
  unsigned count(Pipe src, Pipe dst, uint32_t id) const { return counts_[index(src, dst, id)]; }

  unsigned event_ids_;
  std::vector<unsigned> counts_;
  // Per destination pipe: a set wakes that pipe's thread (or the scalar unit's, for S) only
  // while it waits; one that waits later sees the set in its count.
  std::array<ConditionEvent, kNumPipes> flag_set_;
};

}  // namespace npuvp::aicore
