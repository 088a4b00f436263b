// Pointwise losses of the nn family and their gradients: MseLoss, L1Loss, SmoothL1Loss,
// SoftMarginLoss, BinaryCrossEntropy, BinaryCrossEntropyWithLogits (+ backward ops), KlDivBackward,
// KlDivTargetBackward, Logit, LogitGrad.
//
// A loss is an elementwise functor over the broadcast of its inputs. reduction 0 (none) writes it
// to out; 1 (mean) and 2 (sum) write it to a workspace buffer in the compute type, which a
// reduction step sums in double (fixed blocks, so the result does not depend on the thread count)
// into out's single element; mean divides by the element count (an empty input gives NaN, as
// 0 / 0 does; sum gives 0). A gradient is elementwise, the mean's 1/N folded into the functor.
// Inputs the engine's three operands cannot hold (weight, posWeight) go through a buffer step.
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_binary_cross_entropy.h"
#include "aclnnop/aclnn_binary_cross_entropy_backward.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "aclnnop/aclnn_kl_div_backward.h"
#include "aclnnop/aclnn_kl_div_target_backward.h"
#include "aclnnop/aclnn_l1_loss.h"
#include "aclnnop/aclnn_l1_loss_backward.h"
#include "aclnnop/aclnn_logit.h"
#include "aclnnop/aclnn_logit_grad.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_soft_margin_loss.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"
#include "core/phase.h"
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

#define PACL_T using T = typename decltype(tag)::type

// ---- functors ---------------------------------------------------------------------------------------------

template <typename T>
inline T softplus(T z) {  // log(1 + e^z) without overflow
  return (z > T(0) ? z : T(0)) + std::log1p(std::exp(-std::fabs(z)));
}
template <typename T>
inline T sign_keep(T d) {  // sign, keeping 0 and NaN
  return d > T(0) ? T(1) : d < T(0) ? T(-1) : d;
}

template <typename T>
struct MseOp {
  T operator()(T x, T y) const { return (x - y) * (x - y); }
};
template <typename T>
struct L1Op {
  T operator()(T x, T y) const { return std::fabs(x - y); }
};
template <typename T>
struct SmoothL1Op {
  T beta;
  T operator()(T x, T y) const {
    const T d = std::fabs(x - y);
    return d < beta ? T(0.5) * d * d / beta : d - T(0.5) * beta;
  }
};
template <typename T>
struct SoftMarginOp {
  T operator()(T x, T y) const { return softplus(-y * x); }
};
// -(y log x + (1 - y) log(1 - x)) with each log clamped at -100 (PyTorch, CANN's golden).
template <typename T>
struct BceOp {
  T operator()(T x, T y) const {
    const T lx = std::max(std::log(x), T(-100)), l1x = std::max(std::log1p(-x), T(-100));
    return -(y * lx + (T(1) - y) * l1x);
  }
};
template <typename T>
struct BceWeightOp {
  T operator()(T x, T y, T w) const { return w * BceOp<T>{}(x, y); }
};
// (1 - y) x + (1 + (pw - 1) y) softplus(-x)
template <typename T>
struct BceLogitsOp {
  T operator()(T x, T y) const { return (T(1) - y) * x + softplus(-x); }
};
template <typename T>
struct BceLogitsPosOp {
  T operator()(T x, T y, T pw) const { return (T(1) - y) * x + (T(1) + (pw - T(1)) * y) * softplus(-x); }
};
template <typename T>
struct MulOp {
  T operator()(T a, T b) const { return a * b; }
};
template <typename T>
struct ScaledMulOp {
  T scale;
  T operator()(T a, T b) const { return a * b * scale; }
};

// ---- gradients (g, x, y) -> d/dx, times `norm` (1 / N for mean) --------------------------------------------

template <typename T>
struct MseGradOp {
  T norm;
  T operator()(T g, T x, T y) const { return T(2) * (x - y) * g * norm; }
};
template <typename T>
struct L1GradOp {
  T norm;
  T operator()(T g, T x, T y) const { return sign_keep(x - y) * g * norm; }
};
template <typename T>
struct SoftMarginGradOp {
  T norm;
  T operator()(T g, T x, T y) const { return -y * nn::sigmoid(-y * x) * g * norm; }
};
// (x - y) / max(x (1 - x), 1e-12) (PyTorch's epsilon)
template <typename T>
struct BceGradOp {  // (x, y, w) -> unscaled gradient factor
  T operator()(T x, T y, T w) const { return w * (x - y) / std::max(x * (T(1) - x), T(1e-12)); }
};
template <typename T>
struct BceGradNoWeightOp {
  T operator()(T x, T y) const { return (x - y) / std::max(x * (T(1) - x), T(1e-12)); }
};
// sigmoid(x) (pw y + 1 - y) - pw y
template <typename T>
struct BceLogitsGradOp {  // (x, y, pw)
  T operator()(T x, T y, T pw) const { return nn::sigmoid(x) * (pw * y + T(1) - y) - pw * y; }
};
template <typename T>
struct BceLogitsGradNoPosOp {  // (x, y)
  T operator()(T x, T y) const { return nn::sigmoid(x) - y; }
};
template <typename T>
struct KlDivGradOp {  // (g, x, t) -> d/dx = -t (or -e^t) times g
  T norm;
  bool log_target;
  T operator()(T g, T, T t) const { return (log_target ? -std::exp(t) : -t) * g * norm; }
};
template <typename T>
struct KlDivTargetGradOp {  // (g, x, t) -> d/dt, literally as CANN's op_api composes it
  T norm;
  bool log_target;
  T operator()(T g, T x, T t) const {
    const T gn = g * norm;
    if (log_target) return gn * (t - x) * std::exp(t) + gn * std::exp(t);
    return gn * std::log(t) - gn * x + gn * t / t;
  }
};
template <typename T>
struct LogitOp {
  T eps;
  T operator()(T x) const {
    if (eps >= T(0)) x = x < eps ? eps : x > T(1) - eps ? T(1) - eps : x;
    return std::log(x / (T(1) - x));
  }
};
template <typename T>
struct LogitGradOp {  // (x, dy)
  T eps;
  T operator()(T x, T dy) const {
    if (eps < T(0)) {
      if (x < T(0) || x > T(1)) return std::numeric_limits<T>::quiet_NaN();
    } else if (x < eps || x > T(1) - eps) {
      return T(0);
    }
    return dy / (x * (T(1) - x));
  }
};

// ---- shared checks ---------------------------------------------------------------------------------------

void check_reduction(int64_t reduction, int64_t max = 2) {
  if (reduction < 0 || reduction > max)
    invalid("reduction is {}, expected 0 (none), 1 (mean){}", reduction, max == 3 ? ", 2 (sum) or 3 (batchmean)" : " or 2 (sum)");
}

// out of a loss: the loss shape (none), else a 0-d tensor (or, with one_element, any one-element tensor).
void check_loss_out(const aclTensor& out, const char* name, int64_t reduction, const Dims& shape, bool one_element) {
  if (reduction == 0) {
    check_shape_equals(out, name, shape);
  } else if (one_element ? out.numel() != 1 || out.dim() > 1 : out.dim() != 0) {
    invalid("{} has shape {}, expected {} for reduction {}", name, dims_str(out.view),
            one_element ? "one element ([] or [1])" : "a 0-d tensor", reduction);
  }
}

DType promote_checked(const aclTensor& a, const char* an, const aclTensor& b, const char* bn, DTypeMask allowed) {
  const DType p = promote(a.dtype, b.dtype);
  if (p == DType::kUndefined || !in_mask(allowed, p))
    invalid("{} dtype {} and {} dtype {} promote to {}, which is not supported; supported: {}", an,
            dtype_name(a.dtype), bn, dtype_name(b.dtype), dtype_name(p), mask_names(allowed));
  return p;
}

void same_dtype(const aclTensor& t, const char* name, const aclTensor& ref, const char* ref_name) {
  if (t.dtype != ref.dtype)
    invalid("{} dtype {} must equal {} dtype {}", name, dtype_name(t.dtype), ref_name, dtype_name(ref.dtype));
}
void same_shape(const aclTensor& t, const char* name, const aclTensor& ref, const char* ref_name) {
  if (t.view != ref.view)
    invalid("{} has shape {}, expected the shape of {} {}", name, dims_str(t.view), ref_name, dims_str(ref.view));
}
// t must broadcast to `shape` (without changing it).
void broadcasts_to(const aclTensor& t, const char* name, const Dims& shape, const char* what) {
  const Dims b = broadcast_shapes(t.view, name, shape, what);
  if (b != shape)
    invalid("{} has shape {}, which does not broadcast to the shape of {} {}", name, dims_str(t.view), what,
            dims_str(shape));
}

int64_t numel_of(const Dims& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

// The loss f(in...) over `shape` with `reduction`, into out. make(tag) gives the functor.
template <size_t N, typename Make>
void plan_reduced(StepPlan& p, DType compute, const Dims& shape, const std::array<View, N>& in, int64_t reduction,
                  const aclTensor& out, Make&& make) {
  if (reduction == 0) {
    p.elementwise<N>(compute, shape, p.tensor(out), in, make);
    return;
  }
  const DType acc = arithmetic_dtype(compute);
  const int64_t n = numel_of(shape);
  const View buf = p.buffer(acc, shape);
  p.elementwise<N>(compute, shape, buf, in, make);
  const size_t partials = p.scratch(static_cast<size_t>(nn::sum_blocks(n)) * sizeof(double));
  const View o = p.tensor(out);
  const DType od = out.dtype;
  const bool mean = reduction == 1;
  p.step([=](const StepArgs& a) {
    double s = acc == F64 ? nn::sum_dense(a.get<const double>(buf.ref), n, a.scratch<double>(partials))
                          : nn::sum_dense(a.get<const float>(buf.ref), n, a.scratch<double>(partials));
    if (mean) s /= static_cast<double>(n);
    nn::store_double(od, a.ptr(o.ref), s);
  });
}

std::string name_of(const OpBuilder& b, DType t) { return std::string(b.op().name) + "." + dtype_name(t); }

// ---- forward losses of (self, target) ---------------------------------------------------------------------

template <template <typename> class F>
void plan_pair_loss(OpBuilder& b, const aclTensor& self, const aclTensor& target, int64_t reduction,
                    const aclTensor& out, const char* out_name, DTypeMask types, bool one_element, F<float>* = nullptr) {
  check_dtype_in(b.op(), "self", self.dtype, types);
  check_dtype_in(b.op(), "target", target.dtype, types);
  check_dtype_in(b.op(), out_name, out.dtype, types);
  const DType p = promote_checked(self, "self", target, "target", types);
  check_can_cast(p, out, out_name);
  check_reduction(reduction);
  check_rank(self, "self");
  check_rank(target, "target");
  const Dims shape = broadcast_shapes(self.view, "self", target.view, "target");
  check_loss_out(out, out_name, reduction, shape, one_element);
  StepPlan s(b);
  const DType c = p == DType::kInt64 ? F64 : p;  // L1Loss on int64 computes in double
  plan_reduced<2>(s, c, shape, {s.broadcast(self, shape), s.broadcast(target, shape)}, reduction, out, [](auto tag) {
    PACL_T;
    return F<T>{};
  });
  s.finish(name_of(b, p));
}

// ---- gradients of (gradOutput, self, target) ---------------------------------------------------------------

// The three tensors broadcast to out's shape; norm = 1 / numel for mean.
template <typename Make>
void plan_pair_grad(OpBuilder& b, const aclTensor& g, const aclTensor& self, const aclTensor& target, DType compute,
                    const aclTensor& out, const char* out_name, Make&& make) {
  check_rank(g, "gradOutput");
  check_rank(self, "self");
  check_rank(target, "target");
  const Dims s1 = broadcast_shapes(g.view, "gradOutput", self.view, "self");
  const Dims shape = broadcast_shapes(s1, "gradOutput and self", target.view, "target");
  check_shape_equals(out, out_name, shape);
  StepPlan s(b);
  const double norm = 1.0 / static_cast<double>(std::max<int64_t>(numel_of(shape), 1));
  s.elementwise<3>(compute, shape, s.tensor(out), {s.broadcast(g, shape), s.broadcast(self, shape),
                                                   s.broadcast(target, shape)},
                   [&](auto tag) { return make(tag, norm); });
  s.finish(name_of(b, compute));
}

// ---- KlDiv gradients: computed over broadcast(self, target), summed down to the output's shape -----------

// out[j] = sum of full[i] over the i that broadcast to j (dense row-major arrays, in double).
void sum_to_shape(const double* full, const Dims& full_shape, double* out, const Dims& out_shape) {
  const size_t r = full_shape.size(), lead = r - out_shape.size();
  const Dims ostr = contiguous_strides(out_shape);
  Dims map(r, 0);  // out stride per full dim (0 where summed)
  for (size_t i = 0; i < out_shape.size(); ++i) map[lead + i] = out_shape[i] == 1 ? 0 : ostr[i];
  std::fill(out, out + numel_of(out_shape), 0.0);
  const int64_t n = numel_of(full_shape);
  Dims idx(r, 0);
  int64_t o = 0;
  for (int64_t k = 0; k < n; ++k) {
    out[o] += full[k];
    for (size_t d = r; d-- > 0;) {
      o += map[d];
      if (++idx[d] < full_shape[d]) break;
      o -= map[d] * full_shape[d];
      idx[d] = 0;
    }
  }
}

template <template <typename> class F>
void plan_kl_grad(OpBuilder& b, const aclTensor& g, const aclTensor& self, const aclTensor& target, int64_t reduction,
                  bool log_target, const aclTensor& out, const char* out_name, const aclTensor& like,
                  const char* like_name) {
  check_dtype_in(b.op(), "gradOutput", g.dtype, kF3);
  check_dtype_in(b.op(), "self", self.dtype, kF3);
  check_dtype_in(b.op(), "target", target.dtype, kF3);
  check_dtype_in(b.op(), out_name, out.dtype, kF3);
  for (const auto& [t, n] : {std::pair<const aclTensor*, const char*>{&g, "gradOutput"}, {&self, "self"},
                             {&target, "target"}, {&out, out_name}})
    check_rank(*t, n);
  const Dims shape = broadcast_shapes(self.view, "self", target.view, "target");
  broadcasts_to(g, "gradOutput", shape, "self and target broadcast");
  same_shape(out, out_name, like, like_name);
  check_reduction(reduction, 3);
  const DType c = promote(promote(g.dtype, self.dtype), target.dtype);
  double norm = 1.0;
  if (reduction == 1) norm = 1.0 / static_cast<double>(std::max<int64_t>(numel_of(shape), 1));
  if (reduction == 3) norm = 1.0 / static_cast<double>(shape.empty() ? 1 : std::max<int64_t>(shape[0], 1));
  StepPlan s(b);
  const std::array<View, 3> in{s.broadcast(g, shape), s.broadcast(self, shape), s.broadcast(target, shape)};
  auto make = [&](auto tag) {
    PACL_T;
    return F<T>{static_cast<T>(norm), log_target};
  };
  if (shape == out.view) {
    s.elementwise<3>(c, shape, s.tensor(out), in, make);
  } else {  // the broadcast is larger than out: sum the surplus dims away
    const View full = s.buffer(F64, shape);
    s.elementwise<3>(F64, shape, full, in, make);
    const View o = s.dense_output(out, F64);
    const Dims oshape = out.view;
    s.step([=](const StepArgs& a) { sum_to_shape(a.get<const double>(full.ref), shape, a.get<double>(o.ref), oshape); });
  }
  s.finish(name_of(b, c));
}

}  // namespace
}  // namespace pacl

// ---- phase-1 entry points -------------------------------------------------------------------------

using pacl::OpBuilder;
namespace nn = pacl::nn;

#define PACL_PHASE1(Name, ...)                                                                                    \
  pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) { \
    __VA_ARGS__;                                                                                                  \
  })

extern "C" {

aclnnStatus aclnnMseLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                         aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(MseLoss, {
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    pacl::plan_pair_loss<pacl::MseOp>(b, s, t, reduction, b.output(out, "out"), "out", pacl::kF3, false);
  });
}

aclnnStatus aclnnL1LossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                        aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(L1Loss, {
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    pacl::plan_pair_loss<pacl::L1Op>(b, s, t, reduction, b.output(out, "out"), "out",
                                     pacl::kF3 | pacl::dtype_mask({pacl::DType::kInt64}), false);
  });
}

aclnnStatus aclnnSoftMarginLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                                aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(SoftMarginLoss, {
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    pacl::plan_pair_loss<pacl::SoftMarginOp>(b, s, t, reduction, b.output(out, "out"), "out", pacl::kF3, false);
  });
}

aclnnStatus aclnnSmoothL1LossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                              float beta, aclTensor* result, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  return PACL_PHASE1(SmoothL1Loss, {
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    const aclTensor& o = b.output(result, "result");
    pacl::check_dtype_in(b.op(), "self", s.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "target", t.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "result", o.dtype, pacl::kF3);
    const pacl::DType p = pacl::promote_checked(s, "self", t, "target", pacl::kF3);
    pacl::check_can_cast(p, o, "result");
    pacl::check_reduction(reduction);
    pacl::check_rank(s, "self");
    pacl::check_rank(t, "target");
    const pacl::Dims shape = pacl::broadcast_shapes(s.view, "self", t.view, "target");
    pacl::check_loss_out(o, "result", reduction, shape, true);
    if (!(beta >= 0)) pacl::invalid("beta must be greater than or equal to 0, got {}", beta);
    pacl::StepPlan sp(b);
    const std::array<pacl::View, 2> in{sp.broadcast(s, shape), sp.broadcast(t, shape)};
    if (beta == 0) {  // the L1 loss
      pacl::plan_reduced<2>(sp, p, shape, in, reduction, o, [](auto tag) {
        PACL_T;
        return pacl::L1Op<T>{};
      });
    } else {
      pacl::plan_reduced<2>(sp, p, shape, in, reduction, o, [&](auto tag) {
        PACL_T;
        return pacl::SmoothL1Op<T>{static_cast<T>(beta)};
      });
    }
    sp.finish(pacl::name_of(b, p));
  });
}

aclnnStatus aclnnMseLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                 const aclTensor* target, int64_t reduction, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(MseLossBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    const aclTensor& o = b.output(out, "out");
    pacl::same_dtype(g, "gradOutput", s, "self");
    pacl::same_dtype(t, "target", s, "self");
    pacl::check_dtype_in(b.op(), "self", s.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "out", o.dtype, pacl::kF3);
    pacl::check_can_cast(s.dtype, o, "out");
    pacl::check_reduction(reduction);
    const bool mean = reduction == 1;
    pacl::plan_pair_grad(b, g, s, t, s.dtype, o, "out", [&](auto tag, double norm) {
      PACL_T;
      return pacl::MseGradOp<T>{static_cast<T>(mean ? norm : 1.0)};
    });
  });
}

aclnnStatus aclnnL1LossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                const aclTensor* target, int64_t reduction, aclTensor* gradInput,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(L1LossBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    const aclTensor& o = b.output(gradInput, "gradInput");
    pacl::check_dtype_in(b.op(), "gradOutput", g.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "self", s.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "target", t.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "gradInput", o.dtype, pacl::kF3);
    const pacl::DType p = pacl::promote(pacl::promote(g.dtype, s.dtype), t.dtype);
    pacl::check_can_cast(p, o, "gradInput");
    pacl::check_reduction(reduction);
    const bool mean = reduction == 1;
    pacl::plan_pair_grad(b, g, s, t, p, o, "gradInput", [&](auto tag, double norm) {
      PACL_T;
      return pacl::L1GradOp<T>{static_cast<T>(mean ? norm : 1.0)};
    });
  });
}

aclnnStatus aclnnSoftMarginLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                        const aclTensor* target, int64_t reduction, aclTensor* out,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(SoftMarginLossBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    const aclTensor& o = b.output(out, "out");
    pacl::check_dtype_in(b.op(), "gradOutput", g.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "self", s.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "target", t.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "out", o.dtype, pacl::kF3);
    const pacl::DType p = pacl::promote(pacl::promote(g.dtype, s.dtype), t.dtype);
    pacl::check_can_cast(p, o, "out");
    pacl::check_reduction(reduction);
    const bool mean = reduction == 1;
    pacl::plan_pair_grad(b, g, s, t, p, o, "out", [&](auto tag, double norm) {
      PACL_T;
      return pacl::SoftMarginGradOp<T>{static_cast<T>(mean ? norm : 1.0)};
    });
  });
}

aclnnStatus aclnnBinaryCrossEntropyGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                    const aclTensor* weight, int64_t reduction, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(BinaryCrossEntropy, {
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    const aclTensor* w = weight ? &b.input(weight, "weight") : nullptr;
    const aclTensor& o = b.output(out, "out");
    pacl::check_dtype_in(b.op(), "self", s.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "target", t.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "out", o.dtype, pacl::kF3);
    pacl::same_dtype(t, "target", s, "self");
    if (w) pacl::same_dtype(*w, "weight", s, "self");
    pacl::same_dtype(o, "out", s, "self");
    pacl::check_rank(s, "self");
    pacl::same_shape(t, "target", s, "self");
    if (w) pacl::broadcasts_to(*w, "weight", s.view, "self");
    pacl::check_reduction(reduction);
    pacl::check_loss_out(o, "out", reduction, s.view, false);
    pacl::StepPlan sp(b);
    if (w) {
      pacl::plan_reduced<3>(sp, s.dtype, s.view, {sp.tensor(s), sp.tensor(t), sp.broadcast(*w, s.view)}, reduction, o,
                            [](auto tag) {
                              PACL_T;
                              return pacl::BceWeightOp<T>{};
                            });
    } else {
      pacl::plan_reduced<2>(sp, s.dtype, s.view, {sp.tensor(s), sp.tensor(t)}, reduction, o, [](auto tag) {
        PACL_T;
        return pacl::BceOp<T>{};
      });
    }
    sp.finish(pacl::name_of(b, s.dtype));
  });
}

aclnnStatus aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                            const aclTensor* target, const aclTensor* weightOptional,
                                                            int64_t reduction, aclTensor* out,
                                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(BinaryCrossEntropyBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    const aclTensor* w = weightOptional ? &b.input(weightOptional, "weightOptional") : nullptr;
    const aclTensor& o = b.output(out, "out");
    pacl::check_dtype_in(b.op(), "self", s.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "gradOutput", g.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "target", t.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "out", o.dtype, pacl::kF3);
    if (w) pacl::check_dtype_in(b.op(), "weightOptional", w->dtype, pacl::kF3);
    pacl::DType p = pacl::promote(pacl::promote(s.dtype, t.dtype), g.dtype);
    if (w) p = pacl::promote(p, w->dtype);
    pacl::check_can_cast(p, o, "out");
    for (const aclTensor* x : {&g, &s, &t, &o}) pacl::check_rank(*x, "an argument");
    pacl::broadcasts_to(g, "gradOutput", s.view, "self");
    pacl::broadcasts_to(t, "target", s.view, "self");
    if (w) pacl::broadcasts_to(*w, "weightOptional", s.view, "self");
    pacl::same_shape(o, "out", s, "self");
    pacl::check_reduction(reduction);
    const double norm = reduction == 1 ? 1.0 / static_cast<double>(std::max<int64_t>(s.numel(), 1)) : 1.0;
    pacl::StepPlan sp(b);
    const pacl::Dims& shape = s.view;
    const pacl::DType c = pacl::arithmetic_dtype(p);
    const pacl::View factor = sp.buffer(c, shape);
    if (w) {
      sp.elementwise<3>(c, shape, factor, {sp.tensor(s), sp.broadcast(t, shape), sp.broadcast(*w, shape)},
                        [](auto tag) {
                          PACL_T;
                          return pacl::BceGradOp<T>{};
                        });
    } else {
      sp.elementwise<2>(c, shape, factor, {sp.tensor(s), sp.broadcast(t, shape)}, [](auto tag) {
        PACL_T;
        return pacl::BceGradNoWeightOp<T>{};
      });
    }
    sp.elementwise<2>(c, shape, sp.tensor(o), {factor, sp.broadcast(g, shape)}, [&](auto tag) {
      PACL_T;
      return pacl::ScaledMulOp<T>{static_cast<T>(norm)};
    });
    sp.finish(pacl::name_of(b, p));
  });
}

aclnnStatus aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                              const aclTensor* weightOptional,
                                                              const aclTensor* posWeightOptional, int64_t reduction,
                                                              aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  return PACL_PHASE1(BinaryCrossEntropyWithLogits, {
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    const aclTensor* w = weightOptional ? &b.input(weightOptional, "weightOptional") : nullptr;
    const aclTensor* pw = posWeightOptional ? &b.input(posWeightOptional, "posWeightOptional") : nullptr;
    const aclTensor& o = b.output(out, "out");
    pacl::check_dtype_in(b.op(), "self", s.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "target", t.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "out", o.dtype, pacl::kF3);
    if (w) pacl::check_dtype_in(b.op(), "weightOptional", w->dtype, pacl::kF3);
    if (pw) pacl::check_dtype_in(b.op(), "posWeightOptional", pw->dtype, pacl::kF3);
    pacl::same_dtype(o, "out", t, "target");
    pacl::check_reduction(reduction);
    pacl::check_rank(s, "self");
    pacl::same_shape(t, "target", s, "self");
    if (w) pacl::broadcasts_to(*w, "weightOptional", t.view, "target");
    if (pw) pacl::broadcasts_to(*pw, "posWeightOptional", t.view, "target");
    pacl::check_loss_out(o, "out", reduction, s.view, false);
    pacl::DType c = pacl::promote(s.dtype, t.dtype);
    if (w) c = pacl::promote(c, w->dtype);
    if (pw) c = pacl::promote(c, pw->dtype);
    const pacl::Dims& shape = s.view;
    pacl::StepPlan sp(b);
    const pacl::View x = sp.tensor(s), y = sp.tensor(t);
    if (!w && !pw) {
      pacl::plan_reduced<2>(sp, c, shape, {x, y}, reduction, o, [](auto tag) {
        PACL_T;
        return pacl::BceLogitsOp<T>{};
      });
    } else if (!w) {
      pacl::plan_reduced<3>(sp, c, shape, {x, y, sp.broadcast(*pw, shape)}, reduction, o, [](auto tag) {
        PACL_T;
        return pacl::BceLogitsPosOp<T>{};
      });
    } else {  // the unweighted loss into a buffer, then times weight
      const pacl::View l = sp.buffer(pacl::arithmetic_dtype(c), shape);
      if (pw)
        sp.elementwise<3>(c, shape, l, {x, y, sp.broadcast(*pw, shape)}, [](auto tag) {
          PACL_T;
          return pacl::BceLogitsPosOp<T>{};
        });
      else
        sp.elementwise<2>(c, shape, l, {x, y}, [](auto tag) {
          PACL_T;
          return pacl::BceLogitsOp<T>{};
        });
      pacl::plan_reduced<2>(sp, c, shape, {l, sp.broadcast(*w, shape)}, reduction, o, [](auto tag) {
        PACL_T;
        return pacl::MulOp<T>{};
      });
    }
    sp.finish(pacl::name_of(b, c));
  });
}

aclnnStatus aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target, const aclTensor* weightOptional,
    const aclTensor* posWeightOptional, int64_t reduction, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return PACL_PHASE1(BinaryCrossEntropyWithLogitsBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    const aclTensor* w = weightOptional ? &b.input(weightOptional, "weightOptional") : nullptr;
    const aclTensor* pw = posWeightOptional ? &b.input(posWeightOptional, "posWeightOptional") : nullptr;
    const aclTensor& o = b.output(out, "out");
    pacl::check_dtype_in(b.op(), "gradOutput", g.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "self", s.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "target", t.dtype, pacl::kF3);
    pacl::check_dtype_in(b.op(), "out", o.dtype, pacl::kF3);
    if (w) pacl::check_dtype_in(b.op(), "weightOptional", w->dtype, pacl::kF3);
    if (pw) pacl::check_dtype_in(b.op(), "posWeightOptional", pw->dtype, pacl::kF3);
    pacl::DType c = pacl::promote(pacl::promote(s.dtype, t.dtype), g.dtype);
    if (w) c = pacl::promote(c, w->dtype);
    if (pw) c = pacl::promote(c, pw->dtype);
    pacl::check_can_cast(c, o, "out");
    pacl::check_reduction(reduction);
    pacl::check_rank(s, "self");
    pacl::same_shape(t, "target", s, "self");
    pacl::same_shape(o, "out", s, "self");
    const pacl::Dims& shape = s.view;
    pacl::broadcasts_to(g, "gradOutput", shape, "self");
    if (w) pacl::broadcasts_to(*w, "weightOptional", shape, "self");
    if (pw) pacl::broadcasts_to(*pw, "posWeightOptional", shape, "self");
    const double norm = reduction == 1 ? 1.0 / static_cast<double>(std::max<int64_t>(s.numel(), 1)) : 1.0;
    pacl::StepPlan sp(b);
    const pacl::DType a = pacl::arithmetic_dtype(c);
    const pacl::View f = sp.buffer(a, shape);
    if (pw)
      sp.elementwise<3>(c, shape, f, {sp.tensor(s), sp.tensor(t), sp.broadcast(*pw, shape)}, [](auto tag) {
        PACL_T;
        return pacl::BceLogitsGradOp<T>{};
      });
    else
      sp.elementwise<2>(c, shape, f, {sp.tensor(s), sp.tensor(t)}, [](auto tag) {
        PACL_T;
        return pacl::BceLogitsGradNoPosOp<T>{};
      });
    if (w) {  // f *= weight
      sp.elementwise<2>(c, shape, f, {f, sp.broadcast(*w, shape)}, [](auto tag) {
        PACL_T;
        return pacl::MulOp<T>{};
      });
    }
    sp.elementwise<2>(c, shape, sp.tensor(o), {f, sp.broadcast(g, shape)}, [&](auto tag) {
      PACL_T;
      return pacl::ScaledMulOp<T>{static_cast<T>(norm)};
    });
    sp.finish(pacl::name_of(b, c));
  });
}

aclnnStatus aclnnKlDivBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                               const aclTensor* target, int64_t reduction, bool logTarget,
                                               aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(KlDivBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    const aclTensor& o = b.output(out, "out");
    pacl::check_can_cast(s.dtype, o, "out");
    pacl::plan_kl_grad<pacl::KlDivGradOp>(b, g, s, t, reduction, logTarget, o, "out", s, "self");
  });
}

aclnnStatus aclnnKlDivTargetBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                     const aclTensor* target, int64_t reduction, bool logTarget,
                                                     aclTensor* gradTarget, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  return PACL_PHASE1(KlDivTargetBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    const aclTensor& o = b.output(gradTarget, "gradTarget");
    pacl::same_dtype(o, "gradTarget", t, "target");
    pacl::plan_kl_grad<pacl::KlDivTargetGradOp>(b, g, s, t, reduction, logTarget, o, "gradTarget", t, "target");
  });
}

aclnnStatus aclnnLogitGetWorkspaceSize(const aclTensor* input, double eps, const aclTensor* out,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Logit, {
    const aclTensor& x = b.input(input, "input");
    const aclTensor& o = b.output(out, "out");
    pacl::check_dtype_in(b.op(), "input", x.dtype, pacl::kF3);
    pacl::same_dtype(o, "out", x, "input");
    pacl::check_rank(x, "input");
    pacl::same_shape(o, "out", x, "input");
    std::array<pacl::EwInput, 1> in{pacl::EwInput{&x, nullptr}};
    pacl::plan_elementwise<1, pacl::TypeSet::kFloating>(b, "elementwise.Logit", x.dtype, o, in, [&](auto tag) {
      PACL_T;
      return pacl::LogitOp<T>{static_cast<T>(eps)};
    });
  });
}

aclnnStatus aclnnLogitGradGetWorkspaceSize(const aclTensor* x, const aclTensor* dy, double eps, const aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(LogitGrad, {
    const aclTensor& xt = b.input(x, "x");
    const aclTensor& d = b.input(dy, "dy");
    const aclTensor& o = b.output(out, "out");
    pacl::check_dtype_in(b.op(), "x", xt.dtype, pacl::kF3);
    pacl::same_dtype(d, "dy", xt, "x");
    pacl::same_dtype(o, "out", xt, "x");
    pacl::check_rank(xt, "x");
    pacl::same_shape(d, "dy", xt, "x");
    pacl::same_shape(o, "out", xt, "x");
    std::array<pacl::EwInput, 2> in{pacl::EwInput{&xt, nullptr}, pacl::EwInput{&d, nullptr}};
    pacl::plan_elementwise<2, pacl::TypeSet::kFloating>(b, "elementwise.LogitGrad", xt.dtype, o, in, [&](auto tag) {
      PACL_T;
      return pacl::LogitGradOp<T>{static_cast<T>(eps)};
    });
  });
}

}  // extern "C"
