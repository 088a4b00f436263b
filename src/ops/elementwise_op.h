// Planning helpers shared by elementwise ops: dtype/rank/shape checks with CANN's messages, and
// plan_elementwise(), which turns checked operands plus a functor into an ElementwiseKernel.
#pragma once

#include <array>
#include <cstring>
#include <string>

#include "core/elementwise.h"
#include "core/executor.h"
#include "runtime/status.h"

namespace pacl {

inline constexpr int64_t kMaxElementwiseRank = 8;  // CANN's limit for elementwise ops

// The ten dtypes CANN's elementwise ops accept (complex is "not supported here" in pacl).
void check_dtype_supported(const OpInfo& op, const char* arg, DType t);
void check_rank(const aclTensor& t, const char* arg, int64_t max_rank = kMaxElementwiseRank);
void check_shape_equals(const aclTensor& t, const char* arg, const Dims& expected);
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

// One input of an elementwise op: a bound tensor, or a scalar that becomes a constant.
struct EwInput {
  const aclTensor* tensor = nullptr;
  const aclScalar* scalar = nullptr;
};

// Calls f(type_tag<T>{}) for the arithmetic type of compute dtype t.
template <typename F>
decltype(auto) visit_arithmetic(DType t, F&& f) {
  switch (arithmetic_dtype(t)) {
    case DType::kBool: return f(type_tag<bool>{});
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

// Plans `out = f(inputs...)` over the broadcast of the inputs, computed in `compute` (its
// arithmetic type T); scalars are rounded to `compute` first, then widened to T (PyTorch's order).
// make_functor(type_tag<T>) returns the functor for T.
template <size_t N, typename MakeFunctor>
void plan_elementwise(OpBuilder& b, const std::string& name, DType compute, const aclTensor& out,
                      std::array<EwInput, N> inputs, MakeFunctor&& make_functor) {
  if (out.numel() == 0) {
    b.set_kernel(nullptr);
    return;
  }
  visit_arithmetic(compute, [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<Dims> strides;
    strides.push_back(out.strides);
    std::array<OperandSource, N> src{};
    std::array<T, N> constants{};
    for (size_t k = 0; k < N; ++k) {
      if (inputs[k].tensor) {
        const aclTensor& t = *inputs[k].tensor;
        src[k] = OperandSource{b.slot_of(t), t.dtype};
        strides.push_back(broadcast_strides(t, out.view));
      } else {
        const aclScalar& s = *inputs[k].scalar;
        visit_dtype(compute, [&](auto ctag) {
          using C = typename decltype(ctag)::type;
          visit_dtype(s.dtype, [&](auto stag) {
            using S = typename decltype(stag)::type;
            S v;
            std::memcpy(&v, s.bytes, sizeof(S));
            constants[k] = convert_value<T>(convert_value<C>(v));
          });
        });
        src[k] = OperandSource{-1, dtype_of<T>()};
        strides.push_back(Dims(out.view.size(), 0));
      }
    }
    Geometry g = merge_dims(out.view, std::move(strides));
    auto f = make_functor(tag);
    const std::string kname = name + "<" + dtype_name(dtype_of<T>()) + ">";
    b.set_kernel(std::make_shared<ElementwiseKernel<T, decltype(f), N>>(kname, f, std::move(g), b.slot_of(out),
                                                                       out.dtype, src, constants));
  });
}

}  // namespace pacl
