// Softmax, LogSoftmax and their backward ops along one dim, as rows::Layout problems:
//   Softmax             y = exp(x - m) / sum(exp(x - m)),       m = max(x)
//   LogSoftmax          y = (x - m) - log(sum(exp(x - m)))
//   SoftmaxBackward     out = y * (g - sum(g * y))               (y: Softmax's output)
//   LogSoftmaxBackward  out = g - exp(y) * sum(g)                (y: LogSoftmax's output)
// Computed in float32 for float16/bfloat16 (float64 for float64). As CANN, the result is formed in
// the input's dtype and then cast to out's: a float16 input with a float32 out is rounded to
// float16 first. NaN anywhere in a line makes the whole line NaN (the sums carry it), as in PyTorch;
// so do +inf in a forward line and a line of only -inf.
#include <cmath>
#include <type_traits>

#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_logsoftmax_backward.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_masked_softmax_with_rel_pos_bias.h"
#include "aclnnop/aclnn_softmax_backward.h"
#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"
#include "core/convert.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/elementwise_op.h"
#include "core/parallel.h"
#include "ops/norm_rows.h"
#include "ops/registry.h"

namespace pacl {
namespace {

using rows::kColBlock;

enum class Kind { kSoftmax, kLogSoftmax, kSoftmaxGrad, kLogSoftmaxGrad };

rows::Layout layout_along(const Dims& shape, int64_t d) {
  rows::Layout g;
  for (int64_t k = 0; k < static_cast<int64_t>(shape.size()); ++k) {
    const int64_t s = shape[static_cast<size_t>(k)];
    if (k < d) g.outer *= s;
    else if (k == d) g.n = s;
    else g.inner *= s;
  }
  return g;
}

// stream (T float, rows only): results go out with non-temporal stores (see rows::kStreamBytes);
// Softmax then keeps exp(x - max) in `ebuf`, a row of n values per thread.
template <typename T>
void softmax_forward(bool log, const T* x, T* y, const rows::Layout& g, bool stream, T* ebuf) {
  const int64_t n = g.n, inner = g.inner;
  rows::for_each_line(
      g,
      [&](int64_t off, int thread) {
        const T* xr = x + off;
        T* yr = y + off;
        const T m = rows::max(xr, n);
        if (log) {
          const T* next = (stream && off + n < g.outer * n) ? xr + n : nullptr;
          const T s = rows::sum_prefetch<T>(n, [xr, m](int64_t i) { return std::exp(xr[i] - m); }, next);
          const T ls = std::log(s);
          if constexpr (std::is_same_v<T, float>) {
            if (stream) return rows::write_stream(yr, n, [xr, m, ls](int64_t i) { return (xr[i] - m) - ls; });
          }
          for (int64_t i = 0; i < n; ++i) yr[i] = (xr[i] - m) - ls;
        } else {
          T* e = stream ? ebuf + thread * n : yr;
          const T* next = (stream && off + n < g.outer * n) ? xr + n : nullptr;
          const T inv = T(1) / rows::sum_prefetch<T>(
                                   n,
                                   [xr, m, e](int64_t i) {
                                     const T v = std::exp(xr[i] - m);
                                     e[i] = v;
                                     return v;
                                   },
                                   next);
          if constexpr (std::is_same_v<T, float>) {
            if (stream) return rows::scale_stream(yr, e, inv, n);
          }
          for (int64_t i = 0; i < n; ++i) yr[i] *= inv;
        }
      },
      [&](int64_t off, int64_t w) {
        T m[kColBlock], s[kColBlock];
        for (int64_t j = 0; j < w; ++j) {
          m[j] = -std::numeric_limits<T>::infinity();
          s[j] = 0;
        }
        for (int64_t r = 0; r < n; ++r) {
          const T* xr = x + off + r * inner;
          for (int64_t j = 0; j < w; ++j) m[j] = xr[j] > m[j] ? xr[j] : m[j];
        }
        if (log) {
          for (int64_t r = 0; r < n; ++r) {
            const T* xr = x + off + r * inner;
            for (int64_t j = 0; j < w; ++j) s[j] += std::exp(xr[j] - m[j]);
          }
          for (int64_t j = 0; j < w; ++j) s[j] = std::log(s[j]);
          for (int64_t r = 0; r < n; ++r) {
            const T* xr = x + off + r * inner;
            T* yr = y + off + r * inner;
            for (int64_t j = 0; j < w; ++j) yr[j] = (xr[j] - m[j]) - s[j];
          }
        } else {
          for (int64_t r = 0; r < n; ++r) {
            const T* xr = x + off + r * inner;
            T* yr = y + off + r * inner;
            for (int64_t j = 0; j < w; ++j) {
              const T e = std::exp(xr[j] - m[j]);
              yr[j] = e;
              s[j] += e;
            }
          }
          for (int64_t j = 0; j < w; ++j) s[j] = T(1) / s[j];
          for (int64_t r = 0; r < n; ++r) {
            T* yr = y + off + r * inner;
            for (int64_t j = 0; j < w; ++j) yr[j] *= s[j];
          }
        }
      });
}

template <typename T>
void softmax_backward(bool log, const T* gr, const T* y, T* out, const rows::Layout& g, bool stream) {
  const int64_t n = g.n, inner = g.inner;
  rows::for_each_line(
      g,
      [&](int64_t off, int) {
        const T* gl = gr + off;
        const T* yl = y + off;
        T* ol = out + off;
        if (log) {
          const T s = rows::sum<T>(n, [gl](int64_t i) { return gl[i]; });
          auto f = [gl, yl, s](int64_t i) { return gl[i] - std::exp(yl[i]) * s; };
          if constexpr (std::is_same_v<T, float>) {
            if (stream) return rows::write_stream(ol, n, f);
          }
          for (int64_t i = 0; i < n; ++i) ol[i] = f(i);
        } else {
          const T d = rows::sum<T>(n, [gl, yl](int64_t i) { return gl[i] * yl[i]; });
          auto f = [gl, yl, d](int64_t i) { return yl[i] * (gl[i] - d); };
          if constexpr (std::is_same_v<T, float>) {
            if (stream) return rows::write_stream(ol, n, f);
          }
          for (int64_t i = 0; i < n; ++i) ol[i] = f(i);
        }
      },
      [&](int64_t off, int64_t w) {
        T s[kColBlock];
        for (int64_t j = 0; j < w; ++j) s[j] = 0;
        for (int64_t r = 0; r < n; ++r) {
          const T* gl = gr + off + r * inner;
          const T* yl = y + off + r * inner;
          if (log) {
            for (int64_t j = 0; j < w; ++j) s[j] += gl[j];
          } else {
            for (int64_t j = 0; j < w; ++j) s[j] += gl[j] * yl[j];
          }
        }
        for (int64_t r = 0; r < n; ++r) {
          const T* gl = gr + off + r * inner;
          const T* yl = y + off + r * inner;
          T* ol = out + off + r * inner;
          if (log) {
            for (int64_t j = 0; j < w; ++j) ol[j] = gl[j] - std::exp(yl[j]) * s[j];
          } else {
            for (int64_t j = 0; j < w; ++j) ol[j] = yl[j] * (gl[j] - s[j]);
          }
        }
      });
}

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::kSoftmax: return "softmax";
    case Kind::kLogSoftmax: return "log_softmax";
    case Kind::kSoftmaxGrad: return "softmax_backward";
    default: return "log_softmax_backward";
  }
}

// x: self (forward) or gradOutput (backward); y: output (backward only).
void plan(OpBuilder& b, Kind kind, const aclTensor* x_arg, const aclTensor* y_arg, int64_t dim,
          const aclTensor* out_arg) {
  const bool backward = kind == Kind::kSoftmaxGrad || kind == Kind::kLogSoftmaxGrad;
  const char* x_name = backward ? "gradOutput" : "self";
  const aclTensor& x = b.input(x_arg, x_name);
  const aclTensor* y = backward ? &b.input(y_arg, "output") : nullptr;
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), x_name, x.dtype, kFloatingTypes);
  if (y) {
    check_dtype_in(b.op(), "output", y->dtype, kFloatingTypes);
    if (y->dtype != x.dtype)
      invalid("output has dtype {}, expected the dtype of gradOutput ({})", dtype_name(y->dtype), dtype_name(x.dtype));
  }
  check_dtype_in(b.op(), "out", out.dtype, kFloatingTypes);
  check_rank(x, x_name);
  const int64_t d = wrap_dim(dim, x.dim(), "dim");
  if (y) check_shape_equals(*y, "output", x.view, "the shape of gradOutput");
  check_shape_equals(out, "out", x.view, backward ? "the shape of gradOutput" : "the shape of self");
  if (out.numel() == 0) return;

  const DType ct = arithmetic_dtype(x.dtype);
  const DType round_to = (ct != x.dtype && out.dtype != x.dtype) ? x.dtype : DType::kUndefined;
  const rows::Layout g = layout_along(x.view, d);
  const int64_t numel = out.numel();
  DensePlan p(b);
  p.separate_outputs();
  const int xi = p.input(x, ct);
  const int yi = y ? p.input(*y, ct) : -1;
  const int oi = p.output(out, ct);
  // Large float row problems stream their results (the forward softmax keeps exp(x - max) in a
  // per-thread row buffer meanwhile).
  const bool stream = ct == DType::kFloat && g.inner == 1 && numel * 4 >= rows::kStreamBytes;
  const bool buffers = stream && kind == Kind::kSoftmax;
  const size_t sbuf = buffers ? p.scratch(static_cast<size_t>(max_threads()) * static_cast<size_t>(g.n) * 4) : 0;
  p.finish(std::string(kind_name(kind)) + "." + dtype_name(x.dtype) + (g.inner == 1 ? ".rows" : ".columns"),
           [=](const DenseArgs& a) {
             visit_arithmetic<TypeSet::kFloating>(ct, [&](auto tag) {
               using T = typename decltype(tag)::type;
               switch (kind) {
                 case Kind::kSoftmax:
                 case Kind::kLogSoftmax: {
                   T* ebuf = buffers ? a.scratch<T>(sbuf) : nullptr;
                   softmax_forward<T>(kind == Kind::kLogSoftmax, a.in<T>(xi), a.out<T>(oi), g, stream, ebuf);
                   break;
                 }
                 case Kind::kSoftmaxGrad: softmax_backward<T>(false, a.in<T>(xi), a.in<T>(yi), a.out<T>(oi), g, stream); break;
                 case Kind::kLogSoftmaxGrad: softmax_backward<T>(true, a.in<T>(xi), a.in<T>(yi), a.out<T>(oi), g, stream); break;
               }
             });
             if (round_to != DType::kUndefined) round_to_16bit(round_to, a.out<float>(oi), numel);
           });
}

// SoftmaxCrossEntropyWithLogits: per row of features x and labels y (both [B, K]),
//   loss = sum(y * (log(sum(exp(x - m))) - (x - m))) = -sum(y * log_softmax(x)),
//   backprop = softmax(x) - y.
void plan_softmax_xent(OpBuilder& b, const aclTensor* x_arg, const aclTensor* y_arg, const aclTensor* loss_arg,
                       const aclTensor* bp_arg) {
  const aclTensor& x = b.input(x_arg, "features");
  const aclTensor& y = b.input(y_arg, "labels");
  const aclTensor& loss = b.output(loss_arg, "loss");
  const aclTensor& bp = b.output(bp_arg, "backprop");
  const OpInfo& op = b.op();
  check_dtype_in(op, "features", x.dtype, kFloatingTypes);
  if (y.dtype != x.dtype)
    invalid("labels has dtype {}, expected the dtype of features ({})", dtype_name(y.dtype), dtype_name(x.dtype));
  check_dtype_in(op, "loss", loss.dtype, kFloatingTypes);
  check_dtype_in(op, "backprop", bp.dtype, kFloatingTypes);
  if (x.dim() != 2) invalid("features has {} dims ({}), expected 2 ([batch, classes])", x.dim(), dims_str(x.view));
  check_shape_equals(y, "labels", x.view, "the shape of features");
  check_shape_equals(bp, "backprop", x.view, "the shape of features");
  check_shape_equals(loss, "loss", {x.view[0]}, "[batch] of features");
  const int64_t B = x.view[0], K = x.view[1];
  if (B == 0) return;
  const DType ct = arithmetic_dtype(x.dtype);
  DensePlan p(b);
  p.separate_outputs();
  const int xi = p.input(x, ct), yi = p.input(y, ct), li = p.output(loss, ct), bi = p.output(bp, ct);
  p.finish(std::string("softmax_cross_entropy_with_logits.") + dtype_name(ct), [=](const DenseArgs& a) {
    visit_arithmetic<TypeSet::kFloating>(ct, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T *xv = a.in<T>(xi), *yv = a.in<T>(yi);
      T *lv = a.out<T>(li), *bv = a.out<T>(bi);
      rows::for_tasks(B, K, [&](int64_t begin, int64_t end, int) {
        for (int64_t r = begin; r < end; ++r) {
          const T* xr = xv + r * K;
          const T* yr = yv + r * K;
          T* br = bv + r * K;
          const T m = rows::max(xr, K);
          const T s = rows::sum<T>(K, [xr, br, m](int64_t i) {
            const T e = std::exp(xr[i] - m);
            br[i] = e;
            return e;
          });
          const T ls = std::log(s), inv = T(1) / s;
          lv[r] = rows::sum<T>(K, [xr, yr, m, ls](int64_t i) { return yr[i] * (ls - (xr[i] - m)); });
          for (int64_t i = 0; i < K; ++i) br[i] = br[i] * inv - yr[i];
        }
      });
    });
  });
}

// MaskedSoftmaxWithRelPosBias: out = softmax(scale * x + mask + bias) over the last dim S2, with x
// [B*W, N, S1, S2] or [B, W, N, S1, S2], mask (optional) W * S1 * S2 values (window w of x row b*W +
// w), bias N * S1 * S2 values.
void plan_masked_softmax(OpBuilder& b, const aclTensor* x_arg, const aclTensor* m_arg, const aclTensor* r_arg,
                         double scale, const aclTensor* out_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor* mask = m_arg ? &b.input(m_arg, "attenMaskOptional") : nullptr;
  const aclTensor& bias = b.input(r_arg, "relativePosBias");
  const aclTensor& out = b.output(out_arg, "out");
  const OpInfo& op = b.op();
  check_dtype_in(op, "x", x.dtype, kFloatingTypes);
  if (mask) check_dtype_in(op, "attenMaskOptional", mask->dtype, kFloatingTypes);
  check_dtype_in(op, "relativePosBias", bias.dtype, kFloatingTypes);
  check_dtype_in(op, "out", out.dtype, kFloatingTypes);
  if (x.dim() != 4 && x.dim() != 5)
    invalid("x has {} dims ({}), expected 4 [B*W, N, S1, S2] or 5 [B, W, N, S1, S2]", x.dim(), dims_str(x.view));
  check_shape_equals(out, "out", x.view, "the shape of x");
  const int64_t r = x.dim();
  const int64_t S2 = x.view[static_cast<size_t>(r - 1)], S1 = x.view[static_cast<size_t>(r - 2)],
                N = x.view[static_cast<size_t>(r - 3)];
  const int64_t BW = r == 5 ? x.view[0] * x.view[1] : x.view[0];
  int64_t W = 1;
  if (mask) {
    if (mask->dim() < 3 || mask->view.back() != S2 || mask->view[mask->view.size() - 2] != S1 || S1 * S2 == 0 ||
        mask->numel() % (S1 * S2) != 0)
      invalid("attenMaskOptional has shape {}, expected [W, S1, S2], [W, 1, S1, S2] or [1, W, 1, S1, S2] with S1 = {}, S2 = {}",
              dims_str(mask->view), S1, S2);
    W = mask->numel() / (S1 * S2);
    if (r == 5 && W != x.view[1]) invalid("attenMaskOptional has {} windows, expected W = {} (x dim 1)", W, x.view[1]);
    if (W == 0 || BW % W != 0) invalid("attenMaskOptional has {} windows, expected a divisor of x's dim 0 ({})", W, BW);
  }
  if (bias.dim() < 3 || bias.numel() != N * S1 * S2 || bias.view.back() != S2)
    invalid("relativePosBias has shape {}, expected [N, S1, S2] (or with leading 1s) = [{}, {}, {}]", dims_str(bias.view), N,
            S1, S2);
  if (x.numel() == 0) return;
  const DType ct = arithmetic_dtype(x.dtype);
  DensePlan p(b);
  const int xi = p.input(x, ct), mi = mask ? p.input(*mask, ct) : -1, bi = p.input(bias, ct);
  p.separate_outputs();
  const int oi = p.output(out, ct);
  const DType round_to = (ct != x.dtype && out.dtype != x.dtype) ? x.dtype : DType::kUndefined;
  const int64_t numel = out.numel();
  p.finish(std::string("masked_softmax_with_rel_pos_bias.") + dtype_name(ct), [=](const DenseArgs& a) {
    visit_arithmetic<TypeSet::kFloating>(ct, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T *xv = a.in<T>(xi), *mv = mi < 0 ? nullptr : a.in<T>(mi), *bv = a.in<T>(bi);
      T* ov = a.out<T>(oi);
      const T sc = static_cast<T>(scale);
      rows::for_tasks(BW * N * S1, S2, [&](int64_t begin, int64_t end, int) {
        for (int64_t row = begin; row < end; ++row) {
          const int64_t s1 = row % S1, n = (row / S1) % N, bw = row / (S1 * N);
          const T* xr = xv + row * S2;
          const T* br = bv + (n * S1 + s1) * S2;
          const T* mr = mv ? mv + ((bw % W) * S1 + s1) * S2 : nullptr;
          T* yr = ov + row * S2;
          if (mr) {
            for (int64_t i = 0; i < S2; ++i) yr[i] = sc * xr[i] + mr[i] + br[i];
          } else {
            for (int64_t i = 0; i < S2; ++i) yr[i] = sc * xr[i] + br[i];
          }
          const T m = rows::max(yr, S2);
          const T inv = T(1) / rows::sum<T>(S2, [yr, m](int64_t i) {
            const T e = std::exp(yr[i] - m);
            yr[i] = e;
            return e;
          });
          for (int64_t i = 0; i < S2; ++i) yr[i] *= inv;
        }
      });
    });
    if (round_to != DType::kUndefined) round_to_16bit(round_to, a.out<float>(oi), numel);
  });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(const aclTensor* features, aclTensor* labels,
                                                                         aclTensor* loss, aclTensor* backprop,
                                                                         uint64_t* workspaceSize,
                                                                         aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_SoftmaxCrossEntropyWithLogits, "aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize",
                          workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_softmax_xent(b, features, labels, loss, backprop); });
}

extern "C" aclnnStatus aclnnMaskedSoftmaxWithRelPosBiasGetWorkspaceSize(const aclTensor* x,
                                                                       const aclTensor* attenMaskOptional,
                                                                       const aclTensor* relativePosBias,
                                                                       double scaleValue, int64_t innerPrecisionMode,
                                                                       const aclTensor* out, uint64_t* workspaceSize,
                                                                       aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MaskedSoftmaxWithRelPosBias, "aclnnMaskedSoftmaxWithRelPosBiasGetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_masked_softmax(b, x, attenMaskOptional, relativePosBias, scaleValue, out);
                          });
}

extern "C" aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Softmax, "aclnnSoftmaxGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan(b, pacl::Kind::kSoftmax, self, nullptr, dim, out); });
}

extern "C" aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_LogSoftmax, "aclnnLogSoftmaxGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan(b, pacl::Kind::kLogSoftmax, self, nullptr, dim, out); });
}

extern "C" aclnnStatus aclnnSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
                                                           int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_SoftmaxBackward, "aclnnSoftmaxBackwardGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan(b, pacl::Kind::kSoftmaxGrad, gradOutput, output, dim, out);
                          });
}

extern "C" aclnnStatus aclnnLogSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
                                                              int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_LogSoftmaxBackward, "aclnnLogSoftmaxBackwardGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan(b, pacl::Kind::kLogSoftmaxGrad, gradOutput, output, dim, out);
                          });
}
