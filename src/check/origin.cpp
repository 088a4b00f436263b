#include "check/origin.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <execinfo.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <fmt/format.h>

namespace pacl::check {

namespace {

constexpr int kMaxFrames = 20;
constexpr size_t kShownFrames = 8;

// The file name of the shared object holding this function: libpacl itself.
const char* own_module() {
  static const char* name = [] {
    Dl_info info{};
    dladdr(reinterpret_cast<void*>(&own_module), &info);
    return info.dli_fname ? info.dli_fname : "";
  }();
  return name;
}

std::string demangle(const char* sym) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(sym, nullptr, nullptr, &status), std::free);
  return status == 0 && d ? std::string(d.get()) : std::string(sym);
}

// "function at file:line" for an address of a module, from its debug information (addr2line, when
// installed); empty when unknown. Reports are rare, so a process per frame is affordable; results
// are cached.
std::string source_line(const char* module, uintptr_t offset) {
  static std::mutex mu;
  static std::map<std::pair<std::string, uintptr_t>, std::string> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto key = std::make_pair(std::string(module), offset);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  std::string result;
  const std::string cmd = fmt::format("addr2line -C -f -p -e '{}' {:#x} 2>/dev/null", module, offset);
  if (module[0] == '/' || module[0] == '.') {
    if (std::FILE* p = popen(cmd.c_str(), "r")) {
      char buf[1024];
      if (std::fgets(buf, sizeof buf, p)) result = buf;
      pclose(p);
    }
  }
  while (!result.empty() && (result.back() == '\n' || result.back() == '\r')) result.pop_back();
  if (result.find("??") != std::string::npos) result.clear();  // no debug information
  cache.emplace(std::move(key), result);
  return result;
}

}  // namespace

// Capturing is only the raw return addresses (dladdr is far too slow to run per object); frames
// inside pacl and the sanitizer runtimes are dropped when the origin is described.
Origin Origin::capture(const char* api) {
  Origin o;
  o.api_ = api ? api : "";
  void* frames[kMaxFrames];
  const int n = backtrace(frames, kMaxFrames);
  o.frames_.assign(frames, frames + n);
  return o;
}

std::string Origin::describe(const char* indent) const {
  std::string r = api_.empty() ? std::string("created") : api_;
  std::vector<void*> shown;
  const char* self = own_module();
  for (void* f : frames_) {
    Dl_info info{};
    if (dladdr(f, &info) && info.dli_fname &&
        (std::strcmp(info.dli_fname, self) == 0 || std::strstr(info.dli_fname, "/libasan.") ||
         std::strstr(info.dli_fname, "/libtsan.") || std::strstr(info.dli_fname, "/libubsan.")))
      continue;  // pacl itself and sanitizer interceptors
    if (shown.size() < kShownFrames) shown.push_back(f);
  }
  if (shown.empty()) return r;
  r += ", called from";
  for (size_t i = 0; i < shown.size(); ++i) {
    Dl_info info{};
    std::string where;
    // The return address points after the call; step back one byte to name the calling line.
    void* pc = static_cast<char*>(shown[i]) - 1;
    if (dladdr(pc, &info) && info.dli_fname) {
      const char* module = info.dli_fname;
      const auto offset = static_cast<uintptr_t>(static_cast<char*>(pc) - static_cast<char*>(info.dli_fbase));
      const std::string line = source_line(module, offset);
      if (!line.empty())
        where = line;
      else if (info.dli_sname)
        where = fmt::format("{}+{:#x} ({})", demangle(info.dli_sname),
                            static_cast<char*>(pc) - static_cast<char*>(info.dli_saddr), module);
      else
        where = fmt::format("{}+{:#x}", module, offset);
    } else {
      where = fmt::format("{}", pc);
    }
    r += fmt::format("\n{}#{} {}", indent, i, where);
  }
  return r;
}

}  // namespace pacl::check
