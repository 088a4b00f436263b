// Shared helpers of the mathx family (src/ops/mathx_*.cpp).
#pragma once

#include <type_traits>

#include "core/dtype.h"
#include "ops/elementwise_op.h"
#include "runtime/status.h"

namespace pacl {

inline constexpr DTypeMask kWideUnsignedTypes = dtype_mask({DType::kUInt16, DType::kUInt32, DType::kUInt64});

// Dtype check against CANN's list `cann`, of which pacl computes the part `here`: a dtype CANN takes
// but pacl does not (uint16/32/64, complex) is "not supported here" (Unsupported), any other
// outside `cann` is the caller's fault (InvalidArgument).
inline void check_dtype_cann(const OpInfo& op, const char* arg, DType t, DTypeMask cann, DTypeMask here) {
  if (in_mask(here, t)) return;
  if (in_mask(cann, t))
    unsupported("{} dtype {} is not supported by pacl's aclnn{} yet; supported here: {}", arg, dtype_name(t), op.name,
                mask_names(here));
  invalid("{} dtype {} is not supported by aclnn{}; supported: {}", arg, dtype_name(t), op.name, mask_names(cann));
}

// f's float result rounded to a 16-bit compute dtype before it is converted to out's dtype: a
// float16 op writing a float32 out gives the float16 result (CANN computes in float16, then casts).
template <typename F>
struct Rounded16Of {
  F f;
  DType round_to;  // kFloat16, kBFloat16, or kFloat for no rounding
  template <typename... A>
  float operator()(A... a) const {
    const float r = f(a...);
    if (round_to == DType::kFloat16) return half_to_float(float_to_half(r));
    if (round_to == DType::kBFloat16) return bf16_to_float(float_to_bf16(r));
    return r;
  }
};

// make(tag) of a binary functor wrapped so that a float16/bfloat16 `compute` rounds f's result to it when out's dtype
// differs (predicates and non-float results are left alone).
template <typename Make>
auto rounding_binary_maker(DType compute, DType out, Make make) {
  const bool round = (compute == DType::kFloat16 || compute == DType::kBFloat16) && out != compute;
  return [=](auto tag) {
    using T = typename decltype(tag)::type;
    auto f = make(tag);
    using R = decltype(f(T{}, T{}));
    if constexpr (std::is_same_v<T, float> && std::is_same_v<R, float>) {
      return Rounded16Of<decltype(f)>{f, round ? compute : DType::kFloat};
    } else {
      return f;
    }
  };
}

}  // namespace pacl
