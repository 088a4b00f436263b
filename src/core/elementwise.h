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
#include "core/vector_math.h"

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
  int64_t offset = 0;  // elements from the slot's element [0..0] to the operand's first (one element of a tensor)
};

namespace detail {

inline constexpr int64_t kChunk = 512;
inline constexpr int64_t kParallelGrain = 32768;  // elements per thread below which splitting costs more than it saves

// The type f returns when called with N values of type T.
template <typename F, typename T, size_t... I>
auto result_of_n(std::index_sequence<I...>) -> decltype(std::declval<const F&>()((void(I), std::declval<T>())...));
template <typename F, typename T, size_t N>
using result_t = decltype(result_of_n<F, T>(std::make_index_sequence<N>{}));

// A functor that declares `static constexpr bool kIdentity = true` returns its one argument
// unchanged: the driver then converts the operand straight into the output (one pass).
template <typename F, typename = void>
struct is_identity : std::false_type {};
template <typename F>
struct is_identity<F, std::void_t<decltype(F::kIdentity)>> : std::bool_constant<F::kIdentity> {};

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

// One scalar operand's value in the arithmetic type of a kernel; 8 bytes, aligned for any of them.
struct alignas(8) ConstantSlot {
  unsigned char bytes[8];
  unsigned char* data() { return bytes; }
  const unsigned char* data() const { return bytes; }
};

// The part of an elementwise kernel that depends on neither the compute type nor the functor:
// the walk over merged rows, the split across threads, and the conversion of operands into and
// out of the compute type. It is compiled once per arity (elementwise.cpp); each op instantiates
// only `compute`, the loop over one chunk.
// Workspace: one kChunk-element buffer per operand that cannot be used in place (wrong dtype, or a
// stride other than 0/1 in the merged inner dim), per thread, booked at plan time (workspace_bytes()).
template <size_t N>
class ElementwiseDriver : public Kernel {
 public:
  // "<name><compute dtype>", e.g. "elementwise.Add<float32>"; built on request, not per plan.
  std::string name() const override { return name_ + "<" + dtype_name(t_) + ">"; }
  size_t workspace_bytes() const { return workspace_; }
  void run(void* const* data, void* workspace) const override;

 protected:
  // compute: the arithmetic type T; result: the functor's result type R (T, or bool). Constants
  // (operands with slot -1) are given in `constants` as N slots of 8 bytes, each holding a T value.
  ElementwiseDriver(std::string name, Geometry g, int out_slot, DType out_dtype, std::array<OperandSource, N> in,
                    DType compute, DType result, const void* constants);
  // out[i] = f(in[0][i], ...) for i < n; input k is read at index 0 when bit k of zero_mask is set.
  virtual void compute(void* out, const std::array<const void*, N>& in, unsigned zero_mask, int64_t n) const = 0;
  // Set by a kernel whose functor is the identity (detail::is_identity).
  bool identity_ = false;

 private:
  static constexpr size_t kNone = ~size_t{0};
  void run_row(const std::array<char*, N + 1>& p, const std::array<int64_t, N + 1>& stride, int64_t from, int64_t to,
               char* out_buf, const std::array<char*, N>& in_buf) const;

  std::string name_;
  Geometry g_;
  int out_slot_;
  DType out_dtype_;
  std::array<OperandSource, N> in_;
  DType t_, r_;  // compute and result types
  std::array<ConstantSlot, N> constants_{};
  size_t out_buf_ = kNone;
  std::array<size_t, N> in_buf_{};
  size_t per_thread_ = 0;
  size_t workspace_ = 0;
};

extern template class ElementwiseDriver<1>;
extern template class ElementwiseDriver<2>;
extern template class ElementwiseDriver<3>;
extern template class ElementwiseDriver<4>;

// Elementwise kernel over compute type T (float, double, bool or an integer type), functor F with
// `R operator()(T...) const` taking N inputs; R is T, or bool for predicates.
template <typename T, typename F, size_t N>
class ElementwiseKernel final : public ElementwiseDriver<N> {
  using R = detail::result_t<F, T, N>;

 public:
  // constants: N slots of 8 bytes, each a T value (read for operands whose slot is -1).
  ElementwiseKernel(std::string name, F f, Geometry g, int out_slot, DType out_dtype,
                    std::array<OperandSource, N> in, const void* constants)
      : ElementwiseDriver<N>(std::move(name), std::move(g), out_slot, out_dtype, in, dtype_of<T>(), dtype_of<R>(),
                             constants),
        f_(f) {
    this->identity_ = N == 1 && detail::is_identity<F>::value;
  }

 private:
  void compute(void* out, const std::array<const void*, N>& in, unsigned zero_mask, int64_t n) const override {
    std::array<const T*, N> typed;
    for (size_t k = 0; k < N; ++k) typed[k] = static_cast<const T*>(in[k]);
    detail::apply_chunk<T, R>(f_, static_cast<R*>(out), typed, zero_mask, n, std::make_index_sequence<N>{});
  }

  F f_;
};

}  // namespace pacl
