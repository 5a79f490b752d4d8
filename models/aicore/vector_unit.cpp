// The vector unit (SPEC.md §1.6, docs/vector-isa.md). Each repeat gathers the 32 B blocks of
// its sources into 256 B temporaries, computes the whole repeat with one templated,
// vectorisable loop, and then writes only the enabled destination elements. Repeats run
// strictly in order, which is what makes repeat stride 0, overlapping repeats and in-place
// operands well defined.
//
// The repeat engine and the pieces every family shares are in vector_repeat.h; each family
// of instructions has its own file: vector_elementwise.cpp, vector_cast.cpp,
// vector_compare.cpp (with Select), vector_reduce.cpp and vector_rearrange.cpp. This file
// holds the vector ISA's names, which dtypes each operation takes, check() (every UB range an
// instruction touches), cost(), and execute(), which hands each instruction to its family.
//
// Numeric contract (the hardware's is not bit-published, so this one is ours; the full text
// is docs/vector-isa.md):
// - f16: every operation is computed in float and rounded once to binary16 with
//   round-to-nearest-even. For + - * / and sqrt this equals the correctly rounded half result,
//   because float carries >= 2p+2 bits of a half's p = 11.
// - Exp, Ln: libm expf/logf of the (widened) input, rounded to the destination type.
//   Sqrt and Reciprocal are the IEEE operations in float; Rsqrt is 1/sqrt in double, rounded
//   once to float (and then, for f16, to half).
// - Max/Min: IEEE 754-2019 maximum/minimum: a NaN input gives a NaN (the first NaN operand,
//   quieted), and +0 > -0.
// - Relu: x > 0 ? x : +0, so -0 and NaN give +0. LeakyRelu: x >= 0 ? x : x * alpha.
// - Abs: clears the sign bit (NaNs included, payload untouched).
// - Integers: two's-complement wrap-around for Add/Sub/Mul/Adds/Muls.
// - Scalars (Adds/Muls/Duplicate/LeakyRelu/CompareScalar/Select) are converted to the dtype
//   once: to f16 via float, to bf16 with round-to-nearest-even, to integers by clamping to
//   the range and truncating toward zero (NaN -> 0).
// - Cast: exact value rounded once in the requested mode; float -> int saturates (NaN -> 0);
//   float -> f16/bf16 saturates finite overflow to the largest finite value.
// - Sum reductions: binary trees of adjacent pairs, each addition rounded to the dtype (f16
//   saturating at +-65504); max/min reductions take the first NaN, else the first extreme.
#include "models/aicore/vector_unit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/aicore/vector_repeat.h"

namespace npuvp::aicore {

const char* vec_op_name(VecOp op) {
  switch (op) {
    case VecOp::Add: return "Add";
    case VecOp::Sub: return "Sub";
    case VecOp::Mul: return "Mul";
    case VecOp::Div: return "Div";
    case VecOp::Max: return "Max";
    case VecOp::Min: return "Min";
    case VecOp::Adds: return "Adds";
    case VecOp::Muls: return "Muls";
    case VecOp::Abs: return "Abs";
    case VecOp::Relu: return "Relu";
    case VecOp::Exp: return "Exp";
    case VecOp::Duplicate: return "Duplicate";
    case VecOp::Ln: return "Ln";
    case VecOp::Sqrt: return "Sqrt";
    case VecOp::Rsqrt: return "Rsqrt";
    case VecOp::Reciprocal: return "Reciprocal";
    case VecOp::LeakyRelu: return "LeakyRelu";
    case VecOp::Not: return "Not";
    case VecOp::And: return "And";
    case VecOp::Or: return "Or";
    case VecOp::Cast: return "Cast";
    case VecOp::Compare: return "Compare";
    case VecOp::CompareScalar: return "CompareScalar";
    case VecOp::CompareToCmpMask: return "CompareToCmpMask";
    case VecOp::SetCmpMask: return "SetCmpMask";
    case VecOp::GetCmpMask: return "GetCmpMask";
    case VecOp::Select: return "Select";
    case VecOp::ReduceSum: return "ReduceSum";
    case VecOp::ReduceMax: return "ReduceMax";
    case VecOp::ReduceMin: return "ReduceMin";
    case VecOp::WholeReduceSum: return "WholeReduceSum";
    case VecOp::WholeReduceMax: return "WholeReduceMax";
    case VecOp::WholeReduceMin: return "WholeReduceMin";
    case VecOp::BlockReduceSum: return "BlockReduceSum";
    case VecOp::BlockReduceMax: return "BlockReduceMax";
    case VecOp::BlockReduceMin: return "BlockReduceMin";
    case VecOp::Brcb: return "Brcb";
    case VecOp::Transpose: return "Transpose";
    case VecOp::Gather: return "Gather";
    case VecOp::Maxs: return "Maxs";
    case VecOp::Mins: return "Mins";
    case VecOp::ShiftLeft: return "ShiftLeft";
    case VecOp::ShiftRight: return "ShiftRight";
    case VecOp::Copy: return "Copy";
    case VecOp::GatherMask: return "GatherMask";
    case VecOp::Scatter: return "Scatter";
    case VecOp::Axpy: return "Axpy";
    case VecOp::PairReduceSum: return "PairReduceSum";
    case VecOp::Sort32: return "Sort32";
    case VecOp::MrgSort: return "MrgSort";
    case VecOp::MulAddDst: return "MulAddDst";
    case VecOp::FusedMulAdd: return "FusedMulAdd";
    case VecOp::FusedMulAddRelu: return "FusedMulAddRelu";
    case VecOp::RpSort16: return "RpSort16";
    case VecOp::MrgSort4: return "MrgSort4";
    case VecOp::ProposalConcat: return "ProposalConcat";
    case VecOp::ProposalExtract: return "ProposalExtract";
  }
  return "?";
}

int vec_op_sources(VecOp op) {
  switch (op) {
    case VecOp::Add:
    case VecOp::Sub:
    case VecOp::Mul:
    case VecOp::Div:
    case VecOp::Max:
    case VecOp::Min:
    case VecOp::And:
    case VecOp::Or:
    case VecOp::Compare:
    case VecOp::CompareToCmpMask:
    case VecOp::Select:  // src1 is unused in VSEL_TENSOR_SCALAR_MODE
    case VecOp::Gather:   // src0: data base, src1: offsets
    case VecOp::Scatter:  // src0: data, src1: offsets
    case VecOp::Axpy:     // src1 is dst, read before it is written
    case VecOp::Sort32:  // src0: scores, src1: indices
    case VecOp::MrgSort:  // src0, src1 (and src2, src3): the queues
    case VecOp::MrgSort4:
    case VecOp::MulAddDst:  // and dst, read before it is written
    case VecOp::FusedMulAdd:
    case VecOp::FusedMulAddRelu:
      return 2;
    case VecOp::Duplicate:
    case VecOp::GetCmpMask: return 0;
    default: return 1;
  }
}

const char* round_mode_name(RoundMode mode) {
  static const char* names[] = {"CAST_NONE",  "CAST_RINT",  "CAST_FLOOR", "CAST_CEIL",
                                "CAST_ROUND", "CAST_TRUNC", "CAST_ODD"};
  const auto i = static_cast<unsigned>(mode);
  return i < 7 ? names[i] : "?";
}
const char* cmp_mode_name(CmpMode mode) {
  static const char* names[] = {"LT", "GT", "EQ", "LE", "GE", "NE"};
  const auto i = static_cast<unsigned>(mode);
  return i < 6 ? names[i] : "?";
}
const char* sel_mode_name(SelMode mode) {
  static const char* names[] = {"VSEL_CMPMASK_SPR", "VSEL_TENSOR_SCALAR_MODE",
                                "VSEL_TENSOR_TENSOR_MODE"};
  const auto i = static_cast<unsigned>(mode);
  return i < 3 ? names[i] : "?";
}
const char* reduce_order_name(ReduceOrder order) {
  static const char* names[] = {"ORDER_VALUE_INDEX", "ORDER_INDEX_VALUE", "ORDER_ONLY_VALUE",
                                "ORDER_ONLY_INDEX"};
  const auto i = static_cast<unsigned>(order);
  return i < 4 ? names[i] : "?";
}

std::string vec_op_details(const VectorOp& op) {
  switch (op.op) {
    case VecOp::Cast:
      return fmt::format(" dst_dtype={} round={}{}", dtype_name(op.dst_dtype), round_mode_name(op.round),
                         op.deq ? fmt::format(" deqscale={}", op.scalar) : std::string());
    case VecOp::Compare:
    case VecOp::CompareToCmpMask: return fmt::format(" cmp={}", cmp_mode_name(op.cmp));
    case VecOp::CompareScalar:
      return fmt::format(" cmp={} scalar={}", cmp_mode_name(op.cmp), op.scalar);
    case VecOp::Select:
      return fmt::format(" sel={} src2=UB:0x{:x}{}", sel_mode_name(op.sel), op.src2,
                         op.sel == SelMode::TensorScalar ? fmt::format(" scalar={}", op.scalar)
                                                         : std::string());
    case VecOp::LeakyRelu:
    case VecOp::Axpy:
    case VecOp::Maxs:
    case VecOp::Mins:
    case VecOp::ShiftLeft: return fmt::format(" scalar={}", op.scalar);
    case VecOp::ShiftRight: return fmt::format(" scalar={} roundEn={}", op.scalar, op.round_shift);
    case VecOp::GatherMask:
      return fmt::format(" pattern={} reduceMode={}", op.gather_pattern == 0 ? std::string("src1")
                                                                            : std::to_string(op.gather_pattern),
                         op.counter_mode);
    case VecOp::ReduceMax:
    case VecOp::ReduceMin:
    case VecOp::WholeReduceMax:
    case VecOp::WholeReduceMin: return fmt::format(" order={}", reduce_order_name(op.order));
    case VecOp::ProposalConcat:
    case VecOp::ProposalExtract: return fmt::format(" modeNumber={}", op.proposal_field);
    default: return {};
  }
}

namespace vector {
namespace {

constexpr uint32_t kMaxRepeat = 255;
constexpr uint32_t kMaxReduceRepeat = 0x7fffffff;  // Ascend C: "any int32_t" for ReduceSum/Max/Min

bool is_float(DType t) { return t == DType::F16 || t == DType::F32; }

// Legal (op, dtype) pairs, following Ascend C (A2). Cast is checked by cast_modes()
// (vector_cast.cpp).
bool dtype_legal(VecOp op, DType t) {
  const bool f = is_float(t);
  const bool arith = f || t == DType::S16 || t == DType::S32;
  const bool b16_b32 = f || t == DType::BF16 || t == DType::S16 || t == DType::U16 ||
                       t == DType::S32 || t == DType::U32;
  switch (op) {
    case VecOp::Add:
    case VecOp::Sub:
    case VecOp::Mul:
    case VecOp::Max:
    case VecOp::Min:
    case VecOp::Adds:
    case VecOp::Muls:
    case VecOp::Maxs:
    case VecOp::Mins: return arith;
    case VecOp::ShiftLeft:
    case VecOp::ShiftRight: return t == DType::S16 || t == DType::U16 || t == DType::S32 || t == DType::U32;
    case VecOp::Copy:
    case VecOp::GatherMask: return b16_b32;
    case VecOp::Scatter: return t == DType::F16 || t == DType::U16 || t == DType::F32 || t == DType::U32;
    case VecOp::Div:
    case VecOp::Axpy:
    case VecOp::Abs:
    case VecOp::Exp:
    case VecOp::Ln:
    case VecOp::Sqrt:
    case VecOp::Rsqrt:
    case VecOp::Reciprocal:
    case VecOp::LeakyRelu:
    case VecOp::Compare:
    case VecOp::CompareScalar:
    case VecOp::CompareToCmpMask:
    case VecOp::Select:
    case VecOp::ReduceSum:
    case VecOp::ReduceMax:
    case VecOp::ReduceMin:
    case VecOp::WholeReduceSum:
    case VecOp::WholeReduceMax:
    case VecOp::WholeReduceMin:
    case VecOp::BlockReduceSum:
    case VecOp::BlockReduceMax:
    case VecOp::BlockReduceMin:
    case VecOp::PairReduceSum:
    case VecOp::Sort32:
    case VecOp::MrgSort:
    case VecOp::MulAddDst:
    case VecOp::FusedMulAdd:
    case VecOp::FusedMulAddRelu:
    case VecOp::RpSort16:
    case VecOp::MrgSort4:
    case VecOp::ProposalConcat:
    case VecOp::ProposalExtract: return t == DType::F16 || t == DType::F32;
    case VecOp::Relu: return f || t == DType::S32;
    case VecOp::Not:
    case VecOp::And:
    case VecOp::Or: return t == DType::S16 || t == DType::U16;
    case VecOp::Duplicate:
    case VecOp::Brcb:
    case VecOp::Gather: return b16_b32;
    case VecOp::Transpose: return t == DType::F16 || t == DType::S16 || t == DType::U16;
    case VecOp::Cast:
    case VecOp::SetCmpMask:
    case VecOp::GetCmpMask: return true;
  }
  return false;
}

// Highest touched block of a strided operand whose blocks hold `epb` elements, in 32 B
// units from its base; false if none is touched. Only blocks holding at least one enabled
// element are read or written. Strides are non-negative, so the highest block is in the last
// executed repeat or, when that repeat is partial (counter mode), possibly in the one before.
bool highest_block(const VectorOp& op, unsigned epr, unsigned epb, uint32_t rep_stride,
                   uint32_t blk_stride, uint64_t* units) {
  const MaskPlan plan{op, epr};
  const uint32_t runs = plan.repeats();
  if (runs == 0) return false;
  const unsigned nblk = epr / epb;
  bool any = false;
  uint64_t best = 0;
  for (uint32_t r = runs >= 2 ? runs - 2 : 0; r < runs; ++r) {
    const ElemMask m = plan.mask(r);
    for (unsigned b = nblk; b-- > 0;) {
      if (block_bits(m, b, epb) == 0) continue;
      const uint64_t u = static_cast<uint64_t>(r) * rep_stride + static_cast<uint64_t>(b) * blk_stride;
      best = any ? std::max(best, u) : u;
      any = true;
      break;
    }
  }
  *units = best;
  return any;
}

// ---- check() helpers: every UB range an instruction touches.

struct Access {
  const char* name;
  uint64_t addr;
  uint64_t align;
  bool touched;      // false: nothing is read or written (nothing enabled)
  uint64_t end;      // bytes from addr to one past the last byte touched
  bool block_style;  // strided operand: report the offending 32 B block
  // A strided operand's geometry (esize 0: none), for VectorUnit::exact_operand_bytes.
  uint32_t rep = 0, blk = 0;
  unsigned esize = 0;
};

Access strided_access(const char* name, const VectorOp& op, const Strided& s, unsigned epr,
                      unsigned esize) {
  uint64_t units = 0;
  const bool touched = highest_block(op, epr, 32 / esize, s.rep, s.blk, &units);
  return {name, s.base, kBlockBytes, touched, units * kBlockBytes + kBlockBytes, true, s.rep, s.blk, esize};
}

Access bytes_access(const char* name, uint64_t addr, uint64_t align, bool touched, uint64_t end) {
  return {name, addr, align, touched, end, false};
}

std::vector<Access> accesses(const VectorOp& op) {
  const unsigned epr = VectorUnit::repeat_elems(op);
  const unsigned size = dtype_size(op.dtype);
  const MaskPlan plan{op, epr};
  const uint32_t runs = plan.repeats();
  const bool any = plan.any();
  // Gather's and Scatter's offsets: the logical index r * epr + i of the last enabled element.
  auto last_enabled = [&]() -> uint64_t {
    if (!any) return 0;
    const ElemMask m = plan.mask(runs - 1);
    unsigned hi = 0;
    for (unsigned i = 0; i < epr; ++i) {
      if (m.test(i)) hi = i;
    }
    return uint64_t(runs - 1) * epr + hi;
  };
  std::vector<Access> list;
  switch (op.op) {
    case VecOp::Compare:
    case VecOp::CompareScalar:
      list.push_back(bytes_access("dst", op.dst, kBlockBytes, any, uint64_t(runs) * epr / 8));
      list.push_back(strided_access("src0", op, src0_of(op), epr, size));
      if (op.op == VecOp::Compare) list.push_back(strided_access("src1", op, src1_of(op), epr, size));
      break;
    case VecOp::CompareToCmpMask:
      list.push_back(strided_access("src0", op, src0_of(op), epr, size));
      list.push_back(strided_access("src1", op, src1_of(op), epr, size));
      break;
    case VecOp::SetCmpMask:
      list.push_back(bytes_access("src0", op.src0, kBlockBytes, op.repeat > 0, 16));
      break;
    case VecOp::GetCmpMask:
      list.push_back(bytes_access("dst", op.dst, kBlockBytes, op.repeat > 0, 16));
      break;
    case VecOp::Select:
      list.push_back(strided_access("dst", op, dst_of(op), epr, size));
      list.push_back(strided_access("src0", op, src0_of(op), epr, size));
      if (op.sel != SelMode::TensorScalar) list.push_back(strided_access("src1", op, src1_of(op), epr, size));
      if (op.sel != SelMode::CmpMaskSpr) {
        list.push_back(bytes_access("src2", op.src2, kBlockBytes, any, uint64_t(runs) * epr / 8));
      }
      break;
    case VecOp::ReduceSum:
    case VecOp::ReduceMax:
    case VecOp::ReduceMin: {
      const uint64_t rec = record_elems(op) * size;
      list.push_back(bytes_access("dst", op.dst, rec, any, rec));
      list.push_back(strided_access("src0", op, src0_of(op), epr, size));
      break;
    }
    case VecOp::WholeReduceSum:
    case VecOp::WholeReduceMax:
    case VecOp::WholeReduceMin: {
      const uint64_t rec = record_elems(op) * size;
      const uint64_t end = runs == 0 ? 0 : (uint64_t(runs - 1) * op.dst_rep_stride + 1) * rec;
      list.push_back(bytes_access("dst", op.dst, size, any, end));
      list.push_back(strided_access("src0", op, src0_of(op), epr, size));
      break;
    }
    case VecOp::BlockReduceSum:
    case VecOp::BlockReduceMax:
    case VecOp::BlockReduceMin: {
      // One result per block with an enabled element: the same layout as a strided operand
      // whose "blocks" are single elements and whose repeats are 8 elements apart per unit.
      uint64_t top = 0;
      bool touched = false;
      for (uint32_t r = runs >= 2 ? runs - 2 : 0; r < runs; ++r) {
        const ElemMask m = plan.mask(r);
        for (unsigned b = kBlocksPerRepeat; b-- > 0;) {
          if (block_bits(m, b, 32 / size) == 0) continue;
          const uint64_t slot = uint64_t(r) * op.dst_rep_stride * 8 + b;
          top = touched ? std::max(top, slot) : slot;
          touched = true;
          break;
        }
      }
      list.push_back(bytes_access("dst", op.dst, 8 * size, touched, (top + 1) * size));
      list.push_back(strided_access("src0", op, src0_of(op), epr, size));
      break;
    }
    case VecOp::Sort32: {
      const uint64_t n = op.repeat;
      list.push_back(bytes_access("dst", op.dst, kBlockBytes, n > 0, n * 32 * 8));
      list.push_back(bytes_access("src0", op.src0, kBlockBytes, n > 0, n * 32 * size));
      list.push_back(bytes_access("src1", op.src1, kBlockBytes, n > 0, n * 32 * 4));
      break;
    }
    case VecOp::MrgSort: {
      const MrgSortFields f = mrg_sort_fields(op);
      const uint64_t n = op.repeat;
      list.push_back(bytes_access("dst", op.dst, kBlockBytes, n > 0 && f.total() > 0, n * f.total() * 8));
      static const char* const names[4] = {"src1", "src2", "src3", "src4"};  // as MrgSortSrcList names them
      for (unsigned q = 0; q < 4; ++q) {
        if (!((f.valid >> q) & 1)) continue;
        // With repeats the queues are contiguous: the last one runs through every repeat.
        const uint64_t end = (n > 1 ? (n - 1) * f.total() * 8 : 0) + uint64_t(f.length[q]) * 8;
        list.push_back(bytes_access(names[q], f.queue[q], 8, n > 0 && f.length[q] > 0, end));
      }
      break;
    }
    case VecOp::RpSort16: {
      const uint64_t n = op.repeat, rp = 8 * size;
      list.push_back(bytes_access("dst", op.dst, kBlockBytes, n > 0, n * 16 * rp));
      list.push_back(bytes_access("src0", op.src0, kBlockBytes, n > 0, n * 16 * rp));
      break;
    }
    case VecOp::ProposalConcat:
    case VecOp::ProposalExtract: {
      const uint64_t n = op.repeat, rp = 8 * size;
      const bool concat = op.op == VecOp::ProposalConcat;
      list.push_back(bytes_access("dst", op.dst, kBlockBytes, n > 0, n * 16 * (concat ? rp : size)));
      list.push_back(bytes_access("src0", op.src0, kBlockBytes, n > 0, n * 16 * (concat ? size : rp)));
      break;
    }
    case VecOp::MrgSort4: {
      // MrgSort4.md: queues and dst 16 B aligned for half, 32 B for float (one proposal).
      const MrgSortFields f = mrg_sort_fields(op);
      const uint64_t n = op.repeat, rp = 8 * size;
      list.push_back(bytes_access("dst", op.dst, rp, n > 0 && f.total() > 0, n * f.total() * rp));
      static const char* const names[4] = {"src1", "src2", "src3", "src4"};
      for (unsigned q = 0; q < 4; ++q) {
        if (!((f.valid >> q) & 1)) continue;
        const uint64_t end = ((n > 1 ? (n - 1) * f.total() : 0) + f.length[q]) * rp;
        list.push_back(bytes_access(names[q], f.queue[q], rp, n > 0 && f.length[q] > 0, end));
      }
      break;
    }
    case VecOp::PairReduceSum: {
      // 128 B of results per repeat, dst_rep_stride of them apart; 32 B aligned.
      const uint64_t end = runs == 0 ? 0 : (uint64_t(runs - 1) * op.dst_rep_stride + 1) * 128;
      list.push_back(bytes_access("dst", op.dst, kBlockBytes, any, end));
      list.push_back(strided_access("src0", op, src0_of(op), epr, size));
      break;
    }
    case VecOp::Brcb: {
      const bool touched = op.repeat > 0;
      const uint64_t top =
          touched ? uint64_t(op.repeat - 1) * op.dst_rep_stride + 7ull * op.dst_blk_stride : 0;
      list.push_back({"dst", op.dst, kBlockBytes, touched, top * kBlockBytes + kBlockBytes, true});
      list.push_back(bytes_access("src0", op.src0, kBlockBytes, touched, uint64_t(op.repeat) * 8 * size));
      break;
    }
    case VecOp::Transpose:
      list.push_back(bytes_access("dst", op.dst, kBlockBytes, op.repeat > 0, 512));
      list.push_back(bytes_access("src0", op.src0, kBlockBytes, op.repeat > 0, 512));
      break;
    case VecOp::Gather: {
      list.push_back(strided_access("dst", op, dst_of(op), epr, size));
      // Offsets of enabled elements, 4 B each.
      list.push_back(bytes_access("src1", op.src1, kBlockBytes, any, (last_enabled() + 1) * 4));
      // src0 is the base of data-dependent reads: execute() bounds them.
      list.push_back(bytes_access("src0", op.src0, size, false, 0));
      break;
    }
    case VecOp::GatherMask: {
      // Element i of repeat r is read from block r * repStride + (i / epb) * blkStride; what
      // is written depends on the pattern's bits, so execute() bounds dst.
      const uint64_t n = op.counter_mode ? op.mask_lo : epr;
      const bool touched = op.repeat > 0 && n > 0;
      const uint64_t top = touched ? uint64_t(op.repeat - 1) * op.src0_rep_stride +
                                         (n - 1) / (32 / size) * uint64_t(op.src0_blk_stride)
                                   : 0;
      list.push_back({"src0", op.src0, kBlockBytes, touched, top * kBlockBytes + kBlockBytes, true});
      if (op.gather_pattern == 0) {
        const uint64_t end = touched ? uint64_t(op.repeat - 1) * op.src1_rep_stride * kBlockBytes + (n + 7) / 8 : 0;
        list.push_back(bytes_access("src1", op.src1, kBlockBytes, touched, end));
      }
      list.push_back(bytes_access("dst", op.dst, kBlockBytes, false, 0));
      break;
    }
    case VecOp::Scatter: {
      list.push_back(strided_access("src0", op, src0_of(op), epr, size));
      list.push_back(bytes_access("src1", op.src1, kBlockBytes, any, (last_enabled() + 1) * 4));
      // dst (the tensor plus dstBaseAddr) is the base of data-dependent writes: execute()
      // bounds them.
      list.push_back(bytes_access("dst", op.dst, size, false, 0));
      break;
    }
    case VecOp::Cast:
      list.push_back(strided_access("dst", op, dst_of(op), epr, dtype_size(op.dst_dtype)));
      list.push_back(strided_access("src0", op, src0_of(op), epr, size));
      break;
    default: {
      const int sources = vec_op_sources(op.op);
      list.push_back(strided_access("dst", op, dst_of(op), epr, size));
      if (sources >= 1) list.push_back(strided_access("src0", op, src0_of(op), epr, size));
      if (sources >= 2) list.push_back(strided_access("src1", op, src1_of(op), epr, size));
      break;
    }
  }
  return list;
}

}  // namespace

[[noreturn]] void unsupported(const VectorOp& op) {
  throw std::logic_error(fmt::format("VectorUnit::execute: {} does not support {}",
                                     vec_op_name(op.op), dtype_name(op.dtype)));
}

}  // namespace vector

unsigned VectorUnit::repeat_elems(const VectorOp& op) {
  unsigned wide = dtype_size(op.dtype);
  if (op.op == VecOp::Cast) wide = std::max(wide, dtype_size(op.dst_dtype));
  return 256 / wide;
}

uint32_t VectorUnit::max_repeat(VecOp op) {
  if (vector::is_reduce(op)) return vector::kMaxReduceRepeat;
  if (op == VecOp::Transpose || op == VecOp::CompareToCmpMask || op == VecOp::SetCmpMask ||
      op == VecOp::GetCmpMask) {
    return 1;
  }
  return vector::kMaxRepeat;
}

VectorOp VectorUnit::advance(const VectorOp& op, uint32_t repeats) {
  VectorOp v = op;
  const uint64_t k = repeats;
  const unsigned epr = repeat_elems(op);
  const uint64_t size = dtype_size(op.dtype);
  auto strided = [k](uint64_t& base, uint32_t rep_stride) {
    base += k * rep_stride * vector::kBlockBytes;
  };
  switch (op.op) {
    case VecOp::Compare:
    case VecOp::CompareScalar:
      v.dst += k * epr / 8;
      strided(v.src0, op.src0_rep_stride);
      strided(v.src1, op.src1_rep_stride);
      break;
    case VecOp::Select:
      strided(v.dst, op.dst_rep_stride);
      strided(v.src0, op.src0_rep_stride);
      strided(v.src1, op.src1_rep_stride);
      if (op.sel != SelMode::CmpMaskSpr) v.src2 += k * epr / 8;  // mode 0 reuses its bits
      break;
    case VecOp::ReduceSum:
    case VecOp::ReduceMax:
    case VecOp::ReduceMin: strided(v.src0, op.src0_rep_stride); break;
    case VecOp::WholeReduceSum:
    case VecOp::WholeReduceMax:
    case VecOp::WholeReduceMin:
      v.dst += k * op.dst_rep_stride * vector::record_elems(op) * size;
      strided(v.src0, op.src0_rep_stride);
      break;
    case VecOp::BlockReduceSum:
    case VecOp::BlockReduceMax:
    case VecOp::BlockReduceMin:
      v.dst += k * op.dst_rep_stride * 8 * size;
      strided(v.src0, op.src0_rep_stride);
      break;
    case VecOp::PairReduceSum:
      v.dst += k * op.dst_rep_stride * 128;
      strided(v.src0, op.src0_rep_stride);
      break;
    case VecOp::Sort32:
      v.dst += k * 32 * 8;
      v.src0 += k * 32 * size;
      v.src1 += k * 32 * 4;
      break;
    case VecOp::MrgSort:
    case VecOp::MrgSort4: {  // records of 8 B, or proposals of 8 elements
      const uint64_t record = op.op == VecOp::MrgSort4 ? 8 * size : 8;
      const uint64_t step = k * vector::mrg_sort_fields(op).total() * record;
      v.dst += step;
      v.src0 += step;
      v.src1 += step;
      v.src2 += step;
      v.src3 += step;
      break;
    }
    case VecOp::Brcb:
      strided(v.dst, op.dst_rep_stride);
      v.src0 += k * 8 * size;
      break;
    case VecOp::RpSort16:
      v.dst += k * 16 * 8 * size;
      v.src0 += k * 16 * 8 * size;
      break;
    case VecOp::ProposalConcat:
      v.dst += k * 16 * 8 * size;
      v.src0 += k * 16 * size;
      break;
    case VecOp::ProposalExtract:
      v.dst += k * 16 * size;
      v.src0 += k * 16 * 8 * size;
      break;
    case VecOp::Gather:
      strided(v.dst, op.dst_rep_stride);
      v.src1 += k * epr * 4;
      break;
    case VecOp::Scatter:
      strided(v.src0, op.src0_rep_stride);
      v.src1 += k * epr * 4;
      break;
    case VecOp::Transpose:
    case VecOp::SetCmpMask:
    case VecOp::GetCmpMask:
    case VecOp::CompareToCmpMask: break;
    default:
      strided(v.dst, op.dst_rep_stride);
      strided(v.src0, op.src0_rep_stride);
      strided(v.src1, op.src1_rep_stride);
      break;
  }
  return v;
}

std::vector<VectorUnit::OperandBytes> VectorUnit::operand_bytes(const VectorOp& op) {
  std::vector<OperandBytes> out;
  for (const vector::Access& a : vector::accesses(op)) {
    const bool write = a.name[0] == 'd';  // "dst"; the rest are sources
    if (op.op == VecOp::Gather && !write && a.name[3] == '0') {
      out.push_back({0, ~0ull, false});  // its reads are data: anywhere in UB
    } else if (a.touched) {
      out.push_back({a.addr, a.addr > ~0ull - a.end ? ~0ull : a.addr + a.end, write});
    }
  }
  return out;
}

void VectorUnit::exact_operand_bytes(const VectorOp& op, std::vector<ExactBytes>& out) {
  out.clear();
  const unsigned epr = repeat_elems(op);
  const vector::MaskPlan plan{op, epr};
  const uint32_t runs = plan.repeats();
  // Results a record or a 128 B group apart: contiguous only with a repeat stride of one.
  const bool strided_dst = (vector::is_whole_reduce(op.op) || op.op == VecOp::PairReduceSum) && op.dst_rep_stride > 1;
  for (const vector::Access& a : vector::accesses(op)) {
    const bool write = a.name[0] == 'd';
    if (op.op == VecOp::Gather && !write && a.name[3] == '0') {
      out.push_back({0, ~0ull, false, false});
      continue;
    }
    if (!a.touched) continue;
    if (a.esize == 0) {
      const uint64_t end = a.addr > ~0ull - a.end ? ~0ull : a.addr + a.end;
      out.push_back({a.addr, end, write, !a.block_style && !(write && strided_dst)});
      continue;
    }
    // A strided operand: the enabled elements of each repeat's blocks.
    const size_t first = out.size();
    const unsigned epb = 32 / a.esize, nblk = epr / epb;
    const uint64_t full = epb >= 64 ? ~0ull : (1ull << epb) - 1;
    for (uint32_t r = 0; r < runs; ++r) {
      const vector::ElemMask m = plan.mask(r);
      for (unsigned b = 0; b < nblk; ++b) {
        const uint64_t bits = vector::block_bits(m, b, epb);
        if (bits == 0) continue;
        const uint64_t base = a.addr + (uint64_t(r) * a.rep + uint64_t(b) * a.blk) * vector::kBlockBytes;
        if (bits == full) {
          if (out.size() > first && out.back().end == base) {
            out.back().end = base + vector::kBlockBytes;
          } else {
            out.push_back({base, base + vector::kBlockBytes, write, true});
          }
          continue;
        }
        for (unsigned i = 0; i < epb;) {
          if (!((bits >> i) & 1)) {
            ++i;
            continue;
          }
          unsigned j = i;
          while (j < epb && ((bits >> j) & 1)) ++j;
          out.push_back({base + i * a.esize, base + j * a.esize, write, true});
          i = j;
        }
      }
    }
    // Strides may run backwards or overlap (repeat stride 0): sort and merge this operand's.
    auto begin = out.begin() + std::ptrdiff_t(first);
    if (!std::is_sorted(begin, out.end(), [](const ExactBytes& x, const ExactBytes& y) { return x.begin < y.begin; })) {
      std::sort(begin, out.end(), [](const ExactBytes& x, const ExactBytes& y) { return x.begin < y.begin; });
    }
    size_t w = first;
    for (size_t i = first + 1; i < out.size(); ++i) {
      if (out[i].begin <= out[w].end) {
        out[w].end = std::max(out[w].end, out[i].end);
      } else {
        out[++w] = out[i];
      }
    }
    out.resize(out.size() > first ? w + 1 : first);
  }
}

std::string VectorUnit::check(const VectorOp& op, uint64_t ub_size) const {
  checked_ub_size_ = ub_size;
  const uint32_t max = max_repeat(op.op);
  if (op.repeat > max) {
    if (max == 1) {
      return fmt::format("{} runs once: repeat {} out of range [0, 1]", vec_op_name(op.op), op.repeat);
    }
    return fmt::format("repeat {} out of range [0, {}]", op.repeat, max);
  }
  if (op.op == VecOp::Cast) {
    const unsigned modes = vector::cast_modes(op.dtype, op.dst_dtype);
    if (modes == 0) {
      return fmt::format("Cast does not support {}->{}", dtype_name(op.dtype), dtype_name(op.dst_dtype));
    }
    if ((modes & vector::bit(op.round)) == 0) {
      return fmt::format("Cast {}->{} does not support {}", dtype_name(op.dtype),
                         dtype_name(op.dst_dtype), round_mode_name(op.round));
    }
    if (op.deq && !(op.dtype == DType::S32 && op.dst_dtype == DType::F16)) {
      return fmt::format("deq mode is s32->f16 only, not {}->{}", dtype_name(op.dtype), dtype_name(op.dst_dtype));
    }
  } else if (!vector::dtype_legal(op.op, op.dtype)) {
    return fmt::format("{} does not support {}", vec_op_name(op.op), dtype_name(op.dtype));
  }
  if ((op.op == VecOp::ShiftLeft || op.op == VecOp::ShiftRight) &&
      (op.scalar < 0 || op.scalar > 8.0 * dtype_size(op.dtype))) {
    return fmt::format("shift {} out of range [0, {}] for {}", op.scalar, 8 * dtype_size(op.dtype),
                       dtype_name(op.dtype));
  }
  if (op.op == VecOp::GatherMask) {
    if (op.gather_pattern > 7) return fmt::format("src1Pattern {} out of range [1, 7]", op.gather_pattern);
    if (op.counter_mode && (op.mask_lo < 1 || op.mask_lo > 0xffffffffull)) {
      return fmt::format("reduceMode mask {} out of range [1, 2^32 - 1]", op.mask_lo);
    }
  }
  if (vector::is_reduce(op.op) && op.op != VecOp::ReduceSum &&
      op.order != ReduceOrder::ValueIndex && op.order != ReduceOrder::OnlyValue) {
    return fmt::format("{} stores ORDER_VALUE_INDEX or ORDER_ONLY_VALUE, not {}",
                       vec_op_name(op.op), reduce_order_name(op.order));
  }
  if (op.op == VecOp::Sort32 || op.op == VecOp::MrgSort) {
    if (std::string why = vector::sort_check(op); !why.empty()) return why;
  }
  if (vector::is_proposal(op.op)) {
    if (std::string why = vector::proposal_check(op); !why.empty()) return why;
  }
  const std::vector<vector::Access> list = vector::accesses(op);
  for (const vector::Access& a : list) {
    if (a.addr % a.align != 0) {
      return fmt::format("{} address {:#x} not {} B aligned", a.name, a.addr, a.align);
    }
  }
  const unsigned epr = repeat_elems(op);
  if (!vector::ignores_mask(op.op)) {
    if (!op.counter_mode && epr <= 64 && op.mask_hi != 0) {
      const std::string types =
          op.op == VecOp::Cast ? fmt::format("{}->{}", dtype_name(op.dtype), dtype_name(op.dst_dtype))
                               : std::string(dtype_name(op.dtype));
      return fmt::format("mask_hi must be 0 for {} (mask high word is {:#x})", types, op.mask_hi);
    }
    if (op.counter_mode && op.mask_lo > static_cast<uint64_t>(op.repeat) * epr) {
      return fmt::format("counter mask {} exceeds repeat * elements per repeat ({} * {} = {})",
                         op.mask_lo, op.repeat, epr, static_cast<uint64_t>(op.repeat) * epr);
    }
  }
  if ((op.op == VecOp::ReduceMax || op.op == VecOp::ReduceMin) && op.dtype == DType::F16 &&
      op.order == ReduceOrder::ValueIndex) {
    const vector::MaskPlan plan{op, epr};
    const uint64_t elems = static_cast<uint64_t>(plan.repeats()) * epr;
    if (elems > 65536) {
      return fmt::format("{} over {} f16 elements: an index above 65535 does not fit the 16-bit "
                         "index slot", vec_op_name(op.op), elems);
    }
  }
  for (const vector::Access& a : list) {
    if (!a.touched) continue;
    // end < 2^45, so only a huge base address can overflow; then name the base instead.
    const uint64_t last = a.block_style ? a.end - vector::kBlockBytes : a.end;
    const bool overflow = a.addr > ~0ull - a.end;
    if (a.block_style) {
      const uint64_t block = overflow ? a.addr : a.addr + last;
      if (overflow || block + vector::kBlockBytes > ub_size) {
        return fmt::format("{} block at {:#x} (32 B) beyond UB size {:#x}", a.name, block, ub_size);
      }
    } else if (overflow || a.addr + a.end > ub_size) {
      return fmt::format("{} bytes [{:#x}, {:#x}) beyond UB size {:#x}", a.name, a.addr,
                         overflow ? ~0ull : a.addr + a.end, ub_size);
    }
  }
  return {};
}

uint64_t VectorUnit::cost(const VectorOp& op) const {
  if (op.repeat == 0) return params_.head_cycles;
  // A non-positive rate is a configuration error; treat it as the default 1 repeat/cycle
  // rather than dividing by zero. The small epsilon keeps e.g. 3 / 0.1 from rounding up to 31.
  const double rate = params_.repeats_per_cycle > 0 ? params_.repeats_per_cycle : 1.0;
  auto repeats = [rate](uint64_t n) {
    return static_cast<uint64_t>(std::max(std::ceil(static_cast<double>(n) / rate - 1e-9), 1.0));
  };
  // MrgSort moves its records at 256 B (32 records) per repeat's time.
  uint64_t work = op.op == VecOp::MrgSort
                      ? std::max<uint64_t>(1, (vector::mrg_sort_fields(op).total() * op.repeat + 31) / 32)
                      : op.repeat;
  // MrgSort4 likewise at 256 B of proposals (16 half or 8 float ones) per repeat's time.
  if (op.op == VecOp::MrgSort4) {
    const uint64_t per = 256 / (8 * dtype_size(op.dtype));
    work = std::max<uint64_t>(1, (vector::mrg_sort_fields(op).total() * op.repeat + per - 1) / per);
  }
  if (op.op == VecOp::GatherMask && op.counter_mode) {
    // reduceMode: a repeat of mask_lo elements takes as long as the 256 B repeats it spans.
    const uint64_t epr = repeat_elems(op);
    work *= std::max<uint64_t>(1, (op.mask_lo + epr - 1) / epr);
  }
  uint64_t cycles = params_.head_cycles + repeats(work);
  if (vector::is_reduce(op.op)) {
    // Ascend C reduces the per-repeat results again, one repeat per 256 B of them, until one
    // is left: every further round is another instruction.
    const uint64_t epr = repeat_elems(op);
    for (uint64_t n = op.repeat; n > 1;) {
      n = (n + epr - 1) / epr;
      cycles += params_.head_cycles + repeats(n);
    }
  }
  return cycles;
}

void VectorUnit::execute(const VectorOp& op, uint8_t* ub, uint64_t ub_size) {
  if (op.repeat == 0) {
    if (op.op == VecOp::GatherMask) gather_mask_count_ = 0;
    return;
  }
  switch (op.op) {
    case VecOp::Cast: return vector::execute_cast(op, ub);
    case VecOp::SetCmpMask: std::memcpy(cmp_mask_.w, ub + op.src0, 16); return;
    case VecOp::GetCmpMask: std::memcpy(ub + op.dst, cmp_mask_.w, 16); return;
    case VecOp::Transpose:
    case VecOp::Brcb:
    case VecOp::Gather:
    case VecOp::Scatter: return vector::execute_rearrange(op, ub, ub_size);
    case VecOp::GatherMask: gather_mask_count_ = vector::execute_gather_mask(op, ub, ub_size); return;
    case VecOp::Compare:
    case VecOp::CompareScalar:
    case VecOp::CompareToCmpMask: return vector::execute_compare(op, ub, cmp_mask_);
    case VecOp::Select: return vector::execute_select(op, ub, cmp_mask_);
    case VecOp::ReduceSum:
    case VecOp::ReduceMax:
    case VecOp::ReduceMin:
    case VecOp::WholeReduceSum:
    case VecOp::WholeReduceMax:
    case VecOp::WholeReduceMin:
    case VecOp::BlockReduceSum:
    case VecOp::BlockReduceMax:
    case VecOp::BlockReduceMin:
    case VecOp::PairReduceSum:
      return vector::execute_reduction(op, ub);
    case VecOp::Sort32:
    case VecOp::MrgSort: return vector::execute_sort(op, ub, &mrg_sort_result_);
    case VecOp::RpSort16:
    case VecOp::MrgSort4:
    case VecOp::ProposalConcat:
    case VecOp::ProposalExtract: return vector::execute_proposal(op, ub, &mrg_sort_result_);
    default: return vector::execute_elementwise(op, ub);
  }
}

}  // namespace npuvp::aicore
