// BatchNorm and its relatives: BatchNorm (training / inference), BatchNormBackward,
// FastBatchNormBackward, BatchNormElemt, BatchNormReduce, BatchNormElemtBackward,
// BatchNormReduceBackward (the SyncBatchNorm primitives, PyTorch's semantics),
// SyncBatchNormGatherStats and BatchNormGatherStatsWithCounts.
//
// The input is seen as dense [outer, C, inner]: channels on dim 1 (outer = N, inner = the spatial
// dims) or, for tensors whose format is NHWC / NDHWC, on the last dim (inner = 1). Per-channel sums
// run over the outer and inner positions: each (outer, channel) row of `inner` values is summed
// lane-parallel in the compute dtype and added into per-thread float64 accumulators (channel-last:
// blocks of rows in the compute dtype, then float64). Statistics use the corrected two-pass form
// (see rows::mean_var). float16/bfloat16 compute in float32.
//
// saveInvstd: CANN's A2/A3 BatchNorm stores the batch *variance* there and its BatchNormBackward
// reads it back as such (invstd = 1 / sqrt(saveInvstd + eps)); pacl follows that contract (the
// CANN doc's A2/A3 note; Ascend 950 stores the inverse standard deviation instead).
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_batch_norm_backward.h"
#include "aclnnop/aclnn_batch_norm_backward_reduce.h"
#include "aclnnop/aclnn_batch_norm_elemt.h"
#include "aclnnop/aclnn_batch_norm_elemt_backward.h"
#include "aclnnop/aclnn_batch_norm_gather_stats_with_counts.h"
#include "aclnnop/aclnn_batch_norm_reduce.h"
#include "aclnnop/aclnn_fast_batch_norm_backward.h"
#include "aclnnop/aclnn_sync_batch_norm_gather_stats.h"
#include "core/dense.h"
#include "core/parallel.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/norm_rows.h"
#include "ops/registry.h"
#include "ops/row_norm.h"

namespace pacl {
namespace {

struct Chan {
  int64_t outer = 1, c = 1, inner = 1;
  int64_t count() const { return outer * inner; }  // elements per channel
};

Chan channel_layout(const aclTensor& x) {
  Chan g;
  const bool last = (x.format == 1 /* NHWC */ || x.format == 27 /* NDHWC */) && x.dim() >= 3;
  const int64_t cd = last ? x.dim() - 1 : 1;
  g.c = x.view[static_cast<size_t>(cd)];
  g.outer = 1;
  g.inner = 1;
  for (int64_t k = 0; k < x.dim(); ++k) {
    if (k < cd) g.outer *= x.view[static_cast<size_t>(k)];
    else if (k > cd) g.inner *= x.view[static_cast<size_t>(k)];
  }
  return g;
}

// Scratch for channel_sums: per thread 2 * C doubles and 2 * C values of the compute dtype.
size_t channel_scratch(DensePlan& p, int64_t c, DType ct) {
  const size_t per = static_cast<size_t>(2 * c) * (8 + dtype_size(ct));
  return p.scratch(static_cast<size_t>(max_threads()) * per);
}

// out[c] = sum of f1(i) and (Two) out[C + c] = sum of f2(i) over the elements i of channel c.
template <typename T, bool Two, typename F1, typename F2>
void channel_sums(const Chan& g, char* scratch, double* out, F1 f1, F2 f2) {
  const int64_t C = g.c, inner = g.inner;
  const int threads = max_threads();
  double* dacc = reinterpret_cast<double*>(scratch);
  T* tacc = reinterpret_cast<T*>(scratch + static_cast<size_t>(threads) * 2 * static_cast<size_t>(C) * 8);
  for (int64_t k = 0; k < static_cast<int64_t>(threads) * 2 * C; ++k) dacc[k] = 0;
  if (inner > 1) {
    rows::for_tasks(g.outer * C, inner, [&](int64_t b, int64_t e, int t) {
      double* acc = dacc + static_cast<int64_t>(t) * 2 * C;
      for (int64_t r = b; r < e; ++r) {
        const int64_t c = r % C, base = r * inner;
        if constexpr (Two) {
          const T s1 = rows::sum<T>(inner, [&](int64_t i) { return f1(base + i); });
          const T s2 = rows::sum<T>(inner, [&](int64_t i) { return f2(base + i); });
          acc[c] += s1;
          acc[C + c] += s2;
        } else {
          acc[c] += rows::sum<T>(inner, [&](int64_t i) { return f1(base + i); });
        }
      }
    });
  } else {
    constexpr int64_t kBlock = 256;  // rows summed in T before going into the float64 totals
    rows::for_tasks(g.outer, C, [&](int64_t b, int64_t e, int t) {
      double* acc = dacc + static_cast<int64_t>(t) * 2 * C;
      T* part = tacc + static_cast<int64_t>(t) * 2 * C;
      for (int64_t o0 = b; o0 < e; o0 += kBlock) {
        for (int64_t k = 0; k < 2 * C; ++k) part[k] = 0;
        const int64_t o1 = std::min(e, o0 + kBlock);
        for (int64_t o = o0; o < o1; ++o) {
          const int64_t base = o * C;
          for (int64_t c = 0; c < C; ++c) part[c] += f1(base + c);
          if constexpr (Two)
            for (int64_t c = 0; c < C; ++c) part[C + c] += f2(base + c);
        }
        for (int64_t k = 0; k < 2 * C; ++k) acc[k] += static_cast<double>(part[k]);
      }
    });
  }
  for (int64_t k = 0; k < (Two ? 2 : 1) * C; ++k) {
    double s = 0;
    for (int t = 0; t < threads; ++t) s += dacc[static_cast<int64_t>(t) * 2 * C + k];
    out[k] = s;
  }
}

// y[i] = f(i, c) over every element i (channel c).
template <typename T, typename F>
void channel_map(const Chan& g, T* y, F f) {
  const int64_t C = g.c, inner = g.inner;
  if (inner > 1) {
    rows::for_tasks(g.outer * C, inner, [&](int64_t b, int64_t e, int) {
      for (int64_t r = b; r < e; ++r) {
        const int64_t c = r % C, base = r * inner;
        for (int64_t i = 0; i < inner; ++i) y[base + i] = f(base + i, c);
      }
    });
  } else {
    rows::for_tasks(g.outer, C, [&](int64_t b, int64_t e, int) {
      for (int64_t o = b; o < e; ++o)
        for (int64_t c = 0; c < C; ++c) y[o * C + c] = f(o * C + c, c);
    });
  }
}

// Per-channel mean and biased variance (corrected two-pass) of x into mean[c], var[c]; sums: 2 * C
// doubles, m: C values of scratch.
template <typename T>
void channel_mean_var(const Chan& g, const T* x, char* scratch, double* sums, T* m, double* mean, double* var) {
  const int64_t C = g.c;
  const double n = static_cast<double>(g.count());
  auto none = [](int64_t) { return T(0); };
  channel_sums<T, false>(g, scratch, sums, [x](int64_t i) { return x[i]; }, none);
  for (int64_t c = 0; c < C; ++c) m[c] = static_cast<T>(sums[c] / n);
  const T* mp = m;
  const int64_t inner = g.inner;
  auto chan = [C, inner](int64_t i) { return (i / inner) % C; };
  channel_sums<T, true>(
      g, scratch, sums, [=](int64_t i) { return x[i] - mp[chan(i)]; },
      [=](int64_t i) {
        const T d = x[i] - mp[chan(i)];
        return d * d;
      });
  for (int64_t c = 0; c < C; ++c) {
    const double m0 = static_cast<double>(m[c]), s1 = sums[c], s2 = sums[C + c];
    mean[c] = std::isfinite(m0) ? m0 + s1 / n : m0;
    const double v = (s2 - s1 * s1 / n) / n;
    var[c] = v < 0 ? 0 : v;
  }
}

const aclTensor* opt_in(OpBuilder& b, const aclTensor* t, const char* n) { return t ? &b.input(t, n) : nullptr; }

void check_channel_vec(const OpInfo& op, const aclTensor* t, const char* name, int64_t c) {
  if (!t) return;
  check_dtype_in(op, name, t->dtype, kFloatingTypes);
  if (t->dim() != 1 || t->view[0] != c)
    invalid("{} has shape {}, expected [{}] (one value per channel of input)", name, dims_str(t->view), c);
}

void check_bn_input(const OpInfo& op, const aclTensor& x, const char* name) {
  check_dtype_in(op, name, x.dtype, kFloatingTypes);
  if (x.dim() < 2 || x.dim() > 8) invalid("{} has {} dims ({}), expected 2 to 8", name, x.dim(), dims_str(x.view));
}

// ---- BatchNorm -----------------------------------------------------------------------------------

void plan_batch_norm(OpBuilder& b, const aclTensor* x_arg, const aclTensor* w_arg, const aclTensor* b_arg,
                     const aclTensor* rm_arg, const aclTensor* rv_arg, bool training, double momentum, double eps,
                     const aclTensor* y_arg, const aclTensor* sm_arg, const aclTensor* sv_arg) {
  const aclTensor& x = b.input(x_arg, "input");
  const aclTensor* w = opt_in(b, w_arg, "weight");
  const aclTensor* bias = opt_in(b, b_arg, "bias");
  // Training updates the running statistics in place; inference only reads them.
  const aclTensor* rm = rm_arg ? (training ? &b.inout(rm_arg, "runningMean") : &b.input(rm_arg, "runningMean")) : nullptr;
  const aclTensor* rv = rv_arg ? (training ? &b.inout(rv_arg, "runningVar") : &b.input(rv_arg, "runningVar")) : nullptr;
  const aclTensor& y = b.output(y_arg, "output");
  const aclTensor* sm = training ? &b.output(sm_arg, "saveMean") : nullptr;
  const aclTensor* sv = training ? &b.output(sv_arg, "saveInvstd") : nullptr;
  const OpInfo& op = b.op();
  check_bn_input(op, x, "input");
  check_dtype_in(op, "output", y.dtype, kFloatingTypes);
  check_shape_equals(y, "output", x.view, "the shape of input");
  const Chan g = channel_layout(x);
  for (auto [t, n] : {std::pair{w, "weight"}, {bias, "bias"}, {rm, "runningMean"}, {rv, "runningVar"}, {sm, "saveMean"},
                      {sv, "saveInvstd"}})
    check_channel_vec(op, t, n, g.c);
  if (g.c == 0) return;
  DType ct = arithmetic_dtype(x.dtype);
  DensePlan p(b);
  const int xi = p.input(x, ct);
  const int wi = w ? p.input(*w, ct) : -1, bi = bias ? p.input(*bias, ct) : -1;
  p.separate_outputs();
  const Access rw = training ? Access::kReadWrite : Access::kWrite;
  const int rmi = rm ? (training ? p.output(*rm, ct, rw) : p.input(*rm, ct)) : -1;
  const int rvi = rv ? (training ? p.output(*rv, ct, rw) : p.input(*rv, ct)) : -1;
  const int yi = p.output(y, ct);
  const int smi = sm ? p.output(*sm, ct) : -1, svi = sv ? p.output(*sv, ct) : -1;
  const size_t scr = channel_scratch(p, g.c, ct);
  const size_t stats = p.scratch(static_cast<size_t>(g.c) * 8 * 4 + static_cast<size_t>(g.c) * 3 * dtype_size(ct));
  p.finish(std::string(training ? "batch_norm.training." : "batch_norm.inference.") + dtype_name(ct),
           [=](const DenseArgs& d) {
             visit_arithmetic<TypeSet::kFloating>(ct, [&](auto tag) {
               using T = typename decltype(tag)::type;
               const int64_t C = g.c;
               double* sums = d.scratch<double>(stats);
               double* mean = sums + 2 * C;
               double* var = mean + C;
               T* scale = reinterpret_cast<T*>(var + C);
               T* shift = scale + C;
               T* mt = shift + C;  // mean in T
               const T* xv = d.in<T>(xi);
               const T* wt = wi < 0 ? nullptr : d.in<T>(wi);
               const T* bs = bi < 0 ? nullptr : d.in<T>(bi);
               auto chan_ptr = [&](int k, bool out) -> T* {
                 return k < 0 ? nullptr : out ? d.out<T>(k) : const_cast<T*>(d.in<T>(k));
               };
               T* rmean = chan_ptr(rmi, training);
               T* rvar = chan_ptr(rvi, training);
               const double n = static_cast<double>(g.count());
               if (training) {
                 if (g.count() == 0) {  // no samples: CANN writes saveMean 0, saveInvstd NaN
                   for (int64_t c = 0; c < C; ++c) {
                     if (smi >= 0) d.out<T>(smi)[c] = 0;
                     if (svi >= 0) d.out<T>(svi)[c] = std::numeric_limits<T>::quiet_NaN();
                   }
                   return;
                 }
                 channel_mean_var<T>(g, xv, d.scratch<char>(scr), sums, mt, mean, var);
               } else {
                 for (int64_t c = 0; c < C; ++c) {
                   mean[c] = rmean ? static_cast<double>(rmean[c]) : 0.0;
                   var[c] = rvar ? static_cast<double>(rvar[c]) : 1.0;
                 }
               }
               for (int64_t c = 0; c < C; ++c) {
                 const double invstd = 1 / std::sqrt(var[c] + eps);
                 scale[c] = static_cast<T>(invstd * (wt ? static_cast<double>(wt[c]) : 1.0));
                 shift[c] = bs ? bs[c] : T(0);
               }
               if (g.count() > 0) {
                 for (int64_t c = 0; c < C; ++c) mt[c] = static_cast<T>(mean[c]);
                 const T* m = mt;
                 channel_map<T>(g, d.out<T>(yi), [=](int64_t i, int64_t c) { return (xv[i] - m[c]) * scale[c] + shift[c]; });
               }
               if (!training) return;
               for (int64_t c = 0; c < C; ++c) {
                 if (smi >= 0) d.out<T>(smi)[c] = static_cast<T>(mean[c]);
                 if (svi >= 0) d.out<T>(svi)[c] = static_cast<T>(var[c]);
                 if (rmean) rmean[c] = static_cast<T>((1 - momentum) * static_cast<double>(rmean[c]) + momentum * mean[c]);
                 if (rvar)
                   rvar[c] = static_cast<T>((1 - momentum) * static_cast<double>(rvar[c]) +
                                            momentum * var[c] * n / (n - 1));
               }
             });
           });
}

// ---- BatchNormBackward / FastBatchNormBackward ------------------------------------------------------

void plan_batch_norm_backward(OpBuilder& b, const aclTensor* dy_arg, const aclTensor* x_arg, const aclTensor* w_arg,
                              const aclTensor* rm_arg, const aclTensor* rv_arg, const aclTensor* sm_arg,
                              const aclTensor* sv_arg, bool training, double eps, const aclBoolArray* mask_arg,
                              const aclTensor* dx_arg, const aclTensor* dw_arg, const aclTensor* db_arg,
                              const char* name) {
  const aclTensor& dy = b.input(dy_arg, "gradOut");
  const aclTensor& x = b.input(x_arg, "input");
  const aclTensor* w = opt_in(b, w_arg, "weight");
  const aclTensor* rm = opt_in(b, rm_arg, "runningMean");
  const aclTensor* rv = opt_in(b, rv_arg, "runningVar");
  const aclTensor* sm = opt_in(b, sm_arg, "saveMean");
  const aclTensor* sv = opt_in(b, sv_arg, "saveInvstd");
  const aclBoolArray& mask = b.bool_array(mask_arg, "outputMask");
  if (mask.values.size() != 3) invalid("outputMask has {} entries, expected 3 (gradInput, gradWeight, gradBias)", mask.values.size());
  const aclTensor* dx = mask.values[0] ? &b.output(dx_arg, "gradInput") : nullptr;
  const aclTensor* dw = mask.values[1] ? &b.output(dw_arg, "gradWeight") : nullptr;
  const aclTensor* db = mask.values[2] ? &b.output(db_arg, "gradBias") : nullptr;
  const OpInfo& op = b.op();
  check_bn_input(op, dy, "gradOut");
  check_dtype_like(x, "input", dy, "gradOut");
  check_shape_like(x, "input", dy, "gradOut");
  if (dx) {
    check_dtype_in(op, "gradInput", dx->dtype, kFloatingTypes);
    check_shape_like(*dx, "gradInput", dy, "gradOut");
  }
  const Chan g = channel_layout(x);
  for (auto [t, n] : {std::pair{w, "weight"}, {rm, "runningMean"}, {rv, "runningVar"}, {dw, "gradWeight"}, {db, "gradBias"}})
    check_channel_vec(op, t, n, g.c);
  // saveMean / saveInvstd may be empty in inference (CANN).
  for (auto [t, n] : {std::pair{sm, "saveMean"}, {sv, "saveInvstd"}})
    if (t && !(!training && t->numel() == 0)) check_channel_vec(op, t, n, g.c);
  if (g.c == 0) return;
  const DType ct = arithmetic_dtype(x.dtype);
  const bool use_save = training;
  DensePlan p(b);
  auto in = [&](const aclTensor* t) { return (t && t->numel() > 0) ? p.input(*t, ct) : -1; };
  const int dyi = p.input(dy, ct), xi = p.input(x, ct), wi = in(w);
  const int mi = use_save ? in(sm) : in(rm), vi = use_save ? in(sv) : in(rv);
  p.separate_outputs();
  const int dxi = dx ? p.output(*dx, ct) : -1, dwi = dw ? p.output(*dw, ct) : -1, dbi = db ? p.output(*db, ct) : -1;
  const size_t scr = channel_scratch(p, g.c, ct);
  const size_t st = p.scratch(static_cast<size_t>(g.c) * 8 * 2 + static_cast<size_t>(g.c) * 4 * dtype_size(ct));
  p.finish(std::string(name) + (training ? ".training." : ".inference.") + dtype_name(ct), [=](const DenseArgs& d) {
    visit_arithmetic<TypeSet::kFloating>(ct, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const int64_t C = g.c, inner = g.inner;
      double* sums = d.scratch<double>(st);
      T* mean = reinterpret_cast<T*>(sums + 2 * C);
      T* invstd = mean + C;
      T* k1 = invstd + C;
      T* k2 = k1 + C;
      const T* dyv = d.in<T>(dyi);
      const T* xv = d.in<T>(xi);
      const T* wt = wi < 0 ? nullptr : d.in<T>(wi);
      const T* mv = mi < 0 ? nullptr : d.in<T>(mi);
      const T* vv = vi < 0 ? nullptr : d.in<T>(vi);
      for (int64_t c = 0; c < C; ++c) {  // missing statistics: mean 0, variance 1 (CANN's fills)
        mean[c] = mv ? mv[c] : T(0);
        invstd[c] = static_cast<T>(1 / std::sqrt((vv ? static_cast<double>(vv[c]) : 1.0) + eps));
      }
      auto chan = [C, inner](int64_t i) { return (i / inner) % C; };
      const T* m = mean;
      channel_sums<T, true>(g, d.scratch<char>(scr), sums, [=](int64_t i) { return dyv[i]; },
                            [=](int64_t i) { return dyv[i] * (xv[i] - m[chan(i)]); });
      const double n = static_cast<double>(g.count());
      for (int64_t c = 0; c < C; ++c) {
        if (dwi >= 0) d.out<T>(dwi)[c] = static_cast<T>(sums[C + c] * static_cast<double>(invstd[c]));
        if (dbi >= 0) d.out<T>(dbi)[c] = static_cast<T>(sums[c]);
        const double wc = wt ? static_cast<double>(wt[c]) : 1.0, is = static_cast<double>(invstd[c]);
        // dx = (dy - k1) * invstd * w - (x - mean) * k2   (training); dy * invstd * w (inference)
        k1[c] = training ? static_cast<T>(sums[c] / n) : T(0);
        k2[c] = training ? static_cast<T>(sums[C + c] / n * is * is * is * wc) : T(0);
        invstd[c] = static_cast<T>(is * wc);  // now invstd * w
      }
      if (dxi < 0 || g.count() == 0) return;
      const T *a = k1, *bb = k2, *s = invstd;
      channel_map<T>(g, d.out<T>(dxi), [=](int64_t i, int64_t c) { return (dyv[i] - a[c]) * s[c] - (xv[i] - m[c]) * bb[c]; });
    });
  });
}

// ---- BatchNormElemt / BatchNormReduce / sync BatchNorm primitives ------------------------------------

void plan_batch_norm_elemt(OpBuilder& b, const aclTensor* x_arg, const aclTensor* w_arg, const aclTensor* b_arg,
                           const aclTensor* m_arg, const aclTensor* is_arg, const aclTensor* y_arg) {
  const aclTensor& x = b.input(x_arg, "input");
  const aclTensor* w = opt_in(b, w_arg, "weight");
  const aclTensor* bias = opt_in(b, b_arg, "bias");
  const aclTensor& mean = b.input(m_arg, "mean");
  const aclTensor& invstd = b.input(is_arg, "invstd");
  const aclTensor& y = b.output(y_arg, "output");
  const OpInfo& op = b.op();
  check_bn_input(op, x, "input");
  check_dtype_in(op, "output", y.dtype, kFloatingTypes);
  check_shape_equals(y, "output", x.view, "the shape of input");
  const Chan g = channel_layout(x);
  if (g.c == 0) invalid("input has shape {}: the channel dim is empty", dims_str(x.view));
  for (auto [t, n] : {std::pair{w, "weight"}, {bias, "bias"}, {&mean, "mean"}, {&invstd, "invstd"}}) check_channel_vec(op, t, n, g.c);
  if (g.count() == 0) return;
  const DType ct = arithmetic_dtype(x.dtype);
  DensePlan p(b);
  const int xi = p.input(x, ct), wi = w ? p.input(*w, ct) : -1, bi = bias ? p.input(*bias, ct) : -1;
  const int mi = p.input(mean, ct), ii = p.input(invstd, ct);
  p.separate_outputs();
  const int yi = p.output(y, ct);
  const size_t st = p.scratch(static_cast<size_t>(g.c) * 2 * dtype_size(ct));
  p.finish(std::string("batch_norm_elemt.") + dtype_name(ct), [=](const DenseArgs& d) {
    visit_arithmetic<TypeSet::kFloating>(ct, [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* scale = d.scratch<T>(st);
      T* shift = scale + g.c;
      const T* m = d.in<T>(mi);
      for (int64_t c = 0; c < g.c; ++c) {
        scale[c] = d.in<T>(ii)[c] * (wi < 0 ? T(1) : d.in<T>(wi)[c]);
        shift[c] = bi < 0 ? T(0) : d.in<T>(bi)[c];
      }
      const T* xv = d.in<T>(xi);
      channel_map<T>(g, d.out<T>(yi), [=](int64_t i, int64_t c) { return (xv[i] - m[c]) * scale[c] + shift[c]; });
    });
  });
}

void plan_batch_norm_reduce(OpBuilder& b, const aclTensor* x_arg, const aclTensor* s_arg, const aclTensor* q_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& sum = b.output(s_arg, "sum");
  const aclTensor& sq = b.output(q_arg, "squareSum");
  const OpInfo& op = b.op();
  check_bn_input(op, x, "x");
  const Chan g = channel_layout(x);
  check_channel_vec(op, &sum, "sum", g.c);
  check_channel_vec(op, &sq, "squareSum", g.c);
  if (g.c == 0) return;
  const DType ct = arithmetic_dtype(x.dtype);
  DensePlan p(b);
  const int xi = p.input(x, ct);
  p.separate_outputs();
  const int si = p.output(sum, ct), qi = p.output(sq, ct);
  const size_t scr = channel_scratch(p, g.c, ct);
  const size_t st = p.scratch(static_cast<size_t>(g.c) * 2 * 8);
  p.finish(std::string("batch_norm_reduce.") + dtype_name(ct), [=](const DenseArgs& d) {
    visit_arithmetic<TypeSet::kFloating>(ct, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* xv = d.in<T>(xi);
      double* sums = d.scratch<double>(st);
      channel_sums<T, true>(g, d.scratch<char>(scr), sums, [xv](int64_t i) { return xv[i]; },
                            [xv](int64_t i) { return xv[i] * xv[i]; });
      for (int64_t c = 0; c < g.c; ++c) {
        d.out<T>(si)[c] = static_cast<T>(sums[c]);
        d.out<T>(qi)[c] = static_cast<T>(sums[g.c + c]);
      }
    });
  });
}

void plan_batch_norm_elemt_backward(OpBuilder& b, const aclTensor* dy_arg, const aclTensor* x_arg,
                                    const aclTensor* m_arg, const aclTensor* is_arg, const aclTensor* w_arg,
                                    const aclTensor* sdy_arg, const aclTensor* sdyx_arg, const aclTensor* cnt_arg,
                                    const aclTensor* dx_arg) {
  const aclTensor& dy = b.input(dy_arg, "gradOut");
  const aclTensor& x = b.input(x_arg, "input");
  const aclTensor& mean = b.input(m_arg, "mean");
  const aclTensor& invstd = b.input(is_arg, "invstd");
  const aclTensor* w = opt_in(b, w_arg, "weight");
  const aclTensor& sdy = b.input(sdy_arg, "sumDy");
  const aclTensor& sdyx = b.input(sdyx_arg, "sumDyXmu");
  const aclTensor& cnt = b.input(cnt_arg, "counter");
  const aclTensor& dx = b.output(dx_arg, "gradInput");
  const OpInfo& op = b.op();
  check_bn_input(op, x, "input");
  check_dtype_in(op, "gradOut", dy.dtype, kFloatingTypes);
  check_dtype_in(op, "gradInput", dx.dtype, kFloatingTypes);
  check_dtype_in(op, "counter", cnt.dtype, kFloatingTypes | dtype_mask({DType::kInt32}));
  check_shape_like(dy, "gradOut", x, "input");
  check_shape_like(dx, "gradInput", x, "input");
  if (cnt.dim() > 8) invalid("counter has {} dims, expected at most 8", cnt.dim());
  const Chan g = channel_layout(x);
  if (g.c == 0) invalid("input has shape {}: the channel dim is empty", dims_str(x.view));
  for (auto [t, n] : {std::pair{&mean, "mean"}, {&invstd, "invstd"}, {w, "weight"}, {&sdy, "sumDy"}, {&sdyx, "sumDyXmu"}})
    check_channel_vec(op, t, n, g.c);
  if (g.count() == 0) return;
  const DType ct = arithmetic_dtype(x.dtype);
  DensePlan p(b);
  const int dyi = p.input(dy, ct), xi = p.input(x, ct), mi = p.input(mean, ct), ii = p.input(invstd, ct);
  const int wi = w ? p.input(*w, ct) : -1, si = p.input(sdy, ct), qi = p.input(sdyx, ct);
  const int ci = cnt.numel() > 0 ? p.input(cnt, DType::kDouble) : -1;
  const int64_t ncnt = cnt.numel();
  p.separate_outputs();
  const int oi = p.output(dx, ct);
  const size_t st = p.scratch(static_cast<size_t>(g.c) * 3 * dtype_size(ct));
  p.finish(std::string("batch_norm_elemt_backward.") + dtype_name(ct), [=](const DenseArgs& d) {
    visit_arithmetic<TypeSet::kFloating>(ct, [&](auto tag) {
      using T = typename decltype(tag)::type;
      double total = 0;
      for (int64_t k = 0; k < ncnt; ++k) total += d.in<double>(ci)[k];
      T* k1 = d.scratch<T>(st);
      T* k2 = k1 + g.c;
      T* s = k2 + g.c;
      for (int64_t c = 0; c < g.c; ++c) {
        const double is = static_cast<double>(d.in<T>(ii)[c]), wc = wi < 0 ? 1.0 : static_cast<double>(d.in<T>(wi)[c]);
        k1[c] = static_cast<T>(static_cast<double>(d.in<T>(si)[c]) / total);
        k2[c] = static_cast<T>(static_cast<double>(d.in<T>(qi)[c]) / total * is * is * is * wc);
        s[c] = static_cast<T>(is * wc);
      }
      const T *dyv = d.in<T>(dyi), *xv = d.in<T>(xi), *m = d.in<T>(mi);
      channel_map<T>(g, d.out<T>(oi), [=](int64_t i, int64_t c) { return (dyv[i] - k1[c]) * s[c] - (xv[i] - m[c]) * k2[c]; });
    });
  });
}

void plan_batch_norm_reduce_backward(OpBuilder& b, const aclTensor* dy_arg, const aclTensor* x_arg,
                                     const aclTensor* m_arg, const aclTensor* is_arg, const aclTensor* w_arg,
                                     bool input_g, bool weight_g, bool bias_g, const aclTensor* sdy_arg,
                                     const aclTensor* sdyx_arg, const aclTensor* dw_arg, const aclTensor* db_arg) {
  const aclTensor& dy = b.input(dy_arg, "gradOut");
  const aclTensor& x = b.input(x_arg, "input");
  const aclTensor& mean = b.input(m_arg, "mean");
  const aclTensor& invstd = b.input(is_arg, "invstd");
  const aclTensor* w = opt_in(b, w_arg, "weight");
  const aclTensor* sdy = input_g ? &b.output(sdy_arg, "sumDy") : nullptr;
  const aclTensor* sdyx = input_g ? &b.output(sdyx_arg, "sumDyXmu") : nullptr;
  const aclTensor* dw = weight_g ? &b.output(dw_arg, "gradWeight") : nullptr;
  const aclTensor* db = bias_g ? &b.output(db_arg, "gradBias") : nullptr;
  const OpInfo& op = b.op();
  check_bn_input(op, x, "input");
  check_dtype_like(dy, "gradOut", x, "input");
  check_shape_like(dy, "gradOut", x, "input");
  const Chan g = channel_layout(x);
  if (g.c == 0) invalid("input has shape {}: the channel dim is empty", dims_str(x.view));
  for (auto [t, n] : {std::pair{&mean, "mean"}, {&invstd, "invstd"}, {w, "weight"}, {sdy, "sumDy"}, {sdyx, "sumDyXmu"},
                      {dw, "gradWeight"}, {db, "gradBias"}})
    check_channel_vec(op, t, n, g.c);
  if (!sdy && !dw && !db) return;
  const DType ct = arithmetic_dtype(x.dtype);
  DensePlan p(b);
  const int dyi = p.input(dy, ct), xi = p.input(x, ct), mi = p.input(mean, ct), ii = p.input(invstd, ct);
  p.separate_outputs();
  auto out = [&](const aclTensor* t) { return t ? p.output(*t, ct) : -1; };
  const int so = out(sdy), qo = out(sdyx), wo = out(dw), bo = out(db);
  const size_t scr = channel_scratch(p, g.c, ct);
  const size_t st = p.scratch(static_cast<size_t>(g.c) * 2 * 8);
  p.finish(std::string("batch_norm_reduce_backward.") + dtype_name(ct), [=](const DenseArgs& d) {
    visit_arithmetic<TypeSet::kFloating>(ct, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const int64_t C = g.c, inner = g.inner;
      const T *dyv = d.in<T>(dyi), *xv = d.in<T>(xi), *m = d.in<T>(mi);
      auto chan = [C, inner](int64_t i) { return (i / inner) % C; };
      double* sums = d.scratch<double>(st);
      channel_sums<T, true>(g, d.scratch<char>(scr), sums, [=](int64_t i) { return dyv[i]; },
                            [=](int64_t i) { return dyv[i] * (xv[i] - m[chan(i)]); });
      for (int64_t c = 0; c < C; ++c) {
        if (so >= 0) d.out<T>(so)[c] = static_cast<T>(sums[c]);
        if (qo >= 0) d.out<T>(qo)[c] = static_cast<T>(sums[C + c]);
        if (wo >= 0) d.out<T>(wo)[c] = static_cast<T>(sums[C + c] * static_cast<double>(d.in<T>(ii)[c]));
        if (bo >= 0) d.out<T>(bo)[c] = static_cast<T>(sums[c]);
      }
    });
  });
}

void plan_sync_gather_stats(OpBuilder& b, const aclTensor* sum_arg, const aclTensor* sq_arg, const aclTensor* cnt_arg,
                            const aclTensor* rm_arg, const aclTensor* rv_arg, float momentum, float eps,
                            const aclTensor* bm_arg, const aclTensor* bi_arg) {
  const aclTensor& sum = b.input(sum_arg, "totalSum");
  const aclTensor& sq = b.input(sq_arg, "totalSquareSum");
  const aclTensor& cnt = b.input(cnt_arg, "sampleCount");
  const aclTensor& rm = b.inout(rm_arg, "mean");
  const aclTensor& rv = b.inout(rv_arg, "variance");
  const aclTensor& bm = b.output(bm_arg, "batchMean");
  const aclTensor& bi = b.output(bi_arg, "batchInvstd");
  const OpInfo& op = b.op();
  check_dtype_in(op, "totalSum", sum.dtype, kFloatingTypes);
  check_dtype_like(sq, "totalSquareSum", sum, "totalSum");
  check_dtype_in(op, "sampleCount", cnt.dtype, kFloatingTypes | dtype_mask({DType::kInt32}));
  for (auto [t, n] : {std::pair{&rm, "mean"}, {&rv, "variance"}, {&bm, "batchMean"}, {&bi, "batchInvstd"}})
    check_dtype_in(op, n, t->dtype, kFloatingTypes);
  if (sum.dim() != 2) invalid("totalSum has shape {}, expected 2 dims [devices, channels]", dims_str(sum.view));
  check_shape_like(sq, "totalSquareSum", sum, "totalSum");
  const int64_t D = sum.view[0], C = sum.view[1];
  if (D == 0) invalid("totalSum has shape {}: expected at least one device row", dims_str(sum.view));
  if (cnt.dim() != 1 || cnt.view[0] != D)
    invalid("sampleCount has shape {}, expected [{}] (one count per row of totalSum)", dims_str(cnt.view), D);
  for (auto [t, n] : {std::pair{&rm, "mean"}, {&rv, "variance"}, {&bm, "batchMean"}, {&bi, "batchInvstd"}})
    check_channel_vec(op, t, n, C);
  if (C == 0) return;
  DensePlan p(b);
  const DType dt = DType::kDouble;
  const int si = p.input(sum, dt), qi = p.input(sq, dt), ci = p.input(cnt, dt);
  const int rmi = p.output(rm, dt, Access::kReadWrite), rvi = p.output(rv, dt, Access::kReadWrite);
  const int bmi = p.output(bm, dt), bii = p.output(bi, dt);
  p.finish("sync_batch_norm_gather_stats", [=](const DenseArgs& d) {
    const double *s = d.in<double>(si), *q = d.in<double>(qi), *n = d.in<double>(ci);
    double count = 0;
    for (int64_t k = 0; k < D; ++k) count += n[k];
    for (int64_t c = 0; c < C; ++c) {
      double ts = 0, tq = 0;
      for (int64_t k = 0; k < D; ++k) {
        ts += s[k * C + c];
        tq += q[k * C + c];
      }
      const double mean = ts / count, var = tq / count - mean * mean;
      d.out<double>(bmi)[c] = mean;
      d.out<double>(bii)[c] = 1 / std::sqrt(var + static_cast<double>(eps));
      double* rmean = d.out<double>(rmi);
      double* rvar = d.out<double>(rvi);
      rmean[c] = rmean[c] * (1 - static_cast<double>(momentum)) + static_cast<double>(momentum) * mean;
      rvar[c] = rvar[c] * (1 - static_cast<double>(momentum)) + static_cast<double>(momentum) * var * count / (count - 1);
    }
  });
}

void plan_gather_stats_with_counts(OpBuilder& b, const aclTensor* x_arg, const aclTensor* m_arg, const aclTensor* is_arg,
                                   const aclTensor* rm_arg, const aclTensor* rv_arg, double momentum, double eps,
                                   const aclTensor* cnt_arg, const aclTensor* ma_arg, const aclTensor* ia_arg) {
  const aclTensor& x = b.input(x_arg, "input");
  const aclTensor& mean = b.input(m_arg, "mean");
  const aclTensor& invstd = b.input(is_arg, "invstd");
  const aclTensor* rm = rm_arg ? &b.inout(rm_arg, "runningMean") : nullptr;
  const aclTensor* rv = rv_arg ? &b.inout(rv_arg, "runningVar") : nullptr;
  const aclTensor& cnt = b.input(cnt_arg, "counts");
  const aclTensor& ma = b.output(ma_arg, "meanAll");
  const aclTensor& ia = b.output(ia_arg, "invstdAll");
  const OpInfo& op = b.op();
  check_bn_input(op, x, "input");
  for (auto [t, n] : {std::pair{&mean, "mean"}, {&invstd, "invstd"}, {&cnt, "counts"}, {&ma, "meanAll"}, {&ia, "invstdAll"}})
    check_dtype_in(op, n, t->dtype, kFloatingTypes | (t == &cnt ? dtype_mask({DType::kInt32}) : 0));
  const int64_t C = x.view[1];
  if (mean.dim() != 2 || mean.view[1] != C)
    invalid("mean has shape {}, expected 2 dims [devices, {}]", dims_str(mean.view), C);
  check_shape_like(invstd, "invstd", mean, "mean");
  const int64_t W = mean.view[0];
  if (cnt.dim() != 1 || cnt.view[0] != W)
    invalid("counts has shape {}, expected [{}] (one count per row of mean)", dims_str(cnt.view), W);
  for (auto [t, n] : {std::pair{rm, "runningMean"}, {rv, "runningVar"}, {&ma, "meanAll"}, {&ia, "invstdAll"}})
    check_channel_vec(op, t, n, C);
  if (C == 0) return;
  DensePlan p(b);
  const DType dt = DType::kDouble;
  const int mi = p.input(mean, dt), ii = p.input(invstd, dt), ci = p.input(cnt, dt);
  const int rmi = rm ? p.output(*rm, dt, Access::kReadWrite) : -1, rvi = rv ? p.output(*rv, dt, Access::kReadWrite) : -1;
  const int mao = p.output(ma, dt), iao = p.output(ia, dt);
  p.finish("batch_norm_gather_stats_with_counts", [=](const DenseArgs& d) {
    const double *m = d.in<double>(mi), *is = d.in<double>(ii), *n = d.in<double>(ci);
    for (int64_t c = 0; c < C; ++c) {
      // Merge the per-device (count, mean, M2) triples (parallel Welford); var_i = 1 / invstd^2 - eps.
      double count = 0, mu = 0, m2 = 0;
      for (int64_t k = 0; k < W; ++k) {
        const double nk = n[k];
        if (nk == 0) continue;
        const double mk = m[k * C + c], vk = 1 / (is[k * C + c] * is[k * C + c]) - eps;
        const double tot = count + nk, delta = mk - mu;
        mu += delta * nk / tot;
        m2 += vk * nk + delta * delta * count * nk / tot;
        count = tot;
      }
      const double var = m2 / count;
      d.out<double>(mao)[c] = mu;
      d.out<double>(iao)[c] = 1 / std::sqrt(var + eps);
      if (rmi >= 0) d.out<double>(rmi)[c] = (1 - momentum) * d.out<double>(rmi)[c] + momentum * mu;
      if (rvi >= 0) d.out<double>(rvi)[c] = (1 - momentum) * d.out<double>(rvi)[c] + momentum * m2 / (count - 1);
    }
  });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                                     const aclTensor* bias, aclTensor* runningMean,
                                                     aclTensor* runningVar, bool training, double momentum, double eps,
                                                     aclTensor* output, aclTensor* saveMean, aclTensor* saveInvstd,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_BatchNorm, "aclnnBatchNormGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_batch_norm(b, input, weight, bias, runningMean, runningVar, training, momentum,
                                                  eps, output, saveMean, saveInvstd);
                          });
}

extern "C" aclnnStatus aclnnBatchNormBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input,
                                                             const aclTensor* weight, const aclTensor* runningMean,
                                                             const aclTensor* runningVar, const aclTensor* saveMean,
                                                             const aclTensor* saveInvstd, bool training, double eps,
                                                             const aclBoolArray* outputMask, aclTensor* gradInput,
                                                             aclTensor* gradWeight, aclTensor* gradBias,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_BatchNormBackward, "aclnnBatchNormBackwardGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_batch_norm_backward(b, gradOut, input, weight, runningMean, runningVar, saveMean,
                                                           saveInvstd, training, eps, outputMask, gradInput, gradWeight,
                                                           gradBias, "batch_norm_backward");
                          });
}

extern "C" aclnnStatus aclnnFastBatchNormBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclTensor* weight, const aclTensor* runningMean,
    const aclTensor* runningVar, const aclTensor* saveMean, const aclTensor* saveInvstd, bool training, double eps,
    const aclBoolArray* outputMask, int version, aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_FastBatchNormBackward, "aclnnFastBatchNormBackwardGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            if (version != 0 && version != 1) pacl::invalid("version is {}, expected 0 or 1", version);
                            pacl::plan_batch_norm_backward(b, gradOut, input, weight, runningMean, runningVar, saveMean,
                                                           saveInvstd, training, eps, outputMask, gradInput, gradWeight,
                                                           gradBias, "fast_batch_norm_backward");
                          });
}

extern "C" aclnnStatus aclnnBatchNormElemtGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                                          const aclTensor* bias, aclTensor* mean, aclTensor* invstd,
                                                          double eps, aclTensor* output, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_BatchNormElemt, "aclnnBatchNormElemtGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_batch_norm_elemt(b, input, weight, bias, mean, invstd, output); });
}

extern "C" aclnnStatus aclnnBatchNormReduceGetWorkspaceSize(const aclTensor* x, aclTensor* sum, aclTensor* squareSum,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_BatchNormReduce, "aclnnBatchNormReduceGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_batch_norm_reduce(b, x, sum, squareSum); });
}

extern "C" aclnnStatus aclnnBatchNormElemtBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input,
                                                                  const aclTensor* mean, const aclTensor* invstd,
                                                                  const aclTensor* weight, const aclTensor* sumDy,
                                                                  const aclTensor* sumDyXmu, aclTensor* counter,
                                                                  aclTensor* gradInput, uint64_t* workspaceSize,
                                                                  aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_BatchNormElemtBackward, "aclnnBatchNormElemtBackwardGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_batch_norm_elemt_backward(b, gradOut, input, mean, invstd, weight, sumDy,
                                                                 sumDyXmu, counter, gradInput);
                          });
}

extern "C" aclnnStatus aclnnBatchNormReduceBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclTensor* mean, const aclTensor* invstd,
    const aclTensor* weight, const bool inputG, const bool weightG, const bool biasG, aclTensor* sumDy,
    aclTensor* sumDyXmu, aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_BatchNormReduceBackward, "aclnnBatchNormReduceBackwardGetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_batch_norm_reduce_backward(b, gradOut, input, mean, invstd, weight, inputG,
                                                                  weightG, biasG, sumDy, sumDyXmu, gradWeight, gradBias);
                          });
}

extern "C" aclnnStatus aclnnSyncBatchNormGatherStatsGetWorkspaceSize(const aclTensor* totalSum,
                                                                    const aclTensor* totalSquareSum,
                                                                    const aclTensor* sampleCount, aclTensor* mean,
                                                                    aclTensor* variance, float momentum, float eps,
                                                                    aclTensor* batchMean, aclTensor* batchInvstd,
                                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_SyncBatchNormGatherStats, "aclnnSyncBatchNormGatherStatsGetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_sync_gather_stats(b, totalSum, totalSquareSum, sampleCount, mean, variance,
                                                         momentum, eps, batchMean, batchInvstd);
                          });
}

extern "C" aclnnStatus aclnnBatchNormGatherStatsWithCountsGetWorkspaceSize(
    const aclTensor* input, const aclTensor* mean, const aclTensor* invstd, aclTensor* runningMean,
    aclTensor* runningVar, double momentum, double eps, const aclTensor* counts, aclTensor* meanAll,
    aclTensor* invstdAll, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_BatchNormGatherStatsWithCounts, "aclnnBatchNormGatherStatsWithCountsGetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_gather_stats_with_counts(b, input, mean, invstd, runningMean, runningVar,
                                                                momentum, eps, counts, meanAll, invstdAll);
                          });
}
