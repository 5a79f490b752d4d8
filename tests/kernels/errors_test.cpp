// Bad input never crashes or hangs: each error names the block, the instruction and the
// simulated time, and the simulation stops.
#include <gtest/gtest.h>
#include <gmock/gmock.h>
#include <cstring>
#include <sstream>
#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tests/support/raw_tensors.h"
#include "tikicpulib.h"
#include "tlm/config.h"
#include "tests/support/sanitizer_expect.h"

using namespace AscendC;
using ::testing::AllOf;
using ::testing::HasSubstr;
using npuvp::testing::IsKernelError;
using npuvp::testing::kernel_error;
using npuvp::testing::make_device;
using npuvp::testing::ub_at;

namespace errors_test {


TEST(KernelErrors, MisalignedUbAddress) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] {
    auto a = ub_at<half>(0, 128);
    Add(a[3], a, a, 128);  // 6 bytes in: not 32 B aligned
  });
  EXPECT_THAT(e, IsKernelError("Add.f16 dst=UB:0x6", "dst address 0x6 not 32 B aligned"));
}

TEST(KernelErrors, UbOverflowInInitBuffer) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 200 * 1024);  // 400 KiB > 256 KiB
  });
  EXPECT_THAT(e, IsKernelError("TPipe::InitBuffer", "UB overflow: 409600 bytes requested at offset 0, but UB holds 262144"));
}

TEST(KernelErrors, VectorOperandBeyondUb) {
  auto& dev = make_device({"core.ub.size=64KiB"});
  std::string e = kernel_error(dev, 1, [] {
    auto a = ub_at<float>(60 * 1024, 2048);
    Adds(a, a, 1.0f, 2048);  // 8 KiB from 60 KiB: past the end of a 64 KiB UB
  });
  EXPECT_THAT(e, IsKernelError("Adds.f32 dst=UB:0xf000", "beyond UB size 0x10000"));
}

TEST(KernelErrors, Repeat256) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] {
    auto a = ub_at<half>(0, 128);
    Add(a, a, a, 128, 256, BinaryRepeatParams(1, 1, 1, 0, 0, 0));
  });
  EXPECT_THAT(e, IsKernelError("Add.f16", "repeat 256 out of range [0, 255]"));
}

TEST(KernelErrors, ContinuousMaskOutOfRangeForFloat) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] {
    auto a = ub_at<float>(0, 64);
    Relu(a, a, 65, 1, UnaryRepeatParams());
  });
  EXPECT_THAT(e, IsKernelError("Relu.f32", "mask 65 out of range [1, 64]"));
}

TEST(KernelErrors, UnknownConfigKey) {
  npuvp::Config::global().clear();
  try {
    make_device({"core.ub.szie=1024"});
    FAIL() << "an unknown key was accepted";
  } catch (const std::exception& ex) {
    EXPECT_THAT(npuvp::error_text(ex), AllOf(HasSubstr("core.ub.szie"), HasSubstr("core.ub.size")));
  }
}

TEST(KernelErrors, WrongConfigValueType) {
  try {
    make_device({"platform.cores=eight"});
    FAIL() << "a string was accepted for an integer";
  } catch (const std::exception& ex) {
    EXPECT_THAT(npuvp::error_text(ex), HasSubstr("platform.cores"));
  }
}

TEST(KernelErrors, UnmappedGmAddress) {
  auto& dev = make_device();
  static float not_gm[64];  // host memory the device cannot reach
  std::string e = kernel_error(dev, 1, [] {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(not_gm, 64);
    DataCopy(ub_at<float>(0, 64), g, 64);
  });
  EXPECT_THAT(e, IsKernelError("DataCopy UB:0x0 <- GM:", "outside every mapped range (TLM_ADDRESS_ERROR_RESPONSE)"));
}

TEST(KernelErrors, GmAccessPastTheEndOfGm) {
  auto& dev = make_device({"gm.size=1MiB"});
  auto* p = static_cast<uint8_t*>(GmAlloc(1024));
  std::string e = kernel_error(dev, 1, [p] {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<float*>(p), 1024);
    DataCopy(ub_at<float>(0, 1024), g[(1 << 20) / 4 - 128], 1024);  // crosses the end of GM
  });
  EXPECT_THAT(e, IsKernelError("DataCopy UB:0x0 <- GM:", "GM read of 4096 bytes"));
  npuvp::testing::expect_planted({"out-of-bounds"});  // NPUVP_CHECK=all: the bug is reported
}

TEST(KernelErrors, DeadlockedWaitFlagIsReported) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 2, [] {
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID3);  // no SetFlag ever comes
    Adds(ub_at<float>(0, 64), ub_at<float>(0, 64), 1.0f, 64);
  });
  EXPECT_THAT(e, AllOf(HasSubstr("deadlock"), HasSubstr("0 of 2 blocks"), HasSubstr("core0"),
                       HasSubstr("WaitFlag<MTE2_V>(3)")));
  npuvp::testing::expect_planted({"sync"});  // NPUVP_CHECK=all: the bug is reported
}

TEST(KernelErrors, EventIdOutOfRange) {
  auto& dev = make_device({"core.event_ids=4"});
  std::string e = kernel_error(dev, 1, [] { SetFlag<HardEvent::MTE2_V>(EVENT_ID4); });
  EXPECT_THAT(e, IsKernelError("SetFlag<MTE2_V>(4)", "event id 4 out of range [0, 3]"));
}

TEST(KernelErrors, IllegalDataPath) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] {
    LocalTensor<half> l1(TPosition::A1, 0, 128);
    DataCopy(l1, ub_at<half>(0, 128), 128);
  });
  EXPECT_THAT(e, IsKernelError("DataCopy UB->L1", "not a legal data path on ascend910"));
}

TEST(KernelErrors, DataCopyBlockCountOutOfRange) {
  auto& dev = make_device();
  auto* p = static_cast<float*>(GmAlloc(1 << 20));
  std::string e = kernel_error(dev, 1, [p] {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(p);
    DataCopy(ub_at<float>(0, 8), g, DataCopyParams(0, 1, 0, 0));
  });
  EXPECT_THAT(e, IsKernelError("DataCopy UB:0x0 <- GM:", "blockCount 0 out of range [1, 4095]"));
}

TEST(KernelErrors, DequeFromEmptyQueue) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    q.DeQue<half>();
  });
  EXPECT_THAT(e, IsKernelError("TQue::DeQue", "the VECIN queue is empty"));
}

TEST(KernelErrors, BlockDimOutOfRange) {
  auto& dev = make_device();
  EXPECT_THAT(kernel_error(dev, 0, [] {}), HasSubstr("blockDim 0 out of range"));
}

// ---- event ids (SPEC.md §1.2: 0-3 per HardEvent on a 910, 0-7 on A2)
TEST(KernelErrors, EventIdOutOfRangeOnCore910) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] { WaitFlag<HardEvent::MTE3_V>(EVENT_ID4); });
  EXPECT_THAT(e, IsKernelError("WaitFlag<MTE3_V>(4)", "event id 4 out of range [0, 3]"));
}

TEST(KernelErrors, ScalarPipeEventIdOutOfRangeOnCore910) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] { SetFlag<HardEvent::S_MTE3>(EVENT_ID7); });
  EXPECT_THAT(e, IsKernelError("SetFlag<S_MTE3>(7)", "event id 7 out of range [0, 3]"));
}

TEST(KernelErrors, NegativeEventId) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] { SetFlag<HardEvent::MTE2_V>(-1); });
  EXPECT_THAT(e, IsKernelError("SetFlag<MTE2_V>(0)", "event id -1 is negative"));
}

TEST(KernelErrors, QueueBuffersBeyondTheEventIdsOnCore910) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 5> q;
    pipe.InitBuffer(q, 5, 256);  // five buffers need five MTE2_V ids; a 910 has four
  });
  EXPECT_THAT(e, IsKernelError("TPipe::InitBuffer", "out of event ids for HardEvent MTE2_V: the core has 4 per HardEvent"));
}

// The time in the message is the simulated time at which the scalar unit issued the
// instruction, not 0: here after a copy of 1 MiB and a barrier.
TEST(KernelErrors, ErrorTimeIsTheSimulatedTimeOfTheIssue) {
  auto& dev = make_device({"core.mte.gm_read_bytes_per_cycle=32"}, "core910");
  void* p = GmAlloc(1 << 20);
  std::string e = kernel_error(dev, 1, [p] {
    GlobalTensor<half> g;
    g.SetGlobalBuffer(static_cast<half*>(p));
    DataCopy(ub_at<half>(0, 65536), g, 65536);  // 128 KiB at 32 B per cycle: 4096 cycles and more
    PipeBarrier<PIPE_ALL>();
    Add(ub_at<half>(0, 128)[3], ub_at<half>(0, 128), ub_at<half>(0, 128), 128);
  });
  EXPECT_THAT(e, IsKernelError("Add.f16", "not 32 B aligned"));
  std::istringstream time(e.substr(e.find(" @ ") + 3));
  double value = 0;
  std::string unit;
  time >> value >> unit;  // "4098 ns:"
  unit = unit.substr(0, unit.find(':'));
  const double ns = unit == "ns" ? value : unit == "us" ? value * 1e3 : unit == "ps" ? value / 1e3 : -1;
  EXPECT_GE(ns, 4096.0) << e;  // at least the copy's 4096 cycles of 1 ns

}

}  // namespace errors_test
