// Binary math ops: Maximum, Minimum, Pow (tensor^scalar, scalar^tensor, tensor^tensor),
// FloorDivide, Remainder, Fmod, Atan2, with their scalar and in-place forms. Semantics are
// PyTorch's; the result dtype of each op follows CANN's 910B rule where it differs (noted at the
// op). Integer division by zero does not trap: FloorDivide gives 0, Remainder and Fmod give self
// (Remainder's CANN doc: "when other is 0 and self is an integer, out is self").
#include <cmath>
#include <type_traits>

#include "aclnnop/aclnn_atan2.h"
#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_fmod_scalar.h"
#include "aclnnop/aclnn_fmod_tensor.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_remainder.h"
#include "core/phase.h"
#include "ops/binary_args.h"
#include "ops/functors.h"
#include "ops/registry.h"

namespace pacl {
namespace {

// ---- functors -----------------------------------------------------------------------------------

// floor(a / b), PyTorch's div_floor (floats: fmod-based, so that floor(a / b) is exact).
template <typename T>
struct FloorDivOp {
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return static_cast<T>(wrap_t<T>(0) - static_cast<wrap_t<T>>(a));
        T q = static_cast<T>(a / b);
        if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
        return q;
      } else {
        return static_cast<T>(a / b);
      }
    } else {
      if (b == 0) return a / b;
      const T mod = std::fmod(a, b);
      T div = (a - mod) / b;
      if (mod != 0 && ((b < 0) != (mod < 0))) div -= T(1);
      if (div == 0) return std::copysign(T(0), a / b);
      T floordiv = std::floor(div);
      if (div - floordiv > T(0.5)) floordiv += T(1);
      return floordiv;
    }
  }
};

// a - floor(a / b) * b: the result has the sign of b.
template <typename T>
struct RemainderOp {
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      if (b == 0) return a;
      if constexpr (std::is_signed_v<T>)
        if (b == -1) return 0;
      T r = static_cast<T>(a % b);
      if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
      return r;
    } else {
      T m = std::fmod(a, b);
      if (m != 0 && ((b < 0) != (m < 0))) m += b;
      return m;
    }
  }
};

// a - trunc(a / b) * b: the result has the sign of a.
template <typename T>
struct FmodOp {
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      if (b == 0) return a;
      if constexpr (std::is_signed_v<T>)
        if (b == -1) return 0;
      return static_cast<T>(a % b);
    } else {
      return std::fmod(a, b);
    }
  }
};

template <typename T>
struct Atan2Op {
  T operator()(T a, T b) const { return std::atan2(a, b); }
};

// ---- Maximum / Minimum ------------------------------------------------------------------------

template <template <typename> class F>
void plan_max_min(OpBuilder& b, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  const BinaryArgs x = check_binary(b, tensor_arg(self, "self"), tensor_arg(other, "other"), out, false,
                                    BinaryMasks{kAllTypes, kAllTypes, kAllTypes});
  const DType result = promote(x.dtype(0), x.dtype(1));
  check_can_cast(result, *x.out, "out");
  plan_binary<TypeSet::kAll>(b, x, result, functor<F>);
}

// ---- Pow ----------------------------------------------------------------------------------------

void check_not_both_bool(const BinaryArgs& x) {
  if (x.dtype(0) == DType::kBool && x.dtype(1) == DType::kBool)
    invalid("{} and {} are both bool; at least one of them must not be", x.name[0], x.name[1]);
}

// Result dtype of pow with a scalar base or exponent (CANN's InferTensorScalarDtype /
// InferScalarTensorDtype): the tensor's dtype, unless the scalar is floating (or the tensor is
// bool), then their promotion; a float64 tensor exponent with a float32 out computes in float32.
DType pow_dtype(const BinaryArgs& x) {
  if (!x.is_scalar(0) && !x.is_scalar(1)) return promote(x.dtype(0), x.dtype(1));
  if (x.is_scalar(1)) return promote_tensor_scalar(x.dtype(0), x.dtype(1), x.out->dtype);
  const DType exp = x.dtype(1), base = x.dtype(0);
  if (exp == DType::kDouble && x.out->dtype == DType::kFloat) return DType::kFloat;
  if (is_floating(exp)) return exp;
  if (is_floating(base) || exp == DType::kBool) return promote(exp, base);
  return exp;
}

void plan_pow(OpBuilder& b, BinaryInput self, BinaryInput exponent, const aclTensor* out, bool inplace) {
  const BinaryArgs x = check_binary(b, self, exponent, out, inplace, BinaryMasks{kAllTypes, kAllTypes, kAllTypes});
  check_not_both_bool(x);
  const DType result = pow_dtype(x);
  check_can_cast(result, *x.out, x.out_name);
  plan_binary<TypeSet::kNumeric>(b, x, result, functor<PowOp>);
}

// ---- FloorDivide ------------------------------------------------------------------------------

// bool / bool divides in float32. A scalar divisor promotes with the tensor as a tensor would
// (CANN's 910B rule), so int32 // int64(2^40) is 0, not a division by a wrapped value.
void plan_floor_divide(OpBuilder& b, const aclTensor* self, BinaryInput other, const aclTensor* out, bool inplace) {
  const DTypeMask out_mask = other.is_scalar ? kAllTypes : kNumericTypes;
  const BinaryArgs x = check_binary(b, tensor_arg(self, inplace ? "selfRef" : "self"), other, out, inplace,
                                    BinaryMasks{kAllTypes, kAllTypes, out_mask});
  const DType result = promote(x.dtype(0), x.dtype(1));
  check_can_cast(result, *x.out, x.out_name);
  plan_binary<TypeSet::kNumeric>(b, x, result == DType::kBool ? DType::kFloat : result, functor<FloorDivOp>);
}

// ---- Remainder ----------------------------------------------------------------------------------

// The dtypes Remainder computes in (CANN 910B).
constexpr DTypeMask kRemainderTypes = dtype_mask(
    {DType::kInt32, DType::kInt64, DType::kFloat16, DType::kFloat, DType::kDouble, DType::kBFloat16});

// A tensor and a scalar: the tensor's dtype, unless the scalar is floating (or the tensor bool).
DType tensor_scalar_dtype(DType tensor, DType scalar) {
  if (is_floating(tensor)) return tensor;
  if (is_floating(scalar) || tensor == DType::kBool) return promote(tensor, scalar);
  return tensor;
}

void plan_remainder(OpBuilder& b, BinaryInput self, BinaryInput other, const aclTensor* out, bool inplace) {
  const bool tensor_tensor = !self.is_scalar && !other.is_scalar;
  // Tensor-tensor operands may be any dtype whose promotion is supported; otherwise the doc's list.
  const DTypeMask in_mask = (tensor_tensor && !inplace) ? kAllTypes : kRemainderTypes;
  const DTypeMask out_mask = self.is_scalar ? kRemainderTypes : kNumericTypes;
  const BinaryArgs x = check_binary(b, self, other, out, inplace, BinaryMasks{in_mask, in_mask, out_mask});
  const DType result = tensor_tensor     ? promote(x.dtype(0), x.dtype(1))
                       : x.is_scalar(1) ? tensor_scalar_dtype(x.dtype(0), x.dtype(1))
                                        : tensor_scalar_dtype(x.dtype(1), x.dtype(0));
  check_result_in(b.op(), "the promoted", result, kRemainderTypes);
  check_can_cast(result, *x.out, x.out_name);
  plan_binary<TypeSet::kNumeric>(b, x, result, functor<RemainderOp>);
}

// ---- Fmod -----------------------------------------------------------------------------------------

constexpr DTypeMask kFmodTypes = dtype_mask({DType::kDouble, DType::kBFloat16, DType::kFloat16, DType::kFloat,
                                             DType::kInt32, DType::kInt64, DType::kInt8, DType::kUInt8});

// A scalar divisor promotes with the tensor as a tensor would (CANN 910B).
void plan_fmod(OpBuilder& b, const aclTensor* self, BinaryInput other, const aclTensor* out, bool inplace) {
  const BinaryArgs x = check_binary(b, tensor_arg(self, inplace ? "selfRef" : "self"), other, out, inplace,
                                    BinaryMasks{kFmodTypes, kFmodTypes, kFmodTypes});
  const DType result = promote(x.dtype(0), x.dtype(1));
  check_result_in(b.op(), "the promoted", result, kFmodTypes);
  check_can_cast(result, *x.out, x.out_name);
  plan_binary<TypeSet::kNumeric>(b, x, result, functor<FmodOp>);
}

// ---- Atan2 ----------------------------------------------------------------------------------------

// Integer and bool operands compute in float32. In place, the result is converted to selfRef's
// dtype whatever it is (CANN accepts integer selfRef).
void plan_atan2(OpBuilder& b, const aclTensor* self, const aclTensor* other, const aclTensor* out, bool inplace) {
  const BinaryArgs x = check_binary(b, tensor_arg(self, inplace ? "selfRef" : "self"), tensor_arg(other, "other"), out,
                                    inplace, BinaryMasks{kAllTypes, kAllTypes, kFloatingTypes});
  const DType promoted = promote(x.dtype(0), x.dtype(1));
  plan_binary<TypeSet::kFloating>(b, x, is_floating(promoted) ? promoted : DType::kFloat, functor<Atan2Op>);
}

}  // namespace
}  // namespace pacl

// ---- phase-1 entry points -------------------------------------------------------------------------

#define PACL_PHASE1(Name, ...)                                                                     \
  pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor, \
                   [&](pacl::OpBuilder& b) { __VA_ARGS__; })

using pacl::scalar_arg;
using pacl::tensor_arg;

extern "C" {

aclnnStatus aclnnMaximumGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Maximum, pacl::plan_max_min<pacl::MaxOp>(b, self, other, out));
}
aclnnStatus aclnnMinimumGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Minimum, pacl::plan_max_min<pacl::MinOp>(b, self, other, out));
}

aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* exponent, const aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(PowTensorScalar,
                     pacl::plan_pow(b, tensor_arg(self, "self"), scalar_arg(exponent, "exponent"), out, false));
}
aclnnStatus aclnnInplacePowTensorScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* exponent,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplacePowTensorScalar,
                     pacl::plan_pow(b, tensor_arg(self, "self"), scalar_arg(exponent, "exponent"), nullptr, true));
}
aclnnStatus aclnnPowScalarTensorGetWorkspaceSize(const aclScalar* self, const aclTensor* exponent, const aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(PowScalarTensor,
                     pacl::plan_pow(b, scalar_arg(self, "self"), tensor_arg(exponent, "exponent"), out, false));
}
aclnnStatus aclnnPowTensorTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* exponent, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(PowTensorTensor,
                     pacl::plan_pow(b, tensor_arg(self, "self"), tensor_arg(exponent, "exponent"), out, false));
}
aclnnStatus aclnnInplacePowTensorTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* exponent,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplacePowTensorTensor,
                     pacl::plan_pow(b, tensor_arg(self, "self"), tensor_arg(exponent, "exponent"), nullptr, true));
}

aclnnStatus aclnnFloorDivideGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(FloorDivide, pacl::plan_floor_divide(b, self, tensor_arg(other, "other"), out, false));
}
aclnnStatus aclnnFloorDividesGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(FloorDivides, pacl::plan_floor_divide(b, self, scalar_arg(other, "other"), out, false));
}
aclnnStatus aclnnInplaceFloorDivideGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceFloorDivide,
                     pacl::plan_floor_divide(b, selfRef, tensor_arg(other, "other"), nullptr, true));
}
aclnnStatus aclnnInplaceFloorDividesGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceFloorDivides,
                     pacl::plan_floor_divide(b, selfRef, scalar_arg(other, "other"), nullptr, true));
}

aclnnStatus aclnnRemainderTensorTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(RemainderTensorTensor,
                     pacl::plan_remainder(b, tensor_arg(self, "self"), tensor_arg(other, "other"), out, false));
}
aclnnStatus aclnnRemainderTensorScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(RemainderTensorScalar,
                     pacl::plan_remainder(b, tensor_arg(self, "self"), scalar_arg(other, "other"), out, false));
}
aclnnStatus aclnnRemainderScalarTensorGetWorkspaceSize(const aclScalar* self, const aclTensor* other, aclTensor* out,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(RemainderScalarTensor,
                     pacl::plan_remainder(b, scalar_arg(self, "self"), tensor_arg(other, "other"), out, false));
}
aclnnStatus aclnnInplaceRemainderTensorTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceRemainderTensorTensor,
                     pacl::plan_remainder(b, tensor_arg(selfRef, "selfRef"), tensor_arg(other, "other"), nullptr,
                                          true));
}
aclnnStatus aclnnInplaceRemainderTensorScalarGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceRemainderTensorScalar,
                     pacl::plan_remainder(b, tensor_arg(selfRef, "selfRef"), scalar_arg(other, "other"), nullptr,
                                          true));
}

aclnnStatus aclnnFmodTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(FmodTensor, pacl::plan_fmod(b, self, tensor_arg(other, "other"), out, false));
}
aclnnStatus aclnnInplaceFmodTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceFmodTensor, pacl::plan_fmod(b, selfRef, tensor_arg(other, "other"), nullptr, true));
}
aclnnStatus aclnnFmodScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(FmodScalar, pacl::plan_fmod(b, self, scalar_arg(other, "other"), out, false));
}
aclnnStatus aclnnInplaceFmodScalarGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceFmodScalar, pacl::plan_fmod(b, selfRef, scalar_arg(other, "other"), nullptr, true));
}

aclnnStatus aclnnAtan2GetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Atan2, pacl::plan_atan2(b, self, other, out, false));
}
aclnnStatus aclnnInplaceAtan2GetWorkspaceSize(aclTensor* selfRef, aclTensor* other, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceAtan2, pacl::plan_atan2(b, selfRef, other, nullptr, true));
}

}  // extern "C"
