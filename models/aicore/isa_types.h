// Basic ISA types shared by every instruction: pipes, data types, memory spaces.
#pragma once
#include <cstdint>

namespace npuvp::aicore {

enum class Pipe : uint8_t { S, V, M, MTE1, MTE2, MTE3, FIX, ALL };
inline constexpr int kNumPipes = 7;  // every pipe but ALL
const char* pipe_name(Pipe pipe);    // "S", "V", "M", "MTE1", ...

enum class DType : uint8_t { F16, BF16, F32, S8, U8, S16, U16, S32, U32 };
unsigned dtype_size(DType type);
const char* dtype_name(DType type);  // "f16", "bf16", "f32", "s8", ...

// Where an operand lives. GM addresses are device addresses; local ones are byte offsets.
enum class MemSpace : uint8_t { GM, UB, L1, L0A, L0B, L0C, BT, FB };
const char* mem_space_name(MemSpace space);

struct Operand {
  MemSpace space = MemSpace::UB;
  uint64_t addr = 0;
};

}  // namespace npuvp::aicore
