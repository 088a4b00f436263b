// Activation ops of the nn family (forward): Erfinv, FastGelu, SquaredRelu, Shrink, Heaviside,
// AddRelu, Prelu, RReluWithNoise. Each is a functor on the shared elementwise engine; Prelu reads its
// per-channel weight through a view (stride 0 everywhere but dim 1); RReluWithNoise draws its slopes
// from a counter-based generator keyed by (seed, offset + element index), so a run is reproducible.
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_add_relu.h"
#include "aclnnop/aclnn_erfinv.h"
#include "aclnnop/aclnn_fast_gelu.h"
#include "aclnnop/aclnn_heaviside.h"
#include "aclnnop/aclnn_prelu.h"
#include "aclnnop/aclnn_rrelu_with_noise.h"
#include "aclnnop/aclnn_shrink.h"
#include "aclnnop/aclnn_squared_relu.h"
#include "core/phase.h"
#include "ops/activation.h"
#include "ops/nn_math.h"
#include "ops/nn_steps.h"
#include "ops/registry.h"

namespace pacl {
namespace {

using nn::StepArgs;
using nn::StepPlan;
using nn::View;

constexpr DType F32 = DType::kFloat, F16 = DType::kFloat16, BF16 = DType::kBFloat16, F64 = DType::kDouble;
constexpr DTypeMask kF3 = dtype_mask({F32, F16, BF16});

#define PACL_T using T = typename decltype(tag)::type

// erfinv: Giles' single-precision approximation, then two Newton steps on erf in double.
inline double erfinv_d(double y) {
  if (!(y > -1 && y < 1)) {
    if (y == 1) return HUGE_VAL;
    if (y == -1) return -HUGE_VAL;
    return std::nan("");
  }
  double w = -std::log((1 - y) * (1 + y)), p;
  if (w < 5) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = std::sqrt(w) - 3;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  double x = p * y;
  for (int i = 0; i < 2; ++i) x -= (std::erf(x) - y) / (1.1283791670955126 * std::exp(-x * x));
  return x;
}

template <typename T>
struct ErfinvOp {
  T operator()(T y) const { return static_cast<T>(erfinv_d(static_cast<double>(y))); }
};
// x / (1 + e^(-1.702 x)) = x sigmoid(1.702 x)
template <typename T>
struct FastGeluOp {
  T operator()(T x) const { return x * nn::sigmoid(T(1.702) * x); }
};
template <typename T>
struct SquaredReluOp {
  T operator()(T x) const {
    const T r = x > T(0) || x != x ? x : T(0);
    return r * r;
  }
};
template <typename T>
struct ShrinkOp {
  T lambd, bias;
  T operator()(T x) const {
    if (x > lambd) return x - bias;
    if (x < -lambd) return x + bias;
    return x != x ? x : T(0);
  }
};
// PyTorch's heaviside: values where input == 0, else (input > 0) (NaN gives 0).
template <typename T>
struct HeavisideOp {
  T operator()(T x, T v) const { return x == T(0) ? v : (x > T(0) ? T(1) : T(0)); }
};
template <typename T>
struct AddReluOp {
  T alpha;
  T operator()(T a, T b) const {
    const T s = a + alpha * b;
    if constexpr (std::is_integral_v<T>) return s > 0 ? s : T(0);
    else return s > T(0) || s != s ? s : T(0);
  }
};
template <typename T>
struct PreluOp {  // (x, w)
  T operator()(T x, T w) const { return x > T(0) ? x : w * x; }
};
template <typename T>
struct LeakyOp {
  T slope;
  T operator()(T x) const { return x > T(0) ? x : slope * x; }
};

// ---- Erfinv / FastGelu / SquaredRelu / Shrink ----------------------------------------------------------

void plan_erfinv(OpBuilder& b, const aclTensor& self, const aclTensor& out, bool inplace) {
  const char* sname = inplace ? "selfRef" : "self";
  check_dtype_in(b.op(), sname, self.dtype, inplace ? kF3 : kF3 | kIntegralTypes | dtype_mask({DType::kBool}));
  const DType compute = is_floating(self.dtype) ? self.dtype : F32;
  if (!inplace) {
    check_dtype_in(b.op(), "out", out.dtype, kF3);
    check_can_cast(compute, out, "out");
    check_shape_equals(out, "out", self.view, "the shape of self");
  }
  check_rank(self, sname);
  std::array<EwInput, 1> in{EwInput{&self, nullptr}};
  plan_elementwise<1, TypeSet::kFloating>(b, "elementwise.Erfinv", compute, out, in, [](auto tag) {
    PACL_T;
    return ErfinvOp<T>{};
  });
}

template <template <typename> class F>
void plan_same_unary(OpBuilder& b, const aclTensor& self, const char* sname, const aclTensor& out, DTypeMask types,
                     int64_t min_rank = 0) {
  check_dtype_in(b.op(), sname, self.dtype, types);
  if (out.dtype != self.dtype)
    invalid("out dtype {} must equal {} dtype {}", dtype_name(out.dtype), sname, dtype_name(self.dtype));
  if (self.dim() < min_rank) invalid("{} has {} dims, expected at least {}", sname, self.dim(), min_rank);
  check_rank(self, sname);
  check_shape_equals(out, "out", self.view, "the shape of the input");
  std::array<EwInput, 1> in{EwInput{&self, nullptr}};
  plan_elementwise<1, TypeSet::kFloating>(b, std::string("elementwise.") + b.op().name, self.dtype, out, in,
                                          [](auto tag) {
                                            PACL_T;
                                            return F<T>{};
                                          });
}

float float_scalar(const OpInfo& op, const aclScalar& s, const char* name) {
  check_dtype_supported(op, name, s.dtype);
  if (!can_cast(s.dtype, F32)) invalid("{} dtype {} cannot be cast to float32", name, dtype_name(s.dtype));
  return act::float_attr<float>(s);
}

void plan_shrink(OpBuilder& b, const aclTensor& self, const aclScalar& lambd, const aclScalar& bias,
                 const aclTensor& out) {
  const DTypeMask types = dtype_mask({F32, F16});
  check_dtype_in(b.op(), "self", self.dtype, types);
  check_dtype_in(b.op(), "out", out.dtype, types);
  check_shape_equals(out, "out", self.view, "the shape of self");
  check_rank(self, "self");
  const float l = float_scalar(b.op(), lambd, "lambd");
  const float bi = float_scalar(b.op(), bias, "bias");
  if (l < 0) invalid("lambd must be greater than or equal to 0, got {}", l);
  std::array<EwInput, 1> in{EwInput{&self, nullptr}};
  plan_elementwise<1, TypeSet::kFloating>(b, "elementwise.Shrink", self.dtype, out, in, [&](auto tag) {
    PACL_T;
    return ShrinkOp<T>{static_cast<T>(l), static_cast<T>(bi)};
  });
}

// ---- Heaviside / AddRelu ----------------------------------------------------------------------------------

void plan_heaviside(OpBuilder& b, const aclTensor& input, const aclTensor& values, const aclTensor& out) {
  check_dtype_in(b.op(), "input", input.dtype, kF3);
  check_dtype_in(b.op(), "values", values.dtype, kF3);
  check_dtype_in(b.op(), "out", out.dtype, kF3);
  check_rank(input, "input");
  check_rank(values, "values");
  const Dims shape = broadcast_shapes(input.view, "input", values.view, "values");
  check_shape_equals(out, "out", shape);
  const DType compute = promote(input.dtype, values.dtype);
  std::array<EwInput, 2> in{EwInput{&input, nullptr}, EwInput{&values, nullptr}};
  plan_elementwise<2, TypeSet::kFloating>(b, "elementwise.Heaviside", compute, out, in, [](auto tag) {
    PACL_T;
    return HeavisideOp<T>{};
  });
}

constexpr DTypeMask kAddReluTypes =
    dtype_mask({F32, F16, BF16, DType::kInt8, DType::kUInt8, DType::kInt16, DType::kInt32, DType::kInt64});

void plan_add_relu(OpBuilder& b, const aclTensor& self, const char* sname, const aclTensor& other,
                   const aclScalar& alpha, const aclTensor& out, bool inplace) {
  check_dtype_in(b.op(), sname, self.dtype, kAddReluTypes);
  check_dtype_in(b.op(), "other", other.dtype, kAddReluTypes);
  check_dtype_supported(b.op(), "alpha", alpha.dtype);
  const DType p = promote(self.dtype, other.dtype);
  if (!can_cast(alpha.dtype, p))
    invalid("alpha dtype {} cannot be cast to the promoted dtype {} of {} and other", dtype_name(alpha.dtype),
            dtype_name(p), sname);
  if (!inplace) check_dtype_in(b.op(), "out", out.dtype, kAddReluTypes);
  check_can_cast(p, out, inplace ? sname : "out");
  check_rank(self, sname);
  check_rank(other, "other");
  const Dims shape = broadcast_shapes(self.view, sname, other.view, "other");
  if (inplace && shape != self.view)
    invalid("{} has shape {} but broadcasting with other {} gives {}; an in-place result cannot be broadcast", sname,
            dims_str(self.view), dims_str(other.view), dims_str(shape));
  check_shape_equals(out, inplace ? sname : "out", shape);
  std::array<EwInput, 2> in{EwInput{&self, nullptr}, EwInput{&other, nullptr}};
  plan_elementwise<2, TypeSet::kNumeric>(b, std::string("elementwise.") + b.op().name, p, out, in, [&](auto tag) {
    PACL_T;
    return AddReluOp<T>{scalar_value<T>(alpha)};
  });
}

// ---- Prelu ------------------------------------------------------------------------------------------------

void plan_prelu(OpBuilder& b, const aclTensor& self, const aclTensor& weight, const aclTensor& out) {
  check_dtype_in(b.op(), "self", self.dtype, kF3);
  check_dtype_in(b.op(), "weight", weight.dtype, kF3);
  check_dtype_in(b.op(), "out", out.dtype, kF3);
  const DType p = promote(self.dtype, weight.dtype);
  check_can_cast(p, out, "out");
  check_rank(self, "self");
  check_rank(weight, "weight");
  check_rank(out, "out");
  check_shape_equals(out, "out", self.view, "the shape of self");
  const int64_t channels = self.dim() <= 1 ? 1 : self.view[1];
  if (weight.numel() != 1 && weight.numel() != channels)
    invalid("weight has {} elements ({}), expected 1 or the channel count (dim 1) of self {}", weight.numel(),
            weight.describe(), channels);
  if (out.numel() == 0) return;
  StepPlan s(b);
  View w = s.dense_input(weight, weight.dtype);
  Dims ws(self.view.size(), 0);
  if (weight.numel() != 1) ws[1] = 1;
  s.elementwise<2>(arithmetic_dtype(p), self.view, s.tensor(out), {s.tensor(self), w.with_strides(ws)}, [](auto tag) {
    PACL_T;
    return PreluOp<T>{};
  });
  s.finish(std::string("prelu.") + dtype_name(p));
}

// ---- RReluWithNoise ---------------------------------------------------------------------------------------

// A uniform value in [0, 1) for (seed, counter): splitmix64 of the pair.
inline double uniform01(uint64_t seed, uint64_t counter) {
  uint64_t z = seed * 0x9e3779b97f4a7c15ull + counter + 0x632be59bd9b4e019ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

void plan_rrelu(OpBuilder& b, const aclTensor& self, const char* sname, const aclTensor& noise, const aclScalar& lower,
                const aclScalar& upper, bool training, int64_t seed, int64_t offset, const aclTensor& out) {
  constexpr DTypeMask kTypes = kF3;
  constexpr DTypeMask kScalarTypes = kF3 | dtype_mask({F64});
  check_dtype_in(b.op(), sname, self.dtype, kTypes);
  check_dtype_in(b.op(), "noise", noise.dtype, kTypes);
  check_dtype_in(b.op(), "lower", lower.dtype, kScalarTypes);
  check_dtype_in(b.op(), "upper", upper.dtype, kScalarTypes);
  check_dtype_in(b.op(), "out", out.dtype, kTypes);
  if (out.dtype != self.dtype)
    invalid("out dtype {} must equal {} dtype {}", dtype_name(out.dtype), sname, dtype_name(self.dtype));
  if (noise.dtype != self.dtype)
    invalid("noise dtype {} must equal {} dtype {}", dtype_name(noise.dtype), sname, dtype_name(self.dtype));
  check_rank(self, sname, 32);
  check_rank(noise, "noise", 32);
  check_shape_equals(out, "out", self.view, "the shape of self");
  if (noise.numel() < self.numel())
    invalid("noise has {} elements ({}), expected at least as many as {} ({})", noise.numel(), noise.describe(),
            sname, self.numel());
  const float lo = act::float_attr<float>(lower), hi = act::float_attr<float>(upper);
  if (self.numel() == 0 || noise.numel() == 0) return;
  StepPlan s(b);
  if (!training) {
    const float slope = (lo + hi) / 2;
    s.elementwise<1>(arithmetic_dtype(self.dtype), self.view, s.tensor(out), {s.tensor(self)}, [&](auto tag) {
      PACL_T;
      return LeakyOp<T>{static_cast<T>(slope)};
    });
    s.finish(std::string("rrelu.eval.") + dtype_name(self.dtype));
    return;
  }
  // self < 0: noise = a ~ U(lower, upper) (rounded to the noise dtype), else 1; out = self * noise.
  const View x = s.dense_input(self, F32);
  const View nz = s.dense_output(noise, F32, true);
  const View o = s.dense_output(out, F32);
  const int64_t n = self.numel();
  const uint64_t sd = static_cast<uint64_t>(seed), off = static_cast<uint64_t>(offset);
  const DType nd = noise.dtype;
  s.step([=](const StepArgs& a) {
    const float* xv = a.get<const float>(x.ref);
    float* nv = a.get<float>(nz.ref);
    float* ov = a.get<float>(o.ref);
    for (int64_t i = 0; i < n; ++i) {
      float slope = 1.0f;
      if (xv[i] < 0) {
        slope = static_cast<float>(lo + (hi - lo) * uniform01(sd, off + static_cast<uint64_t>(i)));
        if (nd != F32) round_to_16bit(nd, &slope, 1);
      }
      nv[i] = slope;
      ov[i] = xv[i] * slope;
    }
  });
  s.finish(std::string("rrelu.train.") + dtype_name(self.dtype));
}

}  // namespace
}  // namespace pacl

// ---- phase-1 entry points -------------------------------------------------------------------------

using pacl::OpBuilder;

#define PACL_PHASE1(Name, ...)                                                                                    \
  pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) { \
    __VA_ARGS__;                                                                                                  \
  })

extern "C" {

aclnnStatus aclnnErfinvGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
  return PACL_PHASE1(Erfinv, {
    const aclTensor& s = b.input(self, "self");
    pacl::plan_erfinv(b, s, b.output(out, "out"), false);
  });
}
aclnnStatus aclnnInplaceErfinvGetWorkspaceSize(const aclTensor* selfRef, uint64_t* workspaceSize,
                                               aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceErfinv, {
    const aclTensor& s = b.inout(selfRef, "selfRef");
    pacl::plan_erfinv(b, s, s, true);
  });
}

aclnnStatus aclnnFastGeluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                          aclOpExecutor** executor) {
  return PACL_PHASE1(FastGelu, {
    const aclTensor& s = b.input(self, "self");
    pacl::plan_same_unary<pacl::FastGeluOp>(b, s, "self", b.output(out, "out"), pacl::kF3);
  });
}

aclnnStatus aclnnSquaredReluGetWorkspaceSize(const aclTensor* input, const aclTensor* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PACL_PHASE1(SquaredRelu, {
    const aclTensor& s = b.input(input, "input");
    pacl::plan_same_unary<pacl::SquaredReluOp>(b, s, "input", b.output(out, "out"), pacl::kF3, 1);
  });
}

aclnnStatus aclnnShrinkGetWorkspaceSize(const aclTensor* self, const aclScalar* lambd, const aclScalar* bias,
                                        aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Shrink, {
    const aclTensor& s = b.input(self, "self");
    const aclScalar& l = b.scalar(lambd, "lambd");
    const aclScalar& bi = b.scalar(bias, "bias");
    pacl::plan_shrink(b, s, l, bi, b.output(out, "out"));
  });
}

aclnnStatus aclnnHeavisideGetWorkspaceSize(const aclTensor* input, const aclTensor* values, aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Heaviside, {
    const aclTensor& in = b.input(input, "input");
    const aclTensor& v = b.input(values, "values");
    pacl::plan_heaviside(b, in, v, b.output(out, "out"));
  });
}

aclnnStatus aclnnAddReluGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclScalar* alpha,
                                         aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(AddRelu, {
    const aclTensor& s = b.input(self, "self");
    const aclTensor& o = b.input(other, "other");
    const aclScalar& a = b.scalar(alpha, "alpha");
    pacl::plan_add_relu(b, s, "self", o, a, b.output(out, "out"), false);
  });
}
aclnnStatus aclnnInplaceAddReluGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, aclScalar* alpha,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceAddRelu, {
    const aclTensor& s = b.inout(selfRef, "selfRef");
    const aclTensor& o = b.input(other, "other");
    const aclScalar& a = b.scalar(alpha, "alpha");
    pacl::plan_add_relu(b, s, "selfRef", o, a, s, true);
  });
}

aclnnStatus aclnnPreluGetWorkspaceSize(const aclTensor* self, const aclTensor* weight, aclTensor* out,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(Prelu, {
    const aclTensor& s = b.input(self, "self");
    const aclTensor& w = b.input(weight, "weight");
    pacl::plan_prelu(b, s, w, b.output(out, "out"));
  });
}

aclnnStatus aclnnRReluWithNoiseGetWorkspaceSize(const aclTensor* self, const aclTensor* noise, const aclScalar* lower,
                                                const aclScalar* upper, bool training, int64_t seed, int64_t offset,
                                                aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PACL_PHASE1(RReluWithNoise, {
    const aclTensor& s = b.input(self, "self");
    const aclTensor& n = b.output(noise, "noise");
    const aclScalar& lo = b.scalar(lower, "lower");
    const aclScalar& hi = b.scalar(upper, "upper");
    pacl::plan_rrelu(b, s, "self", n, lo, hi, training, seed, offset, b.output(out, "out"));
  });
}
aclnnStatus aclnnInplaceRReluWithNoiseGetWorkspaceSize(const aclTensor* self, const aclTensor* noise,
                                                       const aclScalar* lower, const aclScalar* upper, bool training,
                                                       int64_t seed, int64_t offset, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
  return PACL_PHASE1(InplaceRReluWithNoise, {
    const aclTensor& s = b.inout(self, "self");
    const aclTensor& n = b.output(noise, "noise");
    const aclScalar& lo = b.scalar(lower, "lower");
    const aclScalar& hi = b.scalar(upper, "upper");
    pacl::plan_rrelu(b, s, "self", n, lo, hi, training, seed, offset, s);
  });
}

}  // extern "C"
