// The scalar-operand ops (Maxs, Mins, ShiftLeft, ShiftRight), Copy, GatherMask, Scatter, the
// whole-tensor LocalTensor operators and Fill / InitGlobalMemory end to end: kernels run them
// on UB contents loaded from GM, and every byte of the UB window (untouched elements
// included) is compared with a plain host reference. One error test per limit. Each TEST runs
// in its own process (ctest).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/raw_tensors.h"
#include "tikicpulib.h"
#include "tests/support/sanitizer_expect.h"

using namespace AscendC;
using ::testing::HasSubstr;
using npuvp::testing::IsKernelError;
using npuvp::testing::kernel_error;
using npuvp::testing::make_device;
using npuvp::testing::ub_at;

namespace vector_basic_test {

// The process's device (one test per process): configured on first use, before any GmAlloc.
npuvp::Device& device(const char* platform = "core910b") {
  static npuvp::Device& dev = make_device({}, platform);
  return dev;
}

constexpr uint32_t kUb = 8192;  // the UB window a test loads and reads back

// The UB window as host bytes, with typed access.
struct Window {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(kUb);
  template <class T>
  T get(uint32_t offset, uint32_t i) const {
    T v;
    std::memcpy(&v, bytes.data() + offset + i * sizeof(T), sizeof(T));
    return v;
  }
  template <class T>
  void set(uint32_t offset, uint32_t i, T v) {
    std::memcpy(bytes.data() + offset + i * sizeof(T), &v, sizeof(T));
  }
};

// A window of deterministic bytes.
Window filled(uint8_t seed) {
  Window w;
  for (uint32_t i = 0; i < kUb; ++i) w.bytes[i] = static_cast<uint8_t>(seed + i * 13 + (i >> 7));
  return w;
}

template <class T>
LocalTensor<T> at(const LocalTensor<uint8_t>& ub, uint32_t offset, uint32_t n) {
  LocalTensor<T> t = ub[offset].template ReinterpretCast<T>();
  t.SetSize(n);
  return t;
}

// Runs body on one core with UB [0, kUb) loaded from `in`; returns the window afterwards.
Window run(const Window& in, const std::function<void(const LocalTensor<uint8_t>&)>& body,
           const char* platform = "core910b") {
  auto& dev = device(platform);
  uint8_t* gin = npuvp::testing::to_gm(in.bytes);
  uint8_t* gout = npuvp::testing::to_gm(std::vector<uint8_t>(kUb, 0));
  dev.launch("vector_basic", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kUb);
    const LocalTensor<uint8_t> ub = buf.Get<uint8_t>();
    GlobalTensor<uint8_t> g_in, g_out;
    g_in.SetGlobalBuffer(gin, kUb);
    g_out.SetGlobalBuffer(gout, kUb);
    DataCopy(ub, g_in, kUb);
    PipeBarrier<PIPE_ALL>();
    body(ub);
    PipeBarrier<PIPE_ALL>();
    DataCopy(g_out, ub, kUb);
  });
  Window out;
  std::memcpy(out.bytes.data(), gout, kUb);
  return out;
}

template <class T>
void put_values(Window& w, uint32_t offset, const std::vector<T>& v) {
  for (uint32_t i = 0; i < v.size(); ++i) w.set<T>(offset, i, v[i]);
}

// ---- Host references (docs/vector-isa.md): Max/Min take a NaN operand (the first), +0 > -0.
template <class T>
T ref_max(T a, T b) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half>) {
    const float x = static_cast<float>(a), y = static_cast<float>(b);
    if (x != x) return a;
    if (y != y) return b;
    if (x == y) return std::signbit(x) ? b : a;
    return x > y ? a : b;
  } else {
    return a > b ? a : b;
  }
}
template <class T>
T ref_min(T a, T b) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half>) {
    const float x = static_cast<float>(a), y = static_cast<float>(b);
    if (x != x) return a;
    if (y != y) return b;
    if (x == y) return std::signbit(x) ? a : b;
    return x < y ? a : b;
  } else {
    return a < b ? a : b;
  }
}

// ---- Maxs / Mins

template <class T>
void check_maxs_mins(std::vector<T> values, T scalar, uint32_t count) {
  Window in = filled(1);
  put_values(in, 0, values);
  Window out = run(in, [&](const LocalTensor<uint8_t>& ub) {
    Maxs(at<T>(ub, 4096, count), at<T>(ub, 0, count), scalar, count);
    Mins(at<T>(ub, 6144, count), at<T>(ub, 0, count), scalar, static_cast<int32_t>(count));
  });
  Window want = in;
  for (uint32_t i = 0; i < count; ++i) {
    want.set<T>(4096, i, ref_max(in.get<T>(0, i), scalar));
    want.set<T>(6144, i, ref_min(in.get<T>(0, i), scalar));
  }
  EXPECT_EQ(out.bytes, want.bytes);
}

TEST(VectorBasic, MaxsMinsHalfOddCountWithNanAndSignedZeros) {
  std::vector<half> v = {half(0.0f), half(-0.0f), half(std::nanf("")), half(1.5f), half(-2.0f), half(0.5f)};
  for (int i = 0; i < 200; ++i) v.push_back(half(static_cast<float>((i * 37) % 23) - 11.0f));
  check_maxs_mins<half>(v, half(0.5f), 203);
}
TEST(VectorBasic, MaxsMinsFloatAndNegativeZeroScalar) {
  std::vector<float> v = {0.0f, -0.0f, std::nanf(""), -1.0f, 3.0f};
  for (int i = 0; i < 100; ++i) v.push_back(static_cast<float>((i * 7) % 13) - 6.25f);
  check_maxs_mins<float>(v, -0.0f, 70);
}
TEST(VectorBasic, MaxsMinsInt16AndInt32) {
  std::vector<int16_t> a;
  for (int i = 0; i < 150; ++i) a.push_back(static_cast<int16_t>(i * 977 - 60000 / 2));
  check_maxs_mins<int16_t>(a, int16_t(-3), 150);
  std::vector<int32_t> b;
  for (int i = 0; i < 90; ++i) b.push_back(i * 12345677 - 500000000);
  check_maxs_mins<int32_t>(b, int32_t(7), 65);
}
TEST(VectorBasic, MaxsMaskRepeatFormWithStrides) {
  Window in = filled(2);
  for (uint32_t i = 0; i < 1024; ++i) in.set<float>(0, i, static_cast<float>(int(i % 17) - 8));
  // 2 repeats, the first 10 elements of each: src blocks 2 apart, repeats 16 blocks apart.
  Window out = run(in, [&](const LocalTensor<uint8_t>& ub) {
    Maxs(at<float>(ub, 4096, 128), at<float>(ub, 0, 1024), 0.0f, 10, 2, UnaryRepeatParams(1, 2, 8, 16));
  });
  Window want = in;
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t i = 0; i < 10; ++i) {
      const uint32_t src = r * 16 * 8 + (i / 8) * 2 * 8 + i % 8;  // floats
      want.set<float>(4096, r * 64 + i, ref_max(in.get<float>(0, src), 0.0f));
    }
  }
  EXPECT_EQ(out.bytes, want.bytes);
}

// ---- ShiftLeft / ShiftRight

template <class T>
T ref_shl(T a, unsigned n) {
  using U = std::make_unsigned_t<T>;
  constexpr unsigned bits = 8 * sizeof(T);
  const U shifted = n >= bits ? U(0) : static_cast<U>(static_cast<U>(a) << n);
  if (!std::is_signed_v<T>) return static_cast<T>(shifted);
  const U sign = static_cast<U>(U(1) << (bits - 1));
  return static_cast<T>((static_cast<U>(a) & sign) | (shifted & static_cast<U>(~sign)));
}
template <class T>
T ref_shr(T a, unsigned n, bool round) {
  constexpr unsigned bits = 8 * sizeof(T);
  int64_t v = static_cast<int64_t>(a);  // exact for every modelled type
  const int64_t q = n >= bits ? (v < 0 ? -1 : 0) : (v >> n);  // floor division by 2^n
  const int64_t last = n == 0 ? 0 : (n > bits ? (v < 0 ? 1 : 0) : ((v >> (n - 1)) & 1));
  return static_cast<T>(q + (round ? last : 0));
}

TEST(VectorBasic, ShiftLeftKeepsTheSignOfSignedTypes) {
  Window in = filled(3);
  // The documented example: int16 0b1010101010101010 << 1 = 0b1101010101010100, << 3 = 0b1101010101010000.
  in.set<uint16_t>(0, 0, 0xAAAA);
  Window out = run(in, [&](const LocalTensor<uint8_t>& ub) {
    ShiftLeft(at<int16_t>(ub, 2048, 130), at<int16_t>(ub, 0, 130), int16_t(1), 130);
    ShiftLeft(at<int16_t>(ub, 3072, 130), at<int16_t>(ub, 0, 130), int16_t(3), 130);
    ShiftLeft(at<uint16_t>(ub, 4096, 77), at<uint16_t>(ub, 0, 77), uint16_t(16), 77);
    ShiftLeft(at<int32_t>(ub, 5120, 70), at<int32_t>(ub, 0, 70), int32_t(31), 70);
    ShiftLeft(at<uint32_t>(ub, 6144, 33), at<uint32_t>(ub, 0, 33), uint32_t(5), 33);
  });
  EXPECT_EQ(out.get<uint16_t>(2048, 0), 0xD554);
  EXPECT_EQ(out.get<uint16_t>(3072, 0), 0xD550);
  Window want = in;
  for (uint32_t i = 0; i < 130; ++i) want.set<int16_t>(2048, i, ref_shl(in.get<int16_t>(0, i), 1));
  for (uint32_t i = 0; i < 130; ++i) want.set<int16_t>(3072, i, ref_shl(in.get<int16_t>(0, i), 3));
  for (uint32_t i = 0; i < 77; ++i) want.set<uint16_t>(4096, i, ref_shl(in.get<uint16_t>(0, i), 16));
  for (uint32_t i = 0; i < 70; ++i) want.set<int32_t>(5120, i, ref_shl(in.get<int32_t>(0, i), 31));
  for (uint32_t i = 0; i < 33; ++i) want.set<uint32_t>(6144, i, ref_shl(in.get<uint32_t>(0, i), 5));
  EXPECT_EQ(out.bytes, want.bytes);
}

TEST(VectorBasic, ShiftRightArithmeticLogicalAndRounded) {
  Window in = filled(4);
  in.set<uint16_t>(0, 0, 0xAAAA);
  Window out = run(in, [&](const LocalTensor<uint8_t>& ub) {
    ShiftRight(at<int16_t>(ub, 2048, 130), at<int16_t>(ub, 0, 130), int16_t(3), 130);
    ShiftRight(at<uint16_t>(ub, 3072, 130), at<uint16_t>(ub, 0, 130), uint16_t(1), 130);
    ShiftRight(at<int32_t>(ub, 4096, 64), at<int32_t>(ub, 0, 64), int32_t(32), 64);
    // roundEn, mask form: the first 40 of 64 int32 elements, one repeat.
    ShiftRight(at<int32_t>(ub, 5120, 64), at<int32_t>(ub, 0, 64), int32_t(5), 40, 1, UnaryRepeatParams(), true);
  });
  EXPECT_EQ(out.get<uint16_t>(2048, 0), 0xF555);  // documented: 1010... >> 3 = 1111010101010101
  EXPECT_EQ(out.get<uint16_t>(3072, 0), 0x5555);
  Window want = in;
  for (uint32_t i = 0; i < 130; ++i) want.set<int16_t>(2048, i, ref_shr(in.get<int16_t>(0, i), 3, false));
  for (uint32_t i = 0; i < 130; ++i) want.set<uint16_t>(3072, i, ref_shr(in.get<uint16_t>(0, i), 1, false));
  for (uint32_t i = 0; i < 64; ++i) want.set<int32_t>(4096, i, ref_shr(in.get<int32_t>(0, i), 32, false));
  for (uint32_t i = 0; i < 40; ++i) want.set<int32_t>(5120, i, ref_shr(in.get<int32_t>(0, i), 5, true));
  EXPECT_EQ(out.bytes, want.bytes);
}

// ---- Copy

TEST(VectorBasic, CopyCountFormMovesBitsIncludingNanPayloads) {
  Window in = filled(5);
  in.set<uint16_t>(0, 3, 0x7d01);  // a signalling f16 NaN
  Window out = run(in, [&](const LocalTensor<uint8_t>& ub) { Copy(at<half>(ub, 4096, 301), at<half>(ub, 0, 301), 301); });
  Window want = in;
  std::memcpy(want.bytes.data() + 4096, in.bytes.data(), 301 * 2);
  EXPECT_EQ(out.bytes, want.bytes);
}
TEST(VectorBasic, CopyMaskRepeatFormWithCopyRepeatParams) {
  Window in = filled(6);
  const uint64_t mask[2] = {0xF0F0F0F0F0F0F0F0ull, 0};
  // float: bit-wise mask; src blocks 2 apart, repeats 16 blocks apart; dst contiguous.
  Window out = run(in, [&](const LocalTensor<uint8_t>& ub) {
    Copy(at<float>(ub, 4096, 128), at<float>(ub, 0, 1024), mask, 3, CopyRepeatParams(1, 2, 8, 16));
  });
  Window want = in;
  for (uint32_t r = 0; r < 3; ++r) {
    for (uint32_t i = 0; i < 64; ++i) {
      if (!((mask[0] >> i) & 1)) continue;
      const uint32_t src = r * 16 * 8 + (i / 8) * 2 * 8 + i % 8;
      want.set<uint32_t>(4096, r * 64 + i, in.get<uint32_t>(0, src));
    }
  }
  EXPECT_EQ(out.bytes, want.bytes);
}

// ---- Axpy: dst + src * scalar, product and sum each rounded in float (docs/vector-isa.md).

TEST(VectorBasic, AxpyHalfAndFloatCountAndMaskForms) {
  Window in = filled(12);
  for (uint32_t i = 0; i < 300; ++i) {
    in.set<half>(0, i, half(static_cast<float>(i % 29) * 0.37f - 5.0f));
    in.set<half>(1024, i, half(static_cast<float>(i % 11) * 1.25f));
  }
  for (uint32_t i = 0; i < 128; ++i) {
    in.set<float>(2048, i, static_cast<float>(i) * 0.1f);
    in.set<float>(3072, i, static_cast<float>(i % 5) - 2.0f);
  }
  Window out = run(in, [&](const LocalTensor<uint8_t>& ub) {
    Axpy(at<half>(ub, 1024, 300), at<half>(ub, 0, 300), 0.5f, 257);
    Axpy(at<float>(ub, 3072, 128), at<float>(ub, 2048, 128), 3.0f, 20, 2, UnaryRepeatParams());
  });
  Window want = in;
  for (uint32_t i = 0; i < 257; ++i) {
    const float r = static_cast<float>(in.get<half>(1024, i)) + static_cast<float>(in.get<half>(0, i)) * 0.5f;
    want.set<half>(1024, i, half(r));
  }
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t i = 0; i < 20; ++i) {
      const uint32_t k = r * 64 + i;
      want.set<float>(3072, k, in.get<float>(3072, k) + in.get<float>(2048, k) * 3.0f);
    }
  }
  EXPECT_EQ(out.bytes, want.bytes);
}

// ---- GatherMask

template <class T>
std::vector<T> ref_gather_mask(const Window& in, uint32_t src, uint32_t n, uint32_t repeat, uint32_t blk,
                               uint32_t rep, const std::function<bool(uint32_t r, uint32_t i)>& take) {
  const uint32_t epb = 32 / sizeof(T);
  std::vector<T> kept;
  for (uint32_t r = 0; r < repeat; ++r) {
    for (uint32_t i = 0; i < n; ++i) {
      if (take(r, i)) kept.push_back(in.get<T>(src, r * rep * epb + (i / epb) * blk * epb + i % epb));
    }
  }
  return kept;
}

TEST(VectorBasic, GatherMaskBuiltInPatternsOneToSeven) {
  Window in = filled(7);
  uint64_t counts[8] = {};
  Window out = run(in, [&](const LocalTensor<uint8_t>& ub) {
    for (uint8_t p = 1; p <= 7; ++p) {
      // half, Normal mode, 2 repeats of 128 elements each.
      GatherMask(at<half>(ub, 2048 + (p - 1) * 512, 256), at<half>(ub, 0, 256), p, false, 0,
                 GatherMaskParams(1, 2, 8, 0), counts[p]);
    }
  });
  Window want = in;
  const auto pattern = [](uint8_t p) {
    return [p](uint32_t, uint32_t i) {
      switch (p) {
        case 1: return i % 2 == 0;
        case 2: return i % 2 == 1;
        case 7: return true;
        default: return i % 4 == uint32_t(p - 3);
      }
    };
  };
  for (uint8_t p = 1; p <= 7; ++p) {
    auto kept = ref_gather_mask<uint16_t>(in, 0, 128, 2, 1, 8, pattern(p));
    EXPECT_EQ(counts[p], kept.size()) << int(p);
    put_values(want, 2048 + (p - 1) * 512, kept);
  }
  EXPECT_EQ(counts[1], 128u);
  EXPECT_EQ(counts[3], 64u);
  EXPECT_EQ(out.bytes, want.bytes);
}

TEST(VectorBasic, GatherMaskUserPatternPerRepeatAndRepeated) {
  Window in = filled(8);
  // uint16 pattern bits for 2 repeats of 128 halves (16 B each), at 4096 and 4128.
  for (uint32_t j = 0; j < 32; ++j) in.set<uint16_t>(4096, j, static_cast<uint16_t>(0x9A5Bu * (j + 1) ^ (j << 9)));
  uint64_t c1 = 0, c2 = 0;
  Window out = run(in, [&](const LocalTensor<uint8_t>& ub) {
    // src1RepeatStride 1: repeat r's bits start 32 B after repeat r-1's.
    GatherMask(at<half>(ub, 5120, 256), at<half>(ub, 0, 256), at<uint16_t>(ub, 4096, 32), false, 0,
               GatherMaskParams(1, 2, 8, 1), c1);
    // src1RepeatStride 0: every repeat uses the same bits; src0 blocks 2 apart.
    GatherMask(at<half>(ub, 6144, 256), at<half>(ub, 0, 1024), at<uint16_t>(ub, 4096, 32), false, 0,
               GatherMaskParams(2, 2, 16, 0), c2);
  });
  auto bit = [&](uint32_t base, uint32_t i) { return (in.bytes[base + i / 8] >> (i % 8)) & 1; };
  auto k1 = ref_gather_mask<uint16_t>(in, 0, 128, 2, 1, 8, [&](uint32_t r, uint32_t i) { return bit(4096 + r * 32, i); });
  auto k2 = ref_gather_mask<uint16_t>(in, 0, 128, 2, 2, 16, [&](uint32_t, uint32_t i) { return bit(4096, i); });
  Window want = in;
  put_values(want, 5120, k1);
  put_values(want, 6144, k2);
  EXPECT_EQ(c1, k1.size());
  EXPECT_EQ(c2, k2.size());
  EXPECT_EQ(out.bytes, want.bytes);
}

TEST(VectorBasic, GatherMaskCounterModeTakesMaskElementsPerRepeat) {
  Window in = filled(9);
  for (uint32_t j = 0; j < 8; ++j) in.set<uint32_t>(4096, j, 0x8badf00du * (j + 3));
  uint64_t count = 0;
  // The documented example: uint32, mask 70 per repeat, 2 repeats 4 blocks apart, pattern reused.
  Window out = run(in, [&](const LocalTensor<uint8_t>& ub) {
    GatherMask(at<uint32_t>(ub, 5120, 256), at<uint32_t>(ub, 0, 256), at<uint32_t>(ub, 4096, 8), true, 70,
               {1, 2, 4, 0}, count);
  });
  auto kept = ref_gather_mask<uint32_t>(in, 0, 70, 2, 1, 4,
                                        [&](uint32_t, uint32_t i) { return (in.bytes[4096 + i / 8] >> (i % 8)) & 1; });
  Window want = in;
  put_values(want, 5120, kept);
  EXPECT_EQ(count, kept.size());
  EXPECT_EQ(out.bytes, want.bytes);
}

// ---- Scatter (Atlas inference AI Core)

TEST(VectorBasic, ScatterOn310PPlacesEachElementAtItsOffset) {
  Window in = filled(10);
  const uint32_t n = 150;
  for (uint32_t i = 0; i < n; ++i) in.set<uint32_t>(2048, i, ((i * 61) % n) * 2);  // a permutation, bytes
  Window out = run(in, [&](const LocalTensor<uint8_t>& ub) {
    Scatter(at<half>(ub, 4096, n), at<half>(ub, 0, n), at<uint32_t>(ub, 2048, n), 64, n);
  }, "ascend310p");
  Window want = in;
  for (uint32_t i = 0; i < n; ++i) want.set<uint16_t>(4096 + 64, (i * 61) % n, in.get<uint16_t>(0, i));
  EXPECT_EQ(out.bytes, want.bytes);
}

// ---- LocalTensor operators

TEST(VectorBasic, TensorOperatorsRunOverTheDestinationsSize) {
  Window in = filled(11);
  for (uint32_t i = 0; i < 100; ++i) {
    in.set<float>(0, i, static_cast<float>(i) * 0.75f - 20.0f);
    in.set<float>(512, i, static_cast<float>(i % 7) + 0.5f);
  }
  Window out = run(in, [&](const LocalTensor<uint8_t>& ub) {
    LocalTensor<float> a = at<float>(ub, 0, 100), b = at<float>(ub, 512, 100);
    LocalTensor<float> sum = at<float>(ub, 1024, 100), diff = at<float>(ub, 1536, 100);
    LocalTensor<float> prod = at<float>(ub, 2048, 100), quot = at<float>(ub, 2560, 37);
    sum = a + b;
    diff = a - b;
    prod = a * b;
    quot = a / b;  // dst's size: 37 elements
    LocalTensor<int16_t> x = at<int16_t>(ub, 0, 100), y = at<int16_t>(ub, 512, 100);
    LocalTensor<int16_t> o = at<int16_t>(ub, 3072, 100), n = at<int16_t>(ub, 3584, 100);
    o = x | y;
    n = x & y;
    LocalTensor<uint8_t> lt = at<uint8_t>(ub, 4096, 32);
    lt = at<float>(ub, 0, 64) < at<float>(ub, 512, 64);  // src0's size: 64 elements
  });
  Window want = in;
  for (uint32_t i = 0; i < 100; ++i) {
    const float a = in.get<float>(0, i), b = in.get<float>(512, i);
    want.set<float>(1024, i, a + b);
    want.set<float>(1536, i, a - b);
    want.set<float>(2048, i, a * b);
    if (i < 37) want.set<float>(2560, i, a / b);
    want.set<int16_t>(3072, i, static_cast<int16_t>(in.get<int16_t>(0, i) | in.get<int16_t>(512, i)));
    want.set<int16_t>(3584, i, static_cast<int16_t>(in.get<int16_t>(0, i) & in.get<int16_t>(512, i)));
  }
  for (uint32_t byte = 0; byte < 8; ++byte) {
    uint8_t bits = 0;
    for (uint32_t k = 0; k < 8; ++k) {
      const uint32_t i = byte * 8 + k;
      if (in.get<float>(0, i) < in.get<float>(512, i)) bits |= uint8_t(1u << k);
    }
    want.bytes[4096 + byte] = bits;
  }
  EXPECT_EQ(out.bytes, want.bytes);
}

// ---- Fill / InitGlobalMemory

TEST(VectorBasic, FillAndInitGlobalMemoryWriteExactlyTheirElements) {
  auto& dev = device();
  const uint32_t nf = 1001, nh = 20011;  // 4004 B; 40022 B, more than one 16 KiB piece
  float* f = npuvp::testing::to_gm(std::vector<float>(nf + 16, -1.0f));
  int16_t* h = npuvp::testing::to_gm(std::vector<int16_t>(nh + 16, 5));
  dev.launch("fill", 1, [&] {
    GlobalTensor<float> gf;
    GlobalTensor<int16_t> gh;
    gf.SetGlobalBuffer(f + 1);  // 4 B past a 32 B boundary
    gh.SetGlobalBuffer(h);
    Fill(gf, nf, 2.5f);
    InitGlobalMemory(gh, nh, int16_t(-300));
  });
  EXPECT_EQ(f[0], -1.0f);
  for (uint32_t i = 1; i <= nf; ++i) ASSERT_EQ(f[i], 2.5f) << i;
  for (uint32_t i = nf + 1; i < nf + 16; ++i) EXPECT_EQ(f[i], -1.0f) << i;
  for (uint32_t i = 0; i < nh; ++i) ASSERT_EQ(h[i], -300) << i;
  for (uint32_t i = nh; i < nh + 16; ++i) EXPECT_EQ(h[i], 5) << i;
}

// ---- Limits: one error each.

std::string error_on(const char* platform, const std::function<void()>& body) {
  auto& dev = device(platform);
  return kernel_error(dev, 1, body);
}

TEST(VectorBasicErrors, MaxsDoesNotTakeUint16) {
  std::string e = error_on("core910b", [] { Maxs(ub_at<uint16_t>(0, 128), ub_at<uint16_t>(256, 128), uint16_t(1), 128); });
  EXPECT_THAT(e, IsKernelError("Maxs.u16", "Maxs does not support u16"));
}
TEST(VectorBasicErrors, ShiftLeftPastTheWidth) {
  std::string e = error_on("core910b", [] { ShiftLeft(ub_at<int16_t>(0, 128), ub_at<int16_t>(256, 128), int16_t(17), 128); });
  EXPECT_THAT(e, IsKernelError("ShiftLeft.s16", "shift 17 out of range [0, 16] for s16"));
}
TEST(VectorBasicErrors, ShiftRightDoesNotTakeFloat) {
  std::string e = error_on("core910b", [] { ShiftRight(ub_at<float>(0, 64), ub_at<float>(256, 64), 1.0f, 64); });
  EXPECT_THAT(e, IsKernelError("ShiftRight.f32", "ShiftRight does not support f32"));
}
TEST(VectorBasicErrors, CopyDoesNotTakeBytes) {
  std::string e = error_on("core910b", [] { Copy(ub_at<uint8_t>(0, 256), ub_at<uint8_t>(256, 256), 256); });
  EXPECT_THAT(e, IsKernelError("Copy.u8", "Copy does not support u8"));
}
TEST(VectorBasicErrors, GatherMaskPatternOutOfRange) {
  std::string e = error_on("core910b", [] {
    uint64_t n = 0;
    GatherMask(ub_at<half>(0, 128), ub_at<half>(256, 128), uint8_t(8), false, 0, GatherMaskParams(1, 1, 8, 0), n);
  });
  EXPECT_THAT(e, IsKernelError("GatherMask.f16", "src1Pattern 8 out of range [1, 7]"));
}
TEST(VectorBasicErrors, GatherMaskPatternZero) {
  std::string e = error_on("core910b", [] {
    uint64_t n = 0;
    GatherMask(ub_at<float>(0, 64), ub_at<float>(256, 64), uint8_t(0), false, 0, GatherMaskParams(1, 1, 8, 0), n);
  });
  EXPECT_THAT(e, IsKernelError("GatherMask.f32", "src1Pattern 0 out of range [1, 7]"));
}
TEST(VectorBasicErrors, GatherMaskCounterModeMaskZero) {
  std::string e = error_on("core910b", [] {
    uint64_t n = 0;
    GatherMask(ub_at<half>(0, 128), ub_at<half>(256, 128), uint8_t(1), true, 0, GatherMaskParams(1, 1, 8, 0), n);
  });
  EXPECT_THAT(e, IsKernelError("GatherMask.f16", "reduceMode mask 0 out of range [1, 2^32 - 1]"));
}
TEST(VectorBasicErrors, GatherMaskNotOnAscend910) {
  std::string e = error_on("core910", [] {
    uint64_t n = 0;
    GatherMask(ub_at<half>(0, 128), ub_at<half>(256, 128), uint8_t(1), false, 0, GatherMaskParams(1, 1, 8, 0), n);
  });
  EXPECT_THAT(e, IsKernelError("GatherMask.f16", "GatherMask is not supported on ascend910"));
}
TEST(VectorBasicErrors, GatherMaskResultPastTheEndOfUb) {
  std::string e = error_on("core910b", [] {
    uint64_t n = 0;
    // 255 repeats of 128 halves, every one kept: 65280 B from 192 KiB - 256 B.
    GatherMask(ub_at<half>(192 * 1024 - 256, 128), ub_at<half>(0, 128), uint8_t(7), false, 0,
               GatherMaskParams(1, 255, 0, 0), n);
  });
  EXPECT_THAT(e, IsKernelError("GatherMask.f16", "beyond UB size"));
  npuvp::testing::expect_planted({"uninitialized"});  // NPUVP_CHECK=all: the bug is reported
}
TEST(VectorBasicErrors, ScatterNotOnAscend910B) {
  std::string e = error_on("core910b", [] {
    Scatter(ub_at<half>(0, 128), ub_at<half>(256, 128), ub_at<uint32_t>(512, 128), 0, 128);
  });
  EXPECT_THAT(e, IsKernelError("Scatter", "not supported on ascend910b"));
}
TEST(VectorBasicErrors, ScatterOffsetPastTheEndOfUb) {
  std::string e = error_on("ascend310p", [] {
    LocalTensor<uint32_t> off = ub_at<uint32_t>(512, 128);
    for (uint32_t i = 0; i < 128; ++i) off.SetValue(i, i == 5 ? 0x100000u : i * 2);
    Scatter(ub_at<half>(0, 128), ub_at<half>(1024, 128), off, 0, 128);
  });
  EXPECT_THAT(e, IsKernelError("Scatter.f16", "offset[5] = 0x100000"));
  npuvp::testing::expect_planted({"uninitialized"});  // NPUVP_CHECK=all: the bug is reported
}
TEST(VectorBasicErrors, FillNotOnAscend910) {
  std::string e = error_on("core910", [] {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(static_cast<float*>(GmAlloc(1024)));
    Fill(g, 16, 1.0f);
  });
  EXPECT_THAT(e, IsKernelError("Fill", "not supported on ascend910"));
}
TEST(VectorBasicErrors, InitGlobalMemoryDoesNotTakeInt8) {
  std::string e = error_on("core910b", [] {
    GlobalTensor<int8_t> g;
    g.SetGlobalBuffer(static_cast<int8_t*>(GmAlloc(1024)));
    InitGlobalMemory(g, 16, int8_t(1));
  });
  EXPECT_THAT(e, IsKernelError("InitGlobalMemory", "s8 is not supported"));
}
TEST(VectorBasicErrors, AxpyDoesNotTakeInt32) {
  std::string e = error_on("core910b", [] { Axpy(ub_at<int32_t>(0, 64), ub_at<int32_t>(256, 64), 2, 64); });
  EXPECT_THAT(e, IsKernelError("Axpy.s32", "Axpy does not support s32"));
}
TEST(VectorBasicErrors, CompareOperatorNeedsWholeRepeats) {
  std::string e = error_on("core910b", [] {
    LocalTensor<uint8_t> dst = ub_at<uint8_t>(0, 32);
    dst = ub_at<float>(256, 100) < ub_at<float>(1024, 100);
  });
  EXPECT_THAT(e, IsKernelError("Compare", "count 100 of f32 is not a whole number of 256 B repeats"));
}

}  // namespace vector_basic_test
