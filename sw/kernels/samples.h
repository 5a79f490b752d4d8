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

struct Sample {
  std::string name;
  std::string description;
  std::function<SampleResult(uint32_t block_dim)> run;  // block_dim 0 = the sample's default
  std::string platform = "minimal";                      // where it runs by default
};

const std::vector<Sample>& samples();
const Sample* find_sample(const std::string& name);

}  // namespace npuvp::kernels
