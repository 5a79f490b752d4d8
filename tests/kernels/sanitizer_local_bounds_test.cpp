// The sanitizer's local out-of-bounds check against the tensor's own buffer: each buffer of a
// queue (TPipe::InitBuffer(que, num, len)) is its own region, so a LocalTensor of one buffer
// used past its length is reported even when the bytes past it are the queue's next buffer;
// a tensor kept inside its buffer is silent.
#include <gtest/gtest.h>
#include <string>
#include "kernel_operator.h"
#include "models/check/sanitizer.h"
#include "sw/runtime/device.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tikicpulib.h"

using namespace AscendC;
using npuvp::check::Sanitizer;

namespace sanitizer_local_bounds_test {

constexpr int kN = 256;  // floats per queue buffer

std::string texts(const Sanitizer& s) {
  std::string out;
  for (const auto& f : s.findings()) out += f.kind + ": " + f.text + "\n";
  return out;
}

void checked_device() {
  npuvp::testing::make_device({"check.race=true", "check.memory=true", "check.init=true", "check.sync=true"});
}

// Copies `count` floats from GM into the first buffer of a two-buffer queue of kN floats each.
void copy_into_first_buffer(float* gx, int count) {
  npuvp::Device::instance().launch("bounds", 1, [&] {
    GlobalTensor<float> X;
    X.SetGlobalBuffer(gx, 2 * kN);
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, kN * 4);
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, X, uint32_t(count));
    q.EnQue(t);
    t = q.DeQue<float>();
    q.FreeTensor(t);
  });
}

TEST(SanitizerLocalBounds, TensorPastItsQueueBufferIntoTheNext) {
  checked_device();
  float* gx = npuvp::testing::to_gm(npuvp::testing::random_vector<float>(2 * kN, 5));
  copy_into_first_buffer(gx, 2 * kN);  // both buffers' bytes: inside the TPipe, past the tensor's buffer
  Sanitizer* s = Sanitizer::active();
  ASSERT_NE(s, nullptr);
  size_t oob = 0;
  for (const auto& f : s->findings()) oob += f.kind == "out-of-bounds" && f.text.find("UB") != std::string::npos;
  EXPECT_EQ(oob, 1u) << texts(*s);
  s->clear_findings();
  GmFree(gx);
}

TEST(SanitizerLocalBounds, TensorInsideItsQueueBufferSilent) {
  checked_device();
  float* gx = npuvp::testing::to_gm(npuvp::testing::random_vector<float>(2 * kN, 5));
  copy_into_first_buffer(gx, kN);
  Sanitizer* s = Sanitizer::active();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->findings().size(), 0u) << texts(*s);
  GmFree(gx);
  EXPECT_EQ(s->finish(), 0);
}

}  // namespace sanitizer_local_bounds_test
