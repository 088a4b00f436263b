#include "core/elementwise.h"

#include <cstring>

#include "runtime/status.h"

namespace pacl {

Dims broadcast_shapes(const Dims& a, const char* a_name, const Dims& b, const char* b_name) {
  const size_t n = std::max(a.size(), b.size());
  Dims out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1)
      invalid("the shape of {} {} does not broadcast with the shape of {} {} (dim {}: {} vs {})", a_name, dims_str(a),
              b_name, dims_str(b), i, x, y);
    out[i] = x == 1 ? y : x;
  }
  return out;
}

Dims broadcast_strides(const aclTensor& t, const Dims& shape) {
  Dims s(shape.size(), 0);
  const size_t lead = shape.size() - t.view.size();
  for (size_t i = 0; i < t.view.size(); ++i) s[lead + i] = t.view[i] == 1 ? 0 : t.strides[i];
  return s;
}

int64_t Geometry::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Geometry merge_dims(const Dims& shape, std::vector<Dims> strides) {
  Geometry g;
  g.strides.resize(strides.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    const bool mergeable = !g.shape.empty() && [&] {
      for (size_t k = 0; k < strides.size(); ++k)
        if (g.strides[k].back() != strides[k][d] * shape[d]) return false;
      return true;
    }();
    if (mergeable) {
      g.shape.back() *= shape[d];
      for (size_t k = 0; k < strides.size(); ++k) g.strides[k].back() = strides[k][d];
    } else {
      g.shape.push_back(shape[d]);
      for (size_t k = 0; k < strides.size(); ++k) g.strides[k].push_back(strides[k][d]);
    }
  }
  return g;
}

template <size_t N>
ElementwiseDriver<N>::ElementwiseDriver(std::string name, Geometry g, int out_slot, DType out_dtype,
                                        std::array<OperandSource, N> in, DType compute, DType result,
                                        const void* constants)
    : name_(std::move(name)), g_(std::move(g)), out_slot_(out_slot), out_dtype_(out_dtype), in_(in), t_(compute),
      r_(result) {
  const size_t t_size = dtype_size(t_);
  for (size_t k = 0; k < N; ++k) std::memcpy(constants_[k].data(), static_cast<const char*>(constants) + 8 * k, t_size);
  const size_t nd = g_.shape.size();
  auto inner = [&](size_t k) { return nd ? g_.strides[k][nd - 1] : int64_t{0}; };
  size_t offset = 0;
  auto book = [&](size_t bytes) {
    const size_t at = offset;
    offset += (bytes + 63) / 64 * 64;
    return at;
  };
  out_buf_ = (out_dtype_ == r_ && inner(0) == 1) ? kNone : book(dtype_size(r_) * detail::kChunk);
  for (size_t k = 0; k < N; ++k) {
    const DType dt = in_[k].slot < 0 ? t_ : in_[k].dtype;
    const int64_t st = inner(k + 1);
    const bool direct = dt == t_ && (st == 0 || st == 1) && in_[k].round_to == DType::kUndefined;
    in_buf_[k] = direct ? kNone : book(t_size * detail::kChunk);
  }
  per_thread_ = offset;
  workspace_ = offset * static_cast<size_t>(max_threads());
}

template <size_t N>
void ElementwiseDriver<N>::run(void* const* data, void* workspace) const {
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
    esize[k + 1] = in_[k].slot < 0 ? 0 : static_cast<int64_t>(dtype_size(in_[k].dtype));
    base[k + 1] = in_[k].slot < 0 ? reinterpret_cast<char*>(const_cast<unsigned char*>(constants_[k].data()))
                                  : static_cast<char*>(data[in_[k].slot]) + in_[k].offset * esize[k + 1];
  }
  for (size_t k = 0; k <= N; ++k) inner_stride[k] = nd ? g_.strides[k][nd - 1] : 0;
  // Work items are (row, chunk) pairs, split into one contiguous range per thread.
  const int64_t chunks_per_row = (inner + detail::kChunk - 1) / detail::kChunk;
  const int64_t items = rows * chunks_per_row;
  const int64_t grain = std::max<int64_t>(1, detail::kParallelGrain / std::min<int64_t>(inner, detail::kChunk));
  parallel_for(items, grain, [&](int64_t begin, int64_t end, int tid) {
    char* ws = static_cast<char*>(workspace) + static_cast<size_t>(tid) * per_thread_;
    char* out_buf = out_buf_ == kNone ? nullptr : ws + out_buf_;
    std::array<char*, N> in_buf{};
    for (size_t k = 0; k < N; ++k) in_buf[k] = in_buf_[k] == kNone ? nullptr : ws + in_buf_[k];
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

// Elements [from, to) of one merged row.
template <size_t N>
void ElementwiseDriver<N>::run_row(const std::array<char*, N + 1>& p, const std::array<int64_t, N + 1>& stride,
                                   int64_t from, int64_t to, char* out_buf, const std::array<char*, N>& in_buf) const {
  unsigned zero_mask = 0;
  for (size_t k = 0; k < N; ++k)
    if (stride[k + 1] == 0) zero_mask |= 1u << k;
  const int64_t t_size = static_cast<int64_t>(dtype_size(t_));
  for (int64_t c = from; c < to; c += detail::kChunk) {
    const int64_t m = std::min<int64_t>(detail::kChunk, to - c);
    std::array<const void*, N> in;
    for (size_t k = 0; k < N; ++k) {
      const int64_t s = stride[k + 1];
      const DType dt = in_[k].slot < 0 ? t_ : in_[k].dtype;
      const int64_t es = in_[k].slot < 0 ? t_size : static_cast<int64_t>(dtype_size(dt));
      const char* src = p[k + 1] + c * s * es;
      if (!in_buf[k]) {
        in[k] = src;
      } else {
        convert_strided(t_, in_buf[k], 1, dt, src, s, s == 0 ? 1 : m);
        if (t_ == DType::kFloat && in_[k].round_to != DType::kUndefined)
          round_to_16bit(in_[k].round_to, reinterpret_cast<float*>(in_buf[k]), s == 0 ? 1 : m);
        in[k] = in_buf[k];
      }
    }
    char* dst = p[0] + c * stride[0] * static_cast<int64_t>(dtype_size(out_dtype_));
    if (identity_ && out_buf && !in_buf[0]) {
      // The operand is already in the compute dtype: convert it into the output directly.
      convert_strided(out_dtype_, dst, stride[0], t_, in[0], stride[1], m);
      continue;
    }
    compute(out_buf ? out_buf : dst, in, zero_mask, m);
    if (out_buf) convert_strided(out_dtype_, dst, stride[0], r_, out_buf, 1, m);
  }
}

template class ElementwiseDriver<1>;
template class ElementwiseDriver<2>;
template class ElementwiseDriver<3>;
template class ElementwiseDriver<4>;

}  // namespace pacl
