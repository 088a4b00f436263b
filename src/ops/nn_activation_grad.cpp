// Activation gradients of the nn family: EluBackward, FastGeluBackward, GeluBackwardV2,
// HardshrinkBackward, HardsigmoidBackward, HardswishBackwardV2, HardtanhBackward, LogSigmoidBackward,
// MishBackward, SeluBackward, SoftshrinkBackward, SoftplusBackward, SwishBackward, PreluBackward.
//
// Each is a functor (gradOutput, x) -> gradInput on the shared elementwise engine; the argument
// checks follow each op's CANN op_api (one dtype for all, or gradOutput and self promoted; equal
// shapes, or broadcast). Where a derivative is 0 the result is 0 whatever gradOutput is (a
// selection, as PyTorch's backward kernels do). PreluBackward also reduces g * x over every dim but
// the channel dim into gradWeight (in double, deterministic).
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_elu_backward.h"
#include "aclnnop/aclnn_fast_gelu_backward.h"
#include "aclnnop/aclnn_gelu_backward_v2.h"
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "aclnnop/aclnn_hardswish_backward_v2.h"
#include "aclnnop/aclnn_hardtanh_backward.h"
#include "aclnnop/aclnn_logsigmoid_backward.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "aclnnop/aclnn_prelu_backward.h"
#include "aclnnop/aclnn_selu_backward.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "aclnnop/aclnn_softshrink_backward.h"
#include "aclnnop/aclnn_swish_backward.h"
#include "core/phase.h"
#include "ops/activation.h"
#include "ops/nn_math.h"
#include "ops/nn_steps.h"
#include "ops/registry.h"

namespace pacl {
namespace {

using nn::StepArgs;
using nn::StepPlan;
using nn::View;

constexpr DType F32 = DType::kFloat, F16 = DType::kFloat16, BF16 = DType::kBFloat16, F64 = DType::kDouble;
constexpr DTypeMask kF3 = dtype_mask({F32, F16, BF16});
constexpr DTypeMask kF4 = kF3 | dtype_mask({F64});

#define PACL_T using T = typename decltype(tag)::type

// ---- functors (g, x) -> gradInput ------------------------------------------------------------------------

template <typename T>
struct EluGradOp {
  T alpha_scale, scale, input_scale;
  bool is_result;
  T operator()(T g, T x) const {
    if (x > T(0)) return g * scale;
    if (is_result) return g * input_scale * (x + alpha_scale);
    return g * input_scale * alpha_scale * std::exp(x * input_scale);
  }
};
// s (1 + 1.702 x (1 - s)), s = sigmoid(1.702 x)
template <typename T>
struct FastGeluGradOp {
  T operator()(T g, T x) const {
    const T z = T(1.702) * x;
    return g * nn::sigmoid(z) * (T(1) + z * nn::sigmoid(-z));
  }
};
template <typename T>
struct GeluGradV2Op {
  bool tanh_form;
  T operator()(T g, T x) const { return g * nn::gelu_grad(x, tanh_form); }
};
template <typename T>
struct ShrinkGradOp {  // Hardshrink and Softshrink: g where |x| > lambd, else 0 (NaN: 0)
  T lambd;
  T operator()(T g, T x) const { return x > lambd || x < -lambd ? g : T(0); }
};
template <typename T>
struct HardsigmoidGradOp {
  T operator()(T g, T x) const { return x > T(-3) && x < T(3) ? g / T(6) : T(0); }
};
template <typename T>
struct HardswishGradV2Op {
  T operator()(T g, T x) const {
    if (x <= T(-3)) return T(0);
    if (x >= T(3)) return g;
    return g * ((x + T(1.5)) / T(3));  // x / 3 + 0.5 without its cancellation near -1.5
  }
};
template <typename T>
struct HardtanhGradOp {
  T lo, hi;
  T operator()(T g, T x) const { return x > hi || x < lo ? T(0) : g; }
};
// d/dx log sigmoid(x) = 1 / (1 + e^x) = sigmoid(-x)
template <typename T>
struct LogSigmoidGradOp {
  T operator()(T g, T x) const { return g * nn::sigmoid(-x); }
};
// mish'(x) = t + x sigmoid(x) (1 - t^2), t = tanh(softplus(x)) = n / (n + 2), n = e^x (e^x + 2),
// 1 - t^2 = 4 (n + 1) / (n + 2)^2. Past x = 20 the second term is below 1e-16 relative.
template <typename T>
struct MishGradOp {
  T operator()(T g, T x) const {
    if (x > T(20)) return g;
    const T e = std::exp(x), n = e * (e + T(2)), d = n + T(2);
    return g * (n / d + x * nn::sigmoid(x) * (T(4) * (n + T(1)) / (d * d)));
  }
};
// From the forward result y: y <= 0: g (y + scale alpha), else g scale. Integer dtypes compute in
// float32 and truncate.
template <typename T>
struct SeluGradOp {
  bool trunc;
  T operator()(T g, T y) const {
    constexpr T kScale = T(1.0507009873554804934193349852946);
    constexpr T kScaleAlpha = T(1.0507009873554804934193349852946 * 1.6732632423543772848170429916717);
    const T r = y <= T(0) ? g * (y + kScaleAlpha) : g * kScale;
    return trunc ? std::trunc(r) : r;
  }
};
template <typename T>
struct SoftplusGradOp {
  T beta, threshold;
  T operator()(T g, T x) const {
    const T z = beta * x;
    return z > threshold ? g : g * nn::sigmoid(z);
  }
};
// s(bx) (1 + b x (1 - s(bx)))
template <typename T>
struct SwishGradOp {
  T beta;
  T operator()(T g, T x) const {
    const T z = beta * x;
    return g * nn::sigmoid(z) * (T(1) + z * nn::sigmoid(-z));
  }
};
template <typename T>
struct PreluGradInputOp {  // (g, x, w)
  T operator()(T g, T x, T w) const { return x > T(0) ? g : g * w; }
};
template <typename T>
struct PreluGradWeightTermOp {  // (g, x)
  T operator()(T g, T x) const { return x > T(0) ? T(0) : g * x; }
};

// ---- shared checks ---------------------------------------------------------------------------------------

void same_dtype(const aclTensor& t, const char* name, const aclTensor& ref, const char* ref_name) {
  if (t.dtype != ref.dtype)
    invalid("{} dtype {} must equal {} dtype {}", name, dtype_name(t.dtype), ref_name, dtype_name(ref.dtype));
}
void same_shape(const aclTensor& t, const char* name, const aclTensor& ref, const char* ref_name) {
  if (t.view != ref.view)
    invalid("{} has shape {}, expected the shape of {} {}", name, dims_str(t.view), ref_name, dims_str(ref.view));
}
DType promoted(const OpInfo& op, const aclTensor& a, const char* an, const aclTensor& b, const char* bn,
               DTypeMask allowed) {
  const DType p = promote(a.dtype, b.dtype);
  if (p == DType::kUndefined || !in_mask(allowed, p))
    invalid("{} dtype {} and {} dtype {} promote to {}, which aclnn{} does not support; supported: {}", an,
            dtype_name(a.dtype), bn, dtype_name(b.dtype), dtype_name(p), op.name, mask_names(allowed));
  return p;
}
float float_scalar(const OpInfo& op, const aclScalar& s, const char* name) {
  check_dtype_supported(op, name, s.dtype);
  if (!can_cast(s.dtype, F32)) invalid("{} dtype {} cannot be cast to float32", name, dtype_name(s.dtype));
  return act::float_attr<float>(s);
}

// The three tensors of a gradient op, taken from the builder in parameter order by the caller.
struct G {
  const aclTensor& g;
  const char* g_name;
  const aclTensor& x;
  const char* x_name;
  const aclTensor& out;
  const char* out_name;
};

// out = f(g, x) over out's shape (g and x broadcast to it), computed in `compute`.
template <TypeSet Set = TypeSet::kFloating, typename Make>
void run_grad(OpBuilder& b, const G& a, DType compute, Make&& make) {
  std::array<EwInput, 2> in{EwInput{&a.g, nullptr}, EwInput{&a.x, nullptr}};
  plan_elementwise<2, Set>(b, std::string("elementwise.") + b.op().name, compute, a.out, in, make);
}

// All three of one dtype in `types`, all three of one shape (rank <= 8 unless limited otherwise).
DType same_all(OpBuilder& b, const G& a, DTypeMask types) {
  check_dtype_in(b.op(), a.g_name, a.g.dtype, types);
  check_dtype_in(b.op(), a.x_name, a.x.dtype, types);
  check_dtype_in(b.op(), a.out_name, a.out.dtype, types);
  same_dtype(a.x, a.x_name, a.g, a.g_name);
  same_dtype(a.out, a.out_name, a.g, a.g_name);
  check_rank(a.g, a.g_name);
  check_rank(a.x, a.x_name);
  same_shape(a.x, a.x_name, a.g, a.g_name);
  same_shape(a.out, a.out_name, a.g, a.g_name);
  return a.g.dtype;
}

// gradOutput and x promote (to a dtype in `types`), the result is castable to out; shapes broadcast.
DType promote_broadcast(OpBuilder& b, const G& a, DTypeMask types, bool broadcast = true) {
  check_dtype_in(b.op(), a.g_name, a.g.dtype, types);
  check_dtype_in(b.op(), a.x_name, a.x.dtype, types);
  check_dtype_in(b.op(), a.out_name, a.out.dtype, types);
  const DType p = promoted(b.op(), a.g, a.g_name, a.x, a.x_name, types);
  check_can_cast(p, a.out, a.out_name);
  check_rank(a.g, a.g_name);
  check_rank(a.x, a.x_name);
  check_rank(a.out, a.out_name);
  if (broadcast) {
    check_shape_equals(a.out, a.out_name, broadcast_shapes(a.g.view, a.g_name, a.x.view, a.x_name));
  } else {
    same_shape(a.x, a.x_name, a.g, a.g_name);
    same_shape(a.out, a.out_name, a.g, a.g_name);
  }
  return p;
}

// ---- PreluBackward ---------------------------------------------------------------------------------------

void plan_prelu_backward(OpBuilder& b, const aclTensor& g, const aclTensor& x, const aclTensor& w,
                         const aclTensor& gi, const aclTensor& gw) {
  check_dtype_in(b.op(), "self", x.dtype, kF3);
  same_dtype(g, "gradOutput", x, "self");
  same_dtype(w, "weight", x, "self");
  same_dtype(gi, "gradInput", x, "self");
  same_dtype(gw, "gradWeight", x, "self");
  for (const auto& [t, n] : {std::pair<const aclTensor*, const char*>{&g, "gradOutput"}, {&x, "self"}, {&w, "weight"},
                             {&gi, "gradInput"}, {&gw, "gradWeight"}})
    check_rank(*t, n);
  same_shape(gi, "gradInput", x, "self");
  const int64_t channels = x.dim() > 1 ? x.view[1] : 1;
  if (w.numel() != 1) {
    if (x.dim() < 1) invalid("self is a 0-d tensor; weight with {} elements needs a channel dim", w.numel());
    if (w.numel() != channels)
      invalid("weight has {} elements ({}), expected 1 or the channel count (dim 1) of self {}", w.numel(),
              w.describe(), channels);
    if (gw.view != Dims{channels})
      invalid("gradWeight has shape {}, expected [{}]", dims_str(gw.view), channels);
  } else {
    same_shape(gw, "gradWeight", w, "weight");
  }
  const Dims shape = broadcast_shapes(x.view, "self", g.view, "gradOutput");
  if (shape != x.view)
    invalid("gradOutput {} broadcast with self {} gives {}, expected the shape of self", dims_str(g.view),
            dims_str(x.view), dims_str(shape));
  StepPlan s(b);
  const DType c = arithmetic_dtype(x.dtype);
  const View gv = s.broadcast(g, x.view), xv = s.tensor(x);
  if (x.numel() > 0) {
    const View wd = s.dense_input(w, w.dtype);
    Dims ws(x.view.size(), 0);
    if (w.numel() != 1) ws[1] = 1;
    s.elementwise<3>(c, x.view, s.tensor(gi), {gv, xv, wd.with_strides(ws)}, [](auto tag) {
      PACL_T;
      return PreluGradInputOp<T>{};
    });
  }
  // gradWeight[c] = sum over [outer, c, inner] of (x > 0 ? 0 : g x), accumulated in double.
  const int64_t n = x.numel();
  const bool per_channel = w.numel() != 1;
  const int64_t outer = per_channel ? x.view[0] : 1;
  const int64_t ch = per_channel ? channels : 1;
  const int64_t inner = ch > 0 && outer > 0 ? n / (outer * ch) : 0;
  const View terms = s.buffer(c, x.view);
  if (n > 0)
    s.elementwise<2>(c, x.view, terms, {gv, xv}, [](auto tag) {
      PACL_T;
      return PreluGradWeightTermOp<T>{};
    });
  const View gwd = s.dense_output(gw, F64);
  s.step([=](const StepArgs& a) {
    double* dst = a.get<double>(gwd.ref);
    for (int64_t k = 0; k < ch; ++k) {
      double acc = 0;
      for (int64_t o = 0; o < outer; ++o) {
        const int64_t base = (o * ch + k) * inner;
        if (c == F64) {
          const double* p = a.get<const double>(terms.ref) + base;
          for (int64_t i = 0; i < inner; ++i) acc += p[i];
        } else {
          const float* p = a.get<const float>(terms.ref) + base;
          for (int64_t i = 0; i < inner; ++i) acc += static_cast<double>(p[i]);
        }
      }
      dst[k] = acc;
    }
  });
  s.finish(std::string("prelu_backward.") + dtype_name(x.dtype));
}

}  // namespace
}  // namespace pacl

// ---- phase-1 entry points -------------------------------------------------------------------------

using pacl::OpBuilder;

#define PACL_PHASE1(Name, ...)                                                                                    \
  pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) { \
    __VA_ARGS__;                                                                                                  \
  })

// The three tensors as G, from the builder in parameter order.
#define PACL_G(GradArg, GName, XArg, XName, OutArg, OutName)                                                 \
  const aclTensor& g_ = b.input(GradArg, GName);                                                             \
  const aclTensor& x_ = b.input(XArg, XName);                                                                \
  const pacl::G a{g_, GName, x_, XName, b.output(OutArg, OutName), OutName}

extern "C" {

aclnnStatus aclnnEluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclScalar* alpha,
                                             const aclScalar* scale, const aclScalar* inputScale, bool isResult,
                                             const aclTensor* selfOrResult, aclTensor* gradInput,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(EluBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclScalar& al = b.scalar(alpha, "alpha");
    const aclScalar& sc = b.scalar(scale, "scale");
    const aclScalar& is = b.scalar(inputScale, "inputScale");
    const aclTensor& x = b.input(selfOrResult, "selfOrResult");
    const aclTensor& o = b.output(gradInput, "gradInput");
    pacl::same_dtype(x, "selfOrResult", g, "gradOutput");
    pacl::check_dtype_in(b.op(), "gradOutput", g.dtype, pacl::kF3);
    const float a_ = pacl::float_scalar(b.op(), al, "alpha");
    const float s_ = pacl::float_scalar(b.op(), sc, "scale");
    const float i_ = pacl::float_scalar(b.op(), is, "inputScale");
    pacl::check_dtype_in(b.op(), "gradInput", o.dtype, pacl::kF3);
    pacl::check_can_cast(g.dtype, o, "gradInput");
    pacl::same_shape(x, "selfOrResult", g, "gradOutput");
    pacl::same_shape(o, "gradInput", g, "gradOutput");
    pacl::check_rank(g, "gradOutput");
    if (isResult && a_ < 0) pacl::invalid("alpha {} must not be negative when isResult is true", a_);
    pacl::run_grad(b, pacl::G{g, "gradOutput", x, "selfOrResult", o, "gradInput"}, g.dtype, [&](auto tag) {
      PACL_T;
      return pacl::EluGradOp<T>{static_cast<T>(a_ * s_), static_cast<T>(s_), static_cast<T>(i_), isResult};
    });
  });
}

aclnnStatus aclnnFastGeluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                  aclTensor* gradInput, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return PACL_PHASE1(FastGeluBackward, {
    PACL_G(gradOutput, "gradOutput", self, "self", gradInput, "gradInput");
    const pacl::DType c = pacl::same_all(b, a, pacl::kF3);
    pacl::run_grad(b, a, c, [](auto tag) {
      PACL_T;
      return pacl::FastGeluGradOp<T>{};
    });
  });
}

aclnnStatus aclnnGeluBackwardV2GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, char* approximate,
                                                aclTensor* gradInput, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  return PACL_PHASE1(GeluBackwardV2, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& x = b.input(self, "self");
    if (!approximate) throw pacl::NullArgument("argument 'approximate' is null");
    const pacl::G a{g, "gradOutput", x, "self", b.output(gradInput, "gradInput"), "gradInput"};
    pacl::check_dtype_in(b.op(), "gradOutput", g.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "self", x.dtype, pacl::kF3);
    const pacl::DType p = pacl::promoted(b.op(), g, "gradOutput", x, "self", pacl::kF3);
    if (a.out.dtype != p)
      pacl::invalid("gradInput dtype {} must equal the promoted dtype {} of gradOutput and self",
                    pacl::dtype_name(a.out.dtype), pacl::dtype_name(p));
    pacl::check_rank(g, "gradOutput");
    pacl::check_rank(x, "self");
    pacl::check_shape_equals(a.out, "gradInput", pacl::broadcast_shapes(g.view, "gradOutput", x.view, "self"));
    const bool tanh_form = std::strcmp(approximate, "tanh") == 0;
    if (!tanh_form && std::strcmp(approximate, "none") != 0)
      pacl::invalid("approximate is \"{}\", expected \"none\" or \"tanh\"", approximate);
    pacl::run_grad(b, a, p, [&](auto tag) {
      PACL_T;
      return pacl::GeluGradV2Op<T>{tanh_form};
    });
  });
}

aclnnStatus aclnnHardshrinkBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                    const aclScalar* lambd, aclTensor* gradInput,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(HardshrinkBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& x = b.input(self, "self");
    const aclScalar& l = b.scalar(lambd, "lambd");
    const pacl::G a{g, "gradOutput", x, "self", b.output(gradInput, "gradInput"), "gradInput"};
    const pacl::DType p = pacl::promote_broadcast(b, a, pacl::kF3);
    const float lv = std::max(pacl::float_scalar(b.op(), l, "lambd"), 0.0f);  // a negative lambd counts as 0
    pacl::run_grad(b, a, p, [&](auto tag) {
      PACL_T;
      return pacl::ShrinkGradOp<T>{static_cast<T>(lv)};
    });
  });
}

aclnnStatus aclnnSoftshrinkBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                    const aclScalar* lambd, aclTensor* gradInput,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(SoftshrinkBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& x = b.input(self, "self");
    const aclScalar& l = b.scalar(lambd, "lambd");
    const pacl::G a{g, "gradOutput", x, "self", b.output(gradInput, "gradInput"), "gradInput"};
    const pacl::DType p = pacl::promote_broadcast(b, a, pacl::kF3);
    const float lv = pacl::float_scalar(b.op(), l, "lambd");
    if (lv < 0) pacl::invalid("lambd must be greater than or equal to 0, got {}", lv);
    pacl::run_grad(b, a, p, [&](auto tag) {
      PACL_T;
      return pacl::ShrinkGradOp<T>{static_cast<T>(lv)};
    });
  });
}

aclnnStatus aclnnHardsigmoidBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                     aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  return PACL_PHASE1(HardsigmoidBackward, {
    PACL_G(gradOutput, "gradOutput", self, "self", out, "out");
    const pacl::DType p = pacl::promote_broadcast(b, a, pacl::kF3, false);
    pacl::run_grad(b, a, p, [](auto tag) {
      PACL_T;
      return pacl::HardsigmoidGradOp<T>{};
    });
  });
}

aclnnStatus aclnnHardswishBackwardV2GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                     aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  return PACL_PHASE1(HardswishBackwardV2, {
    PACL_G(gradOutput, "gradOutput", self, "self", out, "out");
    const pacl::DType c = pacl::same_all(b, a, pacl::kF3);
    pacl::run_grad(b, a, c, [](auto tag) {
      PACL_T;
      return pacl::HardswishGradV2Op<T>{};
    });
  });
}

aclnnStatus aclnnHardtanhBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                  const aclScalar* min, const aclScalar* max, aclTensor* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(HardtanhBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& x = b.input(self, "self");
    const aclScalar& lo = b.scalar(min, "min");
    const aclScalar& hi = b.scalar(max, "max");
    const pacl::G a{g, "gradOutput", x, "self", b.output(out, "out"), "out"};
    const pacl::DType c = pacl::same_all(b, a, pacl::kF3);
    const float l = pacl::float_scalar(b.op(), lo, "min"), h = pacl::float_scalar(b.op(), hi, "max");
    pacl::run_grad(b, a, c, [&](auto tag) {
      PACL_T;
      return pacl::HardtanhGradOp<T>{static_cast<T>(l), static_cast<T>(h)};
    });
  });
}

aclnnStatus aclnnLogSigmoidBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                    const aclTensor* buffer, aclTensor* gradInput,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(LogSigmoidBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& x = b.input(self, "self");
    b.input(buffer, "buffer");  // documented as unused
    const pacl::G a{g, "gradOutput", x, "self", b.output(gradInput, "gradInput"), "gradInput"};
    const pacl::DType c = pacl::same_all(b, a, pacl::kF3);
    pacl::run_grad(b, a, c, [](auto tag) {
      PACL_T;
      return pacl::LogSigmoidGradOp<T>{};
    });
  });
}

aclnnStatus aclnnMishBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, aclTensor* gradInput,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(MishBackward, {
    PACL_G(gradOutput, "gradOutput", self, "self", gradInput, "gradInput");
    pacl::check_can_cast(x_.dtype, a.out, "gradInput");
    const pacl::DType p = pacl::promote_broadcast(b, a, pacl::kF3);
    pacl::run_grad(b, a, p, [](auto tag) {
      PACL_T;
      return pacl::MishGradOp<T>{};
    });
  });
}

aclnnStatus aclnnSeluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* result,
                                              aclTensor* gradInput, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  return PACL_PHASE1(SeluBackward, {
    PACL_G(gradOutput, "gradOutput", result, "result", gradInput, "gradInput");
    const pacl::DTypeMask types = pacl::kF3 | pacl::dtype_mask({pacl::DType::kInt32, pacl::DType::kInt8});
    const pacl::DType t = pacl::same_all(b, a, types);
    if (g_.dim() < 1) pacl::invalid("gradOutput is a 0-d tensor, expected 1 to 8 dims");
    const bool trunc = !pacl::is_floating(t);
    pacl::run_grad(b, a, trunc ? pacl::F32 : t, [&](auto tag) {
      PACL_T;
      return pacl::SeluGradOp<T>{trunc};
    });
  });
}

aclnnStatus aclnnSoftplusBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                  const aclScalar* beta, const aclScalar* threshold,
                                                  aclTensor* gradInput, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return PACL_PHASE1(SoftplusBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& x = b.input(self, "self");
    const aclScalar& be = b.scalar(beta, "beta");
    const aclScalar& th = b.scalar(threshold, "threshold");
    const aclTensor& o = b.output(gradInput, "gradInput");
    pacl::check_dtype_in(b.op(), "gradOutput", g.dtype, pacl::kF4);
    pacl::check_dtype_in(b.op(), "self", x.dtype, pacl::kF4 | pacl::kIntegralTypes | pacl::dtype_mask({pacl::DType::kBool}));
    pacl::check_dtype_in(b.op(), "gradInput", o.dtype, pacl::kF4);
    const float bv = pacl::float_scalar(b.op(), be, "beta"), tv = pacl::float_scalar(b.op(), th, "threshold");
    pacl::check_rank(g, "gradOutput");
    pacl::check_rank(x, "self");
    pacl::check_rank(o, "gradInput");
    pacl::same_shape(x, "self", g, "gradOutput");
    pacl::same_shape(o, "gradInput", x, "self");
    const pacl::DType c = g.dtype == pacl::F64 || x.dtype == pacl::F64 ? pacl::F64 : pacl::F32;
    pacl::run_grad(b, pacl::G{g, "gradOutput", x, "self", o, "gradInput"}, c, [&](auto tag) {
      PACL_T;
      return pacl::SoftplusGradOp<T>{static_cast<T>(bv), static_cast<T>(tv)};
    });
  });
}

aclnnStatus aclnnSwishBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                               const aclScalar* betaOptional, aclTensor* gradInput,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(SwishBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& x = b.input(self, "self");
    const aclScalar* be = betaOptional ? &b.scalar(betaOptional, "betaOptional") : nullptr;
    const pacl::G a{g, "gradOutput", x, "self", b.output(gradInput, "gradInput"), "gradInput"};
    const pacl::DType c = pacl::same_all(b, a, pacl::kF3);
    const float bv = be ? pacl::float_scalar(b.op(), *be, "betaOptional") : 1.0f;
    pacl::run_grad(b, a, c, [&](auto tag) {
      PACL_T;
      return pacl::SwishGradOp<T>{static_cast<T>(bv)};
    });
  });
}

aclnnStatus aclnnPreluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                               const aclTensor* weight, aclTensor* gradInput, aclTensor* gradWeight,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(PreluBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& x = b.input(self, "self");
    const aclTensor& w = b.input(weight, "weight");
    const aclTensor& gi = b.output(gradInput, "gradInput");
    const aclTensor& gw = b.output(gradWeight, "gradWeight");
    pacl::plan_prelu_backward(b, g, x, w, gi, gw);
  });
}

}  // extern "C"
