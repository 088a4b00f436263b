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
#include "aclnnop/aclnn_softmax_backward.h"
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

}  // namespace
}  // namespace pacl

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
