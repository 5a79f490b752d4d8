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
  const auto d = static_cast<unsigned>(dst);
  if (waiting_[d] > 0) flag_set_[d].notify(sc_core::SC_ZERO_TIME);
}

void EventSync::wait(Pipe src, Pipe dst, uint32_t id) {
  unsigned& c = counts_[index(src, dst, id)];
  const auto d = static_cast<unsigned>(dst);
  while (c == 0) {
    ++waiting_[d];
    sc_core::wait(flag_set_[d]);
    --waiting_[d];
  }
  --c;
}

}  // namespace npuvp::aicore
