#include "models/check/site.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <map>
#include <memory>
#include <sys/wait.h>
#include <unistd.h>
#include <fmt/format.h>

namespace npuvp::check {

namespace {
using Backtrace = int (*)(void**, int);

// libunwind's unw_backtrace (package libunwind8) remembers each code address's frame layout,
// so a stack seen before costs a few loads per frame instead of glibc's backtrace()
// interpreting the DWARF unwind tables again (that was most of the sanitizer's cost). It is
// opened privately (RTLD_LOCAL): linked in, its _Unwind_* and backtrace would replace the
// C++ runtime's for the whole process. Without it, glibc's backtrace().
Backtrace cached_unwinder() {
  static const Backtrace fn = []() -> Backtrace {
    void* lib = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return nullptr;
    // Each thread its own cache of frame layouts: no lock per frame (the simulation is one
    // thread; SystemC's coroutines share it).
    using SetPolicy = int (*)(void*, int);
    auto set_policy = reinterpret_cast<SetPolicy>(dlsym(lib, "_ULx86_64_set_caching_policy"));
    auto** space = reinterpret_cast<void**>(dlsym(lib, "_ULx86_64_local_addr_space"));
    if (set_policy && space && *space) set_policy(*space, 2 /* UNW_CACHE_PER_THREAD */);
    return reinterpret_cast<Backtrace>(dlsym(lib, "unw_backtrace"));
  }();
  return fn;
}
}  // namespace

uint32_t SiteTable::capture() {
  Stack s;
  if (Backtrace unwind = cached_unwinder()) {
    // Its first frame is unw_backtrace's own: drop it, as glibc's backtrace() does.
    void* pcs[kDepth + 1];
    const int n = unwind(pcs, kDepth + 1);
    s.n = n > 1 ? n - 1 : 0;
    std::memcpy(s.pcs, pcs + 1, sizeof(void*) * size_t(s.n));
  } else {
    s.n = backtrace(s.pcs, kDepth);
  }
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

// One addr2line process per binary, kept for the run (loading a binary's debug information
// is the slow part). After each address a null one is asked for: its "??" answer ends the
// (variable) lines of the real one.
class Addr2Line {
 public:
  explicit Addr2Line(const std::string& binary) {
    // Close-on-exec: an addr2line started later for another binary must not inherit this one's
    // stdin, or this one never sees end of input and the run hangs at exit waiting for it.
    int to[2], from[2];
    if (pipe2(to, O_CLOEXEC) != 0) return;
    if (pipe2(from, O_CLOEXEC) != 0) {
      close(to[0]), close(to[1]);
      return;
    }
    std::fflush(nullptr);
    pid_ = fork();
    if (pid_ == 0) {
      dup2(to[0], 0);
      dup2(from[1], 1);
      const int null = open("/dev/null", O_WRONLY);
      if (null >= 0) dup2(null, 2);
      close(to[0]), close(to[1]), close(from[0]), close(from[1]);
      execlp("addr2line", "addr2line", "-C", "-f", "-i", "-e", binary.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(to[0]);
    close(from[1]);
    in_ = fdopen(to[1], "w");
    out_ = fdopen(from[0], "r");
  }
  ~Addr2Line() {
    if (in_) std::fclose(in_);
    if (out_) std::fclose(out_);
    if (pid_ > 0) waitpid(pid_, nullptr, 0);
  }
  Addr2Line(const Addr2Line&) = delete;
  Addr2Line& operator=(const Addr2Line&) = delete;

  // (function, file:line) pairs, innermost first.
  std::vector<std::pair<std::string, std::string>> lines(uintptr_t address) {
    std::vector<std::pair<std::string, std::string>> out;
    if (!in_ || !out_) return out;
    std::fprintf(in_, "0x%lx\n0\n", static_cast<unsigned long>(address));
    std::fflush(in_);
    char fn[4096], at[4096];
    bool sentinel_seen = false;
    while (!sentinel_seen && std::fgets(fn, sizeof fn, out_) && std::fgets(at, sizeof at, out_)) {
      fn[std::strcspn(fn, "\n")] = 0;
      at[std::strcspn(at, "\n")] = 0;
      std::string where = at;
      if (auto d = where.find(" (discriminator"); d != std::string::npos) where.resize(d);
      out.emplace_back(fn, where);
      // The null address's answer: "??" then "??:0" (or "??:?"); a real answer may also be
      // "??" (no line information), so only a "??" right after a complete answer ends it.
      if (std::strcmp(fn, "??") == 0 && where.rfind("??:", 0) == 0 && out.size() >= 2) sentinel_seen = true;
    }
    if (!out.empty()) out.pop_back();  // the sentinel's
    return out;
  }

 private:
  pid_t pid_ = -1;
  FILE* in_ = nullptr;
  FILE* out_ = nullptr;
};

std::vector<std::pair<std::string, std::string>> lines_of(const char* binary, uintptr_t address) {
  static std::map<std::string, std::unique_ptr<Addr2Line>> tools;
  std::unique_ptr<Addr2Line>& tool = tools[binary];
  if (!tool) tool = std::make_unique<Addr2Line>(binary);
  return tool->lines(address);
}

// "ns::f<T>(int, int) const" -> "ns::f<T>": the name without its parameter list.
std::string function_name(std::string fn) {
  if (auto clone = fn.find(" [clone"); clone != std::string::npos) fn.resize(clone);
  if (fn.empty() || fn.back() != ')') return fn;
  int depth = 0;
  for (size_t i = fn.size(); i-- > 0;) {
    if (fn[i] == ')') ++depth;
    if (fn[i] == '(' && --depth == 0) {
      const std::string name = fn.substr(0, i);
      return name.size() >= 8 && name.compare(name.size() - 8, 8, "operator") == 0 ? name + "()" : name;
    }
  }
  return fn;
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
        return (slash == std::string::npos ? at : at.substr(slash + 1)) + " (" + function_name(fn) + ")";
      }
      if (fallback.empty() && !at.empty() && at[0] != '?') fallback = at.substr(at.rfind('/') + 1);
    }
  }
  return fallback.empty() ? "unknown site (no debug information)" : fallback;
}

}  // namespace npuvp::check
