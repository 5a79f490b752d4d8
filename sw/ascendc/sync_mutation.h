// A test knob for the sanitizer's mutation test (tests/kernels/sanitizer_mutation_test.cpp):
// records the SetFlags block 0 issues through the kernel API (hand-written ones and those of
// TQue's EnQue/FreeTensor), and drops one of them together with the WaitFlag it pairs with
// (the k-th SetFlag of a (src, dst, id) pairs with the k-th WaitFlag of it), as if the kernel's
// author had left that pair out. Not a public header: kernels never see it.
#pragma once
#include <cstdint>
#include <vector>
#include "models/aicore/isa_types.h"

namespace npuvp::ascendc::mutation {

struct FlagPair {
  aicore::Pipe src = aicore::Pipe::S, dst = aicore::Pipe::S;
  uint32_t id = 0;
  uint32_t occurrence = 0;  // 0: the first SetFlag of (src, dst, id)
  bool queue = false;       // issued by TQue (EnQue -> DeQue, FreeTensor -> AllocTensor)
};

void record(bool on);
const std::vector<FlagPair>& recorded();
void drop(const FlagPair& pair);
bool dropped_any();  // whether the dropped pair's SetFlag was reached
bool dropped_wait();  // whether its WaitFlag was reached (false: nothing ever waited on that set)

// Called by set_flag/wait_flag: true if this one is to be left out.
bool skip_set(aicore::Pipe src, aicore::Pipe dst, uint32_t id);
bool skip_wait(aicore::Pipe src, aicore::Pipe dst, uint32_t id);
// TQue's flags are issued inside this scope.
void queue_scope(bool on);

}  // namespace npuvp::ascendc::mutation
