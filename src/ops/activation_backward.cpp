// Gradients of the activation ops: binary elementwise ops of gradOutput and the forward input (or
// output). A GradSpec holds the dtypes CANN's 910B op_api accepts and whether the three tensors must
// share one dtype (else gradOutput and self promote, and the result is cast to the output);
// plan_grad does the checks and builds the kernel.
#include <cmath>

#include "aclnnop/aclnn_gelu_backward.h"
#include "aclnnop/aclnn_hardswish_backward.h"
#include "aclnnop/aclnn_leaky_relu_backward.h"
#include "aclnnop/aclnn_sigmoid_backward.h"
#include "aclnnop/aclnn_silu_backward.h"
#include "aclnnop/aclnn_tanh_backward.h"
#include "aclnnop/aclnn_threshold_backward.h"
#include "core/phase.h"
#include "ops/activation.h"
#include "ops/elementwise_op.h"
#include "ops/registry.h"

namespace pacl {
namespace {

using act::float_attr;
using act::sigmoid;

// ---- functors: (gradOutput, x) -> gradInput ----------------------------------------------------------

// d/dx [x s(z)], z = 2u = 2 sqrt(2/pi) (x + 0.044715 x^3): s(z) + x s(z) (1 - s(z)) z'. The second
// term is 0 in the limit |x| -> inf, where it evaluates to inf * 0 (CANN's kernel selects 0 there too).
template <typename T>
struct GeluBackwardOp {
  T operator()(T g, T x) const {
    constexpr T kB = T(1.5957691216057308);    // 2 sqrt(2/pi)
    constexpr T kA3 = T(0.21406444881780074);  // 3 * 0.044715 * 2 sqrt(2/pi)
    const T z = kB * (x + T(0.044715) * x * x * x);
    const T e = std::exp(-std::fabs(z));
    const T s = z >= T(0) ? T(1) / (T(1) + e) : e / (T(1) + e);
    const T ds = e / ((T(1) + e) * (T(1) + e));  // s (1 - s)
    T term = x * (kB + kA3 * x * x) * ds;
    if (!std::isfinite(term) && x == x) term = T(0);
    return g * (s + term);
  }
};
// s(x) (1 + x (1 - s(x))), with 1 - s(x) = s(-x) to keep its precision for large x.
template <typename T>
struct SiluBackwardOp {
  T operator()(T g, T x) const { return g * sigmoid(x) * (T(1) + x * sigmoid(-x)); }
};
template <typename T>
struct SigmoidBackwardOp {
  T operator()(T g, T y) const { return g * y * (T(1) - y); }
};
template <typename T>
struct TanhBackwardOp {
  T operator()(T g, T y) const { return g * (T(1) - y * y); }
};
// CANN compares in float32 with a float32 threshold (NaN passes the gradient, as in PyTorch).
template <typename T>
struct ThresholdBackwardOp {
  float threshold;
  T operator()(T g, T x) const { return static_cast<float>(x) <= threshold ? T(0) : g; }
};
template <typename T>
struct HardswishBackwardOp {
  T operator()(T g, T x) const {
    if (x < T(-3)) return T(0);
    return x <= T(3) ? g * (x / T(3) + T(0.5)) : g;
  }
};
template <typename T>
struct LeakyReluBackwardOp {
  T slope;
  T operator()(T g, T x) const { return x > T(0) ? g : g * slope; }
};

// ---- specs and planning -----------------------------------------------------------------------------

constexpr DType F32 = DType::kFloat, F16 = DType::kFloat16, BF16 = DType::kBFloat16, F64 = DType::kDouble;
constexpr DTypeMask kF3 = dtype_mask({F32, F16, BF16});
constexpr DTypeMask kF4 = kF3 | dtype_mask({F64});

struct GradSpec {
  DTypeMask in;             // accepted for gradOutput and x (and their promoted dtype)
  DTypeMask out;            // accepted for the output
  bool same_dtype;          // the three dtypes must be equal (else promote, result castable to out)
  bool broadcast = true;    // gradOutput and x broadcast (else all three shapes are equal)
  bool promoted_only = false;  // only the promoted dtype must be in `in`; inputs may be any compute dtype
};

constexpr GradSpec kGeluBackward{kF3, kF3, false, true, true};  // CANN checks the promoted dtype only
constexpr GradSpec kSiluBackward{kF3, kF3, true};
constexpr GradSpec kSigmoidBackward{kF4, kF4, false};
constexpr GradSpec kTanhBackward{kF4, kF4, true};
constexpr DTypeMask kThresholdBackwardTypes =
    dtype_mask({F32, F16, BF16, DType::kInt8, DType::kUInt8, DType::kInt32});
constexpr GradSpec kThresholdBackward{kThresholdBackwardTypes, kThresholdBackwardTypes, true};
constexpr GradSpec kHardswishBackward{kF3, kF3, true, false};
constexpr GradSpec kLeakyReluBackward{kF4, kF4, false};

// The three tensors, taken from the builder in parameter order by the caller.
struct GradArgs {
  const aclTensor& grad;
  const char* x_name;
  const aclTensor& x;
  const char* out_name;
  const aclTensor& out;
};

template <TypeSet Set, typename Make>
void plan_grad(OpBuilder& b, const GradSpec& spec, const GradArgs& a, Make&& make) {
  if (spec.promoted_only) {
    check_dtype_supported(b.op(), "gradOutput", a.grad.dtype);
    check_dtype_supported(b.op(), a.x_name, a.x.dtype);
  } else {
    check_dtype_in(b.op(), "gradOutput", a.grad.dtype, spec.in);
    check_dtype_in(b.op(), a.x_name, a.x.dtype, spec.in);
  }
  check_dtype_in(b.op(), a.out_name, a.out.dtype, spec.out);
  DType compute = a.grad.dtype;
  if (spec.same_dtype) {
    if (a.x.dtype != a.grad.dtype)
      invalid("{} dtype {} must equal gradOutput dtype {}", a.x_name, dtype_name(a.x.dtype), dtype_name(a.grad.dtype));
    if (a.out.dtype != a.grad.dtype)
      invalid("{} dtype {} must equal gradOutput dtype {}", a.out_name, dtype_name(a.out.dtype),
              dtype_name(a.grad.dtype));
  } else {
    compute = promote(a.grad.dtype, a.x.dtype);
    if (!in_mask(spec.in, compute))
      invalid("gradOutput dtype {} and {} dtype {} promote to {}, which is not supported; supported: {}",
              dtype_name(a.grad.dtype), a.x_name, dtype_name(a.x.dtype), dtype_name(compute), mask_names(spec.in));
    check_can_cast(compute, a.out, a.out_name);
  }
  check_rank(a.grad, "gradOutput");
  check_rank(a.x, a.x_name);
  Dims shape = a.x.view;
  if (spec.broadcast) {
    shape = broadcast_shapes(a.grad.view, "gradOutput", a.x.view, a.x_name);
  } else if (a.grad.view != a.x.view) {
    invalid("gradOutput has shape {} but {} has shape {}; they must be equal", dims_str(a.grad.view), a.x_name,
            dims_str(a.x.view));
  }
  check_shape_equals(a.out, a.out_name, shape);
  std::array<EwInput, 2> in{EwInput{&a.grad, nullptr}, EwInput{&a.x, nullptr}};
  plan_elementwise<2, Set>(b, std::string("elementwise.") + b.op().name, compute, a.out, in, make);
}

template <template <typename> class F, const GradSpec& spec>
void plan_plain_grad(OpBuilder& b, const GradArgs& a) {
  plan_grad<TypeSet::kFloating>(b, spec, a, [](auto tag) {
    using T = typename decltype(tag)::type;
    return F<T>{};
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
// Gradient ops (gradOutput, x, out) without attributes.
#define PACL_GRAD(Name, Functor, spec, XName, OutName)                                                  \
  return PACL_PHASE1(Name, {                                                                           \
    const aclTensor& g = b.input(gradOutput, "gradOutput");                                            \
    const aclTensor& xt = b.input(XName, #XName);                                                      \
    const aclTensor& o = b.output(OutName, #OutName);                                                  \
    pacl::plan_plain_grad<pacl::Functor, spec>(b, pacl::GradArgs{g, #XName, xt, #OutName, o});         \
  })

extern "C" {

aclnnStatus aclnnGeluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                              const aclTensor* gradInput, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  PACL_GRAD(GeluBackward, GeluBackwardOp, pacl::kGeluBackward, self, gradInput);
}

aclnnStatus aclnnSiluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, aclTensor* gradInput,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  PACL_GRAD(SiluBackward, SiluBackwardOp, pacl::kSiluBackward, self, gradInput);
}

aclnnStatus aclnnSigmoidBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
                                                 aclTensor* gradInput, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  PACL_GRAD(SigmoidBackward, SigmoidBackwardOp, pacl::kSigmoidBackward, output, gradInput);
}

aclnnStatus aclnnTanhBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
                                              aclTensor* gradInput, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  PACL_GRAD(TanhBackward, TanhBackwardOp, pacl::kTanhBackward, output, gradInput);
}

aclnnStatus aclnnHardswishBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  PACL_GRAD(HardswishBackward, HardswishBackwardOp, pacl::kHardswishBackward, self, out);
}

aclnnStatus aclnnThresholdBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                   const aclScalar* threshold, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(ThresholdBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& x = b.input(self, "self");
    const aclScalar& th = b.scalar(threshold, "threshold");
    const aclTensor& o = b.output(out, "out");
    pacl::check_dtype_supported(b.op(), "threshold", th.dtype);
    const float t = pacl::act::float_attr<float>(th);
    pacl::plan_grad<pacl::TypeSet::kNumeric>(b, pacl::kThresholdBackward, pacl::GradArgs{g, "self", x, "out", o},
                                             [&](auto tag) {
                                               using T = typename decltype(tag)::type;
                                               return pacl::ThresholdBackwardOp<T>{t};
                                             });
  });
}

aclnnStatus aclnnLeakyReluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                   const aclScalar* negativeSlope, bool selfIsResult, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(LeakyReluBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& x = b.input(self, "self");
    const aclScalar& slope = b.scalar(negativeSlope, "negativeSlope");
    const aclTensor& o = b.output(out, "out");
    pacl::check_dtype_supported(b.op(), "negativeSlope", slope.dtype);
    pacl::plan_grad<pacl::TypeSet::kFloating>(b, pacl::kLeakyReluBackward, pacl::GradArgs{g, "self", x, "out", o},
                                              [&](auto tag) {
                                                using T = typename decltype(tag)::type;
                                                return pacl::LeakyReluBackwardOp<T>{pacl::act::float_attr<T>(slope)};
                                              });
    if (selfIsResult && slope.to_double() < 0)
      pacl::invalid("negativeSlope {} is negative while selfIsResult is true: the forward pass must not have run "
                    "in place with a negative slope",
                    slope.to_double());
  });
}

}  // extern "C"
