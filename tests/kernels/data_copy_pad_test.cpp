// DataCopyPad (unaligned GM <-> UB copies, Atlas A2) end to end: kernels copy odd-length
// blocks with strides and padding, and every byte of the destination, gaps included, is
// compared with a plain host reference of docs/api/context/DataCopyPad(ISASI).md. One error
// test per limit. Each TEST runs in its own process (ctest).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <vector>

#include "kernel_operator.h"
#include "models/aicore/ai_core.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/raw_tensors.h"
#include "tikicpulib.h"

using namespace AscendC;
using ::testing::HasSubstr;
using npuvp::testing::IsKernelError;
using npuvp::testing::kernel_error;
using npuvp::testing::make_device;
using npuvp::testing::ub_at;

namespace data_copy_pad_test {

// The process's device (one test per process): configured on first use, before any GmAlloc.
npuvp::Device& device(const char* platform = "core910b") {
  static npuvp::Device& dev = make_device({}, platform);
  return dev;
}

constexpr uint32_t kUbBytes = 4096;  // the UB window a test sees, copied in and out whole
constexpr uint8_t kSentinel = 0xA5;

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + i * 7 + (i >> 5));
  return v;
}

template <class T>
GlobalTensor<T> gm(void* p, size_t offset_bytes = 0) {
  GlobalTensor<T> g;
  g.SetGlobalBuffer(reinterpret_cast<T*>(static_cast<uint8_t*>(p) + offset_bytes));
  return g;
}

// Runs `body` on one A2 core with the first kUbBytes of UB preloaded from `ub_in` (aligned
// DataCopy) and copied back to `ub_out` afterwards. The body's own copies are ordered with
// the preload (MTE2) and the readback (MTE3) by flags.
void run(const std::function<void(const LocalTensor<uint8_t>&)>& body, uint8_t* ub_in, uint8_t* ub_out,
         const char* platform = "core910b") {
  auto& dev = device(platform);
  dev.launch("data_copy_pad", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECIN> buf;
    pipe.InitBuffer(buf, kUbBytes);
    const LocalTensor<uint8_t> ub = buf.Get<uint8_t>();
    DataCopy(ub, gm<uint8_t>(ub_in), kUbBytes);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    body(ub);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm<uint8_t>(ub_out), ub, kUbBytes);
  });
}

// The reference of GM -> UB: block i of block_len bytes from GM at src + i * (len + src_gap)
// lands in UB at i * (round32(left + len + right) + 32 * dst_gap), after `left` bytes of
// padding and before `right` bytes and the dummy bytes up to 32 B, all of them `fill`
// (elements of esize bytes); with no padding the dummy bytes repeat the block's first element.
void reference_in(std::vector<uint8_t>& ub, const uint8_t* src, uint32_t count, uint32_t len, uint32_t src_gap,
                  uint32_t dst_gap, uint32_t left, uint32_t right, const void* fill, uint32_t esize) {
  const uint32_t block = (left + len + right + 31) / 32 * 32;
  for (uint32_t i = 0; i < count; ++i) {
    uint8_t* to = ub.data() + size_t(i) * (block + 32 * dst_gap);
    const uint8_t* from = src + size_t(i) * (len + src_gap);
    const void* value = (left == 0 && right == 0) ? static_cast<const void*>(from) : fill;
    for (uint32_t b = 0; b < block; b += esize) std::memcpy(to + b, value, esize);
    std::memcpy(to + left, from, len);
  }
}

std::vector<uint8_t> read(const uint8_t* p, size_t n) { return std::vector<uint8_t>(p, p + n); }

struct Buffers {
  uint8_t* src;     // GM source data
  uint8_t* ub_in;   // UB preload (sentinel)
  uint8_t* ub_out;  // UB readback
};
Buffers buffers(size_t src_bytes) {
  device();
  return {npuvp::testing::to_gm(pattern(src_bytes, 3)),
          npuvp::testing::to_gm(std::vector<uint8_t>(kUbBytes, kSentinel)),
          npuvp::testing::to_gm(std::vector<uint8_t>(kUbBytes, 0))};
}

// ---- GM -> UB

TEST(DataCopyPad, OddHalfBlocksWithStridesRepeatTheFirstElement) {
  Buffers b = buffers(1024);
  // 3 blocks of 7 halves (14 B), 6 B apart in GM, one 32 B block apart in UB.
  run([&](const LocalTensor<uint8_t>& ub) {
        DataCopyPad(ub.ReinterpretCast<half>(), gm<half>(b.src), DataCopyExtParams(3, 14, 6, 1, 0),
                    DataCopyPadExtParams<half>(false, 0, 0, half(0)));
      }, b.ub_in, b.ub_out);
  std::vector<uint8_t> want(kUbBytes, kSentinel);
  reference_in(want, b.src, 3, 14, 6, 1, 0, 0, nullptr, 2);
  EXPECT_EQ(read(b.ub_out, kUbBytes), want);
}

TEST(DataCopyPad, LeftAndRightPaddingWithTheValue) {
  Buffers b = buffers(1024);
  const float value = 3.5f;
  // 4 blocks of 3 floats, 1 float of padding on each side: 20 B, filled out to 32 B.
  run([&](const LocalTensor<uint8_t>& ub) {
        DataCopyPad(ub[64].ReinterpretCast<float>(), gm<float>(b.src, 4), DataCopyExtParams(4, 12, 8, 0, 0),
                    DataCopyPadExtParams<float>(true, 1, 1, value));
      }, b.ub_in, b.ub_out);
  std::vector<uint8_t> want(kUbBytes, kSentinel), window(kUbBytes - 64);
  std::memcpy(window.data(), want.data() + 64, window.size());
  reference_in(window, b.src + 4, 4, 12, 8, 0, 4, 4, &value, 4);
  std::memcpy(want.data() + 64, window.data(), window.size());
  EXPECT_EQ(read(b.ub_out, kUbBytes), want);
}

TEST(DataCopyPad, WithoutIsPadThePaddingIsThePadValueRegister) {
  Buffers b = buffers(1024);
  const int16_t value = -7;
  run([&](const LocalTensor<uint8_t>& ub) {
        SetPadValue<int16_t>(value);
        DataCopyPad(ub.ReinterpretCast<int16_t>(), gm<int16_t>(b.src), DataCopyExtParams(2, 10, 0, 2, 0),
                    DataCopyPadExtParams<int16_t>(false, 3, 5, 99));
      }, b.ub_in, b.ub_out);
  std::vector<uint8_t> want(kUbBytes, kSentinel);
  reference_in(want, b.src, 2, 10, 0, 2, 6, 10, &value, 2);
  EXPECT_EQ(read(b.ub_out, kUbBytes), want);
}

TEST(DataCopyPad, BytesFromAnUnalignedGmAddressWithAnExactly32BPaddedBlock) {
  Buffers b = buffers(1024);
  const uint8_t value = 0x3C;
  // uint8: 45 bytes from GM byte 3, 32 B of left padding and 19 right: 96 B per block.
  run([&](const LocalTensor<uint8_t>& ub) {
        DataCopyPad(ub, gm<uint8_t>(b.src, 3), DataCopyExtParams(5, 45, 1, 1, 0),
                    DataCopyPadExtParams<uint8_t>(true, 32, 19, value));
      }, b.ub_in, b.ub_out);
  std::vector<uint8_t> want(kUbBytes, kSentinel);
  reference_in(want, b.src + 3, 5, 45, 1, 1, 32, 19, &value, 1);
  EXPECT_EQ(read(b.ub_out, kUbBytes), want);
}

TEST(DataCopyPad, DataCopyParamsFormCountsBytesWithDataCopyPadParams) {
  Buffers b = buffers(1024);
  const float value = -0.0f;
  uint64_t bits = 0;
  std::memcpy(&bits, &value, 4);
  run([&](const LocalTensor<uint8_t>& ub) {
        DataCopyPad(ub.ReinterpretCast<float>(), gm<float>(b.src), DataCopyParams(3, 36, 4, 0),
                    DataCopyPadParams(true, 0, 2, bits));
      }, b.ub_in, b.ub_out);
  std::vector<uint8_t> want(kUbBytes, kSentinel);
  reference_in(want, b.src, 3, 36, 4, 0, 0, 8, &value, 4);
  EXPECT_EQ(read(b.ub_out, kUbBytes), want);
}

TEST(DataCopyPad, ZeroBlockCountOrLengthIsANoOp) {
  Buffers b = buffers(1024);
  run([&](const LocalTensor<uint8_t>& ub) {
        DataCopyPad(ub.ReinterpretCast<half>(), gm<half>(b.src), DataCopyExtParams(0, 14, 0, 0, 0),
                    DataCopyPadExtParams<half>());
        DataCopyPad(ub.ReinterpretCast<half>(), gm<half>(b.src), DataCopyExtParams(3, 0, 0, 0, 0),
                    DataCopyPadExtParams<half>());
      }, b.ub_in, b.ub_out);
  EXPECT_EQ(read(b.ub_out, kUbBytes), std::vector<uint8_t>(kUbBytes, kSentinel));
}

// ---- UB -> GM: only the data bytes are written.

TEST(DataCopyPad, UbToGmWritesOnlyTheValidBytes) {
  device();
  const std::vector<uint8_t> ub_data = pattern(kUbBytes, 11);
  uint8_t* ub_in = npuvp::testing::to_gm(ub_data);
  uint8_t* ub_out = npuvp::testing::to_gm(std::vector<uint8_t>(kUbBytes, 0));
  uint8_t* dst = npuvp::testing::to_gm(std::vector<uint8_t>(1024, kSentinel));
  // 3 blocks of 7 halves: UB blocks 32 B + 1 gap block apart, GM blocks 14 + 2 B apart.
  run([&](const LocalTensor<uint8_t>& ub) {
        DataCopyPad(gm<half>(dst, 1), ub.ReinterpretCast<half>(), DataCopyExtParams(3, 14, 1, 2, 0));
      }, ub_in, ub_out);
  std::vector<uint8_t> want(1024, kSentinel);
  for (int i = 0; i < 3; ++i) std::memcpy(want.data() + 1 + i * 16, ub_data.data() + i * 64, 14);
  EXPECT_EQ(read(dst, 1024), want);
}

TEST(DataCopyPad, UbToGmDataCopyParamsFormAndALongBlock) {
  device();
  const std::vector<uint8_t> ub_data = pattern(kUbBytes, 17);
  uint8_t* ub_in = npuvp::testing::to_gm(ub_data);
  uint8_t* ub_out = npuvp::testing::to_gm(std::vector<uint8_t>(kUbBytes, 0));
  uint8_t* dst = npuvp::testing::to_gm(std::vector<uint8_t>(4096, kSentinel));
  // 2 blocks of 301 floats (1204 B, 38 UB blocks each), no gaps on either side.
  run([&](const LocalTensor<uint8_t>& ub) {
        DataCopyPad(gm<float>(dst), ub.ReinterpretCast<float>(), DataCopyParams(2, 1204, 0, 0));
      }, ub_in, ub_out);
  std::vector<uint8_t> want(4096, kSentinel);
  std::memcpy(want.data(), ub_data.data(), 1204);
  std::memcpy(want.data() + 1204, ub_data.data() + 38 * 32, 1204);
  EXPECT_EQ(read(dst, 4096), want);
}

// The kernel pattern DataCopyPad exists for: a tail that is not a multiple of 32 B, in and out.
TEST(DataCopyPad, OddLengthRoundTripThroughAVectorOp) {
  auto& dev = device();
  const uint32_t n = 37;
  auto x = npuvp::testing::random_vector<float>(n, 5);
  float* src = npuvp::testing::to_gm(x);
  float* dst = npuvp::testing::to_gm(std::vector<float>(n + 8, -1.0f));
  dev.launch("tail", 1, [&] {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qin;
    TQue<TPosition::VECOUT, 1> qout;
    pipe.InitBuffer(qin, 1, 256);
    pipe.InitBuffer(qout, 1, 256);
    LocalTensor<float> a = qin.AllocTensor<float>();
    DataCopyPad(a, gm<float>(src), {1, n * 4, 0, 0, 0}, {true, 0, 3, 0.0f});
    qin.EnQue(a);
    LocalTensor<float> in = qin.DeQue<float>();
    LocalTensor<float> out = qout.AllocTensor<float>();
    Muls(out, in, 2.0f, 40);
    qout.EnQue(out);
    qin.FreeTensor(in);
    LocalTensor<float> res = qout.DeQue<float>();
    DataCopyPad(gm<float>(dst), res, {1, n * 4, 0, 0, 0});
    qout.FreeTensor(res);
  });
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(dst[i], x[i] * 2.0f) << i;
  for (uint32_t i = n; i < n + 8; ++i) EXPECT_EQ(dst[i], -1.0f) << i;
}

// Timed like DataCopy: the same (cached) bytes take the same time on MTE2, and twice the bytes more.
TEST(DataCopyPad, TimedLikeDataCopy) {
  auto& dev = device();
  uint8_t* src = npuvp::testing::to_gm(pattern(64 * 1024, 1));
  double t_copy = 0, t_pad = 0, t_pad2 = 0;  // ns of simulated time
  dev.launch("timing", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECIN> buf;
    pipe.InitBuffer(buf, 64 * 1024);
    LocalTensor<uint8_t> ub = buf.Get<uint8_t>();
    auto timed = [](const std::function<void()>& f) {
      PipeBarrier<PIPE_ALL>();
      const sc_core::sc_time t0 = npuvp::ascendc::core().scalar_time();
      f();
      PipeBarrier<PIPE_ALL>();
      return (npuvp::ascendc::core().scalar_time() - t0).to_seconds() * 1e9;
    };
    timed([&] { DataCopy(ub, gm<uint8_t>(src), 32768); });  // warms the caches for all three
    t_copy = timed([&] { DataCopy(ub, gm<uint8_t>(src), 16384); });
    t_pad = timed([&] { DataCopyPad(ub, gm<uint8_t>(src), {1, 16384, 0, 0, 0}, {false, 0, 0, 0}); });
    t_pad2 = timed([&] { DataCopyPad(ub, gm<uint8_t>(src), {2, 16384, 0, 0, 0}, {false, 0, 0, 0}); });
  });
  EXPECT_GT(t_copy, 0);
  EXPECT_EQ(t_pad, t_copy);
  EXPECT_GT(t_pad2, t_pad);
}

// ---- Limits: one error each.

std::string pad_error(const char* platform, const std::function<void()>& body) {
  auto& dev = device(platform);
  return kernel_error(dev, 1, body);
}

TEST(DataCopyPadErrors, NotOnAscend910) {
  device("core910");
  void* p = GmAlloc(1024);
  std::string e = pad_error("core910", [p] {
    DataCopyPad(ub_at<half>(0, 16), gm<half>(p), DataCopyExtParams(1, 14, 0, 0, 0), DataCopyPadExtParams<half>());
  });
  EXPECT_THAT(e, IsKernelError("DataCopyPad UB:0x0 <- GM:", "DataCopyPad is not supported on ascend910"));
}
TEST(DataCopyPadErrors, SetPadValueNotOnAscend910) {
  std::string e = pad_error("core910", [] { SetPadValue<half>(half(1)); });
  EXPECT_THAT(e, IsKernelError("SetPadValue", "not supported on ascend910"));
}
TEST(DataCopyPadErrors, BlockLenNotWholeElements) {
  device("core910b");
  void* p = GmAlloc(1024);
  std::string e = pad_error("core910b", [p] {
    DataCopyPad(ub_at<float>(0, 16), gm<float>(p), DataCopyExtParams(1, 6, 0, 0, 0), DataCopyPadExtParams<float>());
  });
  EXPECT_THAT(e, IsKernelError("DataCopyPad UB:0x0 <- GM:", "blockLen 6 B is not a whole number of 4 B elements"));
}
TEST(DataCopyPadErrors, BlockLenOver2097151) {
  device("core910b");
  void* p = GmAlloc(1024);
  std::string e = pad_error("core910b", [p] {
    DataCopyPad(ub_at<uint8_t>(0, 16), gm<uint8_t>(p), DataCopyExtParams(1, 2097152, 0, 0, 0),
                DataCopyPadExtParams<uint8_t>());
  });
  EXPECT_THAT(e, IsKernelError("DataCopyPad UB:0x0 <- GM:", "blockLen 2097152 B out of range [1, 2097151]"));
}
TEST(DataCopyPadErrors, PaddingOver32Bytes) {
  device("core910b");
  void* p = GmAlloc(1024);
  std::string e = pad_error("core910b", [p] {
    DataCopyPad(ub_at<float>(0, 64), gm<float>(p), DataCopyExtParams(1, 8, 0, 0, 0),
                DataCopyPadExtParams<float>(true, 9, 0, 1.0f));
  });
  EXPECT_THAT(e, IsKernelError("DataCopyPad UB:0x0 <- GM:", "leftPadding 36 B / rightPadding 0 B: each must be at most 32 B"));
}
TEST(DataCopyPadErrors, BlockCount4096) {
  device("core910b");
  void* p = GmAlloc(1 << 16);
  std::string e = pad_error("core910b", [p] {
    DataCopyPad(gm<half>(p), ub_at<half>(0, 16), DataCopyExtParams(4096, 2, 0, 0, 0));
  });
  EXPECT_THAT(e, IsKernelError("DataCopyPad GM:", "blockCount 4096 out of range [1, 4095]"));
}
TEST(DataCopyPadErrors, UbAddressNot32BAligned) {
  device("core910b");
  void* p = GmAlloc(1024);
  std::string e = pad_error("core910b", [p] {
    DataCopyPad(ub_at<half>(16, 16), gm<half>(p), DataCopyExtParams(1, 14, 0, 0, 0), DataCopyPadExtParams<half>());
  });
  EXPECT_THAT(e, IsKernelError("DataCopyPad UB:0x10 <- GM:", "dst address UB:0x10 is not 32 B aligned"));
}
TEST(DataCopyPadErrors, PastTheEndOfUb) {
  device("core910b");
  void* p = GmAlloc(1 << 20);
  std::string e = pad_error("core910b", [p] {
    // 2 blocks of 100000 B each: the second ends past the 192 KiB UB.
    DataCopyPad(ub_at<uint8_t>(0, 16), gm<uint8_t>(p), DataCopyExtParams(2, 100000, 0, 0, 0),
                DataCopyPadExtParams<uint8_t>());
  });
  EXPECT_THAT(e, IsKernelError("DataCopyPad UB:0x0 <- GM:", "dst"));
  EXPECT_THAT(e, HasSubstr("UB"));
}
}  // namespace data_copy_pad_test
