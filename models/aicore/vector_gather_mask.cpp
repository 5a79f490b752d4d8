// GatherMask (docs/vector-isa.md): the src0 elements a pattern selects, packed one after the
// other from dst on, over every repeat; the number kept is the instruction's result (rsvdCnt).
// A repeat takes 256 B of src0 (Normal mode) or mask_lo elements (counter mode, reduceMode),
// element i from block i / epb of the repeat (blocks src0_blk_stride apart). The pattern is
// built in (1..7, the same for every repeat) or bits at src1, consumed in order within a
// repeat, each repeat's starting src1_rep_stride blocks after the previous one's.
#include "models/aicore/vector_repeat.h"

#include <fmt/format.h>

#include <cstring>
#include <vector>

namespace npuvp::aicore::vector {
namespace {

// Built-in pattern p: does it select element i?
bool built_in(uint8_t p, uint64_t i) {
  switch (p) {
    case 1: return i % 2 == 0;
    case 2: return i % 2 == 1;
    case 3: case 4: case 5: case 6: return i % 4 == uint64_t(p - 3);
    default: return true;  // 7: every element
  }
}

}  // namespace

uint64_t execute_gather_mask(const VectorOp& op, uint8_t* ub, uint64_t ub_size) {
  const uint64_t size = dtype_size(op.dtype);
  const uint64_t epb = kBlockBytes / size;
  const uint64_t n = op.counter_mode ? op.mask_lo : VectorUnit::elems_per_repeat(op.dtype);
  // Every source is read before dst is written, as one instruction does.
  std::vector<uint8_t> kept;
  for (uint32_t r = 0; r < op.repeat; ++r) {
    const uint64_t src = op.src0 + uint64_t(r) * op.src0_rep_stride * kBlockBytes;
    const uint8_t* bits = ub + op.src1 + uint64_t(r) * op.src1_rep_stride * kBlockBytes;
    for (uint64_t i = 0; i < n; ++i) {
      const bool take = op.gather_pattern == 0 ? (bits[i / 8] >> (i % 8)) & 1u : built_in(op.gather_pattern, i);
      if (!take) continue;
      const uint8_t* e = ub + src + (i / epb) * op.src0_blk_stride * kBlockBytes + (i % epb) * size;
      kept.insert(kept.end(), e, e + size);
    }
  }
  if (op.dst + kept.size() > ub_size) {
    throw VectorFault(fmt::format("{}: the {} elements kept end at {:#x}, beyond UB size {:#x}", describe(op),
                                  kept.size() / size, op.dst + kept.size(), ub_size));
  }
  if (!kept.empty()) std::memcpy(ub + op.dst, kept.data(), kept.size());
  return kept.size() / size;
}

}  // namespace npuvp::aicore::vector
