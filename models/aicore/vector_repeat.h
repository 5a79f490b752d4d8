// The vector unit's repeat engine and the pieces its instruction families share; private to
// models/aicore/vector_*.cpp (models/aicore/vector_unit.h is the public interface). Every
// vector instruction runs as repeats of 256 B: each repeat reads up to 8 strided 32 B blocks
// per operand and enables elements by a mask (normal or counter mode). Finding a repeat's
// blocks, its enabled elements, and moving blocks between the UB and 256 B temporaries is one
// piece of hardware that every family uses, so it is here once, as inline functions and
// templates that each family's hot loop inlines. The families (elementwise, Cast, Compare and
// Select, reductions, data rearrangement) each have their own .cpp; their entry points are
// declared at the end, and VectorUnit::execute() (vector_unit.cpp) hands each instruction to one.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "models/aicore/isa.h"
#include "models/aicore/vector_unit.h"
#include "models/numerics/fp16.h"

namespace npuvp::aicore::vector {

// ---- Block geometry and operation classes.

constexpr uint64_t kBlockBytes = 32;
constexpr unsigned kBlocksPerRepeat = 8;

inline bool is_reduce(VecOp op) {
  return op == VecOp::ReduceSum || op == VecOp::ReduceMax || op == VecOp::ReduceMin;
}
inline bool is_whole_reduce(VecOp op) {
  return op == VecOp::WholeReduceSum || op == VecOp::WholeReduceMax || op == VecOp::WholeReduceMin;
}
// The region-proposal instructions (vector_proposal.cpp).
inline bool is_proposal(VecOp op) {
  return op == VecOp::RpSort16 || op == VecOp::MrgSort4 || op == VecOp::ProposalConcat ||
         op == VecOp::ProposalExtract;
}
// Operations that take no mask (Ascend C has no mask parameter for them).
inline bool ignores_mask(VecOp op) {
  return op == VecOp::Brcb || op == VecOp::Transpose || op == VecOp::SetCmpMask ||
         op == VecOp::GetCmpMask || op == VecOp::GatherMask ||  // GatherMask: mask_lo is its own
         op == VecOp::Sort32 || op == VecOp::MrgSort || is_proposal(op);
}
// Elements in one result record of a reduction: value and index, or just one of them. An
// index alone is a u32 whatever the dtype (ReduceRepeat.md, table 3: ORDER_ONLY_INDEX of
// half is 4 B aligned and strided), so two f16 slots.
inline unsigned record_elems(const VectorOp& op) {
  if (op.op == VecOp::ReduceSum || op.op == VecOp::WholeReduceSum) return 1;
  if (op.order == ReduceOrder::OnlyIndex) return op.dtype == DType::F16 ? 2 : 1;
  return op.order == ReduceOrder::ValueIndex || op.order == ReduceOrder::IndexValue ? 2 : 1;
}

// ---- Masks and blocks.

// The enabled elements of one repeat as a 128-bit set; w[0] holds elements 0..63.
struct ElemMask {
  uint64_t w[2] = {0, 0};
  bool test(unsigned i) const { return (w[i / 64] >> (i % 64)) & 1u; }
  bool any() const { return (w[0] | w[1]) != 0; }
};

inline ElemMask first_n(uint64_t n) {
  ElemMask m;
  m.w[0] = n >= 64 ? ~0ull : (1ull << n) - 1;
  m.w[1] = n <= 64 ? 0 : n >= 128 ? ~0ull : (1ull << (n - 64)) - 1;
  return m;
}

// Block b's element bits, right-aligned. Blocks hold at most 32 elements of the legal types
// and start at multiples of their size, so they never straddle the two words.
inline uint64_t block_bits(const ElemMask& m, unsigned b, unsigned epb) {
  const unsigned first = b * epb;
  const uint64_t all = epb >= 64 ? ~0ull : (1ull << epb) - 1;
  return (m.w[first / 64] >> (first % 64)) & all;
}

// Which repeats execute and which elements each enables.
struct MaskPlan {
  const VectorOp& op;
  unsigned epr;  // elements per repeat

  // Counter mode stops once the element count is used up; `repeat` bounds it either way.
  uint32_t repeats() const {
    if (!op.counter_mode || ignores_mask(op.op)) return op.repeat;
    const uint64_t needed = op.mask_lo / epr + (op.mask_lo % epr != 0 ? 1 : 0);
    return static_cast<uint32_t>(std::min<uint64_t>(op.repeat, needed));
  }

  ElemMask mask(uint32_t r) const {
    if (ignores_mask(op.op)) return first_n(epr);
    if (op.counter_mode) {
      const uint64_t done = static_cast<uint64_t>(r) * epr;
      return first_n(op.mask_lo > done ? std::min<uint64_t>(epr, op.mask_lo - done) : 0);
    }
    ElemMask m;
    m.w[0] = epr >= 64 ? op.mask_lo : op.mask_lo & ((1ull << epr) - 1);
    m.w[1] = epr > 64 ? op.mask_hi : 0;  // 64-element repeats: the high word is unused
    return m;
  }

  // True if some executed repeat enables an element.
  bool any() const {
    const uint32_t runs = repeats();
    return runs > 0 && mask(runs - 1).any();  // normal: all equal; counter: the last is non-empty
  }
};

// Byte address of block b of repeat r for an operand.
inline uint64_t block_addr(uint64_t base, uint32_t rep_stride, uint32_t blk_stride, uint64_t r,
                           unsigned b) {
  return base + (r * rep_stride + static_cast<uint64_t>(b) * blk_stride) * kBlockBytes;
}

struct Strided {
  uint64_t base;
  uint32_t rep, blk;
  uint64_t at(uint64_t r, unsigned b) const { return block_addr(base, rep, blk, r, b); }
};
inline Strided dst_of(const VectorOp& op) { return {op.dst, op.dst_rep_stride, op.dst_blk_stride}; }
inline Strided src0_of(const VectorOp& op) { return {op.src0, op.src0_rep_stride, op.src0_blk_stride}; }
inline Strided src1_of(const VectorOp& op) { return {op.src1, op.src1_rep_stride, op.src1_blk_stride}; }

// ---- The repeat engine.

// Bit set of the blocks (of an operand with `epb` elements per block, `nblk` blocks per
// repeat) that hold an enabled element; bits[b] receives block b's element bits.
inline unsigned live_blocks(const ElemMask& m, unsigned nblk, unsigned epb, uint64_t* bits) {
  unsigned live = 0;
  for (unsigned b = 0; b < nblk; ++b) {
    bits[b] = block_bits(m, b, epb);
    if (bits[b] != 0) live |= 1u << b;
  }
  return live;
}

// Copies the `live` blocks of repeat r of an operand into tmp (block b at tmp + 32 b).
inline void gather_blocks(const uint8_t* ub, const Strided& s, uint64_t r, unsigned live, void* tmp) {
  for (unsigned b = 0; b < kBlocksPerRepeat; ++b) {
    if (live & (1u << b)) {
      std::memcpy(static_cast<uint8_t*>(tmp) + b * kBlockBytes, ub + s.at(r, b), kBlockBytes);
    }
  }
}

// Writes the enabled elements (esize bytes each) of repeat r from tmp to an operand.
inline void scatter_elems(uint8_t* ub, const Strided& s, uint64_t r, const uint64_t* bits,
                          unsigned nblk, unsigned esize, const void* tmp) {
  const unsigned epb = static_cast<unsigned>(kBlockBytes) / esize;
  const uint64_t full = epb >= 64 ? ~0ull : (1ull << epb) - 1;
  for (unsigned b = 0; b < nblk; ++b) {
    if (bits[b] == 0) continue;
    uint8_t* out = ub + s.at(r, b);
    const uint8_t* in = static_cast<const uint8_t*>(tmp) + b * kBlockBytes;
    if (bits[b] == full) {
      std::memcpy(out, in, kBlockBytes);
    } else {
      for (unsigned j = 0; j < epb; ++j) {
        if ((bits[b] >> j) & 1u) std::memcpy(out + j * esize, in + j * esize, esize);
      }
    }
  }
}

// Runs `kernel(s0, s1, d, r)` once per executed repeat on whole-repeat arrays of T (with
// kSources 3, d holds the destination's values on entry). Only
// blocks with an enabled element are read; the kernel computes all lanes (lanes of unread
// blocks hold stale values and are never written back).
template <typename T, int kSources, typename Kernel>
void run_repeats(const VectorOp& op, uint8_t* ub, Kernel&& kernel) {
  constexpr unsigned epr = 256 / sizeof(T);
  constexpr unsigned epb = 32 / sizeof(T);
  alignas(32) T s0[epr] = {};
  alignas(32) T s1[epr] = {};
  alignas(32) T d[epr] = {};
  const MaskPlan plan{op, epr};
  const uint32_t runs = plan.repeats();
  for (uint32_t r = 0; r < runs; ++r) {
    uint64_t bits[kBlocksPerRepeat];
    const unsigned live = live_blocks(plan.mask(r), kBlocksPerRepeat, epb, bits);
    if (live == 0) continue;
    // Sources first, destination after: overlapping operands see this repeat's inputs.
    if constexpr (kSources >= 1) gather_blocks(ub, src0_of(op), r, live, s0);
    if constexpr (kSources >= 2) gather_blocks(ub, src1_of(op), r, live, s1);
    if constexpr (kSources >= 3) gather_blocks(ub, dst_of(op), r, live, d);  // dst is an input too
    kernel(static_cast<const T*>(s0), static_cast<const T*>(s1), d, r);
    scatter_elems(ub, dst_of(op), r, bits, kBlocksPerRepeat, sizeof(T), d);
  }
}

// ---- Element values shared by the families.

// The dtype's value of a scalar operand, converted once per instruction.
template <typename T>
T scalar_as(double s) {
  if constexpr (std::is_same_v<T, _Float16>) {
    return static_cast<_Float16>(static_cast<float>(s));
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(s);
  } else {
    if (s != s) return 0;
    constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());
    constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());
    if (s <= lo) return std::numeric_limits<T>::min();
    if (s >= hi) return std::numeric_limits<T>::max();
    return static_cast<T>(s);
  }
}

// Widens a repeat's worth of T to float (exactly).
template <typename T, unsigned N>
inline void widen(const T* in, float* out) {
  if constexpr (std::is_same_v<T, _Float16>) {
    f16_to_f32(in, out, N);
  } else {
    std::copy_n(in, N, out);
  }
}

// ---- The instruction families. Each computes an already checked `op` on the UB and raises
// unsupported() for a dtype it has no kernel for.

[[noreturn]] void unsupported(const VectorOp& op);

// vector_elementwise.cpp: Add, Sub, Mul, Div, Max, Min, Adds, Muls, Abs, Relu, Exp, Ln,
// Sqrt, Rsqrt, Reciprocal, LeakyRelu, Not, And, Or, Duplicate.
void execute_elementwise(const VectorOp& op, uint8_t* ub);

// vector_cast.cpp: Cast, and the rounding modes legal for a Cast pair, as a bit set over
// RoundMode (bit(mode)); 0: illegal pair.
constexpr unsigned bit(RoundMode m) { return 1u << static_cast<unsigned>(m); }
unsigned cast_modes(DType s, DType d);
void execute_cast(const VectorOp& op, uint8_t* ub);

// vector_compare.cpp: Compare, CompareScalar and CompareToCmpMask (which sets `cmp_mask`);
// Select (which reads `cmp_mask` in VSEL_CMPMASK_SPR mode).
void execute_compare(const VectorOp& op, uint8_t* ub, VectorUnit::CmpMask& cmp_mask);
void execute_select(const VectorOp& op, uint8_t* ub, const VectorUnit::CmpMask& cmp_mask);

// vector_reduce.cpp: ReduceSum/Max/Min, WholeReduceSum/Max/Min, BlockReduceSum/Max/Min.
void execute_reduction(const VectorOp& op, uint8_t* ub);

// vector_sort.cpp: Sort32 and MrgSort. MrgSort's fields (isa_vector.h) decoded, and why an
// instruction is illegal ("" if it is not).
struct MrgSortFields {
  uint64_t queue[4];
  uint32_t length[4];  // records
  unsigned valid;      // 3, 7 or 15
  bool stop_when_exhausted;
  uint64_t total() const { return uint64_t(length[0]) + length[1] + length[2] + length[3]; }
};
MrgSortFields mrg_sort_fields(const VectorOp& op);
// MrgSort's and MrgSort4's shared rules (validBit, lengths, when repeats are allowed) for
// records of `record_bytes`; "" if they hold.
std::string merge_check(const VectorOp& op, uint64_t record_bytes);
std::string sort_check(const VectorOp& op);
// MrgSort records in `result` how many records it took from each queue (its last repeat).
void execute_sort(const VectorOp& op, uint8_t* ub, VectorUnit::MrgSortResult* result);

// vector_proposal.cpp: RpSort16, MrgSort4 (fields as MrgSort's, records of 8 elements),
// ProposalConcat, ProposalExtract; and why one is illegal ("" if it is not).
std::string proposal_check(const VectorOp& op);
void execute_proposal(const VectorOp& op, uint8_t* ub, VectorUnit::MrgSortResult* result);

// vector_rearrange.cpp: Brcb, Transpose and Gather; Gather's data-dependent source addresses
// are bounded by `ub_size`.
void execute_rearrange(const VectorOp& op, uint8_t* ub, uint64_t ub_size);
// GatherMask (vector_gather_mask.cpp); returns the number of elements kept.
uint64_t execute_gather_mask(const VectorOp& op, uint8_t* ub, uint64_t ub_size);

}  // namespace npuvp::aicore::vector
