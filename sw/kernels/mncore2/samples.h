// Sample programs for the MN-Core 2 board, written in VSM (PFN's assembly language): each
// sample fills its inputs into the PEs' memories (what a test case's `d set` lines do),
// generates its VSM program, runs it on the step machine and checks the results bit for bit
// against a plain C++ reference of the numeric contract (docs/mncore2-isa.md).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/mncore/vsm.h"

namespace npuvp::mncore::kernels {

struct SampleResult {
  bool passed = false;
  std::string detail;       // "... match the reference bit for bit" or the first mismatch
  std::string program;      // the VSM text that ran
  uint64_t steps = 0;       // the program's instruction steps (the challenge's score)
  vsm::RunStats run;        // steps issued, cycles (with wait stalls), unit counts, MACs
  double flops = 0;         // useful floating-point operations of the program
};

struct Sample {
  std::string name;
  std::string description;
  std::function<SampleResult(vsm::Machine&)> run;
};

const std::vector<Sample>& samples();
const Sample* find_sample(const std::string& name);

// The samples with their sizes as parameters (the registry uses the defaults).
// z = max(x*y, x+y) over `singles_per_pe` singles of x (LM0) and y (LM1) in every PE.
SampleResult run_elementwise(vsm::Machine& m, unsigned singles_per_pe);
// 8 singles per PE summed over the whole board up the tree and broadcast back to every PE.
SampleResult run_tree_sum(vsm::Machine& m);
// Y = X W^T per MAB on the MAUs: W 16 x 16 halves, `steps` x 4 rows of X (16 halves each),
// Y in singles.
SampleResult run_gemm(vsm::Machine& m, unsigned steps);

}  // namespace npuvp::mncore::kernels
