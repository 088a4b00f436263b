// The foreach family: aclnnForeach<Op>, "the same op applied to tensor i of each list". A foreach
// op is planned as a sequence of ordinary single-tensor plans (kernel_sequence.h), one per list
// element, each built by the shared elementwise engine with the single-tensor ops' functors
// (functors.h). So an entry point is one line: its operands in parameter order -- which is also
// the functor's argument order -- a functor and a spec (list dtypes, the dtype rule of its scalar).
//
// Operands. A list gives step i its tensor i. A scalar comes in four forms: an aclScalar (the V2
// ops), an aclScalarList (value i for step i), a one-element aclTensor (read when the op runs, as
// the device reads it, so a value written by earlier work on the stream is seen), or an aclTensor
// of one value per list element (Addc*List: element i for step i).
//
// Semantics (CANN's docs, Atlas A2 lists): every tensor of every list, out included, has the lists'
// one dtype; tensor i of every list has the shape of tensor i of the first list (no broadcasting).
// float16/bfloat16 compute in float32 -- the scalar too, unrounded -- and round once at the end;
// integer lists compute in their own type (wrapping), except Exp/Expm1, which compute in float32.
// Copy, ZeroInplace, Norm, NonFiniteCheckAndUnscale and RoundOffNumber are planned below with the
// same sequence mechanism.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_foreach_a_cos_inplace.h"
#include "aclnnop/aclnn_foreach_abs.h"
#include "aclnnop/aclnn_foreach_acos.h"
#include "aclnnop/aclnn_foreach_add_list.h"
#include "aclnnop/aclnn_foreach_add_list_inplace.h"
#include "aclnnop/aclnn_foreach_add_list_v2.h"
#include "aclnnop/aclnn_foreach_add_scalar.h"
#include "aclnnop/aclnn_foreach_add_scalar_list.h"
#include "aclnnop/aclnn_foreach_add_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcdiv_list.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar_list.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcmul_list.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_list.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_asin.h"
#include "aclnnop/aclnn_foreach_atan.h"
#include "aclnnop/aclnn_foreach_copy.h"
#include "aclnnop/aclnn_foreach_cos.h"
#include "aclnnop/aclnn_foreach_cosh.h"
#include "aclnnop/aclnn_foreach_div_list.h"
#include "aclnnop/aclnn_foreach_div_list_inplace.h"
#include "aclnnop/aclnn_foreach_div_scalar.h"
#include "aclnnop/aclnn_foreach_div_scalar_list.h"
#include "aclnnop/aclnn_foreach_div_scalar_v2.h"
#include "aclnnop/aclnn_foreach_erf.h"
#include "aclnnop/aclnn_foreach_erfc.h"
#include "aclnnop/aclnn_foreach_exp.h"
#include "aclnnop/aclnn_foreach_expm1.h"
#include "aclnnop/aclnn_foreach_lerp_list.h"
#include "aclnnop/aclnn_foreach_lerp_scalar.h"
#include "aclnnop/aclnn_foreach_log.h"
#include "aclnnop/aclnn_foreach_log10.h"
#include "aclnnop/aclnn_foreach_log1p.h"
#include "aclnnop/aclnn_foreach_log2.h"
#include "aclnnop/aclnn_foreach_log_inplace.h"
#include "aclnnop/aclnn_foreach_maximum_list.h"
#include "aclnnop/aclnn_foreach_maximum_scalar.h"
#include "aclnnop/aclnn_foreach_maximum_scalar_list.h"
#include "aclnnop/aclnn_foreach_maximum_scalar_v2.h"
#include "aclnnop/aclnn_foreach_minimum_list.h"
#include "aclnnop/aclnn_foreach_minimum_scalar.h"
#include "aclnnop/aclnn_foreach_minimum_scalar_list.h"
#include "aclnnop/aclnn_foreach_minimum_scalar_v2.h"
#include "aclnnop/aclnn_foreach_mul_list.h"
#include "aclnnop/aclnn_foreach_mul_list_inplace.h"
#include "aclnnop/aclnn_foreach_mul_scalar.h"
#include "aclnnop/aclnn_foreach_mul_scalar_inplace.h"
#include "aclnnop/aclnn_foreach_mul_scalar_list.h"
#include "aclnnop/aclnn_foreach_mul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_neg.h"
#include "aclnnop/aclnn_foreach_non_finite_check_and_unscale.h"
#include "aclnnop/aclnn_foreach_norm.h"
#include "aclnnop/aclnn_foreach_pow_list.h"
#include "aclnnop/aclnn_foreach_pow_scalar.h"
#include "aclnnop/aclnn_foreach_pow_scalar_and_tensor.h"
#include "aclnnop/aclnn_foreach_pow_scalar_list.h"
#include "aclnnop/aclnn_foreach_pow_scalar_v2.h"
#include "aclnnop/aclnn_foreach_reciprocal.h"
#include "aclnnop/aclnn_foreach_round_off_number.h"
#include "aclnnop/aclnn_foreach_round_off_number_v2.h"
#include "aclnnop/aclnn_foreach_sigmoid.h"
#include "aclnnop/aclnn_foreach_sign.h"
#include "aclnnop/aclnn_foreach_sin.h"
#include "aclnnop/aclnn_foreach_sinh.h"
#include "aclnnop/aclnn_foreach_sqrt.h"
#include "aclnnop/aclnn_foreach_sub_list.h"
#include "aclnnop/aclnn_foreach_sub_list_inplace.h"
#include "aclnnop/aclnn_foreach_sub_list_v2.h"
#include "aclnnop/aclnn_foreach_sub_scalar.h"
#include "aclnnop/aclnn_foreach_sub_scalar_inplace.h"
#include "aclnnop/aclnn_foreach_sub_scalar_list.h"
#include "aclnnop/aclnn_foreach_sub_scalar_v2.h"
#include "aclnnop/aclnn_foreach_tan.h"
#include "aclnnop/aclnn_foreach_tanh.h"
#include "aclnnop/aclnn_foreach_zero_inplace.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/functors.h"
#include "ops/kernel_sequence.h"
#include "ops/registry.h"

namespace pacl {
namespace {

// ---- functors only the foreach family has ----------------------------------------------------------

// A functor's scalar member supplied as an extra last operand (a value read when the op runs).
template <template <typename> class F>
struct ParamLast {
  template <typename T>
  struct Op2 {
    T operator()(T a, T b, T p) const { return F<T>{p}(a, b); }
  };
  template <typename T>
  struct Op3 {
    T operator()(T a, T b, T c, T p) const { return F<T>{p}(a, b, c); }
  };
};
template <typename T>
using AddAlphaOp = ParamLast<AddAlpha>::Op2<T>;
template <typename T>
using SubAlphaOp = ParamLast<SubAlpha>::Op2<T>;
template <typename T>
using AddcmulValueOp = ParamLast<AddcmulOp>::Op3<T>;
template <typename T>
using AddcdivValueOp = ParamLast<AddcdivOp>::Op3<T>;

template <typename T>
struct PassOp {
  T operator()(T a) const { return a; }
};

// RoundOffNumber: x rounded to an integral value as `mode` says (CANN's kernel: a Cast with that
// round mode). 1 half to even, 2 down, 3 up, 4 half away from zero, 5 toward zero, 6 to odd
// (von Neumann: an inexact value becomes the odd one of its two integral neighbours), 7 the
// fraction x - trunc(x); any other mode leaves x as it is. Integers are integral already
// (7 gives 0).
template <typename T>
struct RoundOffOp {
  T operator()(T a, T mode) const {
    if constexpr (std::is_integral_v<T>) {
      return mode == T(7) ? T(0) : a;
    } else {
      if (!(mode >= T(1) && mode <= T(7))) return a;
      switch (static_cast<int>(mode)) {
        case 1: return std::nearbyint(a);
        case 2: return std::floor(a);
        case 3: return std::ceil(a);
        case 4: return std::round(a);
        case 5: return std::trunc(a);
        case 6: {
          const T f = std::floor(a);
          if (f == a) return a;
          return std::fmod(f, T(2)) != T(0) ? f : f + T(1);
        }
        case 7: return a - std::trunc(a);
        default: return a;
      }
    }
  }
};

// ---- operands ----------------------------------------------------------------------------------------

constexpr DType F32 = DType::kFloat, F16 = DType::kFloat16, BF16 = DType::kBFloat16, F64 = DType::kDouble,
                I8 = DType::kInt8, U8 = DType::kUInt8, I16 = DType::kInt16, I32 = DType::kInt32, I64 = DType::kInt64;

// Where an operand of the per-element op comes from.
enum class Src {
  kList,        // a tensor list: tensor i for step i
  kInOut,       // a tensor list read and written (the first list of the in-place forms)
  kTensor,      // an aclTensor of one value, read when the op runs
  kPerElement,  // an aclTensor of one value per list element: element i for step i
  kScalar,      // an aclScalar
  kScalarList,  // an aclScalarList: value i for step i
};

struct Operand {
  Src src;
  const void* arg;
  const char* name;
};
Operand list(const aclTensorList* l, const char* name) { return {Src::kList, l, name}; }
Operand inout(const aclTensorList* l, const char* name) { return {Src::kInOut, l, name}; }
Operand tensor_scalar(const aclTensor* t, const char* name) { return {Src::kTensor, t, name}; }
Operand per_element(const aclTensor* t, const char* name) { return {Src::kPerElement, t, name}; }
Operand host_scalar(const aclScalar* s, const char* name) { return {Src::kScalar, s, name}; }
Operand scalar_list(const aclScalarList* l, const char* name) { return {Src::kScalarList, l, name}; }
template <typename... Ops>
std::array<Operand, sizeof...(Ops)> operands(Ops... ops) {
  return {ops...};
}

// An operand after the null checks.
struct Resolved {
  Src src;
  const char* name;
  std::vector<const aclTensor*> tensors;  // kList, kInOut
  const aclTensor* tensor = nullptr;      // kTensor, kPerElement
  const aclScalar* scalar = nullptr;      // kScalar
  std::vector<const aclScalar*> scalars;  // kScalarList

  bool is_list() const { return src == Src::kList || src == Src::kInOut; }
  // The operand of step i.
  EwInput at(size_t i) const {
    switch (src) {
      case Src::kList:
      case Src::kInOut: return EwInput{tensors[i], nullptr};
      case Src::kTensor: return EwInput{tensor, nullptr, 0};
      case Src::kPerElement: return EwInput{tensor, nullptr, static_cast<int64_t>(i)};
      case Src::kScalar: return EwInput{nullptr, scalar};
      case Src::kScalarList: return EwInput{nullptr, scalars[i]};
    }
    return {};
  }
};

Resolved resolve(OpBuilder& b, const Operand& o) {
  Resolved r{o.src, o.name, {}, nullptr, nullptr, {}};
  switch (o.src) {
    case Src::kList: r.tensors = b.input_list(static_cast<const aclTensorList*>(o.arg), o.name); break;
    case Src::kInOut: r.tensors = b.output_list(static_cast<const aclTensorList*>(o.arg), o.name); break;
    case Src::kTensor:
    case Src::kPerElement: r.tensor = &b.input(static_cast<const aclTensor*>(o.arg), o.name); break;
    case Src::kScalar: r.scalar = &b.scalar(static_cast<const aclScalar*>(o.arg), o.name); break;
    case Src::kScalarList: {
      const aclScalarList& l = b.scalar_list(static_cast<const aclScalarList*>(o.arg), o.name);
      for (size_t i = 0; i < l.items.size(); ++i)
        r.scalars.push_back(&live(l.items[i], fmt::format("{}[{}]", o.name, i).c_str()));
      break;
    }
  }
  return r;
}

// ---- specs -------------------------------------------------------------------------------------------

// The dtypes a scalar operand may have, given the lists' dtype x (CANN's Atlas A2 correspondence).
enum class ScalarRule {
  kNone,
  kTensor,     // a one-element tensor: x's dtype for float32/float16/int32, float32 for bfloat16,
               // int32 for int16/int8/uint8
  kHost,       // aclScalar: float32/float64 for float32/bfloat16, float16/float64 for float16, int32/int64 for integers
  kList,       // aclScalarList: float32 for floating x, int64 for int32
  kListWide,   // aclScalarList: float32/float64 for floating x, int64 for int32
  kSameAsX,    // a tensor of x's dtype
  kFloat,      // float32/float64 (LerpScalar's weight)
  kBase,       // PowScalarAndTensor's base: float32/float64 for floating x, int64 for int32
  kRoundMode,  // int8
  kRoundModeV2,  // int8/int64
  kNorm,       // float32/float64/int64 (Norm's p)
};

DTypeMask scalar_mask(ScalarRule r, DType x) {
  const bool fl = is_floating(x);
  switch (r) {
    case ScalarRule::kNone: return 0;
    case ScalarRule::kTensor:
      if (x == BF16) return dtype_mask({F32});
      return fl || x == I32 ? dtype_mask({x}) : dtype_mask({I32});
    case ScalarRule::kHost:
      if (x == F16) return dtype_mask({F16, F64});
      return fl ? dtype_mask({F32, F64}) : dtype_mask({I32, I64});
    case ScalarRule::kList: return fl ? dtype_mask({F32}) : dtype_mask({I64});
    case ScalarRule::kListWide:
    case ScalarRule::kBase: return fl ? dtype_mask({F32, F64}) : dtype_mask({I64});
    case ScalarRule::kSameAsX: return dtype_mask({x});
    case ScalarRule::kFloat: return dtype_mask({F32, F64});
    case ScalarRule::kRoundMode: return dtype_mask({I8});
    case ScalarRule::kRoundModeV2: return dtype_mask({I8, I64});
    case ScalarRule::kNorm: return dtype_mask({F32, F64, I64});
  }
  return 0;
}

struct ForeachSpec {
  DTypeMask x;  // the lists' dtypes (all tensors of all lists share one)
  ScalarRule scalar = ScalarRule::kNone;
  bool float_compute = false;  // integer lists compute in float32 (Exp of int8)
};

constexpr DTypeMask kF3 = dtype_mask({F32, F16, BF16});
constexpr DTypeMask kF3I32 = kF3 | dtype_mask({I32});
constexpr DTypeMask kF3Ints = kF3I32 | dtype_mask({I16, I8, U8});

template <const ForeachSpec& spec>
constexpr TypeSet type_set() {
  return spec.float_compute || (spec.x & ~kFloatingTypes) == 0 ? TypeSet::kFloating : TypeSet::kNumeric;
}

DType compute_dtype(const ForeachSpec& spec, DType x) {
  return spec.float_compute && !is_floating(x) ? F32 : arithmetic_dtype(x);
}

// ---- checks ------------------------------------------------------------------------------------------

void check_one_element(const aclTensor& t, const char* name) {
  if (t.numel() != 1) invalid("{} has {} elements ({}), expected 1", name, t.numel(), t.describe());
}

// The checked arguments of a foreach op: its operands and the output list (the first list in place).
struct ForeachArgs {
  std::vector<Resolved> ops;
  std::vector<const aclTensor*> out;
  const char* out_name = "out";
  size_t n = 0;            // tensors per list
  DType dtype = F32;       // the lists' dtype
  const char* first = "";  // name of the first list
};

enum class OutRule {
  kSame,        // out[i]: the dtype and shape of the first list's tensor i
  kAnyDtype,    // the shape only (Copy checks the dtype itself)
  kOneElement,  // the dtype, and one element (Norm)
};

// CANN's order: null pointers in parameter order, then list lengths, dtypes, ranks, shapes.
ForeachArgs check_foreach(OpBuilder& b, const ForeachSpec& spec, const Operand* operands, size_t n_ops,
                          const aclTensorList* out_arg, OutRule out_rule = OutRule::kSame) {
  ForeachArgs a;
  for (size_t k = 0; k < n_ops; ++k) a.ops.push_back(resolve(b, operands[k]));
  const Resolved* first = nullptr;
  for (const Resolved& r : a.ops)
    if (r.is_list()) {
      first = &r;
      break;
    }
  const bool inplace = a.ops[0].src == Src::kInOut;  // the in-place forms have no out parameter
  if (inplace) {
    a.out = a.ops[0].tensors;
    a.out_name = a.ops[0].name;
  } else {
    a.out = b.output_list(out_arg, "out");
  }
  a.first = first->name;
  a.n = first->tensors.size();
  const OpInfo& op = b.op();

  // Lengths.
  if (a.n == 0) invalid("{} is an empty tensor list; at least one tensor is expected", a.first);
  auto check_length = [&](size_t len, const char* name, const char* what) {
    if (len != a.n)
      invalid("{} has {} {}, expected {}: one per tensor of {}", name, len, what, a.n, a.first);
  };
  for (const Resolved& r : a.ops) {
    if (r.is_list()) check_length(r.tensors.size(), r.name, "tensors");
    if (r.src == Src::kScalarList) check_length(r.scalars.size(), r.name, "values");
  }
  if (!inplace) check_length(a.out.size(), "out", "tensors");

  // Dtypes.
  a.dtype = first->tensors[0]->dtype;
  check_dtype_in(op, fmt::format("{}[0]", a.first).c_str(), a.dtype, spec.x);
  auto check_list_dtype = [&](const std::vector<const aclTensor*>& ts, const char* name) {
    for (size_t i = 0; i < ts.size(); ++i)
      if (ts[i]->dtype != a.dtype)
        invalid("{}[{}] dtype {} differs from {}[0] dtype {}; every tensor of the lists must have one dtype", name, i,
                dtype_name(ts[i]->dtype), a.first, dtype_name(a.dtype));
  };
  for (const Resolved& r : a.ops)
    if (r.is_list()) check_list_dtype(r.tensors, r.name);
  if (!inplace && out_rule != OutRule::kAnyDtype) check_list_dtype(a.out, "out");
  const DTypeMask scalar_ok = scalar_mask(spec.scalar, a.dtype);
  auto check_scalar_dtype = [&](DType t, const std::string& name) {
    if (!in_mask(scalar_ok, t))
      invalid("{} dtype {} is not supported by aclnn{} for {} of dtype {}; supported: {}", name, dtype_name(t),
              op.name, a.first, dtype_name(a.dtype), mask_names(scalar_ok));
  };
  for (const Resolved& r : a.ops) {
    if (r.tensor) check_scalar_dtype(r.tensor->dtype, r.name);
    if (r.scalar) check_scalar_dtype(r.scalar->dtype, r.name);
    for (size_t i = 0; i < r.scalars.size(); ++i)
      check_scalar_dtype(r.scalars[i]->dtype, fmt::format("{}[{}]", r.name, i));
  }

  // Ranks and shapes.
  auto check_list_shapes = [&](const std::vector<const aclTensor*>& ts, const char* name, bool same_shape) {
    for (size_t i = 0; i < ts.size(); ++i) {
      check_rank(*ts[i], fmt::format("{}[{}]", name, i).c_str());
      const aclTensor& ref = *first->tensors[i];
      if (same_shape && ts[i]->view != ref.view)
        invalid("{}[{}] has shape {}, expected the shape {} of {}[{}]", name, i, dims_str(ts[i]->view),
                dims_str(ref.view), a.first, i);
    }
  };
  for (const Resolved& r : a.ops) {
    if (r.is_list()) check_list_shapes(r.tensors, r.name, true);
    if (r.tensor) check_rank(*r.tensor, r.name);
    if (r.src == Src::kTensor) check_one_element(*r.tensor, r.name);
    if (r.src == Src::kPerElement && r.tensor->numel() != static_cast<int64_t>(a.n))
      invalid("{} has {} elements ({}), expected {}: one per tensor of {}", r.name, r.tensor->numel(),
              r.tensor->describe(), a.n, a.first);
  }
  if (!inplace) {
    check_list_shapes(a.out, "out", out_rule != OutRule::kOneElement);
    if (out_rule == OutRule::kOneElement)
      for (size_t i = 0; i < a.n; ++i) check_one_element(*a.out[i], fmt::format("out[{}]", i).c_str());
  }
  return a;
}

// ---- the elementwise foreach ops ---------------------------------------------------------------------

// Plans out[i] = F(operand_0 of step i, operand_1 of step i, ...) for every list element i.
template <template <typename> class F, const ForeachSpec& spec, size_t N>
void plan_foreach(OpBuilder& b, const std::array<Operand, N>& operands, const aclTensorList* out_arg) {
  const ForeachArgs a = check_foreach(b, spec, operands.data(), N, out_arg);
  const DType compute = compute_dtype(spec, a.dtype);
  const std::string name = std::string("elementwise.") + b.op().name;
  plan_sequence(b, std::string("foreach.") + b.op().name, a.n, [&](size_t i) {
    std::array<EwInput, N> in;
    for (size_t k = 0; k < N; ++k) in[k] = a.ops[k].at(i);
    plan_elementwise<N, type_set<spec>()>(b, name, compute, *a.out[i], in,
                                           [](auto tag) { return F<typename decltype(tag)::type>{}; });
  });
}

// Specs, one per dtype/scalar combination (the op's functor comes with its entry point).
constexpr ForeachSpec kFloatList{kF3};
constexpr ForeachSpec kF3I32List{kF3I32};
constexpr ForeachSpec kIntsList{kF3Ints};
constexpr ForeachSpec kExpList{kF3 | dtype_mask({I16, I8, U8}), ScalarRule::kNone, true};
constexpr ForeachSpec kSignList{kF3 | dtype_mask({I8, I32, I64})};
constexpr ForeachSpec kFloatTensor{kF3, ScalarRule::kTensor};
constexpr ForeachSpec kF3I32Tensor{kF3I32, ScalarRule::kTensor};
constexpr ForeachSpec kIntsTensor{kF3Ints, ScalarRule::kTensor};
constexpr ForeachSpec kFloatHost{kF3, ScalarRule::kHost};
constexpr ForeachSpec kF3I32Host{kF3I32, ScalarRule::kHost};
constexpr ForeachSpec kIntsHost{kF3Ints, ScalarRule::kHost};
constexpr ForeachSpec kFloatScalarList{kF3, ScalarRule::kList};
constexpr ForeachSpec kF3I32ScalarList{kF3I32, ScalarRule::kList};
constexpr ForeachSpec kF3I32ScalarListWide{kF3I32, ScalarRule::kListWide};
constexpr ForeachSpec kFloatPerElement{kF3, ScalarRule::kSameAsX};
constexpr ForeachSpec kF3I32PerElement{kF3I32, ScalarRule::kSameAsX};
constexpr ForeachSpec kLerpScalar{kF3, ScalarRule::kFloat};
constexpr ForeachSpec kPowBase{kF3I32, ScalarRule::kBase};
constexpr ForeachSpec kRoundMode{kF3 | dtype_mask({I16}), ScalarRule::kRoundMode};
constexpr ForeachSpec kRoundModeV2{kF3 | dtype_mask({I16}), ScalarRule::kRoundModeV2};

// ---- ZeroInplace, Copy, Norm, NonFiniteCheckAndUnscale -----------------------------------------------

constexpr ForeachSpec kZeroList{kF3 | dtype_mask({I16, I32})};

void plan_zero(OpBuilder& b, const aclTensorList* x) {
  const Operand o = inout(x, "x");
  const ForeachArgs a = check_foreach(b, kZeroList, &o, 1, nullptr);
  aclScalar zero;
  zero.dtype = I64;
  const std::string name = std::string("fill.") + b.op().name;
  plan_sequence(b, std::string("foreach.") + b.op().name, a.n, [&](size_t i) {
    plan_elementwise<1, TypeSet::kNumeric>(b, name, a.dtype, *a.out[i], std::array<EwInput, 1>{EwInput{nullptr, &zero}},
                                           [](auto tag) { return PassOp<typename decltype(tag)::type>{}; });
  });
}

constexpr ForeachSpec kCopyList{kF3 | dtype_mask({I8, U8, I16, DType::kUInt16, I32, DType::kUInt32, I64, F64,
                                                   DType::kBool})};

// out[i] = x[i], any layout; float32 may become float16/bfloat16 and float16 float32 on the way.
void plan_copy(OpBuilder& b, const aclTensorList* x, const aclTensorList* out) {
  const Operand o = list(x, "x");
  const ForeachArgs a = check_foreach(b, kCopyList, &o, 1, out, OutRule::kAnyDtype);
  for (size_t i = 0; i < a.n; ++i) {
    const DType t = a.out[i]->dtype;
    const bool ok = t == a.dtype || (a.dtype == F32 && (t == F16 || t == BF16)) || (a.dtype == F16 && t == F32);
    if (!ok)
      invalid("out[{}] dtype {} is not a copy target of x dtype {}; supported: {}", i, dtype_name(t),
              dtype_name(a.dtype),
              a.dtype == F32   ? "float32, float16, bfloat16"
              : a.dtype == F16 ? "float16, float32"
                               : dtype_name(a.dtype));
  }
  const std::vector<const aclTensor*>& src = a.ops[0].tensors;
  plan_sequence(b, std::string("foreach.") + b.op().name, a.n, [&](size_t i) {
    const aclTensor& s = *src[i];
    const aclTensor& d = *a.out[i];
    if (d.numel() == 0) return;
    DensePlan p(b);
    p.separate_outputs();
    const int in = p.strided(s);
    const int o2 = p.output(d, d.dtype);
    const Dims shape = s.view, strides = s.strides;
    const DType st = s.dtype, dt = d.dtype;
    p.finish(std::string("copy.") + dtype_name(st) + "." + dtype_name(dt), [=](const DenseArgs& args) {
      copy_strided(shape, dt, args.ptr(o2), contiguous_strides(shape), st, args.ptr(in), strides);
    });
  });
}

// Sum of f(v[k]) for k < n in float, summed in blocks so that the rounding error stays small.
template <typename F>
float block_sum(const float* v, int64_t n, F f) {
  constexpr int64_t kBlock = 256;
  float total = 0;
  for (int64_t s = 0; s < n; s += kBlock) {
    float part = 0;
    const int64_t e = std::min(n, s + kBlock);
    for (int64_t k = s; k < e; ++k) part += f(v[k]);
    total += part;
  }
  return total;
}

// The p-norm of v[0..n) (torch.linalg.vector_norm): p = inf: max |v|, -inf: min |v|, 0: the number
// of non-zeros, else (sum |v|^p)^(1/p); NaN propagates. An empty tensor's norm is 0.
float vector_norm(const float* v, int64_t n, double p) {
  if (n == 0) return 0;
  if (std::isinf(p)) {
    float r = std::fabs(v[0]);
    for (int64_t k = 1; k < n; ++k) {
      const float x = std::fabs(v[k]);
      if (std::isnan(x) || std::isnan(r)) r = std::numeric_limits<float>::quiet_NaN();
      else r = p > 0 ? std::max(r, x) : std::min(r, x);
    }
    return r;
  }
  if (p == 0) return block_sum(v, n, [](float x) { return x != 0 || std::isnan(x) ? 1.0f : 0.0f; });
  if (p == 1) return block_sum(v, n, [](float x) { return std::fabs(x); });
  if (p == 2) return std::sqrt(block_sum(v, n, [](float x) { return x * x; }));
  const float pf = static_cast<float>(p);
  return std::pow(block_sum(v, n, [pf](float x) { return std::pow(std::fabs(x), pf); }), 1.0f / pf);
}

constexpr ForeachSpec kNormSpec{kF3, ScalarRule::kNorm};

// out[i] = the p-norm of x[i] over all its elements, p = scalar.
void plan_norm(OpBuilder& b, const aclTensorList* x, const aclScalar* p, const aclTensorList* out) {
  const std::array<Operand, 2> ops{list(x, "x"), host_scalar(p, "scalar")};
  const ForeachArgs a = check_foreach(b, kNormSpec, ops.data(), ops.size(), out, OutRule::kOneElement);
  const double pv = a.ops[1].scalar->to_double();
  plan_sequence(b, std::string("foreach.") + b.op().name, a.n, [&](size_t i) {
    const aclTensor& t = *a.ops[0].tensors[i];
    DensePlan dp(b);
    const int in = dp.input(t, F32);
    const int o = dp.output(*a.out[i], F32);
    const int64_t n = t.numel();
    dp.finish("reduce.norm.float32", [=](const DenseArgs& args) {
      args.out<float>(o)[0] = vector_norm(args.in<float>(in), n, pv);
    });
  });
}

bool any_non_finite(DType t, const void* p, int64_t n) {
  if (t == F32) {
    const float* v = static_cast<const float*>(p);
    for (int64_t k = 0; k < n; ++k)
      if (!std::isfinite(v[k])) return true;
    return false;
  }
  const uint16_t exp_mask = t == F16 ? 0x7c00 : 0x7f80;  // all-ones exponent: inf or NaN
  const uint16_t* v = static_cast<const uint16_t*>(p);
  for (int64_t k = 0; k < n; ++k)
    if ((v[k] & exp_mask) == exp_mask) return true;
  return false;
}

// foundInf = 1 when any element of any scaledGrads tensor is inf or NaN (else unchanged); then every
// scaledGrads tensor is multiplied by invScale (read when the op runs, as foundInf is written).
void plan_non_finite(OpBuilder& b, const aclTensorList* grads_arg, const aclTensor* found_arg,
                     const aclTensor* inv_arg) {
  const std::vector<const aclTensor*> grads = b.output_list(grads_arg, "scaledGrads");
  const aclTensor& found = b.inout(found_arg, "foundInf");
  const aclTensor& inv = b.input(inv_arg, "invScale");
  if (grads.empty()) invalid("scaledGrads is an empty tensor list; at least one tensor is expected");
  const DType t = grads[0]->dtype;
  check_dtype_in(b.op(), "scaledGrads[0]", t, kF3);
  for (size_t i = 1; i < grads.size(); ++i)
    if (grads[i]->dtype != t)
      invalid("scaledGrads[{}] dtype {} differs from scaledGrads[0] dtype {}; every tensor of the list must have one "
              "dtype",
              i, dtype_name(grads[i]->dtype), dtype_name(t));
  check_dtype_in(b.op(), "foundInf", found.dtype, dtype_mask({F32}));
  check_dtype_in(b.op(), "invScale", inv.dtype, dtype_mask({F32}));
  for (size_t i = 0; i < grads.size(); ++i) check_rank(*grads[i], fmt::format("scaledGrads[{}]", i).c_str());
  check_one_element(found, "foundInf");
  check_one_element(inv, "invScale");
  // Steps 0..n-1 check, steps n..2n-1 scale: every tensor is checked before any is scaled.
  const size_t n = grads.size();
  const std::string name = std::string("elementwise.") + b.op().name;
  plan_sequence(b, std::string("foreach.") + b.op().name, 2 * n, [&](size_t s) {
    const aclTensor& g = *grads[s % n];
    if (g.numel() == 0) return;
    if (s < n) {
      DensePlan p(b);
      const int in = p.input(g, t);
      const int f = p.output(found, F32, Access::kReadWrite);
      const int64_t count = g.numel();
      p.finish(std::string("check_finite.") + dtype_name(t), [=](const DenseArgs& args) {
        if (any_non_finite(t, args.ptr(in), count)) args.out<float>(f)[0] = 1.0f;
      });
      return;
    }
    const std::array<EwInput, 2> in{EwInput{&g}, EwInput{&inv, nullptr, 0}};
    plan_elementwise<2, TypeSet::kFloating>(b, name, F32, g, in,
                                            [](auto tag) { return MulOp<typename decltype(tag)::type>{}; });
  });
}

}  // namespace
}  // namespace pacl

// ---- phase-1 entry points ----------------------------------------------------------------------------

#define PACL_PHASE1(Name, ...)                                                                               \
  pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor,               \
                   [&](pacl::OpBuilder& b) { __VA_ARGS__; })
// out[i] = Functor(operands of step i): the operands are the op's parameters before out, in order.
#define PACL_FOREACH(Name, Functor, spec, out, ...)                                                          \
  PACL_PHASE1(Name, using namespace pacl; plan_foreach<Functor, spec>(b, operands(__VA_ARGS__), out))

extern "C" {

// Binary ops: a list with a scalar, a scalar list or a second list.
aclnnStatus aclnnForeachAddListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                const aclTensor* alpha, aclTensorList* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAddList, AddAlphaOp, kIntsTensor, out, list(x1, "x1"), list(x2, "x2"),
                      tensor_scalar(alpha, "alpha"));
}
aclnnStatus aclnnForeachAddListInplaceGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                       const aclTensor* alpha, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAddListInplace, AddAlphaOp, kF3I32Tensor, nullptr, inout(x1, "x1"), list(x2, "x2"),
                      tensor_scalar(alpha, "alpha"));
}
aclnnStatus aclnnForeachAddListV2GetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                  const aclScalar* alpha, aclTensorList* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAddListV2, AddAlphaOp, kIntsHost, out, list(x1, "x1"), list(x2, "x2"),
                      host_scalar(alpha, "alpha"));
}
aclnnStatus aclnnForeachAddScalarGetWorkspaceSize(const aclTensorList* x, const aclTensor* scalar,
                                                  const aclTensorList* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAddScalar, AddPlain, kIntsTensor, out, list(x, "x"), tensor_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachAddScalarListGetWorkspaceSize(const aclTensorList* x, const aclScalarList* scalars,
                                                      const aclTensorList* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAddScalarList, AddPlain, kF3I32ScalarList, out, list(x, "x"),
                      scalar_list(scalars, "scalars"));
}
aclnnStatus aclnnForeachAddScalarV2GetWorkspaceSize(const aclTensorList* x, const aclScalar* scalar, aclTensorList* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAddScalarV2, AddPlain, kIntsHost, out, list(x, "x"), host_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachDivListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2, aclTensorList* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachDivList, DivTrue, kFloatList, out, list(x1, "x1"), list(x2, "x2"));
}
aclnnStatus aclnnForeachDivListInplaceGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachDivListInplace, DivTrue, kFloatList, nullptr, inout(x1, "x1"), list(x2, "x2"));
}
aclnnStatus aclnnForeachDivScalarGetWorkspaceSize(const aclTensorList* x, const aclTensor* scalar, aclTensorList* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachDivScalar, DivTrue, kFloatTensor, out, list(x, "x"), tensor_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachDivScalarListGetWorkspaceSize(const aclTensorList* x, const aclScalarList* scalars,
                                                      const aclTensorList* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachDivScalarList, DivTrue, kFloatScalarList, out, list(x, "x"),
                      scalar_list(scalars, "scalars"));
}
aclnnStatus aclnnForeachDivScalarV2GetWorkspaceSize(const aclTensorList* x, const aclScalar* scalar, aclTensorList* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachDivScalarV2, DivTrue, kFloatHost, out, list(x, "x"), host_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachMaximumListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                    const aclTensorList* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachMaximumList, MaxOp, kF3I32List, out, list(x1, "x1"), list(x2, "x2"));
}
aclnnStatus aclnnForeachMaximumScalarGetWorkspaceSize(const aclTensorList* x, const aclTensor* scalar,
                                                      const aclTensorList* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachMaximumScalar, MaxOp, kF3I32Tensor, out, list(x, "x"), tensor_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachMaximumScalarListGetWorkspaceSize(const aclTensorList* x, const aclScalarList* scalars,
                                                          const aclTensorList* out, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachMaximumScalarList, MaxOp, kF3I32ScalarListWide, out, list(x, "x"),
                      scalar_list(scalars, "scalars"));
}
aclnnStatus aclnnForeachMaximumScalarV2GetWorkspaceSize(const aclTensorList* x, const aclScalar* scalar,
                                                        aclTensorList* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachMaximumScalarV2, MaxOp, kF3I32Host, out, list(x, "x"), host_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachMinimumListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                    const aclTensorList* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachMinimumList, MinOp, kF3I32List, out, list(x1, "x1"), list(x2, "x2"));
}
aclnnStatus aclnnForeachMinimumScalarGetWorkspaceSize(const aclTensorList* x, const aclTensor* scalar,
                                                      const aclTensorList* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachMinimumScalar, MinOp, kF3I32Tensor, out, list(x, "x"), tensor_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachMinimumScalarListGetWorkspaceSize(const aclTensorList* x, const aclScalarList* scalars,
                                                          const aclTensorList* out, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachMinimumScalarList, MinOp, kF3I32ScalarListWide, out, list(x, "x"),
                      scalar_list(scalars, "scalars"));
}
aclnnStatus aclnnForeachMinimumScalarV2GetWorkspaceSize(const aclTensorList* x, const aclScalar* scalar,
                                                        aclTensorList* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachMinimumScalarV2, MinOp, kF3I32Host, out, list(x, "x"), host_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachMulListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2, aclTensorList* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachMulList, MulOp, kIntsList, out, list(x1, "x1"), list(x2, "x2"));
}
aclnnStatus aclnnForeachMulListInplaceGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachMulListInplace, MulOp, kF3I32List, nullptr, inout(x1, "x1"), list(x2, "x2"));
}
aclnnStatus aclnnForeachMulScalarGetWorkspaceSize(const aclTensorList* x, const aclTensor* scalar,
                                                  const aclTensorList* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachMulScalar, MulOp, kF3I32Tensor, out, list(x, "x"), tensor_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachMulScalarInplaceGetWorkspaceSize(const aclTensorList* x, const aclTensor* scalar,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachMulScalarInplace, MulOp, kF3I32Tensor, nullptr, inout(x, "x"),
                      tensor_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachMulScalarListGetWorkspaceSize(const aclTensorList* x, const aclScalarList* scalars,
                                                      const aclTensorList* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachMulScalarList, MulOp, kF3I32ScalarList, out, list(x, "x"),
                      scalar_list(scalars, "scalars"));
}
aclnnStatus aclnnForeachMulScalarV2GetWorkspaceSize(const aclTensorList* x, const aclScalar* scalar, aclTensorList* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachMulScalarV2, MulOp, kF3I32Host, out, list(x, "x"), host_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachPowListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                const aclTensorList* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachPowList, PowOp, kF3I32List, out, list(x1, "x1"), list(x2, "x2"));
}
aclnnStatus aclnnForeachPowScalarGetWorkspaceSize(const aclTensorList* x, const aclTensor* scalar,
                                                  const aclTensorList* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachPowScalar, PowOp, kF3I32Tensor, out, list(x, "x"), tensor_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachPowScalarAndTensorGetWorkspaceSize(const aclScalar* scalar, const aclTensorList* x,
                                                           const aclTensorList* out, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachPowScalarAndTensor, PowOp, kPowBase, out, host_scalar(scalar, "scalar"), list(x, "x"));
}
aclnnStatus aclnnForeachPowScalarListGetWorkspaceSize(const aclTensorList* x, const aclScalarList* scalars,
                                                      const aclTensorList* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachPowScalarList, PowOp, kF3I32ScalarList, out, list(x, "x"),
                      scalar_list(scalars, "scalars"));
}
aclnnStatus aclnnForeachPowScalarV2GetWorkspaceSize(const aclTensorList* x, const aclScalar* scalar, aclTensorList* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachPowScalarV2, PowOp, kFloatHost, out, list(x, "x"), host_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachSubListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                const aclTensor* alpha, const aclTensorList* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachSubList, SubAlphaOp, kIntsTensor, out, list(x1, "x1"), list(x2, "x2"),
                      tensor_scalar(alpha, "alpha"));
}
aclnnStatus aclnnForeachSubListInplaceGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                       const aclTensor* alpha, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachSubListInplace, SubAlphaOp, kF3I32Tensor, nullptr, inout(x1, "x1"), list(x2, "x2"),
                      tensor_scalar(alpha, "alpha"));
}
aclnnStatus aclnnForeachSubListV2GetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                  const aclScalar* alpha, aclTensorList* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachSubListV2, SubAlphaOp, kIntsHost, out, list(x1, "x1"), list(x2, "x2"),
                      host_scalar(alpha, "alpha"));
}
aclnnStatus aclnnForeachSubScalarGetWorkspaceSize(const aclTensorList* x, const aclTensor* scalar,
                                                  const aclTensorList* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachSubScalar, SubPlain, kF3I32Tensor, out, list(x, "x"), tensor_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachSubScalarInplaceGetWorkspaceSize(const aclTensorList* x, const aclTensor* scalar,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachSubScalarInplace, SubPlain, kF3I32Tensor, nullptr, inout(x, "x"),
                      tensor_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachSubScalarListGetWorkspaceSize(const aclTensorList* x, const aclScalarList* scalars,
                                                      const aclTensorList* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachSubScalarList, SubPlain, kF3I32ScalarList, out, list(x, "x"),
                      scalar_list(scalars, "scalars"));
}
aclnnStatus aclnnForeachSubScalarV2GetWorkspaceSize(const aclTensorList* x, const aclScalar* scalar, aclTensorList* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachSubScalarV2, SubPlain, kF3I32Host, out, list(x, "x"), host_scalar(scalar, "scalar"));
}

// Unary ops.
aclnnStatus aclnnForeachACosInplaceGetWorkspaceSize(const aclTensorList* x, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachACosInplace, AcosOp, kFloatList, nullptr, inout(x, "x"));
}
aclnnStatus aclnnForeachAbsGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAbs, AbsOp, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachAcosGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAcos, AcosOp, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachAsinGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAsin, AsinOp, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachAtanGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAtan, AtanOp, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachCosGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachCos, CosOp, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachCoshGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachCosh, CoshOp, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachErfGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachErf, ErfOp, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachErfcGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachErfc, ErfcOp, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachExpGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachExp, ExpOp, kExpList, out, list(x, "x"));
}
aclnnStatus aclnnForeachExpm1GetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachExpm1, Expm1Op, kExpList, out, list(x, "x"));
}
aclnnStatus aclnnForeachLogGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachLog, LogOp, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachLog10GetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachLog10, Log10Op, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachLog1pGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachLog1p, Log1pOp, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachLog2GetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachLog2, Log2Op, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachLogInplaceGetWorkspaceSize(const aclTensorList* x, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachLogInplace, LogOp, kFloatList, nullptr, inout(x, "x"));
}
aclnnStatus aclnnForeachNegGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachNeg, NegOp, kIntsList, out, list(x, "x"));
}
aclnnStatus aclnnForeachReciprocalGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachReciprocal, ReciprocalOp, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachSigmoidGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachSigmoid, SigmoidOp, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachSignGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachSign, SignOp, kSignList, out, list(x, "x"));
}
aclnnStatus aclnnForeachSinGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachSin, SinOp, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachSinhGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachSinh, SinhOp, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachSqrtGetWorkspaceSize(const aclTensorList* x, aclTensorList* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachSqrt, SqrtOp, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachTanGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachTan, TanOp, kFloatList, out, list(x, "x"));
}
aclnnStatus aclnnForeachTanhGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachTanh, TanhOp, kFloatList, out, list(x, "x"));
}

// Ternary ops, rounding, and the ops planned by hand above.
aclnnStatus aclnnForeachAddcdivListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                    const aclTensorList* x3, const aclTensor* scalars,
                                                    const aclTensorList* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAddcdivList, AddcdivValueOp, kFloatPerElement, out, list(x1, "x1"), list(x2, "x2"),
                      list(x3, "x3"), per_element(scalars, "scalars"));
}
aclnnStatus aclnnForeachAddcdivScalarGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                      const aclTensorList* x3, const aclTensor* scalar,
                                                      aclTensorList* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAddcdivScalar, AddcdivValueOp, kFloatTensor, out, list(x1, "x1"), list(x2, "x2"),
                      list(x3, "x3"), tensor_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachAddcdivScalarListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                          const aclTensorList* x3, const aclTensor* scalars,
                                                          aclTensorList* out, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAddcdivScalarList, AddcdivValueOp, kFloatPerElement, out, list(x1, "x1"), list(x2, "x2"),
                      list(x3, "x3"), per_element(scalars, "scalars"));
}
aclnnStatus aclnnForeachAddcdivScalarV2GetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                        const aclTensorList* x3, const aclScalar* scalar,
                                                        aclTensorList* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAddcdivScalarV2, AddcdivValueOp, kFloatHost, out, list(x1, "x1"), list(x2, "x2"),
                      list(x3, "x3"), host_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachAddcmulListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                    const aclTensorList* x3, const aclTensor* scalars,
                                                    const aclTensorList* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAddcmulList, AddcmulValueOp, kF3I32PerElement, out, list(x1, "x1"), list(x2, "x2"),
                      list(x3, "x3"), per_element(scalars, "scalars"));
}
aclnnStatus aclnnForeachAddcmulScalarGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                      const aclTensorList* x3, const aclTensor* scalar,
                                                      const aclTensorList* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAddcmulScalar, AddcmulValueOp, kF3I32Tensor, out, list(x1, "x1"), list(x2, "x2"),
                      list(x3, "x3"), tensor_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachAddcmulScalarListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                          const aclTensorList* x3, const aclTensor* scalars,
                                                          const aclTensorList* out, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAddcmulScalarList, AddcmulValueOp, kF3I32PerElement, out, list(x1, "x1"), list(x2, "x2"),
                      list(x3, "x3"), per_element(scalars, "scalars"));
}
aclnnStatus aclnnForeachAddcmulScalarV2GetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                        const aclTensorList* x3, const aclScalar* scalar,
                                                        aclTensorList* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachAddcmulScalarV2, AddcmulValueOp, kF3I32Host, out, list(x1, "x1"), list(x2, "x2"),
                      list(x3, "x3"), host_scalar(scalar, "scalar"));
}
aclnnStatus aclnnForeachCopyGetWorkspaceSize(const aclTensorList* x, aclTensorList* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PACL_PHASE1(ForeachCopy, pacl::plan_copy(b, x, out));
}
aclnnStatus aclnnForeachLerpListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                 const aclTensorList* weight, aclTensorList* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachLerpList, LerpOp, kFloatList, out, list(x1, "x1"), list(x2, "x2"), list(weight, "weight"));
}
aclnnStatus aclnnForeachLerpScalarGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                   const aclScalar* weight, aclTensorList* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachLerpScalar, LerpOp, kLerpScalar, out, list(x1, "x1"), list(x2, "x2"),
                      host_scalar(weight, "weight"));
}
aclnnStatus aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(const aclTensorList* scaledGrads,
                                                                 const aclTensor* foundInf, const aclTensor* invScale,
                                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(ForeachNonFiniteCheckAndUnscale, pacl::plan_non_finite(b, scaledGrads, foundInf, invScale));
}
aclnnStatus aclnnForeachNormGetWorkspaceSize(const aclTensorList* x, const aclScalar* scalar, const aclTensorList* out,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(ForeachNorm, pacl::plan_norm(b, x, scalar, out));
}
aclnnStatus aclnnForeachRoundOffNumberGetWorkspaceSize(const aclTensorList* x, const aclTensor* roundMode,
                                                       const aclTensorList* out, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachRoundOffNumber, RoundOffOp, kRoundMode, out, list(x, "x"),
                      tensor_scalar(roundMode, "roundMode"));
}
aclnnStatus aclnnForeachRoundOffNumberV2GetWorkspaceSize(const aclTensorList* x, const aclScalar* roundMode,
                                                         aclTensorList* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  return PACL_FOREACH(ForeachRoundOffNumberV2, RoundOffOp, kRoundModeV2, out, list(x, "x"),
                      host_scalar(roundMode, "roundMode"));
}
aclnnStatus aclnnForeachZeroInplaceGetWorkspaceSize(const aclTensorList* x, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return PACL_PHASE1(ForeachZeroInplace, pacl::plan_zero(b, x));
}

}  // extern "C"
