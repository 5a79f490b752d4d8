// npuvp-ascendc-translate: the sim route's build step for one kernel file (see
// launch_syntax.h). Run by ascendc_library() in cmake/cann/ascendc.cmake:
//   npuvp-ascendc-translate <kernel.cpp> <translated.cpp> <header dir>
// writes the translated file and aclrtlaunch_<kernel>.h for each kernel into <header dir>,
// each only if its contents changed (so nothing rebuilds needlessly);
//   npuvp-ascendc-translate --list <kernel.cpp>
// prints the kernels that get a launch header, one per line. Errors are printed as
// "file:line: error: why" and exit with status 1.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "sw/cann/launch_syntax.h"

namespace {
bool read(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

bool write_if_changed(const std::string& path, const std::string& text) {
  std::string old;
  if (read(path, old) && old == text) return true;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out.flush());
}

int usage() {
  std::cerr << "usage: npuvp-ascendc-translate <kernel.cpp> <translated.cpp> <header dir>\n"
               "       npuvp-ascendc-translate --list <kernel.cpp>\n";
  return 2;
}
}  // namespace

int main(int argc, char** argv) {
  const bool list = argc == 3 && std::string(argv[1]) == "--list";
  if (!list && argc != 4) return usage();
  const std::string source = list ? argv[2] : argv[1];
  std::string text;
  if (!read(source, text)) {
    std::cerr << source << ": error: cannot read the kernel file\n";
    return 1;
  }
  try {
    const npuvp::cann::Translation t = npuvp::cann::translate(text, source);
    if (list) {
      for (const auto& k : t.kernels) {
        if (!k.is_template) std::cout << k.name << "\n";
      }
      return 0;
    }
    if (!write_if_changed(argv[2], t.source)) {
      std::cerr << argv[2] << ": error: cannot write the translated kernel file\n";
      return 1;
    }
    for (const auto& k : t.kernels) {
      if (k.is_template) continue;
      const std::string header = std::string(argv[3]) + "/aclrtlaunch_" + k.name + ".h";
      if (!write_if_changed(header, npuvp::cann::launch_header(k))) {
        std::cerr << header << ": error: cannot write the launch header\n";
        return 1;
      }
    }
  } catch (const npuvp::cann::LaunchSyntaxError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
