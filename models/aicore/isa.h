// The instruction set: one plain struct per instruction. This is the seam between software
// and hardware: the kernel API builds these, pipes consume them, the tracer and error
// messages print them.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include "models/aicore/isa_types.h"
#include "models/aicore/isa_vector.h"

namespace npuvp::aicore {

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
  // L1 -> BT may convert f16 to f32 (SPEC.md §1.5); L0C -> UB matrix mode may convert f32/s32
  // to f16. When src_type != dst_type the copy converts element by element.
  DType src_type = DType::U8, dst_type = DType::U8;

  // DataCopyPad (unaligned GM <-> UB, A2): block_len counts bytes (unit is 1), and so does the
  // gap on the GM side; the UB side of each block starts 32 B aligned, holds pad_left bytes,
  // the block_len data bytes and pad_right bytes, rounded up to 32 B, and its gap counts 32 B
  // units. GM -> UB writes the padding and the bytes up to the 32 B boundary: with padding,
  // pad_value (one elem_size element, repeated); without, the block's first element repeated.
  // UB -> GM writes only the data bytes.
  bool pad = false;
  uint32_t pad_left = 0, pad_right = 0;  // bytes, each at most 32
  uint64_t pad_value = 0;                // the element's bits

  // BroadCastVecToMM (310P AI Core, UB -> L0C on the vector pipe): the unit is 16 elements and
  // every unit of a block is written 16 times in a row (a 16 x 16 fractal of equal rows), so a
  // destination block is 16 times its source; src_gap counts 32 B, dst_gap 256 elements.
  bool broadcast = false;
};

// A DataMove's block geometry in bytes: what one block reads and writes, and the distance from
// one block's start to the next on each side.
uint64_t move_src_block(const DataMove& m);
uint64_t move_dst_block(const DataMove& m);
uint64_t move_src_pitch(const DataMove& m);
uint64_t move_dst_pitch(const DataMove& m);

// DataCopy with ND -> NZ conversion (Nd2NzParams), GM or UB -> L1 (and GM -> UB where legal).
// For matrix i < nd_num, row j < n_value, 32 B block b < ceil(d_value * size / 32):
//   src element offset  = i * src_nd_matrix_stride + j * src_d_value        (elements)
//   dst byte offset     = i * dst_nz_matrix_stride * size                   (elements -> bytes)
//                       + j * dst_nz_n_stride * 32 + b * dst_nz_c0_stride * 32
// A block past d_value is padded with zeros in the destination.
struct Nd2Nz {
  Pipe pipe = Pipe::MTE2;
  Operand dst, src;
  DType dtype = DType::F16;
  uint32_t nd_num = 1;                // [0, 4095]
  uint32_t n_value = 0;               // rows, [0, 16384]
  uint32_t d_value = 0;               // columns (elements), [0, 65535]
  uint32_t src_nd_matrix_stride = 0;  // elements
  uint32_t src_d_value = 0;           // elements per source row
  uint32_t dst_nz_c0_stride = 0;      // 32 B blocks between consecutive column blocks
  uint32_t dst_nz_n_stride = 0;       // 32 B blocks between consecutive rows
  uint32_t dst_nz_matrix_stride = 0;  // elements between consecutive matrices
};

// LoadData 2D: moves whole fractals (512 B: 16x16 16-bit, 16x32 8-bit, 16x8 32-bit).
// Fractal r < repeat is read at src + (start_index + r * src_stride) * 512 and written at
// dst + r * (1 + dst_gap) * 512. With transpose (16-bit types only), each 16x16 fractal is
// transposed on the way (element (i, j) -> (j, i)).
struct LoadData2D {
  Pipe pipe = Pipe::MTE1;  // MTE1 for L1 -> L0A/L0B, MTE2 for GM -> L1/L0A/L0B
  Operand dst, src;
  DType dtype = DType::F16;
  uint32_t start_index = 0;  // [0, 65535] fractals
  uint32_t repeat = 1;       // [1, 255]
  uint32_t src_stride = 0;   // [0, 65535] fractals, start to start
  uint32_t dst_gap = 0;      // [0, 65535] fractals, end to start
  bool transpose = false;
};

// LoadData 3D (img2col), L1 -> L0A or L0B. The source is one feature map in L1 in
// NC1HWC0 order: element (c1, h, w, c0) at ((c1 * fm_h + h) * fm_w + w) * C0 + c0, with
// C0 = 32 / size elements. The im2col matrix has one row per output position
// p = ho * Wo + wo and one column per q = ((c1 * kernel_h + kh) * kernel_w + kw) * C0 + c0,
// with input position h = ho * stride_h - pad_top + kh * dilation_h (likewise w); positions
// in the padding, and channels >= channels, read pad_value.
// Rows [m_start, m_start + m_extent) and columns [k_start, k_start + k_extent) are written
// to dst as fractals of 16 rows x C0 columns: in L0A in ZZ order (fractal (m1, k1) at
// (m1 * K1 + k1) * 512, K1 = k_extent / C0, row-major inside), in L0B in ZN order (the same
// matrix as K x N with N = rows: fractal (k1, n1) at (k1 * N1 + n1) * 512, column-major
// inside). m_extent is a multiple of 16 and k_extent of C0.
struct LoadData3D {
  Operand dst, src;
  DType dtype = DType::F16;
  uint32_t fm_h = 1, fm_w = 1, channels = 1;
  uint32_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  uint32_t stride_h = 1, stride_w = 1, kernel_h = 1, kernel_w = 1, dilation_h = 1, dilation_w = 1;
  uint32_t m_start = 0, m_extent = 16, k_start = 0, k_extent = 16;
  double pad_value = 0;
};

// Mmad: C[m x n] (+)= A[m x k] * B[k x n] in fractals (SPEC.md §1.4).
//   L0A, ZZ: A fractal (m1, k1) of 16 x K0 at (m1 * K1 + k1) * 512, row-major inside;
//   L0B, ZN: B fractal (k1, n1) of K0 x 16 at (k1 * N1 + n1) * 512, column-major inside
//            (element (ki, ni) at ni * K0 + ki);
//   L0C, NZ: C fractal (m1, n1) of 16 x 16 at (n1 * M1 + m1) * 256 * csize, row-major inside;
// with K0 = 32 / asize, M1 = ceil(m / 16), K1 = ceil(k / K0), N1 = ceil(n / 16).
// Every element of the M1 x N1 fractals is computed and written, from exactly k products in
// increasing k order. The accumulator starts at 0 (init_c), at the BT bias of its column
// (bias, f32 at bias_addr + col * 4), or at the L0C value.
struct Mmad {
  uint64_t c = 0, a = 0, b = 0;  // byte addresses in L0C, L0A, L0B
  uint32_t m = 0, n = 0, k = 0;  // [0, 4095]
  DType a_type = DType::F16, b_type = DType::F16, c_type = DType::F32;
  bool init_c = true;  // cmatrixInitVal
  bool bias = false;   // cmatrixSource: initial value from BT
  uint64_t bias_addr = 0;
};

// Fixpipe (A2): L0C (NZ, f32 or s32) -> GM or L1, with conversion, ReLU and NZ -> ND.
// Source fractal column n1 starts at src + n1 * src_stride * 16 * csize (src_stride in rows
// of 16 elements, >= m_size rounded up to 16). Elements (i < m_size, j < n_size):
//   value = relu ? max(v, 0) : v, then converted: F322F16/F322BF16 round to nearest even;
//   DEQF16 (s32 -> f16) multiplies by deq_scale; QF322B8 (f32 -> s8) and REQ8 (s32 -> s8)
//   multiply by deq_scale, round to nearest even and saturate.
//   nz2nd: written at dst + (i * dst_stride + j) * dsize (dst_stride in elements);
//   else NZ: fractal column n1 at dst + n1 * dst_stride * 32, rows of 16 elements.
enum class QuantMode : uint8_t { None, F322F16, F322BF16, DEQF16, QF322B8, REQ8 };
struct Fixpipe {
  Operand dst;
  uint64_t src = 0;  // L0C byte address
  DType src_type = DType::F32, dst_type = DType::F32;
  uint32_t m_size = 0, n_size = 0;  // [1, 4095]
  uint32_t src_stride = 0;          // rows of 16 elements between fractal columns
  uint32_t dst_stride = 0;          // ND: elements between rows; NZ: 32 B units between columns
  QuantMode quant = QuantMode::None;
  float deq_scale = 1.0f;
  bool relu = false;
  bool nz2nd = true;
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

// Cross-core flags (separated mode, SPEC.md §1.7): CrossCoreSetFlag<mode, pipe>(id) runs on
// `pipe` after its earlier instructions and counts up the flag-`id` counters of the cores
// `mode` names; CrossCoreWaitFlag blocks `pipe` until this core's counter is above 0, then
// counts it down.
struct CrossCoreSetFlag {
  Pipe pipe = Pipe::MTE3;
  uint32_t mode = 0;  // 0: all AICs or all AIVs of the launch, 1: the AIVs of one AI Core, 2: AIC <-> its AIVs
  uint32_t id = 0;
};
struct CrossCoreWaitFlag {
  Pipe pipe = Pipe::S;
  uint32_t mode = 0;
  uint32_t id = 0;
};

using Instruction = std::variant<DataMove, VectorOp, SetFlag, WaitFlag, Barrier, Nd2Nz, LoadData2D,
                                 LoadData3D, Mmad, Fixpipe, CrossCoreSetFlag, CrossCoreWaitFlag>;

// The pipe that executes an instruction.
Pipe pipe_of(const Instruction& instr);
// Short name for traces ("DataCopy", "Add.f16", "SetFlag"...).
std::string instr_name(const Instruction& instr);
// A number that is equal exactly when instr_name is (cheap: for per-class statistics).
uint32_t instr_class(const Instruction& instr);
// Source and destination memory of a data move (GM, GM for anything else).
std::pair<MemSpace, MemSpace> move_spaces(const Instruction& instr);
// Full text for error messages and trace arguments.
std::string describe(const Instruction& instr);

}  // namespace npuvp::aicore
