// Helpers shared by the mathx family's tests (test_mathx_*.cpp): random shapes and views, broadcast
// index mapping, and value checks with a tolerance in ulps of a chosen dtype.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "op_test_util.h"

namespace mathx {

using namespace optest;

// A random shape of rank in [min_rank, max_rank], dims in [1, 5] (a 0 now and then when allow_empty).
inline Shape random_shape(Rng& rng, int min_rank, int max_rank, bool allow_empty = false) {
  const int rank = min_rank + static_cast<int>(rng() % static_cast<uint64_t>(max_rank - min_rank + 1));
  Shape s(static_cast<size_t>(rank));
  for (auto& d : s) d = 1 + static_cast<int64_t>(rng() % 5);
  if (allow_empty && rank > 0 && rng() % 8 == 0) s[rng() % s.size()] = 0;
  return s;
}

// `shape` with some dims set to 1 and some leading dims dropped: a shape that broadcasts to it.
inline Shape broadcast_partner(Rng& rng, const Shape& shape) {
  Shape s = shape;
  for (auto& d : s)
    if (rng() % 3 == 0) d = 1;
  size_t drop = s.empty() ? 0 : rng() % (s.size() + 1);
  if (rng() % 2) drop = 0;
  return Shape(s.begin() + static_cast<int64_t>(drop), s.end());
}

// A view of dtype t and shape `shape`: contiguous, strided with gaps and an offset, or with its dims
// laid out in reverse order (a transposed view).
inline TensorDesc random_view(Rng& rng, aclDataType t, const Shape& shape) {
  const int kind = static_cast<int>(rng() % 3);
  if (kind == 0 || shape.empty()) return TensorDesc(t, shape);
  Shape st(shape.size());
  if (kind == 1) {
    int64_t s = 1 + static_cast<int64_t>(rng() % 2);
    for (size_t i = shape.size(); i-- > 0;) {
      st[i] = s;
      s *= std::max<int64_t>(shape[i], 1) + static_cast<int64_t>(rng() % 2);
    }
    return TensorDesc(t, shape, st, static_cast<int64_t>(rng() % 3));
  }
  int64_t s = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    st[i] = s;
    s *= std::max<int64_t>(shape[i], 1);
  }
  return TensorDesc(t, shape, st, 0);
}

// Index into an operand of shape `in` for index `idx` of the broadcast shape (right-aligned).
inline Shape broadcast_index(const Shape& idx, const Shape& in) {
  Shape r(in.size());
  const size_t off = idx.size() - in.size();
  for (size_t i = 0; i < in.size(); ++i) r[i] = in[i] == 1 ? 0 : idx[i + off];
  return r;
}

// The coarser of two floating dtypes (fewer mantissa bits).
inline aclDataType coarser(aclDataType a, aclDataType b) {
  auto bits = [](aclDataType t) { return t == ACL_BF16 ? 8 : t == ACL_FLOAT16 ? 11 : t == ACL_FLOAT ? 24 : 53; };
  return bits(a) <= bits(b) ? a : b;
}

struct Tol {
  uint64_t ulps = 0;  // in ulps of the check dtype
  double abs = 0;     // or an absolute error this small
};

// Whether `actual` (read from a floating out) matches the exact value `expected` computed in
// `compute` and converted to `out`: NaN for NaN, infinities and zero signs exactly, otherwise within
// tol in the coarser of compute and out.
inline bool float_matches(double expected, aclDataType compute, aclDataType out, const Num& actual, Tol tol,
                          std::string* why) {
  const Num e = cast(cast(Num::real(expected), compute), out);
  const double a = actual.f;
  if (std::isnan(e.f) || std::isnan(a)) {
    if (std::isnan(e.f) && std::isnan(a)) return true;
    *why = "expected " + num_str(e) + ", got " + num_str(actual);
    return false;
  }
  if (std::isinf(e.f) || std::isinf(a) || e.f == 0 || a == 0) {
    if (e.f == a && (e.f != 0 || std::signbit(e.f) == std::signbit(a))) return true;
    if (tol.ulps == 0 && tol.abs == 0) {
      *why = "expected " + num_str(e) + ", got " + num_str(actual);
      return false;
    }
    if (std::isinf(e.f) || std::isinf(a)) {
      *why = "expected " + num_str(e) + ", got " + num_str(actual);
      return false;
    }
  }
  const aclDataType c = coarser(compute, out);
  const double ec = cast(e, c).f, ac = cast(actual, c).f;
  const uint64_t d = ulp_distance(c, ec, ac);
  if (d <= tol.ulps || std::fabs(e.f - a) <= tol.abs) return true;
  *why = "expected " + num_str(e) + ", got " + num_str(actual) + " (" + std::to_string(d) + " ulps of " +
         dtype_name(c) + ")";
  return false;
}

// Collects mismatches of one case; prints the first few with the case's repro.
class Mismatches {
 public:
  explicit Mismatches(std::string repro) : repro_(std::move(repro)) {}
  ~Mismatches() {
    if (n_ > 4) ADD_FAILURE() << repro_ << ": " << n_ - 4 << " more mismatches";
  }
  void add(const Shape& idx, const std::string& why) {
    if (n_++ < 4) ADD_FAILURE() << repro_ << ": at " << shape_str(idx) << ": " << why;
  }
  int count() const { return n_; }
  const std::string& repro() const { return repro_; }

 private:
  std::string repro_;
  int n_ = 0;
};

// Checks an exact (integer, bool or exactly representable) expected value of out's dtype.
inline void expect_exact(Mismatches& m, const Shape& idx, aclDataType out, const Num& expected, const Num& actual) {
  const Num e = cast(expected, out);
  if (e.undefined) return;
  if (!same_value(out, e, actual)) m.add(idx, "expected " + num_str(e) + ", got " + num_str(actual));
}

inline void expect_float(Mismatches& m, const Shape& idx, double expected, aclDataType compute, aclDataType out,
                         const Num& actual, Tol tol) {
  std::string why;
  if (!float_matches(expected, compute, out, actual, tol, &why)) m.add(idx, why);
}

// Owns an aclTensorList built from tensors (the tensors stay owned by their Tensor objects: the
// list holds its own copies, created with aclCreateTensorList from fresh aclTensors).
class TensorList {
 public:
  explicit TensorList(const std::vector<Tensor*>& ts) {
    std::vector<aclTensor*> v;
    for (Tensor* t : ts) {
      const TensorDesc& d = t->desc();
      const Shape st = d.view_strides();
      const int64_t storage[1] = {d.storage_elems()};
      void* addr = nullptr;
      aclGetRawTensorAddr(t->get(), &addr);
      v.push_back(aclCreateTensor(d.shape.data(), d.shape.size(), d.dtype, st.data(), d.offset, ACL_FORMAT_ND, storage,
                                  1, addr));
    }
    l_ = aclCreateTensorList(v.data(), v.size());
  }
  ~TensorList() {
    if (l_) aclDestroyTensorList(l_);
  }
  TensorList(const TensorList&) = delete;
  TensorList& operator=(const TensorList&) = delete;
  aclTensorList* get() const { return l_; }

 private:
  aclTensorList* l_ = nullptr;
};

}  // namespace mathx

namespace mathx {

// PyTorch's promote_types over the ten compute dtypes, from its rules: bool yields to anything;
// floating wins over integral; float16 with bfloat16 gives float32, otherwise the wider float;
// uint8 with int8 gives int16, otherwise the wider integer.
inline aclDataType promote_types(aclDataType a, aclDataType b) {
  if (a == b) return a;
  if (a == ACL_BOOL) return b;
  if (b == ACL_BOOL) return a;
  if (is_floating(a) && is_floating(b)) {
    auto width = [](aclDataType t) { return t == ACL_DOUBLE ? 3 : t == ACL_FLOAT ? 2 : 1; };
    if (width(a) == width(b)) return ACL_FLOAT;
    return width(a) > width(b) ? a : b;
  }
  if (is_floating(a)) return a;
  if (is_floating(b)) return b;
  if (a == ACL_UINT8 || b == ACL_UINT8) {
    const aclDataType o = a == ACL_UINT8 ? b : a;
    return o == ACL_INT8 ? ACL_INT16 : o;
  }
  return int_bits(a) >= int_bits(b) ? a : b;
}

// PyTorch's canCast: no floating -> integral or bool, no integral -> bool.
inline bool can_cast(aclDataType from, aclDataType to) {
  if (is_floating(from) && !is_floating(to)) return false;
  if (from != ACL_BOOL && to == ACL_BOOL) return false;
  return true;
}

template <typename T>
T pick(Rng& rng, const std::vector<T>& v) {
  return v[rng() % v.size()];
}

}  // namespace mathx
