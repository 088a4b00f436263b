// The binary arithmetic family: Add, Sub, Mul, Div, DivMod with their scalar (…s) and in-place
// forms. One planning routine covers all twenty entry points; each op differs only in its functor,
// its promotion rule and which checks CANN applies (see the rules table below).
#include <cmath>
#include <type_traits>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_sub.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/functors.h"
#include "ops/registry.h"

namespace pacl {
namespace {

// ---- rules ------------------------------------------------------------------------------------

enum class Kind { kAdd, kSub, kMul, kDiv };

// The result dtype of tensor (op) scalar, as CANN's 910B kernels choose it (PyTorch-like, with
// CANN's deviations: a double scalar promotes an integer tensor to float64 unless out is float32).
DType promote_with_scalar(Kind kind, DType self, DType scalar, DType out) {
  if (kind == Kind::kMul) {
    if (self == DType::kFloat16 || self == DType::kFloat || self == DType::kDouble) return self;
    if (self == DType::kBFloat16) return DType::kFloat;
    if ((self == DType::kBool && scalar == DType::kDouble) || (scalar == DType::kDouble && out == DType::kFloat))
      return DType::kFloat;
    if (is_floating(scalar) || self == DType::kBool) return promote(self, scalar);
    return self;
  }
  return promote_tensor_scalar(self, scalar, out);
}

struct BinaryCall {
  const OpInfo& op;
  Kind kind;
  int mode = 0;  // Div only: 0 true division, 1 trunc, 2 floor
  const aclTensor* self;
  const aclTensor* other = nullptr;  // tensor form
  const aclScalar* other_scalar = nullptr;  // scalar form
  const aclScalar* alpha = nullptr;  // Add/Sub only
  const aclTensor* out;  // == self for in-place forms
  bool inplace;
};

void check_mode(int mode) {
  if (mode < 0 || mode > 2)
    invalid("mode {} is invalid: 0 (true division), 1 (round toward zero) or 2 (round down) expected", mode);
}

void plan_binary(OpBuilder& b, const BinaryCall& c) {
  const char* self_name = c.inplace ? "selfRef" : "self";
  // Null checks first (161001), in parameter order, then dtypes, then shapes.
  const aclTensor& self = c.inplace ? b.inout(c.self, self_name) : b.input(c.self, self_name);
  const aclTensor* other = c.other_scalar ? nullptr : &b.input(c.other, "other");
  const aclScalar* other_s = c.other_scalar ? &b.scalar(c.other_scalar, "other") : nullptr;
  const bool has_alpha = c.kind == Kind::kAdd || c.kind == Kind::kSub;
  const aclScalar* alpha = has_alpha ? &b.scalar(c.alpha, "alpha") : nullptr;
  const aclTensor& out = c.inplace ? self : b.output(c.out, "out");
  const char* out_name = c.inplace ? self_name : "out";
  if (c.kind == Kind::kDiv) check_mode(c.mode);  // after the null checks

  check_dtype_supported(b.op(), self_name, self.dtype);
  if (other) check_dtype_supported(b.op(), "other", other->dtype);
  if (other_s) check_dtype_supported(b.op(), "other", other_s->dtype);
  if (alpha) check_dtype_supported(b.op(), "alpha", alpha->dtype);
  check_dtype_supported(b.op(), out_name, out.dtype);

  // Result dtype.
  DType promoted;
  if (other) {
    promoted = promote(self.dtype, other->dtype);
    if (promoted == DType::kUndefined)
      invalid("self dtype {} and other dtype {} have no common dtype", dtype_name(self.dtype), dtype_name(other->dtype));
  } else if (c.kind == Kind::kDiv && c.mode == 0) {
    promoted = self.dtype;
  } else {
    promoted = promote_with_scalar(c.kind, self.dtype, other_s->dtype, out.dtype);
  }
  if (alpha) {
    if (promoted == DType::kBool ? is_floating(alpha->dtype) : !can_cast(alpha->dtype, promoted))
      invalid("alpha dtype {} cannot be cast to the result dtype {}", dtype_name(alpha->dtype), dtype_name(promoted));
  }
  // Muls and InplaceMuls do not check the cast on CANN's 910B path; every other form does.
  if (!(c.kind == Kind::kMul && other_s)) check_can_cast(promoted, out, out_name);

  // Shapes.
  Dims shape = self.view;
  if (other) {
    check_rank(self, self_name);
    check_rank(*other, "other");
    shape = broadcast_shapes(self.view, self_name, other->view, "other");
    if (c.inplace && shape != self.view)
      invalid("{} has shape {} but the result of broadcasting with other {} has shape {}; an in-place result cannot "
              "be broadcast",
              self_name, dims_str(self.view), dims_str(other->view), dims_str(shape));
  } else {
    check_rank(self, self_name);
  }
  check_shape_equals(out, out_name, shape);

  // Compute dtype: true division of integers or bools happens in float32.
  DType compute = promoted;
  if (c.kind == Kind::kDiv && (c.mode == 0 || promoted == DType::kBool) && !is_floating(promoted))
    compute = DType::kFloat;

  std::array<EwInput, 2> in{EwInput{&self, nullptr}, other ? EwInput{other, nullptr} : EwInput{nullptr, other_s}};
  const bool plain = !alpha || alpha->to_double() == 1.0;
  const std::string kname = std::string("elementwise.") + b.op().name;
  auto plan = [&](auto make) { plan_elementwise<2>(b, kname, compute, out, in, make); };
#define PACL_T using T = typename decltype(tag)::type
  switch (c.kind) {
    case Kind::kAdd:
      if (plain) plan([](auto tag) { PACL_T; return AddPlain<T>{}; });
      else plan([&](auto tag) { PACL_T; return AddAlpha<T>{scalar_value<T>(*alpha)}; });
      break;
    case Kind::kSub:
      if (plain) plan([](auto tag) { PACL_T; return SubPlain<T>{}; });
      else plan([&](auto tag) { PACL_T; return SubAlpha<T>{scalar_value<T>(*alpha)}; });
      break;
    case Kind::kMul:
      plan([](auto tag) { PACL_T; return MulOp<T>{}; });
      break;
    case Kind::kDiv:
      if (c.mode == 0) plan([](auto tag) { PACL_T; return DivTrue<T>{}; });
      else if (c.mode == 1) plan([](auto tag) { PACL_T; return DivTrunc<T>{}; });
      else plan([](auto tag) { PACL_T; return DivFloor<T>{}; });
      break;
  }
#undef PACL_T
}

}  // namespace
}  // namespace pacl

// ---- phase-1 entry points -------------------------------------------------------------------------

using pacl::BinaryCall;
using pacl::Kind;
using pacl::OpBuilder;
using pacl::run_phase1;

#define PACL_PHASE1(name, ...)                                                                            \
  run_phase1(pacl::op_##name, "aclnn" #name "GetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) { \
    pacl::plan_binary(b, BinaryCall{pacl::op_##name, __VA_ARGS__});                                      \
  })

extern "C" {

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Add, Kind::kAdd, 0, self, other, nullptr, alpha, out, false);
}
aclnnStatus aclnnAddsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Adds, Kind::kAdd, 0, self, nullptr, other, alpha, out, false);
}
aclnnStatus aclnnInplaceAddGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* other, const aclScalar* alpha,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceAdd, Kind::kAdd, 0, selfRef, other, nullptr, alpha, selfRef, true);
}
aclnnStatus aclnnInplaceAddsGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* other, const aclScalar* alpha,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceAdds, Kind::kAdd, 0, selfRef, nullptr, other, alpha, selfRef, true);
}

aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Sub, Kind::kSub, 0, self, other, nullptr, alpha, out, false);
}
aclnnStatus aclnnSubsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Subs, Kind::kSub, 0, self, nullptr, other, alpha, out, false);
}
aclnnStatus aclnnInplaceSubGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, const aclScalar* alpha,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceSub, Kind::kSub, 0, selfRef, other, nullptr, alpha, selfRef, true);
}
aclnnStatus aclnnInplaceSubsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, const aclScalar* alpha,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceSubs, Kind::kSub, 0, selfRef, nullptr, other, alpha, selfRef, true);
}

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Mul, Kind::kMul, 0, self, other, nullptr, nullptr, out, false);
}
aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Muls, Kind::kMul, 0, self, nullptr, other, nullptr, out, false);
}
aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceMul, Kind::kMul, 0, selfRef, other, nullptr, nullptr, selfRef, true);
}
aclnnStatus aclnnInplaceMulsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceMuls, Kind::kMul, 0, selfRef, nullptr, other, nullptr, selfRef, true);
}

aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Div, Kind::kDiv, 0, self, other, nullptr, nullptr, out, false);
}
aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Divs, Kind::kDiv, 0, self, nullptr, other, nullptr, out, false);
}
aclnnStatus aclnnInplaceDivGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceDiv, Kind::kDiv, 0, selfRef, other, nullptr, nullptr, selfRef, true);
}
aclnnStatus aclnnInplaceDivsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceDivs, Kind::kDiv, 0, selfRef, nullptr, other, nullptr, selfRef, true);
}

aclnnStatus aclnnDivModGetWorkspaceSize(const aclTensor* self, const aclTensor* other, int mode, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(DivMod, Kind::kDiv, mode, self, other, nullptr, nullptr, out, false);
}
aclnnStatus aclnnDivModsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, int mode, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(DivMods, Kind::kDiv, mode, self, nullptr, other, nullptr, out, false);
}
aclnnStatus aclnnInplaceDivModGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, int mode,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceDivMod, Kind::kDiv, mode, selfRef, other, nullptr, nullptr, selfRef, true);
}
aclnnStatus aclnnInplaceDivModsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, int mode,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceDivMods, Kind::kDiv, mode, selfRef, nullptr, other, nullptr, selfRef, true);
}

}  // extern "C"
