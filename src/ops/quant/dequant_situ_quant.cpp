// DequantSituQuant: x [..., 2H] -> yOut int8 [..., H] (+ yScaleOut [...] in dynamic mode).
//   dequant: int8 x: d = float(x) * weightScale[c] [+ bias[c]];
//            int32 x: d = float(x) * weightScale[c] * activationScale [+ bias[c]];
//            float16/bfloat16 x: d = x (already dequantized)
//   situ: gate = the activated half (the first when activateLeft), up the other;
//         a = tanh(gate * (1 / beta)) * beta * sigmoid(gate); linearBeta > 0: up = tanh(up / lb) * lb;
//         s = a * up
//   static: y = trunc(s / quantScale[c] + quantOffset[c])
//   dynamic (default): t = s [* quantScale[c] as smooth scale]; scale = max|t| / 127 (1 when 0);
//                      yScaleOut = scale; y = trunc(t * (1 / scale))
// Parameters of size 1 broadcast; float32 arithmetic; y saturates to int8, NaN -> 0.
#include <algorithm>
#include <cmath>
#include <string>

#include "aclnnop/aclnn_dequant_situ_quant.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/quant/quant_common.h"
#include "ops/registry.h"

namespace pacl {
namespace {

void check_vec(const aclTensor& t, const char* arg, int64_t n) {
  if (t.dim() != 1 || (t.view[0] != n && t.view[0] != 1))
    invalid("{} has shape {}, expected [{}] or [1]", arg, dims_str(t.view), n);
}

void plan_situ(OpBuilder& b, const aclTensor* x_arg, const aclTensor* ws_arg, const aclTensor* as_arg,
               const aclTensor* bias_arg, const aclTensor* qs_arg, const aclTensor* qo_arg, const aclTensor* gi_arg,
               float beta, float linear_beta, bool activate_left, const char* mode, const aclTensor* y_arg,
               const aclTensor* sc_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor* ws = ws_arg ? &b.input(ws_arg, "weightScaleOptional") : nullptr;
  const aclTensor* as = as_arg ? &b.input(as_arg, "activationScaleOptional") : nullptr;
  const aclTensor* bias = bias_arg ? &b.input(bias_arg, "biasOptional") : nullptr;
  const aclTensor* qs = qs_arg ? &b.input(qs_arg, "quantScaleOptional") : nullptr;
  const aclTensor* qo = qo_arg ? &b.input(qo_arg, "quantOffsetOptional") : nullptr;
  const aclTensor& y = b.output(y_arg, "yOut");
  const aclTensor& sc = b.output(sc_arg, "yScaleOut");
  const std::string m = mode ? mode : "dynamic";
  bool dynamic = true;
  if (m == "static") dynamic = false;
  else if (m != "dynamic") invalid("quantTypeOptional is \"{}\", expected \"static\" or \"dynamic\"", m);
  check_dtype_in(b.op(), "x", x.dtype, dtype_mask({DType::kInt8, DType::kInt32, DType::kBFloat16, DType::kFloat16}));
  check_dtype_in(b.op(), "yOut", y.dtype, dtype_mask({DType::kInt8}));
  check_dtype_in(b.op(), "yScaleOut", sc.dtype, dtype_mask({DType::kFloat}));
  if (beta == 0.0f) invalid("beta is 0, expected a non-zero value");
  const bool is8 = x.dtype == DType::kInt8, is32 = x.dtype == DType::kInt32;
  if (is8 ? (x.dim() < 2 || x.dim() > 8) : x.dim() != 2)
    invalid("x has {} dims, expected {}", x.dim(), is8 ? "2 to 8" : "2");
  if (x.view.back() % 2 != 0) invalid("x has shape {}, expected an even last dim", dims_str(x.view));
  const int64_t h = x.view.back() / 2, rows = x.numel() / std::max<int64_t>(x.view.back(), 1);
  Dims ys = x.view;
  ys.back() = h;
  check_shape_equals(y, "yOut", ys, "x's shape with the last dim halved");
  check_shape_equals(sc, "yScaleOut", Dims(x.view.begin(), x.view.end() - 1), "x's shape without its last dim");
  if (gi_arg) {
    if (is8) invalid("groupIndexOptional must be null for an int8 x");
    unsupported("groupIndexOptional (MoE groups) is not supported by pacl's aclnnDequantSituQuant yet");
  }
  if (is8 || is32) {
    if (!ws) invalid("weightScaleOptional is null, expected it for an {} x", dtype_name(x.dtype));
    check_dtype_in(b.op(), "weightScaleOptional", ws->dtype, dtype_mask({DType::kFloat}));
    check_vec(*ws, "weightScaleOptional", 2 * h);
    if (bias) {
      check_dtype_in(b.op(), "biasOptional", bias->dtype, dtype_mask({DType::kFloat}));
      check_vec(*bias, "biasOptional", 2 * h);
    }
  } else if (ws || as || bias) {
    invalid("x is {}: weightScaleOptional, activationScaleOptional and biasOptional must be null", dtype_name(x.dtype));
  }
  if (is8 && as) invalid("activationScaleOptional must be null for an int8 x");
  if (is32) {
    if (!as) invalid("activationScaleOptional is null, expected it for an int32 x");
    check_dtype_in(b.op(), "activationScaleOptional", as->dtype, dtype_mask({DType::kFloat}));
    check_vec(*as, "activationScaleOptional", 1);
    if (qs || qo) invalid("quantScaleOptional and quantOffsetOptional must be null for an int32 x");
  }
  if (!dynamic && !qs) invalid("quantScaleOptional is null, expected it for quantTypeOptional \"static\"");
  if (qs) {
    check_dtype_in(b.op(), "quantScaleOptional", qs->dtype, dtype_mask({DType::kFloat}));
    check_vec(*qs, "quantScaleOptional", h);
  }
  if (qo && !dynamic) {
    check_dtype_in(b.op(), "quantOffsetOptional", qo->dtype, dtype_mask({DType::kFloat}));
    check_vec(*qo, "quantOffsetOptional", h);
  }
  if (rows == 0 || h == 0) return;
  DensePlan p(b);
  const int xi = p.input(x, DType::kFloat);
  const int wi = ws && (is8 || is32) ? p.input(*ws, DType::kFloat) : -1;
  const int ai = as && is32 ? p.input(*as, DType::kFloat) : -1;
  const int bi = bias && (is8 || is32) ? p.input(*bias, DType::kFloat) : -1;
  const int qsi = qs ? p.input(*qs, DType::kFloat) : -1;
  const int qoi = (qo && !dynamic) ? p.input(*qo, DType::kFloat) : -1;
  const int yi = p.output(y, DType::kInt8);
  const int sci = dynamic ? p.output(sc, DType::kFloat) : -1;
  const int64_t wn = ws ? ws->numel() : 1, bn = bias ? bias->numel() : 1, qn = qs ? qs->numel() : 1,
                on = qo ? qo->numel() : 1;
  const size_t dbuf = p.scratch(static_cast<size_t>(2 * h) * sizeof(float));
  const size_t sbuf = p.scratch(static_cast<size_t>(h) * sizeof(float));
  p.finish(dynamic ? "quant.dequant_situ_quant.dynamic" : "quant.dequant_situ_quant.static", [=](const DenseArgs& a) {
    float* d = a.scratch<float>(dbuf);
    float* s = a.scratch<float>(sbuf);
    const float inv_beta = 1.0f / beta, inv_lb = linear_beta > 0.0f ? 1.0f / linear_beta : 0.0f;
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < 2 * h; ++c) {
        float v = a.in<float>(xi)[r * 2 * h + c];
        if (wi >= 0) v *= a.in<float>(wi)[wn == 1 ? 0 : c];
        if (ai >= 0) v *= a.in<float>(ai)[0];
        if (bi >= 0) v += a.in<float>(bi)[bn == 1 ? 0 : c];
        d[c] = v;
      }
      const float* gate = activate_left ? d : d + h;
      const float* up = activate_left ? d + h : d;
      for (int64_t j = 0; j < h; ++j) {
        const float g = gate[j];
        const float sa = std::tanh(g * inv_beta) * beta * (1.0f / (1.0f + std::exp(-g)));
        const float u = linear_beta > 0.0f ? std::tanh(up[j] * inv_lb) * linear_beta : up[j];
        s[j] = sa * u;
      }
      int8_t* out = a.out<int8_t>(yi) + r * h;
      if (sci < 0) {
        for (int64_t j = 0; j < h; ++j) {
          float t = s[j] / a.in<float>(qsi)[qn == 1 ? 0 : j];
          if (qoi >= 0) t += a.in<float>(qoi)[on == 1 ? 0 : j];
          out[j] = static_cast<int8_t>(quant::round_sat(t, quant::Round::kTrunc, -128, 127));
        }
      } else {
        float mx = 0.0f;
        for (int64_t j = 0; j < h; ++j) {
          if (qsi >= 0) s[j] *= a.in<float>(qsi)[qn == 1 ? 0 : j];
          mx = (std::isnan(s[j]) || std::isnan(mx)) ? NAN : std::max(mx, std::fabs(s[j]));
        }
        float scale = mx / 127.0f;
        if (scale == 0.0f) scale = 1.0f;
        a.out<float>(sci)[r] = scale;
        const float inv = 1.0f / scale;
        for (int64_t j = 0; j < h; ++j)
          out[j] = static_cast<int8_t>(quant::round_sat(s[j] * inv, quant::Round::kTrunc, -128, 127));
      }
    }
  });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnDequantSituQuantGetWorkspaceSize(
    const aclTensor* x, const aclTensor* weightScaleOptional, const aclTensor* activationScaleOptional,
    const aclTensor* biasOptional, const aclTensor* quantScaleOptional, const aclTensor* quantOffsetOptional,
    const aclTensor* groupIndexOptional, float beta, float linearBeta, bool activateLeft, char* quantTypeOptional,
    const aclTensor* yOut, const aclTensor* yScaleOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_DequantSituQuant, "aclnnDequantSituQuantGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_situ(b, x, weightScaleOptional, activationScaleOptional, biasOptional,
                                            quantScaleOptional, quantOffsetOptional, groupIndexOptional, beta,
                                            linearBeta, activateLeft, quantTypeOptional, yOut, yScaleOut);
                          });
}
