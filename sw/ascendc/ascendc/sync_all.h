// SyncAll: every core of a launch waits until all of them have reached it.
//  - hard form, SyncAll<isAIVOnly>() (Atlas A2 only): the cores meet at the chip's barrier;
//    isAIVOnly=true synchronises the AIVs of the launch, false every AIC and AIV of a mixed one.
//  - soft form, SyncAll<true>(gmWorkspace, ubWorkspace, usedCores = 0): through GM, as CANN
//    builds it: each core counts its own 32 B slot of gmWorkspace up by one, then reads every
//    participant's slot until all have counted as far. gmWorkspace (int32_t, zeroed before the
//    launch) and ubWorkspace (int32_t, UB) must each hold GetBlockNum() * 32 bytes.
// Both need every participating block resident at once (blockDim within the cores the kernel
// type runs on); otherwise an error, where the hardware would hang. A core that never arrives
// stalls the others, which the platform reports as a deadlock naming SyncAll.
// Reference: docs/zh/api/SIMD-API/基础API/同步控制/核间同步/SyncAll.md of the Ascend C devkit.
#pragma once
#include "sw/ascendc/ascendc/tensor.h"

namespace npuvp::ascendc {
void sync_all_hard(bool aiv_only);
void sync_all_soft(bool aiv_only, const void* gm_workspace, uint64_t gm_elements, aicore::MemSpace ub_space,
                   uint64_t ub_addr, uint64_t ub_elements, int32_t used_cores);
}  // namespace npuvp::ascendc

namespace AscendC {

template <bool isAIVOnly = true>
void SyncAll() {
  npuvp::ascendc::sync_all_hard(isAIVOnly);
}

template <bool isAIVOnly = true>
void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
             const int32_t usedCores = 0) {
  npuvp::ascendc::sync_all_soft(isAIVOnly, gmWorkspace.GetPhyAddr(), gmWorkspace.GetSize(), ubWorkspace.space(),
                                ubWorkspace.GetPhyAddr(), ubWorkspace.GetSize(), usedCores);
}

}  // namespace AscendC
