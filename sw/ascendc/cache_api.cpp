// Data- and instruction-cache maintenance (sw/ascendc/ascendc/cache.h).
#include "models/aicore/ai_core.h"
#include "sw/ascendc/kernel_operator.h"

namespace npuvp::ascendc {
void cache_maintenance(const char* api) {
  (void)api;
  aicore::AiCore& c = core();
  c.charge_scalar(c.params().scalar_issue_cycles);
}
}  // namespace npuvp::ascendc
