// Every limit of the cube path (SPEC.md §1.4-1.5) is a clear error naming the block, the
// instruction and the simulated time.
#include <gtest/gtest.h>
#include <gmock/gmock.h>
#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tikicpulib.h"

using namespace AscendC;
using ::testing::AllOf;
using ::testing::HasSubstr;
using npuvp::testing::kernel_error;
using npuvp::testing::make_device;

namespace {
template <class T>
LocalTensor<T> at(TPosition pos, uint64_t offset, uint32_t n) { return LocalTensor<T>(pos, offset, n); }

std::string mmad_error(const std::string& platform, MmadParams p, uint64_t a = 0, uint64_t c = 0) {
  auto& dev = make_device({}, platform);
  return kernel_error(dev, 1, [=] {
    Mmad(at<float>(TPosition::CO1, c, 256), at<half>(TPosition::A2, a, 256), at<half>(TPosition::B2, 0, 256), p);
  });
}

TEST(CubeErrors, MmadKOutOfRange) {
  MmadParams p;
  p.m = 16;
  p.n = 16;
  p.k = 4096;
  EXPECT_THAT(mmad_error("core910b", p), AllOf(HasSubstr("soc.core0 @ "), HasSubstr("Mmad.f32"), HasSubstr("k 4096 out of range [0, 4095]")));
}

TEST(CubeErrors, MmadOperandBeyondL0A) {
  MmadParams p;
  p.m = 128;
  p.n = 16;
  p.k = 512;  // 8 x 32 fractals = 128 KiB of A in a 64 KiB L0A
  EXPECT_THAT(mmad_error("core910b", p), AllOf(HasSubstr("Mmad"), HasSubstr("L0A")));
}

TEST(CubeErrors, MmadMisalignedL0A) {
  MmadParams p;
  p.m = p.n = p.k = 16;
  EXPECT_THAT(mmad_error("core910b", p, 256), AllOf(HasSubstr("Mmad"), HasSubstr("512")));
}

TEST(CubeErrors, F32MmadNotOnTraining910) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    MmadParams p;
    p.m = p.n = p.k = 16;
    Mmad(at<float>(TPosition::CO1, 0, 256), at<float>(TPosition::A2, 0, 128), at<float>(TPosition::B2, 0, 128), p);
  });
  EXPECT_THAT(e, AllOf(HasSubstr("Mmad"), HasSubstr("not supported")));
}

TEST(CubeErrors, FixpipeDoesNotExistOn910) {
  auto& dev = make_device({}, "core910");
  auto* g = static_cast<float*>(GmAlloc(1024));
  std::string e = kernel_error(dev, 1, [g] {
    GlobalTensor<float> out;
    out.SetGlobalBuffer(g);
    FixpipeParamsV220 p;
    p.mSize = p.nSize = 16;
    p.srcStride = 16;
    p.dstStride = 16;
    Fixpipe(out, at<float>(TPosition::CO1, 0, 256), p);
  });
  EXPECT_THAT(e, AllOf(HasSubstr("Fixpipe"), HasSubstr("pipe FIX does not exist on this ascend910 core")));
}

TEST(CubeErrors, Nd2NzNotOnTraining910) {
  auto& dev = make_device({}, "core910");
  auto* g = static_cast<half*>(GmAlloc(1024));
  std::string e = kernel_error(dev, 1, [g] {
    GlobalTensor<half> in;
    in.SetGlobalBuffer(g);
    DataCopy(at<half>(TPosition::A1, 0, 256), in, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
  });
  EXPECT_THAT(e, AllOf(HasSubstr("Nd2Nz GM->L1"), HasSubstr("not a legal data path on ascend910")));
}

TEST(CubeErrors, LoadData2DRepeatZero) {
  auto& dev = make_device({}, "core910b");
  std::string e = kernel_error(dev, 1, [] {
    LoadData(at<half>(TPosition::A2, 0, 256), at<half>(TPosition::A1, 0, 256), LoadData2DParams(0, 0, 1, 0, 0, false, 0));
  });
  EXPECT_THAT(e, AllOf(HasSubstr("LoadData2D"), HasSubstr("repeat")));
}

TEST(CubeErrors, LoadData2DIllegalPathL0AToL0B) {
  auto& dev = make_device({}, "core910b");
  std::string e = kernel_error(dev, 1, [] {
    LoadData(at<half>(TPosition::B2, 0, 256), at<half>(TPosition::A2, 0, 256), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  });
  EXPECT_THAT(e, AllOf(HasSubstr("LoadData2D L0A->L0B"), HasSubstr("not a legal data path")));
}

TEST(CubeErrors, L1OverflowInInitBuffer) {
  auto& dev = make_device({}, "core910b");
  std::string e = kernel_error(dev, 1, [] {
    TPipe pipe;
    TQue<TPosition::A1, 2> q;
    pipe.InitBuffer(q, 2, 300 * 1024);  // 600 KiB > 512 KiB
  });
  EXPECT_THAT(e, AllOf(HasSubstr("InitBuffer"), HasSubstr("L1 overflow")));
}

TEST(CubeErrors, BiasWithoutBiasTableOn910) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    MmadParams p;
    p.m = p.n = p.k = 16;
    Mmad(at<float>(TPosition::CO1, 0, 256), at<half>(TPosition::A2, 0, 256), at<half>(TPosition::B2, 0, 256),
         at<float>(TPosition::C2, 0, 16), p);
  });
  EXPECT_THAT(e, AllOf(HasSubstr("Mmad"), HasSubstr("BiasTable")));
}
}  // namespace
