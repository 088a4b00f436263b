// Backward of the row normalisations: LayerNormBackward, RmsNormGrad, AddLayerNormGrad and
// DeepNormGrad, on one kernel. Per row of N = cols values, with x = alpha * x1 + x2 (the forward's
// input; rounded like the forward for the Add form), xhat = (x - mean) * rstd (mean 0 for RmsNorm)
// and g = gamma (1 when absent):
//   a    = sum(dy * g)                 (0 for RmsNorm)
//   b    = sum(dy * g * xhat)
//   dx   = rstd * (dy * g - (a + xhat * b) / N) + dsum       (DeepNorm: dgx = that, dx = alpha * dgx)
//   dgamma[j] = sum over rows of dy * xhat,  dbeta[j] = sum over rows of dy
// mean and rstd are the forward's saved statistics (one per row). Rows run in parallel; the column
// sums are accumulated per thread and added up at the end. Computed in float32 for 16-bit floats.
#include <cstdint>
#include <type_traits>

#include "aclnnop/aclnn_ada_layer_norm_backward.h"
#include "aclnnop/aclnn_add_layer_norm_grad.h"
#include "aclnnop/aclnn_deep_norm_grad.h"
#include "aclnnop/aclnn_layer_norm_backward.h"
#include "aclnnop/aclnn_rms_norm_grad.h"
#include "core/convert.h"
#include "core/dense.h"
#include "core/parallel.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/norm_rows.h"
#include "ops/registry.h"
#include "ops/row_norm.h"

namespace pacl {
namespace {

struct GradSpec {
  bool rms = false;
  const aclTensor *dy = nullptr, *x1 = nullptr, *x2 = nullptr, *mean = nullptr, *rstd = nullptr, *gamma = nullptr,
                  *dsum = nullptr;
  double alpha = 1;
  DType sum_dtype = DType::kUndefined;
  const aclTensor *dx = nullptr, *dx_alpha = nullptr, *dgamma = nullptr, *dbeta = nullptr;
  // AdaLayerNorm: dy is scaled by (1 + scale[b]) first (b = row / ada_rows); dscale = per-batch sums
  // of dy * (xhat * gamma + ada_bias), dshift = per-batch sums of dy.
  const aclTensor *ada_scale = nullptr, *ada_bias = nullptr, *dscale = nullptr, *dshift = nullptr;
  int64_t ada_rows = 1;
  int64_t rows = 0, cols = 0;
  DType compute = DType::kFloat;
  std::string name;
};

template <typename T>
struct GradArgs {
  const T *dy, *x1, *x2, *mean, *rstd, *gamma, *dsum;
  T alpha;
  DType sum_dtype;
  T *dx, *dx_alpha, *dgamma, *dbeta;
  T* xbuf;  // per-thread row of x (when x2)
  T* acc;   // per-thread [2][cols] column sums (dgamma, dbeta)
  int64_t rows, cols;
  bool rms;
  const T *ada_scale, *ada_bias;
  T *dscale, *dshift;
  T* dybuf;  // per-thread row of the scaled dy (AdaLayerNorm)
  int64_t ada_rows;
};

template <typename T>
void row_norm_grad(const GradArgs<T>& a) {
  const int64_t n = a.cols;
  const bool columns = a.dgamma || a.dbeta;
  const int threads = max_threads();
  if (columns)
    for (int64_t k = 0; k < static_cast<int64_t>(threads) * 2 * n; ++k) a.acc[k] = 0;
  rows::for_tasks(a.rows, n, [&](int64_t begin, int64_t end, int thread) {
    T* dg = columns ? a.acc + static_cast<int64_t>(thread) * 2 * n : nullptr;
    T* db = columns ? dg + n : nullptr;
    for (int64_t r = begin; r < end; ++r) {
      const T* dy = a.dy + r * n;
      const T* x = a.x1 + r * n;
      if (a.ada_scale) {
        T* d = a.dybuf + static_cast<int64_t>(thread) * n;
        const T* sc = a.ada_scale + (r / a.ada_rows) * n;
        for (int64_t i = 0; i < n; ++i) d[i] = dy[i] * (T(1) + sc[i]);
        dy = d;
      }
      if (a.x2) {
        T* s = a.xbuf + static_cast<int64_t>(thread) * n;
        const T* x2 = a.x2 + r * n;
        const T alpha = a.alpha;
        for (int64_t i = 0; i < n; ++i) s[i] = alpha * x[i] + x2[i];
        if constexpr (std::is_same_v<T, float>) {
          if (a.sum_dtype == DType::kFloat16 || a.sum_dtype == DType::kBFloat16) round_to_16bit(a.sum_dtype, s, n);
        }
        x = s;
      }
      const T mean = a.mean ? a.mean[r] : T(0);
      const T rstd = a.rstd[r];
      const T* g = a.gamma;
      T sa = 0, sb;
      if (g) {
        if (!a.rms) sa = rows::sum<T>(n, [dy, g](int64_t i) { return dy[i] * g[i]; });
        sb = rows::sum<T>(n, [=](int64_t i) { return dy[i] * g[i] * ((x[i] - mean) * rstd); });
      } else {
        if (!a.rms) sa = rows::sum<T>(n, [dy](int64_t i) { return dy[i]; });
        sb = rows::sum<T>(n, [=](int64_t i) { return dy[i] * ((x[i] - mean) * rstd); });
      }
      const T inv_n = T(1) / static_cast<T>(n);
      const T ca = sa * inv_n, cb = sb * inv_n;
      if (a.dx || a.dx_alpha) {
        T* dx = a.dx ? a.dx + r * n : a.dx_alpha + r * n;
        const T* ds = a.dsum ? a.dsum + r * n : nullptr;
        if (g) {
          for (int64_t i = 0; i < n; ++i) dx[i] = rstd * (dy[i] * g[i] - (ca + ((x[i] - mean) * rstd) * cb));
        } else {
          for (int64_t i = 0; i < n; ++i) dx[i] = rstd * (dy[i] - (ca + ((x[i] - mean) * rstd) * cb));
        }
        if (ds)
          for (int64_t i = 0; i < n; ++i) dx[i] += ds[i];
        if (a.dx && a.dx_alpha) {
          T* dxa = a.dx_alpha + r * n;
          const T alpha = a.alpha;
          for (int64_t i = 0; i < n; ++i) dxa[i] = alpha * dx[i];
        } else if (a.dx_alpha) {
          const T alpha = a.alpha;
          for (int64_t i = 0; i < n; ++i) dx[i] *= alpha;
        }
      }
      if (columns) {
        for (int64_t i = 0; i < n; ++i) dg[i] += dy[i] * ((x[i] - mean) * rstd);
        for (int64_t i = 0; i < n; ++i) db[i] += dy[i];
      }
    }
  });
  if (a.dscale || a.dshift) {  // per batch: sums over its rows
    const int64_t batches = a.rows / a.ada_rows;
    rows::for_tasks(batches, a.ada_rows * n, [&](int64_t begin, int64_t end, int) {
      for (int64_t bt = begin; bt < end; ++bt) {
        T* ds = a.dscale ? a.dscale + bt * n : nullptr;
        T* dh = a.dshift ? a.dshift + bt * n : nullptr;
        for (int64_t i = 0; i < n; ++i) {
          if (ds) ds[i] = 0;
          if (dh) dh[i] = 0;
        }
        for (int64_t r = bt * a.ada_rows; r < (bt + 1) * a.ada_rows; ++r) {
          const T* dy = a.dy + r * n;
          const T* x = a.x1 + r * n;
          const T mean = a.mean ? a.mean[r] : T(0), rstd = a.rstd[r];
          if (ds)
            for (int64_t i = 0; i < n; ++i)
              ds[i] += dy[i] * ((x[i] - mean) * rstd * (a.gamma ? a.gamma[i] : T(1)) + (a.ada_bias ? a.ada_bias[i] : T(0)));
          if (dh)
            for (int64_t i = 0; i < n; ++i) dh[i] += dy[i];
        }
      }
    });
  }
  if (!columns) return;
  for (int64_t j = 0; j < n; ++j) {
    T sg = 0, sd = 0;
    for (int t = 0; t < threads; ++t) {
      sg += a.acc[static_cast<int64_t>(t) * 2 * n + j];
      sd += a.acc[static_cast<int64_t>(t) * 2 * n + n + j];
    }
    if (a.dgamma) a.dgamma[j] = sg;
    if (a.dbeta) a.dbeta[j] = sd;
  }
}

void plan_row_norm_grad(OpBuilder& b, const GradSpec& s) {
  const DType ct = s.compute;
  DensePlan p(b);
  auto in = [&](const aclTensor* t) { return t ? p.input(*t, ct) : -1; };
  const int dy = in(s.dy), x1 = in(s.x1), x2 = in(s.x2), mean = in(s.mean), rstd = in(s.rstd), gamma = in(s.gamma),
            dsum = in(s.dsum), asc = in(s.ada_scale), abi = in(s.ada_bias);
  p.separate_outputs();
  auto out = [&](const aclTensor* t) { return t ? p.output(*t, ct) : -1; };
  const int dx = out(s.dx), dxa = out(s.dx_alpha), dgamma = out(s.dgamma), dbeta = out(s.dbeta),
            dsc = out(s.dscale), dsh = out(s.dshift);
  const size_t es = dtype_size(ct), threads = static_cast<size_t>(max_threads()), cols = static_cast<size_t>(s.cols);
  const size_t xbuf = s.x2 ? p.scratch(threads * cols * es) : 0;
  const size_t acc = (s.dgamma || s.dbeta) ? p.scratch(threads * 2 * cols * es) : 0;
  const size_t dybuf = s.ada_scale ? p.scratch(threads * cols * es) : 0;
  const GradSpec spec = s;
  p.finish(s.name + "." + dtype_name(ct), [=](const DenseArgs& d) {
    visit_arithmetic<TypeSet::kFloating>(ct, [&](auto tag) {
      using T = typename decltype(tag)::type;
      auto i = [&](int k) -> const T* { return k < 0 ? nullptr : d.in<T>(k); };
      auto o = [&](int k) -> T* { return k < 0 ? nullptr : d.out<T>(k); };
      GradArgs<T> a{i(dy),   i(x1),   i(x2),   i(mean),  i(rstd),
                    i(gamma), i(dsum), static_cast<T>(spec.alpha), spec.sum_dtype, o(dx),
                    o(dxa),  o(dgamma), o(dbeta), spec.x2 ? d.scratch<T>(xbuf) : nullptr,
                    (spec.dgamma || spec.dbeta) ? d.scratch<T>(acc) : nullptr, spec.rows, spec.cols, spec.rms,
                    i(asc), i(abi), o(dsc), o(dsh), spec.ada_scale ? d.scratch<T>(dybuf) : nullptr, spec.ada_rows};
      row_norm_grad(a);
    });
  });
}

// gamma's shape must be x's trailing dims; returns how many.
int64_t gamma_dims(const aclTensor& x, const char* x_name, const aclTensor& gamma, const char* g_name) {
  const int64_t nd = gamma.dim();
  if (nd > x.dim() || !std::equal(gamma.view.begin(), gamma.view.end(), x.view.end() - nd))
    invalid("{} has shape {}, expected the trailing dims of {} (shape {})", g_name, dims_str(gamma.view), x_name,
            dims_str(x.view));
  return nd;
}

void plan_layer_norm_backward(OpBuilder& b, const aclTensor* dy_arg, const aclTensor* x_arg, const aclIntArray* ns_arg,
                              const aclTensor* mean_arg, const aclTensor* rstd_arg, const aclTensor* w_arg,
                              const aclTensor* bias_arg, const aclBoolArray* mask_arg, const aclTensor* dx_arg,
                              const aclTensor* dw_arg, const aclTensor* db_arg) {
  const aclTensor& dy = b.input(dy_arg, "gradOut");
  const aclTensor& x = b.input(x_arg, "input");
  const aclIntArray& ns = b.int_array(ns_arg, "normalizedShape");
  const aclTensor& mean = b.input(mean_arg, "mean");
  const aclTensor& rstd = b.input(rstd_arg, "rstd");
  const aclTensor* w = w_arg ? &b.input(w_arg, "weightOptional") : nullptr;
  const aclTensor* bias = bias_arg ? &b.input(bias_arg, "biasOptional") : nullptr;
  const aclBoolArray& mask = b.bool_array(mask_arg, "outputMask");
  if (mask.values.size() != 3) invalid("outputMask has {} entries, expected 3 (gradInput, gradWeight, gradBias)", mask.values.size());
  const aclTensor* dx = mask.values[0] ? &b.output(dx_arg, "gradInputOut") : nullptr;
  const aclTensor* dw = mask.values[1] ? &b.output(dw_arg, "gradWeightOut") : nullptr;
  const aclTensor* db = mask.values[2] ? &b.output(db_arg, "gradBiasOut") : nullptr;
  const OpInfo& op = b.op();
  check_dtype_in(op, "gradOut", dy.dtype, kFloatingTypes);
  check_dtype_like(x, "input", dy, "gradOut");
  check_dtype_in(op, "mean", mean.dtype, kFloatingTypes);
  check_dtype_in(op, "rstd", rstd.dtype, kFloatingTypes);
  for (auto [t, n] : {std::pair{w, "weightOptional"}, {bias, "biasOptional"}}) {
    if (!t) continue;
    check_dtype_in(op, n, t->dtype, kFloatingTypes);
    if (t->dtype != x.dtype && t->dtype != DType::kFloat)
      invalid("{} has dtype {}, expected the dtype of input ({}) or float32", n, dtype_name(t->dtype), dtype_name(x.dtype));
  }
  for (auto [t, n] : {std::pair{dx, "gradInputOut"}, {dw, "gradWeightOut"}, {db, "gradBiasOut"}})
    if (t) check_dtype_in(op, n, t->dtype, kFloatingTypes);
  check_rank(x, "input");
  check_shape_like(dy, "gradOut", x, "input");
  const int64_t nd = static_cast<int64_t>(ns.values.size());
  if (nd < 1) invalid("normalizedShape is empty, expected at least one dim");
  if (nd > x.dim()) invalid("normalizedShape has {} dims, expected at most the {} dims of input (shape {})", nd, x.dim(), dims_str(x.view));
  const Dims tail(x.view.end() - nd, x.view.end());
  if (tail != ns.values)
    invalid("normalizedShape is {}, expected the trailing dims of input (shape {})", dims_str(ns.values), dims_str(x.view));
  for (auto [t, n] : {std::pair{w, "weightOptional"}, {bias, "biasOptional"}, {dw, "gradWeightOut"}, {db, "gradBiasOut"}})
    if (t && t->view != ns.values) invalid("{} has shape {}, expected normalizedShape {}", n, dims_str(t->view), dims_str(ns.values));
  if (dx) check_shape_like(*dx, "gradInputOut", x, "input");
  int64_t rows, cols;
  split_rows_cols(x.view, nd, &rows, &cols);
  check_stat_shape(mean, "mean", x.view, nd, rows);
  check_stat_shape(rstd, "rstd", x.view, nd, rows);
  GradSpec s;
  s.dy = &dy;
  s.x1 = &x;
  s.mean = &mean;
  s.rstd = &rstd;
  s.gamma = w;
  s.dx = dx;
  s.dgamma = dw;
  s.dbeta = db;
  s.rows = rows;
  s.cols = cols;
  s.compute = arithmetic_dtype(w ? promote(x.dtype, w->dtype) : x.dtype);
  s.name = "layer_norm_backward";
  if (rows == 0 || cols == 0) {
    if (!dw && !db) return;
    // No rows: the column sums are zeros. No columns: nothing to write.
    s.dx = nullptr;
  }
  plan_row_norm_grad(b, s);
}

void plan_rms_norm_grad(OpBuilder& b, const aclTensor* dy_arg, const aclTensor* x_arg, const aclTensor* rstd_arg,
                        const aclTensor* gamma_arg, const aclTensor* dx_arg, const aclTensor* dg_arg) {
  const aclTensor& dy = b.input(dy_arg, "dy");
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& rstd = b.input(rstd_arg, "rstd");
  const aclTensor& gamma = b.input(gamma_arg, "gamma");
  const aclTensor& dx = b.output(dx_arg, "dxOut");
  const aclTensor& dg = b.output(dg_arg, "dgammaOut");
  const OpInfo& op = b.op();
  check_dtype_in(op, "dy", dy.dtype, kFloatingTypes);
  check_dtype_like(x, "x", dy, "dy");
  check_dtype_in(op, "rstd", rstd.dtype, kFloatingTypes);
  check_dtype_in(op, "gamma", gamma.dtype, kFloatingTypes);
  if (gamma.dtype != x.dtype && gamma.dtype != DType::kFloat)
    invalid("gamma has dtype {}, expected the dtype of x ({}) or float32", dtype_name(gamma.dtype), dtype_name(x.dtype));
  check_dtype_in(op, "dxOut", dx.dtype, kFloatingTypes);
  check_dtype_in(op, "dgammaOut", dg.dtype, kFloatingTypes);
  check_rank(x, "x");
  check_shape_like(dy, "dy", x, "x");
  check_shape_like(dx, "dxOut", x, "x");
  const int64_t nd = trailing_norm_dims(x, "x", gamma.view, "gamma's shape");
  check_shape_like(dg, "dgammaOut", gamma, "gamma");
  int64_t rows, cols;
  split_rows_cols(x.view, nd, &rows, &cols);
  check_stat_shape(rstd, "rstd", x.view, nd, rows);
  GradSpec s;
  s.rms = true;
  s.dy = &dy;
  s.x1 = &x;
  s.rstd = &rstd;
  s.gamma = &gamma;
  s.dx = rows && cols ? &dx : nullptr;
  s.dgamma = &dg;
  s.rows = rows;
  s.cols = cols;
  s.compute = arithmetic_dtype(promote(x.dtype, gamma.dtype));
  s.name = "rms_norm_grad";
  if (cols == 0) return;
  plan_row_norm_grad(b, s);
}

void plan_add_layer_norm_grad(OpBuilder& b, const aclTensor* dy_arg, const aclTensor* x1_arg, const aclTensor* x2_arg,
                              const aclTensor* rstd_arg, const aclTensor* mean_arg, const aclTensor* gamma_arg,
                              const aclTensor* dsum_arg, const aclTensor* dx_arg, const aclTensor* dg_arg,
                              const aclTensor* db_arg) {
  const aclTensor& dy = b.input(dy_arg, "dy");
  const aclTensor& x1 = b.input(x1_arg, "x1");
  const aclTensor& x2 = b.input(x2_arg, "x2");
  const aclTensor& rstd = b.input(rstd_arg, "rstd");
  const aclTensor& mean = b.input(mean_arg, "mean");
  const aclTensor& gamma = b.input(gamma_arg, "gamma");
  const aclTensor* dsum = dsum_arg ? &b.input(dsum_arg, "dsumOptional") : nullptr;
  const aclTensor& dx = b.output(dx_arg, "dxOut");
  const aclTensor& dg = b.output(dg_arg, "dgammaOut");
  const aclTensor& db = b.output(db_arg, "dbetaOut");
  const OpInfo& op = b.op();
  check_dtype_in(op, "dy", dy.dtype, kFloatingTypes);
  check_dtype_like(x1, "x1", dy, "dy");
  check_dtype_like(x2, "x2", dy, "dy");
  if (dsum) check_dtype_like(*dsum, "dsumOptional", dy, "dy");
  for (auto [t, n] : {std::pair{&rstd, "rstd"}, {&mean, "mean"}, {&gamma, "gamma"}, {&dx, "dxOut"}, {&dg, "dgammaOut"},
                      {&db, "dbetaOut"}})
    check_dtype_in(op, n, t->dtype, kFloatingTypes);
  check_rank(dy, "dy");
  check_shape_like(x1, "x1", dy, "dy");
  check_shape_like(x2, "x2", dy, "dy");
  if (dsum) check_shape_like(*dsum, "dsumOptional", dy, "dy");
  check_shape_like(dx, "dxOut", dy, "dy");
  const int64_t nd = gamma_dims(dy, "dy", gamma, "gamma");
  check_shape_like(dg, "dgammaOut", gamma, "gamma");
  check_shape_like(db, "dbetaOut", gamma, "gamma");
  int64_t rows, cols;
  split_rows_cols(dy.view, nd, &rows, &cols);
  check_stat_shape(mean, "mean", dy.view, nd, rows);
  check_stat_shape(rstd, "rstd", dy.view, nd, rows);
  if (cols == 0) return;
  GradSpec s;
  s.dy = &dy;
  s.x1 = &x1;
  s.x2 = &x2;
  s.sum_dtype = x1.dtype;
  s.mean = &mean;
  s.rstd = &rstd;
  s.gamma = &gamma;
  s.dsum = dsum;
  s.dx = rows ? &dx : nullptr;
  s.dgamma = &dg;
  s.dbeta = &db;
  s.rows = rows;
  s.cols = cols;
  s.compute = arithmetic_dtype(promote(dy.dtype, gamma.dtype));
  s.name = "add_layer_norm_grad";
  plan_row_norm_grad(b, s);
}

void plan_deep_norm_grad(OpBuilder& b, const aclTensor* dy_arg, const aclTensor* x_arg, const aclTensor* gx_arg,
                         const aclTensor* gamma_arg, const aclTensor* mean_arg, const aclTensor* rstd_arg, double alpha,
                         const aclTensor* dx_arg, const aclTensor* dgx_arg, const aclTensor* db_arg,
                         const aclTensor* dg_arg) {
  const aclTensor& dy = b.input(dy_arg, "dy");
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& gx = b.input(gx_arg, "gx");
  const aclTensor& gamma = b.input(gamma_arg, "gamma");
  const aclTensor& mean = b.input(mean_arg, "mean");
  const aclTensor& rstd = b.input(rstd_arg, "rstd");
  const aclTensor& dx = b.output(dx_arg, "dxOut");
  const aclTensor& dgx = b.output(dgx_arg, "dgxOut");
  const aclTensor& db = b.output(db_arg, "dbetaOut");
  const aclTensor& dg = b.output(dg_arg, "dgammaOut");
  const OpInfo& op = b.op();
  check_dtype_in(op, "x", x.dtype, kFloatingTypes);
  check_dtype_like(dy, "dy", x, "x");
  check_dtype_like(gx, "gx", x, "x");
  check_dtype_like(gamma, "gamma", x, "x");
  for (auto [t, n] : {std::pair{&rstd, "rstd"}, {&mean, "mean"}, {&dx, "dxOut"}, {&dgx, "dgxOut"}, {&dg, "dgammaOut"},
                      {&db, "dbetaOut"}})
    check_dtype_in(op, n, t->dtype, kFloatingTypes);
  check_rank(x, "x");
  check_shape_like(dy, "dy", x, "x");
  check_shape_like(gx, "gx", x, "x");
  check_shape_like(dx, "dxOut", x, "x");
  check_shape_like(dgx, "dgxOut", x, "x");
  const int64_t nd = gamma_dims(x, "x", gamma, "gamma");
  check_shape_like(dg, "dgammaOut", gamma, "gamma");
  check_shape_like(db, "dbetaOut", gamma, "gamma");
  int64_t rows, cols;
  split_rows_cols(x.view, nd, &rows, &cols);
  check_stat_shape(mean, "mean", x.view, nd, rows);
  check_stat_shape(rstd, "rstd", x.view, nd, rows);
  if (cols == 0) return;
  GradSpec s;
  s.dy = &dy;
  s.x1 = &x;
  s.x2 = &gx;
  s.alpha = alpha;
  s.mean = &mean;
  s.rstd = &rstd;
  s.gamma = &gamma;
  s.dx = rows ? &dgx : nullptr;
  s.dx_alpha = rows ? &dx : nullptr;
  s.dgamma = &dg;
  s.dbeta = &db;
  s.rows = rows;
  s.cols = cols;
  s.compute = arithmetic_dtype(x.dtype);
  s.name = "deep_norm_grad";
  plan_row_norm_grad(b, s);
}

void plan_ada_layer_norm_backward(OpBuilder& b, const aclTensor* dy_arg, const aclTensor* x_arg, const aclIntArray* ns_arg,
                                  const aclTensor* r_arg, const aclTensor* m_arg, const aclTensor* sc_arg,
                                  const aclTensor* sh_arg, const aclTensor* w_arg, const aclTensor* bi_arg,
                                  const aclTensor* dx_arg, const aclTensor* dsc_arg, const aclTensor* dsh_arg,
                                  const aclTensor* dw_arg, const aclTensor* db_arg) {
  const aclTensor& dy = b.input(dy_arg, "gradOut");
  const aclTensor& x = b.input(x_arg, "input");
  const aclIntArray& ns = b.int_array(ns_arg, "normalizedShape");
  const aclTensor& rstd = b.input(r_arg, "rstd");
  const aclTensor& mean = b.input(m_arg, "mean");
  const aclTensor& scale = b.input(sc_arg, "scale");
  const aclTensor& shift = b.input(sh_arg, "shift");
  const aclTensor* w = w_arg ? &b.input(w_arg, "weightOptional") : nullptr;
  const aclTensor* bias = bi_arg ? &b.input(bi_arg, "biasOptional") : nullptr;
  auto opt_out = [&](const aclTensor* t, const char* n) { return t ? &b.output(t, n) : nullptr; };
  const aclTensor* dx = opt_out(dx_arg, "gradInputOut");
  const aclTensor* dsc = opt_out(dsc_arg, "gradScaleOut");
  const aclTensor* dsh = opt_out(dsh_arg, "gradShiftOut");
  const aclTensor* dw = opt_out(dw_arg, "gradWeightOut");
  const aclTensor* db = opt_out(db_arg, "gradBiasOut");
  const OpInfo& op = b.op();
  check_dtype_in(op, "gradOut", dy.dtype, kFloatingTypes);
  check_dtype_like(x, "input", dy, "gradOut");
  for (auto [t, n] : {std::pair{&mean, "mean"}, {&rstd, "rstd"}, {&scale, "scale"}, {&shift, "shift"}})
    check_dtype_in(op, n, t->dtype, kFloatingTypes);
  for (auto [t, n] : {std::pair{w, "weightOptional"}, {bias, "biasOptional"}}) {
    if (!t) continue;
    check_dtype_in(op, n, t->dtype, kFloatingTypes);
    if (t->dtype != x.dtype && t->dtype != DType::kFloat)
      invalid("{} has dtype {}, expected the dtype of input ({}) or float32", n, dtype_name(t->dtype), dtype_name(x.dtype));
  }
  for (auto [t, n] : {std::pair{dx, "gradInputOut"}, {dsc, "gradScaleOut"}, {dsh, "gradShiftOut"}, {dw, "gradWeightOut"},
                      {db, "gradBiasOut"}})
    if (t) check_dtype_in(op, n, t->dtype, kFloatingTypes);
  if (x.dim() < 2 || x.dim() > 8) invalid("input has {} dims ({}), expected 2 to 8 ([B..., S, H])", x.dim(), dims_str(x.view));
  check_shape_like(dy, "gradOut", x, "input");
  const int64_t H = x.view.back(), S = x.view[x.view.size() - 2];
  if (ns.values.size() != 1 || ns.values[0] != H)
    invalid("normalizedShape is {}, expected [{}] (the last dim of input)", dims_str(ns.values), H);
  int64_t rows, cols;
  split_rows_cols(x.view, 1, &rows, &cols);
  const int64_t batches = S ? rows / S : 0;
  check_stat_shape(mean, "mean", x.view, 1, rows);
  check_stat_shape(rstd, "rstd", x.view, 1, rows);
  for (auto [t, n] : {std::pair{&scale, "scale"}, {&shift, "shift"}, {dsc, "gradScaleOut"}, {dsh, "gradShiftOut"}})
    if (t && (t->dim() < 1 || t->view.back() != H || t->numel() != batches * H))
      invalid("{} has shape {}, expected [B..., H] or [B..., 1, H] with B... the leading dims of input {}", n,
              dims_str(t->view), dims_str(x.view));
  for (auto [t, n] : {std::pair{w, "weightOptional"}, {bias, "biasOptional"}, {dw, "gradWeightOut"}, {db, "gradBiasOut"}})
    if (t && (t->dim() != 1 || t->view[0] != H)) invalid("{} has shape {}, expected [{}]", n, dims_str(t->view), H);
  if (dx) check_shape_like(*dx, "gradInputOut", x, "input");
  if (cols == 0 || (!dx && !dsc && !dsh && !dw && !db)) return;
  GradSpec s;
  s.dy = &dy;
  s.x1 = &x;
  s.mean = &mean;
  s.rstd = &rstd;
  s.gamma = w;
  s.dx = rows ? dx : nullptr;
  s.dgamma = dw;
  s.dbeta = db;
  s.ada_scale = &scale;
  s.ada_bias = bias;
  s.dscale = dsc;
  s.dshift = dsh;
  s.ada_rows = S ? S : 1;
  s.rows = rows;
  s.cols = cols;
  s.compute = arithmetic_dtype(w ? promote(x.dtype, w->dtype) : x.dtype);
  s.name = "ada_layer_norm_backward";
  plan_row_norm_grad(b, s);
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnAdaLayerNormBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* rstd,
    const aclTensor* mean, const aclTensor* scale, const aclTensor* shift, const aclTensor* weightOptional,
    const aclTensor* biasOptional, aclTensor* gradInputOut, aclTensor* gradScaleOut, aclTensor* gradShiftOut,
    aclTensor* gradWeightOut, aclTensor* gradBiasOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AdaLayerNormBackward, "aclnnAdaLayerNormBackwardGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_ada_layer_norm_backward(b, gradOut, input, normalizedShape, rstd, mean, scale,
                                                               shift, weightOptional, biasOptional, gradInputOut,
                                                               gradScaleOut, gradShiftOut, gradWeightOut, gradBiasOut);
                          });
}

extern "C" aclnnStatus aclnnLayerNormBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input,
                                                             const aclIntArray* normalizedShape, const aclTensor* mean,
                                                             const aclTensor* rstd, const aclTensor* weightOptional,
                                                             const aclTensor* biasOptional,
                                                             const aclBoolArray* outputMask, aclTensor* gradInputOut,
                                                             aclTensor* gradWeightOut, aclTensor* gradBiasOut,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_LayerNormBackward, "aclnnLayerNormBackwardGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_layer_norm_backward(b, gradOut, input, normalizedShape, mean, rstd,
                                                           weightOptional, biasOptional, outputMask, gradInputOut,
                                                           gradWeightOut, gradBiasOut);
                          });
}

extern "C" aclnnStatus aclnnRmsNormGradGetWorkspaceSize(const aclTensor* dy, const aclTensor* x, const aclTensor* rstd,
                                                       const aclTensor* gamma, const aclTensor* dxOut,
                                                       const aclTensor* dgammaOut, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_RmsNormGrad, "aclnnRmsNormGradGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_rms_norm_grad(b, dy, x, rstd, gamma, dxOut, dgammaOut); });
}

extern "C" aclnnStatus aclnnAddLayerNormGradGetWorkspaceSize(const aclTensor* dy, const aclTensor* x1, const aclTensor* x2,
                                                            const aclTensor* rstd, const aclTensor* mean,
                                                            const aclTensor* gamma, const aclTensor* dsumOptional,
                                                            const aclTensor* dxOut, const aclTensor* dgammaOut,
                                                            const aclTensor* dbetaOut, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AddLayerNormGrad, "aclnnAddLayerNormGradGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_add_layer_norm_grad(b, dy, x1, x2, rstd, mean, gamma, dsumOptional, dxOut,
                                                           dgammaOut, dbetaOut);
                          });
}

extern "C" aclnnStatus aclnnDeepNormGradGetWorkspaceSize(const aclTensor* dy, const aclTensor* x, const aclTensor* gx,
                                                        const aclTensor* gamma, const aclTensor* mean,
                                                        const aclTensor* rstd, double alpha, const aclTensor* dxOut,
                                                        const aclTensor* dgxOut, const aclTensor* dbetaOut,
                                                        const aclTensor* dgammaOut, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_DeepNormGrad, "aclnnDeepNormGradGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_deep_norm_grad(b, dy, x, gx, gamma, mean, rstd, alpha, dxOut, dgxOut, dbetaOut,
                                                      dgammaOut);
                          });
}
