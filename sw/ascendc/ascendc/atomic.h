// GM atomics (Ascend C "原子操作": SetAtomicAdd/Max/Min/Type, SetAtomicNone, DisableDmaAtomic).
// While a mode is set, the GM writes of the data moves the core issues (UB -> GM on MTE3,
// L0C -> GM on FIX) are read-modify-writes: each write carries the op to the L2 slice that
// owns its address, which combines the bytes with what GM holds (models/memory/atomic_rmw.h).
// The mode is captured when an instruction is issued, so `SetAtomicAdd<float>(); DataCopy(...);
// SetAtomicNone();` needs no barrier.
// Reference: docs/zh/api/SIMD-API/基础API/原子操作/SetAtomicAdd.md (and SetAtomicMax(ISASI).md,
// SetAtomicMin(ISASI).md, SetAtomicType.md, DisableDmaAtomic.md) of the Ascend C devkit.
#pragma once
#include "sw/ascendc/ascendc/types.h"

namespace npuvp::ascendc {
// op: 0 none, 1 add, 2 max, 3 min (AtomicExtension::Op); `api` names the call in errors.
void set_atomic(int op, aicore::DType type, const char* api);
void set_atomic_type(aicore::DType type, const char* api);
}  // namespace npuvp::ascendc

namespace AscendC {

template <class T>
void SetAtomicAdd() {
  npuvp::ascendc::set_atomic(1, npuvp::ascendc::DTypeOf<T>::value, "SetAtomicAdd");
}
template <class T>
void SetAtomicMax() {
  npuvp::ascendc::set_atomic(2, npuvp::ascendc::DTypeOf<T>::value, "SetAtomicMax");
}
template <class T>
void SetAtomicMin() {
  npuvp::ascendc::set_atomic(3, npuvp::ascendc::DTypeOf<T>::value, "SetAtomicMin");
}
// The element type of the mode already set (SetAtomicAdd and friends set it themselves).
template <class T>
void SetAtomicType() {
  npuvp::ascendc::set_atomic_type(npuvp::ascendc::DTypeOf<T>::value, "SetAtomicType");
}
inline void SetAtomicNone() { npuvp::ascendc::set_atomic(0, npuvp::aicore::DType::F32, "SetAtomicNone"); }
inline void DisableDmaAtomic() { npuvp::ascendc::set_atomic(0, npuvp::aicore::DType::F32, "DisableDmaAtomic"); }

}  // namespace AscendC

// The intrinsic spellings older kernels use.
inline void set_atomic_none() { AscendC::SetAtomicNone(); }
inline void set_atomic_add() { npuvp::ascendc::set_atomic(1, npuvp::aicore::DType::F32, "set_atomic_add"); }
inline void set_atomic_max() { npuvp::ascendc::set_atomic(2, npuvp::aicore::DType::F32, "set_atomic_max"); }
inline void set_atomic_min() { npuvp::ascendc::set_atomic(3, npuvp::aicore::DType::F32, "set_atomic_min"); }
inline void set_atomic_f32() { npuvp::ascendc::set_atomic_type(npuvp::aicore::DType::F32, "set_atomic_f32"); }
inline void set_atomic_f16() { npuvp::ascendc::set_atomic_type(npuvp::aicore::DType::F16, "set_atomic_f16"); }
inline void set_atomic_bf16() { npuvp::ascendc::set_atomic_type(npuvp::aicore::DType::BF16, "set_atomic_bf16"); }
inline void set_atomic_s32() { npuvp::ascendc::set_atomic_type(npuvp::aicore::DType::S32, "set_atomic_s32"); }
inline void set_atomic_s16() { npuvp::ascendc::set_atomic_type(npuvp::aicore::DType::S16, "set_atomic_s16"); }
inline void set_atomic_s8() { npuvp::ascendc::set_atomic_type(npuvp::aicore::DType::S8, "set_atomic_s8"); }
