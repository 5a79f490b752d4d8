// Data-layout transforms of the movers: ND -> NZ, LoadData 2D (fractals, transpose),
// LoadData 3D (img2col) and Fixpipe (L0C -> GM/L1 with conversion, ReLU, NZ -> ND).
// Pure functions on byte views; the core fetches GM spans through TLM and calls these.
// Semantics: the comments on the structs in models/aicore/isa.h.
#pragma once
#include <cstdint>
#include <string>
#include "models/aicore/isa.h"

namespace npuvp::aicore::layout {

// Bytes [begin, end) of an operand's memory space.
struct Range {
  uint64_t begin = 0, end = 0;
};
// A view of bytes [base, base + size) of a memory space.
struct ConstView {
  const uint8_t* data;
  uint64_t base, size;
};
struct View {
  uint8_t* data;
  uint64_t base, size;
};

// Each transform: parameter check (limits, dtypes; empty if legal), the byte ranges it reads
// and writes (relative to src/dst memory spaces; the caller checks them against buffer sizes
// and fetches GM), and the transform itself (views cover at least those ranges).
std::string nd2nz_check(const Nd2Nz& op);
Range nd2nz_src_range(const Nd2Nz& op);
Range nd2nz_dst_range(const Nd2Nz& op);
void nd2nz(const Nd2Nz& op, ConstView src, View dst);

std::string load2d_check(const LoadData2D& op);
Range load2d_src_range(const LoadData2D& op);
Range load2d_dst_range(const LoadData2D& op);
void load2d(const LoadData2D& op, ConstView src, View dst);

std::string load3d_check(const LoadData3D& op);
Range load3d_src_range(const LoadData3D& op);
Range load3d_dst_range(const LoadData3D& op);
void load3d(const LoadData3D& op, ConstView src, View dst);

std::string fixpipe_check(const Fixpipe& op);
Range fixpipe_src_range(const Fixpipe& op);
Range fixpipe_dst_range(const Fixpipe& op);
void fixpipe(const Fixpipe& op, ConstView l0c, View dst);

}  // namespace npuvp::aicore::layout
