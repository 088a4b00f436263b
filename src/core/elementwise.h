// The elementwise engine: one output and N inputs over a broadcast shape, any strides, any mix of
// the ten compute dtypes. At plan time the shapes are broadcast (zero strides), dimensions are
// merged where all operands allow it, and the compute type T is fixed. At run time each merged
// row is processed in chunks: an operand already of type T with unit or zero stride is used in
// place, any other is converted into a small buffer first (the one place where "cast to the
// compute dtype" and "make contiguous" are written). The functor sees plain T values, so an
// elementwise op is a functor and a registry line.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/convert.h"
#include "core/executor.h"
#include "core/meta.h"
#include "core/parallel.h"

namespace pacl {

// NumPy broadcasting of two shapes; throws InvalidArgument naming both arguments on mismatch.
Dims broadcast_shapes(const Dims& a, const char* a_name, const Dims& b, const char* b_name);

// Strides of `t` viewed with shape `shape` (right-aligned; broadcast dims get stride 0).
Dims broadcast_strides(const aclTensor& t, const Dims& shape);

// Merged iteration space: shape[d] and, per operand k, stride[k][d] in elements (innermost last).
struct Geometry {
  Dims shape;
  std::vector<Dims> strides;
  int64_t numel() const;
};

// Drops size-1 dims and merges adjacent dims that are contiguous with each other in every operand.
Geometry merge_dims(const Dims& shape, std::vector<Dims> strides);

// Where an operand's data comes from at run time: a bound tensor slot, or a constant held by the
// kernel (a scalar argument already converted to the compute type).
struct OperandSource {
  int slot = -1;     // index into Kernel::run's data array; -1 for the constant
  DType dtype = DType::kFloat;
  DType round_to = DType::kUndefined;  // a 16-bit float compute dtype the widened values are rounded to
};

namespace detail {

inline constexpr int64_t kChunk = 512;
inline constexpr int64_t kParallelGrain = 32768;  // elements per thread below which splitting costs more than it saves

// The type f returns when called with N values of type T.
template <typename F, typename T, size_t... I>
auto result_of_n(std::index_sequence<I...>) -> decltype(std::declval<const F&>()((void(I), std::declval<T>())...));
template <typename F, typename T, size_t N>
using result_t = decltype(result_of_n<F, T>(std::make_index_sequence<N>{}));

template <typename T, typename R, typename F, size_t N, size_t... I>
inline void apply_chunk(const F& f, R* __restrict out, const std::array<const T*, N>& in, unsigned zero_mask,
                        int64_t n, std::index_sequence<I...>) {
  // zero_mask bit k: input k has stride 0 (a broadcast value). The common masks get loops the
  // compiler vectorizes; the rest share one generic loop.
  if (zero_mask == 0) {
    for (int64_t i = 0; i < n; ++i) out[i] = f(in[I][i]...);
    return;
  }
  if constexpr (N == 2) {
    if (zero_mask == 2) {
      const T b = in[1][0];
      const T* __restrict a = in[0];
      for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], b);
      return;
    }
    if (zero_mask == 1) {
      const T a = in[0][0];
      const T* __restrict b = in[1];
      for (int64_t i = 0; i < n; ++i) out[i] = f(a, b[i]);
      return;
    }
  }
  for (int64_t i = 0; i < n; ++i) out[i] = f(in[I][((zero_mask >> I) & 1u) ? 0 : i]...);
}

}  // namespace detail

// Elementwise kernel over compute type T (float, double, bool or an integer type), functor F with
// `R operator()(T...) const` taking N inputs; R is T, or bool for predicates.
// Workspace: one kChunk-element buffer per operand that cannot be used in place (wrong dtype, or a
// stride other than 0/1 in the merged inner dim), booked at plan time (workspace_bytes()).
template <typename T, typename F, size_t N>
class ElementwiseKernel final : public Kernel {
  using R = detail::result_t<F, T, N>;
  static constexpr DType kT = dtype_of<T>();
  static constexpr DType kR = dtype_of<R>();
  static constexpr size_t kNone = ~size_t{0};

 public:
  ElementwiseKernel(std::string name, F f, Geometry g, int out_slot, DType out_dtype,
                    std::array<OperandSource, N> in, std::array<T, N> constants)
      : name_(std::move(name)), f_(f), g_(std::move(g)), out_slot_(out_slot), out_dtype_(out_dtype), in_(in),
        constants_(constants) {
    const size_t nd = g_.shape.size();
    auto inner = [&](size_t k) { return nd ? g_.strides[k][nd - 1] : int64_t{0}; };
    size_t offset = 0;
    auto book = [&](size_t bytes) {
      const size_t at = offset;
      offset += (bytes + 63) / 64 * 64;
      return at;
    };
    out_buf_ = (out_dtype_ == kR && inner(0) == 1) ? kNone : book(sizeof(R) * detail::kChunk);
    for (size_t k = 0; k < N; ++k) {
      const DType dt = in_[k].slot < 0 ? kT : in_[k].dtype;
      const int64_t st = inner(k + 1);
      const bool direct = dt == kT && (st == 0 || st == 1) && in_[k].round_to == DType::kUndefined;
      in_buf_[k] = direct ? kNone : book(sizeof(T) * detail::kChunk);
    }
    per_thread_ = offset;
    workspace_ = offset * static_cast<size_t>(max_threads());
  }

  std::string name() const override { return name_; }
  size_t workspace_bytes() const { return workspace_; }

  void run(void* const* data, void* workspace) const override {
    const size_t nd = g_.shape.size();
    const size_t outer = nd > 0 ? nd - 1 : 0;
    const int64_t inner = nd ? g_.shape[nd - 1] : 1;
    int64_t rows = 1;
    for (size_t d = 0; d < outer; ++d) rows *= g_.shape[d];
    std::array<char*, N + 1> base{};
    std::array<int64_t, N + 1> esize{}, inner_stride{};
    base[0] = static_cast<char*>(data[out_slot_]);
    esize[0] = static_cast<int64_t>(dtype_size(out_dtype_));
    for (size_t k = 0; k < N; ++k) {
      base[k + 1] = in_[k].slot < 0 ? reinterpret_cast<char*>(const_cast<T*>(&constants_[k]))
                                    : static_cast<char*>(data[in_[k].slot]);
      esize[k + 1] = in_[k].slot < 0 ? 0 : static_cast<int64_t>(dtype_size(in_[k].dtype));
    }
    for (size_t k = 0; k <= N; ++k) inner_stride[k] = nd ? g_.strides[k][nd - 1] : 0;
    // Work items are (row, chunk) pairs, split into one contiguous range per thread.
    const int64_t chunks_per_row = (inner + detail::kChunk - 1) / detail::kChunk;
    const int64_t items = rows * chunks_per_row;
    const int64_t grain = std::max<int64_t>(1, detail::kParallelGrain / std::min<int64_t>(inner, detail::kChunk));
    parallel_for(items, grain, [&](int64_t begin, int64_t end, int tid) {
      char* ws = static_cast<char*>(workspace) + static_cast<size_t>(tid) * per_thread_;
      R* out_buf = out_buf_ == kNone ? nullptr : reinterpret_cast<R*>(ws + out_buf_);
      std::array<T*, N> in_buf{};
      for (size_t k = 0; k < N; ++k) in_buf[k] = in_buf_[k] == kNone ? nullptr : reinterpret_cast<T*>(ws + in_buf_[k]);
      // Position the odometer at the first row of the range.
      int64_t row = begin / chunks_per_row, chunk = begin % chunks_per_row;
      std::array<int64_t, kMaxDims> idx{};
      std::array<int64_t, N + 1> off{};  // byte offsets of the current row
      for (size_t d = outer, r = static_cast<size_t>(row); d-- > 0;) {
        idx[d] = static_cast<int64_t>(r % static_cast<size_t>(g_.shape[d]));
        r /= static_cast<size_t>(g_.shape[d]);
        for (size_t k = 0; k <= N; ++k) off[k] += idx[d] * g_.strides[k][d] * esize[k];
      }
      for (int64_t item = begin; item < end;) {
        const int64_t last = std::min(chunks_per_row, chunk + (end - item));
        std::array<char*, N + 1> p;
        for (size_t k = 0; k <= N; ++k) p[k] = base[k] + off[k];
        run_row(p, inner_stride, chunk * detail::kChunk, std::min(inner, last * detail::kChunk), out_buf, in_buf);
        item += last - chunk;
        chunk = 0;
        for (size_t d = outer; d-- > 0;) {  // next row
          if (++idx[d] < g_.shape[d]) {
            for (size_t k = 0; k <= N; ++k) off[k] += g_.strides[k][d] * esize[k];
            break;
          }
          for (size_t k = 0; k <= N; ++k) off[k] -= g_.strides[k][d] * esize[k] * (g_.shape[d] - 1);
          idx[d] = 0;
        }
      }
    });
  }

 private:
  // Elements [from, to) of one merged row.
  void run_row(const std::array<char*, N + 1>& p, const std::array<int64_t, N + 1>& stride, int64_t from, int64_t to,
               R* out_buf, const std::array<T*, N>& in_buf) const {
    unsigned zero_mask = 0;
    for (size_t k = 0; k < N; ++k)
      if (stride[k + 1] == 0) zero_mask |= 1u << k;
    for (int64_t c = from; c < to; c += detail::kChunk) {
      const int64_t m = std::min<int64_t>(detail::kChunk, to - c);
      std::array<const T*, N> in;
      for (size_t k = 0; k < N; ++k) {
        const int64_t s = stride[k + 1];
        const DType dt = in_[k].slot < 0 ? kT : in_[k].dtype;
        const int64_t es = in_[k].slot < 0 ? static_cast<int64_t>(sizeof(T)) : static_cast<int64_t>(dtype_size(dt));
        const char* src = p[k + 1] + c * s * es;
        if (!in_buf[k]) {
          in[k] = reinterpret_cast<const T*>(src);
        } else {
          convert_strided(kT, in_buf[k], 1, dt, src, s, s == 0 ? 1 : m);
          if constexpr (std::is_same_v<T, float>)
            if (in_[k].round_to != DType::kUndefined) round_to_16bit(in_[k].round_to, in_buf[k], s == 0 ? 1 : m);
          in[k] = in_buf[k];
        }
      }
      char* dst = p[0] + c * stride[0] * static_cast<int64_t>(dtype_size(out_dtype_));
      R* out = out_buf ? out_buf : reinterpret_cast<R*>(dst);
      detail::apply_chunk<T, R>(f_, out, in, zero_mask, m, std::make_index_sequence<N>{});
      if (out_buf) convert_strided(out_dtype_, dst, stride[0], kR, out_buf, 1, m);
    }
  }

  std::string name_;
  F f_;
  Geometry g_;
  int out_slot_;
  DType out_dtype_;
  std::array<OperandSource, N> in_;
  std::array<T, N> constants_;
  size_t out_buf_ = kNone;
  std::array<size_t, N> in_buf_{};
  size_t per_thread_ = 0;
  size_t workspace_ = 0;
};

}  // namespace pacl
