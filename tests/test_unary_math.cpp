// The unary math family through the public C API: Exp2, Expm1, Log, Log2, Log10, Log1p, Sqrt,
// Rsqrt, Reciprocal, Erf, Erfc, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh,
// Floor, Ceil, Round, RoundDecimals, Trunc, Frac, Sign, IsFinite, IsInf, IsPosInf, IsNegInf,
// LogicalNot, BitwiseNot and their in-place forms.
//
// References are independent of pacl. Transcendental functions: the input converted to the compute
// dtype (CANN's cast for integer inputs), the function evaluated in long double (glibc's *l
// functions), rounded to the compute dtype, then to out's dtype. Tolerance, in ulps of the coarser
// of the compute and out dtypes: 1 when that is a 16-bit float (pacl evaluates in float32 and rounds
// once more), otherwise the op's bound for glibc's float/double functions (glibc documents at most
// 1-2 ulps for these; tgamma-class errors do not occur here). NaN must match NaN, inf must match inf
// and a zero must have the expected sign. Rounding, sign, predicates and logical/bitwise not are
// exact and written from their definitions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aclnnop/aclnn_acos.h"
#include "aclnnop/aclnn_acosh.h"
#include "aclnnop/aclnn_asin.h"
#include "aclnnop/aclnn_asinh.h"
#include "aclnnop/aclnn_atan.h"
#include "aclnnop/aclnn_atanh.h"
#include "aclnnop/aclnn_bitwise_not.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_cosh.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_erfc.h"
#include "aclnnop/aclnn_exp2.h"
#include "aclnnop/aclnn_expm1.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_frac.h"
#include "aclnnop/aclnn_is_inf.h"
#include "aclnnop/aclnn_isfinite.h"
#include "aclnnop/aclnn_isneginf.h"
#include "aclnnop/aclnn_isposinf.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_log10.h"
#include "aclnnop/aclnn_log1p.h"
#include "aclnnop/aclnn_log2.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_sinh.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_tan.h"
#include "aclnnop/aclnn_trunc.h"
#include "op_test_util.h"

namespace {

using namespace optest;

using Gws = aclnnStatus (*)(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**);
using InplaceGws = aclnnStatus (*)(aclTensor*, uint64_t*, aclOpExecutor**);
using Run = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

// The dtype an integer or bool self is computed in (floating self computes in its own dtype).
enum class Compute {
  kSelf,         // its own dtype (exact ops)
  kFloat,        // float32
  kOut,          // out's dtype (an integer self is cast to it first, as CANN's Cast(self, out dtype))
  kInt64Double,  // float64 for int64, float32 for the others
};
// Which out dtypes are accepted.
enum class OutRule { kFloating, kSame, kBool, kAny, kLog10 };

struct UnaryCase {
  const char* name;
  Gws gws;
  Run run;
  InplaceGws igws;  // nullptr: no in-place form
  Run irun;
  std::vector<aclDataType> self;     // accepted self dtypes
  std::vector<aclDataType> inplace;  // accepted selfRef dtypes
  OutRule out;
  Compute compute;
  long double (*fn)(long double);        // transcendental reference (nullptr: exact op)
  Num (*exact)(const Num&, aclDataType);  // exact reference: f(x) for x of self's dtype
  int ulps;                               // tolerance for float32/float64 libm results
  const char* self_name;
  const char* out_name;
  const char* ref_name;
  int64_t decimals = 0;  // RoundDecimals
};

const std::vector<aclDataType> kAll = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT32,
                                       ACL_INT64, ACL_INT16,   ACL_INT8,  ACL_UINT8,  ACL_BOOL};
const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
const std::vector<aclDataType> kInts = {ACL_INT32, ACL_INT64, ACL_INT16, ACL_INT8, ACL_UINT8};

bool contains(const std::vector<aclDataType>& v, aclDataType t) {
  for (aclDataType x : v)
    if (x == t) return true;
  return false;
}
std::vector<aclDataType> join(std::vector<aclDataType> a, const std::vector<aclDataType>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// ---- exact references -------------------------------------------------------------------------------

Num ref_floor(const Num& x, aclDataType) { return x.is_float ? Num::real(std::floor(x.f)) : x; }
Num ref_ceil(const Num& x, aclDataType) { return x.is_float ? Num::real(std::ceil(x.f)) : x; }
Num ref_trunc(const Num& x, aclDataType) { return x.is_float ? Num::real(std::trunc(x.f)) : x; }
// Nearest integer, ties to the even one; a zero result keeps x's sign (IEEE roundToIntegralTiesToEven).
double round_half_even(double x) {
  if (!std::isfinite(x)) return x;
  double r = std::floor(x);
  const double d = x - r;  // exact for |x| < 2^52; x is already integral beyond
  if (d > 0.5 || (d == 0.5 && std::fmod(r, 2.0) != 0)) r += 1;
  return r == 0 ? std::copysign(0.0, x) : r;
}
Num ref_round(const Num& x, aclDataType) { return x.is_float ? Num::real(round_half_even(x.f)) : x; }
Num ref_frac(const Num& x, aclDataType) { return x.is_float ? Num::real(x.f - std::trunc(x.f)) : Num::integer(0); }
Num ref_sign(const Num& x, aclDataType t) {
  if (t == ACL_BOOL) return x;
  const double v = x.as_double();
  const int s = v > 0 ? 1 : v < 0 ? -1 : 0;  // NaN: 0
  return x.is_float ? Num::real(s) : Num::integer(s);
}
Num ref_isfinite(const Num& x, aclDataType) { return Num::integer(!x.is_float || std::isfinite(x.f)); }
Num ref_isinf(const Num& x, aclDataType) { return Num::integer(x.is_float && std::isinf(x.f)); }
Num ref_isposinf(const Num& x, aclDataType) { return Num::integer(x.is_float && x.f == HUGE_VAL); }
Num ref_isneginf(const Num& x, aclDataType) { return Num::integer(x.is_float && x.f == -HUGE_VAL); }
Num ref_logical_not(const Num& x, aclDataType) { return Num::integer(!x.nonzero()); }
Num ref_bitwise_not(const Num& x, aclDataType t) {
  if (t == ACL_BOOL) return Num::integer(x.i == 0);
  return Num::integer(wrap_int(~static_cast<uint64_t>(x.i), t));
}

// RoundDecimals as PyTorch defines it for floating dtypes: in the op-math type (float32 for the
// 16-bit dtypes), nearbyint(x * 10^d) / 10^d, or nearbyint(x / 10^-d) * 10^-d for negative d.
template <typename T>
T round_decimals_float(T x, int64_t d) {
  const T p = static_cast<T>(std::pow(10.0, static_cast<double>(d < 0 ? -d : d)));
  return d < 0 ? std::nearbyint(x / p) * p : std::nearbyint(x * p) / p;
}
// Integers: exact round half to even to a multiple of 10^-d (d < 0), wrapped to the dtype.
__extension__ typedef __int128 i128;
Num round_decimals_int(const Num& x, aclDataType t, int64_t d) {
  if (d >= 0) return x;
  if (-d >= 20) return Num::integer(0);  // 10^20 > 2 * |int64 min|
  i128 p = 1;
  for (int64_t i = 0; i < -d; ++i) p *= 10;
  const i128 v = x.i;
  const i128 a = v < 0 ? -v : v;
  i128 q = a / p;
  const i128 r = a % p;
  if (2 * r > p || (2 * r == p && q % 2 == 1)) ++q;
  const i128 m = (v < 0 ? -q : q) * p;
  return Num::integer(wrap_int(static_cast<uint64_t>(m), t));
}

// ---- transcendental references ----------------------------------------------------------------------

long double l_exp2(long double x) { return exp2l(x); }
long double l_expm1(long double x) { return expm1l(x); }
long double l_log(long double x) { return logl(x); }
long double l_log2(long double x) { return log2l(x); }
long double l_log10(long double x) { return log10l(x); }
long double l_log1p(long double x) { return log1pl(x); }
long double l_sqrt(long double x) { return sqrtl(x); }
long double l_rsqrt(long double x) { return 1.0L / sqrtl(x); }
long double l_reciprocal(long double x) { return 1.0L / x; }
long double l_erf(long double x) { return erfl(x); }
long double l_erfc(long double x) { return erfcl(x); }
long double l_sin(long double x) { return sinl(x); }
long double l_cos(long double x) { return cosl(x); }
long double l_tan(long double x) { return tanl(x); }
long double l_asin(long double x) { return asinl(x); }
long double l_acos(long double x) { return acosl(x); }
long double l_atan(long double x) { return atanl(x); }
long double l_sinh(long double x) { return sinhl(x); }
long double l_cosh(long double x) { return coshl(x); }
long double l_asinh(long double x) { return asinhl(x); }
long double l_acosh(long double x) { return acoshl(x); }
long double l_atanh(long double x) { return atanhl(x); }

// ---- the op table ------------------------------------------------------------------------------------

#define OUT_FN(Name)                                                                           \
  [](const aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) -> aclnnStatus {       \
    return aclnn##Name##GetWorkspaceSize(s, o, w, e);                                         \
  },                                                                                          \
      [](void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) -> aclnnStatus { return aclnn##Name(w, n, e, s); }
#define INPLACE_FN(Name)                                                                       \
  [](aclTensor* r, uint64_t* w, aclOpExecutor** e) -> aclnnStatus {                           \
    return aclnnInplace##Name##GetWorkspaceSize(r, w, e);                                     \
  },                                                                                          \
      [](void* w, uint64_t n, aclOpExecutor* e, aclrtStream s) -> aclnnStatus {               \
        return aclnnInplace##Name(w, n, e, s);                                                \
      }
#define NO_INPLACE nullptr, nullptr

// CANN's Atlas A2 (910B) dtype lists.
std::vector<UnaryCase> all_cases() {
  const std::vector<aclDataType> erf_self = {ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_BOOL, ACL_INT64};
  const std::vector<aclDataType> expm1_self = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT64, ACL_BOOL};
  const std::vector<aclDataType> f3 = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  const std::vector<aclDataType> numeric = join(kFloats, kInts);
  const std::vector<aclDataType> round_types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64};
  const std::vector<aclDataType> frac_types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8,
                                               ACL_INT16, ACL_INT32,   ACL_INT64, ACL_UINT8};
  const std::vector<aclDataType> sign_types = {ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16, ACL_BF16,
                                               ACL_INT32,  ACL_INT64, ACL_BOOL};
  const std::vector<aclDataType> bitwise = join(kInts, {ACL_BOOL});
  const std::vector<aclDataType> no_double = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64,
                                              ACL_INT16, ACL_INT8,    ACL_UINT8, ACL_BOOL};
  const auto F = OutRule::kFloating;
  std::vector<UnaryCase> v = {
      {"Exp2", OUT_FN(Exp2), INPLACE_FN(Exp2), kAll, kFloats, F, Compute::kFloat, l_exp2, nullptr, 1, "self", "out", "selfRef"},
      {"Expm1", OUT_FN(Expm1), INPLACE_FN(Expm1), expm1_self, f3, F, Compute::kFloat, l_expm1, nullptr, 1, "self", "out", "selfRef"},
      {"Log", OUT_FN(Log), INPLACE_FN(Log), kAll, kFloats, F, Compute::kFloat, l_log, nullptr, 1, "self", "out", "selfRef"},
      {"Log2", OUT_FN(Log2), INPLACE_FN(Log2), kAll, kFloats, F, Compute::kFloat, l_log2, nullptr, 1, "self", "out", "selfRef"},
      {"Log10", OUT_FN(Log10), INPLACE_FN(Log10), kAll, kFloats, OutRule::kLog10, Compute::kFloat, l_log10, nullptr, 2, "self", "out", "selfRef"},
      {"Log1p", OUT_FN(Log1p), INPLACE_FN(Log1p), kAll, kFloats, F, Compute::kOut, l_log1p, nullptr, 1, "self", "out", "selfRef"},
      {"Sqrt", OUT_FN(Sqrt), INPLACE_FN(Sqrt), kAll, kFloats, F, Compute::kInt64Double, l_sqrt, nullptr, 1, "self", "out", "self"},
      {"Rsqrt", OUT_FN(Rsqrt), INPLACE_FN(Rsqrt), kAll, kFloats, F, Compute::kOut, l_rsqrt, nullptr, 1, "self", "out", "selfRef"},
      {"Reciprocal", OUT_FN(Reciprocal), INPLACE_FN(Reciprocal), kAll, kFloats, F, Compute::kFloat, l_reciprocal, nullptr, 1, "self", "out", "selfRef"},
      {"Erf", OUT_FN(Erf), INPLACE_FN(Erf), erf_self, kFloats, F, Compute::kFloat, l_erf, nullptr, 1, "self", "out", "selfRef"},
      {"Erfc", OUT_FN(Erfc), INPLACE_FN(Erfc), erf_self, kFloats, F, Compute::kFloat, l_erfc, nullptr, 3, "self", "out", "selfRef"},
      {"Sin", OUT_FN(Sin), INPLACE_FN(Sin), kAll, kFloats, F, Compute::kFloat, l_sin, nullptr, 1, "self", "out", "selfRef"},
      {"Cos", OUT_FN(Cos), INPLACE_FN(Cos), kAll, kFloats, F, Compute::kFloat, l_cos, nullptr, 1, "input", "out", "inputRef"},
      {"Tan", OUT_FN(Tan), INPLACE_FN(Tan), kAll, kFloats, F, Compute::kFloat, l_tan, nullptr, 1, "self", "out", "selfRef"},
      {"Asin", OUT_FN(Asin), INPLACE_FN(Asin), kAll, kFloats, F, Compute::kFloat, l_asin, nullptr, 1, "self", "out", "selfRef"},
      {"Acos", OUT_FN(Acos), INPLACE_FN(Acos), kAll, kFloats, F, Compute::kFloat, l_acos, nullptr, 1, "input", "out", "inputRef"},
      {"Atan", OUT_FN(Atan), INPLACE_FN(Atan), kAll, kFloats, F, Compute::kFloat, l_atan, nullptr, 1, "input", "out", "inputRef"},
      {"Sinh", OUT_FN(Sinh), INPLACE_FN(Sinh), kAll, kFloats, F, Compute::kOut, l_sinh, nullptr, 2, "self", "out", "selfRef"},
      {"Cosh", OUT_FN(Cosh), INPLACE_FN(Cosh), kAll, kFloats, F, Compute::kFloat, l_cosh, nullptr, 2, "self", "out", "selfRef"},
      {"Asinh", OUT_FN(Asinh), INPLACE_FN(Asinh), kAll, kFloats, F, Compute::kFloat, l_asinh, nullptr, 2, "input", "out", "inputRef"},
      {"Acosh", OUT_FN(Acosh), INPLACE_FN(Acosh), kAll, kFloats, F, Compute::kFloat, l_acosh, nullptr, 2, "self", "out", "selfRef"},
      {"Atanh", OUT_FN(Atanh), INPLACE_FN(Atanh), kAll, kFloats, F, Compute::kFloat, l_atanh, nullptr, 2, "input", "out", "inputRef"},
      {"Floor", OUT_FN(Floor), INPLACE_FN(Floor), numeric, numeric, OutRule::kSame, Compute::kSelf, nullptr, ref_floor, 0, "self", "out", "selfRef"},
      {"Ceil", OUT_FN(Ceil), INPLACE_FN(Ceil), kFloats, kFloats, OutRule::kSame, Compute::kSelf, nullptr, ref_ceil, 0, "self", "out", "selfRef"},
      {"Round", OUT_FN(Round), INPLACE_FN(Round), round_types, round_types, OutRule::kSame, Compute::kSelf, nullptr, ref_round, 0, "self", "out", "selfRef"},
      {"Trunc", OUT_FN(Trunc), INPLACE_FN(Trunc), f3, f3, OutRule::kSame, Compute::kSelf, nullptr, ref_trunc, 0, "self", "out", "selfRef"},
      {"Frac", OUT_FN(Frac), INPLACE_FN(Frac), frac_types, frac_types, OutRule::kSame, Compute::kSelf, nullptr, ref_frac, 0, "input", "out", "inputRef"},
      {"Sign", OUT_FN(Sign), NO_INPLACE, sign_types, {}, OutRule::kSame, Compute::kSelf, nullptr, ref_sign, 0, "self", "result", ""},
      {"IsFinite", OUT_FN(IsFinite), NO_INPLACE, kFloats, {}, OutRule::kBool, Compute::kSelf, nullptr, ref_isfinite, 0, "self", "out", ""},
      {"IsInf", OUT_FN(IsInf), NO_INPLACE, kAll, {}, OutRule::kBool, Compute::kSelf, nullptr, ref_isinf, 0, "x", "out", ""},
      {"IsPosInf", OUT_FN(IsPosInf), NO_INPLACE, no_double, {}, OutRule::kBool, Compute::kSelf, nullptr, ref_isposinf, 0, "self", "out", ""},
      {"IsNegInf", OUT_FN(IsNegInf), NO_INPLACE, no_double, {}, OutRule::kBool, Compute::kSelf, nullptr, ref_isneginf, 0, "self", "out", ""},
      {"LogicalNot", OUT_FN(LogicalNot), INPLACE_FN(LogicalNot), kAll, kAll, OutRule::kAny, Compute::kSelf, nullptr, ref_logical_not, 0, "self", "out", "selfRef"},
      {"BitwiseNot", OUT_FN(BitwiseNot), NO_INPLACE, bitwise, {}, OutRule::kSame, Compute::kSelf, nullptr, ref_bitwise_not, 0, "self", "out", ""},
  };
  // RoundDecimals with a few decimals; the entry points bind `decimals` through a table index.
  return v;
}

// RoundDecimals entry points for a fixed set of decimals (a function pointer cannot capture).
constexpr int64_t kDecimals[] = {0, 2, -1, -3, 1, 9, -20};
template <int K>
aclnnStatus round_decimals_gws(const aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
  return aclnnRoundDecimalsGetWorkspaceSize(s, kDecimals[K], o, w, e);
}
template <int K>
aclnnStatus inplace_round_decimals_gws(aclTensor* r, uint64_t* w, aclOpExecutor** e) {
  return aclnnInplaceRoundDecimalsGetWorkspaceSize(r, kDecimals[K], w, e);
}
template <int K>
UnaryCase round_decimals_case() {
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64};
  UnaryCase c{"RoundDecimals", round_decimals_gws<K>, aclnnRoundDecimals, inplace_round_decimals_gws<K>,
              aclnnInplaceRoundDecimals, types, types, OutRule::kSame, Compute::kSelf, nullptr, nullptr, 0, "self",
              "out", "selfRef", kDecimals[K]};
  return c;
}

std::vector<UnaryCase> cases_with_decimals() {
  std::vector<UnaryCase> v = all_cases();
  v.push_back(round_decimals_case<0>());
  v.push_back(round_decimals_case<1>());
  v.push_back(round_decimals_case<2>());
  v.push_back(round_decimals_case<3>());
  v.push_back(round_decimals_case<4>());
  v.push_back(round_decimals_case<5>());
  v.push_back(round_decimals_case<6>());
  return v;
}

std::vector<UnaryCase> inplace_cases() {
  std::vector<UnaryCase> v;
  for (const UnaryCase& c : cases_with_decimals())
    if (c.igws) v.push_back(c);
  return v;
}

// ---- rules ---------------------------------------------------------------------------------------------

bool out_accepted(const UnaryCase& op, aclDataType self, aclDataType out) {
  switch (op.out) {
    case OutRule::kFloating: return is_floating(out);
    case OutRule::kSame: return out == self;
    case OutRule::kBool: return out == ACL_BOOL;
    case OutRule::kAny: return is_compute_dtype(out);
    case OutRule::kLog10: return is_floating(self) ? out == self : out == ACL_FLOAT;
  }
  return false;
}

aclDataType default_out(const UnaryCase& op, aclDataType self) {
  switch (op.out) {
    case OutRule::kFloating:
    case OutRule::kLog10: return is_floating(self) ? self : (op.compute == Compute::kInt64Double && self == ACL_INT64 ? ACL_DOUBLE : ACL_FLOAT);
    case OutRule::kBool:
    case OutRule::kAny: return ACL_BOOL;
    case OutRule::kSame: break;
  }
  return self;
}

aclDataType compute_dtype(const UnaryCase& op, aclDataType self, aclDataType out) {
  if (is_floating(self) || op.compute == Compute::kSelf) return self;
  switch (op.compute) {
    case Compute::kFloat: return ACL_FLOAT;
    case Compute::kOut: return out;  // CANN casts an integer self to out's dtype, then computes
    case Compute::kInt64Double: return self == ACL_INT64 ? ACL_DOUBLE : ACL_FLOAT;
    case Compute::kSelf: break;
  }
  return self;
}

// Mantissa bits, to find the coarser of two floating dtypes.
int precision(aclDataType t) { return t == ACL_BF16 ? 8 : t == ACL_FLOAT16 ? 11 : t == ACL_FLOAT ? 24 : 53; }

// Expected value of one element (already in out's dtype) and the ulp tolerance (0: exact).
struct Expected {
  Num value;
  uint64_t ulps = 0;
  aclDataType ulp_dtype = ACL_FLOAT;
};

Expected reference(const UnaryCase& op, const Num& x, aclDataType self, aclDataType out) {
  Expected e;
  if (op.fn) {
    const aclDataType c = compute_dtype(op, self, out);
    const Num xc = cast(x, c);
    const long double y = op.fn(static_cast<long double>(xc.f));
    const Num yc = cast(Num::real(static_cast<double>(y)), c);
    e.value = cast(yc, out);
    e.ulp_dtype = precision(c) <= precision(out) ? c : out;
    e.ulps = precision(e.ulp_dtype) <= 11 ? 1 : static_cast<uint64_t>(op.ulps);
    return e;
  }
  if (std::string(op.name) == "RoundDecimals") {
    if (!x.is_float) e.value = round_decimals_int(x, self, op.decimals);
    else if (self == ACL_DOUBLE) e.value = Num::real(round_decimals_float<double>(x.f, op.decimals));
    else e.value = cast(Num::real(round_decimals_float<float>(static_cast<float>(x.f), op.decimals)), self);
    return e;
  }
  e.value = cast(op.exact(x, self), out);
  return e;
}

bool matches(const Expected& e, aclDataType out, const Num& actual) {
  if (!is_floating(out) || e.ulps == 0) return same_value(out, e.value, actual);
  const double a = actual.f, x = e.value.f;
  if (std::isnan(x) || std::isnan(a)) return std::isnan(x) && std::isnan(a);
  if (std::isinf(x) || std::isinf(a)) return x == a;
  if (x == 0 && a == 0) return std::signbit(x) == std::signbit(a);
  return ulp_distance(e.ulp_dtype, x, a) <= e.ulps;
}

// ---- running ---------------------------------------------------------------------------------------------

std::string last_error() {
  const char* m = aclGetRecentErrMsg();
  return m ? m : "<null>";
}

aclnnStatus execute(Run run, uint64_t ws, aclOpExecutor* ex) {
  void* w = nullptr;
  if (ws > 0 && aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return -1;
  aclnnStatus st = run(w, ws, ex, stream());
  if (st == ACL_SUCCESS) st = aclrtSynchronizeStream(stream());
  if (w) aclrtFree(w);
  return st;
}

std::string repro(const UnaryCase& op, bool inplace, const TensorDesc& self, const TensorDesc* out) {
  std::string r = std::string("aclnn") + (inplace ? "Inplace" : "") + op.name + " " +
                  (inplace ? op.ref_name : op.self_name) + "=" + self.str();
  if (out) r += std::string(" ") + op.out_name + "=" + out->str();
  if (std::string(op.name) == "RoundDecimals") r += " decimals=" + std::to_string(op.decimals);
  return r;
}

// Compares every view element of `out` with the reference applied to `self_bytes` (self's storage
// before the call); reports the first few mismatches with the repro line.
void check_values(const UnaryCase& op, const Tensor& self, const std::vector<uint8_t>& self_bytes, const Tensor& out,
                  const std::string& line) {
  int bad = 0;
  for_each_index(out.desc().shape, [&](const Shape& idx) {
    const Num x = self.at(self_bytes, idx);
    const Expected e = reference(op, x, self.desc().dtype, out.desc().dtype);
    const Num a = out.at(idx);
    if (!matches(e, out.desc().dtype, a) && bad++ < 5)
      ADD_FAILURE() << line << ": at " << shape_str(idx) << " x=" << num_str(x) << " expected " << num_str(e.value)
                    << (e.ulps ? " (+-" + std::to_string(e.ulps) + " ulp)" : std::string()) << " got " << num_str(a);
  });
}

// Runs op out of place on (self, out) descriptors filled from `fill`; checks values and that no
// element of out's storage outside its view was written.
void run_and_check(const UnaryCase& op, const TensorDesc& sd, const TensorDesc& od, Rng& rng,
                   const std::vector<Num>* values = nullptr) {
  Tensor self(sd), out(od);
  if (values) {
    size_t k = 0;
    for_each_index(sd.shape, [&](const Shape& idx) { self.set(idx, (*values)[k++ % values->size()]); });
    self.upload();
  } else {
    self.fill_random(rng);
  }
  out.fill_random(rng);
  const std::vector<uint8_t> self_bytes = self.host(), out_before = out.host();
  const std::string line = repro(op, false, sd, &od);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(op.gws(self.get(), out.get(), &ws, &ex), ACL_SUCCESS) << line << ": " << last_error();
  ASSERT_EQ(execute(op.run, ws, ex), ACL_SUCCESS) << line << ": " << last_error();
  out.download();
  self.download();
  EXPECT_EQ(self.host(), self_bytes) << line << ": self was modified";
  check_values(op, self, self_bytes, out, line);
  const std::string outside = writes_outside_view(out, out_before);
  EXPECT_TRUE(outside.empty()) << line << ": wrote outside out's view:" << outside;
}

void run_inplace_and_check(const UnaryCase& op, const TensorDesc& rd, Rng& rng) {
  Tensor ref(rd);
  ref.fill_random(rng);
  const std::vector<uint8_t> before = ref.host();
  const std::string line = repro(op, true, rd, nullptr);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(op.igws(ref.get(), &ws, &ex), ACL_SUCCESS) << line << ": " << last_error();
  ASSERT_EQ(execute(op.irun, ws, ex), ACL_SUCCESS) << line << ": " << last_error();
  ref.download();
  check_values(op, ref, before, ref, line);
  const std::string outside = writes_outside_view(ref, before);
  EXPECT_TRUE(outside.empty()) << line << ": wrote outside the view:" << outside;
}

// Values worth checking besides the dtype's special values: halves (rounding ties), domain edges.
std::vector<Num> edge_values(aclDataType t) {
  std::vector<Num> v = special_values(t);
  if (is_floating(t)) {
    for (double d : {0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, 0.25, -0.75, 2.0, -2.0, 0.1, -0.1, 0.9999, 1.0001, 3.14159265,
                     -3.14159265, 1.5707963, 10.0, -10.0, 88.5, -88.5, 710.0, 1e10, -1e10, 1e30, -1e30, 123.456, -0.005})
      v.push_back(cast(Num::real(d), t));
  } else if (t != ACL_BOOL) {
    for (int64_t i : {2, -2, 5, -5, 15, -15, 25, -25, 35, 45, 50, -50, 99, 100, 127, 250, 1005, -1005, 1500, 2500})
      v.push_back(cast(Num::integer(i), t));
  }
  return v;
}

class UnaryTest : public ::testing::TestWithParam<UnaryCase> {};

std::string case_name(const ::testing::TestParamInfo<UnaryCase>& info) {
  std::string n = info.param.name;
  if (n == "RoundDecimals") {
    const int64_t d = info.param.decimals;
    n += d < 0 ? "Minus" + std::to_string(-d) : std::to_string(d);
  }
  return n;
}

// Every accepted self dtype with its natural out dtype, over sizes that cross the engine's chunks.
TEST_P(UnaryTest, AllDtypes) {
  const UnaryCase& op = GetParam();
  Rng rng(1);
  for (aclDataType t : op.self) {
    const aclDataType o = default_out(op, t);
    run_and_check(op, TensorDesc(t, {1031}), TensorDesc(o, {1031}), rng);
    run_and_check(op, TensorDesc(t, {3, 700}), TensorDesc(o, {3, 700}), rng);
  }
}

TEST_P(UnaryTest, SpecialValues) {
  const UnaryCase& op = GetParam();
  Rng rng(2);
  for (aclDataType t : op.self) {
    const std::vector<Num> values = edge_values(t);
    const int64_t n = static_cast<int64_t>(values.size());
    run_and_check(op, TensorDesc(t, {n}), TensorDesc(default_out(op, t), {n}), rng, &values);
  }
}

// Every (self, out) dtype pair, complex included: accepted pairs compute correctly, the others fail
// with 161002 and a message naming the argument at fault.
TEST_P(UnaryTest, DtypeMatrix) {
  const UnaryCase& op = GetParam();
  Rng rng(3);
  const std::vector<aclDataType> dtypes = join(kAll, {ACL_COMPLEX64});
  for (aclDataType s : dtypes)
    for (aclDataType o : dtypes) {
      const bool self_ok = contains(op.self, s);
      const bool ok = self_ok && out_accepted(op, s, o);
      const TensorDesc sd(s, {5, 7}), od(o, {5, 7});
      if (ok) {
        run_and_check(op, sd, od, rng);
        continue;
      }
      Tensor self(sd), out(od);
      uint64_t ws = 0;
      aclOpExecutor* ex = nullptr;
      const std::string line = repro(op, false, sd, &od);
      EXPECT_EQ(op.gws(self.get(), out.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID) << line << " should be rejected";
      const std::string msg = last_error();
      EXPECT_NE(msg.find(std::string("aclnn") + op.name + "GetWorkspaceSize"), std::string::npos) << line << ": " << msg;
      EXPECT_NE(msg.find(self_ok ? op.out_name : op.self_name), std::string::npos) << line << ": " << msg;
    }
}

// Non-contiguous, offset, broadcast (stride 0) and transposed views; 0-d and empty tensors.
TEST_P(UnaryTest, Layouts) {
  const UnaryCase& op = GetParam();
  Rng rng(4);
  for (aclDataType t : op.self) {
    const aclDataType o = default_out(op, t);
    run_and_check(op, TensorDesc(t, {4, 5}, {1, 4}, 3), TensorDesc(o, {4, 5}), rng);        // transposed, offset
    run_and_check(op, TensorDesc(t, {3, 4}, {0, 1}), TensorDesc(o, {3, 4}, {1, 3}), rng);   // broadcast in, transposed out
    run_and_check(op, TensorDesc(t, {2, 3, 4}, {24, 8, 2}, 1), TensorDesc(o, {2, 3, 4}, {16, 5, 1}, 2), rng);  // gaps
    run_and_check(op, TensorDesc(t, {}), TensorDesc(o, {}), rng);                          // 0-d
    run_and_check(op, TensorDesc(t, {0}), TensorDesc(o, {0}), rng);                        // empty
    run_and_check(op, TensorDesc(t, {2, 0, 3}), TensorDesc(o, {2, 0, 3}), rng);
    run_and_check(op, TensorDesc(t, {1, 1, 1, 1, 1, 1, 2, 3}), TensorDesc(o, {1, 1, 1, 1, 1, 1, 2, 3}), rng);  // rank 8
  }
}

// The ops with an in-place form.
class UnaryInPlaceTest : public UnaryTest {};

TEST_P(UnaryInPlaceTest, InPlace) {
  const UnaryCase& op = GetParam();
  Rng rng(5);
  for (aclDataType t : op.inplace) {
    run_inplace_and_check(op, TensorDesc(t, {777}), rng);
    run_inplace_and_check(op, TensorDesc(t, {4, 5}, {1, 4}, 3), rng);
    run_inplace_and_check(op, TensorDesc(t, {3, 4}, {8, 2}, 1, 30), rng);
    run_inplace_and_check(op, TensorDesc(t, {}), rng);
    run_inplace_and_check(op, TensorDesc(t, {0, 3}), rng);
  }
  for (aclDataType t : join(kAll, {ACL_COMPLEX64})) {
    if (contains(op.inplace, t)) continue;
    Tensor ref(TensorDesc(t, {3}));
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    EXPECT_EQ(op.igws(ref.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID) << repro(op, true, ref.desc(), nullptr);
    EXPECT_NE(last_error().find(op.ref_name), std::string::npos) << last_error();
  }
  Tensor ref(TensorDesc(op.inplace[0], {2}));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(op.igws(nullptr, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_NE(last_error().find(op.ref_name), std::string::npos) << last_error();
  EXPECT_EQ(op.igws(ref.get(), nullptr, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(op.igws(ref.get(), &ws, nullptr), ACLNN_ERR_PARAM_NULLPTR);
}

TEST_P(UnaryTest, BadArguments) {
  const UnaryCase& op = GetParam();
  const aclDataType t = op.self[0], o = default_out(op, t);
  Tensor self(TensorDesc(t, {2, 3})), out(TensorDesc(o, {2, 3}));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto expect_fail = [&](aclnnStatus st, aclnnStatus code, const std::string& needle, const std::string& what) {
    EXPECT_EQ(st, code) << "aclnn" << op.name << ": " << what;
    const std::string msg = last_error();
    EXPECT_NE(msg.find(needle), std::string::npos) << "aclnn" << op.name << ": " << what << ": " << msg;
  };
  expect_fail(op.gws(nullptr, out.get(), &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, op.self_name, "null self");
  expect_fail(op.gws(self.get(), nullptr, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, op.out_name, "null out");
  expect_fail(op.gws(self.get(), out.get(), nullptr, &ex), ACLNN_ERR_PARAM_NULLPTR, "workspaceSize", "null size");
  expect_fail(op.gws(self.get(), out.get(), &ws, nullptr), ACLNN_ERR_PARAM_NULLPTR, "executor", "null executor");
  Tensor wrong(TensorDesc(o, {3, 2})), wider(TensorDesc(o, {1, 2, 3}));
  expect_fail(op.gws(self.get(), wrong.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID, op.out_name, "shape mismatch");
  expect_fail(op.gws(self.get(), wider.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID, op.out_name, "rank mismatch");
  // Rank 9: rejected, except by Sign (CANN reshapes) and by LogicalNot on contiguous tensors.
  const Shape nine = {1, 2, 1, 1, 1, 1, 1, 1, 2};
  Tensor self9(TensorDesc(t, nine)), out9(TensorDesc(o, nine));
  const std::string name = op.name;
  if (name == "Sign" || name == "LogicalNot") {
    Rng rng(6);
    run_and_check(op, TensorDesc(t, nine), TensorDesc(o, nine), rng);
  } else {
    expect_fail(op.gws(self9.get(), out9.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID, op.self_name, "rank 9");
  }
  if (name == "LogicalNot") {
    Tensor strided9(TensorDesc(t, nine, {8, 4, 8, 8, 8, 8, 8, 8, 2}));
    expect_fail(op.gws(strided9.get(), out9.get(), &ws, &ex), ACLNN_ERR_PARAM_INVALID, op.self_name,
                "rank 9, non-contiguous");
  }
}

INSTANTIATE_TEST_SUITE_P(Ops, UnaryTest, ::testing::ValuesIn(cases_with_decimals()), case_name);
INSTANTIATE_TEST_SUITE_P(Ops, UnaryInPlaceTest, ::testing::ValuesIn(inplace_cases()), case_name);

// ---- op-specific checks -----------------------------------------------------------------------------------

// Runs a contiguous 1-d op on the given values and returns the results as Nums.
std::vector<Num> apply(const UnaryCase& op, aclDataType t, aclDataType o, const std::vector<double>& xs) {
  const int64_t n = static_cast<int64_t>(xs.size());
  Tensor self(TensorDesc(t, {n})), out(TensorDesc(o, {n}));
  for (int64_t i = 0; i < n; ++i)
    self.set({i}, is_floating(t) ? Num::real(xs[i]) : Num::integer(static_cast<int64_t>(xs[i])));
  self.upload();
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  std::vector<Num> r;
  EXPECT_EQ(op.gws(self.get(), out.get(), &ws, &ex), ACL_SUCCESS) << last_error();
  EXPECT_EQ(execute(op.run, ws, ex), ACL_SUCCESS) << last_error();
  out.download();
  for (int64_t i = 0; i < n; ++i) r.push_back(out.at({i}));
  return r;
}

const UnaryCase& find_case(const std::string& name, int64_t decimals = 0) {
  static const std::vector<UnaryCase> cases = cases_with_decimals();
  for (const UnaryCase& c : cases)
    if (name == c.name && c.decimals == decimals) return c;
  ADD_FAILURE() << "no case " << name;
  return cases[0];
}

TEST(UnaryMath, RoundIsHalfToEven) {
  const auto r = apply(find_case("Round"), ACL_FLOAT, ACL_FLOAT, {0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999998, -0.3});
  const double want[] = {0.0, 2.0, 2.0, -0.0, -2.0, -2.0, 2.0, -0.0};
  for (size_t i = 0; i < r.size(); ++i) {
    EXPECT_EQ(r[i].f, want[i]) << i;
    EXPECT_EQ(std::signbit(r[i].f), std::signbit(want[i])) << i;
  }
  const auto d = apply(find_case("RoundDecimals", -1), ACL_INT32, ACL_INT32, {15, 25, -15, -25, 14, 16, 5, -5});
  const int64_t want_d[] = {20, 20, -20, -20, 10, 20, 0, 0};
  for (size_t i = 0; i < d.size(); ++i) EXPECT_EQ(d[i].i, want_d[i]) << i;
}

TEST(UnaryMath, SignOfNanIsZero) {
  const auto r = apply(find_case("Sign"), ACL_FLOAT, ACL_FLOAT, {std::nan(""), -0.0, 0.0, -HUGE_VAL, 1e-45, -3});
  const double want[] = {0, 0, 0, -1, 1, -1};
  for (size_t i = 0; i < r.size(); ++i) EXPECT_EQ(r[i].f, want[i]) << i;
  EXPECT_FALSE(std::signbit(r[1].f)) << "sign(-0) is +0 as PyTorch's (0 < x) - (x < 0)";
}

TEST(UnaryMath, IntegerInputsComputeAsCannCasts) {
  // int64 beyond 2^24 loses digits in float32; Sqrt computes int64 in float64 and keeps them.
  const double big = 9007199254740993.0;  // 2^53 + 1: not representable, rounds to 2^53 in double
  const auto s = apply(find_case("Sqrt"), ACL_INT64, ACL_DOUBLE, {big, 16777217});
  EXPECT_EQ(s[1].f, std::sqrt(16777217.0));
  const auto l = apply(find_case("Log"), ACL_INT32, ACL_DOUBLE, {16777217});
  EXPECT_EQ(l[0].f, static_cast<double>(std::log(16777216.0f)));  // float32 compute
  const auto r = apply(find_case("Rsqrt"), ACL_INT32, ACL_DOUBLE, {16777217});
  EXPECT_EQ(r[0].f, 1.0 / std::sqrt(16777217.0));  // computed in out's float64
}

TEST(UnaryMath, Float16ResultKeepsFloat16PrecisionInFloat32Out) {
  // sin(1) in float16 is 0.8413 (0x3abb); a float32 out receives that value, not sinf(1).
  const auto r = apply(find_case("Sin"), ACL_FLOAT16, ACL_FLOAT, {1.0});
  EXPECT_EQ(r[0].f, half_value(half_bits(std::sin(1.0f))));
}

TEST(UnaryMath, LogicalNotWritesAnyDtypeAndBitwiseNotOfBoolIsLogical) {
  const auto r = apply(find_case("LogicalNot"), ACL_FLOAT, ACL_FLOAT16, {0.0, -0.0, 2.5, std::nan(""), HUGE_VAL});
  const double want[] = {1, 1, 0, 0, 0};
  for (size_t i = 0; i < r.size(); ++i) EXPECT_EQ(r[i].f, want[i]) << i;
  const auto b = apply(find_case("BitwiseNot"), ACL_BOOL, ACL_BOOL, {0, 1});
  EXPECT_EQ(b[0].i, 1);
  EXPECT_EQ(b[1].i, 0);
  const auto u = apply(find_case("BitwiseNot"), ACL_UINT8, ACL_UINT8, {0, 5});
  EXPECT_EQ(u[0].i, 255);
  EXPECT_EQ(u[1].i, 250);
}

TEST(UnaryMath, RepeatableExecutorRebindsAddresses) {
  const UnaryCase& op = find_case("Sqrt");
  Tensor a(TensorDesc(ACL_FLOAT, {4})), out(TensorDesc(ACL_FLOAT, {4}));
  for (int64_t i = 0; i < 4; ++i) a.set({i}, Num::real(static_cast<double>(i * i)));
  a.upload();
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(op.gws(a.get(), out.get(), &ws, &ex), ACL_SUCCESS) << last_error();
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), ACL_SUCCESS) << last_error();
  for (int k = 0; k < 2; ++k) {
    ASSERT_EQ(execute(op.run, ws, ex), ACL_SUCCESS) << last_error();
    out.download();
    for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(out.at({i}).f, static_cast<double>(i)) << k;
  }
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACL_SUCCESS);
}

}  // namespace
