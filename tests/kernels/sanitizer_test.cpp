// The kernel sanitizer (models/check/sanitizer.h, docs/sanitizer.md): one planted bug per
// kernel is reported with the right kind (and a non-zero exit), and correct kernels, with
// queues or hand-written flags, on one core or two, are silent. Races are a property of the
// ordering, not of the run's timing, so the functional mode (no time) finds the same ones.
#include <gtest/gtest.h>
#include <gmock/gmock.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include "kernel_operator.h"
#include "models/check/sanitizer.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tikicpulib.h"

using namespace AscendC;
using npuvp::check::Sanitizer;

namespace sanitizer_test {

using npuvp::testing::random_vector;
using npuvp::testing::to_gm;

constexpr int kN = 256;

npuvp::Device& checked_device(const std::vector<std::string>& more = {}) {
  std::vector<std::string> sets = {"check.race=true", "check.memory=true", "check.init=true", "check.sync=true"};
  sets.insert(sets.end(), more.begin(), more.end());
  return npuvp::testing::make_device(sets);
}

std::string kinds(const Sanitizer& s) {
  std::string out;
  for (const auto& f : s.findings()) out += f.kind + (f.error ? "" : "(note)") + ": " + f.text + "\n";
  return out;
}

// The findings of one kind; every other finding fails the test.
size_t only(const char* kind) {
  Sanitizer* s = Sanitizer::active();
  EXPECT_NE(s, nullptr);
  if (!s) return 0;
  size_t n = 0;
  for (const auto& f : s->findings()) {
    if (f.kind == kind) {
      ++n;
    } else {
      ADD_FAILURE() << "unexpected finding " << f.kind << ": " << f.text;
    }
  }
  return n;
}

// Runs `kernel` on `blocks` blocks; the sanitizer's findings must be of `kind` only (at least
// one, an error: the exit status would be non-zero), one of them containing `needle` and, for
// a race, this file's name (the kernel's source line). The findings are then forgotten, so
// this test process exits 0.
void expect_finding(const char* kind, uint32_t blocks, std::function<void()> kernel, const char* needle = "") {
  auto& dev = npuvp::Device::instance();
  dev.launch("planted", blocks, std::move(kernel));
  Sanitizer* s = Sanitizer::active();
  ASSERT_NE(s, nullptr);
  EXPECT_GE(only(kind), 1u) << kinds(*s);
  bool found = false;
  for (const auto& f : s->findings()) found |= f.text.find(needle) != std::string::npos;
  EXPECT_TRUE(found) << needle << "\n" << kinds(*s);
  EXPECT_GE(s->errors(), 1u);
  if (std::string(kind) == "race") {
    EXPECT_THAT(s->findings().at(0).text, ::testing::HasSubstr("sanitizer_test.cpp:")) << kinds(*s);
  }
  s->clear_findings();
}

void expect_silent() {
  Sanitizer* s = Sanitizer::active();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->findings().size(), 0u) << kinds(*s);
  EXPECT_EQ(s->finish(), 0);
}

// ---- planted bugs ----

// A vector op reads a tile MTE2 is still filling: no MTE2 -> V flag.
void raw_kernel(float* gx, float* gz) {
  GlobalTensor<float> X, Z;
  X.SetGlobalBuffer(gx, kN);
  Z.SetGlobalBuffer(gz, kN);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, kN * 4);
  auto l = b.Get<float>();
  DataCopy(l, X, kN);
  Muls(l, l, 2.0f, kN);  // missing SetFlag/WaitFlag<MTE2_V>
  PipeBarrier<PIPE_ALL>();
  DataCopy(Z, l, kN);
}

TEST(Sanitizer, VectorReadsTileStillFilling) {
  checked_device();
  float *gx = to_gm(random_vector<float>(kN, 1)), *gz = static_cast<float*>(GmAlloc(kN * 4));
  expect_finding("race", 1, [&] { raw_kernel(gx, gz); }, "RAW+WAW on UB");
  GmFree(gx);
  GmFree(gz);
  expect_silent();  // nothing else, and nothing leaked
}

// The same race in functional mode (no simulated time at all): the ordering decides.
TEST(Sanitizer, RaceFoundWithoutTiming) {
  checked_device({"sim.mode=functional"});
  float *gx = to_gm(random_vector<float>(kN, 1)), *gz = static_cast<float*>(GmAlloc(kN * 4));
  expect_finding("race", 1, [&] { raw_kernel(gx, gz); }, "RAW+WAW on UB");
  GmFree(gx);
  GmFree(gz);
}

// Double buffering with hand-written flags over `tiles` tiles of kN floats; `refill_wait`
// false plants the bug: a tile is refilled while the vector pipe may still read it.
void double_buffered_flags(float* gx, float* gz, int tiles, bool refill_wait) {
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
    auto li = in[b].Get<float>();
    auto lo = out[b].Get<float>();
    if (i >= 2 && refill_wait) WaitFlag<HardEvent::V_MTE2>(b);  // V has read this tile's buffer
    DataCopy(li, X[i * kN], kN);
    SetFlag<HardEvent::MTE2_V>(b);
    WaitFlag<HardEvent::MTE2_V>(b);
    if (i >= 2) WaitFlag<HardEvent::MTE3_V>(b);  // MTE3 has written this output buffer out
    Muls(lo, li, 2.0f, kN);
    if (refill_wait) SetFlag<HardEvent::V_MTE2>(b);
    SetFlag<HardEvent::V_MTE3>(b);
    WaitFlag<HardEvent::V_MTE3>(b);
    DataCopy(Z[i * kN], lo, kN);
    SetFlag<HardEvent::MTE3_V>(b);
  }
  // The last two tiles' flags are waited for, so none is left set.
  for (int i = std::max(0, tiles - 2); i < tiles; ++i) {
    if (refill_wait) WaitFlag<HardEvent::V_MTE2>(i % 2);
    WaitFlag<HardEvent::MTE3_V>(i % 2);
  }
}

TEST(Sanitizer, TileRefilledWhileVectorMayRead) {
  checked_device();
  const int tiles = 6;
  float *gx = to_gm(random_vector<float>(kN * tiles, 2)), *gz = static_cast<float*>(GmAlloc(kN * tiles * 4));
  expect_finding("race", 1, [&] { double_buffered_flags(gx, gz, tiles, false); }, "WAR on UB");
  GmFree(gx);
  GmFree(gz);
}

TEST(Sanitizer, DoubleBufferedHandWrittenFlagsSilent) {
  checked_device();
  const int tiles = 6;
  auto x = random_vector<float>(kN * tiles, 2);
  float *gx = to_gm(x), *gz = static_cast<float*>(GmAlloc(kN * tiles * 4));
  npuvp::Device::instance().launch("flags", 1, [&] { double_buffered_flags(gx, gz, tiles, true); });
  for (int i = 0; i < kN * tiles; ++i) ASSERT_EQ(gz[i], x[i] * 2.0f) << i;
  GmFree(gx);
  GmFree(gz);
  expect_silent();
}

// A read past the host's allocation: GM is there, the allocation is not.
TEST(Sanitizer, ReadPastHostAllocation) {
  checked_device();
  float *gx = to_gm(random_vector<float>(kN, 3)), *gz = static_cast<float*>(GmAlloc(2 * kN * 4));
  expect_finding("out-of-bounds", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, 2 * kN);  // the host allocated kN
    Z.SetGlobalBuffer(gz, 2 * kN);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 2 * kN * 4);
    auto l = q.AllocTensor<float>();
    DataCopy(l, X, 2 * kN);
    q.EnQue(l);
    auto m = q.DeQue<float>();
    PipeBarrier<PIPE_ALL>();
    DataCopy(Z, m, 2 * kN);
    q.FreeTensor(m);
  }, "outside every live allocation");
  GmFree(gx);
  GmFree(gz);
}

// A UB tensor used past the buffer InitBuffer gave it.
TEST(Sanitizer, LocalTensorPastItsBuffer) {
  checked_device();
  float *gx = to_gm(random_vector<float>(2 * kN, 3)), *gz = static_cast<float*>(GmAlloc(2 * kN * 4));
  expect_finding("out-of-bounds", 1, [&] {
    GlobalTensor<float> X;
    X.SetGlobalBuffer(gx, 2 * kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, kN * 4);
    auto l = b.Get<float>(2 * kN);  // a view twice the buffer's size
    DataCopy(l, X, 2 * kN);
  }, "outside every buffer");
  GmFree(gx);
  GmFree(gz);
}

// An operand never written: y's tile is never copied in.
TEST(Sanitizer, OperandNeverWritten) {
  checked_device();
  float *gx = to_gm(random_vector<float>(kN, 4)), *gz = static_cast<float*>(GmAlloc(kN * 4));
  expect_finding("uninitialized", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, kN);
    Z.SetGlobalBuffer(gz, kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, kN * 4);
    pipe.InitBuffer(by, kN * 4);
    pipe.InitBuffer(bz, kN * 4);
    auto lx = bx.Get<float>(), ly = by.Get<float>(), lz = bz.Get<float>();
    DataCopy(lx, X, kN);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Add(lz, lx, ly, kN);  // ly holds nothing
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(Z, lz, kN);
  }, "never written");
  GmFree(gx);
  GmFree(gz);
}

// Device memory (aclrtMalloc-like: not host-addressable) read before anything wrote it.
TEST(Sanitizer, DeviceMemoryReadBeforeWritten) {
  checked_device();
  float* gx = static_cast<float*>(GmAlloc(kN * 4));
  float* gz = static_cast<float*>(GmAlloc(kN * 4));
  auto& dev = npuvp::Device::instance();
  Sanitizer::active()->gm_alloc(dev.device_address(gx), kN * 4, false, "aclrtMalloc");
  expect_finding("uninitialized", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, kN);
    Z.SetGlobalBuffer(gz, kN);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, kN * 4);
    auto l = q.AllocTensor<float>();
    DataCopy(l, X, kN);
    q.EnQue(l);
    auto m = q.DeQue<float>();
    PipeBarrier<PIPE_ALL>();
    DataCopy(Z, m, kN);
    q.FreeTensor(m);
  }, "GM");
  GmFree(gx);
  GmFree(gz);
}

// Two cores write the same GM bytes: a race whichever core runs first (they are different
// blocks, so even one core running both one after the other would not order them).
void two_core_kernel(float* gx, float* gz, bool atomic) {
  GlobalTensor<float> X, Z;
  X.SetGlobalBuffer(gx + GetBlockIdx() * kN, kN);
  Z.SetGlobalBuffer(gz, kN);  // the same bytes for every block
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, kN * 4);
  auto l = q.AllocTensor<float>();
  DataCopy(l, X, kN);
  q.EnQue(l);
  auto m = q.DeQue<float>();
  PipeBarrier<PIPE_ALL>();
  if (atomic) SetAtomicAdd<float>();
  DataCopy(Z, m, kN);
  if (atomic) SetAtomicNone();
  q.FreeTensor(m);
}

TEST(Sanitizer, TwoCoresWriteSameGmBytes) {
  checked_device();
  float *gx = to_gm(random_vector<float>(2 * kN, 5)), *gz = static_cast<float*>(GmAlloc(kN * 4));
  expect_finding("race", 2, [&] { two_core_kernel(gx, gz, false); }, "WAW on GM");
  GmFree(gx);
  GmFree(gz);
}

// The same blocks on ONE core, one after the other: still a race (another run may place them
// on two cores).
TEST(Sanitizer, TwoBlocksOnOneCoreStillRace) {
  checked_device({"platform.cores=1"});
  float *gx = to_gm(random_vector<float>(2 * kN, 5)), *gz = static_cast<float*>(GmAlloc(kN * 4));
  expect_finding("race", 2, [&] { two_core_kernel(gx, gz, false); }, "WAW on GM");
  GmFree(gx);
  GmFree(gz);
}

TEST(Sanitizer, AtomicAddsFromTwoCoresDoNotRace) {
  checked_device();
  auto x = random_vector<float>(2 * kN, 5);
  float *gx = to_gm(x), *gz = to_gm(std::vector<float>(kN, 0.0f));
  npuvp::Device::instance().launch("atomic", 2, [&] { two_core_kernel(gx, gz, true); });
  for (int i = 0; i < kN; ++i) ASSERT_EQ(gz[i], x[i] + x[kN + i]) << i;  // (0 + a) + b == (0 + b) + a
  GmFree(gx);
  GmFree(gz);
  expect_silent();
}

// A correct queue kernel: double-buffered, several tiles, on two cores.
void queue_kernel(half* gx, half* gy, half* gz, int tiles) {
  constexpr int kTile = 128;
  const int per_block = kTile * tiles;
  GlobalTensor<half> X, Y, Z;
  X.SetGlobalBuffer(gx + GetBlockIdx() * per_block, per_block);
  Y.SetGlobalBuffer(gy + GetBlockIdx() * per_block, per_block);
  Z.SetGlobalBuffer(gz + GetBlockIdx() * per_block, per_block);
  TPipe pipe;
  TQue<TPosition::VECIN, 2> qx, qy;
  TQue<TPosition::VECOUT, 2> qz;
  pipe.InitBuffer(qx, 2, kTile * 2);
  pipe.InitBuffer(qy, 2, kTile * 2);
  pipe.InitBuffer(qz, 2, kTile * 2);
  for (int i = 0; i < tiles; ++i) {
    auto lx = qx.AllocTensor<half>();
    auto ly = qy.AllocTensor<half>();
    DataCopy(lx, X[i * kTile], kTile);
    DataCopy(ly, Y[i * kTile], kTile);
    qx.EnQue(lx);
    qy.EnQue(ly);
    auto ax = qx.DeQue<half>();
    auto ay = qy.DeQue<half>();
    auto lz = qz.AllocTensor<half>();
    Add(lz, ax, ay, kTile);
    qz.EnQue(lz);
    qx.FreeTensor(ax);
    qy.FreeTensor(ay);
    auto oz = qz.DeQue<half>();
    DataCopy(Z[i * kTile], oz, kTile);
    qz.FreeTensor(oz);
  }
}

TEST(Sanitizer, DoubleBufferedQueuesSilent) {
  checked_device();
  const int tiles = 8, n = 2 * 128 * tiles;
  std::vector<half> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = half(float(i % 7)), y[i] = half(float(i % 5));
  half *gx = to_gm(x), *gy = to_gm(y), *gz = static_cast<half*>(GmAlloc(n * 2));
  npuvp::Device::instance().launch("queues", 2, [&] { queue_kernel(gx, gy, gz, tiles); });
  for (int i = 0; i < n; ++i) ASSERT_EQ(float(gz[i]), float(i % 7 + i % 5)) << i;
  GmFree(gx);
  GmFree(gy);
  GmFree(gz);
  expect_silent();
}

// A hand-written SetFlag nobody waits for.
TEST(Sanitizer, FlagSetButNeverWaited) {
  checked_device();
  float *gx = to_gm(random_vector<float>(kN, 6)), *gz = static_cast<float*>(GmAlloc(kN * 4));
  expect_finding("sync", 1, [&] {
    GlobalTensor<float> X;
    X.SetGlobalBuffer(gx, kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, kN * 4);
    auto l = b.Get<float>();
    DataCopy(l, X, kN);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID3);
  }, "never waited");
  GmFree(gx);
  GmFree(gz);
}

// A wait whose set never comes: the deadlock report names it.
TEST(Sanitizer, WaitNeverMetIsReported) {
  checked_device();
  std::string error = npuvp::testing::kernel_error(npuvp::Device::instance(), 1, [] {
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
  });
  EXPECT_THAT(error, ::testing::HasSubstr("deadlock"));
  EXPECT_EQ(only("sync"), 1u);
  EXPECT_THAT(Sanitizer::active()->findings().at(0).text, ::testing::HasSubstr("WaitFlag"));
  Sanitizer::active()->clear_findings();
}

TEST(Sanitizer, UseAfterFreeAndDoubleFreeAndLeak) {
  checked_device();
  float* gx = to_gm(random_vector<float>(kN, 7));
  GmFree(gx);
  expect_finding("use-after-free", 1, [&] {
    GlobalTensor<float> X;
    X.SetGlobalBuffer(gx, kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, kN * 4);
    DataCopy(b.Get<float>(), X, kN);
  }, "after it was freed");
  Sanitizer* s = Sanitizer::active();
  // Device::free raises for a pointer it does not own: the sanitizer names the double free first.
  EXPECT_ANY_THROW(npuvp::Device::instance().free(gx));
  EXPECT_EQ(s->count("use-after-free"), 1u);
  EXPECT_THAT(s->findings().back().text, ::testing::HasSubstr("double free"));
  s->clear_findings();
}

TEST(Sanitizer, AllocationLeakedAtExit) {
  checked_device();
  void* kept = GmAlloc(100);
  void* freed = GmAlloc(100);
  GmFree(freed);
  Sanitizer* s = Sanitizer::active();
  EXPECT_EQ(s->finish(), 1);
  EXPECT_EQ(only("leak"), 1u);
  EXPECT_THAT(s->findings().at(0).text, ::testing::HasSubstr("100 bytes"));
  s->clear_findings();
  (void)kept;
}

// The process's exit status: non-zero with an error-kind finding, and the JSON report.
TEST(Sanitizer, ExitStatusAndJsonReport) {
  const std::string report = ::testing::TempDir() + "sanitizer_report.json";
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    setenv("NPUVP_CHECK", "race", 1);
    npuvp::testing::make_device({"check.report=" + report});
    float *gx = to_gm(random_vector<float>(kN, 1)), *gz = static_cast<float*>(GmAlloc(kN * 4));
    npuvp::Device::instance().launch("planted", 1, [&] { raw_kernel(gx, gz); });
    std::exit(0);  // the sanitizer's exit hook turns this into 1
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  std::ifstream in(report);
  ASSERT_TRUE(in.good());
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["summary"]["race"], 1);
  EXPECT_EQ(j["findings"][0]["kind"], "race");
  EXPECT_TRUE(j["checks"]["race"].get<bool>());
  EXPECT_FALSE(j["checks"]["memory"].get<bool>());
}

TEST(Sanitizer, UnknownCheckIsAnError) {
  EXPECT_ANY_THROW(npuvp::check::parse_checks("race,speed"));
  const auto all = npuvp::check::parse_checks("all");
  EXPECT_TRUE(all.race && all.memory && all.init && all.sync);
}

}  // namespace sanitizer_test
