// Sum-like reductions: ReduceSum, Mean, MeanV2, GlobalAveragePool, ReduceNansum, ReduceLogSum,
// Prod, ProdDim. Sums of floating values fold kLanes float accumulators per block of
// kReduceBlock elements (32 terms each) and add the block sums in double; integer sums
// wrap as PyTorch's do (accumulated modulo 2^64, then narrowed).
#include <cmath>

#include "aclnnop/aclnn_global_average_pool.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_reduce_log_sum.h"
#include "aclnnop/aclnn_reduce_nansum.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/reduce.h"
#include "ops/registry.h"
#include "runtime/status.h"

namespace pacl {
namespace {

enum class SumKind { kSum, kNanSum, kMean, kLogSum };

template <typename T, SumKind K>
struct SumReducer {
  using Acc = wide_t<T>;
  T* out;

  static T term(T v) {
    if constexpr (K == SumKind::kNanSum && std::is_floating_point_v<T>) return v != v ? T(0) : v;
    else return v;
  }
  Acc init() const { return 0; }
  void row(Acc& a, const T* x, int64_t n, int64_t) const {
    if constexpr (std::is_floating_point_v<T>) {
      a += lane_sum<T>(x, n, [](T v) { return term(v); });
    } else {
      a += lane_sum<uint64_t>(x, n, [](T v) { return static_cast<uint64_t>(static_cast<int64_t>(v)); });
    }
  }
  void col(Acc* a, const T* x, int64_t w, int64_t) const {
    for (int64_t i = 0; i < w; ++i) {
      if constexpr (std::is_floating_point_v<T>) a[i] += term(x[i]);
      else a[i] += static_cast<uint64_t>(static_cast<int64_t>(x[i]));
    }
  }
  void merge(Acc& a, const Acc& b) const { a += b; }
  void store(int64_t pos, const Acc& a, int64_t n) const {
    if constexpr (K == SumKind::kMean) {
      if constexpr (std::is_floating_point_v<T>) out[pos] = static_cast<T>(a / static_cast<double>(n));
      else out[pos] = n == 0 ? T(0) : convert_value<T>(static_cast<double>(static_cast<int64_t>(a)) / static_cast<double>(n));
    } else if constexpr (K == SumKind::kLogSum) {
      out[pos] = n == 0 ? T(0) : static_cast<T>(std::log(a));  // CANN fills an empty reduction with 0
    } else {
      out[pos] = narrow<T>(a);
    }
  }
};

template <typename T>
struct ProdReducer {
  using Acc = std::conditional_t<std::is_floating_point_v<T>, T, uint64_t>;
  T* out;

  Acc init() const { return 1; }
  static Acc term(T v) {
    if constexpr (std::is_floating_point_v<T>) return v;
    else return static_cast<uint64_t>(static_cast<int64_t>(v));
  }
  void row(Acc& a, const T* x, int64_t n, int64_t) const {
    Acc lane[kLanes];
    for (auto& l : lane) l = 1;
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
      for (int j = 0; j < kLanes; ++j) lane[j] *= term(x[i + j]);
    for (; i < n; ++i) lane[0] *= term(x[i]);
    for (int w = kLanes / 2; w > 0; w /= 2)
      for (int j = 0; j < w; ++j) lane[j] *= lane[j + w];
    a *= lane[0];
  }
  void col(Acc* a, const T* x, int64_t w, int64_t) const {
    for (int64_t i = 0; i < w; ++i) a[i] *= term(x[i]);
  }
  void merge(Acc& a, const Acc& b) const { a *= b; }
  void store(int64_t pos, const Acc& a, int64_t) const { out[pos] = narrow<T>(a); }
};

template <SumKind K>
struct MakeSum {
  template <typename Tag>
  auto operator()(Tag, const DenseArgs& a, const std::vector<int>& ids) const {
    using T = typename Tag::type;
    return SumReducer<T, K>{a.out<T>(ids[0])};
  }
};

struct MakeProd {
  template <typename Tag>
  auto operator()(Tag, const DenseArgs& a, const std::vector<int>& ids) const {
    using T = typename Tag::type;
    return ProdReducer<T>{a.out<T>(ids[0])};
  }
};

// The output of a reduction computed in `compute`: written in its arithmetic type, rounded to a
// 16-bit compute dtype, then converted to out's dtype.
std::vector<ReduceOut> one_out(const aclTensor& out, DType compute) {
  const bool is16 = compute == DType::kFloat16 || compute == DType::kBFloat16;
  return {ReduceOut{&out, arithmetic_dtype(compute), is16 ? compute : DType::kUndefined}};
}

constexpr DTypeMask kSumTypes = kAllTypes;  // complex: not supported here yet
constexpr DTypeMask kMeanTypes = kNumericTypes;
constexpr DTypeMask kNansumTypes = dtype_mask({DType::kFloat16, DType::kFloat, DType::kInt8, DType::kInt16,
                                               DType::kInt32, DType::kInt64, DType::kUInt8, DType::kBool,
                                               DType::kBFloat16});
constexpr DTypeMask kLogSumTypes = dtype_mask({DType::kFloat16, DType::kFloat, DType::kBFloat16});
constexpr DTypeMask kPoolTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kDouble, DType::kBFloat16});

void check_dtype_arg(const OpInfo& op, DType dtype, DTypeMask allowed) {
  check_dtype_in(op, "dtype", dtype, allowed);
}

void check_out_dtype_is(const aclTensor& out, const char* out_name, DType dtype) {
  if (out.dtype != dtype)
    invalid("{} has dtype {}, expected the dtype argument ({})", out_name, dtype_name(out.dtype), dtype_name(dtype));
}

void check_self_can_cast(DType from, DType to, const char* what) {
  if (!can_cast(from, to)) invalid("self dtype {} cannot be cast to {} {}", dtype_name(from), what, dtype_name(to));
}

// Common tail of the dim-list reductions: rank, dims, out shape.
std::vector<bool> plan_dims(const aclTensor& self, const aclIntArray& dims, const char* dims_name, bool keepdim,
                            const aclTensor& out, const char* out_name, bool empty_means_all) {
  check_rank(self, "self");
  check_rank(out, out_name);
  const std::vector<bool> mask = reduce_mask(dims.values, self.dim(), dims_name, empty_means_all);
  check_shape_equals(out, out_name, reduced_shape(self.view, mask, keepdim), "self's shape reduced over the dims:");
  return mask;
}

void plan_reduce_sum(OpBuilder& b, const aclTensor* self_arg, const aclIntArray* dims_arg, bool keepdim, int32_t dtype_arg,
                     const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray& dims = b.int_array(dims_arg, "dims");
  const aclTensor& out = b.output(out_arg, "out");
  const DType dtype = static_cast<DType>(dtype_arg);
  check_dtype_in(b.op(), "self", self.dtype, kSumTypes);
  check_dtype_in(b.op(), "out", out.dtype, kSumTypes);
  check_dtype_arg(b.op(), dtype, kSumTypes);
  check_out_dtype_is(out, "out", dtype);
  const std::vector<bool> mask = plan_dims(self, dims, "dims", keepdim, out, "out", true);
  plan_reduction<TypeSet::kAll>(b, "reduce.sum", self, mask, dtype, one_out(out, dtype), MakeSum<SumKind::kSum>{});
}

void plan_mean(OpBuilder& b, const aclTensor& self, const std::vector<bool>& mask, DType compute, const aclTensor& out) {
  plan_reduction<TypeSet::kNumeric>(b, "reduce.mean", self, mask, compute, one_out(out, compute),
                                    MakeSum<SumKind::kMean>{});
}

void plan_mean_dtype(OpBuilder& b, const aclTensor* self_arg, const aclIntArray* dim_arg, bool keepdim, int32_t dtype_arg,
                     const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray& dim = b.int_array(dim_arg, "dim");
  const aclTensor& out = b.output(out_arg, "out");
  const DType dtype = static_cast<DType>(dtype_arg);
  check_dtype_in(b.op(), "self", self.dtype, kMeanTypes);
  check_dtype_arg(b.op(), dtype, kMeanTypes);
  check_dtype_in(b.op(), "out", out.dtype, kMeanTypes);
  check_self_can_cast(self.dtype, dtype, "the dtype argument");
  if (!can_cast(dtype, out.dtype))
    invalid("the dtype argument {} cannot be cast to out's dtype {}", dtype_name(dtype), dtype_name(out.dtype));
  const std::vector<bool> mask = plan_dims(self, dim, "dim", keepdim, out, "out", true);
  plan_mean(b, self, mask, dtype, out);
}

void plan_mean_v2(OpBuilder& b, const aclTensor* self_arg, const aclIntArray* dim_arg, bool keepdim, bool noop_empty,
                  const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray& dim = b.int_array(dim_arg, "dim");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kMeanTypes);
  check_dtype_in(b.op(), "out", out.dtype, kMeanTypes);
  if (out.dtype != self.dtype)
    invalid("out has dtype {}, expected the dtype of self ({})", dtype_name(out.dtype), dtype_name(self.dtype));
  const std::vector<bool> mask = plan_dims(self, dim, "dim", keepdim, out, "out", !noop_empty);
  plan_mean(b, self, mask, self.dtype, out);
}

void plan_global_average_pool(OpBuilder& b, const aclTensor* self_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kPoolTypes);
  if (out.dtype != self.dtype)
    invalid("out has dtype {}, expected the dtype of self ({})", dtype_name(out.dtype), dtype_name(self.dtype));
  if (self.dim() < 4 || self.dim() > 8)
    invalid("self has {} dims ({}), expected 4 to 8 (N, C and spatial dims)", self.dim(), self.describe());
  std::vector<bool> mask = all_dims_mask(self.dim());
  mask[0] = mask[1] = false;
  check_shape_equals(out, "out", reduced_shape(self.view, mask, true), "self's shape with the spatial dims set to 1:");
  plan_mean(b, self, mask, self.dtype, out);
}

void plan_reduce_nansum(OpBuilder& b, const aclTensor* self_arg, const aclIntArray* dim_arg, bool keepdim,
                        int32_t dtype_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray& dim = b.int_array(dim_arg, "dim");
  const aclTensor& out = b.output(out_arg, "out");
  const DType dtype = static_cast<DType>(dtype_arg);
  check_dtype_in(b.op(), "self", self.dtype, kNansumTypes);
  check_dtype_in(b.op(), "out", out.dtype, kNansumTypes);
  check_dtype_arg(b.op(), dtype, kNansumTypes);
  check_out_dtype_is(out, "out", dtype);
  check_self_can_cast(self.dtype, dtype, "the dtype argument");
  const std::vector<bool> mask = plan_dims(self, dim, "dim", keepdim, out, "out", true);
  plan_reduction<TypeSet::kAll>(b, "reduce.nansum", self, mask, dtype, one_out(out, dtype),
                                MakeSum<SumKind::kNanSum>{});
}

void plan_reduce_log_sum(OpBuilder& b, const aclTensor* data_arg, const aclIntArray* axes_arg, bool keepdim,
                         bool noop_empty, const aclTensor* reduce_arg) {
  const aclTensor& data = b.input(data_arg, "data");
  const aclIntArray& axes = b.int_array(axes_arg, "axes");
  const aclTensor& out = b.output(reduce_arg, "reduce");
  check_dtype_in(b.op(), "data", data.dtype, kLogSumTypes);
  if (out.dtype != data.dtype)
    invalid("reduce has dtype {}, expected the dtype of data ({})", dtype_name(out.dtype), dtype_name(data.dtype));
  check_rank(data, "data");
  check_rank(out, "reduce");
  const std::vector<bool> mask = reduce_mask(axes.values, data.dim(), "axes", !noop_empty);
  check_shape_equals(out, "reduce", reduced_shape(data.view, mask, keepdim), "data's shape reduced over the axes:");
  if (noop_empty && axes.values.empty())  // CANN copies data unchanged (no log)
    plan_reduction<TypeSet::kFloating>(b, "reduce.copy", data, mask, data.dtype, one_out(out, data.dtype),
                                       MakeSum<SumKind::kSum>{});
  else
    plan_reduction<TypeSet::kFloating>(b, "reduce.log_sum", data, mask, data.dtype, one_out(out, data.dtype),
                                       MakeSum<SumKind::kLogSum>{});
}

constexpr DTypeMask kProdTypes = kAllTypes;

void plan_prod(OpBuilder& b, const aclTensor* self_arg, bool has_dim, int64_t dim, bool keepdim, int32_t dtype_arg,
               const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  const DType dtype = static_cast<DType>(dtype_arg);
  check_dtype_in(b.op(), "self", self.dtype, kProdTypes);
  check_dtype_arg(b.op(), dtype, kProdTypes);
  check_dtype_in(b.op(), "out", out.dtype, kProdTypes);
  check_out_dtype_is(out, "out", dtype);
  check_self_can_cast(self.dtype, dtype, "the dtype argument");
  check_rank(self, "self");
  check_rank(out, "out");
  std::vector<bool> mask = all_dims_mask(self.dim());
  if (has_dim) {
    mask.assign(static_cast<size_t>(self.dim()), false);
    const int64_t d = wrap_dim(dim, self.dim(), "dim");
    if (self.dim() > 0) mask[static_cast<size_t>(d)] = true;
    check_shape_equals(out, "out", reduced_shape(self.view, mask, keepdim), "self's shape reduced over dim:");
  } else if (out.numel() != 1) {
    invalid("out has shape {}, expected a single element (the product of all of self)", dims_str(out.view));
  }
  plan_reduction<TypeSet::kAll>(b, "reduce.prod", self, mask, dtype, one_out(out, dtype), MakeProd{});
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, bool keepDims,
                                                      aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ReduceSum, "aclnnReduceSumGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_reduce_sum(b, self, dims, keepDims, dtype, out); });
}

extern "C" aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                 aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Mean, "aclnnMeanGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_mean_dtype(b, self, dim, keepDim, dtype, out); });
}

extern "C" aclnnStatus aclnnMeanV2GetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                   bool noopWithEmptyAxes, aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MeanV2, "aclnnMeanV2GetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_mean_v2(b, self, dim, keepDim, noopWithEmptyAxes, out); });
}

extern "C" aclnnStatus aclnnGlobalAveragePoolGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_GlobalAveragePool, "aclnnGlobalAveragePoolGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_global_average_pool(b, self, out); });
}

extern "C" aclnnStatus aclnnReduceNansumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                         aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ReduceNansum, "aclnnReduceNansumGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_reduce_nansum(b, self, dim, keepDim, dtype, out); });
}

extern "C" aclnnStatus aclnnReduceLogSumGetWorkspaceSize(const aclTensor* data, const aclIntArray* axes, bool keepDims,
                                                         bool noopWithEmptyAxes, aclTensor* reduce,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ReduceLogSum, "aclnnReduceLogSumGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_reduce_log_sum(b, data, axes, keepDims, noopWithEmptyAxes, reduce);
                          });
}

extern "C" aclnnStatus aclnnProdGetWorkspaceSize(const aclTensor* self, const aclDataType dtype, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Prod, "aclnnProdGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_prod(b, self, false, 0, false, dtype, out); });
}

extern "C" aclnnStatus aclnnProdDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepDim,
                                                    const aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ProdDim, "aclnnProdDimGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_prod(b, self, true, dim, keepDim, dtype, out); });
}
