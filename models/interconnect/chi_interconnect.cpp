#include "models/interconnect/chi_interconnect.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "models/interconnect/address_hash.h"
#include "tlm/log.h"
#include "tlm/sim_time.h"

namespace npuvp::interconnect {

ChiInterconnect::ChiInterconnect(sc_core::sc_module_name name, const Params& params)
    : sc_module(name),
      target_socket("target_socket"),
      initiator_socket("initiator_socket"),
      params_(params),
      cycle_(1e6 / params.clock_mhz, sc_core::SC_PS),
      hop_(cycle_ * double(params.hop_cycles)),
      request_bytes_(Stats::global().counter(std::string(basename()) + ".request_bytes", "bytes",
                                             "request and acknowledgement traffic, summed over links")),
      data_bytes_(Stats::global().counter(std::string(basename()) + ".data_bytes", "bytes",
                                          "data traffic, summed over links")) {
  if (params.clock_mhz <= 0 || params.link_bytes_per_cycle <= 0) {
    raise(this->name(), "clock and link width must be positive");
  }
  if (params.topology != "ring" && params.topology != "mesh") {
    raise(this->name(), "topology '{}' is not ring or mesh", params.topology);
  }
  if (params.home_interleave_bytes == 0 || params.subordinate_interleave_bytes == 0) {
    raise(this->name(), "interleave granules must be positive");
  }
  target_socket.register_b_transport(this, &ChiInterconnect::b_transport);
  target_socket.register_get_direct_mem_ptr(this, &ChiInterconnect::get_direct_mem_ptr);
  target_socket.register_transport_dbg(this, &ChiInterconnect::transport_dbg);
}

ChiInterconnect::~ChiInterconnect() { Stats::global().remove_flush(this); }

void ChiInterconnect::add_requester(const std::string& name, unsigned stop, Role role) {
  Node n{name, stop, role};
  const std::string prefix = std::string(basename()) + "." + name;
  n.latency_cycles = &Stats::global().counter(prefix + ".latency_cycles", "cycles",
                                              "summed round-trip time of this node's transactions");
  n.transactions = &Stats::global().counter(prefix + ".transactions", "transactions");
  requesters_.push_back(n);
}

void ChiInterconnect::add_home(const std::string& name, unsigned stop) {
  homes_index_.push_back(static_cast<unsigned>(targets_.size()));
  targets_.push_back(Node{name, stop});
}

void ChiInterconnect::add_subordinate(const std::string& name, unsigned stop) {
  subs_index_.push_back(static_cast<unsigned>(targets_.size()));
  targets_.push_back(Node{name, stop});
}

void ChiInterconnect::finalize(unsigned stops) {
  for (const auto* nodes : {&requesters_, &targets_}) {
    for (const Node& n : *nodes) {
      if (n.stop >= stops) raise(name(), "node {} sits at stop {}, but there are {} stops", n.name, n.stop, stops);
    }
  }
  if (subs_index_.empty()) raise(name(), "no memory controller is attached");
  if (params_.topology == "ring") {
    topology_ = std::make_unique<Topology>(Topology::ring(stops));
  } else {
    unsigned columns = params_.mesh_columns;
    if (columns == 0) columns = static_cast<unsigned>(std::ceil(std::sqrt(double(stops))));
    topology_ = std::make_unique<Topology>(Topology::mesh(stops, columns));
  }
  links_ = std::vector<LinkChannel>(topology_->links().size() * 2);
  link_share_.assign(topology_->links().size(), LinkShare{});
  const double bytes_per_second = params_.link_bytes_per_cycle * params_.clock_mhz * 1e6;
  for (unsigned l = 0; l < topology_->links().size(); ++l) {
    for (Channel c : {kRequest, kData}) {
      LinkChannel& lc = links_[l * 2 + c];
      lc.resource.set_bandwidth(bytes_per_second);
      lc.bytes = &Stats::global().counter(
          fmt::format("{}.link.{}.{}.bytes", basename(), topology_->link_name(l), c == kRequest ? "request" : "data"),
          "bytes");
    }
  }
  target_rank_.assign(stops, -1);
  target_stops_.clear();
  for (const Node& t : targets_) {
    if (target_rank_[t.stop] < 0) {
      target_rank_[t.stop] = static_cast<int>(target_stops_.size());
      target_stops_.push_back(t.stop);
    }
  }
  request_bytes_by_route_.assign(size_t(stops) * target_stops_.size() * 2, 0);
  Stats::global().add_flush(this, [this] { flush_link_bytes(); });
}

void ChiInterconnect::flush_link_bytes() {
  const auto targets = static_cast<unsigned>(target_stops_.size());
  for (const unsigned slot : pending_routes_) {
    uint64_t& bytes = request_bytes_by_route_[slot];
    const unsigned stop = slot / 2 / targets, target = target_stops_[slot / 2 % targets];
    const Topology::Route route = slot % 2 == 0 ? topology_->route(stop, target) : topology_->route(target, stop);
    for (unsigned link : route) *links_[link * 2 + kRequest].bytes += bytes;
    bytes = 0;
  }
  pending_routes_.clear();
  for (const unsigned at : pending_links_) {
    LinkChannel& lc = links_[at];
    *lc.bytes += lc.unflushed_bytes;
    lc.unflushed_bytes = 0;
  }
  pending_links_.clear();
}

unsigned ChiInterconnect::home_of(uint64_t address) const {
  return hashed_target((address - params_.gm_base) / params_.home_interleave_bytes,
                       static_cast<unsigned>(homes_index_.size()), HashLevel::Home);
}

bool ChiInterconnect::reaches_homes(int from) const {
  return requesters_[from].role == Role::Requester && !homes_index_.empty();
}

const std::vector<unsigned>& ChiInterconnect::targets_of(int from) const {
  return reaches_homes(from) ? homes_index_ : subs_index_;
}

HashLevel ChiInterconnect::hash_level(int from) const {
  return reaches_homes(from) ? HashLevel::Home : HashLevel::Controller;
}

unsigned ChiInterconnect::target_of_granule(int from, uint64_t granule) const {
  const std::vector<unsigned>& index = targets_of(from);
  return index[hashed_target(granule, static_cast<unsigned>(index.size()), hash_level(from))];
}

int ChiInterconnect::target_for(int from, uint64_t address) const {
  if (!in_gm(address, 1)) return -1;
  return static_cast<int>(target_of_granule(from, (address - params_.gm_base) / piece_bytes(from)));
}

uint64_t ChiInterconnect::piece_bytes(int from) const {
  return reaches_homes(from) ? params_.home_interleave_bytes : params_.subordinate_interleave_bytes;
}

void ChiInterconnect::traverse(std::vector<Flow>& flows, Channel channel) {
  const uint64_t hop = hop_.value();
  Counter& total = channel == kRequest ? request_bytes_ : data_bytes_;
  if (channel == kRequest) {
    // Requests and acknowledgements are a few bytes: they pay the hops and are counted, but
    // they do not book the links (their share of a link is noise next to the data's, and
    // booking them would double the cost of simulating every transaction).
    for (Flow& f : flows) {
      uint64_t& waiting = request_bytes_by_route_[f.route];
      if (waiting == 0 && f.bytes != 0) pending_routes_.push_back(f.route);
      waiting += f.bytes;
      total += f.bytes * f.links.size();
      f.arrival = f.start + hop * f.links.size();
    }
    return;
  }
  // A link that several flows cross carries their sum as one booking (their bursts
  // interleave on it), made when the earliest of them reaches it. A link's share belongs to
  // this call once stamped with it; older stamps mean an untouched link, so nothing needs
  // clearing afterwards.
  if (++traversal_ == 0) {  // the stamps wrapped: none may look current
    for (LinkShare& share : link_share_) share.traversal = 0;
    traversal_ = 1;
  }
  for (const Flow& f : flows) {
    for (unsigned link : f.links) {
      LinkShare& share = link_share_[link];
      if (share.traversal != traversal_) share = LinkShare{0, 0, 0, traversal_, false};
      share.bytes += f.bytes;
    }
    total += f.bytes * f.links.size();
  }
  // By start time, ties in order: an insertion sort (a few flows; std::stable_sort would
  // allocate a buffer on every call), on copies of the start times so that it does not
  // reach into the flows.
  order_.resize(flows.size());
  for (unsigned i = 0; i < flows.size(); ++i) {
    const uint64_t start = flows[i].start;
    unsigned at = i;
    for (; at > 0 && order_[at - 1].start > start; --at) order_[at] = order_[at - 1];
    order_[at] = {start, i};
  }
  // Cut-through: a flow's head moves on one hop after it passes a link; its tail leaves the
  // link when the link's booking ends (or its own bytes have passed, if it came late), and
  // only the last link's tail counts.
  // Raw SystemC time units: this loop is the hottest of the memory system.
  const uint64_t now = sim_time().value();
  for (const FlowOrder& o : order_) {
    Flow& f = flows[o.flow];
    if (f.links.empty()) {
      f.arrival = f.start;
      continue;
    }
    uint64_t head = f.start, pass = f.start;
    const LinkShare* share = nullptr;
    for (unsigned link : f.links) {
      LinkShare& s = link_share_[link];
      if (!s.booked) {
        LinkChannel& lc = links_[link * 2 + kData];
        const uint64_t occupancy = lc.resource.occupancy_ticks(s.bytes);
        s.end = lc.resource.reserve_occupancy(now, head, occupancy);
        s.pass_from = s.end > occupancy ? s.end - occupancy : 0;
        s.booked = true;
        if (lc.unflushed_bytes == 0 && s.bytes != 0) pending_links_.push_back(link * 2 + kData);
        lc.unflushed_bytes += s.bytes;
      }
      pass = std::max(head, s.pass_from);
      head = pass + hop;
      share = &s;
    }
    const uint64_t own = links_[kData].resource.occupancy_ticks(f.bytes);  // every link is as wide
    f.arrival = std::max(share->end, pass + own) + hop;
  }
}

uint64_t ChiInterconnect::exchange(int from, std::vector<Share>& shares, uint64_t start, bool write) {
  if (scratch_.size() <= depth_) scratch_.resize(depth_ + 1);
  std::vector<Flow>& flows = scratch_[depth_].flows;
  const uint64_t now = sim_time().value();
  const unsigned a = requesters_[from].stop;
  auto stream = [&](const Share& s) { return links_.empty() ? 0 : links_[kData].resource.occupancy_ticks(s.bytes); };
  auto minus = [](uint64_t t, uint64_t x) { return t > x ? t - x : 0; };
  // Out: the requests; a write's data travels with them on the data channel. Data streams:
  // a target starts on a write's data when its head arrives, and read data leaves while the
  // target is still producing it, so a long transfer costs its slowest stage.
  flows.clear();
  for (const Share& s : shares) {
    add_flow(flows, a, targets_[s.target].stop, params_.request_bytes, start);
  }
  traverse(flows, kRequest);
  for (unsigned i = 0; i < shares.size(); ++i) shares[i].arrival = shares[i].data_tail = flows[i].arrival;
  if (write) {
    for (unsigned i = 0; i < shares.size(); ++i) flows[i].bytes = shares[i].bytes;
    traverse(flows, kData);
    for (unsigned i = 0; i < shares.size(); ++i) {
      shares[i].data_tail = flows[i].arrival;
      shares[i].arrival = std::max(shares[i].arrival, minus(flows[i].arrival, stream(shares[i])));
    }
  }
  ++depth_;  // the targets may come back through here (an L2 slice's fills)
  for (Share& s : shares) {
    sc_core::sc_time d = sc_core::sc_time::from_value(s.arrival - now);
    initiator_socket[s.target]->b_transport(*s.tx, d);
    if (s.tx->is_response_error()) {
      --depth_;
      return 0;
    }
    s.served = std::max<uint64_t>(now + d.value(), s.data_tail);
  }
  --depth_;
  // Back: the write acknowledgements once every byte is in, or the read data.
  flows.clear();
  for (const Share& s : shares) {
    const unsigned b = targets_[s.target].stop;
    if (write) {
      add_flow(flows, b, a, params_.request_bytes, s.served);
    } else {
      add_flow(flows, b, a, s.bytes, std::max(s.arrival, minus(s.served, stream(s))));
    }
  }
  traverse(flows, write ? kRequest : kData);
  uint64_t done = start;
  for (const Flow& f : flows) done = std::max(done, f.arrival);
  Node& n = requesters_[from];
  *n.latency_cycles += static_cast<uint64_t>(std::llround(double(done - start) / double(cycle_.value())));
  ++*n.transactions;
  return done;
}

void ChiInterconnect::forward(int from, int target, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  const uint64_t now = sim_time().value();
  if (scratch_.size() <= depth_) scratch_.resize(depth_ + 1);
  std::vector<Share>& one = scratch_[depth_].shares;  // a plain transaction is never inside b_transport_spans
  one.clear();
  add_share(one, target, &tx, tx.get_data_length());
  const uint64_t done = exchange(from, one, now + delay.value(), tx.is_write());
  if (!tx.is_response_error()) delay = sc_core::sc_time::from_value(done - now);
}

void ChiInterconnect::b_transport_spans(int from, tlm::tlm_generic_payload& tx, const SpanListExtension& list,
                                        sc_core::sc_time& delay) {
  if (scratch_.size() <= depth_) scratch_.resize(depth_ + 1);
  Scratch& scratch = scratch_[depth_];
  std::vector<SpanListExtension>& by_target = scratch.by_target;
  by_target.resize(targets_.size());
  for (SpanListExtension& t : by_target) t.spans.clear();
  const Divisor granule(piece_bytes(from));
  const std::vector<unsigned>& index = targets_of(from);
  const HashedTargets hash(static_cast<unsigned>(index.size()), hash_level(from));  // target_of_granule's
  const uint64_t gm_base = params_.gm_base, gm_size = params_.gm_size;  // in registers, not reloaded per span
  // Spans inside a known range that is GM need no check each.
  const bool all_in_gm = list.bounded && list.high >= list.low && within(list.low, list.high - list.low, gm_base, gm_size);
  SpanListExtension* const targets = by_target.data();  // locals, so the loop keeps them in registers
  const unsigned* const target_index = index.data();
  const uint64_t granule_bytes = granule.value();
  // Returns false at a span outside GM.
  auto split = [&](auto target_of, auto granule_of) {
    for (const AddressSpan& s : list.spans) {
      if (s.length == 0) continue;
      if (!all_in_gm && !within(s.address, s.length, gm_base, gm_size)) return false;
      // Offsets from gm_base; a span (a row, a line) usually lies in one granule.
      const uint64_t from_offset = s.address - gm_base, end_offset = from_offset + s.length;
      uint64_t g = granule_of(from_offset);
      if (g == granule_of(end_offset - 1)) {
        targets[target_index[target_of(g)]].add(s.address, s.length);
        continue;
      }
      for (uint64_t at = from_offset; at < end_offset; ++g) {
        const uint64_t n = std::min(end_offset, (g + 1) * granule_bytes) - at;
        targets[target_index[target_of(g)]].add(gm_base + at, n);
        at += n;
      }
    }
    return true;
  };
  // Power-of-two granules and target counts (every shipped platform) get a loop without the
  // general forms' tests per span.
  const int shift = granule.shift();
  const bool inside = hash.power_of_two() && shift >= 0
                          ? split(HashedTargets::PowerOfTwo(hash), [shift](uint64_t x) { return x >> shift; })
                          : split(hash, [&granule](uint64_t x) { return granule.divide(x); });
  if (!inside) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  // One timing-only payload per target reached, with that target's spans.
  InitiatorExtension* who = nullptr;
  tx.get_extension(who);
  InitiatorExtension initiator = who ? *who : InitiatorExtension();
  initiator.moves_data = false;
  unsigned reached = 0;
  for (const SpanListExtension& share : by_target) reached += share.spans.empty() ? 0 : 1;
  if (scratch.payloads.size() < reached) scratch.payloads.resize(reached);
  scratch.shares.clear();
  for (unsigned t = 0, p = 0; t < by_target.size(); ++t) {
    SpanListExtension& share = by_target[t];
    if (share.spans.empty()) continue;
    const uint64_t bytes = share.bytes();
    tlm::tlm_generic_payload& piece = scratch.payloads[p++];
    prepare(piece, tx.get_command(), share.spans.front().address, nullptr, bytes);
    piece.set_extension(&initiator);
    if (share.spans.size() > 1) piece.set_extension(&share);
    add_share(scratch.shares, static_cast<int>(t), &piece, bytes);
  }
  // The pieces borrow `initiator` and their share lists: both are cleared however this call
  // ends, an error raised downstream included (a payload deletes the extensions it holds).
  std::vector<Share>& shares = scratch.shares;  // nested levels use the next Scratch
  struct ClearBorrowed {
    const std::vector<Share>& shares;
    ~ClearBorrowed() {
      for (const Share& s : shares) {
        s.tx->clear_extension(static_cast<InitiatorExtension*>(nullptr));
        s.tx->clear_extension(static_cast<SpanListExtension*>(nullptr));
      }
    }
  } clear_borrowed{shares};
  const uint64_t now = sim_time().value();
  const uint64_t done = exchange(from, shares, now + delay.value(), tx.is_write());
  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  for (Share& s : shares) {
    // A share the exchange never reached is still incomplete; the reached one's error names why.
    const tlm::tlm_response_status own = s.tx->get_response_status();
    if (own < 0 && status >= 0) status = own;
    if (own == tlm::TLM_INCOMPLETE_RESPONSE && status == tlm::TLM_OK_RESPONSE) status = own;
  }
  tx.set_response_status(status);
  if (status == tlm::TLM_OK_RESPONSE) delay = sc_core::sc_time::from_value(done - now);
}

void ChiInterconnect::b_transport(int from, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  const SpanListExtension* list = nullptr;
  tx.get_extension(list);
  if (list) {
    b_transport_spans(from, tx, *list, delay);
    return;
  }
  const uint64_t address = tx.get_address(), length = tx.get_data_length();
  if (!in_gm(address, std::max<uint64_t>(length, 1))) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  // A transaction that spans several interleave granules becomes one piece per granule,
  // all sent at the same time; it completes with its last piece.
  const uint64_t granule = piece_bytes(from);
  if (address / granule == (address + std::max<uint64_t>(length, 1) - 1) / granule) {
    forward(from, target_for(from, address), tx, delay);
    return;
  }
  sc_core::sc_time done = delay;
  tlm::tlm_generic_payload piece;
  piece.deep_copy_from(tx);  // command and extensions
  for (uint64_t at = address; at < address + length;) {
    const uint64_t n = std::min(address + length, (at / granule + 1) * granule) - at;
    prepare(piece, tx.get_command(), at, tx.get_data_ptr() ? tx.get_data_ptr() + (at - address) : nullptr, n);
    sc_core::sc_time d = delay;
    forward(from, target_for(from, at), piece, d);
    if (piece.is_response_error()) {
      tx.set_response_status(piece.get_response_status());
      piece.free_all_extensions();
      return;
    }
    done = std::max(done, d);
    at += n;
  }
  piece.free_all_extensions();
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  delay = done;
}

bool ChiInterconnect::get_direct_mem_ptr(int from, tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
  const int target = target_for(from, tx.get_address());
  if (target < 0) return false;
  // DMI reaches the memory itself; timing-faithful initiators use it only for data.
  return initiator_socket[target]->get_direct_mem_ptr(tx, dmi);
}

unsigned ChiInterconnect::transport_dbg(int from, tlm::tlm_generic_payload& tx) {
  const int target = target_for(from, tx.get_address());
  if (target < 0) return 0;
  return initiator_socket[target]->transport_dbg(tx);
}

std::string ChiInterconnect::link_channel_name(unsigned index) const {
  return fmt::format("{} {}", topology_->link_name(index / 2), index % 2 == kRequest ? "request" : "data");
}

std::vector<sc_core::sc_time> ChiInterconnect::link_busy_times() const {
  std::vector<sc_core::sc_time> busy;
  busy.reserve(links_.size());
  for (const LinkChannel& lc : links_) busy.push_back(lc.resource.busy_time());
  return busy;
}

double ChiInterconnect::busiest_channel(const std::vector<sc_core::sc_time>& busy, const sc_core::sc_time& elapsed,
                                        std::string* which) const {
  double best = 0;
  if (elapsed == sc_core::SC_ZERO_TIME) return 0;
  for (unsigned i = 0; i < busy.size(); ++i) {
    const double u = busy[i] / elapsed;
    if (u > best) {
      best = u;
      if (which) *which = link_channel_name(i);
    }
  }
  return best;
}

void ChiInterconnect::publish_utilisation(const sc_core::sc_time& elapsed) {
  if (elapsed == sc_core::SC_ZERO_TIME) return;
  for (unsigned i = 0; i < links_.size(); ++i) {
    Stats::global()
        .counter(fmt::format("{}.link.{}.{}.utilisation_ppm", basename(), topology_->link_name(i / 2),
                             i % 2 == kRequest ? "request" : "data"),
                 "ppm", "busy share of the run, parts per million")
        .value = static_cast<uint64_t>(std::llround(1e6 * (links_[i].resource.busy_time() / elapsed)));
  }
}

}  // namespace npuvp::interconnect
