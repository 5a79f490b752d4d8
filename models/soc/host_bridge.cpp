#include "models/soc/host_bridge.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <fmt/format.h>

#include "tlm/config.h"
#include "tlm/extensions.h"
#include "tlm/interrupt.h"
#include "tlm/log.h"
#include "tlm/progress.h"
#include "tlm/sim_time.h"
#include "tlm/tracer.h"

namespace npuvp::soc {

HostBridge::Params HostBridge::params_from_config() {
  Config& c = Config::global();
  Params p;
  p.gbps = c.get_in("pcie.gbps", p.gbps, Config::kGbps, "PCIe payload bandwidth per direction in GB/s (10^9 B/s)");
  p.latency_ns = c.get_in("pcie.latency_ns", p.latency_ns, Config::kLatencyNs,
                          "PCIe DMA latency in ns: first byte from host memory to GM, or back");
  p.max_payload_bytes = c.get_in<uint32_t>("pcie.max_payload_bytes", p.max_payload_bytes, 1u, 1u << 20,
                                           "PCIe max payload (bytes per TLP): the DMA's burst on the ring");
  p.quantum_ns = c.get_in("pcie.quantum_ns", p.quantum_ns, Config::kQuantumNs,
                          "how far the DMA engine books ahead of simulated time (speed knob)");
  p.h2d_chunk_bytes = c.get_in<uint64_t>("pcie.h2d_chunk_bytes", p.h2d_chunk_bytes, 0, uint64_t(1) << 30,
                                         "host to device: bytes of TLPs written into GM as one ring transaction "
                                         "(speed knob; 0: one per TLP)");
  p.outstanding_reads = c.get_in<uint32_t>("pcie.outstanding_reads", p.outstanding_reads, 1u, 65536u,
                                           "device to host: GM reads the DMA engine keeps in flight");
  return p;
}

namespace {
Counter& stat(const std::string& block, const char* what, const char* unit, const char* description) {
  return Stats::global().counter(block + "." + what, unit, description);
}
const char* direction_name(HostBridge::Direction d) {
  return d == HostBridge::Direction::HostToDevice ? "HostToDevice" : "DeviceToHost";
}
}  // namespace

HostBridge::HostBridge(sc_core::sc_module_name name, const Params& params)
    : sc_module(name),
      ring_socket("ring_socket"),
      params_(params),
      latency_(params.latency_ns, sc_core::SC_NS),
      quantum_(params.quantum_ns, sc_core::SC_NS),
      link_h2d_(params.gbps * 1e9),
      link_d2h_(params.gbps * 1e9),
      h2d_bytes_(stat(basename(), "h2d_bytes", "bytes", "host to device bytes copied over PCIe")),
      d2h_bytes_(stat(basename(), "d2h_bytes", "bytes", "device to host bytes copied over PCIe")),
      copies_(stat(basename(), "copies", "copies", "host<->device copies (memcpy calls)")),
      bursts_(stat(basename(), "bursts", "bursts", "PCIe payloads (TLPs) moved over the ring")),
      h2d_ps_(stat(basename(), "h2d_ps", "ps", "simulated time spent on host to device copies")),
      d2h_ps_(stat(basename(), "d2h_ps", "ps", "simulated time spent on device to host copies")) {
  SC_HAS_PROCESS(HostBridge);
  SC_THREAD(dma_thread);
}

void HostBridge::set_gm_window(uint8_t* host_base, uint64_t device_base, uint64_t size) {
  gm_window_ = HostWindow{host_base, device_base, size};
}

sc_core::sc_time HostBridge::busy_time(Direction d) const {
  return sc_core::sc_time(double((d == Direction::HostToDevice ? h2d_ps_ : d2h_ps_).value), sc_core::SC_PS);
}

std::string HostBridge::describe(const Job& job) const {
  return fmt::format("memcpy {} of {} bytes, GM 0x{:x}", direction_name(job.direction), job.bytes, job.device);
}

sc_core::sc_time HostBridge::copy(Direction direction, uint64_t device, uint8_t* host, uint64_t bytes) {
  job_ = Job{direction, device, bytes, 0, true, false, {}};
  // The host drives the simulation to run a copy, which it cannot do from inside it.
  if (sc_core::sc_get_current_process_handle().valid()) {
    raise(name(), "{}: host copies run between launches, not from a kernel or another SystemC process",
          describe(job_));
  }
  if (!gm_window_.contains(device, bytes)) {
    raise(name(), "{}: the device range is outside GM [0x{:x}, 0x{:x})", describe(job_), gm_window_.base,
          gm_window_.base + gm_window_.size);
  }
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  if (bytes > 0) {
    start_.notify(sc_core::SC_ZERO_TIME);
    // Run until the copy is done: the DMA thread pauses the simulation at its last byte, so
    // time stops there even if some other process has an event pending later.
    const sc_core::sc_time slice(100, sc_core::SC_US);
    ProgressLine progress(params_.progress_seconds);
    auto state = [&] { return fmt::format("{}: {}, {:.0f}% done", basename(), describe(job_), 100.0 * job_.moved / bytes); };
    while (!job_.done) {
      run_slice(slice);
      stop_if_interrupted(name());
      if (!job_.done && !sc_core::sc_pending_activity()) {
        raise(name(), "{}: the DMA stalled (internal error)", describe(job_));
      }
      progress.update(state);
    }
    progress.finish(state);
  }
  job_.pending = false;
  if (!job_.error.empty()) raise(name(), "{}: {}", describe(job_), job_.error);
  if (host != nullptr) {
    uint8_t* gm = gm_window_.pointer(device, bytes);
    if (direction == Direction::HostToDevice) {
      std::memmove(gm, host, bytes);
    } else {
      std::memmove(host, gm, bytes);
    }
  }
  const sc_core::sc_time took = sc_core::sc_time_stamp() - start;
  (direction == Direction::HostToDevice ? h2d_bytes_ : d2h_bytes_) += bytes;
  (direction == Direction::HostToDevice ? h2d_ps_ : d2h_ps_) += static_cast<uint64_t>(std::llround(took.to_seconds() * 1e12));
  ++copies_;
  Tracer& tracer = Tracer::global();
  if (tracer.enabled()) {
    tracer.slice(tracer.track(basename(), direction_name(direction)), "memcpy", start, took,
                 {{"bytes", bytes},
                  {"gm", fmt::format("0x{:x}", device)},
                  {"GB/s", took > sc_core::SC_ZERO_TIME ? double(bytes) / took.to_seconds() / 1e9 : 0.0}});
  }
  return took;
}

void HostBridge::count_direct_copy(Direction direction, uint64_t bytes) {
  (direction == Direction::HostToDevice ? h2d_bytes_ : d2h_bytes_) += bytes;
  ++copies_;
}

void HostBridge::dma_thread() {
  for (;;) {
    wait(start_);
    if (job_.pending && !job_.done) run_job();
    job_.done = true;
    sc_core::sc_pause();  // hand control back to the host at the copy's last byte
  }
}

sc_core::sc_time HostBridge::ring_access(tlm::tlm_command command, uint64_t address, uint64_t length,
                                         const sc_core::sc_time& start) {
  tlm::tlm_generic_payload& tx = ring_tx_;
  InitiatorExtension ext(-1, -1, false);  // not a core; timing only (copy() moves the bytes)
  prepare(tx, command, address, nullptr, static_cast<unsigned>(length));
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  sc_core::sc_time delay = start > now ? start - now : sc_core::SC_ZERO_TIME;
  // More than one TLP (a chunk): one span, so that the ring splits it by L2 slice rather than
  // into a transaction per interleave granule.
  const bool chunk = length > params_.max_payload_bytes;
  if (chunk) {
    chunk_span_.spans.assign(1, AddressSpan{address, length});
    chunk_span_.bounded = true;
    chunk_span_.low = address;
    chunk_span_.high = address + length;
  }
  {
    BorrowedExtension<InitiatorExtension> with_initiator(tx, &ext);
    BorrowedExtension<SpanListExtension> with_span(tx, chunk ? &chunk_span_ : nullptr);
    ring_socket->b_transport(tx, delay);
  }
  if (tx.is_response_error()) {
    job_.error = tx.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE
                     ? fmt::format("burst of {} bytes at 0x{:x} is outside GM (TLM_ADDRESS_ERROR_RESPONSE)", length,
                                   address)
                     : fmt::format("burst at 0x{:x} failed: {}", address, tx.get_response_string());
  }
  return now + delay;
}

void HostBridge::run_job() {
  const Job& j = job_;
  const bool to_device = j.direction == Direction::HostToDevice;
  BandwidthResource& link = to_device ? link_h2d_ : link_d2h_;
  const sc_core::sc_time t0 = sc_core::sc_time_stamp();
  sc_core::sc_time done = t0;
  sc_core::sc_time link_free = t0;   // the bursts cross the link in order
  std::deque<sc_core::sc_time> sent;  // device to host: when the reads in flight leave the link
  const uint64_t payload = params_.max_payload_bytes;
  // Chunks hold whole bursts: a multiple of the payload, at least one.
  const uint64_t chunk = std::max<uint64_t>(params_.h2d_chunk_bytes / payload, 1) * payload;
  for (uint64_t off = 0; off < j.bytes;) {
    // Bursts end on payload boundaries of the device address, as a DMA engine aligns them.
    const uint64_t at = j.device + off;
    auto n = std::min<uint64_t>(j.bytes - off, payload - at % payload);
    sc_core::sc_time finished;
    if (to_device && chunk > payload && j.bytes - off - n > chunk) {
      // A chunk: its bursts (this one and whole payloads after it; the rest of the copy is
      // more than a chunk, so they exist) book the link back to back, their times summed as
      // each burst's would be booked, and the chunk is written once the last has arrived.
      const uint64_t whole = chunk / payload - 1;
      const uint64_t occupancy = link.occupancy_ticks(n) + whole * link.occupancy_ticks(payload);
      n += whole * payload;
      link_free = sc_core::sc_time::from_value(
          link.reserve_occupancy(sc_core::sc_time_stamp().value(), link_free.value(), occupancy));
      finished = ring_access(tlm::TLM_WRITE_COMMAND, at, n, link_free + latency_);
      bursts_ += whole + 1;
    } else if (to_device) {
      link_free = link.reserve(link_free, n);
      finished = ring_access(tlm::TLM_WRITE_COMMAND, at, n, link_free + latency_);
      ++bursts_;
    } else {
      // A read leaves once a tag is free: when the burst `outstanding_reads` earlier has
      // crossed the link. The data crosses the link in address order.
      const sc_core::sc_time issue = sent.size() < params_.outstanding_reads ? t0 : sent.front();
      if (sent.size() == params_.outstanding_reads) sent.pop_front();
      const sc_core::sc_time read = ring_access(tlm::TLM_READ_COMMAND, at, n, issue);
      ++bursts_;
      link_free = link.reserve(std::max(read, link_free), n);
      sent.push_back(link_free);
      finished = link_free + latency_;
    }
    if (!job_.error.empty()) return;
    done = std::max(done, finished);
    off += n;
    job_.moved = off;
    // Keep the bookings within a quantum of simulated time (bounds what the ring and memory
    // must hold in their time lines), never passing the time the next burst starts at (a read
    // issued in the past would start late and leave a gap on the link).
    const sc_core::sc_time next_start = to_device || sent.size() < params_.outstanding_reads ? link_free : sent.front();
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (next_start > now + quantum_) wait(next_start - now);
  }
  if (done > sc_core::sc_time_stamp()) wait(done - sc_core::sc_time_stamp());
}

}  // namespace npuvp::soc
