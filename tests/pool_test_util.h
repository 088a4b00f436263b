// Helpers for the pool family's tests: tensors with an aclFormat, int arrays, and a naive
// double-precision pooling reference (windows written from PyTorch's definitions, independent of
// pacl's walker).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "op_test_util.h"

namespace pooltest {

using namespace optest;

struct IntArray {
  explicit IntArray(const std::vector<int64_t>& v) : a(aclCreateIntArray(v.data(), v.size())) {}
  ~IntArray() { aclDestroyIntArray(a); }
  IntArray(const IntArray&) = delete;
  IntArray& operator=(const IntArray&) = delete;
  aclIntArray* a;
};

inline std::string vec_str(const std::vector<int64_t>& v) { return shape_str(v); }

// Device tensor with a format and a host copy of its storage (optest::Tensor is always ND).
class FTensor {
 public:
  FTensor(TensorDesc d, aclFormat fmt = ACL_FORMAT_ND) : desc_(std::move(d)) {
    host_.assign(static_cast<size_t>(desc_.storage_elems()) * dtype_size(desc_.dtype), 0);
    bytes_ = std::max<size_t>(host_.size(), 1);
    if (aclrtMalloc(&dev_, bytes_, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
      ADD_FAILURE() << "aclrtMalloc failed: " << aclGetRecentErrMsg();
      return;
    }
    const Shape st = desc_.view_strides();
    const int64_t storage_dims[1] = {desc_.storage_elems()};
    t_ = aclCreateTensor(desc_.shape.data(), desc_.shape.size(), desc_.dtype, st.data(), desc_.offset, fmt,
                         storage_dims, 1, dev_);
    if (!t_) ADD_FAILURE() << "aclCreateTensor(" << desc_.str() << ") failed: " << aclGetRecentErrMsg();
    // The device storage starts as the (zeroed) host copy: never read uninitialized.
    EXPECT_EQ(aclrtMemset(dev_, bytes_, 0, bytes_), ACL_SUCCESS) << aclGetRecentErrMsg();
  }
  ~FTensor() {
    if (t_) aclDestroyTensor(t_);
    if (dev_) aclrtFree(dev_);
  }
  FTensor(const FTensor&) = delete;
  FTensor& operator=(const FTensor&) = delete;

  aclTensor* get() const { return t_; }
  const TensorDesc& desc() const { return desc_; }
  std::vector<uint8_t>& host() { return host_; }
  void upload() {
    if (host_.empty()) return;
    ASSERT_EQ(aclrtMemcpy(dev_, bytes_, host_.data(), host_.size(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  void download() {
    if (host_.empty()) return;
    ASSERT_EQ(aclrtMemcpy(host_.data(), host_.size(), dev_, host_.size(), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  }
  void fill_random(Rng& rng, const FillOptions& o = {}) {
    const size_t es = dtype_size(desc_.dtype);
    for (int64_t k = 0; k < desc_.storage_elems(); ++k)
      store(desc_.dtype, host_.data() + k * es, random_value(desc_.dtype, rng, o));
    upload();
  }
  // Values uniform in [-10, 10] (half of them small integers), so sums keep their precision.
  void fill_uniform(Rng& rng) {
    const size_t es = dtype_size(desc_.dtype);
    std::uniform_real_distribution<double> u(-10.0, 10.0);
    for (int64_t k = 0; k < desc_.storage_elems(); ++k) {
      const double v = rng() % 2 ? std::round(u(rng)) : u(rng);
      store(desc_.dtype, host_.data() + k * es, Num::real(v));
    }
    upload();
  }
  void fill_bytes(Rng& rng) {
    for (auto& b : host_) b = static_cast<uint8_t>(rng());
    upload();
  }
  Num at(const Shape& idx) const {
    return load(desc_.dtype, host_.data() + desc_.storage_index(idx) * dtype_size(desc_.dtype));
  }
  void set(const Shape& idx, const Num& v) {
    store(desc_.dtype, host_.data() + desc_.storage_index(idx) * dtype_size(desc_.dtype), v);
  }

 private:
  TensorDesc desc_;
  std::vector<uint8_t> host_;
  size_t bytes_ = 0;
  void* dev_ = nullptr;
  aclTensor* t_ = nullptr;
};

// A random view of `shape`: contiguous, or strided (gaps) with an offset, or with two dims swapped
// in memory.
inline TensorDesc random_view(aclDataType t, const Shape& shape, Rng& rng) {
  const int kind = static_cast<int>(rng() % 3);
  if (kind == 0 || shape.empty()) return TensorDesc(t, shape);
  if (kind == 1) {
    Shape padded = shape;  // gaps: every dim one longer, the last one twice as long
    for (size_t i = 0; i < padded.size(); ++i) padded[i] = i + 1 == padded.size() ? 2 * shape[i] : shape[i] + 1;
    Shape st = contiguous_strides(padded);
    if (!st.empty()) st.back() = 2;
    return TensorDesc(t, shape, st, static_cast<int64_t>(rng() % 3));
  }
  if (shape.size() < 2) return TensorDesc(t, shape);
  Shape perm_shape = shape;
  const size_t a = rng() % shape.size(), b = rng() % shape.size();
  std::swap(perm_shape[a], perm_shape[b]);
  Shape st = contiguous_strides(perm_shape);
  std::swap(st[a], st[b]);
  return TensorDesc(t, shape, st);
}

// ---- pooling reference --------------------------------------------------------------------------

// Which dims of a tensor are batch / channel / spatial.
struct Layout {
  int nd = 2;
  bool batched = true;
  bool channels_last = false;
  int rank() const { return nd + (batched ? 2 : 1); }
  int channel_dim() const { return channels_last ? rank() - 1 : (batched ? 1 : 0); }
  int spatial_dim(int d) const { return (channels_last ? rank() - 1 - nd : rank() - nd) + d; }
  Shape index(const Shape& shape, int64_t n, int64_t c, const std::vector<int64_t>& sp) const {
    Shape i(shape.size(), 0);
    if (batched) i[0] = n;
    i[static_cast<size_t>(channel_dim())] = c;
    for (int d = 0; d < nd; ++d) i[static_cast<size_t>(spatial_dim(d))] = sp[static_cast<size_t>(d)];
    return i;
  }
};

// The input positions of one output index along one dim.
struct RefWindow {
  std::vector<int64_t> pos;  // valid taps in kernel order
  std::vector<int64_t> tap;  // kernel index of each
  int64_t padded = 0;        // window size counting padding
};

struct FixedDim {
  int64_t k = 1, s = 1, pb = 0, pe = 0, d = 1;
};

inline int64_t ref_out_size(int64_t in, const FixedDim& f, bool ceil_mode) {
  const double x = static_cast<double>(in + f.pb + f.pe - f.d * (f.k - 1) - 1) / static_cast<double>(f.s);
  int64_t o = static_cast<int64_t>(ceil_mode ? std::ceil(x) : std::floor(x)) + 1;
  if (ceil_mode && (o - 1) * f.s >= in + f.pb) --o;
  return o;
}

inline RefWindow ref_fixed_window(int64_t o, int64_t in, const FixedDim& f) {
  RefWindow w;
  const int64_t start = o * f.s - f.pb;
  for (int64_t j = 0; j < f.k; ++j) {
    const int64_t p = start + j * f.d;
    if (p >= 0 && p < in) {
      w.pos.push_back(p);
      w.tap.push_back(j);
    }
  }
  w.padded = std::min(start + f.k, in + f.pe) - start;
  return w;
}

inline RefWindow ref_adaptive_window(int64_t o, int64_t in, int64_t out) {
  RefWindow w;
  const int64_t a = static_cast<int64_t>(std::floor(static_cast<double>(o * in) / static_cast<double>(out)));
  const int64_t e = static_cast<int64_t>(std::ceil(static_cast<double>((o + 1) * in) / static_cast<double>(out)));
  for (int64_t p = a; p < e; ++p) {
    w.pos.push_back(p);
    w.tap.push_back(p - a);
  }
  w.padded = e - a;
  return w;
}

// A pooling problem: layout, shapes, and the window of output index o along spatial dim d.
struct RefProblem {
  Layout L;
  Shape in_shape, out_shape;
  std::function<RefWindow(int d, int64_t o)> window;
  std::vector<int64_t> kernel;  // taps per dim (mask layout)

  int64_t in_sp(int d) const { return in_shape[static_cast<size_t>(L.spatial_dim(d))]; }
  int64_t out_sp(int d) const { return out_shape[static_cast<size_t>(L.spatial_dim(d))]; }
  int64_t batch() const { return L.batched ? in_shape[0] : 1; }
  int64_t channels() const { return in_shape[static_cast<size_t>(L.channel_dim())]; }
  int64_t out_plane() const {
    int64_t n = 1;
    for (int d = 0; d < L.nd; ++d) n *= out_sp(d);
    return n;
  }
  int64_t flat(const std::vector<int64_t>& sp) const {
    int64_t f = 0;
    for (int d = 0; d < L.nd; ++d) f = f * in_sp(d) + sp[static_cast<size_t>(d)];
    return f;
  }
  std::vector<int64_t> unflat(int64_t f) const {
    std::vector<int64_t> sp(static_cast<size_t>(L.nd));
    for (int d = L.nd - 1; d >= 0; --d) {
      sp[static_cast<size_t>(d)] = f % in_sp(d);
      f /= in_sp(d);
    }
    return sp;
  }
  // f(n, c, out spatial index, taps: list of (input spatial index, kernel index), padded size)
  void for_each_output(const std::function<void(int64_t, int64_t, const std::vector<int64_t>&,
                                                const std::vector<std::pair<std::vector<int64_t>, int64_t>>&,
                                                int64_t)>& f) const {
    for (int64_t n = 0; n < batch(); ++n)
      for (int64_t c = 0; c < channels(); ++c) {
        Shape osp_shape;
        for (int d = 0; d < L.nd; ++d) osp_shape.push_back(out_sp(d));
        for_each_index(osp_shape, [&](const Shape& o) {
          std::vector<RefWindow> ws;
          int64_t padded = 1;
          for (int d = 0; d < L.nd; ++d) {
            ws.push_back(window(d, o[static_cast<size_t>(d)]));
            padded *= ws.back().padded;
          }
          std::vector<std::pair<std::vector<int64_t>, int64_t>> taps;
          std::vector<size_t> j(static_cast<size_t>(L.nd), 0);
          bool empty = false;
          for (auto& w : ws) empty = empty || w.pos.empty();
          while (!empty) {
            std::vector<int64_t> sp;
            int64_t k = 0;
            for (int d = 0; d < L.nd; ++d) {
              sp.push_back(ws[static_cast<size_t>(d)].pos[j[static_cast<size_t>(d)]]);
              k = k * kernel[static_cast<size_t>(d)] + ws[static_cast<size_t>(d)].tap[j[static_cast<size_t>(d)]];
            }
            taps.emplace_back(sp, k);
            int d = L.nd - 1;
            while (d >= 0) {
              if (++j[static_cast<size_t>(d)] < ws[static_cast<size_t>(d)].pos.size()) break;
              j[static_cast<size_t>(d)] = 0;
              --d;
            }
            if (d < 0) break;
          }
          f(n, c, o, taps, padded);
        });
      }
  }
};

// Whether `got` (of dtype t) matches the double reference `want`: exact for max pooling (want
// already converted to t), else within a relative tolerance of the dtype (the reference rounded to
// t for 16-bit floats, 1 ulp apart allowed).
inline bool close_to(aclDataType t, double want, double got, bool exact, double scale = 0) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  const double w = is_floating(t) ? cast(Num::real(want), t).f : want;
  if (std::isinf(w) || std::isinf(got)) return w == got;
  if (exact) return w == got;
  if (t == ACL_FLOAT16 || t == ACL_BF16) return ulp_distance(t, w, got) <= 1 || std::fabs(w - got) <= 1e-3 * scale;
  const double tol = (t == ACL_DOUBLE ? 1e-12 : 2e-6) * std::max(1.0, std::max(std::fabs(want), scale));
  return std::fabs(want - got) <= tol;
}

}  // namespace pooltest
