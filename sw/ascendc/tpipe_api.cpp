// The TPipe additions of sw/ascendc/ascendc/tpipe_ext.h: GetTPipePtr, event ids, TQueBind's
// pipes, TBufPool's and LocalMemAllocator's bookkeeping, InitSocState.
#include <unordered_map>
#include <fmt/format.h>

#include "models/aicore/ai_core.h"
#include "models/aicore/product.h"
#include "sw/ascendc/kernel_operator.h"

namespace npuvp::ascendc {

using aicore::AiCore;
using aicore::MemSpace;
using aicore::Pipe;
using AscendC::TPosition;

namespace {
// Each core's TPipe: kernels on different cores construct their own.
std::unordered_map<const AiCore*, AscendC::TPipe*>& pipes_by_core() {
  static std::unordered_map<const AiCore*, AscendC::TPipe*> pipes;
  return pipes;
}
std::string event_name(AscendC::HardEvent e) {
  return fmt::format("{}_{}", aicore::pipe_name(event_src(e)), aicore::pipe_name(event_dst(e)));
}
}  // namespace

void register_pipe(AscendC::TPipe* pipe) { pipes_by_core()[&core()] = pipe; }
void unregister_pipe(AscendC::TPipe* pipe) {
  const AiCore* c = AiCore::current();
  auto& pipes = pipes_by_core();
  auto it = pipes.find(c);
  if (it != pipes.end() && it->second == pipe) pipes.erase(it);
}

aicore::Product current_product() { return core().product(); }
void pool_fail(const char* api, const char* why) { core().fail(api, why); }

std::pair<std::optional<std::pair<Pipe, Pipe>>, TPosition> bind_pipes(TPosition src, TPosition dst) {
  const aicore::Product product = core().product();
  if (src == TPosition::GM) return {queue_pipes(dst, product), dst};
  if (dst == TPosition::GM) return {queue_pipes(src, product), src};
  // VECIN -> VECOUT without vector work: MTE2 fills the buffer, MTE3 drains it.
  if (src == TPosition::VECIN && dst == TPosition::VECOUT) return {std::pair{Pipe::MTE2, Pipe::MTE3}, src};
  const bool l1_to_l0 = (src == TPosition::A1 && dst == TPosition::A2) || (src == TPosition::B1 && dst == TPosition::B2) ||
                        (src == TPosition::C1 && dst == TPosition::C2);
  if (l1_to_l0) return {queue_pipes(dst, product), dst};
  if (src == TPosition::CO1 && dst == TPosition::CO2) return {queue_pipes(src, product), src};
  core().fail(fmt::format("TQueBind<{}, {}>", position_name(src), position_name(dst)),
              "this binding is not modelled (GM<->X, VECIN->VECOUT, A1->A2, B1->B2, C1->C2 and CO1->CO2 are)");
}

uint64_t pool_take(const char* api, TPosition pos, uint64_t base, uint64_t size, uint64_t& used, uint64_t len) {
  const uint64_t at = (used + 31) / 32 * 32;
  if (len > size || at > size - len) {
    core().fail(api, fmt::format("the {} pool of {} B at offset {} has {} B left; {} B requested", position_name(pos),
                                 size, base, size > at ? size - at : 0, len));
  }
  used = at + len;
  return base + at;
}

void pool_share_check(const char* api, TPosition pos, TPosition share_pos, uint64_t len, uint64_t share_size) {
  if (position_space(pos) != position_space(share_pos)) {
    core().fail(api, fmt::format("a {} pool cannot use {} memory ({} vs {})", position_name(pos), position_name(share_pos),
                                 aicore::mem_space_name(position_space(pos)),
                                 aicore::mem_space_name(position_space(share_pos))));
  }
  if (len > share_size) {
    core().fail(api, fmt::format("a shared pool of {} B is longer than the pool it shares ({} B)", len, share_size));
  }
}

uint64_t allocator_take(MemSpace memory, MemSpace wanted, uint64_t& cursor, uint64_t bytes, const char* api) {
  AiCore& c = core();
  if (wanted != memory) {
    c.fail(api, fmt::format("the position is in {}, but this allocator hands out {}", aicore::mem_space_name(wanted),
                            aicore::mem_space_name(memory)));
  }
  const aicore::LocalBuffer* buf = c.buffer(memory);
  if (!buf) c.fail(api, fmt::format("this {} has no {}", c.kind_text(), aicore::mem_space_name(memory)));
  const uint64_t at = (cursor + 31) / 32 * 32;
  if (bytes == 0) c.fail(api, "tileSize 0");
  if (bytes > buf->size() || at > buf->size() - bytes) {
    c.fail(api, fmt::format("{} overflow: {} B requested at offset {}, but {} holds {} B", buf->name(), bytes, at,
                            buf->name(), buf->size()));
  }
  cursor = at + bytes;
  return at;
}

void init_soc_state() {
  AiCore& c = core();
  c.set_atomic({});
  if (c.has_pipe(Pipe::V)) {
    AscendC::SetMaskNorm();
    AscendC::ResetMask();
  }
}

}  // namespace npuvp::ascendc

namespace AscendC {

using npuvp::ascendc::core;
using npuvp::ascendc::event_name;

TPipe* GetTPipePtr() {
  auto& pipes = npuvp::ascendc::pipes_by_core();
  auto it = pipes.find(&core());
  if (it == pipes.end()) core().fail("GetTPipePtr", "no TPipe exists on this core (construct one first)");
  return it->second;
}

TEventID TPipe::fetch_event_id(HardEvent e) {
  auto& c = core();
  const unsigned i = static_cast<unsigned>(e);
  const uint64_t taken = event_ids_used_[i] | event_ids_allocated_[i];
  for (unsigned id = 0; id < std::min(c.params().event_ids, 64u); ++id) {
    if (!(taken >> id & 1)) return static_cast<TEventID>(id);
  }
  c.fail(fmt::format("TPipe::FetchEventID<{}>", event_name(e)),
         fmt::format("every one of the {} event ids is taken (by queues or AllocEventID)", c.params().event_ids));
}

TEventID TPipe::alloc_event_id(HardEvent e) {
  auto& c = core();
  const unsigned i = static_cast<unsigned>(e);
  const uint64_t taken = event_ids_used_[i] | event_ids_allocated_[i];
  for (unsigned id = 0; id < std::min(c.params().event_ids, 64u); ++id) {
    if (!(taken >> id & 1)) {
      event_ids_allocated_[i] |= uint64_t(1) << id;
      return static_cast<TEventID>(id);
    }
  }
  c.fail(fmt::format("TPipe::AllocEventID<{}>", event_name(e)),
         fmt::format("out of event ids: all {} are taken by queues or AllocEventID (ReleaseEventID missing?)",
                     c.params().event_ids));
}

void TPipe::release_event_id(HardEvent e, TEventID id) {
  auto& c = core();
  const unsigned i = static_cast<unsigned>(e);
  if (id < 0 || unsigned(id) >= std::min(c.params().event_ids, 64u) || !(event_ids_allocated_[i] >> id & 1)) {
    c.fail(fmt::format("TPipe::ReleaseEventID<{}>({})", event_name(e), int(id)),
           "the id was not taken by AllocEventID of this HardEvent (or is released already)");
  }
  event_ids_allocated_[i] &= ~(uint64_t(1) << id);
}

}  // namespace AscendC
