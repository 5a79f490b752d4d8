// The TPipe additions: GetTPipePtr, FetchEventID/AllocEventID/ReleaseEventID, TQueBind (the
// VECIN -> VECOUT copy-through), TBufPool (pools, shared pools, Reset), LocalMemAllocator and
// InitSocState; results against plain references, and the errors. One scenario per TEST.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tikicpulib.h"

using namespace AscendC;
using ::testing::AllOf;
using ::testing::HasSubstr;
using npuvp::testing::IsKernelError;
using npuvp::testing::kernel_error;
using npuvp::testing::make_device;

namespace tpipe_ext_test {
float* gm_floats(size_t n, float first) {
  auto* p = static_cast<float*>(GmAlloc(n * 4));
  for (size_t i = 0; i < n; ++i) p[i] = first + float(i);
  return p;
}

TEST(TPipeExt, GetTPipePtrIsTheKernelsPipe) {
  auto& dev = make_device({}, "core910");
  bool same = false;
  dev.launch("ptr", 1, [&] {
    TPipe pipe;
    same = GetTPipePtr() == &pipe;
  });
  EXPECT_TRUE(same);
}

TEST(TPipeExt, GetTPipePtrWithoutAPipeIsAnError) {
  auto& dev = make_device({}, "core910");
  EXPECT_THAT(kernel_error(dev, 1, [] { GetTPipePtr(); }), IsKernelError("GetTPipePtr", "no TPipe exists"));
}

// Fetch names a free id without taking it; Alloc takes ids one after another, Release gives
// one back; ids a queue holds are never handed out.
TEST(TPipeExt, EventIdsFetchAllocRelease) {
  auto& dev = make_device({}, "core910");
  std::vector<int> ids;
  dev.launch("ids", 1, [&] {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> in;
    pipe.InitBuffer(in, 2, 256);  // MTE2_V ids 0 and 1
    ids.push_back(pipe.FetchEventID<HardEvent::MTE2_V>());
    ids.push_back(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
    const TEventID a = pipe.AllocEventID<HardEvent::MTE2_V>();
    const TEventID b = pipe.AllocEventID<HardEvent::MTE2_V>();
    ids.push_back(a);
    ids.push_back(b);
    pipe.ReleaseEventID<HardEvent::MTE2_V>(a);
    ids.push_back(pipe.AllocEventID<HardEvent::MTE2_V>());
    ids.push_back(pipe.FetchEventID<HardEvent::V_MTE3>());  // another HardEvent: its own ids
    // The id works as a flag.
    SetFlag<HardEvent::MTE2_V>(b);
    WaitFlag<HardEvent::MTE2_V>(b);
  });
  EXPECT_EQ(ids, (std::vector<int>{2, 2, 2, 3, 2, 0}));
}

TEST(TPipeExt, AllocEventIdExhaustionIsAnError) {
  auto& dev = make_device({}, "core910");
  EXPECT_THAT(kernel_error(dev, 1, [] {
                TPipe pipe;
                for (int i = 0; i < 65; ++i) pipe.AllocEventID<HardEvent::V_MTE3>();  // more than core.event_ids
              }),
              IsKernelError("TPipe::AllocEventID<V_MTE3>", "out of event ids: all"));
}

TEST(TPipeExt, ReleasingAnIdNotAllocatedIsAnError) {
  auto& dev = make_device({}, "core910");
  EXPECT_THAT(kernel_error(dev, 1, [] {
                TPipe pipe;
                pipe.ReleaseEventID<HardEvent::V_MTE3>(3);
              }),
              IsKernelError("TPipe::ReleaseEventID<V_MTE3>(3)", "was not taken by AllocEventID"));
}

// TQueBind<VECIN, VECOUT>: 16 tiles through 2 buffers, GM -> UB -> GM with no vector work. The
// buffers are reused, so each copy-in must wait for the copy-out of the tile before (the
// queue's implicit MTE3 -> MTE2 flag) and each copy-out for its copy-in (MTE2 -> MTE3).
TEST(TPipeExt, TQueBindCopiesThroughVecinToVecout) {
  auto& dev = make_device({}, "core910");
  constexpr uint32_t kLen = 2048, kTiles = 16;
  float* src = gm_floats(size_t(kLen) * kTiles, 1.0f);
  float* dst = gm_floats(size_t(kLen) * kTiles, -1.0f);
  dev.launch("bind", 1, [&] {
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> que;
    pipe.InitBuffer(que, 2, kLen * 4);
    GlobalTensor<float> s, d;
    s.SetGlobalBuffer(src, size_t(kLen) * kTiles);
    d.SetGlobalBuffer(dst, size_t(kLen) * kTiles);
    for (uint32_t t = 0; t < kTiles; ++t) {
      LocalTensor<float> x = que.AllocTensor<float>();
      DataCopy(x, s[t * kLen], kLen);
      que.EnQue(x);
      LocalTensor<float> y = que.DeQue<float>();
      DataCopy(d[t * kLen], y, kLen);
      que.FreeTensor(y);
    }
  });
  for (size_t i = 0; i < size_t(kLen) * kTiles; ++i) ASSERT_EQ(dst[i], 1.0f + float(i)) << i;
}

// Two pools over the same UB (the second shares the first): stage one computes in pool 1,
// Reset, stage two in pool 2 on the same memory; both results right, same addresses.
TEST(TPipeExt, TBufPoolsShareMemoryAcrossStages) {
  auto& dev = make_device({}, "core910");
  constexpr uint32_t kLen = 256;
  float* a = gm_floats(kLen, 1.0f);
  float* out1 = gm_floats(kLen, 0.0f);
  float* out2 = gm_floats(kLen, 0.0f);
  uint64_t addr1 = 1, addr2 = 2;
  dev.launch("pools", 1, [&] {
    TPipe pipe;
    TBufPool<TPosition::VECCALC> pool1, pool2;
    pipe.InitBufPool(pool1, kLen * 4 * 2);
    pipe.InitBufPool(pool2, kLen * 4 * 2, pool1);
    GlobalTensor<float> ga, g1, g2;
    ga.SetGlobalBuffer(a, kLen);
    g1.SetGlobalBuffer(out1, kLen);
    g2.SetGlobalBuffer(out2, kLen);
    auto stage = [&](TBufPool<TPosition::VECCALC>& pool, GlobalTensor<float>& out, float scale, uint64_t& addr) {
      TQue<TPosition::VECIN, 1> in;
      TQue<TPosition::VECOUT, 1> outq;
      pool.InitBuffer(in, 1, kLen * 4);
      pool.InitBuffer(outq, 1, kLen * 4);
      LocalTensor<float> x = in.AllocTensor<float>();
      addr = x.GetPhyAddr();
      DataCopy(x, ga, kLen);
      in.EnQue(x);
      LocalTensor<float> xi = in.DeQue<float>();
      LocalTensor<float> y = outq.AllocTensor<float>();
      Muls(y, xi, scale, kLen);
      outq.EnQue(y);
      in.FreeTensor(xi);
      LocalTensor<float> yo = outq.DeQue<float>();
      DataCopy(out, yo, kLen);
      outq.FreeTensor(yo);
      pool.Reset();
    };
    stage(pool1, g1, 2.0f, addr1);
    stage(pool2, g2, 3.0f, addr2);
  });
  EXPECT_EQ(addr1, addr2);
  for (uint32_t i = 0; i < kLen; ++i) {
    ASSERT_EQ(out1[i], 2.0f * (1.0f + float(i))) << i;
    ASSERT_EQ(out2[i], 3.0f * (1.0f + float(i))) << i;
  }
}

// A pool divided further: a sub-pool takes the front of its parent, what the parent hands out
// next comes after it, and a TBuf from the sub-pool starts at the sub-pool's base.
TEST(TPipeExt, TBufPoolDividesIntoSubPools) {
  auto& dev = make_device({}, "core910");
  std::vector<uint64_t> addrs;
  dev.launch("subpools", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> before, in_sub, after;
    pipe.InitBuffer(before, 100);  // the pool starts past it, 32 B aligned
    TBufPool<TPosition::VECCALC> pool, sub;
    pipe.InitBufPool(pool, 4096);
    pool.InitBufPool(sub, 1000);  // rounded up to 1024
    sub.InitBuffer(in_sub, 512);
    pool.InitBuffer(after, 256);
    addrs = {pool.base(), sub.base(), in_sub.Get<uint8_t>().GetPhyAddr(), after.Get<uint8_t>().GetPhyAddr()};
  });
  ASSERT_EQ(addrs.size(), 4u);
  EXPECT_EQ(addrs[0], 128u);
  EXPECT_EQ(addrs[1], 128u);
  EXPECT_EQ(addrs[2], 128u);
  EXPECT_EQ(addrs[3], 128u + 1024u);
}

TEST(TPipeExt, TBufPoolOverflowIsAnError) {
  auto& dev = make_device({}, "core910");
  EXPECT_THAT(kernel_error(dev, 1, [] {
                TPipe pipe;
                TBufPool<TPosition::VECCALC> pool;
                pipe.InitBufPool(pool, 1024);
                TQue<TPosition::VECIN, 1> q;
                pool.InitBuffer(q, 2, 1024);
              }),
              IsKernelError("TBufPool::InitBuffer", "has 1024 B left; 2048 B requested"));
}

TEST(TPipeExt, SharedPoolLongerThanItsShareIsAnError) {
  auto& dev = make_device({}, "core910");
  EXPECT_THAT(kernel_error(dev, 1, [] {
                TPipe pipe;
                TBufPool<TPosition::VECCALC> pool1, pool2;
                pipe.InitBufPool(pool1, 1024);
                pipe.InitBufPool(pool2, 2048, pool1);
              }),
              IsKernelError("TPipe::InitBufPool", "longer than the pool it shares"));
}

// Static tensor programming: tensors from address 0 on, in order; the kernel writes its flags.
TEST(TPipeExt, LocalMemAllocatorHandsOutUbInOrder) {
  auto& dev = make_device({}, "core910");
  constexpr uint32_t kLen = 256;
  float* a = gm_floats(kLen, 1.0f);
  float* out = gm_floats(kLen, 0.0f);
  std::vector<uint64_t> addrs;
  dev.launch("alloc", 1, [&] {
    LocalMemAllocator<Hardware::UB> ub;
    addrs.push_back(ub.GetCurAddr());
    LocalTensor<float> x = ub.Alloc<TPosition::VECIN, float, kLen>();
    LocalTensor<float> y = ub.Alloc<float>(kLen);
    addrs.push_back(x.GetPhyAddr());
    addrs.push_back(y.GetPhyAddr());
    addrs.push_back(ub.GetCurAddr());
    GlobalTensor<float> ga, go;
    ga.SetGlobalBuffer(a, kLen);
    go.SetGlobalBuffer(out, kLen);
    DataCopy(x, ga, kLen);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Adds(y, x, 1.0f, kLen);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(go, y, kLen);
  });
  EXPECT_EQ(addrs, (std::vector<uint64_t>{0, 0, 1024, 2048}));
  for (uint32_t i = 0; i < kLen; ++i) ASSERT_EQ(out[i], 2.0f + float(i)) << i;
}

TEST(TPipeExt, LocalMemAllocatorOverflowIsAnError) {
  auto& dev = make_device({}, "core910");
  EXPECT_THAT(kernel_error(dev, 1, [] {
                LocalMemAllocator<Hardware::UB> ub;
                ub.Alloc<float>(1024 * 1024);
              }),
              IsKernelError("LocalMemAllocator::Alloc", "overflow"));
}

// InitSocState turns atomics off: the copy after it overwrites.
TEST(TPipeExt, InitSocStateTurnsAtomicsOff910B) {
  auto& dev = make_device({}, "ascend910b");
  float* a = gm_floats(64, 1.0f);
  float* out = gm_floats(64, 100.0f);
  dev.launch("soc_state", 1, [&] {
    LocalMemAllocator<> ub;
    LocalTensor<float> x = ub.Alloc<float, 64>();
    GlobalTensor<float> ga, go;
    ga.SetGlobalBuffer(a, 64);
    go.SetGlobalBuffer(out, 64);
    DataCopy(x, ga, 64);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    SetAtomicAdd<float>();
    InitSocState();
    DataCopy(go, x, 64);
  });
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(out[i], 1.0f + float(i)) << i;
}
}  // namespace tpipe_ext_test
