// What the high-level lib/ APIs (lib/kernel_api.h) share: the V -> S ordering before the
// scalar unit reads a reduction's result, the temporary buffer of the forms without a
// sharedTmpBuffer argument, and the argument checks. Every lib API is built from the
// vector instructions of ascendc/vector.h, so the models see only isa.h instructions.
#pragma once
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include "sw/ascendc/ascendc/kernel_names.h"
#include "sw/ascendc/ascendc/pipe.h"
#include "sw/ascendc/ascendc/sort.h"
#include "sw/ascendc/ascendc/sync.h"
#include "sw/ascendc/ascendc/tpipe_ext.h"
#include "sw/ascendc/ascendc/vector.h"

namespace npuvp::ascendc::lib {

// The scalar unit waits for everything the vector unit has queued (a V_S flag pair), as
// CANN's implementations do before reading a reduction result with GetValue.
inline void wait_vector() {
  AscendC::TPipe* pipe = AscendC::GetTPipePtr();
  const int32_t id = pipe ? pipe->FetchEventID(AscendC::HardEvent::V_S) : 0;
  AscendC::SetFlag<AscendC::HardEvent::V_S>(id);
  AscendC::WaitFlag<AscendC::HardEvent::V_S>(id);
}

// Tells the sanitizer (models/check/sanitizer.h) the borrowed region is a buffer of the block.
void borrowed_ub(uint64_t addr, uint64_t size);

// The forms without sharedTmpBuffer: CANN pops the UB the TPipe has not given to a queue or
// buffer. Here it is the same region, [end of the pipe's allocations, end of UB), borrowed for
// the call only.
inline AscendC::LocalTensor<uint8_t> stack_buffer(const char* api) {
  AscendC::TPipe* pipe = AscendC::GetTPipePtr();
  if (!pipe) api_fail(api, "the form without sharedTmpBuffer needs a TPipe (its free UB is the temporary buffer)");
  const uint64_t ub = ub_size_bytes();
  const uint64_t free_bytes = pipe->FreeBytes(AscendC::TPosition::VECCALC);
  const uint64_t base = (ub - free_bytes + 31) / 32 * 32;
  const uint32_t size = base < ub ? static_cast<uint32_t>(ub - base) : 0;
  borrowed_ub(base, size);
  return AscendC::LocalTensor<uint8_t>(AscendC::TPosition::VECCALC, base, size);
}

// Elements of T in one 32 B block.
template <typename T>
constexpr uint32_t block_elems() {
  return 32u / sizeof(T);
}

inline uint32_t round_up(uint32_t v, uint32_t to) { return (v + to - 1) / to * to; }

template <typename T>
void require_half_or_float(const char* api) {
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
                "this lib API takes half or float");
  (void)api;
}

// Fails `api` unless `t` holds `elements` elements of T.
template <typename T>
void require_size(const AscendC::LocalTensor<T>& t, uint64_t elements, const char* what, const char* api) {
  if (uint64_t(t.GetSize()) < elements) {
    char why[200];
    std::snprintf(why, sizeof why, "%s holds %u elements, the shape needs %llu", what, t.GetSize(),
                  static_cast<unsigned long long>(elements));
    api_fail(api, why);
  }
}

inline void require_tmp(uint32_t have, uint32_t need, const char* api) {
  if (have < need) {
    char why[200];
    std::snprintf(why, sizeof why,
                  "the temporary buffer holds %u bytes, at least %u are needed (the Get...MinTmpSize of this shape)",
                  have, need);
    api_fail(api, why);
  }
}

// src widened to float in `f` (half), or src itself (float).
template <typename T>
AscendC::LocalTensor<float> as_float(const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<float>& f,
                                     uint32_t count) {
  if constexpr (std::is_same<T, float>::value) {
    (void)f;
    (void)count;
    return src;
  } else {
    AscendC::Cast(f, src, AscendC::RoundMode::CAST_NONE, static_cast<int32_t>(count));
    return f;
  }
}

// dst = f, rounded to T's type once (nearest-even) or copied exactly (x * 1 is x).
template <typename T>
void from_float(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<float>& f, uint32_t count) {
  if constexpr (std::is_same<T, float>::value) {
    if (dst.GetPhyAddr() != f.GetPhyAddr()) AscendC::Muls(dst, f, 1.0f, static_cast<int32_t>(count));
  } else {
    AscendC::Cast(dst, f, AscendC::RoundMode::CAST_NONE, static_cast<int32_t>(count));
  }
}

}  // namespace npuvp::ascendc::lib

namespace AscendC {
// PopStackBuffer (CANN's kernel_pop_stack_buffer.h): the UB the TPipe has not handed out, as a
// tensor of T (the region the lib APIs' forms without sharedTmpBuffer borrow). False without a
// TPipe or free UB.
template <typename T, TPosition pos = TPosition::LCM>
bool PopStackBuffer(LocalTensor<T>& popLocal) {
  AscendC::TPipe* pipe = AscendC::GetTPipePtr();
  if (!pipe) return false;
  const LocalTensor<uint8_t> free = npuvp::ascendc::lib::stack_buffer("PopStackBuffer");
  if (free.GetSize() < sizeof(T)) return false;
  popLocal = free.template ReinterpretCast<T>();
  return true;
}
}  // namespace AscendC
