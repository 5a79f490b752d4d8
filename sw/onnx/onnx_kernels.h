// The Ascend C kernels the ONNX lowerings share (issue 26), written with kernel_operator.h
// like sw/kernels/*.cpp, and the host-side plans they run from. Every launch spreads its work
// items (rows x tiles) evenly over the vector cores; each block takes a contiguous slice.
//  - strided_copy: out[i] = in[offset(i)] for an N-d view of `in` (Transpose, Slice, Split,
//    Concat's parts, Reshape/Flatten copies): GM -> UB -> GM through a TQueBind, runs along
//    the innermost dimension; a strided innermost run travels as one DataCopyPad of blockCount
//    elements (each padded to 32 B in UB) and leaves as 4-byte blocks written back to back.
//  - elementwise: z = f(x0[, x1]) with multidirectional broadcasting, per output row and tile;
//    a broadcast operand along the row is one scalar Duplicate'd over the tile.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>
#include "kernel_operator.h"
#include "sw/onnx/onnx_op.h"

namespace npuvp::onnx {

// Vector cores of the configured chip (AIVs on a separated chip, AI Cores + Vector Cores on a
// coupled one): every vector launch uses them all, or fewer if there are fewer work items.
uint32_t vector_core_count();
uint32_t blocks_for(uint64_t work_items);
// Launches `body` on the vector cores and records it for the per-layer table.
void launch_vector(OpContext& ctx, const std::string& kernel, uint64_t work_items, double flops, double bytes,
                   const std::function<void()>& body);

// Check helpers for the lowerings: an attribute outside `allowed` is refused naming it; the
// listed inputs (and every output) must be float32.
void allow_attributes(const Node& node, const std::vector<std::string>& allowed);
void require_float(const Node& node, const std::vector<TensorDesc>& inputs, const std::vector<TensorDesc>& outputs,
                   const std::vector<size_t>& float_inputs);
// An axis attribute in [-rank, rank) made non-negative, or an error naming the attribute.
int64_t normalized_axis(const Node& node, const char* attribute, int64_t axis, int64_t rank);
// Values of a constant int64 (or int32) input, read from GM on the host (it was copied there
// from the model or --data before anything ran).
std::vector<int64_t> constant_ints(const Node& node, const GmTensor* tensor, const char* what);

// GM <-> UB copies of n elements that need not fill whole 32 B blocks. The A2 cores (910B)
// have DataCopyPad; the 910 and 310P copy whole blocks with DataCopy (reading up to 31 B
// past the run, inside the tensor's 512 B-rounded allocation) and write the tail that does
// not fill a block with scalar stores, so that no neighbouring byte in GM is overwritten.
bool has_data_copy_pad();  // host side: the configured chip's cores
template <class T>
void copy_in(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src, int64_t n, bool pad) {
  if (pad) {
    AscendC::DataCopyPad(dst, src, AscendC::DataCopyExtParams(1, uint32_t(n * int64_t(sizeof(T))), 0, 0, 0),
                         AscendC::DataCopyPadExtParams<T>(false, 0, 0, T(0)));
  } else {
    const int64_t per_block = 32 / int64_t(sizeof(T));
    AscendC::DataCopy(dst, src, uint32_t((n + per_block - 1) / per_block * per_block));
  }
}
template <class T>
void copy_out(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src, int64_t n, bool pad) {
  if (pad) {
    AscendC::DataCopyPad(dst, src, AscendC::DataCopyExtParams(1, uint32_t(n * int64_t(sizeof(T))), 0, 0, 0));
    return;
  }
  const int64_t per_block = 32 / int64_t(sizeof(T)), whole = n / per_block * per_block;
  if (whole > 0) AscendC::DataCopy(dst, src, uint32_t(whole));
  for (int64_t i = whole; i < n; ++i) {
    AscendC::GlobalTensor<T> out = dst;
    out.SetValue(uint64_t(i), src.GetValue(uint32_t(i)));
  }
}

// Row-major strides of a shape (elements).
std::vector<int64_t> strides_of(const std::vector<int64_t>& shape);
// Numpy's multidirectional broadcast of two shapes; raises naming the node on a mismatch.
std::vector<int64_t> broadcast_shapes(const Node& node, const std::vector<int64_t>& a, const std::vector<int64_t>& b);
// The strides of `shape` seen as broadcast to `out` (0 along a broadcast dimension).
std::vector<int64_t> broadcast_strides(const std::vector<int64_t>& shape, const std::vector<int64_t>& out);

// An N-d view: element i of the output (row-major over `shape`) is in[base + sum(idx_d * stride_d)];
// the output is written at out[out_base + sum(idx_d * out_stride_d)] (contiguous if empty).
struct CopyView {
  std::vector<int64_t> shape, strides, out_strides;
  int64_t base = 0, out_base = 0;
};
// Copies one view of `in` (element size `elem`) into `out` on every vector core.
void strided_copy(OpContext& ctx, const char* kernel, const void* in, void* out, size_t elem, CopyView view);

// Elementwise kernels: `compute(z, x0, x1, tmp, n)` issues the vector instructions for n
// elements (n rounded up to a multiple of 64 so compare masks cover whole repeats; the extra
// lanes are never copied out); tmp holds kElementwiseTmpTiles tiles of scratch.
using ElementwiseCompute = std::function<void(const AscendC::LocalTensor<float>& z,
                                              const AscendC::LocalTensor<float>& x0,
                                              const AscendC::LocalTensor<float>& x1,
                                              const AscendC::LocalTensor<float>& tmp, int32_t n)>;
constexpr int32_t kElementwiseTile = 2048;  // f32 elements per tile (8 KiB)
constexpr int32_t kElementwiseTmpTiles = 6;
void elementwise(OpContext& ctx, const char* kernel, const std::vector<const GmTensor*>& inputs, GmTensor& out,
                 double flops_per_element, const ElementwiseCompute& compute);

}  // namespace npuvp::onnx
