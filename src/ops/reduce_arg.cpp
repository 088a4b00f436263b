// Arg reductions along one dim: ArgMax, ArgMin, MaxDim, MinDim. The index is that of the first
// extreme value; NaN counts as the extreme (the first NaN wins), as in PyTorch.
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_min_dim.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/reduce.h"
#include "ops/registry.h"
#include "runtime/status.h"

namespace pacl {
namespace {

template <typename T, bool kMax>
struct ArgReducer {
  struct Acc {
    T v{};
    int64_t i = -1;  // -1: nothing folded yet
  };
  T* values;  // may be null
  int64_t* indices;

  // Whether x replaces the current extreme v (x comes later).
  static bool better(T x, T v) {
    if constexpr (std::is_floating_point_v<T>) {
      if (v != v) return false;
      if (x != x) return true;
    }
    return kMax ? x > v : x < v;
  }
  Acc init() const { return Acc{}; }
  void row(Acc& a, const T* x, int64_t n, int64_t r0) const {
    int64_t k = 0;
    if (a.i < 0 && n > 0) {
      a.v = x[0];
      a.i = r0;
      k = 1;
    }
    T v = a.v;
    int64_t at = -1;
    for (; k < n; ++k)
      if (better(x[k], v)) {
        v = x[k];
        at = k;
      }
    if (at >= 0) {
      a.v = v;
      a.i = r0 + at;
    }
  }
  void col(Acc* a, const T* x, int64_t w, int64_t r) const {
    for (int64_t k = 0; k < w; ++k)
      if (a[k].i < 0 || better(x[k], a[k].v)) {
        a[k].v = x[k];
        a[k].i = r;
      }
  }
  void merge(Acc& a, const Acc& b) const {
    if (b.i >= 0 && (a.i < 0 || better(b.v, a.v))) a = b;
  }
  void store(int64_t pos, const Acc& a, int64_t) const {
    if (values) values[pos] = a.v;
    indices[pos] = a.i;
  }
};

template <bool kMax>
struct MakeArg {
  bool with_values;
  template <typename Tag>
  auto operator()(Tag, const DenseArgs& a, const std::vector<int>& ids) const {
    using T = typename Tag::type;
    if (with_values) return ArgReducer<T, kMax>{a.out<T>(ids[0]), a.out<int64_t>(ids[1])};
    return ArgReducer<T, kMax>{nullptr, a.out<int64_t>(ids[0])};
  }
};

constexpr DTypeMask kArgTypes = kNumericTypes;
constexpr DTypeMask kMaxDimTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kInt64, DType::kBool,
                                               DType::kBFloat16, DType::kInt32});
constexpr DTypeMask kIndexTypes = dtype_mask({DType::kInt32, DType::kInt64});

std::vector<bool> dim_mask(const aclTensor& self, int64_t dim) {
  std::vector<bool> mask(static_cast<size_t>(self.dim()), false);
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  if (self.dim() > 0) mask[static_cast<size_t>(d)] = true;
  return mask;
}

void check_out(const aclTensor& out, const char* name, const Dims& shape) {
  check_rank(out, name);
  check_shape_equals(out, name, shape, "self's shape reduced over dim:");
}

void plan_arg(OpBuilder& b, const aclTensor* self_arg, int64_t dim, bool keepdim, const aclTensor* out_arg, bool is_max) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kArgTypes);
  check_dtype_in(b.op(), "out", out.dtype, kIndexTypes);
  check_rank(self, "self");
  const std::vector<bool> mask = dim_mask(self, dim);
  check_out(out, "out", reduced_shape(self.view, mask, keepdim));
  check_nonempty_reduction(self, mask, out.numel(), is_max ? "argmax" : "argmin");
  const std::vector<ReduceOut> outs{ReduceOut{&out, DType::kInt64}};
  if (is_max) plan_reduction<TypeSet::kNumeric>(b, "reduce.argmax", self, mask, self.dtype, outs, MakeArg<true>{false});
  else plan_reduction<TypeSet::kNumeric>(b, "reduce.argmin", self, mask, self.dtype, outs, MakeArg<false>{false});
}

void plan_value_dim(OpBuilder& b, const aclTensor* self_arg, int64_t dim, bool keepdim, const aclTensor* out_arg,
                    const aclTensor* indices_arg, bool is_max) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  const aclTensor& indices = b.output(indices_arg, "indices");
  check_dtype_in(b.op(), "self", self.dtype, kMaxDimTypes);
  if (out.dtype != self.dtype)
    invalid("out has dtype {}, expected the dtype of self ({})", dtype_name(out.dtype), dtype_name(self.dtype));
  check_dtype_in(b.op(), "indices", indices.dtype, kIndexTypes);
  check_rank(self, "self");
  const std::vector<bool> mask = dim_mask(self, dim);
  const Dims shape = reduced_shape(self.view, mask, keepdim);
  check_out(out, "out", shape);
  check_out(indices, "indices", shape);
  check_nonempty_reduction(self, mask, out.numel(), is_max ? "the maximum" : "the minimum");
  const std::vector<ReduceOut> outs{ReduceOut{&out, arithmetic_dtype(self.dtype)}, ReduceOut{&indices, DType::kInt64}};
  if (is_max) plan_reduction<TypeSet::kAll>(b, "reduce.max_dim", self, mask, self.dtype, outs, MakeArg<true>{true});
  else plan_reduction<TypeSet::kAll>(b, "reduce.min_dim", self, mask, self.dtype, outs, MakeArg<false>{true});
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ArgMax, "aclnnArgMaxGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_arg(b, self, dim, keepdim, out, true); });
}

extern "C" aclnnStatus aclnnArgMinGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ArgMin, "aclnnArgMinGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_arg(b, self, dim, keepdim, out, false); });
}

extern "C" aclnnStatus aclnnMaxDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out,
                                                   aclTensor* indices, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MaxDim, "aclnnMaxDimGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_value_dim(b, self, dim, keepdim, out, indices, true); });
}

extern "C" aclnnStatus aclnnMinDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out,
                                                   aclTensor* indices, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MinDim, "aclnnMinDimGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_value_dim(b, self, dim, keepdim, out, indices, false); });
}
