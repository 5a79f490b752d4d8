#include "models/aicore/event_sync.h"

#include <fmt/format.h>

namespace npuvp::aicore {

std::string EventSync::check(uint32_t id) const {
  if (id >= event_ids_) {
    return fmt::format("event id {} out of range [0, {}]", id, event_ids_ - 1);
  }
  return {};
}

void EventSync::reset() { counts_.assign(kNumPipes * kNumPipes * ids_, 0); }

}  // namespace npuvp::aicore
