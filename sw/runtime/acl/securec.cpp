// CANN's libc_sec bounded copies (securec.h): the checks and return codes of Huawei's securec,
// so host code written against it behaves the same here.
#include "securec.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {
bool overlap(const void* a, const void* b, size_t n) {
  auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return n > 0 && ((x <= y && y < x + n) || (y <= x && x < y + n));
}

// The checks every bounded memory function starts with; EOK if the call may go on.
errno_t check_dest(const void* dest, size_t destMax) {
  if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
  if (dest == nullptr) return EINVAL;
  return EOK;
}

// A formatted write of at most `limit` - 1 characters and the terminator; securec's result.
int format_into(char* strDest, size_t destMax, size_t limit, bool truncation_allowed, const char* format, va_list args) {
  if (strDest == nullptr || format == nullptr || destMax == 0 || destMax > SECUREC_STRING_MAX_LEN) {
    if (strDest != nullptr && destMax > 0 && destMax <= SECUREC_STRING_MAX_LEN) strDest[0] = '\0';
    return -1;
  }
  const int n = std::vsnprintf(strDest, limit, format, args);
  if (n < 0) {
    strDest[0] = '\0';
    return -1;
  }
  if (size_t(n) >= limit) {
    if (!truncation_allowed) strDest[0] = '\0';
    return -1;  // truncated (kept when the caller asked for at most `count` characters)
  }
  return n;
}
}  // namespace

extern "C" {

errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
  if (errno_t e = check_dest(dest, destMax)) return e;
  if (src == nullptr) {
    std::memset(dest, 0, destMax);
    return EINVAL_AND_RESET;
  }
  if (count > destMax) {
    std::memset(dest, 0, destMax);
    return ERANGE_AND_RESET;
  }
  if (dest == src || count == 0) return EOK;
  if (overlap(dest, src, count)) {
    std::memset(dest, 0, destMax);
    return EOVERLAP_AND_RESET;
  }
  std::memcpy(dest, src, count);
  return EOK;
}

errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
  if (errno_t e = check_dest(dest, destMax)) return e;
  if (src == nullptr) {
    std::memset(dest, 0, destMax);
    return EINVAL_AND_RESET;
  }
  if (count > destMax) {
    std::memset(dest, 0, destMax);
    return ERANGE_AND_RESET;
  }
  if (dest != src && count > 0) std::memmove(dest, src, count);
  return EOK;
}

errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
  if (errno_t e = check_dest(dest, destMax)) return e;
  if (count > destMax) {
    std::memset(dest, c, destMax);
    return ERANGE_AND_RESET;
  }
  std::memset(dest, c, count);
  return EOK;
}

errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  if (destMax == 0 || destMax > SECUREC_STRING_MAX_LEN) return ERANGE;
  if (strDest == nullptr) return EINVAL;
  if (strSrc == nullptr) {
    strDest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  const size_t len = strnlen(strSrc, count);
  if (len >= destMax) {
    strDest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  if (strDest != strSrc && overlap(strDest, strSrc, len + 1)) {
    strDest[0] = '\0';
    return EOVERLAP_AND_RESET;
  }
  if (strDest != strSrc) std::memcpy(strDest, strSrc, len);
  strDest[len] = '\0';
  return EOK;
}

errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc) {
  return strncpy_s(strDest, destMax, strSrc, SECUREC_STRING_MAX_LEN);
}

errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc) {
  if (destMax == 0 || destMax > SECUREC_STRING_MAX_LEN) return ERANGE;
  if (strDest == nullptr) return EINVAL;
  if (strSrc == nullptr) {
    strDest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  const size_t have = strnlen(strDest, destMax);
  if (have == destMax) {  // no terminator inside the buffer
    strDest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  const size_t add = std::strlen(strSrc);
  if (have + add >= destMax) {
    strDest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  if (overlap(strDest, strSrc, have + add + 1)) {
    strDest[0] = '\0';
    return EOVERLAP_AND_RESET;
  }
  std::memcpy(strDest + have, strSrc, add + 1);
  return EOK;
}

int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList) {
  return format_into(strDest, destMax, destMax, false, format, argList);
}

int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList) {
  // count < destMax asks for at most count characters: a longer result is truncated, not
  // an error of the buffer.
  const bool truncate = count < destMax;
  return format_into(strDest, destMax, truncate ? count + 1 : destMax, truncate, format, argList);
}

int sprintf_s(char* strDest, size_t destMax, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vsprintf_s(strDest, destMax, format, args);
  va_end(args);
  return n;
}

int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vsnprintf_s(strDest, destMax, count, format, args);
  va_end(args);
  return n;
}

}  // extern "C"
