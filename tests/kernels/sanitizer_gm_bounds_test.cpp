// The sanitizer's GM bounds are the sizes the host asked for (docs/sanitizer.md, "memory"): a
// whole-32 B DataCopy of a ragged tensor end reaches bytes the allocator padded the buffer
// with, which belong to no tensor, and is reported, read or write; DataCopyPad of exactly the
// tensor's bytes is silent. Functional mode, no file:line.
#include <gtest/gtest.h>
#include <gmock/gmock.h>
#include <cstring>
#include <functional>
#include <string>
#include <vector>
#include "kernel_operator.h"
#include "models/check/sanitizer.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tikicpulib.h"

using namespace AscendC;
using npuvp::check::Sanitizer;

namespace sanitizer_gm_bounds_test {

constexpr uint32_t kN = 100;        // floats the host asks for: 400 B, not whole 32 B blocks
constexpr uint32_t kBlocks = 104;   // the floats of the whole blocks a DataCopy moves: 416 B

void checked(const std::string& platform) {
  npuvp::testing::make_device({"check.race=true", "check.memory=true", "check.init=true", "check.sync=true",
                               "check.sites=false", "sim.mode=functional"},
                              platform);
}

// The error findings of the launch, as "kind: text" lines; forgotten afterwards, with the
// leak check run first, so the process exits 0.
std::vector<std::string> findings_of(const std::function<void()>& kernel) {
  npuvp::Device::instance().launch("bounds", 1, kernel);
  Sanitizer* s = Sanitizer::active();
  EXPECT_NE(s, nullptr);
  std::vector<std::string> out;
  if (!s) return out;
  for (const auto& f : s->findings()) {
    if (f.error) out.push_back(f.kind + ": " + f.text);
  }
  s->clear_findings();
  return out;
}

// Exactly v's bytes (to_gm would round the buffer up to whole 32 B blocks).
float* gm_copy(const std::vector<float>& v) {
  auto* p = static_cast<float*>(AscendC::GmAlloc(v.size() * 4));
  std::memcpy(p, v.data(), v.size() * 4);
  return p;
}

TEST(SanitizerGmBounds, WholeBlockReadPastTheRequestedSizeIsOutOfBounds) {
  checked("minimal");
  float* gx = gm_copy(npuvp::testing::random_vector<float>(kN, 1));
  float* gz = gm_copy(std::vector<float>(kBlocks, 0.0f));
  const auto found = findings_of([&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, kN);
    Z.SetGlobalBuffer(gz, kBlocks);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, kBlocks * 4);
    DataCopy(b.Get<float>(), X, kBlocks);  // 16 B past the 400 the host asked for
    PipeBarrier<PIPE_ALL>();
    DataCopy(Z, b.Get<float>(), kBlocks);
  });
  ASSERT_EQ(found.size(), 1u) << ::testing::PrintToString(found);
  EXPECT_THAT(found[0], ::testing::StartsWith("out-of-bounds: DataCopy"));
  EXPECT_THAT(found[0], ::testing::HasSubstr("reads GM"));
  EXPECT_THAT(found[0], ::testing::HasSubstr("GmAlloc of 400 bytes"));
}

TEST(SanitizerGmBounds, WholeBlockWritePastTheRequestedSizeIsOutOfBounds) {
  checked("minimal");
  float* gx = gm_copy(npuvp::testing::random_vector<float>(kBlocks, 2));
  float* gz = gm_copy(std::vector<float>(kN, 0.0f));
  const auto found = findings_of([&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, kBlocks);
    Z.SetGlobalBuffer(gz, kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, kBlocks * 4);
    DataCopy(b.Get<float>(), X, kBlocks);
    PipeBarrier<PIPE_ALL>();
    DataCopy(Z, b.Get<float>(), kBlocks);  // 16 B past the 400 the host asked for
  });
  ASSERT_EQ(found.size(), 1u) << ::testing::PrintToString(found);
  EXPECT_THAT(found[0], ::testing::StartsWith("out-of-bounds: DataCopy"));
  EXPECT_THAT(found[0], ::testing::HasSubstr("writes GM"));
}

// The same ragged tensor moved with DataCopyPad (A2): exactly its bytes, silent, and right.
TEST(SanitizerGmBounds, DataCopyPadOfTheRequestedBytesIsSilent) {
  checked("core910b");
  const auto x = npuvp::testing::random_vector<float>(kN, 3);
  float* gx = gm_copy(x);
  float* gz = gm_copy(std::vector<float>(kN, 0.0f));
  const auto found = findings_of([&] {
    GlobalTensor<float> X, Z;
    X.SetGlobalBuffer(gx, kN);
    Z.SetGlobalBuffer(gz, kN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, kBlocks * 4);
    DataCopyPad(b.Get<float>(), X, DataCopyExtParams(1, kN * 4, 0, 0, 0), DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
    PipeBarrier<PIPE_ALL>();
    DataCopyPad(Z, b.Get<float>(), DataCopyExtParams(1, kN * 4, 0, 0, 0));
  });
  EXPECT_TRUE(found.empty()) << ::testing::PrintToString(found);
  EXPECT_EQ(std::memcmp(gz, x.data(), kN * 4), 0);
}

}  // namespace sanitizer_gm_bounds_test
