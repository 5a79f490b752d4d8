// An output file (trace, statistics) written whole or not at all: the bytes go to a temporary
// file beside the target and are renamed over it only when complete and written without
// error, so a reader never sees half a file and two runs writing one path never interleave
// (the last to finish wins). A target that exists and is not a regular file (/dev/stdout, a
// pipe, /dev/full) is written in place. Every write error is an error naming the file.
#pragma once
#include <cstdio>
#include <string>

namespace npuvp {

class OutputFile {
 public:
  // Opens the temporary file; raises "<block> @ <time>: cannot write <what> to '<path>': <reason>"
  // if it cannot (block "stats", what "statistics"; block "tracer", what "the trace").
  OutputFile(std::string path, std::string block, std::string what);
  ~OutputFile();  // removes the temporary file unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::FILE* stream() { return file_; }
  void write(const std::string& text);
  // Flushes, checks every write and puts the file in place; raises on any error.
  void commit();
  // Drops what was written (the target is left as it was).
  void discard();

  // Whether `path` can be written, checked without touching it (nothing is left behind);
  // raises like the constructor if not. For checks before a long run.
  static void check_writable(const std::string& path, const std::string& block, const std::string& what);
  // Whether two paths name one file (or would, once created).
  static bool same_file(const std::string& a, const std::string& b);

 private:
  [[noreturn]] void fail(const char* reason);
  std::string path_, temporary_, block_, what_;
  std::FILE* file_ = nullptr;
  bool in_place_ = false;
};

}  // namespace npuvp
