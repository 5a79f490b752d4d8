// Bad input never crashes or hangs: each error names the block, the instruction and the
// simulated time, and the simulation stops.
#include <gtest/gtest.h>
#include <gmock/gmock.h>
#include <cstring>
#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tikicpulib.h"
#include "tlm/config.h"

using namespace AscendC;
using ::testing::AllOf;
using ::testing::HasSubstr;
using npuvp::testing::kernel_error;
using npuvp::testing::make_device;

namespace {

// A UB tensor of n elements at byte offset `offset` (bypassing TPipe, as raw addresses do).
template <class T>
LocalTensor<T> ub_at(uint64_t offset, uint32_t n) { return LocalTensor<T>(TPosition::VECCALC, offset, n); }

TEST(KernelErrors, MisalignedUbAddress) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] {
    auto a = ub_at<half>(0, 128);
    Add(a[3], a, a, 128);  // 6 bytes in: not 32 B aligned
  });
  EXPECT_THAT(e, AllOf(HasSubstr("soc.core0"), HasSubstr("Add.f16"), HasSubstr("not 32 B aligned"), HasSubstr(" ns")));
}

TEST(KernelErrors, UbOverflowInInitBuffer) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 200 * 1024);  // 400 KiB > 256 KiB
  });
  EXPECT_THAT(e, AllOf(HasSubstr("soc.core0"), HasSubstr("InitBuffer"), HasSubstr("UB overflow")));
}

TEST(KernelErrors, VectorOperandBeyondUb) {
  auto& dev = make_device({"core.ub.size=64KiB"});
  std::string e = kernel_error(dev, 1, [] {
    auto a = ub_at<float>(60 * 1024, 2048);
    Adds(a, a, 1.0f, 2048);  // 8 KiB from 60 KiB: past the end of a 64 KiB UB
  });
  EXPECT_THAT(e, AllOf(HasSubstr("soc.core0"), HasSubstr("Adds.f32"), HasSubstr("UB")));
}

TEST(KernelErrors, Repeat256) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] {
    auto a = ub_at<half>(0, 128);
    Add(a, a, a, 128, 256, BinaryRepeatParams(1, 1, 1, 0, 0, 0));
  });
  EXPECT_THAT(e, AllOf(HasSubstr("soc.core0"), HasSubstr("Add.f16"), HasSubstr("repeat 256")));
}

TEST(KernelErrors, ContinuousMaskOutOfRangeForFloat) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] {
    auto a = ub_at<float>(0, 64);
    Relu(a, a, 65, 1, UnaryRepeatParams());
  });
  EXPECT_THAT(e, AllOf(HasSubstr("Relu.f32"), HasSubstr("mask 65 out of range [1, 64]")));
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
  EXPECT_THAT(e, AllOf(HasSubstr("soc.core0"), HasSubstr("DataCopy"), HasSubstr("TLM_ADDRESS_ERROR_RESPONSE")));
}

TEST(KernelErrors, GmAccessPastTheEndOfGm) {
  auto& dev = make_device({"gm.size=1MiB"});
  auto* p = static_cast<uint8_t*>(GmAlloc(1024));
  std::string e = kernel_error(dev, 1, [p] {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<float*>(p), 1024);
    DataCopy(ub_at<float>(0, 1024), g[(1 << 20) / 4 - 128], 1024);  // crosses the end of GM
  });
  EXPECT_THAT(e, AllOf(HasSubstr("DataCopy"), HasSubstr("GM read")));
}

TEST(KernelErrors, DeadlockedWaitFlagIsReported) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 2, [] {
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID3);  // no SetFlag ever comes
    Adds(ub_at<float>(0, 64), ub_at<float>(0, 64), 1.0f, 64);
  });
  EXPECT_THAT(e, AllOf(HasSubstr("deadlock"), HasSubstr("0 of 2 blocks"), HasSubstr("core0"),
                       HasSubstr("WaitFlag<MTE2_V>(3)")));
}

TEST(KernelErrors, EventIdOutOfRange) {
  auto& dev = make_device({"core.event_ids=4"});
  std::string e = kernel_error(dev, 1, [] { SetFlag<HardEvent::MTE2_V>(EVENT_ID4); });
  EXPECT_THAT(e, AllOf(HasSubstr("SetFlag<MTE2_V>(4)"), HasSubstr("event id 4 out of range [0, 3]")));
}

TEST(KernelErrors, IllegalDataPath) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] {
    LocalTensor<half> l1(TPosition::A1, 0, 128);
    DataCopy(l1, ub_at<half>(0, 128), 128);
  });
  EXPECT_THAT(e, AllOf(HasSubstr("DataCopy UB->L1"), HasSubstr("not a legal data path")));
}

TEST(KernelErrors, DataCopyBlockCountOutOfRange) {
  auto& dev = make_device();
  auto* p = static_cast<float*>(GmAlloc(1 << 20));
  std::string e = kernel_error(dev, 1, [p] {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(p);
    DataCopy(ub_at<float>(0, 8), g, DataCopyParams(0, 1, 0, 0));
  });
  EXPECT_THAT(e, AllOf(HasSubstr("DataCopy"), HasSubstr("blockCount 0 out of range [1, 4095]")));
}

TEST(KernelErrors, DequeFromEmptyQueue) {
  auto& dev = make_device();
  std::string e = kernel_error(dev, 1, [] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    q.DeQue<half>();
  });
  EXPECT_THAT(e, AllOf(HasSubstr("TQue::DeQue"), HasSubstr("empty")));
}

TEST(KernelErrors, BlockDimOutOfRange) {
  auto& dev = make_device();
  EXPECT_THAT(kernel_error(dev, 0, [] {}), HasSubstr("blockDim 0 out of range"));
}

}  // namespace
