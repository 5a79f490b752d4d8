// What kernels for separated chips (A2, 910B) use: the kernel type, which core is running
// (ASCEND_IS_AIC / ASCEND_IS_AIV, sub-blocks) and the cross-core flags (SPEC.md §1.1, §1.7).
#pragma once
#include "sw/ascendc/ascendc/types.h"

// Ascend C kernel types. The AIV_1_0 / AIC_1_0 forms (a pure vector or cube kernel that uses
// cross-core flags) dispatch as AIV-only / AIC-only.
enum KernelMetaType {
  KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  // issue 22: the coupled products' types (设置Kernel类型.md); VECTORCORE and MIX_AICORE are
  // reserved there and fail here.
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE,
  KERNEL_TYPE_MAX,
};

namespace npuvp::ascendc {
void declare_kernel_type(KernelMetaType type);
bool core_is_aic();
bool core_is_aiv();
void cross_core_set_flag(uint32_t mode, aicore::Pipe pipe, uint16_t id);
void cross_core_wait_flag(uint32_t mode, aicore::Pipe pipe, uint16_t id);
}  // namespace npuvp::ascendc

// In a kernel body, before anything else: the cores its blocks run on.
#define KERNEL_TASK_TYPE_DEFAULT(type) ::npuvp::ascendc::declare_kernel_type(type)

// True on the cores of that kind; a coupled core has both units, so both are true there.
#define ASCEND_IS_AIC (::npuvp::ascendc::core_is_aic())
#define ASCEND_IS_AIV (::npuvp::ascendc::core_is_aiv())
#define ASCEND_IS_NOT_AIC (!ASCEND_IS_AIC)
#define ASCEND_IS_NOT_AIV (!ASCEND_IS_AIV)

namespace AscendC {

int64_t GetSubBlockIdx();
int64_t GetSubBlockNum();
int64_t GetTaskRation();
inline int64_t GetTaskRatio() { return GetTaskRation(); }

// Counts up the flag-`flagId` counters of the cores `modeId` names, in `pipe` after its
// earlier instructions (mode 0: all AICs or all AIVs of the launch; 1: the AIVs of this AI
// Core; 2: the AIC and its AIVs).
template <uint8_t modeId, pipe_t pipe>
void CrossCoreSetFlag(uint16_t flagId) {
  static_assert(pipe != PIPE_S && pipe != PIPE_ALL, "CrossCoreSetFlag runs on a pipe other than PIPE_S and PIPE_ALL");
  npuvp::ascendc::cross_core_set_flag(modeId, npuvp::ascendc::pipe_of(pipe), flagId);
}
// Blocks `pipe` (the scalar unit by default) until this core's flag-`flagId` counter is above
// 0, then counts it down.
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
void CrossCoreWaitFlag(uint16_t flagId) {
  static_assert(pipe != PIPE_ALL, "CrossCoreWaitFlag cannot run on PIPE_ALL");
  npuvp::ascendc::cross_core_wait_flag(modeId, npuvp::ascendc::pipe_of(pipe), flagId);
}

}  // namespace AscendC
