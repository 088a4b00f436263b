// FlatQuant(V2, V3), per-token mode (INT32 out packing eight int4 values):
//   x'' [m] = kroneckerP1 @ (x[m] @ kroneckerP2)      (float32 accumulation, x'' kept in float32)
//   quantScale[m] = max|x''[m]| / (7 / clipRatio);  out = rint(x''[m] / quantScale[m]), saturated to int4
// V3's groupList limits the rows processed to the groups' total (cumsum's last value, the sum of
// counts, or the sum of the [idx, size] pairs' sizes); later rows get out 0 and quantScale 0.
// INT4 and FLOAT4_E2M1 (per-group mx) outputs are not supported by pacl.
#include <algorithm>
#include <cmath>
#include <vector>

#include "aclnnop/aclnn_flat_quant.h"
#include "aclnnop/aclnn_flat_quant_v2.h"
#include "aclnnop/aclnn_flat_quant_v3.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/quant/quant_common.h"
#include "ops/registry.h"

namespace pacl {
namespace {

void plan_flat_quant(OpBuilder& b, const aclTensor* x_arg, const aclTensor* p1_arg, const aclTensor* p2_arg,
                     const aclTensor* gl_arg, double clip, int64_t gl_type, const aclTensor* out_arg,
                     const aclTensor* qs_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& p1 = b.input(p1_arg, "kroneckerP1");
  const aclTensor& p2 = b.input(p2_arg, "kroneckerP2");
  const aclTensor* gl = gl_arg ? &b.input(gl_arg, "groupListOptional") : nullptr;
  const aclTensor& out = b.output(out_arg, "out");
  const aclTensor& qs = b.output(qs_arg, "quantScale");
  check_dtype_in(b.op(), "x", x.dtype, dtype_mask({DType::kFloat16, DType::kBFloat16}));
  if (p1.dtype != x.dtype)
    invalid("kroneckerP1 has dtype {}, expected the dtype of x ({})", dtype_name(p1.dtype), dtype_name(x.dtype));
  if (p2.dtype != x.dtype)
    invalid("kroneckerP2 has dtype {}, expected the dtype of x ({})", dtype_name(p2.dtype), dtype_name(x.dtype));
  if (out.dtype == DType::kInt4 || out.dtype == DType::kFloat4E2M1)
    unsupported("out dtype {} is not supported by pacl yet; supported: int32 (packed int4)", dtype_name(out.dtype));
  check_dtype_in(b.op(), "out", out.dtype, dtype_mask({DType::kInt32}));
  check_dtype_in(b.op(), "quantScale", qs.dtype, dtype_mask({DType::kFloat}));
  if (!(clip > 0.0 && clip <= 1.0)) invalid("clipRatio is {}, expected a value in (0, 1]", clip);
  if (x.dim() != 3) invalid("x has {} dims, expected 3 ([M, N1, N2])", x.dim());
  if (x.numel() == 0) invalid("x is empty, expected a non-empty tensor");
  const int64_t m = x.view[0], n1 = x.view[1], n2 = x.view[2];
  if (n2 % 8 != 0) invalid("x has shape {}, expected N2 divisible by 8 for an int32 out", dims_str(x.view));
  check_shape_equals(p1, "kroneckerP1", Dims{n1, n1}, "[N1, N1] of x");
  check_shape_equals(p2, "kroneckerP2", Dims{n2, n2}, "[N2, N2] of x");
  check_shape_equals(out, "out", Dims{m, n1, n2 / 8}, "[M, N1, N2 / 8] of x");
  check_shape_equals(qs, "quantScale", Dims{m}, "[M] of x");
  if (gl) {
    check_dtype_in(b.op(), "groupListOptional", gl->dtype, dtype_mask({DType::kInt64, DType::kInt32}));
    if (gl_type < 0 || gl_type > 2) invalid("groupListType is {}, expected 0, 1 or 2", gl_type);
    if (gl_type == 2 ? (gl->dim() != 2 || gl->view[1] != 2) : gl->dim() != 1)
      invalid("groupListOptional has shape {}, expected {}", dims_str(gl->view), gl_type == 2 ? "[G, 2]" : "[G]");
    if (gl->view[0] == 0 || gl->view[0] > 1024)
      invalid("groupListOptional has {} groups, expected 1 to 1024", gl->view[0]);
  }
  DensePlan p(b);
  const int xi = p.input(x, DType::kFloat);
  const int p1i = p.input(p1, DType::kFloat);
  const int p2i = p.input(p2, DType::kFloat);
  const int gi = gl ? p.input(*gl, DType::kInt64) : -1;
  const int oi = p.output(out, DType::kInt32);
  const int qi = p.output(qs, DType::kFloat);
  const size_t t1 = p.scratch(static_cast<size_t>(n1 * n2) * sizeof(float));
  const size_t t2 = p.scratch(static_cast<size_t>(n1 * n2) * sizeof(float));
  const size_t vb = p.scratch(static_cast<size_t>(n1 * n2) * sizeof(int64_t));
  const float div = static_cast<float>(7.0 / clip);
  const int64_t groups = gl ? gl->view[0] : 0;
  p.finish("quant.flat_quant.per_token", [=](const DenseArgs& a) {
    const float* xv = a.in<float>(xi);
    const float* P1 = a.in<float>(p1i);
    const float* P2 = a.in<float>(p2i);
    float* xp = a.scratch<float>(t1);
    float* xpp = a.scratch<float>(t2);
    int64_t* v = a.scratch<int64_t>(vb);
    int64_t limit = m;
    if (gi >= 0) {
      const int64_t* g = a.in<int64_t>(gi);
      int64_t total = 0;
      for (int64_t k = 0; k < groups; ++k) {
        if (gl_type == 0) total = g[k];
        else total += gl_type == 1 ? g[k] : g[2 * k + 1];
      }
      limit = std::max<int64_t>(0, std::min(m, total));
    }
    for (int64_t r = 0; r < m; ++r) {
      int32_t* o = a.out<int32_t>(oi) + r * n1 * (n2 / 8);
      if (r >= limit) {
        std::fill(o, o + n1 * (n2 / 8), 0);
        a.out<float>(qi)[r] = 0.0f;
        continue;
      }
      const float* xr = xv + r * n1 * n2;
      for (int64_t i = 0; i < n1; ++i)
        for (int64_t k = 0; k < n2; ++k) {
          float acc = 0.0f;
          for (int64_t j = 0; j < n2; ++j) acc += xr[i * n2 + j] * P2[j * n2 + k];
          xp[i * n2 + k] = acc;
        }
      float mx = 0.0f;
      for (int64_t i = 0; i < n1; ++i)
        for (int64_t k = 0; k < n2; ++k) {
          float acc = 0.0f;
          for (int64_t j = 0; j < n1; ++j) acc += P1[i * n1 + j] * xp[j * n2 + k];
          xpp[i * n2 + k] = acc;
          mx = (std::isnan(acc) || std::isnan(mx)) ? NAN : std::max(mx, std::fabs(acc));
        }
      const float s = mx / div;
      a.out<float>(qi)[r] = s;
      for (int64_t k = 0; k < n1 * n2; ++k) v[k] = quant::round_sat(xpp[k] / s, quant::Round::kRint, -8, 7);
      for (int64_t k = 0; k < n1 * n2 / 8; ++k) o[k] = quant::pack_int4(v + 8 * k);
    }
  });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnFlatQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* kroneckerP1,
                                                      const aclTensor* kroneckerP2, double clipRatio, aclTensor* out,
                                                      aclTensor* quantScale, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_FlatQuant, "aclnnFlatQuantGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_flat_quant(b, x, kroneckerP1, kroneckerP2, nullptr, clipRatio, 0, out,
                                                  quantScale);
                          });
}

extern "C" aclnnStatus aclnnFlatQuantV2GetWorkspaceSize(const aclTensor* x, const aclTensor* kroneckerP1,
                                                        const aclTensor* kroneckerP2, double clipRatio,
                                                        double /*dstTypeMax: FLOAT4_E2M1 outputs only*/,
                                                        aclTensor* out, aclTensor* quantScale, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_FlatQuantV2, "aclnnFlatQuantV2GetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_flat_quant(b, x, kroneckerP1, kroneckerP2, nullptr, clipRatio, 0, out,
                                                  quantScale);
                          });
}

extern "C" aclnnStatus aclnnFlatQuantV3GetWorkspaceSize(const aclTensor* x, const aclTensor* kroneckerP1,
                                                        const aclTensor* kroneckerP2,
                                                        const aclTensor* groupListOptional, double clipRatio,
                                                        double /*dstTypeMax: FLOAT4_E2M1 outputs only*/,
                                                        int64_t groupListType, aclTensor* out, aclTensor* quantScale,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_FlatQuantV3, "aclnnFlatQuantV3GetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_flat_quant(b, x, kroneckerP1, kroneckerP2, groupListOptional, clipRatio,
                                                  groupListType, out, quantScale);
                          });
}
