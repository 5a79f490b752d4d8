// The cube unit's GEMM engine: the arithmetic of one Mmad, computed on the host fast and bit
// for bit as the numeric contract at struct Mmad in isa.h says. It is separate from the cube
// unit itself (cube_unit.cpp: which Mmads are legal, what they cost, where the accumulator
// starts) because it is another kind of code: vector kernels for three instruction sets,
// chosen at run time, and the argument that they change no bit. The unit calls it through
// cube_gemm.h, once per Mmad.
//
// Why it is fast without changing a bit: the contract fixes the order of the operations for
// each output element (k products added one by one, in increasing k), not the order across
// elements. So the kernels keep a tile of C (8 rows x 32 columns with AVX-512) in registers,
// and for each kk update all its elements at once, one vector lane per element. Every lane
// sees exactly the per-element sequence of the contract.
//
// Operands are prepared once per Mmad. A keeps its ZZ layout (converted to f32), so a row of
// a fractal is K0 contiguous values to broadcast; B is transposed from ZN into k-major panels
// of 16 columns, so one C fractal row (16 columns) is one contiguous 64 B vector; C in NZ is,
// per fractal column, a plain row-major M x 16 matrix, which the kernels update in place.
// k is blocked for the caches (kc steps at a time): the f32/s32 partial sums are stored and
// reloaded exactly, so blocking does not change the result either.
//
// f16 inputs use a fused multiply-add on purpose: a product of two halves has at most 22
// significant bits and a magnitude in [2^-48, 2^32), so it is exact in f32, and then
// fma(a, b, acc) = rn(a*b + acc) = rn(rn(a*b) + acc), the contract's separate multiply and
// add, bit for bit (infinities, signed zeros and NaN-ness included; which NaN a NaN result
// carries: see below). The FMA halves the instruction count. bf16 products can overflow or
// underflow f32 (bf16 has f32's exponent range), so bf16 keeps the separate multiply and add.
// f32 inputs use fma as the contract says.
//
// Which NaN a NaN result carries is pinned (the RTL cube in rtl_cosim/ matches it bit for
// bit): a NaN multiplicand wins, A's before B's, then a NaN accumulator; an invalid operation
// (inf * 0, inf - inf) without a NaN operand gives the x86 default NaN 0xFFC00000; a NaN keeps
// its sign and payload and is made quiet. x86 FMA already ranks both multiplicands before the
// addend, but which multiplicand comes first depends on the instruction form the compiler
// picked (the AVX2 and AVX-512 kernels differ). So when both A and B hold a NaN the Mmad runs
// on a plain loop that ranks them explicitly; otherwise the fast kernels give these bits.
// (bf16's separate multiply and add also leave "NaN accumulator + invalid product" to the
// compiler; that case is not pinned.)
//
// Integers: u8/s8 are widened to int16 and multiplied in pairs (vpmaddwd): each pair sum is
// exact, and int32 addition modulo 2^32 is associative, so any order gives the contract's
// two's-complement result.
#include "models/aicore/cube_gemm.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <new>

#include "models/numerics/fp16.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NPUVP_CUBE_X86 1
#include <immintrin.h>
#else
#define NPUVP_CUBE_X86 0
#endif

namespace npuvp::aicore::cube_gemm {
namespace {

// f16 x f16 uses fma (exact, see the header comment). Set to false to run the literal
// multiply-then-add instead (same bits, about half the speed).
constexpr bool kF16Fused = true;

// ---- Scratch: grown on demand, never shrunk, 64 B aligned so that vector loads of B panels
// and of the f16-output accumulator never split cache lines. One set per thread.
class Scratch {
 public:
  Scratch() = default;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() { release(); }
  template <class T>
  T* get(size_t count) {
    const size_t bytes = count * sizeof(T);
    if (bytes > bytes_) {
      release();
      const size_t rounded = (bytes + 63) / 64 * 64;
      data_ = static_cast<unsigned char*>(::operator new(rounded, std::align_val_t(64)));
      bytes_ = rounded;
    }
    return reinterpret_cast<T*>(data_);
  }

 private:
  void release() {
    if (data_) ::operator delete(data_, std::align_val_t(64));
    data_ = nullptr;
    bytes_ = 0;
  }
  unsigned char* data_ = nullptr;
  size_t bytes_ = 0;
};

thread_local Scratch t_a, t_b, t_c;

// ---- The GEMM core, shared by every kernel level. T is float, or int32_t holding two int16
// (a k pair) for the integer path. One "step" is one kk (float) or one k pair (integer).
//   a(i, s) = a[((i / 16 * K1 + s / K0) * 16 + i % 16) * K0 + s % K0]   (ZZ, K0 steps/fractal)
//   b(s, j) = b[(j / 16 * steps + s) * 16 + j % 16]                     (k-major panels)
//   c(i, j) = c[(j / 16 * M1 * 16 + i) * 16 + j % 16]                   (NZ)
enum class Op { FmaF32, MulAddF32, MaddI16, FmaF32NanRanked, MulAddF32NanRanked };

template <class T>
struct Job {
  const T* a;
  const T* b;
  T* c;
  uint32_t M1, N1, K1, K0, steps;
};

constexpr uint32_t kKc = 256;  // steps per k block: a 32-column B block is 32 KiB (fits L1)

template <Op op>
struct Scalar;
template <>
struct Scalar<Op::FmaF32> {
  static float step(float acc, float a, float b) { return std::fma(a, b, acc); }
};
template <>
struct Scalar<Op::MulAddF32> {
  static float step(float acc, float a, float b) { return acc + a * b; }
};
template <>
struct Scalar<Op::MaddI16> {
  static int32_t step(int32_t acc, int32_t a, int32_t b) {
    // Low and high int16 halves, as vpmaddwd pairs them; the sum wraps modulo 2^32.
    const int32_t p = int32_t(int16_t(a & 0xffff)) * int16_t(b & 0xffff) +
                      int32_t(int16_t(uint32_t(a) >> 16)) * int16_t(uint32_t(b) >> 16);
    return int32_t(uint32_t(acc) + uint32_t(p));
  }
};

// The NaN ranking of the header comment, made explicit (only gemm_scalar runs these).
inline float quiet_nan(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  u |= 0x00400000u;
  std::memcpy(&x, &u, 4);
  return x;
}
template <>
struct Scalar<Op::FmaF32NanRanked> {
  static float step(float acc, float a, float b) {
    if (std::isnan(a)) return quiet_nan(a);
    if (std::isnan(b)) return quiet_nan(b);
    return std::fma(a, b, acc);  // a NaN acc wins over an invalid product in x86 FMA
  }
};
template <>
struct Scalar<Op::MulAddF32NanRanked> {
  static float step(float acc, float a, float b) {
    if (std::isnan(a)) return quiet_nan(a);
    if (std::isnan(b)) return quiet_nan(b);
    if (std::isnan(acc)) return quiet_nan(acc);
    return acc + a * b;
  }
};

// Portable fallback (no AVX2 at run time, or not x86): the same loops, one element at a time.
template <Op op, class T>
void gemm_scalar(const Job<T>& j) {
  const size_t M = size_t(j.M1) * 16;
  for (uint32_t n1 = 0; n1 < j.N1; ++n1) {
    const T* bp = j.b + size_t(n1) * j.steps * 16;
    T* cp = j.c + size_t(n1) * M * 16;
    for (size_t i = 0; i < M; ++i) {
      T acc[16];
      std::memcpy(acc, cp + i * 16, sizeof acc);
      const T* arow = j.a + (i / 16 * j.K1 * 16 + i % 16) * j.K0;
      for (uint32_t s = 0; s < j.steps; ++s) {
        const T av = arow[size_t(s / j.K0) * 16 * j.K0 + s % j.K0];
        const T* brow = bp + size_t(s) * 16;
        for (int x = 0; x < 16; ++x) acc[x] = Scalar<op>::step(acc[x], av, brow[x]);
      }
      std::memcpy(cp + i * 16, acc, sizeof acc);
    }
  }
}

#if NPUVP_CUBE_X86
// The register tiles only stay in registers when these loops are fully unrolled (-O2 alone
// keeps them as arrays on the stack).
#if defined(__clang__)
#define NPUVP_UNROLL _Pragma("unroll")
#else
#define NPUVP_UNROLL _Pragma("GCC unroll 16")
#endif

// The vector kernels are compiled for their ISA whatever the global flags, and only called
// after a run-time CPU check. Nothing from the standard library is used inside the target
// regions, so no inline library function can be emitted with AVX-512 code by accident.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif

// AVX2: 8 lanes, so one 16-column C fractal row is two vectors.
template <Op op>
struct V256;
template <>
struct V256<Op::FmaF32> {
  using T = float;
  using V = __m256;
  static V load(const T* p) { return _mm256_loadu_ps(p); }
  static void store(T* p, V v) { _mm256_storeu_ps(p, v); }
  static V bcast(const T* p) { return _mm256_broadcast_ss(p); }
  static V step(V acc, V a, V b) { return _mm256_fmadd_ps(a, b, acc); }
};
template <>
struct V256<Op::MulAddF32> {
  using T = float;
  using V = __m256;
  static V load(const T* p) { return _mm256_loadu_ps(p); }
  static void store(T* p, V v) { _mm256_storeu_ps(p, v); }
  static V bcast(const T* p) { return _mm256_broadcast_ss(p); }
  static V step(V acc, V a, V b) { return _mm256_add_ps(acc, _mm256_mul_ps(a, b)); }
};
template <>
struct V256<Op::MaddI16> {
  using T = int32_t;
  using V = __m256i;
  static V load(const T* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static void store(T* p, V v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
  static V bcast(const T* p) { return _mm256_set1_epi32(*p); }
  static V step(V acc, V a, V b) { return _mm256_add_epi32(acc, _mm256_madd_epi16(a, b)); }
};

// MR rows x 16 columns (one C fractal column) of C, steps [s0, s1). `a` points at the tile's
// first row in A fractal column 0; `b` at the B panel; `c` at the tile's first row.
template <Op op, int MR, int K0>
void micro256(const typename V256<op>::T* a, uint32_t s0, uint32_t s1,
              const typename V256<op>::T* b, typename V256<op>::T* c) {
  using S = V256<op>;
  typename S::V acc[MR][2];
  NPUVP_UNROLL
  for (int r = 0; r < MR; ++r) {
    acc[r][0] = S::load(c + r * 16);
    acc[r][1] = S::load(c + r * 16 + 8);
  }
  for (uint32_t s = s0; s < s1;) {
    // The steps left in this A fractal: row r's value for step s is ap[r * K0].
    const uint32_t f = s / K0;
    const typename S::T* ap = a + size_t(f) * 16 * K0 + (s - f * K0);
    const typename S::T* bq = b + size_t(s) * 16;
    const uint32_t end = (f + 1) * K0 < s1 ? (f + 1) * K0 : s1;
    for (uint32_t n = end - s; n > 0; --n, ++ap, bq += 16) {
      const typename S::V b0 = S::load(bq);
      const typename S::V b1 = S::load(bq + 8);
      NPUVP_UNROLL
      for (int r = 0; r < MR; ++r) {
        const typename S::V av = S::bcast(ap + r * K0);
        acc[r][0] = S::step(acc[r][0], av, b0);
        acc[r][1] = S::step(acc[r][1], av, b1);
      }
    }
    s = end;
  }
  NPUVP_UNROLL
  for (int r = 0; r < MR; ++r) {
    S::store(c + r * 16, acc[r][0]);
    S::store(c + r * 16 + 8, acc[r][1]);
  }
}

template <Op op, int K0>
void gemm_avx2(const Job<typename V256<op>::T>& j) {
  constexpr int kMr = 4;  // 4 rows x 2 vectors = 8 accumulators: hides the 4-cycle latency
  const size_t M = size_t(j.M1) * 16;
  for (uint32_t s0 = 0; s0 < j.steps; s0 += kKc) {
    const uint32_t s1 = j.steps - s0 > kKc ? s0 + kKc : j.steps;
    for (uint32_t n1 = 0; n1 < j.N1; ++n1) {
      const auto* bp = j.b + size_t(n1) * j.steps * 16;
      auto* cp = j.c + size_t(n1) * M * 16;
      for (size_t r0 = 0; r0 < M; r0 += kMr) {
        const auto* ap = j.a + (r0 / 16 * j.K1 * 16 + r0 % 16) * K0;
        micro256<op, kMr, K0>(ap, s0, s1, bp, cp + r0 * 16);
      }
    }
  }
}

#if defined(__clang__)
#pragma clang attribute pop
#pragma clang attribute push(__attribute__((target("avx512f,avx512bw,avx2,fma"))), \
                             apply_to = function)
#else
#pragma GCC pop_options
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx2,fma")
// GCC 12 warns inside its own AVX-512 intrinsics (_mm512_undefined_*, GCC bug 105593).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

// AVX-512: 16 lanes, one vector per C fractal row.
template <Op op>
struct V512;
template <>
struct V512<Op::FmaF32> {
  using T = float;
  using V = __m512;
  static V load(const T* p) { return _mm512_loadu_ps(p); }
  static void store(T* p, V v) { _mm512_storeu_ps(p, v); }
  static V bcast(const T* p) { return _mm512_set1_ps(*p); }
  static V step(V acc, V a, V b) { return _mm512_fmadd_ps(a, b, acc); }
};
template <>
struct V512<Op::MulAddF32> {
  using T = float;
  using V = __m512;
  static V load(const T* p) { return _mm512_loadu_ps(p); }
  static void store(T* p, V v) { _mm512_storeu_ps(p, v); }
  static V bcast(const T* p) { return _mm512_set1_ps(*p); }
  static V step(V acc, V a, V b) { return _mm512_add_ps(acc, _mm512_mul_ps(a, b)); }
};
template <>
struct V512<Op::MaddI16> {
  using T = int32_t;
  using V = __m512i;
  static V load(const T* p) { return _mm512_loadu_si512(p); }
  static void store(T* p, V v) { _mm512_storeu_si512(p, v); }
  static V bcast(const T* p) { return _mm512_set1_epi32(*p); }
  static V step(V acc, V a, V b) { return _mm512_add_epi32(acc, _mm512_madd_epi16(a, b)); }
};

// MR rows x NP C fractal columns (16 * NP columns), steps [s0, s1). b_stride / c_stride are
// the distances between consecutive panels of B and fractal columns of C.
template <Op op, int MR, int NP, int K0>
void micro512(const typename V512<op>::T* a, uint32_t s0, uint32_t s1,
              const typename V512<op>::T* b, size_t b_stride, typename V512<op>::T* c,
              size_t c_stride) {
  using S = V512<op>;
  typename S::V acc[MR][NP];
  NPUVP_UNROLL
  for (int r = 0; r < MR; ++r) {
    NPUVP_UNROLL
    for (int p = 0; p < NP; ++p) acc[r][p] = S::load(c + p * c_stride + r * 16);
  }
  for (uint32_t s = s0; s < s1;) {
    // The steps left in this A fractal: row r's value for step s is ap[r * K0].
    const uint32_t f = s / K0;
    const typename S::T* ap = a + size_t(f) * 16 * K0 + (s - f * K0);
    const typename S::T* bq = b + size_t(s) * 16;
    const uint32_t end = (f + 1) * K0 < s1 ? (f + 1) * K0 : s1;
    for (uint32_t n = end - s; n > 0; --n, ++ap, bq += 16) {
      typename S::V bv[NP];
      NPUVP_UNROLL
      for (int p = 0; p < NP; ++p) bv[p] = S::load(bq + p * b_stride);
      NPUVP_UNROLL
      for (int r = 0; r < MR; ++r) {
        const typename S::V av = S::bcast(ap + r * K0);
        NPUVP_UNROLL
        for (int p = 0; p < NP; ++p) acc[r][p] = S::step(acc[r][p], av, bv[p]);
      }
    }
    s = end;
  }
  NPUVP_UNROLL
  for (int r = 0; r < MR; ++r) {
    NPUVP_UNROLL
    for (int p = 0; p < NP; ++p) S::store(c + p * c_stride + r * 16, acc[r][p]);
  }
}

template <Op op, int K0>
void gemm_avx512(const Job<typename V512<op>::T>& j) {
  // 8 rows x 32 columns: 16 accumulators, 2 B loads and 8 broadcasts per 16 vector updates.
  constexpr int kMr = 8;
  const size_t M = size_t(j.M1) * 16;
  const size_t b_stride = size_t(j.steps) * 16, c_stride = M * 16;
  for (uint32_t s0 = 0; s0 < j.steps; s0 += kKc) {
    const uint32_t s1 = j.steps - s0 > kKc ? s0 + kKc : j.steps;
    for (uint32_t n1 = 0; n1 < j.N1; n1 += 2) {
      const auto* bp = j.b + n1 * b_stride;
      auto* cp = j.c + n1 * c_stride;
      const bool pair = n1 + 1 < j.N1;
      for (size_t r0 = 0; r0 < M; r0 += kMr) {
        const auto* ap = j.a + (r0 / 16 * j.K1 * 16 + r0 % 16) * K0;
        if (pair) {
          micro512<op, kMr, 2, K0>(ap, s0, s1, bp, b_stride, cp + r0 * 16, c_stride);
        } else {
          micro512<op, kMr, 1, K0>(ap, s0, s1, bp, b_stride, cp + r0 * 16, c_stride);
        }
      }
    }
  }
}

// Transposes 16 x 16 32-bit values in registers: r[i] lane j -> r[j] lane i (64 shuffles).
void transpose16x16(__m512 r[16]) {
  __m512 t[16];
  NPUVP_UNROLL
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  // u[4q + c], 128-bit lane l: rows 4q..4q+3 of column 4l + c.
  __m512 u[16];
  NPUVP_UNROLL
  for (int q = 0; q < 4; ++q) {
    u[4 * q + 0] = _mm512_shuffle_ps(t[4 * q + 0], t[4 * q + 2], 0x44);
    u[4 * q + 1] = _mm512_shuffle_ps(t[4 * q + 0], t[4 * q + 2], 0xEE);
    u[4 * q + 2] = _mm512_shuffle_ps(t[4 * q + 1], t[4 * q + 3], 0x44);
    u[4 * q + 3] = _mm512_shuffle_ps(t[4 * q + 1], t[4 * q + 3], 0xEE);
  }
  // For each c, a 4 x 4 transpose of 128-bit lanes across u[c], u[4 + c], u[8 + c], u[12 + c].
  NPUVP_UNROLL
  for (int c = 0; c < 4; ++c) {
    const __m512 v0 = _mm512_shuffle_f32x4(u[c], u[4 + c], 0x88);
    const __m512 v1 = _mm512_shuffle_f32x4(u[c], u[4 + c], 0xDD);
    const __m512 v2 = _mm512_shuffle_f32x4(u[8 + c], u[12 + c], 0x88);
    const __m512 v3 = _mm512_shuffle_f32x4(u[8 + c], u[12 + c], 0xDD);
    r[c] = _mm512_shuffle_f32x4(v0, v2, 0x88);
    r[4 + c] = _mm512_shuffle_f32x4(v1, v3, 0x88);
    r[8 + c] = _mm512_shuffle_f32x4(v0, v2, 0xDD);
    r[12 + c] = _mm512_shuffle_f32x4(v1, v3, 0xDD);
  }
}

// One B fractal into its panel rows (see pack_b_float / pack_b_int for the layouts): each of
// the 16 fractal columns becomes one vector of 16 steps, then one transpose gives the rows.
// `rows` is the number of panel rows to write (steps < k).
void pack_b_fractal_avx512(const uint8_t* frac, DType type, uint32_t kn, void* dst,
                           uint32_t rows) {
  __m512 r[16];
  if (type == DType::F16) {
    NPUVP_UNROLL
    for (int ni = 0; ni < 16; ++ni) {
      r[ni] = _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(frac + ni * 32)));
    }
  } else if (type == DType::BF16) {
    NPUVP_UNROLL
    for (int ni = 0; ni < 16; ++ni) {
      const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(frac + ni * 32));
      r[ni] = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
    }
  } else if (type == DType::F32) {  // 8 steps per column; lanes 8..15 unused
    NPUVP_UNROLL
    for (int ni = 0; ni < 16; ++ni) {
      r[ni] = _mm512_zextps256_ps512(_mm256_loadu_ps(reinterpret_cast<const float*>(frac + ni * 32)));
    }
  } else {  // s8: 32 steps per column, as 16 int32 lanes of int16 pairs; steps >= kn are 0
    const __m256i keep = _mm256_cmpgt_epi8(_mm256_set1_epi8(char(kn)),
                                           _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                                            12, 13, 14, 15, 16, 17, 18, 19, 20,
                                                            21, 22, 23, 24, 25, 26, 27, 28, 29,
                                                            30, 31));
    NPUVP_UNROLL
    for (int ni = 0; ni < 16; ++ni) {
      const __m256i b = _mm256_and_si256(
          keep, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(frac + ni * 32)));
      r[ni] = _mm512_castsi512_ps(_mm512_cvtepi8_epi16(b));
    }
  }
  transpose16x16(r);
  float* out = static_cast<float*>(dst);
  for (uint32_t s = 0; s < rows; ++s) _mm512_storeu_ps(out + s * 16, r[s]);
}

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC diagnostic pop
#pragma GCC pop_options
#endif
#endif  // NPUVP_CUBE_X86

// ---- Kernel selection: the best the CPU has, or lower when a test asks for it.
constexpr int kLevelScalar = 0, kLevelAvx2 = 1, kLevelAvx512 = 2;

int detect_level() {
#if NPUVP_CUBE_X86
  __builtin_cpu_init();
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) {
    return kLevelAvx512;
  }
  if (avx2) return kLevelAvx2;
#endif
  return kLevelScalar;
}

std::atomic<int> g_level_request{-1};

int kernel_level() {
  static const int best = detect_level();
  const int request = g_level_request.load(std::memory_order_relaxed);
  return request < 0 ? best : std::min(request, best);
}

// K0 (steps per A fractal row) is a template argument so that the kernels address A with
// constant displacements: 16 for 16-bit floats and integer pairs, 8 for f32.
template <Op op, class T>
void run_gemm(const Job<T>& j) {
  if (j.steps == 0) return;
  switch (kernel_level()) {
#if NPUVP_CUBE_X86
    case kLevelAvx512:
      if (j.K0 == 8) return gemm_avx512<op, 8>(j);
      return gemm_avx512<op, 16>(j);
    case kLevelAvx2:
      if (j.K0 == 8) return gemm_avx2<op, 8>(j);
      return gemm_avx2<op, 16>(j);
#endif
    default: return gemm_scalar<op>(j);
  }
}

// ---- Operand preparation.

// Whether `count` values of `type` at `src` hold a NaN: 8 bytes at a time, on raw bits. Per
// lane, |x| + (lane max - inf) carries into the lane's top bit exactly when |x| > inf (no carry
// leaves a lane), so one add and one mask test 4 halves or 2 floats.
bool has_nan(const uint8_t* src, DType type, size_t count) {
  uint64_t abs_mask, add, top;
  if (type == DType::F32) {
    abs_mask = 0x7fffffff7fffffffull;
    add = 0x007fffff007fffffull;  // 0x7fffffff - 0x7f800000
    top = 0x8000000080000000ull;
  } else {
    abs_mask = 0x7fff7fff7fff7fffull;
    add = type == DType::BF16 ? 0x007f007f007f007full : 0x03ff03ff03ff03ffull;
    top = 0x8000800080008000ull;
  }
  const size_t bytes = count * dtype_size(type);
  uint64_t any = 0;
  size_t off = 0;
  for (; off + 8 <= bytes; off += 8) {
    uint64_t w;
    std::memcpy(&w, src + off, 8);
    any |= ((w & abs_mask) + add) & top;
  }
  if (off < bytes) {
    uint64_t w = 0;  // zero padding is not a NaN
    std::memcpy(&w, src + off, bytes - off);
    any |= ((w & abs_mask) + add) & top;
  }
  return any != 0;
}

// `count` f16, bf16 or f32 values at `src` as f32 (exact: every value is representable).
void widen_to_f32(const uint8_t* src, DType type, float* out, size_t count) {
  if (type == DType::F16) {
    f16_to_f32(reinterpret_cast<const _Float16*>(src), out, count);
  } else if (type == DType::BF16) {
    for (size_t x = 0; x < count; ++x) {
      uint16_t h;
      std::memcpy(&h, src + 2 * x, 2);
      const uint32_t u = uint32_t(h) << 16;
      std::memcpy(&out[x], &u, 4);
    }
  } else {
    std::memcpy(out, src, count * 4);
  }
}

// B (float types) into k-major panels: bp[(n1 * k + kk) * 16 + ni] = b(kk, n1 * 16 + ni).
// Source fractal (k1, n1) is column-major: element (ki, ni) at ni * K0 + ki.
void pack_b_float(const uint8_t* src, DType type, uint32_t K1, uint32_t N1, uint32_t k,
                  float* bp) {
  const uint32_t K0 = 32 / dtype_size(type);
  [[maybe_unused]] const bool avx512 = kernel_level() == kLevelAvx512;
  float tmp[256];
  for (uint32_t n1 = 0; n1 < N1; ++n1) {
    float* panel = bp + size_t(n1) * k * 16;
    for (uint32_t k1 = 0; k1 < K1; ++k1) {
      const uint8_t* frac = src + (size_t(k1) * N1 + n1) * kFractalBytes;
#if NPUVP_CUBE_X86
      if (avx512) {
        const uint32_t kn = std::min(K0, k - k1 * K0);
        pack_b_fractal_avx512(frac, type, kn, panel + size_t(k1) * K0 * 16, kn);
        continue;
      }
#endif
      widen_to_f32(frac, type, tmp, K0 * 16);
      const uint32_t kn = std::min(K0, k - k1 * K0);
      float* dst = panel + size_t(k1) * K0 * 16;
      for (uint32_t ki = 0; ki < kn; ++ki) {
        for (uint32_t ni = 0; ni < 16; ++ni) dst[ki * 16 + ni] = tmp[ni * K0 + ki];
      }
    }
  }
}

// A (float types) converted in place of layout (ZZ, K0 values per fractal row).
const float* prep_a_float(const uint8_t* src, DType type, size_t count) {
  if (type == DType::F32 && reinterpret_cast<uintptr_t>(src) % alignof(float) == 0) {
    return reinterpret_cast<const float*>(src);  // already f32 in place
  }
  float* a = t_a.get<float>(count);
  widen_to_f32(src, type, a, count);
  return a;
}

// Integer A: u8/s8 widened to int16 in the same ZZ layout (32 per fractal row), which read as
// int32 is 16 k pairs per fractal row.
const int32_t* prep_a_int(const uint8_t* src, bool is_unsigned, size_t count) {
  int32_t* a = t_a.get<int32_t>((count + 1) / 2);
  int16_t* w = reinterpret_cast<int16_t*>(a);
  if (is_unsigned) {
    for (size_t x = 0; x < count; ++x) w[x] = int16_t(src[x]);
  } else {
    for (size_t x = 0; x < count; ++x) w[x] = int16_t(int8_t(src[x]));
  }
  return a;
}

// Integer B (s8): panels of k pairs, bp16[((n1 * pairs + p) * 16 + ni) * 2 + (kk & 1)] =
// b(kk, n1 * 16 + ni) with kk = 2p or 2p + 1; kk >= k is 0, so an odd k's last pair adds
// a(i, k) * 0 = 0.
void pack_b_int(const uint8_t* src, uint32_t K1, uint32_t N1, uint32_t k, int32_t* bp) {
  constexpr uint32_t K0 = 32;
  const uint32_t pairs = (k + 1) / 2;
  int16_t* out = reinterpret_cast<int16_t*>(bp);
  [[maybe_unused]] const bool avx512 = kernel_level() == kLevelAvx512;
  for (uint32_t n1 = 0; n1 < N1; ++n1) {
    int16_t* panel = out + size_t(n1) * pairs * 32;
    for (uint32_t k1 = 0; k1 < K1; ++k1) {
      const uint8_t* frac = src + (size_t(k1) * N1 + n1) * kFractalBytes;
#if NPUVP_CUBE_X86
      if (avx512) {
        const uint32_t kn = std::min(K0, k - k1 * K0);
        // Pair rows of 16 columns x 2 int16: the fractal's first pair row is k1 * K0 / 2.
        pack_b_fractal_avx512(frac, DType::S8, kn, panel + size_t(k1) * (K0 / 2) * 32,
                              (kn + 1) / 2);
        continue;
      }
#endif
      for (uint32_t ki = 0; ki < K0; ++ki) {
        const uint32_t kk = k1 * K0 + ki;
        if (kk >= 2 * pairs) break;
        int16_t* dst = panel + size_t(kk / 2) * 32 + (kk & 1);
        for (uint32_t ni = 0; ni < 16; ++ni) {
          dst[ni * 2] = kk < k ? int16_t(int8_t(frac[ni * K0 + ki])) : int16_t(0);
        }
      }
    }
  }
}

}  // namespace

// ---- The entry points (cube_gemm.h): operands prepared, the kernel for the type chosen.

void mmad_float(const uint8_t* a_src, const uint8_t* b_src, DType type, uint32_t M1,
                uint32_t N1, uint32_t k, float* c) {
  const uint32_t K0 = 32 / dtype_size(type);
  const uint32_t K1 = (k + K0 - 1) / K0;
  const size_t fractal_values = kFractalBytes / dtype_size(type);
  const float* a = prep_a_float(a_src, type, size_t(M1) * K1 * fractal_values);
  float* b = t_b.get<float>(size_t(N1) * 16 * k);
  pack_b_float(b_src, type, K1, N1, k, b);
  const Job<float> job{a, b, c, M1, N1, K1, K0, k};
  const bool ranked = has_nan(a_src, type, size_t(M1) * K1 * fractal_values) &&
                      has_nan(b_src, type, size_t(K1) * N1 * fractal_values);
  if (ranked) {  // NaN in both operands: rank them explicitly (see the header comment)
    if (type == DType::BF16) {
      gemm_scalar<Op::MulAddF32NanRanked>(job);
    } else {
      gemm_scalar<Op::FmaF32NanRanked>(job);
    }
  } else if (type == DType::F32 || (kF16Fused && type != DType::BF16)) {
    run_gemm<Op::FmaF32>(job);
  } else {
    run_gemm<Op::MulAddF32>(job);
  }
}

void mmad_int(const uint8_t* a_src, bool a_unsigned, const uint8_t* b_src, uint32_t M1,
              uint32_t N1, uint32_t k, int32_t* c) {
  constexpr uint32_t K0 = 32;
  const uint32_t K1 = (k + K0 - 1) / K0;
  const uint32_t pairs = (k + 1) / 2;
  const int32_t* a = prep_a_int(a_src, a_unsigned, size_t(M1) * K1 * kFractalBytes);
  int32_t* b = t_b.get<int32_t>(size_t(N1) * pairs * 16);
  pack_b_int(b_src, K1, N1, k, b);
  run_gemm<Op::MaddI16>(Job<int32_t>{a, b, c, M1, N1, K1, 16, pairs});
}

float* f32_accumulator(size_t count) { return t_c.get<float>(count); }

}  // namespace npuvp::aicore::cube_gemm

namespace npuvp::aicore::detail {
// Test hook (declared by the tests): run the kernels of at most `level` (0 scalar, 1 AVX2,
// 2 AVX-512; negative = best available). Returns the level that will actually run.
int set_cube_kernel_level(int level) {
  cube_gemm::g_level_request.store(level, std::memory_order_relaxed);
  return cube_gemm::kernel_level();
}
}  // namespace npuvp::aicore::detail
