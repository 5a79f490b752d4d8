#include "models/aicore/ai_core.h"
#include "models/aicore/kernel_body_return.h"

#include <cmath>
#include <fmt/format.h>

#include "models/aicore/footprint.h"
#include "models/check/sanitizer.h"
#include "tlm/config.h"
#include "tlm/log.h"
#include "tlm/sim_time.h"
#include "tlm/tracer.h"

namespace npuvp::aicore {

AiCore* AiCore::current_ = nullptr;

namespace {
// A parameter declared from a table row: its key, the field it sets, its description.
template <class T>
struct Declared {
  const char* key;
  T* value;
  const char* what;
};
}  // namespace

AiCore::Params AiCore::params_from_config() {
  Config& c = Config::global();
  Params p;
  p.product = product_from_name(c.get<std::string>("core.product", product_name(p.product),
                                                   "ascend910, ascend310p or ascend910b: paths, types, buffers"));
  p.clock_mhz = c.get_in("core.clock_mhz", p.clock_mhz, Config::kClockMhz, "AI Core clock in MHz");
  const Declared<uint64_t> buffers[] = {
      {"core.ub.size", &p.ub_size, "Unified Buffer capacity in bytes"},
      {"core.l1.size", &p.l1_size, "L1 buffer capacity in bytes"},
      {"core.l0a.size", &p.l0a_size, "L0A capacity in bytes"},
      {"core.l0b.size", &p.l0b_size, "L0B capacity in bytes"},
      {"core.l0c.size", &p.l0c_size, "L0C capacity in bytes"},
      {"core.bt.size", &p.bt_size, "BiasTable capacity in bytes (0: none)"},
      {"core.fb.size", &p.fb_size, "FixPipe buffer capacity in bytes (0: none)"},
  };
  for (const auto& b : buffers) *b.value = c.get_in<uint64_t>(b.key, *b.value, 0, Config::kMaxBufferBytes, b.what);
  p.ub_alignment = c.get<unsigned>("core.ub.alignment", p.ub_alignment, "UB address alignment in bytes");
  p.event_ids = c.get_in<unsigned>("core.event_ids", p.event_ids, 1u, 16u, "event ids per HardEvent");
  p.auto_sync = c.get<bool>("core.auto_sync", p.auto_sync,
                            "scalar GetValue/SetValue wait for the MTE2/V/MTE3 instructions touching their "
                            "bytes, as CANN's --cce-auto-sync (false: only the kernel's own flags order them)");
  p.queue_depth = c.get_in<unsigned>("core.queue_depth", p.queue_depth, 1u, 65536u,
                                     "instruction queue depth of every pipe");
  p.system_counter_mhz = c.get_in("core.system_counter_mhz", p.system_counter_mhz, Config::kClockMhz,
                                  "frequency of the system counter GetSystemCycle reads, in MHz");
  p.quantum = sc_core::sc_time(
      c.get_in("core.scalar.quantum_ns",
               double(p.quantum.value()) / double(sc_core::sc_time(1, sc_core::SC_NS).value()), Config::kQuantumNs,
               "how far (ns) the scalar unit may run ahead of simulated time"),
      sc_core::SC_NS);
  p.scalar_stack_size = c.get<uint64_t>("core.scalar.stack_size", p.scalar_stack_size,
                                        "host stack for the kernel body (bytes)");
  p.mode = sim_mode_from_config();
  p.mte.mode = p.mode;
  // Throughputs (per cycle) and fixed costs (cycles), each in its shared range.
  const Declared<double> rates[] = {
      {"core.mte.gm_read_bytes_per_cycle", &p.mte.gm_read_bytes_per_cycle,
       "most bytes per cycle MTE2 reads from the memory system"},
      {"core.mte.gm_write_bytes_per_cycle", &p.mte.gm_write_bytes_per_cycle,
       "most bytes per cycle MTE3 writes to the memory system"},
      {"core.mte.local_bytes_per_cycle", &p.mte.local_bytes_per_cycle, "local-to-local copy width in bytes per cycle"},
      {"core.vector.repeats_per_cycle", &p.vector.repeats_per_cycle, "vector repeats (256 B) executed per cycle"},
      {"core.mte1.l0a_bytes_per_cycle", &p.mte.l1_to_l0a_bytes_per_cycle, "L1 -> L0A bytes per cycle"},
      {"core.mte1.l0b_bytes_per_cycle", &p.mte.l1_to_l0b_bytes_per_cycle, "L1 -> L0B bytes per cycle"},
      {"core.mte1.bt_fb_bytes_per_cycle", &p.mte.l1_to_bt_fb_bytes_per_cycle, "L1 -> BT/FB bytes per cycle"},
      {"core.fix.bytes_per_cycle", &p.mte.fix_bytes_per_cycle, "FixPipe L0C -> GM/L1 bytes per cycle"},
      {"core.cube.f16_steps_per_cycle", &p.cube.f16_fractal_steps_per_cycle,
       "16x16x16 f16/bf16 fractal steps per cycle"},
      {"core.cube.s8_steps_per_cycle", &p.cube.s8_fractal_steps_per_cycle, "16x32x16 int8 fractal steps per cycle"},
      {"core.cube.f32_steps_per_cycle", &p.cube.f32_fractal_steps_per_cycle, "16x8x16 f32 fractal steps per cycle"},
  };
  for (const auto& r : rates) *r.value = c.get_in(r.key, *r.value, Config::kPerCycle, r.what);
  const Declared<uint64_t> fixed_costs[] = {
      {"core.scalar.issue_cycles", &p.scalar_issue_cycles, "scalar cycles to issue one instruction"},
      {"core.sync_cycles", &p.sync_cycles, "cycles a SetFlag/WaitFlag/barrier occupies its pipe"},
      {"core.mte.issue_cycles", &p.mte.issue_cycles, "fixed start cost of a DataCopy in cycles"},
      {"core.vector.head_cycles", &p.vector.head_cycles, "fixed issue cost of a vector instruction in cycles"},
      {"core.mte1.start_cycles", &p.mte.mte1_start_cycles, "start cost of an MTE1 instruction in cycles"},
      {"core.cube.head_cycles", &p.cube.head_cycles, "fixed issue cost of an Mmad"},
  };
  for (const auto& f : fixed_costs) *f.value = c.get_in<uint64_t>(f.key, *f.value, 0, Config::kMaxCycles, f.what);
  p.mte.burst_bytes = c.get_in<uint64_t>("core.mte.burst_bytes", p.mte.burst_bytes, uint64_t(0), uint64_t(1) << 30,
                                         "GM reads queued back to back go to memory together up to this many bytes "
                                         "(0: one at a time)");
  p.cube_path = CubePath::params_from_config();
  p.cube.a2_types = is_a2(p.product);
  p.cube.f16_output = !is_a2(p.product);
  if (p.scalar_stack_size < StackGuard::kMinimumSize) {
    raise("config", "core.scalar.stack_size {} is below the minimum {} bytes (the kernel body runs on it)",
          p.scalar_stack_size, StackGuard::kMinimumSize);
  }
  if (p.scalar_stack_size > StackGuard::kMaximumSize) {
    raise("config", "core.scalar.stack_size {} is above the maximum {} bytes (1 GiB: every core maps one such "
          "stack in host memory)", p.scalar_stack_size, StackGuard::kMaximumSize);
  }
  if (p.ub_alignment == 0 || (p.ub_alignment & (p.ub_alignment - 1)) != 0) {
    raise("config", "core.ub.alignment must be a power of two, got {}", p.ub_alignment);
  }
  if (p.ub_size > 0 && p.ub_alignment > p.ub_size) {
    raise("config", "core.ub.alignment {} is larger than the UB it aligns within (core.ub.size = {} bytes)",
          p.ub_alignment, p.ub_size);
  }
  return p;
}

AiCore::AiCore(sc_core::sc_module_name name, int id, const Params& params)
    : sc_module(name),
      gm_socket("gm_socket"),
      id_(id),
      params_(params),
      cycle_(1e6 / params.clock_mhz, sc_core::SC_PS),
      issue_cost_(cycle_ * double(params.scalar_issue_cycles)),
      sync_cost_(cycle_ * double(params.sync_cycles)),
      stack_guard_(this->name(), params.scalar_stack_size),
      flags_(params.event_ids, /*model_ids=*/1),  // one for automatic synchronisation
      vector_(params.vector),
      cube_(params.cube),
      cube_path_(this->name(), basename(), id, cube_, params.cube_path),
      mover_(
          params.product, params.mte, [this](MemSpace s) { return buffer(s); },
          [this](tlm::tlm_command cmd, DataMover::GmSpans& spans) {
            return gm_access(cmd, spans, issuing_);
          }),
      scalar_instructions_(Stats::global().counter(std::string(basename()) + ".S.instructions",
                                                   "instructions", "instructions issued")),
      scalar_queue_stall_cycles_(Stats::global().counter(
          std::string(basename()) + ".S.stall.queue_full_cycles", "cycles",
          "scalar cycles blocked on a full pipe queue")),
      blocks_(Stats::global().counter(std::string(basename()) + ".blocks", "blocks",
                                      "task blocks run")),
      gm_read_bytes_(Stats::global().counter(std::string(basename()) + ".gm.read_bytes", "bytes")),
      gm_write_bytes_(Stats::global().counter(std::string(basename()) + ".gm.write_bytes", "bytes")),
      gm_atomic_bytes_(Stats::global().counter(std::string(basename()) + ".gm.atomic_bytes", "bytes",
                                               "GM bytes written as atomic read-modify-writes")),
      cube_macs_(Stats::global().counter(std::string(basename()) + ".M.macs", "MAC",
                                         "multiply-accumulates the cube computed (m x n x k per Mmad)")) {
  const std::pair<MemSpace, uint64_t> sizes[] = {
      {MemSpace::UB, params.ub_size},   {MemSpace::L1, params.l1_size},   {MemSpace::L0A, params.l0a_size},
      {MemSpace::L0B, params.l0b_size}, {MemSpace::L0C, params.l0c_size}, {MemSpace::BT, params.bt_size},
      {MemSpace::FB, params.fb_size}};
  for (auto [space, size] : sizes) {
    if (size == 0 || !kind_has_buffer(params.kind, space)) continue;
    const unsigned align = space == MemSpace::UB ? params.ub_alignment : buffer_alignment(space);
    buffers_[static_cast<size_t>(space)] = std::make_unique<LocalBuffer>(space, size, align);
  }
  ub_ = buffer(MemSpace::UB);
  std::vector<Pipe> pipes = {Pipe::MTE2, Pipe::MTE1, Pipe::M, Pipe::V, Pipe::MTE3};
  if (is_a2(params.product)) pipes.push_back(Pipe::FIX);
  for (Pipe p : pipes) {
    if (!kind_has_pipe(params.kind, p)) continue;
    const std::string pname = pipe_name(p);
    int track = Tracer::global().track(basename(), pname);
    pipes_[static_cast<size_t>(p)] = std::make_unique<PipeUnit>(pname.c_str(), p, params.queue_depth,
                                                                std::string(basename()) + "." + pname, track, cycle_);
  }
  for (auto& unit : pipes_) {
    if (!unit) continue;
    PipeSlot& slot = slots_.emplace_back();
    slot.unit = unit.get();
  }
  slot_of_.fill(-1);
  for (size_t i = 0; i < slots_.size(); ++i) slot_of_[static_cast<size_t>(slots_[i].unit->pipe_kind())] = int(i);
  slot_keys_.assign(slots_.size(), kNotReady);
  stale_slots_ = (1u << slots_.size()) - 1;
  static_assert(sizeof(stale_slots_) * 8 > static_cast<size_t>(Pipe::ALL), "a bit per pipe");
  if (params.scalar_stack_size < StackGuard::kMinimumSize) {
    raise(this->name(), "scalar stack size {} is below the minimum {} bytes", params.scalar_stack_size,
          StackGuard::kMinimumSize);
  }
  SC_HAS_PROCESS(AiCore);
  SC_THREAD(scalar_thread);
  set_stack_size(params.scalar_stack_size);  // kernels keep their locals here, as on a thread
}

void AiCore::set_gm_window(uint8_t* host_base, uint64_t device_base, uint64_t size) {
  gm_window_ = HostWindow{host_base, device_base, size};
}

uint64_t AiCore::gm_address(const void* host_pointer) const {
  // Not GM memory: keep the raw value, so the memory system reports an unmapped address.
  return gm_window_.device_address(host_pointer, reinterpret_cast<uintptr_t>(host_pointer));
}

uint8_t* AiCore::gm_host_pointer(uint64_t device_address, uint64_t length) const {
  return gm_window_.pointer(device_address, length);
}

LocalBuffer* AiCore::buffer(MemSpace space) {
  const auto i = static_cast<size_t>(space);
  return i < buffers_.size() ? buffers_[i].get() : nullptr;
}

PipeUnit* AiCore::pipe(Pipe p) const {
  const auto i = static_cast<size_t>(p);
  return i < pipes_.size() ? pipes_[i].get() : nullptr;
}

void AiCore::fail(const std::string& instruction, const std::string& why) {
  // The error's time: the pipe event's, or the scalar unit's.
  if (sc_core::sc_get_current_process_handle() == scalar_process_) wait_until(in_pipe_event_ ? event_time_ : scalar_time_);
  if (listener_) listener_->core_failed(*this, kErrorInstruction);
  raise(name(), "{}: {}", instruction, why);
}

std::string AiCore::kind_text() const {
  return fmt::format("{} core ({})", core_kind_name(params_.kind), product_name(params_.product));
}

void AiCore::run_block(Task& task, const BlockAssignment& block) {
  if (task_) raise(name(), "internal: a block was dispatched to a busy core");
  task_ = &task;
  block_ = block;
  start_.notify(sc_core::SC_ZERO_TIME);
}

void AiCore::wait_until(const sc_core::sc_time& t) {
  const sc_core::sc_time now = sim_time();
  if (t <= now) return;
  wait(t - now);
  current_ = this;  // another core's scalar thread may have run meanwhile
}

// The scalar unit runs its core's pipes (their events: ai_core_pipes.cpp) whenever it needs
// them to have progressed.
template <class Done>
void AiCore::run_pipes(Done&& done, const sc_core::sc_time& horizon) {
  const bool until_horizon = horizon != forever_;
  while (!done()) {
    const PipeEvent next = next_pipe_event();
    const bool due = next.unit && next.at <= horizon;
    const bool other_core = pipe_waits_other_core_ || scalar_waits_other_core_;
    // While something waits on another core, SystemC time must reach an event before it
    // runs: the other core's set may come first.
    if (due && (!other_core || next.at <= sim_time())) {
      if (next.completion) {
        complete_front(*next.unit, next.at);
      } else {
        start_front(*next.unit, next.at);
      }
      continue;
    }
    if (other_core) {
      // Let simulated time pass up to the next event (or the horizon), waking early when
      // one of this core's cross-core counters counts up.
      const sc_core::sc_time until = due ? next.at : horizon;
      if (until != forever_ && until > sim_time()) {
        wait(until - sim_time(), cross_core_->counted_up(id_));
      } else if (!until_horizon) {
        wait(cross_core_->counted_up(id_));
      } else {
        return;  // at the horizon
      }
      current_ = this;
      continue;
    }
    if (until_horizon) return;  // every event up to the horizon has run
    // Nothing can run and nothing outside can change that: a deadlock. The core waits for
    // ever, and the platform, finding its cores stalled, reports their states.
    wait(never_);
  }
}

void AiCore::scalar_sync() {
  run_pipes([] { return false; }, scalar_time_);
  wait_until(scalar_time_);
}

void AiCore::charge_scalar(uint64_t cycles) { charge_scalar(cycle_ * double(cycles)); }

int64_t AiCore::read_system_counter() {
  ++scalar_instructions_;
  charge_scalar(issue_cost_);
  // Whole counter ticks up to the scalar unit's time (what it reads when it issues).
  return static_cast<int64_t>(std::floor(scalar_time_.to_seconds() * params_.system_counter_mhz * 1e6));
}

void AiCore::charge_scalar(const sc_core::sc_time& time) {
  StackGuard::progress();  // scalar work: the watchdog's sign of life
  if (!timed()) return;
  scalar_time_ += time;
  if (scalar_time_ >= sim_time() + params_.quantum) scalar_sync();
}

void AiCore::scalar_thread() {
  const char top_of_stack = 0;
  stack_guard_.watch(&top_of_stack);  // a kernel that overflows this stack gets a clear error
  scalar_process_ = sc_core::sc_get_current_process_handle();
  for (;;) {
    while (!task_) wait(start_);
    scalar_time_ = last_event_ = sim_time();
    flags_.reset();
    issued_any_ = false;
    ++blocks_;
    current_ = this;
    scalar_state_ = "running the kernel body";
    if (auto* san = check::Sanitizer::active()) san->block_begin(id_, basename(), block_.block_idx, params_.auto_sync);
    const std::string fault = run_kernel_body();
    current_ = this;
    if (!fault.empty()) fail_in_body(fault);
    barrier_all();  // a block ends when every pipe has drained
    if (auto* san = check::Sanitizer::active()) san->block_end(id_);
    wait_until(scalar_time_);
    current_ = nullptr;
    scalar_state_ = "idle";
    task_ = nullptr;
    if (listener_) listener_->block_finished(*this);  // may hand this core its next block
  }
}

std::string AiCore::run_kernel_body() {
  // A fault in the body (a signal, the watchdog) jumps back here: see StackGuard. Nothing
  // between sigsetjmp and the jump changes a local of this frame.
  sigjmp_buf recovery;
  if (sigsetjmp(recovery, 1) != 0) return stack_guard_.fault_text();
  stack_guard_.arm(&recovery);
  try {
    task_->body();
  } catch (const KernelBodyReturn&) {
    // the body ended early, as a return would
  } catch (const sc_core::sc_unwind_exception&) {
    stack_guard_.disarm();
    throw;  // SystemC ending the thread
  } catch (const sc_core::sc_report&) {
    stack_guard_.disarm();
    throw;  // an npuvp error, already naming core, time and instruction
  } catch (const std::exception& e) {
    stack_guard_.disarm();
    return fmt::format("the kernel body threw a C++ exception: {}", e.what());
  } catch (...) {
    stack_guard_.disarm();
    return "the kernel body threw a C++ exception that is not a std::exception";
  }
  stack_guard_.disarm();
  return {};
}

void AiCore::fail_in_body(const std::string& what) {
  wait_until(scalar_time_);
  if (listener_) listener_->core_failed(*this, kErrorInstruction);
  raise(fmt::format("{} block {}", name(), block_.block_idx), "{} (last instruction: {})", what,
        issued_any_ ? describe(last_issued_) : std::string("none issued"));
}

std::string AiCore::check_kind(const Instruction& instr) const {
  if (params_.kind == CoreKind::Coupled) return {};
  auto lacks_pipe = [this](Pipe p) {
    return fmt::format("an {} has no {} pipe (it has {})", kind_text(), pipe_name(p),
                       params_.kind == CoreKind::Aic ? "S, MTE1, MTE2, M, FIX" : "S, MTE2, MTE3, V");
  };
  Pipe src = Pipe::S, dst = Pipe::S;
  if (auto* f = std::get_if<SetFlag>(&instr)) src = f->src, dst = f->dst;
  if (auto* f = std::get_if<WaitFlag>(&instr)) src = f->src, dst = f->dst;
  for (Pipe p : {src, dst, pipe_of(instr)}) {
    if (p != Pipe::ALL && !kind_has_pipe(params_.kind, p)) return lacks_pipe(p);
  }
  const auto [from, to] = move_spaces(instr);
  for (MemSpace space : {from, to}) {
    if (!kind_has_buffer(params_.kind, space)) {
      return fmt::format("an {} has no {} (it has {})", kind_text(), mem_space_name(space),
                         params_.kind == CoreKind::Aic ? "L1, L0A, L0B, L0C, BT, FB" : "UB");
    }
  }
  return {};
}

std::string AiCore::check(const Instruction& instr) const {
  const bool cross_core_flag = std::holds_alternative<CrossCoreSetFlag>(instr) ||
                               std::holds_alternative<CrossCoreWaitFlag>(instr);
  if (cross_core_flag && !cross_core_) {
    return fmt::format("cross-core flags exist only on separated AIC/AIV cores, not on a {}", kind_text());
  }
  if (auto* f = std::get_if<CrossCoreSetFlag>(&instr)) return cross_core_->check_set(id_, f->mode, f->id);
  if (auto* f = std::get_if<CrossCoreWaitFlag>(&instr)) return cross_core_->check_wait(id_, f->id);
  if (auto* v = std::get_if<VectorOp>(&instr)) return ub_ ? vector_.check(*v, ub_->size()) : "this core has no UB";
  if (auto* f = std::get_if<SetFlag>(&instr)) return flags_.check(f->id);
  if (auto* f = std::get_if<WaitFlag>(&instr)) return flags_.check(f->id);
  if (std::holds_alternative<Barrier>(instr)) return {};
  if (auto* m = std::get_if<Mmad>(&instr)) {
    auto size = [this](MemSpace s) {
      const LocalBuffer* b = buffers_[static_cast<size_t>(s)].get();
      return b ? b->size() : uint64_t(0);
    };
    std::string why = cube_.check(*m, size(MemSpace::L0A), size(MemSpace::L0B), size(MemSpace::L0C), size(MemSpace::BT));
    return why.empty() ? cube_path_.check(*m) : why;
  }
  return mover_.check(instr, pipe_of(instr));  // every kind of data move
}

void AiCore::issue(Instruction instr) {
  const Pipe p = pipe_of(instr);
  std::string kind_why = check_kind(instr);
  if (!kind_why.empty()) fail(describe(instr), kind_why);
  PipeUnit* target = pipe(p);
  if (!target) {
    fail(describe(instr), fmt::format("pipe {} does not exist on this {} core", pipe_name(p), product_name(params_.product)));
  }
  ++scalar_instructions_;
  charge_scalar(issue_cost_);
  if (!timed() && ++issued_since_pause_ == kIssuesPerPause) {
    // No simulated time passes in functional mode, so sc_start's time slices never end: a
    // pause now and then lets the platform's run loop report progress (it resumes at once).
    // The pause takes effect at the end of the delta cycle, which this thread yields.
    issued_since_pause_ = 0;
    sc_core::sc_pause();
    wait(sc_core::SC_ZERO_TIME);
    current_ = this;
  }
  std::string why = check(instr);
  if (!why.empty()) fail(describe(instr), why);
  last_issued_ = instr;  // for fault reports
  issued_any_ = true;
  StackGuard::progress();
  enqueue(*target, std::move(instr));
}

inline void AiCore::enqueue(PipeUnit& target, Instruction&& instr) {
  if (target.full()) {
    const sc_core::sc_time before = scalar_time_;
    // Described only if a deadlock report asks (formatting on every full queue is costly).
    scalar_blocked("waiting for room in its pipe's queue to issue", instr,
                   [&] { run_pipes([&] { return !target.full(); }); });
    scalar_time_ = std::max(scalar_time_, last_event_);  // when the slot came free
    scalar_queue_stall_cycles_ += static_cast<uint64_t>((scalar_time_ - before) / cycle_);
  }
  if (auto* san = check::Sanitizer::active()) san->issued(id_, target.pipe_kind(), instr);
  target.push(std::move(instr), scalar_time_, atomic_mode_);
  pipe_changed(target.pipe_kind());
}

void AiCore::fail_if_illegal(const Instruction& instr) {
  std::string why = check_kind(instr);
  if (why.empty()) why = check(instr);
  if (!why.empty()) fail(describe(instr), why);
}

void AiCore::scalar_set_flag(Pipe dst, uint32_t id) {
  fail_if_illegal(SetFlag{Pipe::S, dst, id});
  charge_scalar(sync_cost_);
  // The set happens at the scalar unit's time: the pipes run up to it first, and a waiting
  // pipe starts from it.
  run_pipes([] { return false; }, scalar_time_);
  flags_.set(Pipe::S, dst, id);
  if (auto* san = check::Sanitizer::active()) san->scalar_set_flag(id_, dst, id);
  pipe_changed(dst);
  last_event_ = std::max(last_event_, scalar_time_);
}

void AiCore::scalar_wait_flag(Pipe src, uint32_t id) {
  const Instruction waiting = WaitFlag{src, Pipe::S, id};
  fail_if_illegal(waiting);
  wait_scalar_flag(src, id, waiting);
}

void AiCore::wait_scalar_flag(Pipe src, uint32_t id, const Instruction& waiting) {
  charge_scalar(sync_cost_);
  scalar_blocked("blocked in", waiting, [&] { run_pipes([&] { return flags_.is_set(src, Pipe::S, id); }); });
  flags_.take(src, Pipe::S, id);
  if (auto* san = check::Sanitizer::active()) san->scalar_wait_flag(id_, src, id);
  scalar_time_ = std::max(scalar_time_, last_event_);  // when it was set
}

void AiCore::scalar_access(MemSpace space, uint64_t addr, uint64_t size, bool write) {
  charge_scalar(params_.scalar_issue_cycles);
  scalar_sync();  // what has completed by now is done; what is still queued is pending
  if (params_.auto_sync) auto_sync(space, addr, addr + size, write);
  if (auto* san = check::Sanitizer::active()) san->scalar_access(id_, space, addr, size, write, scalar_time_);
}

// CANN's compiler (--cce-auto-sync) inserts SetFlag<X_S>/WaitFlag<X_S> before a scalar access
// that depends on pipe X's earlier instructions, for X in MTE2, V and MTE3 (the BiSheng
// compiler's "Automatic Synchronization" page; docs/writing-kernels.md). The model inserts
// the same pair, only for the pipes whose queued instructions touch the bytes: the SetFlag
// runs on X after everything X holds, the scalar unit waits for it.
void AiCore::auto_sync(MemSpace space, uint64_t begin, uint64_t end, bool write) {
  std::array<PipeUnit*, 3> waits{};
  size_t n = 0;
  for (Pipe p : {Pipe::MTE2, Pipe::V, Pipe::MTE3}) {
    PipeUnit* unit = pipe(p);
    if (!unit || unit->idle()) continue;
    const InstructionQueue& queue = unit->queue();
    for (size_t i = 0; i < queue.size(); ++i) {
      if (touches(queue[i].instr, space, begin, end, /*reads_too=*/write)) {
        waits[n++] = unit;
        break;
      }
    }
  }
  if (n == 0) return;
  if (!auto_syncs_) {
    auto_syncs_ = &Stats::global().counter(std::string(basename()) + ".S.auto_sync.syncs", "syncs",
                                           "SetFlag/WaitFlag pairs automatic synchronisation inserted before "
                                           "scalar GetValue/SetValue (core.auto_sync)");
    auto_sync_cycles_ = &Stats::global().counter(std::string(basename()) + ".S.auto_sync.cycles", "cycles",
                                                 "scalar cycles spent in them: issuing the SetFlag, waiting "
                                                 "for the pipe and the WaitFlag");
  }
  const sc_core::sc_time before = scalar_time_;
  const uint32_t id = auto_sync_id();
  for (size_t i = 0; i < n; ++i) {
    ++scalar_instructions_;
    charge_scalar(issue_cost_);
    enqueue(*waits[i], SetFlag{waits[i]->pipe_kind(), Pipe::S, id});
  }
  for (size_t i = 0; i < n; ++i) {
    const Pipe src = waits[i]->pipe_kind();
    wait_scalar_flag(src, id, WaitFlag{src, Pipe::S, id});
  }
  scalar_sync();  // SystemC time reaches the access (a GM access is seen by other cores then)
  *auto_syncs_ += n;
  *auto_sync_cycles_ += static_cast<uint64_t>((scalar_time_ - before) / cycle_);
}

void AiCore::scalar_cross_core_wait(uint32_t mode, uint32_t id) {
  const Instruction waiting = CrossCoreWaitFlag{Pipe::S, mode, id};
  fail_if_illegal(waiting);
  ++scalar_instructions_;
  charge_scalar(sync_cost_);
  scalar_sync();  // another core's set is seen in SystemC time
  scalar_blocked("blocked in", waiting, [&] {
    scalar_waits_other_core_ = true;
    run_pipes([&] { return cross_core_->is_set(id_, id); });
    scalar_waits_other_core_ = false;
  });
  cross_core_->take(id_, id);
  if (auto* san = check::Sanitizer::active()) san->scalar_cross_core_wait(id_, id);
  scalar_time_ = std::max({scalar_time_, last_event_, sim_time()});
}

void AiCore::barrier_all() {
  scalar_state_ = "waiting in PipeBarrier<PIPE_ALL> for every pipe to drain";
  run_pipes([this] {
    for (const PipeSlot& slot : slots_) {
      if (!slot.unit->idle()) return false;
    }
    return true;
  });
  scalar_time_ = std::max(scalar_time_, last_event_);  // when the last pipe drained
  if (auto* san = check::Sanitizer::active()) san->scalar_drained(id_);
  scalar_state_ = "running the kernel body";
}

void AiCore::scalar_wait_event(const sc_core::sc_event& event, const char* state) {
  barrier_all();
  scalar_sync();
  scalar_state_ = state;
  wait(event);  // never notified: the platform finds every core stalled and reports a deadlock
  current_ = this;
  scalar_state_ = "running the kernel body";
  scalar_time_ = std::max(scalar_time_, sim_time());
}

std::string AiCore::state() const {
  std::string s = fmt::format("{}: S {}", basename(), scalar_state_);
  if (scalar_state_instr_) s += " " + describe(*scalar_state_instr_);
  for (auto& unit : pipes_) {
    if (!unit) continue;
    s += fmt::format("; {} {}", pipe_name(unit->pipe_kind()), unit->state());
    if (unit->queued() > 1) s += fmt::format(" ({} more queued)", unit->queued() - 1);
  }
  return s;
}

}  // namespace npuvp::aicore
