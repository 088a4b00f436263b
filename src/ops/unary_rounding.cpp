// Rounding and sign: Floor, Ceil, Round, RoundDecimals, Trunc, Frac, Sign and their in-place forms.
// out always has self's dtype and every result is exact. Integers are already integral: Floor and
// Round return them unchanged, Frac gives 0. Round is round-half-to-even (torch.round). Sign follows
// PyTorch's (0 < x) - (x < 0): sign(NaN) = 0 and sign(-0) = +0; bool is unchanged.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_frac.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_trunc.h"
#include "ops/functors.h"
#include "ops/unary_op.h"

namespace pacl {
namespace {

template <typename T>
struct FloorOp {
  T operator()(T a) const {
    if constexpr (std::is_integral_v<T>) return a;
    else return std::floor(a);
  }
};
template <typename T>
struct CeilOp {
  T operator()(T a) const { return std::ceil(a); }
};
template <typename T>
struct RoundOp {
  T operator()(T a) const {
    if constexpr (std::is_integral_v<T>) return a;
    else return std::nearbyint(a);  // the default rounding mode: to nearest, ties to even
  }
};
template <typename T>
struct TruncOp {
  T operator()(T a) const { return std::trunc(a); }
};
template <typename T>
struct FracOp {
  T operator()(T a) const {
    if constexpr (std::is_integral_v<T>) return T(0);
    else return a - std::trunc(a);  // frac(+-inf) = nan
  }
};
// Rounds to a multiple of 10^-decimals, half to even (PyTorch's round(x, decimals) for floating T:
// nearbyint(x * 10^d) / 10^d, or nearbyint(x / 10^-d) * 10^-d for negative d, in T).
template <typename T>
struct RoundDecimalsFloat {
  T pow10;  // 10^|decimals| rounded to T
  bool negative;
  T operator()(T a) const { return negative ? std::nearbyint(a / pow10) * pow10 : std::nearbyint(a * pow10) / pow10; }
};

// Integers with decimals < 0: the magnitude rounded half to even to a multiple of 10^-decimals, exactly
// (as CANN's integer Round kernel); a result beyond the dtype's range wraps. decimals >= 0: unchanged.
template <typename T>
struct RoundDecimalsInt {
  uint64_t pow10;  // 10^-decimals; 0 when decimals >= 0; UINT64_MAX when 10^-decimals exceeds 2^64
  T operator()(T a) const {
    if (pow10 == 0) return a;
    bool neg = false;
    if constexpr (std::is_signed_v<T>) neg = a < 0;
    const uint64_t mag = neg ? 0 - static_cast<uint64_t>(a) : static_cast<uint64_t>(a);
    if (pow10 == UINT64_MAX) return T(0);  // |a| <= 2^63 < 10^20 / 2
    uint64_t q = mag / pow10;
    const uint64_t r = mag - q * pow10;
    if (r > pow10 - r || (r == pow10 - r && (q & 1u))) ++q;
    const uint64_t m = q * pow10;
    return static_cast<T>(neg ? 0 - m : m);
  }
};

// CANN's Atlas A2 (910B) lists.
constexpr DTypeMask kF = kFloatingTypes;
constexpr DTypeMask kFloorTypes = kNumericTypes;
constexpr DTypeMask kRoundTypes = kF | dtype_mask({DType::kInt32, DType::kInt64});
constexpr DTypeMask kTruncTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});
constexpr DTypeMask kFracTypes = kNumericTypes & ~dtype_mask({DType::kDouble});
constexpr DTypeMask kSignTypes =
    kF | dtype_mask({DType::kInt32, DType::kInt64, DType::kBool});
constexpr UnaryOpSpec kFloor{kFloorTypes, 0, kFloorTypes, UnaryCompute::kSelf, UnaryOut::kSame};
constexpr UnaryOpSpec kCeil{kF, 0, kF, UnaryCompute::kSelf, UnaryOut::kSame};
constexpr UnaryOpSpec kRound{kRoundTypes, 0, kRoundTypes, UnaryCompute::kSelf, UnaryOut::kSame};
constexpr UnaryOpSpec kTrunc{kTruncTypes, 0, kTruncTypes, UnaryCompute::kSelf, UnaryOut::kSame};
constexpr UnaryOpSpec kFrac{kFracTypes, 0, kFracTypes, UnaryCompute::kSelf, UnaryOut::kSame};
// CANN's Sign reshapes inputs of more than 8 dims instead of rejecting them.
constexpr UnaryOpSpec kSign{kSignTypes, 0, 0, UnaryCompute::kSelf, UnaryOut::kSame, /*max_rank=*/0};

void plan_round_decimals(OpBuilder& b, const aclTensor* self, const char* self_name, const aclTensor* out,
                         int64_t decimals, bool inplace) {
  const uint64_t d = decimals < 0 ? 0 - static_cast<uint64_t>(decimals) : static_cast<uint64_t>(decimals);
  plan_unary_op<kRound>(b, self, self_name, out, "out", inplace, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      uint64_t p = 0;
      if (decimals < 0) {
        p = 1;
        for (uint64_t i = 0; i < d && p != UINT64_MAX; ++i) p = p > UINT64_MAX / 10 ? UINT64_MAX : p * 10;
      }
      return RoundDecimalsInt<T>{p};
    } else {
      // 10^d computed in double and rounded to T, as PyTorch; 10^d beyond T's range is inf.
      return RoundDecimalsFloat<T>{static_cast<T>(std::pow(10.0, static_cast<double>(d))), decimals < 0};
    }
  });
}

}  // namespace
}  // namespace pacl

extern "C" {
PACL_UNARY_OP(Floor, const aclTensor*, self, aclTensor*, out, FloorOp, pacl::kFloor)
PACL_UNARY_OP_INPLACE(Floor, aclTensor*, selfRef, FloorOp, pacl::kFloor)
PACL_UNARY_OP(Ceil, const aclTensor*, self, aclTensor*, out, CeilOp, pacl::kCeil)
PACL_UNARY_OP_INPLACE(Ceil, aclTensor*, selfRef, CeilOp, pacl::kCeil)
PACL_UNARY_OP(Round, const aclTensor*, self, aclTensor*, out, RoundOp, pacl::kRound)
PACL_UNARY_OP_INPLACE(Round, const aclTensor*, selfRef, RoundOp, pacl::kRound)
PACL_UNARY_OP(Trunc, const aclTensor*, self, aclTensor*, out, TruncOp, pacl::kTrunc)
PACL_UNARY_OP_INPLACE(Trunc, aclTensor*, selfRef, TruncOp, pacl::kTrunc)
PACL_UNARY_OP(Frac, const aclTensor*, input, aclTensor*, out, FracOp, pacl::kFrac)
PACL_UNARY_OP_INPLACE(Frac, aclTensor*, inputRef, FracOp, pacl::kFrac)
PACL_UNARY_OP(Sign, const aclTensor*, self, aclTensor*, result, SignOp, pacl::kSign)

aclnnStatus aclnnRoundDecimalsGetWorkspaceSize(const aclTensor* self, int64_t decimals, aclTensor* out,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_RoundDecimals, "aclnnRoundDecimalsGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_round_decimals(b, self, "self", out, decimals, false); });
}
aclnnStatus aclnnInplaceRoundDecimalsGetWorkspaceSize(aclTensor* selfRef, int64_t decimals, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceRoundDecimals, "aclnnInplaceRoundDecimalsGetWorkspaceSize", workspaceSize,
                          executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_round_decimals(b, selfRef, "selfRef", selfRef, decimals, true); });
}
}
