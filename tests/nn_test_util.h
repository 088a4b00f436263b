// Helpers shared by the nn family's tests (test_nn_*.cpp): random layouts and values, tensors read
// and written in logical (row-major) order, and the accuracy check against a double reference.
//
// Accuracy model. A float kernel evaluates f at inputs it holds exactly, with a few roundings per
// step. Its result is accepted when it lies in f(X) widened by a relative r and an absolute floor,
// where X perturbs every input x_i to x_i (1 +- d): this "mixed" bound absorbs the conditioning of f
// (exp of a large argument, cancellations near a root) that a plain relative bound would not.
// d = kd * eps and r = kr * eps of the compute type (float32 for 16-bit and float32 tensors,
// float64 for float64); the bound is rounded to the output dtype (rounding is monotone).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "op_test_util.h"

namespace nntest {

using namespace optest;

constexpr aclDataType F32 = ACL_FLOAT, F16 = ACL_FLOAT16, BF16 = ACL_BF16, F64 = ACL_DOUBLE;
constexpr aclDataType I8 = ACL_INT8, I16 = ACL_INT16, I32 = ACL_INT32, I64 = ACL_INT64, U8 = ACL_UINT8,
                      BOOL = ACL_BOOL;
using DTypes = std::vector<aclDataType>;
inline const DTypes kF3 = {F32, F16, BF16};
inline const DTypes kF4 = {F32, F16, BF16, F64};

inline double nan_v() { return std::numeric_limits<double>::quiet_NaN(); }
inline double inf_v() { return HUGE_VAL; }

// ---- layouts --------------------------------------------------------------------------------------------

// A random layout of `shape`: contiguous, dims permuted in memory, gaps between elements, or an
// offset view into a larger storage.
inline TensorDesc random_layout(aclDataType t, const Shape& shape, Rng& rng) {
  const int kind = static_cast<int>(rng() % 4);
  if (kind == 0 || shape.empty()) return TensorDesc(t, shape);
  if (kind == 1) {  // a permuted memory order
    std::vector<size_t> order(shape.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    Shape st(shape.size());
    int64_t s = 1;
    for (size_t k = order.size(); k-- > 0;) {
      st[order[k]] = s;
      s *= std::max<int64_t>(shape[order[k]], 1);
    }
    return TensorDesc(t, shape, st);
  }
  Shape st = contiguous_strides(shape);
  if (kind == 2)
    for (auto& v : st) v *= 2;
  return TensorDesc(t, shape, st, 3);
}

inline Shape random_shape(Rng& rng, int min_rank, int max_rank, int64_t max_dim = 5) {
  const int rank = min_rank + static_cast<int>(rng() % static_cast<uint64_t>(max_rank - min_rank + 1));
  Shape s(static_cast<size_t>(rank));
  for (auto& d : s) d = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(max_dim));
  return s;
}

// ---- values ---------------------------------------------------------------------------------------------

// Every storage element set to a uniform value in [lo, hi] (integers: rounded), with a share of
// special values (inf, -inf, nan, +-0) for floating dtypes; then uploaded.
inline void fill_uniform(Tensor& t, Rng& rng, double lo, double hi, double special = 0.0) {
  std::uniform_real_distribution<double> u(lo, hi), u01(0, 1);
  const aclDataType dt = t.desc().dtype;
  const size_t es = dtype_size(dt);
  const double specials[] = {inf_v(), -inf_v(), nan_v(), 0.0, -0.0};
  for (int64_t k = 0; k < t.desc().storage_elems(); ++k) {
    Num v;
    if (is_floating(dt)) {
      double x = u(rng);
      if (u01(rng) < special) x = specials[rng() % 5];
      v = Num::real(x);
    } else {
      v = Num::integer(static_cast<int64_t>(std::llround(u(rng))));
    }
    store(dt, t.host().data() + k * es, v);
  }
  t.upload();
}

// The view's elements in row-major order, as doubles.
inline std::vector<double> logical(const Tensor& t) {
  std::vector<double> v;
  for_each_index(t.desc().shape, [&](const Shape& i) { v.push_back(t.at(i).as_double()); });
  return v;
}

// ---- accuracy ---------------------------------------------------------------------------------------------

struct Tol {
  int kd = 0, kr = 0;  // both 0: exact
};

inline bool compute_f32(aclDataType t) { return t != F64; }
inline double eps_of(aclDataType compute) {
  return compute_f32(compute) ? std::ldexp(1.0, -23) : std::ldexp(1.0, -52);
}
inline double tiny_of(aclDataType compute) {
  return compute_f32(compute) ? 1e-37 : 1e-300;
}

using RefFn = std::function<double(const std::vector<double>&)>;

// Whether `got` (read from an output of dtype `out`) is f(x) within the tolerance described at the
// top; *want receives the accepted range for the failure message.
inline bool accept(aclDataType out, aclDataType compute, const RefFn& f, const std::vector<double>& x, Tol tol,
                   double got, std::string* want) {
  const double center = f(x);
  if (std::isnan(center)) {
    *want = "nan";
    return !is_floating(out) || std::isnan(got);
  }
  double lo = center, hi = center;
  if (tol.kd || tol.kr) {
    const double d = tol.kd * eps_of(compute);
    std::vector<double> p(x.size());
    size_t combos = 1;
    for (size_t i = 0; i < x.size(); ++i) combos *= 3;
    for (size_t c = 0; c < combos; ++c) {
      size_t k = c;
      for (size_t i = 0; i < x.size(); ++i, k /= 3) p[i] = x[i] * (k % 3 == 0 ? 1 - d : k % 3 == 1 ? 1.0 : 1 + d);
      const double v = f(p);
      if (std::isnan(v)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    const double w = tol.kr * eps_of(compute) * std::max(std::fabs(lo), std::fabs(hi)) + tiny_of(compute);
    if (std::isfinite(lo)) lo -= w;
    if (std::isfinite(hi)) hi += w;
  }
  const Num rl = cast(Num::real(lo), out), rh = cast(Num::real(hi), out);
  *want = num_str(rl) + (lo == hi ? "" : " .. " + num_str(rh));
  if (rl.undefined || rh.undefined) return true;
  if (std::isnan(got)) return false;
  if (!(got >= rl.as_double() && got <= rh.as_double())) return false;
  if (lo == 0 && hi == 0 && !(tol.kd || tol.kr)) return std::signbit(got) == std::signbit(lo);
  return true;
}

// Checks every element of `out` (logical order) against f over the per-element inputs; reports at
// most 5 failures.
inline void expect_all(const std::string& repro, const Tensor& out, aclDataType compute, Tol tol, const RefFn& f,
                       const std::function<std::vector<double>(int64_t)>& inputs) {
  const std::vector<double> got = logical(out);
  int failures = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const std::vector<double> x = inputs(static_cast<int64_t>(i));
    std::string want;
    if (!accept(out.desc().dtype, compute, f, x, tol, got[i], &want) && failures++ < 5) {
      std::string xs;
      for (double v : x) xs += (xs.empty() ? "" : ", ") + num_str(Num::real(v));
      ADD_FAILURE() << repro << " at logical index " << i << ": inputs (" << xs << ") got " << num_str(Num::real(got[i]))
                    << " want " << want;
    }
  }
}

// ---- running ---------------------------------------------------------------------------------------------

// Phase 1 (must succeed), a workspace of the reported size, phase 2, synchronize.
inline void run_ok(const std::string& repro, const Phase1Fn& p1, Phase2Fn p2) {
  const aclnnStatus st = run_two_phase(p1, p2);
  ASSERT_EQ(st, ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
}

// Storage outside the output view must be untouched.
struct Guard {
  const Tensor& t;
  std::vector<uint8_t> before;
  explicit Guard(const Tensor& x) : t(x), before(x.host()) {}
  void check(const std::string& repro) const {
    const std::string o = writes_outside_view(t, before);
    EXPECT_TRUE(o.empty()) << repro << ": wrote outside the output view:" << o;
  }
};

inline std::string dtstr(aclDataType t) { return dtype_name(t); }

struct ScalarHolder {
  aclScalar* s;
  explicit ScalarHolder(const ScalarDesc& d) : s(nullptr) {
    alignas(16) unsigned char buf[16] = {};
    store(d.dtype, buf, d.value);
    s = aclCreateScalar(buf, d.dtype);
  }
  ~ScalarHolder() { aclDestroyScalar(s); }
  ScalarHolder(const ScalarHolder&) = delete;
  ScalarHolder& operator=(const ScalarHolder&) = delete;
};

}  // namespace nntest
