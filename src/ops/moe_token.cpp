// Mixture-of-experts token routing: MoeComputeExpertTokens, MoeTokenPermute, MoeTokenUnpermute
// (ops-transformer moe/*/README.md).
//  - MoeComputeExpertTokens: out[e] = #{i : sortedExperts[i] <= e}, e in [0, numExperts).
//  - MoeTokenPermute (paddedMode false): first = stable argsort of indices.flatten() (ascending
//    expert id, ties in flat order), sortedIndicesOut = argsort(first) (the permuted position of
//    each flat entry), permuteTokensOut[p] = tokens[first[p] / topK] for p < numOutTokens
//    (0 -> all, negative -> N + numOutTokens as a Python slice end).
//  - MoeTokenUnpermute (paddedMode false): out[i] = sum_j permutedTokens[S[i*topK+j]] * probs[i][j]
//    (no probs: topK = 1, weight 1); rows S[k] >= rows(permutedTokens) are dropped (contribute 0).
#include <algorithm>
#include <cstring>
#include <numeric>

#include "aclnnop/aclnn_moe_compute_expert_tokens.h"
#include "aclnnop/aclnn_moe_token_permute.h"
#include "aclnnop/aclnn_moe_token_permute_grad.h"
#include "aclnnop/aclnn_moe_token_unpermute.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr DTypeMask kIndexTypes = dtype_mask({DType::kInt32, DType::kInt64});
constexpr DTypeMask kPermuteTokenTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16, DType::kInt8});
constexpr DTypeMask kUnpermuteTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});

void check_dim_count(const aclTensor& t, const char* name, int64_t lo, int64_t hi) {
  if (t.dim() < lo || t.dim() > hi) {
    if (lo == hi) invalid("{} has {} dims ({}), expected {} dims", name, t.dim(), t.describe(), lo);
    invalid("{} has {} dims ({}), expected {} to {} dims", name, t.dim(), t.describe(), lo, hi);
  }
}

// Index values as int64 whatever the stored integer dtype.
int64_t index_at(const void* p, DType t, int64_t i) {
  return t == DType::kInt64 ? static_cast<const int64_t*>(p)[i] : static_cast<const int32_t*>(p)[i];
}

void plan_compute_expert_tokens(OpBuilder& b, const aclTensor* sorted_arg, int64_t num_experts, const aclTensor* out_arg) {
  const aclTensor& sorted = b.input(sorted_arg, "sortedExperts");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "sortedExperts", sorted.dtype, dtype_mask({DType::kInt32}));
  check_dtype_in(b.op(), "out", out.dtype, dtype_mask({DType::kInt32}));
  check_dim_count(sorted, "sortedExperts", 1, 1);
  if (num_experts <= 0) invalid("numExperts is {}, expected a positive number of experts", num_experts);
  check_shape_equals(out, "out", Dims{num_experts}, "[numExperts]");
  const int64_t n = sorted.numel();
  DensePlan p(b);
  const int src = p.input(sorted, DType::kInt32);
  const int dst = p.output(out, DType::kInt32);
  p.finish("moe_compute_expert_tokens", [=](const DenseArgs& a) {
    const int32_t* s = a.in<int32_t>(src);
    int32_t* o = a.out<int32_t>(dst);
    // Counting (not a binary search) so that unsorted input still gives #{i : s[i] <= e}.
    std::vector<int64_t> count(static_cast<size_t>(num_experts) + 1, 0);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t e = s[i];
      if (e < 0) ++count[0];
      else if (e < num_experts) ++count[static_cast<size_t>(e)];
    }
    int64_t run = 0;
    for (int64_t e = 0; e < num_experts; ++e) {
      run += count[static_cast<size_t>(e)];
      o[e] = static_cast<int32_t>(run);
    }
  });
}

void plan_token_permute(OpBuilder& b, const aclTensor* tokens_arg, const aclTensor* indices_arg, int64_t num_out,
                        bool padded, const aclTensor* permuted_arg, const aclTensor* sorted_arg) {
  const aclTensor& tokens = b.input(tokens_arg, "tokens");
  const aclTensor& indices = b.input(indices_arg, "indices");
  const aclTensor& permuted = b.output(permuted_arg, "permuteTokensOut");
  const aclTensor& sorted = b.output(sorted_arg, "sortedIndicesOut");
  check_dtype_in(b.op(), "tokens", tokens.dtype, kPermuteTokenTypes);
  check_dtype_in(b.op(), "indices", indices.dtype, kIndexTypes);
  check_dtype_in(b.op(), "sortedIndicesOut", sorted.dtype, dtype_mask({DType::kInt32}));
  if (permuted.dtype != tokens.dtype)
    invalid("permuteTokensOut has dtype {}, expected the dtype of tokens ({})", dtype_name(permuted.dtype),
            dtype_name(tokens.dtype));
  if (padded) invalid("paddedMode is true, only paddedMode false is supported");
  check_dim_count(tokens, "tokens", 2, 2);
  check_dim_count(indices, "indices", 1, 2);
  const int64_t t = tokens.view[0], h = tokens.view[1];
  const int64_t topk = indices.dim() == 2 ? indices.view[1] : 1;
  if (indices.view[0] != t)
    invalid("indices has {} rows ({}), expected one per token of tokens ({})", indices.view[0], indices.describe(), t);
  if (topk > 512) invalid("indices has topK {} ({}), expected topK <= 512", topk, indices.describe());
  const int64_t n = t * topk;
  int64_t m = num_out == 0 ? n : (num_out > 0 ? std::min(num_out, n) : std::max<int64_t>(n + num_out, 0));
  check_shape_equals(permuted, "permuteTokensOut", Dims{m, h}, "[numOutTokens, tokens.shape[1]]");
  check_shape_equals(sorted, "sortedIndicesOut", Dims{n}, "[indices.numel()]");
  if (n == 0) return;
  DensePlan p(b);
  const int tok = p.input(tokens, tokens.dtype);
  const int idx = p.input(indices, indices.dtype);
  const int pout = p.output(permuted, permuted.dtype);
  const int sout = p.output(sorted, DType::kInt32);
  const DType it = indices.dtype;
  const size_t row_bytes = static_cast<size_t>(h) * dtype_size(tokens.dtype);
  p.finish(std::string("moe_token_permute.") + dtype_name(tokens.dtype), [=](const DenseArgs& a) {
    const void* ind = a.ptr(idx);
    std::vector<int64_t> first(static_cast<size_t>(n));
    std::iota(first.begin(), first.end(), int64_t{0});
    std::stable_sort(first.begin(), first.end(),
                     [&](int64_t x, int64_t y) { return index_at(ind, it, x) < index_at(ind, it, y); });
    int32_t* s = a.out<int32_t>(sout);
    for (int64_t q = 0; q < n; ++q) s[first[static_cast<size_t>(q)]] = static_cast<int32_t>(q);
    const char* src = static_cast<const char*>(a.ptr(tok));
    char* dst = static_cast<char*>(a.ptr(pout));
    for (int64_t q = 0; q < m; ++q)
      if (row_bytes)
        std::memcpy(dst + static_cast<size_t>(q) * row_bytes,
                    src + static_cast<size_t>(first[static_cast<size_t>(q)] / topk) * row_bytes, row_bytes);
  });
}

// out[i] = sum_j permuted[S[i*topk+j]] * (probs ? probs[i*topk+j] : 1), rows outside permuted dropped.
void book_gather_sum(OpBuilder& b, const aclTensor& permuted, const aclTensor& sorted, const aclTensor* probs,
                     int64_t topk, int64_t t, const aclTensor& out) {
  const int64_t rows = permuted.view[0], h = permuted.view[1];
  DensePlan p(b);
  const int pin = p.input(permuted, DType::kFloat);
  const int sin = p.input(sorted, DType::kInt32);
  const int prin = probs ? p.input(*probs, DType::kFloat) : -1;
  const int o = p.output(out, DType::kFloat);
  p.finish("moe_token_unpermute", [=](const DenseArgs& a) {
    const float* x = a.in<float>(pin);
    const int32_t* s = a.in<int32_t>(sin);
    const float* pr = prin >= 0 ? a.in<float>(prin) : nullptr;
    float* y = a.out<float>(o);
    for (int64_t i = 0; i < t; ++i) {
      float* yr = y + i * h;
      std::fill(yr, yr + h, 0.0f);
      for (int64_t j = 0; j < topk; ++j) {
        const int64_t k = i * topk + j;
        const int64_t r = s[k];
        if (r < 0 || r >= rows) continue;
        const float w = pr ? pr[k] : 1.0f;
        const float* xr = x + r * h;
        for (int64_t c = 0; c < h; ++c) yr[c] += xr[c] * w;
      }
    }
  });
}

void plan_token_unpermute(OpBuilder& b, const aclTensor* permuted_arg, const aclTensor* sorted_arg,
                          const aclTensor* probs_arg, bool padded, const aclIntArray* restore_arg,
                          const aclTensor* out_arg) {
  const aclTensor& permuted = b.input(permuted_arg, "permutedTokens");
  const aclTensor& sorted = b.input(sorted_arg, "sortedIndices");
  const aclTensor* probs = probs_arg ? &b.input(probs_arg, "probsOptional") : nullptr;
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "permutedTokens", permuted.dtype, kUnpermuteTypes);
  check_dtype_in(b.op(), "sortedIndices", sorted.dtype, dtype_mask({DType::kInt32}));
  if (probs) check_dtype_in(b.op(), "probsOptional", probs->dtype, kUnpermuteTypes);
  if (out.dtype != permuted.dtype)
    invalid("out has dtype {}, expected the dtype of permutedTokens ({})", dtype_name(out.dtype),
            dtype_name(permuted.dtype));
  if (padded) invalid("paddedMode is true, only paddedMode false is supported");
  if (restore_arg) invalid("restoreShapeOptional is not null, only nullptr is supported");
  check_dim_count(permuted, "permutedTokens", 2, 2);
  check_dim_count(sorted, "sortedIndices", 1, 1);
  const int64_t h = permuted.view[1], n = sorted.view[0];
  int64_t topk = 1;
  if (probs) {
    check_dim_count(*probs, "probsOptional", 2, 2);
    topk = probs->view[1];
    if (probs->numel() != n)
      invalid("probsOptional has {} elements ({}), expected one per entry of sortedIndices ({})", probs->numel(),
              probs->describe(), n);
    if (topk > 512) invalid("probsOptional has topK {} ({}), expected topK <= 512", topk, probs->describe());
  }
  const int64_t t = probs ? probs->view[0] : n;
  check_shape_equals(out, "out", Dims{t, h}, "[tokens, permutedTokens.shape[1]]");
  if (out.numel() == 0) return;
  book_gather_sum(b, permuted, sorted, probs, topk, t, out);
}

void plan_token_permute_grad(OpBuilder& b, const aclTensor* grad_arg, const aclTensor* sorted_arg, int64_t topk,
                             bool padded, const aclTensor* out_arg) {
  const aclTensor& grad = b.input(grad_arg, "permutedOutputGrad");
  const aclTensor& sorted = b.input(sorted_arg, "sortedIndices");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "permutedOutputGrad", grad.dtype, kUnpermuteTypes);
  check_dtype_in(b.op(), "sortedIndices", sorted.dtype, dtype_mask({DType::kInt32}));
  if (out.dtype != grad.dtype)
    invalid("out has dtype {}, expected the dtype of permutedOutputGrad ({})", dtype_name(out.dtype),
            dtype_name(grad.dtype));
  if (padded) invalid("paddedMode is true, only paddedMode false is supported");
  check_dim_count(grad, "permutedOutputGrad", 2, 2);
  check_dim_count(sorted, "sortedIndices", 1, 1);
  if (topk <= 0 || topk > 512) invalid("numTopk is {}, expected numTopk in [1, 512]", topk);
  const int64_t n = sorted.view[0];
  if (n % topk != 0) invalid("sortedIndices has {} entries, expected a multiple of numTopk ({})", n, topk);
  check_shape_equals(out, "out", Dims{n / topk, grad.view[1]}, "[sortedIndices.numel() / numTopk, hidden]");
  if (out.numel() == 0) return;
  book_gather_sum(b, grad, sorted, nullptr, topk, n / topk, out);
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnMoeComputeExpertTokensGetWorkspaceSize(const aclTensor* sortedExperts, int64_t numExperts,
                                                                   const aclTensor* out, uint64_t* workspaceSize,
                                                                   aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MoeComputeExpertTokens, "aclnnMoeComputeExpertTokensGetWorkspaceSize",
                          workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_compute_expert_tokens(b, sortedExperts, numExperts, out); });
}

extern "C" aclnnStatus aclnnMoeTokenPermuteGetWorkspaceSize(const aclTensor* tokens, const aclTensor* indices,
                                                            int64_t numOutTokens, bool paddedMode,
                                                            const aclTensor* permuteTokensOut,
                                                            const aclTensor* sortedIndicesOut, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MoeTokenPermute, "aclnnMoeTokenPermuteGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_token_permute(b, tokens, indices, numOutTokens, paddedMode, permuteTokensOut,
                                                     sortedIndicesOut);
                          });
}

extern "C" aclnnStatus aclnnMoeTokenUnpermuteGetWorkspaceSize(const aclTensor* permutedTokens,
                                                              const aclTensor* sortedIndices,
                                                              const aclTensor* probsOptional, bool paddedMode,
                                                              const aclIntArray* restoreShapeOptional, aclTensor* out,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MoeTokenUnpermute, "aclnnMoeTokenUnpermuteGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_token_unpermute(b, permutedTokens, sortedIndices, probsOptional, paddedMode,
                                                       restoreShapeOptional, out);
                          });
}

extern "C" aclnnStatus aclnnMoeTokenPermuteGradGetWorkspaceSize(const aclTensor* permutedOutputGrad,
                                                                const aclTensor* sortedIndices, int64_t numTopk,
                                                                bool paddedMode, aclTensor* out,
                                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MoeTokenPermuteGrad, "aclnnMoeTokenPermuteGradGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_token_permute_grad(b, permutedOutputGrad, sortedIndices, numTopk, paddedMode,
                                                          out);
                          });
}
