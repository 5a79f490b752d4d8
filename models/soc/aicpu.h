// The AI CPU (issue 28; the Da Vinci chapter: the SoC's integrated Arm cores, each with its own
// L1 and L2, all sharing an on-chip L3, split by software into control CPUs and AI CPUs that run
// the operators which are not matrix-shaped).
//
// `aicpu.cores` Arm cores, of which `aicpu.control_cores` run the control software and the rest
// run AI CPU kernels. Each AI CPU core is its own requester on the ring (one port per core, all
// at the cluster's stop): a kernel's GM traffic crosses L1 -> L2 -> L3 (tag-level caches,
// models/memory/cache_tags.h) and, on an L3 miss or a dirty L3 eviction, goes out through the
// port of the core that missed to the ring, L2 slices and DRAM like an AI Core's.
//
// Kernels are host-native C++ functions registered by name (AicpuRegistry). A launch runs each
// block's body natively against the GM bytes through an AicpuContext, which records what the
// body reads and writes and the work it charges (op class x elements). The recorded trace is
// then timed, block b on AI CPU core b % ai_cores, the cores interleaved in simulated time:
//   core time = sum over accesses of (hit cycles of the level that hit, or the ring round trip
//               of a line fill, up to `outstanding_misses` fills in flight)
//             + sum over charges of cycles_per_element[class] x elements
//             + copy_cycles_per_byte x bytes touched
// The cost model's numbers are *assumed* (docs/soc.md): no public per-op figure for the AI CPU.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include "models/memory/cache_tags.h"
#include "tlm/host_window.h"
#include "tlm/stats.h"

namespace npuvp::soc {

// What an AI CPU kernel's work is charged as (cycles per element, per class).
enum class AicpuOpClass { Compare = 0, Arithmetic, Transcendental, Branchy, kCount };
const char* aicpu_op_class_name(AicpuOpClass c);

// A kernel's arguments: GM device addresses of its tensors, integer and real attributes.
struct AicpuArgs {
  std::vector<uint64_t> tensors;
  std::vector<int64_t> ints;
  std::vector<double> floats;
};

class AicpuContext;
using AicpuKernelFn = std::function<void(AicpuContext&)>;

// Kernels by name, callable from any front end (Device, ACL, the ONNX graph runtime).
class AicpuRegistry {
 public:
  struct Entry {
    std::string name;
    std::string description;
    AicpuKernelFn body;
    // How many blocks a launch of this kernel with `args` runs (default 1).
    std::function<uint32_t(const AicpuArgs&)> blocks;
  };
  static AicpuRegistry& global();  // the built-in kernels (aicpu_kernels.cpp) are registered
  void add(Entry entry);           // raises on a duplicate name
  const Entry* find(const std::string& name) const;
  std::vector<std::string> names() const;

 private:
  std::vector<Entry> entries_;
};

// What a kernel body sees: its block, its arguments, and GM through the model.
class AicpuContext {
 public:
  struct Access {
    uint64_t address = 0;
    uint64_t bytes = 0;
    bool write = false;
  };
  AicpuContext(const std::string& kernel, uint32_t block, uint32_t blocks, const AicpuArgs& args,
               HostWindow gm, bool data);

  uint32_t block_idx() const { return block_; }
  uint32_t block_num() const { return blocks_; }
  const AicpuArgs& args() const { return args_; }
  const std::string& kernel() const { return kernel_; }
  // False in perf mode: the body should only charge and record, not compute.
  bool has_data() const { return data_; }

  // GM of `count` elements at device address `address`: recorded as read (input) or written
  // (output) for the timing, and returned as host pointers into the GM bytes. Raises (naming
  // the kernel, block and simulated time) if the range is outside GM.
  template <class T>
  const T* input(uint64_t address, uint64_t count) {
    return static_cast<const T*>(touch(address, count * sizeof(T), false));
  }
  template <class T>
  T* output(uint64_t address, uint64_t count) {
    return static_cast<T*>(touch(address, count * sizeof(T), true));
  }
  // Charges `elements` of work of class `c` (the cost model's cycles per element).
  void charge(AicpuOpClass c, double elements) { charged_[size_t(c)] += elements; }
  // A clear error naming the kernel and block.
  [[noreturn]] void fail(const std::string& what) const;

  const std::vector<Access>& accesses() const { return accesses_; }
  double charged(AicpuOpClass c) const { return charged_[size_t(c)]; }

 private:
  void* touch(uint64_t address, uint64_t bytes, bool write);
  std::string kernel_;
  uint32_t block_, blocks_;
  const AicpuArgs& args_;
  HostWindow gm_;
  bool data_;
  std::vector<Access> accesses_;
  double charged_[size_t(AicpuOpClass::kCount)] = {};
};

class AiCpu : public sc_core::sc_module {
 public:
  struct Params {
    unsigned cores = 8;          // aicpu.cores: all integrated Arm cores
    unsigned control_cores = 2;  // aicpu.control_cores: those running control software
    double clock_mhz = 1900;
    uint32_t line_bytes = 64;
    uint64_t l1_size = 32 << 10;
    uint32_t l1_ways = 4;
    uint32_t l1_hit_cycles = 4;
    uint64_t l2_size = 256 << 10;
    uint32_t l2_ways = 8;
    uint32_t l2_hit_cycles = 12;
    uint64_t l3_size = 4 << 20;
    uint32_t l3_ways = 16;
    uint32_t l3_hit_cycles = 40;
    uint32_t outstanding_misses = 8;  // line fills in flight per core
    double launch_overhead_us = 5;    // the TS hands the kernel to an AI CPU (*assumed*)
    double cycles_per_element[size_t(AicpuOpClass::kCount)] = {1, 1, 20, 4};
    double copy_cycles_per_byte = 0.125;
    double quantum_ns = 1000;
    bool data = true;   // false in perf mode
    bool timed = true;  // false in functional mode: kernels run, no time passes
  };
  static Params params_from_config();  // the `aicpu.*` keys

  // The ring port of AI CPU core `core` (< ai_cores()): bind each, in order.
  tlm_utils::simple_initiator_socket<AiCpu>& ring_socket(unsigned core) { return *ring_sockets_.at(core); }

  AiCpu(sc_core::sc_module_name name, const Params& params);
  ~AiCpu() override;

  void set_gm_window(uint8_t* host_base, uint64_t device_base, uint64_t size);
  const Params& params() const { return params_; }
  unsigned ai_cores() const { return params_.cores - params_.control_cores; }

  struct Report {
    std::string kernel;
    uint32_t blocks = 0;
    sc_core::sc_time start, took;
    uint64_t l1_hits = 0, l2_hits = 0, l3_hits = 0, line_fills = 0, writebacks = 0;
    double compute_cycles = 0;
    std::vector<AicpuContext::Access> written;  // the GM the kernel wrote (for the sanitizer)
  };
  // Runs kernel `name` (from the registry) on `blocks` blocks (0: the kernel's own count) to
  // completion, from the host between launches; simulated time advances by its cost.
  Report run(const std::string& name, const AicpuArgs& args, uint32_t blocks = 0);
  sc_core::sc_time busy_time() const { return sc_core::sc_time(double(busy_ps_.value), sc_core::SC_PS); }

 private:
  struct Core;
  struct Job;
  void thread();
  void time_job();
  sc_core::sc_time fill(size_t core, uint64_t line, bool write, const sc_core::sc_time& at);

  Params params_;
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<AiCpu>>> ring_sockets_;
  HostWindow gm_window_;
  sc_core::sc_time cycle_;
  std::vector<std::unique_ptr<Core>> cores_;
  std::unique_ptr<memory::CacheTags> l3_;
  sc_core::sc_event start_;
  std::unique_ptr<Job> job_;
  std::string error_;
  Counter& launches_;
  Counter& busy_ps_;
  Counter& fills_;
};

}  // namespace npuvp::soc
