// Vector instructions (SPEC.md §1.6), each in the count form and in the mask/repeat forms.
// repeatTimes is taken as uint32_t (Ascend C: uint8_t) so that an out-of-range 256 is
// reported instead of silently wrapping to 0.
#pragma once
#include "sw/ascendc/ascendc/tensor.h"

namespace npuvp::ascendc {

struct VecOperands {
  uint64_t dst = 0, src0 = 0, src1 = 0;
};
// Count form: `count` elements from the start of each operand, contiguous.
void vector_count(aicore::VecOp op, aicore::DType type, VecOperands o, double scalar, int64_t count);
// Mask forms: continuous mask (first `mask` elements of each repeat) or bit-wise mask.
void vector_masked(aicore::VecOp op, aicore::DType type, VecOperands o, double scalar,
                   uint64_t mask_lo, uint64_t mask_hi, bool bitwise, uint32_t repeat,
                   const AscendC::BinaryRepeatParams& p);
// Checks a tensor lives in UB (vector operands must).
uint64_t vector_address(aicore::MemSpace space, uint64_t addr, const char* api);

template <class T>
uint64_t vaddr(const AscendC::LocalTensor<T>& t, const char* api) {
  return vector_address(t.space(), t.GetPhyAddr(), api);
}
inline AscendC::BinaryRepeatParams unary_as_binary(const AscendC::UnaryRepeatParams& u) {
  return AscendC::BinaryRepeatParams(static_cast<uint8_t>(u.dstBlkStride), static_cast<uint8_t>(u.srcBlkStride), 1,
                                     u.dstRepStride, u.srcRepStride, 8);
}
template <class T>
double scalar_value(T v) { return static_cast<double>(v); }

}  // namespace npuvp::ascendc

// Binary ops: dst = src0 op src1.
#define NPUVP_ASCENDC_BINARY(NAME)                                                              \
  namespace AscendC {                                                                           \
  template <class T>                                                                            \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,  \
            const int32_t& count) {                                                             \
    namespace a = npuvp::ascendc;                                                               \
    a::vector_count(npuvp::aicore::VecOp::NAME, a::DTypeOf<T>::value,                           \
                    {a::vaddr(dst, #NAME), a::vaddr(src0, #NAME), a::vaddr(src1, #NAME)}, 0, count); \
  }                                                                                             \
  template <class T, bool isSetMask = true>                                                     \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,  \
            uint64_t mask, const uint32_t repeatTimes, const BinaryRepeatParams& params) {      \
    namespace a = npuvp::ascendc;                                                               \
    a::vector_masked(npuvp::aicore::VecOp::NAME, a::DTypeOf<T>::value,                          \
                     {a::vaddr(dst, #NAME), a::vaddr(src0, #NAME), a::vaddr(src1, #NAME)}, 0,   \
                     mask, 0, false, repeatTimes, params);                                      \
  }                                                                                             \
  template <class T, bool isSetMask = true>                                                     \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,  \
            const uint64_t mask[2], const uint32_t repeatTimes, const BinaryRepeatParams& params) { \
    namespace a = npuvp::ascendc;                                                               \
    a::vector_masked(npuvp::aicore::VecOp::NAME, a::DTypeOf<T>::value,                          \
                     {a::vaddr(dst, #NAME), a::vaddr(src0, #NAME), a::vaddr(src1, #NAME)}, 0,   \
                     mask[0], mask[1], true, repeatTimes, params);                              \
  }                                                                                             \
  }

// Scalar ops: dst = src op scalar.
#define NPUVP_ASCENDC_SCALAR(NAME)                                                              \
  namespace AscendC {                                                                           \
  template <class T>                                                                            \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalar,              \
            const int32_t& count) {                                                             \
    namespace a = npuvp::ascendc;                                                               \
    a::vector_count(npuvp::aicore::VecOp::NAME, a::DTypeOf<T>::value,                           \
                    {a::vaddr(dst, #NAME), a::vaddr(src, #NAME), 0}, a::scalar_value(scalar), count); \
  }                                                                                             \
  template <class T, bool isSetMask = true>                                                     \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalar, uint64_t mask, \
            const uint32_t repeatTimes, const UnaryRepeatParams& params) {                      \
    namespace a = npuvp::ascendc;                                                               \
    a::vector_masked(npuvp::aicore::VecOp::NAME, a::DTypeOf<T>::value,                          \
                     {a::vaddr(dst, #NAME), a::vaddr(src, #NAME), 0}, a::scalar_value(scalar),  \
                     mask, 0, false, repeatTimes, a::unary_as_binary(params));                  \
  }                                                                                             \
  template <class T, bool isSetMask = true>                                                     \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalar,              \
            const uint64_t mask[2], const uint32_t repeatTimes, const UnaryRepeatParams& params) { \
    namespace a = npuvp::ascendc;                                                               \
    a::vector_masked(npuvp::aicore::VecOp::NAME, a::DTypeOf<T>::value,                          \
                     {a::vaddr(dst, #NAME), a::vaddr(src, #NAME), 0}, a::scalar_value(scalar),  \
                     mask[0], mask[1], true, repeatTimes, a::unary_as_binary(params));          \
  }                                                                                             \
  }

// Unary ops: dst = op(src).
#define NPUVP_ASCENDC_UNARY(NAME)                                                               \
  namespace AscendC {                                                                           \
  template <class T>                                                                            \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {      \
    namespace a = npuvp::ascendc;                                                               \
    a::vector_count(npuvp::aicore::VecOp::NAME, a::DTypeOf<T>::value,                           \
                    {a::vaddr(dst, #NAME), a::vaddr(src, #NAME), 0}, 0, count);                 \
  }                                                                                             \
  template <class T, bool isSetMask = true>                                                     \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,               \
            const uint32_t repeatTimes, const UnaryRepeatParams& params) {                      \
    namespace a = npuvp::ascendc;                                                               \
    a::vector_masked(npuvp::aicore::VecOp::NAME, a::DTypeOf<T>::value,                          \
                     {a::vaddr(dst, #NAME), a::vaddr(src, #NAME), 0}, 0, mask, 0, false,        \
                     repeatTimes, a::unary_as_binary(params));                                  \
  }                                                                                             \
  template <class T, bool isSetMask = true>                                                     \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[2],      \
            const uint32_t repeatTimes, const UnaryRepeatParams& params) {                      \
    namespace a = npuvp::ascendc;                                                               \
    a::vector_masked(npuvp::aicore::VecOp::NAME, a::DTypeOf<T>::value,                          \
                     {a::vaddr(dst, #NAME), a::vaddr(src, #NAME), 0}, 0, mask[0], mask[1], true, \
                     repeatTimes, a::unary_as_binary(params));                                  \
  }                                                                                             \
  }

NPUVP_ASCENDC_BINARY(Add)
NPUVP_ASCENDC_BINARY(Sub)
NPUVP_ASCENDC_BINARY(Mul)
NPUVP_ASCENDC_BINARY(Div)
NPUVP_ASCENDC_BINARY(Max)
NPUVP_ASCENDC_BINARY(Min)
NPUVP_ASCENDC_SCALAR(Adds)
NPUVP_ASCENDC_SCALAR(Muls)
NPUVP_ASCENDC_UNARY(Abs)
NPUVP_ASCENDC_UNARY(Relu)
NPUVP_ASCENDC_UNARY(Exp)

namespace AscendC {

template <class T>
void Duplicate(const LocalTensor<T>& dst, const T& scalar, const int32_t& count) {
  namespace a = npuvp::ascendc;
  a::vector_count(npuvp::aicore::VecOp::Duplicate, a::DTypeOf<T>::value,
                  {a::vaddr(dst, "Duplicate"), 0, 0}, a::scalar_value(scalar), count);
}
template <class T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const T& scalar, uint64_t mask, const uint32_t repeatTimes,
               const uint16_t dstBlockStride, const uint8_t dstRepeatStride) {
  namespace a = npuvp::ascendc;
  BinaryRepeatParams p(static_cast<uint8_t>(dstBlockStride), 1, 1, dstRepeatStride, 8, 8);
  a::vector_masked(npuvp::aicore::VecOp::Duplicate, a::DTypeOf<T>::value,
                   {a::vaddr(dst, "Duplicate"), 0, 0}, a::scalar_value(scalar), mask, 0, false,
                   repeatTimes, p);
}
template <class T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const T& scalar, const uint64_t mask[2],
               const uint32_t repeatTimes, const uint16_t dstBlockStride,
               const uint8_t dstRepeatStride) {
  namespace a = npuvp::ascendc;
  BinaryRepeatParams p(static_cast<uint8_t>(dstBlockStride), 1, 1, dstRepeatStride, 8, 8);
  a::vector_masked(npuvp::aicore::VecOp::Duplicate, a::DTypeOf<T>::value,
                   {a::vaddr(dst, "Duplicate"), 0, 0}, a::scalar_value(scalar), mask[0], mask[1],
                   true, repeatTimes, p);
}

}  // namespace AscendC
