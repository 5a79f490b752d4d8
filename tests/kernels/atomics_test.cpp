// GM atomics (SetAtomicAdd/Max/Min, SetAtomicNone, DisableDmaAtomic, SetAtomicType): every
// block of a launch copies its own tile into UB and writes it into ONE shared GM tile with the
// atomic mode set. The L2 home node combines the writes, so the result is the exact sum (or
// max/min) of all blocks' tiles, compared bit for bit with a host reference. Values are small
// integers, so every partial sum is exact and the result does not depend on the order in
// which the cores' writes arrive. Each TEST runs in its own process.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "platforms/ascend_soc.h"
#include "sw/kernels/matmul.h"
#include "tests/support/matmul_reference.h"
#include "tests/support/device_fixture.h"
#include "tikicpulib.h"
#include "tlm/stats.h"
#include "tests/support/sanitizer_expect.h"

using namespace AscendC;
using npuvp::testing::IsCoreError;
using npuvp::testing::IsKernelError;
using npuvp::testing::kernel_error;
using npuvp::testing::make_device;

namespace atomics_test {

constexpr uint32_t kTile = 256;  // elements of the shared tile

// The value block b contributes at element i: a small integer (negative too), so sums of up
// to 64 blocks stay exact in f16, f32 and s32.
int contribution(uint32_t b, uint32_t i) { return int((b * 7 + i * 3) % 11) - 5; }

template <class T>
T* gm_of(const std::vector<T>& v) {
  auto* p = static_cast<T*>(GmAlloc(v.size() * sizeof(T)));
  std::memcpy(p, v.data(), v.size() * sizeof(T));
  return p;
}

// Every block: its tile GM -> UB, then UB -> the shared tile with `set_mode` in force.
template <class T>
void atomic_kernel(T* tiles, T* shared, const std::function<void()>& set_mode) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kTile * sizeof(T));
  LocalTensor<T> ub = buf.Get<T>();
  GlobalTensor<T> mine, out;
  mine.SetGlobalBuffer(tiles + GetBlockIdx() * kTile, kTile);
  out.SetGlobalBuffer(shared, kTile);
  DataCopy(ub, mine, kTile);
  SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
  set_mode();
  DataCopy(out, ub, kTile);
  DisableDmaAtomic();
}

// Runs atomic_kernel on `blocks` blocks; the shared tile starts at `initial`. Returns it.
template <class T>
std::vector<T> run_atomic(npuvp::Device& dev, uint32_t blocks, const std::vector<T>& initial,
                          const std::function<void()>& set_mode) {
  std::vector<T> tiles(size_t(blocks) * kTile);
  for (uint32_t b = 0; b < blocks; ++b) {
    for (uint32_t i = 0; i < kTile; ++i) tiles[size_t(b) * kTile + i] = static_cast<T>(contribution(b, i));
  }
  T* gm_tiles = gm_of(tiles);
  T* gm_shared = gm_of(initial);
  dev.launch("atomic", blocks, [&] { atomic_kernel<T>(gm_tiles, gm_shared, set_mode); });
  std::vector<T> out(gm_shared, gm_shared + kTile);
  GmFree(gm_tiles);
  GmFree(gm_shared);
  return out;
}

enum class Combine { Add, Max, Min };
template <class T>
std::vector<T> reference(uint32_t blocks, const std::vector<T>& initial, Combine how) {
  std::vector<T> r = initial;
  for (uint32_t b = 0; b < blocks; ++b) {
    for (uint32_t i = 0; i < kTile; ++i) {
      const T v = static_cast<T>(contribution(b, i));
      r[i] = how == Combine::Add ? static_cast<T>(r[i] + v) : how == Combine::Max ? std::max(r[i], v) : std::min(r[i], v);
    }
  }
  return r;
}

template <class T>
std::vector<T> initial_tile(int base) {
  std::vector<T> v(kTile);
  for (uint32_t i = 0; i < kTile; ++i) v[i] = static_cast<T>(base + int(i % 5));
  return v;
}

template <class T>
void expect_bits_equal(const std::vector<T>& got, const std::vector<T>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(std::memcmp(&got[i], &want[i], sizeof(T)), 0)
        << "element " << i << ": got " << double(got[i]) << ", want " << double(want[i]);
  }
}

uint64_t l2_atomic_bytes(npuvp::Device& dev) {
  uint64_t total = 0;
  for (unsigned i = 0; i < dev.soc().num_l2_slices(); ++i) {
    total += npuvp::Stats::global().value(std::string(dev.soc().l2_slice(i).name()) + ".atomic_bytes");
  }
  return total;
}

// 48 AIVs of the full Ascend 910B add f32 tiles into one GM tile at once: the exact sum, and
// every byte went through an L2 slice's read-modify-write unit.
TEST(GmAtomics, AddF32From48AivsIsTheExactSum910B) {
  auto& dev = make_device({}, "ascend910b");
  const auto init = initial_tile<float>(100);
  const auto got = run_atomic<float>(dev, 48, init, [] { SetAtomicAdd<float>(); });
  expect_bits_equal(got, reference<float>(48, init, Combine::Add));
  EXPECT_EQ(l2_atomic_bytes(dev), 48u * kTile * sizeof(float));
}

// The 32 cores of the Ascend 910 (atomics: f32 add only).
TEST(GmAtomics, AddF32From32CoresIsTheExactSum910) {
  auto& dev = make_device({}, "ascend910");
  const auto init = initial_tile<float>(-3);
  const auto got = run_atomic<float>(dev, 32, init, [] { SetAtomicAdd<float>(); });
  expect_bits_equal(got, reference<float>(32, init, Combine::Add));
}

// half on the 8 AI Cores of the Ascend 310P.
TEST(GmAtomics, AddF16From8CoresIsTheExactSum310P) {
  auto& dev = make_device({}, "ascend310p");
  const auto init = initial_tile<half>(7);
  const auto got = run_atomic<half>(dev, 8, init, [] { SetAtomicAdd<half>(); });
  expect_bits_equal(got, reference<half>(8, init, Combine::Add));
}

// int16_t on the 310P.
TEST(GmAtomics, AddS16From8CoresIsTheExactSum310P) {
  auto& dev = make_device({}, "ascend310p");
  const auto init = initial_tile<int16_t>(1000);
  const auto got = run_atomic<int16_t>(dev, 8, init, [] { SetAtomicAdd<int16_t>(); });
  expect_bits_equal(got, reference<int16_t>(8, init, Combine::Add));
}

TEST(GmAtomics, AddS32From48AivsIsTheExactSum910B) {
  auto& dev = make_device({}, "ascend910b");
  const auto init = initial_tile<int32_t>(-40);
  const auto got = run_atomic<int32_t>(dev, 48, init, [] { SetAtomicAdd<int32_t>(); });
  expect_bits_equal(got, reference<int32_t>(48, init, Combine::Add));
}

TEST(GmAtomics, AddF16From48AivsIsTheExactSum910B) {
  auto& dev = make_device({}, "ascend910b");
  const auto init = initial_tile<half>(3);
  const auto got = run_atomic<half>(dev, 48, init, [] { SetAtomicAdd<half>(); });
  expect_bits_equal(got, reference<half>(48, init, Combine::Add));
}

TEST(GmAtomics, AddBf16From16AivsIsTheExactSum910B) {
  auto& dev = make_device({}, "ascend910b");
  const auto init = initial_tile<bfloat16_t>(2);
  const auto got = run_atomic<bfloat16_t>(dev, 16, init, [] { SetAtomicAdd<bfloat16_t>(); });
  const auto want = reference<bfloat16_t>(16, init, Combine::Add);
  for (uint32_t i = 0; i < kTile; ++i) ASSERT_EQ(got[i].bits, want[i].bits) << "element " << i;
}

TEST(GmAtomics, MaxF32From48AivsIsTheLargest910B) {
  auto& dev = make_device({}, "ascend910b");
  const auto init = initial_tile<float>(-2);
  const auto got = run_atomic<float>(dev, 48, init, [] { SetAtomicMax<float>(); });
  expect_bits_equal(got, reference<float>(48, init, Combine::Max));
}

TEST(GmAtomics, MinS32From48AivsIsTheSmallest910B) {
  auto& dev = make_device({}, "ascend910b");
  const auto init = initial_tile<int32_t>(-3);
  const auto got = run_atomic<int32_t>(dev, 48, init, [] { SetAtomicMin<int32_t>(); });
  expect_bits_equal(got, reference<int32_t>(48, init, Combine::Min));
}

// SetAtomicType changes the element type of the mode already set (SetAtomicAdd<float> then
// SetAtomicType<int32_t> adds int32s).
TEST(GmAtomics, SetAtomicTypeChangesTheElementType910B) {
  auto& dev = make_device({}, "ascend910b");
  const auto init = initial_tile<int32_t>(9);
  const auto got = run_atomic<int32_t>(dev, 4, init, [] {
    SetAtomicAdd<float>();
    SetAtomicType<int32_t>();
  });
  expect_bits_equal(got, reference<int32_t>(4, init, Combine::Add));
}

// After SetAtomicNone the writes overwrite: every block writes its own tile in turn, and the
// tile holds one block's values exactly (never a sum).
TEST(GmAtomics, SetAtomicNoneWritesPlainly910B) {
  auto& dev = make_device({}, "ascend910b");
  const auto got = run_atomic<int32_t>(dev, 1, initial_tile<int32_t>(50), [] {
    SetAtomicAdd<int32_t>();
    SetAtomicNone();
  });
  std::vector<int32_t> want(kTile);
  for (uint32_t i = 0; i < kTile; ++i) want[i] = contribution(0, i);
  expect_bits_equal(got, want);
}

// The mode is taken when an instruction is issued: a copy issued before SetAtomicAdd is plain
// even though it runs on MTE3 after the mode was set.
TEST(GmAtomics, ModeIsCapturedWhenTheCopyIsIssued910B) {
  auto& dev = make_device({}, "ascend910b");
  std::vector<float> in(kTile, 2.0f), init(kTile, 10.0f);
  float* gin = gm_of(in);
  float* gout = gm_of(init);
  dev.launch("capture", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    LocalTensor<float> ub = buf.Get<float>();
    GlobalTensor<float> src, dst;
    src.SetGlobalBuffer(gin, kTile);
    dst.SetGlobalBuffer(gout, kTile);
    DataCopy(ub, src, kTile);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(dst, ub, kTile);  // plain: 2
    SetAtomicAdd<float>();
    DataCopy(dst, ub, kTile);  // 2 + 2
    DataCopy(dst, ub, kTile);  // 4 + 2
    DisableDmaAtomic();
  });
  for (uint32_t i = 0; i < kTile; ++i) ASSERT_EQ(gout[i], 6.0f) << "element " << i;
}

// A strided copy adds its blocks and leaves the gaps between them as they were: 8 blocks of
// 32 B (8 floats) written every other block, by 4 cores.
TEST(GmAtomics, StridedCopyAddsItsBlocksOnly910B) {
  auto& dev = make_device({}, "ascend910b");
  std::vector<float> in(64), init(128);
  for (uint32_t i = 0; i < 64; ++i) in[i] = float(i % 9);
  for (uint32_t i = 0; i < 128; ++i) init[i] = 1000.0f + float(i);
  float* gin = gm_of(in);
  float* gout = gm_of(init);
  dev.launch("strided", 4, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    LocalTensor<float> ub = buf.Get<float>();
    GlobalTensor<float> src, dst;
    src.SetGlobalBuffer(gin, 64);
    dst.SetGlobalBuffer(gout, 128);
    DataCopy(ub, src, 64);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    SetAtomicAdd<float>();
    DataCopy(dst, ub, DataCopyParams(8, 1, 0, 1));
    DisableDmaAtomic();
  });
  for (uint32_t i = 0; i < 128; ++i) {
    const uint32_t block = i / 8;
    const float want = block % 2 == 0 ? init[i] + 4 * in[(block / 2) * 8 + i % 8] : init[i];
    ASSERT_EQ(gout[i], want) << "element " << i;
  }
}

// Functional mode (no time) gives the same exact sum.
TEST(GmAtomics, AddF32IsExactInFunctionalMode910B) {
  auto& dev = make_device({"sim.mode=functional"}, "ascend910b");
  const auto init = initial_tile<float>(1);
  const auto got = run_atomic<float>(dev, 48, init, [] { SetAtomicAdd<float>(); });
  expect_bits_equal(got, reference<float>(48, init, Combine::Add));
}

// Perf mode moves no bytes: GM keeps its values, the L2 still times every atomic byte.
TEST(GmAtomics, PerfModeTimesAtomicsWithoutData910B) {
  auto& dev = make_device({"sim.mode=perf"}, "ascend910b");
  const auto init = initial_tile<float>(1);
  const auto got = run_atomic<float>(dev, 8, init, [] { SetAtomicAdd<float>(); });
  expect_bits_equal(got, init);
  EXPECT_EQ(l2_atomic_bytes(dev), 8u * kTile * sizeof(float));
}

// Timing: the same copies from all 48 AIVs cost more as atomic writes (the L2 waits for the
// old lines, reads, combines and writes them, queueing at each slice's atomic unit) than as
// plain posted writes.
TEST(GmAtomics, AtomicWritesTakeLongerThanPlainOnes910B) {
  auto& dev = make_device({}, "ascend910b");
  constexpr uint32_t kElems = 8192, kCopies = 8;  // 32 KB per copy
  auto* src = static_cast<float*>(GmAlloc(kElems * sizeof(float)));
  auto* dst = static_cast<float*>(GmAlloc(size_t(kElems) * kCopies * 48 * sizeof(float)));
  auto kernel = [&](bool atomic) {
    return [&, atomic] {
      TPipe pipe;
      TBuf<TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, kElems * sizeof(float));
      LocalTensor<float> ub = buf.Get<float>();
      GlobalTensor<float> s, d;
      s.SetGlobalBuffer(src, kElems);
      d.SetGlobalBuffer(dst + size_t(GetBlockIdx()) * kElems * kCopies, size_t(kElems) * kCopies);
      DataCopy(ub, s, kElems);
      SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
      WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
      if (atomic) SetAtomicAdd<float>();
      for (uint32_t r = 0; r < kCopies; ++r) DataCopy(d[r * kElems], ub, kElems);
      SetAtomicNone();
    };
  };
  const sc_core::sc_time plain = dev.launch("plain", 48, kernel(false)).sim_time;
  const sc_core::sc_time atomic = dev.launch("atomic", 48, kernel(true)).sim_time;
  EXPECT_GT(atomic, plain * 1.2) << "atomic " << atomic << ", plain " << plain;
}

// Contention at the home node: 48 AIVs adding into one 512 B tile (one line: one slice)
// queue at that slice's atomic unit; adding into 48 different tiles spreads over the slices.
TEST(GmAtomics, OneSharedLineIsSlowerThanSeparateLines910B) {
  auto& dev = make_device({}, "ascend910b");
  constexpr uint32_t kElems = 128;  // 512 B
  auto* src = static_cast<float*>(GmAlloc(kElems * sizeof(float)));
  auto* dst = static_cast<float*>(GmAlloc(size_t(kElems) * 48 * sizeof(float)));
  auto kernel = [&](bool shared) {
    return [&, shared] {
      TPipe pipe;
      TBuf<TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, kElems * sizeof(float));
      LocalTensor<float> ub = buf.Get<float>();
      GlobalTensor<float> s, d;
      s.SetGlobalBuffer(src, kElems);
      d.SetGlobalBuffer(dst + (shared ? 0 : GetBlockIdx() * kElems), kElems);
      DataCopy(ub, s, kElems);
      SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
      WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
      SetAtomicAdd<float>();
      for (int r = 0; r < 16; ++r) DataCopy(d, ub, kElems);
      SetAtomicNone();
    };
  };
  const sc_core::sc_time separate = dev.launch("separate", 48, kernel(false)).sim_time;
  const sc_core::sc_time shared = dev.launch("shared", 48, kernel(true)).sim_time;
  EXPECT_GT(shared, separate) << "shared " << shared << ", separate " << separate;
}

// L0C -> GM (Fixpipe on A2) honours the mode too: the A2 matmul run twice, the second time
// with SetAtomicAdd<float>, leaves C = A*B + A*B, i.e. exactly twice the reference.
TEST(GmAtomics, FixpipeWritesAddWithTheModeSet910B) {
  auto& dev = make_device({}, "core910b");
  constexpr uint32_t m = 32, n = 48, k = 64;
  auto a = npuvp::testing::random_halves(size_t(m) * k, 11);
  auto b = npuvp::testing::random_halves(size_t(k) * n, 12);
  auto* ga = gm_of(a);
  auto* gb = gm_of(b);
  auto* gc = static_cast<float*>(GmAlloc(size_t(m) * n * sizeof(float)));
  const npuvp::kernels::MatmulShape shape{m, n, k};
  for (bool atomic : {false, true}) {
    dev.launch("matmul", 1, [&] {
      if (atomic) SetAtomicAdd<float>();
      npuvp::kernels::matmul_a2<float>(reinterpret_cast<GM_ADDR>(ga), reinterpret_cast<GM_ADDR>(gb),
                                       reinterpret_cast<GM_ADDR>(gc), shape);
      DisableDmaAtomic();
    });
  }
  auto want = npuvp::testing::matmul_reference(a, b, m, n, k);
  for (auto& w : want) w = static_cast<float>(w) * 2;  // doubling is exact
  const long bad = npuvp::testing::first_mismatch(gc, want);
  EXPECT_EQ(bad, -1) << "C[" << bad << "] = " << (bad < 0 ? 0.0 : double(gc[bad]));
  EXPECT_EQ(npuvp::Stats::global().value("core0.gm.atomic_bytes"), uint64_t(m) * n * sizeof(float));
}

// ---- Errors: what a product does not support, named with the core and the time.

TEST(GmAtomicsErrors, MaxIsNotOnThe910) {
  auto& dev = make_device({}, "ascend910");
  EXPECT_THAT(kernel_error(dev, 1, [] { SetAtomicMax<float>(); }),
              IsKernelError("SetAtomicMax<f32>", "atomic max/min exist only on Atlas A2"));
}

TEST(GmAtomicsErrors, HalfAddIsNotOnThe910) {
  auto& dev = make_device({}, "ascend910");
  EXPECT_THAT(kernel_error(dev, 1, [] { SetAtomicAdd<half>(); }),
              IsKernelError("SetAtomicAdd<f16>", "supports atomics on float only"));
}

TEST(GmAtomicsErrors, SetAtomicTypeIsNotOnThe910) {
  auto& dev = make_device({}, "ascend910");
  EXPECT_THAT(kernel_error(dev, 1, [] { SetAtomicType<float>(); }),
              IsKernelError("SetAtomicType<f32>", "has no SetAtomicType"));
}

TEST(GmAtomicsErrors, Int32AddIsNotOnThe310P) {
  auto& dev = make_device({}, "ascend310p");
  EXPECT_THAT(kernel_error(dev, 1, [] { SetAtomicAdd<int32_t>(); }),
              IsKernelError("SetAtomicAdd<s32>", "int16_t, half and float only"));
}

TEST(GmAtomicsErrors, Uint8IsNotAnAtomicType910B) {
  auto& dev = make_device({}, "ascend910b");
  EXPECT_THAT(kernel_error(dev, 1, [] { SetAtomicAdd<uint8_t>(); }),
              IsCoreError("aiv0", "SetAtomicAdd<u8>", "not u8"));
}

// Without an L2 there is no home node to combine an atomic write: an error, not a plain write.
TEST(GmAtomicsErrors, AtomicWriteWithoutAnL2IsAnError) {
  auto& dev = make_device({"l2.slices=0"}, "ascend910b");
  auto* gm = static_cast<float*>(GmAlloc(kTile * sizeof(float)));
  std::string text = kernel_error(dev, 1, [gm] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> g;
    g.SetGlobalBuffer(gm, kTile);
    SetAtomicAdd<float>();
    DataCopy(g, buf.Get<float>(), kTile);
    PipeBarrier<PIPE_ALL>();
  });
  EXPECT_THAT(text, IsCoreError("aiv0", "DataCopy", "reached no L2 home node"));
  npuvp::testing::expect_planted({"uninitialized"});  // NPUVP_CHECK=all: the bug is reported
}
}  // namespace atomics_test
