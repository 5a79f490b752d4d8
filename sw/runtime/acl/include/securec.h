/* The bounded memory and string functions of CANN's libc_sec (Huawei's securec), as host
 * code that includes "securec.h" uses them. Return values are securec's: EOK on success,
 * else EINVAL / ERANGE, or the *_AND_RESET codes when the destination was cleared (filled
 * for memset_s) because of the error. The declarations are npuvp's own. */
#ifndef NPUVP_SECUREC_H_
#define NPUVP_SECUREC_H_

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef EOK
#define EOK (0)
#endif
#ifndef EINVAL
#define EINVAL (22)
#endif
#ifndef ERANGE
#define ERANGE (34)
#endif
#define EINVAL_AND_RESET (22 | 0x80)
#define ERANGE_AND_RESET (34 | 0x80)
#define EOVERLAP_AND_RESET (54 | 0x80)

/* The largest destMax securec accepts. */
#define SECUREC_MEM_MAX_LEN (0x7fffffffUL)
#define SECUREC_STRING_MAX_LEN (0x7fffffffUL)

#ifndef errno_t
typedef int errno_t;
#endif

#ifdef __cplusplus
extern "C" {
#endif

errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count);
errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count);
errno_t memset_s(void *dest, size_t destMax, int c, size_t count);
errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc);
errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc);
/* Return the number of characters written, or -1 (destination cleared) if they do not fit. */
int sprintf_s(char *strDest, size_t destMax, const char *format, ...) __attribute__((format(printf, 3, 4)));
int snprintf_s(char *strDest, size_t destMax, size_t count, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
int vsprintf_s(char *strDest, size_t destMax, const char *format, va_list argList);
int vsnprintf_s(char *strDest, size_t destMax, size_t count, const char *format, va_list argList);

#ifdef __cplusplus
}
#endif

#endif /* NPUVP_SECUREC_H_ */
