// Class-index losses of the nn family and the other gathering losses: NLLLoss, NLLLoss2d (+ backward),
// CrossEntropyLoss (+ Grad), MultilabelMarginLoss, FusedCrossEntropyLossWithMaxSum,
// ChamferDistanceBackward, CtcLoss.
//
// These gather by index, so they are function steps over dense row-major copies of their operands:
// floating operands staged as float64 (or used in place when they already are), indices as int64
// (StepPlan::dense_input/dense_output do the staging and the copy-back). Sums run in double, in a
// fixed order. A class index that is neither ignoreIndex nor in [0, C) cannot be reported from phase 2;
// it counts as ignored (no loss, no weight, no gradient), as does an out-of-range point index of
// ChamferDistanceBackward.
#include <cmath>
#include <cstring>
#include <limits>

#include "aclnnop/aclnn_chamfer_distance_backward.h"
#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "aclnnop/aclnn_ctc_loss.h"
#include "aclnnop/aclnn_fused_cross_entropy_loss_with_max_sum.h"
#include "aclnnop/aclnn_multilabel_margin_loss.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss2d.h"
#include "aclnnop/aclnn_nll_loss2d_backward.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "core/phase.h"
#include "ops/nn_steps.h"
#include "ops/registry.h"

namespace pacl {
namespace {

using nn::StepArgs;
using nn::StepPlan;
using nn::View;

constexpr DType F32 = DType::kFloat, F16 = DType::kFloat16, BF16 = DType::kBFloat16, F64 = DType::kDouble;
constexpr DType I64 = DType::kInt64;
constexpr DTypeMask kF3 = dtype_mask({F32, F16, BF16});
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

void same_dtype(const aclTensor& t, const char* name, const aclTensor& ref, const char* ref_name) {
  if (t.dtype != ref.dtype)
    invalid("{} dtype {} must equal {} dtype {}", name, dtype_name(t.dtype), ref_name, dtype_name(ref.dtype));
}
void expect_shape(const aclTensor& t, const char* name, const Dims& want, const char* what) {
  if (t.view != want) invalid("{} has shape {}, expected {} {}", name, dims_str(t.view), what, dims_str(want));
}
void expect_one_element(const aclTensor& t, const char* name) {
  if (t.numel() != 1 || t.dim() > 1)
    invalid("{} has shape {}, expected a single element ([] or [1])", name, dims_str(t.view));
}
void check_reduction(int64_t reduction) {
  if (reduction < 0 || reduction > 2) invalid("reduction is {}, expected 0 (none), 1 (mean) or 2 (sum)", reduction);
}
int64_t reduction_of(const char* s, const char* name) {
  if (!s || std::strcmp(s, "mean") == 0) return 1;
  if (std::strcmp(s, "sum") == 0) return 2;
  if (std::strcmp(s, "none") == 0) return 0;
  invalid("{} is \"{}\", expected \"mean\", \"sum\" or \"none\"", name, s);
}
std::string name_of(const OpBuilder& b, DType t) { return std::string(b.op().name) + "." + dtype_name(t); }

// ---- NLLLoss / NLLLoss2d -----------------------------------------------------------------------------------

constexpr DTypeMask kTargetTypes = dtype_mask({I64, DType::kUInt8, DType::kInt32});

// self as [N, C, S] (S: the spatial size), target as [N, S].
struct NllGeom {
  int64_t n, c, s;
};

void plan_nll(OpBuilder& b, const aclTensor& self, const aclTensor& target, const aclTensor& weight, int64_t reduction,
              int64_t ignore, const aclTensor& out, const aclTensor& total, bool two_d) {
  check_dtype_in(b.op(), "self", self.dtype, kF3);
  check_dtype_in(b.op(), "target", target.dtype, kTargetTypes);
  same_dtype(weight, "weight", self, "self");
  check_can_cast(self.dtype, out, "out");
  check_can_cast(self.dtype, total, "totalWeightOut");
  check_reduction(reduction);
  NllGeom g{1, 1, 1};
  Dims none_shape;
  if (two_d) {
    if (self.dim() != 4) invalid("self has {} dims ({}), expected 4: [N, C, H, W]", self.dim(), self.describe());
    g = {self.view[0], self.view[1], self.view[2] * self.view[3]};
    expect_shape(target, "target", Dims{self.view[0], self.view[2], self.view[3]}, "[N, H, W] of self");
    none_shape = target.view;
  } else {
    if (self.dim() != 1 && self.dim() != 2) invalid("self has {} dims ({}), expected 1 or 2", self.dim(), self.describe());
    g.c = self.view.back();
    g.n = self.dim() == 2 ? self.view[0] : 1;
    expect_shape(target, "target", self.dim() == 2 ? Dims{g.n} : Dims{}, "[N] (or [] for a 1-d self)");
    none_shape = self.dim() == 2 ? Dims{g.n} : Dims{};
  }
  expect_shape(weight, "weight", Dims{g.c}, "[C]");
  if (reduction == 0 && !(self.dim() == 1 && !two_d)) expect_shape(out, "out", none_shape, "the target's shape");
  else expect_one_element(out, "out");
  expect_one_element(total, "totalWeightOut");
  StepPlan p(b);
  const View x = p.dense_input(self, F64), t = p.dense_input(target, I64), w = p.dense_input(weight, F64);
  const View o = p.dense_output(out, F64), tw = p.dense_output(total, F64);
  p.step([=](const StepArgs& a) {
    const double* xv = a.get<const double>(x.ref);
    const int64_t* tv = a.get<const int64_t>(t.ref);
    const double* wv = a.get<const double>(w.ref);
    double* ov = a.get<double>(o.ref);
    double loss = 0, weight_sum = 0;
    for (int64_t i = 0; i < g.n; ++i)
      for (int64_t s = 0; s < g.s; ++s) {
        const int64_t k = i * g.s + s, cls = tv[k];
        double l = 0;
        if (cls != ignore && cls >= 0 && cls < g.c) {
          const double wc = wv[cls];
          l = -wc * xv[(i * g.c + cls) * g.s + s];
          weight_sum += wc;
        }
        if (reduction == 0) ov[k] = l;
        loss += l;
      }
    if (reduction != 0) ov[0] = reduction == 1 ? loss / weight_sum : loss;
    a.get<double>(tw.ref)[0] = reduction == 0 ? 0.0 : weight_sum;
  });
  p.finish(name_of(b, self.dtype));
}

void plan_nll_backward(OpBuilder& b, const aclTensor& grad, const aclTensor& self, const aclTensor& target,
                       const aclTensor& weight, int64_t reduction, int64_t ignore, const aclTensor& total,
                       const aclTensor& out, bool two_d) {
  check_dtype_in(b.op(), "self", self.dtype, kF3);
  check_dtype_in(b.op(), "target", target.dtype, kTargetTypes);
  same_dtype(grad, "gradOutput", self, "self");
  same_dtype(weight, "weight", self, "self");
  same_dtype(total, "totalWeight", self, "self");
  same_dtype(out, "out", self, "self");
  check_reduction(reduction);
  NllGeom g{1, 1, 1};
  if (two_d) {
    if (self.dim() != 4) invalid("self has {} dims ({}), expected 4: [N, C, H, W]", self.dim(), self.describe());
    g = {self.view[0], self.view[1], self.view[2] * self.view[3]};
    expect_shape(target, "target", Dims{self.view[0], self.view[2], self.view[3]}, "[N, H, W] of self");
  } else {
    if (self.dim() != 1 && self.dim() != 2) invalid("self has {} dims ({}), expected 1 or 2", self.dim(), self.describe());
    g.c = self.view.back();
    g.n = self.dim() == 2 ? self.view[0] : 1;
    expect_shape(target, "target", self.dim() == 2 ? Dims{g.n} : Dims{}, "[N] (or [] for a 1-d self)");
  }
  expect_shape(weight, "weight", Dims{g.c}, "[C]");
  expect_one_element(total, "totalWeight");
  const bool per_element = reduction == 0 && !(self.dim() == 1 && !two_d);
  if (per_element) expect_shape(grad, "gradOutput", target.view, "the target's shape");
  else expect_one_element(grad, "gradOutput");
  expect_shape(out, "out", self.view, "the shape of self");
  StepPlan p(b);
  const View gv = p.dense_input(grad, F64), t = p.dense_input(target, I64), w = p.dense_input(weight, F64);
  const View tw = p.dense_input(total, F64), o = p.dense_output(out, F64);
  p.step([=](const StepArgs& a) {
    const double* gp = a.get<const double>(gv.ref);
    const int64_t* tp = a.get<const int64_t>(t.ref);
    const double* wp = a.get<const double>(w.ref);
    double* op = a.get<double>(o.ref);
    std::fill(op, op + g.n * g.c * g.s, 0.0);
    const double scale = reduction == 1 ? 1.0 / a.get<const double>(tw.ref)[0] : 1.0;
    for (int64_t i = 0; i < g.n; ++i)
      for (int64_t s = 0; s < g.s; ++s) {
        const int64_t k = i * g.s + s, cls = tp[k];
        if (cls == ignore || cls < 0 || cls >= g.c) continue;
        op[(i * g.c + cls) * g.s + s] = -wp[cls] * (per_element ? gp[k] : gp[0]) * scale;
      }
  });
  p.finish(name_of(b, self.dtype));
}

// ---- CrossEntropyLoss / CrossEntropyLossGrad ------------------------------------------------------------------

void plan_cross_entropy(OpBuilder& b, const aclTensor& input, const aclTensor& target, const aclTensor* weight,
                        const char* reduction_s, int64_t ignore, double smoothing, const aclTensor& loss,
                        const aclTensor& log_prob) {
  check_dtype_in(b.op(), "input", input.dtype, kF3);
  check_dtype_in(b.op(), "target", target.dtype, dtype_mask({I64, DType::kInt32}));
  if (weight) check_dtype_in(b.op(), "weightOptional", weight->dtype, dtype_mask({F32}));
  same_dtype(loss, "lossOut", input, "input");
  same_dtype(log_prob, "logProbOut", input, "input");
  const int64_t reduction = reduction_of(reduction_s, "reductionOptional");
  if (input.dim() != 2) invalid("input has {} dims ({}), expected 2: [N, C]", input.dim(), input.describe());
  const int64_t n = input.view[0], c = input.view[1];
  if (c <= 0) invalid("input has {} classes (dim 1), expected at least 1", c);
  expect_shape(target, "target", Dims{n}, "[N] of input");
  if (weight) expect_shape(*weight, "weightOptional", Dims{c}, "[C] of input");
  if (!(smoothing >= 0 && smoothing <= 1)) invalid("labelSmoothing is {}, expected a value in [0, 1]", smoothing);
  if (reduction == 0) expect_shape(loss, "lossOut", Dims{n}, "[N] of input");
  else expect_one_element(loss, "lossOut");
  expect_shape(log_prob, "logProbOut", input.view, "the shape of input");
  StepPlan p(b);
  const View x = p.dense_input(input, F64), t = p.dense_input(target, I64);
  const View w = weight ? p.dense_input(*weight, F64) : View{};
  const View lo = p.dense_output(loss, F64), lp = p.dense_output(log_prob, F64);
  const bool has_w = weight != nullptr;
  p.step([=](const StepArgs& a) {
    const double* xv = a.get<const double>(x.ref);
    const int64_t* tv = a.get<const int64_t>(t.ref);
    const double* wv = has_w ? a.get<const double>(w.ref) : nullptr;
    double* lv = a.get<double>(lo.ref);
    double* pv = a.get<double>(lp.ref);
    double total = 0, weight_sum = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double* row = xv + i * c;
      double* prow = pv + i * c;
      double m = row[0];
      for (int64_t k = 1; k < c; ++k) m = std::max(m, row[k]);
      double se = 0;
      for (int64_t k = 0; k < c; ++k) se += std::exp(row[k] - m);
      const double lse = m + std::log(se);
      for (int64_t k = 0; k < c; ++k) prow[k] = row[k] - lse;
      const int64_t cls = tv[i];
      double l = 0;
      if (cls != ignore && cls >= 0 && cls < c) {
        const double wt = has_w ? wv[cls] : 1.0;
        double smooth = 0;
        if (smoothing > 0)
          for (int64_t k = 0; k < c; ++k) smooth -= prow[k] * (has_w ? wv[k] : 1.0);
        l = (1 - smoothing) * (-wt * prow[cls]) + smoothing / static_cast<double>(c) * smooth;
        weight_sum += wt;
      }
      if (reduction == 0) lv[i] = l;
      total += l;
    }
    if (reduction != 0) lv[0] = reduction == 1 ? total / weight_sum : total;
  });
  p.finish(name_of(b, input.dtype));
}

void plan_cross_entropy_grad(OpBuilder& b, const aclTensor& grad, const aclTensor& log_prob, const aclTensor& target,
                             const aclTensor* weight, const char* reduction_s, int64_t ignore, double smoothing,
                             const aclTensor& out) {
  check_dtype_in(b.op(), "gradLoss", grad.dtype, kF3);
  same_dtype(log_prob, "logProb", grad, "gradLoss");
  same_dtype(out, "out", grad, "gradLoss");
  check_dtype_in(b.op(), "target", target.dtype, dtype_mask({I64, DType::kInt32}));
  if (weight) check_dtype_in(b.op(), "weightOptional", weight->dtype, dtype_mask({F32}));
  const int64_t reduction = reduction_of(reduction_s, "reductionOptional");
  if (log_prob.dim() != 2) invalid("logProb has {} dims ({}), expected 2: [N, C]", log_prob.dim(), log_prob.describe());
  const int64_t n = log_prob.view[0], c = log_prob.view[1];
  expect_shape(target, "target", Dims{n}, "[N] of logProb");
  if (weight) expect_shape(*weight, "weightOptional", Dims{c}, "[C] of logProb");
  if (reduction == 0) expect_shape(grad, "gradLoss", Dims{n}, "[N] of logProb");
  else expect_one_element(grad, "gradLoss");
  expect_shape(out, "out", log_prob.view, "the shape of logProb");
  if (!(smoothing >= 0 && smoothing <= 1)) invalid("labelSmoothing is {}, expected a value in [0, 1]", smoothing);
  StepPlan p(b);
  const View gv = p.dense_input(grad, F64), lp = p.dense_input(log_prob, F64), t = p.dense_input(target, I64);
  const View w = weight ? p.dense_input(*weight, F64) : View{};
  const View o = p.dense_output(out, F64);
  const bool has_w = weight != nullptr;
  p.step([=](const StepArgs& a) {
    const double* g = a.get<const double>(gv.ref);
    const double* lpv = a.get<const double>(lp.ref);
    const int64_t* tv = a.get<const int64_t>(t.ref);
    const double* wv = has_w ? a.get<const double>(w.ref) : nullptr;
    double* ov = a.get<double>(o.ref);
    auto wt = [&](int64_t k) { return has_w ? wv[k] : 1.0; };
    auto valid = [&](int64_t cls) { return cls != ignore && cls >= 0 && cls < c; };
    double weight_sum = 0;
    if (reduction == 1)
      for (int64_t i = 0; i < n; ++i)
        if (valid(tv[i])) weight_sum += wt(tv[i]);
    double wsum_all = 0;
    for (int64_t k = 0; k < c; ++k) wsum_all += wt(k);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t cls = tv[i];
      const double* lrow = lpv + i * c;
      double* orow = ov + i * c;
      if (!valid(cls)) {
        std::fill(orow, orow + c, 0.0);
        continue;
      }
      const double gi = (reduction == 0 ? g[i] : g[0]) / (reduction == 1 ? weight_sum : 1.0);
      const double nll = gi * (1 - smoothing) * wt(cls);
      const double smooth = gi * smoothing / static_cast<double>(c);
      for (int64_t k = 0; k < c; ++k) {
        const double pk = std::exp(lrow[k]);
        orow[k] = pk * nll - (k == cls ? nll : 0.0) + pk * smooth * wsum_all - smooth * wt(k);
      }
    }
  });
  p.finish(name_of(b, grad.dtype));
}

// ---- MultilabelMarginLoss --------------------------------------------------------------------------------------

void plan_multilabel_margin(OpBuilder& b, const aclTensor& self, const aclTensor& target, int64_t reduction,
                            const aclTensor& out, const aclTensor& is_target) {
  check_dtype_in(b.op(), "self", self.dtype, kF3);
  check_dtype_in(b.op(), "target", target.dtype, dtype_mask({I64, DType::kInt32}));
  same_dtype(out, "out", self, "self");
  same_dtype(is_target, "isTarget", self, "self");
  check_reduction(reduction);
  if (self.dim() != 1 && self.dim() != 2) invalid("self has {} dims ({}), expected 1 or 2", self.dim(), self.describe());
  expect_shape(target, "target", self.view, "the shape of self");
  expect_shape(is_target, "isTarget", self.view, "the shape of self");
  const int64_t c = self.view.back(), n = self.dim() == 2 ? self.view[0] : 1;
  if (reduction == 0) expect_shape(out, "out", self.dim() == 2 ? Dims{n} : Dims{}, "[N] (or [] for a 1-d self)");
  else expect_one_element(out, "out");
  StepPlan p(b);
  const View x = p.dense_input(self, F64), t = p.dense_input(target, I64);
  const View o = p.dense_output(out, F64), it = p.dense_output(is_target, F64);
  p.step([=](const StepArgs& a) {
    const double* xv = a.get<const double>(x.ref);
    const int64_t* tv = a.get<const int64_t>(t.ref);
    double* ov = a.get<double>(o.ref);
    double* iv = a.get<double>(it.ref);
    double total = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double* row = xv + i * c;
      const int64_t* trow = tv + i * c;
      double* irow = iv + i * c;
      std::fill(irow, irow + c, 0.0);
      int64_t labels = 0;
      while (labels < c && trow[labels] >= 0 && trow[labels] < c) irow[trow[labels++]] = 1.0;
      double l = 0;
      for (int64_t j = 0; j < labels; ++j) {
        const double xj = row[trow[j]];
        for (int64_t k = 0; k < c; ++k)
          if (irow[k] == 0.0) l += std::max(0.0, 1.0 - (xj - row[k]));
      }
      l /= static_cast<double>(c);
      if (reduction == 0) ov[i] = l;
      total += l;
    }
    if (reduction != 0) ov[0] = reduction == 1 ? total / static_cast<double>(n) : total;
  });
  p.finish(name_of(b, self.dtype));
}

// ---- FusedCrossEntropyLossWithMaxSum -------------------------------------------------------------------------

void plan_fused_ce(OpBuilder& b, const aclTensor& lmax, const aclTensor& sum_exp, const aclTensor& pred,
                   float smoothing, const aclTensor* logits, const aclTensor& loss, const aclTensor* softmax) {
  const DTypeMask f32 = dtype_mask({F32});
  check_dtype_in(b.op(), "logitsMax", lmax.dtype, f32);
  check_dtype_in(b.op(), "sumExpLogits", sum_exp.dtype, f32);
  check_dtype_in(b.op(), "predictedLogits", pred.dtype, f32);
  check_dtype_in(b.op(), "lossOut", loss.dtype, f32);
  if (lmax.dim() != 1) invalid("logitsMax has {} dims ({}), expected 1", lmax.dim(), lmax.describe());
  expect_shape(sum_exp, "sumExpLogits", lmax.view, "the shape of logitsMax");
  expect_shape(pred, "predictedLogits", lmax.view, "the shape of logitsMax");
  expect_shape(loss, "lossOut", lmax.view, "the shape of logitsMax");
  if (smoothing != 0.0f) invalid("labelSmoothing is {}, only 0 is supported", smoothing);
  if (softmax && !logits) invalid("softMaxOutOptional needs vocabParallelLogitsOptional");
  const int64_t n = lmax.view[0];
  int64_t v = 0;
  if (logits && softmax) {
    check_dtype_in(b.op(), "vocabParallelLogitsOptional", logits->dtype, kF3);
    check_dtype_in(b.op(), "softMaxOutOptional", softmax->dtype, f32);
    if (logits->dim() != 2 || logits->view[0] != n)
      invalid("vocabParallelLogitsOptional has shape {}, expected [{}, V]", dims_str(logits->view), n);
    expect_shape(*softmax, "softMaxOutOptional", logits->view, "the shape of vocabParallelLogitsOptional");
    v = logits->view[1];
  }
  StepPlan p(b);
  const View mx = p.dense_input(lmax, F64), se = p.dense_input(sum_exp, F64), pr = p.dense_input(pred, F64);
  const View lo = p.dense_output(loss, F64);
  const bool with_softmax = logits && softmax;
  const View lg = with_softmax ? p.dense_input(*logits, F64) : View{};
  const View sm = with_softmax ? p.dense_output(*softmax, F64) : View{};
  p.step([=](const StepArgs& a) {
    const double* m = a.get<const double>(mx.ref);
    const double* s = a.get<const double>(se.ref);
    const double* q = a.get<const double>(pr.ref);
    double* l = a.get<double>(lo.ref);
    for (int64_t i = 0; i < n; ++i) l[i] = std::log(s[i]) - q[i];
    if (!with_softmax) return;
    const double* z = a.get<const double>(lg.ref);
    double* out = a.get<double>(sm.ref);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t k = 0; k < v; ++k) out[i * v + k] = std::exp(z[i * v + k] - m[i]) / s[i];
  });
  p.finish(std::string(b.op().name));
}

// ---- ChamferDistanceBackward ---------------------------------------------------------------------------------

void plan_chamfer_backward(OpBuilder& b, const aclTensor& xyz1, const aclTensor& xyz2, const aclTensor& idx1,
                           const aclTensor& idx2, const aclTensor& g1, const aclTensor& g2, const aclTensor& gx1,
                           const aclTensor& gx2) {
  const DTypeMask ft = dtype_mask({F32, F16});
  for (const auto& [t, nm] : {std::pair<const aclTensor*, const char*>{&xyz1, "xyz1"}, {&xyz2, "xyz2"},
                              {&g1, "gradDist1"}, {&g2, "gradDist2"}, {&gx1, "gradXyz1"}, {&gx2, "gradXyz2"}})
    check_dtype_in(b.op(), nm, t->dtype, ft);
  check_dtype_in(b.op(), "idx1", idx1.dtype, dtype_mask({DType::kInt32}));
  check_dtype_in(b.op(), "idx2", idx2.dtype, dtype_mask({DType::kInt32}));
  const DType p1 = promote(promote(xyz1.dtype, xyz2.dtype), promote(g1.dtype, g2.dtype));
  check_can_cast(p1, gx1, "gradXyz1");
  check_can_cast(p1, gx2, "gradXyz2");
  if (xyz1.dim() != 3 || xyz1.view[2] != 2) invalid("xyz1 has shape {}, expected [B, N, 2]", dims_str(xyz1.view));
  if (xyz2.dim() != 3 || xyz2.view[2] != 2 || xyz2.view[0] != xyz1.view[0])
    invalid("xyz2 has shape {}, expected [B, M, 2] with B = {}", dims_str(xyz2.view), xyz1.view[0]);
  const int64_t bs = xyz1.view[0], n = xyz1.view[1], m = xyz2.view[1];
  expect_shape(idx1, "idx1", Dims{bs, n}, "[B, N]");
  expect_shape(g1, "gradDist1", Dims{bs, n}, "[B, N]");
  expect_shape(idx2, "idx2", Dims{bs, m}, "[B, M]");
  expect_shape(g2, "gradDist2", Dims{bs, m}, "[B, M]");
  expect_shape(gx1, "gradXyz1", xyz1.view, "the shape of xyz1");
  expect_shape(gx2, "gradXyz2", xyz2.view, "the shape of xyz2");
  StepPlan p(b);
  const View a1 = p.dense_input(xyz1, F64), a2 = p.dense_input(xyz2, F64);
  const View i1 = p.dense_input(idx1, I64), i2 = p.dense_input(idx2, I64);
  const View d1 = p.dense_input(g1, F64), d2 = p.dense_input(g2, F64);
  const View o1 = p.dense_output(gx1, F64), o2 = p.dense_output(gx2, F64);
  p.step([=](const StepArgs& a) {
    const double* p1v = a.get<const double>(a1.ref);
    const double* p2v = a.get<const double>(a2.ref);
    const int64_t* j1 = a.get<const int64_t>(i1.ref);
    const int64_t* j2 = a.get<const int64_t>(i2.ref);
    const double* q1 = a.get<const double>(d1.ref);
    const double* q2 = a.get<const double>(d2.ref);
    double* r1 = a.get<double>(o1.ref);
    double* r2 = a.get<double>(o2.ref);
    std::fill(r1, r1 + bs * n * 2, 0.0);
    std::fill(r2, r2 + bs * m * 2, 0.0);
    for (int64_t bb = 0; bb < bs; ++bb) {
      for (int64_t i = 0; i < n; ++i) {  // dist1[i] = |xyz1[i] - xyz2[idx1[i]]|^2
        const int64_t j = j1[bb * n + i];
        if (j < 0 || j >= m) continue;
        const double g = 2 * q1[bb * n + i];
        for (int k = 0; k < 2; ++k) {
          const double d = p1v[(bb * n + i) * 2 + k] - p2v[(bb * m + j) * 2 + k];
          r1[(bb * n + i) * 2 + k] += g * d;
          r2[(bb * m + j) * 2 + k] -= g * d;
        }
      }
      for (int64_t j = 0; j < m; ++j) {  // dist2[j] = |xyz2[j] - xyz1[idx2[j]]|^2
        const int64_t i = j2[bb * m + j];
        if (i < 0 || i >= n) continue;
        const double g = 2 * q2[bb * m + j];
        for (int k = 0; k < 2; ++k) {
          const double d = p2v[(bb * m + j) * 2 + k] - p1v[(bb * n + i) * 2 + k];
          r2[(bb * m + j) * 2 + k] += g * d;
          r1[(bb * n + i) * 2 + k] -= g * d;
        }
      }
    }
  });
  p.finish(name_of(b, p1));
}

// ---- CtcLoss ---------------------------------------------------------------------------------------------------

double log_add(double a, double b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  const double m = std::max(a, b);
  return m + std::log(std::exp(a - m) + std::exp(b - m));
}

void plan_ctc(OpBuilder& b, const aclTensor& log_probs, const aclTensor& targets, const aclIntArray& in_len,
              const aclIntArray& tg_len, int64_t blank, bool zero_inf, const aclTensor& nll, const aclTensor& alpha) {
  check_dtype_in(b.op(), "logProbs", log_probs.dtype, kF3 | dtype_mask({F64}));
  check_dtype_in(b.op(), "targets", targets.dtype, dtype_mask({I64, DType::kInt32, DType::kBool, F32, F16}));
  same_dtype(nll, "negLogLikelihoodOut", log_probs, "logProbs");
  same_dtype(alpha, "logAlphaOut", log_probs, "logProbs");
  if (log_probs.dim() != 3 && log_probs.dim() != 2)
    invalid("logProbs has {} dims ({}), expected [T, N, C] or [T, C]", log_probs.dim(), log_probs.describe());
  const bool batched = log_probs.dim() == 3;
  const int64_t tmax = log_probs.view[0], n = batched ? log_probs.view[1] : 1, c = log_probs.view.back();
  if (static_cast<int64_t>(in_len.values.size()) != n)
    invalid("inputLengths has {} values, expected one per batch entry ({})", in_len.values.size(), n);
  if (static_cast<int64_t>(tg_len.values.size()) != n)
    invalid("targetLengths has {} values, expected one per batch entry ({})", tg_len.values.size(), n);
  if (blank < 0 || blank >= c) invalid("blank is {}, expected a class in [0, {})", blank, c);
  int64_t max_tl = 0, sum_tl = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t il = in_len.values[static_cast<size_t>(i)], tl = tg_len.values[static_cast<size_t>(i)];
    if (il < 0 || il > tmax) invalid("inputLengths[{}] is {}, expected a value in [0, {}]", i, il, tmax);
    if (tl < 0) invalid("targetLengths[{}] is {}, expected a value >= 0", i, tl);
    max_tl = std::max(max_tl, tl);
    sum_tl += tl;
  }
  const bool padded = targets.dim() == 2;
  if (padded) {
    if (targets.view[0] != n || targets.view[1] < max_tl)
      invalid("targets has shape {}, expected [{}, S] with S >= {}", dims_str(targets.view), n, max_tl);
  } else if (targets.dim() != 1 || targets.view[0] < sum_tl) {
    invalid("targets has shape {}, expected [N, S] or [sum(targetLengths) = {}]", dims_str(targets.view), sum_tl);
  }
  if (batched) expect_shape(nll, "negLogLikelihoodOut", Dims{n}, "[N]");
  else if (nll.dim() != 0) invalid("negLogLikelihoodOut has shape {}, expected a 0-d tensor", dims_str(nll.view));
  const int64_t s1 = 2 * max_tl + 1, s8 = (2 * max_tl + 8) / 8 * 8;
  if (alpha.dim() != 3 || alpha.view[0] != n || alpha.view[1] != tmax || (alpha.view[2] != s1 && alpha.view[2] != s8))
    invalid("logAlphaOut has shape {}, expected [{}, {}, {}] (or [{}, {}, {}])", dims_str(alpha.view), n, tmax, s8, n,
            tmax, s1);
  const int64_t sw = alpha.view[2];
  const int64_t tstride = padded ? targets.view[1] : 0;
  const std::vector<int64_t> il = in_len.values, tl = tg_len.values;
  StepPlan p(b);
  const View lp = p.dense_input(log_probs, F64), tg = p.dense_input(targets, I64);
  const View no = p.dense_output(nll, F64), ao = p.dense_output(alpha, F64);
  p.step([=](const StepArgs& a) {
    const double* lpv = a.get<const double>(lp.ref);  // [T, N, C]
    const int64_t* tv = a.get<const int64_t>(tg.ref);
    double* nv = a.get<double>(no.ref);
    double* av = a.get<double>(ao.ref);  // [N, T, sw]
    std::fill(av, av + n * tmax * sw, kNegInf);
    int64_t offset = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t len = tl[static_cast<size_t>(i)], tin = il[static_cast<size_t>(i)];
      const int64_t* tgt = tv + (padded ? i * tstride : offset);
      offset += len;
      const int64_t ns = 2 * len + 1;
      auto label = [&](int64_t s) { return s % 2 == 0 ? blank : tgt[s / 2]; };
      auto lpr = [&](int64_t t, int64_t cls) {
        return cls >= 0 && cls < c ? lpv[(t * n + i) * c + cls] : kNegInf;
      };
      double* al = av + i * tmax * sw;
      if (tin > 0) {
        al[0] = lpr(0, blank);
        if (ns > 1) al[1] = lpr(0, label(1));
      }
      for (int64_t t = 1; t < tin; ++t)
        for (int64_t s = 0; s < ns; ++s) {
          double v = al[(t - 1) * sw + s];
          if (s > 0) v = log_add(v, al[(t - 1) * sw + s - 1]);
          if (s > 1 && label(s) != blank && label(s) != label(s - 2)) v = log_add(v, al[(t - 1) * sw + s - 2]);
          al[t * sw + s] = v == kNegInf ? kNegInf : v + lpr(t, label(s));
        }
      double ll = kNegInf;
      if (tin > 0) {
        ll = al[(tin - 1) * sw + ns - 1];
        if (ns > 1) ll = log_add(ll, al[(tin - 1) * sw + ns - 2]);
      }
      double loss = -ll;
      if (zero_inf && std::isinf(loss)) loss = 0;
      nv[i] = loss;
    }
  });
  p.finish(name_of(b, log_probs.dtype));
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

aclnnStatus aclnnNLLLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, const aclTensor* weight,
                                         int64_t reduction, int64_t ignoreIndex, aclTensor* out,
                                         aclTensor* totalWeightOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(NLLLoss, {
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    const aclTensor& w = b.input(weight, "weight");
    const aclTensor& o = b.output(out, "out");
    const aclTensor& tw = b.output(totalWeightOut, "totalWeightOut");
    pacl::plan_nll(b, s, t, w, reduction, ignoreIndex, o, tw, false);
  });
}

aclnnStatus aclnnNLLLoss2dGetWorkspaceSize(const aclTensor* self, const aclTensor* target, const aclTensor* weight,
                                           int64_t reduction, int64_t ignoreIndex, aclTensor* out,
                                           aclTensor* totalWeightOut, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  return PACL_PHASE1(NLLLoss2d, {
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    const aclTensor& w = b.input(weight, "weight");
    const aclTensor& o = b.output(out, "out");
    const aclTensor& tw = b.output(totalWeightOut, "totalWeightOut");
    pacl::plan_nll(b, s, t, w, reduction, ignoreIndex, o, tw, true);
  });
}

aclnnStatus aclnnNLLLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                 const aclTensor* target, const aclTensor* weight, int64_t reduction,
                                                 int64_t ignoreIndex, const aclTensor* totalWeight, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(NLLLossBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    const aclTensor& w = b.input(weight, "weight");
    const aclTensor& tw = b.input(totalWeight, "totalWeight");
    const aclTensor& o = b.output(out, "out");
    pacl::plan_nll_backward(b, g, s, t, w, reduction, ignoreIndex, tw, o, false);
  });
}

aclnnStatus aclnnNLLLoss2dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                   const aclTensor* target, const aclTensor* weight,
                                                   int64_t reduction, int64_t ignoreIndex, aclTensor* totalWeight,
                                                   aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(NLLLoss2dBackward, {
    const aclTensor& g = b.input(gradOutput, "gradOutput");
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    const aclTensor& w = b.input(weight, "weight");
    const aclTensor& tw = b.input(totalWeight, "totalWeight");
    const aclTensor& o = b.output(out, "out");
    pacl::plan_nll_backward(b, g, s, t, w, reduction, ignoreIndex, tw, o, true);
  });
}

aclnnStatus aclnnCrossEntropyLossGetWorkspaceSize(const aclTensor* input, const aclTensor* target,
                                                  const aclTensor* weightOptional, char* reductionOptional,
                                                  int64_t ignoreIndex, double labelSmoothing,
                                                  double lseSquareScaleForZloss, bool returnZloss,
                                                  const aclTensor* lossOut, const aclTensor* logProbOut,
                                                  const aclTensor* zlossOut, const aclTensor* lseForZlossOut,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)lseSquareScaleForZloss;  // z-loss: documented as not supported yet (the outputs are not written)
  (void)returnZloss;
  return PACL_PHASE1(CrossEntropyLoss, {
    const aclTensor& in = b.input(input, "input");
    const aclTensor& t = b.input(target, "target");
    const aclTensor* w = weightOptional ? &b.input(weightOptional, "weightOptional") : nullptr;
    const aclTensor& lo = b.output(lossOut, "lossOut");
    const aclTensor& lp = b.output(logProbOut, "logProbOut");
    b.output(zlossOut, "zlossOut");
    b.output(lseForZlossOut, "lseForZlossOut");
    pacl::plan_cross_entropy(b, in, t, w, reductionOptional, ignoreIndex, labelSmoothing, lo, lp);
  });
}

aclnnStatus aclnnCrossEntropyLossGradGetWorkspaceSize(const aclTensor* gradLoss, const aclTensor* logProb,
                                                      const aclTensor* target, const aclTensor* weightOptional,
                                                      const aclTensor* gradZlossOptional,
                                                      const aclTensor* lseForZlossOptional, char* reductionOptional,
                                                      int64_t ignoreIndex, double labelSmoothing,
                                                      double lseSquareScaleForZloss, const aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)gradZlossOptional;  // z-loss: documented as not supported yet
  (void)lseForZlossOptional;
  (void)lseSquareScaleForZloss;
  return PACL_PHASE1(CrossEntropyLossGrad, {
    const aclTensor& g = b.input(gradLoss, "gradLoss");
    const aclTensor& lp = b.input(logProb, "logProb");
    const aclTensor& t = b.input(target, "target");
    const aclTensor* w = weightOptional ? &b.input(weightOptional, "weightOptional") : nullptr;
    const aclTensor& o = b.output(out, "out");
    pacl::plan_cross_entropy_grad(b, g, lp, t, w, reductionOptional, ignoreIndex, labelSmoothing, o);
  });
}

aclnnStatus aclnnMultilabelMarginLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                      int64_t reduction, aclTensor* out, aclTensor* isTarget,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(MultilabelMarginLoss, {
    const aclTensor& s = b.input(self, "self");
    const aclTensor& t = b.input(target, "target");
    const aclTensor& o = b.output(out, "out");
    const aclTensor& it = b.output(isTarget, "isTarget");
    pacl::plan_multilabel_margin(b, s, t, reduction, o, it);
  });
}

aclnnStatus aclnnFusedCrossEntropyLossWithMaxSumGetWorkspaceSize(
    const aclTensor* logitsMax, const aclTensor* sumExpLogits, const aclTensor* predictedLogits, float labelSmoothing,
    const aclTensor* inputOptional, const aclTensor* weightOptional, const aclTensor* vocabParallelLogitsOptional,
    aclTensor* lossOut, aclTensor* softMaxOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)inputOptional;  // the matmul inputs are not used (documented: pass null)
  (void)weightOptional;
  return PACL_PHASE1(FusedCrossEntropyLossWithMaxSum, {
    const aclTensor& mx = b.input(logitsMax, "logitsMax");
    const aclTensor& se = b.input(sumExpLogits, "sumExpLogits");
    const aclTensor& pr = b.input(predictedLogits, "predictedLogits");
    const aclTensor* lg =
        vocabParallelLogitsOptional ? &b.input(vocabParallelLogitsOptional, "vocabParallelLogitsOptional") : nullptr;
    const aclTensor& lo = b.output(lossOut, "lossOut");
    const aclTensor* sm = softMaxOutOptional ? &b.output(softMaxOutOptional, "softMaxOutOptional") : nullptr;
    pacl::plan_fused_ce(b, mx, se, pr, labelSmoothing, lg, lo, sm);
  });
}

aclnnStatus aclnnChamferDistanceBackwardGetWorkspaceSize(const aclTensor* xyz1, const aclTensor* xyz2,
                                                         const aclTensor* idx1, const aclTensor* idx2,
                                                         const aclTensor* gradDist1, const aclTensor* gradDist2,
                                                         aclTensor* gradXyz1, aclTensor* gradXyz2,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(ChamferDistanceBackward, {
    const aclTensor& a1 = b.input(xyz1, "xyz1");
    const aclTensor& a2 = b.input(xyz2, "xyz2");
    const aclTensor& i1 = b.input(idx1, "idx1");
    const aclTensor& i2 = b.input(idx2, "idx2");
    const aclTensor& g1 = b.input(gradDist1, "gradDist1");
    const aclTensor& g2 = b.input(gradDist2, "gradDist2");
    const aclTensor& o1 = b.output(gradXyz1, "gradXyz1");
    const aclTensor& o2 = b.output(gradXyz2, "gradXyz2");
    pacl::plan_chamfer_backward(b, a1, a2, i1, i2, g1, g2, o1, o2);
  });
}

aclnnStatus aclnnCtcLossGetWorkspaceSize(const aclTensor* logProbs, const aclTensor* targets,
                                         const aclIntArray* inputLengths, const aclIntArray* targetlengths,
                                         int64_t blank, bool zeroInfinity, aclTensor* negLogLikelihoodOut,
                                         aclTensor* logAlphaOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(CtcLoss, {
    const aclTensor& lp = b.input(logProbs, "logProbs");
    const aclTensor& t = b.input(targets, "targets");
    const aclIntArray& il = b.int_array(inputLengths, "inputLengths");
    const aclIntArray& tl = b.int_array(targetlengths, "targetLengths");
    const aclTensor& nl = b.output(negLogLikelihoodOut, "negLogLikelihoodOut");
    const aclTensor& al = b.output(logAlphaOut, "logAlphaOut");
    pacl::plan_ctc(b, lp, t, il, tl, blank, zeroInfinity, nl, al);
  });
}

}  // extern "C"
