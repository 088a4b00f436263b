// MoE token routing ops through the public C API: MoeComputeExpertTokens, MoeTokenPermute,
// MoeTokenUnpermute. References are written independently of the implementation: permute by a
// counting sort over expert ids (stable: ties keep flat order), unpermute by double loops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_moe_compute_expert_tokens.h"
#include "aclnnop/aclnn_moe_finalize_routing.h"
#include "aclnnop/aclnn_moe_gating_top_k_softmax.h"
#include "aclnnop/aclnn_moe_token_permute.h"
#include "aclnnop/aclnn_moe_token_permute_grad.h"
#include "aclnnop/aclnn_moe_token_unpermute.h"
#include "op_test_util.h"

namespace {

using namespace optest;

struct IntArray {
  explicit IntArray(const std::vector<int64_t>& v) : a(aclCreateIntArray(v.data(), v.size())) {}
  ~IntArray() { aclDestroyIntArray(a); }
  aclIntArray* a;
};

// A 2-D view of [r, c], sometimes strided with an offset (rows padded, start shifted).
TensorDesc maybe_strided(Rng& rng, aclDataType t, int64_t r, int64_t c) {
  if (r > 0 && c > 0 && rng() % 2) return TensorDesc(t, {r, c}, {c + 3, 1}, 2);
  return TensorDesc(t, {r, c});
}

// Moderate finite values (products and softmax stay far from overflow in float16).
void fill_moderate(Tensor& t, const Shape& shape, Rng& rng) {
  for_each_index(shape, [&](const Shape& i) {
    t.set(i, Num::real(static_cast<double>(static_cast<int64_t>(rng() % 2001) - 1000) / 250.0));
  });
  t.upload();
}

TEST(MoeComputeExpertTokens, CountsEndOffsets) {
  Rng rng(11);
  for (int iter = 0; iter < 60; ++iter) {
    const int64_t n = static_cast<int64_t>(rng() % 40) + (iter % 10 == 0 ? 0 : 1);
    const int64_t e = static_cast<int64_t>(rng() % 9) + 1;
    TensorDesc sd(ACL_INT32, {n}), od(ACL_INT32, {e});
    const std::string r = "MoeComputeExpertTokens sortedExperts=" + sd.str() + " numExperts=" + std::to_string(e);
    Tensor s(sd), o(od);
    std::vector<int64_t> v(static_cast<size_t>(n));
    for (auto& x : v) x = static_cast<int64_t>(rng() % static_cast<uint64_t>(e + 1));  // e itself: beyond the last expert
    std::sort(v.begin(), v.end());
    for (int64_t i = 0; i < n; ++i) s.set({i}, Num::integer(v[static_cast<size_t>(i)]));
    s.upload();
    o.fill_random(rng);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** ex) {
                return aclnnMoeComputeExpertTokensGetWorkspaceSize(s.get(), e, o.get(), w, ex);
              },
                            aclnnMoeComputeExpertTokens),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    o.download();
    for (int64_t k = 0; k < e; ++k) {
      int64_t want = 0;
      for (int64_t x : v) want += x <= k;
      ASSERT_EQ(o.at({k}).i, want) << r << ": out[" << k << "]";
    }
  }
}

TEST(MoeComputeExpertTokens, BadArguments) {
  Tensor s(TensorDesc(ACL_INT32, {6})), o(TensorDesc(ACL_INT32, {3})), o64(TensorDesc(ACL_INT64, {3}));
  Tensor s2(TensorDesc(ACL_INT32, {2, 3})), sf(TensorDesc(ACL_FLOAT, {6}));
  auto call = [&](aclTensor* a, int64_t e, aclTensor* b) {
    return [=](uint64_t* w, aclOpExecutor** ex) { return aclnnMoeComputeExpertTokensGetWorkspaceSize(a, e, b, w, ex); };
  };
  expect_phase1_error("null sortedExperts", ACLNN_ERR_PARAM_NULLPTR, "sortedExperts", call(nullptr, 3, o.get()));
  expect_phase1_error("null out", ACLNN_ERR_PARAM_NULLPTR, "out", call(s.get(), 3, nullptr));
  expect_phase1_error("numExperts 0", ACLNN_ERR_PARAM_INVALID, "numExperts is 0", call(s.get(), 0, o.get()));
  expect_phase1_error("out shape", ACLNN_ERR_PARAM_INVALID, "out", call(s.get(), 4, o.get()));
  expect_phase1_error("out dtype", ACLNN_ERR_PARAM_INVALID, "out", call(s.get(), 3, o64.get()));
  expect_phase1_error("2-D input", ACLNN_ERR_PARAM_INVALID, "sortedExperts has 2 dims", call(s2.get(), 3, o.get()));
  expect_phase1_error("float input", ACLNN_ERR_PARAM_INVALID, "sortedExperts", call(sf.get(), 3, o.get()));
}

// Stable order of flat entries by expert id (counting sort).
std::vector<int64_t> stable_order(const std::vector<int64_t>& ids, int64_t experts) {
  std::vector<int64_t> order;
  for (int64_t e = 0; e < experts; ++e)
    for (size_t k = 0; k < ids.size(); ++k)
      if (ids[k] == e) order.push_back(static_cast<int64_t>(k));
  return order;
}

TEST(MoeTokenPermute, StableSortTruncationDtypes) {
  Rng rng(12);
  const std::vector<aclDataType> dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8};
  for (int iter = 0; iter < 80; ++iter) {
    const aclDataType dt = dtypes[static_cast<size_t>(iter) % dtypes.size()];
    const aclDataType it = iter % 3 == 0 ? ACL_INT64 : ACL_INT32;
    const int64_t t = static_cast<int64_t>(rng() % 7) + (iter % 17 == 0 ? 0 : 1);
    const int64_t topk = static_cast<int64_t>(rng() % 4) + 1;
    const int64_t h = static_cast<int64_t>(rng() % 6) + 1;
    const int64_t experts = static_cast<int64_t>(rng() % 5) + 1;  // few experts: many ties
    const bool one_d = topk == 1 && rng() % 2;
    const int64_t n = t * topk;
    const int64_t num_out_choices[] = {0, n / 2, n + 3, -1, -(n + 2), 1};
    const int64_t num_out = num_out_choices[rng() % 6];
    const int64_t m = num_out == 0 ? n : num_out > 0 ? std::min(num_out, n) : std::max<int64_t>(n + num_out, 0);
    TensorDesc td = maybe_strided(rng, dt, t, h);
    TensorDesc id = one_d ? TensorDesc(it, {t}) : TensorDesc(it, {t, topk});
    TensorDesc pd(dt, {m, h}), sd(ACL_INT32, {n});
    const std::string r = "MoeTokenPermute tokens=" + td.str() + " indices=" + id.str() +
                          " numOutTokens=" + std::to_string(num_out) + " permuteTokensOut=" + pd.str();
    Tensor tok(td), ind(id), po(pd), so(sd);
    tok.fill_random(rng);
    std::vector<int64_t> ids(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) {
      ids[static_cast<size_t>(k)] = static_cast<int64_t>(rng() % static_cast<uint64_t>(experts));
      if (one_d) ind.set({k}, Num::integer(ids[static_cast<size_t>(k)]));
      else ind.set({k / topk, k % topk}, Num::integer(ids[static_cast<size_t>(k)]));
    }
    ind.upload();
    po.fill_random(rng);
    so.fill_random(rng);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** ex) {
                return aclnnMoeTokenPermuteGetWorkspaceSize(tok.get(), ind.get(), num_out, false, po.get(), so.get(), w, ex);
              },
                            aclnnMoeTokenPermute),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    po.download();
    so.download();
    const std::vector<int64_t> order = stable_order(ids, experts);
    const size_t es = dtype_size(dt);
    for (int64_t q = 0; q < n; ++q)
      ASSERT_EQ(so.at({order[static_cast<size_t>(q)]}).i, q) << r << ": sortedIndicesOut[" << order[static_cast<size_t>(q)] << "]";
    for (int64_t q = 0; q < m; ++q)
      for (int64_t c = 0; c < h; ++c) {
        const int64_t src = order[static_cast<size_t>(q)] / topk;
        ASSERT_EQ(std::memcmp(po.host().data() + pd.storage_index({q, c}) * es,
                              tok.host().data() + td.storage_index({src, c}) * es, es),
                  0)
            << r << ": permuteTokensOut[" << q << ", " << c << "] should be tokens[" << src << ", " << c << "]";
      }
  }
}

TEST(MoeTokenPermute, BadArguments) {
  Tensor tok(TensorDesc(ACL_FLOAT, {3, 4})), ind(TensorDesc(ACL_INT32, {3, 2})), po(TensorDesc(ACL_FLOAT, {6, 4}));
  Tensor so(TensorDesc(ACL_INT32, {6})), ind_rows(TensorDesc(ACL_INT32, {2, 2})), indf(TensorDesc(ACL_FLOAT, {3, 2}));
  Tensor po_h(TensorDesc(ACL_FLOAT16, {6, 4})), po_short(TensorDesc(ACL_FLOAT, {5, 4})), so64(TensorDesc(ACL_INT64, {6}));
  auto call = [&](aclTensor* a, aclTensor* i, int64_t n, bool pad, aclTensor* p, aclTensor* s) {
    return [=](uint64_t* w, aclOpExecutor** ex) { return aclnnMoeTokenPermuteGetWorkspaceSize(a, i, n, pad, p, s, w, ex); };
  };
  expect_phase1_error("null tokens", ACLNN_ERR_PARAM_NULLPTR, "tokens", call(nullptr, ind.get(), 0, false, po.get(), so.get()));
  expect_phase1_error("null indices", ACLNN_ERR_PARAM_NULLPTR, "indices", call(tok.get(), nullptr, 0, false, po.get(), so.get()));
  expect_phase1_error("paddedMode", ACLNN_ERR_PARAM_INVALID, "paddedMode", call(tok.get(), ind.get(), 0, true, po.get(), so.get()));
  expect_phase1_error("indices rows", ACLNN_ERR_PARAM_INVALID, "indices has 2 rows", call(tok.get(), ind_rows.get(), 0, false, po.get(), so.get()));
  expect_phase1_error("indices dtype", ACLNN_ERR_PARAM_INVALID, "indices", call(tok.get(), indf.get(), 0, false, po.get(), so.get()));
  expect_phase1_error("out dtype", ACLNN_ERR_PARAM_INVALID, "dtype of tokens", call(tok.get(), ind.get(), 0, false, po_h.get(), so.get()));
  expect_phase1_error("out rows", ACLNN_ERR_PARAM_INVALID, "permuteTokensOut", call(tok.get(), ind.get(), 0, false, po_short.get(), so.get()));
  expect_phase1_error("sorted dtype", ACLNN_ERR_PARAM_INVALID, "sortedIndicesOut", call(tok.get(), ind.get(), 0, false, po.get(), so64.get()));
}

TEST(MoeTokenUnpermute, WeightedSumsAndDroppedRows) {
  Rng rng(13);
  const std::vector<aclDataType> dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (int iter = 0; iter < 60; ++iter) {
    const aclDataType dt = dtypes[static_cast<size_t>(iter) % dtypes.size()];
    const bool with_probs = iter % 4 != 0;
    const int64_t t = static_cast<int64_t>(rng() % 6) + (iter % 19 == 0 ? 0 : 1);
    const int64_t topk = with_probs ? static_cast<int64_t>(rng() % 4) + 1 : 1;
    const int64_t h = static_cast<int64_t>(rng() % 6) + 1;
    const int64_t n = t * topk;
    const int64_t rows = std::max<int64_t>(n - static_cast<int64_t>(rng() % 3), 0);  // rows >= rows: dropped
    TensorDesc xd = maybe_strided(rng, dt, rows, h), sd(ACL_INT32, {n}), prd = maybe_strided(rng, dt, t, topk);
    TensorDesc od(dt, {t, h});
    const std::string r = "MoeTokenUnpermute permutedTokens=" + xd.str() + " sortedIndices=" + sd.str() +
                          " probs=" + (with_probs ? prd.str() : "null") + " out=" + od.str();
    Tensor x(xd), s(sd), pr(prd), o(od);
    fill_moderate(x, xd.shape, rng);
    fill_moderate(pr, prd.shape, rng);
    std::vector<int64_t> perm(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) perm[static_cast<size_t>(k)] = k;
    std::shuffle(perm.begin(), perm.end(), rng);
    for (int64_t k = 0; k < n; ++k) s.set({k}, Num::integer(perm[static_cast<size_t>(k)]));
    s.upload();
    o.fill_random(rng);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** ex) {
                return aclnnMoeTokenUnpermuteGetWorkspaceSize(x.get(), s.get(), with_probs ? pr.get() : nullptr, false,
                                                              nullptr, o.get(), w, ex);
              },
                            aclnnMoeTokenUnpermute),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    o.download();
    for (int64_t i = 0; i < t; ++i)
      for (int64_t c = 0; c < h; ++c) {
        double want = 0, mag = 0;
        for (int64_t j = 0; j < topk; ++j) {
          const int64_t k = i * topk + j;
          const int64_t row = perm[static_cast<size_t>(k)];
          if (row >= rows) continue;
          const double w = with_probs ? pr.at({i, j}).as_double() : 1.0;
          want += x.at({row, c}).as_double() * w;
          mag += std::fabs(x.at({row, c}).as_double() * w);
        }
        const double tol = (dt == ACL_FLOAT ? 1e-5 : dt == ACL_FLOAT16 ? 2e-3 : 1.6e-2) * (mag + 1e-30);
        ASSERT_NEAR(o.at({i, c}).as_double(), want, tol) << r << ": out[" << i << ", " << c << "]";
      }
  }
}

TEST(MoeTokenUnpermute, BadArguments) {
  Tensor x(TensorDesc(ACL_FLOAT, {6, 4})), s(TensorDesc(ACL_INT32, {6})), pr(TensorDesc(ACL_FLOAT, {3, 2}));
  Tensor o(TensorDesc(ACL_FLOAT, {3, 4})), o_h(TensorDesc(ACL_FLOAT16, {3, 4})), o_bad(TensorDesc(ACL_FLOAT, {2, 4}));
  Tensor pr_bad(TensorDesc(ACL_FLOAT, {2, 2})), s64(TensorDesc(ACL_INT64, {6}));
  IntArray shape({3, 4});
  auto call = [&](aclTensor* a, aclTensor* i, aclTensor* p, bool pad, aclIntArray* rs, aclTensor* out) {
    return [=](uint64_t* w, aclOpExecutor** ex) { return aclnnMoeTokenUnpermuteGetWorkspaceSize(a, i, p, pad, rs, out, w, ex); };
  };
  expect_phase1_error("null permutedTokens", ACLNN_ERR_PARAM_NULLPTR, "permutedTokens", call(nullptr, s.get(), pr.get(), false, nullptr, o.get()));
  expect_phase1_error("null out", ACLNN_ERR_PARAM_NULLPTR, "out", call(x.get(), s.get(), pr.get(), false, nullptr, nullptr));
  expect_phase1_error("paddedMode", ACLNN_ERR_PARAM_INVALID, "paddedMode", call(x.get(), s.get(), pr.get(), true, nullptr, o.get()));
  expect_phase1_error("restoreShape", ACLNN_ERR_PARAM_INVALID, "restoreShapeOptional", call(x.get(), s.get(), pr.get(), false, shape.a, o.get()));
  expect_phase1_error("probs numel", ACLNN_ERR_PARAM_INVALID, "probsOptional has 4 elements", call(x.get(), s.get(), pr_bad.get(), false, nullptr, o.get()));
  expect_phase1_error("out dtype", ACLNN_ERR_PARAM_INVALID, "dtype of permutedTokens", call(x.get(), s.get(), pr.get(), false, nullptr, o_h.get()));
  expect_phase1_error("out shape", ACLNN_ERR_PARAM_INVALID, "out", call(x.get(), s.get(), pr.get(), false, nullptr, o_bad.get()));
  expect_phase1_error("sorted dtype", ACLNN_ERR_PARAM_INVALID, "sortedIndices", call(x.get(), s64.get(), pr.get(), false, nullptr, o.get()));
}

TEST(MoeFinalizeRouting, ScaledGatherPlusBias) {
  Rng rng(14);
  const std::vector<aclDataType> dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (int iter = 0; iter < 45; ++iter) {
    const aclDataType dt = dtypes[static_cast<size_t>(iter) % dtypes.size()];
    const bool with_x2 = iter % 3 != 1;
    const int64_t rows = static_cast<int64_t>(rng() % 5) + 1, k = static_cast<int64_t>(rng() % 3) + 1;
    const int64_t h = static_cast<int64_t>(rng() % 6) + 1, e = static_cast<int64_t>(rng() % 4) + 1;
    const int64_t n = rows * k;
    TensorDesc exd = maybe_strided(rng, dt, n, h), x1d = maybe_strided(rng, dt, rows, h), x2d(dt, {rows, h});
    TensorDesc bd(dt, {e, h}), sd = maybe_strided(rng, dt, rows, k), rd(ACL_INT32, {n}), ed(ACL_INT32, {rows, k});
    TensorDesc od(dt, {rows, h});
    const std::string r = "MoeFinalizeRouting expandedX=" + exd.str() + " x1=" + x1d.str() + " x2=" +
                          (with_x2 ? x2d.str() : "null") + " bias=" + bd.str() + " scales=" + sd.str();
    Tensor ex(exd), x1(x1d), x2(x2d), bias(bd), sc(sd), ri(rd), ei(ed), out(od);
    fill_moderate(ex, exd.shape, rng);
    fill_moderate(x1, x1d.shape, rng);
    fill_moderate(x2, x2d.shape, rng);
    fill_moderate(bias, bd.shape, rng);
    fill_moderate(sc, sd.shape, rng);
    std::vector<int64_t> perm(static_cast<size_t>(n));
    for (int64_t q = 0; q < n; ++q) perm[static_cast<size_t>(q)] = q;
    std::shuffle(perm.begin(), perm.end(), rng);
    for (int64_t q = 0; q < n; ++q) ri.set({q}, Num::integer(perm[static_cast<size_t>(q)]));
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t q = 0; q < k; ++q) ei.set({i, q}, Num::integer(static_cast<int64_t>(rng() % static_cast<uint64_t>(e))));
    ri.upload();
    ei.upload();
    out.fill_random(rng);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** x) {
                return aclnnMoeFinalizeRoutingGetWorkspaceSize(ex.get(), x1.get(), with_x2 ? x2.get() : nullptr, bias.get(),
                                                               sc.get(), ri.get(), ei.get(), out.get(), w, x);
              },
                            aclnnMoeFinalizeRouting),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    out.download();
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < h; ++j) {
        double want = x1.at({i, j}).as_double() + (with_x2 ? x2.at({i, j}).as_double() : 0.0);
        double mag = std::fabs(want);
        for (int64_t q = 0; q < k; ++q) {
          const int64_t row = perm[static_cast<size_t>(i + q * rows)];
          const double term = sc.at({i, q}).as_double() *
                              (ex.at({row, j}).as_double() + bias.at({ei.at({i, q}).i, j}).as_double());
          want += term;
          mag += std::fabs(term);
        }
        const double tol = (dt == ACL_FLOAT ? 1e-5 : dt == ACL_FLOAT16 ? 2e-3 : 1.6e-2) * (mag + 1e-30);
        ASSERT_NEAR(out.at({i, j}).as_double(), want, tol) << r << ": out[" << i << ", " << j << "]";
      }
  }
}

TEST(MoeFinalizeRouting, BadArguments) {
  Tensor ex(TensorDesc(ACL_FLOAT, {6, 4})), x1(TensorDesc(ACL_FLOAT, {3, 4})), bias(TensorDesc(ACL_FLOAT, {2, 4}));
  Tensor sc(TensorDesc(ACL_FLOAT, {3, 2})), ri(TensorDesc(ACL_INT32, {6})), ei(TensorDesc(ACL_INT32, {3, 2}));
  Tensor out(TensorDesc(ACL_FLOAT, {3, 4})), out_h(TensorDesc(ACL_FLOAT16, {3, 4})), ri5(TensorDesc(ACL_INT32, {5}));
  Tensor ex5(TensorDesc(ACL_FLOAT, {6, 5})), ri64(TensorDesc(ACL_INT64, {6}));
  auto call = [&](aclTensor* a, aclTensor* b1, aclTensor* bi, aclTensor* r, aclTensor* o) {
    aclTensor* s = sc.get();
    aclTensor* e = ei.get();
    return [=](uint64_t* w, aclOpExecutor** x) {
      return aclnnMoeFinalizeRoutingGetWorkspaceSize(a, b1, nullptr, bi, s, r, e, o, w, x);
    };
  };
  expect_phase1_error("null expandedX", ACLNN_ERR_PARAM_NULLPTR, "expandedX", call(nullptr, x1.get(), bias.get(), ri.get(), out.get()));
  expect_phase1_error("null bias", ACLNN_ERR_PARAM_NULLPTR, "bias", call(ex.get(), x1.get(), nullptr, ri.get(), out.get()));
  expect_phase1_error("out dtype", ACLNN_ERR_PARAM_INVALID, "out has dtype", call(ex.get(), x1.get(), bias.get(), ri.get(), out_h.get()));
  expect_phase1_error("row idx count", ACLNN_ERR_PARAM_INVALID, "expandedRowIdx has 5 elements", call(ex.get(), x1.get(), bias.get(), ri5.get(), out.get()));
  expect_phase1_error("row idx dtype", ACLNN_ERR_PARAM_INVALID, "expandedRowIdx", call(ex.get(), x1.get(), bias.get(), ri64.get(), out.get()));
  expect_phase1_error("hidden size", ACLNN_ERR_PARAM_INVALID, "expandedX has 5 columns", call(ex5.get(), x1.get(), bias.get(), ri.get(), out.get()));
}

TEST(MoeGatingTopKSoftmax, SoftmaxTopKFinishedRows) {
  Rng rng(15);
  const std::vector<aclDataType> dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (int iter = 0; iter < 45; ++iter) {
    const aclDataType dt = dtypes[static_cast<size_t>(iter) % dtypes.size()];
    const bool three = iter % 4 == 3, with_fin = iter % 2 == 1;
    const int64_t e = static_cast<int64_t>(rng() % 8) + 1, k = static_cast<int64_t>(rng() % static_cast<uint64_t>(e)) + 1;
    const int64_t b0 = static_cast<int64_t>(rng() % 3) + 1, b1 = static_cast<int64_t>(rng() % 5) + (iter % 11 == 0 ? 0 : 1);
    Shape lead = three ? Shape{b0, b1} : Shape{b1};
    Shape xs = lead, os = lead;
    xs.push_back(e);
    os.push_back(k);
    TensorDesc xd(dt, xs);
    if (!three && b1 > 0 && rng() % 2) xd = TensorDesc(dt, xs, {e + 2, 1}, 1);
    const std::string r = "MoeGatingTopKSoftmax x=" + xd.str() + " k=" + std::to_string(k) + (with_fin ? " finished" : "");
    Tensor x(xd), fin(TensorDesc(ACL_BOOL, lead)), y(TensorDesc(dt, os)), idx(TensorDesc(ACL_INT32, os)), row(TensorDesc(ACL_INT32, os));
    fill_moderate(x, xs, rng);
    if (iter % 5 == 0 && numel(xs) > 1) {  // ties: equal logits must keep the lower expert id first
      for_each_index(xs, [&](const Shape& i) { if (i.back() % 2 == 0) x.set(i, Num::real(1.0)); });
      x.upload();
    }
    fin.fill_random(rng);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** ex) {
                return aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(x.get(), with_fin ? fin.get() : nullptr, k, y.get(),
                                                                 idx.get(), row.get(), w, ex);
              },
                            aclnnMoeGatingTopKSoftmax),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    y.download();
    idx.download();
    row.download();
    const int64_t rows = numel(lead);
    int64_t rix = 0;
    for_each_index(lead, [&](const Shape& li) {
      std::vector<double> sm(static_cast<size_t>(e));
      double mx = -HUGE_VAL, sum = 0;
      Shape xi = li;
      xi.push_back(0);
      for (int64_t c = 0; c < e; ++c) { xi.back() = c; mx = std::max(mx, x.at(xi).as_double()); }
      for (int64_t c = 0; c < e; ++c) { xi.back() = c; sum += (sm[static_cast<size_t>(c)] = std::exp(x.at(xi).as_double() - mx)); }
      std::vector<int64_t> ord;
      std::vector<bool> used(static_cast<size_t>(e), false);
      for (int64_t j = 0; j < k; ++j) {  // selection: largest first, lowest id among equals
        int64_t best = -1;
        for (int64_t c = 0; c < e; ++c)
          if (!used[static_cast<size_t>(c)] && (best < 0 || sm[static_cast<size_t>(c)] > sm[static_cast<size_t>(best)])) best = c;
        used[static_cast<size_t>(best)] = true;
        ord.push_back(best);
      }
      const bool done = with_fin && fin.at(li).nonzero();
      Shape oi = li;
      oi.push_back(0);
      for (int64_t j = 0; j < k; ++j) {
        oi.back() = j;
        const double want = sm[static_cast<size_t>(ord[static_cast<size_t>(j)])] / sum;
        const double tol = dt == ACL_FLOAT ? 1e-6 : dt == ACL_FLOAT16 ? 1e-3 : 8e-3;
        ASSERT_NEAR(y.at(oi).as_double(), want, tol) << r << ": yOut" << shape_str(oi);
        ASSERT_EQ(idx.at(oi).i, done ? e : ord[static_cast<size_t>(j)]) << r << ": expertIdxOut" << shape_str(oi);
        ASSERT_EQ(row.at(oi).i, j * rows + rix) << r << ": rowIdxOut" << shape_str(oi);
      }
      ++rix;
    });
    if (HasFailure()) return;
  }
}

TEST(MoeGatingTopKSoftmax, BadArguments) {
  Tensor x(TensorDesc(ACL_FLOAT, {3, 4})), y(TensorDesc(ACL_FLOAT, {3, 2})), i(TensorDesc(ACL_INT32, {3, 2}));
  Tensor rr(TensorDesc(ACL_INT32, {3, 2})), yh(TensorDesc(ACL_FLOAT16, {3, 2})), fin_bad(TensorDesc(ACL_BOOL, {4}));
  Tensor x1(TensorDesc(ACL_FLOAT, {4})), i64(TensorDesc(ACL_INT64, {3, 2}));
  auto call = [&](aclTensor* a, aclTensor* f, int64_t k, aclTensor* yo, aclTensor* io) {
    aclTensor* ro = rr.get();
    return [=](uint64_t* w, aclOpExecutor** ex) { return aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(a, f, k, yo, io, ro, w, ex); };
  };
  expect_phase1_error("null x", ACLNN_ERR_PARAM_NULLPTR, "x", call(nullptr, nullptr, 2, y.get(), i.get()));
  expect_phase1_error("k too large", ACLNN_ERR_PARAM_INVALID, "k is 5", call(x.get(), nullptr, 5, y.get(), i.get()));
  expect_phase1_error("k zero", ACLNN_ERR_PARAM_INVALID, "k is 0", call(x.get(), nullptr, 0, y.get(), i.get()));
  expect_phase1_error("y dtype", ACLNN_ERR_PARAM_INVALID, "yOut has dtype", call(x.get(), nullptr, 2, yh.get(), i.get()));
  expect_phase1_error("idx dtype", ACLNN_ERR_PARAM_INVALID, "expertIdxOut", call(x.get(), nullptr, 2, y.get(), i64.get()));
  expect_phase1_error("finished shape", ACLNN_ERR_PARAM_INVALID, "finishedOptional", call(x.get(), fin_bad.get(), 2, y.get(), i.get()));
  expect_phase1_error("1-D x", ACLNN_ERR_PARAM_INVALID, "x has 1 dims", call(x1.get(), nullptr, 2, y.get(), i.get()));
}

TEST(MoeTokenPermuteGrad, SumsTopKCopies) {
  Rng rng(16);
  const std::vector<aclDataType> dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (int iter = 0; iter < 30; ++iter) {
    const aclDataType dt = dtypes[static_cast<size_t>(iter) % dtypes.size()];
    const int64_t t = static_cast<int64_t>(rng() % 5) + (iter % 13 == 0 ? 0 : 1), topk = static_cast<int64_t>(rng() % 3) + 1;
    const int64_t h = static_cast<int64_t>(rng() % 5) + 1, n = t * topk;
    TensorDesc gd = maybe_strided(rng, dt, n, h), sd(ACL_INT32, {n}), od(dt, {t, h});
    const std::string r = "MoeTokenPermuteGrad permutedOutputGrad=" + gd.str() + " numTopk=" + std::to_string(topk);
    Tensor g(gd), s(sd), o(od);
    fill_moderate(g, gd.shape, rng);
    std::vector<int64_t> perm(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) perm[static_cast<size_t>(k)] = k;
    std::shuffle(perm.begin(), perm.end(), rng);
    for (int64_t k = 0; k < n; ++k) s.set({k}, Num::integer(perm[static_cast<size_t>(k)]));
    s.upload();
    o.fill_random(rng);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** ex) {
                return aclnnMoeTokenPermuteGradGetWorkspaceSize(g.get(), s.get(), topk, false, o.get(), w, ex);
              },
                            aclnnMoeTokenPermuteGrad),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    o.download();
    for (int64_t i = 0; i < t; ++i)
      for (int64_t c = 0; c < h; ++c) {
        double want = 0, mag = 0;
        for (int64_t j = 0; j < topk; ++j) {
          const double v = g.at({perm[static_cast<size_t>(i * topk + j)], c}).as_double();
          want += v;
          mag += std::fabs(v);
        }
        const double tol = (dt == ACL_FLOAT ? 1e-5 : dt == ACL_FLOAT16 ? 2e-3 : 1.6e-2) * (mag + 1e-30);
        ASSERT_NEAR(o.at({i, c}).as_double(), want, tol) << r << ": out[" << i << ", " << c << "]";
      }
  }
}

TEST(MoeTokenPermuteGrad, BadArguments) {
  Tensor g(TensorDesc(ACL_FLOAT, {6, 4})), s(TensorDesc(ACL_INT32, {6})), o(TensorDesc(ACL_FLOAT, {3, 4}));
  Tensor o_bad(TensorDesc(ACL_FLOAT, {2, 4}));
  auto call = [&](aclTensor* a, int64_t k, bool pad, aclTensor* out) {
    aclTensor* si = s.get();
    return [=](uint64_t* w, aclOpExecutor** ex) { return aclnnMoeTokenPermuteGradGetWorkspaceSize(a, si, k, pad, out, w, ex); };
  };
  expect_phase1_error("null grad", ACLNN_ERR_PARAM_NULLPTR, "permutedOutputGrad", call(nullptr, 2, false, o.get()));
  expect_phase1_error("numTopk 0", ACLNN_ERR_PARAM_INVALID, "numTopk is 0", call(g.get(), 0, false, o.get()));
  expect_phase1_error("numTopk not dividing", ACLNN_ERR_PARAM_INVALID, "multiple of numTopk", call(g.get(), 4, false, o.get()));
  expect_phase1_error("paddedMode", ACLNN_ERR_PARAM_INVALID, "paddedMode", call(g.get(), 2, true, o.get()));
  expect_phase1_error("out shape", ACLNN_ERR_PARAM_INVALID, "out", call(g.get(), 2, false, o_bad.get()));
}

}  // namespace
