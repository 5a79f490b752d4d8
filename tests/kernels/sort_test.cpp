// Sort32 and MrgSort (issue 22) on an A2 core, against a plain host reference: a stable
// descending sort of (score, index) records; merging takes the earlier queue on equal
// scores. One scenario per TEST (one process each).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <vector>

#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/raw_tensors.h"

using namespace AscendC;
using npuvp::testing::IsCoreError;
using npuvp::testing::IsKernelError;
using npuvp::testing::kernel_error;
using npuvp::testing::make_device;
using npuvp::testing::to_gm;
using npuvp::testing::ub_at;

namespace sort_test {

// A record as Sort32.md lays it out: the score in the low bytes, the index in the high 4 B.
template <class T>
uint64_t record(T score, uint32_t index) {
  uint64_t r = 0;
  std::memcpy(&r, &score, sizeof(T));
  return r | (uint64_t(index) << 32);
}
template <class T>
float score_of(uint64_t r) {
  T s;
  std::memcpy(&s, &r, sizeof(T));
  return static_cast<float>(s);
}

// Stable descending sort of each group of 32.
template <class T>
std::vector<uint64_t> host_sort32(const std::vector<T>& scores, const std::vector<uint32_t>& index) {
  std::vector<uint64_t> out;
  for (size_t g = 0; g < scores.size(); g += 32) {
    std::vector<uint64_t> recs;
    for (size_t i = g; i < g + 32; ++i) recs.push_back(record(scores[i], index[i]));
    std::stable_sort(recs.begin(), recs.end(), [](uint64_t a, uint64_t b) { return score_of<T>(a) > score_of<T>(b); });
    out.insert(out.end(), recs.begin(), recs.end());
  }
  return out;
}

// Merge: repeatedly the largest head, the earliest queue on ties; stops at the first
// exhausted queue if asked.
template <class T>
std::vector<uint64_t> host_merge(const std::vector<std::vector<uint64_t>>& queues, bool stop) {
  std::vector<size_t> head(queues.size(), 0);
  std::vector<uint64_t> out;
  for (;;) {
    int best = -1;
    bool exhausted = false;
    for (size_t q = 0; q < queues.size(); ++q) {
      if (head[q] == queues[q].size()) {
        exhausted = true;
        continue;
      }
      if (best < 0 || score_of<T>(queues[q][head[q]]) > score_of<T>(queues[best][head[best]])) best = int(q);
    }
    if (best < 0 || (exhausted && stop)) return out;
    out.push_back(queues[best][head[best]++]);
  }
}

// Runs `body` on one A2 core with the given GM buffers copied into UB and back.
struct Region {
  uint32_t ub;
  void* gm;
  uint32_t bytes;
  bool out;
};
void run_ub(npuvp::Device& dev, const std::vector<Region>& regions, const std::function<void(const LocalTensor<uint8_t>&)>& body) {
  dev.launch("sort", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 96 * 1024);
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

std::vector<uint32_t> indices(size_t n, uint32_t base) {
  std::vector<uint32_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = base + uint32_t(i);
  return v;
}

TEST(Sort, Sort32FloatSortsEachRepeatDescendingAndStably) {
  auto& dev = make_device({}, "core910b");
  std::vector<float> s = npuvp::testing::random_vector<float>(64, 1, -4, 4);
  for (size_t i = 0; i < s.size(); i += 3) s[i] = 1.0f;  // ties
  s[5] = -0.0f;
  s[6] = 0.0f;
  const std::vector<uint32_t> idx = indices(64, 1000);
  float* gs = to_gm(s);
  uint32_t* gi = to_gm(idx);
  uint64_t* gd = to_gm(std::vector<uint64_t>(64, 0));
  run_ub(dev, {{0, gs, 256, false}, {0x400, gi, 256, false}, {0x800, gd, 512, true}}, [&](const LocalTensor<uint8_t>& ub) {
    Sort32(at<float>(ub, 0x800), at<float>(ub, 0), at<uint32_t>(ub, 0x400), 2);
  });
  const std::vector<uint64_t> want = host_sort32(s, idx);
  for (size_t i = 0; i < 64; ++i) EXPECT_EQ(gd[i], want[i]) << i;
}

TEST(Sort, Sort32HalfKeepsTheScoreLowAndTheIndexHigh) {
  auto& dev = make_device({}, "core910b");
  std::vector<half> s = npuvp::testing::random_vector<half>(32, 2, -100, 100);
  const std::vector<uint32_t> idx = indices(32, 0x12340);
  half* gs = to_gm(s);
  uint32_t* gi = to_gm(idx);
  uint64_t* gd = to_gm(std::vector<uint64_t>(32, ~0ull));
  run_ub(dev, {{0, gs, 64, false}, {0x400, gi, 128, false}, {0x800, gd, 256, true}}, [&](const LocalTensor<uint8_t>& ub) {
    Sort32(at<half>(ub, 0x800), at<half>(ub, 0), at<uint32_t>(ub, 0x400), 1);
  });
  const std::vector<uint64_t> want = host_sort32(s, idx);  // the 2 B between score and index are 0
  for (size_t i = 0; i < 32; ++i) EXPECT_EQ(gd[i], want[i]) << i;
}

TEST(Sort, MrgSortMergesFourSort32Queues) {
  auto& dev = make_device({}, "core910b");
  std::vector<float> s = npuvp::testing::random_vector<float>(128, 3, -2, 2);
  for (size_t i = 0; i < s.size(); i += 5) s[i] = 0.5f;  // ties across queues
  const std::vector<uint32_t> idx = indices(128, 0);
  float* gs = to_gm(s);
  uint32_t* gi = to_gm(idx);
  uint64_t* gd = to_gm(std::vector<uint64_t>(128, 0));
  run_ub(dev, {{0, gs, 512, false}, {0x400, gi, 512, false}, {0x1000, gd, 1024, true}}, [&](const LocalTensor<uint8_t>& ub) {
    auto work = at<float>(ub, 0x2000);
    Sort32(work, at<float>(ub, 0), at<uint32_t>(ub, 0x400), 4);
    PipeBarrier<PIPE_V>();
    MrgSortSrcList<float> list(work[0], work[64], work[128], work[192]);  // 32 records = 64 floats each
    const uint16_t lengths[4] = {32, 32, 32, 32};
    MrgSort(at<float>(ub, 0x1000), list, MrgSort4Info(lengths, false, 15, 1));
  });
  const std::vector<uint64_t> sorted = host_sort32(s, idx);
  std::vector<std::vector<uint64_t>> queues;
  for (int q = 0; q < 4; ++q) queues.emplace_back(sorted.begin() + 32 * q, sorted.begin() + 32 * (q + 1));
  const std::vector<uint64_t> want = host_merge<float>(queues, false);
  ASSERT_EQ(want.size(), 128u);
  for (size_t i = 0; i < 128; ++i) EXPECT_EQ(gd[i], want[i]) << i;
}

TEST(Sort, MrgSortRepeatsOverContiguousQueues) {
  auto& dev = make_device({}, "core910b");
  std::vector<half> s = npuvp::testing::random_vector<half>(256, 4, -50, 50);
  const std::vector<uint32_t> idx = indices(256, 7);
  half* gs = to_gm(s);
  uint32_t* gi = to_gm(idx);
  uint64_t* gd = to_gm(std::vector<uint64_t>(256, 0));
  run_ub(dev, {{0, gs, 512, false}, {0x400, gi, 1024, false}, {0x1000, gd, 2048, true}}, [&](const LocalTensor<uint8_t>& ub) {
    auto work = at<half>(ub, 0x2000);
    Sort32(work, at<half>(ub, 0), at<uint32_t>(ub, 0x400), 8);
    PipeBarrier<PIPE_V>();
    MrgSort4Info params;
    for (int q = 0; q < 4; ++q) params.elementLengths[q] = 32;
    params.validBit = 0b1111;
    params.repeatTimes = 2;
    MrgSortSrcList<half> list;
    list.src1 = work[0];  // a record is 4 halves
    list.src2 = work[128];
    list.src3 = work[256];
    list.src4 = work[384];
    MrgSort(at<half>(ub, 0x1000), list, params);
  });
  const std::vector<uint64_t> sorted = host_sort32(s, idx);
  for (int r = 0; r < 2; ++r) {
    std::vector<std::vector<uint64_t>> queues;
    for (int q = 0; q < 4; ++q) queues.emplace_back(sorted.begin() + 128 * r + 32 * q, sorted.begin() + 128 * r + 32 * (q + 1));
    const std::vector<uint64_t> want = host_merge<half>(queues, false);
    for (size_t i = 0; i < 128; ++i) EXPECT_EQ(gd[128 * r + i], want[i]) << r << " " << i;
  }
}

TEST(Sort, MrgSortOfThreeQueuesOfDifferentLengths) {
  auto& dev = make_device({}, "core910b");
  std::vector<std::vector<uint64_t>> queues = {
      {record(9.0f, 0), record(3.0f, 1), record(3.0f, 2)},
      {record(8.0f, 10), record(3.0f, 11), record(-1.0f, 12), record(-2.0f, 13), record(-5.0f, 14)},
      {record(3.0f, 20)},
  };
  std::vector<uint64_t> packed(16, 0);  // the queues at records 0, 4 and 10
  std::copy(queues[0].begin(), queues[0].end(), packed.begin());
  std::copy(queues[1].begin(), queues[1].end(), packed.begin() + 4);
  std::copy(queues[2].begin(), queues[2].end(), packed.begin() + 10);
  uint64_t* gq = to_gm(packed);
  uint64_t* gd = to_gm(std::vector<uint64_t>(12, 0x5555));
  run_ub(dev, {{0, gq, 128, false}, {0x400, gd, 96, true}}, [&](const LocalTensor<uint8_t>& ub) {
    auto q = at<float>(ub, 0);
    MrgSortSrcList<float> list(q[0], q[8], q[20], q[0]);
    const uint16_t lengths[4] = {3, 5, 1, 0};
    MrgSort(at<float>(ub, 0x400), list, MrgSort4Info(lengths, false, 7, 1));
  });
  const std::vector<uint64_t> want = host_merge<float>(queues, false);
  for (size_t i = 0; i < 9; ++i) EXPECT_EQ(gd[i], want[i]) << i;
  for (size_t i = 9; i < 12; ++i) EXPECT_EQ(gd[i], 0x5555u) << "past the merged records";
}

TEST(Sort, MrgSortStopsWhenAQueueRunsOut) {
  auto& dev = make_device({}, "core910b");
  std::vector<std::vector<uint64_t>> queues = {
      {record(5.0f, 0), record(1.0f, 1)},
      {record(4.0f, 10), record(3.0f, 11), record(2.0f, 12), record(0.5f, 13)},
  };
  std::vector<uint64_t> packed(8, 0);
  std::copy(queues[0].begin(), queues[0].end(), packed.begin());
  std::copy(queues[1].begin(), queues[1].end(), packed.begin() + 4);
  uint64_t* gq = to_gm(packed);
  uint64_t* gd = to_gm(std::vector<uint64_t>(8, 0x7777));
  uint16_t taken[4] = {9, 9, 9, 9};
  run_ub(dev, {{0, gq, 64, false}, {0x400, gd, 64, true}}, [&](const LocalTensor<uint8_t>& ub) {
    auto q = at<float>(ub, 0);
    MrgSortSrcList<float> list(q[0], q[8], q[0], q[0]);
    const uint16_t lengths[4] = {2, 4, 0, 0};
    MrgSort(at<float>(ub, 0x400), list, MrgSort4Info(lengths, true, 3, 1));
    GetMrgSortResult(taken[0], taken[1], taken[2], taken[3]);  // waits for the merge itself
  });
  const std::vector<uint64_t> want = host_merge<float>(queues, true);  // 5, 4, 3, 2, 1: queue 0 is out
  ASSERT_EQ(want.size(), 5u);
  EXPECT_EQ(taken[0], 2u);
  EXPECT_EQ(taken[1], 3u);
  EXPECT_EQ(taken[2], 0u);
  EXPECT_EQ(taken[3], 0u);
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(gd[i], want[i]) << i;
  for (size_t i = 5; i < 8; ++i) EXPECT_EQ(gd[i], 0x7777u) << "not written";
}

TEST(Sort, SortLenAndOffsetCountTUnitsPerProduct) {
  auto& dev = make_device({}, "core910b");
  uint32_t* out = to_gm(std::vector<uint32_t>(4, 0));
  dev.launch("sort_len", 1, [&] {
    GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer(out, 4);
    g.SetValue(0, GetSortLen<float>(32));   // 32 records of 8 B: 64 floats
    g.SetValue(1, GetSortLen<half>(32));    // 128 halves
    g.SetValue(2, GetSortOffset<float>(5));
    g.SetValue(3, GetSortOffset<half>(5));
  });
  EXPECT_EQ(out[0], 64u);
  EXPECT_EQ(out[1], 128u);
  EXPECT_EQ(out[2], 10u);
  EXPECT_EQ(out[3], 20u);
}

TEST(Sort, SortLenIsARegionProposalOn910) {
  auto& dev = make_device();
  uint32_t* out = to_gm(std::vector<uint32_t>(2, 0));
  dev.launch("sort_len_910", 1, [&] {
    GlobalTensor<uint32_t> g;
    g.SetGlobalBuffer(out, 2);
    g.SetValue(0, GetSortLen<half>(16));  // 16 proposals of 8 halves
    g.SetValue(1, GetSortOffset<float>(3));
  });
  EXPECT_EQ(out[0], 128u);
  EXPECT_EQ(out[1], 24u);
}

TEST(Sort, ErrorSort32OnA910) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] { Sort32(ub_at<float>(0x1000, 64), ub_at<float>(0, 32), ub_at<uint32_t>(0x800, 32), 1); });
  EXPECT_THAT(e, IsKernelError("Sort32", "Sort32 exists on the A2 products"));
}

TEST(Sort, ErrorMrgSortValidBit) {
  auto& dev = make_device({}, "core910b");
  std::string e = kernel_error(dev, 1, [] {
    auto q = ub_at<float>(0, 64);
    const uint16_t lengths[4] = {4, 4, 4, 4};
    MrgSort(ub_at<float>(0x1000, 64), MrgSortSrcList<float>(q[0], q[8], q[16], q[24]), MrgSort4Info(lengths, false, 5, 1));
  });
  EXPECT_THAT(e, IsKernelError("MrgSort.f32", "validBit 5 is not 3, 7 or 15"));
}

TEST(Sort, ErrorMrgSortRepeatsOverQueuesNotBackToBack) {
  auto& dev = make_device({}, "core910b");
  std::string e = kernel_error(dev, 1, [] {
    auto q = ub_at<float>(0, 256);
    const uint16_t lengths[4] = {4, 4, 4, 4};
    MrgSort(ub_at<float>(0x1000, 64), MrgSortSrcList<float>(q[0], q[8], q[32], q[40]), MrgSort4Info(lengths, false, 15, 2));
  });
  EXPECT_THAT(e, IsKernelError("MrgSort.f32", "repeatTimes 2 needs four queues (validBit 15) of one length stored back to back"));
}

}  // namespace sort_test
