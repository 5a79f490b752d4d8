// Vector instructions (SPEC.md §1.6, docs/vector-isa.md), each in the count form and in the
// mask/repeat forms Ascend C has. Deviations from Ascend C's signatures, all documented in
// docs/vector-isa.md:
// - repeatTimes is taken as uint32_t (Ascend C: uint8_t) so that an out-of-range 256 is
//   reported instead of silently wrapping to 0;
// - scalar operands of the new APIs (CompareScalar, Select) do not take part in template
//   argument deduction, so `CompareScalar(dst, halfTensor, 1.5f, ...)` compiles.
// isSetMask = false forms use the core's mask register (SetVectorMask, SetMaskCount, ...);
// the mask they are passed is a placeholder, as in Ascend C.
#pragma once
#include <string>
#include <type_traits>
#include "sw/ascendc/ascendc/tensor.h"

namespace AscendC {

enum class RoundMode {
  CAST_NONE = 0,  // CAST_RINT where the conversion can be inexact, else exact
  CAST_RINT,      // to nearest, ties to even
  CAST_FLOOR,     // toward -inf
  CAST_CEIL,      // toward +inf
  CAST_ROUND,     // to nearest, ties away from zero
  CAST_TRUNC,     // toward zero
  CAST_ODD,       // inexact results take the odd neighbour (von Neumann rounding)
};
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class ReduceOrder { ORDER_VALUE_INDEX, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

// Mask arguments of isSetMask = false calls, which use the mask register instead.
inline constexpr uint64_t MASK_PLACEHOLDER = 0;
inline constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};

struct BrcbRepeatParams {
  uint16_t dstBlkStride = 1;  // 32 B units between the 8 destination blocks of a repeat
  uint16_t dstRepStride = 8;  // 32 B units between repeats
  BrcbRepeatParams() = default;
  BrcbRepeatParams(uint16_t dst_blk, uint16_t dst_rep) : dstBlkStride(dst_blk), dstRepStride(dst_rep) {}
};

// The mask register (per core): Normal or Counter mode, and the mask or element count.
void SetMaskCount();
void SetMaskNorm();
void ResetMask();  // all elements enabled (normal-mode meaning)

}  // namespace AscendC

namespace npuvp::ascendc {

// A scalar parameter type that is not deduced (it follows the tensors' T).
template <class T>
using Scalar = typename std::common_type<T>::type;

// Checks a tensor lives in UB (vector operands must).
uint64_t vector_address(aicore::MemSpace space, uint64_t addr, const char* api);
template <class T>
uint64_t vaddr(const AscendC::LocalTensor<T>& t, const char* api) {
  return vector_address(t.space(), t.GetPhyAddr(), api);
}
template <class T>
double scalar_value(T v) { return static_cast<double>(v); }
inline double scalar_value(bfloat16_t v) { return static_cast<float>(v); }

// The instruction a call starts from: default strides, full mask, one repeat.
inline aicore::VectorOp vec_op(aicore::VecOp op, aicore::DType type, uint64_t dst, uint64_t src0 = 0,
                               uint64_t src1 = 0, double scalar = 0) {
  aicore::VectorOp v;
  v.op = op;
  v.dtype = type;
  v.dst = dst;
  v.src0 = src0;
  v.src1 = src1;
  v.scalar = scalar;
  return v;
}
inline void set_strides(aicore::VectorOp& v, const AscendC::BinaryRepeatParams& p) {
  v.dst_blk_stride = p.dstBlkStride;
  v.src0_blk_stride = p.src0BlkStride;
  v.src1_blk_stride = p.src1BlkStride;
  v.dst_rep_stride = p.dstRepStride;
  v.src0_rep_stride = p.src0RepStride;
  v.src1_rep_stride = p.src1RepStride;
}
inline void set_strides(aicore::VectorOp& v, const AscendC::UnaryRepeatParams& p) {
  v.dst_blk_stride = p.dstBlkStride;
  v.src0_blk_stride = p.srcBlkStride;
  v.dst_rep_stride = p.dstRepStride;
  v.src0_rep_stride = p.srcRepStride;
}

// A mask argument: continuous (the first n elements of each repeat) or bit-wise (mask[0]:
// elements 0..63, mask[1]: 64..127). In Counter mode its first word is the element count.
struct VecMask {
  uint64_t lo = 0, hi = 0;
  bool bitwise = false;
};
inline VecMask mask_arg(uint64_t n) { return {n, 0, false}; }
inline VecMask mask_arg(const uint64_t m[]) { return {m[0], m[1], true}; }

// Count form: `count` elements from the start of each operand, issued in Counter mode (and
// split into instructions of at most max_repeat repeats). Like Ascend C's count forms it
// leaves the mask register in Normal mode with every element enabled.
void vector_count(aicore::VectorOp v, int64_t count);
// Mask/repeat form. With set_mask the mask is written to the core's mask register first;
// either way the register is what the instruction uses: in Normal mode its bits and
// `repeat`; in Counter mode its count, with `repeat` ignored.
void vector_masked(aicore::VectorOp v, VecMask mask, bool set_mask, int64_t repeat);
// Instructions without a mask (Brcb, Transpose, SetCmpMask, GetCmpMask): issued as they are.
void vector_issue(const aicore::VectorOp& v);
// Select: the instruction for `mode`, after checking the form fits the mode. Mode
// VSEL_CMPMASK_SPR with a selMask tensor first issues SetCmpMask(selMask), as Ascend C does.
aicore::VectorOp prepare_select(aicore::DType type, AscendC::SELMODE mode, uint64_t dst, uint64_t sel,
                                uint64_t src0, uint64_t src1, double scalar, bool scalar_form);
// The mask register's Normal-mode bits for "the first len elements" of `type`, and setters.
void set_vector_mask_len(aicore::DType type, bool counter, int64_t len);
void set_vector_mask_bits(uint64_t hi, uint64_t lo);
// Fails the calling kernel with `why`, naming `api`.
[[noreturn]] void vector_fail(const char* api, const char* why);
// A non-negative int32 parameter (Ascend C takes several as int32_t).
uint32_t vector_nonneg(int64_t value, const char* what, const char* api);

}  // namespace npuvp::ascendc

namespace AscendC {

template <typename T, MaskMode mode = MaskMode::NORMAL>
void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
  npuvp::ascendc::set_vector_mask_bits(maskHigh, maskLow);
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
void SetVectorMask(int32_t len) {
  npuvp::ascendc::set_vector_mask_len(npuvp::ascendc::DTypeOf<T>::value, mode == MaskMode::COUNTER, len);
}

}  // namespace AscendC

// The three mask forms of an op whose instruction `v` is built by the statement(s) in
// `...` from the form's parameters (the count form is written out per op).
#define NPUVP_VEC_MASK_FORMS(NAME, TPARAMS, PARAMS_BEFORE, PARAMS_AFTER, REPEAT_PARAMS, ...)    \
  template <TPARAMS, bool isSetMask = true>                                                     \
  void NAME(PARAMS_BEFORE, uint64_t mask, const uint32_t repeatTimes, PARAMS_AFTER) {           \
    namespace a = npuvp::ascendc;                                                               \
    __VA_ARGS__                                                                                 \
    a::set_strides(v, REPEAT_PARAMS);                                                           \
    a::vector_masked(v, a::mask_arg(mask), isSetMask, repeatTimes);                             \
  }                                                                                             \
  template <TPARAMS, bool isSetMask = true>                                                     \
  void NAME(PARAMS_BEFORE, const uint64_t mask[], const uint32_t repeatTimes, PARAMS_AFTER) {   \
    namespace a = npuvp::ascendc;                                                               \
    __VA_ARGS__                                                                                 \
    a::set_strides(v, REPEAT_PARAMS);                                                           \
    a::vector_masked(v, a::mask_arg(mask), isSetMask, repeatTimes);                             \
  }

#define NPUVP_COMMA ,

// Binary ops: dst = src0 op src1.
#define NPUVP_ASCENDC_BINARY(NAME)                                                              \
  namespace AscendC {                                                                           \
  template <class T>                                                                            \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,  \
            const int32_t& count) {                                                             \
    namespace a = npuvp::ascendc;                                                               \
    a::vector_count(a::vec_op(npuvp::aicore::VecOp::NAME, a::DTypeOf<T>::value,                 \
                              a::vaddr(dst, #NAME), a::vaddr(src0, #NAME), a::vaddr(src1, #NAME)), \
                    count);                                                                     \
  }                                                                                             \
  NPUVP_VEC_MASK_FORMS(NAME, class T,                                                           \
                       const LocalTensor<T>& dst NPUVP_COMMA const LocalTensor<T>& src0         \
                           NPUVP_COMMA const LocalTensor<T>& src1,                              \
                       const BinaryRepeatParams& params, params,                                \
                       auto v = a::vec_op(npuvp::aicore::VecOp::NAME, a::DTypeOf<T>::value,     \
                                          a::vaddr(dst, #NAME), a::vaddr(src0, #NAME),          \
                                          a::vaddr(src1, #NAME));)                              \
  }

// Scalar ops: dst = src op scalar.
#define NPUVP_ASCENDC_SCALAR(NAME)                                                              \
  namespace AscendC {                                                                           \
  template <class T>                                                                            \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalar,              \
            const int32_t& count) {                                                             \
    namespace a = npuvp::ascendc;                                                               \
    a::vector_count(a::vec_op(npuvp::aicore::VecOp::NAME, a::DTypeOf<T>::value,                 \
                              a::vaddr(dst, #NAME), a::vaddr(src, #NAME), 0, a::scalar_value(scalar)), \
                    count);                                                                     \
  }                                                                                             \
  NPUVP_VEC_MASK_FORMS(NAME, class T,                                                           \
                       const LocalTensor<T>& dst NPUVP_COMMA const LocalTensor<T>& src          \
                           NPUVP_COMMA const T& scalar,                                         \
                       const UnaryRepeatParams& params, params,                                 \
                       auto v = a::vec_op(npuvp::aicore::VecOp::NAME, a::DTypeOf<T>::value,     \
                                          a::vaddr(dst, #NAME), a::vaddr(src, #NAME), 0,        \
                                          a::scalar_value(scalar));)                            \
  }

// Unary ops: dst = op(src).
#define NPUVP_ASCENDC_UNARY(NAME)                                                               \
  namespace AscendC {                                                                           \
  template <class T>                                                                            \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {      \
    namespace a = npuvp::ascendc;                                                               \
    a::vector_count(a::vec_op(npuvp::aicore::VecOp::NAME, a::DTypeOf<T>::value,                 \
                              a::vaddr(dst, #NAME), a::vaddr(src, #NAME)),                      \
                    count);                                                                     \
  }                                                                                             \
  NPUVP_VEC_MASK_FORMS(NAME, class T,                                                           \
                       const LocalTensor<T>& dst NPUVP_COMMA const LocalTensor<T>& src,         \
                       const UnaryRepeatParams& params, params,                                 \
                       auto v = a::vec_op(npuvp::aicore::VecOp::NAME, a::DTypeOf<T>::value,     \
                                          a::vaddr(dst, #NAME), a::vaddr(src, #NAME));)         \
  }

NPUVP_ASCENDC_BINARY(Add)
NPUVP_ASCENDC_BINARY(Sub)
NPUVP_ASCENDC_BINARY(Mul)
NPUVP_ASCENDC_BINARY(Div)
NPUVP_ASCENDC_BINARY(Max)
NPUVP_ASCENDC_BINARY(Min)
NPUVP_ASCENDC_BINARY(And)
NPUVP_ASCENDC_BINARY(Or)
NPUVP_ASCENDC_SCALAR(Adds)
NPUVP_ASCENDC_SCALAR(Muls)
NPUVP_ASCENDC_SCALAR(LeakyRelu)
NPUVP_ASCENDC_UNARY(Abs)
NPUVP_ASCENDC_UNARY(Relu)
NPUVP_ASCENDC_UNARY(Exp)
NPUVP_ASCENDC_UNARY(Ln)
NPUVP_ASCENDC_UNARY(Sqrt)
NPUVP_ASCENDC_UNARY(Rsqrt)
NPUVP_ASCENDC_UNARY(Reciprocal)
NPUVP_ASCENDC_UNARY(Not)

namespace AscendC {

// ---- Duplicate

template <class T>
void Duplicate(const LocalTensor<T>& dst, const T& scalar, const int32_t& count) {
  namespace a = npuvp::ascendc;
  a::vector_count(a::vec_op(npuvp::aicore::VecOp::Duplicate, a::DTypeOf<T>::value,
                            a::vaddr(dst, "Duplicate"), 0, 0, a::scalar_value(scalar)),
                  count);
}
template <class T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const T& scalar, uint64_t mask, const uint32_t repeatTimes,
               const uint16_t dstBlockStride, const uint8_t dstRepeatStride) {
  namespace a = npuvp::ascendc;
  auto v = a::vec_op(npuvp::aicore::VecOp::Duplicate, a::DTypeOf<T>::value, a::vaddr(dst, "Duplicate"),
                     0, 0, a::scalar_value(scalar));
  v.dst_blk_stride = dstBlockStride;
  v.dst_rep_stride = dstRepeatStride;
  a::vector_masked(v, a::mask_arg(mask), isSetMask, repeatTimes);
}
template <class T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const T& scalar, const uint64_t mask[],
               const uint32_t repeatTimes, const uint16_t dstBlockStride,
               const uint8_t dstRepeatStride) {
  namespace a = npuvp::ascendc;
  auto v = a::vec_op(npuvp::aicore::VecOp::Duplicate, a::DTypeOf<T>::value, a::vaddr(dst, "Duplicate"),
                     0, 0, a::scalar_value(scalar));
  v.dst_blk_stride = dstBlockStride;
  v.dst_rep_stride = dstRepeatStride;
  a::vector_masked(v, a::mask_arg(mask), isSetMask, repeatTimes);
}

// ---- Cast: T is the destination type, U the source type.

namespace detail {
template <typename T, typename U>
npuvp::aicore::VectorOp cast_op(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode mode) {
  namespace a = npuvp::ascendc;
  auto v = a::vec_op(npuvp::aicore::VecOp::Cast, a::DTypeOf<U>::value, a::vaddr(dst, "Cast"),
                     a::vaddr(src, "Cast"));
  v.dst_dtype = a::DTypeOf<T>::value;
  v.round = static_cast<npuvp::aicore::RoundMode>(mode);
  return v;
}
}  // namespace detail

template <typename T, typename U>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round_mode,
          const uint32_t count) {
  npuvp::ascendc::vector_count(detail::cast_op(dst, src, round_mode), count);
}
NPUVP_VEC_MASK_FORMS(Cast, typename T NPUVP_COMMA typename U,
                     const LocalTensor<T>& dst NPUVP_COMMA const LocalTensor<U>& src
                         NPUVP_COMMA const RoundMode& round_mode,
                     const UnaryRepeatParams& repeatParams, repeatParams,
                     auto v = detail::cast_op(dst, src, round_mode);)

// ---- Compare: dst (uint8_t) receives one bit per element, element 0 in bit 0 of byte 0.

namespace detail {
template <typename T, typename U>
npuvp::aicore::VectorOp compare_op(npuvp::aicore::VecOp op, const LocalTensor<U>& dst,
                                   const LocalTensor<T>& src0, uint64_t src1, double scalar,
                                   CMPMODE mode) {
  namespace a = npuvp::ascendc;
  const char* name = npuvp::aicore::vec_op_name(op);
  auto v = a::vec_op(op, a::DTypeOf<T>::value, a::vaddr(dst, name), a::vaddr(src0, name), src1, scalar);
  v.cmp = static_cast<npuvp::aicore::CmpMode>(mode);
  return v;
}
}  // namespace detail

// count * sizeof(T) must be a multiple of 256 B, as in Ascend C.
template <typename T, typename U>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, uint32_t count) {
  namespace a = npuvp::ascendc;
  a::vector_count(detail::compare_op(npuvp::aicore::VecOp::Compare, dst, src0,
                                     a::vaddr(src1, "Compare"), 0, cmpMode),
                  count);
}
NPUVP_VEC_MASK_FORMS(Compare, typename T NPUVP_COMMA typename U,
                     const LocalTensor<U>& dst NPUVP_COMMA const LocalTensor<T>& src0
                         NPUVP_COMMA const LocalTensor<T>& src1 NPUVP_COMMA CMPMODE cmpMode,
                     const BinaryRepeatParams& repeatParams, repeatParams,
                     auto v = detail::compare_op(npuvp::aicore::VecOp::Compare, dst, src0,
                                                 a::vaddr(src1, "Compare"), 0, cmpMode);)

// One repeat into the CMPMASK register (read it with GetCmpMask, use it with Select mode 0).
template <typename T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             const uint64_t mask[], const BinaryRepeatParams& repeatParams) {
  namespace a = npuvp::ascendc;
  auto v = a::vec_op(npuvp::aicore::VecOp::CompareToCmpMask, a::DTypeOf<T>::value, 0,
                     a::vaddr(src0, "Compare"), a::vaddr(src1, "Compare"));
  v.cmp = static_cast<npuvp::aicore::CmpMode>(cmpMode);
  a::set_strides(v, repeatParams);
  a::vector_masked(v, a::mask_arg(mask), isSetMask, 1);
}
template <typename T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             const uint64_t mask, const BinaryRepeatParams& repeatParams) {
  namespace a = npuvp::ascendc;
  auto v = a::vec_op(npuvp::aicore::VecOp::CompareToCmpMask, a::DTypeOf<T>::value, 0,
                     a::vaddr(src0, "Compare"), a::vaddr(src1, "Compare"));
  v.cmp = static_cast<npuvp::aicore::CmpMode>(cmpMode);
  a::set_strides(v, repeatParams);
  a::vector_masked(v, a::mask_arg(mask), isSetMask, 1);
}

template <typename T, typename U>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                   const npuvp::ascendc::Scalar<T> src1Scalar, CMPMODE cmpMode, uint32_t count) {
  namespace a = npuvp::ascendc;
  a::vector_count(detail::compare_op(npuvp::aicore::VecOp::CompareScalar, dst, src0, 0,
                                     a::scalar_value(src1Scalar), cmpMode),
                  count);
}
NPUVP_VEC_MASK_FORMS(CompareScalar, typename T NPUVP_COMMA typename U,
                     const LocalTensor<U>& dst NPUVP_COMMA const LocalTensor<T>& src0
                         NPUVP_COMMA const npuvp::ascendc::Scalar<T> src1Scalar
                             NPUVP_COMMA CMPMODE cmpMode,
                     const UnaryRepeatParams& repeatParams, repeatParams,
                     auto v = detail::compare_op(npuvp::aicore::VecOp::CompareScalar, dst, src0, 0,
                                                 a::scalar_value(src1Scalar), cmpMode);)

// The CMPMASK register <-> 16 B of UB.
template <typename T>
void GetCmpMask(const LocalTensor<T>& dst) {
  namespace a = npuvp::ascendc;
  a::vector_issue(a::vec_op(npuvp::aicore::VecOp::GetCmpMask, a::DTypeOf<T>::value, a::vaddr(dst, "GetCmpMask")));
}
template <typename T>
void SetCmpMask(const LocalTensor<T>& src) {
  namespace a = npuvp::ascendc;
  a::vector_issue(a::vec_op(npuvp::aicore::VecOp::SetCmpMask, a::DTypeOf<T>::value, 0, a::vaddr(src, "SetCmpMask")));
}

// ---- Select: dst = selMask bit ? src0 : src1 (tensor, or scalar in VSEL_TENSOR_SCALAR_MODE).
// VSEL_CMPMASK_SPR uses the first 128 (f16) or 64 (f32) bits of selMask for every repeat;
// the other modes use the next 128/64 bits for each repeat.

template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint32_t count) {
  namespace a = npuvp::ascendc;
  a::vector_count(a::prepare_select(a::DTypeOf<T>::value, selMode, a::vaddr(dst, "Select"),
                                    a::vaddr(selMask, "Select"), a::vaddr(src0, "Select"),
                                    a::vaddr(src1, "Select"), 0, false),
                  count);
}
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const npuvp::ascendc::Scalar<T> src1, SELMODE selMode, uint32_t count) {
  namespace a = npuvp::ascendc;
  a::vector_count(a::prepare_select(a::DTypeOf<T>::value, selMode, a::vaddr(dst, "Select"),
                                    a::vaddr(selMask, "Select"), a::vaddr(src0, "Select"), 0,
                                    a::scalar_value(src1), true),
                  count);
}
NPUVP_VEC_MASK_FORMS(Select, typename T NPUVP_COMMA typename U,
                     const LocalTensor<T>& dst NPUVP_COMMA const LocalTensor<U>& selMask
                         NPUVP_COMMA const LocalTensor<T>& src0 NPUVP_COMMA const LocalTensor<T>& src1
                             NPUVP_COMMA SELMODE selMode,
                     const BinaryRepeatParams& repeatParams, repeatParams,
                     auto v = a::prepare_select(a::DTypeOf<T>::value, selMode, a::vaddr(dst, "Select"),
                                                a::vaddr(selMask, "Select"), a::vaddr(src0, "Select"),
                                                a::vaddr(src1, "Select"), 0, false);)
NPUVP_VEC_MASK_FORMS(Select, typename T NPUVP_COMMA typename U,
                     const LocalTensor<T>& dst NPUVP_COMMA const LocalTensor<U>& selMask
                         NPUVP_COMMA const LocalTensor<T>& src0
                             NPUVP_COMMA const npuvp::ascendc::Scalar<T> src1 NPUVP_COMMA SELMODE selMode,
                     const BinaryRepeatParams& repeatParams, repeatParams,
                     auto v = a::prepare_select(a::DTypeOf<T>::value, selMode, a::vaddr(dst, "Select"),
                                                a::vaddr(selMask, "Select"), a::vaddr(src0, "Select"), 0,
                                                a::scalar_value(src1), true);)
// Register form: the selection bits are the CMPMASK register (SetCmpMask or Compare without
// dst); the mask is the mask register's (set it with SetVectorMask).
template <typename T, SELMODE selMode>
void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
            uint32_t repeatTime, const BinaryRepeatParams& repeatParams) {
  namespace a = npuvp::ascendc;
  static_assert(selMode == SELMODE::VSEL_CMPMASK_SPR,
                "npuvp: only VSEL_CMPMASK_SPR has a register form here (see docs/vector-isa.md)");
  auto v = a::vec_op(npuvp::aicore::VecOp::Select, a::DTypeOf<T>::value, a::vaddr(dst, "Select"),
                     a::vaddr(src0, "Select"), a::vaddr(src1, "Select"));
  v.sel = npuvp::aicore::SelMode::CmpMaskSpr;
  a::set_strides(v, repeatParams);
  a::vector_masked(v, a::mask_arg(MASK_PLACEHOLDER), false, repeatTime);
}

// ---- Reductions. Results are stored as T; an index is stored as the unsigned integer bits
// of a T-sized slot (read it through ReinterpretCast<uint16_t> / <uint32_t>).

namespace detail {
template <typename T>
npuvp::aicore::VectorOp reduce_op(npuvp::aicore::VecOp op, const LocalTensor<T>& dst,
                                  const LocalTensor<T>& src, bool with_index) {
  namespace a = npuvp::ascendc;
  const char* name = npuvp::aicore::vec_op_name(op);
  auto v = a::vec_op(op, a::DTypeOf<T>::value, a::vaddr(dst, name), a::vaddr(src, name));
  v.order = with_index ? npuvp::aicore::ReduceOrder::ValueIndex : npuvp::aicore::ReduceOrder::OnlyValue;
  return v;
}
// The mask form of ReduceSum/Max/Min: repeats over src with block stride 1.
template <typename T>
void reduce_masked(npuvp::aicore::VectorOp v, const LocalTensor<T>& work, npuvp::ascendc::VecMask mask,
                   bool set_mask, int32_t repeat, int32_t src_rep_stride) {
  namespace a = npuvp::ascendc;
  const char* name = npuvp::aicore::vec_op_name(v.op);
  a::vaddr(work, name);  // the model keeps no intermediate results in the work tensor
  v.src0_rep_stride = a::vector_nonneg(src_rep_stride, "srcRepStride", name);
  a::vector_masked(v, mask, set_mask, a::vector_nonneg(repeat, "repeatTime", name));
}
}  // namespace detail

#define NPUVP_ASCENDC_REDUCE(NAME, INDEX_PARAM, WITH_INDEX)                                      \
  template <typename T, bool isSetMask = true>                                                  \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,   \
            const int32_t count INDEX_PARAM) {                                                  \
    namespace a = npuvp::ascendc;                                                               \
    a::vaddr(work, #NAME);                                                                      \
    a::vector_count(detail::reduce_op(npuvp::aicore::VecOp::NAME, dst, src, WITH_INDEX), count); \
  }                                                                                             \
  template <typename T, bool isSetMask = true>                                                  \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,   \
            const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride         \
            INDEX_PARAM) {                                                                      \
    detail::reduce_masked(detail::reduce_op(npuvp::aicore::VecOp::NAME, dst, src, WITH_INDEX),  \
                          work, npuvp::ascendc::mask_arg(mask), isSetMask, repeatTime, srcRepStride); \
  }                                                                                             \
  template <typename T, bool isSetMask = true>                                                  \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,   \
            const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride            \
            INDEX_PARAM) {                                                                      \
    detail::reduce_masked(detail::reduce_op(npuvp::aicore::VecOp::NAME, dst, src, WITH_INDEX),  \
                          work, npuvp::ascendc::mask_arg(static_cast<uint64_t>(mask)), isSetMask, \
                          repeatTime, srcRepStride);                                            \
  }

NPUVP_ASCENDC_REDUCE(ReduceSum, , false)
NPUVP_ASCENDC_REDUCE(ReduceMax, NPUVP_COMMA bool calIndex = false, calIndex)
NPUVP_ASCENDC_REDUCE(ReduceMin, NPUVP_COMMA bool calIndex = false, calIndex)

namespace detail {
// WholeReduce*: dstRepStride in records (one value, or value and index); BlockReduce*: in
// 8-result units (16 B for half, 32 B for float).
template <typename T>
void reduce_repeats(npuvp::aicore::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                    npuvp::ascendc::VecMask mask, bool set_mask, int32_t repeat, int32_t dst_rep_stride,
                    int32_t src_blk_stride, int32_t src_rep_stride, ReduceOrder order) {
  namespace a = npuvp::ascendc;
  const char* name = npuvp::aicore::vec_op_name(op);
  auto v = a::vec_op(op, a::DTypeOf<T>::value, a::vaddr(dst, name), a::vaddr(src, name));
  v.order = static_cast<npuvp::aicore::ReduceOrder>(order);
  v.dst_rep_stride = a::vector_nonneg(dst_rep_stride, "dstRepStride", name);
  v.src0_blk_stride = a::vector_nonneg(src_blk_stride, "srcBlkStride", name);
  v.src0_rep_stride = a::vector_nonneg(src_rep_stride, "srcRepStride", name);
  a::vector_masked(v, mask, set_mask, a::vector_nonneg(repeat, "repeatTime", name));
}
}  // namespace detail

#define NPUVP_ASCENDC_WHOLE_REDUCE(NAME, ORDER_PARAM, ORDER)                                     \
  template <typename T, bool isSetMask = true>                                                  \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],        \
            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,   \
            const int32_t srcRepStride ORDER_PARAM) {                                           \
    detail::reduce_repeats(npuvp::aicore::VecOp::NAME, dst, src, npuvp::ascendc::mask_arg(mask),  \
                           isSetMask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, ORDER); \
  }                                                                                             \
  template <typename T, bool isSetMask = true>                                                  \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,           \
            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,   \
            const int32_t srcRepStride ORDER_PARAM) {                                           \
    detail::reduce_repeats(npuvp::aicore::VecOp::NAME, dst, src,                                \
                           npuvp::ascendc::mask_arg(static_cast<uint64_t>(mask)), isSetMask,    \
                           repeatTime, dstRepStride, srcBlkStride, srcRepStride, ORDER);        \
  }

NPUVP_ASCENDC_WHOLE_REDUCE(WholeReduceSum, , ReduceOrder::ORDER_ONLY_VALUE)
NPUVP_ASCENDC_WHOLE_REDUCE(WholeReduceMax, NPUVP_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
NPUVP_ASCENDC_WHOLE_REDUCE(WholeReduceMin, NPUVP_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)

#define NPUVP_ASCENDC_BLOCK_REDUCE(NAME)                                                        \
  template <typename T, bool isSetMask = true>                                                  \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,     \
            const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,      \
            const int32_t srcRepStride) {                                                       \
    detail::reduce_repeats(npuvp::aicore::VecOp::NAME, dst, src, npuvp::ascendc::mask_arg(mask),  \
                           isSetMask, repeatTime, dstRepStride, srcBlkStride, srcRepStride,     \
                           ReduceOrder::ORDER_ONLY_VALUE);                                      \
  }                                                                                             \
  template <typename T, bool isSetMask = true>                                                  \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,     \
            const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,         \
            const int32_t srcRepStride) {                                                       \
    detail::reduce_repeats(npuvp::aicore::VecOp::NAME, dst, src,                                \
                           npuvp::ascendc::mask_arg(static_cast<uint64_t>(mask)), isSetMask,    \
                           repeatTime, dstRepStride, srcBlkStride, srcRepStride,                \
                           ReduceOrder::ORDER_ONLY_VALUE);                                      \
  }

NPUVP_ASCENDC_BLOCK_REDUCE(BlockReduceSum)
NPUVP_ASCENDC_BLOCK_REDUCE(BlockReduceMax)
NPUVP_ASCENDC_BLOCK_REDUCE(BlockReduceMin)

// ---- Data rearrangement.

// Each of the 8 elements src0[8r .. 8r+7] fills one 32 B block of repeat r of dst.
template <typename T>
void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint32_t repeatTime,
          const BrcbRepeatParams& repeatParams) {
  namespace a = npuvp::ascendc;
  auto v = a::vec_op(npuvp::aicore::VecOp::Brcb, a::DTypeOf<T>::value, a::vaddr(dst, "Brcb"),
                     a::vaddr(src0, "Brcb"));
  v.repeat = repeatTime;
  v.dst_blk_stride = repeatParams.dstBlkStride;
  v.dst_rep_stride = repeatParams.dstRepStride;
  a::vector_issue(v);
}

// One 16x16 matrix of 16-bit elements: dst[i][j] = src[j][i].
template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src) {
  namespace a = npuvp::ascendc;
  a::vector_issue(a::vec_op(npuvp::aicore::VecOp::Transpose, a::DTypeOf<T>::value,
                            a::vaddr(dst, "Transpose"), a::vaddr(src, "Transpose")));
}

// dst[i] = the element at byte (srcBaseAddr + srcOffset[i]) from the start of src.
namespace detail {
template <typename T>
npuvp::aicore::VectorOp gather_op(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                  const LocalTensor<uint32_t>& offset, uint32_t base) {
  namespace a = npuvp::ascendc;
  return a::vec_op(npuvp::aicore::VecOp::Gather, a::DTypeOf<T>::value, a::vaddr(dst, "Gather"),
                   a::vaddr(src, "Gather") + base, a::vaddr(offset, "Gather"));
}
}  // namespace detail

template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint32_t count) {
  npuvp::ascendc::vector_count(detail::gather_op(dst, src, srcOffset, srcBaseAddr), count);
}
template <typename T, bool isSetMask = true>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint64_t mask[], const uint32_t repeatTime,
            const uint16_t dstRepStride) {
  namespace a = npuvp::ascendc;
  auto v = detail::gather_op(dst, src, srcOffset, srcBaseAddr);
  v.dst_rep_stride = dstRepStride;
  a::vector_masked(v, a::mask_arg(mask), isSetMask, repeatTime);
}
template <typename T, bool isSetMask = true>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint64_t mask, const uint32_t repeatTime,
            const uint16_t dstRepStride) {
  namespace a = npuvp::ascendc;
  auto v = detail::gather_op(dst, src, srcOffset, srcBaseAddr);
  v.dst_rep_stride = dstRepStride;
  a::vector_masked(v, a::mask_arg(mask), isSetMask, repeatTime);
}

}  // namespace AscendC
