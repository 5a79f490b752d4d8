// Pipe synchronisation (SPEC.md §1.7) and block identity.
#pragma once
#include "sw/ascendc/ascendc/types.h"

namespace npuvp::ascendc {
void set_flag(aicore::Pipe src, aicore::Pipe dst, int32_t id);
void wait_flag(aicore::Pipe src, aicore::Pipe dst, int32_t id);
void pipe_barrier(aicore::Pipe pipe);
}  // namespace npuvp::ascendc

namespace AscendC {

template <HardEvent event>
void SetFlag(int32_t eventID) {
  npuvp::ascendc::set_flag(npuvp::ascendc::event_src(event), npuvp::ascendc::event_dst(event), eventID);
}
template <HardEvent event>
void WaitFlag(int32_t eventID) {
  npuvp::ascendc::wait_flag(npuvp::ascendc::event_src(event), npuvp::ascendc::event_dst(event), eventID);
}
template <pipe_t pipe>
void PipeBarrier() {
  npuvp::ascendc::pipe_barrier(npuvp::ascendc::pipe_of(pipe));
}

int64_t GetBlockIdx();
int64_t GetBlockNum();
// The system counter (core.system_counter_mhz, 50 MHz as on A2): a scalar instruction, so it
// does not wait for the pipes; put PipeBarrier<PIPE_ALL>() before it to time their work.
int64_t GetSystemCycle();

}  // namespace AscendC

// The intrinsic spellings older kernels use.
inline void set_flag(pipe_t src, pipe_t dst, event_t id) {
  npuvp::ascendc::set_flag(npuvp::ascendc::pipe_of(src), npuvp::ascendc::pipe_of(dst), id);
}
inline void wait_flag(pipe_t src, pipe_t dst, event_t id) {
  npuvp::ascendc::wait_flag(npuvp::ascendc::pipe_of(src), npuvp::ascendc::pipe_of(dst), id);
}
inline void pipe_barrier(pipe_t pipe) { npuvp::ascendc::pipe_barrier(npuvp::ascendc::pipe_of(pipe)); }
inline int64_t get_block_idx() { return AscendC::GetBlockIdx(); }
inline int64_t get_block_num() { return AscendC::GetBlockNum(); }
