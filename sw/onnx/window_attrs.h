// ONNX's window attributes (Conv, MaxPool, AveragePool): kernel_shape, strides, dilations,
// pads and auto_pad resolved to one 2-D geometry (a 1-D op is 2-D with height 1).
// Semantics: https://onnx.ai/onnx/operators/onnx__Conv.html and onnx__MaxPool.html.
#pragma once
#include <vector>
#include "sw/onnx/onnx_op.h"
#include "sw/onnx/window_gather.h"

namespace npuvp::onnx {

// x_shape: [N, C, (H,) W]; kernel: the window's spatial size (from kernel_shape or W's shape).
// ceil_mode for the pools. Raises, naming the node and attribute, for what it does not handle.
WindowGeometry window_geometry(const Node& node, const std::vector<int64_t>& x_shape,
                               const std::vector<int64_t>& kernel, bool allow_dilations, bool ceil_mode);

}  // namespace npuvp::onnx
