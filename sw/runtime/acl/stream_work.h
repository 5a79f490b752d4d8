// The seam between the ACL runtime's streams and the other acl* topics built on them (issue 28:
// acldvpp, the AI CPU launch): run host-issued device work in stream order, and report errors
// the runtime's way (aclGetRecentErrMsg). Plain C types and std::function only.
#pragma once
#include <cstdint>
#include <functional>

namespace npuvp::acl {
// Checks the runtime (aclInit, a current context, a live `stream`, no earlier device failure)
// and runs `work` in order on `stream`. An exception from `work` fails the call and the stream
// (its synchronize reports it) with `failure_code`, its text recorded. Returns an ACL code.
int32_t run_on_stream(void* stream, const char* api, int32_t failure_code, const std::function<void()>& work);
// Records why `api` failed (for aclGetRecentErrMsg) and returns `code`.
int32_t record_error(int32_t code, const char* api, const char* text);
// ACL_SUCCESS if aclInit was called and the thread has a current context, else the error.
int32_t need_runtime(const char* api);
}  // namespace npuvp::acl
