// matmul_tiling: the host side of the high-level Matmul (tiling/matmul/matmul_tiling.h).
//
// The tiles, chosen so the cube is the busy unit on every modelled chip (the same reasoning
// as sw/kernels/matmul.cpp):
//  - C in base blocks of up to 128 x 128 (f32 in L0C: 64 KiB, double-buffered when L0C holds
//    two, so FixPipe drains one block while the next accumulates);
//  - baseK as deep as half of L0A and of L0B holds, so MTE1 loads the next K step while the
//    cube multiplies the current one, and each Mmad is long against its fixed cost;
//  - stepKa/stepKb K steps per L1 load (one MTE2 transfer pays its start cost once for
//    several steps), two L1 loads of A and of B in flight (depthA1 = 2 stepKa);
//  - the cores split C into an mDim x nDim grid of rectangles giving the busiest core the
//    fewest base blocks; among equals, the least GM traffic (A's rows once per column of
//    blocks, B's columns once per row).
#include "tiling/matmul/matmul_tiling.h"

#include <algorithm>
#include <cstring>

namespace matmul_tiling {
namespace {

constexpr int32_t kFractal = 16;

int32_t ceil_div(int32_t a, int32_t b) { return (a + b - 1) / b; }
int32_t round_up(int32_t a, int32_t b) { return ceil_div(a, b) * b; }

int32_t bytes_of(DataType t) {
  switch (t) {
    case DataType::DT_FLOAT: case DataType::DT_INT32: case DataType::DT_UINT32: return 4;
    case DataType::DT_FLOAT16: case DataType::DT_BF16: case DataType::DT_BFLOAT16: case DataType::DT_INT16:
    case DataType::DT_UINT16: return 2;
    case DataType::DT_INT8: case DataType::DT_UINT8: return 1;
    default: return 0;
  }
}

BufferPool pool_of(const platform_ascendc::PlatformAscendC& p) {
  using platform_ascendc::CoreMemType;
  uint64_t v = 0;
  BufferPool b;
  p.GetCoreMemSize(CoreMemType::L1, v), b.l1Size = static_cast<int32_t>(v);
  p.GetCoreMemSize(CoreMemType::L0_C, v), b.l0CSize = static_cast<int32_t>(v);
  p.GetCoreMemSize(CoreMemType::UB, v), b.ubSize = static_cast<int32_t>(v);
  p.GetCoreMemSize(CoreMemType::L0_A, v), b.l0ASize = static_cast<int32_t>(v);
  p.GetCoreMemSize(CoreMemType::L0_B, v), b.l0BSize = static_cast<int32_t>(v);
  b.btSize = 1024;
  return b;
}

}  // namespace

MatmulApiTilingBase::MatmulApiTilingBase() {
  const platform_ascendc::PlatformAscendC* p = platform_ascendc::PlatformAscendCManager::GetInstance();
  if (p != nullptr) {
    oriBufferPool_ = pool_of(*p);
    socVersion = p->GetSocVersion();
  }
  bufferPool_ = oriBufferPool_;
}

MatmulApiTilingBase::MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform)
    : oriBufferPool_(pool_of(ascendcPlatform)), bufferPool_(oriBufferPool_), socVersion(ascendcPlatform.GetSocVersion()) {}

MatmulApiTilingBase::MatmulApiTilingBase(const PlatformInfo& platform) : socVersion(platform.socVersion) {
  oriBufferPool_.l1Size = static_cast<int32_t>(platform.l1Size);
  oriBufferPool_.l0CSize = static_cast<int32_t>(platform.l0CSize);
  oriBufferPool_.ubSize = static_cast<int32_t>(platform.ubSize);
  oriBufferPool_.l0ASize = static_cast<int32_t>(platform.l0ASize);
  oriBufferPool_.l0BSize = static_cast<int32_t>(platform.l0BSize);
  oriBufferPool_.btSize = 1024;
  bufferPool_ = oriBufferPool_;
}

MatmulApiTilingBase::~MatmulApiTilingBase() = default;

int32_t MatmulApiTilingBase::SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
  aType_ = {pos, type, dataType, isTrans, false};
  typesSet_ |= 1;
  return 0;
}
int32_t MatmulApiTilingBase::SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
  bType_ = {pos, type, dataType, isTrans, false};
  typesSet_ |= 2;
  return 0;
}
int32_t MatmulApiTilingBase::SetCType(TPosition pos, CubeFormat type, DataType dataType) {
  cType_ = {pos, type, dataType, false, false};
  typesSet_ |= 4;
  return 0;
}
int32_t MatmulApiTilingBase::SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
  biasType_ = {pos, type, dataType, false, false};
  return 0;
}

int32_t MatmulApiTilingBase::SetShape(int32_t m, int32_t n, int32_t k) {
  singleM = m, singleN = n, singleK = k;
  return 0;
}

int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) {
  return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
}
int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn) {
  orgM = orgMIn, orgN = orgNIn, orgKa = orgKaIn, orgKb = orgKbIn;
  return 0;
}

int32_t MatmulApiTilingBase::EnableBias(bool isBiasIn) {
  isBias = isBiasIn;
  return 0;
}
int32_t MatmulApiTilingBase::SetBias(bool isBiasIn) { return EnableBias(isBiasIn); }

int32_t MatmulApiTilingBase::SetFixSplit(int32_t baseMIn, int32_t baseNIn, int32_t baseKIn) {
  fixBaseM_ = baseMIn, fixBaseN_ = baseNIn, fixBaseK_ = baseKIn;
  return 0;
}

int32_t MatmulApiTilingBase::SetBufferSpace(int32_t l1Size, int32_t l0CSize, int32_t ubSize, int32_t btSize) {
  bufferPool_ = oriBufferPool_;
  if (l1Size >= 0) bufferPool_.l1Size = std::min(l1Size, oriBufferPool_.l1Size);
  if (l0CSize >= 0) bufferPool_.l0CSize = std::min(l0CSize, oriBufferPool_.l0CSize);
  if (ubSize >= 0) bufferPool_.ubSize = std::min(ubSize, oriBufferPool_.ubSize);
  if (btSize >= 0) bufferPool_.btSize = std::min(btSize, oriBufferPool_.btSize);
  return 0;
}

int32_t MatmulApiTilingBase::SetTraverse(MatrixTraverse traverse) {
  traverse_ = traverse;
  return 0;
}
int32_t MatmulApiTilingBase::SetMadType(MatrixMadType madType) {
  madType_ = madType;
  return madType == MatrixMadType::NORMAL ? 0 : -1;  // HF32 is not modelled
}
int32_t MatmulApiTilingBase::SetSplitRange(int32_t, int32_t, int32_t, int32_t, int32_t, int32_t) { return 0; }
int32_t MatmulApiTilingBase::SetDoubleBuffer(bool, bool, bool, bool, bool, bool) { return 0; }
void MatmulApiTilingBase::SetMatmulConfigParams(int32_t mmConfigTypeIn, bool, ScheduleType, MatrixTraverse traverseIn,
                                                bool) {
  mmConfigType = mmConfigTypeIn;
  if (traverseIn != MatrixTraverse::NOSET) traverse_ = traverseIn;
}

int64_t MatmulApiTilingBase::ComputeFor(int32_t cores) {
  const int32_t m = singleM > 0 ? singleM : orgM, n = singleN > 0 ? singleN : orgN, k = singleK > 0 ? singleK : orgKa;
  if ((typesSet_ & 7) != 7 || m <= 0 || n <= 0 || k <= 0 || cores <= 0) return -1;
  const int32_t a_bytes = bytes_of(aType_.dataType), c_bytes = bytes_of(cType_.dataType);
  if (a_bytes == 0 || a_bytes != bytes_of(bType_.dataType) || a_bytes == 4 || c_bytes == 0) return -1;
  const int32_t org_m = orgM > 0 ? orgM : m, org_n = orgN > 0 ? orgN : n;
  const int32_t org_ka = orgKa > 0 ? orgKa : k, org_kb = orgKb > 0 ? orgKb : org_ka;
  if (org_ka != org_kb || m > org_m || n > org_n || k > org_ka) return -1;
  const BufferPool& pool = bufferPool_;
  const int32_t k0 = 32 / a_bytes;  // K elements in one 32 B block (a fractal's row)

  // Base block of C: of the blocks L0C holds, the one that needs the fewest GM bytes per cube
  // cycle, (bm + bn) / (bm bn), while still giving every core a block (128 x 256 f16 needs 96
  // B per cycle at cube peak, within MTE2's 110; 128 x 128 needs 128 and leaves the cube
  // waiting). Then baseK from L0A/L0B (half of each, for double buffering).
  int32_t bm = fixBaseM_, bn = fixBaseN_;
  if (bm <= 0 || bn <= 0) {
    const int32_t cand[][2] = {{128, 256}, {256, 128}, {128, 128}};
    bm = bn = 0;
    for (const auto& c : cand) {
      const int32_t tm = fixBaseM_ > 0 ? fixBaseM_ : std::min(c[0], round_up(m, kFractal));
      const int32_t tn = fixBaseN_ > 0 ? fixBaseN_ : std::min(c[1], round_up(n, kFractal));
      if (tm * tn * 4 > pool.l0CSize) continue;
      if (int64_t(ceil_div(m, tm)) * ceil_div(n, tn) < cores && !(tm == 128 && tn == 128)) continue;
      bm = tm, bn = tn;
      break;
    }
    if (bm == 0) bm = fixBaseM_ > 0 ? fixBaseM_ : std::min(128, round_up(m, kFractal));
    if (bn == 0) bn = fixBaseN_ > 0 ? fixBaseN_ : std::min(128, round_up(n, kFractal));
  }
  if (bm % kFractal != 0 || bn % kFractal != 0) return -1;
  const int32_t l0c_block = bm * bn * 4;
  if (l0c_block > pool.l0CSize) return -1;
  int32_t bk = fixBaseK_;
  if (bk <= 0) {
    const int32_t fit = std::min(pool.l0ASize / 2 / (bm * a_bytes), pool.l0BSize / 2 / (bn * a_bytes));
    bk = std::min(fit / k0 * k0, round_up(k, k0));
  }
  // Two L0A and two L0B buffers (the next K step loads while the cube multiplies).
  if (bk <= 0 || bk % k0 != 0 || 2 * bm * bk * a_bytes > pool.l0ASize || 2 * bn * bk * a_bytes > pool.l0BSize) return -1;
  if (isBias && bn * 4 > pool.btSize) return -1;

  // Multi-core grid over base blocks.
  const int32_t tiles_m = ceil_div(m, bm), tiles_n = ceil_div(n, bn);
  int32_t m_dim = 1, n_dim = 1;
  int64_t best_load = -1, best_traffic = -1;
  for (int32_t rows = 1; rows <= std::min(cores, tiles_m); ++rows) {
    const int32_t cols = std::min(tiles_n, cores / rows);
    const int64_t load = int64_t(ceil_div(tiles_m, rows)) * ceil_div(tiles_n, cols);
    const int64_t traffic = int64_t(ceil_div(tiles_m, rows)) + ceil_div(tiles_n, cols);
    if (best_load < 0 || load < best_load || (load == best_load && traffic < best_traffic)) {
      m_dim = rows, n_dim = cols, best_load = load, best_traffic = traffic;
    }
  }
  singleCoreM = std::min(m, ceil_div(tiles_m, m_dim) * bm);
  singleCoreN = std::min(n, ceil_div(tiles_n, n_dim) * bn);
  singleCoreK = k;
  if (bm > round_up(singleCoreM, kFractal)) bm = round_up(singleCoreM, kFractal);
  if (bn > round_up(singleCoreN, kFractal)) bn = round_up(singleCoreN, kFractal);
  const int32_t used = ceil_div(m, singleCoreM) * ceil_div(n, singleCoreN);

  // K steps per L1 load: as many as fit twice (two loads in flight) beside the bias, up to 4.
  const int32_t k_steps = ceil_div(k, bk);
  const int32_t bias_l1 = isBias ? round_up(bn * 4, 64) : 0;
  int32_t step_k = std::min(4, k_steps);
  while (step_k > 1 && 2 * step_k * bk * (bm + bn) * a_bytes + bias_l1 > pool.l1Size) --step_k;
  if (2 * step_k * bk * (bm + bn) * a_bytes + bias_l1 > pool.l1Size) return -1;

  baseM = bm, baseN = bn, baseK = bk;
  optiling::TCubeTiling& t = tiling_;
  t = optiling::TCubeTiling();
  t.usedCoreNum = used;
  t.M = org_m, t.N = org_n, t.Ka = org_ka, t.Kb = org_kb;
  t.singleCoreM = singleCoreM, t.singleCoreN = singleCoreN, t.singleCoreK = singleCoreK;
  t.baseM = bm, t.baseN = bn, t.baseK = bk;
  t.stepKa = step_k, t.stepKb = step_k;
  t.stepM = 1, t.stepN = 1;
  t.depthA1 = 2 * step_k, t.depthB1 = 2 * step_k;
  t.isBias = isBias ? 1 : 0;
  // Along M first unless SetTraverse(FIRSTN) (CANN's default order, which samples that place
  // GetTensorC's blocks themselves rely on; N first is faster on large shapes: consecutive C
  // blocks then share A's rows while they are fresh in L2).
  t.iterateOrder = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
  t.dbL0A = 2, t.dbL0B = 2;
  t.dbL0C = 2 * l0c_block <= pool.l0CSize ? 2 : 1;
  t.shareMode = 0;
  t.shareL1Size = 2 * step_k * bk * (bm + bn) * a_bytes + bias_l1;
  t.shareL0CSize = t.dbL0C * l0c_block;
  t.shareUbSize = 0;
  t.transLength = bm * bn * c_bytes;
  t.batchM = 1, t.batchN = 1, t.singleBatchM = 1, t.singleBatchN = 1, t.BatchNum = 1;
  blockDim = used;
  return 0;
}

static void copy_out(const optiling::TCubeTiling& from, TCubeTiling& to) {
  static_assert(sizeof(optiling::TCubeTiling) == sizeof(TCubeTiling), "host and kernel TCubeTiling differ");
  std::memcpy(static_cast<void*>(&to), static_cast<const void*>(&from), sizeof(TCubeTiling));
}

int64_t MatmulApiTiling::Compute() { return ComputeFor(1); }
int64_t MatmulApiTiling::GetTiling(optiling::TCubeTiling& tiling) {
  if (Compute() != 0) return -1;
  tiling = tiling_;
  return 0;
}
int64_t MatmulApiTiling::GetTiling(TCubeTiling& tiling) {
  if (Compute() != 0) return -1;
  copy_out(tiling_, tiling);
  return 0;
}

int32_t MultiCoreMatmulTiling::SetDim(int32_t dim) {
  if (dim <= 0) return -1;
  blockDim = dim;
  return 0;
}
int32_t MultiCoreMatmulTiling::SetShape(int32_t m, int32_t n, int32_t k) { return MatmulApiTilingBase::SetShape(m, n, k); }
int32_t MultiCoreMatmulTiling::SetSingleShape(int32_t singleMIn, int32_t singleNIn, int32_t singleKIn) {
  // npuvp derives the single-core shape from the grid; a fixed one is not modelled.
  return singleMIn == -1 && singleNIn == -1 && singleKIn == -1 ? 0 : -1;
}
int32_t MultiCoreMatmulTiling::SetAlignSplit(int32_t, int32_t, int32_t) { return 0; }
int32_t MultiCoreMatmulTiling::GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) {
  shapeM = singleCoreM, shapeN = singleCoreN, shapeK = singleCoreK;
  return 0;
}
int32_t MultiCoreMatmulTiling::GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) {
  const int32_t m = singleM > 0 ? singleM : orgM, n = singleN > 0 ? singleN : orgN;
  if (singleCoreM <= 0 || singleCoreN <= 0) return -1;
  mDim = ceil_div(m, singleCoreM), nDim = ceil_div(n, singleCoreN), dim = mDim * nDim;
  return 0;
}
int64_t MultiCoreMatmulTiling::Compute() { return ComputeFor(blockDim > 0 ? blockDim : 1); }
int64_t MultiCoreMatmulTiling::GetTiling(optiling::TCubeTiling& tiling) {
  if (Compute() != 0) return -1;
  tiling = tiling_;
  return 0;
}
int64_t MultiCoreMatmulTiling::GetTiling(TCubeTiling& tiling) {
  if (Compute() != 0) return -1;
  copy_out(tiling_, tiling);
  return 0;
}

}  // namespace matmul_tiling

namespace {
int32_t tmp_buf_size(const TCubeTiling& t, matmul_tiling::SysTilingTempBufSize& size) {
  size.l1Size = t.shareL1Size, size.l0cSize = t.shareL0CSize, size.ubSize = t.shareUbSize;
  return 0;
}
TCubeTiling kernel_form(const optiling::TCubeTiling& t) {
  TCubeTiling k;
  std::memcpy(static_cast<void*>(&k), static_cast<const void*>(&t), sizeof(k));
  return k;
}
}  // namespace

extern "C" {
int32_t MatmulGetTmpBufSize(optiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
  return tmp_buf_size(kernel_form(tiling), bufSize);
}
int32_t MatmulGetTmpBufSizeV2(TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
  return tmp_buf_size(tiling, bufSize);
}
int32_t MultiCoreMatmulGetTmpBufSize(optiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
  return tmp_buf_size(kernel_form(tiling), bufSize);
}
int32_t MultiCoreMatmulGetTmpBufSizeV2(TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
  return tmp_buf_size(tiling, bufSize);
}
}
