// GroupNorm, GroupNormSilu(V2), GroupNormSwish, GroupNormBackward, GroupNormSwishGrad and
// InstanceNorm through the public C API, against double-precision loops over the host copies:
// per (sample n, group g) the Cg * HxW values of its channels give mean, var (biased) and
// rstd = 1 / sqrt(var + eps); y = (x - mean) * rstd * gamma[c] + beta[c], then y / (1 + exp(-s y))
// for the activated forms. Backward: dy' = dy (Swish: dy * swish'(y)), per group
// dx = rstd * (dy' g - (sum(dy' g) + xhat * sum(dy' g xhat)) / L); dgamma[c] = sum dy' xhat,
// dbeta[c] = sum dy' over n and the spatial positions.
#include <gtest/gtest.h>

#include <memory>
#include <optional>

#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_group_norm_backward.h"
#include "aclnnop/aclnn_group_norm_silu.h"
#include "aclnnop/aclnn_group_norm_swish.h"
#include "aclnnop/aclnn_group_norm_swish_grad.h"
#include "aclnnop/aclnn_instance_norm.h"
#include "norm_test_util.h"

namespace {

using namespace normtest;
using T = std::unique_ptr<Tensor>;
using Opt = std::optional<TensorDesc>;
aclTensor* get(const T& t) { return t ? t->get() : nullptr; }

T make(Rng& rng, const Opt& d, double lo, double hi) {
  if (!d) return nullptr;
  auto t = std::make_unique<Tensor>(*d);
  fill_uniform(*t, rng, lo, hi);
  return t;
}

const std::vector<aclDataType> kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

enum class Fwd { kGroupNorm, kSilu, kSiluV2, kSwish };
const char* fwd_name(Fwd f) {
  switch (f) {
    case Fwd::kGroupNorm: return "GroupNorm";
    case Fwd::kSilu: return "GroupNormSilu";
    case Fwd::kSiluV2: return "GroupNormSiluV2";
    default: return "GroupNormSwish";
  }
}

struct FwdCase {
  Fwd op;
  TensorDesc x;
  Opt gamma, beta;
  TensorDesc y, mean, rstd;
  int64_t group;
  double eps, scale;
  bool act;
  std::string str() const {
    std::string r = std::string(fwd_name(op)) + " x=" + x.str() + (gamma ? " gamma=" + gamma->str() : "") +
                    (beta ? " beta=" + beta->str() : "") + " y=" + y.str() + " mean=" + mean.str() +
                    " rstd=" + rstd.str() + " group=" + std::to_string(group);
    char buf[80];
    std::snprintf(buf, sizeof buf, " eps=%g scale=%g act=%d", eps, scale, act ? 1 : 0);
    return r + buf;
  }
};

void check_forward(Rng& rng, const FwdCase& c) {
  const std::string r = c.str();
  T x = make(rng, c.x, -3, 5), g = make(rng, c.gamma, -2, 2), b = make(rng, c.beta, -1, 1);
  T y = make(rng, c.y, -1, 1), m = make(rng, c.mean, -1, 1), rs = make(rng, c.rstd, -1, 1);
  const int64_t N = c.x.shape[0], C = c.x.shape[1], G = c.group;
  int64_t S = 1;
  for (size_t k = 2; k < c.x.shape.size(); ++k) S *= c.x.shape[k];
  auto p1 = [&](uint64_t* w, aclOpExecutor** e) -> aclnnStatus {
    char fmt[] = "NCHW";
    switch (c.op) {
      case Fwd::kGroupNorm:
        return aclnnGroupNormGetWorkspaceSize(x->get(), get(g), get(b), N, C, S, G, c.eps, y->get(), m->get(), rs->get(), w, e);
      case Fwd::kSilu:
        return aclnnGroupNormSiluGetWorkspaceSize(x->get(), get(g), get(b), G, c.eps, y->get(), m->get(), rs->get(), w, e);
      case Fwd::kSiluV2:
        return aclnnGroupNormSiluV2GetWorkspaceSize(x->get(), get(g), get(b), G, c.eps, c.act, y->get(), m->get(), rs->get(), w, e);
      default:
        return aclnnGroupNormSwishGetWorkspaceSize(x->get(), get(g), get(b), G, fmt, c.eps, c.act, c.scale, y->get(), m->get(),
                                                   rs->get(), w, e);
    }
  };
  Phase2Fn p2 = c.op == Fwd::kGroupNorm ? aclnnGroupNorm : c.op == Fwd::kSilu ? aclnnGroupNormSilu
                : c.op == Fwd::kSiluV2  ? aclnnGroupNormSiluV2 : aclnnGroupNormSwish;
  ASSERT_EQ(run_two_phase(p1, p2), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  const auto xv = dense_values(*x);
  const auto gv = g ? dense_values(*g) : std::vector<double>(static_cast<size_t>(C), 1.0);
  const auto bv = b ? dense_values(*b) : std::vector<double>(static_cast<size_t>(C), 0.0);
  const int64_t L = C / G * S;
  std::vector<double> yr(xv.size()), ys(xv.size()), mr, ms, rr, rsc;
  for (int64_t row = 0; row < N * G; ++row) {
    double mean = 0, var = 0, mabs = 0;
    for (int64_t i = 0; i < L; ++i) {
      mean += xv[static_cast<size_t>(row * L + i)];
      mabs += std::fabs(xv[static_cast<size_t>(row * L + i)]);
    }
    mean /= static_cast<double>(L);
    for (int64_t i = 0; i < L; ++i) var += std::pow(xv[static_cast<size_t>(row * L + i)] - mean, 2);
    var /= static_cast<double>(L);
    const double rstd = 1 / std::sqrt(var + c.eps);
    mr.push_back(mean);
    ms.push_back(mabs / static_cast<double>(L));
    rr.push_back(rstd);
    rsc.push_back(rstd * (1 + std::sqrt(static_cast<double>(L))));
    for (int64_t i = 0; i < L; ++i) {
      const size_t k = static_cast<size_t>(row * L + i);
      const size_t ch = static_cast<size_t>((row % G) * (C / G) + i / S);
      const double v = (xv[k] - mean) * rstd * gv[ch] + bv[ch];
      double sc = (std::fabs(xv[k]) + std::fabs(mean)) * rstd * std::fabs(gv[ch]) + std::fabs(bv[ch]);
      const bool act = c.op == Fwd::kSilu || ((c.op == Fwd::kSiluV2 || c.op == Fwd::kSwish) && c.act);
      const double s = c.op == Fwd::kSwish ? c.scale : 1.0;
      yr[k] = act ? v / (1 + std::exp(-s * v)) : v;
      ys[k] = act ? sc * (1 + std::fabs(s * v)) : sc;
    }
  }
  const aclDataType ct = compute_of(c.x.dtype);
  y->download();
  m->download();
  rs->download();
  const aclDataType gt = c.gamma ? c.gamma->dtype : ct;
  expect_close(r, "out", *y, yr, ys, {ct, c.y.dtype, gt}, 4);
  expect_close(r, "mean", *m, mr, ms, {ct, c.mean.dtype});
  expect_close(r, "rstd", *rs, rr, rsc, {ct, c.rstd.dtype});
}

FwdCase random_forward(Rng& rng, Fwd op, aclDataType t) {
  const int rank = 2 + static_cast<int>(rng() % 3);
  const int64_t G = static_cast<int64_t>(rng() % 3) + 1;
  Shape shape = {static_cast<int64_t>(rng() % 3) + 1, G * (static_cast<int64_t>(rng() % 3) + 1)};
  for (int k = 2; k < rank; ++k) shape.push_back(static_cast<int64_t>(rng() % 5) + 1);
  if (rank > 2 && rng() % 4 == 0) shape.back() = static_cast<int64_t>(rng() % 60) + 20;
  const aclDataType pt = rng() % 3 == 0 ? ACL_FLOAT : t;
  FwdCase c{op, random_view(rng, t, shape), std::nullopt, std::nullopt, random_view(rng, t, shape),
            TensorDesc(t, rng() % 2 ? Shape{shape[0], G} : Shape{shape[0] * G}), TensorDesc(t, {shape[0], G}), G,
            rng() % 2 ? 1e-5 : 0.1, 1.0, rng() % 2 == 0};
  const bool optional = op == Fwd::kGroupNorm;
  if (!optional || rng() % 4) c.gamma = TensorDesc(pt, {shape[1]});
  if (!optional || rng() % 4) c.beta = TensorDesc(c.gamma ? c.gamma->dtype : pt, {shape[1]});
  if (op == Fwd::kSwish) c.scale = std::vector<double>{1.0, 0.5, 2.0}[rng() % 3];
  return c;
}

void sweep_forward(Fwd op, uint64_t s, int iters) {
  Rng rng(seed(s));
  for (int i = 0; i < iters; ++i) {
    check_forward(rng, random_forward(rng, op, kTypes[static_cast<size_t>(i) % 4]));
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(GroupNorm, RandomShapesGroupsDtypes) { sweep_forward(Fwd::kGroupNorm, 41, 48); }
TEST(GroupNormSilu, RandomShapesGroupsDtypes) { sweep_forward(Fwd::kSilu, 42, 24); }
TEST(GroupNormSiluV2, RandomShapesGroupsDtypes) { sweep_forward(Fwd::kSiluV2, 43, 24); }
TEST(GroupNormSwish, RandomShapesGroupsDtypes) { sweep_forward(Fwd::kSwish, 44, 24); }

TEST(GroupNorm, ManyRowsUseThreads) {
  Rng rng(seed(45));
  check_forward(rng, FwdCase{Fwd::kGroupNorm, TensorDesc(ACL_FLOAT, {16, 32, 10, 12}), TensorDesc(ACL_FLOAT, {32}),
                             TensorDesc(ACL_FLOAT, {32}), TensorDesc(ACL_FLOAT, {16, 32, 10, 12}),
                             TensorDesc(ACL_FLOAT, {16, 8}), TensorDesc(ACL_FLOAT, {16, 8}), 8, 1e-5, 1, false});
}

// ---- backward -------------------------------------------------------------------------------------

struct BwdCase {
  bool swish;
  TensorDesc dy, x, mean, rstd;
  Opt gamma, beta, dx, dgamma, dbeta;
  int64_t group;
  double scale;
  std::string str() const {
    std::string r = std::string(swish ? "GroupNormSwishGrad" : "GroupNormBackward") + " dy=" + dy.str() + " x=" + x.str() +
                    " mean=" + mean.str() + " rstd=" + rstd.str();
    auto add = [&](const char* n, const Opt& d) {
      if (d) r += std::string(" ") + n + "=" + d->str();
    };
    add("gamma", gamma);
    add("beta", beta);
    add("dx", dx);
    add("dgamma", dgamma);
    add("dbeta", dbeta);
    return r + " group=" + std::to_string(group) + " scale=" + std::to_string(scale);
  }
};

void check_backward(Rng& rng, const BwdCase& c) {
  const std::string r = c.str();
  T dy = make(rng, c.dy, -2, 2), x = make(rng, c.x, -3, 3), m = make(rng, c.mean, -1, 1), rs = make(rng, c.rstd, 0.25, 2);
  T g = make(rng, c.gamma, -2, 2), b = make(rng, c.beta, -1, 1);
  T dx = make(rng, c.dx, -1, 1), dg = make(rng, c.dgamma, -1, 1), db = make(rng, c.dbeta, -1, 1);
  const int64_t N = c.x.shape[0], C = c.x.shape[1], G = c.group;
  int64_t S = 1;
  for (size_t k = 2; k < c.x.shape.size(); ++k) S *= c.x.shape[k];
  bool mask_v[3] = {dx != nullptr, dg != nullptr, db != nullptr};
  aclBoolArray* mask = aclCreateBoolArray(mask_v, 3);
  char fmt[] = "NCHW";
  const aclnnStatus st = run_two_phase(
      [&](uint64_t* w, aclOpExecutor** e) {
        if (c.swish)
          return aclnnGroupNormSwishGradGetWorkspaceSize(dy->get(), m->get(), rs->get(), x->get(), get(g), get(b), G, fmt,
                                                         c.scale, dg != nullptr, db != nullptr, get(dx), get(dg), get(db), w, e);
        return aclnnGroupNormBackwardGetWorkspaceSize(dy->get(), x->get(), m->get(), rs->get(), get(g), N, C, S, G, mask,
                                                      get(dx), get(dg), get(db), w, e);
      },
      c.swish ? aclnnGroupNormSwishGrad : aclnnGroupNormBackward);
  aclDestroyBoolArray(mask);
  ASSERT_EQ(st, ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  const auto dyv = dense_values(*dy), xv = dense_values(*x), mv = dense_values(*m), rv = dense_values(*rs);
  const auto gv = g ? dense_values(*g) : std::vector<double>(static_cast<size_t>(C), 1.0);
  const auto bv = b ? dense_values(*b) : std::vector<double>(static_cast<size_t>(C), 0.0);
  const int64_t L = C / G * S;
  std::vector<double> dxr(xv.size()), dxs(xv.size()), dgr(static_cast<size_t>(C)), dgs(dgr.size()), dbr(dgr.size()),
      dbs(dgr.size());
  for (int64_t row = 0; row < N * G; ++row) {
    const double mean = mv[static_cast<size_t>(row)], rstd = rv[static_cast<size_t>(row)];
    std::vector<double> d(static_cast<size_t>(L)), ds(d.size()), xh(d.size()), xhs(d.size());
    double A = 0, B = 0, As = 0, Bs = 0;
    for (int64_t i = 0; i < L; ++i) {
      const size_t k = static_cast<size_t>(row * L + i), ii = static_cast<size_t>(i);
      const size_t ch = static_cast<size_t>((row % G) * (C / G) + i / S);
      xh[ii] = (xv[k] - mean) * rstd;
      xhs[ii] = (std::fabs(xv[k]) + std::fabs(mean)) * rstd;
      d[ii] = dyv[k];
      ds[ii] = std::fabs(dyv[k]);
      if (c.swish) {
        const double y = xh[ii] * gv[ch] + bv[ch], s = c.scale, sg = 1 / (1 + std::exp(-s * y));
        d[ii] = dyv[k] * sg * (1 + s * y * (1 - sg));
        ds[ii] = std::fabs(dyv[k]) * (1 + std::fabs(s * y)) * 2;
      }
      A += d[ii] * gv[ch];
      As += ds[ii] * std::fabs(gv[ch]);
      B += d[ii] * gv[ch] * xh[ii];
      Bs += ds[ii] * std::fabs(gv[ch]) * xhs[ii];
      dgr[ch] += d[ii] * xh[ii];
      dgs[ch] += ds[ii] * xhs[ii];
      dbr[ch] += d[ii];
      dbs[ch] += ds[ii];
    }
    for (int64_t i = 0; i < L; ++i) {
      const size_t k = static_cast<size_t>(row * L + i), ii = static_cast<size_t>(i);
      const size_t ch = static_cast<size_t>((row % G) * (C / G) + i / S);
      dxr[k] = rstd * (d[ii] * gv[ch] - (A + xh[ii] * B) / static_cast<double>(L));
      dxs[k] = rstd * (ds[ii] * std::fabs(gv[ch]) + (As + xhs[ii] * Bs) / static_cast<double>(L));
    }
  }
  const aclDataType ct = compute_of(c.x.dtype), mt = c.mean.dtype;
  if (dx) {
    dx->download();
    expect_close(r, "dx", *dx, dxr, dxs, {ct, c.dx->dtype, mt}, 4);
  }
  if (dg) {
    dg->download();
    expect_close(r, "dgamma", *dg, dgr, dgs, {ct, c.dgamma->dtype, mt}, 4);
  }
  if (db) {
    db->download();
    expect_close(r, "dbeta", *db, dbr, dbs, {ct, c.dbeta->dtype, mt}, 4);
  }
}

BwdCase random_backward(Rng& rng, bool swish, aclDataType t) {
  const int rank = 2 + static_cast<int>(rng() % 3);
  const int64_t G = static_cast<int64_t>(rng() % 3) + 1;
  Shape shape = {static_cast<int64_t>(rng() % 3) + 1, G * (static_cast<int64_t>(rng() % 3) + 1)};
  for (int k = 2; k < rank; ++k) shape.push_back(static_cast<int64_t>(rng() % 5) + 1);
  if (rank > 2 && rng() % 4 == 0) shape.back() = static_cast<int64_t>(rng() % 60) + 20;
  const aclDataType mt = rng() % 2 ? ACL_FLOAT : t;
  const Shape stat = {shape[0], G};
  BwdCase c{swish, random_view(rng, t, shape), random_view(rng, t, shape), TensorDesc(mt, stat), TensorDesc(mt, stat),
            std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, G, 1.0};
  if (swish || rng() % 4) c.gamma = TensorDesc(mt, {shape[1]});
  if (swish) {
    c.beta = TensorDesc(mt, {shape[1]});
    c.scale = std::vector<double>{1.0, 0.5, 2.0}[rng() % 3];
    c.dx = random_view(rng, t, shape);
  } else if (rng() % 4) {
    c.dx = random_view(rng, t, shape);
  }
  if (rng() % 3) c.dgamma = TensorDesc(mt, {shape[1]});
  if (rng() % 3) c.dbeta = TensorDesc(mt, {shape[1]});
  return c;
}

TEST(GroupNormBackward, RandomShapesGroupsMasks) {
  Rng rng(seed(46));
  for (int i = 0; i < 48; ++i) {
    check_backward(rng, random_backward(rng, false, kTypes[static_cast<size_t>(i) % 4]));
    if (HasFailure()) return;
  }
}

TEST(GroupNormSwishGrad, RandomShapesGroupsScales) {
  Rng rng(seed(47));
  for (int i = 0; i < 32; ++i) {
    check_backward(rng, random_backward(rng, true, kTypes[static_cast<size_t>(i) % 4]));
    if (HasFailure()) return;
  }
}

TEST(GroupNormBackward, ManyRowsUseThreads) {
  Rng rng(seed(48));
  check_backward(rng, BwdCase{false, TensorDesc(ACL_FLOAT, {12, 16, 20, 20}), TensorDesc(ACL_FLOAT, {12, 16, 20, 20}),
                              TensorDesc(ACL_FLOAT, {12, 4}), TensorDesc(ACL_FLOAT, {12, 4}), TensorDesc(ACL_FLOAT, {16}),
                              std::nullopt, TensorDesc(ACL_FLOAT, {12, 16, 20, 20}), TensorDesc(ACL_FLOAT, {16}),
                              TensorDesc(ACL_FLOAT, {16}), 4, 1.0});
}

// ---- InstanceNorm --------------------------------------------------------------------------------

void check_instance(Rng& rng, aclDataType t, bool nhwc, const Shape& shape, double eps) {
  const int64_t N = shape[0], C = nhwc ? shape[3] : shape[1], S = nhwc ? shape[1] * shape[2] : shape[2] * shape[3];
  const Shape stat = nhwc ? Shape{N, 1, 1, C} : Shape{N, C, 1, 1};
  const std::string r = std::string("InstanceNorm ") + (nhwc ? "NHWC" : "NCHW") + " x=" + TensorDesc(t, shape).str() +
                        " eps=" + std::to_string(eps);
  Tensor x(random_view(rng, t, shape)), g(TensorDesc(t, {C})), b(TensorDesc(t, {C})), y(random_view(rng, t, shape));
  Tensor m(TensorDesc(t, stat)), v(TensorDesc(ACL_FLOAT, stat));
  fill_uniform(x, rng, -3, 5);
  fill_uniform(g, rng, -2, 2);
  fill_uniform(b, rng, -1, 1);
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnInstanceNormGetWorkspaceSize(x.get(), g.get(), b.get(), nhwc ? "NHWC" : "NCHW", eps, y.get(),
                                                       m.get(), v.get(), w, e);
            }, aclnnInstanceNorm),
            ACL_SUCCESS)
      << r << ": " << aclGetRecentErrMsg();
  y.download();
  m.download();
  v.download();
  const auto xv = dense_values(x), gv = dense_values(g), bv = dense_values(b);
  std::vector<double> yr(xv.size()), ys(xv.size()), mr(static_cast<size_t>(N * C)), ms(mr.size()), vr(mr.size()),
      vs(mr.size());
  auto at = [&](int64_t n, int64_t c, int64_t s) {
    return static_cast<size_t>(nhwc ? (n * S + s) * C + c : (n * C + c) * S + s);
  };
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c) {
      double mean = 0, var = 0, mabs = 0;
      for (int64_t s = 0; s < S; ++s) mean += xv[at(n, c, s)], mabs += std::fabs(xv[at(n, c, s)]);
      mean /= static_cast<double>(S);
      for (int64_t s = 0; s < S; ++s) var += std::pow(xv[at(n, c, s)] - mean, 2);
      var /= static_cast<double>(S);
      const size_t k = static_cast<size_t>(n * C + c);
      mr[k] = mean;
      ms[k] = mabs / static_cast<double>(S);
      vr[k] = var;
      vs[k] = (var + ms[k] * ms[k]) * 4;
      const double rs = 1 / std::sqrt(var + eps);
      for (int64_t s = 0; s < S; ++s) {
        yr[at(n, c, s)] = (xv[at(n, c, s)] - mean) * rs * gv[static_cast<size_t>(c)] + bv[static_cast<size_t>(c)];
        ys[at(n, c, s)] = (std::fabs(xv[at(n, c, s)]) + std::fabs(mean)) * rs * std::fabs(gv[static_cast<size_t>(c)]) +
                          std::fabs(bv[static_cast<size_t>(c)]);
      }
    }
  const aclDataType ct = compute_of(t);
  expect_close(r, "y", y, yr, ys, {ct, t}, 4);
  expect_close(r, "mean", m, mr, ms, {ct, t});
  expect_close(r, "variance", v, vr, vs, {ct, ACL_FLOAT});
}

TEST(InstanceNorm, NchwAndNhwcShapesDtypes) {
  Rng rng(seed(49));
  for (int i = 0; i < 40; ++i) {
    Shape shape(4);
    for (auto& s : shape) s = static_cast<int64_t>(rng() % 4) + 1;
    if (i % 5 == 0) shape[2] = 37;
    if (i % 7 == 0) shape[3] = 70;  // NHWC: more channels than a column block
    check_instance(rng, kTypes[static_cast<size_t>(i) % 4], i % 2 == 1, shape, i % 3 ? 1e-5 : 0.1);
    if (HasFailure()) return;
  }
}

TEST(InstanceNorm, ConstantPlanesGiveBeta) {
  Tensor x(TensorDesc(ACL_FLOAT, {1, 3, 5, 7})), g(TensorDesc(ACL_FLOAT, {3})), b(TensorDesc(ACL_FLOAT, {3}));
  Tensor y(TensorDesc(ACL_FLOAT, {1, 3, 5, 7})), m(TensorDesc(ACL_FLOAT, {1, 3, 1, 1})), v(TensorDesc(ACL_FLOAT, {1, 3, 1, 1}));
  x.fill(Num::real(0.77));
  g.fill(Num::real(1.5));
  b.fill(Num::real(0.5));
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnInstanceNormGetWorkspaceSize(x.get(), g.get(), b.get(), "NCHW", 1e-5, y.get(), m.get(), v.get(), w, e);
            }, aclnnInstanceNorm),
            ACL_SUCCESS);
  y.download();
  v.download();
  for_each_index({1, 3, 5, 7}, [&](const Shape& i) { EXPECT_EQ(y.at(i).f, 0.5) << shape_str(i); });
  for_each_index({1, 3, 1, 1}, [&](const Shape& i) { EXPECT_EQ(v.at(i).f, 0.0) << shape_str(i); });
}

TEST(GroupNorm, BadArguments) {
  Tensor x(TensorDesc(ACL_FLOAT, {2, 6, 4})), y(TensorDesc(ACL_FLOAT, {2, 6, 4})), g(TensorDesc(ACL_FLOAT, {6}));
  Tensor g5(TensorDesc(ACL_FLOAT, {5})), ms(TensorDesc(ACL_FLOAT, {2, 3})), ms_bad(TensorDesc(ACL_FLOAT, {2, 2}));
  Tensor x1(TensorDesc(ACL_FLOAT, {6})), xi(TensorDesc(ACL_INT32, {2, 6, 4}));
  aclTensor* yt = y.get();
  auto gn = [&](aclTensor* in, aclTensor* gm, int64_t N, int64_t C, int64_t HxW, int64_t G, double eps, aclTensor* m) {
    return [=](uint64_t* w, aclOpExecutor** e) {
      return aclnnGroupNormGetWorkspaceSize(in, gm, gm, N, C, HxW, G, eps, yt, m, m, w, e);
    };
  };
  expect_phase1_error("null self", ACLNN_ERR_PARAM_NULLPTR, "self", gn(nullptr, g.get(), 2, 6, 4, 3, 1e-5, ms.get()));
  expect_phase1_error("null meanOut", ACLNN_ERR_PARAM_NULLPTR, "meanOut", gn(x.get(), g.get(), 2, 6, 4, 3, 1e-5, nullptr));
  expect_phase1_error("int self", ACLNN_ERR_PARAM_INVALID, "self dtype int32", gn(xi.get(), g.get(), 2, 6, 4, 3, 1e-5, ms.get()));
  expect_phase1_error("rank 1", ACLNN_ERR_PARAM_INVALID, "self has 1 dims", gn(x1.get(), g.get(), 2, 6, 4, 3, 1e-5, ms.get()));
  expect_phase1_error("N", ACLNN_ERR_PARAM_INVALID, "N is 3", gn(x.get(), g.get(), 3, 6, 4, 3, 1e-5, ms.get()));
  expect_phase1_error("C", ACLNN_ERR_PARAM_INVALID, "C is 5", gn(x.get(), g.get(), 2, 5, 4, 3, 1e-5, ms.get()));
  expect_phase1_error("HxW", ACLNN_ERR_PARAM_INVALID, "HxW is 5", gn(x.get(), g.get(), 2, 6, 5, 3, 1e-5, ms.get()));
  expect_phase1_error("group 4", ACLNN_ERR_PARAM_INVALID, "group is 4", gn(x.get(), g.get(), 2, 6, 4, 4, 1e-5, ms.get()));
  expect_phase1_error("group 0", ACLNN_ERR_PARAM_INVALID, "group is 0", gn(x.get(), g.get(), 2, 6, 4, 0, 1e-5, ms.get()));
  expect_phase1_error("eps 0", ACLNN_ERR_PARAM_INVALID, "eps is 0", gn(x.get(), g.get(), 2, 6, 4, 3, 0, ms.get()));
  expect_phase1_error("gamma shape", ACLNN_ERR_PARAM_INVALID, "gamma has shape [5]", gn(x.get(), g5.get(), 2, 6, 4, 3, 1e-5, ms.get()));
  expect_phase1_error("mean shape", ACLNN_ERR_PARAM_INVALID, "meanOut has shape [2, 2]", gn(x.get(), g.get(), 2, 6, 4, 3, 1e-5, ms_bad.get()));
  bool two[2] = {true, true};
  aclBoolArray* m2 = aclCreateBoolArray(two, 2);
  expect_phase1_error("backward mask", ACLNN_ERR_PARAM_INVALID, "outputMask has 2 entries", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnGroupNormBackwardGetWorkspaceSize(x.get(), x.get(), ms.get(), ms.get(), g.get(), 2, 6, 4, 3, m2, y.get(), g.get(),
                                                  g.get(), w, e);
  });
  aclDestroyBoolArray(m2);
  expect_phase1_error("instance format", ACLNN_ERR_PARAM_INVALID, "dataFormat is 'NDHWC'", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnInstanceNormGetWorkspaceSize(x.get(), g.get(), g.get(), "NDHWC", 1e-5, y.get(), ms.get(), ms.get(), w, e);
  });
  expect_phase1_error("instance rank", ACLNN_ERR_PARAM_INVALID, "x has 3 dims", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnInstanceNormGetWorkspaceSize(x.get(), g.get(), g.get(), "NCHW", 1e-5, y.get(), ms.get(), ms.get(), w, e);
  });
  char bad[] = "NCDH";
  expect_phase1_error("swish format", ACLNN_ERR_PARAM_INVALID, "dataFormatOptional", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnGroupNormSwishGetWorkspaceSize(x.get(), g.get(), g.get(), 3, bad, 1e-5, true, 1.0, y.get(), ms.get(), ms.get(), w, e);
  });
}

}  // namespace
