// The Clamp family: out = min(max(self, lo), hi) with scalar bounds (Clamp, ClampMin, ClampMax,
// InplaceClampMax) or tensor bounds (ClampTensor, ClampMinTensor, ClampMaxTensor and their in-place
// forms), either bound optional where the API allows. As on CANN's 910B path, scalar bounds compute
// in out's dtype (self must cast to it); tensor bounds compute in the promoted dtype of self and the
// bounds, then convert to out. NaN in any operand gives NaN; lo > hi gives hi.
#include <cmath>
#include <type_traits>

#include "aclnnop/aclnn_clamp.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/registry.h"

namespace pacl {
namespace {

template <typename T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  else return false;
}

template <typename T>
struct ClampBoth {
  T operator()(T x, T lo, T hi) const {
    if (is_nan(x)) return x;
    if (is_nan(lo)) return lo;
    if (is_nan(hi)) return hi;
    const T y = x < lo ? lo : x;
    return hi < y ? hi : y;
  }
};
template <typename T>
struct ClampLo {
  T operator()(T x, T lo) const {
    if (is_nan(x)) return x;
    if (is_nan(lo)) return lo;
    return x < lo ? lo : x;
  }
};
template <typename T>
struct ClampHi {
  T operator()(T x, T hi) const {
    if (is_nan(x)) return x;
    if (is_nan(hi)) return hi;
    return hi < x ? hi : x;
  }
};

// Which bounds an entry point has: both (either may be null, not both), or exactly one.
enum class Bounds { kEither, kMin, kMax };

// Plans out = clamp(self, lo, hi) where lo/hi are inputs (tensors or scalars) or absent.
void plan_clamp_kernel(OpBuilder& b, DType compute, const aclTensor& self, const aclTensor& out, EwInput lo,
                       EwInput hi) {
  const std::string name = std::string("elementwise.") + b.op().name;
  const bool has_lo = lo.tensor || lo.scalar, has_hi = hi.tensor || hi.scalar;
  const EwInput x{&self, nullptr};
  if (has_lo && has_hi)
    plan_elementwise<3, TypeSet::kNumeric>(b, name, compute, out, std::array<EwInput, 3>{x, lo, hi},
                                           [](auto tag) { return ClampBoth<typename decltype(tag)::type>{}; });
  else if (has_lo)
    plan_elementwise<2, TypeSet::kNumeric>(b, name, compute, out, std::array<EwInput, 2>{x, lo},
                                           [](auto tag) { return ClampLo<typename decltype(tag)::type>{}; });
  else
    plan_elementwise<2, TypeSet::kNumeric>(b, name, compute, out, std::array<EwInput, 2>{x, hi},
                                           [](auto tag) { return ClampHi<typename decltype(tag)::type>{}; });
}

[[noreturn]] void no_bounds() {
  throw NullArgument("clipValueMin and clipValueMax are both null; at least one bound is required");
}

void plan_clamp_scalar(OpBuilder& b, Bounds bounds, const aclTensor* self_arg, const aclScalar* min_arg,
                       const aclScalar* max_arg, const aclTensor* out_arg, bool inplace) {
  const char* self_name = inplace ? "selfRef" : "self";
  const aclTensor& self = inplace ? b.inout(self_arg, self_name) : b.input(self_arg, self_name);
  const aclScalar* lo = (bounds == Bounds::kMin || (bounds == Bounds::kEither && min_arg))
                            ? &b.scalar(min_arg, "clipValueMin") : nullptr;
  const aclScalar* hi = (bounds == Bounds::kMax || (bounds == Bounds::kEither && max_arg))
                            ? &b.scalar(max_arg, "clipValueMax") : nullptr;
  const aclTensor& out = inplace ? self : b.output(out_arg, "out");
  const char* out_name = inplace ? self_name : "out";
  if (!lo && !hi) no_bounds();
  check_dtype_in(b.op(), self_name, self.dtype, kNumericTypes);
  check_dtype_in(b.op(), out_name, out.dtype, kNumericTypes);
  if (lo) check_dtype_supported(b.op(), "clipValueMin", lo->dtype);
  if (hi) check_dtype_supported(b.op(), "clipValueMax", hi->dtype);
  check_rank(self, self_name);
  if (out.view != self.view)
    invalid("{} has shape {}, expected the shape of {} {}", out_name, dims_str(out.view), self_name,
            dims_str(self.view));
  check_can_cast(self.dtype, out, out_name);
  plan_clamp_kernel(b, out.dtype, self, out, EwInput{nullptr, lo}, EwInput{nullptr, hi});
}

void plan_clamp_tensor(OpBuilder& b, Bounds bounds, const aclTensor* self_arg, const aclTensor* min_arg,
                       const aclTensor* max_arg, const char* max_name, const aclTensor* out_arg, bool inplace) {
  const char* self_name = inplace ? "selfRef" : "self";
  const aclTensor& self = inplace ? b.inout(self_arg, self_name) : b.input(self_arg, self_name);
  const aclTensor* lo = (bounds == Bounds::kMin || (bounds == Bounds::kEither && min_arg))
                            ? &b.input(min_arg, "clipValueMin") : nullptr;
  const aclTensor* hi = (bounds == Bounds::kMax || (bounds == Bounds::kEither && max_arg))
                            ? &b.input(max_arg, max_name) : nullptr;
  const aclTensor& out = inplace ? self : b.output(out_arg, "out");
  const char* out_name = inplace ? self_name : "out";
  if (!lo && !hi) no_bounds();
  check_dtype_in(b.op(), self_name, self.dtype, kNumericTypes);
  check_dtype_in(b.op(), out_name, out.dtype, kNumericTypes);
  if (lo) check_dtype_supported(b.op(), "clipValueMin", lo->dtype);
  if (hi) check_dtype_supported(b.op(), max_name, hi->dtype);
  DType promoted = self.dtype;
  if (lo) promoted = promote(promoted, lo->dtype);
  if (hi) promoted = promote(promoted, hi->dtype);
  if (promoted == DType::kUndefined)
    invalid("self dtype {} and the bounds' dtypes have no common dtype", dtype_name(self.dtype));
  if (!in_mask(kNumericTypes, promoted))
    invalid("the promoted dtype {} of self and the bounds is not supported by aclnn{}; supported: {}",
            dtype_name(promoted), b.op().name, mask_names(kNumericTypes));
  check_can_cast(promoted, out, out_name);
  check_rank(self, self_name);
  check_rank(out, out_name);
  Dims shape = self.view;
  if (lo) {
    check_rank(*lo, "clipValueMin");
    shape = broadcast_shapes(shape, self_name, lo->view, "clipValueMin");
  }
  if (hi) {
    check_rank(*hi, max_name);
    shape = broadcast_shapes(shape, lo ? "broadcast(self, clipValueMin)" : self_name, hi->view, max_name);
  }
  if (inplace && shape != self.view)
    invalid("{} has shape {} but broadcasting with the bounds gives {}; an in-place result cannot be broadcast",
            self_name, dims_str(self.view), dims_str(shape));
  check_shape_equals(out, out_name, shape);
  plan_clamp_kernel(b, promoted, self, out, EwInput{lo, nullptr}, EwInput{hi, nullptr});
}

}  // namespace
}  // namespace pacl

#define PACL_PHASE1(Name, ...)                                                                              \
  pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor,              \
                   [&](pacl::OpBuilder& b) { __VA_ARGS__; })

using pacl::Bounds;

extern "C" {

aclnnStatus aclnnClampGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMin,
                                       const aclScalar* clipValueMax, aclTensor* out, uint64_t* workspaceSize,
                                       aclOpExecutor** executor) {
  return PACL_PHASE1(Clamp, pacl::plan_clamp_scalar(b, Bounds::kEither, self, clipValueMin, clipValueMax, out, false));
}
aclnnStatus aclnnClampMinGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMin, aclTensor* out,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(ClampMin, pacl::plan_clamp_scalar(b, Bounds::kMin, self, clipValueMin, nullptr, out, false));
}
aclnnStatus aclnnClampMaxGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMax, aclTensor* out,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(ClampMax, pacl::plan_clamp_scalar(b, Bounds::kMax, self, nullptr, clipValueMax, out, false));
}
aclnnStatus aclnnInplaceClampMaxGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* clipValueMax,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceClampMax,
                     pacl::plan_clamp_scalar(b, Bounds::kMax, selfRef, nullptr, clipValueMax, selfRef, true));
}

aclnnStatus aclnnClampTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* clipValueMin,
                                             const aclTensor* clipValueMax, aclTensor* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PACL_PHASE1(ClampTensor, pacl::plan_clamp_tensor(b, Bounds::kEither, self, clipValueMin, clipValueMax,
                                                          "clipValueMax", out, false));
}
aclnnStatus aclnnClampMinTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* clipValueMin, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(ClampMinTensor,
                     pacl::plan_clamp_tensor(b, Bounds::kMin, self, clipValueMin, nullptr, "max", out, false));
}
aclnnStatus aclnnInplaceClampMinTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* clipValueMin,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceClampMinTensor,
                     pacl::plan_clamp_tensor(b, Bounds::kMin, selfRef, clipValueMin, nullptr, "max", selfRef, true));
}
aclnnStatus aclnnClampMaxTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* max, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(ClampMaxTensor, pacl::plan_clamp_tensor(b, Bounds::kMax, self, nullptr, max, "max", out, false));
}
aclnnStatus aclnnInplaceClampMaxTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* max,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceClampMaxTensor,
                     pacl::plan_clamp_tensor(b, Bounds::kMax, selfRef, nullptr, max, "max", selfRef, true));
}

}  // extern "C"
