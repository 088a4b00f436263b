// Gathers: Gather (elements along a dim), GatherV2/V3, IndexSelect, Embedding, Take, GatherNd,
// and OneHot. All but Gather and OneHot are the same row walk (index_common.h) with different
// geometries: self seen as [outer, rows, inner], the index picking rows.
#include <algorithm>
#include <cstring>

#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_gather_nd.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_gather_v3.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_one_hot.h"
#include "aclnnop/aclnn_take.h"
#include "core/convert.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/index_common.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr int64_t kMaxRank = 8;

int64_t prod(const Dims& d, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t k = from; k < to && k < d.size(); ++k) n *= d[k];
  return n;
}

void check_same_dtype(const aclTensor& out, const char* out_name, const aclTensor& self, const char* self_name) {
  if (out.dtype != self.dtype)
    invalid("{} has dtype {}, expected the dtype of {} ({})", out_name, dtype_name(out.dtype), self_name,
            dtype_name(self.dtype));
}

// The shared plan of the row gathers: out = rows of self picked by index (see RowWalk).
// `size` is the extent the index values address; `what` names it in run-time errors.
void plan_row_gather(OpBuilder& b, const aclTensor& self, const aclTensor& index, const char* index_name,
                     const aclTensor& out, RowWalk w, IndexRule rule, std::string what) {
  if (out.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int s = p.input(self, self.dtype);
  const int i = p.input(index, DType::kInt64);
  const int o = p.output(out, out.dtype);
  const size_t esize = self.elem_size();
  const char* op = b.op().name;
  const Dims ishape = index.view;
  const int64_t n_all = index.numel();
  p.finish(std::string("index.gather_rows.") + dtype_name(self.dtype), [=](const DenseArgs& a) {
    RowWalk walk = w;
    walk.idx = a.in<int64_t>(i);
    check_index_values(op, index_name, ishape, walk.idx, n_all, walk.src_rows, rule, what);
    gather_rows(esize, a.ptr(s), a.ptr(o), walk);
  });
}

// ---- GatherV2 / GatherV3 / IndexSelect / Embedding / Take -------------------------------------------

constexpr DTypeMask kGatherV2Types = kAllTypes | kComplexTypes;
constexpr DTypeMask kGatherV3Types = (kAllTypes & ~dtype_mask({DType::kBFloat16})) | dtype_mask({DType::kComplex64});
constexpr DTypeMask kIndexSelectTypes = kAllTypes | kComplexTypes | kUnsignedWideTypes;
constexpr DTypeMask kTakeTypes = kAllTypes | kComplexTypes | kUnsignedWideTypes;
constexpr DTypeMask kGatherTypes = kAllTypes | kUnsignedWideTypes;
constexpr DTypeMask kGatherNdTypes = kAllTypes | kUnsignedWideTypes;

// GatherV3 with batch_dims = 0 is GatherV2.
void plan_gather_v3(OpBuilder& b, const aclTensor* self_arg, int64_t dim, const aclTensor* index_arg,
                    int64_t batch_dims, const int64_t* mode, const aclTensor* out_arg, DTypeMask types) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& index = b.input(index_arg, "index");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, types);
  check_dtype_in(b.op(), "index", index.dtype, kIndexDTypes);
  check_same_dtype(out, "out", self, "self");
  check_rank(self, "self", kMaxRank);
  check_rank(index, "index", kMaxRank);
  check_rank(out, "out", kMaxRank);
  if (mode && (*mode < 0 || *mode > 2)) invalid("mode is {}, expected 0, 1 or 2", *mode);
  const Dims sshape = self.view.empty() ? Dims{1} : self.view;  // a 0-d self gathers as [1]
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  const int64_t irank = index.dim();
  int64_t bd = batch_dims;
  if (bd < -irank || bd > irank) invalid("batchDims is {}, expected a value in [{}, {}] (index has {} dims)", batch_dims, -irank, irank, irank);
  if (bd < 0) bd += irank;
  if (bd > d) invalid("batchDims is {}, expected at most dim ({})", batch_dims, d);
  for (int64_t k = 0; k < bd; ++k)
    if (index.view[static_cast<size_t>(k)] != sshape[static_cast<size_t>(k)])
      invalid("index has shape {} and self {}: their first batchDims ({}) dims must be equal", dims_str(index.view),
              dims_str(self.view), bd);
  Dims expect(sshape.begin(), sshape.begin() + d);
  expect.insert(expect.end(), index.view.begin() + bd, index.view.end());
  expect.insert(expect.end(), sshape.begin() + d + 1, sshape.end());
  check_shape_equals(out, "out", expect, "self's shape with dim replaced by index's shape");
  RowWalk w;
  const int64_t batch = prod(sshape, 0, static_cast<size_t>(bd));
  w.outer = prod(sshape, 0, static_cast<size_t>(d));
  w.src_rows = sshape[static_cast<size_t>(d)];
  w.inner = prod(sshape, static_cast<size_t>(d) + 1, sshape.size());
  w.n = prod(index.view, static_cast<size_t>(bd), index.view.size());
  w.dst_rows = w.n;
  w.groups = batch;
  plan_row_gather(b, self, index, "index", out, w, IndexRule::kWrap, fmt::format("self.shape[{}]", d));
}

void plan_index_select(OpBuilder& b, const aclTensor* self_arg, int64_t dim, const aclTensor* index_arg,
                       const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& index = b.input(index_arg, "index");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kIndexSelectTypes);
  check_dtype_in(b.op(), "index", index.dtype, kIndexDTypes);
  check_same_dtype(out, "out", self, "self");
  check_rank(self, "self", kMaxRank);
  if (index.dim() > 1) invalid("index has {} dims ({}), expected a 0-d or 1-d tensor", index.dim(), dims_str(index.view));
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  Dims expect = self.view;
  if (self.dim() == 0) {
    if (index.numel() != 1) invalid("index has {} elements, expected 1 for a 0-d self", index.numel());
  } else {
    expect[static_cast<size_t>(d)] = index.numel();
  }
  check_shape_equals(out, "out", expect, "self's shape with dim resized to index's length");
  const Dims sshape = self.view.empty() ? Dims{1} : self.view;
  RowWalk w;
  w.outer = prod(sshape, 0, static_cast<size_t>(d));
  w.src_rows = sshape[static_cast<size_t>(d)];
  w.inner = prod(sshape, static_cast<size_t>(d) + 1, sshape.size());
  w.n = w.dst_rows = index.numel();
  plan_row_gather(b, self, index, "index", out, w, IndexRule::kWrap, fmt::format("self.shape[{}]", d));
}

void plan_embedding(OpBuilder& b, const aclTensor* weight_arg, const aclTensor* indices_arg, const aclTensor* out_arg) {
  const aclTensor& weight = b.input(weight_arg, "weight");
  const aclTensor& indices = b.input(indices_arg, "indices");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "weight", weight.dtype, kAllTypes | kComplexTypes);
  check_dtype_in(b.op(), "indices", indices.dtype, kIndexDTypes);
  check_same_dtype(out, "out", weight, "weight");
  if (weight.dim() != 2) invalid("weight has {} dims ({}), expected a 2-d table", weight.dim(), dims_str(weight.view));
  check_rank(indices, "indices", kMaxRank - 1);
  Dims expect = indices.view;
  expect.push_back(weight.view[1]);
  check_shape_equals(out, "out", expect, "indices' shape + [weight.shape[1]]");
  RowWalk w;
  w.src_rows = weight.view[0];
  w.inner = weight.view[1];
  w.n = w.dst_rows = indices.numel();
  plan_row_gather(b, weight, indices, "indices", out, w, IndexRule::kNonNegative, "weight.shape[0]");
}

void plan_take(OpBuilder& b, const aclTensor* self_arg, const aclTensor* index_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& index = b.input(index_arg, "index");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kTakeTypes);
  check_dtype_in(b.op(), "index", index.dtype, kIndexDTypes);
  check_same_dtype(out, "out", self, "self");
  check_rank(self, "self", kMaxRank);
  check_rank(index, "index", kMaxRank);
  check_shape_equals(out, "out", index.view, "index's shape");
  RowWalk w;
  w.src_rows = self.numel();
  w.n = w.dst_rows = index.numel();
  plan_row_gather(b, self, index, "index", out, w, IndexRule::kWrap, "self.numel()");
}

// ---- GatherNd ---------------------------------------------------------------------------------------

void plan_gather_nd(OpBuilder& b, const aclTensor* self_arg, const aclTensor* indices_arg, bool negative,
                    const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& indices = b.input(indices_arg, "indices");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kGatherNdTypes);
  check_dtype_in(b.op(), "indices", indices.dtype, kIndexDTypes);
  check_same_dtype(out, "out", self, "self");
  if (self.dim() < 1 || self.dim() > kMaxRank) invalid("self has {} dims, expected 1 to 8", self.dim());
  if (indices.dim() < 1 || indices.dim() > kMaxRank) invalid("indices has {} dims, expected 1 to 8", indices.dim());
  const int64_t c = indices.view.back();
  if (c < 1 || c > self.dim())
    invalid("indices.shape[-1] is {}, expected a value in [1, {}] (the dims of self {})", c, self.dim(),
            dims_str(self.view));
  Dims expect(indices.view.begin(), indices.view.end() - 1);
  expect.insert(expect.end(), self.view.begin() + c, self.view.end());
  check_shape_equals(out, "out", expect, "indices.shape[:-1] + self.shape[indices.shape[-1]:]");
  if (out.numel() == 0) return;
  const int64_t n = indices.numel() / c;
  RowWalk w;
  w.src_rows = prod(self.view, 0, static_cast<size_t>(c));
  w.inner = prod(self.view, static_cast<size_t>(c), self.view.size());
  w.n = w.dst_rows = n;
  DensePlan p(b);
  p.separate_outputs();
  const int s = p.input(self, self.dtype);
  const int i = p.input(indices, DType::kInt64);
  const int o = p.output(out, out.dtype);
  const size_t rows_at = p.scratch(static_cast<size_t>(n) * sizeof(int64_t));
  const size_t esize = self.elem_size();
  const Dims sshape = self.view, ishape = indices.view;
  const IndexRule rule = negative ? IndexRule::kWrap : IndexRule::kNonNegative;
  p.finish(std::string("index.gather_nd.") + dtype_name(self.dtype), [=](const DenseArgs& a) {
    const int64_t* idx = a.in<int64_t>(i);
    int64_t* rows = a.scratch<int64_t>(rows_at);
    linearize_tuples("GatherNd", "indices", ishape, idx, n, c, sshape, rule, "self", rows);
    RowWalk walk = w;
    walk.idx = rows;
    gather_rows(esize, a.ptr(s), a.ptr(o), walk);
  });
}

// ---- Gather (elements) ------------------------------------------------------------------------------

void plan_gather(OpBuilder& b, const aclTensor* self_arg, int64_t dim, const aclTensor* index_arg,
                 const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& index = b.input(index_arg, "index");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kGatherTypes);
  check_dtype_in(b.op(), "index", index.dtype, kIndexDTypes);
  check_same_dtype(out, "out", self, "self");
  check_rank(self, "self", kMaxRank);
  check_rank(index, "index", kMaxRank);
  if (index.dim() != self.dim())
    invalid("index has {} dims ({}), expected as many as self ({})", index.dim(), dims_str(index.view),
            dims_str(self.view));
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  check_shape_equals(out, "out", index.view, "index's shape");
  const Dims sshape = self.view.empty() ? Dims{1} : self.view;
  const Dims ishape = index.view.empty() ? Dims{1} : index.view;
  for (size_t k = 0; k < sshape.size(); ++k)
    if (static_cast<int64_t>(k) != d && ishape[k] > sshape[k])
      invalid("index has shape {}, self {}: index.size({}) = {} exceeds self.size({}) = {}", dims_str(index.view),
              dims_str(self.view), k, ishape[k], k, sshape[k]);
  if (index.numel() > 0 && sshape[static_cast<size_t>(d)] == 0)
    invalid("self.shape[{}] is 0 but index is not empty ({})", d, dims_str(index.view));
  if (out.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int s = p.input(self, self.dtype);
  const int i = p.input(index, DType::kInt64);
  const int o = p.output(out, out.dtype);
  ElementWalk w;
  w.ishape = ishape;
  w.dshape = sshape;
  w.dim = d;
  const size_t esize = self.elem_size();
  const Dims iview = index.view;
  const int64_t n = index.numel();
  p.finish(std::string("index.gather_elements.") + dtype_name(self.dtype), [=](const DenseArgs& a) {
    ElementWalk walk = w;
    walk.idx = a.in<int64_t>(i);
    check_index_values("Gather", "index", iview, walk.idx, n,
                       sshape[static_cast<size_t>(d)], IndexRule::kWrap, fmt::format("self.shape[{}]", d));
    gather_elements(esize, a.ptr(s), a.ptr(o), walk);
  });
}

// ---- OneHot -----------------------------------------------------------------------------------------

constexpr DTypeMask kOneHotSelfTypes = dtype_mask({DType::kUInt8, DType::kInt32, DType::kInt64});
constexpr DTypeMask kOneHotValueTypes =
    dtype_mask({DType::kFloat16, DType::kFloat, DType::kInt8, DType::kUInt8, DType::kInt32, DType::kInt64});

void plan_one_hot(OpBuilder& b, const aclTensor* self_arg, int num_classes, const aclTensor* on_arg,
                  const aclTensor* off_arg, int64_t axis, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& on = b.input(on_arg, "onValue");
  const aclTensor& off = b.input(off_arg, "offValue");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kOneHotSelfTypes);
  check_dtype_in(b.op(), "out", out.dtype, kOneHotValueTypes);
  check_same_dtype(on, "onValue", out, "out");
  check_same_dtype(off, "offValue", out, "out");
  check_rank(self, "self", kMaxRank - 1);
  check_rank(on, "onValue", kMaxRank);
  check_rank(off, "offValue", kMaxRank);
  if (self.numel() == 0 && num_classes <= 0)
    invalid("numClasses is {}, expected a value > 0 for an empty self", num_classes);
  if (num_classes < 0) invalid("numClasses is {}, expected a value >= 0", num_classes);
  if (axis < -1 || axis > self.dim())
    invalid("axis is {}, expected a value in [-1, {}] (self has {} dims)", axis, self.dim(), self.dim());
  if (out.dim() != self.dim() + 1)
    invalid("out has {} dims ({}), expected one more than self ({})", out.dim(), dims_str(out.view), self.dim());
  const int64_t ax = axis < 0 ? self.dim() : axis;
  Dims expect = self.view;
  expect.insert(expect.begin() + ax, num_classes);
  check_shape_equals(out, "out", expect, "self's shape with numClasses inserted at axis");
  if (out.numel() == 0) return;
  if (on.numel() == 0) invalid("onValue is empty, expected at least one element");
  if (off.numel() == 0) invalid("offValue is empty, expected at least one element");
  DensePlan p(b);
  p.separate_outputs();
  const int s = p.input(self, DType::kInt64);
  const int vo = p.strided(on);
  const int vf = p.strided(off);
  const int o = p.output(out, out.dtype);
  const int64_t outer = prod(self.view, 0, static_cast<size_t>(ax));
  const int64_t inner = prod(self.view, static_cast<size_t>(ax), self.view.size());
  const int64_t classes = num_classes;
  const size_t esize = out.elem_size();
  p.finish(std::string("index.one_hot.") + dtype_name(out.dtype), [=](const DenseArgs& a) {
    const int64_t* x = a.in<int64_t>(s);
    unsigned char on_v[8], off_v[8];
    std::memcpy(on_v, a.ptr(vo), esize);
    std::memcpy(off_v, a.ptr(vf), esize);
    char* dst = static_cast<char*>(a.ptr(o));
    for (int64_t q = 0; q < outer; ++q)
      for (int64_t c = 0; c < classes; ++c)
        for (int64_t r = 0; r < inner; ++r) {
          const bool hit = x[q * inner + r] == c;
          std::memcpy(dst + ((q * classes + c) * inner + r) * static_cast<int64_t>(esize), hit ? on_v : off_v, esize);
        }
  });
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" {

aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor* self, const int64_t dim, const aclTensor* index,
                                        aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Gather, "aclnnGatherGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_gather(b, self, dim, index, out); });
}

aclnnStatus aclnnGatherV2GetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index, aclTensor* out,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_GatherV2, "aclnnGatherV2GetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_gather_v3(b, self, dim, index, 0, nullptr, out, pacl::kGatherV2Types);
                          });
}

aclnnStatus aclnnGatherV3GetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                          int64_t batchDims, int64_t mode, aclTensor* out, uint64_t* workspaceSize,
                                          aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_GatherV3, "aclnnGatherV3GetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_gather_v3(b, self, dim, index, batchDims, &mode, out, pacl::kGatherV3Types);
                          });
}

aclnnStatus aclnnGatherNdGetWorkspaceSize(const aclTensor* self, const aclTensor* indices, bool negativeIndexSupport,
                                          aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_GatherNd, "aclnnGatherNdGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_gather_nd(b, self, indices, negativeIndexSupport, out); });
}

aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                             aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_IndexSelect, "aclnnIndexSelectGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_index_select(b, self, dim, index, out); });
}

aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor* weight, const aclTensor* indices, const aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Embedding, "aclnnEmbeddingGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_embedding(b, weight, indices, out); });
}

aclnnStatus aclnnTakeGetWorkspaceSize(const aclTensor* self, const aclTensor* index, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Take, "aclnnTakeGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_take(b, self, index, out); });
}

aclnnStatus aclnnOneHotGetWorkspaceSize(const aclTensor* self, int numClasses, const aclTensor* onValue,
                                        const aclTensor* offValue, int64_t axis, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_OneHot, "aclnnOneHotGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_one_hot(b, self, numClasses, onValue, offValue, axis, out); });
}

}  // extern "C"
