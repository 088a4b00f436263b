// Scalar building blocks of the nn family's functors (Glu variants, activation gradients, losses),
// each written to stay accurate and finite-safe over the whole range of its argument.
#pragma once

#include <cmath>

#include "ops/activation.h"

namespace pacl::nn {

using act::sigmoid;

// Gelu, tanh form: 0.5 x (1 + tanh(u)) = x sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3).
template <typename T>
inline T gelu_tanh(T x) {
  return x * sigmoid(T(1.5957691216057308) * (x + T(0.044715) * x * x * x));
}
// Gelu, erf form: 0.5 x (1 + erf(x / sqrt2)) = 0.5 x erfc(-x / sqrt2).
template <typename T>
inline T gelu_erf(T x) {
  return T(0.5) * x * std::erfc(-x * T(0.70710678118654752));
}
template <typename T>
inline T gelu(T x, bool tanh_form) {
  return tanh_form ? gelu_tanh(x) : gelu_erf(x);
}

// d/dx of gelu_tanh: s(z) + x s(z) (1 - s(z)) z', z = 2u. The second term is 0 in the limit
// |x| -> inf, where it evaluates to inf * 0.
template <typename T>
inline T gelu_tanh_grad(T x) {
  constexpr T kB = T(1.5957691216057308);    // 2 sqrt(2/pi)
  constexpr T kA3 = T(0.21406444881780074);  // 3 * 0.044715 * 2 sqrt(2/pi)
  const T z = kB * (x + T(0.044715) * x * x * x);
  const T e = std::exp(-std::fabs(z));
  const T s = z >= T(0) ? T(1) / (T(1) + e) : e / (T(1) + e);
  const T ds = e / ((T(1) + e) * (T(1) + e));
  T term = x * (kB + kA3 * x * x) * ds;
  if (!std::isfinite(term) && x == x) term = T(0);
  return s + term;
}
// d/dx of gelu_erf: Phi(x) + x phi(x).
template <typename T>
inline T gelu_erf_grad(T x) {
  const T cdf = T(0.5) * std::erfc(-x * T(0.70710678118654752));
  T term = x * T(0.3989422804014327) * std::exp(T(-0.5) * x * x);
  if (!std::isfinite(term) && x == x) term = T(0);
  return cdf + term;
}
template <typename T>
inline T gelu_grad(T x, bool tanh_form) {
  return tanh_form ? gelu_tanh_grad(x) : gelu_erf_grad(x);
}

// 1 - tanh(u)^2 = 1 / cosh(u)^2, without the cancellation of the left side when |u| is large.
template <typename T>
inline T sech2(T u) {
  const T c = std::cosh(u);
  return T(1) / (c * c);
}

template <typename T>
inline T silu(T x) {
  return x * sigmoid(x);
}

// min(x, hi) and clamp(x, lo, hi) keeping NaN (as torch.clamp).
template <typename T>
inline T min_keep_nan(T x, T hi) {
  return x > hi ? hi : x;
}
template <typename T>
inline T clamp_keep_nan(T x, T lo, T hi) {
  const T r = x < lo ? lo : x;
  return r > hi ? hi : r;
}

}  // namespace pacl::nn
