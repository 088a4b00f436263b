// Ordering through the public C API: Sort, Argsort, Topk, SearchSorted, SearchSorteds. The sort
// reference is a stable sort of (key, position) with NaN greatest (PyTorch's order); values must be
// byte-identical to the chosen source elements, indices exact. Topk checks the values against the
// same reference and that each index points at its value. SearchSorted counts linearly.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "aclnnop/aclnn_argsort.h"
#include "aclnnop/aclnn_searchsorted.h"
#include "aclnnop/aclnn_sort.h"
#include "aclnnop/aclnn_topk.h"
#include "movement_test_util.h"

namespace {

using namespace optest;

// A sort key: the element's exact value (long double holds every int64, uint64 and double), NaN apart.
struct Key {
  bool nan = false;
  long double v = 0;
};

Key key_of(aclDataType t, const uint8_t* p) {
  auto get = [p](auto x) {
    std::memcpy(&x, p, sizeof x);
    return x;
  };
  switch (t) {
    case ACL_UINT16: return {false, static_cast<long double>(get(uint16_t{}))};
    case ACL_UINT32: return {false, static_cast<long double>(get(uint32_t{}))};
    case ACL_UINT64: return {false, static_cast<long double>(get(uint64_t{}))};
    default: break;
  }
  const Num n = load(t, p);
  if (n.is_float) return {std::isnan(n.f), std::isnan(n.f) ? 0 : static_cast<long double>(n.f)};
  return {false, static_cast<long double>(n.i)};
}

bool key_less(const Key& a, const Key& b) { return a.nan ? false : b.nan ? true : a.v < b.v; }
bool key_same(const Key& a, const Key& b) { return a.nan == b.nan && (a.nan || a.v == b.v); }

const std::vector<aclDataType> kSortTypes = {ACL_BF16,  ACL_FLOAT16, ACL_FLOAT,  ACL_DOUBLE, ACL_INT8,   ACL_INT16, ACL_INT32,
                                             ACL_INT64, ACL_UINT8,   ACL_UINT16, ACL_UINT32, ACL_UINT64, ACL_BOOL};

// Values with many ties and the special values.
void fill_sortable(Tensor& t, Rng& rng) {
  const aclDataType dt = t.desc().dtype;
  if (dt == ACL_UINT16 || dt == ACL_UINT32 || dt == ACL_UINT64) {
    fill_bytes(t, rng);
    const size_t es = dtype_size(dt);
    for (size_t k = 0; k < t.host().size(); k += es)
      if (rng() % 2) std::memset(t.host().data() + k + 1, 0, es - 1);  // small values tie often
    t.upload();
    return;
  }
  FillOptions o;
  o.special = 0.15;
  o.small_int = 0.6;
  t.fill_random(rng, o);
}

// The reference order of line positions 0..n-1 of `self` along d at `base` (other dims fixed).
std::vector<int64_t> reference_order(const Tensor& self, int64_t d, Shape base, bool descending) {
  const int64_t n = self.desc().shape.empty() ? 1 : self.desc().shape[static_cast<size_t>(d)];
  const size_t es = dtype_size(self.desc().dtype);
  std::vector<Key> keys;
  for (int64_t j = 0; j < n; ++j) {
    if (!base.empty()) base[static_cast<size_t>(d)] = j;
    keys.push_back(key_of(self.desc().dtype, self.host().data() + self.desc().storage_index(base) * es));
  }
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return descending ? key_less(keys[static_cast<size_t>(b)], keys[static_cast<size_t>(a)])
                      : key_less(keys[static_cast<size_t>(a)], keys[static_cast<size_t>(b)]);
  });
  return order;
}

TEST(Sort, SortAndArgsortRandom) {
  Rng rng(301);
  for (int iter = 0; iter < 160; ++iter) {
    const aclDataType t = kSortTypes[static_cast<size_t>(iter) % kSortTypes.size()];
    const bool arg = iter % 3 == 2, descending = rng() % 2;
    const int rank = static_cast<int>(rng() % 4);
    const Shape s = random_shape(rng, rank, iter % 23 == 0 ? 0 : 1, 6);
    const int64_t r1 = std::max(rank, 1);
    const int64_t dim = static_cast<int64_t>(rng() % static_cast<uint64_t>(r1)) - (rng() % 2 ? r1 : 0);
    const int64_t d = dim < 0 ? dim + r1 : dim;
    Tensor self(random_view(t, s, rng));
    fill_sortable(self, rng);
    Tensor values(random_view(t, s, rng)), indices(random_view(ACL_INT64, s, rng));
    fill_bytes(values, rng);
    fill_bytes(indices, rng);
    const auto vb = values.host(), ib = indices.host();
    std::string r = std::string(arg ? "Argsort" : "Sort") + " self=" + self.desc().str() + " dim=" + std::to_string(dim) +
                    " descending=" + std::to_string(descending);
    bool ok;
    if (arg) {
      r += " out=" + indices.desc().str();
      ok = run_ok(r, [&](uint64_t* w, aclOpExecutor** x) { return aclnnArgsortGetWorkspaceSize(self.get(), dim, descending, indices.get(), w, x); }, aclnnArgsort);
    } else {
      r += " valuesOut=" + values.desc().str() + " indicesOut=" + indices.desc().str();
      ok = run_ok(r, [&](uint64_t* w, aclOpExecutor** x) { return aclnnSortGetWorkspaceSize(self.get(), true, dim, descending, values.get(), indices.get(), w, x); }, aclnnSort);
    }
    if (!ok) return;
    // Each out index i: the source position is order(line of i)[i[d]].
    auto source = [&](const Shape& i) {
      const std::vector<int64_t> order = reference_order(self, d, i, descending);
      Shape j = i;
      if (!j.empty()) j[static_cast<size_t>(d)] = order[static_cast<size_t>(i[static_cast<size_t>(d)])];
      return j;
    };
    indices.download();
    for_each_index(s, [&](const Shape& i) {
      const Shape j = source(i);
      const int64_t want = j.empty() ? 0 : j[static_cast<size_t>(d)];
      EXPECT_EQ(indices.at(i).i, want) << r << ": index" << shape_str(i);
    });
    EXPECT_TRUE(writes_outside_view(indices, ib).empty()) << r;
    if (!arg) expect_moved(r, values, vb, [&](const Shape& i) { return Source{&self, source(i)}; });
    if (HasFailure()) return;
  }
}

TEST(Topk, LargestAndSmallest) {
  Rng rng(302);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT16, ACL_INT8,
                                          ACL_UINT8, ACL_DOUBLE, ACL_BF16, ACL_UINT64, ACL_UINT16, ACL_UINT32};
  for (int iter = 0; iter < 120; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const bool largest = rng() % 2;
    const int rank = static_cast<int>(rng() % 4);
    const Shape s = random_shape(rng, rank, 1, 6);
    const int64_t r1 = std::max(rank, 1);
    const int64_t dim = static_cast<int64_t>(rng() % static_cast<uint64_t>(r1)) - (rng() % 2 ? r1 : 0);
    const int64_t d = dim < 0 ? dim + r1 : dim;
    const int64_t n = rank ? s[static_cast<size_t>(d)] : 1;
    const int64_t k = static_cast<int64_t>(rng() % static_cast<uint64_t>(n + 1));
    Shape os = s;
    if (rank) os[static_cast<size_t>(d)] = k;
    Tensor self(random_view(t, s, rng)), values(random_view(t, os, rng)), indices(random_view(ACL_INT64, os, rng));
    fill_sortable(self, rng);
    const std::string r = std::string("Topk self=") + self.desc().str() + " k=" + std::to_string(k) + " dim=" + std::to_string(dim) +
                          " largest=" + std::to_string(largest) + " valuesOut=" + values.desc().str();
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** x) { return aclnnTopkGetWorkspaceSize(self.get(), k, dim, largest, true, values.get(), indices.get(), w, x); }, aclnnTopk))
      return;
    values.download();
    indices.download();
    const size_t es = dtype_size(t);
    for_each_index(os, [&](const Shape& i) {
      Shape line = i;
      const std::vector<int64_t> order = reference_order(self, d, line, largest);
      const int64_t pos = rank ? i[static_cast<size_t>(d)] : 0;
      Shape want_at = i;
      if (rank) want_at[static_cast<size_t>(d)] = order[static_cast<size_t>(pos)];
      const Key want = key_of(t, self.host().data() + self.desc().storage_index(want_at) * es);
      const Key got = key_of(t, values.host().data() + values.desc().storage_index(i) * es);
      EXPECT_TRUE(key_same(want, got)) << r << ": values" << shape_str(i);
      const int64_t idx = indices.at(i).i;
      ASSERT_TRUE(idx >= 0 && idx < n) << r << ": indices" << shape_str(i) << " is " << idx;
      Shape at = i;
      if (rank) at[static_cast<size_t>(d)] = idx;
      EXPECT_TRUE(key_same(key_of(t, self.host().data() + self.desc().storage_index(at) * es), got))
          << r << ": indices" << shape_str(i) << " = " << idx << " does not point at its value";
    });
    // Indices of one line are distinct.
    for_each_index(os, [&](const Shape& i) {
      if (rank == 0 || i[static_cast<size_t>(d)] != 0) return;
      std::set<int64_t> seen;
      Shape j = i;
      for (int64_t p = 0; p < k; ++p) {
        j[static_cast<size_t>(d)] = p;
        EXPECT_TRUE(seen.insert(indices.at(j).i).second) << r << ": index repeated in line " << shape_str(i);
      }
    });
    if (HasFailure()) return;
  }
}

TEST(Sort, BadArguments) {
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3})), v(TensorDesc(ACL_FLOAT, {2, 3})), i(TensorDesc(ACL_INT64, {2, 3}));
  Tensor i32(TensorDesc(ACL_INT32, {2, 3})), vbad(TensorDesc(ACL_FLOAT, {3, 2})), c(TensorDesc(ACL_COMPLEX64, {2, 3}));
  Tensor tv(TensorDesc(ACL_FLOAT, {2, 2})), ti(TensorDesc(ACL_INT64, {2, 2}));
  auto sort = [](aclTensor* s, int64_t dim, aclTensor* vo, aclTensor* io) {
    return [=](uint64_t* w, aclOpExecutor** x) { return aclnnSortGetWorkspaceSize(s, false, dim, false, vo, io, w, x); };
  };
  expect_phase1_error("null", ACLNN_ERR_PARAM_NULLPTR, "indicesOut", sort(self.get(), 0, v.get(), nullptr));
  expect_phase1_error("dim", ACLNN_ERR_PARAM_INVALID, "dim is 2, expected a dim in [-2, 1]", sort(self.get(), 2, v.get(), i.get()));
  expect_phase1_error("indices dtype", ACLNN_ERR_PARAM_INVALID, "indicesOut has dtype int32, expected int64", sort(self.get(), 0, v.get(), i32.get()));
  expect_phase1_error("values shape", ACLNN_ERR_PARAM_INVALID, "valuesOut has shape [3, 2]", sort(self.get(), 0, vbad.get(), i.get()));
  expect_phase1_error("complex", ACLNN_ERR_PARAM_INVALID, "complex64", sort(c.get(), 0, v.get(), i.get()));
  expect_phase1_error("argsort out", ACLNN_ERR_PARAM_INVALID, "out has dtype int32",
                      [&](uint64_t* w, aclOpExecutor** x) { return aclnnArgsortGetWorkspaceSize(self.get(), 0, false, i32.get(), w, x); });
  expect_phase1_error("topk k", ACLNN_ERR_PARAM_INVALID, "k is 4, expected k in [0, 3]",
                      [&](uint64_t* w, aclOpExecutor** x) { return aclnnTopkGetWorkspaceSize(self.get(), 4, 1, true, true, tv.get(), ti.get(), w, x); });
  expect_phase1_error("topk shape", ACLNN_ERR_PARAM_INVALID, "valuesOut has shape [2, 2], expected self's shape with k in dim [2, 1]",
                      [&](uint64_t* w, aclOpExecutor** x) { return aclnnTopkGetWorkspaceSize(self.get(), 1, -1, true, true, tv.get(), ti.get(), w, x); });
}

// ---- SearchSorted ------------------------------------------------------------------------------------

const std::vector<aclDataType> kSearchTypes = {ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16, ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64};

TEST(SearchSorted, RandomSequencesQueriesAndSorters) {
  Rng rng(311);
  for (int iter = 0; iter < 150; ++iter) {
    const aclDataType st = kSearchTypes[static_cast<size_t>(iter) % kSearchTypes.size()];
    const aclDataType qt = kSearchTypes[static_cast<size_t>(rng() % kSearchTypes.size())];
    const bool right = rng() % 2, out32 = rng() % 2, use_sorter = rng() % 3 == 0, scalar = iter % 5 == 4;
    const bool multi = !scalar && rng() % 2;
    const int64_t n = static_cast<int64_t>(rng() % 7);
    const Shape lead = multi ? random_shape(rng, 1 + static_cast<int>(rng() % 2), 1, 3) : Shape{};
    Shape ss = lead;
    ss.push_back(n);
    Shape qs = multi ? lead : random_shape(rng, static_cast<int>(rng() % 3), 1, 4);
    if (multi) qs.push_back(static_cast<int64_t>(rng() % 4));
    // Sequence rows: sorted small integers (or halves for floats), or a permutation of them with a sorter.
    const int64_t rows = numel(lead);
    std::vector<std::vector<double>> seq(static_cast<size_t>(rows));
    std::vector<std::vector<int64_t>> sorter(static_cast<size_t>(rows));
    const double unit = is_floating(st) ? 0.5 : 1.0;
    for (int64_t rr = 0; rr < rows; ++rr) {
      auto& v = seq[static_cast<size_t>(rr)];
      for (int64_t j = 0; j < n; ++j) v.push_back(static_cast<double>(rng() % 10) * unit);
      std::sort(v.begin(), v.end());
      sorter[static_cast<size_t>(rr)].resize(static_cast<size_t>(n));
      std::iota(sorter[static_cast<size_t>(rr)].begin(), sorter[static_cast<size_t>(rr)].end(), 0);
      if (use_sorter) std::shuffle(sorter[static_cast<size_t>(rr)].begin(), sorter[static_cast<size_t>(rr)].end(), rng);
    }
    Tensor sq(random_view(st, ss, rng)), so(TensorDesc(ACL_INT64, ss));
    for (int64_t rr = 0; rr < rows; ++rr)
      for (int64_t j = 0; j < n; ++j) {
        Shape at = unravel(rr, lead);
        at.push_back(sorter[static_cast<size_t>(rr)][static_cast<size_t>(j)]);
        sq.set(at, Num::real(seq[static_cast<size_t>(rr)][static_cast<size_t>(j)]));
        Shape sat = unravel(rr, lead);
        sat.push_back(j);
        so.set(sat, Num::integer(sorter[static_cast<size_t>(rr)][static_cast<size_t>(j)]));
      }
    // With a sorter, the stored sequence is the sorted one permuted: stored[sorter[j]] = sorted[j].
    sq.upload();
    so.upload();
    Tensor q(random_view(qt, scalar ? Shape{} : qs, rng));
    for_each_index(q.desc().shape, [&](const Shape& i) {
      const double x = rng() % 11 == 0 && is_floating(qt) ? std::nan("") : static_cast<double>(static_cast<int64_t>(rng() % 12) - 1) * 0.5;
      q.set(i, Num::real(x));
    });
    q.upload();
    const aclDataType ot = out32 ? ACL_INT32 : ACL_INT64;
    Tensor out(random_view(ot, scalar ? Shape{1} : qs, rng));
    const ScalarDesc sd = scalar ? ScalarDesc(qt, q.at({})) : ScalarDesc();
    Scalar sv(sd);
    std::string r = std::string(scalar ? "SearchSorteds" : "SearchSorted") + " sortedSequence=" + sq.desc().str() + " self=" +
                    (scalar ? sd.str() : q.desc().str()) + " outInt32=" + std::to_string(out32) + " right=" + std::to_string(right) +
                    " sorter=" + (use_sorter ? "yes" : "none");
    if (scalar && multi) continue;
    bool ok;
    if (scalar)
      ok = run_ok(r, [&](uint64_t* w, aclOpExecutor** x) { return aclnnSearchSortedsGetWorkspaceSize(sq.get(), sv.get(), out32, right, use_sorter ? so.get() : nullptr, out.get(), w, x); }, aclnnSearchSorteds);
    else
      ok = run_ok(r, [&](uint64_t* w, aclOpExecutor** x) { return aclnnSearchSortedGetWorkspaceSize(sq.get(), q.get(), out32, right, use_sorter ? so.get() : nullptr, out.get(), w, x); }, aclnnSearchSorted);
    if (!ok) return;
    out.download();
    for_each_index(out.desc().shape, [&](const Shape& i) {
      const Shape qi = scalar ? Shape{} : i;
      // The query as the common dtype sees it (values are small: exact in every dtype but the
      // integer ones, which truncate halves).
      double x = q.at(qi).is_float ? q.at(qi).f : static_cast<double>(q.at(qi).i);
      if (!is_floating(st) && !is_floating(qt)) x = std::trunc(x);
      const int64_t rr = multi ? ravel(Shape(i.begin(), i.end() - 1), lead) : 0;
      int64_t want = 0;
      if (std::isnan(x)) want = n;
      else
        for (double v : seq[static_cast<size_t>(rr)]) want += right ? (v <= x) : (v < x);
      EXPECT_EQ(out.at(i).i, want) << r << ": out" << shape_str(i) << " for " << x;
    });
    if (HasFailure()) return;
  }
}

TEST(SearchSorted, BadArguments) {
  Tensor seq(TensorDesc(ACL_FLOAT, {2, 4})), self(TensorDesc(ACL_FLOAT, {3, 2})), out(TensorDesc(ACL_INT64, {3, 2}));
  Tensor out32(TensorDesc(ACL_INT32, {3, 2})), b(TensorDesc(ACL_BOOL, {3, 2})), sorter(TensorDesc(ACL_INT32, {2, 4}));
  Tensor seq1(TensorDesc(ACL_FLOAT, {4})), o1(TensorDesc(ACL_INT64, {1}));
  Scalar x(ScalarDesc(ACL_FLOAT, 1.0));
  auto ss = [](aclTensor* s, aclTensor* q, bool o32, aclTensor* so, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnSearchSortedGetWorkspaceSize(s, q, o32, false, so, o, w, e); };
  };
  expect_phase1_error("leading dims", ACLNN_ERR_PARAM_INVALID, "expected the leading dims [2]", ss(seq.get(), self.get(), false, nullptr, out.get()));
  expect_phase1_error("outInt32", ACLNN_ERR_PARAM_INVALID, "out has dtype int64, expected int32", ss(seq1.get(), self.get(), true, nullptr, out.get()));
  expect_phase1_error("dtype", ACLNN_ERR_PARAM_INVALID, "self dtype bool", ss(seq1.get(), b.get(), false, nullptr, out.get()));
  expect_phase1_error("sorter dtype", ACLNN_ERR_PARAM_INVALID, "sorter has dtype int32", ss(seq.get(), self.get(), false, sorter.get(), out.get()));
  expect_phase1_error("null self", ACLNN_ERR_PARAM_NULLPTR, "self", ss(seq1.get(), nullptr, false, nullptr, out.get()));
  expect_phase1_error("scalar 2-d seq", ACLNN_ERR_PARAM_INVALID, "expected 1 for a scalar self",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnSearchSortedsGetWorkspaceSize(seq.get(), x.get(), false, false, nullptr, o1.get(), w, e); });
  // A sorter index out of range fails at run time (the stream reports it).
  Tensor bad(TensorDesc(ACL_INT64, {4}));
  bad.set({0}, Num::integer(7));
  bad.upload();
  EXPECT_NE(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnSearchSortedsGetWorkspaceSize(seq1.get(), x.get(), false, false, bad.get(), o1.get(), w, e); },
                          aclnnSearchSorteds),
            ACL_SUCCESS);
}

}  // namespace
