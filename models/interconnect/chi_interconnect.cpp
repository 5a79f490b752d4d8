#include "models/interconnect/chi_interconnect.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "models/interconnect/address_hash.h"
#include "tlm/log.h"

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
}

unsigned ChiInterconnect::home_of(uint64_t address) const {
  return hashed_target((address - params_.gm_base) / params_.home_interleave_bytes,
                       static_cast<unsigned>(homes_index_.size()));
}

int ChiInterconnect::target_for(int from, uint64_t address) const {
  if (address < params_.gm_base || address - params_.gm_base >= params_.gm_size) return -1;
  const uint64_t offset = address - params_.gm_base;
  if (requesters_[from].role == Role::Requester && !homes_index_.empty()) {
    return static_cast<int>(homes_index_[home_of(address)]);
  }
  return static_cast<int>(subs_index_[hashed_target(offset / params_.subordinate_interleave_bytes,
                                                    static_cast<unsigned>(subs_index_.size()))]);
}

uint64_t ChiInterconnect::piece_bytes(int from) const {
  return requesters_[from].role == Role::Requester && !homes_index_.empty() ? params_.home_interleave_bytes
                                                                             : params_.subordinate_interleave_bytes;
}

sc_core::sc_time ChiInterconnect::traverse(const std::vector<unsigned>& route, Channel channel, uint64_t bytes,
                                           sc_core::sc_time start) {
  (channel == kRequest ? request_bytes_ : data_bytes_) += bytes * route.size();
  if (channel == kRequest) {
    // Requests and acknowledgements are a few bytes: they pay the hops and are counted, but
    // they do not book the links (their share of a link is noise next to the data's, and
    // booking them would double the cost of simulating every transaction).
    for (unsigned link : route) *links_[link * 2 + kRequest].bytes += bytes;
    return sc_core::sc_time::from_value(start.value() + hop_.value() * route.size());
  }
  // Cut-through: the head moves on one hop latency after it wins a link; the tail follows
  // the head by the transfer time of the narrowest link (all links have the same width).
  // Raw SystemC time units: this loop is the hottest of the memory system.
  if (route.empty()) return start;
  const uint64_t now = sc_core::sc_time_stamp().value(), hop_ticks = hop_.value();
  const uint64_t occupancy = links_[route.front() * 2 + channel].resource.occupancy_ticks(bytes);
  uint64_t head = start.value();
  for (unsigned link : route) {
    LinkChannel& lc = links_[link * 2 + channel];
    head = lc.resource.reserve_ticks(now, head, bytes) - occupancy + hop_ticks;
    *lc.bytes += bytes;
  }
  return sc_core::sc_time::from_value(head + occupancy);
}

void ChiInterconnect::forward(int from, int target, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const sc_core::sc_time start = now + delay;
  const unsigned a = requesters_[from].stop, b = targets_[target].stop;
  const uint64_t length = tx.get_data_length();
  const bool write = tx.is_write();
  const std::vector<unsigned>& out = topology_->route(a, b);
  const std::vector<unsigned>& back = topology_->route(b, a);
  // Data streams: the target starts on a write's data when its head arrives and the
  // requester's link carries read data while the target is still producing it, so a long
  // transfer costs its slowest stage, not the sum of the stages.
  auto minus = [](const sc_core::sc_time& t, const sc_core::sc_time& x) { return t > x ? t - x : sc_core::SC_ZERO_TIME; };
  const sc_core::sc_time stream = out.empty() ? sc_core::SC_ZERO_TIME : links_[out.front() * 2 + kData].resource.occupancy(length);
  // Out: the request; a write's data travels with it on the data channel.
  sc_core::sc_time arrival = traverse(out, kRequest, params_.request_bytes, start);
  sc_core::sc_time data_tail = arrival;
  if (write) {
    data_tail = traverse(out, kData, length, start);
    arrival = std::max(arrival, minus(data_tail, stream));
  }
  sc_core::sc_time d = arrival - now;
  initiator_socket[target]->b_transport(tx, d);
  if (tx.is_response_error()) return;
  // Back: the write acknowledgement once every byte is in, or the read data.
  const sc_core::sc_time served = std::max(now + d, data_tail);
  const sc_core::sc_time done = write ? traverse(back, kRequest, params_.request_bytes, served)
                                      : traverse(back, kData, length, std::max(arrival, minus(served, stream)));
  delay = done - now;
  Node& n = requesters_[from];
  *n.latency_cycles += static_cast<uint64_t>(std::llround((done - start) / cycle_));
  ++*n.transactions;
}

void ChiInterconnect::b_transport_spans(int from, tlm::tlm_generic_payload& tx, const SpanListExtension& list,
                                        sc_core::sc_time& delay) {
  if (span_scratch_.size() <= span_depth_) span_scratch_.resize(span_depth_ + 1);
  std::vector<SpanListExtension>& by_target = span_scratch_[span_depth_];
  by_target.resize(targets_.size());
  for (SpanListExtension& t : by_target) t.spans.clear();
  const uint64_t granule = piece_bytes(from);
  for (const AddressSpan& s : list.spans) {
    if (s.length == 0) continue;
    if (target_for(from, s.address) < 0 || target_for(from, s.address + s.length - 1) < 0) {
      tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    for (uint64_t at = s.address, end = s.address + s.length; at < end;) {
      const uint64_t n = std::min(end, (at / granule + 1) * granule) - at;
      by_target[static_cast<unsigned>(target_for(from, at))].add(at, n);
      at += n;
    }
  }
  ++span_depth_;
  sc_core::sc_time done = delay;
  tlm::tlm_generic_payload piece;
  InitiatorExtension* who = nullptr;
  tx.get_extension(who);
  InitiatorExtension initiator = who ? *who : InitiatorExtension();
  initiator.moves_data = false;
  piece.set_command(tx.get_command());
  piece.set_data_ptr(nullptr);
  piece.set_byte_enable_ptr(nullptr);
  piece.set_extension(&initiator);
  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  for (unsigned t = 0; t < by_target.size() && status == tlm::TLM_OK_RESPONSE; ++t) {
    SpanListExtension& share = by_target[t];
    if (share.spans.empty()) continue;
    uint64_t bytes = 0;
    for (const AddressSpan& s : share.spans) bytes += s.length;
    piece.set_address(share.spans.front().address);
    piece.set_data_length(static_cast<unsigned>(bytes));
    piece.set_streaming_width(static_cast<unsigned>(bytes));
    piece.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    if (share.spans.size() > 1) piece.set_extension(&share);
    sc_core::sc_time d = delay;
    forward(from, static_cast<int>(t), piece, d);
    if (share.spans.size() > 1) piece.clear_extension(&share);
    if (piece.is_response_error()) status = piece.get_response_status();
    done = std::max(done, d);
  }
  piece.clear_extension(&initiator);
  --span_depth_;
  tx.set_response_status(status);
  delay = done;
}

void ChiInterconnect::b_transport(int from, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  const SpanListExtension* list = nullptr;
  tx.get_extension(list);
  if (list) {
    b_transport_spans(from, tx, *list, delay);
    return;
  }
  const uint64_t address = tx.get_address(), length = tx.get_data_length();
  if (target_for(from, address) < 0 || (length > 0 && target_for(from, address + length - 1) < 0)) {
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
    piece.set_address(at);
    piece.set_data_ptr(tx.get_data_ptr() ? tx.get_data_ptr() + (at - address) : nullptr);
    piece.set_data_length(static_cast<unsigned>(n));
    piece.set_streaming_width(static_cast<unsigned>(n));
    piece.set_byte_enable_ptr(nullptr);
    piece.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
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

double ChiInterconnect::max_link_utilisation(const sc_core::sc_time& elapsed, std::string* which) const {
  double best = 0;
  if (elapsed == sc_core::SC_ZERO_TIME) return 0;
  for (unsigned i = 0; i < links_.size(); ++i) {
    const double u = links_[i].resource.busy_time() / elapsed;
    if (u > best) {
      best = u;
      if (which) *which = fmt::format("{} {}", topology_->link_name(i / 2), i % 2 == kRequest ? "request" : "data");
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
