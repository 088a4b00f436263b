/* pacl: the bounds-checked C string and memory functions of the secure C library that CANN installs
 * next to its headers (CANN programs include "securec.h" for memcpy_s and friends).
 *
 * Contract, as the library documents it: each function returns EOK (0) on success; on a null pointer
 * or a zero / oversized destination it returns EINVAL or ERANGE_AND_RESET-style codes without
 * writing past destMax; when the source does not fit, the destination is emptied (strings) or
 * left untouched (memory) and a non-zero code is returned. Header-only: static inline, C and C++. */
#ifndef PACL_SECUREC_H_
#define PACL_SECUREC_H_

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#ifndef EOK
#define EOK 0
#endif
#ifndef SECUREC_MEM_MAX_LEN
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#endif
#ifndef SECUREC_STRING_MAX_LEN
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL
#endif

typedef int errno_t;

#ifdef __cplusplus
extern "C" {
#endif

static inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
  if (dest == NULL || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return EINVAL;
  if (count > destMax) {
    memset(dest, c, destMax);
    return ERANGE;
  }
  memset(dest, c, count);
  return EOK;
}

static inline errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
  if (dest == NULL || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return EINVAL;
  if (src == NULL) {
    memset(dest, 0, destMax);
    return EINVAL;
  }
  if (count > destMax) {
    memset(dest, 0, destMax);
    return ERANGE;
  }
  const char* s = (const char*)src;
  char* d = (char*)dest;
  if ((d < s && d + count > s) || (s < d && s + count > d)) {
    memset(dest, 0, destMax);
    return EOVERFLOW; /* overlapping buffers: use memmove_s */
  }
  if (count) memmove(dest, src, count); /* the ranges are disjoint; memmove keeps compilers quiet */
  return EOK;
}

static inline errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
  if (dest == NULL || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return EINVAL;
  if (src == NULL) {
    memset(dest, 0, destMax);
    return EINVAL;
  }
  if (count > destMax) {
    memset(dest, 0, destMax);
    return ERANGE;
  }
  if (count) memmove(dest, src, count);
  return EOK;
}

static inline errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  if (strDest == NULL || destMax == 0 || destMax > SECUREC_STRING_MAX_LEN) return EINVAL;
  if (strSrc == NULL) {
    strDest[0] = '\0';
    return EINVAL;
  }
  size_t n = 0;
  while (n < count && strSrc[n] != '\0') ++n;
  if (n >= destMax) {
    strDest[0] = '\0';
    return ERANGE;
  }
  memmove(strDest, strSrc, n);
  strDest[n] = '\0';
  return EOK;
}

static inline errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc) {
  return strncpy_s(strDest, destMax, strSrc, (size_t)-1);
}

static inline errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc) {
  if (strDest == NULL || destMax == 0 || destMax > SECUREC_STRING_MAX_LEN) return EINVAL;
  size_t used = 0;
  while (used < destMax && strDest[used] != '\0') ++used;
  if (used == destMax) {
    strDest[0] = '\0';
    return EINVAL; /* the destination is not terminated within destMax */
  }
  const errno_t rc = strcpy_s(strDest + used, destMax - used, strSrc);
  if (rc != EOK) strDest[0] = '\0';
  return rc;
}

static inline int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list args) {
  if (strDest == NULL || destMax == 0 || destMax > SECUREC_STRING_MAX_LEN || format == NULL) return -1;
  size_t limit = count < destMax ? count + 1 : destMax;
  const int n = vsnprintf(strDest, limit, format, args);
  if (n < 0) {
    strDest[0] = '\0';
    return -1;
  }
  if ((size_t)n >= limit) {
    if (count < destMax) return -1; /* truncated to count characters, as requested */
    strDest[0] = '\0';
    return -1;
  }
  return n;
}

static inline int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vsnprintf_s(strDest, destMax, count, format, args);
  va_end(args);
  return n;
}

static inline int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list args) {
  if (strDest == NULL || destMax == 0 || destMax > SECUREC_STRING_MAX_LEN || format == NULL) return -1;
  const int n = vsnprintf(strDest, destMax, format, args);
  if (n < 0 || (size_t)n >= destMax) { /* an error or no room: the destination is emptied */
    strDest[0] = '\0';
    return -1;
  }
  return n;
}

static inline int sprintf_s(char* strDest, size_t destMax, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vsprintf_s(strDest, destMax, format, args);
  va_end(args);
  return n;
}

#ifdef __cplusplus
}
#endif

#endif /* PACL_SECUREC_H_ */
