#include "models/soc/dvpp.h"

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

const char* Dvpp::engine_name(Engine e) {
  switch (e) {
    case Engine::Vdec: return "VDEC";
    case Engine::Venc: return "VENC";
    case Engine::Jpegd: return "JPEGD";
    case Engine::Jpege: return "JPEGE";
    case Engine::Pngd: return "PNGD";
    case Engine::Vpc: return "VPC";
    case Engine::kCount: break;
  }
  return "?";
}

Dvpp::Params Dvpp::params_from_config() {
  Config& c = Config::global();
  Params p;
  // Defaults: one channel of an Atlas inference card (310P), docs/soc.md gives the sources;
  // the platform configs set each chip's.
  const double p1080 = 1920.0 * 1080.0 / 1e6;
  p.engine[size_t(Engine::Vdec)] = {240 * p1080, 20};
  p.engine[size_t(Engine::Venc)] = {60 * p1080, 20};
  p.engine[size_t(Engine::Jpegd)] = {128 * p1080, 10};
  p.engine[size_t(Engine::Jpege)] = {64 * p1080, 10};
  p.engine[size_t(Engine::Pngd)] = {24 * p1080, 10};
  p.engine[size_t(Engine::Vpc)] = {500 * p1080, 5};
  static const char* keys[] = {"vdec", "venc", "jpegd", "jpege", "pngd", "vpc"};
  for (size_t e = 0; e < size_t(Engine::kCount); ++e) {
    auto& ep = p.engine[e];
    ep.mpixels_per_second = c.get_in(fmt::format("dvpp.{}.mpixels_per_second", keys[e]), ep.mpixels_per_second,
                                     1e-3, 1e6, fmt::format("{} throughput of one channel, megapixels per second",
                                                            engine_name(Engine(e))));
    ep.overhead_us = c.get_in(fmt::format("dvpp.{}.overhead_us", keys[e]), ep.overhead_us, 0.0, 1e6,
                              fmt::format("{} fixed time per job (set-up, first block), in us", engine_name(Engine(e))));
  }
  p.burst_bytes = c.get_in<uint32_t>("dvpp.burst_bytes", p.burst_bytes, 16u, 1u << 20, "DVPP DMA burst on the ring");
  p.outstanding_reads = c.get_in<uint32_t>("dvpp.outstanding_reads", p.outstanding_reads, 1u, 65536u,
                                           "DVPP DMA reads in flight");
  p.quantum_ns = c.get_in("dvpp.quantum_ns", p.quantum_ns, Config::kQuantumNs,
                          "how far the DVPP DMA books ahead of simulated time (speed knob)");
  return p;
}

Dvpp::Dvpp(sc_core::sc_module_name name, const Params& params)
    : sc_module(name),
      ring_socket("ring_socket"),
      params_(params),
      bytes_read_(Stats::global().counter(std::string(basename()) + ".bytes_read", "bytes", "DVPP DMA bytes read from GM")),
      bytes_written_(Stats::global().counter(std::string(basename()) + ".bytes_written", "bytes",
                                             "DVPP DMA bytes written to GM")) {
  for (size_t e = 0; e < size_t(Engine::kCount); ++e) {
    const std::string prefix = fmt::format("{}.{}.", basename(), engine_name(Engine(e)));
    jobs_.push_back(&Stats::global().counter(prefix + "jobs", "jobs", "DVPP jobs run by the engine"));
    busy_ps_.push_back(&Stats::global().counter(prefix + "busy_ps", "ps", "simulated time of the engine's jobs"));
    pixels_.push_back(&Stats::global().counter(prefix + "pixels", "pixels", "pixels the engine processed"));
  }
  SC_HAS_PROCESS(Dvpp);
  SC_THREAD(thread);
}

sc_core::sc_time Dvpp::busy_time(Engine e) const {
  return sc_core::sc_time(double(busy_ps_[size_t(e)]->value), sc_core::SC_PS);
}
uint64_t Dvpp::jobs(Engine e) const { return jobs_[size_t(e)]->value; }

sc_core::sc_time Dvpp::run(Job job) {
  const std::string where = fmt::format("{}.{}", name(), engine_name(job.engine));
  if (sc_core::sc_get_current_process_handle().valid()) {
    raise(where, "{}: DVPP jobs are issued by the host, not from inside the simulation", job.what);
  }
  if (job.work) job.work();  // the result first; raises with the engine's name on bad input
  if (!params_.timed) {
    ++*jobs_[size_t(job.engine)];
    *pixels_[size_t(job.engine)] += static_cast<uint64_t>(job.pixels);
    return sc_core::SC_ZERO_TIME;
  }
  job_ = std::move(job);
  pending_ = true;
  done_ = false;
  error_.clear();
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  start_.notify(sc_core::SC_ZERO_TIME);
  while (!done_) {
    run_slice(sc_core::sc_time(100, sc_core::SC_US));
    stop_if_interrupted(name());
    if (!done_ && !sc_core::sc_pending_activity()) raise(where, "{}: the job stalled (internal error)", job_.what);
  }
  pending_ = false;
  if (!error_.empty()) raise(where, "{} at {}: {}", job_.what, sc_core::sc_time_stamp().to_string(), error_);
  const sc_core::sc_time took = sc_core::sc_time_stamp() - start;
  const size_t e = size_t(job_.engine);
  ++*jobs_[e];
  *busy_ps_[e] += static_cast<uint64_t>(std::llround(took.to_seconds() * 1e12));
  *pixels_[e] += static_cast<uint64_t>(job_.pixels);
  Tracer& tracer = Tracer::global();
  if (tracer.enabled()) {
    uint64_t in = 0, out = 0;
    for (const auto& r : job_.reads) in += r.bytes;
    for (const auto& r : job_.writes) out += r.bytes;
    tracer.slice(tracer.track(basename(), engine_name(job_.engine)), job_.what, start, took,
                 {{"pixels", job_.pixels}, {"bytes_in", in}, {"bytes_out", out},
                  {"timing_only", !job_.work}});
  }
  return took;
}

void Dvpp::thread() {
  for (;;) {
    wait(start_);
    if (pending_ && !done_) time_job();
    done_ = true;
    sc_core::sc_pause();
  }
}

sc_core::sc_time Dvpp::burst(tlm::tlm_command command, uint64_t address, uint32_t length, const sc_core::sc_time& at) {
  tlm::tlm_generic_payload tx;
  InitiatorExtension ext(-1, -1, false);  // timing only: the work moved the bytes
  prepare(tx, command, address, nullptr, length);
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  sc_core::sc_time delay = at > now ? at - now : sc_core::SC_ZERO_TIME;
  {
    BorrowedExtension<InitiatorExtension> with_initiator(tx, &ext);
    ring_socket->b_transport(tx, delay);
  }
  if (tx.is_response_error() && error_.empty()) {
    error_ = tx.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE
                 ? fmt::format("DMA burst of {} bytes at 0x{:x} is outside GM", length, address)
                 : fmt::format("DMA burst at 0x{:x} failed: {}", address, tx.get_response_string());
  }
  (command == tlm::TLM_READ_COMMAND ? bytes_read_ : bytes_written_) += length;
  return now + delay;
}

void Dvpp::time_job() {
  const EngineParams& ep = params_.engine[size_t(job_.engine)];
  const sc_core::sc_time now0 = sc_core::sc_time_stamp();
  const sc_core::sc_time t0 = now0 + sc_core::sc_time(ep.overhead_us, sc_core::SC_US);
  sc_core::sc_time& engine_free = engine_free_[size_t(job_.engine)];
  const sc_core::sc_time engine_start = std::max(t0, engine_free);
  const sc_core::sc_time engine_time(job_.pixels / (ep.mpixels_per_second * 1e6), sc_core::SC_SEC);
  const sc_core::sc_time quantum(params_.quantum_ns, sc_core::SC_NS);
  sc_core::sc_time end = engine_start + engine_time;
  engine_free = end;
  auto pace = [&](const sc_core::sc_time& at) {  // bound how far ahead the DMA books
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (at > now + quantum) wait(at - now - quantum / 2);
  };
  // Input: bursts from t0, up to outstanding_reads in flight.
  std::deque<sc_core::sc_time> in_flight;
  sc_core::sc_time read_done = t0;
  for (const auto& r : job_.reads) {
    for (uint64_t off = 0; off < r.bytes && error_.empty();) {
      const uint64_t at = r.address + off;
      const auto n = static_cast<uint32_t>(std::min<uint64_t>(r.bytes - off, params_.burst_bytes - at % params_.burst_bytes));
      sc_core::sc_time issue = t0;
      if (in_flight.size() >= params_.outstanding_reads) {
        issue = std::max(issue, in_flight.front());
        in_flight.pop_front();
      }
      pace(issue);
      const sc_core::sc_time done = burst(tlm::TLM_READ_COMMAND, at, n, issue);
      in_flight.push_back(done);
      read_done = std::max(read_done, done);
      off += n;
    }
  }
  // The engine cannot finish before its input has arrived.
  end = std::max(end, read_done);
  // Output: each burst when the engine has produced its share.
  uint64_t out_bytes = 0, written = 0;
  for (const auto& r : job_.writes) out_bytes += r.bytes;
  for (const auto& r : job_.writes) {
    for (uint64_t off = 0; off < r.bytes && error_.empty();) {
      const uint64_t at = r.address + off;
      const auto n = static_cast<uint32_t>(std::min<uint64_t>(r.bytes - off, params_.burst_bytes - at % params_.burst_bytes));
      written += n;
      const sc_core::sc_time ready = engine_start + (end - engine_start) * (double(written) / double(out_bytes));
      pace(ready);
      end = std::max(end, burst(tlm::TLM_WRITE_COMMAND, at, n, ready));
      off += n;
    }
  }
  if (end > sc_core::sc_time_stamp()) wait(end - sc_core::sc_time_stamp());
}

}  // namespace npuvp::soc
