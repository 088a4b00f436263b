#include "core/dense.h"

#include <algorithm>
#include <cstring>

#include "core/convert.h"
#include "core/elementwise.h"
#include "core/parallel.h"
#include "runtime/status.h"

namespace pacl {

namespace {

constexpr int64_t kParallelCopyElements = 64 * 1024;

// Element offsets of row `r` of a merged geometry (all dims but the innermost).
void row_offsets(const Geometry& g, int64_t r, int64_t* dst_off, int64_t* src_off) {
  int64_t d = 0, s = 0;
  for (int64_t k = static_cast<int64_t>(g.shape.size()) - 2; k >= 0; --k) {
    const int64_t i = r % g.shape[k];
    r /= g.shape[k];
    d += i * g.strides[0][k];
    s += i * g.strides[1][k];
  }
  *dst_off = d;
  *src_off = s;
}

struct Bytes16 {
  uint64_t w[2];
};

template <typename U>
void copy_row(void* dst, int64_t ds, const void* src, int64_t ss, int64_t n) {
  U* d = static_cast<U*>(dst);
  const U* s = static_cast<const U*>(src);
  if (ds == 1 && ss == 1) {
    std::memcpy(d, s, static_cast<size_t>(n) * sizeof(U));
    return;
  }
  for (int64_t i = 0; i < n; ++i) d[i * ds] = s[i * ss];
}

// Same-dtype copy by element size: serves every storable dtype, not only the compute ones.
void copy_row_bytes(size_t size, void* dst, int64_t ds, const void* src, int64_t ss, int64_t n) {
  switch (size) {
    case 1: return copy_row<uint8_t>(dst, ds, src, ss, n);
    case 2: return copy_row<uint16_t>(dst, ds, src, ss, n);
    case 4: return copy_row<uint32_t>(dst, ds, src, ss, n);
    case 8: return copy_row<uint64_t>(dst, ds, src, ss, n);
    case 16: return copy_row<Bytes16>(dst, ds, src, ss, n);
    default: throw Unsupported(fmt::format("copying elements of {} bytes is not supported", size));
  }
}

}  // namespace

void copy_strided(const Dims& shape, DType dst_t, void* dst, const Dims& dst_strides, DType src_t, const void* src,
                  const Dims& src_strides) {
  for (int64_t d : shape)
    if (d == 0) return;
  Geometry g = merge_dims(shape, {dst_strides, src_strides});
  if (g.shape.empty()) {  // a single element
    g.shape.push_back(1);
    g.strides = {{1}, {1}};
  }
  const int64_t inner = g.shape.back(), ds = g.strides[0].back(), ss = g.strides[1].back();
  const int64_t rows = g.numel() / inner;
  const size_t dsz = dtype_size(dst_t), ssz = dtype_size(src_t);
  auto run_rows = [&](int64_t from, int64_t to, int) {
    for (int64_t r = from; r < to; ++r) {
      int64_t doff, soff;
      row_offsets(g, r, &doff, &soff);
      char* d = static_cast<char*>(dst) + doff * static_cast<int64_t>(dsz);
      const char* s = static_cast<const char*>(src) + soff * static_cast<int64_t>(ssz);
      if (dst_t == src_t) copy_row_bytes(dsz, d, ds, s, ss, inner);
      else convert_strided(dst_t, d, ds, src_t, s, ss, inner);
    }
  };
  if (rows > 1 && g.numel() >= kParallelCopyElements)
    parallel_for(rows, std::max<int64_t>(1, kParallelCopyElements / 4 / inner), run_rows);
  else
    run_rows(0, rows, 0);
}

size_t WorkspaceBooking::book(size_t bytes) {
  constexpr size_t kAlign = 64;
  const size_t at = (total_ + kAlign - 1) / kAlign * kAlign;
  total_ = at + bytes;
  return at;
}

namespace {

bool overlaps(const aclTensor& a, const aclTensor& b) {
  if (!a.data || !b.data || a.numel() == 0 || b.numel() == 0) return false;
  int64_t alo, ahi, blo, bhi;
  a.byte_extent(&alo, &ahi);
  b.byte_extent(&blo, &bhi);
  const auto pa = reinterpret_cast<intptr_t>(a.data), pb = reinterpret_cast<intptr_t>(b.data);
  return pa + alo < pb + bhi && pb + blo < pa + ahi;
}

}  // namespace

int DensePlan::add(const aclTensor& t, DType as, bool is_output, bool read, bool strided) {
  const int slot = b_.slot_of(t);
  if (slot < 0) throw std::logic_error("DensePlan: tensor is not a slot of the op");
  if (!strided && t.dtype != as && !(is_compute_dtype(as) && is_compute_dtype(t.dtype)))
    throw std::logic_error("DensePlan: a converted operand needs compute dtypes on both sides");
  Operand o{slot, t.dtype, strided ? t.dtype : as, t.view, t.strides, is_output, read, true, 0};
  if (!strided) {
    bool direct = t.dtype == as && t.is_contiguous();
    if (direct && is_output && separate_)
      for (const aclTensor* in : inputs_)
        if (overlaps(t, *in)) direct = false;
    if (!direct) {
      o.direct = false;
      o.buffer = booking_.book(static_cast<size_t>(t.numel()) * dtype_size(as));
    }
  }
  if (!is_output) inputs_.push_back(&t);
  ops_.push_back(std::move(o));
  return static_cast<int>(ops_.size()) - 1;
}

int DensePlan::input(const aclTensor& t, DType as) { return add(t, as, false, true, false); }
int DensePlan::output(const aclTensor& t, DType as, Access access) {
  return add(t, as, true, access == Access::kReadWrite, false);
}
int DensePlan::strided(const aclTensor& t) { return add(t, t.dtype, false, true, true); }

class DenseKernel final : public Kernel {
 public:
  DenseKernel(std::string name, std::vector<DensePlan::Operand> ops,
              std::function<void(const DenseArgs&)> body)
      : name_(std::move(name)), ops_(std::move(ops)), body_(std::move(body)) {}

  std::string name() const override { return name_; }

  void run(void* const* data, void* workspace) const override {
    DenseArgs a;
    a.workspace_ = static_cast<char*>(workspace);
    a.ptr_.resize(ops_.size());
    const Dims* dense_strides = nullptr;
    Dims tmp;
    for (size_t k = 0; k < ops_.size(); ++k) {
      const auto& o = ops_[k];
      if (o.direct) {
        a.ptr_[k] = data[o.slot];
        continue;
      }
      a.ptr_[k] = a.workspace_ + o.buffer;
      if (o.read) {
        tmp = contiguous_strides(o.shape);
        dense_strides = &tmp;
        copy_strided(o.shape, o.as, a.ptr_[k], *dense_strides, o.stored, data[o.slot], o.strides);
      }
    }
    body_(a);
    for (size_t k = 0; k < ops_.size(); ++k) {
      const auto& o = ops_[k];
      if (o.direct || !o.is_output) continue;
      copy_strided(o.shape, o.stored, data[o.slot], o.strides, o.as, a.ptr_[k], contiguous_strides(o.shape));
    }
  }

 private:
  std::string name_;
  std::vector<DensePlan::Operand> ops_;
  std::function<void(const DenseArgs&)> body_;
};

void DensePlan::finish(std::string name, std::function<void(const DenseArgs&)> body) {
  b_.set_kernel(std::make_shared<DenseKernel>(std::move(name), ops_, std::move(body)), booking_.total());
}

}  // namespace pacl
