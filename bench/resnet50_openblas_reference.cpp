// ResNet-50's arithmetic on the host, as the yardstick for `npuvp run resnet50_b1.onnx --mode
// timed` (issue 26, speed): every Conv as im2col + one single-threaded OpenBLAS sgemm, the fc
// layer as sgemm, BatchNormalization/Relu/Add/MaxPool/GlobalAveragePool as plain loops. The
// layer shapes are the ones scripts/models/build_models.py writes (torchvision v1.5: stride on
// the 3x3 conv); the weights are arbitrary (the arithmetic, not the values, is timed).
//
// Built and run by bench/onnx_resnet50_vs_openblas.sh:
//   g++ -O2 -std=c++17 bench/resnet50_openblas_reference.cpp -lopenblas
//   OPENBLAS_NUM_THREADS=1 ./a.out [batch]
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

namespace {

struct Tensor {
  int n = 0, c = 0, h = 0, w = 0;
  std::vector<float> data;
  Tensor() = default;
  Tensor(int n_, int c_, int h_, int w_) : n(n_), c(c_), h(h_), w(w_), data(size_t(n_) * c_ * h_ * w_) {}
};

float next_value(unsigned& state) {
  state = state * 1664525u + 1013904223u;
  return float(state >> 8) / float(1u << 24) - 0.5f;
}

std::vector<float> random_vector(size_t count, float scale, unsigned seed) {
  std::vector<float> values(count);
  for (auto& v : values) v = scale * next_value(seed);
  return values;
}

double gemm_seconds = 0;  // time inside sgemm only
double gemm_flops = 0;

// Conv with square kernel k, stride s, pad k/2, no bias (BatchNormalization follows): per image,
// Xcol[c*k*k][oh*ow] then Y[cout][oh*ow] = W[cout][c*k*k] * Xcol.
Tensor conv(const Tensor& x, int cout, int k, int stride, unsigned seed) {
  const int pad = k / 2;
  const int oh = (x.h + 2 * pad - k) / stride + 1, ow = (x.w + 2 * pad - k) / stride + 1;
  const int kdim = x.c * k * k, positions = oh * ow;
  const std::vector<float> weight = random_vector(size_t(cout) * kdim, 1.0f / std::sqrt(float(kdim)), seed);
  Tensor y(x.n, cout, oh, ow);
  std::vector<float> col(size_t(kdim) * positions);
  for (int img = 0; img < x.n; ++img) {
    const float* in = x.data.data() + size_t(img) * x.c * x.h * x.w;
    const float* b = in;
    if (k != 1 || stride != 1) {
      for (int ci = 0; ci < x.c; ++ci)
        for (int ky = 0; ky < k; ++ky)
          for (int kx = 0; kx < k; ++kx) {
            float* row = col.data() + size_t((ci * k + ky) * k + kx) * positions;
            for (int py = 0; py < oh; ++py) {
              const int iy = py * stride - pad + ky;
              for (int px = 0; px < ow; ++px) {
                const int ix = px * stride - pad + kx;
                row[py * ow + px] = (iy < 0 || iy >= x.h || ix < 0 || ix >= x.w)
                                        ? 0.0f : in[(size_t(ci) * x.h + iy) * x.w + ix];
              }
            }
          }
      b = col.data();
    }
    const auto start = std::chrono::steady_clock::now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, cout, positions, kdim, 1.0f, weight.data(), kdim,
                b, positions, 0.0f, y.data.data() + size_t(img) * cout * positions, positions);
    gemm_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    gemm_flops += 2.0 * cout * positions * kdim;
  }
  return y;
}

void batch_norm(Tensor& x, bool relu, unsigned seed) {
  const std::vector<float> scale = random_vector(size_t(x.c), 0.5f, seed);
  const size_t plane = size_t(x.h) * x.w;
  for (int img = 0; img < x.n; ++img)
    for (int ci = 0; ci < x.c; ++ci) {
      float* p = x.data.data() + (size_t(img) * x.c + ci) * plane;
      const float a = 1.0f + scale[size_t(ci)], b = 0.1f * scale[size_t(ci)];
      for (size_t i = 0; i < plane; ++i) p[i] = relu ? std::max(0.0f, a * p[i] + b) : a * p[i] + b;
    }
}

Tensor conv_bn(const Tensor& x, int cout, int k, int stride, bool relu, unsigned& seed) {
  Tensor y = conv(x, cout, k, stride, ++seed);
  batch_norm(y, relu, ++seed);
  return y;
}

Tensor max_pool_3x3_s2(const Tensor& x) {
  const int oh = (x.h + 2 - 3) / 2 + 1, ow = (x.w + 2 - 3) / 2 + 1;
  Tensor y(x.n, x.c, oh, ow);
  for (int p = 0; p < x.n * x.c; ++p)
    for (int py = 0; py < oh; ++py)
      for (int px = 0; px < ow; ++px) {
        float m = -INFINITY;
        for (int ky = 0; ky < 3; ++ky)
          for (int kx = 0; kx < 3; ++kx) {
            const int iy = py * 2 - 1 + ky, ix = px * 2 - 1 + kx;
            if (iy >= 0 && iy < x.h && ix >= 0 && ix < x.w) m = std::max(m, x.data[(size_t(p) * x.h + iy) * x.w + ix]);
          }
        y.data[(size_t(p) * oh + py) * ow + px] = m;
      }
  return y;
}

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  const int batch = argc > 1 ? std::atoi(argv[1]) : 1;
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  unsigned seed = 50;
  Tensor x(batch, 3, 224, 224);
  x.data = random_vector(x.data.size(), 2.0f, 1);

  Tensor y = max_pool_3x3_s2(conv_bn(x, 64, 7, 2, true, seed));
  int cin = 64;
  const int stages[4][3] = {{64, 3, 1}, {128, 4, 2}, {256, 6, 2}, {512, 3, 2}};
  for (const auto& stage : stages) {
    for (int b = 0; b < stage[1]; ++b) {
      const int stride = b == 0 ? stage[2] : 1, out = stage[0] * 4;
      Tensor h = conv_bn(y, stage[0], 1, 1, true, seed);
      h = conv_bn(h, stage[0], 3, stride, true, seed);
      h = conv_bn(h, out, 1, 1, false, seed);
      const Tensor shortcut = b == 0 ? conv_bn(y, out, 1, stride, false, seed) : y;
      for (size_t i = 0; i < h.data.size(); ++i) h.data[i] = std::max(0.0f, h.data[i] + shortcut.data[i]);
      y = std::move(h);
      cin = out;
    }
  }
  // GlobalAveragePool + Flatten + Gemm 2048 -> 1000 (transB), bias.
  std::vector<float> pooled(size_t(batch) * cin, 0.0f);
  const size_t plane = size_t(y.h) * y.w;
  for (size_t p = 0; p < pooled.size(); ++p) {
    for (size_t i = 0; i < plane; ++i) pooled[p] += y.data[p * plane + i];
    pooled[p] /= float(plane);
  }
  const std::vector<float> fc_w = random_vector(size_t(1000) * cin, 1.0f / std::sqrt(float(cin)), ++seed);
  std::vector<float> logits(size_t(batch) * 1000, 0.01f);
  const auto start = std::chrono::steady_clock::now();
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, batch, 1000, cin, 1.0f, pooled.data(), cin, fc_w.data(), cin,
              1.0f, logits.data(), 1000);
  gemm_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  gemm_flops += 2.0 * batch * 1000 * cin;

  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  const double cpu = cpu_seconds() - cpu_start;
  double checksum = 0;
  for (float v : logits) checksum += double(v);
  const char* threads = std::getenv("OPENBLAS_NUM_THREADS");
  std::printf("resnet50 batch %d on the host (OpenBLAS sgemm, OPENBLAS_NUM_THREADS=%s)\n", batch, threads ? threads : "unset");
  std::printf("sgemm: %.3f s, %.1f GFLOP, %.1f GFLOPS\n", gemm_seconds, gemm_flops * 1e-9, gemm_flops * 1e-9 / gemm_seconds);
  std::printf("whole network (im2col, sgemm, loops): %.3f s wall, %.3f s CPU (checksum %.4g)\n", wall, cpu, checksum);
  return std::isfinite(checksum) ? 0 : 1;
}
