// The transactor's view of a cube RTL: the pins of rtl_cosim/rtl/npuvp_cube.sv, driven one
// fractal step per cycle. This header needs no Verilator include: the Verilated model lives
// behind RtlCube (verilated_cube.h), so tests and tools can drive any registered cube.
//
// Port list (every cube RTL used here has it; see docs/rtl-cosim.md):
//   clk, rst_n (synchronous, active low)
//   in_valid, in_first, in_last, in_mode[1:0], in_kcount[5:0],
//   in_a[4095:0], in_b[4095:0], in_c[8191:0]        one step in, when in_valid
//   out_valid, out_c[8191:0]                          one finished output fractal out
// A step multiplies an A fractal (L0A image, 512 B) by a B fractal (L0B image, 512 B) into the
// accumulator of one output fractal: in_first starts it from in_c (1 KiB, NZ image), in_last
// sends it out on out_c when done. in_kcount is how many k of the step are inside the Mmad.
// Byte x of a fractal image is at bits [8x + 7 : 8x].
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>
#include "models/aicore/mmad_engine.h"

namespace npuvp::cosim {

// in_mode values.
enum class CubeMode : uint8_t { F16 = 0, S8 = 1, U8 = 2 };

struct CubeStep {
  bool first = true;
  bool last = true;
  uint8_t mode = 0;              // in_mode
  uint8_t kcount = 16;           // in_kcount
  const uint8_t* a = nullptr;    // 512 B
  const uint8_t* b = nullptr;    // 512 B
  const uint8_t* c = nullptr;    // 1 KiB, read when first
  uint8_t* out = nullptr;        // 1 KiB, written when the result of a last step comes out
};

// The RTL stopped the simulation ($stop, $error, $fatal, $finish, a Verilator fatal error) or
// broke the protocol (no result, a result nobody waited for).
struct RtlError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class RtlCube : public aicore::MmadEngine {
 public:
  // Runs `steps` back to back, one per cycle, and waits for every result; each last step's
  // result goes to its `out`. Returns the cycles from the one the first step is presented in
  // to the one its last result is on out_c, both included. Throws RtlError.
  virtual uint64_t run_steps(const std::vector<CubeStep>& steps) = 0;
  // Cycles simulated since reset.
  virtual uint64_t cycles() const = 0;
  // The registered name of the RTL ("npuvp_cube").
  virtual const std::string& rtl_name() const = 0;

  // MmadEngine: f16 x f16 -> f32 and s8/u8 x s8 -> s32, every output fractal's k1 steps in
  // a row (output fractals in L0C order), as run_steps.
  std::string supports(const aicore::Mmad& op) const override;
  uint64_t run(const aicore::Mmad& op, const uint8_t* l0a, const uint8_t* l0b, uint8_t* l0c,
               const uint8_t* bt) override;

 private:
  std::vector<CubeStep> steps_;
  std::vector<uint8_t> init_;  // zero or bias fractals for in_c
};

// The cube RTLs built into this library: "npuvp_cube" and "npuvp_cube_truncate" (the same RTL
// with ROUND_TRUNCATE=1: rounds toward zero, deliberately wrong, to show lockstep catching it).
std::vector<std::string> builtin_rtl_cubes();
// A new instance (its own Verilated model and context), reset. Throws RtlError for an unknown
// name or a waveform file that cannot be opened.
std::unique_ptr<RtlCube> make_rtl_cube(const std::string& name,
                                       const aicore::RtlCubeOptions& options = {});
// Registers the built-in cubes with models/aicore (called once by the registry).
void register_builtin_rtl_cubes();

namespace detail {
// Calls Verilator's $finish (twice), $stop and fatal-error hooks directly and returns what
// they recorded: with the defaults the process would have exited or aborted.
std::vector<std::string> exercise_verilator_hooks();
}  // namespace detail

}  // namespace npuvp::cosim
