// SyncAll: in phase 1 every block writes its own GM tile, later the more its block index is
// (so without a barrier the others would read stale data); after SyncAll, in phase 2, each
// block reads the tile its neighbour wrote and copies it out. The copies must equal what the
// neighbours wrote. Hard form (Atlas A2), soft form (GM workspace; 910, 310P, 910B), the mixed
// AIC/AIV form, repeated use, and the errors: products without it, blockDim beyond the
// resident cores, workspaces too small, and a block that never arrives (a deadlock report).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tikicpulib.h"
#include "tests/support/sanitizer_expect.h"

using namespace AscendC;
using ::testing::AllOf;
using ::testing::HasSubstr;
using npuvp::testing::IsCoreError;
using npuvp::testing::IsKernelError;
using npuvp::testing::kernel_error;
using npuvp::testing::make_device;

namespace sync_all_test {

constexpr uint32_t kTile = 64;  // int32 elements per block's tile

int32_t written(uint32_t block, uint32_t i) { return int32_t(block * 1000 + i + 1); }

struct Buffers {
  int32_t* tiles;  // phase 1: block b writes tile b
  int32_t* out;    // phase 2: block b copies tile (b + 1) % blocks here
  int32_t* sync;   // the soft form's GM workspace (zeroed)
};
Buffers make_buffers(uint32_t blocks) {
  Buffers b;
  b.tiles = static_cast<int32_t*>(GmAlloc(size_t(blocks) * kTile * 4));
  b.out = static_cast<int32_t*>(GmAlloc(size_t(blocks) * kTile * 4));
  b.sync = static_cast<int32_t*>(GmAlloc(size_t(blocks) * 32));
  std::memset(b.tiles, 0, size_t(blocks) * kTile * 4);
  std::memset(b.out, 0, size_t(blocks) * kTile * 4);
  std::memset(b.sync, 0, size_t(blocks) * 32);
  return b;
}

// The two phases around `barrier` (the SyncAll under test; nothing for the negative control).
void two_phases(const Buffers& gm, const std::function<void(const LocalTensor<int32_t>& ub_workspace)>& barrier) {
  const uint32_t blocks = uint32_t(GetBlockNum()), me = uint32_t(GetBlockIdx());
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf, work;
  pipe.InitBuffer(buf, kTile * 4);
  pipe.InitBuffer(work, blocks * 32);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  GlobalTensor<int32_t> tiles, out;
  tiles.SetGlobalBuffer(gm.tiles, size_t(blocks) * kTile);
  out.SetGlobalBuffer(gm.out, size_t(blocks) * kTile);
  // Phase 1, later for higher blocks: some busy copies first.
  for (uint32_t r = 0; r < 4 * me; ++r) DataCopy(ub, tiles[me * kTile], kTile);
  PipeBarrier<PIPE_ALL>();
  for (uint32_t i = 0; i < kTile; ++i) ub.SetValue(i, written(me, i));
  DataCopy(tiles[me * kTile], ub, kTile);
  barrier(work.Get<int32_t>());
  // Phase 2: the neighbour's tile.
  const uint32_t next = (me + 1) % blocks;
  DataCopy(ub, tiles[next * kTile], kTile);
  SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
  DataCopy(out[me * kTile], ub, kTile);
}

// How many blocks copied out something other than their neighbour's phase-1 tile.
uint32_t wrong_blocks(const Buffers& gm, uint32_t blocks) {
  uint32_t wrong = 0;
  for (uint32_t b = 0; b < blocks; ++b) {
    const uint32_t next = (b + 1) % blocks;
    for (uint32_t i = 0; i < kTile; ++i) {
      if (gm.out[b * kTile + i] != written(next, i)) {
        ++wrong;
        break;
      }
    }
  }
  return wrong;
}

npuvp::LaunchOptions of_type(npuvp::aicore::KernelType type) {
  npuvp::LaunchOptions o;
  o.kernel_type = type;
  return o;
}

// The control: without a barrier most blocks read their neighbour's tile before it is written.
TEST(SyncAll, WithoutItPhaseTwoReadsStaleData910B) {
  auto& dev = make_device({}, "ascend910b");
  const Buffers gm = make_buffers(48);
  dev.launch("no_sync", 48, [&] { two_phases(gm, [](const LocalTensor<int32_t>&) {}); });
  EXPECT_GT(wrong_blocks(gm, 48), 24u);
  npuvp::testing::expect_planted({"race"});  // NPUVP_CHECK=all: the bug is reported
}

TEST(SyncAll, HardFormOn48AivsOrdersThePhases910B) {
  auto& dev = make_device({}, "ascend910b");
  const Buffers gm = make_buffers(48);
  dev.launch("hard", 48, [&] { two_phases(gm, [](const LocalTensor<int32_t>&) { SyncAll(); }); });
  EXPECT_EQ(wrong_blocks(gm, 48), 0u);
}

TEST(SyncAll, HardFormWorksInFunctionalMode910B) {
  auto& dev = make_device({"sim.mode=functional"}, "ascend910b");
  const Buffers gm = make_buffers(48);
  dev.launch("hard", 48, [&] { two_phases(gm, [](const LocalTensor<int32_t>&) { SyncAll<true>(); }); });
  EXPECT_EQ(wrong_blocks(gm, 48), 0u);
}

TEST(SyncAll, SoftFormOn32CoresOrdersThePhases910) {
  auto& dev = make_device({}, "ascend910");
  const Buffers gm = make_buffers(32);
  dev.launch("soft", 32, [&] {
    two_phases(gm, [&](const LocalTensor<int32_t>& ub_work) {
      GlobalTensor<int32_t> sync;
      sync.SetGlobalBuffer(gm.sync, 32 * 8);
      SyncAll(sync, ub_work);
    });
  });
  EXPECT_EQ(wrong_blocks(gm, 32), 0u);
  // Each block counted its slot up once.
  for (uint32_t b = 0; b < 32; ++b) EXPECT_EQ(gm.sync[b * 8], 1) << "block " << b;
}

TEST(SyncAll, SoftFormOn8CoresOrdersThePhases310P) {
  auto& dev = make_device({}, "ascend310p");
  const Buffers gm = make_buffers(8);
  dev.launch("soft", 8, [&] {
    two_phases(gm, [&](const LocalTensor<int32_t>& ub_work) {
      GlobalTensor<int32_t> sync;
      sync.SetGlobalBuffer(gm.sync, 8 * 8);
      SyncAll(sync, ub_work);
    });
  });
  EXPECT_EQ(wrong_blocks(gm, 8), 0u);
}

// Used twice in one kernel, the workspace's slots count to 2 and both barriers hold.
TEST(SyncAll, SoftFormTwiceInOneKernel910B) {
  auto& dev = make_device({}, "ascend910b");
  const Buffers gm = make_buffers(48);
  dev.launch("soft_twice", 48, [&] {
    two_phases(gm, [&](const LocalTensor<int32_t>& ub_work) {
      GlobalTensor<int32_t> sync;
      sync.SetGlobalBuffer(gm.sync, 48 * 8);
      SyncAll(sync, ub_work);
      SyncAll(sync, ub_work);
    });
  });
  EXPECT_EQ(wrong_blocks(gm, 48), 0u);
  for (uint32_t b = 0; b < 48; ++b) EXPECT_EQ(gm.sync[b * 8], 2) << "block " << b;
}

// Mixed kernel: the AICs write a value late, SyncAll<false> makes every AIV see it.
TEST(SyncAll, MixedFormWaitsForTheAics910B) {
  auto& dev = make_device({}, "ascend910b");
  constexpr uint32_t kGroups = 4;
  auto* flags = static_cast<int32_t*>(GmAlloc(kGroups * 32));
  auto* seen = static_cast<int32_t*>(GmAlloc(kGroups * 2 * 32));
  std::memset(flags, 0, kGroups * 32);
  std::memset(seen, 0, kGroups * 2 * 32);
  dev.launch("mix", kGroups, [&] {
    GlobalTensor<int32_t> f, s;
    f.SetGlobalBuffer(flags, kGroups * 8);
    s.SetGlobalBuffer(seen, kGroups * 2 * 8);
    if ASCEND_IS_AIC {
      const int64_t until = GetSystemCycle() + 500;  // late: 10 us of scalar work
      while (GetSystemCycle() < until) {
      }
      f.SetValue(GetBlockIdx() * 8, int32_t(GetBlockIdx()) + 7);
      SyncAll<false>();
    } else {
      SyncAll<false>();
      const int64_t group = GetBlockIdx() / 2;
      s.SetValue(GetBlockIdx() * 8, f.GetValue(group * 8));
    }
  }, of_type(npuvp::aicore::KernelType::Mix1To2));
  for (uint32_t v = 0; v < kGroups * 2; ++v) EXPECT_EQ(seen[v * 8], int32_t(v / 2) + 7) << "AIV block " << v;
}

// ---- Errors

TEST(SyncAllErrors, HardFormIsNotOnThe910) {
  auto& dev = make_device({}, "ascend910");
  EXPECT_THAT(kernel_error(dev, 1, [] { SyncAll(); }),
              IsKernelError("SyncAll<true>()", "exists on separated Atlas A2 cores"));
}

// 49 AIV blocks on 48 AIVs: the 49th would start only after the first finish, so SyncAll
// would wait for ever on hardware.
TEST(SyncAllErrors, MoreBlocksThanResidentCoresIsAnError910B) {
  auto& dev = make_device({}, "ascend910b");
  EXPECT_THAT(kernel_error(dev, 49, [] { SyncAll(); }),
              AllOf(HasSubstr("SyncAll<true>()"), HasSubstr("blockDim 49 exceeds the 48 blocks")));
}

TEST(SyncAllErrors, MixedFormInAVectorKernelIsAnError910B) {
  auto& dev = make_device({}, "ascend910b");
  EXPECT_THAT(kernel_error(dev, 1, [] { SyncAll<false>(); }),
              IsCoreError("aiv0", "SyncAll<false>()", "synchronises the AICs and AIVs of a mixed kernel"));
}

TEST(SyncAllErrors, SoftFormGmWorkspaceTooSmall910) {
  auto& dev = make_device({}, "ascend910");
  auto* sync = static_cast<int32_t*>(GmAlloc(4 * 32));
  EXPECT_THAT(kernel_error(dev, 4, [&] {
                TPipe pipe;
                TBuf<TPosition::VECCALC> work;
                pipe.InitBuffer(work, 4 * 32);
                GlobalTensor<int32_t> g;
                g.SetGlobalBuffer(sync, 3 * 8);  // 96 B < 4 * 32
                SyncAll(g, work.Get<int32_t>());
              }),
              AllOf(HasSubstr("SyncAll(gmWorkspace, ubWorkspace)"), HasSubstr("gmWorkspace holds 96 B")));
}

TEST(SyncAllErrors, SoftFormUbWorkspaceTooSmall910) {
  auto& dev = make_device({}, "ascend910");
  auto* sync = static_cast<int32_t*>(GmAlloc(4 * 32));
  EXPECT_THAT(kernel_error(dev, 4, [&] {
                TPipe pipe;
                TBuf<TPosition::VECCALC> work;
                pipe.InitBuffer(work, 64);
                GlobalTensor<int32_t> g;
                g.SetGlobalBuffer(sync, 4 * 8);
                SyncAll(g, work.Get<int32_t>());
              }),
              AllOf(HasSubstr("SyncAll(gmWorkspace, ubWorkspace)"), HasSubstr("ubWorkspace holds 64 B")));
}

TEST(SyncAllErrors, SoftFormUsedCoresBeyondBlockNum910) {
  auto& dev = make_device({}, "ascend910");
  auto* sync = static_cast<int32_t*>(GmAlloc(4 * 32));
  EXPECT_THAT(kernel_error(dev, 4, [&] {
                TPipe pipe;
                TBuf<TPosition::VECCALC> work;
                pipe.InitBuffer(work, 4 * 32);
                GlobalTensor<int32_t> g;
                g.SetGlobalBuffer(sync, 4 * 8);
                SyncAll(g, work.Get<int32_t>(), 5);
              }),
              HasSubstr("usedCores 5 out of range [0, GetBlockNum() = 4]"));
}

// A block that returns without reaching SyncAll leaves the others waiting: the platform stops
// with a deadlock report that says where they wait, instead of hanging.
TEST(SyncAllErrors, ABlockThatNeverArrivesIsADeadlock910B) {
  auto& dev = make_device({}, "ascend910b");
  EXPECT_THAT(kernel_error(dev, 4, [] {
                if (GetBlockIdx() != 2) SyncAll();
              }),
              AllOf(HasSubstr("deadlock"), HasSubstr("waiting in SyncAll")));
  npuvp::testing::expect_planted({"sync"});  // NPUVP_CHECK=all: the bug is reported
}

TEST(SyncAllErrors, SoftFormBlockThatNeverArrivesIsADeadlock910) {
  auto& dev = make_device({}, "ascend910");
  auto* sync = static_cast<int32_t*>(GmAlloc(4 * 32));
  std::memset(sync, 0, 4 * 32);
  EXPECT_THAT(kernel_error(dev, 4, [&] {
                if (GetBlockIdx() == 1) return;
                TPipe pipe;
                TBuf<TPosition::VECCALC> work;
                pipe.InitBuffer(work, 4 * 32);
                GlobalTensor<int32_t> g;
                g.SetGlobalBuffer(sync, 4 * 8);
                SyncAll(g, work.Get<int32_t>());
              }),
              AllOf(HasSubstr("deadlock"), HasSubstr("waiting in SyncAll(gmWorkspace, ubWorkspace)")));
  npuvp::testing::expect_planted({"sync"});  // NPUVP_CHECK=all: the bug is reported
}
}  // namespace sync_all_test
