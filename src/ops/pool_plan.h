// Argument checks and shapes shared by the pooling ops (see pool.h for the walker).
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <vector>

#include "core/convert.h"
#include "core/executor.h"
#include "core/meta.h"
#include "ops/pool.h"

namespace pacl::pool {

inline constexpr int32_t kFormatNCHW = 0, kFormatNHWC = 1, kFormatND = 2, kFormatNDHWC = 27, kFormatNCDHW = 30,
                         kFormatNCL = 47;

struct FixedWindows {
  int nd = 0;
  std::array<Window, kMaxSpatial> w{};
};

// Whether t's format says its channel dim is last (NHWC for 2-d pooling, NDHWC for 3-d).
bool channels_last_format(const aclTensor& t, int nd);
// t has nd + 1 (no batch) or nd + 2 dims.
void check_pool_rank(const aclTensor& t, const char* arg, int nd);
// Every dim but a leading batch dim (t has nd + 2 dims) is positive.
void check_nonempty_planes(const aclTensor& t, const char* arg, int nd);
// The nd values of a window parameter: lens lists the accepted lengths; 1 value is repeated, an
// empty array gives if_empty.
std::vector<int64_t> expand_param(const aclIntArray& a, const char* name, int nd, std::initializer_list<size_t> lens,
                                  const std::vector<int64_t>& if_empty = {});
void check_positive(const std::vector<int64_t>& v, const char* name);
void check_half_kernel_pad(const std::vector<int64_t>& pad, const std::vector<int64_t>& kernel, const char* name);
FixedWindows fixed_windows(const std::vector<int64_t>& kernel, const std::vector<int64_t>& stride,
                           const std::vector<int64_t>& pad, const std::vector<int64_t>& dilation);
// self's shape with its spatial dims pooled.
Dims pooled_shape(const aclTensor& self, const FixedWindows& w, bool channels_last, bool ceil_mode);
Dims adaptive_shape(const aclTensor& self, const std::vector<int64_t>& size, bool channels_last);
// Every axis of `out` after the first is positive.
void check_positive_output(const Dims& out, const aclTensor& self, const char* what);

// Kernels (phase 1 books them; nothing runs when the output is empty). Geometry g describes the
// dense arrays of self/out (forward) or grad_in/grad_out (backward).
void plan_max_forward(OpBuilder& b, const aclTensor& self, const aclTensor& out, const aclTensor* indices, Geometry g);
void plan_max_backward(OpBuilder& b, const aclTensor& grad_out, const aclTensor& indices, const aclTensor& grad_in,
                       Geometry g);
void plan_avg_forward(OpBuilder& b, const aclTensor& self, const aclTensor& out, Geometry g, const AvgOptions& opt);
void plan_avg_backward(OpBuilder& b, const aclTensor& grad_out, const aclTensor& grad_in, Geometry g,
                       const AvgOptions& opt);

// Calls f(type_tag<T>{}) with T the type a pooling kernel computes in for dtype t: float for the
// 16-bit floats, else t's own type (uint16 included).
template <typename F>
decltype(auto) visit_pool_type(DType t, F&& f) {
  switch (t) {
    case DType::kFloat16:
    case DType::kBFloat16:
    case DType::kFloat: return f(type_tag<float>{});
    case DType::kDouble: return f(type_tag<double>{});
    case DType::kInt8: return f(type_tag<int8_t>{});
    case DType::kUInt8: return f(type_tag<uint8_t>{});
    case DType::kInt16: return f(type_tag<int16_t>{});
    case DType::kUInt16: return f(type_tag<uint16_t>{});
    case DType::kInt32: return f(type_tag<int32_t>{});
    case DType::kInt64: return f(type_tag<int64_t>{});
    default: break;
  }
  throw std::logic_error("visit_pool_type: not a pooling dtype");
}

template <typename F>
decltype(auto) visit_float_type(DType t, F&& f) {
  if (t == DType::kDouble) return f(type_tag<double>{});
  return f(type_tag<float>{});
}

template <typename F>
decltype(auto) visit_index_type(DType t, F&& f) {
  if (t == DType::kInt32) return f(type_tag<int32_t>{});
  return f(type_tag<int64_t>{});
}

// The dtype a pooling kernel sees dtype t as (float for the 16-bit floats).
inline DType pool_compute_dtype(DType t) {
  return (t == DType::kFloat16 || t == DType::kBFloat16) ? DType::kFloat : t;
}

}  // namespace pacl::pool
