#include "core/convert.h"

namespace pacl {

void convert_strided(DType dst_t, void* dst, int64_t dst_stride, DType src_t, const void* src, int64_t src_stride,
                     int64_t n) {
  visit_dtype(dst_t, [&](auto dtag) {
    using D = typename decltype(dtag)::type;
    visit_dtype(src_t, [&](auto stag) {
      using S = typename decltype(stag)::type;
      D* d = static_cast<D*>(dst);
      const S* s = static_cast<const S*>(src);
      if (dst_stride == 1 && src_stride == 1) {
        for (int64_t i = 0; i < n; ++i) d[i] = convert_value<D>(s[i]);
      } else {
        for (int64_t i = 0; i < n; ++i) d[i * dst_stride] = convert_value<D>(s[i * src_stride]);
      }
    });
  });
}

void round_to_16bit(DType t, float* p, int64_t n) {
  if (t == DType::kFloat16) {
    for (int64_t i = 0; i < n; ++i) p[i] = half_to_float(float_to_half(p[i]));
  } else if (t == DType::kBFloat16) {
    for (int64_t i = 0; i < n; ++i) p[i] = bf16_to_float(float_to_bf16(p[i]));
  } else {
    throw std::logic_error("round_to_16bit: not a 16-bit float dtype");
  }
}

}  // namespace pacl
