// Names kernels of both CANN generations use that npuvp only needs to accept or answer:
// function and address-space qualifiers (SIMD-BuiltIn关键字 of the Ascend C guide), the core
// type a kernel reads (g_coreType) and the system constants (系统资源与变量 pages).
#pragma once
#include <cstdint>
#include "sw/ascendc/ascendc/separated.h"

// Qualifiers. Kernels run natively, so they mean nothing here. __cube__, __vector__ and
// __mix__(cube, vec) choose the cores a kernel launches on in CANN; npuvp takes the kernel
// type from KERNEL_TASK_TYPE_DEFAULT or the launch (docs/writing-kernels.md).
#ifndef __cube__
#define __cube__
#endif
#ifndef __vector__
#define __vector__
#endif
#ifndef __mix__
#define __mix__(cube, vec)
#endif
#ifndef __schedmode__
#define __schedmode__(mode)
#endif
#ifndef __host__
#define __host__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __fbuf__
#define __fbuf__
#endif
#ifndef __ssbuf__
#define __ssbuf__
#endif

namespace npuvp::ascendc {
uint32_t ub_size_bytes();  // the running core's UB size
}  // namespace npuvp::ascendc

namespace AscendC {

// The kinds of core a kernel body asks about (`g_coreType == AIV`).
enum CoreType : int32_t { AIC = 0, AIV = 1, MIX = 2 };

// g_coreType reads as the running core's type: AIC on a cube core, AIV on a vector core. A
// coupled core has both units; it reads AIV (ASCEND_IS_AIV and ASCEND_IS_AIC are both true
// there).
struct RunningCoreType {
  operator CoreType() const { return npuvp::ascendc::core_is_aic() && !npuvp::ascendc::core_is_aiv() ? AIC : AIV; }
};
inline constexpr RunningCoreType g_coreType{};
inline bool operator==(RunningCoreType a, CoreType b) { return static_cast<CoreType>(a) == b; }
inline bool operator!=(RunningCoreType a, CoreType b) { return static_cast<CoreType>(a) != b; }
inline bool operator==(CoreType b, RunningCoreType a) { return static_cast<CoreType>(a) == b; }
inline bool operator!=(CoreType b, RunningCoreType a) { return static_cast<CoreType>(a) != b; }

// One DataBlock: 32 B on every modelled product (GetDataBlockSizeInBytes.md).
constexpr int16_t GetDataBlockSizeInBytes() { return 32; }
// One vector repeat: 256 B (GetVecLen.md).
constexpr uint32_t GetVecLen() { return 256; }
// The UB size of the running core's product. CANN makes it a constant of the compiled
// product; here one binary serves every product, so it is asked at run time.
inline uint32_t GetUBSizeInBytes() { return npuvp::ascendc::ub_size_bytes(); }
inline uint32_t GetRuntimeUBSize() { return npuvp::ascendc::ub_size_bytes(); }

}  // namespace AscendC
