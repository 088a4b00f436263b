// Scatters of the index family through the public C API: Scatter/ScatterValue/ScatterAdd/
// ScatterReduce (+Inplace), IndexAdd(V2), IndexCopy, IndexFill(Tensor) (+Inplace), InplacePut,
// ScatterNd, ScatterNdUpdate, TfScatterAdd, InplaceMaskedScatter.
// References run on the host copies in double (integers in int64, wrapped to the dtype at the end,
// bool as logic) and apply index values in row-major order, as the kernels document.
#include <gtest/gtest.h>

#include <functional>

#include "aclnnop/aclnn_index_add.h"
#include "aclnnop/aclnn_index_add_v2.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_index_fill.h"
#include "aclnnop/aclnn_index_fill_tensor.h"
#include "aclnnop/aclnn_masked_scatter.h"
#include "aclnnop/aclnn_put.h"
#include "aclnnop/aclnn_scatter.h"
#include "aclnnop/aclnn_scatter_add.h"
#include "aclnnop/aclnn_scatter_nd.h"
#include "aclnnop/aclnn_scatter_nd_update.h"
#include "aclnnop/aclnn_scatter_reduce.h"
#include "aclnnop/aclnn_tf_scatter_add.h"
#include "index_test_util.h"

namespace {

using namespace idxtest;

Shape random_shape(Rng& rng, int rank, int max_dim = 4) {
  Shape s(static_cast<size_t>(rank));
  for (auto& x : s) x = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(max_dim));
  return s;
}

aclDataType index_dtype(Rng& rng) { return rng() % 2 ? ACL_INT64 : ACL_INT32; }

const std::vector<aclDataType>& value_dtypes() {
  static const std::vector<aclDataType> v = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8,
                                             ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64, ACL_BOOL};
  return v;
}

const FillOptions kSmall{0.03, 0.9};  // mostly small integers: sums and products stay exact

int64_t lin_of(const Shape& pos, const Shape& shape) {
  int64_t l = 0;
  for (size_t k = 0; k < shape.size(); ++k) l = l * shape[k] + pos[k];
  return l;
}

// Host values of a tensor in view order.
std::vector<Num> values_of(const Tensor& t) {
  std::vector<Num> v;
  for_each_index(t.desc().shape, [&](const Shape& i) { v.push_back(t.at(i)); });
  return v;
}

// The reduction codes of ScatterReduce: 0 none, 1 add, 2 mul, 3 max, 4 min, 5 mean.
Num combine(aclDataType t, int r, const Num& a, const Num& b) {
  if (r == 0) return b;
  if (t == ACL_BOOL) {
    const bool x = a.i != 0, y = b.i != 0;
    return Num::integer(r == 2 || r == 4 ? (x && y) : (x || y));
  }
  if (is_floating(t)) {
    // float16/bfloat16/float32 compute in float32 (rounded each step), float64 in double.
    const double x = a.f, y = b.f;
    auto rnd = [t](double v) { return Num::real(t == ACL_DOUBLE ? v : static_cast<double>(static_cast<float>(v))); };
    switch (r) {
      case 1: case 5: return rnd(x + y);
      case 2: return rnd(x * y);
      case 3: return Num::real(std::isnan(x) || std::isnan(y) ? (std::isnan(x) ? x : y) : std::max(x, y));
      default: return Num::real(std::isnan(x) || std::isnan(y) ? (std::isnan(x) ? x : y) : std::min(x, y));
    }
  }
  const uint64_t x = static_cast<uint64_t>(a.i), y = static_cast<uint64_t>(b.i);
  switch (r) {
    case 1: case 5: return Num::integer(wrap_int(x + y, t));
    case 2: return Num::integer(wrap_int(x * y, t));
    case 3: return Num::integer(std::max(a.i, b.i));
    default: return Num::integer(std::min(a.i, b.i));
  }
}

Num mean_of(aclDataType t, const Num& sum, int64_t count) {
  if (t == ACL_BOOL) return sum;
  if (is_floating(t))
    return Num::real(t == ACL_DOUBLE ? sum.f / static_cast<double>(count)
                                     : static_cast<double>(static_cast<float>(sum.f) / static_cast<float>(count)));
  int64_t q = sum.i / count;
  if (sum.i % count != 0 && (sum.i < 0) != (count < 0)) --q;
  return Num::integer(q);
}

// Compares out (view order) with expected values (cast to out's dtype first).
void expect_values(const std::string& r, const Tensor& out, const std::vector<Num>& want) {
  size_t k = 0;
  const aclDataType t = out.desc().dtype;
  bool ok = true;
  auto check = [&](const Shape& i) {
    if (!ok) return;
    const Num w = cast(want[k++], t), got = out.at(i);
    if (!same_value(t, w, got)) {
      ADD_FAILURE() << r << ": out" << shape_str(i) << " is " << num_str(got) << ", expected " << num_str(w);
      ok = false;
    }
  };
  if (out.desc().shape.empty()) check({});
  else for_each_index(out.desc().shape, check);
}

Phase1Fn p1_of(std::function<aclnnStatus(uint64_t*, aclOpExecutor**)> f) { return f; }

// ---- Scatter / ScatterValue / ScatterAdd / ScatterReduce ---------------------------------------------------

enum class ElemOp { kScatter, kScatterValue, kScatterAdd, kScatterReduce };

void check_element_scatter(Rng& rng, ElemOp op, bool inplace, aclDataType t, int reduce, bool include_self) {
  const int rank = static_cast<int>(rng() % 4);
  const Shape ss = random_shape(rng, rank);
  int64_t dim = rank ? static_cast<int64_t>(rng() % static_cast<uint64_t>(rank)) : 0;
  const int64_t d = dim;
  if (rng() % 2) dim -= std::max(rank, 1);
  Shape is(ss.size()), srcs(ss.size());
  for (size_t k = 0; k < ss.size(); ++k) {
    is[k] = static_cast<int64_t>(k) == d ? static_cast<int64_t>(rng() % 6) : static_cast<int64_t>(rng() % (ss[k] + 1));
    srcs[k] = is[k] + static_cast<int64_t>(rng() % 2);
  }
  const bool value_form = op == ElemOp::kScatterValue;
  TensorDesc sd = view_of(t, ss, rng() % 2), id = view_of(index_dtype(rng), is, rng() % 2);
  TensorDesc rd = view_of(t, srcs, rng() % 2), od = rng() % 2 ? transposed_of(t, ss) : TensorDesc(t, ss);
  const double value = static_cast<double>(static_cast<int64_t>(rng() % 9) - 4) + (is_floating(t) ? 0.5 : 0.0);
  const ScalarDesc vd(t == ACL_BOOL ? ACL_BOOL : (is_floating(t) ? ACL_DOUBLE : ACL_INT64), t == ACL_BOOL ? 1.0 : value);
  static const char* names[] = {"Scatter", "ScatterValue", "ScatterAdd", "ScatterReduce"};
  const std::string r = std::string(inplace ? "Inplace" : "") + names[static_cast<int>(op)] + " self=" + sd.str() +
                        " dim=" + std::to_string(dim) + " index=" + id.str() +
                        (value_form ? " value=" + vd.str() : " src=" + rd.str()) + " reduce=" + std::to_string(reduce) +
                        " includeSelf=" + std::to_string(include_self) + (inplace ? "" : " out=" + od.str());
  Tensor self(sd), index(id), src(rd), out(od);
  Scalar val(vd);
  self.fill_random(rng, kSmall);
  src.fill_random(rng, kSmall);
  fill_bytes(out, rng);
  const int64_t size = rank ? ss[static_cast<size_t>(d)] : 1;
  const std::vector<int64_t> iv = random_indices(rng, numel(is), size, false);
  set_indices(index, iv);
  // Reference.
  std::vector<Num> want = values_of(self);
  const std::vector<Num> sv = values_of(src);
  std::vector<int64_t> count(want.size(), 0);
  std::vector<bool> touched(want.size(), false);
  int64_t k = 0;
  for (const Shape& p : positions(is.empty() ? Shape{} : is)) {
    Shape q = p;
    if (!q.empty()) q[static_cast<size_t>(d)] = iv[static_cast<size_t>(k)];
    const size_t dst = static_cast<size_t>(lin_of(q, ss));
    const Num x = value_form ? vd.value : sv[static_cast<size_t>(lin_of(p, srcs))];
    if (reduce != 0 && !include_self && !touched[dst]) want[dst] = x;
    else want[dst] = combine(t, reduce, want[dst], x);
    touched[dst] = true;
    ++count[dst];
    ++k;
  }
  if (reduce == 5)
    for (size_t j = 0; j < want.size(); ++j)
      if (count[j]) want[j] = mean_of(t, want[j], count[j] + (include_self ? 1 : 0));
  Phase1Fn p1;
  Phase2Fn p2;
  switch (op) {
    case ElemOp::kScatter:
      p1 = inplace ? p1_of([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceScatterGetWorkspaceSize(self.get(), dim, index.get(), src.get(), reduce, w, e); })
                   : p1_of([&](uint64_t* w, aclOpExecutor** e) { return aclnnScatterGetWorkspaceSize(self.get(), dim, index.get(), src.get(), reduce, out.get(), w, e); });
      p2 = inplace ? aclnnInplaceScatter : aclnnScatter;
      break;
    case ElemOp::kScatterValue:
      p1 = inplace ? p1_of([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceScatterValueGetWorkspaceSize(self.get(), dim, index.get(), val.get(), reduce, w, e); })
                   : p1_of([&](uint64_t* w, aclOpExecutor** e) { return aclnnScatterValueGetWorkspaceSize(self.get(), dim, index.get(), val.get(), reduce, out.get(), w, e); });
      p2 = inplace ? aclnnInplaceScatterValue : aclnnScatterValue;
      break;
    case ElemOp::kScatterAdd:
      p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnScatterAddGetWorkspaceSize(self.get(), dim, index.get(), src.get(), out.get(), w, e); };
      p2 = aclnnScatterAdd;
      break;
    case ElemOp::kScatterReduce:
      p1 = inplace ? p1_of([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceScatterReduceGetWorkspaceSize(self.get(), dim, index.get(), src.get(), reduce, include_self, w, e); })
                   : p1_of([&](uint64_t* w, aclOpExecutor** e) { return aclnnScatterReduceGetWorkspaceSize(self.get(), dim, index.get(), src.get(), reduce, include_self, out.get(), w, e); });
      p2 = inplace ? aclnnInplaceScatterReduce : aclnnScatterReduce;
      break;
  }
  Tensor& res = inplace ? self : out;
  const std::vector<uint8_t> before = res.host();
  ASSERT_EQ(run_two_phase(p1, p2), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  res.download();
  expect_values(r, res, want);
  EXPECT_TRUE(writes_outside_view(res, before).empty()) << r << ": wrote outside the view";
}

TEST(IndexScatter, ScatterAllReductionsAndForms) {
  Rng rng(31);
  for (int it = 0; it < 240; ++it) {
    const aclDataType t = value_dtypes()[static_cast<size_t>(it) % value_dtypes().size()];
    const ElemOp op = static_cast<ElemOp>(it / 10 % 4);
    const bool inplace = op != ElemOp::kScatterAdd && rng() % 2;
    const int reduce = op == ElemOp::kScatterAdd ? 1 : static_cast<int>(rng() % (op == ElemOp::kScatterReduce ? 6 : 3));
    const bool include_self = op != ElemOp::kScatterReduce || rng() % 2;
    check_element_scatter(rng, op, inplace, t, reduce, include_self);
    if (HasFailure()) return;
  }
}

TEST(IndexScatter, ScatterMovesComplexValues) {
  Rng rng(32);
  for (int it = 0; it < 20; ++it) {
    const aclDataType t = it % 2 ? ACL_COMPLEX64 : ACL_COMPLEX128;
    const Shape ss = {3, 4}, is = {2, 3};
    Tensor self(TensorDesc(t, ss)), index(TensorDesc(ACL_INT64, is)), src(TensorDesc(t, is)), out(TensorDesc(t, ss));
    fill_bytes(self, rng);
    fill_bytes(src, rng);
    const std::vector<int64_t> iv = random_indices(rng, 6, 4, false);
    set_indices(index, iv);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnScatterGetWorkspaceSize(self.get(), 1, index.get(), src.get(), 0, out.get(), w, e);
              }, aclnnScatter),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    out.download();
    for (const Shape& p : positions(ss)) {
      Shape from = p;
      const Tensor* ref = &self;
      for (int64_t j = 0; j < 3; ++j)  // the last index value of row p[0] naming column p[1] wins
        if (p[0] < 2 && iv[static_cast<size_t>(p[0] * 3 + j)] == p[1]) {
          from = {p[0], j};
          ref = &src;
        }
      ASSERT_TRUE(same_bytes(out, p, *ref, from)) << "complex scatter out" << shape_str(p);
    }
  }
}

TEST(IndexScatter, LargeScatterAddUsesThreads) {
  Rng rng(33);
  const Shape ss = {64, 40, 8}, is = {64, 50, 8};
  Tensor self(TensorDesc(ACL_FLOAT, ss)), index(TensorDesc(ACL_INT64, is)), src(TensorDesc(ACL_FLOAT, is)), out(TensorDesc(ACL_FLOAT, ss));
  self.fill_random(rng, kSmall);
  src.fill_random(rng, kSmall);
  const std::vector<int64_t> iv = random_indices(rng, numel(is), 40, false);
  set_indices(index, iv);
  std::vector<Num> want = values_of(self);
  const std::vector<Num> sv = values_of(src);
  int64_t k = 0;
  for (const Shape& p : positions(is)) {
    const size_t dst = static_cast<size_t>(lin_of({p[0], iv[static_cast<size_t>(k++)], p[2]}, ss));
    want[dst] = Num::real(static_cast<float>(want[dst].f + sv[static_cast<size_t>(lin_of(p, is))].f));
  }
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnScatterAddGetWorkspaceSize(self.get(), 1, index.get(), src.get(), out.get(), w, e);
            }, aclnnScatterAdd),
            ACL_SUCCESS);
  out.download();
  expect_values("ScatterAdd large", out, want);
}

// ---- IndexAdd / IndexCopy / IndexFill ------------------------------------------------------------------------

enum class DimOp { kIndexAdd, kIndexAddV2, kIndexCopy, kIndexFill, kIndexFillTensor };

void check_dim_op(Rng& rng, DimOp op, bool inplace, aclDataType t) {
  const int rank = static_cast<int>(rng() % 4);
  const Shape ss = random_shape(rng, rank);
  int64_t dim = rank ? static_cast<int64_t>(rng() % static_cast<uint64_t>(rank)) : 0;
  const int64_t d = dim;
  if (rng() % 2) dim -= std::max(rank, 1);
  const int64_t size = rank ? ss[static_cast<size_t>(d)] : 1;
  int64_t n = static_cast<int64_t>(rng() % 6);
  if (rank == 0) n = 1;
  if (op == DimOp::kIndexCopy) n = std::min(n, size);  // unique targets: a copy's duplicates are unordered in CANN
  Shape srcs = ss;
  if (rank) srcs[static_cast<size_t>(d)] = n;
  const Shape is = rank == 0 && rng() % 2 ? Shape{} : Shape{n};
  TensorDesc sd = view_of(t, ss, rng() % 2), id = view_of(index_dtype(rng), is, rng() % 2);
  TensorDesc rd = view_of(t, srcs, rng() % 2), od = rng() % 2 ? transposed_of(t, ss) : TensorDesc(t, ss);
  Tensor self(sd), index(id), src(rd), out(od);
  self.fill_random(rng, kSmall);
  src.fill_random(rng, kSmall);
  fill_bytes(out, rng);
  std::vector<int64_t> iv;
  if (op == DimOp::kIndexCopy) {
    std::vector<int64_t> perm(static_cast<size_t>(size));
    for (size_t j = 0; j < perm.size(); ++j) perm[j] = static_cast<int64_t>(j);
    std::shuffle(perm.begin(), perm.end(), rng);
    iv.assign(perm.begin(), perm.begin() + n);
  } else if (op == DimOp::kIndexFill) {  // negatives wrap, out-of-range values are skipped
    for (int64_t j = 0; j < n; ++j) iv.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(3 * size)) - size - (rng() % 4 == 0 ? size : 0));
  } else if (op == DimOp::kIndexFillTensor) {
    iv = random_indices(rng, n, size, true);
  } else {
    iv = random_indices(rng, n, size, false);
  }
  if (op != DimOp::kIndexFillTensor) set_indices(index, iv);
  IntArray arr(iv);
  const double av = op == DimOp::kIndexAdd || op == DimOp::kIndexAddV2 ? static_cast<double>(static_cast<int64_t>(rng() % 5) - 2) : 0;
  const ScalarDesc alpha(t == ACL_BOOL ? ACL_BOOL : is_floating(t) ? ACL_FLOAT : ACL_INT64, t == ACL_BOOL ? 1.0 : av);
  const ScalarDesc value(is_floating(t) ? ACL_DOUBLE : ACL_INT64, t == ACL_BOOL ? 1.0 : -3.0);
  Scalar alpha_s(alpha), value_s(value);
  static const char* names[] = {"IndexAdd", "IndexAddV2", "IndexCopy", "IndexFill", "IndexFillTensor"};
  const std::string r = std::string(inplace ? "Inplace" : "") + names[static_cast<int>(op)] + " self=" + sd.str() +
                        " dim=" + std::to_string(dim) + " index=" + (op == DimOp::kIndexFillTensor ? vec_str(iv) : id.str() + vec_str(iv)) +
                        " source=" + rd.str() + " alpha=" + alpha.str() + " value=" + value.str() +
                        (inplace ? "" : " out=" + od.str());
  std::vector<Num> want = values_of(self);
  const std::vector<Num> sv = values_of(src);
  const Shape s1 = ss.empty() ? Shape{1} : ss, r1 = srcs.empty() ? Shape{1} : srcs;
  for (const Shape& p : positions(s1)) {
    for (int64_t j = 0; j < n; ++j) {
      int64_t v = iv[static_cast<size_t>(j)];
      if (op == DimOp::kIndexFill || op == DimOp::kIndexFillTensor) {
        if (v < -size || v >= size) continue;
        if (v < 0) v += size;
      }
      if (p[static_cast<size_t>(d)] != v) continue;
      const size_t dst = static_cast<size_t>(lin_of(p, s1));
      Shape q = p;
      q[static_cast<size_t>(d)] = j;
      const Num x = op == DimOp::kIndexFill || op == DimOp::kIndexFillTensor ? cast(value.value, t)
                                                                              : sv[static_cast<size_t>(lin_of(q, r1))];
      if (op == DimOp::kIndexAdd || op == DimOp::kIndexAddV2) want[dst] = combine(t, 1, want[dst], combine(t, 2, cast(alpha.value, t == ACL_BOOL ? ACL_BOOL : is_floating(t) ? ACL_DOUBLE : ACL_INT64), x));
      else want[dst] = x;
    }
  }
  Phase1Fn p1;
  Phase2Fn p2;
  switch (op) {
    case DimOp::kIndexAdd:
      p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnIndexAddGetWorkspaceSize(self.get(), dim, index.get(), src.get(), alpha_s.get(), out.get(), w, e); };
      p2 = aclnnIndexAdd;
      break;
    case DimOp::kIndexAddV2:
      p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnIndexAddV2GetWorkspaceSize(self.get(), dim, index.get(), src.get(), alpha_s.get(), 1, out.get(), w, e); };
      p2 = aclnnIndexAddV2;
      break;
    case DimOp::kIndexCopy:
      p1 = inplace ? p1_of([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceIndexCopyGetWorkspaceSize(self.get(), dim, index.get(), src.get(), w, e); })
                   : p1_of([&](uint64_t* w, aclOpExecutor** e) { return aclnnIndexCopyGetWorkspaceSize(self.get(), dim, index.get(), src.get(), out.get(), w, e); });
      p2 = inplace ? aclnnInplaceIndexCopy : aclnnIndexCopy;
      break;
    case DimOp::kIndexFill:
      p1 = inplace ? p1_of([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceIndexFillGetWorkspaceSize(self.get(), dim, index.get(), value_s.get(), w, e); })
                   : p1_of([&](uint64_t* w, aclOpExecutor** e) { return aclnnIndexFillGetWorkspaceSize(self.get(), dim, index.get(), value_s.get(), out.get(), w, e); });
      p2 = inplace ? aclnnInplaceIndexFill : aclnnIndexFill;
      break;
    case DimOp::kIndexFillTensor:
      p1 = inplace ? p1_of([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceIndexFillTensorGetWorkspaceSize(self.get(), dim, arr.a, value_s.get(), w, e); })
                   : p1_of([&](uint64_t* w, aclOpExecutor** e) { return aclnnIndexFillTensorGetWorkspaceSize(self.get(), dim, arr.a, value_s.get(), out.get(), w, e); });
      p2 = inplace ? aclnnInplaceIndexFillTensor : aclnnIndexFillTensor;
      break;
  }
  Tensor& res = inplace ? self : out;
  const std::vector<uint8_t> before = res.host();
  ASSERT_EQ(run_two_phase(p1, p2), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  res.download();
  expect_values(r, res, want);
  EXPECT_TRUE(writes_outside_view(res, before).empty()) << r << ": wrote outside the view";
}

TEST(IndexScatter, IndexAddCopyFillRandom) {
  Rng rng(34);
  const std::vector<aclDataType> fill_tensor_types = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT64, ACL_BOOL, ACL_BF16};
  for (int it = 0; it < 300; ++it) {
    const DimOp op = static_cast<DimOp>(it % 5);
    const aclDataType t = op == DimOp::kIndexFillTensor ? fill_tensor_types[static_cast<size_t>(it / 5) % 6]
                                                        : value_dtypes()[static_cast<size_t>(it / 5) % value_dtypes().size()];
    const bool inplace = op != DimOp::kIndexAdd && op != DimOp::kIndexAddV2 && rng() % 2;
    check_dim_op(rng, op, inplace, t);
    if (HasFailure()) return;
  }
}

TEST(IndexScatter, IndexAddV2HighPerformanceMode) {
  Rng rng(35);
  Tensor self(TensorDesc(ACL_FLOAT, {5, 3})), index(TensorDesc(ACL_INT32, {4})), src(TensorDesc(ACL_FLOAT, {4, 3}));
  Tensor out(TensorDesc(ACL_FLOAT, {5, 3}));
  Scalar alpha(ScalarDesc(ACL_FLOAT, 2.0));
  self.fill_random(rng, kSmall);
  src.fill_random(rng, kSmall);
  set_indices(index, {4, 0, 4, 2});
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnIndexAddV2GetWorkspaceSize(self.get(), -2, index.get(), src.get(), alpha.get(), 0, out.get(), w, e);
            }, aclnnIndexAddV2),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  out.download();
  const int64_t iv[] = {4, 0, 4, 2};
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t c = 0; c < 3; ++c) {
      double w = self.at({i, c}).f;
      for (int64_t j = 0; j < 4; ++j)
        if (iv[j] == i) w += 2.0 * src.at({j, c}).f;
      EXPECT_TRUE(same_value(ACL_FLOAT, cast(Num::real(w), ACL_FLOAT), out.at({i, c}))) << i << "," << c;
    }
  Tensor self3(TensorDesc(ACL_FLOAT, {5, 3, 1})), out3(TensorDesc(ACL_FLOAT, {5, 3, 1})), src3(TensorDesc(ACL_FLOAT, {4, 3, 1}));
  expect_phase1_error("IndexAddV2 mode 0 with a 3-d self", ACLNN_ERR_PARAM_INVALID, "mode 0", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnIndexAddV2GetWorkspaceSize(self3.get(), 0, index.get(), src3.get(), alpha.get(), 0, out3.get(), w, e);
  });
}

// ---- InplacePut ------------------------------------------------------------------------------------------------

TEST(IndexScatter, InplacePutRandom) {
  Rng rng(36);
  for (int it = 0; it < 80; ++it) {
    const aclDataType t = value_dtypes()[static_cast<size_t>(it) % value_dtypes().size()];
    const bool accumulate = rng() % 2;
    const Shape ss = random_shape(rng, static_cast<int>(rng() % 4));
    const Shape is = random_shape(rng, static_cast<int>(rng() % 3));
    const int64_t n = numel(ss);
    TensorDesc sd = view_of(t, ss, rng() % 2), id = view_of(index_dtype(rng), is, rng() % 2), rd = view_of(t, is, rng() % 2);
    Tensor self(sd), index(id), src(rd);
    self.fill_random(rng, kSmall);
    src.fill_random(rng, kSmall);
    std::vector<int64_t> iv = random_indices(rng, numel(is), n, true);
    if (!accumulate) {  // unique targets (CANN does not order duplicates of a plain put)
      std::vector<bool> seen(static_cast<size_t>(n), false);
      for (auto& v : iv) {
        const int64_t w = v < 0 ? v + n : v;
        if (seen[static_cast<size_t>(w)]) v = -1000000;
        else seen[static_cast<size_t>(w)] = true;
      }
      iv.erase(std::remove(iv.begin(), iv.end(), -1000000), iv.end());
      if (static_cast<int64_t>(iv.size()) != numel(is)) continue;
    }
    set_indices(index, iv);
    const std::string r = "InplacePut self=" + sd.str() + " index=" + id.str() + vec_str(iv) + " source=" + rd.str() +
                          " accumulate=" + std::to_string(accumulate);
    std::vector<Num> want = values_of(self);
    const std::vector<Num> sv = values_of(src);
    for (size_t j = 0; j < iv.size(); ++j) {
      const size_t dst = static_cast<size_t>(iv[j] < 0 ? iv[j] + n : iv[j]);
      want[dst] = accumulate ? combine(t, 1, want[dst], sv[j]) : sv[j];
    }
    const std::vector<uint8_t> before = self.host();
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnInplacePutGetWorkspaceSize(self.get(), index.get(), src.get(), accumulate, w, e);
              }, aclnnInplacePut),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    self.download();
    expect_values(r, self, want);
    EXPECT_TRUE(writes_outside_view(self, before).empty()) << r;
    if (HasFailure()) return;
  }
}

// ---- ScatterNd / ScatterNdUpdate / TfScatterAdd -----------------------------------------------------------------

enum class NdOp { kScatterNd, kScatterNdUpdate, kTfScatterAddNd, kTfScatterAdd };

void check_nd(Rng& rng, NdOp op, aclDataType t) {
  const int rank = 1 + static_cast<int>(rng() % 3);
  const Shape vs = random_shape(rng, rank);
  const bool row_form = op == NdOp::kTfScatterAdd;
  const int64_t c = row_form ? 1 : 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(rank));
  Shape is = random_shape(rng, static_cast<int>(rng() % 2) + (row_form ? 0 : 0), 3);
  if (!row_form) is.push_back(c);
  Shape us = row_form ? is : Shape(is.begin(), is.end() - 1);
  us.insert(us.end(), vs.begin() + c, vs.end());
  const int64_t tuples = row_form ? numel(is) : numel(is) / c;
  const int64_t rows = numel(Shape(vs.begin(), vs.begin() + c));
  const bool unique = op == NdOp::kScatterNd || op == NdOp::kScatterNdUpdate;
  if (unique && tuples > rows) return;
  TensorDesc vd = view_of(t, vs, rng() % 2), id = view_of(index_dtype(rng), is, rng() % 2), ud = view_of(t, us, rng() % 2);
  Tensor var(vd), index(id), upd(ud), out(TensorDesc(t, vs));
  var.fill_random(rng, kSmall);
  upd.fill_random(rng, kSmall);
  fill_bytes(out, rng);
  // Row numbers, unique for the copies.
  std::vector<int64_t> row_ids(static_cast<size_t>(rows));
  for (size_t j = 0; j < row_ids.size(); ++j) row_ids[j] = static_cast<int64_t>(j);
  std::shuffle(row_ids.begin(), row_ids.end(), rng);
  std::vector<int64_t> picked(static_cast<size_t>(tuples)), iv;
  for (int64_t j = 0; j < tuples; ++j)
    picked[static_cast<size_t>(j)] = unique ? row_ids[static_cast<size_t>(j)] : static_cast<int64_t>(rng() % static_cast<uint64_t>(rows));
  for (int64_t rowid : picked) {
    if (row_form) {
      iv.push_back(rowid);
      continue;
    }
    Shape coord(static_cast<size_t>(c));
    int64_t x = rowid;
    for (int64_t k = c - 1; k >= 0; --k) {
      coord[static_cast<size_t>(k)] = x % vs[static_cast<size_t>(k)];
      x /= vs[static_cast<size_t>(k)];
    }
    iv.insert(iv.end(), coord.begin(), coord.end());
  }
  set_indices(index, iv);
  static const char* names[] = {"ScatterNd", "ScatterNdUpdate", "TfScatterAdd(nd)", "TfScatterAdd"};
  const std::string r = std::string(names[static_cast<int>(op)]) + " var=" + vd.str() + " indices=" + id.str() +
                        vec_str(iv) + " updates=" + ud.str();
  std::vector<Num> want = values_of(var);
  const std::vector<Num> uv = values_of(upd);
  const int64_t inner = numel(Shape(vs.begin() + c, vs.end()));
  for (int64_t j = 0; j < tuples; ++j)
    for (int64_t i = 0; i < inner; ++i) {
      const size_t dst = static_cast<size_t>(picked[static_cast<size_t>(j)] * inner + i);
      const Num x = uv[static_cast<size_t>(j * inner + i)];
      want[dst] = op == NdOp::kTfScatterAdd || op == NdOp::kTfScatterAddNd ? combine(t, 1, want[dst], x) : x;
    }
  Phase1Fn p1;
  Phase2Fn p2;
  Tensor& res = op == NdOp::kScatterNd ? out : var;
  switch (op) {
    case NdOp::kScatterNd:
      p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnScatterNdGetWorkspaceSize(var.get(), index.get(), upd.get(), out.get(), w, e); };
      p2 = aclnnScatterNd;
      break;
    case NdOp::kScatterNdUpdate:
      p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnScatterNdUpdateGetWorkspaceSize(var.get(), index.get(), upd.get(), w, e); };
      p2 = aclnnScatterNdUpdate;
      break;
    default:
      p1 = [&](uint64_t* w, aclOpExecutor** e) { return aclnnTfScatterAddGetWorkspaceSize(var.get(), index.get(), upd.get(), w, e); };
      p2 = aclnnTfScatterAdd;
      break;
  }
  const std::vector<uint8_t> before = res.host();
  ASSERT_EQ(run_two_phase(p1, p2), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  res.download();
  expect_values(r, res, want);
  EXPECT_TRUE(writes_outside_view(res, before).empty()) << r;
}

TEST(IndexScatter, ScatterNdFamilyRandom) {
  Rng rng(37);
  const std::vector<aclDataType> nd = {ACL_FLOAT, ACL_FLOAT16, ACL_BOOL, ACL_BF16};
  const std::vector<aclDataType> upd = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT64, ACL_BOOL, ACL_INT8};
  const std::vector<aclDataType> tf = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT8, ACL_UINT8};
  for (int it = 0; it < 160; ++it) {
    const NdOp op = static_cast<NdOp>(it % 4);
    const aclDataType t = op == NdOp::kScatterNd ? nd[static_cast<size_t>(it / 4) % nd.size()]
                          : op == NdOp::kScatterNdUpdate ? upd[static_cast<size_t>(it / 4) % upd.size()]
                                                         : tf[static_cast<size_t>(it / 4) % tf.size()];
    check_nd(rng, op, t);
    if (HasFailure()) return;
  }
}

TEST(IndexScatter, ScatterNdUpdateMovesFloat8) {
  // float8_e4m3fn has no host arithmetic here: raw bytes in, raw bytes out.
  const aclDataType f8 = static_cast<aclDataType>(36);
  void *vd = nullptr, *ud = nullptr;
  ASSERT_EQ(aclrtMalloc(&vd, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&ud, 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<uint8_t> vh = {0, 1, 2, 3, 4, 5, 6, 7}, uh = {100, 101, 102, 103};
  ASSERT_EQ(aclrtMemcpy(vd, 8, vh.data(), 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(ud, 4, uh.data(), 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  const int64_t vs[] = {4, 2}, vst[] = {2, 1}, us[] = {2, 2}, ust[] = {2, 1}, vn[] = {8}, un[] = {4};
  aclTensor* var = aclCreateTensor(vs, 2, f8, vst, 0, ACL_FORMAT_ND, vn, 1, vd);
  aclTensor* upd = aclCreateTensor(us, 2, f8, ust, 0, ACL_FORMAT_ND, un, 1, ud);
  ASSERT_TRUE(var && upd) << aclGetRecentErrMsg();
  Tensor idx(TensorDesc(ACL_INT64, {2, 1}));
  set_indices(idx, {3, 1});
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnScatterNdUpdateGetWorkspaceSize(var, idx.get(), upd, w, e); },
                          aclnnScatterNdUpdate),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtMemcpy(vh.data(), 8, vd, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(vh, (std::vector<uint8_t>{0, 1, 102, 103, 4, 5, 100, 101}));
  aclDestroyTensor(var);
  aclDestroyTensor(upd);
  aclrtFree(vd);
  aclrtFree(ud);
}

// ---- InplaceMaskedScatter -----------------------------------------------------------------------------------------

TEST(IndexScatter, MaskedScatterBroadcastMask) {
  Rng rng(38);
  for (int it = 0; it < 80; ++it) {
    const aclDataType t = value_dtypes()[static_cast<size_t>(it) % value_dtypes().size()];
    const Shape ss = random_shape(rng, static_cast<int>(rng() % 4));
    Shape ms(ss.end() - static_cast<int64_t>(rng() % (ss.size() + 1)), ss.end());
    for (auto& m : ms)
      if (rng() % 3 == 0) m = 1;
    TensorDesc sd = view_of(t, ss, rng() % 2), md = view_of(rng() % 2 ? ACL_BOOL : ACL_UINT8, ms, rng() % 2);
    Tensor self(sd), mask(md);
    self.fill_random(rng, kSmall);
    std::vector<int64_t> mv(static_cast<size_t>(numel(ms)));
    for (auto& v : mv) v = static_cast<int64_t>(rng() % 2);
    set_indices(mask, mv);
    int64_t count = 0;
    std::vector<bool> hit;
    const size_t shift = ss.size() - ms.size();
    auto mask_at = [&](const Shape& p) {
      Shape q(ms.size());
      for (size_t k = 0; k < ms.size(); ++k) q[k] = ms[k] == 1 ? 0 : p[k + shift];
      return mv[static_cast<size_t>(lin_of(q, ms))] != 0;
    };
    for (const Shape& p : positions(ss.empty() ? Shape{} : ss)) {
      hit.push_back(mask_at(p));
      count += hit.back();
    }
    if (ss.empty()) {
      hit = {mv[0] != 0};
      count = hit[0];
    }
    const Shape src_shape = {count + static_cast<int64_t>(rng() % 3)};
    TensorDesc rd = view_of(t, src_shape, rng() % 2);
    Tensor src(rd);
    src.fill_random(rng, kSmall);
    const std::string r = "InplaceMaskedScatter self=" + sd.str() + " mask=" + md.str() + " source=" + rd.str();
    std::vector<Num> want = values_of(self);
    const std::vector<Num> sv = values_of(src);
    int64_t next = 0;
    for (size_t k = 0; k < want.size(); ++k)
      if (hit[k]) want[k] = sv[static_cast<size_t>(next++)];
    const std::vector<uint8_t> before = self.host();
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnInplaceMaskedScatterGetWorkspaceSize(self.get(), mask.get(), src.get(), w, e);
              }, aclnnInplaceMaskedScatter),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    self.download();
    expect_values(r, self, want);
    EXPECT_TRUE(writes_outside_view(self, before).empty()) << r;
    if (HasFailure()) return;
  }
}

// ---- run-time and phase-1 errors ----------------------------------------------------------------------------------

TEST(IndexScatter, OutOfRangeIndicesFailTheStream) {
  Tensor self(TensorDesc(ACL_FLOAT, {3, 4})), out(TensorDesc(ACL_FLOAT, {3, 4})), idx(TensorDesc(ACL_INT64, {1, 2}));
  Tensor src(TensorDesc(ACL_FLOAT, {1, 2}));
  set_indices(idx, {0, 3});
  expect_run_failure("Scatter index 3 along dim 0 of 3", "index[0, 1] is 3", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnScatterGetWorkspaceSize(self.get(), 0, idx.get(), src.get(), 0, out.get(), w, e);
  }, aclnnScatter);
  set_indices(idx, {-1, 0});
  expect_run_failure("ScatterAdd negative index", "index[0, 0] is -1", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnScatterAddGetWorkspaceSize(self.get(), 1, idx.get(), src.get(), out.get(), w, e);
  }, aclnnScatterAdd);
  Tensor i1(TensorDesc(ACL_INT32, {2})), s1(TensorDesc(ACL_FLOAT, {2, 4}));
  set_indices(i1, {0, 5});
  Scalar one(ScalarDesc(ACL_FLOAT, 1.0));
  expect_run_failure("IndexAdd index 5", "index[1] is 5", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnIndexAddGetWorkspaceSize(self.get(), 0, i1.get(), s1.get(), one.get(), out.get(), w, e);
  }, aclnnIndexAdd);
  expect_run_failure("InplaceIndexCopy index 5", "index[1] is 5", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnInplaceIndexCopyGetWorkspaceSize(self.get(), 0, i1.get(), s1.get(), w, e);
  }, aclnnInplaceIndexCopy);
  Tensor pi(TensorDesc(ACL_INT64, {2})), ps(TensorDesc(ACL_FLOAT, {2}));
  set_indices(pi, {11, -13});
  expect_run_failure("InplacePut index -13 of 12", "index[1] is -13", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnInplacePutGetWorkspaceSize(self.get(), pi.get(), ps.get(), true, w, e);
  }, aclnnInplacePut);
  Tensor ndi(TensorDesc(ACL_INT64, {1, 2})), ndu(TensorDesc(ACL_FLOAT, {1}));
  set_indices(ndi, {2, 4});
  expect_run_failure("ScatterNdUpdate index 4 along dim 1 of 4", "indices[0, 1] is 4", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnScatterNdUpdateGetWorkspaceSize(self.get(), ndi.get(), ndu.get(), w, e);
  }, aclnnScatterNdUpdate);
  Tensor mask(TensorDesc(ACL_BOOL, {4})), few(TensorDesc(ACL_FLOAT, {5}));
  set_indices(mask, {1, 0, 1, 0});
  expect_run_failure("MaskedScatter 6 true, 5 source", "6 true elements but source only 5", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnInplaceMaskedScatterGetWorkspaceSize(self.get(), mask.get(), few.get(), w, e);
  }, aclnnInplaceMaskedScatter);
}

TEST(IndexScatter, BadArguments) {
  Tensor self(TensorDesc(ACL_FLOAT, {3, 4})), out(TensorDesc(ACL_FLOAT, {3, 4})), idx(TensorDesc(ACL_INT64, {2, 2}));
  Tensor src(TensorDesc(ACL_FLOAT, {2, 2})), src_i(TensorDesc(ACL_INT32, {2, 2})), idx_big(TensorDesc(ACL_INT64, {2, 5}));
  Tensor idx1(TensorDesc(ACL_INT64, {2})), fidx(TensorDesc(ACL_FLOAT, {2, 2}));
  auto scatter = [&](aclTensor* s, int64_t dim, aclTensor* i, aclTensor* r, int64_t reduce, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnScatterGetWorkspaceSize(s, dim, i, r, reduce, o, w, e); };
  };
  expect_phase1_error("Scatter null index", ACLNN_ERR_PARAM_NULLPTR, "index", scatter(self.get(), 0, nullptr, src.get(), 0, out.get()));
  expect_phase1_error("Scatter reduce 3", ACLNN_ERR_PARAM_INVALID, "reduce is 3", scatter(self.get(), 0, idx.get(), src.get(), 3, out.get()));
  expect_phase1_error("Scatter src dtype", ACLNN_ERR_PARAM_INVALID, "src has dtype int32", scatter(self.get(), 0, idx.get(), src_i.get(), 0, out.get()));
  expect_phase1_error("Scatter index rank", ACLNN_ERR_PARAM_INVALID, "index has 1 dims", scatter(self.get(), 0, idx1.get(), src.get(), 0, out.get()));
  expect_phase1_error("Scatter index > src", ACLNN_ERR_PARAM_INVALID, "exceeds src.size(1)", scatter(self.get(), 0, idx_big.get(), src.get(), 0, out.get()));
  expect_phase1_error("Scatter float index", ACLNN_ERR_PARAM_INVALID, "index dtype float32", scatter(self.get(), 0, fidx.get(), src.get(), 0, out.get()));
  expect_phase1_error("Scatter dim 2", ACLNN_ERR_PARAM_INVALID, "dim is 2", scatter(self.get(), 2, idx.get(), src.get(), 0, out.get()));
  expect_phase1_error("ScatterReduce reduce 6", ACLNN_ERR_PARAM_INVALID, "reduce is 6", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnScatterReduceGetWorkspaceSize(self.get(), 0, idx.get(), src.get(), 6, true, out.get(), w, e);
  });
  Scalar cval(ScalarDesc(ACL_COMPLEX64, Num::integer(0)));
  expect_phase1_error("ScatterValue complex value", ACLNN_ERR_PARAM_INVALID, "complex", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnScatterValueGetWorkspaceSize(self.get(), 0, idx.get(), cval.get(), 0, out.get(), w, e);
  });
  expect_phase1_error("ScatterValue null value", ACLNN_ERR_PARAM_NULLPTR, "value", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnScatterValueGetWorkspaceSize(self.get(), 0, idx.get(), nullptr, 0, out.get(), w, e);
  });

  Tensor s_wrong(TensorDesc(ACL_FLOAT, {2, 3})), iself(TensorDesc(ACL_INT32, {3, 4})), iout(TensorDesc(ACL_INT32, {3, 4}));
  Tensor isrc(TensorDesc(ACL_INT32, {2, 4}));
  Scalar alpha_f(ScalarDesc(ACL_FLOAT, 1.5)), alpha(ScalarDesc(ACL_FLOAT, 1.0));
  Tensor s24(TensorDesc(ACL_FLOAT, {2, 4})), out_small(TensorDesc(ACL_FLOAT, {2, 4}));
  expect_phase1_error("IndexAdd source shape", ACLNN_ERR_PARAM_INVALID, "source has shape [2, 3]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnIndexAddGetWorkspaceSize(self.get(), 0, idx1.get(), s_wrong.get(), alpha.get(), out.get(), w, e);
  });
  expect_phase1_error("IndexAdd float alpha, int self", ACLNN_ERR_PARAM_INVALID, "alpha", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnIndexAddGetWorkspaceSize(iself.get(), 0, idx1.get(), isrc.get(), alpha_f.get(), iout.get(), w, e);
  });
  expect_phase1_error("IndexAdd 2-d index", ACLNN_ERR_PARAM_INVALID, "index has 2 dims", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnIndexAddGetWorkspaceSize(self.get(), 0, idx.get(), src.get(), alpha.get(), out.get(), w, e);
  });
  expect_phase1_error("IndexAddV2 mode 2", ACLNN_ERR_PARAM_INVALID, "mode is 2", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnIndexAddV2GetWorkspaceSize(self.get(), 0, idx1.get(), s24.get(), alpha.get(), 2, out.get(), w, e);
  });
  expect_phase1_error("IndexCopy outRef shape", ACLNN_ERR_PARAM_INVALID, "outRef has shape [2, 4]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnIndexCopyGetWorkspaceSize(self.get(), 0, idx1.get(), s24.get(), out_small.get(), w, e);
  });
  IntArray bad({0, 3});
  Scalar v(ScalarDesc(ACL_FLOAT, 2.0));
  expect_phase1_error("IndexFillTensor index 3 of 3", ACLNN_ERR_PARAM_INVALID, "index[1] is 3", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnIndexFillTensorGetWorkspaceSize(self.get(), 0, bad.a, v.get(), out.get(), w, e);
  });
  expect_phase1_error("IndexFill dim -3", ACLNN_ERR_PARAM_INVALID, "dim is -3", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnIndexFillGetWorkspaceSize(self.get(), -3, idx1.get(), v.get(), out.get(), w, e);
  });
  Tensor src3(TensorDesc(ACL_FLOAT, {3}));
  expect_phase1_error("InplacePut numel mismatch", ACLNN_ERR_PARAM_INVALID, "source has 3 elements", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnInplacePutGetWorkspaceSize(self.get(), idx1.get(), src3.get(), false, w, e);
  });
  Tensor nd_idx(TensorDesc(ACL_INT64, {2, 3})), nd_upd(TensorDesc(ACL_FLOAT, {2}));
  expect_phase1_error("ScatterNd tuple too long", ACLNN_ERR_PARAM_INVALID, "indices.shape[-1] must be in [1, 2]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnScatterNdGetWorkspaceSize(self.get(), nd_idx.get(), nd_upd.get(), out.get(), w, e);
  });
  Tensor nd_idx2(TensorDesc(ACL_INT64, {2, 1})), nd_upd_bad(TensorDesc(ACL_FLOAT, {2, 3}));
  expect_phase1_error("ScatterNdUpdate updates shape", ACLNN_ERR_PARAM_INVALID, "updates has shape [2, 3]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnScatterNdUpdateGetWorkspaceSize(self.get(), nd_idx2.get(), nd_upd_bad.get(), w, e);
  });
  Tensor d64(TensorDesc(ACL_DOUBLE, {3, 4}));
  expect_phase1_error("TfScatterAdd float64", ACLNN_ERR_PARAM_INVALID, "varRef dtype float64", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnTfScatterAddGetWorkspaceSize(d64.get(), nd_idx2.get(), nd_upd_bad.get(), w, e);
  });
  Tensor mask_bad(TensorDesc(ACL_BOOL, {3})), mask_f(TensorDesc(ACL_FLOAT, {4}));
  expect_phase1_error("MaskedScatter mask shape", ACLNN_ERR_PARAM_INVALID, "does not broadcast", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnInplaceMaskedScatterGetWorkspaceSize(self.get(), mask_bad.get(), src3.get(), w, e);
  });
  expect_phase1_error("MaskedScatter mask dtype", ACLNN_ERR_PARAM_INVALID, "mask dtype float32", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnInplaceMaskedScatterGetWorkspaceSize(self.get(), mask_f.get(), src3.get(), w, e);
  });
}

}  // namespace
