// A mixed kernel (KERNEL_TYPE_MIX_AIC_1_2) runs one body on the AIC and its AIVs; CANN's
// MatmulLeakyRelu sample sets up its vector queues before REGIST_MATMUL_OBJ sends the AIC
// off, so InitBuffer of a position the core lacks is accepted there (no memory given), while
// an instruction using that buffer on that core is still an error. Single-kind kernels keep
// the InitBuffer error (separated_soc_test.cpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tikicpulib.h"

namespace mixed_kernel_buffers_test {
using namespace AscendC;
using npuvp::aicore::KernelType;

npuvp::LaunchOptions mixed() {
  npuvp::LaunchOptions o;
  o.kernel_type = KernelType::Mix1To2;
  return o;
}

TEST(MixedKernelBuffers, VectorQueueOnTheAicIsAccepted) {
  auto& dev = npuvp::testing::make_device({"platform.cores=1"}, "ascend910b");
  int set_up = 0;
  EXPECT_NO_THROW(dev.launch("mixed_setup", 1, [&] {
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> out;
    TQue<TPosition::A1, 1> a1;
    pipe.InitBuffer(out, 1, 4096);  // UB: the AIVs', not the AIC's
    pipe.InitBuffer(a1, 1, 4096);   // L1: the AIC's, not the AIVs'
    ++set_up;
  }, mixed()));
  EXPECT_EQ(set_up, 3);  // the AIC and both AIVs ran the body
}

TEST(MixedKernelBuffers, UsingItOnTheAicIsAnError) {
  auto& dev = npuvp::testing::make_device({"platform.cores=1"}, "ascend910b");
  auto* x = static_cast<float*>(AscendC::GmAlloc(4096));
  std::string err;
  try {
    dev.launch("mixed_misuse", 1, [&] {
      TPipe pipe;
      TQue<TPosition::VECIN, 1> in;
      pipe.InitBuffer(in, 1, 4096);
      if ASCEND_IS_AIC {
        GlobalTensor<float> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), 1024);
        LocalTensor<float> t = in.AllocTensor<float>();
        DataCopy(t, g, 1024);
      }
    }, mixed());
  } catch (const std::exception& e) {
    err = npuvp::error_text(e);
  }
  EXPECT_THAT(err, ::testing::HasSubstr("aic0"));
  EXPECT_THAT(err, ::testing::HasSubstr("DataCopy"));
}

}  // namespace mixed_kernel_buffers_test
