// Unary ops of the mathx family: Lgamma, Digamma, Sinc (+ in place), Signbit, NanToNum (+ in place),
// AngleV2 and Real. Dtype lists are CANN's (Atlas A2); values follow PyTorch:
//  - lgamma(x) = log|Gamma(x)| (+inf at 0 and the negative integers);
//  - digamma(+-0) = -+inf, NaN at the negative integers and -inf, reflection below 0, recurrence
//    up to 10 and the asymptotic series above;
//  - sinc(0) = 1, else sin(pi x) / (pi x); integer and bool inputs compute in float32;
//  - signbit is the sign bit (true for -0.0, false for every unsigned and bool value);
//  - NanToNum replaces NaN / +inf / -inf by the given float values (converted to self's dtype);
//    integer and bool tensors are copied;
//  - AngleV2: pi for negative reals, NaN for NaN, else 0; atan2(imag, real) for complex64.
//  - Real: the real part of complex64/complex128 (float32/float64), a copy of float16/float32.
#include <math.h>

#include <cmath>
#include <complex>
#include <type_traits>

#include "aclnnop/aclnn_angle_v2.h"
#include "aclnnop/aclnn_digamma.h"
#include "aclnnop/aclnn_lgamma.h"
#include "aclnnop/aclnn_nan_to_num.h"
#include "aclnnop/aclnn_real.h"
#include "aclnnop/aclnn_signbit.h"
#include "aclnnop/aclnn_sinc.h"
#include "core/dense.h"
#include "core/parallel.h"
#include "core/phase.h"
#include "ops/mathx_common.h"
#include "ops/registry.h"
#include "ops/unary_op.h"

namespace pacl {
namespace {

// ---- functors -----------------------------------------------------------------------------------

template <typename T>
struct LgammaOp {
  T operator()(T a) const {
    int sign = 0;
    if constexpr (std::is_same_v<T, float>) return ::lgammaf_r(a, &sign);  // the _r forms do not write signgam
    else return ::lgamma_r(a, &sign);
  }
};

double digamma(double x) {
  if (x == 0) return std::copysign(HUGE_VAL, -x);
  if (std::isnan(x)) return x;
  if (x < 0) {
    if (x == std::trunc(x)) return std::nan("");  // negative integers and -inf
    // tan has period pi: reduce x to [-1/2, 1/2] (exactly) so that pi * r keeps its precision.
    const double r = x - std::nearbyint(x);
    return digamma(1 - x) - M_PI / std::tan(M_PI * r);
  }
  if (std::isinf(x)) return x;
  double result = 0;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  // psi(x) ~ log x - 1/(2x) - sum_k B_2k / (2k x^2k)
  const double z = 1 / (x * x);
  const double tail =
      z * (1.0 / 12 - z * (1.0 / 120 - z * (1.0 / 252 - z * (1.0 / 240 - z * (1.0 / 132 - z * (691.0 / 32760 - z / 12))))));
  return result + std::log(x) - 0.5 / x - tail;
}

template <typename T>
struct DigammaOp {
  T operator()(T a) const { return static_cast<T>(digamma(static_cast<double>(a))); }
};

template <typename T>
struct SincOp {
  T operator()(T a) const {
    if (a == T(0)) return T(1);
    const T x = static_cast<T>(M_PI) * a;
    return std::sin(x) / x;
  }
};

template <typename T>
struct SignbitOp {
  bool operator()(T a) const {
    if constexpr (std::is_floating_point_v<T>) return std::signbit(a);
    else if constexpr (std::is_signed_v<T>) return a < 0;
    else return false;
  }
};

template <typename T>
struct NanToNumOp {
  float nan, posinf, neginf;
  T operator()(T a) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(a)) return static_cast<T>(nan);
      if (std::isinf(a)) return static_cast<T>(a > 0 ? posinf : neginf);
    }
    return a;
  }
};

template <typename T>
struct AngleOp {
  T operator()(T a) const {
    if (std::isnan(a)) return a;
    return a < 0 ? static_cast<T>(M_PI) : T(0);
  }
};

// ---- specs ----------------------------------------------------------------------------------------

constexpr DTypeMask kGammaTypes = dtype_mask({DType::kDouble, DType::kFloat, DType::kFloat16});
constexpr UnaryOpSpec kGamma{kGammaTypes, 0, 0, UnaryCompute::kSelf, UnaryOut::kSame};

constexpr UnaryOpSpec kSinc{kAllTypes, kFloatingTypes, kFloatingTypes, UnaryCompute::kFloat, UnaryOut::kCastable};

constexpr UnaryOpSpec kSignbit{kAllTypes, kAllTypes, 0, UnaryCompute::kSelf, UnaryOut::kList};

constexpr DTypeMask kNanToNumTypes = kAllTypes & ~dtype_mask({DType::kDouble});
constexpr UnaryOpSpec kNanToNum{kNanToNumTypes, 0, kNanToNumTypes, UnaryCompute::kSelf, UnaryOut::kSame};

constexpr DTypeMask kAngleOut = dtype_mask({DType::kFloat16, DType::kFloat, DType::kBFloat16});
constexpr DTypeMask kAngleReal = kAllTypes & ~dtype_mask({DType::kDouble});
constexpr UnaryOpSpec kAngle{kAngleReal, kAngleOut, 0, UnaryCompute::kFloat, UnaryOut::kCastable};

// ---- Signbit, NanToNum ----------------------------------------------------------------------------

void plan_signbit(OpBuilder& b, const aclTensor* self, const aclTensor* out) {
  if (self && out) check_dtype_cann(b.op(), "self", live(self, "self").dtype, kAllTypes | kWideUnsignedTypes, kAllTypes);
  if (self && out) check_dtype_cann(b.op(), "out", live(out, "out").dtype, kAllTypes | kWideUnsignedTypes, kAllTypes);
  plan_unary_op<SignbitOp, kSignbit>(b, self, "self", out, "out", false);
}

void plan_nan_to_num(OpBuilder& b, const aclTensor* self, float nan, float posinf, float neginf, const aclTensor* out,
                     bool inplace) {
  const char* self_name = inplace ? "selfRef" : "self";
  plan_unary_op<kNanToNum>(b, self, self_name, out, "out", inplace, [=](auto tag) {
    return NanToNumOp<typename decltype(tag)::type>{nan, posinf, neginf};
  });
}

// ---- AngleV2 --------------------------------------------------------------------------------------

void plan_angle(OpBuilder& b, const aclTensor* x_arg, const aclTensor* out_arg) {
  if (!x_arg || live(x_arg, "x").dtype != DType::kComplex64) {
    plan_unary_op<AngleOp, kAngle>(b, x_arg, "x", out_arg, "out", false);
    return;
  }
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "out", out.dtype, kAngleOut);
  check_rank(x, "x");
  if (out.view != x.view) invalid("out has shape {}, expected the shape of x {}", dims_str(out.view), dims_str(x.view));
  if (out.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int in = p.input(x, DType::kComplex64);
  const int o = p.output(out, DType::kFloat);
  const int64_t n = out.numel();
  p.finish("angle.complex64", [=](const DenseArgs& a) {
    const std::complex<float>* src = a.in<std::complex<float>>(in);
    float* dst = a.out<float>(o);
    parallel_for(n, 32768, [&](int64_t lo, int64_t hi, int) {
      for (int64_t i = lo; i < hi; ++i) dst[i] = std::atan2(src[i].imag(), src[i].real());
    });
  });
}

// ---- Real -----------------------------------------------------------------------------------------

constexpr DTypeMask kRealCann = dtype_mask({DType::kFloat, DType::kFloat16, DType::kComplex32, DType::kComplex64,
                                            DType::kComplex128});
constexpr DTypeMask kRealHere = dtype_mask({DType::kFloat, DType::kFloat16, DType::kComplex64, DType::kComplex128});

// A real self is copied; a complex one is read as its float parts (element strides doubled).
void plan_real(OpBuilder& b, const aclTensor* self_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_cann(b.op(), "self", self.dtype, kRealCann, kRealHere);
  const DType part = self.dtype == DType::kComplex64    ? DType::kFloat
                     : self.dtype == DType::kComplex128 ? DType::kDouble
                                                        : self.dtype;
  if (out.dtype != part)
    invalid("out dtype {} must be {} for self dtype {}", dtype_name(out.dtype), dtype_name(part), dtype_name(self.dtype));
  check_rank(self, "self");
  if (out.view != self.view)
    invalid("out has shape {}, expected the shape of self {}", dims_str(out.view), dims_str(self.view));
  if (out.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int src = p.strided(self);
  const int dst = p.output(out, part);
  const Dims shape = self.view;
  Dims strides = self.strides;
  if (part != self.dtype)
    for (int64_t& s : strides) s *= 2;
  p.finish(std::string("real.") + dtype_name(self.dtype), [=](const DenseArgs& a) {
    copy_strided(shape, part, a.ptr(dst), contiguous_strides(shape), part, a.ptr(src), strides);
  });
}

}  // namespace
}  // namespace pacl

#define PACL_PHASE1(Name, ...)                                                                     \
  pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor, \
                   [&](pacl::OpBuilder& b) { __VA_ARGS__; })

extern "C" {

PACL_UNARY_OP(Lgamma, const aclTensor*, self, aclTensor*, out, LgammaOp, pacl::kGamma)
PACL_UNARY_OP(Digamma, const aclTensor*, self, aclTensor*, out, DigammaOp, pacl::kGamma)
PACL_UNARY_OP(Sinc, const aclTensor*, self, aclTensor*, out, SincOp, pacl::kSinc)
PACL_UNARY_OP_INPLACE(Sinc, aclTensor*, selfRef, SincOp, pacl::kSinc)

aclnnStatus aclnnSignbitGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return PACL_PHASE1(Signbit, pacl::plan_signbit(b, self, out));
}

aclnnStatus aclnnNanToNumGetWorkspaceSize(const aclTensor* self, float nan, float posinf, float neginf, aclTensor* out,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(NanToNum, pacl::plan_nan_to_num(b, self, nan, posinf, neginf, out, false));
}
aclnnStatus aclnnInplaceNanToNumGetWorkspaceSize(aclTensor* selfRef, float nan, float posinf, float neginf,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceNanToNum, pacl::plan_nan_to_num(b, selfRef, nan, posinf, neginf, selfRef, true));
}

aclnnStatus aclnnAngleV2GetWorkspaceSize(const aclTensor* x, const aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return PACL_PHASE1(AngleV2, pacl::plan_angle(b, x, out));
}

aclnnStatus aclnnRealGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return PACL_PHASE1(Real, pacl::plan_real(b, self, out));
}

}  // extern "C"
