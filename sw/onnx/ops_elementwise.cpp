// Elementwise lowerings (issue 26): Add, Sub, Mul, Div, Pow with numpy's multidirectional
// broadcasting; Sqrt, Relu, LeakyRelu, Sigmoid, Tanh, Erf, Gelu. All f32 on the vector unit
// (sw/onnx/onnx_kernels.h's elementwise kernel). The transcendentals are built from the ISA's
// Exp, Ln, Reciprocal, Div, Compare and Select (docs/vector-isa.md §3), each to well within
// ONNX's backend tolerance (rtol 1e-3, atol 1e-7).
#include <cmath>
#include <limits>

#include "sw/onnx/onnx_kernels.h"
#include "sw/runtime/device.h"
#include "tlm/log.h"

namespace npuvp::onnx {

using namespace AscendC;

namespace {

using Tensor = LocalTensor<float>;

// The scratch tiles of the elementwise kernel and the compare-mask tile.
struct Scratch {
  Tensor t[5];
  LocalTensor<uint8_t> mask;
  explicit Scratch(const Tensor& tmp) {
    for (int i = 0; i < 5; ++i) t[i] = tmp[uint32_t(i * kElementwiseTile)];
    mask = tmp[uint32_t(5 * kElementwiseTile)].ReinterpretCast<uint8_t>();
  }
};

// Horner's rule: acc = ((c0 * v + c1) * v + c2) ... with the coefficients highest first.
void horner(const Tensor& acc, const Tensor& v, const std::vector<float>& coefficients, int32_t n) {
  Duplicate(acc, coefficients[0], n);
  for (size_t i = 1; i < coefficients.size(); ++i) {
    Mul(acc, acc, v, n);
    Adds(acc, acc, coefficients[i], n);
  }
}

// z = -z where x < 0 (x is not modified).
void copy_sign_of(const Tensor& z, const Tensor& x, const Scratch& s, const Tensor& spare, int32_t n) {
  CompareScalar(s.mask, x, 0.0f, CMPMODE::LT, uint32_t(n));
  Muls(spare, z, -1.0f, n);
  Select(z, s.mask, spare, z, SELMODE::VSEL_TENSOR_TENSOR_MODE, uint32_t(n));
}

// tanh(x) into z; uses t[0..2] and the mask.
// |x| < 1/16: the odd Taylor series x (1 - x^2/3 + 2x^4/15 - 17x^6/315) (next term < 1e-12
// relative there); else sign(x) (1 - e) / (1 + e) with e = exp(-2|x|), which has no
// cancellation once |x| is not small and saturates to +-1 without overflow.
void tanh_into(const Tensor& z, const Tensor& x, const Scratch& s, int32_t n) {
  Mul(s.t[0], x, x, n);
  horner(s.t[1], s.t[0], {-17.0f / 315.0f, 2.0f / 15.0f, -1.0f / 3.0f, 1.0f}, n);
  Mul(s.t[1], s.t[1], x, n);  // the small-|x| branch
  Abs(s.t[0], x, n);
  Muls(s.t[0], s.t[0], -2.0f, n);
  Exp(s.t[0], s.t[0], n);                // e
  Muls(s.t[2], s.t[0], -1.0f, n);
  Adds(s.t[2], s.t[2], 1.0f, n);         // 1 - e
  Adds(s.t[0], s.t[0], 1.0f, n);         // 1 + e
  Div(z, s.t[2], s.t[0], n);
  copy_sign_of(z, x, s, s.t[0], n);
  Abs(s.t[0], x, n);
  CompareScalar(s.mask, s.t[0], 0.0625f, CMPMODE::LT, uint32_t(n));
  Select(z, s.mask, s.t[1], z, SELMODE::VSEL_TENSOR_TENSOR_MODE, uint32_t(n));
}

// erf(x) into z; uses t[0..2] and the mask.
// |x| < 0.5: the Maclaurin series 2/sqrt(pi) (x - x^3/3 + x^5/10 - x^7/42 + x^9/216 - x^11/1320)
// (Abramowitz & Stegun 7.1.5; the next term is < 2e-7 relative at 0.5).
// Else 1 - erfc(|x|) with the sign of x, erfc from the Chebyshev fit of Numerical Recipes
// (2nd ed., §6.2, erfcc): t = 1 / (1 + |x|/2),
// erfc = t exp(-x^2 - 1.26551223 + t (1.00002368 + t (0.37409196 + t (0.09678418 +
//   t (-0.18628806 + t (0.27886807 + t (-1.13520398 + t (1.48851587 + t (-0.82215223 +
//   t 0.17087277))))))))), fractional error below 1.2e-7.
// erfc(|x|) into z (the second branch above before 1 - erfc); uses t[0] and t[2].
void erfc_abs_into(const Tensor& z, const Tensor& x, const Scratch& s, int32_t n) {
  Abs(s.t[0], x, n);
  Muls(s.t[2], s.t[0], 0.5f, n);
  Adds(s.t[2], s.t[2], 1.0f, n);
  Reciprocal(s.t[2], s.t[2], n);  // t
  horner(z, s.t[2], {0.17087277f, -0.82215223f, 1.48851587f, -1.13520398f, 0.27886807f, -0.18628806f,
                     0.09678418f, 0.37409196f, 1.00002368f}, n);
  Mul(z, z, s.t[2], n);
  Adds(z, z, -1.26551223f, n);
  Mul(s.t[0], s.t[0], s.t[0], n);  // x^2
  Sub(z, z, s.t[0], n);
  Exp(z, z, n);
  Mul(z, z, s.t[2], n);
}

// The small-|x| series into dst; uses t[0].
void erf_series_into(const Tensor& dst, const Tensor& x, const Scratch& s, int32_t n) {
  Mul(s.t[0], x, x, n);
  horner(dst, s.t[0], {-1.0f / 1320.0f, 1.0f / 216.0f, -1.0f / 42.0f, 1.0f / 10.0f, -1.0f / 3.0f, 1.0f}, n);
  Mul(dst, dst, x, n);
  Muls(dst, dst, float(2.0 / std::sqrt(M_PI)), n);
}

void erf_into(const Tensor& z, const Tensor& x, const Scratch& s, int32_t n) {
  erf_series_into(s.t[1], x, s, n);  // the small-|x| branch
  erfc_abs_into(z, x, s, n);
  Muls(z, z, -1.0f, n);
  Adds(z, z, 1.0f, n);
  copy_sign_of(z, x, s, s.t[0], n);
  Abs(s.t[0], x, n);
  CompareScalar(s.mask, s.t[0], 0.5f, CMPMODE::LT, uint32_t(n));
  Select(z, s.mask, s.t[1], z, SELMODE::VSEL_TENSOR_TENSOR_MODE, uint32_t(n));
}

// Phi(x) = (1 + erf(x / sqrt 2)) / 2, the normal CDF, into z (x is not modified): for
// |x / sqrt 2| >= 0.5 from erfc directly, erfc(|v|) / 2 for x < 0 and 1 - erfc(|v|) / 2 above,
// so the far negative tail keeps its relative accuracy (1 + erf would cancel there).
void normal_cdf_into(const Tensor& z, const Tensor& x, const Scratch& s, int32_t n) {
  Muls(s.t[4], x, float(1.0 / std::sqrt(2.0)), n);  // v
  erf_series_into(s.t[1], s.t[4], s, n);
  Muls(s.t[1], s.t[1], 0.5f, n);
  Adds(s.t[1], s.t[1], 0.5f, n);  // the small-|v| branch
  erfc_abs_into(z, s.t[4], s, n);
  Muls(s.t[3], z, 0.5f, n);  // erfc / 2
  Muls(s.t[0], s.t[3], -1.0f, n);
  Adds(s.t[0], s.t[0], 1.0f, n);  // 1 - erfc / 2
  CompareScalar(s.mask, x, 0.0f, CMPMODE::LT, uint32_t(n));
  Select(z, s.mask, s.t[3], s.t[0], SELMODE::VSEL_TENSOR_TENSOR_MODE, uint32_t(n));
  Abs(s.t[0], s.t[4], n);
  CompareScalar(s.mask, s.t[0], 0.5f, CMPMODE::LT, uint32_t(n));
  Select(z, s.mask, s.t[1], z, SELMODE::VSEL_TENSOR_TENSOR_MODE, uint32_t(n));
}

// x^y = exp(y ln|x|), negated for a negative x with an odd integral y, NaN for a negative x
// with a non-integral y (IEEE pow / numpy's rules).
void pow_into(const Tensor& z, const Tensor& x, const Tensor& y, const Scratch& s, int32_t n) {
  Abs(s.t[0], x, n);
  Ln(s.t[0], s.t[0], n);
  Mul(s.t[0], s.t[0], y, n);
  Exp(z, s.t[0], n);  // |x|^y
  Muls(s.t[1], y, 0.5f, n);
  Cast(s.t[2], s.t[1], RoundMode::CAST_FLOOR, uint32_t(n));
  Sub(s.t[1], s.t[1], s.t[2], n);  // y/2 - floor(y/2): 0.5 for odd integers
  Muls(s.t[2], z, -1.0f, n);
  CompareScalar(s.mask, s.t[1], 0.5f, CMPMODE::EQ, uint32_t(n));
  Select(s.t[2], s.mask, s.t[2], z, SELMODE::VSEL_TENSOR_TENSOR_MODE, uint32_t(n));  // odd ? -r : r
  Cast(s.t[3], y, RoundMode::CAST_FLOOR, uint32_t(n));
  Sub(s.t[3], y, s.t[3], n);  // 0 for integral y
  Duplicate(s.t[4], std::numeric_limits<float>::quiet_NaN(), n);
  CompareScalar(s.mask, s.t[3], 0.0f, CMPMODE::EQ, uint32_t(n));
  Select(s.t[2], s.mask, s.t[2], s.t[4], SELMODE::VSEL_TENSOR_TENSOR_MODE, uint32_t(n));
  CompareScalar(s.mask, x, 0.0f, CMPMODE::LT, uint32_t(n));
  Select(z, s.mask, s.t[2], z, SELMODE::VSEL_TENSOR_TENSOR_MODE, uint32_t(n));
}

struct Elementwise {
  const char* op;
  int inputs;
  double flops;  // per output element, for the table
  std::vector<std::string> attributes;
  std::function<ElementwiseCompute(const Node&)> compute;
};

void register_elementwise(const Elementwise& e) {
  OpLowering l;
  l.op_type = e.op;
  const int inputs = e.inputs;
  const std::vector<std::string> attributes = e.attributes;
  l.check = [inputs, attributes](const Node& node, const std::vector<TensorDesc>& in,
                                 const std::vector<TensorDesc>& out) {
    allow_attributes(node, attributes);
    if (int(in.size()) != inputs || out.size() != 1) {
      raise(node.source, "expects {} inputs and 1 output, has {} and {}", inputs, in.size(), out.size());
    }
    // Pow's exponent may be an integer constant (opset 12+): converted to f32 when it runs.
    const bool integer_exponent = node.op_type == "Pow" && in.size() == 2 &&
                                  (in[1].type == DType::Int32 || in[1].type == DType::Int64);
    require_float(node, in, out, inputs == 2 && !integer_exponent ? std::vector<size_t>{0, 1} : std::vector<size_t>{0});
    // Every input is required, and the output is the inputs' broadcast: a model declaring
    // another output shape had the kernel index past its stride tables (issue 29's fuzzing).
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      if (node.inputs[i].empty()) raise(node.source, "input {} is omitted, but {} needs it", i, node.op_type);
    }
    const std::vector<int64_t> shape = inputs == 2 ? broadcast_shapes(node, in[0].shape, in[1].shape) : in[0].shape;
    if (out[0].shape != shape) {
      raise(node.source, "output '{}' is declared [{}], but the inputs broadcast to [{}]", out[0].name,
            fmt::join(out[0].shape, ","), fmt::join(shape, ","));
    }
    if (node.op_type == "Gelu") {
      const std::string approximate = node.attr_string("approximate", "none");
      if (approximate != "none" && approximate != "tanh") {
        raise(node.source, "attribute 'approximate' = '{}' is not supported (none or tanh)", approximate);
      }
    }
  };
  const auto make = e.compute;
  const double flops = e.flops;
  l.run = [make, flops](OpContext& ctx) {
    std::vector<const GmTensor*> ins(ctx.inputs.begin(), ctx.inputs.end());
    GmTensor exponent;
    if (ins.size() == 2 && ins[1]->desc.type != DType::Float) {
      // An integer exponent: its values (a constant: an initializer or bound from --data) as f32.
      if (!ins[1]->constant) raise(ctx.node.source, "an integer exponent must be a constant (initializer or --data)");
      const std::vector<int64_t> values = constant_ints(ctx.node, ins[1], "exponent");
      std::vector<float> as_float(values.begin(), values.end());
      exponent.desc = ins[1]->desc;
      exponent.desc.type = DType::Float;
      exponent.data = ctx.scratch(as_float.size() * 4);
      exponent.constant = true;
      if (!as_float.empty()) {
        ctx.device.memcpy(exponent.data, as_float.data(), as_float.size() * 4, Device::Copy::HostToDevice);
      }
      ins[1] = &exponent;
    }
    elementwise(ctx, ctx.node.op_type.c_str(), ins, *ctx.outputs[0], flops, make(ctx.node));
  };
  register_op(l);
}

ElementwiseCompute binary(void (*op)(const Tensor&, const Tensor&, const Tensor&, const int32_t&)) {
  return [op](const Tensor& z, const Tensor& a, const Tensor& b, const Tensor&, int32_t n) { op(z, a, b, n); };
}

}  // namespace

void register_elementwise_ops() {
  register_elementwise({"Add", 2, 1, {}, [](const Node&) { return binary(&Add<float>); }});
  register_elementwise({"Sub", 2, 1, {}, [](const Node&) { return binary(&Sub<float>); }});
  register_elementwise({"Mul", 2, 1, {}, [](const Node&) { return binary(&Mul<float>); }});
  register_elementwise({"Div", 2, 1, {}, [](const Node&) { return binary(&Div<float>); }});
  register_elementwise({"Pow", 2, 20, {}, [](const Node&) -> ElementwiseCompute {
    return [](const Tensor& z, const Tensor& x, const Tensor& y, const Tensor& tmp, int32_t n) {
      pow_into(z, x, y, Scratch(tmp), n);
    };
  }});
  register_elementwise({"Sqrt", 1, 1, {}, [](const Node&) -> ElementwiseCompute {
    return [](const Tensor& z, const Tensor& x, const Tensor&, const Tensor&, int32_t n) { Sqrt(z, x, n); };
  }});
  register_elementwise({"Relu", 1, 1, {}, [](const Node&) -> ElementwiseCompute {
    return [](const Tensor& z, const Tensor& x, const Tensor&, const Tensor&, int32_t n) { Relu(z, x, n); };
  }});
  register_elementwise({"LeakyRelu", 1, 1, {"alpha"}, [](const Node& node) -> ElementwiseCompute {
    const float alpha = node.attr_float("alpha", 0.01f);
    return [alpha](const Tensor& z, const Tensor& x, const Tensor&, const Tensor&, int32_t n) {
      LeakyRelu(z, x, alpha, n);
    };
  }});
  // sigmoid(x) = 1 / (1 + exp(-x)): exp overflows to +inf for x < -88 and the result is 0.
  register_elementwise({"Sigmoid", 1, 4, {}, [](const Node&) -> ElementwiseCompute {
    return [](const Tensor& z, const Tensor& x, const Tensor&, const Tensor&, int32_t n) {
      Muls(z, x, -1.0f, n);
      Exp(z, z, n);
      Adds(z, z, 1.0f, n);
      Reciprocal(z, z, n);
    };
  }});
  register_elementwise({"Tanh", 1, 20, {}, [](const Node&) -> ElementwiseCompute {
    return [](const Tensor& z, const Tensor& x, const Tensor&, const Tensor& tmp, int32_t n) {
      tanh_into(z, x, Scratch(tmp), n);
    };
  }});
  register_elementwise({"Erf", 1, 40, {}, [](const Node&) -> ElementwiseCompute {
    return [](const Tensor& z, const Tensor& x, const Tensor&, const Tensor& tmp, int32_t n) {
      erf_into(z, x, Scratch(tmp), n);
    };
  }});
  // Gelu (opset 20): x Phi(x) = 0.5 x (1 + erf(x / sqrt 2)), or with approximate = "tanh"
  // 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), computed as x / (1 + exp(-2u))
  // (the same value; 1 + tanh(u) would cancel for large negative u).
  register_elementwise({"Gelu", 1, 45, {"approximate"}, [](const Node& node) -> ElementwiseCompute {
    const bool tanh = node.attr_string("approximate", "none") == "tanh";
    return [tanh](const Tensor& z, const Tensor& x, const Tensor&, const Tensor& tmp, int32_t n) {
      const Scratch s(tmp);
      if (tanh) {
        Mul(s.t[4], x, x, n);
        Mul(s.t[4], s.t[4], x, n);
        Muls(s.t[4], s.t[4], 0.044715f, n);
        Add(s.t[4], s.t[4], x, n);
        Muls(s.t[4], s.t[4], float(-2.0 * std::sqrt(2.0 / M_PI)), n);  // -2u
        Exp(s.t[4], s.t[4], n);
        Adds(s.t[4], s.t[4], 1.0f, n);
        Div(z, x, s.t[4], n);
      } else {
        normal_cdf_into(z, x, s, n);
        Mul(z, z, x, n);
      }
    };
  }});
}

}  // namespace npuvp::onnx
