#include "ops/index_common.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <type_traits>

#include "core/convert.h"
#include "core/parallel.h"
#include "runtime/status.h"

namespace pacl {

namespace {

constexpr int64_t kGrainElements = 16 * 1024;

struct Bytes16 {
  uint64_t w[2];
};

// Calls f(type_tag<U>) with U an unsigned type (or Bytes16) of esize bytes.
template <typename F>
void visit_size(size_t esize, F&& f) {
  switch (esize) {
    case 1: return f(type_tag<uint8_t>{});
    case 2: return f(type_tag<uint16_t>{});
    case 4: return f(type_tag<uint32_t>{});
    case 8: return f(type_tag<uint64_t>{});
    case 16: return f(type_tag<Bytes16>{});
    default: throw Unsupported(fmt::format("moving elements of {} bytes is not supported", esize));
  }
}

// Calls f(type_tag<T>) with T the arithmetic type of reduction dtype t.
template <typename F>
void visit_reduce(DType t, F&& f) {
  switch (t) {
    case DType::kBool: return f(type_tag<bool>{});
    case DType::kUInt8: return f(type_tag<uint8_t>{});
    case DType::kInt8: return f(type_tag<int8_t>{});
    case DType::kInt16: return f(type_tag<int16_t>{});
    case DType::kInt32: return f(type_tag<int32_t>{});
    case DType::kInt64: return f(type_tag<int64_t>{});
    case DType::kFloat: return f(type_tag<float>{});
    case DType::kDouble: return f(type_tag<double>{});
    case DType::kComplex64: return f(type_tag<std::complex<float>>{});
    case DType::kComplex128: return f(type_tag<std::complex<double>>{});
    default: break;
  }
  throw std::logic_error(std::string("index reduction: no arithmetic for ") + dtype_name(t));
}

template <typename T>
struct is_complex_t : std::false_type {};
template <typename T>
struct is_complex_t<std::complex<T>> : std::true_type {};

// Integer arithmetic wraps (two's complement) instead of overflowing.
template <typename T>
T add(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<std::conditional_t<(sizeof(T) < 4), int32_t, T>>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

template <typename T>
T mul(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<std::conditional_t<(sizeof(T) < 4), int32_t, T>>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

template <typename T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  else return false;
}

template <typename T>
T combine(Reduce r, T a, T b) {
  switch (r) {
    case Reduce::kNone: return b;
    case Reduce::kAdd:
    case Reduce::kMean: return add(a, b);
    case Reduce::kMul: return mul(a, b);
    case Reduce::kMax:
      if constexpr (is_complex_t<T>::value) {
        throw std::logic_error("max of complex values");
      } else {
        return (is_nan(a) || is_nan(b)) ? (is_nan(a) ? a : b) : (b > a ? b : a);
      }
    case Reduce::kMin:
      if constexpr (is_complex_t<T>::value) {
        throw std::logic_error("min of complex values");
      } else {
        return (is_nan(a) || is_nan(b)) ? (is_nan(a) ? a : b) : (b < a ? b : a);
      }
  }
  return b;
}

}  // namespace

std::string position_str(const Dims& shape, int64_t pos) {
  if (shape.empty()) return "[]";
  Dims idx(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    const int64_t s = std::max<int64_t>(shape[k], 1);
    idx[k] = pos % s;
    pos /= s;
  }
  return dims_str(idx);
}

void check_index_values(const char* op, const char* arg, const Dims& idx_shape, const int64_t* idx, int64_t n,
                        int64_t size, IndexRule rule, const std::string& what) {
  const int64_t lo = rule == IndexRule::kWrap ? -size : 0;
  for (int64_t j = 0; j < n; ++j) {
    const int64_t v = idx[j];
    if (v >= lo && v < size) continue;
    throw InvalidArgument(fmt::format("aclnn{}: {}{} is {}, expected a value in [{}, {}) ({} is {})", op, arg,
                                      position_str(idx_shape, j), v, lo, size, what, size));
  }
}

void linearize_tuples(const char* op, const char* arg, const Dims& idx_shape, const int64_t* idx, int64_t n,
                      int64_t c, const Dims& shape, IndexRule rule, const char* what, int64_t* rows) {
  for (int64_t j = 0; j < n; ++j) {
    int64_t r = 0;
    for (int64_t k = 0; k < c; ++k) {
      const int64_t size = shape[static_cast<size_t>(k)];
      const int64_t v = idx[j * c + k];
      const int64_t lo = rule == IndexRule::kWrap ? -size : 0;
      if (v < lo || v >= size)
        throw InvalidArgument(fmt::format("aclnn{}: {}{} is {}, expected a value in [{}, {}) ({}.shape[{}] is {})", op,
                                          arg, position_str(idx_shape, j * c + k), v, lo, size, what, k, size));
      r = r * size + wrap_index(v, size);
    }
    rows[j] = r;
  }
}

const char* reduce_name(Reduce r) {
  switch (r) {
    case Reduce::kNone: return "none";
    case Reduce::kAdd: return "add";
    case Reduce::kMul: return "mul";
    case Reduce::kMax: return "max";
    case Reduce::kMin: return "min";
    case Reduce::kMean: return "mean";
  }
  return "?";
}

Reduce reduce_from_code(int64_t code, int64_t max_code, const char* arg) {
  if (code < 0 || code > max_code) {
    if (max_code == 2) invalid("{} is {}, expected 0 (none), 1 (add) or 2 (mul)", arg, code);
    invalid("{} is {}, expected 0 (none), 1 (add), 2 (mul), 3 (max), 4 (min) or 5 (mean)", arg, code);
  }
  return static_cast<Reduce>(code);
}

// ---- rows ------------------------------------------------------------------------------------------

void gather_rows(size_t esize, const void* src, void* dst, const RowWalk& w) {
  const int64_t rows = w.outer * w.n;
  if (rows == 0 || w.inner == 0) return;
  const int64_t per_group = std::max<int64_t>(w.outer / std::max<int64_t>(w.groups, 1), 1);
  visit_size(esize, [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* s = static_cast<const U*>(src);
    U* d = static_cast<U*>(dst);
    auto run = [&](int64_t from, int64_t to, int) {
      int64_t o = from / w.n, j = from % w.n;
      for (int64_t r = from; r < to; ++r) {
        const int64_t* idx = w.idx + (o / per_group) * w.n;
        const int64_t k = wrap_index(idx[j], w.src_rows);
        const U* sp = s + (o * w.src_rows + k) * w.inner;
        U* dp = d + r * w.inner;
        if (w.inner == 1) *dp = *sp;
        else std::memcpy(dp, sp, static_cast<size_t>(w.inner) * sizeof(U));
        if (++j == w.n) {
          j = 0;
          ++o;
        }
      }
    };
    if (rows * w.inner >= 2 * kGrainElements)
      parallel_for(rows, std::max<int64_t>(1, kGrainElements / w.inner), run);
    else
      run(0, rows, 0);
  });
}

void fill_rows(size_t esize, const void* value, void* dst, const RowWalk& w, IndexRule rule) {
  if (w.outer == 0 || w.n == 0 || w.inner == 0) return;
  const int64_t lo = rule == IndexRule::kWrap ? -w.dst_rows : 0;
  visit_size(esize, [&](auto tag) {
    using U = typename decltype(tag)::type;
    U v;
    std::memcpy(&v, value, sizeof(U));
    U* d = static_cast<U*>(dst);
    for (int64_t o = 0; o < w.outer; ++o)
      for (int64_t j = 0; j < w.n; ++j) {
        const int64_t k = w.idx[j];
        if (k < lo || k >= w.dst_rows) continue;
        std::fill_n(d + (o * w.dst_rows + wrap_index(k, w.dst_rows)) * w.inner, w.inner, v);
      }
  });
}

namespace {

// Runs fn(o, i0, i1) over [0, outer) x inner blocks: every task owns a disjoint set of destination
// columns and walks all index values of its group in order (so repeated indices are deterministic).
template <typename Fn>
void for_row_columns(const RowWalk& w, Fn&& fn) {
  const int64_t work = w.outer * w.inner * std::max<int64_t>(w.n, 1);
  int64_t blocks = 1;
  if (work >= 2 * kGrainElements && w.inner >= 64) blocks = std::min<int64_t>(w.inner / 32, max_threads() * 4);
  const int64_t block = (w.inner + blocks - 1) / blocks;
  auto run = [&](int64_t from, int64_t to, int) {
    for (int64_t t = from; t < to; ++t) {
      const int64_t o = t / blocks, b = t % blocks;
      const int64_t i0 = b * block, i1 = std::min(w.inner, i0 + block);
      if (i0 < i1) fn(o, i0, i1);
    }
  };
  const int64_t tasks = w.outer * blocks;
  if (work >= 2 * kGrainElements && tasks > 1)
    parallel_for(tasks, 1, run);
  else
    run(0, tasks, 0);
}

}  // namespace

void scatter_rows(size_t esize, const void* src, void* dst, const RowWalk& w) {
  if (w.outer == 0 || w.n == 0 || w.inner == 0) return;
  const int64_t per_group = std::max<int64_t>(w.outer / std::max<int64_t>(w.groups, 1), 1);
  visit_size(esize, [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* s = static_cast<const U*>(src);
    U* d = static_cast<U*>(dst);
    for_row_columns(w, [&](int64_t o, int64_t i0, int64_t i1) {
      const int64_t* idx = w.idx + (o / per_group) * w.n;
      for (int64_t j = 0; j < w.n; ++j) {
        const int64_t k = wrap_index(idx[j], w.dst_rows);
        const U* sp = s + (o * w.src_rows + j) * w.inner;
        U* dp = d + (o * w.dst_rows + k) * w.inner;
        std::memcpy(dp + i0, sp + i0, static_cast<size_t>(i1 - i0) * sizeof(U));
      }
    });
  });
}

void scatter_rows_reduce(DType t, Reduce r, const void* src, void* dst, const RowWalk& w, const void* alpha) {
  if (w.outer == 0 || w.n == 0 || w.inner == 0) return;
  const int64_t per_group = std::max<int64_t>(w.outer / std::max<int64_t>(w.groups, 1), 1);
  visit_reduce(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* s = static_cast<const T*>(src);
    T* d = static_cast<T*>(dst);
    const bool scaled = alpha != nullptr && r == Reduce::kAdd;
    T a{};
    if (scaled) std::memcpy(static_cast<void*>(&a), alpha, sizeof(T));
    for_row_columns(w, [&](int64_t o, int64_t i0, int64_t i1) {
      const int64_t* idx = w.idx + (o / per_group) * w.n;
      for (int64_t j = 0; j < w.n; ++j) {
        const int64_t k = wrap_index(idx[j], w.dst_rows);
        const T* sp = s + (o * w.src_rows + j) * w.inner;
        T* dp = d + (o * w.dst_rows + k) * w.inner;
        if (scaled) {
          for (int64_t i = i0; i < i1; ++i) dp[i] = add(dp[i], mul(a, sp[i]));
        } else if (r == Reduce::kAdd) {
          for (int64_t i = i0; i < i1; ++i) dp[i] = add(dp[i], sp[i]);
        } else {
          for (int64_t i = i0; i < i1; ++i) dp[i] = combine(r, dp[i], sp[i]);
        }
      }
    });
  });
}

void accumulate_into(DType t, void* dst, const void* src, int64_t n) {
  visit_reduce(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* d = static_cast<T*>(dst);
    const T* s = static_cast<const T*>(src);
    for (int64_t i = 0; i < n; ++i) d[i] = add(d[i], s[i]);
  });
}

// ---- elements --------------------------------------------------------------------------------------

namespace {

// The element walk, shared by gather and scatter: fn(idx_pos, data_pos, other_pos) per element in
// row-major order of ishape; data_pos already includes the indexed coordinate. Positions whose
// coordinates before `dim` differ are independent: blocks of them run in parallel when `parallel`.
struct WalkPlan {
  Dims ishape, dstr, sstr;  // data and other (src / out) strides, both over ishape's rank
  int64_t dim, rank, rows, len;
  int64_t size;  // data's extent along dim (negative indices wrap by it)
};

WalkPlan make_walk(const ElementWalk& w, const Dims& other_shape) {
  WalkPlan p;
  p.ishape = w.ishape.empty() ? Dims{1} : w.ishape;
  const Dims dshape = w.dshape.empty() ? Dims{1} : w.dshape;
  const Dims oshape = other_shape.empty() ? Dims{1} : other_shape;
  p.dstr = contiguous_strides(dshape);
  p.sstr = contiguous_strides(oshape);
  p.dim = w.dim;
  p.size = dshape[static_cast<size_t>(w.dim)];
  p.rank = static_cast<int64_t>(p.ishape.size());
  p.len = p.ishape.back();
  p.rows = 1;
  for (int64_t k = 0; k + 1 < p.rank; ++k) p.rows *= p.ishape[static_cast<size_t>(k)];
  return p;
}

template <typename Fn>
void walk_rows(const WalkPlan& p, const int64_t* idx, int64_t row_from, int64_t row_to, Fn&& fn) {
  const size_t last = static_cast<size_t>(p.rank - 1);
  const size_t dim = static_cast<size_t>(p.dim);
  Dims c(static_cast<size_t>(p.rank), 0);
  int64_t r = row_from;
  for (size_t k = last; k-- > 0;) {  // coordinates of the first row
    c[k] = r % p.ishape[k];
    r /= p.ishape[k];
  }
  for (int64_t row = row_from; row < row_to; ++row) {
    int64_t dbase = 0, sbase = 0;
    for (size_t k = 0; k < last; ++k) {
      if (k != dim) dbase += c[k] * p.dstr[k];
      sbase += c[k] * p.sstr[k];
    }
    const int64_t ibase = row * p.len;
    const int64_t dlast = last == dim ? 0 : p.dstr[last];
    for (int64_t l = 0; l < p.len; ++l) {
      const int64_t ip = ibase + l;
      fn(ip, dbase + l * dlast + wrap_index(idx[ip], p.size) * p.dstr[dim], sbase + l * p.sstr[last]);
    }
    for (size_t k = last; k-- > 0;) {  // next row
      if (++c[k] < p.ishape[k]) break;
      c[k] = 0;
    }
  }
}

// Runs walk_rows over all rows; in parallel over the coordinates before `dim` when independent.
template <typename Fn>
void walk_all(const WalkPlan& p, const int64_t* idx, bool scatter, Fn&& fn) {
  if (p.rows == 0 || p.len == 0) return;
  // Rows per independent block: the product of ishape[dim .. rank-2] (a scatter may collide inside).
  int64_t block = 1;
  if (scatter)
    for (int64_t k = p.dim; k + 1 < p.rank; ++k) block *= p.ishape[static_cast<size_t>(k)];
  const int64_t blocks = p.rows / block;
  const int64_t work = p.rows * p.len;
  if (blocks > 1 && work >= 2 * kGrainElements) {
    const int64_t grain = std::max<int64_t>(1, kGrainElements / std::max<int64_t>(block * p.len, 1));
    parallel_for(blocks, grain, [&](int64_t from, int64_t to, int) { walk_rows(p, idx, from * block, to * block, fn); });
  } else {
    walk_rows(p, idx, 0, p.rows, fn);
  }
}

}  // namespace

void gather_elements(size_t esize, const void* data, void* out, const ElementWalk& w) {
  const WalkPlan p = make_walk(w, w.ishape);
  visit_size(esize, [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* d = static_cast<const U*>(data);
    U* o = static_cast<U*>(out);
    walk_all(p, w.idx, false, [&](int64_t ip, int64_t dp, int64_t) { o[ip] = d[dp]; });
  });
}

void scatter_elements(size_t esize, const void* src, const void* value, void* data, const ElementWalk& w) {
  const WalkPlan p = make_walk(w, w.sshape);
  visit_size(esize, [&](auto tag) {
    using U = typename decltype(tag)::type;
    U* d = static_cast<U*>(data);
    if (src) {
      const U* s = static_cast<const U*>(src);
      walk_all(p, w.idx, true, [&](int64_t, int64_t dp, int64_t sp) { d[dp] = s[sp]; });
    } else {
      U v;
      std::memcpy(&v, value, sizeof(U));
      walk_all(p, w.idx, true, [&](int64_t, int64_t dp, int64_t) { d[dp] = v; });
    }
  });
}

void scatter_elements_reduce(DType t, Reduce r, const void* src, const void* value, void* data,
                             const ElementWalk& w, int64_t* counts, uint8_t* first) {
  const WalkPlan p = make_walk(w, w.sshape);
  visit_reduce(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* d = static_cast<T*>(data);
    const T* s = static_cast<const T*>(src);
    T v{};
    if (!src) std::memcpy(static_cast<void*>(&v), value, sizeof(T));
    walk_all(p, w.idx, true, [&](int64_t, int64_t dp, int64_t sp) {
      const T x = src ? s[sp] : v;
      if (first && !first[dp]) {
        first[dp] = 1;
        d[dp] = x;
      } else {
        d[dp] = combine(r, d[dp], x);
      }
      if (counts) ++counts[dp];
    });
  });
}

void finish_mean(DType t, void* data, const int64_t* counts, int64_t n, bool include_self) {
  visit_reduce(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* d = static_cast<T*>(data);
    for (int64_t k = 0; k < n; ++k) {
      if (counts[k] == 0) continue;
      const int64_t c = counts[k] + (include_self ? 1 : 0);
      if constexpr (std::is_same_v<T, bool>) {
        // bool: the sum is already the "any" value
      } else if constexpr (std::is_integral_v<T>) {
        const int64_t x = static_cast<int64_t>(d[k]);
        int64_t q = x / c;
        if ((x % c != 0) && ((x < 0) != (c < 0))) --q;
        d[k] = static_cast<T>(q);
      } else if constexpr (is_complex_t<T>::value) {
        d[k] = d[k] / static_cast<typename T::value_type>(c);
      } else {
        d[k] = d[k] / static_cast<T>(c);
      }
    }
  });
}

}  // namespace pacl
