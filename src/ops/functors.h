// Elementwise functors shared by the single-tensor ops and the foreach family (src/ops/foreach.cpp,
// which applies the same functor to each tensor of a list). A functor is a template over the
// arithmetic type T the kernel computes in (float for float16/bfloat16, else the compute dtype
// itself), called with T values by the elementwise engine; scalar attributes are members.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "ops/activation.h"

namespace pacl {

// ---- arithmetic (arith.cpp) ------------------------------------------------------------------------

// Integer arithmetic wraps (two's complement), as on the device and in PyTorch; narrow types compute
// in uint32 to avoid int promotion overflow.
template <typename T>
using wrap_t = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;
template <typename T>
T wadd(T a, T b) { return static_cast<T>(static_cast<wrap_t<T>>(a) + static_cast<wrap_t<T>>(b)); }
template <typename T>
T wsub(T a, T b) { return static_cast<T>(static_cast<wrap_t<T>>(a) - static_cast<wrap_t<T>>(b)); }
template <typename T>
T wmul(T a, T b) { return static_cast<T>(static_cast<wrap_t<T>>(a) * static_cast<wrap_t<T>>(b)); }

// a + alpha * b. bool: computed as integers, then "!= 0".
template <typename T>
struct AddAlpha {
  T alpha;
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) return (int{a} + int{alpha} * int{b}) != 0;
    else if constexpr (std::is_integral_v<T>) return wadd(a, wmul(alpha, b));
    else return a + alpha * b;
  }
};
template <typename T>
struct AddPlain {
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) return a || b;
    else if constexpr (std::is_integral_v<T>) return wadd(a, b);
    else return a + b;
  }
};
// a - alpha * b. bool: |a - alpha*b| != 0 (CANN computes bool Sub in int8; PyTorch rejects it).
template <typename T>
struct SubAlpha {
  T alpha;
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) return (int{a} - int{alpha} * int{b}) != 0;
    else if constexpr (std::is_integral_v<T>) return wsub(a, wmul(alpha, b));
    else return a - alpha * b;
  }
};
template <typename T>
struct SubPlain {
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) return a != b;
    else if constexpr (std::is_integral_v<T>) return wsub(a, b);
    else return a - b;
  }
};
template <typename T>
struct MulOp {
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) return a && b;
    else if constexpr (std::is_integral_v<T>) return wmul(a, b);
    else return a * b;
  }
};
// True division; T is always floating here.
template <typename T>
struct DivTrue {
  T operator()(T a, T b) const { return a / b; }
};
// Division rounded toward zero. Integers: x / 0 gives 0 (the device does not trap).
template <typename T>
struct DivTrunc {
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) return a && b;
    else if constexpr (std::is_integral_v<T>) {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<T>)
        if (b == -1) return wsub(T(0), a);
      return static_cast<T>(a / b);
    } else {
      return std::trunc(a / b);
    }
  }
};
// Division rounded toward negative infinity (PyTorch's floor_divide, including its float rules).
template <typename T>
struct DivFloor {
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) return a && b;
    else if constexpr (std::is_integral_v<T>) {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return wsub(T(0), a);
        T q = static_cast<T>(a / b);
        if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
        return q;
      } else {
        return static_cast<T>(a / b);
      }
    } else {
      if (b == 0) return a / b;
      T mod = std::fmod(a, b);
      T div = (a - mod) / b;
      if (mod != 0 && ((b < 0) != (mod < 0))) div -= T(1);
      T floordiv;
      if (div != 0) {
        floordiv = std::floor(div);
        if (div - floordiv > T(0.5)) floordiv += T(1);
      } else {
        floordiv = std::copysign(T(0), a / b);
      }
      return floordiv;
    }
  }
};

// ---- max, min, pow (binary_math.cpp) --------------------------------------------------------------

// max/min as std::max/std::min (the first operand wins ties, so max(-0, +0) is -0), NaN propagates.
template <typename T>
struct MaxOp {
  T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(a)) return a;
      if (std::isnan(b)) return b;
    }
    return a < b ? b : a;
  }
};
template <typename T>
struct MinOp {
  T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(a)) return a;
      if (std::isnan(b)) return b;
    }
    return b < a ? b : a;
  }
};

// a^b. Integers: exact (wrapping) powers; a negative exponent gives 0 unless |a| == 1.
template <typename T>
struct PowOp {
  T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      return std::pow(a, b);
    } else {
      if constexpr (std::is_signed_v<T>) {
        if (b < 0) {
          if (a == 1) return 1;
          if (a == -1) return (b & 1) ? T(-1) : T(1);
          return 0;
        }
      }
      wrap_t<T> result = 1, base = static_cast<wrap_t<T>>(a);
      for (auto e = static_cast<std::make_unsigned_t<T>>(b); e != 0; e >>= 1) {
        if (e & 1u) result *= base;
        base *= base;
      }
      return static_cast<T>(result);
    }
  }
};

// ---- lerp, addcmul, addcdiv (lerp_addc.cpp) --------------------------------------------------------

// PyTorch's lerp: the formula anchored at the nearer end point (exact at weight 0 and 1).
template <typename T>
T lerp(T s, T e, T w) {
  return std::abs(w) < T(0.5) ? s + w * (e - s) : e - (e - s) * (T(1) - w);
}
template <typename T>
struct LerpOp {
  T operator()(T s, T e, T w) const { return lerp(s, e, w); }
};
template <typename T>
struct LerpScalarOp {
  T w;
  T operator()(T s, T e) const { return lerp(s, e, w); }
};

template <typename T>
struct AddcmulOp {
  T value;
  T operator()(T s, T a, T b) const {
    if constexpr (std::is_integral_v<T>) return wadd(s, wmul(value, wmul(a, b)));
    else return s + value * (a * b);
  }
};
// tensor1 / tensor2 first, then the scale (the order of CANN's formula and kernel). Integers: the
// quotient truncates toward zero and x / 0 is 0 (pacl's integer division rule).
template <typename T>
struct AddcdivOp {
  T value;
  T operator()(T s, T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      T q = 0;
      if (std::is_signed_v<T> && b == T(-1)) q = static_cast<T>(0 - static_cast<wrap_t<T>>(a));
      else if (b != 0) q = static_cast<T>(a / b);
      return wadd(s, wmul(value, q));
    } else {
      return s + value * (a / b);
    }
  }
};

// ---- abs, neg, exp (unary_math.cpp) ------------------------------------------------------------------

template <typename T>
struct AbsOp {
  T operator()(T a) const {
    if constexpr (std::is_same_v<T, bool> || std::is_unsigned_v<T>) return a;
    else if constexpr (std::is_integral_v<T>)
      return a < 0 ? static_cast<T>(0 - static_cast<std::make_unsigned_t<T>>(a)) : a;
    else return std::fabs(a);
  }
};
template <typename T>
struct NegOp {
  T operator()(T a) const {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(0 - static_cast<std::make_unsigned_t<T>>(a));
    else return -a;
  }
};
template <typename T>
struct ExpOp {
  T operator()(T a) const { return std::exp(a); }
};

// ---- exponentials, logarithms, roots, erf (unary_exp_log.cpp) ----------------------------------------

template <typename T>
struct Exp2Op {
  T operator()(T a) const { return std::exp2(a); }
};
template <typename T>
struct Expm1Op {
  T operator()(T a) const { return std::expm1(a); }
};
template <typename T>
struct LogOp {
  T operator()(T a) const { return std::log(a); }
};
template <typename T>
struct Log2Op {
  T operator()(T a) const { return std::log2(a); }
};
template <typename T>
struct Log10Op {
  T operator()(T a) const { return std::log10(a); }
};
template <typename T>
struct Log1pOp {
  T operator()(T a) const { return std::log1p(a); }
};
template <typename T>
struct SqrtOp {
  T operator()(T a) const { return std::sqrt(a); }
};
template <typename T>
struct RsqrtOp {
  T operator()(T a) const { return T(1) / std::sqrt(a); }
};
template <typename T>
struct ReciprocalOp {
  T operator()(T a) const { return T(1) / a; }
};
template <typename T>
struct ErfOp {
  T operator()(T a) const { return std::erf(a); }
};
template <typename T>
struct ErfcOp {
  T operator()(T a) const { return std::erfc(a); }
};

// ---- trigonometric and hyperbolic functions (unary_trig.cpp) -----------------------------------------

#define PACL_MATH_FUNCTOR(Name, fn)               \
  template <typename T>                           \
  struct Name {                                   \
    T operator()(T a) const { return std::fn(a); } \
  };
PACL_MATH_FUNCTOR(SinOp, sin)
PACL_MATH_FUNCTOR(CosOp, cos)
PACL_MATH_FUNCTOR(TanOp, tan)
PACL_MATH_FUNCTOR(AsinOp, asin)
PACL_MATH_FUNCTOR(AcosOp, acos)
PACL_MATH_FUNCTOR(AtanOp, atan)
PACL_MATH_FUNCTOR(SinhOp, sinh)
PACL_MATH_FUNCTOR(CoshOp, cosh)
PACL_MATH_FUNCTOR(AsinhOp, asinh)
PACL_MATH_FUNCTOR(AcoshOp, acosh)
PACL_MATH_FUNCTOR(AtanhOp, atanh)
#undef PACL_MATH_FUNCTOR

// ---- sigmoid, tanh (activation.cpp), sign (unary_rounding.cpp) ---------------------------------------

template <typename T>
struct SigmoidOp {
  T operator()(T a) const { return act::sigmoid(a); }
};
template <typename T>
struct TanhOp {
  T operator()(T a) const { return std::tanh(a); }
};
template <typename T>
struct SignOp {
  T operator()(T a) const {
    if constexpr (std::is_same_v<T, bool> || std::is_unsigned_v<T>) return static_cast<T>(a != T(0));
    else return static_cast<T>(int{T(0) < a} - int{a < T(0)});
  }
};

}  // namespace pacl
