// Where the stops of an on-chip network sit and which links a message crosses between two
// of them: a bidirectional ring (shortest direction, clockwise on a tie) or a 2D mesh
// (dimension-ordered XY routing). Pure data, no SystemC: the interconnect times the links.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace npuvp::interconnect {

class Topology {
 public:
  struct Link {
    unsigned from, to;  // adjacent stops; every link is one direction
  };
  // The link ids of one route, in order: a view into the topology's table of every route.
  struct Route {
    const unsigned* first = nullptr;
    const unsigned* last = nullptr;
    const unsigned* begin() const { return first; }
    const unsigned* end() const { return last; }
    size_t size() const { return static_cast<size_t>(last - first); }
    bool empty() const { return first == last; }
    unsigned operator[](size_t i) const { return first[i]; }
  };

  // `stops` stops on a ring: link i goes i -> i+1, link stops+i goes i -> i-1.
  static Topology ring(unsigned stops);
  // `stops` stops on a mesh `columns` wide (the last row may be partial); stop s sits at
  // column s % columns, row s / columns.
  static Topology mesh(unsigned stops, unsigned columns);

  const std::string& kind() const { return kind_; }
  unsigned stops() const { return stops_; }
  const std::vector<Link>& links() const { return links_; }
  // Link ids crossed from `from` to `to`, in order (empty when from == to).
  Route route(unsigned from, unsigned to) const { return route(route_id(from, to)); }
  // Routes are numbered from * stops + to, 0 to routes() - 1.
  unsigned route_id(unsigned from, unsigned to) const { return from * stops_ + to; }
  unsigned routes() const { return stops_ * stops_; }
  Route route(unsigned id) const {
    if (ring_) return ring_route(id / stops_, id % stops_);
    return {route_links_.data() + route_start_[id], route_links_.data() + route_start_[id + 1]};
  }
  std::string link_name(unsigned link) const;  // "3-4"

 private:
  unsigned link_between(unsigned from, unsigned to) const;
  // Lays `routes` (by route id) out in route_links_, one after another: a transaction's
  // routes are read on every hop, and one table keeps them close together.
  void set_routes(const std::vector<std::vector<unsigned>>& routes);
  // A ring's routes are stretches of two sequences of its link ids (clockwise, then
  // counter-clockwise, each laid twice so that no stretch wraps): 4 * stops ids for every
  // route instead of a table of stops^2 routes of up to stops / 2 links each.
  Route ring_route(unsigned from, unsigned to) const {
    const unsigned cw = (to + stops_ - from) % stops_, ccw = (from + stops_ - to) % stops_;
    const unsigned* clockwise = route_links_.data();
    const unsigned* counter = clockwise + 2 * size_t(stops_);
    if (cw <= ccw) return {clockwise + from, clockwise + from + cw};
    const unsigned* first = counter + (stops_ - 1 - from);
    return {first, first + ccw};
  }
  bool ring_ = false;
  std::string kind_;
  unsigned stops_ = 0;
  std::vector<Link> links_;
  std::vector<unsigned> route_links_;  // every route's links, by route id
  std::vector<unsigned> route_start_;  // route id -> its first link in route_links_; routes() + 1 of them
};

}  // namespace npuvp::interconnect
