// Ternary arithmetic: Lerp (tensor weight), Lerps (scalar weight), Addcmul and Addcdiv, each with its
// in-place form. The three tensors broadcast together (the shape of three inputs is the broadcast of
// the first two, broadcast with the third); scalars (weight, value) are rounded to the compute dtype
// first, as CANN converts them to a tensor of that dtype, then widened to the arithmetic type.
#include <cmath>
#include <cstdlib>
#include <type_traits>

#include "aclnnop/aclnn_addcdiv.h"
#include "aclnnop/aclnn_addcmul.h"
#include "aclnnop/aclnn_lerp_scalar.h"
#include "aclnnop/aclnn_lerp_tensor.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/functors.h"
#include "ops/registry.h"

namespace pacl {
namespace {

// The scalar rounded to dtype `compute`, then widened to T.
template <typename T>
T rounded_scalar(const aclScalar& s, DType compute) {
  return visit_dtype(compute, [&](auto ctag) {
    using C = typename decltype(ctag)::type;
    return convert_value<T>(scalar_value<C>(s));
  });
}

bool all_contiguous(std::initializer_list<const aclTensor*> ts) {
  for (const aclTensor* t : ts)
    if (t && !t->is_contiguous()) return false;
  return true;
}

// ---- Lerp / Lerps -------------------------------------------------------------------------------

inline constexpr DTypeMask kLerpTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});
inline constexpr DTypeMask kLerpsOutTypes = kLerpTypes | dtype_mask({DType::kDouble});

void check_same_dtype(const aclTensor& t, const char* arg, DType expected, const char* ref_name) {
  if (t.dtype != expected)
    invalid("{} dtype {} must equal {} dtype {}", arg, dtype_name(t.dtype), ref_name, dtype_name(expected));
}

// weight_t for Lerp, weight_s for Lerps.
void plan_lerp(OpBuilder& b, const aclTensor* self_arg, const aclTensor* end_arg, const aclTensor* weight_t_arg,
               const aclScalar* weight_s_arg, bool scalar_form, const aclTensor* out_arg, bool inplace) {
  const char* self_name = inplace ? "selfRef" : "self";
  const aclTensor& self = inplace ? b.inout(self_arg, self_name) : b.input(self_arg, self_name);
  const aclTensor& end = b.input(end_arg, "end");
  const aclTensor* weight = scalar_form ? nullptr : &b.input(weight_t_arg, "weight");
  const aclScalar* weight_s = scalar_form ? &b.scalar(weight_s_arg, "weight") : nullptr;
  const aclTensor& out = inplace ? self : b.output(out_arg, "out");
  const char* out_name = inplace ? self_name : "out";

  check_dtype_in(b.op(), self_name, self.dtype, kLerpTypes);
  check_dtype_in(b.op(), "end", end.dtype, kLerpTypes);
  check_same_dtype(end, "end", self.dtype, self_name);
  if (weight) check_same_dtype(*weight, "weight", self.dtype, self_name);
  if (scalar_form) {
    check_dtype_in(b.op(), out_name, out.dtype, kLerpsOutTypes);
    check_dtype_supported(b.op(), "weight", weight_s->dtype);
    if (!can_cast(weight_s->dtype, self.dtype))
      invalid("weight dtype {} cannot be cast to {} dtype {}", dtype_name(weight_s->dtype), self_name,
              dtype_name(self.dtype));
  } else {
    check_same_dtype(out, out_name, self.dtype, self_name);
  }

  // CANN enforces the rank limit only when some operand is not contiguous.
  if (!all_contiguous({&self, &end, weight, &out})) {
    check_rank(self, self_name);
    check_rank(end, "end");
    if (weight) check_rank(*weight, "weight");
  }
  Dims shape = broadcast_shapes(self.view, self_name, end.view, "end");
  if (weight) shape = broadcast_shapes(shape, "broadcast(self, end)", weight->view, "weight");
  if (inplace && shape != self.view)
    invalid("{} has shape {} but broadcasting with end/weight gives {}; an in-place result cannot be broadcast",
            self_name, dims_str(self.view), dims_str(shape));
  check_shape_equals(out, out_name, shape);

  const std::string name = std::string("elementwise.") + b.op().name;
  const EwInput s{&self, nullptr}, e{&end, nullptr};
  if (weight) {
    plan_elementwise<3, TypeSet::kFloating>(b, name, self.dtype, out, std::array<EwInput, 3>{s, e, {weight, nullptr}},
                                            [](auto tag) { return LerpOp<typename decltype(tag)::type>{}; });
  } else {
    plan_elementwise<2, TypeSet::kFloating>(b, name, self.dtype, out, std::array<EwInput, 2>{s, e}, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return LerpScalarOp<T>{rounded_scalar<T>(*weight_s, self.dtype)};
    });
  }
}

// ---- Addcmul / Addcdiv --------------------------------------------------------------------------

inline constexpr DTypeMask kAddcmulTypes =
    kFloatingTypes | dtype_mask({DType::kInt32, DType::kInt64, DType::kInt8, DType::kUInt8});
inline constexpr DTypeMask kAddcdivTypes = kFloatingTypes | dtype_mask({DType::kInt64});

void plan_addc(OpBuilder& b, bool div, const aclTensor* self_arg, const aclTensor* t1_arg, const aclTensor* t2_arg,
               const aclScalar* value_arg, const aclTensor* out_arg, bool inplace) {
  const DTypeMask allowed = div ? kAddcdivTypes : kAddcmulTypes;
  const char* self_name = inplace ? "selfRef" : "self";
  const aclTensor& self = inplace ? b.inout(self_arg, self_name) : b.input(self_arg, self_name);
  const aclTensor& t1 = b.input(t1_arg, "tensor1");
  const aclTensor& t2 = b.input(t2_arg, "tensor2");
  const aclScalar& value = b.scalar(value_arg, "value");
  const aclTensor& out = inplace ? self : b.output(out_arg, "out");
  const char* out_name = inplace ? self_name : "out";

  check_dtype_in(b.op(), self_name, self.dtype, allowed);
  check_dtype_in(b.op(), "tensor1", t1.dtype, allowed);
  check_dtype_in(b.op(), "tensor2", t2.dtype, allowed);
  check_dtype_in(b.op(), out_name, out.dtype, allowed);
  check_dtype_supported(b.op(), "value", value.dtype);
  const DType promoted = promote(self.dtype, promote(t1.dtype, t2.dtype));
  if (promoted == DType::kUndefined)
    invalid("self dtype {}, tensor1 dtype {} and tensor2 dtype {} have no common dtype", dtype_name(self.dtype),
            dtype_name(t1.dtype), dtype_name(t2.dtype));
  if (!in_mask(allowed, promoted))
    invalid("the promoted dtype {} of self ({}), tensor1 ({}) and tensor2 ({}) is not supported by aclnn{}; "
            "supported: {}",
            dtype_name(promoted), dtype_name(self.dtype), dtype_name(t1.dtype), dtype_name(t2.dtype), b.op().name,
            mask_names(allowed));
  check_can_cast(promoted, out, out_name);
  if (!can_cast(value.dtype, promoted))
    invalid("value dtype {} cannot be cast to the promoted dtype {}", dtype_name(value.dtype), dtype_name(promoted));

  check_rank(self, self_name);
  check_rank(t1, "tensor1");
  check_rank(t2, "tensor2");
  check_rank(out, out_name);
  const Dims t12 = broadcast_shapes(t1.view, "tensor1", t2.view, "tensor2");
  const Dims shape = broadcast_shapes(self.view, self_name, t12, "broadcast(tensor1, tensor2)");
  if (inplace && shape != self.view)
    invalid("{} has shape {} but broadcasting with tensor1/tensor2 gives {}; an in-place result cannot be broadcast",
            self_name, dims_str(self.view), dims_str(shape));
  check_shape_equals(out, out_name, shape);

  const std::string name = std::string("elementwise.") + b.op().name;
  const std::array<EwInput, 3> in{EwInput{&self, nullptr}, EwInput{&t1, nullptr}, EwInput{&t2, nullptr}};
  if (div)
    plan_elementwise<3, TypeSet::kNumeric>(b, name, promoted, out, in, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return AddcdivOp<T>{rounded_scalar<T>(value, promoted)};
    });
  else
    plan_elementwise<3, TypeSet::kNumeric>(b, name, promoted, out, in, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return AddcmulOp<T>{rounded_scalar<T>(value, promoted)};
    });
}

}  // namespace
}  // namespace pacl

#define PACL_PHASE1(Name, ...)                                                                              \
  pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor,              \
                   [&](pacl::OpBuilder& b) { __VA_ARGS__; })

extern "C" {

aclnnStatus aclnnLerpGetWorkspaceSize(const aclTensor* self, const aclTensor* end, const aclTensor* weight,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Lerp, pacl::plan_lerp(b, self, end, weight, nullptr, false, out, false));
}
aclnnStatus aclnnInplaceLerpGetWorkspaceSize(aclTensor* selfRef, const aclTensor* end, const aclTensor* weight,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceLerp, pacl::plan_lerp(b, selfRef, end, weight, nullptr, false, selfRef, true));
}
aclnnStatus aclnnLerpsGetWorkspaceSize(const aclTensor* self, const aclTensor* end, const aclScalar* weight,
                                       aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Lerps, pacl::plan_lerp(b, self, end, nullptr, weight, true, out, false));
}
aclnnStatus aclnnInplaceLerpsGetWorkspaceSize(aclTensor* selfRef, const aclTensor* end, const aclScalar* weight,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceLerps, pacl::plan_lerp(b, selfRef, end, nullptr, weight, true, selfRef, true));
}

aclnnStatus aclnnAddcmulGetWorkspaceSize(const aclTensor* self, const aclTensor* tensor1, const aclTensor* tensor2,
                                         const aclScalar* value, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return PACL_PHASE1(Addcmul, pacl::plan_addc(b, false, self, tensor1, tensor2, value, out, false));
}
aclnnStatus aclnnInplaceAddcmulGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* tensor1,
                                                const aclTensor* tensor2, const aclScalar* value,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceAddcmul, pacl::plan_addc(b, false, selfRef, tensor1, tensor2, value, selfRef, true));
}
aclnnStatus aclnnAddcdivGetWorkspaceSize(const aclTensor* self, const aclTensor* tensor1, const aclTensor* tensor2,
                                         const aclScalar* value, const aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return PACL_PHASE1(Addcdiv, pacl::plan_addc(b, true, self, tensor1, tensor2, value, out, false));
}
aclnnStatus aclnnInplaceAddcdivGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* tensor1,
                                                const aclTensor* tensor2, const aclScalar* value,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceAddcdiv, pacl::plan_addc(b, true, selfRef, tensor1, tensor2, value, selfRef, true));
}

}  // extern "C"
