// A battery of planted bugs for the kernel sanitizer (docs/sanitizer.md), written the ways a
// user writes kernels: hand-written flags and queues, vector and cube pipes, UB, L1, L0 and GM,
// one core and several (the 910B's AIVs, its AIC/AIV pairs), SyncAll, atomics. Each planted
// bug must end with at least one error of the right kind and no finding of another kind; each
// correct kernel (double-buffered with queues or with hand-written flags, interleaved strided
// accesses) must be silent and compute the right answer. Functional mode and no file:line: the
// findings are the ordering's and the footprints', not the timing's.
#include <gtest/gtest.h>
#include <gmock/gmock.h>
#include <cstring>
#include <functional>
#include <string>
#include <vector>
#include "kernel_operator.h"
#include "models/check/sanitizer.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tikicpulib.h"

using namespace AscendC;
using npuvp::check::Sanitizer;

namespace sanitizer_battery_test {

using npuvp::testing::random_vector;
using npuvp::testing::to_gm;

constexpr int kN = 256;  // floats per tile: 1 KB, 32 blocks

npuvp::Device& checked(const std::string& platform = "minimal", std::vector<std::string> more = {}) {
  std::vector<std::string> sets = {"check.race=true", "check.memory=true", "check.init=true", "check.sync=true",
                                   "check.sites=false", "sim.mode=functional"};
  sets.insert(sets.end(), more.begin(), more.end());
  return npuvp::testing::make_device(sets, platform);
}

std::string listing(const Sanitizer& s) {
  std::string out;
  for (const auto& f : s.findings()) out += f.kind + (f.error ? "" : "(note)") + ": " + f.text + "\n";
  return out;
}

// Runs `kernel`; at least one error of `kind` (one containing `needle`) and no error of any
// other kind. A kernel error (a deadlock) is expected exactly when `kind` is "sync" and
// `needle` names it. Forgets the findings so the test process exits 0.
void planted(const char* kind, uint32_t blocks, std::function<void()> kernel, const char* needle = "",
             const npuvp::LaunchOptions& options = {}) {
  std::string error;
  try {
    npuvp::Device::instance().launch("planted", blocks, std::move(kernel), options);
  } catch (const std::exception& e) {
    error = npuvp::error_text(e);
  }
  Sanitizer* s = Sanitizer::active();
  ASSERT_NE(s, nullptr);
  size_t right = 0;
  bool found = false;
  for (const auto& f : s->findings()) {
    if (!f.error) continue;
    if (f.kind == kind) {
      ++right;
      found |= f.text.find(needle) != std::string::npos;
    } else {
      ADD_FAILURE() << "unexpected finding " << f.kind << ": " << f.text;
    }
  }
  EXPECT_GE(right, 1u) << "kernel error: " << error << "\n" << listing(*s);
  EXPECT_TRUE(found) << needle << "\n" << listing(*s);
  if (std::string(kind) != "sync") {
    EXPECT_EQ(error, "");
  }
  // The planted kernels leave their GM allocated; the leak check the process runs at exit is
  // not what they test. Run it now and forget what it finds, so the process exits 0.
  s->clear_findings();
  s->finish();
  s->clear_findings();
}

// No finding at all (notes included), leaks checked.
void silent() {
  Sanitizer* s = Sanitizer::active();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->findings().size(), 0u) << listing(*s);
  EXPECT_EQ(s->finish(), 0) << listing(*s);
}

float* gm_floats(int n, unsigned seed) { return to_gm(random_vector<float>(n, seed)); }
float* gm_out(int n) {
  auto* p = static_cast<float*>(GmAlloc(size_t(n) * 4));
  std::memset(p, 0, size_t(n) * 4);
  return p;
}

// ======================= races on one core =======================

// The vector pipe waits for the first tile's flag, then reads the second tile, whose flag it
// waits for only afterwards: the wrong event id.
TEST(SanitizerBattery, WrongEventIdReadsTileStillFilling) {
  checked();
  float *gx = gm_floats(2 * kN, 1), *gz = gm_out(kN);
  planted("race", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, 2 * kN);
    Z.SetGlobalBuffer(gz, kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b, z;
    pipe.InitBuffer(a, kN * 4);
    pipe.InitBuffer(b, kN * 4);
    pipe.InitBuffer(z, kN * 4);
    DataCopy(a.Get<float>(), X, kN);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    DataCopy(b.Get<float>(), X[kN], kN);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Add(z.Get<float>(), a.Get<float>(), b.Get<float>(), kN);  // b is EVENT_ID1's
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(Z, z.Get<float>(), kN);
  }, "RAW on UB");
}

// MTE3 copies a result out before the vector pipe is known to have written it.
TEST(SanitizerBattery, CopyOutWithoutVToMte3) {
  checked();
  float *gx = gm_floats(kN, 2), *gz = gm_out(kN);
  planted("race", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, kN);
    Z.SetGlobalBuffer(gz, kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, z;
    pipe.InitBuffer(a, kN * 4);
    pipe.InitBuffer(z, kN * 4);
    DataCopy(a.Get<float>(), X, kN);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Exp(z.Get<float>(), a.Get<float>(), kN);
    DataCopy(Z, z.Get<float>(), kN);  // missing V_MTE3
  }, "RAW on UB");
}

// One output buffer for every tile; the vector pipe overwrites it while MTE3 may still copy
// the previous tile out (no MTE3_V wait).
TEST(SanitizerBattery, OutputBufferRewrittenWhileCopiedOut) {
  checked();
  const int tiles = 4;
  float *gx = gm_floats(tiles * kN, 3), *gz = gm_out(tiles * kN);
  planted("race", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, tiles * kN);
    Z.SetGlobalBuffer(gz, tiles * kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, z;
    pipe.InitBuffer(a, kN * 4);
    pipe.InitBuffer(z, kN * 4);
    for (int i = 0; i < tiles; ++i) {
      if (i > 0) WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
      DataCopy(a.Get<float>(), X[i * kN], kN);
      SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
      WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
      Adds(z.Get<float>(), a.Get<float>(), 1.0f, kN);
      if (i + 1 < tiles) SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
      SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
      WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
      DataCopy(Z[i * kN], z.Get<float>(), kN);
    }
  }, "WAR on UB");
}

// In place: one UB buffer is filled, scaled, copied out; the next tile's copy-in does not wait
// for the copy-out (no MTE3_MTE2).
TEST(SanitizerBattery, InPlaceBufferRefilledBeforeCopiedOut) {
  checked();
  const int tiles = 3;
  float *gx = gm_floats(tiles * kN, 4), *gz = gm_out(tiles * kN);
  planted("race", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, tiles * kN);
    Z.SetGlobalBuffer(gz, tiles * kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, kN * 4);
    LocalTensor<float> t = a.Get<float>();
    for (int i = 0; i < tiles; ++i) {
      DataCopy(t, X[i * kN], kN);
      SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
      WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
      Muls(t, t, 3.0f, kN);
      SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
      WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
      DataCopy(Z[i * kN], t, kN);
    }
  }, "WAR on UB");
}

// A GM workspace written by MTE3 and read back by MTE2 of the same core with nothing between.
TEST(SanitizerBattery, GmWorkspaceReadBackWithoutSync) {
  checked();
  float *gx = gm_floats(kN, 5), *gw = gm_out(kN), *gz = gm_out(kN);
  planted("race", 1, [&] {
    GlobalTensor<float> X, W, Z;
    X.SetGlobalBuffer(gx, kN);
    W.SetGlobalBuffer(gw, kN);
    Z.SetGlobalBuffer(gz, kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, kN * 4);
    pipe.InitBuffer(b, kN * 4);
    DataCopy(a.Get<float>(), X, kN);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(W, a.Get<float>(), kN);
    DataCopy(b.Get<float>(), W, kN);  // missing MTE3_MTE2
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
    DataCopy(Z, b.Get<float>(), kN);
  }, "RAW on GM");
}

// The same, with a PipeBarrier on the wrong pipe: PIPE_V orders nothing between MTE3 and MTE2.
TEST(SanitizerBattery, PipeBarrierOnTheWrongPipe) {
  checked();
  float *gx = gm_floats(kN, 6), *gw = gm_out(kN), *gz = gm_out(kN);
  planted("race", 1, [&] {
    GlobalTensor<float> X, W, Z;
    X.SetGlobalBuffer(gx, kN);
    W.SetGlobalBuffer(gw, kN);
    Z.SetGlobalBuffer(gz, kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, kN * 4);
    pipe.InitBuffer(b, kN * 4);
    DataCopy(a.Get<float>(), X, kN);
    PipeBarrier<PIPE_ALL>();
    DataCopy(W, a.Get<float>(), kN);
    PipeBarrier<PIPE_V>();  // should be PIPE_ALL (or MTE3_MTE2 flags)
    DataCopy(b.Get<float>(), W, kN);
    PipeBarrier<PIPE_ALL>();
    DataCopy(Z, b.Get<float>(), kN);
  }, "RAW on GM");
}

// Hand-written double buffering, tiles in buffers 0/1 with events 0/1; `skip_wait_at` >= 0
// leaves out the refill's wait of that tile. (Waiting on the other buffer's event instead is
// no race here: flags are matched by count, and MTE2's program order then still puts each
// refill after the vector pipe's read of that buffer; the sanitizer notes the wait as
// ordering nothing new.)
void ping_pong(float* gx, float* gz, int tiles, int skip_wait_at) {
  GlobalTensor<float> X, Z;
  X.SetGlobalBuffer(gx, kN * tiles);
  Z.SetGlobalBuffer(gz, kN * tiles);
  TPipe pipe;
  TBuf<TPosition::VECCALC> in[2], out[2];
  for (int b = 0; b < 2; ++b) {
    pipe.InitBuffer(in[b], kN * 4);
    pipe.InitBuffer(out[b], kN * 4);
  }
  for (int i = 0; i < tiles; ++i) {
    const int b = i % 2;
    const event_t e = event_t(b);
    if (i >= 2 && i != skip_wait_at) WaitFlag<HardEvent::V_MTE2>(e);
    DataCopy(in[b].Get<float>(), X[i * kN], kN);
    SetFlag<HardEvent::MTE2_V>(e);
    WaitFlag<HardEvent::MTE2_V>(e);
    if (i >= 2) WaitFlag<HardEvent::MTE3_V>(e);
    Muls(out[b].Get<float>(), in[b].Get<float>(), 2.0f, kN);
    if (i + 2 < tiles || (i + 2 == skip_wait_at)) SetFlag<HardEvent::V_MTE2>(e);
    SetFlag<HardEvent::V_MTE3>(e);
    WaitFlag<HardEvent::V_MTE3>(e);
    DataCopy(Z[i * kN], out[b].Get<float>(), kN);
    if (i + 2 < tiles) SetFlag<HardEvent::MTE3_V>(e);
  }
  // With a skipped wait one V_MTE2 flag of the skipped tile's buffer is still set: wait it.
  if (skip_wait_at >= 0) WaitFlag<HardEvent::V_MTE2>(event_t(skip_wait_at % 2));
}

// One wait left out in the fourth iteration only (a condition gone wrong in the loop).
TEST(SanitizerBattery, PingPongOneWaitSkippedInsideTheLoop) {
  checked();
  const int tiles = 6;
  float *gx = gm_floats(tiles * kN, 8), *gz = gm_out(tiles * kN);
  planted("race", 1, [&] { ping_pong(gx, gz, tiles, 3); }, "WAR on UB");
}

TEST(SanitizerBattery, PingPongCorrectIsSilent) {
  checked();
  const int tiles = 6;
  auto x = random_vector<float>(tiles * kN, 9);
  float *gx = to_gm(x), *gz = gm_out(tiles * kN);
  npuvp::Device::instance().launch("ping_pong", 1, [&] { ping_pong(gx, gz, tiles, -1); });
  for (int i = 0; i < tiles * kN; ++i) ASSERT_EQ(gz[i], x[i] * 2.0f) << i;
  GmFree(gx);
  GmFree(gz);
  silent();
}

// ======================= races on the cube pipes (A2 AIC) =======================

// C (16 x 16, f32) = A (16 x 16, f16) x B (symmetric, so either fractal order reads the same),
// with hand-written flags; `drop` leaves one of them out.
enum class CubeBug { None, NoMte2ToMte1, NoMte1ToM, NoMToFix, AccumulateUninitialised };
void cube16(half* ga, half* gb, float* gc, CubeBug bug) {
  GlobalTensor<half> A, B;
  GlobalTensor<float> C;
  A.SetGlobalBuffer(ga, 256);
  B.SetGlobalBuffer(gb, 256);
  C.SetGlobalBuffer(gc, 256);
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::B1> b1;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B2> b2;
  TBuf<TPosition::CO1> c1;
  pipe.InitBuffer(a1, 512);
  pipe.InitBuffer(b1, 512);
  pipe.InitBuffer(a2, 512);
  pipe.InitBuffer(b2, 512);
  pipe.InitBuffer(c1, 1024);
  DataCopy(a1.Get<half>(), A, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
  DataCopy(b1.Get<half>(), B, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
  if (bug != CubeBug::NoMte2ToMte1) {
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
  }
  LoadData(a2.Get<half>(), a1.Get<half>(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  LoadData(b2.Get<half>(), b1.Get<half>(), LoadData2DParams(0, 1, 1, 0, 0, true, 0));
  if (bug != CubeBug::NoMte1ToM) {
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
  }
  MmadParams p;
  p.m = 16;
  p.n = 16;
  p.k = 16;
  p.cmatrixInitVal = bug != CubeBug::AccumulateUninitialised;
  Mmad(c1.Get<float>(), a2.Get<half>(), b2.Get<half>(), p);
  if (bug != CubeBug::NoMToFix) {
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
  }
  FixpipeParamsV220 f;
  f.mSize = 16;
  f.nSize = 16;
  f.srcStride = 16;
  f.dstStride = 16;
  f.quantPre = NoQuant;
  Fixpipe(C, c1.Get<float>(), f);
}

struct CubeData {
  std::vector<half> a, b;
  half *ga, *gb;
  float* gc;
};
CubeData cube_data() {
  CubeData d;
  d.a.resize(256);
  d.b.resize(256);
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) {
      d.a[i * 16 + j] = half(float((i * 3 + j) % 5) - 2.0f);
      d.b[i * 16 + j] = half(float((i + j) % 4) - 1.0f);  // symmetric
    }
  }
  d.ga = to_gm(d.a);
  d.gb = to_gm(d.b);
  d.gc = gm_out(256);
  return d;
}

npuvp::LaunchOptions aic_only() {
  npuvp::LaunchOptions o;
  o.kernel_type = npuvp::aicore::KernelType::AicOnly;
  return o;
}

TEST(SanitizerBattery, CubeLoadDataReadsL1StillFilling) {
  checked("core910b");
  CubeData d = cube_data();
  planted("race", 1, [&] { cube16(d.ga, d.gb, d.gc, CubeBug::NoMte2ToMte1); }, "on L1", aic_only());
}

TEST(SanitizerBattery, CubeMmadReadsL0AStillLoading) {
  checked("core910b");
  CubeData d = cube_data();
  planted("race", 1, [&] { cube16(d.ga, d.gb, d.gc, CubeBug::NoMte1ToM); }, "RAW on L0A", aic_only());
}

TEST(SanitizerBattery, CubeFixpipeReadsL0CBeforeMmad) {
  checked("core910b");
  CubeData d = cube_data();
  planted("race", 1, [&] { cube16(d.ga, d.gb, d.gc, CubeBug::NoMToFix); }, "RAW on L0C", aic_only());
}

TEST(SanitizerBattery, CubeAccumulatesIntoUnwrittenL0C) {
  checked("core910b");
  CubeData d = cube_data();
  planted("uninitialized", 1, [&] { cube16(d.ga, d.gb, d.gc, CubeBug::AccumulateUninitialised); }, "L0C",
          aic_only());
}

TEST(SanitizerBattery, CubeWithAllFlagsIsSilent) {
  checked("core910b");
  CubeData d = cube_data();
  npuvp::Device::instance().launch("cube", 1, [&] { cube16(d.ga, d.gb, d.gc, CubeBug::None); }, aic_only());
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) {
      float want = 0;
      for (int k = 0; k < 16; ++k) want += float(d.a[i * 16 + k]) * float(d.b[k * 16 + j]);
      ASSERT_EQ(d.gc[i * 16 + j], want) << i << "," << j;
    }
  }
  GmFree(d.ga);
  GmFree(d.gb);
  GmFree(d.gc);
  silent();
}

// ======================= races across cores =======================

// Each block writes its tile and one block (32 B) of the next block's: the edges overlap.
TEST(SanitizerBattery, BlocksOverlapByOneGmBlock) {
  checked("ascend910b");
  float *gx = gm_floats(4 * kN + 8, 10), *gz = gm_out(4 * kN + 8);
  planted("race", 4, [&] {
    GlobalTensor<float> X, Z;
    const int me = int(GetBlockIdx());
    X.SetGlobalBuffer(gx + me * kN, kN + 8);
    Z.SetGlobalBuffer(gz + me * kN, kN + 8);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, (kN + 8) * 4);
    auto l = q.AllocTensor<float>();
    DataCopy(l, X, kN + 8);
    q.EnQue(l);
    auto m = q.DeQue<float>();
    PipeBarrier<PIPE_ALL>();
    DataCopy(Z, m, kN + 8);
    q.FreeTensor(m);
  }, "WAW on GM");
}

// Phase 1 writes this block's tile; phase 2 reads the neighbour's: `barrier` orders them.
void neighbours(float* tiles, float* out, const std::function<void()>& barrier, bool rewrite_after) {
  const int blocks = int(GetBlockNum()), me = int(GetBlockIdx()), next = (me + 1) % blocks;
  GlobalTensor<float> T, O;
  T.SetGlobalBuffer(tiles, blocks * kN);
  O.SetGlobalBuffer(out, blocks * kN);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, kN * 4);
  LocalTensor<float> t = b.Get<float>();
  Duplicate(t, float(me + 1), kN);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
  DataCopy(T[me * kN], t, kN);
  barrier();
  SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
  WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
  DataCopy(t, T[next * kN], kN);
  SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
  DataCopy(O[me * kN], t, kN);
  if (rewrite_after) {  // a second phase-1 write with no second barrier
    SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
    Duplicate(t, 0.0f, kN);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
    DataCopy(T[me * kN], t, kN);
  }
}

TEST(SanitizerBattery, NeighboursTileReadWithoutSyncAll) {
  checked("ascend910b");
  float *tiles = gm_out(4 * kN), *out = gm_out(4 * kN);
  planted("race", 4, [&] { neighbours(tiles, out, [] {}, false); }, "RAW on GM");
}

TEST(SanitizerBattery, TileRewrittenAfterSyncAllWhileNeighbourReads) {
  checked("ascend910b");
  float *tiles = gm_out(4 * kN), *out = gm_out(4 * kN);
  planted("race", 4, [&] { neighbours(tiles, out, [] { SyncAll(); }, true); }, "WAR on GM");
}

TEST(SanitizerBattery, SyncAllBetweenPhasesIsSilent) {
  checked("ascend910b");
  float *tiles = gm_out(4 * kN), *out = gm_out(4 * kN);
  npuvp::Device::instance().launch("phases", 4, [&] { neighbours(tiles, out, [] { SyncAll(); }, false); });
  for (int b = 0; b < 4; ++b) ASSERT_EQ(out[b * kN + 5], float((b + 1) % 4 + 1)) << b;
  GmFree(tiles);
  GmFree(out);
  silent();
}

// Soft SyncAll (GM workspace) on the coupled 910: the same phases, silent.
TEST(SanitizerBattery, SoftSyncAllBetweenPhasesIsSilent) {
  checked("ascend910");
  float *tiles = gm_out(4 * kN), *out = gm_out(4 * kN);
  auto* sync = static_cast<int32_t*>(GmAlloc(4 * 32));
  std::memset(sync, 0, 4 * 32);
  npuvp::Device::instance().launch("phases", 4, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> work;
    pipe.InitBuffer(work, 4 * 32);
    GlobalTensor<int32_t> s;
    s.SetGlobalBuffer(sync, 4 * 8);
    LocalTensor<int32_t> w = work.Get<int32_t>();
    neighbours(tiles, out, [&] { SyncAll(s, w); }, false);
  });
  for (int b = 0; b < 4; ++b) ASSERT_EQ(out[b * kN + 5], float((b + 1) % 4 + 1)) << b;
  GmFree(tiles);
  GmFree(out);
  GmFree(sync);
  silent();
}

// Atomics: block 0 adds atomically, block 1 forgot SetAtomicAdd.
void accumulate(float* gx, float* gz, bool atomic_in_block1) {
  GlobalTensor<float> X, Z;
  X.SetGlobalBuffer(gx + GetBlockIdx() * kN, kN);
  Z.SetGlobalBuffer(gz, kN);
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, kN * 4);
  auto l = q.AllocTensor<float>();
  DataCopy(l, X, kN);
  q.EnQue(l);
  auto m = q.DeQue<float>();
  PipeBarrier<PIPE_ALL>();
  const bool atomic = GetBlockIdx() == 0 || atomic_in_block1;
  if (atomic) SetAtomicAdd<float>();
  DataCopy(Z, m, kN);
  if (atomic) SetAtomicNone();
  q.FreeTensor(m);
}

TEST(SanitizerBattery, OneBlockForgotSetAtomicAdd) {
  checked("ascend910b");
  float *gx = gm_floats(2 * kN, 11), *gz = gm_out(kN);
  planted("race", 2, [&] { accumulate(gx, gz, false); }, "WAW on GM");
}

// An atomic add while another block reads the same bytes.
TEST(SanitizerBattery, ReadRacesWithAnotherBlocksAtomicAdd) {
  checked("ascend910b");
  float *gx = gm_floats(2 * kN, 12), *gz = gm_out(kN), *gy = gm_out(2 * kN);
  planted("race", 2, [&] {
    GlobalTensor<float> X, Z, Y;
    X.SetGlobalBuffer(gx + GetBlockIdx() * kN, kN);
    Z.SetGlobalBuffer(gz, kN);
    Y.SetGlobalBuffer(gy + GetBlockIdx() * kN, kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, kN * 4);
    DataCopy(b.Get<float>(), X, kN);
    PipeBarrier<PIPE_ALL>();
    SetAtomicAdd<float>();
    DataCopy(Z, b.Get<float>(), kN);
    SetAtomicNone();
    PipeBarrier<PIPE_ALL>();
    DataCopy(b.Get<float>(), Z, kN);  // the other block may not have added yet
    PipeBarrier<PIPE_ALL>();
    DataCopy(Y, b.Get<float>(), kN);
  }, "on GM");
}

TEST(SanitizerBattery, AtomicAddsFromFourBlocksAreSilent) {
  checked("ascend910b");
  auto x = random_vector<float>(4 * kN, 13);
  for (auto& v : x) v = float(int(v * 8));  // small integers: any order of adds is exact
  float *gx = to_gm(x), *gz = gm_out(kN);
  npuvp::Device::instance().launch("atomic", 4, [&] { accumulate(gx, gz, true); });
  for (int i = 0; i < kN; ++i) ASSERT_EQ(gz[i], x[i] + x[kN + i] + x[2 * kN + i] + x[3 * kN + i]) << i;
  GmFree(gx);
  GmFree(gz);
  silent();
}

// AIC and AIV of a 910B mix kernel: the AIC writes a GM word, the AIVs read it; the correct
// form orders them with a mode-2 cross-core flag.
void aic_to_aiv(int32_t* word, int32_t* seen, bool flag) {
  GlobalTensor<int32_t> w, s;
  w.SetGlobalBuffer(word, 8);
  s.SetGlobalBuffer(seen, 2 * 8);
  if ASCEND_IS_AIC {
    w.SetValue(0, 42);
    if (flag) CrossCoreSetFlag<2, PIPE_FIX>(3);
  } else {
    if (flag) CrossCoreWaitFlag(3);
    s.SetValue(GetBlockIdx() * 8, w.GetValue(0));
  }
}

npuvp::LaunchOptions mix() {
  npuvp::LaunchOptions o;
  o.kernel_type = npuvp::aicore::KernelType::Mix1To2;
  return o;
}

TEST(SanitizerBattery, AivReadsWhatTheAicWritesWithoutCrossCoreFlag) {
  checked("ascend910b");
  auto* word = static_cast<int32_t*>(GmAlloc(32));
  auto* seen = static_cast<int32_t*>(GmAlloc(64));
  std::memset(word, 0, 32);
  planted("race", 1, [&] { aic_to_aiv(word, seen, false); }, "RAW on GM", mix());
}

TEST(SanitizerBattery, AivReadsWhatTheAicWritesAfterCrossCoreFlagIsSilent) {
  checked("ascend910b");
  auto* word = static_cast<int32_t*>(GmAlloc(32));
  auto* seen = static_cast<int32_t*>(GmAlloc(64));
  std::memset(word, 0, 32);
  npuvp::Device::instance().launch("mix", 1, [&] { aic_to_aiv(word, seen, true); }, mix());
  EXPECT_EQ(seen[0], 42);
  EXPECT_EQ(seen[8], 42);
  GmFree(word);
  GmFree(seen);
  silent();
}

// ======================= out of bounds =======================

// DataCopyPad of 256 + 17 floats from an allocation of 256: past its end and past the 32 B
// of padding aclrtMalloc adds (reads up to there are allowed: whole-unit reads of a tensor's
// end).
TEST(SanitizerBattery, GmReadPastTheAllocationsPadding) {
  checked("ascend910b");  // DataCopyPad: A2
  float *gx = gm_floats(kN, 14), *gz = gm_out(kN + 24);
  planted("out-of-bounds", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, kN + 17);
    Z.SetGlobalBuffer(gz, kN + 24);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, (kN + 24) * 4);
    DataCopyPad(b.Get<float>(), X, DataCopyExtParams(1, (kN + 17) * 4, 0, 0, 0),
                DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
    PipeBarrier<PIPE_ALL>();
    DataCopy(Z, b.Get<float>(), kN);
  }, "reads GM");
}

// A DataCopy of one 32 B block more than the output allocation holds.
TEST(SanitizerBattery, GmWriteOneBlockPastTheAllocation) {
  checked();
  float *gx = gm_floats(kN + 8, 15), *gz = gm_out(kN);
  planted("out-of-bounds", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, kN + 8);
    Z.SetGlobalBuffer(gz, kN + 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, (kN + 8) * 4);
    DataCopy(b.Get<float>(), X, kN + 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(Z, b.Get<float>(), kN + 8);
  }, "writes GM");
}

// A write one block before the allocation (an offset computed as -8).
TEST(SanitizerBattery, GmWriteBeforeTheAllocation) {
  checked();
  float *gx = gm_floats(kN, 16), *gz = gm_out(kN);
  planted("out-of-bounds", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, kN);
    Z.SetGlobalBuffer(gz - 8, kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, kN * 4);
    DataCopy(b.Get<float>(), X, kN);
    PipeBarrier<PIPE_ALL>();
    DataCopy(Z, b.Get<float>(), kN);
  }, "writes GM");
}

// A UB view one block longer than its TBuf, written by the vector pipe.
TEST(SanitizerBattery, VectorWritesOneBlockPastItsTBuf) {
  checked();
  float *gx = gm_floats(kN + 8, 17), *gz = gm_out(kN + 8);
  planted("out-of-bounds", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, kN + 8);
    Z.SetGlobalBuffer(gz, kN + 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> in, out, after;
    pipe.InitBuffer(in, (kN + 8) * 4);
    pipe.InitBuffer(out, kN * 4);
    pipe.InitBuffer(after, kN * 4);
    DataCopy(in.Get<float>(), X, kN + 8);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(out.Get<float>(kN + 8), in.Get<float>(), 2.0f, kN + 8);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(Z, out.Get<float>(kN + 8), kN + 8);
  }, "outside every buffer");
}

// A double-buffered VECOUT queue: the result is written one block past its buffer, into the
// queue's other buffer.
TEST(SanitizerBattery, QueueTensorWrittenIntoTheQueuesNextBuffer) {
  checked();
  float *gx = gm_floats(kN + 8, 18), *gz = gm_out(kN + 8);
  planted("out-of-bounds", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, kN + 8);
    Z.SetGlobalBuffer(gz, kN + 8);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qi;
    TQue<TPosition::VECOUT, 2> qo;
    pipe.InitBuffer(qi, 1, (kN + 8) * 4);
    pipe.InitBuffer(qo, 2, kN * 4);
    auto li = qi.AllocTensor<float>();
    DataCopy(li, X, kN + 8);
    qi.EnQue(li);
    auto ai = qi.DeQue<float>();
    auto lo = qo.AllocTensor<float>();
    Adds(lo, ai, 1.0f, kN + 8);  // kN + 8 into a buffer of kN
    qo.EnQue(lo);
    qi.FreeTensor(ai);
    auto ao = qo.DeQue<float>();
    DataCopy(Z, ao, kN + 8);
    qo.FreeTensor(ao);
  }, "outside every buffer");
}

// An L1 tensor (A1 queue of the AIC) filled one fractal past its buffer.
TEST(SanitizerBattery, L1TensorFilledPastItsBuffer) {
  checked("core910b");
  std::vector<half> a(512, half(1.0f));
  half* ga = to_gm(a);
  planted("out-of-bounds", 1, [&] {
    GlobalTensor<half> A;
    A.SetGlobalBuffer(ga, 512);
    TPipe pipe;
    TBuf<TPosition::A1> a1, other;
    pipe.InitBuffer(a1, 512);
    pipe.InitBuffer(other, 512);
    DataCopy(a1.Get<half>(512), A, Nd2NzParams(1, 32, 16, 0, 16, 32, 1, 0));  // 32 rows: 1 KB
    PipeBarrier<PIPE_ALL>();
  }, "outside every buffer", aic_only());
}

// GM used after the host freed it, in a second launch.
TEST(SanitizerBattery, SecondLaunchWritesFreedGm) {
  checked();
  float *gx = gm_floats(kN, 19), *gz = gm_out(kN);
  auto kernel = [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, kN);
    Z.SetGlobalBuffer(gz, kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, kN * 4);
    DataCopy(b.Get<float>(), X, kN);
    PipeBarrier<PIPE_ALL>();
    DataCopy(Z, b.Get<float>(), kN);
  };
  npuvp::Device::instance().launch("first", 1, kernel);
  EXPECT_EQ(Sanitizer::active()->findings().size(), 0u) << listing(*Sanitizer::active());
  GmFree(gz);
  planted("use-after-free", 1, kernel, "writes GM");
}

// ======================= uninitialised reads =======================

// Half a tile copied in, the whole tile scaled.
TEST(SanitizerBattery, VectorReadsHalfFilledTile) {
  checked();
  float *gx = gm_floats(kN, 20), *gz = gm_out(kN);
  planted("uninitialized", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, kN);
    Z.SetGlobalBuffer(gz, kN);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qi;
    TQue<TPosition::VECOUT, 1> qo;
    pipe.InitBuffer(qi, 1, kN * 4);
    pipe.InitBuffer(qo, 1, kN * 4);
    auto li = qi.AllocTensor<float>();
    DataCopy(li, X, kN / 2);
    qi.EnQue(li);
    auto ai = qi.DeQue<float>();
    auto lo = qo.AllocTensor<float>();
    Muls(lo, ai, 2.0f, kN);
    qo.EnQue(lo);
    qi.FreeTensor(ai);
    auto ao = qo.DeQue<float>();
    DataCopy(Z, ao, kN);
    qo.FreeTensor(ao);
  }, "never written");
}

// Every other 32 B block copied in (a strided DataCopy), then all of them added.
TEST(SanitizerBattery, VectorReadsTheGapsOfAStridedCopy) {
  checked();
  float *gx = gm_floats(kN, 21), *gz = gm_out(kN);
  planted("uninitialized", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, kN);
    Z.SetGlobalBuffer(gz, kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, z;
    pipe.InitBuffer(a, kN * 4);
    pipe.InitBuffer(z, kN * 4);
    // 16 blocks of 8 floats, 1 block apart in GM and in UB: even blocks only.
    DataCopy(a.Get<float>(), X, DataCopyParams(16, 1, 1, 1));
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Add(z.Get<float>(), a.Get<float>(), a.Get<float>(), kN);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(Z, z.Get<float>(), kN);
  }, "never written");
}

// A double-buffered queue whose second buffer is dequeued without having been filled.
TEST(SanitizerBattery, SecondQueueBufferNeverFilled) {
  checked();
  float *gx = gm_floats(2 * kN, 22), *gz = gm_out(2 * kN);
  planted("uninitialized", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, 2 * kN);
    Z.SetGlobalBuffer(gz, 2 * kN);
    TPipe pipe;
    TQue<TPosition::VECIN, 2> qi;
    TQue<TPosition::VECOUT, 2> qo;
    pipe.InitBuffer(qi, 2, kN * 4);
    pipe.InitBuffer(qo, 2, kN * 4);
    for (int i = 0; i < 2; ++i) {
      auto li = qi.AllocTensor<float>();
      if (i == 0) DataCopy(li, X, kN);  // the second tile's copy is missing
      qi.EnQue(li);
      auto ai = qi.DeQue<float>();
      auto lo = qo.AllocTensor<float>();
      Abs(lo, ai, kN);
      qo.EnQue(lo);
      qi.FreeTensor(ai);
      auto ao = qo.DeQue<float>();
      DataCopy(Z[i * kN], ao, kN);
      qo.FreeTensor(ao);
    }
  }, "never written");
}

// ======================= sync =======================

// SetFlag with one event id, WaitFlag with another: the wait is never met (a deadlock), and
// the set is never waited.
TEST(SanitizerBattery, SetAndWaitOnDifferentEventIds) {
  checked();
  float* gx = gm_floats(kN, 23);
  planted("sync", 1, [&] {
    GlobalTensor<float> X;
    X.SetGlobalBuffer(gx, kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, z;
    pipe.InitBuffer(a, kN * 4);
    pipe.InitBuffer(z, kN * 4);
    DataCopy(a.Get<float>(), X, kN);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
    Muls(z.Get<float>(), a.Get<float>(), 2.0f, kN);
  }, "deadlock");
}

// A loop that sets the refill flag on every iteration but waits only from the third on: the
// last two sets are never waited.
TEST(SanitizerBattery, LoopLeavesFlagsSetAtTheEnd) {
  checked();
  const int tiles = 4;
  float *gx = gm_floats(tiles * kN, 24), *gz = gm_out(tiles * kN);
  planted("sync", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, tiles * kN);
    Z.SetGlobalBuffer(gz, tiles * kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> in[2], out;
    pipe.InitBuffer(in[0], kN * 4);
    pipe.InitBuffer(in[1], kN * 4);
    pipe.InitBuffer(out, kN * 4);
    for (int i = 0; i < tiles; ++i) {
      const event_t e = event_t(i % 2);
      if (i >= 2) WaitFlag<HardEvent::V_MTE2>(e);
      DataCopy(in[i % 2].Get<float>(), X[i * kN], kN);
      SetFlag<HardEvent::MTE2_V>(e);
      WaitFlag<HardEvent::MTE2_V>(e);
      Muls(out.Get<float>(), in[i % 2].Get<float>(), 2.0f, kN);
      SetFlag<HardEvent::V_MTE2>(e);  // also on the last two tiles
      SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
      WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
      DataCopy(Z[i * kN], out.Get<float>(), kN);
      SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
      WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
    }
  }, "never waited");
}

// The AIVs wait for a cross-core flag the AIC never sets.
TEST(SanitizerBattery, CrossCoreWaitNeverSet) {
  checked("ascend910b");
  planted("sync", 1, [&] {
    if ASCEND_IS_AIV {
      CrossCoreWaitFlag(5);
    }
  }, "deadlock", mix());
}

// One block skips the SyncAll the others wait in.
TEST(SanitizerBattery, SyncAllSkippedByOneBlock) {
  checked("ascend910b");
  planted("sync", 4, [&] {
    if (GetBlockIdx() != 2) SyncAll();
  }, "deadlock");
}

// ======================= exact footprints: no false races =======================

// MTE2 fills the odd 32 B blocks of a tile while the vector pipe scales its even blocks
// (block stride 2): interleaved, never the same bytes, so no race and no uninitialised read.
TEST(SanitizerBattery, InterleavedStridedAccessesDoNotRace) {
  checked();
  float *gx = gm_floats(2 * kN, 25), *gz = gm_out(2 * kN);
  auto x = std::vector<float>(gx, gx + 2 * kN);
  npuvp::Device::instance().launch("interleaved", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, 2 * kN);
    Z.SetGlobalBuffer(gz, 2 * kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 2 * kN * 4);
    LocalTensor<float> l = t.Get<float>();
    // Even blocks first, synchronised.
    DataCopy(l, X, DataCopyParams(32, 1, 1, 1));
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    // Odd blocks while the vector pipe doubles the even ones in place: 4 repeats of 8 blocks,
    // block stride 2, repeat stride 16.
    DataCopy(l[8], X[8], DataCopyParams(32, 1, 1, 1));
    UnaryRepeatParams p;
    p.dstBlkStride = 2;
    p.srcBlkStride = 2;
    p.dstRepStride = 16;
    p.srcRepStride = 16;
    Muls(l, l, 2.0f, uint64_t(64), 4, p);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(Z, l, 2 * kN);
  });
  for (int i = 0; i < 2 * kN; ++i) ASSERT_EQ(gz[i], (i / 8) % 2 == 0 ? x[i] * 2.0f : x[i]) << i;
  GmFree(gx);
  GmFree(gz);
  silent();
}

// The vector pipe writes only the even blocks (block stride 2): the odd ones stay unwritten,
// and copying the whole tile out reads them.
TEST(SanitizerBattery, GapsOfAStridedVectorWriteStayUnwritten) {
  checked();
  float *gx = gm_floats(2 * kN, 26), *gz = gm_out(2 * kN);
  planted("uninitialized", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, 2 * kN);
    Z.SetGlobalBuffer(gz, 2 * kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, z;
    pipe.InitBuffer(a, 2 * kN * 4);
    pipe.InitBuffer(z, 2 * kN * 4);
    DataCopy(a.Get<float>(), X, 2 * kN);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    UnaryRepeatParams p;
    p.dstBlkStride = 2;
    p.dstRepStride = 16;
    Muls(z.Get<float>(), a.Get<float>(), 2.0f, uint64_t(64), 4, p);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(Z, z.Get<float>(), 2 * kN);
  }, "never written");
}

// Two blocks write interleaved rows of one GM matrix (strided DataCopy): no bytes shared.
TEST(SanitizerBattery, BlocksWritingInterleavedGmRowsAreSilent) {
  checked("ascend910b");
  const int rows = 8, row = 64;  // floats; block b writes rows b, b + 2, ...
  auto x = random_vector<float>(rows * row, 27);
  float *gx = to_gm(x), *gz = gm_out(rows * row);
  npuvp::Device::instance().launch("rows", 2, [&] {
    const int me = int(GetBlockIdx());
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx + me * row, rows * row - me * row);
    Z.SetGlobalBuffer(gz + me * row, rows * row - me * row);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, rows / 2 * row * 4);
    // rows/2 rows of 8 blocks, 8 blocks of gap in GM, none in UB.
    DataCopy(b.Get<float>(), X, DataCopyParams(rows / 2, row / 8, row / 8, 0));
    PipeBarrier<PIPE_ALL>();
    DataCopy(Z, b.Get<float>(), DataCopyParams(rows / 2, row / 8, 0, row / 8));
  });
  for (int i = 0; i < rows * row; ++i) ASSERT_EQ(gz[i], x[i]) << i;
  GmFree(gx);
  GmFree(gz);
  silent();
}

}  // namespace sanitizer_battery_test
