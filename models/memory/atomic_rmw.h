// The arithmetic of an atomic GM write (tlm/extensions.h AtomicExtension) as the L2 home
// node applies it: element by element, mem = mem op src, each element rounded once.
//   add  f32: IEEE binary32 addition, round to nearest-even
//        f16: the exact sum rounded once to nearest-even
//        bf16: the f32 sum (round to nearest-even), rounded to nearest-even to bf16
//        s32, s16, s8: two's complement, wrapping
//   max, min: the larger / smaller value; a NaN operand gives NaN (float types)
#pragma once
#include <cstdint>
#include "tlm/extensions.h"

namespace npuvp::memory {

// `bytes` must be a multiple of the element size (the initiator checks alignment).
void atomic_combine(const AtomicExtension& atomic, uint8_t* mem, const uint8_t* src, uint64_t bytes);

}  // namespace npuvp::memory
