// Helpers shared by the reduction tests (test_reduce*.cpp): random reduction cases (shape, strided
// view, dims with negative values, keepdim), value generators with special values mixed in, the
// slices an output element folds (in reduction order), and tolerance checks. Public C API only.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "op_test_util.h"

namespace rtest {

using namespace optest;

struct IntArray {
  explicit IntArray(const std::vector<int64_t>& v) : a(aclCreateIntArray(v.data(), v.size())) {}
  ~IntArray() { aclDestroyIntArray(a); }
  IntArray(const IntArray&) = delete;
  IntArray& operator=(const IntArray&) = delete;
  aclIntArray* a;
};

inline std::string ints_str(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

// Which dims of a rank-`rank` tensor a dims argument reduces.
inline std::vector<bool> mask_of(const std::vector<int64_t>& dims, size_t rank, bool empty_means_all) {
  std::vector<bool> m(rank, dims.empty() && empty_means_all);
  for (int64_t d : dims)
    if (rank > 0) m[static_cast<size_t>(d < 0 ? d + static_cast<int64_t>(rank) : d)] = true;
  return m;
}

inline Shape reduced(const Shape& s, const std::vector<bool>& mask, bool keepdim) {
  Shape r;
  for (size_t d = 0; d < s.size(); ++d) {
    if (!mask[d]) r.push_back(s[d]);
    else if (keepdim) r.push_back(1);
  }
  return r;
}

inline Shape random_shape(Rng& rng, int max_rank, int64_t max_dim, bool allow_zero) {
  Shape s(static_cast<size_t>(rng() % static_cast<uint64_t>(max_rank + 1)));
  for (auto& d : s) d = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(max_dim));
  if (allow_zero && !s.empty() && rng() % 12 == 0) s[rng() % s.size()] = 0;
  return s;
}

// A view of `shape`: contiguous, gapped (every stride doubled plus an offset), or a permutation of
// a contiguous storage (a transposed view).
inline TensorDesc random_view(Rng& rng, aclDataType t, const Shape& shape) {
  const int kind = static_cast<int>(rng() % 3);
  if (shape.empty() || kind == 0) return TensorDesc(t, shape);
  if (kind == 1) {
    Shape st = contiguous_strides(shape);
    for (auto& x : st) x *= 2;
    return TensorDesc(t, shape, st, 3);
  }
  std::vector<size_t> perm(shape.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  Shape storage_shape(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) storage_shape[i] = shape[perm[i]];
  const Shape cs = contiguous_strides(storage_shape);
  Shape st(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) st[perm[i]] = cs[i];
  return TensorDesc(t, shape, st, 1);
}

// A random dims argument for rank `rank`: a subset (possibly empty when allowed), shuffled, some
// given as negative numbers.
inline std::vector<int64_t> random_dims(Rng& rng, int64_t rank, bool allow_empty) {
  std::vector<int64_t> d;
  if (rank == 0) {
    if (!allow_empty || rng() % 2) d.push_back(rng() % 2 ? 0 : -1);
    return d;
  }
  for (int64_t k = 0; k < rank; ++k)
    if (rng() % 2) d.push_back(k);
  if (d.empty() && !allow_empty) d.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(rank)));
  std::shuffle(d.begin(), d.end(), rng);
  for (auto& x : d)
    if (rng() % 2) x -= rank;
  return d;
}

// A value of dtype t: mostly moderate (floats in [-8, 8], integers in [-20, 20]), with special
// values at rate `special` (NaN, +-inf, -0, denormals for floats; extremes for integers).
inline Num value(aclDataType t, Rng& rng, double special) {
  std::uniform_real_distribution<double> u01(0, 1);
  if (t == ACL_BOOL) return Num::integer(static_cast<int64_t>(rng() % 2));
  if (is_floating(t)) {
    if (u01(rng) < special) {
      const double inf = HUGE_VAL, nan = std::numeric_limits<double>::quiet_NaN();
      const double v[] = {nan, inf, -inf, -0.0, 0.0, 1e-42, -1e-42};
      return cast(Num::real(v[rng() % 7]), t);
    }
    if (rng() % 4 == 0) return cast(Num::real(static_cast<double>(static_cast<int64_t>(rng() % 17) - 8)), t);
    return cast(Num::real(std::uniform_real_distribution<double>(-8, 8)(rng)), t);
  }
  if (u01(rng) < special) return Num::integer(rng() % 2 ? int_min(t) : int_max(t));
  const int64_t lo = is_unsigned(t) ? 0 : -20;
  return Num::integer(std::uniform_int_distribution<int64_t>(lo, 20)(rng));
}

inline void fill(Tensor& x, Rng& rng, double special) {
  const size_t es = dtype_size(x.desc().dtype);
  for (int64_t k = 0; k < x.desc().storage_elems(); ++k)
    store(x.desc().dtype, x.host().data() + k * es, value(x.desc().dtype, rng, special));
  x.upload();
}

// Calls f(kept, values) for each output element in row-major order of the kept dims: `kept` is a
// full index of self with the reduced positions zero, `values` the elements folded into it (as
// stored in self), in row-major order of the reduced dims.
inline void for_each_slice(const Tensor& self, const std::vector<bool>& mask,
                           const std::function<void(const Shape&, const std::vector<Num>&)>& f) {
  const Shape& s = self.desc().shape;
  Shape kept_shape, red_shape;
  for (size_t d = 0; d < s.size(); ++d) (mask[d] ? red_shape : kept_shape).push_back(s[d]);
  for_each_index(kept_shape, [&](const Shape& k) {
    Shape full(s.size(), 0);
    for (size_t d = 0, i = 0; d < s.size(); ++d)
      if (!mask[d]) full[d] = k[i++];
    std::vector<Num> vals;
    for_each_index(red_shape, [&](const Shape& r) {
      Shape idx = full;
      for (size_t d = 0, i = 0; d < s.size(); ++d)
        if (mask[d]) idx[d] = r[i++];
      vals.push_back(self.at(idx));
    });
    f(full, vals);
  });
}

// Index into the output of a reduction for the full self index `full`.
inline Shape out_index(const Shape& full, const std::vector<bool>& mask, bool keepdim) {
  Shape o;
  for (size_t d = 0; d < full.size(); ++d) {
    if (!mask[d]) o.push_back(full[d]);
    else if (keepdim) o.push_back(0);
  }
  return o;
}

inline double max_finite(aclDataType t) {
  switch (t) {
    case ACL_FLOAT16: return 65504.0;
    case ACL_BF16: return bf16_value(0x7f7f);
    case ACL_FLOAT: return std::numeric_limits<float>::max();
    default: return std::numeric_limits<double>::max();
  }
}

// The spacing of dtype t's values near v.
inline double ulp_at(aclDataType t, double v) {
  const int mant = t == ACL_FLOAT16 ? 10 : t == ACL_BF16 ? 7 : t == ACL_FLOAT ? 23 : 52;
  const int min_exp = t == ACL_FLOAT16 ? -14 : t == ACL_BF16 || t == ACL_FLOAT ? -126 : -1022;
  int e = 0;
  std::frexp(std::fabs(v), &e);
  return std::ldexp(1.0, std::max(e - 1, min_exp) - mant);
}

// Whether `got` (read from a floating output of dtype t) matches the exact result `want` up to the
// rounding into t plus `slack` (the accumulation error allowed). NaN matches NaN; infinities match
// themselves, or an exact result within rounding of t's overflow threshold.
inline bool close(aclDataType t, double want, double got, double slack) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  if (std::isinf(got) || std::isinf(want)) {
    if (got == want) return true;
    const double m = max_finite(t);
    return std::isinf(got) && !std::isinf(want) && std::fabs(want) + slack + ulp_at(t, m) >= m &&
           std::signbit(got) == std::signbit(want);
  }
  return std::fabs(got - want) <= ulp_at(t, want) + slack;
}

// The exact result of a floating reduction rounded to dtype t (for exact-valued ops: max, min...).
inline bool same_number(const Num& want, const Num& got) {
  if (!want.is_float) return want.i == got.i;
  if (std::isnan(want.f) || std::isnan(got.f)) return std::isnan(want.f) && std::isnan(got.f);
  return want.f == got.f;  // -0 == +0: the sign of a zero extreme is not specified
}

// ---- problems shared by the reduction tests ----------------------------------------------------------

inline const std::vector<aclDataType> kAll = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                                       ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8,  ACL_BOOL};

// A random reduction problem: self's view, the dims argument, keepdim, and out's view.
struct Problem {
  TensorDesc self;
  std::vector<int64_t> dims;
  bool keepdim = false;
  std::vector<bool> mask;
  Shape out_shape;
};

inline Problem random_problem(Rng& rng, aclDataType t, bool single_dim, bool empty_dims_mean_all) {
  Problem p;
  Shape s = random_shape(rng, 4, 5, true);
  if (!s.empty() && rng() % 6 == 0) {  // one long dim: several blocks of the engine
    for (auto& d : s) d = std::min<int64_t>(d, 2);
    s[rng() % s.size()] = 1000 + static_cast<int64_t>(rng() % 1200);
  }
  p.self = random_view(rng, t, s);
  const int64_t rank = static_cast<int64_t>(s.size());
  if (single_dim) {
    int64_t d = rank == 0 ? 0 : static_cast<int64_t>(rng() % static_cast<uint64_t>(rank));
    if (rng() % 2) d -= std::max<int64_t>(rank, 1);
    p.dims = {d};
  } else {
    p.dims = random_dims(rng, rank, true);
  }
  p.keepdim = rng() % 2;
  p.mask = mask_of(p.dims, s.size(), empty_dims_mean_all);
  p.out_shape = reduced(s, p.mask, p.keepdim);
  return p;
}

inline TensorDesc out_view(Rng& rng, aclDataType t, const Shape& shape) { return random_view(rng, t, shape); }

inline std::string repro(const char* op, const Problem& p, const std::string& extra, const TensorDesc& out) {
  return std::string(op) + " self=" + p.self.str() + " dims=" + ints_str(p.dims) + " keepdim=" +
         std::to_string(p.keepdim) + extra + " out=" + out.str();
}

// Checks every element of `out` with check(full_index, slice) -> failure text ("" when fine).
inline void check_slices(const std::string& r, const Tensor& self, const Problem& p,
                  const std::function<std::string(const Shape&, const std::vector<Num>&)>& check) {
  int failures = 0;
  for_each_slice(self, p.mask, [&](const Shape& full, const std::vector<Num>& vals) {
    if (failures >= 3) return;
    const std::string e = check(full, vals);
    if (!e.empty()) {
      ++failures;
      ADD_FAILURE() << r << ": at " << shape_str(out_index(full, p.mask, p.keepdim)) << ": " << e;
    }
  });
}

// ---- sums -------------------------------------------------------------------------------------------

// The sum of vals cast to dtype d, compared with got (of dtype d). mean: divided by the count.
inline std::string check_sum(aclDataType d, const std::vector<Num>& vals, const Num& got, bool mean) {
  std::vector<Num> c;
  for (const Num& v : vals) {
    c.push_back(cast(v, d));
    if (c.back().undefined) return "";  // float -> integer conversion of NaN/inf: unspecified
  }
  if (is_floating(d)) {
    double s = 0, mag = 0;
    for (const Num& v : c) {
      s += v.f;
      mag += std::fabs(v.f);
    }
    if (mean) s /= static_cast<double>(c.size());
    if (mean) mag /= static_cast<double>(c.size());
    const double slack = mag * (d == ACL_DOUBLE ? 1e-12 : 1e-5);
    if (close(d, s, got.f, slack)) return "";
    return "got " + num_str(got) + ", expected " + num_str(Num::real(s)) + " (sum of " + std::to_string(c.size()) + ")";
  }
  uint64_t s = 0;
  for (const Num& v : c) s += static_cast<uint64_t>(v.i);
  Num want = Num::integer(static_cast<int64_t>(s));
  if (mean)
    want = c.empty() ? Num::integer(0)
                     : cast(Num::real(std::trunc(static_cast<double>(static_cast<int64_t>(s)) / static_cast<double>(c.size()))), d);
  else want = d == ACL_BOOL ? Num::integer(s != 0) : cast(want, d);
  if (want.undefined || got.i == want.i) return "";
  return "got " + num_str(got) + ", expected " + num_str(want);
}

// Max (or min) of vals with NaN propagation; `none` when vals is empty.
inline Num extreme(const std::vector<Num>& vals, bool is_max) {
  Num best = vals.front();
  for (const Num& v : vals) {
    if (best.is_float && std::isnan(best.f)) break;
    if (v.is_float ? (std::isnan(v.f) || (is_max ? v.f > best.f : v.f < best.f)) : (is_max ? v.i > best.i : v.i < best.i))
      best = v;
  }
  return best;
}

// Index of the first extreme (NaN first).
inline int64_t arg_extreme(const std::vector<Num>& vals, bool is_max) {
  const Num want = extreme(vals, is_max);
  for (size_t k = 0; k < vals.size(); ++k)
    if (same_number(want, vals[k]) && (!want.is_float || want.f != 0 || vals[k].f == 0)) return static_cast<int64_t>(k);
  return -1;
}

}  // namespace rtest
