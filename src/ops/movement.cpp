#include "ops/movement.h"

#include "runtime/status.h"

namespace pacl {

void check_same_dtype(const aclTensor& out, const char* out_name, const aclTensor& self, const char* self_name) {
  if (out.dtype != self.dtype)
    invalid("{} has dtype {}, expected the dtype of {} ({})", out_name, dtype_name(out.dtype), self_name,
            dtype_name(self.dtype));
}

void check_rank_between(const aclTensor& t, const char* arg, int64_t lo, int64_t hi) {
  if (t.dim() < lo || t.dim() > hi) {
    if (lo == hi) invalid("{} has {} dims ({}), expected {}", arg, t.dim(), t.describe(), lo);
    invalid("{} has {} dims ({}), expected {} to {}", arg, t.dim(), t.describe(), lo, hi);
  }
}

Dims erase_dim(Dims d, int64_t k) {
  d.erase(d.begin() + k);
  return d;
}

Dims insert_dim(Dims d, int64_t k, int64_t v) {
  d.insert(d.begin() + k, v);
  return d;
}

std::string list_str(const std::vector<int64_t>& v) { return dims_str(v); }

}  // namespace pacl
