// Sample programs for the MN-Core 2 board: each has a host program that fills inputs,
// moves them down the tree, runs the kernel on every PE, brings the result back and checks
// it bit for bit against a plain C++ reference of the numeric contract.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sw/runtime/mncore2_host.h"

namespace npuvp::mncore::kernels {

struct SampleResult {
  bool passed = false;
  std::string detail;           // "4096 elements match ..." or the first mismatch
  std::vector<Phase> phases;    // in order
  double flops = 0;             // useful floating-point operations of the kernel
  std::string compute_phase;    // the phase the throughput is quoted for
  std::vector<std::string> on_chip_phases;  // phases that run without the host
};

struct Sample {
  std::string name;
  std::string description;
  std::function<SampleResult(Board&)> run;
};

const std::vector<Sample>& samples();
const Sample* find_sample(const std::string& name);

// The samples with their sizes as parameters (the registry uses defaults that fit the
// configured board).
SampleResult run_elementwise(Board& board, unsigned halves_per_pe);
SampleResult run_tree_sum(Board& board, unsigned singles_per_pe);

}  // namespace npuvp::mncore::kernels
