// MoeGatingTopKSoftmax (ops-transformer moe/moe_gating_top_k_softmax/README.md): for each row r of
// x [..., E]: s = softmax(x[r]); yOut[r], expertIdxOut[r] = the k largest s (descending, ties to the
// lower expert id) and their expert ids; a row whose finishedOptional entry is true gets expert id E.
// rowIdxOut[r][j] = j * rows + r (arange(rows*k) laid out [k, rows], transposed).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "aclnnop/aclnn_moe_gating_top_k_softmax.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/registry.h"

namespace pacl {
namespace {

void plan_gating_softmax(OpBuilder& b, const aclTensor* x_arg, const aclTensor* fin_arg, int64_t k,
                         const aclTensor* y_arg, const aclTensor* idx_arg, const aclTensor* row_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor* fin = fin_arg ? &b.input(fin_arg, "finishedOptional") : nullptr;
  const aclTensor& y = b.output(y_arg, "yOut");
  const aclTensor& idx = b.output(idx_arg, "expertIdxOut");
  const aclTensor& row = b.output(row_arg, "rowIdxOut");
  check_dtype_in(b.op(), "x", x.dtype, dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16}));
  if (fin) check_dtype_in(b.op(), "finishedOptional", fin->dtype, dtype_mask({DType::kBool}));
  if (y.dtype != x.dtype)
    invalid("yOut has dtype {}, expected the dtype of x ({})", dtype_name(y.dtype), dtype_name(x.dtype));
  check_dtype_in(b.op(), "expertIdxOut", idx.dtype, dtype_mask({DType::kInt32}));
  check_dtype_in(b.op(), "rowIdxOut", row.dtype, dtype_mask({DType::kInt32}));
  if (x.dim() < 2 || x.dim() > 3) invalid("x has {} dims ({}), expected 2 or 3 dims", x.dim(), x.describe());
  const int64_t e = x.view[static_cast<size_t>(x.dim() - 1)];
  if (k <= 0 || k > e || k > 1024)
    invalid("k is {}, expected k in [1, min(1024, {})] (the experts of x: {})", k, e, x.describe());
  Dims lead(x.view.begin(), x.view.end() - 1);
  if (fin) check_shape_equals(*fin, "finishedOptional", lead, "x's shape without its last dim");
  Dims oshape = lead;
  oshape.push_back(k);
  check_shape_equals(y, "yOut", oshape, "x's shape with the last dim k");
  check_shape_equals(idx, "expertIdxOut", oshape, "x's shape with the last dim k");
  check_shape_equals(row, "rowIdxOut", oshape, "x's shape with the last dim k");
  int64_t rows = 1;
  for (int64_t d : lead) rows *= d;
  if (rows == 0) return;
  DensePlan p(b);
  const int px = p.input(x, DType::kFloat);
  const int pf = fin ? p.input(*fin, DType::kBool) : -1;
  const int py = p.output(y, DType::kFloat);
  const int pi = p.output(idx, DType::kInt32);
  const int pr = p.output(row, DType::kInt32);
  p.finish("moe_gating_top_k_softmax", [=](const DenseArgs& a) {
    const float* xs = a.in<float>(px);
    const bool* fs = pf >= 0 ? a.in<bool>(pf) : nullptr;
    float* ys = a.out<float>(py);
    int32_t* is = a.out<int32_t>(pi);
    int32_t* rs = a.out<int32_t>(pr);
    std::vector<float> s(static_cast<size_t>(e));
    std::vector<int64_t> order(static_cast<size_t>(e));
    for (int64_t r = 0; r < rows; ++r) {
      const float* xr = xs + r * e;
      const float mx = *std::max_element(xr, xr + e);
      float sum = 0;
      for (int64_t c = 0; c < e; ++c) sum += (s[static_cast<size_t>(c)] = std::exp(xr[c] - mx));
      for (auto& v : s) v /= sum;
      std::iota(order.begin(), order.end(), int64_t{0});
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t u, int64_t v) {  // NaN ranks above every number (a strict weak order)
                         const float su = s[static_cast<size_t>(u)], sv = s[static_cast<size_t>(v)];
                         return std::isnan(sv) ? false : std::isnan(su) || su > sv;
                       });
      const bool done = fs && fs[r];
      for (int64_t j = 0; j < k; ++j) {
        const int64_t c = order[static_cast<size_t>(j)];
        ys[r * k + j] = s[static_cast<size_t>(c)];
        is[r * k + j] = static_cast<int32_t>(done ? e : c);
        rs[r * k + j] = static_cast<int32_t>(j * rows + r);
      }
    }
  });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(const aclTensor* x, const aclTensor* finishedOptional,
                                                                 int64_t k, const aclTensor* yOut,
                                                                 const aclTensor* expertIdxOut,
                                                                 const aclTensor* rowIdxOut, uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MoeGatingTopKSoftmax, "aclnnMoeGatingTopKSoftmaxGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_gating_softmax(b, x, finishedOptional, k, yOut, expertIdxOut, rowIdxOut);
                          });
}
