#include "models/aicore/mmad_engine.h"

#include <fmt/format.h>

#include <cstring>
#include <map>

#include "tlm/config.h"
#include "tlm/log.h"

#if NPUVP_HAVE_VERILATOR
namespace npuvp::cosim {
void register_builtin_rtl_cubes();  // rtl_cosim/rtl_cube.cpp
}  // namespace npuvp::cosim
#endif

namespace npuvp::aicore {
namespace {
namespace mmad_engine_cpp {  // named after the file: unity batches share anonymous namespaces

// The RTL cubes by name. The built-in ones are registered on first use, before any other, so
// that a cube registered under the same name replaces the built-in one.
std::map<std::string, RtlCubeFactory>& registry() {
  static std::map<std::string, RtlCubeFactory> cubes;
#if NPUVP_HAVE_VERILATOR
  static bool registered = false, registering = false;
  if (!registered && !registering) {
    registering = true;  // register_builtin_rtl_cubes() comes back here
    cosim::register_builtin_rtl_cubes();
    registering = false;
    registered = true;
  }
#endif
  return cubes;
}

uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// Bytes of the C region an Mmad writes: M1 x N1 fractals of 256 elements.
uint64_t c_region_bytes(const Mmad& op) {
  return uint64_t(ceil_div(op.m, 16)) * ceil_div(op.n, 16) * 256 * dtype_size(op.c_type);
}

// cosim.vcd for core `id`: core 0 uses the name as given, core N "name.coreN.vcd".
std::string vcd_for_core(const std::string& path, int id) {
  if (path.empty() || id == 0) return path;
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  const bool has_ext = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  const std::string stem = has_ext ? path.substr(0, dot) : path;
  return fmt::format("{}.core{}{}", stem, id, has_ext ? path.substr(dot) : "");
}

std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "none" : s;
}

}  // namespace mmad_engine_cpp
}  // namespace

void register_rtl_cube(const std::string& name, RtlCubeFactory factory) {
  mmad_engine_cpp::registry()[name] = std::move(factory);
}

std::vector<std::string> rtl_cube_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : mmad_engine_cpp::registry()) names.push_back(name);
  return names;
}

bool have_verilator() {
#if NPUVP_HAVE_VERILATOR
  return true;
#else
  return false;
#endif
}

const char* CubePath::impl_name(Impl impl) {
  switch (impl) {
    case Impl::Rtl: return "rtl";
    case Impl::Lockstep: return "lockstep";
    default: return "model";
  }
}

CubePath::Params CubePath::params_from_config() {
  Config& c = Config::global();
  Params p;
  const std::string impl =
      c.get<std::string>("core.cube.impl", impl_name(p.impl),
                         "who computes Mmad: model (the C++ cube), rtl (the Verilated cube RTL) "
                         "or lockstep (both, L0C compared after every Mmad)");
  if (impl == "model") {
    p.impl = Impl::Model;
  } else if (impl == "rtl") {
    p.impl = Impl::Rtl;
  } else if (impl == "lockstep") {
    p.impl = Impl::Lockstep;
  } else {
    raise("config", "core.cube.impl must be model, rtl or lockstep, got '{}'", impl);
  }
  p.rtl = c.get<std::string>("cosim.rtl", p.rtl,
                             "the RTL cube for core.cube.impl=rtl/lockstep (a registered name)");
  p.vcd = c.get<std::string>("cosim.vcd", p.vcd,
                             "waveform (VCD) of the RTL cube; core N > 0 writes FILE.coreN.vcd");
  return p;
}

CubePath::CubePath(const std::string& block, const std::string& stats_prefix, int core_id,
                   const CubeUnit& model, const Params& params)
    : block_(block), model_(model), params_(params) {
  if (params_.impl == Impl::Model) return;
  auto& cubes = mmad_engine_cpp::registry();
  const auto it = cubes.find(params_.rtl);
  if (it == cubes.end() && !have_verilator()) {
    raise(block_,
          "core.cube.impl={} needs the RTL cube {}, but this build has no Verilator "
          "co-simulation (install verilator and configure with -DNPUVP_WITH_VERILATOR=ON)",
          impl_name(params_.impl), params_.rtl);
  }
  if (it == cubes.end()) {
    raise(block_, "cosim.rtl={}: no such RTL cube (this build has: {})", params_.rtl,
          mmad_engine_cpp::join(rtl_cube_names()));
  }
  try {
    rtl_ = it->second(RtlCubeOptions{block_, mmad_engine_cpp::vcd_for_core(params_.vcd, core_id)});
  } catch (const std::exception& e) {
    raise(block_, "cannot start the RTL cube {}: {}", params_.rtl, e.what());
  }
  Stats& stats = Stats::global();
  rtl_cycles_ = &stats.counter(stats_prefix + ".M.cube.rtl_cycles", "cycles",
                               "cycles the RTL cube took for its Mmads");
  rtl_mmads_ = &stats.counter(stats_prefix + ".M.cube.rtl_mmads", "instructions",
                              "Mmads run on the RTL cube");
  model_cycles_ = &stats.counter(stats_prefix + ".M.cube.model_cycles", "cycles",
                                 "the cube model's cost of the same Mmads");
}

CubePath::~CubePath() = default;

std::string CubePath::check(const Mmad& op) const {
  if (!rtl_) return {};
  std::string why = rtl_->supports(op);
  if (!why.empty()) {
    why = fmt::format("core.cube.impl={}: the RTL cube {} {}", impl_name(params_.impl),
                      params_.rtl, why);
  }
  return why;
}

uint64_t CubePath::run_rtl(const Mmad& op, const uint8_t* l0a, const uint8_t* l0b,
                           const uint8_t* bt) {
  // staging_ holds the Mmad's C region (its initial values in, the RTL's results out).
  Mmad local = op;
  local.c = 0;
  uint64_t cycles;
  try {
    cycles = rtl_->run(local, l0a, l0b, staging_.data(), bt);
  } catch (const std::exception& e) {
    throw CubeFault(fmt::format("{}: RTL cube {} failed: {}", describe(op), params_.rtl, e.what()));
  }
  ++*rtl_mmads_;
  *rtl_cycles_ += cycles;
  *model_cycles_ += model_.cost(op);
  return cycles;
}

uint64_t CubePath::start(const Mmad& op, const Buffers& l0) {
  ++mmads_;
  if (params_.impl != Impl::Rtl) return model_.cost(op);
  // The RTL reads the operands when the Mmad starts; its result lands in L0C when its
  // cycles have passed (the model computes at the end; a kernel whose flags are right sees
  // no difference).
  staging_.assign(l0.l0c + op.c, l0.l0c + op.c + mmad_engine_cpp::c_region_bytes(op));
  return run_rtl(op, l0.l0a, l0.l0b, l0.bt);
}

void CubePath::finish(const Mmad& op, const Buffers& l0) {
  const uint64_t bytes = mmad_engine_cpp::c_region_bytes(op);
  switch (params_.impl) {
    case Impl::Model:
      model_.execute(op, l0.l0a, l0.l0b, l0.l0c, l0.bt);
      return;
    case Impl::Rtl:
      if (bytes) std::memcpy(l0.l0c + op.c, staging_.data(), bytes);
      return;
    case Impl::Lockstep:
      // Time is the model's; the RTL runs on a copy of the C region and must agree bit for bit.
      staging_.assign(l0.l0c + op.c, l0.l0c + op.c + bytes);
      model_.execute(op, l0.l0a, l0.l0b, l0.l0c, l0.bt);
      run_rtl(op, l0.l0a, l0.l0b, l0.bt);
      if (bytes && std::memcmp(staging_.data(), l0.l0c + op.c, bytes) != 0) {
        throw CubeFault(mismatch(op, l0.l0c + op.c));
      }
      return;
  }
}

// The first differing element of staging_ (RTL) against `model_c`, and how many differ.
std::string CubePath::mismatch(const Mmad& op, const uint8_t* model_c) const {
  const uint32_t M1 = mmad_engine_cpp::ceil_div(op.m, 16);
  const unsigned size = dtype_size(op.c_type);
  const size_t count = staging_.size() / size;
  size_t first = count, differ = 0;
  for (size_t e = 0; e < count; ++e) {
    if (std::memcmp(staging_.data() + e * size, model_c + e * size, size) != 0) {
      if (first == count) first = e;
      ++differ;
    }
  }
  uint32_t want = 0, got = 0;
  std::memcpy(&want, model_c + first * size, size);
  std::memcpy(&got, staging_.data() + first * size, size);
  const size_t fractal = first / 256, row = first % 256 / 16, col = first % 16;
  const size_t m1 = fractal % M1, n1 = fractal / M1;
  const auto value = [&](uint32_t bits) {
    if (op.c_type == DType::F32) {
      float f;
      std::memcpy(&f, &bits, 4);
      return fmt::format("0x{:08x} ({})", bits, f);
    }
    return fmt::format("0x{:08x} ({})", bits, int32_t(bits));
  };
  return fmt::format(
      "lockstep mismatch in Mmad #{} of this core ({}): L0C fractal (m1={}, n1={}) at "
      "L0C:0x{:x}, element (row {}, col {}) = C[{}][{}]: model {}, RTL {} {}; {} of {} "
      "elements differ. Stopping.",
      mmads_, describe(op), m1, n1, op.c + fractal * 256 * size, row, col, m1 * 16 + row,
      n1 * 16 + col, value(want), params_.rtl, value(got), differ, count);
}

}  // namespace npuvp::aicore
