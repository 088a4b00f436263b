// Binary elementwise ops of the mathx family: XLogY (tensor, scalar other, scalar self, in place),
// LeftShift/LeftShifts/RightShift, Gcd, LogAddExp/LogAddExp2, IsClose and IsInTensorScalar.
// Dtype lists and result dtypes are CANN's (Atlas A2); the values follow PyTorch:
//  - xlogy(x, y) = NaN if y is NaN, else 0 if x == 0, else x * log(y);
//  - x << s is 0 for s < 0 or s >= the bit width; x >> s is then the sign fill (0 or -1);
//  - gcd is non-negative (gcd(0, 0) = 0), computed on magnitudes (gcd(INT_MIN, 0) wraps to INT_MIN);
//  - logaddexp(a, b) = max + log1p(exp(-|a - b|)), and a for a == b == +-inf;
//  - isclose: a == b, or both NaN with equalNan, or |a - b| <= atol + rtol * |b| with a finite
//    difference, computed in double with rtol and atol rounded to float32 (as CANN passes them).
#include <cmath>
#include <type_traits>

#include "aclnnop/aclnn_gcd.h"
#include "aclnnop/aclnn_isclose.h"
#include "aclnnop/aclnn_isin_tensor_scalar.h"
#include "aclnnop/aclnn_left_shift.h"
#include "aclnnop/aclnn_logaddexp.h"
#include "aclnnop/aclnn_logaddexp2.h"
#include "aclnnop/aclnn_right_shift.h"
#include "aclnnop/aclnn_x_log_y_scalar_other.h"
#include "aclnnop/aclnn_x_log_y_scalar_self.h"
#include "aclnnop/aclnn_x_log_y_tensor.h"
#include "core/phase.h"
#include "ops/binary_args.h"
#include "ops/mathx_common.h"
#include "ops/registry.h"

namespace pacl {
namespace {

// ---- functors -----------------------------------------------------------------------------------

template <typename T>
struct XLogYOp {
  T operator()(T x, T y) const {
    if (std::isnan(y)) return y;
    if (x == T(0)) return T(0);
    return x * std::log(y);
  }
};

template <typename T>
inline constexpr bool kIsInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <typename T>
struct LeftShiftOp {
  T operator()(T a, T b) const {
    if constexpr (kIsInt<T>) {
      constexpr T kBits = static_cast<T>(sizeof(T) * 8 - 1);
      if constexpr (std::is_signed_v<T>)
        if (b < 0) return 0;
      if (b > kBits) return 0;
      return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) << b);
    } else {
      return a;  // not an integer dtype: never planned
    }
  }
};

template <typename T>
struct RightShiftOp {
  T operator()(T a, T b) const {
    if constexpr (kIsInt<T>) {
      constexpr T kBits = static_cast<T>(sizeof(T) * 8 - 1);
      bool out_of_range = b > kBits;
      if constexpr (std::is_signed_v<T>) out_of_range = out_of_range || b < 0;
      if (out_of_range) {
        if constexpr (std::is_signed_v<T>) return a < 0 ? T(-1) : T(0);
        else return 0;
      }
      return static_cast<T>(a >> b);
    } else {
      return a;
    }
  }
};

template <typename T>
struct GcdOp {
  T operator()(T a, T b) const {
    if constexpr (kIsInt<T>) {
      using U = std::make_unsigned_t<T>;
      auto mag = [](T v) { return v < 0 ? static_cast<U>(U(0) - static_cast<U>(v)) : static_cast<U>(v); };
      U x = mag(a), y = mag(b);
      while (x != 0) {
        const U r = static_cast<U>(y % x);
        y = x;
        x = r;
      }
      return static_cast<T>(y);
    } else {
      return a;
    }
  }
};

template <typename T>
struct LogAddExpOp {
  T operator()(T a, T b) const {
    if (std::isinf(a) && a == b) return a;
    const T m = a < b ? b : a;
    return m + std::log1p(std::exp(-std::fabs(a - b)));
  }
};

template <typename T>
struct LogAddExp2Op {
  T operator()(T a, T b) const {
    if (std::isinf(a) && a == b) return a;
    const T m = a < b ? b : a;
    return m + std::log1p(std::exp2(-std::fabs(a - b))) / static_cast<T>(M_LN2);
  }
};

template <typename T>
struct IsCloseOp {
  double rtol, atol;
  bool equal_nan;
  bool operator()(T a, T b) const {
    if (a == b) return true;
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(a) || std::isnan(b)) return equal_nan && std::isnan(a) && std::isnan(b);
    }
    const double diff = std::fabs(static_cast<double>(a) - static_cast<double>(b));
    return std::isfinite(diff) && diff <= atol + rtol * std::fabs(static_cast<double>(b));
  }
};

template <typename T>
struct EqualOp {
  bool operator()(T a, T b) const { return a == b; }
};
template <typename T>
struct NotEqualOp {
  bool operator()(T a, T b) const { return a != b; }
};

// ---- XLogY ----------------------------------------------------------------------------------------

const DTypeMask kXLogYTypes = dtype_mask({DType::kFloat, DType::kInt32, DType::kInt64, DType::kFloat16, DType::kInt8,
                                          DType::kUInt8, DType::kBool, DType::kInt16, DType::kBFloat16});
const DTypeMask kXLogYScalarTypes = kXLogYTypes | dtype_mask({DType::kDouble});

// Tensor forms compute in the promoted dtype (integers and bool: float32); a scalar operand
// promotes as a tensor would, and a float64 or integral result computes in float32.
void plan_xlogy(OpBuilder& b, BinaryInput self, BinaryInput other, const aclTensor* out, bool inplace) {
  const BinaryMasks masks{self.is_scalar ? kXLogYScalarTypes : kXLogYTypes,
                          other.is_scalar ? kXLogYScalarTypes : kXLogYTypes, kXLogYTypes};
  const BinaryArgs x = check_binary(b, self, other, out, inplace, masks);
  DType compute = promote(x.dtype(0), x.dtype(1));
  if (!is_floating(compute)) compute = DType::kFloat;
  if (compute == DType::kDouble) compute = DType::kFloat;
  check_can_cast(compute, *x.out, x.out_name);
  plan_binary<TypeSet::kFloating>(b, x, compute, rounding_binary_maker(compute, x.out->dtype, functor<XLogYOp>));
}

// ---- shifts ---------------------------------------------------------------------------------------

const DTypeMask kShiftTypes = kIntegralTypes | kWideUnsignedTypes;

// Operands are cast to their promoted dtype (a scalar shift count as a tensor would be).
template <template <typename> class F>
void plan_shift(OpBuilder& b, BinaryInput self, BinaryInput bits, const aclTensor* out) {
  const BinaryArgs x = check_binary(b, self, bits, out, false, BinaryMasks{kShiftTypes, kShiftTypes, kShiftTypes});
  for (size_t k = 0; k < 2; ++k) check_dtype_cann(b.op(), x.name[k], x.dtype(k), kShiftTypes, kIntegralTypes);
  check_dtype_cann(b.op(), "out", x.out->dtype, kShiftTypes, kIntegralTypes);
  const DType compute = promote(x.dtype(0), x.dtype(1));
  check_can_cast(compute, *x.out, "out");
  plan_binary<TypeSet::kNumeric>(b, x, compute, functor<F>);
}

// ---- Gcd ------------------------------------------------------------------------------------------

const DTypeMask kGcdTypes = dtype_mask({DType::kInt32, DType::kInt16, DType::kInt64});

void plan_gcd(OpBuilder& b, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  const BinaryArgs x = check_binary(b, tensor_arg(self, "self"), tensor_arg(other, "other"), out, false,
                                    BinaryMasks{kAllTypes, kAllTypes, kAllTypes});
  if (x.dtype(0) == DType::kBool && x.dtype(1) == DType::kBool) invalid("self and other are both bool; gcd needs integers");
  if (!is_integral(x.out->dtype, false))
    invalid("out dtype {} is not an integer dtype; gcd writes integers", dtype_name(x.out->dtype));
  const DType compute = promote(x.dtype(0), x.dtype(1));
  if (!in_mask(kGcdTypes, compute))
    invalid("self dtype {} and other dtype {} promote to {}, expected one of {}", dtype_name(x.dtype(0)),
            dtype_name(x.dtype(1)), dtype_name(compute), mask_names(kGcdTypes));
  check_can_cast(compute, *x.out, "out");
  plan_binary<TypeSet::kNumeric>(b, x, compute, functor<GcdOp>);
}

// ---- LogAddExp ----------------------------------------------------------------------------------

const DTypeMask kLogAddExpOut = dtype_mask({DType::kFloat16, DType::kFloat, DType::kBFloat16});

// Both operands are cast to out's dtype and the op computes in it.
template <template <typename> class F>
void plan_log_add_exp(OpBuilder& b, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  const BinaryArgs x = check_binary(b, tensor_arg(self, "self"), tensor_arg(other, "other"), out, false,
                                    BinaryMasks{kAllTypes | kWideUnsignedTypes, kAllTypes | kWideUnsignedTypes,
                                                kLogAddExpOut});
  for (size_t k = 0; k < 2; ++k) {
    check_dtype_cann(b.op(), x.name[k], x.dtype(k), kAllTypes | kWideUnsignedTypes, kAllTypes);
    check_can_cast(x.dtype(k), *x.out, "out");
  }
  plan_binary<TypeSet::kFloating>(b, x, x.out->dtype, functor<F>);
}

// ---- IsClose --------------------------------------------------------------------------------------

void plan_isclose(OpBuilder& b, const aclTensor* self, const aclTensor* other, double rtol, double atol, bool equal_nan,
                  const aclTensor* out) {
  const BinaryArgs x = check_binary(b, tensor_arg(self, "self"), tensor_arg(other, "other"), out, false,
                                    BinaryMasks{kAllTypes, kAllTypes, dtype_mask({DType::kBool})});
  if (x.dtype(0) != x.dtype(1))
    invalid("other dtype {} must equal self dtype {}", dtype_name(x.dtype(1)), dtype_name(x.dtype(0)));
  const double r = static_cast<float>(rtol), a = static_cast<float>(atol);
  plan_binary<TypeSet::kAll>(b, x, x.dtype(0), [=](auto tag) {
    return IsCloseOp<typename decltype(tag)::type>{r, a, equal_nan};
  });
}

// ---- IsInTensorScalar -----------------------------------------------------------------------------

const DTypeMask kIsInTypes = dtype_mask({DType::kFloat, DType::kInt32, DType::kInt64, DType::kFloat16, DType::kInt16,
                                         DType::kInt8, DType::kUInt8, DType::kDouble, DType::kBFloat16});

// Compares in element's dtype when it is floating, else in the promotion with a floating scalar,
// else in element's dtype (the scalar converted to it).
void plan_isin_tensor_scalar(OpBuilder& b, const aclTensor* element, const aclScalar* test, bool invert,
                             const aclTensor* out) {
  const BinaryArgs x = check_binary(b, tensor_arg(element, "element"), scalar_arg(test, "testElement"), out, false,
                                    BinaryMasks{kIsInTypes, kIsInTypes, dtype_mask({DType::kBool})});
  DType compute = x.dtype(0);
  if (!is_floating(compute) && is_floating(x.dtype(1))) compute = promote(x.dtype(1), compute);
  if (invert) plan_binary<TypeSet::kNumeric>(b, x, compute, functor<NotEqualOp>);
  else plan_binary<TypeSet::kNumeric>(b, x, compute, functor<EqualOp>);
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

aclnnStatus aclnnXLogYTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(XLogYTensor,
                     pacl::plan_xlogy(b, tensor_arg(self, "self"), tensor_arg(other, "other"), out, false));
}
aclnnStatus aclnnInplaceXLogYTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceXLogYTensor,
                     pacl::plan_xlogy(b, tensor_arg(selfRef, "selfRef"), tensor_arg(other, "other"), nullptr, true));
}
aclnnStatus aclnnXLogYScalarOtherGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(XLogYScalarOther,
                     pacl::plan_xlogy(b, tensor_arg(self, "self"), scalar_arg(other, "other"), out, false));
}
aclnnStatus aclnnInplaceXLogYScalarOtherGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceXLogYScalarOther,
                     pacl::plan_xlogy(b, tensor_arg(selfRef, "selfRef"), scalar_arg(other, "other"), nullptr, true));
}
aclnnStatus aclnnXLogYScalarSelfGetWorkspaceSize(const aclScalar* self, const aclTensor* other, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(XLogYScalarSelf,
                     pacl::plan_xlogy(b, scalar_arg(self, "self"), tensor_arg(other, "other"), out, false));
}

aclnnStatus aclnnLeftShiftGetWorkspaceSize(const aclTensor* self, const aclTensor* shiftBits, aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(LeftShift, pacl::plan_shift<pacl::LeftShiftOp>(b, tensor_arg(self, "self"),
                                                                    tensor_arg(shiftBits, "shiftBits"), out));
}
aclnnStatus aclnnLeftShiftsGetWorkspaceSize(const aclTensor* self, const aclScalar* shiftBits, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(LeftShifts, pacl::plan_shift<pacl::LeftShiftOp>(b, tensor_arg(self, "self"),
                                                                     scalar_arg(shiftBits, "shiftBits"), out));
}
aclnnStatus aclnnRightShiftGetWorkspaceSize(const aclTensor* input, const aclTensor* shiftBits, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(RightShift, pacl::plan_shift<pacl::RightShiftOp>(b, tensor_arg(input, "input"),
                                                                      tensor_arg(shiftBits, "shiftBits"), out));
}

aclnnStatus aclnnGcdGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Gcd, pacl::plan_gcd(b, self, other, out));
}

aclnnStatus aclnnLogAddExpGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(LogAddExp, pacl::plan_log_add_exp<pacl::LogAddExpOp>(b, self, other, out));
}
aclnnStatus aclnnLogAddExp2GetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(LogAddExp2, pacl::plan_log_add_exp<pacl::LogAddExp2Op>(b, self, other, out));
}

aclnnStatus aclnnIsCloseGetWorkspaceSize(const aclTensor* self, const aclTensor* other, double rtol, double atol,
                                         bool equalNan, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return PACL_PHASE1(IsClose, pacl::plan_isclose(b, self, other, rtol, atol, equalNan, out));
}

aclnnStatus aclnnIsInTensorScalarGetWorkspaceSize(const aclTensor* element, const aclScalar* testElement,
                                                  bool assumeUnique, bool invert, aclTensor* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(IsInTensorScalar, pacl::plan_isin_tensor_scalar(b, element, testElement, invert, out));
}

}  // extern "C"
