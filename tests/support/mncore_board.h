// A board per test process (SystemC elaborates once per process), built from "mncore2.*"
// overrides on top of the SPEC defaults.
#pragma once
#include <map>
#include <memory>
#include <string>

#include "models/mncore/assembler.h"
#include "platforms/mncore2/board.h"
#include "tlm/config.h"
#include "tlm/stats.h"

namespace npuvp::mncore::test {

// 2 Groups x 2 L2B x 2 L1B x 2 MAB x 4 PE = 64 PEs, small memories: fast, and every level
// still has more than one child.
inline std::map<std::string, std::string> small_board() {
  return {{"mncore2.groups", "2"},         {"mncore2.l2b_per_group", "2"}, {"mncore2.l1b_per_l2b", "2"},
          {"mncore2.mab_per_l1b", "2"},    {"mncore2.pe_per_mab", "4"},    {"mncore2.dram.size_lw", "64Ki"},
          {"mncore2.pdm.size_lw", "16Ki"}, {"mncore2.l2bm.size_lw", "4Ki"}, {"mncore2.l1bm.size_lw", "2Ki"},
          {"mncore2.lm0.size_lw", "512"},  {"mncore2.lm1.size_lw", "512"}, {"mncore2.grf0.size_lw", "64"},
          {"mncore2.grf1.size_lw", "64"}};
}

inline std::unique_ptr<Board> make_board(const std::map<std::string, std::string>& overrides = small_board()) {
  Config::global().clear();
  Stats::global().clear();
  for (const auto& [key, value] : overrides) Config::global().set_override(key + "=" + value, "test");
  auto board = std::make_unique<Board>("mncore2");
  Config::global().check_unused();
  return board;
}

inline const BoardRun& run(Board& board, const std::string& text) {
  return board.run(assemble(text, "test.s"));
}

}  // namespace npuvp::mncore::test
