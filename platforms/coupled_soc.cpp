#include "platforms/coupled_soc.h"

#include <fmt/format.h>

#include "tlm/config.h"
#include "tlm/log.h"

namespace npuvp::platform {

CoupledSoc::Params CoupledSoc::params_from_config() {
  Config& c = Config::global();
  Params p;
  p.name = c.get<std::string>("platform.name", p.name, "platform name");
  p.cores = c.get<unsigned>("platform.cores", p.cores, "number of AI Cores");
  p.gm_base = c.get<uint64_t>("gm.base", p.gm_base, "device address of GM");
  p.gm_size = c.get<uint64_t>("gm.size", p.gm_size, "GM capacity in bytes (backed lazily)");
  p.gm_latency_ns = c.get<double>("gm.latency_ns", p.gm_latency_ns, "GM access latency in ns");
  p.gm_bandwidth_gbps = c.get<double>("gm.bandwidth_gbps", p.gm_bandwidth_gbps,
                                      "GM bandwidth in GB/s (0 = unlimited)");
  if (p.cores < 1 || p.cores > 1024) raise("config", "platform.cores must be in [1, 1024], got {}", p.cores);
  if (p.gm_size == 0) raise("config", "gm.size must be positive");
  if (p.gm_latency_ns < 0 || p.gm_bandwidth_gbps < 0) {
    raise("config", "gm.latency_ns and gm.bandwidth_gbps must not be negative");
  }
  return p;
}

namespace {
Memory::Params gm_params(const CoupledSoc::Params& p) {
  Memory::Params m;
  m.size = p.gm_size;
  m.latency = sc_core::sc_time(p.gm_latency_ns, sc_core::SC_NS);
  m.bandwidth = p.gm_bandwidth_gbps * 1e9;
  return m;
}
}  // namespace

CoupledSoc::CoupledSoc(sc_core::sc_module_name name)
    : sc_module(name),
      params_(params_from_config()),
      router_("router"),
      gm_("gm", gm_params(params_)) {
  const aicore::AiCore::Params core_params = aicore::AiCore::params_from_config();
  for (unsigned i = 0; i < params_.cores; ++i) {
    auto core = std::make_unique<aicore::AiCore>(fmt::format("core{}", i).c_str(), int(i), core_params);
    core->gm_socket.bind(router_.target_socket);
    core->set_gm_window(gm_.data(), params_.gm_base, params_.gm_size);
    cores_.push_back(std::move(core));
  }
  router_.initiator_socket.bind(gm_.socket);
  router_.map("gm", params_.gm_base, params_.gm_size, 0);
}

sc_core::sc_time CoupledSoc::run(aicore::Task& task) {
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  for (auto& core : cores_) core->start(task);
  sc_core::sc_start();  // returns when nothing is left to do: finished, or deadlocked
  if (task.blocks_done < task.block_num) {
    std::string states;
    for (auto& core : cores_) {
      if (core->busy()) states += "\n  " + core->state();
    }
    raise(name(), "deadlock: kernel '{}' stalled with {} of {} blocks finished; nothing can "
          "make progress (a WaitFlag whose SetFlag never comes?):{}",
          task.name, task.blocks_done, task.block_num, states);
  }
  return sc_core::sc_time_stamp() - start;
}

}  // namespace npuvp::platform
