// The cube unit: executes Mmad on L0A/L0B into L0C (SPEC.md §1.4). A plain class the M pipe
// calls: check() validates, cost() times, execute() computes on whole fractals.
#pragma once
#include <cstdint>
#include <string>
#include "models/aicore/isa.h"

namespace npuvp::aicore {

class CubeUnit {
 public:
  struct Params {
    bool a2_types = false;    // bf16 x bf16 -> f32 and f32 x f32 -> f32 (A2 products)
    bool f16_output = false;  // f16 x f16 -> f16 in L0C (coupled 910/310P)
    uint64_t head_cycles = 2;               // fixed issue cost of an Mmad
    double f16_fractal_steps_per_cycle = 1;  // 16x16x16 f16 steps per cycle (4096 MAC)
    double s8_fractal_steps_per_cycle = 1;   // 16x32x16 s8 steps per cycle (8192 MAC)
    double f32_fractal_steps_per_cycle = 0.5;  // 16x8x16 f32 steps (2048 MAC): 0.5/cycle = quarter of f16
  };
  CubeUnit() = default;
  explicit CubeUnit(const Params& params) : params_(params) {}

  // Empty if legal; else why not: m/n/k out of [0, 4095], type pair not supported (on this
  // product), operand ranges beyond L0A/L0B/L0C/BT sizes (bt_size 0 = no BT), addresses not
  // 512 B (L0A/L0B), 64 B (L0C, BT) aligned.
  std::string check(const Mmad& op, uint64_t l0a_size, uint64_t l0b_size, uint64_t l0c_size,
                    uint64_t bt_size) const;
  // Cycles on the M pipe: head_cycles + M1 * N1 * K1 / steps_per_cycle of the input type.
  uint64_t cost(const Mmad& op) const;
  // Computes `op` (already checked). Buffers are the whole L0A/L0B/L0C/BT byte arrays.
  void execute(const Mmad& op, const uint8_t* l0a, const uint8_t* l0b, uint8_t* l0c,
               const uint8_t* bt) const;

 private:
  Params params_;
};

}  // namespace npuvp::aicore
