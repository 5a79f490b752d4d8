// Who computes an Mmad on the M pipe (core.cube.impl): the cube model (CubeUnit, default),
// an RTL cube co-simulated under Verilator (rtl_cosim/), or both in lockstep, compared after
// every Mmad. The core only sees two small interfaces: MmadEngine (something that executes an
// Mmad on the L0 buffers and says how many cycles it took) and CubePath (the M pipe's choice
// among model, RTL and lockstep). RTL cubes are found by name in a registry, so this library
// builds without Verilator; a build with Verilator registers its cubes there. No SystemC here:
// the Mmad lasts the cycles CubePath::start returns.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>
#include "models/aicore/cube_unit.h"
#include "models/aicore/isa.h"
#include "tlm/stats.h"

namespace npuvp::aicore {

// Executes Mmad instructions as CubeUnit::execute does: on the whole L0A/L0B/L0C/BT byte
// arrays (bt may be nullptr), for an op CubeUnit::check accepted.
class MmadEngine {
 public:
  virtual ~MmadEngine() = default;
  // Empty if this engine can run `op`; else why not.
  virtual std::string supports(const Mmad& op) const = 0;
  // Runs `op` and returns the cycles it took. Throws std::runtime_error if the engine fails.
  virtual uint64_t run(const Mmad& op, const uint8_t* l0a, const uint8_t* l0b, uint8_t* l0c,
                       const uint8_t* bt) = 0;
};

// ---- The registry of RTL cubes.
struct RtlCubeOptions {
  std::string instance;  // the core it serves, for messages ("soc.core0")
  std::string vcd_path;  // waveform file; empty: none
};
using RtlCubeFactory = std::function<std::unique_ptr<MmadEngine>(const RtlCubeOptions&)>;
// Adds (or replaces) an RTL cube under `name`, selectable with cosim.rtl=<name>.
void register_rtl_cube(const std::string& name, RtlCubeFactory factory);
// The registered names (with Verilator: "npuvp_cube" and the broken "npuvp_cube_truncate").
std::vector<std::string> rtl_cube_names();
// Whether this build has Verilator co-simulation (NPUVP_WITH_VERILATOR).
bool have_verilator();

// Raised (as its message) when an Mmad cannot complete: lockstep mismatch, RTL failure.
struct CubeFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The M pipe's cube.
class CubePath {
 public:
  enum class Impl { Model, Rtl, Lockstep };
  struct Params {
    Impl impl = Impl::Model;
    std::string rtl = "npuvp_cube";  // cosim.rtl: which registered RTL cube
    std::string vcd;                 // cosim.vcd: waveform file (core N > 0 adds ".coreN")
  };
  // Reads core.cube.impl, cosim.rtl and cosim.vcd from the global Config.
  static Params params_from_config();
  static const char* impl_name(Impl impl);

  // `block` names the core in messages ("soc.core0"), `stats_prefix` in statistics ("core0").
  // Raises a configuration error if an RTL is asked for and none is available.
  CubePath(const std::string& block, const std::string& stats_prefix, int core_id,
           const CubeUnit& model, const Params& params);
  ~CubePath();
  CubePath(const CubePath&) = delete;
  CubePath& operator=(const CubePath&) = delete;

  const Params& params() const { return params_; }
  // Empty if the selected engine(s) can run `op` (which CubeUnit::check accepted).
  std::string check(const Mmad& op) const;
  // The L0 buffers an Mmad works on (whole byte arrays; bt may be nullptr).
  struct Buffers {
    const uint8_t* l0a;
    const uint8_t* l0b;
    uint8_t* l0c;
    const uint8_t* bt;
  };
  // An Mmad on the M pipe is start() when it starts, lasting the cycles it returns, then
  // finish() when it completes.
  // start: the model's cost (model, lockstep), or the RTL's cycles (rtl: the RTL runs now,
  // on the operands as they are, into a staging copy of C).
  // finish: the model computes (model), the RTL's result lands in L0C (rtl), or the model
  // computes, the RTL runs on a copy of C, and both must agree (lockstep).
  // Both throw CubeFault on an RTL failure; finish on a lockstep mismatch (the first one:
  // instruction, fractal, element, both values).
  uint64_t start(const Mmad& op, const Buffers& l0);
  void finish(const Mmad& op, const Buffers& l0);

 private:
  uint64_t run_rtl(const Mmad& op, const uint8_t* l0a, const uint8_t* l0b, const uint8_t* bt);
  std::string mismatch(const Mmad& op, const uint8_t* model_c) const;

  std::string block_;
  const CubeUnit& model_;
  Params params_;
  std::unique_ptr<MmadEngine> rtl_;
  std::vector<uint8_t> staging_;  // the RTL's copy of the Mmad's C region
  uint64_t mmads_ = 0;
  Counter* rtl_cycles_ = nullptr;
  Counter* rtl_mmads_ = nullptr;
  Counter* model_cycles_ = nullptr;
};

}  // namespace npuvp::aicore
