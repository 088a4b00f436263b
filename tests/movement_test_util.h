// Helpers of the movement-family tests (public C API only): int arrays and tensor lists as RAII
// arguments, random strided views, byte-exact element checks against a reference index map.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "op_test_util.h"

namespace optest {

struct IntArray {
  explicit IntArray(const std::vector<int64_t>& v) : a(aclCreateIntArray(v.data(), v.size())) {}
  ~IntArray() { aclDestroyIntArray(a); }
  IntArray(const IntArray&) = delete;
  IntArray& operator=(const IntArray&) = delete;
  aclIntArray* a;
};

// A tensor list over the given tensors' buffers. The list owns its aclTensor objects (CANN's
// contract), so it holds aliases: new descriptors over the same device memory.
class TensorList {
 public:
  explicit TensorList(const std::vector<const Tensor*>& ts) {
    std::vector<aclTensor*> items;
    for (const Tensor* t : ts) items.push_back(alias(*t));
    l_ = aclCreateTensorList(items.data(), items.size());
  }
  ~TensorList() { aclDestroyTensorList(l_); }
  TensorList(const TensorList&) = delete;
  TensorList& operator=(const TensorList&) = delete;
  aclTensorList* get() const { return l_; }

  static aclTensor* alias(const Tensor& t) {
    void* addr = nullptr;
    aclGetRawTensorAddr(t.get(), &addr);
    const TensorDesc& d = t.desc();
    const Shape st = d.view_strides();
    const int64_t storage[1] = {d.storage_elems()};
    return aclCreateTensor(d.shape.data(), d.shape.size(), d.dtype, st.data(), d.offset, ACL_FORMAT_ND, storage, 1,
                           addr);
  }

 private:
  aclTensorList* l_ = nullptr;
};

inline std::string list_str(const std::vector<int64_t>& v) { return shape_str(v); }

// Random bytes in every storage element: the ops under test move elements, they do not compute.
// Bool elements get 0 or 1.
inline void fill_bytes(Tensor& t, Rng& rng) {
  for (auto& b : t.host()) b = static_cast<uint8_t>(rng());
  if (t.desc().dtype == ACL_BOOL)
    for (auto& b : t.host()) b &= 1;
  t.upload();
}

// A view of `shape`: contiguous, or (half the time) a permuted layout with gaps and an offset.
inline TensorDesc random_view(aclDataType t, const Shape& shape, Rng& rng) {
  if (shape.empty() || rng() % 2 == 0) return TensorDesc(t, shape);
  std::vector<size_t> order(shape.size());
  std::iota(order.begin(), order.end(), 0);
  if (rng() % 2) std::shuffle(order.begin(), order.end(), rng);
  Shape strides(shape.size());
  int64_t s = 1 + static_cast<int64_t>(rng() % 2);
  for (size_t i = order.size(); i-- > 0;) {
    strides[order[i]] = s;
    s *= std::max<int64_t>(shape[order[i]], 1) + static_cast<int64_t>(rng() % 2);
  }
  return TensorDesc(t, shape, strides, static_cast<int64_t>(rng() % 4));
}

// Random shape of `rank` dims in [lo, hi].
inline Shape random_shape(Rng& rng, int rank, int64_t lo, int64_t hi) {
  Shape s(static_cast<size_t>(rank));
  for (auto& d : s) d = lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1));
  return s;
}

// Where an out element comes from: element `index` of `tensor`, or zero bytes (tensor null), or the
// bytes at `bytes`.
struct Source {
  const Tensor* tensor = nullptr;
  Shape index;
  const uint8_t* bytes = nullptr;
};

// Every element of out (downloaded) must equal, byte for byte, the element `src(i)` names; nothing
// outside out's view may change (`before`: out's storage before the op).
inline void expect_moved(const std::string& repro, Tensor& out, const std::vector<uint8_t>& before,
                         const std::function<Source(const Shape&)>& src) {
  out.download();
  const TensorDesc& od = out.desc();
  const size_t es = dtype_size(od.dtype);
  const Shape ost = od.view_strides();
  static const uint8_t zeros[16] = {};
  int bad = 0;
  std::vector<bool> in_view(static_cast<size_t>(od.storage_elems()), false);
  for_each_index(od.shape, [&](const Shape& i) {
    int64_t at = od.offset;
    for (size_t k = 0; k < i.size(); ++k) at += i[k] * ost[k];
    in_view[static_cast<size_t>(at)] = true;
    if (bad > 3) return;
    const Source s = src(i);
    const uint8_t* want = s.bytes ? s.bytes : zeros;
    if (s.tensor) want = s.tensor->host().data() + s.tensor->desc().storage_index(s.index) * es;
    const uint8_t* got = out.host().data() + at * static_cast<int64_t>(es);
    if (std::memcmp(want, got, es) != 0) {
      ADD_FAILURE() << repro << ": out" << shape_str(i) << " differs from "
                    << (s.tensor ? "source" + shape_str(s.index) : std::string("the fill value"));
      ++bad;
    }
  });
  // Nothing outside the view may change.
  int outside = 0;
  for (size_t k = 0; k < in_view.size(); ++k)
    if (!in_view[k] && std::memcmp(before.data() + k * es, out.host().data() + k * es, es) != 0) ++outside;
  EXPECT_EQ(outside, 0) << repro << ": wrote " << outside << " elements outside the out view";
}

// Runs an op through both phases; a failure is reported with the repro and the op's message.
inline bool run_ok(const std::string& repro, const Phase1Fn& p1, Phase2Fn p2) {
  const aclnnStatus st = run_two_phase(p1, p2);
  EXPECT_EQ(st, ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
  return st == ACL_SUCCESS;
}

inline const std::vector<aclDataType>& move_dtypes() {
  static const std::vector<aclDataType> v = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                             ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL,
                                             ACL_UINT16, ACL_UINT32, ACL_UINT64, ACL_COMPLEX64, ACL_COMPLEX128};
  return v;
}

// Row-major multi-index of flat position f in shape s.
inline Shape unravel(int64_t f, const Shape& s) {
  Shape i(s.size());
  for (size_t k = s.size(); k-- > 0;) {
    i[k] = s[k] ? f % s[k] : 0;
    f = s[k] ? f / s[k] : 0;
  }
  return i;
}
inline int64_t ravel(const Shape& i, const Shape& s) {
  int64_t f = 0;
  for (size_t k = 0; k < s.size(); ++k) f = f * s[k] + i[k];
  return f;
}

}  // namespace optest
