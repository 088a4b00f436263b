// Scalars, names of dtypes/formats/statuses/phases, Status and RunnerError, owned handles.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>

#include "internal.h"

namespace pacl {

namespace {

struct CodeName {
  int32_t code;
  const char* name;
};
constexpr CodeName kStatusNames[] = {
#include "status_names.inc"
};

uint16_t FloatToBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x40);
  u += 0x7FFF + ((u >> 16) & 1);
  return static_cast<uint16_t>(u >> 16);
}
float Bf16ToFloat(uint16_t b) {
  const uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

template <class T>
T Load(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <class T>
T Saturate(double v) {
  if (std::isnan(v)) return T(0);
  if (v <= static_cast<double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
  if (v >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(v);
}

}  // namespace

// ---- Scalar --------------------------------------------------------------------------------------

void Scalar::Set(const void* p, aclDataType dtype, size_t n) {
  dtype_ = dtype;
  size_ = static_cast<uint32_t>(std::min<size_t>(n, sizeof bytes_));
  std::memset(bytes_, 0, sizeof bytes_);
  std::memcpy(bytes_, p, size_);
}

Scalar::Scalar(double value, aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT: { const float v = static_cast<float>(value); Set(&v, dtype, 4); break; }
    case ACL_DOUBLE: Set(&value, dtype, 8); break;
    case ACL_FLOAT16: { const aclFloat16 v = aclFloatToFloat16(static_cast<float>(value)); Set(&v, dtype, 2); break; }
    case ACL_BF16: { const uint16_t v = FloatToBf16(static_cast<float>(value)); Set(&v, dtype, 2); break; }
    case ACL_BOOL: { const bool v = value != 0; Set(&v, dtype, 1); break; }
    case ACL_INT8: { const int8_t v = Saturate<int8_t>(value); Set(&v, dtype, 1); break; }
    case ACL_UINT8: { const uint8_t v = Saturate<uint8_t>(value); Set(&v, dtype, 1); break; }
    case ACL_INT16: { const int16_t v = Saturate<int16_t>(value); Set(&v, dtype, 2); break; }
    case ACL_UINT16: { const uint16_t v = Saturate<uint16_t>(value); Set(&v, dtype, 2); break; }
    case ACL_INT32: { const int32_t v = Saturate<int32_t>(value); Set(&v, dtype, 4); break; }
    case ACL_UINT32: { const uint32_t v = Saturate<uint32_t>(value); Set(&v, dtype, 4); break; }
    case ACL_INT64: { const int64_t v = Saturate<int64_t>(value); Set(&v, dtype, 8); break; }
    case ACL_UINT64: { const uint64_t v = Saturate<uint64_t>(value); Set(&v, dtype, 8); break; }
    default: {
      // Other dtypes: the value as float32 bytes would be a guess; keep the double's bytes.
      Set(&value, dtype, std::min<size_t>(8, std::max<size_t>(1, rn::DTypeSize(dtype))));
      break;
    }
  }
}

Scalar Scalar::FromBytes(const void* bytes, aclDataType dtype) {
  Scalar s;
  s.Set(bytes, dtype, std::min<size_t>(8, std::max<size_t>(1, rn::DTypeSize(dtype))));
  return s;
}

double Scalar::ToDouble() const {
  switch (dtype_) {
    case ACL_FLOAT: return Load<float>(bytes_);
    case ACL_DOUBLE: return Load<double>(bytes_);
    case ACL_FLOAT16: return aclFloat16ToFloat(Load<aclFloat16>(bytes_));
    case ACL_BF16: return Bf16ToFloat(Load<uint16_t>(bytes_));
    case ACL_BOOL: return bytes_[0] != 0 ? 1.0 : 0.0;
    case ACL_INT8: return Load<int8_t>(bytes_);
    case ACL_UINT8: return Load<uint8_t>(bytes_);
    case ACL_INT16: return Load<int16_t>(bytes_);
    case ACL_UINT16: return Load<uint16_t>(bytes_);
    case ACL_INT32: return Load<int32_t>(bytes_);
    case ACL_UINT32: return Load<uint32_t>(bytes_);
    case ACL_INT64: return static_cast<double>(Load<int64_t>(bytes_));
    case ACL_UINT64: return static_cast<double>(Load<uint64_t>(bytes_));
    default: return std::nan("");
  }
}

std::string Scalar::ToString() const {
  char buf[64];
  switch (dtype_) {
    case ACL_BOOL: std::snprintf(buf, sizeof buf, "%s", bytes_[0] ? "true" : "false"); break;
    case ACL_INT64: std::snprintf(buf, sizeof buf, "%" PRId64, Load<int64_t>(bytes_)); break;
    case ACL_UINT64: std::snprintf(buf, sizeof buf, "%" PRIu64, Load<uint64_t>(bytes_)); break;
    case ACL_INT8: case ACL_UINT8: case ACL_INT16: case ACL_UINT16: case ACL_INT32: case ACL_UINT32:
      std::snprintf(buf, sizeof buf, "%.0f", ToDouble());
      break;
    default: std::snprintf(buf, sizeof buf, "%.9g", ToDouble()); break;
  }
  return std::string(buf) + "(" + rn::DTypeName(dtype_) + ")";
}

bool Scalar::operator==(const Scalar& o) const {
  return dtype_ == o.dtype_ && size_ == o.size_ && std::memcmp(bytes_, o.bytes_, sizeof bytes_) == 0;
}

// ---- names ---------------------------------------------------------------------------------------

const char* PhaseName(Phase p) {
  switch (p) {
    case Phase::kNone: return "success";
    case Phase::kResolve: return "resolve";
    case Phase::kArguments: return "arguments";
    case Phase::kPhase1: return "phase 1";
    case Phase::kCache: return "executor cache";
    case Phase::kWorkspace: return "workspace";
    case Phase::kPhase2: return "phase 2";
    case Phase::kSynchronize: return "synchronize";
    case Phase::kParity: return "parity check";
    case Phase::kCheck: return "check";
    case Phase::kInternal: return "runner internals";
  }
  return "unknown phase";
}

const char* StatusName(int32_t code) {
  const auto* end = kStatusNames + sizeof kStatusNames / sizeof kStatusNames[0];
  const auto* it = std::lower_bound(kStatusNames, end, code, [](const CodeName& c, int32_t v) { return c.code < v; });
  return it != end && it->code == code ? it->name : nullptr;
}

const char* WorkspaceStrategyName(WorkspaceStrategy s) {
  switch (s) {
    case WorkspaceStrategy::kDefault: return "default";
    case WorkspaceStrategy::kPerCall: return "per-call";
    case WorkspaceStrategy::kPerStream: return "per-stream";
    case WorkspaceStrategy::kPool: return "pool";
  }
  return "unknown";
}

// ---- Status --------------------------------------------------------------------------------------

Status::Status(int32_t code, Phase phase, std::string op, std::string detail, std::string args,
               std::string acl_message)
    : code_(code), phase_(phase), op_(std::move(op)), detail_(std::move(detail)), args_(std::move(args)),
      acl_message_(std::move(acl_message)) {}

std::string Status::ToString() const {
  if (ok()) return "success";
  std::string s;
  if (phase_ == Phase::kCheck) s = "PACL_CHECK(" + op_ + ") failed";
  else if (op_.empty()) s = std::string("pacl runner: ") + PhaseName(phase_) + " failed";
  else s = "aclnn" + op_ + ": " + PhaseName(phase_) + " failed";
  const char* name = StatusName(code_);
  s += " with status " + std::to_string(code_) + " " + (name ? name : "(unnamed status)");
  if (!detail_.empty()) s += ": " + detail_;
  if (!args_.empty()) s += "; args: " + args_;
  if (!acl_message_.empty()) {
    std::string m = acl_message_;
    std::replace(m.begin(), m.end(), '\n', ' ');
    while (!m.empty() && m.back() == ' ') m.pop_back();
    s += "; CANN: " + m;
  }
  return s;
}

RunnerError::RunnerError(Status status) : std::runtime_error(status.ToString()), status_(std::move(status)) {}

namespace detail {

void Throw(const Status& status) { throw RunnerError(status); }

void CheckOrThrow(int32_t status, const char* expr, const char* file, int line) {
  if (status == 0) return;
  const std::string msg = rn::RecentAclMessage();
  throw RunnerError(Status(status, Phase::kCheck, expr, std::string("at ") + file + ":" + std::to_string(line), {}, msg));
}

void LogFailedStatus(int32_t status, const char* expr, const char* file, int line) {
  const std::string msg = rn::RecentAclMessage();
  const Status s(status, Phase::kCheck, expr, std::string("at ") + file + ":" + std::to_string(line), {}, msg);
  std::fprintf(stderr, "%s\n", s.ToString().c_str());
}

}  // namespace detail

namespace rn {

const char* DTypeName(aclDataType dtype) {
  switch (dtype) {
    case ACL_DT_UNDEFINED: return "undefined";
    case ACL_FLOAT: return "float32";
    case ACL_FLOAT16: return "float16";
    case ACL_INT8: return "int8";
    case ACL_INT32: return "int32";
    case ACL_UINT8: return "uint8";
    case ACL_INT16: return "int16";
    case ACL_UINT16: return "uint16";
    case ACL_UINT32: return "uint32";
    case ACL_INT64: return "int64";
    case ACL_UINT64: return "uint64";
    case ACL_DOUBLE: return "float64";
    case ACL_BOOL: return "bool";
    case ACL_STRING: return "string";
    case ACL_COMPLEX64: return "complex64";
    case ACL_COMPLEX128: return "complex128";
    case ACL_BF16: return "bfloat16";
    case ACL_INT4: return "int4";
    case ACL_UINT1: return "uint1";
    case ACL_COMPLEX32: return "complex32";
    case ACL_HIFLOAT8: return "hifloat8";
    case ACL_FLOAT8_E5M2: return "float8_e5m2";
    case ACL_FLOAT8_E4M3FN: return "float8_e4m3fn";
    case ACL_FLOAT8_E8M0: return "float8_e8m0";
    case ACL_FLOAT6_E3M2: return "float6_e3m2";
    case ACL_FLOAT6_E2M3: return "float6_e2m3";
    case ACL_FLOAT4_E2M1: return "float4_e2m1";
    case ACL_FLOAT4_E1M2: return "float4_e1m2";
  }
  return "dtype?";
}

const char* FormatName(aclFormat format) {
  switch (format) {
    case ACL_FORMAT_UNDEFINED: return "UNDEFINED";
    case ACL_FORMAT_NCHW: return "NCHW";
    case ACL_FORMAT_NHWC: return "NHWC";
    case ACL_FORMAT_ND: return "ND";
    case ACL_FORMAT_NC1HWC0: return "NC1HWC0";
    case ACL_FORMAT_FRACTAL_Z: return "FRACTAL_Z";
    case ACL_FORMAT_NC1HWC0_C04: return "NC1HWC0_C04";
    case ACL_FORMAT_HWCN: return "HWCN";
    case ACL_FORMAT_NDHWC: return "NDHWC";
    case ACL_FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
    case ACL_FORMAT_NCDHW: return "NCDHW";
    case ACL_FORMAT_NDC1HWC0: return "NDC1HWC0";
    case ACL_FRACTAL_Z_3D: return "FRACTAL_Z_3D";
    case ACL_FORMAT_NC: return "NC";
    case ACL_FORMAT_NCL: return "NCL";
    default: return "format?";
  }
}

size_t DTypeSize(aclDataType dtype) { return aclDataTypeSize(dtype); }

std::string Join(const int64_t* v, size_t n) {
  std::string s = "[";
  for (size_t k = 0; k < n; ++k) {
    if (k) s += ",";
    s += std::to_string(v[k]);
  }
  return s + "]";
}

std::string RecentAclMessage() {
  const char* m = aclGetRecentErrMsg();
  return m ? std::string(m) : std::string();
}

size_t EnvSize(const char* name, size_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const double x = std::strtod(v, &end);
  if (end == v || x < 0) return fallback;
  double mult = 1;
  switch (*end) {
    case 'k': case 'K': mult = 1024.0; break;
    case 'm': case 'M': mult = 1024.0 * 1024; break;
    case 'g': case 'G': mult = 1024.0 * 1024 * 1024; break;
    default: break;
  }
  return static_cast<size_t>(x * mult);
}

bool EnvFlag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0 && std::strcmp(v, "false") != 0 && std::strcmp(v, "off") != 0;
}

Owned::~Owned() {
  for (aclTensorList* l : tensor_lists) aclDestroyTensorList(l);
  for (aclTensor* t : tensors) aclDestroyTensor(t);
  for (aclScalarList* l : scalar_lists) aclDestroyScalarList(l);
  for (aclScalar* s : scalars) aclDestroyScalar(s);
  for (aclIntArray* a : int_arrays) aclDestroyIntArray(a);
  for (aclFloatArray* a : float_arrays) aclDestroyFloatArray(a);
  for (aclBoolArray* a : bool_arrays) aclDestroyBoolArray(a);
}

size_t Owned::count() const {
  return tensors.size() + tensor_lists.size() + scalars.size() + scalar_lists.size() + int_arrays.size() +
         float_arrays.size() + bool_arrays.size();
}

}  // namespace rn
}  // namespace pacl
