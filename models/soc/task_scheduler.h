// The Task Scheduler (SPEC.md §1.3): takes a kernel launch, hands its block ids to free
// cores as they finish (blockDim may exceed the core count), and keeps per-core status
// registers the host reads through `status_socket` (transport_dbg or b_transport reads).
//
// Dispatch units by kernel type: on a coupled chip every AI Core (and, for AIV-only, every
// Vector Core too); on a separated chip each AIV (AIV-only, the default), each AIC (AIC-only)
// or each AI Core's group of one AIC and its AIVs (mixed 1:2: block i runs on the AIC and
// both AIVs of one AI Core, GetBlockIdx() on the AIVs is 2i + GetSubBlockIdx()).
//
// AI CPU kernels (issue 28) go through the scheduler too: one stream of tasks, each task
// starting after the one before it has finished, whichever engine runs it. `history()` keeps
// every task's engine, name and simulated start and end, in dispatch order.
//
// Status registers (32-bit, little endian):
//   0x000 number of cores        0x004 blockDim of the last launch
//   0x008 blocks finished        0x00C kernel type (0 default, 1 AIV-only, 2 AIC-only, 3 mix 1:2)
//   issue 28, the stream's tasks of both engines:
//   0x010 tasks dispatched (AI Core and AI CPU kernels)   0x014 kind of the last (0 AI Core, 1 AI CPU)
//   0x018 AI CPU tasks dispatched   0x01C AI CPU blocks of the last AI CPU task
//   0x020 AI CPU state (0 idle, 1 running)
//   0x100 + 0x20 * core:  +0x00 core id  +0x04 kind (0 coupled, 1 AIC, 2 AIV)
//                         +0x08 state (0 idle, 1 running, 2 error)  +0x0C error code
//                         +0x10 current (or last) block id  +0x14 blocks run
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include "models/aicore/ai_core.h"
#include "models/soc/aicpu.h"
#include "models/soc/cross_core_sync.h"
#include "tlm/stats.h"

namespace npuvp::soc {

class TaskScheduler : public sc_core::sc_module, public aicore::BlockListener {
 public:
  static constexpr uint64_t kCoreRegistersBase = 0x100;
  static constexpr uint64_t kCoreRegistersStride = 0x20;
  enum class CoreState : uint32_t { Idle = 0, Running = 1, Error = 2 };

  // Unbound is fine: the host reads the registers when it has a path to them.
  tlm_utils::simple_target_socket_optional<TaskScheduler> status_socket;

  // `cores` in id order; `aiv_per_group` AIVs belong to each AIC's AI Core (separated chips).
  TaskScheduler(sc_core::sc_module_name name, std::vector<aicore::AiCore*> cores, bool separated,
                unsigned aiv_per_group, CrossCoreSync* cross_core);

  // Checks the launch, resolves its kernel type and starts its first blocks; the simulation
  // then runs them. Raises on a blockDim outside [1, 65535].
  void launch(aicore::Task& task);
  // Marks every busy core as failed with a deadlock (the SoC found that nothing can move).
  void mark_deadlock();

  // Issue 28: the AI CPU this scheduler dispatches AI CPU kernels to.
  void set_aicpu(AiCpu* aicpu) { aicpu_ = aicpu; }
  // Runs AI CPU kernel `name` as the stream's next task (after every task dispatched before
  // it has finished; from the host between launches) and returns when it has finished.
  // Raises if no AI CPU is attached.
  AiCpu::Report run_aicpu(const std::string& name, const AicpuArgs& args, uint32_t blocks);

  enum class Engine : uint32_t { AiCore = 0, AiCpu = 1 };
  struct TaskRecord {
    Engine engine;
    std::string name;
    uint32_t blocks = 0;
    sc_core::sc_time start, end;  // end is zero while the task runs
  };
  const std::vector<TaskRecord>& history() const { return history_; }

  // The register values (what status_socket reads).
  uint32_t register_value(uint64_t offset, bool* mapped = nullptr) const;
  CoreState state(unsigned core) const { return status_.at(core).state; }

  // BlockListener
  void block_finished(aicore::AiCore& core) override;
  void core_failed(aicore::AiCore& core, uint32_t error_code) override;

 private:
  struct CoreStatus {
    CoreState state = CoreState::Idle;
    uint32_t error_code = 0;
    uint32_t block = 0;
    uint32_t blocks_run = 0;
  };
  struct Unit {
    std::vector<int> cores;  // the AIC first in a group
    unsigned running = 0;    // cores of the unit still in their block
  };

  void build_units(aicore::KernelType type);
  void dispatch(unsigned unit, uint32_t block);
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& tx);

  std::vector<aicore::AiCore*> cores_;
  bool separated_;
  unsigned aiv_per_group_;
  CrossCoreSync* cross_core_;
  std::vector<CoreStatus> status_;
  std::vector<Unit> units_;
  std::vector<int> unit_of_core_;
  aicore::Task* task_ = nullptr;  // the launch under way (the host owns it; cleared when it ends)
  uint32_t next_block_ = 0;
  // What the launch registers show, kept after the launch's Task is gone.
  uint32_t last_block_dim_ = 0;
  uint32_t last_blocks_done_ = 0;
  aicore::KernelType last_type_ = aicore::KernelType::Default;
  // Issue 28: the stream's tasks of both engines.
  AiCpu* aicpu_ = nullptr;
  bool aicpu_running_ = false;
  uint32_t last_aicpu_blocks_ = 0;
  std::vector<TaskRecord> history_;
  Counter& aicore_tasks_;
  Counter& aicpu_tasks_;
};

}  // namespace npuvp::soc
