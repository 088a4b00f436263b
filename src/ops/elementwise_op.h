// Planning helpers shared by elementwise ops: dtype/rank/shape checks with CANN's messages, and
// plan_elementwise(), which turns checked operands plus a functor into an ElementwiseKernel.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include "core/elementwise.h"
#include "core/executor.h"
#include "runtime/status.h"

namespace pacl {

inline constexpr int64_t kMaxElementwiseRank = 8;  // CANN's limit for elementwise ops

// A set of dtypes as a bit mask (bit = aclDataType value).
using DTypeMask = uint64_t;
constexpr DTypeMask dtype_mask(std::initializer_list<DType> ts) {
  DTypeMask m = 0;
  for (DType t : ts) m |= DTypeMask{1} << static_cast<int>(t);
  return m;
}
inline bool in_mask(DTypeMask m, DType t) {
  return static_cast<int>(t) >= 0 && static_cast<int>(t) < 64 && ((m >> static_cast<int>(t)) & 1u);
}
std::string mask_names(DTypeMask m);  // "float32, float16, ..."
inline constexpr DTypeMask kFloatingTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16, DType::kDouble});
inline constexpr DTypeMask kIntegralTypes =
    dtype_mask({DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64, DType::kUInt8});
inline constexpr DTypeMask kNumericTypes = kFloatingTypes | kIntegralTypes;
inline constexpr DTypeMask kAllTypes = kNumericTypes | dtype_mask({DType::kBool});

// Throws unless t is in `allowed` (the op's dtype support list).
void check_dtype_in(const OpInfo& op, const char* arg, DType t, DTypeMask allowed);

// The ten dtypes CANN's elementwise ops accept (complex is "not supported here" in pacl).
void check_dtype_supported(const OpInfo& op, const char* arg, DType t);
void check_rank(const aclTensor& t, const char* arg, int64_t max_rank = kMaxElementwiseRank);
void check_shape_equals(const aclTensor& t, const char* arg, const Dims& expected,
                        const char* expected_what = "the broadcast shape");
void check_can_cast(DType from, const aclTensor& to, const char* to_name);

// Storage type a compute dtype is computed in: 16-bit floats compute in float.
inline DType arithmetic_dtype(DType t) {
  return (t == DType::kFloat16 || t == DType::kBFloat16) ? DType::kFloat : t;
}

// The scalar's value converted to T.
template <typename T>
T scalar_value(const aclScalar& s) {
  return visit_dtype(s.dtype, [&](auto stag) {
    using S = typename decltype(stag)::type;
    S v;
    std::memcpy(&v, s.bytes, sizeof(S));
    return convert_value<T>(v);
  });
}

// One input of an elementwise op: a bound tensor, or a scalar that becomes a constant. With
// element >= 0 the input is that one element of the tensor (row-major index into its view),
// broadcast to every output element and read when the kernel runs (a scalar passed as a tensor).
struct EwInput {
  const aclTensor* tensor = nullptr;
  const aclScalar* scalar = nullptr;
  int64_t element = -1;
};

// Which arithmetic types a kernel is instantiated for (keeps builds small: a float-only op does
// not compile integer kernels).
enum class TypeSet { kAll, kFloating, kNumeric };  // kNumeric: all but bool

// Calls f(type_tag<T>{}) for the arithmetic type of compute dtype t (restricted to `Set`).
template <TypeSet Set = TypeSet::kAll, typename F>
decltype(auto) visit_arithmetic(DType t, F&& f) {
  if constexpr (Set == TypeSet::kFloating) {
    switch (arithmetic_dtype(t)) {
      case DType::kFloat: return f(type_tag<float>{});
      case DType::kDouble: return f(type_tag<double>{});
      default: throw std::logic_error("visit_arithmetic: not a floating compute dtype");
    }
  } else {  // an else branch, so that floating-only visits do not instantiate the integer kernels
    if constexpr (Set == TypeSet::kNumeric) {
      if (t == DType::kBool) throw std::logic_error("visit_arithmetic: bool is not numeric");
    }
    switch (arithmetic_dtype(t)) {
      case DType::kBool:
        if constexpr (Set == TypeSet::kAll) return f(type_tag<bool>{});
        break;
      case DType::kUInt8: return f(type_tag<uint8_t>{});
      case DType::kInt8: return f(type_tag<int8_t>{});
      case DType::kInt16: return f(type_tag<int16_t>{});
      case DType::kInt32: return f(type_tag<int32_t>{});
      case DType::kInt64: return f(type_tag<int64_t>{});
      case DType::kFloat: return f(type_tag<float>{});
      case DType::kDouble: return f(type_tag<double>{});
      default: break;
    }
    throw std::logic_error("visit_arithmetic: not a compute dtype");
  }
}

// The functor-independent half of an elementwise plan: the merged geometry (operand 0 is out),
// where each input comes from, and scalar inputs as constants of the arithmetic type of `compute`.
template <size_t N>
struct ElementwiseOperands {
  Geometry geometry;
  std::array<OperandSource, N> sources{};
  std::array<ConstantSlot, N> constants{};
};

// Tensors and scalars are cast to `compute` first, then widened to its arithmetic type (PyTorch's
// and CANN's order): a tensor of another dtype is rounded to a 16-bit compute dtype
// (int32 2049 -> 2048 for float16), as a scalar is.
template <size_t N>
ElementwiseOperands<N> plan_operands(OpBuilder& b, DType compute, const aclTensor& out,
                                     const std::array<EwInput, N>& inputs);
extern template ElementwiseOperands<1> plan_operands<1>(OpBuilder&, DType, const aclTensor&,
                                                        const std::array<EwInput, 1>&);
extern template ElementwiseOperands<2> plan_operands<2>(OpBuilder&, DType, const aclTensor&,
                                                        const std::array<EwInput, 2>&);
extern template ElementwiseOperands<3> plan_operands<3>(OpBuilder&, DType, const aclTensor&,
                                                        const std::array<EwInput, 3>&);
extern template ElementwiseOperands<4> plan_operands<4>(OpBuilder&, DType, const aclTensor&,
                                                        const std::array<EwInput, 4>&);

// Plans `out = f(inputs...)` over the broadcast of the inputs, computed in `compute` (its
// arithmetic type T). make_functor(type_tag<T>) returns the functor for T.
template <size_t N, TypeSet Set = TypeSet::kAll, typename MakeFunctor>
void plan_elementwise(OpBuilder& b, const std::string& name, DType compute, const aclTensor& out,
                      std::array<EwInput, N> inputs, MakeFunctor&& make_functor) {
  if (out.numel() == 0) {
    b.set_kernel(nullptr);
    return;
  }
  ElementwiseOperands<N> ops = plan_operands<N>(b, compute, out, inputs);
  visit_arithmetic<Set>(compute, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto f = make_functor(tag);
    auto k = std::make_shared<ElementwiseKernel<T, decltype(f), N>>(name, f,
                                                                    std::move(ops.geometry), b.slot_of(out),
                                                                    out.dtype, ops.sources, ops.constants.data());
    const uint64_t ws = k->workspace_bytes();
    b.set_kernel(std::move(k), ws);
  });
}

// ---- unary ops ------------------------------------------------------------------------------------

// How a unary op chooses its compute dtype from self's dtype.
enum class UnaryResult {
  kSame,      // compute in self's dtype (Abs, Neg, Relu...)
  kFloating,  // integer and bool inputs compute in float32 (Exp, Sin, Sigmoid...)
};

struct UnarySpec {
  DTypeMask allowed;  // dtypes accepted for self (and for out)
  UnaryResult result;
  bool out_same_dtype = false;  // out's dtype must equal self's (else: castable from the result)
};

// Checks and plans out = F<T>{params...}(self) for a unary op; in-place when out == self.
// F is instantiated only for the arithmetic types the spec can reach.
template <template <typename> class F, const UnarySpec& spec, typename... Params>
void plan_unary(OpBuilder& b, const aclTensor* self_arg, const aclTensor* out_arg, bool inplace, Params... params) {
  const char* self_name = inplace ? "selfRef" : "self";
  const aclTensor& self = inplace ? b.inout(self_arg, self_name) : b.input(self_arg, self_name);
  const aclTensor& out = inplace ? self : b.output(out_arg, "out");
  const char* out_name = inplace ? self_name : "out";
  check_dtype_in(b.op(), self_name, self.dtype, spec.allowed);
  check_dtype_supported(b.op(), out_name, out.dtype);
  DType compute = self.dtype;
  if (spec.result == UnaryResult::kFloating && !is_floating(self.dtype)) compute = DType::kFloat;
  if (spec.out_same_dtype && out.dtype != self.dtype)
    invalid("{} dtype {} must equal {} dtype {}", out_name, dtype_name(out.dtype), self_name, dtype_name(self.dtype));
  check_can_cast(compute, out, out_name);
  check_rank(self, self_name);
  check_shape_equals(out, out_name, self.view);
  std::array<EwInput, 1> in{EwInput{&self, nullptr}};
  const std::string name = std::string("elementwise.") + b.op().name;
  auto make = [&](auto tag) {
    using T = typename decltype(tag)::type;
    return F<T>{static_cast<T>(params)...};
  };
  constexpr TypeSet set = (spec.result == UnaryResult::kFloating || (spec.allowed & ~kFloatingTypes) == 0)
                             ? TypeSet::kFloating
                         : (spec.allowed >> static_cast<int>(DType::kBool)) & 1u ? TypeSet::kAll
                                                                                  : TypeSet::kNumeric;
  plan_elementwise<1, set>(b, name, compute, out, in, make);
}

// ---- binary ops -----------------------------------------------------------------------------------

// How a binary op chooses its compute dtype from the promoted dtype of its operands.
enum class BinaryResult {
  kPromote,    // compute in the promoted dtype (Maximum, BitwiseAnd, Remainder...)
  kFloating,   // integer and bool promoted dtypes compute in float32 (Atan2, Pow with float semantics...)
  kPredicate,  // compute in the promoted dtype, the functor returns bool (Eq, Gt, LogicalAnd...)
};

struct BinarySpec {
  DTypeMask allowed;  // dtypes accepted for self and other
  BinaryResult result;
};

// tensor (op) scalar result dtype with CANN's rules (PyTorch-like; a double scalar promotes an
// integer tensor to float64 unless out is float32; an integer scalar never widens an integer tensor).
DType promote_tensor_scalar(DType self, DType scalar, DType out);

// Checks and plans out = F<T>{params...}(self, other), other a tensor (broadcast) or a scalar;
// in-place when inplace (out is selfRef and cannot be broadcast). Predicates write bool results
// converted to out's dtype.
template <template <typename> class F, const BinarySpec& spec, typename... Params>
void plan_binary_op(OpBuilder& b, const aclTensor* self_arg, const aclTensor* other_arg, const aclScalar* other_scalar,
                    const aclTensor* out_arg, bool inplace, Params... params) {
  const char* self_name = inplace ? "selfRef" : "self";
  const aclTensor& self = inplace ? b.inout(self_arg, self_name) : b.input(self_arg, self_name);
  const aclTensor* other = other_scalar ? nullptr : &b.input(other_arg, "other");
  const aclScalar* other_s = other_scalar ? &b.scalar(other_scalar, "other") : nullptr;
  const aclTensor& out = inplace ? self : b.output(out_arg, "out");
  const char* out_name = inplace ? self_name : "out";
  check_dtype_in(b.op(), self_name, self.dtype, spec.allowed);
  if (other) check_dtype_in(b.op(), "other", other->dtype, spec.allowed);
  if (other_s) check_dtype_supported(b.op(), "other", other_s->dtype);
  check_dtype_supported(b.op(), out_name, out.dtype);
  DType promoted = other ? promote(self.dtype, other->dtype) : promote_tensor_scalar(self.dtype, other_s->dtype, out.dtype);
  if (promoted == DType::kUndefined)
    invalid("self dtype {} and other dtype {} have no common dtype", dtype_name(self.dtype),
            dtype_name(other ? other->dtype : other_s->dtype));
  DType compute = promoted;
  if (spec.result == BinaryResult::kFloating && !is_floating(promoted)) compute = DType::kFloat;
  if (spec.result != BinaryResult::kPredicate) check_can_cast(compute, out, out_name);
  check_rank(self, self_name);
  Dims shape = self.view;
  if (other) {
    check_rank(*other, "other");
    shape = broadcast_shapes(self.view, self_name, other->view, "other");
    if (inplace && shape != self.view)
      invalid("{} has shape {} but broadcasting with other {} gives {}; an in-place result cannot be broadcast",
              self_name, dims_str(self.view), dims_str(other->view), dims_str(shape));
  }
  check_shape_equals(out, out_name, shape);
  std::array<EwInput, 2> in{EwInput{&self, nullptr}, other ? EwInput{other, nullptr} : EwInput{nullptr, other_s}};
  const std::string name = std::string("elementwise.") + b.op().name;
  auto make = [&](auto tag) {
    using T = typename decltype(tag)::type;
    return F<T>{static_cast<T>(params)...};
  };
  constexpr TypeSet set = (spec.result == BinaryResult::kFloating || (spec.allowed & ~kFloatingTypes) == 0)
                             ? TypeSet::kFloating
                         : (spec.allowed >> static_cast<int>(DType::kBool)) & 1u ? TypeSet::kAll
                                                                                  : TypeSet::kNumeric;
  plan_elementwise<2, set>(b, name, compute, out, in, make);
}

}  // namespace pacl
