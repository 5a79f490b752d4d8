// Issue 29: a ring's routes are computed from two short sequences of link ids instead of a
// table of every pair's route (which grew with the cube of the stops: more than 16 GiB at
// platform.cores=1024). The routes are the same: the shortest direction, clockwise on a tie.
#include <gtest/gtest.h>
#include <vector>
#include "models/interconnect/topology.h"

namespace ring_routes_test {

using npuvp::interconnect::Topology;

// The rule written plainly.
std::vector<unsigned> plain_route(unsigned stops, unsigned a, unsigned b) {
  std::vector<unsigned> r;
  const unsigned cw = (b + stops - a) % stops, ccw = (a + stops - b) % stops;
  if (cw <= ccw) {
    for (unsigned h = 0; h < cw; ++h) r.push_back((a + h) % stops);
  } else {
    for (unsigned h = 0; h < ccw; ++h) r.push_back(stops + (a + stops - h) % stops);
  }
  return r;
}

TEST(RingRoutes, EveryRouteIsTheShortestDirection) {
  for (unsigned stops : {1u, 2u, 3u, 4u, 7u, 8u, 33u}) {
    const Topology t = Topology::ring(stops);
    for (unsigned a = 0; a < stops; ++a) {
      for (unsigned b = 0; b < stops; ++b) {
        const auto route = t.route(a, b);
        EXPECT_EQ(std::vector<unsigned>(route.begin(), route.end()), plain_route(stops, a, b))
            << stops << " stops, " << a << " -> " << b;
        EXPECT_EQ(route.size(), t.route(t.route_id(a, b)).size());
      }
    }
  }
}

TEST(RingRoutes, ThousandsOfStopsNeedNoTableOfRoutes) {
  const unsigned stops = 3 * 1024 + 64;  // 1024 AI Cores with two AIVs each, and the rest
  const Topology t = Topology::ring(stops);
  for (unsigned a : {0u, 1u, stops / 2, stops - 1}) {
    for (unsigned b : {0u, 5u, stops / 2 + 1, stops - 2}) {
      const auto route = t.route(a, b);
      EXPECT_EQ(std::vector<unsigned>(route.begin(), route.end()), plain_route(stops, a, b)) << a << " -> " << b;
    }
  }
}

}  // namespace ring_routes_test
