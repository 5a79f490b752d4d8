// The vector unit's elementwise instructions (docs/vector-isa.md): arithmetic (Add, Sub, Mul,
// Div, Max, Min, Adds, Muls), unary math (Abs, Relu, Exp, Ln, Sqrt, Rsqrt, Reciprocal,
// LeakyRelu), bitwise (Not, And, Or) and Duplicate. Each computes every lane from the same lane
// of its sources, so each is one element operation run over whole repeats by the repeat engine
// (vector_repeat.h); this file holds those element operations, the whole-repeat kernels (f16
// widened to float and rounded back in bulk) and the dispatch by dtype. The numeric contract
// they follow is at the top of vector_unit.cpp.
#include "models/aicore/vector_repeat.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "models/numerics/bfloat16.h"
#include "models/numerics/fp16.h"

namespace npuvp::aicore::vector {
namespace {

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
// Shifts by s in [0, bits] (checked). Unsigned: logical. Signed left: the sign bit stays and
// the bits below it shift; signed right: arithmetic (Ascend C ShiftLeft/ShiftRight).
struct ShiftLeftOp {
  template <typename C>
  C operator()(C a, C s) const {
    using U = std::make_unsigned_t<C>;
    constexpr unsigned bits = 8 * sizeof(C);
    const unsigned n = static_cast<unsigned>(s);
    const U shifted = n >= bits ? U(0) : static_cast<U>(static_cast<U>(a) << n);
    if constexpr (std::is_signed_v<C>) {
      const U sign = static_cast<U>(U(1) << (bits - 1));
      return static_cast<C>((static_cast<U>(a) & sign) | (shifted & static_cast<U>(~sign)));
    } else {
      return static_cast<C>(shifted);
    }
  }
};
template <bool kRound>
struct ShiftRightOp {
  template <typename C>
  C operator()(C a, C s) const {
    constexpr unsigned bits = 8 * sizeof(C);
    const unsigned n = static_cast<unsigned>(s);
    // Signed: >> of a negative value is arithmetic (C++20 defines it; GCC always has).
    const C shifted = n >= bits ? C(a < 0 ? -1 : 0) : static_cast<C>(a >> n);
    if constexpr (kRound) {
      // roundEn: plus the last bit shifted out.
      if (n >= 1 && n <= bits) {
        const C last = n == bits ? C(a < 0 ? 1 : 0) : static_cast<C>((a >> (n - 1)) & 1);
        return static_cast<C>(shifted + last);
      }
    }
    return shifted;
  }
};


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

// fn(src0, src1, dst) -> dst: the destination is the third input (MulAddDst, FusedMulAdd).
template <typename T, typename Fn>
void run_ternary(const VectorOp& op, uint8_t* ub, Fn fn) {
  constexpr unsigned n = 256 / sizeof(T);
  run_repeats<T, 3>(op, ub, [fn](const T* a, const T* b, T* d, uint32_t) {
    if constexpr (std::is_same_v<T, _Float16>) {
      alignas(32) float fa[n], fb[n], fd[n];
      f16_to_f32(a, fa, n);
      f16_to_f32(b, fb, n);
      f16_to_f32(d, fd, n);
      for (unsigned i = 0; i < n; ++i) fd[i] = fn(fa[i], fb[i], fd[i]);
      f32_to_f16(fd, d, n);
    } else {
      for (unsigned i = 0; i < n; ++i) d[i] = fn(a[i], b[i], d[i]);
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

// Copy moves bits: NaN payloads and -0 are kept whatever the type.
template <typename B>
void run_copy(const VectorOp& op, uint8_t* ub) {
  run_repeats<B, 1>(op, ub, [](const B* a, const B*, B* d, uint32_t) { std::memcpy(d, a, 256); });
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
    case VecOp::Axpy:
      // src1 is the destination: dst + src * scalar, the product and the sum each rounded in
      // float (then once to half for f16).
      if constexpr (kFloat) {
        const float s = static_cast<float>(scalar_as<T>(op.scalar));
        return run_binary<T>(op, ub, [s](float a, float b) { return b + a * s; });
      }
      break;
    // The fused multiply-adds round as Axpy does: the product and the sum each rounded in
    // float (f16: then once to half). The TIK reference (vmla, vmadd, vmaddrelu) gives no
    // finer rounding rule; this is the model's choice, docs/vector-isa.md.
    case VecOp::MulAddDst:
      if constexpr (kFloat) return run_ternary<T>(op, ub, [](float a, float b, float d) { return a * b + d; });
      break;
    case VecOp::FusedMulAdd:
      if constexpr (kFloat) return run_ternary<T>(op, ub, [](float a, float b, float d) { return a * d + b; });
      break;
    case VecOp::FusedMulAddRelu:
      if constexpr (kFloat) {
        return run_ternary<T>(op, ub, [](float a, float b, float d) {
          const float r = a * d + b;
          return r > 0.0f ? r : 0.0f;  // as Relu
        });
      }
      break;
    case VecOp::Maxs:
      if constexpr (kArith) return run_scalar<T>(op, ub, MaxOp{});
      break;
    case VecOp::Mins:
      if constexpr (kArith) return run_scalar<T>(op, ub, MinOp{});
      break;
    case VecOp::ShiftLeft:
      if constexpr (!kFloat) return run_scalar<T>(op, ub, ShiftLeftOp{});
      break;
    case VecOp::ShiftRight:
      if constexpr (!kFloat) {
        if (op.round_shift) return run_scalar<T>(op, ub, ShiftRightOp<true>{});
        return run_scalar<T>(op, ub, ShiftRightOp<false>{});
      }
      break;
    default: break;
  }
  unsupported(op);
}

}  // namespace

void execute_elementwise(const VectorOp& op, uint8_t* ub) {
  if (op.op == VecOp::Copy) {
    if (dtype_size(op.dtype) == 2) return run_copy<uint16_t>(op, ub);
    if (dtype_size(op.dtype) == 4) return run_copy<uint32_t>(op, ub);
    unsupported(op);
  }
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

}  // namespace npuvp::aicore::vector
