// The sim route's translation of CANN's launch syntax (sw/cann/launch_syntax.h): launches
// rewritten, everything else untouched, line numbers kept, kernels and their host launch
// signatures found, and errors naming file and line.
#include "sw/cann/launch_syntax.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace npuvp::cann {
namespace {

// The translated text after the header lines and the first #line, i.e. the user's file.
std::string body(const Translation& t) {
  const std::string mark = "#line 1 \"k.cpp\"\n";
  const size_t at = t.source.find(mark);
  EXPECT_NE(at, std::string::npos);
  std::string rest = t.source.substr(at + mark.size());
  const size_t end = rest.find("#line 1 \"aclrtlaunch functions");
  return end == std::string::npos ? rest : rest.substr(0, end);
}

size_t lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

std::string error_of(const std::string& text) {
  try {
    translate(text, "k.cpp");
  } catch (const LaunchSyntaxError& e) {
    return e.what();
  }
  return "";
}

TEST(LaunchSyntax, RewritesALaunchAndKeepsTheRestByteForByte) {
  const std::string src =
      "#include \"kernel_operator.h\"\n"
      "void add_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x) {\n"
      "  add<<<blockDim, l2ctrl, stream>>>(x);\n"
      "}\n";
  const Translation t = translate(src, "k.cpp");
  EXPECT_EQ(t.launches, 1);
  EXPECT_EQ(body(t),
            "#include \"kernel_operator.h\"\n"
            "void add_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x) {\n"
            "  ::npuvp::acl::launch_chevrons(\"add\", blockDim, l2ctrl, stream, add, x);\n"
            "}\n");
  EXPECT_NE(t.source.find("#include \"sw/cann/launch_chevrons.h\"\n#line 1 \"k.cpp\"\n"), std::string::npos);
}

TEST(LaunchSyntax, LeavesShiftsCommentsStringsAndDirectivesAlone) {
  const std::string src =
      "int a = b << 3, c = d >> 2, e = f<<<1;\n"  // not C++ either, but no kernel name: see errors
      "";
  EXPECT_NE(error_of(src), "");  // f<<<1 has no >>>: an error, not a silent pass
  const std::string quiet =
      "// k<<<1, nullptr, s>>>(x); in a comment\n"
      "/* k<<<1, nullptr, s>>>(x);\n   across lines */\n"
      "const char* s1 = \"k<<<1, nullptr, s>>>(x)\";\n"
      "const char* s2 = R\"x(k<<<1, nullptr, s>>>(x) )\" still raw)x\";\n"
      "char c = '<'; int n = 1'000 << 2; int m = n >> 1 >> 1;\n"
      "#define LAUNCH k<<<1, nullptr, s>>>(x)\n"
      "template <typename T> struct V { V<V<int>> v; };\n"
      "std::cout << x << std::endl;\n";
  const Translation t = translate(quiet, "k.cpp");
  EXPECT_EQ(t.launches, 0);
  EXPECT_EQ(body(t), quiet);
}

TEST(LaunchSyntax, TemplatesQualifiedNamesShiftsAndNestedCallsInsideALaunch) {
  const std::string src = "ns::k<half, 4>   <<<n >> 1, nullptr, GetStream(a, b)>>>(x, f(y, z), Tiling{1, 2});\n";
  const Translation t = translate(src, "k.cpp");
  EXPECT_EQ(t.launches, 1);
  EXPECT_EQ(body(t),
            "::npuvp::acl::launch_chevrons(\"ns::k<half,4>\",    n >> 1, nullptr, GetStream(a, b), "
            "ns::k<half, 4>, x, f(y, z), Tiling{1, 2});\n");
}

TEST(LaunchSyntax, AMultiLineLaunchKeepsEveryLineNumber) {
  const std::string src =
      "void f() {\n"
      "  k  // the kernel\n"
      "    <<<blockDim,\n"
      "       nullptr,\n"
      "       stream>>>\n"
      "      (x,\n"
      "       y);\n"
      "  int after = __LINE__;\n"
      "}\n";
  const Translation t = translate(src, "k.cpp");
  const std::string b = body(t);
  EXPECT_EQ(lines(b), lines(src));
  // The line after the launch is still line 8 of the file.
  size_t at = 0;
  for (int i = 0; i < 7; ++i) at = b.find('\n', at) + 1;
  EXPECT_EQ(b.substr(at, b.find('\n', at) - at), "  int after = __LINE__;");
  EXPECT_NE(b.find("launch_chevrons(\"k\", "), std::string::npos);
}

TEST(LaunchSyntax, AnEmptyArgumentListAndTwoLaunchesOnALine) {
  const std::string src = "a<<<1, nullptr, s>>>(); b<<<2, nullptr, s>>>( /* none */ );\n";
  const Translation t = translate(src, "k.cpp");
  EXPECT_EQ(t.launches, 2);
  EXPECT_EQ(body(t),
            "::npuvp::acl::launch_chevrons(\"a\", 1, nullptr, s, a); "
            "::npuvp::acl::launch_chevrons(\"b\", 2, nullptr, s, b /* none */ );\n");
}

TEST(LaunchSyntax, FindsDefinedKernelsAndTheirParameters) {
  const std::string src =
      "extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x, __gm__ half* y,\n"
      "    uint32_t n, AddTiling tiling, GM_ADDR) {}\n"
      "extern \"C\" __global__ __aicore__ void declared_only(GM_ADDR x);\n"
      "template <typename T> __global__ __aicore__ void templated(GM_ADDR x) {}\n"
      "__global__ __aicore__ void no_params() {}\n"
      "// __global__ __aicore__ void in_comment(GM_ADDR x) {}\n";
  const Translation t = translate(src, "k.cpp");
  ASSERT_EQ(t.kernels.size(), 3u);
  const KernelDecl& k = t.kernels[0];
  EXPECT_EQ(k.name, "add_custom");
  EXPECT_EQ(k.line, 1);
  EXPECT_FALSE(k.is_template);
  ASSERT_EQ(k.params.size(), 5u);
  EXPECT_EQ(k.params[0].kind, KernelParam::Kind::Pointer);
  EXPECT_EQ(k.params[1].type, "__gm__ half*");
  EXPECT_EQ(k.params[1].kind, KernelParam::Kind::Pointer);
  EXPECT_EQ(k.params[2].kind, KernelParam::Kind::Scalar);
  EXPECT_EQ(k.params[3].type, "AddTiling");
  EXPECT_EQ(k.params[3].kind, KernelParam::Kind::Struct);
  EXPECT_EQ(k.params[4].name, "arg4");
  EXPECT_EQ(t.kernels[1].name, "templated");
  EXPECT_TRUE(t.kernels[1].is_template);
  EXPECT_EQ(t.kernels[2].name, "no_params");
  EXPECT_TRUE(t.kernels[2].params.empty());

  // The host's header: GM pointers as void*, scalars as they are, structures by pointer.
  const std::string h = launch_header(k);
  EXPECT_NE(h.find("extern \"C\" uint32_t aclrtlaunch_add_custom(uint32_t blockDim, aclrtStream stream, void* x, "
                   "void* y, uint32_t n, AddTiling* tiling, void* arg4);"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func"), std::string::npos);
  EXPECT_NE(h.find("#include \"acl/acl_base.h\""), std::string::npos);
  // The definition appended to the translated file converts back and copies the structure.
  EXPECT_NE(t.source.find("extern \"C\" uint32_t aclrtlaunch_add_custom(uint32_t npuvp_block_dim, void* npuvp_stream, "
                          "void* npuvp_x, void* npuvp_y, uint32_t npuvp_n, AddTiling* npuvp_tiling, void* npuvp_arg4)"),
            std::string::npos)
      << t.source;
  EXPECT_NE(t.source.find("add_custom, (GM_ADDR)npuvp_x, (__gm__ half*)npuvp_y, npuvp_n, *npuvp_tiling, "
                          "(GM_ADDR)npuvp_arg4);"),
            std::string::npos);
  EXPECT_EQ(t.source.find("aclrtlaunch_templated"), std::string::npos);
  EXPECT_EQ(t.source.find("aclrtlaunch_declared_only"), std::string::npos);
}

TEST(LaunchSyntax, WindowsLineEndsAndAContinuationAtTheEndOfTheFile) {
  const std::string src = "#define LONG a \\\r\n  b\r\nk<<<1, nullptr, s>>>(x);\r\n#define END \\\r";
  const Translation t = translate(src, "k.cpp");
  EXPECT_EQ(t.launches, 1);
  EXPECT_NE(body(t).find("::npuvp::acl::launch_chevrons(\"k\", 1, nullptr, s, k, x);\r\n"), std::string::npos);
  EXPECT_EQ(error_of("\r\n\r\nk<<<1, nullptr>>>(x);\r\n"),
            "k.cpp:3: error: the launch configuration takes 3 arguments <<<blockDim, l2ctrl, stream>>>, found 2");
}

TEST(LaunchSyntax, ErrorsNameTheFileAndLine) {
  EXPECT_EQ(error_of("void f() {\n  k<<<1, nullptr>>>(x);\n}\n"),
            "k.cpp:2: error: the launch configuration takes 3 arguments <<<blockDim, l2ctrl, stream>>>, found 2");
  EXPECT_EQ(error_of("\n\n  k<<<1, nullptr, s>>>;\n"),
            "k.cpp:3: error: the kernel launch '<<<...>>>' must be followed by its arguments '(...)'");
  EXPECT_EQ(error_of("x;\n  (a)<<<1, nullptr, s>>>(x);\n"),
            "k.cpp:2: error: a kernel launch '<<<' must follow the kernel's name (found ')')");
  EXPECT_EQ(error_of("\n k<<<1, nullptr, s(x);\n"),
            "k.cpp:2: error: no '>>>' closes this kernel launch's '<<<' before ';'");
  EXPECT_EQ(error_of("k<<<1, nullptr, s>>>(x, (y);\n"), "k.cpp:1: error: no closing bracket for the kernel launch's arguments");
  EXPECT_EQ(error_of("/* open\n\n"), "k.cpp:1: error: unterminated /* comment");
  EXPECT_EQ(error_of("\nconst char* s = \"open;\n"), "k.cpp:2: error: unterminated string literal");
}

}  // namespace
}  // namespace npuvp::cann
