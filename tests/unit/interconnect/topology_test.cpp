#include "models/interconnect/topology.h"

#include <gtest/gtest.h>
#include <gmock/gmock.h>
#include "tests/support/error_of.h"

namespace topology_test {

using npuvp::interconnect::Topology;

// The stops a route passes, from its links.
std::vector<unsigned> stops_of(const Topology& t, unsigned from, unsigned to) {
  std::vector<unsigned> stops{from};
  for (unsigned link : t.route(from, to)) {
    EXPECT_EQ(t.links()[link].from, stops.back()) << "links must chain";
    stops.push_back(t.links()[link].to);
  }
  return stops;
}

TEST(TopologyTest, RingTakesTheShorterDirection) {
  const Topology t = Topology::ring(8);
  EXPECT_EQ(t.links().size(), 16u);  // both directions
  EXPECT_EQ(stops_of(t, 1, 3), (std::vector<unsigned>{1, 2, 3}));
  EXPECT_EQ(stops_of(t, 1, 7), (std::vector<unsigned>{1, 0, 7}));
  EXPECT_EQ(stops_of(t, 6, 1), (std::vector<unsigned>{6, 7, 0, 1}));
  EXPECT_TRUE(t.route(5, 5).empty());
}

TEST(TopologyTest, RingGoesClockwiseOnATie) {
  const Topology t = Topology::ring(8);
  EXPECT_EQ(stops_of(t, 2, 6), (std::vector<unsigned>{2, 3, 4, 5, 6}));
  EXPECT_EQ(stops_of(t, 6, 2), (std::vector<unsigned>{6, 7, 0, 1, 2}));
}

TEST(TopologyTest, MeshRoutesAlongXThenY) {
  const Topology t = Topology::mesh(9, 3);  // 3 x 3
  EXPECT_EQ(stops_of(t, 0, 8), (std::vector<unsigned>{0, 1, 2, 5, 8}));
  EXPECT_EQ(stops_of(t, 8, 0), (std::vector<unsigned>{8, 7, 6, 3, 0}));
  EXPECT_EQ(t.link_name(t.route(0, 1)[0]), "0-1");
}

TEST(TopologyTest, MeshWithAPartialLastRowStaysOnTheMesh) {
  const Topology t = Topology::mesh(7, 3);  // rows 0-2, 3-5, and stop 6 alone
  // From stop 6, going along X first would leave the mesh: it goes along Y first, then X.
  EXPECT_EQ(stops_of(t, 6, 2), (std::vector<unsigned>{6, 3, 0, 1, 2}));
  for (unsigned a = 0; a < 7; ++a) {
    for (unsigned b = 0; b < 7; ++b) {
      const std::vector<unsigned> s = stops_of(t, a, b);
      EXPECT_EQ(s.back(), b) << a << " -> " << b;
      for (unsigned stop : s) EXPECT_LT(stop, 7u);
    }
  }
}

TEST(TopologyTest, EmptyNetworksAreErrors) {
  EXPECT_THAT(npuvp::testing::error_of([] { Topology::ring(0); }), ::testing::HasSubstr("at least one stop"));
  EXPECT_THAT(npuvp::testing::error_of([] { Topology::mesh(4, 0); }), ::testing::HasSubstr("at least one"));
}

}  // namespace topology_test
