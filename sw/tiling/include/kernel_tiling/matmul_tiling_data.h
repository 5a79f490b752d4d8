// TCubeTiling: the Matmul tiling as the kernel reads it (CANN's field names and order; the
// host's optiling::TCubeTiling in tiling/matmul/matmul_tiling.h has the same layout).
#pragma once
#include <cstdint>

#define NPUVP_TCUBE_TILING_FIELDS(FIELD)                                                          \
  FIELD(usedCoreNum) FIELD(M) FIELD(N) FIELD(Ka) FIELD(Kb) FIELD(singleCoreM) FIELD(singleCoreN)  \
  FIELD(singleCoreK) FIELD(baseM) FIELD(baseN) FIELD(baseK) FIELD(depthA1) FIELD(depthB1)         \
  FIELD(stepM) FIELD(stepN) FIELD(isBias) FIELD(transLength) FIELD(iterateOrder) FIELD(shareMode) \
  FIELD(shareL1Size) FIELD(shareL0CSize) FIELD(shareUbSize) FIELD(batchM) FIELD(batchN)           \
  FIELD(singleBatchM) FIELD(singleBatchN) FIELD(stepKa) FIELD(stepKb) FIELD(depthAL1CacheUB)      \
  FIELD(depthBL1CacheUB) FIELD(dbL0A) FIELD(dbL0B) FIELD(dbL0C) FIELD(ALayoutInfoB)               \
  FIELD(ALayoutInfoS) FIELD(ALayoutInfoN) FIELD(ALayoutInfoG) FIELD(ALayoutInfoD)                 \
  FIELD(BLayoutInfoB) FIELD(BLayoutInfoS) FIELD(BLayoutInfoN) FIELD(BLayoutInfoG)                 \
  FIELD(BLayoutInfoD) FIELD(CLayoutInfoB) FIELD(CLayoutInfoS1) FIELD(CLayoutInfoN)                \
  FIELD(CLayoutInfoG) FIELD(CLayoutInfoS2) FIELD(BatchNum) FIELD(reserved)

#define NPUVP_TCUBE_PLAIN_FIELD(name) int32_t name = 0;
struct TCubeTiling {
  NPUVP_TCUBE_TILING_FIELDS(NPUVP_TCUBE_PLAIN_FIELD)
};
#undef NPUVP_TCUBE_PLAIN_FIELD
