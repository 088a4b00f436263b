// Joins and splits: Cat, Stack, ChunkCat (one piece per tensor or chunk into out) and SplitTensor,
// SplitWithSize (one piece per output). Each piece is a strided copy (see pieces.h).
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_chunk_cat.h"
#include "aclnnop/aclnn_split_tensor.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "aclnnop/aclnn_stack.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/movement.h"
#include "ops/pieces.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr DTypeMask kCatTypes = kMoveTypes & ~dtype_mask({DType::kComplex128});

// The common dtype of a tensor list: PyTorch's promotion over the compute dtypes; other dtypes
// join only themselves.
DType common_dtype(const std::vector<const aclTensor*>& ts, const char* name) {
  DType r = ts[0]->dtype;
  for (size_t i = 1; i < ts.size(); ++i) {
    const DType t = ts[i]->dtype;
    if (t == r) continue;
    const DType p = is_compute_dtype(t) && is_compute_dtype(r) ? promote(r, t) : DType::kUndefined;
    if (p == DType::kUndefined)
      invalid("{}[{}] has dtype {}, which has no common dtype with {} (the dtype of {}[0..{}])", name, i,
              dtype_name(t), dtype_name(r), name, i - 1);
    r = p;
  }
  return r;
}

// A converting copy needs compute dtypes on both sides; same-dtype copies move anything.
void check_copyable(DType from, const aclTensor& out, const char* out_name) {
  if (from != out.dtype && !(is_compute_dtype(from) && is_compute_dtype(out.dtype)))
    invalid("{} has dtype {}, expected {} (a {} result is not converted to {})", out_name, dtype_name(out.dtype),
            dtype_name(from), dtype_name(from), dtype_name(out.dtype));
}

std::vector<const aclTensor*> join_inputs(OpBuilder& b, const aclTensorList* tensors_arg, const aclTensor*& out,
                                          const aclTensor* out_arg, DTypeMask allowed, DType* common) {
  std::vector<const aclTensor*> ts = b.input_list(tensors_arg, "tensors");
  out = &b.output(out_arg, "out");
  if (ts.empty()) invalid("tensors is an empty list, expected at least one tensor");
  for (size_t i = 0; i < ts.size(); ++i)
    check_dtype_in(b.op(), fmt::format("tensors[{}]", i).c_str(), ts[i]->dtype, allowed);
  check_dtype_in(b.op(), "out", out->dtype, allowed);
  *common = common_dtype(ts, "tensors");
  check_can_cast(*common, *out, "out");
  check_copyable(*common, *out, "out");
  return ts;
}

void plan_cat(OpBuilder& b, const aclTensorList* tensors_arg, int64_t dim, const aclTensor* out_arg) {
  const aclTensor* outp = nullptr;
  DType common;
  const std::vector<const aclTensor*> ts = join_inputs(b, tensors_arg, outp, out_arg, kCatTypes, &common);
  const aclTensor& out = *outp;
  // PyTorch's legacy rule: 1-d empty tensors take no part in the shape checks.
  auto skipped = [](const aclTensor* t) { return t->dim() == 1 && t->view[0] == 0; };
  size_t ref = 0;
  while (ref < ts.size() && skipped(ts[ref])) ++ref;
  if (ref == ts.size()) {
    check_shape_equals(out, "out", {0}, "the joined shape");
    return;
  }
  const aclTensor& r = *ts[ref];
  const std::string ref_name = fmt::format("tensors[{}]", ref);
  check_rank_between(r, ref_name.c_str(), 1, 8);
  const int64_t d = wrap_dim(dim, r.dim(), "dim");
  Dims shape = r.view;
  shape[static_cast<size_t>(d)] = 0;
  for (size_t i = 0; i < ts.size(); ++i) {
    const aclTensor& t = *ts[i];
    if (skipped(&t)) continue;
    if (t.dim() != r.dim())
      invalid("tensors[{}] has {} dims ({}), expected {} as {} has", i, t.dim(), dims_str(t.view), r.dim(), ref_name);
    for (int64_t k = 0; k < r.dim(); ++k)
      if (k != d && t.view[static_cast<size_t>(k)] != r.view[static_cast<size_t>(k)])
        invalid("tensors[{}] has shape {}, expected {} in every dim but dim {} (the shape of {})", i, dims_str(t.view),
                dims_str(r.view), d, ref_name);
    shape[static_cast<size_t>(d)] += t.view[static_cast<size_t>(d)];
  }
  check_shape_equals(out, "out", shape, "the joined shape");
  if (out.numel() == 0) return;
  PiecePlan pp(b);
  std::vector<PiecePlan::Operand> src;
  for (const aclTensor* t : ts) src.push_back(skipped(t) ? PiecePlan::Operand{} : pp.source(*t));
  const PiecePlan::Operand dst = pp.dest(out);
  int64_t at = 0;
  for (size_t i = 0; i < ts.size(); ++i) {
    if (skipped(ts[i])) continue;
    pp.copy(dst, at * dst.strides[static_cast<size_t>(d)], dst.strides, src[i], 0, src[i].strides, ts[i]->view);
    at += ts[i]->view[static_cast<size_t>(d)];
  }
  pp.finish(fmt::format("cat.{}", dtype_name(out.dtype)), PiecePlan::Order::kDisjoint);
}

void plan_stack(OpBuilder& b, const aclTensorList* tensors_arg, int64_t dim, const aclTensor* out_arg) {
  const aclTensor* outp = nullptr;
  DType common;
  const std::vector<const aclTensor*> ts = join_inputs(b, tensors_arg, outp, out_arg, kMoveTypes, &common);
  const aclTensor& out = *outp;
  const aclTensor& r = *ts[0];
  check_rank_between(r, "tensors[0]", 0, 7);
  for (size_t i = 1; i < ts.size(); ++i)
    if (ts[i]->view != r.view)
      invalid("tensors[{}] has shape {}, expected the shape of tensors[0] {}", i, dims_str(ts[i]->view),
              dims_str(r.view));
  const int64_t d = wrap_dim(dim, r.dim() + 1, "dim");
  check_shape_equals(out, "out", insert_dim(r.view, d, static_cast<int64_t>(ts.size())), "the stacked shape");
  if (out.numel() == 0) return;
  PiecePlan pp(b);
  std::vector<PiecePlan::Operand> src;
  for (const aclTensor* t : ts) src.push_back(pp.source(*t));
  const PiecePlan::Operand dst = pp.dest(out);
  const Dims ds = erase_dim(dst.strides, d);
  for (size_t i = 0; i < ts.size(); ++i)
    pp.copy(dst, static_cast<int64_t>(i) * dst.strides[static_cast<size_t>(d)], ds, src[i], 0, src[i].strides,
            r.view);
  pp.finish(fmt::format("stack.{}", dtype_name(out.dtype)), PiecePlan::Order::kDisjoint);
}

// out[i] = self[..., begin_i : begin_i + sizes[i], ...] along d.
void plan_split(OpBuilder& b, const aclTensor& self, const std::vector<const aclTensor*>& outs, int64_t d,
                const std::vector<int64_t>& sizes) {
  if (outs.size() != sizes.size())
    invalid("out has {} tensors, expected {} (the number of blocks of self's dim {} of size {})", outs.size(),
            sizes.size(), d, self.view[static_cast<size_t>(d)]);
  for (size_t i = 0; i < outs.size(); ++i) {
    const std::string name = fmt::format("out[{}]", i);
    check_same_dtype(*outs[i], name.c_str(), self, "self");
    Dims shape = self.view;
    shape[static_cast<size_t>(d)] = sizes[i];
    check_shape_equals(*outs[i], name.c_str(), shape, "the block's shape");
  }
  PiecePlan pp(b);
  const PiecePlan::Operand src = pp.source(self);
  std::vector<PiecePlan::Operand> dst;
  for (const aclTensor* o : outs) dst.push_back(pp.dest(*o));
  int64_t at = 0;
  for (size_t i = 0; i < outs.size(); ++i) {
    pp.copy(dst[i], 0, dst[i].strides, src, at * src.strides[static_cast<size_t>(d)], src.strides, outs[i]->view);
    at += sizes[i];
  }
  pp.finish(fmt::format("split.{}", dtype_name(self.dtype)), PiecePlan::Order::kDisjoint);
}

void plan_split_tensor(OpBuilder& b, const aclTensor* self_arg, uint64_t sections, int64_t dim,
                       const aclTensorList* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const std::vector<const aclTensor*> outs = b.output_list(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kMoveTypes);
  check_rank_between(self, "self", 1, 8);
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  const int64_t n = self.view[static_cast<size_t>(d)];
  if (n == 0 && sections != 0)
    invalid("splitSections is {}, expected 0 as self's dim {} has size 0", sections, d);
  if (n != 0 && sections == 0) invalid("splitSections is 0, expected a positive block size (self's dim {} has size {})", d, n);
  if (sections > static_cast<uint64_t>(INT64_MAX)) invalid("splitSections is {}, too large", sections);
  std::vector<int64_t> sizes;
  const int64_t s = static_cast<int64_t>(sections);
  if (n == 0) sizes.push_back(0);
  for (int64_t at = 0; at < n; at += s) sizes.push_back(std::min(s, n - at));
  plan_split(b, self, outs, d, sizes);
}

void plan_split_with_size(OpBuilder& b, const aclTensor* self_arg, const aclIntArray* sizes_arg, int64_t dim,
                          const aclTensorList* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray& sizes = b.int_array(sizes_arg, "splitSize");
  const std::vector<const aclTensor*> outs = b.output_list(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kMoveTypes);
  check_rank_between(self, "self", 1, 8);
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  int64_t sum = 0;
  for (size_t i = 0; i < sizes.values.size(); ++i) {
    if (sizes.values[i] < 0) invalid("splitSize[{}] is {}, expected a size >= 0", i, sizes.values[i]);
    sum += sizes.values[i];
  }
  if (sum != self.view[static_cast<size_t>(d)])
    invalid("splitSize {} sums to {}, expected the size {} of self's dim {}", list_str(sizes.values), sum,
            self.view[static_cast<size_t>(d)], d);
  plan_split(b, self, outs, d, sizes.values);
}

constexpr DTypeMask kChunkCatTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});

// out[c, :] = for each tensor t: chunk c of t along dim 0 (rows [c*cs, (c+1)*cs), cs = ceil(n/numChunks)),
// flattened, zero padded to cs rows.
void plan_chunk_cat(OpBuilder& b, const aclTensorList* tensors_arg, int64_t dim, int64_t chunks,
                    const aclTensor* out_arg) {
  const std::vector<const aclTensor*> ts = b.input_list(tensors_arg, "tensors");
  const aclTensor& out = b.output(out_arg, "out");
  if (ts.empty()) invalid("tensors is an empty list, expected at least one tensor");
  for (size_t i = 0; i < ts.size(); ++i) {
    const std::string name = fmt::format("tensors[{}]", i);
    check_dtype_in(b.op(), name.c_str(), ts[i]->dtype, kChunkCatTypes);
    if (ts[i]->dtype != ts[0]->dtype)
      invalid("{} has dtype {}, expected the dtype of tensors[0] ({})", name, dtype_name(ts[i]->dtype),
              dtype_name(ts[0]->dtype));
    check_rank_between(*ts[i], name.c_str(), 1, 8);
  }
  check_dtype_in(b.op(), "out", out.dtype, kChunkCatTypes);
  if (dtype_size(out.dtype) < dtype_size(ts[0]->dtype))
    invalid("out has dtype {}, expected a dtype at least as wide as the tensors' {}", dtype_name(out.dtype),
            dtype_name(ts[0]->dtype));
  if (dim != 0) invalid("dim is {}, expected 0 (aclnnChunkCat splits dim 0 only)", dim);
  if (chunks < 1) invalid("numChunks is {}, expected a positive number of chunks", chunks);
  int64_t cols = 0;
  std::vector<int64_t> chunk_rows(ts.size()), inner(ts.size());
  for (size_t i = 0; i < ts.size(); ++i) {
    chunk_rows[i] = (ts[i]->view[0] + chunks - 1) / chunks;
    inner[i] = 1;
    for (size_t k = 1; k < ts[i]->view.size(); ++k) inner[i] *= ts[i]->view[k];
    cols += chunk_rows[i] * inner[i];
  }
  check_shape_equals(out, "out", {chunks, cols}, "the chunked shape");
  if (out.numel() == 0) return;
  PiecePlan pp(b);
  std::vector<PiecePlan::Operand> src;
  for (const aclTensor* t : ts) src.push_back(pp.source(*t));
  const PiecePlan::Operand dst = pp.dest(out);
  int64_t col = 0;
  for (size_t i = 0; i < ts.size(); ++i) {
    const aclTensor& t = *ts[i];
    const Dims dense = contiguous_strides(t.view);
    for (int64_t c = 0; c < chunks; ++c) {
      const int64_t first = c * chunk_rows[i];
      const int64_t rows = std::max<int64_t>(0, std::min(chunk_rows[i], t.view[0] - first));
      const int64_t at = c * cols + col;
      Dims shape = t.view;
      shape[0] = rows;
      if (rows > 0) pp.copy(dst, at, dense, src[i], first * t.strides[0], t.strides, shape);
      const int64_t pad = (chunk_rows[i] - rows) * inner[i];
      if (pad > 0) pp.fill_zero(dst, at + rows * inner[i], {1}, {pad});
    }
    col += chunk_rows[i] * inner[i];
  }
  pp.finish(fmt::format("chunk_cat.{}", dtype_name(out.dtype)), PiecePlan::Order::kDisjoint);
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Cat, "aclnnCatGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_cat(b, tensors, dim, out); });
}

extern "C" aclnnStatus aclnnStackGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Stack, "aclnnStackGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_stack(b, tensors, dim, out); });
}

extern "C" aclnnStatus aclnnSplitTensorGetWorkspaceSize(const aclTensor* self, uint64_t splitSections, int64_t dim,
                                                        aclTensorList* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_SplitTensor, "aclnnSplitTensorGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_split_tensor(b, self, splitSections, dim, out); });
}

extern "C" aclnnStatus aclnnSplitWithSizeGetWorkspaceSize(const aclTensor* self, const aclIntArray* splitSize,
                                                          int64_t dim, aclTensorList* out, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_SplitWithSize, "aclnnSplitWithSizeGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_split_with_size(b, self, splitSize, dim, out); });
}

extern "C" aclnnStatus aclnnChunkCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, int64_t numChunks,
                                                     aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ChunkCat, "aclnnChunkCatGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_chunk_cat(b, tensors, dim, numChunks, out); });
}
