#include "core/convert.h"

#if defined(__F16C__) && defined(__AVX__)
#include <immintrin.h>
#endif

namespace pacl {
namespace {

// Contiguous float32 <-> float16 with the F16C instructions (round to nearest even, as
// float_to_half; a NaN keeps the top bits of its payload). Returns the number of elements done;
// the caller converts the rest.
int64_t f32_to_f16_simd(Half* d, const float* s, int64_t n) {
#if defined(__F16C__) && defined(__AVX__)
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), _mm256_cvtps_ph(_mm256_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT));
  return i;
#else
  return 0;
#endif
}
int64_t f16_to_f32_simd(float* d, const Half* s, int64_t n) {
#if defined(__F16C__) && defined(__AVX__)
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(d + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i))));
  return i;
#else
  return 0;
#endif
}

}  // namespace

void convert_strided(DType dst_t, void* dst, int64_t dst_stride, DType src_t, const void* src, int64_t src_stride,
                     int64_t n) {
  visit_dtype(dst_t, [&](auto dtag) {
    using D = typename decltype(dtag)::type;
    visit_dtype(src_t, [&](auto stag) {
      using S = typename decltype(stag)::type;
      D* d = static_cast<D*>(dst);
      const S* s = static_cast<const S*>(src);
      if (dst_stride == 1 && src_stride == 1) {
        int64_t i = 0;
        if constexpr (std::is_same_v<D, Half> && std::is_same_v<S, float>) i = f32_to_f16_simd(d, s, n);
        if constexpr (std::is_same_v<D, float> && std::is_same_v<S, Half>) i = f16_to_f32_simd(d, s, n);
        for (; i < n; ++i) d[i] = convert_value<D>(s[i]);
      } else {
        for (int64_t i = 0; i < n; ++i) d[i * dst_stride] = convert_value<D>(s[i * src_stride]);
      }
    });
  });
}

void round_to_16bit(DType t, float* p, int64_t n) {
  if (t == DType::kFloat16) {
#if defined(__F16C__) && defined(__AVX__)
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
      _mm256_storeu_ps(p + i, _mm256_cvtph_ps(_mm256_cvtps_ph(_mm256_loadu_ps(p + i), _MM_FROUND_TO_NEAREST_INT)));
    for (; i < n; ++i) p[i] = half_to_float(float_to_half(p[i]));
#else
    for (int64_t i = 0; i < n; ++i) p[i] = half_to_float(float_to_half(p[i]));
#endif
  } else if (t == DType::kBFloat16) {
    for (int64_t i = 0; i < n; ++i) p[i] = bf16_to_float(float_to_bf16(p[i]));
  } else {
    throw std::logic_error("round_to_16bit: not a 16-bit float dtype");
  }
}

}  // namespace pacl
