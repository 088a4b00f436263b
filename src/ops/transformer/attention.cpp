#include "ops/transformer/attention.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "core/parallel.h"
#include "runtime/status.h"

namespace pacl::tf {
namespace {

inline bool visible(const AttnSpec& s, const uint8_t* mask, int64_t b, int64_t n, int64_t i, int64_t j) {
  const int64_t off = s.kv_len[static_cast<size_t>(b)] - s.q_len[static_cast<size_t>(b)];
  switch (s.pattern[static_cast<size_t>(b)]) {
    case Pattern::kAll: return true;
    case Pattern::kMask: return mask[s.mask.at(b, n, i, j)] == 0;
    case Pattern::kLeftUpCausal: return j <= i;
    case Pattern::kRightDownCausal: return j <= i + off;
    case Pattern::kBand: {
      const int64_t d = j - i - off;
      return d <= s.next && -d <= s.pre;
    }
    case Pattern::kPrefix: return j <= i + off || j < s.prefix[static_cast<size_t>(b)];
  }
  return false;
}

inline float dot(const float* x, const float* y, int64_t n) {
  float acc = 0;
  for (int64_t d = 0; d < n; ++d) acc += x[d] * y[d];
  return acc;
}

template <typename T>
T* row_ptr(const DenseArgs& a, const HeadView& v, int64_t b, int64_t n, int64_t i) {
  const size_t u = static_cast<size_t>(b);
  return static_cast<T*>(a.ptr(v.operand[u])) + v.base[u] + n * v.n_stride[u] + i * v.s_stride[u];
}

// The softmax probabilities of row (b, n, i) over j < kvLen[b] (0 where hidden). Returns false when
// no key is visible; *max_out and *sum_out receive the max and the sum of exp(s - max).
bool row_probs(const AttnSpec& s, const DenseArgs& a, int64_t b, int64_t n, int64_t i, float* p, uint8_t* vis,
               float* max_out, float* sum_out) {
  const int64_t kvh = n / (s.nq / s.nkv), kv = s.kv_len[static_cast<size_t>(b)];
  const float* q = row_ptr<const float>(a, s.q, b, n, i);
  const uint8_t* mask = s.mask.operand >= 0 ? static_cast<const uint8_t*>(a.ptr(s.mask.operand)) : nullptr;
  const float* pse = s.pse.operand >= 0 ? static_cast<const float*>(a.ptr(s.pse.operand)) : nullptr;
  const float scale = static_cast<float>(s.scale);
  float m = -INFINITY;
  bool any = false;
  for (int64_t j = 0; j < kv; ++j) {
    vis[j] = visible(s, mask, b, n, i, j);
    if (!vis[j]) continue;
    float x = dot(q, row_ptr<const float>(a, s.k, b, kvh, j), s.dqk);
    if (pse) {
      const float ps = pse[s.pse.at(b, n, i, j)];
      x = s.pse_before_scale ? scale * (x + ps) : scale * x + ps;
    } else {
      x *= scale;
    }
    p[j] = x;
    if (!any || !(x <= m)) m = x;  // NaN wins
    any = true;
  }
  if (!any) return false;
  float sum = 0;
  for (int64_t j = 0; j < kv; ++j) {
    p[j] = vis[j] ? std::exp(p[j] - m) : 0.0f;
    sum += p[j];
  }
  const float inv = 1.0f / sum;
  for (int64_t j = 0; j < kv; ++j) p[j] *= inv;
  *max_out = m;
  *sum_out = sum;
  return true;
}

void write_stats(const AttnSpec& s, const DenseArgs& a, int64_t b, int64_t n, int64_t i, bool valid, float m,
                 float sum) {
  if (s.stats == StatKind::kNone) return;
  float* s0 = row_ptr<float>(a, s.stat0, b, n, i);
  if (s.stats == StatKind::kLse) {
    const float lse = valid ? m + std::log(sum) : INFINITY;
    for (int64_t w = 0; w < s.stat0.width; ++w) s0[w] = lse;
    return;
  }
  float* s1 = row_ptr<float>(a, s.stat1, b, n, i);
  for (int64_t w = 0; w < s.stat0.width; ++w) s0[w] = valid ? m : -FLT_MAX;
  for (int64_t w = 0; w < s.stat1.width; ++w) s1[w] = valid ? sum : FLT_MAX;
}

constexpr int64_t kRowsPerTask = 8;

}  // namespace

void attention_forward(const AttnSpec& s, const DenseArgs& a) {
  int64_t max_rows = 0;
  for (int64_t r : s.q_rows) max_rows = std::max(max_rows, r);
  const int64_t blocks = (max_rows + kRowsPerTask - 1) / kRowsPerTask;
  const int64_t tasks = s.batch * s.nq * blocks;
  if (tasks == 0) return;
  const int64_t group = s.nq / s.nkv;
  parallel_for(tasks, 1, [&](int64_t from, int64_t to, int) {
    std::vector<float> p(static_cast<size_t>(std::max<int64_t>(s.max_kv, 1)));
    std::vector<uint8_t> vis(p.size());
    std::vector<float> acc(static_cast<size_t>(s.dv));
    for (int64_t t = from; t < to; ++t) {
      const int64_t blk = t % blocks, n = (t / blocks) % s.nq, b = t / blocks / s.nq;
      const size_t ub = static_cast<size_t>(b);
      const int64_t rows = s.q_rows[ub], kv = s.kv_len[ub], kvh = n / group;
      for (int64_t i = blk * kRowsPerTask; i < std::min(rows, (blk + 1) * kRowsPerTask); ++i) {
        float* o = row_ptr<float>(a, s.out, b, n, i);
        float m = 0, sum = 0;
        const bool valid = i < s.q_len[ub] && row_probs(s, a, b, n, i, p.data(), vis.data(), &m, &sum);
        std::fill(acc.begin(), acc.end(), 0.0f);
        if (valid) {
          for (int64_t j = 0; j < kv; ++j) {
            if (!vis[static_cast<size_t>(j)]) continue;
            const float pj = p[static_cast<size_t>(j)];
            const float* vr = row_ptr<const float>(a, s.v, b, kvh, j);
            for (int64_t d = 0; d < s.dv; ++d) acc[static_cast<size_t>(d)] += pj * vr[d];
          }
        }
        std::memcpy(o, acc.data(), static_cast<size_t>(s.dv) * sizeof(float));
        write_stats(s, a, b, n, i, valid, m, sum);
      }
    }
  });
}

void attention_backward(const AttnSpec& s, const DenseArgs& a) {
  const int64_t group = s.nq / s.nkv;
  const bool want_dpse = s.dpse.operand >= 0;
  // dpse shared across batches (pse broadcast over B) forces the batches to run one after another.
  const bool serial_batches = want_dpse && s.pse.b_stride == 0;
  const int64_t tasks = serial_batches ? s.nkv : s.batch * s.nkv;
  for (const auto& [operand, count] : s.zero_first)
    std::memset(a.ptr(operand), 0, static_cast<size_t>(count) * sizeof(float));
  parallel_for(tasks, 1, [&](int64_t from, int64_t to, int) {
    std::vector<float> p(static_cast<size_t>(std::max<int64_t>(s.max_kv, 1))), dp(p.size());
    std::vector<uint8_t> vis(p.size());
    const float scale = static_cast<float>(s.scale);
    for (int64_t t = from; t < to; ++t) {
      const int64_t kvh = serial_batches ? t : t % s.nkv;
      const int64_t b_from = serial_batches ? 0 : t / s.nkv, b_to = serial_batches ? s.batch : b_from + 1;
      for (int64_t b = b_from; b < b_to; ++b) {
        const size_t ub = static_cast<size_t>(b);
        const int64_t kv = s.kv_len[ub];
        for (int64_t n = kvh * group; n < (kvh + 1) * group; ++n) {
          for (int64_t i = 0; i < s.q_len[ub]; ++i) {
            float m = 0, sum = 0;
            if (!row_probs(s, a, b, n, i, p.data(), vis.data(), &m, &sum)) continue;
            const float* gy = row_ptr<const float>(a, s.dy, b, n, i);
            const float* q = row_ptr<const float>(a, s.q, b, n, i);
            float dsum = 0;
            for (int64_t j = 0; j < kv; ++j) {
              const size_t u = static_cast<size_t>(j);
              dp[u] = vis[u] ? dot(gy, row_ptr<const float>(a, s.v, b, kvh, j), s.dv) : 0.0f;
              dsum += p[u] * dp[u];
            }
            float* gq = row_ptr<float>(a, s.dq, b, n, i);
            for (int64_t j = 0; j < kv; ++j) {
              const size_t u = static_cast<size_t>(j);
              if (!vis[u]) continue;
              const float ds = p[u] * (dp[u] - dsum);
              const float* kr = row_ptr<const float>(a, s.k, b, kvh, j);
              float* gk = row_ptr<float>(a, s.dk, b, kvh, j);
              float* gv = row_ptr<float>(a, s.dval, b, kvh, j);
              for (int64_t d = 0; d < s.dqk; ++d) {
                gq[d] += scale * ds * kr[d];
                gk[d] += scale * ds * q[d];
              }
              for (int64_t d = 0; d < s.dv; ++d) gv[d] += p[u] * gy[d];
              if (want_dpse)
                static_cast<float*>(a.ptr(s.dpse.operand))[s.dpse.at(b, n, i, j)] +=
                    s.pse_before_scale ? scale * ds : ds;
            }
          }
        }
      }
    }
  });
}

const char* layout_name(Layout l) {
  switch (l) {
    case Layout::kBSH: return "BSH";
    case Layout::kBSND: return "BSND";
    case Layout::kBNSD: return "BNSD";
    case Layout::kSBH: return "SBH";
    case Layout::kTND: return "TND";
    case Layout::kBNSD_BSND: return "BNSD_BSND";
  }
  return "?";
}

HeadView layout_view(Layout l, const Dims& shape, int64_t heads, int64_t width, int64_t batch,
                     const std::vector<int64_t>& tok_start, int operand) {
  HeadView v;
  v.width = width;
  v.operand.assign(static_cast<size_t>(batch), operand);
  const int64_t h = heads * width;
  for (int64_t b = 0; b < batch; ++b) {
    int64_t base = 0, ns = 0, ss = 0;
    switch (l) {
      case Layout::kBSH:
      case Layout::kBSND:
        base = b * shape[1] * h;
        ns = width;
        ss = h;
        break;
      case Layout::kBNSD:
      case Layout::kBNSD_BSND:
        base = b * shape[2] * h;
        ns = shape[2] * width;
        ss = width;
        break;
      case Layout::kSBH:
        base = b * h;
        ns = width;
        ss = shape[1] * h;
        break;
      case Layout::kTND:
        base = tok_start[static_cast<size_t>(b)] * h;
        ns = width;
        ss = h;
        break;
    }
    v.base.push_back(base);
    v.n_stride.push_back(ns);
    v.s_stride.push_back(ss);
  }
  return v;
}

PairView pair_view(const aclTensor& t, const char* name, int64_t batch, int64_t heads, int64_t sq, int64_t skv,
                   bool kv_rows_2d, int operand) {
  const Dims& s = t.view;
  const int64_t r = t.dim();
  if (r < 2 || r > 4) invalid("{} has {} dims ({}), expected 2 to 4", name, r, t.describe());
  int64_t bd = 1, nd = 1, id = 1;
  const int64_t jd = s[static_cast<size_t>(r - 1)];
  if (r == 2 && kv_rows_2d) {
    bd = s[0];
  } else {
    id = s[static_cast<size_t>(r - 2)];
    if (r >= 3) bd = s[0];
    if (r == 4) nd = s[1];
  }
  const bool ok = (bd == 1 || bd == batch) && (nd == 1 || nd == heads) && (id == 1 || id >= sq) && jd >= skv;
  if (!ok)
    invalid("{} has shape {}; for batch {}, {} heads, {} query rows and {} key rows expected [B or 1, N or 1, "
            "1 or >= Sq, >= Skv] (trailing dims as the layout allows)",
            name, dims_str(s), batch, heads, sq, skv);
  PairView p;
  p.operand = operand;
  p.i_stride = id == 1 ? 0 : jd;
  p.n_stride = nd == 1 ? 0 : id * jd;
  p.b_stride = bd == 1 ? 0 : nd * id * jd;
  return p;
}

}  // namespace pacl::tf
