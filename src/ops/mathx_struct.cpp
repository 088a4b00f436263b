// Structured ops of the mathx family, each a dense kernel (inputs seen as dense arrays of the
// compute type, float32 for the 16-bit floats; results rounded once to the output dtype):
//  - LinalgCross: out = self x other along dim (size 3), broadcast; dim counts in self's dims;
//  - AffineGrid: the sampling grid theta @ [x, y, (z,) 1] over linspace(-1, 1) coordinates
//    (scaled by (n-1)/n unless alignCorners; 0 for a size-1 dim), as PyTorch's affine_grid;
//  - ExpSegsum: out[.., i, j] = exp(self[.., j+1] + .. + self[.., i]) for j <= i, else 0, the sum
//    running down each column as CANN's masked cumsum does; ExpSegsumBackward its gradient;
//  - KlDiv: target * (log(target) - self) (NaN for target <= 0) or exp(target) * (target - self)
//    with logTarget, then none / mean / sum / batchmean (sums in double);
//  - Sinkhorn: the doc's iteration on exp(cost) in float32 until the mean change of the column
//    factors is <= tol (at most kSinkhornMaxIterations rounds);
//  - AmpUpdateScale: PyTorch's _amp_update_scale_ (scale and growth tracker);
//  - SignBitsPack / SignBitsUnpack: 1-bit Adam packing (CANN's kernels: pack writes x < 0 with the
//    first element in the high bit, padding with 1 bits; unpack reads the low bit first, 1 -> +1);
//  - TransformBiasRescaleQkv: q = (q + bq) / sqrt(d), k = k + bk, v = v + bv in [B, heads, T, d];
//  - PrecisionCompare: 0 when golden and realdata are bitwise identical, else 503;
//  - GroupedBiasAddGrad(V2): per-group row sums of gradY (group ends, or counts with type 1).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_affine_grid.h"
#include "aclnnop/aclnn_amp_update_scale.h"
#include "aclnnop/aclnn_exp_segsum_backward.h"
#include "aclnnop/aclnn_grouped_bias_add_grad.h"
#include "aclnnop/aclnn_kl_div.h"
#include "aclnnop/aclnn_linalg_cross.h"
#include "aclnnop/aclnn_precision_compare.h"
#include "aclnnop/aclnn_segsum.h"
#include "aclnnop/aclnn_sign_bits_pack.h"
#include "aclnnop/aclnn_sign_bits_unpack.h"
#include "aclnnop/aclnn_sinkhorn.h"
#include "aclnnop/aclnn_transform_bias_rescale_qkv.h"
#include "core/convert.h"
#include "core/dense.h"
#include "core/elementwise.h"
#include "core/parallel.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/mathx_common.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr DTypeMask kF32F16BF16 = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});
constexpr int64_t kGrain = 32768;

void check_same_dtype(const char* arg, const aclTensor& t, const char* ref_name, const aclTensor& ref) {
  if (t.dtype != ref.dtype)
    invalid("{} dtype {} must equal {} dtype {}", arg, dtype_name(t.dtype), ref_name, dtype_name(ref.dtype));
}
void check_shape(const char* arg, const aclTensor& t, const Dims& expected, const char* what) {
  if (t.view != expected) invalid("{} has shape {}, expected {} {}", arg, dims_str(t.view), what, dims_str(expected));
}
void check_rank_in(const char* arg, const aclTensor& t, int64_t lo, int64_t hi) {
  if (t.dim() < lo || t.dim() > hi)
    invalid("{} has {} dims ({}), expected {} to {}", arg, t.dim(), t.describe(), lo, hi);
}

// ---- LinalgCross ----------------------------------------------------------------------------------

constexpr DTypeMask kCrossHere = kNumericTypes;
constexpr DTypeMask kCrossCann = kNumericTypes | dtype_mask({DType::kComplex64, DType::kComplex128});

template <typename T>
T mul_sub(T a, T b, T c, T d) {  // a*b - c*d, integers wrapping
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)) -
                          static_cast<U>(static_cast<U>(c) * static_cast<U>(d)));
  } else {
    return a * b - c * d;
  }
}

void plan_cross(OpBuilder& b, const aclTensor* self_arg, const aclTensor* other_arg, int64_t dim,
                const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& other = b.input(other_arg, "other");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_cann(b.op(), "self", self.dtype, kCrossCann, kCrossHere);
  check_same_dtype("other", other, "self", self);
  check_same_dtype("out", out, "self", self);
  check_rank(self, "self");
  check_rank(other, "other");
  check_rank(out, "out");
  const Dims shape = broadcast_shapes(self.view, "self", other.view, "other");
  check_shape_equals(out, "out", shape);
  const int64_t d_self = wrap_dim(dim, self.dim(), "dim");
  const int64_t d = d_self + (out.dim() - self.dim());
  if (out.view[static_cast<size_t>(d)] != 3)
    invalid("dim {} of the broadcast shape {} has size {}, expected 3", dim, dims_str(shape), out.view[static_cast<size_t>(d)]);
  if (out.numel() == 0) return;
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < out.dim(); ++k) {
    if (k < d) outer *= shape[static_cast<size_t>(k)];
    else if (k > d) inner *= shape[static_cast<size_t>(k)];
  }
  DensePlan p(b);
  p.separate_outputs();
  const DType t = arithmetic_dtype(self.dtype);
  const int si = p.strided(self), oi = p.strided(other);
  const int o = p.output(out, t);
  const int64_t n = out.numel();
  const size_t abuf = p.scratch(static_cast<size_t>(n) * dtype_size(t));
  const size_t bbuf = p.scratch(static_cast<size_t>(n) * dtype_size(t));
  const Dims ss = broadcast_strides(self, shape), os = broadcast_strides(other, shape);
  const DType stored = self.dtype;
  visit_arithmetic<TypeSet::kNumeric>(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    p.finish(std::string("cross.") + dtype_name(stored), [=](const DenseArgs& a) {
      T* x = a.scratch<T>(abuf);
      T* y = a.scratch<T>(bbuf);
      const Dims dense = contiguous_strides(shape);
      copy_strided(shape, t, x, dense, stored, a.ptr(si), ss);
      copy_strided(shape, t, y, dense, stored, a.ptr(oi), os);
      T* z = a.out<T>(o);
      parallel_for(outer * inner, kGrain / 3, [&](int64_t lo, int64_t hi, int) {
        for (int64_t r = lo; r < hi; ++r) {
          const int64_t base = (r / inner) * 3 * inner + r % inner;
          const T x0 = x[base], x1 = x[base + inner], x2 = x[base + 2 * inner];
          const T y0 = y[base], y1 = y[base + inner], y2 = y[base + 2 * inner];
          z[base] = mul_sub(x1, y2, x2, y1);
          z[base + inner] = mul_sub(x2, y0, x0, y2);
          z[base + 2 * inner] = mul_sub(x0, y1, x1, y0);
        }
      });
    });
  });
}

// ---- AffineGrid -----------------------------------------------------------------------------------

// PyTorch's linspace_from_neg_one: n points in [-1, 1], scaled by (n - 1) / n without alignCorners.
std::vector<float> base_coords(int64_t n, bool align_corners) {
  std::vector<float> v(static_cast<size_t>(n), 0.0f);
  if (n <= 1) return v;
  for (int64_t i = 0; i < n; ++i) {
    float x = static_cast<float>(-1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(n - 1));
    if (!align_corners) x = x * static_cast<float>(n - 1) / static_cast<float>(n);
    v[static_cast<size_t>(i)] = x;
  }
  return v;
}

void plan_affine_grid(OpBuilder& b, const aclTensor* theta_arg, const aclIntArray* size_arg, bool align_corners,
                      const aclTensor* out_arg) {
  const aclTensor& theta = b.input(theta_arg, "theta");
  const aclIntArray& size_a = b.int_array(size_arg, "size");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "theta", theta.dtype, kF32F16BF16);
  check_same_dtype("out", out, "theta", theta);
  if (theta.numel() == 0) invalid("theta is empty ({}); expected a batch of affine matrices", theta.describe());
  const std::vector<int64_t>& size = size_a.values;
  const bool three_d = size.size() == 5;
  if (size.size() != 4 && size.size() != 5)
    invalid("size has {} values, expected 4 (N, C, H, W) or 5 (N, C, D, H, W)", size.size());
  for (int64_t s : size)
    if (s < 0) invalid("size {} has a negative value", dims_str(size));
  const Dims want_theta = three_d ? Dims{size[0], 3, 4} : Dims{size[0], 2, 3};
  if (theta.view != want_theta)
    invalid("theta has shape {}, expected {} for size {}", dims_str(theta.view), dims_str(want_theta), dims_str(size));
  const Dims want_out =
      three_d ? Dims{size[0], size[2], size[3], size[4], 3} : Dims{size[0], size[2], size[3], 2};
  check_shape("out", out, want_out, "for size");
  if (out.numel() == 0) return;
  const int64_t n = size[0], dd = three_d ? size[2] : 1, hh = three_d ? size[3] : size[2], ww = three_d ? size[4] : size[3];
  const std::vector<float> xs = base_coords(ww, align_corners), ys = base_coords(hh, align_corners),
                           zs = base_coords(dd, align_corners);
  DensePlan p(b);
  p.separate_outputs();
  const int ti = p.input(theta, DType::kFloat);
  const int o = p.output(out, DType::kFloat);
  p.finish(std::string("affine_grid.") + dtype_name(theta.dtype), [=](const DenseArgs& a) {
    const float* th = a.in<float>(ti);
    float* g = a.out<float>(o);
    const int64_t rows = n * dd * hh;
    parallel_for(rows, std::max<int64_t>(1, kGrain / std::max<int64_t>(ww, 1)), [&](int64_t lo, int64_t hi, int) {
      for (int64_t r = lo; r < hi; ++r) {
        const int64_t bi = r / (dd * hh), zi = (r / hh) % dd, yi = r % hh;
        for (int64_t xi = 0; xi < ww; ++xi) {
          if (three_d) {
            const float* m = th + bi * 12;
            const float c[4] = {xs[static_cast<size_t>(xi)], ys[static_cast<size_t>(yi)], zs[static_cast<size_t>(zi)], 1.0f};
            float* dst = g + (r * ww + xi) * 3;
            for (int k = 0; k < 3; ++k) dst[k] = c[0] * m[k * 4] + c[1] * m[k * 4 + 1] + c[2] * m[k * 4 + 2] + m[k * 4 + 3];
          } else {
            const float* m = th + bi * 6;
            const float c[2] = {xs[static_cast<size_t>(xi)], ys[static_cast<size_t>(yi)]};
            float* dst = g + (r * ww + xi) * 2;
            for (int k = 0; k < 2; ++k) dst[k] = c[0] * m[k * 3] + c[1] * m[k * 3 + 1] + m[k * 3 + 2];
          }
        }
      }
    });
  });
}

// ---- ExpSegsum / ExpSegsumBackward ------------------------------------------------------------------

void plan_exp_segsum(OpBuilder& b, const aclTensor* self_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kF32F16BF16);
  check_same_dtype("out", out, "self", self);
  check_rank_in("self", self, 3, 4);
  Dims want = self.view;
  want.push_back(self.view.back());
  check_shape("out", out, want, "(self's shape and its last dim again)");
  if (out.numel() == 0) return;
  const int64_t len = self.view.back(), rows = self.numel() / len;
  DensePlan p(b);
  p.separate_outputs();
  const int si = p.input(self, DType::kFloat);
  const int o = p.output(out, DType::kFloat);
  p.finish(std::string("exp_segsum.") + dtype_name(self.dtype), [=](const DenseArgs& a) {
    const float* x = a.in<float>(si);
    float* y = a.out<float>(o);
    parallel_for(rows, std::max<int64_t>(1, kGrain / (len * len)), [&](int64_t lo, int64_t hi, int) {
      for (int64_t r = lo; r < hi; ++r) {
        const float* xr = x + r * len;
        float* yr = y + r * len * len;
        for (int64_t j = 0; j < len; ++j) {
          float acc = 0;  // the masked cumsum of column j: self[j+1] + ... + self[i]
          for (int64_t i = 0; i < len; ++i) {
            if (i > j) acc += xr[i];
            yr[i * len + j] = i >= j ? std::exp(acc) : 0.0f;
          }
        }
      }
    });
  });
}

void plan_exp_segsum_backward(OpBuilder& b, const aclTensor* go_arg, const aclTensor* gs_arg, const aclTensor* gi_arg) {
  const aclTensor& go = b.input(go_arg, "gradOutput");
  const aclTensor& gs = b.input(gs_arg, "gradSelf");
  const aclTensor& gi = b.output(gi_arg, "gradInput");
  check_dtype_in(b.op(), "gradOutput", go.dtype, kF32F16BF16);
  check_same_dtype("gradSelf", gs, "gradOutput", go);
  check_same_dtype("gradInput", gi, "gradOutput", go);
  check_rank_in("gradOutput", go, 4, 5);
  const int64_t len = go.view.back();
  if (go.view[go.view.size() - 2] != len)
    invalid("gradOutput has shape {}, expected its last two dims to be equal", dims_str(go.view));
  check_shape("gradSelf", gs, go.view, "the shape of gradOutput");
  const Dims want(go.view.begin(), go.view.end() - 1);
  check_shape("gradInput", gi, want, "(gradOutput's shape without its last dim)");
  if (gi.numel() == 0) return;
  const int64_t rows = gi.numel() / len;
  DensePlan p(b);
  p.separate_outputs();
  const int oi = p.input(go, DType::kFloat), si = p.input(gs, DType::kFloat);
  const int o = p.output(gi, DType::kFloat);
  const size_t col = p.scratch(static_cast<size_t>(len) * sizeof(float) * static_cast<size_t>(max_threads()));
  p.finish(std::string("exp_segsum_backward.") + dtype_name(go.dtype), [=](const DenseArgs& a) {
    const float* g = a.in<float>(oi);
    const float* s = a.in<float>(si);
    float* dx = a.out<float>(o);
    parallel_for(rows, std::max<int64_t>(1, kGrain / (len * len)), [&](int64_t lo, int64_t hi, int tid) {
      float* acc = a.scratch<float>(col) + static_cast<int64_t>(tid) * len;
      for (int64_t r = lo; r < hi; ++r) {
        const float* gr = g + r * len * len;
        const float* sr = s + r * len * len;
        // dx[i] = sum_{j < i} sum_{k >= i} go[k][j] * gs[k][j]: the reverse cumsum down each
        // column j, over the strictly lower triangle.
        for (int64_t i = 0; i < len; ++i) acc[i] = 0;
        for (int64_t j = 0; j < len; ++j) {
          float c = 0;
          for (int64_t i = len - 1; i > j; --i) {
            c += gr[i * len + j] * sr[i * len + j];
            acc[i] += c;
          }
        }
        for (int64_t i = 0; i < len; ++i) dx[r * len + i] = acc[i];
      }
    });
  });
}

// ---- KlDiv ----------------------------------------------------------------------------------------

void plan_kl_div(OpBuilder& b, const aclTensor* self_arg, const aclTensor* target_arg, int64_t reduction,
                 bool log_target, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& target = b.input(target_arg, "target");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kF32F16BF16);
  check_dtype_in(b.op(), "target", target.dtype, kF32F16BF16);
  check_dtype_in(b.op(), "out", out.dtype, kF32F16BF16);
  const DType compute = promote(self.dtype, target.dtype);
  check_can_cast(compute, out, "out");
  check_rank(self, "self");
  check_rank(target, "target");
  if (reduction < 0 || reduction > 3)
    invalid("reduction is {}, expected 0 (none), 1 (mean), 2 (sum) or 3 (batchmean)", reduction);
  const Dims sv = self.dim() == 0 ? Dims{1} : self.view, tv = target.dim() == 0 ? Dims{1} : target.view;
  const Dims shape = broadcast_shapes(sv, "self", tv, "target");
  if (reduction == 0) {
    check_shape_equals(out, "out", self.dim() == 0 && target.dim() == 0 ? Dims{} : shape);
  } else if (out.numel() != 1 || out.dim() > 1) {
    invalid("out has shape {}, expected [1] (or []) for reduction {}", dims_str(out.view), reduction);
  }
  const int64_t n = checked_numel(shape, "the broadcast shape");
  if (reduction == 0 && n == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int si = p.strided(self), ti = p.strided(target);
  const int o = p.output(out, DType::kFloat);
  const size_t xb = p.scratch(static_cast<size_t>(n) * sizeof(float)), yb = p.scratch(static_cast<size_t>(n) * sizeof(float));
  // Strides of self/target viewed with `shape` (a 0-d operand is one element: all strides 0).
  const Dims sst = self.dim() == 0 ? Dims(shape.size(), 0) : broadcast_strides(self, shape);
  const Dims tst = target.dim() == 0 ? Dims(shape.size(), 0) : broadcast_strides(target, shape);
  const DType st = self.dtype, tt = target.dtype;
  const double batch = shape.empty() ? 1.0 : static_cast<double>(shape[0]);
  p.finish(std::string("kl_div.") + dtype_name(compute), [=](const DenseArgs& a) {
    float* x = a.scratch<float>(xb);
    float* y = a.scratch<float>(yb);
    const Dims dense = contiguous_strides(shape);
    // Operands are cast to the promoted dtype first (a float16/bfloat16 mix computes in float32).
    copy_strided(shape, DType::kFloat, x, dense, st, a.ptr(si), sst);
    copy_strided(shape, DType::kFloat, y, dense, tt, a.ptr(ti), tst);
    float* dst = a.out<float>(o);
    auto pointwise = [&](int64_t i) -> float {
      if (log_target) return std::exp(y[i]) * (y[i] - x[i]);
      if (!(y[i] > 0)) return std::numeric_limits<float>::quiet_NaN();
      return y[i] * (std::log(y[i]) - x[i]);
    };
    if (reduction == 0) {
      parallel_for(n, kGrain, [&](int64_t lo, int64_t hi, int) {
        for (int64_t i = lo; i < hi; ++i) dst[i] = pointwise(i);
      });
      return;
    }
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += pointwise(i);
    double r = sum;
    if (reduction == 1) r = sum / static_cast<double>(n);
    else if (reduction == 3) r = sum / batch;
    dst[0] = static_cast<float>(r);
  });
}

// ---- Sinkhorn -------------------------------------------------------------------------------------

constexpr int kSinkhornMaxIterations = 100000;

void plan_sinkhorn(OpBuilder& b, const aclTensor* cost_arg, const aclScalar* tol_arg, const aclTensor* p_arg) {
  const aclTensor& cost = b.input(cost_arg, "cost");
  const aclTensor& pt = b.output(p_arg, "p");
  check_dtype_in(b.op(), "cost", cost.dtype, kF32F16BF16);
  check_dtype_in(b.op(), "p", pt.dtype, kF32F16BF16);
  check_same_dtype("p", pt, "cost", cost);
  if (cost.dim() != 2) invalid("cost has {} dims ({}), expected 2", cost.dim(), cost.describe());
  check_shape("p", pt, cost.view, "the shape of cost");
  float tol = 0.0001f;
  if (tol_arg) tol = static_cast<float>(b.scalar(tol_arg, "tol").to_double());
  if (pt.numel() == 0) return;
  const int64_t rows = cost.view[0], cols = cost.view[1];
  DensePlan p(b);
  p.separate_outputs();
  const int ci = p.input(cost, DType::kFloat);
  const int o = p.output(pt, DType::kFloat);
  const size_t eb = p.scratch(static_cast<size_t>(rows * cols) * sizeof(float));
  const size_t d0b = p.scratch(static_cast<size_t>(rows) * sizeof(float));
  const size_t d1b = p.scratch(static_cast<size_t>(cols) * sizeof(float) * 2);
  p.finish(std::string("sinkhorn.") + dtype_name(cost.dtype), [=](const DenseArgs& a) {
    const float* c = a.in<float>(ci);
    float* e = a.scratch<float>(eb);
    float* d0 = a.scratch<float>(d0b);
    float* d1 = a.scratch<float>(d1b);
    float* d1_old = d1 + cols;
    const float eps = 0.00000001f;
    for (int64_t i = 0; i < rows * cols; ++i) e[i] = std::exp(c[i]);
    for (int64_t j = 0; j < cols; ++j) d1[j] = d1_old[j] = 1.0f;
    for (int it = 0; it < kSinkhornMaxIterations; ++it) {
      for (int64_t i = 0; i < rows; ++i) {
        float s = 0;
        for (int64_t j = 0; j < cols; ++j) s += d1[j] * e[i * cols + j];
        d0[i] = 1.0f / (static_cast<float>(rows) * (s + eps));
      }
      for (int64_t j = 0; j < cols; ++j) {
        float s = 0;
        for (int64_t i = 0; i < rows; ++i) s += d0[i] * e[i * cols + j];
        d1[j] = 1.0f / (static_cast<float>(cols) * (s + eps));
      }
      float err = 0;
      for (int64_t j = 0; j < cols; ++j) err += std::fabs(d1_old[j] - d1[j]);
      err /= static_cast<float>(cols);
      std::memcpy(d1_old, d1, static_cast<size_t>(cols) * sizeof(float));
      if (err <= tol) break;
    }
    float* out = a.out<float>(o);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) out[i * cols + j] = d1[j] * e[i * cols + j] * d0[i];
  });
}

// ---- AmpUpdateScale -------------------------------------------------------------------------------

void plan_amp_update_scale(OpBuilder& b, const aclTensor* scale_arg, const aclTensor* tracker_arg,
                           const aclTensor* inf_arg, double growth, double backoff, int64_t interval,
                           const aclTensor* new_scale_arg, const aclTensor* new_tracker_arg) {
  const aclTensor& scale = b.input(scale_arg, "currentScale");
  const aclTensor& tracker = b.input(tracker_arg, "growthTracker");
  const aclTensor& found = b.input(inf_arg, "foundInf");
  const aclTensor& new_scale = b.output(new_scale_arg, "updatedScale");
  const aclTensor& new_tracker = b.output(new_tracker_arg, "updatedGrowthTracker");
  check_dtype_in(b.op(), "currentScale", scale.dtype, kF32F16BF16);
  check_dtype_in(b.op(), "growthTracker", tracker.dtype, dtype_mask({DType::kInt32}));
  check_same_dtype("foundInf", found, "currentScale", scale);
  check_same_dtype("updatedScale", new_scale, "currentScale", scale);
  check_dtype_in(b.op(), "updatedGrowthTracker", new_tracker.dtype, dtype_mask({DType::kInt32}));
  const std::pair<const char*, const aclTensor*> all[] = {{"currentScale", &scale},
                                                          {"growthTracker", &tracker},
                                                          {"foundInf", &found},
                                                          {"updatedScale", &new_scale},
                                                          {"updatedGrowthTracker", &new_tracker}};
  for (const auto& [name, t] : all)
    if (t->view != Dims{1}) invalid("{} has shape {}, expected [1]", name, dims_str(t->view));
  if (interval < 1) invalid("growthInterval is {}, expected a value >= 1", interval);
  DensePlan p(b);
  p.separate_outputs();
  const int si = p.input(scale, DType::kFloat), ti = p.input(tracker, DType::kInt32), fi = p.input(found, DType::kFloat);
  const int so = p.output(new_scale, DType::kFloat), to = p.output(new_tracker, DType::kInt32);
  const float g = static_cast<float>(growth), bo = static_cast<float>(backoff);
  p.finish(std::string("amp_update_scale.") + dtype_name(scale.dtype), [=](const DenseArgs& a) {
    float s = *a.in<float>(si);
    int32_t t = *a.in<int32_t>(ti);
    if (*a.in<float>(fi) != 0.0f) {
      s *= bo;
      t = 0;
    } else {
      const int64_t successful = static_cast<int64_t>(t) + 1;
      if (successful == interval) {
        const float grown = s * g;
        if (std::isfinite(grown)) s = grown;
        t = 0;
      } else {
        t = static_cast<int32_t>(successful);
      }
    }
    *a.out<float>(so) = s;
    *a.out<int32_t>(to) = t;
  });
}

// ---- SignBitsPack / SignBitsUnpack ------------------------------------------------------------------

void plan_sign_bits_pack(OpBuilder& b, const aclTensor* self_arg, int64_t size, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, dtype_mask({DType::kFloat16, DType::kFloat}));
  check_dtype_in(b.op(), "out", out.dtype, dtype_mask({DType::kUInt8}));
  if (self.dim() != 1) invalid("self has {} dims ({}), expected 1", self.dim(), self.describe());
  if (size <= 0) invalid("size is {}, expected a positive value", size);
  const int64_t n = self.numel(), bytes = (n + 7) / 8;
  if (bytes % size != 0) invalid("size {} does not divide the {} packed bytes of {} elements", size, bytes, n);
  check_shape("out", out, Dims{size, bytes / size}, "(size, packed bytes / size)");
  if (out.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int si = p.input(self, DType::kFloat);
  const int o = p.output(out, DType::kUInt8);
  p.finish(std::string("sign_bits_pack.") + dtype_name(self.dtype), [=](const DenseArgs& a) {
    const float* x = a.in<float>(si);
    uint8_t* y = a.out<uint8_t>(o);
    for (int64_t k = 0; k < bytes; ++k) {
      unsigned v = 0;
      for (int64_t i = 0; i < 8; ++i) {
        const int64_t e = k * 8 + i;
        const bool bit = e >= n || x[e] < 0;  // padding elements count as negative
        v |= static_cast<unsigned>(bit) << (7 - i);
      }
      y[k] = static_cast<uint8_t>(v);
    }
  });
}

void plan_sign_bits_unpack(OpBuilder& b, const aclTensor* self_arg, int64_t size, aclDataType dtype,
                           const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, dtype_mask({DType::kUInt8}));
  const DType want = static_cast<DType>(dtype);
  if (want != DType::kFloat16 && want != DType::kFloat)
    invalid("dtype is {}, expected float16 or float32", dtype_name(want));
  if (out.dtype != want) invalid("out dtype {} must equal dtype {}", dtype_name(out.dtype), dtype_name(want));
  if (self.dim() != 1) invalid("self has {} dims ({}), expected 1", self.dim(), self.describe());
  if (size <= 0) invalid("size is {}, expected a positive value", size);
  const int64_t n = self.numel() * 8;
  if (n % size != 0) invalid("size {} does not divide the {} unpacked elements", size, n);
  check_shape("out", out, Dims{size, n / size}, "(size, 8 * bytes / size)");
  if (out.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int si = p.input(self, DType::kUInt8);
  const int o = p.output(out, DType::kFloat);
  p.finish(std::string("sign_bits_unpack.") + dtype_name(want), [=](const DenseArgs& a) {
    const uint8_t* x = a.in<uint8_t>(si);
    float* y = a.out<float>(o);
    for (int64_t e = 0; e < n; ++e) y[e] = ((x[e / 8] >> (e % 8)) & 1u) ? 1.0f : -1.0f;
  });
}

// ---- TransformBiasRescaleQkv ------------------------------------------------------------------------

void plan_transform_qkv(OpBuilder& b, const aclTensor* qkv_arg, const aclTensor* bias_arg, int64_t heads,
                        const aclTensor* q_arg, const aclTensor* k_arg, const aclTensor* v_arg) {
  const aclTensor& qkv = b.input(qkv_arg, "qkv");
  const aclTensor& bias = b.input(bias_arg, "qkvBias");
  const aclTensor& q = b.output(q_arg, "qOut");
  const aclTensor& k = b.output(k_arg, "kOut");
  const aclTensor& v = b.output(v_arg, "vOut");
  check_dtype_in(b.op(), "qkv", qkv.dtype, kF32F16BF16);
  check_same_dtype("qkvBias", bias, "qkv", qkv);
  check_same_dtype("qOut", q, "qkv", qkv);
  check_same_dtype("kOut", k, "qkv", qkv);
  check_same_dtype("vOut", v, "qkv", qkv);
  if (qkv.dim() != 3) invalid("qkv has {} dims ({}), expected 3 (B, T, 3 * numHeads * dim)", qkv.dim(), qkv.describe());
  if (heads <= 0) invalid("numHeads is {}, expected a positive value", heads);
  const int64_t bsz = qkv.view[0], tlen = qkv.view[1], width = qkv.view[2];
  if (width % (3 * heads) != 0)
    invalid("qkv's last dim {} is not a multiple of 3 * numHeads ({})", width, 3 * heads);
  const int64_t d = width / (3 * heads);
  check_shape("qkvBias", bias, Dims{width}, "(qkv's last dim)");
  if (bias.numel() == 0) invalid("qkvBias is empty");
  const Dims want{bsz, heads, tlen, d};
  check_shape("qOut", q, want, "(B, numHeads, T, dim)");
  check_shape("kOut", k, want, "(B, numHeads, T, dim)");
  check_shape("vOut", v, want, "(B, numHeads, T, dim)");
  if (q.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int xi = p.input(qkv, DType::kFloat), bi = p.input(bias, DType::kFloat);
  const int qi = p.output(q, DType::kFloat), ki = p.output(k, DType::kFloat), vi = p.output(v, DType::kFloat);
  const float root = std::sqrt(static_cast<float>(d));
  p.finish(std::string("transform_bias_rescale_qkv.") + dtype_name(qkv.dtype), [=](const DenseArgs& a) {
    const float* x = a.in<float>(xi);
    const float* bs = a.in<float>(bi);
    float* outs[3] = {a.out<float>(qi), a.out<float>(ki), a.out<float>(vi)};
    parallel_for(bsz * tlen, std::max<int64_t>(1, kGrain / width), [&](int64_t lo, int64_t hi, int) {
      for (int64_t r = lo; r < hi; ++r) {
        const int64_t bb = r / tlen, t = r % tlen;
        for (int64_t c = 0; c < width; ++c) {
          const int64_t which = c / (heads * d), h = (c / d) % heads, j = c % d;
          float val = x[r * width + c] + bs[c];
          if (which == 0) val /= root;
          outs[which][((bb * heads + h) * tlen + t) * d + j] = val;
        }
      }
    });
  });
}

// ---- PrecisionCompare -----------------------------------------------------------------------------

void plan_precision_compare(OpBuilder& b, const aclTensor* golden_arg, const aclTensor* real_arg,
                            const aclTensor* out_arg) {
  const aclTensor& golden = b.input(golden_arg, "golden");
  const aclTensor& real = b.input(real_arg, "realdata");
  const aclTensor& out = b.output(out_arg, "out");
  check_same_dtype("realdata", real, "golden", golden);
  check_dtype_in(b.op(), "golden", golden.dtype, kF32F16BF16);
  check_dtype_in(b.op(), "out", out.dtype, dtype_mask({DType::kUInt32}));
  check_shape("realdata", real, golden.view, "the shape of golden");
  check_rank(golden, "golden");
  if (out.dim() != 0) invalid("out has {} dims ({}), expected a 0-d tensor", out.dim(), out.describe());
  if (golden.numel() == 0) return;
  DensePlan p(b);
  const int gi = p.input(golden, golden.dtype), ri = p.input(real, real.dtype);
  const int o = p.output(out, DType::kUInt32);
  const size_t bytes = static_cast<size_t>(golden.numel()) * dtype_size(golden.dtype);
  p.finish(std::string("precision_compare.") + dtype_name(golden.dtype), [=](const DenseArgs& a) {
    *a.out<uint32_t>(o) = std::memcmp(a.ptr(gi), a.ptr(ri), bytes) == 0 ? 0u : 503u;
  });
}

// ---- GroupedBiasAddGrad ---------------------------------------------------------------------------

void plan_grouped_bias_add_grad(OpBuilder& b, const aclTensor* grad_arg, const aclTensor* idx_arg, int64_t idx_type,
                                const aclTensor* out_arg) {
  const aclTensor& grad = b.input(grad_arg, "gradY");
  const aclTensor* idx = idx_arg ? &b.input(idx_arg, "groupIdxOptional") : nullptr;
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "gradY", grad.dtype, kF32F16BF16);
  check_same_dtype("out", out, "gradY", grad);
  if (idx) check_dtype_in(b.op(), "groupIdxOptional", idx->dtype, dtype_mask({DType::kInt32, DType::kInt64}));
  if (idx_type != 0 && idx_type != 1) invalid("groupIdxType is {}, expected 0 (group ends) or 1 (group sizes)", idx_type);
  int64_t groups, rows_per = 0, h;
  if (idx) {
    if (grad.dim() != 2) invalid("gradY has {} dims ({}), expected 2 with groupIdxOptional", grad.dim(), grad.describe());
    if (idx->dim() != 1) invalid("groupIdxOptional has {} dims ({}), expected 1", idx->dim(), idx->describe());
    groups = idx->view[0];
    h = grad.view[1];
  } else {
    if (grad.dim() != 3) invalid("gradY has {} dims ({}), expected 3 without groupIdxOptional", grad.dim(), grad.describe());
    groups = grad.view[0];
    rows_per = grad.view[1];
    h = grad.view[2];
  }
  check_shape("out", out, Dims{groups, h}, "(groups, gradY's last dim)");
  if (out.numel() == 0) return;
  const int64_t total_rows = idx ? grad.view[0] : groups * rows_per;
  DensePlan p(b);
  p.separate_outputs();
  const int gi = p.input(grad, DType::kFloat);
  const int ii = idx ? p.input(*idx, DType::kInt64) : -1;
  const int o = p.output(out, DType::kFloat);
  const bool counts = idx_type == 1;
  p.finish(std::string("grouped_bias_add_grad.") + dtype_name(grad.dtype), [=](const DenseArgs& a) {
    const float* g = a.in<float>(gi);
    const int64_t* ends = ii >= 0 ? a.in<int64_t>(ii) : nullptr;
    float* dst = a.out<float>(o);
    // Group ranges; group ends outside [previous end, rows] are clamped (an empty or cut group).
    std::vector<int64_t> start(static_cast<size_t>(groups)), stop(static_cast<size_t>(groups));
    int64_t prev = 0;
    for (int64_t j = 0; j < groups; ++j) {
      int64_t e = ends ? (counts ? prev + ends[j] : ends[j]) : (j + 1) * rows_per;
      e = std::min(std::max(e, prev), total_rows);
      start[static_cast<size_t>(j)] = prev;
      stop[static_cast<size_t>(j)] = e;
      prev = e;
    }
    parallel_for(groups, 1, [&](int64_t lo, int64_t hi, int) {
      for (int64_t j = lo; j < hi; ++j) {
        float* row = dst + j * h;
        for (int64_t c = 0; c < h; ++c) row[c] = 0;
        for (int64_t r = start[static_cast<size_t>(j)]; r < stop[static_cast<size_t>(j)]; ++r)
          for (int64_t c = 0; c < h; ++c) row[c] += g[r * h + c];
      }
    });
  });
}

}  // namespace
}  // namespace pacl

#define PACL_PHASE1(Name, ...)                                                                     \
  pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor, \
                   [&](pacl::OpBuilder& b) { __VA_ARGS__; })

extern "C" {

aclnnStatus aclnnLinalgCrossGetWorkspaceSize(const aclTensor* self, const aclTensor* other, int64_t dim, aclTensor* out,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(LinalgCross, pacl::plan_cross(b, self, other, dim, out));
}
aclnnStatus aclnnAffineGridGetWorkspaceSize(const aclTensor* theta, const aclIntArray* size, bool alignCorners,
                                            aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(AffineGrid, pacl::plan_affine_grid(b, theta, size, alignCorners, out));
}
aclnnStatus aclnnExpSegsumGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  return PACL_PHASE1(ExpSegsum, pacl::plan_exp_segsum(b, self, out));
}
aclnnStatus aclnnExpSegsumBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* gradSelf,
                                                   aclTensor* gradInput, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return PACL_PHASE1(ExpSegsumBackward, pacl::plan_exp_segsum_backward(b, gradOutput, gradSelf, gradInput));
}
aclnnStatus aclnnKlDivGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                       bool logTarget, aclTensor* out, uint64_t* workspaceSize,
                                       aclOpExecutor** executor) {
  return PACL_PHASE1(KlDiv, pacl::plan_kl_div(b, self, target, reduction, logTarget, out));
}
aclnnStatus aclnnSinkhornGetWorkspaceSize(const aclTensor* cost, const aclScalar* tol, aclTensor* p,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Sinkhorn, pacl::plan_sinkhorn(b, cost, tol, p));
}
aclnnStatus aclnnAmpUpdateScaleGetWorkspaceSize(const aclTensor* currentScale, const aclTensor* growthTracker,
                                                const aclTensor* foundInf, double growthFactor, double backoffFactor,
                                                int64_t growthInterval, const aclTensor* updatedScale,
                                                const aclTensor* updatedGrowthTracker, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  return PACL_PHASE1(AmpUpdateScale,
                     pacl::plan_amp_update_scale(b, currentScale, growthTracker, foundInf, growthFactor, backoffFactor,
                                                 growthInterval, updatedScale, updatedGrowthTracker));
}
aclnnStatus aclnnSignBitsPackGetWorkspaceSize(const aclTensor* self, int64_t size, aclTensor* out,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(SignBitsPack, pacl::plan_sign_bits_pack(b, self, size, out));
}
aclnnStatus aclnnSignBitsUnpackGetWorkspaceSize(const aclTensor* self, int64_t size, aclDataType dtype, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(SignBitsUnpack, pacl::plan_sign_bits_unpack(b, self, size, dtype, out));
}
aclnnStatus aclnnTransformBiasRescaleQkvGetWorkspaceSize(const aclTensor* qkv, const aclTensor* qkvBias,
                                                         int64_t numHeads, const aclTensor* qOut,
                                                         const aclTensor* kOut, const aclTensor* vOut,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(TransformBiasRescaleQkv, pacl::plan_transform_qkv(b, qkv, qkvBias, numHeads, qOut, kOut, vOut));
}
aclnnStatus aclnnPrecisionCompareGetWorkspaceSize(const aclTensor* golden, const aclTensor* realdata, aclTensor* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(PrecisionCompare, pacl::plan_precision_compare(b, golden, realdata, out));
}
aclnnStatus aclnnGroupedBiasAddGradGetWorkspaceSize(const aclTensor* gradY, const aclTensor* groupIdxOptional,
                                                    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(GroupedBiasAddGrad, pacl::plan_grouped_bias_add_grad(b, gradY, groupIdxOptional, 0, out));
}
aclnnStatus aclnnGroupedBiasAddGradV2GetWorkspaceSize(const aclTensor* gradY, const aclTensor* groupIdxOptional,
                                                      int64_t groupIdxType, aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return PACL_PHASE1(GroupedBiasAddGradV2,
                     pacl::plan_grouped_bias_add_grad(b, gradY, groupIdxOptional, groupIdxType, out));
}

}  // extern "C"
