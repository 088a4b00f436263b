// Row normalisations through the public C API: LayerNorm (+WithImplMode, Fast), AddLayerNorm,
// DeepNorm, RmsNorm, GemmaRmsNorm, AddRmsNorm, InplaceAddRmsNorm.
// Reference: double-precision loops over the host copies, per row of the normalised trailing dims:
//   x = alpha * x1 + x2 + bias (rounded to x1's dtype for the Add ops), mean / var (LayerNorm) or
//   mean 0 / mean(x^2) (RmsNorm), rstd = 1 / sqrt(var + eps), y = (x - mean) * rstd * gamma + beta.
#include <gtest/gtest.h>

#include <optional>

#include "aclnnop/aclnn_add_layer_norm.h"
#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_deep_norm.h"
#include "aclnnop/aclnn_gemma_rms_norm.h"
#include "aclnnop/aclnn_inplace_add_rms_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "norm_test_util.h"

namespace {

using namespace normtest;

enum class Op { kLayerNorm, kLayerNormImpl, kFastLayerNorm, kAddLayerNorm, kDeepNorm, kRmsNorm, kGemmaRmsNorm, kAddRmsNorm, kInplaceAddRmsNorm };
const char* op_name(Op o) {
  switch (o) {
    case Op::kLayerNorm: return "LayerNorm";
    case Op::kLayerNormImpl: return "LayerNormWithImplMode";
    case Op::kFastLayerNorm: return "FastLayerNorm";
    case Op::kAddLayerNorm: return "AddLayerNorm";
    case Op::kDeepNorm: return "DeepNorm";
    case Op::kRmsNorm: return "RmsNorm";
    case Op::kGemmaRmsNorm: return "GemmaRmsNorm";
    case Op::kAddRmsNorm: return "AddRmsNorm";
    default: return "InplaceAddRmsNorm";
  }
}
bool is_layer(Op o) { return o == Op::kLayerNorm || o == Op::kLayerNormImpl || o == Op::kFastLayerNorm; }
bool is_rms(Op o) { return o == Op::kRmsNorm || o == Op::kGemmaRmsNorm || o == Op::kAddRmsNorm || o == Op::kInplaceAddRmsNorm; }
bool rounds_sum(Op o) { return o == Op::kAddLayerNorm || o == Op::kAddRmsNorm || o == Op::kInplaceAddRmsNorm; }

using Opt = std::optional<TensorDesc>;

struct Case {
  Case(Op o, TensorDesc x) : op(o), x1(std::move(x)) {}
  Op op;
  TensorDesc x1;
  Opt x2, bias, gamma, beta, y, xsum, mean, rstd;
  Shape norm_shape;  // LayerNorm's normalizedShape
  double eps = 1e-5, alpha = 1;
  int32_t impl_mode = 0;
  std::string str() const {
    std::string r = std::string(op_name(op)) + " x1=" + x1.str();
    auto add = [&](const char* n, const Opt& d) {
      if (d) r += std::string(" ") + n + "=" + d->str();
    };
    add("x2", x2);
    add("bias", bias);
    add("gamma", gamma);
    add("beta", beta);
    add("y", y);
    add("xsum", xsum);
    add("mean", mean);
    add("rstd", rstd);
    if (is_layer(op)) r += " normalizedShape=" + shape_str(norm_shape);
    char buf[96];
    std::snprintf(buf, sizeof buf, " eps=%g alpha=%g implMode=%d", eps, alpha, impl_mode);
    return r + buf;
  }
};

struct Tensors {
  std::unique_ptr<Tensor> x1, x2, bias, gamma, beta, y, xsum, mean, rstd;
};
aclTensor* get(const std::unique_ptr<Tensor>& t) { return t ? t->get() : nullptr; }

aclnnStatus call(const Case& c, Tensors& t) {
  IntArray ns(c.norm_shape);
  auto p1 = [&](uint64_t* w, aclOpExecutor** e) -> aclnnStatus {
    switch (c.op) {
      case Op::kLayerNorm:
        return aclnnLayerNormGetWorkspaceSize(get(t.x1), ns.a, get(t.gamma), get(t.beta), c.eps, get(t.y), get(t.mean),
                                              get(t.rstd), w, e);
      case Op::kLayerNormImpl:
        return aclnnLayerNormWithImplModeGetWorkspaceSize(get(t.x1), ns.a, get(t.gamma), get(t.beta), c.eps, get(t.y),
                                                          get(t.mean), get(t.rstd), c.impl_mode, w, e);
      case Op::kFastLayerNorm:
        return aclnnFastLayerNormGetWorkspaceSize(get(t.x1), ns.a, get(t.gamma), get(t.beta), c.eps, get(t.y),
                                                  get(t.mean), get(t.rstd), w, e);
      case Op::kAddLayerNorm:
        return aclnnAddLayerNormGetWorkspaceSize(get(t.x1), get(t.x2), get(t.gamma), get(t.beta), get(t.bias), c.eps,
                                                 t.xsum != nullptr, get(t.y), get(t.mean), get(t.rstd), get(t.xsum), w, e);
      case Op::kDeepNorm:
        return aclnnDeepNormGetWorkspaceSize(get(t.x1), get(t.x2), get(t.beta), get(t.gamma), c.alpha, c.eps,
                                             get(t.mean), get(t.rstd), get(t.y), w, e);
      case Op::kRmsNorm:
        return aclnnRmsNormGetWorkspaceSize(get(t.x1), get(t.gamma), c.eps, get(t.y), get(t.rstd), w, e);
      case Op::kGemmaRmsNorm:
        return aclnnGemmaRmsNormGetWorkspaceSize(get(t.x1), get(t.gamma), c.eps, get(t.y), get(t.rstd), w, e);
      case Op::kAddRmsNorm:
        return aclnnAddRmsNormGetWorkspaceSize(get(t.x1), get(t.x2), get(t.gamma), c.eps, get(t.y), get(t.rstd),
                                               get(t.xsum), w, e);
      default:
        return aclnnInplaceAddRmsNormGetWorkspaceSize(get(t.x1), get(t.x2), get(t.gamma), c.eps, get(t.rstd), w, e);
    }
  };
  Phase2Fn p2 = nullptr;
  switch (c.op) {
    case Op::kLayerNorm: p2 = aclnnLayerNorm; break;
    case Op::kLayerNormImpl: p2 = aclnnLayerNormWithImplMode; break;
    case Op::kFastLayerNorm: p2 = aclnnFastLayerNorm; break;
    case Op::kAddLayerNorm: p2 = aclnnAddLayerNorm; break;
    case Op::kDeepNorm: p2 = aclnnDeepNorm; break;
    case Op::kRmsNorm: p2 = aclnnRmsNorm; break;
    case Op::kGemmaRmsNorm: p2 = aclnnGemmaRmsNorm; break;
    case Op::kAddRmsNorm: p2 = aclnnAddRmsNorm; break;
    default: p2 = aclnnInplaceAddRmsNorm; break;
  }
  return run_two_phase(p1, p2);
}

// Number of trailing dims of x the op normalises over.
int64_t norm_dims(const Case& c) {
  if (is_layer(c.op)) return static_cast<int64_t>(c.norm_shape.size());
  Shape g = c.gamma->shape;
  const Shape& x = c.x1.shape;
  auto matches = [&](const Shape& s) {
    return s.size() <= x.size() && std::equal(s.begin(), s.end(), x.end() - static_cast<std::ptrdiff_t>(s.size()));
  };
  while (!matches(g) && !g.empty() && g.front() == 1) g.erase(g.begin());
  return static_cast<int64_t>(g.size());
}

struct Ref {
  std::vector<double> y, ys, xsum, xs_scale, mean, mean_scale, rstd;
};

Ref reference(const Case& c, const Tensors& t) {
  const Shape& shape = c.x1.shape;
  const int64_t nd = norm_dims(c);
  int64_t rows = 1, cols = 1;
  for (size_t k = 0; k < shape.size(); ++k) (static_cast<int64_t>(k) < static_cast<int64_t>(shape.size()) - nd ? rows : cols) *= shape[k];
  const std::vector<double> x1 = dense_values(*t.x1);
  const std::vector<double> x2 = t.x2 ? dense_values(*t.x2) : std::vector<double>();
  const std::vector<double> bias = t.bias ? dense_values(*t.bias) : std::vector<double>();
  const std::vector<double> g = t.gamma ? dense_values(*t.gamma) : std::vector<double>();
  const std::vector<double> b = t.beta ? dense_values(*t.beta) : std::vector<double>();
  const bool bias_full = t.bias && static_cast<int64_t>(bias.size()) != cols;
  Ref r;
  r.y.resize(x1.size());
  r.ys.resize(x1.size());
  r.xsum.resize(x1.size());
  r.xs_scale.resize(x1.size());
  for (int64_t row = 0; row < rows; ++row) {
    std::vector<double> x(static_cast<size_t>(cols));
    for (int64_t j = 0; j < cols; ++j) {
      const size_t k = static_cast<size_t>(row * cols + j);
      double v = x1[k];
      double s = std::fabs(v);
      if (t.x2) {
        v = c.alpha * v + x2[k];
        s = std::fabs(c.alpha * x1[k]) + std::fabs(x2[k]);
        if (t.bias) {
          const double bb = bias[bias_full ? k : static_cast<size_t>(j)];
          v += bb;
          s += std::fabs(bb);
        }
        if (rounds_sum(c.op)) v = cast(Num::real(v), c.x1.dtype).f;
      }
      x[static_cast<size_t>(j)] = v;
      r.xsum[k] = v;
      r.xs_scale[k] = s;
    }
    double mean = 0, var = 0, mabs = 0;
    if (is_rms(c.op)) {
      for (double v : x) var += v * v;
      var /= static_cast<double>(cols);
    } else {
      for (double v : x) {
        mean += v;
        mabs += std::fabs(v);
      }
      mean /= static_cast<double>(cols);
      mabs /= static_cast<double>(cols);
      for (double v : x) var += (v - mean) * (v - mean);
      var /= static_cast<double>(cols);
    }
    const double rstd = cols == 0 ? NAN : 1 / std::sqrt(var + c.eps);
    r.mean.push_back(cols == 0 ? 0 : mean);
    r.mean_scale.push_back(mabs);
    r.rstd.push_back(rstd);
    for (int64_t j = 0; j < cols; ++j) {
      const size_t k = static_cast<size_t>(row * cols + j);
      double gj = t.gamma ? g[static_cast<size_t>(j)] : 1;
      if (c.op == Op::kGemmaRmsNorm) gj += 1;
      const double bj = t.beta ? b[static_cast<size_t>(j)] : 0;
      const double v = x[static_cast<size_t>(j)];
      r.y[k] = (v - mean) * rstd * gj + bj;
      r.ys[k] = (std::fabs(v) + std::fabs(mean)) * rstd * std::fabs(gj) +
                std::fabs(bj);
    }
  }
  return r;
}

void check_case(Rng& rng, const Case& c, const std::vector<double>* pool = nullptr) {
  const std::string r = c.str();
  Tensors t;
  auto make = [&](const Opt& d, std::unique_ptr<Tensor>* dst, double lo, double hi) {
    if (!d) return;
    *dst = std::make_unique<Tensor>(*d);
    if (pool) fill_from(**dst, rng, *pool);
    else fill_uniform(**dst, rng, lo, hi);
  };
  t.x1 = std::make_unique<Tensor>(c.x1);
  if (pool) fill_from(*t.x1, rng, *pool);
  else fill_uniform(*t.x1, rng, -4, 4);
  make(c.x2, &t.x2, -4, 4);
  make(c.bias, &t.bias, -1, 1);
  make(c.gamma, &t.gamma, -2, 2);
  make(c.beta, &t.beta, -1, 1);
  make(c.y, &t.y, -1, 1);
  make(c.xsum, &t.xsum, -1, 1);
  make(c.mean, &t.mean, -1, 1);
  make(c.rstd, &t.rstd, -1, 1);
  const Ref ref = reference(c, t);  // from the inputs, before the op (in-place ops overwrite them)
  const bool inplace = c.op == Op::kInplaceAddRmsNorm;
  std::vector<uint8_t> before_y = inplace ? t.x1->host() : t.y->host();
  ASSERT_EQ(call(c, t), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  Tensor& y = inplace ? *t.x1 : *t.y;
  y.download();
  const aclDataType ct = compute_of(c.x1.dtype);
  expect_close(r, "y", y, ref.y, ref.ys, {ct, y.desc().dtype, c.gamma ? c.gamma->dtype : ct}, 4);
  EXPECT_EQ(writes_outside_view(y, before_y), "") << r << ": wrote outside y";
  Tensor* xs = inplace ? t.x2.get() : t.xsum.get();
  if (xs) {
    xs->download();
    expect_close(r, "x", *xs, ref.xsum, ref.xs_scale, {ct, xs->desc().dtype});
  }
  if (t.mean) {
    t.mean->download();
    expect_close(r, "mean", *t.mean, ref.mean, ref.mean_scale, {ct, t.mean->desc().dtype});
  }
  if (t.rstd) {
    t.rstd->download();
    std::vector<double> scale(ref.rstd.size());
    const double n = static_cast<double>(numel(c.x1.shape) / std::max<int64_t>(1, static_cast<int64_t>(ref.rstd.size())));
    for (size_t i = 0; i < scale.size(); ++i) scale[i] = std::fabs(ref.rstd[i]) * (1 + std::sqrt(n));
    expect_close(r, "rstd", *t.rstd, ref.rstd, scale, {ct, t.rstd->desc().dtype});
  }
}

const std::vector<aclDataType> kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

Case random_case(Rng& rng, Op op, aclDataType t) {
  const int min_rank = op == Op::kDeepNorm ? 2 : 1;
  const int rank = min_rank + static_cast<int>(rng() % static_cast<uint64_t>(5 - min_rank));
  Shape shape(static_cast<size_t>(rank));
  for (auto& s : shape) s = static_cast<int64_t>(rng() % 4) + 1;
  shape.back() = static_cast<int64_t>(rng() % 3 == 0 ? rng() % 150 + 20 : rng() % 8 + 1);
  const int nd = 1 + static_cast<int>(rng() % static_cast<uint64_t>(rank));
  const Shape ns(shape.end() - nd, shape.end());
  Shape stat(shape.begin(), shape.end() - nd);
  if (rng() % 4) stat.resize(shape.size(), 1);  // CANN's [A..., 1...]; else just [A...]
  const aclDataType pt = (rng() % 3 == 0 && op != Op::kDeepNorm && op != Op::kGemmaRmsNorm) ? ACL_FLOAT : t;  // gamma
  auto other = [&](aclDataType d) { return rng() % 5 == 0 ? kTypes[rng() % 4] : d; };
  Case c{op, random_view(rng, t, shape)};
  c.eps = std::vector<double>{1e-5, 1e-6, 0.1}[rng() % 3];
  switch (op) {
    case Op::kLayerNorm:
    case Op::kLayerNormImpl:
    case Op::kFastLayerNorm:
      c.norm_shape = ns;
      if (rng() % 4) c.gamma = TensorDesc(pt, ns);
      if (rng() % 4) c.beta = TensorDesc(c.gamma ? pt : (rng() % 2 ? ACL_FLOAT : t), ns);
      if (c.gamma && c.beta) c.beta->dtype = c.gamma->dtype;
      c.y = random_view(rng, other(t), shape);
      if (rng() % 3) c.mean = TensorDesc(other(t), stat);
      if (rng() % 3) c.rstd = TensorDesc(other(ACL_FLOAT), stat);
      if (op == Op::kLayerNormImpl) c.impl_mode = static_cast<int32_t>(rng() % 2);
      break;
    case Op::kAddLayerNorm:
      c.x2 = random_view(rng, t, shape);
      c.gamma = TensorDesc(pt, ns);
      c.beta = TensorDesc(pt, ns);
      if (rng() % 2) c.bias = TensorDesc(t, rng() % 2 ? ns : shape);
      c.y = random_view(rng, t, shape);
      if (rng() % 2) c.xsum = random_view(rng, t, shape);
      c.mean = TensorDesc(ACL_FLOAT, stat);
      c.rstd = TensorDesc(ACL_FLOAT, stat);
      break;
    case Op::kDeepNorm:
      c.x2 = random_view(rng, t, shape);
      c.gamma = TensorDesc(t, ns);
      c.beta = TensorDesc(t, ns);
      c.alpha = std::vector<double>{0.3, 1, 2.5}[rng() % 3];
      c.y = random_view(rng, t, shape);
      c.mean = TensorDesc(ACL_FLOAT, stat);
      c.rstd = TensorDesc(ACL_FLOAT, stat);
      break;
    case Op::kRmsNorm:
    case Op::kGemmaRmsNorm:
      c.gamma = TensorDesc(pt, ns);
      c.y = random_view(rng, other(t), shape);
      if (rng() % 4) c.rstd = TensorDesc(ACL_FLOAT, stat);
      break;
    case Op::kAddRmsNorm:
    case Op::kInplaceAddRmsNorm: {
      c.x2 = random_view(rng, t, shape);
      Shape gs = ns;
      if (nd == 1 && rank >= 2 && rng() % 3 == 0) gs.insert(gs.begin(), 1);  // CANN's [1, D] form
      c.gamma = TensorDesc(pt, gs);
      if (op == Op::kAddRmsNorm) {
        c.y = random_view(rng, t, shape);
        if (rng() % 3) {
          c.rstd = TensorDesc(ACL_FLOAT, stat);
          c.xsum = random_view(rng, t, shape);
        } else if (rng() % 2) {
          c.xsum = random_view(rng, t, shape);
        }
      } else {
        c.rstd = TensorDesc(ACL_FLOAT, stat);
      }
      break;
    }
  }
  return c;
}

void sweep(Op op, uint64_t s, int iters = 48) {
  Rng rng(seed(s));
  for (int i = 0; i < iters; ++i) {
    check_case(rng, random_case(rng, op, kTypes[static_cast<size_t>(i) % 4]));
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(LayerNorm, RandomShapesDtypesStrides) { sweep(Op::kLayerNorm, 11); }
TEST(LayerNormWithImplMode, RandomShapesDtypesStrides) { sweep(Op::kLayerNormImpl, 12, 16); }
TEST(FastLayerNorm, RandomShapesDtypesStrides) { sweep(Op::kFastLayerNorm, 13, 16); }
TEST(AddLayerNorm, RandomShapesDtypesStrides) { sweep(Op::kAddLayerNorm, 14); }
TEST(DeepNorm, RandomShapesDtypesStrides) { sweep(Op::kDeepNorm, 15); }
TEST(RmsNorm, RandomShapesDtypesStrides) { sweep(Op::kRmsNorm, 16); }
TEST(GemmaRmsNorm, RandomShapesDtypesStrides) { sweep(Op::kGemmaRmsNorm, 17, 24); }
TEST(AddRmsNorm, RandomShapesDtypesStrides) { sweep(Op::kAddRmsNorm, 18); }
TEST(InplaceAddRmsNorm, RandomShapesDtypesStrides) { sweep(Op::kInplaceAddRmsNorm, 19); }

TEST(LayerNorm, SpecialValues) {
  Rng rng(seed(20));
  const std::vector<double> pool = {NAN, HUGE_VAL, -HUGE_VAL, 0.0, -0.0, 1, -1, 2.5, 3, -3, 0.5, 1, 2, 4, -2};
  for (Op op : {Op::kLayerNorm, Op::kRmsNorm, Op::kAddRmsNorm, Op::kAddLayerNorm, Op::kDeepNorm})
    for (aclDataType t : kTypes)
      for (int i = 0; i < 4; ++i) {
        check_case(rng, random_case(rng, op, t), &pool);
        if (HasFailure()) return;
      }
}

TEST(LayerNorm, LargeRowsUseThreads) {
  Rng rng(seed(21));
  Case c{Op::kLayerNorm, TensorDesc(ACL_FLOAT, {96, 1000})};
  c.norm_shape = {1000};
  c.gamma = TensorDesc(ACL_FLOAT, {1000});
  c.beta = TensorDesc(ACL_FLOAT, {1000});
  c.y = TensorDesc(ACL_FLOAT, {96, 1000});
  c.mean = TensorDesc(ACL_FLOAT, {96, 1});
  c.rstd = TensorDesc(ACL_FLOAT, {96, 1});
  check_case(rng, c);
  Case r{Op::kRmsNorm, TensorDesc(ACL_FLOAT, {96, 1000})};
  r.gamma = TensorDesc(ACL_FLOAT, {1000});
  r.y = TensorDesc(ACL_FLOAT, {96, 1000});
  r.rstd = TensorDesc(ACL_FLOAT, {96, 1});
  check_case(rng, r);
}

TEST(LayerNorm, EmptyShapes) {
  Rng rng(seed(22));
  // No rows: nothing to do.
  Case c{Op::kLayerNorm, TensorDesc(ACL_FLOAT, {0, 4})};
  c.norm_shape = {4};
  c.y = TensorDesc(ACL_FLOAT, {0, 4});
  c.mean = TensorDesc(ACL_FLOAT, {0, 1});
  c.rstd = TensorDesc(ACL_FLOAT, {0, 1});
  check_case(rng, c);
  // Empty rows: mean 0, rstd NaN (as CANN).
  Case e{Op::kLayerNorm, TensorDesc(ACL_FLOAT, {3, 0})};
  e.norm_shape = {0};
  e.y = TensorDesc(ACL_FLOAT, {3, 0});
  e.mean = TensorDesc(ACL_FLOAT, {3, 1});
  e.rstd = TensorDesc(ACL_FLOAT, {3, 1});
  check_case(rng, e);
}

TEST(LayerNorm, OutAliasesInput) {
  Rng rng(seed(23));
  Tensor x(TensorDesc(ACL_FLOAT, {4, 33}));
  fill_uniform(x, rng, -3, 3);
  const std::vector<double> v = dense_values(x);
  IntArray ns({33});
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnLayerNormGetWorkspaceSize(x.get(), ns.a, nullptr, nullptr, 1e-5, x.get(), nullptr, nullptr, w, e);
            }, aclnnLayerNorm),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  x.download();
  for (int64_t i = 0; i < 4; ++i) {
    double m = 0, var = 0;
    for (int64_t j = 0; j < 33; ++j) m += v[static_cast<size_t>(i * 33 + j)] / 33;
    for (int64_t j = 0; j < 33; ++j) var += std::pow(v[static_cast<size_t>(i * 33 + j)] - m, 2) / 33;
    for (int64_t j = 0; j < 33; ++j)
      EXPECT_NEAR(x.at({i, j}).f, (v[static_cast<size_t>(i * 33 + j)] - m) / std::sqrt(var + 1e-5), 1e-5);
  }
}

TEST(LayerNorm, BadArguments) {
  Tensor x(TensorDesc(ACL_FLOAT, {2, 3, 4})), out(TensorDesc(ACL_FLOAT, {2, 3, 4}));
  Tensor w(TensorDesc(ACL_FLOAT, {4})), w16(TensorDesc(ACL_FLOAT16, {4})), w3(TensorDesc(ACL_FLOAT, {3}));
  Tensor xi(TensorDesc(ACL_INT32, {2, 3, 4})), x16(TensorDesc(ACL_FLOAT16, {2, 3, 4}));
  Tensor mean(TensorDesc(ACL_FLOAT, {2, 3, 1})), mean_bad(TensorDesc(ACL_FLOAT, {2, 1, 1}));
  IntArray ns({4}), ns_bad({3}), ns_empty({}), ns_long({1, 2, 3, 4});
  auto ln = [](aclTensor* in, aclIntArray* s, aclTensor* wt, aclTensor* b, aclTensor* o, aclTensor* m, int32_t mode = -1) {
    return [=](uint64_t* ws, aclOpExecutor** e) {
      if (mode >= 0) return aclnnLayerNormWithImplModeGetWorkspaceSize(in, s, wt, b, 1e-5, o, m, nullptr, mode, ws, e);
      return aclnnLayerNormGetWorkspaceSize(in, s, wt, b, 1e-5, o, m, nullptr, ws, e);
    };
  };
  expect_phase1_error("LayerNorm null input", ACLNN_ERR_PARAM_NULLPTR, "input", ln(nullptr, ns.a, w.get(), nullptr, out.get(), nullptr));
  expect_phase1_error("LayerNorm null normalizedShape", ACLNN_ERR_PARAM_NULLPTR, "normalizedShape",
                      ln(x.get(), nullptr, w.get(), nullptr, out.get(), nullptr));
  expect_phase1_error("LayerNorm null out", ACLNN_ERR_PARAM_NULLPTR, "out", ln(x.get(), ns.a, w.get(), nullptr, nullptr, nullptr));
  expect_phase1_error("LayerNorm int input", ACLNN_ERR_PARAM_INVALID, "input dtype int32",
                      ln(xi.get(), ns.a, nullptr, nullptr, out.get(), nullptr));
  expect_phase1_error("LayerNorm weight dtype", ACLNN_ERR_PARAM_INVALID, "weightOptional has dtype float16",
                      ln(x.get(), ns.a, w16.get(), nullptr, out.get(), nullptr));
  expect_phase1_error("LayerNorm weight/bias dtypes", ACLNN_ERR_PARAM_INVALID, "biasOptional has dtype float32",
                      ln(x16.get(), ns.a, w16.get(), w.get(), x16.get(), nullptr));
  expect_phase1_error("LayerNorm normalizedShape", ACLNN_ERR_PARAM_INVALID, "normalizedShape is [3]",
                      ln(x.get(), ns_bad.a, nullptr, nullptr, out.get(), nullptr));
  expect_phase1_error("LayerNorm normalizedShape empty", ACLNN_ERR_PARAM_INVALID, "normalizedShape is empty",
                      ln(x.get(), ns_empty.a, nullptr, nullptr, out.get(), nullptr));
  expect_phase1_error("LayerNorm normalizedShape long", ACLNN_ERR_PARAM_INVALID, "normalizedShape has 4 dims",
                      ln(x.get(), ns_long.a, nullptr, nullptr, out.get(), nullptr));
  expect_phase1_error("LayerNorm weight shape", ACLNN_ERR_PARAM_INVALID, "weightOptional has shape [3]",
                      ln(x.get(), ns.a, w3.get(), nullptr, out.get(), nullptr));
  expect_phase1_error("LayerNorm out shape", ACLNN_ERR_PARAM_INVALID, "out has shape",
                      ln(x.get(), ns.a, nullptr, nullptr, mean.get(), nullptr));
  expect_phase1_error("LayerNorm mean shape", ACLNN_ERR_PARAM_INVALID, "meanOutOptional has shape [2, 1, 1]",
                      ln(x.get(), ns.a, nullptr, nullptr, out.get(), mean_bad.get()));
  expect_phase1_error("LayerNorm implMode 3", ACLNN_ERR_PARAM_INVALID, "implMode is 3",
                      ln(x.get(), ns.a, nullptr, nullptr, out.get(), nullptr, 3));
  expect_phase1_error("LayerNorm implMode 2 float32", ACLNN_ERR_PARAM_INVALID, "implMode 2",
                      ln(x.get(), ns.a, nullptr, nullptr, out.get(), nullptr, 2));
}

TEST(RmsNorm, BadArguments) {
  Tensor x(TensorDesc(ACL_FLOAT, {2, 3, 4})), y(TensorDesc(ACL_FLOAT, {2, 3, 4})), g(TensorDesc(ACL_FLOAT, {4}));
  Tensor g3(TensorDesc(ACL_FLOAT, {3})), g16(TensorDesc(ACL_FLOAT16, {4})), x16(TensorDesc(ACL_FLOAT16, {2, 3, 4}));
  Tensor rstd(TensorDesc(ACL_FLOAT, {2, 3, 1})), rstd_bad(TensorDesc(ACL_FLOAT, {2, 3, 2})), xi(TensorDesc(ACL_INT32, {2, 3, 4}));
  auto rms = [](aclTensor* a, aclTensor* gm, aclTensor* o, aclTensor* r) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnRmsNormGetWorkspaceSize(a, gm, 1e-6, o, r, w, e); };
  };
  auto add = [](aclTensor* a, aclTensor* b, aclTensor* gm, aclTensor* o, aclTensor* r, aclTensor* xo) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnAddRmsNormGetWorkspaceSize(a, b, gm, 1e-6, o, r, xo, w, e); };
  };
  expect_phase1_error("RmsNorm null x", ACLNN_ERR_PARAM_NULLPTR, "x", rms(nullptr, g.get(), y.get(), rstd.get()));
  expect_phase1_error("RmsNorm null gamma", ACLNN_ERR_PARAM_NULLPTR, "gamma", rms(x.get(), nullptr, y.get(), rstd.get()));
  expect_phase1_error("RmsNorm null y", ACLNN_ERR_PARAM_NULLPTR, "yOut", rms(x.get(), g.get(), nullptr, rstd.get()));
  expect_phase1_error("RmsNorm int x", ACLNN_ERR_PARAM_INVALID, "x dtype int32", rms(xi.get(), g.get(), y.get(), rstd.get()));
  expect_phase1_error("RmsNorm gamma dtype", ACLNN_ERR_PARAM_INVALID, "gamma has dtype float16",
                      rms(x.get(), g16.get(), y.get(), rstd.get()));
  expect_phase1_error("RmsNorm gamma shape", ACLNN_ERR_PARAM_INVALID, "gamma's shape is [3]",
                      rms(x.get(), g3.get(), y.get(), rstd.get()));
  expect_phase1_error("RmsNorm y shape", ACLNN_ERR_PARAM_INVALID, "yOut has shape", rms(x.get(), g.get(), rstd.get(), rstd.get()));
  expect_phase1_error("RmsNorm rstd shape", ACLNN_ERR_PARAM_INVALID, "rstdOut has shape [2, 3, 2]",
                      rms(x.get(), g.get(), y.get(), rstd_bad.get()));
  expect_phase1_error("AddRmsNorm rstd without xOut", ACLNN_ERR_PARAM_NULLPTR, "xOut",
                      add(x.get(), x.get(), g.get(), y.get(), rstd.get(), nullptr));
  expect_phase1_error("AddRmsNorm x2 dtype", ACLNN_ERR_PARAM_INVALID, "x2 has dtype float16",
                      add(x.get(), x16.get(), g.get(), y.get(), rstd.get(), y.get()));
  expect_phase1_error("AddRmsNorm x2 shape", ACLNN_ERR_PARAM_INVALID, "x2 has shape",
                      add(x.get(), rstd.get(), g.get(), y.get(), rstd.get(), y.get()));
  expect_phase1_error("InplaceAddRmsNorm null x2Ref", ACLNN_ERR_PARAM_NULLPTR, "x2Ref", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnInplaceAddRmsNormGetWorkspaceSize(x.get(), nullptr, g.get(), 1e-6, rstd.get(), w, e);
  });
  expect_phase1_error("AddLayerNorm beta shape", ACLNN_ERR_PARAM_INVALID, "beta has shape", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnAddLayerNormGetWorkspaceSize(x.get(), x.get(), g.get(), g3.get(), nullptr, 1e-5, false, y.get(), rstd.get(),
                                             rstd.get(), nullptr, w, e);
  });
  expect_phase1_error("DeepNorm gx dtype", ACLNN_ERR_PARAM_INVALID, "gx has dtype float16", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnDeepNormGetWorkspaceSize(x.get(), x16.get(), g.get(), g.get(), 0.5, 1e-5, rstd.get(), rstd.get(), y.get(), w, e);
  });
}

}  // namespace

namespace {

// Outputs of 8 MiB and more take the streaming-store path: plain loops over raw host arrays.
TEST(LayerNorm, LargeOutputsStreamed) {
  constexpr int64_t R = 512, C = 4096;
  Rng rng(seed(24));
  Tensor x(TensorDesc(ACL_FLOAT, {R, C})), y(TensorDesc(ACL_FLOAT, {R, C})), g(TensorDesc(ACL_FLOAT, {C}));
  Tensor b(TensorDesc(ACL_FLOAT, {C})), rstd(TensorDesc(ACL_FLOAT, {R, 1}));
  fill_uniform_f32(x, rng, -3, 5);
  fill_uniform_f32(g, rng, -2, 2);
  fill_uniform_f32(b, rng, -1, 1);
  IntArray ns({C});
  const float* xv = reinterpret_cast<const float*>(x.host().data());
  const float* gv = reinterpret_cast<const float*>(g.host().data());
  const float* bv = reinterpret_cast<const float*>(b.host().data());
  for (bool rms : {false, true}) {
    ASSERT_EQ(run_two_phase(
                  [&](uint64_t* w, aclOpExecutor** e) {
                    return rms ? aclnnRmsNormGetWorkspaceSize(x.get(), g.get(), 1e-6, y.get(), rstd.get(), w, e)
                               : aclnnLayerNormGetWorkspaceSize(x.get(), ns.a, g.get(), b.get(), 1e-5, y.get(), nullptr,
                                                                rstd.get(), w, e);
                  },
                  rms ? aclnnRmsNorm : aclnnLayerNorm),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    y.download();
    const float* o = reinterpret_cast<const float*>(y.host().data());
    int bad = 0;
    for (int64_t r = 0; r < R && bad < 3; r += (r % 64 == 63 ? 1 : 7)) {  // a sample of the rows
      const float* xr = xv + r * C;
      double mean = 0, var = 0;
      if (!rms) {
        for (int64_t j = 0; j < C; ++j) mean += xr[j];
        mean /= C;
      }
      for (int64_t j = 0; j < C; ++j) var += (xr[j] - mean) * (xr[j] - mean);
      var /= C;
      const double rs = 1 / std::sqrt(var + (rms ? 1e-6 : 1e-5));
      for (int64_t j = 0; j < C; ++j) {
        const double want = (xr[j] - mean) * rs * gv[j] + (rms ? 0 : bv[j]);
        const double got = o[r * C + j];
        if (!(std::fabs(got - want) <= 1e-5 * (1 + std::fabs(want))) && bad++ < 3)
          ADD_FAILURE() << (rms ? "RmsNorm" : "LayerNorm") << " float32[512,4096]: element [" << r << "," << j
                        << "] is " << got << ", expected " << want;
      }
    }
  }
}

}  // namespace
