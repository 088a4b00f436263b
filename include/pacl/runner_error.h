/* pacl runner: errors that explain themselves.
 *
 * Every failure of the runner is a Status: the op, the phase it failed in, the aclnn/ACL status
 * code with its symbolic name, a one-line summary of the arguments (dtype and shape of each tensor,
 * scalar values) and aclGetRecentErrMsg() at the moment of failure. The throwing API raises it as a
 * RunnerError; the Try* API returns it. PACL_CHECK does the same for plain two-phase code.
 *
 * Uses only the public CANN API (acl/acl.h), so it builds against a real CANN install. */
#ifndef PACL_RUNNER_ERROR_H
#define PACL_RUNNER_ERROR_H

#include <cstdint>
#include <stdexcept>
#include <string>

namespace pacl {

// Where a call failed.
enum class Phase : int {
  kNone = 0,     // no failure
  kResolve,      // finding aclnn<Op>GetWorkspaceSize / aclnn<Op> (unknown op, symbol not loaded)
  kArguments,    // the arguments do not fit the op's signature, or a tensor cannot be read
  kPhase1,       // aclnn<Op>GetWorkspaceSize
  kCache,        // making an executor repeatable or rebinding its addresses
  kWorkspace,    // allocating the workspace
  kPhase2,       // aclnn<Op>
  kSynchronize,  // aclrtSynchronizeStream after the launch
  kParity,       // parity mode: a fresh phase 1 disagrees with the cached executor
  kCheck,        // PACL_CHECK on an expression
  kInternal,     // out of host memory or another unexpected failure inside the runner
};

// "phase 1", "workspace", ...
const char* PhaseName(Phase phase);

// Symbolic name of an aclnn or ACL status code ("ACLNN_ERR_PARAM_INVALID",
// "ACL_ERROR_RT_MEMORY_ALLOCATION", ...), taken at build time from the CANN headers; nullptr if
// the code has none.
const char* StatusName(int32_t code);

class Status {
 public:
  Status() = default;  // success
  Status(int32_t code, Phase phase, std::string op, std::string detail, std::string args = {},
         std::string acl_message = {});

  bool ok() const { return phase_ == Phase::kNone; }
  int32_t code() const { return code_; }
  Phase phase() const { return phase_; }
  const std::string& op() const { return op_; }            // "Add"; for PACL_CHECK the expression
  const std::string& detail() const { return detail_; }    // what went wrong, in words
  const std::string& args() const { return args_; }        // "self=float32[2,3] alpha=1(float32) ..."
  const std::string& acl_message() const { return acl_message_; }  // aclGetRecentErrMsg()
  // One line: "aclnnAdd: phase 1 (aclnnAddGetWorkspaceSize) failed with 161002
  // ACLNN_ERR_PARAM_INVALID; args: self=float32[2,3] ...; CANN: <message>".
  std::string ToString() const;

 private:
  int32_t code_ = 0;
  Phase phase_ = Phase::kNone;
  std::string op_, detail_, args_, acl_message_;
};

class RunnerError : public std::runtime_error {
 public:
  explicit RunnerError(Status status);
  const Status& status() const noexcept { return status_; }

 private:
  Status status_;
};

namespace detail {
// Throws RunnerError (phase kCheck) when status != 0.
void CheckOrThrow(int32_t status, const char* expr, const char* file, int line);
// Prints the kCheck explanation of a failed status to stderr.
void LogFailedStatus(int32_t status, const char* expr, const char* file, int line);
}  // namespace detail

}  // namespace pacl

// PACL_CHECK(aclnnAddGetWorkspaceSize(...)): throws pacl::RunnerError naming the expression, the
// file and line, the status with its symbolic name and aclGetRecentErrMsg() unless it returned 0.
#define PACL_CHECK(expr) ::pacl::detail::CheckOrThrow(static_cast<int32_t>(expr), #expr, __FILE__, __LINE__)

// The no-exception form for functions returning a status (like CANN's examples' CHECK_RET): prints
// the same explanation to stderr and returns the status from the enclosing function.
#define PACL_CHECK_RETURN(expr)                                                  \
  do {                                                                           \
    const int32_t pacl_check_status_ = static_cast<int32_t>(expr);               \
    if (pacl_check_status_ != 0) {                                               \
      ::pacl::detail::LogFailedStatus(pacl_check_status_, #expr, __FILE__, __LINE__); \
      return pacl_check_status_;                                                 \
    }                                                                            \
  } while (0)

#endif  // PACL_RUNNER_ERROR_H
