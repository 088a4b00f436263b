#include "ops/quant/quant_common.h"

#include <limits>

namespace pacl::quant {

Round parse_round_mode(const char* mode, const char* arg) {
  if (mode == nullptr) invalid("{} is null, expected one of \"round\", \"floor\", \"ceil\", \"trunc\"", arg);
  const std::string m(mode);
  if (m == "round") return Round::kRint;
  if (m == "floor") return Round::kFloor;
  if (m == "ceil") return Round::kCeil;
  if (m == "trunc") return Round::kTrunc;
  if (m == "hybrid") unsupported("{} \"hybrid\" (hifloat8 outputs) is not supported by pacl yet", arg);
  invalid("{} is \"{}\", expected one of \"round\", \"floor\", \"ceil\", \"trunc\"", arg, m);
}

void int_range(DType t, int64_t* lo, int64_t* hi) {
  switch (t) {
    case DType::kInt8: *lo = -128; *hi = 127; return;
    case DType::kUInt8: *lo = 0; *hi = 255; return;
    case DType::kInt32: *lo = std::numeric_limits<int32_t>::min(); *hi = std::numeric_limits<int32_t>::max(); return;
    case DType::kInt4: *lo = -8; *hi = 7; return;
    default: invalid("internal: {} is not an integer quant dtype", dtype_name(t));
  }
}

AxisParam axis_param(const Dims& shape, int64_t axis, int64_t n) {
  AxisParam p;
  p.n = n;
  for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) p.inner *= shape[d];
  return p;
}

int64_t check_axis_param(const aclTensor& p, const char* arg, const Dims& shape, int64_t axis,
                         const char* shape_what) {
  const int64_t want = shape[static_cast<size_t>(axis)];
  if (p.dim() == 1) {
    if (p.view[0] != 1 && p.view[0] != want)
      invalid("{} has shape {}, expected [1] or [{}] (dim {} of {} {})", arg, dims_str(p.view), want, axis, shape_what,
              dims_str(shape));
    return p.view[0];
  }
  if (p.dim() != static_cast<int64_t>(shape.size()))
    invalid("{} has {} dims, expected 1 or {} (the rank of {} {})", arg, p.dim(), shape.size(), shape_what,
            dims_str(shape));
  for (int64_t d = 0; d < p.dim(); ++d) {
    const int64_t s = p.view[static_cast<size_t>(d)];
    if (d == axis ? (s != 1 && s != want) : s != 1)
      invalid("{} has shape {}, expected size 1 in every dim except dim {} (1 or {}) for {} {}", arg, dims_str(p.view),
              axis, want, shape_what, dims_str(shape));
  }
  return p.view[static_cast<size_t>(axis)];
}

void check_dst_type(const aclTensor& y, const char* y_arg, int64_t dst_type) {
  if (static_cast<int64_t>(y.dtype) != dst_type)
    invalid("{} has dtype {}, expected the dtype dstType {} names ({})", y_arg, dtype_name(y.dtype), dst_type,
            dtype_name(static_cast<DType>(dst_type)));
}

}  // namespace pacl::quant
