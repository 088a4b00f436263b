// The attention ops: argument checks and geometry for FlashAttentionScore (V2, VarLen V1-V4),
// FlashAttentionScoreGrad (V2, Unpadding V1-V4), PromptFlashAttention (V1-V3),
// IncreFlashAttention (V1-V4) and FusedInferAttentionScore (V1-V4), all planned onto the shared
// engine of attention.h. Features the docs define that pacl does not implement (dropout with
// keepProb < 1, generated alibi pse, quantization and antiquantization, paged KV cache, shared
// prefixes, rope inputs, learnable sinks, left padding) are refused in phase 1 with a "not supported
// by pacl yet" message.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_flash_attention_score.h"
#include "aclnnop/aclnn_flash_attention_score_grad.h"
#include "aclnnop/aclnn_fused_infer_attention_score.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v3.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v4.h"
#include "aclnnop/aclnn_incre_flash_attention.h"
#include "aclnnop/aclnn_incre_flash_attention_v2.h"
#include "aclnnop/aclnn_incre_flash_attention_v3.h"
#include "aclnnop/aclnn_incre_flash_attention_v4.h"
#include "aclnnop/aclnn_prompt_flash_attention.h"
#include "aclnnop/aclnn_prompt_flash_attention_v2.h"
#include "aclnnop/aclnn_prompt_flash_attention_v3.h"
#include "core/phase.h"
#include "ops/registry.h"
#include "ops/transformer/attention.h"
#include "ops/transformer/common.h"

namespace pacl {
namespace {

using tf::AttnSpec;
using tf::HeadView;
using tf::Layout;
using tf::Pattern;
using tf::StatKind;

enum class Kind { kFas, kFasVarlen, kPfa, kIfa, kFia };

constexpr DTypeMask kMaskTypesFas = dtype_mask({DType::kBool, DType::kUInt8});
constexpr DTypeMask kMaskTypesInfer = dtype_mask({DType::kBool, DType::kInt8, DType::kUInt8});

Layout parse_layout(const OpInfo& op, const char* s, std::initializer_list<Layout> allowed) {
  if (!s) throw NullArgument("inputLayout is null");
  const std::string name(s);
  std::string list;
  for (Layout l : allowed) {
    if (name == tf::layout_name(l)) return l;
    list += (list.empty() ? "" : ", ") + std::string(tf::layout_name(l));
  }
  for (const char* known : {"BSH", "BSND", "BNSD", "SBH", "TND", "BNSD_BSND", "NSD", "NTD", "NTD_TND", "BSH_NBSD",
                            "BSND_NBSD", "BNSD_NBSD", "TND_NTD", "BSH_BNSD", "BSND_BNSD"})
    if (name == known) tf::not_yet(op, "inputLayout \"{}\" (supported: {})", name, list);
  invalid("inputLayout is \"{}\", expected one of {}", name, list);
}

// Shape of a [B, S, N, D] operand in layout l (TND: s is T, b unused; BNSD_BSND is BNSD here).
Dims layout_shape(Layout l, int64_t b, int64_t s, int64_t n, int64_t d) {
  switch (l) {
    case Layout::kBSH: return {b, s, n * d};
    case Layout::kSBH: return {s, b, n * d};
    case Layout::kBSND: return {b, s, n, d};
    case Layout::kBNSD: return {b, n, s, d};
    case Layout::kBNSD_BSND: return {b, s, n, d};  // the output side of BNSD_BSND
    case Layout::kTND: return {s, n, d};
  }
  return {};
}

int64_t layout_rank(Layout l) {
  return (l == Layout::kBSH || l == Layout::kSBH || l == Layout::kTND) ? 3 : 4;
}

struct Decoded {
  int64_t b = 0, s = 0, n = 0, d = 0;
};

// B, S, N, D of a q/k/v tensor. heads: known head count (0: derive from d, which must then be known).
Decoded decode(Layout l, const aclTensor& t, const char* name, int64_t heads, int64_t d_known) {
  tf::check_dims(t, name, layout_rank(l));
  const Dims& s = t.view;
  Decoded r;
  switch (l) {
    case Layout::kBSH:
    case Layout::kSBH: {
      r.b = l == Layout::kBSH ? s[0] : s[1];
      r.s = l == Layout::kBSH ? s[1] : s[0];
      const int64_t h = s[2];
      if (heads > 0) {
        if (h % heads != 0)
          invalid("{} has H = {} (shape {}), not a multiple of its {} heads", name, h, dims_str(s), heads);
        r.n = heads;
        r.d = h / heads;
      } else {
        if (d_known <= 0 || h % d_known != 0)
          invalid("{} has H = {} (shape {}), not a multiple of the head dim {} of query", name, h, dims_str(s), d_known);
        r.d = d_known;
        r.n = h / d_known;
      }
      break;
    }
    case Layout::kBSND: r = {s[0], s[1], s[2], s[3]}; break;
    case Layout::kBNSD:
    case Layout::kBNSD_BSND: r = {s[0], s[2], s[1], s[3]}; break;
    case Layout::kTND: r = {0, s[0], s[1], s[2]}; break;
  }
  if (heads > 0 && r.n != heads)
    invalid("{} has {} heads (shape {} in layout {}), expected {}", name, r.n, dims_str(s), tf::layout_name(l), heads);
  return r;
}

// Per-batch lengths from a CANN "actual sequence lengths" array: absent -> `full` for every batch;
// one value -> every batch; at least `batch` values -> the first `batch`.
std::vector<int64_t> actual_lengths(const aclIntArray* a, const char* name, int64_t batch, int64_t full) {
  std::vector<int64_t> r(static_cast<size_t>(batch), full);
  if (!a || a->values.empty()) return r;
  const auto& v = a->values;
  if (v.size() != 1 && static_cast<int64_t>(v.size()) < batch)
    invalid("{} has {} values, expected 1 or at least the batch size {}", name, v.size(), batch);
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t x = v.size() == 1 ? v[0] : v[static_cast<size_t>(b)];
    if (x < 0 || x > full)
      invalid("{}[{}] is {}, expected a length in [0, {}] (the S of the tensor)", name, v.size() == 1 ? 0 : b, x, full);
    r[static_cast<size_t>(b)] = x;
  }
  return r;
}

// TND: cumulative lengths -> per-batch starts and lengths; the last must equal T.
void cumulative_lengths(const aclIntArray* a, const char* name, int64_t total, std::vector<int64_t>* start,
                        std::vector<int64_t>* len) {
  if (!a || a->values.empty()) invalid("{} is required for layout TND (cumulative sequence lengths)", name);
  int64_t prev = 0;
  for (size_t b = 0; b < a->values.size(); ++b) {
    const int64_t x = a->values[b];
    if (x < prev) invalid("{}[{}] is {}, below the previous cumulative length {}", name, b, x, prev);
    start->push_back(prev);
    len->push_back(x - prev);
    prev = x;
  }
  if (prev != total) invalid("{} ends at {}, expected the T of the tensor ({})", name, prev, total);
}

// Everything about q, k, v and out shared by the forward and backward ops.
struct Geometry {
  Layout layout = Layout::kBSH;
  int64_t batch = 0, nq = 0, nkv = 0, dqk = 0, dv = 0, sq = 0;
  std::vector<int64_t> q_tok, kv_tok, q_len, kv_len, q_rows, kv_rows;
  bool kv_per_batch = false;  // key/value lists of one tensor per batch
  int64_t max_q() const { return q_len.empty() ? 0 : *std::max_element(q_len.begin(), q_len.end()); }
  int64_t max_kv() const { return kv_len.empty() ? 0 : *std::max_element(kv_len.begin(), kv_len.end()); }
};

struct GeometryArgs {
  Kind kind;
  Layout layout;
  const aclTensor* q;
  std::vector<const aclTensor*> k, v;
  int64_t num_heads, num_kv_heads;  // num_kv_heads 0: from the shapes (FAS) or = num_heads
  const aclIntArray* act_q;         // per-batch q lengths (TND: cumulative)
  const aclIntArray* act_kv;        // per-batch kv lengths (TND: cumulative)
};

Geometry geometry(const OpInfo& op, const GeometryArgs& g) {
  Geometry r;
  r.layout = g.layout;
  if (g.num_heads <= 0) invalid("the head number of query is {}, expected a positive value", g.num_heads);
  const Decoded q = decode(g.layout, *g.q, "query", g.num_heads, 0);
  r.nq = q.n;
  r.dqk = q.d;
  if (g.k.empty() || g.k.size() != g.v.size())
    invalid("key has {} tensors and value {}, expected the same non-zero count", g.k.size(), g.v.size());
  int64_t kv_heads = g.num_kv_heads;
  if (kv_heads < 0) invalid("numKeyValueHeads is {}, expected 0 or a positive value", kv_heads);
  if (g.kind != Kind::kFas && g.kind != Kind::kFasVarlen && kv_heads == 0) kv_heads = g.num_heads;
  std::vector<Decoded> ks, vs;
  for (size_t i = 0; i < g.k.size(); ++i) {
    const std::string kn = g.k.size() == 1 ? "key" : "key[" + std::to_string(i) + "]";
    const std::string vn = g.v.size() == 1 ? "value" : "value[" + std::to_string(i) + "]";
    ks.push_back(decode(g.layout, *g.k[i], kn.c_str(), kv_heads, q.d));
    const Decoded vd = decode(g.layout, *g.v[i], vn.c_str(), ks.back().n, 0);
    vs.push_back(vd);
    if (ks.back().d != q.d)
      invalid("{} has head dim {}, expected the head dim {} of query", kn, ks.back().d, q.d);
    if (vd.b != ks.back().b || vd.s != ks.back().s || vd.n != ks.back().n)
      invalid("{} has shape {}, expected the shape of {} {} except in D", vn, dims_str(g.v[i]->view), kn,
              dims_str(g.k[i]->view));
    if (vd.d != vs.front().d) invalid("{} has head dim {}, expected {}", vn, vd.d, vs.front().d);
    if (ks.back().n != ks.front().n) invalid("{} has {} heads, expected {}", kn, ks.back().n, ks.front().n);
  }
  r.nkv = ks.front().n;
  r.dv = vs.front().d;
  if (r.nkv <= 0 || r.nq % r.nkv != 0)
    invalid("query has {} heads and key/value {}: the query heads must be a multiple of the key/value heads", r.nq,
            r.nkv);
  if (g.layout == Layout::kTND) {
    if (g.k.size() != 1) invalid("key/value lists of {} tensors are not supported with layout TND", g.k.size());
    cumulative_lengths(g.act_q, "actualSeqQLen (query)", q.s, &r.q_tok, &r.q_len);
    cumulative_lengths(g.act_kv, "actualSeqKvLen (key/value)", ks[0].s, &r.kv_tok, &r.kv_len);
    if (r.q_len.size() != r.kv_len.size())
      invalid("the cumulative query lengths have {} batches and the key/value lengths {}", r.q_len.size(),
              r.kv_len.size());
    r.batch = static_cast<int64_t>(r.q_len.size());
    r.q_rows = r.q_len;
    r.kv_rows = r.kv_len;
    r.sq = q.s;
    return r;
  }
  r.batch = q.b;
  r.sq = q.s;
  if (g.k.size() == 1) {
    if (ks[0].b != q.b) invalid("key has batch {}, expected the batch {} of query", ks[0].b, q.b);
    r.kv_rows.assign(static_cast<size_t>(q.b), ks[0].s);
  } else {
    if (static_cast<int64_t>(g.k.size()) != q.b)
      invalid("key has {} tensors, expected 1 or one per batch of query ({})", g.k.size(), q.b);
    r.kv_per_batch = true;
    for (const Decoded& k : ks) {
      if (k.b != 1) invalid("each tensor of a per-batch key list must have batch 1, got {}", k.b);
      r.kv_rows.push_back(k.s);
    }
  }
  r.q_rows.assign(static_cast<size_t>(q.b), q.s);
  r.q_len = actual_lengths(g.act_q, "actualSeqLengths (query)", q.b, q.s);
  r.kv_len.resize(static_cast<size_t>(q.b));
  const std::vector<int64_t> kvl =
      actual_lengths(g.act_kv, "actualSeqLengthsKv (key/value)", q.b, *std::max_element(r.kv_rows.begin(), r.kv_rows.end()));
  for (size_t b = 0; b < kvl.size(); ++b) {
    if (kvl[b] > r.kv_rows[b])
      invalid("the key/value length of batch {} is {}, beyond the {} rows of its key tensor", b, kvl[b], r.kv_rows[b]);
    r.kv_len[b] = g.act_kv && !g.act_kv->values.empty() ? kvl[b] : r.kv_rows[b];
  }
  (void)op;
  return r;
}

// Views of q/k/v-like operands. `ops`: one operand per tensor (k/v lists: one per batch).
HeadView q_like_view(const Geometry& g, Layout l, const aclTensor& t, int64_t heads, int64_t width, int operand) {
  return tf::layout_view(l, t.view, heads, width, g.batch, g.q_tok, operand);
}

HeadView kv_like_view(const Geometry& g, const std::vector<const aclTensor*>& ts, int64_t width,
                      const std::vector<int>& operands) {
  if (!g.kv_per_batch) return tf::layout_view(g.layout, ts[0]->view, g.nkv, width, g.batch, g.kv_tok, operands[0]);
  HeadView v;
  v.width = width;
  for (int64_t b = 0; b < g.batch; ++b) {
    const size_t u = static_cast<size_t>(b);
    const HeadView one = tf::layout_view(g.layout, ts[u]->view, g.nkv, width, 1, {}, operands[u]);
    v.operand.push_back(one.operand[0]);
    v.base.push_back(0);
    v.n_stride.push_back(one.n_stride[0]);
    v.s_stride.push_back(one.s_stride[0]);
  }
  return v;
}

// A statistic output [B, N, Sq, W] (or TND: [N, T, W] / [T, N, W]).
HeadView stat_view(const Geometry& g, const aclTensor& t, const char* name, int64_t width, bool tnd_same_as_input,
                   int operand) {
  HeadView v;
  v.width = width;
  v.operand.assign(static_cast<size_t>(g.batch), operand);
  Dims want;
  if (g.layout == Layout::kTND) {
    const int64_t total = g.sq;
    want = tnd_same_as_input ? Dims{total, g.nq, width} : Dims{g.nq, total, width};
    v.n_stride.assign(v.operand.size(), tnd_same_as_input ? width : total * width);
    v.s_stride.assign(v.operand.size(), tnd_same_as_input ? g.nq * width : width);
    for (int64_t b = 0; b < g.batch; ++b)
      v.base.push_back(g.q_tok[static_cast<size_t>(b)] * (tnd_same_as_input ? g.nq * width : width));
  } else {
    want = {g.batch, g.nq, g.sq, width};
    v.n_stride.assign(v.operand.size(), g.sq * width);
    v.s_stride.assign(v.operand.size(), width);
    for (int64_t b = 0; b < g.batch; ++b) v.base.push_back(b * g.nq * g.sq * width);
  }
  tf::check_shape(t, name, want, "");
  return v;
}

// The mask pattern of each batch.
struct MaskArgs {
  Kind kind;
  const aclTensor* mask;
  int64_t sparse, pre, next;
  const aclIntArray* prefix;
};

std::vector<Pattern> patterns(const OpInfo& op, const Geometry& g, const MaskArgs& m, std::vector<int64_t>* prefix,
                              bool* uses_mask_tensor) {
  const size_t nb = static_cast<size_t>(g.batch);
  *uses_mask_tensor = false;
  const bool fas = m.kind == Kind::kFas || m.kind == Kind::kFasVarlen;
  if (m.kind == Kind::kIfa) {
    *uses_mask_tensor = m.mask != nullptr;
    return std::vector<Pattern>(nb, m.mask ? Pattern::kMask : Pattern::kAll);
  }
  const int64_t max_mode = fas ? (m.kind == Kind::kFasVarlen ? 8 : 6) : 8;
  if (m.sparse < 0 || m.sparse > max_mode)
    invalid("sparseMode is {}, expected a value in [0, {}]", m.sparse, max_mode);
  if (!fas && m.sparse > 4) tf::not_yet(op, "sparseMode {} (prefix, global, dilated, block_local)", m.sparse);
  if (m.kind == Kind::kFas && m.sparse > 6) invalid("sparseMode {} is only defined for the varlen (TND) interfaces", m.sparse);
  if (m.kind == Kind::kFasVarlen && m.sparse == 5) invalid("sparseMode 5 is not supported by the varlen interfaces");
  if (!m.mask) {
    if (fas || m.sparse <= 0) return std::vector<Pattern>(nb, Pattern::kAll);  // no mask: full computation
    invalid("sparseMode {} needs attenMaskOptional (the compressed 2048x2048 lower-triangular mask)", m.sparse);
  }
  if (m.sparse == 4 && m.pre < 0 && m.next < 0)
    invalid("sparseMode 4 (band): preTokens {} and nextTokens {} leave no band", m.pre, m.next);
  std::vector<Pattern> r(nb);
  switch (m.sparse) {
    case 0:
    case 1:
    case 5:
      *uses_mask_tensor = true;
      std::fill(r.begin(), r.end(), Pattern::kMask);
      break;
    case 2: std::fill(r.begin(), r.end(), Pattern::kLeftUpCausal); break;
    case 3: std::fill(r.begin(), r.end(), Pattern::kRightDownCausal); break;
    case 4: std::fill(r.begin(), r.end(), Pattern::kBand); break;
    case 6: {
      std::fill(r.begin(), r.end(), Pattern::kPrefix);
      if (!m.prefix || m.prefix->values.size() < nb)
        invalid("sparseMode 6 needs prefixOptional with one value per batch ({}), got {}", nb,
                m.prefix ? m.prefix->values.size() : 0);
      prefix->assign(m.prefix->values.begin(), m.prefix->values.begin() + static_cast<int64_t>(nb));
      break;
    }
    case 7:
    case 8: {
      std::fill(r.begin(), r.end(), m.sparse == 7 ? Pattern::kRightDownCausal : Pattern::kLeftUpCausal);
      // The band batch: the last (mode 7) or first (mode 8) batch with a non-empty query.
      int64_t band = -1;
      for (size_t b = 0; b < nb; ++b) {
        const size_t u = m.sparse == 7 ? nb - 1 - b : b;
        if (g.q_len[u] > 0) {
          band = static_cast<int64_t>(u);
          break;
        }
      }
      if (band >= 0) r[static_cast<size_t>(band)] = Pattern::kBand;
      break;
    }
    default: break;
  }
  return r;
}

// The plan shared by every forward op.
struct ForwardArgs {
  Kind kind;
  GeometryArgs geo;
  const aclTensor* pse;
  const aclTensor* mask;
  const aclTensor* out;
  Layout out_layout;
  double scale;
  MaskArgs mask_args;
  bool pse_before_scale;
  StatKind stats;
  const aclTensor* stat0;
  const aclTensor* stat1;
  const char* stat0_name;
  const char* stat1_name;
  const char* pse_name;
  const char* mask_name;
  bool stats_tnd_same_as_input;
  DTypeMask qkv_types, mask_types;
};

void check_qkv_dtypes(const OpInfo& op, const ForwardArgs& f) {
  check_dtype_in(op, "query", f.geo.q->dtype, f.qkv_types);
  for (size_t i = 0; i < f.geo.k.size(); ++i) {
    if (f.geo.k[i]->dtype == DType::kInt8 || f.geo.v[i]->dtype == DType::kInt8 || f.geo.k[i]->dtype == DType::kInt32)
      tf::not_yet(op, "int8/int4 key and value (antiquantization)");
    tf::check_same_dtype(*f.geo.k[i], "key", *f.geo.q, "query");
    tf::check_same_dtype(*f.geo.v[i], "value", *f.geo.q, "query");
  }
  if (f.pse) tf::check_same_dtype(*f.pse, f.pse_name, *f.geo.q, "query");
  if (f.mask) check_dtype_in(op, f.mask_name, f.mask->dtype, f.mask_types);
  if (f.out->dtype == DType::kInt8) tf::not_yet(op, "an int8 attentionOut (output quantization)");
  tf::check_same_dtype(*f.out, "attentionOut", *f.geo.q, "query");
}

void plan_forward(OpBuilder& b, const ForwardArgs& f) {
  const OpInfo& op = b.op();
  if (f.geo.q->dtype == DType::kInt8) tf::not_yet(op, "an int8 query (quantized attention)");
  check_qkv_dtypes(op, f);
  const Geometry g = geometry(op, f.geo);
  const Layout ol = f.out_layout;
  const Dims out_shape = layout_shape(ol, g.batch, g.sq, g.nq, g.dv);
  tf::check_shape(*f.out, "attentionOut", out_shape, "query's shape with the head dim of value");
  bool uses_mask = false;
  AttnSpec s;
  s.pattern = patterns(op, g, f.mask_args, &s.prefix, &uses_mask);
  if (f.out->numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int iq = p.input(*f.geo.q, DType::kFloat);
  std::vector<int> ik, iv;
  for (const aclTensor* t : f.geo.k) ik.push_back(p.input(*t, DType::kFloat));
  for (const aclTensor* t : f.geo.v) iv.push_back(p.input(*t, DType::kFloat));
  const bool decode_rows = f.kind == Kind::kIfa || (f.kind == Kind::kFia && g.sq == 1);
  if (f.pse) {
    if (g.layout == Layout::kTND) tf::not_yet(op, "pse with layout TND");
    if (f.pse->dim() != 4) invalid("{} has {} dims ({}), expected 4", f.pse_name, f.pse->dim(), f.pse->describe());
    s.pse = tf::pair_view(*f.pse, f.pse_name, g.batch, g.nq, g.sq, g.max_kv(), false, p.input(*f.pse, DType::kFloat));
  }
  if (uses_mask) {
    const int64_t mask_rows = g.layout == Layout::kTND ? g.max_q() : g.sq;
    s.mask = tf::pair_view(*f.mask, f.mask_name, g.batch, g.nq, mask_rows, g.max_kv(), decode_rows,
                           p.input(*f.mask, DType::kUInt8));
    if (g.layout == Layout::kTND && s.mask.b_stride != 0)
      invalid("{} has shape {}; with layout TND it must not have a batch dim", f.mask_name, dims_str(f.mask->view));
  }
  const int io = p.output(*f.out, DType::kFloat);
  s.batch = g.batch;
  s.nq = g.nq;
  s.nkv = g.nkv;
  s.dqk = g.dqk;
  s.dv = g.dv;
  s.q_len = g.q_len;
  s.kv_len = g.kv_len;
  s.q_rows = g.q_rows;
  s.max_kv = g.max_kv();
  s.q = q_like_view(g, g.layout, *f.geo.q, g.nq, g.dqk, iq);
  s.k = kv_like_view(g, f.geo.k, g.dqk, ik);
  s.v = kv_like_view(g, f.geo.v, g.dv, iv);
  s.out = q_like_view(g, ol == Layout::kBNSD_BSND ? Layout::kBSND : g.layout, *f.out, g.nq, g.dv, io);
  s.scale = f.scale;
  s.pse_before_scale = f.pse_before_scale;
  s.pre = f.mask_args.pre;
  s.next = f.mask_args.next;
  s.stats = f.stats;
  if (f.stats != StatKind::kNone) {
    const int64_t w = f.stats == StatKind::kLse ? 1 : 8;
    s.stat0 = stat_view(g, *f.stat0, f.stat0_name, w, f.stats_tnd_same_as_input, p.output(*f.stat0, DType::kFloat));
    if (f.stats == StatKind::kMaxSum)
      s.stat1 = stat_view(g, *f.stat1, f.stat1_name, w, f.stats_tnd_same_as_input, p.output(*f.stat1, DType::kFloat));
  }
  p.finish(std::string("attention.") + tf::layout_name(g.layout), [s](const DenseArgs& a) { tf::attention_forward(s, a); });
}

// ---- FlashAttentionScore --------------------------------------------------------------------------

struct FasArgs {
  const aclTensor *query, *key, *value, *pse, *drop_mask, *padding_mask, *atten_mask;
  const aclIntArray *prefix, *act_q, *act_kv, *q_start, *kv_start;
  double scale, keep_prob;
  int64_t pre, next, head_num;
  const char* layout;
  int64_t inner_precise, sparse, pse_type;
  const char* softmax_out_layout;  // V4 varlen: "" or "same_as_input"
  const aclTensor *softmax_max, *softmax_sum, *softmax_out, *attention_out;
  bool varlen;
};

void check_fas_common(OpBuilder& b, double keep_prob, int64_t pse_type, const aclTensor* drop_mask,
                      const aclTensor* padding_mask) {
  const OpInfo& op = b.op();
  if (!(keep_prob > 0 && keep_prob <= 1)) invalid("keepProb is {}, expected a value in (0, 1]", keep_prob);
  if (keep_prob != 1) tf::not_yet(op, "dropout (keepProb {} < 1)", keep_prob);
  if (pse_type < 0 || pse_type > 3) invalid("pseType is {}, expected 0, 1, 2 or 3", pse_type);
  if (pse_type >= 2) tf::not_yet(op, "pseType {} (pse generated inside the op)", pse_type);
  if (padding_mask) tf::not_yet(op, "paddingMaskOptional");
  (void)drop_mask;  // with keepProb 1 the drop mask is not read
}

void plan_fas(OpBuilder& b, const FasArgs& x) {
  const aclTensor& q = b.input(x.query, "query");
  const aclTensor& k = b.input(x.key, "key");
  const aclTensor& v = b.input(x.value, "value");
  const aclTensor* pse = tf::optional_input(b, x.pse, "realShiftOptional");
  if (x.drop_mask) live(x.drop_mask, "dropMaskOptional");
  const aclTensor* mask = tf::optional_input(b, x.atten_mask, "attenMaskOptional");
  const aclTensor& mx = b.output(x.softmax_max, "softmaxMaxOut");
  const aclTensor& sm = b.output(x.softmax_sum, "softmaxSumOut");
  const aclTensor& out = b.output(x.attention_out, "attentionOutOut");
  check_fas_common(b, x.keep_prob, x.pse_type, x.drop_mask, x.padding_mask);
  check_dtype_in(b.op(), "softmaxMaxOut", mx.dtype, dtype_mask({DType::kFloat}));
  check_dtype_in(b.op(), "softmaxSumOut", sm.dtype, dtype_mask({DType::kFloat}));
  bool same_as_input = false;
  if (x.softmax_out_layout) {
    const std::string sl(x.softmax_out_layout);
    if (sl != "" && sl != "same_as_input")
      invalid("softmaxOutLayout is \"{}\", expected \"\" or \"same_as_input\"", sl);
    same_as_input = sl == "same_as_input";
  }
  ForwardArgs f;
  f.kind = x.varlen ? Kind::kFasVarlen : Kind::kFas;
  f.geo.kind = f.kind;
  f.geo.layout = x.varlen ? parse_layout(b.op(), x.layout, {Layout::kTND})
                          : parse_layout(b.op(), x.layout, {Layout::kBSH, Layout::kSBH, Layout::kBSND, Layout::kBNSD});
  f.geo.q = &q;
  f.geo.k = {&k};
  f.geo.v = {&v};
  f.geo.num_heads = x.head_num;
  f.geo.num_kv_heads = 0;
  f.geo.act_q = x.act_q;
  f.geo.act_kv = x.act_kv;
  f.pse = pse;
  f.mask = mask;
  f.out = &out;
  f.out_layout = f.geo.layout;
  f.scale = x.scale;
  f.mask_args = {f.kind, mask, x.sparse, x.pre, x.next, x.prefix};
  f.pse_before_scale = x.pse_type == 1;
  f.stats = StatKind::kMaxSum;
  f.stat0 = &mx;
  f.stat1 = &sm;
  f.stat0_name = "softmaxMaxOut";
  f.stat1_name = "softmaxSumOut";
  f.pse_name = "realShiftOptional";
  f.mask_name = "attenMaskOptional";
  f.stats_tnd_same_as_input = same_as_input;
  f.qkv_types = tf::kF32F16BF16;
  f.mask_types = kMaskTypesFas;
  plan_forward(b, f);
}

// ---- FlashAttentionScoreGrad ----------------------------------------------------------------------

struct FasGradArgs {
  const aclTensor *query, *key, *value, *dy, *pse, *drop_mask, *padding_mask, *atten_mask, *softmax_max,
      *softmax_sum, *softmax_in, *attention_in;
  const aclIntArray *prefix, *act_q, *act_kv;
  double scale, keep_prob;
  int64_t pre, next, head_num;
  const char* layout;
  int64_t inner_precise, sparse, pse_type;
  const aclTensor *dq, *dk, *dv, *dpse;
  bool varlen;
};

void plan_fas_grad(OpBuilder& b, const FasGradArgs& x) {
  const OpInfo& op = b.op();
  const aclTensor& q = b.input(x.query, "query");
  const aclTensor& k = b.input(x.key, "keyIn");
  const aclTensor& v = b.input(x.value, "value");
  const aclTensor& dy = b.input(x.dy, "dy");
  const aclTensor* pse = tf::optional_input(b, x.pse, "pseShiftOptional");
  if (x.drop_mask) live(x.drop_mask, "dropMaskOptional");
  const aclTensor* mask = tf::optional_input(b, x.atten_mask, "attenMaskOptional");
  // The softmax statistics and the forward output are not needed: the softmax is recomputed exactly.
  for (auto [t, name] : {std::pair{x.softmax_max, "softmaxMaxOptional"}, {x.softmax_sum, "softmaxSumOptional"},
                         {x.softmax_in, "softmaxInOptional"}, {x.attention_in, "attentionInOptional"}})
    if (t) live(t, name);
  const aclTensor& dq = b.output(x.dq, "dqOut");
  const aclTensor& dk = b.output(x.dk, "dkOut");
  const aclTensor& dv = b.output(x.dv, "dvOut");
  const aclTensor* dpse = pse ? tf::optional_output(b, x.dpse, "dpseOut") : nullptr;
  check_fas_common(b, x.keep_prob, x.pse_type, x.drop_mask, x.padding_mask);
  GeometryArgs ga;
  ga.kind = x.varlen ? Kind::kFasVarlen : Kind::kFas;
  ga.layout = x.varlen ? parse_layout(op, x.layout, {Layout::kTND})
                       : parse_layout(op, x.layout, {Layout::kBSH, Layout::kSBH, Layout::kBSND, Layout::kBNSD});
  ga.q = &q;
  ga.k = {&k};
  ga.v = {&v};
  ga.num_heads = x.head_num;
  ga.num_kv_heads = 0;
  ga.act_q = x.act_q;
  ga.act_kv = x.act_kv;
  check_dtype_in(op, "query", q.dtype, tf::kF32F16BF16);
  tf::check_same_dtype(k, "keyIn", q, "query");
  tf::check_same_dtype(v, "value", q, "query");
  tf::check_same_dtype(dy, "dy", q, "query");
  if (pse) tf::check_same_dtype(*pse, "pseShiftOptional", q, "query");
  if (mask) check_dtype_in(op, "attenMaskOptional", mask->dtype, kMaskTypesFas);
  tf::check_same_dtype(dq, "dqOut", q, "query");
  tf::check_same_dtype(dk, "dkOut", q, "query");
  tf::check_same_dtype(dv, "dvOut", q, "query");
  if (dpse) tf::check_same_dtype(*dpse, "dpseOut", q, "query");
  const Geometry g = geometry(op, ga);
  tf::check_shape(dy, "dy", layout_shape(g.layout, g.batch, g.sq, g.nq, g.dv),
                  "(the forward output: query's shape with the head dim of value)");
  tf::check_shape(dq, "dqOut", q.view, "the shape of query");
  tf::check_shape(dk, "dkOut", k.view, "the shape of keyIn");
  tf::check_shape(dv, "dvOut", v.view, "the shape of value");
  if (dpse) tf::check_shape(*dpse, "dpseOut", pse->view, "the shape of pseShiftOptional");
  bool uses_mask = false;
  AttnSpec s;
  s.pattern = patterns(op, g, MaskArgs{ga.kind, mask, x.sparse, x.pre, x.next, x.prefix}, &s.prefix, &uses_mask);
  if (dq.numel() == 0 && dk.numel() == 0 && dv.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int iq = p.input(q, DType::kFloat), ik = p.input(k, DType::kFloat), iv = p.input(v, DType::kFloat);
  const int idy = p.input(dy, DType::kFloat);
  if (pse) {
    if (g.layout == Layout::kTND) tf::not_yet(op, "pse with layout TND");
    if (pse->dim() != 4) invalid("pseShiftOptional has {} dims ({}), expected 4", pse->dim(), pse->describe());
    s.pse = tf::pair_view(*pse, "pseShiftOptional", g.batch, g.nq, g.sq, g.max_kv(), false, p.input(*pse, DType::kFloat));
  }
  if (uses_mask) {
    const int64_t mask_rows = g.layout == Layout::kTND ? g.max_q() : g.sq;
    s.mask = tf::pair_view(*mask, "attenMaskOptional", g.batch, g.nq, mask_rows, g.max_kv(), false,
                           p.input(*mask, DType::kUInt8));
    if (g.layout == Layout::kTND && s.mask.b_stride != 0)
      invalid("attenMaskOptional has shape {}; with layout TND it must not have a batch dim", dims_str(mask->view));
  }
  const int idq = p.output(dq, DType::kFloat), idk = p.output(dk, DType::kFloat), idv = p.output(dv, DType::kFloat);
  s.batch = g.batch;
  s.nq = g.nq;
  s.nkv = g.nkv;
  s.dqk = g.dqk;
  s.dv = g.dv;
  s.q_len = g.q_len;
  s.kv_len = g.kv_len;
  s.q_rows = g.q_rows;
  s.max_kv = g.max_kv();
  s.q = q_like_view(g, g.layout, q, g.nq, g.dqk, iq);
  s.k = kv_like_view(g, {&k}, g.dqk, {ik});
  s.v = kv_like_view(g, {&v}, g.dv, {iv});
  s.dy = q_like_view(g, g.layout, dy, g.nq, g.dv, idy);
  s.dq = q_like_view(g, g.layout, dq, g.nq, g.dqk, idq);
  s.dk = kv_like_view(g, {&dk}, g.dqk, {idk});
  s.dval = kv_like_view(g, {&dv}, g.dv, {idv});
  s.zero_first = {{idq, dq.numel()}, {idk, dk.numel()}, {idv, dv.numel()}};
  if (dpse) {
    s.dpse = s.pse;
    s.dpse.operand = p.output(*dpse, DType::kFloat);
    s.zero_first.push_back({s.dpse.operand, dpse->numel()});
  }
  s.scale = x.scale;
  s.pse_before_scale = x.pse_type == 1;
  s.pre = x.pre;
  s.next = x.next;
  p.finish(std::string("attention.grad.") + tf::layout_name(g.layout), [s](const DenseArgs& a) { tf::attention_backward(s, a); });
}

// ---- PromptFlashAttention / IncreFlashAttention / FusedInferAttentionScore -------------------------

struct InferArgs {
  Kind kind;
  const aclTensor* query;
  const aclTensor* key;  // PFA: single tensors
  const aclTensor* value;
  const aclTensorList* key_list;  // IFA / FIA
  const aclTensorList* value_list;
  const aclTensor *pse, *mask;
  const aclIntArray *act_q, *act_kv;
  int64_t num_heads;
  double scale;
  int64_t pre, next;
  const char* layout;
  int64_t num_kv_heads, sparse, inner_precise;
  bool lse_flag;
  const aclTensor *out, *lse;
  // Optional inputs pacl does not implement: (pointer, name) pairs refused when non-null.
  std::vector<std::pair<const void*, const char*>> unsupported;
};

void plan_infer(OpBuilder& b, const InferArgs& x) {
  const OpInfo& op = b.op();
  const aclTensor& q = b.input(x.query, "query");
  std::vector<const aclTensor*> ks, vs;
  if (x.kind == Kind::kPfa) {
    ks.push_back(&b.input(x.key, "key"));
    vs.push_back(&b.input(x.value, "value"));
  } else {
    ks = b.input_list(x.key_list, "key");
    vs = b.input_list(x.value_list, "value");
  }
  const aclTensor* pse = tf::optional_input(b, x.pse, x.kind == Kind::kFia ? "pseShiftOptional" : "pseShift");
  const aclTensor* mask = tf::optional_input(b, x.mask, x.kind == Kind::kFia ? "attenMaskOptional" : "attenMask");
  for (const auto& [ptr, name] : x.unsupported)
    if (ptr) tf::not_yet(op, "{}", name);
  const aclTensor& out = b.output(x.out, "attentionOut");
  const aclTensor* lse = x.lse_flag ? &b.output(x.lse, "softmaxLse") : nullptr;
  if (x.inner_precise < 0 || x.inner_precise > 3) invalid("innerPrecise is {}, expected 0, 1, 2 or 3", x.inner_precise);
  ForwardArgs f;
  f.kind = x.kind;
  f.geo.kind = x.kind;
  const std::initializer_list<Layout> pfa_layouts = {Layout::kBSH, Layout::kBSND, Layout::kBNSD, Layout::kBNSD_BSND,
                                                     Layout::kTND};
  const std::initializer_list<Layout> ifa_layouts = {Layout::kBSH, Layout::kBSND, Layout::kBNSD};
  f.geo.layout = parse_layout(op, x.layout, x.kind == Kind::kIfa ? ifa_layouts : pfa_layouts);
  f.out_layout = f.geo.layout;
  if (f.geo.layout == Layout::kBNSD_BSND) f.geo.layout = Layout::kBNSD;
  f.geo.q = &q;
  f.geo.k = ks;
  f.geo.v = vs;
  f.geo.num_heads = x.num_heads;
  f.geo.num_kv_heads = x.num_kv_heads;
  // IFA's actualSeqLengths are key/value lengths (one query row per batch).
  f.geo.act_q = x.kind == Kind::kIfa ? nullptr : x.act_q;
  f.geo.act_kv = x.kind == Kind::kIfa ? x.act_q : x.act_kv;
  f.pse = pse;
  f.mask = mask;
  f.out = &out;
  f.scale = x.scale;
  f.mask_args = {x.kind, mask, x.sparse, x.pre, x.next, nullptr};
  f.pse_before_scale = false;
  f.stats = lse ? StatKind::kLse : StatKind::kNone;
  f.stat0 = lse;
  f.stat1 = nullptr;
  f.stat0_name = "softmaxLse";
  f.stat1_name = "";
  f.pse_name = x.kind == Kind::kFia ? "pseShiftOptional" : "pseShift";
  f.mask_name = x.kind == Kind::kFia ? "attenMaskOptional" : "attenMask";
  f.stats_tnd_same_as_input = true;
  f.qkv_types = tf::kF32F16BF16 | dtype_mask({DType::kInt8});
  f.mask_types = kMaskTypesInfer;
  if (lse) check_dtype_in(op, "softmaxLse", lse->dtype, dtype_mask({DType::kFloat}));
  if (x.kind == Kind::kIfa && f.geo.layout != Layout::kTND) {
    const Decoded qd = decode(f.geo.layout, q, "query", x.num_heads, 0);
    if (qd.s != 1) invalid("query has S = {} (shape {}); incremental attention takes one query row per batch", qd.s,
                           dims_str(q.view));
  }
  plan_forward(b, f);
}

}  // namespace
}  // namespace pacl

using pacl::Kind;

// ---- FlashAttentionScore entries ------------------------------------------------------------------

extern "C" aclnnStatus aclnnFlashAttentionScoreGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* realShiftOptional,
    const aclTensor* dropMaskOptional, const aclTensor* paddingMaskOptional, const aclTensor* attenMaskOptional,
    const aclIntArray* prefixOptional, double scaleValue, double keepProb, int64_t preTokens, int64_t nextTokens,
    int64_t headNum, char* inputLayout, int64_t innerPrecise, int64_t sparseMode, const aclTensor* softmaxMaxOut,
    const aclTensor* softmaxSumOut, const aclTensor* softmaxOutOut, const aclTensor* attentionOutOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_FlashAttentionScore, "aclnnFlashAttentionScoreGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_fas(b, {query, key, value, realShiftOptional, dropMaskOptional,
                                               paddingMaskOptional, attenMaskOptional, prefixOptional, nullptr,
                                               nullptr, nullptr, nullptr, scaleValue, keepProb, preTokens, nextTokens,
                                               headNum, inputLayout, innerPrecise, sparseMode, 1, nullptr,
                                               softmaxMaxOut, softmaxSumOut, softmaxOutOut, attentionOutOut, false});
                          });
}

extern "C" aclnnStatus aclnnFlashAttentionScoreV2GetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* realShiftOptional,
    const aclTensor* dropMaskOptional, const aclTensor* paddingMaskOptional, const aclTensor* attenMaskOptional,
    const aclIntArray* prefixOptional, const aclIntArray* qStartIdxOptional, const aclIntArray* kvStartIdxOptional,
    double scaleValue, double keepProb, int64_t preTokens, int64_t nextTokens, int64_t headNum, char* inputLayout,
    int64_t innerPrecise, int64_t sparseMode, int64_t pseType, const aclTensor* softmaxMaxOut,
    const aclTensor* softmaxSumOut, const aclTensor* softmaxOutOut, const aclTensor* attentionOutOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_FlashAttentionScoreV2, "aclnnFlashAttentionScoreV2GetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_fas(b, {query, key, value, realShiftOptional, dropMaskOptional,
                                               paddingMaskOptional, attenMaskOptional, prefixOptional, nullptr,
                                               nullptr, qStartIdxOptional, kvStartIdxOptional, scaleValue, keepProb,
                                               preTokens, nextTokens, headNum, inputLayout, innerPrecise, sparseMode,
                                               pseType, nullptr, softmaxMaxOut, softmaxSumOut, softmaxOutOut,
                                               attentionOutOut, false});
                          });
}

extern "C" aclnnStatus aclnnFlashAttentionVarLenScoreGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* realShiftOptional,
    const aclTensor* dropMaskOptional, const aclTensor* paddingMaskOptional, const aclTensor* attenMaskOptional,
    const aclIntArray* prefixOptional, const aclIntArray* actualSeqQLenOptional,
    const aclIntArray* actualSeqKvLenOptional, double scaleValue, double keepProb, int64_t preTokens,
    int64_t nextTokens, int64_t headNum, char* inputLayout, int64_t innerPrecise, int64_t sparseMode,
    const aclTensor* softmaxMaxOut, const aclTensor* softmaxSumOut, const aclTensor* softmaxOutOut,
    const aclTensor* attentionOutOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_FlashAttentionVarLenScore, "aclnnFlashAttentionVarLenScoreGetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_fas(b, {query, key, value, realShiftOptional, dropMaskOptional,
                                               paddingMaskOptional, attenMaskOptional, prefixOptional,
                                               actualSeqQLenOptional, actualSeqKvLenOptional, nullptr, nullptr,
                                               scaleValue, keepProb, preTokens, nextTokens, headNum, inputLayout,
                                               innerPrecise, sparseMode, 1, nullptr, softmaxMaxOut, softmaxSumOut,
                                               softmaxOutOut, attentionOutOut, true});
                          });
}

extern "C" aclnnStatus aclnnFlashAttentionVarLenScoreV2GetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* realShiftOptional,
    const aclTensor* dropMaskOptional, const aclTensor* paddingMaskOptional, const aclTensor* attenMaskOptional,
    const aclIntArray* prefixOptional, const aclIntArray* actualSeqQLenOptional,
    const aclIntArray* actualSeqKvLenOptional, const aclIntArray* qStartIdxOptional,
    const aclIntArray* kvStartIdxOptional, double scaleValue, double keepProb, int64_t preTokens, int64_t nextTokens,
    int64_t headNum, char* inputLayout, int64_t innerPrecise, int64_t sparseMode, int64_t pseType,
    const aclTensor* softmaxMaxOut, const aclTensor* softmaxSumOut, const aclTensor* softmaxOutOut,
    const aclTensor* attentionOutOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_FlashAttentionVarLenScoreV2, "aclnnFlashAttentionVarLenScoreV2GetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_fas(b, {query, key, value, realShiftOptional, dropMaskOptional,
                                               paddingMaskOptional, attenMaskOptional, prefixOptional,
                                               actualSeqQLenOptional, actualSeqKvLenOptional, qStartIdxOptional,
                                               kvStartIdxOptional, scaleValue, keepProb, preTokens, nextTokens,
                                               headNum, inputLayout, innerPrecise, sparseMode, pseType, nullptr,
                                               softmaxMaxOut, softmaxSumOut, softmaxOutOut, attentionOutOut, true});
                          });
}

extern "C" aclnnStatus aclnnFlashAttentionVarLenScoreV3GetWorkspaceSize(
    const aclTensor* query, const aclTensor* queryRope, const aclTensor* key, const aclTensor* keyRope,
    const aclTensor* value, const aclTensor* realShiftOptional, const aclTensor* dropMaskOptional,
    const aclTensor* paddingMaskOptional, const aclTensor* attenMaskOptional, const aclIntArray* prefixOptional,
    const aclIntArray* actualSeqQLenOptional, const aclIntArray* actualSeqKvLenOptional,
    const aclIntArray* qStartIdxOptional, const aclIntArray* kvStartIdxOptional, double scaleValue, double keepProb,
    int64_t preTokens, int64_t nextTokens, int64_t headNum, char* inputLayout, int64_t innerPrecise,
    int64_t sparseMode, int64_t pseType, const aclTensor* softmaxMaxOut, const aclTensor* softmaxSumOut,
    const aclTensor* softmaxOutOut, const aclTensor* attentionOutOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_FlashAttentionVarLenScoreV3, "aclnnFlashAttentionVarLenScoreV3GetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            if (queryRope || keyRope) pacl::tf::not_yet(b.op(), "queryRope/keyRope");
                            pacl::plan_fas(b, {query, key, value, realShiftOptional, dropMaskOptional,
                                               paddingMaskOptional, attenMaskOptional, prefixOptional,
                                               actualSeqQLenOptional, actualSeqKvLenOptional, qStartIdxOptional,
                                               kvStartIdxOptional, scaleValue, keepProb, preTokens, nextTokens,
                                               headNum, inputLayout, innerPrecise, sparseMode, pseType, nullptr,
                                               softmaxMaxOut, softmaxSumOut, softmaxOutOut, attentionOutOut, true});
                          });
}

extern "C" aclnnStatus aclnnFlashAttentionVarLenScoreV4GetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* realShiftOptional,
    const aclTensor* dropMaskOptional, const aclTensor* paddingMaskOptional, const aclTensor* attenMaskOptional,
    const aclIntArray* prefixOptional, const aclIntArray* actualSeqQLenOptional,
    const aclIntArray* actualSeqKvLenOptional, double scaleValue, double keepProb, int64_t preTokens,
    int64_t nextTokens, int64_t headNum, char* inputLayout, int64_t innerPrecise, int64_t sparseMode,
    char* softmaxOutLayout, const aclTensor* softmaxMaxOut, const aclTensor* softmaxSumOut,
    const aclTensor* softmaxOutOut, const aclTensor* attentionOutOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_FlashAttentionVarLenScoreV4, "aclnnFlashAttentionVarLenScoreV4GetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_fas(b, {query, key, value, realShiftOptional, dropMaskOptional,
                                               paddingMaskOptional, attenMaskOptional, prefixOptional,
                                               actualSeqQLenOptional, actualSeqKvLenOptional, nullptr, nullptr,
                                               scaleValue, keepProb, preTokens, nextTokens, headNum, inputLayout,
                                               innerPrecise, sparseMode, 1, softmaxOutLayout ? softmaxOutLayout : "",
                                               softmaxMaxOut, softmaxSumOut, softmaxOutOut, attentionOutOut, true});
                          });
}

// ---- FlashAttentionScoreGrad entries --------------------------------------------------------------

extern "C" aclnnStatus aclnnFlashAttentionScoreGradGetWorkspaceSize(
    const aclTensor* query, const aclTensor* keyIn, const aclTensor* value, const aclTensor* dy,
    const aclTensor* pseShiftOptional, const aclTensor* dropMaskOptional, const aclTensor* paddingMaskOptional,
    const aclTensor* attenMaskOptional, const aclTensor* softmaxMaxOptional, const aclTensor* softmaxSumOptional,
    const aclTensor* softmaxInOptional, const aclTensor* attentionInOptional, const aclIntArray* prefixOptional,
    double scaleValue, double keepProb, int64_t preTokens, int64_t nextTokens, int64_t headNum, char* inputLayout,
    int64_t innerPrecise, int64_t sparseMode, const aclTensor* dqOut, const aclTensor* dkOut, const aclTensor* dvOut,
    const aclTensor* dpseOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_FlashAttentionScoreGrad, "aclnnFlashAttentionScoreGradGetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_fas_grad(
                                b, {query, keyIn, value, dy, pseShiftOptional, dropMaskOptional, paddingMaskOptional,
                                    attenMaskOptional, softmaxMaxOptional, softmaxSumOptional, softmaxInOptional,
                                    attentionInOptional, prefixOptional, nullptr, nullptr, scaleValue, keepProb,
                                    preTokens, nextTokens, headNum, inputLayout, innerPrecise, sparseMode, 1, dqOut,
                                    dkOut, dvOut, dpseOut, false});
                          });
}

extern "C" aclnnStatus aclnnFlashAttentionScoreGradV2GetWorkspaceSize(
    const aclTensor* query, const aclTensor* keyIn, const aclTensor* value, const aclTensor* dy,
    const aclTensor* pseShiftOptional, const aclTensor* dropMaskOptional, const aclTensor* paddingMaskOptional,
    const aclTensor* attenMaskOptional, const aclTensor* softmaxMaxOptional, const aclTensor* softmaxSumOptional,
    const aclTensor* softmaxInOptional, const aclTensor* attentionInOptional, const aclIntArray* prefixOptional,
    const aclIntArray* qStartIdxOptional, const aclIntArray* kvStartIdxOptional, double scaleValue, double keepProb,
    int64_t preTokens, int64_t nextTokens, int64_t headNum, char* inputLayout, int64_t innerPrecise,
    int64_t sparseMode, int64_t pseType, const aclTensor* dqOut, const aclTensor* dkOut, const aclTensor* dvOut,
    const aclTensor* dpseOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)qStartIdxOptional;
  (void)kvStartIdxOptional;
  return pacl::run_phase1(pacl::op_FlashAttentionScoreGradV2, "aclnnFlashAttentionScoreGradV2GetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_fas_grad(
                                b, {query, keyIn, value, dy, pseShiftOptional, dropMaskOptional, paddingMaskOptional,
                                    attenMaskOptional, softmaxMaxOptional, softmaxSumOptional, softmaxInOptional,
                                    attentionInOptional, prefixOptional, nullptr, nullptr, scaleValue, keepProb,
                                    preTokens, nextTokens, headNum, inputLayout, innerPrecise, sparseMode, pseType,
                                    dqOut, dkOut, dvOut, dpseOut, false});
                          });
}

extern "C" aclnnStatus aclnnFlashAttentionUnpaddingScoreGradGetWorkspaceSize(
    const aclTensor* query, const aclTensor* keyIn, const aclTensor* value, const aclTensor* dy,
    const aclTensor* pseShiftOptional, const aclTensor* dropMaskOptional, const aclTensor* paddingMaskOptional,
    const aclTensor* attenMaskOptional, const aclTensor* softmaxMaxOptional, const aclTensor* softmaxSumOptional,
    const aclTensor* softmaxInOptional, const aclTensor* attentionInOptional, const aclIntArray* prefixOptional,
    const aclIntArray* actualSeqQLenOptional, const aclIntArray* actualSeqKvLenOptional, double scaleValue,
    double keepProb, int64_t preTokens, int64_t nextTokens, int64_t headNum, char* inputLayout, int64_t innerPrecise,
    int64_t sparseMode, const aclTensor* dqOut, const aclTensor* dkOut, const aclTensor* dvOut,
    const aclTensor* dpseOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_FlashAttentionUnpaddingScoreGrad,
                          "aclnnFlashAttentionUnpaddingScoreGradGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_fas_grad(
                                b, {query, keyIn, value, dy, pseShiftOptional, dropMaskOptional, paddingMaskOptional,
                                    attenMaskOptional, softmaxMaxOptional, softmaxSumOptional, softmaxInOptional,
                                    attentionInOptional, prefixOptional, actualSeqQLenOptional,
                                    actualSeqKvLenOptional, scaleValue, keepProb, preTokens, nextTokens, headNum,
                                    inputLayout, innerPrecise, sparseMode, 1, dqOut, dkOut, dvOut, dpseOut, true});
                          });
}

extern "C" aclnnStatus aclnnFlashAttentionUnpaddingScoreGradV2GetWorkspaceSize(
    const aclTensor* query, const aclTensor* keyIn, const aclTensor* value, const aclTensor* dy,
    const aclTensor* pseShiftOptional, const aclTensor* dropMaskOptional, const aclTensor* paddingMaskOptional,
    const aclTensor* attenMaskOptional, const aclTensor* softmaxMaxOptional, const aclTensor* softmaxSumOptional,
    const aclTensor* softmaxInOptional, const aclTensor* attentionInOptional, const aclIntArray* prefixOptional,
    const aclIntArray* actualSeqQLenOptional, const aclIntArray* actualSeqKvLenOptional,
    const aclIntArray* qStartIdxOptional, const aclIntArray* kvStartIdxOptional, double scaleValue, double keepProb,
    int64_t preTokens, int64_t nextTokens, int64_t headNum, char* inputLayout, int64_t innerPrecise,
    int64_t sparseMode, int64_t pseType, const aclTensor* dqOut, const aclTensor* dkOut, const aclTensor* dvOut,
    const aclTensor* dpseOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)qStartIdxOptional;
  (void)kvStartIdxOptional;
  return pacl::run_phase1(pacl::op_FlashAttentionUnpaddingScoreGradV2,
                          "aclnnFlashAttentionUnpaddingScoreGradV2GetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_fas_grad(
                                b, {query, keyIn, value, dy, pseShiftOptional, dropMaskOptional, paddingMaskOptional,
                                    attenMaskOptional, softmaxMaxOptional, softmaxSumOptional, softmaxInOptional,
                                    attentionInOptional, prefixOptional, actualSeqQLenOptional,
                                    actualSeqKvLenOptional, scaleValue, keepProb, preTokens, nextTokens, headNum,
                                    inputLayout, innerPrecise, sparseMode, pseType, dqOut, dkOut, dvOut, dpseOut,
                                    true});
                          });
}

extern "C" aclnnStatus aclnnFlashAttentionUnpaddingScoreGradV3GetWorkspaceSize(
    const aclTensor* query, const aclTensor* queryRope, const aclTensor* keyIn, const aclTensor* keyInRope,
    const aclTensor* value, const aclTensor* dy, const aclTensor* pseShiftOptional, const aclTensor* dropMaskOptional,
    const aclTensor* paddingMaskOptional, const aclTensor* attenMaskOptional, const aclTensor* softmaxMaxOptional,
    const aclTensor* softmaxSumOptional, const aclTensor* softmaxInOptional, const aclTensor* attentionInOptional,
    const aclIntArray* prefixOptional, const aclIntArray* actualSeqQLenOptional,
    const aclIntArray* actualSeqKvLenOptional, const aclIntArray* qStartIdxOptional,
    const aclIntArray* kvStartIdxOptional, double scaleValue, double keepProb, int64_t preTokens, int64_t nextTokens,
    int64_t headNum, char* inputLayout, int64_t innerPrecise, int64_t sparseMode, int64_t pseType,
    const aclTensor* dqOut, const aclTensor* dqRopeOut, const aclTensor* dkOut, const aclTensor* dkRopeOut,
    const aclTensor* dvOut, const aclTensor* dpseOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)qStartIdxOptional;
  (void)kvStartIdxOptional;
  return pacl::run_phase1(pacl::op_FlashAttentionUnpaddingScoreGradV3,
                          "aclnnFlashAttentionUnpaddingScoreGradV3GetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            if (queryRope || keyInRope || dqRopeOut || dkRopeOut)
                              pacl::tf::not_yet(b.op(), "queryRope/keyInRope and their gradients");
                            pacl::plan_fas_grad(
                                b, {query, keyIn, value, dy, pseShiftOptional, dropMaskOptional, paddingMaskOptional,
                                    attenMaskOptional, softmaxMaxOptional, softmaxSumOptional, softmaxInOptional,
                                    attentionInOptional, prefixOptional, actualSeqQLenOptional,
                                    actualSeqKvLenOptional, scaleValue, keepProb, preTokens, nextTokens, headNum,
                                    inputLayout, innerPrecise, sparseMode, pseType, dqOut, dkOut, dvOut, dpseOut,
                                    true});
                          });
}

extern "C" aclnnStatus aclnnFlashAttentionUnpaddingScoreGradV4GetWorkspaceSize(
    const aclTensor* query, const aclTensor* keyIn, const aclTensor* value, const aclTensor* dy,
    const aclTensor* pseShiftOptional, const aclTensor* dropMaskOptional, const aclTensor* paddingMaskOptional,
    const aclTensor* attenMaskOptional, const aclTensor* softmaxMaxOptional, const aclTensor* softmaxSumOptional,
    const aclTensor* softmaxInOptional, const aclTensor* attentionInOptional, const aclIntArray* prefixOptional,
    const aclIntArray* actualSeqQLenOptional, const aclIntArray* actualSeqKvLenOptional, double scaleValue,
    double keepProb, int64_t preTokens, int64_t nextTokens, int64_t headNum, char* inputLayout, int64_t innerPrecise,
    int64_t sparseMode, const aclTensor* dqOut, const aclTensor* dkOut, const aclTensor* dvOut,
    const aclTensor* dpseOut, char* softmaxInLayout, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_FlashAttentionUnpaddingScoreGradV4,
                          "aclnnFlashAttentionUnpaddingScoreGradV4GetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            if (softmaxInLayout) {
                              const std::string sl(softmaxInLayout);
                              if (sl != "" && sl != "same_as_input")
                                pacl::invalid("softmaxInLayout is \"{}\", expected \"\" or \"same_as_input\"", sl);
                            }
                            pacl::plan_fas_grad(
                                b, {query, keyIn, value, dy, pseShiftOptional, dropMaskOptional, paddingMaskOptional,
                                    attenMaskOptional, softmaxMaxOptional, softmaxSumOptional, softmaxInOptional,
                                    attentionInOptional, prefixOptional, actualSeqQLenOptional,
                                    actualSeqKvLenOptional, scaleValue, keepProb, preTokens, nextTokens, headNum,
                                    inputLayout, innerPrecise, sparseMode, 1, dqOut, dkOut, dvOut, dpseOut, true});
                          });
}

// ---- PromptFlashAttention entries -----------------------------------------------------------------

namespace {

aclnnStatus pfa(const pacl::OpInfo& op, const char* api, const aclTensor* query, const aclTensor* key,
                const aclTensor* value, const aclTensor* pseShift, const aclTensor* attenMask,
                const aclIntArray* actualSeqLengths, const aclIntArray* actualSeqLengthsKv,
                std::vector<std::pair<const void*, const char*>> unsupported, int64_t numHeads, double scaleValue,
                int64_t preTokens, int64_t nextTokens, char* inputLayout, int64_t numKeyValueHeads,
                int64_t sparseMode, int64_t innerPrecise, const aclTensor* attentionOut, uint64_t* workspaceSize,
                aclOpExecutor** executor) {
  return pacl::run_phase1(op, api, workspaceSize, executor, [&](pacl::OpBuilder& b) {
    pacl::InferArgs x;
    x.kind = Kind::kPfa;
    x.query = query;
    x.key = key;
    x.value = value;
    x.key_list = x.value_list = nullptr;
    x.pse = pseShift;
    x.mask = attenMask;
    x.act_q = actualSeqLengths;
    x.act_kv = actualSeqLengthsKv;
    x.num_heads = numHeads;
    x.scale = scaleValue;
    x.pre = preTokens;
    x.next = nextTokens;
    x.layout = inputLayout;
    x.num_kv_heads = numKeyValueHeads;
    x.sparse = sparseMode;
    x.inner_precise = innerPrecise;
    x.lse_flag = false;
    x.out = attentionOut;
    x.lse = nullptr;
    x.unsupported = std::move(unsupported);
    pacl::plan_infer(b, x);
  });
}

}  // namespace

extern "C" aclnnStatus aclnnPromptFlashAttentionGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* pseShift,
    const aclTensor* attenMask, const aclIntArray* actualSeqLengths, int64_t numHeads, double scaleValue,
    int64_t preTokens, int64_t nextTokens, char* inputLayout, int64_t numKeyValueHeads, const aclTensor* attentionOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pfa(pacl::op_PromptFlashAttention, "aclnnPromptFlashAttentionGetWorkspaceSize", query, key, value, pseShift,
             attenMask, actualSeqLengths, nullptr, {}, numHeads, scaleValue, preTokens, nextTokens, inputLayout,
             numKeyValueHeads, 0, 1, attentionOut, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnPromptFlashAttentionV2GetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* pseShift,
    const aclTensor* attenMask, const aclIntArray* actualSeqLengths, const aclIntArray* actualSeqLengthsKv,
    const aclTensor* deqScale1, const aclTensor* quantScale1, const aclTensor* deqScale2, const aclTensor* quantScale2,
    const aclTensor* quantOffset2, int64_t numHeads, double scaleValue, int64_t preTokens, int64_t nextTokens,
    char* inputLayout, int64_t numKeyValueHeads, int64_t sparseMode, const aclTensor* attentionOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pfa(pacl::op_PromptFlashAttentionV2, "aclnnPromptFlashAttentionV2GetWorkspaceSize", query, key, value,
             pseShift, attenMask, actualSeqLengths, actualSeqLengthsKv,
             {{deqScale1, "deqScale1 (quantization)"}, {quantScale1, "quantScale1 (quantization)"},
              {deqScale2, "deqScale2 (quantization)"}, {quantScale2, "quantScale2 (output quantization)"},
              {quantOffset2, "quantOffset2 (output quantization)"}},
             numHeads, scaleValue, preTokens, nextTokens, inputLayout, numKeyValueHeads, sparseMode, 1, attentionOut,
             workspaceSize, executor);
}

extern "C" aclnnStatus aclnnPromptFlashAttentionV3GetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* pseShift,
    const aclTensor* attenMask, const aclIntArray* actualSeqLengths, const aclIntArray* actualSeqLengthsKv,
    const aclTensor* deqScale1, const aclTensor* quantScale1, const aclTensor* deqScale2, const aclTensor* quantScale2,
    const aclTensor* quantOffset2, int64_t numHeads, double scaleValue, int64_t preTokens, int64_t nextTokens,
    char* inputLayout, int64_t numKeyValueHeads, int64_t sparseMode, int64_t innerPrecise,
    const aclTensor* attentionOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pfa(pacl::op_PromptFlashAttentionV3, "aclnnPromptFlashAttentionV3GetWorkspaceSize", query, key, value,
             pseShift, attenMask, actualSeqLengths, actualSeqLengthsKv,
             {{deqScale1, "deqScale1 (quantization)"}, {quantScale1, "quantScale1 (quantization)"},
              {deqScale2, "deqScale2 (quantization)"}, {quantScale2, "quantScale2 (output quantization)"},
              {quantOffset2, "quantOffset2 (output quantization)"}},
             numHeads, scaleValue, preTokens, nextTokens, inputLayout, numKeyValueHeads, sparseMode, innerPrecise,
             attentionOut, workspaceSize, executor);
}

// ---- IncreFlashAttention entries ------------------------------------------------------------------

namespace {

aclnnStatus ifa(const pacl::OpInfo& op, const char* api, const aclTensor* query, const aclTensorList* key,
                const aclTensorList* value, const aclTensor* pseShift, const aclTensor* attenMask,
                const aclIntArray* actualSeqLengths, std::vector<std::pair<const void*, const char*>> unsupported,
                int64_t numHeads, double scaleValue, char* inputLayout, int64_t numKeyValueHeads,
                int64_t innerPrecise, const aclTensor* attentionOut, uint64_t* workspaceSize,
                aclOpExecutor** executor) {
  return pacl::run_phase1(op, api, workspaceSize, executor, [&](pacl::OpBuilder& b) {
    pacl::InferArgs x;
    x.kind = Kind::kIfa;
    x.query = query;
    x.key = x.value = nullptr;
    x.key_list = key;
    x.value_list = value;
    x.pse = pseShift;
    x.mask = attenMask;
    x.act_q = actualSeqLengths;
    x.act_kv = nullptr;
    x.num_heads = numHeads;
    x.scale = scaleValue;
    x.pre = 2147483647;
    x.next = 2147483647;
    x.layout = inputLayout;
    x.num_kv_heads = numKeyValueHeads;
    x.sparse = 0;
    x.inner_precise = innerPrecise;
    x.lse_flag = false;
    x.out = attentionOut;
    x.lse = nullptr;
    x.unsupported = std::move(unsupported);
    pacl::plan_infer(b, x);
  });
}

}  // namespace

extern "C" aclnnStatus aclnnIncreFlashAttentionGetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value, const aclTensor* pseShift,
    const aclTensor* attenMask, const aclIntArray* actualSeqLengths, int64_t numHeads, double scaleValue,
    char* inputLayout, int64_t numKeyValueHeads, const aclTensor* attentionOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return ifa(pacl::op_IncreFlashAttention, "aclnnIncreFlashAttentionGetWorkspaceSize", query, key, value, pseShift,
             attenMask, actualSeqLengths, {}, numHeads, scaleValue, inputLayout, numKeyValueHeads, 1, attentionOut,
             workspaceSize, executor);
}

extern "C" aclnnStatus aclnnIncreFlashAttentionV2GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value, const aclTensor* pseShift,
    const aclTensor* attenMask, const aclIntArray* actualSeqLengths, const aclTensor* dequantScale1,
    const aclTensor* quantScale1, const aclTensor* dequantScale2, const aclTensor* quantScale2,
    const aclTensor* quantOffset2, int64_t numHeads, double scaleValue, char* inputLayout, int64_t numKeyValueHeads,
    const aclTensor* attentionOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ifa(pacl::op_IncreFlashAttentionV2, "aclnnIncreFlashAttentionV2GetWorkspaceSize", query, key, value,
             pseShift, attenMask, actualSeqLengths,
             {{dequantScale1, "dequantScale1 (quantization)"}, {quantScale1, "quantScale1 (quantization)"},
              {dequantScale2, "dequantScale2 (quantization)"}, {quantScale2, "quantScale2 (output quantization)"},
              {quantOffset2, "quantOffset2 (output quantization)"}},
             numHeads, scaleValue, inputLayout, numKeyValueHeads, 1, attentionOut, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnIncreFlashAttentionV3GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value, const aclTensor* pseShift,
    const aclTensor* attenMask, const aclIntArray* actualSeqLengths, const aclTensor* dequantScale1,
    const aclTensor* quantScale1, const aclTensor* dequantScale2, const aclTensor* quantScale2,
    const aclTensor* quantOffset2, const aclTensor* antiquantScale, const aclTensor* antiquantOffset,
    const aclTensor* blocktable, int64_t numHeads, double scaleValue, char* inputLayout, int64_t numKeyValueHeads,
    int64_t blockSize, int64_t innerPrecise, const aclTensor* attentionOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  (void)blockSize;
  return ifa(pacl::op_IncreFlashAttentionV3, "aclnnIncreFlashAttentionV3GetWorkspaceSize", query, key, value,
             pseShift, attenMask, actualSeqLengths,
             {{dequantScale1, "dequantScale1 (quantization)"}, {quantScale1, "quantScale1 (quantization)"},
              {dequantScale2, "dequantScale2 (quantization)"}, {quantScale2, "quantScale2 (output quantization)"},
              {quantOffset2, "quantOffset2 (output quantization)"}, {antiquantScale, "antiquantScale"},
              {antiquantOffset, "antiquantOffset"}, {blocktable, "blocktable (paged KV cache)"}},
             numHeads, scaleValue, inputLayout, numKeyValueHeads, innerPrecise, attentionOut, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnIncreFlashAttentionV4GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value, const aclTensor* pseShift,
    const aclTensor* attenMask, const aclIntArray* actualSeqLengths, const aclTensor* dequantScale1,
    const aclTensor* quantScale1, const aclTensor* dequantScale2, const aclTensor* quantScale2,
    const aclTensor* quantOffset2, const aclTensor* antiquantScale, const aclTensor* antiquantOffset,
    const aclTensor* blocktable, const aclTensor* kvPaddingSize, int64_t numHeads, double scaleValue,
    char* inputLayout, int64_t numKeyValueHeads, int64_t blockSize, int64_t innerPrecise,
    const aclTensor* attentionOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)blockSize;
  return ifa(pacl::op_IncreFlashAttentionV4, "aclnnIncreFlashAttentionV4GetWorkspaceSize", query, key, value,
             pseShift, attenMask, actualSeqLengths,
             {{dequantScale1, "dequantScale1 (quantization)"}, {quantScale1, "quantScale1 (quantization)"},
              {dequantScale2, "dequantScale2 (quantization)"}, {quantScale2, "quantScale2 (output quantization)"},
              {quantOffset2, "quantOffset2 (output quantization)"}, {antiquantScale, "antiquantScale"},
              {antiquantOffset, "antiquantOffset"}, {blocktable, "blocktable (paged KV cache)"},
              {kvPaddingSize, "kvPaddingSize (left padding)"}},
             numHeads, scaleValue, inputLayout, numKeyValueHeads, innerPrecise, attentionOut, workspaceSize, executor);
}

// ---- FusedInferAttentionScore entries -------------------------------------------------------------

namespace {

struct FiaCommon {
  const aclTensor* query;
  const aclTensorList *key, *value;
  const aclTensor *pse, *mask;
  const aclIntArray *act_q, *act_kv;
  int64_t num_heads;
  double scale;
  int64_t pre, next;
  char* layout;
  int64_t num_kv_heads, sparse, inner_precise;
  bool lse_flag;
  const aclTensor *out, *lse;
};

aclnnStatus fia(const pacl::OpInfo& op, const char* api, const FiaCommon& c,
                std::vector<std::pair<const void*, const char*>> unsupported, uint64_t* workspaceSize,
                aclOpExecutor** executor) {
  return pacl::run_phase1(op, api, workspaceSize, executor, [&](pacl::OpBuilder& b) {
    pacl::InferArgs x;
    x.kind = Kind::kFia;
    x.query = c.query;
    x.key = x.value = nullptr;
    x.key_list = c.key;
    x.value_list = c.value;
    x.pse = c.pse;
    x.mask = c.mask;
    x.act_q = c.act_q;
    x.act_kv = c.act_kv;
    x.num_heads = c.num_heads;
    x.scale = c.scale;
    x.pre = c.pre;
    x.next = c.next;
    x.layout = c.layout;
    x.num_kv_heads = c.num_kv_heads;
    x.sparse = c.sparse;
    x.inner_precise = c.inner_precise;
    x.lse_flag = c.lse_flag;
    x.out = c.out;
    x.lse = c.lse;
    x.unsupported = std::move(unsupported);
    pacl::plan_infer(b, x);
  });
}

std::vector<std::pair<const void*, const char*>> fia_unsupported(
    const aclTensor* deqScale1, const aclTensor* quantScale1, const aclTensor* deqScale2, const aclTensor* quantScale2,
    const aclTensor* quantOffset2, const aclTensor* antiquantScale, const aclTensor* antiquantOffset,
    const aclTensor* blockTable, const aclTensor* queryPaddingSize, const aclTensor* kvPaddingSize) {
  return {{deqScale1, "deqScale1 (quantization)"},
          {quantScale1, "quantScale1 (quantization)"},
          {deqScale2, "deqScale2 (quantization)"},
          {quantScale2, "quantScale2 (output quantization)"},
          {quantOffset2, "quantOffset2 (output quantization)"},
          {antiquantScale, "antiquantScale"},
          {antiquantOffset, "antiquantOffset"},
          {blockTable, "blockTable (paged KV cache)"},
          {queryPaddingSize, "queryPaddingSize (left padding)"},
          {kvPaddingSize, "kvPaddingSize (left padding)"}};
}

void add_v2_unsupported(std::vector<std::pair<const void*, const char*>>* u, const aclTensor* keyAntiquantScale,
                        const aclTensor* keyAntiquantOffset, const aclTensor* valueAntiquantScale,
                        const aclTensor* valueAntiquantOffset, const aclTensor* keySharedPrefix,
                        const aclTensor* valueSharedPrefix, const aclIntArray* actualSharedPrefixLen) {
  u->push_back({keyAntiquantScale, "keyAntiquantScale"});
  u->push_back({keyAntiquantOffset, "keyAntiquantOffset"});
  u->push_back({valueAntiquantScale, "valueAntiquantScale"});
  u->push_back({valueAntiquantOffset, "valueAntiquantOffset"});
  u->push_back({keySharedPrefix, "keySharedPrefix (system prompt prefix)"});
  u->push_back({valueSharedPrefix, "valueSharedPrefix (system prompt prefix)"});
  u->push_back({actualSharedPrefixLen, "actualSharedPrefixLen"});
}

}  // namespace

extern "C" aclnnStatus aclnnFusedInferAttentionScoreGetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value, const aclTensor* pseShift,
    const aclTensor* attenMask, const aclIntArray* actualSeqLengths, const aclIntArray* actualSeqLengthsKv,
    const aclTensor* deqScale1, const aclTensor* quantScale1, const aclTensor* deqScale2, const aclTensor* quantScale2,
    const aclTensor* quantOffset2, const aclTensor* antiquantScale, const aclTensor* antiquantOffset,
    const aclTensor* blockTable, const aclTensor* queryPaddingSize, const aclTensor* kvPaddingSize, int64_t numHeads,
    double scaleValue, int64_t preTokens, int64_t nextTokens, char* inputLayout, int64_t numKeyValueHeads,
    int64_t sparseMode, int64_t innerPrecise, int64_t blockSize, int64_t antiquantMode, bool softmaxLseFlag,
    const aclTensor* attentionOut, const aclTensor* softmaxLse, uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)blockSize;
  (void)antiquantMode;
  return fia(pacl::op_FusedInferAttentionScore, "aclnnFusedInferAttentionScoreGetWorkspaceSize",
             {query, key, value, pseShift, attenMask, actualSeqLengths, actualSeqLengthsKv, numHeads, scaleValue,
              preTokens, nextTokens, inputLayout, numKeyValueHeads, sparseMode, innerPrecise, softmaxLseFlag,
              attentionOut, softmaxLse},
             fia_unsupported(deqScale1, quantScale1, deqScale2, quantScale2, quantOffset2, antiquantScale,
                             antiquantOffset, blockTable, queryPaddingSize, kvPaddingSize),
             workspaceSize, executor);
}

extern "C" aclnnStatus aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value, const aclTensor* pseShiftOptional,
    const aclTensor* attenMaskOptional, const aclIntArray* actualSeqLengthsOptional,
    const aclIntArray* actualSeqLengthsKvOptional, const aclTensor* deqScale1Optional,
    const aclTensor* quantScale1Optional, const aclTensor* deqScale2Optional, const aclTensor* quantScale2Optional,
    const aclTensor* quantOffset2Optional, const aclTensor* antiquantScaleOptional,
    const aclTensor* antiquantOffsetOptional, const aclTensor* blockTableOptional,
    const aclTensor* queryPaddingSizeOptional, const aclTensor* kvPaddingSizeOptional,
    const aclTensor* keyAntiquantScaleOptional, const aclTensor* keyAntiquantOffsetOptional,
    const aclTensor* valueAntiquantScaleOptional, const aclTensor* valueAntiquantOffsetOptional,
    const aclTensor* keySharedPrefixOptional, const aclTensor* valueSharedPrefixOptional,
    const aclIntArray* actualSharedPrefixLenOptional, int64_t numHeads, double scaleValue, int64_t preTokens,
    int64_t nextTokens, char* inputLayout, int64_t numKeyValueHeads, int64_t sparseMode, int64_t innerPrecise,
    int64_t blockSize, int64_t antiquantMode, bool softmaxLseFlag, int64_t keyAntiquantMode, int64_t valueAntiquantMode,
    const aclTensor* attentionOut, const aclTensor* softmaxLse, uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)blockSize;
  (void)antiquantMode;
  (void)keyAntiquantMode;
  (void)valueAntiquantMode;
  auto u = fia_unsupported(deqScale1Optional, quantScale1Optional, deqScale2Optional, quantScale2Optional,
                           quantOffset2Optional, antiquantScaleOptional, antiquantOffsetOptional, blockTableOptional,
                           queryPaddingSizeOptional, kvPaddingSizeOptional);
  add_v2_unsupported(&u, keyAntiquantScaleOptional, keyAntiquantOffsetOptional, valueAntiquantScaleOptional,
                     valueAntiquantOffsetOptional, keySharedPrefixOptional, valueSharedPrefixOptional,
                     actualSharedPrefixLenOptional);
  return fia(pacl::op_FusedInferAttentionScoreV2, "aclnnFusedInferAttentionScoreV2GetWorkspaceSize",
             {query, key, value, pseShiftOptional, attenMaskOptional, actualSeqLengthsOptional,
              actualSeqLengthsKvOptional, numHeads, scaleValue, preTokens, nextTokens, inputLayout, numKeyValueHeads,
              sparseMode, innerPrecise, softmaxLseFlag, attentionOut, softmaxLse},
             std::move(u), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnFusedInferAttentionScoreV3GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value, const aclTensor* pseShiftOptional,
    const aclTensor* attenMaskOptional, const aclIntArray* actualSeqLengthsOptional,
    const aclIntArray* actualSeqLengthsKvOptional, const aclTensor* deqScale1Optional,
    const aclTensor* quantScale1Optional, const aclTensor* deqScale2Optional, const aclTensor* quantScale2Optional,
    const aclTensor* quantOffset2Optional, const aclTensor* antiquantScaleOptional,
    const aclTensor* antiquantOffsetOptional, const aclTensor* blockTableOptional,
    const aclTensor* queryPaddingSizeOptional, const aclTensor* kvPaddingSizeOptional,
    const aclTensor* keyAntiquantScaleOptional, const aclTensor* keyAntiquantOffsetOptional,
    const aclTensor* valueAntiquantScaleOptional, const aclTensor* valueAntiquantOffsetOptional,
    const aclTensor* keySharedPrefixOptional, const aclTensor* valueSharedPrefixOptional,
    const aclIntArray* actualSharedPrefixLenOptional, const aclTensor* queryRopeOptional,
    const aclTensor* keyRopeOptional, const aclTensor* keyRopeAntiquantScaleOptional, int64_t numHeads,
    double scaleValue, int64_t preTokens, int64_t nextTokens, char* inputLayout, int64_t numKeyValueHeads,
    int64_t sparseMode, int64_t innerPrecise, int64_t blockSize, int64_t antiquantMode, bool softmaxLseFlag,
    int64_t keyAntiquantMode, int64_t valueAntiquantMode, const aclTensor* attentionOut, const aclTensor* softmaxLse,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)blockSize;
  (void)antiquantMode;
  (void)keyAntiquantMode;
  (void)valueAntiquantMode;
  auto u = fia_unsupported(deqScale1Optional, quantScale1Optional, deqScale2Optional, quantScale2Optional,
                           quantOffset2Optional, antiquantScaleOptional, antiquantOffsetOptional, blockTableOptional,
                           queryPaddingSizeOptional, kvPaddingSizeOptional);
  add_v2_unsupported(&u, keyAntiquantScaleOptional, keyAntiquantOffsetOptional, valueAntiquantScaleOptional,
                     valueAntiquantOffsetOptional, keySharedPrefixOptional, valueSharedPrefixOptional,
                     actualSharedPrefixLenOptional);
  u.push_back({queryRopeOptional, "queryRope (MLA)"});
  u.push_back({keyRopeOptional, "keyRope (MLA)"});
  u.push_back({keyRopeAntiquantScaleOptional, "keyRopeAntiquantScale"});
  return fia(pacl::op_FusedInferAttentionScoreV3, "aclnnFusedInferAttentionScoreV3GetWorkspaceSize",
             {query, key, value, pseShiftOptional, attenMaskOptional, actualSeqLengthsOptional,
              actualSeqLengthsKvOptional, numHeads, scaleValue, preTokens, nextTokens, inputLayout, numKeyValueHeads,
              sparseMode, innerPrecise, softmaxLseFlag, attentionOut, softmaxLse},
             std::move(u), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnFusedInferAttentionScoreV4GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value, const aclTensor* pseShiftOptional,
    const aclTensor* attenMaskOptional, const aclIntArray* actualSeqLengthsOptional,
    const aclIntArray* actualSeqLengthsKvOptional, const aclTensor* deqScale1Optional,
    const aclTensor* quantScale1Optional, const aclTensor* deqScale2Optional, const aclTensor* quantScale2Optional,
    const aclTensor* quantOffset2Optional, const aclTensor* antiquantScaleOptional,
    const aclTensor* antiquantOffsetOptional, const aclTensor* blockTableOptional,
    const aclTensor* queryPaddingSizeOptional, const aclTensor* kvPaddingSizeOptional,
    const aclTensor* keyAntiquantScaleOptional, const aclTensor* keyAntiquantOffsetOptional,
    const aclTensor* valueAntiquantScaleOptional, const aclTensor* valueAntiquantOffsetOptional,
    const aclTensor* keySharedPrefixOptional, const aclTensor* valueSharedPrefixOptional,
    const aclIntArray* actualSharedPrefixLenOptional, const aclTensor* queryRopeOptional,
    const aclTensor* keyRopeOptional, const aclTensor* keyRopeAntiquantScaleOptional,
    const aclTensor* dequantScaleQueryOptional, const aclTensor* learnableSinkOptional, int64_t numHeads,
    double scaleValue, int64_t preTokens, int64_t nextTokens, char* inputLayout, int64_t numKeyValueHeads,
    int64_t sparseMode, int64_t innerPrecise, int64_t blockSize, int64_t antiquantMode, bool softmaxLseFlag,
    int64_t keyAntiquantMode, int64_t valueAntiquantMode, int64_t queryQuantMode, const aclTensor* attentionOut,
    const aclTensor* softmaxLse, uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)blockSize;
  (void)antiquantMode;
  (void)keyAntiquantMode;
  (void)valueAntiquantMode;
  (void)queryQuantMode;
  auto u = fia_unsupported(deqScale1Optional, quantScale1Optional, deqScale2Optional, quantScale2Optional,
                           quantOffset2Optional, antiquantScaleOptional, antiquantOffsetOptional, blockTableOptional,
                           queryPaddingSizeOptional, kvPaddingSizeOptional);
  add_v2_unsupported(&u, keyAntiquantScaleOptional, keyAntiquantOffsetOptional, valueAntiquantScaleOptional,
                     valueAntiquantOffsetOptional, keySharedPrefixOptional, valueSharedPrefixOptional,
                     actualSharedPrefixLenOptional);
  u.push_back({queryRopeOptional, "queryRope (MLA)"});
  u.push_back({keyRopeOptional, "keyRope (MLA)"});
  u.push_back({keyRopeAntiquantScaleOptional, "keyRopeAntiquantScale"});
  u.push_back({dequantScaleQueryOptional, "dequantScaleQuery (query quantization)"});
  u.push_back({learnableSinkOptional, "learnableSink"});
  return fia(pacl::op_FusedInferAttentionScoreV4, "aclnnFusedInferAttentionScoreV4GetWorkspaceSize",
             {query, key, value, pseShiftOptional, attenMaskOptional, actualSeqLengthsOptional,
              actualSeqLengthsKvOptional, numHeads, scaleValue, preTokens, nextTokens, inputLayout, numKeyValueHeads,
              sparseMode, innerPrecise, softmaxLseFlag, attentionOut, softmaxLse},
             std::move(u), workspaceSize, executor);
}
