// Tests of the nn family's activation ops through the public aclnn API.
//
// Gated linear units (Glu, SwiGlu, GeGlu, SituGlu, GeluMul, FatreluMul, ClippedSwiglu, SwigluGroup
// and their gradients): x is seen as rows [pre, cut] (pre: the dims before the split dim, cut: the
// split dim and every dim after it, in row-major order), split into A and B of width h = cut / 2:
// front/back (A = row[0, h), B = row[h, cut), the same as halving the split dim) or interleaved
// (A = row[0::2], B = row[1::2]). The reference evaluates each op's CANN formula in double on the
// stored input values; accuracy as in nn_test_util.h.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

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
#include "nn_test_util.h"

namespace {

using namespace nntest;

// ---- double references ---------------------------------------------------------------------------------

double sigm(double z) {
  if (z >= 0) return 1 / (1 + std::exp(-z));
  const double e = std::exp(z);
  return e / (1 + e);
}
double silu(double x) { return x * sigm(x); }
double gelu_tanh(double x) { return x * sigm(2 * std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)); }
double gelu_erf(double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }
double gelu(double x, bool t) { return t ? gelu_tanh(x) : gelu_erf(x); }
// Derivatives, finite at +-inf (the x * density term is 0 there).
double gelu_grad(double x, bool t) {
  if (std::isinf(x)) return x > 0 ? 1 : 0;
  if (!t) return 0.5 * std::erfc(-x / std::sqrt(2.0)) + x * std::exp(-0.5 * x * x) / std::sqrt(2 * M_PI);
  const double k = std::sqrt(2 / M_PI), u = k * (x + 0.044715 * x * x * x);
  const double s = sigm(2 * u);
  return s + x * 2 * s * sigm(-2 * u) * k * (1 + 3 * 0.044715 * x * x);
}
double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }
double mind(double x, double hi) { return x > hi ? hi : x; }

// ---- the split and its reference ------------------------------------------------------------------------

struct Rows {
  int64_t pre = 1, cut = 1;
  int64_t h() const { return cut / 2; }
};
Rows rows_of(const Shape& x, int64_t dim) {
  Rows r;
  const int64_t rank = static_cast<int64_t>(x.size());
  const int64_t d = dim < 0 ? dim + rank : dim;
  for (int64_t i = 0; i < rank; ++i) (i < d ? r.pre : r.cut) *= x[static_cast<size_t>(i)];
  return r;
}
Shape halved(Shape s, int64_t dim) {
  const int64_t d = dim < 0 ? dim + static_cast<int64_t>(s.size()) : dim;
  s[static_cast<size_t>(d)] /= 2;
  return s;
}
// Flat (logical) indices of A[p, j] and B[p, j] in x.
std::pair<int64_t, int64_t> ab_index(const Rows& r, int64_t p, int64_t j, bool interleaved) {
  if (interleaved) return {p * r.cut + 2 * j, p * r.cut + 2 * j + 1};
  return {p * r.cut + j, p * r.cut + r.h() + j};
}

using Attrs = std::vector<double>;

// One gated op. Forward: outputs[k] = refs[k](a, b) over [pre, h]. Backward (grad): the output has
// x's shape; its A part is refs[0](g, a, b), its B part refs[1](g, a, b).
struct GluOp {
  std::string name;
  DTypes dtypes;
  bool grad = false;
  bool interleaved = false;
  bool last_dim = false;  // the split dim is always the last one (dim is not an argument)
  int outputs = 1;        // forward outputs
  Tol tol{4, 8};
  std::vector<std::function<double(const Attrs&, const std::vector<double>&)>> refs;
  Attrs attrs;
  std::string attr_str;
  // phase 1 with (x, g or null, dim, outs)
  std::function<aclnnStatus(aclTensor*, aclTensor*, int64_t, const std::vector<aclTensor*>&, uint64_t*,
                            aclOpExecutor**)>
      p1;
  Phase2Fn p2;
};

void check_glu(const GluOp& op, aclDataType dt, const Shape& xs, int64_t dim, uint64_t seed) {
  Rng rng(seed);
  const Rows r = rows_of(xs, dim);
  const Shape hs = halved(xs, dim);
  Tensor x(random_layout(dt, xs, rng));
  fill_uniform(x, rng, -6, 6, 0.03);
  std::unique_ptr<Tensor> g;
  if (op.grad) {
    g = std::make_unique<Tensor>(random_layout(dt, hs, rng));
    fill_uniform(*g, rng, -3, 3, 0.03);
  }
  std::vector<std::unique_ptr<Tensor>> outs;
  std::vector<aclTensor*> out_ptrs;
  const int n_out = op.grad ? 1 : op.outputs;
  for (int k = 0; k < n_out; ++k) {
    outs.push_back(std::make_unique<Tensor>(random_layout(dt, op.grad ? xs : hs, rng)));
    fill_uniform(*outs.back(), rng, -1, 1);
    out_ptrs.push_back(outs.back()->get());
  }
  std::string repro = op.name + op.attr_str + " x=" + x.desc().str() + " dim=" + std::to_string(dim);
  if (g) repro += " grad=" + g->desc().str();
  for (auto& o : outs) repro += " out=" + o->desc().str();
  repro += " seed=" + std::to_string(seed);
  std::vector<Guard> guards;
  for (auto& o : outs) guards.emplace_back(*o);
  run_ok(repro, [&](uint64_t* w, aclOpExecutor** e) { return op.p1(x.get(), g ? g->get() : nullptr, dim, out_ptrs, w, e); },
         op.p2);
  const std::vector<double> xv = logical(x);
  const std::vector<double> gv = g ? logical(*g) : std::vector<double>{};
  for (size_t k = 0; k < outs.size(); ++k) {
    outs[k]->download();
    guards[k].check(repro);
    if (op.grad) {
      expect_all(repro, *outs[k], dt, op.tol,
                 [&](const std::vector<double>& in) { return op.refs[in[3] > 0.5 ? 1 : 0](op.attrs, in); },
                 [&](int64_t i) {
                   const int64_t p = i / r.cut, c = i % r.cut;
                   int64_t j;
                   bool is_b;
                   if (op.interleaved) {
                     j = c / 2;
                     is_b = c % 2 == 1;
                   } else {
                     j = c % r.h();
                     is_b = c >= r.h();
                   }
                   const auto [ia, ib] = ab_index(r, p, j, op.interleaved);
                   // the 4th entry selects the part; it is 0 or 1 and unchanged by the perturbation
                   return std::vector<double>{gv[static_cast<size_t>(p * r.h() + j)], xv[static_cast<size_t>(ia)],
                                              xv[static_cast<size_t>(ib)], is_b ? 1.0 : 0.0};
                 });
    } else {
      expect_all(repro, *outs[k], dt, op.tol, [&](const std::vector<double>& in) { return op.refs[k](op.attrs, in); },
                 [&](int64_t i) {
                   const auto [ia, ib] = ab_index(r, i / r.h(), i % r.h(), op.interleaved);
                   return std::vector<double>{xv[static_cast<size_t>(ia)], xv[static_cast<size_t>(ib)]};
                 });
    }
  }
}

#define GP1(expr)                                                                                           \
  [=](aclTensor * x, aclTensor * g, int64_t dim, const std::vector<aclTensor*>& o, uint64_t* w,               \
      aclOpExecutor** e) {                                                                                  \
    (void)g;                                                                                                \
    (void)dim;                                                                                              \
    return expr;                                                                                            \
  }
#define REF(expr) [](const Attrs& at, const std::vector<double>& v) { (void)at; return expr; }

std::vector<GluOp> glu_ops() {
  std::vector<GluOp> ops;
  ops.push_back({"Glu", kF4, false, false, false, 1, {4, 4}, {REF(v[0] * sigm(v[1]))}, {}, "",
               GP1(aclnnGluGetWorkspaceSize(x, dim, o[0], w, e)), aclnnGlu});
  ops.push_back({"GluBackward", kF4, true, false, false, 1, {4, 6},
               {REF(v[0] * sigm(v[2])), REF(v[0] * v[1] * sigm(v[2]) * sigm(-v[2]))}, {}, "",
               GP1(aclnnGluBackwardGetWorkspaceSize(g, x, dim, o[0], w, e)), aclnnGluBackward});
  ops.push_back({"SwiGlu", kF3, false, false, false, 1, {4, 6}, {REF(silu(v[0]) * v[1])}, {}, "",
               GP1(aclnnSwiGluGetWorkspaceSize(x, dim, o[0], w, e)), aclnnSwiGlu});
  ops.push_back({"SwiGluGrad", kF3, true, false, false, 1, {4, 8},
               {REF(v[0] * v[2] * sigm(v[1]) * (1 + v[1] * sigm(-v[1]))), REF(v[0] * silu(v[1]))}, {}, "",
               GP1(aclnnSwiGluGradGetWorkspaceSize(g, x, dim, o[0], w, e)), aclnnSwiGluGrad});
  for (int approx : {0, 1})
    for (int left : {-1, 0, 1}) {  // -1: GeGlu (V1), else GeGluV3 with activateLeft
      const bool t = approx == 1, l = left == 1;
      const std::string a = " approximate=" + std::to_string(approx) + (left >= 0 ? " activateLeft=" + std::to_string(left) : "");
      GluOp f{left < 0 ? "GeGlu" : "GeGluV3", kF3, false, false, false, 2, {8, 16},
              {[t, l](const Attrs&, const std::vector<double>& x) { return l ? gelu(x[0], t) * x[1] : x[0] * gelu(x[1], t); },
               [t, l](const Attrs&, const std::vector<double>& x) { return gelu(l ? x[0] : x[1], t); }},
              {}, a, nullptr, left < 0 ? aclnnGeGlu : aclnnGeGluV3};
      if (left < 0) f.p1 = GP1(aclnnGeGluGetWorkspaceSize(x, dim, approx, o[0], o[1], w, e));
      else f.p1 = GP1(aclnnGeGluV3GetWorkspaceSize(x, dim, approx, l, o[0], o[1], w, e));
      ops.push_back(f);
    }
  for (double beta : {1.0, 0.5})
    for (double lb : {-1.0, 2.0})
      for (bool left : {true, false}) {
        const std::string a = " beta=" + std::to_string(beta) + " linearBeta=" + std::to_string(lb) +
                              " activateLeft=" + std::to_string(left);
        auto gate_up = [left](const std::vector<double>& x, size_t a0) {
          return left ? std::make_pair(x[a0], x[a0 + 1]) : std::make_pair(x[a0 + 1], x[a0]);
        };
        auto fwd = [beta, lb](double gate, double up) {
          return beta * std::tanh(gate / beta) * sigm(gate) * (lb > 0 ? lb * std::tanh(up / lb) : up);
        };
        GluOp f{"SituGlu", kF3, false, false, false, 1, {8, 16},
                {[=](const Attrs&, const std::vector<double>& x) {
                  const auto [gt, up] = gate_up(x, 0);
                  return fwd(gt, up);
                }},
                {}, a, GP1(aclnnSituGluGetWorkspaceSize(x, dim, beta, lb, left, o[0], w, e)), aclnnSituGlu};
        ops.push_back(f);
        auto d_gate = [=](double gr, double gt, double up) {
          const double t = std::tanh(gt / beta), s = sigm(gt);
          const double up2 = lb > 0 ? lb * std::tanh(up / lb) : up;
          return gr * up2 * s * ((1 - t * t) + beta * t * (1 - s));
        };
        auto d_up = [=](double gr, double gt, double up) {
          const double sa = beta * std::tanh(gt / beta) * sigm(gt);
          if (!(lb > 0)) return gr * sa;
          const double t = std::tanh(up / lb);
          return gr * sa * (1 - t * t);
        };
        // refs[0]: the A part of the output, refs[1]: the B part.
        GluOp gr{"SituGluGrad", kF3, true, false, false, 1, {8, 16},
                 {[=](const Attrs&, const std::vector<double>& x) {
                    return left ? d_gate(x[0], x[1], x[2]) : d_up(x[0], x[2], x[1]);
                  },
                  [=](const Attrs&, const std::vector<double>& x) {
                    return left ? d_up(x[0], x[1], x[2]) : d_gate(x[0], x[2], x[1]);
                  }},
                 {}, a, GP1(aclnnSituGluGradGetWorkspaceSize(g, x, dim, beta, lb, left, o[0], w, e)), aclnnSituGluGrad};
        ops.push_back(gr);
      }
  for (const char* approx : {"none", "tanh"}) {
    const bool t = approx[0] == 't';
    GluOp f{"GeluMul", kF3, false, false, true, 1, {8, 16},
            {[t](const Attrs&, const std::vector<double>& x) { return gelu(x[0], t) * x[1]; }}, {},
            std::string(" approximate=") + approx, nullptr, aclnnGeluMul};
    f.p1 = [approx](aclTensor* x, aclTensor*, int64_t, const std::vector<aclTensor*>& o, uint64_t* w,
                    aclOpExecutor** e) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "%s", approx);
      return aclnnGeluMulGetWorkspaceSize(x, buf, o[0], w, e);
    };
    ops.push_back(f);
  }
  for (int mode : {0, 1})
    for (bool il : {false, true}) {
      const double alpha = 1.702, limit = 2.5, bias = 0.75;
      const std::string a = " alpha=1.702 limit=2.5 bias=0.75 interleaved=" + std::to_string(il) +
                            (mode ? " clampMode=1" : "");
      GluOp f{mode ? "ClippedSwigluV2" : "ClippedSwiglu", kF3, false, il, false, 1, {4, 8},
              {[=](const Attrs&, const std::vector<double>& x) {
                const double bc = clampd(x[1], -limit, limit);
                if (mode == 1) return mind(silu(x[0]), limit) * bc;
                const double ac = mind(x[0], limit);
                return ac * sigm(alpha * ac) * (bc + bias);
              }},
              {}, a, nullptr, mode ? aclnnClippedSwigluV2 : aclnnClippedSwiglu};
      if (mode) f.p1 = GP1(aclnnClippedSwigluV2GetWorkspaceSize(x, nullptr, dim, alpha, limit, bias, il, 1, o[0], w, e));
      else f.p1 = GP1(aclnnClippedSwigluGetWorkspaceSize(x, nullptr, dim, alpha, limit, bias, il, o[0], w, e));
      ops.push_back(f);
      if (mode) continue;
      GluOp gr{"ClippedSwigluGrad", kF3, true, il, false, 1, {4, 8},
               {[=](const Attrs&, const std::vector<double>& x) {
                  const double ac = mind(x[1], limit), bc = clampd(x[2], -limit, limit), s = sigm(alpha * ac);
                  return x[0] * (bc + bias) * s * (1 + alpha * ac * (1 - s)) * (x[1] <= limit ? 1.0 : 0.0);
                },
                [=](const Attrs&, const std::vector<double>& x) {
                  const double ac = mind(x[1], limit);
                  return x[0] * ac * sigm(alpha * ac) * (x[2] >= -limit && x[2] <= limit ? 1.0 : 0.0);
                }},
               {}, a,
               GP1(aclnnClippedSwigluGradGetWorkspaceSize(g, x, nullptr, dim, alpha, limit, bias, il, o[0], w, e)),
               aclnnClippedSwigluGrad};
      ops.push_back(gr);
    }
  for (double cl : {-1.0, 1.5}) {
    GluOp f{"SwigluGroup", kF3, false, false, true, 1, {4, 8},
            {[cl](const Attrs&, const std::vector<double>& x) {
              double a = x[0], b = x[1];
              if (cl > 0) {
                a = mind(a, cl);
                b = clampd(b, -cl, cl);
              }
              return silu(a) * b;
            }},
            {}, " clampLimit=" + std::to_string(cl),
            GP1(aclnnSwigluGroupGetWorkspaceSize(x, nullptr, nullptr, cl, o[0], w, e)), aclnnSwigluGroup};
    ops.push_back(f);
  }
  return ops;
}

TEST(NnGlu, Values) {
  uint64_t seed = 1000;
  for (const GluOp& op : glu_ops()) {
    for (aclDataType dt : op.dtypes) {
      for (int rep = 0; rep < 4; ++rep) {
        Rng rng(++seed);
        Shape xs = random_shape(rng, op.last_dim ? 2 : 1, 4);
        const int64_t rank = static_cast<int64_t>(xs.size());
        int64_t dim = op.last_dim ? -1 : static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * rank)) - rank;
        const int64_t d = dim < 0 ? dim + rank : dim;
        xs[static_cast<size_t>(d)] = 2 * (1 + static_cast<int64_t>(rng() % 4));
        check_glu(op, dt, xs, dim, seed);
      }
    }
  }
}

// Size-1 dims, a long row that crosses the engine's chunk size, and an empty tensor.
TEST(NnGlu, Shapes) {
  uint64_t seed = 5000;
  for (const GluOp& op : glu_ops()) {
    const aclDataType dt = op.dtypes[0];
    if (!op.last_dim) {
      check_glu(op, dt, {1, 2, 1}, 1, ++seed);
      check_glu(op, dt, {2}, 0, ++seed);
    }
    check_glu(op, dt, {2, 1040}, -1, ++seed);
    check_glu(op, dt, {0, 4}, -1, ++seed);
  }
}

// Special values through the halves: NaN propagates; Glu(inf, -inf) = inf * 0 is NaN, Glu(a, inf) = a.
TEST(NnGlu, SpecialValues) {
  Tensor x(TensorDesc(F32, {1, 8})), out(TensorDesc(F32, {1, 4}));
  const double in[8] = {nan_v(), 1.0, inf_v(), -2.0, 1.0, nan_v(), -inf_v(), inf_v()};
  for (int i = 0; i < 8; ++i) x.set({0, i}, Num::real(in[i]));
  x.upload();
  run_ok("Glu specials", [&](uint64_t* w, aclOpExecutor** e) { return aclnnGluGetWorkspaceSize(x.get(), 1, out.get(), w, e); },
         aclnnGlu);
  out.download();
  EXPECT_TRUE(std::isnan(out.at({0, 0}).f));
  EXPECT_TRUE(std::isnan(out.at({0, 1}).f));
  EXPECT_TRUE(std::isnan(out.at({0, 2}).f));  // inf * sigmoid(-inf) = inf * 0
  EXPECT_EQ(out.at({0, 3}).f, -2.0);
}

// ClippedSwiglu / ClippedSwigluGrad / SwigluGroup with a group count: rows past the sum are 0;
// SwigluGroup with a per-token weight.
TEST(NnGlu, GroupIndexAndWeight) {
  Rng rng(77);
  for (int64_t count : {0, 2, 5, 100}) {
    Tensor x(TensorDesc(F32, {2, 3, 8})), out(TensorDesc(F32, {2, 3, 4})), gx(TensorDesc(F32, {2, 3, 8}));
    Tensor gy(TensorDesc(F32, {2, 3, 4})), gi(TensorDesc(I64, {2})), wt(TensorDesc(F32, {6}));
    fill_uniform(x, rng, -4, 4);
    fill_uniform(gy, rng, -2, 2);
    fill_uniform(wt, rng, 0, 2);
    fill_uniform(out, rng, 5, 6);
    fill_uniform(gx, rng, 5, 6);
    gi.set({0}, Num::integer(count / 2));
    gi.set({1}, Num::integer(count - count / 2));
    gi.upload();
    const std::string r = "ClippedSwiglu groupIndex sum=" + std::to_string(count);
    run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnClippedSwigluGetWorkspaceSize(x.get(), gi.get(), -1, 1.0, 3.0, 0.5, false, out.get(), w, e);
    }, aclnnClippedSwiglu);
    out.download();
    const std::vector<double> xv = logical(x), ov = logical(out);
    for (int64_t row = 0; row < 6; ++row)
      for (int64_t j = 0; j < 4; ++j) {
        const double a = mind(xv[static_cast<size_t>(row * 8 + j)], 3.0);
        const double b = clampd(xv[static_cast<size_t>(row * 8 + 4 + j)], -3.0, 3.0);
        const double want = row < count ? a * sigm(a) * (b + 0.5) : 0.0;
        EXPECT_NEAR(ov[static_cast<size_t>(row * 4 + j)], want, 1e-5 * (1 + std::fabs(want))) << r << " row " << row;
      }
    run_ok(r + " grad", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnClippedSwigluGradGetWorkspaceSize(gy.get(), x.get(), gi.get(), -1, 1.0, 3.0, 0.5, false, gx.get(), w, e);
    }, aclnnClippedSwigluGrad);
    gx.download();
    const std::vector<double> gxv = logical(gx);
    for (int64_t row = count; row < 6; ++row)
      for (int64_t j = 0; j < 8; ++j) EXPECT_EQ(gxv[static_cast<size_t>(row * 8 + j)], 0.0) << r << " grad row " << row;
    run_ok("SwigluGroup weight", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnSwigluGroupGetWorkspaceSize(x.get(), wt.get(), gi.get(), -1.0, out.get(), w, e);
    }, aclnnSwigluGroup);
    out.download();
    const std::vector<double> wv = logical(wt), sv = logical(out);
    for (int64_t row = 0; row < 6; ++row)
      for (int64_t j = 0; j < 4; ++j) {
        const double a = xv[static_cast<size_t>(row * 8 + j)], b = xv[static_cast<size_t>(row * 8 + 4 + j)];
        const double want = row < count ? silu(a) * b * wv[static_cast<size_t>(row)] : 0.0;
        EXPECT_NEAR(sv[static_cast<size_t>(row * 4 + j)], want, 1e-5 * (1 + std::fabs(want))) << "SwigluGroup row " << row;
      }
  }
}

TEST(NnGlu, FatreluMul) {
  uint64_t seed = 9000;
  for (aclDataType dt : kF3)
    for (double th : {0.0, -1.5, 2.0}) {
      Rng rng(++seed);
      Shape xs = random_shape(rng, 2, 4);
      xs.back() = 2 * (1 + static_cast<int64_t>(rng() % 4));
      const Shape hs = halved(xs, -1);
      Tensor x(random_layout(dt, xs, rng)), t(TensorDesc(dt, {1})), out(random_layout(dt, hs, rng));
      fill_uniform(x, rng, -4, 4, 0.03);
      t.set({0}, Num::real(th));
      t.upload();
      fill_uniform(out, rng, -1, 1);
      Guard guard(out);
      const std::string r = "FatreluMul x=" + x.desc().str() + " threshold=" + std::to_string(th) + " out=" + out.desc().str();
      run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnFatreluMulGetWorkspaceSize(x.get(), t.get(), out.get(), w, e); },
             aclnnFatreluMul);
      out.download();
      guard.check(r);
      const Rows rw = rows_of(xs, -1);
      const std::vector<double> xv = logical(x);
      const double tq = cast(Num::real(th), dt).f;
      expect_all(r, out, dt, {0, 1}, [tq](const std::vector<double>& v) { return (v[0] < tq ? 0.0 : v[0]) * v[1]; },
                 [&](int64_t i) {
                   const auto [ia, ib] = ab_index(rw, i / rw.h(), i % rw.h(), false);
                   return std::vector<double>{xv[static_cast<size_t>(ia)], xv[static_cast<size_t>(ib)]};
                 });
    }
}

// GeGluBackward / GeGluV3Backward: the other half's gradient is g * gelu (the given forward output),
// the activated half's g * other * gelu'(activated).
TEST(NnGlu, GeGluBackward) {
  uint64_t seed = 7000;
  for (aclDataType dt : kF3)
    for (int approx : {0, 1})
      for (int left : {-1, 0, 1}) {
        Rng rng(++seed);
        Shape xs = random_shape(rng, 1, 4);
        const int64_t rank = static_cast<int64_t>(xs.size());
        const int64_t dim = static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * rank)) - rank;
        xs[static_cast<size_t>(dim < 0 ? dim + rank : dim)] = 2 * (1 + static_cast<int64_t>(rng() % 3));
        const Shape hs = halved(xs, dim);
        Tensor x(random_layout(dt, xs, rng)), g(random_layout(dt, hs, rng)), ge(random_layout(dt, hs, rng));
        Tensor out(random_layout(dt, xs, rng));
        fill_uniform(x, rng, -5, 5, 0.02);
        fill_uniform(g, rng, -2, 2, 0.02);
        fill_uniform(ge, rng, -3, 3);
        fill_uniform(out, rng, -1, 1);
        Guard guard(out);
        const std::string r = std::string(left < 0 ? "GeGluBackward" : "GeGluV3Backward") + " approximate=" +
                              std::to_string(approx) + " activateLeft=" + std::to_string(left) + " self=" +
                              x.desc().str() + " dim=" + std::to_string(dim) + " grad=" + g.desc().str() +
                              " gelu=" + ge.desc().str() + " out=" + out.desc().str();
        if (left < 0)
          run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnGeGluBackwardGetWorkspaceSize(g.get(), x.get(), ge.get(), dim, approx, out.get(), w, e);
          }, aclnnGeGluBackward);
        else
          run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnGeGluV3BackwardGetWorkspaceSize(g.get(), x.get(), ge.get(), dim, approx, left == 1, out.get(), w, e);
          }, aclnnGeGluV3Backward);
        out.download();
        guard.check(r);
        const Rows rw = rows_of(xs, dim);
        const std::vector<double> xv = logical(x), gv = logical(g), gev = logical(ge);
        const bool t = approx == 1, act_left = left == 1;
        // inputs: (g, a, b, gelu, part)
        expect_all(r, out, dt, {8, 16},
                   [t, act_left](const std::vector<double>& v) {
                     const bool part_b = v[4] > 0.5;
                     const double act = act_left ? v[1] : v[2], other = act_left ? v[2] : v[1];
                     if (part_b != act_left) return v[0] * other * gelu_grad(act, t);
                     return v[0] * v[3];
                   },
                   [&](int64_t i) {
                     const int64_t p = i / rw.cut, c = i % rw.cut, j = c % rw.h();
                     const auto [ia, ib] = ab_index(rw, p, j, false);
                     const size_t gi = static_cast<size_t>(p * rw.h() + j);
                     return std::vector<double>{gv[gi], xv[static_cast<size_t>(ia)], xv[static_cast<size_t>(ib)],
                                                gev[gi], c >= rw.h() ? 1.0 : 0.0};
                   });
      }
}

// ---- bad inputs ---------------------------------------------------------------------------------------------

TEST(NnGlu, Errors) {
  Tensor x(TensorDesc(F32, {2, 6})), out(TensorDesc(F32, {2, 3})), odd(TensorDesc(F32, {2, 5}));
  Tensor o16(TensorDesc(F16, {2, 3})), i32(TensorDesc(I32, {2, 6})), scalar(TensorDesc(F32, {}));
  Tensor wrong(TensorDesc(F32, {2, 4})), full(TensorDesc(F32, {2, 6})), g(TensorDesc(F32, {2, 3}));
  Tensor big(TensorDesc(F32, {1, 1, 1, 1, 1, 1, 1, 1, 2})), gi2(TensorDesc(I64, {2, 1})), gi32(TensorDesc(I32, {2}));
  auto glu = [&](aclTensor* s, int64_t dim, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnGluGetWorkspaceSize(s, dim, o, w, e); };
  };
  expect_phase1_error("Glu self=null", ACLNN_ERR_PARAM_NULLPTR, "self", glu(nullptr, 1, out.get()));
  expect_phase1_error("Glu out=null", ACLNN_ERR_PARAM_NULLPTR, "out", glu(x.get(), 1, nullptr));
  expect_phase1_error("Glu self=int32", ACLNN_ERR_PARAM_INVALID, "self dtype int32", glu(i32.get(), 1, out.get()));
  expect_phase1_error("Glu dim=2", ACLNN_ERR_PARAM_INVALID, "dim is 2", glu(x.get(), 2, out.get()));
  expect_phase1_error("Glu dim=-3", ACLNN_ERR_PARAM_INVALID, "dim is -3", glu(x.get(), -3, out.get()));
  expect_phase1_error("Glu odd", ACLNN_ERR_PARAM_INVALID, "even", glu(odd.get(), 1, out.get()));
  expect_phase1_error("Glu 0-d", ACLNN_ERR_PARAM_INVALID, "0-d", glu(scalar.get(), 0, scalar.get()));
  expect_phase1_error("Glu out shape", ACLNN_ERR_PARAM_INVALID, "out has shape [2, 4]", glu(x.get(), 1, wrong.get()));
  expect_phase1_error("Glu 9 dims", ACLNN_ERR_PARAM_INVALID, "9 dims", glu(big.get(), -1, big.get()));
  expect_phase1_error("SwiGlu out f16", ACLNN_ERR_PARAM_INVALID, "out dtype float16 must equal x dtype float32",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnSwiGluGetWorkspaceSize(x.get(), -1, o16.get(), w, e); });
  expect_phase1_error("GluBackward grad shape", ACLNN_ERR_PARAM_INVALID, "gradOut has shape [2, 6]",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnGluBackwardGetWorkspaceSize(full.get(), x.get(), 1, full.get(), w, e);
                      });
  expect_phase1_error("GluBackward out shape", ACLNN_ERR_PARAM_INVALID, "out has shape [2, 3]",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnGluBackwardGetWorkspaceSize(g.get(), x.get(), 1, out.get(), w, e);
                      });
  expect_phase1_error("GluBackward grad f16", ACLNN_ERR_PARAM_INVALID, "gradOut dtype float16 must equal self",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnGluBackwardGetWorkspaceSize(o16.get(), x.get(), 1, full.get(), w, e);
                      });
  expect_phase1_error("GeGlu approximate=2", ACLNN_ERR_PARAM_INVALID, "approximate",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnGeGluGetWorkspaceSize(x.get(), -1, 2, out.get(), g.get(), w, e);
                      });
  expect_phase1_error("GeGlu outGelu null", ACLNN_ERR_PARAM_NULLPTR, "outGelu",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnGeGluGetWorkspaceSize(x.get(), -1, 0, out.get(), nullptr, w, e);
                      });
  expect_phase1_error("GeGluBackward gelu shape", ACLNN_ERR_PARAM_INVALID, "gelu has shape",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnGeGluBackwardGetWorkspaceSize(g.get(), x.get(), wrong.get(), -1, 0, full.get(), w, e);
                      });
  expect_phase1_error("GeluMul approximate", ACLNN_ERR_PARAM_INVALID, "approximateOptional",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        char bad[] = "fast";
                        return aclnnGeluMulGetWorkspaceSize(x.get(), bad, out.get(), w, e);
                      });
  expect_phase1_error("GeluMul 1-d", ACLNN_ERR_PARAM_INVALID, "expected 2 to 8",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        Tensor one(TensorDesc(F32, {4})), oh(TensorDesc(F32, {2}));
                        return aclnnGeluMulGetWorkspaceSize(one.get(), nullptr, oh.get(), w, e);
                      });
  expect_phase1_error("FatreluMul threshold 2 elements", ACLNN_ERR_PARAM_INVALID, "threshold has 2 elements",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        Tensor t2(TensorDesc(F32, {2}));
                        return aclnnFatreluMulGetWorkspaceSize(x.get(), t2.get(), out.get(), w, e);
                      });
  expect_phase1_error("ClippedSwiglu limit=0", ACLNN_ERR_PARAM_INVALID, "limit must be greater than 0",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnClippedSwigluGetWorkspaceSize(x.get(), nullptr, -1, 1.0, 0.0, 1.0, false, out.get(), w, e);
                      });
  expect_phase1_error("ClippedSwigluV2 clampMode=2", ACLNN_ERR_PARAM_INVALID, "clampMode",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnClippedSwigluV2GetWorkspaceSize(x.get(), nullptr, -1, 1.0, 7.0, 1.0, false, 2, out.get(), w, e);
                      });
  expect_phase1_error("ClippedSwiglu groupIndex 2-d", ACLNN_ERR_PARAM_INVALID, "groupIndexOptional has 2 dims",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnClippedSwigluGetWorkspaceSize(x.get(), gi2.get(), -1, 1.0, 7.0, 1.0, false, out.get(), w, e);
                      });
  expect_phase1_error("ClippedSwiglu groupIndex int32", ACLNN_ERR_PARAM_INVALID, "groupIndexOptional dtype int32",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnClippedSwigluGetWorkspaceSize(x.get(), gi32.get(), -1, 1.0, 7.0, 1.0, false, out.get(), w, e);
                      });
  expect_phase1_error("SwigluGroup clampLimit", ACLNN_ERR_PARAM_INVALID, "clampLimit",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnSwigluGroupGetWorkspaceSize(x.get(), nullptr, nullptr, 0.0, out.get(), w, e);
                      });
  expect_phase1_error("SwigluGroup weight count", ACLNN_ERR_PARAM_INVALID, "weightOptional has 3 elements",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        Tensor w3(TensorDesc(F32, {3}));
                        return aclnnSwigluGroupGetWorkspaceSize(x.get(), w3.get(), nullptr, -1.0, out.get(), w, e);
                      });
  expect_phase1_error("SituGluGrad gradY shape", ACLNN_ERR_PARAM_INVALID, "gradY has shape",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnSituGluGradGetWorkspaceSize(wrong.get(), x.get(), -1, 1.0, 1.0, true, full.get(), w, e);
                      });
}

}  // namespace
