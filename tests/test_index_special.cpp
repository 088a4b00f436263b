// Embedding, unpooling and special-purpose index ops: EmbeddingBag, EmbeddingDenseBackward,
// MaxUnpool2d/3dBackward, ExpandIntoJaggedPermute, ScatterList, InplaceQuantScatter, ApplyTopKTopP,
// TopKTopPSample(V2). References are written here on the host copies (double precision, or index
// maps compared by bytes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "aclnnop/aclnn_apply_top_k_top_p.h"
#include "aclnnop/aclnn_embedding_bag.h"
#include "aclnnop/aclnn_embedding_dense_backward.h"
#include "aclnnop/aclnn_expand_into_jagged_permute.h"
#include "aclnnop/aclnn_max_unpool2d_backward.h"
#include "aclnnop/aclnn_max_unpool3d_backward.h"
#include "aclnnop/aclnn_quant_scatter.h"
#include "aclnnop/aclnn_scatter_list.h"
#include "aclnnop/aclnn_top_k_top_p_sample.h"
#include "aclnnop/aclnn_top_k_top_p_sample_v2.h"
#include "index_test_util.h"

namespace {

using namespace idxtest;

const FillOptions kSmallInts{0, 1.0};  // small integers: sums are exact in every float dtype

bool run_ok(const std::string& repro, const Phase1Fn& p1, Phase2Fn p2) {
  const aclnnStatus st = run_two_phase(p1, p2);
  EXPECT_EQ(st, ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
  return st == ACL_SUCCESS;
}

// |got - want| within a relative tolerance fitting the dtype (one rounding of the result).
bool close(aclDataType t, double want, double got) {
  if (std::isinf(want) || std::isinf(got)) return want == got;
  const double tol = t == ACL_FLOAT ? 1e-6 : t == ACL_FLOAT16 ? 1e-3 : 8e-3;
  return std::fabs(got - want) <= tol * std::max(1.0, std::fabs(want));
}

// ---- EmbeddingBag ----------------------------------------------------------------------------------------------

TEST(EmbeddingBag, ModesOffsetsPaddingAndWeights) {
  Rng rng(201);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (int iter = 0; iter < 60; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const int64_t mode = iter % 3;
    const aclDataType it = rng() % 2 ? ACL_INT64 : ACL_INT32, ot = rng() % 2 ? ACL_INT64 : ACL_INT32;
    const aclDataType wide = it == ACL_INT64 || ot == ACL_INT64 ? ACL_INT64 : ACL_INT32;
    const int64_t rows = 1 + static_cast<int64_t>(rng() % 6), dim = 1 + static_cast<int64_t>(rng() % 4);
    const bool two_d = rng() % 4 == 0;
    const bool include_last = !two_d && rng() % 2;
    const int64_t n = two_d ? 0 : static_cast<int64_t>(rng() % 9);
    const int64_t b2 = 1 + static_cast<int64_t>(rng() % 3), per = 1 + static_cast<int64_t>(rng() % 3);
    const Shape ishape = two_d ? Shape{b2, per} : Shape{n};
    const int64_t nidx = numel(ishape);
    // Offsets: non-decreasing, starting at 0, within [0, n].
    std::vector<int64_t> offs;
    if (!two_d) {
      const int64_t noff = 1 + static_cast<int64_t>(rng() % 4);
      offs.push_back(0);
      for (int64_t k = 1; k < noff; ++k) offs.push_back(std::min(n, offs.back() + static_cast<int64_t>(rng() % 4)));
      if (include_last) offs.push_back(n);
    }
    const int64_t bags = two_d ? b2 : static_cast<int64_t>(offs.size()) - (include_last ? 1 : 0);
    const int64_t pad = rng() % 3 == 0 ? static_cast<int64_t>(rng() % static_cast<uint64_t>(rows)) : -1;
    const bool with_psw = mode == 0 && rng() % 2;
    Tensor weight(view_of(t, {rows, dim}, rng() % 2)), indices(view_of(it, ishape, rng() % 2));
    Tensor offsets(TensorDesc(ot, {two_d ? 0 : static_cast<int64_t>(offs.size())}));
    Tensor psw(TensorDesc(t, {nidx}));
    weight.fill_random(rng, kSmallInts);
    psw.fill_random(rng, kSmallInts);
    const std::vector<int64_t> idx = random_indices(rng, nidx, rows, false);
    set_indices(indices, idx);
    if (!two_d) set_indices(offsets, offs);
    Tensor output(TensorDesc(t, {bags, dim})), o2b(TensorDesc(wide, {nidx})), bsz(TensorDesc(wide, {bags}));
    Tensor maxi(TensorDesc(wide, mode == 2 ? Shape{bags, dim} : Shape{bags}));
    const std::string r = "EmbeddingBag weight=" + weight.desc().str() + " indices=" + indices.desc().str() + " " +
                          vec_str(idx) + " offsets=" + vec_str(offs) + " mode=" + std::to_string(mode) +
                          " includeLast=" + std::to_string(include_last) + " padding=" + std::to_string(pad) +
                          (with_psw ? " perSampleWeights" : "");
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
          return aclnnEmbeddingBagGetWorkspaceSize(weight.get(), indices.get(), offsets.get(), false, mode, false,
                                                   with_psw ? psw.get() : nullptr, include_last, pad, output.get(),
                                                   o2b.get(), bsz.get(), maxi.get(), w, e);
        }, aclnnEmbeddingBag))
      return;
    output.download(), o2b.download(), bsz.download(), maxi.download();
    for (int64_t g = 0; g < bags; ++g) {
      const int64_t s = two_d ? g * per : offs[static_cast<size_t>(g)];
      const int64_t e = two_d ? (g + 1) * per : (g + 1 < static_cast<int64_t>(offs.size()) ? offs[static_cast<size_t>(g + 1)] : n);
      int64_t count = 0;
      std::vector<double> acc(static_cast<size_t>(dim), 0);
      std::vector<int64_t> arg(static_cast<size_t>(dim), 0);
      for (int64_t j = s; j < e; ++j) {
        EXPECT_EQ(o2b.at({j}).i, g) << r << ": offset2bag[" << j << "]";
        const int64_t row = idx[static_cast<size_t>(j)];
        if (row == pad) continue;
        for (int64_t c = 0; c < dim; ++c) {
          const double v = weight.at({row, c}).as_double();
          if (mode == 2) {
            if (count == 0 || v > acc[static_cast<size_t>(c)]) acc[static_cast<size_t>(c)] = v, arg[static_cast<size_t>(c)] = row;
          } else {
            acc[static_cast<size_t>(c)] += (with_psw ? psw.at({j}).as_double() : 1.0) * v;
          }
        }
        ++count;
      }
      for (int64_t c = 0; c < dim; ++c) {
        const double want = mode == 1 && count ? acc[static_cast<size_t>(c)] / static_cast<double>(count) : acc[static_cast<size_t>(c)];
        const double got = output.at({g, c}).as_double();
        EXPECT_TRUE(close(t, want, got)) << r << ": output[" << g << "," << c << "] is " << got << ", expected " << want;
        if (mode == 2) {
          EXPECT_EQ(maxi.at({g, c}).i, arg[static_cast<size_t>(c)]) << r << ": maxIndices[" << g << "," << c << "]";
        }
      }
      EXPECT_EQ(bsz.at({g}).i, mode == 0 ? 0 : count) << r << ": bagSize[" << g << "]";
      if (mode != 2) {
        EXPECT_EQ(maxi.at({g}).i, mode == 1 ? count : 0) << r << ": maxIndices[" << g << "]";
      }
    }
    if (HasFailure()) return;
  }
}

TEST(EmbeddingBag, BadArguments) {
  Tensor w(TensorDesc(ACL_FLOAT, {4, 3})), i(TensorDesc(ACL_INT64, {5})), off(TensorDesc(ACL_INT64, {2})),
      out(TensorDesc(ACL_FLOAT, {2, 3})), o2b(TensorDesc(ACL_INT64, {5})), bs(TensorDesc(ACL_INT64, {2})),
      mi(TensorDesc(ACL_INT64, {2})), out_bad(TensorDesc(ACL_FLOAT, {3, 3})), wd(TensorDesc(ACL_DOUBLE, {4, 3})),
      psw(TensorDesc(ACL_FLOAT, {5}));
  auto call = [&](const Tensor& ww, int64_t mode, bool scale, const Tensor* p, const Tensor& o) {
    return [&, pw = &ww, mode, scale, p, po = &o](uint64_t* ws, aclOpExecutor** e) {
      return aclnnEmbeddingBagGetWorkspaceSize(pw->get(), i.get(), off.get(), scale, mode, false, p ? p->get() : nullptr,
                                               false, -1, po->get(), o2b.get(), bs.get(), mi.get(), ws, e);
    };
  };
  expect_phase1_error("dtype", ACLNN_ERR_PARAM_INVALID, "weight", call(wd, 0, false, nullptr, out));
  expect_phase1_error("scale", ACLNN_ERR_PARAM_INVALID, "scaleGradByFreq", call(w, 0, true, nullptr, out));
  expect_phase1_error("psw mode", ACLNN_ERR_PARAM_INVALID, "perSampleWeights", call(w, 1, false, &psw, out));
  expect_phase1_error("output", ACLNN_ERR_PARAM_INVALID, "output", call(w, 0, false, nullptr, out_bad));
  Tensor bad_off(TensorDesc(ACL_INT64, {2}));
  set_indices(bad_off, {0, 7});
  set_indices(i, {0, 1, 2, 3, 0});
  expect_run_failure("offsets past the end", "offsets", [&](uint64_t* ws, aclOpExecutor** e) {
    return aclnnEmbeddingBagGetWorkspaceSize(w.get(), i.get(), bad_off.get(), false, 0, false, nullptr, false, -1,
                                             out.get(), o2b.get(), bs.get(), mi.get(), ws, e);
  }, aclnnEmbeddingBag);
}

// ---- EmbeddingDenseBackward ----------------------------------------------------------------------------------

TEST(EmbeddingDenseBackward, SumsScalesAndPadding) {
  Rng rng(202);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (int iter = 0; iter < 60; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const aclDataType it = rng() % 2 ? ACL_INT64 : ACL_INT32;
    const int64_t rows = 1 + static_cast<int64_t>(rng() % 6), dim = 1 + static_cast<int64_t>(rng() % 4);
    Shape ishape(1 + rng() % 3);
    for (auto& d : ishape) d = static_cast<int64_t>(rng() % 4);
    if (iter % 5) for (auto& d : ishape) d = std::max<int64_t>(d, 1);
    Shape gshape = ishape;
    gshape.push_back(dim);
    const bool scale = rng() % 2;
    const uint64_t pad = rng() % 2 ? rng() % static_cast<uint64_t>(rows) : static_cast<uint64_t>(-1);
    Tensor grad(view_of(t, gshape, rng() % 2)), indices(view_of(it, ishape, rng() % 2)), out(TensorDesc(t, {rows, dim}));
    grad.fill_random(rng, kSmallInts);
    const std::vector<int64_t> idx = random_indices(rng, numel(ishape), rows, false);
    set_indices(indices, idx);
    const std::string r = "EmbeddingDenseBackward grad=" + grad.desc().str() + " indices=" + vec_str(idx) + " numWeights=" +
                          std::to_string(rows) + " padding=" + std::to_string(static_cast<int64_t>(pad)) + " scale=" + std::to_string(scale);
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
          return aclnnEmbeddingDenseBackwardGetWorkspaceSize(grad.get(), indices.get(), static_cast<uint64_t>(rows), pad, scale, out.get(), w, e);
        }, aclnnEmbeddingDenseBackward))
      return;
    out.download();
    std::vector<int64_t> count(static_cast<size_t>(rows), 0);
    for (int64_t v : idx) ++count[static_cast<size_t>(v)];
    const std::vector<Shape> pos = positions(ishape);
    for (int64_t rr = 0; rr < rows; ++rr)
      for (int64_t c = 0; c < dim; ++c) {
        double want = 0;
        if (static_cast<uint64_t>(rr) != pad)
          for (size_t k = 0; k < idx.size(); ++k)
            if (idx[k] == rr) {
              Shape gi = pos[k];
              gi.push_back(c);
              want += grad.at(gi).as_double() / (scale ? static_cast<double>(count[static_cast<size_t>(rr)]) : 1.0);
            }
        const double got = out.at({rr, c}).as_double();
        EXPECT_TRUE(close(t, want, got) || std::fabs(got - want) < 1e-4 * static_cast<double>(idx.size()))
            << r << ": out[" << rr << "," << c << "] is " << got << ", expected " << want;
      }
    if (HasFailure()) return;
  }
}

TEST(EmbeddingDenseBackward, BadArguments) {
  Tensor g(TensorDesc(ACL_FLOAT, {3, 4})), i(TensorDesc(ACL_INT64, {3})), out(TensorDesc(ACL_FLOAT, {5, 4})),
      i4(TensorDesc(ACL_INT64, {4})), out_bad(TensorDesc(ACL_FLOAT, {5, 3})), gi(TensorDesc(ACL_INT32, {3, 4}));
  auto call = [](const Tensor& gg, const Tensor& ii, const Tensor& o) {
    return [&gg, &ii, &o](uint64_t* w, aclOpExecutor** e) {
      return aclnnEmbeddingDenseBackwardGetWorkspaceSize(gg.get(), ii.get(), 5, 0, false, o.get(), w, e);
    };
  };
  expect_phase1_error("count", ACLNN_ERR_PARAM_INVALID, "grad", call(g, i4, out));
  expect_phase1_error("out", ACLNN_ERR_PARAM_INVALID, "out", call(g, i, out_bad));
  expect_phase1_error("dtype", ACLNN_ERR_PARAM_INVALID, "grad", call(gi, i, out));
  set_indices(i, {0, 5, 1});
  expect_run_failure("index range", "indices", call(g, i, out), aclnnEmbeddingDenseBackward);
}

// ---- MaxUnpool2d/3dBackward ----------------------------------------------------------------------------------

TEST(MaxUnpoolBackward, GathersFromPlanes) {
  Rng rng(203);
  const std::vector<aclDataType> types2 = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT64, ACL_INT8, ACL_UINT8, ACL_INT16};
  const std::vector<aclDataType> types3 = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_INT8};
  for (int iter = 0; iter < 60; ++iter) {
    const int sp = iter % 2 ? 3 : 2;
    const auto& types = sp == 2 ? types2 : types3;
    const aclDataType t = types[static_cast<size_t>(iter / 2) % types.size()];
    const aclDataType it = sp == 3 || rng() % 2 ? ACL_INT64 : ACL_INT32;
    const bool batched = rng() % 2;
    Shape self_shape, out_size;
    if (batched) self_shape.push_back(1 + static_cast<int64_t>(rng() % 2));
    self_shape.push_back(1 + static_cast<int64_t>(rng() % 3));
    Shape gshape = self_shape;
    int64_t plane = 1;
    for (int k = 0; k < sp; ++k) {
      self_shape.push_back(1 + static_cast<int64_t>(rng() % 3));
      out_size.push_back(self_shape.back() + static_cast<int64_t>(rng() % 3));
      gshape.push_back(out_size.back());
      plane *= out_size.back();
    }
    Tensor grad(view_of(t, gshape, rng() % 2)), self(TensorDesc(t, self_shape)), indices(view_of(it, self_shape, rng() % 2));
    Tensor out(view_of(t, self_shape, rng() % 2));
    fill_bytes(grad, rng);
    fill_bytes(out, rng);
    const auto before = out.host();
    const std::vector<int64_t> idx = random_indices(rng, numel(self_shape), plane, false);
    set_indices(indices, idx);
    IntArray os(out_size), st(std::vector<int64_t>(static_cast<size_t>(sp), 2)), pd(std::vector<int64_t>(static_cast<size_t>(sp), 0));
    const std::string r = "MaxUnpool" + std::to_string(sp) + "dBackward grad=" + grad.desc().str() + " self=" + self.desc().str() +
                          " indices=" + indices.desc().str() + " out=" + out.desc().str();
    const bool ok = sp == 2 ? run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnMaxUnpool2dBackwardGetWorkspaceSize(grad.get(), self.get(), indices.get(), os.a, out.get(), w, e);
    }, aclnnMaxUnpool2dBackward)
                            : run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnMaxUnpool3dBackwardGetWorkspaceSize(grad.get(), self.get(), indices.get(), os.a, st.a, pd.a, out.get(), w, e);
    }, aclnnMaxUnpool3dBackward);
    if (!ok) return;
    out.download();
    const std::vector<Shape> pos = positions(self_shape);
    const size_t lead = self_shape.size() - static_cast<size_t>(sp);
    for (size_t k = 0; k < pos.size(); ++k) {
      Shape gi(pos[k].begin(), pos[k].begin() + static_cast<long>(lead));
      int64_t f = idx[k];
      Shape sub(static_cast<size_t>(sp));
      for (int d = sp - 1; d >= 0; --d) sub[static_cast<size_t>(d)] = f % out_size[static_cast<size_t>(d)], f /= out_size[static_cast<size_t>(d)];
      gi.insert(gi.end(), sub.begin(), sub.end());
      EXPECT_TRUE(same_bytes(out, pos[k], grad, gi)) << r << ": out" << shape_str(pos[k]) << " is not grad" << shape_str(gi);
    }
    const std::string outside = writes_outside_view(out, before);
    EXPECT_TRUE(outside.empty()) << r << ": " << outside;
    if (HasFailure()) return;
  }
}

TEST(MaxUnpoolBackward, BadArguments) {
  Tensor g(TensorDesc(ACL_FLOAT, {1, 2, 4, 4})), s(TensorDesc(ACL_FLOAT, {1, 2, 2, 2})), i(TensorDesc(ACL_INT64, {1, 2, 2, 2})),
      out(TensorDesc(ACL_FLOAT, {1, 2, 2, 2})), i_bad(TensorDesc(ACL_INT64, {1, 2, 2, 3})), s1(TensorDesc(ACL_FLOAT, {2, 2}));
  IntArray os({4, 4}), os3({4, 4, 4}), os_bad({4, 5});
  auto call2 = [&](const Tensor& ss, const Tensor& ii, IntArray& o) {
    return [&, ps = &ss, pi = &ii, po = &o](uint64_t* w, aclOpExecutor** e) {
      return aclnnMaxUnpool2dBackwardGetWorkspaceSize(g.get(), ps->get(), pi->get(), po->a, out.get(), w, e);
    };
  };
  expect_phase1_error("outputSize count", ACLNN_ERR_PARAM_INVALID, "outputSize", call2(s, i, os3));
  expect_phase1_error("outputSize value", ACLNN_ERR_PARAM_INVALID, "outputSize", call2(s, i, os_bad));
  expect_phase1_error("indices shape", ACLNN_ERR_PARAM_INVALID, "indices", call2(s, i_bad, os));
  expect_phase1_error("self rank", ACLNN_ERR_PARAM_INVALID, "self", call2(s1, i, os));
  set_indices(i, {0, 1, 2, 3, 4, 5, 6, 16});
  expect_run_failure("index range", "indices", call2(s, i, os), aclnnMaxUnpool2dBackward);
  expect_phase1_error("3d null stride", ACLNN_ERR_PARAM_NULLPTR, "stride", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnMaxUnpool3dBackwardGetWorkspaceSize(g.get(), s.get(), i.get(), os3.a, nullptr, os3.a, out.get(), w, e);
  });
}

// ---- ExpandIntoJaggedPermute -------------------------------------------------------------------------------------

TEST(ExpandIntoJaggedPermute, RandomSegments) {
  Rng rng(204);
  for (int iter = 0; iter < 40; ++iter) {
    const int64_t n = 1 + static_cast<int64_t>(rng() % 6);
    std::vector<int64_t> len(static_cast<size_t>(n));
    for (auto& l : len) l = static_cast<int64_t>(rng() % 4);
    std::vector<int64_t> in_off = {0};
    for (int64_t l : len) in_off.push_back(in_off.back() + l);
    std::vector<int64_t> perm(static_cast<size_t>(n));
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<int64_t> out_off = {0};
    for (int64_t p : perm) out_off.push_back(out_off.back() + len[static_cast<size_t>(p)]);
    const int64_t total = out_off.back();
    Tensor tp(TensorDesc(ACL_INT32, {n})), ti(TensorDesc(ACL_INT32, {n + 1})), to(TensorDesc(ACL_INT32, {n + 1})),
        out(TensorDesc(ACL_INT32, {total}));
    set_indices(tp, perm), set_indices(ti, in_off), set_indices(to, out_off);
    const std::string r = "ExpandIntoJaggedPermute permute=" + vec_str(perm) + " inputOffset=" + vec_str(in_off) + " outputOffset=" + vec_str(out_off);
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
          return aclnnExpandIntoJaggedPermuteGetWorkspaceSize(tp.get(), ti.get(), to.get(), total, out.get(), w, e);
        }, aclnnExpandIntoJaggedPermute))
      return;
    out.download();
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = out_off[static_cast<size_t>(i)]; j < out_off[static_cast<size_t>(i + 1)]; ++j)
        EXPECT_EQ(out.at({j}).i, in_off[static_cast<size_t>(perm[static_cast<size_t>(i)])] + j - out_off[static_cast<size_t>(i)]) << r << ": out[" << j << "]";
    if (HasFailure()) return;
  }
}

TEST(ExpandIntoJaggedPermute, BadArguments) {
  Tensor p(TensorDesc(ACL_INT32, {3})), io(TensorDesc(ACL_INT32, {4})), oo(TensorDesc(ACL_INT32, {4})),
      out(TensorDesc(ACL_INT32, {6})), io_bad(TensorDesc(ACL_INT32, {3})), p64(TensorDesc(ACL_INT64, {3}));
  auto call = [&](const Tensor& pp, const Tensor& ii, int64_t size) {
    return [&, ppp = &pp, pii = &ii, size](uint64_t* w, aclOpExecutor** e) {
      return aclnnExpandIntoJaggedPermuteGetWorkspaceSize(ppp->get(), pii->get(), oo.get(), size, out.get(), w, e);
    };
  };
  expect_phase1_error("offset shape", ACLNN_ERR_PARAM_INVALID, "inputOffset", call(p, io_bad, 6));
  expect_phase1_error("dtype", ACLNN_ERR_PARAM_INVALID, "permute", call(p64, io, 6));
  expect_phase1_error("size", ACLNN_ERR_PARAM_INVALID, "outputPermuteOut", call(p, io, 5));
  set_indices(p, {0, 1, 2}), set_indices(io, {0, 2, 4, 6}), set_indices(oo, {0, 2, 4, 9});
  expect_run_failure("offsets", "outputOffset", call(p, io, 6), aclnnExpandIntoJaggedPermute);
}

// ---- ScatterList -------------------------------------------------------------------------------------------------

TEST(ScatterList, SlicesAlongAxisWithMask) {
  Rng rng(205);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT16, ACL_INT32, ACL_UINT8};
  for (int iter = 0; iter < 50; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const int64_t nb = 1 + static_cast<int64_t>(rng() % 3);
    const int vr = 1 + static_cast<int>(rng() % 3);
    Shape vshape(static_cast<size_t>(vr));
    for (auto& d : vshape) d = 1 + static_cast<int64_t>(rng() % 4);
    const int64_t urank = vr + 1;
    const int64_t ax = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(vr));
    const int64_t axis_arg = rng() % 2 ? ax : ax - urank;
    const size_t vax = static_cast<size_t>(ax - 1);
    Shape ushape = {nb};
    ushape.insert(ushape.end(), vshape.begin(), vshape.end());
    ushape[static_cast<size_t>(ax)] = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(vshape[vax]));
    const int64_t usize = ushape[static_cast<size_t>(ax)];
    const bool two_d = rng() % 2, with_mask = rng() % 2;
    std::vector<int64_t> ind, starts, lens, mask;
    for (int64_t i = 0; i < nb; ++i) {
      const int64_t len = two_d ? static_cast<int64_t>(rng() % static_cast<uint64_t>(usize + 2)) : usize;
      const int64_t eff = std::min(len, usize);
      const int64_t start = static_cast<int64_t>(rng() % static_cast<uint64_t>(vshape[vax] - eff + 1));
      starts.push_back(start), lens.push_back(eff), mask.push_back(with_mask ? static_cast<int64_t>(rng() % 2) : 1);
      ind.push_back(start);
      if (two_d) ind.push_back(len);
    }
    std::vector<std::unique_ptr<Tensor>> vars;
    std::vector<const Tensor*> vp;
    std::vector<std::vector<uint8_t>> before;
    for (int64_t i = 0; i < nb; ++i) {
      vars.push_back(std::make_unique<Tensor>(view_of(t, vshape, rng() % 2)));
      fill_bytes(*vars.back(), rng);
      vp.push_back(vars.back().get());
      before.push_back(vars.back()->host());
    }
    Tensor upd(view_of(t, ushape, rng() % 2)), indice(TensorDesc(rng() % 2 ? ACL_INT64 : ACL_INT32, two_d ? Shape{nb, 2} : Shape{nb}));
    Tensor m(TensorDesc(ACL_UINT8, {nb}));
    fill_bytes(upd, rng);
    set_indices(indice, ind);
    set_indices(m, mask);
    TensorListOf list(vp);
    char reduce[] = "update";
    const std::string r = "ScatterList vars=" + std::to_string(nb) + "x" + vars[0]->desc().str() + " updates=" + upd.desc().str() +
                          " indice=" + vec_str(ind) + (with_mask ? " mask=" + vec_str(mask) : "") + " axis=" + std::to_string(axis_arg);
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
          return aclnnScatterListGetWorkspaceSize(list.get(), indice.get(), upd.get(), with_mask ? m.get() : nullptr,
                                                  rng() % 2 ? reduce : nullptr, axis_arg, w, e);
        }, aclnnScatterList))
      return;
    for (int64_t i = 0; i < nb; ++i) {
      Tensor& v = *vars[static_cast<size_t>(i)];
      v.download();
      for_each_index(vshape, [&](const Shape& p) {
        const int64_t q = p[vax] - starts[static_cast<size_t>(i)];
        const bool hit = mask[static_cast<size_t>(i)] && q >= 0 && q < lens[static_cast<size_t>(i)];
        if (hit) {
          Shape ui = {i};
          ui.insert(ui.end(), p.begin(), p.end());
          ui[static_cast<size_t>(ax)] = q;
          EXPECT_TRUE(same_bytes(v, p, upd, ui)) << r << ": var[" << i << "]" << shape_str(p);
        } else {
          EXPECT_EQ(std::memcmp(elem(v, p), before[static_cast<size_t>(i)].data() + v.desc().storage_index(p) * dtype_size(t), dtype_size(t)), 0)
              << r << ": var[" << i << "]" << shape_str(p) << " changed";
        }
      });
      const std::string outside = writes_outside_view(v, before[static_cast<size_t>(i)]);
      EXPECT_TRUE(outside.empty()) << r << ": " << outside;
    }
    if (HasFailure()) return;
  }
}

TEST(ScatterList, BadArguments) {
  Tensor v0(TensorDesc(ACL_FLOAT, {2, 4})), v1(TensorDesc(ACL_FLOAT, {2, 4})), v2(TensorDesc(ACL_FLOAT, {2, 5})),
      upd(TensorDesc(ACL_FLOAT, {2, 2, 3})), ind(TensorDesc(ACL_INT64, {2})), ind3(TensorDesc(ACL_INT64, {3})),
      upd_i(TensorDesc(ACL_INT32, {2, 2, 3}));
  TensorListOf ok({&v0, &v1}), mixed({&v0, &v2});
  char upd_s[] = "update", add_s[] = "add";
  auto call = [&](TensorListOf& l, const Tensor& i, const Tensor& u, char* red, int64_t axis) {
    return [&, pl = &l, pi = &i, pu = &u, red, axis](uint64_t* w, aclOpExecutor** e) {
      return aclnnScatterListGetWorkspaceSize(pl->get(), pi->get(), pu->get(), nullptr, red, axis, w, e);
    };
  };
  expect_phase1_error("reduce", ACLNN_ERR_PARAM_INVALID, "reduceOptional", call(ok, ind, upd, add_s, -1));
  expect_phase1_error("axis 0", ACLNN_ERR_PARAM_INVALID, "axis", call(ok, ind, upd, upd_s, 0));
  expect_phase1_error("shapes", ACLNN_ERR_PARAM_INVALID, "varRef[1]", call(mixed, ind, upd, upd_s, -1));
  expect_phase1_error("indice", ACLNN_ERR_PARAM_INVALID, "indice", call(ok, ind3, upd, upd_s, -1));
  expect_phase1_error("dtype", ACLNN_ERR_PARAM_INVALID, "varRef[0]", call(ok, ind, upd_i, upd_s, -1));
  set_indices(ind, {0, 2});
  expect_run_failure("range", "indice", call(ok, ind, upd, upd_s, -1), aclnnScatterList);
}

// ---- InplaceQuantScatter -------------------------------------------------------------------------------------------

TEST(InplaceQuantScatter, QuantizesAndScatters) {
  Rng rng(206);
  for (int iter = 0; iter < 40; ++iter) {
    const bool bf = iter % 2;
    const aclDataType ut = bf ? ACL_BF16 : ACL_FLOAT16, st = bf ? ACL_BF16 : ACL_FLOAT, zt = bf ? ACL_BF16 : ACL_INT32;
    const int64_t s0 = 1 + static_cast<int64_t>(rng() % 3), s1 = 1 + static_cast<int64_t>(rng() % 5), d = 1 + static_cast<int64_t>(rng() % 5);
    const int64_t n0 = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(s0)), u1 = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(s1));
    const bool with_zero = rng() % 2, four = rng() % 2;
    const int64_t m = 1 + static_cast<int64_t>(rng() % 3);
    const Shape ss = four ? Shape{s0, m, s1, d} : Shape{s0, s1, d}, us = four ? Shape{n0, m, u1, d} : Shape{n0, u1, d};
    Tensor self(view_of(ACL_INT8, ss, rng() % 2)), upd(view_of(ut, us, rng() % 2));
    Tensor idx(TensorDesc(rng() % 2 ? ACL_INT64 : ACL_INT32, {n0})), sc(TensorDesc(st, {d})), zp(TensorDesc(zt, {d}));
    fill_bytes(self, rng);
    const auto before = self.host();
    upd.fill_random(rng, FillOptions{0.05, 0.3});
    for_each_index({d}, [&](const Shape& i) {
      sc.set(i, Num::real(std::ldexp(1.0 + static_cast<double>(rng() % 8) / 8, static_cast<int>(rng() % 5) - 3)));
      zp.set(i, bf ? Num::real(static_cast<double>(rng() % 9) - 4) : Num::integer(static_cast<int64_t>(rng() % 9) - 4));
    });
    sc.upload(), zp.upload();
    std::vector<int64_t> iv;
    for (int64_t i = 0; i < n0; ++i) iv.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(s1 - u1 + 1)));
    set_indices(idx, iv);
    const std::string r = std::string("InplaceQuantScatter self=") + self.desc().str() + " updates=" + upd.desc().str() + " indices=" + vec_str(iv) +
                          (with_zero ? " zeroPoints" : "");
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
          return aclnnInplaceQuantScatterGetWorkspaceSize(self.get(), idx.get(), upd.get(), sc.get(), with_zero ? zp.get() : nullptr,
                                                          rng() % 2 ? -2 : static_cast<int64_t>(ss.size()) - 2, -1, 1, w, e);
        }, aclnnInplaceQuantScatter))
      return;
    self.download();
    for_each_index(ss, [&](const Shape& p) {
      const size_t ax = ss.size() - 2;
      const int64_t i = p[0], k = p[ax] - (i < n0 ? iv[static_cast<size_t>(i)] : 0), c = p[ax + 1];
      if (i < n0 && k >= 0 && k < u1) {
        Shape ui = p;
        ui[ax] = k;
        double v = static_cast<double>(static_cast<float>(upd.at(ui).as_double()) / static_cast<float>(sc.at({c}).as_double()));
        if (with_zero) v = static_cast<float>(v) + static_cast<float>(zp.at({c}).as_double());
        const double q = std::isnan(v) ? 0 : std::min(127.0, std::max(-128.0, std::nearbyint(v)));
        EXPECT_EQ(self.at(p).i, static_cast<int64_t>(q)) << r << ": self" << shape_str(p) << " from " << v;
      } else {
        EXPECT_EQ(self.at(p).i, self.at(before, p).i) << r << ": self" << shape_str(p) << " changed";
      }
    });
    if (HasFailure()) return;
  }
}

TEST(InplaceQuantScatter, BadArguments) {
  Tensor self(TensorDesc(ACL_INT8, {2, 4, 3})), idx(TensorDesc(ACL_INT32, {2})), upd(TensorDesc(ACL_FLOAT16, {2, 2, 3})),
      sc(TensorDesc(ACL_FLOAT, {3})), sc_bf(TensorDesc(ACL_BF16, {3})), self2(TensorDesc(ACL_INT8, {8, 3})), self4(TensorDesc(ACL_INT8, {2, 1, 4, 3})), sc4(TensorDesc(ACL_FLOAT, {4}));
  auto call = [&](const Tensor& s, const Tensor& scale, int64_t axis, int64_t reduction) {
    return [&, ps = &s, psc = &scale, axis, reduction](uint64_t* w, aclOpExecutor** e) {
      return aclnnInplaceQuantScatterGetWorkspaceSize(ps->get(), idx.get(), upd.get(), psc->get(), nullptr, axis, -1, reduction, w, e);
    };
  };
  expect_phase1_error("scale dtype", ACLNN_ERR_PARAM_INVALID, "quantScales", call(self, sc_bf, -2, 1));
  expect_phase1_error("axis", ACLNN_ERR_PARAM_INVALID, "axis", call(self, sc, 0, 1));
  expect_phase1_error("reduction", ACLNN_ERR_PARAM_INVALID, "reduction", call(self, sc, -2, 0));
  expect_phase1_error("rank", ACLNN_ERR_PARAM_INVALID, "selfRef", call(self2, sc, -2, 1));
  expect_phase1_error("rank mismatch", ACLNN_ERR_PARAM_INVALID, "updates", call(self4, sc, -2, 1));
  expect_phase1_error("scale count", ACLNN_ERR_PARAM_INVALID, "quantScales", call(self, sc4, -2, 1));
  set_indices(idx, {0, 3});
  expect_run_failure("range", "indices", call(self, sc, -2, 1), aclnnInplaceQuantScatter);
}

// ---- ApplyTopKTopP ----------------------------------------------------------------------------------------------

// The doc's formula: ascending stable sort, top-k threshold = sorted[V-k], softmax, cumulative sum
// from the smallest, drop where cum <= 1-p (never the largest), scatter back.
std::vector<double> apply_top_k_top_p(std::vector<double> x, bool has_k, int64_t k, bool has_p, double p, aclDataType t) {
  const int64_t v = static_cast<int64_t>(x.size());
  std::vector<int64_t> order(x.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return x[static_cast<size_t>(a)] < x[static_cast<size_t>(b)]; });
  std::vector<double> s(x.size());
  for (size_t j = 0; j < s.size(); ++j) s[j] = x[static_cast<size_t>(order[j])];
  if (has_k && k > 0 && k < v) {
    const double th = s[static_cast<size_t>(v - k)];
    for (auto& y : s)
      if (y < th) y = -INFINITY;
  }
  if (has_p) {
    const double mx = *std::max_element(s.begin(), s.end());
    double total = 0;
    for (double y : s) total += std::exp(y - mx);
    double cum = 0;
    for (size_t j = 0; j + 1 < s.size(); ++j) {
      cum += std::exp(s[j] - mx) / total;
      if (static_cast<float>(cum) <= static_cast<float>(1.0 - p)) s[j] = -INFINITY;
    }
  }
  (void)t;
  std::vector<double> out(x.size());
  for (size_t j = 0; j < s.size(); ++j) out[static_cast<size_t>(order[j])] = s[j];
  return out;
}

TEST(ApplyTopKTopP, RandomRows) {
  Rng rng(207);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  std::uniform_real_distribution<double> u01(0, 1);
  for (int iter = 0; iter < 60; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const int64_t rows = 1 + static_cast<int64_t>(rng() % 4), v = 1 + static_cast<int64_t>(rng() % 12);
    const int which = static_cast<int>(rng() % 3);  // 0: both, 1: p only, 2: k only
    Tensor logits(view_of(t, {rows, v}, rng() % 2)), pt(TensorDesc(t, {rows})), kt(TensorDesc(ACL_INT32, {rows})), out(TensorDesc(t, {rows, v}));
    for_each_index({rows, v}, [&](const Shape& i) { logits.set(i, cast(Num::real(u01(rng) * 8 - 4), t)); });
    logits.upload();
    std::vector<int64_t> ks;
    for (int64_t r = 0; r < rows; ++r) {
      pt.set({r}, cast(Num::real(u01(rng)), t));
      ks.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(v + 2)) - 1);
    }
    pt.upload();
    set_indices(kt, ks);
    const std::string r = "ApplyTopKTopP logits=" + logits.desc().str() + " k=" + vec_str(ks) + (which == 2 ? " p=null" : "") + (which == 1 ? " k=null" : "");
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
          return aclnnApplyTopKTopPGetWorkspaceSize(logits.get(), which == 2 ? nullptr : pt.get(), which == 1 ? nullptr : kt.get(), out.get(), w, e);
        }, aclnnApplyTopKTopP))
      return;
    out.download();
    for (int64_t row = 0; row < rows; ++row) {
      std::vector<double> x;
      for (int64_t j = 0; j < v; ++j) x.push_back(logits.at({row, j}).as_double());
      const std::vector<double> want = apply_top_k_top_p(x, which != 1, ks[static_cast<size_t>(row)], which != 2, pt.at({row}).as_double(), t);
      for (int64_t j = 0; j < v; ++j)
        EXPECT_EQ(out.at({row, j}).as_double(), want[static_cast<size_t>(j)]) << r << ": out[" << row << "," << j << "]";
    }
    if (HasFailure()) return;
  }
}

TEST(ApplyTopKTopP, BadArguments) {
  Tensor l(TensorDesc(ACL_FLOAT, {2, 5})), p(TensorDesc(ACL_FLOAT, {2})), k(TensorDesc(ACL_INT32, {2})), out(TensorDesc(ACL_FLOAT, {2, 5})),
      p16(TensorDesc(ACL_FLOAT16, {2})), k3(TensorDesc(ACL_INT32, {3})), l3(TensorDesc(ACL_FLOAT, {1, 2, 5}));
  auto call = [&](const Tensor& ll, const Tensor* pp, const Tensor* kk) {
    return [&, pl = &ll, pp, kk](uint64_t* w, aclOpExecutor** e) {
      return aclnnApplyTopKTopPGetWorkspaceSize(pl->get(), pp ? pp->get() : nullptr, kk ? kk->get() : nullptr, out.get(), w, e);
    };
  };
  expect_phase1_error("both null", ACLNN_ERR_PARAM_NULLPTR, "'p' and 'k'", call(l, nullptr, nullptr));
  expect_phase1_error("p dtype", ACLNN_ERR_PARAM_INVALID, "p has dtype", call(l, &p16, &k));
  expect_phase1_error("k shape", ACLNN_ERR_PARAM_INVALID, "k has shape", call(l, &p, &k3));
  expect_phase1_error("rank", ACLNN_ERR_PARAM_INVALID, "logits", call(l3, &p, &k));
}

// ---- TopKTopPSample (V1, V2) ---------------------------------------------------------------------------------------

struct SampleWant {
  int64_t idx = 0;
  std::vector<double> select;  // logitsTopKPSelect
};

// The documented pipeline: top-k candidates (1 <= k <= min(V, 1024)), descending (ties: lower
// position first); softmax (or the values themselves when not logits); top-p keeps the shortest
// prefix reaching p; min-p keeps probabilities >= minP * the largest; argmax of prob / (q + eps).
SampleWant sample_ref(const std::vector<double>& x, int64_t k, double p, const double* q, double eps, bool logits,
                      double min_p) {
  const int64_t v = static_cast<int64_t>(x.size());
  std::vector<int64_t> c(x.size());
  std::iota(c.begin(), c.end(), 0);
  std::stable_sort(c.begin(), c.end(), [&](int64_t a, int64_t b) { return x[static_cast<size_t>(a)] > x[static_cast<size_t>(b)]; });
  const int64_t n = k >= 1 && k <= std::min<int64_t>(v, 1024) ? k : v;
  std::vector<double> pr(static_cast<size_t>(n));
  double total = 0;
  for (int64_t j = 0; j < n; ++j) {
    pr[static_cast<size_t>(j)] = logits ? std::exp(x[static_cast<size_t>(c[static_cast<size_t>(j)])] - x[static_cast<size_t>(c[0])])
                                        : x[static_cast<size_t>(c[static_cast<size_t>(j)])];
    total += pr[static_cast<size_t>(j)];
  }
  if (logits)
    for (auto& y : pr) y /= total;
  int64_t kept = n;
  if (p <= 0) {
    kept = 1;
  } else if (p < 1) {
    double cum = 0;
    for (int64_t j = 0; j < n; ++j)
      if ((cum += pr[static_cast<size_t>(j)]) >= p) {
        kept = j + 1;
        break;
      }
  }
  if (min_p > 0) {
    int64_t m = 1;
    while (min_p < 1 && m < kept && pr[static_cast<size_t>(m)] >= min_p * pr[0]) ++m;
    kept = m;
  }
  SampleWant w;
  w.select.assign(x.size(), logits ? -INFINITY : 0.0);
  double best = -1;
  for (int64_t j = 0; j < kept; ++j) {
    const size_t cj = static_cast<size_t>(c[static_cast<size_t>(j)]);
    w.select[cj] = x[cj];
    const double score = q ? pr[static_cast<size_t>(j)] / (q[cj] + eps) : pr[static_cast<size_t>(j)];
    if (score > best) best = score, w.idx = c[static_cast<size_t>(j)];
  }
  return w;
}

TEST(TopKTopPSample, V1AndV2RandomRows) {
  Rng rng(208);
  std::uniform_real_distribution<double> u01(0, 1);
  for (int iter = 0; iter < 60; ++iter) {
    const bool v2 = iter % 2;
    const aclDataType t = v2 ? std::vector<aclDataType>{ACL_FLOAT, ACL_FLOAT16, ACL_BF16}[static_cast<size_t>(iter / 2) % 3]
                             : (iter % 4 == 0 ? ACL_FLOAT16 : ACL_BF16);
    const int64_t rows = 1 + static_cast<int64_t>(rng() % 3), v = 1 + static_cast<int64_t>(rng() % 16);
    const bool with_q = rng() % 2, need_logits = rng() % 2, with_min_p = v2 && rng() % 2;
    Tensor logits(view_of(t, {rows, v}, rng() % 2)), kt(TensorDesc(ACL_INT32, {rows})), pt(TensorDesc(t, {rows})),
        q(TensorDesc(ACL_FLOAT, {rows, v})), mp(TensorDesc(t, {rows})), sel(TensorDesc(ACL_INT64, {rows})),
        sell(TensorDesc(ACL_FLOAT, {rows, v}));
    // Distinct values (a permutation scaled) keep the order free of ties in every dtype.
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<int64_t> perm(static_cast<size_t>(v));
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), rng);
      for (int64_t j = 0; j < v; ++j) logits.set({r, j}, cast(Num::real(static_cast<double>(perm[static_cast<size_t>(j)]) * 0.5 - 2), t));
      pt.set({r}, cast(Num::real(rng() % 5 == 0 ? 1.0 : u01(rng)), t));
      mp.set({r}, cast(Num::real(rng() % 3 == 0 ? 0.0 : rng() % 3 == 0 ? 1.0 : u01(rng) * 0.5), t));
    }
    logits.upload(), pt.upload(), mp.upload();
    for_each_index({rows, v}, [&](const Shape& i) { q.set(i, Num::real(0.05 + u01(rng))); });
    q.upload();
    sell.fill(Num::real(7));
    std::vector<int64_t> ks;
    for (int64_t r = 0; r < rows; ++r) ks.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(v + 2)) - (rng() % 4 == 0 ? 1 : 0));
    set_indices(kt, ks);
    const double eps = 1e-6;
    const std::string r = std::string(v2 ? "TopKTopPSampleV2" : "TopKTopPSample") + " logits=" + logits.desc().str() + " topK=" + vec_str(ks) +
                          (with_q ? " q" : "") + (need_logits ? " needLogits" : "") + (with_min_p ? " minP" : "");
    const bool ok = v2 ? run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnTopKTopPSampleV2GetWorkspaceSize(logits.get(), kt.get(), pt.get(), with_q ? q.get() : nullptr, with_min_p ? mp.get() : nullptr,
                                                   eps, need_logits, 32, 1024, true, false, sel.get(), sell.get(), nullptr, nullptr, w, e);
    }, aclnnTopKTopPSampleV2)
                       : run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnTopKTopPSampleGetWorkspaceSize(logits.get(), kt.get(), pt.get(), with_q ? q.get() : nullptr, eps, need_logits, 32,
                                                 sel.get(), sell.get(), w, e);
    }, aclnnTopKTopPSample);
    if (!ok) return;
    sel.download(), sell.download();
    for (int64_t row = 0; row < rows; ++row) {
      std::vector<double> x, qv;
      for (int64_t j = 0; j < v; ++j) x.push_back(logits.at({row, j}).as_double()), qv.push_back(static_cast<float>(q.at({row, j}).as_double()));
      const SampleWant want = sample_ref(x, ks[static_cast<size_t>(row)], static_cast<float>(pt.at({row}).as_double()), with_q ? qv.data() : nullptr,
                                         eps, true, with_min_p ? static_cast<float>(mp.at({row}).as_double()) : 0.0);
      EXPECT_EQ(sel.at({row}).i, want.idx) << r << ": logitsSelectIdx[" << row << "]";
      for (int64_t j = 0; j < v; ++j)
        EXPECT_EQ(sell.at({row, j}).as_double(), need_logits ? want.select[static_cast<size_t>(j)] : 7.0) << r << ": logitsTopKPSelect[" << row << "," << j << "]";
    }
    if (HasFailure()) return;
  }
}

TEST(TopKTopPSample, V2SampleResultAndProbabilityInput) {
  Rng rng(209);
  std::uniform_real_distribution<double> u01(0, 1);
  for (int iter = 0; iter < 30; ++iter) {
    const aclDataType t = std::vector<aclDataType>{ACL_FLOAT, ACL_FLOAT16, ACL_BF16}[static_cast<size_t>(iter) % 3];
    const bool is_logits = rng() % 2;
    const int64_t rows = 1 + static_cast<int64_t>(rng() % 3), v = 1 + static_cast<int64_t>(rng() % 12);
    Tensor logits(TensorDesc(t, {rows, v})), kt(TensorDesc(ACL_INT32, {rows})), pt(TensorDesc(t, {rows})),
        sel(TensorDesc(ACL_INT64, {rows})), sell(TensorDesc(ACL_FLOAT, {rows, v})), lidx(TensorDesc(ACL_INT64, {rows, v})),
        sm(TensorDesc(ACL_FLOAT, {rows, v}));
    std::vector<int64_t> ks;
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<int64_t> perm(static_cast<size_t>(v));
      std::iota(perm.begin(), perm.end(), 1);
      std::shuffle(perm.begin(), perm.end(), rng);
      const double scale = is_logits ? 0.5 : 1.0 / static_cast<double>(v * (v + 1) / 2);  // probabilities sum to 1
      for (int64_t j = 0; j < v; ++j) logits.set({r, j}, cast(Num::real(static_cast<double>(perm[static_cast<size_t>(j)]) * scale), t));
      pt.set({r}, cast(Num::real(u01(rng)), t));
      ks.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(v + 1)));
    }
    logits.upload(), pt.upload();
    set_indices(kt, ks);
    const std::string r = "TopKTopPSampleV2 sampleResult logits=" + logits.desc().str() + " topK=" + vec_str(ks) + " inputIsLogits=" + std::to_string(is_logits);
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
          return aclnnTopKTopPSampleV2GetWorkspaceSize(logits.get(), kt.get(), pt.get(), nullptr, nullptr, 1e-8, false, 32, 1024, is_logits,
                                                       true, sel.get(), sell.get(), lidx.get(), sm.get(), w, e);
        }, aclnnTopKTopPSampleV2))
      return;
    lidx.download(), sm.download();
    for (int64_t row = 0; row < rows; ++row) {
      std::vector<double> x;
      for (int64_t j = 0; j < v; ++j) x.push_back(logits.at({row, j}).as_double());
      std::vector<int64_t> c(static_cast<size_t>(v));
      std::iota(c.begin(), c.end(), 0);
      std::stable_sort(c.begin(), c.end(), [&](int64_t a, int64_t b) { return x[static_cast<size_t>(a)] > x[static_cast<size_t>(b)]; });
      const int64_t k = ks[static_cast<size_t>(row)], n = k >= 1 && k <= v ? k : v;
      const SampleWant want = sample_ref(x, k, static_cast<float>(pt.at({row}).as_double()), nullptr, 0, is_logits, 0);
      double total = 0;
      for (int64_t j = 0; j < n; ++j) total += is_logits ? std::exp(x[static_cast<size_t>(c[static_cast<size_t>(j)])] - x[static_cast<size_t>(c[0])]) : 0;
      for (int64_t j = 0; j < v; ++j) {
        if (j < n) {
          EXPECT_EQ(lidx.at({row, j}).i, c[static_cast<size_t>(j)]) << r << ": logitsIdx[" << row << "," << j << "]";
        }
        const size_t cj = static_cast<size_t>(c[static_cast<size_t>(j)]);
        const bool kept = j < n && want.select[cj] == x[cj];
        const double prob = is_logits ? std::exp(x[cj] - x[static_cast<size_t>(c[0])]) / total : x[cj];
        const double got = sm.at({row, j}).as_double();
        if (kept) {
          EXPECT_NEAR(got, prob, 1e-6) << r << ": logitsSortMasked[" << row << "," << j << "]";
        } else {
          EXPECT_EQ(got, is_logits ? -INFINITY : 0.0) << r << ": logitsSortMasked[" << row << "," << j << "]";
        }
      }
    }
    if (HasFailure()) return;
  }
}

TEST(TopKTopPSample, BadArguments) {
  Tensor l(TensorDesc(ACL_FLOAT16, {2, 5})), lf(TensorDesc(ACL_FLOAT, {2, 5})), k(TensorDesc(ACL_INT32, {2})), p(TensorDesc(ACL_FLOAT16, {2})),
      pf(TensorDesc(ACL_FLOAT, {2})), sel(TensorDesc(ACL_INT64, {2})), sell(TensorDesc(ACL_FLOAT, {2, 5})), k64(TensorDesc(ACL_INT64, {2}));
  auto v1 = [&](const Tensor& ll, const Tensor& kk, const Tensor& pp, int64_t guess) {
    return [&, pl = &ll, pk = &kk, ppp = &pp, guess](uint64_t* w, aclOpExecutor** e) {
      return aclnnTopKTopPSampleGetWorkspaceSize(pl->get(), pk->get(), ppp->get(), nullptr, 1e-8, false, guess, sel.get(), sell.get(), w, e);
    };
  };
  expect_phase1_error("v1 float32", ACLNN_ERR_PARAM_INVALID, "logits", v1(lf, k, pf, 32));
  expect_phase1_error("topK dtype", ACLNN_ERR_PARAM_INVALID, "topK", v1(l, k64, p, 32));
  expect_phase1_error("topP dtype", ACLNN_ERR_PARAM_INVALID, "topP", v1(l, k, pf, 32));
  expect_phase1_error("guess", ACLNN_ERR_PARAM_INVALID, "topKGuess", v1(l, k, p, 0));
  expect_phase1_error("ksMax", ACLNN_ERR_PARAM_INVALID, "ksMax", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnTopKTopPSampleV2GetWorkspaceSize(l.get(), k.get(), p.get(), nullptr, nullptr, 1e-8, false, 32, 2000, true, false,
                                                 sel.get(), sell.get(), nullptr, nullptr, w, e);
  });
}

}  // namespace
