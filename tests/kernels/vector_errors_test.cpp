// Every limit of the vector unit (SPEC.md §1.6) is a clear error naming the block, the
// instruction and the simulated time. (Repeat 256, a misaligned operand, an operand beyond UB
// and a 32-bit continuous mask above 64 are in errors_test.cpp; Cast, Gather, Transpose,
// Compare and Select errors in vector_ops_test.cpp.)
#include <gtest/gtest.h>
#include <gmock/gmock.h>
#include "kernel_operator.h"
#include "models/aicore/ai_core.h"
#include "tests/support/device_fixture.h"
#include "tests/support/raw_tensors.h"

using namespace AscendC;
using npuvp::testing::IsKernelError;
using npuvp::testing::kernel_error;
using npuvp::testing::make_device;
using npuvp::testing::ub_at;

namespace vector_errors_test {

TEST(VectorErrors, ContinuousMaskOutOfRangeForHalf) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    auto a = ub_at<half>(0, 128);
    Add(a, a, a, 129, 1, BinaryRepeatParams());
  });
  EXPECT_THAT(e, IsKernelError("Add.f16", "continuous mask 129 out of range [1, 128] for f16"));
}

TEST(VectorErrors, ContinuousMaskZero) {
  auto& dev = make_device({}, "core910b");
  std::string e = kernel_error(dev, 1, [] {
    auto a = ub_at<int32_t>(0, 64);
    Duplicate(a, int32_t(1), uint64_t(0), 1, 1, 8);
  });
  EXPECT_THAT(e, IsKernelError("Duplicate.s32", "continuous mask 0 out of range [1, 64] for s32"));
}

TEST(VectorErrors, BitMaskHighWordSetFor32BitType) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    auto a = ub_at<float>(0, 64);
    const uint64_t mask[2] = {~0ull, 1};  // element 64 does not exist in a 64-element repeat
    Muls(a, a, 2.0f, mask, 1, UnaryRepeatParams());
  });
  EXPECT_THAT(e, IsKernelError("Muls.f32", "mask_hi must be 0 for f32 (mask high word is 0x1)"));
}

// The counter mask of a model instruction is bounded by its repeats (the API's count forms
// split long runs, so this is the instruction-level limit).
TEST(VectorErrors, CounterMaskAboveRepeatsThroughTheIsa) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    npuvp::aicore::VectorOp v;
    v.op = npuvp::aicore::VecOp::Abs;
    v.dtype = npuvp::aicore::DType::F16;
    v.counter_mode = true;
    v.mask_lo = 257;
    v.repeat = 2;
    npuvp::ascendc::core().issue(v);
  });
  EXPECT_THAT(e, IsKernelError("Abs.f16", "counter mask 257 exceeds repeat * elements per repeat (2 * 128 = 256)"));
}

TEST(VectorErrors, DtypeNotLegalForTheOp) {
  auto& dev = make_device({}, "core910");
  std::string e = kernel_error(dev, 1, [] {
    auto a = ub_at<int32_t>(0, 64);
    Exp(a, a, 64);
  });
  EXPECT_THAT(e, IsKernelError("Exp.s32", "Exp does not support s32"));
}
}  // namespace vector_errors_test
