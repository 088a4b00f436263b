// Where an object came from: the API call that created it and the caller's stack at that moment
// (frames inside libpacl skipped), symbolized only when a report needs it.
#pragma once

#include <string>
#include <vector>

namespace pacl::check {

class Origin {
 public:
  Origin() = default;
  // Captures the calling stack; `api` names the creating call ("aclrtMalloc").
  static Origin capture(const char* api);
  // "aclrtMalloc, called from\n    #0 main+0x5f (./prog)\n    #1 ..." (indent: per frame line).
  std::string describe(const char* indent = "    ") const;
  const std::string& api() const { return api_; }

 private:
  std::string api_;
  std::vector<void*> frames_;
};

}  // namespace pacl::check
