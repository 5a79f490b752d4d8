// AscendCL's runtime on the npuvp virtual device: one device (id 0, the configured platform),
// contexts, streams, events, GM allocation and copies (docs/acl-runtime.md). Every stream
// operation runs to completion before its call returns, so work on a stream is in issue
// order and a synchronize only reports what went wrong. Simulated time (sc_time_stamp) is
// the device's clock: copies through the PCIe host bridge and kernel launches advance it,
// and events record it.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>
#include <fmt/format.h>
#include "models/check/sanitizer.h"

#include "acl/acl.h"
#include "platforms/ascend_soc.h"
#include "sw/runtime/acl/kernel_launch.h"
#include "sw/runtime/acl/stream_work.h"
#include "sw/runtime/device.h"
#include "tlm/log.h"

namespace npuvp::acl {
namespace {

struct Context;

struct Stream {
  Context* context = nullptr;
  // The first failure of work on the stream (a kernel error), reported by every synchronize.
  aclError error = ACL_SUCCESS;
  std::string error_text;
};

struct Context {
  bool is_default = false;  // the device's default context (aclrtSetDevice)
  std::unique_ptr<Stream> default_stream;
};

struct Event {
  uint32_t flags = 0;
  bool recorded = false;
  sc_core::sc_time stamp;  // simulated time when recorded
};

struct Allocation {
  size_t bytes = 0;  // as requested
};

struct State {
  std::recursive_mutex mutex;
  bool initialised = false;
  bool ever_finalised = false;
  unsigned device_users = 0;  // aclrtSetDevice calls not yet undone by aclrtResetDevice
  Context* default_context = nullptr;
  std::map<Context*, std::unique_ptr<Context>> contexts;
  std::map<Stream*, std::unique_ptr<Stream>> streams;  // created ones (not the defaults)
  std::map<Event*, std::unique_ptr<Event>> events;
  std::map<const uint8_t*, Allocation> device_memory;  // aclrtMalloc'd, by base
  std::map<const uint8_t*, Allocation> host_memory;    // aclrtMallocHost'd, by base
  aclrtFloatOverflowMode sat_mode = ACL_RT_OVERFLOW_MODE_SATURATION;
  // Set when a kernel error stopped the simulation: nothing can run on the device after it.
  std::string device_failure;
};

// Never destroyed: host programs may call acl functions from static destructors.
State& state() {
  static State* s = new State;
  return *s;
}

thread_local Context* t_current = nullptr;
thread_local std::vector<std::string> t_errors;  // newest last
thread_local std::string t_error_text;           // what aclGetRecentErrMsg last returned

const char* code_name(aclError code) {
  switch (code) {
    case ACL_ERROR_INVALID_PARAM: return "ACL_ERROR_INVALID_PARAM";
    case ACL_ERROR_UNINITIALIZE: return "ACL_ERROR_UNINITIALIZE";
    case ACL_ERROR_REPEAT_INITIALIZE: return "ACL_ERROR_REPEAT_INITIALIZE";
    case ACL_ERROR_REPEAT_FINALIZE: return "ACL_ERROR_REPEAT_FINALIZE";
    case ACL_ERROR_RT_PARAM_INVALID: return "ACL_ERROR_RT_PARAM_INVALID";
    case ACL_ERROR_RT_INVALID_DEVICEID: return "ACL_ERROR_RT_INVALID_DEVICEID";
    case ACL_ERROR_RT_CONTEXT_NULL: return "ACL_ERROR_RT_CONTEXT_NULL";
    case ACL_ERROR_RT_STREAM_CONTEXT: return "ACL_ERROR_RT_STREAM_CONTEXT";
    case ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID: return "ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID";
    case ACL_ERROR_RT_FEATURE_NOT_SUPPORT: return "ACL_ERROR_RT_FEATURE_NOT_SUPPORT";
    case ACL_ERROR_RT_MEMORY_ALLOCATION: return "ACL_ERROR_RT_MEMORY_ALLOCATION";
    case ACL_ERROR_RT_MEMORY_FREE: return "ACL_ERROR_RT_MEMORY_FREE";
    case ACL_ERROR_RT_AICORE_EXCEPTION: return "ACL_ERROR_RT_AICORE_EXCEPTION";
    case ACL_ERROR_RT_DEV_SETUP_ERROR: return "ACL_ERROR_RT_DEV_SETUP_ERROR";
    case ACL_ERROR_RT_INTERNAL_ERROR: return "ACL_ERROR_RT_INTERNAL_ERROR";
    default: return "acl error";
  }
}

// Records why `api` failed (for aclGetRecentErrMsg) and returns `code`.
template <class... Args>
aclError fail(aclError code, const char* api, fmt::format_string<Args...> f, Args&&... args) {
  if (t_errors.size() >= 32) t_errors.erase(t_errors.begin());
  t_errors.push_back(fmt::format("{}: {} [{} {}]", api, fmt::format(f, std::forward<Args>(args)...),
                                 code_name(code), code));
  return code;
}

void print_error(const std::string& text) {
  std::fflush(stdout);
  std::fprintf(stderr, "[npuvp] error: %s\n", text.c_str());
  std::fflush(stderr);
}

// Device failures are printed as well as recorded: a program seldom survives them, and
// samples often print only the code.
aclError fail_loudly(aclError code, const char* api, const std::string& text) {
  fail(code, api, "{}", text);
  print_error(t_errors.back());
  return code;
}

// Every call holds the runtime's lock (recursive: a call may make another).
[[nodiscard]] std::unique_lock<std::recursive_mutex> hold() { return std::unique_lock<std::recursive_mutex>(state().mutex); }

bool live(Context* c) { return c && state().contexts.count(c); }

// The calling thread's current context, or why there is none.
aclError need_context(const char* api, Context** out) {
  State& s = state();
  if (!s.initialised) return fail(ACL_ERROR_UNINITIALIZE, api, "aclInit has not been called");
  if (!live(t_current)) {
    t_current = nullptr;
    return fail(ACL_ERROR_RT_CONTEXT_NULL, api,
                "this thread has no current context: call aclrtSetDevice (or aclrtCreateContext / "
                "aclrtSetCurrentContext) first");
  }
  *out = t_current;
  return ACL_SUCCESS;
}

// The stream `handle` names (nullptr: the current context's default stream).
aclError find_stream(const char* api, aclrtStream handle, Stream** out) {
  Context* c = nullptr;
  if (aclError e = need_context(api, &c)) return e;
  if (handle == nullptr) {
    *out = c->default_stream.get();
    return ACL_SUCCESS;
  }
  auto it = state().streams.find(static_cast<Stream*>(handle));
  if (it == state().streams.end()) {
    return fail(ACL_ERROR_RT_PARAM_INVALID, api, "stream {} is not a live stream (aclrtCreateStream did not return it, "
                "or it was destroyed)", handle);
  }
  *out = it->second.get();
  return ACL_SUCCESS;
}

aclError find_event(const char* api, aclrtEvent handle, Event** out) {
  if (!state().initialised) return fail(ACL_ERROR_UNINITIALIZE, api, "aclInit has not been called");
  if (handle == nullptr) return fail(ACL_ERROR_INVALID_PARAM, api, "the event is a null pointer");
  auto it = state().events.find(static_cast<Event*>(handle));
  if (it == state().events.end()) {
    return fail(ACL_ERROR_RT_PARAM_INVALID, api, "event {} is not a live event (aclrtCreateEvent did not return it, "
                "or it was destroyed)", handle);
  }
  *out = it->second.get();
  return ACL_SUCCESS;
}

aclError device_stopped(const char* api) {
  return fail(ACL_ERROR_RT_AICORE_EXCEPTION, api, "the device stopped at an earlier kernel error: {}",
              state().device_failure);
}

// --- Memory ---------------------------------------------------------------------------

bool in_gm(const void* p) {
  auto& gm = Device::instance().soc().gm();
  auto* b = static_cast<const uint8_t*>(p);
  return b >= gm.data() && b < gm.data() + gm.size();
}

// The allocation in `memory` that holds `p`, or end().
std::map<const uint8_t*, Allocation>::iterator holder(std::map<const uint8_t*, Allocation>& memory, const void* p) {
  auto* b = static_cast<const uint8_t*>(p);
  auto it = memory.upper_bound(b);
  if (it == memory.begin()) return memory.end();
  --it;
  return b < it->first + std::max<size_t>(it->second.bytes, 1) ? it : memory.end();
}

// Checks that [p, p + bytes) lies in one aclrtMalloc allocation (device) or, if p is in an
// aclrtMallocHost one, inside it.
aclError check_range(const char* api, const char* side, const void* p, size_t bytes, bool device) {
  auto& memory = device ? state().device_memory : state().host_memory;
  auto it = holder(memory, p);
  if (it == memory.end()) {
    if (!device) return ACL_SUCCESS;  // plain host memory: nothing to check it against
    return fail(ACL_ERROR_RT_PARAM_INVALID, api,
                "the {} {} is device memory that aclrtMalloc did not return (never allocated, or freed)", side, p);
  }
  const size_t offset = size_t(static_cast<const uint8_t*>(p) - it->first);
  if (bytes > it->second.bytes - offset) {
    return fail(ACL_ERROR_RT_PARAM_INVALID, api,
                "the {} range [{}, +{} bytes) runs {} bytes past the end of its {} allocation of {} bytes at {}", side,
                p, bytes, bytes - (it->second.bytes - offset), device ? "aclrtMalloc" : "aclrtMallocHost",
                it->second.bytes, static_cast<const void*>(it->first));
  }
  return ACL_SUCCESS;
}

const char* kind_name(aclrtMemcpyKind kind) {
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: return "ACL_MEMCPY_HOST_TO_HOST";
    case ACL_MEMCPY_HOST_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_DEVICE";
    case ACL_MEMCPY_DEVICE_TO_HOST: return "ACL_MEMCPY_DEVICE_TO_HOST";
    case ACL_MEMCPY_DEVICE_TO_DEVICE: return "ACL_MEMCPY_DEVICE_TO_DEVICE";
    case ACL_MEMCPY_DEFAULT: return "ACL_MEMCPY_DEFAULT";
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE";
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE: return "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE";
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: return "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE";
  }
  return "an unknown kind";
}

// Validates a copy and performs it (aclrtMemcpy and, in stream order, aclrtMemcpyAsync).
aclError copy(const char* api, void* dst, size_t dest_max, const void* src, size_t count, aclrtMemcpyKind kind) {
  if (dst == nullptr) return fail(ACL_ERROR_INVALID_PARAM, api, "the destination is a null pointer");
  if (src == nullptr) return fail(ACL_ERROR_INVALID_PARAM, api, "the source is a null pointer");
  if (count > dest_max) {
    return fail(ACL_ERROR_RT_PARAM_INVALID, api, "count {} bytes is more than destMax {} bytes", count, dest_max);
  }
  const bool src_device = in_gm(src), dst_device = in_gm(dst);
  bool want_src_device = false, want_dst_device = false;
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: want_dst_device = true; break;
    case ACL_MEMCPY_DEVICE_TO_HOST: want_src_device = true; break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: want_src_device = want_dst_device = true; break;
    case ACL_MEMCPY_DEFAULT: want_src_device = src_device, want_dst_device = dst_device; break;
    default: return fail(ACL_ERROR_RT_PARAM_INVALID, api, "kind {} is not an aclrtMemcpyKind", int(kind));
  }
  auto where = [](bool device) { return device ? "device memory" : "host memory"; };
  if (src_device != want_src_device) {
    return fail(ACL_ERROR_RT_PARAM_INVALID, api, "kind {} needs the source in {}, but {} is {}", kind_name(kind),
                where(want_src_device), src, where(src_device));
  }
  if (dst_device != want_dst_device) {
    return fail(ACL_ERROR_RT_PARAM_INVALID, api, "kind {} needs the destination in {}, but {} is {}",
                kind_name(kind), where(want_dst_device), static_cast<const void*>(dst), where(dst_device));
  }
  if (aclError e = check_range(api, "source", src, count, src_device)) return e;
  if (aclError e = check_range(api, "destination", dst, count, dst_device)) return e;
  if (count == 0) return ACL_SUCCESS;
  if (!src_device && !dst_device) {
    std::memmove(dst, src, count);
    return ACL_SUCCESS;
  }
  if (!state().device_failure.empty()) return device_stopped(api);
  const Device::Copy how = !src_device ? Device::Copy::HostToDevice
                           : !dst_device ? Device::Copy::DeviceToHost
                                         : Device::Copy::DeviceToDevice;
  try {
    Device::instance().memcpy(dst, src, count, how);
  } catch (const std::exception& e) {
    return fail_loudly(ACL_ERROR_RT_INTERNAL_ERROR, api, error_text(e));
  }
  return ACL_SUCCESS;
}

aclError fill(const char* api, void* p, size_t max_count, int32_t value, size_t count) {
  if (p == nullptr) return fail(ACL_ERROR_INVALID_PARAM, api, "devPtr is a null pointer");
  if (count > max_count) {
    return fail(ACL_ERROR_RT_PARAM_INVALID, api, "count {} bytes is more than maxCount {} bytes", count, max_count);
  }
  const bool device = in_gm(p);
  if (aclError e = check_range(api, "memory", p, count, device)) return e;
  if (device && !state().device_failure.empty()) return device_stopped(api);
  if (auto* san = npuvp::check::Sanitizer::active(); san && device) {
    san->host_write(Device::instance().device_address(p), count);
  }
  std::memset(p, value & 0xff, count);  // untimed: a fill moves no data across the host bridge
  return ACL_SUCCESS;
}

// --- Devices and contexts -------------------------------------------------------------

aclError check_device_id(const char* api, int32_t device_id) {
  if (device_id != 0) {
    return fail(ACL_ERROR_RT_INVALID_DEVICEID, api, "device {} does not exist: the virtual platform has one device, 0",
                device_id);
  }
  return ACL_SUCCESS;
}

// Builds the simulated device on first use.
aclError build_device(const char* api) {
  try {
    Device::instance();
  } catch (const std::exception& e) {
    return fail_loudly(ACL_ERROR_RT_DEV_SETUP_ERROR, api, "the virtual device could not be built: " + error_text(e));
  }
  return ACL_SUCCESS;
}

Context* new_context(bool is_default) {
  auto c = std::make_unique<Context>();
  c->is_default = is_default;
  c->default_stream = std::make_unique<Stream>();
  c->default_stream->context = c.get();
  Context* raw = c.get();
  state().contexts[raw] = std::move(c);
  return raw;
}

void destroy_context(Context* c) {
  State& s = state();
  for (auto it = s.streams.begin(); it != s.streams.end();) {
    it = it->second->context == c ? s.streams.erase(it) : std::next(it);
  }
  if (s.default_context == c) s.default_context = nullptr;
  if (t_current == c) t_current = nullptr;
  s.contexts.erase(c);
}

// The device is released when nobody uses it: its default context, and the memory
// allocated on it, go as CANN's aclrtResetDevice releases them.
void release_device_if_unused() {
  State& s = state();
  if (s.device_users > 0) return;
  if (s.default_context) destroy_context(s.default_context);
  if (!s.contexts.empty()) return;  // user contexts still hold the device
  for (auto& [base, a] : s.device_memory) Device::instance().free(const_cast<uint8_t*>(base));
  s.device_memory.clear();
}

// The CANN SoC name of a product, and the product a SoC name belongs to.
const char* default_soc_name(aicore::Product p) {
  switch (p) {
    case aicore::Product::Ascend910: return "Ascend910A";
    case aicore::Product::Ascend310P: return "Ascend310P3";
    case aicore::Product::Ascend910B: return "Ascend910B1";
  }
  return nullptr;
}

bool soc_name_is_product(const char* name, aicore::Product p) {
  auto starts = [name](const char* prefix) { return std::strncmp(name, prefix, std::strlen(prefix)) == 0; };
  // Ascend910B<digit> is the A2 chip; Ascend910B alone, Ascend910A/ProA/ProB/PremiumA the first 910.
  const bool a2 = starts("Ascend910B") && name[10] >= '1' && name[10] <= '9';
  switch (p) {
    case aicore::Product::Ascend910: return starts("Ascend910") && !a2;
    case aicore::Product::Ascend310P: return starts("Ascend310P");
    case aicore::Product::Ascend910B: return a2;
  }
  return false;
}

}  // namespace

namespace {
aclError launch_on_stream(void* stream, const char* name, uint32_t block_dim, const std::function<void()>& body,
                          const LaunchOptions& options) {
  const char* api = "launch_kernel";
  Stream* s = nullptr;
  if (aclError e = find_stream(api, stream, &s)) return e;
  if (block_dim < 1 || block_dim > 65535) {
    return fail(ACL_ERROR_RT_PARAM_INVALID, api, "kernel '{}': blockDim {} is outside [1, 65535]", name, block_dim);
  }
  if (!state().device_failure.empty()) return device_stopped(api);
  try {
    const RunReport& r = Device::instance().launch(name, block_dim, body, options);
    std::fflush(stdout);  // keep the host's own output in order with ours
    std::fprintf(stderr, "[npuvp] %s\n", r.to_text().c_str());
  } catch (const std::exception& e) {
    // The simulation cannot go on after a kernel error: the stream reports it at every
    // synchronize, and later device work fails with it.
    state().device_failure = fmt::format("kernel '{}': {}", name, error_text(e));
    s->error = ACL_ERROR_RT_AICORE_EXCEPTION;
    s->error_text = state().device_failure;
    return fail(ACL_ERROR_RT_AICORE_EXCEPTION, api, "{}", state().device_failure);
  }
  return ACL_SUCCESS;
}
}  // namespace

// A failed launch is printed as well as returned: the launch forms CANN's samples use
// (`kernel<<<...>>>(...)`) have no result to check.
uint32_t launch_kernel(void* stream, const char* name, uint32_t block_dim, const std::function<void()>& body) {
  return launch_kernel_as(stream, name, block_dim, body, false);
}

uint32_t launch_kernel_as(void* stream, const char* name, uint32_t block_dim, const std::function<void()>& body,
                          bool mixed_matmul) {
  const auto lock = hold();
  npuvp::LaunchOptions options;
  options.mixed_matmul = mixed_matmul;
  const aclError e = launch_on_stream(stream, name ? name : "kernel", block_dim, body, options);
  if (e != ACL_SUCCESS) print_error(t_errors.back());
  return uint32_t(e);
}

// Issue 28: host-issued device work (acldvpp, AI CPU launches) in stream order.
int32_t run_on_stream(void* stream, const char* api, int32_t failure_code, const std::function<void()>& work) {
  const auto lock = hold();
  Stream* s = nullptr;
  if (aclError e = find_stream(api, stream, &s)) return e;
  if (!state().device_failure.empty()) return device_stopped(api);
  try {
    work();
  } catch (const std::exception& e) {
    s->error = failure_code;
    s->error_text = fmt::format("{}: {}", api, error_text(e));
    return fail_loudly(failure_code, api, error_text(e));
  }
  return ACL_SUCCESS;
}

int32_t record_error(int32_t code, const char* api, const char* text) { return fail(code, api, "{}", text); }

int32_t need_runtime(const char* api) {
  const auto lock = hold();
  Context* c = nullptr;
  return need_context(api, &c);
}

}  // namespace npuvp::acl

using namespace npuvp::acl;
using npuvp::Device;

extern "C" {

const char* aclGetRecentErrMsg(void) {
  if (t_errors.empty()) return nullptr;
  t_error_text.clear();
  for (auto it = t_errors.rbegin(); it != t_errors.rend(); ++it) {  // newest first
    if (!t_error_text.empty()) t_error_text += '\n';
    t_error_text += *it;
  }
  t_errors.clear();
  return t_error_text.c_str();
}

aclError aclInit(const char* configPath) {
  (void)configPath;  // dump/profiling configuration: nothing to configure here
  const auto lock = hold();
  State& s = state();
  if (s.initialised) return fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit", "aclInit was already called");
  s.initialised = true;
  return ACL_SUCCESS;
}

aclError aclFinalize(void) {
  const auto lock = hold();
  State& s = state();
  if (!s.initialised) {
    return s.ever_finalised ? fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize", "aclFinalize was already called")
                            : fail(ACL_ERROR_UNINITIALIZE, "aclFinalize", "aclInit has not been called");
  }
  // What the program did not release goes now, as CANN's aclFinalize releases it.
  s.device_users = 0;
  while (!s.contexts.empty()) destroy_context(s.contexts.begin()->first);
  release_device_if_unused();
  s.events.clear();
  s.initialised = false;
  s.ever_finalised = true;
  return ACL_SUCCESS;
}

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
  if (!majorVersion || !minorVersion || !patchVersion) {
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetVersion", "an output pointer is null");
  }
  *majorVersion = ACL_MAJOR_VERSION;
  *minorVersion = ACL_MINOR_VERSION;
  *patchVersion = ACL_PATCH_VERSION;
  return ACL_SUCCESS;
}

// --- Devices --------------------------------------------------------------------------

aclError aclrtSetDevice(int32_t deviceId) {
  const char* api = "aclrtSetDevice";
  const auto lock = hold();
  State& s = state();
  if (!s.initialised) return fail(ACL_ERROR_UNINITIALIZE, api, "aclInit has not been called");
  if (aclError e = check_device_id(api, deviceId)) return e;
  if (aclError e = build_device(api)) return e;
  if (!s.default_context) s.default_context = new_context(true);
  ++s.device_users;
  t_current = s.default_context;
  return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) {
  const char* api = "aclrtResetDevice";
  const auto lock = hold();
  State& s = state();
  if (!s.initialised) return fail(ACL_ERROR_UNINITIALIZE, api, "aclInit has not been called");
  if (aclError e = check_device_id(api, deviceId)) return e;
  if (s.device_users > 0) --s.device_users;
  release_device_if_unused();
  return ACL_SUCCESS;
}

aclError aclrtResetDeviceForce(int32_t deviceId) {
  const char* api = "aclrtResetDeviceForce";
  const auto lock = hold();
  State& s = state();
  if (!s.initialised) return fail(ACL_ERROR_UNINITIALIZE, api, "aclInit has not been called");
  if (aclError e = check_device_id(api, deviceId)) return e;
  s.device_users = 0;
  release_device_if_unused();
  return ACL_SUCCESS;
}

aclError aclrtGetDevice(int32_t* deviceId) {
  const char* api = "aclrtGetDevice";
  if (!deviceId) return fail(ACL_ERROR_INVALID_PARAM, api, "deviceId is a null pointer");
  const auto lock = hold();
  Context* c = nullptr;
  if (aclError e = need_context(api, &c)) return e;
  *deviceId = 0;
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  if (!count) return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount", "count is a null pointer");
  *count = 1;
  return ACL_SUCCESS;
}

aclError aclrtGetRunMode(aclrtRunMode* runMode) {
  if (!runMode) return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetRunMode", "runMode is a null pointer");
  *runMode = ACL_HOST;  // the program runs on the host, the device is across PCIe
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice(void) {
  const char* api = "aclrtSynchronizeDevice";
  const auto lock = hold();
  Context* c = nullptr;
  if (aclError e = need_context(api, &c)) return e;
  if (!state().device_failure.empty()) return device_stopped(api);
  return ACL_SUCCESS;
}

const char* aclrtGetSocName(void) {
  const auto lock = hold();
  if (build_device("aclrtGetSocName")) return nullptr;
  const auto product = Device::instance().soc().core(0).product();
  // The name the project was built for, when it names this chip (the CANN build flows set
  // NPUVP_SOC_VERSION); else the usual name of the modelled chip.
  const char* built_for = std::getenv("NPUVP_SOC_VERSION");
  if (built_for && soc_name_is_product(built_for, product)) return built_for;
  return default_soc_name(product);
}

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) {
  const char* api = "aclrtSetDeviceSatMode";
  const auto lock = hold();
  Context* c = nullptr;
  if (aclError e = need_context(api, &c)) return e;
  if (mode != ACL_RT_OVERFLOW_MODE_SATURATION && mode != ACL_RT_OVERFLOW_MODE_INFNAN) {
    return fail(ACL_ERROR_INVALID_PARAM, api, "mode {} is neither ACL_RT_OVERFLOW_MODE_SATURATION nor "
                "ACL_RT_OVERFLOW_MODE_INFNAN", int(mode));
  }
  state().sat_mode = mode;
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode) {
  const char* api = "aclrtGetDeviceSatMode";
  if (!mode) return fail(ACL_ERROR_INVALID_PARAM, api, "mode is a null pointer");
  const auto lock = hold();
  Context* c = nullptr;
  if (aclError e = need_context(api, &c)) return e;
  *mode = state().sat_mode;
  return ACL_SUCCESS;
}

// --- Contexts -------------------------------------------------------------------------

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  const char* api = "aclrtCreateContext";
  if (!context) return fail(ACL_ERROR_INVALID_PARAM, api, "context is a null pointer");
  const auto lock = hold();
  if (!state().initialised) return fail(ACL_ERROR_UNINITIALIZE, api, "aclInit has not been called");
  if (aclError e = check_device_id(api, deviceId)) return e;
  if (aclError e = build_device(api)) return e;
  Context* c = new_context(false);
  t_current = c;
  *context = c;
  return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
  const char* api = "aclrtDestroyContext";
  const auto lock = hold();
  if (!state().initialised) return fail(ACL_ERROR_UNINITIALIZE, api, "aclInit has not been called");
  auto* c = static_cast<Context*>(context);
  if (!live(c)) return fail(ACL_ERROR_INVALID_PARAM, api, "context {} is not a live context", context);
  if (c->is_default) {
    return fail(ACL_ERROR_INVALID_PARAM, api, "context {} is the device's default context: aclrtResetDevice releases it",
                context);
  }
  destroy_context(c);
  release_device_if_unused();
  return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  const char* api = "aclrtSetCurrentContext";
  const auto lock = hold();
  if (!state().initialised) return fail(ACL_ERROR_UNINITIALIZE, api, "aclInit has not been called");
  auto* c = static_cast<Context*>(context);
  if (!live(c)) return fail(ACL_ERROR_INVALID_PARAM, api, "context {} is not a live context", context);
  t_current = c;
  return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  const char* api = "aclrtGetCurrentContext";
  if (!context) return fail(ACL_ERROR_INVALID_PARAM, api, "context is a null pointer");
  const auto lock = hold();
  Context* c = nullptr;
  if (aclError e = need_context(api, &c)) return e;
  *context = c;
  return ACL_SUCCESS;
}

// --- Streams --------------------------------------------------------------------------

aclError aclrtCreateStream(aclrtStream* stream) {
  const char* api = "aclrtCreateStream";
  if (!stream) return fail(ACL_ERROR_INVALID_PARAM, api, "stream is a null pointer");
  const auto lock = hold();
  Context* c = nullptr;
  if (aclError e = need_context(api, &c)) return e;
  auto s = std::make_unique<Stream>();
  s->context = c;
  *stream = s.get();
  state().streams[s.get()] = std::move(s);
  return ACL_SUCCESS;
}

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
  (void)priority;  // one stream runs at a time: priorities cannot change an order
  (void)flag;
  return aclrtCreateStream(stream);
}

aclError aclrtDestroyStream(aclrtStream stream) {
  const char* api = "aclrtDestroyStream";
  const auto lock = hold();
  if (!state().initialised) return fail(ACL_ERROR_UNINITIALIZE, api, "aclInit has not been called");
  if (stream == nullptr) return fail(ACL_ERROR_INVALID_PARAM, api, "the default stream (nullptr) cannot be destroyed");
  if (!state().streams.erase(static_cast<Stream*>(stream))) {
    return fail(ACL_ERROR_RT_PARAM_INVALID, api, "stream {} is not a live stream", stream);
  }
  return ACL_SUCCESS;
}

aclError aclrtDestroyStreamForce(aclrtStream stream) { return aclrtDestroyStream(stream); }

aclError aclrtSynchronizeStream(aclrtStream stream) {
  const char* api = "aclrtSynchronizeStream";
  const auto lock = hold();
  Stream* s = nullptr;
  if (aclError e = find_stream(api, stream, &s)) return e;
  if (s->error) return fail(s->error, api, "work on the stream failed: {}", s->error_text);
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  if (timeout < -1) {
    return fail(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStreamWithTimeout", "timeout {} ms is below -1", timeout);
  }
  return aclrtSynchronizeStream(stream);  // the work is done already: no wait to time out
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  const char* api = "aclrtStreamWaitEvent";
  const auto lock = hold();
  Stream* s = nullptr;
  Event* e = nullptr;
  if (aclError r = find_stream(api, stream, &s)) return r;
  if (aclError r = find_event(api, event, &e)) return r;
  return ACL_SUCCESS;  // a recorded event's work has completed when the record returned
}

// --- Events ---------------------------------------------------------------------------

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
  const char* api = "aclrtCreateEvent";
  if (!event) return fail(ACL_ERROR_INVALID_PARAM, api, "event is a null pointer");
  const auto lock = hold();
  Context* c = nullptr;
  if (aclError e = need_context(api, &c)) return e;
  auto e = std::make_unique<Event>();
  e->flags = flag;
  *event = e.get();
  state().events[e.get()] = std::move(e);
  return ACL_SUCCESS;
}

aclError aclrtCreateEvent(aclrtEvent* event) { return aclrtCreateEventWithFlag(event, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE); }

aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) { return aclrtCreateEventWithFlag(event, flag); }

aclError aclrtDestroyEvent(aclrtEvent event) {
  const char* api = "aclrtDestroyEvent";
  const auto lock = hold();
  Event* e = nullptr;
  if (aclError r = find_event(api, event, &e)) return r;
  state().events.erase(e);
  return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  const char* api = "aclrtRecordEvent";
  const auto lock = hold();
  Event* e = nullptr;
  Stream* s = nullptr;
  if (aclError r = find_event(api, event, &e)) return r;
  if (aclError r = find_stream(api, stream, &s)) return r;
  // Everything issued to the stream before has finished: the event marks this moment.
  e->recorded = true;
  e->stamp = sc_core::sc_time_stamp();
  return ACL_SUCCESS;
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  const char* api = "aclrtResetEvent";
  const auto lock = hold();
  Event* e = nullptr;
  Stream* s = nullptr;
  if (aclError r = find_event(api, event, &e)) return r;
  if (aclError r = find_stream(api, stream, &s)) return r;
  e->recorded = false;
  return ACL_SUCCESS;
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
  const char* api = "aclrtQueryEvent";
  if (!status) return fail(ACL_ERROR_INVALID_PARAM, api, "status is a null pointer");
  const auto lock = hold();
  Event* e = nullptr;
  if (aclError r = find_event(api, event, &e)) return r;
  *status = ACL_EVENT_STATUS_COMPLETE;  // work completes as it is issued
  return ACL_SUCCESS;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
  const char* api = "aclrtQueryEventStatus";
  if (!status) return fail(ACL_ERROR_INVALID_PARAM, api, "status is a null pointer");
  const auto lock = hold();
  Event* e = nullptr;
  if (aclError r = find_event(api, event, &e)) return r;
  *status = e->recorded ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  const auto lock = hold();
  Event* e = nullptr;
  return find_event("aclrtSynchronizeEvent", event, &e);
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  const char* api = "aclrtEventElapsedTime";
  if (!ms) return fail(ACL_ERROR_INVALID_PARAM, api, "ms is a null pointer");
  const auto lock = hold();
  Event* start = nullptr;
  Event* end = nullptr;
  if (aclError r = find_event(api, startEvent, &start)) return r;
  if (aclError r = find_event(api, endEvent, &end)) return r;
  for (auto [e, which] : {std::pair{start, "start"}, std::pair{end, "end"}}) {
    if (!e->recorded) {
      return fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, api, "the {} event has not been recorded (aclrtRecordEvent)",
                  which);
    }
  }
  *ms = float((end->stamp.to_seconds() - start->stamp.to_seconds()) * 1e3);
  return ACL_SUCCESS;
}

// --- Memory ---------------------------------------------------------------------------

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  const char* api = "aclrtMalloc";
  (void)policy;  // GM has one kind of page
  if (!devPtr) return fail(ACL_ERROR_INVALID_PARAM, api, "devPtr is a null pointer");
  if (size == 0) return fail(ACL_ERROR_INVALID_PARAM, api, "size is 0");
  const auto lock = hold();
  Context* c = nullptr;
  if (aclError e = need_context(api, &c)) return e;
  void* p = nullptr;
  try {
    p = Device::instance().malloc(size);
  } catch (const std::exception& e) {
    return fail(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "{}", npuvp::error_text(e));
  }
  state().device_memory[static_cast<const uint8_t*>(p)] = Allocation{size};
  // Device memory: the host reaches it only through aclrtMemcpy/aclrtMemset (init counts those).
  if (auto* san = npuvp::check::Sanitizer::active()) {
    san->gm_alloc(Device::instance().device_address(p), size, false, "aclrtMalloc");
  }
  *devPtr = p;
  return ACL_SUCCESS;
}

aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return aclrtMalloc(devPtr, size, policy);
}

// GM blocks are 512-byte aligned and sized, which covers the 32-byte promise.
aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return aclrtMalloc(devPtr, size, policy);
}

aclError aclrtFree(void* devPtr) {
  const char* api = "aclrtFree";
  if (!devPtr) return fail(ACL_ERROR_INVALID_PARAM, api, "devPtr is a null pointer");
  const auto lock = hold();
  if (!state().initialised) return fail(ACL_ERROR_UNINITIALIZE, api, "aclInit has not been called");
  auto& memory = state().device_memory;
  auto it = memory.find(static_cast<const uint8_t*>(devPtr));
  if (it == memory.end()) {
    return fail(ACL_ERROR_RT_PARAM_INVALID, api, "{} is not the start of memory aclrtMalloc returned (or it was "
                "freed already)", devPtr);
  }
  Device::instance().free(devPtr);
  memory.erase(it);
  return ACL_SUCCESS;
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  const char* api = "aclrtMallocHost";
  if (!hostPtr) return fail(ACL_ERROR_INVALID_PARAM, api, "hostPtr is a null pointer");
  if (size == 0) return fail(ACL_ERROR_INVALID_PARAM, api, "size is 0");
  const auto lock = hold();
  Context* c = nullptr;
  if (aclError e = need_context(api, &c)) return e;
  // 64-byte aligned as CANN's pinned memory; the size rounds up to whole alignment units.
  void* p = std::aligned_alloc(64, (size + 63) / 64 * 64);
  if (!p) return fail(ACL_ERROR_RT_MEMORY_ALLOCATION, api, "the host has no {} bytes to give", size);
  state().host_memory[static_cast<const uint8_t*>(p)] = Allocation{size};
  *hostPtr = p;
  return ACL_SUCCESS;
}

aclError aclrtFreeHost(void* hostPtr) {
  const char* api = "aclrtFreeHost";
  if (!hostPtr) return fail(ACL_ERROR_INVALID_PARAM, api, "hostPtr is a null pointer");
  const auto lock = hold();
  auto& memory = state().host_memory;
  auto it = memory.find(static_cast<const uint8_t*>(hostPtr));
  if (it == memory.end()) {
    return fail(ACL_ERROR_RT_PARAM_INVALID, api, "{} is not the start of memory aclrtMallocHost returned (or it was "
                "freed already)", hostPtr);
  }
  memory.erase(it);
  std::free(hostPtr);
  return ACL_SUCCESS;
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
  const char* api = "aclrtMemcpy";
  const auto lock = hold();
  Context* c = nullptr;
  if (aclError e = need_context(api, &c)) return e;
  return copy(api, dst, destMax, src, count, kind);
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
  const char* api = "aclrtMemcpyAsync";
  const auto lock = hold();
  Stream* s = nullptr;
  if (aclError e = find_stream(api, stream, &s)) return e;
  // aclrtMemcpyAsync.md: an asynchronous host-to-host copy is not supported (EP products).
  if (kind == ACL_MEMCPY_HOST_TO_HOST) {
    return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, api, "ACL_MEMCPY_HOST_TO_HOST is not supported asynchronously");
  }
  return copy(api, dst, destMax, src, count, kind);
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  const char* api = "aclrtMemset";
  const auto lock = hold();
  Context* c = nullptr;
  if (aclError e = need_context(api, &c)) return e;
  return fill(api, devPtr, maxCount, value, count);
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
  const char* api = "aclrtMemsetAsync";
  const auto lock = hold();
  Stream* s = nullptr;
  if (aclError e = find_stream(api, stream, &s)) return e;
  return fill(api, devPtr, maxCount, value, count);
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
  const char* api = "aclrtGetMemInfo";
  if (!free || !total) return fail(ACL_ERROR_INVALID_PARAM, api, "free or total is a null pointer");
  if (int(attr) < int(ACL_DDR_MEM) || int(attr) > int(ACL_HBM_MEM_P2P_NORMAL)) {
    return fail(ACL_ERROR_INVALID_PARAM, api, "attr {} is not an aclrtMemAttr", int(attr));
  }
  const auto lock = hold();
  Context* c = nullptr;
  if (aclError e = need_context(api, &c)) return e;
  // GM is one memory (HBM or DDR, as the chip has): every attribute reports it.
  const uint64_t size = Device::instance().soc().gm().size();
  uint64_t used = 0;
  for (auto& [base, a] : state().device_memory) used += std::max<uint64_t>(512, (a.bytes + 511) / 512 * 512);
  *total = size_t(size);
  *free = size_t(size - std::min(used, size));
  return ACL_SUCCESS;
}

}  // extern "C"
