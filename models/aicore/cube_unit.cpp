// PLACEHOLDER so the tree links while the cube unit is being written; replaced wholesale.
#include "models/aicore/cube_unit.h"
namespace npuvp::aicore {
std::string CubeUnit::check(const Mmad&, uint64_t, uint64_t, uint64_t, uint64_t) const { return "Mmad is not implemented yet"; }
uint64_t CubeUnit::cost(const Mmad&) const { return 1; }
void CubeUnit::execute(const Mmad&, const uint8_t*, const uint8_t*, uint8_t*, const uint8_t*) const {}
}  // namespace npuvp::aicore
