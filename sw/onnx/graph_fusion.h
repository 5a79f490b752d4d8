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
FusionReport fuse_graph(Model& model);

}  // namespace npuvp::onnx
