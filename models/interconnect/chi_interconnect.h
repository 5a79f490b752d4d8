// The SoC's CHI-style on-chip network (SPEC.md §1.3): request nodes (AI Cores, the host
// bridge) send GM accesses to home nodes (L2 slices, chosen by address interleave), which
// send their misses and write-backs to subordinate nodes (memory controllers). Without home
// nodes, requests go straight to the subordinates.
//
// Every node sits at a stop of a ring (or a 2D mesh). A transaction crosses the links of its
// route twice: the request goes out on the request channel (writes carry their data on the
// data channel), the response comes back on the data channel (read data) or the request
// channel (write acknowledgement). Each link direction and channel is a bandwidth resource
// with a per-hop latency, so contention is modelled by reservations under temporal
// decoupling, without a process per flit.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include "models/interconnect/address_hash.h"
#include "models/interconnect/topology.h"
#include "tlm/bandwidth.h"
#include "tlm/extensions.h"
#include "tlm/stats.h"

namespace npuvp::interconnect {

class ChiInterconnect : public sc_core::sc_module {
 public:
  struct Params {
    std::string topology = "ring";  // ring | mesh
    unsigned mesh_columns = 0;      // 0: the smallest square that holds every stop
    double clock_mhz = 1000;
    double link_bytes_per_cycle = 256;  // per link, per direction, per channel
    unsigned hop_cycles = 2;
    unsigned request_bytes = 16;  // a request, a write acknowledgement
    uint64_t gm_base = 0;
    uint64_t gm_size = 0;
    uint64_t home_interleave_bytes = 128;         // consecutive bytes per L2 slice
    uint64_t subordinate_interleave_bytes = 256;  // consecutive bytes per memory controller
  };
  enum class Role { Requester, HomeDownstream };  // what a target-socket binding is

  // Initiators bind here (cores, host bridge, the downstream side of L2 slices) ...
  tlm_utils::multi_passthrough_target_socket<ChiInterconnect> target_socket;
  // ... and targets here (L2 slices first-come, memory controllers), in registration order.
  tlm_utils::multi_passthrough_initiator_socket<ChiInterconnect> initiator_socket;

  ChiInterconnect(sc_core::sc_module_name name, const Params& params);
  ~ChiInterconnect() override;

  // Registration, in the order the sockets are bound; `stop` is where the node sits.
  void add_requester(const std::string& name, unsigned stop, Role role = Role::Requester);
  void add_home(const std::string& name, unsigned stop);
  void add_subordinate(const std::string& name, unsigned stop);
  // Builds the topology over `stops` stops (after every node is registered).
  void finalize(unsigned stops);

  const Topology& topology() const { return *topology_; }
  const Params& params() const { return params_; }
  // Link utilisation over `elapsed` (busy time / elapsed), the most loaded link and channel.
  double max_link_utilisation(const sc_core::sc_time& elapsed, std::string* which = nullptr) const {
    return busiest_channel(link_busy_times(), elapsed, which);
  }
  // Busy time so far of every link channel (link id * 2 + channel), and a channel's name
  // ("3-4 data"): a launch's own utilisation is the difference over the launch.
  std::vector<sc_core::sc_time> link_busy_times() const;
  std::string link_channel_name(unsigned index) const;
  // The utilisation of the most loaded channel of `busy` (busy times by channel, as
  // link_busy_times gives them) over `elapsed`, and its name in `which` (0 and untouched
  // when nothing was busy).
  double busiest_channel(const std::vector<sc_core::sc_time>& busy, const sc_core::sc_time& elapsed,
                         std::string* which = nullptr) const;
  // Publishes per-link utilisation (parts per million of `elapsed`) into the stats.
  void publish_utilisation(const sc_core::sc_time& elapsed);
  unsigned requester_stop(unsigned port) const { return requesters_.at(port).stop; }
  unsigned home_stop(unsigned index) const { return targets_.at(homes_index_.at(index)).stop; }
  unsigned num_homes() const { return static_cast<unsigned>(homes_index_.size()); }
  // The home node (L2 slice) index that serves `address`.
  unsigned home_of(uint64_t address) const;

 private:
  enum Channel { kRequest = 0, kData = 1 };
  struct Node {
    std::string name;
    unsigned stop = 0;
    Role role = Role::Requester;
    Counter* latency_cycles = nullptr;  // requesters: summed round trips
    Counter* transactions = nullptr;
  };
  // Two host cache lines each (a booking reads most of the resource).
  struct alignas(64) LinkChannel {
    BandwidthResource resource;
    uint64_t unflushed_bytes = 0;  // data bytes booked, not yet in `bytes` (flush_link_bytes)
    Counter* bytes = nullptr;
  };
  static_assert(sizeof(LinkChannel) == 128, "a link channel no longer fits two host cache lines");

  void b_transport(int from, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(int from, tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  unsigned transport_dbg(int from, tlm::tlm_generic_payload& tx);
  // The initiator-socket index of the target that serves `address` for requester `from`,
  // or -1 if the address is not GM.
  int target_for(int from, uint64_t address) const;
  bool in_gm(uint64_t address, uint64_t length) const { return within(address, length, params_.gm_base, params_.gm_size); }
  // [address, address + length) lies in [base, base + size) (inline: checked for every span).
  static bool within(uint64_t address, uint64_t length, uint64_t base, uint64_t size) {
    return address >= base && address - base <= size && length <= size - (address - base);
  }
  // The targets `from` reaches (home nodes, or subordinates when it is one or there are none),
  // and the address hash that picks among them.
  bool reaches_homes(int from) const;
  const std::vector<unsigned>& targets_of(int from) const;
  HashLevel hash_level(int from) const;
  // The target that serves interleave granule `granule` (of piece_bytes(from)) for `from`.
  unsigned target_of_granule(int from, uint64_t granule) const;
  uint64_t piece_bytes(int from) const;  // the interleave a transaction from `from` splits at
  // A span-list transaction (tlm/extensions.h): the spans are cut at the interleave and
  // grouped by target, and each target reached gets one transaction with its share.
  void b_transport_spans(int from, tlm::tlm_generic_payload& tx, const SpanListExtension& list,
                         sc_core::sc_time& delay);
  // One transaction to one target.
  void forward(int from, int target, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);

  // What one transaction sends to one target.
  struct Share {
    int target = 0;
    tlm::tlm_generic_payload* tx = nullptr;
    uint64_t bytes = 0;
    uint64_t arrival = 0, data_tail = 0, served = 0;  // SystemC time units
  };
  // The shares of one transaction from `from` starting at `start`: requests (and write data)
  // out, every target served, read data (or acknowledgements) back. Returns when the last
  // share is done, in SystemC time units; a target's error stays in its share's payload.
  uint64_t exchange(int from, std::vector<Share>& shares, uint64_t start, bool write);
  // Appends a share field by field (see add_flow).
  static void add_share(std::vector<Share>& shares, int target, tlm::tlm_generic_payload* tx, uint64_t bytes) {
    Share& s = shares.emplace_back();
    s.target = target;
    s.tx = tx;
    s.bytes = bytes;
  }

  // Bytes moving along a route from `start` (SystemC time units); `arrival` is the result.
  struct Flow {
    Topology::Route links;
    unsigned route = 0;  // its slot in request_bytes_by_route_ (request_slot)
    uint64_t bytes = 0, start = 0, arrival = 0;
  };
  // Appends it field by field: a Flow built apart and copied in is read back as vectors
  // before its scalar stores have landed (a store-forwarding stall on every flow).
  void add_flow(std::vector<Flow>& flows, unsigned from_stop, unsigned to_stop, uint64_t bytes, uint64_t start) const {
    Flow& f = flows.emplace_back();
    f.route = request_slot(from_stop, to_stop);
    f.links = topology_->route(from_stop, to_stop);
    f.bytes = bytes;
    f.start = start;
  }
  // Sends the flows over their links on `channel`. Links that several flows cross are booked
  // once with the flows' sum, so a transaction costs one booking per link it touches.
  void traverse(std::vector<Flow>& flows, Channel channel);

  Params params_;
  sc_core::sc_time cycle_;
  sc_core::sc_time hop_;  // one hop's latency
  std::vector<Node> requesters_;       // by target_socket binding
  std::vector<Node> targets_;          // by initiator_socket binding
  std::vector<unsigned> homes_index_;  // target indices of the home nodes
  std::vector<unsigned> subs_index_;   // target indices of the subordinate nodes
  std::unique_ptr<Topology> topology_;
  std::vector<LinkChannel> links_;  // link id * 2 + channel
  // Request-channel bytes by route (route id), not yet added to the links' counters: a
  // request crosses a dozen links, and one addition per route instead of one per link
  // matters on this path. The data channel's bytes wait in their LinkChannel (next to the
  // resource just booked, where the counter is elsewhere in memory). Stats runs
  // flush_link_bytes before any counter is read.
  // Issue 29: by (stop, target stop, direction), not by every pair of stops: a flow always
  // joins a target (home or subordinate) to another node, and a table of stops^2 routes was
  // the largest part of a 1024-core chip's host memory.
  std::vector<uint64_t> request_bytes_by_route_;
  std::vector<int> target_rank_;           // by stop: its index in target_stops_, or -1
  std::vector<unsigned> target_stops_;     // the stops where targets sit, each once
  unsigned request_slot(unsigned from_stop, unsigned to_stop) const {
    const auto targets = static_cast<unsigned>(target_stops_.size());
    if (target_rank_[to_stop] >= 0) return (from_stop * targets + unsigned(target_rank_[to_stop])) * 2;
    return (to_stop * targets + unsigned(target_rank_[from_stop])) * 2 + 1;  // from a target back
  }
  // What flush_link_bytes has to move: the routes and data links with bytes waiting, each
  // listed once (when its count leaves 0). Stats flushes before every read and every counter
  // registration, and the L2 slices register counters while a run goes: a flush that walked
  // every route and link made a 1024-core run spend a quarter of its time here.
  std::vector<unsigned> pending_routes_;
  std::vector<unsigned> pending_links_;  // link id * 2 + kData
  void flush_link_bytes();
  // Working lists, one set per nesting level (a home node's fills come back through here
  // while its requester's transaction is under way); a deque keeps references on growth.
  struct Scratch {
    std::vector<SpanListExtension> by_target;
    std::deque<tlm::tlm_generic_payload> payloads;
    std::vector<Share> shares;
    std::vector<Flow> flows;
  };
  std::deque<Scratch> scratch_;
  unsigned depth_ = 0;
  // traverse()'s per-link sums (it does not nest).
  struct LinkShare {
    uint64_t bytes = 0, end = 0;
    uint64_t pass_from = 0;  // the earliest a flow's head passes: the booking's end less its occupancy
    uint32_t traversal = 0;  // the traverse() call that last touched the link
    bool booked = false;
  };
  std::vector<LinkShare> link_share_;  // by link id
  uint32_t traversal_ = 0;             // numbers traverse()'s calls over data
  struct FlowOrder {
    uint64_t start = 0;
    unsigned flow = 0;
  };
  std::vector<FlowOrder> order_;  // the flows by start time
  Counter& request_bytes_;
  Counter& data_bytes_;
};

}  // namespace npuvp::interconnect
