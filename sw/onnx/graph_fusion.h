// Graph rewrites done on the host before a model runs, as CANN's offline model compiler and
// ONNX Runtime do for inference: they change rounding only (within ONNX's tolerances), never
// the graph's results otherwise.
#pragma once
#include <cstddef>
#include "sw/onnx/model_loader.h"

namespace npuvp::onnx {

struct FusionReport {
  size_t batchnorms_folded = 0;  // BatchNormalization nodes folded into the Conv before them
};

// Folds each inference BatchNormalization whose X is a Conv's output that nothing else reads
// into that Conv: W'[m] = W[m] s[m], B'[m] = (B[m] - mean[m]) s[m] + bias[m] with
// s = scale / sqrt(var + epsilon), computed in double and rounded once to f32. The Conv keeps
// its name and writes the BatchNormalization's output; W and B are rewritten in place when
// that Conv is their only reader; initializers no node reads any more are dropped (not copied
// to GM). A BatchNormalization whose parameters are not constants, or
// with attributes its own lowering refuses, is left alone (and checked as usual).
// Folding is done for the A2 cores only (`target.f32_cube`: the 910B), whose Conv GEMM takes
// the bias as one more K column at no cost. On the 910 and 310P the coupled path pads K to 16
// for matmul_910, so the bias column turns a 1x1 conv's K = 64 into 80: measured slower than
// the separate BatchNormalization pass (ResNet-50 b1 on the 910: 3.38 ms unfolded, 4.61 ms
// folded), and the graph is left as it is there.
FusionReport fuse_graph(Model& model, const Target& target = Target{});

}  // namespace npuvp::onnx
