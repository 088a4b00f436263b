// Counting, repeating, ordering and matrix ops of the index family: Bincount, Histc, Flip,
// RepeatInterleave (five forms), RepeatInterleaveGrad, Kthvalue, Median(Dim), NanMedian(Dim), Inverse.
// References are written here on the host copies (double precision).
#include <gtest/gtest.h>

#include <algorithm>

#include "aclnnop/aclnn_bincount.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_histc.h"
#include "aclnnop/aclnn_inverse.h"
#include "aclnnop/aclnn_kthvalue.h"
#include "aclnnop/aclnn_median.h"
#include "aclnnop/aclnn_repeat_interleave.h"
#include "aclnnop/aclnn_repeat_interleave_grad.h"
#include "index_test_util.h"

namespace {

using namespace idxtest;

Shape random_shape(Rng& rng, int rank, int max_dim = 4) {
  Shape s(static_cast<size_t>(rank));
  for (auto& x : s) x = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(max_dim));
  return s;
}

int64_t lin_of(const Shape& pos, const Shape& shape) {
  int64_t l = 0;
  for (size_t k = 0; k < shape.size(); ++k) l = l * shape[k] + pos[k];
  return l;
}

std::vector<Num> values_of(const Tensor& t) {
  std::vector<Num> v;
  for_each_index(t.desc().shape, [&](const Shape& i) { v.push_back(t.at(i)); });
  return v;
}

void expect_values(const std::string& r, const Tensor& out, const std::vector<Num>& want) {
  size_t k = 0;
  const aclDataType t = out.desc().dtype;
  bool ok = true;
  for_each_index(out.desc().shape, [&](const Shape& i) {
    if (!ok) return;
    const Num w = cast(want[k++], t), got = out.at(i);
    if (!same_value(t, w, got)) {
      ADD_FAILURE() << r << ": out" << shape_str(i) << " is " << num_str(got) << ", expected " << num_str(w);
      ok = false;
    }
  });
}

// ---- Bincount / Histc ------------------------------------------------------------------------------------

TEST(IndexMisc, BincountRandom) {
  Rng rng(61);
  const std::vector<aclDataType> self_t = {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8};
  const std::vector<aclDataType> out_t = {ACL_INT32, ACL_INT64, ACL_FLOAT, ACL_DOUBLE};
  for (int it = 0; it < 60; ++it) {
    const aclDataType st = self_t[static_cast<size_t>(it) % 5], ot = out_t[static_cast<size_t>(it) % 4];
    const int64_t n = static_cast<int64_t>(rng() % 20), bins = 1 + static_cast<int64_t>(rng() % 10);
    const bool weighted = rng() % 2;
    const aclDataType wt = is_floating(ot) ? ot : ACL_INT32;
    TensorDesc sd = view_of(st, {n}, rng() % 2), wd = view_of(wt, {n}, rng() % 2), od(ot, {bins});
    Tensor self(sd), weights(wd), out(od);
    std::vector<int64_t> sv = random_indices(rng, n, bins, false);
    set_indices(self, sv);
    weights.fill_random(rng, FillOptions{0.0, 1.0});
    std::vector<double> want(static_cast<size_t>(bins), 0.0);
    for (int64_t i = 0; i < n; ++i) want[static_cast<size_t>(sv[static_cast<size_t>(i)])] += weighted ? weights.at({i}).as_double() : 1.0;
    const std::string r = "Bincount self=" + sd.str() + (weighted ? " weights=" + wd.str() : "") + " out=" + od.str();
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnBincountGetWorkspaceSize(self.get(), weighted ? weights.get() : nullptr, bins - 1, out.get(), w, e);
              }, aclnnBincount),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    out.download();
    std::vector<Num> wn;
    for (double x : want) wn.push_back(is_floating(ot) ? Num::real(x) : Num::integer(static_cast<int64_t>(x)));
    expect_values(r, out, wn);
  }
  Tensor self(TensorDesc(ACL_INT32, {3})), out(TensorDesc(ACL_INT64, {4}));
  set_indices(self, {0, 4, 1});
  expect_run_failure("Bincount value 4 into 4 bins", "self[1] is 4", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnBincountGetWorkspaceSize(self.get(), nullptr, 0, out.get(), w, e);
  }, aclnnBincount);
  expect_phase1_error("Bincount minlength > out", ACLNN_ERR_PARAM_INVALID, "minlength", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnBincountGetWorkspaceSize(self.get(), nullptr, 5, out.get(), w, e);
  });
}

TEST(IndexMisc, HistcRandom) {
  Rng rng(62);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT64, ACL_INT16, ACL_INT8, ACL_UINT8};
  for (int it = 0; it < 60; ++it) {
    const aclDataType t = types[static_cast<size_t>(it) % types.size()];
    const Shape ss = random_shape(rng, static_cast<int>(rng() % 3), 5);
    const int64_t bins = 1 + static_cast<int64_t>(rng() % 6);
    TensorDesc sd = view_of(t, ss, rng() % 2), od(ACL_FLOAT, {bins});
    Tensor self(sd), out(od);
    self.fill_random(rng, FillOptions{0.0, 1.0});
    const bool own_range = rng() % 3 == 0;
    const double lo = own_range ? 2.0 : -static_cast<double>(rng() % 8), hi = own_range ? 2.0 : lo + 1 + static_cast<double>(rng() % 12);
    Scalar mn(ScalarDesc(ACL_FLOAT, lo)), mx(ScalarDesc(ACL_FLOAT, hi));
    const std::vector<Num> v = values_of(self);
    double l = lo, h = hi;
    if (l == h) {
      l = 1e300;
      h = -1e300;
      for (const Num& x : v) {
        l = std::min(l, x.as_double());
        h = std::max(h, x.as_double());
      }
      if (v.empty()) l = h = lo;
    }
    if (l == h) {
      l -= 1;
      h += 1;
    }
    std::vector<Num> want(static_cast<size_t>(bins), Num::real(0));
    for (const Num& x : v) {
      const double d = x.as_double();
      if (d < l || d > h) continue;
      int64_t k = static_cast<int64_t>((d - l) * static_cast<double>(bins) / (h - l));
      if (k >= bins) k = bins - 1;
      want[static_cast<size_t>(k)].f += 1;
    }
    const std::string r = "Histc self=" + sd.str() + " bins=" + std::to_string(bins) + " min=" + std::to_string(lo) + " max=" + std::to_string(hi);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnHistcGetWorkspaceSize(self.get(), bins, mn.get(), mx.get(), out.get(), w, e);
              }, aclnnHistc),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    out.download();
    expect_values(r, out, want);
  }
  Tensor self(TensorDesc(ACL_FLOAT, {3})), out(TensorDesc(ACL_FLOAT, {4}));
  Scalar a(ScalarDesc(ACL_FLOAT, 3.0)), b(ScalarDesc(ACL_FLOAT, 1.0));
  expect_phase1_error("Histc min > max", ACLNN_ERR_PARAM_INVALID, "min (3) is greater than max (1)", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnHistcGetWorkspaceSize(self.get(), 4, a.get(), b.get(), out.get(), w, e);
  });
  expect_phase1_error("Histc bins 0", ACLNN_ERR_PARAM_INVALID, "bins is 0", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnHistcGetWorkspaceSize(self.get(), 0, b.get(), a.get(), out.get(), w, e);
  });
}

// ---- Flip ----------------------------------------------------------------------------------------------------

TEST(IndexMisc, FlipRandom) {
  Rng rng(63);
  const std::vector<aclDataType> types = {ACL_FLOAT16, ACL_FLOAT, ACL_INT32, ACL_INT16, ACL_INT64, ACL_BOOL,
                                          ACL_INT8, ACL_UINT8, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
  for (int it = 0; it < 100; ++it) {
    const aclDataType t = types[static_cast<size_t>(it) % types.size()];
    const int rank = 1 + static_cast<int>(rng() % 4);
    const Shape ss = random_shape(rng, rank);
    std::vector<int64_t> dims;
    for (int d = 0; d < rank; ++d)
      if (rng() % 2) dims.push_back(rng() % 2 ? d : d - rank);
    TensorDesc sd = view_of(t, ss, rng() % 2), od = rng() % 2 ? transposed_of(t, ss) : TensorDesc(t, ss);
    Tensor self(sd), out(od);
    fill_bytes(self, rng);
    IntArray da(dims);
    const std::string r = "Flip self=" + sd.str() + " dims=" + vec_str(dims) + " out=" + od.str();
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnFlipGetWorkspaceSize(self.get(), da.a, out.get(), w, e); },
                            aclnnFlip),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    out.download();
    for (const Shape& p : positions(ss)) {
      Shape q = p;
      for (int64_t d : dims) {
        const size_t u = static_cast<size_t>(d < 0 ? d + rank : d);
        q[u] = ss[u] - 1 - p[u];
      }
      ASSERT_TRUE(same_bytes(out, p, self, q)) << r << ": out" << shape_str(p);
    }
  }
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3})), out(TensorDesc(ACL_FLOAT, {2, 3}));
  IntArray rep({0, -2});
  expect_phase1_error("Flip repeated dim", ACLNN_ERR_PARAM_INVALID, "more than once", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnFlipGetWorkspaceSize(self.get(), rep.a, out.get(), w, e);
  });
}

// ---- RepeatInterleave ------------------------------------------------------------------------------------------

TEST(IndexMisc, RepeatInterleaveAllForms) {
  Rng rng(64);
  const std::vector<aclDataType> types = {ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL, ACL_FLOAT16, ACL_BF16, ACL_FLOAT};
  for (int it = 0; it < 150; ++it) {
    const int form = it % 4;  // 0 tensor flat, 1 tensor dim, 2 int flat, 3 int dim
    const aclDataType t = types[static_cast<size_t>(it / 4) % types.size()];
    const Shape ss = random_shape(rng, 1 + static_cast<int>(rng() % 3));
    const int64_t rank = static_cast<int64_t>(ss.size());
    const bool with_dim = form % 2 == 1;
    const int64_t d = with_dim ? static_cast<int64_t>(rng() % static_cast<uint64_t>(rank)) : -1;
    const int64_t units = with_dim ? ss[static_cast<size_t>(d)] : numel(ss);
    const bool scalar_rep = form >= 2 || rng() % 3 == 0;
    std::vector<int64_t> reps(scalar_rep ? 1 : static_cast<size_t>(units));
    for (auto& x : reps) x = static_cast<int64_t>(rng() % 4);
    int64_t total = 0;
    for (int64_t u = 0; u < units; ++u) total += reps[scalar_rep ? 0 : static_cast<size_t>(u)];
    Shape os = with_dim ? ss : Shape{total};
    if (with_dim) os[static_cast<size_t>(d)] = total;
    TensorDesc sd = view_of(t, ss, rng() % 2), od(t, os);
    Tensor self(sd), out(od), rt(TensorDesc(rng() % 2 ? ACL_INT64 : ACL_INT32, scalar_rep && rng() % 2 ? Shape{} : Shape{static_cast<int64_t>(reps.size())}));
    fill_bytes(self, rng);
    set_indices(rt, reps);
    const std::string r = "RepeatInterleave form " + std::to_string(form) + " self=" + sd.str() + " repeats=" + vec_str(reps) +
                          " dim=" + std::to_string(d) + " out=" + od.str();
    Phase1Fn p1;
    Phase2Fn p2;
    const int64_t dim_arg = d - (rng() % 2 ? rank : 0);
    switch (form) {
      case 0:
        p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveGetWorkspaceSize(self.get(), rt.get(), total, out.get(), w, e); };
        p2 = aclnnRepeatInterleave;
        break;
      case 1:
        p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveWithDimGetWorkspaceSize(self.get(), rt.get(), dim_arg, total, out.get(), w, e); };
        p2 = aclnnRepeatInterleaveWithDim;
        break;
      case 2:
        p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveIntGetWorkspaceSize(self.get(), reps[0], total, out.get(), w, e); };
        p2 = aclnnRepeatInterleaveInt;
        break;
      default:
        p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(self.get(), reps[0], dim_arg, total, out.get(), w, e); };
        p2 = aclnnRepeatInterleaveIntWithDim;
        break;
    }
    ASSERT_EQ(run_two_phase(p1, p2), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
    out.download();
    // the unit each output position along the repeated axis comes from
    std::vector<int64_t> src;
    for (int64_t u = 0; u < units; ++u)
      for (int64_t j = 0; j < reps[scalar_rep ? 0 : static_cast<size_t>(u)]; ++j) src.push_back(u);
    const Shape sstr = contiguous_strides(ss);
    for (const Shape& p : positions(os)) {
      Shape q;
      if (with_dim) {
        q = p;
        q[static_cast<size_t>(d)] = src[static_cast<size_t>(p[static_cast<size_t>(d)])];
      } else {
        int64_t f = src[static_cast<size_t>(p[0])];
        for (size_t k = 0; k < ss.size(); ++k) {
          q.push_back(f / sstr[k]);
          f %= sstr[k];
        }
      }
      ASSERT_TRUE(same_bytes(out, p, self, q)) << r << ": out" << shape_str(p);
    }
  }
}

TEST(IndexMisc, RepeatInterleaveTensorAndGrad) {
  Rng rng(65);
  for (int it = 0; it < 30; ++it) {
    const int64_t n = static_cast<int64_t>(rng() % 6);
    std::vector<int64_t> reps(static_cast<size_t>(n));
    int64_t total = 0;
    for (auto& x : reps) total += (x = static_cast<int64_t>(rng() % 4));
    const aclDataType t = rng() % 2 ? ACL_INT64 : ACL_INT32;
    Tensor rt(view_of(t, {n}, rng() % 2)), out(TensorDesc(t, {total}));
    set_indices(rt, reps);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveTensorGetWorkspaceSize(rt.get(), total, out.get(), w, e); },
                            aclnnRepeatInterleaveTensor),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    out.download();
    int64_t k = 0;
    for (int64_t u = 0; u < n; ++u)
      for (int64_t j = 0; j < reps[static_cast<size_t>(u)]; ++j, ++k) ASSERT_EQ(out.at({k}).i, u) << "RepeatInterleaveTensor " << vec_str(reps);
  }
  for (int it = 0; it < 40; ++it) {
    const aclDataType t = it % 3 == 0 ? ACL_FLOAT16 : it % 3 == 1 ? ACL_BF16 : ACL_FLOAT;
    const Shape gs = random_shape(rng, 1 + static_cast<int>(rng() % 3), 6);
    const int64_t rank = static_cast<int64_t>(gs.size());
    const int64_t ax = static_cast<int64_t>(rng() % static_cast<uint64_t>(rank));
    const int64_t size = gs[static_cast<size_t>(ax)];
    std::vector<int64_t> reps;
    if (rng() % 2) {  // one value dividing size
      int64_t r = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(size));
      while (size % r) --r;
      reps = {r};
    } else {
      for (int64_t left = size; left > 0;) {
        const int64_t r = std::min<int64_t>(left, 1 + static_cast<int64_t>(rng() % 3));
        reps.push_back(r);
        left -= r;
      }
    }
    const int64_t groups = reps.size() == 1 ? size / reps[0] : static_cast<int64_t>(reps.size());
    Shape os = gs;
    os[static_cast<size_t>(ax)] = groups;
    Tensor grad(view_of(t, gs, rng() % 2)), rt(TensorDesc(ACL_INT64, {static_cast<int64_t>(reps.size())})), out(TensorDesc(t, os));
    grad.fill_random(rng, FillOptions{0.0, 1.0});
    set_indices(rt, reps);
    const std::string r = "RepeatInterleaveGrad yGrad=" + grad.desc().str() + " repeats=" + vec_str(reps) + " axis=" + std::to_string(ax);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveGradGetWorkspaceSize(grad.get(), rt.get(), ax, out.get(), w, e); },
                            aclnnRepeatInterleaveGrad),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    out.download();
    std::vector<int64_t> group_of;
    for (int64_t g = 0; g < groups; ++g)
      for (int64_t j = 0; j < reps[reps.size() == 1 ? 0 : static_cast<size_t>(g)]; ++j) group_of.push_back(g);
    std::vector<Num> want(static_cast<size_t>(numel(os)), Num::real(0));
    for (const Shape& p : positions(gs)) {
      Shape q = p;
      q[static_cast<size_t>(ax)] = group_of[static_cast<size_t>(p[static_cast<size_t>(ax)])];
      Num& w = want[static_cast<size_t>(lin_of(q, os))];
      w.f = static_cast<float>(w.f + grad.at(p).f);
    }
    expect_values(r, out, want);
  }
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3})), rt(TensorDesc(ACL_INT64, {2})), out(TensorDesc(ACL_FLOAT, {6}));
  set_indices(rt, {1, 2});
  expect_phase1_error("RepeatInterleave repeats of 2 for 6 elements", ACLNN_ERR_PARAM_INVALID, "repeats has 2 elements, expected 1 or 6",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnRepeatInterleaveGetWorkspaceSize(self.get(), rt.get(), 6, out.get(), w, e); });
  expect_phase1_error("RepeatInterleaveInt outputSize", ACLNN_ERR_PARAM_INVALID, "outputSize is 5", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnRepeatInterleaveIntGetWorkspaceSize(self.get(), 1, 5, out.get(), w, e);
  });
  Tensor out4(TensorDesc(ACL_FLOAT, {4, 3}));
  expect_run_failure("RepeatInterleaveWithDim repeats add to 3, not 4", "repeats sum to 3, expected outputSize 4", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnRepeatInterleaveWithDimGetWorkspaceSize(self.get(), rt.get(), 0, 4, out4.get(), w, e);
  }, aclnnRepeatInterleaveWithDim);
}

// ---- Kthvalue / Median family ------------------------------------------------------------------------------

enum class Sel { kKth, kMedianDim, kNanMedianDim, kMedian, kNanMedian };

TEST(IndexMisc, OrderStatisticsRandom) {
  Rng rng(66);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64};
  for (int it = 0; it < 200; ++it) {
    const Sel op = static_cast<Sel>(it % 5);
    const aclDataType t = types[static_cast<size_t>(it / 5) % types.size()];
    const Shape ss = random_shape(rng, 1 + static_cast<int>(rng() % 3), 5);
    const int64_t rank = static_cast<int64_t>(ss.size());
    const int64_t d = static_cast<int64_t>(rng() % static_cast<uint64_t>(rank));
    const bool keep = rng() % 2;
    TensorDesc sd = view_of(t, ss, rng() % 2);
    Tensor self(sd);
    for (const Shape& p : positions(ss)) {  // few distinct values: many ties; NaN for floats
      Num v = Num::integer(static_cast<int64_t>(rng() % 4));
      if (is_floating(t)) v = rng() % 7 == 0 ? Num::real(std::nan("")) : Num::real(static_cast<double>(v.i) - 1.5);
      self.set(p, v);
    }
    self.upload();
    const bool all = op == Sel::kMedian || op == Sel::kNanMedian;
    const int64_t size = all ? numel(ss) : ss[static_cast<size_t>(d)];
    const int64_t k = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(size));
    Shape os = ss;
    if (all) os = rng() % 2 ? Shape{} : Shape{1};
    else if (keep) os[static_cast<size_t>(d)] = 1;
    else os.erase(os.begin() + d);
    Tensor values(TensorDesc(t, os)), indices(TensorDesc(ACL_INT64, os));
    static const char* names[] = {"Kthvalue", "MedianDim", "NanMedianDim", "Median", "NanMedian"};
    const std::string r = std::string(names[static_cast<int>(op)]) + " self=" + sd.str() + " dim=" + std::to_string(d) +
                          " keepdim=" + std::to_string(keep) + " k=" + std::to_string(k);
    Phase1Fn p1;
    Phase2Fn p2;
    switch (op) {
      case Sel::kKth:
        p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnKthvalueGetWorkspaceSize(self.get(), k, d, keep, values.get(), indices.get(), w, e); };
        p2 = aclnnKthvalue;
        break;
      case Sel::kMedianDim:
        p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnMedianDimGetWorkspaceSize(self.get(), d, keep, values.get(), indices.get(), w, e); };
        p2 = aclnnMedianDim;
        break;
      case Sel::kNanMedianDim:
        p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnNanMedianDimGetWorkspaceSize(self.get(), d, keep, values.get(), indices.get(), w, e); };
        p2 = aclnnNanMedianDim;
        break;
      case Sel::kMedian:
        p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnMedianGetWorkspaceSize(self.get(), values.get(), w, e); };
        p2 = aclnnMedian;
        break;
      case Sel::kNanMedian:
        p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnNanMedianGetWorkspaceSize(self.get(), values.get(), w, e); };
        p2 = aclnnNanMedian;
        break;
    }
    ASSERT_EQ(run_two_phase(p1, p2), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
    values.download();
    indices.download();
    // reference: per row, (value, position) pairs sorted stably, NaN last
    const Shape rows_shape = all ? Shape{} : [&] { Shape s = ss; s[static_cast<size_t>(d)] = 1; return s; }();
    for (const Shape& rp : positions(rows_shape)) {
      std::vector<std::pair<Num, int64_t>> row;
      int64_t first_nan = -1;
      for (int64_t j = 0; j < size; ++j) {
        Shape p;
        if (all) {
          int64_t f = j;
          const Shape st = contiguous_strides(ss);
          for (size_t q = 0; q < ss.size(); ++q) {
            p.push_back(f / st[q]);
            f %= st[q];
          }
        } else {
          p = rp;
          p[static_cast<size_t>(d)] = j;
        }
        const Num v = self.at(p);
        const bool nan = v.is_float && std::isnan(v.f);
        if (nan && first_nan < 0) first_nan = j;
        if (nan && (op == Sel::kNanMedian || op == Sel::kNanMedianDim)) continue;
        row.push_back({v, j});
      }
      std::stable_sort(row.begin(), row.end(), [](const std::pair<Num, int64_t>& a, const std::pair<Num, int64_t>& b) {
        const double x = a.first.as_double(), y = b.first.as_double();
        if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);
        return x < y;
      });
      Num want_v;
      int64_t want_i;
      if ((op == Sel::kMedian || op == Sel::kMedianDim) && first_nan >= 0) {
        want_v = Num::real(std::nan(""));
        want_i = first_nan;
      } else if (row.empty()) {
        want_v = Num::real(std::nan(""));
        want_i = 0;
      } else {
        const int64_t at = op == Sel::kKth ? k - 1 : (static_cast<int64_t>(row.size()) - 1) / 2;
        want_v = row[static_cast<size_t>(at)].first;
        want_i = row[static_cast<size_t>(at)].second;
      }
      Shape op_pos = rp;
      if (all) op_pos = os;
      if (all) op_pos.assign(os.size(), 0);
      else if (!keep) op_pos.erase(op_pos.begin() + d);
      ASSERT_TRUE(same_value(t, want_v, values.at(op_pos))) << r << ": value at row " << shape_str(rp) << " is " << num_str(values.at(op_pos)) << ", expected " << num_str(want_v);
      if (!all) {
        ASSERT_EQ(indices.at(op_pos).i, want_i) << r << ": index at row " << shape_str(rp);
      }
    }
  }
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3})), v(TensorDesc(ACL_FLOAT, {2})), i(TensorDesc(ACL_INT64, {2})), v3(TensorDesc(ACL_FLOAT, {3}));
  expect_phase1_error("Kthvalue k 4 of 3", ACLNN_ERR_PARAM_INVALID, "k is 4, expected a value in [1, 3]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnKthvalueGetWorkspaceSize(self.get(), 4, 1, false, v.get(), i.get(), w, e);
  });
  expect_phase1_error("MedianDim out shape", ACLNN_ERR_PARAM_INVALID, "valuesOut has shape [3]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnMedianDimGetWorkspaceSize(self.get(), 1, false, v3.get(), i.get(), w, e);
  });
  expect_phase1_error("Median out of 3", ACLNN_ERR_PARAM_INVALID, "a single element", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnMedianGetWorkspaceSize(self.get(), v3.get(), w, e);
  });
}

// ---- Inverse -------------------------------------------------------------------------------------------------

TEST(IndexMisc, InverseRandom) {
  Rng rng(67);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_DOUBLE, ACL_FLOAT16};
  for (int it = 0; it < 30; ++it) {
    const aclDataType t = types[static_cast<size_t>(it) % 3];
    const int64_t n = 1 + static_cast<int64_t>(rng() % 5);
    Shape ss = random_shape(rng, static_cast<int>(rng() % 2), 3);
    ss.push_back(n);
    ss.push_back(n);
    TensorDesc sd = view_of(t, ss, rng() % 2);
    Tensor self(sd), out(TensorDesc(t, ss));
    // diagonally dominant: well conditioned
    for (const Shape& p : positions(ss)) {
      const bool diag = p[p.size() - 1] == p[p.size() - 2];
      self.set(p, Num::real((diag ? static_cast<double>(n) + 2 : 0.0) + static_cast<double>(static_cast<int64_t>(rng() % 7) - 3) / 4));
    }
    self.upload();
    const std::string r = "Inverse self=" + sd.str();
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnInverseGetWorkspaceSize(self.get(), out.get(), w, e); }, aclnnInverse),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    out.download();
    // A * inv(A) ~ I
    const double tol = t == ACL_FLOAT16 ? 1e-2 : t == ACL_FLOAT ? 1e-5 : 1e-12;
    for (const Shape& p : positions(ss)) {
      const int64_t i = p[p.size() - 2], j = p[p.size() - 1];
      double s = 0;
      for (int64_t m = 0; m < n; ++m) {
        Shape a = p, b = p;
        a[a.size() - 1] = m;
        b[b.size() - 2] = m;
        s += self.at(a).f * out.at(b).f;
      }
      ASSERT_NEAR(s, i == j ? 1.0 : 0.0, tol) << r << " at " << shape_str(p);
    }
  }
  Tensor sing(TensorDesc(ACL_FLOAT, {2, 2})), out(TensorDesc(ACL_FLOAT, {2, 2})), rect(TensorDesc(ACL_FLOAT, {2, 3}));
  sing.fill(Num::real(1.0));
  expect_run_failure("Inverse of a singular matrix", "singular", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnInverseGetWorkspaceSize(sing.get(), out.get(), w, e);
  }, aclnnInverse);
  expect_phase1_error("Inverse of a 2x3 matrix", ACLNN_ERR_PARAM_INVALID, "square", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnInverseGetWorkspaceSize(rect.get(), rect.get(), w, e);
  });
}

}  // namespace
