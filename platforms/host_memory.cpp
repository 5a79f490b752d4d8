#include "platforms/host_memory.h"

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
  const HostMemoryEstimate e = estimate_host_memory(shape);
  if (limit == 0) limit = default_host_memory_limit();
  if (e.bytes <= limit) return;
  raise("config", "the platform's model needs about {} of host memory ({} of it for {}), more than the {} it may "
        "take (sim.host_memory_limit; by default 3/4 of this machine's available memory): reduce {}",
        host_bytes_text(e.bytes), host_bytes_text(e.driver_bytes), e.driver, host_bytes_text(limit), e.driver);
}

}  // namespace npuvp::platform
