// Call sites for the sanitizer's reports: the return addresses of the stack when the scalar
// unit issues an instruction (captured cheaply, without changing any API signature, so it
// works for every front end and for kernels built elsewhere), resolved to the first frame
// outside npuvp's own kernel API and models (the kernel's file:line) only when a report
// needs it, through the binary's debug information: every site a batch of reports names in
// one call of elfutils' eu-addr2line per binary (binutils' addr2line when it is missing).
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace npuvp::check {

class SiteTable {
 public:
  static constexpr int kDepth = 10;
  // The current call stack's site (equal stacks, equal ids). 0 is "no site".
  uint32_t capture();
  // "kernel.cpp:42" (or the nearest frame found, or "unknown site").
  const std::string& where(uint32_t site);
  // Resolves these sites at once (where() of each is then a lookup): one tool run per binary
  // for all their frames, rather than one round trip per site.
  void resolve_all(const std::vector<uint32_t>& sites);

 private:
  struct Stack {
    void* pcs[kDepth];
    int n = 0;
  };
  std::vector<Stack> stacks_{Stack{}};
  std::unordered_map<uint64_t, std::vector<uint32_t>> by_hash_;
  std::unordered_map<uint32_t, std::string> resolved_;
  // (function, file:line) of each frame address asked so far (innermost inline first).
  using Lines = std::vector<std::pair<std::string, std::string>>;
  std::unordered_map<uintptr_t, Lines> frames_;
  std::string resolve(const Stack& s);
};

}  // namespace npuvp::check
