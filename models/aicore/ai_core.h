// A Da Vinci AI Core (coupled mode, SPEC.md §1.1): the scalar unit runs the kernel body
// natively and issues instructions into one bounded in-order queue per pipe; the pipes run
// in parallel in simulated time, ordered only by the event-sync flags. GM is reached through
// `gm_socket` (the BIU); local buffers are on-core byte arrays.
//
// One SystemC thread per core: the scalar unit's. It runs the pipes itself, as a small
// discrete-event loop over their instructions' starts and completions in simulated-time
// order (run_pipes), whenever it needs them to have progressed: a full queue, a flag it
// waits for, a barrier, its quantum. SystemC time catches up with the pipes before they
// reach GM or another core, so the memory system and the other cores see every access at
// its simulated time; between those points a core costs SystemC nothing.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include "models/aicore/cube_unit.h"
#include "models/aicore/data_mover.h"
#include "models/aicore/event_sync.h"
#include "models/aicore/isa.h"
#include "models/aicore/kernel_type.h"
#include "models/aicore/local_buffer.h"
#include "models/aicore/mmad_engine.h"
#include "models/aicore/pipe.h"
#include "models/aicore/product.h"
#include "models/aicore/scalar_stack.h"
#include "models/aicore/vector_unit.h"
#include "tlm/extensions.h"
#include "tlm/host_window.h"
#include "tlm/sim_mode.h"
#include "tlm/stats.h"

namespace npuvp::aicore {

// A kernel launch: the task scheduler hands its block ids to free cores until none are left.
struct Task {
  std::string name;
  std::function<void()> body;
  uint32_t block_num = 1;
  KernelType type = KernelType::Default;
  uint32_t blocks_done = 0;
  // How many blocks can run at once (the dispatch units the task scheduler has for this
  // kernel type): a launch-wide barrier (SyncAll) needs block_num within it.
  uint32_t resident_blocks = 0;
};

// What one core runs for one block (SPEC.md §1.3: the task scheduler configures the core).
struct BlockAssignment {
  uint32_t block_idx = 0;      // GetBlockIdx(): on the AIVs of a mixed launch 2 * block + sub-block
  uint32_t sub_block_idx = 0;  // GetSubBlockIdx()
  uint32_t sub_block_num = 1;  // GetSubBlockNum()
  uint32_t task_ration = 1;    // GetTaskRation(): AIVs per block on an AIV of a mixed launch
};

class AiCore;
// Who is told when a core finishes a block or fails (the task scheduler).
class BlockListener {
 public:
  virtual ~BlockListener() = default;
  virtual void block_finished(AiCore& core) = 0;
  virtual void core_failed(AiCore& core, uint32_t error_code) = 0;
};

// The SoC's cross-core flag counters as a core sees them (separated mode, SPEC.md §1.7).
// `core` is AiCore::id().
class CrossCoreFlags {
 public:
  virtual ~CrossCoreFlags() = default;
  // "" if the flag instruction is legal on `core` in this launch, else the reason.
  virtual std::string check_set(int core, uint32_t mode, uint32_t id) const = 0;
  virtual std::string check_wait(int core, uint32_t id) const = 0;
  // Counts up the counters `mode` names; "" or why it cannot (a counter at its limit).
  virtual std::string set(int core, uint32_t mode, uint32_t id) = 0;
  // Whether `core`'s counter `id` is above 0; take() counts it down.
  virtual bool is_set(int core, uint32_t id) const = 0;
  virtual void take(int core, uint32_t id) = 0;
  // Notified when one of `core`'s counters counts up (a waiting core wakes on it).
  virtual const sc_core::sc_event& counted_up(int core) const = 0;
};

class AiCore : public sc_core::sc_module {
 public:
  struct Params {
    Product product = Product::Ascend910;
    CoreKind kind = CoreKind::Coupled;  // set by the platform, not by core.* keys
    double clock_mhz = 1000;
    // Local buffer capacities (SPEC.md §1.2); 0 means the core has no such buffer.
    uint64_t ub_size = 256 * 1024;
    uint64_t l1_size = 1024 * 1024;
    uint64_t l0a_size = 64 * 1024;
    uint64_t l0b_size = 64 * 1024;
    uint64_t l0c_size = 256 * 1024;
    uint64_t bt_size = 0;
    uint64_t fb_size = 0;
    unsigned ub_alignment = 32;
    unsigned event_ids = 8;
    unsigned queue_depth = 32;
    uint64_t scalar_issue_cycles = 1;  // scalar cycles to issue one instruction
    uint64_t sync_cycles = 1;          // SetFlag / WaitFlag / barrier execution
    // Automatic synchronisation, as CANN's compiler inserts it (--cce-auto-sync, on by default):
    // a scalar GetValue/SetValue first waits for the MTE2, V and MTE3 pipes whose queued
    // instructions touch its bytes (scalar_access).
    bool auto_sync = true;
    double system_counter_mhz = 50;    // the counter GetSystemCycle reads (Ascend C: 50 MHz)
    sc_core::sc_time quantum = sc_core::sc_time(1, sc_core::SC_US);
    uint64_t scalar_stack_size = 8ull << 20;  // the kernel body runs on this stack (>= StackGuard::kMinimumSize)
    SimMode mode = SimMode::Timed;
    DataMover::Params mte;
    VectorUnit::Params vector;
    CubeUnit::Params cube;
    CubePath::Params cube_path;  // core.cube.impl: model, rtl or lockstep
  };
  // Reads every core.* parameter from the global Config (one set of keys for all cores).
  static Params params_from_config();

  tlm_utils::simple_initiator_socket<AiCore> gm_socket;

  AiCore(sc_core::sc_module_name name, int id, const Params& params);

  int id() const { return id_; }
  const Params& params() const { return params_; }
  sc_core::sc_time cycle() const { return cycle_; }

  // Host pointers into GM translate to device addresses through this window (GmAlloc memory
  // is simulated GM, visible to the host).
  void set_gm_window(uint8_t* host_base, uint64_t device_base, uint64_t size);
  uint64_t gm_address(const void* host_pointer) const;
  uint8_t* gm_host_pointer(uint64_t device_address, uint64_t length) const;  // nullptr if outside

  // Runs one block of `task` (the core must be idle); tells the listener when it is done.
  void run_block(Task& task, const BlockAssignment& block);
  bool busy() const { return task_ != nullptr; }
  void set_listener(BlockListener* listener) { listener_ = listener; }
  void set_cross_core_flags(CrossCoreFlags* flags) { cross_core_ = flags; }
  CoreKind core_kind() const { return params_.kind; }
  // "aiv core (ascend910b)": how errors name what this core is.
  std::string kind_text() const;
  // Error codes the status registers show.
  static constexpr uint32_t kErrorNone = 0, kErrorInstruction = 1, kErrorDeadlock = 2;

  // ---- Called by the kernel API, in the scalar thread ----
  // The core whose scalar thread is running now (nullptr outside a kernel).
  static AiCore* current() { return current_; }
  uint32_t block_idx() const { return block_.block_idx; }
  uint32_t block_num() const { return task_ ? task_->block_num : 0; }
  const BlockAssignment& block() const { return block_; }
  KernelType kernel_type() const { return task_ ? task_->type : KernelType::Default; }
  uint32_t resident_blocks() const { return task_ ? task_->resident_blocks : 0; }
  // Issues an instruction to its pipe (checked first; blocks while the queue is full).
  void issue(Instruction instr);
  // Runs a flag or barrier on the scalar pipe itself.
  void scalar_set_flag(Pipe dst, uint32_t id);
  void scalar_wait_flag(Pipe src, uint32_t id);
  // CrossCoreWaitFlag on the scalar pipe.
  void scalar_cross_core_wait(uint32_t mode, uint32_t id);
  // PipeBarrier<PIPE_ALL>: waits until every pipe is idle.
  void barrier_all();
  // Drains the pipes, then blocks the scalar unit until `event` (another core's doing, e.g.
  // SyncAll); `state` is what a deadlock report shows meanwhile.
  void scalar_wait_event(const sc_core::sc_event& event, const char* state);
  // The atomic mode (SetAtomicAdd/Max/Min/None): the GM writes of instructions issued from
  // now on are read-modify-writes at the L2 home node (op None: plain writes).
  void set_atomic(const AtomicExtension& mode) { atomic_mode_ = mode; }
  const AtomicExtension& atomic_mode() const { return atomic_mode_; }
  // Runs the pipes up to the scalar unit's local time and brings SystemC time up to it.
  void scalar_sync();
  // A scalar read (or write) of bytes [addr, addr + size) of `space` (GM: device addresses):
  // charges its issue, runs the pipes up to the scalar unit's time and, with
  // params().auto_sync, first waits for the pipes CANN's automatic synchronisation orders
  // with the scalar unit (MTE2, V, MTE3) that still hold an instruction writing those bytes
  // (or, for a write, reading or writing them), by the SetFlag/WaitFlag pair the compiler
  // would insert. The bytes are then the scalar unit's to copy.
  void scalar_access(MemSpace space, uint64_t addr, uint64_t size, bool write);
  // The scalar unit's time: what a kernel's clock reads (SystemC time plus how far the
  // scalar unit has run ahead of it).
  const sc_core::sc_time& scalar_time() const { return scalar_time_; }
  // GetSystemCycle: a scalar instruction reading the system counter (core.system_counter_mhz)
  // at the scalar unit's time.
  int64_t read_system_counter();
  // Charges scalar cycles for work that issues no instruction (address math, GetValue).
  void charge_scalar(uint64_t cycles);
  void charge_scalar(const sc_core::sc_time& time);
  LocalBuffer* buffer(MemSpace space);
  // Raises an error naming this core and the instruction. From the scalar thread it first
  // brings SystemC time up to the error's: the pipe event's under way, else the scalar unit's.
  [[noreturn]] void fail(const std::string& instruction, const std::string& why);

  // ---- Introspection ----
  bool has_pipe(Pipe pipe) const { return this->pipe(pipe) != nullptr; }
  Product product() const { return params_.product; }
  PipeUnit* pipe(Pipe pipe) const;
  const VectorUnit& vector_unit() const { return vector_; }  // its registers (GatherMask's count, GetMrgSortResult)
  std::string state() const;  // scalar and pipe states, for deadlock reports
  EventSync& flags() { return flags_; }

 private:
  void scalar_thread();
  // Runs the task's body; returns what ended it early (a fault, an exception), or "".
  std::string run_kernel_body();
  // Reports what run_kernel_body returned: "<core> block <n> @ <time>: <what> (last instruction: ...)".
  [[noreturn]] void fail_in_body(const std::string& what);
  Instruction last_issued_{};
  bool issued_any_ = false;
  // ---- The pipes, run by the scalar unit's thread in simulated-time order ----
  // A pipe's next event: the completion of what it runs, or the start of its front
  // instruction (a WaitFlag only once its flag is set).
  struct PipeEvent {
    PipeUnit* unit = nullptr;
    sc_core::sc_time at;
    bool completion = false;
  };
  // A pipe's next event, kept until the pipe changes (an event of it run, an instruction
  // pushed, a flag for it set): each event then looks at one pipe, not all of them.
  struct PipeSlot {
    PipeUnit* unit = nullptr;
    PipeEvent next;
  };
  std::vector<PipeSlot> slots_;  // the core's pipes, in pipe order
  // Each slot's event as one number ordered as next_pipe_event picks (time, then completion
  // before start), kNotReady when it cannot run: finding the earliest is a scan of a few
  // words in one host cache line, without branches on the slots' states.
  static constexpr uint64_t kNotReady = ~uint64_t(0);
  std::vector<uint64_t> slot_keys_;
  uint32_t stale_slots_ = 0;             // bit i: slot i must be refreshed before it is read
  uint32_t waits_other_core_slots_ = 0;  // bit i: slot i's front is a CrossCoreWaitFlag not yet set
  std::array<int, static_cast<size_t>(Pipe::ALL) + 1> slot_of_{};  // a pipe's slot, or -1
  void pipe_changed(Pipe p) {
    if (const int slot = slot_of_[static_cast<size_t>(p)]; slot >= 0) stale_slots_ |= 1u << slot;
  }
  void refresh(size_t slot);
  PipeEvent next_pipe_event();
  // Runs the pipes' events in time order until `done()` holds; with a horizon, only events
  // up to it, returning when none is left.
  template <class Done>
  void run_pipes(Done&& done, const sc_core::sc_time& horizon);
  template <class Done>
  void run_pipes(Done&& done) {
    run_pipes(std::forward<Done>(done), forever_);
  }
  const sc_core::sc_time forever_ = sc_core::sc_max_time();  // no horizon
  void start_front(PipeUnit& unit, const sc_core::sc_time& at);
  void complete_front(PipeUnit& unit, const sc_core::sc_time& at);
  // An instruction's start (what it reads, its GM accesses, its duration) and completion
  // (what it writes, the flags it sets), each at its simulated time. Only a start reaches
  // GM, so only a start is the instruction that gm_access's errors name (issuing_instr_).
  ExecResult start_instruction(Pipe pipe, const Instruction& instr, const sc_core::sc_time& at);
  void complete_instruction(const Instruction& instr, const sc_core::sc_time& at);
  // The front `n` instructions of `unit` (a burst's members), listed in burst_.
  const Instruction* const* front_instructions(const PipeUnit& unit, size_t n);
  CubePath::Buffers l0_buffers();  // the cube's operands and result
  // GM reads queued back to back (DataMover::start_reads), in timed and perf modes.
  size_t burst_length(const InstructionQueue& queue, const sc_core::sc_time& start);
  // Brings SystemC time up to `t` (other cores run meanwhile).
  void wait_until(const sc_core::sc_time& t);
  // Runs `wait` with the scalar unit's state showing what it is blocked on (deadlock reports
  // describe `instr` only when they are made).
  template <class Wait>
  void scalar_blocked(const char* state, const Instruction& instr, Wait&& wait) {
    scalar_state_ = state;
    scalar_state_instr_ = &instr;
    wait();
    current_ = this;  // another core's scalar thread may have run meanwhile
    scalar_state_instr_ = nullptr;
    scalar_state_ = "running the kernel body";
  }
  // Raises the error of an instruction the scalar unit runs itself, if it is illegal here.
  void fail_if_illegal(const Instruction& instr);
  std::string check(const Instruction& instr) const;
  std::string check_kind(const Instruction& instr) const;  // pipes and buffers this kind lacks
  // Appends a checked instruction to `target`'s queue, charging its issue (and a full
  // queue's stall) to the scalar unit.
  void enqueue(PipeUnit& target, Instruction&& instr);
  // The scalar unit's WaitFlag<src_S>(id), checked.
  void wait_scalar_flag(Pipe src, uint32_t id, const Instruction& waiting);
  // Automatic synchronisation (scalar_access): its flags use the one id past the kernel's,
  // and its counters are made when it first inserts a sync (runs without one show none).
  uint32_t auto_sync_id() const { return params_.event_ids; }
  void auto_sync(MemSpace space, uint64_t begin, uint64_t end, bool write);
  Counter* auto_syncs_ = nullptr;
  Counter* auto_sync_cycles_ = nullptr;
  // An instruction's GM spans: bytes through the host view of GM, time through the memory
  // system; spans outside GM go one by one through gm_transaction, which reports them.
  sc_core::sc_time gm_access(tlm::tlm_command cmd, DataMover::GmSpans& spans, Pipe pipe);
  sc_core::sc_time gm_transaction(tlm::tlm_command cmd, uint64_t address, uint8_t* data, uint32_t length, Pipe pipe,
                                 const AtomicExtension* atomic = nullptr);
  // An atomic instruction's GM writes: each span a transaction carrying its bytes and the
  // atomic op, which the L2 home node applies.
  sc_core::sc_time gm_atomic_write(DataMover::GmSpans& spans, Pipe pipe);
  // Most bytes one timing transaction covers (bursts stay moderate; lengths are 32-bit).
  static constexpr uint64_t kGmBatchBytes = 64 * 1024;
  SpanListExtension batch_;  // an instruction's spans cut to kGmBatchBytes, when they are more
  static constexpr unsigned kIssuesPerPause = 1024;  // functional mode: see issue()
  unsigned issued_since_pause_ = 0;
  tlm::tlm_generic_payload timing_tx_;  // the timing transactions gm_access sends (reused)

  static AiCore* current_;
  sc_core::sc_process_handle scalar_process_;

  int id_;
  Params params_;
  sc_core::sc_time cycle_;
  // scalar_issue_cycles and sync_cycles as times (charged per instruction).
  sc_core::sc_time issue_cost_, sync_cost_;
  StackGuard stack_guard_;
  static constexpr size_t kMemSpaces = static_cast<size_t>(MemSpace::FB) + 1;
  // Indexed by MemSpace and Pipe (lookups are per instruction); null where the core has none.
  std::array<std::unique_ptr<LocalBuffer>, kMemSpaces> buffers_;
  LocalBuffer* ub_ = nullptr;
  EventSync flags_;
  VectorUnit vector_;
  CubeUnit cube_;
  CubePath cube_path_;  // runs Mmads on cube_, the RTL cube, or both
  DataMover mover_;
  std::array<std::unique_ptr<PipeUnit>, static_cast<size_t>(Pipe::ALL) + 1> pipes_;
  // The instruction whose GM accesses are under way (they happen before its pipe waits).
  Pipe issuing_ = Pipe::S;
  const Instruction* issuing_instr_ = nullptr;
  AtomicExtension issuing_atomic_;  // its atomic mode (op None: plain)
  AtomicExtension atomic_mode_;     // what instructions issued now carry

  Task* task_ = nullptr;
  BlockAssignment block_;
  BlockListener* listener_ = nullptr;
  CrossCoreFlags* cross_core_ = nullptr;
  sc_core::sc_event start_;
  sc_core::sc_event never_;  // what a deadlocked core waits on, so the platform sees it stalled
  // The scalar unit's own time: ahead of SystemC time by up to a quantum (temporal decoupling).
  sc_core::sc_time scalar_time_ = sc_core::SC_ZERO_TIME;
  // The pipe events run so far all happened at or before `last_event_`; `event_time_` is the
  // time of the one running (GM accesses and errors happen then).
  sc_core::sc_time last_event_ = sc_core::SC_ZERO_TIME, event_time_ = sc_core::SC_ZERO_TIME;
  bool in_pipe_event_ = false;
  bool pipe_waits_other_core_ = false;    // a pipe's front is a CrossCoreWaitFlag not yet set
  bool scalar_waits_other_core_ = false;  // the scalar unit is in a CrossCoreWaitFlag
  // A burst's members and their outcomes (reused).
  std::vector<const Instruction*> burst_;
  std::vector<ExecResult> burst_results_;
  std::vector<sc_core::sc_time> burst_ends_;
  // What the scalar unit is doing, for deadlock reports: a phrase, followed by the
  // instruction it waits on when there is one (described only when a report is made).
  const char* scalar_state_ = "idle";
  const Instruction* scalar_state_instr_ = nullptr;

  HostWindow gm_window_;

  Counter& scalar_instructions_;
  Counter& scalar_queue_stall_cycles_;
  Counter& blocks_;
  Counter& gm_read_bytes_;
  Counter& gm_write_bytes_;
  Counter& gm_atomic_bytes_;
  Counter& cube_macs_;
  std::array<std::array<Counter*, kMemSpaces>, kMemSpaces> path_bytes_{};  // [src][dst], made on first use
  Counter& path_counter(MemSpace src, MemSpace dst);  // "core0.path.GM->L1.bytes"
  bool timed() const { return params_.mode != SimMode::Functional; }
  bool moves_data() const { return params_.mode != SimMode::Perf; }
};

}  // namespace npuvp::aicore
