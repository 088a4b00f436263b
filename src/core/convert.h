// Value conversion between the ten compute dtypes, with PyTorch's semantics: to bool is "!= 0",
// 16-bit floats round to nearest even, floating -> integral truncates toward zero and then wraps
// to the target width (out-of-range and NaN give the x86 "integer indefinite" value, as PyTorch on
// x86 does). One strided conversion routine serves every op that mixes dtypes.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "core/dtype.h"

namespace pacl {

template <typename T>
inline constexpr bool is_16bit_float_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// Storage type -> arithmetic type used to compute with it.
template <typename S>
using compute_t = std::conditional_t<is_16bit_float_v<S>, float, S>;

template <typename To, typename From>
inline To convert_value(From v) {
  if constexpr (std::is_same_v<From, Half>) {
    return convert_value<To>(half_to_float(v.bits));
  } else if constexpr (std::is_same_v<From, BFloat16>) {
    return convert_value<To>(bf16_to_float(v.bits));
  } else if constexpr (std::is_same_v<To, Half>) {
    return Half{float_to_half(static_cast<float>(v))};
  } else if constexpr (std::is_same_v<To, BFloat16>) {
    return BFloat16{float_to_bf16(static_cast<float>(v))};
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    const double d = static_cast<double>(v);
    if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0))
      return static_cast<To>(std::numeric_limits<int64_t>::min());
    return static_cast<To>(static_cast<int64_t>(d));
  } else {
    return static_cast<To>(v);
  }
}

// Calls f(type_tag<S>{}) with S the storage type of dtype t (one of the ten compute dtypes).
template <typename S>
struct type_tag {
  using type = S;
};

template <typename F>
decltype(auto) visit_dtype(DType t, F&& f) {
  switch (t) {
    case DType::kBool: return f(type_tag<bool>{});
    case DType::kUInt8: return f(type_tag<uint8_t>{});
    case DType::kInt8: return f(type_tag<int8_t>{});
    case DType::kInt16: return f(type_tag<int16_t>{});
    case DType::kInt32: return f(type_tag<int32_t>{});
    case DType::kInt64: return f(type_tag<int64_t>{});
    case DType::kFloat16: return f(type_tag<Half>{});
    case DType::kBFloat16: return f(type_tag<BFloat16>{});
    case DType::kFloat: return f(type_tag<float>{});
    case DType::kDouble: return f(type_tag<double>{});
    default: break;
  }
  throw std::logic_error("visit_dtype: not a compute dtype");
}

template <typename S>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<S, bool>) return DType::kBool;
  else if constexpr (std::is_same_v<S, uint8_t>) return DType::kUInt8;
  else if constexpr (std::is_same_v<S, int8_t>) return DType::kInt8;
  else if constexpr (std::is_same_v<S, int16_t>) return DType::kInt16;
  else if constexpr (std::is_same_v<S, int32_t>) return DType::kInt32;
  else if constexpr (std::is_same_v<S, int64_t>) return DType::kInt64;
  else if constexpr (std::is_same_v<S, Half>) return DType::kFloat16;
  else if constexpr (std::is_same_v<S, BFloat16>) return DType::kBFloat16;
  else if constexpr (std::is_same_v<S, float>) return DType::kFloat;
  else return DType::kDouble;
}

// dst[i * dst_stride] = convert(src[i * src_stride]) for i < n; strides in elements.
void convert_strided(DType dst_t, void* dst, int64_t dst_stride, DType src_t, const void* src, int64_t src_stride,
                     int64_t n);

// Rounds p[0..n) in place to the 16-bit float format t (kFloat16 or kBFloat16). With values
// widened from another dtype to float, this completes their conversion to t (as convert_value).
void round_to_16bit(DType t, float* p, int64_t n);

}  // namespace pacl
