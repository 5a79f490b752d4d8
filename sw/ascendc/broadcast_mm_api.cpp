// BroadCastVecToMM (sw/ascendc/ascendc/broadcast_mm.h): one DataMove UB -> L0C with `broadcast`.
#include <fmt/format.h>

#include "models/aicore/ai_core.h"
#include "models/aicore/product.h"
#include "sw/ascendc/kernel_operator.h"

namespace npuvp::ascendc {

void broadcast_vec_to_mm(CopyEnd dst, CopyEnd src, aicore::DType type, int32_t block_count, uint32_t block_len,
                         uint32_t src_gap, uint32_t dst_gap) {
  constexpr const char* api = "BroadCastVecToMM";
  aicore::AiCore& c = core();
  if (c.product() != aicore::Product::Ascend310P) {
    c.fail(api, fmt::format("not on {}: only the Atlas inference AI Core (310P) has it",
                            aicore::product_name(c.product())));
  }
  if (type != aicore::DType::F16 && type != aicore::DType::F32 && type != aicore::DType::S32) {
    c.fail(api, fmt::format("element type {}: half, float or int32_t", aicore::dtype_name(type)));
  }
  if (src.space != aicore::MemSpace::UB || dst.space != aicore::MemSpace::L0C) {
    c.fail(api, fmt::format("{} -> {}: src must be in UB (VECIN/VECCALC/VECOUT), dst in L0C (CO1)",
                            aicore::mem_space_name(src.space), aicore::mem_space_name(dst.space)));
  }
  if (block_count < 1 || block_count > 255) c.fail(api, fmt::format("blockCount {} out of range [1, 255]", block_count));
  if (block_len < 1 || block_len > 255) c.fail(api, fmt::format("blockLen {} out of range [1, 255]", block_len));
  const uint32_t size = aicore::dtype_size(type);
  if (dst.addr % (256 * size) != 0) {
    c.fail(api, fmt::format("dst L0C address 0x{:x} is not aligned to 256 elements ({} B)", dst.addr, 256 * size));
  }
  if (src.addr % 32 != 0) c.fail(api, fmt::format("src UB address 0x{:x} is not 32 B aligned", src.addr));
  aicore::DataMove m;
  m.pipe = aicore::Pipe::V;
  m.dst = {dst.space, dst.addr};
  m.src = {src.space, src.addr};
  m.block_count = uint32_t(block_count);
  m.block_len = block_len;
  m.src_gap = src_gap;
  m.dst_gap = dst_gap;
  m.unit = 16 * size;
  m.elem_size = size;
  m.src_type = m.dst_type = type;
  m.broadcast = true;
  c.issue(m);
}

}  // namespace npuvp::ascendc
