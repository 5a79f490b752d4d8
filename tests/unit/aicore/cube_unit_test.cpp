// CubeUnit against a deliberately plain reference: one output element at a time, operands
// decoded from the fractal layouts exactly as the comment at struct Mmad (isa.h) states them,
// halves widened and narrowed through the integer-only converters of fp16.h, and the
// accumulation written literally as the contract says (SPEC.md §1.4): separate multiply and
// add for f16/bf16 (this file is built with -ffp-contract=off, so nothing is fused), std::fma
// for f32, uint32 arithmetic for the integer wrap. Whole L0C buffers are compared, so
// padding rows/columns and bytes outside C are checked too; only NaN payloads are not pinned
// (the contract does not define which NaN a NaN result carries), NaN-ness is.
//
// Every comparison runs once per kernel level the CPU has (scalar, AVX2, AVX-512), through a
// test hook in cube_unit.cpp.
#include "models/aicore/cube_unit.h"
#include "tests/support/bits.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "models/numerics/fp16.h"

namespace npuvp::aicore {
namespace detail {
int set_cube_kernel_level(int level);  // defined in cube_gemm.cpp (test hook)
}  // namespace detail

namespace cube_unit_test {

// ---- Small helpers.

using npuvp::testing::fbits;
using npuvp::testing::ffrom;
uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
template <class T>
T load(const std::vector<uint8_t>& buf, uint64_t off) {
  T v;
  std::memcpy(&v, buf.data() + off, sizeof v);
  return v;
}
template <class T>
void store(std::vector<uint8_t>& buf, uint64_t off, T v) {
  std::memcpy(buf.data() + off, &v, sizeof v);
}

// The kernel levels this CPU can run, and a guard that restores the default afterwards.
std::vector<int> kernel_levels() {
  std::vector<int> levels;
  for (int level = 0; level <= 2; ++level) {
    if (detail::set_cube_kernel_level(level) == level) levels.push_back(level);
  }
  detail::set_cube_kernel_level(-1);
  return levels;
}
struct LevelGuard {
  ~LevelGuard() { detail::set_cube_kernel_level(-1); }
};

// ---- The reference.

struct Geometry {
  uint32_t K0, M1, N1, K1;
  explicit Geometry(const Mmad& op)
      : K0(32 / dtype_size(op.a_type)),
        M1(ceil_div(op.m, 16)),
        N1(ceil_div(op.n, 16)),
        K1(ceil_div(op.k, 32 / dtype_size(op.a_type))) {}
};

// Byte offsets of element (i, kk) of A, (kk, j) of B, (i, j) of C (isa.h, struct Mmad).
uint64_t a_offset(const Mmad& op, const Geometry& g, uint32_t i, uint32_t kk) {
  return op.a + (uint64_t(i / 16) * g.K1 + kk / g.K0) * 512 +
         (uint64_t(i % 16) * g.K0 + kk % g.K0) * dtype_size(op.a_type);
}
uint64_t b_offset(const Mmad& op, const Geometry& g, uint32_t kk, uint32_t j) {
  return op.b + (uint64_t(kk / g.K0) * g.N1 + j / 16) * 512 +
         (uint64_t(j % 16) * g.K0 + kk % g.K0) * dtype_size(op.b_type);
}
uint64_t c_offset(const Mmad& op, const Geometry& g, uint32_t i, uint32_t j) {
  return op.c + ((uint64_t(j / 16) * g.M1 + i / 16) * 256 + (i % 16) * 16 + j % 16) *
                    dtype_size(op.c_type);
}

float decode_float(DType t, const std::vector<uint8_t>& buf, uint64_t off) {
  switch (t) {
    case DType::F16: return f16_to_f32_reference(load<uint16_t>(buf, off));
    case DType::BF16: return ffrom(uint32_t(load<uint16_t>(buf, off)) << 16);
    default: return load<float>(buf, off);
  }
}
int32_t decode_int(DType t, const std::vector<uint8_t>& buf, uint64_t off) {
  return t == DType::U8 ? int32_t(load<uint8_t>(buf, off)) : int32_t(load<int8_t>(buf, off));
}

// Computes the whole M1 x N1 fractal grid into a copy of `l0c`.
std::vector<uint8_t> reference(const Mmad& op, const std::vector<uint8_t>& l0a,
                               const std::vector<uint8_t>& l0b, const std::vector<uint8_t>& l0c,
                               const std::vector<uint8_t>& bt) {
  std::vector<uint8_t> out = l0c;
  const Geometry g(op);
  const bool ints = op.a_type == DType::S8 || op.a_type == DType::U8;
  for (uint32_t i = 0; i < g.M1 * 16; ++i) {
    for (uint32_t j = 0; j < g.N1 * 16; ++j) {
      const uint64_t co = c_offset(op, g, i, j);
      if (ints) {
        uint32_t acc = op.init_c ? 0u : load<uint32_t>(l0c, co);
        for (uint32_t kk = 0; kk < op.k; ++kk) {
          const int32_t p = decode_int(op.a_type, l0a, a_offset(op, g, i, kk)) *
                            decode_int(op.b_type, l0b, b_offset(op, g, kk, j));
          acc += uint32_t(p);  // two's-complement wrap
        }
        store(out, co, acc);
        continue;
      }
      float acc;
      if (op.init_c) {
        acc = 0.0f;
      } else if (op.bias) {
        acc = load<float>(bt, op.bias_addr + uint64_t(j) * 4);
      } else {
        acc = op.c_type == DType::F16 ? f16_to_f32_reference(load<uint16_t>(l0c, co))
                                      : load<float>(l0c, co);
      }
      for (uint32_t kk = 0; kk < op.k; ++kk) {
        const float a = decode_float(op.a_type, l0a, a_offset(op, g, i, kk));
        const float b = decode_float(op.b_type, l0b, b_offset(op, g, kk, j));
        if (op.a_type == DType::F32) {
          acc = std::fma(a, b, acc);
        } else {
          const float p = a * b;  // exact for f16; rounded (maybe to inf or 0) for bf16
          acc = acc + p;
        }
      }
      if (op.c_type == DType::F16) {
        store(out, co, f32_to_f16_reference(acc));
      } else {
        store(out, co, acc);
      }
    }
  }
  return out;
}

// ---- Random data.

// A distribution of raw element bits for one dtype.
using Gen = std::function<uint32_t(std::mt19937&)>;

// Moderate magnitudes: products and sums stay finite, every add still rounds.
Gen moderate(DType t) {
  return [t](std::mt19937& rng) -> uint32_t {
    switch (t) {
      case DType::F16: return (rng() & 0x8000u) | ((8 + rng() % 15) << 10) | (rng() & 0x3ffu);
      case DType::BF16: return (rng() & 0x8000u) | ((120 + rng() % 15) << 7) | (rng() & 0x7fu);
      case DType::F32: return (rng() & 0x80000000u) | ((120 + rng() % 15) << 23) | (rng() & 0x7fffffu);
      default: return rng() & 0xffu;  // any byte
    }
  };
}

// The whole exponent range, with zeros, subnormals, and rare infinities and NaNs: big and tiny
// terms meet, sums cancel, products overflow or underflow (bf16/f32).
Gen extreme(DType t) {
  return [t](std::mt19937& rng) -> uint32_t {
    const uint32_t pick = rng() % 1000;
    const uint32_t sign = rng() & 1u;
    switch (t) {
      case DType::F16: {
        const uint32_t s = sign << 15;
        if (pick < 3) return s | 0x7c00u;                               // inf
        if (pick < 6) return s | 0x7c00u | (1 + rng() % 0x3ffu);        // NaN
        if (pick < 60) return s;                                        // +-0
        if (pick < 160) return s | (1 + rng() % 0x3ffu);                // subnormal
        return s | ((1 + rng() % 30) << 10) | (rng() & 0x3ffu);         // any normal
      }
      case DType::BF16: {
        const uint32_t s = sign << 15;
        if (pick < 3) return s | 0x7f80u;
        if (pick < 6) return s | 0x7f80u | (1 + rng() % 0x7fu);
        if (pick < 60) return s;
        if (pick < 160) return s | (1 + rng() % 0x7fu);
        return s | ((1 + rng() % 254) << 7) | (rng() & 0x7fu);
      }
      case DType::F32: {
        const uint32_t s = sign << 31;
        if (pick < 3) return s | 0x7f800000u;
        if (pick < 6) return s | 0x7f800000u | (1 + rng() % 0x7fffffu);
        if (pick < 60) return s;
        if (pick < 160) return s | (1 + rng() % 0x7fffffu);
        return s | ((1 + rng() % 254) << 23) | (rng() & 0x7fffffu);
      }
      default: {
        // Mostly the extremes of the 8-bit ranges, so that int32 sums grow fast.
        static const uint8_t kEdges[] = {0x80, 0x7f, 0xff, 0x00, 0x81, 0x01};
        return pick < 700 ? kEdges[rng() % 6] : rng() & 0xffu;
      }
    }
  };
}

void fill(std::vector<uint8_t>& buf, DType t, const Gen& gen, std::mt19937& rng) {
  const unsigned size = dtype_size(t);
  for (size_t off = 0; off + size <= buf.size(); off += size) {
    const uint32_t v = gen(rng);
    std::memcpy(buf.data() + off, &v, size);  // little-endian: the low bytes
  }
}

struct Case {
  Mmad op;
  CubeUnit::Params params;
  std::vector<uint8_t> l0a, l0b, l0c, bt;
};

// Buffers sized to the operands plus some slack, filled from the generators. Operand
// addresses are non-zero so that address arithmetic is exercised.
Case make_case(const Mmad& op, const CubeUnit::Params& params, const Gen& ab_gen,
               const Gen& c_gen, uint32_t seed) {
  std::mt19937 rng(seed);
  Case cs{op, params, {}, {}, {}, {}};
  const Geometry g(op);
  cs.op.a = 3 * 512;
  cs.op.b = 5 * 512;
  cs.op.c = 7 * 64;
  cs.op.bias_addr = 2 * 64;
  cs.l0a.resize(cs.op.a + uint64_t(g.M1) * g.K1 * 512 + 512);
  cs.l0b.resize(cs.op.b + uint64_t(g.K1) * g.N1 * 512 + 512);
  cs.l0c.resize(cs.op.c + uint64_t(g.M1) * g.N1 * 256 * dtype_size(op.c_type) + 64);
  cs.bt.resize(cs.op.bias_addr + uint64_t(g.N1) * 64 + 64);
  fill(cs.l0a, op.a_type, ab_gen, rng);
  fill(cs.l0b, op.b_type, ab_gen, rng);
  fill(cs.l0c, op.c_type, c_gen, rng);
  fill(cs.bt, DType::F32, moderate(DType::F32), rng);
  return cs;
}

bool is_nan_bits(DType t, const std::vector<uint8_t>& buf, uint64_t off) {
  if (t == DType::F32) return std::isnan(load<float>(buf, off));
  if (t == DType::F16) return (load<uint16_t>(buf, off) & 0x7fffu) > 0x7c00u;
  return false;
}

// Runs `cs` at every kernel level and compares the whole L0C with the reference. Returns the
// reference result.
std::vector<uint8_t> expect_matches_reference(const Case& cs) {
  const CubeUnit cube(cs.params);
  EXPECT_EQ(cube.check(cs.op, cs.l0a.size(), cs.l0b.size(), cs.l0c.size(), cs.bt.size()), "");
  const std::vector<uint8_t> want = reference(cs.op, cs.l0a, cs.l0b, cs.l0c, cs.bt);
  const unsigned csize = dtype_size(cs.op.c_type);
  LevelGuard guard;
  for (int level : kernel_levels()) {
    SCOPED_TRACE("kernel level " + std::to_string(level));
    detail::set_cube_kernel_level(level);
    std::vector<uint8_t> got = cs.l0c;
    cube.execute(cs.op, cs.l0a.data(), cs.l0b.data(), got.data(), cs.bt.data());
    int mismatches = 0;
    for (uint64_t off = 0; off < got.size(); off += csize) {
      if (std::memcmp(got.data() + off, want.data() + off, csize) == 0) continue;
      const bool in_c = off >= cs.op.c;
      if (in_c && is_nan_bits(cs.op.c_type, got, off) && is_nan_bits(cs.op.c_type, want, off)) {
        continue;
      }
      if (++mismatches <= 5) {
        uint32_t g = 0, w = 0;
        std::memcpy(&g, got.data() + off, csize);
        std::memcpy(&w, want.data() + off, csize);
        const uint64_t e = (off - cs.op.c) / csize;
        ADD_FAILURE() << "m=" << cs.op.m << " n=" << cs.op.n << " k=" << cs.op.k
                      << ": L0C byte " << off << " (C element " << e << ", fractal " << e / 256
                      << ", row " << e % 256 / 16 << ", col " << e % 16 << "): got 0x"
                      << std::hex << g << ", want 0x" << w;
      }
    }
    EXPECT_EQ(mismatches, 0);
  }
  return want;
}

Mmad mmad(uint32_t m, uint32_t n, uint32_t k, DType a, DType b, DType c) {
  Mmad op;
  op.m = m;
  op.n = n;
  op.k = k;
  op.a_type = a;
  op.b_type = b;
  op.c_type = c;
  return op;
}

CubeUnit::Params a2() {
  CubeUnit::Params p;
  p.a2_types = true;
  return p;
}
CubeUnit::Params coupled() {
  CubeUnit::Params p;
  p.f16_output = true;
  return p;
}

// ---- Numerics.

TEST(CubeUnitTest, KernelLevelsAvailable) {
  const std::vector<int> levels = kernel_levels();
  ASSERT_FALSE(levels.empty());
  EXPECT_EQ(levels.front(), 0);
  std::string names;
  for (int l : levels) names += std::to_string(l) + " ";
  RecordProperty("kernel_levels", names);
}

TEST(CubeUnitTest, F16F32Shapes) {
  const uint32_t shapes[][3] = {{16, 16, 16}, {1, 1, 1},    {17, 33, 50},   {64, 48, 130},
                                {128, 128, 128}, {32, 48, 300}, {16, 80, 600}, {48, 16, 257}};
  uint32_t seed = 1;
  for (const auto& s : shapes) {
    SCOPED_TRACE(::testing::Message() << s[0] << "x" << s[1] << "x" << s[2]);
    const Mmad op = mmad(s[0], s[1], s[2], DType::F16, DType::F16, DType::F32);
    expect_matches_reference(make_case(op, {}, moderate(DType::F16), moderate(DType::F32), seed++));
  }
}

TEST(CubeUnitTest, F16F32ExtremeValues) {
  // Full exponent range: cancellation, subnormal halves, inf, NaN. The check at the end shows
  // the data does exercise the per-step rounding: a wider accumulator would differ.
  const uint32_t shapes[][3] = {{16, 16, 16}, {33, 17, 70}, {64, 64, 300}};
  uint32_t seed = 100;
  for (const auto& s : shapes) {
    SCOPED_TRACE(::testing::Message() << s[0] << "x" << s[1] << "x" << s[2]);
    Mmad op = mmad(s[0], s[1], s[2], DType::F16, DType::F16, DType::F32);
    op.init_c = false;
    const Case cs = make_case(op, {}, extreme(DType::F16), extreme(DType::F32), seed++);
    expect_matches_reference(cs);
  }
  // Rounding matters: the same sums in double, rounded once, differ somewhere.
  const Mmad op = mmad(16, 16, 64, DType::F16, DType::F16, DType::F32);
  const Case cs = make_case(op, {}, moderate(DType::F16), moderate(DType::F32), 7);
  const std::vector<uint8_t> want = reference(cs.op, cs.l0a, cs.l0b, cs.l0c, cs.bt);
  const Geometry g(cs.op);
  int differ = 0;
  for (uint32_t i = 0; i < 16; ++i) {
    for (uint32_t j = 0; j < 16; ++j) {
      double acc = 0;
      for (uint32_t kk = 0; kk < cs.op.k; ++kk) {
        acc += double(decode_float(DType::F16, cs.l0a, a_offset(cs.op, g, i, kk))) *
               double(decode_float(DType::F16, cs.l0b, b_offset(cs.op, g, kk, j)));
      }
      differ += float(acc) != load<float>(want, c_offset(cs.op, g, i, j));
    }
  }
  EXPECT_GT(differ, 0);
}

TEST(CubeUnitTest, F16SpecialProducts) {
  // inf * 0 = NaN, inf - inf = NaN, signed zeros, and padding beyond k filled with NaN that
  // must never be read.
  Mmad op = mmad(16, 16, 4, DType::F16, DType::F16, DType::F32);
  op.init_c = false;
  Case cs = make_case(op, {}, moderate(DType::F16), moderate(DType::F32), 3);
  const Geometry g(cs.op);
  for (uint32_t i = 0; i < 16; ++i) {
    for (uint32_t kk = 0; kk < 16; ++kk) {
      store<uint16_t>(cs.l0a, a_offset(cs.op, g, i, kk), kk < 4 ? 0x8000 : 0x7e00);  // -0 / NaN
      store<uint16_t>(cs.l0b, b_offset(cs.op, g, kk, i), kk < 4 ? 0x3c00 : 0x7e00);  // 1 / NaN
    }
  }
  store<uint16_t>(cs.l0a, a_offset(cs.op, g, 1, 0), 0x7c00);  // row 1: inf x 1 = inf ...
  store<uint16_t>(cs.l0b, b_offset(cs.op, g, 0, 1), 0x0000);  // ... but inf x 0 = NaN in column 1
  store<uint16_t>(cs.l0a, a_offset(cs.op, g, 2, 0), 0x7c00);  // row 2: +inf ...
  store<uint16_t>(cs.l0a, a_offset(cs.op, g, 2, 1), 0xfc00);  // ... then -inf: NaN
  store<uint16_t>(cs.l0a, a_offset(cs.op, g, 3, 0), 0x7bff);  // row 3: 65504 x 1
  store<float>(cs.l0c, c_offset(cs.op, g, 3, 0), 0.0f);
  store<float>(cs.l0c, c_offset(cs.op, g, 0, 0), -0.0f);  // -0 + -0 + ... = -0
  store<float>(cs.l0c, c_offset(cs.op, g, 5, 7), -0.0f);
  store<float>(cs.l0c, c_offset(cs.op, g, 6, 7), 0.0f);   // +0 + -0 = +0
  const std::vector<uint8_t> want = expect_matches_reference(cs);
  EXPECT_TRUE(std::isnan(load<float>(want, c_offset(cs.op, g, 1, 1))));
  EXPECT_TRUE(std::isinf(load<float>(want, c_offset(cs.op, g, 1, 0))));
  EXPECT_TRUE(std::isnan(load<float>(want, c_offset(cs.op, g, 2, 0))));
  EXPECT_EQ(load<float>(want, c_offset(cs.op, g, 3, 0)), 65504.0f);
  EXPECT_EQ(fbits(load<float>(want, c_offset(cs.op, g, 0, 0))), 0x80000000u);
  EXPECT_EQ(fbits(load<float>(want, c_offset(cs.op, g, 5, 7))), 0x80000000u);
  EXPECT_EQ(fbits(load<float>(want, c_offset(cs.op, g, 6, 7))), 0u);
}

// Which NaN a NaN result carries is pinned (cube_unit.cpp, and the RTL cube matches it): a NaN
// multiplicand wins, A's before B's, then a NaN accumulator; an invalid operation gives the
// default NaN 0xFFC00000; a NaN is made quiet and keeps its sign and payload. One step of
// that rule, literally, on bits:
uint32_t ranked_f16_step(uint32_t acc, uint16_t a, uint16_t b) {
  const auto nan16 = [](uint16_t h) { return (h & 0x7fffu) > 0x7c00u; };
  const auto quiet16 = [](uint16_t h) {
    return (uint32_t(h & 0x8000u) << 16) | 0x7fc00000u | (uint32_t(h & 0x1ffu) << 13);
  };
  if (nan16(a)) return quiet16(a);
  if (nan16(b)) return quiet16(b);
  if ((acc & 0x7fffffffu) > 0x7f800000u) return acc | 0x00400000u;
  const float p = f16_to_f32_reference(a) * f16_to_f32_reference(b);  // exact
  if (std::isnan(p)) return 0xffc00000u;                               // inf * 0
  const float sum = ffrom(acc) + p;
  return std::isnan(sum) ? 0xffc00000u : fbits(sum);                   // inf - inf
}

// The whole C of an f16 x f16 -> f32 Mmad (init_c false) by ranked_f16_step, bit for bit.
void expect_ranked_nans(const Case& cs) {
  const Geometry g(cs.op);
  std::vector<uint8_t> want = cs.l0c;
  for (uint32_t i = 0; i < g.M1 * 16; ++i) {
    for (uint32_t j = 0; j < g.N1 * 16; ++j) {
      uint32_t acc = load<uint32_t>(cs.l0c, c_offset(cs.op, g, i, j));
      for (uint32_t kk = 0; kk < cs.op.k; ++kk) {
        acc = ranked_f16_step(acc, load<uint16_t>(cs.l0a, a_offset(cs.op, g, i, kk)),
                              load<uint16_t>(cs.l0b, b_offset(cs.op, g, kk, j)));
      }
      store(want, c_offset(cs.op, g, i, j), acc);
    }
  }
  const CubeUnit cube(cs.params);
  LevelGuard guard;
  for (int level : kernel_levels()) {
    SCOPED_TRACE("kernel level " + std::to_string(level));
    detail::set_cube_kernel_level(level);
    std::vector<uint8_t> got = cs.l0c;
    cube.execute(cs.op, cs.l0a.data(), cs.l0b.data(), got.data(), cs.bt.data());
    int mismatches = 0;
    for (uint64_t off = 0; off < got.size(); off += 4) {
      const uint32_t gv = load<uint32_t>(got, off), wv = load<uint32_t>(want, off);
      if (gv != wv && ++mismatches <= 5) {
        ADD_FAILURE() << "m=" << cs.op.m << " n=" << cs.op.n << " k=" << cs.op.k << ": L0C byte "
                      << off << ": got 0x" << std::hex << gv << ", want 0x" << wv;
      }
    }
    EXPECT_EQ(mismatches, 0);
  }
}

TEST(CubeUnitTest, NanResultsArePinnedAtEveryLevel) {
  // Hand-picked: element (0, 0) sees NaN in A and B at the same k; (1, 0) a NaN accumulator and
  // then a NaN in A; (2, 0) inf x 0 on a NaN accumulator; (3, 0) two NaNs in turn.
  Mmad op = mmad(16, 16, 2, DType::F16, DType::F16, DType::F32);
  op.init_c = false;
  Case cs = make_case(op, {}, moderate(DType::F16), moderate(DType::F32), 11);
  const Geometry g(cs.op);
  store<uint16_t>(cs.l0a, a_offset(cs.op, g, 0, 0), 0x7e01);
  store<uint16_t>(cs.l0b, b_offset(cs.op, g, 0, 0), 0xfe02);
  store<float>(cs.l0c, c_offset(cs.op, g, 1, 0), ffrom(0x7f800abcu));  // signalling NaN
  store<uint16_t>(cs.l0a, a_offset(cs.op, g, 1, 1), 0xfc05);
  store<float>(cs.l0c, c_offset(cs.op, g, 2, 0), ffrom(0xff800123u));
  store<uint16_t>(cs.l0a, a_offset(cs.op, g, 2, 0), 0x7c00);
  store<uint16_t>(cs.l0b, b_offset(cs.op, g, 0, 0), 0xfe02);  // column 0, k 0: B's NaN ...
  store<uint16_t>(cs.l0a, a_offset(cs.op, g, 3, 1), 0x7d11);  // ... then A's NaN at k 1
  store<uint16_t>(cs.l0b, b_offset(cs.op, g, 0, 1), 0x0000);  // k 1 of column 0: inf x 0
  store<uint16_t>(cs.l0a, a_offset(cs.op, g, 4, 0), 0x0000);  // row 4: 0 x NaN(B) = NaN(B)
  store<uint16_t>(cs.l0a, a_offset(cs.op, g, 4, 1), 0x7c00);  // then inf x 0 on a NaN acc
  expect_ranked_nans(cs);
  EXPECT_EQ(ranked_f16_step(0, 0x7e01, 0xfe02), 0x7fc02000u);
  EXPECT_EQ(ranked_f16_step(0x7f800abcu, 0xfc05, 0x3c00), 0xffc0a000u);
  EXPECT_EQ(ranked_f16_step(0x7f800abcu, 0x3c00, 0x3c00), 0x7fc00abcu);
  EXPECT_EQ(ranked_f16_step(0x7fc00abcu, 0x7c00, 0x0000), 0x7fc00abcu);
  EXPECT_EQ(ranked_f16_step(0, 0x7c00, 0x0000), 0xffc00000u);
  // Random: NaNs in both operands, at shapes that take different tile kernels.
  const uint32_t shapes[][3] = {{16, 16, 16}, {33, 32, 40}, {64, 64, 64}, {16, 80, 33}};
  uint32_t seed = 500;
  for (const auto& s : shapes) {
    SCOPED_TRACE(::testing::Message() << s[0] << "x" << s[1] << "x" << s[2]);
    Mmad r = mmad(s[0], s[1], s[2], DType::F16, DType::F16, DType::F32);
    r.init_c = false;
    expect_ranked_nans(make_case(r, {}, extreme(DType::F16), extreme(DType::F32), seed++));
  }
}

TEST(CubeUnitTest, F16F16Output) {
  const uint32_t shapes[][3] = {{16, 16, 16}, {17, 33, 50}, {64, 48, 130}};
  uint32_t seed = 200;
  for (const auto& s : shapes) {
    SCOPED_TRACE(::testing::Message() << s[0] << "x" << s[1] << "x" << s[2]);
    Mmad op = mmad(s[0], s[1], s[2], DType::F16, DType::F16, DType::F16);
    expect_matches_reference(make_case(op, coupled(), moderate(DType::F16), moderate(DType::F16), seed++));
    op.init_c = false;  // accumulate onto the f16 L0C
    expect_matches_reference(make_case(op, coupled(), extreme(DType::F16), extreme(DType::F16), seed++));
  }
}

TEST(CubeUnitTest, Bf16F32) {
  const uint32_t shapes[][3] = {{16, 16, 16}, {17, 33, 50}, {64, 48, 300}};
  uint32_t seed = 300;
  for (const auto& s : shapes) {
    SCOPED_TRACE(::testing::Message() << s[0] << "x" << s[1] << "x" << s[2]);
    Mmad op = mmad(s[0], s[1], s[2], DType::BF16, DType::BF16, DType::F32);
    expect_matches_reference(make_case(op, a2(), moderate(DType::BF16), moderate(DType::F32), seed++));
    op.init_c = false;
    expect_matches_reference(make_case(op, a2(), extreme(DType::BF16), extreme(DType::F32), seed++));
  }
}

TEST(CubeUnitTest, Bf16ProductRoundingIsNotFused) {
  // 2^64 * 2^64 overflows to inf before the add; a fused multiply-add would give a finite
  // 2^128 - 2^127 = 2^127. Likewise 2^-75 * 2^-75 underflows to 0 before the add.
  Mmad op = mmad(16, 16, 1, DType::BF16, DType::BF16, DType::F32);
  op.init_c = false;
  Case cs = make_case(op, a2(), moderate(DType::BF16), moderate(DType::F32), 5);
  const Geometry g(cs.op);
  store<uint16_t>(cs.l0a, a_offset(cs.op, g, 0, 0), 0x5f80);  // 2^64
  store<uint16_t>(cs.l0b, b_offset(cs.op, g, 0, 0), 0x5f80);  // 2^64
  store<float>(cs.l0c, c_offset(cs.op, g, 0, 0), -ffrom(0x7f000000u));  // -2^127
  store<uint16_t>(cs.l0a, a_offset(cs.op, g, 1, 0), 0x1a00);  // 2^-75
  store<uint16_t>(cs.l0b, b_offset(cs.op, g, 0, 1), 0x1a00);
  store<float>(cs.l0c, c_offset(cs.op, g, 1, 1), ffrom(0x00000001u));  // 2^-149
  const std::vector<uint8_t> want = expect_matches_reference(cs);
  EXPECT_EQ(load<float>(want, c_offset(cs.op, g, 0, 0)), std::numeric_limits<float>::infinity());
  EXPECT_EQ(fbits(load<float>(want, c_offset(cs.op, g, 1, 1))), 0x00000001u);
}

TEST(CubeUnitTest, F32F32Fused) {
  const uint32_t shapes[][3] = {{16, 16, 8}, {1, 1, 1}, {17, 33, 50}, {64, 48, 300}};
  uint32_t seed = 400;
  for (const auto& s : shapes) {
    SCOPED_TRACE(::testing::Message() << s[0] << "x" << s[1] << "x" << s[2]);
    Mmad op = mmad(s[0], s[1], s[2], DType::F32, DType::F32, DType::F32);
    expect_matches_reference(make_case(op, a2(), moderate(DType::F32), moderate(DType::F32), seed++));
    op.init_c = false;
    expect_matches_reference(make_case(op, a2(), extreme(DType::F32), extreme(DType::F32), seed++));
  }
  // One step where fused and unfused differ: (1 + 2^-12)^2 - (1 + 2^-11) = 2^-24 exactly.
  Mmad op = mmad(16, 16, 1, DType::F32, DType::F32, DType::F32);
  op.init_c = false;
  Case cs = make_case(op, a2(), moderate(DType::F32), moderate(DType::F32), 9);
  const Geometry g(cs.op);
  store<float>(cs.l0a, a_offset(cs.op, g, 0, 0), 1.0f + 0x1p-12f);
  store<float>(cs.l0b, b_offset(cs.op, g, 0, 0), 1.0f + 0x1p-12f);
  store<float>(cs.l0c, c_offset(cs.op, g, 0, 0), -(1.0f + 0x1p-11f));
  const std::vector<uint8_t> want = expect_matches_reference(cs);
  EXPECT_EQ(load<float>(want, c_offset(cs.op, g, 0, 0)), 0x1p-24f);
}

TEST(CubeUnitTest, Int8WrapsInInt32) {
  const uint32_t shapes[][3] = {{16, 16, 32}, {1, 1, 1}, {17, 33, 51}, {48, 32, 600}};
  uint32_t seed = 500;
  for (DType a : {DType::S8, DType::U8}) {
    for (const auto& s : shapes) {
      SCOPED_TRACE(::testing::Message() << dtype_name(a) << " " << s[0] << "x" << s[1] << "x" << s[2]);
      Mmad op = mmad(s[0], s[1], s[2], a, DType::S8, DType::S32);
      expect_matches_reference(make_case(op, {}, extreme(a), moderate(DType::S32), seed++));
      op.init_c = false;
      expect_matches_reference(make_case(op, {}, extreme(a), moderate(DType::S32), seed++));
    }
  }
  // Wrap: 4095 products of -128 * -128 (= 2^14 each) onto INT32_MAX.
  Mmad op = mmad(16, 16, 4095, DType::S8, DType::S8, DType::S32);
  op.init_c = false;
  Case cs = make_case(op, {}, extreme(DType::S8), moderate(DType::S32), 11);
  std::fill(cs.l0a.begin(), cs.l0a.end(), uint8_t(0x80));
  std::fill(cs.l0b.begin(), cs.l0b.end(), uint8_t(0x80));
  const Geometry g(cs.op);
  store<int32_t>(cs.l0c, c_offset(cs.op, g, 0, 0), std::numeric_limits<int32_t>::max());
  const std::vector<uint8_t> want = expect_matches_reference(cs);
  const uint32_t expect = uint32_t(std::numeric_limits<int32_t>::max()) + 4095u * 16384u;
  EXPECT_EQ(load<uint32_t>(want, c_offset(cs.op, g, 0, 0)), expect);
  EXPECT_LT(load<int32_t>(want, c_offset(cs.op, g, 0, 0)), 0);  // wrapped negative
  // u8: 255 * -128 is the most negative product.
  op.a_type = DType::U8;
  Case cu = make_case(op, {}, extreme(DType::U8), moderate(DType::S32), 12);
  std::fill(cu.l0a.begin(), cu.l0a.end(), uint8_t(0xff));
  std::fill(cu.l0b.begin(), cu.l0b.end(), uint8_t(0x80));
  store<int32_t>(cu.l0c, c_offset(cu.op, g, 3, 4), std::numeric_limits<int32_t>::min());
  const std::vector<uint8_t> wu = expect_matches_reference(cu);
  EXPECT_EQ(load<uint32_t>(wu, c_offset(cu.op, g, 3, 4)),
            uint32_t(std::numeric_limits<int32_t>::min()) - 4095u * 255u * 128u);
}

TEST(CubeUnitTest, AccumulatesOntoL0C) {
  Mmad op = mmad(40, 24, 70, DType::F16, DType::F16, DType::F32);
  op.init_c = false;
  expect_matches_reference(make_case(op, {}, moderate(DType::F16), moderate(DType::F32), 600));
}

TEST(CubeUnitTest, BiasFromBiasTable) {
  for (uint32_t k : {0u, 1u, 50u, 300u}) {
    SCOPED_TRACE(::testing::Message() << "k=" << k);
    Mmad op = mmad(33, 40, k, DType::F16, DType::F16, DType::F32);
    op.init_c = false;
    op.bias = true;
    const Case cs = make_case(op, {}, moderate(DType::F16), moderate(DType::F32), 700 + k);
    const std::vector<uint8_t> want = expect_matches_reference(cs);
    if (k == 0) {  // the bias itself, in every row, padding columns included
      const Geometry g(cs.op);
      for (uint32_t j = 0; j < 48; ++j) {
        EXPECT_EQ(fbits(load<float>(want, c_offset(cs.op, g, 47, j))),
                  fbits(load<float>(cs.bt, cs.op.bias_addr + j * 4)));
      }
    }
  }
  // cmatrixInitVal wins over cmatrixSource: the accumulator starts at 0.
  Mmad op = mmad(16, 16, 16, DType::BF16, DType::BF16, DType::F32);
  op.bias = true;
  expect_matches_reference(make_case(op, a2(), moderate(DType::BF16), moderate(DType::F32), 777));
}

TEST(CubeUnitTest, KZeroWritesTheInitialValue) {
  // init_c: zeros. From L0C: unchanged (f32) or rounded through f32 (f16, a no-op here).
  Mmad op = mmad(20, 20, 0, DType::F16, DType::F16, DType::F32);
  Case cs = make_case(op, {}, moderate(DType::F16), moderate(DType::F32), 800);
  const std::vector<uint8_t> zeros = expect_matches_reference(cs);
  const Geometry g(cs.op);
  for (uint32_t i = 0; i < 32; ++i) {
    for (uint32_t j = 0; j < 32; ++j) EXPECT_EQ(fbits(load<float>(zeros, c_offset(cs.op, g, i, j))), 0u);
  }
  cs.op.init_c = false;
  EXPECT_EQ(expect_matches_reference(cs), cs.l0c);
  Mmad h = mmad(20, 20, 0, DType::F16, DType::F16, DType::F16);
  h.init_c = false;
  const Case ch = make_case(h, coupled(), moderate(DType::F16), moderate(DType::F16), 801);
  EXPECT_EQ(expect_matches_reference(ch), ch.l0c);
  Mmad s = mmad(20, 20, 0, DType::S8, DType::S8, DType::S32);
  expect_matches_reference(make_case(s, {}, moderate(DType::S8), moderate(DType::S32), 802));
}

TEST(CubeUnitTest, EmptyShapesTouchNothing) {
  for (auto mn : {std::pair<uint32_t, uint32_t>{0, 16}, {16, 0}, {0, 0}}) {
    Mmad op = mmad(mn.first, mn.second, 16, DType::F16, DType::F16, DType::F32);
    Case cs = make_case(op, {}, moderate(DType::F16), moderate(DType::F32), 900);
    cs.l0c.assign(4096, 0xab);
    EXPECT_EQ(expect_matches_reference(cs), cs.l0c);
  }
}

TEST(CubeUnitTest, PaddingRowsAndColumnsAreComputed) {
  // m = 5, n = 3: the whole 16 x 16 fractal is written, rows >= m and columns >= n from the
  // L0A/L0B padding. Here the padding holds known values so the result is checked directly.
  Mmad op = mmad(5, 3, 2, DType::F16, DType::F16, DType::F32);
  Case cs = make_case(op, {}, moderate(DType::F16), moderate(DType::F32), 1000);
  const Geometry g(cs.op);
  for (uint32_t x = 0; x < 16; ++x) {
    for (uint32_t kk = 0; kk < 16; ++kk) {
      store<uint16_t>(cs.l0a, a_offset(cs.op, g, x, kk), kk < 2 ? 0x3c00 : 0x7c00);  // 1 / inf
      store<uint16_t>(cs.l0b, b_offset(cs.op, g, kk, x), kk < 2 ? 0x4000 : 0x7e00);  // 2 / NaN
    }
  }
  const std::vector<uint8_t> want = expect_matches_reference(cs);
  for (uint32_t i = 0; i < 16; ++i) {
    for (uint32_t j = 0; j < 16; ++j) EXPECT_EQ(load<float>(want, c_offset(cs.op, g, i, j)), 4.0f);
  }
}

// ---- check().

struct Sizes {
  uint64_t l0a = 64 * 1024, l0b = 64 * 1024, l0c = 256 * 1024, bt = 1024;
};
std::string check(const CubeUnit& cube, const Mmad& op, Sizes s = {}) {
  return cube.check(op, s.l0a, s.l0b, s.l0c, s.bt);
}

TEST(CubeUnitTest, CheckDimensions) {
  const CubeUnit cube;
  EXPECT_EQ(check(cube, mmad(4095, 16, 16, DType::F16, DType::F16, DType::F32), {~0ull, ~0ull, ~0ull, 0}), "");
  EXPECT_EQ(check(cube, mmad(4096, 16, 16, DType::F16, DType::F16, DType::F32)), "m 4096 out of range [0, 4095]");
  EXPECT_EQ(check(cube, mmad(16, 4096, 16, DType::F16, DType::F16, DType::F32)), "n 4096 out of range [0, 4095]");
  EXPECT_EQ(check(cube, mmad(16, 16, 5000, DType::F16, DType::F16, DType::F32)), "k 5000 out of range [0, 4095]");
  EXPECT_EQ(check(cube, mmad(0, 0, 0, DType::F16, DType::F16, DType::F32)), "");
}

TEST(CubeUnitTest, CheckTypePairs) {
  const CubeUnit base, a2u(a2()), coupledu(coupled());
  const auto op = [](DType a, DType b, DType c) { return mmad(16, 16, 16, a, b, c); };
  EXPECT_EQ(check(base, op(DType::F16, DType::F16, DType::F32)), "");
  EXPECT_EQ(check(base, op(DType::S8, DType::S8, DType::S32)), "");
  EXPECT_EQ(check(base, op(DType::U8, DType::S8, DType::S32)), "");
  EXPECT_EQ(check(base, op(DType::F32, DType::F32, DType::F32)),
            "Mmad f32 x f32 -> f32 is not supported on this product");
  EXPECT_EQ(check(a2u, op(DType::F32, DType::F32, DType::F32)), "");
  EXPECT_EQ(check(base, op(DType::BF16, DType::BF16, DType::F32)),
            "Mmad bf16 x bf16 -> f32 is not supported on this product");
  EXPECT_EQ(check(a2u, op(DType::BF16, DType::BF16, DType::F32)), "");
  EXPECT_EQ(check(a2u, op(DType::F16, DType::F16, DType::F16)),
            "Mmad f16 x f16 -> f16 is not supported on this product");
  EXPECT_EQ(check(coupledu, op(DType::F16, DType::F16, DType::F16)), "");
  EXPECT_EQ(check(a2u, op(DType::S8, DType::F16, DType::F32)),
            "type pair s8 x f16 -> f32 is not supported");
  EXPECT_EQ(check(a2u, op(DType::U8, DType::U8, DType::S32)),
            "type pair u8 x u8 -> s32 is not supported");
  EXPECT_EQ(check(a2u, op(DType::F16, DType::F16, DType::S32)),
            "type pair f16 x f16 -> s32 is not supported");
  EXPECT_EQ(check(a2u, op(DType::BF16, DType::F16, DType::F32)),
            "type pair bf16 x f16 -> f32 is not supported");
  EXPECT_EQ(check(a2u, op(DType::S8, DType::S8, DType::F32)),
            "type pair s8 x s8 -> f32 is not supported");
}

TEST(CubeUnitTest, CheckAlignment) {
  const CubeUnit cube;
  Mmad op = mmad(16, 16, 16, DType::F16, DType::F16, DType::F32);
  op.a = 256;
  EXPECT_EQ(check(cube, op), "A address 0x100 not 512 B aligned");
  op.a = 512;
  op.b = 0x300;
  EXPECT_EQ(check(cube, op), "B address 0x300 not 512 B aligned");
  op.b = 0;
  op.c = 32;
  EXPECT_EQ(check(cube, op), "C address 0x20 not 64 B aligned");
  op.c = 64;  // f32 fractals are 1 KiB, but the rule is 64 B
  EXPECT_EQ(check(cube, op), "");
  op.init_c = false;
  op.bias = true;
  op.bias_addr = 0x30;
  EXPECT_EQ(check(cube, op), "bias address 0x30 not 64 B aligned");
  op.bias_addr = 0x40;
  EXPECT_EQ(check(cube, op), "");
}

TEST(CubeUnitTest, CheckRanges) {
  const CubeUnit cube;
  // A: M1 = K1 = 16 -> 256 fractals of 512 B = 0x20000.
  EXPECT_EQ(check(cube, mmad(256, 16, 256, DType::F16, DType::F16, DType::F32)),
            "A range [0x0, 0x20000) exceeds L0A size 0x10000");
  Mmad op = mmad(16, 256, 256, DType::F16, DType::F16, DType::F32);
  EXPECT_EQ(check(cube, op), "B range [0x0, 0x20000) exceeds L0B size 0x10000");
  op = mmad(128, 128, 16, DType::F16, DType::F16, DType::F32);  // C: 64 fractals x 1 KiB
  op.c = 0x30000;
  EXPECT_EQ(check(cube, op), "");  // ends exactly at 256 KiB
  EXPECT_EQ(check(cube, op, {64 * 1024, 64 * 1024, 0x38000, 0}),
            "C range [0x30000, 0x40000) exceeds L0C size 0x38000");
  EXPECT_EQ(check(cube, op, {64 * 1024, 64 * 1024, 0x40000, 0}), "");
  // The same C in f16 is half the size.
  const CubeUnit coupledu(coupled());
  op.c_type = DType::F16;
  EXPECT_EQ(check(coupledu, op, {64 * 1024, 64 * 1024, 0x38000, 0}), "");
  // A at the very end of L0A: exactly fits, one fractal more does not.
  op = mmad(16, 16, 16, DType::F16, DType::F16, DType::F32);
  op.a = 0xfe00;
  EXPECT_EQ(check(cube, op), "");
  op.k = 17;
  EXPECT_EQ(check(cube, op), "A range [0xfe00, 0x10200) exceeds L0A size 0x10000");
  // Huge addresses do not wrap around.
  op.a = 0xfffffffffffffe00ull;
  EXPECT_EQ(check(cube, op),
            "A range [0xfffffffffffffe00, 0xffffffffffffffff) exceeds L0A size 0x10000");
  // Bias: N1 * 16 f32 values.
  op = mmad(16, 64, 16, DType::F16, DType::F16, DType::F32);
  op.init_c = false;
  op.bias = true;
  op.bias_addr = 0x340;
  EXPECT_EQ(check(cube, op), "bias range [0x340, 0x440) exceeds BT size 0x400");
  op.bias_addr = 0x300;
  EXPECT_EQ(check(cube, op), "");
  // int8: K0 = 32, so k = 64 is two fractals per row; C is s32 (1 KiB fractals).
  op = mmad(16, 16, 64, DType::S8, DType::S8, DType::S32);
  EXPECT_EQ(check(cube, op, {1024, 1024, 1024, 0}), "");
  op.k = 65;
  EXPECT_EQ(check(cube, op, {1024, 1024, 1024, 0}), "A range [0x0, 0x600) exceeds L0A size 0x400");
  // Nothing computed, nothing checked.
  op.m = 0;
  EXPECT_EQ(check(cube, op, {0, 0, 0, 0}), "");
}

TEST(CubeUnitTest, CheckBias) {
  const CubeUnit cube, a2u(a2());
  Mmad op = mmad(16, 16, 16, DType::F16, DType::F16, DType::F32);
  op.init_c = false;
  op.bias = true;
  EXPECT_EQ(check(cube, op, {64 * 1024, 64 * 1024, 256 * 1024, 0}),
            "this product has no BiasTable (cmatrixSource needs BT)");
  EXPECT_EQ(check(cube, op), "");
  op.init_c = true;  // BT not read: fine without one
  EXPECT_EQ(check(cube, op, {64 * 1024, 64 * 1024, 256 * 1024, 0}), "");
  Mmad s = mmad(16, 16, 32, DType::S8, DType::S8, DType::S32);
  s.init_c = false;
  s.bias = true;
  EXPECT_EQ(check(a2u, s), "bias (cmatrixSource) needs an f32 L0C, not s32");
}

// ---- cost().

TEST(CubeUnitTest, Cost) {
  const CubeUnit cube;  // head 2; 1 step per cycle for f16 and s8, 0.5 for f32 (a quarter of f16's MACs)
  EXPECT_EQ(cube.cost(mmad(16, 16, 16, DType::F16, DType::F16, DType::F32)), 3u);
  EXPECT_EQ(cube.cost(mmad(1, 1, 1, DType::F16, DType::F16, DType::F32)), 3u);
  EXPECT_EQ(cube.cost(mmad(128, 128, 128, DType::F16, DType::F16, DType::F32)), 2u + 512u);
  EXPECT_EQ(cube.cost(mmad(17, 33, 50, DType::F16, DType::F16, DType::F32)), 2u + 2 * 3 * 4);
  EXPECT_EQ(cube.cost(mmad(32, 32, 64, DType::S8, DType::S8, DType::S32)), 2u + 2 * 2 * 2);
  EXPECT_EQ(cube.cost(mmad(32, 32, 64, DType::F32, DType::F32, DType::F32)), 2u + 2 * 2 * 8 * 2);
  EXPECT_EQ(cube.cost(mmad(0, 32, 64, DType::F16, DType::F16, DType::F32)), 2u);
  EXPECT_EQ(cube.cost(mmad(32, 32, 0, DType::F16, DType::F16, DType::F32)), 2u);

  CubeUnit::Params p;
  p.head_cycles = 10;
  p.f16_fractal_steps_per_cycle = 2;
  p.s8_fractal_steps_per_cycle = 4;
  p.f32_fractal_steps_per_cycle = 0.5;
  const CubeUnit tuned(p);
  EXPECT_EQ(tuned.cost(mmad(48, 16, 16, DType::F16, DType::F16, DType::F32)), 10u + 2);  // ceil(3/2)
  EXPECT_EQ(tuned.cost(mmad(48, 16, 16, DType::BF16, DType::BF16, DType::F32)), 10u + 2);
  EXPECT_EQ(tuned.cost(mmad(48, 16, 32, DType::U8, DType::S8, DType::S32)), 10u + 1);  // ceil(3/4)
  EXPECT_EQ(tuned.cost(mmad(48, 16, 8, DType::F32, DType::F32, DType::F32)), 10u + 6);  // 3/0.5
  CubeUnit::Params tenth;
  tenth.head_cycles = 0;
  tenth.f16_fractal_steps_per_cycle = 0.1;
  EXPECT_EQ(CubeUnit(tenth).cost(mmad(48, 16, 16, DType::F16, DType::F16, DType::F32)), 30u);

  // MACs per cycle: f16 steps are 16x16x16 = 4096 MAC, s8 16x32x16 = 8192, f32 16x8x16 = 2048.
  // With SPEC.md §1.4's rates (s8 at the same step rate as f16, f32 at half the step rate)
  // f32 runs at a quarter of the f16 MAC rate and int8 at twice.
  CubeUnit::Params spec;
  spec.head_cycles = 0;
  spec.f32_fractal_steps_per_cycle = 0.5;
  const CubeUnit sc(spec);
  const double n = 1024;
  const double macs = n * n * n;
  const double f16_rate = macs / double(sc.cost(mmad(1024, 1024, 1024, DType::F16, DType::F16, DType::F32)));
  const double f32_rate = macs / double(sc.cost(mmad(1024, 1024, 1024, DType::F32, DType::F32, DType::F32)));
  const double s8_rate = macs / double(sc.cost(mmad(1024, 1024, 1024, DType::S8, DType::S8, DType::S32)));
  EXPECT_DOUBLE_EQ(f16_rate, 4096);
  EXPECT_DOUBLE_EQ(f32_rate / f16_rate, 0.25);
  EXPECT_DOUBLE_EQ(s8_rate / f16_rate, 2.0);
}

}  // namespace cube_unit_test
}  // namespace npuvp::aicore
