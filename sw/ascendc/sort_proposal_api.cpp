// The product checks of lib/sort/sort_proposal.h (Concat, Extract, the lib MrgSort and the
// region-proposal instructions) and the lib MrgSort's read of MrgSort4's counts.
#include <fmt/format.h>

#include "models/aicore/ai_core.h"
#include "models/aicore/product.h"
#include "models/aicore/vector_unit.h"
#include "sw/ascendc/kernel_operator.h"

namespace npuvp::ascendc {

// asc-devkit 高阶API/排序操作 (Sort.md, Concat.md, Extract.md, MrgSort-93.md): the A2
// products and the Atlas inference AI Core, not the training products. (CANN lists the 310P's
// Vector Cores as without it; npuvp lets a kernel whose blocks reach them run there too, since
// a launch does not say which kind of core a block gets.)
void require_sort_product(const char* api) {
  aicore::AiCore& c = core();
  if (!aicore::is_a2(c.product()) && c.product() != aicore::Product::Ascend310P) {
    c.fail(api, fmt::format("{} exists on the A2 products and the Atlas inference AI Core (310P) only; this is a {}",
                            api, c.kind_text()));
  }
}

// 基础API 排序组合 (ProposalConcat.md, ProposalExtract.md, RpSort16.md, MrgSort4.md): the
// Atlas inference AI Core (half, float) and the Atlas training products (half).
void require_proposal_product(const char* api, bool is_float) {
  aicore::AiCore& c = core();
  const aicore::Product p = c.product();
  const bool ok = p == aicore::Product::Ascend310P || (p == aicore::Product::Ascend910 && !is_float);
  if (!ok) {
    c.fail(api, fmt::format("{} ({}) exists on the Atlas inference AI Core (310P; half, float) and the 910 (half) "
                            "only; this is a {}",
                            api, is_float ? "float" : "half", c.kind_text()));
  }
}

// MrgSort4 leaves its per-queue counts where MrgSort leaves them; the lib MrgSort reads them for
// sortedNum on the 310P (Ascend C has no GetMrgSortResult there, so this is not that API).
void proposal_merge_result(uint16_t taken[4]) {
  aicore::AiCore& c = core();
  c.barrier_all();  // the counts are written when the MrgSort4 executes
  const aicore::VectorUnit::MrgSortResult& r = c.vector_unit().mrg_sort_result();
  for (int q = 0; q < 4; ++q) taken[q] = r.taken[q];
}

}  // namespace npuvp::ascendc
