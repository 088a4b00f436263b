// Planning for the unary math family (exp2, log*, sqrt, trig, rounding, predicates...). CANN gives
// each of these ops its own dtype lists for self, out and the in-place selfRef, and its own rule for
// the dtype an integer input is computed in (the casts its op_api inserts), so a spec names the
// three lists, the compute rule and the out rule; plan_unary_op applies them in CANN's order (null,
// dtypes, rank, shape) and builds the elementwise kernel.
#pragma once

#include <type_traits>

#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/registry.h"

namespace pacl {

// The dtype self is computed in (floating self always computes in its own dtype, except kSelf/kBool).
enum class UnaryCompute {
  kSelf,         // self's dtype (floor, sign, bitwise_not, predicates)
  kFloat,        // integer and bool self compute in float32 (sin, exp2, reciprocal...)
  kOutFloat,     // integer and bool self compute in out's dtype (rsqrt, sinh, log1p)
  kInt64Double,  // int64 computes in float64, other integer and bool in float32 (sqrt)
};

// What out's dtype must be.
enum class UnaryOut {
  kCastable,  // in the `out` list, and the compute dtype can be cast to it
  kSame,      // self's dtype
  kBool,      // bool
  kList,      // anything in the `out` list (logical_not writes 0/1 in any dtype)
  kLog10,     // floating self: self's dtype; integer and bool self: float32
};

struct UnaryOpSpec {
  DTypeMask self;     // self dtypes of the out-of-place form
  DTypeMask out;      // out dtypes (kCastable, kList)
  DTypeMask inplace;  // selfRef dtypes of the in-place form
  UnaryCompute compute;
  UnaryOut out_rule;
  int64_t max_rank = kMaxElementwiseRank;  // 0: any rank
  bool any_rank_if_contiguous = false;     // max_rank applies only when self or out is non-contiguous
};

inline constexpr DTypeMask kBoolType = dtype_mask({DType::kBool});

// The arithmetic types a spec's kernels can be computed in (a float-only op compiles no integer kernel).
template <const UnaryOpSpec& spec>
constexpr TypeSet unary_type_set() {
  if (spec.compute != UnaryCompute::kSelf || (spec.self & ~kFloatingTypes) == 0) return TypeSet::kFloating;
  return (spec.self & kBoolType) ? TypeSet::kAll : TypeSet::kNumeric;
}

// f(x) rounded to the 16-bit compute dtype before it is converted to out's dtype, so that a float16
// input gives float16-precise results in a float32 out (as CANN's kernel + Cast and PyTorch do).
template <typename F>
struct Rounded16 {
  F f;
  DType round_to;  // kFloat16, kBFloat16, or kFloat for no rounding
  float operator()(float a) const {
    const float r = f(a);
    if (round_to == DType::kFloat16) return half_to_float(float_to_half(r));
    if (round_to == DType::kBFloat16) return bf16_to_float(float_to_bf16(r));
    return r;
  }
};

// Checks and plans out = f(self) (make(type_tag<T>) returns f for the arithmetic type T); in-place
// when `inplace` (out is self). self_name/out_name are the C parameter names, used in messages.
template <const UnaryOpSpec& spec, typename MakeFunctor>
void plan_unary_op(OpBuilder& b, const aclTensor* self_arg, const char* self_name, const aclTensor* out_arg,
                   const char* out_name, bool inplace, MakeFunctor&& make) {
  const aclTensor& self = inplace ? b.inout(self_arg, self_name) : b.input(self_arg, self_name);
  const aclTensor& out = inplace ? self : b.output(out_arg, out_name);
  if (inplace) out_name = self_name;
  check_dtype_in(b.op(), self_name, self.dtype, inplace ? spec.inplace : spec.self);
  const bool int_self = !is_floating(self.dtype);
  switch (spec.out_rule) {
    case UnaryOut::kCastable:
    case UnaryOut::kList: check_dtype_in(b.op(), out_name, out.dtype, spec.out); break;
    case UnaryOut::kBool: check_dtype_in(b.op(), out_name, out.dtype, kBoolType); break;
    case UnaryOut::kSame:
      if (out.dtype != self.dtype)
        invalid("{} dtype {} must equal {} dtype {}", out_name, dtype_name(out.dtype), self_name, dtype_name(self.dtype));
      break;
    case UnaryOut::kLog10:
      if (!int_self && out.dtype != self.dtype)
        invalid("{} dtype {} must equal {} dtype {}", out_name, dtype_name(out.dtype), self_name, dtype_name(self.dtype));
      if (int_self && out.dtype != DType::kFloat)
        invalid("{} dtype {} must be float32 for the {} input {}", out_name, dtype_name(out.dtype),
                dtype_name(self.dtype), self_name);
      break;
  }
  DType compute = self.dtype;
  if (int_self) {
    switch (spec.compute) {
      case UnaryCompute::kSelf: break;
      case UnaryCompute::kFloat: compute = DType::kFloat; break;
      case UnaryCompute::kOutFloat: compute = out.dtype; break;
      case UnaryCompute::kInt64Double: compute = self.dtype == DType::kInt64 ? DType::kDouble : DType::kFloat; break;
    }
  }
  if (spec.out_rule == UnaryOut::kCastable) check_can_cast(compute, out, out_name);
  if (spec.max_rank > 0 && !(spec.any_rank_if_contiguous && self.is_contiguous() && out.is_contiguous()))
    check_rank(self, self_name, spec.max_rank);
  if (out.view != self.view)
    invalid("{} has shape {}, expected the shape of {} {}", out_name, dims_str(out.view), self_name, dims_str(self.view));
  const DType round_to = compute != out.dtype && compute != DType::kDouble ? compute : DType::kFloat;
  std::array<EwInput, 1> in{EwInput{&self, nullptr}};
  plan_elementwise<1, unary_type_set<spec>()>(
      b, std::string("elementwise.") + b.op().name, compute, out, in, [&](auto tag) {
        using T = typename decltype(tag)::type;
        auto f = make(tag);
        if constexpr (spec.out_rule == UnaryOut::kCastable && std::is_same_v<T, float>)
          return Rounded16<decltype(f)>{f, round_to};
        else
          return f;
      });
}

template <template <typename> class F, const UnaryOpSpec& spec>
void plan_unary_op(OpBuilder& b, const aclTensor* self, const char* self_name, const aclTensor* out,
                   const char* out_name, bool inplace) {
  plan_unary_op<spec>(b, self, self_name, out, out_name, inplace,
                      [](auto tag) { return F<typename decltype(tag)::type>{}; });
}

}  // namespace pacl

// Phase-1 entry points of a unary op. The parameter types and names are CANN's (they vary per op:
// `input` or `self`, const or not); the names also label the arguments in error messages.
#define PACL_UNARY_OP(Name, SelfT, self_id, OutT, out_id, Functor, spec)                                         \
  aclnnStatus aclnn##Name##GetWorkspaceSize(SelfT self_id, OutT out_id, uint64_t* workspaceSize,                 \
                                            aclOpExecutor** executor) {                                         \
    return pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor,         \
                            [&](pacl::OpBuilder& b) {                                                           \
                              pacl::plan_unary_op<pacl::Functor, spec>(b, self_id, #self_id, out_id, #out_id,   \
                                                                       false);                                  \
                            });                                                                                 \
  }
#define PACL_UNARY_OP_INPLACE(Name, RefT, ref_id, Functor, spec)                                                 \
  aclnnStatus aclnnInplace##Name##GetWorkspaceSize(RefT ref_id, uint64_t* workspaceSize,                         \
                                                   aclOpExecutor** executor) {                                  \
    return pacl::run_phase1(pacl::op_Inplace##Name, "aclnnInplace" #Name "GetWorkspaceSize", workspaceSize,     \
                            executor, [&](pacl::OpBuilder& b) {                                                 \
                              pacl::plan_unary_op<pacl::Functor, spec>(b, ref_id, #ref_id, ref_id, #ref_id,     \
                                                                       true);                                   \
                            });                                                                                 \
  }
