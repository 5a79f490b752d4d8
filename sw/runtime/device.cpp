#include "sw/runtime/device.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <tuple>
#include <fmt/format.h>

#include "models/check/sanitizer.h"
#include "models/soc/aicpu.h"
#include "platforms/ascend_soc.h"
#include "sw/ascendc/declared_kernel_type.h"
#include "sw/runtime/soc_version.h"
#include "sw/runtime/tikicpulib.h"
#include "tlm/config.h"
#include "tlm/log.h"

// Programs with their own main() (CPU-debug host programs, tests) still link against
// libsystemc, whose main() calls sc_main; this weak definition satisfies it.
__attribute__((weak)) int sc_main(int, char**) {
  std::fprintf(stderr, "npuvp: this program has no sc_main\n");
  return 1;
}

namespace npuvp {
namespace fs = std::filesystem;

namespace {
std::unique_ptr<Device> g_device;
bool g_configured = false;

// The non-empty pieces of `s` between `separator`s.
std::vector<std::string> split(const std::string& s, char separator) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(separator, start);
    if (end == std::string::npos) end = s.size();
    if (end > start) out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// The configs installed beside the binary that holds this code (libnpuvp.so, or a program
// linking libnpuvp.a), found from where that binary is, so a prefix works wherever it is
// installed or moved; empty if there are none.
fs::path installed_config_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&installed_config_dir), &info) == 0 || info.dli_fname == nullptr) return {};
  // The main program may be named as it was invoked (argv[0], perhaps found through $PATH).
  const std::string binary = std::strchr(info.dli_fname, '/') ? info.dli_fname : "/proc/self/exe";
  std::error_code ec;
  const fs::path binary_dir = fs::canonical(binary, ec).parent_path();
  if (ec) return {};
  for (const char* data_dir : {NPUVP_DATADIR_FROM_LIBDIR, NPUVP_DATADIR_FROM_BINDIR}) {
    const fs::path dir = (binary_dir / data_dir / "configs").lexically_normal();
    if (fs::is_directory(dir, ec)) return dir;
  }
  return {};
}

std::vector<fs::path> config_dirs() {
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("NPUVP_CONFIG_PATH")) {
    for (const auto& dir : split(env, ':')) dirs.emplace_back(dir);
  }
  static const fs::path installed = installed_config_dir();
  if (!installed.empty()) dirs.push_back(installed);
  dirs.emplace_back(fs::path(NPUVP_SOURCE_DIR) / "platforms" / "configs");
  dirs.emplace_back(fs::path(NPUVP_INSTALL_DATADIR) / "configs");
  return dirs;
}

}  // namespace

std::string resolve_platform(const std::string& name) {
  if (name.find('/') != std::string::npos || fs::path(name).extension() == ".json") {
    if (fs::exists(name)) return name;
    raise("platform", "platform file '{}' does not exist", name);
  }
  for (const auto& dir : config_dirs()) {
    fs::path p = dir / (name + ".json");
    if (fs::exists(p)) return p.string();
  }
  std::string known;
  for (const auto& n : available_platforms()) known += (known.empty() ? "" : ", ") + n;
  raise("platform", "unknown platform '{}'; available: {}", name, known.empty() ? "none found" : known);
}

std::vector<std::string> available_platforms() {
  std::vector<std::string> names;
  for (const auto& dir : config_dirs()) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (e.path().extension() != ".json") continue;
      std::string n = e.path().stem().string();
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

void Device::configure(const std::string& platform, const std::vector<std::string>& overrides) {
  if (g_device) raise("runtime", "Device::configure called after the device was built");
  Config& c = Config::global();
  c.load_file(resolve_platform(platform));
  for (const auto& kv : overrides) c.set_override(kv);
  g_configured = true;
}

Device& Device::instance() {
  if (!g_device) {
    if (!g_configured) {
      const char* p = std::getenv("NPUVP_PLATFORM");
      const char* set = std::getenv("NPUVP_SET");
      // $NPUVP_PLATFORM, else the chip the program was built for (SOC_VERSION in the CANN
      // build flows), else the minimal platform.
      const char* soc = runtime::default_soc_platform();
      configure(p ? p : soc ? soc : "minimal", split(set ? set : "", ';'));
    }
    g_device.reset(new Device());
  }
  return *g_device;
}

bool Device::built() { return g_device != nullptr; }

Device::Device() {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  soc_ = std::make_unique<platform::AscendSoc>("soc");
  check::Sanitizer::configure_from_config();  // check.* keys and $NPUVP_CHECK
  Config::global().check_unused();  // every user key must have been declared by now
  // Finish elaboration now: binding errors surface here, and debug access works before the
  // first launch. Every thread runs to its first wait; no simulated time passes.
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  gm_ = soc_->gm().data();
  gm_size_ = soc_->gm().size();
  free_[0] = gm_size_;
}

Device::~Device() = default;

void* Device::malloc(size_t bytes) {
  // Checked before rounding up to 512 B, which would wrap around for sizes near SIZE_MAX.
  if (uint64_t(bytes) > gm_size_) {
    raise("runtime", "GM exhausted: cannot allocate {} bytes: more than the whole GM ({} bytes, gm.size)", bytes,
          gm_size_);
  }
  const uint64_t size = std::max<uint64_t>(512, (uint64_t(bytes) + 511) / 512 * 512);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < size) continue;
    const uint64_t offset = it->first;
    const uint64_t rest = it->second - size;
    free_.erase(it);
    if (rest) free_[offset + size] = rest;
    used_[offset] = size;
    if (auto* san = check::Sanitizer::active()) san->gm_alloc(device_address(gm_ + offset), bytes, true, "GmAlloc");
    return gm_ + offset;
  }
  raise("runtime", "GM exhausted: cannot allocate {} bytes (GM is {} bytes)", bytes, gm_size_);
}

std::vector<void*> Device::live_allocations() const {
  std::vector<void*> live;
  for (const auto& [offset, size] : used_) live.push_back(gm_ + offset);
  return live;
}

void Device::free(void* pointer) {
  if (!pointer) return;
  auto* p = static_cast<uint8_t*>(pointer);
  auto it = p >= gm_ ? used_.find(uint64_t(p - gm_)) : used_.end();
  if (auto* san = check::Sanitizer::active()) san->gm_free(device_address(pointer), "GmFree");
  if (it == used_.end()) raise("runtime", "GmFree of {} which GmAlloc did not return", pointer);
  uint64_t offset = it->first, size = it->second;
  used_.erase(it);
  // Coalesce with the free neighbours.
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && next->first == offset + size) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      prev->second += size;
      return;
    }
  }
  free_[offset] = size;
}

bool Device::owns(const void* pointer, size_t bytes) const {
  auto* p = static_cast<const uint8_t*>(pointer);
  return p >= gm_ && uint64_t(p - gm_) <= gm_size_ && bytes <= gm_size_ - uint64_t(p - gm_);
}

void Device::memcpy(void* dst, const void* src, size_t bytes, Copy kind) {
  const char* kind_name = kind == Copy::HostToDevice   ? "HostToDevice"
                          : kind == Copy::DeviceToHost ? "DeviceToHost"
                                                       : "DeviceToDevice";
  if (bytes > 0 && (dst == nullptr || src == nullptr)) {
    raise(soc_->host_bridge().name(), "memcpy {} of {} bytes: the {} is a null pointer", kind_name, bytes,
          dst == nullptr ? "destination" : "source");
  }
  for (auto [side, pointer, device] : {std::tuple{"source", src, kind != Copy::HostToDevice},
                                       std::tuple{"destination", static_cast<const void*>(dst), kind != Copy::DeviceToHost}}) {
    if (device && !owns(pointer, bytes)) {
      raise(soc_->host_bridge().name(), "memcpy {} of {} bytes: the {} {} is not inside GM (GmAlloc/Device::malloc memory)",
            kind_name, bytes, side, pointer);
    }
  }
  // Host<->device copies are PCIe DMA through the host bridge in timed and perf modes; in
  // functional mode (no time) and device to device, the bytes are copied directly.
  if (auto* san = check::Sanitizer::active(); san && kind != Copy::DeviceToHost) san->host_write(device_address(dst), bytes);
  auto& bridge = soc_->host_bridge();
  if (kind == Copy::DeviceToDevice || soc_->params().mode == SimMode::Functional || bytes == 0) {
    std::memmove(dst, src, bytes);
    if (kind != Copy::DeviceToDevice) {
      bridge.count_direct_copy(kind == Copy::HostToDevice ? soc::HostBridge::Direction::HostToDevice
                                                          : soc::HostBridge::Direction::DeviceToHost,
                               bytes);
    }
    return;
  }
  if (kind == Copy::HostToDevice) {
    bridge.copy(soc::HostBridge::Direction::HostToDevice, device_address(dst),
                const_cast<uint8_t*>(static_cast<const uint8_t*>(src)), bytes);
  } else {
    bridge.copy(soc::HostBridge::Direction::DeviceToHost, device_address(src), static_cast<uint8_t*>(dst), bytes);
  }
}

void Device::memcpy_without_data(void* device, size_t bytes, Copy kind) {
  auto& bridge = soc_->host_bridge();
  if (kind == Copy::DeviceToDevice) {
    raise(bridge.name(), "memcpy without data of {} bytes: only a host<->device copy can be timed without its bytes",
          bytes);
  }
  const auto direction =
      kind == Copy::HostToDevice ? soc::HostBridge::Direction::HostToDevice : soc::HostBridge::Direction::DeviceToHost;
  if (bytes > 0 && !owns(device, bytes)) {
    raise(bridge.name(), "memcpy {} of {} bytes: the device side {} is not inside GM (GmAlloc/Device::malloc memory)",
          kind == Copy::HostToDevice ? "HostToDevice" : "DeviceToHost", bytes, device);
  }
  if (auto* san = check::Sanitizer::active(); san && kind == Copy::HostToDevice) san->host_write(device_address(device), bytes);
  if (soc_->params().mode == SimMode::Functional || bytes == 0) {
    bridge.count_direct_copy(direction, bytes);
    return;
  }
  bridge.copy(direction, device_address(device), nullptr, bytes);
}

uint64_t Device::device_address(const void* pointer) const {
  return soc_->params().gm_base + uint64_t(static_cast<const uint8_t*>(pointer) - gm_);
}

const RunReport& Device::launch(const std::string& name, uint32_t block_dim, std::function<void()> body) {
  return launch(name, block_dim, std::move(body), LaunchOptions{});
}

const RunReport& Device::launch(const std::string& name, uint32_t block_dim, std::function<void()> body,
                                const LaunchOptions& options) {
  // Kernels are launched by the host: a launch from inside a kernel body (a nested
  // ICPU_RUN_KF) would dispatch blocks to the cores that are running it.
  if (aicore::AiCore::current() != nullptr || launching_) {
    raise("runtime", "kernel '{}' launched from inside a running kernel (a nested ICPU_RUN_KF or Device::launch): "
          "only the host program launches kernels", name);
  }
  struct Launching {
    bool& flag;
    explicit Launching(bool& f) : flag(f) { flag = true; }
    ~Launching() { flag = false; }
  } launching(launching_);
  aicore::Task task;
  task.name = name;
  task.type = options.kernel_type;
  // As the Ascend C compiler reads KERNEL_TASK_TYPE_DEFAULT from the kernel, npuvp finds it by
  // running the body up to its first kernel API call.
  // Only where the type changes the dispatch (a separated chip, or Vector Cores beside the AI
  // Cores), so bodies elsewhere never run outside a core.
  const bool type_matters = soc_->separated() || soc_->params().vector_cores > 0;
  if (task.type == aicore::KernelType::Default && type_matters) task.type = ascendc::declared_kernel_type(body);
  if (task.type == aicore::KernelType::Default && options.mixed_matmul && soc_->separated()) {
    task.type = aicore::KernelType::Mix1To2;
  }
  task.body = std::move(body);
  task.block_num = block_dim;
  const auto wall0 = std::chrono::steady_clock::now();
  auto* san = check::Sanitizer::active();
  if (san) san->launch_begin(name);
  const sc_core::sc_time took = soc_->run(task);
  last_.kernel = name;
  last_.block_dim = block_dim;
  last_.kernel_type = task.type;
  last_.sim_time = took;
  last_.cycles = static_cast<uint64_t>(std::llround(took / soc_->core(0).cycle()));
  last_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  total_wall_seconds_ += last_.wall_seconds;
  // The sanitizer's reports, their call sites read from the debug information (outside the
  // launch's wall time: that reading is once per run, not per instruction).
  if (san) san->launch_end();
  return last_;
}

const RunReport& Device::launch_aicpu(const char* name, const soc::AicpuArgs& args, uint32_t blocks) {
  if (aicore::AiCore::current() != nullptr || launching_) {
    raise("runtime", "AI CPU kernel '{}' launched from inside a running kernel: only the host launches kernels", name);
  }
  const auto wall0 = std::chrono::steady_clock::now();
  // Through the task scheduler: the stream's next task, after every launch before it.
  const soc::AiCpu::Report r = soc_->scheduler().run_aicpu(name, args, blocks);
  // What the AI CPU wrote is initialised GM for the kernels after it (check.init).
  if (auto* san = check::Sanitizer::active()) {
    for (const auto& w : r.written) san->host_write(w.address, w.bytes);
  }
  last_ = RunReport{};
  last_.kernel = name;
  last_.block_dim = r.blocks;
  last_.sim_time = r.took;
  last_.cycles = static_cast<uint64_t>(std::llround(r.took.to_seconds() * soc_->aicpu().params().clock_mhz * 1e6));
  last_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  total_wall_seconds_ += last_.wall_seconds;
  return last_;
}

std::string RunReport::to_text() const {
  return fmt::format("kernel {}: {} blocks, {} cycles ({:.3f} us simulated), {:.3f} s wall", kernel, block_dim,
                     cycles, sim_time.to_seconds() * 1e6, wall_seconds);
}

namespace runtime {

// Host API calls report errors the CPU-debug way: print and exit 1. After an error the
// simulation cannot go on, so no destructors run (_Exit), but every stream is flushed first.
template <class F>
auto or_exit(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    std::fflush(nullptr);
    std::fprintf(stderr, "[npuvp] error: %s\n", error_text(e).c_str());
    std::fflush(nullptr);
    std::_Exit(1);
  }
}

namespace {
aicore::KernelType g_kernel_mode = aicore::KernelType::Default;  // SetKernelMode, for ICPU_RUN_KF
bool g_mixed_matmul_kernels = false;  // a loaded kernel file uses the mixed-mode Matmul
}  // namespace

void run_kernel(const char* name, uint32_t block_dim, const std::function<void()>& body) {
  LaunchOptions options;
  options.kernel_type = g_kernel_mode;
  // CANN's CPU debugging runs MIX mode unless the host calls SetKernelMode (asc-devkit
  // SetKernelMode.md); npuvp keeps AIV-only for the rest (a vector kernel run mixed would see
  // twice the blocks), as the sim route does for files without the Matmul.
  options.mixed_matmul = g_mixed_matmul_kernels;
  const RunReport& r =
      or_exit([&]() -> const RunReport& { return Device::instance().launch(name, block_dim, body, options); });
  std::fflush(stdout);  // keep the host's own output in order with ours
  std::fprintf(stderr, "[npuvp] %s\n", r.to_text().c_str());
}

bool note_mixed_matmul_kernel_file() {
  g_mixed_matmul_kernels = true;
  return true;
}

void set_kernel_mode(AscendC::KernelMode mode) {
  switch (mode) {
    case AscendC::KernelMode::AIV_MODE: g_kernel_mode = aicore::KernelType::AivOnly; break;
    case AscendC::KernelMode::AIC_MODE: g_kernel_mode = aicore::KernelType::AicOnly; break;
    case AscendC::KernelMode::MIX_MODE: g_kernel_mode = aicore::KernelType::Mix1To2; break;
  }
}

}  // namespace runtime
}  // namespace npuvp

namespace AscendC {
void* GmAlloc(size_t size) {
  return npuvp::runtime::or_exit([&] { return npuvp::Device::instance().malloc(size); });
}
void GmFree(void* ptr) {
  npuvp::runtime::or_exit([&] { npuvp::Device::instance().free(ptr); });
}
}  // namespace AscendC
