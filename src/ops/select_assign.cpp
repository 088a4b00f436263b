// MaskedSelect (a compaction, its size known only at run time), StridedSliceAssignV2 (a piece
// copy into a strided region of varRef) and CoalesceSparse (a scatter of COO indices and a
// scatter-add of values by precomputed unique ids).
#include <cstring>

#include "aclnnop/aclnn_coalesce_sparse.h"
#include "aclnnop/aclnn_masked_select.h"
#include "aclnnop/aclnn_strided_slice_assign_v2.h"
#include "core/convert.h"
#include "core/dense.h"
#include "core/elementwise.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/movement.h"
#include "ops/pieces.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr DTypeMask kMaskedSelectTypes = kAllTypes;

// out[0 .. k) = the selected elements in row-major order; out's other elements are left as they are
// (the count is only known when the kernel runs).
void plan_masked_select(OpBuilder& b, const aclTensor* self_arg, const aclTensor* mask_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& mask = b.input(mask_arg, "mask");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kMaskedSelectTypes);
  check_dtype_in(b.op(), "mask", mask.dtype, dtype_mask({DType::kBool, DType::kUInt8}));
  check_same_dtype(out, "out", self, "self");
  check_rank_between(self, "self", 0, 8);
  check_rank_between(mask, "mask", 0, 8);
  const Dims shape = broadcast_shapes(self.view, "self", mask.view, "mask");
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if (out.dim() != 1) invalid("out has {} dims ({}), expected a 1-d tensor", out.dim(), dims_str(out.view));
  if (out.numel() != n)
    invalid("out has {} elements, expected {} (the broadcast shape {} of self and mask)", out.numel(), n, dims_str(shape));
  if (n == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int s = p.strided(self), m = p.strided(mask);
  const int o = p.output(out, out.dtype, Access::kReadWrite);
  const size_t es = dtype_size(self.dtype);
  const size_t sbuf = p.scratch(static_cast<size_t>(n) * es), mbuf = p.scratch(static_cast<size_t>(n));
  const Dims sst = broadcast_strides(self, shape), mst = broadcast_strides(mask, shape);
  const DType st = self.dtype, mt = mask.dtype;
  p.finish(fmt::format("masked_select.{}", dtype_name(st)), [=](const DenseArgs& a) {
    char* sv = a.scratch<char>(sbuf);
    auto* mv = a.scratch<uint8_t>(mbuf);
    const Dims dense = contiguous_strides(shape);
    copy_strided(shape, st, sv, dense, st, a.ptr(s), sst);
    copy_strided(shape, mt, mv, dense, mt, a.ptr(m), mst);
    char* ov = static_cast<char*>(a.ptr(o));
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i)
      if (mv[i]) std::memcpy(ov + static_cast<size_t>(k++) * es, sv + static_cast<size_t>(i) * es, es);
  });
}

constexpr DTypeMask kAssignTypes = dtype_mask({DType::kFloat16, DType::kFloat, DType::kBFloat16, DType::kInt32,
                                               DType::kInt64, DType::kDouble, DType::kInt8});

void plan_strided_slice_assign(OpBuilder& b, const aclTensor* var_arg, const aclTensor* value_arg,
                               const aclIntArray* begin_arg, const aclIntArray* end_arg, const aclIntArray* strides_arg,
                               const aclIntArray* axes_arg) {
  const aclTensor& var = b.inout(var_arg, "varRef");
  const aclTensor& value = b.input(value_arg, "inputValue");
  const aclIntArray& begin = b.int_array(begin_arg, "begin");
  const aclIntArray& end = b.int_array(end_arg, "end");
  const aclIntArray& strides = b.int_array(strides_arg, "strides");
  check_dtype_in(b.op(), "varRef", var.dtype, kAssignTypes);
  check_dtype_in(b.op(), "inputValue", value.dtype, kAssignTypes);
  check_can_cast(value.dtype, var, "varRef");
  check_rank_between(var, "varRef", 1, 8);
  const size_t n = begin.values.size();
  std::vector<int64_t> axes_v;
  if (axes_arg) {
    axes_v = b.int_array(axes_arg, "axesOptional").values;
  } else {
    for (size_t i = 0; i < n; ++i) axes_v.push_back(static_cast<int64_t>(i));
  }
  if (end.values.size() != n || strides.values.size() != n || axes_v.size() != n)
    invalid("begin, end, strides and axesOptional have {}, {}, {} and {} entries, expected the same number", n,
            end.values.size(), strides.values.size(), axes_v.size());
  const std::vector<int64_t> axes = wrap_dims(axes_v, var.dim(), "axesOptional", false);
  Dims shape = var.view;
  std::vector<int64_t> first(var.view.size(), 0), step(var.view.size(), 1);
  for (size_t i = 0; i < n; ++i) {
    const size_t k = static_cast<size_t>(axes[i]);
    if (strides.values[i] <= 0) invalid("strides[{}] is {}, expected a stride > 0", i, strides.values[i]);
    if (k + 1 == var.view.size() && strides.values[i] != 1)
      invalid("strides[{}] is {} for varRef's last dim, expected 1 (CANN's limit)", i, strides.values[i]);
    const int64_t dim_n = var.view[k];
    auto fix = [dim_n](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + dim_n : v, 0, dim_n); };
    const int64_t s = fix(begin.values[i]), e = std::max(s, fix(end.values[i]));
    shape[k] = (e - s + strides.values[i] - 1) / strides.values[i];
    first[k] = s;
    step[k] = strides.values[i];
  }
  check_shape_equals(value, "inputValue", shape, "the slice's shape");
  if (value.numel() == 0) return;
  PiecePlan pp(b);
  const PiecePlan::Operand src = pp.source(value);
  const PiecePlan::Operand dst = pp.dest(var, var.dtype, Access::kReadWrite);
  int64_t off = 0;
  Dims ds = dst.strides;
  for (size_t k = 0; k < ds.size(); ++k) {
    off += first[k] * dst.strides[k];
    ds[k] *= step[k];
  }
  pp.copy(dst, off, ds, src, 0, src.strides, shape);
  pp.finish(fmt::format("strided_slice_assign.{}", dtype_name(var.dtype)));
}

// newIndices[u[i]] = indices[i], newValues[u[i]] += values[i] (onto newValues' contents).
void plan_coalesce_sparse(OpBuilder& b, const aclTensor* len_arg, const aclTensor* uniq_arg, const aclTensor* idx_arg,
                          const aclTensor* val_arg, const aclTensor* new_idx_arg, const aclTensor* new_val_arg) {
  const aclTensor& len = b.input(len_arg, "uniqueLen");
  const aclTensor& uniq = b.input(uniq_arg, "uniqueIndices");
  const aclTensor& idx = b.input(idx_arg, "indices");
  const aclTensor& val = b.input(val_arg, "values");
  const aclTensor& new_idx = b.output(new_idx_arg, "newIndicesOut");
  const aclTensor& new_val = b.output(new_val_arg, "newValuesOut");
  constexpr DTypeMask kIndex = dtype_mask({DType::kInt32, DType::kInt64});
  check_dtype_in(b.op(), "uniqueLen", len.dtype, kIndex);
  check_dtype_in(b.op(), "uniqueIndices", uniq.dtype, kIndex);
  check_dtype_in(b.op(), "indices", idx.dtype, kIndex);
  check_dtype_in(b.op(), "values", val.dtype, dtype_mask({DType::kFloat, DType::kFloat16, DType::kInt32}));
  check_same_dtype(new_idx, "newIndicesOut", idx, "indices");
  check_same_dtype(new_val, "newValuesOut", val, "values");
  check_rank_between(uniq, "uniqueIndices", 1, 1);
  check_rank_between(idx, "indices", 2, 2);
  check_rank_between(val, "values", 1, 8);
  const int64_t nnz = uniq.view[0];
  if (idx.view[0] != nnz) invalid("indices has {} rows, expected {} (the length of uniqueIndices)", idx.view[0], nnz);
  if (val.view[0] != nnz) invalid("values has {} rows, expected {} (the length of uniqueIndices)", val.view[0], nnz);
  check_rank_between(new_idx, "newIndicesOut", 2, 2);
  const int64_t u = new_idx.view[0];
  check_shape_equals(new_idx, "newIndicesOut", {u, idx.view[1]}, "[unique count, indices' columns]");
  Dims vshape = val.view;
  vshape[0] = u;
  check_shape_equals(new_val, "newValuesOut", vshape, "values' shape with the unique count as dim 0");
  if (nnz == 0) return;
  const int64_t m = idx.view[1], row = val.numel() / nnz;
  const DType vt = arithmetic_dtype(val.dtype);
  DensePlan p(b);
  p.separate_outputs();
  const int uk = p.input(uniq, DType::kInt64);
  const int ik = p.input(idx, DType::kInt64);
  const int vk = p.input(val, vt);
  const int nik = p.output(new_idx, DType::kInt64, Access::kReadWrite);
  const int nvk = p.output(new_val, vt, Access::kReadWrite);
  p.finish(fmt::format("coalesce_sparse.{}", dtype_name(val.dtype)), [=](const DenseArgs& a) {
    const int64_t* uv = a.in<int64_t>(uk);
    const int64_t* iv = a.in<int64_t>(ik);
    int64_t* niv = a.out<int64_t>(nik);
    for (int64_t i = 0; i < nnz; ++i)  // every id is checked before anything is written
      if (uv[i] < 0 || uv[i] >= u) invalid("uniqueIndices[{}] is {}, expected an id in [0, {})", i, uv[i], u);
    visit_arithmetic<TypeSet::kNumeric>(vt, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* vv = a.in<T>(vk);
      T* nvv = a.out<T>(nvk);
      for (int64_t i = 0; i < nnz; ++i) {
        const int64_t g = uv[i];
        std::memcpy(niv + g * m, iv + i * m, static_cast<size_t>(m) * sizeof(int64_t));
        for (int64_t j = 0; j < row; ++j) nvv[g * row + j] += vv[i * row + j];
      }
    });
  });
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" aclnnStatus aclnnMaskedSelectGetWorkspaceSize(const aclTensor* self, const aclTensor* mask, aclTensor* out,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MaskedSelect, "aclnnMaskedSelectGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_masked_select(b, self, mask, out); });
}

extern "C" aclnnStatus aclnnStridedSliceAssignV2GetWorkspaceSize(aclTensor* varRef, const aclTensor* inputValue,
                                                                 const aclIntArray* begin, const aclIntArray* end,
                                                                 const aclIntArray* strides,
                                                                 const aclIntArray* axesOptional,
                                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_StridedSliceAssignV2, "aclnnStridedSliceAssignV2GetWorkspaceSize", workspaceSize,
                          executor, [&](OpBuilder& b) {
                            pacl::plan_strided_slice_assign(b, varRef, inputValue, begin, end, strides, axesOptional);
                          });
}

extern "C" aclnnStatus aclnnCoalesceSparseGetWorkspaceSize(const aclTensor* uniqueLen, const aclTensor* uniqueIndices,
                                                           const aclTensor* indices, const aclTensor* values,
                                                           const aclTensor* newIndicesOut,
                                                           const aclTensor* newValuesOut, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_CoalesceSparse, "aclnnCoalesceSparseGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_coalesce_sparse(b, uniqueLen, uniqueIndices, indices, values, newIndicesOut,
                                                       newValuesOut);
                          });
}
