// Attention through the public C API: FlashAttentionScore (softmax max/sum outputs, pse, sparse
// modes 0/2/3, GQA), FlashAttentionScoreGrad (analytic gradients), PromptFlashAttention (masks,
// actual lengths, numKeyValueHeads). Reference: scaled-dot-product attention written literally in
// double over logical [B, N, S, D] arrays, mapped to the layouts BSH, BSND and BNSD.
#include <gtest/gtest.h>

#include <functional>
#include <limits>

#include "aclnnop/aclnn_flash_attention_score.h"
#include "aclnnop/aclnn_flash_attention_score_grad.h"
#include "aclnnop/aclnn_fused_infer_attention_score.h"
#include "aclnnop/aclnn_incre_flash_attention.h"
#include "aclnnop/aclnn_prompt_flash_attention.h"
#include "test_transformer_util.h"

namespace {

using namespace tftest;

// Shape of a logical [B, S, N, D] operand in a layout, and the flat row-major index of (b, s, n, d).
Shape lshape(const std::string& l, int64_t b, int64_t s, int64_t n, int64_t d) {
  if (l == "BSH") return {b, s, n * d};
  if (l == "BSND") return {b, s, n, d};
  return {b, n, s, d};  // BNSD
}
int64_t lidx(const std::string& l, int64_t S, int64_t N, int64_t D, int64_t b, int64_t s, int64_t n, int64_t d) {
  if (l == "BNSD") return ((b * N + n) * S + s) * D + d;
  return ((b * S + s) * N + n) * D + d;  // BSH and BSND share the order
}

struct Problem {
  int64_t B, Nq, Nkv, Sq, Skv, D;
  double scale;
  std::vector<double> q, k, v;  // layout-ordered values
  std::string layout;
  std::vector<double> pse;      // [B, Nq, Sq, Skv] or empty
  bool pse_inside_scale = true; // scale * (qk + pse) (FAS) or scale * qk + pse (PFA)
  std::function<bool(int64_t, int64_t, int64_t)> visible;  // (b, i, j)
  std::vector<int64_t> q_len, kv_len;                      // per batch
  double Q(int64_t b, int64_t n, int64_t s, int64_t d) const { return q[size_t(lidx(layout, Sq, Nq, D, b, s, n, d))]; }
  double K(int64_t b, int64_t n, int64_t s, int64_t d) const { return k[size_t(lidx(layout, Skv, Nkv, D, b, s, n, d))]; }
  double V(int64_t b, int64_t n, int64_t s, int64_t d) const { return v[size_t(lidx(layout, Skv, Nkv, D, b, s, n, d))]; }
};

struct Ref {
  std::vector<double> out, mx, sm;  // out layout-ordered; mx, sm [B, Nq, Sq]
  std::vector<double> P;            // [B, Nq, Sq, Skv] probabilities
  std::vector<bool> valid;          // [B, Nq, Sq]
};

Ref reference(const Problem& p) {
  Ref r;
  r.out.assign(size_t(p.B * p.Sq * p.Nq * p.D), 0.0);
  r.mx.assign(size_t(p.B * p.Nq * p.Sq), 0.0);
  r.sm = r.mx;
  r.valid.assign(r.mx.size(), false);
  r.P.assign(size_t(p.B * p.Nq * p.Sq * p.Skv), 0.0);
  const int64_t g = p.Nq / p.Nkv;
  for (int64_t b = 0; b < p.B; ++b)
    for (int64_t n = 0; n < p.Nq; ++n)
      for (int64_t i = 0; i < p.Sq; ++i) {
        const int64_t kvl = p.kv_len.empty() ? p.Skv : p.kv_len[size_t(b)];
        const int64_t ql = p.q_len.empty() ? p.Sq : p.q_len[size_t(b)];
        std::vector<double> s(size_t(p.Skv), 0.0);
        std::vector<bool> vis(size_t(p.Skv), false);
        double m = -std::numeric_limits<double>::infinity();
        bool any = false;
        for (int64_t j = 0; j < kvl && i < ql; ++j) {
          if (!p.visible(b, i, j)) continue;
          double x = 0;
          for (int64_t d = 0; d < p.D; ++d) x += p.Q(b, n, i, d) * p.K(b, n / g, j, d);
          const double ps = p.pse.empty() ? 0.0 : p.pse[size_t(((b * p.Nq + n) * p.Sq + i) * p.Skv + j)];
          x = p.pse_inside_scale ? p.scale * (x + ps) : p.scale * x + ps;
          s[size_t(j)] = x;
          vis[size_t(j)] = true;
          m = std::max(m, x);
          any = true;
        }
        const size_t ri = size_t((b * p.Nq + n) * p.Sq + i);
        if (!any) continue;
        double sum = 0;
        for (int64_t j = 0; j < p.Skv; ++j) sum += vis[size_t(j)] ? std::exp(s[size_t(j)] - m) : 0.0;
        r.mx[ri] = m;
        r.sm[ri] = sum;
        r.valid[ri] = true;
        for (int64_t j = 0; j < p.Skv; ++j) {
          const double pj = vis[size_t(j)] ? std::exp(s[size_t(j)] - m) / sum : 0.0;
          r.P[ri * size_t(p.Skv) + size_t(j)] = pj;
          for (int64_t d = 0; d < p.D; ++d)
            r.out[size_t(lidx(p.layout, p.Sq, p.Nq, p.D, b, i, n, d))] += pj * (pj != 0 ? p.V(b, n / g, j, d) : 0.0);
        }
      }
  return r;
}

// Shared problem generator: random sizes, values in [-1, 1).
Problem make_problem(Rng& rng, const std::string& layout, Tensor& q, Tensor& k, Tensor& v) {
  Problem p{};
  const TensorDesc& qd = q.desc();
  (void)qd;
  p.layout = layout;
  p.q = fill_uniform(q, rng, -1, 1);
  p.k = fill_uniform(k, rng, -1, 1);
  p.v = fill_uniform(v, rng, -1, 1);
  return p;
}

const std::vector<aclDataType> kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

double tol_of(aclDataType t) { return t == ACL_FLOAT ? 1e-5 : (t == ACL_FLOAT16 ? 4e-3 : 3e-2); }

// The absolute scale of each output element: the largest |v| (values are in [-1, 1)).
std::vector<double> ones(size_t n) { return std::vector<double>(n, 1.0); }

TEST(FlashAttentionScore, RandomLayoutsMasksPseGqa) {
  Rng rng(11);
  const std::vector<std::string> layouts = {"BSH", "BSND", "BNSD"};
  // The compressed causal mask the docs require for sparse modes 2 and 3.
  Tensor causal(TensorDesc(ACL_BOOL, {2048, 2048}));
  {
    for (int64_t i = 0; i < 2048; ++i)
      for (int64_t j = 0; j < 2048; ++j) store(ACL_BOOL, causal.host().data() + i * 2048 + j, Num::integer(j > i));
    causal.upload();
  }
  for (int it = 0; it < 24; ++it) {
    const aclDataType t = kTypes[size_t(it) % kTypes.size()];
    const std::string layout = layouts[size_t(rng() % 3)];
    const int64_t B = 1 + int64_t(rng() % 2), Nkv = 1 + int64_t(rng() % 2), Nq = Nkv * (1 + int64_t(rng() % 2));
    const int64_t Sq = 1 + int64_t(rng() % 6), Skv = 1 + int64_t(rng() % 7), D = 1 + int64_t(rng() % 9);
    const int sparse = std::vector<int>{0, 0, 2, 3}[size_t(rng() % 4)];
    const bool with_mask = sparse != 0 || rng() % 2;
    const bool with_pse = rng() % 2;
    Tensor q(random_view(t, lshape(layout, B, Sq, Nq, D), rng));
    Tensor k(random_view(t, lshape(layout, B, Skv, Nkv, D), rng));
    Tensor v(random_view(t, lshape(layout, B, Skv, Nkv, D), rng));
    Problem p = make_problem(rng, layout, q, k, v);
    p.B = B, p.Nq = Nq, p.Nkv = Nkv, p.Sq = Sq, p.Skv = Skv, p.D = D;
    p.scale = 1.0 / std::sqrt(double(D)) * (0.5 + double(rng() % 3) * 0.5);
    std::unique_ptr<Tensor> pse, mask;
    if (with_pse) {
      // pse [B or 1, N, Sq, Skv]
      const bool bb = rng() % 2;
      pse.reset(new Tensor(TensorDesc(t, {bb ? B : 1, Nq, Sq, Skv})));
      const std::vector<double> pv = fill_uniform(*pse, rng, -2, 2);
      p.pse.resize(size_t(B * Nq * Sq * Skv));
      for (int64_t b = 0; b < B; ++b)
        for (int64_t r = 0; r < Nq * Sq * Skv; ++r) p.pse[size_t(b * Nq * Sq * Skv + r)] = pv[size_t((bb ? b : 0) * Nq * Sq * Skv + r)];
    }
    std::vector<double> mv;
    if (sparse == 0 && with_mask) {
      mask.reset(new Tensor(TensorDesc(rng() % 2 ? ACL_BOOL : ACL_UINT8, {Sq, Skv})));
      mv = fill_ints(*mask, rng, 0, 1);
    }
    const int64_t off = Skv - Sq;
    p.visible = [&](int64_t, int64_t i, int64_t j) {
      if (sparse == 2) return j <= i;
      if (sparse == 3) return j <= i + off;
      if (!mv.empty()) return mv[size_t(i * Skv + j)] == 0;
      return true;
    };
    const Ref ref = reference(p);
    Tensor mx(TensorDesc(ACL_FLOAT, {B, Nq, Sq, 8})), sm(TensorDesc(ACL_FLOAT, {B, Nq, Sq, 8}));
    Tensor out(random_view(t, lshape(layout, B, Sq, Nq, D), rng));
    const aclTensor* am = sparse == 0 ? (mask ? mask->get() : nullptr) : causal.get();
    char lay[8];
    std::snprintf(lay, sizeof lay, "%s", layout.c_str());
    const std::string repro = "FlashAttentionScore " + std::string(dtype_name(t)) + " " + layout + " q" +
                              q.desc().str() + " k" + k.desc().str() + " Nq=" + std::to_string(Nq) + " sparse=" +
                              std::to_string(sparse) + " mask=" + std::to_string(!!am) + " pse=" +
                              std::to_string(with_pse) + " scale=" + std::to_string(p.scale);
    const aclnnStatus st = run_two_phase(
        [&](uint64_t* ws, aclOpExecutor** ex) {
          return aclnnFlashAttentionScoreGetWorkspaceSize(q.get(), k.get(), v.get(), pse ? pse->get() : nullptr,
                                                          nullptr, nullptr, am, nullptr, p.scale, 1.0, 65536, 65536,
                                                          Nq, lay, 0, sparse, mx.get(), sm.get(), nullptr, out.get(),
                                                          ws, ex);
        },
        aclnnFlashAttentionScore);
    ASSERT_EQ(st, ACLNN_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
    out.download();
    mx.download();
    sm.download();
    expect_close(repro, "attentionOut", t, values(out), ref.out, tol_of(t) * 4, ones(ref.out.size()));
    std::vector<double> rmx, rsm;
    for (size_t r = 0; r < ref.mx.size(); ++r)
      for (int w = 0; w < 8; ++w) {
        rmx.push_back(ref.valid[r] ? ref.mx[r] : -double(std::numeric_limits<float>::max()));
        rsm.push_back(ref.valid[r] ? ref.sm[r] : double(std::numeric_limits<float>::max()));
      }
    const double stol = t == ACL_FLOAT ? 1e-5 : 1e-6;  // scores are computed in float32 from rounded inputs
    expect_close(repro, "softmaxMax", ACL_FLOAT, values(mx), rmx, stol, ones(rmx.size()));
    expect_close(repro, "softmaxSum", ACL_FLOAT, values(sm), rsm, stol * 8, rsm);
  }
}

TEST(FlashAttentionScoreGrad, AnalyticGradients) {
  Rng rng(12);
  const std::vector<std::string> layouts = {"BSH", "BSND", "BNSD"};
  for (int it = 0; it < 12; ++it) {
    const aclDataType t = it % 3 == 2 ? ACL_FLOAT16 : ACL_FLOAT;
    const std::string layout = layouts[size_t(it) % 3];
    const int64_t B = 1 + int64_t(rng() % 2), Nkv = 1 + int64_t(rng() % 2), Nq = Nkv * (1 + int64_t(rng() % 2));
    const int64_t Sq = 1 + int64_t(rng() % 5), Skv = 1 + int64_t(rng() % 5), D = 1 + int64_t(rng() % 6);
    Tensor q(TensorDesc(t, lshape(layout, B, Sq, Nq, D))), k(TensorDesc(t, lshape(layout, B, Skv, Nkv, D)));
    Tensor v(TensorDesc(t, lshape(layout, B, Skv, Nkv, D))), dy(TensorDesc(t, lshape(layout, B, Sq, Nq, D)));
    Problem p = make_problem(rng, layout, q, k, v);
    p.B = B, p.Nq = Nq, p.Nkv = Nkv, p.Sq = Sq, p.Skv = Skv, p.D = D;
    p.scale = 0.7;
    const bool causal = it % 2;
    p.visible = [&](int64_t, int64_t i, int64_t j) { return !causal || j <= i; };
    const std::vector<double> g = fill_uniform(dy, rng, -1, 1);
    const Ref ref = reference(p);
    // Analytic gradients.
    std::vector<double> dq(p.q.size(), 0.0), dk(p.k.size(), 0.0), dv(p.v.size(), 0.0);
    const int64_t grp = Nq / Nkv;
    for (int64_t b = 0; b < B; ++b)
      for (int64_t n = 0; n < Nq; ++n)
        for (int64_t i = 0; i < Sq; ++i) {
          const size_t ri = size_t((b * Nq + n) * Sq + i);
          if (!ref.valid[ri]) continue;
          std::vector<double> dp(static_cast<size_t>(Skv));
          double dsum = 0;
          for (int64_t j = 0; j < Skv; ++j) {
            double x = 0;
            for (int64_t d = 0; d < D; ++d) x += g[size_t(lidx(layout, Sq, Nq, D, b, i, n, d))] * p.V(b, n / grp, j, d);
            dp[size_t(j)] = x;
            dsum += ref.P[ri * size_t(Skv) + size_t(j)] * x;
          }
          for (int64_t j = 0; j < Skv; ++j) {
            const double pj = ref.P[ri * size_t(Skv) + size_t(j)];
            const double ds = pj * (dp[size_t(j)] - dsum);
            for (int64_t d = 0; d < D; ++d) {
              dq[size_t(lidx(layout, Sq, Nq, D, b, i, n, d))] += p.scale * ds * p.K(b, n / grp, j, d);
              dk[size_t(lidx(layout, Skv, Nkv, D, b, j, n / grp, d))] += p.scale * ds * p.Q(b, n, i, d);
              dv[size_t(lidx(layout, Skv, Nkv, D, b, j, n / grp, d))] += pj * g[size_t(lidx(layout, Sq, Nq, D, b, i, n, d))];
            }
          }
        }
    Tensor gq(TensorDesc(t, q.desc().shape)), gk(TensorDesc(t, k.desc().shape)), gv(TensorDesc(t, v.desc().shape));
    Tensor mask(TensorDesc(ACL_BOOL, {Sq, Skv}));
    std::vector<double> mv(size_t(Sq * Skv));
    for (int64_t i = 0; i < Sq; ++i)
      for (int64_t j = 0; j < Skv; ++j) mv[size_t(i * Skv + j)] = j > i;
    set_values(mask, mv);
    char lay[8];
    std::snprintf(lay, sizeof lay, "%s", layout.c_str());
    const std::string repro = "FlashAttentionScoreGrad " + std::string(dtype_name(t)) + " " + layout + " q" +
                              shape_str(q.desc().shape) + " k" + shape_str(k.desc().shape) + " Nq=" +
                              std::to_string(Nq) + " causal=" + std::to_string(causal);
    const aclnnStatus st = run_two_phase(
        [&](uint64_t* ws, aclOpExecutor** ex) {
          return aclnnFlashAttentionScoreGradGetWorkspaceSize(
              q.get(), k.get(), v.get(), dy.get(), nullptr, nullptr, nullptr, causal ? mask.get() : nullptr, nullptr,
              nullptr, nullptr, nullptr, nullptr, p.scale, 1.0, 65536, 65536, Nq, lay, 0, 0, gq.get(), gk.get(),
              gv.get(), nullptr, ws, ex);
        },
        aclnnFlashAttentionScoreGrad);
    ASSERT_EQ(st, ACLNN_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
    gq.download();
    gk.download();
    gv.download();
    const double tol = t == ACL_FLOAT ? 1e-5 : 1e-2;
    expect_close(repro, "dq", t, values(gq), dq, tol * double(Skv), ones(dq.size()));
    expect_close(repro, "dk", t, values(gk), dk, tol * double(Sq * grp), ones(dk.size()));
    expect_close(repro, "dv", t, values(gv), dv, tol * double(Sq * grp), ones(dv.size()));
  }
}

TEST(PromptFlashAttention, RandomMasksLengthsGqa) {
  Rng rng(13);
  const std::vector<std::string> layouts = {"BSH", "BSND", "BNSD"};
  for (int it = 0; it < 18; ++it) {
    const aclDataType t = kTypes[size_t(it) % kTypes.size()];
    const std::string layout = layouts[size_t(rng() % 3)];
    const int64_t B = 1 + int64_t(rng() % 3), Nkv = 1 + int64_t(rng() % 2), Nq = Nkv * (1 + int64_t(rng() % 2));
    const int64_t Sq = 1 + int64_t(rng() % 6), Skv = 1 + int64_t(rng() % 7), D = 1 + int64_t(rng() % 9);
    Tensor q(random_view(t, lshape(layout, B, Sq, Nq, D), rng));
    Tensor k(random_view(t, lshape(layout, B, Skv, Nkv, D), rng));
    Tensor v(random_view(t, lshape(layout, B, Skv, Nkv, D), rng));
    Problem p = make_problem(rng, layout, q, k, v);
    p.B = B, p.Nq = Nq, p.Nkv = Nkv, p.Sq = Sq, p.Skv = Skv, p.D = D;
    p.scale = 1.0 / std::sqrt(double(D));
    p.pse_inside_scale = false;
    const bool with_mask = rng() % 2, with_len = rng() % 2, with_pse = rng() % 2;
    std::unique_ptr<Tensor> mask, pse;
    std::vector<double> mv;
    if (with_mask) {
      mask.reset(new Tensor(TensorDesc(ACL_BOOL, {B, 1, Sq, Skv})));
      mv = fill_ints(*mask, rng, 0, 1);
    }
    if (with_pse) {
      pse.reset(new Tensor(TensorDesc(t, {1, Nq, Sq, Skv})));
      const std::vector<double> pv = fill_uniform(*pse, rng, -2, 2);
      for (int64_t b = 0; b < B; ++b) p.pse.insert(p.pse.end(), pv.begin(), pv.end());
    }
    std::vector<int64_t> lens;
    if (with_len) {
      for (int64_t b = 0; b < B; ++b) lens.push_back(int64_t(rng() % uint64_t(Sq + 1)));
      p.q_len = lens;
    }
    p.visible = [&](int64_t b, int64_t i, int64_t j) { return mv.empty() || mv[size_t((b * Sq + i) * Skv + j)] == 0; };
    const Ref ref = reference(p);
    Tensor out(TensorDesc(t, lshape(layout, B, Sq, Nq, D)));
    IntArray act(lens);
    char lay[8];
    std::snprintf(lay, sizeof lay, "%s", layout.c_str());
    const std::string repro = "PromptFlashAttention " + std::string(dtype_name(t)) + " " + layout + " q" +
                              q.desc().str() + " k" + k.desc().str() + " Nq=" + std::to_string(Nq) +
                              " Nkv=" + std::to_string(Nkv) + " mask=" + std::to_string(with_mask) +
                              " pse=" + std::to_string(with_pse) + " lens=" + std::to_string(with_len);
    const aclnnStatus st = run_two_phase(
        [&](uint64_t* ws, aclOpExecutor** ex) {
          return aclnnPromptFlashAttentionGetWorkspaceSize(q.get(), k.get(), v.get(), pse ? pse->get() : nullptr,
                                                           mask ? mask->get() : nullptr, with_len ? act.a : nullptr,
                                                           Nq, p.scale, 65536, 65536, lay, Nkv, out.get(), ws, ex);
        },
        aclnnPromptFlashAttention);
    ASSERT_EQ(st, ACLNN_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
    out.download();
    expect_close(repro, "attentionOut", t, values(out), ref.out, tol_of(t) * 4, ones(ref.out.size()));
  }
}

TEST(IncreFlashAttention, DecodeMasksLengthsGqa) {
  Rng rng(14);
  const std::vector<std::string> layouts = {"BSH", "BSND", "BNSD"};
  for (int it = 0; it < 12; ++it) {
    const aclDataType t = kTypes[size_t(it) % kTypes.size()];
    const std::string layout = layouts[size_t(rng() % 3)];
    const int64_t B = 1 + int64_t(rng() % 3), Nkv = 1 + int64_t(rng() % 2), Nq = Nkv * (1 + int64_t(rng() % 2));
    const int64_t Sq = 1, Skv = 1 + int64_t(rng() % 7), D = 1 + int64_t(rng() % 9);
    Tensor q(random_view(t, lshape(layout, B, Sq, Nq, D), rng));
    Tensor k(TensorDesc(t, lshape(layout, B, Skv, Nkv, D)));
    Tensor v(TensorDesc(t, lshape(layout, B, Skv, Nkv, D)));
    Problem p = make_problem(rng, layout, q, k, v);
    p.B = B, p.Nq = Nq, p.Nkv = Nkv, p.Sq = Sq, p.Skv = Skv, p.D = D;
    p.scale = 1.0 / std::sqrt(double(D));
    p.pse_inside_scale = false;
    const bool with_mask = rng() % 2, with_len = rng() % 2;
    std::unique_ptr<Tensor> mask;
    std::vector<double> mv;
    if (with_mask) {
      mask.reset(new Tensor(TensorDesc(ACL_BOOL, {B, Skv})));
      mv = fill_ints(*mask, rng, 0, 1);
    }
    std::vector<int64_t> lens;
    if (with_len) {
      for (int64_t b = 0; b < B; ++b) lens.push_back(int64_t(rng() % uint64_t(Skv + 1)));
      p.kv_len = lens;
    }
    p.visible = [&](int64_t b, int64_t, int64_t j) { return mv.empty() || mv[size_t(b * Skv + j)] == 0; };
    const Ref ref = reference(p);
    Tensor out(TensorDesc(t, lshape(layout, B, Sq, Nq, D)));
    IntArray act(lens);
    TensorList kl({&k}), vl({&v});
    char lay[8];
    std::snprintf(lay, sizeof lay, "%s", layout.c_str());
    const std::string repro = "IncreFlashAttention " + std::string(dtype_name(t)) + " " + layout + " q" +
                              q.desc().str() + " k" + k.desc().str() + " Nq=" + std::to_string(Nq) +
                              " Nkv=" + std::to_string(Nkv) + " mask=" + std::to_string(with_mask) +
                              " lens=" + std::to_string(with_len);
    const aclnnStatus st = run_two_phase(
        [&](uint64_t* ws, aclOpExecutor** ex) {
          return aclnnIncreFlashAttentionGetWorkspaceSize(q.get(), kl.l, vl.l, nullptr, mask ? mask->get() : nullptr,
                                                          with_len ? act.a : nullptr, Nq, p.scale, lay, Nkv,
                                                          out.get(), ws, ex);
        },
        aclnnIncreFlashAttention);
    ASSERT_EQ(st, ACLNN_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
    out.download();
    expect_close(repro, "attentionOut", t, values(out), ref.out, tol_of(t) * 4, ones(ref.out.size()));
  }
}

TEST(FusedInferAttentionScore, PromptWithLse) {
  Rng rng(15);
  const std::vector<std::string> layouts = {"BSH", "BSND", "BNSD"};
  for (int it = 0; it < 12; ++it) {
    const aclDataType t = kTypes[size_t(it) % kTypes.size()];
    const std::string layout = layouts[size_t(rng() % 3)];
    const int64_t B = 1 + int64_t(rng() % 2), Nkv = 1 + int64_t(rng() % 2), Nq = Nkv * (1 + int64_t(rng() % 2));
    const int64_t Sq = 1 + int64_t(rng() % 5), Skv = 1 + int64_t(rng() % 7), D = 1 + int64_t(rng() % 9);
    Tensor q(random_view(t, lshape(layout, B, Sq, Nq, D), rng));
    Tensor k(TensorDesc(t, lshape(layout, B, Skv, Nkv, D)));
    Tensor v(TensorDesc(t, lshape(layout, B, Skv, Nkv, D)));
    Problem p = make_problem(rng, layout, q, k, v);
    p.B = B, p.Nq = Nq, p.Nkv = Nkv, p.Sq = Sq, p.Skv = Skv, p.D = D;
    p.scale = 1.0 / std::sqrt(double(D));
    p.pse_inside_scale = false;
    const bool with_mask = Sq > 1 && rng() % 2;
    std::unique_ptr<Tensor> mask;
    std::vector<double> mv;
    if (with_mask) {
      mask.reset(new Tensor(TensorDesc(ACL_BOOL, {B, 1, Sq, Skv})));
      mv = fill_ints(*mask, rng, 0, 1);
    }
    p.visible = [&](int64_t b, int64_t i, int64_t j) { return mv.empty() || mv[size_t((b * Sq + i) * Skv + j)] == 0; };
    const Ref ref = reference(p);
    Tensor out(TensorDesc(t, lshape(layout, B, Sq, Nq, D))), lse(TensorDesc(ACL_FLOAT, {B, Nq, Sq, 1}));
    TensorList kl({&k}), vl({&v});
    char lay[8];
    std::snprintf(lay, sizeof lay, "%s", layout.c_str());
    const std::string repro = "FusedInferAttentionScore " + std::string(dtype_name(t)) + " " + layout + " q" +
                              q.desc().str() + " k" + k.desc().str() + " Nq=" + std::to_string(Nq) +
                              " Nkv=" + std::to_string(Nkv) + " mask=" + std::to_string(with_mask);
    const aclnnStatus st = run_two_phase(
        [&](uint64_t* ws, aclOpExecutor** ex) {
          return aclnnFusedInferAttentionScoreGetWorkspaceSize(
              q.get(), kl.l, vl.l, nullptr, mask ? mask->get() : nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
              nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, Nq, p.scale, 65536, 65536, lay, Nkv, 0, 0,
              0, 0, true, out.get(), lse.get(), ws, ex);
        },
        aclnnFusedInferAttentionScore);
    ASSERT_EQ(st, ACLNN_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
    out.download();
    lse.download();
    expect_close(repro, "attentionOut", t, values(out), ref.out, tol_of(t) * 4, ones(ref.out.size()));
    std::vector<double> rl;
    for (size_t r = 0; r < ref.mx.size(); ++r)
      rl.push_back(ref.valid[r] ? ref.mx[r] + std::log(ref.sm[r]) : std::numeric_limits<double>::infinity());
    std::vector<double> got = values(lse);
    for (size_t r = 0; r < rl.size(); ++r)
      if (std::isinf(rl[r]) && std::isinf(got[r]) && got[r] > 0) rl[r] = got[r] = 0;  // both +inf
    expect_close(repro, "softmaxLse", ACL_FLOAT, got, rl, t == ACL_FLOAT ? 1e-5 : 1e-6, ones(rl.size()));
  }
}

TEST(Attention, BadInputs) {
  Tensor q(TensorDesc(ACL_FLOAT, {1, 2, 8})), k(TensorDesc(ACL_FLOAT, {1, 3, 8})), v(TensorDesc(ACL_FLOAT, {1, 3, 8}));
  Tensor out(TensorDesc(ACL_FLOAT, {1, 2, 8})), mx(TensorDesc(ACL_FLOAT, {1, 2, 2, 8})),
      sm(TensorDesc(ACL_FLOAT, {1, 2, 2, 8}));
  Tensor kbad(TensorDesc(ACL_FLOAT, {1, 3, 6})), qi(TensorDesc(ACL_INT32, {1, 2, 8}));
  char bsh[] = "BSH", xyz[] = "XYZ";
  auto fas = [&](const aclTensor* qq, const aclTensor* kk, char* lay, int64_t heads, double keep) {
    return [=, &v, &mx, &sm, &out](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnFlashAttentionScoreGetWorkspaceSize(qq, kk, v.get(), nullptr, nullptr, nullptr, nullptr, nullptr,
                                                      0.5, keep, 65536, 65536, heads, lay, 0, 0, mx.get(), sm.get(),
                                                      nullptr, out.get(), ws, ex);
    };
  };
  expect_phase1_error("FAS layout XYZ", ACLNN_ERR_PARAM_INVALID, "inputLayout", fas(q.get(), k.get(), xyz, 2, 1.0));
  expect_phase1_error("FAS heads 3 for H 8", ACLNN_ERR_PARAM_INVALID, "query", fas(q.get(), k.get(), bsh, 3, 1.0));
  expect_phase1_error("FAS key H 6", ACLNN_ERR_PARAM_INVALID, "key", fas(q.get(), kbad.get(), bsh, 2, 1.0));
  expect_phase1_error("FAS keepProb 0", ACLNN_ERR_PARAM_INVALID, "keepProb", fas(q.get(), k.get(), bsh, 2, 0.0));
  expect_phase1_error("FAS int32 query", ACLNN_ERR_PARAM_INVALID, "query", fas(qi.get(), k.get(), bsh, 2, 1.0));
  expect_phase1_error("FAS null query", ACLNN_ERR_PARAM_NULLPTR, "query", fas(nullptr, k.get(), bsh, 2, 1.0));
  // PFA: numKeyValueHeads not dividing numHeads.
  expect_phase1_error("PFA numKeyValueHeads 3", ACLNN_ERR_PARAM_INVALID, "heads", [&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnPromptFlashAttentionGetWorkspaceSize(q.get(), k.get(), v.get(), nullptr, nullptr, nullptr, 2, 0.5,
                                                     65536, 65536, bsh, 3, out.get(), ws, ex);
  });
  // PFA: a mask of the wrong shape.
  Tensor badmask(TensorDesc(ACL_BOOL, {1, 1, 2, 2}));
  expect_phase1_error("PFA mask [1,1,2,2] for Skv 3", ACLNN_ERR_PARAM_INVALID, "attenMask", [&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnPromptFlashAttentionGetWorkspaceSize(q.get(), k.get(), v.get(), nullptr, badmask.get(), nullptr, 2,
                                                     0.5, 65536, 65536, bsh, 2, out.get(), ws, ex);
  });
}

}  // namespace
