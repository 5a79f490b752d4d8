// The vector unit (SPEC.md §1.6). Each repeat gathers the 32 B blocks of its sources into
// 256 B temporaries, computes the whole repeat with one templated, vectorisable loop, and
// then writes only the enabled destination elements. Repeats run strictly in order, which is
// what makes repeat stride 0, overlapping repeats and in-place operands well defined.
//
// Numeric contract (the hardware's is not bit-published, so this one is ours):
// - f16: every operation is computed in float and rounded once to binary16 with
//   round-to-nearest-even. For + - * / this equals the correctly rounded half result,
//   because float carries >= 2p+2 bits of a half's p = 11.
// - Exp: libm expf of the (widened) input, rounded to the destination type.
// - Max/Min: IEEE 754-2019 maximum/minimum: a NaN input gives a NaN (the first NaN operand,
//   quieted), and +0 > -0.
// - Relu: x > 0 ? x : +0, so -0 and NaN give +0.
// - Abs: clears the sign bit (NaNs included, payload untouched).
// - Integers: two's-complement wrap-around for Add/Sub/Mul/Adds/Muls.
// - Scalars (Adds/Muls/Duplicate) are converted to the dtype once: to f16 via float, to
//   bf16 with round-to-nearest-even, to integers by clamping to the range and truncating
//   toward zero (NaN -> 0).
#include "models/aicore/vector_unit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "models/numerics/bfloat16.h"
#include "models/numerics/fp16.h"

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
    case VecOp::Min: return 2;
    case VecOp::Adds:
    case VecOp::Muls:
    case VecOp::Abs:
    case VecOp::Relu:
    case VecOp::Exp: return 1;
    case VecOp::Duplicate: return 0;
  }
  return 0;
}

namespace {

constexpr uint64_t kBlockBytes = 32;
constexpr unsigned kBlocksPerRepeat = 8;
constexpr unsigned kMaxRepeat = 255;

// Legal (op, dtype) pairs, following Ascend C.
bool dtype_legal(VecOp op, DType t) {
  const bool f = t == DType::F16 || t == DType::F32;
  const bool arith = f || t == DType::S16 || t == DType::S32;
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
    case VecOp::Exp: return f;
    case VecOp::Relu: return f || t == DType::S32;
    case VecOp::Duplicate:
      return f || t == DType::BF16 || t == DType::S16 || t == DType::U16 || t == DType::S32 ||
             t == DType::U32;
  }
  return false;
}

// The enabled elements of one repeat as a 128-bit set; w[0] holds elements 0..63.
struct ElemMask {
  uint64_t w[2] = {0, 0};
};

ElemMask first_n(uint64_t n) {
  ElemMask m;
  m.w[0] = n >= 64 ? ~0ull : (1ull << n) - 1;
  m.w[1] = n <= 64 ? 0 : n >= 128 ? ~0ull : (1ull << (n - 64)) - 1;
  return m;
}

// Block b's element bits, right-aligned. Blocks hold at most 16 elements of the legal types
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
  unsigned repeats() const {
    if (!op.counter_mode) return op.repeat;
    const uint64_t needed = op.mask_lo / epr + (op.mask_lo % epr != 0 ? 1 : 0);
    return static_cast<unsigned>(std::min<uint64_t>(op.repeat, needed));
  }

  ElemMask mask(unsigned r) const {
    if (op.counter_mode) {
      const uint64_t done = static_cast<uint64_t>(r) * epr;
      return first_n(op.mask_lo > done ? std::min<uint64_t>(epr, op.mask_lo - done) : 0);
    }
    ElemMask m;
    m.w[0] = epr >= 64 ? op.mask_lo : op.mask_lo & ((1ull << epr) - 1);
    m.w[1] = epr > 64 ? op.mask_hi : 0;  // 32-bit types have 64 elements: the high word is unused
    return m;
  }
};

// Byte address of block b of repeat r for an operand.
inline uint64_t block_addr(uint64_t base, uint32_t rep_stride, uint32_t blk_stride, unsigned r,
                           unsigned b) {
  return base + (static_cast<uint64_t>(r) * rep_stride + static_cast<uint64_t>(b) * blk_stride) *
                    kBlockBytes;
}

// Highest touched block of an operand, in 32 B units from its base; false if none is touched.
// Only blocks holding at least one enabled element are read or written. Strides are
// non-negative, so the highest block is in the last executed repeat or, when that repeat is
// partial (counter mode), possibly block 7 of the one before.
bool highest_block(const VectorOp& op, unsigned epr, unsigned epb, uint32_t rep_stride,
                   uint32_t blk_stride, uint64_t* units) {
  const MaskPlan plan{op, epr};
  const unsigned runs = plan.repeats();
  if (runs == 0) return false;
  auto top_block = [&](unsigned r, unsigned* top) {
    const ElemMask m = plan.mask(r);
    for (unsigned b = kBlocksPerRepeat; b-- > 0;) {
      if (block_bits(m, b, epb) != 0) {
        *top = b;
        return true;
      }
    }
    return false;
  };
  bool any = false;
  uint64_t best = 0;
  for (unsigned r = runs >= 2 ? runs - 2 : 0; r < runs; ++r) {
    unsigned top = 0;
    if (!top_block(r, &top)) continue;
    const uint64_t u = static_cast<uint64_t>(r) * rep_stride + static_cast<uint64_t>(top) * blk_stride;
    best = any ? std::max(best, u) : u;
    any = true;
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

// ---- The repeat engine.

// Runs `kernel(s0, s1, d)` once per executed repeat on whole-repeat arrays of T. Only blocks
// with an enabled element are read; the kernel computes all lanes (lanes of unread blocks
// hold stale values and are never written back).
template <typename T, int kSources, typename Kernel>
void run_repeats(const VectorOp& op, uint8_t* ub, Kernel&& kernel) {
  constexpr unsigned epr = 256 / sizeof(T);
  constexpr unsigned epb = 32 / sizeof(T);
  constexpr uint64_t full_block = epb >= 64 ? ~0ull : (1ull << epb) - 1;
  alignas(32) T s0[epr] = {};
  alignas(32) T s1[epr] = {};
  alignas(32) T d[epr] = {};
  const MaskPlan plan{op, epr};
  const unsigned runs = plan.repeats();

  auto gather = [&](T* dst, uint64_t base, uint32_t rep, uint32_t blk, unsigned r,
                    unsigned live) {
    for (unsigned b = 0; b < kBlocksPerRepeat; ++b) {
      if (live & (1u << b)) {
        std::memcpy(reinterpret_cast<uint8_t*>(dst) + b * kBlockBytes,
                    ub + block_addr(base, rep, blk, r, b), kBlockBytes);
      }
    }
  };

  for (unsigned r = 0; r < runs; ++r) {
    const ElemMask m = plan.mask(r);
    uint64_t bits[kBlocksPerRepeat];
    unsigned live = 0;
    for (unsigned b = 0; b < kBlocksPerRepeat; ++b) {
      bits[b] = block_bits(m, b, epb);
      if (bits[b] != 0) live |= 1u << b;
    }
    if (live == 0) continue;
    // Sources first, destination after: overlapping operands see this repeat's inputs.
    if constexpr (kSources >= 1) gather(s0, op.src0, op.src0_rep_stride, op.src0_blk_stride, r, live);
    if constexpr (kSources >= 2) gather(s1, op.src1, op.src1_rep_stride, op.src1_blk_stride, r, live);
    kernel(static_cast<const T*>(s0), static_cast<const T*>(s1), d);
    for (unsigned b = 0; b < kBlocksPerRepeat; ++b) {
      if (bits[b] == 0) continue;
      uint8_t* out = ub + block_addr(op.dst, op.dst_rep_stride, op.dst_blk_stride, r, b);
      const T* in = d + b * epb;
      if (bits[b] == full_block) {
        std::memcpy(out, in, kBlockBytes);
      } else {
        for (unsigned j = 0; j < epb; ++j) {
          if ((bits[b] >> j) & 1u) std::memcpy(out + j * sizeof(T), in + j, sizeof(T));
        }
      }
    }
  }
}

// Whole-repeat kernels. f16 is widened to float, computed, and rounded back in bulk (F16C).
template <typename T, typename Fn>
void run_binary(const VectorOp& op, uint8_t* ub, Fn fn) {
  constexpr unsigned n = 256 / sizeof(T);
  run_repeats<T, 2>(op, ub, [fn](const T* a, const T* b, T* d) {
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
  run_repeats<T, 1>(op, ub, [fn](const T* a, const T*, T* d) {
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
  run_repeats<uint16_t, 1>(op, ub, [](const uint16_t* a, const uint16_t*, uint16_t* d) {
    for (unsigned i = 0; i < 128; ++i) d[i] = static_cast<uint16_t>(a[i] & 0x7fffu);
  });
}

template <typename T>
void run_fill(const VectorOp& op, uint8_t* ub, T value) {
  run_repeats<T, 0>(op, ub, [value](const T*, const T*, T* d) {
    std::fill_n(d, 256 / sizeof(T), value);
  });
}

[[noreturn]] void unsupported(const VectorOp& op) {
  throw std::logic_error(fmt::format("VectorUnit::execute: {} does not support {}",
                                     vec_op_name(op.op), dtype_name(op.dtype)));
}

template <typename T>
void dispatch(const VectorOp& op, uint8_t* ub) {
  constexpr bool kFloat = std::is_same_v<T, _Float16> || std::is_same_v<T, float>;
  constexpr bool kArith = kFloat || std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t>;
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
    case VecOp::Duplicate: return run_fill<T>(op, ub, scalar_as<T>(op.scalar));
  }
  unsupported(op);
}

}  // namespace

std::string VectorUnit::check(const VectorOp& op, uint64_t ub_size) const {
  if (op.repeat > kMaxRepeat) {
    return fmt::format("repeat {} out of range [0, {}]", op.repeat, kMaxRepeat);
  }
  if (!dtype_legal(op.op, op.dtype)) {
    return fmt::format("{} does not support {}", vec_op_name(op.op), dtype_name(op.dtype));
  }
  struct Operand {
    const char* name;
    uint64_t addr;
    uint32_t rep_stride, blk_stride;
  };
  const int sources = vec_op_sources(op.op);
  Operand operands[3] = {{"dst", op.dst, op.dst_rep_stride, op.dst_blk_stride},
                         {"src0", op.src0, op.src0_rep_stride, op.src0_blk_stride},
                         {"src1", op.src1, op.src1_rep_stride, op.src1_blk_stride}};
  const int used = 1 + sources;
  for (int i = 0; i < used; ++i) {
    if (operands[i].addr % kBlockBytes != 0) {
      return fmt::format("{} address {:#x} not 32 B aligned", operands[i].name, operands[i].addr);
    }
  }
  const unsigned epr = elems_per_repeat(op.dtype);
  const unsigned epb = elems_per_block(op.dtype);
  if (!op.counter_mode && epr <= 64 && op.mask_hi != 0) {
    return fmt::format("mask_hi must be 0 for {} (mask high word is {:#x})", dtype_name(op.dtype),
                       op.mask_hi);
  }
  if (op.counter_mode && op.mask_lo > static_cast<uint64_t>(op.repeat) * epr) {
    return fmt::format("counter mask {} exceeds repeat * elements per repeat ({} * {} = {})",
                       op.mask_lo, op.repeat, epr, static_cast<uint64_t>(op.repeat) * epr);
  }
  for (int i = 0; i < used; ++i) {
    uint64_t units = 0;
    if (!highest_block(op, epr, epb, operands[i].rep_stride, operands[i].blk_stride, &units)) {
      continue;  // nothing enabled: nothing touched
    }
    // units < 2^41, so only a huge base address can overflow; then name the base instead.
    const uint64_t offset = units * kBlockBytes;
    const bool overflow = operands[i].addr > ~0ull - offset - kBlockBytes;
    const uint64_t block = overflow ? operands[i].addr : operands[i].addr + offset;
    if (overflow || block + kBlockBytes > ub_size) {
      return fmt::format("{} block at {:#x} (32 B) beyond UB size {:#x}", operands[i].name, block,
                         ub_size);
    }
  }
  return {};
}

uint64_t VectorUnit::cost(const VectorOp& op) const {
  if (op.repeat == 0) return params_.head_cycles;
  // A non-positive rate is a configuration error; treat it as the default 1 repeat/cycle
  // rather than dividing by zero. The small epsilon keeps e.g. 3 / 0.1 from rounding up to 31.
  const double rate = params_.repeats_per_cycle > 0 ? params_.repeats_per_cycle : 1.0;
  const double cycles = std::ceil(static_cast<double>(op.repeat) / rate - 1e-9);
  return params_.head_cycles + static_cast<uint64_t>(std::max(cycles, 1.0));
}

void VectorUnit::execute(const VectorOp& op, uint8_t* ub) const {
  if (op.repeat == 0) return;
  switch (op.dtype) {
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
  unsupported(op);
}

}  // namespace npuvp::aicore
