// The instruction set: one plain struct per instruction. This is the seam between software
// and hardware: the kernel API builds these, pipes consume them, the tracer and error
// messages print them.
#pragma once
#include <cstdint>
#include <string>
#include <variant>

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

// DataCopy: block_count blocks of block_len units; the gaps are the distance, in units, from
// the end of one block to the start of the next (SPEC.md §1.5).
struct DataMove {
  Pipe pipe = Pipe::MTE2;
  Operand dst, src;
  uint32_t block_count = 1;  // [1, 4095]
  uint32_t block_len = 1;    // [1, 65535] units
  uint32_t src_gap = 0;      // units
  uint32_t dst_gap = 0;      // units
  uint32_t unit = 32;        // bytes per unit
  uint32_t elem_size = 1;    // bytes per element: GM addresses must be aligned to it
};

enum class VecOp : uint8_t {
  Add, Sub, Mul, Div, Max, Min,  // dst = src0 op src1
  Adds, Muls,                    // dst = src0 op scalar
  Abs, Relu, Exp,                // dst = op(src0)
  Duplicate,                     // dst = scalar
};
const char* vec_op_name(VecOp op);
int vec_op_sources(VecOp op);  // 0, 1 or 2 tensor sources

// One vector instruction: `repeat` iterations over 256 B (8 blocks of 32 B) per operand.
// Normal mask: bit i of (mask_hi:mask_lo) enables element i of each repeat (mask_lo holds
// elements 0..63). Counter mask: mask_lo is the total number of elements over all repeats,
// taken in order, each repeat handling up to one full repeat's worth.
struct VectorOp {
  VecOp op = VecOp::Add;
  DType dtype = DType::F16;
  uint64_t dst = 0, src0 = 0, src1 = 0;  // UB byte addresses
  double scalar = 0;                     // Adds/Muls/Duplicate, converted to dtype first
  bool counter_mode = false;
  uint64_t mask_lo = ~0ull, mask_hi = ~0ull;
  uint32_t repeat = 1;  // [0, 255]; 0 does nothing
  uint32_t dst_blk_stride = 1, src0_blk_stride = 1, src1_blk_stride = 1;  // 32 B units
  uint32_t dst_rep_stride = 8, src0_rep_stride = 8, src1_rep_stride = 8;  // 32 B units
};

// Event-sync: SetFlag runs on `src` after src's earlier instructions; WaitFlag runs on
// `dst`, blocks it until the flag (src, dst, id) is set, and clears it.
struct SetFlag {
  Pipe src = Pipe::MTE2, dst = Pipe::V;
  uint32_t id = 0;
};
struct WaitFlag {
  Pipe src = Pipe::MTE2, dst = Pipe::V;
  uint32_t id = 0;
};
// PipeBarrier<pipe>: `pipe` finishes everything issued before it. PIPE_ALL is handled by
// the scalar unit: it waits until every pipe is idle.
struct Barrier {
  Pipe pipe = Pipe::V;
};

using Instruction = std::variant<DataMove, VectorOp, SetFlag, WaitFlag, Barrier>;

// The pipe that executes an instruction.
Pipe pipe_of(const Instruction& instr);
// Short name for traces ("DataCopy", "Add.f16", "SetFlag"...).
std::string instr_name(const Instruction& instr);
// Full text for error messages and trace arguments.
std::string describe(const Instruction& instr);

}  // namespace npuvp::aicore
