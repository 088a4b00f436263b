// Per-row (per-token) quantization with scales computed from the data, and grouped quantization.
//   DynamicQuant(V2) symmetric:  in = x [* smooth]; inv = dtypeMax / max|in|; scale = 1 / inv;
//                                y = rint(in * inv)
//   DynamicQuantV2 asymmetric (offsetOut given): scale = (max in - min in) / (dtypeMax - dtypeMin);
//                                offset = dtypeMax - max in / scale; y = rint(in * (1 / scale) + offset)
//   GroupQuant: rows [groupIndex[e-1], groupIndex[e]) use scale row e: y = rint(x * scale + offset)
// One row is x's last dim; float32 arithmetic in CANN's kernel order; y saturates (NaN -> 0); a
// NaN in a row makes its max NaN. int32 y packs eight int4 values (element 8j+k in bits 4k..4k+3).
#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_dynamic_quant.h"
#include "aclnnop/aclnn_dynamic_quant_v2.h"
#include "aclnnop/aclnn_group_quant.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/quant/quant_common.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr DTypeMask kHalfTypes = dtype_mask({DType::kFloat16, DType::kBFloat16});
constexpr DTypeMask kFloat3 = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});

// y of a quant op whose x has shape xs: int8 (same shape) or int32 packing 8 int4 (last dim / 8).
// Returns true when packed.
bool check_quant_y(const aclTensor& y, const char* y_arg, const Dims& xs) {
  if (y.dtype == DType::kInt4 || y.dtype == DType::kHiFloat8 || y.dtype == DType::kFloat8E4M3FN ||
      y.dtype == DType::kFloat8E5M2)
    unsupported("{} dtype {} is not supported by pacl yet; supported: int8, int32 (packed int4)", y_arg,
                dtype_name(y.dtype));
  if (y.dtype != DType::kInt8 && y.dtype != DType::kInt32)
    invalid("{} dtype {} is not supported; supported: int8, int32 (packed int4)", y_arg, dtype_name(y.dtype));
  const bool packed = y.dtype == DType::kInt32;
  Dims want = xs;
  if (packed) {
    if (xs.empty() || xs.back() % 8 != 0)
      invalid("x has shape {}, expected a last dim divisible by 8 for an int32 (packed int4) {}", dims_str(xs), y_arg);
    want.back() /= 8;
  }
  check_shape_equals(y, y_arg, want, packed ? "x's shape with the last dim / 8" : "x's shape");
  return packed;
}

// Writes row values v[0..h) (already rounded and saturated) into y at row r.
void store_row(const DenseArgs& a, int yi, bool packed, int64_t r, int64_t h, const int64_t* v) {
  if (packed) {
    int32_t* out = a.out<int32_t>(yi) + r * (h / 8);
    for (int64_t j = 0; j < h / 8; ++j) out[j] = quant::pack_int4(v + 8 * j);
  } else {
    int8_t* out = a.out<int8_t>(yi) + r * h;
    for (int64_t j = 0; j < h; ++j) out[j] = static_cast<int8_t>(v[j]);
  }
}

float nan_max(float a, float b) { return (std::isnan(a) || std::isnan(b)) ? NAN : std::max(a, b); }
float nan_min(float a, float b) { return (std::isnan(a) || std::isnan(b)) ? NAN : std::min(a, b); }

void plan_dynamic(OpBuilder& b, const aclTensor* x_arg, const aclTensor* smooth_arg, const aclTensor* group_arg,
                  const int64_t* dst_type, const aclTensor* y_arg, const aclTensor* scale_arg,
                  const aclTensor* offset_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor* smooth = smooth_arg ? &b.input(smooth_arg, "smoothScalesOptional") : nullptr;
  const aclTensor* group = group_arg ? &b.input(group_arg, "groupIndexOptional") : nullptr;
  const aclTensor& y = b.output(y_arg, "yOut");
  const aclTensor& scale = b.output(scale_arg, "scaleOut");
  const aclTensor* offset = offset_arg ? &b.output(offset_arg, "offsetOut") : nullptr;
  check_dtype_in(b.op(), "x", x.dtype, kHalfTypes);
  if (x.dim() < 1 || x.dim() > 8) invalid("x has {} dims, expected 1 to 8", x.dim());
  if (dst_type) {
    if (*dst_type == 29 || *dst_type == 34 || *dst_type == 35 || *dst_type == 36)
      unsupported("dstType {} ({}) is not supported by pacl yet; supported: 2 (int8), 3 (int32)", *dst_type,
                  dtype_name(static_cast<DType>(*dst_type)));
    if (*dst_type != 2 && *dst_type != 3) invalid("dstType is {}, expected 2 (int8) or 3 (int32)", *dst_type);
    quant::check_dst_type(y, "yOut", *dst_type);
  }
  const bool packed = check_quant_y(y, "yOut", x.view);
  const int64_t h = x.view.back();
  Dims row_shape(x.view.begin(), x.view.end() - 1);
  check_dtype_in(b.op(), "scaleOut", scale.dtype, dtype_mask({DType::kFloat}));
  check_shape_equals(scale, "scaleOut", row_shape, "x's shape without its last dim");
  if (offset) {
    check_dtype_in(b.op(), "offsetOut", offset->dtype, dtype_mask({DType::kFloat}));
    check_shape_equals(*offset, "offsetOut", row_shape, "x's shape without its last dim");
  }
  int64_t groups = 0;
  if (group) {
    if (!smooth) invalid("groupIndexOptional is given, expected smoothScalesOptional too");
    check_dtype_in(b.op(), "groupIndexOptional", group->dtype, dtype_mask({DType::kInt32}));
    if (group->dim() != 1) invalid("groupIndexOptional has {} dims, expected 1", group->dim());
    groups = group->view[0];
  }
  if (smooth) {
    if (smooth->dtype != x.dtype)
      invalid("smoothScalesOptional has dtype {}, expected the dtype of x ({})", dtype_name(smooth->dtype),
              dtype_name(x.dtype));
    const Dims want = group ? Dims{groups, h} : Dims{h};
    check_shape_equals(*smooth, "smoothScalesOptional", want,
                       group ? "[groupIndexOptional's size, x's last dim]" : "[x's last dim]");
  }
  const int64_t rows = h == 0 ? 0 : x.numel() / h;
  if (rows == 0) return;  // nothing to write (a zero last dim leaves yOut empty too; scaleOut keeps its contents)
  int64_t lo = -128, hi = 127;
  if (packed) {
    lo = -8;
    hi = 7;
  }
  DensePlan p(b);
  const int xi = p.input(x, DType::kFloat);
  const int si = smooth ? p.input(*smooth, DType::kFloat) : -1;
  const int gi = group ? p.input(*group, DType::kInt32) : -1;
  const int yi = p.output(y, y.dtype);
  const int sci = p.output(scale, DType::kFloat);
  const int oi = offset ? p.output(*offset, DType::kFloat) : -1;
  const size_t row_buf = p.scratch(static_cast<size_t>(h) * sizeof(float));
  const size_t val_buf = p.scratch(static_cast<size_t>(h) * sizeof(int64_t));
  p.finish(offset ? "quant.dynamic.asymmetric" : "quant.dynamic.symmetric", [=](const DenseArgs& a) {
    const float* xv = a.in<float>(xi);
    float* in = a.scratch<float>(row_buf);
    int64_t* v = a.scratch<int64_t>(val_buf);
    int64_t e = 0;  // smooth row of the current row (MoE: the first group whose end index passes it)
    for (int64_t r = 0; r < rows; ++r) {
      const float* sm = nullptr;
      if (si >= 0) {
        if (gi >= 0) {
          const int32_t* g = a.in<int32_t>(gi);
          for (int64_t k = e; k < groups; ++k)
            if (g[k] >= r + 1) {
              e = k;
              break;
            }
        }
        sm = a.in<float>(si) + e * h;
      }
      for (int64_t j = 0; j < h; ++j) in[j] = sm ? xv[r * h + j] * sm[j] : xv[r * h + j];
      if (oi < 0) {
        float m = 0.0f;
        for (int64_t j = 0; j < h; ++j) m = nan_max(m, std::fabs(in[j]));
        const float inv = static_cast<float>(hi) / m;
        a.out<float>(sci)[r] = 1.0f / inv;
        for (int64_t j = 0; j < h; ++j) v[j] = quant::round_sat(in[j] * inv, quant::Round::kRint, lo, hi);
      } else {
        float mx = in[0], mn = in[0];
        for (int64_t j = 1; j < h; ++j) {
          mx = nan_max(mx, in[j]);
          mn = nan_min(mn, in[j]);
        }
        const float s = (mx - mn) / static_cast<float>(hi - lo);
        const float off = static_cast<float>(hi) - mx / s;
        const float inv = 1.0f / s;
        a.out<float>(sci)[r] = s;
        a.out<float>(oi)[r] = off;
        for (int64_t j = 0; j < h; ++j) v[j] = quant::round_sat(in[j] * inv + off, quant::Round::kRint, lo, hi);
      }
      store_row(a, yi, packed, r, h, v);
    }
  });
}

void plan_group_quant(OpBuilder& b, const aclTensor* x_arg, const aclTensor* scale_arg, const aclTensor* group_arg,
                      const aclTensor* offset_arg, int32_t dst_type, const aclTensor* y_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& scale = b.input(scale_arg, "scale");
  const aclTensor& group = b.input(group_arg, "groupIndex");
  const aclTensor* offset = offset_arg ? &b.input(offset_arg, "offsetOptional") : nullptr;
  const aclTensor& y = b.output(y_arg, "y");
  check_dtype_in(b.op(), "x", x.dtype, kFloat3);
  check_dtype_in(b.op(), "scale", scale.dtype, kFloat3);
  check_dtype_in(b.op(), "groupIndex", group.dtype, dtype_mask({DType::kInt32, DType::kInt64}));
  if (offset) {
    if (offset->dtype != scale.dtype)
      invalid("offsetOptional has dtype {}, expected the dtype of scale ({})", dtype_name(offset->dtype),
              dtype_name(scale.dtype));
    if (offset->numel() != 1 || offset->dim() > 1)
      invalid("offsetOptional has shape {}, expected [1] or []", dims_str(offset->view));
  }
  if (dst_type == 29) unsupported("dstType 29 (int4) is not supported by pacl yet; supported: 2 (int8), 3 (int32)");
  if (dst_type != 2 && dst_type != 3) invalid("dstType is {}, expected 2 (int8), 3 (int32) or 29 (int4)", dst_type);
  quant::check_dst_type(y, "y", dst_type);
  if (x.dim() != 2) invalid("x has {} dims, expected 2 ([S, H])", x.dim());
  if (scale.dim() != 2) invalid("scale has {} dims, expected 2 ([E, H])", scale.dim());
  if (scale.view[1] != x.view[1])
    invalid("scale has shape {}, expected dim 1 equal to x's dim 1 ({})", dims_str(scale.view), x.view[1]);
  if (scale.view[0] == 0) invalid("scale has shape {}, expected a non-zero dim 0", dims_str(scale.view));
  if (group.dim() != 1 || group.view[0] != scale.view[0])
    invalid("groupIndex has shape {}, expected [{}] (scale's dim 0)", dims_str(group.view), scale.view[0]);
  const bool packed = check_quant_y(y, "y", x.view);
  if (y.numel() == 0) return;
  const int64_t rows = x.view[0], h = x.view[1], groups = scale.view[0];
  const int64_t lo = packed ? -8 : -128, hi = packed ? 7 : 127;
  DensePlan p(b);
  const int xi = p.input(x, DType::kFloat);
  const int si = p.input(scale, DType::kFloat);
  const int gi = p.input(group, DType::kInt64);
  const int oi = offset ? p.input(*offset, DType::kFloat) : -1;
  const int yi = p.output(y, y.dtype);
  const size_t val_buf = p.scratch(static_cast<size_t>(h) * sizeof(int64_t));
  p.finish("quant.group_quant", [=](const DenseArgs& a) {
    const float* xv = a.in<float>(xi);
    const int64_t* g = a.in<int64_t>(gi);
    const float off = oi >= 0 ? a.in<float>(oi)[0] : 0.0f;
    int64_t* v = a.scratch<int64_t>(val_buf);
    int64_t e = 0;
    for (int64_t r = 0; r < rows; ++r) {
      while (e < groups && g[e] <= r) ++e;  // rows [g[e-1], g[e]) are group e
      if (e == groups) {  // a row no group covers (groupIndex does not end at S): written as 0
        std::fill(v, v + h, 0);
      } else {
        const float* s = a.in<float>(si) + e * h;
        for (int64_t j = 0; j < h; ++j) {
          float t = xv[r * h + j] * s[j];
          if (oi >= 0) t += off;
          v[j] = quant::round_sat(t, quant::Round::kRint, lo, hi);
        }
      }
      store_row(a, yi, packed, r, h, v);
    }
  });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnDynamicQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* smoothScalesOptional,
                                                         const aclTensor* yOut, const aclTensor* scaleOut,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_DynamicQuant, "aclnnDynamicQuantGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_dynamic(b, x, smoothScalesOptional, nullptr, nullptr, yOut, scaleOut, nullptr);
                          });
}

extern "C" aclnnStatus aclnnDynamicQuantV2GetWorkspaceSize(const aclTensor* x, const aclTensor* smoothScalesOptional,
                                                           const aclTensor* groupIndexOptional, int64_t dstType,
                                                           const aclTensor* yOut, const aclTensor* scaleOut,
                                                           const aclTensor* offsetOut, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_DynamicQuantV2, "aclnnDynamicQuantV2GetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_dynamic(b, x, smoothScalesOptional, groupIndexOptional, &dstType, yOut,
                                               scaleOut, offsetOut);
                          });
}

extern "C" aclnnStatus aclnnGroupQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                       const aclTensor* groupIndex, const aclTensor* offsetOptional,
                                                       int32_t dstType, aclTensor* y, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_GroupQuant, "aclnnGroupQuantGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_group_quant(b, x, scale, groupIndex, offsetOptional, dstType, y);
                          });
}
