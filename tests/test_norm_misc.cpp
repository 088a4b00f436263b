// The remaining softmax / norm ops through the public C API, against double-precision loops over
// the host copies: SoftmaxCrossEntropyWithLogits, MaskedSoftmaxWithRelPosBias, AdaLayerNorm(V2),
// AdaLayerNormBackward, AddRmsNormCast, Renorm / InplaceRenorm, EmbeddingRenorm.
#include <gtest/gtest.h>

#include <memory>
#include <set>

#include "aclnnop/aclnn_ada_layer_norm.h"
#include "aclnnop/aclnn_ada_layer_norm_backward.h"
#include "aclnnop/aclnn_ada_layer_norm_v2.h"
#include "aclnnop/aclnn_add_rms_norm_cast.h"
#include "aclnnop/aclnn_embedding_renorm.h"
#include "aclnnop/aclnn_masked_softmax_with_rel_pos_bias.h"
#include "aclnnop/aclnn_renorm.h"
#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"
#include "norm_test_util.h"

namespace {

using namespace normtest;
const std::vector<aclDataType> kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

std::unique_ptr<Tensor> filled(Rng& rng, const TensorDesc& d, double lo, double hi) {
  auto t = std::make_unique<Tensor>(d);
  fill_uniform(*t, rng, lo, hi);
  return t;
}

TEST(SoftmaxCrossEntropyWithLogits, RandomShapesDtypes) {
  Rng rng(seed(61));
  for (int it = 0; it < 24; ++it) {
    const aclDataType t = kTypes[static_cast<size_t>(it) % 4];
    const int64_t B = static_cast<int64_t>(rng() % 6) + 1, K = it % 5 == 0 ? 90 : static_cast<int64_t>(rng() % 9) + 1;
    const std::string r = "SoftmaxCrossEntropyWithLogits features=" + TensorDesc(t, {B, K}).str();
    auto x = filled(rng, random_view(rng, t, {B, K}), -6, 6), y = filled(rng, random_view(rng, t, {B, K}), 0, 1);
    auto loss = filled(rng, TensorDesc(t, {B}), 0, 1), bp = filled(rng, random_view(rng, t, {B, K}), 0, 1);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(x->get(), y->get(), loss->get(), bp->get(), w, e);
              }, aclnnSoftmaxCrossEntropyWithLogits),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    const auto xv = dense_values(*x), yv = dense_values(*y);
    std::vector<double> lr(static_cast<size_t>(B)), ls(lr.size()), br(xv.size()), bs(xv.size());
    for (int64_t b = 0; b < B; ++b) {
      double m = -HUGE_VAL, s = 0;
      for (int64_t k = 0; k < K; ++k) m = std::max(m, xv[static_cast<size_t>(b * K + k)]);
      for (int64_t k = 0; k < K; ++k) s += std::exp(xv[static_cast<size_t>(b * K + k)] - m);
      for (int64_t k = 0; k < K; ++k) {
        const size_t i = static_cast<size_t>(b * K + k);
        const double lsm = xv[i] - m - std::log(s);
        lr[static_cast<size_t>(b)] -= yv[i] * lsm;
        ls[static_cast<size_t>(b)] += std::fabs(yv[i]) * (std::fabs(lsm) + std::fabs(xv[i]) + std::fabs(m) + 1);
        br[i] = std::exp(lsm) - yv[i];
        bs[i] = std::exp(lsm) * (1 + std::fabs(xv[i] - m)) + std::fabs(yv[i]);
      }
    }
    loss->download();
    bp->download();
    expect_close(r, "loss", *loss, lr, ls, {compute_of(t), t}, 4);
    expect_close(r, "backprop", *bp, br, bs, {compute_of(t), t}, 4);
    if (HasFailure()) return;
  }
}

TEST(MaskedSoftmaxWithRelPosBias, RandomShapesMasksDtypes) {
  Rng rng(seed(62));
  for (int it = 0; it < 24; ++it) {
    const aclDataType t = kTypes[static_cast<size_t>(it) % 4];
    const int64_t B = static_cast<int64_t>(rng() % 2) + 1, W = static_cast<int64_t>(rng() % 3) + 1,
                  N = static_cast<int64_t>(rng() % 3) + 1, S1 = static_cast<int64_t>(rng() % 3) + 1,
                  S2 = it % 6 == 0 ? 40 : static_cast<int64_t>(rng() % 7) + 1;
    const bool five = it % 2 == 0, with_mask = it % 3 != 2;
    const Shape xs = five ? Shape{B, W, N, S1, S2} : Shape{B * W, N, S1, S2};
    const double scale = std::vector<double>{1.0, 0.125, 2.0}[rng() % 3];
    const std::string r = "MaskedSoftmaxWithRelPosBias x=" + TensorDesc(t, xs).str() + (with_mask ? " mask" : " no mask") +
                          " scale=" + std::to_string(scale);
    auto x = filled(rng, random_view(rng, t, xs), -3, 3), out = filled(rng, random_view(rng, t, xs), 0, 1);
    auto mask = filled(rng, TensorDesc(t, five ? Shape{1, W, 1, S1, S2} : Shape{W, S1, S2}), -4, 0);
    auto bias = filled(rng, TensorDesc(t, five ? Shape{1, 1, N, S1, S2} : Shape{N, S1, S2}), -2, 2);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnMaskedSoftmaxWithRelPosBiasGetWorkspaceSize(x->get(), with_mask ? mask->get() : nullptr,
                                                                        bias->get(), scale, 0, out->get(), w, e);
              }, aclnnMaskedSoftmaxWithRelPosBias),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    const auto xv = dense_values(*x), mv = dense_values(*mask), bv = dense_values(*bias);
    std::vector<double> ref(xv.size()), sc(xv.size());
    for (int64_t row = 0; row < B * W * N * S1; ++row) {
      const int64_t s1 = row % S1, n = (row / S1) % N, w = (row / (S1 * N)) % W;
      std::vector<double> z(static_cast<size_t>(S2));
      double m = -HUGE_VAL, s = 0;
      for (int64_t j = 0; j < S2; ++j) {
        z[static_cast<size_t>(j)] = scale * xv[static_cast<size_t>(row * S2 + j)] +
                                    (with_mask ? mv[static_cast<size_t>((w * S1 + s1) * S2 + j)] : 0) +
                                    bv[static_cast<size_t>((n * S1 + s1) * S2 + j)];
        m = std::max(m, z[static_cast<size_t>(j)]);
      }
      for (double v : z) s += std::exp(v - m);
      for (int64_t j = 0; j < S2; ++j) {
        const size_t i = static_cast<size_t>(row * S2 + j);
        ref[i] = std::exp(z[static_cast<size_t>(j)] - m) / s;
        sc[i] = ref[i] * (1 + std::fabs(z[static_cast<size_t>(j)] - m)) * 2;
      }
    }
    out->download();
    expect_close(r, "out", *out, ref, sc, {compute_of(t), t}, 4);
    if (HasFailure()) return;
  }
}

// ---- AdaLayerNorm (V2) and its backward --------------------------------------------------------------

TEST(AdaLayerNorm, RandomShapesDtypesBothVersions) {
  Rng rng(seed(63));
  for (int it = 0; it < 32; ++it) {
    const aclDataType t = kTypes[static_cast<size_t>(it) % 4];
    const bool v2 = it % 2 == 1;
    Shape xs;
    const int nb = static_cast<int>(rng() % 3);
    for (int k = 0; k < nb; ++k) xs.push_back(static_cast<int64_t>(rng() % 3) + 1);
    xs.push_back(static_cast<int64_t>(rng() % 4) + 1);                             // S
    xs.push_back(it % 5 == 0 ? 70 : static_cast<int64_t>(rng() % 9) + 1);          // H
    const int64_t H = xs.back(), S = xs[xs.size() - 2];
    Shape ss(xs.begin(), xs.end() - 2);
    if (rng() % 2) ss.push_back(1);
    ss.push_back(H);
    const bool with_w = rng() % 4 != 0, with_b = rng() % 4 != 0;
    const aclDataType pt = v2 && rng() % 2 ? ACL_FLOAT : t;
    const std::string r = std::string(v2 ? "AdaLayerNormV2" : "AdaLayerNorm") + " x=" + TensorDesc(t, xs).str() +
                          " scale=" + TensorDesc(t, ss).str() + (with_w ? " weight" : "") + (with_b ? " bias" : "");
    auto x = filled(rng, random_view(rng, t, xs), -3, 3), sc = filled(rng, TensorDesc(t, ss), -1, 1);
    auto sh = filled(rng, TensorDesc(t, ss), -1, 1), w = filled(rng, TensorDesc(pt, {H}), -2, 2);
    auto b = filled(rng, TensorDesc(pt, {H}), -1, 1), y = filled(rng, random_view(rng, t, xs), 0, 1);
    Shape ms(xs.begin(), xs.end() - 1);
    ms.push_back(1);
    auto mean = filled(rng, TensorDesc(t, ms), 0, 1), rstd = filled(rng, TensorDesc(ACL_FLOAT, ms), 0, 1);
    const double eps = 1e-5;
    ASSERT_EQ(run_two_phase(
                  [&](uint64_t* ws, aclOpExecutor** e) {
                    aclTensor* wt = with_w ? w->get() : nullptr;
                    aclTensor* bt = with_b ? b->get() : nullptr;
                    if (v2)
                      return aclnnAdaLayerNormV2GetWorkspaceSize(x->get(), sc->get(), sh->get(), wt, bt, eps, y->get(),
                                                                 mean->get(), rstd->get(), ws, e);
                    return aclnnAdaLayerNormGetWorkspaceSize(x->get(), sc->get(), sh->get(), wt, bt, eps, y->get(), ws, e);
                  },
                  v2 ? aclnnAdaLayerNormV2 : aclnnAdaLayerNorm),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    const auto xv = dense_values(*x), scv = dense_values(*sc), shv = dense_values(*sh), wv = dense_values(*w),
               bv = dense_values(*b);
    const int64_t rows = numel(xs) / H;
    std::vector<double> yr(xv.size()), ys(xv.size()), mr, mss, rr, rs;
    for (int64_t row = 0; row < rows; ++row) {
      double m = 0, v = 0, ma = 0;
      for (int64_t j = 0; j < H; ++j) m += xv[static_cast<size_t>(row * H + j)] / static_cast<double>(H);
      for (int64_t j = 0; j < H; ++j) {
        v += std::pow(xv[static_cast<size_t>(row * H + j)] - m, 2) / static_cast<double>(H);
        ma += std::fabs(xv[static_cast<size_t>(row * H + j)]) / static_cast<double>(H);
      }
      const double is = 1 / std::sqrt(v + eps);
      mr.push_back(m);
      mss.push_back(ma);
      rr.push_back(is);
      rs.push_back(is * (1 + std::sqrt(static_cast<double>(H))));
      const int64_t bt = row / S;
      for (int64_t j = 0; j < H; ++j) {
        const size_t i = static_cast<size_t>(row * H + j), p = static_cast<size_t>(bt * H + j), jj = static_cast<size_t>(j);
        const double wj = with_w ? wv[jj] : 1, bj = with_b ? bv[jj] : 0;
        const double ln = (xv[i] - m) * is * wj + bj;
        yr[i] = ln * (1 + scv[p]) + shv[p];
        ys[i] = ((std::fabs(xv[i]) + std::fabs(m)) * is * std::fabs(wj) + std::fabs(bj)) * (1 + std::fabs(scv[p])) * 2 +
                std::fabs(shv[p]);
      }
    }
    y->download();
    expect_close(r, "out", *y, yr, ys, {compute_of(t), t, pt}, 4);
    if (v2) {
      mean->download();
      rstd->download();
      expect_close(r, "mean", *mean, mr, mss, {compute_of(t), t});
      expect_close(r, "rstd", *rstd, rr, rs, {compute_of(t), ACL_FLOAT});
    }
    if (HasFailure()) return;
  }
}

TEST(AdaLayerNormBackward, RandomShapesDtypesOutputs) {
  Rng rng(seed(64));
  for (int it = 0; it < 32; ++it) {
    const aclDataType t = kTypes[static_cast<size_t>(it) % 4];
    Shape xs;
    const int nb = static_cast<int>(rng() % 3);
    for (int k = 0; k < nb; ++k) xs.push_back(static_cast<int64_t>(rng() % 3) + 1);
    xs.push_back(static_cast<int64_t>(rng() % 4) + 1);
    xs.push_back(it % 5 == 0 ? 50 : static_cast<int64_t>(rng() % 9) + 1);
    const int64_t H = xs.back(), S = xs[xs.size() - 2], rows = numel(xs) / H;
    Shape ss(xs.begin(), xs.end() - 2);
    ss.push_back(H);
    Shape ms(xs.begin(), xs.end() - 1);
    ms.push_back(1);
    const bool with_w = rng() % 4 != 0, with_b = rng() % 3 != 0;
    const aclDataType pt = rng() % 2 ? ACL_FLOAT : t;
    const bool want[5] = {rng() % 4 != 0, rng() % 3 != 0, rng() % 3 != 0, rng() % 3 != 0, rng() % 3 != 0};
    const std::string r = "AdaLayerNormBackward x=" + TensorDesc(t, xs).str() + (with_w ? " weight" : "") +
                          (with_b ? " bias" : "") + " outputs=" + std::to_string(want[0]) + std::to_string(want[1]) +
                          std::to_string(want[2]) + std::to_string(want[3]) + std::to_string(want[4]);
    auto dy = filled(rng, random_view(rng, t, xs), -2, 2), x = filled(rng, random_view(rng, t, xs), -3, 3);
    auto mean = filled(rng, TensorDesc(t, ms), -1, 1), rstd = filled(rng, TensorDesc(t, ms), 0.25, 2);
    auto sc = filled(rng, TensorDesc(t, ss), -1, 1), sh = filled(rng, TensorDesc(t, ss), -1, 1);
    auto w = filled(rng, TensorDesc(pt, {H}), -2, 2), b = filled(rng, TensorDesc(pt, {H}), -1, 1);
    auto dx = filled(rng, random_view(rng, t, xs), 0, 1), dsc = filled(rng, TensorDesc(t, ss), 0, 1);
    auto dsh = filled(rng, TensorDesc(t, ss), 0, 1), dw = filled(rng, TensorDesc(pt, {H}), 0, 1);
    auto db = filled(rng, TensorDesc(pt, {H}), 0, 1);
    IntArray ns({H});
    ASSERT_EQ(run_two_phase([&](uint64_t* ws, aclOpExecutor** e) {
                return aclnnAdaLayerNormBackwardGetWorkspaceSize(
                    dy->get(), x->get(), ns.a, rstd->get(), mean->get(), sc->get(), sh->get(), with_w ? w->get() : nullptr,
                    with_b ? b->get() : nullptr, want[0] ? dx->get() : nullptr, want[1] ? dsc->get() : nullptr,
                    want[2] ? dsh->get() : nullptr, want[3] ? dw->get() : nullptr, want[4] ? db->get() : nullptr, ws, e);
              }, aclnnAdaLayerNormBackward),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    const auto dyv = dense_values(*dy), xv = dense_values(*x), mv = dense_values(*mean), rv = dense_values(*rstd),
               scv = dense_values(*sc), wv = dense_values(*w), bv = dense_values(*b);
    std::vector<double> dxr(xv.size()), dxs(xv.size()), dscr(scv.size()), dscs(scv.size()), dshr(scv.size()),
        dshs(scv.size()), dwr(static_cast<size_t>(H)), dws(dwr.size()), dbr(dwr.size()), dbs(dwr.size());
    for (int64_t row = 0; row < rows; ++row) {
      const double m = mv[static_cast<size_t>(row)], rs = rv[static_cast<size_t>(row)];
      const int64_t bt = row / S;
      double A = 0, B = 0, As = 0, Bs = 0;
      std::vector<double> d(static_cast<size_t>(H)), ds(d.size()), xh(d.size()), xhs(d.size());
      for (int64_t j = 0; j < H; ++j) {
        const size_t i = static_cast<size_t>(row * H + j), p = static_cast<size_t>(bt * H + j), jj = static_cast<size_t>(j);
        const double wj = with_w ? wv[jj] : 1, bj = with_b ? bv[jj] : 0;
        xh[jj] = (xv[i] - m) * rs;
        xhs[jj] = (std::fabs(xv[i]) + std::fabs(m)) * rs;
        d[jj] = dyv[i] * (1 + scv[p]);
        ds[jj] = std::fabs(dyv[i]) * (1 + std::fabs(scv[p]));
        A += d[jj] * wj;
        As += ds[jj] * std::fabs(wj);
        B += d[jj] * wj * xh[jj];
        Bs += ds[jj] * std::fabs(wj) * xhs[jj];
        dscr[p] += dyv[i] * (xh[jj] * wj + bj);
        dscs[p] += std::fabs(dyv[i]) * (xhs[jj] * std::fabs(wj) + std::fabs(bj));
        dshr[p] += dyv[i];
        dshs[p] += std::fabs(dyv[i]);
        dwr[jj] += d[jj] * xh[jj];
        dws[jj] += ds[jj] * xhs[jj];
        dbr[jj] += d[jj];
        dbs[jj] += ds[jj];
      }
      for (int64_t j = 0; j < H; ++j) {
        const size_t i = static_cast<size_t>(row * H + j), jj = static_cast<size_t>(j);
        const double wj = with_w ? wv[jj] : 1;
        dxr[i] = rs * (d[jj] * wj - (A + xh[jj] * B) / static_cast<double>(H));
        dxs[i] = rs * (ds[jj] * std::fabs(wj) + (As + xhs[jj] * Bs) / static_cast<double>(H));
      }
    }
    const aclDataType ct = compute_of(t);
    Tensor* outs[5] = {dx.get(), dsc.get(), dsh.get(), dw.get(), db.get()};
    const std::vector<double>* refs[5][2] = {{&dxr, &dxs}, {&dscr, &dscs}, {&dshr, &dshs}, {&dwr, &dws}, {&dbr, &dbs}};
    const char* names[5] = {"gradInput", "gradScale", "gradShift", "gradWeight", "gradBias"};
    for (int k = 0; k < 5; ++k) {
      if (!want[k]) continue;
      outs[k]->download();
      expect_close(r, names[k], *outs[k], *refs[k][0], *refs[k][1], {ct, t, pt}, 4);
    }
    if (HasFailure()) return;
  }
}

TEST(AddRmsNormCast, RandomShapes) {
  Rng rng(seed(65));
  for (int it = 0; it < 24; ++it) {
    const aclDataType t = it % 2 ? ACL_BF16 : ACL_FLOAT16;
    const Shape xs = {static_cast<int64_t>(rng() % 4) + 1, it % 4 == 0 ? 100 : static_cast<int64_t>(rng() % 12) + 1};
    const std::string r = "AddRmsNormCast x1=" + TensorDesc(t, xs).str();
    auto x1 = filled(rng, random_view(rng, t, xs), -3, 3), x2 = filled(rng, random_view(rng, t, xs), -3, 3);
    auto g = filled(rng, TensorDesc(t, {xs[1]}), -2, 2), y1 = filled(rng, TensorDesc(ACL_FLOAT, xs), 0, 1);
    auto y2 = filled(rng, random_view(rng, t, xs), 0, 1), rstd = filled(rng, TensorDesc(ACL_FLOAT, {xs[0], 1}), 0, 1);
    auto xo = filled(rng, TensorDesc(t, xs), 0, 1);
    ASSERT_EQ(run_two_phase([&](uint64_t* ws, aclOpExecutor** e) {
                return aclnnAddRmsNormCastGetWorkspaceSize(x1->get(), x2->get(), g->get(), 1e-6, y1->get(), y2->get(),
                                                           rstd->get(), xo->get(), ws, e);
              }, aclnnAddRmsNormCast),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    const auto a = dense_values(*x1), b = dense_values(*x2), gv = dense_values(*g);
    std::vector<double> yr(a.size()), ys(a.size()), xr(a.size()), xsc(a.size()), rr, rsc;
    for (int64_t row = 0; row < xs[0]; ++row) {
      double ms = 0;
      for (int64_t j = 0; j < xs[1]; ++j) {
        const size_t i = static_cast<size_t>(row * xs[1] + j);
        xr[i] = a[i] + b[i];  // not rounded (AddRmsNormCast)
        xsc[i] = std::fabs(a[i]) + std::fabs(b[i]);
        ms += xr[i] * xr[i] / static_cast<double>(xs[1]);
      }
      const double rs = 1 / std::sqrt(ms + 1e-6);
      rr.push_back(rs);
      rsc.push_back(rs * 4);
      for (int64_t j = 0; j < xs[1]; ++j) {
        const size_t i = static_cast<size_t>(row * xs[1] + j);
        yr[i] = xr[i] * rs * gv[static_cast<size_t>(j)];
        ys[i] = xsc[i] * rs * std::fabs(gv[static_cast<size_t>(j)]) * 2;
      }
    }
    for (auto* p : {y1.get(), y2.get(), rstd.get(), xo.get()}) p->download();
    expect_close(r, "y1Out", *y1, yr, ys, {ACL_FLOAT}, 4);
    expect_close(r, "y2Out", *y2, yr, ys, {ACL_FLOAT, t}, 4);
    expect_close(r, "rstdOut", *rstd, rr, rsc, {ACL_FLOAT});
    expect_close(r, "xOut", *xo, xr, xsc, {ACL_FLOAT, t});
    if (HasFailure()) return;
  }
}

// ---- Renorm / InplaceRenorm / EmbeddingRenorm ------------------------------------------------------

double p_norm(const std::vector<double>& v, double p) {
  double a = 0;
  for (double x : v) {
    if (p == 0) a += x != 0;
    else if (std::isinf(p)) a = std::max(a, std::fabs(x));
    else a += std::pow(std::fabs(x), p);
  }
  return (p == 0 || std::isinf(p)) ? a : std::pow(a, 1 / p);
}

TEST(Renorm, RandomShapesDimsNormsDtypes) {
  Rng rng(seed(66));
  for (int it = 0; it < 40; ++it) {
    const aclDataType t = kTypes[static_cast<size_t>(it) % 4];
    const int rank = 2 + static_cast<int>(rng() % 3);
    Shape s(static_cast<size_t>(rank));
    for (auto& v : s) v = static_cast<int64_t>(rng() % 4) + 1;
    const int64_t dim = static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * rank)) - rank, d = (dim + rank) % rank;
    const double p = std::vector<double>{0, 1, 2, 3.5, HUGE_VAL}[rng() % 5];
    const bool inplace = it % 3 == 0;
    auto x = filled(rng, random_view(rng, t, s), -3, 3);
    auto out = filled(rng, random_view(rng, t, s), 0, 1);
    const auto xv = dense_values(*x);
    // maxNorm about the middle of the slice norms, so both branches are taken.
    int64_t outer = 1, n = s[static_cast<size_t>(d)], inner = 1;
    for (int k = 0; k < rank; ++k) (k < d ? outer : k > d ? inner : n) *= k == d ? 1 : s[static_cast<size_t>(k)];
    std::vector<double> norms(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      std::vector<double> sl;
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t j = 0; j < inner; ++j) sl.push_back(xv[static_cast<size_t>((o * n + i) * inner + j)]);
      norms[static_cast<size_t>(i)] = p_norm(sl, p);
    }
    std::vector<double> sorted = norms;
    std::sort(sorted.begin(), sorted.end());
    const float maxn = static_cast<float>(sorted[sorted.size() / 2] * 0.999);
    const float pf = static_cast<float>(p);
    const char* pname = std::isinf(p) ? "inf" : nullptr;
    const std::string r = std::string(inplace ? "InplaceRenorm" : "Renorm") + " self=" + x->desc().str() +
                          " p=" + (pname ? pname : std::to_string(p)) + " dim=" + std::to_string(dim) +
                          " maxNorm=" + std::to_string(maxn);
    aclScalar* ps = aclCreateScalar(const_cast<float*>(&pf), ACL_FLOAT);
    aclScalar* ms = aclCreateScalar(const_cast<float*>(&maxn), ACL_FLOAT);
    const aclnnStatus st = inplace ? run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
      return aclnnInplaceRenormGetWorkspaceSize(x->get(), ps, dim, ms, w, e);
    }, aclnnInplaceRenorm)
                                   : run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                                       return aclnnRenormGetWorkspaceSize(x->get(), ps, dim, ms, out->get(), w, e);
                                     }, aclnnRenorm);
    aclDestroyScalar(ps);
    aclDestroyScalar(ms);
    ASSERT_EQ(st, ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
    std::vector<double> ref(xv.size()), sc(xv.size());
    for (size_t k = 0; k < xv.size(); ++k) {
      const size_t i = static_cast<size_t>((static_cast<int64_t>(k) / inner) % n);
      const double nm = norms[i];
      const double f = nm > maxn ? maxn / (nm + 1e-7) : 1.0;
      ref[k] = xv[k] * f;
      sc[k] = std::fabs(xv[k]) * f * 4;
    }
    Tensor& res = inplace ? *x : *out;
    res.download();
    expect_close(r, "out", res, ref, sc, {compute_of(t), t}, 4);
    if (HasFailure()) return;
  }
}

TEST(EmbeddingRenorm, RowsNamedByIndices) {
  Rng rng(seed(67));
  for (int it = 0; it < 16; ++it) {
    const aclDataType t = kTypes[static_cast<size_t>(it) % 4];
    const int64_t V = static_cast<int64_t>(rng() % 6) + 2, D = static_cast<int64_t>(rng() % 7) + 1;
    const Shape is = it % 2 ? Shape{static_cast<int64_t>(rng() % 5) + 1} : Shape{2, 3};
    auto x = filled(rng, random_view(rng, t, {V, D}), -3, 3);
    Tensor idx(TensorDesc(it % 3 ? ACL_INT64 : ACL_INT32, is));
    std::set<int64_t> named;
    for_each_index(is, [&](const Shape& i) {
      const int64_t v = static_cast<int64_t>(rng() % static_cast<uint64_t>(V));
      idx.set(i, Num::integer(v));
      named.insert(v);
    });
    idx.upload();
    const double p = std::vector<double>{1, 2, 3}[rng() % 3], maxn = 2.0;
    const std::string r = "EmbeddingRenorm selfRef=" + x->desc().str() + " indices=" + idx.desc().str() +
                          " normType=" + std::to_string(p);
    const auto xv = dense_values(*x);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnEmbeddingRenormGetWorkspaceSize(x->get(), idx.get(), maxn, p, w, e);
              }, aclnnEmbeddingRenorm),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    std::vector<double> ref = xv, sc(xv.size());
    for (int64_t v = 0; v < V; ++v) {
      std::vector<double> row(xv.begin() + v * D, xv.begin() + (v + 1) * D);
      const double nm = p_norm(row, p);
      const double f = named.count(v) && nm > maxn ? maxn / (nm + 1e-7) : 1.0;
      for (int64_t j = 0; j < D; ++j) {
        ref[static_cast<size_t>(v * D + j)] *= f;
        sc[static_cast<size_t>(v * D + j)] = std::fabs(ref[static_cast<size_t>(v * D + j)]) * 4;
      }
    }
    x->download();
    expect_close(r, "selfRef", *x, ref, sc, {compute_of(t), t}, 4);
    if (HasFailure()) return;
  }
}

TEST(NormMisc, BadArguments) {
  Tensor x(TensorDesc(ACL_FLOAT, {2, 3})), x3(TensorDesc(ACL_FLOAT, {2, 3, 4})), l(TensorDesc(ACL_FLOAT, {2}));
  Tensor l3(TensorDesc(ACL_FLOAT, {3})), x16(TensorDesc(ACL_FLOAT16, {2, 3})), idxf(TensorDesc(ACL_FLOAT, {2}));
  expect_phase1_error("xent labels dtype", ACLNN_ERR_PARAM_INVALID, "labels has dtype float16", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(x.get(), x16.get(), l.get(), x.get(), w, e);
  });
  expect_phase1_error("xent loss shape", ACLNN_ERR_PARAM_INVALID, "loss has shape [3]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(x.get(), x.get(), l3.get(), x.get(), w, e);
  });
  expect_phase1_error("xent rank", ACLNN_ERR_PARAM_INVALID, "features has 3 dims", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(x3.get(), x3.get(), l.get(), x3.get(), w, e);
  });
  expect_phase1_error("masked softmax rank", ACLNN_ERR_PARAM_INVALID, "x has 2 dims", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnMaskedSoftmaxWithRelPosBiasGetWorkspaceSize(x.get(), nullptr, x.get(), 1.0, 0, x.get(), w, e);
  });
  expect_phase1_error("masked softmax null bias", ACLNN_ERR_PARAM_NULLPTR, "relativePosBias", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnMaskedSoftmaxWithRelPosBiasGetWorkspaceSize(x.get(), nullptr, nullptr, 1.0, 0, x.get(), w, e);
  });
  float pneg = -1, one = 1;
  aclScalar* pn = aclCreateScalar(&pneg, ACL_FLOAT);
  aclScalar* p1 = aclCreateScalar(&one, ACL_FLOAT);
  expect_phase1_error("renorm p", ACLNN_ERR_PARAM_INVALID, "p is -1", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnRenormGetWorkspaceSize(x.get(), pn, 0, p1, x.get(), w, e);
  });
  expect_phase1_error("renorm maxNorm", ACLNN_ERR_PARAM_INVALID, "maxNorm is -1", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnRenormGetWorkspaceSize(x.get(), p1, 0, pn, x.get(), w, e);
  });
  expect_phase1_error("renorm dim", ACLNN_ERR_PARAM_INVALID, "dim is 2", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnRenormGetWorkspaceSize(x.get(), p1, 2, p1, x.get(), w, e);
  });
  expect_phase1_error("renorm rank", ACLNN_ERR_PARAM_INVALID, "self has 1 dims", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnRenormGetWorkspaceSize(l.get(), p1, 0, p1, l.get(), w, e);
  });
  expect_phase1_error("renorm out dtype", ACLNN_ERR_PARAM_INVALID, "out has dtype float16", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnRenormGetWorkspaceSize(x.get(), p1, 0, p1, x16.get(), w, e);
  });
  expect_phase1_error("renorm null p", ACLNN_ERR_PARAM_NULLPTR, "p", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnInplaceRenormGetWorkspaceSize(x.get(), nullptr, 0, p1, w, e);
  });
  aclDestroyScalar(pn);
  aclDestroyScalar(p1);
  expect_phase1_error("embedding indices dtype", ACLNN_ERR_PARAM_INVALID, "indices dtype float32", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnEmbeddingRenormGetWorkspaceSize(x.get(), idxf.get(), 1.0, 2.0, w, e);
  });
  expect_phase1_error("embedding rank", ACLNN_ERR_PARAM_INVALID, "selfRef has 3 dims", [&](uint64_t* w, aclOpExecutor** e) {
    Tensor idx(TensorDesc(ACL_INT64, {2}));
    return aclnnEmbeddingRenormGetWorkspaceSize(x3.get(), idx.get(), 1.0, 2.0, w, e);
  });
  expect_phase1_error("ada scale shape", ACLNN_ERR_PARAM_INVALID, "scale has shape [2, 3]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnAdaLayerNormGetWorkspaceSize(x3.get(), x.get(), x.get(), nullptr, nullptr, 1e-5, x3.get(), w, e);
  });
  expect_phase1_error("ada backward normalizedShape", ACLNN_ERR_PARAM_INVALID, "normalizedShape is [3]",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        IntArray ns({3});
                        return aclnnAdaLayerNormBackwardGetWorkspaceSize(x3.get(), x3.get(), ns.a, x3.get(), x3.get(), x.get(),
                                                                         x.get(), nullptr, nullptr, x3.get(), nullptr, nullptr,
                                                                         nullptr, nullptr, w, e);
                      });
}

}  // namespace
