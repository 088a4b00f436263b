// Gated linear units and their gradients: Glu, SwiGlu, GeGlu, SituGlu, GeluMul, FatreluMul,
// ClippedSwiglu, SwigluGroup (+ the backward ops).
//
// Each splits its input in two halves along a dim; the halves are two views of the same tensor
// (offset 0 and offset N/2 * stride[dim], both read with the tensor's own strides), so the op is
// one elementwise kernel of the shared engine over (half a, half b) -> out. A gradient writes the
// two halves of its output the same way: two elementwise steps, one per half.
// ClippedSwiglu and SwigluGroup merge the dims into [rows, cut] (the cut dim and every dim after
// it form one row) and may limit the rows computed to the sum of a group-count tensor read at run
// time; the rows past it are zeros. Their interleaved split (even / odd elements of a row) works on
// a dense copy of the input.
// 16-bit inputs compute in float32 and round once.
#include <cstring>
#include <string>

#include "aclnnop/aclnn_clipped_swiglu.h"
#include "aclnnop/aclnn_clipped_swiglu_grad.h"
#include "aclnnop/aclnn_clipped_swiglu_v2.h"
#include "aclnnop/aclnn_fatrelu_mul.h"
#include "aclnnop/aclnn_geglu.h"
#include "aclnnop/aclnn_geglu_backward.h"
#include "aclnnop/aclnn_gelu_mul.h"
#include "aclnnop/aclnn_glu.h"
#include "aclnnop/aclnn_glu_backward.h"
#include "aclnnop/aclnn_situ_glu.h"
#include "aclnnop/aclnn_situ_glu_grad.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "aclnnop/aclnn_swi_glu_grad.h"
#include "aclnnop/aclnn_swiglu_group.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/nn_math.h"
#include "ops/nn_steps.h"
#include "ops/registry.h"

namespace pacl {
namespace {

using nn::StepArgs;
using nn::StepPlan;
using nn::View;

// ---- functors -----------------------------------------------------------------------------------------

template <typename T>
struct GluOp {  // (a, b)
  T operator()(T a, T b) const { return a * nn::sigmoid(b); }
};
template <typename T>
struct GluGradAOp {  // (g, a, b) -> d/da
  T operator()(T g, T, T b) const { return g * nn::sigmoid(b); }
};
template <typename T>
struct GluGradBOp {  // (g, a, b) -> d/db = g a s(b) (1 - s(b))
  T operator()(T g, T a, T b) const { return g * a * nn::sigmoid(b) * nn::sigmoid(-b); }
};
template <typename T>
struct SwiGluOp {  // (a, b)
  T operator()(T a, T b) const { return nn::silu(a) * b; }
};
template <typename T>
struct SwiGluGradAOp {  // (g, a, b): g b s(a) (1 + a (1 - s(a)))
  T operator()(T g, T a, T b) const { return g * b * nn::sigmoid(a) * (T(1) + a * nn::sigmoid(-a)); }
};
template <typename T>
struct SwiGluGradBOp {  // (g, a, b): g silu(a)
  T operator()(T g, T a, T) const { return g * nn::silu(a); }
};
template <typename T>
struct GeluOp {
  bool tanh_form;
  T operator()(T x) const { return nn::gelu(x, tanh_form); }
};
template <typename T>
struct GeGluOp {  // (activated half, other half)
  bool tanh_form;
  T operator()(T act, T other) const { return nn::gelu(act, tanh_form) * other; }
};
template <typename T>
struct MulOp {
  T operator()(T a, T b) const { return a * b; }
};
template <typename T>
struct GeGluGradActOp {  // (g, activated half, other half): g other gelu'(act)
  bool tanh_form;
  T operator()(T g, T act, T other) const { return g * other * nn::gelu_grad(act, tanh_form); }
};
template <typename T>
struct SituGluOp {  // (gate, up)
  T beta, linear_beta;
  T operator()(T gate, T up) const {
    const T a = beta * std::tanh(gate / beta) * nn::sigmoid(gate);
    return a * (linear_beta > T(0) ? linear_beta * std::tanh(up / linear_beta) : up);
  }
};
template <typename T>
struct SituGluGradGateOp {  // (g, gate, up)
  T beta, linear_beta;
  T operator()(T g, T gate, T up) const {
    const T t = std::tanh(gate / beta), s = nn::sigmoid(gate);
    const T up2 = linear_beta > T(0) ? linear_beta * std::tanh(up / linear_beta) : up;
    return g * up2 * s * (nn::sech2(gate / beta) + beta * t * nn::sigmoid(-gate));
  }
};
template <typename T>
struct SituGluGradUpOp {  // (g, gate, up)
  T beta, linear_beta;
  T operator()(T g, T gate, T up) const {
    const T a = beta * std::tanh(gate / beta) * nn::sigmoid(gate);
    if (!(linear_beta > T(0))) return g * a;
    return g * a * nn::sech2(up / linear_beta);
  }
};
template <typename T>
struct FatreluMulOp {  // (x1, x2, threshold)
  T operator()(T x1, T x2, T th) const { return (x1 < th ? T(0) : x1) * x2; }
};
// clampMode 0: the clamps before silu(alpha x), bias added to B; 1: min(silu(A), limit) * clamp(B).
template <typename T>
struct ClippedSwigluOp {  // (a, b)
  T alpha, limit, bias;
  bool clamp_after;
  T operator()(T a, T b) const {
    const T bc = nn::clamp_keep_nan(b, -limit, limit);
    if (clamp_after) return nn::min_keep_nan(nn::silu(a), limit) * bc;
    const T ac = nn::min_keep_nan(a, limit);
    return ac * nn::sigmoid(alpha * ac) * (bc + bias);
  }
};
// The clamps pass no gradient where they clip (the mask multiplies, so NaN stays NaN).
template <typename T>
struct ClippedSwigluGradAOp {  // (g, a, b)
  T alpha, limit, bias;
  T operator()(T g, T a, T b) const {
    const T ac = nn::min_keep_nan(a, limit), bc = nn::clamp_keep_nan(b, -limit, limit);
    const T s = nn::sigmoid(alpha * ac);
    const T mask = a <= limit ? T(1) : T(0);
    return g * (bc + bias) * s * (T(1) + alpha * ac * (T(1) - s)) * mask;
  }
};
template <typename T>
struct ClippedSwigluGradBOp {  // (g, a, b)
  T alpha, limit;
  T operator()(T g, T a, T b) const {
    const T ac = nn::min_keep_nan(a, limit);
    const T mask = b >= -limit && b <= limit ? T(1) : T(0);
    return g * ac * nn::sigmoid(alpha * ac) * mask;
  }
};
template <typename T>
struct SwigluGroupOp {  // (a, b)
  bool clamp;
  T limit;
  T operator()(T a, T b) const {
    if (clamp) {
      a = nn::min_keep_nan(a, limit);
      b = nn::clamp_keep_nan(b, -limit, limit);
    }
    return nn::silu(a) * b;
  }
};
template <typename T>
struct SwigluGroupWeightOp {  // (a, b, w)
  bool clamp;
  T limit;
  T operator()(T a, T b, T w) const { return SwigluGroupOp<T>{clamp, limit}(a, b) * w; }
};

#define PACL_T using T = typename decltype(tag)::type

// ---- shared checks ---------------------------------------------------------------------------------------

constexpr DType F32 = DType::kFloat, F16 = DType::kFloat16, BF16 = DType::kBFloat16, F64 = DType::kDouble;
constexpr DTypeMask kF3 = dtype_mask({F32, F16, BF16});
constexpr DTypeMask kF4 = kF3 | dtype_mask({F64});

// The split of `t` in two halves along `dim`.
struct Split {
  int64_t dim;  // wrapped
  Dims half;    // the shape of each half
};

Split split_along(const aclTensor& t, const char* name, int64_t dim, int64_t max_rank = kMaxElementwiseRank) {
  if (t.dim() == 0) invalid("{} is a 0-d tensor, expected at least 1 dim to split in two halves", name);
  check_rank(t, name, max_rank);
  const int64_t d = wrap_dim(dim, t.dim(), "dim");
  if (t.view[static_cast<size_t>(d)] % 2 != 0)
    invalid("{} has size {} in dim {}, expected an even size to split in two halves ({})", name,
            t.view[static_cast<size_t>(d)], dim, t.describe());
  Split s{d, t.view};
  s.half[static_cast<size_t>(d)] /= 2;
  return s;
}

// The halves of `t` (of the full shape) along s.dim, each seen with the half shape.
std::pair<View, View> halves(const StepPlan& p, const aclTensor& t, const Split& s) {
  const int64_t shift = s.half[static_cast<size_t>(s.dim)] * t.strides[static_cast<size_t>(s.dim)];
  return {p.tensor(t), p.tensor(t, shift)};
}

void check_same_dtype(const aclTensor& t, const char* name, const aclTensor& ref, const char* ref_name) {
  if (t.dtype != ref.dtype)
    invalid("{} dtype {} must equal {} dtype {}", name, dtype_name(t.dtype), ref_name, dtype_name(ref.dtype));
}

std::string with_dtype(const char* what, DType t) { return std::string(what) + "." + dtype_name(t); }

// ---- Glu / SwiGlu ------------------------------------------------------------------------------------------

// out = f(a, b); the dtypes of out: equal to self's (same_dtype) or castable from it.
template <template <typename> class F>
void plan_split_forward(OpBuilder& b, const aclTensor& self, const char* self_name, int64_t dim, const aclTensor& out,
                        const char* out_name, DTypeMask types, bool same_dtype, int64_t max_rank) {
  check_dtype_in(b.op(), self_name, self.dtype, types);
  check_dtype_in(b.op(), out_name, out.dtype, types);
  if (same_dtype) check_same_dtype(out, out_name, self, self_name);
  else check_can_cast(self.dtype, out, out_name);
  check_rank(out, out_name, max_rank);
  const Split s = split_along(self, self_name, dim, max_rank);
  check_shape_equals(out, out_name, s.half, "the shape of the input with dim halved:");
  StepPlan p(b);
  const auto [x0, x1] = halves(p, self, s);
  p.elementwise<2>(arithmetic_dtype(self.dtype), s.half, p.tensor(out), {x0, x1}, [](auto tag) {
    PACL_T;
    return F<T>{};
  });
  p.finish(with_dtype(b.op().name, self.dtype));
}

// out = cat(fa(g, a, b), fb(g, a, b)) along dim; gradOutput has the half shape, out self's shape.
template <typename MakeA, typename MakeB>
void plan_split_backward(OpBuilder& b, const aclTensor& grad, const char* grad_name, const aclTensor& self,
                         const char* self_name, int64_t dim, const aclTensor& out, const char* out_name,
                         DTypeMask types, MakeA&& make_a, MakeB&& make_b) {
  check_dtype_in(b.op(), self_name, self.dtype, types);
  check_dtype_in(b.op(), grad_name, grad.dtype, types);
  check_dtype_in(b.op(), out_name, out.dtype, types);
  check_same_dtype(grad, grad_name, self, self_name);
  check_same_dtype(out, out_name, self, self_name);
  check_rank(grad, grad_name);
  check_rank(out, out_name);
  const Split s = split_along(self, self_name, dim);
  check_shape_equals(out, out_name, self.view, "the shape of");
  if (grad.view != s.half)
    invalid("{} has shape {}, expected the shape of {} with dim {} halved: {}", grad_name, dims_str(grad.view),
            self_name, dim, dims_str(s.half));
  StepPlan p(b);
  const auto [x0, x1] = halves(p, self, s);
  const auto [o0, o1] = halves(p, out, s);
  const View g = p.tensor(grad);
  const DType c = arithmetic_dtype(self.dtype);
  p.elementwise<3>(c, s.half, o0, {g, x0, x1}, make_a);
  p.elementwise<3>(c, s.half, o1, {g, x0, x1}, make_b);
  p.finish(with_dtype(b.op().name, self.dtype));
}

// ---- GeGlu -------------------------------------------------------------------------------------------------

void check_approximate(int64_t approximate) {
  if (approximate != 0 && approximate != 1)
    invalid("approximate must be 0 (none: the erf form) or 1 (tanh), got {}", approximate);
}

void plan_geglu(OpBuilder& b, const aclTensor& self, int64_t dim, int64_t approximate, bool activate_left,
                const aclTensor& out, const aclTensor& out_gelu) {
  check_dtype_in(b.op(), "self", self.dtype, kF3);
  check_dtype_in(b.op(), "out", out.dtype, kF3);
  check_dtype_in(b.op(), "outGelu", out_gelu.dtype, kF3);
  check_same_dtype(out, "out", self, "self");
  check_same_dtype(out_gelu, "outGelu", self, "self");
  check_rank(out, "out");
  check_rank(out_gelu, "outGelu");
  const Split s = split_along(self, "self", dim);
  check_shape_equals(out, "out", s.half, "the shape of self with dim halved:");
  check_shape_equals(out_gelu, "outGelu", s.half, "the shape of self with dim halved:");
  check_approximate(approximate);
  const bool tanh_form = approximate == 1;
  StepPlan p(b);
  auto [x0, x1] = halves(p, self, s);
  if (activate_left) std::swap(x0, x1);  // x1: the activated half
  const DType c = arithmetic_dtype(self.dtype);
  p.elementwise<1>(c, s.half, p.tensor(out_gelu), {x1}, [&](auto tag) {
    PACL_T;
    return GeluOp<T>{tanh_form};
  });
  p.elementwise<2>(c, s.half, p.tensor(out), {x1, x0}, [&](auto tag) {
    PACL_T;
    return GeGluOp<T>{tanh_form};
  });
  p.finish(with_dtype(b.op().name, self.dtype));
}

void plan_geglu_backward(OpBuilder& b, const aclTensor& grad, const aclTensor& self, const aclTensor& gelu, int64_t dim,
                         int64_t approximate, bool activate_left, const aclTensor& out) {
  check_dtype_in(b.op(), "gradOutput", grad.dtype, kF3);
  check_same_dtype(self, "self", grad, "gradOutput");
  check_same_dtype(gelu, "gelu", grad, "gradOutput");
  check_same_dtype(out, "gradInput", grad, "gradOutput");
  check_rank(grad, "gradOutput");
  check_rank(gelu, "gelu");
  check_rank(out, "gradInput");
  if (gelu.view != grad.view)
    invalid("gelu has shape {}, expected the shape of gradOutput {}", dims_str(gelu.view), dims_str(grad.view));
  check_shape_equals(out, "gradInput", self.view, "the shape of self");
  const Split s = split_along(self, "self", dim);
  if (grad.view != s.half)
    invalid("gradOutput has shape {}, expected the shape of self with dim {} halved: {}", dims_str(grad.view), dim,
            dims_str(s.half));
  check_approximate(approximate);
  const bool tanh_form = approximate == 1;
  StepPlan p(b);
  auto [x0, x1] = halves(p, self, s);
  auto [o0, o1] = halves(p, out, s);
  if (activate_left) {
    std::swap(x0, x1);
    std::swap(o0, o1);
  }
  const View g = p.tensor(grad);
  const DType c = arithmetic_dtype(self.dtype);
  p.elementwise<2>(c, s.half, o0, {g, p.tensor(gelu)}, [](auto tag) {
    PACL_T;
    return MulOp<T>{};
  });
  p.elementwise<3>(c, s.half, o1, {g, x1, x0}, [&](auto tag) {
    PACL_T;
    return GeGluGradActOp<T>{tanh_form};
  });
  p.finish(with_dtype(b.op().name, self.dtype));
}

// ---- SituGlu -----------------------------------------------------------------------------------------------

void plan_situ_glu(OpBuilder& b, const aclTensor& x, int64_t dim, double beta, double linear_beta, bool activate_left,
                   const aclTensor& out) {
  check_dtype_in(b.op(), "x", x.dtype, kF3);
  check_dtype_in(b.op(), "out", out.dtype, kF3);
  check_same_dtype(out, "out", x, "x");
  check_rank(out, "out");
  const Split s = split_along(x, "x", dim);
  check_shape_equals(out, "out", s.half, "the shape of x with dim halved:");
  StepPlan p(b);
  auto [gate, up] = halves(p, x, s);
  if (!activate_left) std::swap(gate, up);
  p.elementwise<2>(arithmetic_dtype(x.dtype), s.half, p.tensor(out), {gate, up}, [&](auto tag) {
    PACL_T;
    return SituGluOp<T>{static_cast<T>(beta), static_cast<T>(linear_beta)};
  });
  p.finish(with_dtype(b.op().name, x.dtype));
}

void plan_situ_glu_grad(OpBuilder& b, const aclTensor& grad, const aclTensor& x, int64_t dim, double beta,
                        double linear_beta, bool activate_left, const aclTensor& out) {
  check_dtype_in(b.op(), "x", x.dtype, kF3);
  check_dtype_in(b.op(), "gradY", grad.dtype, kF3);
  check_dtype_in(b.op(), "out", out.dtype, kF3);
  check_same_dtype(grad, "gradY", x, "x");
  check_same_dtype(out, "out", x, "x");
  check_rank(grad, "gradY");
  check_rank(out, "out");
  const Split s = split_along(x, "x", dim);
  if (grad.view != s.half)
    invalid("gradY has shape {}, expected the shape of x with dim {} halved: {}", dims_str(grad.view), dim,
            dims_str(s.half));
  check_shape_equals(out, "out", x.view, "the shape of x");
  StepPlan p(b);
  auto [gate, up] = halves(p, x, s);
  auto [og, ou] = halves(p, out, s);
  if (!activate_left) {
    std::swap(gate, up);
    std::swap(og, ou);
  }
  const View g = p.tensor(grad);
  const DType c = arithmetic_dtype(x.dtype);
  p.elementwise<3>(c, s.half, og, {g, gate, up}, [&](auto tag) {
    PACL_T;
    return SituGluGradGateOp<T>{static_cast<T>(beta), static_cast<T>(linear_beta)};
  });
  p.elementwise<3>(c, s.half, ou, {g, gate, up}, [&](auto tag) {
    PACL_T;
    return SituGluGradUpOp<T>{static_cast<T>(beta), static_cast<T>(linear_beta)};
  });
  p.finish(with_dtype(b.op().name, x.dtype));
}

// ---- GeluMul / FatreluMul: the halves of the last dim -------------------------------------------------------

Split split_last(const OpInfo& op, const aclTensor& input, const aclTensor& out) {
  check_dtype_in(op, "input", input.dtype, kF3);
  check_dtype_in(op, "out", out.dtype, kF3);
  check_same_dtype(out, "out", input, "input");
  if (input.dim() < 2) invalid("input has {} dims ({}), expected 2 to 8", input.dim(), input.describe());
  check_rank(out, "out");
  const Split s = split_along(input, "input", -1);
  check_shape_equals(out, "out", s.half, "the shape of input with the last dim halved:");
  return s;
}

void plan_gelu_mul(OpBuilder& b, const aclTensor& input, const char* approximate, const aclTensor& out) {
  const Split s = split_last(b.op(), input, out);
  bool tanh_form = false;
  if (approximate && std::strcmp(approximate, "tanh") == 0) tanh_form = true;
  else if (approximate && std::strcmp(approximate, "none") != 0)
    invalid("approximateOptional is \"{}\", expected \"none\" or \"tanh\"", approximate);
  StepPlan p(b);
  const auto [x0, x1] = halves(p, input, s);
  p.elementwise<2>(arithmetic_dtype(input.dtype), s.half, p.tensor(out), {x0, x1}, [&](auto tag) {
    PACL_T;
    return GeGluOp<T>{tanh_form};
  });
  p.finish(with_dtype(b.op().name, input.dtype));
}

void plan_fatrelu_mul(OpBuilder& b, const aclTensor& input, const aclTensor& threshold, const aclTensor& out) {
  const Split s = split_last(b.op(), input, out);
  check_dtype_in(b.op(), "threshold", threshold.dtype, kF3);
  check_same_dtype(threshold, "threshold", input, "input");
  if (threshold.numel() != 1)
    invalid("threshold has {} elements ({}), expected exactly 1", threshold.numel(), threshold.describe());
  StepPlan p(b);
  const auto [x0, x1] = halves(p, input, s);
  const View th = p.tensor(threshold).with_strides(Dims(s.half.size(), 0));
  p.elementwise<3>(arithmetic_dtype(input.dtype), s.half, p.tensor(out), {x0, x1, th}, [](auto tag) {
    PACL_T;
    return FatreluMulOp<T>{};
  });
  p.finish(with_dtype(b.op().name, input.dtype));
}

// ---- ClippedSwiglu / SwigluGroup: rows of [pre, cut] ----------------------------------------------------------

struct Rows {
  int64_t pre, cut;  // x as [pre, cut]
};

Rows merge_rows(const aclTensor& x, int64_t d) {
  Rows r{1, 1};
  for (int64_t i = 0; i < x.dim(); ++i) (i < d ? r.pre : r.cut) *= x.view[static_cast<size_t>(i)];
  return r;
}

// The row count a group-count tensor selects: min(sum, pre), read at run time.
void check_group_index(const OpInfo& op, const aclTensor& gi, const char* name) {
  check_dtype_in(op, name, gi.dtype, dtype_mask({DType::kInt64}));
  if (gi.dim() != 1) invalid("{} has {} dims ({}), expected 1", name, gi.dim(), gi.describe());
}

// Adds a step that zeroes rows [min(sum(gi), pre), pre) of the dense [pre, width] array `out`.
void zero_rows_past_groups(StepPlan& p, const aclTensor& gi, const View& out, int64_t pre, int64_t width) {
  const View g = p.tensor(gi);
  const int64_t n = gi.view[0], stride = gi.strides[0];
  const size_t row_bytes = static_cast<size_t>(width) * dtype_size(out.dtype);
  p.step([=](const StepArgs& a) {
    const int64_t* v = a.get<const int64_t>(g.ref);
    int64_t sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += std::max<int64_t>(v[i * stride], 0);
    const int64_t rows = std::min(sum, pre);
    if (rows < pre)
      std::memset(a.get<char>(out.ref) + static_cast<size_t>(rows) * row_bytes, 0,
                  static_cast<size_t>(pre - rows) * row_bytes);
  });
}

// x as dense [pre, cut] split into A and B (front/back halves or even/odd elements) over [pre, cut/2].
std::pair<View, View> row_halves(StepPlan& p, const aclTensor& x, const Rows& r, bool interleaved) {
  const View xd = p.dense_input(x, x.dtype);
  const int64_t h = r.cut / 2;
  if (interleaved) {
    const View a = xd.with_strides({r.cut, 2});
    return {a, a.shifted(1)};
  }
  const View a = xd.with_strides({r.cut, 1});
  return {a, a.shifted(h)};
}

void check_limit(double limit) {
  if (!(limit > 0)) invalid("limit must be greater than 0, got {}", limit);
}

void plan_clipped_swiglu(OpBuilder& b, const aclTensor& x, const aclTensor* gi, int64_t dim, double alpha, double limit,
                         double bias, bool interleaved, int64_t clamp_mode, const aclTensor& out) {
  check_dtype_in(b.op(), "x", x.dtype, kF3);
  check_dtype_in(b.op(), "out", out.dtype, kF3);
  check_same_dtype(out, "out", x, "x");
  if (gi) check_group_index(b.op(), *gi, "groupIndexOptional");
  check_rank(out, "out");
  const Split s = split_along(x, "x", dim);
  check_shape_equals(out, "out", s.half, "the shape of x with dim halved:");
  check_limit(limit);
  if (clamp_mode != 0 && clamp_mode != 1)
    invalid("clampMode must be 0 (clamp before silu) or 1 (clamp after silu), got {}", clamp_mode);
  if (x.numel() == 0) return;
  const Rows r = merge_rows(x, s.dim);
  StepPlan p(b);
  const auto [xa, xb] = row_halves(p, x, r, interleaved);
  const View o = p.dense_output(out, out.dtype);
  const Dims shape{r.pre, r.cut / 2};
  p.elementwise<2>(arithmetic_dtype(x.dtype), shape, o.with_strides({r.cut / 2, 1}), {xa, xb}, [&](auto tag) {
    PACL_T;
    return ClippedSwigluOp<T>{static_cast<T>(alpha), static_cast<T>(limit), static_cast<T>(bias), clamp_mode == 1};
  });
  if (gi) zero_rows_past_groups(p, *gi, o, r.pre, r.cut / 2);
  p.finish(with_dtype(b.op().name, x.dtype));
}

void plan_clipped_swiglu_grad(OpBuilder& b, const aclTensor& grad, const aclTensor& x, const aclTensor* gi,
                              int64_t dim, double alpha, double limit, double bias, bool interleaved,
                              const aclTensor& out) {
  check_dtype_in(b.op(), "x", x.dtype, kF3);
  check_dtype_in(b.op(), "gradY", grad.dtype, kF3);
  check_dtype_in(b.op(), "gradXOut", out.dtype, kF3);
  check_same_dtype(grad, "gradY", x, "x");
  check_same_dtype(out, "gradXOut", x, "x");
  if (gi) check_group_index(b.op(), *gi, "groupIndexOptional");
  check_rank(grad, "gradY");
  check_rank(out, "gradXOut");
  const Split s = split_along(x, "x", dim);
  if (grad.view != s.half)
    invalid("gradY has shape {}, expected the shape of x with dim {} halved: {}", dims_str(grad.view), dim,
            dims_str(s.half));
  check_shape_equals(out, "gradXOut", x.view, "the shape of x");
  check_limit(limit);
  if (x.numel() == 0) return;
  const Rows r = merge_rows(x, s.dim);
  const int64_t h = r.cut / 2;
  StepPlan p(b);
  const auto [xa, xb] = row_halves(p, x, r, interleaved);
  const View g = p.dense_input(grad, grad.dtype).with_strides({h, 1});
  const View o = p.dense_output(out, out.dtype);
  const View oa = o.with_strides({r.cut, interleaved ? 2 : 1});
  const View ob = oa.shifted(interleaved ? 1 : h);
  const Dims shape{r.pre, h};
  const DType c = arithmetic_dtype(x.dtype);
  p.elementwise<3>(c, shape, oa, {g, xa, xb}, [&](auto tag) {
    PACL_T;
    return ClippedSwigluGradAOp<T>{static_cast<T>(alpha), static_cast<T>(limit), static_cast<T>(bias)};
  });
  p.elementwise<3>(c, shape, ob, {g, xa, xb}, [&](auto tag) {
    PACL_T;
    return ClippedSwigluGradBOp<T>{static_cast<T>(alpha), static_cast<T>(limit)};
  });
  if (gi) zero_rows_past_groups(p, *gi, o, r.pre, r.cut);
  p.finish(with_dtype(b.op().name, x.dtype));
}

void plan_swiglu_group(OpBuilder& b, const aclTensor& x, const aclTensor* w, const aclTensor* gi, double clamp_limit,
                       const aclTensor& out) {
  check_dtype_in(b.op(), "x", x.dtype, kF3);
  check_dtype_in(b.op(), "out", out.dtype, kF3);
  check_same_dtype(out, "out", x, "x");
  check_rank(out, "out");
  const Split s = split_along(x, "x", -1);
  check_shape_equals(out, "out", s.half, "the shape of x with the last dim halved:");
  const Rows r = merge_rows(x, s.dim);
  if (w) {
    check_dtype_in(b.op(), "weightOptional", w->dtype, dtype_mask({F32}));
    if (w->numel() != r.pre)
      invalid("weightOptional has {} elements ({}), expected one per token of x: {}", w->numel(), w->describe(),
              r.pre);
  }
  if (gi) {
    check_group_index(b.op(), *gi, "groupIndexOptional");
    if (gi->numel() == 0) invalid("groupIndexOptional is empty ({}), expected at least 1 element", gi->describe());
  }
  const bool clamp = clamp_limit != -1.0;
  if (clamp && !(clamp_limit > 0))
    invalid("clampLimit must be -1 (no clamp) or greater than 0, got {}", clamp_limit);
  if (x.numel() == 0) return;
  StepPlan p(b);
  const auto [xa, xb] = row_halves(p, x, r, false);
  const View o = p.dense_output(out, out.dtype);
  const int64_t h = r.cut / 2;
  const Dims shape{r.pre, h};
  const DType c = arithmetic_dtype(x.dtype);
  const View od = o.with_strides({h, 1});
  if (w) {
    const View wd = p.dense_input(*w, F32).with_strides({1, 0});
    p.elementwise<3>(c, shape, od, {xa, xb, wd}, [&](auto tag) {
      PACL_T;
      return SwigluGroupWeightOp<T>{clamp, static_cast<T>(clamp_limit)};
    });
  } else {
    p.elementwise<2>(c, shape, od, {xa, xb}, [&](auto tag) {
      PACL_T;
      return SwigluGroupOp<T>{clamp, static_cast<T>(clamp_limit)};
    });
  }
  if (gi) zero_rows_past_groups(p, *gi, o, r.pre, h);
  p.finish(with_dtype(b.op().name, x.dtype));
}

}  // namespace
}  // namespace pacl

// ---- phase-1 entry points -------------------------------------------------------------------------

using pacl::OpBuilder;

#define PACL_PHASE1(Name, ...)                                                                                    \
  pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) { \
    __VA_ARGS__;                                                                                                  \
  })

extern "C" {

aclnnStatus aclnnGluGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
  return PACL_PHASE1(Glu, {
    const aclTensor& s = b.input(self, "self");
    const aclTensor& o = b.output(out, "out");
    pacl::plan_split_forward<pacl::GluOp>(b, s, "self", dim, o, "out", pacl::kF4, false, pacl::kMaxElementwiseRank);
  });
}

aclnnStatus aclnnSwiGluGetWorkspaceSize(const aclTensor* x, int64_t dim, const aclTensor* out, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
  return PACL_PHASE1(SwiGlu, {
    const aclTensor& xt = b.input(x, "x");
    const aclTensor& o = b.output(out, "out");
    pacl::plan_split_forward<pacl::SwiGluOp>(b, xt, "x", dim, o, "out", pacl::kF3, true, pacl::kMaxElementwiseRank);
  });
}

aclnnStatus aclnnGluBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* self, int64_t dim,
                                             const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(GluBackward, {
    const aclTensor& g = b.input(gradOut, "gradOut");
    const aclTensor& s = b.input(self, "self");
    const aclTensor& o = b.output(out, "out");
    pacl::plan_split_backward(
        b, g, "gradOut", s, "self", dim, o, "out", pacl::kF4,
        [](auto tag) {
          PACL_T;
          return pacl::GluGradAOp<T>{};
        },
        [](auto tag) {
          PACL_T;
          return pacl::GluGradBOp<T>{};
        });
  });
}

aclnnStatus aclnnSwiGluGradGetWorkspaceSize(const aclTensor* yGrad, const aclTensor* x, int64_t dim,
                                            const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(SwiGluGrad, {
    const aclTensor& g = b.input(yGrad, "yGrad");
    const aclTensor& xt = b.input(x, "x");
    const aclTensor& o = b.output(out, "out");
    pacl::plan_split_backward(
        b, g, "yGrad", xt, "x", dim, o, "out", pacl::kF3,
        [](auto tag) {
          PACL_T;
          return pacl::SwiGluGradAOp<T>{};
        },
        [](auto tag) {
          PACL_T;
          return pacl::SwiGluGradBOp<T>{};
        });
  });
}

aclnnStatus aclnnGeGluGetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t approximate, aclTensor* out,
                                       aclTensor* outGelu, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(GeGlu, {
    const aclTensor& s = b.input(self, "self");
    const aclTensor& o = b.output(out, "out");
    const aclTensor& og = b.output(outGelu, "outGelu");
    pacl::plan_geglu(b, s, dim, approximate, false, o, og);
  });
}

aclnnStatus aclnnGeGluV3GetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t approximate, bool activateLeft,
                                         aclTensor* out, aclTensor* outGelu, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return PACL_PHASE1(GeGluV3, {
    const aclTensor& s = b.input(self, "self");
    const aclTensor& o = b.output(out, "out");
    const aclTensor& og = b.output(outGelu, "outGelu");
    pacl::plan_geglu(b, s, dim, approximate, activateLeft, o, og);
  });
}

aclnnStatus aclnnGeGluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                               const aclTensor* gelu, int64_t dim, int64_t approximate,
                                               aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(GeGluBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& s = b.input(self, "self");
    const aclTensor& ge = b.input(gelu, "gelu");
    const aclTensor& o = b.output(gradInput, "gradInput");
    pacl::plan_geglu_backward(b, g, s, ge, dim, approximate, false, o);
  });
}

aclnnStatus aclnnGeGluV3BackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                 const aclTensor* gelu, int64_t dim, int64_t approximate,
                                                 bool activateLeft, aclTensor* gradInput, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  return PACL_PHASE1(GeGluV3Backward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& s = b.input(self, "self");
    const aclTensor& ge = b.input(gelu, "gelu");
    const aclTensor& o = b.output(gradInput, "gradInput");
    pacl::plan_geglu_backward(b, g, s, ge, dim, approximate, activateLeft, o);
  });
}

aclnnStatus aclnnSituGluGetWorkspaceSize(const aclTensor* x, int64_t dim, double beta, double linearBeta,
                                         bool activateLeft, const aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return PACL_PHASE1(SituGlu, {
    const aclTensor& xt = b.input(x, "x");
    const aclTensor& o = b.output(out, "out");
    pacl::plan_situ_glu(b, xt, dim, beta, linearBeta, activateLeft, o);
  });
}

aclnnStatus aclnnSituGluGradGetWorkspaceSize(const aclTensor* gradY, const aclTensor* x, int64_t dim, double beta,
                                             double linearBeta, bool activateLeft, const aclTensor* out,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(SituGluGrad, {
    const aclTensor& g = b.input(gradY, "gradY");
    const aclTensor& xt = b.input(x, "x");
    const aclTensor& o = b.output(out, "out");
    pacl::plan_situ_glu_grad(b, g, xt, dim, beta, linearBeta, activateLeft, o);
  });
}

aclnnStatus aclnnGeluMulGetWorkspaceSize(const aclTensor* input, char* approximateOptional, const aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(GeluMul, {
    const aclTensor& in = b.input(input, "input");
    const aclTensor& o = b.output(out, "out");
    pacl::plan_gelu_mul(b, in, approximateOptional, o);
  });
}

aclnnStatus aclnnFatreluMulGetWorkspaceSize(const aclTensor* input, const aclTensor* threshold, const aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(FatreluMul, {
    const aclTensor& in = b.input(input, "input");
    const aclTensor& th = b.input(threshold, "threshold");
    const aclTensor& o = b.output(out, "out");
    pacl::plan_fatrelu_mul(b, in, th, o);
  });
}

aclnnStatus aclnnClippedSwigluGetWorkspaceSize(const aclTensor* x, const aclTensor* groupIndexOptional, int64_t dim,
                                               double alpha, double limit, double bias, bool interleaved,
                                               const aclTensor* out, uint64_t* workspaceSize,
                                               aclOpExecutor** executor) {
  return PACL_PHASE1(ClippedSwiglu, {
    const aclTensor& xt = b.input(x, "x");
    const aclTensor* gi = groupIndexOptional ? &b.input(groupIndexOptional, "groupIndexOptional") : nullptr;
    const aclTensor& o = b.output(out, "out");
    pacl::plan_clipped_swiglu(b, xt, gi, dim, alpha, limit, bias, interleaved, 0, o);
  });
}

aclnnStatus aclnnClippedSwigluV2GetWorkspaceSize(const aclTensor* x, const aclTensor* groupIndexOptional, int64_t dim,
                                                 double alpha, double limit, double bias, bool interleaved,
                                                 int64_t clampMode, const aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  return PACL_PHASE1(ClippedSwigluV2, {
    const aclTensor& xt = b.input(x, "x");
    const aclTensor* gi = groupIndexOptional ? &b.input(groupIndexOptional, "groupIndexOptional") : nullptr;
    const aclTensor& o = b.output(out, "out");
    pacl::plan_clipped_swiglu(b, xt, gi, dim, alpha, limit, bias, interleaved, clampMode, o);
  });
}

aclnnStatus aclnnClippedSwigluGradGetWorkspaceSize(const aclTensor* gradY, const aclTensor* x,
                                                   const aclTensor* groupIndexOptional, int64_t dim, double alpha,
                                                   double limit, double bias, bool interleaved,
                                                   const aclTensor* gradXOut, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return PACL_PHASE1(ClippedSwigluGrad, {
    const aclTensor& g = b.input(gradY, "gradY");
    const aclTensor& xt = b.input(x, "x");
    const aclTensor* gi = groupIndexOptional ? &b.input(groupIndexOptional, "groupIndexOptional") : nullptr;
    const aclTensor& o = b.output(gradXOut, "gradXOut");
    pacl::plan_clipped_swiglu_grad(b, g, xt, gi, dim, alpha, limit, bias, interleaved, o);
  });
}

aclnnStatus aclnnSwigluGroupGetWorkspaceSize(const aclTensor* x, const aclTensor* weightOptional,
                                             const aclTensor* groupIndexOptional, double clampLimit,
                                             const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(SwigluGroup, {
    const aclTensor& xt = b.input(x, "x");
    const aclTensor* w = weightOptional ? &b.input(weightOptional, "weightOptional") : nullptr;
    const aclTensor* gi = groupIndexOptional ? &b.input(groupIndexOptional, "groupIndexOptional") : nullptr;
    const aclTensor& o = b.output(out, "out");
    pacl::plan_swiglu_group(b, xt, w, gi, clampLimit, o);
  });
}

}  // extern "C"
