// The vector unit's data-rearrangement instructions (docs/vector-isa.md): Brcb (each of 8
// source elements fills one 32 B block), Transpose (one 16x16 matrix of 16-bit elements) and
// Gather (each element from a data-dependent offset). They move element bits without computing
// on them, and their sources are not the repeat engine's masked, strided blocks but
// contiguous elements or addresses taken from data; Gather is the one vector instruction that
// can fault during execution (its offsets are only known then).
#include "models/aicore/vector_repeat.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace npuvp::aicore::vector {
namespace {

template <typename B>
void run_brcb(const VectorOp& op, uint8_t* ub) {
  constexpr unsigned epb = 32 / sizeof(B);
  alignas(32) B block[epb];
  for (uint32_t r = 0; r < op.repeat; ++r) {
    B e[8];  // the repeat's 8 source elements, read before any write
    std::memcpy(e, ub + op.src0 + static_cast<uint64_t>(r) * 8 * sizeof(B), sizeof e);
    for (unsigned b = 0; b < kBlocksPerRepeat; ++b) {
      std::fill_n(block, epb, e[b]);
      std::memcpy(ub + dst_of(op).at(r, b), block, kBlockBytes);
    }
  }
}

void run_transpose(const VectorOp& op, uint8_t* ub) {
  uint16_t in[256], out[256];
  std::memcpy(in, ub + op.src0, sizeof in);
  for (unsigned i = 0; i < 16; ++i) {
    for (unsigned j = 0; j < 16; ++j) out[i * 16 + j] = in[j * 16 + i];
  }
  std::memcpy(ub + op.dst, out, sizeof out);
}

template <typename B>
void run_gather(const VectorOp& op, uint8_t* ub, uint64_t ub_size) {
  constexpr unsigned epr = 256 / sizeof(B);
  constexpr unsigned epb = 32 / sizeof(B);
  if (ub_size == 0) throw std::logic_error("VectorUnit::execute: Gather needs the UB size");
  alignas(32) B d[epr] = {};
  const MaskPlan plan{op, epr};
  const uint32_t runs = plan.repeats();
  for (uint32_t r = 0; r < runs; ++r) {
    const ElemMask m = plan.mask(r);
    uint64_t bits[kBlocksPerRepeat];
    if (live_blocks(m, kBlocksPerRepeat, epb, bits) == 0) continue;
    for (unsigned i = 0; i < epr; ++i) {
      if (!m.test(i)) continue;
      const uint64_t k = static_cast<uint64_t>(r) * epr + i;
      uint32_t offset;
      std::memcpy(&offset, ub + op.src1 + 4 * k, 4);
      const uint64_t addr = op.src0 + offset;
      if (addr % sizeof(B) != 0 || addr + sizeof(B) > ub_size) {
        throw VectorFault(fmt::format("{}: offset[{}] = {:#x} gives source address {:#x}, {}", describe(op), k,
                                      offset, addr,
                                      addr % sizeof(B) != 0
                                          ? fmt::format("not aligned to the {}-byte element", sizeof(B))
                                          : fmt::format("beyond UB size {:#x}", ub_size)));
      }
      std::memcpy(&d[i], ub + addr, sizeof(B));
    }
    scatter_elems(ub, dst_of(op), r, bits, kBlocksPerRepeat, sizeof(B), d);
  }
}

// Scatter: each enabled src0 element to dst + its u32 byte offset (src1, one per logical
// element like Gather's). Offsets are data, so they are bounded here.
template <typename B>
void run_scatter(const VectorOp& op, uint8_t* ub, uint64_t ub_size) {
  constexpr unsigned epr = 256 / sizeof(B);
  constexpr unsigned epb = 32 / sizeof(B);
  alignas(32) B s[epr];
  const MaskPlan plan{op, epr};
  const uint32_t runs = plan.repeats();
  for (uint32_t r = 0; r < runs; ++r) {
    const ElemMask m = plan.mask(r);
    uint64_t bits[kBlocksPerRepeat];
    const unsigned live = live_blocks(m, kBlocksPerRepeat, epb, bits);
    if (live == 0) continue;
    gather_blocks(ub, src0_of(op), r, live, s);
    for (unsigned i = 0; i < epr; ++i) {
      if (!m.test(i)) continue;
      const uint64_t k = static_cast<uint64_t>(r) * epr + i;
      uint32_t offset;
      std::memcpy(&offset, ub + op.src1 + 4 * k, 4);
      const uint64_t addr = op.dst + offset;
      if (addr % sizeof(B) != 0 || addr + sizeof(B) > ub_size) {
        throw VectorFault(fmt::format("{}: offset[{}] = {:#x} gives destination address {:#x}, {}", describe(op), k,
                                      offset, addr,
                                      addr % sizeof(B) != 0
                                          ? fmt::format("not aligned to the {}-byte element", sizeof(B))
                                          : fmt::format("beyond UB size {:#x}", ub_size)));
      }
      std::memcpy(ub + addr, &s[i], sizeof(B));
    }
  }
}

}  // namespace

void execute_rearrange(const VectorOp& op, uint8_t* ub, uint64_t ub_size) {
  const DType t = op.dtype;
  switch (op.op) {
    case VecOp::Transpose:
      if (dtype_size(t) == 2) return run_transpose(op, ub);
      break;
    case VecOp::Brcb:
      if (dtype_size(t) == 2) return run_brcb<uint16_t>(op, ub);
      if (dtype_size(t) == 4) return run_brcb<uint32_t>(op, ub);
      break;
    case VecOp::Gather:
      if (dtype_size(t) == 2) return run_gather<uint16_t>(op, ub, ub_size);
      if (dtype_size(t) == 4) return run_gather<uint32_t>(op, ub, ub_size);
      break;
    case VecOp::Scatter:
      if (dtype_size(t) == 2) return run_scatter<uint16_t>(op, ub, ub_size);
      if (dtype_size(t) == 4) return run_scatter<uint32_t>(op, ub, ub_size);
      break;
    default: break;
  }
  unsupported(op);
}

}  // namespace npuvp::aicore::vector
