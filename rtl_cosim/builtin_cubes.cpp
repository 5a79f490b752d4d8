// The cube RTLs verilated into this library (rtl_cosim/CMakeLists.txt).
#include <fmt/format.h>

#include "Vnpuvp_cube.h"
#include "Vnpuvp_cube_truncate.h"
#include "rtl_cosim/rtl_cube.h"
#include "rtl_cosim/verilated_cube.h"

namespace npuvp::cosim {

std::vector<std::string> builtin_rtl_cubes() { return {"npuvp_cube", "npuvp_cube_truncate"}; }

std::unique_ptr<RtlCube> make_rtl_cube(const std::string& name,
                                       const aicore::RtlCubeOptions& options) {
  if (name == "npuvp_cube") return std::make_unique<VerilatedCube<Vnpuvp_cube>>(name, options);
  if (name == "npuvp_cube_truncate") {
    return std::make_unique<VerilatedCube<Vnpuvp_cube_truncate>>(name, options);
  }
  throw RtlError(fmt::format("no built-in RTL cube named {}", name));
}

void register_builtin_rtl_cubes() {
  for (const std::string& name : builtin_rtl_cubes()) {
    aicore::register_rtl_cube(name, [name](const aicore::RtlCubeOptions& options) {
      return std::unique_ptr<aicore::MmadEngine>(make_rtl_cube(name, options));
    });
  }
}

}  // namespace npuvp::cosim
