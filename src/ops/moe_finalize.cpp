// MoeFinalizeRouting (ops-transformer moe/moe_finalize_routing/README.md): with rows = x1.shape[0],
// K = scales.shape[1],
//   out[i, j] = x1[i, j] + x2[i, j] + sum_k scales[i, k] * (expandedX[expandedRowIdx[i + k*rows], j]
//                                                           + bias[expandedExpertIdx[i, k], j]).
// Computed in float32 (double inputs are not supported), rounded once into out.
#include "aclnnop/aclnn_moe_finalize_routing.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr DTypeMask kFinalizeTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});

void need_dims(const aclTensor& t, const char* name, int64_t d) {
  if (t.dim() != d) invalid("{} has {} dims ({}), expected {} dims", name, t.dim(), t.describe(), d);
}

void plan_finalize(OpBuilder& b, const aclTensor* ex_arg, const aclTensor* x1_arg, const aclTensor* x2_arg,
                   const aclTensor* bias_arg, const aclTensor* scales_arg, const aclTensor* row_arg,
                   const aclTensor* expert_arg, const aclTensor* out_arg) {
  const aclTensor& ex = b.input(ex_arg, "expandedX");
  const aclTensor& x1 = b.input(x1_arg, "x1");
  const aclTensor* x2 = x2_arg ? &b.input(x2_arg, "x2Optional") : nullptr;
  const aclTensor& bias = b.input(bias_arg, "bias");
  const aclTensor& scales = b.input(scales_arg, "scales");
  const aclTensor& row = b.input(row_arg, "expandedRowIdx");
  const aclTensor& expert = b.input(expert_arg, "expandedExpertIdx");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "expandedX", ex.dtype, kFinalizeTypes);
  for (const aclTensor* t : {&x1, x2, &bias, &scales, &out}) {
    if (!t) continue;
    if (t->dtype != ex.dtype) {
      const char* name = t == &x1 ? "x1" : t == x2 ? "x2Optional" : t == &bias ? "bias" : t == &scales ? "scales" : "out";
      invalid("{} has dtype {}, expected the dtype of expandedX ({})", name, dtype_name(t->dtype), dtype_name(ex.dtype));
    }
  }
  check_dtype_in(b.op(), "expandedRowIdx", row.dtype, dtype_mask({DType::kInt32}));
  check_dtype_in(b.op(), "expandedExpertIdx", expert.dtype, dtype_mask({DType::kInt32}));
  need_dims(ex, "expandedX", 2);
  need_dims(x1, "x1", 2);
  need_dims(bias, "bias", 2);
  need_dims(scales, "scales", 2);
  need_dims(expert, "expandedExpertIdx", 2);
  const int64_t rows = x1.view[0], h = x1.view[1], k = scales.view[1], experts = bias.view[0];
  check_shape_equals(out, "out", x1.view, "the shape of x1");
  if (x2) check_shape_equals(*x2, "x2Optional", x1.view, "the shape of x1");
  check_shape_equals(scales, "scales", Dims{rows, k}, "[x1.shape[0], K]");
  check_shape_equals(expert, "expandedExpertIdx", Dims{rows, k}, "the shape of scales");
  if (row.numel() != rows * k)
    invalid("expandedRowIdx has {} elements ({}), expected x1.shape[0] * K = {}", row.numel(), row.describe(), rows * k);
  if (ex.view[1] != h) invalid("expandedX has {} columns ({}), expected x1.shape[1] = {}", ex.view[1], ex.describe(), h);
  if (bias.view[1] != h) invalid("bias has {} columns ({}), expected x1.shape[1] = {}", bias.view[1], bias.describe(), h);
  if (out.numel() == 0) return;
  const int64_t ex_rows = ex.view[0];
  DensePlan p(b);
  const int pex = p.input(ex, DType::kFloat);
  const int px1 = p.input(x1, DType::kFloat);
  const int px2 = x2 ? p.input(*x2, DType::kFloat) : -1;
  const int pb = p.input(bias, DType::kFloat);
  const int ps = p.input(scales, DType::kFloat);
  const int pr = p.input(row, DType::kInt32);
  const int pe = p.input(expert, DType::kInt32);
  const int po = p.output(out, DType::kFloat);
  p.finish("moe_finalize_routing", [=](const DenseArgs& a) {
    const float* X = a.in<float>(pex);
    const float* A = a.in<float>(px1);
    const float* B = px2 >= 0 ? a.in<float>(px2) : nullptr;
    const float* bi = a.in<float>(pb);
    const float* sc = a.in<float>(ps);
    const int32_t* ri = a.in<int32_t>(pr);
    const int32_t* ei = a.in<int32_t>(pe);
    float* o = a.out<float>(po);
    for (int64_t i = 0; i < rows; ++i) {
      float* orow = o + i * h;
      for (int64_t j = 0; j < h; ++j) orow[j] = A[i * h + j] + (B ? B[i * h + j] : 0.0f);
      for (int64_t q = 0; q < k; ++q) {
        const int64_t r = ri[i + q * rows];
        const int64_t e = ei[i * k + q];
        const float s = sc[i * k + q];
        // Rows or experts out of range (dropped tokens) contribute nothing of theirs.
        const float* xr = r >= 0 && r < ex_rows ? X + r * h : nullptr;
        const float* br = e >= 0 && e < experts ? bi + e * h : nullptr;
        for (int64_t j = 0; j < h; ++j) orow[j] += s * ((xr ? xr[j] : 0.0f) + (br ? br[j] : 0.0f));
      }
    }
  });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnMoeFinalizeRoutingGetWorkspaceSize(const aclTensor* expandedX, const aclTensor* x1,
                                                               const aclTensor* x2Optional, const aclTensor* bias,
                                                               const aclTensor* scales, const aclTensor* expandedRowIdx,
                                                               const aclTensor* expandedExpertIdx, const aclTensor* out,
                                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MoeFinalizeRouting, "aclnnMoeFinalizeRoutingGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_finalize(b, expandedX, x1, x2Optional, bias, scales, expandedRowIdx,
                                                expandedExpertIdx, out);
                          });
}
