// The built-in sample kernels: each has a host program that fills inputs, launches the kernel
// on the device, and checks the output bit for bit against a plain C++ reference.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace npuvp::kernels {

struct SampleResult {
  bool passed = false;
  std::string detail;  // "16384 elements match" or the first mismatch
};

// How a run is sized: blockDim (0 = the sample's default) and a problem-size multiplier
// (1 = the default shape; the description says what a sample scales, and a sample with a
// fixed shape ignores it). Converts from a plain blockDim.
struct SampleArgs {
  SampleArgs(uint32_t block_dim_ = 0, uint32_t scale_ = 1) : block_dim(block_dim_), scale(scale_) {}
  uint32_t block_dim;
  uint32_t scale;
};

struct Sample {
  std::string name;
  std::string description;
  std::function<SampleResult(const SampleArgs&)> run;
  std::string platform = "minimal";                      // where it runs by default
};

const std::vector<Sample>& samples();
const Sample* find_sample(const std::string& name);

}  // namespace npuvp::kernels
