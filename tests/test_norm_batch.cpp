// BatchNorm and its relatives through the public C API: BatchNorm (training, inference),
// BatchNormBackward, FastBatchNormBackward, BatchNormElemt, BatchNormReduce,
// BatchNormElemtBackward, BatchNormReduceBackward, SyncBatchNormGatherStats,
// BatchNormGatherStatsWithCounts. References are double-precision loops over the host copies with
// the channel on dim 1 (or the last dim for NHWC / NDHWC tensors):
//   training: mean, var (biased) per channel; y = (x - mean) / sqrt(var + eps) * w + b;
//             saveMean = mean, saveInvstd = var (CANN A2/A3), running = (1-m) running + m stat
//             (the variance unbiased by n / (n - 1));
//   backward: invstd = 1 / sqrt(saveInvstd + eps) (inference: runningVar), dx = (dy - sum(dy)/n -
//             (x - mean) invstd^2 sum(dy (x - mean))/n) invstd w (inference: dy invstd w),
//             gradWeight = sum(dy (x - mean)) invstd, gradBias = sum(dy).
#include <gtest/gtest.h>

#include <memory>
#include <optional>

#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_batch_norm_backward.h"
#include "aclnnop/aclnn_batch_norm_backward_reduce.h"
#include "aclnnop/aclnn_batch_norm_elemt.h"
#include "aclnnop/aclnn_batch_norm_elemt_backward.h"
#include "aclnnop/aclnn_batch_norm_gather_stats_with_counts.h"
#include "aclnnop/aclnn_batch_norm_reduce.h"
#include "aclnnop/aclnn_fast_batch_norm_backward.h"
#include "aclnnop/aclnn_sync_batch_norm_gather_stats.h"
#include "norm_test_util.h"

namespace {

using namespace normtest;
using T = std::unique_ptr<Tensor>;

// A device tensor plus a second aclTensor over the same storage with format NHWC / NDHWC (so the
// channel is the last dim); channel_last false: the plain tensor.
struct BnTensor {
  BnTensor(Rng& rng, const TensorDesc& d, bool channel_last, double lo, double hi) : t(d) {
    fill_uniform(t, rng, lo, hi);
    if (!channel_last) return;
    void* addr = nullptr;
    aclGetRawTensorAddr(t.get(), &addr);
    const Shape st = d.view_strides();
    const int64_t storage = d.storage_elems();
    alias = aclCreateTensor(d.shape.data(), d.shape.size(), d.dtype, st.data(), d.offset,
                            d.shape.size() == 5 ? ACL_FORMAT_NDHWC : ACL_FORMAT_NHWC, &storage, 1, addr);
  }
  ~BnTensor() {
    if (alias) aclDestroyTensor(alias);
  }
  aclTensor* get() const { return alias ? alias : t.get(); }
  Tensor t;
  aclTensor* alias = nullptr;
};

// Per-element channel index of the dense row-major order.
struct Chan {
  int64_t C, inner, outer;
  bool last;
  int64_t operator()(int64_t i) const { return last ? i % C : (i / inner) % C; }
  int64_t count() const { return outer * inner; }
};
Chan chan_of(const Shape& s, bool last) {
  Chan g{0, 1, 1, last};
  const size_t cd = last ? s.size() - 1 : 1;
  g.C = s[cd];
  for (size_t k = 0; k < s.size(); ++k) (k < cd ? g.outer : k > cd ? g.inner : g.C) *= k == cd ? 1 : s[k];
  return g;
}

std::vector<double> vals(const T& t, size_t n, double fill) {
  return t ? dense_values(*t) : std::vector<double>(n, fill);
}

const std::vector<aclDataType> kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

Shape random_bn_shape(Rng& rng) {
  const int rank = 2 + static_cast<int>(rng() % 4);
  Shape s(static_cast<size_t>(rank));
  for (auto& v : s) v = static_cast<int64_t>(rng() % 4) + 1;
  if (rng() % 3 == 0) s[0] = static_cast<int64_t>(rng() % 30) + 10;
  if (rank > 2 && rng() % 4 == 0) s.back() = static_cast<int64_t>(rng() % 50) + 20;
  return s;
}

// ---- BatchNorm forward -----------------------------------------------------------------------------

void check_batch_norm(Rng& rng, aclDataType t, const Shape& shape, bool last, bool training, bool with_params,
                      bool with_running) {
  const Chan g = chan_of(shape, last && shape.size() >= 3);
  const bool cl = last && shape.size() >= 3;
  const Shape cs = {g.C};
  const aclDataType pt = rng() % 2 ? ACL_FLOAT : t;
  const double mom = 0.1 + 0.4 * static_cast<double>(rng() % 2), eps = rng() % 2 ? 1e-5 : 0.1;
  char buf[160];
  std::snprintf(buf, sizeof buf, " training=%d params=%d running=%d momentum=%g eps=%g %s", training, with_params,
                with_running, mom, eps, cl ? "NHWC" : "");
  const std::string r = "BatchNorm x=" + TensorDesc(t, shape).str() + buf;
  BnTensor x(rng, random_view(rng, t, shape), cl, -3, 5), y(rng, random_view(rng, t, shape), cl, -1, 1);
  T w, b, rm, rv, sm, sv;
  auto mk = [&](T* dst, aclDataType dt, double lo, double hi) {
    *dst = std::make_unique<Tensor>(TensorDesc(dt, cs));
    fill_uniform(**dst, rng, lo, hi);
  };
  if (with_params) mk(&w, pt, -2, 2), mk(&b, pt, -1, 1);
  if (with_running) mk(&rm, pt, -1, 1), mk(&rv, pt, 0.2, 2);
  if (training) mk(&sm, ACL_FLOAT, -9, 9), mk(&sv, rng() % 2 ? ACL_FLOAT : t, -9, 9);
  const auto rm0 = vals(rm, static_cast<size_t>(g.C), 0), rv0 = vals(rv, static_cast<size_t>(g.C), 1);
  ASSERT_EQ(run_two_phase([&](uint64_t* ws, aclOpExecutor** e) {
              return aclnnBatchNormGetWorkspaceSize(x.get(), w ? w->get() : nullptr, b ? b->get() : nullptr,
                                                    rm ? rm->get() : nullptr, rv ? rv->get() : nullptr, training, mom,
                                                    eps, y.get(), sm ? sm->get() : nullptr, sv ? sv->get() : nullptr, ws, e);
            }, aclnnBatchNorm),
            ACL_SUCCESS)
      << r << ": " << aclGetRecentErrMsg();
  const auto xv = dense_values(x.t);
  const auto wv = vals(w, static_cast<size_t>(g.C), 1), bv = vals(b, static_cast<size_t>(g.C), 0);
  std::vector<double> mean(static_cast<size_t>(g.C)), var(mean.size()), mabs(mean.size()), sq(mean.size());
  for (size_t i = 0; i < xv.size(); ++i) {
    const size_t c = static_cast<size_t>(g(static_cast<int64_t>(i)));
    mean[c] += xv[i] / static_cast<double>(g.count());
    mabs[c] += std::fabs(xv[i]) / static_cast<double>(g.count());
  }
  for (size_t i = 0; i < xv.size(); ++i) {
    const size_t c = static_cast<size_t>(g(static_cast<int64_t>(i)));
    var[c] += std::pow(xv[i] - mean[c], 2) / static_cast<double>(g.count());
  }
  for (size_t c = 0; c < mean.size(); ++c) sq[c] = 4 * (var[c] + mabs[c] * mabs[c]);
  const auto& um = training ? mean : rm0;
  const auto& uv = training ? var : rv0;
  std::vector<double> yr(xv.size()), ys(xv.size());
  for (size_t i = 0; i < xv.size(); ++i) {
    const size_t c = static_cast<size_t>(g(static_cast<int64_t>(i)));
    const double is = 1 / std::sqrt(uv[c] + eps);
    yr[i] = (xv[i] - um[c]) * is * wv[c] + bv[c];
    ys[i] = (std::fabs(xv[i]) + std::fabs(um[c])) * is * std::fabs(wv[c]) * 2 + std::fabs(bv[c]);
  }
  const aclDataType ct = compute_of(t);
  y.t.download();
  expect_close(r, "output", y.t, yr, ys, {ct, t, pt}, 4);
  if (!training) return;
  sm->download();
  sv->download();
  expect_close(r, "saveMean", *sm, mean, mabs, {ct, sm->desc().dtype});
  expect_close(r, "saveInvstd (variance)", *sv, var, sq, {ct, sv->desc().dtype});
  if (!with_running) return;
  rm->download();
  rv->download();
  const double n = static_cast<double>(g.count());
  std::vector<double> rmr(mean.size()), rms(mean.size()), rvr(mean.size()), rvs(mean.size());
  for (size_t c = 0; c < mean.size(); ++c) {
    rmr[c] = (1 - mom) * rm0[c] + mom * mean[c];
    rms[c] = (1 - mom) * std::fabs(rm0[c]) + mom * mabs[c] * 2;
    rvr[c] = (1 - mom) * rv0[c] + mom * var[c] * n / (n - 1);
    rvs[c] = (1 - mom) * rv0[c] + mom * sq[c] * n / (n - 1);
  }
  if (n > 1) {
    expect_close(r, "runningMean", *rm, rmr, rms, {ct, pt});
    expect_close(r, "runningVar", *rv, rvr, rvs, {ct, pt});
  }
}

TEST(BatchNorm, TrainingRandomShapesDtypesFormats) {
  Rng rng(seed(51));
  for (int i = 0; i < 48; ++i) {
    check_batch_norm(rng, kTypes[static_cast<size_t>(i) % 4], random_bn_shape(rng), i % 3 == 2, true, rng() % 4 != 0,
                     rng() % 4 != 0);
    if (HasFailure()) return;
  }
}

TEST(BatchNorm, InferenceRandomShapesDtypesFormats) {
  Rng rng(seed(52));
  for (int i = 0; i < 32; ++i) {
    check_batch_norm(rng, kTypes[static_cast<size_t>(i) % 4], random_bn_shape(rng), i % 3 == 2, false, rng() % 4 != 0,
                     rng() % 4 != 0);
    if (HasFailure()) return;
  }
}

TEST(BatchNorm, LargeUsesThreads) {
  Rng rng(seed(53));
  check_batch_norm(rng, ACL_FLOAT, {8, 16, 20, 20}, false, true, true, true);
  check_batch_norm(rng, ACL_FLOAT, {8, 20, 20, 16}, true, true, true, true);
}

TEST(BatchNorm, EmptyBatchFillsSaveStats) {
  Tensor x(TensorDesc(ACL_FLOAT, {0, 3, 4})), y(TensorDesc(ACL_FLOAT, {0, 3, 4}));
  Tensor sm(TensorDesc(ACL_FLOAT, {3})), sv(TensorDesc(ACL_FLOAT, {3}));
  sm.fill(Num::real(5));
  sv.fill(Num::real(5));
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnBatchNormGetWorkspaceSize(x.get(), nullptr, nullptr, nullptr, nullptr, true, 0.1, 1e-5, y.get(),
                                                    sm.get(), sv.get(), w, e);
            }, aclnnBatchNorm),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  sm.download();
  sv.download();
  for (int64_t c = 0; c < 3; ++c) {
    EXPECT_EQ(sm.at({c}).f, 0.0);
    EXPECT_TRUE(std::isnan(sv.at({c}).f));
  }
}

// ---- BatchNormBackward / FastBatchNormBackward -----------------------------------------------------

void check_backward(Rng& rng, aclDataType t, const Shape& shape, bool last, bool training, bool fast, const bool mask[3],
                    bool with_weight) {
  const bool cl = last && shape.size() >= 3;
  const Chan g = chan_of(shape, cl);
  const Shape cs = {g.C};
  const double eps = rng() % 2 ? 1e-5 : 0.1;
  char buf[160];
  std::snprintf(buf, sizeof buf, " training=%d mask=%d%d%d weight=%d eps=%g %s", training, mask[0], mask[1], mask[2],
                with_weight, eps, cl ? "NHWC" : "");
  const std::string r = std::string(fast ? "FastBatchNormBackward" : "BatchNormBackward") + " x=" +
                        TensorDesc(t, shape).str() + buf;
  BnTensor dy(rng, random_view(rng, t, shape), cl, -2, 2), x(rng, random_view(rng, t, shape), cl, -3, 3);
  BnTensor dx(rng, random_view(rng, t, shape), cl, -1, 1);
  const aclDataType pt = rng() % 2 ? ACL_FLOAT : t;
  auto mk = [&](double lo, double hi) {
    auto p = std::make_unique<Tensor>(TensorDesc(pt, cs));
    fill_uniform(*p, rng, lo, hi);
    return p;
  };
  T w = with_weight ? mk(-2, 2) : nullptr;
  T rm = mk(-1, 1), rv = mk(0.2, 2), sm = mk(-1, 1), sv = mk(0.2, 2), dw = mk(-1, 1), db = mk(-1, 1);
  bool mv[3] = {mask[0], mask[1], mask[2]};
  aclBoolArray* ma = aclCreateBoolArray(mv, 3);
  const aclnnStatus st = run_two_phase(
      [&](uint64_t* ws, aclOpExecutor** e) {
        aclTensor* wt = w ? w->get() : nullptr;
        if (fast)
          return aclnnFastBatchNormBackwardGetWorkspaceSize(dy.get(), x.get(), wt, rm->get(), rv->get(), sm->get(), sv->get(),
                                                            training, eps, ma, 1, mask[0] ? dx.get() : nullptr,
                                                            mask[1] ? dw->get() : nullptr, mask[2] ? db->get() : nullptr, ws, e);
        return aclnnBatchNormBackwardGetWorkspaceSize(dy.get(), x.get(), wt, rm->get(), rv->get(), sm->get(), sv->get(),
                                                      training, eps, ma, mask[0] ? dx.get() : nullptr,
                                                      mask[1] ? dw->get() : nullptr, mask[2] ? db->get() : nullptr, ws, e);
      },
      fast ? aclnnFastBatchNormBackward : aclnnBatchNormBackward);
  aclDestroyBoolArray(ma);
  ASSERT_EQ(st, ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  const auto dyv = dense_values(dy.t), xv = dense_values(x.t);
  const auto wv = vals(w, static_cast<size_t>(g.C), 1);
  const auto mean = training ? dense_values(*sm) : dense_values(*rm);
  const auto var = training ? dense_values(*sv) : dense_values(*rv);
  const size_t C = static_cast<size_t>(g.C);
  std::vector<double> sdy(C), sdyx(C), adyx(C), ady(C);
  for (size_t i = 0; i < xv.size(); ++i) {
    const size_t c = static_cast<size_t>(g(static_cast<int64_t>(i)));
    sdy[c] += dyv[i];
    ady[c] += std::fabs(dyv[i]);
    sdyx[c] += dyv[i] * (xv[i] - mean[c]);
    adyx[c] += std::fabs(dyv[i]) * (std::fabs(xv[i]) + std::fabs(mean[c]));
  }
  const double n = static_cast<double>(g.count());
  std::vector<double> dxr(xv.size()), dxs(xv.size());
  for (size_t i = 0; i < xv.size(); ++i) {
    const size_t c = static_cast<size_t>(g(static_cast<int64_t>(i)));
    const double is = 1 / std::sqrt(var[c] + eps);
    if (training) {
      dxr[i] = (dyv[i] - sdy[c] / n - (xv[i] - mean[c]) * is * is * sdyx[c] / n) * is * wv[c];
      dxs[i] = (std::fabs(dyv[i]) + ady[c] / n + (std::fabs(xv[i]) + std::fabs(mean[c])) * is * is * adyx[c] / n) * is *
               std::fabs(wv[c]);
    } else {
      dxr[i] = dyv[i] * is * wv[c];
      dxs[i] = std::fabs(dxr[i]);
    }
  }
  std::vector<double> dwr(C), dws(C);
  for (size_t c = 0; c < C; ++c) {
    const double is = 1 / std::sqrt(var[c] + eps);
    dwr[c] = sdyx[c] * is;
    dws[c] = adyx[c] * is;
  }
  const aclDataType ct = compute_of(t);
  if (mask[0]) {
    dx.t.download();
    expect_close(r, "gradInput", dx.t, dxr, dxs, {ct, t, pt}, 4);
  }
  if (mask[1]) {
    dw->download();
    expect_close(r, "gradWeight", *dw, dwr, dws, {ct, pt}, 4);
  }
  if (mask[2]) {
    db->download();
    expect_close(r, "gradBias", *db, sdy, ady, {ct, pt}, 4);
  }
}

TEST(BatchNormBackward, RandomShapesModesMasks) {
  Rng rng(seed(54));
  for (int i = 0; i < 48; ++i) {
    const bool mask[3] = {rng() % 4 != 0, rng() % 3 != 0, rng() % 3 != 0};
    check_backward(rng, kTypes[static_cast<size_t>(i) % 4], random_bn_shape(rng), i % 3 == 2, i % 4 != 3, false, mask,
                   rng() % 4 != 0);
    if (HasFailure()) return;
  }
}

TEST(FastBatchNormBackward, RandomShapesModes) {
  Rng rng(seed(55));
  const bool all[3] = {true, true, true};
  for (int i = 0; i < 16; ++i) {
    check_backward(rng, kTypes[static_cast<size_t>(i) % 4], random_bn_shape(rng), false, i % 4 != 3, true, all, true);
    if (HasFailure()) return;
  }
}

// ---- sync BatchNorm primitives ---------------------------------------------------------------------

TEST(BatchNormElemt, MatchesFormula) {
  Rng rng(seed(56));
  for (int i = 0; i < 24; ++i) {
    const aclDataType t = kTypes[static_cast<size_t>(i) % 4];
    const Shape shape = random_bn_shape(rng);
    const Chan g = chan_of(shape, false);
    const std::string r = "BatchNormElemt x=" + TensorDesc(t, shape).str();
    Tensor x(random_view(rng, t, shape)), y(random_view(rng, t, shape));
    Tensor w(TensorDesc(t, {g.C})), b(TensorDesc(t, {g.C})), m(TensorDesc(t, {g.C})), is(TensorDesc(t, {g.C}));
    fill_uniform(x, rng, -3, 3);
    fill_uniform(w, rng, -2, 2);
    fill_uniform(b, rng, -1, 1);
    fill_uniform(m, rng, -1, 1);
    fill_uniform(is, rng, 0.2, 3);
    const bool params = i % 3 != 0;
    ASSERT_EQ(run_two_phase([&](uint64_t* ws, aclOpExecutor** e) {
                return aclnnBatchNormElemtGetWorkspaceSize(x.get(), params ? w.get() : nullptr, params ? b.get() : nullptr,
                                                           m.get(), is.get(), 1e-5, y.get(), ws, e);
              }, aclnnBatchNormElemt),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    y.download();
    const auto xv = dense_values(x), wv = dense_values(w), bv = dense_values(b), mv = dense_values(m), iv = dense_values(is);
    std::vector<double> yr(xv.size()), ys(xv.size());
    for (size_t k = 0; k < xv.size(); ++k) {
      const size_t c = static_cast<size_t>(g(static_cast<int64_t>(k)));
      const double wc = params ? wv[c] : 1, bc = params ? bv[c] : 0;
      yr[k] = (xv[k] - mv[c]) * iv[c] * wc + bc;
      ys[k] = (std::fabs(xv[k]) + std::fabs(mv[c])) * iv[c] * std::fabs(wc) * 2 + std::fabs(bc);
    }
    expect_close(r, "output", y, yr, ys, {compute_of(t), t}, 4);
    if (HasFailure()) return;
  }
}

TEST(BatchNormReduce, SumsAndSquareSums) {
  Rng rng(seed(57));
  for (int i = 0; i < 16; ++i) {
    const aclDataType t = kTypes[static_cast<size_t>(i) % 4];
    Shape shape(4);
    for (auto& s : shape) s = static_cast<int64_t>(rng() % 5) + 1;
    if (i % 4 == 0) shape[3] = 45;
    const Chan g = chan_of(shape, false);
    const std::string r = "BatchNormReduce x=" + TensorDesc(t, shape).str();
    Tensor x(random_view(rng, t, shape)), s(TensorDesc(ACL_FLOAT, {g.C})), q(TensorDesc(ACL_FLOAT, {g.C}));
    fill_uniform(x, rng, -3, 3);
    ASSERT_EQ(run_two_phase([&](uint64_t* ws, aclOpExecutor** e) {
                return aclnnBatchNormReduceGetWorkspaceSize(x.get(), s.get(), q.get(), ws, e);
              }, aclnnBatchNormReduce),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    s.download();
    q.download();
    const auto xv = dense_values(x);
    std::vector<double> sr(static_cast<size_t>(g.C)), ss(sr.size()), qr(sr.size());
    for (size_t k = 0; k < xv.size(); ++k) {
      const size_t c = static_cast<size_t>(g(static_cast<int64_t>(k)));
      sr[c] += xv[k];
      ss[c] += std::fabs(xv[k]);
      qr[c] += xv[k] * xv[k];
    }
    expect_close(r, "sum", s, sr, ss, {compute_of(t), ACL_FLOAT}, 4);
    expect_close(r, "squareSum", q, qr, qr, {compute_of(t), ACL_FLOAT}, 4);
    if (HasFailure()) return;
  }
}

TEST(BatchNormReduceBackward, AndElemtBackwardMatchFormulas) {
  Rng rng(seed(58));
  for (int i = 0; i < 24; ++i) {
    const aclDataType t = kTypes[static_cast<size_t>(i) % 4];
    const Shape shape = random_bn_shape(rng);
    const Chan g = chan_of(shape, false);
    const size_t C = static_cast<size_t>(g.C);
    const std::string r = "BatchNormReduceBackward/ElemtBackward x=" + TensorDesc(t, shape).str();
    Tensor dy(random_view(rng, t, shape)), x(random_view(rng, t, shape)), dx(random_view(rng, t, shape));
    Tensor m(TensorDesc(t, {g.C})), is(TensorDesc(t, {g.C})), w(TensorDesc(t, {g.C}));
    Tensor sdy(TensorDesc(t, {g.C})), sdyx(TensorDesc(t, {g.C})), gw(TensorDesc(t, {g.C})), gb(TensorDesc(t, {g.C}));
    Tensor cnt(TensorDesc(i % 2 ? ACL_INT32 : ACL_FLOAT, {3}));
    for (Tensor* p : {&dy, &x, &m, &w}) fill_uniform(*p, rng, -2, 2);
    fill_uniform(is, rng, 0.2, 3);
    for (int64_t k = 0; k < 3; ++k) cnt.set({k}, i % 2 ? Num::integer(k + 2) : Num::real(static_cast<double>(k) + 2.5));
    cnt.upload();
    const bool ig = i % 4 != 1, wg = i % 3 != 1, bg = i % 5 != 1;
    ASSERT_EQ(run_two_phase([&](uint64_t* ws, aclOpExecutor** e) {
                return aclnnBatchNormReduceBackwardGetWorkspaceSize(dy.get(), x.get(), m.get(), is.get(), w.get(), ig, wg, bg,
                                                                    ig ? sdy.get() : nullptr, ig ? sdyx.get() : nullptr,
                                                                    wg ? gw.get() : nullptr, bg ? gb.get() : nullptr, ws, e);
              }, aclnnBatchNormReduceBackward),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    const auto dyv = dense_values(dy), xv = dense_values(x), mv = dense_values(m), iv = dense_values(is), wv = dense_values(w);
    std::vector<double> s1(C), a1(C), s2(C), a2(C), gwr(C), gws(C);
    for (size_t k = 0; k < xv.size(); ++k) {
      const size_t c = static_cast<size_t>(g(static_cast<int64_t>(k)));
      s1[c] += dyv[k];
      a1[c] += std::fabs(dyv[k]);
      s2[c] += dyv[k] * (xv[k] - mv[c]);
      a2[c] += std::fabs(dyv[k]) * (std::fabs(xv[k]) + std::fabs(mv[c]));
    }
    for (size_t c = 0; c < C; ++c) gwr[c] = s2[c] * iv[c], gws[c] = a2[c] * iv[c];
    const aclDataType ct = compute_of(t);
    if (ig) {
      sdy.download();
      sdyx.download();
      expect_close(r, "sumDy", sdy, s1, a1, {ct, t}, 4);
      expect_close(r, "sumDyXmu", sdyx, s2, a2, {ct, t}, 4);
    }
    if (wg) {
      gw.download();
      expect_close(r, "gradWeight", gw, gwr, gws, {ct, t}, 4);
    }
    if (bg) {
      gb.download();
      expect_close(r, "gradBias", gb, s1, a1, {ct, t}, 4);
    }
    if (!ig) continue;
    // ElemtBackward from the (device-computed) sums.
    ASSERT_EQ(run_two_phase([&](uint64_t* ws, aclOpExecutor** e) {
                return aclnnBatchNormElemtBackwardGetWorkspaceSize(dy.get(), x.get(), m.get(), is.get(), w.get(), sdy.get(),
                                                                   sdyx.get(), cnt.get(), dx.get(), ws, e);
              }, aclnnBatchNormElemtBackward),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    dx.download();
    const auto sv = dense_values(sdy), qv = dense_values(sdyx);
    const double total = i % 2 ? 2 + 3 + 4 : 2.5 + 3.5 + 4.5;
    std::vector<double> dxr(xv.size()), dxs(xv.size());
    for (size_t k = 0; k < xv.size(); ++k) {
      const size_t c = static_cast<size_t>(g(static_cast<int64_t>(k)));
      dxr[k] = (dyv[k] - sv[c] / total - (xv[k] - mv[c]) * iv[c] * iv[c] * qv[c] / total) * iv[c] * wv[c];
      dxs[k] = (std::fabs(dyv[k]) + std::fabs(sv[c]) / total +
                (std::fabs(xv[k]) + std::fabs(mv[c])) * iv[c] * iv[c] * std::fabs(qv[c]) / total) *
               iv[c] * std::fabs(wv[c]);
    }
    expect_close(r + " (ElemtBackward)", "gradInput", dx, dxr, dxs, {ct, t}, 4);
    if (HasFailure()) return;
  }
}

TEST(SyncBatchNormGatherStats, MatchesFormula) {
  Rng rng(seed(59));
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const int64_t D = 3, C = 5;
    Tensor s(TensorDesc(t, {D, C})), q(TensorDesc(t, {D, C})), n(TensorDesc(ACL_INT32, {D}));
    Tensor rm(TensorDesc(t, {C})), rv(TensorDesc(t, {C})), bm(TensorDesc(t, {C})), bi(TensorDesc(t, {C}));
    fill_uniform(s, rng, -4, 4);
    fill_uniform(rm, rng, -1, 1);
    fill_uniform(rv, rng, 0.5, 2);
    for (int64_t k = 0; k < D; ++k) n.set({k}, Num::integer(k + 3));
    n.upload();
    const auto sv = dense_values(s);
    for (int64_t k = 0; k < D; ++k)  // squares large enough for a positive variance
      for (int64_t c = 0; c < C; ++c)
        q.set({k, c}, Num::real(sv[static_cast<size_t>(k * C + c)] * sv[static_cast<size_t>(k * C + c)] / (k + 3) + 5));
    q.upload();
    const auto qv = dense_values(q), rm0 = dense_values(rm), rv0 = dense_values(rv);
    ASSERT_EQ(run_two_phase([&](uint64_t* ws, aclOpExecutor** e) {
                return aclnnSyncBatchNormGatherStatsGetWorkspaceSize(s.get(), q.get(), n.get(), rm.get(), rv.get(), 0.2f, 1e-5f,
                                                                     bm.get(), bi.get(), ws, e);
              }, aclnnSyncBatchNormGatherStats),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<double> mr(C), ir(C), rmr(C), rvr(C), ones(C);
    const double cnt = 3 + 4 + 5;
    for (int64_t c = 0; c < C; ++c) {
      double ts = 0, tq = 0;
      for (int64_t k = 0; k < D; ++k) ts += sv[static_cast<size_t>(k * C + c)], tq += qv[static_cast<size_t>(k * C + c)];
      const double mean = ts / cnt, var = tq / cnt - mean * mean;
      const size_t cc = static_cast<size_t>(c);
      mr[cc] = mean;
      ir[cc] = 1 / std::sqrt(var + static_cast<double>(1e-5f));
      rmr[cc] = rm0[cc] * 0.8 + 0.2 * mean;
      rvr[cc] = rv0[cc] * 0.8 + 0.2 * var * cnt / (cnt - 1);
      ones[cc] = 16;
    }
    for (Tensor* p : {&bm, &bi, &rm, &rv}) p->download();
    const std::string r = std::string("SyncBatchNormGatherStats ") + dtype_name(t);
    expect_close(r, "batchMean", bm, mr, ones, {ACL_FLOAT, t});
    expect_close(r, "batchInvstd", bi, ir, ones, {ACL_FLOAT, t});
    expect_close(r, "mean (running)", rm, rmr, ones, {ACL_FLOAT, t});
    expect_close(r, "variance (running)", rv, rvr, ones, {ACL_FLOAT, t});
  }
}

TEST(BatchNormGatherStatsWithCounts, MergesDeviceStatistics) {
  Rng rng(seed(60));
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE}) {
    const int64_t W = 4, C = 3;
    Tensor in(TensorDesc(t, {2, C, 5})), m(TensorDesc(t, {W, C})), is(TensorDesc(t, {W, C})), n(TensorDesc(t, {W}));
    Tensor rm(TensorDesc(t, {C})), rv(TensorDesc(t, {C})), ma(TensorDesc(t, {C})), ia(TensorDesc(t, {C}));
    fill_uniform(in, rng, -1, 1);
    fill_uniform(m, rng, -2, 2);
    fill_uniform(is, rng, 0.5, 2);
    fill_uniform(rm, rng, -1, 1);
    fill_uniform(rv, rng, 0.5, 2);
    for (int64_t k = 0; k < W; ++k) n.set({k}, Num::real(static_cast<double>(k == 1 ? 0 : k + 2)));  // a device with none
    n.upload();
    const auto mv = dense_values(m), iv = dense_values(is), nv = dense_values(n), rm0 = dense_values(rm), rv0 = dense_values(rv);
    const double eps = 1e-3, mom = 0.3;
    ASSERT_EQ(run_two_phase([&](uint64_t* ws, aclOpExecutor** e) {
                return aclnnBatchNormGatherStatsWithCountsGetWorkspaceSize(in.get(), m.get(), is.get(), rm.get(), rv.get(), mom,
                                                                           eps, n.get(), ma.get(), ia.get(), ws, e);
              }, aclnnBatchNormGatherStatsWithCounts),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<double> mr(C), ir(C), rmr(C), rvr(C), sc(C, 16);
    double total = 0;
    for (double v : nv) total += v;
    for (int64_t c = 0; c < C; ++c) {
      double mean = 0;
      for (int64_t k = 0; k < W; ++k) mean += nv[static_cast<size_t>(k)] * mv[static_cast<size_t>(k * C + c)] / total;
      double m2 = 0;
      for (int64_t k = 0; k < W; ++k) {
        const double vk = 1 / std::pow(iv[static_cast<size_t>(k * C + c)], 2) - eps;
        m2 += nv[static_cast<size_t>(k)] * (vk + std::pow(mv[static_cast<size_t>(k * C + c)] - mean, 2));
      }
      const size_t cc = static_cast<size_t>(c);
      mr[cc] = mean;
      ir[cc] = 1 / std::sqrt(m2 / total + eps);
      rmr[cc] = (1 - mom) * rm0[cc] + mom * mean;
      rvr[cc] = (1 - mom) * rv0[cc] + mom * m2 / (total - 1);
    }
    for (Tensor* p : {&ma, &ia, &rm, &rv}) p->download();
    const std::string r = std::string("BatchNormGatherStatsWithCounts ") + dtype_name(t);
    expect_close(r, "meanAll", ma, mr, sc, {ACL_FLOAT, t});
    expect_close(r, "invstdAll", ia, ir, sc, {ACL_FLOAT, t});
    expect_close(r, "runningMean", rm, rmr, sc, {ACL_FLOAT, t});
    expect_close(r, "runningVar", rv, rvr, sc, {ACL_FLOAT, t});
  }
}

TEST(BatchNorm, BadArguments) {
  Tensor x(TensorDesc(ACL_FLOAT, {2, 3, 4})), y(TensorDesc(ACL_FLOAT, {2, 3, 4})), c3(TensorDesc(ACL_FLOAT, {3}));
  Tensor c4(TensorDesc(ACL_FLOAT, {4})), x1(TensorDesc(ACL_FLOAT, {3})), xi(TensorDesc(ACL_INT32, {2, 3, 4}));
  Tensor y_bad(TensorDesc(ACL_FLOAT, {2, 4, 3}));
  auto bn = [&](aclTensor* in, aclTensor* w, bool training, aclTensor* out, aclTensor* sm) {
    return [=](uint64_t* ws, aclOpExecutor** e) {
      return aclnnBatchNormGetWorkspaceSize(in, w, nullptr, nullptr, nullptr, training, 0.1, 1e-5, out, sm, sm, ws, e);
    };
  };
  expect_phase1_error("null input", ACLNN_ERR_PARAM_NULLPTR, "input", bn(nullptr, c3.get(), true, y.get(), c3.get()));
  expect_phase1_error("training null saveMean", ACLNN_ERR_PARAM_NULLPTR, "saveMean", bn(x.get(), c3.get(), true, y.get(), nullptr));
  expect_phase1_error("int input", ACLNN_ERR_PARAM_INVALID, "input dtype int32", bn(xi.get(), c3.get(), true, y.get(), c3.get()));
  expect_phase1_error("rank 1", ACLNN_ERR_PARAM_INVALID, "input has 1 dims", bn(x1.get(), c3.get(), true, x1.get(), c3.get()));
  expect_phase1_error("weight shape", ACLNN_ERR_PARAM_INVALID, "weight has shape [4]", bn(x.get(), c4.get(), true, y.get(), c3.get()));
  expect_phase1_error("output shape", ACLNN_ERR_PARAM_INVALID, "output has shape", bn(x.get(), c3.get(), false, y_bad.get(), nullptr));
  expect_phase1_error("saveMean shape", ACLNN_ERR_PARAM_INVALID, "saveMean has shape [4]", bn(x.get(), c3.get(), true, y.get(), c4.get()));
  bool two[2] = {true, true};
  aclBoolArray* m2 = aclCreateBoolArray(two, 2);
  expect_phase1_error("backward mask", ACLNN_ERR_PARAM_INVALID, "outputMask has 2 entries", [&](uint64_t* ws, aclOpExecutor** e) {
    return aclnnBatchNormBackwardGetWorkspaceSize(x.get(), x.get(), c3.get(), c3.get(), c3.get(), c3.get(), c3.get(), true,
                                                  1e-5, m2, y.get(), c3.get(), c3.get(), ws, e);
  });
  aclDestroyBoolArray(m2);
  expect_phase1_error("fast version", ACLNN_ERR_PARAM_INVALID, "version is 2", [&](uint64_t* ws, aclOpExecutor** e) {
    bool all[3] = {true, true, true};
    aclBoolArray* m3 = aclCreateBoolArray(all, 3);
    const aclnnStatus s = aclnnFastBatchNormBackwardGetWorkspaceSize(x.get(), x.get(), c3.get(), c3.get(), c3.get(), c3.get(),
                                                                     c3.get(), true, 1e-5, m3, 2, y.get(), c3.get(), c3.get(), ws, e);
    aclDestroyBoolArray(m3);
    return s;
  });
  expect_phase1_error("reduce backward null sumDy", ACLNN_ERR_PARAM_NULLPTR, "sumDy", [&](uint64_t* ws, aclOpExecutor** e) {
    return aclnnBatchNormReduceBackwardGetWorkspaceSize(x.get(), x.get(), c3.get(), c3.get(), c3.get(), true, false, false,
                                                        nullptr, c3.get(), nullptr, nullptr, ws, e);
  });
  Tensor ts(TensorDesc(ACL_FLOAT, {2, 3})), cnt_bad(TensorDesc(ACL_INT32, {3}));
  expect_phase1_error("gather sampleCount", ACLNN_ERR_PARAM_INVALID, "sampleCount has shape [3]", [&](uint64_t* ws, aclOpExecutor** e) {
    return aclnnSyncBatchNormGatherStatsGetWorkspaceSize(ts.get(), ts.get(), cnt_bad.get(), c3.get(), c3.get(), 0.1f, 1e-5f,
                                                         c3.get(), c3.get(), ws, e);
  });
}

}  // namespace
