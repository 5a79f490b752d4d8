// VectorUnit against a deliberately plain reference: element by element, repeat by repeat,
// block by block, with the mask and strides applied literally (SPEC.md §1.6) and the numerics
// done through the integer-only half converters. Whole UBs are compared bit for bit, so
// masked-off and untouched bytes are checked too.
#include "models/aicore/vector_unit.h"
#include "tests/support/bits.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "models/numerics/bfloat16.h"
#include "models/numerics/fp16.h"
#include "tlm/log.h"

namespace npuvp::aicore {
namespace vector_unit_test {

constexpr uint64_t kUbSize = 64 * 1024;

using npuvp::testing::fbits;
using npuvp::testing::ffrom;

// ---- The reference.


bool is_scalar_op(VecOp op) {
  return op == VecOp::Adds || op == VecOp::Muls || op == VecOp::LeakyRelu;
}

float ref_float(VecOp op, float x, float y) {
  switch (op) {
    case VecOp::Add: case VecOp::Adds: return x + y;
    case VecOp::Sub: return x - y;
    case VecOp::Mul: case VecOp::Muls: return x * y;
    case VecOp::Div: return x / y;
    case VecOp::Max:
      if (std::isnan(x)) return x;
      if (std::isnan(y)) return y;
      if (x == 0 && y == 0) return std::signbit(x) && std::signbit(y) ? -0.0f : 0.0f;
      return x > y ? x : y;
    case VecOp::Min:
      if (std::isnan(x)) return x;
      if (std::isnan(y)) return y;
      if (x == 0 && y == 0) return std::signbit(x) || std::signbit(y) ? -0.0f : 0.0f;
      return x < y ? x : y;
    case VecOp::Relu: return x > 0 ? x : 0.0f;
    case VecOp::Exp: return std::exp(x);
    case VecOp::Ln: return std::log(x);
    case VecOp::Sqrt: return std::sqrt(x);
    case VecOp::Rsqrt: return static_cast<float>(1.0 / std::sqrt(static_cast<double>(x)));
    case VecOp::Reciprocal: return 1.0f / x;
    case VecOp::LeakyRelu: return x >= 0 ? x : x * y;
    default: ADD_FAILURE() << "no float reference for op"; return 0;
  }
}

int64_t ref_int_scalar(double s, int64_t lo, int64_t hi) {
  if (std::isnan(s)) return 0;
  const double t = std::trunc(s);
  if (t <= static_cast<double>(lo)) return lo;
  if (t >= static_cast<double>(hi)) return hi;
  return static_cast<int64_t>(t);
}

int64_t ref_int(VecOp op, int64_t x, int64_t y) {
  switch (op) {
    case VecOp::Add: case VecOp::Adds: return x + y;
    case VecOp::Sub: return x - y;
    case VecOp::Mul: case VecOp::Muls: return x * y;  // |x*y| < 2^62: exact, truncated later
    case VecOp::Max: return x > y ? x : y;
    case VecOp::Min: return x < y ? x : y;
    case VecOp::Relu: return x > 0 ? x : 0;
    default: ADD_FAILURE() << "no integer reference for op"; return 0;
  }
}

// One element's result bits from the source elements' bits.
uint32_t ref_elem(const VectorOp& op, uint32_t a, uint32_t b) {
  if (op.op == VecOp::Not) return static_cast<uint16_t>(~a);
  if (op.op == VecOp::And) return static_cast<uint16_t>(a & b);
  if (op.op == VecOp::Or) return static_cast<uint16_t>(a | b);
  switch (op.dtype) {
    case DType::F16: {
      const uint16_t s = f32_to_f16_reference(static_cast<float>(op.scalar));
      if (op.op == VecOp::Duplicate) return s;
      if (op.op == VecOp::Abs) return a & 0x7fffu;
      const float x = f16_to_f32_reference(static_cast<uint16_t>(a));
      const float y = f16_to_f32_reference(static_cast<uint16_t>(is_scalar_op(op.op) ? s : b));
      return f32_to_f16_reference(ref_float(op.op, x, y));
    }
    case DType::F32: {
      const float s = static_cast<float>(op.scalar);
      if (op.op == VecOp::Duplicate) return fbits(s);
      if (op.op == VecOp::Abs) return a & 0x7fffffffu;
      return fbits(ref_float(op.op, ffrom(a), is_scalar_op(op.op) ? s : ffrom(b)));
    }
    case DType::S16: {
      const int64_t s = ref_int_scalar(op.scalar, INT16_MIN, INT16_MAX);
      if (op.op == VecOp::Duplicate) return static_cast<uint16_t>(s);
      const int64_t x = static_cast<int16_t>(a);
      const int64_t y = is_scalar_op(op.op) ? s : static_cast<int16_t>(b);
      return static_cast<uint16_t>(static_cast<uint64_t>(ref_int(op.op, x, y)));
    }
    case DType::S32: {
      const int64_t s = ref_int_scalar(op.scalar, INT32_MIN, INT32_MAX);
      if (op.op == VecOp::Duplicate) return static_cast<uint32_t>(s);
      const int64_t x = static_cast<int32_t>(a);
      const int64_t y = is_scalar_op(op.op) ? s : static_cast<int32_t>(b);
      return static_cast<uint32_t>(static_cast<uint64_t>(ref_int(op.op, x, y)));
    }
    case DType::U16: return static_cast<uint32_t>(ref_int_scalar(op.scalar, 0, UINT16_MAX));
    case DType::U32: return static_cast<uint32_t>(ref_int_scalar(op.scalar, 0, UINT32_MAX));
    case DType::BF16: return bfloat16_t(static_cast<float>(op.scalar)).bits;
    default: ADD_FAILURE() << "no reference for dtype"; return 0;
  }
}

int ref_sources(VecOp op) {
  switch (op) {
    case VecOp::Duplicate: case VecOp::GetCmpMask: return 0;
    case VecOp::Adds: case VecOp::Muls: case VecOp::Abs: case VecOp::Relu: case VecOp::Exp:
    case VecOp::Ln: case VecOp::Sqrt: case VecOp::Rsqrt: case VecOp::Reciprocal:
    case VecOp::LeakyRelu: case VecOp::Not: case VecOp::Cast: case VecOp::CompareScalar:
    case VecOp::SetCmpMask: case VecOp::ReduceSum: case VecOp::ReduceMax: case VecOp::ReduceMin:
    case VecOp::WholeReduceSum: case VecOp::WholeReduceMax: case VecOp::WholeReduceMin:
    case VecOp::BlockReduceSum: case VecOp::BlockReduceMax: case VecOp::BlockReduceMin:
    case VecOp::Brcb: case VecOp::Transpose:
      return 1;
    default: return 2;  // binary ops, Compare, CompareToCmpMask, Select, Gather
  }
}

// Literal per-element execution. Each repeat reads every enabled element's sources before
// writing any of its results; repeats run in order.
void ref_execute(const VectorOp& op, std::vector<uint8_t>& ub) {
  const unsigned size = dtype_size(op.dtype);
  const unsigned epr = 256 / size, epb = 32 / size;
  auto elem_addr = [&](uint64_t base, uint32_t rep, uint32_t blk, uint64_t r, unsigned i) {
    return base + (r * rep + static_cast<uint64_t>(i / epb) * blk) * 32 + (i % epb) * size;
  };
  auto load = [&](uint64_t addr) {
    uint32_t v = 0;
    EXPECT_LE(addr + size, ub.size());
    if (addr + size <= ub.size()) std::memcpy(&v, &ub[addr], size);
    return v;
  };
  const int sources = ref_sources(op.op);
  for (uint64_t r = 0; r < op.repeat; ++r) {
    std::vector<std::pair<uint64_t, uint32_t>> writes;
    for (unsigned i = 0; i < epr; ++i) {
      bool enabled;
      if (op.counter_mode) {
        enabled = r * epr + i < op.mask_lo;
      } else {
        enabled = i < 64 ? (op.mask_lo >> i) & 1 : (op.mask_hi >> (i - 64)) & 1;
      }
      if (!enabled) continue;
      const uint32_t a =
          sources >= 1 ? load(elem_addr(op.src0, op.src0_rep_stride, op.src0_blk_stride, r, i)) : 0;
      const uint32_t b =
          sources >= 2 ? load(elem_addr(op.src1, op.src1_rep_stride, op.src1_blk_stride, r, i)) : 0;
      writes.emplace_back(elem_addr(op.dst, op.dst_rep_stride, op.dst_blk_stride, r, i),
                          ref_elem(op, a, b));
    }
    for (const auto& [addr, v] : writes) {
      ASSERT_LE(addr + size, ub.size());
      std::memcpy(&ub[addr], &v, size);
    }
  }
}

// ---- Reference for the non-elementwise ops. Same literal style: element by element, with
// the mask and strides applied as docs/vector-isa.md states them.

struct RefRegs {
  uint8_t cmp[16] = {};  // the CMPMASK register, element i in bit i % 8 of byte i / 8
};

bool ref_enabled(const VectorOp& op, uint64_t r, unsigned i, unsigned epr) {
  if (op.counter_mode) return r * epr + i < op.mask_lo;
  return i < 64 ? (op.mask_lo >> i) & 1 : (op.mask_hi >> (i - 64)) & 1;
}
bool ref_any_enabled(const VectorOp& op, uint64_t r, unsigned epr) {
  for (unsigned i = 0; i < epr; ++i) {
    if (ref_enabled(op, r, i, epr)) return true;
  }
  return false;
}
uint64_t ref_elem_addr(uint64_t base, uint32_t rep, uint32_t blk, uint64_t r, unsigned i,
                       unsigned size) {
  const unsigned epb = 32 / size;
  return base + (r * rep + static_cast<uint64_t>(i / epb) * blk) * 32 + (i % epb) * size;
}
uint32_t ref_load(const std::vector<uint8_t>& ub, uint64_t addr, unsigned size) {
  uint32_t v = 0;
  EXPECT_LE(addr + size, ub.size());
  if (addr + size <= ub.size()) std::memcpy(&v, &ub[addr], size);
  return v;
}
void ref_store(std::vector<uint8_t>& ub, uint64_t addr, uint32_t v, unsigned size) {
  EXPECT_LE(addr + size, ub.size());
  if (addr + size <= ub.size()) std::memcpy(&ub[addr], &v, size);
}
float ref_to_float(DType t, uint32_t bits) {
  return t == DType::F16 ? f16_to_f32_reference(static_cast<uint16_t>(bits)) : ffrom(bits);
}
uint32_t ref_from_float(DType t, float f) {
  return t == DType::F16 ? f32_to_f16_reference(f) : fbits(f);
}
bool ref_bit(const uint8_t* bytes, uint64_t i) { return (bytes[i / 8] >> (i % 8)) & 1; }

// ---- Cast, with integer arithmetic on the exact value (-1)^neg * m * 2^e.

struct Exact {
  bool neg;
  uint64_t m;
  int e;
};
Exact exact_of_float(float f) {
  const uint32_t u = fbits(f);
  const uint32_t exp = (u >> 23) & 0xff, man = u & 0x7fffff;
  if (exp == 0) return {(u >> 31) != 0, man, -149};
  return {(u >> 31) != 0, man | 0x800000u, static_cast<int>(exp) - 150};
}
Exact exact_of_int(int64_t x) { return {x < 0, static_cast<uint64_t>(x < 0 ? -x : x), 0}; }
int msb(uint64_t m) {
  int b = -1;
  while (m) {
    m >>= 1;
    ++b;
  }
  return b;
}

// |v| as a count of 2^qe quanta, rounded in mode `mode` (the sign of v decides floor/ceil).
uint64_t ref_round_count(const Exact& v, int qe, RoundMode mode) {
  const int shift = qe - v.e;
  if (shift <= 0) return v.m << -shift;
  const uint64_t q = shift >= 64 ? 0 : v.m >> shift;
  const uint64_t rem = shift >= 64 ? v.m : v.m & ((1ull << shift) - 1);
  if (rem == 0) return q;
  const bool above_half = shift > 64 ? false : rem > (1ull << (shift - 1));
  const bool at_half = shift > 64 ? false : rem == (1ull << (shift - 1));
  switch (mode) {
    case RoundMode::None:
    case RoundMode::Rint: return above_half || (at_half && (q & 1)) ? q + 1 : q;
    case RoundMode::Round: return above_half || at_half ? q + 1 : q;
    case RoundMode::Floor: return v.neg ? q + 1 : q;
    case RoundMode::Ceil: return v.neg ? q : q + 1;
    case RoundMode::Trunc: return q;
    case RoundMode::Odd: return (q & 1) ? q : q + 1;
  }
  return q;
}

// v rounded to a float format with `mant` fraction bits and minimum exponent `emin`,
// saturated at +-max; returned as a double (exact).
double ref_round_float(const Exact& v, int mant, int emin, RoundMode mode, double max) {
  if (v.m == 0) return v.neg ? -0.0 : 0.0;
  const int qe = std::max(msb(v.m) + v.e, emin) - mant;
  double r = std::ldexp(static_cast<double>(ref_round_count(v, qe, mode)), qe);
  if (r > max) r = max;
  return v.neg ? -r : r;
}

int64_t ref_round_int(const Exact& v, RoundMode mode, int64_t lo, int64_t hi) {
  if (v.m != 0 && msb(v.m) + v.e >= 40) return v.neg ? lo : hi;  // far beyond every range
  const int64_t q = static_cast<int64_t>(ref_round_count(v, 0, mode));
  const int64_t x = v.neg ? -q : q;
  return std::min(std::max(x, lo), hi);
}

uint32_t ref_cast(DType s, DType d, RoundMode mode, uint32_t bits) {
  constexpr double kHalfMax = 65504, kBf16Max = 3.3895313892515355e38;
  const float f = s == DType::F16 ? f16_to_f32_reference(static_cast<uint16_t>(bits)) : ffrom(bits);
  auto int_target = [&](int64_t lo, int64_t hi) -> uint32_t {
    if (std::isnan(f)) return 0;
    if (std::isinf(f)) return static_cast<uint32_t>(f > 0 ? hi : lo);
    return static_cast<uint32_t>(ref_round_int(exact_of_float(f), mode, lo, hi));
  };
  if (s == DType::F16 && d == DType::F32) return fbits(f);
  if (s == DType::BF16 && d == DType::F32) return bits << 16;
  if (s == DType::S8 && d == DType::F16) return f32_to_f16_reference(static_cast<int8_t>(bits));
  if (s == DType::U8 && d == DType::F16) return f32_to_f16_reference(static_cast<uint8_t>(bits));
  if (s == DType::F32 && d == DType::F16) {
    if (std::isnan(f) || std::isinf(f)) return f32_to_f16_reference(f);
    return f32_to_f16_reference(static_cast<float>(ref_round_float(exact_of_float(f), 10, -14, mode, kHalfMax)));
  }
  if (s == DType::S32 && d == DType::F16) {
    const Exact v = exact_of_int(static_cast<int32_t>(bits));
    return f32_to_f16_reference(static_cast<float>(ref_round_float(v, 10, -14, mode, kHalfMax)));
  }
  if (s == DType::F32 && d == DType::BF16) {
    if (std::isnan(f)) return bfloat16_t(f).bits;
    if (std::isinf(f)) return fbits(f) >> 16;
    return fbits(static_cast<float>(ref_round_float(exact_of_float(f), 7, -126, mode, kBf16Max))) >> 16;
  }
  if (s == DType::S32 && d == DType::F32) {
    const Exact v = exact_of_int(static_cast<int32_t>(bits));
    return fbits(static_cast<float>(ref_round_float(v, 23, -126, mode, 1e39)));
  }
  if (s == DType::F32 && d == DType::F32) {
    if (std::isnan(f) || std::isinf(f)) return bits;
    const Exact v = exact_of_float(f);
    if (v.m != 0 && msb(v.m) + v.e >= 23) return bits;  // already an integer
    const double q = static_cast<double>(ref_round_count(v, 0, mode));
    return fbits(static_cast<float>(v.neg ? -q : q));
  }
  if (d == DType::S32) return int_target(INT32_MIN, INT32_MAX);
  if (d == DType::S8) return static_cast<uint8_t>(int_target(INT8_MIN, INT8_MAX));
  if (d == DType::U8) return int_target(0, UINT8_MAX);
  ADD_FAILURE() << "no reference for Cast " << dtype_name(s) << "->" << dtype_name(d);
  return 0;
}

// One repeat = 256 B of the wider operand; each operand's elements in its own blocks.
void ref_cast_execute(const VectorOp& op, std::vector<uint8_t>& ub) {
  const unsigned ss = dtype_size(op.dtype), ds = dtype_size(op.dst_dtype);
  const unsigned epr = 256 / std::max(ss, ds);
  for (uint64_t r = 0; r < op.repeat; ++r) {
    std::vector<std::pair<uint64_t, uint32_t>> writes;
    for (unsigned i = 0; i < epr; ++i) {
      if (!ref_enabled(op, r, i, epr)) continue;
      const uint32_t a = ref_load(ub, ref_elem_addr(op.src0, op.src0_rep_stride, op.src0_blk_stride, r, i, ss), ss);
      writes.emplace_back(ref_elem_addr(op.dst, op.dst_rep_stride, op.dst_blk_stride, r, i, ds),
                          ref_cast(op.dtype, op.dst_dtype, op.round, a));
    }
    for (const auto& [addr, v] : writes) ref_store(ub, addr, v, ds);
  }
}

// ---- Compare, Select and the CMPMASK register.

bool ref_compare(CmpMode m, float a, float b) {
  switch (m) {
    case CmpMode::LT: return a < b;
    case CmpMode::GT: return a > b;
    case CmpMode::EQ: return a == b;
    case CmpMode::LE: return a <= b;
    case CmpMode::GE: return a >= b;
    case CmpMode::NE: return !(a == b);
  }
  return false;
}

// Repeat r's comparison bits (disabled elements 0), epr / 8 bytes.
std::vector<uint8_t> ref_compare_repeat(const VectorOp& op, const std::vector<uint8_t>& ub, uint64_t r) {
  const unsigned size = dtype_size(op.dtype), epr = 256 / size;
  std::vector<uint8_t> bits(epr / 8, 0);
  const uint32_t s = op.dtype == DType::F16 ? f32_to_f16_reference(static_cast<float>(op.scalar))
                                            : fbits(static_cast<float>(op.scalar));
  for (unsigned i = 0; i < epr; ++i) {
    if (!ref_enabled(op, r, i, epr)) continue;
    const float a = ref_to_float(op.dtype, ref_load(ub, ref_elem_addr(op.src0, op.src0_rep_stride, op.src0_blk_stride, r, i, size), size));
    const float b = ref_to_float(op.dtype, op.op == VecOp::CompareScalar
                                               ? s
                                               : ref_load(ub, ref_elem_addr(op.src1, op.src1_rep_stride, op.src1_blk_stride, r, i, size), size));
    if (ref_compare(op.cmp, a, b)) bits[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  }
  return bits;
}

void ref_compare_execute(const VectorOp& op, std::vector<uint8_t>& ub, RefRegs& regs) {
  const unsigned epr = 256 / dtype_size(op.dtype);
  if (op.op == VecOp::CompareToCmpMask) {
    if (op.repeat == 0) return;
    std::memset(regs.cmp, 0, sizeof regs.cmp);
    const std::vector<uint8_t> bits = ref_compare_repeat(op, ub, 0);
    std::memcpy(regs.cmp, bits.data(), bits.size());
    return;
  }
  for (uint64_t r = 0; r < op.repeat; ++r) {
    if (!ref_any_enabled(op, r, epr)) continue;  // a repeat with nothing enabled writes nothing
    const std::vector<uint8_t> bits = ref_compare_repeat(op, ub, r);
    std::memcpy(&ub[op.dst + r * epr / 8], bits.data(), bits.size());
  }
}

void ref_select_execute(const VectorOp& op, std::vector<uint8_t>& ub, const RefRegs& regs) {
  const unsigned size = dtype_size(op.dtype), epr = 256 / size;
  const uint32_t s = op.dtype == DType::F16 ? f32_to_f16_reference(static_cast<float>(op.scalar))
                                            : fbits(static_cast<float>(op.scalar));
  for (uint64_t r = 0; r < op.repeat; ++r) {
    std::vector<std::pair<uint64_t, uint32_t>> writes;
    for (unsigned i = 0; i < epr; ++i) {
      if (!ref_enabled(op, r, i, epr)) continue;
      const bool pick0 = op.sel == SelMode::CmpMaskSpr ? ref_bit(regs.cmp, i)
                                                       : ref_bit(&ub[op.src2], r * epr + i);
      uint32_t v;
      if (pick0) {
        v = ref_load(ub, ref_elem_addr(op.src0, op.src0_rep_stride, op.src0_blk_stride, r, i, size), size);
      } else if (op.sel == SelMode::TensorScalar) {
        v = s;
      } else {
        v = ref_load(ub, ref_elem_addr(op.src1, op.src1_rep_stride, op.src1_blk_stride, r, i, size), size);
      }
      writes.emplace_back(ref_elem_addr(op.dst, op.dst_rep_stride, op.dst_blk_stride, r, i, size), v);
    }
    for (const auto& [addr, v] : writes) ref_store(ub, addr, v, size);
  }
}

// ---- Reductions.

// One addition of a sum: f32 IEEE; f16 rounded to half, finite overflow saturating.
float ref_add(DType t, float a, float b) {
  const float s = a + b;
  if (t == DType::F32) return s;
  uint16_t h = f32_to_f16_reference(s);
  if ((h & 0x7fffu) == 0x7c00u && std::isfinite(a) && std::isfinite(b)) {
    h = static_cast<uint16_t>((h & 0x8000u) | 0x7bffu);
  }
  return f16_to_f32_reference(h);
}
// Binary tree of adjacent pairs over v padded with -0 to a power of two.
float ref_tree(std::vector<float> v, DType t) {
  size_t n = 1;
  while (n < v.size()) n *= 2;
  v.resize(n, -0.0f);
  while (v.size() > 1) {
    std::vector<float> next;
    for (size_t i = 0; i < v.size(); i += 2) next.push_back(ref_add(t, v[i], v[i + 1]));
    v = next;
  }
  return v[0];
}
// Is `cand` a better extreme than `best` (first NaN wins, +0 above -0, earliest on ties)?
bool ref_better(bool max, float cand, float best) {
  if (std::isnan(best)) return false;
  if (std::isnan(cand)) return true;
  if (cand == best) {
    return cand == 0 && (max ? std::signbit(best) && !std::signbit(cand)
                             : !std::signbit(best) && std::signbit(cand));
  }
  return max ? cand > best : cand < best;
}

bool is_max_op(VecOp op) {
  return op == VecOp::ReduceMax || op == VecOp::WholeReduceMax || op == VecOp::BlockReduceMax;
}
bool is_sum_op(VecOp op) {
  return op == VecOp::ReduceSum || op == VecOp::WholeReduceSum || op == VecOp::BlockReduceSum;
}

// Stores value and/or index in the op's order; returns the bytes written.
unsigned ref_store_record(std::vector<uint8_t>& ub, uint64_t addr, const VectorOp& op, float value,
                          uint64_t index) {
  const unsigned size = dtype_size(op.dtype);
  const uint32_t vb = ref_from_float(op.dtype, value);
  const uint32_t ib = size == 2 ? static_cast<uint16_t>(index) : static_cast<uint32_t>(index);
  if (is_sum_op(op.op) || op.order == ReduceOrder::OnlyValue) {
    ref_store(ub, addr, vb, size);
    return size;
  }
  if (op.order == ReduceOrder::OnlyIndex) {  // a u32 on every dtype (ReduceRepeat.md, table 3)
    ref_store(ub, addr, static_cast<uint32_t>(index), 4);
    return 4;
  }
  const bool value_first = op.order == ReduceOrder::ValueIndex;
  ref_store(ub, addr, value_first ? vb : ib, size);
  ref_store(ub, addr + size, value_first ? ib : vb, size);
  return 2 * size;
}

float ref_src(const VectorOp& op, const std::vector<uint8_t>& ub, uint64_t r, unsigned i) {
  const unsigned size = dtype_size(op.dtype);
  return ref_to_float(op.dtype, ref_load(ub, ref_elem_addr(op.src0, op.src0_rep_stride, op.src0_blk_stride, r, i, size), size));
}

void ref_reduce_execute(const VectorOp& op, std::vector<uint8_t>& ub) {
  const unsigned size = dtype_size(op.dtype), epr = 256 / size, epb = 32 / size;
  const bool max = is_max_op(op.op);
  if (op.op == VecOp::ReduceSum) {
    std::vector<float> partial;
    for (uint64_t r = 0; r < op.repeat; ++r) {
      if (!ref_any_enabled(op, r, epr)) continue;
      std::vector<float> lanes(epr, -0.0f);
      for (unsigned i = 0; i < epr; ++i) {
        if (ref_enabled(op, r, i, epr)) lanes[i] = ref_src(op, ub, r, i);
      }
      partial.push_back(ref_tree(lanes, op.dtype));
    }
    if (partial.empty()) return;
    float sum = partial[0];
    if (op.counter_mode) {
      for (size_t k = 1; k < partial.size(); ++k) sum = ref_add(op.dtype, sum, partial[k]);
    } else {
      sum = ref_tree(partial, op.dtype);
    }
    ref_store(ub, op.dst, ref_from_float(op.dtype, sum), size);
    return;
  }
  if (op.op == VecOp::ReduceMax || op.op == VecOp::ReduceMin) {
    bool found = false;
    float best = 0;
    uint64_t index = 0;
    for (uint64_t r = 0; r < op.repeat; ++r) {
      for (unsigned i = 0; i < epr; ++i) {
        if (!ref_enabled(op, r, i, epr)) continue;
        const float v = ref_src(op, ub, r, i);
        if (!found || ref_better(max, v, best)) {
          found = true;
          best = v;
          index = r * epr + i;
        }
      }
    }
    if (found) ref_store_record(ub, op.dst, op, best, index);
    return;
  }
  const bool whole = op.op == VecOp::WholeReduceSum || op.op == VecOp::WholeReduceMax ||
                     op.op == VecOp::WholeReduceMin;
  for (uint64_t r = 0; r < op.repeat; ++r) {
    // Each group (the whole repeat, or one block) gives one result from its enabled lanes.
    const unsigned group = whole ? epr : epb;
    std::vector<std::pair<unsigned, std::pair<float, uint64_t>>> results;  // group -> value, index
    for (unsigned g = 0; g < epr / group; ++g) {
      std::vector<float> lanes(group, -0.0f);
      bool any = false, found = false;
      float best = 0;
      uint64_t index = 0;
      for (unsigned j = 0; j < group; ++j) {
        const unsigned i = g * group + j;
        if (!ref_enabled(op, r, i, epr)) continue;
        const float v = ref_src(op, ub, r, i);
        any = true;
        lanes[j] = v;
        if (!found || ref_better(max, v, best)) {
          found = true;
          best = v;
          index = j;
        }
      }
      if (!any) continue;  // no input, no result
      results.push_back({g, {is_sum_op(op.op) ? ref_tree(lanes, op.dtype) : best, index}});
    }
    for (const auto& [g, vi] : results) {
      if (whole) {
        const unsigned rec = op.order == ReduceOrder::OnlyIndex && !is_sum_op(op.op) ? 4
                             : (is_sum_op(op.op) || op.order == ReduceOrder::OnlyValue) ? size : 2 * size;
        ref_store_record(ub, op.dst + r * op.dst_rep_stride * rec, op, vi.first, vi.second);
      } else {
        ref_store(ub, op.dst + (r * op.dst_rep_stride * 8 + g) * size, ref_from_float(op.dtype, vi.first), size);
      }
    }
  }
}

// ---- Brcb, Transpose, Gather.

void ref_brcb_execute(const VectorOp& op, std::vector<uint8_t>& ub) {
  const unsigned size = dtype_size(op.dtype), epb = 32 / size;
  for (uint64_t r = 0; r < op.repeat; ++r) {
    uint32_t e[8];
    for (unsigned b = 0; b < 8; ++b) e[b] = ref_load(ub, op.src0 + (r * 8 + b) * size, size);
    for (unsigned b = 0; b < 8; ++b) {
      for (unsigned j = 0; j < epb; ++j) {
        ref_store(ub, op.dst + (r * op.dst_rep_stride + b * op.dst_blk_stride) * 32 + j * size, e[b], size);
      }
    }
  }
}

void ref_transpose_execute(const VectorOp& op, std::vector<uint8_t>& ub) {
  if (op.repeat == 0) return;
  std::vector<uint32_t> in(256);
  for (unsigned k = 0; k < 256; ++k) in[k] = ref_load(ub, op.src0 + 2 * k, 2);
  for (unsigned i = 0; i < 16; ++i) {
    for (unsigned j = 0; j < 16; ++j) ref_store(ub, op.dst + 2 * (i * 16 + j), in[j * 16 + i], 2);
  }
}

void ref_gather_execute(const VectorOp& op, std::vector<uint8_t>& ub) {
  const unsigned size = dtype_size(op.dtype), epr = 256 / size;
  for (uint64_t r = 0; r < op.repeat; ++r) {
    std::vector<std::pair<uint64_t, uint32_t>> writes;
    for (unsigned i = 0; i < epr; ++i) {
      if (!ref_enabled(op, r, i, epr)) continue;
      const uint32_t offset = ref_load(ub, op.src1 + (r * epr + i) * 4, 4);
      writes.emplace_back(ref_elem_addr(op.dst, op.dst_rep_stride, op.dst_blk_stride, r, i, size),
                          ref_load(ub, op.src0 + offset, size));
    }
    for (const auto& [addr, v] : writes) ref_store(ub, addr, v, size);
  }
}

// Any op, with the CMPMASK register.
void ref_run(const VectorOp& op, std::vector<uint8_t>& ub, RefRegs& regs) {
  switch (op.op) {
    case VecOp::Cast: return ref_cast_execute(op, ub);
    case VecOp::Compare: case VecOp::CompareScalar: case VecOp::CompareToCmpMask:
      return ref_compare_execute(op, ub, regs);
    case VecOp::SetCmpMask:
      if (op.repeat > 0) std::memcpy(regs.cmp, &ub[op.src0], 16);
      return;
    case VecOp::GetCmpMask:
      if (op.repeat > 0) std::memcpy(&ub[op.dst], regs.cmp, 16);
      return;
    case VecOp::Select: return ref_select_execute(op, ub, regs);
    case VecOp::ReduceSum: case VecOp::ReduceMax: case VecOp::ReduceMin:
    case VecOp::WholeReduceSum: case VecOp::WholeReduceMax: case VecOp::WholeReduceMin:
    case VecOp::BlockReduceSum: case VecOp::BlockReduceMax: case VecOp::BlockReduceMin:
      return ref_reduce_execute(op, ub);
    case VecOp::Brcb: return ref_brcb_execute(op, ub);
    case VecOp::Transpose: return ref_transpose_execute(op, ub);
    case VecOp::Gather: return ref_gather_execute(op, ub);
    default: return ref_execute(op, ub);
  }
}

// ---- Harness.

// A UB full of random elements of `t`: floats are never NaN (so that which of two NaN
// payloads wins is never asked; NaN has its own tests) but include infinities, subnormals
// and, half of the time, moderate values that make Exp/Mul interesting.
std::vector<uint8_t> random_ub(DType t, uint64_t size, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<uint32_t> bits;
  std::uniform_real_distribution<float> moderate(-12.0f, 12.0f);
  std::vector<uint8_t> ub(size);
  const unsigned es = dtype_size(t);
  for (uint64_t off = 0; off < size; off += es) {
    uint32_t v = bits(rng);
    const bool small = v & 1;
    switch (t) {
      case DType::F16:
        v = small ? f32_to_f16_reference(moderate(rng)) : v & 0xffffu;
        if ((v & 0x7c00u) == 0x7c00u && (v & 0x3ffu) != 0) v &= 0xfc00u;  // NaN -> inf
        break;
      case DType::F32:
        if (small) v = fbits(moderate(rng));
        if ((v & 0x7f800000u) == 0x7f800000u && (v & 0x7fffffu) != 0) v &= 0xff800000u;
        break;
      case DType::S16: case DType::S32:
        if (small) v = static_cast<uint32_t>(static_cast<int32_t>(bits(rng) % 201) - 100);
        break;
      default: break;
    }
    std::memcpy(&ub[off], &v, es);
  }
  return ub;
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// Compares two UBs; reports the first few differing elements of `es` bytes.
void expect_same_ub(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, unsigned es) {
  if (got == want) return;
  int shown = 0;
  for (uint64_t off = 0; off < got.size() && shown < 5; off += es) {
    if (std::memcmp(&got[off], &want[off], es) != 0) {
      uint32_t g = 0, w = 0;
      std::memcpy(&g, &got[off], es);
      std::memcpy(&w, &want[off], es);
      ADD_FAILURE() << "UB " << hex(off) << ": model " << hex(g) << ", reference " << hex(w);
      ++shown;
    }
  }
}

// Executes `ops` in order on a random UB (prepared by `prepare`, if given) with the model and
// with the reference; the UBs and the CMPMASK registers must be equal.
void expect_sequence_matches(const std::vector<VectorOp>& ops, uint32_t seed,
                             const std::function<void(std::vector<uint8_t>&)>& prepare = {},
                             uint64_t ub_size = kUbSize) {
  VectorUnit vu;
  RefRegs regs;
  std::vector<uint8_t> got = random_ub(ops.front().dtype, ub_size, seed);
  if (prepare) prepare(got);
  std::vector<uint8_t> want = got;
  for (const VectorOp& op : ops) {
    SCOPED_TRACE(describe(op) + vec_op_details(op));
    ASSERT_EQ(vu.check(op, ub_size), "");
    ref_run(op, want, regs);
    vu.execute(op, got.data(), ub_size);
  }
  SCOPED_TRACE(describe(ops.back()) + vec_op_details(ops.back()));
  const VectorOp& last = ops.back();
  unsigned es = dtype_size(last.dtype);
  if (last.op == VecOp::Cast) es = std::min(es, dtype_size(last.dst_dtype));
  if (last.op == VecOp::Compare || last.op == VecOp::CompareScalar) es = 1;
  expect_same_ub(got, want, es);
  EXPECT_EQ(std::memcmp(vu.cmp_mask().w, regs.cmp, 16), 0) << "CMPMASK register differs";
}

// Executes `op` on a random UB with the model and with the reference; the UBs must be equal.
void expect_matches_reference(const VectorOp& op, uint32_t seed, uint64_t ub_size = kUbSize) {
  expect_sequence_matches({op}, seed, {}, ub_size);
}

// Legal (op, dtype) pairs, written from the Ascend C API independently of the model.
struct Legal {
  VecOp op;
  std::vector<DType> dtypes;
};
const std::vector<Legal>& legal_table() {
  static const std::vector<Legal> table = {
      {VecOp::Add, {DType::F16, DType::F32, DType::S16, DType::S32}},
      {VecOp::Sub, {DType::F16, DType::F32, DType::S16, DType::S32}},
      {VecOp::Mul, {DType::F16, DType::F32, DType::S16, DType::S32}},
      {VecOp::Div, {DType::F16, DType::F32}},
      {VecOp::Max, {DType::F16, DType::F32, DType::S16, DType::S32}},
      {VecOp::Min, {DType::F16, DType::F32, DType::S16, DType::S32}},
      {VecOp::Adds, {DType::F16, DType::F32, DType::S16, DType::S32}},
      {VecOp::Muls, {DType::F16, DType::F32, DType::S16, DType::S32}},
      {VecOp::Abs, {DType::F16, DType::F32}},
      {VecOp::Relu, {DType::F16, DType::F32, DType::S32}},
      {VecOp::Exp, {DType::F16, DType::F32}},
      {VecOp::Duplicate,
       {DType::F16, DType::BF16, DType::F32, DType::S16, DType::U16, DType::S32, DType::U32}},
      {VecOp::Ln, {DType::F16, DType::F32}},
      {VecOp::Sqrt, {DType::F16, DType::F32}},
      {VecOp::Rsqrt, {DType::F16, DType::F32}},
      {VecOp::Reciprocal, {DType::F16, DType::F32}},
      {VecOp::LeakyRelu, {DType::F16, DType::F32}},
      {VecOp::Not, {DType::S16, DType::U16}},
      {VecOp::And, {DType::S16, DType::U16}},
      {VecOp::Or, {DType::S16, DType::U16}},
  };
  return table;
}

const DType kAllDTypes[] = {DType::F16, DType::BF16, DType::F32, DType::S8, DType::U8,
                            DType::S16, DType::U16,  DType::S32, DType::U32};
// The elementwise ops (one dtype for every operand); the others have their own tests.
const VecOp kAllOps[] = {VecOp::Add,  VecOp::Sub,  VecOp::Mul, VecOp::Div,
                         VecOp::Max,  VecOp::Min,  VecOp::Adds, VecOp::Muls,
                         VecOp::Abs,  VecOp::Relu, VecOp::Exp, VecOp::Duplicate,
                         VecOp::Ln, VecOp::Sqrt, VecOp::Rsqrt, VecOp::Reciprocal,
                         VecOp::LeakyRelu, VecOp::Not, VecOp::And, VecOp::Or};

unsigned epr_of(DType t) { return 256 / dtype_size(t); }

// A full normal mask for the dtype.
void full_mask(VectorOp& op) {
  op.counter_mode = false;
  op.mask_lo = ~0ull;
  op.mask_hi = epr_of(op.dtype) == 128 ? ~0ull : 0;
}

// Continuous mask: the first n elements.
void first_n_mask(VectorOp& op, unsigned n) {
  op.counter_mode = false;
  op.mask_lo = n >= 64 ? ~0ull : (1ull << n) - 1;
  op.mask_hi = n <= 64 ? 0 : n >= 128 ? ~0ull : (1ull << (n - 64)) - 1;
}

VectorOp make(VecOp o, DType t, uint32_t repeat = 1) {
  VectorOp op;
  op.op = o;
  op.dtype = t;
  op.dst = 0x0000;
  op.src0 = 0x4000;
  op.src1 = 0x8000;
  op.repeat = repeat;
  op.scalar = t == DType::F16 || t == DType::F32 || t == DType::BF16 ? 1.8125 : -77.0;
  full_mask(op);
  return op;
}

// Small UB helpers for the hand-written cases.
template <typename T>
void put(std::vector<uint8_t>& ub, uint64_t addr, T v) {
  std::memcpy(&ub[addr], &v, sizeof v);
}
template <typename T>
T get(const std::vector<uint8_t>& ub, uint64_t addr) {
  T v;
  std::memcpy(&v, &ub[addr], sizeof v);
  return v;
}
uint16_t h(float f) { return f32_to_f16_reference(f); }

// ---- Tests.

TEST(VectorUnitTest, OpNamesAndSourceCounts) {
  EXPECT_STREQ(vec_op_name(VecOp::Add), "Add");
  EXPECT_STREQ(vec_op_name(VecOp::Duplicate), "Duplicate");
  EXPECT_STREQ(vec_op_name(VecOp::Exp), "Exp");
  for (VecOp o : kAllOps) EXPECT_EQ(vec_op_sources(o), ref_sources(o)) << vec_op_name(o);
  EXPECT_EQ(VectorUnit::elems_per_repeat(DType::F16), 128u);
  EXPECT_EQ(VectorUnit::elems_per_repeat(DType::F32), 64u);
  EXPECT_EQ(VectorUnit::elems_per_block(DType::S16), 16u);
  EXPECT_EQ(VectorUnit::elems_per_block(DType::U32), 8u);
}

TEST(VectorUnitTest, EveryLegalOpAndDtypeMatchesReferenceWithFullMask) {
  uint32_t seed = 1;
  for (const Legal& l : legal_table()) {
    for (DType t : l.dtypes) {
      VectorOp op = make(l.op, t, 5);
      expect_matches_reference(op, seed++);
      op.scalar = -0.3;  // a scalar that rounds in f16 and truncates in ints
      expect_matches_reference(op, seed++);
    }
  }
}

TEST(VectorUnitTest, CheckAcceptsExactlyTheLegalDtypes) {
  VectorUnit vu;
  for (VecOp o : kAllOps) {
    for (DType t : kAllDTypes) {
      bool legal = false;
      for (const Legal& l : legal_table()) {
        for (DType d : l.dtypes) legal |= l.op == o && d == t;
      }
      VectorOp op = make(o, t);
      op.mask_lo = 1;
      op.mask_hi = 0;
      const std::string reason = vu.check(op, kUbSize);
      if (legal) {
        EXPECT_EQ(reason, "") << vec_op_name(o) << " " << dtype_name(t);
      } else {
        EXPECT_EQ(reason, std::string(vec_op_name(o)) + " does not support " + dtype_name(t));
      }
    }
  }
  VectorOp exp = make(VecOp::Exp, DType::S32);
  EXPECT_EQ(vu.check(exp, kUbSize), "Exp does not support s32");
}

TEST(VectorUnitTest, ContinuousMasks) {
  uint32_t seed = 100;
  for (unsigned n : {0u, 1u, 15u, 16u, 17u, 63u, 64u, 65u, 100u, 127u, 128u}) {
    for (auto [o, t] : {std::pair{VecOp::Add, DType::F16}, std::pair{VecOp::Max, DType::S16},
                        std::pair{VecOp::Exp, DType::F16}, std::pair{VecOp::Duplicate, DType::BF16}}) {
      VectorOp op = make(o, t, 3);
      first_n_mask(op, n);
      expect_matches_reference(op, seed++);
    }
    if (n <= 64) {
      for (auto [o, t] : {std::pair{VecOp::Mul, DType::F32}, std::pair{VecOp::Sub, DType::S32},
                          std::pair{VecOp::Relu, DType::F32}}) {
        VectorOp op = make(o, t, 3);
        first_n_mask(op, n);
        expect_matches_reference(op, seed++);
      }
    }
  }
}

TEST(VectorUnitTest, BitwiseMasksIncludingHighWord) {
  std::mt19937_64 rng(5);
  uint32_t seed = 200;
  for (int i = 0; i < 20; ++i) {
    for (const Legal& l : legal_table()) {
      for (DType t : l.dtypes) {
        VectorOp op = make(l.op, t, 2);
        op.mask_lo = rng() & rng();  // sparse-ish, so partial blocks are common
        op.mask_hi = epr_of(t) == 128 ? rng() | rng() : 0;
        if (i == 0) op.mask_lo = 0;  // only the high word: blocks 0..3 untouched
        expect_matches_reference(op, seed++);
      }
    }
  }
}

TEST(VectorUnitTest, CounterModeWithPartialLastRepeat) {
  uint32_t seed = 300;
  for (const Legal& l : legal_table()) {
    for (DType t : l.dtypes) {
      const unsigned epr = epr_of(t);
      VectorOp op = make(l.op, t, 3);
      op.counter_mode = true;
      op.mask_hi = 0xdeadbeef;  // ignored in counter mode
      op.mask_lo = 2 * epr + 37;  // repeat 2 handles its first 37 elements
      expect_matches_reference(op, seed++);
      op.mask_lo = epr / 2 + 3;  // repeats 1 and 2 do nothing
      expect_matches_reference(op, seed++);
      op.mask_lo = 3 * epr;  // exactly full
      expect_matches_reference(op, seed++);
    }
  }
  // Explicit: f32 Adds, counter 70 over 2 repeats writes elements 0..69, not 70.
  VectorUnit vu;
  VectorOp op = make(VecOp::Adds, DType::F32, 2);
  op.dst = op.src0 = 0;
  op.scalar = 1;
  op.counter_mode = true;
  op.mask_lo = 70;
  std::vector<uint8_t> ub(kUbSize, 0);
  ASSERT_EQ(vu.check(op, kUbSize), "");
  vu.execute(op, ub.data());
  EXPECT_EQ(get<float>(ub, 69 * 4), 1.0f);
  EXPECT_EQ(get<float>(ub, 70 * 4), 0.0f);
}

TEST(VectorUnitTest, BlockStrides) {
  uint32_t seed = 400;
  for (const Legal& l : legal_table()) {
    for (DType t : l.dtypes) {
      VectorOp op = make(l.op, t, 3);
      op.dst_blk_stride = op.src0_blk_stride = op.src1_blk_stride = 2;
      op.dst_rep_stride = op.src0_rep_stride = op.src1_rep_stride = 16;
      expect_matches_reference(op, seed++);
      // Mixed strides, blocks interleaved between repeats, and a broadcast block (stride 0).
      op.dst_blk_stride = 2;
      op.dst_rep_stride = 1;
      op.src0_blk_stride = 3;
      op.src0_rep_stride = 24;
      op.src1_blk_stride = 0;
      op.src1_rep_stride = 1;
      expect_matches_reference(op, seed++);
    }
  }
}

TEST(VectorUnitTest, RepeatStrideZeroRereadsTheSameBlocks) {
  uint32_t seed = 500;
  for (const Legal& l : legal_table()) {
    for (DType t : l.dtypes) {
      VectorOp op = make(l.op, t, 4);
      op.src0_rep_stride = op.src1_rep_stride = 0;
      expect_matches_reference(op, seed++);
    }
  }
  // Explicit: every destination repeat holds the same result.
  VectorUnit vu;
  VectorOp op = make(VecOp::Add, DType::F16, 4);
  op.src0_rep_stride = op.src1_rep_stride = 0;
  std::vector<uint8_t> ub = random_ub(DType::F16, kUbSize, 9);
  vu.execute(op, ub.data());
  for (int r = 1; r < 4; ++r) EXPECT_EQ(std::memcmp(&ub[0], &ub[256 * r], 256), 0) << r;
  // Destination repeat stride 0: the last repeat's result wins.
  op = make(VecOp::Add, DType::F16, 4);
  op.dst_rep_stride = 0;
  expect_matches_reference(op, 501);
}

TEST(VectorUnitTest, OverlappingRepeatsInPlaceRunInOrder) {
  uint32_t seed = 600;
  for (const Legal& l : legal_table()) {
    for (DType t : l.dtypes) {
      VectorOp op = make(l.op, t, 6);
      op.dst = op.src0 = 0x1000;
      op.dst_rep_stride = op.src0_rep_stride = 4;  // blocks 4..7 of r are blocks 0..3 of r+1
      expect_matches_reference(op, seed++);
      op.dst_rep_stride = op.src0_rep_stride = 3;
      op.dst_blk_stride = op.src0_blk_stride = 1;
      expect_matches_reference(op, seed++);
    }
  }
  // Explicit: x += 1 with repeat stride 4 over 3 repeats adds 2 to the shared blocks.
  VectorUnit vu;
  VectorOp op = make(VecOp::Adds, DType::F32, 3);
  op.dst = op.src0 = 0;
  op.dst_rep_stride = op.src0_rep_stride = 4;
  op.scalar = 1;
  std::vector<uint8_t> ub(kUbSize, 0);
  vu.execute(op, ub.data());
  EXPECT_EQ(get<float>(ub, 0), 1.0f);          // block 0: repeat 0 only
  EXPECT_EQ(get<float>(ub, 4 * 32), 2.0f);     // block 4: repeats 0 and 1
  EXPECT_EQ(get<float>(ub, 8 * 32), 2.0f);     // block 8: repeats 1 and 2
  EXPECT_EQ(get<float>(ub, 12 * 32), 1.0f);    // block 12: repeat 2 only
  EXPECT_EQ(get<float>(ub, 16 * 32), 0.0f);    // untouched
}

TEST(VectorUnitTest, InPlaceOperands) {
  uint32_t seed = 700;
  for (const Legal& l : legal_table()) {
    for (DType t : l.dtypes) {
      VectorOp op = make(l.op, t, 3);
      op.dst = op.src0;
      expect_matches_reference(op, seed++);
      op = make(l.op, t, 3);
      op.dst = op.src1;
      expect_matches_reference(op, seed++);
      op.src0 = op.src1;  // x op x, in place
      expect_matches_reference(op, seed++);
    }
  }
}

TEST(VectorUnitTest, RandomConfigurationsMatchReference) {
  std::mt19937 rng(42);
  VectorUnit vu;
  int run = 0;
  for (int i = 0; i < 3000 && run < 600; ++i) {
    const Legal& l = legal_table()[rng() % legal_table().size()];
    const DType t = l.dtypes[rng() % l.dtypes.size()];
    VectorOp op = make(l.op, t, rng() % 12);
    auto addr = [&] { return static_cast<uint64_t>(rng() % (kUbSize / 32)) * 32; };
    op.dst = addr();
    op.src0 = rng() % 4 == 0 ? op.dst : addr();
    op.src1 = addr();
    op.dst_blk_stride = rng() % 4;
    op.src0_blk_stride = rng() % 4;
    op.src1_blk_stride = rng() % 4;
    op.dst_rep_stride = rng() % 20;
    op.src0_rep_stride = rng() % 20;
    op.src1_rep_stride = rng() % 20;
    op.scalar = std::uniform_real_distribution<double>(-40, 40)(rng);
    const unsigned epr = epr_of(t);
    switch (rng() % 3) {
      case 0: full_mask(op); break;
      case 1:
        op.mask_lo = (static_cast<uint64_t>(rng()) << 32) | rng();
        op.mask_hi = epr == 128 ? (static_cast<uint64_t>(rng()) << 32) | rng() : 0;
        break;
      default:
        op.counter_mode = true;
        op.mask_lo = op.repeat == 0 ? 0 : rng() % (op.repeat * epr + 1);
        break;
    }
    if (!vu.check(op, kUbSize).empty()) continue;
    expect_matches_reference(op, 800 + i);
    ++run;
  }
  EXPECT_GE(run, 300);
}

TEST(VectorUnitTest, F16RoundsToNearestEvenPerOperation) {
  VectorUnit vu;
  struct Case {
    VecOp op;
    float a, b;
    uint16_t want;
  };
  const Case cases[] = {
      {VecOp::Add, 2048, 1, h(2048)},           // 2049 is a tie -> even 2048
      {VecOp::Add, 2048, 3, h(2052)},           // 2051 is a tie -> even 2052
      {VecOp::Add, 2050, 1, h(2052)},           // 2051 again, from the other side
      {VecOp::Sub, 2048, 0.5f, h(2048)},        // 2047.5: ulp below 2048 is 1, tie -> even
      {VecOp::Add, 1, std::ldexp(1.0f, -11), 0x3c00},         // 1 + ulp/2 -> 1
      {VecOp::Add, 1, std::ldexp(3.0f, -11), 0x3c02},         // 1 + 3ulp/2 -> 1 + 2ulp
      {VecOp::Mul, 300, 300, 0x7c00},                         // 90000 overflows to +inf
      {VecOp::Mul, -300, 300, 0xfc00},
      {VecOp::Mul, std::ldexp(1.0f, -14), 0.5f, 0x0200},      // gradual underflow
      {VecOp::Mul, std::ldexp(1.0f, -24), 0.5f, 0x0000},      // tie below min subnormal -> 0
      {VecOp::Div, 1, 3, 0x3555},                             // 0.333251953125
      {VecOp::Div, 2, 3, 0x3955},
      {VecOp::Add, 65504, 16, 0x7c00},  // 65520: tie between 65504 (odd) and 2^16 -> +inf
      {VecOp::Add, 65504, 15, 0x7bff},  // 65519 rounds down to the largest finite half
  };
  for (const Case& c : cases) {
    VectorOp op = make(c.op, DType::F16, 1);
    first_n_mask(op, 1);
    std::vector<uint8_t> ub(kUbSize, 0);
    put<uint16_t>(ub, op.src0, h(c.a));
    put<uint16_t>(ub, op.src1, h(c.b));
    vu.execute(op, ub.data());
    EXPECT_EQ(get<uint16_t>(ub, op.dst), c.want)
        << vec_op_name(c.op) << "(" << c.a << ", " << c.b << ")";
  }
}

TEST(VectorUnitTest, IntegerArithmeticWraps) {
  VectorUnit vu;
  std::vector<uint8_t> ub(kUbSize, 0);
  VectorOp op = make(VecOp::Add, DType::S32, 1);
  put<int32_t>(ub, op.src0, INT32_MAX);
  put<int32_t>(ub, op.src1, 1);
  put<int32_t>(ub, op.src0 + 4, INT32_MIN);
  put<int32_t>(ub, op.src1 + 4, -1);
  vu.execute(op, ub.data());
  EXPECT_EQ(get<int32_t>(ub, op.dst), INT32_MIN);
  EXPECT_EQ(get<int32_t>(ub, op.dst + 4), INT32_MAX);

  op.op = VecOp::Sub;
  vu.execute(op, ub.data());
  EXPECT_EQ(get<int32_t>(ub, op.dst), INT32_MAX - 1);
  EXPECT_EQ(get<int32_t>(ub, op.dst + 4), INT32_MIN + 1);

  op.op = VecOp::Mul;
  put<int32_t>(ub, op.src0, 65536);
  put<int32_t>(ub, op.src1, 65536);
  put<int32_t>(ub, op.src0 + 4, 46341);
  put<int32_t>(ub, op.src1 + 4, 46341);
  vu.execute(op, ub.data());
  EXPECT_EQ(get<int32_t>(ub, op.dst), 0);
  EXPECT_EQ(get<int32_t>(ub, op.dst + 4), static_cast<int32_t>(46341u * 46341u));

  op = make(VecOp::Muls, DType::S16, 1);
  op.scalar = 300;
  put<int16_t>(ub, op.src0, 300);
  vu.execute(op, ub.data());
  EXPECT_EQ(get<int16_t>(ub, op.dst), static_cast<int16_t>(90000 - 65536));

  op = make(VecOp::Adds, DType::S16, 1);
  op.scalar = 1;
  put<int16_t>(ub, op.src0, INT16_MAX);
  vu.execute(op, ub.data());
  EXPECT_EQ(get<int16_t>(ub, op.dst), INT16_MIN);
}

TEST(VectorUnitTest, DivisionByZeroGivesInfinityAndNaN) {
  VectorUnit vu;
  const float inf = std::numeric_limits<float>::infinity();
  {
    std::vector<uint8_t> ub(kUbSize, 0);
    VectorOp op = make(VecOp::Div, DType::F32, 1);
    put<float>(ub, op.src0, 1.0f);
    put<float>(ub, op.src0 + 4, -1.0f);
    put<float>(ub, op.src0 + 8, 0.0f);
    put<float>(ub, op.src1 + 4, 0.0f);
    put<float>(ub, op.src1 + 12, -0.0f);
    put<float>(ub, op.src0 + 12, 2.0f);
    vu.execute(op, ub.data());
    EXPECT_EQ(get<float>(ub, op.dst), inf);
    EXPECT_EQ(get<float>(ub, op.dst + 4), -inf);
    EXPECT_TRUE(std::isnan(get<float>(ub, op.dst + 8)));
    EXPECT_EQ(get<float>(ub, op.dst + 12), -inf);
  }
  {
    std::vector<uint8_t> ub(kUbSize, 0);
    VectorOp op = make(VecOp::Div, DType::F16, 1);
    put<uint16_t>(ub, op.src0, h(1.0f));
    put<uint16_t>(ub, op.src0 + 2, h(-1.0f));
    vu.execute(op, ub.data());
    EXPECT_EQ(get<uint16_t>(ub, op.dst), 0x7c00);
    EXPECT_EQ(get<uint16_t>(ub, op.dst + 2), 0xfc00);
    const uint16_t nan = get<uint16_t>(ub, op.dst + 4);  // 0 / 0
    EXPECT_EQ(nan & 0x7c00, 0x7c00);
    EXPECT_NE(nan & 0x3ff, 0);
  }
}

TEST(VectorUnitTest, MaxAndMinPropagateNaNAndOrderSignedZeros) {
  VectorUnit vu;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (VecOp o : {VecOp::Max, VecOp::Min}) {
    std::vector<uint8_t> ub(kUbSize, 0);
    VectorOp op = make(o, DType::F32, 1);
    const float a[] = {nan, 1.0f, nan, 0.0f, -0.0f, 3.0f, -5.0f};
    const float b[] = {1.0f, nan, nan, -0.0f, 0.0f, -3.0f, -4.0f};
    for (int i = 0; i < 7; ++i) {
      put<float>(ub, op.src0 + 4 * i, a[i]);
      put<float>(ub, op.src1 + 4 * i, b[i]);
    }
    vu.execute(op, ub.data());
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(get<float>(ub, op.dst + 4 * i))) << i;
    const bool max = o == VecOp::Max;
    EXPECT_EQ(std::signbit(get<float>(ub, op.dst + 12)), !max);
    EXPECT_EQ(std::signbit(get<float>(ub, op.dst + 16)), !max);
    EXPECT_EQ(get<float>(ub, op.dst + 20), max ? 3.0f : -3.0f);
    EXPECT_EQ(get<float>(ub, op.dst + 24), max ? -4.0f : -5.0f);

    // f16: a NaN in either operand gives a NaN.
    op = make(o, DType::F16, 1);
    put<uint16_t>(ub, op.src0, 0x7e00);
    put<uint16_t>(ub, op.src1, h(1));
    put<uint16_t>(ub, op.src0 + 2, h(-1));
    put<uint16_t>(ub, op.src1 + 2, 0xfe00);
    put<uint16_t>(ub, op.src0 + 4, h(2));
    put<uint16_t>(ub, op.src1 + 4, h(7));
    vu.execute(op, ub.data());
    EXPECT_EQ(get<uint16_t>(ub, op.dst), 0x7e00);
    EXPECT_EQ(get<uint16_t>(ub, op.dst + 2), 0xfe00);
    EXPECT_EQ(get<uint16_t>(ub, op.dst + 4), max ? h(7) : h(2));
  }
}

TEST(VectorUnitTest, ReluAbsAndExpSpecialValues) {
  VectorUnit vu;
  std::vector<uint8_t> ub(kUbSize, 0);
  VectorOp op = make(VecOp::Relu, DType::F16, 1);
  put<uint16_t>(ub, op.src0, 0x8000);      // -0 -> +0
  put<uint16_t>(ub, op.src0 + 2, 0x7e00);  // NaN -> +0 (x > 0 is false)
  put<uint16_t>(ub, op.src0 + 4, h(-3));
  put<uint16_t>(ub, op.src0 + 6, h(2.5f));
  vu.execute(op, ub.data());
  EXPECT_EQ(get<uint16_t>(ub, op.dst), 0x0000);
  EXPECT_EQ(get<uint16_t>(ub, op.dst + 2), 0x0000);
  EXPECT_EQ(get<uint16_t>(ub, op.dst + 4), 0x0000);
  EXPECT_EQ(get<uint16_t>(ub, op.dst + 6), h(2.5f));

  op = make(VecOp::Abs, DType::F16, 1);
  put<uint16_t>(ub, op.src0, 0xfd01);  // -sNaN: only the sign changes
  put<uint16_t>(ub, op.src0 + 2, 0x8000);
  put<uint16_t>(ub, op.src0 + 4, 0xfc00);
  vu.execute(op, ub.data());
  EXPECT_EQ(get<uint16_t>(ub, op.dst), 0x7d01);
  EXPECT_EQ(get<uint16_t>(ub, op.dst + 2), 0x0000);
  EXPECT_EQ(get<uint16_t>(ub, op.dst + 4), 0x7c00);

  op = make(VecOp::Abs, DType::F32, 1);
  put<uint32_t>(ub, op.src0, 0xff800001u);
  vu.execute(op, ub.data());
  EXPECT_EQ(get<uint32_t>(ub, op.dst), 0x7f800001u);

  op = make(VecOp::Exp, DType::F16, 1);
  put<uint16_t>(ub, op.src0, h(0));
  put<uint16_t>(ub, op.src0 + 2, h(1));
  put<uint16_t>(ub, op.src0 + 4, h(12));  // e^12 > 65504
  put<uint16_t>(ub, op.src0 + 6, 0xfc00);  // e^-inf = 0
  vu.execute(op, ub.data());
  EXPECT_EQ(get<uint16_t>(ub, op.dst), h(1));
  EXPECT_EQ(get<uint16_t>(ub, op.dst + 2), h(std::exp(1.0f)));
  EXPECT_EQ(get<uint16_t>(ub, op.dst + 4), 0x7c00);
  EXPECT_EQ(get<uint16_t>(ub, op.dst + 6), 0x0000);
}

TEST(VectorUnitTest, DuplicateConvertsTheScalarOnce) {
  VectorUnit vu;
  struct Case {
    DType t;
    double scalar;
    uint32_t want;
  };
  const Case cases[] = {
      {DType::F16, 0.1, h(0.1f)},
      {DType::F16, 1e6, 0x7c00},
      {DType::BF16, 1.00390625, 0x3f80},  // 1 + 2^-8 is a bf16 tie -> even
      {DType::F32, 0.1, fbits(0.1f)},
      {DType::S32, -5.7, static_cast<uint32_t>(-5)},
      {DType::S32, 1e10, static_cast<uint32_t>(INT32_MAX)},
      {DType::S16, -1e10, static_cast<uint16_t>(INT16_MIN)},
      {DType::U16, -3, 0},
      {DType::U16, 70000, 0xffff},
      {DType::U32, 4e9, 4000000000u},
  };
  for (const Case& c : cases) {
    VectorOp op = make(VecOp::Duplicate, c.t, 2);
    op.scalar = c.scalar;
    op.dst_rep_stride = 9;
    std::vector<uint8_t> ub(kUbSize, 0xab);
    ASSERT_EQ(vu.check(op, kUbSize), "");
    vu.execute(op, ub.data());
    const unsigned es = dtype_size(c.t);
    uint32_t first = 0, last = 0, gap = 0;
    std::memcpy(&first, &ub[0], es);
    std::memcpy(&last, &ub[9 * 32 + 256 - es], es);
    std::memcpy(&gap, &ub[256], es);
    EXPECT_EQ(first, c.want) << dtype_name(c.t) << " " << c.scalar;
    EXPECT_EQ(last, c.want) << dtype_name(c.t) << " " << c.scalar;
    EXPECT_EQ(gap, es == 2 ? 0xababu : 0xababababu) << "the gap block must stay untouched";
  }
}

TEST(VectorUnitTest, RepeatZeroDoesNothing) {
  VectorUnit vu;
  for (const Legal& l : legal_table()) {
    for (DType t : l.dtypes) {
      VectorOp op = make(l.op, t, 0);
      ASSERT_EQ(vu.check(op, kUbSize), "");
      std::vector<uint8_t> ub = random_ub(t, kUbSize, 3);
      const std::vector<uint8_t> before = ub;
      vu.execute(op, ub.data());
      EXPECT_EQ(ub, before) << vec_op_name(l.op) << " " << dtype_name(t);
    }
  }
}

TEST(VectorUnitTest, CheckReasons) {
  VectorUnit vu;
  const uint64_t ub = 0x40000;
  VectorOp op = make(VecOp::Add, DType::F16, 256);
  EXPECT_EQ(vu.check(op, ub), "repeat 256 out of range [0, 255]");
  op.repeat = 255;
  EXPECT_EQ(vu.check(op, ub), "");

  op = make(VecOp::Add, DType::F16, 1);
  op.src0 = 0x13;
  EXPECT_EQ(vu.check(op, ub), "src0 address 0x13 not 32 B aligned");
  op = make(VecOp::Add, DType::F16, 1);
  op.dst = 0x110;
  EXPECT_EQ(vu.check(op, ub), "dst address 0x110 not 32 B aligned");
  op = make(VecOp::Add, DType::F16, 1);
  op.src1 = 0x22;
  EXPECT_EQ(vu.check(op, ub), "src1 address 0x22 not 32 B aligned");
  op = make(VecOp::Adds, DType::F16, 1);
  op.src1 = 0x22;  // Adds has no src1: not checked
  EXPECT_EQ(vu.check(op, ub), "");
  op = make(VecOp::Duplicate, DType::F16, 1);
  op.src0 = 0x1;  // nor src0 for Duplicate
  EXPECT_EQ(vu.check(op, ub), "");

  // The header's own example: the last block of the repeat is 32 B past the end.
  op = make(VecOp::Add, DType::F16, 1);
  op.dst = ub - 0x100 + 0x40;
  EXPECT_EQ(vu.check(op, ub), "dst block at 0x40020 (32 B) beyond UB size 0x40000");
  op.dst = ub - 0x100;  // exactly fits
  EXPECT_EQ(vu.check(op, ub), "");
  // Highest block from strides: base + ((repeat-1) * rep + 7 * blk) * 32.
  op = make(VecOp::Add, DType::F32, 10);
  op.src1 = 0x1000;
  op.src1_rep_stride = 100;
  op.src1_blk_stride = 3;
  const uint64_t top = 0x1000 + (9 * 100 + 7 * 3) * 32;
  EXPECT_EQ(vu.check(op, top + 32), "");
  EXPECT_EQ(vu.check(op, top + 31),
            "src1 block at " + hex(top) + " (32 B) beyond UB size " + hex(top + 31));
  // A huge address does not wrap around.
  op = make(VecOp::Add, DType::F16, 2);
  op.src0 = ~0ull - 31;
  EXPECT_NE(vu.check(op, ub).find("src0 block at 0xffffffffffffffe0"), std::string::npos)
      << vu.check(op, ub);
  // Masked-off blocks are not touched: only block 0 enabled at the very end of UB.
  op = make(VecOp::Add, DType::F16, 1);
  op.dst = ub - 32;
  first_n_mask(op, 16);
  EXPECT_EQ(vu.check(op, ub), "");
  first_n_mask(op, 17);
  EXPECT_EQ(vu.check(op, ub), "dst block at 0x40000 (32 B) beyond UB size 0x40000");
  // Counter mode: a partial last repeat touches only its enabled blocks.
  op = make(VecOp::Add, DType::F16, 1);
  op.counter_mode = true;
  op.dst = ub - 7 * 32;
  op.mask_lo = 112;  // 7 blocks
  EXPECT_EQ(vu.check(op, ub), "");
  op.mask_lo = 113;
  EXPECT_NE(vu.check(op, ub), "");
  // ... but a block stride above the repeat stride puts the previous repeat's block 7 higher.
  op = make(VecOp::Add, DType::F16, 2);
  op.counter_mode = true;
  op.mask_lo = 129;  // repeat 1 touches only its block 0, at 1 * 1 blocks
  op.dst_blk_stride = 2;
  op.dst_rep_stride = 1;
  op.dst = ub - 15 * 32;  // repeat 0's block 7 is at 14 blocks: the last block of UB
  EXPECT_EQ(vu.check(op, ub), "");
  op.dst += 32;
  EXPECT_EQ(vu.check(op, ub), "dst block at 0x40000 (32 B) beyond UB size 0x40000");
  op = make(VecOp::Add, DType::F16, 2);
  op.counter_mode = true;
  op.mask_lo = 257;
  EXPECT_EQ(vu.check(op, ub), "counter mask 257 exceeds repeat * elements per repeat (2 * 128 = 256)");
  op.mask_lo = 256;
  EXPECT_EQ(vu.check(op, ub), "");

  // Masks.
  op = make(VecOp::Add, DType::F32, 1);
  op.mask_hi = 1;
  EXPECT_EQ(vu.check(op, ub).rfind("mask_hi must be 0 for f32", 0), 0u) << vu.check(op, ub);
  op.mask_lo = op.mask_hi = 0;  // all-zero mask is legal
  EXPECT_EQ(vu.check(op, ub), "");
  op.counter_mode = true;
  op.mask_hi = 5;  // ignored in counter mode
  EXPECT_EQ(vu.check(op, ub), "");
  op = make(VecOp::Add, DType::F16, 1);
  op.mask_hi = ~0ull;
  EXPECT_EQ(vu.check(op, ub), "");

  // Block stride 0 is legal.
  op = make(VecOp::Add, DType::F16, 3);
  op.src0_blk_stride = op.src1_blk_stride = op.dst_blk_stride = 0;
  EXPECT_EQ(vu.check(op, ub), "");

  EXPECT_EQ(vu.check(make(VecOp::Div, DType::S16), ub), "Div does not support s16");
  EXPECT_EQ(vu.check(make(VecOp::Add, DType::U16), ub), "Add does not support u16");
  EXPECT_EQ(vu.check(make(VecOp::Relu, DType::S16), ub), "Relu does not support s16");
  EXPECT_EQ(vu.check(make(VecOp::Add, DType::BF16), ub), "Add does not support bf16");
}

TEST(VectorUnitTest, ExecuteRejectsAnIllegalDtype) {
  VectorUnit vu;
  std::vector<uint8_t> ub(kUbSize, 0);
  EXPECT_THROW(vu.execute(make(VecOp::Exp, DType::S32), ub.data()), std::logic_error);
}

TEST(VectorUnitTest, CostIsHeadPlusRepeats) {
  VectorUnit vu;  // defaults: 37-cycle head, 1 repeat per cycle
  VectorOp op = make(VecOp::Add, DType::F16, 0);
  EXPECT_EQ(vu.cost(op), 37u);
  op.repeat = 1;
  EXPECT_EQ(vu.cost(op), 38u);
  op.repeat = 255;
  EXPECT_EQ(vu.cost(op), 37u + 255u);

  VectorUnit fast(VectorUnit::Params{10, 2.0});
  op.repeat = 3;
  EXPECT_EQ(fast.cost(op), 10u + 2u);  // ceil(3 / 2)
  op.repeat = 4;
  EXPECT_EQ(fast.cost(op), 10u + 2u);
  VectorUnit tenth(VectorUnit::Params{0, 0.1});
  op.repeat = 3;
  EXPECT_EQ(tenth.cost(op), 30u);  // not 31 from 3 / 0.1 = 30.000000000000004

  // One call with 64 repeats beats 64 calls with one repeat (SPEC.md §1.6).
  op.repeat = 64;
  const uint64_t one_call = vu.cost(op);
  op.repeat = 1;
  const uint64_t many_calls = 64 * vu.cost(op);
  EXPECT_LT(one_call, many_calls);
  EXPECT_EQ(one_call, 37u + 64u);
  EXPECT_EQ(many_calls, 64u * 38u);
}

// ---- The rest of the vector ISA.

VectorOp make_cast(DType s, DType d, RoundMode m, uint32_t repeat = 3) {
  VectorOp op = make(VecOp::Cast, s, repeat);
  op.dst_dtype = d;
  op.round = m;
  const unsigned epr = 256 / std::max(dtype_size(s), dtype_size(d));
  op.mask_hi = epr == 128 ? ~0ull : 0;
  return op;
}

struct CastPair {
  DType s, d;
  std::vector<RoundMode> modes;
};
// Legal Cast pairs and modes, written from docs/vector-isa.md independently of the model.
const std::vector<CastPair>& cast_table() {
  const std::vector<RoundMode> rounded = {RoundMode::None, RoundMode::Rint, RoundMode::Floor,
                                          RoundMode::Ceil, RoundMode::Round, RoundMode::Trunc};
  std::vector<RoundMode> with_odd = rounded;
  with_odd.push_back(RoundMode::Odd);
  const std::vector<RoundMode> integral(rounded.begin() + 1, rounded.end());
  static const std::vector<CastPair> table = {
      {DType::F16, DType::F32, {RoundMode::None}},  {DType::F32, DType::F16, with_odd},
      {DType::F32, DType::S32, rounded},            {DType::S32, DType::F32, rounded},
      {DType::F16, DType::S32, rounded},            {DType::S32, DType::F16, rounded},
      {DType::F16, DType::S8, rounded},             {DType::F16, DType::U8, rounded},
      {DType::S8, DType::F16, {RoundMode::None}},   {DType::U8, DType::F16, {RoundMode::None}},
      {DType::F32, DType::BF16, rounded},           {DType::BF16, DType::F32, {RoundMode::None}},
      {DType::F32, DType::F32, integral},
  };
  return table;
}

TEST(VectorUnitTest, NewOpNamesAndSourceCounts) {
  EXPECT_STREQ(vec_op_name(VecOp::Cast), "Cast");
  EXPECT_STREQ(vec_op_name(VecOp::WholeReduceMax), "WholeReduceMax");
  EXPECT_STREQ(vec_op_name(VecOp::Gather), "Gather");
  EXPECT_STREQ(round_mode_name(RoundMode::Odd), "CAST_ODD");
  EXPECT_STREQ(cmp_mode_name(CmpMode::NE), "NE");
  EXPECT_STREQ(sel_mode_name(SelMode::TensorTensor), "VSEL_TENSOR_TENSOR_MODE");
  EXPECT_STREQ(reduce_order_name(ReduceOrder::OnlyIndex), "ORDER_ONLY_INDEX");
  for (int o = static_cast<int>(VecOp::Ln); o <= static_cast<int>(VecOp::Gather); ++o) {
    const auto op = static_cast<VecOp>(o);
    EXPECT_EQ(vec_op_sources(op), ref_sources(op)) << vec_op_name(op);
    EXPECT_STRNE(vec_op_name(op), "?");
  }
  VectorOp c = make_cast(DType::F32, DType::S32, RoundMode::Floor);
  EXPECT_EQ(vec_op_details(c), " dst_dtype=s32 round=CAST_FLOOR");
  EXPECT_EQ(vec_op_details(make(VecOp::Add, DType::F16)), "");
  EXPECT_EQ(VectorUnit::repeat_elems(make_cast(DType::F16, DType::F32, RoundMode::None)), 64u);
  EXPECT_EQ(VectorUnit::repeat_elems(make_cast(DType::F16, DType::U8, RoundMode::None)), 128u);
  EXPECT_EQ(VectorUnit::max_repeat(VecOp::ReduceSum), 0x7fffffffu);
  EXPECT_EQ(VectorUnit::max_repeat(VecOp::Transpose), 1u);
  EXPECT_EQ(VectorUnit::max_repeat(VecOp::Select), 255u);
}

TEST(VectorUnitTest, CastEveryPairAndModeMatchesReference) {
  uint32_t seed = 2000;
  for (const CastPair& p : cast_table()) {
    for (RoundMode m : p.modes) {
      expect_matches_reference(make_cast(p.s, p.d, m), seed++);
      // Moderate values too: random_ub gives half of them in [-12, 12], where rounding to an
      // integer is interesting; bigger ones saturate.
    }
  }
}

TEST(VectorUnitTest, CastMasksStridesAndCounterMode) {
  uint32_t seed = 2100;
  for (const CastPair& p : cast_table()) {
    const RoundMode m = p.modes.back();
    const unsigned epr = 256 / std::max(dtype_size(p.s), dtype_size(p.d));
    VectorOp op = make_cast(p.s, p.d, m, 3);
    first_n_mask(op, epr / 2 + 3);
    expect_matches_reference(op, seed++);
    op = make_cast(p.s, p.d, m, 3);
    op.mask_lo = 0x8000f00f0ff00f01ull;
    op.mask_hi = epr == 128 ? 0x0123456789abcdefull : 0;
    expect_matches_reference(op, seed++);
    op = make_cast(p.s, p.d, m, 4);
    op.counter_mode = true;
    op.mask_lo = 2 * epr + 17;
    expect_matches_reference(op, seed++);
    // The usual Ascend C strides for a widening/narrowing cast: the narrow side advances 4
    // blocks per repeat; then odd block strides and repeat stride 0.
    op = make_cast(p.s, p.d, m, 5);
    if (dtype_size(p.s) < dtype_size(p.d)) op.src0_rep_stride = 8 * dtype_size(p.s) / dtype_size(p.d);
    if (dtype_size(p.d) < dtype_size(p.s)) op.dst_rep_stride = 8 * dtype_size(p.d) / dtype_size(p.s);
    expect_matches_reference(op, seed++);
    op.src0_blk_stride = 2;
    op.dst_blk_stride = 3;
    op.src0_rep_stride = 0;
    expect_matches_reference(op, seed++);
    // In place: dst over src, repeats overlapping.
    op = make_cast(p.s, p.d, m, 4);
    op.dst = op.src0;
    op.dst_rep_stride = op.src0_rep_stride = 4;
    expect_matches_reference(op, seed++);
  }
}

TEST(VectorUnitTest, CastRoundingModesByHand) {
  VectorUnit vu;
  struct Case {
    DType s, d;
    RoundMode m;
    uint32_t in, want;
  };
  const uint32_t half_tie = fbits(0.5f + std::ldexp(1.0f, -12));  // 0.5 + half an f16 ulp
  const uint32_t above = fbits(0.5f + std::ldexp(3.0f, -13));     // 0.5 + 3/4 ulp
  const Case cases[] = {
      // float -> half: the Ascend C documentation's example, 0.5 + 2^-12.
      {DType::F32, DType::F16, RoundMode::Rint, half_tie, 0x3800},
      {DType::F32, DType::F16, RoundMode::Floor, half_tie, 0x3800},
      {DType::F32, DType::F16, RoundMode::Ceil, half_tie, 0x3801},
      {DType::F32, DType::F16, RoundMode::Round, half_tie, 0x3801},
      {DType::F32, DType::F16, RoundMode::Trunc, half_tie, 0x3800},
      {DType::F32, DType::F16, RoundMode::Odd, half_tie, 0x3801},
      {DType::F32, DType::F16, RoundMode::None, above, 0x3801},
      {DType::F32, DType::F16, RoundMode::Odd, fbits(1.0f), 0x3c00},          // exact stays
      {DType::F32, DType::F16, RoundMode::Odd, fbits(-1.0f - std::ldexp(1.0f, -20)), 0xbc01},
      {DType::F32, DType::F16, RoundMode::Rint, fbits(65520.0f), 0x7bff},     // saturates
      {DType::F32, DType::F16, RoundMode::Ceil, fbits(1e10f), 0x7bff},
      {DType::F32, DType::F16, RoundMode::Floor, fbits(-1e10f), 0xfbff},
      {DType::F32, DType::F16, RoundMode::Rint, fbits(INFINITY), 0x7c00},     // inf stays
      {DType::F32, DType::F16, RoundMode::Floor, fbits(-1e-30f), 0x8001},     // -min subnormal
      {DType::F32, DType::F16, RoundMode::Ceil, fbits(-1e-30f), 0x8000},      // -0
      {DType::F32, DType::F16, RoundMode::Odd, fbits(1e-30f), 0x0001},
      // float -> int32
      {DType::F32, DType::S32, RoundMode::Rint, fbits(2.5f), 2},
      {DType::F32, DType::S32, RoundMode::Round, fbits(2.5f), 3},
      {DType::F32, DType::S32, RoundMode::Round, fbits(-2.5f), static_cast<uint32_t>(-3)},
      {DType::F32, DType::S32, RoundMode::Floor, fbits(-2.25f), static_cast<uint32_t>(-3)},
      {DType::F32, DType::S32, RoundMode::Ceil, fbits(-2.75f), static_cast<uint32_t>(-2)},
      {DType::F32, DType::S32, RoundMode::Trunc, fbits(-2.75f), static_cast<uint32_t>(-2)},
      {DType::F32, DType::S32, RoundMode::None, fbits(3.5f), 4},
      {DType::F32, DType::S32, RoundMode::Rint, fbits(3e9f), 0x7fffffffu},
      {DType::F32, DType::S32, RoundMode::Rint, fbits(-INFINITY), 0x80000000u},
      {DType::F32, DType::S32, RoundMode::Rint, fbits(NAN), 0},
      // half -> int8/uint8 saturate
      {DType::F16, DType::S8, RoundMode::Rint, h(200.0f), 127},
      {DType::F16, DType::S8, RoundMode::Floor, h(-128.5f), 0x80},
      {DType::F16, DType::U8, RoundMode::Trunc, h(-0.75f), 0},
      {DType::F16, DType::U8, RoundMode::Round, h(254.5f), 255},
      // int32 -> float rounds above 2^24
      {DType::S32, DType::F32, RoundMode::Rint, 16777217u, fbits(16777216.0f)},
      {DType::S32, DType::F32, RoundMode::Ceil, 16777217u, fbits(16777218.0f)},
      {DType::S32, DType::F16, RoundMode::Rint, 100000u, 0x7bff},
      {DType::S32, DType::F16, RoundMode::Trunc, 2049u, h(2048.0f)},
      // float -> float: round to an integral value, sign of zero kept
      {DType::F32, DType::F32, RoundMode::Rint, fbits(-0.3f), fbits(-0.0f)},
      {DType::F32, DType::F32, RoundMode::Floor, fbits(-0.3f), fbits(-1.0f)},
      {DType::F32, DType::F32, RoundMode::Round, fbits(0.5f), fbits(1.0f)},
      // bf16
      {DType::F32, DType::BF16, RoundMode::Rint, fbits(1.00390625f), 0x3f80},  // tie -> even
      {DType::F32, DType::BF16, RoundMode::Ceil, fbits(1.00390625f), 0x3f81},
      {DType::BF16, DType::F32, RoundMode::None, 0x3fc0, fbits(1.5f)},
      {DType::U8, DType::F16, RoundMode::None, 255, h(255.0f)},
      {DType::S8, DType::F16, RoundMode::None, 0x80, h(-128.0f)},
  };
  for (const Case& c : cases) {
    VectorOp op = make_cast(c.s, c.d, c.m, 1);
    first_n_mask(op, 1);
    std::vector<uint8_t> ub(kUbSize, 0);
    std::memcpy(&ub[op.src0], &c.in, dtype_size(c.s));
    ASSERT_EQ(vu.check(op, kUbSize), "");
    vu.execute(op, ub.data(), kUbSize);
    uint32_t got = 0;
    std::memcpy(&got, &ub[op.dst], dtype_size(c.d));
    EXPECT_EQ(got, c.want) << dtype_name(c.s) << "->" << dtype_name(c.d) << " "
                           << round_mode_name(c.m) << " of " << hex(c.in);
    EXPECT_EQ(ref_cast(c.s, c.d, c.m, c.in), c.want) << "reference disagrees with the hand value";
  }
}

TEST(VectorUnitTest, CastCheckReasons) {
  VectorUnit vu;
  EXPECT_EQ(vu.check(make_cast(DType::F16, DType::U16, RoundMode::None), kUbSize),
            "Cast does not support f16->u16");
  EXPECT_EQ(vu.check(make_cast(DType::S32, DType::S8, RoundMode::None), kUbSize),
            "Cast does not support s32->s8");
  EXPECT_EQ(vu.check(make_cast(DType::F16, DType::F32, RoundMode::Rint), kUbSize),
            "Cast f16->f32 does not support CAST_RINT");
  EXPECT_EQ(vu.check(make_cast(DType::F32, DType::S32, RoundMode::Odd), kUbSize),
            "Cast f32->s32 does not support CAST_ODD");
  EXPECT_EQ(vu.check(make_cast(DType::F32, DType::F32, RoundMode::None), kUbSize),
            "Cast f32->f32 does not support CAST_NONE");
  // f16 -> f32: 64 elements per repeat, so the high mask word must be 0.
  VectorOp op = make_cast(DType::F16, DType::F32, RoundMode::None);
  op.mask_hi = 1;
  EXPECT_EQ(vu.check(op, kUbSize).rfind("mask_hi must be 0 for f16->f32", 0), 0u) << vu.check(op, kUbSize);
  // The narrow side spans 4 blocks: a 128 B source at the end of UB fits.
  op = make_cast(DType::F16, DType::F32, RoundMode::None, 1);
  op.src0 = kUbSize - 128;
  EXPECT_EQ(vu.check(op, kUbSize), "");
  op.src0 = kUbSize - 96;
  EXPECT_EQ(vu.check(op, kUbSize), "src0 block at " + hex(kUbSize) + " (32 B) beyond UB size " + hex(kUbSize));
}

VectorOp make_compare(VecOp o, DType t, CmpMode m, uint32_t repeat = 3) {
  VectorOp op = make(o, t, repeat);
  op.cmp = m;
  op.dst = 0xc000;  // bit fields: 16 B (f16) or 8 B (f32) per repeat
  return op;
}

// UB of small integers as floats so that equalities are common.
std::function<void(std::vector<uint8_t>&)> small_values(DType t, uint64_t from, uint64_t to, uint32_t seed) {
  return [=](std::vector<uint8_t>& ub) {
    std::mt19937 rng(seed);
    const unsigned size = dtype_size(t);
    for (uint64_t a = from; a < to; a += size) {
      const float v = static_cast<float>(static_cast<int>(rng() % 7) - 3);
      const uint32_t b = ref_from_float(t, v);
      std::memcpy(&ub[a], &b, size);
    }
  };
}

TEST(VectorUnitTest, CompareMatchesReference) {
  uint32_t seed = 2200;
  for (DType t : {DType::F16, DType::F32}) {
    const unsigned epr = epr_of(t);
    for (int m = 0; m < 6; ++m) {
      for (VecOp o : {VecOp::Compare, VecOp::CompareScalar}) {
        VectorOp op = make_compare(o, t, static_cast<CmpMode>(m), 4);
        op.scalar = 1;
        expect_sequence_matches({op}, seed, small_values(t, 0x4000, 0xc000, seed));
        ++seed;
        expect_matches_reference(op, seed++);  // random values, infinities included
        first_n_mask(op, epr - 5);
        op.src0_blk_stride = 2;
        op.src1_rep_stride = 0;
        expect_sequence_matches({op}, seed, small_values(t, 0x4000, 0xc000, seed));
        ++seed;
        op = make_compare(o, t, static_cast<CmpMode>(m), 3);
        op.counter_mode = true;
        op.mask_lo = epr + 9;  // repeat 1 partial (its other bits 0), repeat 2 not executed
        expect_sequence_matches({op}, seed, small_values(t, 0x4000, 0xc000, seed));
        ++seed;
      }
    }
  }
}

TEST(VectorUnitTest, CompareNaNAndSignedZeros) {
  VectorUnit vu;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float a[] = {nan, 1.0f, 0.0f, -0.0f, 2.0f};
  const float b[] = {1.0f, nan, -0.0f, 0.0f, 3.0f};
  // Per mode, the bits of elements 0..4.
  const std::pair<CmpMode, unsigned> want[] = {{CmpMode::LT, 0x10}, {CmpMode::GT, 0x00},
                                               {CmpMode::EQ, 0x0c}, {CmpMode::LE, 0x1c},
                                               {CmpMode::GE, 0x0c}, {CmpMode::NE, 0x13}};
  for (const auto& [m, bits] : want) {
    VectorOp op = make_compare(VecOp::Compare, DType::F32, m, 1);
    std::vector<uint8_t> ub(kUbSize, 0xff);
    for (int i = 0; i < 64; ++i) {
      put<float>(ub, op.src0 + 4 * i, i < 5 ? a[i] : 7.0f);
      put<float>(ub, op.src1 + 4 * i, i < 5 ? b[i] : 7.0f);
    }
    first_n_mask(op, 6);  // element 5 compares 7 with 7; 6.. are masked off: bit 0
    vu.execute(op, ub.data(), kUbSize);
    const bool eq5 = m == CmpMode::EQ || m == CmpMode::LE || m == CmpMode::GE;
    EXPECT_EQ(get<uint64_t>(ub, op.dst), bits | (eq5 ? 0x20u : 0u)) << cmp_mode_name(m);
    EXPECT_EQ(ub[op.dst + 8], 0xff) << "only 8 B per f32 repeat";
  }
}

TEST(VectorUnitTest, CmpMaskRegisterAndSelect) {
  uint32_t seed = 2300;
  for (DType t : {DType::F16, DType::F32}) {
    const unsigned epr = epr_of(t);
    VectorOp set = make(VecOp::SetCmpMask, t, 1);
    set.src0 = 0xe000;
    VectorOp getm = make(VecOp::GetCmpMask, t, 1);
    getm.dst = 0xe100;
    VectorOp cmp = make_compare(VecOp::CompareToCmpMask, t, CmpMode::GT, 1);
    first_n_mask(cmp, epr - 3);
    VectorOp sel = make(VecOp::Select, t, 3);
    sel.sel = SelMode::CmpMaskSpr;
    // SetCmpMask -> Select (same bits every repeat) -> GetCmpMask.
    expect_sequence_matches({set, sel, getm}, seed++);
    // Compare into the register -> Select with masks and strides -> GetCmpMask.
    sel.src1_rep_stride = 0;
    sel.dst_blk_stride = 2;
    first_n_mask(sel, epr - 7);
    expect_sequence_matches({cmp, sel, getm}, seed++);
    // Selection bits from a tensor: the next epr bits each repeat.
    for (SelMode m : {SelMode::TensorScalar, SelMode::TensorTensor}) {
      VectorOp s = make(VecOp::Select, t, 4);
      s.sel = m;
      s.src2 = 0xe000;
      s.scalar = -2.5;
      expect_matches_reference(s, seed++);
      s.counter_mode = true;
      s.mask_lo = 2 * epr + 5;
      expect_matches_reference(s, seed++);
      s = make(VecOp::Select, t, 3);
      s.sel = m;
      s.src2 = 0xe000;
      s.mask_lo = 0xf0f0f0f0f0f0f0f0ull;
      s.mask_hi = epr == 128 ? 0x1ull : 0;
      s.dst = s.src0;  // in place
      expect_matches_reference(s, seed++);
    }
  }
  // The Ascend C documentation's example: mask filters the selected values.
  VectorUnit vu;
  std::vector<uint8_t> ub(kUbSize, 0);
  VectorOp s = make(VecOp::Select, DType::F32, 1);
  s.sel = SelMode::TensorTensor;
  s.src2 = 0xe000;
  for (int i = 0; i < 8; ++i) {
    put<float>(ub, s.src0 + 4 * i, static_cast<float>(i + 1));
    put<float>(ub, s.src1 + 4 * i, static_cast<float>(i + 9));
    put<float>(ub, s.dst + 4 * i, static_cast<float>(-(i + 1)));
  }
  ub[s.src2] = 0xf0;  // selMask [0,0,0,0,1,1,1,1]
  s.mask_lo = 0x0f;   // mask [1,1,1,1,0,0,0,0]
  vu.execute(s, ub.data(), kUbSize);
  const float want[] = {9, 10, 11, 12, -5, -6, -7, -8};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(get<float>(ub, s.dst + 4 * i), want[i]) << i;
}

TEST(VectorUnitTest, CompareThenSelectThroughTheRegisterByHand) {
  VectorUnit vu;
  std::vector<uint8_t> ub(kUbSize, 0);
  VectorOp cmp = make_compare(VecOp::CompareToCmpMask, DType::F16, CmpMode::LT, 1);
  for (int i = 0; i < 128; ++i) {
    put<uint16_t>(ub, cmp.src0 + 2 * i, h(static_cast<float>(i)));
    put<uint16_t>(ub, cmp.src1 + 2 * i, h(64.0f));
  }
  vu.execute(cmp, ub.data(), kUbSize);
  EXPECT_EQ(vu.cmp_mask().w[0], ~0ull);  // 0..63 < 64
  EXPECT_EQ(vu.cmp_mask().w[1], 0ull);
  VectorOp getm = make(VecOp::GetCmpMask, DType::F16, 1);
  getm.dst = 0xe000;
  vu.execute(getm, ub.data(), kUbSize);
  EXPECT_EQ(get<uint64_t>(ub, 0xe000), ~0ull);
  EXPECT_EQ(get<uint64_t>(ub, 0xe008), 0ull);
}

TEST(VectorUnitTest, WholeAndBlockReductionsMatchReference) {
  uint32_t seed = 2400;
  const VecOp ops[] = {VecOp::WholeReduceSum, VecOp::WholeReduceMax, VecOp::WholeReduceMin,
                       VecOp::BlockReduceSum, VecOp::BlockReduceMax, VecOp::BlockReduceMin};
  const ReduceOrder orders[] = {ReduceOrder::ValueIndex, ReduceOrder::IndexValue,
                                ReduceOrder::OnlyValue, ReduceOrder::OnlyIndex};
  for (DType t : {DType::F16, DType::F32}) {
    const unsigned epr = epr_of(t);
    for (VecOp o : ops) {
      for (ReduceOrder ord : orders) {
        const bool sum = o == VecOp::WholeReduceSum || o == VecOp::BlockReduceSum;
        const bool block = o == VecOp::BlockReduceSum || o == VecOp::BlockReduceMax || o == VecOp::BlockReduceMin;
        if ((sum || block) && ord != ReduceOrder::OnlyValue) continue;
        VectorOp op = make(o, t, 5);
        op.order = ord;
        op.dst_rep_stride = 1;
        op.dst = 0xc000;
        expect_matches_reference(op, seed++);
        expect_sequence_matches({op}, seed, small_values(t, 0x4000, 0x8000, seed));
        ++seed;  // ties
        op.dst_rep_stride = 3;
        op.src0_blk_stride = 2;
        op.src0_rep_stride = 5;
        op.mask_lo = 0x00ff00000000f00full;  // blocks without input give no result
        op.mask_hi = epr == 128 ? 0x8000000000000001ull : 0;
        expect_matches_reference(op, seed++);
        op = make(o, t, 4);
        op.order = ord;
        op.dst = 0xc000;
        op.counter_mode = true;
        op.mask_lo = 2 * epr + 21;
        expect_matches_reference(op, seed++);
        op.dst_rep_stride = 0;  // every repeat writes the same record: the last one stays
        expect_matches_reference(op, seed++);
        op = make(o, t, 3);  // destination over the source: repeats run in order
        op.order = ord;
        op.counter_mode = false;
        op.dst = op.src0 + 256;
        expect_matches_reference(op, seed++);
      }
    }
  }
}

TEST(VectorUnitTest, ReduceSumMaxMinMatchReference) {
  uint32_t seed = 2500;
  for (DType t : {DType::F16, DType::F32}) {
    const unsigned epr = epr_of(t);
    for (VecOp o : {VecOp::ReduceSum, VecOp::ReduceMax, VecOp::ReduceMin}) {
      for (ReduceOrder ord : {ReduceOrder::ValueIndex, ReduceOrder::OnlyValue}) {
        VectorOp op = make(o, t, 7);
        op.order = ord;
        op.dst = 0xc000;
        expect_matches_reference(op, seed++);
        expect_sequence_matches({op}, seed, small_values(t, 0x4000, 0x8000, seed));
        ++seed;
        op.counter_mode = true;  // count form: repeat results added in order
        op.mask_lo = 6 * epr + 33;
        expect_matches_reference(op, seed++);
        op = make(o, t, 300);  // more than 255 repeats
        op.order = ord;
        op.dst = 0xfff0;
        op.src0 = 0;
        op.src0_rep_stride = 0;
        op.mask_lo = 0x5555555555555555ull;
        op.mask_hi = epr == 128 ? 0x5555555555555555ull : 0;
        expect_matches_reference(op, seed++);
      }
    }
  }
}

TEST(VectorUnitTest, ReduceSumOrderIsTheContract) {
  VectorUnit vu;
  // Repeat results 2^24, 1, 1, -2^24 (f32, one element each): added in order (count form)
  // the ones are lost; by a tree they survive.
  VectorOp op = make(VecOp::ReduceSum, DType::F32, 4);
  op.src0 = 0;
  op.dst = 0xc000;
  std::vector<uint8_t> ub(kUbSize, 0);
  const float lead[] = {16777216.0f, 1.0f, 1.0f, -16777216.0f};
  for (int r = 0; r < 4; ++r) put<float>(ub, 256 * r, lead[r]);
  op.counter_mode = true;
  op.mask_lo = 4 * 64;
  vu.execute(op, ub.data(), kUbSize);
  EXPECT_EQ(get<float>(ub, op.dst), 0.0f);
  op.counter_mode = false;
  full_mask(op);
  vu.execute(op, ub.data(), kUbSize);
  EXPECT_EQ(get<float>(ub, op.dst), 1.0f);  // (2^24 + 1 -> 2^24) + (1 - 2^24) = 1
}

TEST(VectorUnitTest, BlockReduceSumSaturatesHalfPairs) {
  // The Ascend C documentation's example [60000, 60000, -30000, 100]: 60000 + 60000 saturates
  // to 65504. The model rounds every addition to half (-29900 -> -29904, 35600 -> 35584),
  // where the documentation shows exact intermediate values.
  VectorUnit vu;
  std::vector<uint8_t> ub(kUbSize, 0);
  VectorOp op = make(VecOp::BlockReduceSum, DType::F16, 1);
  op.dst = 0xc000;
  const float x[] = {60000, 60000, -30000, 100};
  for (int i = 0; i < 4; ++i) put<uint16_t>(ub, op.src0 + 2 * i, h(x[i]));
  first_n_mask(op, 4);
  vu.execute(op, ub.data(), kUbSize);
  EXPECT_EQ(get<uint16_t>(ub, op.dst), h(35584.0f));
  EXPECT_EQ(get<uint16_t>(ub, op.dst + 2), 0) << "blocks without input give no result";
  // Infinity is not saturated.
  put<uint16_t>(ub, op.src0, 0x7c00);
  vu.execute(op, ub.data(), kUbSize);
  EXPECT_EQ(get<uint16_t>(ub, op.dst), 0x7c00);
  // Masked-off lanes add -0, the exact identity: a sum of -0 stays -0.
  put<uint16_t>(ub, op.src0, 0x8000);
  first_n_mask(op, 1);
  vu.execute(op, ub.data(), kUbSize);
  EXPECT_EQ(get<uint16_t>(ub, op.dst), 0x8000);
  op.op = VecOp::WholeReduceSum;
  vu.execute(op, ub.data(), kUbSize);
  EXPECT_EQ(get<uint16_t>(ub, op.dst), 0x8000);
}

TEST(VectorUnitTest, ReduceMaxIndexTiesNaNAndSignedZeros) {
  VectorUnit vu;
  std::vector<uint8_t> ub(kUbSize, 0);
  VectorOp op = make(VecOp::ReduceMax, DType::F32, 3);
  op.src0 = 0;
  op.dst = 0xc000;
  for (int i = 0; i < 192; ++i) put<float>(ub, 4 * i, -1.0f);
  put<float>(ub, 4 * 70, 5.0f);
  put<float>(ub, 4 * 150, 5.0f);  // a tie: the first index wins
  vu.execute(op, ub.data(), kUbSize);
  EXPECT_EQ(get<float>(ub, op.dst), 5.0f);
  EXPECT_EQ(get<uint32_t>(ub, op.dst + 4), 70u);
  put<float>(ub, 4 * 100, std::numeric_limits<float>::quiet_NaN());
  vu.execute(op, ub.data(), kUbSize);
  EXPECT_TRUE(std::isnan(get<float>(ub, op.dst)));
  EXPECT_EQ(get<uint32_t>(ub, op.dst + 4), 100u);
  // +0 above -0, -0 below +0.
  for (int i = 0; i < 192; ++i) put<float>(ub, 4 * i, i == 9 ? 0.0f : -0.0f);
  vu.execute(op, ub.data(), kUbSize);
  EXPECT_EQ(get<uint32_t>(ub, op.dst + 4), 9u);
  op.op = VecOp::ReduceMin;
  vu.execute(op, ub.data(), kUbSize);
  EXPECT_EQ(get<uint32_t>(ub, op.dst + 4), 0u);
  EXPECT_TRUE(std::signbit(get<float>(ub, op.dst)));
  // f16: the index is 16-bit integer bits in the second slot.
  op = make(VecOp::WholeReduceMin, DType::F16, 2);
  op.order = ReduceOrder::IndexValue;
  op.src0 = 0;
  op.dst = 0xc000;
  op.dst_rep_stride = 1;
  for (int i = 0; i < 256; ++i) put<uint16_t>(ub, 2 * i, h(static_cast<float>(300 - i)));
  vu.execute(op, ub.data(), kUbSize);
  EXPECT_EQ(get<uint16_t>(ub, op.dst), 127);  // repeat-local index
  EXPECT_EQ(get<uint16_t>(ub, op.dst + 2), h(173.0f));
  EXPECT_EQ(get<uint16_t>(ub, op.dst + 4), 127);
  EXPECT_EQ(get<uint16_t>(ub, op.dst + 6), h(45.0f));
}

TEST(VectorUnitTest, BrcbTransposeGatherMatchReference) {
  uint32_t seed = 2600;
  for (DType t : {DType::F16, DType::BF16, DType::S16, DType::U16, DType::F32, DType::S32, DType::U32}) {
    VectorOp op = make(VecOp::Brcb, t, 5);
    expect_matches_reference(op, seed++);
    op.dst_blk_stride = 2;
    op.dst_rep_stride = 3;  // repeats interleave
    expect_matches_reference(op, seed++);
    op.dst = op.src0;  // in place: each repeat reads its 8 elements first
    op.dst_blk_stride = 1;
    op.dst_rep_stride = 1;
    expect_matches_reference(op, seed++);
  }
  for (DType t : {DType::F16, DType::S16, DType::U16}) {
    VectorOp op = make(VecOp::Transpose, t, 1);
    expect_matches_reference(op, seed++);
    op.dst = op.src0;
    expect_matches_reference(op, seed++);
  }
  for (DType t : {DType::F16, DType::BF16, DType::S16, DType::U16, DType::F32, DType::S32, DType::U32}) {
    const unsigned size = dtype_size(t), epr = epr_of(t);
    auto offsets = [=](std::vector<uint8_t>& ub) {
      std::mt19937 rng(seed);
      for (unsigned k = 0; k < 8 * epr; ++k) {
        const uint32_t off = (rng() % (0x4000 / size)) * size;  // anywhere in [src0, src0 + 16 KiB)
        std::memcpy(&ub[0x8000 + 4 * k], &off, 4);
      }
    };
    VectorOp op = make(VecOp::Gather, t, 4);
    op.src0 = 0x4000 + 2 * size;  // srcBaseAddr: element-aligned, not block-aligned
    expect_sequence_matches({op}, seed++, offsets);
    op.mask_lo = 0x0f0f0f0f0f0f0f0full;
    op.mask_hi = epr == 128 ? 0xf000000000000000ull : 0;
    op.dst_rep_stride = 9;
    expect_sequence_matches({op}, seed++, offsets);
    op = make(VecOp::Gather, t, 6);
    op.counter_mode = true;
    op.mask_lo = 3 * epr + 1;
    op.dst = 0x4000;  // gathering in place: each repeat reads before it writes
    expect_sequence_matches({op}, seed++, offsets);
  }
}

TEST(VectorUnitTest, GatherOffsetsAreBoundedAtExecution) {
  VectorUnit vu;
  std::vector<uint8_t> ub(kUbSize, 0);
  VectorOp op = make(VecOp::Gather, DType::F32, 1);
  first_n_mask(op, 4);
  ASSERT_EQ(vu.check(op, kUbSize), "");
  put<uint32_t>(ub, op.src1 + 8, static_cast<uint32_t>(kUbSize - op.src0));  // element 2: one past UB
  try {
    vu.execute(op, ub.data(), kUbSize);
    ADD_FAILURE() << "no error";
  } catch (const std::exception& e) {
    const std::string text = npuvp::error_text(e);
    EXPECT_NE(text.find("Gather.f32"), std::string::npos) << text;
    EXPECT_NE(text.find("offset[2] = 0xc000 gives source address 0x10000, beyond UB size 0x10000"),
              std::string::npos) << text;
  }
  put<uint32_t>(ub, op.src1 + 8, 6);  // not a multiple of 4
  try {
    vu.execute(op, ub.data(), kUbSize);
    ADD_FAILURE() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(npuvp::error_text(e).find("not aligned to the 4-byte element"), std::string::npos)
        << npuvp::error_text(e);
  }
  // A masked-off element's offset is never read.
  put<uint32_t>(ub, op.src1 + 8, 8);
  put<uint32_t>(ub, op.src1 + 16, 0xffffffffu);
  EXPECT_NO_THROW(vu.execute(op, ub.data(), kUbSize));
  // The two-argument execute bounds by the size last checked.
  EXPECT_EQ(vu.check(op, kUbSize), "");
  EXPECT_NO_THROW(vu.execute(op, ub.data()));
}

TEST(VectorUnitTest, SplitRunsEqualOneRun) {
  // VectorUnit::advance: k repeats, then the rest from advance(op, k), is one run.
  uint32_t seed = 2700;
  std::vector<VectorOp> ops;
  ops.push_back(make(VecOp::Add, DType::F16, 6));
  ops.push_back(make_cast(DType::F16, DType::F32, RoundMode::None, 6));
  ops.push_back(make_cast(DType::F32, DType::F16, RoundMode::Odd, 6));
  ops.push_back(make_compare(VecOp::Compare, DType::F32, CmpMode::LE, 6));
  VectorOp sel = make(VecOp::Select, DType::F16, 6);
  sel.sel = SelMode::TensorTensor;
  sel.src2 = 0xe000;
  ops.push_back(sel);
  VectorOp whole = make(VecOp::WholeReduceMax, DType::F32, 6);
  whole.dst = 0xc000;
  whole.dst_rep_stride = 2;
  ops.push_back(whole);
  VectorOp block = make(VecOp::BlockReduceSum, DType::F16, 6);
  block.dst = 0xc000;
  block.dst_rep_stride = 3;
  ops.push_back(block);
  ops.push_back(make(VecOp::Brcb, DType::U32, 6));
  for (VectorOp op : ops) {
    op.dst_blk_stride = op.op == VecOp::Brcb ? 2 : op.dst_blk_stride;
    op.src0_rep_stride = op.op == VecOp::Brcb ? op.src0_rep_stride : 7;
    op.counter_mode = op.op != VecOp::Brcb;
    op.mask_lo = 6 * VectorUnit::repeat_elems(op) - 3;
    VectorOp first = op, rest = VectorUnit::advance(op, 4);
    first.repeat = 4;
    rest.repeat = 2;
    if (op.counter_mode) {
      first.mask_lo = 4 * VectorUnit::repeat_elems(op);
      rest.mask_lo = op.mask_lo - first.mask_lo;
    }
    SCOPED_TRACE(describe(op));
    VectorUnit one, two;
    std::vector<uint8_t> a = random_ub(op.dtype, kUbSize, seed++);
    std::vector<uint8_t> b = a;
    ASSERT_EQ(one.check(op, kUbSize), "");
    one.execute(op, a.data(), kUbSize);
    two.execute(first, b.data(), kUbSize);
    two.execute(rest, b.data(), kUbSize);
    EXPECT_TRUE(a == b);
  }
}

TEST(VectorUnitTest, NewOpsCheckReasons) {
  VectorUnit vu;
  const uint64_t ub = 0x40000;
  // dtypes
  EXPECT_EQ(vu.check(make(VecOp::Ln, DType::S32), ub), "Ln does not support s32");
  EXPECT_EQ(vu.check(make(VecOp::And, DType::F16), ub), "And does not support f16");
  EXPECT_EQ(vu.check(make(VecOp::Select, DType::S16), ub), "Select does not support s16");
  EXPECT_EQ(vu.check(make(VecOp::Transpose, DType::F32), ub), "Transpose does not support f32");
  EXPECT_EQ(vu.check(make(VecOp::Gather, DType::S8), ub), "Gather does not support s8");
  EXPECT_EQ(vu.check(make(VecOp::WholeReduceSum, DType::S32), ub), "WholeReduceSum does not support s32");
  EXPECT_EQ(vu.check(make(VecOp::Brcb, DType::BF16), ub), "");
  // Transpose: one 512 B matrix, 32 B aligned.
  VectorOp op = make(VecOp::Transpose, DType::F16, 2);
  EXPECT_EQ(vu.check(op, ub), "Transpose runs once: repeat 2 out of range [0, 1]");
  op.repeat = 1;
  op.src0 = 0x4010;
  EXPECT_EQ(vu.check(op, ub), "src0 address 0x4010 not 32 B aligned");
  op.src0 = ub - 256;
  EXPECT_EQ(vu.check(op, ub), "src0 bytes [0x3ff00, 0x40100) beyond UB size 0x40000");
  // Compare: the bit field is the destination.
  op = make_compare(VecOp::Compare, DType::F16, CmpMode::EQ, 4);
  op.dst = ub - 32;  // 4 repeats x 16 B
  EXPECT_EQ(vu.check(op, ub), "dst bytes [0x3ffe0, 0x40020) beyond UB size 0x40000");
  op.dst = ub - 64;
  EXPECT_EQ(vu.check(op, ub), "");
  op.dst = 0x10;
  EXPECT_EQ(vu.check(op, ub), "dst address 0x10 not 32 B aligned");
  // Select: the selection bits must be in UB too; mode 0 does not read them.
  op = make(VecOp::Select, DType::F32, 8);
  op.sel = SelMode::TensorTensor;
  op.src2 = ub - 32;
  EXPECT_EQ(vu.check(op, ub), "src2 bytes [0x3ffe0, 0x40020) beyond UB size 0x40000");
  op.sel = SelMode::CmpMaskSpr;
  EXPECT_EQ(vu.check(op, ub), "");
  // Reductions: destination alignment and extent in their own units.
  op = make(VecOp::ReduceMax, DType::F32, 2);
  op.dst = 0x104;
  EXPECT_EQ(vu.check(op, ub), "dst address 0x104 not 8 B aligned");
  op.order = ReduceOrder::OnlyValue;
  EXPECT_EQ(vu.check(op, ub), "");
  op.order = ReduceOrder::IndexValue;
  EXPECT_EQ(vu.check(op, ub), "ReduceMax stores ORDER_VALUE_INDEX or ORDER_ONLY_VALUE, not ORDER_INDEX_VALUE");
  op = make(VecOp::ReduceMin, DType::F16, 513);
  op.src0_rep_stride = 0;
  EXPECT_EQ(vu.check(op, ub), "ReduceMin over 65664 f16 elements: an index above 65535 does not fit the 16-bit index slot");
  op.order = ReduceOrder::OnlyValue;
  EXPECT_EQ(vu.check(op, ub), "");
  op = make(VecOp::ReduceSum, DType::F32, 256);  // more than 255 repeats is fine here
  op.src0_rep_stride = 0;
  EXPECT_EQ(vu.check(op, ub), "");
  op = make(VecOp::WholeReduceSum, DType::F32, 10);
  op.dst = ub - 40;
  op.dst_rep_stride = 1;
  EXPECT_EQ(vu.check(op, ub), "");
  op.dst_rep_stride = 2;
  EXPECT_EQ(vu.check(op, ub), "dst bytes [0x3ffd8, 0x40024) beyond UB size 0x40000");  // (9 * 2 + 1) * 4 B
  op = make(VecOp::BlockReduceMax, DType::F16, 2);
  op.dst = 0x108;
  EXPECT_EQ(vu.check(op, ub), "dst address 0x108 not 16 B aligned");
  op.dst = ub - 32;  // 2 repeats x 8 halves
  op.dst_rep_stride = 1;
  EXPECT_EQ(vu.check(op, ub), "");
  op.dst_rep_stride = 2;  // the last result in slot 1 * 2 * 8 + 7
  EXPECT_EQ(vu.check(op, ub), "dst bytes [0x3ffe0, 0x40010) beyond UB size 0x40000");
  // Brcb: src0 is 8 elements per repeat; dst all 8 blocks whatever the mask.
  op = make(VecOp::Brcb, DType::F32, 4);
  op.src0 = ub - 96;
  EXPECT_EQ(vu.check(op, ub), "src0 bytes [0x3ffa0, 0x40020) beyond UB size 0x40000");
  op = make(VecOp::Brcb, DType::F32, 1);
  op.mask_lo = 1;
  op.dst = ub - 224;
  EXPECT_EQ(vu.check(op, ub), "dst block at 0x40000 (32 B) beyond UB size 0x40000");
  // Gather: offsets in UB, 32 B aligned; the base only element-aligned.
  op = make(VecOp::Gather, DType::F16, 2);
  op.src0 = 0x102;
  EXPECT_EQ(vu.check(op, ub), "");
  op.src0 = 0x101;
  EXPECT_EQ(vu.check(op, ub), "src0 address 0x101 not 2 B aligned");
  op.src0 = 0;
  op.src1 = ub - 512;  // 256 offsets of 4 B
  EXPECT_EQ(vu.check(op, ub), "src1 bytes [0x3fe00, 0x40200) beyond UB size 0x40000");
  op.src1 = ub - 1024;
  EXPECT_EQ(vu.check(op, ub), "");
  // The register ops touch 16 B.
  op = make(VecOp::SetCmpMask, DType::F16, 1);
  op.src0 = ub - 16;
  EXPECT_EQ(vu.check(op, ub), "src0 address 0x3fff0 not 32 B aligned");
  op = make(VecOp::CompareToCmpMask, DType::F16, 2);
  EXPECT_EQ(vu.check(op, ub), "CompareToCmpMask runs once: repeat 2 out of range [0, 1]");
}

TEST(VectorUnitTest, ReductionCostCountsEveryRound) {
  VectorUnit vu;  // 37-cycle head, 1 repeat per cycle
  VectorOp op = make(VecOp::ReduceSum, DType::F32, 1);
  EXPECT_EQ(vu.cost(op), 38u);
  op.repeat = 64;  // 64 results: one more round of 1 repeat
  EXPECT_EQ(vu.cost(op), 37u + 64u + 37u + 1u);
  op.repeat = 65;  // 65 results: 2 repeats, then 2 results: 1 repeat
  EXPECT_EQ(vu.cost(op), 37u + 65u + 37u + 2u + 37u + 1u);
  op.op = VecOp::WholeReduceSum;
  op.repeat = 65;
  EXPECT_EQ(vu.cost(op), 37u + 65u);
}

}  // namespace vector_unit_test
}  // namespace npuvp::aicore
