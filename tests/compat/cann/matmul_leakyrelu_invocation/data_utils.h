// File helpers of the host program: binary inputs in, binary outputs out.
#ifndef VADD_LAUNCH_DATA_UTILS_H
#define VADD_LAUNCH_DATA_UTILS_H
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "acl/acl.h"

#define CHECK_ACL(call)                                                                  \
  do {                                                                                   \
    const aclError status_ = (call);                                                     \
    if (status_ != ACL_SUCCESS) {                                                        \
      std::fprintf(stderr, "%s:%d: %s failed with %d\n", __FILE__, __LINE__, #call,     \
                   static_cast<int>(status_));                                           \
      return 1;                                                                          \
    }                                                                                    \
  } while (0)

// Reads exactly `size` bytes of `path` into `buffer`; false if the file is shorter or missing.
inline bool ReadFile(const std::string& path, size_t size, void* buffer) {
  std::ifstream in(path, std::ios::binary);
  if (!in.read(static_cast<char*>(buffer), static_cast<std::streamsize>(size))) {
    std::fprintf(stderr, "cannot read %zu bytes from %s\n", size, path.c_str());
    return false;
  }
  return true;
}

inline bool WriteFile(const std::string& path, const void* buffer, size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(buffer), static_cast<std::streamsize>(size));
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    return false;
  }
  return true;
}
#endif
