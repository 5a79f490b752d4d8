// The reductions added for issue 22: PairReduceSum, RepeatReduceSum and the CANN 9.1 names
// (ReduceRepeat, ReduceDataBlock, ReducePairElem), each compared bit for bit with a plain
// host reference of the documented order (adjacent-pair binary trees; f16 additions rounded
// to half, a finite overflow saturating at 65504). One scenario per TEST (one process each).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/raw_tensors.h"

using namespace AscendC;
using npuvp::testing::IsKernelError;
using npuvp::testing::kernel_error;
using npuvp::testing::make_device;
using npuvp::testing::to_gm;
using npuvp::testing::ub_at;

namespace reduce_names_test {

template <class T>
uint32_t bits(T x) {
  uint32_t b = 0;
  std::memcpy(&b, &x, sizeof(T));
  return b;
}

// ---- Host reference (ReduceDataBlock.md / RepeatReduceSum.md: binary tree, saturating f16).

template <class T>
float host_add(float a, float b) {
  const float s = a + b;
  if constexpr (std::is_same_v<T, half>) {
    const float h = static_cast<float>(static_cast<half>(s));
    return std::isinf(h) && std::isfinite(a) && std::isfinite(b) ? std::copysign(65504.0f, s) : h;
  }
  return s;
}
template <class T>
float host_tree(std::vector<float> v) {  // v.size() a power of two
  for (size_t n = v.size(); n > 1; n /= 2) {
    for (size_t i = 0; i < n / 2; ++i) v[i] = host_add<T>(v[2 * i], v[2 * i + 1]);
  }
  return v[0];
}

// One GM buffer copied into UB at `ub` before the body, and back after it if `out`.
struct Region {
  uint32_t ub;
  void* gm;
  uint32_t bytes;
  bool out;
};

void run_ub(npuvp::Device& dev, const std::vector<Region>& regions, const std::function<void(const LocalTensor<uint8_t>&)>& body) {
  dev.launch("reduce_names", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * 1024);
    const LocalTensor<uint8_t> ub = buf.Get<uint8_t>();
    for (const Region& r : regions) {
      GlobalTensor<uint8_t> g;
      g.SetGlobalBuffer(static_cast<uint8_t*>(r.gm), r.bytes);
      DataCopy(ub[r.ub], g, r.bytes);
    }
    PipeBarrier<PIPE_ALL>();
    body(ub);
    PipeBarrier<PIPE_ALL>();
    for (const Region& r : regions) {
      if (!r.out) continue;
      GlobalTensor<uint8_t> g;
      g.SetGlobalBuffer(static_cast<uint8_t*>(r.gm), r.bytes);
      DataCopy(g, ub[r.ub], r.bytes);
    }
    PipeBarrier<PIPE_ALL>();
  });
}

template <class T>
LocalTensor<T> at(const LocalTensor<uint8_t>& ub, uint32_t offset) {
  return ub[offset].template ReinterpretCast<T>();
}

TEST(ReduceNames, PairReduceSumHalfSaturatesAndLeavesPairsWithoutInputUnwritten) {
  auto& dev = make_device();
  std::vector<half> x = npuvp::testing::random_vector<half>(256, 1, -100, 100);
  x[0] = half(60000.0f);
  x[1] = half(60000.0f);  // saturates to 65504
  x[2] = half(-60000.0f);
  x[3] = half(-60000.0f);  // to -65504
  half* gx = to_gm(x);
  half* gd = to_gm(std::vector<half>(128, half(-7.0f)));  // prefilled: what stays unwritten
  run_ub(dev, {{0, gx, 512, false}, {0x1000, gd, 256, true}}, [&](const LocalTensor<uint8_t>& ub) {
    // mask 101: pairs 0..49 whole, pair 50 has only element 100, pairs 51..63 none.
    PairReduceSum(at<half>(ub, 0x1000), at<half>(ub, 0), 2, 101, 1, 1, 8);
  });
  for (int r = 0; r < 2; ++r) {
    for (int k = 0; k < 64; ++k) {
      const int i = 128 * r + 2 * k;
      float want;
      if (k < 50) {
        want = host_add<half>(static_cast<float>(x[i]), static_cast<float>(x[i + 1]));
      } else if (k == 50) {
        want = static_cast<float>(x[i]);  // the enabled element alone
      } else {
        want = -7.0f;  // untouched
      }
      EXPECT_EQ(bits(gd[64 * r + k]), bits(static_cast<half>(want))) << "repeat " << r << " pair " << k;
    }
  }
  EXPECT_EQ(static_cast<float>(gd[0]), 65504.0f);
  EXPECT_EQ(static_cast<float>(gd[1]), -65504.0f);
}

TEST(ReduceNames, PairReduceSumFloatBitwiseMaskAndStrides) {
  auto& dev = make_device();
  std::vector<float> x = npuvp::testing::random_vector<float>(3 * 128, 2, -1000, 1000);
  float* gx = to_gm(x);
  float* gd = to_gm(std::vector<float>(6 * 32, 5.0f));
  const uint64_t mask[2] = {0xf0f0f0f0f0f0f0f1ull, 0};  // pair 0 has element 0 only
  run_ub(dev, {{0, gx, 4 * 384, false}, {0x1000, gd, 4 * 192, true}}, [&](const LocalTensor<uint8_t>& ub) {
    // srcBlkStride 2 (every other block), srcRepStride 16 blocks, dstRepStride 2 (128 B units).
    PairReduceSum(at<float>(ub, 0x1000), at<float>(ub, 0), 3, mask, 2, 2, 16);
  });
  for (int r = 0; r < 3; ++r) {
    std::vector<float> lane(64);
    for (int i = 0; i < 64; ++i) lane[i] = x[r * 128 + (i / 8) * 16 + i % 8];  // blocks 0,2,4,..
    for (int k = 0; k < 32; ++k) {
      const bool a = (mask[0] >> (2 * k)) & 1, b = (mask[0] >> (2 * k + 1)) & 1;
      const float want = !a && !b ? 5.0f : host_add<float>(a ? lane[2 * k] : -0.0f, b ? lane[2 * k + 1] : -0.0f);
      EXPECT_EQ(bits(gd[64 * r + k]), bits(want)) << "repeat " << r << " pair " << k;
      EXPECT_EQ(gd[64 * r + 32 + k], 5.0f) << "the 128 B gap of dstRepStride 2";
    }
  }
}

TEST(ReduceNames, ReducePairElemIsPairReduceSum) {
  auto& dev = make_device();
  std::vector<half> x = npuvp::testing::random_vector<half>(128, 3, -30, 30);
  half* gx = to_gm(x);
  half* gd = to_gm(std::vector<half>(64, half(0)));
  const uint64_t mask[2] = {~0ull, ~0ull};
  run_ub(dev, {{0, gx, 256, false}, {0x1000, gd, 128, true}}, [&](const LocalTensor<uint8_t>& ub) {
    ReducePairElem<ReduceType::SUM, half>(at<half>(ub, 0x1000), at<half>(ub, 0), mask, 1, 1, 1, 8);
  });
  for (int k = 0; k < 64; ++k) {
    EXPECT_EQ(bits(gd[k]), bits(static_cast<half>(host_add<half>(static_cast<float>(x[2 * k]), static_cast<float>(x[2 * k + 1])))));
  }
}

TEST(ReduceNames, RepeatReduceSumIsAWholeReduceSumTreeWithTheDocumentedSaturation) {
  auto& dev = make_device();
  std::vector<half> x = npuvp::testing::random_vector<half>(512, 4, -10, 10);
  // RepeatReduceSum.md's example in repeat 1: 60000 + 60000 saturates before -29900 is added.
  for (int i = 128; i < 256; ++i) x[i] = half(0.0f);
  x[128] = half(60000.0f);
  x[129] = half(60000.0f);
  x[130] = half(-30000.0f);
  x[131] = half(100.0f);
  half* gx = to_gm(x);
  half* gd = to_gm(std::vector<half>(16, half(-1.0f)));
  run_ub(dev, {{0, gx, 1024, false}, {0x1000, gd, 32, true}}, [&](const LocalTensor<uint8_t>& ub) {
    // dstBlkStride (here 9) has no effect; dstRepStride 2 elements apart; mask 100.
    RepeatReduceSum(at<half>(ub, 0x1000), at<half>(ub, 0), 4, 100, 9, 1, 2, 8);
  });
  for (int r = 0; r < 4; ++r) {
    std::vector<float> lanes(128, -0.0f);
    for (int i = 0; i < 100; ++i) lanes[i] = static_cast<float>(x[128 * r + i]);
    EXPECT_EQ(bits(gd[2 * r]), bits(static_cast<half>(host_tree<half>(lanes)))) << r;
    EXPECT_EQ(static_cast<float>(gd[2 * r + 1]), -1.0f) << "dstRepStride 2 leaves a gap";
  }
  // 60000 + 60000 -> 65504; -30000 + 100 -> -29904 in half; 65504 - 29904 = 35600 -> 35584.
  EXPECT_EQ(static_cast<float>(gd[2]), 35584.0f);
}

TEST(ReduceNames, ReduceRepeatMaxInEveryOrderOnA2) {
  auto& dev = make_device({}, "core910b");
  // ReduceRepeat.md's example: repeat r holds r+1 everywhere and 11 + r at one place.
  std::vector<half> x(512);
  const int where[4] = {52, 100, 19, 127};
  for (int r = 0; r < 4; ++r) {
    for (int i = 0; i < 128; ++i) x[128 * r + i] = half(float(r + 1));
    x[128 * r + where[r]] = half(float(11 + r));
  }
  half* gx = to_gm(x);
  std::vector<half*> out;
  for (int k = 0; k < 4; ++k) out.push_back(to_gm(std::vector<half>(16, half(0))));
  run_ub(dev, {{0, gx, 1024, false}, {0x1000, out[0], 32, true}, {0x1100, out[1], 32, true},
               {0x1200, out[2], 32, true}, {0x1300, out[3], 32, true}},
         [&](const LocalTensor<uint8_t>& ub) {
           auto src = at<half>(ub, 0);
           ReduceRepeat<ReduceType::MAX, half>(at<half>(ub, 0x1000), src, 128, 4, 1, 1, 8);
           ReduceRepeat<ReduceType::MAX, half>(at<half>(ub, 0x1100), src, 128, 4, 1, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);
           ReduceRepeat<ReduceType::MAX, half>(at<half>(ub, 0x1200), src, 128, 4, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
           ReduceRepeat<ReduceType::MAX, half>(at<half>(ub, 0x1300), src, 128, 4, 1, 1, 8, ReduceOrder::ORDER_ONLY_INDEX);
         });
  for (int r = 0; r < 4; ++r) {
    const float v = float(11 + r);
    EXPECT_EQ(static_cast<float>(out[0][2 * r]), v);
    EXPECT_EQ(bits(out[0][2 * r + 1]), uint32_t(where[r]));
    EXPECT_EQ(bits(out[1][2 * r]), uint32_t(where[r]));
    EXPECT_EQ(static_cast<float>(out[1][2 * r + 1]), v);
    EXPECT_EQ(static_cast<float>(out[2][r]), v);
    uint32_t index;  // ORDER_ONLY_INDEX: a u32 per repeat, whatever the dtype
    std::memcpy(&index, out[3] + 2 * r, 4);
    EXPECT_EQ(index, uint32_t(where[r]));
  }
}

TEST(ReduceNames, ReduceRepeatSumAndMinMatchTheWholeReduceNames) {
  auto& dev = make_device();
  std::vector<float> x = npuvp::testing::random_vector<float>(256, 5, -50, 50);
  float* gx = to_gm(x);
  float* gnew = to_gm(std::vector<float>(32, 0.0f));
  float* gold = to_gm(std::vector<float>(32, 0.0f));
  const uint64_t mask[2] = {0x00ffff00ff00ffffull, 0};
  run_ub(dev, {{0, gx, 1024, false}, {0x1000, gnew, 128, true}, {0x1100, gold, 128, true}},
         [&](const LocalTensor<uint8_t>& ub) {
           auto src = at<float>(ub, 0);
           // order has no effect on a sum
           ReduceRepeat<ReduceType::SUM, float>(at<float>(ub, 0x1000), src, mask, 4, 1, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);
           ReduceRepeat<ReduceType::MIN, float>(at<float>(ub, 0x1020), src, mask, 4, 1, 1, 8);
           WholeReduceSum(at<float>(ub, 0x1100), src, mask, 4, 1, 1, 8);
           WholeReduceMin(at<float>(ub, 0x1120), src, mask, 4, 1, 1, 8);
         });
  for (int r = 0; r < 4; ++r) {
    std::vector<float> lanes(64, -0.0f);
    float mn = INFINITY;
    uint32_t at_min = 0;
    for (int i = 0; i < 64; ++i) {
      if (!((mask[0] >> i) & 1)) continue;
      lanes[i] = x[64 * r + i];
      if (x[64 * r + i] < mn) mn = x[64 * r + i], at_min = uint32_t(i);
    }
    EXPECT_EQ(bits(gnew[r]), bits(host_tree<float>(lanes))) << r;
    EXPECT_EQ(gnew[8 + 2 * r], mn) << r;
    EXPECT_EQ(bits(gnew[8 + 2 * r + 1]), at_min) << r;
  }
  for (int i = 0; i < 32; ++i) EXPECT_EQ(bits(gnew[i]), bits(gold[i])) << i;
}

TEST(ReduceNames, ReduceDataBlockSumMaxMinPerBlock) {
  auto& dev = make_device();
  std::vector<half> x = npuvp::testing::random_vector<half>(256, 6, -40, 40);
  half* gx = to_gm(x);
  half* gd = to_gm(std::vector<half>(48, half(0)));
  run_ub(dev, {{0, gx, 512, false}, {0x1000, gd, 96, true}}, [&](const LocalTensor<uint8_t>& ub) {
    auto src = at<half>(ub, 0);
    ReduceDataBlock<ReduceType::SUM, half>(at<half>(ub, 0x1000), src, 128, 2, 1, 1, 8);
    ReduceDataBlock<ReduceType::MAX, half>(at<half>(ub, 0x1020), src, 128, 2, 1, 1, 8);
    ReduceDataBlock<ReduceType::MIN, half>(at<half>(ub, 0x1040), src, 128, 2, 1, 1, 8);
  });
  for (int b = 0; b < 16; ++b) {
    std::vector<float> lanes(16);
    float mx = -INFINITY, mn = INFINITY;
    for (int j = 0; j < 16; ++j) {
      lanes[j] = static_cast<float>(x[16 * b + j]);
      mx = std::max(mx, lanes[j]);
      mn = std::min(mn, lanes[j]);
    }
    EXPECT_EQ(bits(gd[b]), bits(static_cast<half>(host_tree<half>(lanes)))) << b;
    EXPECT_EQ(static_cast<float>(gd[16 + b]), mx) << b;
    EXPECT_EQ(static_cast<float>(gd[32 + b]), mn) << b;
  }
}

TEST(ReduceNames, ErrorPairReduceSumDstNotBlockAligned) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] { PairReduceSum(ub_at<half>(0x1010, 64), ub_at<half>(0, 128), 1, 128, 1, 1, 8); });
  EXPECT_THAT(e, IsKernelError("PairReduceSum", "dst address 0x1010 not 32 B aligned"));
}

TEST(ReduceNames, ErrorPairReduceSumOnIntegers) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] { PairReduceSum(ub_at<int16_t>(0x1000, 64), ub_at<int16_t>(0, 128), 1, 128, 1, 1, 8); });
  EXPECT_THAT(e, IsKernelError("PairReduceSum", "PairReduceSum does not support s16"));
}

TEST(ReduceNames, ErrorReduceRepeatNegativeStride) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] {
    ReduceRepeat<ReduceType::SUM, float>(ub_at<float>(0x1000, 8), ub_at<float>(0, 256), 64, 4, -1, 1, 8);
  });
  EXPECT_THAT(e, IsKernelError("WholeReduceSum", "dstRepStride"));
}

}  // namespace reduce_names_test
