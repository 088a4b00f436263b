// DequantSwigluQuant (no MoE groupIndex): x [..., 2H] -> yOut int8 [..., H] (+ scaleOut [...]).
//   dequant (int32 x): d = float(x [+ int32 bias]) * weightScale[c] [* activationScale[row]]
//                      [+ floating bias[c]];  float16/bfloat16 x: d = x
//   swiglu: A = the activated half (the first when activateLeft), B the other; s = A / (1 + exp(-A)) * B
//   static: y = rint(s / quantScale[c] + quantOffset[c]) (a one-element quantScale multiplies by its
//           inverse, as CANN's kernel); no quantScale: y = rint(s)
//   dynamic: t = s [* quantScale[c]]; scaleOut = max|t| / 127; y = rint(t * (1 / scaleOut))
// float32 arithmetic in CANN's kernel order; y saturates to int8, NaN -> 0.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "aclnnop/aclnn_dequant_swiglu_quant.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/quant/quant_common.h"
#include "ops/registry.h"

namespace pacl {
namespace {

// A per-column parameter: `n` values as [n] or [1, n], or (when one_ok) a single value.
void check_cols(const aclTensor& t, const char* arg, int64_t n, bool one_ok) {
  const bool ok = (t.dim() == 1 && (t.view[0] == n || (one_ok && t.view[0] == 1))) ||
                  (t.dim() == 2 && t.view[0] == 1 && (t.view[1] == n || (one_ok && t.view[1] == 1)));
  if (!ok) invalid("{} has shape {}, expected [{}] or [1, {}]{}", arg, dims_str(t.view), n, n, one_ok ? " or [1]" : "");
}

void plan_dsq(OpBuilder& b, const aclTensor* x_arg, const aclTensor* ws_arg, const aclTensor* as_arg,
              const aclTensor* bias_arg, const aclTensor* qs_arg, const aclTensor* qo_arg, const aclTensor* gi_arg,
              bool activate_left, const char* mode, const aclTensor* y_arg, const aclTensor* sc_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor* ws = ws_arg ? &b.input(ws_arg, "weightScaleOptional") : nullptr;
  const aclTensor* as = as_arg ? &b.input(as_arg, "activationScaleOptional") : nullptr;
  const aclTensor* bias = bias_arg ? &b.input(bias_arg, "biasOptional") : nullptr;
  const aclTensor* qs = qs_arg ? &b.input(qs_arg, "quantScaleOptional") : nullptr;
  const aclTensor* qo = qo_arg ? &b.input(qo_arg, "quantOffsetOptional") : nullptr;
  if (gi_arg) unsupported("groupIndexOptional (MoE groups) is not supported by pacl's aclnnDequantSwigluQuant yet");
  const aclTensor& y = b.output(y_arg, "yOut");
  const aclTensor& sc = b.output(sc_arg, "scaleOut");
  bool dynamic = false;
  const std::string m = mode ? mode : "static";
  if (m == "dynamic") dynamic = true;
  else if (m != "static") invalid("quantModeOptional is \"{}\", expected \"static\" or \"dynamic\"", m);
  check_dtype_in(b.op(), "x", x.dtype, dtype_mask({DType::kFloat16, DType::kBFloat16, DType::kInt32}));
  check_dtype_in(b.op(), "yOut", y.dtype, dtype_mask({DType::kInt8}));
  check_dtype_in(b.op(), "scaleOut", sc.dtype, dtype_mask({DType::kFloat}));
  if (x.dim() < 2 || x.dim() > 8) invalid("x has {} dims, expected 2 to 8", x.dim());
  if (x.view.back() % 2 != 0) invalid("x has shape {}, expected an even last dim", dims_str(x.view));
  const int64_t h = x.view.back() / 2, rows = x.numel() / std::max<int64_t>(x.view.back(), 1);
  Dims ys = x.view;
  ys.back() = h;
  check_shape_equals(y, "yOut", ys, "x's shape with the last dim halved");
  const Dims rs(x.view.begin(), x.view.end() - 1);
  check_shape_equals(sc, "scaleOut", rs, "x's shape without its last dim");
  const bool is_int = x.dtype == DType::kInt32;
  if (!is_int && (ws || as || bias))
    invalid("x is {}: weightScaleOptional, activationScaleOptional and biasOptional must be null (dequant is for int32 x)",
            dtype_name(x.dtype));
  if (is_int && !ws) invalid("weightScaleOptional is null, expected it for an int32 x");
  if (ws) {
    check_dtype_in(b.op(), "weightScaleOptional", ws->dtype, dtype_mask({DType::kFloat}));
    check_cols(*ws, "weightScaleOptional", 2 * h, false);
  }
  if (as) {
    check_dtype_in(b.op(), "activationScaleOptional", as->dtype, dtype_mask({DType::kFloat}));
    if (as->numel() != rows || as->dim() < 1)
      invalid("activationScaleOptional has shape {}, expected one value per row ({} rows)", dims_str(as->view), rows);
  }
  bool int_bias = false;
  if (bias) {
    check_dtype_in(b.op(), "biasOptional", bias->dtype,
                   dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16, DType::kInt32}));
    check_cols(*bias, "biasOptional", 2 * h, false);
    int_bias = bias->dtype == DType::kInt32;
  }
  if (qs) {
    check_dtype_in(b.op(), "quantScaleOptional", qs->dtype, dtype_mask({DType::kFloat}));
    check_cols(*qs, "quantScaleOptional", h, true);
  }
  if (qo && !dynamic) {
    check_dtype_in(b.op(), "quantOffsetOptional", qo->dtype, dtype_mask({DType::kFloat}));
    if (!qs) invalid("quantOffsetOptional is given, expected quantScaleOptional too");
    if (qo->numel() != qs->numel())
      invalid("quantOffsetOptional has shape {}, expected as many values as quantScaleOptional {}", dims_str(qo->view),
              dims_str(qs->view));
  }
  if (rows == 0 || h == 0) return;
  DensePlan p(b);
  const int xi = p.input(x, is_int ? DType::kInt32 : DType::kFloat);
  const int wi = ws ? p.input(*ws, DType::kFloat) : -1;
  const int ai = as ? p.input(*as, DType::kFloat) : -1;
  const int bi = bias ? p.input(*bias, int_bias ? DType::kInt32 : DType::kFloat) : -1;
  const int qsi = qs ? p.input(*qs, DType::kFloat) : -1;
  const int qoi = (qo && !dynamic) ? p.input(*qo, DType::kFloat) : -1;
  const int yi = p.output(y, DType::kInt8);
  const int sci = dynamic ? p.output(sc, DType::kFloat) : -1;
  const bool q_one = qs && qs->numel() == 1 && h != 1;
  const size_t dbuf = p.scratch(static_cast<size_t>(2 * h) * sizeof(float));
  const size_t sbuf = p.scratch(static_cast<size_t>(h) * sizeof(float));
  p.finish(dynamic ? "quant.dequant_swiglu_quant.dynamic" : "quant.dequant_swiglu_quant.static",
           [=](const DenseArgs& a) {
             float* d = a.scratch<float>(dbuf);
             float* s = a.scratch<float>(sbuf);
             const float* q = qsi >= 0 ? a.in<float>(qsi) : nullptr;
             for (int64_t r = 0; r < rows; ++r) {
               for (int64_t c = 0; c < 2 * h; ++c) {
                 if (!is_int) {
                   d[c] = a.in<float>(xi)[r * 2 * h + c];
                   continue;
                 }
                 int32_t v = a.in<int32_t>(xi)[r * 2 * h + c];
                 if (int_bias) {
                   const uint32_t u = static_cast<uint32_t>(v) + static_cast<uint32_t>(a.in<int32_t>(bi)[c]);
                   std::memcpy(&v, &u, sizeof v);
                 }
                 float f = static_cast<float>(v) * a.in<float>(wi)[c];
                 if (ai >= 0) f *= a.in<float>(ai)[r];
                 if (bi >= 0 && !int_bias) f += a.in<float>(bi)[c];
                 d[c] = f;
               }
               const float* av = activate_left ? d : d + h;
               const float* bv = activate_left ? d + h : d;
               for (int64_t j = 0; j < h; ++j) s[j] = av[j] / (1.0f + std::exp(-av[j])) * bv[j];
               int8_t* out = a.out<int8_t>(yi) + r * h;
               if (sci < 0) {
                 const float inv1 = q_one ? 1.0f / q[0] : 0.0f;
                 for (int64_t j = 0; j < h; ++j) {
                   float t = s[j];
                   if (q) {
                     t = q_one ? t * inv1 : t / q[j];
                     if (qoi >= 0) t += a.in<float>(qoi)[q_one ? 0 : j];
                   }
                   out[j] = static_cast<int8_t>(quant::round_sat(t, quant::Round::kRint, -128, 127));
                 }
               } else {
                 float mx = 0.0f;
                 for (int64_t j = 0; j < h; ++j) {
                   if (q) s[j] *= q_one ? q[0] : q[j];
                   mx = (std::isnan(s[j]) || std::isnan(mx)) ? NAN : std::max(mx, std::fabs(s[j]));
                 }
                 const float scale = mx / 127.0f;
                 a.out<float>(sci)[r] = scale;
                 const float inv = 1.0f / scale;
                 for (int64_t j = 0; j < h; ++j)
                   out[j] = static_cast<int8_t>(quant::round_sat(s[j] * inv, quant::Round::kRint, -128, 127));
               }
             }
           });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnDequantSwigluQuantGetWorkspaceSize(
    const aclTensor* x, const aclTensor* weightScaleOptional, const aclTensor* activationScaleOptional,
    const aclTensor* biasOptional, const aclTensor* quantScaleOptional, const aclTensor* quantOffsetOptional,
    const aclTensor* groupIndexOptional, bool activateLeft, char* quantModeOptional, const aclTensor* yOut,
    const aclTensor* scaleOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_DequantSwigluQuant, "aclnnDequantSwigluQuantGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_dsq(b, x, weightScaleOptional, activationScaleOptional, biasOptional,
                                           quantScaleOptional, quantOffsetOptional, groupIndexOptional, activateLeft,
                                           quantModeOptional, yOut, scaleOut);
                          });
}
