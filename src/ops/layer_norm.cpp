// LayerNorm (also WithImplMode and Fast: the same results here), AddLayerNorm and DeepNorm: row
// normalisations over trailing dims (see row_norm.h for the formulas and rounding rules).
// Inputs: float32, float16, bfloat16 (CANN's list) and float64 (pacl extra, computed in float64).
// Outputs may be of any of those dtypes: results are converted (CANN casts them too).
#include <cstdint>

#include "aclnnop/aclnn_ada_layer_norm.h"
#include "aclnnop/aclnn_ada_layer_norm_v2.h"
#include "aclnnop/aclnn_add_layer_norm.h"
#include "aclnnop/aclnn_deep_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/registry.h"
#include "ops/row_norm.h"

namespace pacl {
namespace {

// A parameter (weight, bias, gamma, beta) must have x's dtype or float32.
void check_param_dtype(const OpInfo& op, const aclTensor& t, const char* name, DType x, const char* x_name) {
  check_dtype_in(op, name, t.dtype, kFloatingTypes);
  if (t.dtype != x && t.dtype != DType::kFloat)
    invalid("{} has dtype {}, expected the dtype of {} ({}) or float32", name, dtype_name(t.dtype), x_name, dtype_name(x));
}

const aclTensor* optional_input(OpBuilder& b, const aclTensor* t, const char* name) {
  return t ? &b.input(t, name) : nullptr;
}
const aclTensor* optional_output(OpBuilder& b, const aclTensor* t, const char* name) {
  return t ? &b.output(t, name) : nullptr;
}

void plan_layer_norm(OpBuilder& b, const aclTensor* input_arg, const aclIntArray* shape_arg, const aclTensor* weight_arg,
                     const aclTensor* bias_arg, double eps, const aclTensor* out_arg, const aclTensor* mean_arg,
                     const aclTensor* rstd_arg, int32_t impl_mode, bool has_impl_mode) {
  const aclTensor& input = b.input(input_arg, "input");
  const aclIntArray& norm_shape = b.int_array(shape_arg, "normalizedShape");
  const aclTensor* weight = optional_input(b, weight_arg, "weightOptional");
  const aclTensor* bias = optional_input(b, bias_arg, "biasOptional");
  const aclTensor& out = b.output(out_arg, "out");
  const aclTensor* mean = optional_output(b, mean_arg, "meanOutOptional");
  const aclTensor* rstd = optional_output(b, rstd_arg, "rstdOutOptional");
  const OpInfo& op = b.op();
  check_dtype_in(op, "input", input.dtype, kFloatingTypes);
  if (weight) check_param_dtype(op, *weight, "weightOptional", input.dtype, "input");
  if (bias) check_param_dtype(op, *bias, "biasOptional", input.dtype, "input");
  if (weight && bias) check_dtype_like(*bias, "biasOptional", *weight, "weightOptional");
  check_dtype_in(op, "out", out.dtype, kFloatingTypes);
  if (mean) check_dtype_in(op, "meanOutOptional", mean->dtype, kFloatingTypes);
  if (rstd) check_dtype_in(op, "rstdOutOptional", rstd->dtype, kFloatingTypes);
  if (has_impl_mode) {
    if (impl_mode < 0 || impl_mode > 2) invalid("implMode is {}, expected 0 (high precision), 1 (high performance) or 2 (float16)", impl_mode);
    const bool all16 = input.dtype == DType::kFloat16 && (!weight || weight->dtype == DType::kFloat16) &&
                       (!bias || bias->dtype == DType::kFloat16);
    if (impl_mode == 2 && !all16) invalid("implMode 2 (keep float16) needs input, weight and bias of dtype float16");
  }
  check_rank(input, "input");
  const int64_t nd = static_cast<int64_t>(norm_shape.values.size());
  if (nd < 1) invalid("normalizedShape is empty, expected at least one dim");
  if (nd > input.dim())
    invalid("normalizedShape has {} dims, expected at most the {} dims of input (shape {})", nd, input.dim(), dims_str(input.view));
  const Dims tail(input.view.end() - nd, input.view.end());
  if (tail != norm_shape.values)
    invalid("normalizedShape is {}, expected the trailing dims of input (shape {})", dims_str(norm_shape.values), dims_str(input.view));
  if (weight && weight->view != norm_shape.values)
    invalid("weightOptional has shape {}, expected normalizedShape {}", dims_str(weight->view), dims_str(norm_shape.values));
  if (bias && bias->view != norm_shape.values)
    invalid("biasOptional has shape {}, expected normalizedShape {}", dims_str(bias->view), dims_str(norm_shape.values));
  check_shape_like(out, "out", input, "input");
  int64_t rows, cols;
  split_rows_cols(input.view, nd, &rows, &cols);
  if (mean) check_stat_shape(*mean, "meanOutOptional", input.view, nd, rows);
  if (rstd) check_stat_shape(*rstd, "rstdOutOptional", input.view, nd, rows);
  if (rows == 0) return;
  RowNormSpec s;
  s.x1 = &input;
  s.gamma = weight;
  s.beta = bias;
  s.y = &out;
  s.mean = mean;
  s.rstd = rstd;
  s.eps = eps;
  s.rows = rows;
  s.cols = cols;
  s.compute = arithmetic_dtype(input.dtype);
  s.name = "layer_norm";
  plan_row_norm(b, s);
}

void plan_add_layer_norm(OpBuilder& b, const aclTensor* x1_arg, const aclTensor* x2_arg, const aclTensor* gamma_arg,
                         const aclTensor* beta_arg, const aclTensor* bias_arg, double eps, bool additional_output,
                         const aclTensor* y_arg, const aclTensor* mean_arg, const aclTensor* rstd_arg,
                         const aclTensor* x_arg) {
  const aclTensor& x1 = b.input(x1_arg, "x1");
  const aclTensor& x2 = b.input(x2_arg, "x2");
  const aclTensor& gamma = b.input(gamma_arg, "gamma");
  const aclTensor& beta = b.input(beta_arg, "beta");
  const aclTensor* bias = optional_input(b, bias_arg, "biasOptional");
  const aclTensor& y = b.output(y_arg, "yOut");
  const aclTensor& mean = b.output(mean_arg, "meanOut");
  const aclTensor& rstd = b.output(rstd_arg, "rstdOut");
  const aclTensor* xout = additional_output ? &b.output(x_arg, "xOut") : nullptr;
  const OpInfo& op = b.op();
  for (auto [t, n] : {std::pair{&x1, "x1"}, {&x2, "x2"}, {&gamma, "gamma"}, {&beta, "beta"}, {bias, "biasOptional"},
                      {&y, "yOut"}, {&mean, "meanOut"}, {&rstd, "rstdOut"}, {xout, "xOut"}})
    if (t) check_dtype_in(op, n, t->dtype, kFloatingTypes);
  check_dtype_like(beta, "beta", gamma, "gamma");
  check_rank(x1, "x1");
  check_shape_like(x2, "x2", x1, "x1");
  const int64_t nd = gamma.dim();
  if (nd > x1.dim() || !std::equal(gamma.view.begin(), gamma.view.end(), x1.view.end() - nd))
    invalid("gamma has shape {}, expected the trailing dims of x1 (shape {})", dims_str(gamma.view), dims_str(x1.view));
  check_shape_like(beta, "beta", gamma, "gamma");
  if (bias && bias->view != gamma.view && bias->view != x1.view)
    invalid("biasOptional has shape {}, expected the shape of gamma {} or of x1 {}", dims_str(bias->view), dims_str(gamma.view),
            dims_str(x1.view));
  check_shape_like(y, "yOut", x1, "x1");
  if (xout) check_shape_like(*xout, "xOut", x1, "x1");
  int64_t rows, cols;
  split_rows_cols(x1.view, nd, &rows, &cols);
  check_stat_shape(mean, "meanOut", x1.view, nd, rows);
  check_stat_shape(rstd, "rstdOut", x1.view, nd, rows);
  if (rows == 0) return;
  const DType sum_t = promote(x1.dtype, x2.dtype);
  DType all = promote(sum_t, promote(gamma.dtype, beta.dtype));
  if (bias) all = promote(all, bias->dtype);
  RowNormSpec s;
  s.x1 = &x1;
  s.x2 = &x2;
  s.add_bias = bias;
  s.gamma = &gamma;
  s.beta = &beta;
  s.y = &y;
  s.xsum = xout;
  s.mean = &mean;
  s.rstd = &rstd;
  s.eps = eps;
  s.rows = rows;
  s.cols = cols;
  s.compute = arithmetic_dtype(all);
  s.sum_dtype = sum_t;
  s.name = "add_layer_norm";
  plan_row_norm(b, s);
}

void plan_deep_norm(OpBuilder& b, const aclTensor* x_arg, const aclTensor* gx_arg, const aclTensor* beta_arg,
                    const aclTensor* gamma_arg, double alpha, double eps, const aclTensor* mean_arg,
                    const aclTensor* rstd_arg, const aclTensor* y_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& gx = b.input(gx_arg, "gx");
  const aclTensor& beta = b.input(beta_arg, "beta");
  const aclTensor& gamma = b.input(gamma_arg, "gamma");
  const aclTensor& mean = b.output(mean_arg, "meanOut");
  const aclTensor& rstd = b.output(rstd_arg, "rstdOut");
  const aclTensor& y = b.output(y_arg, "yOut");
  const OpInfo& op = b.op();
  check_dtype_in(op, "x", x.dtype, kFloatingTypes);
  check_dtype_like(gx, "gx", x, "x");
  check_dtype_like(beta, "beta", x, "x");
  check_dtype_like(gamma, "gamma", x, "x");
  check_dtype_in(op, "meanOut", mean.dtype, kFloatingTypes);
  check_dtype_in(op, "rstdOut", rstd.dtype, kFloatingTypes);
  check_dtype_in(op, "yOut", y.dtype, kFloatingTypes);
  check_rank(x, "x");
  check_shape_like(gx, "gx", x, "x");
  const int64_t nd = gamma.dim();
  if (nd > x.dim() || !std::equal(gamma.view.begin(), gamma.view.end(), x.view.end() - nd))
    invalid("gamma has shape {}, expected the trailing dims of x (shape {})", dims_str(gamma.view), dims_str(x.view));
  check_shape_like(beta, "beta", gamma, "gamma");
  check_shape_like(y, "yOut", x, "x");
  int64_t rows, cols;
  split_rows_cols(x.view, nd, &rows, &cols);
  check_stat_shape(mean, "meanOut", x.view, nd, rows);
  check_stat_shape(rstd, "rstdOut", x.view, nd, rows);
  if (rows == 0) return;
  RowNormSpec s;
  s.x1 = &x;
  s.x2 = &gx;
  s.alpha = alpha;
  s.gamma = &gamma;
  s.beta = &beta;
  s.y = &y;
  s.mean = &mean;
  s.rstd = &rstd;
  s.eps = eps;
  s.rows = rows;
  s.cols = cols;
  s.compute = arithmetic_dtype(x.dtype);
  s.name = "deep_norm";
  plan_row_norm(b, s);
}

// AdaLayerNorm (v2: also mean / rstd outputs, weight / bias may be float32):
// out = LayerNorm(x) * (1 + scale) + shift over the last dim H of x [B..., S, H], scale and shift
// holding one row of H values per batch ([B..., H] or [B..., 1, H]).
void plan_ada_layer_norm(OpBuilder& b, bool v2, const aclTensor* x_arg, const aclTensor* sc_arg, const aclTensor* sh_arg,
                         const aclTensor* w_arg, const aclTensor* b_arg, double eps, const aclTensor* y_arg,
                         const aclTensor* m_arg, const aclTensor* r_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& scale = b.input(sc_arg, "scale");
  const aclTensor& shift = b.input(sh_arg, "shift");
  const aclTensor* w = optional_input(b, w_arg, "weightOptional");
  const aclTensor* bias = optional_input(b, b_arg, "biasOptional");
  const aclTensor& y = b.output(y_arg, "out");
  const aclTensor* mean = v2 ? optional_output(b, m_arg, "meanOutOptional") : nullptr;
  const aclTensor* rstd = v2 ? optional_output(b, r_arg, "rstdOutOptional") : nullptr;
  const OpInfo& op = b.op();
  check_dtype_in(op, "x", x.dtype, kFloatingTypes);
  check_dtype_like(scale, "scale", x, "x");
  check_dtype_like(shift, "shift", x, "x");
  for (auto [t, n] : {std::pair{w, "weightOptional"}, {bias, "biasOptional"}}) {
    if (!t) continue;
    if (v2) check_param_dtype(op, *t, n, x.dtype, "x");
    else check_dtype_like(*t, n, x, "x");
  }
  if (w && bias) check_dtype_like(*bias, "biasOptional", *w, "weightOptional");
  check_dtype_in(op, "out", y.dtype, kFloatingTypes);
  if (mean) check_dtype_in(op, "meanOutOptional", mean->dtype, kFloatingTypes);
  if (rstd) check_dtype_in(op, "rstdOutOptional", rstd->dtype, kFloatingTypes);
  if (x.dim() < 2 || x.dim() > 8) invalid("x has {} dims ({}), expected 2 to 8 ([B..., S, H])", x.dim(), dims_str(x.view));
  const int64_t H = x.view.back(), S = x.view[x.view.size() - 2];
  int64_t rows, cols;
  split_rows_cols(x.view, 1, &rows, &cols);
  const int64_t batches = S ? rows / S : 0;
  for (auto [t, n] : {std::pair{&scale, "scale"}, {&shift, "shift"}})
    if (t->dim() < 1 || t->view.back() != H || t->numel() != batches * H)
      invalid("{} has shape {}, expected [B..., H] or [B..., 1, H] with B... the leading dims of x {} and H = {}", n,
              dims_str(t->view), dims_str(x.view), H);
  for (auto [t, n] : {std::pair{w, "weightOptional"}, {bias, "biasOptional"}})
    if (t && (t->dim() != 1 || t->view[0] != H)) invalid("{} has shape {}, expected [{}]", n, dims_str(t->view), H);
  check_shape_like(y, "out", x, "x");
  if (mean) check_stat_shape(*mean, "meanOutOptional", x.view, 1, rows);
  if (rstd) check_stat_shape(*rstd, "rstdOutOptional", x.view, 1, rows);
  if (rows == 0) return;
  RowNormSpec s;
  s.x1 = &x;
  s.gamma = w;
  s.beta = bias;
  s.y = &y;
  s.mean = mean;
  s.rstd = rstd;
  s.ada_scale = &scale;
  s.ada_shift = &shift;
  s.ada_rows = S;
  s.eps = eps;
  s.rows = rows;
  s.cols = cols;
  DType ct = x.dtype;
  if (w) ct = promote(ct, w->dtype);
  s.compute = arithmetic_dtype(ct);
  s.name = v2 ? "ada_layer_norm_v2" : "ada_layer_norm";
  plan_row_norm(b, s);
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnAdaLayerNormGetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                        const aclTensor* shift, const aclTensor* weightOptional,
                                                        const aclTensor* biasOptional, double epsilon, aclTensor* out,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AdaLayerNorm, "aclnnAdaLayerNormGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_ada_layer_norm(b, false, x, scale, shift, weightOptional, biasOptional, epsilon,
                                                      out, nullptr, nullptr);
                          });
}

extern "C" aclnnStatus aclnnAdaLayerNormV2GetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                          const aclTensor* shift, const aclTensor* weightOptional,
                                                          const aclTensor* biasOptional, double epsilon, aclTensor* out,
                                                          aclTensor* meanOutOptional, aclTensor* rstdOutOptional,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AdaLayerNormV2, "aclnnAdaLayerNormV2GetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_ada_layer_norm(b, true, x, scale, shift, weightOptional, biasOptional, epsilon,
                                                      out, meanOutOptional, rstdOutOptional);
                          });
}

extern "C" aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor* input, const aclIntArray* normalizedShape,
                                                     const aclTensor* weightOptional, const aclTensor* biasOptional,
                                                     double eps, aclTensor* out, aclTensor* meanOutOptional,
                                                     aclTensor* rstdOutOptional, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_LayerNorm, "aclnnLayerNormGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_layer_norm(b, input, normalizedShape, weightOptional, biasOptional, eps, out,
                                                  meanOutOptional, rstdOutOptional, 0, false);
                          });
}

extern "C" aclnnStatus aclnnLayerNormWithImplModeGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional,
    const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional, aclTensor* rstdOutOptional,
    int32_t implMode, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_LayerNormWithImplMode, "aclnnLayerNormWithImplModeGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_layer_norm(b, input, normalizedShape, weightOptional, biasOptional, eps, out,
                                                  meanOutOptional, rstdOutOptional, implMode, true);
                          });
}

extern "C" aclnnStatus aclnnFastLayerNormGetWorkspaceSize(const aclTensor* input, const aclIntArray* normalizedShape,
                                                         const aclTensor* weightOptional, const aclTensor* biasOptional,
                                                         double eps, aclTensor* out, aclTensor* meanOutOptional,
                                                         aclTensor* rstdOutOptional, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_FastLayerNorm, "aclnnFastLayerNormGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_layer_norm(b, input, normalizedShape, weightOptional, biasOptional, eps, out,
                                                  meanOutOptional, rstdOutOptional, 0, false);
                          });
}

extern "C" aclnnStatus aclnnAddLayerNormGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                                                        const aclTensor* beta, const aclTensor* biasOptional,
                                                        double epsilon, bool additionalOutput, const aclTensor* yOut,
                                                        const aclTensor* meanOut, const aclTensor* rstdOut,
                                                        const aclTensor* xOut, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AddLayerNorm, "aclnnAddLayerNormGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_add_layer_norm(b, x1, x2, gamma, beta, biasOptional, epsilon, additionalOutput,
                                                      yOut, meanOut, rstdOut, xOut);
                          });
}

extern "C" aclnnStatus aclnnDeepNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gx, const aclTensor* beta,
                                                    const aclTensor* gamma, double alpha, double epsilon,
                                                    const aclTensor* meanOut, const aclTensor* rstdOut,
                                                    const aclTensor* yOut, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_DeepNorm, "aclnnDeepNormGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_deep_norm(b, x, gx, beta, gamma, alpha, epsilon, meanOut, rstdOut, yOut);
                          });
}
