// Kernels written inline with explicit flags, DataCopyParams and the mask/repeat forms,
// checked bit for bit against plain C++ references.
#include <gtest/gtest.h>
#include <gmock/gmock.h>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <random>
#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tikicpulib.h"
#include "tests/support/sanitizer_expect.h"

using namespace AscendC;

namespace handwritten_test {

using npuvp::testing::random_vector;
using npuvp::testing::same_bits;
using npuvp::testing::to_gm;

// Sub over float with explicit SetFlag/WaitFlag instead of queues, one block.
TEST(HandwrittenKernels, ExplicitFlagsSubFloat) {
  auto& dev = npuvp::testing::make_device();
  const int n = 1024;
  auto x = random_vector<float>(n, 1), y = random_vector<float>(n, 2);
  float *gx = to_gm(x), *gy = to_gm(y), *gz = static_cast<float*>(GmAlloc(n * sizeof(float)));
  dev.launch("sub", 1, [&] {
    GlobalTensor<float> X, Y, Z;
    X.SetGlobalBuffer(gx, n);
    Y.SetGlobalBuffer(gy, n);
    Z.SetGlobalBuffer(gz, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, n * 4);
    pipe.InitBuffer(by, n * 4);
    pipe.InitBuffer(bz, n * 4);
    auto lx = bx.Get<float>(), ly = by.Get<float>(), lz = bz.Get<float>();
    DataCopy(lx, X, n);
    DataCopy(ly, Y, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Sub(lz, lx, ly, n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
    DataCopy(Z, lz, n);
  });
  for (int i = 0; i < n; ++i) ASSERT_TRUE(same_bits(gz[i], x[i] - y[i])) << i;
}

// Without the MTE2->V flag, V computes on stale UB contents: a wrong answer, as on hardware.
TEST(HandwrittenKernels, MissingFlagGivesWrongAnswer) {
  auto& dev = npuvp::testing::make_device();
  const int n = 256;
  std::vector<float> x(n, 3.0f);
  float *gx = to_gm(x), *gz = static_cast<float*>(GmAlloc(n * sizeof(float)));
  dev.launch("racy", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, n);
    Z.SetGlobalBuffer(gz, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, n * 4);
    auto l = b.Get<float>();
    DataCopy(l, X, n);
    Muls(l, l, 2.0f, n);  // no WaitFlag<MTE2_V>: runs before the copy lands
    PipeBarrier<PIPE_ALL>();
    DataCopy(Z, l, n);
  });
  EXPECT_EQ(gz[0], 3.0f);  // the copy landed after Muls read zeros: 3, not 6
  npuvp::testing::expect_planted({"race"});  // NPUVP_CHECK=all: the bug is reported
}

// DataCopyParams with gaps on both sides: every other 32 B block from GM, packed in UB,
// written back spread out with a 2-block gap.
TEST(HandwrittenKernels, DataCopyParamsGaps) {
  auto& dev = npuvp::testing::make_device();
  const int blocks = 16, per_block = 8;  // 8 floats = 32 B
  auto x = random_vector<float>(2 * blocks * per_block, 3);
  std::vector<float> zinit(3 * blocks * per_block, -1.0f);
  float *gx = to_gm(x), *gz = to_gm(zinit);
  dev.launch("gaps", 1, [&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx);
    Z.SetGlobalBuffer(gz);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, blocks * 32);
    auto l = b.Get<float>();
    DataCopy(l, X, DataCopyParams(blocks, 1, 1, 0));
    PipeBarrier<PIPE_ALL>();
    DataCopy(Z, l, DataCopyParams(blocks, 1, 0, 2));
  });
  for (int blk = 0; blk < blocks; ++blk) {
    for (int e = 0; e < per_block; ++e) {
      ASSERT_EQ(gz[blk * 3 * per_block + e], x[blk * 2 * per_block + e]) << blk;
      ASSERT_EQ(gz[blk * 3 * per_block + per_block + e], -1.0f);
    }
  }
}

// The mask/repeat form with strides, half: Max over the first 100 elements of 2 repeats,
// source 1 read with repeat stride 0 (the same 8 blocks twice).
TEST(HandwrittenKernels, MaskRepeatFormWithRepeatStrideZero) {
  auto& dev = npuvp::testing::make_device();
  const int n = 256;
  auto a = random_vector<half>(n, 4), b = random_vector<half>(128, 5);
  std::vector<half> zinit(n, half(7));
  half *ga = to_gm(a), *gb = to_gm(b), *gz = to_gm(zinit);
  dev.launch("max", 1, [&] {
    GlobalTensor<half> A, B, Z;
    A.SetGlobalBuffer(ga);
    B.SetGlobalBuffer(gb);
    Z.SetGlobalBuffer(gz);
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb, bz;
    pipe.InitBuffer(ba, n * 2);
    pipe.InitBuffer(bb, 128 * 2);
    pipe.InitBuffer(bz, n * 2);
    auto la = ba.Get<half>(), lb = bb.Get<half>(), lz = bz.Get<half>();
    DataCopy(la, A, n);
    DataCopy(lb, B, 128);
    DataCopy(lz, Z, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Max(lz, la, lb, 100, 2, BinaryRepeatParams(1, 1, 1, 8, 8, 0));
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(Z, lz, n);
  });
  for (int r = 0; r < 2; ++r) {
    for (int i = 0; i < 128; ++i) {
      const int k = r * 128 + i;
      const half want = i < 100 ? (a[k] > b[i] ? a[k] : b[i]) : half(7);
      ASSERT_TRUE(same_bits(gz[k], want)) << k;
    }
  }
}

// Each of the vector ops the foundation provides, count form, against a reference.
template <class T, class Api, class Ref>
void check_op(Api api, Ref ref, int inputs, float lo = -8, float hi = 8) {
  auto& dev = npuvp::testing::make_device();
  const int n = 1000;  // not a multiple of a repeat: the tail is handled by the count form
  // The buffers hold whole 32 B blocks (1024 elements): DataCopy moves those, and the bytes
  // past n must be the host's, and written (NPUVP_CHECK=all).
  auto x = random_vector<T>(1024, 11, lo, hi), y = random_vector<T>(1024, 12, lo, hi);
  for (auto& v : y) {
    if (v == T(0)) v = T(1);
  }
  T *gx = to_gm(x), *gy = to_gm(y), *gz = static_cast<T*>(GmAlloc(1024 * sizeof(T)));
  dev.launch("op", 1, [&] {
    GlobalTensor<T> X, Y, Z;
    X.SetGlobalBuffer(gx);
    Y.SetGlobalBuffer(gy);
    Z.SetGlobalBuffer(gz);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, 1024 * sizeof(T));
    pipe.InitBuffer(by, 1024 * sizeof(T));
    pipe.InitBuffer(bz, 1024 * sizeof(T));
    auto lx = bx.Get<T>(), ly = by.Get<T>(), lz = bz.Get<T>();
    DataCopy(lx, X, 1024);
    if (inputs == 2) DataCopy(ly, Y, 1024);
    Duplicate(lz, T(0), 1024);  // the 24 elements past n are copied out too
    PipeBarrier<PIPE_ALL>();
    api(lz, lx, ly, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(Z, lz, 1024);
  });
  for (int i = 0; i < n; ++i) {
    const T want = ref(x[i], y[i]);
    ASSERT_TRUE(same_bits(gz[i], want)) << "element " << i << ": got " << double(gz[i]) << " want " << double(want);
  }
}

#define OP2(name) [](auto& z, auto& x, auto& y, int n) { name(z, x, y, n); }
#define OP1(name) [](auto& z, auto& x, auto&, int n) { name(z, x, n); }

TEST(VectorOps, AddHalf) { check_op<half>(OP2(Add), [](half a, half b) { return half(float(a) + float(b)); }, 2); }
TEST(VectorOps, SubInt32) { check_op<int32_t>(OP2(Sub), [](int32_t a, int32_t b) { return a - b; }, 2, -1e6, 1e6); }
TEST(VectorOps, MulHalf) { check_op<half>(OP2(Mul), [](half a, half b) { return half(float(a) * float(b)); }, 2); }
TEST(VectorOps, DivFloat) { check_op<float>(OP2(Div), [](float a, float b) { return a / b; }, 2); }
TEST(VectorOps, MaxInt32) { check_op<int32_t>(OP2(Max), [](int32_t a, int32_t b) { return a > b ? a : b; }, 2, -1e6, 1e6); }
TEST(VectorOps, MinFloat) { check_op<float>(OP2(Min), [](float a, float b) { return a < b ? a : b; }, 2); }
TEST(VectorOps, AddsHalf) {
  check_op<half>([](auto& z, auto& x, auto&, int n) { Adds(z, x, half(1.5), n); },
                 [](half a, half) { return half(float(a) + 1.5f); }, 1);
}
TEST(VectorOps, MulsFloat) {
  check_op<float>([](auto& z, auto& x, auto&, int n) { Muls(z, x, 0.1f, n); },
                  [](float a, float) { return a * 0.1f; }, 1);
}
TEST(VectorOps, AbsHalf) { check_op<half>(OP1(Abs), [](half a, half) { return a < half(0) ? half(-a) : a; }, 1); }
TEST(VectorOps, ReluFloat) { check_op<float>(OP1(Relu), [](float a, float) { return a > 0 ? a : 0.0f; }, 1); }
TEST(VectorOps, ExpFloat) { check_op<float>(OP1(Exp), [](float a, float) { return std::exp(a); }, 1); }
TEST(VectorOps, ExpHalf) { check_op<half>(OP1(Exp), [](half a, half) { return half(std::exp(float(a))); }, 1, -4, 4); }
TEST(VectorOps, DuplicateInt32) {
  check_op<int32_t>([](auto& z, auto&, auto&, int n) { Duplicate(z, int32_t(-7), n); },
                    [](int32_t, int32_t) { return int32_t(-7); }, 1);
}

// Kernel locals live on the scalar thread's stack, core.scalar.stack_size bytes with a guard
// page below it. Both tests walk a local array from its top (next to the caller's frame) down,
// every 64 B, so a stack smaller than the walk meets the guard page before anything else: the
// first test shows the stack is at least 3/4 of the configured size, the second that it ends
// below 3/2 of it, and that running off its end is a clear error rather than silent damage.
constexpr size_t kStack = 1 << 20;

template <size_t N>
int64_t walk_local_array_top_down() {
  volatile uint8_t big[N];
  for (size_t i = N; i >= 64; i -= 64) big[i - 64] = static_cast<uint8_t>(i >> 6);
  int64_t sum = 0;
  for (size_t i = N; i >= 64; i -= 64) sum += big[i - 64];
  return sum;
}

TEST(HandwrittenKernels, KernelStackHoldsALocalArrayOfThreeQuartersItsSize) {
  auto& dev = npuvp::testing::make_device({"platform.cores=1", "core.scalar.stack_size=" + std::to_string(kStack)});
  constexpr size_t n = kStack / 4 * 3;
  int64_t sum = 0;
  dev.launch("stack", 1, [&] { sum = walk_local_array_top_down<n>(); });
  int64_t want = 0;
  for (size_t i = n; i >= 64; i -= 64) want += static_cast<uint8_t>(i >> 6);
  EXPECT_EQ(sum, want);
}

TEST(HandwrittenKernels, KernelStackOverflowIsAClearErrorNamingTheParameter) {
  auto& dev = npuvp::testing::make_device({"platform.cores=1", "core.scalar.stack_size=" + std::to_string(kStack)});
  int64_t sum = 0;
  const std::string e =
      npuvp::testing::kernel_error(dev, 1, [&] { sum = walk_local_array_top_down<kStack / 2 * 3>(); });
  EXPECT_THAT(e, ::testing::MatchesRegex("soc\\.core0 block 0 @ .*: the kernel body overflowed its stack: .* "
                                         "core\\.scalar\\.stack_size = 1048576 bytes.*"))
      << "the kernel ran with a sum of " << sum;
}

TEST(HandwrittenKernels, StackSizeBelowTheMinimumIsAConfigurationError) {
  try {
    npuvp::testing::make_device({"core.scalar.stack_size=16KiB"});
    FAIL() << "a 16 KiB kernel stack was accepted";
  } catch (const std::exception& e) {
    EXPECT_THAT(npuvp::error_text(e), ::testing::HasSubstr("config @ 0 s: core.scalar.stack_size 16384 is below the minimum 65536 bytes"));
  }
}

// UB -> UB DataCopy (on the V pipe), by count and with gaps.
TEST(HandwrittenKernels, UbToUbCopies) {
  auto& dev = npuvp::testing::make_device({"platform.cores=1"});
  const int n = 512;
  auto x = random_vector<int32_t>(n, 9, -1e6, 1e6);
  int32_t* gx = to_gm(x);
  auto* gz = static_cast<int32_t*>(GmAlloc(2 * n * sizeof(int32_t)));
  std::memset(gz, 0, 2 * n * sizeof(int32_t));
  dev.launch("ub2ub", 1, [&] {
    GlobalTensor<int32_t> X, Z;
    X.SetGlobalBuffer(gx);
    Z.SetGlobalBuffer(gz);
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, n * 4);
    pipe.InitBuffer(b, 2 * n * 4);
    auto la = a.Get<int32_t>(), lb = b.Get<int32_t>();
    DataCopy(la, X, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Duplicate(lb, int32_t(0), 2 * n);
    DataCopy(lb, la, DataCopyParams(n / 8, 1, 0, 1));  // every 32 B block, one block apart
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(Z, lb, 2 * n);
  });
  for (int blk = 0; blk < n / 8; ++blk) {
    for (int e = 0; e < 8; ++e) {
      ASSERT_EQ(gz[blk * 16 + e], x[blk * 8 + e]);
      ASSERT_EQ(gz[blk * 16 + 8 + e], 0);
    }
  }
}
}  // namespace handwritten_test
