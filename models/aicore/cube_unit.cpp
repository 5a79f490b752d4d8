// The cube unit (SPEC.md §1.4): Mmad on fractal operands in L0A/L0B into L0C, with the
// layouts and the numeric contract written down at struct Mmad in isa.h. This file is the
// instruction: which Mmads are legal (check), what they cost, and how execute() sets up the
// accumulator (0, the BT bias or L0C itself; an f32 copy of an f16 L0C). The arithmetic is
// the GEMM engine's (cube_gemm.h), kept apart because its fast kernels and the argument that
// they change no bit are a separate matter (cube_gemm.cpp).
#include "models/aicore/cube_unit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <stdexcept>

#include "models/aicore/cube_gemm.h"
#include "models/numerics/fp16.h"

namespace npuvp::aicore {
namespace {
// The file's helpers, in a namespace named after it: a unity batch is one translation unit, in
// which every file's anonymous namespace is the same one. The functions below open it with
// `using namespace` in their bodies; at file scope it would reach the batch's later files.
namespace cube_unit_cpp {

using cube_gemm::kFractalBytes;

constexpr uint32_t kMaxDim = 4095;
constexpr uint64_t kL0abAlign = 512;
constexpr uint64_t kL0cAlign = 64;
constexpr uint64_t kBtAlign = 64;

enum class Kind { F16F32, F16F16, BF16F32, F32F32, S8S32, U8S32 };

uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// The type pair of `op`, or false with the reason it is not supported by `params`.
bool classify(const Mmad& op, const CubeUnit::Params& params, Kind* kind, std::string* why) {
  const DType a = op.a_type, b = op.b_type, c = op.c_type;
  const auto not_on_product = [&] {
    *why = fmt::format("Mmad {} x {} -> {} is not supported on this product", dtype_name(a),
                       dtype_name(b), dtype_name(c));
    return false;
  };
  if ((a == DType::S8 || a == DType::U8) && b == DType::S8 && c == DType::S32) {
    *kind = a == DType::S8 ? Kind::S8S32 : Kind::U8S32;
    return true;
  }
  if (a == DType::F16 && b == DType::F16 && c == DType::F32) {
    *kind = Kind::F16F32;
    return true;
  }
  if (a == DType::F16 && b == DType::F16 && c == DType::F16) {
    *kind = Kind::F16F16;
    return params.f16_output ? true : not_on_product();
  }
  if (a == DType::BF16 && b == DType::BF16 && c == DType::F32) {
    *kind = Kind::BF16F32;
    return params.a2_types ? true : not_on_product();
  }
  if (a == DType::F32 && b == DType::F32 && c == DType::F32) {
    *kind = Kind::F32F32;
    return params.a2_types ? true : not_on_product();
  }
  *why = fmt::format("type pair {} x {} -> {} is not supported", dtype_name(a), dtype_name(b),
                     dtype_name(c));
  return false;
}

}  // namespace cube_unit_cpp
}  // namespace

std::string CubeUnit::check(const Mmad& op, uint64_t l0a_size, uint64_t l0b_size,
                            uint64_t l0c_size, uint64_t bt_size) const {
  using namespace cube_unit_cpp;
  const struct {
    const char* name;
    uint32_t value;
  } dims[] = {{"m", op.m}, {"n", op.n}, {"k", op.k}};
  for (const auto& d : dims) {
    if (d.value > kMaxDim) {
      return fmt::format("{} {} out of range [0, {}]", d.name, d.value, kMaxDim);
    }
  }
  Kind kind;
  std::string why;
  if (!classify(op, params_, &kind, &why)) return why;
  // cmatrixInitVal wins: BT is read only when the accumulator does not start at 0.
  const bool use_bias = !op.init_c && op.bias;
  if (use_bias) {
    if (bt_size == 0) return "this product has no BiasTable (cmatrixSource needs BT)";
    if (op.c_type != DType::F32) {
      return fmt::format("bias (cmatrixSource) needs an f32 L0C, not {}", dtype_name(op.c_type));
    }
  }
  if (op.a % kL0abAlign != 0) return fmt::format("A address {:#x} not 512 B aligned", op.a);
  if (op.b % kL0abAlign != 0) return fmt::format("B address {:#x} not 512 B aligned", op.b);
  if (op.c % kL0cAlign != 0) return fmt::format("C address {:#x} not 64 B aligned", op.c);
  if (use_bias && op.bias_addr % kBtAlign != 0) {
    return fmt::format("bias address {:#x} not 64 B aligned", op.bias_addr);
  }
  const uint64_t K0 = 32 / dtype_size(op.a_type);
  const uint64_t M1 = ceil_div(op.m, 16), N1 = ceil_div(op.n, 16);
  const uint64_t K1 = (op.k + K0 - 1) / K0;
  if (M1 == 0 || N1 == 0) return {};  // nothing is read or written
  const struct {
    const char* name;
    const char* space;
    uint64_t addr, bytes, size;
  } ranges[] = {
      {"A", "L0A", op.a, M1 * K1 * kFractalBytes, l0a_size},
      {"B", "L0B", op.b, K1 * N1 * kFractalBytes, l0b_size},
      {"C", "L0C", op.c, M1 * N1 * 256 * dtype_size(op.c_type), l0c_size},
      {"bias", "BT", op.bias_addr, use_bias ? N1 * 16 * 4 : 0, bt_size},
  };
  for (const auto& r : ranges) {
    if (r.bytes == 0) continue;
    if (r.bytes > r.size || r.addr > r.size - r.bytes) {
      // The end is printed with wrap-around protection: addr + bytes may exceed 64 bits.
      const uint64_t end = r.addr > ~0ull - r.bytes ? ~0ull : r.addr + r.bytes;
      return fmt::format("{} range [{:#x}, {:#x}) exceeds {} size {:#x}", r.name, r.addr, end,
                         r.space, r.size);
    }
  }
  return {};
}

uint64_t CubeUnit::cost(const Mmad& op) const {
  using namespace cube_unit_cpp;
  const uint64_t K0 = 32 / dtype_size(op.a_type);
  const uint64_t steps = uint64_t(ceil_div(op.m, 16)) * ceil_div(op.n, 16) * ((op.k + K0 - 1) / K0);
  if (steps == 0) return params_.head_cycles;
  double rate;
  switch (op.a_type) {
    case DType::S8: case DType::U8: rate = params_.s8_fractal_steps_per_cycle; break;
    case DType::F32: rate = params_.f32_fractal_steps_per_cycle; break;
    default: rate = params_.f16_fractal_steps_per_cycle; break;
  }
  // A non-positive rate is a configuration error: use 1 rather than divide by zero. The
  // epsilon keeps e.g. 3 / 0.1 from rounding up to 31.
  if (!(rate > 0)) rate = 1.0;
  const double cycles = std::ceil(static_cast<double>(steps) / rate - 1e-9);
  return params_.head_cycles + static_cast<uint64_t>(std::max(cycles, 1.0));
}

void CubeUnit::execute(const Mmad& op, const uint8_t* l0a, const uint8_t* l0b, uint8_t* l0c,
                       const uint8_t* bt) const {
  using namespace cube_unit_cpp;
  Kind kind;
  std::string why;
  if (!classify(op, params_, &kind, &why)) throw std::logic_error("CubeUnit::execute: " + why);
  if (op.m == 0 || op.n == 0) return;
  const uint32_t M1 = ceil_div(op.m, 16), N1 = ceil_div(op.n, 16);
  const size_t M = size_t(M1) * 16, N = size_t(N1) * 16;
  const bool use_bias = !op.init_c && op.bias;

  if (kind == Kind::S8S32 || kind == Kind::U8S32) {
    // s32 accumulates in place in L0C; bias needs f32 C, so it was refused by check().
    auto* c = reinterpret_cast<int32_t*>(l0c + op.c);
    if (op.init_c) std::memset(c, 0, M * N * 4);
    if (op.k == 0) return;
    cube_gemm::mmad_int(l0a + op.a, kind == Kind::U8S32, l0b + op.b, M1, N1, op.k, c);
    return;
  }

  // Float types. The accumulator is L0C itself for f32 C, else an f32 copy of it.
  const bool f16_out = kind == Kind::F16F16;
  float* c = f16_out ? cube_gemm::f32_accumulator(M * N) : reinterpret_cast<float*>(l0c + op.c);
  if (op.init_c) {
    std::memset(c, 0, M * N * 4);
  } else if (use_bias) {
    float bias[16];
    for (uint32_t n1 = 0; n1 < N1; ++n1) {
      std::memcpy(bias, bt + op.bias_addr + size_t(n1) * 64, sizeof bias);
      float* panel = c + n1 * M * 16;
      for (size_t i = 0; i < M; ++i) std::memcpy(panel + i * 16, bias, sizeof bias);
    }
  } else if (f16_out) {
    f16_to_f32(reinterpret_cast<const _Float16*>(l0c + op.c), c, M * N);
  }
  if (op.k > 0) cube_gemm::mmad_float(l0a + op.a, l0b + op.b, op.a_type, M1, N1, op.k, c);
  if (f16_out) f32_to_f16(c, reinterpret_cast<_Float16*>(l0c + op.c), M * N);
}

}  // namespace npuvp::aicore