// Shared pieces of the quant family: rounding modes, saturation to integer ranges, int4 packing,
// and the "one scale per index along one axis" broadcast that most quant ops use.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/executor.h"
#include "runtime/status.h"

namespace pacl::quant {

enum class Round { kRint, kFloor, kCeil, kTrunc };

// "round" (to nearest, ties to even: CANN's CAST_RINT), "floor", "ceil", "trunc".
Round parse_round_mode(const char* mode, const char* arg);

inline double apply_round(double v, Round r) {
  switch (r) {
    case Round::kFloor: return std::floor(v);
    case Round::kCeil: return std::ceil(v);
    case Round::kTrunc: return std::trunc(v);
    default: return std::nearbyint(v);  // default FE_TONEAREST: ties to even
  }
}

// Rounds and saturates to [lo, hi]; NaN becomes 0 (the hardware's saturating cast).
inline int64_t round_sat(double v, Round r, int64_t lo, int64_t hi) {
  if (std::isnan(v)) return 0;
  v = apply_round(v, r);
  if (v <= static_cast<double>(lo)) return lo;
  if (v >= static_cast<double>(hi)) return hi;
  return static_cast<int64_t>(v);
}

// Value range of an integer output dtype (int8, uint8, int32, int4).
void int_range(DType t, int64_t* lo, int64_t* hi);

// Signed 4-bit value k (0..7) of a packed int32 (element k in bits 4k..4k+3).
inline int32_t unpack_int4(int32_t word, int k) {
  const uint32_t nib = (static_cast<uint32_t>(word) >> (4 * k)) & 0xFu;
  return nib >= 8 ? static_cast<int32_t>(nib) - 16 : static_cast<int32_t>(nib);
}
inline int32_t pack_int4(const int64_t* v8) {
  uint32_t w = 0;
  for (int k = 0; k < 8; ++k) w |= (static_cast<uint32_t>(v8[k]) & 0xFu) << (4 * k);
  int32_t out;
  std::memcpy(&out, &w, sizeof out);
  return out;
}

// Element i of a dense row-major tensor reads parameter (i / inner) % n; n == 1 is one value for all.
struct AxisParam {
  int64_t inner = 1;
  int64_t n = 1;
  int64_t index(int64_t i) const { return n == 1 ? 0 : (i / inner) % n; }
};
// AxisParam for one value per index of `axis` (already wrapped) of `shape`, or one value if n == 1.
AxisParam axis_param(const Dims& shape, int64_t axis, int64_t n);

// Checks that param (scale/offset) is a 1-D tensor of size 1 or shape[axis], or a tensor of
// shape's rank whose dims are 1 except dim `axis`, which is 1 or shape[axis]. Returns its numel.
int64_t check_axis_param(const aclTensor& p, const char* arg, const Dims& shape, int64_t axis, const char* shape_what);

// The dtype dstType (an aclDataType value) names, checked against the output tensor.
void check_dst_type(const aclTensor& y, const char* y_arg, int64_t dst_type);

// "is the optional tensor given": nullptr means absent.
inline bool given(const aclTensor* t) { return t != nullptr; }

}  // namespace pacl::quant
