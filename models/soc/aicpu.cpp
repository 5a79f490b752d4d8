#include "models/soc/aicpu.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <fmt/format.h>

#include "tlm/config.h"
#include "tlm/extensions.h"
#include "tlm/interrupt.h"
#include "tlm/log.h"
#include "tlm/sim_time.h"
#include "tlm/tracer.h"

namespace npuvp::soc {

const char* aicpu_op_class_name(AicpuOpClass c) {
  switch (c) {
    case AicpuOpClass::Compare: return "compare";
    case AicpuOpClass::Arithmetic: return "arithmetic";
    case AicpuOpClass::Transcendental: return "transcendental";
    case AicpuOpClass::Branchy: return "branchy";
    case AicpuOpClass::kCount: break;
  }
  return "?";
}

// --- Registry ------------------------------------------------------------------------------

void register_builtin_aicpu_kernels(AicpuRegistry& registry);  // aicpu_kernels.cpp

AicpuRegistry& AicpuRegistry::global() {
  // Never destroyed; the built-in kernels are added on first use (not by static registrars,
  // which a static library's link would drop).
  static AicpuRegistry* r = [] {
    auto* registry = new AicpuRegistry;
    register_builtin_aicpu_kernels(*registry);
    return registry;
  }();
  return *r;
}

void AicpuRegistry::add(Entry entry) {
  if (find(entry.name)) raise("aicpu", "AI CPU kernel '{}' is registered twice", entry.name);
  entries_.push_back(std::move(entry));
}

const AicpuRegistry::Entry* AicpuRegistry::find(const std::string& name) const {
  for (const auto& e : entries_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

std::vector<std::string> AicpuRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& e : entries_) out.push_back(e.name);
  return out;
}

// --- Context -------------------------------------------------------------------------------

AicpuContext::AicpuContext(const std::string& kernel, uint32_t block, uint32_t blocks, const AicpuArgs& args,
                           HostWindow gm, bool data)
    : kernel_(kernel), block_(block), blocks_(blocks), args_(args), gm_(gm), data_(data) {}

void AicpuContext::fail(const std::string& what) const {
  raise("aicpu", "kernel '{}' block {} at {}: {}", kernel_, block_, sc_core::sc_time_stamp().to_string(), what);
}

void* AicpuContext::touch(uint64_t address, uint64_t bytes, bool write) {
  uint8_t* p = gm_.pointer(address, bytes);
  if (p == nullptr) {
    fail(fmt::format("{} of {} bytes at 0x{:x} is outside GM [0x{:x}, 0x{:x})", write ? "write" : "read", bytes,
                     address, gm_.base, gm_.base + gm_.size));
  }
  if (bytes > 0) accesses_.push_back({address, bytes, write});
  return p;
}

// --- The cluster ---------------------------------------------------------------------------

struct AiCpu::Core {
  std::unique_ptr<memory::CacheTags> l1, l2;
  struct Step {
    uint64_t line = 0;  // line address
    bool write = false;
    double cycles = 0;  // compute charged before this access
  };
  std::vector<Step> steps;
  double tail_cycles = 0;  // compute after the last access
  struct Span { uint32_t block; size_t first_step; };
  std::vector<Span> blocks;  // where each block's steps start (for the trace)
};

struct AiCpu::Job {
  std::string kernel;
  bool pending = false, done = false;
  Report report;
};

AiCpu::Params AiCpu::params_from_config() {
  Config& c = Config::global();
  Params p;
  p.cores = c.get_in<unsigned>("aicpu.cores", p.cores, 1u, 256u, "integrated Arm cores (control CPUs + AI CPUs)");
  p.control_cores = c.get_in<unsigned>("aicpu.control_cores", p.control_cores, 0u, 255u,
                                       "of aicpu.cores, those running control software (the rest run AI CPU kernels)");
  if (p.control_cores >= p.cores) {
    raise("config", "aicpu.control_cores ({}) must leave at least one of aicpu.cores ({}) for AI CPU kernels",
          p.control_cores, p.cores);
  }
  p.clock_mhz = c.get_in("aicpu.clock_mhz", p.clock_mhz, Config::kClockMhz, "AI CPU clock in MHz");
  p.line_bytes = c.get_in<uint32_t>("aicpu.line_bytes", p.line_bytes, 16u, 4096u, "AI CPU cache line in bytes");
  p.l1_size = c.get_in<uint64_t>("aicpu.l1.size", p.l1_size, 1024, uint64_t(1) << 30, "private L1 data cache per core");
  p.l1_ways = c.get_in<uint32_t>("aicpu.l1.ways", p.l1_ways, 1u, 64u, "L1 associativity");
  p.l1_hit_cycles = c.get_in<uint32_t>("aicpu.l1.hit_cycles", p.l1_hit_cycles, 0u, 10000u, "L1 hit, cycles per line");
  p.l2_size = c.get_in<uint64_t>("aicpu.l2.size", p.l2_size, 1024, uint64_t(1) << 30, "private L2 per core");
  p.l2_ways = c.get_in<uint32_t>("aicpu.l2.ways", p.l2_ways, 1u, 64u, "L2 associativity");
  p.l2_hit_cycles = c.get_in<uint32_t>("aicpu.l2.hit_cycles", p.l2_hit_cycles, 0u, 10000u, "L2 hit, cycles per line");
  p.l3_size = c.get_in<uint64_t>("aicpu.l3.size", p.l3_size, 1024, uint64_t(1) << 32, "L3 shared by all Arm cores");
  p.l3_ways = c.get_in<uint32_t>("aicpu.l3.ways", p.l3_ways, 1u, 64u, "L3 associativity");
  p.l3_hit_cycles = c.get_in<uint32_t>("aicpu.l3.hit_cycles", p.l3_hit_cycles, 0u, 10000u, "L3 hit, cycles per line");
  p.outstanding_misses = c.get_in<uint32_t>("aicpu.outstanding_misses", p.outstanding_misses, 1u, 1024u,
                                            "L3 line fills one core keeps in flight");
  p.launch_overhead_us = c.get_in("aicpu.launch_overhead_us", p.launch_overhead_us, 0.0, 1e6,
                                  "time from a launch to the first block running on an AI CPU, in us");
  static const char* keys[] = {"aicpu.cycles.compare", "aicpu.cycles.arithmetic", "aicpu.cycles.transcendental",
                               "aicpu.cycles.branchy"};
  for (size_t i = 0; i < size_t(AicpuOpClass::kCount); ++i) {
    p.cycles_per_element[i] = c.get_in(keys[i], p.cycles_per_element[i], 0.0, 1e6,
                                       fmt::format("AI CPU cycles per element of {} work",
                                                   aicpu_op_class_name(AicpuOpClass(i))));
  }
  p.copy_cycles_per_byte = c.get_in("aicpu.cycles.per_byte", p.copy_cycles_per_byte, 0.0, 1e6,
                                    "AI CPU cycles per byte a kernel reads or writes (load/store issue)");
  p.quantum_ns = c.get_in("aicpu.quantum_ns", p.quantum_ns, Config::kQuantumNs,
                          "how far the AI CPU books ahead of simulated time (speed knob)");
  return p;
}

namespace {
namespace aicpu_cpp {  // named after the file: unity batches share anonymous namespaces
Counter& stat(const std::string& block, const char* what, const char* unit, const char* description) {
  return Stats::global().counter(block + "." + what, unit, description);
}
}  // namespace aicpu_cpp
}  // namespace

AiCpu::AiCpu(sc_core::sc_module_name name, const Params& params)
    : sc_module(name),
      params_(params),
      cycle_(1e6 / params.clock_mhz, sc_core::SC_PS),
      job_(std::make_unique<Job>()),
      launches_(aicpu_cpp::stat(basename(), "launches", "kernels", "AI CPU kernels run")),
      busy_ps_(aicpu_cpp::stat(basename(), "busy_ps", "ps", "simulated time AI CPU kernels took")),
      fills_(aicpu_cpp::stat(basename(), "line_fills", "lines", "L3 misses filled over the ring")) {
  for (unsigned i = 0; i < ai_cores(); ++i) {
    auto core = std::make_unique<Core>();
    const std::string n = fmt::format("{}.core{}", basename(), i);
    core->l1 = std::make_unique<memory::CacheTags>(
        memory::CacheTags::Geometry{params_.l1_size, params_.line_bytes, params_.l1_ways, 1, 1}, (n + ".l1").c_str());
    core->l2 = std::make_unique<memory::CacheTags>(
        memory::CacheTags::Geometry{params_.l2_size, params_.line_bytes, params_.l2_ways, 1, 1}, (n + ".l2").c_str());
    cores_.push_back(std::move(core));
    ring_sockets_.push_back(
        std::make_unique<tlm_utils::simple_initiator_socket<AiCpu>>(fmt::format("ring_socket{}", i).c_str()));
  }
  l3_ = std::make_unique<memory::CacheTags>(
      memory::CacheTags::Geometry{params_.l3_size, params_.line_bytes, params_.l3_ways, 1, 1},
      fmt::format("{}.l3", basename()).c_str());
  SC_HAS_PROCESS(AiCpu);
  SC_THREAD(thread);
}

AiCpu::~AiCpu() = default;

void AiCpu::set_gm_window(uint8_t* host_base, uint64_t device_base, uint64_t size) {
  gm_window_ = HostWindow{host_base, device_base, size};
}

AiCpu::Report AiCpu::run(const std::string& name, const AicpuArgs& args, uint32_t blocks) {
  const AicpuRegistry::Entry* entry = AicpuRegistry::global().find(name);
  if (!entry) {
    std::string known;
    for (const auto& n : AicpuRegistry::global().names()) known += " " + n;
    raise(this->name(), "no AI CPU kernel named '{}' (registered:{})", name, known);
  }
  if (sc_core::sc_get_current_process_handle().valid()) {
    raise(this->name(), "AI CPU kernel '{}' launched from inside the simulation: the host launches kernels", name);
  }
  if (blocks == 0) blocks = entry->blocks ? entry->blocks(args) : 1;
  if (blocks < 1 || blocks > 65535) raise(this->name(), "AI CPU kernel '{}': {} blocks is outside [1, 65535]", name, blocks);
  // The body runs natively first (its data is the result); its recorded traffic and charges
  // are then timed on the cores.
  for (auto& core : cores_) {
    core->steps.clear();
    core->blocks.clear();
    core->tail_cycles = 0;
  }
  Report report;
  report.kernel = name;
  report.blocks = blocks;
  const uint64_t line = params_.line_bytes;
  for (uint32_t b = 0; b < blocks; ++b) {
    AicpuContext ctx(name, b, blocks, args, gm_window_, params_.data);
    entry->body(ctx);
    Core& core = *cores_[b % cores_.size()];
    core.blocks.push_back({b, core.steps.size()});
    double compute = 0;
    uint64_t bytes = 0, lines = 0;
    for (size_t c = 0; c < size_t(AicpuOpClass::kCount); ++c) compute += ctx.charged(AicpuOpClass(c)) * params_.cycles_per_element[c];
    for (const auto& a : ctx.accesses()) {
      if (a.write) report.written.push_back(a);
      bytes += a.bytes;
      lines += (a.address + a.bytes - 1) / line - a.address / line + 1;
    }
    compute += double(bytes) * params_.copy_cycles_per_byte;
    report.compute_cycles += compute;
    // The compute is spread evenly over the block's accesses (a streaming kernel).
    const double per_line = lines ? compute / double(lines + 1) : 0;
    for (const auto& a : ctx.accesses()) {
      for (uint64_t l = a.address / line; l <= (a.address + a.bytes - 1) / line; ++l) {
        core.steps.push_back({l * line, a.write, per_line});
      }
    }
    core.tail_cycles += lines ? per_line : compute;
  }
  if (!params_.timed) {  // functional mode: the data, no time
    report.start = sc_core::sc_time_stamp();
    ++launches_;
    return report;
  }
  job_->kernel = name;
  job_->report = report;
  job_->pending = true;
  job_->done = false;
  error_.clear();
  start_.notify(sc_core::SC_ZERO_TIME);
  while (!job_->done) {
    run_slice(sc_core::sc_time(100, sc_core::SC_US));
    stop_if_interrupted(this->name());
    if (!job_->done && !sc_core::sc_pending_activity()) raise(this->name(), "AI CPU kernel '{}' stalled (internal error)", name);
  }
  job_->pending = false;
  if (!error_.empty()) raise(this->name(), "AI CPU kernel '{}': {}", name, error_);
  ++launches_;
  busy_ps_ += static_cast<uint64_t>(std::llround(job_->report.took.to_seconds() * 1e12));
  return job_->report;
}

void AiCpu::thread() {
  for (;;) {
    wait(start_);
    if (job_->pending && !job_->done) time_job();
    job_->done = true;
    sc_core::sc_pause();  // hand control back to the host at the kernel's end
  }
}

sc_core::sc_time AiCpu::fill(size_t core, uint64_t line, bool write, const sc_core::sc_time& at) {
  tlm::tlm_generic_payload tx;
  InitiatorExtension ext(-1, -1, false);  // timing only: the body moved the bytes
  prepare(tx, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, line, nullptr, params_.line_bytes);
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  sc_core::sc_time delay = at > now ? at - now : sc_core::SC_ZERO_TIME;
  {
    BorrowedExtension<InitiatorExtension> with_initiator(tx, &ext);
    (*ring_sockets_[core])->b_transport(tx, delay);
  }
  ++fills_;
  if (tx.is_response_error() && error_.empty()) {
    error_ = fmt::format("line {} at 0x{:x} failed on the ring: {}", write ? "write-back" : "fill", line,
                         tx.get_response_string());
  }
  return now + delay;
}

void AiCpu::time_job() {
  Report& r = job_->report;
  const sc_core::sc_time t0 = sc_core::sc_time_stamp() + sc_core::sc_time(params_.launch_overhead_us, sc_core::SC_US);
  r.start = sc_core::sc_time_stamp();
  const sc_core::sc_time quantum(params_.quantum_ns, sc_core::SC_NS);
  struct Cursor {
    sc_core::sc_time at;
    size_t next = 0;
    std::deque<sc_core::sc_time> in_flight;
    size_t span = 0;
    sc_core::sc_time span_start;
  };
  std::vector<Cursor> cursor(cores_.size(), Cursor{t0, 0, {}, 0, t0});
  Tracer& tracer = Tracer::global();
  auto trace_block = [&](size_t c, size_t span, const sc_core::sc_time& from, const sc_core::sc_time& to) {
    if (!tracer.enabled() || span >= cores_[c]->blocks.size()) return;
    tracer.slice(tracer.track(basename(), fmt::format("aicpu{}", c)), job_->kernel, from, to - from,
                 {{"block", cores_[c]->blocks[span].block}});
  };
  for (;;) {
    // The core furthest behind moves next, so the cores' ring traffic interleaves in time.
    size_t c = cores_.size();
    for (size_t i = 0; i < cores_.size(); ++i) {
      if (cursor[i].next < cores_[i]->steps.size() && (c == cores_.size() || cursor[i].at < cursor[c].at)) c = i;
    }
    if (c == cores_.size()) break;
    Core& core = *cores_[c];
    Cursor& k = cursor[c];
    // A block boundary: the trace's slice for the previous block ends here.
    while (k.span + 1 < core.blocks.size() && core.blocks[k.span + 1].first_step <= k.next) {
      trace_block(c, k.span, k.span_start, k.at);
      ++k.span;
      k.span_start = k.at;
    }
    const Core::Step& s = core.steps[k.next++];
    k.at += cycle_ * s.cycles;
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (k.at > now + quantum) wait(k.at - now - quantum / 2);
    if (core.l1->access(s.line, s.write).hit) {
      ++r.l1_hits;
      k.at += cycle_ * params_.l1_hit_cycles;
      continue;
    }
    if (core.l2->access(s.line, s.write).hit) {
      ++r.l2_hits;
      k.at += cycle_ * params_.l2_hit_cycles;
      continue;
    }
    const memory::CacheTags::Access l3 = l3_->access(s.line, s.write);
    k.at += cycle_ * params_.l3_hit_cycles;
    if (l3.hit) {
      ++r.l3_hits;
      continue;
    }
    // A line fill (and the write-back of a dirty victim) over the ring; up to
    // outstanding_misses of them overlap.
    if (k.in_flight.size() >= params_.outstanding_misses) {
      k.at = std::max(k.at, k.in_flight.front());
      k.in_flight.pop_front();
    }
    if (l3.evicted_dirty) {
      fill(c, l3.victim_line, true, k.at);
      ++r.writebacks;
    }
    k.in_flight.push_back(fill(c, s.line, false, k.at));
    ++r.line_fills;
  }
  sc_core::sc_time end = t0;
  for (size_t c = 0; c < cores_.size(); ++c) {
    Cursor& k = cursor[c];
    for (const auto& t : k.in_flight) k.at = std::max(k.at, t);
    k.at += cycle_ * cores_[c]->tail_cycles;
    if (!cores_[c]->blocks.empty()) {
      while (k.span + 1 < cores_[c]->blocks.size()) {  // blocks with no accesses
        trace_block(c, k.span, k.span_start, k.at);
        ++k.span;
        k.span_start = k.at;
      }
      trace_block(c, k.span, k.span_start, k.at);
    }
    end = std::max(end, k.at);
  }
  if (end > sc_core::sc_time_stamp()) wait(end - sc_core::sc_time_stamp());
  r.took = sc_core::sc_time_stamp() - r.start;
}

}  // namespace npuvp::soc
