// The vector unit: executes one VectorOp on the Unified Buffer's bytes (SPEC.md §1.6,
// docs/vector-isa.md). A plain class that the V pipe calls: check() validates, cost() times,
// execute() computes. It holds the one piece of vector state the ISA has, the CMPMASK
// register (Compare without dst, SetCmpMask, GetCmpMask, Select VSEL_CMPMASK_SPR).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>
#include "models/aicore/isa.h"

namespace npuvp::aicore {

// A fault only execution can find (Gather's offsets are data): "<instruction>: <reason>".
// The core reports it under its own name and simulated time.
struct VectorFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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
  // "address 0x13 not 32 B aligned", "Exp does not support s32", "mask_hi must be 0 for f32",
  // "Cast f16->s8 does not support CAST_ODD". It also records `ub_size` for execute()'s
  // data-dependent bounds (Gather): the core checks every instruction before issuing it.
  std::string check(const VectorOp& op, uint64_t ub_size) const;

  // Cycles the instruction occupies the V pipe.
  uint64_t cost(const VectorOp& op) const;

  // Computes `op` in place on `ub` (already checked). Repeats run in order; within a repeat
  // all sources are read before the destination is written, so overlapping and in-place
  // operands behave as on hardware. Gather offsets are data, so they are bounded here, by
  // `ub_size` (or, in the two-argument form, by the size last passed to check()); a bad
  // offset raises an npuvp error naming the instruction.
  void execute(const VectorOp& op, uint8_t* ub, uint64_t ub_size);
  void execute(const VectorOp& op, uint8_t* ub) { execute(op, ub, checked_ub_size_); }

  // The CMPMASK register: bit i (of w[i / 64]) is element i.
  struct CmpMask {
    uint64_t w[2] = {0, 0};
  };
  const CmpMask& cmp_mask() const { return cmp_mask_; }
  // The elements the last GatherMask kept (its rsvdCnt).
  uint64_t gather_mask_count() const { return gather_mask_count_; }
  // The records the last MrgSort took from each of its queues (GetMrgSortResult).
  struct MrgSortResult {
    uint16_t taken[4] = {0, 0, 0, 0};
  };
  const MrgSortResult& mrg_sort_result() const { return mrg_sort_result_; }

  // Elements of `type` in one repeat (256 B) and in one block (32 B).
  static unsigned elems_per_repeat(DType type) { return 256 / dtype_size(type); }
  static unsigned elems_per_block(DType type) { return 32 / dtype_size(type); }
  // Elements one repeat of `op` handles (its mask width): 256 B of its widest operand.
  static unsigned repeat_elems(const VectorOp& op);
  // The largest legal `repeat` of an operation (255, or more for ReduceSum/Max/Min).
  static uint32_t max_repeat(VecOp op);
  // `op` with every operand moved to where its repeat number `repeats` starts, so that
  // running `op` for k repeats and then advance(op, k) for the rest is the same as running
  // it once (the API splits long counter-mode runs this way). Counter masks are not touched.
  static VectorOp advance(const VectorOp& op, uint32_t repeats);
  // The UB bytes an operand of `op` may touch: [begin, end) from its first to its last byte
  // (strides' gaps included), written or read. Gather's data-dependent reads are all of UB.
  struct OperandBytes {
    uint64_t begin = 0, end = 0;
    bool write = false;
  };
  static std::vector<OperandBytes> operand_bytes(const VectorOp& op);
  // The same byte by byte (the sanitizer's footprints): a strided operand as the merged runs
  // of its enabled elements, gaps left out; `exact` false where a range is still a hull
  // (Brcb's and GatherMask's strided blocks, strided reduction results, Gather's data reads).
  struct ExactBytes {
    uint64_t begin = 0, end = 0;
    bool write = false, exact = true;
  };
  static void exact_operand_bytes(const VectorOp& op, std::vector<ExactBytes>& out);

 private:
  Params params_;
  CmpMask cmp_mask_;
  uint64_t gather_mask_count_ = 0;
  MrgSortResult mrg_sort_result_;
  mutable uint64_t checked_ub_size_ = 0;
};

}  // namespace npuvp::aicore
