// The AI CPU (models/soc/aicpu.h, issue 28): the built-in kernels against plain references
// (ONNX semantics), the cost model and the cache/ring traffic in the timeline, and its errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "models/soc/aicpu.h"
#include "platforms/ascend_soc.h"
#include "sw/runtime/device.h"
#include "tests/support/error_of.h"
#include "tlm/stats.h"

namespace aicpu_test {
using ::testing::HasSubstr;
using npuvp::Device;
using npuvp::soc::AicpuArgs;
using npuvp::testing::error_of;

template <class T>
T* device_copy(const std::vector<T>& v) {
  auto* p = static_cast<T*>(Device::instance().malloc(std::max<size_t>(1, v.size()) * sizeof(T)));
  std::memcpy(p, v.data(), v.size() * sizeof(T));
  return p;
}
template <class T>
T* device_alloc(size_t n) {
  auto* p = static_cast<T*>(Device::instance().malloc(std::max<size_t>(1, n) * sizeof(T)));
  std::memset(p, 0xEE, n * sizeof(T));
  return p;
}
uint64_t addr(const void* p) { return Device::instance().device_address(p); }

std::vector<float> values_with_ties(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(-40, 40);  // few distinct values: many ties
  std::vector<float> v(n);
  for (auto& x : v) x = float(dist(gen)) * 0.25f;
  return v;
}

TEST(AicpuTest, TopKMatchesAPlainSortOnEveryRow) {
  Device::configure("ascend310p");
  const int64_t rows = 13, n = 50, k = 7;
  const auto x = values_with_ties(size_t(rows * n), 1);
  float* gx = device_copy(x);
  float* gv = device_alloc<float>(size_t(rows * k));
  int64_t* gi = device_alloc<int64_t>(size_t(rows * k));
  for (int64_t largest : {1, 0}) {
    AicpuArgs args{{addr(gx), addr(gv), addr(gi)}, {rows, n, k, largest, 1}, {}};
    Device::instance().launch_aicpu("TopK", args, 4);  // 4 blocks split the rows
    for (int64_t r = 0; r < rows; ++r) {
      // ONNX TopK: by value, the lower index first among equals.
      std::vector<int64_t> order(static_cast<size_t>(n));
      std::iota(order.begin(), order.end(), 0);
      const float* row = x.data() + r * n;
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b) { return largest ? row[a] > row[b] : row[a] < row[b]; });
      for (int64_t j = 0; j < k; ++j) {
        ASSERT_EQ(gi[r * k + j], order[size_t(j)]) << "row " << r << " rank " << j << " largest " << largest;
        ASSERT_EQ(gv[r * k + j], row[order[size_t(j)]]);
      }
    }
  }
}

TEST(AicpuTest, ArgMaxTakesTheFirstOrLastMaximum) {
  Device::configure("minimal");
  const int64_t rows = 9, n = 33;
  const auto x = values_with_ties(size_t(rows * n), 2);
  float* gx = device_copy(x);
  int64_t* gi = device_alloc<int64_t>(size_t(rows));
  for (int64_t last : {0, 1}) {
    Device::instance().launch_aicpu("ArgMax", AicpuArgs{{addr(gx), addr(gi)}, {rows, n, last}, {}}, 3);
    for (int64_t r = 0; r < rows; ++r) {
      const float* row = x.data() + r * n;
      const float best = *std::max_element(row, row + n);
      int64_t want = -1;
      for (int64_t i = 0; i < n; ++i) {
        if (row[i] == best && (want < 0 || last)) want = i;
      }
      EXPECT_EQ(gi[r], want) << "row " << r << " select_last_index " << last;
    }
  }
}

// ONNX NonMaxSuppression, written plainly: per batch and class, boxes above the score
// threshold in decreasing score (stable), each kept unless its IoU with a kept box exceeds the
// threshold, at most max_out per class.
std::vector<int64_t> nms_reference(const std::vector<float>& boxes, const std::vector<float>& scores, int64_t batches,
                                   int64_t classes, int64_t spatial, int64_t max_out, float iou_t, float score_t,
                                   bool center) {
  auto corners = [&](int64_t b, int64_t i) {
    const float* p = &boxes[size_t((b * spatial + i) * 4)];
    std::array<float, 4> c{};  // y1 x1 y2 x2
    if (center) {
      c = {p[1] - p[3] / 2, p[0] - p[2] / 2, p[1] + p[3] / 2, p[0] + p[2] / 2};
    } else {
      c = {std::min(p[0], p[2]), std::min(p[1], p[3]), std::max(p[0], p[2]), std::max(p[1], p[3])};
    }
    return c;
  };
  std::vector<int64_t> out;
  for (int64_t b = 0; b < batches; ++b) {
    for (int64_t c = 0; c < classes; ++c) {
      std::vector<int64_t> cand;
      for (int64_t i = 0; i < spatial; ++i) {
        if (scores[size_t((b * classes + c) * spatial + i)] > score_t) cand.push_back(i);
      }
      std::stable_sort(cand.begin(), cand.end(), [&](int64_t i, int64_t j) {
        return scores[size_t((b * classes + c) * spatial + i)] > scores[size_t((b * classes + c) * spatial + j)];
      });
      std::vector<int64_t> kept;
      for (int64_t i : cand) {
        if (int64_t(kept.size()) >= max_out) break;
        bool ok = true;
        for (int64_t j : kept) {
          const auto A = corners(b, i), B = corners(b, j);
          const float ih = std::max(0.0f, std::min(A[2], B[2]) - std::max(A[0], B[0]));
          const float iw = std::max(0.0f, std::min(A[3], B[3]) - std::max(A[1], B[1]));
          const float inter = ih * iw;
          const float uni = (A[2] - A[0]) * (A[3] - A[1]) + (B[2] - B[0]) * (B[3] - B[1]) - inter;
          if (uni > 0 && inter / uni > iou_t) ok = false;
        }
        if (!ok) continue;
        kept.push_back(i);
        out.insert(out.end(), {b, c, i});
      }
    }
  }
  return out;
}

TEST(AicpuTest, NonMaxSuppressionMatchesThePlainReference) {
  Device::configure("minimal");
  const int64_t batches = 2, classes = 3, spatial = 40, max_out = 6;
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> pos(0, 10), size(0.5f, 4), score(0, 1);
  for (bool center : {false, true}) {
    std::vector<float> boxes(size_t(batches * spatial * 4)), scores(size_t(batches * classes * spatial));
    for (size_t i = 0; i < boxes.size(); i += 4) {
      const float a = pos(gen), b = pos(gen), h = size(gen), w = size(gen);
      if (center) {
        boxes[i] = a; boxes[i + 1] = b; boxes[i + 2] = w; boxes[i + 3] = h;
      } else {  // corners in either order
        boxes[i] = a + h; boxes[i + 1] = b; boxes[i + 2] = a; boxes[i + 3] = b + w;
      }
    }
    for (auto& s : scores) s = std::round(score(gen) * 20) / 20;  // ties
    float* gb = device_copy(boxes);
    float* gs = device_copy(scores);
    int64_t* sel = device_alloc<int64_t>(size_t(batches * classes * max_out * 3));
    int64_t* count = device_alloc<int64_t>(1);
    Device::instance().launch_aicpu(
        "NonMaxSuppression",
        AicpuArgs{{addr(gb), addr(gs), addr(sel), addr(count)}, {batches, classes, spatial, max_out, center}, {0.3, 0.25}});
    const auto want = nms_reference(boxes, scores, batches, classes, spatial, max_out, 0.3f, 0.25f, center);
    ASSERT_EQ(*count * 3, int64_t(want.size())) << "center_point_box " << center;
    EXPECT_EQ(std::vector<int64_t>(sel, sel + want.size()), want);
    EXPECT_GT(want.size(), 6u) << "the case should select several boxes";
  }
}

// The cost model shows in simulated time: four times the rows take about four times as long,
// and the kernel's GM traffic crosses the ring (L3 line fills).
TEST(AicpuTest, TimeGrowsWithTheWorkAndTrafficCrossesTheRing) {
  Device::configure("ascend310p", {"aicpu.launch_overhead_us=0"});
  const int64_t n = 1024;
  const auto x = values_with_ties(size_t(64 * n), 4);
  float* gx = device_copy(x);
  int64_t* gi = device_alloc<int64_t>(64);
  auto& dev = Device::instance();
  const uint64_t fills0 = npuvp::Stats::global().value("aicpu.line_fills");
  const auto small = dev.launch_aicpu("ArgMax", AicpuArgs{{addr(gx), addr(gi)}, {16, n}, {}}, 1).sim_time;
  const uint64_t fills1 = npuvp::Stats::global().value("aicpu.line_fills");
  // Other rows (not yet in the caches), four times as many.
  const auto big = dev.launch_aicpu("ArgMax", AicpuArgs{{addr(gx + 16 * n), addr(gi)}, {48, n}, {}}, 1).sim_time;
  EXPECT_GE(fills1 - fills0, uint64_t(16 * n * 4 / 64)) << "every line of the input came over the ring";
  const double ratio = big / small;
  EXPECT_GT(ratio, 2.6);
  EXPECT_LT(ratio, 3.4);  // 3x the rows
  // The rows again: now in L3 (4 MiB), so no ring traffic and less time.
  const uint64_t fills2 = npuvp::Stats::global().value("aicpu.line_fills");
  const auto again = dev.launch_aicpu("ArgMax", AicpuArgs{{addr(gx + 16 * n), addr(gi)}, {48, n}, {}}, 1).sim_time;
  EXPECT_LT(npuvp::Stats::global().value("aicpu.line_fills") - fills2, 16u);
  EXPECT_LT(again, big);
  // Compute: 48 x 1024 compares at 1 cycle and 4 B loads at 0.125 cycles per byte, 1.9 GHz.
  EXPECT_GT(again.to_seconds(), 48.0 * n * 1.5 / 1.9e9 * 0.9);
}

TEST(AicpuTest, BlocksSpreadOverTheAiCpuCores) {
  Device::configure("ascend310p", {"aicpu.launch_overhead_us=0"});
  const int64_t n = 4096, rows = 8;
  const auto x = values_with_ties(size_t(rows * n), 5);
  float* gx = device_copy(x);
  int64_t* gi = device_alloc<int64_t>(rows);
  auto& dev = Device::instance();
  const unsigned cores = dev.soc().aicpu().ai_cores();
  ASSERT_GE(cores, 4u);
  dev.launch_aicpu("ArgMax", AicpuArgs{{addr(gx), addr(gi)}, {rows, n}, {}}, 1);  // warm the L3
  const auto one = dev.launch_aicpu("ArgMax", AicpuArgs{{addr(gx), addr(gi)}, {rows, n}, {}}, 1).sim_time;
  const auto four = dev.launch_aicpu("ArgMax", AicpuArgs{{addr(gx), addr(gi)}, {rows, n}, {}}, 4).sim_time;
  // Not 0.25: the other three cores' private L1/L2 are cold (their lines come from the L3).
  EXPECT_LT(four / one, 0.5) << "four blocks on four cores run side by side";
}

TEST(AicpuTest, ErrorsNameTheKernel) {
  Device::configure("minimal");
  auto& dev = Device::instance();
  EXPECT_THAT(error_of([&] { dev.launch_aicpu("Softmaxx", AicpuArgs{}); }),
              HasSubstr("no AI CPU kernel named 'Softmaxx'"));
  EXPECT_THAT(error_of([&] { dev.launch_aicpu("ArgMax", AicpuArgs{{0x10, 0x20}, {2, 8}, {}}); }),
              HasSubstr("kernel 'ArgMax' block 0"));
  EXPECT_THAT(error_of([&] { dev.launch_aicpu("TopK", AicpuArgs{{0, 0, 0}, {1, 4, 9}, {}}); }),
              HasSubstr("k=9 must be in [0, n=4]"));
}

// perf mode: time, no data; functional mode: data, no time.
TEST(AicpuTest, PerfModeTimesWithoutData) {
  Device::configure("minimal", {"sim.mode=perf"});
  const auto x = values_with_ties(4 * 64, 6);
  float* gx = device_copy(x);
  int64_t* gi = device_alloc<int64_t>(4);
  const auto r = Device::instance().launch_aicpu("ArgMax", AicpuArgs{{addr(gx), addr(gi)}, {4, 64}, {}});
  EXPECT_GT(r.sim_time, sc_core::SC_ZERO_TIME);
  int64_t untouched = 0;
  std::memset(&untouched, 0xEE, 8);
  EXPECT_EQ(gi[0], untouched);
}

TEST(AicpuTest, FunctionalModeComputesWithoutTime) {
  Device::configure("minimal", {"sim.mode=functional"});
  const std::vector<float> x = {1, 5, 2, 5, -1, 0, 0, -3};
  float* gx = device_copy(x);
  int64_t* gi = device_alloc<int64_t>(2);
  const auto r = Device::instance().launch_aicpu("ArgMax", AicpuArgs{{addr(gx), addr(gi)}, {2, 4}, {}});
  EXPECT_EQ(r.sim_time, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(gi[0], 1);
  EXPECT_EQ(gi[1], 1);
}

TEST(AicpuTest, ControlCoresMustLeaveAnAiCpu) {
  Device::configure("minimal", {"aicpu.cores=4", "aicpu.control_cores=4"});
  EXPECT_THAT(error_of([] { Device::instance(); }), HasSubstr("aicpu.control_cores (4) must leave"));
}

}  // namespace aicpu_test
