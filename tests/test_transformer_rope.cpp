// Rotary position embeddings through the public C API: RotaryPositionEmbedding (+Grad),
// ApplyRotaryPosEmb (V1, V2: in place on query and key), RopeWithSinCosCache (rope and mrope,
// GPT-NeoX and GPT-J styles). References: the docs' formulas written literally in double.
#include <gtest/gtest.h>

#include <functional>

#include "aclnnop/aclnn_apply_rotary_pos_emb.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb_v2.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_rotary_position_embedding_grad.h"
#include "test_transformer_util.h"

namespace {

using namespace tftest;

const std::vector<aclDataType> kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// rotate(x) of one row for a mode, and the "part1" permutation (identity except interleave-half).
void rotate_row(int mode, const double* x, int64_t d, double* part1, double* rot) {
  const int64_t h = d / 2, q = d / 4;
  for (int64_t j = 0; j < d; ++j) part1[j] = x[j];
  if (mode == 0) {  // cat(-x2, x1)
    for (int64_t j = 0; j < h; ++j) {
      rot[j] = -x[j + h];
      rot[j + h] = x[j];
    }
  } else if (mode == 1) {  // interleave
    for (int64_t i = 0; i < h; ++i) {
      rot[2 * i] = -x[2 * i + 1];
      rot[2 * i + 1] = x[2 * i];
    }
  } else if (mode == 2) {  // cat(-x2, x1, -x4, x3)
    for (int64_t j = 0; j < q; ++j) {
      rot[j] = -x[j + q];
      rot[j + q] = x[j];
      rot[j + 2 * q] = -x[j + 3 * q];
      rot[j + 3 * q] = x[j + 2 * q];
    }
  } else {  // interleave-half: part1 = cat(x[::2], x[1::2]), rot = cat(-x[1::2], x[::2])
    for (int64_t i = 0; i < h; ++i) {
      part1[i] = x[2 * i];
      part1[i + h] = x[2 * i + 1];
      rot[i] = -x[2 * i + 1];
      rot[i + h] = x[2 * i];
    }
  }
}

// Row-major offset of cos's row for row index (i0, i1, i2) of x (cos dims of size 1 broadcast).
int64_t cos_row(const Shape& c, int64_t i0, int64_t i1, int64_t i2) {
  const int64_t a = c[0] == 1 ? 0 : i0, b = c[1] == 1 ? 0 : i1, n = c[2] == 1 ? 0 : i2;
  return ((a * c[1] + b) * c[2] + n) * c[3];
}

struct RopeRef {
  std::vector<double> y, scale;
};

RopeRef rope_ref(int mode, const Shape& xs, const std::vector<double>& x, const Shape& cs,
                 const std::vector<double>& c, const std::vector<double>& s) {
  const int64_t d = xs[3];
  RopeRef r;
  r.y.resize(x.size());
  r.scale.resize(x.size());
  std::vector<double> p1(static_cast<size_t>(d)), rot(static_cast<size_t>(d));
  for (int64_t i0 = 0; i0 < xs[0]; ++i0)
    for (int64_t i1 = 0; i1 < xs[1]; ++i1)
      for (int64_t i2 = 0; i2 < xs[2]; ++i2) {
        const int64_t row = ((i0 * xs[1] + i1) * xs[2] + i2) * d;
        rotate_row(mode, &x[static_cast<size_t>(row)], d, p1.data(), rot.data());
        const int64_t co = cos_row(cs, i0, i1, i2);
        for (int64_t j = 0; j < d; ++j) {
          const size_t u = static_cast<size_t>(j), o = static_cast<size_t>(row + j), ci = static_cast<size_t>(co + j);
          r.y[o] = p1[u] * c[ci] + rot[u] * s[ci];
          r.scale[o] = std::fabs(p1[u] * c[ci]) + std::fabs(rot[u] * s[ci]);
        }
      }
  return r;
}

Shape random_cos_shape(const Shape& xs, Rng& rng) {
  Shape c = xs;
  for (size_t k = 0; k < 3; ++k)
    if (rng() % 2) c[k] = 1;
  return c;
}

TEST(TransformerRope, RotaryPositionEmbeddingSweep) {
  Rng rng(11);
  for (int iter = 0; iter < 120; ++iter) {
    const aclDataType t = kTypes[static_cast<size_t>(iter) % kTypes.size()];
    const int mode = iter % 4;
    const int64_t d = (mode == 2 ? 4 : 2) * static_cast<int64_t>(1 + rng() % 6);
    const Shape xs = {static_cast<int64_t>(1 + rng() % 3), static_cast<int64_t>(1 + rng() % 4),
                      static_cast<int64_t>(1 + rng() % 3), d};
    const Shape cs = random_cos_shape(xs, rng);
    Tensor x(random_view(t, xs, rng)), c(random_view(t, cs, rng)), s(random_view(t, cs, rng)), out(random_view(t, xs, rng));
    const auto xv = fill_uniform(x, rng, -3, 3), cv = fill_uniform(c, rng, -1, 1), sv = fill_uniform(s, rng, -1, 1);
    fill_uniform(out, rng, -1, 1);
    const auto before = out.host();
    const std::string r = "RotaryPositionEmbedding mode=" + std::to_string(mode) + " x=" + x.desc().str() +
                          " cos=" + c.desc().str() + " sin=" + s.desc().str() + " out=" + out.desc().str();
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnRotaryPositionEmbeddingGetWorkspaceSize(x.get(), c.get(), s.get(), mode, out.get(), w, e);
              },
                            aclnnRotaryPositionEmbedding),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    out.download();
    const RopeRef ref = rope_ref(mode, xs, xv, cs, cv, sv);
    expect_close(r, "out", t, values(out), ref.y, 1e-6, ref.scale);
    EXPECT_EQ(writes_outside_view(out, before), "") << r;
    if (HasFailure()) return;
  }
}

TEST(TransformerRope, RotaryPositionEmbeddingEmptyAndSpecialValues) {
  // An empty x gives an empty out whatever cos is.
  Tensor x(TensorDesc(ACL_FLOAT, {2, 0, 1, 8})), c(TensorDesc(ACL_FLOAT, {1, 1, 1, 8})), out(TensorDesc(ACL_FLOAT, {2, 0, 1, 8}));
  EXPECT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnRotaryPositionEmbeddingGetWorkspaceSize(x.get(), c.get(), c.get(), 0, out.get(), w, e);
            },
                          aclnnRotaryPositionEmbedding),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  // Inf and NaN propagate as in the formula.
  Tensor x2(TensorDesc(ACL_FLOAT, {1, 1, 1, 4})), c2(TensorDesc(ACL_FLOAT, {1, 1, 1, 4})), s2(TensorDesc(ACL_FLOAT, {1, 1, 1, 4}));
  Tensor o2(TensorDesc(ACL_FLOAT, {1, 1, 1, 4}));
  const double inf = HUGE_VAL, nan = std::nan("");
  set_values(x2, {inf, 1, nan, 2});
  set_values(c2, {1, 1, 1, 1});
  set_values(s2, {0, 0, 0, 0.5});
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnRotaryPositionEmbeddingGetWorkspaceSize(x2.get(), c2.get(), s2.get(), 0, o2.get(), w, e);
            },
                          aclnnRotaryPositionEmbedding),
            ACL_SUCCESS);
  o2.download();
  const auto v = values(o2);
  // y = x*cos + cat(-x2, x1)*sin: [inf + (-nan)*0, 1 + (-2)*0, nan + inf*0, 2 + 1*0.5]
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], 1);
  EXPECT_TRUE(std::isnan(v[2]));
  EXPECT_EQ(v[3], 2.5);
}

TEST(TransformerRope, RotaryPositionEmbeddingGradSweep) {
  Rng rng(12);
  for (int iter = 0; iter < 100; ++iter) {
    const aclDataType t = kTypes[static_cast<size_t>(iter) % kTypes.size()];
    const int mode = (iter / 3) % 4;
    const bool with_x = iter % 5 != 0;
    const int64_t d = (mode == 2 ? 4 : 2) * static_cast<int64_t>(1 + rng() % 5);
    const Shape xs = {static_cast<int64_t>(1 + rng() % 3), static_cast<int64_t>(1 + rng() % 3),
                      static_cast<int64_t>(1 + rng() % 3), d};
    const Shape cs = random_cos_shape(xs, rng);
    Tensor dy(random_view(t, xs, rng)), c(random_view(t, cs, rng)), s(random_view(t, cs, rng));
    Tensor x(random_view(t, xs, rng)), dx(random_view(t, xs, rng));
    Tensor dc(random_view(t, with_x ? cs : Shape{1, 1, 1, 0}, rng)), ds(random_view(t, with_x ? cs : Shape{1, 1, 1, 0}, rng));
    const auto dyv = fill_uniform(dy, rng, -2, 2), cv = fill_uniform(c, rng, -1, 1), sv = fill_uniform(s, rng, -1, 1);
    const auto xv = fill_uniform(x, rng, -2, 2);
    const std::string r = "RotaryPositionEmbeddingGrad mode=" + std::to_string(mode) + " dy=" + dy.desc().str() +
                          " cos=" + c.desc().str() + " x=" + (with_x ? x.desc().str() : "null") + " dx=" +
                          dx.desc().str() + " dcos=" + dc.desc().str();
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnRotaryPositionEmbeddingGradGetWorkspaceSize(dy.get(), c.get(), s.get(),
                                                                        with_x ? x.get() : nullptr, mode, dx.get(),
                                                                        dc.get(), ds.get(), w, e);
              },
                            aclnnRotaryPositionEmbeddingGrad),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    // Reference by the chain rule on the forward formula: y[j] = p1(x)[j]*cos[j] + rot(x)[j]*sin[j]
    // is linear in x; its transpose is found by pushing unit vectors through the forward rows.
    std::vector<double> rdx(dyv.size(), 0), rdc(cv.size(), 0), rds(cv.size(), 0), sdx(dyv.size(), 0),
        sdc(cv.size(), 0), sds(cv.size(), 0);
    std::vector<double> e(static_cast<size_t>(d)), p1(static_cast<size_t>(d)), rot(static_cast<size_t>(d));
    for (int64_t i0 = 0; i0 < xs[0]; ++i0)
      for (int64_t i1 = 0; i1 < xs[1]; ++i1)
        for (int64_t i2 = 0; i2 < xs[2]; ++i2) {
          const int64_t row = ((i0 * xs[1] + i1) * xs[2] + i2) * d, co = cos_row(cs, i0, i1, i2);
          for (int64_t k = 0; k < d; ++k) {  // dx[k] = sum_j dy[j] * dy[j]/dx[k]
            std::fill(e.begin(), e.end(), 0.0);
            e[static_cast<size_t>(k)] = 1;
            rotate_row(mode, e.data(), d, p1.data(), rot.data());
            for (int64_t j = 0; j < d; ++j) {
              const size_t u = static_cast<size_t>(j);
              const double g = dyv[static_cast<size_t>(row + j)];
              const double term = g * (p1[u] * cv[static_cast<size_t>(co + j)] + rot[u] * sv[static_cast<size_t>(co + j)]);
              rdx[static_cast<size_t>(row + k)] += term;
              sdx[static_cast<size_t>(row + k)] += std::fabs(term);
            }
          }
          rotate_row(mode, &xv[static_cast<size_t>(row)], d, p1.data(), rot.data());
          for (int64_t j = 0; j < d; ++j) {
            const size_t u = static_cast<size_t>(j), ci = static_cast<size_t>(co + j);
            const double g = dyv[static_cast<size_t>(row + j)];
            rdc[ci] += g * p1[u];
            sdc[ci] += std::fabs(g * p1[u]);
            rds[ci] += g * rot[u];
            sds[ci] += std::fabs(g * rot[u]);
          }
        }
    dx.download();
    expect_close(r, "dxOut", t, values(dx), rdx, 1e-6, sdx);
    if (with_x) {
      dc.download();
      ds.download();
      expect_close(r, "dcosOut", t, values(dc), rdc, 1e-6, sdc);
      expect_close(r, "dsinOut", t, values(ds), rds, 1e-6, sds);
    }
    if (HasFailure()) return;
  }
}

// ApplyRotaryPosEmb(V2): query and key rotated in place; layout names where B, S, N sit.
TEST(TransformerRope, ApplyRotaryPosEmbLayoutsModesInPlace) {
  Rng rng(13);
  const char* modes[] = {"half", "interleave", "quarter"};
  for (int iter = 0; iter < 90; ++iter) {
    const aclDataType t = kTypes[static_cast<size_t>(iter) % kTypes.size()];
    const bool v2 = iter % 4 != 0;
    const int64_t layout = v2 ? 1 + (iter / 3) % 3 : 1;
    const int mode_i = v2 ? (iter / 2) % 3 : 0;
    const int mode = mode_i == 0 ? 0 : mode_i == 1 ? 1 : 2;  // RotaryPositionEmbedding's numbering
    const int64_t d = 4 * static_cast<int64_t>(1 + rng() % 4);
    const int64_t B = 1 + rng() % 3, S = 1 + rng() % 4, QN = 1 + rng() % 3, KN = 1 + rng() % 3;
    auto shape = [&](int64_t n) -> Shape {
      return layout == 1 ? Shape{B, S, n, d} : layout == 2 ? Shape{S, B, n, d} : Shape{B, n, S, d};
    };
    const Shape qs = shape(QN), ks = shape(KN);
    Shape cs = shape(1);
    const bool b_bcast = rng() % 3 == 0;
    if (b_bcast) cs[layout == 2 ? 1 : 0] = 1;
    Tensor q(random_view(t, qs, rng)), k(random_view(t, ks, rng)), c(random_view(t, cs, rng)), s(random_view(t, cs, rng));
    const auto qv = fill_uniform(q, rng, -3, 3), kv = fill_uniform(k, rng, -3, 3);
    const auto cv = fill_uniform(c, rng, -1, 1), sv = fill_uniform(s, rng, -1, 1);
    const auto qbefore = q.host(), kbefore = k.host();
    char mode_str[16];
    std::snprintf(mode_str, sizeof mode_str, "%s", modes[mode_i]);
    const std::string r = std::string(v2 ? "ApplyRotaryPosEmbV2" : "ApplyRotaryPosEmb") + " layout=" +
                          std::to_string(layout) + " mode=" + mode_str + " q=" + q.desc().str() + " k=" +
                          k.desc().str() + " cos=" + c.desc().str();
    ASSERT_EQ(run_two_phase(
                  [&](uint64_t* w, aclOpExecutor** e) {
                    return v2 ? aclnnApplyRotaryPosEmbV2GetWorkspaceSize(q.get(), k.get(), c.get(), s.get(), layout,
                                                                         mode_str, w, e)
                              : aclnnApplyRotaryPosEmbGetWorkspaceSize(q.get(), k.get(), c.get(), s.get(), layout, w, e);
                  },
                  v2 ? aclnnApplyRotaryPosEmbV2 : aclnnApplyRotaryPosEmb),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    q.download();
    k.download();
    // cos broadcasts over N (and over B when its B is 1): as RotaryPositionEmbedding's cos.
    const RopeRef rq = rope_ref(mode, qs, qv, cs, cv, sv), rk = rope_ref(mode, ks, kv, cs, cv, sv);
    expect_close(r, "queryRef", t, values(q), rq.y, 1e-6, rq.scale);
    expect_close(r, "keyRef", t, values(k), rk.y, 1e-6, rk.scale);
    EXPECT_EQ(writes_outside_view(q, qbefore), "") << r;
    EXPECT_EQ(writes_outside_view(k, kbefore), "") << r;
    if (HasFailure()) return;
  }
}

TEST(TransformerRope, RopeWithSinCosCacheSweep) {
  Rng rng(14);
  for (int iter = 0; iter < 80; ++iter) {
    const aclDataType t = kTypes[static_cast<size_t>(iter) % kTypes.size()];
    const bool neox = iter % 2 == 0, mrope = iter % 3 == 0;
    const aclDataType pt = (iter / 2) % 2 ? ACL_INT32 : ACL_INT64;
    const int64_t T = 1 + rng() % 5, hs = 2 * static_cast<int64_t>(2 + rng() % 6);
    const int64_t rot = 2 * static_cast<int64_t>(1 + rng() % (hs / 2));
    const int64_t nq = 1 + rng() % 3, nk = 1 + rng() % 3, maxpos = 1 + rng() % 6;
    std::vector<int64_t> sec = {0, 0, 0};
    if (mrope) {
      for (int64_t i = 0; i < rot / 2; ++i) ++sec[rng() % 3];
    }
    Tensor pos(TensorDesc(pt, mrope ? Shape{3, T} : Shape{T}));
    Tensor q(random_view(t, {T, nq * hs}, rng)), k(random_view(t, {T, nk * hs}, rng));
    Tensor cache(random_view(t, {maxpos, rot}, rng));
    Tensor qo(random_view(t, {T, nq * hs}, rng)), ko(random_view(t, {T, nk * hs}, rng));
    const auto pv = fill_ints(pos, rng, 0, maxpos - 1);
    const auto qv = fill_uniform(q, rng, -2, 2), kv = fill_uniform(k, rng, -2, 2), cv = fill_uniform(cache, rng, -1, 1);
    IntArray section(sec);
    const std::string r = std::string("RopeWithSinCosCache neox=") + (neox ? "1" : "0") + " positions=" +
                          pos.desc().str() + " q=" + q.desc().str() + " k=" + k.desc().str() + " cache=" +
                          cache.desc().str() + " headSize=" + std::to_string(hs) +
                          (mrope ? " mrope=[" + std::to_string(sec[0]) + "," + std::to_string(sec[1]) + "," +
                                       std::to_string(sec[2]) + "]"
                                 : "");
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnRopeWithSinCosCacheGetWorkspaceSize(pos.get(), q.get(), k.get(), cache.get(),
                                                                mrope ? section.a : nullptr, hs, neox, qo.get(),
                                                                ko.get(), w, e);
              },
                            aclnnRopeWithSinCosCache),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    auto ref = [&](const std::vector<double>& x, int64_t nh, std::vector<double>* sc) {
      std::vector<double> y = x;
      sc->assign(x.size(), 0);
      const int64_t half = rot / 2, w = nh * hs;
      for (int64_t tok = 0; tok < T; ++tok) {
        std::vector<double> cosv(static_cast<size_t>(half)), sinv(static_cast<size_t>(half));
        for (int64_t i = 0; i < half; ++i) {
          int64_t which = 0;  // mrope: the section of cos index i picks the positions row
          if (mrope) {
            which = i < sec[0] ? 0 : i < sec[0] + sec[1] ? 1 : 2;
          }
          const int64_t p = static_cast<int64_t>(pv[static_cast<size_t>(which * T + tok)]);
          cosv[static_cast<size_t>(i)] = cv[static_cast<size_t>(p * rot + i)];
          sinv[static_cast<size_t>(i)] = cv[static_cast<size_t>(p * rot + half + i)];
        }
        for (int64_t h = 0; h < nh; ++h) {
          const int64_t base = tok * w + h * hs;
          for (int64_t i = 0; i < half; ++i) {
            const int64_t a = base + (neox ? i : 2 * i), b = base + (neox ? i + half : 2 * i + 1);
            const double x1 = x[static_cast<size_t>(a)], x2 = x[static_cast<size_t>(b)];
            const double c0 = cosv[static_cast<size_t>(i)], s0 = sinv[static_cast<size_t>(i)];
            y[static_cast<size_t>(a)] = x1 * c0 - x2 * s0;
            y[static_cast<size_t>(b)] = x2 * c0 + x1 * s0;
            (*sc)[static_cast<size_t>(a)] = (*sc)[static_cast<size_t>(b)] = std::fabs(x1 * c0) + std::fabs(x2 * s0) +
                                                                              std::fabs(x2 * c0) + std::fabs(x1 * s0);
          }
          for (int64_t j = rot; j < hs; ++j) (*sc)[static_cast<size_t>(base + j)] = 0;
        }
      }
      return y;
    };
    std::vector<double> sq, sk;
    const auto rq = ref(qv, nq, &sq), rk = ref(kv, nk, &sk);
    qo.download();
    ko.download();
    expect_close(r, "queryOut", t, values(qo), rq, 1e-6, sq);
    expect_close(r, "keyOut", t, values(ko), rk, 1e-6, sk);
    if (HasFailure()) return;
  }
}

TEST(TransformerRope, RopeWithSinCosCacheOutOfRangePositionFailsAtSync) {
  Tensor pos(TensorDesc(ACL_INT64, {2})), q(TensorDesc(ACL_FLOAT, {2, 8})), k(TensorDesc(ACL_FLOAT, {2, 8}));
  Tensor cache(TensorDesc(ACL_FLOAT, {3, 8})), qo(TensorDesc(ACL_FLOAT, {2, 8})), ko(TensorDesc(ACL_FLOAT, {2, 8}));
  set_values(pos, {1, 3});
  const aclnnStatus st = run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
    return aclnnRopeWithSinCosCacheGetWorkspaceSize(pos.get(), q.get(), k.get(), cache.get(), nullptr, 8, true,
                                                    qo.get(), ko.get(), w, e);
  },
                                       aclnnRopeWithSinCosCache);
  EXPECT_NE(st, ACL_SUCCESS);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("positions[1] is 3"), std::string::npos) << aclGetRecentErrMsg();
}

TEST(TransformerRope, BadArguments) {
  Tensor x(TensorDesc(ACL_FLOAT, {2, 3, 4, 8})), c(TensorDesc(ACL_FLOAT, {1, 3, 1, 8})), out(TensorDesc(ACL_FLOAT, {2, 3, 4, 8}));
  Tensor c_bad(TensorDesc(ACL_FLOAT, {2, 2, 1, 8})), c16(TensorDesc(ACL_FLOAT16, {1, 3, 1, 8}));
  Tensor x3(TensorDesc(ACL_FLOAT, {2, 3, 8})), x_odd(TensorDesc(ACL_FLOAT, {2, 3, 4, 6})), c_odd(TensorDesc(ACL_FLOAT, {1, 3, 1, 6}));
  Tensor xi(TensorDesc(ACL_INT32, {2, 3, 4, 8})), out_bad(TensorDesc(ACL_FLOAT, {2, 3, 4, 4}));
  auto rpe = [&](aclTensor* xx, aclTensor* cc, aclTensor* ss, int64_t mode, aclTensor* oo) {
    return [=](uint64_t* w, aclOpExecutor** e) {
      return aclnnRotaryPositionEmbeddingGetWorkspaceSize(xx, cc, ss, mode, oo, w, e);
    };
  };
  expect_phase1_error("null x", ACLNN_ERR_PARAM_NULLPTR, "x", rpe(nullptr, c.get(), c.get(), 0, out.get()));
  expect_phase1_error("null sin", ACLNN_ERR_PARAM_NULLPTR, "sin", rpe(x.get(), c.get(), nullptr, 0, out.get()));
  expect_phase1_error("int x", ACLNN_ERR_PARAM_INVALID, "int32", rpe(xi.get(), c.get(), c.get(), 0, out.get()));
  expect_phase1_error("cos dtype", ACLNN_ERR_PARAM_INVALID, "cos has dtype float16",
                      rpe(x.get(), c16.get(), c16.get(), 0, out.get()));
  expect_phase1_error("3-d x", ACLNN_ERR_PARAM_INVALID, "x has 3 dims", rpe(x3.get(), c.get(), c.get(), 0, out.get()));
  expect_phase1_error("mode 4", 561002, "mode is 4", rpe(x.get(), c.get(), c.get(), 4, out.get()));
  expect_phase1_error("cos not broadcastable", 561002, "leading dims", rpe(x.get(), c_bad.get(), c_bad.get(), 0, out.get()));
  expect_phase1_error("out shape", 561002, "out has shape", rpe(x.get(), c.get(), c.get(), 0, out_bad.get()));
  expect_phase1_error("quarter needs D % 4", 561002, "multiple of 4",
                      rpe(x_odd.get(), c_odd.get(), c_odd.get(), 2, x_odd.get()));

  // Grad: dcosOut/dsinOut are required even without x.
  expect_phase1_error("grad null dcos", ACLNN_ERR_PARAM_NULLPTR, "dcosOut", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnRotaryPositionEmbeddingGradGetWorkspaceSize(x.get(), c.get(), c.get(), nullptr, 0, out.get(), nullptr,
                                                            c.get(), w, e);
  });
  expect_phase1_error("grad dcos shape", 561002, "dcosOut has shape", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnRotaryPositionEmbeddingGradGetWorkspaceSize(x.get(), c.get(), c.get(), x.get(), 0, out.get(), x.get(),
                                                            c.get(), w, e);
  });

  // ApplyRotaryPosEmb
  Tensor q(TensorDesc(ACL_FLOAT, {2, 3, 4, 8})), k(TensorDesc(ACL_FLOAT, {2, 3, 2, 8})), k_bad(TensorDesc(ACL_FLOAT, {2, 2, 2, 8}));
  Tensor ac(TensorDesc(ACL_FLOAT, {2, 3, 1, 8})), ac_n(TensorDesc(ACL_FLOAT, {2, 3, 2, 8})), qe(TensorDesc(ACL_FLOAT, {2, 0, 4, 8}));
  auto apply = [&](aclTensor* qq, aclTensor* kk, aclTensor* cc, int64_t layout) {
    return [=](uint64_t* w, aclOpExecutor** e) {
      return aclnnApplyRotaryPosEmbGetWorkspaceSize(qq, kk, cc, cc, layout, w, e);
    };
  };
  expect_phase1_error("apply null key", ACLNN_ERR_PARAM_NULLPTR, "keyRef", apply(q.get(), nullptr, ac.get(), 1));
  expect_phase1_error("apply layout 2 in V1", ACLNN_ERR_PARAM_INVALID, "layout is 2", apply(q.get(), k.get(), ac.get(), 2));
  expect_phase1_error("apply key shape", ACLNN_ERR_PARAM_INVALID, "keyRef has shape", apply(q.get(), k_bad.get(), ac.get(), 1));
  expect_phase1_error("apply cos N", ACLNN_ERR_PARAM_INVALID, "cos has shape", apply(q.get(), k.get(), ac_n.get(), 1));
  expect_phase1_error("apply empty", ACLNN_ERR_PARAM_INVALID, "empty", apply(qe.get(), k.get(), ac.get(), 1));
  char bad_mode[] = "full";
  expect_phase1_error("apply v2 mode", ACLNN_ERR_PARAM_INVALID, "rotaryMode is \"full\"", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnApplyRotaryPosEmbV2GetWorkspaceSize(q.get(), k.get(), ac.get(), ac.get(), 1, bad_mode, w, e);
  });
  expect_phase1_error("apply v2 layout", ACLNN_ERR_PARAM_INVALID, "layout is 4", [&](uint64_t* w, aclOpExecutor** e) {
    char m[] = "half";
    return aclnnApplyRotaryPosEmbV2GetWorkspaceSize(q.get(), k.get(), ac.get(), ac.get(), 4, m, w, e);
  });

  // RopeWithSinCosCache
  Tensor pos(TensorDesc(ACL_INT64, {2})), pos3(TensorDesc(ACL_INT64, {3, 2})), posf(TensorDesc(ACL_FLOAT, {2}));
  Tensor rq(TensorDesc(ACL_FLOAT, {2, 16})), rk(TensorDesc(ACL_FLOAT, {2, 8})), rk_bad(TensorDesc(ACL_FLOAT, {3, 8}));
  Tensor cache(TensorDesc(ACL_FLOAT, {4, 8})), cache_big(TensorDesc(ACL_FLOAT, {4, 10}));
  IntArray sec_bad({1, 1, 1}), sec({2, 1, 1});
  auto rope = [&](aclTensor* p, aclTensor* kk, aclTensor* cc, aclIntArray* m, int64_t hs) {
    aclTensor* qq = rq.get();
    return [=](uint64_t* w, aclOpExecutor** e) {
      return aclnnRopeWithSinCosCacheGetWorkspaceSize(p, qq, kk, cc, m, hs, true, qq, kk, w, e);
    };
  };
  expect_phase1_error("rope float positions", ACLNN_ERR_PARAM_INVALID, "positions dtype float32",
                      rope(posf.get(), rk.get(), cache.get(), nullptr, 8));
  expect_phase1_error("rope key tokens", ACLNN_ERR_PARAM_INVALID, "keyIn has 3 tokens",
                      rope(pos.get(), rk_bad.get(), cache.get(), nullptr, 8));
  expect_phase1_error("rope headSize", ACLNN_ERR_PARAM_INVALID, "headSize 3", rope(pos.get(), rk.get(), cache.get(), nullptr, 3));
  expect_phase1_error("rope headSize 0", ACLNN_ERR_PARAM_INVALID, "headSize is 0",
                      rope(pos.get(), rk.get(), cache.get(), nullptr, 0));
  expect_phase1_error("rope rotaryDim", ACLNN_ERR_PARAM_INVALID, "rotaryDim", rope(pos.get(), rk.get(), cache_big.get(), nullptr, 8));
  expect_phase1_error("mrope no section", ACLNN_ERR_PARAM_INVALID, "mropeSection must hold 3",
                      rope(pos3.get(), rk.get(), cache.get(), nullptr, 8));
  expect_phase1_error("mrope section sum", ACLNN_ERR_PARAM_INVALID, "mropeSection sums to 3",
                      rope(pos3.get(), rk.get(), cache.get(), sec_bad.a, 8));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(rope(pos3.get(), rk.get(), cache.get(), sec.a, 8)(&ws, &ex), ACL_SUCCESS) << aclGetRecentErrMsg();
  aclDestroyAclOpExecutor(ex);
}

}  // namespace
