// The vector unit (SPEC.md §1.6, docs/vector-isa.md). Each repeat gathers the 32 B blocks of
// its sources into 256 B temporaries, computes the whole repeat with one templated,
// vectorisable loop, and then writes only the enabled destination elements. Repeats run
// strictly in order, which is what makes repeat stride 0, overlapping repeats and in-place
// operands well defined.
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
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "models/numerics/bfloat16.h"
#include "models/numerics/fp16.h"
#include "tlm/log.h"

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
    case VecOp::Gather:  // src0: data base, src1: offsets
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
      return fmt::format(" dst_dtype={} round={}", dtype_name(op.dst_dtype), round_mode_name(op.round));
    case VecOp::Compare:
    case VecOp::CompareToCmpMask: return fmt::format(" cmp={}", cmp_mode_name(op.cmp));
    case VecOp::CompareScalar:
      return fmt::format(" cmp={} scalar={}", cmp_mode_name(op.cmp), op.scalar);
    case VecOp::Select:
      return fmt::format(" sel={} src2=UB:0x{:x}{}", sel_mode_name(op.sel), op.src2,
                         op.sel == SelMode::TensorScalar ? fmt::format(" scalar={}", op.scalar)
                                                         : std::string());
    case VecOp::LeakyRelu: return fmt::format(" scalar={}", op.scalar);
    case VecOp::ReduceMax:
    case VecOp::ReduceMin:
    case VecOp::WholeReduceMax:
    case VecOp::WholeReduceMin: return fmt::format(" order={}", reduce_order_name(op.order));
    default: return {};
  }
}

namespace {

constexpr uint64_t kBlockBytes = 32;
constexpr unsigned kBlocksPerRepeat = 8;
constexpr uint32_t kMaxRepeat = 255;
constexpr uint32_t kMaxReduceRepeat = 0x7fffffff;  // Ascend C: "any int32_t" for ReduceSum/Max/Min

bool is_float(DType t) { return t == DType::F16 || t == DType::F32; }

bool is_reduce(VecOp op) {
  return op == VecOp::ReduceSum || op == VecOp::ReduceMax || op == VecOp::ReduceMin;
}
bool is_whole_reduce(VecOp op) {
  return op == VecOp::WholeReduceSum || op == VecOp::WholeReduceMax || op == VecOp::WholeReduceMin;
}
// Operations that take no mask (Ascend C has no mask parameter for them).
bool ignores_mask(VecOp op) {
  return op == VecOp::Brcb || op == VecOp::Transpose || op == VecOp::SetCmpMask ||
         op == VecOp::GetCmpMask;
}

// Legal (op, dtype) pairs, following Ascend C (A2). Cast is checked by cast_modes().
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
    case VecOp::Muls: return arith;
    case VecOp::Div:
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
    case VecOp::BlockReduceMin: return f;
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

constexpr unsigned bit(RoundMode m) { return 1u << static_cast<unsigned>(m); }
constexpr unsigned kExact = bit(RoundMode::None);  // exact conversions: no rounding to choose
constexpr unsigned kRounded = bit(RoundMode::None) | bit(RoundMode::Rint) | bit(RoundMode::Floor) |
                              bit(RoundMode::Ceil) | bit(RoundMode::Round) | bit(RoundMode::Trunc);
constexpr int cast_key(DType s, DType d) { return static_cast<int>(s) * 16 + static_cast<int>(d); }

// The rounding modes legal for a Cast pair, as a bit set over RoundMode; 0: illegal pair.
// Lossy conversions take CAST_NONE as CAST_RINT (Ascend C's definition of CAST_NONE).
unsigned cast_modes(DType s, DType d) {
  switch (cast_key(s, d)) {
    case cast_key(DType::F16, DType::F32):
    case cast_key(DType::BF16, DType::F32):
    case cast_key(DType::S8, DType::F16):
    case cast_key(DType::U8, DType::F16): return kExact;
    case cast_key(DType::F32, DType::F16): return kRounded | bit(RoundMode::Odd);
    case cast_key(DType::F32, DType::BF16):
    case cast_key(DType::F32, DType::S32):
    case cast_key(DType::S32, DType::F32):
    case cast_key(DType::S32, DType::F16):
    case cast_key(DType::F16, DType::S32):
    case cast_key(DType::F16, DType::S8):
    case cast_key(DType::F16, DType::U8): return kRounded;
    case cast_key(DType::F32, DType::F32): return kRounded & ~kExact;  // round to integral
    default: return 0;
  }
}

// The enabled elements of one repeat as a 128-bit set; w[0] holds elements 0..63.
struct ElemMask {
  uint64_t w[2] = {0, 0};
  bool test(unsigned i) const { return (w[i / 64] >> (i % 64)) & 1u; }
  bool any() const { return (w[0] | w[1]) != 0; }
};

ElemMask first_n(uint64_t n) {
  ElemMask m;
  m.w[0] = n >= 64 ? ~0ull : (1ull << n) - 1;
  m.w[1] = n <= 64 ? 0 : n >= 128 ? ~0ull : (1ull << (n - 64)) - 1;
  return m;
}

// Block b's element bits, right-aligned. Blocks hold at most 32 elements of the legal types
// and start at multiples of their size, so they never straddle the two words.
uint64_t block_bits(const ElemMask& m, unsigned b, unsigned epb) {
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
Strided dst_of(const VectorOp& op) { return {op.dst, op.dst_rep_stride, op.dst_blk_stride}; }
Strided src0_of(const VectorOp& op) { return {op.src0, op.src0_rep_stride, op.src0_blk_stride}; }
Strided src1_of(const VectorOp& op) { return {op.src1, op.src1_rep_stride, op.src1_blk_stride}; }

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

// ---- Element operations. C is the compute type: float for f16/f32, the type itself for
// integers. Integer arithmetic goes through unsigned (at least 32-bit) to wrap without UB.

template <typename T>
using WrapT = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;

template <typename T>
inline T wrap_add(T a, T b) {
  return static_cast<T>(static_cast<WrapT<T>>(static_cast<WrapT<T>>(a) + static_cast<WrapT<T>>(b)));
}
template <typename T>
inline T wrap_sub(T a, T b) {
  return static_cast<T>(static_cast<WrapT<T>>(static_cast<WrapT<T>>(a) - static_cast<WrapT<T>>(b)));
}
template <typename T>
inline T wrap_mul(T a, T b) {
  return static_cast<T>(static_cast<WrapT<T>>(static_cast<WrapT<T>>(a) * static_cast<WrapT<T>>(b)));
}

struct AddOp {
  template <typename C>
  C operator()(C a, C b) const {
    if constexpr (std::is_floating_point_v<C>) return a + b;
    else return wrap_add(a, b);
  }
};
struct SubOp {
  template <typename C>
  C operator()(C a, C b) const {
    if constexpr (std::is_floating_point_v<C>) return a - b;
    else return wrap_sub(a, b);
  }
};
struct MulOp {
  template <typename C>
  C operator()(C a, C b) const {
    if constexpr (std::is_floating_point_v<C>) return a * b;
    else return wrap_mul(a, b);
  }
};
struct DivOp {
  template <typename C>
  C operator()(C a, C b) const { return a / b; }
};
struct MaxOp {
  template <typename C>
  C operator()(C a, C b) const {
    if constexpr (std::is_floating_point_v<C>) {
      if (a != a) return a;  // NaN propagates (first operand wins)
      if (b != b) return b;
      if (a == b) return std::signbit(a) ? b : a;  // +0 > -0
      return a > b ? a : b;
    } else {
      return a > b ? a : b;
    }
  }
};
struct MinOp {
  template <typename C>
  C operator()(C a, C b) const {
    if constexpr (std::is_floating_point_v<C>) {
      if (a != a) return a;
      if (b != b) return b;
      if (a == b) return std::signbit(a) ? a : b;  // -0 < +0
      return a < b ? a : b;
    } else {
      return a < b ? a : b;
    }
  }
};
struct AbsOp {
  float operator()(float a) const { return std::fabs(a); }  // clears the sign bit only
};
struct ReluOp {
  template <typename C>
  C operator()(C a) const { return a > C(0) ? a : C(0); }
};
struct ExpOp {
  float operator()(float a) const { return std::exp(a); }
};
struct LnOp {
  float operator()(float a) const { return std::log(a); }
};
struct SqrtOp {
  float operator()(float a) const { return std::sqrt(a); }
};
struct RsqrtOp {
  // Double sqrt and division are correctly rounded, so one final rounding to float makes
  // the result the same on every IEEE host.
  float operator()(float a) const { return static_cast<float>(1.0 / std::sqrt(static_cast<double>(a))); }
};
struct ReciprocalOp {
  float operator()(float a) const { return 1.0f / a; }
};
struct LeakyReluOp {
  float operator()(float a, float alpha) const { return a >= 0.0f ? a : a * alpha; }
};
struct NotOp {
  template <typename C>
  C operator()(C a) const { return static_cast<C>(~a); }
};
struct AndOp {
  template <typename C>
  C operator()(C a, C b) const { return static_cast<C>(a & b); }
};
struct OrOp {
  template <typename C>
  C operator()(C a, C b) const { return static_cast<C>(a | b); }
};

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

// The unsigned type of an element's bits.
template <unsigned kSize>
using BitsT = std::conditional_t<kSize == 1, uint8_t, std::conditional_t<kSize == 2, uint16_t, uint32_t>>;

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

// Runs `kernel(s0, s1, d, r)` once per executed repeat on whole-repeat arrays of T. Only
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
    kernel(static_cast<const T*>(s0), static_cast<const T*>(s1), d, r);
    scatter_elems(ub, dst_of(op), r, bits, kBlocksPerRepeat, sizeof(T), d);
  }
}

// Whole-repeat kernels. f16 is widened to float, computed, and rounded back in bulk (F16C).
template <typename T, typename Fn>
void run_binary(const VectorOp& op, uint8_t* ub, Fn fn) {
  constexpr unsigned n = 256 / sizeof(T);
  run_repeats<T, 2>(op, ub, [fn](const T* a, const T* b, T* d, uint32_t) {
    if constexpr (std::is_same_v<T, _Float16>) {
      alignas(32) float fa[n], fb[n], fr[n];
      f16_to_f32(a, fa, n);
      f16_to_f32(b, fb, n);
      for (unsigned i = 0; i < n; ++i) fr[i] = fn(fa[i], fb[i]);
      f32_to_f16(fr, d, n);
    } else {
      for (unsigned i = 0; i < n; ++i) d[i] = fn(a[i], b[i]);
    }
  });
}

template <typename T, typename Fn>
void run_unary(const VectorOp& op, uint8_t* ub, Fn fn) {
  constexpr unsigned n = 256 / sizeof(T);
  run_repeats<T, 1>(op, ub, [fn](const T* a, const T*, T* d, uint32_t) {
    if constexpr (std::is_same_v<T, _Float16>) {
      alignas(32) float fa[n], fr[n];
      f16_to_f32(a, fa, n);
      for (unsigned i = 0; i < n; ++i) fr[i] = fn(fa[i]);
      f32_to_f16(fr, d, n);
    } else {
      for (unsigned i = 0; i < n; ++i) d[i] = fn(a[i]);
    }
  });
}

// src0 op scalar; the scalar is converted to the dtype first (then widened for f16).
template <typename T, typename Fn>
void run_scalar(const VectorOp& op, uint8_t* ub, Fn fn) {
  const T s = scalar_as<T>(op.scalar);
  if constexpr (std::is_same_v<T, _Float16>) {
    const float fs = static_cast<float>(s);
    run_unary<T>(op, ub, [fn, fs](float a) { return fn(a, fs); });
  } else {
    run_unary<T>(op, ub, [fn, s](T a) { return fn(a, s); });
  }
}

// Abs on f16 works on the bits so that NaN payloads (signalling ones included) are kept.
void run_abs_f16(const VectorOp& op, uint8_t* ub) {
  run_repeats<uint16_t, 1>(op, ub, [](const uint16_t* a, const uint16_t*, uint16_t* d, uint32_t) {
    for (unsigned i = 0; i < 128; ++i) d[i] = static_cast<uint16_t>(a[i] & 0x7fffu);
  });
}

template <typename T>
void run_fill(const VectorOp& op, uint8_t* ub, T value) {
  run_repeats<T, 0>(op, ub, [value](const T*, const T*, T* d, uint32_t) {
    std::fill_n(d, 256 / sizeof(T), value);
  });
}

[[noreturn]] void unsupported(const VectorOp& op) {
  throw std::logic_error(fmt::format("VectorUnit::execute: {} does not support {}",
                                     vec_op_name(op.op), dtype_name(op.dtype)));
}

// ---- Cast.

// x rounded to an integer in mode m (CAST_NONE is CAST_RINT). The model never changes the
// floating-point environment, so nearbyint rounds to nearest, ties to even.
double round_integral(double x, RoundMode m) {
  switch (m) {
    case RoundMode::Floor: return std::floor(x);
    case RoundMode::Ceil: return std::ceil(x);
    case RoundMode::Round: return std::round(x);  // ties away from zero
    case RoundMode::Trunc: return std::trunc(x);
    case RoundMode::Odd: {  // inexact results take the odd neighbour of the truncation
      const double t = std::trunc(x);
      if (t == x || std::fmod(t, 2.0) != 0) return t;
      return x > 0 ? t + 1 : t - 1;
    }
    default: return std::nearbyint(x);
  }
}

// Finite x rounded in mode m to a binary format with `mant` fraction bits and minimum
// normal exponent `emin` (subnormals included). Exact in double: every source value is a
// double, and scaling by the power-of-two quantum is exact. No overflow handling.
double round_to_binary(double x, int mant, int emin, RoundMode m) {
  if (x == 0) return x;
  int e = 0;
  std::frexp(x, &e);  // |x| in [2^(e-1), 2^e)
  const double q = std::ldexp(1.0, std::max(e - 1, emin) - mant);
  return round_integral(x / q, m) * q;
}

uint16_t cast_to_f16(double x, RoundMode m) {
  if (std::isinf(x)) return x > 0 ? 0x7c00 : 0xfc00;
  double r = round_to_binary(x, 10, -14, m);
  if (std::fabs(r) > 65504.0) r = std::copysign(65504.0, r);  // saturate finite overflow
  return f16_bits(static_cast<_Float16>(static_cast<float>(r)));  // exact: r is a half
}

uint16_t cast_to_bf16(float x, RoundMode m) {
  if (std::isnan(x)) return bfloat16_t(x).bits;  // quiet NaN, sign and top payload kept
  if (std::isinf(x)) return x > 0 ? 0x7f80 : 0xff80;
  constexpr double kMax = 3.3895313892515355e38;  // 0x7f7f
  double r = round_to_binary(x, 7, -126, m);
  if (std::fabs(r) > kMax) r = std::copysign(kMax, r);
  const float f = static_cast<float>(r);  // exact: r is a bfloat16
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return static_cast<uint16_t>(u >> 16);
}

template <typename I>
I cast_to_int(double x, RoundMode m) {
  if (std::isnan(x)) return 0;
  const double r = round_integral(x, m);
  constexpr double lo = static_cast<double>(std::numeric_limits<I>::min());
  constexpr double hi = static_cast<double>(std::numeric_limits<I>::max());
  if (r <= lo) return std::numeric_limits<I>::min();
  if (r >= hi) return std::numeric_limits<I>::max();
  return static_cast<I>(r);
}

// One repeat holds 256 B of the wider type; each operand's elements sit in its own blocks.
template <typename S, typename D, typename Fn>
void run_cast(const VectorOp& op, uint8_t* ub, Fn convert) {
  constexpr unsigned epr = 256 / std::max(sizeof(S), sizeof(D));
  constexpr unsigned s_epb = 32 / sizeof(S), d_epb = 32 / sizeof(D);
  alignas(32) S s[epr] = {};
  alignas(32) D d[epr] = {};
  const MaskPlan plan{op, epr};
  const uint32_t runs = plan.repeats();
  for (uint32_t r = 0; r < runs; ++r) {
    const ElemMask m = plan.mask(r);
    uint64_t s_bits[kBlocksPerRepeat], d_bits[kBlocksPerRepeat];
    const unsigned s_live = live_blocks(m, epr / s_epb, s_epb, s_bits);
    live_blocks(m, epr / d_epb, d_epb, d_bits);
    if (s_live == 0) continue;
    gather_blocks(ub, src0_of(op), r, s_live, s);
    for (unsigned i = 0; i < epr; ++i) d[i] = convert(s[i]);
    scatter_elems(ub, dst_of(op), r, d_bits, epr / d_epb, sizeof(D), d);
  }
}

void execute_cast(const VectorOp& op, uint8_t* ub) {
  const RoundMode m = op.round;
  switch (cast_key(op.dtype, op.dst_dtype)) {
    case cast_key(DType::F16, DType::F32):
      return run_cast<_Float16, float>(op, ub, [](_Float16 a) { return static_cast<float>(a); });
    case cast_key(DType::BF16, DType::F32):
      return run_cast<uint16_t, uint32_t>(op, ub, [](uint16_t a) { return uint32_t(a) << 16; });
    case cast_key(DType::S8, DType::F16):
      return run_cast<int8_t, _Float16>(op, ub, [](int8_t a) { return static_cast<_Float16>(a); });
    case cast_key(DType::U8, DType::F16):
      return run_cast<uint8_t, _Float16>(op, ub, [](uint8_t a) { return static_cast<_Float16>(a); });
    case cast_key(DType::F32, DType::F16):
      return run_cast<float, uint16_t>(op, ub, [m](float a) {
        return std::isnan(a) ? f32_to_f16_reference(a) : cast_to_f16(a, m);
      });
    case cast_key(DType::S32, DType::F16):
      return run_cast<int32_t, uint16_t>(op, ub, [m](int32_t a) { return cast_to_f16(a, m); });
    case cast_key(DType::F32, DType::BF16):
      return run_cast<float, uint16_t>(op, ub, [m](float a) { return cast_to_bf16(a, m); });
    case cast_key(DType::F32, DType::S32):
      return run_cast<float, int32_t>(op, ub, [m](float a) { return cast_to_int<int32_t>(a, m); });
    case cast_key(DType::F16, DType::S32):
      return run_cast<_Float16, int32_t>(op, ub, [m](_Float16 a) {
        return cast_to_int<int32_t>(static_cast<float>(a), m);
      });
    case cast_key(DType::F16, DType::S8):
      return run_cast<_Float16, int8_t>(op, ub, [m](_Float16 a) {
        return cast_to_int<int8_t>(static_cast<float>(a), m);
      });
    case cast_key(DType::F16, DType::U8):
      return run_cast<_Float16, uint8_t>(op, ub, [m](_Float16 a) {
        return cast_to_int<uint8_t>(static_cast<float>(a), m);
      });
    case cast_key(DType::S32, DType::F32):
      return run_cast<int32_t, float>(op, ub, [m](int32_t a) {
        return static_cast<float>(round_to_binary(a, 23, -126, m));
      });
    case cast_key(DType::F32, DType::F32):
      return run_cast<float, float>(op, ub, [m](float a) {
        return std::isfinite(a) ? static_cast<float>(round_integral(a, m)) : a;
      });
    default:
      throw std::logic_error(fmt::format("VectorUnit::execute: Cast does not support {}->{}",
                                         dtype_name(op.dtype), dtype_name(op.dst_dtype)));
  }
}

// ---- Compare and Select.

inline bool compare(CmpMode m, float a, float b) {
  switch (m) {
    case CmpMode::LT: return a < b;
    case CmpMode::GT: return a > b;
    case CmpMode::EQ: return a == b;
    case CmpMode::LE: return a <= b;
    case CmpMode::GE: return a >= b;
    case CmpMode::NE: return a != b;  // the only mode a NaN makes true
  }
  return false;
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

// Compare, CompareScalar and CompareToCmpMask: one bit per element, disabled elements 0.
template <typename T>
ElemMask compare_repeat(const VectorOp& op, const ElemMask& m, const T* a, const T* b) {
  constexpr unsigned n = 256 / sizeof(T);
  alignas(32) float fa[n], fb[n];
  widen<T, n>(a, fa);
  if (op.op == VecOp::CompareScalar) {
    std::fill_n(fb, n, static_cast<float>(scalar_as<T>(op.scalar)));
  } else {
    widen<T, n>(b, fb);
  }
  ElemMask out;
  for (unsigned i = 0; i < n; ++i) {
    if (m.test(i) && compare(op.cmp, fa[i], fb[i])) out.w[i / 64] |= 1ull << (i % 64);
  }
  return out;
}

// Writes the first `bytes` bytes of a bit set, element 0 in bit 0 of the first byte.
inline void store_bits(uint8_t* out, const ElemMask& m, unsigned bytes) {
  for (unsigned k = 0; k < bytes; ++k) out[k] = static_cast<uint8_t>(m.w[k / 8] >> (8 * (k % 8)));
}
inline ElemMask load_bits(const uint8_t* in, unsigned bytes) {
  ElemMask m;
  for (unsigned k = 0; k < bytes; ++k) m.w[k / 8] |= static_cast<uint64_t>(in[k]) << (8 * (k % 8));
  return m;
}

// ---- Reductions.

// One addition of a sum reduction: exact IEEE in float; for f16 rounded to half, with a
// finite overflow saturating to +-65504 (Ascend C's documented BlockReduceSum behaviour).
template <typename T>
inline float reduce_add(float a, float b) {
  const float s = a + b;
  if constexpr (std::is_same_v<T, _Float16>) {
    const float h = static_cast<float>(static_cast<_Float16>(s));
    if (std::isinf(h) && std::isfinite(a) && std::isfinite(b)) return std::copysign(65504.0f, s);
    return h;
  } else {
    return s;
  }
}

// Sum of x[0..n) by a binary tree of adjacent pairs, n a power of two; destroys x.
template <typename T>
float tree_sum(float* x, size_t n) {
  for (; n > 1; n /= 2) {
    for (size_t i = 0; i < n / 2; ++i) x[i] = reduce_add<T>(x[2 * i], x[2 * i + 1]);
  }
  return x[0];
}

// Running extreme: the first NaN, else the largest (smallest) value, +0 above -0, the
// earliest of equal candidates.
struct Extreme {
  bool max;
  bool found = false;
  float value = 0;
  uint64_t index = 0;
  void offer(float v, uint64_t i) {
    if (!found) {
      found = true;
      value = v;
      index = i;
      return;
    }
    if (value != value) return;  // a NaN is final
    bool better;
    if (v != v) {
      better = true;
    } else if (v == value) {
      better = v == 0 && (max ? std::signbit(value) && !std::signbit(v)
                              : !std::signbit(value) && std::signbit(v));
    } else {
      better = max ? v > value : v < value;
    }
    if (better) {
      value = v;
      index = i;
    }
  }
};

// Stores a reduction value (already of T's precision) or an index (as T-sized integer bits).
template <typename T>
inline void store_value(uint8_t* out, float v) {
  const T t = static_cast<T>(v);
  std::memcpy(out, &t, sizeof(T));
}
template <typename T>
inline void store_index(uint8_t* out, uint64_t i) {
  const BitsT<sizeof(T)> b = static_cast<BitsT<sizeof(T)>>(i);
  std::memcpy(out, &b, sizeof(T));
}

unsigned record_elems(const VectorOp& op) {
  if (op.op == VecOp::ReduceSum || op.op == VecOp::WholeReduceSum) return 1;
  return op.order == ReduceOrder::ValueIndex || op.order == ReduceOrder::IndexValue ? 2 : 1;
}

template <typename T>
void store_record(uint8_t* out, const VectorOp& op, float value, uint64_t index) {
  switch (op.order) {
    case ReduceOrder::ValueIndex:
      store_value<T>(out, value);
      store_index<T>(out + sizeof(T), index);
      break;
    case ReduceOrder::IndexValue:
      store_index<T>(out, index);
      store_value<T>(out + sizeof(T), value);
      break;
    case ReduceOrder::OnlyValue: store_value<T>(out, value); break;
    case ReduceOrder::OnlyIndex: store_index<T>(out, index); break;
  }
}

// Calls fn(r, lanes, m) for every executed repeat with an enabled element, lanes being the
// repeat's src0 elements widened to float (lanes of disabled blocks are stale).
template <typename T, typename Fn>
void for_each_source_repeat(const VectorOp& op, const uint8_t* ub, Fn fn) {
  constexpr unsigned epr = 256 / sizeof(T);
  constexpr unsigned epb = 32 / sizeof(T);
  alignas(32) T s[epr] = {};
  alignas(32) float lanes[epr];
  const MaskPlan plan{op, epr};
  const uint32_t runs = plan.repeats();
  for (uint32_t r = 0; r < runs; ++r) {
    const ElemMask m = plan.mask(r);
    uint64_t bits[kBlocksPerRepeat];
    const unsigned live = live_blocks(m, kBlocksPerRepeat, epb, bits);
    if (live == 0) continue;
    gather_blocks(ub, src0_of(op), r, live, s);
    widen<T, epr>(s, lanes);
    fn(r, lanes, m);
  }
}

template <typename T>
void run_reduce(const VectorOp& op, uint8_t* ub) {
  constexpr unsigned epr = 256 / sizeof(T);
  if (op.op == VecOp::ReduceSum) {
    std::vector<float> partial;
    for_each_source_repeat<T>(op, ub, [&](uint32_t, float* lanes, const ElemMask& m) {
      for (unsigned i = 0; i < epr; ++i) {
        if (!m.test(i)) lanes[i] = -0.0f;  // the exact identity of IEEE addition
      }
      partial.push_back(tree_sum<T>(lanes, epr));
    });
    if (partial.empty()) return;
    float sum;
    if (op.counter_mode) {  // count form: repeat results added in order
      sum = partial[0];
      for (size_t k = 1; k < partial.size(); ++k) sum = reduce_add<T>(sum, partial[k]);
    } else {  // mask form: repeat results added by a tree too
      size_t n = 1;
      while (n < partial.size()) n *= 2;
      partial.resize(n, -0.0f);
      sum = tree_sum<T>(partial.data(), n);
    }
    store_value<T>(ub + op.dst, sum);
    return;
  }
  Extreme e{op.op == VecOp::ReduceMax};
  for_each_source_repeat<T>(op, ub, [&](uint32_t r, const float* lanes, const ElemMask& m) {
    for (unsigned i = 0; i < epr; ++i) {
      if (m.test(i)) e.offer(lanes[i], static_cast<uint64_t>(r) * epr + i);
    }
  });
  if (e.found) store_record<T>(ub + op.dst, op, e.value, e.index);
}

template <typename T>
void run_whole_reduce(const VectorOp& op, uint8_t* ub) {
  constexpr unsigned epr = 256 / sizeof(T);
  const uint64_t rec_bytes = record_elems(op) * sizeof(T);
  // Each repeat reads its source, then writes its record; repeats run in order, so a
  // destination overlapping a later repeat's source feeds it, as with every other op.
  for_each_source_repeat<T>(op, ub, [&](uint32_t r, float* lanes, const ElemMask& m) {
    uint8_t* out = ub + op.dst + static_cast<uint64_t>(r) * op.dst_rep_stride * rec_bytes;
    if (op.op == VecOp::WholeReduceSum) {
      for (unsigned i = 0; i < epr; ++i) {
        if (!m.test(i)) lanes[i] = -0.0f;
      }
      store_value<T>(out, tree_sum<T>(lanes, epr));
      return;
    }
    Extreme e{op.op == VecOp::WholeReduceMax};
    for (unsigned i = 0; i < epr; ++i) {
      if (m.test(i)) e.offer(lanes[i], i);
    }
    store_record<T>(out, op, e.value, e.index);
  });
}

template <typename T>
void run_block_reduce(const VectorOp& op, uint8_t* ub) {
  constexpr unsigned epb = 32 / sizeof(T);
  for_each_source_repeat<T>(op, ub, [&](uint32_t r, float* lanes, const ElemMask& m) {
    uint8_t* out = ub + op.dst + static_cast<uint64_t>(r) * op.dst_rep_stride * 8 * sizeof(T);
    for (unsigned b = 0; b < kBlocksPerRepeat; ++b) {
      if (block_bits(m, b, epb) == 0) continue;  // no input: no result
      float* x = lanes + b * epb;
      if (op.op == VecOp::BlockReduceSum) {
        for (unsigned j = 0; j < epb; ++j) {
          if (!m.test(b * epb + j)) x[j] = -0.0f;
        }
        store_value<T>(out + b * sizeof(T), tree_sum<T>(x, epb));
      } else {
        Extreme e{op.op == VecOp::BlockReduceMax};
        for (unsigned j = 0; j < epb; ++j) {
          if (m.test(b * epb + j)) e.offer(x[j], j);
        }
        store_value<T>(out + b * sizeof(T), e.value);
      }
    }
  });
}

template <typename T>
void dispatch_reduction(const VectorOp& op, uint8_t* ub) {
  if (is_reduce(op.op)) return run_reduce<T>(op, ub);
  if (is_whole_reduce(op.op)) return run_whole_reduce<T>(op, ub);
  return run_block_reduce<T>(op, ub);
}

// ---- Data rearrangement.

template <typename B>
void run_brcb(const VectorOp& op, uint8_t* ub) {
  constexpr unsigned epb = 32 / sizeof(B);
  alignas(32) B block[epb];
  for (uint32_t r = 0; r < op.repeat; ++r) {
    B e[8];  // the repeat's 8 source elements, read before any write
    std::memcpy(e, ub + op.src0 + static_cast<uint64_t>(r) * 8 * sizeof(B), sizeof e);
    for (unsigned b = 0; b < kBlocksPerRepeat; ++b) {
      std::fill_n(block, epb, e[b]);
      std::memcpy(ub + dst_of(op).at(r, b), block, kBlockBytes);
    }
  }
}

void run_transpose(const VectorOp& op, uint8_t* ub) {
  uint16_t in[256], out[256];
  std::memcpy(in, ub + op.src0, sizeof in);
  for (unsigned i = 0; i < 16; ++i) {
    for (unsigned j = 0; j < 16; ++j) out[i * 16 + j] = in[j * 16 + i];
  }
  std::memcpy(ub + op.dst, out, sizeof out);
}

template <typename B>
void run_gather(const VectorOp& op, uint8_t* ub, uint64_t ub_size) {
  constexpr unsigned epr = 256 / sizeof(B);
  constexpr unsigned epb = 32 / sizeof(B);
  if (ub_size == 0) throw std::logic_error("VectorUnit::execute: Gather needs the UB size");
  alignas(32) B d[epr] = {};
  const MaskPlan plan{op, epr};
  const uint32_t runs = plan.repeats();
  for (uint32_t r = 0; r < runs; ++r) {
    const ElemMask m = plan.mask(r);
    uint64_t bits[kBlocksPerRepeat];
    if (live_blocks(m, kBlocksPerRepeat, epb, bits) == 0) continue;
    for (unsigned i = 0; i < epr; ++i) {
      if (!m.test(i)) continue;
      const uint64_t k = static_cast<uint64_t>(r) * epr + i;
      uint32_t offset;
      std::memcpy(&offset, ub + op.src1 + 4 * k, 4);
      const uint64_t addr = op.src0 + offset;
      if (addr % sizeof(B) != 0 || addr + sizeof(B) > ub_size) {
        throw VectorFault(fmt::format("{}: offset[{}] = {:#x} gives source address {:#x}, {}", describe(op), k,
                                      offset, addr,
                                      addr % sizeof(B) != 0
                                          ? fmt::format("not aligned to the {}-byte element", sizeof(B))
                                          : fmt::format("beyond UB size {:#x}", ub_size)));
      }
      std::memcpy(&d[i], ub + addr, sizeof(B));
    }
    scatter_elems(ub, dst_of(op), r, bits, kBlocksPerRepeat, sizeof(B), d);
  }
}

// ---- Elementwise dispatch.

template <typename T>
void dispatch(const VectorOp& op, uint8_t* ub) {
  constexpr bool kFloat = std::is_same_v<T, _Float16> || std::is_same_v<T, float>;
  constexpr bool kArith = kFloat || std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t>;
  constexpr bool kB16 = std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>;
  switch (op.op) {
    case VecOp::Add:
      if constexpr (kArith) return run_binary<T>(op, ub, AddOp{});
      break;
    case VecOp::Sub:
      if constexpr (kArith) return run_binary<T>(op, ub, SubOp{});
      break;
    case VecOp::Mul:
      if constexpr (kArith) return run_binary<T>(op, ub, MulOp{});
      break;
    case VecOp::Div:
      if constexpr (kFloat) return run_binary<T>(op, ub, DivOp{});
      break;
    case VecOp::Max:
      if constexpr (kArith) return run_binary<T>(op, ub, MaxOp{});
      break;
    case VecOp::Min:
      if constexpr (kArith) return run_binary<T>(op, ub, MinOp{});
      break;
    case VecOp::Adds:
      if constexpr (kArith) return run_scalar<T>(op, ub, AddOp{});
      break;
    case VecOp::Muls:
      if constexpr (kArith) return run_scalar<T>(op, ub, MulOp{});
      break;
    case VecOp::Abs:
      if constexpr (std::is_same_v<T, _Float16>) return run_abs_f16(op, ub);
      if constexpr (std::is_same_v<T, float>) return run_unary<T>(op, ub, AbsOp{});
      break;
    case VecOp::Relu:
      if constexpr (kFloat || std::is_same_v<T, int32_t>) return run_unary<T>(op, ub, ReluOp{});
      break;
    case VecOp::Exp:
      if constexpr (kFloat) return run_unary<T>(op, ub, ExpOp{});
      break;
    case VecOp::Ln:
      if constexpr (kFloat) return run_unary<T>(op, ub, LnOp{});
      break;
    case VecOp::Sqrt:
      if constexpr (kFloat) return run_unary<T>(op, ub, SqrtOp{});
      break;
    case VecOp::Rsqrt:
      if constexpr (kFloat) return run_unary<T>(op, ub, RsqrtOp{});
      break;
    case VecOp::Reciprocal:
      if constexpr (kFloat) return run_unary<T>(op, ub, ReciprocalOp{});
      break;
    case VecOp::LeakyRelu:
      if constexpr (kFloat) return run_scalar<T>(op, ub, LeakyReluOp{});
      break;
    case VecOp::Not:
      if constexpr (kB16) return run_unary<T>(op, ub, NotOp{});
      break;
    case VecOp::And:
      if constexpr (kB16) return run_binary<T>(op, ub, AndOp{});
      break;
    case VecOp::Or:
      if constexpr (kB16) return run_binary<T>(op, ub, OrOp{});
      break;
    case VecOp::Duplicate: return run_fill<T>(op, ub, scalar_as<T>(op.scalar));
    default: break;
  }
  unsupported(op);
}

// ---- check() helpers: every UB range an instruction touches.

struct Access {
  const char* name;
  uint64_t addr;
  uint64_t align;
  bool touched;      // false: nothing is read or written (nothing enabled)
  uint64_t end;      // bytes from addr to one past the last byte touched
  bool block_style;  // strided operand: report the offending 32 B block
};

Access strided_access(const char* name, const VectorOp& op, const Strided& s, unsigned epr,
                      unsigned esize) {
  uint64_t units = 0;
  const bool touched = highest_block(op, epr, 32 / esize, s.rep, s.blk, &units);
  return {name, s.base, kBlockBytes, touched, units * kBlockBytes + kBlockBytes, true};
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
      // Offsets of enabled elements: logical index r * epr + i, 4 B each.
      uint64_t last = 0;
      if (any) {
        const ElemMask m = plan.mask(runs - 1);
        unsigned hi = 0;
        for (unsigned i = 0; i < epr; ++i) {
          if (m.test(i)) hi = i;
        }
        last = uint64_t(runs - 1) * epr + hi;
      }
      list.push_back(bytes_access("src1", op.src1, kBlockBytes, any, (last + 1) * 4));
      // src0 is the base of data-dependent reads: execute() bounds them.
      list.push_back(bytes_access("src0", op.src0, size, false, 0));
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

unsigned VectorUnit::repeat_elems(const VectorOp& op) {
  unsigned wide = dtype_size(op.dtype);
  if (op.op == VecOp::Cast) wide = std::max(wide, dtype_size(op.dst_dtype));
  return 256 / wide;
}

uint32_t VectorUnit::max_repeat(VecOp op) {
  if (is_reduce(op)) return kMaxReduceRepeat;
  if (op == VecOp::Transpose || op == VecOp::CompareToCmpMask || op == VecOp::SetCmpMask ||
      op == VecOp::GetCmpMask) {
    return 1;
  }
  return kMaxRepeat;
}

VectorOp VectorUnit::advance(const VectorOp& op, uint32_t repeats) {
  VectorOp v = op;
  const uint64_t k = repeats;
  const unsigned epr = repeat_elems(op);
  const uint64_t size = dtype_size(op.dtype);
  auto strided = [k](uint64_t& base, uint32_t rep_stride) { base += k * rep_stride * kBlockBytes; };
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
      v.dst += k * op.dst_rep_stride * record_elems(op) * size;
      strided(v.src0, op.src0_rep_stride);
      break;
    case VecOp::BlockReduceSum:
    case VecOp::BlockReduceMax:
    case VecOp::BlockReduceMin:
      v.dst += k * op.dst_rep_stride * 8 * size;
      strided(v.src0, op.src0_rep_stride);
      break;
    case VecOp::Brcb:
      strided(v.dst, op.dst_rep_stride);
      v.src0 += k * 8 * size;
      break;
    case VecOp::Gather:
      strided(v.dst, op.dst_rep_stride);
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
    const unsigned modes = cast_modes(op.dtype, op.dst_dtype);
    if (modes == 0) {
      return fmt::format("Cast does not support {}->{}", dtype_name(op.dtype), dtype_name(op.dst_dtype));
    }
    if ((modes & bit(op.round)) == 0) {
      return fmt::format("Cast {}->{} does not support {}", dtype_name(op.dtype),
                         dtype_name(op.dst_dtype), round_mode_name(op.round));
    }
  } else if (!dtype_legal(op.op, op.dtype)) {
    return fmt::format("{} does not support {}", vec_op_name(op.op), dtype_name(op.dtype));
  }
  if (is_reduce(op.op) && op.op != VecOp::ReduceSum && op.order != ReduceOrder::ValueIndex &&
      op.order != ReduceOrder::OnlyValue) {
    return fmt::format("{} stores ORDER_VALUE_INDEX or ORDER_ONLY_VALUE, not {}",
                       vec_op_name(op.op), reduce_order_name(op.order));
  }
  const std::vector<Access> list = accesses(op);
  for (const Access& a : list) {
    if (a.addr % a.align != 0) {
      return fmt::format("{} address {:#x} not {} B aligned", a.name, a.addr, a.align);
    }
  }
  const unsigned epr = repeat_elems(op);
  if (!ignores_mask(op.op)) {
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
    const MaskPlan plan{op, epr};
    const uint64_t elems = static_cast<uint64_t>(plan.repeats()) * epr;
    if (elems > 65536) {
      return fmt::format("{} over {} f16 elements: an index above 65535 does not fit the 16-bit "
                         "index slot", vec_op_name(op.op), elems);
    }
  }
  for (const Access& a : list) {
    if (!a.touched) continue;
    // end < 2^45, so only a huge base address can overflow; then name the base instead.
    const uint64_t last = a.block_style ? a.end - kBlockBytes : a.end;
    const bool overflow = a.addr > ~0ull - a.end;
    if (a.block_style) {
      const uint64_t block = overflow ? a.addr : a.addr + last;
      if (overflow || block + kBlockBytes > ub_size) {
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
  uint64_t cycles = params_.head_cycles + repeats(op.repeat);
  if (is_reduce(op.op)) {
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
  if (op.repeat == 0) return;
  const DType t = op.dtype;
  switch (op.op) {
    case VecOp::Cast: return execute_cast(op, ub);
    case VecOp::SetCmpMask: std::memcpy(cmp_mask_.w, ub + op.src0, 16); return;
    case VecOp::GetCmpMask: std::memcpy(ub + op.dst, cmp_mask_.w, 16); return;
    case VecOp::Transpose:
      if (dtype_size(t) == 2) return run_transpose(op, ub);
      break;
    case VecOp::Brcb:
      if (dtype_size(t) == 2) return run_brcb<uint16_t>(op, ub);
      if (dtype_size(t) == 4) return run_brcb<uint32_t>(op, ub);
      break;
    case VecOp::Gather:
      if (dtype_size(t) == 2) return run_gather<uint16_t>(op, ub, ub_size);
      if (dtype_size(t) == 4) return run_gather<uint32_t>(op, ub, ub_size);
      break;
    case VecOp::Compare:
    case VecOp::CompareScalar:
    case VecOp::CompareToCmpMask: {
      auto run = [&](auto tag) {
        using T = decltype(tag);
        constexpr unsigned epr = 256 / sizeof(T);
        const bool to_reg = op.op == VecOp::CompareToCmpMask;
        if (to_reg) cmp_mask_ = CmpMask{};  // the register takes the one repeat's bits
        // Compare writes a bit field, not strided blocks, so it has its own repeat loop.
        const bool two_sources = op.op != VecOp::CompareScalar;
        const MaskPlan plan{op, epr};
        alignas(32) T a[epr] = {}, b[epr] = {};
        for (uint32_t r = 0; r < plan.repeats(); ++r) {
          const ElemMask m = plan.mask(r);
          uint64_t bits[kBlocksPerRepeat];
          const unsigned live = live_blocks(m, kBlocksPerRepeat, 32 / sizeof(T), bits);
          if (live == 0) continue;
          gather_blocks(ub, src0_of(op), r, live, a);
          if (two_sources) gather_blocks(ub, src1_of(op), r, live, b);
          const ElemMask out = compare_repeat<T>(op, m, a, b);
          if (to_reg) {
            cmp_mask_.w[0] = out.w[0];
            cmp_mask_.w[1] = out.w[1];
          } else {
            store_bits(ub + op.dst + static_cast<uint64_t>(r) * epr / 8, out, epr / 8);
          }
        }
      };
      if (t == DType::F16) return run(_Float16{});
      if (t == DType::F32) return run(float{});
      break;
    }
    case VecOp::Select: {
      auto run = [&](auto tag) {
        using B = decltype(tag);
        constexpr unsigned epr = 256 / sizeof(B);
        const ElemMask reg = load_bits(reinterpret_cast<const uint8_t*>(cmp_mask_.w), epr / 8);
        auto pick = [&](const B* a, const B* b, B* d, uint32_t r) {
          const ElemMask sel = op.sel == SelMode::CmpMaskSpr
                                   ? reg
                                   : load_bits(ub + op.src2 + static_cast<uint64_t>(r) * epr / 8, epr / 8);
          for (unsigned i = 0; i < epr; ++i) d[i] = sel.test(i) ? a[i] : b[i];
        };
        if (op.sel == SelMode::TensorScalar) {
          B s;
          if constexpr (sizeof(B) == 2) {
            const _Float16 h = scalar_as<_Float16>(op.scalar);
            std::memcpy(&s, &h, sizeof s);
          } else {
            const float f = scalar_as<float>(op.scalar);
            std::memcpy(&s, &f, sizeof s);
          }
          B scalars[epr];
          std::fill_n(scalars, epr, s);
          run_repeats<B, 1>(op, ub, [&](const B* a, const B*, B* d, uint32_t r) { pick(a, scalars, d, r); });
        } else {
          run_repeats<B, 2>(op, ub, pick);
        }
      };
      if (t == DType::F16) return run(uint16_t{});
      if (t == DType::F32) return run(uint32_t{});
      break;
    }
    case VecOp::ReduceSum:
    case VecOp::ReduceMax:
    case VecOp::ReduceMin:
    case VecOp::WholeReduceSum:
    case VecOp::WholeReduceMax:
    case VecOp::WholeReduceMin:
    case VecOp::BlockReduceSum:
    case VecOp::BlockReduceMax:
    case VecOp::BlockReduceMin:
      if (t == DType::F16) return dispatch_reduction<_Float16>(op, ub);
      if (t == DType::F32) return dispatch_reduction<float>(op, ub);
      break;
    default:
      switch (t) {
        case DType::F16: return dispatch<_Float16>(op, ub);
        case DType::F32: return dispatch<float>(op, ub);
        case DType::S16: return dispatch<int16_t>(op, ub);
        case DType::U16: return dispatch<uint16_t>(op, ub);
        case DType::S32: return dispatch<int32_t>(op, ub);
        case DType::U32: return dispatch<uint32_t>(op, ub);
        case DType::BF16:
          // bf16 is only moved, never computed: Duplicate writes the scalar's bf16 bits.
          if (op.op == VecOp::Duplicate) {
            return run_fill<uint16_t>(op, ub, bfloat16_t(static_cast<float>(op.scalar)).bits);
          }
          break;
        default: break;
      }
      break;
  }
  unsupported(op);
}

}  // namespace npuvp::aicore
