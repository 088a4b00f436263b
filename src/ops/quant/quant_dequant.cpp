// DequantBias and the fake-quantization ops.
//   DequantBias (x int32 [M, N]): a = x (+ bias, wrapping int32, when bias is int32);
//     y = a * weightScale[n] (* activateScale[m]) (+ bias[n] when bias is floating), to f16/bf16
//   FakeQuantPer{Tensor,Channel}AffineCachemask: q = nearbyint(self / scale) + zeroPoint;
//     out = (min(quantMax, max(quantMin, q)) - zeroPoint) * scale; mask = quantMin <= q <= quantMax
//     (a NaN self gives a NaN out and a false mask). PerTensor with fakeQuantEnabled < 1: out = self,
//     mask all true.
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_dequant_bias.h"
#include "aclnnop/aclnn_fake_quant_per_channel_affine_cachemask.h"
#include "aclnnop/aclnn_fake_quant_per_tensor_affine_cachemask.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/quant/quant_common.h"
#include "ops/registry.h"

namespace pacl {
namespace {

void plan_dequant_bias(OpBuilder& b, const aclTensor* x_arg, const aclTensor* ws_arg, const aclTensor* as_arg,
                       const aclTensor* bias_arg, int64_t output_dtype, const aclTensor* out_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& ws = b.input(ws_arg, "weightScale");
  const aclTensor* as = as_arg ? &b.input(as_arg, "activateScaleOptional") : nullptr;
  const aclTensor* bias = bias_arg ? &b.input(bias_arg, "biasOptional") : nullptr;
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "x", x.dtype, dtype_mask({DType::kInt32}));
  check_dtype_in(b.op(), "weightScale", ws.dtype, dtype_mask({DType::kFloat, DType::kBFloat16}));
  if (as) check_dtype_in(b.op(), "activateScaleOptional", as->dtype, dtype_mask({DType::kFloat}));
  if (bias)
    check_dtype_in(b.op(), "biasOptional", bias->dtype,
                   dtype_mask({DType::kFloat, DType::kBFloat16, DType::kFloat16, DType::kInt32}));
  if (output_dtype != 1 && output_dtype != 27) invalid("outputDtype is {}, expected 1 (float16) or 27 (bfloat16)", output_dtype);
  quant::check_dst_type(out, "out", output_dtype);
  if (x.dim() != 2) invalid("x has {} dims, expected 2 ([M, N])", x.dim());
  const int64_t m = x.view[0], n = x.view[1];
  check_shape_equals(ws, "weightScale", Dims{n}, "[N] of x");
  if (as) check_shape_equals(*as, "activateScaleOptional", Dims{m}, "[M] of x");
  if (bias) check_shape_equals(*bias, "biasOptional", Dims{n}, "[N] of x");
  check_shape_equals(out, "out", x.view, "x's shape");
  if (out.numel() == 0) return;
  const bool int_bias = bias && bias->dtype == DType::kInt32;
  DensePlan p(b);
  const int xi = p.input(x, DType::kInt32);
  const int wi = p.input(ws, DType::kFloat);
  const int ai = as ? p.input(*as, DType::kFloat) : -1;
  const int bi = bias ? p.input(*bias, int_bias ? DType::kInt32 : DType::kFloat) : -1;
  const int oi = p.output(out, DType::kFloat);
  p.finish("quant.dequant_bias", [=](const DenseArgs& a) {
    const int32_t* xv = a.in<int32_t>(xi);
    const float* w = a.in<float>(wi);
    float* y = a.out<float>(oi);
    for (int64_t r = 0; r < m; ++r)
      for (int64_t c = 0; c < n; ++c) {
        int32_t q = xv[r * n + c];
        if (int_bias) {  // int32 addition wraps
          const uint32_t s = static_cast<uint32_t>(q) + static_cast<uint32_t>(a.in<int32_t>(bi)[c]);
          std::memcpy(&q, &s, sizeof q);
        }
        float v = static_cast<float>(q) * w[c];
        if (ai >= 0) v *= a.in<float>(ai)[r];
        if (bi >= 0 && !int_bias) v += a.in<float>(bi)[c];
        y[r * n + c] = v;
      }
  });
}

void plan_fake_quant(OpBuilder& b, const aclTensor* self_arg, const aclTensor* scale_arg, const aclTensor* zp_arg,
                     bool per_channel, int64_t axis_arg, float enabled, int64_t qmin, int64_t qmax,
                     const aclTensor* out_arg, const aclTensor* mask_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& scale = b.input(scale_arg, "scale");
  const aclTensor& zp = b.input(zp_arg, "zeroPoint");
  const aclTensor& out = b.output(out_arg, "out");
  const aclTensor& mask = b.output(mask_arg, "mask");
  constexpr DTypeMask kF = dtype_mask({DType::kFloat, DType::kFloat16});
  check_dtype_in(b.op(), "self", self.dtype, kF);
  check_dtype_in(b.op(), "scale", scale.dtype, kF);
  check_dtype_in(b.op(), "zeroPoint", zp.dtype, dtype_mask({DType::kInt32}));
  if (out.dtype != self.dtype)
    invalid("out has dtype {}, expected the dtype of self ({})", dtype_name(out.dtype), dtype_name(self.dtype));
  check_dtype_in(b.op(), "mask", mask.dtype, dtype_mask({DType::kBool}));
  if (self.dim() > 8) invalid("self has {} dims, expected at most 8", self.dim());
  if (qmin > qmax) invalid("quantMin is {}, expected at most quantMax ({})", qmin, qmax);
  check_shape_equals(out, "out", self.view, "self's shape");
  check_shape_equals(mask, "mask", self.view, "self's shape");
  const Dims xs = self.dim() == 0 ? Dims{1} : self.view;
  int64_t axis = 0;
  int64_t pn = 1;
  if (per_channel) {
    const int64_t r = std::max<int64_t>(self.dim(), 1);
    if (axis_arg < -r || axis_arg >= r)
      invalid("axis is {}, expected a dim in [{}, {}] of self {}", axis_arg, -r, r - 1, dims_str(self.view));
    axis = axis_arg < 0 ? axis_arg + r : axis_arg;
    pn = xs[static_cast<size_t>(axis)];
    if (scale.dim() != 1 || scale.view[0] != pn)
      invalid("scale has shape {}, expected [{}] (dim {} of self {})", dims_str(scale.view), pn, axis,
              dims_str(self.view));
    if (zp.dim() != 1 || zp.view[0] != pn)
      invalid("zeroPoint has shape {}, expected [{}] (the size of scale)", dims_str(zp.view), pn);
  } else {
    if (scale.numel() != 1 || scale.dim() > 1)
      invalid("scale has shape {}, expected one element ([1] or [])", dims_str(scale.view));
    if (zp.numel() != 1 || zp.dim() > 1)
      invalid("zeroPoint has shape {}, expected one element ([1] or [])", dims_str(zp.view));
  }
  if (out.numel() == 0) return;
  const quant::AxisParam ap = quant::axis_param(xs, axis, pn);
  const bool pass_through = !per_channel && !(enabled >= 1.0f);
  DensePlan p(b);
  p.separate_outputs();
  const int xi = p.input(self, DType::kFloat);
  const int si = p.input(scale, DType::kFloat);
  const int zi = p.input(zp, DType::kInt32);
  const int oi = p.output(out, DType::kFloat);
  const int mi = p.output(mask, DType::kBool);
  const int64_t n = self.numel();
  p.finish(per_channel ? "quant.fake_quant.per_channel" : "quant.fake_quant.per_tensor", [=](const DenseArgs& a) {
    const float* x = a.in<float>(xi);
    float* o = a.out<float>(oi);
    bool* mk = a.out<bool>(mi);
    for (int64_t i = 0; i < n; ++i) {
      if (pass_through) {
        o[i] = x[i];
        mk[i] = true;
        continue;
      }
      const int64_t c = ap.index(i);
      const float s = a.in<float>(si)[c];
      const int32_t z = a.in<int32_t>(zi)[c];
      const double q = std::nearbyint(static_cast<double>(x[i] / s)) + z;
      if (std::isnan(q)) {
        o[i] = NAN;
        mk[i] = false;
        continue;
      }
      const double cl = std::min(static_cast<double>(qmax), std::max(static_cast<double>(qmin), q));
      o[i] = static_cast<float>(cl - z) * s;
      mk[i] = q >= static_cast<double>(qmin) && q <= static_cast<double>(qmax);
    }
  });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnDequantBiasGetWorkspaceSize(const aclTensor* x, const aclTensor* weightScale,
                                                        const aclTensor* activateScaleOptional,
                                                        const aclTensor* biasOptional, int64_t outputDtype,
                                                        const aclTensor* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_DequantBias, "aclnnDequantBiasGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_dequant_bias(b, x, weightScale, activateScaleOptional, biasOptional,
                                                    outputDtype, out);
                          });
}

extern "C" aclnnStatus aclnnFakeQuantPerChannelAffineCachemaskGetWorkspaceSize(
    const aclTensor* self, const aclTensor* scale, const aclTensor* zeroPoint, int64_t axis, int64_t quantMin,
    int64_t quantMax, aclTensor* out, aclTensor* mask, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_FakeQuantPerChannelAffineCachemask,
                          "aclnnFakeQuantPerChannelAffineCachemaskGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_fake_quant(b, self, scale, zeroPoint, true, axis, 1.0f, quantMin, quantMax, out,
                                                  mask);
                          });
}

extern "C" aclnnStatus aclnnFakeQuantPerTensorAffineCachemaskGetWorkspaceSize(
    const aclTensor* self, const aclTensor* scale, const aclTensor* zeroPoint, float fakeQuantEnabled,
    int64_t quantMin, int64_t quantMax, aclTensor* out, aclTensor* mask, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_FakeQuantPerTensorAffineCachemask,
                          "aclnnFakeQuantPerTensorAffineCachemaskGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_fake_quant(b, self, scale, zeroPoint, false, 0, fakeQuantEnabled, quantMin,
                                                  quantMax, out, mask);
                          });
}
