#include "tlm/output_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include "tlm/log.h"

namespace npuvp {

namespace {
namespace output_file_cpp {  // named after the file: unity batches share anonymous namespaces

bool exists_as_non_regular_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
}

// Long paths are shortened in messages (a path is user input).
std::string shown(const std::string& path) {
  return path.size() <= 200 ? path : path.substr(0, 200) + fmt::format("... ({} characters)", path.size());
}

}  // namespace output_file_cpp
}  // namespace

OutputFile::OutputFile(std::string path, std::string block, std::string what)
    : path_(std::move(path)), block_(std::move(block)), what_(std::move(what)) {
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    errno = EISDIR;
    fail(std::strerror(errno));
  }
  in_place_ = output_file_cpp::exists_as_non_regular_file(path_);
  temporary_ = in_place_ ? path_ : fmt::format("{}.tmp.{}", path_, ::getpid());
  file_ = std::fopen(temporary_.c_str(), "w");
  if (!file_) fail(std::strerror(errno));
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::fail(const char* reason) {
  const std::string text = reason;  // before discard() changes errno
  discard();
  raise(block_, "cannot write {} to '{}': {}", what_, output_file_cpp::shown(path_), text);
}

void OutputFile::write(const std::string& text) {
  if (file_ && std::fwrite(text.data(), 1, text.size(), file_) != text.size()) fail(std::strerror(errno));
}

void OutputFile::commit() {
  if (!file_) return;
  const bool flushed = std::fflush(file_) == 0 && !std::ferror(file_);
  const int flush_errno = errno;
  std::FILE* f = file_;
  file_ = nullptr;
  const bool closed = std::fclose(f) == 0;
  if (!flushed || !closed) {
    file_ = nullptr;
    if (!in_place_) ::unlink(temporary_.c_str());
    raise(block_, "cannot write {} to '{}': {}", what_, output_file_cpp::shown(path_), std::strerror(flushed ? errno : flush_errno));
  }
  if (!in_place_ && std::rename(temporary_.c_str(), path_.c_str()) != 0) {
    const int e = errno;
    ::unlink(temporary_.c_str());
    raise(block_, "cannot write {} to '{}': {}", what_, output_file_cpp::shown(path_), std::strerror(e));
  }
}

void OutputFile::discard() {
  if (!file_) return;
  std::fclose(file_);
  file_ = nullptr;
  if (!in_place_) ::unlink(temporary_.c_str());
}

void OutputFile::check_writable(const std::string& path, const std::string& block, const std::string& what) {
  OutputFile probe(path, block, what);  // raises if it cannot be created; the destructor removes it
}

bool OutputFile::same_file(const std::string& a, const std::string& b) {
  if (a == b) return true;
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  // Not both there yet: compare the absolute forms of the paths.
  char ra[PATH_MAX], rb[PATH_MAX];
  auto absolute = [](const std::string& p, char* out) -> std::string {
    const size_t slash = p.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : p.substr(0, slash));
    const std::string base = slash == std::string::npos ? p : p.substr(slash + 1);
    if (!::realpath(dir.c_str(), out)) return p;
    return std::string(out) + "/" + base;
  };
  return absolute(a, ra) == absolute(b, rb);
}

}  // namespace npuvp
