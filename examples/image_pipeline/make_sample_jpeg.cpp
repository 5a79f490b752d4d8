// Writes the image pipeline's sample picture (issue 28): `npuvp_make_sample_jpeg OUT.jpg [W H]`.
// The build runs it to make build/sample.jpg, so `npuvp run image_pipeline` has a JPEG without
// any download.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include "sw/kernels/image_pipeline.h"

int main(int argc, char** argv) {
  if (argc != 2 && argc != 4) {
    std::fprintf(stderr, "usage: %s OUT.jpg [WIDTH HEIGHT]\n", argv[0]);
    return 2;
  }
  const long w = argc == 4 ? std::atol(argv[2]) : 640, h = argc == 4 ? std::atol(argv[3]) : 480;
  if (w < 1 || h < 1 || w > 16384 || h > 16384) {
    std::fprintf(stderr, "%s: width and height must be in [1, 16384]\n", argv[0]);
    return 2;
  }
  try {
    const auto jpeg = npuvp::kernels::make_sample_jpeg(uint32_t(w), uint32_t(h));
    FILE* f = std::fopen(argv[1], "wb");
    if (!f || std::fwrite(jpeg.data(), 1, jpeg.size(), f) != jpeg.size() || std::fclose(f) != 0) {
      std::fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[1]);
      return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 1;
  }
  return 0;
}
