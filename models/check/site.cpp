#include "models/check/site.h"

#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <execinfo.h>
#include <fmt/format.h>

namespace npuvp::check {

uint32_t SiteTable::capture() {
  Stack s;
  s.n = backtrace(s.pcs, kDepth);
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < s.n; ++i) h = (h ^ reinterpret_cast<uintptr_t>(s.pcs[i])) * 1099511628211ull;
  std::vector<uint32_t>& same = by_hash_[h];
  for (uint32_t id : same) {
    const Stack& t = stacks_[id];
    if (t.n == s.n && std::memcmp(t.pcs, s.pcs, sizeof(void*) * size_t(s.n)) == 0) return id;
  }
  stacks_.push_back(s);
  same.push_back(uint32_t(stacks_.size() - 1));
  return uint32_t(stacks_.size() - 1);
}

const std::string& SiteTable::where(uint32_t site) {
  auto it = resolved_.find(site);
  if (it != resolved_.end()) return it->second;
  return resolved_[site] = site < stacks_.size() && stacks_[site].n ? resolve(stacks_[site]) : "unknown site";
}

namespace {
// npuvp's own code: a frame there is the API or the model, not the kernel.
bool ours(const std::string& file) {
  for (const char* dir : {"/models/", "/sw/ascendc/", "/sw/runtime/", "/tlm/", "/platforms/", "/usr/include/",
                          "/usr/lib/", "/include/c++/", "/sysdeps/", "/csu/"}) {
    if (file.find(dir) != std::string::npos) return true;
  }
  return file.empty() || file[0] == '?';
}

// addr2line's answer for one address of `binary`: (function, file:line) pairs, innermost first.
std::vector<std::pair<std::string, std::string>> lines_of(const char* binary, uintptr_t address) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::string cmd = fmt::format("addr2line -C -f -i -e '{}' 0x{:x} 2>/dev/null", binary, address);
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char fn[4096], at[4096];
  while (std::fgets(fn, sizeof fn, p) && std::fgets(at, sizeof at, p)) {
    fn[std::strcspn(fn, "\n")] = 0;
    at[std::strcspn(at, "\n")] = 0;
    std::string where = at;
    if (auto d = where.find(" (discriminator"); d != std::string::npos) where.resize(d);
    out.emplace_back(fn, where);
  }
  pclose(p);
  return out;
}
}  // namespace

std::string SiteTable::resolve(const Stack& s) {
  std::string fallback;
  for (int i = 1; i < s.n; ++i) {
    Dl_info info{};
    if (dladdr(s.pcs[i], &info) == 0 || !info.dli_fname) continue;
    const uintptr_t pc = reinterpret_cast<uintptr_t>(s.pcs[i]) - 1;  // inside the call, not after it
    const uintptr_t base = reinterpret_cast<uintptr_t>(info.dli_fbase);
    const char* binary = std::strchr(info.dli_fname, '/') ? info.dli_fname : "/proc/self/exe";
    auto lines = lines_of(binary, pc - base);
    if (lines.empty() || lines[0].second[0] == '?') lines = lines_of(binary, pc);  // not position independent
    for (const auto& [fn, at] : lines) {
      if (!ours(at)) {
        // Only the file's name and line: the rest of the path is the build machine's.
        const size_t slash = at.rfind('/');
        return (slash == std::string::npos ? at : at.substr(slash + 1)) + " (" + fn.substr(0, fn.find('(')) + ")";
      }
      if (fallback.empty() && !at.empty() && at[0] != '?') fallback = at.substr(at.rfind('/') + 1);
    }
  }
  return fallback.empty() ? "unknown site (no debug information)" : fallback;
}

}  // namespace npuvp::check
