#include "models/interconnect/topology.h"

#include <fmt/format.h>

#include "tlm/log.h"

namespace npuvp::interconnect {

Topology Topology::ring(unsigned stops) {
  if (stops < 1) raise("config", "a ring needs at least one stop");
  Topology t;
  t.kind_ = "ring";
  t.stops_ = stops;
  for (unsigned i = 0; i < stops; ++i) t.links_.push_back({i, (i + 1) % stops});
  for (unsigned i = 0; i < stops; ++i) t.links_.push_back({i, (i + stops - 1) % stops});
  // Clockwise from a: links a, a+1, ...; counter-clockwise: stops+a, stops+a-1, ... (see
  // ring_route; the shortest direction, clockwise on a tie).
  t.ring_ = true;
  for (unsigned i = 0; i < 2 * stops; ++i) t.route_links_.push_back(i % stops);
  for (unsigned i = 0; i < 2 * stops; ++i) t.route_links_.push_back(stops + (2 * stops - 1 - i) % stops);
  return t;
}

Topology Topology::mesh(unsigned stops, unsigned columns) {
  if (stops < 1 || columns < 1) raise("config", "a mesh needs at least one stop and one column");
  Topology t;
  t.kind_ = "mesh";
  t.stops_ = stops;
  auto col = [&](unsigned s) { return s % columns; };
  auto row = [&](unsigned s) { return s / columns; };
  for (unsigned s = 0; s < stops; ++s) {
    if (col(s) + 1 < columns && s + 1 < stops) t.links_.push_back({s, s + 1});
    if (col(s) > 0) t.links_.push_back({s, s - 1});
    if (s + columns < stops) t.links_.push_back({s, s + columns});
    if (row(s) > 0) t.links_.push_back({s, s - columns});
  }
  std::vector<std::vector<unsigned>> routes(size_t(stops) * stops);
  for (unsigned a = 0; a < stops; ++a) {
    for (unsigned b = 0; b < stops; ++b) {
      auto& r = routes[a * stops + b];
      unsigned at = a;
      // X first, then Y. On a partial last row, moving along X from the last row could leave
      // the mesh, so a route that starts there goes up (Y) first.
      auto step_x = [&] {
        while (col(at) != col(b)) {
          const unsigned next = col(at) < col(b) ? at + 1 : at - 1;
          r.push_back(t.link_between(at, next));
          at = next;
        }
      };
      auto step_y = [&] {
        while (row(at) != row(b)) {
          const unsigned next = row(at) < row(b) ? at + columns : at - columns;
          r.push_back(t.link_between(at, next));
          at = next;
        }
      };
      const bool x_leaves_mesh = row(a) * columns + col(b) >= stops;
      if (x_leaves_mesh) {
        step_y();
        step_x();
      } else {
        step_x();
        step_y();
      }
    }
  }
  t.set_routes(routes);
  return t;
}

void Topology::set_routes(const std::vector<std::vector<unsigned>>& routes) {
  route_links_.clear();
  route_start_.clear();
  for (const auto& r : routes) {
    route_start_.push_back(static_cast<unsigned>(route_links_.size()));
    route_links_.insert(route_links_.end(), r.begin(), r.end());
  }
  route_start_.push_back(static_cast<unsigned>(route_links_.size()));
}

unsigned Topology::link_between(unsigned from, unsigned to) const {
  for (unsigned i = 0; i < links_.size(); ++i) {
    if (links_[i].from == from && links_[i].to == to) return i;
  }
  raise("interconnect", "no link between stops {} and {}", from, to);
}

std::string Topology::link_name(unsigned link) const {
  return fmt::format("{}-{}", links_.at(link).from, links_.at(link).to);
}

}  // namespace npuvp::interconnect
