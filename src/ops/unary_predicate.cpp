// Predicates and logical/bitwise not: IsFinite, IsInf, IsPosInf, IsNegInf (bool out), LogicalNot
// (0/1 in out's dtype, any of the ten) and BitwiseNot (out has self's dtype). Integer and bool
// inputs are finite: IsInf, IsPosInf and IsNegInf give false for them. LogicalNot treats NaN as
// true (non-zero); BitwiseNot on bool is logical not.
#include <cmath>
#include <limits>
#include <type_traits>

#include "aclnnop/aclnn_bitwise_not.h"
#include "aclnnop/aclnn_is_inf.h"
#include "aclnnop/aclnn_isfinite.h"
#include "aclnnop/aclnn_isneginf.h"
#include "aclnnop/aclnn_isposinf.h"
#include "aclnnop/aclnn_logical_not.h"
#include "ops/unary_op.h"

namespace pacl {
namespace {

template <typename T>
struct IsFiniteOp {
  bool operator()(T a) const { return std::isfinite(a); }
};
template <typename T>
struct IsInfOp {
  bool operator()(T a) const {
    if constexpr (std::is_floating_point_v<T>) return std::isinf(a);
    else return false;
  }
};
template <typename T>
struct IsPosInfOp {
  bool operator()(T a) const {
    if constexpr (std::is_floating_point_v<T>) return a == std::numeric_limits<T>::infinity();
    else return false;
  }
};
template <typename T>
struct IsNegInfOp {
  bool operator()(T a) const {
    if constexpr (std::is_floating_point_v<T>) return a == -std::numeric_limits<T>::infinity();
    else return false;
  }
};
template <typename T>
struct LogicalNotOp {
  bool operator()(T a) const { return a == T(0); }
};
template <typename T>
struct BitwiseNotOp {
  T operator()(T a) const {
    if constexpr (std::is_same_v<T, bool>) return !a;
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(~a);
    else return a;  // floating dtypes are not in BitwiseNot's list; never planned
  }
};

// CANN's Atlas A2 (910B) lists. IsFinite and IsInf: their docs (no op_api source is published).
constexpr DTypeMask kBitwiseTypes = kIntegralTypes | kBoolType;
constexpr DTypeMask kSignedInfTypes = kAllTypes & ~dtype_mask({DType::kDouble});
constexpr UnaryOpSpec kIsFinite{kFloatingTypes, 0, 0, UnaryCompute::kSelf, UnaryOut::kBool};
constexpr UnaryOpSpec kIsInf{kAllTypes, 0, 0, UnaryCompute::kSelf, UnaryOut::kBool};
constexpr UnaryOpSpec kIsSignedInf{kSignedInfTypes, 0, 0, UnaryCompute::kSelf, UnaryOut::kBool};
// CANN's LogicalNot takes any rank when self and out are both contiguous.
constexpr UnaryOpSpec kLogicalNot{kAllTypes,           kAllTypes, kAllTypes, UnaryCompute::kSelf, UnaryOut::kList,
                                  kMaxElementwiseRank, true};
constexpr UnaryOpSpec kBitwiseNot{kBitwiseTypes, 0, 0, UnaryCompute::kSelf, UnaryOut::kSame};

}  // namespace
}  // namespace pacl

extern "C" {
PACL_UNARY_OP(IsFinite, const aclTensor*, self, aclTensor*, out, IsFiniteOp, pacl::kIsFinite)
PACL_UNARY_OP(IsInf, const aclTensor*, x, const aclTensor*, out, IsInfOp, pacl::kIsInf)
PACL_UNARY_OP(IsPosInf, const aclTensor*, self, aclTensor*, out, IsPosInfOp, pacl::kIsSignedInf)
PACL_UNARY_OP(IsNegInf, const aclTensor*, self, aclTensor*, out, IsNegInfOp, pacl::kIsSignedInf)
PACL_UNARY_OP(LogicalNot, const aclTensor*, self, aclTensor*, out, LogicalNotOp, pacl::kLogicalNot)
PACL_UNARY_OP_INPLACE(LogicalNot, aclTensor*, selfRef, LogicalNotOp, pacl::kLogicalNot)
PACL_UNARY_OP(BitwiseNot, const aclTensor*, self, aclTensor*, out, BitwiseNotOp, pacl::kBitwiseNot)
}
