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

// Mean and biased variance of x[0..n) by two passes (exact mean first, then squared deviations).
template <typename T>
inline void mean_var(const T* x, int64_t n, T* mean, T* var) {
  const T m = sum<T>(n, [x](int64_t i) { return x[i]; }) / static_cast<T>(n);
  *mean = m;
  *var = sum<T>(n, [x, m](int64_t i) {
           const T d = x[i] - m;
           return d * d;
         }) /
         static_cast<T>(n);
}

// Calls f(begin, end) over a partition of [0, tasks), each task being `task_elements` elements of
// work, in parallel when the whole is large.
template <typename F>
inline void for_tasks(int64_t tasks, int64_t task_elements, F&& f) {
  if (tasks <= 0) return;
  const int64_t grain = std::max<int64_t>(1, kTaskElements / std::max<int64_t>(task_elements, 1));
  if (tasks <= grain) {
    f(int64_t{0}, tasks);
    return;
  }
  parallel_for(tasks, grain, [&](int64_t b, int64_t e, int) { f(b, e); });
}

// Geometry of an [outer, n, inner] problem and its column blocks.
struct Layout {
  int64_t outer = 1, n = 1, inner = 1;
  int64_t blocks() const { return (inner + kColBlock - 1) / kColBlock; }
  int64_t tasks() const { return inner == 1 ? outer : outer * blocks(); }
};

// Runs row(offset_of_row_start) for each of the outer rows when inner == 1, else
// col(offset_of_block_start, width) for each column block (offsets in elements; the n values of
// column j sit at offset + j + r * inner).
template <typename Row, typename Col>
inline void for_each_line(const Layout& g, Row&& row, Col&& col) {
  if (g.inner == 1) {
    for_tasks(g.outer, g.n, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) row(o * g.n);
    });
    return;
  }
  const int64_t nb = g.blocks();
  for_tasks(g.tasks(), g.n * std::min(g.inner, kColBlock), [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t o = t / nb, j0 = (t % nb) * kColBlock;
      col(o * g.n * g.inner + j0, std::min(kColBlock, g.inner - j0));
    }
  });
}

}  // namespace pacl::rows
