// Layernorm, bit for bit against a reference of the model's contract: single IEEE f32
// operations for Adds/Mul/Muls/Add, the count-form ReduceSum order (tests/support), and the
// scalar unit's float arithmetic for mean and 1 / sqrt(var + eps).
#include <gtest/gtest.h>
#include <cmath>
#include "sw/kernels/layernorm.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/reduce_reference.h"

namespace layernorm_test {
using npuvp::testing::reduce_sum_count_form;

std::vector<float> layernorm_reference(const std::vector<float>& x, const std::vector<float>& gamma,
                                       const std::vector<float>& beta, uint32_t rows, uint32_t cols, float eps) {
  std::vector<float> y(x.size()), c(cols), sq(cols);
  const float inv_n = 1.0f / float(cols);
  for (uint32_t r = 0; r < rows; ++r) {
    const float* in = &x[size_t(r) * cols];
    volatile float mean_v = reduce_sum_count_form(in, cols) * inv_n;
    const float mean = mean_v;
    for (uint32_t j = 0; j < cols; ++j) {
      volatile float d = in[j] + (-mean);
      c[j] = d;
      volatile float s = c[j] * c[j];
      sq[j] = s;
    }
    volatile float var_v = reduce_sum_count_form(sq.data(), cols) * inv_n;
    const float var = var_v;
    volatile float denom = std::sqrt(var + eps);
    const float rstd = 1.0f / denom;
    for (uint32_t j = 0; j < cols; ++j) {
      volatile float a = c[j] * rstd;
      volatile float b = a * gamma[j];
      volatile float o = b + beta[j];
      y[size_t(r) * cols + j] = o;
    }
  }
  return y;
}

void check_layernorm(const std::string& platform, uint32_t blocks, uint32_t rows, uint32_t cols) {
  auto& dev = npuvp::testing::make_device({}, platform);
  auto x = npuvp::testing::random_vector<float>(size_t(rows) * cols, 21, -4, 4);
  auto gamma = npuvp::testing::random_vector<float>(cols, 22, 0.5, 1.5);
  auto beta = npuvp::testing::random_vector<float>(cols, 23, -1, 1);
  float *gx = npuvp::testing::to_gm(x), *gg = npuvp::testing::to_gm(gamma), *gbeta = npuvp::testing::to_gm(beta);
  auto* gy = static_cast<float*>(AscendC::GmAlloc(x.size() * 4));
  const float eps = 1e-5f;
  dev.launch("layernorm", blocks, [&] {
    npuvp::kernels::layernorm_rows(reinterpret_cast<GM_ADDR>(gx), reinterpret_cast<GM_ADDR>(gg),
                                   reinterpret_cast<GM_ADDR>(gbeta), reinterpret_cast<GM_ADDR>(gy), rows, cols, eps);
  });
  const auto want = layernorm_reference(x, gamma, beta, rows, cols, eps);
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_TRUE(npuvp::testing::same_bits(gy[i], want[i]))
        << "row " << i / cols << " col " << i % cols << ": " << gy[i] << " vs " << want[i];
  }
}

TEST(Layernorm, Coupled910_8Cores_16x768) { check_layernorm("minimal", 8, 16, 768); }
TEST(Layernorm, Coupled910_OddRows_5x40) { check_layernorm("minimal", 2, 5, 40); }
TEST(Layernorm, A2Core_3x1000) { check_layernorm("core910b", 1, 3, 1000); }
}  // namespace layernorm_test
