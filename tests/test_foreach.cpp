// The foreach family (aclnnForeach*) through the public C API. One table drives the elementwise
// ops: each row names the entry point, its operands in parameter order (lists, a scalar as a
// one-element tensor, an aclScalar, an aclScalarList, a tensor of one value per list element), the
// list dtypes CANN's doc allows, the scalar dtypes it allows for each list dtype, and a reference:
// the op's math in double on the host copies (integers in wrapping 64-bit arithmetic), with every
// operand first converted to the dtype the op computes in (float32 for the floating lists). Each
// case is a random list of 1-5 tensors of different shapes (empty and 0-d ones among them, strided
// and offset views), random values with the special ones mixed in. Bad inputs (null lists and
// elements, lists of different lengths, mismatched shapes and dtypes, unsupported dtypes, wrong
// scalars) must fail phase 1 with the right status and a message naming the argument and index.
// Copy, ZeroInplace, Norm, NonFiniteCheckAndUnscale and RoundOffNumber have tests of their own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_foreach_a_cos_inplace.h"
#include "aclnnop/aclnn_foreach_abs.h"
#include "aclnnop/aclnn_foreach_acos.h"
#include "aclnnop/aclnn_foreach_add_list.h"
#include "aclnnop/aclnn_foreach_add_list_inplace.h"
#include "aclnnop/aclnn_foreach_add_list_v2.h"
#include "aclnnop/aclnn_foreach_add_scalar.h"
#include "aclnnop/aclnn_foreach_add_scalar_list.h"
#include "aclnnop/aclnn_foreach_add_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcdiv_list.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar_list.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcmul_list.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_list.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_asin.h"
#include "aclnnop/aclnn_foreach_atan.h"
#include "aclnnop/aclnn_foreach_copy.h"
#include "aclnnop/aclnn_foreach_cos.h"
#include "aclnnop/aclnn_foreach_cosh.h"
#include "aclnnop/aclnn_foreach_div_list.h"
#include "aclnnop/aclnn_foreach_div_list_inplace.h"
#include "aclnnop/aclnn_foreach_div_scalar.h"
#include "aclnnop/aclnn_foreach_div_scalar_list.h"
#include "aclnnop/aclnn_foreach_div_scalar_v2.h"
#include "aclnnop/aclnn_foreach_erf.h"
#include "aclnnop/aclnn_foreach_erfc.h"
#include "aclnnop/aclnn_foreach_exp.h"
#include "aclnnop/aclnn_foreach_expm1.h"
#include "aclnnop/aclnn_foreach_lerp_list.h"
#include "aclnnop/aclnn_foreach_lerp_scalar.h"
#include "aclnnop/aclnn_foreach_log.h"
#include "aclnnop/aclnn_foreach_log10.h"
#include "aclnnop/aclnn_foreach_log1p.h"
#include "aclnnop/aclnn_foreach_log2.h"
#include "aclnnop/aclnn_foreach_log_inplace.h"
#include "aclnnop/aclnn_foreach_maximum_list.h"
#include "aclnnop/aclnn_foreach_maximum_scalar.h"
#include "aclnnop/aclnn_foreach_maximum_scalar_list.h"
#include "aclnnop/aclnn_foreach_maximum_scalar_v2.h"
#include "aclnnop/aclnn_foreach_minimum_list.h"
#include "aclnnop/aclnn_foreach_minimum_scalar.h"
#include "aclnnop/aclnn_foreach_minimum_scalar_list.h"
#include "aclnnop/aclnn_foreach_minimum_scalar_v2.h"
#include "aclnnop/aclnn_foreach_mul_list.h"
#include "aclnnop/aclnn_foreach_mul_list_inplace.h"
#include "aclnnop/aclnn_foreach_mul_scalar.h"
#include "aclnnop/aclnn_foreach_mul_scalar_inplace.h"
#include "aclnnop/aclnn_foreach_mul_scalar_list.h"
#include "aclnnop/aclnn_foreach_mul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_neg.h"
#include "aclnnop/aclnn_foreach_non_finite_check_and_unscale.h"
#include "aclnnop/aclnn_foreach_norm.h"
#include "aclnnop/aclnn_foreach_pow_list.h"
#include "aclnnop/aclnn_foreach_pow_scalar.h"
#include "aclnnop/aclnn_foreach_pow_scalar_and_tensor.h"
#include "aclnnop/aclnn_foreach_pow_scalar_list.h"
#include "aclnnop/aclnn_foreach_pow_scalar_v2.h"
#include "aclnnop/aclnn_foreach_reciprocal.h"
#include "aclnnop/aclnn_foreach_round_off_number.h"
#include "aclnnop/aclnn_foreach_round_off_number_v2.h"
#include "aclnnop/aclnn_foreach_sigmoid.h"
#include "aclnnop/aclnn_foreach_sign.h"
#include "aclnnop/aclnn_foreach_sin.h"
#include "aclnnop/aclnn_foreach_sinh.h"
#include "aclnnop/aclnn_foreach_sqrt.h"
#include "aclnnop/aclnn_foreach_sub_list.h"
#include "aclnnop/aclnn_foreach_sub_list_inplace.h"
#include "aclnnop/aclnn_foreach_sub_list_v2.h"
#include "aclnnop/aclnn_foreach_sub_scalar.h"
#include "aclnnop/aclnn_foreach_sub_scalar_inplace.h"
#include "aclnnop/aclnn_foreach_sub_scalar_list.h"
#include "aclnnop/aclnn_foreach_sub_scalar_v2.h"
#include "aclnnop/aclnn_foreach_tan.h"
#include "aclnnop/aclnn_foreach_tanh.h"
#include "aclnnop/aclnn_foreach_zero_inplace.h"
#include "op_test_util.h"

namespace {

using namespace optest;

// ---- operands ---------------------------------------------------------------------------------------

// What feeds one operand of the per-element op.
enum class Kind {
  kList,        // a tensor list
  kTensor,      // a one-element aclTensor
  kPerElement,  // an aclTensor of one value per list element
  kHost,        // an aclScalar
  kScalarList,  // an aclScalarList
};

// The C arguments of one call, in parameter order (the out list last, unless in place).
struct P {
  std::vector<void*> v;
  aclTensorList* l(size_t i) const { return static_cast<aclTensorList*>(v[i]); }
  aclTensor* t(size_t i) const { return static_cast<aclTensor*>(v[i]); }
  aclScalar* s(size_t i) const { return static_cast<aclScalar*>(v[i]); }
  aclScalarList* sl(size_t i) const { return static_cast<aclScalarList*>(v[i]); }
};
using CallFn = aclnnStatus (*)(const P&, uint64_t*, aclOpExecutor**);

// An aclTensor of its own over t's device storage (a list owns and destroys its elements).
aclTensor* alias(const Tensor& t) {
  void* addr = nullptr;
  EXPECT_EQ(aclGetRawTensorAddr(t.get(), &addr), ACL_SUCCESS);
  const TensorDesc& d = t.desc();
  const Shape st = d.view_strides();
  const int64_t storage[1] = {d.storage_elems()};
  return aclCreateTensor(d.shape.data(), d.shape.size(), d.dtype, st.data(), d.offset, ACL_FORMAT_ND, storage, 1,
                         addr);
}

struct TensorListHandle {
  explicit TensorListHandle(const std::vector<std::unique_ptr<Tensor>>& ts, int null_at = -1) {
    std::vector<aclTensor*> items;
    for (size_t i = 0; i < ts.size(); ++i) items.push_back(static_cast<int>(i) == null_at ? nullptr : alias(*ts[i]));
    l = aclCreateTensorList(items.data(), items.size());
  }
  ~TensorListHandle() { aclDestroyTensorList(l); }
  TensorListHandle(const TensorListHandle&) = delete;
  TensorListHandle& operator=(const TensorListHandle&) = delete;
  aclTensorList* l = nullptr;
};

struct ScalarListHandle {
  explicit ScalarListHandle(const std::vector<ScalarDesc>& ds) {
    std::vector<aclScalar*> items;
    for (const ScalarDesc& d : ds) {
      alignas(16) unsigned char buf[16] = {};
      store(d.dtype, buf, d.value);
      items.push_back(aclCreateScalar(buf, d.dtype));
    }
    l = aclCreateScalarList(items.data(), items.size());
  }
  ~ScalarListHandle() { aclDestroyScalarList(l); }
  ScalarListHandle(const ScalarListHandle&) = delete;
  ScalarListHandle& operator=(const ScalarListHandle&) = delete;
  aclScalarList* l = nullptr;
};

// ---- dtype rules (restated from CANN's docs, Atlas A2) -------------------------------------------------

using Dtypes = std::vector<aclDataType>;
using ScalarRule = Dtypes (*)(aclDataType x);

const Dtypes kF3 = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const Dtypes kF3I32 = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};
const Dtypes kF3Ints = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT16, ACL_INT8, ACL_UINT8};
const Dtypes kExpDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT16, ACL_INT8, ACL_UINT8};
const Dtypes kRoundDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT16};
const Dtypes kSignDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT32, ACL_INT64};

Dtypes no_scalar(aclDataType) { return {}; }
// A one-element tensor: x's dtype for float32/float16/int32, float32 for bfloat16, int32 for narrow ints.
Dtypes tensor_rule(aclDataType x) {
  if (x == ACL_BF16) return {ACL_FLOAT};
  if (x == ACL_FLOAT || x == ACL_FLOAT16 || x == ACL_INT32) return {x};
  return {ACL_INT32};
}
Dtypes host_rule(aclDataType x) {
  if (x == ACL_FLOAT16) return {ACL_FLOAT16, ACL_DOUBLE};
  if (is_floating(x)) return {ACL_FLOAT, ACL_DOUBLE};
  return {ACL_INT32, ACL_INT64};
}
Dtypes list_rule(aclDataType x) { return is_floating(x) ? Dtypes{ACL_FLOAT} : Dtypes{ACL_INT64}; }
Dtypes list_wide_rule(aclDataType x) { return is_floating(x) ? Dtypes{ACL_FLOAT, ACL_DOUBLE} : Dtypes{ACL_INT64}; }
Dtypes same_rule(aclDataType x) { return {x}; }
Dtypes weight_rule(aclDataType) { return {ACL_FLOAT, ACL_DOUBLE}; }
Dtypes round_mode_rule(aclDataType) { return {ACL_INT8}; }
Dtypes round_mode_v2_rule(aclDataType) { return {ACL_INT8, ACL_INT64}; }

// ---- references -------------------------------------------------------------------------------------

// Operands already converted to the compute dtype; `mag` receives the magnitude the rounding error of
// the float32 computation scales with (default: |result|).
using RefFn = Num (*)(const std::vector<Num>& a, double* mag);

constexpr double kFloatMax = 3.4028234663852886e38;

uint64_t u(const Num& v) { return static_cast<uint64_t>(v.i); }
Num ipow(const Num& a, const Num& b) {
  if (b.i < 0) return Num::integer(a.i == 1 ? 1 : a.i == -1 ? (b.i & 1 ? -1 : 1) : 0);
  uint64_t r = 1, base = u(a);
  for (uint64_t e = u(b); e; e >>= 1) {
    if (e & 1) r *= base;
    base *= base;
  }
  return Num::integer(static_cast<int64_t>(r));
}
double fmax_nan(double a, double b) { return std::isnan(a) ? a : std::isnan(b) ? b : (a < b ? b : a); }
double fmin_nan(double a, double b) { return std::isnan(a) ? a : std::isnan(b) ? b : (b < a ? b : a); }

Num ref_add(const std::vector<Num>& a, double* mag) {
  if (!a[0].is_float) return Num::integer(static_cast<int64_t>(u(a[0]) + u(a[1])));
  *mag = std::fabs(a[0].f) + std::fabs(a[1].f);
  return Num::real(a[0].f + a[1].f);
}
Num ref_sub(const std::vector<Num>& a, double* mag) {
  if (!a[0].is_float) return Num::integer(static_cast<int64_t>(u(a[0]) - u(a[1])));
  *mag = std::fabs(a[0].f) + std::fabs(a[1].f);
  return Num::real(a[0].f - a[1].f);
}
Num ref_mul(const std::vector<Num>& a, double*) {
  if (!a[0].is_float) return Num::integer(static_cast<int64_t>(u(a[0]) * u(a[1])));
  return Num::real(a[0].f * a[1].f);
}
Num ref_div(const std::vector<Num>& a, double*) { return Num::real(a[0].f / a[1].f); }
Num ref_max(const std::vector<Num>& a, double*) {
  if (!a[0].is_float) return Num::integer(std::max(a[0].i, a[1].i));
  return Num::real(fmax_nan(a[0].f, a[1].f));
}
Num ref_min(const std::vector<Num>& a, double*) {
  if (!a[0].is_float) return Num::integer(std::min(a[0].i, a[1].i));
  return Num::real(fmin_nan(a[0].f, a[1].f));
}
Num ref_pow(const std::vector<Num>& a, double*) {
  if (!a[0].is_float) return ipow(a[0], a[1]);
  return Num::real(std::pow(a[0].f, a[1].f));
}
// x1 + alpha * x2 (AddList), x1 - alpha * x2 (SubList).
Num ref_add_alpha(const std::vector<Num>& a, double* mag) {
  if (!a[0].is_float) return Num::integer(static_cast<int64_t>(u(a[0]) + u(a[2]) * u(a[1])));
  *mag = std::fabs(a[0].f) + std::fabs(a[2].f * a[1].f);
  return Num::real(a[0].f + a[2].f * a[1].f);
}
Num ref_sub_alpha(const std::vector<Num>& a, double* mag) {
  if (!a[0].is_float) return Num::integer(static_cast<int64_t>(u(a[0]) - u(a[2]) * u(a[1])));
  *mag = std::fabs(a[0].f) + std::fabs(a[2].f * a[1].f);
  return Num::real(a[0].f - a[2].f * a[1].f);
}

// Unary references: f(x) in double.
#define UNARY_REF(name, expr)                        \
  Num name(const std::vector<Num>& a, double*) {     \
    const double x = a[0].f;                         \
    return Num::real(expr);                          \
  }
UNARY_REF(ref_acos, std::acos(x))
UNARY_REF(ref_asin, std::asin(x))
UNARY_REF(ref_atan, std::atan(x))
UNARY_REF(ref_cos, std::cos(x))
UNARY_REF(ref_cosh, std::cosh(x))
UNARY_REF(ref_erf, std::erf(x))
UNARY_REF(ref_erfc, std::erfc(x))
UNARY_REF(ref_exp, std::exp(x))
UNARY_REF(ref_expm1, std::expm1(x))
UNARY_REF(ref_log, std::log(x))
UNARY_REF(ref_log10, std::log10(x))
UNARY_REF(ref_log1p, std::log1p(x))
UNARY_REF(ref_log2, std::log2(x))
UNARY_REF(ref_reciprocal, 1.0 / x)
UNARY_REF(ref_sigmoid, 1.0 / (1.0 + std::exp(-x)))
UNARY_REF(ref_sin, std::sin(x))
UNARY_REF(ref_sinh, std::sinh(x))
UNARY_REF(ref_sqrt, std::sqrt(x))
UNARY_REF(ref_tan, std::tan(x))
UNARY_REF(ref_tanh, std::tanh(x))
UNARY_REF(ref_abs, std::fabs(x))
#undef UNARY_REF
Num ref_neg(const std::vector<Num>& a, double*) {
  return a[0].is_float ? Num::real(-a[0].f) : Num::integer(static_cast<int64_t>(0 - u(a[0])));
}
// sign(NaN) = 0, sign(-0) = +0 (PyTorch's (0 < x) - (x < 0)).
Num ref_sign(const std::vector<Num>& a, double*) {
  if (!a[0].is_float) return Num::integer((a[0].i > 0) - (a[0].i < 0));
  return Num::real(static_cast<double>((a[0].f > 0) - (a[0].f < 0)));
}

// x1 + s * x2 * x3, x1 + s * x2 / x3, x1 + w * (x2 - x1).
Num ref_addcmul(const std::vector<Num>& a, double* mag) {
  if (!a[0].is_float) return Num::integer(static_cast<int64_t>(u(a[0]) + u(a[3]) * u(a[1]) * u(a[2])));
  *mag = std::fabs(a[0].f) + std::fabs(a[3].f * a[1].f * a[2].f);
  if (std::fabs(a[1].f * a[2].f) > kFloatMax) *mag = HUGE_VAL;  // x2 * x3 overflows in float32
  return Num::real(a[0].f + a[3].f * a[1].f * a[2].f);
}
Num ref_addcdiv(const std::vector<Num>& a, double* mag) {
  *mag = std::fabs(a[0].f) + std::fabs(a[3].f * a[1].f / a[2].f);
  if (std::fabs(a[1].f / a[2].f) > kFloatMax) *mag = HUGE_VAL;  // x2 / x3 overflows in float32
  return Num::real(a[0].f + a[3].f * (a[1].f / a[2].f));
}
Num ref_lerp(const std::vector<Num>& a, double* mag) {
  *mag = (std::fabs(a[0].f) + std::fabs(a[1].f)) * (1 + std::fabs(a[2].f));
  if (std::fabs(a[1].f - a[0].f) > kFloatMax) *mag = HUGE_VAL;  // x2 - x1 overflows in float32
  return Num::real(a[0].f + a[2].f * (a[1].f - a[0].f));
}
// Rounding as roundMode says: 1 half even, 2 floor, 3 ceil, 4 half away, 5 trunc, 6 to odd, 7 frac;
// any other mode: unchanged. Integers are integral (7 gives 0).
Num ref_round_off(const std::vector<Num>& a, double*) {
  const int64_t m = a[1].is_float ? static_cast<int64_t>(a[1].f) : a[1].i;
  if (!a[0].is_float) return Num::integer(m == 7 ? 0 : a[0].i);
  const double x = a[0].f;
  switch (m) {
    case 1: return Num::real(std::nearbyint(x));
    case 2: return Num::real(std::floor(x));
    case 3: return Num::real(std::ceil(x));
    case 4: return Num::real(std::round(x));
    case 5: return Num::real(std::trunc(x));
    case 6: {
      if (std::floor(x) == x || std::isnan(x)) return Num::real(x);
      const double f = std::floor(x);
      return Num::real(std::fmod(f, 2.0) != 0 ? f : f + 1);
    }
    case 7: return Num::real(x - std::trunc(x));
    default: return Num::real(x);
  }
}
Num round_mode(aclDataType t, Rng& rng) { return cast(Num::integer(static_cast<int64_t>(rng() % 10) - 1), t); }

// Allowed error: ulps units in the last place of the out dtype at the expected value, plus rel
// float32 epsilons of `mag`, plus (integers) int_diff. All zero: the exact value, sign of zero too.
struct Tol {
  int ulps = 0;
  double rel = 0;
  int64_t int_diff = 0;
};
constexpr Tol kExact{0, 0, 0};
constexpr Tol kRounded{1, 2, 0};   // one or two float32 roundings, then the out dtype's
constexpr Tol kLibm{4, 4, 0};      // a libm function in float32
constexpr Tol kLibmInt{4, 4, 1};   // the same, truncated to an integer out
constexpr Tol kRounded3{1, 3, 0};  // three float32 roundings

double ulp_at(aclDataType t, double v) {
  int e = 0;
  std::frexp(std::fabs(v), &e);  // |v| in [2^(e-1), 2^e)
  switch (t) {
    case ACL_FLOAT16: return std::ldexp(1.0, std::max(e - 1, -14) - 10);
    case ACL_BF16: return std::ldexp(1.0, std::max(e - 1, -126) - 7);
    case ACL_DOUBLE: return std::ldexp(1.0, std::max(e - 1, -1022) - 52);
    default: return std::ldexp(1.0, std::max(e - 1, -126) - 23);
  }
}

bool close_enough(aclDataType t, const Num& want, const Num& got, const Tol& tol, double mag) {
  if (want.undefined) return true;
  if (!is_floating(t)) return std::llabs(want.i - got.i) <= tol.int_diff;
  if (tol.ulps == 0 && tol.rel == 0) return same_value(t, want, got);
  if (std::isnan(want.f) || std::isnan(got.f)) return std::isnan(want.f) && std::isnan(got.f);
  if (std::isinf(want.f) || std::isinf(got.f)) return want.f == got.f;
  const double allowed = tol.ulps * ulp_at(t, want.f) + tol.rel * std::ldexp(mag, -23);
  return std::fabs(want.f - got.f) <= allowed;
}

// ---- the table --------------------------------------------------------------------------------------

struct Row {
  const char* name;
  CallFn call;
  Phase2Fn p2;
  std::vector<Kind> ops;  // operands in parameter order (the reference's argument order)
  bool inplace;           // out is the first list
  Dtypes dtypes;          // list dtypes
  ScalarRule scalar_dtypes;
  RefFn ref;
  Tol tol;
  bool float_compute = false;  // integer lists compute in float32
  double scalar_range = 0;     // > 0: scalar values uniform in [-range, range] (exponents)
  Num (*scalar_gen)(aclDataType, Rng&) = nullptr;  // the scalars' values, when random_value's do not suit
};

#define CALL(fn, ...)                                                           \
  #fn, [](const P& p, uint64_t* ws, aclOpExecutor** ex) -> aclnnStatus {      \
    return aclnn##fn##GetWorkspaceSize(__VA_ARGS__, ws, ex);                    \
  },                                                                            \
      aclnn##fn

using K = Kind;
const K L = K::kList, T = K::kTensor, H = K::kHost, SL = K::kScalarList;

const std::vector<Row>& binary_rows() {
  static const std::vector<Row> rows = {
      {CALL(ForeachAddScalar, p.l(0), p.t(1), p.l(2)), {L, T}, false, kF3Ints, tensor_rule, ref_add, kRounded},
      {CALL(ForeachAddScalarV2, p.l(0), p.s(1), p.l(2)), {L, H}, false, kF3Ints, host_rule, ref_add, kRounded},
      {CALL(ForeachAddScalarList, p.l(0), p.sl(1), p.l(2)), {L, SL}, false, kF3I32, list_rule, ref_add, kRounded},
      {CALL(ForeachSubScalar, p.l(0), p.t(1), p.l(2)), {L, T}, false, kF3I32, tensor_rule, ref_sub, kRounded},
      {CALL(ForeachSubScalarV2, p.l(0), p.s(1), p.l(2)), {L, H}, false, kF3I32, host_rule, ref_sub, kRounded},
      {CALL(ForeachSubScalarList, p.l(0), p.sl(1), p.l(2)), {L, SL}, false, kF3I32, list_rule, ref_sub, kRounded},
      {CALL(ForeachSubScalarInplace, p.l(0), p.t(1)), {L, T}, true, kF3I32, tensor_rule, ref_sub, kRounded},
      {CALL(ForeachMulScalar, p.l(0), p.t(1), p.l(2)), {L, T}, false, kF3I32, tensor_rule, ref_mul, kRounded},
      {CALL(ForeachMulScalarV2, p.l(0), p.s(1), p.l(2)), {L, H}, false, kF3I32, host_rule, ref_mul, kRounded},
      {CALL(ForeachMulScalarList, p.l(0), p.sl(1), p.l(2)), {L, SL}, false, kF3I32, list_rule, ref_mul, kRounded},
      {CALL(ForeachMulScalarInplace, p.l(0), p.t(1)), {L, T}, true, kF3I32, tensor_rule, ref_mul, kRounded},
      {CALL(ForeachDivScalar, p.l(0), p.t(1), p.l(2)), {L, T}, false, kF3, tensor_rule, ref_div, kRounded},
      {CALL(ForeachDivScalarV2, p.l(0), p.s(1), p.l(2)), {L, H}, false, kF3, host_rule, ref_div, kRounded},
      {CALL(ForeachDivScalarList, p.l(0), p.sl(1), p.l(2)), {L, SL}, false, kF3, list_rule, ref_div, kRounded},
      {CALL(ForeachMaximumScalar, p.l(0), p.t(1), p.l(2)), {L, T}, false, kF3I32, tensor_rule, ref_max, kExact},
      {CALL(ForeachMaximumScalarV2, p.l(0), p.s(1), p.l(2)), {L, H}, false, kF3I32, host_rule, ref_max, kExact},
      {CALL(ForeachMaximumScalarList, p.l(0), p.sl(1), p.l(2)), {L, SL}, false, kF3I32, list_wide_rule, ref_max,
       kExact},
      {CALL(ForeachMinimumScalar, p.l(0), p.t(1), p.l(2)), {L, T}, false, kF3I32, tensor_rule, ref_min, kExact},
      {CALL(ForeachMinimumScalarV2, p.l(0), p.s(1), p.l(2)), {L, H}, false, kF3I32, host_rule, ref_min, kExact},
      {CALL(ForeachMinimumScalarList, p.l(0), p.sl(1), p.l(2)), {L, SL}, false, kF3I32, list_wide_rule, ref_min,
       kExact},
      {CALL(ForeachPowScalar, p.l(0), p.t(1), p.l(2)), {L, T}, false, kF3I32, tensor_rule, ref_pow, kLibm, false, 4},
      {CALL(ForeachPowScalarV2, p.l(0), p.s(1), p.l(2)), {L, H}, false, kF3, host_rule, ref_pow, kLibm, false, 4},
      {CALL(ForeachPowScalarList, p.l(0), p.sl(1), p.l(2)), {L, SL}, false, kF3I32, list_rule, ref_pow, kLibm, false,
       4},
      {CALL(ForeachPowScalarAndTensor, p.s(0), p.l(1), p.l(2)), {H, L}, false, kF3I32, list_wide_rule, ref_pow, kLibm,
       false, 4},
      {CALL(ForeachAddList, p.l(0), p.l(1), p.t(2), p.l(3)), {L, L, T}, false, kF3Ints, tensor_rule, ref_add_alpha,
       kRounded},
      {CALL(ForeachAddListV2, p.l(0), p.l(1), p.s(2), p.l(3)), {L, L, H}, false, kF3Ints, host_rule, ref_add_alpha,
       kRounded},
      {CALL(ForeachAddListInplace, p.l(0), p.l(1), p.t(2)), {L, L, T}, true, kF3I32, tensor_rule, ref_add_alpha,
       kRounded},
      {CALL(ForeachSubList, p.l(0), p.l(1), p.t(2), p.l(3)), {L, L, T}, false, kF3Ints, tensor_rule, ref_sub_alpha,
       kRounded},
      {CALL(ForeachSubListV2, p.l(0), p.l(1), p.s(2), p.l(3)), {L, L, H}, false, kF3Ints, host_rule, ref_sub_alpha,
       kRounded},
      {CALL(ForeachSubListInplace, p.l(0), p.l(1), p.t(2)), {L, L, T}, true, kF3I32, tensor_rule, ref_sub_alpha,
       kRounded},
      {CALL(ForeachMulList, p.l(0), p.l(1), p.l(2)), {L, L}, false, kF3Ints, no_scalar, ref_mul, kRounded},
      {CALL(ForeachMulListInplace, p.l(0), p.l(1)), {L, L}, true, kF3I32, no_scalar, ref_mul, kRounded},
      {CALL(ForeachDivList, p.l(0), p.l(1), p.l(2)), {L, L}, false, kF3, no_scalar, ref_div, kRounded},
      {CALL(ForeachDivListInplace, p.l(0), p.l(1)), {L, L}, true, kF3, no_scalar, ref_div, kRounded},
      {CALL(ForeachMaximumList, p.l(0), p.l(1), p.l(2)), {L, L}, false, kF3I32, no_scalar, ref_max, kExact},
      {CALL(ForeachMinimumList, p.l(0), p.l(1), p.l(2)), {L, L}, false, kF3I32, no_scalar, ref_min, kExact},
      {CALL(ForeachPowList, p.l(0), p.l(1), p.l(2)), {L, L}, false, kF3I32, no_scalar, ref_pow, kLibm},
  };
  return rows;
}

const std::vector<Row>& unary_rows() {
  static const std::vector<Row> rows = {
      {CALL(ForeachAbs, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_abs, kExact},
      {CALL(ForeachAcos, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_acos, kLibm},
      {CALL(ForeachACosInplace, p.l(0)), {L}, true, kF3, no_scalar, ref_acos, kLibm},
      {CALL(ForeachAsin, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_asin, kLibm},
      {CALL(ForeachAtan, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_atan, kLibm},
      {CALL(ForeachCos, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_cos, kLibm},
      {CALL(ForeachCosh, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_cosh, kLibm},
      {CALL(ForeachErf, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_erf, kLibm},
      {CALL(ForeachErfc, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_erfc, kLibm},
      {CALL(ForeachExp, p.l(0), p.l(1)), {L}, false, kExpDtypes, no_scalar, ref_exp, kLibmInt, true},
      {CALL(ForeachExpm1, p.l(0), p.l(1)), {L}, false, kExpDtypes, no_scalar, ref_expm1, kLibmInt, true},
      {CALL(ForeachLog, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_log, kLibm},
      {CALL(ForeachLogInplace, p.l(0)), {L}, true, kF3, no_scalar, ref_log, kLibm},
      {CALL(ForeachLog10, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_log10, kLibm},
      {CALL(ForeachLog1p, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_log1p, kLibm},
      {CALL(ForeachLog2, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_log2, kLibm},
      {CALL(ForeachNeg, p.l(0), p.l(1)), {L}, false, kF3Ints, no_scalar, ref_neg, kExact},
      {CALL(ForeachReciprocal, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_reciprocal, kRounded},
      {CALL(ForeachSigmoid, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_sigmoid, kLibm},
      {CALL(ForeachSign, p.l(0), p.l(1)), {L}, false, kSignDtypes, no_scalar, ref_sign, kExact},
      {CALL(ForeachSin, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_sin, kLibm},
      {CALL(ForeachSinh, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_sinh, kLibm},
      {CALL(ForeachSqrt, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_sqrt, kRounded},
      {CALL(ForeachTan, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_tan, kLibm},
      {CALL(ForeachTanh, p.l(0), p.l(1)), {L}, false, kF3, no_scalar, ref_tanh, kLibm},
  };
  return rows;
}

const std::vector<Row>& ternary_rows() {
  static const K E = K::kPerElement;
  static const std::vector<Row> rows = {
      {CALL(ForeachAddcmulScalar, p.l(0), p.l(1), p.l(2), p.t(3), p.l(4)), {L, L, L, T}, false, kF3I32, tensor_rule,
       ref_addcmul, kRounded3},
      {CALL(ForeachAddcmulScalarV2, p.l(0), p.l(1), p.l(2), p.s(3), p.l(4)), {L, L, L, H}, false, kF3I32, host_rule,
       ref_addcmul, kRounded3},
      {CALL(ForeachAddcmulScalarList, p.l(0), p.l(1), p.l(2), p.t(3), p.l(4)), {L, L, L, E}, false, kF3I32, same_rule,
       ref_addcmul, kRounded3},
      {CALL(ForeachAddcmulList, p.l(0), p.l(1), p.l(2), p.t(3), p.l(4)), {L, L, L, E}, false, kF3I32, same_rule,
       ref_addcmul, kRounded3},
      {CALL(ForeachAddcdivScalar, p.l(0), p.l(1), p.l(2), p.t(3), p.l(4)), {L, L, L, T}, false, kF3, tensor_rule,
       ref_addcdiv, kRounded3},
      {CALL(ForeachAddcdivScalarV2, p.l(0), p.l(1), p.l(2), p.s(3), p.l(4)), {L, L, L, H}, false, kF3, host_rule,
       ref_addcdiv, kRounded3},
      {CALL(ForeachAddcdivScalarList, p.l(0), p.l(1), p.l(2), p.t(3), p.l(4)), {L, L, L, E}, false, kF3, same_rule,
       ref_addcdiv, kRounded3},
      {CALL(ForeachAddcdivList, p.l(0), p.l(1), p.l(2), p.t(3), p.l(4)), {L, L, L, E}, false, kF3, same_rule,
       ref_addcdiv, kRounded3},
      {CALL(ForeachLerpList, p.l(0), p.l(1), p.l(2), p.l(3)), {L, L, L}, false, kF3, no_scalar, ref_lerp, kRounded3},
      {CALL(ForeachLerpScalar, p.l(0), p.l(1), p.s(2), p.l(3)), {L, L, H}, false, kF3, weight_rule, ref_lerp,
       kRounded3},
      {CALL(ForeachRoundOffNumber, p.l(0), p.t(1), p.l(2)), {L, T}, false, kRoundDtypes, round_mode_rule,
       ref_round_off, kExact, false, 0, round_mode},
      {CALL(ForeachRoundOffNumberV2, p.l(0), p.s(1), p.l(2)), {L, H}, false, kRoundDtypes, round_mode_v2_rule,
       ref_round_off, kExact, false, 0, round_mode},
  };
  return rows;
}

// ---- one case -----------------------------------------------------------------------------------------

// A random shape of rank 0-3 (an empty one now and then), and a view of it: contiguous, or strided
// with gaps and an offset.
TensorDesc random_desc(Rng& rng, aclDataType t, const Shape& shape) {
  TensorDesc d(t, shape);
  if (!shape.empty() && rng() % 3 == 0) {
    Shape big = shape;
    big.back() = big.back() * 2 + 1;
    d.strides = contiguous_strides(big);
    d.offset = static_cast<int64_t>(rng() % 3);
  }
  return d;
}
Shape random_shape(Rng& rng) {
  Shape s(rng() % 4);
  for (auto& d : s) d = static_cast<int64_t>(rng() % 4) + 1;
  if (!s.empty() && rng() % 8 == 0) s[rng() % s.size()] = 0;
  return s;
}

// The dtype a list of dtype x computes in.
aclDataType compute_of(const Row& r, aclDataType x) { return is_floating(x) || r.float_compute ? ACL_FLOAT : x; }

Num random_scalar(const Row& r, aclDataType t, Rng& rng) {
  if (r.scalar_gen) return r.scalar_gen(t, rng);
  if (r.scalar_range > 0) {
    const double v = std::uniform_real_distribution<double>(-r.scalar_range, r.scalar_range)(rng);
    return is_floating(t) ? cast(Num::real(rng() % 2 ? std::round(v) : v), t) : Num::integer(std::llround(v));
  }
  FillOptions o;
  o.special = 0.05;
  return random_value(t, rng, o);
}

// Runs one random case of row r with lists of dtype x.
void run_case(const Row& r, aclDataType x, Rng& rng, int iter) {
  const size_t n = 1 + rng() % 5;
  std::vector<Shape> shapes;
  for (size_t i = 0; i < n; ++i) shapes.push_back(random_shape(rng));
  const Dtypes sdt = r.scalar_dtypes(x);
  std::string repro = std::string(r.name) + " x=" + dtype_name(x) + " n=" + std::to_string(n) + " iter " +
                      std::to_string(iter) + ":";

  // Operands.
  std::vector<std::vector<std::unique_ptr<Tensor>>> lists(r.ops.size());
  std::vector<std::unique_ptr<Tensor>> tensors(r.ops.size());
  std::vector<std::unique_ptr<Scalar>> hosts(r.ops.size());
  std::vector<std::vector<ScalarDesc>> scalar_lists(r.ops.size());
  for (size_t k = 0; k < r.ops.size(); ++k) {
    switch (r.ops[k]) {
      case K::kList:
        for (size_t i = 0; i < n; ++i) {
          lists[k].push_back(std::make_unique<Tensor>(random_desc(rng, x, shapes[i])));
          lists[k].back()->fill_random(rng);
          repro += " " + lists[k].back()->desc().str();
        }
        break;
      case K::kTensor:
      case K::kPerElement: {
        const aclDataType t = sdt[rng() % sdt.size()];
        const int64_t count = r.ops[k] == K::kTensor ? 1 : static_cast<int64_t>(n);
        tensors[k] = std::make_unique<Tensor>(
            TensorDesc(t, rng() % 2 ? Shape{count} : count == 1 ? Shape{} : Shape{1, count}));
        const size_t es = dtype_size(t);
        for (int64_t e = 0; e < count; ++e)
          store(t, tensors[k]->host().data() + static_cast<size_t>(e) * es, random_scalar(r, t, rng));
        tensors[k]->upload();
        repro += " scalar=" + tensors[k]->desc().str();
        break;
      }
      case K::kHost: {
        const aclDataType t = sdt[rng() % sdt.size()];
        hosts[k] = std::make_unique<Scalar>(ScalarDesc(t, random_scalar(r, t, rng)));
        repro += " " + hosts[k]->desc().str();
        break;
      }
      case K::kScalarList:
        for (size_t i = 0; i < n; ++i) {
          const aclDataType t = sdt[rng() % sdt.size()];
          scalar_lists[k].emplace_back(t, random_scalar(r, t, rng));
          repro += " " + scalar_lists[k].back().str();
        }
        break;
    }
  }
  std::vector<std::unique_ptr<Tensor>> outs;
  if (!r.inplace)
    for (size_t i = 0; i < n; ++i) {
      outs.push_back(std::make_unique<Tensor>(random_desc(rng, x, shapes[i])));
      outs.back()->fill_random(rng);
      repro += " out=" + outs.back()->desc().str();
    }
  size_t first = 0;
  while (r.ops[first] != K::kList) ++first;
  std::vector<std::unique_ptr<Tensor>>& out = r.inplace ? lists[first] : outs;
  std::vector<std::vector<uint8_t>> before;
  for (auto& t : out) before.push_back(t->host());

  // The call.
  std::vector<std::unique_ptr<TensorListHandle>> list_handles;
  std::vector<std::unique_ptr<ScalarListHandle>> scalar_handles;
  P p;
  for (size_t k = 0; k < r.ops.size(); ++k) {
    switch (r.ops[k]) {
      case K::kList:
        list_handles.push_back(std::make_unique<TensorListHandle>(lists[k]));
        p.v.push_back(list_handles.back()->l);
        break;
      case K::kTensor:
      case K::kPerElement: p.v.push_back(tensors[k]->get()); break;
      case K::kHost: p.v.push_back(hosts[k]->get()); break;
      case K::kScalarList:
        scalar_handles.push_back(std::make_unique<ScalarListHandle>(scalar_lists[k]));
        p.v.push_back(scalar_handles.back()->l);
        break;
    }
  }
  if (!r.inplace) {
    list_handles.push_back(std::make_unique<TensorListHandle>(outs));
    p.v.push_back(list_handles.back()->l);
  }
  ASSERT_EQ(run_two_phase([&](uint64_t* ws, aclOpExecutor** ex) { return r.call(p, ws, ex); }, r.p2), ACL_SUCCESS)
      << repro << " " << aclGetRecentErrMsg();

  // Compare.
  const aclDataType c = compute_of(r, x);
  for (size_t i = 0; i < n; ++i) {
    out[i]->download();
    bool ok = true;
    for_each_index(shapes[i], [&](const Shape& idx) {
      if (!ok) return;
      std::vector<Num> args;
      for (size_t k = 0; k < r.ops.size(); ++k) {
        Num v;
        switch (r.ops[k]) {
          case K::kList:
            v = (r.inplace && k == first) ? lists[k][i]->at(before[i], idx) : lists[k][i]->at(idx);
            break;
          case K::kTensor: v = load(tensors[k]->desc().dtype, tensors[k]->host().data()); break;
          case K::kPerElement:
            v = load(tensors[k]->desc().dtype, tensors[k]->host().data() + i * dtype_size(tensors[k]->desc().dtype));
            break;
          case K::kHost: v = hosts[k]->desc().value; break;
          case K::kScalarList: v = scalar_lists[k][i].value; break;
        }
        args.push_back(cast(v, c));
      }
      double mag = 0;
      const Num exact = r.ref(args, &mag);
      if (exact.is_float && mag == 0) mag = std::fabs(exact.f);
      if (exact.is_float && !(mag <= kFloatMax)) return;  // float32 intermediates overflow (or NaN): any result
      const Num want = cast(exact, x);
      const Num got = out[i]->at(idx);
      if (!close_enough(x, want, got, r.tol, mag)) {
        std::string a;
        for (const Num& v : args) a += " " + num_str(v);
        ADD_FAILURE() << repro << "\n  tensor " << i << " element " << shape_str(idx) << ": operands" << a
                      << " expected " << num_str(want) << " got " << num_str(got);
        ok = false;
      }
    });
    const std::string outside = writes_outside_view(*out[i], before[i]);
    EXPECT_TRUE(outside.empty()) << repro << ": tensor " << i << " written outside its view:" << outside;
  }
}

void run_rows(const std::vector<Row>& rows, uint64_t seed, int cases_per_dtype) {
  Rng rng(seed);
  for (const Row& r : rows)
    for (aclDataType x : r.dtypes)
      for (int it = 0; it < cases_per_dtype; ++it) {
        run_case(r, x, rng, it);
        if (::testing::Test::HasFailure()) return;
      }
}

TEST(Foreach, BinaryOpsMatchReference) { run_rows(binary_rows(), 1, 3); }
TEST(Foreach, UnaryOpsMatchReference) { run_rows(unary_rows(), 2, 3); }
TEST(Foreach, TernaryAndRoundingOpsMatchReference) { run_rows(ternary_rows(), 3, 4); }

// ---- bad inputs ---------------------------------------------------------------------------------------

std::vector<std::unique_ptr<Tensor>> make_list(const std::vector<TensorDesc>& ds) {
  std::vector<std::unique_ptr<Tensor>> r;
  for (const auto& d : ds) r.push_back(std::make_unique<Tensor>(d));
  return r;
}

TEST(Foreach, BinaryBadInputsNameTheArgument) {
  const TensorDesc a(ACL_FLOAT, {2, 3}), b(ACL_FLOAT, {4});
  auto x = make_list({a, b}), out = make_list({a, b});
  Tensor scalar(TensorDesc(ACL_FLOAT, {1}));
  TensorListHandle xl(x), outl(out);
  auto add_scalar = [&](aclTensorList* xs, aclTensor* s, aclTensorList* o) {
    return [=](uint64_t* ws, aclOpExecutor** ex) { return aclnnForeachAddScalarGetWorkspaceSize(xs, s, o, ws, ex); };
  };
  expect_phase1_error("AddScalar x=null", ACLNN_ERR_PARAM_NULLPTR, "x", add_scalar(nullptr, scalar.get(), outl.l));
  expect_phase1_error("AddScalar scalar=null", ACLNN_ERR_PARAM_NULLPTR, "scalar", add_scalar(xl.l, nullptr, outl.l));
  expect_phase1_error("AddScalar out=null", ACLNN_ERR_PARAM_NULLPTR, "out", add_scalar(xl.l, scalar.get(), nullptr));
  {
    TensorListHandle with_null(x, 1);
    expect_phase1_error("AddScalar x[1]=null", ACLNN_ERR_PARAM_NULLPTR, "x[1]",
                        add_scalar(with_null.l, scalar.get(), outl.l));
  }
  {  // lists of different lengths
    auto shorter = make_list({a});
    TensorListHandle s(shorter);
    expect_phase1_error("AddScalar out of 1 for x of 2", ACLNN_ERR_PARAM_INVALID, "out has 1 tensors",
                        add_scalar(xl.l, scalar.get(), s.l));
    auto empty = make_list({});
    TensorListHandle e(empty);
    expect_phase1_error("AddScalar empty lists", ACLNN_ERR_PARAM_INVALID, "x is an empty tensor list",
                        add_scalar(e.l, scalar.get(), e.l));
  }
  {  // mismatched shape and dtype
    auto wrong_shape = make_list({a, TensorDesc(ACL_FLOAT, {5})});
    TensorListHandle ws(wrong_shape);
    expect_phase1_error("AddScalar out[1] shape", ACLNN_ERR_PARAM_INVALID, "out[1] has shape [5]",
                        add_scalar(xl.l, scalar.get(), ws.l));
    auto wrong_dtype = make_list({a, TensorDesc(ACL_FLOAT16, {4})});
    TensorListHandle wd(wrong_dtype);
    expect_phase1_error("AddScalar x[1] dtype", ACLNN_ERR_PARAM_INVALID, "x[1] dtype float16",
                        add_scalar(wd.l, scalar.get(), outl.l));
    expect_phase1_error("AddScalar out[1] dtype", ACLNN_ERR_PARAM_INVALID, "out[1] dtype float16",
                        add_scalar(xl.l, scalar.get(), wd.l));
    auto doubles = make_list({TensorDesc(ACL_DOUBLE, {2})});
    TensorListHandle dl(doubles);
    expect_phase1_error("AddScalar x float64", ACLNN_ERR_PARAM_INVALID, "x[0] dtype float64",
                        add_scalar(dl.l, scalar.get(), dl.l));
    auto deep = make_list({TensorDesc(ACL_FLOAT, Shape(9, 1))});
    TensorListHandle dp(deep);
    expect_phase1_error("AddScalar rank 9", ACLNN_ERR_PARAM_INVALID, "x[0] has 9 dims",
                        add_scalar(dp.l, scalar.get(), dp.l));
  }
  {  // wrong scalars
    Tensor two(TensorDesc(ACL_FLOAT, {2}));
    expect_phase1_error("AddScalar scalar of 2", ACLNN_ERR_PARAM_INVALID, "scalar has 2 elements",
                        add_scalar(xl.l, two.get(), outl.l));
    Tensor half(TensorDesc(ACL_FLOAT16, {1}));
    expect_phase1_error("AddScalar float16 scalar for float32 x", ACLNN_ERR_PARAM_INVALID, "scalar dtype float16",
                        add_scalar(xl.l, half.get(), outl.l));
    ScalarListHandle one({ScalarDesc(ACL_FLOAT, 1.0)});
    expect_phase1_error("AddScalarList 1 value for 2 tensors", ACLNN_ERR_PARAM_INVALID, "scalars has 1 values",
                        [&](uint64_t* ws, aclOpExecutor** ex) {
                          return aclnnForeachAddScalarListGetWorkspaceSize(xl.l, one.l, outl.l, ws, ex);
                        });
    ScalarListHandle ints({ScalarDesc(ACL_FLOAT, 1.0), ScalarDesc(ACL_INT64, 1.0)});
    expect_phase1_error("AddScalarList int64 value for float32 x", ACLNN_ERR_PARAM_INVALID, "scalars[1] dtype int64",
                        [&](uint64_t* ws, aclOpExecutor** ex) {
                          return aclnnForeachAddScalarListGetWorkspaceSize(xl.l, ints.l, outl.l, ws, ex);
                        });
  }
  {  // a second list
    auto x2 = make_list({a, TensorDesc(ACL_FLOAT, {3})});
    TensorListHandle x2l(x2);
    expect_phase1_error("MulList x2[1] shape", ACLNN_ERR_PARAM_INVALID, "x2[1] has shape [3], expected the shape [4]",
                        [&](uint64_t* ws, aclOpExecutor** ex) {
                          return aclnnForeachMulListGetWorkspaceSize(xl.l, x2l.l, outl.l, ws, ex);
                        });
    auto x3 = make_list({a});
    TensorListHandle x3l(x3);
    expect_phase1_error("MulListInplace x2 of 1", ACLNN_ERR_PARAM_INVALID, "x2 has 1 tensors, expected 2",
                        [&](uint64_t* ws, aclOpExecutor** ex) {
                          return aclnnForeachMulListInplaceGetWorkspaceSize(xl.l, x3l.l, ws, ex);
                        });
    expect_phase1_error("DivList x2=null", ACLNN_ERR_PARAM_NULLPTR, "x2", [&](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnForeachDivListGetWorkspaceSize(xl.l, nullptr, outl.l, ws, ex);
    });
  }
}

TEST(Foreach, UnaryBadInputsNameTheArgument) {
  auto ints = make_list({TensorDesc(ACL_INT32, {2})});
  auto floats = make_list({TensorDesc(ACL_FLOAT, {2}), TensorDesc(ACL_FLOAT, {3})});
  auto halves = make_list({TensorDesc(ACL_FLOAT16, {2}), TensorDesc(ACL_FLOAT16, {3})});
  TensorListHandle il(ints), fl(floats), hl(halves);
  expect_phase1_error("Abs x int32", ACLNN_ERR_PARAM_INVALID, "x[0] dtype int32",
                      [&](uint64_t* ws, aclOpExecutor** ex) {
                        return aclnnForeachAbsGetWorkspaceSize(il.l, il.l, ws, ex);
                      });
  expect_phase1_error("Exp out float16 for float32 x", ACLNN_ERR_PARAM_INVALID, "out[0] dtype float16",
                      [&](uint64_t* ws, aclOpExecutor** ex) {
                        return aclnnForeachExpGetWorkspaceSize(fl.l, hl.l, ws, ex);
                      });
  expect_phase1_error("ACosInplace x=null", ACLNN_ERR_PARAM_NULLPTR, "x", [&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnForeachACosInplaceGetWorkspaceSize(nullptr, ws, ex);
  });
  expect_phase1_error("Sqrt out=null", ACLNN_ERR_PARAM_NULLPTR, "out", [&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnForeachSqrtGetWorkspaceSize(fl.l, nullptr, ws, ex);
  });
  TensorListHandle with_null(floats, 0);
  expect_phase1_error("Sigmoid out[0]=null", ACLNN_ERR_PARAM_NULLPTR, "out[0]", [&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnForeachSigmoidGetWorkspaceSize(fl.l, with_null.l, ws, ex);
  });
}

// ---- Copy, ZeroInplace, Norm, NonFiniteCheckAndUnscale ------------------------------------------------------

// Random bytes in every storage element (Copy moves elements of dtypes with no host arithmetic here).
void fill_bytes(Tensor& t, Rng& rng) {
  for (auto& b : t.host()) b = static_cast<uint8_t>(rng());
  if (t.desc().dtype == ACL_BOOL)
    for (auto& b : t.host()) b &= 1;
  t.upload();
}

TEST(Foreach, CopyEveryDtypeAndConversion) {
  Rng rng(21);
  const std::vector<std::pair<aclDataType, aclDataType>> pairs = {
      {ACL_FLOAT, ACL_FLOAT},   {ACL_FLOAT16, ACL_FLOAT16}, {ACL_BF16, ACL_BF16},     {ACL_INT8, ACL_INT8},
      {ACL_UINT8, ACL_UINT8},   {ACL_INT16, ACL_INT16},     {ACL_UINT16, ACL_UINT16}, {ACL_INT32, ACL_INT32},
      {ACL_UINT32, ACL_UINT32}, {ACL_INT64, ACL_INT64},     {ACL_DOUBLE, ACL_DOUBLE}, {ACL_BOOL, ACL_BOOL},
      {ACL_FLOAT, ACL_FLOAT16}, {ACL_FLOAT, ACL_BF16},      {ACL_FLOAT16, ACL_FLOAT}};
  for (const auto& [xt, ot] : pairs)
    for (int iter = 0; iter < 4; ++iter) {
      const size_t n = 1 + rng() % 4;
      std::vector<std::unique_ptr<Tensor>> x, out;
      std::string repro = std::string("ForeachCopy ") + dtype_name(xt) + " -> " + dtype_name(ot) + ":";
      for (size_t i = 0; i < n; ++i) {
        const Shape s = random_shape(rng);
        x.push_back(std::make_unique<Tensor>(random_desc(rng, xt, s)));
        out.push_back(std::make_unique<Tensor>(random_desc(rng, ot, s)));
        if (xt == ot) fill_bytes(*x.back(), rng);
        else x.back()->fill_random(rng);
        fill_bytes(*out.back(), rng);
        repro += " " + x.back()->desc().str() + " -> " + out.back()->desc().str();
      }
      std::vector<std::vector<uint8_t>> before;
      for (auto& t : out) before.push_back(t->host());
      TensorListHandle xl(x), ol(out);
      ASSERT_EQ(run_two_phase([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnForeachCopyGetWorkspaceSize(xl.l, ol.l, ws, ex);
                },
                              aclnnForeachCopy),
                ACL_SUCCESS)
          << repro << " " << aclGetRecentErrMsg();
      for (size_t i = 0; i < n; ++i) {
        out[i]->download();
        const size_t xs = dtype_size(xt), os = dtype_size(ot);
        for_each_index(x[i]->desc().shape, [&](const Shape& idx) {
          const uint8_t* src = x[i]->host().data() + x[i]->desc().storage_index(idx) * xs;
          const uint8_t* dst = out[i]->host().data() + out[i]->desc().storage_index(idx) * os;
          if (xt == ot) {
            EXPECT_EQ(std::memcmp(src, dst, xs), 0) << repro << " tensor " << i << " " << shape_str(idx);
          } else {
            const Num want = cast(load(xt, src), ot), got = load(ot, dst);
            EXPECT_TRUE(same_value(ot, want, got)) << repro << " tensor " << i << " " << shape_str(idx) << " expected "
                                                   << num_str(want) << " got " << num_str(got);
          }
        });
        EXPECT_TRUE(writes_outside_view(*out[i], before[i]).empty()) << repro << " tensor " << i;
      }
      if (HasFailure()) return;
    }
}

TEST(Foreach, ZeroInplaceEveryDtype) {
  Rng rng(22);
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT16, ACL_INT32})
    for (int iter = 0; iter < 4; ++iter) {
      std::vector<std::unique_ptr<Tensor>> x;
      std::string repro = std::string("ForeachZeroInplace ") + dtype_name(t) + ":";
      for (size_t i = 0, n = 1 + rng() % 5; i < n; ++i) {
        x.push_back(std::make_unique<Tensor>(random_desc(rng, t, random_shape(rng))));
        x.back()->fill_random(rng);
        repro += " " + x.back()->desc().str();
      }
      std::vector<std::vector<uint8_t>> before;
      for (auto& e : x) before.push_back(e->host());
      TensorListHandle xl(x);
      ASSERT_EQ(run_two_phase([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnForeachZeroInplaceGetWorkspaceSize(xl.l, ws, ex);
                },
                              aclnnForeachZeroInplace),
                ACL_SUCCESS)
          << repro << " " << aclGetRecentErrMsg();
      for (size_t i = 0; i < x.size(); ++i) {
        x[i]->download();
        for_each_index(x[i]->desc().shape, [&](const Shape& idx) {
          EXPECT_TRUE(same_value(t, is_floating(t) ? Num::real(0.0) : Num::integer(0), x[i]->at(idx)))
              << repro << " tensor " << i << " " << shape_str(idx) << " got " << num_str(x[i]->at(idx));
        });
        EXPECT_TRUE(writes_outside_view(*x[i], before[i]).empty()) << repro << " tensor " << i;
      }
      if (HasFailure()) return;
    }
}

// (sum |v|^p)^(1/p) in double; p = inf: max |v|, -inf: min |v|, 0: the count of non-zeros; empty: 0.
// *sum receives the largest float32 intermediate (the sum of |v|^p).
double ref_norm(const std::vector<double>& v, double p, double* sum) {
  *sum = 0;
  if (v.empty()) return 0;
  bool nan = false;
  for (double x : v) nan = nan || std::isnan(x);
  if (std::isinf(p)) {
    if (nan) return NAN;
    double r = std::fabs(v[0]);
    for (double x : v) r = p > 0 ? std::max(r, std::fabs(x)) : std::min(r, std::fabs(x));
    return r;
  }
  double s = 0;
  for (double x : v) s += p == 0 ? (x != 0 || std::isnan(x) ? 1.0 : 0.0) : std::pow(std::fabs(x), p);
  *sum = s;
  return p == 0 ? s : std::pow(s, 1 / p);
}

TEST(Foreach, NormMatchesReference) {
  Rng rng(23);
  const std::vector<ScalarDesc> ps = {ScalarDesc(ACL_FLOAT, 2.0),  ScalarDesc(ACL_DOUBLE, 1.0),
                                      ScalarDesc(ACL_INT64, 2.0),  ScalarDesc(ACL_INT64, 1.0),
                                      ScalarDesc(ACL_FLOAT, 3.0),  ScalarDesc(ACL_DOUBLE, 0.5),
                                      ScalarDesc(ACL_INT64, 0.0),  ScalarDesc(ACL_FLOAT, HUGE_VAL),
                                      ScalarDesc(ACL_FLOAT, -HUGE_VAL)};
  for (aclDataType t : kF3)
    for (const ScalarDesc& pd : ps)
      for (int iter = 0; iter < 3; ++iter) {
        const size_t n = 1 + rng() % 5;
        std::vector<std::unique_ptr<Tensor>> x, out;
        std::string repro = std::string("ForeachNorm p=") + pd.str() + ":";
        for (size_t i = 0; i < n; ++i) {
          x.push_back(std::make_unique<Tensor>(random_desc(rng, t, random_shape(rng))));
          FillOptions o;
          o.special = iter == 0 ? 0.1 : 0.0;
          x.back()->fill_random(rng, o);
          out.push_back(std::make_unique<Tensor>(TensorDesc(t, rng() % 2 ? Shape{1} : Shape{1, 1})));
          repro += " " + x.back()->desc().str();
        }
        Scalar p(pd);
        TensorListHandle xl(x), ol(out);
        ASSERT_EQ(run_two_phase([&](uint64_t* ws, aclOpExecutor** ex) {
                    return aclnnForeachNormGetWorkspaceSize(xl.l, p.get(), ol.l, ws, ex);
                  },
                                aclnnForeachNorm),
                  ACL_SUCCESS)
            << repro << " " << aclGetRecentErrMsg();
        for (size_t i = 0; i < n; ++i) {
          std::vector<double> v;
          for_each_index(x[i]->desc().shape, [&](const Shape& idx) { v.push_back(x[i]->at(idx).f); });
          double sum = 0;
          const double want = ref_norm(v, pd.value.as_double(), &sum);
          if (!(sum <= kFloatMax)) continue;  // the float32 sum overflows
          out[i]->download();
          const Num got = out[i]->at(Shape(out[i]->desc().shape.size(), 0));
          // float32 sums of up to 48 terms: a few float32 epsilons of the result.
          EXPECT_TRUE(close_enough(t, cast(Num::real(want), t), got, Tol{2, 64, 0}, std::fabs(want)))
              << repro << " tensor " << i << " expected " << want << " got " << num_str(got);
        }
        if (HasFailure()) return;
      }
}

TEST(Foreach, NonFiniteCheckAndUnscale) {
  Rng rng(24);
  for (aclDataType t : kF3)
    for (int iter = 0; iter < 6; ++iter) {
      const size_t n = 1 + rng() % 4;
      std::vector<std::unique_ptr<Tensor>> g;
      std::string repro = std::string("ForeachNonFiniteCheckAndUnscale ") + dtype_name(t) + " iter " +
                          std::to_string(iter) + ":";
      bool any = false;
      for (size_t i = 0; i < n; ++i) {
        Shape s = random_shape(rng);
        g.push_back(std::make_unique<Tensor>(random_desc(rng, t, s)));
        FillOptions o;
        o.special = 0;
        g.back()->fill_random(rng, o);
        if (iter % 2 == 1 && numel(s) > 0 && rng() % 2) {  // an inf or NaN somewhere
          Shape idx(s.size());
          for (size_t d = 0; d < s.size(); ++d) idx[d] = static_cast<int64_t>(rng() % static_cast<uint64_t>(s[d]));
          g.back()->set(idx, Num::real(rng() % 2 ? HUGE_VAL : NAN));
          g.back()->upload();
          any = true;
        }
        repro += " " + g.back()->desc().str();
      }
      Tensor found(TensorDesc(ACL_FLOAT, {1})), inv(TensorDesc(ACL_FLOAT, {1}));
      found.fill(Num::real(-1.0));
      const double inv_value = static_cast<float>(0.25 + (rng() % 100) / 7.0);
      inv.fill(Num::real(inv_value));
      std::vector<std::vector<uint8_t>> before;
      for (auto& e : g) before.push_back(e->host());
      TensorListHandle gl(g);
      ASSERT_EQ(run_two_phase([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(gl.l, found.get(), inv.get(), ws, ex);
                },
                              aclnnForeachNonFiniteCheckAndUnscale),
                ACL_SUCCESS)
          << repro << " " << aclGetRecentErrMsg();
      for (size_t i = 0; i < n; ++i)  // random float16 values may be inf too
        for_each_index(g[i]->desc().shape,
                       [&](const Shape& idx) { any = any || !std::isfinite(g[i]->at(before[i], idx).f); });
      found.download();
      EXPECT_EQ(found.at({0}).f, any ? 1.0 : -1.0) << repro;
      for (size_t i = 0; i < n; ++i) {
        g[i]->download();
        for_each_index(g[i]->desc().shape, [&](const Shape& idx) {
          const double v = g[i]->at(before[i], idx).f;
          const Num want = cast(Num::real(v * inv_value), t);
          EXPECT_TRUE(close_enough(t, want, g[i]->at(idx), kRounded, std::fabs(v * inv_value)))
              << repro << " tensor " << i << " " << shape_str(idx) << " expected " << num_str(want) << " got "
              << num_str(g[i]->at(idx));
        });
        EXPECT_TRUE(writes_outside_view(*g[i], before[i]).empty()) << repro << " tensor " << i;
      }
      if (HasFailure()) return;
    }
}

TEST(Foreach, OtherBadInputsNameTheArgument) {
  const TensorDesc a(ACL_FLOAT, {2, 3}), b(ACL_FLOAT, {4});
  auto x = make_list({a, b}), out = make_list({a, b});
  TensorListHandle xl(x), ol(out);
  Tensor three(TensorDesc(ACL_FLOAT, {3})), one(TensorDesc(ACL_FLOAT, {1})), one_half(TensorDesc(ACL_FLOAT16, {1}));
  expect_phase1_error("AddcdivScalarList scalars of 3 for 2 tensors", ACLNN_ERR_PARAM_INVALID,
                      "scalars has 3 elements", [&](uint64_t* ws, aclOpExecutor** ex) {
                        return aclnnForeachAddcdivScalarListGetWorkspaceSize(xl.l, xl.l, xl.l, three.get(), ol.l, ws,
                                                                             ex);
                      });
  expect_phase1_error("AddcmulScalar x3=null", ACLNN_ERR_PARAM_NULLPTR, "x3", [&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnForeachAddcmulScalarGetWorkspaceSize(xl.l, xl.l, nullptr, one.get(), ol.l, ws, ex);
  });
  auto short_list = make_list({a});
  TensorListHandle sl(short_list);
  expect_phase1_error("AddcmulScalarV2 x3 of 1", ACLNN_ERR_PARAM_INVALID, "x3 has 1 tensors",
                      [&](uint64_t* ws, aclOpExecutor** ex) {
                        Scalar s(ScalarDesc(ACL_FLOAT, 1.0));
                        return aclnnForeachAddcmulScalarV2GetWorkspaceSize(xl.l, xl.l, sl.l, s.get(), ol.l, ws, ex);
                      });
  expect_phase1_error("LerpScalar int32 weight", ACLNN_ERR_PARAM_INVALID, "weight dtype int32",
                      [&](uint64_t* ws, aclOpExecutor** ex) {
                        Scalar w(ScalarDesc(ACL_INT32, 1.0));
                        return aclnnForeachLerpScalarGetWorkspaceSize(xl.l, xl.l, w.get(), ol.l, ws, ex);
                      });
  expect_phase1_error("RoundOffNumber float roundMode", ACLNN_ERR_PARAM_INVALID, "roundMode dtype float32",
                      [&](uint64_t* ws, aclOpExecutor** ex) {
                        return aclnnForeachRoundOffNumberGetWorkspaceSize(xl.l, one.get(), ol.l, ws, ex);
                      });
  auto to_int = make_list({TensorDesc(ACL_INT32, {2, 3}), TensorDesc(ACL_INT32, {4})});
  TensorListHandle il(to_int);
  expect_phase1_error("Copy float32 -> int32", ACLNN_ERR_PARAM_INVALID, "out[0] dtype int32",
                      [&](uint64_t* ws, aclOpExecutor** ex) {
                        return aclnnForeachCopyGetWorkspaceSize(xl.l, il.l, ws, ex);
                      });
  expect_phase1_error("Norm out[0] of 6 elements", ACLNN_ERR_PARAM_INVALID, "out[0] has 6 elements",
                      [&](uint64_t* ws, aclOpExecutor** ex) {
                        Scalar p(ScalarDesc(ACL_FLOAT, 2.0));
                        return aclnnForeachNormGetWorkspaceSize(xl.l, p.get(), ol.l, ws, ex);
                      });
  expect_phase1_error("Norm scalar=null", ACLNN_ERR_PARAM_NULLPTR, "scalar", [&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnForeachNormGetWorkspaceSize(xl.l, nullptr, ol.l, ws, ex);
  });
  expect_phase1_error("ZeroInplace x float64", ACLNN_ERR_PARAM_INVALID, "x[0] dtype float64",
                      [&](uint64_t* ws, aclOpExecutor** ex) {
                        auto d = make_list({TensorDesc(ACL_DOUBLE, {2})});
                        TensorListHandle dl(d);
                        return aclnnForeachZeroInplaceGetWorkspaceSize(dl.l, ws, ex);
                      });
  expect_phase1_error("NonFiniteCheckAndUnscale float16 foundInf", ACLNN_ERR_PARAM_INVALID, "foundInf dtype float16",
                      [&](uint64_t* ws, aclOpExecutor** ex) {
                        return aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(xl.l, one_half.get(), one.get(),
                                                                                     ws, ex);
                      });
  expect_phase1_error("NonFiniteCheckAndUnscale invScale of 3", ACLNN_ERR_PARAM_INVALID, "invScale has 3 elements",
                      [&](uint64_t* ws, aclOpExecutor** ex) {
                        return aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(xl.l, one.get(), three.get(), ws,
                                                                                     ex);
                      });
}

// ---- the scalar tensor is read when the op runs -----------------------------------------------------------

TEST(Foreach, ScalarTensorIsReadAtRunTime) {
  auto x = make_list({TensorDesc(ACL_FLOAT, {3}), TensorDesc(ACL_FLOAT, {2, 2})});
  auto out = make_list({TensorDesc(ACL_FLOAT, {3}), TensorDesc(ACL_FLOAT, {2, 2})});
  for (auto& t : x) t->fill(Num::real(1.5));
  Tensor scalar(TensorDesc(ACL_FLOAT, {1}));
  scalar.fill(Num::real(2.0));
  TensorListHandle xl(x), outl(out);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnForeachMulScalarGetWorkspaceSize(xl.l, scalar.get(), outl.l, &ws, &ex), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  scalar.fill(Num::real(-3.0));  // after phase 1
  ASSERT_EQ(ws, 0u);
  ASSERT_EQ(aclnnForeachMulScalar(nullptr, 0, ex, stream()), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream()), ACL_SUCCESS);
  for (auto& t : out) {
    t->download();
    for_each_index(t->desc().shape, [&](const Shape& i) { EXPECT_EQ(t->at(i).f, -4.5); });
  }
}

// Strided and float16 tensors need conversion buffers; the workspace phase 1 books covers every
// tensor of the list (the steps run one after another and share it).
TEST(Foreach, WorkspaceCoversEveryStep) {
  auto x = make_list({TensorDesc(ACL_FLOAT16, {2, 700}, {1400, 2}), TensorDesc(ACL_FLOAT16, {3}),
                      TensorDesc(ACL_FLOAT16, {5000})});
  auto out = make_list({TensorDesc(ACL_FLOAT16, {2, 700}), TensorDesc(ACL_FLOAT16, {3}, {2}),
                        TensorDesc(ACL_FLOAT16, {5000})});
  Rng rng(5);
  for (auto& t : x) t->fill_random(rng);
  Tensor alpha(TensorDesc(ACL_FLOAT16, {1}));
  alpha.fill(Num::real(0.5));
  TensorListHandle xl(x), outl(out);
  uint64_t ws = 0;
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnForeachAddListGetWorkspaceSize(xl.l, xl.l, alpha.get(), outl.l, w, e);
            },
                          aclnnForeachAddList, &ws),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_GT(ws, 0u);
  for (size_t i = 0; i < x.size(); ++i) {
    out[i]->download();
    for_each_index(x[i]->desc().shape, [&](const Shape& idx) {
      const double v = x[i]->at(idx).f;
      EXPECT_TRUE(close_enough(ACL_FLOAT16, cast(Num::real(v + 0.5 * v), ACL_FLOAT16), out[i]->at(idx), kRounded,
                               1.5 * std::fabs(v)))
          << "tensor " << i << " " << shape_str(idx) << " x=" << v << " got " << num_str(out[i]->at(idx));
    });
  }
}

}  // namespace
