// Movement-family ops that select, assign, unfold or re-lay out elements, through the public C API:
// ChannelShuffle, ConfusionTranspose, InplaceFillDiagonal, Im2col, UnfoldGrad, MaskedSelect,
// StridedSliceAssignV2, CoalesceSparse, NpuFormatCast (+CalculateSizeAndFormat) and the weight
// preprocessing helpers (TransMatmulWeight, TransConvolutionWeight, Calculate*WeightSize*). Each
// reference is written here from the op's definition (index maps or double-precision loops).
#include <gtest/gtest.h>

#include <cmath>

#include "aclnnop/aclnn_channel_shuffle.h"
#include "aclnnop/aclnn_coalesce_sparse.h"
#include "aclnnop/aclnn_confusion_transpose.h"
#include "aclnnop/aclnn_fill_diagonal.h"
#include "aclnnop/aclnn_im2col.h"
#include "aclnnop/aclnn_masked_select.h"
#include "aclnnop/aclnn_npu_format_cast.h"
#include "aclnnop/aclnn_strided_slice_assign_v2.h"
#include "aclnnop/aclnn_trans_convolution_weight.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "aclnnop/aclnn_unfold_grad.h"
#include "movement_test_util.h"

namespace {

using namespace optest;

int64_t wrap(int64_t d, int64_t rank) { return d < 0 ? d + rank : d; }

const std::vector<aclDataType> kMoveTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                             ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL};

// ---- ChannelShuffle ----------------------------------------------------------------------------------

TEST(ChannelShuffle, RandomGroupsViewsAndDtypes) {
  Rng rng(101);
  std::vector<aclDataType> types = kMoveTypes;
  types.push_back(ACL_COMPLEX64);
  for (int iter = 0; iter < 80; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const int rank = 3 + static_cast<int>(rng() % 3);
    Shape s = random_shape(rng, rank, iter % 17 == 0 ? 0 : 1, 3);
    const int64_t g = 1 + static_cast<int64_t>(rng() % 4), per = 1 + static_cast<int64_t>(rng() % 3);
    s[1] = g * per;
    Tensor self(random_view(t, s, rng));
    fill_bytes(self, rng);
    Tensor out(random_view(t, s, rng));
    fill_bytes(out, rng);
    const auto before = out.host();
    const std::string r = "ChannelShuffle self=" + self.desc().str() + " groups=" + std::to_string(g) + " out=" + out.desc().str();
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnChannelShuffleGetWorkspaceSize(self.get(), g, out.get(), w, e); },
                aclnnChannelShuffle))
      return;
    expect_moved(r, out, before, [&](const Shape& i) {
      Shape j = i;
      j[1] = (i[1] % g) * per + i[1] / g;  // out channel a*g + b <- self channel b*per + a
      return Source{&self, j};
    });
    if (HasFailure()) return;
  }
}

TEST(ChannelShuffle, BadArguments) {
  Tensor x(TensorDesc(ACL_FLOAT, {2, 6, 3})), out(TensorDesc(ACL_FLOAT, {2, 6, 3})), x2(TensorDesc(ACL_FLOAT, {6, 3})),
      outi(TensorDesc(ACL_INT32, {2, 6, 3}));
  auto call = [](const Tensor& a, int64_t g, const Tensor& o) {
    return [&a, g, &o](uint64_t* w, aclOpExecutor** e) { return aclnnChannelShuffleGetWorkspaceSize(a.get(), g, o.get(), w, e); };
  };
  expect_phase1_error("groups 4", ACLNN_ERR_PARAM_INVALID, "groups is 4", call(x, 4, out));
  expect_phase1_error("groups 0", ACLNN_ERR_PARAM_INVALID, "groups is 0", call(x, 0, out));
  expect_phase1_error("rank 2", ACLNN_ERR_PARAM_INVALID, "self", call(x2, 2, x2));
  expect_phase1_error("out dtype", ACLNN_ERR_PARAM_INVALID, "out", call(x, 2, outi));
}

// ---- ConfusionTranspose ---------------------------------------------------------------------------------

TEST(ConfusionTranspose, RandomPermsAndReshapes) {
  Rng rng(102);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_UINT8, ACL_INT16,
                                          ACL_INT32, ACL_INT64};
  for (int iter = 0; iter < 80; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const bool tf = rng() % 2;
    // Factors give the element count; x and the reshape target are two groupings of them.
    const int nf = 1 + static_cast<int>(rng() % 4);
    Shape f = random_shape(rng, nf, 1, 3);
    if (iter % 19 == 0) f[0] = 0;
    auto group = [&](Shape fs) {
      Shape s;
      for (int64_t v : fs) {
        if (!s.empty() && rng() % 3 == 0) s.back() *= v;
        else s.push_back(v);
      }
      return s;
    };
    std::shuffle(f.begin(), f.end(), rng);
    const Shape xs = group(f);
    std::shuffle(f.begin(), f.end(), rng);
    const Shape target = group(f);
    const Shape& pre = tf ? xs : target;  // the permuted tensor's shape
    std::vector<int64_t> perm(pre.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    Shape permuted(pre.size());
    for (size_t k = 0; k < perm.size(); ++k) permuted[k] = pre[static_cast<size_t>(perm[k])];
    std::vector<int64_t> perm_arg = perm;
    for (auto& p : perm_arg)
      if (rng() % 3 == 0) p -= static_cast<int64_t>(pre.size());  // negative dims
    const Shape os = tf ? target : permuted;
    Tensor x(random_view(t, xs, rng));
    fill_bytes(x, rng);
    Tensor out(random_view(t, os, rng));
    fill_bytes(out, rng);
    const auto before = out.host();
    IntArray pa(perm_arg), sa(target);
    const std::string r = "ConfusionTranspose x=" + x.desc().str() + " perm=" + list_str(perm_arg) + " shape=" +
                          list_str(target) + " transpose_first=" + std::to_string(tf) + " out=" + out.desc().str();
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnConfusionTransposeGetWorkspaceSize(x.get(), pa.a, sa.a, tf, out.get(), w, e); },
                aclnnConfusionTranspose))
      return;
    expect_moved(r, out, before, [&](const Shape& i) {
      if (tf) {  // out = reshape(permute(x, perm), shape)
        const Shape y = unravel(ravel(i, target), permuted);
        Shape xi(xs.size());
        for (size_t k = 0; k < perm.size(); ++k) xi[static_cast<size_t>(perm[k])] = y[k];
        return Source{&x, xi};
      }
      Shape z(target.size());  // out = permute(reshape(x, shape), perm)
      for (size_t k = 0; k < perm.size(); ++k) z[static_cast<size_t>(perm[k])] = i[k];
      return Source{&x, unravel(ravel(z, target), xs)};
    });
    if (HasFailure()) return;
  }
}

TEST(ConfusionTranspose, BadArguments) {
  Tensor x(TensorDesc(ACL_FLOAT, {2, 6})), out(TensorDesc(ACL_FLOAT, {3, 4})), xb(TensorDesc(ACL_BOOL, {2, 6})),
      outb(TensorDesc(ACL_BOOL, {3, 4}));
  IntArray p2({1, 0}), p3({0, 1, 2}), pdup({0, 0}), s34({3, 4}), s5({5});
  auto call = [](const Tensor& a, IntArray& p, IntArray& s, bool tf, const Tensor& o) {
    return [&a, &p, &s, tf, &o](uint64_t* w, aclOpExecutor** e) {
      return aclnnConfusionTransposeGetWorkspaceSize(a.get(), p.a, s.a, tf, o.get(), w, e);
    };
  };
  expect_phase1_error("count", ACLNN_ERR_PARAM_INVALID, "shape [5] has 5 elements", call(x, p2, s5, true, out));
  expect_phase1_error("perm size", ACLNN_ERR_PARAM_INVALID, "perm has 3 entries", call(x, p3, s34, true, out));
  expect_phase1_error("perm dup", ACLNN_ERR_PARAM_INVALID, "perm", call(x, pdup, s34, true, out));
  expect_phase1_error("out shape", ACLNN_ERR_PARAM_INVALID, "out", call(x, p2, s34, false, out));
  expect_phase1_error("bool", ACLNN_ERR_PARAM_INVALID, "x", call(xb, p2, s34, true, outb));
}

// ---- InplaceFillDiagonal ---------------------------------------------------------------------------------

TEST(FillDiagonal, MatricesCubesAndWrap) {
  Rng rng(103);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8,
                                          ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64, ACL_BOOL};
  for (int iter = 0; iter < 90; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const int rank = iter % 3 == 0 ? 2 + static_cast<int>(rng() % 3) : 2;
    Shape s;
    if (rank == 2) s = random_shape(rng, 2, iter % 23 == 0 ? 0 : 1, 9);
    else s.assign(static_cast<size_t>(rank), 1 + static_cast<int64_t>(rng() % 3));
    const bool wrap_arg = rng() % 2;
    const double v = is_floating(t) ? (rng() % 2 ? 2.5 : -0.0) : (t == ACL_BOOL ? 1 : (rng() % 2 ? 7 : -3));
    const aclDataType vt = rng() % 2 ? ACL_FLOAT : ACL_INT32;
    const Num want = cast(vt == ACL_FLOAT ? Num::real(v) : Num::integer(static_cast<int64_t>(v)), t);
    if (t == ACL_UINT8 && v < 0) continue;
    Scalar value(ScalarDesc(vt, v));
    Tensor self(random_view(t, s, rng));
    fill_bytes(self, rng);
    const auto before = self.host();
    const std::string r = "InplaceFillDiagonal self=" + self.desc().str() + " value=" + value.desc().str() + " wrap=" + std::to_string(wrap_arg);
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceFillDiagonalGetWorkspaceSize(self.get(), value.get(), wrap_arg, w, e); },
                aclnnInplaceFillDiagonal))
      return;
    std::vector<uint8_t> want_bytes(dtype_size(t));
    store(t, want_bytes.data(), want);
    auto on_diag = [&](const Shape& i) {
      if (rank > 2) return std::all_of(i.begin(), i.end(), [&](int64_t x) { return x == i[0]; });
      const int64_t rows = s[0], cols = s[1], p = i[0] * cols + i[1];  // PyTorch: flat steps of cols + 1
      if (p % (cols + 1) != 0) return false;
      const int64_t k = p / (cols + 1), n = std::min(rows, cols);
      return k < n || (wrap_arg && rows > cols + 1);
    };
    expect_moved(r, self, before, [&](const Shape& i) {
      if (on_diag(i)) return Source{nullptr, {}, want_bytes.data()};
      return Source{&self, i, before.data() + self.desc().storage_index(i) * dtype_size(t)};
    });
    if (HasFailure()) return;
  }
}

TEST(FillDiagonal, BadArguments) {
  Tensor x(TensorDesc(ACL_FLOAT, {2, 3, 2})), v(TensorDesc(ACL_FLOAT, {3})), i8(TensorDesc(ACL_INT8, {3, 3}));
  Scalar one(ScalarDesc(ACL_FLOAT, 1.0)), big(ScalarDesc(ACL_INT32, 300));
  auto call = [](const Tensor& a, const Scalar& s) {
    return [&a, &s](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceFillDiagonalGetWorkspaceSize(a.get(), s.get(), false, w, e); };
  };
  expect_phase1_error("unequal dims", ACLNN_ERR_PARAM_INVALID, "selfRef", call(x, one));
  expect_phase1_error("rank 1", ACLNN_ERR_PARAM_INVALID, "selfRef", call(v, one));
  expect_phase1_error("overflow", ACLNN_ERR_PARAM_INVALID, "fillValue", call(i8, big));
  Scalar nan(ScalarDesc(ACL_FLOAT, std::nan("")));
  expect_phase1_error("nan into int8", ACLNN_ERR_PARAM_INVALID, "fillValue is nan", call(i8, nan));
  expect_phase1_error("null", ACLNN_ERR_PARAM_NULLPTR, "fillValue", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnInplaceFillDiagonalGetWorkspaceSize(i8.get(), nullptr, false, w, e);
  });
}

// ---- Im2col / UnfoldGrad -----------------------------------------------------------------------------------

TEST(Im2col, RandomWindows) {
  Rng rng(104);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT8, ACL_BOOL};
  for (int iter = 0; iter < 80; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const bool batched = rng() % 2;
    const int64_t n = 1 + static_cast<int64_t>(rng() % 2), c = 1 + static_cast<int64_t>(rng() % 3);
    const int64_t h = 1 + static_cast<int64_t>(rng() % 6), w = 1 + static_cast<int64_t>(rng() % 6);
    std::vector<int64_t> k = {1 + static_cast<int64_t>(rng() % 3), 1 + static_cast<int64_t>(rng() % 3)};
    std::vector<int64_t> d = {1 + static_cast<int64_t>(rng() % 2), 1 + static_cast<int64_t>(rng() % 2)};
    std::vector<int64_t> p = {static_cast<int64_t>(rng() % 3), static_cast<int64_t>(rng() % 3)};
    std::vector<int64_t> st = {1 + static_cast<int64_t>(rng() % 3), 1 + static_cast<int64_t>(rng() % 3)};
    const int64_t eh = h + 2 * p[0] - d[0] * (k[0] - 1) - 1, ew = w + 2 * p[1] - d[1] * (k[1] - 1) - 1;
    if (eh < 0 || ew < 0) continue;
    const int64_t oh = eh / st[0] + 1, ow = ew / st[1] + 1;
    const Shape xs = batched ? Shape{n, c, h, w} : Shape{c, h, w};
    const Shape os = batched ? Shape{n, c * k[0] * k[1], oh * ow} : Shape{c * k[0] * k[1], oh * ow};
    Tensor x(random_view(t, xs, rng));
    fill_bytes(x, rng);
    Tensor out(random_view(t, os, rng));
    fill_bytes(out, rng);
    const auto before = out.host();
    IntArray ka(k), da(d), pa(p), sa(st);
    const std::string r = "Im2col self=" + x.desc().str() + " k=" + list_str(k) + " d=" + list_str(d) + " p=" +
                          list_str(p) + " s=" + list_str(st) + " out=" + out.desc().str();
    if (!run_ok(r, [&](uint64_t* ws, aclOpExecutor** e) { return aclnnIm2colGetWorkspaceSize(x.get(), ka.a, da.a, pa.a, sa.a, out.get(), ws, e); },
                aclnnIm2col))
      return;
    expect_moved(r, out, before, [&](const Shape& i) {
      const int64_t bi = batched ? i[0] : 0, row = i[batched ? 1 : 0], col = i[batched ? 2 : 1];
      const int64_t ci = row / (k[0] * k[1]), ki = row / k[1] % k[0], kj = row % k[1];
      const int64_t hi = col / ow * st[0] - p[0] + ki * d[0], wi = col % ow * st[1] - p[1] + kj * d[1];
      if (hi < 0 || hi >= h || wi < 0 || wi >= w) return Source{};
      return Source{&x, batched ? Shape{bi, ci, hi, wi} : Shape{ci, hi, wi}};
    });
    if (HasFailure()) return;
  }
}

TEST(Im2col, BadArguments) {
  Tensor x(TensorDesc(ACL_FLOAT, {1, 2, 4, 4})), out(TensorDesc(ACL_FLOAT, {1, 8, 9})), x2(TensorDesc(ACL_FLOAT, {4, 4}));
  IntArray k({2, 2}), k3({2, 2, 2}), one({1, 1}), zero({0, 0}), neg({-1, 0}), k9({9, 9});
  auto call = [&](const Tensor& a, IntArray& kk, IntArray& dd, IntArray& pp, IntArray& ss) {
    return [&a, &kk, &dd, &pp, &ss, &out](uint64_t* w, aclOpExecutor** e) {
      return aclnnIm2colGetWorkspaceSize(a.get(), kk.a, dd.a, pp.a, ss.a, out.get(), w, e);
    };
  };
  expect_phase1_error("kernel size", ACLNN_ERR_PARAM_INVALID, "kernelSize", call(x, k3, one, zero, one));
  expect_phase1_error("stride 0", ACLNN_ERR_PARAM_INVALID, "stride", call(x, k, one, zero, zero));
  expect_phase1_error("padding", ACLNN_ERR_PARAM_INVALID, "padding", call(x, k, one, neg, one));
  expect_phase1_error("too big", ACLNN_ERR_PARAM_INVALID, "kernel", call(x, k9, one, zero, one));
  expect_phase1_error("out shape", ACLNN_ERR_PARAM_INVALID, "out", call(x, k, one, one, one));
  expect_phase1_error("rank", ACLNN_ERR_PARAM_INVALID, "self", call(x2, k, one, zero, one));
}

TEST(UnfoldGrad, RandomWindowsSumOverlaps) {
  Rng rng(105);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (int iter = 0; iter < 60; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const int rank = 1 + static_cast<int>(rng() % 3);
    Shape in = random_shape(rng, rank, 1, 6);
    const int64_t dim = static_cast<int64_t>(rng() % static_cast<uint64_t>(rank)) - (rng() % 2 ? rank : 0);
    const size_t dd = static_cast<size_t>(wrap(dim, rank));
    const int64_t size = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(in[dd]));
    const int64_t step = 1 + static_cast<int64_t>(rng() % 3);
    Shape gs = in;
    gs[dd] = (in[dd] - size) / step + 1;
    gs.push_back(size);
    Tensor go(random_view(t, gs, rng));
    go.fill_random(rng, FillOptions{0, 1.0});  // small integers: every sum is exact
    Tensor gi(random_view(t, in, rng));
    fill_bytes(gi, rng);
    const auto before = gi.host();
    IntArray sa(in);
    const std::string r = "UnfoldGrad gradOut=" + go.desc().str() + " inputSizes=" + list_str(in) + " dim=" +
                          std::to_string(dim) + " size=" + std::to_string(size) + " step=" + std::to_string(step) +
                          " gradIn=" + gi.desc().str();
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnUnfoldGradGetWorkspaceSize(go.get(), sa.a, dim, size, step, gi.get(), w, e); },
                aclnnUnfoldGrad))
      return;
    gi.download();
    int bad = 0;
    for_each_index(in, [&](const Shape& i) {
      double want = 0;
      for (int64_t wdx = 0; wdx < gs[dd]; ++wdx) {
        const int64_t kk = i[dd] - wdx * step;
        if (kk < 0 || kk >= size) continue;
        Shape j = i;
        j[dd] = wdx;
        j.push_back(kk);
        want += go.at(j).as_double();
      }
      const double got = gi.at(i).as_double();
      if (got != want && bad++ < 3) ADD_FAILURE() << r << ": gradIn" << shape_str(i) << " is " << got << ", expected " << want;
    });
    const std::string outside = writes_outside_view(gi, before);
    EXPECT_TRUE(outside.empty()) << r << ": " << outside;
    if (HasFailure()) return;
  }
}

TEST(UnfoldGrad, BadArguments) {
  Tensor go(TensorDesc(ACL_FLOAT, {3, 2, 3})), gi(TensorDesc(ACL_FLOAT, {8, 2})), gii(TensorDesc(ACL_INT32, {3, 2, 3})),
      gi_bad(TensorDesc(ACL_FLOAT, {8, 3}));
  IntArray in({8, 2});
  auto call = [&](const Tensor& g, int64_t dim, int64_t size, int64_t step, const Tensor& o) {
    return [&g, &in, dim, size, step, &o](uint64_t* w, aclOpExecutor** e) {
      return aclnnUnfoldGradGetWorkspaceSize(g.get(), in.a, dim, size, step, o.get(), w, e);
    };
  };
  expect_phase1_error("dim", ACLNN_ERR_PARAM_INVALID, "dim is 2", call(go, 2, 3, 2, gi));
  expect_phase1_error("size", ACLNN_ERR_PARAM_INVALID, "size is 9", call(go, 0, 9, 2, gi));
  expect_phase1_error("step", ACLNN_ERR_PARAM_INVALID, "step is 0", call(go, 0, 3, 0, gi));
  expect_phase1_error("gradOut shape", ACLNN_ERR_PARAM_INVALID, "gradOut", call(go, 0, 3, 1, gi));
  expect_phase1_error("gradIn shape", ACLNN_ERR_PARAM_INVALID, "gradIn", call(go, 0, 3, 2, gi_bad));
  expect_phase1_error("dtype", ACLNN_ERR_PARAM_INVALID, "gradOut", call(gii, 0, 3, 2, gi));
}

// ---- MaskedSelect ---------------------------------------------------------------------------------------------

TEST(MaskedSelect, BroadcastMasksAndViews) {
  Rng rng(106);
  for (int iter = 0; iter < 80; ++iter) {
    const aclDataType t = kMoveTypes[static_cast<size_t>(iter) % kMoveTypes.size()];
    const aclDataType mt = rng() % 2 ? ACL_BOOL : ACL_UINT8;
    const int rank = static_cast<int>(rng() % 4);
    const Shape full = random_shape(rng, rank, iter % 21 == 0 ? 0 : 1, 4);
    auto part = [&](const Shape& s) {  // drop leading dims, set some to 1
      Shape r(s.begin() + static_cast<long>(rng() % (s.size() + 1)), s.end());
      for (auto& d : r)
        if (rng() % 3 == 0) d = 1;
      return r;
    };
    Shape ss = part(full), ms = part(full);
    if (rng() % 2) ss = full;
    else ms = full;
    Shape bs;
    ASSERT_TRUE(broadcast_shapes(ss, ms, &bs));
    Tensor self(random_view(t, ss, rng));
    fill_bytes(self, rng);
    Tensor mask(random_view(mt, ms, rng));
    for (auto& b : mask.host()) b = rng() % 2;
    mask.upload();
    Tensor out(TensorDesc(t, {numel(bs)}));
    fill_bytes(out, rng);
    const auto before = out.host();
    const std::string r = "MaskedSelect self=" + self.desc().str() + " mask=" + mask.desc().str() + " out=" + out.desc().str();
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnMaskedSelectGetWorkspaceSize(self.get(), mask.get(), out.get(), w, e); },
                aclnnMaskedSelect))
      return;
    std::vector<Shape> picked;
    for_each_index(bs, [&](const Shape& i) {
      auto sub = [&](const Shape& s) {
        Shape j(s.size());
        for (size_t k = 0; k < s.size(); ++k) j[k] = s[k] == 1 ? 0 : i[i.size() - s.size() + k];
        return j;
      };
      if (mask.at(sub(ms)).nonzero()) picked.push_back(sub(ss));
    });
    expect_moved(r, out, before, [&](const Shape& i) {
      const size_t k = static_cast<size_t>(i[0]);
      if (k < picked.size()) return Source{&self, picked[k]};
      return Source{nullptr, {}, before.data() + k * dtype_size(t)};  // left as it was
    });
    if (HasFailure()) return;
  }
}

TEST(MaskedSelect, BadArguments) {
  Tensor x(TensorDesc(ACL_FLOAT, {2, 3})), m(TensorDesc(ACL_BOOL, {2, 3})), mbad(TensorDesc(ACL_BOOL, {4})),
      mf(TensorDesc(ACL_FLOAT, {2, 3})), out(TensorDesc(ACL_FLOAT, {6})), out5(TensorDesc(ACL_FLOAT, {5})),
      out2d(TensorDesc(ACL_FLOAT, {2, 3})), outi(TensorDesc(ACL_INT32, {6}));
  auto call = [](const Tensor& a, const Tensor& b, const Tensor& o) {
    return [&a, &b, &o](uint64_t* w, aclOpExecutor** e) { return aclnnMaskedSelectGetWorkspaceSize(a.get(), b.get(), o.get(), w, e); };
  };
  expect_phase1_error("broadcast", ACLNN_ERR_PARAM_INVALID, "mask", call(x, mbad, out));
  expect_phase1_error("mask dtype", ACLNN_ERR_PARAM_INVALID, "mask", call(x, mf, out));
  expect_phase1_error("out size", ACLNN_ERR_PARAM_INVALID, "out has 5 elements", call(x, m, out5));
  expect_phase1_error("out rank", ACLNN_ERR_PARAM_INVALID, "out has 2 dims", call(x, m, out2d));
  expect_phase1_error("out dtype", ACLNN_ERR_PARAM_INVALID, "out", call(x, m, outi));
}

// ---- StridedSliceAssignV2 ------------------------------------------------------------------------------------

TEST(StridedSliceAssignV2, RandomSlices) {
  Rng rng(107);
  const std::vector<aclDataType> types = {ACL_FLOAT16, ACL_FLOAT, ACL_BF16, ACL_INT32, ACL_INT64, ACL_DOUBLE, ACL_INT8};
  for (int iter = 0; iter < 80; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const int rank = 1 + static_cast<int>(rng() % 4);
    const Shape vs = random_shape(rng, rank, 1, 6);
    std::vector<int64_t> axes;
    for (int k = 0; k < rank; ++k)
      if (rng() % 2) axes.push_back(rng() % 2 ? k : k - rank);
    std::shuffle(axes.begin(), axes.end(), rng);
    const bool with_axes = !axes.empty() || rng() % 2;
    if (!with_axes)
      for (int k = 0; k < rank; ++k) axes.push_back(k);
    std::vector<int64_t> begin, end, steps;
    Shape first(vs.size(), 0), step(vs.size(), 1), ss = vs;
    for (int64_t a : axes) {
      const size_t k = static_cast<size_t>(wrap(a, rank));
      const int64_t n = vs[k];
      const int64_t b = static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * n + 3)) - n - 1;
      const int64_t e = static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * n + 3)) - n - 1 + (rng() % 4 == 0 ? 100 : 0);
      const int64_t s = k + 1 == vs.size() ? 1 : 1 + static_cast<int64_t>(rng() % 3);
      begin.push_back(b), end.push_back(e), steps.push_back(s);
      auto fix = [n](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + n : v, 0, n); };
      const int64_t fb = fix(b), fe = std::max(fb, fix(e));
      first[k] = fb, step[k] = s, ss[k] = (fe - fb + s - 1) / s;
    }
    Tensor var(random_view(t, vs, rng));
    fill_bytes(var, rng);
    Tensor value(random_view(t, ss, rng));
    fill_bytes(value, rng);
    const auto before = var.host();
    IntArray ba(begin), ea(end), sa(steps), aa(axes);
    const std::string r = "StridedSliceAssignV2 var=" + var.desc().str() + " value=" + value.desc().str() + " begin=" +
                          list_str(begin) + " end=" + list_str(end) + " strides=" + list_str(steps) + " axes=" +
                          (with_axes ? list_str(axes) : std::string("null"));
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
          return aclnnStridedSliceAssignV2GetWorkspaceSize(var.get(), value.get(), ba.a, ea.a, sa.a, with_axes ? aa.a : nullptr, w, e);
        }, aclnnStridedSliceAssignV2))
      return;
    expect_moved(r, var, before, [&](const Shape& i) {
      Shape j(i.size());
      bool in = true;
      for (size_t k = 0; k < i.size(); ++k) {
        const int64_t q = i[k] - first[k];
        in &= q >= 0 && q % step[k] == 0 && q / step[k] < ss[k];
        j[k] = in ? q / step[k] : 0;
      }
      if (in) return Source{&value, j};
      return Source{nullptr, {}, before.data() + var.desc().storage_index(i) * dtype_size(t)};
    });
    if (HasFailure()) return;
  }
}

TEST(StridedSliceAssignV2, BadArguments) {
  Tensor var(TensorDesc(ACL_FLOAT, {4, 6})), value(TensorDesc(ACL_FLOAT, {2, 6})), vb(TensorDesc(ACL_BOOL, {2, 6})),
      value_bad(TensorDesc(ACL_FLOAT, {3, 6}));
  IntArray b({0}), e({4}), s2({2}), s0({0}), ax0({0}), ax1({1}), ax5({5}), b2({0, 0});
  auto call = [&](const Tensor& v, IntArray& bb, IntArray& ss, IntArray* aa) {
    return [&v, &bb, &e, &ss, aa, &var](uint64_t* w, aclOpExecutor** ex) {
      return aclnnStridedSliceAssignV2GetWorkspaceSize(var.get(), v.get(), bb.a, e.a, ss.a, aa ? aa->a : nullptr, w, ex);
    };
  };
  expect_phase1_error("stride 0", ACLNN_ERR_PARAM_INVALID, "strides[0] is 0", call(value, b, s0, &ax0));
  expect_phase1_error("last dim stride", ACLNN_ERR_PARAM_INVALID, "last dim", call(value, b, s2, &ax1));
  expect_phase1_error("axis", ACLNN_ERR_PARAM_INVALID, "axesOptional", call(value, b, s2, &ax5));
  expect_phase1_error("count", ACLNN_ERR_PARAM_INVALID, "same number", call(value, b2, s2, &ax0));
  expect_phase1_error("value shape", ACLNN_ERR_PARAM_INVALID, "inputValue", call(value_bad, b, s2, nullptr));
  expect_phase1_error("dtype", ACLNN_ERR_PARAM_INVALID, "inputValue", call(vb, b, s2, &ax0));
}

// ---- CoalesceSparse ----------------------------------------------------------------------------------------------

TEST(CoalesceSparse, DuplicatesSum) {
  Rng rng(108);
  const std::vector<aclDataType> vtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32};
  for (int iter = 0; iter < 40; ++iter) {
    const aclDataType vt = vtypes[static_cast<size_t>(iter) % vtypes.size()];
    const aclDataType it = rng() % 2 ? ACL_INT32 : ACL_INT64;
    const int64_t u = 1 + static_cast<int64_t>(rng() % 6), nnz = u + static_cast<int64_t>(rng() % 6);
    const int64_t m = 1 + static_cast<int64_t>(rng() % 3);
    const Shape vrow = random_shape(rng, static_cast<int>(rng() % 3), 1, 3);
    // Each unique coordinate u gets a random row; entry i is a copy of coordinate ids[i].
    std::vector<int64_t> ids(static_cast<size_t>(nnz));
    for (int64_t i = 0; i < nnz; ++i) ids[static_cast<size_t>(i)] = i < u ? i : static_cast<int64_t>(rng() % static_cast<uint64_t>(u));
    std::shuffle(ids.begin(), ids.end(), rng);
    Shape vs = {nnz}, nvs = {u};
    vs.insert(vs.end(), vrow.begin(), vrow.end());
    nvs.insert(nvs.end(), vrow.begin(), vrow.end());
    const int64_t row = numel(vrow);
    Tensor len(TensorDesc(it, {1})), uniq(TensorDesc(it, {nnz})), idx(random_view(it, {nnz, m}, rng)), val(random_view(vt, vs, rng));
    Tensor nidx(TensorDesc(it, {u, m})), nval(TensorDesc(vt, nvs));
    len.set({0}, Num::integer(u));
    len.upload();
    std::vector<std::vector<int64_t>> coords(static_cast<size_t>(u));
    for (auto& c : coords)
      for (int64_t j = 0; j < m; ++j) c.push_back(static_cast<int64_t>(rng() % 50));
    for (int64_t i = 0; i < nnz; ++i) {
      uniq.set({i}, Num::integer(ids[static_cast<size_t>(i)]));
      for (int64_t j = 0; j < m; ++j) idx.set({i, j}, Num::integer(coords[static_cast<size_t>(ids[static_cast<size_t>(i)])][static_cast<size_t>(j)]));
    }
    uniq.upload();
    idx.upload();
    val.fill_random(rng, FillOptions{0, 1.0});
    nidx.fill(Num::integer(0));
    nval.fill(Num::integer(0));  // CANN: newValues must be zeroed by the caller
    const std::string r = "CoalesceSparse indices=" + idx.desc().str() + " values=" + val.desc().str() + " unique=" + std::to_string(u);
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** e) {
          return aclnnCoalesceSparseGetWorkspaceSize(len.get(), uniq.get(), idx.get(), val.get(), nidx.get(), nval.get(), w, e);
        }, aclnnCoalesceSparse))
      return;
    nidx.download();
    nval.download();
    for (int64_t g = 0; g < u; ++g) {
      for (int64_t j = 0; j < m; ++j)
        EXPECT_EQ(nidx.at({g, j}).i, coords[static_cast<size_t>(g)][static_cast<size_t>(j)]) << r << ": newIndices[" << g << "," << j << "]";
      for (int64_t k = 0; k < row; ++k) {
        double want = 0;
        for (int64_t i = 0; i < nnz; ++i)
          if (ids[static_cast<size_t>(i)] == g) {
            Shape vi = {i};
            const Shape ri = unravel(k, vrow);
            vi.insert(vi.end(), ri.begin(), ri.end());
            want += val.at(vi).as_double();
          }
        Shape oi = {g};
        const Shape ri = unravel(k, vrow);
        oi.insert(oi.end(), ri.begin(), ri.end());
        EXPECT_EQ(nval.at(oi).as_double(), want) << r << ": newValues" << shape_str(oi);
      }
    }
    if (HasFailure()) return;
  }
}

TEST(CoalesceSparse, BadArguments) {
  Tensor len(TensorDesc(ACL_INT32, {1})), uniq(TensorDesc(ACL_INT32, {4})), idx(TensorDesc(ACL_INT32, {4, 2})),
      val(TensorDesc(ACL_FLOAT, {4})), nidx(TensorDesc(ACL_INT32, {3, 2})), nval(TensorDesc(ACL_FLOAT, {3})),
      idx_bad(TensorDesc(ACL_INT32, {5, 2})), val_d(TensorDesc(ACL_DOUBLE, {4})), nval_bad(TensorDesc(ACL_FLOAT, {2}));
  auto call = [&](const Tensor& i, const Tensor& v, const Tensor& nv) {
    return [&, pi = &i, pv = &v, pnv = &nv](uint64_t* w, aclOpExecutor** e) {
      return aclnnCoalesceSparseGetWorkspaceSize(len.get(), uniq.get(), pi->get(), pv->get(), nidx.get(), pnv->get(), w, e);
    };
  };
  expect_phase1_error("rows", ACLNN_ERR_PARAM_INVALID, "indices has 5 rows", call(idx_bad, val, nval));
  expect_phase1_error("dtype", ACLNN_ERR_PARAM_INVALID, "values", call(idx, val_d, nval));
  expect_phase1_error("newValues", ACLNN_ERR_PARAM_INVALID, "newValuesOut", call(idx, val, nval_bad));
  // An id outside [0, 3) is found when the kernel runs: the stream reports it.
  for (int64_t i = 0; i < 4; ++i) uniq.set({i}, Num::integer(i));
  uniq.upload();
  const aclnnStatus st = run_two_phase(call(idx, val, nval), aclnnCoalesceSparse);
  EXPECT_NE(st, ACL_SUCCESS) << "uniqueIndices[3] = 3 with 3 unique rows was not reported";
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("uniqueIndices[3] is 3"), std::string::npos) << aclGetRecentErrMsg();
}

// ---- NpuFormatCast ---------------------------------------------------------------------------------------------

TEST(NpuFormatCast, NdToNzAndBack) {
  Rng rng(109);
  const std::vector<aclDataType> types = {ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_INT32, ACL_BF16, ACL_UINT8};
  for (int iter = 0; iter < 30; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const int rank = 2 + static_cast<int>(rng() % 2);
    Shape s = random_shape(rng, rank, 1, 3);
    s[s.size() - 2] = 1 + static_cast<int64_t>(rng() % 40);
    s.back() = 1 + static_cast<int64_t>(rng() % 40);
    Tensor nd(random_view(t, s, rng));
    nd.fill_random(rng);
    const std::string r = "NpuFormatCast nd=" + nd.desc().str();
    int64_t* dims = nullptr;
    uint64_t ndims = 0;
    int actual = -1;
    ASSERT_EQ(aclnnNpuFormatCastCalculateSizeAndFormat(nd.get(), ACL_FORMAT_FRACTAL_NZ, t, &dims, &ndims, &actual), ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    const int64_t es = static_cast<int64_t>(dtype_size(t)), c0 = 32 / es, m = s[s.size() - 2], n = s.back();
    const int64_t n1 = (n + c0 - 1) / c0, m1 = (m + 15) / 16;
    Shape want(s.begin(), s.end() - 2);
    want.insert(want.end(), {n1, m1, 16, c0});
    EXPECT_EQ(Shape(dims, dims + ndims), want) << r;
    EXPECT_EQ(actual, ACL_FORMAT_FRACTAL_NZ) << r;
    delete[] dims;
    // The NZ tensor: view s over storage `want`.
    const int64_t batch = numel(s) / (m * n), block = n1 * m1 * 16 * c0;
    std::vector<uint8_t> zbytes(static_cast<size_t>(batch * block * es), 0xAB);
    void* zdev = nullptr;
    ASSERT_EQ(aclrtMalloc(&zdev, zbytes.size(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(zdev, zbytes.size(), zbytes.data(), zbytes.size(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    const Shape cs = contiguous_strides(s);
    aclTensor* nz = aclCreateTensor(s.data(), s.size(), t, cs.data(), 0, ACL_FORMAT_FRACTAL_NZ, want.data(), want.size(), zdev);
    ASSERT_NE(nz, nullptr) << r << ": " << aclGetRecentErrMsg();
    if (run_ok(r + " nd->nz", [&](uint64_t* w, aclOpExecutor** e) { return aclnnNpuFormatCastGetWorkspaceSize(nd.get(), nz, w, e); },
               aclnnNpuFormatCast)) {
      ASSERT_EQ(aclrtMemcpy(zbytes.data(), zbytes.size(), zdev, zbytes.size(), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
      int bad = 0;
      for (int64_t b = 0; b < batch; ++b)
        for (int64_t j1 = 0; j1 < n1; ++j1)
          for (int64_t i = 0; i < m1 * 16; ++i)
            for (int64_t j0 = 0; j0 < c0; ++j0) {
              const int64_t z = b * block + (j1 * m1 * 16 + i) * c0 + j0, j = j1 * c0 + j0;
              std::vector<uint8_t> expect(static_cast<size_t>(es), 0);  // padding is zero
              if (i < m && j < n) {
                const Shape bi = unravel(b, Shape(s.begin(), s.end() - 2));
                Shape vi = bi;
                vi.push_back(i), vi.push_back(j);
                std::memcpy(expect.data(), nd.host().data() + nd.desc().storage_index(vi) * es, static_cast<size_t>(es));
              }
              if (std::memcmp(expect.data(), zbytes.data() + z * es, static_cast<size_t>(es)) != 0 && bad++ < 3)
                ADD_FAILURE() << r << ": NZ element " << z << " (batch " << b << ", row " << i << ", col " << j << ") differs";
            }
      // And back to ND (a fresh strided view).
      Tensor back(random_view(t, s, rng));
      fill_bytes(back, rng);
      const auto before = back.host();
      if (run_ok(r + " nz->nd", [&](uint64_t* w, aclOpExecutor** e) { return aclnnNpuFormatCastGetWorkspaceSize(nz, back.get(), w, e); },
                 aclnnNpuFormatCast))
        expect_moved(r + " nz->nd", back, before, [&](const Shape& i) { return Source{&nd, i}; });
    }
    aclDestroyTensor(nz);
    aclrtFree(zdev);
    if (HasFailure()) return;
  }
}

TEST(NpuFormatCast, BadArguments) {
  Tensor nd(TensorDesc(ACL_FLOAT16, {4, 4})), nd2(TensorDesc(ACL_FLOAT16, {4, 4})), v(TensorDesc(ACL_FLOAT16, {4})),
      d(TensorDesc(ACL_DOUBLE, {4, 4}));
  int64_t* dims = nullptr;
  uint64_t n = 0;
  int actual = 0;
  EXPECT_EQ(aclnnNpuFormatCastCalculateSizeAndFormat(v.get(), ACL_FORMAT_FRACTAL_NZ, ACL_FLOAT16, &dims, &n, &actual),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("at least 2 dims"), std::string::npos) << aclGetRecentErrMsg();
  EXPECT_EQ(aclnnNpuFormatCastCalculateSizeAndFormat(nd.get(), ACL_FORMAT_FRACTAL_NZ, ACL_FLOAT16, nullptr, &n, &actual),
            ACLNN_ERR_PARAM_NULLPTR);
  expect_phase1_error("nd to nd", ACLNN_ERR_PARAM_INVALID, "ND <-> FRACTAL_NZ only",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnNpuFormatCastGetWorkspaceSize(nd.get(), nd2.get(), w, e); });
  expect_phase1_error("dtype", ACLNN_ERR_PARAM_INVALID, "srcTensor",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnNpuFormatCastGetWorkspaceSize(d.get(), nd2.get(), w, e); });
}

// ---- weight preprocessing ----------------------------------------------------------------------------------------

TEST(WeightTransforms, KeepNdLayout) {
  Rng rng(110);
  uint64_t size = 0;
  IntArray shape({3, 5, 7}), shape4({8, 4, 3, 3}), shape1({9});
  ASSERT_EQ(aclnnCalculateMatmulWeightSize(shape.a, &size), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(size, 105u);
  ASSERT_EQ(aclnnCalculateMatmulWeightSizeV2(shape.a, ACL_INT8, &size), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(size, 105u);
  EXPECT_EQ(aclnnCalculateMatmulWeightSize(shape1.a, &size), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("tensorShape"), std::string::npos);
  ASSERT_EQ(aclnnCalculateConvolutionWeightSize(shape4.a, false, 1, ACL_FLOAT16, &size), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(size, 288u);
  EXPECT_EQ(aclnnCalculateConvolutionWeightSize(shape4.a, false, 0, ACL_FLOAT16, &size), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("groups"), std::string::npos);

  for (aclDataType t : {ACL_FLOAT16, ACL_BF16, ACL_INT8}) {
    Tensor w(TensorDesc(t, {2, 4, 6}));
    w.fill_random(rng);
    const auto before = w.host();
    ASSERT_TRUE(run_ok("TransMatmulWeight", [&](uint64_t* ws, aclOpExecutor** e) { return aclnnTransMatmulWeightGetWorkspaceSize(w.get(), ws, e); },
                       aclnnTransMatmulWeight));
    w.download();
    EXPECT_EQ(w.host(), before) << "TransMatmulWeight changed an ND weight";
  }
  Tensor wd(TensorDesc(ACL_DOUBLE, {2, 4}));
  expect_phase1_error("TransMatmulWeight dtype", ACLNN_ERR_PARAM_INVALID, "mmWeightRef",
                      [&](uint64_t* ws, aclOpExecutor** e) { return aclnnTransMatmulWeightGetWorkspaceSize(wd.get(), ws, e); });

  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16}) {
    Tensor in(random_view(t, {4, 3, 2, 2}, rng)), out(TensorDesc(ACL_FLOAT16, {4, 3, 2, 2}));
    in.fill_random(rng);
    const std::string r = std::string("TransConvolutionWeight in=") + in.desc().str();
    ASSERT_TRUE(run_ok(r, [&](uint64_t* ws, aclOpExecutor** e) { return aclnnTransConvolutionWeightGetWorkspaceSize(in.get(), false, 1, out.get(), ws, e); },
                       aclnnTransConvolutionWeight));
    out.download();
    for_each_index({4, 3, 2, 2}, [&](const Shape& i) {
      const Num want = cast(in.at(i), ACL_FLOAT16);
      EXPECT_TRUE(same_value(ACL_FLOAT16, want, out.at(i))) << r << ": out" << shape_str(i);
    });
    expect_phase1_error("transposed", ACLNN_ERR_PARAM_INVALID, "transposed",
                        [&](uint64_t* ws, aclOpExecutor** e) { return aclnnTransConvolutionWeightGetWorkspaceSize(in.get(), true, 1, out.get(), ws, e); });
  }
}

}  // namespace
