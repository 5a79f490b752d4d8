// The host memory a platform's model needs, estimated from its parameters before anything is
// built (issue 29): a configuration that would exhaust the machine is refused up front with
// the parameter that drives the estimate, instead of being ended by the OOM killer.
#pragma once
#include <cstdint>
#include <string>

namespace npuvp::platform {

struct AscendSocShape {  // what the estimate reads of AscendSoc::Params
  unsigned cores = 0;        // every core: AIC, AIV, coupled core, Vector Core
  unsigned l2_slices = 0;
  uint64_t l2_size = 0;
  unsigned l2_line_bytes = 128;
  unsigned dram_controllers = 0;
  bool mesh = false;         // interconnect.topology=mesh (a route table of stops^2 routes)
  unsigned mesh_columns = 0;
};

struct HostMemoryEstimate {
  uint64_t bytes = 0;
  std::string driver;  // the parameter behind the largest term ("platform.cores")
  uint64_t driver_bytes = 0;
};

// Per core: its pipes, queues, counters and stack guard, measured on ascend910b (see
// docs/errors.md); its local buffers are mapped on demand and count only as touched.
inline constexpr uint64_t kHostBytesPerCore = 128 * 1024;
inline constexpr uint64_t kHostBytesBase = 32ull << 20;  // the process and SystemC

HostMemoryEstimate estimate_host_memory(const AscendSocShape& shape);
// sim.host_memory_limit's default: 3/4 of the memory the machine has available now
// (MemAvailable; the physical memory where /proc/meminfo cannot be read).
uint64_t default_host_memory_limit();
// Raises a "config" error naming the driving parameter and the estimate when it exceeds
// `limit` (0: the default).
void require_host_memory(const HostMemoryEstimate& estimate, uint64_t limit);
void require_host_memory_for_model(const AscendSocShape& shape, uint64_t limit);
std::string host_bytes_text(uint64_t bytes);  // "1.5 GiB", "300 MiB"
// Raises a "config" error naming core.scalar.stack_size and platform.cores when `stacks` kernel
// stacks of `stack_bytes` (mapped when the simulation starts) do not fit in the address space
// this process may still map (RLIMIT_AS, `ulimit -v`, less what it has mapped); SystemC would
// otherwise stop with only "stack setup failed". Nothing to check without such a limit.
void require_address_space_for_stacks(uint64_t stacks, uint64_t stack_bytes);
// The address space this process may still map under RLIMIT_AS (`ulimit -v`), less what it
// has mapped already; UINT64_MAX without such a limit.
uint64_t address_space_left();
// The GM size to back under that limit: `gm_size` when it fits in half of what is left (the
// rest is for stacks, local buffers and the heap), else that half rounded down to 2 MiB, with
// a warning naming gm.size and the limit. A "config" error when not even 64 MiB fits.
uint64_t gm_size_within_address_space(uint64_t gm_size);

}  // namespace npuvp::platform
