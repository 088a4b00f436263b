// Gathers of the index family through the public C API: Gather, GatherV2, GatherV3, IndexSelect,
// Embedding, Take, GatherNd, OneHot. Each reference maps an output position to the self position it
// copies (computed here from the index values on the host), and elements are compared bytewise.
#include <gtest/gtest.h>

#include <functional>

#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_gather_nd.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_gather_v3.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_one_hot.h"
#include "aclnnop/aclnn_take.h"
#include "index_test_util.h"

namespace {

using namespace idxtest;

Shape random_shape(Rng& rng, int rank, int max_dim = 4, bool zero = false) {
  Shape s(static_cast<size_t>(rank));
  for (auto& x : s) x = static_cast<int64_t>(rng() % static_cast<uint64_t>(max_dim)) + (zero && rng() % 8 == 0 ? 0 : 1);
  return s;
}

aclDataType index_dtype(Rng& rng) { return rng() % 2 ? ACL_INT64 : ACL_INT32; }

// Runs the op and compares every out element with self at ref(out_pos) (bytewise).
void run_and_compare(const std::string& r, Tensor& self, Tensor& out, const Phase1Fn& p1, Phase2Fn p2,
                     const std::function<Shape(const Shape&)>& ref) {
  const std::vector<uint8_t> before = out.host();
  ASSERT_EQ(run_two_phase(p1, p2), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  out.download();
  for (const Shape& o : positions(out.desc().shape)) {
    const Shape s = ref(o);
    if (!same_bytes(out, o, self, s)) {
      ADD_FAILURE() << r << ": out" << shape_str(o) << " differs from self" << shape_str(s);
      return;
    }
  }
  const std::string outside = writes_outside_view(out, before);
  EXPECT_TRUE(outside.empty()) << r << ": wrote outside the out view:" << outside;
}

int64_t wrap(int64_t v, int64_t n) { return v < 0 ? v + n : v; }

// ---- GatherV2 / GatherV3 / IndexSelect ---------------------------------------------------------------

enum class RowOp { kGatherV2, kGatherV3, kIndexSelect };

void check_row_gather(Rng& rng, RowOp op, aclDataType t, const Shape& sshape, int64_t dim, const Shape& ishape,
                      int64_t batch_dims, bool strided) {
  const int64_t rank = static_cast<int64_t>(sshape.size());
  const int64_t d = dim < 0 ? dim + std::max<int64_t>(rank, 1) : dim;
  const Shape s1 = sshape.empty() ? Shape{1} : sshape;
  Shape oshape(s1.begin(), s1.begin() + d);
  if (op == RowOp::kIndexSelect) {
    oshape.push_back(numel(ishape));
  } else {
    oshape.insert(oshape.end(), ishape.begin() + batch_dims, ishape.end());
  }
  oshape.insert(oshape.end(), s1.begin() + d + 1, s1.end());
  if (sshape.empty() && op == RowOp::kIndexSelect) oshape = {};
  TensorDesc sd = view_of(t, sshape, strided), id = view_of(index_dtype(rng), ishape, strided && rng() % 2);
  TensorDesc od = rng() % 3 == 0 ? transposed_of(t, oshape) : TensorDesc(t, oshape);
  const char* name = op == RowOp::kGatherV2 ? "GatherV2" : op == RowOp::kGatherV3 ? "GatherV3" : "IndexSelect";
  const std::string r = std::string(name) + " self=" + sd.str() + " dim=" + std::to_string(dim) + " index=" + id.str() +
                        " batchDims=" + std::to_string(batch_dims) + " out=" + od.str();
  Tensor self(sd), index(id), out(od);
  fill_bytes(self, rng);
  fill_bytes(out, rng);
  const int64_t size = s1[static_cast<size_t>(d)];
  const std::vector<int64_t> iv = random_indices(rng, numel(ishape), size, true);
  set_indices(index, iv);
  const Shape istr = contiguous_strides(ishape);
  auto ref = [&](const Shape& o) {
    Shape ipos;
    if (op == RowOp::kIndexSelect) {
      ipos = ishape.empty() ? Shape{} : Shape{o.empty() ? 0 : o[static_cast<size_t>(d)]};
    } else {
      ipos.assign(o.begin(), o.begin() + batch_dims);
      ipos.insert(ipos.end(), o.begin() + d, o.begin() + d + static_cast<int64_t>(ishape.size()) - batch_dims);
    }
    int64_t lin = 0;
    for (size_t k = 0; k < ipos.size(); ++k) lin += ipos[k] * istr[k];
    const int64_t v = wrap(iv[static_cast<size_t>(lin)], size);
    if (sshape.empty()) return Shape{};
    Shape s(o.begin(), o.begin() + d);
    s.push_back(v);
    const int64_t skip = op == RowOp::kIndexSelect ? 1 : static_cast<int64_t>(ishape.size()) - batch_dims;
    s.insert(s.end(), o.begin() + d + skip, o.end());
    return s;
  };
  Phase1Fn p1;
  Phase2Fn p2;
  if (op == RowOp::kGatherV2) {
    p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnGatherV2GetWorkspaceSize(self.get(), dim, index.get(), out.get(), w, e); };
    p2 = aclnnGatherV2;
  } else if (op == RowOp::kGatherV3) {
    p1 = [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnGatherV3GetWorkspaceSize(self.get(), dim, index.get(), batch_dims, 1, out.get(), w, e);
    };
    p2 = aclnnGatherV3;
  } else {
    p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnIndexSelectGetWorkspaceSize(self.get(), dim, index.get(), out.get(), w, e); };
    p2 = aclnnIndexSelect;
  }
  run_and_compare(r, self, out, p1, p2, ref);
}

TEST(IndexGather, GatherV2RandomShapesDimsDtypes) {
  Rng rng(11);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8,
                                          ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL, ACL_COMPLEX64, ACL_COMPLEX128};
  for (int it = 0; it < 120; ++it) {
    const int rank = 1 + static_cast<int>(rng() % 4);
    const Shape s = random_shape(rng, rank, 4, true);
    int64_t dim = static_cast<int64_t>(rng() % static_cast<uint64_t>(rank));
    if (rng() % 2) dim -= rank;
    const Shape is = random_shape(rng, static_cast<int>(rng() % 3), 3);
    if (s[static_cast<size_t>(dim < 0 ? dim + rank : dim)] == 0 && numel(is) > 0) continue;
    check_row_gather(rng, RowOp::kGatherV2, types[static_cast<size_t>(it) % types.size()], s, dim, is, 0, rng() % 2);
    if (HasFailure()) return;
  }
}

TEST(IndexGather, GatherV3BatchDims) {
  Rng rng(12);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT64, ACL_BOOL, ACL_COMPLEX64};
  for (int it = 0; it < 80; ++it) {
    const int rank = 1 + static_cast<int>(rng() % 4);
    const Shape s = random_shape(rng, rank, 4);
    const int64_t dim = static_cast<int64_t>(rng() % static_cast<uint64_t>(rank));
    const int64_t bd = static_cast<int64_t>(rng() % static_cast<uint64_t>(dim + 1));
    Shape is(s.begin(), s.begin() + bd);
    const Shape extra = random_shape(rng, static_cast<int>(rng() % 3), 3);
    is.insert(is.end(), extra.begin(), extra.end());
    check_row_gather(rng, RowOp::kGatherV3, types[static_cast<size_t>(it) % types.size()], s, dim, is, bd, rng() % 2);
    if (HasFailure()) return;
  }
}

TEST(IndexGather, IndexSelectRandom) {
  Rng rng(13);
  for (int it = 0; it < 150; ++it) {
    const aclDataType t = move_dtypes()[static_cast<size_t>(it) % move_dtypes().size()];
    const int rank = static_cast<int>(rng() % 5);
    const Shape s = random_shape(rng, rank, 4);
    int64_t dim = rank ? static_cast<int64_t>(rng() % static_cast<uint64_t>(rank)) : 0;
    if (rng() % 2) dim -= std::max(rank, 1);
    Shape is = rank == 0 ? Shape{1} : (rng() % 5 == 0 ? Shape{} : Shape{static_cast<int64_t>(rng() % 6)});
    check_row_gather(rng, RowOp::kIndexSelect, t, s, dim, is, 0, rng() % 2);
    if (HasFailure()) return;
  }
}

TEST(IndexGather, LargeIndexSelectUsesThreads) {
  Rng rng(14);
  check_row_gather(rng, RowOp::kIndexSelect, ACL_FLOAT, {200, 64}, 0, {600}, 0, false);
  check_row_gather(rng, RowOp::kIndexSelect, ACL_INT16, {40, 100, 3}, 1, {300}, 0, true);
  check_row_gather(rng, RowOp::kIndexSelect, ACL_INT8, {5000}, 0, {40000}, 0, false);
}

// ---- Embedding / Take --------------------------------------------------------------------------------

TEST(IndexGather, EmbeddingRandom) {
  Rng rng(15);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8,
                                          ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL, ACL_COMPLEX64, ACL_COMPLEX128};
  for (int it = 0; it < 80; ++it) {
    const aclDataType t = types[static_cast<size_t>(it) % types.size()];
    const Shape ws = {1 + static_cast<int64_t>(rng() % 6), static_cast<int64_t>(rng() % 5)};
    const Shape is = random_shape(rng, static_cast<int>(rng() % 4), 3, true);
    Shape os = is;
    os.push_back(ws[1]);
    TensorDesc wd = view_of(t, ws, rng() % 2), id = view_of(index_dtype(rng), is, rng() % 2), od(t, os);
    const std::string r = "Embedding weight=" + wd.str() + " indices=" + id.str() + " out=" + od.str();
    Tensor weight(wd), indices(id), out(od);
    fill_bytes(weight, rng);
    fill_bytes(out, rng);
    const std::vector<int64_t> iv = random_indices(rng, numel(is), ws[0], false);
    set_indices(indices, iv);
    const Shape istr = contiguous_strides(is);
    run_and_compare(
        r, weight, out,
        [&](uint64_t* w, aclOpExecutor** e) { return aclnnEmbeddingGetWorkspaceSize(weight.get(), indices.get(), out.get(), w, e); },
        aclnnEmbedding, [&](const Shape& o) {
          int64_t lin = 0;
          for (size_t k = 0; k < is.size(); ++k) lin += o[k] * istr[k];
          return Shape{iv[static_cast<size_t>(lin)], o.back()};
        });
    if (HasFailure()) return;
  }
}

TEST(IndexGather, TakeRandomWithNegativeIndices) {
  Rng rng(16);
  for (int it = 0; it < 100; ++it) {
    const aclDataType t = move_dtypes()[static_cast<size_t>(it) % move_dtypes().size()];
    const Shape ss = random_shape(rng, static_cast<int>(rng() % 4), 4);
    const Shape is = random_shape(rng, static_cast<int>(rng() % 4), 3, true);
    TensorDesc sd = view_of(t, ss, rng() % 2), id = view_of(index_dtype(rng), is, rng() % 2);
    TensorDesc od = rng() % 2 ? transposed_of(t, is) : TensorDesc(t, is);
    const std::string r = "Take self=" + sd.str() + " index=" + id.str() + " out=" + od.str();
    Tensor self(sd), index(id), out(od);
    fill_bytes(self, rng);
    fill_bytes(out, rng);
    const int64_t n = numel(ss);
    const std::vector<int64_t> iv = random_indices(rng, numel(is), n, true);
    set_indices(index, iv);
    const Shape istr = contiguous_strides(is), sstr = contiguous_strides(ss);
    run_and_compare(
        r, self, out, [&](uint64_t* w, aclOpExecutor** e) { return aclnnTakeGetWorkspaceSize(self.get(), index.get(), out.get(), w, e); },
        aclnnTake, [&](const Shape& o) {
          int64_t lin = 0;
          for (size_t k = 0; k < is.size(); ++k) lin += o[k] * istr[k];
          int64_t f = wrap(iv[static_cast<size_t>(lin)], n);
          Shape s(ss.size());
          for (size_t k = 0; k < ss.size(); ++k) {
            s[k] = f / sstr[k];
            f %= sstr[k];
          }
          return s;
        });
    if (HasFailure()) return;
  }
}

// ---- Gather (elements) -------------------------------------------------------------------------------

TEST(IndexGather, GatherElementsRandom) {
  Rng rng(17);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,  ACL_UINT8,  ACL_INT16,
                                          ACL_INT32, ACL_INT64,   ACL_BOOL, ACL_UINT16, ACL_UINT32, ACL_UINT64};
  for (int it = 0; it < 150; ++it) {
    const aclDataType t = types[static_cast<size_t>(it) % types.size()];
    const int rank = static_cast<int>(rng() % 5);
    const Shape ss = random_shape(rng, rank, 4);
    int64_t dim = rank ? static_cast<int64_t>(rng() % static_cast<uint64_t>(rank)) : 0;
    const int64_t d = dim;
    if (rng() % 2) dim -= std::max(rank, 1);
    Shape is = ss;
    for (size_t k = 0; k < is.size(); ++k)
      is[k] = static_cast<int64_t>(k) == d ? static_cast<int64_t>(rng() % 5) : static_cast<int64_t>(rng() % (ss[k] + 1));
    TensorDesc sd = view_of(t, ss, rng() % 2), id = view_of(index_dtype(rng), is, rng() % 2);
    TensorDesc od = rng() % 2 ? transposed_of(t, is) : TensorDesc(t, is);
    const std::string r = "Gather self=" + sd.str() + " dim=" + std::to_string(dim) + " index=" + id.str() + " out=" + od.str();
    Tensor self(sd), index(id), out(od);
    fill_bytes(self, rng);
    fill_bytes(out, rng);
    const int64_t size = rank ? ss[static_cast<size_t>(d)] : 1;
    const std::vector<int64_t> iv = random_indices(rng, numel(is), size, true);
    set_indices(index, iv);
    const Shape istr = contiguous_strides(is);
    run_and_compare(
        r, self, out,
        [&](uint64_t* w, aclOpExecutor** e) { return aclnnGatherGetWorkspaceSize(self.get(), dim, index.get(), out.get(), w, e); },
        aclnnGather, [&](const Shape& o) {
          int64_t lin = 0;
          for (size_t k = 0; k < is.size(); ++k) lin += o[k] * istr[k];
          Shape s = o;
          if (!s.empty()) s[static_cast<size_t>(d)] = wrap(iv[static_cast<size_t>(lin)], size);
          return s;
        });
    if (HasFailure()) return;
  }
}

TEST(IndexGather, LargeGatherElementsUsesThreads) {
  Rng rng(18);
  const Shape ss = {64, 300}, is = {64, 600};
  Tensor self(TensorDesc(ACL_FLOAT, ss)), index(TensorDesc(ACL_INT64, is)), out(TensorDesc(ACL_FLOAT, is));
  fill_bytes(self, rng);
  const std::vector<int64_t> iv = random_indices(rng, numel(is), 300, true);
  set_indices(index, iv);
  run_and_compare(
      "Gather large", self, out,
      [&](uint64_t* w, aclOpExecutor** e) { return aclnnGatherGetWorkspaceSize(self.get(), 1, index.get(), out.get(), w, e); },
      aclnnGather, [&](const Shape& o) { return Shape{o[0], wrap(iv[static_cast<size_t>(o[0] * 600 + o[1])], 300)}; });
}

// ---- GatherNd ------------------------------------------------------------------------------------------

TEST(IndexGather, GatherNdRandom) {
  Rng rng(19);
  for (int it = 0; it < 100; ++it) {
    const aclDataType t = move_dtypes()[static_cast<size_t>(it) % 13];  // no complex
    const int rank = 1 + static_cast<int>(rng() % 4);
    const Shape ss = random_shape(rng, rank, 4);
    const int64_t c = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(rank));
    Shape is = random_shape(rng, static_cast<int>(rng() % 3), 3);
    is.push_back(c);
    Shape os(is.begin(), is.end() - 1);
    os.insert(os.end(), ss.begin() + c, ss.end());
    const bool negative = rng() % 2;
    TensorDesc sd = view_of(t, ss, rng() % 2), id = view_of(index_dtype(rng), is, rng() % 2), od(t, os);
    const std::string r = "GatherNd self=" + sd.str() + " indices=" + id.str() + " negative=" + std::to_string(negative) +
                          " out=" + od.str();
    Tensor self(sd), indices(id), out(od);
    fill_bytes(self, rng);
    fill_bytes(out, rng);
    std::vector<int64_t> iv(static_cast<size_t>(numel(is)));
    for (size_t j = 0; j < iv.size(); ++j) {
      const int64_t size = ss[j % static_cast<size_t>(c)];
      iv[j] = static_cast<int64_t>(rng() % static_cast<uint64_t>(size)) - (negative && rng() % 2 ? size : 0);
    }
    set_indices(indices, iv);
    const size_t q = is.size() - 1;
    const Shape istr = contiguous_strides(Shape(is.begin(), is.end() - 1));
    run_and_compare(
        r, self, out,
        [&](uint64_t* w, aclOpExecutor** e) { return aclnnGatherNdGetWorkspaceSize(self.get(), indices.get(), negative, out.get(), w, e); },
        aclnnGatherNd, [&](const Shape& o) {
          int64_t tuple = 0;
          for (size_t k = 0; k < q; ++k) tuple += o[k] * istr[k];
          Shape s;
          for (int64_t k = 0; k < c; ++k) s.push_back(wrap(iv[static_cast<size_t>(tuple * c + k)], ss[static_cast<size_t>(k)]));
          s.insert(s.end(), o.begin() + static_cast<int64_t>(q), o.end());
          return s;
        });
    if (HasFailure()) return;
  }
}

// ---- OneHot --------------------------------------------------------------------------------------------

TEST(IndexGather, OneHotRandom) {
  Rng rng(20);
  const std::vector<aclDataType> self_types = {ACL_INT32, ACL_INT64, ACL_UINT8};
  const std::vector<aclDataType> out_types = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_UINT8, ACL_INT32, ACL_INT64};
  for (int it = 0; it < 60; ++it) {
    const aclDataType st = self_types[static_cast<size_t>(it) % 3], ot = out_types[static_cast<size_t>(it) % 6];
    const int rank = 1 + static_cast<int>(rng() % 3);
    const Shape ss = random_shape(rng, rank, 4);
    const int classes = static_cast<int>(rng() % 5);
    const int64_t axis = static_cast<int64_t>(rng() % static_cast<uint64_t>(rank + 2)) - 1;
    const int64_t ax = axis < 0 ? rank : axis;
    Shape os = ss;
    os.insert(os.begin() + ax, classes);
    TensorDesc sd = view_of(st, ss, rng() % 2), od = view_of(ot, os, rng() % 2);
    const std::string r = "OneHot self=" + sd.str() + " numClasses=" + std::to_string(classes) + " axis=" +
                          std::to_string(axis) + " out=" + od.str();
    Tensor self(sd), on(TensorDesc(ot, {1})), off(TensorDesc(ot, {1})), out(od);
    std::vector<int64_t> sv(static_cast<size_t>(numel(ss)));
    for (auto& v : sv) v = static_cast<int64_t>(rng() % static_cast<uint64_t>(classes + 2)) - (st == ACL_UINT8 ? 0 : 1);
    set_indices(self, sv);
    on.set({0}, Num::integer(7));
    on.upload();
    off.set({0}, Num::integer(-2));
    off.upload();
    fill_bytes(out, rng);
    const std::vector<uint8_t> before = out.host();
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnOneHotGetWorkspaceSize(self.get(), classes, on.get(), off.get(), axis, out.get(), w, e);
              }, aclnnOneHot),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    out.download();
    const Shape sstr = contiguous_strides(ss);
    for (const Shape& o : positions(os)) {
      Shape sp = o;
      sp.erase(sp.begin() + ax);
      int64_t lin = 0;
      for (size_t k = 0; k < sp.size(); ++k) lin += sp[k] * sstr[k];
      const Num want = cast(Num::integer(sv[static_cast<size_t>(lin)] == o[static_cast<size_t>(ax)] ? 7 : -2), ot);
      ASSERT_TRUE(same_value(ot, want, out.at(o))) << r << ": out" << shape_str(o) << " is " << num_str(out.at(o));
    }
    EXPECT_TRUE(writes_outside_view(out, before).empty()) << r;
  }
}

// ---- run-time index errors ----------------------------------------------------------------------------

TEST(IndexGather, OutOfRangeIndicesFailTheStream) {
  Tensor self(TensorDesc(ACL_FLOAT, {3, 4})), out2(TensorDesc(ACL_FLOAT, {2, 4})), idx(TensorDesc(ACL_INT64, {2}));
  set_indices(idx, {1, 3});
  expect_run_failure("IndexSelect index 3 of 3 rows", "index[1] is 3", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnIndexSelectGetWorkspaceSize(self.get(), 0, idx.get(), out2.get(), w, e);
  }, aclnnIndexSelect);
  expect_run_failure("GatherV2 index 3 of 3 rows", "expected a value in [-3, 3)", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnGatherV2GetWorkspaceSize(self.get(), 0, idx.get(), out2.get(), w, e);
  }, aclnnGatherV2);
  Tensor neg(TensorDesc(ACL_INT32, {2}));
  set_indices(neg, {0, -1});
  expect_run_failure("Embedding negative index", "indices[1] is -1", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnEmbeddingGetWorkspaceSize(self.get(), neg.get(), out2.get(), w, e);
  }, aclnnEmbedding);
  Tensor tidx(TensorDesc(ACL_INT64, {2, 4})), tout(TensorDesc(ACL_FLOAT, {2, 4}));
  set_indices(tidx, {0, 1, 2, 3, 4, 5, 6, -13});
  expect_run_failure("Take index -13 of 12", "index[1, 3] is -13", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnTakeGetWorkspaceSize(self.get(), tidx.get(), tout.get(), w, e);
  }, aclnnTake);
  set_indices(tidx, {0, 1, 2, 1, 0, 1, 2, 3});
  expect_run_failure("Gather index 3 along dim 0 of size 3", "index[1, 3] is 3", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnGatherGetWorkspaceSize(self.get(), 0, tidx.get(), tout.get(), w, e);
  }, aclnnGather);
  Tensor nd(TensorDesc(ACL_INT64, {2, 2})), ndout(TensorDesc(ACL_FLOAT, {2}));
  set_indices(nd, {0, 0, 2, 4});
  expect_run_failure("GatherNd index 4 along dim 1 of size 4", "is 4", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnGatherNdGetWorkspaceSize(self.get(), nd.get(), true, ndout.get(), w, e);
  }, aclnnGatherNd);
  // The stream keeps working after a failure.
  set_indices(idx, {2, 0});
  EXPECT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnIndexSelectGetWorkspaceSize(self.get(), 0, idx.get(), out2.get(), w, e);
            }, aclnnIndexSelect),
            ACL_SUCCESS);
}

TEST(IndexGather, EmptyTensors) {
  Tensor self(TensorDesc(ACL_FLOAT, {3, 4})), idx(TensorDesc(ACL_INT64, {0})), out(TensorDesc(ACL_FLOAT, {0, 4}));
  EXPECT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnIndexSelectGetWorkspaceSize(self.get(), 0, idx.get(), out.get(), w, e);
            }, aclnnIndexSelect),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  Tensor empty_self(TensorDesc(ACL_FLOAT, {0, 4})), eidx(TensorDesc(ACL_INT64, {0, 4})), eout(TensorDesc(ACL_FLOAT, {0, 4}));
  EXPECT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnGatherGetWorkspaceSize(empty_self.get(), 0, eidx.get(), eout.get(), w, e);
            }, aclnnGather),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
}

// ---- bad arguments --------------------------------------------------------------------------------------

TEST(IndexGather, BadArguments) {
  Tensor self(TensorDesc(ACL_FLOAT, {3, 4})), idx(TensorDesc(ACL_INT64, {2})), idx2d(TensorDesc(ACL_INT64, {2, 2}));
  Tensor fidx(TensorDesc(ACL_FLOAT, {2})), out(TensorDesc(ACL_FLOAT, {2, 4})), out_bad(TensorDesc(ACL_FLOAT, {3, 4}));
  Tensor out_dt(TensorDesc(ACL_INT32, {2, 4}));
  auto sel = [&](aclTensor* s, int64_t dim, aclTensor* i, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnIndexSelectGetWorkspaceSize(s, dim, i, o, w, e); };
  };
  expect_phase1_error("IndexSelect null self", ACLNN_ERR_PARAM_NULLPTR, "self", sel(nullptr, 0, idx.get(), out.get()));
  expect_phase1_error("IndexSelect null index", ACLNN_ERR_PARAM_NULLPTR, "index", sel(self.get(), 0, nullptr, out.get()));
  expect_phase1_error("IndexSelect null out", ACLNN_ERR_PARAM_NULLPTR, "out", sel(self.get(), 0, idx.get(), nullptr));
  expect_phase1_error("IndexSelect float index", ACLNN_ERR_PARAM_INVALID, "index dtype float32", sel(self.get(), 0, fidx.get(), out.get()));
  expect_phase1_error("IndexSelect 2-d index", ACLNN_ERR_PARAM_INVALID, "index has 2 dims", sel(self.get(), 0, idx2d.get(), out.get()));
  expect_phase1_error("IndexSelect dim 2", ACLNN_ERR_PARAM_INVALID, "[-2, 1]", sel(self.get(), 2, idx.get(), out.get()));
  expect_phase1_error("IndexSelect out shape", ACLNN_ERR_PARAM_INVALID, "out has shape [3, 4]", sel(self.get(), 0, idx.get(), out_bad.get()));
  expect_phase1_error("IndexSelect out dtype", ACLNN_ERR_PARAM_INVALID, "dtype of self", sel(self.get(), 0, idx.get(), out_dt.get()));

  Tensor gout(TensorDesc(ACL_FLOAT, {2, 2, 4}));
  expect_phase1_error("GatherV2 out shape", ACLNN_ERR_PARAM_INVALID, "out has shape", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnGatherV2GetWorkspaceSize(self.get(), 0, idx2d.get(), out.get(), w, e);
  });
  expect_phase1_error("GatherV3 batchDims > dim", ACLNN_ERR_PARAM_INVALID, "batchDims", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnGatherV3GetWorkspaceSize(self.get(), 0, idx2d.get(), 1, 1, gout.get(), w, e);
  });
  expect_phase1_error("GatherV3 mode 3", ACLNN_ERR_PARAM_INVALID, "mode", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnGatherV3GetWorkspaceSize(self.get(), 0, idx2d.get(), 0, 3, gout.get(), w, e);
  });

  Tensor eout(TensorDesc(ACL_FLOAT, {2, 2}));
  Tensor w3(TensorDesc(ACL_FLOAT, {2, 3, 4}));
  expect_phase1_error("Embedding 3-d weight", ACLNN_ERR_PARAM_INVALID, "weight has 3 dims", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnEmbeddingGetWorkspaceSize(w3.get(), idx.get(), eout.get(), w, e);
  });
  expect_phase1_error("Embedding out shape", ACLNN_ERR_PARAM_INVALID, "[2, 4]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnEmbeddingGetWorkspaceSize(self.get(), idx.get(), eout.get(), w, e);
  });

  Tensor gidx_big(TensorDesc(ACL_INT64, {3, 5})), gout_big(TensorDesc(ACL_FLOAT, {3, 5}));
  expect_phase1_error("Gather index wider than self", ACLNN_ERR_PARAM_INVALID, "exceeds self.size(1)", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnGatherGetWorkspaceSize(self.get(), 0, gidx_big.get(), gout_big.get(), w, e);
  });
  expect_phase1_error("Gather rank mismatch", ACLNN_ERR_PARAM_INVALID, "expected as many as self", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnGatherGetWorkspaceSize(self.get(), 0, idx.get(), fidx.get(), w, e);
  });

  Tensor nd3(TensorDesc(ACL_INT64, {2, 3})), ndout(TensorDesc(ACL_FLOAT, {2}));
  expect_phase1_error("GatherNd tuple too long", ACLNN_ERR_PARAM_INVALID, "indices.shape[-1] is 3", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnGatherNdGetWorkspaceSize(self.get(), nd3.get(), false, ndout.get(), w, e);
  });

  Tensor oh_self(TensorDesc(ACL_INT32, {3})), on(TensorDesc(ACL_FLOAT, {1})), off(TensorDesc(ACL_FLOAT, {1}));
  Tensor oh_out(TensorDesc(ACL_FLOAT, {3, 4})), off_i(TensorDesc(ACL_INT32, {1}));
  expect_phase1_error("OneHot axis 2", ACLNN_ERR_PARAM_INVALID, "axis is 2", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnOneHotGetWorkspaceSize(oh_self.get(), 4, on.get(), off.get(), 2, oh_out.get(), w, e);
  });
  expect_phase1_error("OneHot numClasses -1", ACLNN_ERR_PARAM_INVALID, "numClasses", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnOneHotGetWorkspaceSize(oh_self.get(), -1, on.get(), off.get(), -1, oh_out.get(), w, e);
  });
  expect_phase1_error("OneHot offValue dtype", ACLNN_ERR_PARAM_INVALID, "offValue has dtype int32", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnOneHotGetWorkspaceSize(oh_self.get(), 4, on.get(), off_i.get(), -1, oh_out.get(), w, e);
  });
  expect_phase1_error("OneHot out shape", ACLNN_ERR_PARAM_INVALID, "[3, 5]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnOneHotGetWorkspaceSize(oh_self.get(), 5, on.get(), off.get(), -1, oh_out.get(), w, e);
  });
}

}  // namespace
