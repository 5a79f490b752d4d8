// Every limit of the cube (SPEC.md §1.4) is a clear error naming the block, the instruction and
// the simulated time. The data-movement limits of the cube path are in move_errors_test.cpp.
#include <gtest/gtest.h>
#include <gmock/gmock.h>
#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tests/support/raw_tensors.h"
#include "tikicpulib.h"

using namespace AscendC;
using npuvp::testing::IsKernelError;
using npuvp::testing::kernel_error;
using npuvp::testing::local_at;
using npuvp::testing::make_device;

namespace cube_errors_test {

MmadParams dims(uint16_t m, uint16_t n, uint16_t k) {
  MmadParams p;
  p.m = m;
  p.n = n;
  p.k = k;
  return p;
}

// An f16 x f16 -> f32 Mmad with C at `c` and A at `a` (byte offsets).
std::string mmad_error(const std::string& platform, MmadParams p, uint64_t a = 0, uint64_t c = 0) {
  auto& dev = make_device({}, platform);
  return kernel_error(dev, 1, [=] {
    Mmad(local_at<float>(TPosition::CO1, c, 256), local_at<half>(TPosition::A2, a, 256), local_at<half>(TPosition::B2, 0, 256), p);
  });
}

// ---- m, n, k in [0, 4095]
TEST(CubeErrors, MmadMOutOfRange) {
  EXPECT_THAT(mmad_error("core910b", dims(4096, 16, 16)), IsKernelError("Mmad.f32.f16xf16", "m 4096 out of range [0, 4095]"));
}
TEST(CubeErrors, MmadNOutOfRange) {
  EXPECT_THAT(mmad_error("core910", dims(16, 4096, 16)), IsKernelError("Mmad.f32.f16xf16", "n 4096 out of range [0, 4095]"));
}
TEST(CubeErrors, MmadKOutOfRange) {
  EXPECT_THAT(mmad_error("core910b", dims(16, 16, 4096)), IsKernelError("Mmad.f32.f16xf16", "k 4096 out of range [0, 4095]"));
}

// ---- operands inside their buffers and aligned
TEST(CubeErrors, MmadOperandBeyondL0A) {
  // 8 x 32 fractals = 128 KiB of A in a 64 KiB L0A
  EXPECT_THAT(mmad_error("core910b", dims(128, 16, 512)),
              IsKernelError("Mmad.f32.f16xf16", "A range [0x0, 0x20000) exceeds L0A size 0x10000"));
}
TEST(CubeErrors, MmadOperandBeyondL0C) {
  // 16 x 16 fractals of f32 = 256 KiB of C from 64 KiB on: past the 256 KiB of a 910's L0C
  EXPECT_THAT(mmad_error("core910", dims(256, 256, 16), 0, 64 * 1024),
              IsKernelError("Mmad.f32.f16xf16", "C range [0x10000, 0x50000) exceeds L0C size 0x40000"));
}
TEST(CubeErrors, MmadMisalignedL0A) {
  EXPECT_THAT(mmad_error("core910b", dims(16, 16, 16), 256), IsKernelError("Mmad.f32.f16xf16", "A address 0x100 not 512 B aligned"));
}
TEST(CubeErrors, MmadMisalignedL0C) {
  EXPECT_THAT(mmad_error("core910", dims(16, 16, 16), 0, 32), IsKernelError("Mmad.f32.f16xf16", "C address 0x20 not 64 B aligned"));
}

// A tensor of another position would alias an unrelated address of L0A/L0B/L0C.
TEST(CubeErrors, MmadOperandNotInL0A) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    Mmad(local_at<float>(TPosition::CO1, 0, 256), local_at<half>(TPosition::VECCALC, 0, 256), local_at<half>(TPosition::B2, 0, 256),
         dims(16, 16, 16));
  });
  EXPECT_THAT(e, IsKernelError("Mmad.f32.f16xf16", "A is in UB, but this instruction takes it from L0A"));
}
// The error of a 16 x 16 f32 Fixpipe from a tensor at `src` to GM on `platform`.
std::string fixpipe_16x16_error(const char* platform, TPosition src) {
  auto& dev = make_device({}, platform);
  auto* g = static_cast<float*>(GmAlloc(1024));
  return kernel_error(dev, 1, [g, src] {
    GlobalTensor<float> out;
    out.SetGlobalBuffer(g);
    FixpipeParamsV220 p;
    p.mSize = p.nSize = 16;
    p.srcStride = 16;
    p.dstStride = 16;
    Fixpipe(out, local_at<float>(src, 0, 256), p);
  });
}
TEST(CubeErrors, FixpipeSourceNotInL0C) {
  EXPECT_THAT(fixpipe_16x16_error("core910b", TPosition::VECOUT),
              IsKernelError("Fixpipe.f32->f32", "src is in UB, but this instruction takes it from L0C"));
}

// ---- type pairs, and the ones a product lacks
TEST(CubeErrors, F32MmadNotOnTraining910) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    Mmad(local_at<float>(TPosition::CO1, 0, 256), local_at<float>(TPosition::A2, 0, 128), local_at<float>(TPosition::B2, 0, 128),
         dims(16, 16, 16));
  });
  EXPECT_THAT(e, IsKernelError("Mmad.f32.f32xf32", "Mmad f32 x f32 -> f32 is not supported on this product"));
}
TEST(CubeErrors, Bf16MmadNotOnTraining910) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    Mmad(local_at<float>(TPosition::CO1, 0, 256), local_at<bfloat16_t>(TPosition::A2, 0, 256),
         local_at<bfloat16_t>(TPosition::B2, 0, 256), dims(16, 16, 16));
  });
  EXPECT_THAT(e, IsKernelError("Mmad.f32.bf16xbf16", "Mmad bf16 x bf16 -> f32 is not supported on this product"));
}
TEST(CubeErrors, F16OutputMmadNotOnA2) {
  auto& dev = make_device({}, "core910b");
  std::string e = kernel_error(dev, 1, [] {
    Mmad(local_at<half>(TPosition::CO1, 0, 256), local_at<half>(TPosition::A2, 0, 256), local_at<half>(TPosition::B2, 0, 256),
         dims(16, 16, 16));
  });
  EXPECT_THAT(e, IsKernelError("Mmad.f16.f16xf16", "Mmad f16 x f16 -> f16 is not supported on this product"));
}
TEST(CubeErrors, MmadU8TimesU8IsNotATypePair) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    Mmad(local_at<int32_t>(TPosition::CO1, 0, 256), local_at<uint8_t>(TPosition::A2, 0, 512), local_at<uint8_t>(TPosition::B2, 0, 512),
         dims(16, 16, 32));
  });
  EXPECT_THAT(e, IsKernelError("Mmad.s32.u8xu8", "type pair u8 x u8 -> s32 is not supported"));
}

// ---- units a product lacks
TEST(CubeErrors, FixpipeDoesNotExistOn910) {
  EXPECT_THAT(fixpipe_16x16_error("core910", TPosition::CO1),
              IsKernelError("Fixpipe", "pipe FIX does not exist on this ascend910 core"));
}
TEST(CubeErrors, BiasWithoutBiasTableOn910) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    Mmad(local_at<float>(TPosition::CO1, 0, 256), local_at<half>(TPosition::A2, 0, 256), local_at<half>(TPosition::B2, 0, 256),
         local_at<float>(TPosition::C2, 0, 16), dims(16, 16, 16));
  });
  EXPECT_THAT(e, IsKernelError("Mmad.f32.f16xf16", "this product has no BiasTable (cmatrixSource needs BT)"));
}
}  // namespace cube_errors_test
