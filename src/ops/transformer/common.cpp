#include "ops/transformer/common.h"

namespace pacl::tf {

void check_dims(const aclTensor& t, const char* name, int64_t rank) {
  if (t.dim() != rank) invalid("{} has {} dims ({}), expected {}", name, t.dim(), t.describe(), rank);
}

void check_same_dtype(const aclTensor& t, const char* name, const aclTensor& ref, const char* ref_name) {
  if (t.dtype != ref.dtype)
    invalid("{} has dtype {}, expected the dtype of {} ({})", name, dtype_name(t.dtype), ref_name,
            dtype_name(ref.dtype));
}

void check_shape(const aclTensor& t, const char* name, const Dims& shape, const char* what) {
  if (t.view != shape) invalid("{} has shape {}, expected {} {}", name, dims_str(t.view), what, dims_str(shape));
}

void check_not_empty(const aclTensor& t, const char* name) {
  if (t.numel() == 0) invalid("{} is empty ({}); empty tensors are not supported", name, t.describe());
}

}  // namespace pacl::tf
