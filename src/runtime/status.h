// Internal error model. Inside pacl, failures are C++ exceptions of two kinds: the caller's fault
// (InvalidArgument, NullArgument) and "not supported here" (Unsupported). They are translated to
// aclnn/ACL status codes, with the message stored for aclGetRecentErrMsg(), only at the C boundary
// (see c_boundary.h). No exception ever crosses the C API.
#pragma once

#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace pacl {

class Error : public std::runtime_error {
 public:
  Error(int aclnn_code, int acl_code, std::string msg)
      : std::runtime_error(std::move(msg)), aclnn_code_(aclnn_code), acl_code_(acl_code) {}
  int aclnn_code() const { return aclnn_code_; }
  int acl_code() const { return acl_code_; }

 private:
  int aclnn_code_;
  int acl_code_;
};

// Status codes (values from op_errno.h / acl_base_rt.h / rt_error_codes.h, kept here so that no
// internal header needs the public C headers' macros).
inline constexpr int kAclnnNullptr = 161001;
inline constexpr int kAclnnInvalid = 161002;
inline constexpr int kAclnnRuntime = 361001;
inline constexpr int kAclnnInner = 561000;
inline constexpr int kAclnnInnerNullptr = 561103;
inline constexpr int kAclInvalidParam = 100000;
inline constexpr int kAclRtParamInvalid = 107000;
inline constexpr int kAclRtInvalidDeviceId = 107001;
inline constexpr int kAclRtContextNull = 107002;
inline constexpr int kAclRtFeatureNotSupport = 207000;
inline constexpr int kAclRtMemoryAllocation = 207001;
inline constexpr int kAclRtInternal = 507000;
inline constexpr int kAclRtStreamSyncTimeout = 507046;
inline constexpr int kAclRtEventSyncTimeout = 507047;

struct InvalidArgument : Error {
  explicit InvalidArgument(std::string msg) : Error(kAclnnInvalid, kAclInvalidParam, std::move(msg)) {}
};
struct NullArgument : Error {
  explicit NullArgument(std::string msg) : Error(kAclnnNullptr, kAclInvalidParam, std::move(msg)) {}
};
struct Unsupported : Error {
  explicit Unsupported(std::string msg) : Error(kAclnnInvalid, kAclRtFeatureNotSupport, std::move(msg)) {}
};
// A runtime failure with an explicit ACL runtime code (memory exhausted, bad handle, timeout...).
struct RuntimeError : Error {
  RuntimeError(int acl_code, std::string msg) : Error(kAclnnRuntime, acl_code, std::move(msg)) {}
};

template <typename... Args>
[[noreturn]] void invalid(fmt::format_string<Args...> f, Args&&... args) {
  throw InvalidArgument(fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
[[noreturn]] void unsupported(fmt::format_string<Args...> f, Args&&... args) {
  throw Unsupported(fmt::format(f, std::forward<Args>(args)...));
}

// The calling thread's last error text (what aclGetRecentErrMsg returns).
void set_last_error(std::string msg);
const char* last_error();

}  // namespace pacl
