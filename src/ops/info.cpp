// The pacl/info.h extension: the op registry and build facts, for the `pacl` tool.
#include "pacl/info.h"

#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/parallel.h"
#include "ops/registry.h"

namespace {

std::string build_info() {
  std::string r;
  r += fmt::format("fmt {}.{}.{}\n", FMT_VERSION / 10000, FMT_VERSION / 100 % 100, FMT_VERSION % 100);
  r += fmt::format("nlohmann_json {}.{}.{}\n", NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR,
                   NLOHMANN_JSON_VERSION_PATCH);
#if defined(__clang__)
  r += fmt::format("compiler clang {}\n", __clang_version__);
#elif defined(__GNUC__)
  r += fmt::format("compiler GCC {}.{}.{}\n", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#endif
#ifdef PACL_HAVE_LIBMVEC
  r += "vector math: glibc libmvec\n";
#else
  r += "vector math: scalar libm\n";
#endif
#if defined(__AVX2__)
  r += "built for: AVX2";
#if defined(__FMA__)
  r += " FMA";
#endif
#if defined(__F16C__)
  r += " F16C";
#endif
#if defined(__AVX512F__)
  r += " AVX-512";
#endif
  r += "\n";
#else
  r += "built for: baseline x86-64\n";
#endif
  return r;
}

}  // namespace

extern "C" {

const char* paclVersion(void) { return PACL_VERSION_STRING; }
int paclOpCount(void) { return static_cast<int>(pacl::all_ops().size()); }
const char* paclOpName(int index) {
  return index >= 0 && index < paclOpCount() ? pacl::all_ops()[static_cast<size_t>(index)]->name : nullptr;
}
const char* paclOpHeader(int index) {
  return index >= 0 && index < paclOpCount() ? pacl::all_ops()[static_cast<size_t>(index)]->header : nullptr;
}
int paclThreadCount(void) { return pacl::max_threads(); }
const char* paclBuildInfo(void) {
  static const std::string s = build_info();
  return s.c_str();
}

}
