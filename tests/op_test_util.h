// Shared helpers for the op tests. They use the public CANN C API only (acl/acl.h, aclnn/*), never
// pacl's internals, so a reference written with them is independent of the code under test.
//
//  - TensorDesc / ScalarDesc: one-line problem descriptors (dtype, shape, strides, offset,
//    storage size; dtype and value). str() is the repro printed on failure, e.g.
//    "float16[2,3] strides[1,2] offset 1" and "int64(2)".
//  - Tensor / Scalar: own the device buffer (aclrtMalloc) and the aclTensor / aclScalar built
//    from a descriptor, plus a host copy of the whole storage for filling and reading back.
//  - Num: one element value, exact for every dtype (double for floating, int64 for integral and
//    bool). cast() converts a Num to a dtype with PyTorch's value semantics; the 16-bit float
//    formats are encoded here from scratch (round to nearest even).
//  - fill_random(): seeded values suited to the dtype, with the special values (0, -0, inf, -inf,
//    nan, denormals, extremes; integer min/max/0/-1) mixed in.
//  - AclEnvironment: aclInit + device 0 + one stream for the whole test binary (stream()).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"

namespace optest {

using Shape = std::vector<int64_t>;
using Rng = std::mt19937_64;

// ---- dtypes -------------------------------------------------------------------------------------

// The ten dtypes the aclnn elementwise ops compute with.
inline const std::vector<aclDataType>& compute_dtypes() {
  static const std::vector<aclDataType> v = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT32,
                                             ACL_INT64, ACL_INT16,   ACL_INT8,  ACL_UINT8,  ACL_BOOL};
  return v;
}

inline bool is_compute_dtype(aclDataType t) {
  const auto& v = compute_dtypes();
  return std::find(v.begin(), v.end(), t) != v.end();
}

inline const char* dtype_name(aclDataType t) {
  switch (t) {
    case ACL_FLOAT: return "float32";
    case ACL_FLOAT16: return "float16";
    case ACL_BF16: return "bfloat16";
    case ACL_DOUBLE: return "float64";
    case ACL_INT8: return "int8";
    case ACL_INT16: return "int16";
    case ACL_INT32: return "int32";
    case ACL_INT64: return "int64";
    case ACL_UINT8: return "uint8";
    case ACL_UINT16: return "uint16";
    case ACL_UINT32: return "uint32";
    case ACL_UINT64: return "uint64";
    case ACL_BOOL: return "bool";
    case ACL_COMPLEX64: return "complex64";
    case ACL_COMPLEX128: return "complex128";
    default: break;
  }
  static thread_local char buf[24];
  std::snprintf(buf, sizeof buf, "DT_%d", static_cast<int>(t));
  return buf;
}

inline size_t dtype_size(aclDataType t) {
  switch (t) {
    case ACL_BOOL: case ACL_INT8: case ACL_UINT8: return 1;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
    case ACL_DOUBLE: case ACL_INT64: case ACL_UINT64: case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    default: return 0;
  }
}

inline bool is_floating(aclDataType t) {
  return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16 || t == ACL_DOUBLE;
}
// Integral, bool excluded.
inline bool is_integral(aclDataType t) {
  return t == ACL_INT8 || t == ACL_INT16 || t == ACL_INT32 || t == ACL_INT64 || t == ACL_UINT8;
}
inline int int_bits(aclDataType t) { return static_cast<int>(dtype_size(t)) * 8; }
inline bool is_unsigned(aclDataType t) { return t == ACL_UINT8 || t == ACL_BOOL; }

inline int64_t int_min(aclDataType t) {
  if (t == ACL_INT64) return std::numeric_limits<int64_t>::min();
  return is_unsigned(t) ? 0 : -(int64_t{1} << (int_bits(t) - 1));
}
inline int64_t int_max(aclDataType t) {
  if (t == ACL_BOOL) return 1;
  if (t == ACL_INT64) return std::numeric_limits<int64_t>::max();
  return is_unsigned(t) ? (int64_t{1} << int_bits(t)) - 1 : (int64_t{1} << (int_bits(t) - 1)) - 1;
}

// Two's complement wrap of v to the width of integral dtype t.
inline int64_t wrap_int(uint64_t v, aclDataType t) {
  const int bits = int_bits(t);
  if (bits == 64) return static_cast<int64_t>(v);
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  v &= mask;
  if (!is_unsigned(t) && (v >> (bits - 1)) != 0) v |= ~mask;
  return static_cast<int64_t>(v);
}

// ---- 16-bit float formats, written from their definitions -----------------------------------------
// The encodings are continuous: adding one to the bit pattern of the largest value of a binade
// gives the smallest of the next, and the largest finite value plus one ulp is infinity. So a
// mantissa that rounds up to the next power of two carries into the exponent by itself.

inline uint16_t half_bits(float f) {
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  if (std::isnan(f)) return sign | 0x7e00;
  const double a = std::fabs(static_cast<double>(f));
  if (std::isinf(a)) return sign | 0x7c00;
  if (a < std::ldexp(1.0, -14))  // subnormal: quantum 2^-24
    return sign | static_cast<uint16_t>(std::nearbyint(std::ldexp(a, 24)));
  int e = 0;
  std::frexp(a, &e);  // a = m * 2^e with m in [0.5, 1): the binade is 2^(e-1)
  if (e - 1 > 15) return sign | 0x7c00;
  const double q = std::nearbyint(std::ldexp(a, 10 - (e - 1)));  // in [1024, 2048]
  const uint32_t bits = static_cast<uint32_t>(e - 1 + 15) * 1024u + static_cast<uint32_t>(q) - 1024u;
  return sign | static_cast<uint16_t>(std::min<uint32_t>(bits, 0x7c00));
}

inline double half_value(uint16_t h) {
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  const int exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  if (exp == 0) return sign * std::ldexp(man, -24);
  if (exp == 0x1f) return man ? std::numeric_limits<double>::quiet_NaN() : sign * HUGE_VAL;
  return sign * std::ldexp(man + 1024, exp - 25);
}

inline uint16_t bf16_bits(float f) {
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  if (std::isnan(f)) return sign | 0x7fc0;
  const double a = std::fabs(static_cast<double>(f));
  if (std::isinf(a)) return sign | 0x7f80;
  if (a < std::ldexp(1.0, -126))  // subnormal: quantum 2^-133
    return sign | static_cast<uint16_t>(std::nearbyint(std::ldexp(a, 133)));
  int e = 0;
  std::frexp(a, &e);
  const double q = std::nearbyint(std::ldexp(a, 7 - (e - 1)));  // in [128, 256]
  const uint32_t bits = static_cast<uint32_t>(e - 1 + 127) * 128u + static_cast<uint32_t>(q) - 128u;
  return sign | static_cast<uint16_t>(std::min<uint32_t>(bits, 0x7f80));
}

inline double bf16_value(uint16_t b) {
  const double sign = (b & 0x8000) ? -1.0 : 1.0;
  const int exp = (b >> 7) & 0xff, man = b & 0x7f;
  if (exp == 0) return sign * std::ldexp(man, -133);
  if (exp == 0xff) return man ? std::numeric_limits<double>::quiet_NaN() : sign * HUGE_VAL;
  return sign * std::ldexp(man + 128, exp - 134);
}

// ---- element values ---------------------------------------------------------------------------------

// One element value: f for floating dtypes, i for integral and bool. `undefined` marks a value
// the contract leaves open (a float -> integer conversion out of range or of NaN).
struct Num {
  bool is_float = false;
  double f = 0;
  int64_t i = 0;
  bool undefined = false;

  static Num real(double v) { return Num{true, v, 0, false}; }
  static Num integer(int64_t v) { return Num{false, 0, v, false}; }
  double as_double() const { return is_float ? f : static_cast<double>(i); }
  bool nonzero() const { return is_float ? f != 0 || std::isnan(f) : i != 0; }
};

// v converted to dtype t as PyTorch's static casts do: to bool is "!= 0"; integral -> integral
// wraps; floating -> integral truncates toward zero (undefined when out of range or NaN); to
// float16/bfloat16 goes through float32 first (c10::Half and c10::BFloat16 are built from float).
inline Num cast(const Num& v, aclDataType t) {
  if (v.undefined) return v;
  switch (t) {
    case ACL_BOOL: return Num::integer(v.nonzero() ? 1 : 0);
    case ACL_DOUBLE: return Num::real(v.is_float ? v.f : static_cast<double>(v.i));
    case ACL_FLOAT: return Num::real(v.is_float ? static_cast<float>(v.f) : static_cast<float>(v.i));
    case ACL_FLOAT16:
      return Num::real(half_value(half_bits(v.is_float ? static_cast<float>(v.f) : static_cast<float>(v.i))));
    case ACL_BF16:
      return Num::real(bf16_value(bf16_bits(v.is_float ? static_cast<float>(v.f) : static_cast<float>(v.i))));
    default: break;
  }
  if (!v.is_float) return Num::integer(wrap_int(static_cast<uint64_t>(v.i), t));
  const double tr = std::trunc(v.f);
  // The range check is done in double: int_min is a power of two, int_max + 1 as well.
  if (std::isnan(tr) || tr < static_cast<double>(int_min(t)) || tr >= static_cast<double>(int_max(t)) + 1.0) {
    Num u = Num::integer(0);
    u.undefined = true;
    return u;
  }
  return Num::integer(static_cast<int64_t>(tr));
}

// Bit pattern of a value representable in floating dtype t (for ulp distances).
inline uint64_t float_bits(aclDataType t, double v) {
  switch (t) {
    case ACL_FLOAT16: return half_bits(static_cast<float>(v));
    case ACL_BF16: return bf16_bits(static_cast<float>(v));
    case ACL_FLOAT: {
      const float f = static_cast<float>(v);
      uint32_t b;
      std::memcpy(&b, &f, 4);
      return b;
    }
    default: {
      uint64_t b;
      std::memcpy(&b, &v, 8);
      return b;
    }
  }
}

// Distance in units in the last place of dtype t between two non-NaN values representable in t
// (-0 and +0 are the same point).
inline uint64_t ulp_distance(aclDataType t, double a, double b) {
  const int sign_bit = t == ACL_DOUBLE ? 63 : t == ACL_FLOAT ? 31 : 15;
  // Ordered as unsigned integers: negatives below 2^63 (more negative lower), positives above.
  auto ordinal = [&](double v) {
    const uint64_t bits = float_bits(t, v);
    const uint64_t mag = bits & ((uint64_t{1} << sign_bit) - 1);
    const uint64_t mid = uint64_t{1} << 63;
    return (bits >> sign_bit) ? mid - mag : mid + mag;
  };
  const uint64_t x = ordinal(a), y = ordinal(b);
  return x > y ? x - y : y - x;
}

// Reads one element of dtype t. bool keeps the raw byte so that a stored 2 is caught.
inline Num load(aclDataType t, const void* p) {
  auto get = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  switch (t) {
    case ACL_BOOL: return Num::integer(get(uint8_t{}));
    case ACL_UINT8: return Num::integer(get(uint8_t{}));
    case ACL_INT8: return Num::integer(get(int8_t{}));
    case ACL_INT16: return Num::integer(get(int16_t{}));
    case ACL_INT32: return Num::integer(get(int32_t{}));
    case ACL_INT64: return Num::integer(get(int64_t{}));
    case ACL_FLOAT16: return Num::real(half_value(get(uint16_t{})));
    case ACL_BF16: return Num::real(bf16_value(get(uint16_t{})));
    case ACL_FLOAT: return Num::real(get(float{}));
    case ACL_DOUBLE: return Num::real(get(double{}));
    default: break;
  }
  ADD_FAILURE() << "load: dtype " << dtype_name(t) << " has no host representation here";
  return Num::integer(0);
}

// Writes v converted to dtype t.
inline void store(aclDataType t, void* p, const Num& value) {
  const Num v = cast(value, t);
  auto put = [p](auto x) { std::memcpy(p, &x, sizeof x); };
  switch (t) {
    case ACL_BOOL: put(static_cast<uint8_t>(v.i != 0)); return;
    case ACL_UINT8: put(static_cast<uint8_t>(v.i)); return;
    case ACL_INT8: put(static_cast<int8_t>(v.i)); return;
    case ACL_INT16: put(static_cast<int16_t>(v.i)); return;
    case ACL_INT32: put(static_cast<int32_t>(v.i)); return;
    case ACL_INT64: put(v.i); return;
    case ACL_FLOAT16: put(half_bits(static_cast<float>(v.f))); return;
    case ACL_BF16: put(bf16_bits(static_cast<float>(v.f))); return;
    case ACL_FLOAT: put(static_cast<float>(v.f)); return;
    case ACL_DOUBLE: put(v.f); return;
    default: break;
  }
  ADD_FAILURE() << "store: dtype " << dtype_name(t) << " has no host representation here";
}

inline std::string num_str(const Num& v) {
  if (v.undefined) return "undefined";
  char buf[40];
  if (v.is_float) std::snprintf(buf, sizeof buf, "%.17g", v.f);
  else std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v.i));
  return buf;
}

// Whether `actual` (read from an output of dtype t) is `expected` (already converted to t)
// exactly: same bits for integers and bool, same value and sign of zero for floats, NaN == NaN.
inline bool same_value(aclDataType t, const Num& expected, const Num& actual) {
  if (!is_floating(t)) return expected.i == actual.i;
  if (std::isnan(expected.f) || std::isnan(actual.f)) return std::isnan(expected.f) && std::isnan(actual.f);
  return expected.f == actual.f && std::signbit(expected.f) == std::signbit(actual.f);
}

// ---- random values ------------------------------------------------------------------------------

struct FillOptions {
  double special = 0.1;     // share of special values (inf, nan, denormals, extremes, int min/max...)
  double small_int = 0.4;   // share of small integers in [-16, 16] (exact quotients, remainders, -0)
};

// The special values of dtype t.
inline std::vector<Num> special_values(aclDataType t) {
  const double inf = HUGE_VAL, nan = std::numeric_limits<double>::quiet_NaN();
  double denorm_min = 0, denorm_max = 0, norm_min = 0, max = 0;
  switch (t) {
    case ACL_FLOAT16: denorm_min = std::ldexp(1.0, -24); norm_min = std::ldexp(1.0, -14); max = 65504; break;
    case ACL_BF16:
      denorm_min = std::ldexp(1.0, -133);
      norm_min = std::ldexp(1.0, -126);
      max = bf16_value(0x7f7f);
      break;
    case ACL_FLOAT:
      denorm_min = std::numeric_limits<float>::denorm_min();
      norm_min = std::numeric_limits<float>::min();
      max = std::numeric_limits<float>::max();
      break;
    case ACL_DOUBLE:
      denorm_min = std::numeric_limits<double>::denorm_min();
      norm_min = std::numeric_limits<double>::min();
      max = std::numeric_limits<double>::max();
      break;
    case ACL_BOOL: return {Num::integer(0), Num::integer(1)};
    default: {
      std::vector<Num> v = {Num::integer(0), Num::integer(1), Num::integer(int_max(t)), Num::integer(int_min(t))};
      if (!is_unsigned(t)) {
        v.push_back(Num::integer(-1));
        v.push_back(Num::integer(int_min(t) + 1));
      } else {
        v.push_back(Num::integer(int_max(t) - 1));
      }
      return v;
    }
  }
  denorm_max = norm_min - denorm_min;
  return {Num::real(0.0),        Num::real(-0.0),      Num::real(inf),       Num::real(-inf),
          Num::real(nan),        Num::real(denorm_min), Num::real(-denorm_max), Num::real(denorm_max),
          Num::real(norm_min),   Num::real(max),        Num::real(-max),      Num::real(1.0),
          Num::real(-1.0)};
}

// A random value of dtype t (already representable in t).
inline Num random_value(aclDataType t, Rng& rng, const FillOptions& o = {}) {
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  const double u = u01(rng);
  if (u < o.special) {
    const auto s = special_values(t);
    return s[std::uniform_int_distribution<size_t>(0, s.size() - 1)(rng)];
  }
  if (t == ACL_BOOL) return Num::integer(static_cast<int64_t>(rng() & 1));
  if (u < o.special + o.small_int) {
    const int64_t lo = is_unsigned(t) ? 0 : -16;
    return cast(Num::integer(std::uniform_int_distribution<int64_t>(lo, 16)(rng)), t);
  }
  if (is_integral(t)) return Num::integer(wrap_int(rng(), t));
  const double sign = (rng() & 1) ? -1.0 : 1.0;
  if (u01(rng) < 0.5) return cast(Num::real(std::uniform_real_distribution<double>(-10.0, 10.0)(rng)), t);
  // A wide spread of magnitudes (overflow to inf in float16 is fine: it is a value like any other).
  const double mag = std::ldexp(1.0 + u01(rng), std::uniform_int_distribution<int>(-24, 24)(rng));
  return cast(Num::real(sign * mag), t);
}

// ---- shapes -------------------------------------------------------------------------------------

inline int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

inline Shape contiguous_strides(const Shape& s) {
  Shape st(s.size(), 1);
  for (size_t i = s.size(); i-- > 1;) st[i - 1] = st[i] * std::max<int64_t>(s[i], 1);
  return st;
}

inline std::string shape_str(const Shape& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

// NumPy broadcasting; false when the shapes do not broadcast.
inline bool broadcast_shapes(const Shape& a, const Shape& b, Shape* out) {
  const size_t n = std::max(a.size(), b.size());
  Shape r(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1) return false;
    r[i] = x == 1 ? y : x;
  }
  *out = r;
  return true;
}

// Calls f(index) for every index of shape s in row-major order.
inline void for_each_index(const Shape& s, const std::function<void(const Shape&)>& f) {
  if (numel(s) == 0) return;
  Shape idx(s.size(), 0);
  while (true) {
    f(idx);
    size_t d = s.size();
    while (d > 0) {
      if (++idx[d - 1] < s[d - 1]) break;
      idx[d - 1] = 0;
      --d;
    }
    if (d == 0) return;
  }
}

// ---- descriptors --------------------------------------------------------------------------------

// A tensor as one line: dtype, view shape, strides (empty: contiguous), element offset and storage
// size in elements (-1: just large enough for the view).
struct TensorDesc {
  aclDataType dtype = ACL_FLOAT;
  Shape shape;
  Shape strides;
  int64_t offset = 0;
  int64_t storage = -1;

  TensorDesc() = default;
  TensorDesc(aclDataType t, Shape s, Shape st = {}, int64_t off = 0, int64_t stor = -1)
      : dtype(t), shape(std::move(s)), strides(std::move(st)), offset(off), storage(stor) {}

  Shape view_strides() const { return strides.empty() ? contiguous_strides(shape) : strides; }
  // Elements the view needs: one past the furthest element it reaches.
  int64_t needed_storage() const {
    if (numel(shape) == 0) return offset;
    const Shape st = view_strides();
    int64_t hi = offset;
    for (size_t i = 0; i < shape.size(); ++i) hi += (shape[i] - 1) * st[i];
    return hi + 1;
  }
  int64_t storage_elems() const { return storage >= 0 ? storage : needed_storage(); }
  // Storage element index of view index idx.
  int64_t storage_index(const Shape& idx) const {
    const Shape st = view_strides();
    int64_t k = offset;
    for (size_t i = 0; i < idx.size(); ++i) k += idx[i] * st[i];
    return k;
  }
  std::string str() const {
    std::string r = std::string(dtype_name(dtype)) + shape_str(shape);
    if (!strides.empty() && strides != contiguous_strides(shape)) r += " strides" + shape_str(strides);
    if (offset) r += " offset " + std::to_string(offset);
    if (storage >= 0) r += " storage " + std::to_string(storage);
    return r;
  }
};

// A scalar argument as one line: dtype and value.
struct ScalarDesc {
  aclDataType dtype = ACL_INT64;
  Num value = Num::integer(1);

  ScalarDesc() = default;
  ScalarDesc(aclDataType t, double v)
      : dtype(t), value(is_floating(t) ? cast(Num::real(v), t) : cast(Num::integer(static_cast<int64_t>(v)), t)) {}
  ScalarDesc(aclDataType t, Num v) : dtype(t), value(is_compute_dtype(t) ? cast(v, t) : v) {}

  std::string str() const {
    if (dtype == ACL_BOOL) return std::string("bool(") + (value.i ? "true" : "false") + ")";
    return std::string(dtype_name(dtype)) + "(" + num_str(value) + ")";
  }
};

// ---- runtime ------------------------------------------------------------------------------------

inline aclrtStream& stream() {
  static aclrtStream s = nullptr;
  return s;
}

class AclEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtCreateStream(&stream()), ACL_SUCCESS) << aclGetRecentErrMsg();
  }
  void TearDown() override {
    EXPECT_EQ(aclrtDestroyStream(stream()), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS) << aclGetRecentErrMsg();
  }
};
// One registration per test binary (an inline variable is one object across translation units).
inline ::testing::Environment* const kAclEnvironment = ::testing::AddGlobalTestEnvironment(new AclEnvironment);

// Device buffer + aclTensor built from a TensorDesc, and a host copy of the whole storage.
class Tensor {
 public:
  explicit Tensor(TensorDesc d) : desc_(std::move(d)) {
    const size_t esize = dtype_size(desc_.dtype);
    host_.assign(static_cast<size_t>(desc_.storage_elems()) * esize, 0);
    bytes_ = std::max<size_t>(host_.size(), 1);  // aclrtMalloc rejects 0 bytes
    if (aclrtMalloc(&dev_, bytes_, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
      ADD_FAILURE() << "aclrtMalloc(" << bytes_ << ") failed: " << aclGetRecentErrMsg();
      dev_ = nullptr;
      return;
    }
    const Shape st = desc_.view_strides();
    const int64_t storage_dims[1] = {desc_.storage_elems()};
    t_ = aclCreateTensor(desc_.shape.data(), desc_.shape.size(), desc_.dtype, st.data(), desc_.offset, ACL_FORMAT_ND,
                         storage_dims, 1, dev_);
    if (!t_) ADD_FAILURE() << "aclCreateTensor(" << desc_.str() << ") failed: " << aclGetRecentErrMsg();
    upload();  // the device storage starts as the (zeroed) host copy: never read uninitialized
  }
  ~Tensor() {
    if (t_) aclDestroyTensor(t_);
    if (dev_) aclrtFree(dev_);
  }
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;

  aclTensor* get() const { return t_; }
  const TensorDesc& desc() const { return desc_; }
  std::vector<uint8_t>& host() { return host_; }
  const std::vector<uint8_t>& host() const { return host_; }

  void upload() {
    if (host_.empty()) return;
    ASSERT_EQ(aclrtMemcpy(dev_, bytes_, host_.data(), host_.size(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS)
        << aclGetRecentErrMsg();
  }
  void download() {
    if (host_.empty()) return;
    ASSERT_EQ(aclrtMemcpy(host_.data(), host_.size(), dev_, host_.size(), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS)
        << aclGetRecentErrMsg();
  }

  // Random values in every storage element (the gaps of a strided view included), then upload.
  void fill_random(Rng& rng, const FillOptions& o = {}) {
    const size_t es = dtype_size(desc_.dtype);
    for (int64_t k = 0; k < desc_.storage_elems(); ++k)
      store(desc_.dtype, host_.data() + k * es, random_value(desc_.dtype, rng, o));
    upload();
  }
  // Every storage element set to v, then upload.
  void fill(const Num& v) {
    const size_t es = dtype_size(desc_.dtype);
    for (int64_t k = 0; k < desc_.storage_elems(); ++k) store(desc_.dtype, host_.data() + k * es, v);
    upload();
  }
  // Sets view element idx in the host copy (call upload() afterwards).
  void set(const Shape& idx, const Num& v) {
    store(desc_.dtype, host_.data() + desc_.storage_index(idx) * dtype_size(desc_.dtype), v);
  }
  // View element idx of the host copy.
  Num at(const Shape& idx) const { return at(host_, idx); }
  // View element idx of a saved copy of the storage.
  Num at(const std::vector<uint8_t>& bytes, const Shape& idx) const {
    return load(desc_.dtype, bytes.data() + desc_.storage_index(idx) * dtype_size(desc_.dtype));
  }

 private:
  TensorDesc desc_;
  std::vector<uint8_t> host_;
  size_t bytes_ = 0;
  void* dev_ = nullptr;
  aclTensor* t_ = nullptr;
};

// An aclScalar built from a ScalarDesc.
class Scalar {
 public:
  explicit Scalar(const ScalarDesc& d) : desc_(d) {
    alignas(16) unsigned char buf[16] = {};
    if (is_compute_dtype(d.dtype)) store(d.dtype, buf, d.value);
    else std::memcpy(buf, &d.value.i, sizeof d.value.i);  // other dtypes: raw bytes of the integer
    s_ = aclCreateScalar(buf, d.dtype);
    if (!s_) ADD_FAILURE() << "aclCreateScalar(" << d.str() << ") failed: " << aclGetRecentErrMsg();
  }
  ~Scalar() {
    if (s_) aclDestroyScalar(s_);
  }
  Scalar(const Scalar&) = delete;
  Scalar& operator=(const Scalar&) = delete;
  aclScalar* get() const { return s_; }
  const ScalarDesc& desc() const { return desc_; }

 private:
  ScalarDesc desc_;
  aclScalar* s_ = nullptr;
};

// Storage elements of `t` outside its view that differ between `before` and the current host copy
// (an op must not write outside its output view). Returns a description of the first few.
inline std::string writes_outside_view(const Tensor& t, const std::vector<uint8_t>& before) {
  const TensorDesc& d = t.desc();
  std::vector<bool> in_view(static_cast<size_t>(d.storage_elems()), false);
  for_each_index(d.shape, [&](const Shape& idx) { in_view[static_cast<size_t>(d.storage_index(idx))] = true; });
  const size_t es = dtype_size(d.dtype);
  std::string r;
  int n = 0;
  for (size_t k = 0; k < in_view.size(); ++k) {
    if (in_view[k] || std::memcmp(before.data() + k * es, t.host().data() + k * es, es) == 0) continue;
    if (n++ < 4) r += " storage[" + std::to_string(k) + "]";
  }
  if (n > 4) r += " and " + std::to_string(n - 4) + " more";
  return r;
}

// ---- running an op ------------------------------------------------------------------------------

using Phase1Fn = std::function<aclnnStatus(uint64_t*, aclOpExecutor**)>;
using Phase2Fn = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

// Phase 1, a device workspace of exactly the size it returned, phase 2, synchronize. Returns the
// first failing status; *workspace_size (when given) receives the size phase 1 returned.
inline aclnnStatus run_two_phase(const Phase1Fn& p1, Phase2Fn p2, uint64_t* workspace_size = nullptr) {
  uint64_t ws_size = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st = p1(&ws_size, &ex);
  if (workspace_size) *workspace_size = ws_size;
  if (st != ACL_SUCCESS) return st;
  void* ws = nullptr;
  if (ws_size && aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return -1;
  st = p2(ws, ws_size, ex, stream());
  if (st == ACL_SUCCESS) st = aclrtSynchronizeStream(stream());
  if (ws) aclrtFree(ws);
  return st;
}

// Phase 1 must fail with `code`, and aclGetRecentErrMsg() must contain `mention` (when not null).
inline void expect_phase1_error(const std::string& repro, aclnnStatus code, const char* mention, const Phase1Fn& p1) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const aclnnStatus st = p1(&ws, &ex);
  EXPECT_EQ(st, code) << repro;
  if (st == ACL_SUCCESS) {
    aclDestroyAclOpExecutor(ex);
    return;
  }
  const std::string msg = aclGetRecentErrMsg();
  if (mention) {
    EXPECT_NE(msg.find(mention), std::string::npos) << repro << ": message does not name '" << mention << "': " << msg;
  }
}

}  // namespace optest
