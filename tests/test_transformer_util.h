// Helpers shared by the transformer-family tests (rotary embeddings, attention, MoE, grouped
// matmul): tensors read and written as row-major double vectors, random views (strided, offset),
// tolerance checks for results computed in float32 and rounded to the output dtype, and small RAII
// wrappers for the aclnn arrays and lists. Public C API only.
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "op_test_util.h"

namespace tftest {

using namespace optest;

// The view of t as row-major doubles (host copy; call download() first for outputs).
inline std::vector<double> values(const Tensor& t) {
  std::vector<double> v;
  v.reserve(static_cast<size_t>(numel(t.desc().shape)));
  for_each_index(t.desc().shape, [&](const Shape& i) {
    const Num n = t.at(i);
    v.push_back(n.is_float ? n.f : static_cast<double>(n.i));
  });
  return v;
}

// Stores row-major values into the view of t (rounded to its dtype) and uploads.
inline void set_values(Tensor& t, const std::vector<double>& v) {
  size_t k = 0;
  const bool fl = is_floating(t.desc().dtype);
  for_each_index(t.desc().shape, [&](const Shape& i) {
    const double x = v[k++];
    t.set(i, fl ? Num::real(x) : Num::integer(static_cast<int64_t>(x)));
  });
  t.upload();
}

// Uniform values in [lo, hi) rounded to the dtype (row-major over the view); the gaps of a strided
// storage get random bytes-free values too.
inline std::vector<double> fill_uniform(Tensor& t, Rng& rng, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  const size_t es = dtype_size(t.desc().dtype);
  for (int64_t k = 0; k < t.desc().storage_elems(); ++k)
    store(t.desc().dtype, t.host().data() + k * es, Num::real(u(rng)));
  t.upload();
  return values(t);
}

// Integers in [lo, hi] (row-major over the view).
inline std::vector<double> fill_ints(Tensor& t, Rng& rng, int64_t lo, int64_t hi) {
  std::uniform_int_distribution<int64_t> u(lo, hi);
  std::vector<double> v(static_cast<size_t>(numel(t.desc().shape)));
  for (auto& x : v) x = static_cast<double>(u(rng));
  set_values(t, v);
  return v;
}

// A view of `shape`: contiguous, or (at random) with padded strides and an offset, or with the
// last two dims stored transposed.
inline TensorDesc random_view(aclDataType t, const Shape& shape, Rng& rng, bool allow_strided = true) {
  if (!allow_strided || shape.empty() || numel(shape) == 0) return TensorDesc(t, shape);
  switch (rng() % 3) {
    case 0: return TensorDesc(t, shape);
    case 1: {
      Shape st(shape.size());
      int64_t s = 1;
      for (size_t i = shape.size(); i-- > 0;) {
        st[i] = s;
        s *= shape[i] + (i + 1 == shape.size() ? 0 : static_cast<int64_t>(rng() % 2));
      }
      if (shape.size() >= 2 && rng() % 2) {  // a padded innermost row
        for (size_t i = 0; i + 1 < shape.size(); ++i) st[i] *= 2;
      }
      return TensorDesc(t, shape, st, static_cast<int64_t>(rng() % 3));
    }
    default: {
      if (shape.size() < 2) return TensorDesc(t, shape, {}, 1);
      Shape sw = shape;
      std::swap(sw[sw.size() - 1], sw[sw.size() - 2]);
      Shape st = contiguous_strides(sw);
      std::swap(st[st.size() - 1], st[st.size() - 2]);
      return TensorDesc(t, shape, st);
    }
  }
}

// Relative rounding unit of a dtype (half an ulp at 1).
inline double unit(aclDataType t) {
  switch (t) {
    case ACL_FLOAT16: return std::ldexp(1.0, -11);
    case ACL_BF16: return std::ldexp(1.0, -8);
    case ACL_FLOAT: return std::ldexp(1.0, -24);
    default: return std::ldexp(1.0, -53);
  }
}

// The values of `got` (dtype t) against a double reference: |got - ref| <= 2 * unit(t) * |ref| +
// tol * scale[i] (scale: the magnitude of the terms that made ref; empty: |ref|). Reports the first
// few mismatches with the repro; returns whether all matched.
inline bool expect_close(const std::string& repro, const char* what, aclDataType t, const std::vector<double>& got,
                         const std::vector<double>& ref, double tol, const std::vector<double>& scale = {}) {
  if (got.size() != ref.size()) {
    ADD_FAILURE() << repro << ": " << what << " has " << got.size() << " values, expected " << ref.size();
    return false;
  }
  int bad = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double sc = scale.empty() ? std::fabs(ref[i]) : scale[i];
    const double lim = 2 * unit(t) * std::fabs(ref[i]) + tol * sc + 1e-30;
    const bool ok = std::isnan(ref[i]) ? std::isnan(got[i]) : std::fabs(got[i] - ref[i]) <= lim;
    if (!ok && bad++ < 5)
      ADD_FAILURE() << repro << ": " << what << "[" << i << "] = " << got[i] << ", expected " << ref[i]
                    << " (tolerance " << lim << ")";
  }
  return bad == 0;
}

// Exact comparison (indices, counts, moved values).
inline bool expect_equal(const std::string& repro, const char* what, const std::vector<double>& got,
                         const std::vector<double>& ref) {
  if (got.size() != ref.size()) {
    ADD_FAILURE() << repro << ": " << what << " has " << got.size() << " values, expected " << ref.size();
    return false;
  }
  int bad = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    const bool same = (std::isnan(got[i]) && std::isnan(ref[i])) || got[i] == ref[i];
    if (!same && bad++ < 5)
      ADD_FAILURE() << repro << ": " << what << "[" << i << "] = " << got[i] << ", expected " << ref[i];
  }
  return bad == 0;
}

// Rounds v to dtype t (what a tensor of that dtype would hold).
inline double round_to(aclDataType t, double v) { return cast(Num::real(v), t).f; }
inline std::vector<double> round_all(aclDataType t, std::vector<double> v) {
  for (auto& x : v) x = round_to(t, x);
  return v;
}

struct IntArray {
  explicit IntArray(const std::vector<int64_t>& v) : a(aclCreateIntArray(v.data(), v.size())) {}
  ~IntArray() { aclDestroyIntArray(a); }
  IntArray(const IntArray&) = delete;
  IntArray& operator=(const IntArray&) = delete;
  aclIntArray* a;
};

// A tensor list over tensors owned elsewhere (aclDestroyTensorList would destroy the tensors, so
// the list is built from fresh aclTensor descriptions that alias the same device memory).
struct TensorList {
  explicit TensorList(const std::vector<const Tensor*>& ts) {
    std::vector<aclTensor*> v;
    for (const Tensor* t : ts) {
      const TensorDesc& d = t->desc();
      const Shape st = d.view_strides();
      const int64_t storage[1] = {d.storage_elems()};
      void* addr = nullptr;
      aclGetRawTensorAddr(t->get(), &addr);
      v.push_back(aclCreateTensor(d.shape.data(), d.shape.size(), d.dtype, st.data(), d.offset, ACL_FORMAT_ND, storage,
                                  1, addr));
    }
    l = aclCreateTensorList(v.data(), v.size());
  }
  ~TensorList() { aclDestroyTensorList(l); }
  TensorList(const TensorList&) = delete;
  TensorList& operator=(const TensorList&) = delete;
  aclTensorList* l;
};

inline std::string shapes_str(const std::vector<Shape>& s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + shape_str(s[i]);
  return r;
}

}  // namespace tftest
