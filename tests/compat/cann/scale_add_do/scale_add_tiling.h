// How scale_add_custom splits its work, computed on the host and passed to the kernel by value.
#ifndef SCALE_ADD_TILING_H
#define SCALE_ADD_TILING_H
#include <cstdint>

struct ScaleAddTiling {
  uint32_t totalLength;  // elements of x, y and z
  uint32_t tileLength;   // elements per tile in UB
  float scale;           // z = x * scale + y
};
#endif
