// Helpers shared by the softmax / norm tests (public C API only, on top of op_test_util.h).
//  - precision facts of the floating dtypes (eps, smallest subnormal, largest finite);
//  - dense_values / fill_uniform over Tensor host copies;
//  - Expect: compares an output with a double reference and a per-element error scale.
#pragma once

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "op_test_util.h"

namespace normtest {

using namespace optest;

// Seeds shift by $PACL_TEST_SEED (default 0), to run the sweeps on other random cases.
inline uint64_t seed(uint64_t s) {
  const char* e = std::getenv("PACL_TEST_SEED");
  return s + (e ? std::strtoull(e, nullptr, 10) * 1000 : 0);
}

inline double eps_of(aclDataType t) {
  switch (t) {
    case ACL_FLOAT16: return std::ldexp(1.0, -10);
    case ACL_BF16: return std::ldexp(1.0, -7);
    case ACL_FLOAT: return std::ldexp(1.0, -23);
    default: return std::ldexp(1.0, -52);
  }
}
// Smallest positive (subnormal) value: the absolute quantum near zero.
inline double tiny_of(aclDataType t) {
  switch (t) {
    case ACL_FLOAT16: return std::ldexp(1.0, -24);
    case ACL_BF16: return std::ldexp(1.0, -133);
    case ACL_FLOAT: return std::ldexp(1.0, -149);
    default: return std::numeric_limits<double>::denorm_min();
  }
}
inline double max_of(aclDataType t) {
  switch (t) {
    case ACL_FLOAT16: return 65504;
    case ACL_BF16: return bf16_value(0x7f7f);
    case ACL_FLOAT: return std::numeric_limits<float>::max();
    default: return std::numeric_limits<double>::max();
  }
}
inline bool is16(aclDataType t) { return t == ACL_FLOAT16 || t == ACL_BF16; }
// The dtype a kernel computes a dtype in.
inline aclDataType compute_of(aclDataType t) { return t == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT; }

// Values of the view in row-major order, as doubles.
inline std::vector<double> dense_values(const Tensor& t) {
  std::vector<double> v;
  for_each_index(t.desc().shape, [&](const Shape& i) { v.push_back(t.at(i).as_double()); });
  return v;
}

// Uniform values in [lo, hi] (rounded to the dtype) in every storage element, then upload.
inline void fill_uniform(Tensor& t, Rng& rng, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  const size_t es = dtype_size(t.desc().dtype);
  for (int64_t k = 0; k < t.desc().storage_elems(); ++k)
    store(t.desc().dtype, t.host().data() + k * es, Num::real(u(rng)));
  t.upload();
}

// float32 tensors only: uniform values written straight into the host copy (fast for large ones).
inline void fill_uniform_f32(Tensor& t, Rng& rng, float lo, float hi) {
  std::uniform_real_distribution<float> u(lo, hi);
  float* p = reinterpret_cast<float*>(t.host().data());
  for (int64_t k = 0; k < t.desc().storage_elems(); ++k) p[k] = u(rng);
  t.upload();
}

// Values drawn from `pool` in every storage element, then upload.
inline void fill_from(Tensor& t, Rng& rng, const std::vector<double>& pool) {
  const size_t es = dtype_size(t.desc().dtype);
  for (int64_t k = 0; k < t.desc().storage_elems(); ++k)
    store(t.desc().dtype, t.host().data() + k * es, Num::real(pool[rng() % pool.size()]));
  t.upload();
}

// Checks the view of `out` (host copy already downloaded) against ref (row-major order): finite
// references must be within k * eps * scale + quanta * tiny, where eps is the coarsest of
// `dtypes` (the dtypes the value passes through) and tiny the subnormal quantum; NaN and infinite
// references must be matched exactly. Reports at most 3 elements. Returns true when all match.
inline bool expect_close(const std::string& repro, const char* what, const Tensor& out, const std::vector<double>& ref,
                         const std::vector<double>& scale, std::initializer_list<aclDataType> dtypes,
                         double quanta = 2) {
  double eps = 0, tiny = 0, maxf = HUGE_VAL;
  bool coarse = false;
  for (aclDataType t : dtypes) {
    eps = std::max(eps, eps_of(t));
    tiny = std::max(tiny, tiny_of(t));
    maxf = std::min(maxf, max_of(t));
    coarse = coarse || is16(t);
  }
  const double k = coarse ? 2.0 : 64.0;
  size_t i = 0;
  int bad = 0;
  for_each_index(out.desc().shape, [&](const Shape& idx) {
    const double want = ref[i], got = out.at(idx).as_double();
    const double tol = k * eps * scale[i] + quanta * tiny;
    ++i;
    bool ok;
    if (std::isnan(want) || std::isinf(want) || !std::isfinite(tol)) {
      ok = std::isnan(want) ? std::isnan(got) : got == want;
    } else {
      ok = std::fabs(got - want) <= tol ||
           (std::isinf(got) && std::signbit(got) == std::signbit(want) && std::fabs(want) * (1 + k * eps) >= maxf);
    }
    if (!ok && bad++ < 3)
      ADD_FAILURE() << repro << ": " << what << " element " << shape_str(idx) << " is " << got << ", expected " << want
                    << " (tolerance " << tol << ")";
  });
  return bad == 0;
}

struct IntArray {
  explicit IntArray(const std::vector<int64_t>& v) : a(aclCreateIntArray(v.data(), v.size())) {}
  ~IntArray() { aclDestroyIntArray(a); }
  IntArray(const IntArray&) = delete;
  IntArray& operator=(const IntArray&) = delete;
  aclIntArray* a;
};

// A view of `shape` for dtype t: contiguous, or (when rng says so) a strided/offset view with
// every stride doubled, or with the last two dims transposed in memory.
inline TensorDesc random_view(Rng& rng, aclDataType t, const Shape& shape, int one_in = 3) {
  if (shape.empty() || rng() % static_cast<uint64_t>(one_in) != 0) return TensorDesc(t, shape);
  Shape st = contiguous_strides(shape);
  if (shape.size() >= 2 && rng() % 2) {
    Shape sw = shape;
    std::swap(sw[sw.size() - 1], sw[sw.size() - 2]);
    st = contiguous_strides(sw);
    std::swap(st[st.size() - 1], st[st.size() - 2]);
    return TensorDesc(t, shape, st, 1);
  }
  for (auto& x : st) x *= 2;
  return TensorDesc(t, shape, st, 3);
}

}  // namespace normtest
