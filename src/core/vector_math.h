// SIMD variants of libm's float32 functions. glibc's libmvec implements the vector-function ABI
// variants (AVX2: 8 floats per call, SSE: 4) of these functions; declaring them `simd` lets
// the compiler call those variants when it vectorizes a kernel loop that calls std::exp, std::tanh,
// ... (with -fno-math-errno). glibc documents their maximum errors (a few ulps at most; measured
// for pacl's ops in docs/performance.md); special values (NaN, +-inf, +-0) follow C99 as the scalar
// functions do. Without libmvec the declarations are absent and the loops stay scalar. float64
// kernels keep the scalar libm functions: libmvec's double variants are up to 4 ulps off, and a
// user who asks for float64 asks for libm's accuracy.
#pragma once

#include <cmath>

#ifdef PACL_HAVE_LIBMVEC
#define PACL_SIMD_FN(ret, name, ...) extern "C" ret name(__VA_ARGS__) noexcept __attribute__((simd("notinbranch")))
PACL_SIMD_FN(float, expf, float);
PACL_SIMD_FN(float, exp2f, float);
PACL_SIMD_FN(float, expm1f, float);
PACL_SIMD_FN(float, logf, float);
PACL_SIMD_FN(float, log2f, float);
PACL_SIMD_FN(float, log10f, float);
PACL_SIMD_FN(float, log1pf, float);
PACL_SIMD_FN(float, sinf, float);
PACL_SIMD_FN(float, cosf, float);
PACL_SIMD_FN(float, tanf, float);
PACL_SIMD_FN(float, asinf, float);
PACL_SIMD_FN(float, acosf, float);
PACL_SIMD_FN(float, atanf, float);
PACL_SIMD_FN(float, sinhf, float);
PACL_SIMD_FN(float, coshf, float);
PACL_SIMD_FN(float, tanhf, float);
PACL_SIMD_FN(float, asinhf, float);
PACL_SIMD_FN(float, acoshf, float);
PACL_SIMD_FN(float, atanhf, float);
PACL_SIMD_FN(float, erff, float);
PACL_SIMD_FN(float, erfcf, float);
PACL_SIMD_FN(float, powf, float, float);
#undef PACL_SIMD_FN
#endif
