// GroupNorm (+Silu, SiluV2, Swish), GroupNormBackward, GroupNormSwishGrad and InstanceNorm.
// A GroupNorm problem is N * G rows (sample n, group g) of L = Cg * S contiguous values (Cg = C / G
// channels of S = HxW values each, the input seen as dense [N, C, S]); per row
//   mean, var (two passes), rstd = 1 / sqrt(var + eps),
//   y = (x - mean) * rstd * gamma[c] + beta[c], then optionally y / (1 + exp(-scale * y)) (Silu: 1).
// The backward, per row with xhat = (x - mean) * rstd and dy' = dy (Swish: dy * swish'(y)):
//   A = sum(dy' * gamma[c]), B = sum(dy' * gamma[c] * xhat),
//   dx = rstd * (dy' * gamma[c] - (A + xhat * B) / L),
//   dgamma[c] = sum over n, s of dy' * xhat, dbeta[c] = sum of dy' (per-thread partials, added up).
// InstanceNorm normalises each (n, c) over H*W: NCHW rows, or NHWC columns (rows::Layout).
// float16/bfloat16 compute in float32.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_group_norm_backward.h"
#include "aclnnop/aclnn_group_norm_silu.h"
#include "aclnnop/aclnn_group_norm_swish.h"
#include "aclnnop/aclnn_group_norm_swish_grad.h"
#include "aclnnop/aclnn_instance_norm.h"
#include "core/dense.h"
#include "core/parallel.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/norm_rows.h"
#include "ops/registry.h"
#include "ops/row_norm.h"

namespace pacl {
namespace {

using rows::kColBlock;

struct GroupShape {
  int64_t n = 0, c = 0, s = 1, g = 1;
  int64_t cg() const { return c / g; }
  int64_t row() const { return cg() * s; }
};

template <typename T>
struct GroupFwd {
  const T *x, *gamma, *beta;
  T *y, *mean, *rstd;
  T eps, scale;  // scale: swish scale (activation when act)
  bool act;
};

template <typename T>
inline T swish(T v, T s) {
  return v / (T(1) + std::exp(-s * v));
}

template <typename T>
void group_norm_forward(const GroupFwd<T>& a, const GroupShape& sh) {
  const int64_t L = sh.row(), S = sh.s, Cg = sh.cg(), G = sh.g;
  rows::for_tasks(sh.n * G, L, [&](int64_t begin, int64_t end, int) {
    for (int64_t r = begin; r < end; ++r) {
      const T* xr = a.x + r * L;
      T* yr = a.y + r * L;
      T m, v;
      rows::mean_var(xr, L, &m, &v);
      const T rs = T(1) / std::sqrt(v + a.eps);
      if (a.mean) a.mean[r] = m;
      if (a.rstd) a.rstd[r] = rs;
      const int64_t c0 = (r % G) * Cg;
      for (int64_t k = 0; k < Cg; ++k) {
        const T gs = rs * (a.gamma ? a.gamma[c0 + k] : T(1)), b = a.beta ? a.beta[c0 + k] : T(0);
        const T* xs = xr + k * S;
        T* ys = yr + k * S;
        if (a.act) {
          const T sc = a.scale;
          for (int64_t i = 0; i < S; ++i) ys[i] = swish((xs[i] - m) * gs + b, sc);
        } else {
          for (int64_t i = 0; i < S; ++i) ys[i] = (xs[i] - m) * gs + b;
        }
      }
    }
  });
}

template <typename T>
struct GroupBwd {
  const T *dy, *x, *mean, *rstd, *gamma, *beta;
  T *dx, *dgamma, *dbeta;
  T* dybuf;  // per-thread row (swish)
  T* acc;    // per-thread [2][C]
  T scale;
  bool swish;
};

template <typename T>
void group_norm_backward(const GroupBwd<T>& a, const GroupShape& sh) {
  const int64_t L = sh.row(), S = sh.s, Cg = sh.cg(), G = sh.g, C = sh.c;
  const bool columns = a.dgamma || a.dbeta;
  const int threads = max_threads();
  if (columns)
    for (int64_t k = 0; k < static_cast<int64_t>(threads) * 2 * C; ++k) a.acc[k] = 0;
  rows::for_tasks(sh.n * G, L, [&](int64_t begin, int64_t end, int thread) {
    T* dg = columns ? a.acc + static_cast<int64_t>(thread) * 2 * C : nullptr;
    T* db = columns ? dg + C : nullptr;
    for (int64_t r = begin; r < end; ++r) {
      const T* xr = a.x + r * L;
      const T* dyr = a.dy + r * L;
      const T m = a.mean[r], rs = a.rstd[r];
      const int64_t c0 = (r % G) * Cg;
      if (a.swish) {  // dy' = dy * swish'(y), y the GroupNorm output
        T* d = a.dybuf + static_cast<int64_t>(thread) * L;
        const T sc = a.scale;
        for (int64_t k = 0; k < Cg; ++k) {
          const T gk = a.gamma ? a.gamma[c0 + k] : T(1), bk = a.beta ? a.beta[c0 + k] : T(0);
          const T* xs = xr + k * S;
          const T* dys = dyr + k * S;
          T* ds = d + k * S;
          for (int64_t i = 0; i < S; ++i) {
            const T y = (xs[i] - m) * rs * gk + bk;
            const T sg = T(1) / (T(1) + std::exp(-sc * y));
            ds[i] = dys[i] * sg * (T(1) + sc * y * (T(1) - sg));
          }
        }
        dyr = d;
      }
      T A = 0, B = 0;
      for (int64_t k = 0; k < Cg; ++k) {
        const T* xs = xr + k * S;
        const T* dys = dyr + k * S;
        const T sdy = rows::sum<T>(S, [dys](int64_t i) { return dys[i]; });
        const T sdyx = rows::sum<T>(S, [=](int64_t i) { return dys[i] * ((xs[i] - m) * rs); });
        const T gk = a.gamma ? a.gamma[c0 + k] : T(1);
        A += gk * sdy;
        B += gk * sdyx;
        if (columns) {
          dg[c0 + k] += sdyx;
          db[c0 + k] += sdy;
        }
      }
      if (!a.dx) continue;
      const T ca = A / static_cast<T>(L), cb = B / static_cast<T>(L);
      for (int64_t k = 0; k < Cg; ++k) {
        const T gk = a.gamma ? a.gamma[c0 + k] : T(1);
        const T* xs = xr + k * S;
        const T* dys = dyr + k * S;
        T* dxs = a.dx + r * L + k * S;
        for (int64_t i = 0; i < S; ++i) dxs[i] = rs * (dys[i] * gk - (ca + ((xs[i] - m) * rs) * cb));
      }
    }
  });
  if (!columns) return;
  for (int64_t c = 0; c < C; ++c) {
    T sg = 0, sd = 0;
    for (int t = 0; t < threads; ++t) {
      sg += a.acc[static_cast<int64_t>(t) * 2 * C + c];
      sd += a.acc[static_cast<int64_t>(t) * 2 * C + C + c];
    }
    if (a.dgamma) a.dgamma[c] = sg;
    if (a.dbeta) a.dbeta[c] = sd;
  }
}

void check_param(const OpInfo& op, const aclTensor& t, const char* name, DType x, const char* x_name, int64_t c) {
  check_dtype_in(op, name, t.dtype, kFloatingTypes);
  if (t.dtype != x && t.dtype != DType::kFloat)
    invalid("{} has dtype {}, expected the dtype of {} ({}) or float32", name, dtype_name(t.dtype), x_name, dtype_name(x));
  if (t.dim() != 1 || t.view[0] != c)
    invalid("{} has shape {}, expected [{}] (one value per channel)", name, dims_str(t.view), c);
}

// The [N, group] statistics outputs: any shape of N * group elements.
void check_group_stat(const aclTensor& t, const char* name, const GroupShape& sh) {
  if (t.numel() != sh.n * sh.g)
    invalid("{} has shape {} ({} elements), expected [{}, {}] (N, group)", name, dims_str(t.view), t.numel(), sh.n, sh.g);
}

void check_groups(int64_t group, int64_t c, const char* gname) {
  if (group <= 0) invalid("{} is {}, expected a positive number of groups", gname, group);
  if (c % group != 0) invalid("{} is {}, expected a divisor of the {} channels", gname, group, c);
}

// Forward plan shared by GroupNorm, GroupNormSilu(V2) and GroupNormSwish.
struct FwdArgs {
  const aclTensor *x, *gamma, *beta, *y, *mean, *rstd;
  GroupShape sh;
  double eps, scale;
  bool act;
  const char* name;
};

void plan_group_forward(OpBuilder& b, const FwdArgs& f) {
  if (f.sh.n == 0 || f.sh.c == 0) return;  // nothing to compute (no rows)
  DType ct = arithmetic_dtype(f.x->dtype);
  if (f.gamma) ct = arithmetic_dtype(promote(ct, f.gamma->dtype));
  if (f.beta) ct = arithmetic_dtype(promote(ct, f.beta->dtype));
  DensePlan p(b);
  const int x = p.input(*f.x, ct);
  const int g = f.gamma ? p.input(*f.gamma, ct) : -1, be = f.beta ? p.input(*f.beta, ct) : -1;
  p.separate_outputs();
  const int y = p.output(*f.y, ct);
  const int m = f.mean ? p.output(*f.mean, ct) : -1, rs = f.rstd ? p.output(*f.rstd, ct) : -1;
  const GroupShape sh = f.sh;
  const double eps = f.eps, scale = f.scale;
  const bool act = f.act;
  p.finish(std::string(f.name) + "." + dtype_name(ct), [=](const DenseArgs& d) {
    visit_arithmetic<TypeSet::kFloating>(ct, [&](auto tag) {
      using T = typename decltype(tag)::type;
      GroupFwd<T> a{d.in<T>(x),
                    g < 0 ? nullptr : d.in<T>(g),
                    be < 0 ? nullptr : d.in<T>(be),
                    d.out<T>(y),
                    m < 0 ? nullptr : d.out<T>(m),
                    rs < 0 ? nullptr : d.out<T>(rs),
                    static_cast<T>(eps),
                    static_cast<T>(scale),
                    act};
      group_norm_forward(a, sh);
    });
  });
}

void plan_group_norm(OpBuilder& b, const aclTensor* x_arg, const aclTensor* g_arg, const aclTensor* b_arg, int64_t N,
                     int64_t C, int64_t HxW, int64_t group, double eps, const aclTensor* y_arg, const aclTensor* m_arg,
                     const aclTensor* r_arg) {
  const aclTensor& x = b.input(x_arg, "self");
  const aclTensor* gamma = g_arg ? &b.input(g_arg, "gamma") : nullptr;
  const aclTensor* beta = b_arg ? &b.input(b_arg, "beta") : nullptr;
  const aclTensor& y = b.output(y_arg, "out");
  const aclTensor& mean = b.output(m_arg, "meanOut");
  const aclTensor& rstd = b.output(r_arg, "rstdOut");
  const OpInfo& op = b.op();
  check_dtype_in(op, "self", x.dtype, kFloatingTypes);
  check_dtype_in(op, "out", y.dtype, kFloatingTypes);
  check_dtype_in(op, "meanOut", mean.dtype, kFloatingTypes);
  check_dtype_in(op, "rstdOut", rstd.dtype, kFloatingTypes);
  if (x.dim() < 2 || x.dim() > 8) invalid("self has {} dims ({}), expected 2 to 8", x.dim(), dims_str(x.view));
  if (x.view[0] != N) invalid("N is {}, expected self's dim 0 ({})", N, x.view[0]);
  if (x.view[1] != C) invalid("C is {}, expected self's dim 1 ({})", C, x.view[1]);
  int64_t s = 1;
  for (size_t k = 2; k < x.view.size(); ++k) s *= x.view[k];
  if (HxW != s) invalid("HxW is {}, expected the product of self's dims after the first two ({})", HxW, s);
  check_groups(group, C, "group");
  if (!(eps > 0)) invalid("eps is {}, expected a positive value", eps);
  if (gamma) check_param(op, *gamma, "gamma", x.dtype, "self", C);
  if (beta) check_param(op, *beta, "beta", x.dtype, "self", C);
  check_shape_equals(y, "out", x.view, "the shape of self");
  const GroupShape sh{N, C, HxW, group};
  check_group_stat(mean, "meanOut", sh);
  check_group_stat(rstd, "rstdOut", sh);
  plan_group_forward(b, FwdArgs{&x, gamma, beta, &y, &mean, &rstd, sh, eps, 1.0, false, "group_norm"});
}

// GroupNormSilu, GroupNormSiluV2, GroupNormSwish: N = dim 0, C = dim 1, HxW = the rest.
void plan_group_norm_act(OpBuilder& b, const char* x_name, const char* y_name, const aclTensor* x_arg,
                         const aclTensor* g_arg, const aclTensor* b_arg, int64_t group, const char* group_name,
                         double eps, bool act, double scale, const aclTensor* y_arg, const aclTensor* m_arg,
                         const aclTensor* r_arg, const char* format, const char* name) {
  const aclTensor& x = b.input(x_arg, x_name);
  const aclTensor& gamma = b.input(g_arg, "gamma");
  const aclTensor& beta = b.input(b_arg, "beta");
  const aclTensor& y = b.output(y_arg, y_name);
  const aclTensor& mean = b.output(m_arg, "meanOut");
  const aclTensor& rstd = b.output(r_arg, "rstdOut");
  const OpInfo& op = b.op();
  check_dtype_in(op, x_name, x.dtype, kFloatingTypes);
  check_dtype_in(op, y_name, y.dtype, kFloatingTypes);
  check_dtype_in(op, "meanOut", mean.dtype, kFloatingTypes);
  check_dtype_in(op, "rstdOut", rstd.dtype, kFloatingTypes);
  if (format && std::strcmp(format, "NCHW") != 0 && std::strcmp(format, "ND") != 0 && std::strcmp(format, "NCL") != 0 &&
      std::strcmp(format, "NCDHW") != 0 && std::strcmp(format, "NC") != 0) {
    if (std::strcmp(format, "NHWC") == 0) unsupported("dataFormatOptional NHWC is not supported by pacl yet; pass NCHW");
    invalid("dataFormatOptional is '{}', expected NCHW", format);
  }
  if (x.dim() < 2 || x.dim() > 8) invalid("{} has {} dims ({}), expected 2 to 8", x_name, x.dim(), dims_str(x.view));
  const int64_t C = x.view[1];
  check_groups(group, C, group_name);
  if (!(eps > 0)) invalid("eps is {}, expected a positive value", eps);
  check_param(op, gamma, "gamma", x.dtype, x_name, C);
  check_param(op, beta, "beta", x.dtype, x_name, C);
  if (gamma.dtype != beta.dtype)
    invalid("beta has dtype {}, expected the dtype of gamma ({})", dtype_name(beta.dtype), dtype_name(gamma.dtype));
  check_shape_equals(y, y_name, x.view, x_name[0] == 's' ? "the shape of self" : "the shape of x");
  int64_t s = 1;
  for (size_t k = 2; k < x.view.size(); ++k) s *= x.view[k];
  const GroupShape sh{x.view[0], C, s, group};
  check_group_stat(mean, "meanOut", sh);
  check_group_stat(rstd, "rstdOut", sh);
  plan_group_forward(b, FwdArgs{&x, &gamma, &beta, &y, &mean, &rstd, sh, eps, scale, act, name});
}

struct BwdArgs {
  const aclTensor *dy, *x, *mean, *rstd, *gamma, *beta, *dx, *dgamma, *dbeta;
  GroupShape sh;
  double scale;
  bool swish;
  const char* name;
};

void plan_group_backward(OpBuilder& b, const BwdArgs& f) {
  const GroupShape sh = f.sh;
  if (sh.c == 0) return;
  DType ct = arithmetic_dtype(promote(f.x->dtype, f.mean->dtype));
  if (f.gamma) ct = arithmetic_dtype(promote(ct, f.gamma->dtype));
  DensePlan p(b);
  auto in = [&](const aclTensor* t) { return t ? p.input(*t, ct) : -1; };
  const int dy = in(f.dy), x = in(f.x), m = in(f.mean), rs = in(f.rstd), g = in(f.gamma), be = in(f.beta);
  p.separate_outputs();
  auto out = [&](const aclTensor* t) { return t ? p.output(*t, ct) : -1; };
  const int dx = sh.n ? out(f.dx) : -1, dg = out(f.dgamma), db = out(f.dbeta);
  const size_t es = dtype_size(ct), threads = static_cast<size_t>(max_threads());
  const size_t dybuf = f.swish ? p.scratch(threads * static_cast<size_t>(sh.row()) * es) : 0;
  const size_t acc = (f.dgamma || f.dbeta) ? p.scratch(threads * 2 * static_cast<size_t>(sh.c) * es) : 0;
  const bool swish = f.swish, columns = f.dgamma || f.dbeta;
  const double scale = f.scale;
  p.finish(std::string(f.name) + "." + dtype_name(ct), [=](const DenseArgs& d) {
    visit_arithmetic<TypeSet::kFloating>(ct, [&](auto tag) {
      using T = typename decltype(tag)::type;
      auto i = [&](int k) -> const T* { return k < 0 ? nullptr : d.in<T>(k); };
      auto o = [&](int k) -> T* { return k < 0 ? nullptr : d.out<T>(k); };
      GroupBwd<T> a{i(dy), i(x),  i(m),  i(rs), i(g), i(be), o(dx), o(dg), o(db),
                    swish ? d.scratch<T>(dybuf) : nullptr, columns ? d.scratch<T>(acc) : nullptr,
                    static_cast<T>(scale), swish};
      group_norm_backward(a, sh);
    });
  });
}

void plan_group_norm_backward(OpBuilder& b, const aclTensor* dy_arg, const aclTensor* x_arg, const aclTensor* m_arg,
                              const aclTensor* r_arg, const aclTensor* g_arg, int64_t N, int64_t C, int64_t HxW,
                              int64_t group, const aclBoolArray* mask_arg, const aclTensor* dx_arg,
                              const aclTensor* dg_arg, const aclTensor* db_arg) {
  const aclTensor& dy = b.input(dy_arg, "gradOut");
  const aclTensor& x = b.input(x_arg, "input");
  const aclTensor& mean = b.input(m_arg, "mean");
  const aclTensor& rstd = b.input(r_arg, "rstd");
  const aclTensor* gamma = g_arg ? &b.input(g_arg, "gamma") : nullptr;
  const aclBoolArray& mask = b.bool_array(mask_arg, "outputMask");
  if (mask.values.size() != 3) invalid("outputMask has {} entries, expected 3 (gradInput, gradGamma, gradBeta)", mask.values.size());
  const aclTensor* dx = mask.values[0] ? &b.output(dx_arg, "gradInput") : nullptr;
  const aclTensor* dg = mask.values[1] ? &b.output(dg_arg, "gradGammaOut") : nullptr;
  const aclTensor* db = mask.values[2] ? &b.output(db_arg, "gradBetaOut") : nullptr;
  const OpInfo& op = b.op();
  check_dtype_in(op, "gradOut", dy.dtype, kFloatingTypes);
  check_dtype_like(x, "input", dy, "gradOut");
  check_dtype_in(op, "mean", mean.dtype, kFloatingTypes);
  check_dtype_like(rstd, "rstd", mean, "mean");
  if (gamma) check_dtype_in(op, "gamma", gamma->dtype, kFloatingTypes);
  for (auto [t, n] : {std::pair{dx, "gradInput"}, {dg, "gradGammaOut"}, {db, "gradBetaOut"}})
    if (t) check_dtype_in(op, n, t->dtype, kFloatingTypes);
  check_groups(group, C, "group");
  if (N < 0 || C < 0 || HxW < 0) invalid("N, C, HxW are {}, {}, {}, expected sizes >= 0", N, C, HxW);
  if (x.numel() != N * C * HxW)
    invalid("input has {} elements ({}), expected N * C * HxW = {}", x.numel(), dims_str(x.view), N * C * HxW);
  check_shape_like(dy, "gradOut", x, "input");
  const GroupShape sh{N, C, HxW, group};
  if (mean.numel() != N * group) invalid("mean has {} elements, expected N * group = {}", mean.numel(), N * group);
  if (rstd.numel() != N * group) invalid("rstd has {} elements, expected N * group = {}", rstd.numel(), N * group);
  if (gamma && gamma->numel() != C) invalid("gamma has {} elements, expected C = {}", gamma->numel(), C);
  if (dx) check_shape_like(*dx, "gradInput", x, "input");
  for (auto [t, n] : {std::pair{dg, "gradGammaOut"}, {db, "gradBetaOut"}})
    if (t && t->numel() != C) invalid("{} has {} elements, expected C = {}", n, t->numel(), C);
  plan_group_backward(b, BwdArgs{&dy, &x, &mean, &rstd, gamma, nullptr, dx, dg, db, sh, 1.0, false, "group_norm_backward"});
}

void plan_group_norm_swish_grad(OpBuilder& b, const aclTensor* dy_arg, const aclTensor* m_arg, const aclTensor* r_arg,
                                const aclTensor* x_arg, const aclTensor* g_arg, const aclTensor* b_arg,
                                int64_t groups, const char* format, double scale, bool dg_req, bool db_req,
                                const aclTensor* dx_arg, const aclTensor* dg_arg, const aclTensor* db_arg) {
  const aclTensor& dy = b.input(dy_arg, "dy");
  const aclTensor& mean = b.input(m_arg, "mean");
  const aclTensor& rstd = b.input(r_arg, "rstd");
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& gamma = b.input(g_arg, "gamma");
  const aclTensor& beta = b.input(b_arg, "beta");
  const aclTensor& dx = b.output(dx_arg, "dxOut");
  const aclTensor* dg = dg_req ? &b.output(dg_arg, "dgammaOut") : nullptr;
  const aclTensor* db = db_req ? &b.output(db_arg, "dbetaOut") : nullptr;
  const OpInfo& op = b.op();
  check_dtype_in(op, "dy", dy.dtype, kFloatingTypes);
  check_dtype_like(x, "x", dy, "dy");
  for (auto [t, n] : {std::pair{&mean, "mean"}, {&rstd, "rstd"}, {&gamma, "gamma"}, {&beta, "beta"}, {&dx, "dxOut"}, {dg, "dgammaOut"},
                      {db, "dbetaOut"}})
    if (t) check_dtype_in(op, n, t->dtype, kFloatingTypes);
  if (format && std::strcmp(format, "NCHW") != 0 && std::strcmp(format, "ND") != 0) {
    if (std::strcmp(format, "NHWC") == 0) unsupported("dataFormatOptional NHWC is not supported by pacl yet; pass NCHW");
    invalid("dataFormatOptional is '{}', expected NCHW", format);
  }
  if (dy.dim() < 2 || dy.dim() > 8) invalid("dy has {} dims ({}), expected 2 to 8", dy.dim(), dims_str(dy.view));
  check_shape_like(x, "x", dy, "dy");
  check_shape_like(dx, "dxOut", dy, "dy");
  const int64_t C = dy.view[1];
  check_groups(groups, C, "numGroups");
  int64_t s = 1;
  for (size_t k = 2; k < dy.view.size(); ++k) s *= dy.view[k];
  const GroupShape sh{dy.view[0], C, s, groups};
  check_group_stat(mean, "mean", sh);
  check_group_stat(rstd, "rstd", sh);
  for (auto [t, n] : {std::pair{&gamma, "gamma"}, {&beta, "beta"}, {dg, "dgammaOut"}, {db, "dbetaOut"}})
    if (t && t->numel() != C) invalid("{} has {} elements, expected C = {}", n, t->numel(), C);
  plan_group_backward(b, BwdArgs{&dy, &x, &mean, &rstd, &gamma, &beta, &dx, dg, db, sh, scale, true, "group_norm_swish_grad"});
}

// InstanceNorm: NCHW rows (outer N*C, n = H*W) or NHWC columns (outer N, n = H*W, inner C).
template <typename T>
void instance_norm(const T* x, const T* gamma, const T* beta, T* y, T* mean, T* var, const rows::Layout& g, int64_t C,
                   T eps) {
  const int64_t n = g.n, inner = g.inner;
  rows::for_each_line(
      g,
      [&](int64_t off, int) {
        const int64_t o = off / n, c = o % C;
        T m, v;
        rows::mean_var(x + off, n, &m, &v);
        mean[o] = m;
        var[o] = v;
        const T a = gamma[c] / std::sqrt(v + eps), b = beta[c];
        const T* xr = x + off;
        T* yr = y + off;
        for (int64_t i = 0; i < n; ++i) yr[i] = (xr[i] - m) * a + b;
      },
      [&](int64_t off, int64_t w) {
        const int64_t o = off / (n * inner), j0 = off % inner;
        T m[kColBlock], v[kColBlock], s[kColBlock];  // corrected two-pass, as rows::mean_var
        const T nn = static_cast<T>(n);
        for (int64_t j = 0; j < w; ++j) m[j] = v[j] = s[j] = 0;
        for (int64_t r = 0; r < n; ++r)
          for (int64_t j = 0; j < w; ++j) m[j] += x[off + r * inner + j];
        for (int64_t j = 0; j < w; ++j) m[j] /= nn;
        for (int64_t r = 0; r < n; ++r)
          for (int64_t j = 0; j < w; ++j) {
            const T d = x[off + r * inner + j] - m[j];
            s[j] += d;
            v[j] += d * d;
          }
        for (int64_t j = 0; j < w; ++j) {
          if (std::isfinite(m[j])) m[j] += s[j] / nn;
          v[j] = (v[j] - s[j] * s[j] / nn) / nn;
          if (v[j] < T(0)) v[j] = 0;
          mean[o * inner + j0 + j] = m[j];
          var[o * inner + j0 + j] = v[j];
          v[j] = gamma[j0 + j] / std::sqrt(v[j] + eps);  // now the scale
        }
        for (int64_t r = 0; r < n; ++r)
          for (int64_t j = 0; j < w; ++j) y[off + r * inner + j] = (x[off + r * inner + j] - m[j]) * v[j] + beta[j0 + j];
      });
}

void plan_instance_norm(OpBuilder& b, const aclTensor* x_arg, const aclTensor* g_arg, const aclTensor* b_arg,
                        const char* format, double eps, const aclTensor* y_arg, const aclTensor* m_arg,
                        const aclTensor* v_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& gamma = b.input(g_arg, "gamma");
  const aclTensor& beta = b.input(b_arg, "beta");
  const aclTensor& y = b.output(y_arg, "y");
  const aclTensor& mean = b.output(m_arg, "mean");
  const aclTensor& var = b.output(v_arg, "variance");
  if (!format) throw NullArgument("argument 'dataFormat' is null");
  const bool nhwc = std::strcmp(format, "NHWC") == 0;
  if (!nhwc && std::strcmp(format, "NCHW") != 0) invalid("dataFormat is '{}', expected NCHW or NHWC", format);
  const OpInfo& op = b.op();
  check_dtype_in(op, "x", x.dtype, kFloatingTypes);
  check_dtype_in(op, "y", y.dtype, kFloatingTypes);
  check_dtype_in(op, "mean", mean.dtype, kFloatingTypes);
  check_dtype_in(op, "variance", var.dtype, kFloatingTypes);
  if (x.dim() != 4) invalid("x has {} dims ({}), expected 4 ({})", x.dim(), dims_str(x.view), format);
  const int64_t N = x.view[0], C = nhwc ? x.view[3] : x.view[1];
  const int64_t S = nhwc ? x.view[1] * x.view[2] : x.view[2] * x.view[3];
  check_param(op, gamma, "gamma", x.dtype, "x", C);
  check_param(op, beta, "beta", x.dtype, "x", C);
  check_shape_equals(y, "y", x.view, "the shape of x");
  const Dims stat = nhwc ? Dims{N, 1, 1, C} : Dims{N, C, 1, 1};
  for (auto [t, n] : {std::pair{&mean, "mean"}, {&var, "variance"}})
    if (t->numel() != N * C)
      invalid("{} has shape {}, expected {} (one value per sample and channel)", n, dims_str(t->view), dims_str(stat));
  if (N * C == 0) return;
  if (S == 0) invalid("x has shape {}: the normalised H*W dims are empty", dims_str(x.view));
  const DType ct = arithmetic_dtype(promote(x.dtype, promote(gamma.dtype, beta.dtype)));
  DensePlan p(b);
  const int xi = p.input(x, ct), gi = p.input(gamma, ct), bi = p.input(beta, ct);
  p.separate_outputs();
  const int yi = p.output(y, ct), mi = p.output(mean, ct), vi = p.output(var, ct);
  const rows::Layout g = nhwc ? rows::Layout{N, S, C} : rows::Layout{N * C, S, 1};
  p.finish(std::string("instance_norm.") + (nhwc ? "nhwc." : "nchw.") + dtype_name(ct), [=](const DenseArgs& d) {
    visit_arithmetic<TypeSet::kFloating>(ct, [&](auto tag) {
      using T = typename decltype(tag)::type;
      instance_norm<T>(d.in<T>(xi), d.in<T>(gi), d.in<T>(bi), d.out<T>(yi), d.out<T>(mi), d.out<T>(vi), g, C,
                       static_cast<T>(eps));
    });
  });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor* self, const aclTensor* gamma,
                                                     const aclTensor* beta, int64_t N, int64_t C, int64_t HxW,
                                                     int64_t group, double eps, aclTensor* out, aclTensor* meanOut,
                                                     aclTensor* rstdOut, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_GroupNorm, "aclnnGroupNormGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_group_norm(b, self, gamma, beta, N, C, HxW, group, eps, out, meanOut, rstdOut);
                          });
}

extern "C" aclnnStatus aclnnGroupNormSiluGetWorkspaceSize(const aclTensor* self, const aclTensor* gamma,
                                                         const aclTensor* beta, int64_t group, double eps,
                                                         aclTensor* out, aclTensor* meanOut, aclTensor* rstdOut,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_GroupNormSilu, "aclnnGroupNormSiluGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_group_norm_act(b, "self", "out", self, gamma, beta, group, "group", eps, true,
                                                      1.0, out, meanOut, rstdOut, nullptr, "group_norm_silu");
                          });
}

extern "C" aclnnStatus aclnnGroupNormSiluV2GetWorkspaceSize(const aclTensor* self, const aclTensor* gamma,
                                                           const aclTensor* beta, int64_t group, double eps,
                                                           bool activateSilu, aclTensor* out, aclTensor* meanOut,
                                                           aclTensor* rstdOut, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_GroupNormSiluV2, "aclnnGroupNormSiluV2GetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_group_norm_act(b, "self", "out", self, gamma, beta, group, "group", eps,
                                                      activateSilu, 1.0, out, meanOut, rstdOut, nullptr,
                                                      "group_norm_silu");
                          });
}

extern "C" aclnnStatus aclnnGroupNormSwishGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma, const aclTensor* beta,
                                                          int64_t numGroups, char* dataFormatOptional, double eps,
                                                          bool activateSwish, double swishScale, const aclTensor* yOut,
                                                          const aclTensor* meanOut, const aclTensor* rstdOut,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_GroupNormSwish, "aclnnGroupNormSwishGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_group_norm_act(b, "x", "yOut", x, gamma, beta, numGroups, "numGroups", eps,
                                                      activateSwish, swishScale, yOut, meanOut, rstdOut,
                                                      dataFormatOptional, "group_norm_swish");
                          });
}

extern "C" aclnnStatus aclnnGroupNormBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input,
                                                             const aclTensor* mean, const aclTensor* rstd,
                                                             const aclTensor* gamma, int64_t N, int64_t C, int64_t HxW,
                                                             int64_t group, const aclBoolArray* outputMask,
                                                             aclTensor* gradInput, aclTensor* gradGammaOut,
                                                             aclTensor* gradBetaOut, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_GroupNormBackward, "aclnnGroupNormBackwardGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_group_norm_backward(b, gradOut, input, mean, rstd, gamma, N, C, HxW, group,
                                                           outputMask, gradInput, gradGammaOut, gradBetaOut);
                          });
}

extern "C" aclnnStatus aclnnGroupNormSwishGradGetWorkspaceSize(const aclTensor* dy, const aclTensor* mean,
                                                              const aclTensor* rstd, const aclTensor* x,
                                                              const aclTensor* gamma, const aclTensor* beta,
                                                              int64_t numGroups, char* dataFormatOptional,
                                                              double swishScale, bool dgammaIsRequire,
                                                              bool dbetaIsRequire, const aclTensor* dxOut,
                                                              const aclTensor* dgammaOut, const aclTensor* dbetaOut,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_GroupNormSwishGrad, "aclnnGroupNormSwishGradGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_group_norm_swish_grad(b, dy, mean, rstd, x, gamma, beta, numGroups,
                                                             dataFormatOptional, swishScale, dgammaIsRequire,
                                                             dbetaIsRequire, dxOut, dgammaOut, dbetaOut);
                          });
}

extern "C" aclnnStatus aclnnInstanceNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma,
                                                        const aclTensor* beta, const char* dataFormat, double eps,
                                                        aclTensor* y, aclTensor* mean, aclTensor* variance,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InstanceNorm, "aclnnInstanceNormGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_instance_norm(b, x, gamma, beta, dataFormat, eps, y, mean, variance);
                          });
}
