// MaxPool, AveragePool and GlobalAveragePool lowerings (sw/onnx/ops_pool.cpp) against a plain
// double reference of ONNX's definitions, under ONNX's float32 tolerance. The attribute sets
// are those of ONNX's backend node tests (test_maxpool_*, test_averagepool_*) and odd ones.
#include <gtest/gtest.h>
#include <limits>
#include "tests/onnx/op_harness.h"
#include "tests/support/error_of.h"

namespace pool_ops_test {
using npuvp::onnx::AttributeValue;
using namespace npuvp::testing;
using Ints = std::vector<int64_t>;

struct PoolCase {
  std::string op;
  Ints x;
  std::map<std::string, AttributeValue> attrs;
  Ints y;  // output shape (computed by hand from ONNX's formulas)
  Ints pads_resolved;  // top, left, bottom, right after auto_pad
};

std::vector<double> reference(const PoolCase& c, const std::vector<float>& x) {
  const bool one_d = c.x.size() == 3;
  const int64_t N = c.x[0], C = c.x[1], H = one_d ? 1 : c.x[2], W = c.x.back();
  const int64_t OH = one_d ? 1 : c.y[2], OW = c.y.back();
  auto ints = [&](const char* n, Ints d) { return c.attrs.count(n) ? std::get<Ints>(c.attrs.at(n)) : d; };
  const size_t sp = one_d ? 1 : 2;
  const Ints k = ints("kernel_shape", {}), s = ints("strides", Ints(sp, 1)), d = ints("dilations", Ints(sp, 1));
  const int64_t KH = one_d ? 1 : k[0], KW = k.back(), SH = one_d ? 1 : s[0], SW = s.back();
  const int64_t DH = one_d ? 1 : d[0], DW = d.back();
  const int64_t PT = c.pads_resolved[0], PL = c.pads_resolved[1], PB = c.pads_resolved[2], PR = c.pads_resolved[3];
  const bool include = c.attrs.count("count_include_pad") && std::get<int64_t>(c.attrs.at("count_include_pad")) != 0;
  std::vector<double> y;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t ch = 0; ch < C; ++ch)
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          double best = -std::numeric_limits<double>::infinity(), sum = 0;
          int64_t count = 0;
          for (int64_t i = 0; i < KH; ++i)
            for (int64_t j = 0; j < KW; ++j) {
              const int64_t ih = oh * SH - PT + i * DH, iw = ow * SW - PL + j * DW;
              const bool in = ih >= 0 && ih < H && iw >= 0 && iw < W;
              const bool in_padded = ih >= -PT && ih < H + PB && iw >= -PL && iw < W + PR;
              if (in) {
                const double v = x[size_t(((n * C + ch) * H + ih) * W + iw)];
                best = std::max(best, v);
                sum += v;
              }
              count += include ? in_padded : in;
            }
          y.push_back(c.op == "MaxPool" ? best : sum / double(count));
        }
  return y;
}

void check(const char* platform, const PoolCase& c) {
  make_device({}, platform);
  npuvp::onnx::register_pool_ops();
  const auto x = random_floats(size_t(elements(c.x)), 7, -4, 4);
  const auto want = reference(c, x);
  const auto node = make_node(c.op, 1, c.attrs);
  const OpRun got = run_op(node, {{"X", c.x, x}}, c.y);
  const long bad = first_outside(got.output, want);
  EXPECT_EQ(bad, -1) << "element " << bad << ": " << got.output[size_t(std::max(bad, 0L))] << " vs " << want[size_t(std::max(bad, 0L))];
  ASSERT_EQ(got.launches.size(), 1u);
  EXPECT_STREQ(got.launches[0].unit, "vector");
}

const PoolCase kMaxDefault{"MaxPool", {1, 3, 32, 32}, {{"kernel_shape", Ints{2, 2}}}, {1, 3, 31, 31}, {0, 0, 0, 0}};
const PoolCase kMaxCeil{"MaxPool", {1, 1, 4, 4}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"ceil_mode", int64_t(1)}}, {1, 1, 2, 2}, {0, 0, 0, 0}};
const PoolCase kMaxDilations{"MaxPool", {1, 1, 4, 4}, {{"kernel_shape", Ints{2, 2}}, {"dilations", Ints{2, 2}}}, {1, 1, 2, 2}, {0, 0, 0, 0}};
const PoolCase kMaxPads{"MaxPool", {1, 3, 28, 28}, {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{2, 2, 2, 2}}}, {1, 3, 30, 30}, {2, 2, 2, 2}};
const PoolCase kMaxSameUpper{"MaxPool", {1, 3, 32, 32}, {{"kernel_shape", Ints{2, 2}}, {"auto_pad", std::string("SAME_UPPER")}}, {1, 3, 32, 32}, {0, 0, 1, 1}};
const PoolCase kMaxSameLower{"MaxPool", {1, 3, 32, 32}, {{"kernel_shape", Ints{2, 2}}, {"auto_pad", std::string("SAME_LOWER")}}, {1, 3, 32, 32}, {1, 1, 0, 0}};
const PoolCase kMaxResNet{"MaxPool", {1, 64, 112, 112}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}}, {1, 64, 56, 56}, {1, 1, 1, 1}};
const PoolCase kMax1D{"MaxPool", {1, 3, 32}, {{"kernel_shape", Ints{2}}}, {1, 3, 31}, {0, 0, 0, 0}};
const PoolCase kAvgCeil{"AveragePool", {1, 1, 4, 4}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"ceil_mode", int64_t(1)}}, {1, 1, 2, 2}, {0, 0, 0, 0}};
const PoolCase kAvgPads{"AveragePool", {1, 3, 28, 28}, {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{2, 2, 2, 2}}}, {1, 3, 30, 30}, {2, 2, 2, 2}};
const PoolCase kAvgPadsInclude{"AveragePool", {1, 3, 28, 28}, {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{2, 2, 2, 2}}, {"count_include_pad", int64_t(1)}}, {1, 3, 30, 30}, {2, 2, 2, 2}};
const PoolCase kAvgStrides{"AveragePool", {2, 5, 9, 11}, {{"kernel_shape", Ints{3, 2}}, {"strides", Ints{2, 3}}, {"pads", Ints{1, 0, 0, 1}}}, {2, 5, 4, 4}, {1, 0, 0, 1}};
const PoolCase kAvgSameLower{"AveragePool", {1, 3, 32, 32}, {{"kernel_shape", Ints{2, 2}}, {"auto_pad", std::string("SAME_LOWER")}}, {1, 3, 32, 32}, {1, 1, 0, 0}};
const PoolCase kAvg1D{"AveragePool", {1, 3, 32}, {{"kernel_shape", Ints{2}}}, {1, 3, 31}, {0, 0, 0, 0}};

TEST(PoolOps910B, MaxDefault) { check("ascend910b", kMaxDefault); }
TEST(PoolOps910B, MaxCeilMode) { check("ascend910b", kMaxCeil); }
TEST(PoolOps910B, MaxDilations) { check("ascend910b", kMaxDilations); }
TEST(PoolOps910B, MaxPads) { check("ascend910b", kMaxPads); }
TEST(PoolOps910B, MaxSameUpper) { check("ascend910b", kMaxSameUpper); }
TEST(PoolOps910B, MaxSameLower) { check("ascend910b", kMaxSameLower); }
TEST(PoolOps910B, MaxResNetStem) { check("ascend910b", kMaxResNet); }
TEST(PoolOps910B, Max1D) { check("ascend910b", kMax1D); }
TEST(PoolOps910B, AverageCeilMode) { check("ascend910b", kAvgCeil); }
TEST(PoolOps910B, AveragePads) { check("ascend910b", kAvgPads); }
TEST(PoolOps910B, AveragePadsCountIncludePad) { check("ascend910b", kAvgPadsInclude); }
TEST(PoolOps910B, AverageStridesAsymmetric) { check("ascend910b", kAvgStrides); }
TEST(PoolOps910B, AverageSameLower) { check("ascend910b", kAvgSameLower); }
TEST(PoolOps910B, Average1D) { check("ascend910b", kAvg1D); }
TEST(PoolOps310P, MaxPads) { check("ascend310p", kMaxPads); }
TEST(PoolOps310P, AverageStridesAsymmetric) { check("ascend310p", kAvgStrides); }

void check_global(const char* platform, Ints shape) {
  make_device({}, platform);
  npuvp::onnx::register_pool_ops();
  const auto x = random_floats(size_t(elements(shape)), 9, -4, 4);
  const int64_t planes = shape[0] * shape[1], plane = elements(shape) / planes;
  std::vector<double> want;
  for (int64_t p = 0; p < planes; ++p) {
    double s = 0;
    for (int64_t i = 0; i < plane; ++i) s += x[size_t(p * plane + i)];
    want.push_back(s / double(plane));
  }
  Ints out = {shape[0], shape[1]};
  for (size_t i = 2; i < shape.size(); ++i) out.push_back(1);
  const OpRun got = run_op(make_node("GlobalAveragePool", 1, {}), {{"X", shape, x}}, out);
  const long bad = first_outside(got.output, want);
  EXPECT_EQ(bad, -1) << "element " << bad;
}

TEST(PoolOps910B, GlobalAverageResNet) { check_global("ascend910b", {1, 2048, 7, 7}); }
TEST(PoolOps910B, GlobalAverageLargePlane) { check_global("ascend910b", {2, 3, 45, 47}); }
TEST(PoolOps310P, GlobalAverage) { check_global("ascend310p", {1, 67, 5, 5}); }

TEST(PoolOps, RefusesMaxPoolIndices) {
  npuvp::onnx::register_pool_ops();
  const auto node = make_node("MaxPool", 1, {{"kernel_shape", Ints{2, 2}}});
  const std::string text = error_of([&] {
    npuvp::onnx::find_op("MaxPool")->check(node, {{"X", npuvp::onnx::DType::Float, {1, 1, 4, 4}}},
                                           {{"Y", npuvp::onnx::DType::Float, {1, 1, 3, 3}}, {"Indices", npuvp::onnx::DType::Int64, {1, 1, 3, 3}}});
  });
  EXPECT_NE(text.find("node 'n0' (MaxPool)"), std::string::npos) << text;
  EXPECT_NE(text.find("'Indices'"), std::string::npos) << text;
}

}  // namespace pool_ops_test
