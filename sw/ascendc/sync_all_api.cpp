// SyncAll (sw/ascendc/ascendc/sync_all.h): the hard form's barrier and the soft form's GM
// protocol, with the checks of the Ascend C reference
// (docs/zh/api/SIMD-API/基础API/同步控制/核间同步/SyncAll.md).
#include <algorithm>
#include <cstring>
#include <fmt/format.h>

#include "models/aicore/ai_core.h"
#include "sw/ascendc/scalar_wait.h"
#include "models/aicore/product.h"
#include "models/check/sanitizer.h"
#include "sw/ascendc/kernel_operator.h"

namespace npuvp::ascendc {

using aicore::AiCore;
using aicore::CoreKind;
using aicore::KernelType;
using aicore::MemSpace;

namespace {
constexpr uint64_t kSlotBytes = 32;  // one participant's flag in the soft form's workspaces

// The cores of the launch a SyncAll waits for, counted once per launch by whoever arrives.
uint32_t hard_participants(const AiCore& c, bool aiv_only) {
  const uint32_t groups = c.block_num();  // AI Cores (mixed) or blocks
  switch (c.kernel_type()) {
    case KernelType::Mix1To2: return aiv_only ? groups * c.block().sub_block_num : groups * (1 + c.block().sub_block_num);
    default: return groups;
  }
}

// Refuses a launch whose blocks cannot all be resident at once: SyncAll would wait for blocks
// that start only after it returns (CANN: the kernel hangs).
void check_resident(AiCore& c, const char* api) {
  if (c.block_num() > c.resident_blocks()) {
    c.fail(api, fmt::format("blockDim {} exceeds the {} blocks this kernel type can run at once on the platform: "
                            "SyncAll would wait for blocks that cannot start (on hardware the kernel hangs)",
                            c.block_num(), c.resident_blocks()));
  }
}

// The hard form's barrier: arrivals of this generation, and the event that releases them.
struct Barrier {
  uint32_t arrived = 0;
  uint64_t generation = 0;
  sc_core::sc_event released;
};
Barrier& barrier(bool aiv_only) {
  static Barrier barriers[2];
  return barriers[aiv_only ? 1 : 0];
}

// Soft form: how many slot writes have happened (any workspace), and the event each notifies.
struct SlotWrites {
  uint64_t count = 0;
  sc_core::sc_event written;
};
SlotWrites& slot_writes() {
  static SlotWrites w;
  return w;
}

// Restores the core's atomic mode when SyncAll returns (its own flag writes are plain).
class PlainWrites {
 public:
  explicit PlainWrites(AiCore& c) : core_(c), saved_(c.atomic_mode()) { c.set_atomic({}); }
  ~PlainWrites() { core_.set_atomic(saved_); }
  PlainWrites(const PlainWrites&) = delete;
  PlainWrites& operator=(const PlainWrites&) = delete;

 private:
  AiCore& core_;
  AtomicExtension saved_;
};
}  // namespace

void sync_all_hard(bool aiv_only) {
  AiCore& c = core();
  const char* api = aiv_only ? "SyncAll<true>()" : "SyncAll<false>()";
  if (!aicore::is_a2(c.product()) || c.core_kind() == CoreKind::Coupled) {
    c.fail(api, fmt::format("the hard SyncAll exists on separated Atlas A2 cores (ascend910b) only, not on a {} "
                            "core; use SyncAll(gmWorkspace, ubWorkspace)", c.kind_text()));
  }
  // SyncAll<true> synchronises the vector cores only: an AIC of a mixed kernel passes through.
  if (aiv_only && c.core_kind() == CoreKind::Aic) return;
  if (!aiv_only && c.kernel_type() != KernelType::Mix1To2) {
    c.fail(api, fmt::format("SyncAll<false> synchronises the AICs and AIVs of a mixed kernel; this one is {} "
                            "(CANN: a vector-only kernel hangs here; use SyncAll<true>)",
                            aicore::kernel_type_name(c.kernel_type())));
  }
  check_resident(c, api);
  // The hardware barrier: every earlier instruction finishes first (it is set on PIPE_ALL),
  // then the core counts in and waits for the last one.
  c.barrier_all();
  c.charge_scalar(c.params().sync_cycles);
  Barrier& b = barrier(aiv_only);
  const uint64_t mine = b.generation;
  // The sanitizer: every arrival happens before every departure of this generation.
  const uint64_t key = (uint64_t(aiv_only) << 63) | mine;
  auto* san = check::Sanitizer::active();
  if (san) san->barrier_arrive(c.id(), key);
  if (++b.arrived == hard_participants(c, aiv_only)) {
    b.arrived = 0;
    ++b.generation;
    c.scalar_sync();
    b.released.notify(sc_core::SC_ZERO_TIME);
    if (san) san->barrier_leave(c.id(), key);
    return;
  }
  wait_until(c, b.released, "waiting in SyncAll for the other cores of the launch",
             [&b, mine] { return b.generation != mine; });
  if (san) san->barrier_leave(c.id(), key);
}

namespace {
// The soft SyncAll's own flag protocol races by design (cores poll each other's slots): the
// sanitizer sees it as the barrier it implements instead.
class QuietChecks {
 public:
  explicit QuietChecks(int core) : core_(core) {
    if (auto* san = check::Sanitizer::active()) san->quiet(core_, true);
  }
  ~QuietChecks() {
    if (auto* san = check::Sanitizer::active()) san->quiet(core_, false);
  }
  QuietChecks(const QuietChecks&) = delete;
  QuietChecks& operator=(const QuietChecks&) = delete;

 private:
  int core_;
};
}  // namespace

void sync_all_soft(bool aiv_only, const void* gm_workspace, uint64_t gm_elements, MemSpace ub_space, uint64_t ub_addr,
                   uint64_t ub_elements, int32_t used_cores) {
  AiCore& c = core();
  const char* api = "SyncAll(gmWorkspace, ubWorkspace)";
  if (!aiv_only) c.fail(api, "the soft SyncAll synchronises vector cores only (isAIVOnly must be true)");
  if (c.core_kind() == CoreKind::Aic) return;  // vector cores only: an AIC of a mixed kernel passes through
  if (c.product() == aicore::Product::Ascend310P && c.core_kind() == CoreKind::Aiv) {
    c.fail(api, "the Vector Cores of ascend310p have no SyncAll");
  }
  const uint32_t blocks = c.block_num() * c.block().task_ration;  // the AIVs of the launch
  const uint64_t need = uint64_t(blocks) * kSlotBytes;
  if (gm_elements * sizeof(int32_t) < need) {
    c.fail(api, fmt::format("gmWorkspace holds {} B; it needs GetBlockNum() * 32 = {} B", gm_elements * 4, need));
  }
  if (ub_space != MemSpace::UB) c.fail(api, "ubWorkspace must be in UB (VECIN, VECCALC or VECOUT)");
  if (ub_elements * sizeof(int32_t) < need) {
    c.fail(api, fmt::format("ubWorkspace holds {} B; it needs GetBlockNum() * 32 = {} B", ub_elements * 4, need));
  }
  if (used_cores < 0 || uint32_t(used_cores) > blocks) {
    c.fail(api, fmt::format("usedCores {} out of range [0, GetBlockNum() = {}]", used_cores, blocks));
  }
  const uint32_t cores = used_cores == 0 ? blocks : uint32_t(used_cores);
  const uint32_t me = c.block_idx();
  if (me >= cores) c.fail(api, fmt::format("block {} is not one of the usedCores {} that synchronise", me, cores));
  check_resident(c, api);

  PlainWrites plain(c);
  QuietChecks quiet(c.id());
  const uint64_t gm = gm_device_address(gm_workspace);
  const uint8_t* ub = c.buffer(MemSpace::UB)->data();
  auto slot = [&](uint32_t k) {
    int32_t v;
    std::memcpy(&v, ub + ub_addr + k * kSlotBytes, sizeof v);
    return v;
  };
  // Every earlier GM write is done before this core counts itself in.
  c.barrier_all();
  // Count my slot up: read it, add one in UB, write it back.
  data_copy_count({MemSpace::UB, ub_addr + me * kSlotBytes}, {MemSpace::GM, gm + me * kSlotBytes}, 8, 4);
  c.barrier_all();
  const int32_t target = slot(me) + 1;
  const uint64_t key = (gm << 20) ^ uint64_t(uint32_t(target));
  auto* san = check::Sanitizer::active();
  if (san) san->barrier_arrive(c.id(), key);
  c.charge_scalar(2);
  std::memcpy(c.buffer(MemSpace::UB)->data() + ub_addr + me * kSlotBytes, &target, sizeof target);
  data_copy_count({MemSpace::GM, gm + me * kSlotBytes}, {MemSpace::UB, ub_addr + me * kSlotBytes}, 8, 4);
  c.barrier_all();
  SlotWrites& writes = slot_writes();
  ++writes.count;
  c.scalar_sync();
  writes.written.notify(sc_core::SC_ZERO_TIME);
  // Read every participant's slot until each has counted as far as mine.
  for (;;) {
    const uint64_t seen = writes.count;
    data_copy_count({MemSpace::UB, ub_addr}, {MemSpace::GM, gm}, uint64_t(cores) * 8, 4);
    c.barrier_all();
    bool all = true;
    for (uint32_t k = 0; k < cores && all; ++k) all = slot(k) >= target;
    c.charge_scalar(cores);
    if (all) {
      if (san) san->barrier_leave(c.id(), key);
      return;
    }
    // Nothing new can be read until some core writes its slot again.
    wait_until(c, writes.written, "waiting in SyncAll(gmWorkspace, ubWorkspace) for the other cores' flags",
               [&writes, seen] { return writes.count != seen; });
  }
}

}  // namespace npuvp::ascendc
