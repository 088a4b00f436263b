// Tests of the activation ops (forward and backward) through the public aclnn API.
//
// Reference: each formula of the CANN doc, evaluated in double from the stored input values (integer
// inputs of float-computing ops first rounded to float32, as the op's contract says), then rounded
// to the output dtype. Identities replace the literal formula where the literal one cancels
// catastrophically in double too (1 + tanh(u) = 2 sigmoid(2u), 1 + erf(z) = erfc(-z),
// log sigmoid(x) = min(x, 0) - log1p(e^-|x|), 1 - sigmoid(x) = sigmoid(-x)).
//
// Tolerance. Selections and clamps (Relu, Hardtanh, Threshold, Hardshrink, ThresholdBackward...)
// must match exactly, sign of zero included. Computed results are held to the standard mixed
// error bound of a stable float kernel: the result must lie in f([x(1-d), x(1+d)]) widened by a
// relative r, with d = kd * eps and r = kr * eps of the compute type (float32 for 16-bit and
// float32 tensors, float64 for float64), plus an absolute 4 * denorm_min(compute) * max(1,|x|) *
// max(1,|g|) for intermediates that underflow into the compute type's subnormals. Rounding to the
// output dtype is monotone, so the bound carries over to 16-bit and integer outputs exactly.
// kd and kr are per op: 0-2 for one or two roundings, 4-16 for compositions of libm functions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_celu.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_backward.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_hardshrink.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_hardswish_backward.h"
#include "aclnnop/aclnn_hardtanh.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_leaky_relu_backward.h"
#include "aclnnop/aclnn_logsigmoid.h"
#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_selu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_sigmoid_backward.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_silu_backward.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_softshrink.h"
#include "aclnnop/aclnn_swish.h"
#include "aclnnop/aclnn_tanh.h"
#include "aclnnop/aclnn_tanh_backward.h"
#include "aclnnop/aclnn_threshold.h"
#include "aclnnop/aclnn_threshold_backward.h"
#include "op_test_util.h"

namespace {

using namespace optest;

constexpr aclDataType F32 = ACL_FLOAT, F16 = ACL_FLOAT16, BF16 = ACL_BF16, F64 = ACL_DOUBLE;
constexpr aclDataType I8 = ACL_INT8, I16 = ACL_INT16, I32 = ACL_INT32, I64 = ACL_INT64, U8 = ACL_UINT8,
                      BOOL = ACL_BOOL;
using DTypes = std::vector<aclDataType>;
const DTypes kF3 = {F32, F16, BF16};
const DTypes kF4 = {F32, F16, BF16, F64};

using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);
using Phase1 = std::function<aclnnStatus(uint64_t*, aclOpExecutor**)>;

// Runs phase 1 (expected to succeed), phase 2 with a fresh workspace, and waits.
void run_op(const std::string& repro, const Phase1& p1, Phase2 p2) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const aclnnStatus st = p1(&ws, &ex);
  ASSERT_EQ(st, ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
  void* w = nullptr;
  if (ws > 0) {
    ASSERT_EQ(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  EXPECT_EQ(p2(w, ws, ex, stream()), ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
  EXPECT_EQ(aclrtSynchronizeStream(stream()), ACL_SUCCESS) << repro;
  if (w) aclrtFree(w);
}

// Expects phase 1 to fail with `code` and a message containing `needle`.
void expect_error(const std::string& repro, const Phase1& p1, aclnnStatus code, const std::string& needle) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const aclnnStatus st = p1(&ws, &ex);
  EXPECT_EQ(st, code) << repro;
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg.find(needle), std::string::npos) << repro << ": message '" << msg << "' does not name '" << needle
                                                 << "'";
  if (st == ACL_SUCCESS && ex) aclDestroyAclOpExecutor(ex);
}

// ---- the reference's error model --------------------------------------------------------------------

bool float_compute(aclDataType t) { return t != F64; }  // 16-bit, float32 and integer inputs
double eps_of(bool f32) { return f32 ? std::ldexp(1.0, -23) : std::ldexp(1.0, -52); }
double denorm_of(bool f32) {
  return f32 ? static_cast<double>(std::numeric_limits<float>::denorm_min()) : std::numeric_limits<double>::denorm_min();
}

struct Tol {
  int kd = 0, kr = 0;  // both 0: exact
  bool exact() const { return kd == 0 && kr == 0; }
};

// The accepted values of one element, in double, before rounding to the output dtype.
struct Interval {
  bool nan = false;
  bool maybe_nan = false;  // an infinite gradient times a factor that may underflow to 0
  double lo = 0, hi = 0;
};

// f over [x(1-d), x(1+d)] (endpoints and midpoint) times g, widened as described at the top.
Interval make_interval(const std::function<double(double)>& f, double x, double g, bool zero_select, Tol tol,
                       bool f32) {
  Interval iv;
  if (zero_select) return iv;  // exactly 0, whatever g is
  const double e = f(x) * g;
  if (std::isnan(e)) {
    iv.nan = true;
    return iv;
  }
  iv.lo = iv.hi = e;
  if (tol.exact()) return iv;
  const double eps = eps_of(f32), d = tol.kd * eps;
  for (double xs : {x * (1 - d), x * (1 + d)}) {
    const double v = f(xs) * g;
    if (std::isnan(v)) continue;
    iv.lo = std::min(iv.lo, v);
    iv.hi = std::max(iv.hi, v);
  }
  // Where |f(x)| < 2^-100 a float32 evaluation goes through subnormal intermediates (e^-101 in
  // Gelu's tail) that keep only a few bits; there the relative slack is 1/8.
  const double rel = f32 && std::fabs(f(x)) < std::ldexp(1.0, -100) ? 0.125 : tol.kr * eps;
  const double w = rel * std::max(std::fabs(iv.lo), std::fabs(iv.hi)) +
                   4 * denorm_of(f32) * std::max(1.0, std::fabs(x)) * std::max(1.0, std::fabs(g));
  if (std::isfinite(iv.lo)) iv.lo -= w;
  if (std::isfinite(iv.hi)) iv.hi += w;
  if (std::isinf(g) && std::fabs(f(x)) < 4 * static_cast<double>(std::numeric_limits<float>::min()) && f32)
    iv.maybe_nan = true;
  return iv;
}

// Whether `actual` (of dtype t) lies in the interval rounded to t. Out-of-range integer results
// are left open (the float -> integer conversion is undefined there).
bool accepts(aclDataType t, const Interval& iv, const Num& actual, bool exact, std::string* want) {
  if (iv.nan) {
    *want = "nan";
    return is_floating(t) ? std::isnan(actual.f) : true;
  }
  const Num lo = cast(Num::real(iv.lo), t), hi = cast(Num::real(iv.hi), t);
  *want = lo.undefined ? "undefined" : (num_str(lo) + (iv.lo == iv.hi ? "" : " .. " + num_str(hi)));
  if (lo.undefined || hi.undefined) return true;
  if (!is_floating(t)) return actual.i >= lo.i && actual.i <= hi.i;
  if (std::isnan(actual.f)) return iv.maybe_nan;
  if (!(actual.f >= lo.f && actual.f <= hi.f)) return iv.maybe_nan && std::isinf(actual.f);
  if (exact && lo.f == 0 && hi.f == 0) return std::signbit(actual.f) == std::signbit(lo.f);
  return true;
}

// ---- unary ops ------------------------------------------------------------------------------------

enum class OutRule { kSame, kCast, kAny };

// PyTorch's can_cast over the compute dtypes.
bool can_cast_to(aclDataType from, aclDataType to) {
  if (is_floating(from) && !is_floating(to)) return false;
  if (from != BOOL && to == BOOL) return false;
  return true;
}

struct Attr {
  const char* name;
  ScalarDesc value;
  bool in_self_dtype = false;  // rounded to self's dtype (else: a float32 attribute)
};

struct UnaryOp {
  std::string name;
  DTypes self;
  DTypes out;
  OutRule rule;
  bool fcompute = false;  // integer inputs compute in float32
  Tol tol;
  std::vector<Attr> attrs;
  // f(x, attribute values as the op sees them)
  std::function<double(double, const std::vector<double>&)> ref;
  std::function<aclnnStatus(aclTensor*, const std::vector<aclScalar*>&, aclTensor*, uint64_t*, aclOpExecutor**)> p1;
  Phase2 p2;
  std::function<aclnnStatus(aclTensor*, const std::vector<aclScalar*>&, uint64_t*, aclOpExecutor**)> p1_inplace{};
  Phase2 p2_inplace = nullptr;
  DTypes inplace{};  // selfRef dtypes (in-place form only)
  bool rank_limit = true;
  bool trunc_int = false;  // integer self: the result truncates (computed in self's dtype)
};

// The dtype an op computes in for self dtype t.
aclDataType compute_of(const UnaryOp& op, aclDataType t) { return op.fcompute && !is_floating(t) ? F32 : t; }

bool out_valid(const UnaryOp& op, aclDataType self, aclDataType out) {
  if (std::find(op.out.begin(), op.out.end(), out) == op.out.end()) return false;
  switch (op.rule) {
    case OutRule::kSame: return out == self;
    case OutRule::kCast: return can_cast_to(compute_of(op, self), out);
    case OutRule::kAny: return true;
  }
  return false;
}

std::vector<double> attr_values(const UnaryOp& op, const std::vector<Attr>& attrs, aclDataType self) {
  std::vector<double> v;
  for (const Attr& a : attrs) {
    const Num n = a.value.value;
    if (a.in_self_dtype) v.push_back(cast(n, compute_of(op, self)).as_double());
    else v.push_back(cast(n, F32).as_double());
  }
  return v;
}

bool attrs_representable(const UnaryOp& op, const std::vector<Attr>& attrs, aclDataType self) {
  for (const Attr& a : attrs)
    if (a.in_self_dtype && cast(a.value.value, compute_of(op, self)).undefined) return false;
  return true;
}

// GeluV2 names its tensors x and y.
const char* self_name(const UnaryOp& op) { return op.name.rfind("GeluV2", 0) == 0 ? "x" : "self"; }
const char* out_name(const UnaryOp& op) { return op.name.rfind("GeluV2", 0) == 0 ? "y" : "out"; }

std::string attrs_str(const std::vector<Attr>& attrs) {
  std::string s;
  for (const Attr& a : attrs) s += std::string(" ") + a.name + "=" + a.value.str();
  return s;
}

// One run of a unary op: self (and out unless in place) described by descriptors, random values.
void check_unary(const UnaryOp& op, const std::vector<Attr>& attrs, const TensorDesc& sd, const TensorDesc* od,
                 uint64_t seed) {
  const bool inplace = od == nullptr;
  std::string repro = (inplace ? "Inplace" : "") + op.name + " self=" + sd.str() +
                      (inplace ? "" : " out=" + od->str()) + attrs_str(attrs) + " seed=" + std::to_string(seed);
  SCOPED_TRACE(repro);
  Rng rng(seed);
  Tensor self(sd);
  self.fill_random(rng);
  const std::vector<uint8_t> input = self.host();
  std::unique_ptr<Tensor> out;
  if (!inplace) {
    out = std::make_unique<Tensor>(*od);
    out->fill_random(rng);
  }
  Tensor& res = inplace ? self : *out;
  const std::vector<uint8_t> res_before = res.host();
  std::vector<std::unique_ptr<Scalar>> scalars;
  std::vector<aclScalar*> sp;
  for (const Attr& a : attrs) {
    scalars.push_back(std::make_unique<Scalar>(a.value));
    sp.push_back(scalars.back()->get());
  }
  if (inplace)
    run_op(repro, [&](uint64_t* w, aclOpExecutor** e) { return op.p1_inplace(self.get(), sp, w, e); }, op.p2_inplace);
  else
    run_op(repro, [&](uint64_t* w, aclOpExecutor** e) { return op.p1(self.get(), sp, out->get(), w, e); }, op.p2);
  res.download();
  const std::string outside = writes_outside_view(res, res_before);
  EXPECT_TRUE(outside.empty()) << repro << ": wrote outside the output view:" << outside;
  const std::vector<double> av = attr_values(op, attrs, sd.dtype);
  const aclDataType compute = compute_of(op, sd.dtype);
  const bool f32 = float_compute(compute);
  int failures = 0;
  for_each_index(sd.shape, [&](const Shape& idx) {
    const Num x = cast(self.at(input, idx), compute);
    auto f = [&](double v) {
      double r = op.ref(v, av);
      if (op.trunc_int && !is_floating(sd.dtype)) r = std::trunc(r);
      return r;
    };
    const Num got = res.at(idx);
    std::string want;
    // Integer-computing ops here select either x itself or an attribute value; when the reference
    // selects x it is compared exactly (int64 values need more than double's 53 bits).
    if (!is_floating(compute) && op.tol.exact() && f(x.as_double()) == x.as_double()) {
      const Num w = cast(x, res.desc().dtype);
      want = num_str(w);
      const bool ok = is_floating(res.desc().dtype) ? got.f == w.f : got.i == w.i;
      if (!ok && failures++ < 5)
        ADD_FAILURE() << repro << " at " << shape_str(idx) << ": x=" << num_str(self.at(input, idx)) << " got "
                      << num_str(got) << " want " << want;
      return;
    }
    const Interval iv = make_interval(f, x.as_double(), 1.0, false, op.tol, f32);
    if (!accepts(res.desc().dtype, iv, got, op.tol.exact(), &want) && failures++ < 5)
      ADD_FAILURE() << repro << " at " << shape_str(idx) << ": x=" << num_str(self.at(input, idx)) << " got "
                    << num_str(got) << " want " << want;
  });
}

// The layouts every dtype runs with: contiguous, transposed, offset with gaps, 0-d, empty, a
// 4-d view with a size-1 dim.
struct Layout {
  TensorDesc self, out;
};
std::vector<Layout> layouts(aclDataType s, aclDataType o) {
  return {
      {TensorDesc(s, {67}), TensorDesc(o, {67})},
      {TensorDesc(s, {5, 7}, {1, 5}), TensorDesc(o, {5, 7})},
      {TensorDesc(s, {4, 6}, {7, 1}, 3), TensorDesc(o, {4, 6}, {13, 2}, 1)},
      {TensorDesc(s, {}), TensorDesc(o, {})},
      {TensorDesc(s, {0, 3}), TensorDesc(o, {0, 3})},
      {TensorDesc(s, {2, 1, 3, 5}), TensorDesc(o, {2, 1, 3, 5}, {15, 15, 1, 3})},
  };
}

// An attribute set per op for the value runs (the first is the one also used by the error tests).
std::vector<std::vector<Attr>> attr_sets(const UnaryOp& op) {
  std::vector<std::vector<Attr>> sets = {op.attrs};
  if (op.name == "LeakyRelu") {
    sets.push_back({{"negativeSlope", ScalarDesc(F64, 0.3)}});
    sets.push_back({{"negativeSlope", ScalarDesc(I64, 2)}});
  } else if (op.name == "Elu") {
    sets.push_back({{"alpha", ScalarDesc(F32, 0.5)}, {"scale", ScalarDesc(F64, 2.0)}, {"inputScale", ScalarDesc(I32, 3)}});
  } else if (op.name == "Celu") {
    sets.push_back({{"alpha", ScalarDesc(F32, -0.75)}});
  } else if (op.name == "Softplus") {
    sets.push_back({{"beta", ScalarDesc(F32, 0.5)}, {"threshold", ScalarDesc(I64, 5)}});
  } else if (op.name == "Hardtanh") {
    sets.push_back({{"clipValueMin", ScalarDesc(I32, -2), true}, {"clipValueMax", ScalarDesc(F64, 5.5), true}});
    sets.push_back({{"clipValueMin", ScalarDesc(F32, 0.25), true}, {"clipValueMax", ScalarDesc(F32, 0.25), true}});
  } else if (op.name == "Threshold") {
    sets.push_back({{"threshold", ScalarDesc(I64, 3), true}, {"value", ScalarDesc(F32, -7.5), true}});
  } else if (op.name == "Swish") {
    sets.push_back({{"betaOptional", ScalarDesc(F64, 1.75)}});
  } else if (op.name == "Softshrink" || op.name == "Hardshrink") {
    sets.push_back({{"lambd", ScalarDesc(F32, 0.0)}});
    sets.push_back({{"lambd", ScalarDesc(F64, 3.25)}});
  }
  return sets;
}

double sigm(double z) {
  if (z >= 0) return 1 / (1 + std::exp(-z));
  const double e = std::exp(z);
  return e / (1 + e);
}
bool isnan_(double x) { return std::isnan(x); }

constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;

#define P1(expr) [](aclTensor * s, const std::vector<aclScalar*>& a, aclTensor* o, uint64_t* w, aclOpExecutor** e) { \
    (void)a;                                                                                                          \
    return expr;                                                                                                      \
  }
#define P1I(expr) [](aclTensor * s, const std::vector<aclScalar*>& a, uint64_t* w, aclOpExecutor** e) { \
    (void)a;                                                                                             \
    return expr;                                                                                         \
  }

const std::vector<UnaryOp>& unary_ops() {
  static const std::vector<UnaryOp> ops = [] {
    std::vector<UnaryOp> v;
    const DTypes relu_types = {F32, F16, BF16, I8, U8, I32, I64};
    v.push_back({"Relu", relu_types, relu_types, OutRule::kSame, false, Tol{}, {},
                 [](double x, const std::vector<double>&) { return x > 0 || isnan_(x) ? x : 0.0; },
                 P1(aclnnReluGetWorkspaceSize(s, o, w, e)), aclnnRelu, P1I(aclnnInplaceReluGetWorkspaceSize(s, w, e)),
                 aclnnInplaceRelu, relu_types});
    v.push_back({"LeakyRelu", kF4, kF4, OutRule::kCast, false, Tol{0, 1}, {{"negativeSlope", ScalarDesc(F32, 0.01)}},
                 [](double x, const std::vector<double>& a) { return x > 0 ? x : x * a[0]; },
                 P1(aclnnLeakyReluGetWorkspaceSize(s, a[0], o, w, e)), aclnnLeakyRelu,
                 P1I(aclnnInplaceLeakyReluGetWorkspaceSize(s, a[0], w, e)), aclnnInplaceLeakyRelu, kF4});
    v.push_back({"Gelu", kF3, kF3, OutRule::kSame, false, Tol{8, 8}, {},
                 [](double x, const std::vector<double>&) {
                   return x * sigm(2 * std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x));
                 },
                 P1(aclnnGeluGetWorkspaceSize(s, o, w, e)), aclnnGelu});
    UnaryOp gelu_v2_erf{"GeluV2(approximate=0)", kF3, kF3, OutRule::kSame, false, Tol{8, 8}, {},
                        [](double x, const std::vector<double>&) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); },
                        P1(aclnnGeluV2GetWorkspaceSize(s, 0, o, w, e)), aclnnGeluV2};
    gelu_v2_erf.rank_limit = false;
    v.push_back(gelu_v2_erf);
    UnaryOp gelu_v2_tanh = v[2];
    gelu_v2_tanh.name = "GeluV2(approximate=1)";
    gelu_v2_tanh.p1 = P1(aclnnGeluV2GetWorkspaceSize(s, 1, o, w, e));
    gelu_v2_tanh.p2 = aclnnGeluV2;
    gelu_v2_tanh.rank_limit = false;
    v.push_back(gelu_v2_tanh);
    UnaryOp silu{"Silu", kF3, kF3, OutRule::kSame, false, Tol{4, 4}, {},
                 [](double x, const std::vector<double>&) { return x * sigm(x); },
                 P1(aclnnSiluGetWorkspaceSize(s, o, w, e)), aclnnSilu};
    silu.rank_limit = false;
    v.push_back(silu);
    v.push_back({"Swish", kF3, kF3, OutRule::kSame, false, Tol{4, 4}, {{"betaOptional", ScalarDesc(F32, 1.0)}},
                 [](double x, const std::vector<double>& a) { return x * sigm(a[0] * x); },
                 P1(aclnnSwishGetWorkspaceSize(s, a[0], o, w, e)), aclnnSwish});
    const DTypes sig_in = {F32, F16, BF16, F64, I8, I16, I32, I64, U8, BOOL};
    v.push_back({"Sigmoid", sig_in, kF4, OutRule::kCast, true, Tol{4, 4}, {},
                 [](double x, const std::vector<double>&) { return sigm(x); },
                 P1(aclnnSigmoidGetWorkspaceSize(s, o, w, e)), aclnnSigmoid,
                 P1I(aclnnInplaceSigmoidGetWorkspaceSize(s, w, e)), aclnnInplaceSigmoid, kF4});
    const DTypes hs_types = {F32, F16, BF16, I32};
    v.push_back({"Hardsigmoid", hs_types, hs_types, OutRule::kSame, true, Tol{2, 2}, {},
                 [](double x, const std::vector<double>&) {
                   if (x > 3) return 1.0;
                   if (x <= -3) return 0.0;
                   return x / 6 + 0.5;
                 },
                 P1(aclnnHardsigmoidGetWorkspaceSize(s, o, w, e)), aclnnHardsigmoid,
                 P1I(aclnnInplaceHardsigmoidGetWorkspaceSize(s, w, e)), aclnnInplaceHardsigmoid, hs_types});
    const DTypes tanh_in = {F32, F16, BF16, I8, I16, I32, I64, U8, BOOL};
    v.push_back({"Tanh", tanh_in, kF3, OutRule::kCast, true, Tol{4, 4}, {},
                 [](double x, const std::vector<double>&) { return std::tanh(x); },
                 P1(aclnnTanhGetWorkspaceSize(s, o, w, e)), aclnnTanh, P1I(aclnnInplaceTanhGetWorkspaceSize(s, w, e)),
                 aclnnInplaceTanh, kF3});
    const DTypes ht_types = {F32, F16, BF16, F64, I8, I16, I32, I64, U8};
    v.push_back({"Hardtanh", ht_types, ht_types, OutRule::kSame, false, Tol{},
                 {{"clipValueMin", ScalarDesc(F32, -1.0), true}, {"clipValueMax", ScalarDesc(F32, 1.0), true}},
                 [](double x, const std::vector<double>& a) { return std::min(std::max(x, a[0]), a[1]); },
                 P1(aclnnHardtanhGetWorkspaceSize(s, a[0], a[1], o, w, e)), aclnnHardtanh,
                 P1I(aclnnInplaceHardtanhGetWorkspaceSize(s, a[0], a[1], w, e)), aclnnInplaceHardtanh, ht_types});
    v.push_back({"Hardswish", kF3, kF3, OutRule::kCast, false, Tol{2, 4}, {},
                 [](double x, const std::vector<double>&) {
                   if (x <= -3) return 0.0;
                   if (x >= 3) return x;
                   return x * (x + 3) / 6;
                 },
                 P1(aclnnHardswishGetWorkspaceSize(s, o, w, e)), aclnnHardswish,
                 P1I(aclnnInplaceHardswishGetWorkspaceSize(s, w, e)), aclnnInplaceHardswish, kF3});
    v.push_back({"Elu", kF4, kF4, OutRule::kCast, false, Tol{4, 4},
                 {{"alpha", ScalarDesc(F32, 1.0)}, {"scale", ScalarDesc(F32, 1.0)}, {"inputScale", ScalarDesc(F32, 1.0)}},
                 [](double x, const std::vector<double>& a) {
                   return x > 0 ? a[1] * x : a[0] * a[1] * std::expm1(x * a[2]);
                 },
                 P1(aclnnEluGetWorkspaceSize(s, a[0], a[1], a[2], o, w, e)), aclnnElu,
                 P1I(aclnnInplaceEluGetWorkspaceSize(s, a[0], a[1], a[2], w, e)), aclnnInplaceElu, kF4});
    const DTypes selu_types = {F32, F16, BF16, I32, I8};
    UnaryOp selu{"Selu", selu_types, selu_types, OutRule::kAny, true, Tol{4, 4}, {},
                 [](double x, const std::vector<double>&) {
                   return kSeluScale * (std::max(0.0, x) + std::min(0.0, kSeluAlpha * std::expm1(x))) +
                          (isnan_(x) ? x : 0.0);
                 },
                 P1(aclnnSeluGetWorkspaceSize(s, o, w, e)), aclnnSelu, P1I(aclnnInplaceSeluGetWorkspaceSize(s, w, e)),
                 aclnnInplaceSelu, selu_types};
    selu.rank_limit = false;
    selu.trunc_int = true;
    v.push_back(selu);
    v.push_back({"Celu", kF3, kF3, OutRule::kCast, false, Tol{4, 4}, {{"alpha", ScalarDesc(F32, 1.5)}},
                 [](double x, const std::vector<double>& a) {
                   if (isnan_(x)) return x;
                   return std::max(0.0, x) + std::min(0.0, a[0] * std::expm1(x / a[0]));
                 },
                 P1(aclnnCeluGetWorkspaceSize(s, a[0], o, w, e)), aclnnCelu,
                 P1I(aclnnInplaceCeluGetWorkspaceSize(s, a[0], w, e)), aclnnInplaceCelu, kF3});
    v.push_back({"Mish", kF3, kF3, OutRule::kSame, false, Tol{8, 8}, {},
                 [](double x, const std::vector<double>&) { return x * std::tanh(std::log1p(std::exp(x))); },
                 P1(aclnnMishGetWorkspaceSize(s, o, w, e)), aclnnMish, P1I(aclnnInplaceMishGetWorkspaceSize(s, w, e)),
                 aclnnInplaceMish, kF3});
    v.push_back({"Softplus", kF3, kF3, OutRule::kCast, false, Tol{4, 4},
                 {{"beta", ScalarDesc(F32, 1.0)}, {"threshold", ScalarDesc(F32, 20.0)}},
                 [](double x, const std::vector<double>& a) {
                   return a[0] * x > a[1] ? x : std::log1p(std::exp(a[0] * x)) / a[0];
                 },
                 P1(aclnnSoftplusGetWorkspaceSize(s, a[0], a[1], o, w, e)), aclnnSoftplus});
    v.push_back({"Softshrink", kF3, kF3, OutRule::kAny, false, Tol{0, 1}, {{"lambd", ScalarDesc(F32, 0.5)}},
                 [](double x, const std::vector<double>& a) {
                   return x > a[0] ? x - a[0] : x < -a[0] ? x + a[0] : isnan_(x) ? x : 0.0;
                 },
                 P1(aclnnSoftshrinkGetWorkspaceSize(s, a[0], o, w, e)), aclnnSoftshrink});
    v.push_back({"Hardshrink", kF3, kF3, OutRule::kAny, false, Tol{}, {{"lambd", ScalarDesc(F32, 0.5)}},
                 [](double x, const std::vector<double>& a) {
                   return x > a[0] || x < -a[0] || isnan_(x) ? x : 0.0;
                 },
                 P1(aclnnHardshrinkGetWorkspaceSize(s, a[0], o, w, e)), aclnnHardshrink});
    const DTypes th_in = {F32, F16, BF16, I8, I16, I32, I64, U8};
    const DTypes th_out = {F32, F16, BF16, F64, I8, I16, I32, I64, U8, BOOL};
    v.push_back({"Threshold", th_in, th_out, OutRule::kCast, false, Tol{},
                 {{"threshold", ScalarDesc(F32, 1.0), true}, {"value", ScalarDesc(F32, 2.0), true}},
                 [](double x, const std::vector<double>& a) { return x > a[0] || isnan_(x) ? x : a[1]; },
                 P1(aclnnThresholdGetWorkspaceSize(s, a[0], a[1], o, w, e)), aclnnThreshold,
                 P1I(aclnnInplaceThresholdGetWorkspaceSize(s, a[0], a[1], w, e)), aclnnInplaceThreshold, th_in});
    auto logsig = [](double x, const std::vector<double>&) {
      return (x < 0 ? x : 0.0) - std::log1p(std::exp(-std::fabs(x)));
    };
    UnaryOp ls{"LogSigmoid", kF3, kF3, OutRule::kSame, false, Tol{4, 4}, {}, logsig,
               P1(aclnnLogSigmoidGetWorkspaceSize(s, o, w, e)), aclnnLogSigmoid};
    ls.rank_limit = false;
    v.push_back(ls);
    UnaryOp lsf{"LogSigmoidForward", kF3, kF3, OutRule::kSame, false, Tol{4, 4}, {}, logsig,
                P1(aclnnLogSigmoidForwardGetWorkspaceSize(s, o, nullptr, w, e)), aclnnLogSigmoidForward};
    lsf.rank_limit = false;
    v.push_back(lsf);
    return v;
  }();
  return ops;
}

TEST(Activation, UnaryValues) {
  uint64_t seed = 1;
  for (const UnaryOp& op : unary_ops()) {
    for (const auto& attrs : attr_sets(op)) {
      for (aclDataType s : op.self) {
        if (!attrs_representable(op, attrs, s)) continue;  // PyTorch rejects such a conversion
        // out = self's dtype where allowed, else the first allowed out dtype.
        aclDataType o = s;
        if (!out_valid(op, s, o))
          for (aclDataType c : op.out)
            if (out_valid(op, s, c)) {
              o = c;
              break;
            }
        for (const Layout& l : layouts(s, o)) check_unary(op, attrs, l.self, &l.out, seed++);
        // Every other valid out dtype, contiguous.
        for (aclDataType c : op.out)
          if (c != o && out_valid(op, s, c)) {
            const TensorDesc sd(s, {3, 11}), od(c, {3, 11});
            check_unary(op, attrs, sd, &od, seed++);
          }
      }
      for (aclDataType s : op.inplace) {
        if (!attrs_representable(op, attrs, s)) continue;
        check_unary(op, attrs, TensorDesc(s, {33}), nullptr, seed++);
        check_unary(op, attrs, TensorDesc(s, {4, 5}, {11, 2}, 1), nullptr, seed++);
        check_unary(op, attrs, TensorDesc(s, {}), nullptr, seed++);
      }
    }
  }
}

// Every float dtype's special values through every floating op, one element each.
TEST(Activation, UnarySpecialValues) {
  for (const UnaryOp& op : unary_ops()) {
    for (aclDataType s : op.self) {
      if (!is_floating(s)) continue;
      const std::vector<Num> sv = special_values(s);
      const TensorDesc sd(s, {static_cast<int64_t>(sv.size())});
      aclDataType o = out_valid(op, s, s) ? s : op.out[0];
      const TensorDesc od(o, sd.shape);
      Tensor self(sd), out(od);
      for (size_t i = 0; i < sv.size(); ++i) self.set({static_cast<int64_t>(i)}, sv[i]);
      self.upload();
      std::vector<std::unique_ptr<Scalar>> scalars;
      std::vector<aclScalar*> sp;
      for (const Attr& a : op.attrs) {
        scalars.push_back(std::make_unique<Scalar>(a.value));
        sp.push_back(scalars.back()->get());
      }
      const std::string repro = op.name + " specials self=" + sd.str() + " out=" + od.str() + attrs_str(op.attrs);
      run_op(repro, [&](uint64_t* w, aclOpExecutor** e) { return op.p1(self.get(), sp, out.get(), w, e); }, op.p2);
      out.download();
      const std::vector<double> av = attr_values(op, op.attrs, s);
      for (size_t i = 0; i < sv.size(); ++i) {
        const Shape idx = {static_cast<int64_t>(i)};
        const double x = sv[i].f;
        const Interval iv =
            make_interval([&](double v) { return op.ref(v, av); }, x, 1.0, false, op.tol, float_compute(s));
        std::string want;
        EXPECT_TRUE(accepts(o, iv, out.at(idx), op.tol.exact(), &want))
            << repro << ": x=" << num_str(sv[i]) << " got " << num_str(out.at(idx)) << " want " << want;
      }
    }
  }
}

// Ops that reshape long tensors in CANN accept more than 8 dims; the others reject them.
TEST(Activation, UnaryRank) {
  const Shape nine = {1, 2, 1, 2, 1, 2, 1, 2, 2};
  for (const UnaryOp& op : unary_ops()) {
    const aclDataType s = op.self[0];
    const TensorDesc sd(s, nine), od(s, nine);
    if (!op.rank_limit) {
      check_unary(op, op.attrs, sd, &od, 99);
      continue;
    }
    Tensor self(sd), out(od);
    std::vector<std::unique_ptr<Scalar>> scalars;
    std::vector<aclScalar*> sp;
    for (const Attr& a : op.attrs) {
      scalars.push_back(std::make_unique<Scalar>(a.value));
      sp.push_back(scalars.back()->get());
    }
    expect_error(op.name + " rank 9", [&](uint64_t* w, aclOpExecutor** e) { return op.p1(self.get(), sp, out.get(), w, e); },
                 ACLNN_ERR_PARAM_INVALID, self_name(op));
  }
}

TEST(Activation, UnaryErrors) {
  for (const UnaryOp& op : unary_ops()) {
    const aclDataType s = op.self[0];
    const aclDataType o = out_valid(op, s, s) ? s : op.out[0];
    Tensor self(TensorDesc(s, {2, 3})), out(TensorDesc(o, {2, 3}));
    std::vector<std::unique_ptr<Scalar>> scalars;
    std::vector<aclScalar*> sp;
    for (const Attr& a : op.attrs) {
      scalars.push_back(std::make_unique<Scalar>(a.value));
      sp.push_back(scalars.back()->get());
    }
    auto call = [&](aclTensor* st, const std::vector<aclScalar*>& a, aclTensor* ot) {
      return [&op, st, a, ot](uint64_t* w, aclOpExecutor** e) { return op.p1(st, a, ot, w, e); };
    };
    const std::string n = op.name;
    expect_error(n + " self=null", call(nullptr, sp, out.get()), ACLNN_ERR_PARAM_NULLPTR, self_name(op));
    expect_error(n + " out=null", call(self.get(), sp, nullptr), ACLNN_ERR_PARAM_NULLPTR, out_name(op));
    for (size_t i = 0; i < sp.size(); ++i) {
      if (op.name == "Swish") continue;  // betaOptional may be null
      std::vector<aclScalar*> sn = sp;
      sn[i] = nullptr;
      expect_error(n + " " + op.attrs[i].name + "=null", call(self.get(), sn, out.get()), ACLNN_ERR_PARAM_NULLPTR,
                   op.attrs[i].name);
    }
    {
      uint64_t ws = 0;
      aclOpExecutor* ex = nullptr;
      EXPECT_EQ(op.p1(self.get(), sp, out.get(), nullptr, &ex), ACLNN_ERR_PARAM_NULLPTR) << n << " workspaceSize=null";
      EXPECT_EQ(op.p1(self.get(), sp, out.get(), &ws, nullptr), ACLNN_ERR_PARAM_NULLPTR) << n << " executor=null";
    }
    // Every self dtype the op does not list, complex included.
    for (aclDataType t : {F32, F16, BF16, F64, I8, I16, I32, I64, U8, BOOL, ACL_COMPLEX64}) {
      if (std::find(op.self.begin(), op.self.end(), t) != op.self.end()) continue;
      Tensor bad(TensorDesc(t, {2, 3}));
      expect_error(n + " self=" + dtype_name(t), call(bad.get(), sp, out.get()), ACLNN_ERR_PARAM_INVALID,
                   self_name(op));
    }
    // Every out dtype the op's rule rejects for this self.
    for (aclDataType t : {F32, F16, BF16, F64, I8, I16, I32, I64, U8, BOOL}) {
      if (out_valid(op, s, t)) continue;
      Tensor bad(TensorDesc(t, {2, 3}));
      expect_error(n + " out=" + dtype_name(t), call(self.get(), sp, bad.get()), ACLNN_ERR_PARAM_INVALID,
                   out_name(op));
    }
    Tensor wrong(TensorDesc(o, {3, 2}));
    expect_error(n + " out shape [3,2] vs self [2,3]", call(self.get(), sp, wrong.get()), ACLNN_ERR_PARAM_INVALID,
                 out_name(op));
    if (op.p1_inplace) {
      expect_error("Inplace" + n + " selfRef=null",
                   [&](uint64_t* w, aclOpExecutor** e) { return op.p1_inplace(nullptr, sp, w, e); },
                   ACLNN_ERR_PARAM_NULLPTR, op.name == "Hardsigmoid" || op.name == "Hardswish" ? "self" : "selfRef");
      for (aclDataType t : {F32, F16, BF16, F64, I8, I16, I32, I64, U8, BOOL}) {
        if (std::find(op.inplace.begin(), op.inplace.end(), t) != op.inplace.end()) continue;
        Tensor bad(TensorDesc(t, {2, 3}));
        expect_error("Inplace" + n + " selfRef=" + dtype_name(t),
                     [&](uint64_t* w, aclOpExecutor** e) { return op.p1_inplace(bad.get(), sp, w, e); },
                     ACLNN_ERR_PARAM_INVALID, "self");
      }
    }
  }
}

// Value checks on attributes.
TEST(Activation, AttributeErrors) {
  Tensor self(TensorDesc(F32, {4})), out(TensorDesc(F32, {4}));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  {
    Scalar zero(ScalarDesc(F32, 0.0)), nan(ScalarDesc(F32, std::nan("")));
    expect_error("Celu alpha=0", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnCeluGetWorkspaceSize(self.get(), zero.get(), out.get(), w, e);
    }, ACLNN_ERR_PARAM_INVALID, "alpha");
    expect_error("InplaceCelu alpha=nan", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnInplaceCeluGetWorkspaceSize(self.get(), nan.get(), w, e);
    }, ACLNN_ERR_PARAM_INVALID, "alpha");
  }
  {
    Scalar neg(ScalarDesc(F32, -0.5));
    expect_error("Softshrink lambd=-0.5", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnSoftshrinkGetWorkspaceSize(self.get(), neg.get(), out.get(), w, e);
    }, ACLNN_ERR_PARAM_INVALID, "lambd");
    // Hardshrink accepts a negative lambd (then nothing is shrunk).
    ASSERT_EQ(aclnnHardshrinkGetWorkspaceSize(self.get(), neg.get(), out.get(), &ws, &ex), ACL_SUCCESS);
    aclDestroyAclOpExecutor(ex);
  }
  {
    Scalar lo(ScalarDesc(F32, 2.0)), hi(ScalarDesc(F32, 1.0)), ilo(ScalarDesc(I64, 3)), ihi(ScalarDesc(I64, 2));
    expect_error("Hardtanh min=2 max=1", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnHardtanhGetWorkspaceSize(self.get(), lo.get(), hi.get(), out.get(), w, e);
    }, ACLNN_ERR_PARAM_INVALID, "clipValueMin");
    expect_error("InplaceHardtanh min=int64(3) max=int64(2)", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnInplaceHardtanhGetWorkspaceSize(self.get(), ilo.get(), ihi.get(), w, e);
    }, ACLNN_ERR_PARAM_INVALID, "clipValueMin");
    Scalar b(ScalarDesc(BOOL, 1.0));
    expect_error("Hardtanh min=bool", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnHardtanhGetWorkspaceSize(self.get(), b.get(), hi.get(), out.get(), w, e);
    }, ACLNN_ERR_PARAM_INVALID, "clipValueMin");
  }
  for (int64_t approx : {-1, 2}) {
    expect_error("GeluV2 approximate=" + std::to_string(approx), [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnGeluV2GetWorkspaceSize(self.get(), approx, out.get(), w, e);
    }, ACLNN_ERR_PARAM_INVALID, "approximate");
  }
  {
    // Swish with a null beta is Silu.
    ASSERT_EQ(aclnnSwishGetWorkspaceSize(self.get(), nullptr, out.get(), &ws, &ex), ACL_SUCCESS);
    aclDestroyAclOpExecutor(ex);
    Scalar c(ScalarDesc(ACL_COMPLEX64, Num::integer(0)));
    expect_error("Swish beta=complex64", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnSwishGetWorkspaceSize(self.get(), c.get(), out.get(), w, e);
    }, ACLNN_ERR_PARAM_INVALID, "betaOptional");
    Scalar one(ScalarDesc(F32, 1.0));
    expect_error("Elu inputScale=complex64", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnEluGetWorkspaceSize(self.get(), one.get(), one.get(), c.get(), out.get(), w, e);
    }, ACLNN_ERR_PARAM_INVALID, "inputScale");
  }
  {
    // Softplus: beta must be castable to self's dtype (a float to an integer is not, but self is float
    // here, so use a complex beta).
    Scalar c(ScalarDesc(ACL_COMPLEX64, Num::integer(0))), one(ScalarDesc(F32, 1.0));
    expect_error("Softplus beta=complex64", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnSoftplusGetWorkspaceSize(self.get(), c.get(), one.get(), out.get(), w, e);
    }, ACLNN_ERR_PARAM_INVALID, "beta");
  }
}

// Swish with beta = 1 and Silu agree bit for bit; GeluV2(tanh) and Gelu too.
TEST(Activation, Aliases) {
  Rng rng(7);
  for (aclDataType t : kF3) {
    Tensor self(TensorDesc(t, {301})), a(TensorDesc(t, {301})), b(TensorDesc(t, {301}));
    self.fill_random(rng);
    run_op("Silu", [&](uint64_t* w, aclOpExecutor** e) { return aclnnSiluGetWorkspaceSize(self.get(), a.get(), w, e); },
           aclnnSilu);
    run_op("Swish(null beta)",
           [&](uint64_t* w, aclOpExecutor** e) { return aclnnSwishGetWorkspaceSize(self.get(), nullptr, b.get(), w, e); },
           aclnnSwish);
    a.download();
    b.download();
    EXPECT_EQ(a.host(), b.host()) << dtype_name(t);
    run_op("Gelu", [&](uint64_t* w, aclOpExecutor** e) { return aclnnGeluGetWorkspaceSize(self.get(), a.get(), w, e); },
           aclnnGelu);
    run_op("GeluV2(1)",
           [&](uint64_t* w, aclOpExecutor** e) { return aclnnGeluV2GetWorkspaceSize(self.get(), 1, b.get(), w, e); },
           aclnnGeluV2);
    a.download();
    b.download();
    EXPECT_EQ(a.host(), b.host()) << dtype_name(t);
  }
}

// ---- backward ops ---------------------------------------------------------------------------------

// gradInput = g * h(x), or exactly 0 where `zero` selects it.
struct Grad {
  double h;
  bool zero = false;
};

struct GradOp {
  std::string name;
  const char* x_name;
  const char* out_name;
  DTypes in;
  DTypes out;
  bool same_dtype;  // all three dtypes equal (else promote, result castable to out)
  bool broadcast;
  Tol tol;
  std::vector<Attr> attrs;
  std::function<Grad(double, const std::vector<double>&)> ref;
  std::function<aclnnStatus(aclTensor*, aclTensor*, const std::vector<aclScalar*>&, aclTensor*, uint64_t*,
                            aclOpExecutor**)>
      p1;
  Phase2 p2;
  bool x_in_float = false;  // x is compared as float32 (ThresholdBackward)
  DTypes promoted{};        // when set: `in` is any input dtype, the promoted dtype must be one of these
};

aclDataType promote_types(aclDataType a, aclDataType b) {
  if (a == b) return a;
  if (is_floating(a) != is_floating(b)) return is_floating(a) ? a : b;  // category wins
  if (!is_floating(a)) return a;  // integral pairs: not needed beyond "not floating" here
  if ((a == F16 && b == BF16) || (a == BF16 && b == F16)) return F32;
  auto rank = [](aclDataType t) { return t == F16 || t == BF16 ? 0 : t == F32 ? 1 : 2; };
  return rank(a) >= rank(b) ? a : b;
}

bool grad_valid(const GradOp& op, aclDataType g, aclDataType x, aclDataType o, aclDataType* compute) {
  auto has = [](const DTypes& v, aclDataType t) { return std::find(v.begin(), v.end(), t) != v.end(); };
  if (!has(op.in, g) || !has(op.in, x) || !has(op.out, o)) return false;
  if (op.same_dtype) {
    *compute = g;
    return g == x && x == o;
  }
  *compute = promote_types(g, x);
  return has(op.promoted.empty() ? op.in : op.promoted, *compute) && can_cast_to(*compute, o);
}

#define G1(expr)                                                                                                   \
  [](aclTensor * g, aclTensor * x, const std::vector<aclScalar*>& a, aclTensor* o, uint64_t* w, aclOpExecutor** e) { \
    (void)a;                                                                                                       \
    return expr;                                                                                                   \
  }

const std::vector<GradOp>& grad_ops() {
  static const std::vector<GradOp> ops = [] {
    std::vector<GradOp> v;
    GradOp gelu_bw{"GeluBackward", "self", "gradInput", {F32, F16, BF16, I8, I16, I32, I64, U8, BOOL}, kF3, false, true,
                   Tol{16, 16}, {},
                 [](double x, const std::vector<double>&) {
                   const double c = 2 * std::sqrt(2 / M_PI);
                   const double z = c * (x + 0.044715 * x * x * x);
                   const double s = sigm(z);
                   double term = x * sigm(z) * sigm(-z) * c * (1 + 3 * 0.044715 * x * x);
                   if (!std::isfinite(term) && !isnan_(x)) term = 0;  // its limit for |x| -> inf
                   return Grad{s + term};
                 },
                 G1(aclnnGeluBackwardGetWorkspaceSize(g, x, o, w, e)), aclnnGeluBackward};
    gelu_bw.promoted = kF3;  // CANN checks only the promoted dtype (its example passes an int32 gradOutput)
    v.push_back(gelu_bw);
    v.push_back({"SiluBackward", "self", "gradInput", kF3, kF3, true, true, Tol{8, 8}, {},
                 [](double x, const std::vector<double>&) { return Grad{sigm(x) * (1 + x * sigm(-x))}; },
                 G1(aclnnSiluBackwardGetWorkspaceSize(g, x, o, w, e)), aclnnSiluBackward});
    v.push_back({"SigmoidBackward", "output", "gradInput", kF4, kF4, false, true, Tol{2, 4}, {},
                 [](double y, const std::vector<double>&) { return Grad{y * (1 - y)}; },
                 G1(aclnnSigmoidBackwardGetWorkspaceSize(g, x, o, w, e)), aclnnSigmoidBackward});
    v.push_back({"TanhBackward", "output", "gradInput", kF4, kF4, true, true, Tol{2, 4}, {},
                 [](double y, const std::vector<double>&) { return Grad{1 - y * y}; },
                 G1(aclnnTanhBackwardGetWorkspaceSize(g, x, o, w, e)), aclnnTanhBackward});
    const DTypes tb = {F32, F16, BF16, I8, U8, I32};
    GradOp thb{"ThresholdBackward", "self", "out", tb, tb, true, true, Tol{}, {{"threshold", ScalarDesc(F32, 0.5)}},
               [](double x, const std::vector<double>& a) {
                 return x <= a[0] ? Grad{0, true} : Grad{1};  // NaN passes the gradient (PyTorch, CANN's golden)
               },
               G1(aclnnThresholdBackwardGetWorkspaceSize(g, x, a[0], o, w, e)), aclnnThresholdBackward};
    thb.x_in_float = true;
    v.push_back(thb);
    v.push_back({"HardswishBackward", "self", "out", kF3, kF3, true, false, Tol{2, 2}, {},
                 [](double x, const std::vector<double>&) {
                   if (x < -3) return Grad{0, true};
                   return x <= 3 ? Grad{x / 3 + 0.5} : Grad{1};
                 },
                 G1(aclnnHardswishBackwardGetWorkspaceSize(g, x, o, w, e)), aclnnHardswishBackward});
    v.push_back({"LeakyReluBackward", "self", "out", kF4, kF4, false, true, Tol{0, 1},
                 {{"negativeSlope", ScalarDesc(F32, 0.2)}},
                 [](double x, const std::vector<double>& a) { return x > 0 ? Grad{1} : Grad{a[0]}; },
                 G1(aclnnLeakyReluBackwardGetWorkspaceSize(g, x, a[0], false, o, w, e)), aclnnLeakyReluBackward});
    return v;
  }();
  return ops;
}

// Evaluation-order effects at the edges of the compute type's range. With an operand beyond 2^60
// (float32) or 2^500 (float64) an intermediate (g * y, y * y) may overflow although the exact result
// does not: ±inf is accepted when its sign is the exact result's. With g = 0 and an infinite
// derivative, 0 * inf is NaN in one order and ±0 in another (g * y first): both are accepted.
bool order_effect(bool f32, double g, double x, double h, const Interval& iv, const Num& got) {
  if (g == 0 && std::isinf(h)) return std::isnan(got.f) || got.f == 0;
  const double big = std::ldexp(1.0, f32 ? 60 : 500);
  if (iv.nan || !std::isinf(got.f) || (std::fabs(g) < big && std::fabs(x) < big)) return false;
  return (got.f > 0 && iv.lo > 0) || (got.f < 0 && iv.hi < 0);
}

void check_grad(const GradOp& op, const TensorDesc& gd, const TensorDesc& xd, const TensorDesc& od, uint64_t seed,
                const std::vector<Attr>& attrs) {
  aclDataType compute = F32;
  grad_valid(op, gd.dtype, xd.dtype, od.dtype, &compute);
  const std::string repro = op.name + " gradOutput=" + gd.str() + " " + op.x_name + "=" + xd.str() + " " +
                            op.out_name + "=" + od.str() + attrs_str(attrs) + " seed=" + std::to_string(seed);
  SCOPED_TRACE(repro);
  Rng rng(seed);
  Tensor g(gd), x(xd), out(od);
  g.fill_random(rng);
  x.fill_random(rng);
  out.fill_random(rng);
  const std::vector<uint8_t> before = out.host();
  std::vector<std::unique_ptr<Scalar>> scalars;
  std::vector<aclScalar*> sp;
  std::vector<double> av;
  for (const Attr& a : attrs) {
    scalars.push_back(std::make_unique<Scalar>(a.value));
    sp.push_back(scalars.back()->get());
    av.push_back(cast(a.value.value, F32).as_double());
  }
  run_op(repro, [&](uint64_t* w, aclOpExecutor** e) { return op.p1(g.get(), x.get(), sp, out.get(), w, e); }, op.p2);
  out.download();
  const std::string outside = writes_outside_view(out, before);
  EXPECT_TRUE(outside.empty()) << repro << ": wrote outside the output view:" << outside;
  const bool f32 = float_compute(compute);
  int failures = 0;
  for_each_index(od.shape, [&](const Shape& idx) {
    auto sub = [&](const TensorDesc& d) {  // the broadcast source index of idx in d
      Shape s(d.shape.size());
      const size_t off = idx.size() - d.shape.size();
      for (size_t i = 0; i < s.size(); ++i) s[i] = d.shape[i] == 1 ? 0 : idx[off + i];
      return s;
    };
    const Num gv = cast(g.at(sub(gd)), is_floating(compute) ? compute : F64);
    Num xv = cast(x.at(sub(xd)), is_floating(compute) ? compute : F64);
    if (op.x_in_float) xv = cast(x.at(sub(xd)), F32);
    const double gvd = gv.as_double(), xvd = xv.as_double();
    const Grad r = op.ref(xvd, av);
    const Interval iv = make_interval([&](double xx) { return op.ref(xx, av).h; }, xvd, gvd, r.zero, op.tol, f32);
    std::string want;
    const Num got = out.at(idx);
    if (!accepts(od.dtype, iv, got, op.tol.exact(), &want) && !order_effect(f32, gvd, xvd, r.h, iv, got) &&
        failures++ < 5)
      ADD_FAILURE() << repro << " at " << shape_str(idx) << ": g=" << num_str(gv) << " x=" << num_str(xv) << " got "
                    << num_str(got) << " want " << want;
  });
}

TEST(Activation, GradValues) {
  uint64_t seed = 1000;
  for (const GradOp& op : grad_ops()) {
    for (aclDataType gt : op.in)
      for (aclDataType xt : op.in)
        for (aclDataType ot : op.out) {
          aclDataType compute;
          if (!grad_valid(op, gt, xt, ot, &compute)) continue;
          const bool main = gt == xt && xt == ot;
          check_grad(op, TensorDesc(gt, {53}), TensorDesc(xt, {53}), TensorDesc(ot, {53}), seed++, op.attrs);
          if (!main) continue;
          check_grad(op, TensorDesc(gt, {4, 6}, {1, 4}), TensorDesc(xt, {4, 6}, {7, 1}, 2),
                     TensorDesc(ot, {4, 6}, {13, 2}, 1), seed++, op.attrs);
          check_grad(op, TensorDesc(gt, {}), TensorDesc(xt, {}), TensorDesc(ot, {}), seed++, op.attrs);
          check_grad(op, TensorDesc(gt, {0, 4}), TensorDesc(xt, {0, 4}), TensorDesc(ot, {0, 4}), seed++, op.attrs);
          if (op.broadcast) {
            check_grad(op, TensorDesc(gt, {3, 1, 5}), TensorDesc(xt, {4, 1}), TensorDesc(ot, {3, 4, 5}), seed++,
                       op.attrs);
            check_grad(op, TensorDesc(gt, {}), TensorDesc(xt, {2, 7}), TensorDesc(ot, {2, 7}), seed++, op.attrs);
          }
        }
  }
  // Attribute variants.
  const GradOp& thb = grad_ops()[4];
  for (double t : {0.0, -3.0, 100.5})
    for (aclDataType d : thb.in)
      check_grad(thb, TensorDesc(d, {41}), TensorDesc(d, {41}), TensorDesc(d, {41}), seed++,
                 {{"threshold", ScalarDesc(F64, t)}});
  const GradOp& lrb = grad_ops()[6];
  for (const ScalarDesc& s : {ScalarDesc(I32, 3), ScalarDesc(F64, -0.75), ScalarDesc(BOOL, 1.0)})
    check_grad(lrb, TensorDesc(F64, {29}), TensorDesc(F32, {29}), TensorDesc(F64, {29}), seed++,
               {{"negativeSlope", s}});
}

TEST(Activation, GradErrors) {
  for (const GradOp& op : grad_ops()) {
    const aclDataType t = op.in[0];
    Tensor g(TensorDesc(t, {2, 3})), x(TensorDesc(t, {2, 3})), out(TensorDesc(t, {2, 3}));
    std::vector<std::unique_ptr<Scalar>> scalars;
    std::vector<aclScalar*> sp;
    for (const Attr& a : op.attrs) {
      scalars.push_back(std::make_unique<Scalar>(a.value));
      sp.push_back(scalars.back()->get());
    }
    auto call = [&op](aclTensor* gg, aclTensor* xx, std::vector<aclScalar*> a, aclTensor* oo) {
      return [&op, gg, xx, a, oo](uint64_t* w, aclOpExecutor** e) { return op.p1(gg, xx, a, oo, w, e); };
    };
    const std::string n = op.name;
    expect_error(n + " gradOutput=null", call(nullptr, x.get(), sp, out.get()), ACLNN_ERR_PARAM_NULLPTR, "gradOutput");
    expect_error(n + " x=null", call(g.get(), nullptr, sp, out.get()), ACLNN_ERR_PARAM_NULLPTR, op.x_name);
    expect_error(n + " out=null", call(g.get(), x.get(), sp, nullptr), ACLNN_ERR_PARAM_NULLPTR, op.out_name);
    for (size_t i = 0; i < sp.size(); ++i) {
      std::vector<aclScalar*> sn = sp;
      sn[i] = nullptr;
      expect_error(n + " " + op.attrs[i].name + "=null", call(g.get(), x.get(), sn, out.get()),
                   ACLNN_ERR_PARAM_NULLPTR, op.attrs[i].name);
    }
    for (aclDataType bt : {F32, F16, BF16, F64, I8, I16, I32, I64, U8, BOOL, ACL_COMPLEX64}) {
      if (std::find(op.in.begin(), op.in.end(), bt) != op.in.end()) continue;
      Tensor bad(TensorDesc(bt, {2, 3}));
      expect_error(n + " gradOutput=" + dtype_name(bt), call(bad.get(), x.get(), sp, out.get()),
                   ACLNN_ERR_PARAM_INVALID, "gradOutput");
      expect_error(n + " x=" + dtype_name(bt), call(g.get(), bad.get(), sp, out.get()), ACLNN_ERR_PARAM_INVALID,
                   op.x_name);
    }
    for (aclDataType a : op.in)
      for (aclDataType b : op.in)
        for (aclDataType c : {F32, F16, BF16, F64, I8, I16, I32, I64, U8, BOOL}) {
          aclDataType compute;
          if (grad_valid(op, a, b, c, &compute)) continue;
          if (std::find(op.in.begin(), op.in.end(), a) == op.in.end()) continue;
          Tensor ga(TensorDesc(a, {2, 3})), xb(TensorDesc(b, {2, 3})), oc(TensorDesc(c, {2, 3}));
          expect_error(n + " dtypes " + dtype_name(a) + "," + dtype_name(b) + "," + dtype_name(c),
                       call(ga.get(), xb.get(), sp, oc.get()), ACLNN_ERR_PARAM_INVALID, "");
        }
    Tensor g9(TensorDesc(t, {1, 1, 1, 1, 1, 1, 1, 1, 2})), o9(TensorDesc(t, {1, 1, 1, 1, 1, 1, 1, 1, 2}));
    expect_error(n + " gradOutput rank 9", call(g9.get(), g9.get(), sp, o9.get()), ACLNN_ERR_PARAM_INVALID,
                 "gradOutput");
    Tensor x4(TensorDesc(t, {4})), o23(TensorDesc(t, {2, 3})), o32(TensorDesc(t, {3, 2}));
    expect_error(n + " x [4] vs gradOutput [2,3]", call(g.get(), x4.get(), sp, o23.get()), ACLNN_ERR_PARAM_INVALID,
                 op.x_name);
    expect_error(n + " out [3,2]", call(g.get(), x.get(), sp, o32.get()), ACLNN_ERR_PARAM_INVALID, op.out_name);
    if (!op.broadcast) {
      Tensor x13(TensorDesc(t, {1, 3}));
      expect_error(n + " no broadcasting", call(g.get(), x13.get(), sp, out.get()), ACLNN_ERR_PARAM_INVALID,
                   op.x_name);
    }
  }
  // LeakyReluBackward: selfIsResult with a negative slope.
  Tensor g(TensorDesc(F32, {3})), x(TensorDesc(F32, {3})), out(TensorDesc(F32, {3}));
  Scalar neg(ScalarDesc(F32, -0.1)), pos(ScalarDesc(F32, 0.1));
  expect_error("LeakyReluBackward selfIsResult slope=-0.1", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnLeakyReluBackwardGetWorkspaceSize(g.get(), x.get(), neg.get(), true, out.get(), w, e);
  }, ACLNN_ERR_PARAM_INVALID, "negativeSlope");
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnLeakyReluBackwardGetWorkspaceSize(g.get(), x.get(), pos.get(), true, out.get(), &ws, &ex), ACL_SUCCESS);
  aclDestroyAclOpExecutor(ex);
}

// A repeatable executor runs twice with rebound addresses (one op per family shape).
TEST(Activation, RepeatableExecutor) {
  Tensor a(TensorDesc(F32, {8})), b(TensorDesc(F32, {8})), o(TensorDesc(F32, {8}));
  for (int i = 0; i < 8; ++i) {
    a.set({i}, Num::real(i - 4));
    b.set({i}, Num::real(4 - i));
  }
  a.upload();
  b.upload();
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnReluGetWorkspaceSize(a.get(), o.get(), &ws, &ex), ACL_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), ACL_SUCCESS);
  ASSERT_EQ(ws, 0u);
  ASSERT_EQ(aclnnRelu(nullptr, 0, ex, stream()), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream()), ACL_SUCCESS);
  o.download();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(o.at({i}).f, std::max(0, i - 4));
  void* bdata = nullptr;
  ASSERT_EQ(aclGetRawTensorAddr(b.get(), &bdata), ACL_SUCCESS);
  ASSERT_EQ(aclSetInputTensorAddr(ex, 0, a.get(), bdata), ACL_SUCCESS);
  ASSERT_EQ(aclnnRelu(nullptr, 0, ex, stream()), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream()), ACL_SUCCESS);
  o.download();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(o.at({i}).f, std::max(0, 4 - i));
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACL_SUCCESS);
}

}  // namespace
