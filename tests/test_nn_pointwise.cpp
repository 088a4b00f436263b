// Tests of the nn family's pointwise activations and activation gradients through the public aclnn
// API: Erfinv, FastGelu, SquaredRelu, Shrink, Heaviside, AddRelu, Prelu, RReluWithNoise and the
// backward ops (Elu, FastGelu, GeluV2, Hardshrink, Softshrink, Hardsigmoid, HardswishV2, Hardtanh,
// LogSigmoid, Mish, Selu, Softplus, Swish, Prelu).
//
// Each op is a table row: the dtype combinations it accepts (inputs..., out), whether its inputs
// broadcast, a double reference of the CANN doc's formula, and its tolerance (nn_test_util.h).
// Inputs are random over each op's interesting range with a share of inf/nan/+-0, in random
// layouts (permuted, gapped, offset); the reference reads the stored values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_relu.h"
#include "aclnnop/aclnn_elu_backward.h"
#include "aclnnop/aclnn_erfinv.h"
#include "aclnnop/aclnn_fast_gelu.h"
#include "aclnnop/aclnn_fast_gelu_backward.h"
#include "aclnnop/aclnn_gelu_backward_v2.h"
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "aclnnop/aclnn_hardswish_backward_v2.h"
#include "aclnnop/aclnn_hardtanh_backward.h"
#include "aclnnop/aclnn_heaviside.h"
#include "aclnnop/aclnn_logsigmoid_backward.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "aclnnop/aclnn_prelu.h"
#include "aclnnop/aclnn_prelu_backward.h"
#include "aclnnop/aclnn_rrelu_with_noise.h"
#include "aclnnop/aclnn_selu_backward.h"
#include "aclnnop/aclnn_shrink.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "aclnnop/aclnn_softshrink_backward.h"
#include "aclnnop/aclnn_squared_relu.h"
#include "aclnnop/aclnn_swish_backward.h"
#include "nn_test_util.h"

namespace {

using namespace nntest;

double sigm(double z) {
  if (z >= 0) return 1 / (1 + std::exp(-z));
  const double e = std::exp(z);
  return e / (1 + e);
}
bool isnan_(double x) { return std::isnan(x); }

// erfinv by bisection on erf (independent of the op's approximation + Newton).
double erfinv_ref(double y) {
  if (std::isnan(y) || y < -1 || y > 1) return nan_v();
  if (y == 1) return inf_v();
  if (y == -1) return -inf_v();
  double lo = -6, hi = 6;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (std::erf(mid) < y ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

double gelu_grad(double x, bool t) {
  if (std::isinf(x)) return x > 0 ? 1 : 0;
  if (!t) return 0.5 * std::erfc(-x / std::sqrt(2.0)) + x * std::exp(-0.5 * x * x) / std::sqrt(2 * M_PI);
  const double k = std::sqrt(2 / M_PI), u = k * (x + 0.044715 * x * x * x);
  const double s = sigm(2 * u);
  return s + x * 2 * s * sigm(-2 * u) * k * (1 + 3 * 0.044715 * x * x);
}
double softplus(double x) { return x > 30 ? x : std::log1p(std::exp(x)); }
double mish_grad(double x) {
  if (std::isinf(x)) return x > 0 ? 1 : 0;
  const double t = std::tanh(softplus(x));
  const double sech2 = 1 / std::pow(std::cosh(softplus(x)), 2);
  (void)t;
  return std::tanh(softplus(x)) + x * sigm(x) * sech2;
}

// ---- the table --------------------------------------------------------------------------------------------

using Ins = std::vector<aclTensor*>;

struct PwOp {
  std::string name;
  std::vector<DTypes> combos;  // input dtypes..., out dtype
  bool broadcast = false;
  Tol tol;
  std::function<double(const std::vector<double>&)> ref;
  std::function<aclnnStatus(const Ins&, aclTensor*, uint64_t*, aclOpExecutor**)> p1;
  Phase2Fn p2;
  std::vector<std::pair<double, double>> ranges;  // value range per input
  int min_rank = 0;
  bool inplace = false;  // the result goes to input 0 (no out tensor)
};

// Every input of one dtype t, out t.
std::vector<DTypes> same(const DTypes& ts, size_t inputs) {
  std::vector<DTypes> v;
  for (aclDataType t : ts) v.push_back(DTypes(inputs + 1, t));
  return v;
}

// The float compute type of a combination: float64 when any tensor is, else float32.
aclDataType compute_of(const DTypes& c) {
  for (aclDataType t : c)
    if (t == F64) return F64;
  return F32;
}

// A shape broadcastable to `out`: leading dims dropped and some dims set to 1.
Shape shrink_for_broadcast(const Shape& out, Rng& rng) {
  Shape s = out;
  const size_t drop = rng() % (s.size() + 1);
  s.erase(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(drop));
  for (auto& d : s)
    if (rng() % 3 == 0) d = 1;
  return s;
}

Shape map_index(const Shape& out_idx, const Shape& in_shape) {
  Shape idx(in_shape.size());
  const size_t lead = out_idx.size() - in_shape.size();
  for (size_t i = 0; i < in_shape.size(); ++i) idx[i] = in_shape[i] == 1 ? 0 : out_idx[lead + i];
  return idx;
}

void check_pw(const PwOp& op, const DTypes& combo, const Shape& out_shape, uint64_t seed, double special = 0.03) {
  Rng rng(seed);
  const size_t n_in = combo.size() - 1;
  std::vector<std::unique_ptr<Tensor>> ins;
  Ins ptrs;
  std::string repro = op.name;
  const size_t full = op.inplace ? 0 : rng() % n_in;  // an input of the output's shape
  for (size_t k = 0; k < n_in; ++k) {
    const Shape s = op.broadcast && k != full ? shrink_for_broadcast(out_shape, rng) : out_shape;
    ins.push_back(std::make_unique<Tensor>(random_layout(combo[k], s, rng)));
    const auto r = k < op.ranges.size() ? op.ranges[k] : std::make_pair(-6.0, 6.0);
    fill_uniform(*ins.back(), rng, r.first, r.second, special);
    ptrs.push_back(ins.back()->get());
    repro += " in" + std::to_string(k) + "=" + ins.back()->desc().str();
  }
  std::unique_ptr<Tensor> out_t;
  if (!op.inplace) {
    out_t = std::make_unique<Tensor>(random_layout(combo.back(), out_shape, rng));
    fill_uniform(*out_t, rng, -1, 1);
    repro += " out=" + out_t->desc().str();
  }
  repro += " seed=" + std::to_string(seed);
  Tensor& out = op.inplace ? *ins[0] : *out_t;
  std::vector<std::vector<uint8_t>> before;
  for (auto& t : ins) before.push_back(t->host());
  Guard guard(out);
  run_ok(repro, [&](uint64_t* w, aclOpExecutor** e) { return op.p1(ptrs, op.inplace ? nullptr : out_t->get(), w, e); },
         op.p2);
  if (::testing::Test::HasFatalFailure()) return;
  out.download();
  guard.check(repro);
  std::vector<Shape> idx_of;
  for_each_index(out_shape, [&](const Shape& i) { idx_of.push_back(i); });
  expect_all(repro, out, compute_of(combo), op.tol, op.ref, [&](int64_t i) {
    std::vector<double> v;
    for (size_t k = 0; k < n_in; ++k)
      v.push_back(ins[k]->at(before[k], map_index(idx_of[static_cast<size_t>(i)], ins[k]->desc().shape)).as_double());
    return v;
  });
}

#define P1(expr) [=](const Ins& in, aclTensor* out, uint64_t* w, aclOpExecutor** e) { \
    (void)out;                                                                          \
    return expr;                                                                        \
  }
#define R(expr) [=](const std::vector<double>& v) { return expr; }

std::vector<PwOp> pw_ops() {
  std::vector<PwOp> ops;
  // ---- forward ----
  {
    std::vector<DTypes> c;
    for (aclDataType t : {F32, F16, BF16}) c.push_back({t, t});
    for (aclDataType t : {I32, I64, I8, U8, I16, BOOL}) c.push_back({t, F32});
    c.push_back({F16, F32});
    ops.push_back({"Erfinv", c, false, {4, 8}, R(erfinv_ref(v[0])), P1(aclnnErfinvGetWorkspaceSize(in[0], out, w, e)),
                   aclnnErfinv, {{-1.1, 1.1}}});
    PwOp inplace{"InplaceErfinv", same(kF3, 1), false, {4, 8}, R(erfinv_ref(v[0])),
                 P1(aclnnInplaceErfinvGetWorkspaceSize(in[0], w, e)), aclnnInplaceErfinv, {{-1.1, 1.1}}};
    for (auto& x : inplace.combos) x.pop_back();
    for (auto& x : inplace.combos) x.push_back(x[0]);
    inplace.inplace = true;
    ops.push_back(inplace);
  }
  ops.push_back({"FastGelu", same(kF3, 1), false, {4, 8}, R(v[0] * sigm(1.702 * v[0])),
                 P1(aclnnFastGeluGetWorkspaceSize(in[0], out, w, e)), aclnnFastGelu, {}});
  ops.push_back({"SquaredRelu", same(kF3, 1), false, {0, 1}, R(v[0] > 0 || isnan_(v[0]) ? v[0] * v[0] : 0.0),
                 P1(aclnnSquaredReluGetWorkspaceSize(in[0], out, w, e)), aclnnSquaredRelu, {}, 1});
  for (double lam : {0.5, 0.0})
    for (double bias : {0.25, -1.5}) {
      const float lf = static_cast<float>(lam), bf = static_cast<float>(bias);
      ops.push_back({"Shrink lambd=" + std::to_string(lam) + " bias=" + std::to_string(bias), same({F32, F16}, 1), false,
                     {0, 1},
                     R(v[0] > lf ? v[0] - bf : v[0] < -lf ? v[0] + bf : (isnan_(v[0]) ? v[0] : 0.0)),
                     [lf, bf](const Ins& in, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
                       ScalarHolder l(ScalarDesc(F32, lf)), b(ScalarDesc(F32, bf));
                       return aclnnShrinkGetWorkspaceSize(in[0], l.s, b.s, out, w, e);
                     },
                     aclnnShrink, {{-2, 2}}});
    }
  {
    std::vector<DTypes> c = same(kF3, 2);
    c.push_back({F16, F32, F32});
    c.push_back({BF16, F16, F32});
    ops.push_back({"Heaviside", c, true, {}, R(v[0] == 0 ? v[1] : (v[0] > 0 ? 1.0 : 0.0)),
                   P1(aclnnHeavisideGetWorkspaceSize(in[0], in[1], out, w, e)), aclnnHeaviside, {{-2, 2}, {-3, 3}}});
  }
  for (double alpha : {1.0, -2.0, 0.5}) {
    std::vector<DTypes> c = same({F32, F16, BF16, I32, I64, I16, I8, U8}, 2);
    c.push_back({F16, F32, F32});
    c.push_back({I32, F32, F32});
    c.push_back({U8, I8, I16});
    if (alpha == -2.0) c = same({F32, F16, BF16, I32, I64, I16, I8}, 2);  // uint8 would wrap
    if (alpha == 0.5) c = same(kF3, 2);
    const aclDataType at = alpha == 0.5 ? F32 : I64;
    PwOp f{"AddRelu alpha=" + std::to_string(alpha), c, true, {0, 2},
           R(v[0] + alpha * v[1] > 0 || isnan_(v[0] + alpha * v[1]) ? v[0] + alpha * v[1] : 0.0),
           [alpha, at](const Ins& in, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
             ScalarHolder a(ScalarDesc(at, alpha));
             return aclnnAddReluGetWorkspaceSize(in[0], in[1], a.s, out, w, e);
           },
           aclnnAddRelu, {{-20, 20}, {-20, 20}}};
    ops.push_back(f);
  }
  {
    PwOp f{"InplaceAddRelu", same({F32, F16, I32}, 2), true, {0, 2},
           R(v[0] + 2 * v[1] > 0 || isnan_(v[0] + 2 * v[1]) ? v[0] + 2 * v[1] : 0.0),
           [](const Ins& in, aclTensor*, uint64_t* w, aclOpExecutor** e) {
             ScalarHolder a(ScalarDesc(I64, 2));
             return aclnnInplaceAddReluGetWorkspaceSize(in[0], in[1], a.s, w, e);
           },
           aclnnInplaceAddRelu, {{-20, 20}, {-20, 20}}};
    f.inplace = true;
    ops.push_back(f);
  }
  // ---- backward: (gradOutput, x) -> gradInput ----
  for (bool is_result : {true, false})
    for (double alpha : {1.0, 0.5}) {
      const double scale = 1.5, iscale = 0.75;
      std::vector<DTypes> c = same(kF3, 2);
      c.push_back({F16, F16, F32});
      c.push_back({BF16, BF16, F32});
      ops.push_back({"EluBackward isResult=" + std::to_string(is_result) + " alpha=" + std::to_string(alpha), c, false,
                     {4, 8},
                     R(v[1] > 0 ? v[0] * scale
                                : is_result ? v[0] * iscale * (v[1] + alpha * scale)
                                            : v[0] * iscale * alpha * scale * std::exp(v[1] * iscale)),
                     [=](const Ins& in, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
                       ScalarHolder a(ScalarDesc(F32, alpha)), s(ScalarDesc(F64, scale)), i(ScalarDesc(F32, iscale));
                       return aclnnEluBackwardGetWorkspaceSize(in[0], a.s, s.s, i.s, is_result, in[1], out, w, e);
                     },
                     aclnnEluBackward, {{-3, 3}, {-6, 4}}});
    }
  ops.push_back({"FastGeluBackward", same(kF3, 2), false, {4, 8},
                 R(v[0] * sigm(1.702 * v[1]) * (1 + 1.702 * v[1] * sigm(-1.702 * v[1]))),
                 P1(aclnnFastGeluBackwardGetWorkspaceSize(in[0], in[1], out, w, e)), aclnnFastGeluBackward,
                 {{-3, 3}, {-8, 8}}});
  for (const char* approx : {"none", "tanh"}) {
    const bool t = approx[0] == 't';
    std::vector<DTypes> c = same(kF3, 2);
    c.push_back({F16, F32, F32});
    c.push_back({BF16, F16, F32});
    ops.push_back({std::string("GeluBackwardV2 approximate=") + approx, c, true, {8, 16}, R(v[0] * gelu_grad(v[1], t)),
                   [approx](const Ins& in, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
                     char buf[8];
                     std::snprintf(buf, sizeof buf, "%s", approx);
                     return aclnnGeluBackwardV2GetWorkspaceSize(in[0], in[1], buf, out, w, e);
                   },
                   aclnnGeluBackwardV2, {{-3, 3}, {-6, 6}}});
  }
  for (double lam : {0.5, -1.0}) {
    const double l = std::max(lam, 0.0);
    std::vector<DTypes> c = same(kF3, 2);
    c.push_back({F16, F32, F32});
    ops.push_back({"HardshrinkBackward lambd=" + std::to_string(lam), c, true, {}, R(v[1] > l || v[1] < -l ? v[0] : 0.0),
                   [lam](const Ins& in, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
                     ScalarHolder s(ScalarDesc(F32, lam));
                     return aclnnHardshrinkBackwardGetWorkspaceSize(in[0], in[1], s.s, out, w, e);
                   },
                   aclnnHardshrinkBackward, {{-3, 3}, {-1, 1}}});
  }
  {
    std::vector<DTypes> c = same(kF3, 2);
    c.push_back({BF16, F32, F32});
    ops.push_back({"SoftshrinkBackward lambd=0.25", c, true, {}, R(v[1] > 0.25 || v[1] < -0.25 ? v[0] : 0.0),
                   [](const Ins& in, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
                     ScalarHolder s(ScalarDesc(F64, 0.25));
                     return aclnnSoftshrinkBackwardGetWorkspaceSize(in[0], in[1], s.s, out, w, e);
                   },
                   aclnnSoftshrinkBackward, {{-3, 3}, {-1, 1}}});
  }
  {
    std::vector<DTypes> c = same(kF3, 2);
    c.push_back({F16, F32, F32});
    ops.push_back({"HardsigmoidBackward", c, false, {0, 1}, R(v[1] > -3 && v[1] < 3 ? v[0] / 6 : 0.0),
                   P1(aclnnHardsigmoidBackwardGetWorkspaceSize(in[0], in[1], out, w, e)), aclnnHardsigmoidBackward,
                   {{-3, 3}, {-5, 5}}});
  }
  ops.push_back({"HardswishBackwardV2", same(kF3, 2), false, {0, 2},
                 R(v[1] <= -3 ? 0.0 : v[1] >= 3 ? v[0] : v[0] * (v[1] / 3 + 0.5)),
                 P1(aclnnHardswishBackwardV2GetWorkspaceSize(in[0], in[1], out, w, e)), aclnnHardswishBackwardV2,
                 {{-3, 3}, {-5, 5}}, 1});
  ops.back().tol = {0, 3};
  ops.push_back({"HardtanhBackward min=-1.25 max=2.5", same(kF3, 2), false, {}, R(v[1] > 2.5 || v[1] < -1.25 ? 0.0 : v[0]),
                 [](const Ins& in, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
                   ScalarHolder lo(ScalarDesc(F32, -1.25)), hi(ScalarDesc(F32, 2.5));
                   return aclnnHardtanhBackwardGetWorkspaceSize(in[0], in[1], lo.s, hi.s, out, w, e);
                 },
                 aclnnHardtanhBackward, {{-3, 3}, {-4, 4}}});
  ops.push_back({"LogSigmoidBackward", same(kF3, 2), false, {4, 8}, R(v[0] * sigm(-v[1])),
                 [](const Ins& in, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
                   return aclnnLogSigmoidBackwardGetWorkspaceSize(in[0], in[1], in[0], out, w, e);
                 },
                 aclnnLogSigmoidBackward, {{-3, 3}, {-20, 20}}, 1});
  {
    std::vector<DTypes> c = same(kF3, 2);
    c.push_back({F32, F16, F32});
    ops.push_back({"MishBackward", c, true, {8, 16}, R(v[0] * mish_grad(v[1])),
                   P1(aclnnMishBackwardGetWorkspaceSize(in[0], in[1], out, w, e)), aclnnMishBackward,
                   {{-3, 3}, {-10, 25}}});
  }
  ops.push_back({"SeluBackward", same({F32, F16, BF16, I32, I8}, 2), false, {2, 4},
                 R(v[1] <= 0 ? v[0] * (v[1] + 1.0507009873554804934 * 1.6732632423543772848) : v[0] * 1.0507009873554804934),
                 P1(aclnnSeluBackwardGetWorkspaceSize(in[0], in[1], out, w, e)), aclnnSeluBackward, {{-20, 20}, {-1.7, 5}},
                 1});
  for (double beta : {1.0, 2.0}) {
    const double th = 3.0;
    std::vector<DTypes> c = same({F32, F16, BF16, F64}, 2);
    c.push_back({F32, I32, F32});
    c.push_back({F16, BOOL, F32});
    c.push_back({F64, F32, F16});
    ops.push_back({"SoftplusBackward beta=" + std::to_string(beta) + " threshold=3", c, false, {4, 8},
                   R(beta * v[1] > th ? v[0] : v[0] * sigm(beta * v[1])),
                   [beta, th](const Ins& in, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
                     ScalarHolder b(ScalarDesc(F32, beta)), t(ScalarDesc(I64, th));
                     return aclnnSoftplusBackwardGetWorkspaceSize(in[0], in[1], b.s, t.s, out, w, e);
                   },
                   aclnnSoftplusBackward, {{-3, 3}, {-6, 6}}});
  }
  for (double beta : {1.0, 1.75}) {
    ops.push_back({"SwishBackward beta=" + std::to_string(beta), same(kF3, 2), false, {4, 8},
                   R(v[0] * sigm(beta * v[1]) * (1 + beta * v[1] * sigm(-beta * v[1]))),
                   [beta](const Ins& in, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
                     if (beta == 1.0) return aclnnSwishBackwardGetWorkspaceSize(in[0], in[1], nullptr, out, w, e);
                     ScalarHolder b(ScalarDesc(F32, beta));
                     return aclnnSwishBackwardGetWorkspaceSize(in[0], in[1], b.s, out, w, e);
                   },
                   aclnnSwishBackward, {{-3, 3}, {-8, 8}}});
  }
  return ops;
}

TEST(NnPointwise, Values) {
  uint64_t seed = 100;
  for (const PwOp& op : pw_ops())
    for (const DTypes& c : op.combos)
      for (int rep = 0; rep < 2; ++rep) {
        Rng rng(++seed);
        check_pw(op, c, random_shape(rng, std::max(op.min_rank, rep == 0 ? 0 : 1), 4), seed);
      }
}

// Size-1 dims, empty tensors, rows longer than the engine's chunk.
TEST(NnPointwise, Shapes) {
  uint64_t seed = 20000;
  for (const PwOp& op : pw_ops()) {
    const DTypes& c = op.combos[0];
    check_pw(op, c, {1, 3, 1}, ++seed);
    check_pw(op, c, {2, 0, 3}, ++seed);
    check_pw(op, c, {3, 700}, ++seed, 0.0);
  }
}

// Prelu: a weight of 1 element or one per channel (dim 1), any dtype pair that promotes.
TEST(NnPointwise, Prelu) {
  uint64_t seed = 300;
  const std::vector<std::array<aclDataType, 3>> combos = {{F32, F32, F32}, {F16, F16, F16}, {BF16, BF16, BF16},
                                                          {F16, F32, F32}, {BF16, F32, F32}};
  for (const auto& c : combos)
    for (int rep = 0; rep < 4; ++rep) {
      Rng rng(++seed);
      const Shape xs = random_shape(rng, rep == 0 ? 0 : 1, 4);
      const int64_t ch = xs.size() <= 1 ? 1 : xs[1];
      const bool per_channel = rep % 2 == 1;
      const Shape wsh = per_channel ? (rep == 3 && xs.size() > 1 ? Shape{1, ch, 1} : Shape{ch}) : Shape{};
      Tensor x(random_layout(c[0], xs, rng)), wt(random_layout(c[1], wsh, rng)), out(random_layout(c[2], xs, rng));
      fill_uniform(x, rng, -5, 5, 0.03);
      fill_uniform(wt, rng, -2, 2);
      fill_uniform(out, rng, -1, 1);
      Guard guard(out);
      const std::string r = "Prelu self=" + x.desc().str() + " weight=" + wt.desc().str() + " out=" + out.desc().str();
      run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnPreluGetWorkspaceSize(x.get(), wt.get(), out.get(), w, e); },
             aclnnPrelu);
      out.download();
      guard.check(r);
      const std::vector<double> wv = logical(wt);
      std::vector<Shape> idx;
      for_each_index(xs, [&](const Shape& i) { idx.push_back(i); });
      expect_all(r, out, F32, {0, 1}, [](const std::vector<double>& v) { return v[0] > 0 ? v[0] : v[1] * v[0]; },
                 [&](int64_t i) {
                   const Shape& ix = idx[static_cast<size_t>(i)];
                   const double wvv = wv.size() == 1 ? wv[0] : wv[static_cast<size_t>(ix[1])];
                   return std::vector<double>{x.at(ix).as_double(), wvv};
                 });
    }
}

// PreluBackward: gradInput elementwise, gradWeight the per-channel sum of g * x over x <= 0.
TEST(NnPointwise, PreluBackward) {
  uint64_t seed = 400;
  for (aclDataType dt : kF3)
    for (int rep = 0; rep < 4; ++rep) {
      Rng rng(++seed);
      const Shape xs = random_shape(rng, 1, 4);
      const int64_t ch = xs.size() <= 1 ? 1 : xs[1];
      const bool per_channel = rep % 2 == 1;
      const Shape wsh = per_channel ? Shape{ch} : Shape{1};
      const Shape gsh = rep == 2 ? shrink_for_broadcast(xs, rng) : xs;
      Tensor g(random_layout(dt, gsh, rng)), x(random_layout(dt, xs, rng)), wt(TensorDesc(dt, wsh));
      Tensor gi(random_layout(dt, xs, rng)), gw(TensorDesc(dt, wsh));
      fill_uniform(g, rng, -2, 2);
      fill_uniform(x, rng, -3, 3);
      fill_uniform(wt, rng, -1, 1);
      fill_uniform(gi, rng, 5, 6);
      fill_uniform(gw, rng, 5, 6);
      const std::string r = "PreluBackward grad=" + g.desc().str() + " self=" + x.desc().str() + " weight=" +
                            wt.desc().str() + " gradInput=" + gi.desc().str();
      run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnPreluBackwardGetWorkspaceSize(g.get(), x.get(), wt.get(), gi.get(), gw.get(), w, e);
      }, aclnnPreluBackward);
      gi.download();
      gw.download();
      const std::vector<double> wv = logical(wt);
      std::vector<double> sums(static_cast<size_t>(per_channel ? ch : 1), 0.0), abs_sums(sums.size(), 0.0);
      std::vector<Shape> idx;
      for_each_index(xs, [&](const Shape& i) {
        idx.push_back(i);
        const double gv = g.at(map_index(i, gsh)).as_double(), xv = x.at(i).as_double();
        const size_t c = per_channel && xs.size() > 1 ? static_cast<size_t>(i[1]) : 0;
        if (!(xv > 0)) {
          sums[c] += gv * xv;
          abs_sums[c] += std::fabs(gv * xv);
        }
      });
      expect_all(r, gi, F32, {0, 1}, [](const std::vector<double>& v) { return v[1] > 0 ? v[0] : v[0] * v[2]; },
                 [&](int64_t i) {
                   const Shape& ix = idx[static_cast<size_t>(i)];
                   const size_t c = per_channel && xs.size() > 1 ? static_cast<size_t>(ix[1]) : 0;
                   return std::vector<double>{g.at(map_index(ix, gsh)).as_double(), x.at(ix).as_double(), wv[c]};
                 });
      const std::vector<double> gwv = logical(gw);
      for (size_t c = 0; c < sums.size(); ++c) {
        const double tol = 1e-5 * abs_sums[c] + (dt == F32 ? 1e-6 : dt == F16 ? 1e-3 : 8e-3) * std::fabs(sums[c]) + 1e-6;
        EXPECT_NEAR(gwv[c], sums[c], tol) << r << " gradWeight[" << c << "]";
      }
    }
}

// RReluWithNoise: eval is a leaky relu with slope (lower + upper) / 2; training draws noise in
// [lower, upper] where self < 0 (1 elsewhere), out = self * noise, reproducible for (seed, offset).
TEST(NnPointwise, RReluWithNoise) {
  Rng rng(5);
  for (aclDataType dt : kF3)
    for (bool training : {false, true}) {
      Tensor x(random_layout(dt, {3, 5}, rng)), noise(TensorDesc(dt, {3, 5})), out(TensorDesc(dt, {3, 5}));
      Tensor noise2(TensorDesc(dt, {3, 5})), out2(TensorDesc(dt, {3, 5}));
      fill_uniform(x, rng, -3, 3, 0.05);
      fill_uniform(noise, rng, 7, 8);
      fill_uniform(noise2, rng, 7, 8);
      ScalarHolder lo(ScalarDesc(F32, 0.1)), hi(ScalarDesc(F32, 0.3));
      const std::string r = std::string("RReluWithNoise ") + dtype_name(dt) + " training=" + std::to_string(training);
      run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnRReluWithNoiseGetWorkspaceSize(x.get(), noise.get(), lo.s, hi.s, training, 42, 7, out.get(), w, e);
      }, aclnnRReluWithNoise);
      run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnRReluWithNoiseGetWorkspaceSize(x.get(), noise2.get(), lo.s, hi.s, training, 42, 7, out2.get(), w, e);
      }, aclnnRReluWithNoise);
      out.download();
      noise.download();
      out2.download();
      noise2.download();
      const std::vector<double> xv = logical(x), ov = logical(out), nv = logical(noise), o2 = logical(out2);
      const double slope = (static_cast<double>(0.1f) + static_cast<double>(0.3f)) / 2;
      for (size_t i = 0; i < xv.size(); ++i) {
        if (!training) {
          const double want = cast(Num::real(xv[i] > 0 ? xv[i] : xv[i] * slope), dt).f;
          if (std::isnan(want)) EXPECT_TRUE(std::isnan(ov[i])) << r;
          else if (std::isinf(want)) EXPECT_EQ(ov[i], want) << r;
          else EXPECT_NEAR(ov[i], want, std::fabs(want) * 1e-2 + 1e-6) << r << " at " << i;
          EXPECT_EQ(nv[i], 7.0 <= nv[i] && nv[i] <= 8.0 ? nv[i] : -1.0) << r << ": noise must be untouched";
          continue;
        }
        if (xv[i] < 0) {
          EXPECT_TRUE(nv[i] >= 0.0999 && nv[i] <= 0.3001) << r << " noise " << nv[i];
        } else {
          EXPECT_EQ(nv[i], 1.0) << r;
        }
        const double want = cast(Num::real(xv[i] * nv[i]), dt).f;
        if (std::isnan(want)) EXPECT_TRUE(std::isnan(ov[i])) << r;
        else if (std::isinf(want)) EXPECT_EQ(ov[i], want) << r;
        else EXPECT_NEAR(ov[i], want, std::fabs(want) * 1e-2) << r << " at " << i;
        EXPECT_TRUE(ov[i] == o2[i] || (std::isnan(ov[i]) && std::isnan(o2[i]))) << r << ": not reproducible";
      }
    }
}

// ---- bad inputs ---------------------------------------------------------------------------------------------

TEST(NnPointwise, Errors) {
  Tensor f(TensorDesc(F32, {2, 3})), h(TensorDesc(F16, {2, 3})), i32(TensorDesc(I32, {2, 3}));
  Tensor f23b(TensorDesc(F32, {4, 3})), f3(TensorDesc(F32, {3})), d(TensorDesc(F64, {2, 3}));
  Tensor big(TensorDesc(F32, {1, 1, 1, 1, 1, 1, 1, 1, 2})), w2(TensorDesc(F32, {2}));
  ScalarHolder one(ScalarDesc(F32, 1.0)), neg(ScalarDesc(F32, -1.0)), c64(ScalarDesc(ACL_BOOL, 1));
  auto p = [](auto fn) { return Phase1Fn(fn); };
  expect_phase1_error("Erfinv out int32", ACLNN_ERR_PARAM_INVALID, "out dtype int32",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnErfinvGetWorkspaceSize(f.get(), i32.get(), w, e); }));
  expect_phase1_error("Erfinv self null", ACLNN_ERR_PARAM_NULLPTR, "self",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnErfinvGetWorkspaceSize(nullptr, f.get(), w, e); }));
  expect_phase1_error("InplaceErfinv int32", ACLNN_ERR_PARAM_INVALID, "selfRef dtype int32",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceErfinvGetWorkspaceSize(i32.get(), w, e); }));
  expect_phase1_error("Erfinv shape", ACLNN_ERR_PARAM_INVALID, "out has shape [4, 3]",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnErfinvGetWorkspaceSize(f.get(), f23b.get(), w, e); }));
  expect_phase1_error("FastGelu out f16", ACLNN_ERR_PARAM_INVALID, "out dtype float16 must equal self dtype float32",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnFastGeluGetWorkspaceSize(f.get(), h.get(), w, e); }));
  expect_phase1_error("FastGelu 9 dims", ACLNN_ERR_PARAM_INVALID, "9 dims",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnFastGeluGetWorkspaceSize(big.get(), big.get(), w, e); }));
  expect_phase1_error("Shrink lambd<0", ACLNN_ERR_PARAM_INVALID, "lambd must be greater than or equal to 0",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnShrinkGetWorkspaceSize(f.get(), neg.s, one.s, f.get(), w, e); }));
  expect_phase1_error("Shrink float64", ACLNN_ERR_PARAM_INVALID, "self dtype float64",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnShrinkGetWorkspaceSize(d.get(), one.s, one.s, d.get(), w, e); }));
  expect_phase1_error("Heaviside broadcast", ACLNN_ERR_PARAM_INVALID, "does not broadcast",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnHeavisideGetWorkspaceSize(f.get(), w2.get(), f.get(), w, e); }));
  expect_phase1_error("AddRelu float alpha, int tensors", ACLNN_ERR_PARAM_INVALID, "alpha dtype float32 cannot be cast",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnAddReluGetWorkspaceSize(i32.get(), i32.get(), one.s, i32.get(), w, e); }));
  expect_phase1_error("InplaceAddRelu broadcast self", ACLNN_ERR_PARAM_INVALID, "cannot be broadcast",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceAddReluGetWorkspaceSize(f3.get(), f.get(), one.s, w, e); }));
  expect_phase1_error("Prelu weight size", ACLNN_ERR_PARAM_INVALID, "weight has 2 elements",
                      p([&](uint64_t* w, aclOpExecutor** e) { return aclnnPreluGetWorkspaceSize(f.get(), w2.get(), f.get(), w, e); }));
  expect_phase1_error("EluBackward isResult alpha<0", ACLNN_ERR_PARAM_INVALID, "alpha -1 must not be negative",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnEluBackwardGetWorkspaceSize(f.get(), neg.s, one.s, one.s, true, f.get(), f.get(), w, e);
                      }));
  expect_phase1_error("EluBackward dtype", ACLNN_ERR_PARAM_INVALID, "selfOrResult dtype float16 must equal gradOutput",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnEluBackwardGetWorkspaceSize(f.get(), one.s, one.s, one.s, false, h.get(), f.get(), w, e);
                      }));
  expect_phase1_error("GeluBackwardV2 approximate", ACLNN_ERR_PARAM_INVALID, "approximate is \"fast\"",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        char bad[] = "fast";
                        return aclnnGeluBackwardV2GetWorkspaceSize(f.get(), f.get(), bad, f.get(), w, e);
                      }));
  expect_phase1_error("GeluBackwardV2 approximate null", ACLNN_ERR_PARAM_NULLPTR, "approximate",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnGeluBackwardV2GetWorkspaceSize(f.get(), f.get(), nullptr, f.get(), w, e);
                      }));
  expect_phase1_error("GeluBackwardV2 out dtype", ACLNN_ERR_PARAM_INVALID, "gradInput dtype float16 must equal the promoted",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        char none[] = "none";
                        return aclnnGeluBackwardV2GetWorkspaceSize(f.get(), f.get(), none, h.get(), w, e);
                      }));
  expect_phase1_error("HardswishBackwardV2 shapes", ACLNN_ERR_PARAM_INVALID, "self has shape [4, 3]",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnHardswishBackwardV2GetWorkspaceSize(f.get(), f23b.get(), f.get(), w, e);
                      }));
  expect_phase1_error("HardtanhBackward min null", ACLNN_ERR_PARAM_NULLPTR, "min",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnHardtanhBackwardGetWorkspaceSize(f.get(), f.get(), nullptr, one.s, f.get(), w, e);
                      }));
  expect_phase1_error("HardsigmoidBackward promote cast", ACLNN_ERR_PARAM_INVALID, "out dtype int32",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnHardsigmoidBackwardGetWorkspaceSize(f.get(), f.get(), i32.get(), w, e);
                      }));
  expect_phase1_error("SoftshrinkBackward lambd<0", ACLNN_ERR_PARAM_INVALID, "lambd must be greater",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnSoftshrinkBackwardGetWorkspaceSize(f.get(), f.get(), neg.s, f.get(), w, e);
                      }));
  expect_phase1_error("LogSigmoidBackward buffer null", ACLNN_ERR_PARAM_NULLPTR, "buffer",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnLogSigmoidBackwardGetWorkspaceSize(f.get(), f.get(), nullptr, f.get(), w, e);
                      }));
  expect_phase1_error("SeluBackward int64", ACLNN_ERR_PARAM_INVALID, "gradOutput dtype int64",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        Tensor i64(TensorDesc(I64, {2, 3}));
                        return aclnnSeluBackwardGetWorkspaceSize(i64.get(), i64.get(), i64.get(), w, e);
                      }));
  expect_phase1_error("SoftplusBackward shapes", ACLNN_ERR_PARAM_INVALID, "self has shape [3]",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnSoftplusBackwardGetWorkspaceSize(f.get(), f3.get(), one.s, one.s, f.get(), w, e);
                      }));
  expect_phase1_error("SwishBackward gradInput dtype", ACLNN_ERR_PARAM_INVALID, "gradInput dtype float16 must equal",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnSwishBackwardGetWorkspaceSize(f.get(), f.get(), nullptr, h.get(), w, e);
                      }));
  expect_phase1_error("PreluBackward weight", ACLNN_ERR_PARAM_INVALID, "weight has 2 elements",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnPreluBackwardGetWorkspaceSize(f.get(), f.get(), w2.get(), f.get(), w2.get(), w, e);
                      }));
  expect_phase1_error("RReluWithNoise small noise", ACLNN_ERR_PARAM_INVALID, "noise has 2 elements",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnRReluWithNoiseGetWorkspaceSize(f.get(), w2.get(), one.s, one.s, true, 0, 0, f.get(), w, e);
                      }));
  expect_phase1_error("RReluWithNoise bool lower", ACLNN_ERR_PARAM_INVALID, "lower dtype bool",
                      p([&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnRReluWithNoiseGetWorkspaceSize(f.get(), f.get(), c64.s, one.s, true, 0, 0, f.get(), w, e);
                      }));
}

}  // namespace
