// BroadCastVecToMM: a UB vector broadcast into L0C as 16 x 16 fractals of equal rows (310P AI
// Core), read back through UB in matrix mode and checked element for element.
#include <gtest/gtest.h>
#include <gmock/gmock.h>
#include <cstring>
#include <vector>
#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tikicpulib.h"
#include "tests/support/sanitizer_expect.h"

using namespace AscendC;

namespace broadcast_mm_test {

// blockCount 2, blockLen 1 (16 elements), srcGap 1 (32 B = 8 floats), dstGap 1 (256 elements):
// dst fractal 0 has src[0..15] in every row, fractal 2 has src[24..39] in every row.
void broadcast_kernel(float* gsrc, float* gout) {
  GlobalTensor<float> src, out;
  src.SetGlobalBuffer(gsrc, 48);
  out.SetGlobalBuffer(gout, 768);
  TPipe pipe;
  TBuf<TPosition::VECCALC> in_buf, out_buf;
  TBuf<TPosition::CO1> acc_buf;
  pipe.InitBuffer(in_buf, 48 * sizeof(float));
  pipe.InitBuffer(out_buf, 768 * sizeof(float));
  pipe.InitBuffer(acc_buf, 768 * sizeof(float));
  LocalTensor<float> in = in_buf.Get<float>(), res = out_buf.Get<float>(), acc = acc_buf.Get<float>();
  DataCopy(in, src, 48);
  SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
  BroadCastVecToMM(acc, in, 2, 1, 1, 1);
  DataCopyEnhancedParams matrix;
  matrix.blockMode = BlockMode::BLOCK_MODE_MATRIX;
  DataCopy(res, acc, DataCopyParams{1, 3, 0, 0}, matrix);  // three fractals: two written, one gap
  SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
  DataCopy(out, res, 768);
}

TEST(BroadCastVecToMM, RowsRepeatEachSixteenElements310P) {
  auto& dev = npuvp::testing::make_device({}, "ascend310p");
  std::vector<float> x(48);
  for (int i = 0; i < 48; ++i) x[i] = 0.5f * float(i) - 7.0f;
  auto* gsrc = static_cast<float*>(GmAlloc(48 * sizeof(float)));
  auto* gout = static_cast<float*>(GmAlloc(768 * sizeof(float)));
  std::memcpy(gsrc, x.data(), 48 * sizeof(float));
  dev.launch("broadcast", 1, [&] { broadcast_kernel(gsrc, gout); });
  for (int row = 0; row < 16; ++row) {
    for (int j = 0; j < 16; ++j) {
      ASSERT_EQ(gout[row * 16 + j], x[j]) << "fractal 0, row " << row << ", column " << j;
      ASSERT_EQ(gout[512 + row * 16 + j], x[24 + j]) << "fractal 2, row " << row << ", column " << j;
    }
  }
  // The kernel copies the gap fractal out with the others, never written: NPUVP_CHECK=all says so.
  npuvp::testing::expect_planted({"uninitialized"});
}

TEST(BroadCastVecToMM, IsAnErrorOnA2) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  auto* g = static_cast<float*>(GmAlloc(768 * sizeof(float)));
  const std::string error = npuvp::testing::kernel_error(dev, 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> in_buf;
    pipe.InitBuffer(in_buf, 64 * sizeof(float));
    LocalTensor<float> in = in_buf.Get<float>();
    LocalTensor<float> acc(TPosition::CO1, 0, 256);
    BroadCastVecToMM(acc, in, 1, 1, 0, 0);
    (void)g;
  });
  EXPECT_THAT(error, ::testing::HasSubstr("BroadCastVecToMM"));
  EXPECT_THAT(error, ::testing::HasSubstr("310P"));
}

TEST(BroadCastVecToMM, UnalignedL0CAddressIsAnError) {
  auto& dev = npuvp::testing::make_device({}, "ascend310p");
  const std::string error = npuvp::testing::kernel_error(dev, 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> in_buf;
    pipe.InitBuffer(in_buf, 64 * sizeof(float));
    LocalTensor<float> in = in_buf.Get<float>();
    LocalTensor<float> acc(TPosition::CO1, 512, 256);  // 128 elements in: not 256-aligned
    BroadCastVecToMM(acc, in, 1, 1, 0, 0);
  });
  EXPECT_THAT(error, ::testing::HasSubstr("not aligned to 256 elements"));
}

}  // namespace broadcast_mm_test
