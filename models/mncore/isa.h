// The MN-Core 2 instruction stream as this model defines it (docs/mncore2-isa.md): one plain
// struct per instruction, produced by the assembler and consumed by the board's sequencer,
// the PE array, the MAU and the transfer engines. There are no branches: divergence is by
// per-PE masks and per-PE identity values.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/mncore/topology.h"
#include "models/numerics/mncore_float.h"

namespace npuvp::mncore {

enum class Op : uint8_t {
  Nop,
  Mov,                                  // copy, any width
  FAdd, FSub, FMul, FMax, FMin,         // float lanes (.h .f .d)
  FCvt,                                 // float format conversion (.<from>.<to>)
  IAdd, ISub, And, Or, Xor, Shl, Shr,   // 32-bit integer lanes
  FCmp, ICmp,                           // compare lane 0 of each PE into a mask register
  MWLoad, MMAcc,                        // MAU: fill the weight register; multiply-accumulate
  Transfer,                             // data movement between levels (runs on an engine)
  Wait,                                 // wait for engines to finish
};

enum class LaneType : uint8_t { None, Half, Single, Double, Int };
enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };

// Identity values a PE can read: its position in the tree.
enum class Identity : uint8_t { Group, L2B, L1B, MAB, PE, Index };

struct Operand {
  enum class Kind : uint8_t { None, Memory, IntImmediate, FloatImmediate, Identity, Mask };
  Kind kind = Kind::None;
  Mem mem = Mem::LM0;
  uint64_t address = 0;     // in the memory's address unit
  unsigned width_sw = 1;    // PE memories: 1 (SW), 2 (LW, "l"), 4 (two LW, "ll")
  int64_t int_value = 0;
  double float_value = 0;
  Identity identity = Identity::Index;
  unsigned mask = 0;        // mask register number
  unsigned column = 0;      // 1-based, for messages
  std::string text;         // as written
};

// Transfer modes, per tree level crossed. Down: Bcast (every child gets the same block),
// Dist (child i gets block i). Up: Coll (block i comes from child i), Red (the children's
// blocks are summed). Copy: same node, PDM <-> DRAM.
enum class Mode : uint8_t { Copy, Bcast, Dist, Coll, Red };
const char* mode_name(Mode m);

// The engines that run transfers, one per level (all nodes of a level act in lockstep).
enum class Engine : uint8_t { Pdm, Dram, L2b, L1b };
inline constexpr unsigned kEngines = 4;
const char* engine_name(Engine e);

struct Instruction {
  Op op = Op::Nop;
  LaneType type = LaneType::None;    // FCvt: source format
  LaneType type_to = LaneType::None; // FCvt: destination format
  Cmp cmp = Cmp::Eq;
  std::vector<Operand> sources;
  Operand dest;
  int predicate = -1;                // mask register gating this instruction, -1 = none
  bool predicate_negated = false;

  // Transfers.
  Mode modes[2] = {Mode::Copy, Mode::Copy};  // L1B level: [MAB level, PE level]; else [0]
  unsigned mode_levels = 0;
  uint64_t count_lw = 0;
  Engine engine = Engine::Pdm;
  // Wait: which engines (bit i = Engine i).
  unsigned wait_mask = 0;

  unsigned line = 0;  // 1-based source line
  std::string text;   // the source line, trimmed
};

struct Program {
  std::string name;  // for messages: a file name or a kernel name
  std::vector<Instruction> instructions;
};

const char* op_name(Op op);
const char* lane_suffix(LaneType t);   // "h", "f", "d", "i"
unsigned lane_bits(LaneType t);        // 16, 32, 64, 32
inline FloatFormat float_format(LaneType t) {
  return t == LaneType::Half ? FloatFormat::Half : t == LaneType::Double ? FloatFormat::Double : FloatFormat::Single;
}
// "line 12 `fadd.h $lm0 $ln0 $lr0`" for messages.
std::string where(const Program& p, const Instruction& i);

}  // namespace npuvp::mncore
