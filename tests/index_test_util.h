// Helpers shared by the index-family tests (test_index_*.cpp): random views, index tensors with
// chosen values, byte-exact element comparison, and the run-time failure check.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "op_test_util.h"

namespace idxtest {

using namespace optest;

// Every dtype the index ops move (they never convert, so any storable dtype is compared by bytes).
inline const std::vector<aclDataType>& move_dtypes() {
  static const std::vector<aclDataType> v = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE,    ACL_INT8,
                                             ACL_UINT8, ACL_INT16,   ACL_INT32,  ACL_INT64,     ACL_BOOL,
                                             ACL_UINT16, ACL_UINT32, ACL_UINT64, ACL_COMPLEX64, ACL_COMPLEX128};
  return v;
}

inline bool in(const std::vector<aclDataType>& v, aclDataType t) { return std::find(v.begin(), v.end(), t) != v.end(); }

// A contiguous view, or (when strided) every stride doubled plus an offset of 3 elements.
inline TensorDesc view_of(aclDataType t, const Shape& shape, bool strided) {
  if (!strided || shape.empty()) return TensorDesc(t, shape);
  Shape st = contiguous_strides(shape);
  for (auto& x : st) x *= 2;
  return TensorDesc(t, shape, st, 3);
}

// A transposed-layout view of `shape` (dims 0 and 1 swapped in memory) when rank >= 2.
inline TensorDesc transposed_of(aclDataType t, const Shape& shape) {
  if (shape.size() < 2) return TensorDesc(t, shape);
  Shape sw = shape;
  std::swap(sw[0], sw[1]);
  Shape st = contiguous_strides(sw);
  std::swap(st[0], st[1]);
  return TensorDesc(t, shape, st);
}

// Random bytes in every storage element; bool storage stays 0/1 and floats avoid NaN payload
// ambiguities only by being compared bytewise.
inline void fill_bytes(Tensor& t, Rng& rng) {
  if (t.desc().dtype == ACL_BOOL) {
    for (auto& b : t.host()) b = static_cast<uint8_t>(rng() % 2);
  } else {
    for (auto& b : t.host()) b = static_cast<uint8_t>(rng());
  }
  t.upload();
}

// Index values (view order) written into an int32/int64 tensor, then uploaded.
inline void set_indices(Tensor& t, const std::vector<int64_t>& v) {
  int64_t k = 0;
  for_each_index(t.desc().shape, [&](const Shape& i) { t.set(i, Num::integer(v[static_cast<size_t>(k++)])); });
  t.upload();
}

// n random indices addressing an extent of `size`: in [0, size), or [-size, size) with negatives.
inline std::vector<int64_t> random_indices(Rng& rng, int64_t n, int64_t size, bool negative) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (auto& x : v) {
    x = size > 0 ? static_cast<int64_t>(rng() % static_cast<uint64_t>(size)) : 0;
    if (negative && rng() % 2) x -= size;
  }
  return v;
}

inline const uint8_t* elem(const Tensor& t, const Shape& idx) {
  return t.host().data() + t.desc().storage_index(idx) * dtype_size(t.desc().dtype);
}

inline bool same_bytes(const Tensor& a, const Shape& ia, const Tensor& b, const Shape& ib) {
  return std::memcmp(elem(a, ia), elem(b, ib), dtype_size(a.desc().dtype)) == 0;
}

// The view-order multi-indices of a shape (for_each_index collected).
inline std::vector<Shape> positions(const Shape& s) {
  std::vector<Shape> r;
  for_each_index(s, [&](const Shape& i) { r.push_back(i); });
  return r;
}

// Phase 1 and 2 must succeed and the synchronize must report the kernel's failure, with a message
// that mentions `mention`.
inline void expect_run_failure(const std::string& repro, const char* mention, const Phase1Fn& p1, Phase2Fn p2) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(p1(&ws, &ex), ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
  void* w = nullptr;
  if (ws) {
    ASSERT_EQ(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  ASSERT_EQ(p2(w, ws, ex, stream()), ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
  const aclError st = aclrtSynchronizeStream(stream());
  EXPECT_NE(st, ACL_SUCCESS) << repro << ": an out-of-range index was not reported";
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg.find(mention), std::string::npos) << repro << ": message does not mention '" << mention << "': " << msg;
  if (w) aclrtFree(w);
}

struct IntArray {
  explicit IntArray(const std::vector<int64_t>& v) : a(aclCreateIntArray(v.data(), v.size())) {}
  ~IntArray() { aclDestroyIntArray(a); }
  IntArray(const IntArray&) = delete;
  IntArray& operator=(const IntArray&) = delete;
  aclIntArray* a;
};

// An aclTensorList over aliases of existing tensors (same device buffer and view): the list owns
// and destroys the aliases, the Tensor objects keep owning their own handles and buffers.
class TensorListOf {
 public:
  explicit TensorListOf(const std::vector<const Tensor*>& ts) {
    std::vector<aclTensor*> raw;
    for (const Tensor* t : ts) {
      void* addr = nullptr;
      EXPECT_EQ(aclGetRawTensorAddr(t->get(), &addr), ACL_SUCCESS);
      const TensorDesc& d = t->desc();
      const Shape st = d.view_strides();
      const int64_t storage[1] = {d.storage_elems()};
      raw.push_back(aclCreateTensor(d.shape.data(), d.shape.size(), d.dtype, st.data(), d.offset, ACL_FORMAT_ND,
                                    storage, 1, addr));
    }
    l_ = aclCreateTensorList(raw.data(), raw.size());
  }
  ~TensorListOf() { aclDestroyTensorList(l_); }
  TensorListOf(const TensorListOf&) = delete;
  TensorListOf& operator=(const TensorListOf&) = delete;
  aclTensorList* get() const { return l_; }

 private:
  aclTensorList* l_ = nullptr;
};

inline std::string vec_str(const std::vector<int64_t>& v) {
  std::string r = "[";
  for (size_t i = 0; i < v.size(); ++i) r += (i ? "," : "") + std::to_string(v[i]);
  return r + "]";
}

}  // namespace idxtest
