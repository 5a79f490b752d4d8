// The host side of an MN-Core 2 board: runs assembly programs, moves data between host
// memory and every Group's DRAM through Group 0's PDM (the only PCIe-attached memory), and
// books simulated time into named phases for the run summary.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "platforms/mncore2/board.h"

namespace npuvp::mncore {

struct Phase {
  std::string name;
  uint64_t cycles = 0;        // simulated time of the whole phase (programs, PCIe, gaps)
  BoardRun work;              // the programs run in it, summed
  uint64_t pcie_bytes = 0;    // host <-> PDM bytes in it
};

class Host {
 public:
  explicit Host(Board& board) : board_(board) {}

  // Phases: everything between begin() and end() is booked to the phase.
  void begin(const std::string& phase);
  void end();
  const std::vector<Phase>& phases() const { return phases_; }

  // Assembles (errors name the line and column) and runs a program.
  const BoardRun& run(const std::string& text, const std::string& name);

  // Group g's words -> its DRAM at LW address `dram_lw` (same address in every Group), in
  // pieces that fit Group 0's PDM: PCIe to the PDM, then `dist` from the PDM to the DRAMs.
  void to_dram(const std::vector<std::vector<uint64_t>>& per_group, uint64_t dram_lw);
  // The same words to every Group's DRAM (`bcast` from the PDM).
  void to_every_dram(const std::vector<uint64_t>& words, uint64_t dram_lw);
  // `count` LW from each Group's DRAM at `dram_lw` (`coll` into the PDM, then PCIe).
  std::vector<std::vector<uint64_t>> from_dram(uint64_t dram_lw, uint64_t count);

 private:
  uint64_t pdm_chunk(uint64_t blocks) const;
  Board& board_;
  std::vector<Phase> phases_;
  sc_core::sc_time phase_start_;
  uint64_t pcie_at_start_ = 0;
  bool open_ = false;
};

// Halves packed four to a LW, lowest address first (the board is little-endian).
std::vector<uint64_t> pack_halves(const std::vector<uint16_t>& halves);
std::vector<uint16_t> unpack_halves(const std::vector<uint64_t>& words);
std::vector<uint64_t> pack_singles(const std::vector<uint32_t>& singles);
std::vector<uint32_t> unpack_singles(const std::vector<uint64_t>& words);

}  // namespace npuvp::mncore
