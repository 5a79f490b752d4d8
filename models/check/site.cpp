#include "models/check/site.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <map>
#include <set>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fmt/format.h>

namespace npuvp::check {

namespace site_cpp {  // named after the file: unity batches share anonymous namespaces
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
}  // namespace site_cpp

uint32_t SiteTable::capture() {
  Stack s;
  if (site_cpp::Backtrace unwind = site_cpp::cached_unwinder()) {
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
  resolve_all({site});
  return resolved_[site];
}

namespace site_cpp {  // named after the file: unity batches share anonymous namespaces
// npuvp's own code: a frame there is the API or the model, not the kernel.
bool ours(const std::string& file) {
  for (const char* dir : {"/models/", "/sw/ascendc/", "/sw/runtime/", "/tlm/", "/platforms/", "/usr/include/",
                          "/usr/lib/", "/include/c++/", "/sysdeps/", "/csu/"}) {
    if (file.find(dir) != std::string::npos) return true;
  }
  return file.empty() || file[0] == '?';
}

bool on_path(const char* tool) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string file = (end > start ? dirs.substr(start, end - start) : ".") + "/" + tool;
    if (access(file.c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

// elfutils' eu-addr2line maps the binary and reads only the compilation units the addresses
// fall in (about 10 ms and 8 MB for npuvp's own 70 MB binary); binutils' addr2line reads all
// of its debug sections first (0.4 s of CPU, most of it the kernel faulting in 86 MB).
const char* tool() {
  static const char* const name = on_path("eu-addr2line") ? "eu-addr2line" : "addr2line";
  return name;
}

using Lines = std::vector<std::pair<std::string, std::string>>;

// "0x00000000002386c0": an address line of the tool's -a output.
bool address_line(const char* line, uintptr_t& address) {
  if (line[0] != '0' || line[1] != 'x' || !line[2]) return false;
  for (const char* c = line + 2; *c; ++c) {
    if (!std::isxdigit(static_cast<unsigned char>(*c))) return false;
  }
  address = static_cast<uintptr_t>(std::strtoull(line + 2, nullptr, 16));
  return true;
}

// The (function, file:line) pairs of each address in `binary`, innermost inline first: one
// run of the tool, the addresses as arguments, each answer after its -a address line. Both
// tools' answers are normalised: no column (eu-addr2line's file:line:column), no
// "(discriminator n)" (binutils'), no "inlined at ..." after an inlined function's name.
void run_tool(const std::string& binary, const std::vector<uintptr_t>& addresses, std::map<uintptr_t, Lines>& out) {
  for (size_t first = 0; first < addresses.size(); first += 2048) {
    std::vector<std::string> args = {tool(), "-a", "-C", "-f", "-i", "-e", binary};
    for (size_t i = first; i < addresses.size() && i < first + 2048; ++i) args.push_back(fmt::format("0x{:x}", addresses[i]));
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    int from[2];
    if (pipe2(from, O_CLOEXEC) != 0) return;
    // posix_spawn, not fork: the simulator's address space is large, and a fork copies its
    // page tables (tens of milliseconds of system time per run).
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, from[1], 1);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    std::fflush(nullptr);
    pid_t pid = -1;
    const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(from[1]);
    if (spawned != 0) {
      close(from[0]);
      return;
    }
    FILE* in = fdopen(from[0], "r");
    if (!in) {
      close(from[0]);
      waitpid(pid, nullptr, 0);
      return;
    }
    char fn[4096], at[4096];
    Lines* current = nullptr;
    while (std::fgets(fn, sizeof fn, in)) {
      fn[std::strcspn(fn, "\n")] = 0;
      uintptr_t address = 0;
      if (address_line(fn, address)) {
        current = &out[address];
        continue;
      }
      if (!current || !std::fgets(at, sizeof at, in)) break;
      at[std::strcspn(at, "\n")] = 0;
      std::string function = fn, where = at;
      if (auto d = function.find(" inlined at "); d != std::string::npos) function.resize(d);
      if (auto d = where.find(" (discriminator"); d != std::string::npos) where.resize(d);
      // file:line:column -> file:line
      const size_t last = where.rfind(':');
      if (last != std::string::npos && last + 1 < where.size() &&
          where.find_first_not_of("0123456789", last + 1) == std::string::npos) {
        const size_t before = where.rfind(':', last - 1);
        if (before != std::string::npos && before + 1 < last &&
            where.find_first_not_of("0123456789", before + 1) == last) {
          where.resize(last);
        }
      }
      current->emplace_back(function, where);
    }
    std::fclose(in);
    waitpid(pid, nullptr, 0);
  }
}

// A frame whose function the dynamic symbol table names (and whose code it spans: dladdr
// otherwise names the nearest exported symbol below a local function) in npuvp's own model
// and runtime (not its sample kernels, npuvp::kernels), SystemC or the C++ library: not the
// kernel's, so not looked up.
void own_frame_marker() {}

bool ours_by_symbol(const Dl_info& info, const ElfW(Sym)* symbol, uintptr_t pc) {
  if (!info.dli_sname || !symbol || !info.dli_saddr) return false;
  const auto begin = reinterpret_cast<uintptr_t>(info.dli_saddr);
  if (pc < begin || pc >= begin + symbol->st_size) return false;
  const std::string name = info.dli_sname;
  auto starts = [&](const char* prefix) { return name.rfind(prefix, 0) == 0; };
  if (starts("_ZN5npuvp7kernels") || starts("_ZNK5npuvp7kernels")) return false;
  // The Ascend C API's own functions in npuvp's binary (a kernel's copies are in the kernel's).
  static const void* const own_base = [] {
    Dl_info self{};
    return dladdr(reinterpret_cast<void*>(&own_frame_marker), &self) ? self.dli_fbase : nullptr;
  }();
  if (info.dli_fbase == own_base && (starts("_ZN7AscendC") || starts("_ZNK7AscendC"))) return true;
  for (const char* prefix : {"_ZN5npuvp", "_ZNK5npuvp", "_ZN7sc_core", "_ZNK7sc_core", "_ZNSt", "_ZNKSt", "_ZSt",
                             "_ZN9__gnu_cxx"}) {
    if (starts(prefix)) return true;
  }
  return false;
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
}  // namespace site_cpp

void SiteTable::resolve_all(const std::vector<uint32_t>& sites) {
  std::vector<uint32_t> todo, open;
  for (uint32_t site : std::set<uint32_t>(sites.begin(), sites.end())) {
    if (resolved_.count(site)) continue;
    todo.push_back(site);
    if (site < stacks_.size()) open.push_back(site);
  }
  // Frame by frame outwards, only for the sites whose kernel frame is not found yet: the
  // frames past it (the launch, SystemC's coroutines) are never looked up, and each depth is
  // one tool run per binary for all the sites.
  // binutils' addr2line reads a binary's whole debug information on every run: it gets all
  // the frames in one.
  const bool all_at_once = std::strcmp(site_cpp::tool(), "addr2line") == 0;
  for (int depth = 1; depth < kDepth && !open.empty(); ++depth) {
    // By binary: (address in the binary, in memory).
    std::map<std::string, std::vector<std::pair<uintptr_t, uintptr_t>>> wanted;
    for (uint32_t site : open) {
      const Stack& s = stacks_[site];
      for (int i = depth; i < s.n && (i == depth || all_at_once); ++i) {
        const uintptr_t pc = reinterpret_cast<uintptr_t>(s.pcs[i]) - 1;  // inside the call, not after it
        if (frames_.count(pc)) continue;
        frames_[pc];  // asked (an empty answer stays empty)
        Dl_info info{};
        void* entry = nullptr;  // the symbol's ElfW(Sym)
        if (dladdr1(s.pcs[i], &info, &entry, RTLD_DL_SYMENT) == 0 || !info.dli_fname) continue;
        const auto* symbol = static_cast<const ElfW(Sym)*>(entry);
        if (site_cpp::ours_by_symbol(info, symbol, pc)) continue;  // npuvp's model or the C++ runtime
        const char* binary = std::strchr(info.dli_fname, '/') ? info.dli_fname : "/proc/self/exe";
        wanted[binary].push_back({pc - reinterpret_cast<uintptr_t>(info.dli_fbase), pc});
      }
    }
    for (const auto& [binary, frames] : wanted) {
      std::vector<uintptr_t> relative;
      for (const auto& f : frames) relative.push_back(f.first);
      std::map<uintptr_t, Lines> answers;
      site_cpp::run_tool(binary, relative, answers);
      // A binary that is not position independent answers at the address in memory.
      std::vector<uintptr_t> absolute;
      for (const auto& [rel, pc] : frames) {
        Lines& lines = answers[rel];
        if (lines.empty() || lines[0].second.empty() || lines[0].second[0] == '?') {
          absolute.push_back(pc);
        } else {
          frames_[pc] = lines;
        }
      }
      if (absolute.empty()) continue;
      std::map<uintptr_t, Lines> retried;
      site_cpp::run_tool(binary, absolute, retried);
      for (uintptr_t pc : absolute) frames_[pc] = retried[pc];
    }
    std::vector<uint32_t> still;
    for (uint32_t site : open) {
      const Stack& s = stacks_[site];
      bool found = false;
      for (int i = 1; i <= depth && i < s.n && !found; ++i) {
        for (const auto& line : frames_[reinterpret_cast<uintptr_t>(s.pcs[i]) - 1]) found |= !site_cpp::ours(line.second);
      }
      if (!found) still.push_back(site);
    }
    open.swap(still);
  }
  for (uint32_t site : todo) {
    resolved_[site] = site < stacks_.size() && stacks_[site].n ? resolve(stacks_[site]) : "unknown site";
  }
}

std::string SiteTable::resolve(const Stack& s) {
  std::string fallback;
  for (int i = 1; i < s.n; ++i) {
    auto known = frames_.find(reinterpret_cast<uintptr_t>(s.pcs[i]) - 1);
    if (known == frames_.end()) continue;
    for (const auto& [fn, at] : known->second) {
      if (!site_cpp::ours(at)) {
        // Only the file's name and line: the rest of the path is the build machine's.
        const size_t slash = at.rfind('/');
        return (slash == std::string::npos ? at : at.substr(slash + 1)) + " (" + site_cpp::function_name(fn) + ")";
      }
      if (fallback.empty() && !at.empty() && at[0] != '?') fallback = at.substr(at.rfind('/') + 1);
    }
  }
  return fallback.empty() ? "unknown site (no debug information)" : fallback;
}

}  // namespace npuvp::check
