// Runs a measurement in a forked child process and returns its JSON result to the parent.
// Include <gtest/gtest.h> first to get in_child_process, which reports child errors as test
// failures.
// SystemC elaborates once per process, so a test that compares two configurations (the same
// kernel with half the DRAM bandwidth, say) runs each one in its own child.
#pragma once
#include <sys/wait.h>
#include <unistd.h>
#include <cstdio>
#include <string>
#include <nlohmann/json.hpp>
#include "tlm/log.h"

namespace npuvp {
namespace testing {

// `measure` runs in the child (it may configure and use the Device) and returns a JSON
// value. If the child throws or dies, the result is {"error": "..."}.
template <class F>
nlohmann::json run_in_child(F measure) {
  int fds[2];
  if (pipe(fds) != 0) return {{"error", "pipe() failed"}};
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    nlohmann::json result;
    try {
      result = measure();
    } catch (const std::exception& e) {
      result = {{"error", error_text(e)}};
    }
    const std::string text = result.dump();
    for (size_t done = 0; done < text.size();) {
      const ssize_t n = write(fds[1], text.data() + done, text.size() - done);
      if (n <= 0) break;
      done += size_t(n);
    }
    close(fds[1]);
    std::fflush(nullptr);
    _exit(0);  // no SystemC teardown, no gtest epilogue in the child
  }
  close(fds[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) text.append(buf, size_t(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty()) {
    return {{"error", "the child process died (status " + std::to_string(status) + ")"}};
  }
  return nlohmann::json::parse(text);
}

#ifdef ADD_FAILURE
// For tests: a failure in the child is a failure of the calling test.
template <class F>
nlohmann::json in_child_process(F measure) {
  nlohmann::json result = run_in_child(measure);
  if (result.is_object() && result.contains("error")) ADD_FAILURE() << "child: " << result["error"].get<std::string>();
  return result;
}
#endif

}  // namespace testing
}  // namespace npuvp
