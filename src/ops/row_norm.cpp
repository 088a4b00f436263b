#include "ops/row_norm.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "core/convert.h"
#include "core/dense.h"
#include "ops/elementwise_op.h"
#include "ops/norm_rows.h"
#include "runtime/status.h"

namespace pacl {
namespace {

template <typename T>
struct RowNormArgs {
  const T *x1, *x2, *add_bias, *gamma, *beta;
  bool bias_full;
  T *y, *xsum, *mean, *rstd;
  T alpha, eps;
  int64_t rows, cols;
  bool rms;
  DType sum_dtype;
  bool stream;  // write y with non-temporal stores (float only)
  T* y2;
  const T *ada_scale, *ada_shift;
  int64_t ada_rows;
};

// y[i] = (x[i] - mean) * rstd * g[i] + b[i], g and b optional.
template <typename T>
inline void normalize_row(const T* x, T* y, T mean, T rstd, const T* g, const T* b, int64_t n) {
  if (g && b) {
    for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - mean) * rstd * g[i] + b[i];
  } else if (g) {
    for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - mean) * rstd * g[i];
  } else if (b) {
    for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - mean) * rstd + b[i];
  } else {
    for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - mean) * rstd;
  }
}

// The same, written with non-temporal stores.
// `next`: the next row's x1, prefetched meanwhile.
inline void normalize_row_stream(const float* x, float* y, float mean, float rstd, const float* g, const float* b,
                                 int64_t n, const float* next) {
  if (g && b) rows::write_stream(y, n, [=](int64_t i) { return (x[i] - mean) * rstd * g[i] + b[i]; }, next);
  else if (g) rows::write_stream(y, n, [=](int64_t i) { return (x[i] - mean) * rstd * g[i]; }, next);
  else if (b) rows::write_stream(y, n, [=](int64_t i) { return (x[i] - mean) * rstd + b[i]; }, next);
  else rows::write_stream(y, n, [=](int64_t i) { return (x[i] - mean) * rstd; }, next);
}

template <typename T>
void row_norm(const RowNormArgs<T>& a) {
  const int64_t n = a.cols;
  if (n == 0) {
    for (int64_t r = 0; r < a.rows; ++r) {
      if (a.mean) a.mean[r] = 0;
      if (a.rstd) a.rstd[r] = std::numeric_limits<T>::quiet_NaN();
    }
    return;
  }
  rows::for_tasks(a.rows, n, [&](int64_t begin, int64_t end, int) {
    for (int64_t r = begin; r < end; ++r) {
      const T* x = a.x1 + r * n;
      T* y = a.y + r * n;
      if (a.x2) {
        T* s = a.xsum ? a.xsum + r * n : y;
        const T* x2 = a.x2 + r * n;
        const T alpha = a.alpha;
        if (a.add_bias) {
          const T* ab = a.bias_full ? a.add_bias + r * n : a.add_bias;
          for (int64_t i = 0; i < n; ++i) s[i] = alpha * x[i] + x2[i] + ab[i];
        } else {
          for (int64_t i = 0; i < n; ++i) s[i] = alpha * x[i] + x2[i];
        }
        if constexpr (std::is_same_v<T, float>) {
          if (a.sum_dtype == DType::kFloat16 || a.sum_dtype == DType::kBFloat16) round_to_16bit(a.sum_dtype, s, n);
        }
        x = s;
      }
      T mean = 0, var;
      if (a.rms) var = rows::sum<T>(n, [x](int64_t i) { return x[i] * x[i]; }) / static_cast<T>(n);
      else rows::mean_var(x, n, &mean, &var);
      const T rstd = T(1) / std::sqrt(var + a.eps);
      if (a.mean) a.mean[r] = mean;
      if (a.rstd) a.rstd[r] = rstd;
      if constexpr (std::is_same_v<T, float>) {
        if (a.stream) {
          normalize_row_stream(x, y, mean, rstd, a.gamma, a.beta, n, r + 1 < end ? a.x1 + (r + 1) * n : nullptr);
          continue;
        }
      }
      normalize_row(x, y, mean, rstd, a.gamma, a.beta, n);
      if (a.ada_scale) {
        const T* sc = a.ada_scale + (r / a.ada_rows) * n;
        const T* sh = a.ada_shift + (r / a.ada_rows) * n;
        for (int64_t i = 0; i < n; ++i) y[i] = y[i] * (T(1) + sc[i]) + sh[i];
      }
      if (a.y2)
        for (int64_t i = 0; i < n; ++i) a.y2[r * n + i] = y[i];
    }
    rows::stream_fence();
  });
}

}  // namespace

void plan_row_norm(OpBuilder& b, const RowNormSpec& s) {
  const DType ct = s.compute;
  DensePlan p(b);
  const int x1 = s.inplace ? -1 : p.input(*s.x1, ct);
  const int x2 = (s.x2 && !s.inplace) ? p.input(*s.x2, ct) : -1;
  const int ab = s.add_bias ? p.input(*s.add_bias, ct) : -1;
  const int asc = s.ada_scale ? p.input(*s.ada_scale, ct) : -1, ash = s.ada_shift ? p.input(*s.ada_shift, ct) : -1;
  const int64_t ada_rows = s.ada_rows;
  const bool bias_full = s.add_bias && s.add_bias->numel() != s.cols;
  const int g = s.gamma ? p.input(*s.gamma, ct) : -1;
  const int be = s.beta ? p.input(*s.beta, ct) : -1;
  if (!s.inplace) p.separate_outputs();
  const Access acc = s.inplace ? Access::kReadWrite : Access::kWrite;
  const int y = p.output(s.inplace ? *s.x1 : *s.y, ct, acc);
  const int xs = s.inplace ? p.output(*s.x2, ct, acc) : s.xsum ? p.output(*s.xsum, ct) : -1;
  const int y2 = s.y2 ? p.output(*s.y2, ct) : -1;
  const int mean = s.mean ? p.output(*s.mean, ct) : -1;
  const int rstd = s.rstd ? p.output(*s.rstd, ct) : -1;
  const size_t g1 = s.gamma_plus_one ? p.scratch(static_cast<size_t>(s.cols) * dtype_size(ct)) : 0;
  const bool plus_one = s.gamma_plus_one && s.gamma;
  const bool has_x2 = s.x2 != nullptr, inplace = s.inplace;
  const double alpha = s.alpha, eps = s.eps;
  const int64_t rows = s.rows, cols = s.cols;
  const bool rms = s.rms;
  const DType sum_dtype = s.sum_dtype;
  const bool stream = ct == DType::kFloat && rows * cols * 4 >= rows::kStreamBytes && !s.ada_scale && !s.y2;
  p.finish(s.name + "." + dtype_name(ct), [=](const DenseArgs& a) {
    visit_arithmetic<TypeSet::kFloating>(ct, [&](auto tag) {
      using T = typename decltype(tag)::type;
      auto in = [&](int k) { return k < 0 ? nullptr : a.in<T>(k); };
      auto out = [&](int k) { return k < 0 ? nullptr : a.out<T>(k); };
      RowNormArgs<T> k{};
      k.x1 = inplace ? a.out<T>(y) : a.in<T>(x1);
      k.x2 = !has_x2 ? nullptr : inplace ? a.out<T>(xs) : a.in<T>(x2);
      k.add_bias = in(ab);
      k.bias_full = bias_full;
      k.gamma = in(g);
      if (plus_one) {
        T* gp = a.scratch<T>(g1);
        for (int64_t i = 0; i < cols; ++i) gp[i] = T(1) + k.gamma[i];
        k.gamma = gp;
      }
      k.beta = in(be);
      k.y = a.out<T>(y);
      k.xsum = out(xs);
      k.mean = out(mean);
      k.rstd = out(rstd);
      k.alpha = static_cast<T>(alpha);
      k.eps = static_cast<T>(eps);
      k.rows = rows;
      k.cols = cols;
      k.rms = rms;
      k.sum_dtype = sum_dtype;
      k.stream = stream;
      k.y2 = out(y2);
      k.ada_scale = in(asc);
      k.ada_shift = in(ash);
      k.ada_rows = ada_rows;
      row_norm(k);
    });
  });
}

int64_t trailing_norm_dims(const aclTensor& x, const char* x_name, const Dims& norm_shape, const char* what) {
  Dims ns = norm_shape;
  auto matches = [&](const Dims& d) {
    if (d.size() > x.view.size()) return false;
    return std::equal(d.begin(), d.end(), x.view.end() - static_cast<std::ptrdiff_t>(d.size()));
  };
  while (!matches(ns) && !ns.empty() && ns.front() == 1) ns.erase(ns.begin());
  if (!matches(ns) || (ns.empty() && !norm_shape.empty()))
    invalid("{} is {}, expected the trailing dims of {} (shape {})", what, dims_str(norm_shape), x_name,
            dims_str(x.view));
  return static_cast<int64_t>(ns.size());
}

void split_rows_cols(const Dims& shape, int64_t norm_dims, int64_t* rows, int64_t* cols) {
  *rows = 1;
  *cols = 1;
  const int64_t begin = static_cast<int64_t>(shape.size()) - norm_dims;
  for (int64_t k = 0; k < static_cast<int64_t>(shape.size()); ++k) (k < begin ? *rows : *cols) *= shape[static_cast<size_t>(k)];
}

void check_stat_shape(const aclTensor& t, const char* name, const Dims& x_shape, int64_t norm_dims, int64_t rows) {
  if (t.numel() == rows) return;
  Dims want(x_shape.begin(), x_shape.end() - norm_dims);
  for (int64_t k = 0; k < norm_dims; ++k) want.push_back(1);
  invalid("{} has shape {} ({} elements), expected {} (one value per normalised row: {})", name, dims_str(t.view),
          t.numel(), dims_str(want), rows);
}

void check_shape_like(const aclTensor& t, const char* name, const aclTensor& ref, const char* ref_name) {
  if (t.view != ref.view)
    invalid("{} has shape {}, expected the shape of {} {}", name, dims_str(t.view), ref_name, dims_str(ref.view));
}

void check_dtype_like(const aclTensor& t, const char* name, const aclTensor& ref, const char* ref_name) {
  if (t.dtype != ref.dtype)
    invalid("{} has dtype {}, expected the dtype of {} ({})", name, dtype_name(t.dtype), ref_name, dtype_name(ref.dtype));
}

}  // namespace pacl
