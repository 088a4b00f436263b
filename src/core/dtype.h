// Data types: sizes, names, categories, PyTorch type promotion, and the fp16/bf16 number formats.
// DType values are aclDataType values, so conversion at the C boundary is a cast.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace pacl {

enum class DType : int32_t {
  kUndefined = -1,
  kFloat = 0,
  kFloat16 = 1,
  kInt8 = 2,
  kInt32 = 3,
  kUInt8 = 4,
  kInt16 = 6,
  kUInt16 = 7,
  kUInt32 = 8,
  kInt64 = 9,
  kUInt64 = 10,
  kDouble = 11,
  kBool = 12,
  kString = 13,
  kComplex64 = 16,
  kComplex128 = 17,
  kBFloat16 = 27,
  kInt4 = 29,
  kUInt1 = 30,
  kComplex32 = 33,
  kHiFloat8 = 34,
  kFloat8E5M2 = 35,
  kFloat8E4M3FN = 36,
  kFloat8E8M0 = 37,
  kFloat6E3M2 = 38,
  kFloat6E2M3 = 39,
  kFloat4E2M1 = 40,
  kFloat4E1M2 = 41,
};

// Bytes per element; 0 for values that name no storable type.
size_t dtype_size(DType t);
// "float32", "float16", ... (PyTorch spellings); "DT_<n>" for unknown values.
const char* dtype_name(DType t);
bool dtype_valid(DType t);  // one of the enumerators above, other than kUndefined
inline bool is_floating(DType t) {
  return t == DType::kFloat || t == DType::kFloat16 || t == DType::kBFloat16 || t == DType::kDouble;
}
inline bool is_complex(DType t) {
  return t == DType::kComplex64 || t == DType::kComplex128 || t == DType::kComplex32;
}
inline bool is_integral(DType t, bool include_bool) {
  switch (t) {
    case DType::kInt8: case DType::kInt16: case DType::kInt32: case DType::kInt64:
    case DType::kUInt8: case DType::kUInt16: case DType::kUInt32: case DType::kUInt64:
      return true;
    case DType::kBool:
      return include_bool;
    default:
      return false;
  }
}

// The ten dtypes pacl computes with: bool, u8, i8, i16, i32, i64, f16, bf16, f32, f64.
bool is_compute_dtype(DType t);

// PyTorch's promote_types over the ten compute dtypes; kUndefined where PyTorch has no answer.
DType promote(DType a, DType b);
// PyTorch's canCast: no floating -> integral, no non-bool -> bool, no complex -> real.
bool can_cast(DType from, DType to);

// ---- 16-bit floats. Conversions round to nearest even and keep NaN/Inf (IEEE, as PyTorch). ----
inline float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ffu, bits;
  if (exp == 0) {
    if (man == 0) {
      bits = sign;
    } else {  // subnormal: normalize
      int e = -1;
      do {
        ++e;
        man <<= 1;
      } while ((man & 0x400u) == 0);
      bits = sign | static_cast<uint32_t>(127 - 15 - e) << 23 | (man & 0x3ffu) << 13;
    }
  } else if (exp == 0x1f) {
    bits = sign | 0x7f800000u | man << 13;
  } else {
    bits = sign | (exp + 112) << 23 | man << 13;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline uint16_t float_to_half(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  x &= 0x7fffffffu;
  if (x >= 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u | (x > 0x7f800000u ? 0x200u : 0u));
  if (x >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to >= 65520: Inf
  if (x < 0x38800000u) {  // below the smallest normal half: subnormal or zero
    if (x < 0x33000000u) return sign;  // < 2^-25 rounds to zero
    const uint32_t e = x >> 23, m = (x & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126 - e;  // 14..24 (+ 13 mantissa bits)
    uint32_t v = m >> shift;
    const uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (v & 1u))) ++v;
    return static_cast<uint16_t>(sign | v);
  }
  uint32_t v = ((x >> 13) - (112u << 10));
  const uint32_t rem = x & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (v & 1u))) ++v;
  return static_cast<uint16_t>(sign | v);
}

inline float bf16_to_float(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline uint16_t float_to_bf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

// Storage types for the 16-bit floats, distinct from uint16_t so templates can tell them apart.
struct Half {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};

}  // namespace pacl
