// Row softmax, bit for bit against a plain reference of the model's numeric contract:
// Adds/Muls are single IEEE f32 operations, Exp is libm expf, ReduceMax is exact, and the
// count-form ReduceSum adds a tree of adjacent pairs per 64-element repeat (the last repeat
// padded with -0), then the repeat sums in order (docs/vector-isa.md §3.4).
#include <gtest/gtest.h>
#include <cmath>
#include "sw/kernels/softmax.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/reduce_reference.h"

namespace softmax_test {

std::vector<float> softmax_reference(const std::vector<float>& x, uint32_t rows, uint32_t cols) {
  std::vector<float> y(x.size());
  for (uint32_t r = 0; r < rows; ++r) {
    const float* in = &x[size_t(r) * cols];
    float* out = &y[size_t(r) * cols];
    float mx = in[0];
    for (uint32_t j = 1; j < cols; ++j) mx = std::max(mx, in[j]);
    for (uint32_t j = 0; j < cols; ++j) {
      volatile float d = in[j] + (-mx);
      out[j] = std::exp(float(d));
    }
    const float sum = npuvp::testing::reduce_sum_count_form(out, cols);
    const float scale = 1.0f / sum;
    for (uint32_t j = 0; j < cols; ++j) {
      volatile float p = out[j] * scale;
      out[j] = p;
    }
  }
  return y;
}

void check_softmax(const std::string& platform, uint32_t blocks, uint32_t rows, uint32_t cols) {
  auto& dev = npuvp::testing::make_device({}, platform);
  auto x = npuvp::testing::random_vector<float>(size_t(rows) * cols, 5, -10, 10);
  float* gx = npuvp::testing::to_gm(x);
  auto* gy = static_cast<float*>(AscendC::GmAlloc(x.size() * 4));
  dev.launch("softmax", blocks, [&] {
    npuvp::kernels::softmax_rows(reinterpret_cast<GM_ADDR>(gx), reinterpret_cast<GM_ADDR>(gy), rows, cols);
  });
  const auto want = softmax_reference(x, rows, cols);
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_TRUE(npuvp::testing::same_bits(gy[i], want[i]))
        << "row " << i / cols << " col " << i % cols << ": " << gy[i] << " vs " << want[i];
  }
}

TEST(Softmax, Coupled910_8Cores_16x1024) { check_softmax("minimal", 8, 16, 1024); }
TEST(Softmax, Coupled910_OddRows_7x72) { check_softmax("minimal", 3, 7, 72); }
TEST(Softmax, A2Core_5x200) { check_softmax("core910b", 1, 5, 200); }
TEST(Softmax, A2Core_1x8) { check_softmax("core910b", 1, 1, 8); }
}  // namespace softmax_test
