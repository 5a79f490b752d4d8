// Measurement, not a check (DISABLED_: run by hand with --gtest_also_run_disabled_tests):
// every Conv of ResNet-50 (batch 1, 224 x 224) through the Conv lowering in perf mode on the
// 910B, printing each layer's simulated time, launches and the host's wall time, and the totals.
#include <gtest/gtest.h>
#include <chrono>
#include <cstdio>
#include "tests/onnx/op_harness.h"

namespace conv_perf_test {
using namespace npuvp::testing;
using Ints = std::vector<int64_t>;

struct Layer {
  int64_t c, hw, m, k, stride;
};

std::vector<Layer> resnet50_convs() {
  std::vector<Layer> l = {{3, 224, 64, 7, 2}};
  int64_t in = 64, hw = 56;
  const int64_t widths[] = {64, 128, 256, 512}, blocks[] = {3, 4, 6, 3};
  for (int stage = 0; stage < 4; ++stage) {
    const int64_t w = widths[stage], out = w * 4;
    for (int b = 0; b < blocks[stage]; ++b) {
      const int64_t stride = (b == 0 && stage > 0) ? 2 : 1;
      l.push_back({in, hw, w, 1, 1});
      l.push_back({w, hw, w, 3, stride});
      const int64_t ohw = hw / stride;
      l.push_back({w, ohw, out, 1, 1});
      if (b == 0) l.push_back({in, hw, out, 1, stride});
      in = out;
      hw = ohw;
    }
  }
  return l;
}

void run_all(const char* platform, npuvp::onnx::Precision precision) {
  make_device({"sim.mode=perf"}, platform);
  npuvp::onnx::register_conv_ops();
  double total_sim = 0, total_wall = 0, total_flops = 0, total_cube = 0;
  size_t launches = 0;
  for (const Layer& l : resnet50_convs()) {
    const int64_t pad = l.k / 2, out = (l.hw + 2 * pad - l.k) / l.stride + 1;
    const Ints x = {1, l.c, l.hw, l.hw}, w = {l.m, l.c, l.k, l.k};
    std::vector<OpInput> inputs = {{"X", x, std::vector<float>(size_t(elements(x)), 0.5f)},
                                   {"W", w, std::vector<float>(size_t(elements(w)), 0.25f)},
                                   {"B", {l.m}, std::vector<float>(size_t(l.m), 0.0f)}};
    const auto node = make_node("Conv", 3, {{"pads", Ints{pad, pad, pad, pad}}, {"strides", Ints{l.stride, l.stride}}});
    const auto t0 = std::chrono::steady_clock::now();
    const OpRun r = run_op(node, inputs, {1, l.m, out, out}, precision);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double sim = 0, flops = 0, cube = 0;
    for (const auto& launch : r.launches) {
      sim += launch.report.sim_time.to_seconds();
      flops += launch.flops;
      if (std::string(launch.unit) == "cube") cube += launch.report.sim_time.to_seconds();
    }
    std::printf("conv c=%-4lld hw=%-3lld m=%-4lld k=%lld s=%lld: %2zu launches, %8.1f us simulated (cube %7.1f us, "
                "%5.1f TFLOPS), %6.3f s wall\n",
                (long long)l.c, (long long)l.hw, (long long)l.m, (long long)l.k, (long long)l.stride, r.launches.size(),
                sim * 1e6, cube * 1e6, flops / sim / 1e12, wall);
    total_cube += cube;
    total_sim += sim;
    total_wall += wall;
    total_flops += flops;
    launches += r.launches.size();
  }
  std::printf("ResNet-50 convs on %s: %zu launches, %.3f ms simulated (cube launches %.3f ms), %.1f GFLOP, %.2f TFLOPS, "
              "%.2f s wall\n", platform, launches, total_sim * 1e3, total_cube * 1e3, total_flops / 1e9,
              total_flops / total_sim / 1e12, total_wall);
}

// The other layers of ResNet-50 this folder lowers: a BatchNormalization after every Conv,
// the stem's MaxPool and the GlobalAveragePool, in perf mode on the 910B.
TEST(ConvPerf, DISABLED_ResNet50BatchNormAndPools910B) {
  make_device({"sim.mode=perf"}, "ascend910b");
  npuvp::onnx::register_norm_ops();
  npuvp::onnx::register_pool_ops();
  double sim = 0, wall = 0;
  size_t layers = 0;
  auto timed = [&](const npuvp::onnx::Node& node, const std::vector<OpInput>& inputs, const Ints& out) {
    const auto t0 = std::chrono::steady_clock::now();
    const OpRun r = run_op(node, inputs, out);
    wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (const auto& l : r.launches) sim += l.report.sim_time.to_seconds();
    ++layers;
  };
  for (const Layer& l : resnet50_convs()) {
    const int64_t pad = l.k / 2, out = (l.hw + 2 * pad - l.k) / l.stride + 1;
    const Ints y = {1, l.m, out, out};
    const std::vector<float> c(size_t(l.m), 1.0f);
    timed(make_node("BatchNormalization", 5, {}),
          {{"X", y, std::vector<float>(size_t(elements(y)), 0.5f)}, {"s", {l.m}, c}, {"b", {l.m}, c}, {"m", {l.m}, c}, {"v", {l.m}, c}}, y);
  }
  timed(make_node("MaxPool", 1, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}}),
        {{"X", {1, 64, 112, 112}, std::vector<float>(64 * 112 * 112, 0.5f)}}, {1, 64, 56, 56});
  timed(make_node("GlobalAveragePool", 1, {}), {{"X", {1, 2048, 7, 7}, std::vector<float>(2048 * 49, 0.5f)}}, {1, 2048, 1, 1});
  std::printf("ResNet-50 BatchNormalization x 53, MaxPool, GlobalAveragePool on ascend910b: %zu layers, %.3f ms simulated, %.2f s wall\n",
              layers, sim * 1e3, wall);
}

TEST(ConvPerf, DISABLED_ResNet50Convs910BFp32) { run_all("ascend910b", npuvp::onnx::Precision::Fp32); }
TEST(ConvPerf, DISABLED_ResNet50Convs910BFp16) { run_all("ascend910b", npuvp::onnx::Precision::Fp16); }
TEST(ConvPerf, DISABLED_ResNet50Convs310PFp16) { run_all("ascend310p", npuvp::onnx::Precision::Fp16); }

}  // namespace conv_perf_test
