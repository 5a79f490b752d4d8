#include "sw/onnx/window_attrs.h"

#include <algorithm>
#include "tlm/log.h"

namespace npuvp::onnx {

WindowGeometry window_geometry(const Node& node, const std::vector<int64_t>& x_shape,
                               const std::vector<int64_t>& kernel, bool allow_dilations, bool ceil_mode) {
  const size_t rank = x_shape.size();
  if (rank != 3 && rank != 4) {
    raise(node.source, "input X has rank {}; only 1-D and 2-D {} (rank 3 or 4) is supported", rank, node.op_type);
  }
  const size_t spatial = rank - 2;
  if (kernel.size() != spatial) raise(node.source, "attribute 'kernel_shape' has {} values, X has {} spatial axes", kernel.size(), spatial);
  auto ints = [&](const char* name, int64_t fallback, size_t count) {
    std::vector<int64_t> v = node.attr_ints(name, std::vector<int64_t>(count, fallback));
    if (v.size() != count) raise(node.source, "attribute '{}' has {} values, expected {}", name, v.size(), count);
    for (int64_t x : v) {
      if (x < (fallback == 0 ? 0 : 1)) raise(node.source, "attribute '{}' has the value {}", name, x);
    }
    return v;
  };
  const auto strides = ints("strides", 1, spatial);
  const auto dilations = ints("dilations", 1, spatial);
  if (!allow_dilations) {
    for (int64_t d : dilations) {
      if (d != 1) raise(node.source, "attribute 'dilations' other than 1 is not supported by {}", node.op_type);
    }
  }
  std::vector<int64_t> pads = ints("pads", 0, 2 * spatial);
  const std::string auto_pad = node.attr_string("auto_pad", "NOTSET");
  std::vector<int64_t> out(spatial);
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t in = x_shape[2 + i], k = kernel[i], s = strides[i], d = dilations[i];
    const int64_t extent = (k - 1) * d + 1;
    if (k < 1) raise(node.source, "attribute 'kernel_shape' has the value {}", k);
    if (auto_pad == "NOTSET") {
      const int64_t span = in + pads[i] + pads[i + spatial] - extent;
      if (span < 0) raise(node.source, "the window ({}) is larger than the padded input ({})", extent, in + pads[i] + pads[i + spatial]);
      out[i] = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
      // ceil_mode: a window must start inside the input or its left padding.
      if (ceil_mode && (out[i] - 1) * s >= in + pads[i]) --out[i];
    } else if (auto_pad == "VALID") {
      pads[i] = pads[i + spatial] = 0;
      out[i] = (in - extent) / s + 1;  // ceil((in - extent + 1) / s)
      if (in < extent) raise(node.source, "the window ({}) is larger than the input ({})", extent, in);
    } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      out[i] = (in + s - 1) / s;
      const int64_t total = std::max<int64_t>(0, (out[i] - 1) * s + extent - in);
      const int64_t small = total / 2, large = total - small;
      pads[i] = auto_pad == "SAME_UPPER" ? small : large;
      pads[i + spatial] = auto_pad == "SAME_UPPER" ? large : small;
    } else {
      raise(node.source, "attribute 'auto_pad' = '{}' is not supported", auto_pad);
    }
  }
  WindowGeometry g;
  g.n = uint32_t(x_shape[0]);
  g.c = uint32_t(x_shape[1]);
  const bool two_d = spatial == 2;
  g.h = two_d ? uint32_t(x_shape[2]) : 1;
  g.w = uint32_t(x_shape[rank - 1]);
  g.kh = two_d ? uint32_t(kernel[0]) : 1;
  g.kw = uint32_t(kernel[spatial - 1]);
  g.sh = two_d ? uint32_t(strides[0]) : 1;
  g.sw = uint32_t(strides[spatial - 1]);
  g.dh = two_d ? uint32_t(dilations[0]) : 1;
  g.dw = uint32_t(dilations[spatial - 1]);
  g.pad_top = two_d ? uint32_t(pads[0]) : 0;
  g.pad_bottom = two_d ? uint32_t(pads[2]) : 0;
  g.pad_left = uint32_t(pads[spatial - 1]);
  g.pad_right = uint32_t(pads[2 * spatial - 1]);
  g.oh = two_d ? uint32_t(out[0]) : 1;
  g.ow = uint32_t(out[spatial - 1]);
  return g;
}

}  // namespace npuvp::onnx
