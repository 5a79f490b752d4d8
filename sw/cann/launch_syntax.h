// The sim route's build step (cmake/cann/ascendc.cmake): kernel files written for CANN's
// compiler are compiled by the host compiler against npuvp, so the two things in them that
// are not C++ are translated here:
//  - the launch `kernel<<<blockDim, l2ctrl, stream>>>(args...)` becomes a call of
//    npuvp::acl::launch_chevrons (sw/cann/launch_chevrons.h), text around it untouched and
//    line numbers kept, so compiler errors point at the user's file (#line);
//  - for every `__global__` kernel the file defines, the host's `aclrtlaunch_<kernel>.h`
//    (CANN's generated launch header: ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, args...))
//    and the definition of aclrtlaunch_<kernel>, appended to the translated file.
// The scan knows comments, string, character and raw string literals, digit separators and
// preprocessor lines, so `<<` shifts, templates and text in comments are left alone.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace npuvp::cann {

// A launch or kernel the translator cannot handle; what() is "file:line: error: why".
class LaunchSyntaxError : public std::runtime_error {
 public:
  LaunchSyntaxError(const std::string& file, int line, const std::string& why);
  const std::string& file() const { return file_; }
  int line() const { return line_; }

 private:
  std::string file_;
  int line_;
};

struct KernelParam {
  // How the parameter crosses aclrtlaunch_<kernel>: GM pointers as void*, scalars as they
  // are, structures (tiling data passed by value) by pointer to the host's copy.
  enum class Kind { Pointer, Scalar, Struct };
  std::string type;  // as declared, e.g. "GM_ADDR", "uint32_t", "AddCustomTilingData"
  std::string name;  // as declared, or argN if unnamed
  Kind kind = Kind::Scalar;
};

struct KernelDecl {
  std::string name;
  std::vector<KernelParam> params;
  int line = 0;
  bool is_template = false;  // no aclrtlaunch_ function for a template kernel
};

struct Translation {
  std::string source;               // the translated file
  std::vector<KernelDecl> kernels;  // the __global__ kernels the file defines
  int launches = 0;                 // <<<>>> launches rewritten
};

// Translates `text`, the contents of kernel file `path` (the name #line points at).
// Throws LaunchSyntaxError.
Translation translate(const std::string& text, const std::string& path);

// The host's launch header aclrtlaunch_<kernel>.h.
std::string launch_header(const KernelDecl& kernel);

}  // namespace npuvp::cann
