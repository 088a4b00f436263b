// RmsNorm, GemmaRmsNorm, AddRmsNorm and InplaceAddRmsNorm: row normalisations over gamma's
// trailing dims (see row_norm.h). yOut = x * rstd * gamma (Gemma: * (1 + gamma)), rstd =
// 1 / sqrt(mean(x^2) + epsilon). Inputs float32, float16, bfloat16 (CANN) and float64 (pacl extra);
// gamma has x's dtype or float32; rstd and the outputs may be of any of those dtypes (converted).
// An infinite input gives NaN in its row (x * rstd is inf * 0), as the formula does.
#include <cstdint>

#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_add_rms_norm_cast.h"
#include "aclnnop/aclnn_gemma_rms_norm.h"
#include "aclnnop/aclnn_inplace_add_rms_norm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/registry.h"
#include "ops/row_norm.h"

namespace pacl {
namespace {

void check_gamma_dtype(const OpInfo& op, const aclTensor& gamma, DType x, const char* x_name) {
  check_dtype_in(op, "gamma", gamma.dtype, kFloatingTypes);
  if (gamma.dtype != x && gamma.dtype != DType::kFloat)
    invalid("gamma has dtype {}, expected the dtype of {} ({}) or float32", dtype_name(gamma.dtype), x_name, dtype_name(x));
}

// RmsNorm and GemmaRmsNorm.
void plan_rms_norm(OpBuilder& b, bool gemma, const aclTensor* x_arg, const aclTensor* gamma_arg, double eps,
                   const aclTensor* y_arg, const aclTensor* rstd_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& gamma = b.input(gamma_arg, "gamma");
  const aclTensor& y = b.output(y_arg, "yOut");
  const aclTensor* rstd = rstd_arg ? &b.output(rstd_arg, "rstdOut") : nullptr;
  const OpInfo& op = b.op();
  check_dtype_in(op, "x", x.dtype, kFloatingTypes);
  check_gamma_dtype(op, gamma, x.dtype, "x");
  check_dtype_in(op, "yOut", y.dtype, kFloatingTypes);
  if (rstd) check_dtype_in(op, "rstdOut", rstd->dtype, kFloatingTypes);
  check_rank(x, "x");
  const int64_t nd = trailing_norm_dims(x, "x", gamma.view, "gamma's shape");
  check_shape_equals(y, "yOut", x.view, "the shape of x");
  int64_t rows, cols;
  split_rows_cols(x.view, nd, &rows, &cols);
  if (rstd) check_stat_shape(*rstd, "rstdOut", x.view, nd, rows);
  if (rows == 0) return;
  RowNormSpec s;
  s.rms = true;
  s.x1 = &x;
  s.gamma = &gamma;
  s.gamma_plus_one = gemma;
  s.y = &y;
  s.rstd = rstd;
  s.eps = eps;
  s.rows = rows;
  s.cols = cols;
  s.compute = arithmetic_dtype(promote(x.dtype, gamma.dtype));
  s.name = gemma ? "gemma_rms_norm" : "rms_norm";
  plan_row_norm(b, s);
}

// AddRmsNorm (inplace == false) and InplaceAddRmsNorm (x1 receives y, x2 receives x1 + x2).
void plan_add_rms_norm(OpBuilder& b, bool inplace, const aclTensor* x1_arg, const aclTensor* x2_arg,
                       const aclTensor* gamma_arg, double eps, const aclTensor* y_arg, const aclTensor* rstd_arg,
                       const aclTensor* xout_arg) {
  const char* x1_name = inplace ? "x1Ref" : "x1";
  const char* x2_name = inplace ? "x2Ref" : "x2";
  const aclTensor& x1 = inplace ? b.inout(x1_arg, x1_name) : b.input(x1_arg, x1_name);
  const aclTensor& x2 = inplace ? b.inout(x2_arg, x2_name) : b.input(x2_arg, x2_name);
  const aclTensor& gamma = b.input(gamma_arg, "gamma");
  const aclTensor* y = inplace ? nullptr : &b.output(y_arg, "yOut");
  if (!inplace && rstd_arg && !xout_arg) throw NullArgument("xOut is null while rstdOut is given; pass both or neither");
  const aclTensor* rstd = rstd_arg ? &b.output(rstd_arg, "rstdOut") : nullptr;
  const aclTensor* xout = (!inplace && xout_arg) ? &b.output(xout_arg, "xOut") : nullptr;
  const OpInfo& op = b.op();
  check_dtype_in(op, x1_name, x1.dtype, kFloatingTypes);
  if (x2.dtype != x1.dtype)
    invalid("{} has dtype {}, expected the dtype of {} ({})", x2_name, dtype_name(x2.dtype), x1_name, dtype_name(x1.dtype));
  check_gamma_dtype(op, gamma, x1.dtype, x1_name);
  if (y) check_dtype_in(op, "yOut", y->dtype, kFloatingTypes);
  if (xout) check_dtype_in(op, "xOut", xout->dtype, kFloatingTypes);
  if (rstd) check_dtype_in(op, "rstdOut", rstd->dtype, kFloatingTypes);
  check_rank(x1, x1_name);
  check_shape_equals(x2, x2_name, x1.view, inplace ? "the shape of x1Ref" : "the shape of x1");
  const int64_t nd = trailing_norm_dims(x1, x1_name, gamma.view, "gamma's shape");
  if (y) check_shape_equals(*y, "yOut", x1.view, "the shape of x1");
  if (xout) check_shape_equals(*xout, "xOut", x1.view, "the shape of x1");
  int64_t rows, cols;
  split_rows_cols(x1.view, nd, &rows, &cols);
  if (rstd) check_stat_shape(*rstd, "rstdOut", x1.view, nd, rows);
  if (rows == 0) return;
  RowNormSpec s;
  s.rms = true;
  s.inplace = inplace;
  s.x1 = &x1;
  s.x2 = &x2;
  s.gamma = &gamma;
  s.y = y;
  s.xsum = xout;
  s.rstd = rstd;
  s.eps = eps;
  s.rows = rows;
  s.cols = cols;
  s.compute = arithmetic_dtype(promote(x1.dtype, gamma.dtype));
  s.sum_dtype = x1.dtype;
  s.name = inplace ? "inplace_add_rms_norm" : "add_rms_norm";
  plan_row_norm(b, s);
}

// AddRmsNormCast: x = float(x1) + float(x2) (not rounded to x1's dtype: the doc's formula),
// y1Out = RmsNorm(x) * gamma in float32, y2Out = y1Out cast to x1's dtype, xOut = x (cast).
void plan_add_rms_norm_cast(OpBuilder& b, const aclTensor* x1_arg, const aclTensor* x2_arg, const aclTensor* g_arg,
                            double eps, const aclTensor* y1_arg, const aclTensor* y2_arg, const aclTensor* r_arg,
                            const aclTensor* x_arg) {
  const aclTensor& x1 = b.input(x1_arg, "x1");
  const aclTensor& x2 = b.input(x2_arg, "x2");
  const aclTensor& gamma = b.input(g_arg, "gamma");
  const aclTensor& y1 = b.output(y1_arg, "y1Out");
  const aclTensor& y2 = b.output(y2_arg, "y2Out");
  const aclTensor& rstd = b.output(r_arg, "rstdOut");
  const aclTensor& xout = b.output(x_arg, "xOut");
  const OpInfo& op = b.op();
  check_dtype_in(op, "x1", x1.dtype, kFloatingTypes);
  check_dtype_like(x2, "x2", x1, "x1");
  check_gamma_dtype(op, gamma, x1.dtype, "x1");
  for (auto [t, n] : {std::pair{&y1, "y1Out"}, {&y2, "y2Out"}, {&rstd, "rstdOut"}, {&xout, "xOut"}})
    check_dtype_in(op, n, t->dtype, kFloatingTypes);
  check_rank(x1, "x1");
  check_shape_like(x2, "x2", x1, "x1");
  const int64_t nd = trailing_norm_dims(x1, "x1", gamma.view, "gamma's shape");
  check_shape_like(y1, "y1Out", x1, "x1");
  check_shape_like(y2, "y2Out", x1, "x1");
  check_shape_like(xout, "xOut", x1, "x1");
  int64_t rows, cols;
  split_rows_cols(x1.view, nd, &rows, &cols);
  check_stat_shape(rstd, "rstdOut", x1.view, nd, rows);
  if (rows == 0) return;
  RowNormSpec s;
  s.rms = true;
  s.x1 = &x1;
  s.x2 = &x2;
  s.gamma = &gamma;
  s.y = &y1;
  s.y2 = &y2;
  s.xsum = &xout;
  s.rstd = &rstd;
  s.eps = eps;
  s.rows = rows;
  s.cols = cols;
  s.compute = arithmetic_dtype(promote(x1.dtype, gamma.dtype));
  s.name = "add_rms_norm_cast";
  plan_row_norm(b, s);
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnAddRmsNormCastGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                                                          double epsilon, const aclTensor* y1Out, const aclTensor* y2Out,
                                                          const aclTensor* rstdOut, const aclTensor* xOut,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AddRmsNormCast, "aclnnAddRmsNormCastGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_add_rms_norm_cast(b, x1, x2, gamma, epsilon, y1Out, y2Out, rstdOut, xOut);
                          });
}

extern "C" aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma, double epsilon,
                                                   const aclTensor* yOut, const aclTensor* rstdOut,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_RmsNorm, "aclnnRmsNormGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_rms_norm(b, false, x, gamma, epsilon, yOut, rstdOut); });
}

extern "C" aclnnStatus aclnnGemmaRmsNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma, double epsilon,
                                                        const aclTensor* yOut, const aclTensor* rstdOut,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_GemmaRmsNorm, "aclnnGemmaRmsNormGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_rms_norm(b, true, x, gamma, epsilon, yOut, rstdOut); });
}

extern "C" aclnnStatus aclnnAddRmsNormGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                                                      double epsilon, aclTensor* yOut, aclTensor* rstdOut,
                                                      aclTensor* xOut, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AddRmsNorm, "aclnnAddRmsNormGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_add_rms_norm(b, false, x1, x2, gamma, epsilon, yOut, rstdOut, xOut);
                          });
}

extern "C" aclnnStatus aclnnInplaceAddRmsNormGetWorkspaceSize(aclTensor* x1Ref, aclTensor* x2Ref, const aclTensor* gamma,
                                                             double epsilon, const aclTensor* rstdOut,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceAddRmsNorm, "aclnnInplaceAddRmsNormGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_add_rms_norm(b, true, x1Ref, x2Ref, gamma, epsilon, nullptr, rstdOut, nullptr);
                          });
}
