// VectorUnit against a deliberately plain reference: element by element, repeat by repeat,
// block by block, with the mask and strides applied literally (SPEC.md §1.6) and the numerics
// done through the integer-only half converters. Whole UBs are compared bit for bit, so
// masked-off and untouched bytes are checked too.
#include "models/aicore/vector_unit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "models/numerics/bfloat16.h"
#include "models/numerics/fp16.h"

namespace npuvp::aicore {
namespace {

constexpr uint64_t kUbSize = 64 * 1024;

uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
float ffrom(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// ---- The reference.

unsigned size_of(DType t) {
  switch (t) {
    case DType::F16: case DType::BF16: case DType::S16: case DType::U16: return 2;
    case DType::F32: case DType::S32: case DType::U32: return 4;
    default: return 1;
  }
}

bool is_scalar_op(VecOp op) { return op == VecOp::Adds || op == VecOp::Muls; }

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
    case VecOp::Duplicate: return 0;
    case VecOp::Adds: case VecOp::Muls: case VecOp::Abs: case VecOp::Relu: case VecOp::Exp:
      return 1;
    default: return 2;
  }
}

// Literal per-element execution. Each repeat reads every enabled element's sources before
// writing any of its results; repeats run in order.
void ref_execute(const VectorOp& op, std::vector<uint8_t>& ub) {
  const unsigned size = size_of(op.dtype);
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

// ---- Harness.

// A UB full of random elements of `t`: floats are never NaN (so that which of two NaN
// payloads wins is never asked; NaN has its own tests) but include infinities, subnormals
// and, half of the time, moderate values that make Exp/Mul interesting.
std::vector<uint8_t> random_ub(DType t, uint64_t size, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<uint32_t> bits;
  std::uniform_real_distribution<float> moderate(-12.0f, 12.0f);
  std::vector<uint8_t> ub(size);
  const unsigned es = size_of(t);
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

// Executes `op` on a random UB with the model and with the reference; the UBs must be equal.
void expect_matches_reference(const VectorOp& op, uint32_t seed, uint64_t ub_size = kUbSize) {
  SCOPED_TRACE(describe(op));
  const VectorUnit vu;
  ASSERT_EQ(vu.check(op, ub_size), "");
  std::vector<uint8_t> got = random_ub(op.dtype, ub_size, seed);
  std::vector<uint8_t> want = got;
  ref_execute(op, want);
  vu.execute(op, got.data());
  if (got != want) {
    const unsigned es = size_of(op.dtype);
    int shown = 0;
    for (uint64_t off = 0; off < ub_size && shown < 5; off += es) {
      if (std::memcmp(&got[off], &want[off], es) != 0) {
        uint32_t g = 0, w = 0;
        std::memcpy(&g, &got[off], es);
        std::memcpy(&w, &want[off], es);
        ADD_FAILURE() << "UB " << hex(off) << ": model " << hex(g) << ", reference " << hex(w);
        ++shown;
      }
    }
  }
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
  };
  return table;
}

const DType kAllDTypes[] = {DType::F16, DType::BF16, DType::F32, DType::S8, DType::U8,
                            DType::S16, DType::U16,  DType::S32, DType::U32};
const VecOp kAllOps[] = {VecOp::Add,  VecOp::Sub,  VecOp::Mul, VecOp::Div,
                         VecOp::Max,  VecOp::Min,  VecOp::Adds, VecOp::Muls,
                         VecOp::Abs,  VecOp::Relu, VecOp::Exp, VecOp::Duplicate};

unsigned epr_of(DType t) { return 256 / size_of(t); }

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
  const VectorUnit vu;
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
  const VectorUnit vu;
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
  const VectorUnit vu;
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
  const VectorUnit vu;
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
  const VectorUnit vu;
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
  const VectorUnit vu;
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
  const VectorUnit vu;
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
  const VectorUnit vu;
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
  const VectorUnit vu;
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
  const VectorUnit vu;
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
  const VectorUnit vu;
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
    const unsigned es = size_of(c.t);
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
  const VectorUnit vu;
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
  const VectorUnit vu;
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
  const VectorUnit vu;
  std::vector<uint8_t> ub(kUbSize, 0);
  EXPECT_THROW(vu.execute(make(VecOp::Exp, DType::S32), ub.data()), std::logic_error);
}

TEST(VectorUnitTest, CostIsHeadPlusRepeats) {
  const VectorUnit vu;  // defaults: 37-cycle head, 1 repeat per cycle
  VectorOp op = make(VecOp::Add, DType::F16, 0);
  EXPECT_EQ(vu.cost(op), 37u);
  op.repeat = 1;
  EXPECT_EQ(vu.cost(op), 38u);
  op.repeat = 255;
  EXPECT_EQ(vu.cost(op), 37u + 255u);

  const VectorUnit fast(VectorUnit::Params{10, 2.0});
  op.repeat = 3;
  EXPECT_EQ(fast.cost(op), 10u + 2u);  // ceil(3 / 2)
  op.repeat = 4;
  EXPECT_EQ(fast.cost(op), 10u + 2u);
  const VectorUnit tenth(VectorUnit::Params{0, 0.1});
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

}  // namespace
}  // namespace npuvp::aicore
