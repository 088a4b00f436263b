// SwigluGroupGrad: the backward of y = silu(x0) * x1 (x = [x0 | x1] along the last dim), with an
// optional per-row MoE weight, an optional clamp (clampLimit > 0: x0 <= c, -c <= x1 <= c, gradients
// masked where the clamp was active) and an optional groupIndex whose sum `trunc` keeps the
// gradient of the first trunc rows only (later rows get 0).
//   gy = gradY (* weight[t]); s = sigmoid(x0'); silu = x0' * s
//   gradX0 = gy * x1' * s * (1 + x0' * (1 - s)); gradX1 = gy * silu
//   gradWeight[t] = sum_h gradY[t, h] * yOrigin[t, h] (float32 accumulation, every row)
#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_swiglu_group_grad.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/registry.h"

namespace pacl {
namespace {

void plan_swiglu_group_grad(OpBuilder& b, const aclTensor* gy_arg, const aclTensor* x_arg, const aclTensor* w_arg,
                            const aclTensor* yo_arg, const aclTensor* gi_arg, float clamp, const aclTensor* gx_arg,
                            const aclTensor* gw_arg) {
  const aclTensor& gy = b.input(gy_arg, "gradY");
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor* w = w_arg ? &b.input(w_arg, "weightOptional") : nullptr;
  const aclTensor* yo = yo_arg ? &b.input(yo_arg, "yOriginOptional") : nullptr;
  const aclTensor* gi = gi_arg ? &b.input(gi_arg, "groupIndexOptional") : nullptr;
  const aclTensor& gx = b.output(gx_arg, "gradXOut");
  const aclTensor* gw = gw_arg ? &b.output(gw_arg, "gradWeightOutOptional") : nullptr;
  constexpr DTypeMask kF = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});
  check_dtype_in(b.op(), "gradY", gy.dtype, kF);
  if (x.dtype != gy.dtype) invalid("x has dtype {}, expected the dtype of gradY ({})", dtype_name(x.dtype), dtype_name(gy.dtype));
  if (gx.dtype != gy.dtype)
    invalid("gradXOut has dtype {}, expected the dtype of gradY ({})", dtype_name(gx.dtype), dtype_name(gy.dtype));
  if (!(clamp >= 0.0f)) invalid("clampLimit is {}, expected a value >= 0", clamp);
  if (gy.dim() != 2 && gy.dim() != 3) invalid("gradY has {} dims, expected 2 ([T, H]) or 3 ([B, S, H])", gy.dim());
  const int64_t h = gy.view.back();
  if (h <= 0) invalid("gradY has shape {}, expected a last dim H > 0", dims_str(gy.view));
  Dims xs = gy.view;
  xs.back() = 2 * h;
  check_shape_equals(x, "x", xs, "gradY's shape with the last dim doubled");
  check_shape_equals(gx, "gradXOut", xs, "x's shape");
  if ((w == nullptr) != (yo == nullptr))
    invalid("weightOptional and yOriginOptional must both be given or both be null (weightOptional {}, yOriginOptional {})",
            w ? "given" : "null", yo ? "given" : "null");
  Dims ws = gy.view;
  ws.back() = 1;
  if (w) {
    check_dtype_in(b.op(), "weightOptional", w->dtype, dtype_mask({DType::kFloat}));
    check_shape_equals(*w, "weightOptional", ws, "gradY's shape with the last dim 1");
    if (yo->dtype != gy.dtype)
      invalid("yOriginOptional has dtype {}, expected the dtype of gradY ({})", dtype_name(yo->dtype), dtype_name(gy.dtype));
    check_shape_equals(*yo, "yOriginOptional", gy.view, "gradY's shape");
  }
  if (gw) {
    if (!w) invalid("gradWeightOutOptional is given, expected weightOptional and yOriginOptional too");
    check_dtype_in(b.op(), "gradWeightOutOptional", gw->dtype, dtype_mask({DType::kFloat}));
    check_shape_equals(*gw, "gradWeightOutOptional", ws, "gradY's shape with the last dim 1");
  }
  if (gi) {
    check_dtype_in(b.op(), "groupIndexOptional", gi->dtype, dtype_mask({DType::kInt64}));
    if (gi->dim() != 1 || gi->numel() == 0)
      invalid("groupIndexOptional has shape {}, expected a non-empty 1-d tensor", dims_str(gi->view));
  }
  const int64_t rows = gy.numel() / h;
  if (rows == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int gyi = p.input(gy, DType::kFloat);
  const int xi = p.input(x, DType::kFloat);
  const int wi = w ? p.input(*w, DType::kFloat) : -1;
  const int yoi = (yo && gw) ? p.input(*yo, DType::kFloat) : -1;
  const int gii = gi ? p.input(*gi, DType::kInt64) : -1;
  const int gxi = p.output(gx, DType::kFloat);
  const int gwi = gw ? p.output(*gw, DType::kFloat) : -1;
  const int64_t groups = gi ? gi->numel() : 0;
  p.finish("swiglu_group_grad", [=](const DenseArgs& a) {
    const float* g = a.in<float>(gyi);
    const float* xv = a.in<float>(xi);
    float* out = a.out<float>(gxi);
    int64_t trunc = rows;
    if (gii >= 0) {
      trunc = 0;
      for (int64_t k = 0; k < groups; ++k) trunc += a.in<int64_t>(gii)[k];
    }
    const bool use_clamp = clamp > 0.0f;
    for (int64_t t = 0; t < rows; ++t) {
      const float wt = wi >= 0 ? a.in<float>(wi)[t] : 1.0f;
      if (gwi >= 0) {
        float acc = 0.0f;
        for (int64_t j = 0; j < h; ++j) acc += g[t * h + j] * a.in<float>(yoi)[t * h + j];
        a.out<float>(gwi)[t] = acc;
      }
      float* o = out + t * 2 * h;
      if (t >= trunc) {
        std::fill(o, o + 2 * h, 0.0f);
        continue;
      }
      for (int64_t j = 0; j < h; ++j) {
        const float x0 = xv[t * 2 * h + j], x1 = xv[t * 2 * h + h + j];
        const float a0 = use_clamp ? std::min(x0, clamp) : x0;
        const float a1 = use_clamp ? std::min(std::max(x1, -clamp), clamp) : x1;
        const float gyv = wi >= 0 ? g[t * h + j] * wt : g[t * h + j];
        const float s = 1.0f / (1.0f + std::exp(-a0));
        float g0 = gyv * a1 * (s * (1.0f + a0 * (1.0f - s)));
        float g1 = gyv * (a0 * s);
        if (use_clamp) {
          if (!(x0 < clamp)) g0 = 0.0f;
          if (!(-clamp < x1 && x1 < clamp)) g1 = 0.0f;
        }
        o[j] = g0;
        o[h + j] = g1;
      }
    }
  });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnSwigluGroupGradGetWorkspaceSize(const aclTensor* gradY, const aclTensor* x,
                                                            const aclTensor* weightOptional,
                                                            const aclTensor* yOriginOptional,
                                                            const aclTensor* groupIndexOptional, float clampLimit,
                                                            aclTensor* gradXOut, aclTensor* gradWeightOutOptional,
                                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_SwigluGroupGrad, "aclnnSwigluGroupGradGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_swiglu_group_grad(b, gradY, x, weightOptional, yOriginOptional,
                                                         groupIndexOptional, clampLimit, gradXOut,
                                                         gradWeightOutOptional);
                          });
}
