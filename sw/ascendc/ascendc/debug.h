// The Ascend C debug APIs (调试接口 pages of the Ascend C reference): printf / PRINTF,
// ASSERT / ascendc_assert, DumpTensor and DumpAccChkPoint, plus ShapeInfo. Every line they
// print starts with "[block <idx> <core> @ <simulated time>] " so that the output of many
// cores can be told apart; a failing assertion is a kernel error like any other (block,
// simulated time, file:line, the condition and the message), so the launch fails.
// Compiling with ASCENDC_DUMP=0 turns printing and assertions off, as in CANN.
#pragma once
#include <cstdint>
#include <type_traits>
#include "sw/ascendc/ascendc/tensor.h"

#ifndef ASCENDC_DUMP
#define ASCENDC_DUMP 1
#endif

namespace npuvp::ascendc {

// One printf argument, widened; `size` is the argument's own width in bytes (for %x).
struct PrintArg {
  enum Kind : uint8_t { Signed, Unsigned, Float, String, Pointer } kind = Signed;
  uint8_t size = 0;
  int64_t i = 0;
  uint64_t u = 0;
  double f = 0;
  const void* p = nullptr;
};

template <class T>
PrintArg print_arg(const T& v) {
  PrintArg a;
  a.size = static_cast<uint8_t>(sizeof(T));
  if constexpr (std::is_same<T, bool>::value) {
    a.kind = PrintArg::Unsigned;
    a.u = v ? 1 : 0;
    a.i = v ? 1 : 0;
  } else if constexpr (std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value) {
    a.kind = PrintArg::Float;
    a.f = static_cast<double>(static_cast<float>(v));
  } else if constexpr (std::is_floating_point<T>::value) {
    a.kind = PrintArg::Float;
    a.f = static_cast<double>(v);
  } else if constexpr (std::is_enum<T>::value) {
    a.kind = PrintArg::Signed;
    a.i = static_cast<int64_t>(v);
    a.u = static_cast<uint64_t>(v);
  } else if constexpr (std::is_integral<T>::value) {
    a.kind = std::is_signed<T>::value ? PrintArg::Signed : PrintArg::Unsigned;
    a.i = static_cast<int64_t>(v);
    a.u = static_cast<uint64_t>(v);
  } else if constexpr (std::is_same<std::decay_t<T>, char*>::value ||
                       std::is_same<std::decay_t<T>, const char*>::value) {
    a.kind = PrintArg::String;
    a.p = v;
  } else if constexpr (std::is_pointer<std::decay_t<T>>::value || std::is_array<T>::value) {
    a.kind = PrintArg::Pointer;
    a.p = static_cast<const void*>(v);
  } else {
    static_assert(std::is_arithmetic<T>::value, "printf: unsupported argument type");
  }
  return a;
}

// Prints `fmt` with `args` (C conversions %d %i %u %x %X %o %f %e %g %s %p %c %%, with flags,
// width and precision; length modifiers are accepted and ignored), each line prefixed.
void kernel_printf(const char* fmt, const PrintArg* args, unsigned count);
// Fails the kernel: "<api>: <file>:<line>: Assertion `<condition>' failed. <message>";
// `text` is the macro's argument text, of which the condition is the part before the first
// top-level comma.
[[noreturn]] void kernel_assert_failed(const char* api, const char* text, const char* file, int line,
                                       const char* fmt, const PrintArg* args, unsigned count);

template <class... Args>
void printf_args(const char* fmt, const Args&... args) {
  const PrintArg list[sizeof...(Args) + 1] = {print_arg(args)..., PrintArg{}};
  kernel_printf(fmt, list, sizeof...(Args));
}
template <class Cond>
void assert_check(const char* api, const char* text, const char* file, int line, const Cond& cond) {
  if (!cond) kernel_assert_failed(api, text, file, line, nullptr, nullptr, 0);
}
template <class Cond, class... Args>
void assert_check(const char* api, const char* text, const char* file, int line, const Cond& cond,
                  const char* fmt, const Args&... args) {
  if (cond) return;
  const PrintArg list[sizeof...(Args) + 1] = {print_arg(args)..., PrintArg{}};
  kernel_assert_failed(api, text, file, line, fmt, list, sizeof...(Args));
}

// The element kinds DumpTensor prints.
enum class DumpKind : uint8_t { Bool, Signed, Unsigned, Float, Half, BFloat16 };
template <class T>
constexpr DumpKind dump_kind() {
  if (std::is_same<T, bool>::value) return DumpKind::Bool;
  if (std::is_same<T, half>::value) return DumpKind::Half;
  if (std::is_same<T, bfloat16_t>::value) return DumpKind::BFloat16;
  if (std::is_floating_point<T>::value) return DumpKind::Float;
  return std::is_signed<T>::value ? DumpKind::Signed : DumpKind::Unsigned;
}
struct DumpRequest {
  const char* api;
  bool global;                  // GM (host pointer) or a local buffer (space + address)
  aicore::MemSpace space;
  uint64_t local_addr;
  const void* gm;
  DumpKind kind;
  unsigned elem_size;
  uint32_t desc;
  uint32_t dump_size;           // elements
  const uint32_t* shape;        // nullptr: no shape
  unsigned dims;
};
// Waits for every pipe of the core, then prints the header line and the values.
void dump_tensor(const DumpRequest& request);

}  // namespace npuvp::ascendc

namespace AscendC {

inline constexpr int K_MAX_DIM = 8;

enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC };

// A tensor's shape (ShapeInfo.md).
struct ShapeInfo {
  uint8_t shapeDim = 0;
  uint8_t originalShapeDim = 0;
  uint32_t shape[K_MAX_DIM] = {};
  uint32_t originalShape[K_MAX_DIM] = {};
  DataFormat dataFormat = DataFormat::ND;

  ShapeInfo() = default;
  ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const uint8_t inputOriginalShapeDim,
            const uint32_t inputOriginalShape[], const DataFormat inputFormat)
      : shapeDim(inputShapeDim), originalShapeDim(inputOriginalShapeDim), dataFormat(inputFormat) {
    for (int i = 0; i < K_MAX_DIM && i < inputShapeDim; ++i) shape[i] = inputShape[i];
    for (int i = 0; i < K_MAX_DIM && i < inputOriginalShapeDim; ++i) originalShape[i] = inputOriginalShape[i];
  }
  ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const DataFormat inputFormat)
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, inputFormat) {}
  ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[])
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, DataFormat::ND) {}
};

inline int GetShapeSize(const ShapeInfo& shapeInfo) {
  int size = 1;
  for (int i = 0; i < shapeInfo.shapeDim && i < K_MAX_DIM; ++i) size *= static_cast<int>(shapeInfo.shape[i]);
  return size;
}

template <class... Args>
void printf(const char* fmt, const Args&... args) {
#if ASCENDC_DUMP
  npuvp::ascendc::printf_args(fmt, args...);
#else
  (void)fmt;
  (void)sizeof...(args);
#endif
}
// The older name, kept by CANN for compatibility.
template <class... Args>
void PRINTF(const char* fmt, const Args&... args) {
  AscendC::printf(fmt, args...);
}

namespace detail {
template <class T>
npuvp::ascendc::DumpRequest dump_request(const char* api, const LocalTensor<T>& t, uint32_t desc,
                                         uint32_t dumpSize) {
  return {api, false, t.space(), t.GetPhyAddr(), nullptr, npuvp::ascendc::dump_kind<T>(),
          static_cast<unsigned>(sizeof(T)), desc, dumpSize, nullptr, 0};
}
template <class T>
npuvp::ascendc::DumpRequest dump_request(const char* api, const GlobalTensor<T>& t, uint32_t desc,
                                         uint32_t dumpSize) {
  return {api, true, npuvp::aicore::MemSpace::GM, 0, t.GetPhyAddr(), npuvp::ascendc::dump_kind<T>(),
          static_cast<unsigned>(sizeof(T)), desc, dumpSize, nullptr, 0};
}
// A request laid out by the ShapeInfo's dimensions.
inline void dump_shaped(npuvp::ascendc::DumpRequest r, const ShapeInfo& shapeInfo) {
  r.shape = shapeInfo.shape;
  r.dims = shapeInfo.shapeDim;
  npuvp::ascendc::dump_tensor(r);
}
}  // namespace detail

template <typename T>
void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
#if ASCENDC_DUMP
  npuvp::ascendc::dump_tensor(detail::dump_request("DumpTensor", tensor, desc, dumpSize));
#else
  (void)tensor, (void)desc, (void)dumpSize;
#endif
}
template <typename T>
void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
#if ASCENDC_DUMP
  npuvp::ascendc::dump_tensor(detail::dump_request("DumpTensor", tensor, desc, dumpSize));
#else
  (void)tensor, (void)desc, (void)dumpSize;
#endif
}
template <typename T>
void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, const ShapeInfo& shapeInfo) {
#if ASCENDC_DUMP
  detail::dump_shaped(detail::dump_request("DumpTensor", tensor, desc, dumpSize), shapeInfo);
#else
  (void)tensor, (void)desc, (void)dumpSize, (void)shapeInfo;
#endif
}
template <typename T>
void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, const ShapeInfo& shapeInfo) {
#if ASCENDC_DUMP
  detail::dump_shaped(detail::dump_request("DumpTensor", tensor, desc, dumpSize), shapeInfo);
#else
  (void)tensor, (void)desc, (void)dumpSize, (void)shapeInfo;
#endif
}
// DumpTensor of tensor[countOff ...] (DumpAccChkPoint.md).
template <typename T>
void DumpAccChkPoint(const LocalTensor<T>& tensor, uint32_t index, uint32_t countOff, uint32_t dumpSize) {
#if ASCENDC_DUMP
  npuvp::ascendc::dump_tensor(detail::dump_request("DumpAccChkPoint", tensor[countOff], index, dumpSize));
#else
  (void)tensor, (void)index, (void)countOff, (void)dumpSize;
#endif
}
template <typename T>
void DumpAccChkPoint(const GlobalTensor<T>& tensor, uint32_t index, uint32_t countOff, uint32_t dumpSize) {
#if ASCENDC_DUMP
  npuvp::ascendc::dump_tensor(detail::dump_request("DumpAccChkPoint", tensor[countOff], index, dumpSize));
#else
  (void)tensor, (void)index, (void)countOff, (void)dumpSize;
#endif
}

}  // namespace AscendC

// ASSERT(expr) / ASSERT(expr, fmt, args...) and ascendc_assert (the same): a false condition
// fails the kernel with the condition, file:line and the formatted message. Written without
// __VA_OPT__ (C++20): the macro passes its whole argument text, and the condition's text is
// what precedes the first top-level comma. The message arguments are evaluated either way.
#if ASCENDC_DUMP
#define NPUVP_KERNEL_ASSERT(API, ...) ::npuvp::ascendc::assert_check(API, #__VA_ARGS__, __FILE__, __LINE__, __VA_ARGS__)
#else
#define NPUVP_KERNEL_ASSERT(API, ...) static_cast<void>(0)
#endif
#ifndef ASSERT
#define ASSERT(...) NPUVP_KERNEL_ASSERT("ASSERT", __VA_ARGS__)
#endif
#ifndef ascendc_assert
#define ascendc_assert(...) NPUVP_KERNEL_ASSERT("ascendc_assert", __VA_ARGS__)
#endif

// Kernels of CANN 8.x call PRINTF unqualified.
using AscendC::PRINTF;
