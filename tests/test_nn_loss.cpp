// Tests of the nn family's losses through the public aclnn API.
//
// References are written here in double from the stored inputs: per-element losses from the CANN doc's
// formula, reductions as plain sums (mean: divided by the count; NLL/CrossEntropy: by the summed
// weights), gradients as the formula's derivative. Per-element results use the mixed error bound of
// nn_test_util.h; a reduced result may differ from the double sum by the float32 rounding of each term
// (kr eps per |term|) plus the output dtype's rounding. CtcLoss is checked against a brute-force sum
// over every alignment path (independent of the dynamic program).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "aclnnop/aclnn_binary_cross_entropy.h"
#include "aclnnop/aclnn_binary_cross_entropy_backward.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "aclnnop/aclnn_chamfer_distance_backward.h"
#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "aclnnop/aclnn_ctc_loss.h"
#include "aclnnop/aclnn_fused_cross_entropy_loss_with_max_sum.h"
#include "aclnnop/aclnn_kl_div_backward.h"
#include "aclnnop/aclnn_kl_div_target_backward.h"
#include "aclnnop/aclnn_l1_loss.h"
#include "aclnnop/aclnn_l1_loss_backward.h"
#include "aclnnop/aclnn_logit.h"
#include "aclnnop/aclnn_logit_grad.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "aclnnop/aclnn_multilabel_margin_loss.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss2d.h"
#include "aclnnop/aclnn_nll_loss2d_backward.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_soft_margin_loss.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"
#include "nn_test_util.h"

namespace {

using namespace nntest;

double sigm(double z) {
  if (z >= 0) return 1 / (1 + std::exp(-z));
  const double e = std::exp(z);
  return e / (1 + e);
}
double softplus(double z) { return std::max(z, 0.0) + std::log1p(std::exp(-std::fabs(z))); }
double sgn(double d) { return d > 0 ? 1 : d < 0 ? -1 : d; }

Shape map_index(const Shape& out_idx, const Shape& in_shape) {
  Shape idx(in_shape.size());
  const size_t lead = out_idx.size() - in_shape.size();
  for (size_t i = 0; i < in_shape.size(); ++i) idx[i] = in_shape[i] == 1 ? 0 : out_idx[lead + i];
  return idx;
}
Shape shrink_for_broadcast(const Shape& out, Rng& rng) {
  Shape s = out;
  const size_t drop = rng() % (s.size() + 1);
  s.erase(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(drop));
  for (auto& d : s)
    if (rng() % 3 == 0) d = 1;
  return s;
}
Shape bshape(const Shape& a, const Shape& b) {
  Shape r;
  EXPECT_TRUE(broadcast_shapes(a, b, &r));
  return r;
}

// A reduced result against the double sum of `terms`.
void expect_reduced(const std::string& repro, double got, const std::vector<double>& terms, double divisor,
                    aclDataType out, double kr = 16) {
  double sum = 0, abs_sum = 0;
  for (double t : terms) {
    sum += t;
    abs_sum += std::fabs(t);
  }
  const double want = sum / divisor;
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << repro << ": got " << got << " want nan";
    return;
  }
  if (std::isinf(want)) {
    EXPECT_EQ(got, want) << repro;
    return;
  }
  const double out_eps = out == F16 ? std::ldexp(1.0, -10) : out == BF16 ? std::ldexp(1.0, -7) : 0.0;
  const double tol = kr * std::ldexp(1.0, -23) * abs_sum / std::fabs(divisor) + out_eps * std::fabs(want) + 1e-30;
  EXPECT_NEAR(got, want, tol) << repro;
}

// ---- pointwise losses (self, target[, weight]) with reduction --------------------------------------------

struct PairLoss {
  std::string name;
  std::vector<DTypes> combos;  // self, target, out
  std::function<double(double, double)> ref;
  std::function<aclnnStatus(aclTensor*, aclTensor*, int64_t, aclTensor*, uint64_t*, aclOpExecutor**)> p1;
  Phase2Fn p2;
  std::pair<double, double> self_range{-4, 4}, target_range{-4, 4};
  bool broadcast = true;
  bool one_element = false;  // a reduced out may be [1]
  Tol tol{4, 8};
};

std::vector<PairLoss> pair_losses() {
  std::vector<PairLoss> v;
  std::vector<DTypes> f3 = {{F32, F32, F32}, {F16, F16, F16}, {BF16, BF16, BF16}, {F16, F32, F32}, {BF16, F16, F32}};
  v.push_back({"MseLoss", f3, [](double x, double y) { return (x - y) * (x - y); },
               [](aclTensor* s, aclTensor* t, int64_t r, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
                 return aclnnMseLossGetWorkspaceSize(s, t, r, o, w, e);
               },
               aclnnMseLoss});
  std::vector<DTypes> l1 = f3;
  l1.push_back({I64, I64, I64});
  l1.push_back({I64, F32, F32});
  v.push_back({"L1Loss", l1, [](double x, double y) { return std::fabs(x - y); },
               [](aclTensor* s, aclTensor* t, int64_t r, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
                 return aclnnL1LossGetWorkspaceSize(s, t, r, o, w, e);
               },
               aclnnL1Loss, {-20, 20}, {-20, 20}});
  for (float beta : {1.0f, 0.5f, 0.0f}) {
    const double b = beta;
    PairLoss f{"SmoothL1Loss beta=" + std::to_string(beta), f3,
               [b](double x, double y) {
                 const double d = std::fabs(x - y);
                 if (b == 0) return d;
                 return d < b ? 0.5 * d * d / b : d - 0.5 * b;
               },
               [beta](aclTensor* s, aclTensor* t, int64_t r, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
                 return aclnnSmoothL1LossGetWorkspaceSize(s, t, r, beta, o, w, e);
               },
               aclnnSmoothL1Loss, {-3, 3}, {-3, 3}};
    f.one_element = true;
    v.push_back(f);
  }
  v.push_back({"SoftMarginLoss", f3, [](double x, double y) { return softplus(-y * x); },
               [](aclTensor* s, aclTensor* t, int64_t r, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
                 return aclnnSoftMarginLossGetWorkspaceSize(s, t, r, o, w, e);
               },
               aclnnSoftMarginLoss, {-6, 6}, {-1.5, 1.5}});
  PairLoss bce{"BinaryCrossEntropy", {{F32, F32, F32}, {F16, F16, F16}, {BF16, BF16, BF16}},
               [](double x, double y) {
                 return -(y * std::max(std::log(x), -100.0) + (1 - y) * std::max(std::log1p(-x), -100.0));
               },
               [](aclTensor* s, aclTensor* t, int64_t r, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
                 return aclnnBinaryCrossEntropyGetWorkspaceSize(s, t, nullptr, r, o, w, e);
               },
               aclnnBinaryCrossEntropy, {0, 1}, {0, 1}};
  bce.broadcast = false;
  v.push_back(bce);
  PairLoss bcel{"BinaryCrossEntropyWithLogits", {{F32, F32, F32}, {F16, F16, F16}, {BF16, BF16, BF16}, {F16, F32, F32}},
                [](double x, double y) { return (1 - y) * x + softplus(-x); },
                [](aclTensor* s, aclTensor* t, int64_t r, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
                  return aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(s, t, nullptr, nullptr, r, o, w, e);
                },
                aclnnBinaryCrossEntropyWithLogits, {-8, 8}, {0, 1}};
  bcel.broadcast = false;
  v.push_back(bcel);
  return v;
}

void check_pair_loss(const PairLoss& op, const DTypes& c, const Shape& shape, int64_t reduction, uint64_t seed) {
  Rng rng(seed);
  const bool keep_self = rng() % 2 == 0;
  const Shape ss = op.broadcast && !keep_self ? shrink_for_broadcast(shape, rng) : shape;
  const Shape ts = op.broadcast && keep_self ? shrink_for_broadcast(shape, rng) : shape;
  const Shape full = op.broadcast ? bshape(ss, ts) : shape;
  Tensor s(random_layout(c[0], ss, rng)), t(random_layout(c[1], ts, rng));
  const Shape os = reduction == 0 ? full : (op.one_element && rng() % 2 ? Shape{1} : Shape{});
  Tensor o(random_layout(c[2], os, rng));
  fill_uniform(s, rng, op.self_range.first, op.self_range.second, 0.02);
  fill_uniform(t, rng, op.target_range.first, op.target_range.second);
  fill_uniform(o, rng, -1, 1);
  const std::string r = op.name + " reduction=" + std::to_string(reduction) + " self=" + s.desc().str() +
                        " target=" + t.desc().str() + " out=" + o.desc().str();
  Guard guard(o);
  run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return op.p1(s.get(), t.get(), reduction, o.get(), w, e); }, op.p2);
  if (::testing::Test::HasFatalFailure()) return;
  o.download();
  guard.check(r);
  std::vector<Shape> idx;
  for_each_index(full, [&](const Shape& i) { idx.push_back(i); });
  auto inputs = [&](int64_t i) {
    const Shape& ix = idx[static_cast<size_t>(i)];
    return std::vector<double>{s.at(map_index(ix, ss)).as_double(), t.at(map_index(ix, ts)).as_double()};
  };
  const aclDataType compute = c[0] == F64 ? F64 : F32;
  if (reduction == 0) {
    expect_all(r, o, compute, op.tol, [&](const std::vector<double>& x) { return op.ref(x[0], x[1]); }, inputs);
    return;
  }
  std::vector<double> terms;
  for (size_t i = 0; i < idx.size(); ++i) {
    const auto x = inputs(static_cast<int64_t>(i));
    terms.push_back(op.ref(x[0], x[1]));
  }
  const double got = logical(o)[0];
  if (c[2] == I64) {  // integer L1: the mean is truncated
    double sum = 0;
    for (double tv : terms) sum += tv;
    EXPECT_EQ(got, std::trunc(reduction == 1 ? sum / static_cast<double>(terms.size()) : sum)) << r;
    return;
  }
  expect_reduced(r, got, terms, reduction == 1 ? static_cast<double>(terms.size()) : 1.0, c[2]);
}

TEST(NnLoss, PointwiseValues) {
  uint64_t seed = 1;
  for (const PairLoss& op : pair_losses())
    for (const DTypes& c : op.combos)
      for (int64_t red : {0, 1, 2})
        for (int rep = 0; rep < 2; ++rep) {
          Rng rng(++seed);
          const Shape shape = random_shape(rng, 1, 4);
          if (c[2] == I64 && red == 1) continue;  // covered below with exact means
          check_pair_loss(op, c, shape, red, seed);
        }
}

// Empty inputs: none gives an empty out, mean NaN, sum 0; a long input crosses the sum's blocks.
TEST(NnLoss, PointwiseShapes) {
  uint64_t seed = 500;
  for (const PairLoss& op : pair_losses()) {
    for (int64_t red : {0, 1, 2}) check_pair_loss(op, op.combos[0], {0, 3}, red, ++seed);
    check_pair_loss(op, op.combos[0], {3, 4100}, 1, ++seed);
    check_pair_loss(op, op.combos[0], {2, 1, 3}, 2, ++seed);
  }
}

// BinaryCrossEntropy(+WithLogits) with weight and posWeight (broadcast), and all backward ops.
TEST(NnLoss, WeightedBce) {
  uint64_t seed = 900;
  for (aclDataType dt : kF3)
    for (int64_t red : {0, 1, 2})
      for (int rep = 0; rep < 2; ++rep) {
        Rng rng(++seed);
        const Shape shape = random_shape(rng, 1, 3);
        const Shape ws = shrink_for_broadcast(shape, rng), ps = shrink_for_broadcast(shape, rng);
        Tensor x(random_layout(dt, shape, rng)), y(random_layout(dt, shape, rng)), w(random_layout(dt, ws, rng));
        Tensor pw(random_layout(dt, ps, rng)), o(TensorDesc(dt, red == 0 ? shape : Shape{}));
        Tensor lx(random_layout(dt, shape, rng));
        fill_uniform(x, rng, 0.01, 0.99);
        fill_uniform(lx, rng, -6, 6);
        fill_uniform(y, rng, 0, 1);
        fill_uniform(w, rng, 0, 2);
        fill_uniform(pw, rng, 0, 3);
        const std::string r = std::string("BCE weighted ") + dtype_name(dt) + " reduction=" + std::to_string(red) +
                              " shape=" + shape_str(shape) + " weight=" + w.desc().str() + " posWeight=" + pw.desc().str();
        std::vector<Shape> idx;
        for_each_index(shape, [&](const Shape& i) { idx.push_back(i); });
        for (int variant = 0; variant < 2; ++variant) {
          if (variant == 0)
            run_ok(r, [&](uint64_t* ws_, aclOpExecutor** e) {
              return aclnnBinaryCrossEntropyGetWorkspaceSize(x.get(), y.get(), w.get(), red, o.get(), ws_, e);
            }, aclnnBinaryCrossEntropy);
          else
            run_ok(r, [&](uint64_t* ws_, aclOpExecutor** e) {
              return aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(lx.get(), y.get(), w.get(), pw.get(), red, o.get(), ws_, e);
            }, aclnnBinaryCrossEntropyWithLogits);
          o.download();
          auto term = [&](size_t i) {
            const Shape& ix = idx[i];
            const double yy = y.at(ix).as_double(), wv = w.at(map_index(ix, ws)).as_double();
            if (variant == 0) {
              const double xx = x.at(ix).as_double();
              return -wv * (yy * std::max(std::log(xx), -100.0) + (1 - yy) * std::max(std::log1p(-xx), -100.0));
            }
            const double xx = lx.at(ix).as_double(), p = pw.at(map_index(ix, ps)).as_double();
            return wv * ((1 - yy) * xx + (1 + (p - 1) * yy) * softplus(-xx));
          };
          const std::string rv = r + (variant ? " (WithLogits)" : "");
          if (red == 0) {
            const std::vector<double> got = logical(o);
            for (size_t i = 0; i < idx.size(); ++i) {
              const double want = term(i);
              EXPECT_NEAR(got[i], want, 2e-5 * std::fabs(want) * (dt == F32 ? 1 : 400) + 1e-6) << rv << " at " << i;
            }
          } else {
            std::vector<double> terms;
            for (size_t i = 0; i < idx.size(); ++i) terms.push_back(term(i));
            expect_reduced(rv, logical(o)[0], terms, red == 1 ? static_cast<double>(terms.size()) : 1.0, dt, 64);
          }
        }
      }
}

// ---- gradients of pointwise losses -------------------------------------------------------------------------

struct PairGrad {
  std::string name;
  std::vector<DTypes> combos;  // grad, self, target, out
  std::function<double(double, double, double)> ref;  // (g, x, y) -> d/dx without the mean's 1/N
  std::function<aclnnStatus(aclTensor*, aclTensor*, aclTensor*, int64_t, aclTensor*, uint64_t*, aclOpExecutor**)> p1;
  Phase2Fn p2;
  std::pair<double, double> self_range{-4, 4}, target_range{-4, 4};
  bool broadcast = true;
};

std::vector<PairGrad> pair_grads() {
  std::vector<PairGrad> v;
  const std::vector<DTypes> same = {{F32, F32, F32, F32}, {F16, F16, F16, F16}, {BF16, BF16, BF16, BF16}};
  std::vector<DTypes> mixed = same;
  mixed.push_back({F16, F32, F16, F32});
  v.push_back({"MseLossBackward", {{F32, F32, F32, F32}, {F16, F16, F16, F16}, {BF16, BF16, BF16, BF16}, {F16, F16, F16, F32}},
               [](double g, double x, double y) { return 2 * (x - y) * g; },
               [](aclTensor* g, aclTensor* s, aclTensor* t, int64_t r, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
                 return aclnnMseLossBackwardGetWorkspaceSize(g, s, t, r, o, w, e);
               },
               aclnnMseLossBackward});
  v.push_back({"L1LossBackward", mixed, [](double g, double x, double y) { return sgn(x - y) * g; },
               [](aclTensor* g, aclTensor* s, aclTensor* t, int64_t r, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
                 return aclnnL1LossBackwardGetWorkspaceSize(g, s, t, r, o, w, e);
               },
               aclnnL1LossBackward});
  v.push_back({"SoftMarginLossBackward", mixed, [](double g, double x, double y) { return -y * sigm(-y * x) * g; },
               [](aclTensor* g, aclTensor* s, aclTensor* t, int64_t r, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
                 return aclnnSoftMarginLossBackwardGetWorkspaceSize(g, s, t, r, o, w, e);
               },
               aclnnSoftMarginLossBackward, {-6, 6}, {-1.5, 1.5}});
  PairGrad bce{"BinaryCrossEntropyBackward", mixed,
               [](double g, double x, double y) { return (x - y) / std::max(x * (1 - x), 1e-12) * g; },
               [](aclTensor* g, aclTensor* s, aclTensor* t, int64_t r, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
                 return aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(g, s, t, nullptr, r, o, w, e);
               },
               aclnnBinaryCrossEntropyBackward, {0.02, 0.98}, {0, 1}};
  bce.broadcast = false;
  v.push_back(bce);
  PairGrad bcel{"BinaryCrossEntropyWithLogitsBackward", mixed, [](double g, double x, double y) { return (sigm(x) - y) * g; },
                [](aclTensor* g, aclTensor* s, aclTensor* t, int64_t r, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
                  return aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(g, s, t, nullptr, nullptr, r, o, w, e);
                },
                aclnnBinaryCrossEntropyWithLogitsBackward, {-8, 8}, {0, 1}};
  bcel.broadcast = false;
  v.push_back(bcel);
  return v;
}

void check_pair_grad(const PairGrad& op, const DTypes& c, const Shape& shape, int64_t red, uint64_t seed) {
  Rng rng(seed);
  // gradOutput: per element (none) or a scalar-like tensor; self/target may broadcast.
  const Shape gs = red == 0 && rng() % 2 ? shape : (rng() % 2 ? Shape{} : Shape{1});
  const Shape ts = op.broadcast ? shrink_for_broadcast(shape, rng) : shape;
  Tensor g(random_layout(c[0], gs, rng)), s(random_layout(c[1], shape, rng)), t(random_layout(c[2], ts, rng));
  Tensor o(random_layout(c[3], shape, rng));
  fill_uniform(g, rng, -2, 2);
  fill_uniform(s, rng, op.self_range.first, op.self_range.second);
  fill_uniform(t, rng, op.target_range.first, op.target_range.second);
  fill_uniform(o, rng, 5, 6);
  const std::string r = op.name + " reduction=" + std::to_string(red) + " grad=" + g.desc().str() + " self=" +
                        s.desc().str() + " target=" + t.desc().str() + " out=" + o.desc().str();
  Guard guard(o);
  run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return op.p1(g.get(), s.get(), t.get(), red, o.get(), w, e); }, op.p2);
  if (::testing::Test::HasFatalFailure()) return;
  o.download();
  guard.check(r);
  const double norm = red == 1 ? 1.0 / static_cast<double>(std::max<int64_t>(numel(shape), 1)) : 1.0;
  std::vector<Shape> idx;
  for_each_index(shape, [&](const Shape& i) { idx.push_back(i); });
  expect_all(r, o, F32, {4, 8}, [&](const std::vector<double>& x) { return op.ref(x[0], x[1], x[2]) * norm; },
             [&](int64_t i) {
               const Shape& ix = idx[static_cast<size_t>(i)];
               return std::vector<double>{g.at(map_index(ix, gs)).as_double(), s.at(ix).as_double(),
                                          t.at(map_index(ix, ts)).as_double()};
             });
}

TEST(NnLoss, PointwiseGradients) {
  uint64_t seed = 2000;
  for (const PairGrad& op : pair_grads())
    for (const DTypes& c : op.combos)
      for (int64_t red : {0, 1, 2}) {
        Rng rng(++seed);
        check_pair_grad(op, c, random_shape(rng, 1, 4), red, seed);
      }
}

// BCE backward with weight; BCEWithLogits backward with weight and posWeight.
TEST(NnLoss, WeightedBceGradients) {
  uint64_t seed = 2500;
  for (aclDataType dt : kF3)
    for (int64_t red : {0, 1, 2}) {
      Rng rng(++seed);
      const Shape shape = random_shape(rng, 1, 3);
      const Shape ws = shrink_for_broadcast(shape, rng), ps = shrink_for_broadcast(shape, rng);
      Tensor g(TensorDesc(dt, red == 0 ? shape : Shape{})), x(random_layout(dt, shape, rng)), y(TensorDesc(dt, shape));
      Tensor w(random_layout(dt, ws, rng)), pw(random_layout(dt, ps, rng)), o(random_layout(dt, shape, rng));
      Tensor lx(TensorDesc(dt, shape));
      fill_uniform(g, rng, -2, 2);
      fill_uniform(x, rng, 0.02, 0.98);
      fill_uniform(lx, rng, -6, 6);
      fill_uniform(y, rng, 0, 1);
      fill_uniform(w, rng, 0, 2);
      fill_uniform(pw, rng, 0, 3);
      const double norm = red == 1 ? 1.0 / static_cast<double>(numel(shape)) : 1.0;
      std::vector<Shape> idx;
      for_each_index(shape, [&](const Shape& i) { idx.push_back(i); });
      for (int variant = 0; variant < 2; ++variant) {
        const std::string r = std::string(variant ? "BCEWithLogitsBackward" : "BCEBackward") + " weighted " +
                              dtype_name(dt) + " reduction=" + std::to_string(red) + " shape=" + shape_str(shape);
        if (variant == 0)
          run_ok(r, [&](uint64_t* ws_, aclOpExecutor** e) {
            return aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(g.get(), x.get(), y.get(), w.get(), red, o.get(), ws_, e);
          }, aclnnBinaryCrossEntropyBackward);
        else
          run_ok(r, [&](uint64_t* ws_, aclOpExecutor** e) {
            return aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(g.get(), lx.get(), y.get(), w.get(), pw.get(),
                                                                             red, o.get(), ws_, e);
          }, aclnnBinaryCrossEntropyWithLogitsBackward);
        o.download();
        expect_all(r, o, F32, {4, 16},
                   [&](const std::vector<double>& v) {
                     if (variant == 0) return v[3] * (v[1] - v[2]) / std::max(v[1] * (1 - v[1]), 1e-12) * v[0] * norm;
                     return v[3] * (sigm(v[1]) * (v[4] * v[2] + 1 - v[2]) - v[4] * v[2]) * v[0] * norm;
                   },
                   [&](int64_t i) {
                     const Shape& ix = idx[static_cast<size_t>(i)];
                     return std::vector<double>{g.at(map_index(ix, g.desc().shape)).as_double(),
                                                (variant ? lx : x).at(ix).as_double(), y.at(ix).as_double(),
                                                w.at(map_index(ix, ws)).as_double(), pw.at(map_index(ix, ps)).as_double()};
                   });
      }
    }
}

// KlDivBackward / KlDivTargetBackward: reductions incl. batchmean, log and linear targets, and a
// broadcast larger than the output (summed down).
TEST(NnLoss, KlDivGradients) {
  uint64_t seed = 3000;
  for (aclDataType dt : kF3)
    for (int64_t red : {0, 1, 2, 3})
      for (bool log_t : {false, true})
        for (int which = 0; which < 2; ++which) {
          Rng rng(++seed);
          const Shape full = random_shape(rng, 1, 3);
          const bool small_out = rng() % 3 == 0;
          const Shape xs = which == 0 && small_out ? shrink_for_broadcast(full, rng) : full;
          const Shape ts = which == 1 && small_out ? shrink_for_broadcast(full, rng) : full;
          const Shape bs = bshape(xs, ts);
          Tensor g(random_layout(dt, rng() % 2 ? bs : Shape{}, rng)), x(random_layout(dt, xs, rng)), t(random_layout(dt, ts, rng));
          Tensor o(random_layout(dt, which == 0 ? xs : ts, rng));
          fill_uniform(g, rng, -2, 2);
          fill_uniform(x, rng, -3, 1);
          fill_uniform(t, rng, log_t ? -3.0 : 0.05, log_t ? 1.0 : 2.0);
          fill_uniform(o, rng, 5, 6);
          const std::string r = std::string(which ? "KlDivTargetBackward" : "KlDivBackward") + " reduction=" +
                                std::to_string(red) + " logTarget=" + std::to_string(log_t) + " grad=" + g.desc().str() +
                                " self=" + x.desc().str() + " target=" + t.desc().str() + " out=" + o.desc().str();
          if (which == 0)
            run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
              return aclnnKlDivBackwardGetWorkspaceSize(g.get(), x.get(), t.get(), red, log_t, o.get(), w, e);
            }, aclnnKlDivBackward);
          else
            run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
              return aclnnKlDivTargetBackwardGetWorkspaceSize(g.get(), x.get(), t.get(), red, log_t, o.get(), w, e);
            }, aclnnKlDivTargetBackward);
          if (::testing::Test::HasFatalFailure()) return;
          o.download();
          double norm = 1.0;
          if (red == 1) norm = 1.0 / static_cast<double>(numel(bs));
          if (red == 3) norm = 1.0 / static_cast<double>(bs.empty() ? 1 : bs[0]);
          const Shape os = o.desc().shape;
          std::map<Shape, double> want, mag;
          for_each_index(bs, [&](const Shape& i) {
            const double gv = g.at(map_index(i, g.desc().shape)).as_double() * norm;
            const double xv = x.at(map_index(i, xs)).as_double(), tv = t.at(map_index(i, ts)).as_double();
            double d;
            if (which == 0) d = (log_t ? -std::exp(tv) : -tv) * gv;
            else d = log_t ? gv * std::exp(tv) * (tv - xv + 1) : gv * (std::log(tv) - xv + 1);
            const Shape oi = map_index(i, os);
            want[oi] += d;
            mag[oi] += std::fabs(d);
          });
          const double rel = dt == F32 ? 1e-5 : dt == F16 ? 2e-3 : 1.6e-2;
          for (const auto& [i, wv] : want)
            EXPECT_NEAR(o.at(i).as_double(), wv, rel * mag[i] + 1e-6) << r << " at " << shape_str(i);
        }
}

TEST(NnLoss, LogitAndGrad) {
  uint64_t seed = 3500;
  for (aclDataType dt : kF3)
    for (double eps : {-1.0, 0.0, 0.05}) {
      Rng rng(++seed);
      const Shape shape = random_shape(rng, 0, 3);
      Tensor x(random_layout(dt, shape, rng)), dy(random_layout(dt, shape, rng)), o(random_layout(dt, shape, rng));
      fill_uniform(x, rng, -0.2, 1.2, 0.03);
      fill_uniform(dy, rng, -2, 2);
      fill_uniform(o, rng, 5, 6);
      const std::string r = std::string("Logit ") + dtype_name(dt) + " eps=" + std::to_string(eps) + " x=" + x.desc().str();
      run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnLogitGetWorkspaceSize(x.get(), eps, o.get(), w, e); }, aclnnLogit);
      o.download();
      const double ef = static_cast<float>(eps);
      const std::vector<double> xv = logical(x), dv = logical(dy);
      expect_all(r, o, F32, {4, 8},
                 [ef](const std::vector<double>& v) {
                   double z = v[0];
                   if (ef >= 0) z = z < ef ? ef : z > 1 - ef ? 1 - ef : z;
                   return std::log(z / (1 - z));
                 },
                 [&](int64_t i) { return std::vector<double>{xv[static_cast<size_t>(i)]}; });
      run_ok(r + " grad", [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnLogitGradGetWorkspaceSize(x.get(), dy.get(), eps, o.get(), w, e);
      }, aclnnLogitGrad);
      o.download();
      expect_all(r + " grad", o, F32, {2, 4},
                 [ef](const std::vector<double>& v) {
                   if (ef < 0) {
                     if (v[0] < 0 || v[0] > 1) return nan_v();
                   } else if (v[0] < ef || v[0] > 1 - ef) {
                     return 0.0;
                   }
                   return v[1] / (v[0] * (1 - v[0]));
                 },
                 [&](int64_t i) { return std::vector<double>{xv[static_cast<size_t>(i)], dv[static_cast<size_t>(i)]}; });
    }
}

// ---- class-index losses -----------------------------------------------------------------------------------

// Targets in [0, C) with some equal to ignoreIndex.
void fill_targets(Tensor& t, Rng& rng, int64_t c, int64_t ignore) {
  const size_t es = dtype_size(t.desc().dtype);
  for (int64_t k = 0; k < t.desc().storage_elems(); ++k) {
    const int64_t v = rng() % 5 == 0 ? ignore : static_cast<int64_t>(rng() % static_cast<uint64_t>(c));
    store(t.desc().dtype, t.host().data() + k * es, Num::integer(v));
  }
  t.upload();
}

TEST(NnLoss, NLLLoss) {
  uint64_t seed = 4000;
  for (aclDataType dt : kF3)
    for (aclDataType tt : {I64, I32, U8})
      for (int64_t red : {0, 1, 2})
        for (int form : {0, 1, 2}) {  // 0: [N, C], 1: [C], 2: 2d [N, C, H, W]
          Rng rng(++seed);
          const int64_t n = 1 + static_cast<int64_t>(rng() % 4), c = 1 + static_cast<int64_t>(rng() % 5);
          const int64_t h = 1 + static_cast<int64_t>(rng() % 3), wd = 1 + static_cast<int64_t>(rng() % 3);
          const int64_t ignore = tt == U8 ? 1 : (rng() % 2 ? -100 : 0);
          Shape xs = form == 0 ? Shape{n, c} : form == 1 ? Shape{c} : Shape{n, c, h, wd};
          Shape ts = form == 0 ? Shape{n} : form == 1 ? Shape{} : Shape{n, h, wd};
          Tensor x(random_layout(dt, xs, rng)), t(random_layout(tt, ts, rng)), w(random_layout(dt, {c}, rng));
          Tensor o(TensorDesc(dt, red == 0 && form != 1 ? ts : Shape{1})), tw(TensorDesc(dt, {1}));
          fill_uniform(x, rng, -5, 0);
          fill_targets(t, rng, c, ignore);
          fill_uniform(w, rng, 0.1, 2);
          const std::string r = std::string(form == 2 ? "NLLLoss2d" : "NLLLoss") + " self=" + x.desc().str() + " target=" +
                                t.desc().str() + " reduction=" + std::to_string(red) + " ignoreIndex=" + std::to_string(ignore);
          if (form == 2)
            run_ok(r, [&](uint64_t* ws, aclOpExecutor** e) {
              return aclnnNLLLoss2dGetWorkspaceSize(x.get(), t.get(), w.get(), red, ignore, o.get(), tw.get(), ws, e);
            }, aclnnNLLLoss2d);
          else
            run_ok(r, [&](uint64_t* ws, aclOpExecutor** e) {
              return aclnnNLLLossGetWorkspaceSize(x.get(), t.get(), w.get(), red, ignore, o.get(), tw.get(), ws, e);
            }, aclnnNLLLoss);
          if (::testing::Test::HasFatalFailure()) return;
          o.download();
          tw.download();
          std::vector<double> terms;
          double wsum = 0;
          for_each_index(ts, [&](const Shape& ti) {
            const int64_t cls = t.at(ti).i;
            double l = 0;
            if (cls != ignore) {
              Shape xi = ti;
              xi.insert(xi.begin() + (form == 1 ? 0 : 1), cls);
              l = -w.at({cls}).as_double() * x.at(xi).as_double();
              wsum += w.at({cls}).as_double();
            }
            terms.push_back(l);
          });
          const std::vector<double> ov = logical(o);
          if (red == 0) {
            for (size_t i = 0; i < terms.size(); ++i)
              EXPECT_NEAR(ov[i], cast(Num::real(terms[i]), dt).f, std::fabs(terms[i]) * 1e-2 + 1e-6) << r << " at " << i;
          } else {
            expect_reduced(r, ov[0], terms, red == 1 ? wsum : 1.0, dt, 64);
            EXPECT_NEAR(logical(tw)[0], wsum, wsum * 1e-2 + 1e-6) << r << " totalWeight";
          }
          // The gradient, with the forward's totalWeight.
          Tensor g(TensorDesc(dt, red == 0 && form != 1 ? ts : Shape{})), gi(random_layout(dt, xs, rng));
          fill_uniform(g, rng, -2, 2);
          fill_uniform(gi, rng, 5, 6);
          if (form == 2)
            run_ok(r + " backward", [&](uint64_t* ws, aclOpExecutor** e) {
              return aclnnNLLLoss2dBackwardGetWorkspaceSize(g.get(), x.get(), t.get(), w.get(), red, ignore, tw.get(), gi.get(), ws, e);
            }, aclnnNLLLoss2dBackward);
          else
            run_ok(r + " backward", [&](uint64_t* ws, aclOpExecutor** e) {
              return aclnnNLLLossBackwardGetWorkspaceSize(g.get(), x.get(), t.get(), w.get(), red, ignore, tw.get(), gi.get(), ws, e);
            }, aclnnNLLLossBackward);
          gi.download();
          const double tw_v = logical(tw)[0];
          for_each_index(xs, [&](const Shape& xi) {
            Shape ti = xi;
            const int64_t k = xi[form == 1 ? 0 : 1];
            ti.erase(ti.begin() + (form == 1 ? 0 : 1));
            const int64_t cls = t.at(ti).i;
            double want = 0;
            if (cls == k && cls != ignore) {
              const double gv = red == 0 && form != 1 ? g.at(ti).as_double() : logical(g)[0];
              want = -w.at({cls}).as_double() * gv / (red == 1 ? tw_v : 1.0);
            }
            EXPECT_NEAR(gi.at(xi).as_double(), want, std::fabs(want) * 1e-2 + 1e-6) << r << " backward at " << shape_str(xi);
          });
        }
}

TEST(NnLoss, CrossEntropy) {
  uint64_t seed = 5000;
  for (aclDataType dt : kF3)
    for (const char* red : {"mean", "sum", "none"})
      for (double smoothing : {0.0, 0.2})
        for (bool weighted : {false, true}) {
          Rng rng(++seed);
          const int64_t n = 1 + static_cast<int64_t>(rng() % 4), c = 1 + static_cast<int64_t>(rng() % 6);
          const int64_t ignore = rng() % 2 ? -100 : 0;
          const bool none = red[0] == 'n';
          Tensor x(random_layout(dt, {n, c}, rng)), t(TensorDesc(I64, {n})), w(TensorDesc(F32, {c}));
          Tensor loss(TensorDesc(dt, none ? Shape{n} : Shape{1})), lp(random_layout(dt, {n, c}, rng));
          Tensor zl(TensorDesc(dt, none ? Shape{n} : Shape{1})), lse(TensorDesc(dt, {n}));
          fill_uniform(x, rng, -4, 4);
          fill_targets(t, rng, c, ignore);
          fill_uniform(w, rng, 0.2, 2);
          const std::string r = std::string("CrossEntropyLoss ") + dtype_name(dt) + " input=" + x.desc().str() +
                                " reduction=" + red + " labelSmoothing=" + std::to_string(smoothing) +
                                " weighted=" + std::to_string(weighted) + " ignoreIndex=" + std::to_string(ignore);
          char rbuf[8];
          std::snprintf(rbuf, sizeof rbuf, "%s", red);
          run_ok(r, [&](uint64_t* ws, aclOpExecutor** e) {
            return aclnnCrossEntropyLossGetWorkspaceSize(x.get(), t.get(), weighted ? w.get() : nullptr, rbuf, ignore,
                                                         smoothing, 0.0, false, loss.get(), lp.get(), zl.get(), lse.get(), ws, e);
          }, aclnnCrossEntropyLoss);
          if (::testing::Test::HasFatalFailure()) return;
          loss.download();
          lp.download();
          auto wt = [&](int64_t k) { return weighted ? w.at({k}).as_double() : 1.0; };
          std::vector<std::vector<double>> logp(static_cast<size_t>(n));
          std::vector<double> terms;
          double wsum = 0;
          for (int64_t i = 0; i < n; ++i) {
            double m = -HUGE_VAL;
            for (int64_t k = 0; k < c; ++k) m = std::max(m, x.at({i, k}).as_double());
            double se = 0;
            for (int64_t k = 0; k < c; ++k) se += std::exp(x.at({i, k}).as_double() - m);
            for (int64_t k = 0; k < c; ++k) logp[static_cast<size_t>(i)].push_back(x.at({i, k}).as_double() - m - std::log(se));
            const int64_t cls = t.at({i}).i;
            double l = 0;
            if (cls != ignore) {
              double smooth = 0;
              for (int64_t k = 0; k < c; ++k) smooth -= logp[static_cast<size_t>(i)][static_cast<size_t>(k)] * wt(k);
              l = (1 - smoothing) * -wt(cls) * logp[static_cast<size_t>(i)][static_cast<size_t>(cls)] + smoothing / c * smooth;
              wsum += wt(cls);
            }
            terms.push_back(l);
          }
          for (int64_t i = 0; i < n; ++i)
            for (int64_t k = 0; k < c; ++k) {
              const double want = logp[static_cast<size_t>(i)][static_cast<size_t>(k)];
              EXPECT_NEAR(lp.at({i, k}).as_double(), want, std::fabs(want) * 1e-2 + 1e-5) << r << " logProb";
            }
          const std::vector<double> lv = logical(loss);
          if (none) {
            for (int64_t i = 0; i < n; ++i)
              EXPECT_NEAR(lv[static_cast<size_t>(i)], terms[static_cast<size_t>(i)], std::fabs(terms[static_cast<size_t>(i)]) * 1e-2 + 1e-5) << r;
          } else {
            expect_reduced(r, lv[0], terms, red[0] == 'm' ? wsum : 1.0, dt, 64);
          }
          // The gradient from logProb (the forward's output), as the CANN doc composes it.
          Tensor g(TensorDesc(dt, none ? Shape{n} : Shape{})), gx(random_layout(dt, {n, c}, rng));
          fill_uniform(g, rng, -2, 2);
          run_ok(r + " grad", [&](uint64_t* ws, aclOpExecutor** e) {
            return aclnnCrossEntropyLossGradGetWorkspaceSize(g.get(), lp.get(), t.get(), weighted ? w.get() : nullptr, nullptr,
                                                             nullptr, rbuf, ignore, smoothing, 0.0, gx.get(), ws, e);
          }, aclnnCrossEntropyLossGrad);
          gx.download();
          double wsum_all = 0;
          for (int64_t k = 0; k < c; ++k) wsum_all += wt(k);
          for (int64_t i = 0; i < n; ++i) {
            const int64_t cls = t.at({i}).i;
            const double gi = (none ? g.at({i}).as_double() : logical(g)[0]) / (red[0] == 'm' ? wsum : 1.0);
            for (int64_t k = 0; k < c; ++k) {
              double want = 0;
              if (cls != ignore) {
                const double pk = std::exp(lp.at({i, k}).as_double());
                const double nll = gi * (1 - smoothing) * wt(cls), sm = gi * smoothing / c;
                want = pk * nll - (k == cls ? nll : 0) + pk * sm * wsum_all - sm * wt(k);
              }
              EXPECT_NEAR(gx.at({i, k}).as_double(), want, std::fabs(want) * 1e-2 + 1e-4) << r << " grad at " << i << "," << k;
            }
          }
        }
}

TEST(NnLoss, MultilabelMargin) {
  uint64_t seed = 6000;
  for (aclDataType dt : kF3)
    for (int64_t red : {0, 1, 2})
      for (bool two_d : {true, false}) {
        Rng rng(++seed);
        const int64_t n = two_d ? 1 + static_cast<int64_t>(rng() % 4) : 1, c = 1 + static_cast<int64_t>(rng() % 5);
        const Shape xs = two_d ? Shape{n, c} : Shape{c};
        Tensor x(random_layout(dt, xs, rng)), t(TensorDesc(rng() % 2 ? I64 : I32, xs));
        Tensor o(TensorDesc(dt, red == 0 && two_d ? Shape{n} : Shape{})), it(random_layout(dt, xs, rng));
        fill_uniform(x, rng, -2, 2);
        for (int64_t i = 0; i < n; ++i)
          for (int64_t k = 0; k < c; ++k) {
            const int64_t v = rng() % 4 == 0 ? -1 : static_cast<int64_t>(rng() % static_cast<uint64_t>(c));
            t.set(two_d ? Shape{i, k} : Shape{k}, Num::integer(v));
          }
        t.upload();
        const std::string r = "MultilabelMarginLoss self=" + x.desc().str() + " reduction=" + std::to_string(red);
        run_ok(r, [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnMultilabelMarginLossGetWorkspaceSize(x.get(), t.get(), red, o.get(), it.get(), ws, e);
        }, aclnnMultilabelMarginLoss);
        o.download();
        it.download();
        std::vector<double> terms;
        for (int64_t i = 0; i < n; ++i) {
          auto X = [&](int64_t k) { return x.at(two_d ? Shape{i, k} : Shape{k}).as_double(); };
          std::vector<int64_t> labels;
          std::vector<bool> is(static_cast<size_t>(c), false);
          for (int64_t k = 0; k < c; ++k) {
            const int64_t v = t.at(two_d ? Shape{i, k} : Shape{k}).i;
            if (v < 0) break;
            labels.push_back(v);
            is[static_cast<size_t>(v)] = true;
          }
          double l = 0;
          for (int64_t j : labels)
            for (int64_t k = 0; k < c; ++k)
              if (!is[static_cast<size_t>(k)]) l += std::max(0.0, 1 - (X(j) - X(k)));
          terms.push_back(l / c);
          for (int64_t k = 0; k < c; ++k)
            EXPECT_EQ(it.at(two_d ? Shape{i, k} : Shape{k}).as_double(), is[static_cast<size_t>(k)] ? 1.0 : 0.0) << r << " isTarget";
        }
        const std::vector<double> ov = logical(o);
        if (red == 0) {
          for (size_t i = 0; i < terms.size(); ++i) EXPECT_NEAR(ov[i], terms[i], std::fabs(terms[i]) * 1e-2 + 1e-5) << r;
        } else {
          expect_reduced(r, ov[0], terms, red == 1 ? static_cast<double>(n) : 1.0, dt, 64);
        }
      }
}

TEST(NnLoss, FusedCrossEntropyWithMaxSum) {
  Rng rng(7);
  const int64_t n = 3, v = 5;
  Tensor mx(TensorDesc(F32, {n})), se(TensorDesc(F32, {n})), pr(TensorDesc(F32, {n})), lo(TensorDesc(F32, {n}));
  Tensor lg(random_layout(F16, {n, v}, rng)), sm(TensorDesc(F32, {n, v}));
  fill_uniform(mx, rng, 0, 2);
  fill_uniform(se, rng, 1, 5);
  fill_uniform(pr, rng, -2, 2);
  fill_uniform(lg, rng, -3, 3);
  run_ok("FusedCrossEntropyLossWithMaxSum", [&](uint64_t* ws, aclOpExecutor** e) {
    return aclnnFusedCrossEntropyLossWithMaxSumGetWorkspaceSize(mx.get(), se.get(), pr.get(), 0.0f, nullptr, nullptr, lg.get(),
                                                                lo.get(), sm.get(), ws, e);
  }, aclnnFusedCrossEntropyLossWithMaxSum);
  lo.download();
  sm.download();
  for (int64_t i = 0; i < n; ++i) {
    const double want = std::log(se.at({i}).as_double()) - pr.at({i}).as_double();
    EXPECT_NEAR(lo.at({i}).as_double(), want, 1e-5 * (1 + std::fabs(want)));
    for (int64_t k = 0; k < v; ++k) {
      const double s = std::exp(lg.at({i, k}).as_double() - mx.at({i}).as_double()) / se.at({i}).as_double();
      EXPECT_NEAR(sm.at({i, k}).as_double(), s, 1e-5 * (1 + s));
    }
  }
}

TEST(NnLoss, ChamferDistanceBackward) {
  Rng rng(8);
  for (aclDataType dt : {F32, F16}) {
    const int64_t bs = 2, n = 4, m = 3;
    Tensor p1(random_layout(dt, {bs, n, 2}, rng)), p2(random_layout(dt, {bs, m, 2}, rng));
    Tensor i1(TensorDesc(I32, {bs, n})), i2(TensorDesc(I32, {bs, m})), g1(TensorDesc(dt, {bs, n})), g2(TensorDesc(dt, {bs, m}));
    Tensor o1(random_layout(dt, {bs, n, 2}, rng)), o2(TensorDesc(dt, {bs, m, 2}));
    fill_uniform(p1, rng, -2, 2);
    fill_uniform(p2, rng, -2, 2);
    fill_uniform(g1, rng, -1, 1);
    fill_uniform(g2, rng, -1, 1);
    for (int64_t b = 0; b < bs; ++b) {
      for (int64_t i = 0; i < n; ++i) i1.set({b, i}, Num::integer(static_cast<int64_t>(rng() % m)));
      for (int64_t j = 0; j < m; ++j) i2.set({b, j}, Num::integer(static_cast<int64_t>(rng() % n)));
    }
    i1.upload();
    i2.upload();
    const std::string r = std::string("ChamferDistanceBackward ") + dtype_name(dt);
    run_ok(r, [&](uint64_t* ws, aclOpExecutor** e) {
      return aclnnChamferDistanceBackwardGetWorkspaceSize(p1.get(), p2.get(), i1.get(), i2.get(), g1.get(), g2.get(), o1.get(),
                                                          o2.get(), ws, e);
    }, aclnnChamferDistanceBackward);
    o1.download();
    o2.download();
    std::map<Shape, double> w1, w2;
    for (int64_t b = 0; b < bs; ++b) {
      for (int64_t i = 0; i < n; ++i) {
        const int64_t j = i1.at({b, i}).i;
        for (int64_t k = 0; k < 2; ++k) {
          const double d = p1.at({b, i, k}).as_double() - p2.at({b, j, k}).as_double();
          w1[{b, i, k}] += 2 * g1.at({b, i}).as_double() * d;
          w2[{b, j, k}] -= 2 * g1.at({b, i}).as_double() * d;
        }
      }
      for (int64_t j = 0; j < m; ++j) {
        const int64_t i = i2.at({b, j}).i;
        for (int64_t k = 0; k < 2; ++k) {
          const double d = p2.at({b, j, k}).as_double() - p1.at({b, i, k}).as_double();
          w2[{b, j, k}] += 2 * g2.at({b, j}).as_double() * d;
          w1[{b, i, k}] -= 2 * g2.at({b, j}).as_double() * d;
        }
      }
    }
    const double tol = dt == F32 ? 1e-5 : 2e-2;
    for_each_index({bs, n, 2}, [&](const Shape& i) { EXPECT_NEAR(o1.at(i).as_double(), w1[i], tol * (1 + std::fabs(w1[i]))) << r; });
    for_each_index({bs, m, 2}, [&](const Shape& i) { EXPECT_NEAR(o2.at(i).as_double(), w2[i], tol * (1 + std::fabs(w2[i]))) << r; });
  }
}

// -log of the summed probability of every path of length T that collapses to the target.
double ctc_brute(const std::vector<std::vector<double>>& logp, int64_t tin, const std::vector<int64_t>& target,
                 int64_t blank) {
  const int64_t c = static_cast<int64_t>(logp[0].size());
  double total = 0;
  std::vector<int64_t> path(static_cast<size_t>(tin), 0);
  int64_t count = 1;
  for (int64_t t = 0; t < tin; ++t) count *= c;
  for (int64_t p = 0; p < count; ++p) {
    int64_t v = p;
    for (int64_t t = 0; t < tin; ++t, v /= c) path[static_cast<size_t>(t)] = v % c;
    std::vector<int64_t> collapsed;
    for (int64_t t = 0; t < tin; ++t) {
      const int64_t l = path[static_cast<size_t>(t)];
      if (l != blank && (t == 0 || l != path[static_cast<size_t>(t - 1)])) collapsed.push_back(l);
    }
    if (collapsed != target) continue;
    double lp = 0;
    for (int64_t t = 0; t < tin; ++t) lp += logp[static_cast<size_t>(t)][static_cast<size_t>(path[static_cast<size_t>(t)])];
    total += std::exp(lp);
  }
  return -std::log(total);
}

TEST(NnLoss, CtcLoss) {
  Rng rng(9);
  for (aclDataType dt : {F32, F64})
    for (bool padded : {true, false}) {
      const int64_t tmax = 5, n = 3, c = 3, blank = 0;
      const std::vector<int64_t> il = {5, 4, 3}, tl = {2, 1, 3};
      const int64_t maxtl = 3, sw = (2 * maxtl + 8) / 8 * 8;
      std::vector<std::vector<int64_t>> tg(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i)
        for (int64_t k = 0; k < tl[static_cast<size_t>(i)]; ++k) tg[static_cast<size_t>(i)].push_back(1 + static_cast<int64_t>(rng() % 2));
      Tensor lp(random_layout(dt, {tmax, n, c}, rng)), nll(TensorDesc(dt, {n})), alpha(TensorDesc(dt, {n, tmax, sw}));
      Tensor targets(TensorDesc(I64, padded ? Shape{n, maxtl} : Shape{2 + 1 + 3}));
      // log-softmax rows
      for (int64_t t = 0; t < tmax; ++t)
        for (int64_t i = 0; i < n; ++i) {
          std::vector<double> z(static_cast<size_t>(c));
          double se = 0;
          for (auto& v : z) {
            v = std::uniform_real_distribution<double>(-2, 2)(rng);
            se += std::exp(v);
          }
          for (int64_t k = 0; k < c; ++k) lp.set({t, i, k}, Num::real(z[static_cast<size_t>(k)] - std::log(se)));
        }
      lp.upload();
      int64_t off = 0;
      for (int64_t i = 0; i < n; ++i)
        for (int64_t k = 0; k < maxtl; ++k) {
          if (padded) targets.set({i, k}, Num::integer(k < tl[static_cast<size_t>(i)] ? tg[static_cast<size_t>(i)][static_cast<size_t>(k)] : 0));
          else if (k < tl[static_cast<size_t>(i)]) targets.set({off++}, Num::integer(tg[static_cast<size_t>(i)][static_cast<size_t>(k)]));
        }
      targets.upload();
      aclIntArray* ila = aclCreateIntArray(il.data(), il.size());
      aclIntArray* tla = aclCreateIntArray(tl.data(), tl.size());
      const std::string r = std::string("CtcLoss ") + dtype_name(dt) + (padded ? " padded" : " concatenated");
      run_ok(r, [&](uint64_t* ws, aclOpExecutor** e) {
        return aclnnCtcLossGetWorkspaceSize(lp.get(), targets.get(), ila, tla, blank, false, nll.get(), alpha.get(), ws, e);
      }, aclnnCtcLoss);
      aclDestroyIntArray(ila);
      aclDestroyIntArray(tla);
      nll.download();
      for (int64_t i = 0; i < n; ++i) {
        std::vector<std::vector<double>> rows;
        for (int64_t t = 0; t < tmax; ++t) {
          std::vector<double> row;
          for (int64_t k = 0; k < c; ++k) row.push_back(lp.at({t, i, k}).as_double());
          rows.push_back(row);
        }
        const double want = ctc_brute(rows, il[static_cast<size_t>(i)], tg[static_cast<size_t>(i)], blank);
        if (std::isinf(want)) EXPECT_EQ(nll.at({i}).as_double(), want) << r << " batch " << i;  // infeasible target
        else EXPECT_NEAR(nll.at({i}).as_double(), want, 1e-5 * (1 + std::fabs(want))) << r << " batch " << i;
      }
    }
}

// ---- bad inputs ---------------------------------------------------------------------------------------------

TEST(NnLoss, Errors) {
  Tensor f(TensorDesc(F32, {2, 3})), f0(TensorDesc(F32, {})), f1(TensorDesc(F32, {1})), f4(TensorDesc(F32, {4}));
  Tensor h(TensorDesc(F16, {2, 3})), i32(TensorDesc(I32, {2, 3})), t2(TensorDesc(I64, {2})), w3(TensorDesc(F32, {3}));
  Tensor w4(TensorDesc(F32, {4})), f23(TensorDesc(F32, {2, 3})), f32x(TensorDesc(F32, {3, 2}));
  auto p = [](auto fn) { return Phase1Fn(fn); };
  expect_phase1_error("MseLoss reduction=3", ACLNN_ERR_PARAM_INVALID, "reduction is 3",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnMseLossGetWorkspaceSize(f.get(), f.get(), 3, f0.get(), w, e); }));
  expect_phase1_error("MseLoss out [1]", ACLNN_ERR_PARAM_INVALID, "expected a 0-d tensor",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnMseLossGetWorkspaceSize(f.get(), f.get(), 1, f1.get(), w, e); }));
  expect_phase1_error("MseLoss broadcast", ACLNN_ERR_PARAM_INVALID, "does not broadcast",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnMseLossGetWorkspaceSize(f.get(), f4.get(), 0, f.get(), w, e); }));
  expect_phase1_error("MseLoss none out shape", ACLNN_ERR_PARAM_INVALID, "out has shape [3, 2]",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnMseLossGetWorkspaceSize(f.get(), f.get(), 0, f32x.get(), w, e); }));
  expect_phase1_error("MseLoss int32", ACLNN_ERR_PARAM_INVALID, "self dtype int32",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnMseLossGetWorkspaceSize(i32.get(), f.get(), 0, f.get(), w, e); }));
  expect_phase1_error("MseLoss target null", ACLNN_ERR_PARAM_NULLPTR, "target",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnMseLossGetWorkspaceSize(f.get(), nullptr, 0, f.get(), w, e); }));
  expect_phase1_error("SmoothL1Loss beta<0", ACLNN_ERR_PARAM_INVALID, "beta must be greater",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnSmoothL1LossGetWorkspaceSize(f.get(), f.get(), 0, -1.0f, f.get(), w, e); }));
  expect_phase1_error("MseLossBackward dtype", ACLNN_ERR_PARAM_INVALID, "gradOutput dtype float16 must equal self",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnMseLossBackwardGetWorkspaceSize(h.get(), f.get(), f.get(), 0, f.get(), w, e); }));
  expect_phase1_error("L1LossBackward out shape", ACLNN_ERR_PARAM_INVALID, "gradInput has shape [3, 2]",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnL1LossBackwardGetWorkspaceSize(f.get(), f.get(), f.get(), 0, f32x.get(), w, e); }));
  expect_phase1_error("BinaryCrossEntropy target shape", ACLNN_ERR_PARAM_INVALID, "target has shape [3, 2]",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnBinaryCrossEntropyGetWorkspaceSize(f.get(), f32x.get(), nullptr, 0, f.get(), w, e); }));
  expect_phase1_error("BinaryCrossEntropy weight", ACLNN_ERR_PARAM_INVALID, "weight [4] does not broadcast",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnBinaryCrossEntropyGetWorkspaceSize(f.get(), f.get(), w4.get(), 0, f.get(), w, e); }));
  expect_phase1_error("BCEWithLogits posWeight", ACLNN_ERR_PARAM_INVALID, "posWeightOptional [4] does not broadcast",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(f.get(), f.get(), nullptr, w4.get(), 0, f.get(), w, e);
                      }));
  expect_phase1_error("KlDivBackward reduction=4", ACLNN_ERR_PARAM_INVALID, "reduction is 4",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnKlDivBackwardGetWorkspaceSize(f.get(), f.get(), f.get(), 4, false, f.get(), w, e); }));
  expect_phase1_error("KlDivBackward out shape", ACLNN_ERR_PARAM_INVALID, "out has shape [3, 2]",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnKlDivBackwardGetWorkspaceSize(f.get(), f.get(), f.get(), 0, false, f32x.get(), w, e); }));
  expect_phase1_error("Logit dtype", ACLNN_ERR_PARAM_INVALID, "out dtype float16 must equal input",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnLogitGetWorkspaceSize(f.get(), -1.0, h.get(), w, e); }));
  expect_phase1_error("NLLLoss weight null", ACLNN_ERR_PARAM_NULLPTR, "weight",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnNLLLossGetWorkspaceSize(f.get(), t2.get(), nullptr, 1, -100, f1.get(), f1.get(), w, e); }));
  expect_phase1_error("NLLLoss weight shape", ACLNN_ERR_PARAM_INVALID, "weight has shape [4]",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnNLLLossGetWorkspaceSize(f.get(), t2.get(), w4.get(), 1, -100, f1.get(), f1.get(), w, e); }));
  expect_phase1_error("NLLLoss target dtype", ACLNN_ERR_PARAM_INVALID, "target dtype float32",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnNLLLossGetWorkspaceSize(f.get(), f.get(), w3.get(), 1, -100, f1.get(), f1.get(), w, e); }));
  expect_phase1_error("NLLLoss 3-d", ACLNN_ERR_PARAM_INVALID, "expected 1 or 2",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        Tensor x3(TensorDesc(F32, {2, 3, 1}));
                        return aclnnNLLLossGetWorkspaceSize(x3.get(), t2.get(), w3.get(), 1, -100, f1.get(), f1.get(), w, e);
                      }));
  expect_phase1_error("NLLLoss2d 2-d", ACLNN_ERR_PARAM_INVALID, "expected 4",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnNLLLoss2dGetWorkspaceSize(f.get(), t2.get(), w3.get(), 1, -100, f1.get(), f1.get(), w, e); }));
  expect_phase1_error("NLLLossBackward totalWeight", ACLNN_ERR_PARAM_INVALID, "totalWeight has shape [2, 3]",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnNLLLossBackwardGetWorkspaceSize(f0.get(), f.get(), t2.get(), w3.get(), 1, -100, f.get(), f.get(), w, e);
                      }));
  expect_phase1_error("CrossEntropyLoss reduction", ACLNN_ERR_PARAM_INVALID, "reductionOptional is \"avg\"",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        char bad[] = "avg";
                        return aclnnCrossEntropyLossGetWorkspaceSize(f.get(), t2.get(), nullptr, bad, -100, 0.0, 0.0, false, f1.get(), f.get(),
                                                                     f1.get(), t2.get(), w, e);
                      }));
  expect_phase1_error("CrossEntropyLoss smoothing", ACLNN_ERR_PARAM_INVALID, "labelSmoothing is 2",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnCrossEntropyLossGetWorkspaceSize(f.get(), t2.get(), nullptr, nullptr, -100, 2.0, 0.0, false, f1.get(), f.get(),
                                                                     f1.get(), t2.get(), w, e);
                      }));
  expect_phase1_error("CrossEntropyLossGrad out shape", ACLNN_ERR_PARAM_INVALID, "out has shape [3, 2]",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnCrossEntropyLossGradGetWorkspaceSize(f0.get(), f.get(), t2.get(), nullptr, nullptr, nullptr, nullptr, -100,
                                                                         0.0, 0.0, f32x.get(), w, e);
                      }));
  expect_phase1_error("MultilabelMarginLoss target shape", ACLNN_ERR_PARAM_INVALID, "target has shape [2]",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        Tensor o2(TensorDesc(F32, {2}));
                        return aclnnMultilabelMarginLossGetWorkspaceSize(f.get(), t2.get(), 0, o2.get(), f.get(), w, e);
                      }));
  expect_phase1_error("FusedCE labelSmoothing", ACLNN_ERR_PARAM_INVALID, "labelSmoothing",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnFusedCrossEntropyLossWithMaxSumGetWorkspaceSize(w3.get(), w3.get(), w3.get(), 0.5f, nullptr, nullptr,
                                                                                    nullptr, w3.get(), nullptr, w, e);
                      }));
  expect_phase1_error("CtcLoss blank", ACLNN_ERR_PARAM_INVALID, "blank is 5",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        Tensor lp(TensorDesc(F32, {4, 1, 3})), tg(TensorDesc(I64, {1, 2})), nl(TensorDesc(F32, {1})), al(TensorDesc(F32, {1, 4, 8}));
                        const int64_t a[1] = {4}, b2[1] = {2};
                        aclIntArray* ia = aclCreateIntArray(a, 1);
                        aclIntArray* ta = aclCreateIntArray(b2, 1);
                        const aclnnStatus st = aclnnCtcLossGetWorkspaceSize(lp.get(), tg.get(), ia, ta, 5, false, nl.get(), al.get(), w, e);
                        aclDestroyIntArray(ia);
                        aclDestroyIntArray(ta);
                        return st;
                      }));
  expect_phase1_error("ChamferDistanceBackward xyz1 shape", ACLNN_ERR_PARAM_INVALID, "xyz1 has shape [2, 3]",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        Tensor i1(TensorDesc(I32, {2, 3}));
                        return aclnnChamferDistanceBackwardGetWorkspaceSize(f.get(), f.get(), i1.get(), i1.get(), f.get(), f.get(), f.get(),
                                                                            f.get(), w, e);
                      }));
}

}  // namespace
