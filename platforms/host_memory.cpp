#include "platforms/host_memory.h"

#include <sys/resource.h>
#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <fmt/format.h>

#include "tlm/log.h"

namespace npuvp::platform {

HostMemoryEstimate estimate_host_memory(const AscendSocShape& s) {
  HostMemoryEstimate e;
  auto term = [&e](const char* driver, uint64_t bytes) {
    e.bytes += bytes;
    if (bytes > e.driver_bytes) {
      e.driver = driver;
      e.driver_bytes = bytes;
    }
  };
  e.bytes = kHostBytesBase;
  term("platform.cores", uint64_t(s.cores) * kHostBytesPerCore);
  // The L2 tags: one 8-byte entry per line (models/memory/cache_tags.h).
  if (s.l2_slices > 0 && s.l2_line_bytes > 0) term("l2.size", s.l2_size / s.l2_line_bytes * 8);
  // Stops: every core, slice and controller. A ring's routes are O(stops), its request
  // counters O(stops x targets); a mesh keeps every route: stops^2 of about
  // (rows + columns) / 3 links each.
  const uint64_t stops = uint64_t(s.cores) + s.l2_slices + s.dram_controllers;
  term("platform.cores", stops * (uint64_t(s.l2_slices) + s.dram_controllers) * 16);
  if (s.mesh) {
    const uint64_t columns = s.mesh_columns ? s.mesh_columns : uint64_t(std::ceil(std::sqrt(double(stops))));
    const uint64_t rows = (stops + columns - 1) / std::max<uint64_t>(columns, 1);
    term("interconnect.topology=mesh", stops * stops * (4 + 4 * (rows + columns) / 3));
  }
  return e;
}

uint64_t default_host_memory_limit() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream in(line);
    std::string key;
    uint64_t kib = 0;
    if (in >> key >> kib && key == "MemAvailable:" && kib > 0) return kib * 1024 / 4 * 3;
  }
  return uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE)) / 4 * 3;
}

std::string host_bytes_text(uint64_t b) {
  return b >= (1ull << 30) ? fmt::format("{:.1f} GiB", double(b) / double(1ull << 30))
                           : fmt::format("{:.0f} MiB", double(b) / double(1ull << 20));
}

void require_host_memory_for_model(const AscendSocShape& shape, uint64_t limit) {
  require_host_memory(estimate_host_memory(shape), limit);
}

void require_host_memory(const HostMemoryEstimate& e, uint64_t limit) {
  if (limit == 0) limit = default_host_memory_limit();
  if (e.bytes <= limit) return;
  raise("config", "the platform's model needs about {} of host memory ({} of it for {}), more than the {} it may "
        "take (sim.host_memory_limit; by default 3/4 of this machine's available memory): reduce {}",
        host_bytes_text(e.bytes), host_bytes_text(e.driver_bytes), e.driver, host_bytes_text(limit), e.driver);
}

uint64_t address_space_left() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return UINT64_MAX;
  uint64_t mapped_pages = 0;
  std::ifstream("/proc/self/statm") >> mapped_pages;  // the first field: the whole mapped size
  const uint64_t mapped = mapped_pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return limit.rlim_cur > mapped ? limit.rlim_cur - mapped : 0;
}

namespace {
uint64_t address_space_limit() {
  rlimit limit{};
  return getrlimit(RLIMIT_AS, &limit) == 0 ? uint64_t(limit.rlim_cur) : UINT64_MAX;
}
}  // namespace

void require_address_space_for_stacks(uint64_t stacks, uint64_t stack_bytes) {
  const uint64_t can_map = address_space_left();
  if (can_map == UINT64_MAX) return;
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t need = stacks * (stack_bytes + page);  // each with its guard page
  if (need <= can_map) return;
  raise("config", "the kernel stacks of {} cores need {} of address space ({} each, core.scalar.stack_size), but "
        "this process may map only {} more (its limit, ulimit -v, is {}): lower core.scalar.stack_size or "
        "platform.cores", stacks, host_bytes_text(need), host_bytes_text(stack_bytes), host_bytes_text(can_map),
        host_bytes_text(address_space_limit()));
}

// GM is mapped whole and committed page by page as it is touched, so it costs only what a run
// uses -- except under an address-space limit, which counts the whole mapping: a 64 GiB GM
// would make every run fail under `ulimit -v 8G`. Backing a smaller GM keeps the platform
// usable there; an allocation past it is then the usual "GM exhausted" error.
uint64_t gm_size_within_address_space(uint64_t gm_size) {
  const uint64_t left = address_space_left();
  if (left == UINT64_MAX || gm_size <= left / 2) return gm_size;
  constexpr uint64_t kGranule = 2ull << 20, kLeast = 64ull << 20;
  const uint64_t fits = left / 2 / kGranule * kGranule;
  if (fits < kLeast) {
    raise("config", "GM (gm.size {}) cannot be backed: this process may map only {} more (its limit, ulimit -v, is "
          "{}), and GM needs at least {} of it: raise the limit", host_bytes_text(gm_size), host_bytes_text(left),
          host_bytes_text(address_space_limit()), host_bytes_text(kLeast));
  }
  warning("config", "gm.size {} does not fit this process's address-space limit (ulimit -v {}): this run backs a GM "
          "of {}; allocations beyond it fail", host_bytes_text(gm_size), host_bytes_text(address_space_limit()),
          host_bytes_text(fits));
  return fits;
}

}  // namespace npuvp::platform
