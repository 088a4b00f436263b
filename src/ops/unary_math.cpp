// Unary math ops. Each op is a functor plus a UnarySpec (accepted dtypes, compute rule) and its
// phase-1 entry points; plan_unary does the checks and builds the kernel.
#include <cmath>
#include <type_traits>

#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_neg.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/functors.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr UnarySpec kAbs{kAllTypes, UnaryResult::kSame, /*out_same_dtype=*/true};
constexpr UnarySpec kNeg{kNumericTypes, UnaryResult::kSame};
constexpr UnarySpec kExp{kAllTypes, UnaryResult::kFloating};

}  // namespace
}  // namespace pacl

// Phase-1 entry points of unary ops: out-of-place (self, out) and in-place (selfRef).
#define PACL_UNARY(Name, Functor, spec)                                                                            \
  aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,        \
                                            aclOpExecutor** executor) {                                          \
    return pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor,          \
                            [&](pacl::OpBuilder& b) { pacl::plan_unary<pacl::Functor, spec>(b, self, out, false); }); \
  }
#define PACL_UNARY_INPLACE(Name, Functor, spec)                                                                    \
  aclnnStatus aclnnInplace##Name##GetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,                  \
                                                   aclOpExecutor** executor) {                                   \
    return pacl::run_phase1(pacl::op_Inplace##Name, "aclnnInplace" #Name "GetWorkspaceSize", workspaceSize,      \
                            executor, [&](pacl::OpBuilder& b) {                                                  \
                              pacl::plan_unary<pacl::Functor, spec>(b, selfRef, selfRef, true);                  \
                            });                                                                                  \
  }

extern "C" {
PACL_UNARY(Abs, AbsOp, pacl::kAbs)
PACL_UNARY(Neg, NegOp, pacl::kNeg)
PACL_UNARY_INPLACE(Neg, NegOp, pacl::kNeg)
PACL_UNARY(Exp, ExpOp, pacl::kExp)
PACL_UNARY_INPLACE(Exp, ExpOp, pacl::kExp)
}
