// The C boundary: runs a body, translates pacl exceptions into the status code of the API family
// and records "<api>: <message>" for aclGetRecentErrMsg(). Every extern "C" entry point uses this.
#pragma once

#include <new>

#include "runtime/status.h"
#include "runtime/trace.h"

namespace pacl {

enum class ApiFamily { kAcl, kAclnn };

template <typename Body>
int c_call_untraced(ApiFamily family, const char* api, Body&& body) noexcept {
  try {
    body();
    return 0;
  } catch (const Error& e) {
    set_last_error(fmt::format("{}: {}", api, e.what()));
    return family == ApiFamily::kAcl ? e.acl_code() : e.aclnn_code();
  } catch (const std::bad_alloc&) {
    set_last_error(fmt::format("{}: out of host memory", api));
    return family == ApiFamily::kAcl ? 500000 /*ACL_ERROR_INTERNAL_ERROR*/ : kAclnnInner;
  } catch (const std::exception& e) {
    set_last_error(fmt::format("{}: internal error: {}", api, e.what()));
    return family == ApiFamily::kAcl ? 500000 : kAclnnInner;
  } catch (...) {
    set_last_error(fmt::format("{}: internal error", api));
    return family == ApiFamily::kAcl ? 500000 : kAclnnInner;
  }
}

// Runs `body` as the API call `api` (traced as a span on the calling thread when tracing is on).
template <typename Body>
int c_call(ApiFamily family, const char* api, Body&& body) noexcept {
  if (!trace::on()) return c_call_untraced(family, api, std::forward<Body>(body));
  const double t0 = trace::now_us();
  const int rc = c_call_untraced(family, api, std::forward<Body>(body));
  trace::api_span(api, t0, trace::now_us(), rc);
  return rc;
}

template <typename Body>
int acl_call(const char* api, Body&& body) noexcept {
  return c_call(ApiFamily::kAcl, api, std::forward<Body>(body));
}

template <typename Body>
int nn_call(const char* api, Body&& body) noexcept {
  return c_call(ApiFamily::kAclnn, api, std::forward<Body>(body));
}

template <typename... Args>
[[noreturn]] void rt_error(int acl_code, fmt::format_string<Args...> f, Args&&... args) {
  throw RuntimeError(acl_code, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
[[noreturn]] void bad_param(fmt::format_string<Args...> f, Args&&... args) {
  throw InvalidArgument(fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace pacl
