// Gelu, FasterGelu, Silu and Swish are each x / (1 + exp(z(x))) for an affine or cubic z; one
// implementation runs them (asc-devkit docs/api Gelu.md, FasterGelu.md, Silu.md, Swish.md):
//   Gelu:       z = -1.59576912 * (x + 0.044715 * x^3)   (x^3 as (x * x) * x)
//   FasterGelu: z = -1.702 * x
//   Silu:       z = -x
//   Swish:      z = -beta * x
// each step a vector instruction in float (Mul, Muls, Add, Exp, Adds 1, Div), half widened
// first and rounded once at the end. Chunks of the temporary buffer: per element one float
// (z), and one more for half (x widened).
#pragma once
#include <type_traits>
#include "sw/ascendc/lib/lib_common.h"
#include "sw/ascendc/lib/lib_tiling_data.h"

namespace npuvp::ascendc::lib {

enum class Gate { Gelu, FasterGelu, Silu, Swish };

template <Gate gate, typename T>
void sigmoid_gate(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                  const AscendC::LocalTensor<uint8_t>& tmp, uint32_t dataSize, float beta, const char* api) {
  using namespace AscendC;
  require_half_or_float<T>(api);
  require_size(src, dataSize, "srcLocal", api);
  require_size(dst, dataSize, "dstLocal", api);
  const uint32_t per = npuvp::lib_tiling::gate_bytes_per_element(sizeof(T));
  require_tmp(tmp.GetSize(), npuvp::lib_tiling::gate_min_tmp_bytes(sizeof(T)), api);
  const uint32_t chunk = tmp.GetSize() / per / 64 * 64;
  const LocalTensor<float> f = tmp.ReinterpretCast<float>();
  const LocalTensor<float> z = f, xw = f[chunk];
  for (uint32_t i = 0; i < dataSize; i += chunk) {
    const uint32_t n = dataSize - i < chunk ? dataSize - i : chunk;
    const int32_t c = static_cast<int32_t>(n);
    const LocalTensor<float> x = as_float(src[i], xw, n);
    if constexpr (gate == Gate::Gelu) {
      Mul(z, x, x, c);
      Mul(z, z, x, c);
      Muls(z, z, 0.044715f, c);
      Add(z, z, x, c);
      Muls(z, z, -1.59576912f, c);
    } else {
      Muls(z, x, gate == Gate::FasterGelu ? -1.702f : (gate == Gate::Silu ? -1.0f : -beta), c);
    }
    Exp(z, z, c);
    Adds(z, z, 1.0f, c);
    if constexpr (std::is_same<T, float>::value) {
      Div(dst[i], x, z, c);
    } else {
      Div(z, x, z, c);
      from_float(dst[i], z, n);
    }
  }
}

}  // namespace npuvp::ascendc::lib
