// The non-template halves of kernel_names.h, list_tensor.h and sort.h.
#include <fmt/format.h>

#include "models/aicore/ai_core.h"
#include "models/aicore/local_buffer.h"
#include "models/aicore/product.h"
#include "models/aicore/vector_unit.h"
#include "sw/ascendc/kernel_operator.h"

namespace npuvp::ascendc {

uint32_t ub_size_bytes() {
  aicore::LocalBuffer* ub = core().buffer(aicore::MemSpace::UB);
  return ub ? static_cast<uint32_t>(ub->size()) : 0;
}

void list_tensor_fail(const char* api, const char* why, uint64_t a, uint64_t b) {
  core().fail(api, fmt::format(fmt::runtime(why), a, b));
}

void api_fail(const char* api, const char* why) { core().fail(api, why); }

bool running_on_a2() { return aicore::is_a2(core().product()); }

void require_a2(const char* api) {
  aicore::AiCore& c = core();
  if (!aicore::is_a2(c.product())) {
    c.fail(api, fmt::format("{} exists on the A2 products (Atlas A2/A3, 910B) only; this is a {}", api, c.kind_text()));
  }
}

void mrg_sort_result(uint16_t taken[4]) {
  aicore::AiCore& c = core();
  if (!aicore::is_a2(c.product())) {
    c.fail("GetMrgSortResult", fmt::format("GetMrgSortResult of MrgSort exists on the A2 products only; this is a {}",
                                           c.kind_text()));
  }
  c.barrier_all();  // the register is written when the MrgSort executes
  const aicore::VectorUnit::MrgSortResult& r = c.vector_unit().mrg_sort_result();
  for (int q = 0; q < 4; ++q) taken[q] = r.taken[q];
}

}  // namespace npuvp::ascendc
