// AscendC::Std: the C++ standard library subset Ascend C kernels may use (Utils-API/CPP标准库
// pages: type traits, tuple, integer sequences, min/max, abs/sqrt). Kernels run natively
// here, so the names are the host's standard library ones wherever they mean the same.
#pragma once
#include <cmath>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include "sw/ascendc/ascendc/types.h"

namespace AscendC::Std {

// ---- Type traits.
using std::add_const;
using std::add_cv;
using std::add_lvalue_reference;
using std::add_pointer;
using std::add_rvalue_reference;
using std::add_volatile;
using std::bool_constant;
using std::conditional;
using std::conditional_t;
using std::decay;
using std::decay_t;
using std::enable_if;
using std::enable_if_t;
using std::false_type;
using std::integral_constant;
using std::is_array;
using std::is_base_of;
using std::is_const;
using std::is_convertible;
using std::is_pointer;
using std::is_reference;
using std::is_same;
using std::is_same_v;
using std::is_void;
using std::remove_const;
using std::remove_cv;
using std::remove_pointer;
using std::remove_reference;
using std::remove_volatile;
using std::true_type;

// half and bfloat16_t count as floating point in Ascend C.
template <class T>
struct is_floating_point
    : std::bool_constant<std::is_floating_point<T>::value ||
                         std::is_same<std::remove_cv_t<T>, half>::value ||
                         std::is_same<std::remove_cv_t<T>, bfloat16_t>::value> {};
template <class T>
struct is_integral : std::is_integral<T> {};

// ---- Tuples.
using std::get;
using std::make_tuple;
using std::tuple;
using std::tuple_element;
using std::tuple_size;

// ---- Integer sequences.
using std::index_sequence;
using std::integer_sequence;
using std::make_index_sequence;
using std::make_integer_sequence;
template <class T, T... Is>
using IntegerSequence = std::integer_sequence<T, Is...>;
template <class T, T N>
using MakeIntegerSequence = std::make_integer_sequence<T, N>;

// ---- Algorithms (max-267.md, min-268.md: U must be T's type).
template <typename T, typename U>
constexpr auto max(const T& src0, const U& src1) {
  static_assert(std::is_same<T, U>::value, "AscendC::Std::max: both operands must have the same type");
  return src0 < src1 ? src1 : src0;
}
template <typename T, typename U>
constexpr auto min(const T& src0, const U& src1) {
  static_assert(std::is_same<T, U>::value, "AscendC::Std::min: both operands must have the same type");
  return src1 < src0 ? src1 : src0;
}

// ---- Math (abs1.md, sqrt1.md).
template <typename T>
T abs(const T src) {
  if constexpr (std::is_same<T, double>::value) {
    return std::fabs(src);
  } else if constexpr (is_floating_point<T>::value) {
    return static_cast<T>(std::fabs(static_cast<float>(src)));
  } else if constexpr (std::is_signed<T>::value) {
    return src < 0 ? static_cast<T>(-src) : src;
  } else {
    return src;
  }
}
template <typename T>
T sqrt(const T src) {
  if constexpr (std::is_same<T, double>::value) {
    return std::sqrt(src);
  } else {
    return static_cast<T>(std::sqrt(static_cast<float>(src)));
  }
}

}  // namespace AscendC::Std
