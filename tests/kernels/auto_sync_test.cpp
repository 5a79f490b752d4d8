// Automatic synchronisation (core.auto_sync, on by default as CANN's --cce-auto-sync): a scalar
// GetValue/SetValue waits for the MTE2/V/MTE3 pipes whose queued instructions touch its bytes,
// and only for those; with core.auto_sync=false it sees the bytes as they are, stale or not.
#include <gtest/gtest.h>
#include <cstdint>
#include <string>
#include <vector>
#include "kernel_operator.h"
#include "models/aicore/ai_core.h"
#include "platforms/ascend_soc.h"
#include "platforms/run_summary.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tikicpulib.h"
#include "tlm/stats.h"
#include "tests/support/sanitizer_expect.h"

using namespace AscendC;

namespace auto_sync_test {

using npuvp::testing::to_gm;

uint64_t syncs() { return npuvp::Stats::global().value("core0.S.auto_sync.syncs"); }
uint64_t sync_cycles() { return npuvp::Stats::global().value("core0.S.auto_sync.cycles"); }

// Two UB tensors of n floats, a and b, 0 and 1 everywhere once the kernel starts.
struct Buffers {
  LocalTensor<float> a, b;
  explicit Buffers(TPipe& pipe, TBuf<TPosition::VECCALC>& ba, TBuf<TPosition::VECCALC>& bb, int n) {
    pipe.InitBuffer(ba, n * 4);
    pipe.InitBuffer(bb, n * 4);
    a = ba.Get<float>();
    b = bb.Get<float>();
    Duplicate(a, 0.0f, n);
    Duplicate(b, 1.0f, n);
    PipeBarrier<PIPE_ALL>();
  }
};

// GetValue right after a vector op writing those bytes: one V->S pair, and the result.
float read_after_vector_op() {
  float seen = -1;
  npuvp::Device::instance().launch("read_after_v", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb;
    Buffers u(pipe, ba, bb, 2048);
    Duplicate(u.a, 5.0f, 2048);
    seen = u.a.GetValue(3);
  });
  return seen;
}

TEST(AutoSync, ScalarReadAfterVectorOpWaitsAndSeesTheResult) {
  npuvp::testing::make_device();
  EXPECT_EQ(read_after_vector_op(), 5.0f);
  EXPECT_EQ(syncs(), 1u);  // V only
  // At least the Duplicate's fixed cost (core.vector.head_cycles) was waited for.
  EXPECT_GE(sync_cycles(), 37u);
}

// `npuvp run`'s summary shows the inserted syncs under the pipe table, and nothing when none was.
TEST(AutoSync, TheRunSummaryShowsInsertedSyncs) {
  auto& dev = npuvp::testing::make_device();
  const auto& none = dev.launch("nothing_pending", 1, [] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb;
    Buffers u(pipe, ba, bb, 64);
    (void)u.a.GetValue(0);
  });
  EXPECT_EQ(npuvp::platform::run_summary(dev.soc(), none.sim_time, 0).find("auto sync"), std::string::npos);
  EXPECT_EQ(read_after_vector_op(), 5.0f);
  const std::string text = npuvp::platform::run_summary(dev.soc(), dev.soc().core(0).cycle() * 100.0, 0);
  EXPECT_NE(text.find("auto sync: 1 SetFlag/WaitFlag pairs inserted"), std::string::npos) << text;
}

TEST(AutoSync, OffTheScalarReadSeesTheStaleBytes) {
  npuvp::testing::make_device({"core.auto_sync=false"});
  EXPECT_EQ(read_after_vector_op(), 0.0f);  // the Duplicate has not completed
  EXPECT_EQ(npuvp::Stats::global().find("core0.S.auto_sync.syncs"), nullptr);
  npuvp::testing::expect_planted({"race"});  // NPUVP_CHECK=all: the bug is reported
}

// A read of other bytes does not wait: no sync, and the scalar unit runs on ahead of the pipe.
TEST(AutoSync, ScalarReadOfOtherBytesDoesNotWait) {
  auto& dev = npuvp::testing::make_device();
  float seen = -1;
  double waited_ns = -1;
  dev.launch("other_bytes", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb;
    Buffers u(pipe, ba, bb, 2048);
    auto* core = npuvp::aicore::AiCore::current();
    Duplicate(u.a, 5.0f, 2048);  // 32 repeats on V
    const double before = core->scalar_time().to_seconds();
    seen = u.b.GetValue(7);
    waited_ns = (core->scalar_time().to_seconds() - before) * 1e9;
  });
  EXPECT_EQ(seen, 1.0f);
  EXPECT_EQ(syncs(), 0u);
  EXPECT_LT(waited_ns, 10.0);  // the access's issue only; the Duplicate takes > 37 cycles
}

// Only the pipes whose queued instructions touch the bytes are waited for: a pending MTE2 copy
// into b does not hold up a read of a after a vector op.
TEST(AutoSync, OnlyThePipesTouchingTheBytesAreWaitedFor) {
  auto& dev = npuvp::testing::make_device();
  const int n = 16384;
  std::vector<float> x(n, 2.0f);
  float* gx = to_gm(x);
  float seen = -1, later = -1;
  dev.launch("two_pipes", 1, [&] {
    GlobalTensor<float> X;
    X.SetGlobalBuffer(gx, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb;
    Buffers u(pipe, ba, bb, n);
    DataCopy(u.b, X, n);  // 64 KiB from GM: long after the Duplicate
    Duplicate(u.a, 5.0f, 64);
    seen = u.a.GetValue(0);
    later = u.b.GetValue(n - 1);  // now MTE2's copy
  });
  EXPECT_EQ(seen, 5.0f);
  EXPECT_EQ(later, 2.0f);
  EXPECT_EQ(syncs(), 2u);  // V for a, then MTE2 for b
}

// SetValue before a pending vector op reads those bytes waits for the read (write after read).
float multiply_then_overwrite_source() {
  float product = -1;
  npuvp::Device::instance().launch("war", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb;
    Buffers u(pipe, ba, bb, 2048);
    Muls(u.a, u.b, 2.0f, 2048);  // reads b (1.0)
    u.b.SetValue(0, 7.0f);
    PipeBarrier<PIPE_ALL>();
    product = u.a.GetValue(0);
  });
  return product;
}

TEST(AutoSync, ScalarWriteBeforeAPendingVectorReadWaits) {
  npuvp::testing::make_device();
  EXPECT_EQ(multiply_then_overwrite_source(), 2.0f);
  EXPECT_EQ(syncs(), 1u);
}

TEST(AutoSync, OffTheScalarWriteOvertakesThePendingRead) {
  npuvp::testing::make_device({"core.auto_sync=false"});
  EXPECT_EQ(multiply_then_overwrite_source(), 14.0f);
  npuvp::testing::expect_planted({"race"});  // NPUVP_CHECK=all: the bug is reported
}

// GlobalTensor::GetValue after an MTE3 copy writing those GM bytes.
float gm_read_after_copy_out(float* gz) {
  float seen = -1;
  npuvp::Device::instance().launch("gm_raw", 1, [&] {
    GlobalTensor<float> Z;
    Z.SetGlobalBuffer(gz, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb;
    Buffers u(pipe, ba, bb, 64);
    Duplicate(u.a, 9.0f, 64);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(Z, u.a, 64);
    seen = Z.GetValue(5);
  });
  return seen;
}

TEST(AutoSync, GmScalarReadAfterMte3WriteWaits) {
  npuvp::testing::make_device();
  float* gz = to_gm(std::vector<float>(64, -3.0f));
  EXPECT_EQ(gm_read_after_copy_out(gz), 9.0f);
  EXPECT_EQ(syncs(), 1u);  // MTE3 (V's Duplicate writes UB, not GM)
}

TEST(AutoSync, OffTheGmScalarReadSeesTheOldValue) {
  npuvp::testing::make_device({"core.auto_sync=false"});
  float* gz = to_gm(std::vector<float>(64, -3.0f));
  EXPECT_EQ(gm_read_after_copy_out(gz), -3.0f);
  npuvp::testing::expect_planted({"race"});  // NPUVP_CHECK=all: the bug is reported
}

// GlobalTensor::SetValue before a pending MTE2 copy reads those GM bytes (write after read).
TEST(AutoSync, GmScalarWriteBeforeAPendingMte2ReadWaits) {
  auto& dev = npuvp::testing::make_device();
  float* gx = to_gm(std::vector<float>(64, 4.0f));
  float copied = -1;
  dev.launch("gm_war", 1, [&] {
    GlobalTensor<float> X;
    X.SetGlobalBuffer(gx, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb;
    Buffers u(pipe, ba, bb, 64);
    DataCopy(u.a, X, 64);
    X.SetValue(0, 8.0f);
    PipeBarrier<PIPE_ALL>();
    copied = u.a.GetValue(0);
  });
  EXPECT_EQ(copied, 4.0f);
  EXPECT_EQ(gx[0], 8.0f);
  EXPECT_EQ(syncs(), 1u);
}

// A kernel's own flags leave nothing pending: no sync is inserted, nothing is charged.
TEST(AutoSync, HandWrittenSyncLeavesNothingToInsert) {
  auto& dev = npuvp::testing::make_device();
  float seen = -1;
  dev.launch("hand", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb;
    Buffers u(pipe, ba, bb, 2048);
    Duplicate(u.a, 5.0f, 2048);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    seen = u.a.GetValue(3);
  });
  EXPECT_EQ(seen, 5.0f);
  EXPECT_EQ(npuvp::Stats::global().find("core0.S.auto_sync.syncs"), nullptr);
}

// The inserted flag uses an id of its own: a kernel's V_S flag with every id in use is not
// consumed or set by it.
TEST(AutoSync, InsertedFlagsDoNotTouchTheKernelsIds) {
  auto& dev = npuvp::testing::make_device();
  float seen = -1;
  dev.launch("ids", 1, [&] {
    const uint32_t ids = npuvp::aicore::AiCore::current()->flags().event_ids();
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb;
    Buffers u(pipe, ba, bb, 2048);
    for (uint32_t id = 0; id < ids; ++id) SetFlag<HardEvent::V_S>(id);  // every kernel id set once
    Duplicate(u.a, 5.0f, 2048);
    seen = u.a.GetValue(3);  // waits for V with its own id
    for (uint32_t id = 0; id < ids; ++id) WaitFlag<HardEvent::V_S>(id);  // each still set exactly once
  });
  EXPECT_EQ(seen, 5.0f);
  EXPECT_EQ(syncs(), 1u);
}

}  // namespace auto_sync_test
