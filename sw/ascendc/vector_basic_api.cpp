// The non-template half of sw/ascendc/ascendc/vector_basic.h: GatherMask's count, Scatter's
// product rule, and Fill / InitGlobalMemory lowered to Duplicate and unaligned UB -> GM moves.
#include <algorithm>
#include <cstring>
#include <fmt/format.h>

#include "models/aicore/ai_core.h"
#include "models/aicore/product.h"
#include "models/aicore/vector_unit.h"
#include "sw/ascendc/kernel_operator.h"

namespace npuvp::ascendc {

using aicore::AiCore;
using aicore::DType;
using aicore::MemSpace;

uint64_t gather_mask_issue(const aicore::VectorOp& v, bool built_in) {
  AiCore& c = core();
  if (built_in && v.gather_pattern == 0) c.fail(aicore::describe(v), "src1Pattern 0 out of range [1, 7]");
  if (c.product() == aicore::Product::Ascend910) {
    c.fail(aicore::describe(v), "GatherMask is not supported on ascend910 (docs/api/context/GatherMask.md)");
  }
  c.issue(v);
  // rsvdCnt is the instruction's result: the scalar unit waits for it.
  c.barrier_all();
  AscendC::SetMaskNorm();  // GatherMask leaves the mask register in Normal mode
  return c.vector_unit().gather_mask_count();
}

void scatter_check_product() {
  AiCore& c = core();
  if (c.product() != aicore::Product::Ascend310P) {
    c.fail("Scatter", fmt::format("not supported on {} (Atlas inference AI Core, ascend310p, only: "
                                  "docs/api/context/Scatter(ISASI).md)",
                                  aicore::product_name(c.product())));
  }
}

namespace {
// The value of an element's bits, for Duplicate's scalar operand.
double element_value(uint64_t bits, DType type) {
  switch (type) {
    case DType::F16: {
      _Float16 h;
      const uint16_t b = static_cast<uint16_t>(bits);
      std::memcpy(&h, &b, 2);
      return static_cast<double>(h);
    }
    case DType::F32: {
      float f;
      const uint32_t b = static_cast<uint32_t>(bits);
      std::memcpy(&f, &b, 4);
      return f;
    }
    case DType::S16: return static_cast<int16_t>(bits);
    case DType::U16: return static_cast<uint16_t>(bits);
    case DType::S32: return static_cast<int32_t>(bits);
    default: return static_cast<uint32_t>(bits);
  }
}
}  // namespace

void fill_gm(const void* gm, uint64_t count, uint64_t bits, unsigned elem_size, DType type, const char* api) {
  AiCore& c = core();
  if (!aicore::is_a2(c.product())) {
    c.fail(api, fmt::format("not supported on {} (Atlas A2 products only)", aicore::product_name(c.product())));
  }
  if (type != DType::F16 && type != DType::F32 && type != DType::S16 && type != DType::U16 &&
      type != DType::S32 && type != DType::U32) {
    c.fail(api, fmt::format("{} is not supported (uint16_t, int16_t, half, uint32_t, int32_t, float are)",
                            aicore::dtype_name(type)));
  }
  if (count == 0) return;
  aicore::LocalBuffer* ub = c.buffer(MemSpace::UB);
  if (ub == nullptr) c.fail(api, fmt::format("this {} has no UB", c.kind_text()));
  // The value is laid out once in a piece of UB, then written to GM piece by piece.
  const uint64_t total = count * elem_size;
  const uint64_t piece = std::min<uint64_t>({(total + 31) / 32 * 32, 16384, ub->size() / 32 * 32});
  vector_count(vec_op(aicore::VecOp::Duplicate, type, 0, 0, 0, element_value(bits, type)),
               static_cast<int64_t>(piece / elem_size));
  c.barrier_all();  // the GM writes read what Duplicate wrote
  const uint64_t base = c.gm_address(gm);
  for (uint64_t done = 0; done < total;) {
    aicore::DataMove m;
    m.pipe = aicore::Pipe::MTE3;
    m.src = {MemSpace::UB, 0};
    m.dst = {MemSpace::GM, base + done};
    m.unit = 1;
    m.pad = true;
    m.elem_size = elem_size;
    m.block_len = static_cast<uint32_t>(std::min(piece, total - done));
    c.issue(m);
    done += m.block_len;
  }
  c.barrier_all();  // the UB piece is free again: a later Duplicate there must not overtake the copies
}

}  // namespace npuvp::ascendc
