// Backward row normalisations through the public C API: LayerNormBackward, RmsNormGrad,
// AddLayerNormGrad, DeepNormGrad. Reference (double loops over the host copies), per row of N
// values with x = alpha * x1 + x2 (rounded to x1's dtype for AddLayerNormGrad), xhat = (x - mean) *
// rstd (mean 0 for RmsNorm), g = gamma or 1:
//   dx = rstd * (dy * g - (sum(dy * g) + xhat * sum(dy * g * xhat)) / N) + dsum   (RmsNorm: no sum(dy * g))
//   dgamma = column sums of dy * xhat, dbeta = column sums of dy; DeepNorm: dgx = dx, dx = alpha * dgx.
// mean and rstd are arbitrary per-row values (the formulas hold for any).
#include <gtest/gtest.h>

#include <memory>
#include <optional>

#include "aclnnop/aclnn_add_layer_norm_grad.h"
#include "aclnnop/aclnn_deep_norm_grad.h"
#include "aclnnop/aclnn_layer_norm_backward.h"
#include "aclnnop/aclnn_rms_norm_grad.h"
#include "norm_test_util.h"

namespace {

using namespace normtest;

enum class Op { kLayerNormBackward, kRmsNormGrad, kAddLayerNormGrad, kDeepNormGrad };
const char* op_name(Op o) {
  switch (o) {
    case Op::kLayerNormBackward: return "LayerNormBackward";
    case Op::kRmsNormGrad: return "RmsNormGrad";
    case Op::kAddLayerNormGrad: return "AddLayerNormGrad";
    default: return "DeepNormGrad";
  }
}

using Opt = std::optional<TensorDesc>;

struct Case {
  Case(Op o, TensorDesc d) : op(o), dy(std::move(d)) {}
  Op op;
  TensorDesc dy;
  Opt x1, x2, mean, rstd, gamma, bias, dsum, dx, dx2, dgamma, dbeta;
  int64_t nd = 1;  // normalised trailing dims
  double alpha = 1;
  std::string str() const {
    std::string r = std::string(op_name(op)) + " dy=" + dy.str();
    auto add = [&](const char* n, const Opt& d) {
      if (d) r += std::string(" ") + n + "=" + d->str();
    };
    add("x1", x1);
    add("x2", x2);
    add("mean", mean);
    add("rstd", rstd);
    add("gamma", gamma);
    add("bias", bias);
    add("dsum", dsum);
    add("dx", dx);
    add("dx2", dx2);
    add("dgamma", dgamma);
    add("dbeta", dbeta);
    return r + " normDims=" + std::to_string(nd) + " alpha=" + std::to_string(alpha);
  }
};

using T = std::unique_ptr<Tensor>;
aclTensor* get(const T& t) { return t ? t->get() : nullptr; }

struct Run {
  T dy, x1, x2, mean, rstd, gamma, bias, dsum, dx, dx2, dgamma, dbeta;
};

aclnnStatus call(const Case& c, Run& t) {
  const Shape ns(c.dy.shape.end() - c.nd, c.dy.shape.end());
  IntArray na(ns);
  bool mask[3] = {t.dx != nullptr, t.dgamma != nullptr, t.dbeta != nullptr};
  aclBoolArray* m = aclCreateBoolArray(mask, 3);
  auto p1 = [&](uint64_t* w, aclOpExecutor** e) -> aclnnStatus {
    switch (c.op) {
      case Op::kLayerNormBackward:
        return aclnnLayerNormBackwardGetWorkspaceSize(get(t.dy), get(t.x1), na.a, get(t.mean), get(t.rstd), get(t.gamma),
                                                      get(t.bias), m, get(t.dx), get(t.dgamma), get(t.dbeta), w, e);
      case Op::kRmsNormGrad:
        return aclnnRmsNormGradGetWorkspaceSize(get(t.dy), get(t.x1), get(t.rstd), get(t.gamma), get(t.dx), get(t.dgamma), w, e);
      case Op::kAddLayerNormGrad:
        return aclnnAddLayerNormGradGetWorkspaceSize(get(t.dy), get(t.x1), get(t.x2), get(t.rstd), get(t.mean), get(t.gamma),
                                                     get(t.dsum), get(t.dx), get(t.dgamma), get(t.dbeta), w, e);
      default:
        return aclnnDeepNormGradGetWorkspaceSize(get(t.dy), get(t.x1), get(t.x2), get(t.gamma), get(t.mean), get(t.rstd),
                                                 c.alpha, get(t.dx), get(t.dx2), get(t.dbeta), get(t.dgamma), w, e);
    }
  };
  Phase2Fn p2 = c.op == Op::kLayerNormBackward ? aclnnLayerNormBackward
                : c.op == Op::kRmsNormGrad     ? aclnnRmsNormGrad
                : c.op == Op::kAddLayerNormGrad ? aclnnAddLayerNormGrad
                                                 : aclnnDeepNormGrad;
  const aclnnStatus st = run_two_phase(p1, p2);
  aclDestroyBoolArray(m);
  return st;
}

void check_case(Rng& rng, const Case& c) {
  const std::string r = c.str();
  Run t;
  auto make = [&](const Opt& d, T* dst, double lo, double hi) {
    if (!d) return;
    *dst = std::make_unique<Tensor>(*d);
    fill_uniform(**dst, rng, lo, hi);
  };
  t.dy = std::make_unique<Tensor>(c.dy);
  fill_uniform(*t.dy, rng, -2, 2);
  make(c.x1, &t.x1, -3, 3);
  make(c.x2, &t.x2, -3, 3);
  make(c.mean, &t.mean, -1, 1);
  make(c.rstd, &t.rstd, 0.25, 2);
  make(c.gamma, &t.gamma, -2, 2);
  make(c.bias, &t.bias, -2, 2);
  make(c.dsum, &t.dsum, -1, 1);
  make(c.dx, &t.dx, -1, 1);
  make(c.dx2, &t.dx2, -1, 1);
  make(c.dgamma, &t.dgamma, -1, 1);
  make(c.dbeta, &t.dbeta, -1, 1);
  ASSERT_EQ(call(c, t), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();

  int64_t rows = 1, cols = 1;
  for (size_t k = 0; k < c.dy.shape.size(); ++k)
    (static_cast<int64_t>(k) < static_cast<int64_t>(c.dy.shape.size()) - c.nd ? rows : cols) *= c.dy.shape[k];
  const auto dy = dense_values(*t.dy), x1 = dense_values(*t.x1);
  const auto x2 = t.x2 ? dense_values(*t.x2) : std::vector<double>();
  const auto mean = t.mean ? dense_values(*t.mean) : std::vector<double>();
  const auto rstd = dense_values(*t.rstd);
  const auto g = t.gamma ? dense_values(*t.gamma) : std::vector<double>();
  const auto ds = t.dsum ? dense_values(*t.dsum) : std::vector<double>();
  const bool rms = c.op == Op::kRmsNormGrad;
  const double alpha = c.op == Op::kDeepNormGrad ? c.alpha : 1;
  std::vector<double> dx(dy.size()), dxs(dy.size()), dg(static_cast<size_t>(cols)), dgs(dg.size()), db(dg.size()),
      dbs(dg.size());
  for (int64_t i = 0; i < rows; ++i) {
    std::vector<double> x(static_cast<size_t>(cols)), xh(x.size()), xhs(x.size());  // xhs: |xh|'s error scale
    const double m = rms ? 0 : mean[static_cast<size_t>(i)], rs = rstd[static_cast<size_t>(i)];
    double a = 0, b = 0, aa = 0, ba = 0;
    for (int64_t j = 0; j < cols; ++j) {
      const size_t k = static_cast<size_t>(i * cols + j);
      double v = x1[k];
      if (t.x2) {
        v = alpha * v + x2[k];
        if (c.op == Op::kAddLayerNormGrad) v = cast(Num::real(v), c.dy.dtype).f;
      }
      x[static_cast<size_t>(j)] = v;
      xh[static_cast<size_t>(j)] = (v - m) * rs;
      xhs[static_cast<size_t>(j)] = std::fabs(rs) * (std::fabs(alpha * x1[k]) + (t.x2 ? std::fabs(x2[k]) : 0) + std::fabs(m));
      const double gj = t.gamma ? g[static_cast<size_t>(j)] : 1;
      a += dy[k] * gj;
      aa += std::fabs(dy[k] * gj);
      b += dy[k] * gj * xh[static_cast<size_t>(j)];
      ba += std::fabs(dy[k] * gj) * xhs[static_cast<size_t>(j)];
    }
    if (rms) a = aa = 0;
    for (int64_t j = 0; j < cols; ++j) {
      const size_t k = static_cast<size_t>(i * cols + j), jj = static_cast<size_t>(j);
      const double gj = t.gamma ? g[jj] : 1;
      dx[k] = rs * (dy[k] * gj - (a + xh[jj] * b) / static_cast<double>(cols)) + (t.dsum ? ds[k] : 0);
      dxs[k] = std::fabs(rs) * (std::fabs(dy[k] * gj) + (aa + xhs[jj] * ba) / static_cast<double>(cols)) +
               (t.dsum ? std::fabs(ds[k]) : 0);
      dg[jj] += dy[k] * xh[jj];
      dgs[jj] += std::fabs(dy[k]) * xhs[jj];
      db[jj] += dy[k];
      dbs[jj] += std::fabs(dy[k]);
    }
  }
  const aclDataType ct = compute_of(c.dy.dtype);
  const aclDataType gt = c.gamma ? c.gamma->dtype : ct;
  if (t.dx) {
    t.dx->download();
    if (c.op == Op::kDeepNormGrad) {  // dxOut = alpha * dgx
      std::vector<double> ax(dx.size()), axs(dx.size());
      for (size_t k = 0; k < dx.size(); ++k) ax[k] = alpha * dx[k], axs[k] = std::fabs(alpha) * dxs[k];
      expect_close(r, "dx", *t.dx, ax, axs, {ct, c.dx->dtype, gt}, 4);
    } else {
      expect_close(r, "dx", *t.dx, dx, dxs, {ct, c.dx->dtype, gt}, 4);
    }
  }
  if (t.dx2) {
    t.dx2->download();
    expect_close(r, "dgx", *t.dx2, dx, dxs, {ct, c.dx2->dtype, gt}, 4);
  }
  if (t.dgamma) {
    t.dgamma->download();
    expect_close(r, "dgamma", *t.dgamma, dg, dgs, {ct, c.dgamma->dtype}, 4);
  }
  if (t.dbeta) {
    t.dbeta->download();
    expect_close(r, "dbeta", *t.dbeta, db, dbs, {ct, c.dbeta->dtype}, 4);
  }
}

const std::vector<aclDataType> kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

Case random_case(Rng& rng, Op op, aclDataType t) {
  const int min_rank = op == Op::kRmsNormGrad || op == Op::kDeepNormGrad ? 2 : 1;
  const int rank = min_rank + static_cast<int>(rng() % static_cast<uint64_t>(5 - min_rank));
  Shape shape(static_cast<size_t>(rank));
  for (auto& s : shape) s = static_cast<int64_t>(rng() % 4) + 1;
  shape.back() = static_cast<int64_t>(rng() % 3 == 0 ? rng() % 120 + 20 : rng() % 8 + 1);
  if (rng() % 4 == 0) shape.front() = static_cast<int64_t>(rng() % 40 + 10);  // many rows
  const int64_t nd = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(rank));
  const Shape ns(shape.end() - nd, shape.end());
  Shape stat(shape.begin(), shape.end() - nd);
  if (rng() % 4) stat.resize(shape.size(), 1);
  const aclDataType pt = (rng() % 3 == 0 && op != Op::kDeepNormGrad) ? ACL_FLOAT : t;
  Case c{op, random_view(rng, t, shape)};
  c.nd = nd;
  c.x1 = random_view(rng, t, shape);
  c.rstd = TensorDesc(rng() % 3 ? ACL_FLOAT : t, stat);
  switch (op) {
    case Op::kLayerNormBackward:
      c.mean = TensorDesc(c.rstd->dtype, stat);
      if (rng() % 4) c.gamma = TensorDesc(pt, ns);
      if (rng() % 2) c.bias = TensorDesc(c.gamma ? pt : t, ns);
      if (rng() % 4) c.dx = random_view(rng, t, shape);
      if (rng() % 3) c.dgamma = TensorDesc(c.gamma ? pt : t, ns);
      if (rng() % 3) c.dbeta = TensorDesc(c.gamma ? pt : t, ns);
      break;
    case Op::kRmsNormGrad:
      c.gamma = TensorDesc(pt, ns);
      c.dx = random_view(rng, t, shape);
      c.dgamma = TensorDesc(ACL_FLOAT, ns);
      break;
    case Op::kAddLayerNormGrad:
      c.x2 = random_view(rng, t, shape);
      c.mean = TensorDesc(ACL_FLOAT, stat);
      c.gamma = TensorDesc(pt, ns);
      if (rng() % 2) c.dsum = random_view(rng, t, shape);
      c.dx = random_view(rng, t, shape);
      c.dgamma = TensorDesc(ACL_FLOAT, ns);
      c.dbeta = TensorDesc(ACL_FLOAT, ns);
      break;
    case Op::kDeepNormGrad:
      c.x2 = random_view(rng, t, shape);
      c.mean = TensorDesc(ACL_FLOAT, stat);
      c.gamma = TensorDesc(t, ns);
      c.alpha = std::vector<double>{0.3, 1, 2}[rng() % 3];
      c.dx = random_view(rng, t, shape);
      c.dx2 = random_view(rng, t, shape);
      c.dgamma = TensorDesc(ACL_FLOAT, ns);
      c.dbeta = TensorDesc(ACL_FLOAT, ns);
      break;
  }
  return c;
}

void sweep(Op op, uint64_t s, int iters = 40) {
  Rng rng(seed(s));
  for (int i = 0; i < iters; ++i) {
    check_case(rng, random_case(rng, op, kTypes[static_cast<size_t>(i) % 4]));
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(LayerNormBackward, RandomShapesDtypesMasks) { sweep(Op::kLayerNormBackward, 31, 60); }
TEST(RmsNormGrad, RandomShapesDtypes) { sweep(Op::kRmsNormGrad, 32); }
TEST(AddLayerNormGrad, RandomShapesDtypes) { sweep(Op::kAddLayerNormGrad, 33); }
TEST(DeepNormGrad, RandomShapesDtypes) { sweep(Op::kDeepNormGrad, 34); }

TEST(LayerNormBackward, ManyRowsUseThreads) {
  Rng rng(seed(35));
  Case c{Op::kLayerNormBackward, TensorDesc(ACL_FLOAT, {300, 257})};
  c.nd = 1;
  c.x1 = TensorDesc(ACL_FLOAT, {300, 257});
  c.mean = TensorDesc(ACL_FLOAT, {300, 1});
  c.rstd = TensorDesc(ACL_FLOAT, {300, 1});
  c.gamma = TensorDesc(ACL_FLOAT, {257});
  c.dx = TensorDesc(ACL_FLOAT, {300, 257});
  c.dgamma = TensorDesc(ACL_FLOAT, {257});
  c.dbeta = TensorDesc(ACL_FLOAT, {257});
  check_case(rng, c);
}

TEST(LayerNormBackward, NoRowsGivesZeroColumnGradients) {
  Tensor dy(TensorDesc(ACL_FLOAT, {0, 3})), x(TensorDesc(ACL_FLOAT, {0, 3})), m(TensorDesc(ACL_FLOAT, {0, 1}));
  Tensor dw(TensorDesc(ACL_FLOAT, {3})), db(TensorDesc(ACL_FLOAT, {3}));
  dw.fill(Num::real(7));
  db.fill(Num::real(7));
  IntArray ns({3});
  bool mask[3] = {false, true, true};
  aclBoolArray* ma = aclCreateBoolArray(mask, 3);
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnLayerNormBackwardGetWorkspaceSize(dy.get(), x.get(), ns.a, m.get(), m.get(), nullptr, nullptr,
                                                            ma, nullptr, dw.get(), db.get(), w, e);
            }, aclnnLayerNormBackward),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  aclDestroyBoolArray(ma);
  dw.download();
  db.download();
  for (int64_t j = 0; j < 3; ++j) {
    EXPECT_EQ(dw.at({j}).f, 0.0);
    EXPECT_EQ(db.at({j}).f, 0.0);
  }
}

TEST(LayerNormBackward, BadArguments) {
  Tensor dy(TensorDesc(ACL_FLOAT, {2, 3, 4})), x(TensorDesc(ACL_FLOAT, {2, 3, 4})), x16(TensorDesc(ACL_FLOAT16, {2, 3, 4}));
  Tensor m(TensorDesc(ACL_FLOAT, {2, 3, 1})), m_bad(TensorDesc(ACL_FLOAT, {2, 2, 1})), w(TensorDesc(ACL_FLOAT, {4}));
  Tensor w3(TensorDesc(ACL_FLOAT, {3})), dx(TensorDesc(ACL_FLOAT, {2, 3, 4}));
  IntArray ns({4}), ns_bad({5});
  bool all[3] = {true, true, true}, two[2] = {true, true};
  aclBoolArray* mask = aclCreateBoolArray(all, 3);
  aclBoolArray* mask2 = aclCreateBoolArray(two, 2);
  auto lnb = [&](aclTensor* g, aclTensor* in, aclIntArray* s, aclTensor* mean, aclTensor* wt, aclBoolArray* mk,
                 aclTensor* o, aclTensor* ow) {
    return [=](uint64_t* ws, aclOpExecutor** e) {
      return aclnnLayerNormBackwardGetWorkspaceSize(g, in, s, mean, mean, wt, nullptr, mk, o, ow, ow, ws, e);
    };
  };
  expect_phase1_error("null gradOut", ACLNN_ERR_PARAM_NULLPTR, "gradOut", lnb(nullptr, x.get(), ns.a, m.get(), w.get(), mask, dx.get(), w.get()));
  expect_phase1_error("null outputMask", ACLNN_ERR_PARAM_NULLPTR, "outputMask", lnb(dy.get(), x.get(), ns.a, m.get(), w.get(), nullptr, dx.get(), w.get()));
  expect_phase1_error("mask true, out null", ACLNN_ERR_PARAM_NULLPTR, "gradInputOut", lnb(dy.get(), x.get(), ns.a, m.get(), w.get(), mask, nullptr, w.get()));
  expect_phase1_error("mask size", ACLNN_ERR_PARAM_INVALID, "outputMask has 2 entries", lnb(dy.get(), x.get(), ns.a, m.get(), w.get(), mask2, dx.get(), w.get()));
  expect_phase1_error("input dtype", ACLNN_ERR_PARAM_INVALID, "input has dtype float16", lnb(dy.get(), x16.get(), ns.a, m.get(), w.get(), mask, dx.get(), w.get()));
  expect_phase1_error("normalizedShape", ACLNN_ERR_PARAM_INVALID, "normalizedShape is [5]", lnb(dy.get(), x.get(), ns_bad.a, m.get(), w.get(), mask, dx.get(), w.get()));
  expect_phase1_error("mean shape", ACLNN_ERR_PARAM_INVALID, "mean has shape [2, 2, 1]", lnb(dy.get(), x.get(), ns.a, m_bad.get(), w.get(), mask, dx.get(), w.get()));
  expect_phase1_error("weight shape", ACLNN_ERR_PARAM_INVALID, "weightOptional has shape [3]", lnb(dy.get(), x.get(), ns.a, m.get(), w3.get(), mask, dx.get(), w.get()));
  expect_phase1_error("RmsNormGrad dgamma shape", ACLNN_ERR_PARAM_INVALID, "dgammaOut has shape", [&](uint64_t* ws, aclOpExecutor** e) {
    return aclnnRmsNormGradGetWorkspaceSize(dy.get(), x.get(), m.get(), w.get(), dx.get(), w3.get(), ws, e);
  });
  expect_phase1_error("RmsNormGrad null rstd", ACLNN_ERR_PARAM_NULLPTR, "rstd", [&](uint64_t* ws, aclOpExecutor** e) {
    return aclnnRmsNormGradGetWorkspaceSize(dy.get(), x.get(), nullptr, w.get(), dx.get(), w.get(), ws, e);
  });
  expect_phase1_error("AddLayerNormGrad x2 dtype", ACLNN_ERR_PARAM_INVALID, "x2 has dtype float16", [&](uint64_t* ws, aclOpExecutor** e) {
    return aclnnAddLayerNormGradGetWorkspaceSize(dy.get(), x.get(), x16.get(), m.get(), m.get(), w.get(), nullptr, dx.get(),
                                                 w.get(), w.get(), ws, e);
  });
  expect_phase1_error("DeepNormGrad gamma shape", ACLNN_ERR_PARAM_INVALID, "gamma has shape [3]", [&](uint64_t* ws, aclOpExecutor** e) {
    return aclnnDeepNormGradGetWorkspaceSize(dy.get(), x.get(), x.get(), w3.get(), m.get(), m.get(), 0.5, dx.get(), dx.get(),
                                             w.get(), w.get(), ws, e);
  });
  aclDestroyBoolArray(mask);
  aclDestroyBoolArray(mask2);
}

}  // namespace
