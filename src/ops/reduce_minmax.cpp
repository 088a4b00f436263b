// Extremes and predicates: Amax, Amin, Max, Min, MaxV2, GlobalMaxPool, Aminmax, AminmaxAll,
// AminmaxDim, Any, All. A NaN anywhere in a slice makes its max and min NaN (PyTorch). Max and min
// have no identity: reducing zero elements into a non-empty output is an error, as in PyTorch.
#include "aclnnop/aclnn_all.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_aminmax.h"
#include "aclnnop/aclnn_aminmax_all.h"
#include "aclnnop/aclnn_aminmax_dim.h"
#include "aclnnop/aclnn_any.h"
#include "aclnnop/aclnn_global_max_pool.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_max_v2.h"
#include "aclnnop/aclnn_min.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/reduce.h"
#include "ops/registry.h"
#include "runtime/status.h"

namespace pacl {
namespace {

template <typename T>
constexpr T lowest_value() {
  if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::lowest();
}
template <typename T>
constexpr T highest_value() {
  if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::max();
}

// acc after folding x: the larger (kMax) or smaller, a NaN sticking once seen.
template <bool kMax, typename T>
inline T pick(T acc, T x) {
  if constexpr (std::is_floating_point_v<T>) return ((kMax ? x > acc : x < acc) || x != x) ? x : acc;
  else return (kMax ? x > acc : x < acc) ? x : acc;
}

enum MinMaxMode { kMinOnly = 1, kMaxOnly = 2, kBoth = 3 };

template <typename T, int Mode>
struct MinMaxReducer {
  struct Acc {
    T lo = highest_value<T>(), hi = lowest_value<T>();
  };
  T* lo_out;
  T* hi_out;

  Acc init() const { return Acc{}; }
  void row(Acc& a, const T* x, int64_t n, int64_t) const {
    T lo[kLanes], hi[kLanes];
    for (int j = 0; j < kLanes; ++j) {
      lo[j] = a.lo;
      hi[j] = a.hi;
    }
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
      for (int j = 0; j < kLanes; ++j) {
        if constexpr ((Mode & kMinOnly) != 0) lo[j] = pick<false>(lo[j], x[i + j]);
        if constexpr ((Mode & kMaxOnly) != 0) hi[j] = pick<true>(hi[j], x[i + j]);
      }
    for (; i < n; ++i) {
      lo[0] = pick<false>(lo[0], x[i]);
      hi[0] = pick<true>(hi[0], x[i]);
    }
    for (int j = 0; j < kLanes; ++j) {
      a.lo = pick<false>(a.lo, lo[j]);
      a.hi = pick<true>(a.hi, hi[j]);
    }
  }
  void col(Acc* a, const T* x, int64_t w, int64_t) const {
    for (int64_t i = 0; i < w; ++i) {
      if constexpr ((Mode & kMinOnly) != 0) a[i].lo = pick<false>(a[i].lo, x[i]);
      if constexpr ((Mode & kMaxOnly) != 0) a[i].hi = pick<true>(a[i].hi, x[i]);
    }
  }
  void merge(Acc& a, const Acc& b) const {
    a.lo = pick<false>(a.lo, b.lo);
    a.hi = pick<true>(a.hi, b.hi);
  }
  void store(int64_t pos, const Acc& a, int64_t) const {
    if constexpr ((Mode & kMinOnly) != 0) lo_out[pos] = a.lo;
    if constexpr ((Mode & kMaxOnly) != 0) hi_out[pos] = a.hi;
  }
};

template <int Mode>
struct MakeMinMax {
  template <typename Tag>
  auto operator()(Tag, const DenseArgs& a, const std::vector<int>& ids) const {
    using T = typename Tag::type;
    T* lo = (Mode & kMinOnly) != 0 ? a.out<T>(ids[0]) : nullptr;
    T* hi = Mode == kMaxOnly ? a.out<T>(ids[0]) : Mode == kBoth ? a.out<T>(ids[1]) : nullptr;
    return MinMaxReducer<T, Mode>{lo, hi};
  }
};

template <typename T, bool kAll>
struct AnyAllReducer {
  using Acc = uint8_t;
  bool* out;

  Acc init() const { return kAll ? 1 : 0; }
  void row(Acc& a, const T* x, int64_t n, int64_t) const {
    uint8_t lane[kLanes];
    for (auto& l : lane) l = a;
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
      for (int j = 0; j < kLanes; ++j) {
        if constexpr (kAll) lane[j] &= static_cast<uint8_t>(x[i + j] != T(0));
        else lane[j] |= static_cast<uint8_t>(x[i + j] != T(0));
      }
    for (; i < n; ++i) {
      if constexpr (kAll) lane[0] &= static_cast<uint8_t>(x[i] != T(0));
      else lane[0] |= static_cast<uint8_t>(x[i] != T(0));
    }
    for (int j = 0; j < kLanes; ++j) {
      if constexpr (kAll) a &= lane[j];
      else a |= lane[j];
    }
  }
  void col(Acc* a, const T* x, int64_t w, int64_t) const {
    for (int64_t i = 0; i < w; ++i) {
      if constexpr (kAll) a[i] &= static_cast<uint8_t>(x[i] != T(0));
      else a[i] |= static_cast<uint8_t>(x[i] != T(0));
    }
  }
  void merge(Acc& a, const Acc& b) const {
    if constexpr (kAll) a &= b;
    else a |= b;
  }
  void store(int64_t pos, const Acc& a, int64_t) const { out[pos] = a != 0; }
};

template <bool kAll>
struct MakeAnyAll {
  template <typename Tag>
  auto operator()(Tag, const DenseArgs& a, const std::vector<int>& ids) const {
    using T = typename Tag::type;
    return AnyAllReducer<T, kAll>{a.out<bool>(ids[0])};
  }
};

constexpr DTypeMask kMinMaxTypes = kAllTypes;
constexpr DTypeMask kPoolTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kDouble});

void check_same_dtype(const aclTensor& out, const char* out_name, const aclTensor& self) {
  if (out.dtype != self.dtype)
    invalid("{} has dtype {}, expected the dtype of self ({})", out_name, dtype_name(out.dtype), dtype_name(self.dtype));
}

// Plans the extremes of self over mask into lo (min) and/or hi (max), both of self's dtype.
void plan_extremes(OpBuilder& b, const aclTensor& self, const std::vector<bool>& mask, const aclTensor* lo,
                   const aclTensor* hi, const char* what) {
  const aclTensor& first = lo ? *lo : *hi;
  check_nonempty_reduction(self, mask, first.numel(), what);
  const DType t = arithmetic_dtype(self.dtype);
  std::vector<ReduceOut> outs;
  if (lo) outs.push_back(ReduceOut{lo, t});
  if (hi) outs.push_back(ReduceOut{hi, t});
  if (lo && hi) plan_reduction<TypeSet::kAll>(b, "reduce.aminmax", self, mask, self.dtype, outs, MakeMinMax<kBoth>{});
  else if (lo) plan_reduction<TypeSet::kAll>(b, "reduce.min", self, mask, self.dtype, outs, MakeMinMax<kMinOnly>{});
  else plan_reduction<TypeSet::kAll>(b, "reduce.max", self, mask, self.dtype, outs, MakeMinMax<kMaxOnly>{});
}

void check_out_shape(const aclTensor& out, const char* out_name, const aclTensor& self, const std::vector<bool>& mask,
                     bool keepdim) {
  check_rank(out, out_name);
  check_shape_equals(out, out_name, reduced_shape(self.view, mask, keepdim), "self's shape reduced over the dims:");
}

// Amax / Amin / MaxV2: a dims list, out of self's dtype.
void plan_amax_amin(OpBuilder& b, const aclTensor* self_arg, const aclIntArray* dim_arg, const char* dim_name,
                    bool keepdim, bool empty_means_all, const aclTensor* out_arg, bool is_max) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray& dim = b.int_array(dim_arg, dim_name);
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kMinMaxTypes);
  check_same_dtype(out, "out", self);
  check_rank(self, "self");
  const std::vector<bool> mask = reduce_mask(dim.values, self.dim(), dim_name, empty_means_all);
  check_out_shape(out, "out", self, mask, keepdim);
  plan_extremes(b, self, mask, is_max ? nullptr : &out, is_max ? &out : nullptr, is_max ? "the maximum" : "the minimum");
}

// Max / Min of every element: out holds one element.
void plan_all_elements(OpBuilder& b, const aclTensor* self_arg, const aclTensor* out_arg, bool is_max) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kMinMaxTypes);
  check_same_dtype(out, "out", self);
  check_rank(self, "self");
  if (out.numel() != 1 || out.dim() > 1)
    invalid("out has shape {}, expected [] or [1] (one element for all of self)", dims_str(out.view));
  const std::vector<bool> mask = all_dims_mask(self.dim());
  plan_extremes(b, self, mask, is_max ? nullptr : &out, is_max ? &out : nullptr, is_max ? "the maximum" : "the minimum");
}

void plan_global_max_pool(OpBuilder& b, const aclTensor* self_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kPoolTypes);
  check_same_dtype(out, "out", self);
  if (self.dim() < 4 || self.dim() > 8)
    invalid("self has {} dims ({}), expected 4 to 8 (N, C and spatial dims)", self.dim(), self.describe());
  std::vector<bool> mask = all_dims_mask(self.dim());
  mask[0] = mask[1] = false;
  check_shape_equals(out, "out", reduced_shape(self.view, mask, true), "self's shape with the spatial dims set to 1:");
  plan_extremes(b, self, mask, nullptr, &out, "the maximum");
}

enum class AminmaxForm { kDims, kAll, kDim };

void plan_aminmax(OpBuilder& b, AminmaxForm form, const aclTensor* self_arg, const aclIntArray* dims_arg, int64_t dim,
                  bool keepdim, const aclTensor* min_arg, const aclTensor* max_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray* dims = form == AminmaxForm::kDims ? &b.int_array(dims_arg, "dim") : nullptr;
  const aclTensor& lo = b.output(min_arg, "minOut");
  const aclTensor& hi = b.output(max_arg, "maxOut");
  check_dtype_in(b.op(), "self", self.dtype, kMinMaxTypes);
  check_same_dtype(lo, "minOut", self);
  check_same_dtype(hi, "maxOut", self);
  check_rank(self, "self");
  std::vector<bool> mask = all_dims_mask(self.dim());
  if (form == AminmaxForm::kDim) {
    mask.assign(static_cast<size_t>(self.dim()), false);
    const int64_t d = wrap_dim(dim, self.dim(), "dim");
    if (self.dim() > 0) mask[static_cast<size_t>(d)] = true;
  } else if (form == AminmaxForm::kDims) {
    mask = reduce_mask(dims->values, self.dim(), "dim", true);
  }
  if (form == AminmaxForm::kAll) {
    for (const aclTensor* t : {&lo, &hi})
      if (t->numel() != 1 || t->dim() > 1)
        invalid("{} has shape {}, expected [] or [1] (one element for all of self)", t == &lo ? "minOut" : "maxOut",
                dims_str(t->view));
  } else {
    check_out_shape(lo, "minOut", self, mask, keepdim);
    check_out_shape(hi, "maxOut", self, mask, keepdim);
  }
  plan_extremes(b, self, mask, &lo, &hi, "the minimum and maximum");
}

void plan_any_all(OpBuilder& b, const aclTensor* self_arg, const aclIntArray* dim_arg, bool keepdim,
                  const aclTensor* out_arg, bool is_all) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray& dim = b.int_array(dim_arg, "dim");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kAllTypes);
  check_dtype_in(b.op(), "out", out.dtype, dtype_mask({DType::kBool, DType::kUInt8}));
  check_rank(self, "self");
  const std::vector<bool> mask = reduce_mask(dim.values, self.dim(), "dim", true);
  check_out_shape(out, "out", self, mask, keepdim);
  const std::vector<ReduceOut> outs{ReduceOut{&out, DType::kBool}};
  if (is_all) plan_reduction<TypeSet::kAll>(b, "reduce.all", self, mask, self.dtype, outs, MakeAnyAll<true>{});
  else plan_reduction<TypeSet::kAll>(b, "reduce.any", self, mask, self.dtype, outs, MakeAnyAll<false>{});
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                 aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Amax, "aclnnAmaxGetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) {
    pacl::plan_amax_amin(b, self, dim, "dim", keepDim, true, out, true);
  });
}

extern "C" aclnnStatus aclnnAminGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                 aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Amin, "aclnnAminGetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) {
    pacl::plan_amax_amin(b, self, dim, "dim", keepDim, true, out, false);
  });
}

extern "C" aclnnStatus aclnnMaxV2GetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, bool keepDims,
                                                  bool noopWithEmptyDims, aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MaxV2, "aclnnMaxV2GetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) {
    pacl::plan_amax_amin(b, self, dims, "dims", keepDims, !noopWithEmptyDims, out, true);
  });
}

extern "C" aclnnStatus aclnnMaxGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Max, "aclnnMaxGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_all_elements(b, self, out, true); });
}

extern "C" aclnnStatus aclnnMinGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Min, "aclnnMinGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_all_elements(b, self, out, false); });
}

extern "C" aclnnStatus aclnnGlobalMaxPoolGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_GlobalMaxPool, "aclnnGlobalMaxPoolGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_global_max_pool(b, self, out); });
}

extern "C" aclnnStatus aclnnAminmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                    aclTensor* minOut, aclTensor* maxOut, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Aminmax, "aclnnAminmaxGetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) {
    pacl::plan_aminmax(b, pacl::AminmaxForm::kDims, self, dim, 0, keepDim, minOut, maxOut);
  });
}

extern "C" aclnnStatus aclnnAminmaxAllGetWorkspaceSize(const aclTensor* self, aclTensor* minOut, aclTensor* maxOut,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AminmaxAll, "aclnnAminmaxAllGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_aminmax(b, pacl::AminmaxForm::kAll, self, nullptr, 0, false, minOut, maxOut); });
}

extern "C" aclnnStatus aclnnAminmaxDimGetWorkspaceSize(const aclTensor* self, const int64_t dim, bool keepDim,
                                                       aclTensor* minOut, aclTensor* maxOut, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_AminmaxDim, "aclnnAminmaxDimGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_aminmax(b, pacl::AminmaxForm::kDim, self, nullptr, dim, keepDim, minOut, maxOut); });
}

extern "C" aclnnStatus aclnnAnyGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim,
                                                aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Any, "aclnnAnyGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_any_all(b, self, dim, keepdim, out, false); });
}

extern "C" aclnnStatus aclnnAllGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim,
                                                aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_All, "aclnnAllGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_any_all(b, self, dim, keepdim, out, true); });
}
