// Exponentials, logarithms, roots, reciprocal and the error function: Exp2, Expm1, Log, Log2,
// Log10, Log1p, Sqrt, Rsqrt, Reciprocal, Erf, Erfc and their in-place forms. Floating inputs
// compute in their own dtype (float16/bfloat16 in float32, rounded back); integer and bool inputs
// follow each op's CANN cast (see UnaryCompute). Values at the edges are IEEE/C99's, as PyTorch:
// log(0) = -inf, log(-1) = nan, sqrt(-0) = -0, rsqrt(0) = inf, 1/(-0) = -inf.
#include <cmath>

#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_erfc.h"
#include "aclnnop/aclnn_exp2.h"
#include "aclnnop/aclnn_expm1.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_log10.h"
#include "aclnnop/aclnn_log1p.h"
#include "aclnnop/aclnn_log2.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sqrt.h"
#include "ops/functors.h"
#include "ops/unary_op.h"

namespace pacl {
namespace {

// Dtype lists of CANN's Atlas A2 (910B) op_api. F = the four floating dtypes.
constexpr DTypeMask kF = kFloatingTypes;
constexpr DTypeMask kErfSelf = kF | dtype_mask({DType::kBool, DType::kInt64});
constexpr DTypeMask kExpm1Self = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16, DType::kInt64, DType::kBool});
constexpr DTypeMask kExpm1Ref = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});

// Ops that check "result castable to out" take any out dtype the cast rule allows; ops with an out
// list take the floating dtypes.
constexpr UnaryOpSpec kExp2{kAllTypes, kAllTypes, kF, UnaryCompute::kFloat, UnaryOut::kCastable};
constexpr UnaryOpSpec kExpm1{kExpm1Self, kAllTypes, kExpm1Ref, UnaryCompute::kFloat, UnaryOut::kCastable};
constexpr UnaryOpSpec kLog{kAllTypes, kF, kF, UnaryCompute::kFloat, UnaryOut::kCastable};
constexpr UnaryOpSpec kLog10{kAllTypes, kF, kF, UnaryCompute::kFloat, UnaryOut::kLog10};
constexpr UnaryOpSpec kLog1p{kAllTypes, kF, kF, UnaryCompute::kOutFloat, UnaryOut::kCastable};
constexpr UnaryOpSpec kSqrt{kAllTypes, kAllTypes, kF, UnaryCompute::kInt64Double, UnaryOut::kCastable};
constexpr UnaryOpSpec kRsqrt{kAllTypes, kF, kF, UnaryCompute::kOutFloat, UnaryOut::kCastable};
constexpr UnaryOpSpec kReciprocal{kAllTypes, kF, kF, UnaryCompute::kFloat, UnaryOut::kCastable};
constexpr UnaryOpSpec kErf{kErfSelf, kAllTypes, kF, UnaryCompute::kFloat, UnaryOut::kCastable};

}  // namespace
}  // namespace pacl

extern "C" {
PACL_UNARY_OP(Exp2, const aclTensor*, self, aclTensor*, out, Exp2Op, pacl::kExp2)
PACL_UNARY_OP_INPLACE(Exp2, aclTensor*, selfRef, Exp2Op, pacl::kExp2)
PACL_UNARY_OP(Expm1, const aclTensor*, self, aclTensor*, out, Expm1Op, pacl::kExpm1)
PACL_UNARY_OP_INPLACE(Expm1, aclTensor*, selfRef, Expm1Op, pacl::kExpm1)
PACL_UNARY_OP(Log, const aclTensor*, self, aclTensor*, out, LogOp, pacl::kLog)
PACL_UNARY_OP_INPLACE(Log, aclTensor*, selfRef, LogOp, pacl::kLog)
PACL_UNARY_OP(Log2, const aclTensor*, self, const aclTensor*, out, Log2Op, pacl::kLog)
PACL_UNARY_OP_INPLACE(Log2, const aclTensor*, selfRef, Log2Op, pacl::kLog)
PACL_UNARY_OP(Log10, const aclTensor*, self, aclTensor*, out, Log10Op, pacl::kLog10)
PACL_UNARY_OP_INPLACE(Log10, aclTensor*, selfRef, Log10Op, pacl::kLog10)
PACL_UNARY_OP(Log1p, const aclTensor*, self, aclTensor*, out, Log1pOp, pacl::kLog1p)
PACL_UNARY_OP_INPLACE(Log1p, aclTensor*, selfRef, Log1pOp, pacl::kLog1p)
PACL_UNARY_OP(Sqrt, const aclTensor*, self, aclTensor*, out, SqrtOp, pacl::kSqrt)
PACL_UNARY_OP_INPLACE(Sqrt, aclTensor*, self, SqrtOp, pacl::kSqrt)
PACL_UNARY_OP(Rsqrt, const aclTensor*, self, aclTensor*, out, RsqrtOp, pacl::kRsqrt)
PACL_UNARY_OP_INPLACE(Rsqrt, aclTensor*, selfRef, RsqrtOp, pacl::kRsqrt)
PACL_UNARY_OP(Reciprocal, const aclTensor*, self, aclTensor*, out, ReciprocalOp, pacl::kReciprocal)
PACL_UNARY_OP_INPLACE(Reciprocal, const aclTensor*, selfRef, ReciprocalOp, pacl::kReciprocal)
PACL_UNARY_OP(Erf, const aclTensor*, self, aclTensor*, out, ErfOp, pacl::kErf)
PACL_UNARY_OP_INPLACE(Erf, aclTensor*, selfRef, ErfOp, pacl::kErf)
PACL_UNARY_OP(Erfc, const aclTensor*, self, aclTensor*, out, ErfcOp, pacl::kErf)
PACL_UNARY_OP_INPLACE(Erfc, const aclTensor*, selfRef, ErfcOp, pacl::kErf)
}
