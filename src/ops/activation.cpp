// Activation ops (forward). Each op is a functor over its compute type plus an ActSpec (the dtypes
// CANN's 910B op_api accepts for self and out, how out's dtype relates to self's, whether integer
// inputs compute in float32); plan_act does the checks and builds the elementwise kernel.
//
// Semantics: the CANN doc's formula; where it leaves a case open (NaN, infinities) PyTorch's
// result: NaN inputs give NaN, x * g(x) forms give x * g(x) literally (so Silu(-inf) is NaN, as in
// PyTorch). Piecewise definitions the doc spells out are followed as written (Hardswish(-inf) = 0).
#include <cmath>
#include <type_traits>

#include "aclnnop/aclnn_celu.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_hardshrink.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_hardtanh.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_logsigmoid.h"
#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_selu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_softshrink.h"
#include "aclnnop/aclnn_swish.h"
#include "aclnnop/aclnn_tanh.h"
#include "aclnnop/aclnn_threshold.h"
#include "core/phase.h"
#include "ops/activation.h"
#include "ops/elementwise_op.h"
#include "ops/functors.h"
#include "ops/registry.h"

namespace pacl {
namespace {

using act::float_attr;
using act::scalar_in_dtype;
using act::sigmoid;

// ---- functors ---------------------------------------------------------------------------------

template <typename T>
struct ReluOp {
  T operator()(T a) const {
    if constexpr (std::is_integral_v<T>) return a > 0 ? a : T(0);
    else return a > 0 || a != a ? a : T(0);
  }
};
template <typename T>
struct LeakyReluOp {
  T slope;
  T operator()(T a) const { return a > 0 ? a : a * slope; }
};
// x * sigmoid(2u) == 0.5 x (1 + tanh(u)) without the cancellation of 1 + tanh(u) for x << 0.
template <typename T>
struct GeluTanhOp {
  T operator()(T a) const {
    const T u2 = T(1.5957691216057308) * (a + T(0.044715) * a * a * a);  // 2 sqrt(2/pi) (x + 0.044715 x^3)
    return a * sigmoid(u2);
  }
};
// 0.5 x (1 + erf(x / sqrt2)) == 0.5 x erfc(-x / sqrt2), accurate for x << 0 too.
template <typename T>
struct GeluErfOp {
  T operator()(T a) const { return T(0.5) * a * std::erfc(-a * T(0.70710678118654752)); }
};
template <typename T>
struct SiluOp {
  T operator()(T a) const { return a * sigmoid(a); }
};
template <typename T>
struct SwishOp {
  T beta;
  T operator()(T a) const { return a * sigmoid(beta * a); }
};
template <typename T>
struct HardsigmoidOp {
  T operator()(T a) const {
    const T v = a / T(6) + T(0.5);
    return v < T(0) ? T(0) : v > T(1) ? T(1) : v;
  }
};
template <typename T>
struct HardtanhOp {
  T lo, hi;
  // min(max(a, lo), hi) as torch.clamp: hi wins when the bounds cross after the cast to T; NaN stays.
  T operator()(T a) const {
    const T r = a < lo ? lo : a;
    return r > hi ? hi : r;
  }
};
template <typename T>
struct HardswishOp {
  T operator()(T a) const {
    if (a <= T(-3)) return T(0);
    if (a >= T(3)) return a;
    return a * (a + T(3)) / T(6);
  }
};
template <typename T>
struct EluOp {
  T alpha_scale, scale, input_scale;
  T operator()(T a) const { return a > T(0) ? scale * a : alpha_scale * std::expm1(a * input_scale); }
};
// Integer inputs compute in float32 and truncate, as CANN's kernel returns self's dtype.
template <typename T>
struct SeluOp {
  bool trunc;
  T operator()(T a) const {
    constexpr T kScale = T(1.0507009873554804934193349852946);
    constexpr T kAlphaScale = T(1.0507009873554804934193349852946 * 1.6732632423543772848170429916717);
    const T r = a > T(0) ? kScale * a : kAlphaScale * std::expm1(a);
    return trunc ? std::trunc(r) : r;
  }
};
template <typename T>
struct CeluOp {
  T alpha;
  T operator()(T a) const { return a > T(0) ? a : alpha * std::expm1(a / alpha); }
};
// x tanh(log(1 + e^x)) with tanh(log(1 + e)) = n / (n + 2), n = e (e + 2); for x > 40 the factor
// is 1 in float and double alike (and e^2x would overflow float).
template <typename T>
struct MishOp {
  T operator()(T a) const {
    if (a > T(40)) return a;
    const T e = std::exp(a);
    const T n = e * (e + T(2));
    return a * (n / (n + T(2)));
  }
};
template <typename T>
struct SoftplusOp {
  T beta, threshold;
  T operator()(T a) const {
    const T z = a * beta;
    return z > threshold ? a : std::log1p(std::exp(z)) / beta;
  }
};
template <typename T>
struct SoftshrinkOp {
  T lambd;
  T operator()(T a) const {
    if (a > lambd) return a - lambd;
    if (a < -lambd) return a + lambd;
    return a != a ? a : T(0);
  }
};
template <typename T>
struct HardshrinkOp {
  T lambd;
  T operator()(T a) const { return a >= -lambd && a <= lambd ? T(0) : a; }
};
template <typename T>
struct ThresholdOp {
  T threshold, value;
  T operator()(T a) const { return a <= threshold ? value : a; }
};
// log(sigmoid(x)) = min(x, 0) - log(1 + e^-|x|).
template <typename T>
struct LogSigmoidOp {
  T operator()(T a) const { return (a < T(0) ? a : T(0)) - std::log1p(std::exp(-std::fabs(a))); }
};

// ---- specs ------------------------------------------------------------------------------------

constexpr DType F32 = DType::kFloat, F16 = DType::kFloat16, BF16 = DType::kBFloat16, F64 = DType::kDouble;
constexpr DType I8 = DType::kInt8, I16 = DType::kInt16, I32 = DType::kInt32, I64 = DType::kInt64;
constexpr DType U8 = DType::kUInt8, BOOL = DType::kBool;

enum class OutRule {
  kSame,  // out's dtype equals self's
  kCast,  // out's dtype is one the result (compute dtype) can be cast to
  kAny,   // any dtype of the out list (the result is converted)
};

struct ActSpec {
  DTypeMask self;              // accepted for self
  DTypeMask out;               // accepted for out
  OutRule rule;
  bool float_compute = false;  // integer and bool inputs compute in float32
  bool rank_limit = true;      // at most 8 dims (some CANN ops reshape longer tensors and accept them)
};

constexpr DTypeMask kF3 = dtype_mask({F32, F16, BF16});
constexpr DTypeMask kF4 = kF3 | dtype_mask({F64});

constexpr ActSpec kRelu{dtype_mask({F32, F16, BF16, I8, U8, I32, I64}), dtype_mask({F32, F16, BF16, I8, U8, I32, I64}),
                        OutRule::kSame};
constexpr ActSpec kLeakyRelu{kF4, kF4, OutRule::kCast};
constexpr ActSpec kGelu{kF3, kF3, OutRule::kSame};
constexpr ActSpec kGeluV2{kF3, kF3, OutRule::kSame, false, false};
constexpr ActSpec kSilu{kF3, kF3, OutRule::kSame, false, false};
constexpr ActSpec kSwish{kF3, kF3, OutRule::kSame};
constexpr ActSpec kSigmoid{kF4 | dtype_mask({I8, I16, I32, I64, U8, BOOL}), kF4, OutRule::kCast, true};
constexpr ActSpec kInplaceSigmoid{kF4, kF4, OutRule::kSame};
constexpr ActSpec kHardsigmoid{dtype_mask({F32, F16, BF16, I32}), dtype_mask({F32, F16, BF16, I32}), OutRule::kSame, true};
constexpr ActSpec kTanh{kF3 | dtype_mask({I8, I16, I32, I64, U8, BOOL}), kF3, OutRule::kCast, true};
constexpr ActSpec kInplaceTanh{kF3, kF3, OutRule::kSame};
constexpr DTypeMask kHardtanhTypes = kF4 | dtype_mask({I8, I16, I32, I64, U8});
constexpr ActSpec kHardtanh{kHardtanhTypes, kHardtanhTypes, OutRule::kSame};
constexpr ActSpec kHardswish{kF3, kF3, OutRule::kCast};
constexpr ActSpec kElu{kF4, kF4, OutRule::kCast};
constexpr DTypeMask kSeluTypes = dtype_mask({F32, F16, BF16, I32, I8});
constexpr ActSpec kSelu{kSeluTypes, kSeluTypes, OutRule::kAny, true, false};
constexpr ActSpec kCelu{kF3, kF3, OutRule::kCast};
constexpr ActSpec kMish{kF3, kF3, OutRule::kSame};
constexpr ActSpec kSoftplus{kF3, kF3, OutRule::kCast};
constexpr ActSpec kShrink{kF3, kF3, OutRule::kAny};
constexpr DTypeMask kThresholdTypes = dtype_mask({F32, F16, BF16, I8, I16, I32, I64, U8});
constexpr ActSpec kThreshold{kThresholdTypes, kAllTypes, OutRule::kCast};
constexpr ActSpec kLogSigmoid{kF3, kF3, OutRule::kSame, false, false};

// ---- planning ---------------------------------------------------------------------------------

// Which kernels an op's spec can reach: float-only ops instantiate float and double only.
constexpr TypeSet type_set(const ActSpec& s) {
  return (s.float_compute || (s.self & ~kFloatingTypes) == 0) ? TypeSet::kFloating : TypeSet::kNumeric;
}

// Checks self/out against the spec and plans out = f(self). The caller has already taken its
// arguments from the builder in parameter order (so null arguments are reported in that order).
// make(type_tag<T>, compute dtype) returns the functor for T.
template <TypeSet Set, typename Make>
void plan_act(OpBuilder& b, const ActSpec& spec, const aclTensor& self, const aclTensor& out, bool inplace,
              Make&& make, const char* self_arg_name = nullptr, const char* out_arg_name = nullptr) {
  const char* self_name = self_arg_name ? self_arg_name : inplace ? "selfRef" : "self";
  const char* out_name = out_arg_name ? out_arg_name : inplace ? self_name : "out";
  check_dtype_in(b.op(), self_name, self.dtype, spec.self);
  const DType compute = spec.float_compute && !is_floating(self.dtype) ? DType::kFloat : self.dtype;
  if (!inplace) {
    check_dtype_in(b.op(), out_name, out.dtype, spec.out);
    if (spec.rule == OutRule::kSame && out.dtype != self.dtype)
      invalid("{} dtype {} must equal {} dtype {}", out_name, dtype_name(out.dtype), self_name, dtype_name(self.dtype));
    if (spec.rule == OutRule::kCast) check_can_cast(compute, out, out_name);
  }
  if (spec.rank_limit) check_rank(self, self_name);
  check_shape_equals(out, out_name, self.view);
  std::array<EwInput, 1> in{EwInput{&self, nullptr}};
  plan_elementwise<1, Set>(b, std::string("elementwise.") + b.op().name, compute, out, in,
                           [&](auto tag) { return make(tag, compute); });
}

// self / out (or selfRef) from the builder, in parameter order.
struct Args {
  const aclTensor& self;
  const aclTensor& out;
  bool inplace;
  const char* self_name = nullptr;  // the prototype's names, when not self/out/selfRef
  const char* out_name = nullptr;
};
Args self_arg(OpBuilder& b, const aclTensor* self, bool inplace) {
  const aclTensor& s = inplace ? b.inout(self, "selfRef") : b.input(self, "self");
  return Args{s, s, inplace};
}
Args self_out_args(OpBuilder& b, const aclTensor* self, const aclTensor* out) {
  const aclTensor& s = b.input(self, "self");
  return Args{s, b.output(out, "out"), false};
}

// A functor without attributes.
template <template <typename> class F, const ActSpec& spec>
void plan_plain(OpBuilder& b, const Args& a) {
  plan_act<type_set(spec)>(
      b, spec, a.self, a.out, a.inplace,
      [](auto tag, DType) {
        using T = typename decltype(tag)::type;
        return F<T>{};
      },
      a.self_name, a.out_name);
}

void check_castable_to(const OpInfo& op, const char* arg, const aclScalar& s, DType to) {
  check_dtype_supported(op, arg, s.dtype);
  if (!can_cast(s.dtype, to)) invalid("{} dtype {} cannot be cast to {}", arg, dtype_name(s.dtype), dtype_name(to));
}

#define PACL_T using T = typename decltype(tag)::type

void plan_leaky_relu(OpBuilder& b, const Args& a, const aclScalar& slope) {
  check_dtype_supported(b.op(), "negativeSlope", slope.dtype);
  plan_act<type_set(kLeakyRelu)>(b, kLeakyRelu, a.self, a.out, a.inplace, [&](auto tag, DType) {
    PACL_T;
    return LeakyReluOp<T>{float_attr<T>(slope)};
  });
}

void plan_hardtanh(OpBuilder& b, const Args& a, const aclScalar& lo, const aclScalar& hi) {
  check_dtype_in(b.op(), "clipValueMin", lo.dtype, kHardtanhTypes);
  check_dtype_in(b.op(), "clipValueMax", hi.dtype, kHardtanhTypes);
  plan_act<type_set(kHardtanh)>(b, kHardtanh, a.self, a.out, a.inplace, [&](auto tag, DType compute) {
    PACL_T;
    return HardtanhOp<T>{scalar_in_dtype<T>(lo, compute), scalar_in_dtype<T>(hi, compute)};
  });
}
// CANN compares the bounds in clipValueMin's kind: as integers when it is integral, else as doubles.
void check_hardtanh_bounds(const aclScalar& lo, const aclScalar& hi) {
  if (is_integral(lo.dtype, true)) {
    const int64_t l = scalar_value<int64_t>(lo), h = scalar_value<int64_t>(hi);
    if (l > h) invalid("clipValueMin {} must not be greater than clipValueMax {}", l, h);
  } else if (lo.to_double() > hi.to_double()) {
    invalid("clipValueMin {} must not be greater than clipValueMax {}", lo.to_double(), hi.to_double());
  }
}

void plan_elu(OpBuilder& b, const Args& a, const aclScalar& alpha, const aclScalar& scale, const aclScalar& in_scale) {
  check_castable_to(b.op(), "alpha", alpha, DType::kFloat);
  check_castable_to(b.op(), "scale", scale, DType::kFloat);
  check_castable_to(b.op(), "inputScale", in_scale, DType::kFloat);
  plan_act<type_set(kElu)>(b, kElu, a.self, a.out, a.inplace, [&](auto tag, DType) {
    PACL_T;
    return EluOp<T>{T(float_attr<T>(alpha) * float_attr<T>(scale)), float_attr<T>(scale), float_attr<T>(in_scale)};
  });
}

void plan_selu(OpBuilder& b, const Args& a) {
  const bool trunc = !is_floating(a.self.dtype);
  plan_act<type_set(kSelu)>(b, kSelu, a.self, a.out, a.inplace, [&](auto tag, DType) {
    PACL_T;
    return SeluOp<T>{trunc};
  });
}

void plan_celu(OpBuilder& b, const Args& a, const aclScalar& alpha) {
  check_castable_to(b.op(), "alpha", alpha, DType::kFloat);
  const float al = float_attr<float>(alpha);
  if (!(al > 0 || al < 0)) invalid("alpha must not be 0 for Celu, got {}", al);
  plan_act<type_set(kCelu)>(b, kCelu, a.self, a.out, a.inplace, [&](auto tag, DType) {
    PACL_T;
    return CeluOp<T>{float_attr<T>(alpha)};
  });
}

void plan_threshold(OpBuilder& b, const Args& a, const aclScalar& threshold, const aclScalar& value) {
  check_dtype_supported(b.op(), "threshold", threshold.dtype);
  check_dtype_supported(b.op(), "value", value.dtype);
  plan_act<type_set(kThreshold)>(b, kThreshold, a.self, a.out, a.inplace, [&](auto tag, DType compute) {
    PACL_T;
    return ThresholdOp<T>{scalar_in_dtype<T>(threshold, compute), scalar_in_dtype<T>(value, compute)};
  });
}

}  // namespace
}  // namespace pacl

// ---- phase-1 entry points -------------------------------------------------------------------------

using pacl::OpBuilder;
using pacl::run_phase1;

#define PACL_PHASE1(Name, ...)                                                                              \
  run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) { \
    __VA_ARGS__;                                                                                            \
  })
// Unary ops without attributes: aclnn<Name>(self, out) and aclnnInplace<Name>(selfRef).
#define PACL_ACT(Name, Functor, spec)                                                                         \
  aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,   \
                                            aclOpExecutor** executor) {                                     \
    return PACL_PHASE1(Name, pacl::plan_plain<pacl::Functor, spec>(b, pacl::self_out_args(b, self, out)));    \
  }
#define PACL_ACT_INPLACE(Name, Functor, spec)                                                                  \
  aclnnStatus aclnnInplace##Name##GetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,              \
                                                   aclOpExecutor** executor) {                              \
    return PACL_PHASE1(Inplace##Name, pacl::plan_plain<pacl::Functor, spec>(b, pacl::self_arg(b, selfRef, true))); \
  }

extern "C" {

// Relu's and Hardswish's out (and InplaceHardsigmoid's and InplaceHardswish's self) are const in
// CANN's prototypes, so these are written out.
aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return PACL_PHASE1(Relu, pacl::plan_plain<pacl::ReluOp, pacl::kRelu>(b, pacl::self_out_args(b, self, out)));
}
PACL_ACT_INPLACE(Relu, ReluOp, pacl::kRelu)

aclnnStatus aclnnLeakyReluGetWorkspaceSize(const aclTensor* self, const aclScalar* negativeSlope, aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(LeakyRelu, {
    const aclTensor& s = b.input(self, "self");
    const aclScalar& slope = b.scalar(negativeSlope, "negativeSlope");
    pacl::plan_leaky_relu(b, pacl::Args{s, b.output(out, "out"), false}, slope);
  });
}
aclnnStatus aclnnInplaceLeakyReluGetWorkspaceSize(aclTensor* selfRef, const aclScalar* negativeSlope,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceLeakyRelu, {
    const pacl::Args a = pacl::self_arg(b, selfRef, true);
    pacl::plan_leaky_relu(b, a, b.scalar(negativeSlope, "negativeSlope"));
  });
}

PACL_ACT(Gelu, GeluTanhOp, pacl::kGelu)

aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* x, int64_t approximate, aclTensor* y, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
  return PACL_PHASE1(GeluV2, {
    const aclTensor& xt = b.input(x, "x");
    const pacl::Args a{xt, b.output(y, "y"), false, "x", "y"};
    if (approximate != 0 && approximate != 1)
      pacl::invalid("approximate must be 0 (none, the erf form) or 1 (tanh), got {}", approximate);
    if (approximate == 1) pacl::plan_plain<pacl::GeluTanhOp, pacl::kGeluV2>(b, a);
    else pacl::plan_plain<pacl::GeluErfOp, pacl::kGeluV2>(b, a);
  });
}

PACL_ACT(Silu, SiluOp, pacl::kSilu)

aclnnStatus aclnnSwishGetWorkspaceSize(const aclTensor* self, const aclScalar* betaOptional, aclTensor* out,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Swish, {
    const aclTensor& s = b.input(self, "self");
    const aclScalar* beta = betaOptional ? &b.scalar(betaOptional, "betaOptional") : nullptr;
    const aclTensor& o = b.output(out, "out");
    if (beta) pacl::check_castable_to(b.op(), "betaOptional", *beta, pacl::DType::kFloat);
    pacl::plan_act<pacl::TypeSet::kFloating>(b, pacl::kSwish, s, o, false, [&](auto tag, pacl::DType) {
      using T = typename decltype(tag)::type;
      return pacl::SwishOp<T>{beta ? pacl::act::float_attr<T>(*beta) : T(1)};
    });
  });
}

PACL_ACT(Sigmoid, SigmoidOp, pacl::kSigmoid)
PACL_ACT_INPLACE(Sigmoid, SigmoidOp, pacl::kInplaceSigmoid)

PACL_ACT(Hardsigmoid, HardsigmoidOp, pacl::kHardsigmoid)
aclnnStatus aclnnInplaceHardsigmoidGetWorkspaceSize(const aclTensor* self, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceHardsigmoid,
                     pacl::plan_plain<pacl::HardsigmoidOp, pacl::kHardsigmoid>(b, pacl::self_arg(b, self, true)));
}

PACL_ACT(Tanh, TanhOp, pacl::kTanh)
PACL_ACT_INPLACE(Tanh, TanhOp, pacl::kInplaceTanh)

aclnnStatus aclnnHardtanhGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMin,
                                          const aclScalar* clipValueMax, aclTensor* out, uint64_t* workspaceSize,
                                          aclOpExecutor** executor) {
  return PACL_PHASE1(Hardtanh, {
    const aclTensor& s = b.input(self, "self");
    const aclScalar& lo = b.scalar(clipValueMin, "clipValueMin");
    const aclScalar& hi = b.scalar(clipValueMax, "clipValueMax");
    pacl::plan_hardtanh(b, pacl::Args{s, b.output(out, "out"), false}, lo, hi);
    pacl::check_hardtanh_bounds(lo, hi);
  });
}
aclnnStatus aclnnInplaceHardtanhGetWorkspaceSize(aclTensor* selfRef, const aclScalar* clipValueMin,
                                                 const aclScalar* clipValueMax, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceHardtanh, {
    const pacl::Args a = pacl::self_arg(b, selfRef, true);
    const aclScalar& lo = b.scalar(clipValueMin, "clipValueMin");
    const aclScalar& hi = b.scalar(clipValueMax, "clipValueMax");
    pacl::plan_hardtanh(b, a, lo, hi);
    pacl::check_hardtanh_bounds(lo, hi);
  });
}

aclnnStatus aclnnHardswishGetWorkspaceSize(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  return PACL_PHASE1(Hardswish,
                     pacl::plan_plain<pacl::HardswishOp, pacl::kHardswish>(b, pacl::self_out_args(b, self, out)));
}
aclnnStatus aclnnInplaceHardswishGetWorkspaceSize(const aclTensor* self, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceHardswish,
                     pacl::plan_plain<pacl::HardswishOp, pacl::kHardswish>(b, pacl::self_arg(b, self, true)));
}

aclnnStatus aclnnEluGetWorkspaceSize(const aclTensor* self, const aclScalar* alpha, const aclScalar* scale,
                                     const aclScalar* inputScale, aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
  return PACL_PHASE1(Elu, {
    const aclTensor& s = b.input(self, "self");
    const aclScalar& al = b.scalar(alpha, "alpha");
    const aclScalar& sc = b.scalar(scale, "scale");
    const aclScalar& is = b.scalar(inputScale, "inputScale");
    pacl::plan_elu(b, pacl::Args{s, b.output(out, "out"), false}, al, sc, is);
  });
}
aclnnStatus aclnnInplaceEluGetWorkspaceSize(aclTensor* selfRef, const aclScalar* alpha, const aclScalar* scale,
                                            const aclScalar* inputScale, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceElu, {
    const pacl::Args a = pacl::self_arg(b, selfRef, true);
    const aclScalar& al = b.scalar(alpha, "alpha");
    const aclScalar& sc = b.scalar(scale, "scale");
    const aclScalar& is = b.scalar(inputScale, "inputScale");
    pacl::plan_elu(b, a, al, sc, is);
  });
}

aclnnStatus aclnnSeluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return PACL_PHASE1(Selu, pacl::plan_selu(b, pacl::self_out_args(b, self, out)));
}
aclnnStatus aclnnInplaceSeluGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceSelu, pacl::plan_selu(b, pacl::self_arg(b, selfRef, true)));
}

aclnnStatus aclnnCeluGetWorkspaceSize(const aclTensor* self, const aclScalar* alpha, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Celu, {
    const aclTensor& s = b.input(self, "self");
    const aclScalar& al = b.scalar(alpha, "alpha");
    pacl::plan_celu(b, pacl::Args{s, b.output(out, "out"), false}, al);
  });
}
aclnnStatus aclnnInplaceCeluGetWorkspaceSize(aclTensor* selfRef, const aclScalar* alpha, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceCelu, {
    const pacl::Args a = pacl::self_arg(b, selfRef, true);
    pacl::plan_celu(b, a, b.scalar(alpha, "alpha"));
  });
}

PACL_ACT(Mish, MishOp, pacl::kMish)
PACL_ACT_INPLACE(Mish, MishOp, pacl::kMish)

aclnnStatus aclnnSoftplusGetWorkspaceSize(const aclTensor* self, const aclScalar* beta, const aclScalar* threshold,
                                          aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Softplus, {
    const aclTensor& s = b.input(self, "self");
    const aclScalar& be = b.scalar(beta, "beta");
    const aclScalar& th = b.scalar(threshold, "threshold");
    const aclTensor& o = b.output(out, "out");
    pacl::check_dtype_in(b.op(), "self", s.dtype, pacl::kSoftplus.self);
    pacl::check_castable_to(b.op(), "beta", be, s.dtype);
    pacl::check_castable_to(b.op(), "threshold", th, s.dtype);
    pacl::plan_act<pacl::TypeSet::kFloating>(b, pacl::kSoftplus, s, o, false, [&](auto tag, pacl::DType) {
      using T = typename decltype(tag)::type;
      return pacl::SoftplusOp<T>{pacl::act::float_attr<T>(be), pacl::act::float_attr<T>(th)};
    });
  });
}

aclnnStatus aclnnSoftshrinkGetWorkspaceSize(const aclTensor* self, const aclScalar* lambd, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Softshrink, {
    const aclTensor& s = b.input(self, "self");
    const aclScalar& l = b.scalar(lambd, "lambd");
    const aclTensor& o = b.output(out, "out");
    pacl::check_dtype_supported(b.op(), "lambd", l.dtype);
    pacl::plan_act<pacl::TypeSet::kFloating>(b, pacl::kShrink, s, o, false, [&](auto tag, pacl::DType) {
      using T = typename decltype(tag)::type;
      return pacl::SoftshrinkOp<T>{pacl::act::float_attr<T>(l)};
    });
    const float lv = pacl::act::float_attr<float>(l);
    if (lv < 0) pacl::invalid("lambd must be greater than or equal to 0, got {}", lv);
  });
}

aclnnStatus aclnnHardshrinkGetWorkspaceSize(const aclTensor* self, const aclScalar* lambd, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Hardshrink, {
    const aclTensor& s = b.input(self, "self");
    const aclScalar& l = b.scalar(lambd, "lambd");
    const aclTensor& o = b.output(out, "out");
    pacl::check_dtype_supported(b.op(), "lambd", l.dtype);
    pacl::plan_act<pacl::TypeSet::kFloating>(b, pacl::kShrink, s, o, false, [&](auto tag, pacl::DType) {
      using T = typename decltype(tag)::type;
      return pacl::HardshrinkOp<T>{pacl::act::float_attr<T>(l)};
    });
  });
}

aclnnStatus aclnnThresholdGetWorkspaceSize(const aclTensor* self, const aclScalar* threshold, const aclScalar* value,
                                           aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Threshold, {
    const aclTensor& s = b.input(self, "self");
    const aclScalar& th = b.scalar(threshold, "threshold");
    const aclScalar& va = b.scalar(value, "value");
    pacl::plan_threshold(b, pacl::Args{s, b.output(out, "out"), false}, th, va);
  });
}
aclnnStatus aclnnInplaceThresholdGetWorkspaceSize(aclTensor* selfRef, const aclScalar* threshold,
                                                  const aclScalar* value, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceThreshold, {
    const pacl::Args a = pacl::self_arg(b, selfRef, true);
    const aclScalar& th = b.scalar(threshold, "threshold");
    const aclScalar& va = b.scalar(value, "value");
    pacl::plan_threshold(b, a, th, va);
  });
}

PACL_ACT(LogSigmoid, LogSigmoidOp, pacl::kLogSigmoid)
aclnnStatus aclnnLogSigmoidForwardGetWorkspaceSize(const aclTensor* self, aclTensor* out, aclTensor* buffer,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)buffer;  // CANN documents it as unused
  return PACL_PHASE1(LogSigmoidForward,
                     pacl::plan_plain<pacl::LogSigmoidOp, pacl::kLogSigmoid>(b, pacl::self_out_args(b, self, out)));
}

}  // extern "C"
