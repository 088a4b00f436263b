// Permute: out[i_0, ..., i_{n-1}] = self[j] with j[dims[k]] = i_k, i.e. out is the view of self
// with strides permuted, made dense. Moves elements of any storable dtype.
#include "aclnnop/aclnn_permute.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/elementwise_op.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr DTypeMask kPermuteTypes =
    kAllTypes | dtype_mask({DType::kUInt16, DType::kUInt32, DType::kUInt64, DType::kComplex64, DType::kComplex128});

void plan_permute(OpBuilder& b, const aclTensor* self_arg, const aclIntArray* dims_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray& dims_array = b.int_array(dims_arg, "dims");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kPermuteTypes);
  if (out.dtype != self.dtype)
    invalid("out has dtype {}, expected the dtype of self ({})", dtype_name(out.dtype), dtype_name(self.dtype));
  check_rank(self, "self");
  if (static_cast<int64_t>(dims_array.values.size()) != self.dim())
    invalid("dims has {} entries, expected one per dim of self ({}: {})", dims_array.values.size(), self.dim(),
            self.describe());
  const std::vector<int64_t> dims = wrap_dims(dims_array.values, self.dim(), "dims", false);
  Dims shape(dims.size()), src_strides(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    shape[i] = self.view[static_cast<size_t>(dims[i])];
    src_strides[i] = self.strides[static_cast<size_t>(dims[i])];
  }
  check_shape_equals(out, "out", shape, "self's shape permuted by dims");
  if (out.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int src = p.strided(self);
  const int dst = p.output(out, out.dtype);
  const DType t = self.dtype;
  p.finish(std::string("permute.") + dtype_name(t), [=](const DenseArgs& a) {
    copy_strided(shape, t, a.ptr(dst), contiguous_strides(shape), t, a.ptr(src), src_strides);
  });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Permute, "aclnnPermuteGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_permute(b, self, dims, out); });
}
