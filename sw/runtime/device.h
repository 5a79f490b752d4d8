// The host's view of the virtual platform: GM allocation, copies and kernel launches.
// One Device per process (SystemC elaborates once per process); it is built on first use
// from the configured platform.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include <systemc>
#include "models/aicore/kernel_type.h"

namespace npuvp {
namespace platform { class AscendSoc; }
namespace soc { struct AicpuArgs; }

// How a kernel is launched beyond its blockDim.
struct LaunchOptions {
  // Which cores run the blocks (Ascend C KERNEL_TYPE_*). Default: what the kernel body
  // declares with KERNEL_TASK_TYPE_DEFAULT, else AIV-only on a separated chip and the AI
  // Cores on a coupled one.
  aicore::KernelType kernel_type = aicore::KernelType::Default;
  // issue 23 (Matmul): the kernel's file uses the high-level Matmul in CANN's mixed mode (it
  // includes lib/matmul_intf.h without ASCENDC_CUBE_ONLY). If the body declares no type, a
  // separated chip then runs it as KERNEL_TYPE_MIX_AIC_1_2, as CANN's compiler infers.
  bool mixed_matmul = false;
};

// What one kernel launch did.
struct RunReport {
  std::string kernel;
  uint32_t block_dim = 0;
  aicore::KernelType kernel_type = aicore::KernelType::Default;  // as dispatched
  sc_core::sc_time sim_time;
  uint64_t cycles = 0;         // core clock cycles
  double wall_seconds = 0;
  std::string to_text() const;  // the summary `npuvp run` prints
};

// The platform's configuration file: a name from platforms/configs, or a path to a .json.
std::string resolve_platform(const std::string& name_or_path);
// Names of the platforms found in the config search path.
std::vector<std::string> available_platforms();

class Device {
 public:
  // Must be called before the first use of the device; `overrides` are "key=value" strings.
  // Without it the platform comes from $NPUVP_PLATFORM (default "minimal") and overrides
  // from $NPUVP_SET ("key=value;key=value").
  static void configure(const std::string& platform, const std::vector<std::string>& overrides = {});
  static Device& instance();
  static bool built();

  ~Device();

  // GM allocation (512 B aligned). The pointer is host-visible simulated GM.
  void* malloc(size_t bytes);
  void free(void* pointer);
  // The allocations still live, lowest first (a test harness frees a test's buffers at its end).
  std::vector<void*> live_allocations() const;
  enum class Copy { HostToDevice, DeviceToHost, DeviceToDevice };
  void memcpy(void* dst, const void* src, size_t bytes, Copy kind);
  // A HostToDevice or DeviceToHost copy's time and statistics without its bytes: `device` is
  // its GM side, and neither GM nor any host memory is touched. For host programs in perf
  // mode, whose data no kernel computes on (the samples there generate no inputs, so their
  // host memory does not grow with the problem).
  void memcpy_without_data(void* device, size_t bytes, Copy kind);
  uint64_t device_address(const void* pointer) const;

  // Runs `body` as the kernel on block_dim blocks; returns when every block has finished.
  const RunReport& launch(const std::string& name, uint32_t block_dim, std::function<void()> body);
  const RunReport& launch(const std::string& name, uint32_t block_dim, std::function<void()> body,
                          const LaunchOptions& options);
  // Issue 28: runs AI CPU kernel `name` (soc::AicpuRegistry: TopK, ArgMax, NonMaxSuppression,
  // ...) on `blocks` AI CPU blocks (0: the kernel's default), in order with every other launch;
  // `args.tensors` are GM device addresses (device_address()). The report's cycles are the AI
  // CPU clock's.
  const RunReport& launch_aicpu(const char* name, const soc::AicpuArgs& args, uint32_t blocks = 0);
  void synchronize() {}  // launches complete before they return
  const RunReport& last_run() const { return last_; }
  double total_wall_seconds() const { return total_wall_seconds_; }  // over every launch

  platform::AscendSoc& soc() { return *soc_; }

 private:
  Device();
  bool owns(const void* pointer, size_t bytes) const;

  std::unique_ptr<platform::AscendSoc> soc_;
  uint8_t* gm_ = nullptr;
  uint64_t gm_size_ = 0;
  std::map<uint64_t, uint64_t> free_;  // offset -> size
  std::map<uint64_t, uint64_t> used_;
  RunReport last_;
  bool launching_ = false;  // a launch is running (a second one is a nested launch)
  double total_wall_seconds_ = 0;
};

}  // namespace npuvp
