#include "platforms/cli/python_cli.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace npuvp::cli {
namespace {

constexpr const char* kPython = "/usr/bin/python3";

bool wants_python(int argc, char** argv) {
  if (argc < 2) return false;
  const std::string command = argv[1];
  if (command == "sweep" || command == "plot") return true;
  if (command != "run") return false;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--plot") == 0 || std::strncmp(argv[i], "--plot=", 7) == 0) return true;
  }
  return false;
}

std::string self_path() {
  std::vector<char> buffer(4096);
  const ssize_t n = readlink("/proc/self/exe", buffer.data(), buffer.size() - 1);
  return n > 0 ? std::string(buffer.data(), static_cast<size_t>(n)) : std::string();
}

bool is_package(const std::string& dir) { return access((dir + "/npuvp/__init__.py").c_str(), R_OK) == 0; }

}  // namespace

void exec_python_subcommand(int argc, char** argv) {
  if (!wants_python(argc, argv)) return;
  const std::string self = self_path();
  const std::string bin_dir = self.substr(0, self.rfind('/'));
  for (const std::string& dir : {bin_dir + "/python", bin_dir + "/../lib/python3/dist-packages"}) {
    if (!is_package(dir)) continue;
    const char* old = std::getenv("PYTHONPATH");
    const std::string path = old && *old ? dir + ":" + old : dir;
    setenv("PYTHONPATH", path.c_str(), 1);
    break;
  }
  // The runs of a sweep use this very binary unless the caller named another.
  if (!self.empty()) setenv("NPUVP_CLI", self.c_str(), 0);
  std::vector<char*> args = {const_cast<char*>(kPython), const_cast<char*>("-m"), const_cast<char*>("npuvp.cli")};
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  execv(kPython, args.data());
  fmt::print(stderr, "npuvp: error: `npuvp {}` needs {} (the Python package's command): {}\n", argv[1], kPython,
             std::strerror(errno));
  std::exit(127);
}

}  // namespace npuvp::cli
