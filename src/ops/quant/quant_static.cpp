// Static (given-scale) quantization: AscendQuant, AscendQuantV3, Quantize, and the inverse
// AscendAntiQuant. Every element reads its scale/offset by its index along one axis of x.
//   AscendQuant(V3): y = round(x * scale [* scale] + offset), saturated to y's range
//   Quantize:        out = round(x / scales + zeroPoints), saturated
//   AscendAntiQuant: y = (x + offset) * scale [* scale]
// Arithmetic in float32; "round" is to nearest, ties to even; NaN becomes 0. dstType INT32 stores
// eight int4 values per int32 (element 8j+k in bits 4k..4k+3).
#include "aclnnop/aclnn_ascend_anti_quant.h"
#include "aclnnop/aclnn_ascend_quant.h"
#include "aclnnop/aclnn_ascend_quant_v3.h"
#include "aclnnop/aclnn_quantize.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/elementwise_op.h"
#include "ops/quant/quant_common.h"
#include "ops/registry.h"

namespace pacl {
namespace {

using quant::AxisParam;
using quant::Round;

constexpr DTypeMask kFloat3 = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});

struct StaticQuant {
  bool sqrt_mode = false;
  bool divide = false;  // Quantize: x / scale
  Round round = Round::kRint;
  bool packed = false;  // y int32 holding 8 int4 values
  int64_t lo = -128, hi = 127;
};

void plan_static(OpBuilder& b, const aclTensor& x, const aclTensor& scale, const aclTensor* offset,
                 const aclTensor& y, int64_t axis, StaticQuant q, const char* scale_arg, const char* offset_arg) {
  const int64_t sn = quant::check_axis_param(scale, scale_arg, x.view, axis, "x");
  int64_t on = 1;
  if (offset) {
    on = quant::check_axis_param(*offset, offset_arg, x.view, axis, "x");
    if (offset->view != scale.view && offset->numel() != scale.numel())
      invalid("{} has shape {}, expected the shape of {} {}", offset_arg, dims_str(offset->view), scale_arg,
              dims_str(scale.view));
  }
  Dims yshape = x.view;
  if (q.packed) {
    if (x.dim() == 0 || x.view.back() % 8 != 0)
      invalid("x has shape {}, expected a last dim divisible by 8 for an int32 (packed int4) y", dims_str(x.view));
    yshape.back() /= 8;
  }
  check_shape_equals(y, "y", yshape, q.packed ? "x's shape with the last dim / 8" : "x's shape");
  if (y.numel() == 0) return;
  const AxisParam sp = quant::axis_param(x.view, axis, sn), op = quant::axis_param(x.view, axis, on);
  DensePlan p(b);
  const int xi = p.input(x, DType::kFloat);
  const int si = p.input(scale, DType::kFloat);
  const int oi = offset ? p.input(*offset, DType::kFloat) : -1;
  const int yi = p.output(y, y.dtype);
  const int64_t n = x.numel();
  const DType yt = y.dtype;
  p.finish(std::string("quant.static.") + dtype_name(yt), [=](const DenseArgs& a) {
    const float* xv = a.in<float>(xi);
    const float* sv = a.in<float>(si);
    const float* ov = oi >= 0 ? a.in<float>(oi) : nullptr;
    auto value = [&](int64_t i) {
      const float s = sv[sp.index(i)];
      float v = q.divide ? xv[i] / s : (q.sqrt_mode ? xv[i] * s * s : xv[i] * s);
      if (ov) v += ov[op.index(i)];
      return quant::round_sat(v, q.round, q.lo, q.hi);
    };
    if (q.packed) {
      int32_t* out = a.out<int32_t>(yi);
      int64_t v8[8];
      for (int64_t j = 0; j < n / 8; ++j) {
        for (int k = 0; k < 8; ++k) v8[k] = value(8 * j + k);
        out[j] = quant::pack_int4(v8);
      }
    } else if (yt == DType::kInt8) {
      int8_t* out = a.out<int8_t>(yi);
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<int8_t>(value(i));
    } else if (yt == DType::kUInt8) {
      uint8_t* out = a.out<uint8_t>(yi);
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(value(i));
    } else {
      int32_t* out = a.out<int32_t>(yi);
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<int32_t>(value(i));
    }
  });
}

// dstType of AscendQuant(V3): 2 int8, 3 int32 (packed int4); 29 (int4) and the float8 types are not
// supported by pacl.
StaticQuant quant_dst(const aclTensor& y, int32_t dst_type) {
  StaticQuant q;
  if (dst_type == 29 || dst_type == 34 || dst_type == 35 || dst_type == 36)
    unsupported("dstType {} ({}) is not supported by pacl yet; supported: 2 (int8), 3 (int32)", dst_type,
                dtype_name(static_cast<DType>(dst_type)));
  if (dst_type != 2 && dst_type != 3) invalid("dstType is {}, expected 2 (int8) or 3 (int32)", dst_type);
  quant::check_dst_type(y, "y", dst_type);
  if (dst_type == 3) {
    q.packed = true;
    q.lo = -8;
    q.hi = 7;
  }
  return q;
}

void plan_ascend_quant(OpBuilder& b, const aclTensor* x_arg, const aclTensor* scale_arg, const aclTensor* offset_arg,
                       bool sqrt_mode, const char* round_mode, int32_t dst_type, const aclTensor* y_arg, bool v3,
                       int32_t axis_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& scale = b.input(scale_arg, "scale");
  const aclTensor* offset = offset_arg ? &b.input(offset_arg, "offset") : nullptr;
  const aclTensor& y = b.output(y_arg, "y");
  check_dtype_in(b.op(), "x", x.dtype, kFloat3);
  check_dtype_in(b.op(), "scale", scale.dtype, kFloat3);
  if (x.dtype != DType::kFloat && scale.dtype != x.dtype)
    invalid("scale has dtype {}, expected the dtype of x ({}) when x is not float32", dtype_name(scale.dtype),
            dtype_name(x.dtype));
  if (offset && offset->dtype != scale.dtype)
    invalid("offset has dtype {}, expected the dtype of scale ({})", dtype_name(offset->dtype), dtype_name(scale.dtype));
  if (x.dim() < 1 || x.dim() > 8) invalid("x has {} dims, expected 1 to 8", x.dim());
  StaticQuant q = quant_dst(y, dst_type);
  q.sqrt_mode = sqrt_mode;
  q.round = quant::parse_round_mode(round_mode, "roundMode");
  int64_t axis = x.dim() - 1;
  if (v3) {
    if (axis_arg < -x.dim() || axis_arg >= x.dim())
      invalid("axis is {}, expected a dim in [{}, {}] of x {}", axis_arg, -x.dim(), x.dim() - 1, dims_str(x.view));
    axis = axis_arg < 0 ? axis_arg + x.dim() : axis_arg;
  }
  plan_static(b, x, scale, offset, y, axis, q, "scale", "offset");
}

void plan_quantize(OpBuilder& b, const aclTensor* x_arg, const aclTensor* scales_arg, const aclTensor* zp_arg,
                   aclDataType dtype, int32_t axis_arg, const aclTensor* out_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& scales = b.input(scales_arg, "scales");
  const aclTensor* zp = zp_arg ? &b.input(zp_arg, "zeroPoints") : nullptr;
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "x", x.dtype, kFloat3);
  check_dtype_in(b.op(), "scales", scales.dtype, kFloat3);
  if (x.dtype != DType::kFloat && scales.dtype != x.dtype)
    invalid("scales has dtype {}, expected the dtype of x ({}) when x is not float32", dtype_name(scales.dtype),
            dtype_name(x.dtype));
  if (zp)
    check_dtype_in(b.op(), "zeroPoints", zp->dtype,
                   dtype_mask({DType::kInt32, DType::kInt8, DType::kUInt8, DType::kFloat, DType::kBFloat16}));
  const DType dt = static_cast<DType>(dtype);
  if (dt == DType::kHiFloat8 || dt == DType::kFloat8E4M3FN || dt == DType::kFloat8E5M2)
    unsupported("dtype {} is not supported by pacl yet; supported: int8, uint8, int32", dtype_name(dt));
  if (dt != DType::kInt8 && dt != DType::kUInt8 && dt != DType::kInt32)
    invalid("dtype is {}, expected int8, uint8 or int32", dtype_name(dt));
  if (out.dtype != dt) invalid("out has dtype {}, expected dtype ({})", dtype_name(out.dtype), dtype_name(dt));
  if (x.dim() > 8) invalid("x has {} dims, expected at most 8", x.dim());
  StaticQuant q;
  q.divide = true;
  quant::int_range(dt, &q.lo, &q.hi);
  const bool per_tensor = scales.numel() == 1 && (!zp || zp->numel() == 1);
  const Dims xs = x.dim() == 0 ? Dims{1} : x.view;
  int64_t axis = static_cast<int64_t>(xs.size()) - 1;
  if (x.dim() > 0 && axis_arg >= -x.dim() && axis_arg < x.dim()) {
    axis = axis_arg < 0 ? axis_arg + x.dim() : axis_arg;
  } else if (!per_tensor) {
    invalid("axis is {}, expected a dim in [{}, {}] of x {}", axis_arg, -x.dim(), x.dim() - 1, dims_str(x.view));
  }
  // Quantize takes 1-D parameters (size 1 or x[axis]).
  auto check1d = [&](const aclTensor& t, const char* arg) {
    if (t.dim() != 1 || (t.view[0] != 1 && t.view[0] != xs[static_cast<size_t>(axis)]))
      invalid("{} has shape {}, expected [1] or [{}] (dim {} of x {})", arg, dims_str(t.view),
              xs[static_cast<size_t>(axis)], axis, dims_str(x.view));
  };
  check1d(scales, "scales");
  if (zp) {
    check1d(*zp, "zeroPoints");
    if (zp->numel() != scales.numel())
      invalid("zeroPoints has shape {}, expected the size of scales {}", dims_str(zp->view), dims_str(scales.view));
  }
  check_shape_equals(out, "out", x.view, "x's shape");
  if (out.numel() == 0) return;
  const AxisParam sp = quant::axis_param(xs, axis, scales.numel());
  DensePlan p(b);
  const int xi = p.input(x, DType::kFloat);
  const int si = p.input(scales, DType::kFloat);
  const int zi = zp ? p.input(*zp, DType::kFloat) : -1;
  const int oi = p.output(out, out.dtype);
  const int64_t n = x.numel();
  p.finish(std::string("quant.quantize.") + dtype_name(dt), [=](const DenseArgs& a) {
    const float* xv = a.in<float>(xi);
    const float* sv = a.in<float>(si);
    const float* zv = zi >= 0 ? a.in<float>(zi) : nullptr;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t c = sp.index(i);
      float v = xv[i] / sv[c];
      if (zv) v += zv[c];
      const int64_t r = quant::round_sat(v, q.round, q.lo, q.hi);
      if (dt == DType::kInt8) a.out<int8_t>(oi)[i] = static_cast<int8_t>(r);
      else if (dt == DType::kUInt8) a.out<uint8_t>(oi)[i] = static_cast<uint8_t>(r);
      else a.out<int32_t>(oi)[i] = static_cast<int32_t>(r);
    }
  });
}

void plan_anti_quant(OpBuilder& b, const aclTensor* x_arg, const aclTensor* scale_arg, const aclTensor* offset_arg,
                     int64_t dst_type, bool sqrt_mode, const aclTensor* y_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& scale = b.input(scale_arg, "scale");
  const aclTensor* offset = offset_arg ? &b.input(offset_arg, "offset") : nullptr;
  const aclTensor& y = b.output(y_arg, "y");
  if (x.dtype == DType::kInt4 || x.dtype == DType::kHiFloat8 || x.dtype == DType::kFloat8E4M3FN ||
      x.dtype == DType::kFloat8E5M2)
    unsupported("x dtype {} is not supported by pacl yet; supported: int8, int32 (8 packed int4)", dtype_name(x.dtype));
  check_dtype_in(b.op(), "x", x.dtype, dtype_mask({DType::kInt8, DType::kInt32}));
  check_dtype_in(b.op(), "scale", scale.dtype, dtype_mask({DType::kFloat, DType::kBFloat16}));
  if (offset && offset->dtype != scale.dtype)
    invalid("offset has dtype {}, expected the dtype of scale ({})", dtype_name(offset->dtype), dtype_name(scale.dtype));
  if (offset && offset->view != scale.view)
    invalid("offset has shape {}, expected the shape of scale {}", dims_str(offset->view), dims_str(scale.view));
  if (dst_type != 1 && dst_type != 27) invalid("dstType is {}, expected 1 (float16) or 27 (bfloat16)", dst_type);
  quant::check_dst_type(y, "y", dst_type);
  if (x.dim() > 8) invalid("x has {} dims, expected at most 8", x.dim());
  const bool packed = x.dtype == DType::kInt32;
  if (packed && x.dim() == 0) invalid("x is 0-d, expected at least 1 dim for an int32 (packed int4) x");
  Dims yshape = x.view;
  if (packed) yshape.back() *= 8;
  check_shape_equals(y, "y", yshape, packed ? "x's shape with the last dim * 8" : "x's shape");
  if (scale.numel() == 0) invalid("scale is empty, expected at least one element");
  // scale: one value, or one per index of y's dim -1 or -2 (1-D or with y's rank).
  const Dims ys = yshape.empty() ? Dims{1} : yshape;
  const int64_t r = static_cast<int64_t>(ys.size());
  int64_t axis = r - 1;
  if (scale.numel() != 1) {
    if (scale.dim() == 1) {
      if (scale.view[0] == ys.back()) axis = r - 1;
      else if (r >= 2 && scale.view[0] == ys[static_cast<size_t>(r - 2)]) axis = r - 2;
      else
        invalid("scale has shape {}, expected size 1, y's last dim ({}) or y's dim -2 for y {}", dims_str(scale.view),
                ys.back(), dims_str(yshape));
    } else {
      if (scale.dim() != r) invalid("scale has {} dims, expected 1 or the rank of y ({})", scale.dim(), r);
      axis = -1;
      for (int64_t d = 0; d < r; ++d)
        if (scale.view[static_cast<size_t>(d)] != 1) {
          if (axis >= 0 || d < r - 2 || scale.view[static_cast<size_t>(d)] != ys[static_cast<size_t>(d)])
            invalid("scale has shape {}, expected at most one dim other than 1, dim -1 or -2 equal to y's for y {}",
                    dims_str(scale.view), dims_str(yshape));
          axis = d;
        }
    }
  }
  if (y.numel() == 0) return;
  const AxisParam sp = quant::axis_param(ys, axis, scale.numel());
  DensePlan p(b);
  const int xi = p.input(x, packed ? DType::kInt32 : DType::kFloat);
  const int si = p.input(scale, DType::kFloat);
  const int oi = offset ? p.input(*offset, DType::kFloat) : -1;
  const int yi = p.output(y, DType::kFloat);
  const int64_t n = y.numel();
  p.finish(std::string("quant.anti_quant.") + dtype_name(x.dtype), [=](const DenseArgs& a) {
    const float* sv = a.in<float>(si);
    const float* ov = oi >= 0 ? a.in<float>(oi) : nullptr;
    float* out = a.out<float>(yi);
    for (int64_t i = 0; i < n; ++i) {
      float v = packed ? static_cast<float>(quant::unpack_int4(a.in<int32_t>(xi)[i / 8], static_cast<int>(i % 8)))
                       : a.in<float>(xi)[i];
      const int64_t c = sp.index(i);
      if (ov) v += ov[c];
      out[i] = sqrt_mode ? v * sv[c] * sv[c] : v * sv[c];
    }
  });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnAscendQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                        const aclTensor* offset, bool sqrtMode, const char* roundMode,
                                                        int32_t dstType, const aclTensor* y, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AscendQuant, "aclnnAscendQuantGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_ascend_quant(b, x, scale, offset, sqrtMode, roundMode, dstType, y, false, -1);
                          });
}

extern "C" aclnnStatus aclnnAscendQuantV3GetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                          const aclTensor* offset, bool sqrtMode,
                                                          const char* roundMode, int32_t dstType, int32_t axis,
                                                          const aclTensor* y, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AscendQuantV3, "aclnnAscendQuantV3GetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_ascend_quant(b, x, scale, offset, sqrtMode, roundMode, dstType, y, true, axis);
                          });
}

extern "C" aclnnStatus aclnnQuantizeGetWorkspaceSize(const aclTensor* x, const aclTensor* scales,
                                                     const aclTensor* zeroPoints, aclDataType dtype, int32_t axis,
                                                     aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Quantize, "aclnnQuantizeGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_quantize(b, x, scales, zeroPoints, dtype, axis, out); });
}

extern "C" aclnnStatus aclnnAscendAntiQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                            const aclTensor* offset, int64_t dstType, bool sqrtMode,
                                                            const aclTensor* y, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AscendAntiQuant, "aclnnAscendAntiQuantGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_anti_quant(b, x, scale, offset, dstType, sqrtMode, y); });
}
