// The vector unit: executes one VectorOp on the Unified Buffer's bytes (SPEC.md §1.6).
// A plain class that the V pipe calls: check() validates, cost() times, execute() computes.
#pragma once
#include <cstdint>
#include <string>
#include "models/aicore/isa.h"

namespace npuvp::aicore {

class VectorUnit {
 public:
  struct Params {
    uint64_t head_cycles = 37;  // fixed issue cost of every vector instruction
    double repeats_per_cycle = 1.0;
  };
  VectorUnit() = default;
  explicit VectorUnit(const Params& params) : params_(params) {}

  // Empty if `op` is legal on a UB of `ub_size` bytes; else the reason, e.g.
  // "repeat 256 out of range [0, 255]", "dst block at 0x40020 (32 B) beyond UB size 0x40000",
  // "address 0x13 not 32 B aligned", "Exp does not support s32", "mask_hi must be 0 for f32".
  std::string check(const VectorOp& op, uint64_t ub_size) const;

  // Cycles the instruction occupies the V pipe.
  uint64_t cost(const VectorOp& op) const;

  // Computes `op` in place on `ub` (already checked). Repeats run in order; within a repeat
  // all sources are read before the destination is written, so overlapping and in-place
  // operands behave as on hardware.
  void execute(const VectorOp& op, uint8_t* ub) const;

  // Elements of `type` in one repeat (256 B) and in one block (32 B).
  static unsigned elems_per_repeat(DType type) { return 256 / dtype_size(type); }
  static unsigned elems_per_block(DType type) { return 32 / dtype_size(type); }

 private:
  Params params_;
};

}  // namespace npuvp::aicore
