#include "core/dtype.h"

#include <cstdio>

namespace pacl {

size_t dtype_size(DType t) {
  switch (t) {
    case DType::kBool: case DType::kInt8: case DType::kUInt8: case DType::kHiFloat8: case DType::kFloat8E5M2:
    case DType::kFloat8E4M3FN: case DType::kFloat8E8M0: case DType::kFloat6E3M2: case DType::kFloat6E2M3:
    case DType::kFloat4E2M1: case DType::kFloat4E1M2: case DType::kInt4: case DType::kUInt1:
      return 1;
    case DType::kFloat16: case DType::kBFloat16: case DType::kInt16: case DType::kUInt16:
      return 2;
    case DType::kFloat: case DType::kInt32: case DType::kUInt32: case DType::kComplex32:
      return 4;
    case DType::kDouble: case DType::kInt64: case DType::kUInt64: case DType::kComplex64:
      return 8;
    case DType::kComplex128:
      return 16;
    default:
      return 0;
  }
}

bool dtype_valid(DType t) { return dtype_size(t) != 0; }

const char* dtype_name(DType t) {
  switch (t) {
    case DType::kFloat: return "float32";
    case DType::kFloat16: return "float16";
    case DType::kBFloat16: return "bfloat16";
    case DType::kDouble: return "float64";
    case DType::kInt8: return "int8";
    case DType::kInt16: return "int16";
    case DType::kInt32: return "int32";
    case DType::kInt64: return "int64";
    case DType::kUInt8: return "uint8";
    case DType::kUInt16: return "uint16";
    case DType::kUInt32: return "uint32";
    case DType::kUInt64: return "uint64";
    case DType::kBool: return "bool";
    case DType::kString: return "string";
    case DType::kComplex32: return "complex32";
    case DType::kComplex64: return "complex64";
    case DType::kComplex128: return "complex128";
    case DType::kInt4: return "int4";
    case DType::kUInt1: return "uint1";
    case DType::kHiFloat8: return "hifloat8";
    case DType::kFloat8E5M2: return "float8_e5m2";
    case DType::kFloat8E4M3FN: return "float8_e4m3fn";
    case DType::kFloat8E8M0: return "float8_e8m0";
    case DType::kFloat6E3M2: return "float6_e3m2";
    case DType::kFloat6E2M3: return "float6_e2m3";
    case DType::kFloat4E2M1: return "float4_e2m1";
    case DType::kFloat4E1M2: return "float4_e1m2";
    case DType::kUndefined: return "undefined";
  }
  static thread_local char buf[24];
  std::snprintf(buf, sizeof buf, "DT_%d", static_cast<int>(t));
  return buf;
}

bool is_compute_dtype(DType t) {
  switch (t) {
    case DType::kBool: case DType::kUInt8: case DType::kInt8: case DType::kInt16: case DType::kInt32:
    case DType::kInt64: case DType::kFloat16: case DType::kBFloat16: case DType::kFloat: case DType::kDouble:
      return true;
    default:
      return false;
  }
}

namespace {
// Rank within PyTorch's promotion lattice for the compute dtypes.
int slot(DType t) {
  switch (t) {
    case DType::kUInt8: return 0;
    case DType::kInt8: return 1;
    case DType::kInt16: return 2;
    case DType::kInt32: return 3;
    case DType::kInt64: return 4;
    case DType::kFloat16: return 5;
    case DType::kFloat: return 6;
    case DType::kDouble: return 7;
    case DType::kBool: return 8;
    case DType::kBFloat16: return 9;
    default: return -1;
  }
}
}  // namespace

DType promote(DType a, DType b) {
  if (a == b) return is_compute_dtype(a) ? a : DType::kUndefined;
  constexpr DType u1 = DType::kUInt8, i1 = DType::kInt8, i2 = DType::kInt16, i4 = DType::kInt32,
                  i8 = DType::kInt64, f2 = DType::kFloat16, f4 = DType::kFloat, f8 = DType::kDouble,
                  b1 = DType::kBool, bf = DType::kBFloat16;
  // PyTorch's table (c10/core/ScalarType.h), restricted to the compute dtypes.
  static const DType table[10][10] = {
      /*        u1  i1  i2  i4  i8  f2  f4  f8  b1  bf */
      /* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, u1, bf},
      /* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, i1, bf},
      /* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, i2, bf},
      /* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, i4, bf},
      /* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, i8, bf},
      /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, f2, f4},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, f4, f4},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
      /* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, b1, bf},
      /* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, bf, bf},
  };
  const int x = slot(a), y = slot(b);
  if (x < 0 || y < 0) return DType::kUndefined;
  return table[x][y];
}

bool can_cast(DType from, DType to) {
  if (is_complex(from) && !is_complex(to)) return false;
  if (is_floating(from) && is_integral(to, true)) return false;
  if (from != DType::kBool && to == DType::kBool) return false;
  return true;
}

}  // namespace pacl
