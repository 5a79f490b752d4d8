// The UB the lib/ APIs without a sharedTmpBuffer borrow (lib_common.h, stack_buffer): the
// sanitizer counts it as a buffer of the block, as TPipe's InitBuffer regions are.
#include "sw/ascendc/lib/lib_common.h"

#include "models/aicore/ai_core.h"
#include "models/check/sanitizer.h"

namespace npuvp::ascendc::lib {

void borrowed_ub(uint64_t addr, uint64_t size) {
  auto* san = npuvp::check::Sanitizer::active();
  const aicore::AiCore* c = aicore::AiCore::current();
  if (san && c && size > 0) san->local_buffer(c->id(), aicore::MemSpace::UB, addr, size, "lib temporary buffer");
}

}  // namespace npuvp::ascendc::lib
