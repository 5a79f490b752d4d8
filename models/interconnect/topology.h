// Where the stops of an on-chip network sit and which links a message crosses between two
// of them: a bidirectional ring (shortest direction, clockwise on a tie) or a 2D mesh
// (dimension-ordered XY routing). Pure data, no SystemC: the interconnect times the links.
#pragma once
#include <string>
#include <vector>

namespace npuvp::interconnect {

class Topology {
 public:
  struct Link {
    unsigned from, to;  // adjacent stops; every link is one direction
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
  const std::vector<unsigned>& route(unsigned from, unsigned to) const { return routes_[from * stops_ + to]; }
  std::string link_name(unsigned link) const;  // "3-4"

 private:
  unsigned link_between(unsigned from, unsigned to) const;
  std::string kind_;
  unsigned stops_ = 0;
  std::vector<Link> links_;
  std::vector<std::vector<unsigned>> routes_;  // stops x stops
};

}  // namespace npuvp::interconnect
