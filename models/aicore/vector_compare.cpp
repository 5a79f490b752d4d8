// The vector unit's Compare and Select (docs/vector-isa.md): Compare and CompareScalar write
// one bit per element to the UB, CompareToCmpMask writes them to the CMPMASK register, and
// Select picks src0 or src1 (or a scalar) per element by such bits, read from the UB or from
// CMPMASK. They belong together and apart from the other families because they produce and
// consume bit fields rather than strided blocks, and share the CMPMASK register (VectorUnit
// owns it and passes it in).
#include "models/aicore/vector_repeat.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace npuvp::aicore::vector {
namespace {

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

}  // namespace

void execute_compare(const VectorOp& op, uint8_t* ub, VectorUnit::CmpMask& cmp_mask) {
  auto run = [&](auto tag) {
    using T = decltype(tag);
    constexpr unsigned epr = 256 / sizeof(T);
    const bool to_reg = op.op == VecOp::CompareToCmpMask;
    if (to_reg) cmp_mask = VectorUnit::CmpMask{};  // the register takes the one repeat's bits
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
        cmp_mask.w[0] = out.w[0];
        cmp_mask.w[1] = out.w[1];
      } else {
        store_bits(ub + op.dst + static_cast<uint64_t>(r) * epr / 8, out, epr / 8);
      }
    }
  };
  if (op.dtype == DType::F16) return run(_Float16{});
  if (op.dtype == DType::F32) return run(float{});
  unsupported(op);
}

void execute_select(const VectorOp& op, uint8_t* ub, const VectorUnit::CmpMask& cmp_mask) {
  auto run = [&](auto tag) {
    using B = decltype(tag);
    constexpr unsigned epr = 256 / sizeof(B);
    const ElemMask reg = load_bits(reinterpret_cast<const uint8_t*>(cmp_mask.w), epr / 8);
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
  if (op.dtype == DType::F16) return run(uint16_t{});
  if (op.dtype == DType::F32) return run(uint32_t{});
  unsupported(op);
}

}  // namespace npuvp::aicore::vector
