// The cube unit's GEMM engine as the unit sees it: the few calls cube_unit.cpp makes once per
// Mmad to have its arithmetic computed. Private to models/aicore/cube_*.cpp
// (models/aicore/cube_unit.h is the public interface); the kernels, their run-time selection
// and the operand preparation stay inside cube_gemm.cpp, so that the unit's ISA semantics and
// the engine's speed can each be read alone. Layouts and the numeric contract: struct Mmad in
// isa.h. Every call is for an Mmad CubeUnit::check accepted, with m, n and k > 0.
#pragma once
#include <cstddef>
#include <cstdint>

#include "models/aicore/isa_types.h"

namespace npuvp::aicore::cube_gemm {

constexpr uint64_t kFractalBytes = 512;  // one L0A/L0B fractal

// c += A x B for float operands: A (ZZ, M1 x K1 fractals) at `a` in L0A and B (ZN, K1 x N1
// fractals) at `b` in L0B, both of `type` (F16, BF16 or F32), over k steps; c is the f32
// accumulator in NZ (M1 x N1 fractals of 16 x 16), updated in place.
void mmad_float(const uint8_t* a, const uint8_t* b, DType type, uint32_t M1, uint32_t N1,
                uint32_t k, float* c);

// c += A x B for integer operands: A u8 (a_unsigned) or s8, B s8, c the s32 accumulator in NZ
// (two's complement, wrapping); layouts as for mmad_float.
void mmad_int(const uint8_t* a, bool a_unsigned, const uint8_t* b, uint32_t M1, uint32_t N1,
              uint32_t k, int32_t* c);

// A scratch f32 accumulator for `count` values, for an L0C that is not f32 (f16 output): 64 B
// aligned like the engine's other buffers, one per thread, valid until the next call.
float* f32_accumulator(size_t count);

}  // namespace npuvp::aicore::cube_gemm
