// An event that threads wait on while a condition they recheck on waking is false (a pipe
// queue with room, a flag set). notify_delta() notifies only when a thread waits: a
// notification nobody waits for wakes nobody, yet costs SystemC a delta cycle.
//
// Skipping it changes nothing as long as no thread can start waiting later in the delta in
// which the notification was skipped (it would have been woken, for nothing, one delta
// later). Use it only where the condition holds from the notification on until the waiter
// checks it, so that a waiter arriving after the notification does not wait at all.
#pragma once
#include <systemc>

namespace npuvp::aicore {

class ConditionEvent {
 public:
  void wait() {
    ++waiting_;
    sc_core::wait(event_);
    --waiting_;
  }
  void notify_delta() {
    if (waiting_ > 0) event_.notify(sc_core::SC_ZERO_TIME);
  }

 private:
  sc_core::sc_event event_;
  unsigned waiting_ = 0;
};

}  // namespace npuvp::aicore
