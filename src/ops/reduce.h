// Reductions: one engine behind every op that folds a tensor over some of its dims (sum, mean,
// prod, max/min, any/all, arg max/min, variance, norms, log-sum-exp, ...), parametrised by a
// reducer; and a scan engine for the cumulative ops (cumsum, cumprod, cummax, cummin).
//
// Layout. At plan time self's dims are sorted into a 3-d view [outer, reduced, inner]: the kept
// dims before the reduced block, the reduced block, the kept dims after it, each one strided dim
// once size-1 dims are dropped and neighbours that are contiguous with each other are merged. The
// engine reads that view in place, whatever self's strides and dtype. When the dims do not fall
// into the pattern (reduced dims interleaved with kept ones), self is first copied into a booked
// scratch buffer with its kept dims first and its reduced dims last ([outer, reduced, 1]). Either
// way output position o * inner + i is the row-major position among the kept dims, so outputs are
// dense arrays (DensePlan handles their dtype and strides).
//
// Values. Elements are converted to the op's compute dtype (PyTorch's "cast to dtype first"), then
// widened to the reducer's arithmetic type T (float for float16/bfloat16), a block at a time.
//
// Work split. Output rows (o, and a tile of inner positions) are spread across threads. A long
// reduction with few outputs is also cut into chunks of rows fixed by the shape alone (so results
// do not depend on the thread count); their partial states, booked as workspace, are merged in
// order.
//
// A reducer for arithmetic type T provides:
//   using Acc;                                                  the state of one output
//   Acc init() const;                                           the state of an empty reduction
//   void row(Acc& a, const T* x, int64_t n, int64_t r0) const;  folds x[0..n), reduction indices r0..
//                                                               (n <= kReduceBlock; vectorise it)
//   void col(Acc* a, const T* x, int64_t w, int64_t r) const;   folds x[i] into a[i] for i < w, index r
// Indices are positions along the whole reduction; a chunk's state starts empty at its first row,
// so a reducer that needs counts keeps them in its state.
//   void merge(Acc& a, const Acc& b) const;                     folds b (the items after a's) into a
//   void store(int64_t pos, const Acc& a, int64_t n) const;     writes the outputs at position pos
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/convert.h"
#include "core/dense.h"
#include "core/parallel.h"
#include "ops/elementwise_op.h"

namespace pacl {

inline constexpr int64_t kReduceBlock = 1024;  // elements handed to Reducer::row at a time
inline constexpr int64_t kReduceTile = 256;    // inner positions folded together by Reducer::col
inline constexpr int kLanes = 32;              // independent accumulators in a vectorised fold

// How to read self as [outer, reduced, inner] (decided at plan time).
struct ReduceLayout {
  int64_t outer = 1, reduced = 1, inner = 1;
  int64_t so = 0, sr = 0, si = 0;  // element strides of the view read
  DType self_dtype = DType::kFloat;
  DType stored = DType::kFloat;    // dtype of the elements read (self's, or compute after a copy)
  DType compute = DType::kFloat;   // the op's compute dtype
  DType round16 = DType::kUndefined;  // compute, when values must be rounded to it after widening
  // Copy of self into scratch ([kept dims..., reduced dims...], dense, compute dtype) when needed.
  bool copy = false;
  Dims copy_shape, copy_strides;
  size_t copy_offset = 0;
  // Work split.
  int64_t tile = 1, tiles = 1, chunks = 1, chunk_rows = 0;
  size_t partial_offset = 0;

  int64_t units() const { return outer * tiles; }
};

// Sorts self's dims (mask: which are reduced) into a ReduceLayout, booking the copy and the
// partial states (acc_size bytes per output position and chunk) in p.
ReduceLayout plan_reduce_layout(DensePlan& p, const aclTensor& self, const std::vector<bool>& mask, DType compute,
                                size_t acc_size);

// ---- argument helpers shared by the reduction ops --------------------------------------------------

// The reduced-dim mask of a dims argument (wrapped, repeats rejected; empty = every dim when
// empty_means_all, none otherwise).
std::vector<bool> reduce_mask(const std::vector<int64_t>& dims, int64_t rank, const char* arg, bool empty_means_all);
std::vector<bool> all_dims_mask(int64_t rank);
// self's shape with the masked dims removed (or set to 1 with keepdim).
Dims reduced_shape(const Dims& shape, const std::vector<bool>& mask, bool keepdim);
// The number of elements folded into each output.
int64_t reduced_count(const Dims& shape, const std::vector<bool>& mask);
// Rejects a reduction without an identity (max, min, argmax...) over zero elements when there are
// outputs to produce, as PyTorch does.
void check_nonempty_reduction(const aclTensor& self, const std::vector<bool>& mask, int64_t out_numel, const char* what);
// One-line description of a dims argument for messages: "[0, -1]".
std::string ints_str(const std::vector<int64_t>& v);

// ---- the engine -----------------------------------------------------------------------------------

namespace reduce_detail {

// Element [0..n) of a strided run, converted to the compute dtype and widened to T. Returns p
// itself when nothing needs converting, else fills buf.
template <typename T>
inline const T* load(const ReduceLayout& L, const char* p, int64_t stride, int64_t n, T* buf) {
  if (L.stored == dtype_of<T>() && L.round16 == DType::kUndefined && stride == 1) return reinterpret_cast<const T*>(p);
  convert_strided(dtype_of<T>(), buf, 1, L.stored, p, stride, n);
  if constexpr (std::is_same_v<T, float>)
    if (L.round16 != DType::kUndefined) round_to_16bit(L.round16, buf, n);
  return buf;
}

template <typename Red, typename T>
void fold(const Red& red, const ReduceLayout& L, const char* in, int64_t u, int64_t r0, int64_t r1,
          typename Red::Acc* acc) {
  const int64_t es = static_cast<int64_t>(dtype_size(L.stored));
  const int64_t o = u / L.tiles, i0 = (u % L.tiles) * L.tile;
  const char* base = in + (o * L.so + i0 * L.si) * es;
  if (L.inner == 1) {
    alignas(64) T buf[kReduceBlock];
    for (int64_t r = r0; r < r1; r += kReduceBlock) {
      const int64_t n = std::min(kReduceBlock, r1 - r);
      red.row(acc[0], load<T>(L, base + r * L.sr * es, L.sr, n, buf), n, r);
    }
  } else {
    alignas(64) T buf[kReduceTile];
    const int64_t w = std::min(L.tile, L.inner - i0);
    for (int64_t r = r0; r < r1; ++r) red.col(acc, load<T>(L, base + r * L.sr * es, L.si, w, buf), w, r);
  }
}

}  // namespace reduce_detail

// Runs a planned reduction: self_first is the address of self's element [0..0], ws the workspace.
template <typename T, typename Red>
void run_reduce(const ReduceLayout& L, const void* self_first, char* ws, const Red& red) {
  using Acc = typename Red::Acc;
  const char* in = static_cast<const char*>(self_first);
  if (L.copy) {
    copy_strided(L.copy_shape, L.stored, ws + L.copy_offset, contiguous_strides(L.copy_shape), L.self_dtype,
                 self_first, L.copy_strides);
    in = ws + L.copy_offset;
  }
  const int64_t units = L.units(), R = L.reduced;
  auto width = [&](int64_t u) { return std::min(L.tile, L.inner - (u % L.tiles) * L.tile); };
  auto position = [&](int64_t u) { return (u / L.tiles) * L.inner + (u % L.tiles) * L.tile; };
  if (L.chunks <= 1) {
    const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, R * L.tile));
    parallel_for(units, grain, [&](int64_t b, int64_t e, int) {
      Acc acc[kReduceTile];
      for (int64_t u = b; u < e; ++u) {
        const int64_t w = width(u), pos = position(u);
        for (int64_t i = 0; i < w; ++i) acc[i] = red.init();
        reduce_detail::fold<Red, T>(red, L, in, u, 0, R, acc);
        for (int64_t i = 0; i < w; ++i) red.store(pos + i, acc[i], R);
      }
    });
    return;
  }
  // Split reduction: partial states of chunk c of unit u at part[(u * chunks + c) * tile].
  Acc* part = reinterpret_cast<Acc*>(ws + L.partial_offset);
  parallel_for(units * L.chunks, 1, [&](int64_t b, int64_t e, int) {
    for (int64_t k = b; k < e; ++k) {
      const int64_t u = k / L.chunks, c = k % L.chunks, w = width(u);
      Acc* a = part + k * L.tile;
      for (int64_t i = 0; i < w; ++i) new (a + i) Acc(red.init());
      reduce_detail::fold<Red, T>(red, L, in, u, c * L.chunk_rows, std::min(R, (c + 1) * L.chunk_rows), a);
    }
  });
  parallel_for(units, 1, [&](int64_t b, int64_t e, int) {
    for (int64_t u = b; u < e; ++u) {
      const int64_t w = width(u), pos = position(u);
      Acc* a = part + u * L.chunks * L.tile;
      for (int64_t c = 1; c < L.chunks; ++c)
        for (int64_t i = 0; i < w; ++i) red.merge(a[i], a[c * L.tile + i]);
      for (int64_t i = 0; i < w; ++i) red.store(pos + i, a[i], R);
    }
  });
}

// One output of a reduction: the tensor, the dtype the reducer writes (DensePlan converts it to the
// tensor's), and the 16-bit compute dtype results are rounded to before that conversion (when the
// reducer computes in float for a float16/bfloat16 compute dtype but the tensor has another dtype).
struct ReduceOut {
  const aclTensor* tensor;
  DType as;
  DType round16 = DType::kUndefined;
};

// Plans out_k = reduction of self over mask, computed in `compute`. make(type_tag<T>, args, ids)
// builds the reducer at run time (ids[k]: DenseArgs index of output k). Outputs must share one
// shape; an empty output means there is nothing to run.
template <TypeSet Set, typename Make>
void plan_reduction(OpBuilder& b, std::string name, const aclTensor& self, const std::vector<bool>& mask,
                    DType compute, const std::vector<ReduceOut>& outs, Make make) {
  for (const ReduceOut& o : outs)
    if (o.tensor->numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int src = p.strided(self);
  std::vector<int> ids;
  std::vector<std::pair<int, DType>> rounds;
  for (const ReduceOut& o : outs) {
    ids.push_back(p.output(*o.tensor, o.as));
    if (o.round16 != DType::kUndefined && o.tensor->dtype != o.round16) rounds.emplace_back(ids.back(), o.round16);
  }
  const int64_t count = outs.front().tensor->numel();
  visit_arithmetic<Set>(compute, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Red = decltype(make(tag, std::declval<const DenseArgs&>(), ids));
    const ReduceLayout L = plan_reduce_layout(p, self, mask, compute, sizeof(typename Red::Acc));
    p.finish(name + "." + dtype_name(compute), [L, src, ids, rounds, count, make, tag](const DenseArgs& a) {
      const Red red = make(tag, a, ids);
      run_reduce<T>(L, a.ptr(src), a.scratch<char>(0), red);
      for (const auto& r : rounds) round_to_16bit(r.second, a.out<float>(r.first), count);
    });
  });
}

// ---- building blocks for reducers -----------------------------------------------------------------

// The wide accumulator of a sum over T: double for floating types, a wrapping 64-bit integer for
// integral ones (and bool).
template <typename T>
using wide_t = std::conditional_t<std::is_floating_point_v<T>, double, uint64_t>;

// Sum of x[0..n) with kLanes accumulators of type A (vectorised); f maps each element first.
template <typename A, typename T, typename F>
inline A lane_sum(const T* __restrict x, int64_t n, F f) {
  A lane[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int j = 0; j < kLanes; ++j) lane[j] += f(x[i + j]);
  A tail = 0;
  for (; i < n; ++i) tail += f(x[i]);
  for (int w = kLanes / 2; w > 0; w /= 2)
    for (int j = 0; j < w; ++j) lane[j] += lane[j + w];
  return lane[0] + tail;
}

// Converts a wide sum back to T (integers wrap to T's width, as PyTorch's integer sums do).
template <typename T, typename W>
inline T narrow(W v) {
  if constexpr (std::is_same_v<T, bool>) return v != 0;
  else if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<int64_t>(v));
  else return static_cast<T>(v);
}

template <typename T>
inline bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return v != v;
  else return false;
}

}  // namespace pacl
