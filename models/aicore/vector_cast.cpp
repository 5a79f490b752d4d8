// The vector unit's Cast (docs/vector-isa.md): which (source, destination) dtype pairs and
// rounding modes it takes, and the conversions themselves. It stands apart because it is the
// one instruction whose operands have different element sizes (a repeat holds 256 B of the
// wider type, so source and destination blocks are laid out differently), and because its
// rounding (seven modes, round to odd, saturation of integers and of f16/bf16 overflow) is
// numerics no other instruction shares.
#include "models/aicore/vector_repeat.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "models/numerics/bfloat16.h"
#include "models/numerics/fp16.h"

namespace npuvp::aicore::vector {
namespace {

constexpr unsigned kExact = bit(RoundMode::None);  // exact conversions: no rounding to choose
constexpr unsigned kRounded = bit(RoundMode::None) | bit(RoundMode::Rint) | bit(RoundMode::Floor) |
                              bit(RoundMode::Ceil) | bit(RoundMode::Round) | bit(RoundMode::Trunc);
constexpr int cast_key(DType s, DType d) { return static_cast<int>(s) * 16 + static_cast<int>(d); }

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

}  // namespace

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
    // int16 <-> float / half (issue 23: lib ReduceXorSum; the Cast page's int16_t rows).
    case cast_key(DType::S16, DType::F32): return kExact;
    case cast_key(DType::S16, DType::F16):
    case cast_key(DType::F32, DType::S16):
    case cast_key(DType::F16, DType::S16): return kRounded;
    default: return 0;
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
      if (op.deq) {  // |a| < 2^31 times an 11-bit significand: exact in double
        const double scale = static_cast<double>(static_cast<_Float16>(op.scalar));
        return run_cast<int32_t, uint16_t>(op, ub, [m, scale](int32_t a) { return cast_to_f16(a * scale, m); });
      }
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
    // int16 <-> float / half (issue 23).
    case cast_key(DType::S16, DType::F32):
      return run_cast<int16_t, float>(op, ub, [](int16_t a) { return static_cast<float>(a); });
    case cast_key(DType::S16, DType::F16):
      return run_cast<int16_t, uint16_t>(op, ub, [m](int16_t a) { return cast_to_f16(a, m); });
    case cast_key(DType::F32, DType::S16):
      return run_cast<float, int16_t>(op, ub, [m](float a) { return cast_to_int<int16_t>(a, m); });
    case cast_key(DType::F16, DType::S16):
      return run_cast<_Float16, int16_t>(op, ub, [m](_Float16 a) {
        return cast_to_int<int16_t>(static_cast<float>(a), m);
      });
    default:
      throw std::logic_error(fmt::format("VectorUnit::execute: Cast does not support {}->{}",
                                         dtype_name(op.dtype), dtype_name(op.dst_dtype)));
  }
}

}  // namespace npuvp::aicore::vector
