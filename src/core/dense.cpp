#include "core/dense.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "core/convert.h"
#include "core/elementwise.h"
#include "core/parallel.h"
#include "runtime/status.h"

namespace pacl {

namespace {

constexpr int64_t kParallelCopyElements = 64 * 1024;
// Copies of at least this many bytes write with non-temporal stores (they would only evict the
// caches, and skipping the read-for-ownership of the destination saves a third of the traffic).
constexpr int64_t kStreamBytes = 8 << 20;

// Element offsets of index `r` over the dims `dims` of a merged geometry (row-major among them).
void offsets_of(const Geometry& g, const std::vector<size_t>& dims, int64_t r, int64_t* dst_off, int64_t* src_off) {
  int64_t d = 0, s = 0;
  for (size_t k = dims.size(); k-- > 0;) {
    const size_t dim = dims[k];
    const int64_t i = r % g.shape[dim];
    r /= g.shape[dim];
    d += i * g.strides[0][dim];
    s += i * g.strides[1][dim];
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

// memcpy with non-temporal stores for the 32-byte aligned body (the caller fences).
void copy_bytes_stream(char* d, const char* s, size_t n) {
#if defined(__AVX__)
  const size_t head = std::min(n, static_cast<size_t>((32 - reinterpret_cast<uintptr_t>(d) % 32) % 32));
  std::memcpy(d, s, head);
  size_t i = head;
  for (; i + 128 <= n; i += 128) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + 32));
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + 64));
    const __m256i e = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + 96));
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i), a);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i + 32), b);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i + 64), c);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i + 96), e);
  }
  std::memcpy(d + i, s + i, n - i);
#else
  std::memcpy(d, s, n);
#endif
}

// Calls f(type_tag-like U) for the unsigned type of `size` bytes.
template <typename F>
void visit_size(size_t size, F&& f) {
  switch (size) {
    case 1: return f(static_cast<uint8_t*>(nullptr));
    case 2: return f(static_cast<uint16_t*>(nullptr));
    case 4: return f(static_cast<uint32_t*>(nullptr));
    case 8: return f(static_cast<uint64_t*>(nullptr));
    case 16: return f(static_cast<Bytes16*>(nullptr));
    default: throw Unsupported(fmt::format("copying elements of {} bytes is not supported", size));
  }
}

// Same-dtype copy by element size: serves every storable dtype, not only the compute ones.
void copy_row_bytes(size_t size, void* dst, int64_t ds, const void* src, int64_t ss, int64_t n) {
  visit_size(size, [&](auto* tag) { copy_row<std::remove_pointer_t<decltype(tag)>>(dst, ds, src, ss, n); });
}

// One tile of a transposing copy: rows i < na along the source's fastest dim (a), columns j < nb
// along the destination's (b). Both sides stay in cache across the tile.
template <typename U>
void copy_tile_scalar(U* d, int64_t da, int64_t db, const U* s, int64_t sa, int64_t sb, int64_t na, int64_t nb) {
  for (int64_t j = 0; j < nb; ++j)
    for (int64_t i = 0; i < na; ++i) d[i * da + j * db] = s[i * sa + j * sb];
}

#if defined(__AVX__)
// o[i] = the 8 elements s[j * ss + i], j < 8: an 8 x 8 block of 4-byte elements transposed in
// registers (moved as bits).
inline void transpose8x8_32(const uint32_t* s, int64_t ss, __m256 o[8]) {
  auto ld = [&](int r) { return _mm256_loadu_ps(reinterpret_cast<const float*>(s + r * ss)); };
  const __m256 r0 = ld(0), r1 = ld(1), r2 = ld(2), r3 = ld(3), r4 = ld(4), r5 = ld(5), r6 = ld(6), r7 = ld(7);
  const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1), t2 = _mm256_unpacklo_ps(r2, r3),
               t3 = _mm256_unpackhi_ps(r2, r3), t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5),
               t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
  const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE),
               u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE),
               u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE),
               u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  o[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
  o[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
  o[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
  o[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
  o[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
  o[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
  o[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
  o[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}

// The same for a 4 x 4 block of 8-byte elements.
inline void transpose4x4_64(uint64_t* d, int64_t ds, const uint64_t* s, int64_t ss) {
  auto ld = [&](int r) { return _mm256_loadu_pd(reinterpret_cast<const double*>(s + r * ss)); };
  const __m256d r0 = ld(0), r1 = ld(1), r2 = ld(2), r3 = ld(3);
  const __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1), t2 = _mm256_unpacklo_pd(r2, r3),
                t3 = _mm256_unpackhi_pd(r2, r3);
  auto st = [&](int r, __m256d v) { _mm256_storeu_pd(reinterpret_cast<double*>(d + r * ds), v); };
  st(0, _mm256_permute2f128_pd(t0, t2, 0x20));
  st(1, _mm256_permute2f128_pd(t1, t3, 0x20));
  st(2, _mm256_permute2f128_pd(t0, t2, 0x31));
  st(3, _mm256_permute2f128_pd(t1, t3, 0x31));
}
#endif

#if defined(__SSE2__)
// An 8 x 8 block of 2-byte elements.
inline void transpose8x8_16(uint16_t* d, int64_t ds, const uint16_t* s, int64_t ss) {
  __m128i r[8];
  for (int k = 0; k < 8; ++k) r[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + k * ss));
  const __m128i a0 = _mm_unpacklo_epi16(r[0], r[1]), a1 = _mm_unpackhi_epi16(r[0], r[1]),
                a2 = _mm_unpacklo_epi16(r[2], r[3]), a3 = _mm_unpackhi_epi16(r[2], r[3]),
                a4 = _mm_unpacklo_epi16(r[4], r[5]), a5 = _mm_unpackhi_epi16(r[4], r[5]),
                a6 = _mm_unpacklo_epi16(r[6], r[7]), a7 = _mm_unpackhi_epi16(r[6], r[7]);
  const __m128i b0 = _mm_unpacklo_epi32(a0, a2), b1 = _mm_unpackhi_epi32(a0, a2), b2 = _mm_unpacklo_epi32(a1, a3),
                b3 = _mm_unpackhi_epi32(a1, a3), b4 = _mm_unpacklo_epi32(a4, a6), b5 = _mm_unpackhi_epi32(a4, a6),
                b6 = _mm_unpacklo_epi32(a5, a7), b7 = _mm_unpackhi_epi32(a5, a7);
  const __m128i o[8] = {_mm_unpacklo_epi64(b0, b4), _mm_unpackhi_epi64(b0, b4), _mm_unpacklo_epi64(b1, b5),
                        _mm_unpackhi_epi64(b1, b5), _mm_unpacklo_epi64(b2, b6), _mm_unpackhi_epi64(b2, b6),
                        _mm_unpacklo_epi64(b3, b7), _mm_unpackhi_epi64(b3, b7)};
  for (int k = 0; k < 8; ++k) _mm_storeu_si128(reinterpret_cast<__m128i*>(d + k * ds), o[k]);
}
#endif

// A tile, with register transposes of B x B blocks where the source is dense along a and the
// destination along b, the scalar loop for the edges and for any other strides. `stream` (4-byte
// elements, every destination row 32-byte aligned): non-temporal stores, two blocks side by side so
// that each destination row gets whole cache lines.
template <typename U>
void copy_tile(U* d, int64_t da, int64_t db, const U* s, int64_t sa, int64_t sb, int64_t na, int64_t nb, bool stream) {
#if defined(__AVX__)
  constexpr int64_t B = sizeof(U) == 4 ? 8 : sizeof(U) == 8 ? 4 : sizeof(U) == 2 ? 8 : 0;
#elif defined(__SSE2__)
  constexpr int64_t B = sizeof(U) == 2 ? 8 : 0;
#else
  constexpr int64_t B = 0;
#endif
  if constexpr (B == 0) {
    copy_tile_scalar(d, da, db, s, sa, sb, na, nb);
  } else {
    if (sa != 1 || db != 1) return copy_tile_scalar(d, da, db, s, sa, sb, na, nb);
    const int64_t ma = na - na % B;
    int64_t mb = nb - nb % B;
#if defined(__AVX__)
    if constexpr (sizeof(U) == 4) {
      __m256 o[8], p[8];
      if (stream) {  // two blocks side by side: each destination row gets 64 contiguous bytes at once
        mb = nb - nb % (2 * B);
        for (int64_t j = 0; j < mb; j += 2 * B)
          for (int64_t i = 0; i < ma; i += B) {
            transpose8x8_32(reinterpret_cast<const uint32_t*>(s + i + j * sb), sb, o);
            transpose8x8_32(reinterpret_cast<const uint32_t*>(s + i + (j + B) * sb), sb, p);
            for (int k = 0; k < 8; ++k) {
              float* row = reinterpret_cast<float*>(d + (i + k) * da + j);
              _mm256_stream_ps(row, o[k]);
              _mm256_stream_ps(row + 8, p[k]);
            }
          }
      } else {
        for (int64_t j = 0; j < mb; j += B)
          for (int64_t i = 0; i < ma; i += B) {
            transpose8x8_32(reinterpret_cast<const uint32_t*>(s + i + j * sb), sb, o);
            for (int k = 0; k < 8; ++k) _mm256_storeu_ps(reinterpret_cast<float*>(d + (i + k) * da + j), o[k]);
          }
      }
    }
    if constexpr (sizeof(U) == 8)
      for (int64_t j = 0; j < mb; j += B)
        for (int64_t i = 0; i < ma; i += B) transpose4x4_64(d + i * da + j, da, s + i + j * sb, sb);
#endif
#if defined(__SSE2__)
    if constexpr (sizeof(U) == 2)
      for (int64_t j = 0; j < mb; j += B)
        for (int64_t i = 0; i < ma; i += B) transpose8x8_16(d + i * da + j, da, s + i + j * sb, sb);
#endif
    if (ma < na) copy_tile_scalar(d + ma * da, da, db, s + ma, sa, sb, na - ma, nb);
    if (mb < nb) copy_tile_scalar(d + mb, da, db, s + mb * sb, sa, sb, ma, nb - mb);
  }
}

int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

// The transposed case: the source's fastest dim (a) is not the destination's (b). Copies the
// (a, b) planes in square tiles, all other dims outside, tiles spread over the threads.
bool copy_tiled(const Geometry& g, DType dst_t, void* dst, DType src_t, const void* src) {
  const size_t nd = g.shape.size();
  if (nd < 2) return false;
  size_t a = 0, b = 0;
  for (size_t k = 1; k < nd; ++k) {
    if (abs64(g.strides[1][k]) < abs64(g.strides[1][a])) a = k;
    if (abs64(g.strides[0][k]) < abs64(g.strides[0][b])) b = k;
  }
  constexpr int64_t kMinSide = 8;
  if (a == b || g.shape[a] < kMinSide || g.shape[b] < kMinSide) return false;
  if (abs64(g.strides[1][a]) >= abs64(g.strides[1][b]) || abs64(g.strides[0][b]) >= abs64(g.strides[0][a])) return false;
  const size_t dsz = dtype_size(dst_t), ssz = dtype_size(src_t);
  constexpr int64_t side = 64;  // 64 x 64 tiles: 16 KiB a side in float32
  std::vector<size_t> outer;
  for (size_t k = 0; k < nd; ++k)
    if (k != a && k != b) outer.push_back(k);
  int64_t outer_n = 1;
  for (size_t k : outer) outer_n *= g.shape[k];
  const int64_t ta = (g.shape[a] + side - 1) / side, tb = (g.shape[b] + side - 1) / side;
  const int64_t da = g.strides[0][a], db = g.strides[0][b], sa = g.strides[1][a], sb = g.strides[1][b];
  const int64_t units = outer_n * ta * tb;
  // Large copies bypass the caches on the destination side (no read-for-ownership of dst lines).
  bool stream = dst_t == src_t && dsz == 4 && g.numel() * 4 >= kStreamBytes && (da * 4) % 32 == 0 && (side * 4) % 32 == 0;
  for (size_t k = 0; k < nd && stream; ++k)
    if (k != b && (g.strides[0][k] * 4) % 32 != 0) stream = false;
  stream = stream && reinterpret_cast<uintptr_t>(dst) % 32 == 0;
  auto run = [&](int64_t from, int64_t to, int) {
    for (int64_t u = from; u < to; ++u) {
      const int64_t o = u / (ta * tb), t = u % (ta * tb);
      const int64_t i0 = (t / tb) * side, j0 = (t % tb) * side;
      int64_t doff, soff;
      offsets_of(g, outer, o, &doff, &soff);
      doff += i0 * da + j0 * db;
      soff += i0 * sa + j0 * sb;
      const int64_t na = std::min(side, g.shape[a] - i0), nb = std::min(side, g.shape[b] - j0);
      char* d = static_cast<char*>(dst) + doff * static_cast<int64_t>(dsz);
      const char* s = static_cast<const char*>(src) + soff * static_cast<int64_t>(ssz);
      if (dst_t == src_t) {
        visit_size(dsz, [&](auto* tag) {
          using U = std::remove_pointer_t<decltype(tag)>;
          copy_tile(reinterpret_cast<U*>(d), da, db, reinterpret_cast<const U*>(s), sa, sb, na, nb, stream);
        });
      } else {
        for (int64_t i = 0; i < na; ++i)
          convert_strided(dst_t, d + i * da * static_cast<int64_t>(dsz), db, src_t, s + i * sa * static_cast<int64_t>(ssz),
                          sb, nb);
      }
    }
#if defined(__AVX__)
    if (stream) _mm_sfence();  // order the streaming stores before the region ends
#endif
  };
  if (g.numel() >= kParallelCopyElements) parallel_for(units, std::max<int64_t>(1, kParallelCopyElements / 4 / (side * side)), run);
  else run(0, units, 0);
  return true;
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
  if (copy_tiled(g, dst_t, dst, src_t, src)) return;
  const size_t nd = g.shape.size();
  const int64_t inner = g.shape.back(), ds = g.strides[0].back(), ss = g.strides[1].back();
  const int64_t rows = g.numel() / inner;
  std::vector<size_t> row_dims(nd - 1);
  for (size_t k = 0; k + 1 < nd; ++k) row_dims[k] = k;
  // Long rows, few of them: each row is cut into chunks so that every thread gets work.
  const int64_t chunks = inner >= 2 * kParallelCopyElements && rows < 4 * max_threads()
                             ? (inner + kParallelCopyElements - 1) / kParallelCopyElements
                             : 1;
  const int64_t chunk = (inner + chunks - 1) / chunks;
  const size_t dsz = dtype_size(dst_t), ssz = dtype_size(src_t);
  const bool stream = dst_t == src_t && ds == 1 && ss == 1 && g.numel() * static_cast<int64_t>(dsz) >= kStreamBytes;
  auto run = [&](int64_t from, int64_t to, int) {
    for (int64_t u = from; u < to; ++u) {
      const int64_t r = u / chunks, c = u % chunks;
      int64_t doff, soff;
      offsets_of(g, row_dims, r, &doff, &soff);
      const int64_t first = c * chunk, n = std::min(chunk, inner - first);
      if (n <= 0) continue;
      doff += first * ds;
      soff += first * ss;
      char* d = static_cast<char*>(dst) + doff * static_cast<int64_t>(dsz);
      const char* s = static_cast<const char*>(src) + soff * static_cast<int64_t>(ssz);
      if (stream) copy_bytes_stream(d, s, static_cast<size_t>(n) * dsz);
      else if (dst_t == src_t) copy_row_bytes(dsz, d, ds, s, ss, n);
      else convert_strided(dst_t, d, ds, src_t, s, ss, n);
    }
#if defined(__AVX__)
    if (stream) _mm_sfence();
#endif
  };
  const int64_t units = rows * chunks;
  if (units > 1 && g.numel() >= kParallelCopyElements)
    parallel_for(units, std::max<int64_t>(1, kParallelCopyElements / 4 / std::min(inner, chunk)), run);
  else
    run(0, units, 0);
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
