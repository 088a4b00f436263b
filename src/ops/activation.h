// Shared pieces of the activation family (activation.cpp: the forward ops, activation_backward.cpp:
// their gradients): numerically stable building blocks and the conversion of scalar attributes.
//
// Scalar attributes follow CANN's op_api: those the kernel takes as a float attribute
// (negativeSlope, alpha, scale, lambd, beta...) are rounded to float32 first, then widened to the
// compute type (this only matters for float64 tensors); those CANN turns into a tensor of self's
// dtype (Hardtanh's bounds, Threshold's threshold and value) are rounded to self's dtype.
#pragma once

#include <cmath>
#include <cstring>

#include "core/convert.h"
#include "core/meta.h"

namespace pacl::act {

// 1 / (1 + e^-z) without overflow: e^-|z| never exceeds 1. One exp and no branch, so that
// kernel loops vectorize (NaN stays NaN).
template <typename T>
inline T sigmoid(T z) {
  const T e = std::exp(-std::fabs(z));
  const T r = T(1) / (T(1) + e);
  return z >= T(0) ? r : e * r;
}

// The scalar as CANN's float attribute, widened to T.
template <typename T>
T float_attr(const aclScalar& s) {
  return static_cast<T>(visit_dtype(s.dtype, [&](auto tag) {
    using S = typename decltype(tag)::type;
    S v;
    std::memcpy(&v, s.bytes, sizeof(S));
    return convert_value<float>(v);
  }));
}

// The scalar rounded to dtype d (a compute dtype), then converted to T.
template <typename T>
T scalar_in_dtype(const aclScalar& s, DType d) {
  return visit_dtype(d, [&](auto dtag) {
    using D = typename decltype(dtag)::type;
    return visit_dtype(s.dtype, [&](auto stag) {
      using S = typename decltype(stag)::type;
      S v;
      std::memcpy(&v, s.bytes, sizeof(S));
      return convert_value<T>(convert_value<D>(v));
    });
  });
}

}  // namespace pacl::act
