// More of the basic vector API (issue 22; docs/vector-isa.md): the scalar-operand ops Maxs,
// Mins, ShiftLeft and ShiftRight; Copy; GatherMask; Scatter; and the whole-tensor LocalTensor
// operators (dst = a + b, dst = a < b, ...). Same conventions as vector.h (repeatTime is
// taken as uint32_t so that 256 is reported, not wrapped).
#pragma once
#include <type_traits>
#include "sw/ascendc/ascendc/data_copy_pad.h"
#include "sw/ascendc/ascendc/vector.h"

NPUVP_ASCENDC_SCALAR(Maxs)
NPUVP_ASCENDC_SCALAR(Mins)
NPUVP_ASCENDC_SCALAR(ShiftLeft)

namespace AscendC {

// ---- ShiftRight: arithmetic for signed types; roundEn adds the last bit shifted out
// (docs/api/context/ShiftRight-11.md).

template <class T>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const int32_t& count) {
  namespace a = npuvp::ascendc;
  a::vector_count(a::vec_op(npuvp::aicore::VecOp::ShiftRight, a::DTypeOf<T>::value, a::vaddr(dst, "ShiftRight"),
                            a::vaddr(src, "ShiftRight"), 0, a::scalar_value(scalarValue)),
                  count);
}
NPUVP_VEC_MASK_FORMS(ShiftRight, class T,
                     const LocalTensor<T>& dst NPUVP_COMMA const LocalTensor<T>& src NPUVP_COMMA const T& scalarValue,
                     const UnaryRepeatParams& repeatParams NPUVP_COMMA bool roundEn = false, repeatParams,
                     auto v = a::vec_op(npuvp::aicore::VecOp::ShiftRight, a::DTypeOf<T>::value,
                                        a::vaddr(dst, "ShiftRight"), a::vaddr(src, "ShiftRight"), 0,
                                        a::scalar_value(scalarValue));
                     v.round_shift = roundEn;)

// ---- Axpy: dst = dst + src * scalar (docs/api/context/Axpy.md), half or float; the
// half-source, float-destination form is not modelled (static_assert).

namespace detail {
template <typename T, typename U>
npuvp::aicore::VectorOp axpy_op(const LocalTensor<T>& dst, const LocalTensor<U>& src, double scalar) {
  static_assert(std::is_same<T, U>::value, "npuvp: Axpy with a half source and a float destination is not modelled");
  namespace a = npuvp::ascendc;
  const uint64_t d = a::vaddr(dst, "Axpy");
  return a::vec_op(npuvp::aicore::VecOp::Axpy, a::DTypeOf<T>::value, d, a::vaddr(src, "Axpy"), d, scalar);
}
}  // namespace detail

template <typename T, typename U>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const npuvp::ascendc::Scalar<U>& scalarValue,
          const int32_t& count) {
  npuvp::ascendc::vector_count(detail::axpy_op(dst, src, npuvp::ascendc::scalar_value(scalarValue)), count);
}
NPUVP_VEC_MASK_FORMS(Axpy, typename T NPUVP_COMMA typename U,
                     const LocalTensor<T>& dst NPUVP_COMMA const LocalTensor<U>& src
                         NPUVP_COMMA const npuvp::ascendc::Scalar<U>& scalarValue,
                     const UnaryRepeatParams& repeatParams, repeatParams,
                     auto v = detail::axpy_op(dst, src, a::scalar_value(scalarValue));
                     v.src1_blk_stride = repeatParams.dstBlkStride;
                     v.src1_rep_stride = repeatParams.dstRepStride;)

// ---- Copy: UB -> UB through the vector unit, with a mask and block/repeat strides.

struct CopyRepeatParams {
  CopyRepeatParams() {}
  CopyRepeatParams(const uint16_t dst_stride, const uint16_t src_stride, uint16_t dst_repeat, uint16_t src_repeat)
      : dstStride(dst_stride), srcStride(src_stride), dstRepeatSize(dst_repeat), srcRepeatSize(src_repeat) {}
  uint16_t dstStride = 1;  // 32 B blocks between the blocks of a repeat
  uint16_t srcStride = 1;
  uint16_t dstRepeatSize = 8;  // 32 B blocks between repeats
  uint16_t srcRepeatSize = 8;
};

}  // namespace AscendC

namespace npuvp::ascendc {
inline void set_strides(aicore::VectorOp& v, const AscendC::CopyRepeatParams& p) {
  v.dst_blk_stride = p.dstStride;
  v.src0_blk_stride = p.srcStride;
  v.dst_rep_stride = p.dstRepeatSize;
  v.src0_rep_stride = p.srcRepeatSize;
}

// GatherMask after its instruction is issued: the scalar unit waits for it (PIPE_ALL) and
// reads the count it kept; the mask register is left in Normal mode.
// A built-in pattern is 1..7 (0 would mean "bits at src1").
uint64_t gather_mask_issue(const aicore::VectorOp& v, bool built_in);
// Scatter exists on Atlas inference AI Cores (310P) only.
void scatter_check_product();
// Fill / InitGlobalMemory: `count` elements of GM from `gm` on set to `bits` (elem_size bytes).
void fill_gm(const void* gm, uint64_t count, uint64_t bits, unsigned elem_size, aicore::DType type, const char* api);
}  // namespace npuvp::ascendc

namespace AscendC {

template <typename T>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {
  namespace a = npuvp::ascendc;
  a::vector_count(a::vec_op(npuvp::aicore::VecOp::Copy, a::DTypeOf<T>::value, a::vaddr(dst, "Copy"),
                            a::vaddr(src, "Copy")),
                  count);
}
NPUVP_VEC_MASK_FORMS(Copy, typename T, const LocalTensor<T>& dst NPUVP_COMMA const LocalTensor<T>& src,
                     const CopyRepeatParams& repeatParams, repeatParams,
                     auto v = a::vec_op(npuvp::aicore::VecOp::Copy, a::DTypeOf<T>::value, a::vaddr(dst, "Copy"),
                                        a::vaddr(src, "Copy"));)

// ---- GatherMask (docs/api/context/GatherMask.md).

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
inline constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;

struct GatherMaskParams {
  GatherMaskParams() {}
  GatherMaskParams(const uint8_t src0_blk, const uint16_t repeat, const uint16_t src0_rep, const uint8_t src1_rep)
      : src0BlockStride(src0_blk), repeatTimes(repeat), src0RepeatStride(src0_rep), src1RepeatStride(src1_rep) {}
  uint8_t src0BlockStride = 1;  // 32 B blocks
  uint16_t repeatTimes = 0;
  uint16_t src0RepeatStride = 8;  // 32 B blocks
  uint8_t src1RepeatStride = 8;   // 32 B blocks (user pattern only)
};

namespace detail {
template <typename T>
npuvp::aicore::VectorOp gather_mask_op(const LocalTensor<T>& dst, const LocalTensor<T>& src0, uint64_t pattern_addr,
                                       uint8_t pattern, bool reduceMode, uint32_t mask, const GatherMaskParams& p) {
  namespace a = npuvp::ascendc;
  auto v = a::vec_op(npuvp::aicore::VecOp::GatherMask, a::DTypeOf<T>::value, a::vaddr(dst, "GatherMask"),
                     a::vaddr(src0, "GatherMask"), pattern_addr);
  v.gather_pattern = pattern;
  v.counter_mode = reduceMode;
  v.mask_lo = reduceMode ? mask : 0;  // Normal mode: the mask is not used
  v.mask_hi = 0;
  v.repeat = p.repeatTimes;
  v.src0_blk_stride = p.src0BlockStride;
  v.src0_rep_stride = p.src0RepeatStride;
  v.src1_rep_stride = pattern == 0 ? p.src1RepeatStride : 0;
  return v;
}
}  // namespace detail

// User pattern: bit i of src1Pattern (a uint16_t tensor for 16-bit T, uint32_t for 32-bit T)
// selects element i of each repeat.
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                uint64_t& rsvdCnt) {
  static_assert(std::is_same<U, uint16_t>::value || std::is_same<U, uint32_t>::value,
                "GatherMask: src1Pattern is a uint16_t (16-bit T) or uint32_t (32-bit T) tensor");
  static_assert(sizeof(U) == sizeof(T), "GatherMask: src1Pattern's element width must be T's");
  rsvdCnt = npuvp::ascendc::gather_mask_issue(
      detail::gather_mask_op(dst, src0, npuvp::ascendc::vaddr(src1Pattern, "GatherMask"), 0, reduceMode, mask,
                             gatherMaskParams),
      false);
}
// Built-in pattern 1..7: even, odd, and the 1st/2nd/3rd/4th of every 4 elements; 7 all.
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                uint64_t& rsvdCnt) {
  rsvdCnt = npuvp::ascendc::gather_mask_issue(
      detail::gather_mask_op(dst, src0, 0, src1Pattern, reduceMode, mask, gatherMaskParams), true);
}

// ---- Scatter (Atlas inference AI Core): dst byte (dstBaseAddr + dstOffset[i]) = src[i].

namespace detail {
template <typename T>
npuvp::aicore::VectorOp scatter_op(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                   const LocalTensor<uint32_t>& offset, uint32_t base) {
  namespace a = npuvp::ascendc;
  a::scatter_check_product();
  return a::vec_op(npuvp::aicore::VecOp::Scatter, a::DTypeOf<T>::value, a::vaddr(dst, "Scatter") + base,
                   a::vaddr(src, "Scatter"), a::vaddr(offset, "Scatter"));
}
}  // namespace detail

template <typename T>
void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& dstOffset,
             const uint32_t dstBaseAddr, const uint32_t count) {
  npuvp::ascendc::vector_count(detail::scatter_op(dst, src, dstOffset, dstBaseAddr), count);
}
template <typename T, bool isSetMask = true>
void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& dstOffset,
             const uint32_t dstBaseAddr, const uint64_t mask[], const uint32_t repeatTime,
             const uint8_t srcRepStride) {
  namespace a = npuvp::ascendc;
  auto v = detail::scatter_op(dst, src, dstOffset, dstBaseAddr);
  v.src0_rep_stride = srcRepStride;
  a::vector_masked(v, a::mask_arg(mask), isSetMask, repeatTime);
}
template <typename T, bool isSetMask = true>
void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& dstOffset,
             const uint32_t dstBaseAddr, const uint64_t mask, const uint32_t repeatTime, const uint8_t srcRepStride) {
  namespace a = npuvp::ascendc;
  auto v = detail::scatter_op(dst, src, dstOffset, dstBaseAddr);
  v.src0_rep_stride = srcRepStride;
  a::vector_masked(v, a::mask_arg(mask), isSetMask, repeatTime);
}

// ---- Fill / InitGlobalMemory: GM set to a value from a kernel (Atlas A2). They go through
// the start of UB (hence Ascend C's rule: call them before TPipe::InitBuffer) and end with the
// GM writes on MTE3: order a later MTE2 after them (MTE3_MTE2), and other cores with SyncAll.

template <typename T>
void Fill(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value) {
  npuvp::ascendc::fill_gm(gmWorkspaceAddr.GetPhyAddr(), size, npuvp::ascendc::element_bits(value), sizeof(T),
                          npuvp::ascendc::DTypeOf<T>::value, "Fill");
}
template <typename T>
void InitGlobalMemory(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value) {
  npuvp::ascendc::fill_gm(gmWorkspaceAddr.GetPhyAddr(), size, npuvp::ascendc::element_bits(value), sizeof(T),
                          npuvp::ascendc::DTypeOf<T>::value, "InitGlobalMemory");
}

// ---- Whole-tensor operators (docs: Add.md "dst = src0 + src1", Compare.md "dst = src0 < src1").
// `dst = a op b` runs op's count form over dst.GetSize() elements; a comparison writes one bit
// per element of src0 (src0.GetSize() elements) into dst.

template <typename T, npuvp::aicore::VecOp kOp>
struct TensorExpr {
  LocalTensor<T> src0, src1;
  template <typename D>
  void assign_to(const LocalTensor<D>& dst) const {
    static_assert(std::is_same<D, T>::value, "LocalTensor operators: dst and sources have one element type");
    namespace a = npuvp::ascendc;
    const char* name = npuvp::aicore::vec_op_name(kOp);
    a::vector_count(a::vec_op(kOp, a::DTypeOf<T>::value, a::vaddr(dst, name), a::vaddr(src0, name),
                              a::vaddr(src1, name)),
                    dst.GetSize());
  }
};
template <typename T>
struct TensorCompareExpr {
  LocalTensor<T> src0, src1;
  CMPMODE mode;
  template <typename D>
  void assign_to(const LocalTensor<D>& dst) const {
    Compare(dst, src0, src1, mode, src0.GetSize());
  }
};

#define NPUVP_TENSOR_OPERATOR(OP, KIND)                                                          \
  template <typename T>                                                                          \
  TensorExpr<T, npuvp::aicore::VecOp::KIND> operator OP(const LocalTensor<T>& a, const LocalTensor<T>& b) { \
    return {a, b};                                                                               \
  }
NPUVP_TENSOR_OPERATOR(+, Add)
NPUVP_TENSOR_OPERATOR(-, Sub)
NPUVP_TENSOR_OPERATOR(*, Mul)
NPUVP_TENSOR_OPERATOR(/, Div)
NPUVP_TENSOR_OPERATOR(|, Or)
NPUVP_TENSOR_OPERATOR(&, And)
#undef NPUVP_TENSOR_OPERATOR

#define NPUVP_TENSOR_COMPARE(OP, MODE)                                                           \
  template <typename T>                                                                          \
  TensorCompareExpr<T> operator OP(const LocalTensor<T>& a, const LocalTensor<T>& b) {          \
    return {a, b, CMPMODE::MODE};                                                                \
  }
NPUVP_TENSOR_COMPARE(<, LT)
NPUVP_TENSOR_COMPARE(>, GT)
NPUVP_TENSOR_COMPARE(<=, LE)
NPUVP_TENSOR_COMPARE(>=, GE)
NPUVP_TENSOR_COMPARE(==, EQ)
NPUVP_TENSOR_COMPARE(!=, NE)
#undef NPUVP_TENSOR_COMPARE

}  // namespace AscendC
