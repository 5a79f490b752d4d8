// Plain C++ references of conv2d's numeric contract: the img2col matrix (zeros for padding and
// for channels >= c) times the fractal-ready weights, with SPEC.md §1.4's accumulation (exact
// f16 products added in increasing k, one f32 rounding per addition), then the bias and ReLU.
// Where the bias enters is the one difference between the products: A2 starts the accumulator
// at it (BiasTable), a coupled 910 adds it to the finished sum (vector unit, one rounding).
// Used by the conv2d sample's host program and by the tests.
#pragma once
#include <cstdint>
#include <vector>
#include "sw/kernels/conv2d.h"

namespace npuvp::kernels {

enum class ConvBias { StartsTheSum, AddedToTheSum };

// Weights [cout][c][kh][kw] -> the fractal-ready format [cout][k()], column
// ((c1 * kh + i) * kw + j) * 16 + c0 holding W[co][c1 * 16 + c0][i][j], zero for channels >= c.
inline std::vector<_Float16> conv2d_format_weights(const std::vector<_Float16>& w, const Conv2dShape& s) {
  const uint32_t K = s.k();
  std::vector<_Float16> wf(size_t(s.cout) * K, _Float16(0));
  for (uint32_t co = 0; co < s.cout; ++co)
    for (uint32_t c = 0; c < s.c; ++c)
      for (uint32_t i = 0; i < s.kh; ++i)
        for (uint32_t j = 0; j < s.kw; ++j)
          wf[size_t(co) * K + ((c / 16 * s.kh + i) * s.kw + j) * 16 + c % 16] =
              w[((size_t(co) * s.c + c) * s.kh + i) * s.kw + j];
  return wf;
}

// y[p][co] for output position p = ho * out_w + wo; x is NCHW [c][h][w], wf the formatted
// weights, bias f32 [cout (or more)].
inline std::vector<float> conv2d_reference(const std::vector<_Float16>& x, const std::vector<_Float16>& wf,
                                           const std::vector<float>& bias, const Conv2dShape& s, bool relu,
                                           ConvBias bias_at) {
  const uint32_t K = s.k(), P = s.out_h() * s.out_w();
  std::vector<float> y(size_t(P) * s.cout);
  for (uint32_t p = 0; p < P; ++p) {
    const int ho = int(p / s.out_w()), wo = int(p % s.out_w());
    for (uint32_t co = 0; co < s.cout; ++co) {
      float acc = bias_at == ConvBias::StartsTheSum ? bias[co] : 0.0f;
      for (uint32_t q = 0; q < K; ++q) {
        const uint32_t c0 = q % 16, kw = q / 16 % s.kw, kh = q / 16 / s.kw % s.kh, c1 = q / 16 / s.kw / s.kh;
        const uint32_t c = c1 * 16 + c0;
        const int hin = ho * int(s.stride) - int(s.pad) + int(kh * s.dilation);
        const int win = wo * int(s.stride) - int(s.pad) + int(kw * s.dilation);
        const bool inside = c < s.c && hin >= 0 && hin < int(s.h) && win >= 0 && win < int(s.w);
        const float a = inside ? float(x[(size_t(c) * s.h + hin) * s.w + win]) : 0.0f;
        volatile float sum = acc + a * float(wf[size_t(co) * K + q]);  // the product is exact
        acc = sum;
      }
      if (bias_at == ConvBias::AddedToTheSum) {
        volatile float sum = acc + bias[co];
        acc = sum;
      }
      y[size_t(p) * s.cout + co] = relu ? (acc > 0 ? acc : 0.0f) : acc;
    }
  }
  return y;
}

}  // namespace npuvp::kernels
