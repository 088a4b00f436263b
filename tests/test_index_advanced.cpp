// Advanced indexing and data-dependent output sizes: Index, IndexPutImpl, Nonzero, NonzeroV2,
// Unique, Unique2, UniqueConsecutive, UniqueDim. Fixed cases carry values computed with PyTorch 1.13;
// random cases use a reference written here from PyTorch's rules (coordinates assembled per result
// position). Data-dependent outputs are read back through aclGetViewShape, as CANN programs do.
#include <gtest/gtest.h>

#include <map>

#include "aclnnop/aclnn_index.h"
#include "aclnnop/aclnn_index_put_impl.h"
#include "aclnnop/aclnn_nonzero.h"
#include "aclnnop/aclnn_nonzero_v2.h"
#include "aclnnop/aclnn_unique.h"
#include "aclnnop/aclnn_unique2.h"
#include "aclnnop/aclnn_unique_consecutive.h"
#include "aclnnop/aclnn_unique_dim.h"
#include "index_test_util.h"

namespace {

using namespace idxtest;

Shape view_shape(const Tensor& t) {
  int64_t* dims = nullptr;
  uint64_t n = 0;
  EXPECT_EQ(aclGetViewShape(t.get(), &dims, &n), ACL_SUCCESS);
  Shape s(dims, dims + n);
  delete[] dims;
  return s;
}

std::vector<float> floats(const Tensor& t, int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  std::memcpy(v.data(), t.host().data(), v.size() * sizeof(float));
  return v;
}

void fill_iota(Tensor& t) {
  int64_t k = 0;
  for_each_index(t.desc().shape, [&](const Shape& i) { t.set(i, Num::real(static_cast<double>(k++))); });
  t.upload();
}

// ---- Index: fixed cases against PyTorch ---------------------------------------------------------------------

struct IndexCase {
  std::vector<TensorDesc> idx;
  std::vector<std::vector<int64_t>> values;  // per index tensor (bool as 0/1)
  Shape out;
  std::vector<float> want;
};

void run_index_case(const IndexCase& c) {
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3, 4})), out(TensorDesc(ACL_FLOAT, c.out));
  fill_iota(self);
  std::vector<std::unique_ptr<Tensor>> idx;
  std::vector<const Tensor*> raw;
  for (size_t k = 0; k < c.idx.size(); ++k) {
    idx.emplace_back(new Tensor(c.idx[k]));
    if (!c.values[k].empty()) set_indices(*idx.back(), c.values[k]);
    raw.push_back(idx.back().get());
  }
  TensorListOf tl(raw);
  aclTensorList* list = tl.get();
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnIndexGetWorkspaceSize(self.get(), list, out.get(), w, e); },
                          aclnnIndex),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  out.download();
  EXPECT_EQ(floats(out, static_cast<int64_t>(c.want.size())), c.want);
}

TEST(IndexAdvanced, IndexMatchesPyTorch) {
  // x = arange(24).view(2,3,4)
  // x[[0,1], :, [1,2]] (non-adjacent: B first)
  run_index_case({{TensorDesc(ACL_INT64, {2}), TensorDesc(ACL_INT64, {0}), TensorDesc(ACL_INT32, {2})},
                  {{0, 1}, {}, {1, 2}},
                  {2, 3},
                  {1, 5, 9, 14, 18, 22}});
  // x[:, [[2],[0]], [1,3]] (adjacent, broadcast [2,1] x [2])
  run_index_case({{TensorDesc(ACL_INT64, {0}), TensorDesc(ACL_INT64, {2, 1}), TensorDesc(ACL_INT64, {2})},
                  {{}, {2, 0}, {1, 3}},
                  {2, 2, 2},
                  {9, 11, 1, 3, 21, 23, 13, 15}});
  // x[mask] with a [2,3] mask
  run_index_case({{TensorDesc(ACL_BOOL, {2, 3})}, {{1, 0, 1, 0, 1, 0}}, {3, 4}, {0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19}});
  // x[:, [True, False, True], [-1]]
  run_index_case({{TensorDesc(ACL_INT64, {0}), TensorDesc(ACL_BOOL, {3}), TensorDesc(ACL_INT64, {1})},
                  {{}, {1, 0, 1}, {-1}},
                  {2, 2},
                  {3, 11, 15, 23}});
}

TEST(IndexAdvanced, IndexPutAccumulateMatchesPyTorch) {
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3, 4})), i0(TensorDesc(ACL_INT64, {3})), i1(TensorDesc(ACL_INT32, {3}));
  Tensor values(TensorDesc(ACL_FLOAT, {3, 1}));
  self.fill(Num::real(0));
  set_indices(i0, {0, 0, 1});
  set_indices(i1, {1, 1, 2});
  for (int k = 0; k < 3; ++k) values.set({k, 0}, Num::real(k + 1));
  values.upload();
  TensorListOf tl({&i0, &i1});
  aclTensorList* list = tl.get();
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnIndexPutImplGetWorkspaceSize(self.get(), list, values.get(), true, false, w, e);
            }, aclnnIndexPutImpl),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  self.download();
  const std::vector<float> want = {0, 0, 0, 0, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3};
  EXPECT_EQ(floats(self, 24), want);
}

// ---- Index / IndexPutImpl: random cases against a reference -------------------------------------------------

struct Spec {
  int kind;  // 0 slice, 1 int, 2 bool
  Shape shape;
  std::vector<int64_t> values;
};

// Reference: the result positions and, for each, the self position it reads (PyTorch's rules).
struct Ref {
  Shape result;
  std::vector<Shape> src;  // per result position (row-major)
};

bool bcast(Shape* acc, const Shape& s) {
  Shape r;
  if (!broadcast_shapes(*acc, s, &r)) return false;
  *acc = r;
  return true;
}

Ref reference(const Shape& ss, const std::vector<Spec>& specs) {
  // Expand bools into coordinate lists; note each defined entry's dims.
  struct Idx {
    int64_t dim;
    Shape shape;
    std::vector<int64_t> v;
  };
  std::vector<Idx> idx;
  std::vector<bool> indexed(ss.size(), false);
  int64_t pos = 0;
  for (const Spec& s : specs) {
    if (s.kind == 0) {
      ++pos;
      continue;
    }
    if (s.kind == 1) {
      idx.push_back({pos, s.shape, s.values});
      indexed[static_cast<size_t>(pos)] = true;
      ++pos;
      continue;
    }
    const int64_t m = static_cast<int64_t>(s.shape.size());
    std::vector<std::vector<int64_t>> coords(static_cast<size_t>(m));
    int64_t k = 0;
    for (const Shape& p : positions(s.shape)) {
      if (s.values[static_cast<size_t>(k++)])
        for (int64_t j = 0; j < m; ++j) coords[static_cast<size_t>(j)].push_back(p[static_cast<size_t>(j)]);
    }
    for (int64_t j = 0; j < m; ++j) {
      idx.push_back({pos + j, {static_cast<int64_t>(coords[static_cast<size_t>(j)].size())}, coords[static_cast<size_t>(j)]});
      indexed[static_cast<size_t>(pos + j)] = true;
    }
    pos += m;
  }
  Shape b;
  for (const Idx& i : idx) bcast(&b, i.shape);
  int64_t first = -1, last = -1, count = 0;
  for (size_t d = 0; d < ss.size(); ++d)
    if (indexed[d]) {
      if (first < 0) first = static_cast<int64_t>(d);
      last = static_cast<int64_t>(d);
      ++count;
    }
  const bool adjacent = last - first + 1 == count;
  std::vector<int64_t> before, after;  // sliced dims placed before / after B
  for (size_t d = 0; d < ss.size(); ++d) {
    if (indexed[d]) continue;
    if (adjacent && static_cast<int64_t>(d) < first) before.push_back(static_cast<int64_t>(d));
    else after.push_back(static_cast<int64_t>(d));
  }
  Ref r;
  for (int64_t d : before) r.result.push_back(ss[static_cast<size_t>(d)]);
  r.result.insert(r.result.end(), b.begin(), b.end());
  for (int64_t d : after) r.result.push_back(ss[static_cast<size_t>(d)]);
  for (const Shape& p : positions(r.result)) {
    Shape s(ss.size(), 0);
    size_t q = 0;
    for (int64_t d : before) s[static_cast<size_t>(d)] = p[q++];
    const Shape bp(p.begin() + static_cast<int64_t>(q), p.begin() + static_cast<int64_t>(q + b.size()));
    q += b.size();
    for (int64_t d : after) s[static_cast<size_t>(d)] = p[q++];
    for (const Idx& i : idx) {
      int64_t lin = 0;  // position of bp in i.shape (broadcast)
      const size_t shift = b.size() - i.shape.size();
      for (size_t k = 0; k < i.shape.size(); ++k) lin = lin * i.shape[k] + (i.shape[k] == 1 ? 0 : bp[k + shift]);
      int64_t v = i.v[static_cast<size_t>(lin)];
      if (v < 0) v += ss[static_cast<size_t>(i.dim)];
      s[static_cast<size_t>(i.dim)] = v;
    }
    r.src.push_back(s);
  }
  return r;
}

std::vector<Spec> random_specs(Rng& rng, const Shape& ss) {
  std::vector<Spec> specs;
  const int64_t rank = static_cast<int64_t>(ss.size());
  const int64_t n = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(rank));
  Shape ib = {1 + static_cast<int64_t>(rng() % 3)};  // int indices broadcast among [k] / [1] / [j, k]
  if (rng() % 3 == 0) ib.insert(ib.begin(), 1 + static_cast<int64_t>(rng() % 2));
  bool used_bool = false, any = false;
  for (int64_t pos = 0; pos < n;) {
    const int r = static_cast<int>(rng() % 5);
    if (r == 0 || (pos == n - 1 && !any && false)) {
      specs.push_back({0, {0}, {}});
      ++pos;
    } else if (r == 1 && !used_bool) {
      const int64_t m = std::min<int64_t>(1 + static_cast<int64_t>(rng() % 2), n - pos);
      Spec s{2, Shape(ss.begin() + pos, ss.begin() + pos + m), {}};
      for (int64_t k = 0; k < numel(s.shape); ++k) s.values.push_back(static_cast<int64_t>(rng() % 2));
      specs.push_back(s);
      used_bool = any = true;
      pos += m;
    } else {
      Shape sh = ib;
      if (rng() % 3 == 0) sh.back() = 1;
      Spec s{1, sh, random_indices(rng, numel(sh), ss[static_cast<size_t>(pos)], true)};
      specs.push_back(s);
      any = true;
      ++pos;
    }
  }
  if (!any) specs[0] = {1, ib, random_indices(rng, numel(ib), ss[0], true)};
  return specs;
}

std::string specs_str(const std::vector<Spec>& specs) {
  std::string r;
  for (const Spec& s : specs)
    r += (s.kind == 0 ? std::string(" :") : s.kind == 1 ? " int" + shape_str(s.shape) + vec_str(s.values)
                                                         : " bool" + shape_str(s.shape) + vec_str(s.values));
  return r;
}

TEST(IndexAdvanced, IndexRandomAgainstReference) {
  Rng rng(51);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8,
                                          ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL, ACL_COMPLEX64};
  for (int it = 0; it < 150; ++it) {
    const aclDataType t = types[static_cast<size_t>(it) % types.size()];
    Shape ss(1 + rng() % 4);
    for (auto& x : ss) x = 1 + static_cast<int64_t>(rng() % 4);
    const std::vector<Spec> specs = random_specs(rng, ss);
    Shape bcheck;
    bool ok = true;
    for (const Spec& s : specs)
      if (s.kind == 1) ok = ok && bcast(&bcheck, s.shape);
    if (!ok) continue;
    // a bool mask's count must broadcast with the integer indices
    Shape all = bcheck;
    for (const Spec& s : specs)
      if (s.kind == 2) {
        int64_t c = 0;
        for (auto v : s.values) c += v;
        ok = ok && bcast(&all, {c});
      }
    if (!ok) continue;
    const Ref ref = reference(ss, specs);
    TensorDesc sd = view_of(t, ss, rng() % 2), od(t, ref.result);
    Tensor self(sd), out(od);
    fill_bytes(self, rng);
    std::vector<std::unique_ptr<Tensor>> owned;
    std::vector<const Tensor*> raw;
    for (const Spec& s : specs) {
      const aclDataType it_t = s.kind == 2 ? ACL_BOOL : (rng() % 2 ? ACL_INT64 : ACL_INT32);
      owned.emplace_back(new Tensor(view_of(it_t, s.shape, s.kind != 0 && rng() % 2)));
      if (s.kind != 0) set_indices(*owned.back(), s.values);
      raw.push_back(owned.back().get());
    }
    TensorListOf tl(raw);
    aclTensorList* list = tl.get();
    const std::string r = "Index self=" + sd.str() + " indices=" + specs_str(specs) + " out=" + od.str();
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnIndexGetWorkspaceSize(self.get(), list, out.get(), w, e); },
                            aclnnIndex),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    out.download();
    size_t k = 0;
    for (const Shape& p : positions(ref.result)) {
      ASSERT_TRUE(same_bytes(out, p, self, ref.src[k])) << r << ": out" << shape_str(p) << " != self" << shape_str(ref.src[k]);
      ++k;
    }
  }
}


TEST(IndexAdvanced, IndexPutRandomAgainstReference) {
  Rng rng(52);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8,
                                          ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64, ACL_BOOL};
  for (int it = 0; it < 150; ++it) {
    const aclDataType t = types[static_cast<size_t>(it) % types.size()];
    const bool accumulate = rng() % 2;
    Shape ss(1 + rng() % 4);
    for (auto& x : ss) x = 1 + static_cast<int64_t>(rng() % 4);
    const std::vector<Spec> specs = random_specs(rng, ss);
    Shape all;
    bool ok = true;
    for (const Spec& sp : specs) {
      if (sp.kind == 1) ok = ok && bcast(&all, sp.shape);
      if (sp.kind == 2) {
        int64_t c = 0;
        for (auto v : sp.values) c += v;
        ok = ok && bcast(&all, {c});
      }
    }
    if (!ok) continue;
    const Ref ref = reference(ss, specs);
    // values: the result shape with some dims 1 and some leading dims dropped
    Shape vs(ref.result.begin() + static_cast<int64_t>(rng() % (ref.result.size() + 1)), ref.result.end());
    for (auto& x : vs)
      if (rng() % 3 == 0) x = 1;
    TensorDesc sd = view_of(t, ss, rng() % 2), vd = view_of(t, vs, rng() % 2);
    Tensor self(sd), values(vd);
    self.fill_random(rng, FillOptions{0.02, 0.9});
    values.fill_random(rng, FillOptions{0.02, 0.9});
    std::vector<std::unique_ptr<Tensor>> owned;
    std::vector<const Tensor*> raw;
    for (const Spec& sp : specs) {
      const aclDataType it_t = sp.kind == 2 ? ACL_BOOL : (rng() % 2 ? ACL_INT64 : ACL_INT32);
      owned.emplace_back(new Tensor(view_of(it_t, sp.shape, sp.kind != 0 && rng() % 2)));
      if (sp.kind != 0) set_indices(*owned.back(), sp.values);
      raw.push_back(owned.back().get());
    }
    TensorListOf tl(raw);
    const std::string r = "IndexPutImpl self=" + sd.str() + " indices=" + specs_str(specs) + " values=" + vd.str() +
                          " accumulate=" + std::to_string(accumulate);
    // reference on the host values
    std::map<Shape, Num> want;
    for (const Shape& p : positions(ss)) want[p] = self.at(p);
    size_t k = 0;
    const size_t shift = ref.result.size() - vs.size();
    for (const Shape& p : positions(ref.result)) {
      Shape vp(vs.size());
      for (size_t j = 0; j < vs.size(); ++j) vp[j] = vs[j] == 1 ? 0 : p[j + shift];
      const Num x = values.at(vp);
      Num& dst = want[ref.src[k++]];
      if (!accumulate) {
        dst = x;
      } else if (t == ACL_BOOL) {
        dst = Num::integer(dst.i || x.i);
      } else if (is_floating(t)) {
        dst = Num::real(t == ACL_DOUBLE ? dst.f + x.f : static_cast<double>(static_cast<float>(dst.f + x.f)));
      } else {
        dst = Num::integer(wrap_int(static_cast<uint64_t>(dst.i) + static_cast<uint64_t>(x.i), t));
      }
    }
    const std::vector<uint8_t> before = self.host();
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnIndexPutImplGetWorkspaceSize(self.get(), tl.get(), values.get(), accumulate, true, w, e);
              }, aclnnIndexPutImpl),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    self.download();
    for (const auto& kv : want) {
      const Num w = cast(kv.second, t), got = self.at(kv.first);
      ASSERT_TRUE(same_value(t, w, got)) << r << ": self" << shape_str(kv.first) << " is " << num_str(got) << ", expected " << num_str(w);
    }
    EXPECT_TRUE(writes_outside_view(self, before).empty()) << r;
  }
}

TEST(IndexAdvanced, IndexErrors) {
  Tensor self(TensorDesc(ACL_FLOAT, {3, 4})), out(TensorDesc(ACL_FLOAT, {2})), i0(TensorDesc(ACL_INT64, {2}));
  Tensor fidx(TensorDesc(ACL_FLOAT, {2})), mask(TensorDesc(ACL_BOOL, {3, 3})), out_bad(TensorDesc(ACL_FLOAT, {3}));
  set_indices(i0, {0, 3});
  {
    TensorListOf l({&i0});
    Tensor out24(TensorDesc(ACL_FLOAT, {2, 4}));
    expect_run_failure("Index value 3 for dim 0 of 3", "is 3, expected a value in [-3, 3)", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnIndexGetWorkspaceSize(self.get(), l.get(), out24.get(), w, e);
    }, aclnnIndex);
    expect_phase1_error("Index out shape", ACLNN_ERR_PARAM_INVALID, "out has shape [3]", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnIndexGetWorkspaceSize(self.get(), l.get(), out_bad.get(), w, e);
    });
  }
  {
    TensorListOf l({&fidx});
    expect_phase1_error("Index float indices", ACLNN_ERR_PARAM_INVALID, "indices[0] has dtype float32", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnIndexGetWorkspaceSize(self.get(), l.get(), out.get(), w, e);
    });
  }
  {
    TensorListOf l({&mask});
    expect_phase1_error("Index mask shape", ACLNN_ERR_PARAM_INVALID, "bool mask of shape [3, 3]", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnIndexGetWorkspaceSize(self.get(), l.get(), out.get(), w, e);
    });
  }
  {
    TensorListOf l({&i0, &i0, &i0});
    expect_phase1_error("Index too many indices", ACLNN_ERR_PARAM_INVALID, "indices has 3 entries", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnIndexGetWorkspaceSize(self.get(), l.get(), out.get(), w, e);
    });
  }
  expect_phase1_error("Index null list", ACLNN_ERR_PARAM_NULLPTR, "indices", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnIndexGetWorkspaceSize(self.get(), nullptr, out.get(), w, e);
  });
  Tensor m34(TensorDesc(ACL_BOOL, {3, 4})), small(TensorDesc(ACL_FLOAT, {5}));
  set_indices(m34, {1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  {
    TensorListOf l({&m34});
    Tensor out2(TensorDesc(ACL_FLOAT, {2}));
    expect_run_failure("Index mask selects 3, out holds 2", "self[indices] has shape [3] but out has [2]", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnIndexGetWorkspaceSize(self.get(), l.get(), out2.get(), w, e);
    }, aclnnIndex);
    expect_run_failure("IndexPut values [5] for 3 positions", "does not broadcast", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnIndexPutImplGetWorkspaceSize(self.get(), l.get(), small.get(), false, true, w, e);
    }, aclnnIndexPutImpl);
  }
  {
    TensorListOf l({&i0});
    Tensor v_bad(TensorDesc(ACL_FLOAT, {3, 4})), v_int(TensorDesc(ACL_INT32, {2, 4}));
    expect_phase1_error("IndexPut values shape", ACLNN_ERR_PARAM_INVALID, "does not broadcast to selfRef[indices]'s shape [2, 4]", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnIndexPutImplGetWorkspaceSize(self.get(), l.get(), v_bad.get(), false, true, w, e);
    });
    expect_phase1_error("IndexPut values dtype", ACLNN_ERR_PARAM_INVALID, "values has dtype int32", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnIndexPutImplGetWorkspaceSize(self.get(), l.get(), v_int.get(), false, true, w, e);
    });
  }
}

// ---- Nonzero ------------------------------------------------------------------------------------------------------

TEST(IndexAdvanced, NonzeroReadsBackTheViewShape) {
  Rng rng(53);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16,
                                          ACL_INT32, ACL_INT64, ACL_BOOL, ACL_UINT16, ACL_UINT32, ACL_UINT64};
  for (int it = 0; it < 80; ++it) {
    const aclDataType t = types[static_cast<size_t>(it) % types.size()];
    const bool v2 = it % 2;
    Shape ss(rng() % 4);
    for (auto& x : ss) x = static_cast<int64_t>(rng() % 4) + (it % 17 == 0 ? 0 : 1);
    const int64_t d = static_cast<int64_t>(ss.size()), n = numel(ss);
    TensorDesc sd = view_of(t, ss, rng() % 2);
    Tensor self(sd);
    std::vector<Shape> want;
    for (const Shape& p : positions(ss)) {
      const int r = static_cast<int>(rng() % 4);
      Num v = r == 0 ? Num::integer(0) : Num::integer(1 + static_cast<int64_t>(rng() % 3));
      if (is_floating(t) && r == 1) v = Num::real(-0.0);
      if (is_floating(t) && r == 2 && rng() % 2) v = Num::real(std::nan(""));
      if (is_floating(t) && !v.is_float) v = Num::real(static_cast<double>(v.i));
      if (t == ACL_UINT16 || t == ACL_UINT32 || t == ACL_UINT64) {  // raw little-endian bytes
        const uint64_t x = static_cast<uint64_t>(r == 0 ? 0 : (r == 1 ? 256 : 1));
        std::memcpy(self.host().data() + sd.storage_index(p) * dtype_size(t), &x, dtype_size(t));
        if (x) want.push_back(p);
        continue;
      }
      self.set(p, v);
      if (v.nonzero()) want.push_back(p);
    }
    self.upload();
    const int64_t cap = n + static_cast<int64_t>(rng() % 3);
    Tensor out(TensorDesc(ACL_INT64, v2 ? Shape{d, cap} : Shape{cap, d}));
    const std::string r = std::string(v2 ? "NonzeroV2" : "Nonzero") + " self=" + sd.str() + " out=" + out.desc().str();
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return v2 ? aclnnNonzeroV2GetWorkspaceSize(self.get(), out.get(), w, e)
                          : aclnnNonzeroGetWorkspaceSize(self.get(), out.get(), w, e);
              }, v2 ? aclnnNonzeroV2 : aclnnNonzero),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    const int64_t cnt = static_cast<int64_t>(want.size());
    ASSERT_EQ(view_shape(out), v2 ? Shape({d, cnt}) : Shape({cnt, d})) << r;
    out.download();
    const int64_t* o = reinterpret_cast<const int64_t*>(out.host().data());
    for (int64_t k = 0; k < cnt; ++k)
      for (int64_t j = 0; j < d; ++j)
        ASSERT_EQ(o[v2 ? j * cnt + k : k * d + j], want[static_cast<size_t>(k)][static_cast<size_t>(j)]) << r << " entry " << k;
  }
}

TEST(IndexAdvanced, NonzeroCapacityAndRepeatableExecutor) {
  Tensor self(TensorDesc(ACL_INT32, {2, 3})), out(TensorDesc(ACL_INT64, {3, 2}));
  for (int k = 0; k < 6; ++k) self.set({k / 3, k % 3}, Num::integer(k % 2 ? 5 : 0));  // 3 non-zeros
  self.upload();
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnNonzeroGetWorkspaceSize(self.get(), out.get(), &ws, &ex), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), ACL_SUCCESS);
  void* w = nullptr;
  if (ws) {
    ASSERT_EQ(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  for (int run = 0; run < 2; ++run) {  // the view published by run 1 does not block run 2
    ASSERT_EQ(aclnnNonzero(w, ws, ex, stream()), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream()), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(view_shape(out), Shape({3, 2}));
  }
  self.fill(Num::integer(1));  // 6 non-zeros > capacity 3 rows
  ASSERT_EQ(aclnnNonzero(w, ws, ex, stream()), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream()), ACL_SUCCESS);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("needs 12 elements in out but it holds only 6"), std::string::npos)
      << aclGetRecentErrMsg();
  aclDestroyAclOpExecutor(ex);
  if (w) aclrtFree(w);
  Tensor out3(TensorDesc(ACL_INT64, {6, 3}));
  expect_phase1_error("Nonzero out.shape[1] != self.dim()", ACLNN_ERR_PARAM_INVALID, "out.shape[1] must be", [&](uint64_t* ww, aclOpExecutor** e) {
    return aclnnNonzeroGetWorkspaceSize(self.get(), out3.get(), ww, e);
  });
  Tensor out_f(TensorDesc(ACL_FLOAT, {6, 2}));
  expect_phase1_error("Nonzero out dtype", ACLNN_ERR_PARAM_INVALID, "out has dtype float32, expected int64", [&](uint64_t* ww, aclOpExecutor** e) {
    return aclnnNonzeroGetWorkspaceSize(self.get(), out_f.get(), ww, e);
  });
}

// ---- Unique family --------------------------------------------------------------------------------------------------

bool num_less(const Num& a, const Num& b) {  // NaN last
  const double x = a.as_double(), y = b.as_double();
  if (std::isnan(x)) return false;
  if (std::isnan(y)) return true;
  return x < y;
}
bool num_eq(const Num& a, const Num& b) { return a.as_double() == b.as_double(); }

// Groups of slices k of a [outer, size, inner] view: sorted (stable, lexicographic) or consecutive.
struct Groups {
  std::vector<int64_t> rep;     // representative slice per group
  std::vector<int64_t> of;      // group of each slice
  std::vector<int64_t> counts;
};

Groups group_slices(const std::vector<Num>& v, int64_t outer, int64_t size, int64_t inner, bool sorted) {
  auto at = [&](int64_t k, int64_t o, int64_t i) { return v[static_cast<size_t>((o * size + k) * inner + i)]; };
  auto less = [&](int64_t a, int64_t b) {
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        if (num_less(at(a, o, i), at(b, o, i))) return true;
        if (num_less(at(b, o, i), at(a, o, i))) return false;
      }
    return false;
  };
  auto eq = [&](int64_t a, int64_t b) {
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i)
        if (!num_eq(at(a, o, i), at(b, o, i))) return false;
    return true;
  };
  std::vector<int64_t> perm(static_cast<size_t>(size));
  for (size_t k = 0; k < perm.size(); ++k) perm[k] = static_cast<int64_t>(k);
  if (sorted) std::stable_sort(perm.begin(), perm.end(), less);
  Groups g;
  g.of.assign(static_cast<size_t>(size), 0);
  for (size_t j = 0; j < perm.size(); ++j) {
    if (j == 0 || !eq(perm[j - 1], perm[j])) {
      g.rep.push_back(perm[j]);
      g.counts.push_back(0);
    }
    g.of[static_cast<size_t>(perm[j])] = static_cast<int64_t>(g.rep.size()) - 1;
    ++g.counts.back();
  }
  return g;
}

std::vector<Num> small_values(Rng& rng, aclDataType t, int64_t n) {
  std::vector<Num> v;
  for (int64_t k = 0; k < n; ++k) {
    Num x = Num::integer(static_cast<int64_t>(rng() % 4));
    if (is_floating(t)) {
      const int r = static_cast<int>(rng() % 10);
      x = r == 0 ? Num::real(-0.0) : r == 1 ? Num::real(std::nan("")) : Num::real(static_cast<double>(rng() % 4) - 1.5);
    }
    v.push_back(cast(x, t));
  }
  return v;
}

enum class UOp { kUnique, kUnique2, kConsecutive, kDim };

void check_unique(Rng& rng, UOp op, aclDataType t) {
  Shape ss(1 + rng() % 3);
  for (auto& x : ss) x = 1 + static_cast<int64_t>(rng() % 4);
  const int64_t rank = static_cast<int64_t>(ss.size());
  int64_t dim = -1;
  if (op == UOp::kDim || (op == UOp::kConsecutive && rng() % 2)) dim = static_cast<int64_t>(rng() % static_cast<uint64_t>(rank));
  const bool ret_inv = rng() % 2, ret_cnt = op == UOp::kDim || rng() % 2;
  const aclDataType it = op == UOp::kConsecutive && rng() % 2 ? ACL_INT32 : ACL_INT64;
  TensorDesc sd = view_of(t, ss, op != UOp::kUnique && rng() % 2);
  Tensor self(sd);
  const std::vector<Num> vals = small_values(rng, t, numel(ss));
  {
    size_t k = 0;
    for (const Shape& p : positions(ss)) self.set(p, vals[k++]);
    self.upload();
  }
  const int64_t n = numel(ss);
  const int64_t outer = dim < 0 ? 1 : numel(Shape(ss.begin(), ss.begin() + dim));
  const int64_t size = dim < 0 ? n : ss[static_cast<size_t>(dim)];
  const int64_t inner = dim < 0 ? 1 : numel(Shape(ss.begin() + dim + 1, ss.end()));
  const Groups g = group_slices(vals, outer, size, inner, op != UOp::kConsecutive);
  const int64_t ng = static_cast<int64_t>(g.rep.size());
  Tensor value(TensorDesc(t, {n + static_cast<int64_t>(rng() % 3)}));
  const Shape inv_shape = dim < 0 ? ss : Shape{size};
  Tensor inverse(TensorDesc(it, inv_shape)), counts(TensorDesc(it, {size + 1}));
  static const char* names[] = {"Unique", "Unique2", "UniqueConsecutive", "UniqueDim"};
  const std::string r = std::string(names[static_cast<int>(op)]) + " self=" + sd.str() + " dim=" + std::to_string(dim) +
                        " returnInverse=" + std::to_string(ret_inv) + " returnCounts=" + std::to_string(ret_cnt) +
                        " index dtype=" + dtype_name(it);
  Phase1Fn p1;
  Phase2Fn p2;
  switch (op) {
    case UOp::kUnique:
      p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnUniqueGetWorkspaceSize(self.get(), true, ret_inv, value.get(), inverse.get(), w, e); };
      p2 = aclnnUnique;
      break;
    case UOp::kUnique2:
      p1 = [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnUnique2GetWorkspaceSize(self.get(), true, ret_inv, ret_cnt, value.get(), inverse.get(), counts.get(), w, e);
      };
      p2 = aclnnUnique2;
      break;
    case UOp::kConsecutive:
      p1 = [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnUniqueConsecutiveGetWorkspaceSize(self.get(), ret_inv, ret_cnt, dim < 0 ? 1000 : dim, value.get(), inverse.get(),
                                                      counts.get(), w, e);
      };
      p2 = aclnnUniqueConsecutive;
      break;
    case UOp::kDim:
      p1 = [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnUniqueDimGetWorkspaceSize(self.get(), true, ret_inv, dim - rank, value.get(), inverse.get(), counts.get(), w, e);
      };
      p2 = aclnnUniqueDim;
      break;
  }
  ASSERT_EQ(run_two_phase(p1, p2), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  Shape vshape = dim < 0 ? Shape{ng} : ss;
  if (dim >= 0) vshape[static_cast<size_t>(dim)] = ng;
  ASSERT_EQ(view_shape(value), vshape) << r;
  value.download();
  // values packed as [outer, ng, inner]
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < ng; ++j)
      for (int64_t i = 0; i < inner; ++i) {
        const Num want = vals[static_cast<size_t>((o * size + g.rep[static_cast<size_t>(j)]) * inner + i)];
        const Num got = load(t, value.host().data() + ((o * ng + j) * inner + i) * static_cast<int64_t>(dtype_size(t)));
        ASSERT_TRUE(num_eq(want, got) || (std::isnan(want.as_double()) && std::isnan(got.as_double())))
            << r << ": value[" << o << "," << j << "," << i << "] is " << num_str(got) << ", expected " << num_str(want);
      }
  const bool inv_written = ret_inv || (op == UOp::kUnique2 && ret_cnt);
  if (inv_written) {
    inverse.download();
    for (int64_t k = 0; k < size; ++k)
      ASSERT_EQ(load(it, inverse.host().data() + k * static_cast<int64_t>(dtype_size(it))).i, g.of[static_cast<size_t>(k)]) << r << ": inverse[" << k << "]";
  }
  const bool cnt_written = op == UOp::kDim || (op != UOp::kUnique && ret_cnt);
  if (cnt_written) {
    ASSERT_EQ(view_shape(counts), Shape{ng}) << r;
    counts.download();
    for (int64_t j = 0; j < ng; ++j)
      ASSERT_EQ(load(it, counts.host().data() + j * static_cast<int64_t>(dtype_size(it))).i, g.counts[static_cast<size_t>(j)]) << r << ": counts[" << j << "]";
  }
}

TEST(IndexAdvanced, UniqueFamilyRandom) {
  Rng rng(54);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8,
                                          ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64, ACL_BOOL};
  for (int it = 0; it < 200; ++it) {
    check_unique(rng, static_cast<UOp>(it % 4), types[static_cast<size_t>(it / 4) % types.size()]);
    if (HasFailure()) return;
  }
}

TEST(IndexAdvanced, UniqueErrors) {
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3})), value(TensorDesc(ACL_FLOAT, {6})), inv(TensorDesc(ACL_INT64, {2, 3}));
  Tensor inv_bad(TensorDesc(ACL_INT64, {6})), value_i(TensorDesc(ACL_INT32, {6})), small(TensorDesc(ACL_FLOAT, {2}));
  Tensor counts(TensorDesc(ACL_INT64, {6})), counts32(TensorDesc(ACL_INT32, {6}));
  expect_phase1_error("Unique inverse shape", ACLNN_ERR_PARAM_INVALID, "inverseOut has shape [6]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnUniqueGetWorkspaceSize(self.get(), true, true, value.get(), inv_bad.get(), w, e);
  });
  expect_phase1_error("Unique value dtype", ACLNN_ERR_PARAM_INVALID, "valueOut has dtype int32", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnUniqueGetWorkspaceSize(self.get(), true, true, value_i.get(), inv.get(), w, e);
  });
  expect_phase1_error("UniqueConsecutive index dtypes differ", ACLNN_ERR_PARAM_INVALID, "must be the same", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnUniqueConsecutiveGetWorkspaceSize(self.get(), false, false, 1000, value.get(), inv.get(), counts32.get(), w, e);
  });
  expect_phase1_error("UniqueDim dim 2", ACLNN_ERR_PARAM_INVALID, "dim is 2", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnUniqueDimGetWorkspaceSize(self.get(), true, false, 2, value.get(), inv.get(), counts.get(), w, e);
  });
  for (int k = 0; k < 6; ++k) self.set({k / 3, k % 3}, Num::real(k));
  self.upload();
  expect_run_failure("Unique 6 values into 2", "needs 6 elements in valueOut but it holds only 2", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnUniqueGetWorkspaceSize(self.get(), true, false, small.get(), inv.get(), w, e);
  }, aclnnUnique);
}

}  // namespace
