// Every limit of data movement (SPEC.md §1.2 alignment, §1.5) is a clear error naming the
// block, the instruction and the simulated time: DataCopy, Nd2Nz, LoadData 2D/3D, Fixpipe.
// Limits the Ascend C parameter structs cannot even express (their fields are 8 or 16 bits
// wide) are issued as model instructions, whose fields are 32 bits wide.
#include <gtest/gtest.h>
#include <gmock/gmock.h>
#include "kernel_operator.h"
#include "models/aicore/ai_core.h"
#include "tests/support/device_fixture.h"
#include "tests/support/raw_tensors.h"
#include "tikicpulib.h"

using namespace AscendC;
using npuvp::testing::IsKernelError;
using npuvp::testing::kernel_error;
using npuvp::testing::local_at;
using npuvp::testing::make_device;
namespace isa = npuvp::aicore;

namespace move_errors_test {

template <class T>
GlobalTensor<T> gm(void* p) {
  GlobalTensor<T> g;
  g.SetGlobalBuffer(static_cast<T*>(p));
  return g;
}

// Issues a model instruction from the kernel, as the API does after filling it in.
void issue(isa::Instruction instr) { npuvp::ascendc::core().issue(std::move(instr)); }

// ---- DataCopy: count, blockCount, blockLen
TEST(MoveErrors, DataCopyCountBelowOneBlock) {
  auto& dev = make_device({}, "core910");
  void* p = GmAlloc(1024);
  std::string e = kernel_error(dev, 1, [p] { DataCopy(local_at<float>(TPosition::VECIN, 0, 8), gm<float>(p), 7); });
  EXPECT_THAT(e, IsKernelError("DataCopy UB:0x0 <- GM:", "count 7 x 4 B is less than one 32 B block"));
}
TEST(MoveErrors, DataCopyBlockCount4096) {
  auto& dev = make_device({}, "core910");
  void* p = GmAlloc(1 << 20);
  std::string e = kernel_error(dev, 1, [p] { DataCopy(local_at<float>(TPosition::VECIN, 0, 8), gm<float>(p), DataCopyParams(4096, 1, 0, 0)); });
  EXPECT_THAT(e, IsKernelError("DataCopy UB:0x0 <- GM:", "blockCount 4096 out of range [1, 4095]"));
}
TEST(MoveErrors, DataCopyBlockLenZero) {
  auto& dev = make_device({}, "core910");
  void* p = GmAlloc(1024);
  std::string e = kernel_error(dev, 1, [p] { DataCopy(gm<half>(p), local_at<half>(TPosition::VECOUT, 0, 16), DataCopyParams(1, 0, 0, 0)); });
  EXPECT_THAT(e, IsKernelError("DataCopy GM:", "blockLen 0 out of range [1, 65535]"));
}
TEST(MoveErrors, DataCopyBlockLen65536ThroughTheIsa) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    isa::DataMove m;
    m.pipe = isa::Pipe::V;
    m.dst = {isa::MemSpace::UB, 0};
    m.src = {isa::MemSpace::UB, 0};
    m.block_len = 65536;
    issue(m);
  });
  EXPECT_THAT(e, IsKernelError("DataCopy UB:0x0 <- UB:0x0", "blockLen 65536 out of range [1, 65535]"));
}

// ---- GM and local addresses
TEST(MoveErrors, DataCopyGmAddressNotAlignedToTheElement) {
  auto& dev = make_device({}, "core910");
  auto* p = static_cast<uint8_t*>(GmAlloc(1024));
  std::string e = kernel_error(dev, 1, [p] { DataCopy(local_at<float>(TPosition::VECIN, 0, 64), gm<float>(p + 2), 64); });
  EXPECT_THAT(e, IsKernelError("DataCopy UB:0x0 <- GM:", "src GM address 0x"));
  EXPECT_THAT(e, ::testing::HasSubstr("is not aligned to the element size 4 B"));
}
TEST(MoveErrors, DataCopyUbAddressNot32BAligned) {
  auto& dev = make_device({}, "core910");
  void* p = GmAlloc(1024);
  std::string e = kernel_error(dev, 1, [p] { DataCopy(local_at<half>(TPosition::VECIN, 16, 64), gm<half>(p), 64); });
  EXPECT_THAT(e, IsKernelError("DataCopy UB:0x10 <- GM:", "dst address UB:0x10 is not 32 B aligned"));
}
TEST(MoveErrors, DataCopyL1AddressNot32BAligned) {
  auto& dev = make_device({}, "core910");
  void* p = GmAlloc(1024);
  std::string e = kernel_error(dev, 1, [p] { DataCopy(local_at<half>(TPosition::B1, 48, 64), gm<half>(p), 64); });
  EXPECT_THAT(e, IsKernelError("DataCopy L1:0x30 <- GM:", "dst address L1:0x30 is not 32 B aligned"));
}
TEST(MoveErrors, DataCopyIntoFixpipeBufferNot128BAligned) {
  auto& dev = make_device({}, "core910b");
  std::string e = kernel_error(dev, 1, [] {
    DataCopy(local_at<uint64_t>(TPosition::C2PIPE2GM, 64, 16), local_at<uint64_t>(TPosition::C1, 0, 16), DataCopyParams(1, 1, 0, 0));
  });
  EXPECT_THAT(e, IsKernelError("DataCopy FB:0x40 <- L1:0x0", "dst address FB:0x40 is not 128 B aligned"));
}
TEST(MoveErrors, DataCopyBeyondL1) {
  auto& dev = make_device({}, "core910");
  void* p = GmAlloc(64 * 1024);
  std::string e = kernel_error(dev, 1, [p] {
    DataCopy(local_at<half>(TPosition::A1, 1024 * 1024 - 512, 16384), gm<half>(p), 16384);  // 32 KiB from 512 B before the end
  });
  EXPECT_THAT(e, IsKernelError("DataCopy L1:0xffe00 <- GM:", "dst range [0xffe00, 0x107e00) exceeds L1 size 0x100000"));
}
TEST(MoveErrors, DataCopyIntoBiasTableNot64BAligned) {
  auto& dev = make_device({}, "core910b");
  std::string e = kernel_error(dev, 1, [] {
    DataCopy(local_at<float>(TPosition::C2, 32, 16), local_at<half>(TPosition::C1, 0, 16), DataCopyParams(1, 1, 0, 0));
  });
  EXPECT_THAT(e, IsKernelError("DataCopy BT:0x20 <- L1:0x0", "dst address BT:0x20 is not 64 B aligned"));
}
TEST(MoveErrors, L1OverflowInInitBuffer) {
  auto& dev = make_device({}, "core910b");
  std::string e = kernel_error(dev, 1, [] {
    TPipe pipe;
    TQue<TPosition::A1, 2> q;
    pipe.InitBuffer(q, 2, 300 * 1024);  // 600 KiB > 512 KiB
  });
  EXPECT_THAT(e, IsKernelError("TPipe::InitBuffer", "L1 overflow: 614400 bytes requested at offset 0, but L1 holds 524288"));
}

// ---- paths and conversions a product lacks
TEST(MoveErrors, Nd2NzNotOnTraining910) {
  auto& dev = make_device({}, "core910");
  void* g = GmAlloc(1024);
  std::string e = kernel_error(dev, 1, [g] {
    DataCopy(local_at<half>(TPosition::A1, 0, 256), gm<half>(g), Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
  });
  EXPECT_THAT(e, IsKernelError("DataCopy.Nd2Nz GM->L1", "not a legal data path on ascend910"));
}
TEST(MoveErrors, L1ToGmNotOnTraining910) {
  auto& dev = make_device({}, "core910");
  void* g = GmAlloc(1024);
  std::string e = kernel_error(dev, 1, [g] { DataCopy(gm<half>(g), local_at<half>(TPosition::A1, 0, 256), 256); });
  EXPECT_THAT(e, IsKernelError("DataCopy L1->GM", "not a legal data path on ascend910"));
}
TEST(MoveErrors, MatrixModeCopyCannotConvertS32ToF16) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    DataCopyEnhancedParams matrix;
    matrix.blockMode = BlockMode::BLOCK_MODE_MATRIX;
    DataCopy(local_at<half>(TPosition::CO2, 0, 256), local_at<int32_t>(TPosition::CO1, 0, 256), DataCopyParams(1, 1, 0, 0), matrix);
  });
  EXPECT_THAT(e, IsKernelError("DataCopy UB:0x0 <- L0C:0x0", "DataCopy L0C->UB cannot convert s32 to f16"));
}

// ---- Nd2Nz limits
TEST(MoveErrors, Nd2NzNdNumOutOfRange) {
  auto& dev = make_device({}, "core910b");
  void* g = GmAlloc(1024);
  std::string e = kernel_error(dev, 1, [g] {
    DataCopy(local_at<half>(TPosition::A1, 0, 256), gm<half>(g), Nd2NzParams(4096, 16, 16, 256, 16, 16, 1, 256));
  });
  EXPECT_THAT(e, IsKernelError("DataCopy.Nd2Nz.f16 L1:0x0 <- GM:", "nd_num = 4096 is outside [0, 4095]"));
}
TEST(MoveErrors, Nd2NzNValueOutOfRange) {
  auto& dev = make_device({}, "core910b");
  void* g = GmAlloc(1024);
  std::string e = kernel_error(dev, 1, [g] {
    DataCopy(local_at<half>(TPosition::A1, 0, 256), gm<half>(g), Nd2NzParams(1, 16385, 16, 0, 16, 16400, 1, 0));
  });
  EXPECT_THAT(e, IsKernelError("DataCopy.Nd2Nz.f16 L1:0x0 <- GM:", "n_value = 16385 is outside [0, 16384]"));
}
TEST(MoveErrors, Nd2NzDValueOutOfRangeThroughTheIsa) {
  auto& dev = make_device({}, "core910b");
  void* g = GmAlloc(1024);
  std::string e = kernel_error(dev, 1, [g] {
    isa::Nd2Nz op;
    op.dst = {isa::MemSpace::L1, 0};
    op.src = {isa::MemSpace::GM, npuvp::ascendc::gm_device_address(g)};
    op.n_value = 1;
    op.d_value = 65536;
    op.src_d_value = 65536;
    op.dst_nz_c0_stride = 16;
    op.dst_nz_n_stride = 1;
    issue(op);
  });
  EXPECT_THAT(e, IsKernelError("DataCopy.Nd2Nz.f16 L1:0x0 <- GM:", "d_value = 65536 is outside [0, 65535]"));
}

// ---- LoadData 2D / 3D
TEST(MoveErrors, LoadData2DRepeatZero) {
  auto& dev = make_device({}, "core910b");
  std::string e = kernel_error(dev, 1, [] {
    LoadData(local_at<half>(TPosition::A2, 0, 256), local_at<half>(TPosition::A1, 0, 256), LoadData2DParams(0, 0, 1, 0, 0, false, 0));
  });
  EXPECT_THAT(e, IsKernelError("LoadData2D.f16 L0A:0x0 <- L1:0x0", "repeat = 0 is outside [1, 255]"));
}
TEST(MoveErrors, LoadData2DRepeat256ThroughTheIsa) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    isa::LoadData2D op;
    op.dst = {isa::MemSpace::L0A, 0};
    op.src = {isa::MemSpace::L1, 0};
    op.repeat = 256;
    op.src_stride = 1;
    issue(op);
  });
  EXPECT_THAT(e, IsKernelError("LoadData2D.f16 L0A:0x0 <- L1:0x0", "repeat = 256 is outside [1, 255]"));
}
TEST(MoveErrors, LoadData2DTransposeOfInt8) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    LoadData(local_at<int8_t>(TPosition::B2, 0, 512), local_at<int8_t>(TPosition::B1, 0, 512), LoadData2DParams(0, 1, 1, 0, 0, true, 0));
  });
  EXPECT_THAT(e, IsKernelError("LoadData2D.s8 L0B:0x0 <- L1:0x0", "ifTranspose needs a 16-bit type, got s8"));
}
TEST(MoveErrors, LoadData2DMisalignedL0B) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    LoadData(local_at<half>(TPosition::B2, 256, 256), local_at<half>(TPosition::B1, 0, 256), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  });
  EXPECT_THAT(e, IsKernelError("LoadData2D.f16 L0B:0x100 <- L1:0x0", "dst address L0B:0x100 is not 512 B aligned"));
}
TEST(MoveErrors, LoadData2DBeyondL0A) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    // 200 fractals = 100 KiB into a 64 KiB L0A
    LoadData(local_at<half>(TPosition::A2, 0, 256), local_at<half>(TPosition::A1, 0, 256), LoadData2DParams(0, 200, 1, 0, 0, false, 0));
  });
  EXPECT_THAT(e, IsKernelError("LoadData2D.f16 L0A:0x0 <- L1:0x0", "dst range [0x0, 0x19000) exceeds L0A size 0x10000"));
}
TEST(MoveErrors, LoadData2DIllegalPathL0AToL0B) {
  auto& dev = make_device({}, "core910b");
  std::string e = kernel_error(dev, 1, [] {
    LoadData(local_at<half>(TPosition::B2, 0, 256), local_at<half>(TPosition::A2, 0, 256), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  });
  EXPECT_THAT(e, IsKernelError("LoadData2D L0A->L0B", "not a legal data path on ascend910b"));
}
TEST(MoveErrors, LoadData3DMExtensionNotAMultipleOf16) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    LoadData3DParamsV2<half> p;
    p.l1H = p.l1W = 8;
    p.channelSize = 16;
    p.mExtension = 24;
    LoadData(local_at<half>(TPosition::A2, 0, 512), local_at<half>(TPosition::A1, 0, 1024), p);
  });
  EXPECT_THAT(e, IsKernelError("LoadData3D.f16 L0A:0x0 <- L1:0x0", "m_extent = 24 must be a positive multiple of 16"));
}

// ---- Fixpipe (A2)
TEST(MoveErrors, FixpipeMSizeZero) {
  auto& dev = make_device({}, "core910b");
  void* g = GmAlloc(1024);
  std::string e = kernel_error(dev, 1, [g] {
    FixpipeParamsV220 p;
    p.mSize = 0;
    p.nSize = 16;
    p.srcStride = 16;
    p.dstStride = 16;
    Fixpipe(gm<float>(g), local_at<float>(TPosition::CO1, 0, 256), p);
  });
  EXPECT_THAT(e, IsKernelError("Fixpipe.f32->f32 GM:", "m_size = 0 is outside [1, 4095]"));
}
}  // namespace move_errors_test
