#include "sw/ascendc/sync_mutation.h"

#include <map>
#include <tuple>
#include "models/aicore/ai_core.h"

namespace npuvp::ascendc::mutation {

namespace {
struct Knob {
  bool recording = false;
  bool dropping = false;
  bool reached = false;
  bool wait_reached = false;
  bool in_queue = false;
  FlagPair target;
  std::vector<FlagPair> sets;
  std::map<std::tuple<int, int, uint32_t>, uint32_t> set_count, wait_count;
};
Knob& knob() {
  static Knob k;
  return k;
}
bool block_zero() {
  const aicore::AiCore* c = aicore::AiCore::current();
  return c && c->block_idx() == 0;
}
}  // namespace

void record(bool on) {
  knob().recording = on;
  knob().sets.clear();
  knob().set_count.clear();
}
const std::vector<FlagPair>& recorded() { return knob().sets; }
void drop(const FlagPair& pair) {
  Knob& k = knob();
  k.dropping = true;
  k.target = pair;
  k.set_count.clear();
  k.wait_count.clear();
}
bool dropped_any() { return knob().reached; }
bool dropped_wait() { return knob().wait_reached; }
void queue_scope(bool on) { knob().in_queue = on; }

bool skip_set(aicore::Pipe src, aicore::Pipe dst, uint32_t id) {
  Knob& k = knob();
  if ((!k.recording && !k.dropping) || !block_zero()) return false;
  const uint32_t n = k.set_count[{int(src), int(dst), id}]++;
  if (k.recording) k.sets.push_back({src, dst, id, n, k.in_queue});
  if (k.dropping && k.target.src == src && k.target.dst == dst && k.target.id == id && k.target.occurrence == n) {
    k.reached = true;
    return true;
  }
  return false;
}

bool skip_wait(aicore::Pipe src, aicore::Pipe dst, uint32_t id) {
  Knob& k = knob();
  if (!k.dropping || !block_zero()) return false;
  const uint32_t n = k.wait_count[{int(src), int(dst), id}]++;
  const bool hit = k.target.src == src && k.target.dst == dst && k.target.id == id && k.target.occurrence == n;
  k.wait_reached |= hit;
  return hit;
}

}  // namespace npuvp::ascendc::mutation
