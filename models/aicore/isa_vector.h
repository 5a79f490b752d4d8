// The vector instruction (SPEC.md §1.6 and the Ascend C vector ISA).
#pragma once
#include <cstdint>
#include "models/aicore/isa_types.h"

namespace npuvp::aicore {

enum class VecOp : uint8_t {
  Add, Sub, Mul, Div, Max, Min,  // dst = src0 op src1
  Adds, Muls,                    // dst = src0 op scalar
  Abs, Relu, Exp,                // dst = op(src0)
  Duplicate,                     // dst = scalar
};
const char* vec_op_name(VecOp op);
int vec_op_sources(VecOp op);  // 0, 1 or 2 tensor sources

// One vector instruction: `repeat` iterations over 256 B (8 blocks of 32 B) per operand.
// Normal mask: bit i of (mask_hi:mask_lo) enables element i of each repeat (mask_lo holds
// elements 0..63). Counter mask: mask_lo is the total number of elements over all repeats,
// taken in order, each repeat handling up to one full repeat's worth.
struct VectorOp {
  VecOp op = VecOp::Add;
  DType dtype = DType::F16;
  uint64_t dst = 0, src0 = 0, src1 = 0;  // UB byte addresses
  double scalar = 0;                     // Adds/Muls/Duplicate, converted to dtype first
  bool counter_mode = false;
  uint64_t mask_lo = ~0ull, mask_hi = ~0ull;
  uint32_t repeat = 1;  // [0, 255]; 0 does nothing
  uint32_t dst_blk_stride = 1, src0_blk_stride = 1, src1_blk_stride = 1;  // 32 B units
  uint32_t dst_rep_stride = 8, src0_rep_stride = 8, src1_rep_stride = 8;  // 32 B units
};

}  // namespace npuvp::aicore
