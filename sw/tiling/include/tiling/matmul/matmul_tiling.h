// CANN's host-side Matmul tiling (matmul_tiling::MatmulApiTiling, MultiCoreMatmulTiling): the
// host describes A, B, C and bias (position, format, type, transposition), the shape and the
// cores, and GetTiling fills the TCubeTiling the kernel's Matmul object runs from. Names and
// signatures follow CANN 8.1 (lib/matmul/matmul_tiling_base.h, bmm_tiling.h; hiascend.com
// "Matmul Tiling" pages); GetTiling returns -1 when no tiling fits (a shape or type not set, a
// transposition or split the chip cannot hold), 0 otherwise.
//
// How npuvp chooses the tiles (sw/tiling/matmul_tiling.cpp says why): the base block of C that
// L0C holds and needs the fewest GM bytes per cube cycle (128 x 256 where it fits and the
// cores all get blocks, else 128 x 128, smaller when the core's share is), baseK as deep as half
// of L0A/L0B holds (the next K step loads while the cube computes), stepKa/stepKb K steps per
// L1 load, two L1 loads in flight; the cores split M x N into the grid that gives the busiest
// core the fewest base blocks; blocks along M first (iterateOrder 0) unless SetTraverse(FIRSTN). Differs from CANN: the values are npuvp's own choice for the modelled buffers,
// not CANN's; batch matmul (BatchMatmulTiling), split-K and the layouts (SetALayout...) are
// not modelled.
#pragma once
#include <cstdint>
#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// The host form of TCubeTiling (the same bytes as the kernel's struct).
#define NPUVP_TCUBE_HOST_FIELD(name) TILING_DATA_FIELD_DEF(int32_t, name);
BEGIN_TILING_DATA_DEF(TCubeTiling)
NPUVP_TCUBE_TILING_FIELDS(NPUVP_TCUBE_HOST_FIELD)
 public:
  // A kernel that reads its tiling class with GET_TILING_DATA holds this host form where CANN's
  // generated kernel struct holds the plain TCubeTiling (`const TCubeTiling& t =
  // tilingData.cubeTilingData;`): the same bytes, so the reference is the kernel's.
  operator const ::TCubeTiling&() const { return *reinterpret_cast<const ::TCubeTiling*>(this); }
  operator ::TCubeTiling&() { return *reinterpret_cast<::TCubeTiling*>(this); }
END_TILING_DATA_DEF;
#undef NPUVP_TCUBE_HOST_FIELD
}  // namespace optiling
static_assert(sizeof(optiling::TCubeTiling) == sizeof(TCubeTiling), "one layout");

namespace matmul_tiling {

enum class DataType : int32_t {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT32 = 8,
  DT_INT64 = 9,
  DT_UINT64 = 10,
  DT_DOUBLE = 11,
  DT_BOOL = 12,
  DT_BF16 = 27,
  DT_UNDEFINED = 28,
  DT_INT4 = 29,
  DT_BFLOAT16 = 33,
  DT_MAX = 34
};

enum class TPosition : int32_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  MAX,
};

enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };

enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1 };
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1 };

struct SysTilingTempBufSize {
  int32_t ubSize = 0;
  int32_t l1Size = 0;
  int32_t l0cSize = 0;
};

struct MatTilingType {
  TPosition pos = TPosition::GM;
  CubeFormat type = CubeFormat::ND;
  DataType dataType = DataType::DT_FLOAT;
  bool isTrans = false;
  bool isDB = false;
};

struct BufferPool {
  int32_t l1Size = 0;
  int32_t l0CSize = 0;
  int32_t ubSize = 0;
  int32_t l0ASize = 0;
  int32_t l0BSize = 0;
  int32_t btSize = 0;
};

struct PlatformInfo {
  platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
  uint64_t l1Size = 0;
  uint64_t l0CSize = 0;
  uint64_t ubSize = 0;
  uint64_t l0ASize = 0;
  uint64_t l0BSize = 0;
};

class MatmulApiTilingBase {
 public:
  // The process's platform (PlatformAscendCManager), a given one, or explicit buffer sizes.
  MatmulApiTilingBase();
  explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform);
  explicit MatmulApiTilingBase(const PlatformInfo& platform);
  virtual ~MatmulApiTilingBase();

  int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType);
  int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType);
  int32_t SetDequantType(DequantType dequantType) {
    deqType = dequantType;
    return 0;
  }
  virtual int32_t SetShape(int32_t m, int32_t n, int32_t k);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn);
  int32_t EnableBias(bool isBiasIn = false);
  int32_t SetBias(bool isBiasIn = false);
  // Fixes baseM/baseN/baseK (-1: npuvp chooses); each a multiple of 16 (baseK: of the 32 B
  // block in elements of A's type).
  int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1);
  // The buffer bytes the Matmul may use (-1: all of the core's).
  int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1);
  int32_t SetTraverse(MatrixTraverse traverse);
  int32_t SetMadType(MatrixMadType madType);
  int32_t SetSplitRange(int32_t maxBaseM = -1, int32_t maxBaseN = -1, int32_t maxBaseK = -1, int32_t minBaseM = -1,
                        int32_t minBaseN = -1, int32_t minBaseK = -1);
  int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true, bool transNZ2ND = true);
  void SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                             ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                             MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false);

  int32_t GetBaseM() const { return baseM; }
  int32_t GetBaseN() const { return baseN; }
  int32_t GetBaseK() const { return baseK; }

  virtual int64_t GetTiling(optiling::TCubeTiling& tiling) = 0;
  virtual int64_t GetTiling(TCubeTiling& tiling) = 0;

 public:
  optiling::TCubeTiling tiling_;
  MatTilingType aType_;
  MatTilingType bType_;
  MatTilingType cType_;
  MatTilingType biasType_;
  bool isBias = false;
  int32_t blockDim = 0;
  int32_t orgM = 0;
  int32_t orgN = 0;
  int32_t orgKa = 0;
  int32_t orgKb = 0;
  int32_t singleM = 0;
  int32_t singleN = 0;
  int32_t singleK = 0;
  int32_t singleCoreM = 0;
  int32_t singleCoreN = 0;
  int32_t singleCoreK = 0;
  int32_t baseM = 0;
  int32_t baseN = 0;
  int32_t baseK = 0;
  BufferPool oriBufferPool_;
  BufferPool bufferPool_;
  MatrixTraverse traverse_ = MatrixTraverse::NOSET;
  MatrixMadType madType_ = MatrixMadType::NORMAL;
  DequantType deqType = DequantType::SCALAR;
  bool enableSplitK_ = false;
  platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
  int32_t mmConfigType = 1;  // 0: NORM, 1: MDL

 protected:
  virtual int64_t Compute() = 0;
  // The tiling for `cores` cores (1: one core's); -1 when none fits.
  int64_t ComputeFor(int32_t cores);

  int32_t fixBaseM_ = -1, fixBaseN_ = -1, fixBaseK_ = -1;
  int32_t typesSet_ = 0;  // bit 0: A, 1: B, 2: C
};

// One core's tiling.
class MatmulApiTiling : public MatmulApiTilingBase {
 public:
  MatmulApiTiling() {}
  explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
      : MatmulApiTilingBase(ascendcPlatform) {}
  explicit MatmulApiTiling(const PlatformInfo& platform) : MatmulApiTilingBase(platform) {}
  ~MatmulApiTiling() override = default;
  int64_t GetTiling(optiling::TCubeTiling& tiling) override;
  int64_t GetTiling(TCubeTiling& tiling) override;

 protected:
  int64_t Compute() override;
};

// The tiling of a matmul shared by several cores (SetDim).
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
 public:
  MultiCoreMatmulTiling() {}
  explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
      : MatmulApiTilingBase(ascendcPlatform) {}
  explicit MultiCoreMatmulTiling(const PlatformInfo& platform) : MatmulApiTilingBase(platform) {}
  // The cores the matmul may use (on a separated chip in a mixed kernel: AIVs).
  int32_t SetDim(int32_t dim);
  int32_t SetShape(int32_t m, int32_t n, int32_t k) override;
  virtual int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1);
  int64_t GetTiling(optiling::TCubeTiling& tiling) override;
  int64_t GetTiling(TCubeTiling& tiling) override;
  virtual int32_t SetSingleRange(int32_t maxM = -1, int32_t maxN = -1, int32_t maxK = -1, int32_t minM = -1,
                                 int32_t minN = -1, int32_t minK = -1) {
    (void)maxM, (void)maxN, (void)maxK, (void)minM, (void)minN, (void)minK;
    return 0;
  }
  int32_t SetAlignSplit(int32_t alignM, int32_t alignN, int32_t alignK);
  int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK);
  // The cores the last GetTiling uses, and its split of M and N.
  int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim);
  void EnableMultiCoreSplitK(bool flag) { enableSplitK_ = flag; }
  void SetSplitK(bool flag) { EnableMultiCoreSplitK(flag); }

 protected:
  int64_t Compute() override;
};

}  // namespace matmul_tiling

extern "C" {
int32_t MatmulGetTmpBufSize(optiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize);
int32_t MatmulGetTmpBufSizeV2(TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize);
int32_t MultiCoreMatmulGetTmpBufSize(optiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize);
int32_t MultiCoreMatmulGetTmpBufSizeV2(TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize);
}
