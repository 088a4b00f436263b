// Trigonometric and hyperbolic functions and their inverses: Sin, Cos, Tan, Asin, Acos, Atan, Sinh,
// Cosh, Asinh, Acosh, Atanh and their in-place forms. Floating inputs compute in their own dtype
// (float16/bfloat16 in float32, rounded back); integer and bool inputs compute in float32, except
// Sinh, whose CANN op_api casts them to out's dtype. Out of the domain the result is NaN (asin(2),
// acosh(0.5), atanh(2)); atanh(+-1) = +-inf.
#include <cmath>

#include "aclnnop/aclnn_acos.h"
#include "aclnnop/aclnn_acosh.h"
#include "aclnnop/aclnn_asin.h"
#include "aclnnop/aclnn_asinh.h"
#include "aclnnop/aclnn_atan.h"
#include "aclnnop/aclnn_atanh.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_cosh.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_sinh.h"
#include "aclnnop/aclnn_tan.h"
#include "ops/functors.h"
#include "ops/unary_op.h"

namespace pacl {
namespace {

// CANN's Atlas A2 (910B) lists: every dtype in, floating out (Tan: any out the float result casts
// to, which is the floating dtypes too), floating selfRef.
constexpr DTypeMask kF = kFloatingTypes;
constexpr UnaryOpSpec kTrig{kAllTypes, kF, kF, UnaryCompute::kFloat, UnaryOut::kCastable};
constexpr UnaryOpSpec kTan{kAllTypes, kAllTypes, kF, UnaryCompute::kFloat, UnaryOut::kCastable};
constexpr UnaryOpSpec kSinh{kAllTypes, kF, kF, UnaryCompute::kOutFloat, UnaryOut::kCastable};

}  // namespace
}  // namespace pacl

extern "C" {
PACL_UNARY_OP(Sin, const aclTensor*, self, aclTensor*, out, SinOp, pacl::kTrig)
PACL_UNARY_OP_INPLACE(Sin, aclTensor*, selfRef, SinOp, pacl::kTrig)
PACL_UNARY_OP(Cos, const aclTensor*, input, aclTensor*, out, CosOp, pacl::kTrig)
PACL_UNARY_OP_INPLACE(Cos, aclTensor*, inputRef, CosOp, pacl::kTrig)
PACL_UNARY_OP(Tan, const aclTensor*, self, aclTensor*, out, TanOp, pacl::kTan)
PACL_UNARY_OP_INPLACE(Tan, const aclTensor*, selfRef, TanOp, pacl::kTan)
PACL_UNARY_OP(Asin, const aclTensor*, self, aclTensor*, out, AsinOp, pacl::kTrig)
PACL_UNARY_OP_INPLACE(Asin, aclTensor*, selfRef, AsinOp, pacl::kTrig)
PACL_UNARY_OP(Acos, const aclTensor*, input, aclTensor*, out, AcosOp, pacl::kTrig)
PACL_UNARY_OP_INPLACE(Acos, aclTensor*, inputRef, AcosOp, pacl::kTrig)
PACL_UNARY_OP(Atan, const aclTensor*, input, aclTensor*, out, AtanOp, pacl::kTrig)
PACL_UNARY_OP_INPLACE(Atan, aclTensor*, inputRef, AtanOp, pacl::kTrig)
PACL_UNARY_OP(Sinh, const aclTensor*, self, aclTensor*, out, SinhOp, pacl::kSinh)
PACL_UNARY_OP_INPLACE(Sinh, aclTensor*, selfRef, SinhOp, pacl::kSinh)
PACL_UNARY_OP(Cosh, const aclTensor*, self, aclTensor*, out, CoshOp, pacl::kTrig)
PACL_UNARY_OP_INPLACE(Cosh, aclTensor*, selfRef, CoshOp, pacl::kTrig)
PACL_UNARY_OP(Asinh, const aclTensor*, input, aclTensor*, out, AsinhOp, pacl::kTrig)
PACL_UNARY_OP_INPLACE(Asinh, aclTensor*, inputRef, AsinhOp, pacl::kTrig)
PACL_UNARY_OP(Acosh, const aclTensor*, self, aclTensor*, out, AcoshOp, pacl::kTrig)
PACL_UNARY_OP_INPLACE(Acosh, aclTensor*, selfRef, AcoshOp, pacl::kTrig)
PACL_UNARY_OP(Atanh, const aclTensor*, input, aclTensor*, out, AtanhOp, pacl::kTrig)
PACL_UNARY_OP_INPLACE(Atanh, aclTensor*, inputRef, AtanhOp, pacl::kTrig)
}
