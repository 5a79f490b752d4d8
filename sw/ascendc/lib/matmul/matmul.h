// The high-level Matmul of Ascend C (hiascend.com Ascend C API "Matmul"; CANN 8.1
// lib/matmul_intf.h): C[singleCoreM x singleCoreN] = A x B (+ bias) on one core, from a
// TCubeTiling the host computed (tiling/tiling_api.h), computed baseM x baseN at a time.
//
//   Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,              // A (, isTrans)
//          MatmulType<TPosition::GM, CubeFormat::ND, half>,              // B
//          MatmulType<TPosition::GM, CubeFormat::ND, float>,             // C
//          MatmulType<TPosition::GM, CubeFormat::ND, float>, CFG_MDL> mm; // bias, config
//   REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
//   mm.SetTensorA(aGm); mm.SetTensorB(bGm); mm.SetBias(biasGm); mm.SetTail(tailM, tailN);
//   mm.IterateAll(cGm);     // or: while (mm.Iterate()) mm.GetTensorC(cGm);
//   mm.End();
//
// npuvp builds it from the cube instructions a kernel could issue itself (sw/ascendc/
// matmul_api.cpp): DataCopy ND->NZ to L1, LoadData to L0A/L0B, Mmad accumulating in f32 in
// L0C (bias from the BiasTable), Fixpipe to GM; results are the cube contract's (SPEC.md):
// exact products accumulated in f32 in increasing k from the bias. What runs where:
//  - coupled-style A2 cores (core910b) and AICs run the cube work themselves;
//  - in a mixed launch (KERNEL_TYPE_MIX_AIC_1_2) without ASCENDC_CUBE_ONLY, CANN's mixed
//    mode: an AIV's GetTensorC / IterateAll / End are requests to its AIC through the system
//    workspace (SetSysWorkspace first), which REGIST_MATMUL_OBJ makes serve both AIVs and
//    then return from the kernel body; elsewhere a Matmul on an AIV is an error naming it.
// Operands: A, B, C in GM, ND (C also to a VECIN/VECCALC tensor, ND baseM x baseN: an AIV's in
// mixed mode, or the 310P AI Core's own); A, B f16 (C f32 or f16) or int8 (C int32; B transposed); bias f32 in GM.
// f16 A and B may also be NZ in GM (the stored matrix [R, C] as [C/16, R rounded up to 16, 16]);
// C may be ND_ALIGN (rows of N rounded up to 32 B; the pad columns are not written).
#pragma once
#include <cstdint>
#include <type_traits>
#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"

// CANN declares the Matmul's formats and configs at global scope (CANN 8.1 lib/matmul/
// matmul_config.h): kernels name them unqualified (CubeFormat::ND, CFG_NORM) or as AscendC::
// (and matmul::) members, which the using-declarations below keep.

enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class LayoutMode : int32_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

enum class MatmulConfigMode : int32_t { CONFIG_NORM = 0, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };

// The documented config fields npuvp reads (the rest are accepted for source compatibility).
struct MatmulConfig {
  bool doNorm = true;
  bool doBasicBlock = false;
  bool doMultiDataLoad = false;
  uint32_t basicM = 0, basicN = 0, basicK = 0;
  bool intrinsicsCheck = false;
  bool isNBatch = false;
  bool enVecND2NZ = false;
  bool doSpecialBasicBlock = false;
  uint32_t doMTE2Preload = 0;
  uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
  uint32_t stepM = 0, stepN = 0;
  uint32_t baseMN = 0;
  uint32_t singleCoreMN = 0;
  bool enUnitFlag = true;
  bool isPerTensor = false;
  bool hasAntiQuantOffset = false;
  bool doIBShareNorm = false;
  bool doSpecialMDL = false;
  bool enableInit = true;
  bool enableEnd = true;
  bool enableGetTensorC = true;
  bool enableSetOrgShape = true;
  bool enableSetBias = true;
  bool enableSetTail = true;
  bool enableQuantVector = true;
  bool enableSetDefineData = true;
  uint8_t iterateMode = 0;
  bool enableReuse = true;
  bool enableUBReuse = false;
  bool enableL1CacheUB = false;
  bool intraBlockPartSum = false;
};

// NORM: one K step (baseK) per L1 load; MDL ("multi data load"): stepKa/stepKb K steps per
// L1 load, as the tiling says.
inline constexpr MatmulConfig CFG_NORM = {};
inline constexpr MatmulConfig CFG_MDL = [] {
  MatmulConfig c;
  c.doNorm = false;
  c.doMultiDataLoad = true;
  return c;
}();
inline constexpr MatmulConfig CFG_IBSHARE_NORM = {};
inline constexpr MatmulConfig MM_CFG_BB = CFG_NORM;

constexpr MatmulConfig GetNormalConfig(bool intrinsicsLimit = false, bool batchLoop = false, bool isVecND2NZ = false,
                                       int32_t bmmMode = 0, bool isMsgReuse = true, int32_t iterateOrder = 0,
                                       int32_t scheduleType = 0, bool enUnitFlag = true,
                                       bool enableMixDualMaster = false) {
  (void)bmmMode, (void)isMsgReuse, (void)iterateOrder, (void)scheduleType, (void)enableMixDualMaster;
  MatmulConfig c;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.enUnitFlag = enUnitFlag;
  return c;
}
constexpr MatmulConfig GetMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false, uint32_t doMTE2Preload = 0,
                                    bool isVecND2NZ = false, bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    bool enUnitFlag = false, bool isMsgReuse = true, bool enableUBReuse = true,
                                    bool enableL1CacheUB = false, bool enableMixDualMaster = false) {
  (void)isMsgReuse, (void)enableMixDualMaster;
  MatmulConfig c;
  c.doNorm = false;
  c.doMultiDataLoad = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.doMTE2Preload = doMTE2Preload;
  c.enVecND2NZ = isVecND2NZ;
  c.isPerTensor = isPerTensor;
  c.hasAntiQuantOffset = hasAntiQuantOffset;
  c.enUnitFlag = enUnitFlag;
  c.enableUBReuse = enableUBReuse;
  c.enableL1CacheUB = enableL1CacheUB;
  return c;
}

namespace AscendC {
using ::CubeFormat;
using ::LayoutMode;
using ::MatmulConfigMode;
using ::MatmulConfig;
using ::CFG_NORM;
using ::CFG_MDL;
using ::CFG_IBSHARE_NORM;
using ::MM_CFG_BB;
using ::GetNormalConfig;
using ::GetMDLConfig;

// One operand's position, format and element type (and, for A and B, whether it is stored
// transposed: isTrans lets SetTensorA/B's isTranspose take effect).
template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
  constexpr static TPosition pos = POSITION;
  constexpr static CubeFormat format = FORMAT;
  using T = TYPE;
  constexpr static bool isTrans = ISTRANS;
  constexpr static LayoutMode layout = LAYOUT;
  constexpr static bool ibShare = IBSHARE;
};

// a / b rounded up, and a rounded up to a multiple of b (b > 0): CANN's matmul headers give
// kernels these (samples compute their block offsets with Ceil).
template <typename T>
inline T Ceil(T a, T b) {
  return (a + b - 1) / b;
}
template <typename T>
inline T CeilAlign(T a, T b) {
  return Ceil(a, b) * b;
}

// The system workspace (the high-level APIs' part at the start of a kernel's workspace; the
// host sizes it with PlatformAscendC::GetLibApiWorkSpaceSize). Per core.
void SetSysWorkspace(GM_ADDR workspace);
inline void SetSysWorkSpace(GM_ADDR workspace) { SetSysWorkspace(workspace); }
GM_ADDR GetSysWorkSpacePtr();
// The user's part: `workspace` past the system workspace.
GM_ADDR GetUserWorkspace(GM_ADDR workspace);

}  // namespace AscendC

// ASCENDC_CUBE_ONLY (defined before this header): the Matmul runs on the AIC that calls it, even
// in a mixed launch (CANN's bare-mix samples).
#ifdef ASCENDC_CUBE_ONLY
static constexpr bool npuvp_matmul_cube_only = true;
#else
static constexpr bool npuvp_matmul_cube_only = false;
#endif

#ifndef ASCENDC_CUBE_ONLY
// The sim route's launches of this file's kernels (sw/cann/launch_chevrons.h): a kernel that
// declares no type runs as KERNEL_TYPE_MIX_AIC_1_2 on a separated chip, as CANN infers it.
namespace npuvp::acl {
template <class File>
struct KernelFileTag;
template <class File>
constexpr bool uses_mixed_matmul(KernelFileTag<File>*) {
  return true;
}
}  // namespace npuvp::acl
// The CPU-debug route: ICPU_RUN_KF without SetKernelMode runs mixed once a kernel file using
// the Matmul is loaded (CANN's default there is MIX_MODE).
#ifndef NPUVP_MATMUL_ENGINE_SOURCE
namespace npuvp::runtime {
bool note_mixed_matmul_kernel_file();
inline const bool mixed_matmul_kernel_file_noted = note_mixed_matmul_kernel_file();
}  // namespace npuvp::runtime
#endif
#endif

namespace npuvp::ascendc {

// The Matmul object's engine, compiled into the library: the template below only names types
// and positions. One per Matmul object; it owns its local buffers (taken from the TPipe).
class MatmulEngine {
 public:
  struct Types {
    aicore::DType a, b, c, bias;
    bool a_trans_allowed, b_trans_allowed;
    bool multi_data_load;  // CFG_MDL
    bool cube_only;        // ASCENDC_CUBE_ONLY
    // The MatmulType formats (AscendC::CubeFormat values): A and B ND or NZ, C ND or ND_ALIGN.
    int32_t a_format, b_format, c_format;
  };
  MatmulEngine();
  ~MatmulEngine();
  MatmulEngine(const MatmulEngine&) = delete;
  MatmulEngine& operator=(const MatmulEngine&) = delete;

  void init(const TCubeTiling* tiling, AscendC::TPipe* pipe, const Types& types);
  void set_org_shape(int m, int n, int ka, int kb);
  void set_single_shape(int m, int n, int k);
  void set_tail(int m, int n, int k);
  void set_a(CopyEnd a, bool transpose);
  void set_b(CopyEnd b, bool transpose);
  void set_bias(CopyEnd bias);
  void disable_bias();
  // SetLocalWorkspace: UB the 310P's C drain (and bias) may use instead of buffers of its own.
  void set_local_workspace(CopyEnd ub, uint32_t bytes);
  bool iterate(bool partial_sum);
  // The C block of the last iterate to dst (GM: at its place in C, row pitch N, or with
  // `sequential` at dst itself, row pitch baseN; local: ND baseM x baseN at dst).
  void get_tensor_c(CopyEnd dst, uint8_t atomic, bool sequential = false);
  void iterate_all(CopyEnd dst, uint8_t atomic);
  void end();
  // CANN's mixed mode (a separated chip's MIX_AIC_1_2 launch without ASCENDC_CUBE_ONLY): on
  // the AIC, serves its AIVs' Matmul requests until both have ended, then returns true (the
  // kernel body returns); false elsewhere. On an AIV the object is the client of its AIC.
  static bool serve_if_mixed_aic(bool cube_only);
  // Ends the kernel body as a return from it would (REGIST_MATMUL_OBJ on the serving AIC).
  [[noreturn]] static void end_kernel_body();

  struct State;  // sw/ascendc/matmul_api.cpp

 private:
  State* s_ = nullptr;
};

}  // namespace npuvp::ascendc

// The host form of TCubeTiling (tiling/matmul/matmul_tiling.h), which GET_TILING_DATA gives a
// kernel: accepted wherever the kernel struct is (the same bytes).
namespace optiling {
class TCubeTiling;
}

namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = MatmulType<TPosition::GM, CubeFormat::ND, float>,
          const MatmulConfig& MM_CFG = CFG_NORM, class MM_CB = void>
class Matmul {
 public:
  using SrcAT = typename A_TYPE::T;
  using SrcBT = typename B_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;

  void Init(const TCubeTiling* cubeTiling, TPipe* tpipe = nullptr) {
    engine_.init(cubeTiling, tpipe,
                 {npuvp::ascendc::DTypeOf<SrcAT>::value, npuvp::ascendc::DTypeOf<SrcBT>::value,
                  npuvp::ascendc::DTypeOf<DstT>::value, npuvp::ascendc::DTypeOf<BiasT>::value, A_TYPE::isTrans,
                  B_TYPE::isTrans, MM_CFG.doMultiDataLoad, npuvp_matmul_cube_only,
                  static_cast<int32_t>(A_TYPE::format), static_cast<int32_t>(B_TYPE::format),
                  static_cast<int32_t>(C_TYPE::format)});
  }
  void Init(const optiling::TCubeTiling* cubeTiling, TPipe* tpipe = nullptr) {
    Init(reinterpret_cast<const TCubeTiling*>(cubeTiling), tpipe);
  }
  void SetOrgShape(int orgM, int orgN, int orgK) { engine_.set_org_shape(orgM, orgN, orgK, orgK); }
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
    (void)orgKc;
    engine_.set_org_shape(orgM, orgN, orgKa, orgKb);
  }
  void SetSingleShape(int singleM, int singleN, int singleK) { engine_.set_single_shape(singleM, singleN, singleK); }
  void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) { engine_.set_tail(tailM, tailN, tailK); }
  void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false) {
    engine_.set_a(npuvp::ascendc::end_of(gm), isTransposeA);
  }
  void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false) {
    engine_.set_b(npuvp::ascendc::end_of(gm), isTransposeB);
  }
  void SetBias(const GlobalTensor<BiasT>& biasGlobal) { engine_.set_bias(npuvp::ascendc::end_of(biasGlobal)); }
  void DisableBias() { engine_.disable_bias(); }
  void ClearBias() { engine_.disable_bias(); }
  // The UB CANN's implementation needs on the Atlas inference AI Core (310P) for C's format
  // change: npuvp drains C through it there (L0C -> UB -> GM or the local C) instead of taking
  // UB of its own; elsewhere it is not used.
  void SetLocalWorkspace(const LocalTensor<uint8_t>& tmpBuffer) {
    engine_.set_local_workspace(npuvp::ascendc::end_of(tmpBuffer), tmpBuffer.GetSize());
  }
  void SetWorkspace(GM_ADDR addr, int size) { (void)addr, (void)size; }
  template <class T>
  void SetWorkspace(const GlobalTensor<T>& addr) { (void)addr; }

  // Computes the next baseM x baseN block of C into L0C; false when every block is done.
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false) {
    return engine_.iterate(enPartialSum);
  }
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false) {
    engine_.get_tensor_c(npuvp::ascendc::end_of(gm), enAtomic, enSequentialWrite);
  }
  template <bool sync = true>
  void GetTensorC(const LocalTensor<DstT>& c, uint8_t enAtomic = 0, bool enSequentialWrite = false) {
    (void)enSequentialWrite;
    engine_.get_tensor_c(npuvp::ascendc::end_of(c), enAtomic);
  }
  template <bool sync = true>
  void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                  bool waitIterateAll = false, bool fakeMsg = false) {
    (void)enSequentialWrite, (void)waitIterateAll, (void)fakeMsg;
    engine_.iterate_all(npuvp::ascendc::end_of(gm), enAtomic);
  }
  template <bool sync = true>
  void IterateAll(const LocalTensor<DstT>& c, uint8_t enAtomic = 0) {
    engine_.iterate_all(npuvp::ascendc::end_of(c), enAtomic);
  }
  void WaitIterateAll() {}
  void End() { engine_.end(); }

 private:
  npuvp::ascendc::MatmulEngine engine_;
};

}  // namespace AscendC

// CANN's samples write `using namespace matmul;` and name the types from there.
namespace matmul {
using namespace AscendC;
}

namespace npuvp::ascendc::detail {
inline void regist_matmul(AscendC::TPipe*) {}
template <class MM>
void regist_matmul(AscendC::TPipe*, MM&) {}  // registered without a tiling: the kernel calls Init
template <class MM, class Next, class... Rest>
void regist_matmul(AscendC::TPipe* pipe, MM& mm, Next&& next, Rest&&... rest) {
  if constexpr (std::is_convertible<Next, const TCubeTiling*>::value) {
    const TCubeTiling* tiling = next;
    if (tiling != nullptr) mm.Init(tiling, pipe);
    regist_matmul(pipe, rest...);
  } else if constexpr (std::is_convertible<Next, const optiling::TCubeTiling*>::value) {
    // A tiling read with GET_TILING_DATA: the host class, the kernel struct's bytes.
    const optiling::TCubeTiling* tiling = next;
    if (tiling != nullptr) mm.Init(reinterpret_cast<const TCubeTiling*>(tiling), pipe);
    regist_matmul(pipe, rest...);
  } else {
    regist_matmul(pipe, next, rest...);
  }
}
}  // namespace npuvp::ascendc::detail

// REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm1[, &tiling1][, mm2[, &tiling2]]...):
// registers the kernel's Matmul objects and initialises each from its tiling. In a mixed
// launch (without ASCENDC_CUBE_ONLY) the AIC then serves its AIVs' Matmul calls and returns
// from the kernel body, as CANN's does.
// The AIC leaves the body by an exception the core catches (as a return would end it), so the
// macro works in functions of any return type, not only void ones.
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                                       \
  if (((void)(workspace), ::npuvp::ascendc::detail::regist_matmul(tpipe, __VA_ARGS__), \
       ::npuvp::ascendc::MatmulEngine::serve_if_mixed_aic(npuvp_matmul_cube_only)))    \
  ::npuvp::ascendc::MatmulEngine::end_kernel_body()
