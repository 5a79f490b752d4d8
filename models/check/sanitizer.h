// The kernel sanitizer (check.race, check.memory, check.init, check.sync; $NPUVP_CHECK;
// `npuvp run --check`): reads the isa.h instructions every front end lowers to, as the cores
// issue and start them, plus every ordering edge, and reports what the ordering allows rather
// than what this run's timing happened to do.
//
// race: happens-before by vector clocks over streams, one stream per (block, pipe) of a launch
//   (the scalar unit is pipe S). Edges: program order within a stream; issue (the scalar
//   unit's earlier work happens before an instruction it issues); SetFlag -> WaitFlag matched
//   by count per (src pipe, dst pipe, event id) of a core (TQue's EnQue/DeQue and
//   AllocTensor/FreeTensor lower to these, as does automatic synchronisation); PipeBarrier
//   <PIPE_ALL> and a block's end (the scalar unit after everything its pipes did); cross-core
//   flags (the setters' clocks reach the counted-up cores' waits); SyncAll (every arrival
//   before every departure); launches (each starts after the previous one ended). Blocks of
//   one launch are never ordered by running on the same core one after another: another
//   run may place them on different cores. Two accesses to overlapping bytes, at least one a
//   write, neither atomic-with-atomic, and neither ordered before the other are a race, found
//   whichever ran first. The shadow of a memory keeps, per byte range, the latest access of
//   each (stream, call site, read/write): an earlier one of the same stream and site is
//   ordered before it, so whatever races with the earlier one races with it too at the same
//   pair of sites; reports are deduplicated by that pair.
// memory: GM accesses outside every live allocation (out-of-bounds) or inside a freed one
//   (use-after-free), double frees, allocations live at exit (leak); local accesses outside
//   the TPipe buffers of the block (when it has any in that memory), each queue buffer its own.
// init: reads of bytes never written since their allocation (GM: host copies and kernels
//   write; memory the host can address directly, GmAlloc's, counts as written by the host).
// sync: SetFlags never waited at a block's end (hand-written ones: TQue's last FreeTensor
//   flags are the queue's own), waits never met (a deadlock), and notes for WaitFlags that
//   order nothing new.
//
// Reports: lines "npuvp: sanitizer: <kind>: ..." as findings are made, a summary per kind
// when the process ends (or finish() is called), check.report=FILE as JSON; the process then
// exits non-zero if any error-kind finding was made.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include <systemc>
#include "models/aicore/isa.h"

namespace npuvp::check {

struct Options {
  bool race = false, memory = false, init = false, sync = false;
  std::string report;  // JSON file, written when the run ends
  bool sites = true;   // reports name file:line (reading the binary's debug information once)
  bool any() const { return race || memory || init || sync; }
};
// "race,memory", "all", "" (nothing); unknown names are an error.
Options parse_checks(const std::string& list);

// A finding as reported.
struct Finding {
  std::string kind;     // race, out-of-bounds, uninitialized, use-after-free, leak, sync
  bool error = true;    // notes are not errors
  std::string text;     // the report line after "npuvp: sanitizer: <kind>: "
};

class Sanitizer {
 public:
  // The running sanitizer, or nullptr when every check is off (hooks test this first).
  static Sanitizer* active() { return active_; }
  // Turns the checks on (or off: all false) for the rest of the process.
  static void configure(const Options& options);
  // From the check.* keys of the global Config and $NPUVP_CHECK (either turns a check on).
  static void configure_from_config();
  const Options& options() const { return options_; }

  // ---- launches and blocks ----
  void launch_begin(const std::string& kernel);
  void launch_end();
  void block_begin(int core, const std::string& core_name, uint32_t block_idx, bool auto_sync);
  void block_end(int core);

  // ---- instructions (core = AiCore::id()) ----
  // The scalar unit put `instr` into `pipe`'s queue (its call site is captured here).
  void issued(int core, aicore::Pipe pipe, const aicore::Instruction& instr);
  // `pipe` started its front instruction at `at` (`atomic`: its GM writes are atomic).
  void started(int core, aicore::Pipe pipe, const aicore::Instruction& instr, bool atomic, const sc_core::sc_time& at);
  void scalar_set_flag(int core, aicore::Pipe dst, uint32_t id);
  void scalar_wait_flag(int core, aicore::Pipe src, uint32_t id);
  void scalar_cross_core_wait(int core, uint32_t id);
  // GetValue/SetValue (after automatic synchronisation, if the core has it).
  void scalar_access(int core, aicore::MemSpace space, uint64_t addr, uint64_t size, bool write,
                     const sc_core::sc_time& at);
  // Every pipe of the core has drained (PipeBarrier<PIPE_ALL>, a block's end).
  void scalar_drained(int core);
  // TQue's own flags are being issued on `core` (sync findings leave them out).
  void queue_flags(int core, bool on);

  // ---- cross-core order ----
  // `core` completed a CrossCoreSetFlag at the rendezvous `key`; count_up: the rendezvous
  // counts up `receiver`'s counter `id` (every arrival so far reaches its next wait).
  void cross_core_arrive(int core, uint64_t key);
  void cross_core_count_up(uint64_t key, int receiver, uint32_t id);
  void cross_core_released(uint64_t key);  // the rendezvous starts again
  // A launch-wide barrier (SyncAll) of generation `key`: arrive before blocking, leave after.
  void barrier_arrive(int core, uint64_t key);
  void barrier_leave(int core, uint64_t key);
  // While on, the core's accesses are not checked (the soft SyncAll's own GM flag protocol).
  void quiet(int core, bool on);

  // ---- memory (GM device addresses) ----
  void gm_alloc(uint64_t addr, uint64_t size, bool host_addressable, const char* api);
  // False if `addr` is not a live allocation (reported as a double free when it was one).
  bool gm_free(uint64_t addr, const char* api);
  void host_write(uint64_t addr, uint64_t size);
  void host_read(uint64_t addr, uint64_t size, const char* api);
  // TPipe gave [addr, addr + size) of `space` to a buffer on `core` (InitBuffer).
  void local_buffer(int core, aicore::MemSpace space, uint64_t addr, uint64_t size, const char* api);
  // The region [addr, addr + slot * num) just given is a queue's `num` buffers of `slot`
  // bytes each: a tensor of one buffer is checked against that buffer alone.
  void local_buffer_slots(int core, aicore::MemSpace space, uint64_t addr, uint64_t slot, uint32_t num);

  // A deadlock: the waits that can never be met, from the cores' states.
  void deadlock(const std::string& states);

  // ---- results ----
  const std::vector<Finding>& findings() const { return findings_; }
  size_t count(const std::string& kind) const;
  size_t errors() const;
  // Leak check, summary lines and the JSON report; returns the exit status the run should
  // have (1 with an error-kind finding). Runs once, from the process's exit if not before.
  int finish();
  // WaitFlags after which their pipe touched no memory before every pipe drained (PipeBarrier
  // <PIPE_ALL>, a block's end; flags it set meanwhile pass the order on, and a race there
  // would be reported). Not notes: a kernel's trailing waits clear flags that would
  // otherwise be reported as never waited. Each is (core, block, src pipe,
  // dst pipe, event id, occurrence of that wait in the block); for the mutation tests.
  const std::vector<std::array<uint32_t, 6>>& drain_only_waits() const;
  // Forgets the findings (a test that expected them); the exit status is then 0.
  void clear_findings();

  ~Sanitizer();

 private:
  explicit Sanitizer(const Options& options);
  struct State;
  Options options_;
  std::unique_ptr<State> s_;
  std::vector<Finding> findings_;
  bool finished_ = false;
  void report(const std::string& kind, bool error, const std::string& text);
  void report_unwritten_reads();
  void print_reports();  // resolves the call sites of what was reported and prints it
  static Sanitizer* active_;
  friend struct SanitizerAccess;
};

// Called where the process would exit: runs finish() and exits with its status if non-zero.
void exit_hook();

}  // namespace npuvp::check
