// The state of every PE on the board, structure-of-arrays: SW word w of PE p of a memory is
// at words(m, w)[p], so one instruction over all PEs is a loop over contiguous words (and
// vectorises), never a process or a call per PE. The ALU instructions run here.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/mncore/isa.h"
#include "tlm/host_mapping.h"
#include "models/mncore/topology.h"

namespace npuvp::mncore {

// A PE instruction that cannot execute (an address beyond a memory, a mask register that does
// not exist). The sequencer turns it into an error naming the instruction and the time.
class PeFault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Zero-filled words committed on first touch: a board's 144 MiB of PE memory costs only
// what a program uses.
class WordBuffer {
 public:
  explicit WordBuffer(uint64_t words = 0);
  uint32_t* data() { return reinterpret_cast<uint32_t*>(storage_.data()); }
  const uint32_t* data() const { return reinterpret_cast<const uint32_t*>(storage_.data()); }
  uint64_t size() const { return words_; }

 private:
  HostMapping storage_;
  uint64_t words_ = 0;
};

class PeArray {
 public:
  explicit PeArray(const Topology& topology);

  unsigned size() const { return n_; }
  const Topology& topology() const { return t_; }

  // SW word `sw` of memory `m` for every PE (n contiguous words).
  uint32_t* words(Mem m, uint64_t sw) { return memory_[index(m)]->data() + sw * n_; }
  const uint32_t* words(Mem m, uint64_t sw) const { return memory_[index(m)]->data() + sw * n_; }
  uint64_t sw_count(Mem m) const { return t_.mem[index(m)].size_bytes() / 4; }
  // SW index of an operand address (the address counts in the memory's unit).
  uint64_t sw_of(Mem m, uint64_t address) const { return address * t_.mem[index(m)].unit_bytes / 4; }

  // One PE's bytes (offsets and lengths in whole SW): the PE memory port and the host use these.
  void read(Mem m, unsigned pe, uint64_t byte_offset, void* out, uint64_t bytes) const;
  void write(Mem m, unsigned pe, uint64_t byte_offset, const void* in, uint64_t bytes);

  const std::vector<uint32_t>& identity(Identity i) const { return identity_[static_cast<unsigned>(i)]; }
  std::vector<uint8_t>& mask(unsigned k) { return masks_.at(k); }

  // Throws PeFault unless `o` (an SW-addressed PE memory operand of `width_sw` words) is in
  // range and aligned: SW accesses to a SW boundary, LW and wider to a LW boundary.
  void check(const Operand& o) const;
  // Which PEs an instruction's predicate enables (nullptr: all of them).
  const uint8_t* enabled(const Instruction& in);

  // Runs an ALU instruction (mov, float and integer arithmetic, fcvt, compares) on every
  // enabled PE; returns how many PEs were enabled.
  unsigned execute(const Instruction& in);

 private:
  static unsigned index(Mem m) { return static_cast<unsigned>(m); }
  // The n words of source operand `o`'s `j`th SW, for an instruction of lane type `type`.
  const uint32_t* source_word(const Operand& o, unsigned j, LaneType type, std::vector<uint32_t>& scratch) const;
  void commit(const Operand& dest, const std::vector<uint32_t>& result, const uint8_t* enable);

  const Topology t_;
  const unsigned n_;
  std::unique_ptr<WordBuffer> memory_[kPeMemories];
  std::vector<uint32_t> identity_[6];
  std::vector<std::vector<uint8_t>> masks_;
  std::vector<uint8_t> enable_scratch_;
};

}  // namespace npuvp::mncore
