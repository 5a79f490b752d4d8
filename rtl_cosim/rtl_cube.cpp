// RtlCube as an MmadEngine: one Mmad becomes a sequence of fractal steps on the RTL's pins.
#include "rtl_cosim/rtl_cube.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace npuvp::cosim {

using aicore::DType;
using aicore::Mmad;

namespace {
constexpr size_t kOperandBytes = 512;  // one L0A/L0B fractal
constexpr size_t kResultBytes = 1024;  // one f32/s32 L0C fractal
uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
}  // namespace

std::string RtlCube::supports(const Mmad& op) const {
  const bool f16 = op.a_type == DType::F16 && op.b_type == DType::F16 && op.c_type == DType::F32;
  const bool int8 = (op.a_type == DType::S8 || op.a_type == DType::U8) && op.b_type == DType::S8 &&
                    op.c_type == DType::S32;
  if (f16 || int8) return {};
  return fmt::format("runs f16 x f16 -> f32 and s8/u8 x s8 -> s32 only, not {} x {} -> {}",
                     aicore::dtype_name(op.a_type), aicore::dtype_name(op.b_type),
                     aicore::dtype_name(op.c_type));
}

uint64_t RtlCube::run(const Mmad& op, const uint8_t* l0a, const uint8_t* l0b, uint8_t* l0c,
                      const uint8_t* bt) {
  const std::string why = supports(op);
  if (!why.empty()) throw RtlError(why);
  const uint32_t M1 = ceil_div(op.m, 16), N1 = ceil_div(op.n, 16);
  if (M1 == 0 || N1 == 0) return 0;
  const bool f16 = op.a_type == DType::F16;
  const uint32_t K0 = f16 ? 16 : 32;
  const uint32_t K1 = ceil_div(op.k, K0);
  const uint8_t mode = uint8_t(f16 ? CubeMode::F16 : op.a_type == DType::U8 ? CubeMode::U8 : CubeMode::S8);

  // Initial accumulators for in_c: zeros (cmatrixInitVal), the bias row repeated over the 16
  // rows of each fractal column (cmatrixSource), or L0C itself. Fractal 0 of init_ is zeros
  // (also the operands of k = 0 steps).
  const bool use_bias = !op.init_c && op.bias;
  init_.assign(kResultBytes * (1 + (use_bias ? N1 : 0)), 0);
  if (use_bias) {
    for (uint32_t n1 = 0; n1 < N1; ++n1) {
      for (uint32_t row = 0; row < 16; ++row) {
        std::memcpy(init_.data() + kResultBytes * (1 + n1) + row * 64, bt + op.bias_addr + n1 * 64, 64);
      }
    }
  }

  steps_.clear();
  steps_.reserve(size_t(M1) * N1 * std::max(K1, 1u));
  for (uint32_t n1 = 0; n1 < N1; ++n1) {
    for (uint32_t m1 = 0; m1 < M1; ++m1) {
      uint8_t* out = l0c + op.c + (size_t(n1) * M1 + m1) * kResultBytes;  // NZ order
      const uint8_t* c = op.init_c ? init_.data()
                         : use_bias ? init_.data() + kResultBytes * (1 + n1)
                                    : out;
      if (K1 == 0) {  // k = 0: the initial value is the result
        steps_.push_back(CubeStep{true, true, mode, 0, init_.data(), init_.data(), c, out});
        continue;
      }
      for (uint32_t k1 = 0; k1 < K1; ++k1) {
        CubeStep s;
        s.first = k1 == 0;
        s.last = k1 == K1 - 1;
        s.mode = mode;
        s.kcount = uint8_t(std::min(K0, op.k - k1 * K0));
        s.a = l0a + op.a + (size_t(m1) * K1 + k1) * kOperandBytes;  // ZZ
        s.b = l0b + op.b + (size_t(k1) * N1 + n1) * kOperandBytes;  // ZN
        s.c = c;
        s.out = out;
        steps_.push_back(s);
      }
    }
  }
  return run_steps(steps_);
}

}  // namespace npuvp::cosim
