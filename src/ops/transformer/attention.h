// The attention engine behind FlashAttentionScore(+Grad), PromptFlashAttention, IncreFlashAttention
// and FusedInferAttentionScore: one reference-quality kernel over dense float32 operands.
//
// For every batch b, query head n and query row i < qLen[b] (kv head n / (Nq / Nkv): GQA/MQA):
//   s_j = scale * (q_i . k_j + pse_ij)     (pse added before the scale: FlashAttentionScore pseType 1)
//   s_j = scale * (q_i . k_j) + pse_ij     (everything else)
// over the key rows j < kvLen[b] that the mask pattern leaves visible, then
//   p_j = exp(s_j - max) / sum,  out_i = sum_j p_j v_j.
// A row with no visible key (fully masked, or past its actual length) writes out = 0 and is marked
// invalid in the statistics (CANN's "invalid row" correction: softmax max -FLT_MAX and sum FLT_MAX
// for FlashAttentionScore, lse +inf for FusedInferAttentionScore).
// Operands are [B, N, S, D] views: element (b, n, s, d) of an operand lives at
//   args.ptr(operand[b]) + base[b] + n * n_stride[b] + s * s_stride[b] + d
// which covers BSH, BSND, BNSD, SBH, TND (ragged batches) and per-batch tensor lists alike.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/dense.h"
#include "core/meta.h"

namespace pacl::tf {

struct HeadView {
  // Per batch: the DensePlan operand, the element offset of (n, s) = (0, 0) and the strides.
  std::vector<int> operand;
  std::vector<int64_t> base, n_stride, s_stride;
  int64_t width = 0;  // elements per row (D, or the 8 / 1 copies of a statistic)
};

// A [.., Sq', Skv'] operand (mask or pse) indexed by (b, n, i, j); size-1 dims broadcast (stride 0).
struct PairView {
  int operand = -1;
  int64_t b_stride = 0, n_stride = 0, i_stride = 0;  // j stride is 1
  int64_t at(int64_t b, int64_t n, int64_t i, int64_t j) const { return b * b_stride + n * n_stride + i * i_stride + j; }
};

enum class Pattern {
  kAll,              // every key row up to kvLen
  kMask,             // the mask tensor: nonzero hides
  kLeftUpCausal,     // j <= i
  kRightDownCausal,  // j <= i + kvLen - qLen
  kBand,             // -pre <= j - i - (kvLen - qLen) <= next
  kPrefix,           // right-down causal, or j < prefix[b]
};

enum class StatKind { kNone, kMaxSum, kLse };

struct AttnSpec {
  int64_t batch = 0, nq = 0, nkv = 0, dqk = 0, dv = 0;
  std::vector<int64_t> q_len, kv_len;  // per batch
  std::vector<int64_t> q_rows;         // per batch: rows the q/out views hold (>= q_len; padded rows get 0)
  int64_t max_kv = 0;                  // max of kv_len (score buffer)
  HeadView q, k, v, out;
  double scale = 1.0;
  bool pse_before_scale = false;
  PairView pse, mask;                  // operand -1: absent
  std::vector<Pattern> pattern;        // per batch
  int64_t pre = 0, next = 0;
  std::vector<int64_t> prefix;         // per batch (kPrefix)
  // Forward statistics: kMaxSum writes max and sum (stat0, stat1), kLse writes lse (stat0).
  StatKind stats = StatKind::kNone;
  HeadView stat0, stat1;
  // Backward: dy (like out), dq/dk/dv (like q/k/v), dpse (like pse, operand -1: not wanted).
  HeadView dy, dq, dk, dval;
  PairView dpse;
  std::vector<std::pair<int, int64_t>> zero_first;  // (operand, elements) the backward pass zeroes first
};

// Runs the forward pass over the operands of `a` (the spec's operand indices).
void attention_forward(const AttnSpec& s, const DenseArgs& a);
// Runs the backward pass: dq, dk, dv (and dpse) from q, k, v, dy, recomputing the softmax.
void attention_backward(const AttnSpec& s, const DenseArgs& a);

// ---- planning helpers shared by the attention ops -------------------------------------------------

enum class Layout { kBSH, kBSND, kBNSD, kSBH, kTND, kBNSD_BSND };
const char* layout_name(Layout l);

// Dense row-major view of a [B, S, N, D]-like tensor of `shape` in layout l (TND: tok_start per batch).
HeadView layout_view(Layout l, const Dims& shape, int64_t heads, int64_t width, int64_t batch,
                     const std::vector<int64_t>& tok_start, int operand);

// The mask / pse operand: dims aligned to [b', n', i', j'] from the right as the docs list them;
// i' must be 1 or >= sq, j' >= skv; b' and n' 1 or the full size. `kv_rows_2d`: a 2-d tensor is
// [B, Skv'] (decode: one query row), else [Sq', Skv'].
PairView pair_view(const aclTensor& t, const char* name, int64_t batch, int64_t heads, int64_t sq, int64_t skv,
                   bool kv_rows_2d, int operand);

}  // namespace pacl::tf
