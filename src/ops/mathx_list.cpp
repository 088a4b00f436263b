// Ops of the mathx family planned on dense kernels:
//  - MaxN / MinN / AddN: a fold over a tensor list (MaxN/MinN broadcast, AddN same shapes), all of
//    out's dtype; NaN propagates through MaxN/MinN; AddN accumulates float16/bfloat16 in float32
//    and rounds once, integers wrap;
//  - IsInScalarTensor: whether a scalar is among testElements (0-d bool out, negated by invert),
//    compared in CANN's promoted dtype; a NaN element is in nothing;
//  - Scale: y = x * scale (+ bias) with scale/bias spanning dims [axis, axis + len) of x;
//  - Complex: out = real + i imag; Polar: out = abs * (cos(angle) + i sin(angle)) (broadcast).
#include <cmath>
#include <complex>
#include <cstring>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_n.h"
#include "aclnnop/aclnn_complex.h"
#include "aclnnop/aclnn_isin.h"
#include "aclnnop/aclnn_maxn.h"
#include "aclnnop/aclnn_minn.h"
#include "aclnnop/aclnn_polar.h"
#include "aclnnop/aclnn_scale.h"
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

constexpr int64_t kGrain = 32768;

// ---- MaxN / MinN / AddN ---------------------------------------------------------------------------

enum class Fold { kMax, kMin, kAdd };

template <typename T>
void fold_into(Fold f, T* __restrict acc, const T* __restrict x, int64_t n) {
  parallel_for(n, kGrain, [&](int64_t b, int64_t e, int) {
    switch (f) {
      case Fold::kAdd:
        for (int64_t i = b; i < e; ++i) {
          if constexpr (std::is_integral_v<T>)
            acc[i] = static_cast<T>(static_cast<uint64_t>(acc[i]) + static_cast<uint64_t>(x[i]));
          else acc[i] += x[i];
        }
        break;
      case Fold::kMax:
        for (int64_t i = b; i < e; ++i) {
          if constexpr (std::is_floating_point_v<T>)
            if (std::isnan(acc[i])) continue;
          if (acc[i] < x[i] || x[i] != x[i]) acc[i] = x[i];
        }
        break;
      case Fold::kMin:
        for (int64_t i = b; i < e; ++i) {
          if constexpr (std::is_floating_point_v<T>)
            if (std::isnan(acc[i])) continue;
          if (x[i] < acc[i] || x[i] != x[i]) acc[i] = x[i];
        }
        break;
    }
  });
}

constexpr DTypeMask kMaxNTypes =
    dtype_mask({DType::kFloat16, DType::kFloat, DType::kInt8, DType::kInt32, DType::kInt64, DType::kBFloat16});
constexpr DTypeMask kAddNTypes =
    dtype_mask({DType::kInt32, DType::kInt64, DType::kFloat16, DType::kBFloat16, DType::kFloat});

void plan_fold(OpBuilder& b, const aclTensorList* tensors_arg, const aclTensor* out_arg, Fold fold) {
  const std::vector<const aclTensor*> tensors = b.input_list(tensors_arg, "tensors");
  const aclTensor& out = b.output(out_arg, "out");
  const DTypeMask mask = fold == Fold::kAdd ? kAddNTypes : kMaxNTypes;
  if (tensors.empty()) invalid("tensors is empty, expected at least one tensor");
  check_dtype_in(b.op(), "out", out.dtype, mask);
  for (size_t k = 0; k < tensors.size(); ++k) {
    const std::string name = "tensors[" + std::to_string(k) + "]";
    check_dtype_in(b.op(), name.c_str(), tensors[k]->dtype, mask);
    if (tensors[k]->dtype != out.dtype)
      invalid("{} has dtype {}, expected out's dtype {}", name, dtype_name(tensors[k]->dtype), dtype_name(out.dtype));
  }
  for (size_t k = 0; k < tensors.size(); ++k) check_rank(*tensors[k], ("tensors[" + std::to_string(k) + "]").c_str());
  check_rank(out, "out");
  Dims shape = tensors[0]->view;
  for (size_t k = 1; k < tensors.size(); ++k) {
    const std::string name = "tensors[" + std::to_string(k) + "]";
    if (fold == Fold::kAdd) {
      if (tensors[k]->view != shape)
        invalid("{} has shape {}, expected the shape of tensors[0] {}", name, dims_str(tensors[k]->view),
                dims_str(shape));
    } else {
      shape = broadcast_shapes(shape, "the tensors before it", tensors[k]->view, name.c_str());
    }
  }
  check_shape_equals(out, "out", shape, fold == Fold::kAdd ? "the shape of tensors" : "the broadcast shape of tensors");
  if (out.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const DType t = arithmetic_dtype(out.dtype);
  std::vector<int> ids;
  std::vector<Dims> strides;
  std::vector<bool> direct;
  bool need_scratch = false;
  for (size_t k = 0; k < tensors.size(); ++k) {
    ids.push_back(p.strided(*tensors[k]));
    strides.push_back(broadcast_strides(*tensors[k], shape));
    direct.push_back(tensors[k]->dtype == t && tensors[k]->view == shape && tensors[k]->is_contiguous());
    if (k > 0 && !direct.back()) need_scratch = true;
  }
  const int o = p.output(out, t);
  const size_t scratch = need_scratch ? p.scratch(static_cast<size_t>(out.numel()) * dtype_size(t)) : 0;
  const DType stored = out.dtype;
  const int64_t n = out.numel();
  const char* kind = fold == Fold::kAdd ? "addn." : fold == Fold::kMax ? "maxn." : "minn.";
  visit_arithmetic<TypeSet::kNumeric>(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    p.finish(std::string(kind) + dtype_name(stored), [=](const DenseArgs& a) {
      T* acc = a.out<T>(o);
      const Dims dense = contiguous_strides(shape);
      copy_strided(shape, t, acc, dense, stored, a.ptr(ids[0]), strides[0]);
      for (size_t k = 1; k < ids.size(); ++k) {
        const T* x = static_cast<const T*>(a.ptr(ids[k]));
        if (!direct[k]) {
          T* buf = a.scratch<T>(scratch);
          copy_strided(shape, t, buf, dense, stored, a.ptr(ids[k]), strides[k]);
          x = buf;
        }
        fold_into(fold, acc, x, n);
      }
    });
  });
}

// ---- IsInScalarTensor -----------------------------------------------------------------------------

constexpr DTypeMask kIsInTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kInt8, DType::kInt32,
                                             DType::kInt64, DType::kUInt8, DType::kBFloat16, DType::kDouble,
                                             DType::kInt16});

// CANN's compare dtype: with 10 or more test elements their promotion, else the test dtype unless
// only the element is floating.
DType isin_dtype(DType element, const aclTensor& test) {
  if (test.numel() >= 10) return promote(test.dtype, element);
  if (is_floating(test.dtype)) return test.dtype;
  if (is_floating(element)) return promote(test.dtype, element);
  return test.dtype;
}

// v converted to dtype t (a compute dtype), then to double.
template <typename S>
double as_double(const S& v) {
  return convert_value<double>(v);
}

void plan_isin_scalar_tensor(OpBuilder& b, const aclScalar* element_arg, const aclTensor* test_arg, bool invert,
                             const aclTensor* out_arg) {
  const aclScalar& element = b.scalar(element_arg, "element");
  const aclTensor& test = b.input(test_arg, "testElements");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "element", element.dtype, kIsInTypes);
  check_dtype_in(b.op(), "testElements", test.dtype, kIsInTypes);
  if (out.dtype != DType::kBool) invalid("out dtype {} must be bool", dtype_name(out.dtype));
  const DType compute = isin_dtype(element.dtype, test);
  if (compute == DType::kUndefined)
    invalid("element dtype {} and testElements dtype {} have no common dtype", dtype_name(element.dtype),
            dtype_name(test.dtype));
  check_rank(test, "testElements");
  if (out.dim() != 0) invalid("out has {} dims ({}), expected a 0-d tensor", out.dim(), out.describe());
  // The element in the compare dtype, widened to double (every compare dtype converts exactly).
  alignas(16) unsigned char in_compute[16] = {};
  convert_strided(compute, in_compute, 1, element.dtype, element.bytes, 1, 1);
  double value = 0;
  convert_strided(DType::kDouble, &value, 1, compute, in_compute, 1, 1);
  const bool nan_element = is_floating(element.dtype) && std::isnan(element.to_double());
  DensePlan p(b);
  const int o = p.output(out, DType::kBool);
  const int64_t n = test.numel();
  const int in = (n > 0 && !nan_element) ? p.input(test, compute) : -1;
  p.finish(std::string("isin.") + dtype_name(compute), [=](const DenseArgs& a) {
    bool found = false;
    if (in >= 0) {
      visit_dtype(compute, [&](auto tag) {
        using S = typename decltype(tag)::type;
        const S* x = a.in<S>(in);
        for (int64_t i = 0; i < n && !found; ++i) found = as_double(x[i]) == value;
      });
    }
    *a.out<bool>(o) = found != invert;
  });
}

// ---- Scale ----------------------------------------------------------------------------------------

constexpr DTypeMask kScaleTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});

void plan_scale(OpBuilder& b, const aclTensor* x_arg, const aclTensor* scale_arg, const aclTensor* bias_arg,
                int64_t axis, int64_t num_axes, bool from_blob, const aclTensor* y_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& scale = b.input(scale_arg, "scale");
  const aclTensor* bias = bias_arg ? &b.input(bias_arg, "bias") : nullptr;
  const aclTensor& y = b.output(y_arg, "y");
  check_dtype_in(b.op(), "x", x.dtype, kScaleTypes);
  if (scale.dtype != x.dtype) invalid("scale dtype {} must equal x dtype {}", dtype_name(scale.dtype), dtype_name(x.dtype));
  if (bias && bias->dtype != scale.dtype)
    invalid("bias dtype {} must equal scale dtype {}", dtype_name(bias->dtype), dtype_name(scale.dtype));
  if (y.dtype != x.dtype) invalid("y dtype {} must equal x dtype {}", dtype_name(y.dtype), dtype_name(x.dtype));
  if (y.view != x.view) invalid("y has shape {}, expected the shape of x {}", dims_str(y.view), dims_str(x.view));
  if (bias && bias->view != scale.view)
    invalid("bias has shape {}, expected the shape of scale {}", dims_str(bias->view), dims_str(scale.view));
  check_rank(x, "x");
  check_rank(scale, "scale");
  const int64_t rank = x.dim();
  if (axis < -rank || axis >= rank)
    invalid("axis is {}, expected a value in [{}, {}) for x of {} dims", axis, -rank, rank, rank);
  if (num_axes < -1) invalid("numAxes is {}, expected a value >= -1", num_axes);
  const int64_t ax = axis < 0 ? axis + rank : axis;
  bool single = false;  // one scale value for every element
  int64_t len = 0;
  if (from_blob) {
    if (num_axes == 0) {
      if (scale.numel() != 1) invalid("numAxes is 0, so scale must hold one value, but its shape is {}", dims_str(scale.view));
      single = true;
    } else {
      len = num_axes == -1 ? rank - ax : num_axes;
      if (ax + len > rank)
        invalid("axis {} plus numAxes {} exceeds the {} dims of x", ax, num_axes, rank);
      const Dims expected(x.view.begin() + ax, x.view.begin() + ax + len);
      if (scale.view != expected)
        invalid("scale has shape {}, expected {} (x {} from axis {} over numAxes {})", dims_str(scale.view),
                dims_str(expected), dims_str(x.view), axis, num_axes);
    }
  } else {
    len = scale.dim();
    if (ax + len > rank) invalid("axis {} plus the {} dims of scale exceeds the {} dims of x", ax, len, rank);
    if (scale.numel() == 1 && len <= 1) {
      single = true;
    } else {
      const Dims expected(x.view.begin() + ax, x.view.begin() + ax + len);
      if (scale.view != expected)
        invalid("scale has shape {}, expected {} (x {} from axis {})", dims_str(scale.view), dims_str(expected),
                dims_str(x.view), axis);
    }
  }
  if (x.numel() == 0) return;
  int64_t outer = 1, mid = 1, inner = 1;
  if (single) {
    inner = x.numel();
  } else {
    for (int64_t d = 0; d < rank; ++d) {
      const int64_t s = x.view[static_cast<size_t>(d)];
      if (d < ax) outer *= s;
      else if (d < ax + len) mid *= s;
      else inner *= s;
    }
  }
  DensePlan p(b);
  p.separate_outputs();
  const int xi = p.input(x, DType::kFloat);
  const int si = p.input(scale, DType::kFloat);
  const int bi = bias && bias->numel() > 0 ? p.input(*bias, DType::kFloat) : -1;
  const int yi = p.output(y, DType::kFloat);
  p.finish(std::string("scale.") + dtype_name(x.dtype), [=](const DenseArgs& a) {
    const float* xs = a.in<float>(xi);
    const float* sc = a.in<float>(si);
    const float* bs = bi >= 0 ? a.in<float>(bi) : nullptr;
    float* ys = a.out<float>(yi);
    parallel_for(outer * mid, std::max<int64_t>(1, kGrain / inner), [&](int64_t lo, int64_t hi, int) {
      for (int64_t r = lo; r < hi; ++r) {
        const int64_t m = r % mid;
        const float s = sc[m], c = bs ? bs[m] : 0.0f;
        const float* xr = xs + r * inner;
        float* yr = ys + r * inner;
        if (bs) {
          for (int64_t i = 0; i < inner; ++i) yr[i] = xr[i] * s + c;
        } else {
          for (int64_t i = 0; i < inner; ++i) yr[i] = xr[i] * s;
        }
      }
    });
  });
}

// ---- Complex / Polar ------------------------------------------------------------------------------

// The complex dtype of a float part dtype.
DType complex_of(DType part) {
  switch (part) {
    case DType::kFloat16: return DType::kComplex32;
    case DType::kFloat: return DType::kComplex64;
    case DType::kDouble: return DType::kComplex128;
    default: return DType::kUndefined;
  }
}

struct ComplexArgs {
  const aclTensor* a;
  const aclTensor* b;
  const aclTensor* out;
  Dims shape;
};

ComplexArgs check_complex_pair(OpBuilder& b, const aclTensor* a_arg, const char* a_name, const aclTensor* b_arg,
                               const char* b_name, const aclTensor* out_arg, DTypeMask parts, DTypeMask parts_here) {
  ComplexArgs x{&b.input(a_arg, a_name), &b.input(b_arg, b_name), &b.output(out_arg, "out"), {}};
  check_dtype_cann(b.op(), a_name, x.a->dtype, parts, parts_here);
  check_dtype_cann(b.op(), b_name, x.b->dtype, parts, parts_here);
  if (x.b->dtype != x.a->dtype)
    invalid("{} dtype {} must equal {} dtype {}", b_name, dtype_name(x.b->dtype), a_name, dtype_name(x.a->dtype));
  const DType want = complex_of(x.a->dtype);
  if (x.out->dtype != want)
    invalid("out dtype {} must be {} for {} dtype {}", dtype_name(x.out->dtype), dtype_name(want), a_name,
            dtype_name(x.a->dtype));
  check_rank(*x.a, a_name);
  check_rank(*x.b, b_name);
  check_rank(*x.out, "out");
  x.shape = broadcast_shapes(x.a->view, a_name, x.b->view, b_name);
  check_shape_equals(*x.out, "out", x.shape);
  return x;
}

// out's real parts from a, imaginary parts from b (both broadcast), as copies into the
// interleaved float view of out.
void plan_complex(OpBuilder& b, const aclTensor* real, const aclTensor* imag, const aclTensor* out) {
  const ComplexArgs x = check_complex_pair(b, real, "real", imag, "imag", out,
                                           dtype_mask({DType::kFloat16, DType::kFloat, DType::kDouble}),
                                           dtype_mask({DType::kFloat, DType::kDouble}));
  if (x.out->numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int ri = p.strided(*x.a), ii = p.strided(*x.b);
  const int o = p.output(*x.out, x.out->dtype);
  const DType part = x.a->dtype;
  const Dims shape = x.shape, rs = broadcast_strides(*x.a, shape), is = broadcast_strides(*x.b, shape);
  Dims os = contiguous_strides(shape);
  for (int64_t& s : os) s *= 2;
  p.finish(std::string("complex.") + dtype_name(part), [=](const DenseArgs& a) {
    char* dst = static_cast<char*>(a.ptr(o));
    copy_strided(shape, part, dst, os, part, a.ptr(ri), rs);
    copy_strided(shape, part, dst + dtype_size(part), os, part, a.ptr(ii), is);
  });
}

void plan_polar(OpBuilder& b, const aclTensor* input, const aclTensor* angle, const aclTensor* out) {
  const DTypeMask f32 = dtype_mask({DType::kFloat});
  const ComplexArgs x = check_complex_pair(b, input, "input", angle, "angle", out, f32, f32);
  if (x.out->numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int ai = p.strided(*x.a), gi = p.strided(*x.b);
  const int o = p.output(*x.out, DType::kComplex64);
  const Dims shape = x.shape, as = broadcast_strides(*x.a, shape), gs = broadcast_strides(*x.b, shape);
  const int64_t n = x.out->numel();
  const size_t abs_buf = p.scratch(static_cast<size_t>(n) * sizeof(float));
  const size_t ang_buf = p.scratch(static_cast<size_t>(n) * sizeof(float));
  p.finish("polar.float32", [=](const DenseArgs& a) {
    float* r = a.scratch<float>(abs_buf);
    float* t = a.scratch<float>(ang_buf);
    const Dims dense = contiguous_strides(shape);
    copy_strided(shape, DType::kFloat, r, dense, DType::kFloat, a.ptr(ai), as);
    copy_strided(shape, DType::kFloat, t, dense, DType::kFloat, a.ptr(gi), gs);
    std::complex<float>* dst = a.out<std::complex<float>>(o);
    parallel_for(n, kGrain, [&](int64_t lo, int64_t hi, int) {
      for (int64_t i = lo; i < hi; ++i) dst[i] = {r[i] * std::cos(t[i]), r[i] * std::sin(t[i])};
    });
  });
}

}  // namespace
}  // namespace pacl

#define PACL_PHASE1(Name, ...)                                                                     \
  pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor, \
                   [&](pacl::OpBuilder& b) { __VA_ARGS__; })

extern "C" {

aclnnStatus aclnnMaxNGetWorkspaceSize(const aclTensorList* tensors, aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return PACL_PHASE1(MaxN, pacl::plan_fold(b, tensors, out, pacl::Fold::kMax));
}
aclnnStatus aclnnMinNGetWorkspaceSize(const aclTensorList* tensors, aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return PACL_PHASE1(MinN, pacl::plan_fold(b, tensors, out, pacl::Fold::kMin));
}
aclnnStatus aclnnAddNGetWorkspaceSize(const aclTensorList* tensors, aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return PACL_PHASE1(AddN, pacl::plan_fold(b, tensors, out, pacl::Fold::kAdd));
}

aclnnStatus aclnnIsInScalarTensorGetWorkspaceSize(const aclScalar* element, const aclTensor* testElements,
                                                  bool assumeUnique, bool invert, aclTensor* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(IsInScalarTensor, pacl::plan_isin_scalar_tensor(b, element, testElements, invert, out));
}

aclnnStatus aclnnScaleGetWorkspaceSize(const aclTensor* x, const aclTensor* scale, const aclTensor* bias, int64_t axis,
                                       int64_t numAxes, bool scaleFromBlob, aclTensor* y, uint64_t* workspaceSize,
                                       aclOpExecutor** executor) {
  return PACL_PHASE1(Scale, pacl::plan_scale(b, x, scale, bias, axis, numAxes, scaleFromBlob, y));
}

aclnnStatus aclnnComplexGetWorkspaceSize(const aclTensor* real, const aclTensor* imag, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Complex, pacl::plan_complex(b, real, imag, out));
}
aclnnStatus aclnnPolarGetWorkspaceSize(const aclTensor* input, const aclTensor* angle, aclTensor* out,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Polar, pacl::plan_polar(b, input, angle, out));
}

}  // extern "C"
