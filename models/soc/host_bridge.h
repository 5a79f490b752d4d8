// The PCIe host bridge (SPEC.md §1.3 "PCIe host interface"): the DMA engine that moves
// host<->device copies. It is a requester on the SoC's ring like an AI Core, so a copy's
// device side pays ring, L2 and DRAM time and contends with whatever else uses them; its host
// side crosses a PCIe link, one bandwidth resource per direction, plus a fixed latency.
//
// A copy is cut into bursts of at most `max_payload_bytes` (the PCIe max payload: one TLP).
// Host to device: each burst crosses the link (bursts serialise on it), arrives a latency
// later, and is written into GM over the ring. Device to host: each burst is read from GM over
// the ring, then crosses the link; the last byte reaches the host a latency after it leaves.
// The copy completes with its last burst. Bursts are pipelined: writes stream behind the link,
// and reads run up to `outstanding_reads` bursts ahead of it, so ring and memory latency stay
// hidden and a large copy takes bytes / bandwidth + latency.
//
// Host to device, the bursts of a large copy are grouped (`h2d_chunk_bytes`, speed): a chunk
// books the link once for the sum of its bursts' times (the link serves only this direction's
// copies, one at a time, so that ends where its last burst would) and goes into GM as one
// ring write (a span-list transaction: one share per L2 slice) once its last burst has
// arrived. Every line is still looked up in the L2 in address order, so the cache holds the
// same lines after the copy; the last chunk goes burst by burst, so while the ring keeps up
// (it does by far at the defaults) the copy ends when the per-burst model's does.
//
// Copies run from the host between kernel launches: `copy` starts the bridge's thread and
// runs the simulation until the copy has completed, so simulated time advances by the DMA.
#pragma once
#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include "tlm/bandwidth.h"
#include "tlm/extensions.h"
#include "tlm/host_window.h"
#include "tlm/stats.h"

namespace npuvp::soc {

class HostBridge : public sc_core::sc_module {
 public:
  struct Params {
    double gbps = 32;                    // payload GB/s (10^9 B/s) per direction: PCIe 4.0 x16
    double latency_ns = 1000;            // first byte, host memory to GM (or back)
    uint32_t max_payload_bytes = 256;    // one TLP's payload; a burst on the ring
    uint32_t outstanding_reads = 32;     // device to host: reads in flight ahead of the link
    double quantum_ns = 1000;            // how far the DMA thread books ahead of simulated time
    // Host to device: the TLPs of this many bytes go over the ring as one write (speed knob;
    // 0 or max_payload_bytes: one write per TLP). The copy's last chunk always goes TLP by TLP.
    uint64_t h2d_chunk_bytes = 64 * 1024;
    double progress_seconds = 3;         // wall time before a copy prints a progress line (sim.*)
  };
  static Params params_from_config();  // the `pcie.*` keys

  enum class Direction { HostToDevice, DeviceToHost };

  // To the ring, as a requester.
  tlm_utils::simple_initiator_socket<HostBridge> ring_socket;

  HostBridge(sc_core::sc_module_name name, const Params& params);

  // The host view of GM: the bytes live there; the ring transactions carry only time (as the
  // cores' do in perf mode), so the data cannot depend on how a target handles payloads.
  void set_gm_window(uint8_t* host_base, uint64_t device_base, uint64_t size);

  // Copies `bytes` between `host` and the GM device address `device`, timed through the ring
  // (timed and perf modes; the data always lands: a host copy is not a kernel's data path).
  // A null `host` times the copy and moves no bytes (a perf-mode host program's data, which
  // no kernel computes on: neither the host nor GM memory is touched).
  // Call it from the host, outside a launch. Returns the simulated time the
  // copy took. Raises, naming the bridge, the copy and the simulated
  // time, if the ring answers with an error (an address outside GM).
  sc_core::sc_time copy(Direction direction, uint64_t device, uint8_t* host, uint64_t bytes);

  // Counts a copy the host made directly (functional mode: data, no time).
  void count_direct_copy(Direction direction, uint64_t bytes);

  const Params& params() const { return params_; }
  double bytes_per_second() const { return params_.gbps * 1e9; }
  uint64_t bytes(Direction d) const { return (d == Direction::HostToDevice ? h2d_bytes_ : d2h_bytes_).value; }
  uint64_t copies() const { return copies_.value; }
  // Simulated time spent copying in direction `d`, summed over copies.
  sc_core::sc_time busy_time(Direction d) const;

 private:
  struct Job {
    Direction direction = Direction::HostToDevice;
    uint64_t device = 0;
    uint64_t bytes = 0;
    uint64_t moved = 0;  // bytes whose bursts are under way (the progress line's)
    bool pending = false;
    bool done = false;
    std::string error;
  };

  void dma_thread();
  void run_job();
  // One burst through the ring; returns when it has completed (absolute time).
  sc_core::sc_time ring_access(tlm::tlm_command command, uint64_t address, uint64_t length,
                               const sc_core::sc_time& start);
  std::string describe(const Job& job) const;

  Params params_;
  HostWindow gm_window_;
  sc_core::sc_time latency_;
  sc_core::sc_time quantum_;
  BandwidthResource link_h2d_, link_d2h_;
  sc_core::sc_event start_;
  Job job_;
  tlm::tlm_generic_payload ring_tx_;  // reused by every ring access (no allocation per burst)
  SpanListExtension chunk_span_;      // a chunk's one span (a span-list write reaches each slice once)
  Counter& h2d_bytes_;
  Counter& d2h_bytes_;
  Counter& copies_;
  Counter& bursts_;
  Counter& h2d_ps_;
  Counter& d2h_ps_;
};

}  // namespace npuvp::soc
