#include "platforms/ascend_soc.h"

#include "models/check/sanitizer.h"
#include "models/soc/aicpu.h"
#include "models/soc/dvpp.h"

#include <algorithm>
#include <fmt/format.h>

#include "platforms/host_memory.h"
#include "tlm/config.h"
#include "tlm/interrupt.h"
#include "tlm/log.h"
#include "tlm/progress.h"
#include "tlm/sim_time.h"

namespace npuvp::platform {

AscendSoc::Params AscendSoc::params_from_config() {
  Config& c = Config::global();
  Params p;
  p.name = c.get<std::string>("platform.name", p.name, "platform name");
  const std::string architecture = c.get<std::string>(
      "platform.architecture", "coupled", "coupled (one core drives cube and vector) or separated (AIC + AIVs)");
  if (architecture != "coupled" && architecture != "separated") {
    raise("config", "platform.architecture must be coupled or separated, got '{}'", architecture);
  }
  p.separated = architecture == "separated";
  p.cores = c.get<unsigned>("platform.cores", p.cores, "number of AI Cores");
  p.aiv_per_core = c.get<unsigned>("platform.aiv_per_core", p.aiv_per_core,
                                   "separated: AIVs per AI Core (the AIC:AIV ratio is 1:this)");
  p.vector_cores = c.get<unsigned>("platform.vector_cores", p.vector_cores,
                                   "coupled: Vector Cores (AIV-like) beside the AI Cores, as on 310P");
  p.mode = sim_mode_from_config();
  p.progress_seconds = c.get<double>("sim.progress_seconds", p.progress_seconds,
                                     "wall seconds a launch runs before it prints a progress line to stderr");
  if (p.progress_seconds < 0) raise("config", "sim.progress_seconds must not be negative, got {}", p.progress_seconds);
  // Issue 29 (reliability): a kernel body stuck in host code is ended, not left to hang.
  p.watchdog_seconds = c.get_in("sim.watchdog_seconds", p.watchdog_seconds, 0.0, 1e9,
                                "host seconds a kernel body may run without issuing an instruction or advancing "
                                "simulated time before it is ended as an error (0: no watchdog)");
  aicore::StackGuard::set_watchdog_seconds(p.watchdog_seconds);
  p.host_memory_limit = c.get<uint64_t>("sim.host_memory_limit", p.host_memory_limit,
                                        "host memory a run may take (the model's estimate, a sample's data), in bytes "
                                        "(0: 3/4 of the machine's available memory)");
  p.gm_base = c.get<uint64_t>("gm.base", p.gm_base, "device address of GM");
  p.gm_size = c.get<uint64_t>("gm.size", p.gm_size, "GM capacity in bytes (backed lazily)");
  p.l2_slices = c.get_in<unsigned>("l2.slices", p.l2_slices, 0u, Config::kMaxUnits,
                                   "L2 slices, address-interleaved (0: no L2)");
  p.l2_size = c.get_in<uint64_t>("l2.size", p.l2_size, uint64_t(0), uint64_t(16) << 30,
                                 "L2 capacity in bytes, all slices together");
  p.l2_line_bytes = c.get<unsigned>("l2.line_bytes", p.l2_line_bytes, "L2 line size in bytes (128, 256 or 512)");
  p.l2_ways = c.get_in<unsigned>("l2.ways", p.l2_ways, 1u, Config::kMaxUnits, "L2 associativity");
  p.l2_hit_cycles = c.get_in<unsigned>("l2.hit_cycles", p.l2_hit_cycles, 0u, unsigned(Config::kMaxCycles),
                                       "L2 hit latency in interconnect cycles");
  p.l2_bytes_per_cycle = c.get_in("l2.bytes_per_cycle", p.l2_bytes_per_cycle, Config::kPerCycle,
                                  "data port of one L2 slice, bytes per interconnect cycle");
  p.l2_atomic_bytes_per_cycle = c.get_in("l2.atomic_bytes_per_cycle", p.l2_atomic_bytes_per_cycle, Config::kPerCycle,
                                         "atomic (read-modify-write) unit of one L2 slice, bytes per interconnect cycle");
  p.l2_interleave_bytes = c.get_in<uint64_t>("l2.interleave_bytes", p.l2_interleave_bytes, uint64_t(0),
                                             uint64_t(1) << 30, "consecutive bytes per L2 slice (0: one line)");
  p.dram_controllers = c.get_in<unsigned>("dram.controllers", p.dram_controllers, 1u, Config::kMaxUnits,
                                          "memory controllers (HBM stacks)");
  p.dram_channels = c.get_in<unsigned>("dram.channels", p.dram_channels, 1u, Config::kMaxUnits,
                                       "channels per memory controller");
  p.dram_channel_gbps = c.get_in("dram.channel_gbps", p.dram_channel_gbps, Config::kGbps,
                                 "bandwidth of one channel in GB/s");
  p.dram_latency_ns = c.get_in("dram.latency_ns", p.dram_latency_ns, Config::kLatencyNs, "DRAM access latency in ns");
  p.dram_interleave_bytes = c.get_in<uint64_t>("dram.interleave_bytes", p.dram_interleave_bytes, uint64_t(1),
                                               uint64_t(1) << 30, "consecutive bytes per controller, then per channel");
  auto& n = p.interconnect;
  n.topology = c.get<std::string>("interconnect.topology", n.topology, "ring or mesh");
  n.mesh_columns = c.get_in<unsigned>("interconnect.mesh_columns", n.mesh_columns, 0u, 4096u,
                                      "mesh width in stops (0: square)");
  n.clock_mhz = c.get_in("interconnect.clock_mhz", n.clock_mhz, Config::kClockMhz, "interconnect and L2 clock in MHz");
  n.link_bytes_per_cycle = c.get_in("interconnect.link_bytes_per_cycle", n.link_bytes_per_cycle, Config::kPerCycle,
                                    "width of one link, per direction and channel, in bytes per cycle");
  n.hop_cycles = c.get_in<unsigned>("interconnect.hop_cycles", n.hop_cycles, 0u, unsigned(Config::kMaxCycles),
                                    "latency of one hop in cycles");
  n.request_bytes = c.get_in<unsigned>("interconnect.request_bytes", n.request_bytes, 1u, 65536u,
                                       "size of a request or write acknowledgement in bytes");
  if (p.cores < 1 || p.cores > 1024) raise("config", "platform.cores must be in [1, 1024], got {}", p.cores);
  if (p.separated && (p.aiv_per_core < 1 || p.aiv_per_core > 4)) {
    raise("config", "platform.aiv_per_core must be in [1, 4], got {}", p.aiv_per_core);
  }
  if (p.vector_cores > 1024) raise("config", "platform.vector_cores must be at most 1024, got {}", p.vector_cores);
  if (p.separated && p.vector_cores > 0) raise("config", "platform.vector_cores is for coupled chips; a separated one has AIVs");
  if (p.gm_size == 0) raise("config", "gm.size must be positive");
  p.gm_size = gm_size_within_address_space(p.gm_size);
  if (p.dram_controllers < 1) raise("config", "dram.controllers must be at least 1");
  if (p.l2_slices > 0 && p.l2_size % p.l2_slices != 0) {
    raise("config", "l2.size {} is not divisible by l2.slices {}", p.l2_size, p.l2_slices);
  }
  if (p.l2_line_bytes < 32 || (p.l2_line_bytes & (p.l2_line_bytes - 1)) != 0) {
    raise("config", "l2.line_bytes must be a power of two of at least 32, got {}", p.l2_line_bytes);
  }
  if (p.l2_interleave_bytes == 0) p.l2_interleave_bytes = p.l2_line_bytes;
  if (p.l2_interleave_bytes % p.l2_line_bytes != 0) {
    raise("config", "l2.interleave_bytes {} is not a multiple of l2.line_bytes {}", p.l2_interleave_bytes,
          p.l2_line_bytes);
  }
  // The L2 slices number their lines and runs from address 0, while the ring interleaves
  // from GM's start: a GM starting inside a run would put the run's first lines below GM.
  if (p.l2_slices > 0 && p.gm_base % p.l2_interleave_bytes != 0) {
    raise("config", "gm.base 0x{:x} must be a multiple of l2.interleave_bytes ({})", p.gm_base, p.l2_interleave_bytes);
  }
  if (p.l2_slices > 0 && p.l2_line_bytes > 0 &&
      (p.gm_base + p.gm_size - 1) / p.l2_line_bytes >= memory::CacheTags::kLineLimit) {
    raise("config", "GM up to 0x{:x} (gm.base + gm.size) has more {} B lines than the L2 tags can name (2^31 - 1): "
          "use longer l2.line_bytes or a smaller gm.size", p.gm_base + p.gm_size, p.l2_line_bytes);
  }
  // Legal (a what-if), but rarely meant: a line fill then queues on several channels.
  if (p.l2_slices > 0 && p.dram_interleave_bytes < p.l2_line_bytes) {
    warning("config", "dram.interleave_bytes ({}) is smaller than l2.line_bytes ({}): every line fill is cut over {} "
            "memory channels; a multiple of the line size fills a line from one",
            p.dram_interleave_bytes, p.l2_line_bytes, (p.l2_line_bytes + p.dram_interleave_bytes - 1) / p.dram_interleave_bytes);
  }
  n.gm_base = p.gm_base;
  n.gm_size = p.gm_size;
  n.home_interleave_bytes = p.l2_interleave_bytes;
  n.subordinate_interleave_bytes = p.dram_interleave_bytes;
  return p;
}

namespace {
Memory::Params backing_params(const AscendSoc::Params& p) {
  Memory::Params m;
  m.size = p.gm_size;
  m.latency = sc_core::SC_ZERO_TIME;  // the controllers time every access
  m.bandwidth = 0;
  // GM is filled in large pieces (weights, activations allocated one after another from its
  // start): 2 MiB pages save most of the host's page faults and TLB misses on it.
  m.huge_pages = true;
  return m;
}
}  // namespace

AscendSoc::AscendSoc(sc_core::sc_module_name name)
    : sc_module(name),
      params_(params_from_config()),
      gm_("gm", backing_params(params_)),
      backing_router_("backing") {
  // Issue 29: a configuration whose model would not fit the host is refused before building it.
  AscendSocShape shape;
  shape.cores = params_.separated ? params_.cores * (1 + params_.aiv_per_core) : params_.cores + params_.vector_cores;
  shape.l2_slices = params_.l2_slices;
  shape.l2_size = params_.l2_size;
  shape.l2_line_bytes = params_.l2_line_bytes;
  shape.dram_controllers = params_.dram_controllers;
  shape.mesh = params_.interconnect.topology == "mesh";
  shape.mesh_columns = params_.interconnect.mesh_columns;
  require_host_memory_for_model(shape, params_.host_memory_limit);
  backing_router_.initiator_socket.bind(gm_.socket);
  backing_router_.map("gm", 0, params_.gm_size, 0);
  noc_ = std::make_unique<interconnect::ChiInterconnect>("ring", params_.interconnect);
  build_cores();
  require_address_space_for_stacks(cores_.size(), cores_.front()->params().scalar_stack_size);
  for (unsigned i = 0; i < params_.l2_slices; ++i) {
    memory::L2Slice::Params lp;
    lp.geometry.size = params_.l2_size / params_.l2_slices;
    lp.geometry.line_bytes = params_.l2_line_bytes;
    lp.geometry.ways = params_.l2_ways;
    lp.geometry.slices = params_.l2_slices;
    lp.geometry.interleave_lines = static_cast<uint32_t>(params_.l2_interleave_bytes / params_.l2_line_bytes);
    lp.clock_mhz = params_.interconnect.clock_mhz;
    lp.hit_cycles = params_.l2_hit_cycles;
    lp.bytes_per_cycle = params_.l2_bytes_per_cycle;
    lp.atomic_bytes_per_cycle = params_.l2_atomic_bytes_per_cycle;
    for (const auto& core : cores_) lp.initiator_names.push_back(core->basename());  // aic0, aiv3, core7
    auto slice = std::make_unique<memory::L2Slice>(fmt::format("l2_{}", i).c_str(), lp);
    noc_->initiator_socket.bind(slice->upstream);
    slice->downstream.bind(noc_->target_socket);
    l2_.push_back(std::move(slice));
  }
  for (unsigned i = 0; i < params_.dram_controllers; ++i) {
    memory::MemoryController::Params mp;
    mp.channels = params_.dram_channels;
    mp.channel_gbps = params_.dram_channel_gbps;
    mp.latency_ns = params_.dram_latency_ns;
    mp.base = params_.gm_base;
    mp.interleave_bytes = params_.dram_interleave_bytes;
    mp.controllers = params_.dram_controllers;
    auto mc = std::make_unique<memory::MemoryController>(fmt::format("dram{}", i).c_str(), mp);
    noc_->initiator_socket.bind(mc->upstream);
    mc->downstream.bind(backing_router_.target_socket);
    dram_.push_back(std::move(mc));
  }
  // The PCIe host bridge: a requester on the ring, bound after the L2 slices' downstream ports.
  soc::HostBridge::Params bridge = soc::HostBridge::params_from_config();
  bridge.progress_seconds = params_.progress_seconds;
  host_bridge_ = std::make_unique<soc::HostBridge>("host_bridge", bridge);
  host_bridge_->ring_socket.bind(noc_->target_socket);
  host_bridge_->set_gm_window(gm_.data(), params_.gm_base, params_.gm_size);
  // Issue 28: the AI CPU cluster and the DVPP, requesters bound after the host bridge.
  soc::AiCpu::Params aicpu = soc::AiCpu::params_from_config();
  aicpu.data = params_.mode != SimMode::Perf;
  aicpu.timed = params_.mode != SimMode::Functional;
  aicpu_ = std::make_unique<soc::AiCpu>("aicpu", aicpu);
  for (unsigned i = 0; i < aicpu_->ai_cores(); ++i) aicpu_->ring_socket(i).bind(noc_->target_socket);
  aicpu_->set_gm_window(gm_.data(), params_.gm_base, params_.gm_size);
  scheduler_->set_aicpu(aicpu_.get());  // AI CPU kernels are tasks of the same stream
  soc::Dvpp::Params dvpp = soc::Dvpp::params_from_config();
  dvpp.timed = params_.mode != SimMode::Functional;
  dvpp_ = std::make_unique<soc::Dvpp>("dvpp", dvpp);
  dvpp_->ring_socket.bind(noc_->target_socket);
  place_stops();
}

AscendSoc::~AscendSoc() = default;

void AscendSoc::build_cores() {
  aicore::AiCore::Params core_params = aicore::AiCore::params_from_config();
  if (params_.separated && !aicore::is_a2(core_params.product)) {
    raise("config", "platform.architecture=separated needs a separated product (core.product=ascend910b), got {}",
          aicore::product_name(core_params.product));
  }
  auto add = [&](const std::string& name, aicore::CoreKind kind, int group) {
    core_params.kind = kind;
    const int id = static_cast<int>(cores_.size());
    auto core = std::make_unique<aicore::AiCore>(name.c_str(), id, core_params);
    core->gm_socket.bind(noc_->target_socket);
    core->set_gm_window(gm_.data(), params_.gm_base, params_.gm_size);
    cores_.push_back(std::move(core));
    core_group_.push_back(group);
  };
  std::vector<soc::CrossCoreSync::Seat> seats;
  if (params_.separated) {
    for (unsigned i = 0; i < params_.cores; ++i) {
      add(fmt::format("aic{}", i), aicore::CoreKind::Aic, int(i));
      seats.push_back({cores_.back()->name(), aicore::CoreKind::Aic, int(i), 0});
    }
    for (unsigned j = 0; j < params_.cores * params_.aiv_per_core; ++j) {
      const int group = int(j / params_.aiv_per_core);
      add(fmt::format("aiv{}", j), aicore::CoreKind::Aiv, group);
      seats.push_back({cores_.back()->name(), aicore::CoreKind::Aiv, group, int(j % params_.aiv_per_core)});
    }
    cross_core_ = std::make_unique<soc::CrossCoreSync>(soc::CrossCoreSync::params_from_config(), std::move(seats));
    for (auto& core : cores_) core->set_cross_core_flags(cross_core_.get());
  } else {
    for (unsigned i = 0; i < params_.cores; ++i) add(fmt::format("core{}", i), aicore::CoreKind::Coupled, int(i));
    for (unsigned i = 0; i < params_.vector_cores; ++i) {
      add(fmt::format("vcore{}", i), aicore::CoreKind::Aiv, int(params_.cores + i));
    }
  }
  std::vector<aicore::AiCore*> cores;
  for (auto& core : cores_) cores.push_back(core.get());
  scheduler_ = std::make_unique<soc::TaskScheduler>("task_scheduler", std::move(cores), params_.separated,
                                                    params_.aiv_per_core, cross_core_.get());
}

// Stops around the ring: AI Cores (with their AIVs, side by side) and L2 slices alternate, so
// each AI Core has a slice beside it;
// the memory controllers are spread evenly among them. Registration follows binding order
// (cores, then slices' downstream ports on the target side; slices, then controllers on the
// initiator side).
void AscendSoc::place_stops() {
  struct Stop { char kind; unsigned index; };
  std::vector<Stop> order;
  const unsigned groups = core_group_.empty() ? 0 : unsigned(*std::max_element(core_group_.begin(), core_group_.end())) + 1;
  const unsigned pairs = std::max<unsigned>(groups, params_.l2_slices);
  for (unsigned i = 0; i < pairs; ++i) {
    for (unsigned c = 0; c < cores_.size(); ++c) {
      if (core_group_[c] == int(i)) order.push_back({'c', c});
    }
    if (i < params_.l2_slices) order.push_back({'l', i});
  }
  const unsigned agents = static_cast<unsigned>(order.size());
  for (unsigned m = 0; m < params_.dram_controllers; ++m) {
    const size_t at = size_t(agents) * m / params_.dram_controllers + m;
    order.insert(order.begin() + static_cast<long>(at), Stop{'m', m});
  }
  std::vector<unsigned> core_stop(cores_.size()), l2_stop(params_.l2_slices), mc_stop(params_.dram_controllers);
  for (unsigned s = 0; s < order.size(); ++s) {
    auto& v = order[s].kind == 'c' ? core_stop : order[s].kind == 'l' ? l2_stop : mc_stop;
    v[order[s].index] = s;
  }
  for (unsigned i = 0; i < cores_.size(); ++i) noc_->add_requester(cores_[i]->basename(), core_stop[i]);
  for (unsigned i = 0; i < params_.l2_slices; ++i) {
    noc_->add_requester(fmt::format("l2_{}", i), l2_stop[i], interconnect::ChiInterconnect::Role::HomeDownstream);
  }
  // The host bridge shares memory controller 0's stop (an I/O stop), so adding it changes no
  // other node's route.
  noc_->add_requester("host_bridge", mc_stop[0]);
  // Issue 28: the AI CPU cluster and the DVPP also sit at I/O stops (the last controller's);
  // each AI CPU core is a requester of its own there.
  for (unsigned i = 0; i < aicpu_->ai_cores(); ++i) noc_->add_requester(fmt::format("aicpu{}", i), mc_stop.back());
  noc_->add_requester("dvpp", mc_stop.back());
  for (unsigned i = 0; i < params_.l2_slices; ++i) noc_->add_home(fmt::format("l2_{}", i), l2_stop[i]);
  for (unsigned i = 0; i < params_.dram_controllers; ++i) noc_->add_subordinate(fmt::format("dram{}", i), mc_stop[i]);
  noc_->finalize(static_cast<unsigned>(order.size()));
}

std::string AscendSoc::describe_cores() const {
  if (params_.separated) {
    return fmt::format("{} AI Cores ({} AIC + {} AIV)", params_.cores, params_.cores,
                       params_.cores * params_.aiv_per_core);
  }
  if (params_.vector_cores > 0) return fmt::format("{} AI Cores + {} Vector Cores", params_.cores, params_.vector_cores);
  return fmt::format("{} cores", params_.cores);
}

double AscendSoc::dram_peak_bytes_per_second() const {
  double total = 0;
  for (const auto& mc : dram_) total += mc->peak_bytes_per_second();
  return total;
}

double AscendSoc::peak_flops() const {
  const auto& p = cores_.front()->params();
  unsigned cubes = 0;
  for (const auto& core : cores_) cubes += core->core_kind() != aicore::CoreKind::Aiv;
  return double(cubes) * 4096.0 * p.cube.f16_fractal_steps_per_cycle * 2.0 * p.clock_mhz * 1e6;
}

AscendSoc::LaunchTraffic AscendSoc::traffic_so_far() const {
  LaunchTraffic t;
  for (const auto& mc : dram_) t.dram_bytes += mc->bytes();
  for (const auto& slice : l2_) {
    t.l2_hits += slice->hits();
    t.l2_lookups += slice->hits() + slice->misses();
    t.l2_fills += slice->fills();
  }
  t.link_busy = noc_->link_busy_times();
  return t;
}

sc_core::sc_time AscendSoc::run(aicore::Task& task) {
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  const LaunchTraffic before = traffic_so_far();
  scheduler_->launch(task);
  // Run in slices of simulated time so a long run can report progress; the slices do not
  // change the simulation (sc_start resumes exactly where it stopped). A functional run takes
  // no simulated time, so there the cores pause the scheduler now and then instead
  // (AiCore::issue).
  const sc_core::sc_time slice(100, sc_core::SC_US);
  {
    ProgressLine progress(params_.progress_seconds);
    auto state = [&] {
      return fmt::format("{}: {}/{} blocks done, simulated {:.3f} us", task.name, task.blocks_done, task.block_num,
                         (sc_core::sc_time_stamp() - start).to_seconds() * 1e6);
    };
    while (task.blocks_done < task.block_num) {
      run_slice(slice);
      stop_if_interrupted(name());  // SIGINT/SIGTERM/SIGHUP (tlm/interrupt.h)
      if (!sc_core::sc_pending_activity()) break;  // finished, or deadlocked
      progress.update(state);
    }
    progress.finish(state);
  }
  if (task.blocks_done < task.block_num) {
    scheduler_->mark_deadlock();
    std::string states;
    for (auto& core : cores_) {
      if (core->busy()) states += "\n  " + core->state();
    }
    if (auto* san = check::Sanitizer::active()) san->deadlock(states);
    raise(name(), "deadlock: kernel '{}' stalled with {} of {} blocks finished; nothing can "
          "make progress (a WaitFlag whose SetFlag never comes?):{}",
          task.name, task.blocks_done, task.block_num, states);
  }
  // Link busy times add up over every launch, so utilisation is over all the time so far
  // (as `npuvp run`'s summary reports it): per launch, a second launch read over 100 %.
  noc_->publish_utilisation(sc_core::sc_time_stamp());
  const LaunchTraffic after = traffic_so_far();
  last_launch_ = {after.dram_bytes - before.dram_bytes, after.l2_hits - before.l2_hits,
                  after.l2_lookups - before.l2_lookups, after.link_busy};
  last_launch_.l2_fills = after.l2_fills - before.l2_fills;
  // Every transfer of the launch was booked from its start on, so its DRAM bytes fit in the
  // channels' time up to the last booking's end (issue 29: posted ones outlive the kernel).
  sc_core::sc_time dram_end = sc_core::sc_time_stamp();
  for (const auto& mc : dram_) dram_end = std::max(dram_end, mc->busy_until());
  last_launch_.dram_busy = dram_end - start;
  for (size_t i = 0; i < before.link_busy.size(); ++i) last_launch_.link_busy[i] -= before.link_busy[i];
  return sc_core::sc_time_stamp() - start;
}

}  // namespace npuvp::platform
