#include "models/aicore/event_sync.h"

#include <fmt/format.h>

namespace npuvp::aicore {

std::string EventSync::check(uint32_t id) const {
  if (id >= event_ids_) {
    return fmt::format("event id {} out of range [0, {}]", id, event_ids_ - 1);
  }
  return {};
}

void EventSync::reset() { counts_.assign(kNumPipes * kNumPipes * event_ids_, 0); }

void EventSync::set(Pipe src, Pipe dst, uint32_t id) {
  ++counts_[index(src, dst, id)];
  flag_set_[static_cast<unsigned>(dst)].notify_delta();
}

void EventSync::wait(Pipe src, Pipe dst, uint32_t id) {
  unsigned& c = counts_[index(src, dst, id)];
  while (c == 0) flag_set_[static_cast<unsigned>(dst)].wait();
  --c;
}

}  // namespace npuvp::aicore
