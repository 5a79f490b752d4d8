// The vector instruction (SPEC.md §1.6 and the Ascend C vector ISA). docs/vector-isa.md is the
// reference for every operation's operands, dtypes and numeric contract.
#pragma once
#include <cstdint>
#include <string>
#include "models/aicore/isa_types.h"

namespace npuvp::aicore {

enum class VecOp : uint8_t {
  Add, Sub, Mul, Div, Max, Min,  // dst = src0 op src1
  Adds, Muls,                    // dst = src0 op scalar
  Abs, Relu, Exp,                // dst = op(src0)
  Duplicate,                     // dst = scalar
  Ln, Sqrt, Rsqrt, Reciprocal,   // dst = op(src0), f16/f32
  LeakyRelu,                     // dst = src0 >= 0 ? src0 : src0 * scalar
  Not, And, Or,                  // bitwise on 16-bit integers
  Cast,                          // dst (dst_dtype) = convert(src0 (dtype), round)
  Compare,                       // bit field at dst = src0 cmp src1
  CompareScalar,                 // bit field at dst = src0 cmp scalar
  CompareToCmpMask,              // CMPMASK register = src0 cmp src1 (one repeat)
  SetCmpMask,                    // CMPMASK register = 16 B at src0
  GetCmpMask,                    // 16 B at dst = CMPMASK register
  Select,                        // dst = sel bit ? src0 : (src1 or scalar)
  ReduceSum, ReduceMax, ReduceMin,                 // one result over every repeat
  WholeReduceSum, WholeReduceMax, WholeReduceMin,  // one result per repeat
  BlockReduceSum, BlockReduceMax, BlockReduceMin,  // one result per 32 B block
  Brcb,       // each of 8 src0 elements fills one 32 B block of dst, per repeat
  Transpose,  // one 16x16 matrix of 16-bit elements (512 B)
  Gather,     // dst[i] = element at src0 + u32 byte offset src1[i]
  // Issue 22's basic API (scalar family, Copy, GatherMask, Scatter):
  Maxs, Mins,             // dst = max/min(src0, scalar)
  ShiftLeft, ShiftRight,  // dst = src0 shifted by scalar bits (arithmetic for signed types)
  Copy,                   // dst = src0, bits unchanged
  GatherMask,             // the src0 elements a pattern selects, packed from dst on
  Scatter,                // element at dst + u32 byte offset src1[i] = src0[i]
  Axpy,                   // dst = src1 + src0 * scalar, with src1 the destination (the API sets it so)
  // issue 22, reductions:
  PairReduceSum,  // dst[k] = src0[2k] + src0[2k+1], 128 B of results per repeat
  // issue 22, sorting (A2): 8 B records (score, u32 index), descending by score.
  Sort32,   // each repeat sorts 32 scores at src0 with their u32 indices at src1
  MrgSort,  // merges up to 4 sorted record queues (src0, src1, src2, src3) into dst
  // issue 24 (TIK vmla/vmadd/vmaddrelu), three inputs, dst read before it is written:
  MulAddDst,        // dst = src0 * src1 + dst
  FusedMulAdd,      // dst = src0 * dst + src1
  FusedMulAddRelu,  // dst = max(src0 * dst + src1, 0)
  // issue 24 (TIK region proposals, 910 and 310P): a proposal is 8 elements of dtype,
  // [x1, y1, x2, y2, score, label, reserved, reserved]; 16 proposals per repeat.
  RpSort16,         // each repeat sorts 16 proposals at src0 by score, descending, into dst
  MrgSort4,         // merges up to 4 sorted proposal queues (src0..src3) into dst; fields as MrgSort
  ProposalConcat,   // each repeat writes 16 src0 elements into field proposal_field of 16 proposals at dst
  ProposalExtract,  // each repeat copies field proposal_field of 16 proposals at src0 to 16 dst elements
};
const char* vec_op_name(VecOp op);
int vec_op_sources(VecOp op);  // tensor sources read through src0/src1: 0, 1 or 2

// Values equal those of the Ascend C enums (AscendC::RoundMode, CMPMODE, SELMODE, ReduceOrder),
// so the API converts them with a static_cast.
enum class RoundMode : uint8_t { None, Rint, Floor, Ceil, Round, Trunc, Odd };
enum class CmpMode : uint8_t { LT, GT, EQ, LE, GE, NE };
enum class SelMode : uint8_t { CmpMaskSpr, TensorScalar, TensorTensor };
enum class ReduceOrder : uint8_t { ValueIndex, IndexValue, OnlyValue, OnlyIndex };
const char* round_mode_name(RoundMode mode);  // "CAST_RINT", ...
const char* cmp_mode_name(CmpMode mode);      // "LT", ...
const char* sel_mode_name(SelMode mode);      // "VSEL_CMPMASK_SPR", ...
const char* reduce_order_name(ReduceOrder order);

// One vector instruction: `repeat` iterations over 256 B (8 blocks of 32 B) per operand.
// Normal mask: bit i of (mask_hi:mask_lo) enables element i of each repeat (mask_lo holds
// elements 0..63). Counter mask: mask_lo is the total number of elements over all repeats,
// taken in order, each repeat handling up to one full repeat's worth.
// Cast with operands of different widths: one repeat holds 256 B of the wider operand, so
// the narrower one spans 4 blocks (or 2 for 8-bit <-> 32-bit, which the model does not have).
struct VectorOp {
  VecOp op = VecOp::Add;
  DType dtype = DType::F16;              // element type (Cast: the source type)
  uint64_t dst = 0, src0 = 0, src1 = 0;  // UB byte addresses
  double scalar = 0;  // Adds/Muls/Duplicate/LeakyRelu/CompareScalar/Select, converted to dtype first
  bool counter_mode = false;
  uint64_t mask_lo = ~0ull, mask_hi = ~0ull;
  uint32_t repeat = 1;  // [0, 255]; 0 does nothing. ReduceSum/Max/Min accept up to 2^31 - 1.
  uint32_t dst_blk_stride = 1, src0_blk_stride = 1, src1_blk_stride = 1;  // 32 B units
  // 32 B units, except where the reduction ops define their own unit (docs/vector-isa.md).
  uint32_t dst_rep_stride = 8, src0_rep_stride = 8, src1_rep_stride = 8;

  DType dst_dtype = DType::F16;                  // Cast: destination type
  RoundMode round = RoundMode::None;             // Cast
  CmpMode cmp = CmpMode::LT;                     // Compare, CompareScalar, CompareToCmpMask
  SelMode sel = SelMode::CmpMaskSpr;             // Select
  ReduceOrder order = ReduceOrder::ValueIndex;   // Reduce/WholeReduce Max/Min: what is stored
                                                 // (OnlyIndex: a u32 index, whatever the dtype)
  uint64_t src2 = 0;  // Select TensorScalar/TensorTensor: UB address of the selection bits
  // GatherMask: built-in pattern 1..7, or 0 for the pattern bits at src1 (src1_rep_stride
  // apart per repeat). Its counter mode (reduceMode) takes mask_lo elements in every repeat.
  uint8_t gather_pattern = 0;
  bool round_shift = false;  // ShiftRight roundEn: add the last bit shifted out
  // MrgSort: the fourth queue (src2 the third); the queues' lengths in records are the four
  // 16-bit fields of mask_lo (queue 0 lowest), the valid-queue bits are mask_hi's low byte
  // and "stop when a queue is exhausted" its bit 8.
  uint64_t src3 = 0;
  // ProposalConcat/ProposalExtract: the field, 0 x1, 1 y1, 2 x2, 3 y2, 4 score, 5 label.
  uint8_t proposal_field = 0;
  // Cast s32 -> f16 in deq mode (TIK vconv with deqscale; the DEQSCALE register of Ascend C's
  // SetDeqScale(half)): each value is multiplied by `scalar` rounded to half, exactly, and the
  // product rounded once to half as the Cast's round mode says.
  bool deq = false;
};

// The fields describe() in isa.cpp does not show, e.g. " dst_dtype=s32 round=CAST_FLOOR";
// empty for the ops that have none.
std::string vec_op_details(const VectorOp& op);

}  // namespace npuvp::aicore
