// Checked arguments of a binary elementwise op whose operands may each be a tensor or a scalar, in
// either position (PowScalarTensor, RemainderScalarTensor), with the op's own parameter names
// (exponent) and an op-specific result dtype. check_binary() does CANN's checks in CANN's order
// (null pointers in parameter order, then dtypes, then ranks and shapes); the op then chooses its
// compute dtype, checks the cast to out, and calls plan_binary().
#pragma once

#include <array>
#include <string>

#include "ops/elementwise_op.h"

namespace pacl {

// One operand as the caller passed it: a tensor or a scalar, and its parameter name.
struct BinaryInput {
  const aclTensor* tensor = nullptr;
  const aclScalar* scalar = nullptr;
  const char* name = "";
  bool is_scalar = false;
};
inline BinaryInput tensor_arg(const aclTensor* t, const char* name) { return {t, nullptr, name, false}; }
inline BinaryInput scalar_arg(const aclScalar* s, const char* name) { return {nullptr, s, name, true}; }

// Dtypes accepted for the first operand, the second, and out (out is not checked in place).
struct BinaryMasks {
  DTypeMask a, b, out;
};

struct BinaryArgs {
  std::array<const aclTensor*, 2> t{};  // tensor operands (nullptr where the operand is a scalar)
  std::array<const aclScalar*, 2> s{};  // scalar operands
  std::array<const char*, 2> name{};
  const aclTensor* out = nullptr;  // == t[0] in place
  const char* out_name = "out";
  Dims shape;  // the broadcast shape (== out's shape)

  DType dtype(size_t k) const { return t[k] ? t[k]->dtype : s[k]->dtype; }
  bool is_scalar(size_t k) const { return s[k] != nullptr; }
};

// In place, `a` must be a tensor: it is selfRef, read and written, and the broadcast of a and b
// must be a's own shape.
BinaryArgs check_binary(OpBuilder& b, BinaryInput a, BinaryInput other, const aclTensor* out, bool inplace,
                        const BinaryMasks& masks);

// Throws unless `t` is in `allowed`: "<what> dtype <t> is not supported by aclnn<Op>; supported: ...".
void check_result_in(const OpInfo& op, const char* what, DType t, DTypeMask allowed);

// Plans out = f(a, b) computed in `compute` (its arithmetic type restricted to `Set`).
template <TypeSet Set, typename MakeFunctor>
void plan_binary(OpBuilder& b, const BinaryArgs& x, DType compute, MakeFunctor&& make) {
  std::array<EwInput, 2> in{EwInput{x.t[0], x.s[0]}, EwInput{x.t[1], x.s[1]}};
  plan_elementwise<2, Set>(b, std::string("elementwise.") + b.op().name, compute, *x.out, in,
                           std::forward<MakeFunctor>(make));
}

// A functor F<T>{} for the arithmetic type T of the compute dtype.
template <template <typename> class F>
inline constexpr auto functor = [](auto tag) { return F<typename decltype(tag)::type>{}; };

}  // namespace pacl
