// DataCacheCleanAndInvalid and friends: the scalar instructions kernels put around GM scalar
// accesses that other cores share. They cost scalar issue time and leave data as it is.
#include <gtest/gtest.h>
#include <cstring>
#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tikicpulib.h"

using namespace AscendC;

namespace cache_maintenance_test {

// Block b writes its id to its own slot with SetValue and flushes; after a SyncAll-free
// second launch, every slot reads back through GetValue after an invalidate.
TEST(CacheMaintenance, ScalarGmWritesSurviveCleanAndInvalidate) {
  auto& dev = npuvp::testing::make_device();
  const int blocks = 4, slot = 8;
  auto* gm = static_cast<int32_t*>(GmAlloc(blocks * slot * sizeof(int32_t)));
  std::memset(gm, 0, blocks * slot * sizeof(int32_t));
  dev.launch("write", blocks, [&] {
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(gm, blocks * slot);
    g.SetValue(GetBlockIdx() * slot, int32_t(100 + GetBlockIdx()));
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(g[GetBlockIdx() * slot]);
  });
  int32_t sum = 0;
  dev.launch("read", 1, [&] {
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(gm, blocks * slot);
    DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE>(g);
    for (int b = 0; b < blocks; ++b) sum += g.GetValue(b * slot);
  });
  EXPECT_EQ(sum, 100 + 101 + 102 + 103);
}

// A maintenance instruction takes scalar time: a kernel of 100 of them runs longer than
// an empty one.
TEST(CacheMaintenance, CostsScalarTime) {
  auto& dev = npuvp::testing::make_device();
  auto* gm = static_cast<float*>(GmAlloc(64 * sizeof(float)));
  const uint64_t empty = dev.launch("empty", 1, [&] {}).cycles;
  const uint64_t flushing = dev.launch("flush", 1, [&] {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(gm, 64);
    for (int i = 0; i < 100; ++i)
      DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_ALL>(g);
  }).cycles;
  EXPECT_GE(flushing, empty + 100);
}

}  // namespace cache_maintenance_test
