// Row kernels shared by softmax and the norms. Every op of the family reduces over some dims of a
// dense row-major array seen as [outer, n, inner]: the reduced extent n, the elements around it.
// With inner == 1 (the reduced dims innermost, the common case) each of the outer rows is n
// contiguous values; otherwise a "column block" handles up to kColBlock adjacent inner positions
// at once, stepping through the n rows with stride inner, so no transpose is ever made.
//
// Reductions accumulate in T (float for float32/float16/bfloat16, double for float64) over
// kLanes<T> independent partial sums combined pairwise at the end: the compiler turns the
// fixed-length lane loops into SIMD registers without needing -ffast-math, and the partial sums
// keep the rounding error of long rows small.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#if defined(__AVX__)
#include <immintrin.h>
#endif

#include "core/parallel.h"
#include "core/vector_math.h"

namespace pacl::rows {

template <typename T>
inline constexpr int kLanes = 128 / static_cast<int>(sizeof(T));  // 32 floats, 16 doubles
inline constexpr int64_t kColBlock = 64;                            // inner positions per column task
inline constexpr int64_t kTaskElements = 32 * 1024;                 // elements per parallel task, at least

// sum over i < n of f(i).
template <typename T, typename F>
inline T sum(int64_t n, F&& f) {
  constexpr int L = kLanes<T>;
  T acc[L] = {};
  int64_t i = 0;
  for (; i + L <= n; i += L)
    for (int l = 0; l < L; ++l) acc[l] += f(i + l);
  T tail = 0;
  for (; i < n; ++i) tail += f(i);
  for (int w = L / 2; w > 0; w /= 2)
    for (int l = 0; l < w; ++l) acc[l] += acc[l + w];
  return acc[0] + tail;
}

// max of x[0..n) ignoring NaN (-inf when n == 0 or all NaN); callers whose results must be NaN for
// a NaN input get it from the sums that follow.
template <typename T>
inline T max(const T* x, int64_t n) {
  constexpr int L = kLanes<T>;
  constexpr T lo = -std::numeric_limits<T>::infinity();
  T acc[L];
  for (int l = 0; l < L; ++l) acc[l] = lo;
  int64_t i = 0;
  for (; i + L <= n; i += L)
    for (int l = 0; l < L; ++l) acc[l] = x[i + l] > acc[l] ? x[i + l] : acc[l];
  T m = lo;
  for (int l = 0; l < L; ++l) m = acc[l] > m ? acc[l] : m;
  for (; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

// Mean and biased variance of x[0..n) by the corrected two-pass algorithm: m = sum(x) / n, then
// with d = x - m: mean = m + sum(d) / n, var = (sum(d^2) - sum(d)^2 / n) / n. The correction
// makes a constant row's mean exact and its variance 0.
template <typename T>
inline void mean_var(const T* x, int64_t n, T* mean, T* var) {
  const T m = sum<T>(n, [x](int64_t i) { return x[i]; }) / static_cast<T>(n);
  // Two single-accumulator passes (over a row that is in L1 by now): GCC -O3 turns a fused
  // two-accumulator lane loop into shuffles.
  const T s1 = sum<T>(n, [x, m](int64_t i) { return x[i] - m; });
  const T s2 = sum<T>(n, [x, m](int64_t i) {
    const T d = x[i] - m;
    return d * d;
  });
  const T nn = static_cast<T>(n);
  *mean = std::isfinite(m) ? m + s1 / nn : m;  // an infinite mean stays as it is
  const T v = (s2 - s1 * s1 / nn) / nn;
  *var = v < T(0) ? T(0) : v;  // rounding can make it slightly negative; NaN stays NaN
}

// Calls f(begin, end, thread) over a partition of [0, tasks), each task being `task_elements`
// elements of work, in parallel when the whole is large (thread < max_threads()).
template <typename F>
inline void for_tasks(int64_t tasks, int64_t task_elements, F&& f) {
  if (tasks <= 0) return;
  const int64_t grain = std::max<int64_t>(1, kTaskElements / std::max<int64_t>(task_elements, 1));
  if (tasks <= grain) {
    f(int64_t{0}, tasks, 0);
    return;
  }
  parallel_for(tasks, grain, [&](int64_t b, int64_t e, int t) { f(b, e, t); });
}

// Prefetches the cache lines of p[0..n) (a row the next step reads from memory).
template <typename T>
inline void prefetch(const T* p, int64_t n) {
  for (int64_t i = 0; i < n; i += 64 / static_cast<int64_t>(sizeof(T))) __builtin_prefetch(p + i);
}

// sum over i < n of f(i) in chunks, prefetching next[0..n) (when given) a chunk ahead of use:
// overlaps the memory reads of the next row with this row's work.
template <typename T, typename F>
inline T sum_prefetch(int64_t n, F&& f, const T* next) {
  constexpr int64_t kChunk = 1024 / static_cast<int64_t>(sizeof(T));
  if (!next) return sum<T>(n, f);
  T s = 0;
  for (int64_t j = 0; j < n; j += kChunk) {
    const int64_t len = std::min(kChunk, n - j);
    prefetch(next + j, len);
    s += sum<T>(len, [&](int64_t i) { return f(j + i); });
  }
  return s;
}

// Outputs at least this large are written with non-temporal stores where a kernel can: they
// cannot stay in the caches anyway, and streaming them saves the read-for-ownership of each line.
inline constexpr int64_t kStreamBytes = 8 << 20;

// y[i] = s[i] * c (float), with non-temporal stores when the ISA has them; call stream_fence()
// before the data is handed to another thread.
inline void scale_stream(float* y, const float* s, float c, int64_t n) {
  int64_t i = 0;
#if defined(__AVX__)
  for (; i < n && (reinterpret_cast<uintptr_t>(y + i) & 31) != 0; ++i) y[i] = s[i] * c;
  const __m256 vc = _mm256_set1_ps(c);
  for (; i + 8 <= n; i += 8) _mm256_stream_ps(y + i, _mm256_mul_ps(_mm256_loadu_ps(s + i), vc));
#endif
  for (; i < n; ++i) y[i] = s[i] * c;
}
// y[0..n) = f(0..n) (float), written with non-temporal stores: computed in chunks into an L1
// buffer by a loop the compiler vectorizes, then streamed out.
// `next` (optional): n values (the next row) to prefetch meanwhile, a chunk at a time.
template <typename F>
inline void write_stream(float* y, int64_t n, F&& f, const float* next = nullptr) {
  constexpr int64_t kChunk = 512;
  alignas(64) float tmp[kChunk];
  for (int64_t j = 0; j < n; j += kChunk) {
    const int64_t len = std::min(kChunk, n - j);
    if (next) prefetch(next + j, len);
    for (int64_t i = 0; i < len; ++i) tmp[i] = f(j + i);
    scale_stream(y + j, tmp, 1.0f, len);
  }
}

inline void stream_fence() {
#if defined(__AVX__)
  _mm_sfence();
#endif
}

// Geometry of an [outer, n, inner] problem and its column blocks.
struct Layout {
  int64_t outer = 1, n = 1, inner = 1;
  int64_t blocks() const { return (inner + kColBlock - 1) / kColBlock; }
  int64_t tasks() const { return inner == 1 ? outer : outer * blocks(); }
};

// Runs row(offset_of_row_start, thread) for each of the outer rows when inner == 1, else
// col(offset_of_block_start, width) for each column block (offsets in elements; the n values of
// column j sit at offset + j + r * inner).
template <typename Row, typename Col>
inline void for_each_line(const Layout& g, Row&& row, Col&& col) {
  if (g.inner == 1) {
    for_tasks(g.outer, g.n, [&](int64_t b, int64_t e, int thread) {
      for (int64_t o = b; o < e; ++o) row(o * g.n, thread);
      stream_fence();
    });
    return;
  }
  const int64_t nb = g.blocks();
  for_tasks(g.tasks(), g.n * std::min(g.inner, kColBlock), [&](int64_t b, int64_t e, int) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t o = t / nb, j0 = (t % nb) * kColBlock;
      col(o * g.n * g.inner + j0, std::min(kColBlock, g.inner - j0));
    }
  });
}

}  // namespace pacl::rows
